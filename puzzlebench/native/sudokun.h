/* The search over grids of units from inside: what the depth-first search (sudokun.c) and
 * clause learning (sudokun_cdcl.c) share, declared here once, as CaDiCaL's internal.hpp is for
 * its files.  Each of the two includes this header and nothing of the other.
 *
 *   bitboard.c --bbu_solve, bbn_solve (pb_bitboard.h)--> sudokun.c
 *                                   Geo { UnitGrid grid; the frames, the rules' tables ... }
 *                                   propagate, searchn, restart_search
 *                                       |  BB_CDCL, or s->handover dead ends and no solution
 *                                       v
 *                  bbu_cdcl(&geo.grid, givens, rules, s)                     sudokun_cdcl.c
 *                                   Solver { const UnitGrid *g; the trail, the clauses ... }
 *
 *   proofs.c --bbu_prove--> sudokun.c --bbu_cdcl_prove--> sudokun_cdcl_proof.c (the same search
 *                                   compiled again with its proof hooks: clause learning from the start)
 */

/* The call goes one way: bbu_cdcl calls nothing of sudokun.c back.  sudokun.c builds and frees
 * the UnitGrid; clause learning only reads it.  Both count into the caller's one BBSearch
 * (pb_bitboard.h):
 *   sudokun.c       nodes guesses naked hidden locked alldiff backtracks restarts nogoods
 *                   nogoods_dropped; reads restart_unit, handover
 *   sudokun_cdcl.c  nodes guesses naked hidden conflicts restarts nogoods (clauses learnt);
 *                   reads conflict_unit
 * and both the limit, keep, deadline, sigints and seed, and give count, kept and solutions.
 *
 * A UnitGrid, for a 4x4 Sudoku (n = 4, 2x2 blocks; bbn_solve's units: rows 0-3, columns 4-7,
 * blocks 8-11), at cell 5 (row 1, column 1):
 *
 *     units[4u .. 4u+4)     u = 1: 4 5 6 7     u = 5: 1 5 9 13     u = 8: 0 1 4 5
 *     cu_start[5] = 15      cu[15 .. 18)     = 1 5 8               (its row, column, block)
 *     peer_start[5] = 35    peers[35 .. 42)  = 4 6 7  1 9 13  0    (each once, in the units' order)
 *
 * Below: the geometry (UnitGrid), the call (bbu_cdcl), the growable array (IntVec), the random
 * tie-breaks (splitmix64) and the restart policies (luby, restart_cutoff) with their units. */
#ifndef PUZZLEBENCH_SUDOKUN_H
#define PUZZLEBENCH_SUDOKUN_H
#include <stdlib.h>
#include "pb_bitboard.h"

/* Restarts: the first run's dead ends (sudokun.c) or conflicts (sudokun_cdcl.c) unless the
 * caller gives its own, and the growth of the geometric policy's cutoff (measured: results/rtd.md).
 * Clause learning restarts ten times less often than MiniSat's 100 conflicts: CaDiCaL's stable
 * mode's 1,024 (Biere, CaDiCaL's option "reluctant"), which decided 24 of 30 seeded runs at the
 * peak where 100 decided 16 (results/rtd.md). */
enum { RESTART_UNIT = 100, CONFLICT_UNIT = 1024 };
#define GEOMETRIC_GROWTH 1.5

/* n values, nunit units of n cells each (units: nunit * n cell indices, the caller's); cell c's
 * units are cu[cu_start[c] .. cu_start[c+1]), its peers (every other cell of its units, once)
 * peers[peer_start[c] .. peer_start[c+1]): arrays sudokun.c allocates and frees (geo_init,
 * geo_free). */
typedef struct {
    int n, nunit;
    const int *units;
    int *cu_start, *cu, *peer_start, *peers;
} UnitGrid;

/* The mask of all n values (n <= 64). */
static inline uint64_t all_values(int n) { return n == 64 ? ~0ULL : (1ULL << n) - 1; }

/* Counts the solutions of the grid with these givens (n * n values, 0 = empty) to s->limit;
 * rules: BB_RANDOM (ties in the first order broken by s->seed), BB_LUBY or BB_GEOMETRIC
 * (restarts, s->conflict_unit conflicts the first run).  -1 when memory fails.  Defined in
 * sudokun_cdcl.c, called by bbu_solve (sudokun.c). */
int bbu_cdcl(const UnitGrid *grid, const uint8_t *givens, int rules, BBSearch *s);

/* bbu_cdcl writing an LRAT proof of its search into `proof` (sudokun_cdcl_proof.c), the hints
 * naming the clauses of proof->formula; -1 when memory fails, the proof's included, -2 when the
 * formula's last clauses are not the blocking clauses of s->blocked. */
int bbu_cdcl_prove(const UnitGrid *grid, const uint8_t *givens, int rules, BBSearch *s, struct PBProof *proof);

/* A growable array of ints (the sizes are known only as the search goes). */
typedef struct { int *v; size_t len, cap; } IntVec;

static inline int push(IntVec *a, int x) {
    if (a->len == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 16;
        int *p = realloc(a->v, cap * sizeof(int));
        if (!p) return -1;
        a->v = p; a->cap = cap;
    }
    a->v[a->len++] = x;
    return 0;
}

/* Room for `more` ints at the end of a. */
static inline int reserve(IntVec *a, size_t more) {
    if (a->len + more <= a->cap) return 0;
    size_t cap = a->cap ? a->cap : 64;
    while (cap < a->len + more) cap *= 2;
    int *p = realloc(a->v, cap * sizeof(int));
    if (!p) return -1;
    a->v = p; a->cap = cap;
    return 0;
}

/* splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
 * OOPSLA 2014): one add and three multiply-xorshifts, ample for tie-breaks. */
static inline uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Luby, Sinclair and Zuckerman's universal sequence ("Optimal speedup of Las Vegas
 * algorithms", IPL 1993): 1 1 2 1 1 2 4 1 1 2 ..., its i-th term (i from 1). */
static inline uint64_t luby(uint64_t i) {
    for (;;) {
        uint64_t k = 1;
        while ((1ULL << k) - 1 < i) k++;
        if (i == (1ULL << k) - 1) return 1ULL << (k - 1);
        i -= (1ULL << (k - 1)) - 1;
    }
}

/* The dead ends or conflicts allowed to the run after `restarts` restarts, `unit` to the
 * first: Luby's sequence or the geometric one by the rule bits, 0 (never) with neither. */
static inline uint64_t restart_cutoff(int rules, uint64_t unit, uint64_t restarts) {
    if (rules & BB_LUBY) {
        uint64_t times = luby(restarts + 1);
        return times > UINT64_MAX / unit ? UINT64_MAX : unit * times;
    }
    if (!(rules & BB_GEOMETRIC)) return 0;
    double c = (double)unit;
    for (uint64_t i = 0; i < restarts && c < 1e18; i++) c *= GEOMETRIC_GROWTH;
    return (uint64_t)c;
}
#endif
