/* Internal interface between the bitboard engines (sudoku9.c, sudokun.c, queens.c,
 * skyscrapers.c) and their Python bindings (bitboard.c).  The search functions take plain C
 * buffers and never touch Python objects, so the bindings can release the GIL around them. */
#ifndef PUZZLEBENCH_PB_BITBOARD_H
#define PUZZLEBENCH_PB_BITBOARD_H
#include <stdint.h>
#include <stddef.h>
#include "pb_common.h"


/* What every search reports: solutions found (up to the limit), the first `keep` of them,
 * and its counters.  `limit` 0 means all. */
typedef struct {
    long long limit;      /* stop after this many solutions; 0 = all */
    int keep;             /* how many solutions to copy out */
    uint8_t *solutions;   /* keep * n_cells values (1-based), caller-owned */
    int kept;
    long long count;
    int timed_out;
    double deadline;      /* pb_now() value after which to stop; 0 = none */
    sig_atomic_t sigints; /* pb_sigints when the search began (a change: Ctrl-C, stop) */
    uint64_t nodes, guesses, naked, hidden, locked, backtracks;
    uint64_t alldiff;     /* candidates removed by the alldifferent filter on units (16 values up) */
    uint64_t seed;        /* grids of units with BB_RANDOM: the random tie-breaks' seed */
    uint64_t restart_unit;   /* grids of units with restarts: the first run's dead ends (0: 100) */
    uint64_t conflict_unit;  /* ... with clause learning: the first run's conflicts (0: 1024) */
    uint64_t restarts;    /* grids of units with BB_LUBY or BB_GEOMETRIC: searches begun again */
    uint64_t nogoods;     /* grids of units with BB_NOGOODS: nogoods recorded at restarts */
    uint64_t nogoods_dropped;   /* ... and those not recorded, past the memory cap */
    uint64_t conflicts;   /* grids of units, clause learning (BB_CDCL, or after the handover): conflicts,
                             each a clause learnt (in nogoods) or a solution blocked */
    uint64_t handover;    /* grids of units without BB_CDCL: the depth-first search's dead ends with no
                             solution found after which clause learning takes the puzzle over (0: never) */
    const uint8_t *blocked;   /* clause learning's proof: solutions known before the search (nblocked of */
    int nblocked;             /* n_cells values each), blocked from its start, so that it only refutes */
} BBSearch;

/* The rules of the searches over units (bbu_solve, bbn_solve): a bit set.  BB_ALLDIFF and
 * BB_WDEG are taken only for grids of 16 values or more (below, singles and the locked rule
 * leave too little search for them to pay: see sudokun.c). */
enum {
    BB_LOCKED = 1,   /* the locked rule (pointing and claiming and their kin) */
    BB_ALLDIFF = 2,  /* the alldifferent filter (Régin's) on every unit */
    BB_WDEG = 4,     /* branching: fewest candidates per weighted degree (dom/wdeg) */
    BB_LARGE = BB_ALLDIFF | BB_WDEG,
    BB_RANDOM = 8,      /* ties in the cell and value choice broken at random (BBSearch.seed) */
    BB_LUBY = 16,       /* restarts after a Luby sequence of dead ends, until a first solution */
    BB_GEOMETRIC = 32,  /* restarts after a geometric sequence of dead ends, likewise */
    BB_NOGOODS = 64,    /* with restarts: nogoods recorded at each restart (sudokun.c, nogoods) */
    BB_CDCL = 128       /* conflict-driven clause learning instead of the depth-first search
                           (sudokun_cdcl.c); takes BB_RANDOM, BB_LUBY, BB_GEOMETRIC */
};

/* 9x9 Sudoku, band bitboards (sudoku9.c).  givens: 81 values 0..9.  `locked` turns on
 * pointing/claiming.  Never fails: a contradiction is a count of 0.  The kernel is compiled
 * once per instruction set and bb9_init picks the copy this processor runs best (sudoku9_isa.c):
 * bb9_kernel names the copy in use, bb9_kernels the copies this processor runs (the preferred
 * first; how many), bb9_use_kernel switches to a copy by name (-1 when no copy of that name
 * runs here). */
enum { BB9_KERNELS_MAX = 4 };
void bb9_init(void);
void bb9_solve(const uint8_t *givens, int locked, BBSearch *s);
const char *bb9_kernel(void);
int bb9_kernels(const char *names[BB9_KERNELS_MAX]);
int bb9_use_kernel(const char *name);

/* The 9x9 search writing a DRUP proof of what it finds into `proof` (sudoku9_proof.c; the
 * portable copy, option locked, branching on cells): every solution, the proof complete unless
 * s->timed_out.  bb9_prove_init once before.  -1 when the proof could not be allocated. */
struct PBProof;
void bb9_prove_init(void);
int bb9_prove(const uint8_t *givens, BBSearch *s, struct PBProof *proof);

/* A grid of n x n cells (n <= 64) whose `nunit` units (units: nunit * n cell indices, each
 * unit n distinct cells in 0 .. n*n-1, checked by the caller) each hold every value once:
 * Sudoku-X, jigsaw, Latin squares (sudokun.c).  `rules` (BB_LOCKED, BB_ALLDIFF, BB_WDEG): the
 * locked rule over every two units sharing two cells or more; for n >= 16, the alldifferent
 * filter and dom/wdeg branching; BB_RANDOM, BB_LUBY, BB_GEOMETRIC: randomised restarts (sudokun.c,
 * restart_search).  Returns -1 on allocation failure. */
int bbu_solve(int n, int nunit, const int *units, const uint8_t *givens, int rules, BBSearch *s);

/* The same grid searched by clause learning from the start (BB_CDCL; BB_RANDOM, BB_LUBY and
 * BB_GEOMETRIC taken, no other rule), writing a DRUP proof of what it finds into `proof`
 * (sudokun_cdcl_proof.c): every solution, the proof complete unless s->timed_out.  -1 when
 * memory fails. */
int bbu_prove(int n, int nunit, const int *units, const uint8_t *givens, int rules, BBSearch *s,
              struct PBProof *proof);

/* Sudoku of any block shape up to 64 values: bbu_solve on its rows, columns and blocks
 * (sudokun.c).  Returns -1 on allocation failure. */
int bbn_solve(int box_rows, int box_cols, const uint8_t *givens, int rules, BBSearch *s);

/* N-Queens, n <= 64, placed[row] = 1-based column or 0 (queens.c).  `symmetry` allows the
 * mirror halving when no queen is placed and all solutions are counted. */
int bbq_solve(int n, const uint8_t *placed, int symmetry, BBSearch *s);

/* Skyscrapers, n <= 9 (skyscrapers.c): clues 0 = none, givens 0 = empty.  Allocates
 * nothing and keeps no global state.  Returns -1 when n is out of range. */
int bbs_solve(int n, const uint8_t *top, const uint8_t *bottom, const uint8_t *left,
              const uint8_t *right, const uint8_t *givens, BBSearch *s);

static inline int bb_stop(const BBSearch *s) {
    return s->timed_out || (s->limit > 0 && s->count >= s->limit);
}
static inline int bb_tick(BBSearch *s) {
    s->nodes++;
    if (PB_MUST_STOP(s->nodes, PB_CLOCK_EVERY, s->deadline, s->sigints)) s->timed_out = 1;
    return s->timed_out;
}
#endif
