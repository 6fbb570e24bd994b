/* Conflict-driven clause learning over a grid of units (bbu_solve with BB_CDCL, or after the
 * depth-first search of sudokun.c hands a puzzle over), on the grid itself, where the depth-first
 * search lives in the heavy tail of large completions near their hardness peak (results/rtd.md,
 * "Clause learning").  The puzzle's clauses are never written: each is a kind of reason (below).
 * The loop is MiniSat's (Eén and Sörensson, "An extensible SAT-solver", SAT 2003): propagate; on
 * a conflict learn its first-UIP clause (Marques-Silva and Sakallah, GRASP, 1999) less the
 * literals the rest implies, each lower level's literals replaced by their UIP where one implies
 * them all (shrink; once a solution is found, shrink_all_uip), jump back, bump its variables
 * and those of their reasons (VSIDS); restart on the Luby or geometric sequence of conflicts
 * until a solution is found; remove learnt clauses not used lately, keeping those of few levels
 * (Audemard and Simon, IJCAI 2009; reduce).  A decision is always "cell c holds value v", v from
 * the longest trail since the restart where it is open (target phases, below): saved phases took
 * six times the CPU on QWH of order 35, Glucose's restarts twice (results/rtd.md).  Counting:
 * each solution found is blocked for good by the clause of its decisions' negations, so none is
 * found twice and the count is complete when the clauses leave none. */
#include <stdlib.h>
#include <string.h>
#include "sudokun.h"

/* One copy writes an LRAT proof of its search (sudokun_cdcl_proof.c defines CDCL_PROOF, the
 * hooks and the copy's name): each reason below is a clause of the puzzle's CNF or a clause
 * learnt, so a clause learnt follows by unit propagation from the reasons of the literals its
 * derivation resolved away, and the hooks name those clauses, from the conflict back, in its
 * hints.  In the search's own copy they are nothing. */
#ifndef CDCL_PROOF
#define CDCL_COPY(name) name
#define PROOF_CONFLICT(s, r, x) ((void)0)   /* the conflict a clause is learnt from: reason r of x; x < 0: none */
#define PROOF_LEARNT(S, s) ((void)0)        /* S->learnt learnt (before the jump back) */
#define PROOF_FORGOTTEN(S, s, k) ((void)0)  /* learnt clause k removed */
#define PROOF_KEPT(s, k, to) ((void)0)      /* learnt clause k kept as clause `to` */
#define PROOF_REFUTED(S, s) ((void)0)       /* no solution left: the empty clause, from the conflict */
#define PROOF_GIVENS_CLASH(S, s, x) ((void)0)   /* given x is out at the root: the empty clause */
#endif

/* Variable x = cell * n + value (value 0-based), literal 2x ("x holds") or 2x + 1 ("x does not").
 * Why a literal holds, a reason kind and its payload in 32 bits:
 *   R_BINARY  x holds, so a value y of the same cell, or x's value in a peer, does not (the
 *             clause "not x or not y"; payload x);
 *   R_CELL    every other value of the cell is out, so the last one holds (a naked single);
 *   R_UNIT    every other cell of unit u lacks the value, so this cell holds it (hidden single;
 *             payload u);
 *   R_CLAUSE  learnt clause k (payload k), watched on two literals (Moskewicz et al., "Chaff",
 *             DAC 2001). */
enum { R_DECISION = 0, R_BINARY = 1, R_CELL = 2, R_UNIT = 3, R_CLAUSE = 4 };
#define REASON(kind, payload) (((uint32_t)(kind) << 28) | (uint32_t)(payload))
#define KIND(r) ((int)((r) >> 28))
#define PAYLOAD(r) ((int)((r) & 0x0fffffffu))
/* Learnt clauses: a reduction every REDUCE_INTERVAL * sqrt(k + 1) conflicts, k the reductions
 * so far, removing REDUCE_PERCENT of those it may; clauses of at most GLUE decision levels are
 * never removed, and those of at most TIER2 outlive two reductions after their last use, the
 * others one (CaDiCaL's defaults: reduceint, reducetarget, reducetier1glue, reducetier2glue). */
enum { REDUCE_INTERVAL = 300, REDUCE_PERCENT = 75, GLUE = 2, TIER2 = 6 };
/* At most this many literals of learnt clauses (256 MB); past it the next reduction comes at once. */
enum { ARENA_CAP = 1 << 26 };
#define VAR_DECAY 0.95

/* A learnt clause: its literals from arena[start], its index and length just before them (HEADER
 * ints: a watch reads them from where the literals start), its levels (lbd, lowered when a use
 * finds fewer), whether it is kept for good, removed, and the reductions it outlives unused. */
typedef struct { int start, lbd; uint8_t keep, dead, used; } Clause;
enum { HEADER = 2 };

typedef struct Solver {
    const UnitGrid *g;
    int n, ncell, nvar;
    int *cu_pos;            /* parallel to g->cu: the cell's position in that unit */
    int8_t *asg;            /* per variable: 1 holds, -1 does not, 0 open */
    int *level;
    uint32_t *reason;
    int *trail, ntrail, qhead;
    int *trail_lim, nlevels;
    uint64_t *cellmask;     /* per cell: its values not yet out */
    uint64_t *posmask;      /* per unit * n + value: the unit's positions where the value is not out */
    uint64_t *root_cellmask, *root_posmask;   /* the two above at the root, as of the last restart */
    IntVec arena;              /* the learnt clauses, each its index and length, then its literals */
    Clause *cl; int ncl, clcap;
    IntVec *watches;           /* per literal: pairs (where the literals of a clause watching it start
                               in the arena, a literal of the clause: when that one holds, the
                               clause is not read) */
    double *activity, bump;
    int *heap, nheap, *heap_at;
    uint8_t *seen;
    unsigned *level_stamp, stamp;   /* per level: the last count that met it (levels_of) */
    IntVec learnt, buf, stack, toclear;
    IntVec block, added, reasonbuf, shrinking;   /* shrink_all_uip's: a level's literals, those it
                                                   adds, a reason's variables, the levels to shrink */
    uint64_t ticks, rng;
    int *target, target_len;    /* per cell: its value on the target trail, or -1 (below) */
    int proving;                /* a solution was found: no target phases from then on (below) */
} Solver;

static inline int lit_true(const Solver *S, int lit) {
    return S->asg[lit >> 1] == ((lit & 1) ? -1 : 1);
}
static inline int lit_false(const Solver *S, int lit) {
    return S->asg[lit >> 1] == ((lit & 1) ? 1 : -1);
}

/* VSIDS's order: a binary heap of the open variables, most active on top. */
static void heap_up(Solver *S, int i) {
    int x = S->heap[i];
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (S->activity[S->heap[parent]] >= S->activity[x]) break;
        S->heap[i] = S->heap[parent]; S->heap_at[S->heap[i]] = i;
        i = parent;
    }
    S->heap[i] = x; S->heap_at[x] = i;
}
static void heap_down(Solver *S, int i) {
    int x = S->heap[i];
    for (;;) {
        int child = 2 * i + 1;
        if (child >= S->nheap) break;
        if (child + 1 < S->nheap && S->activity[S->heap[child + 1]] > S->activity[S->heap[child]]) child++;
        if (S->activity[S->heap[child]] <= S->activity[x]) break;
        S->heap[i] = S->heap[child]; S->heap_at[S->heap[i]] = i;
        i = child;
    }
    S->heap[i] = x; S->heap_at[x] = i;
}
static void heap_insert(Solver *S, int x) {
    if (S->heap_at[x] >= 0) return;
    S->heap[S->nheap] = x; S->heap_at[x] = S->nheap++;
    heap_up(S, S->nheap - 1);
}
static int heap_pop(Solver *S) {
    int x = S->heap[0];
    S->heap_at[x] = -1;
    if (--S->nheap > 0) { S->heap[0] = S->heap[S->nheap]; S->heap_at[S->heap[0]] = 0; heap_down(S, 0); }
    return x;
}
static void bump(Solver *S, int x) {
    if ((S->activity[x] += S->bump) > 1e100) {
        for (int y = 0; y < S->nvar; y++) S->activity[y] *= 1e-100;
        S->bump *= 1e-100;
    }
    if (S->heap_at[x] >= 0) heap_up(S, S->heap_at[x]);
}

/* Give literal `lit` with its reason at the current level; a value put out leaves its cell's
 * and its units' masks at once, so that the counts read when it is propagated are current. */
static void assign(Solver *S, int lit, uint32_t reason) {
    int x = lit >> 1;
    S->asg[x] = (lit & 1) ? -1 : 1;
    S->level[x] = S->nlevels;
    S->reason[x] = reason;
    S->trail[S->ntrail++] = lit;
    if (lit & 1) {
        int c = x / S->n, v = x % S->n;
        const UnitGrid *g = S->g;
        S->cellmask[c] &= ~(1ULL << v);
        for (int k = g->cu_start[c]; k < g->cu_start[c + 1]; k++)
            S->posmask[(size_t)g->cu[k] * S->n + v] &= ~(1ULL << S->cu_pos[k]);
    }
}

static void backtrack(Solver *S, int level) {
    if (S->nlevels <= level) return;
    const UnitGrid *g = S->g;
    for (int i = S->ntrail - 1; i >= S->trail_lim[level]; i--) {
        int lit = S->trail[i], x = lit >> 1;
        if (lit & 1) {
            int c = x / S->n, v = x % S->n;
            S->cellmask[c] |= 1ULL << v;
            for (int k = g->cu_start[c]; k < g->cu_start[c + 1]; k++)
                S->posmask[(size_t)g->cu[k] * S->n + v] |= 1ULL << S->cu_pos[k];
        }
        S->asg[x] = 0;
        heap_insert(S, x);
    }
    S->ntrail = S->qhead = S->trail_lim[level];
    S->nlevels = level;
}

/* The variables of the clause behind reason r of variable x (x among them) into S->buf: the
 * clause's literals are all false but x's, or all false when it is a conflict.  With
 * `open_only`, a cell's or a unit's clause less its variables out at the root as of the last
 * restart (S->root_cellmask, S->root_posmask): the search's analysis passes over level 0, and
 * such a clause has lost most of its n variables there once the givens are in; the proof's
 * hints need the whole clause. */
static int reason_vars(Solver *S, uint32_t r, int x, int open_only) {
    const int n = S->n, c = x / n, v = x % n;
    S->buf.len = 0;
    switch (KIND(r)) {
    case R_BINARY:
        if (push(&S->buf, x) < 0 || push(&S->buf, PAYLOAD(r)) < 0) return -1;
        break;
    case R_CELL:
        for (uint64_t m = open_only ? S->root_cellmask[c] : all_values(n); m; m &= m - 1)
            if (push(&S->buf, c * n + pb_ctz64(m)) < 0) return -1;
        break;
    case R_UNIT: {
        const int u = PAYLOAD(r), *cells = S->g->units + (size_t)u * n;
        for (uint64_t m = open_only ? S->root_posmask[(size_t)u * n + v] : all_values(n); m; m &= m - 1)
            if (push(&S->buf, cells[pb_ctz64(m)] * n + v) < 0) return -1;
        break;
    }
    case R_CLAUSE: {
        const int *lits = S->arena.v + S->cl[PAYLOAD(r)].start;
        for (int i = 0; i < lits[-1]; i++) if (push(&S->buf, lits[i] >> 1) < 0) return -1;
        break;
    }
    }
    return 0;
}

static int clause_vars(Solver *S, uint32_t r, int x) { return reason_vars(S, r, x, 0); }
static int open_vars(Solver *S, uint32_t r, int x) { return reason_vars(S, r, x, 1); }

/* The masks at the root kept (S->nlevels is 0). */
static void keep_root(Solver *S) {
    memcpy(S->root_cellmask, S->cellmask, sizeof(uint64_t) * (size_t)S->ncell);
    memcpy(S->root_posmask, S->posmask, sizeof(uint64_t) * (size_t)S->g->nunit * S->n);
}

/* Unit propagation to a fixed point; the conflict's reason and variable (its clause, as
 * clause_vars reads it) in *confl, *confl_var, or 0 when there is none. */
static int propagate(Solver *S, uint32_t *confl, int *confl_var, BBSearch *s) {
    const UnitGrid *g = S->g;
    const int n = S->n;
    while (S->qhead < S->ntrail) {
        int lit = S->trail[S->qhead++], x = lit >> 1, c = x / n, v = x % n;
        if (!(lit & 1)) {   /* x holds: the cell's other values and the value in its peers go out */
            for (uint64_t m = S->cellmask[c] & ~(1ULL << v); m; m &= m - 1) {
                int y = c * n + pb_ctz64(m);
                if (S->asg[y] == 1) { *confl = REASON(R_BINARY, x); *confl_var = y; return 1; }
                assign(S, 2 * y + 1, REASON(R_BINARY, x));
            }
            for (int k = g->cu_start[c]; k < g->cu_start[c + 1]; k++) {   /* the unit's places left */
                const int u = g->cu[k], *cells = g->units + (size_t)u * n;
                for (uint64_t m = S->posmask[(size_t)u * n + v] & ~(1ULL << S->cu_pos[k]); m; ) {
                    int y = cells[pb_ctz64(m)] * n + v;
                    if (S->asg[y] == 1) { *confl = REASON(R_BINARY, x); *confl_var = y; return 1; }
                    assign(S, 2 * y + 1, REASON(R_BINARY, x));
                    m &= S->posmask[(size_t)u * n + v] & ~(1ULL << S->cu_pos[k]);   /* less the cell just put out */
                }
            }
        } else {            /* x is out: its cell, and its value in each of its units, may be left one place */
            uint64_t m = S->cellmask[c];
            if (!m) { *confl = REASON(R_CELL, 0); *confl_var = x; return 1; }
            if (!(m & (m - 1))) {
                int y = c * n + pb_ctz64(m);
                if (!S->asg[y]) { assign(S, 2 * y, REASON(R_CELL, 0)); s->naked++; }
            }
            for (int k = g->cu_start[c]; k < g->cu_start[c + 1]; k++) {
                int u = g->cu[k];
                uint64_t pm = S->posmask[(size_t)u * n + v];
                if (!pm) { *confl = REASON(R_UNIT, u); *confl_var = x; return 1; }
                if (!(pm & (pm - 1))) {
                    int y = g->units[(size_t)u * n + pb_ctz64(pm)] * n + v;
                    if (!S->asg[y]) { assign(S, 2 * y, REASON(R_UNIT, u)); s->hidden++; }
                }
            }
        }
        /* the learnt clauses watching the literal just made false */
        IntVec *w = &S->watches[lit ^ 1];
        size_t i = 0, kept = 0;
        for (; i < w->len; i += 2) {
            int at = w->v[i], blocker = w->v[i + 1];
            /* the next clause's literals asked for now: a third of the watches read their clause,
             * and the read waits on memory (hard25d: 0.97 of the time without) */
            if (i + 2 < w->len) __builtin_prefetch(S->arena.v + w->v[i + 2]);
            if (lit_true(S, blocker)) { w->v[kept++] = at; w->v[kept++] = blocker; continue; }
            int *lits = S->arena.v + at, len = lits[-1], false_lit = lit ^ 1;
            if (lits[0] == false_lit) { lits[0] = lits[1]; lits[1] = false_lit; }
            if (lit_true(S, lits[0])) { w->v[kept++] = at; w->v[kept++] = lits[0]; continue; }
            int t = 2;
            while (t < len && lit_false(S, lits[t])) t++;
            if (t < len) {   /* never onto w: lits[t] is not false */
                lits[1] = lits[t]; lits[t] = false_lit;
                if (push(&S->watches[lits[1]], at) < 0 || push(&S->watches[lits[1]], lits[0]) < 0) return -1;
                continue;
            }
            w->v[kept++] = at; w->v[kept++] = lits[0];
            if (lit_false(S, lits[0])) {
                for (i += 2; i < w->len; i++) w->v[kept++] = w->v[i];
                w->len = kept;
                *confl = REASON(R_CLAUSE, lits[-2]); *confl_var = lits[0] >> 1;
                return 1;
            }
            assign(S, lits[0], REASON(R_CLAUSE, lits[-2]));
        }
        w->len = kept;
    }
    return 0;
}

/* The literal of variable z false now (z true: "not z"; z out: "z"). */
static inline int false_lit_of(const Solver *S, int z) { return 2 * z + (S->asg[z] == 1); }

/* Whether literal z of the learnt clause follows from the others: its reason's literals, and
 * theirs in turn, reach only literals of the clause or of level 0 (MiniSat's recursive
 * minimisation, Sörensson and Biere, "Minimizing learned clauses", SAT 2009); `levels` the
 * clause's levels, hashed to bits, to give up early.  The variables shown to follow stay
 * marked (bit 1 of S->seen, the clause's own mark; shrink_all_uip uses the others), in S->toclear. */
static int redundant(Solver *S, int z, uint32_t levels) {
    size_t top = S->toclear.len;
    S->stack.len = 0;
    if (push(&S->stack, z) < 0) return -1;
    while (S->stack.len) {
        int y = S->stack.v[--S->stack.len];
        if (open_vars(S, S->reason[y], y) < 0) return -1;
        for (size_t i = 0; i < S->buf.len; i++) {
            int q = S->buf.v[i];
            if (q == y || (S->seen[q] & 1) || S->level[q] == 0) continue;
            if (KIND(S->reason[q]) != R_DECISION && (levels >> (S->level[q] & 31) & 1)) {
                S->seen[q] |= 1;
                if (push(&S->stack, q) < 0 || push(&S->toclear, q) < 0) return -1;
            } else {
                for (size_t j = top; j < S->toclear.len; j++) S->seen[S->toclear.v[j]] &= ~1;
                S->toclear.len = top;
                return 0;
            }
        }
    }
    return 1;
}

/* The UIP of level `level` for the `count` literals of the learnt clause there (their
 * variables marked 1 in S->seen, as are all of the clause's): the literal of that level that,
 * with literals of the clause at lower levels, implies them all; -2 when there is none of that
 * kind (a reason reaches a lower level's literal outside the clause), -1 on no memory. */
static int level_uip(Solver *S, int level, int count) {
    int end = level < S->nlevels ? S->trail_lim[level] : S->ntrail, open = count, uip = -2;
    S->toclear.len = 0;
    for (int at = end - 1; at >= S->trail_lim[level - 1] && uip == -2; at--) {
        int p = S->trail[at] >> 1;
        if (!S->seen[p]) continue;
        if (open == 1) { uip = p; break; }
        open--;
        if (open_vars(S, S->reason[p], p) < 0) { uip = -1; break; }
        for (size_t i = 0; i < S->buf.len; i++) {
            int q = S->buf.v[i];
            if (q == p || S->level[q] == 0) continue;
            if (S->level[q] != level) {
                if (S->seen[q] != 1) { at = -1; break; }   /* not in the clause: no UIP here */
            } else if (!S->seen[q]) {
                S->seen[q] = 2; open++;
                if (push(&S->toclear, q) < 0) { uip = -1; break; }
            }
        }
    }
    for (size_t i = 0; i < S->toclear.len; i++) S->seen[S->toclear.v[i]] = 0;
    return uip;
}

/* Shrinking (Feng and Bacchus, "Clause size reduction with all-UIP learning", SAT 2020): the
 * learnt clause's literals of one lower level, where they follow from one literal of that
 * level and the clause's literals below it, replaced by that literal.  A decision "cell holds
 * value" puts out dozens of values at its level, and a clause learnt through a cell's or a
 * unit's at-least-one gathers them.  Each clause stays RUP: its literals assumed false give
 * each level's UIP, which gives by unit propagation the literals it replaced. */
static int shrink(Solver *S) {
    size_t len = S->learnt.len, out = 1;
    if (len < 3) return 0;
    int *lits = S->learnt.v;
    for (size_t i = 2; i < len; i++) {   /* the highest level first (insertion: clauses are short) */
        int lit = lits[i], l = S->level[lit >> 1];
        size_t j = i;
        for (; j > 1 && S->level[lits[j - 1] >> 1] < l; j--) lits[j] = lits[j - 1];
        lits[j] = lit;
    }
    S->stack.len = 0;
    for (size_t i = 1; i < len; i++) {
        S->seen[lits[i] >> 1] = 1;
        if (push(&S->stack, lits[i] >> 1) < 0) return -1;
    }
    for (size_t i = 1, j; i < len; i = j) {
        int level = S->level[lits[i] >> 1];
        for (j = i; j < len && S->level[lits[j] >> 1] == level; j++) {}
        int uip = j - i >= 2 ? level_uip(S, level, (int)(j - i)) : -2;
        if (uip == -1) return -1;
        if (uip < 0) { while (i < j) lits[out++] = lits[i++]; continue; }
        lits[out++] = false_lit_of(S, uip);
        if (!S->seen[uip]) {
            S->seen[uip] = 1;
            if (push(&S->stack, uip) < 0) return -1;
        }
    }
    S->learnt.len = out;
    for (size_t i = 0; i < S->stack.len; i++) S->seen[S->stack.v[i]] = 0;
    return 0;
}

/* The proof's shrinking, once a solution is found: as shrink above, but a literal of a lower
 * level that a reason on the way reaches may also be implied by the clause (`redundant`), or of
 * a level the clause has already (`present`, hashed as `levels`), and is then added (Feng and
 * Bacchus's stable all-UIP); the block is replaced unless that makes the clause longer, as CaDiCaL's
 * shrink does (Fleury and Biere, "Efficient all-UIP learned clause minimization", SAT 2021).
 * The clause keeps its levels, its jump and its asserting literal, and stays RUP: the UIP and
 * the literals beside it propagate the block again.  On the hard minimal 25x25 counted to two it
 * took 4-5% less CPU than shrink in the proof (conflicts after the first solution 11% fewer); in
 * the search for a first solution as well, 0.64 s against 0.72 s, but there it sent the peak
 * sets elsewhere (36x36 48% and 50% of results/rtd.md, seed 0: 1 and 1 of 6 decided against 3
 * and 3), so that search keeps shrink.
 * S->seen on entry: bit 1 the clause's variables below the conflict's level and those shown
 * redundant (S->toclear lists them, and the variables added join them); bit 2 marks the walk,
 * bit 4 the variables to add.  Returns the clause's length after, or -1 on no memory. */
static int shrink_level(Solver *S, int level, size_t len, uint32_t levels, uint32_t present) {
    S->block.len = S->added.len = 0;
    for (size_t i = 1; i < len; i++) {
        int z = S->learnt.v[i] >> 1;
        if (S->level[z] != level) continue;
        S->seen[z] |= 2;
        if (push(&S->block, z) < 0) return -1;
    }
    const size_t in_clause = S->block.len;
    int open = (int)in_clause, uip = -1, ok = 1;
    const int start = S->trail_lim[level - 1], end = level < S->nlevels ? S->trail_lim[level] : S->ntrail;
    for (int i = end - 1; i >= start && ok && in_clause > 1; i--) {
        int v = S->trail[i] >> 1;
        if (!(S->seen[v] & 2)) continue;
        if (--open == 0) { uip = v; break; }
        if (open_vars(S, S->reason[v], v) < 0) return -1;
        S->reasonbuf.len = 0;   /* redundant below reads S->buf again */
        for (size_t j = 0; j < S->buf.len; j++) if (push(&S->reasonbuf, S->buf.v[j]) < 0) return -1;
        for (size_t j = 0; j < S->reasonbuf.len; j++) {
            int q = S->reasonbuf.v[j];
            if (q == v || S->level[q] == 0 || (S->seen[q] & 5)) continue;
            if (S->level[q] == level) {
                if (S->seen[q] & 2) continue;
                S->seen[q] |= 2; open++;
                if (push(&S->block, q) < 0) return -1;
                continue;
            }
            int r = KIND(S->reason[q]) == R_DECISION ? 0 : redundant(S, q, levels);
            if (r < 0) return -1;
            if (r) { S->seen[q] |= 1; if (push(&S->toclear, q) < 0) return -1; continue; }
            if (!(present >> (S->level[q] & 31) & 1)) { ok = 0; break; }
            S->seen[q] |= 4;
            if (push(&S->added, q) < 0) return -1;
        }
    }
    for (size_t i = 0; i < S->block.len; i++) S->seen[S->block.v[i]] &= ~2;
    for (size_t i = 0; i < S->added.len; i++) S->seen[S->added.v[i]] &= ~4;
    if (!ok || uip < 0 || S->added.len + 1 > in_clause) return (int)len;
    size_t kept = 1;
    for (size_t i = 1; i < len; i++)
        if (S->level[S->learnt.v[i] >> 1] != level) S->learnt.v[kept++] = S->learnt.v[i];
    S->learnt.v[kept++] = false_lit_of(S, uip);
    if (!(S->seen[uip] & 1)) {   /* in the clause now: a later level's walk must not add it again */
        S->seen[uip] |= 1;
        if (push(&S->toclear, uip) < 0) return -1;
    }
    for (size_t i = 0; i < S->added.len; i++) {
        int q = S->added.v[i];
        S->learnt.v[kept++] = false_lit_of(S, q);
        S->seen[q] |= 1;
        if (push(&S->toclear, q) < 0) return -1;
    }
    return (int)kept;
}

/* Each level of the learnt clause S->learnt[0 .. len) below the conflict's shrunk once, in the
 * order they first appear (S->seen as shrink_level takes it); the clause's length after, or -1
 * on no memory. */
static int shrink_all_uip(Solver *S, size_t len, uint32_t levels) {
    uint32_t present = 0;
    S->shrinking.len = 0;
    for (size_t i = 1; i < len; i++) {
        int level = S->level[S->learnt.v[i] >> 1], first = 1;
        for (size_t j = 1; j < i && first; j++) first = S->level[S->learnt.v[j] >> 1] != level;
        if (first && push(&S->shrinking, level) < 0) return -1;
        present |= 1u << (level & 31);
    }
    for (size_t i = 0; i < S->shrinking.len; i++) {
        int after = shrink_level(S, S->shrinking.v[i], len, levels, present);
        if (after < 0) return -1;
        len = (size_t)after;
    }
    return (int)len;
}

/* The variables of the reasons of the learnt clause's literals bumped too, one step back and
 * at most REASON_BUMPS times the clause's length (Liang, Ganesh, Poupart and Czarnecki,
 * "Learning rate based branching heuristic for SAT solvers", SAT 2016, its "reason side rate";
 * CaDiCaL's bumpreason).  Hard minimal 25x25 counted to two, SGM at engine seeds 0-2: 4.17,
 * 4.74, 4.80 s against 4.78, 5.07, 5.13 s (results/bitboard.md, "hard25d"). */
enum { REASON_BUMPS = 10 };
static int bump_reasons(Solver *S, size_t len) {
    size_t budget = REASON_BUMPS * len, bumped = 0;
    S->stack.len = 0;
    for (size_t i = 0; i < len; i++) {   /* the clause's own, bumped already: bit 8 of seen, passed over */
        S->seen[S->learnt.v[i] >> 1] |= 8;
        if (push(&S->stack, S->learnt.v[i] >> 1) < 0) return -1;
    }
    for (size_t i = 1; i < len && bumped < budget; i++) {
        int z = S->learnt.v[i] >> 1;
        if (KIND(S->reason[z]) == R_DECISION) continue;
        if (open_vars(S, S->reason[z], z) < 0) return -1;
        for (size_t j = 0; j < S->buf.len && bumped < budget; j++) {
            int q = S->buf.v[j];
            if (S->level[q] == 0 || (S->seen[q] & 8)) continue;
            S->seen[q] |= 8;
            if (push(&S->stack, q) < 0) return -1;
            bump(S, q);
            bumped++;
        }
    }
    for (size_t i = 0; i < S->stack.len; i++) S->seen[S->stack.v[i]] &= ~8;
    return 0;
}

/* The number of decision levels among `count` variables (vars[i] >> shift: 1 for literals), each
 * level met stamped with a new S->stamp, so nothing is left to clear. */
static int levels_of(Solver *S, const int *vars, size_t count, int shift) {
    if (++S->stamp == 0) {   /* the stamps wrapped: the old ones cleared */
        memset(S->level_stamp, 0, sizeof(unsigned) * ((size_t)S->nvar + 1));
        S->stamp = 1;
    }
    int levels = 0;
    for (size_t i = 0; i < count; i++) {
        int l = S->level[vars[i] >> shift];
        if (S->level_stamp[l] != S->stamp) { S->level_stamp[l] = S->stamp; levels++; }
    }
    return levels;
}

/* Learnt clause k, its variables in S->buf, took part in a conflict: it outlives the next
 * reductions, and its levels are counted again (Audemard and Simon's "dynamic" LBD; the tiers
 * of Oh, "Between SAT and UNSAT", SAT 2015, as CaDiCaL keeps them).  Hard minimal 25x25 counted
 * to two, engine seeds 0-2 (results/bitboard.md, "hard25d"): SGM 3.67, 3.87 and 3.79 s against
 * 3.71, 4.15 and 4.20 s with the halving before it; without the recount 3.94, 3.99 and 3.85 s.
 * At the peak, 36x36 48% of results/rtd.md at seeds 0-3: 15 of 24 runs decided against 13. */
static void used(Solver *S, int k) {
    Clause *c = &S->cl[k];
    if (c->lbd > GLUE) {
        int levels = levels_of(S, S->buf.v, S->buf.len, 0);
        if (levels < c->lbd) c->lbd = levels;
    }
    c->used = 1 + (c->lbd <= TIER2);
}

/* First-UIP learning, minimised and shrunk: the learnt clause in S->learnt (its asserting
 * literal first, one of the highest level of the rest second), the level to jump back to
 * returned; -1 on no memory. */
static int analyze(Solver *S, uint32_t r, int x) {
    int paths = 0, index = S->ntrail - 1, p = -1;
    S->learnt.len = 0;
    if (push(&S->learnt, 0) < 0) return -1;
    for (;;) {
        if (open_vars(S, r, x) < 0) return -1;
        if (KIND(r) == R_CLAUSE) used(S, PAYLOAD(r));
        for (size_t i = 0; i < S->buf.len; i++) {
            int z = S->buf.v[i];
            if (z == p || S->seen[z] || S->level[z] == 0) continue;
            S->seen[z] = 1;
            bump(S, z);
            if (S->level[z] >= S->nlevels) paths++;
            else if (push(&S->learnt, false_lit_of(S, z)) < 0) return -1;
        }
        while (!S->seen[S->trail[index] >> 1]) index--;
        p = S->trail[index--] >> 1;
        S->seen[p] = 0;
        if (--paths == 0) break;
        r = S->reason[p]; x = p;
    }
    S->learnt.v[0] = false_lit_of(S, p);
    /* drop the literals implied by the rest of the clause */
    uint32_t levels = 0;
    S->toclear.len = 0;
    for (size_t i = 1; i < S->learnt.len; i++) {
        int z = S->learnt.v[i] >> 1;
        levels |= 1u << (S->level[z] & 31);
        if (push(&S->toclear, z) < 0) return -1;
    }
    size_t kept = 1;
    for (size_t i = 1; i < S->learnt.len; i++) {
        int z = S->learnt.v[i] >> 1, r = KIND(S->reason[z]) == R_DECISION ? 0 : redundant(S, z, levels);
        if (r < 0) return -1;
        if (!r) S->learnt.v[kept++] = S->learnt.v[i];
    }
    if (S->proving) {   /* the proof's shrinking, which goes further (below) */
        int shrunk = shrink_all_uip(S, kept, levels);
        if (shrunk < 0) return -1;
        kept = (size_t)shrunk;
    }
    for (size_t i = 0; i < S->toclear.len; i++) S->seen[S->toclear.v[i]] = 0;
    S->learnt.len = kept;
    if (!S->proving && shrink(S) < 0) return -1;
    kept = S->learnt.len;
    int back = 0;
    for (size_t i = 1; i < kept; i++) {
        int l = S->level[S->learnt.v[i] >> 1];
        if (l > back) { back = l; int t = S->learnt.v[1]; S->learnt.v[1] = S->learnt.v[i]; S->learnt.v[i] = t; }
    }
    if (bump_reasons(S, kept) < 0) return -1;
    S->bump /= VAR_DECAY;
    return back;
}

/* Clause k watched on its first two literals, each with the other as its blocker. */
static int watch(Solver *S, int k) {
    const int at = S->cl[k].start, *lits = S->arena.v + at;
    return push(&S->watches[lits[0]], at) < 0 || push(&S->watches[lits[0]], lits[1]) < 0
        || push(&S->watches[lits[1]], at) < 0 || push(&S->watches[lits[1]], lits[0]) < 0 ? -1 : 0;
}

/* S->learnt as a clause, watched on its first two literals; its index, or -1. */
static int add_clause(Solver *S, int keep, int lbd) {
    if (S->ncl == S->clcap) {
        int cap = S->clcap ? S->clcap * 2 : 1024;
        Clause *p = realloc(S->cl, (size_t)cap * sizeof(Clause));
        if (!p) return -1;
        S->cl = p; S->clcap = cap;
    }
    int k = S->ncl;
    Clause *c = &S->cl[k];
    if (push(&S->arena, k) < 0 || push(&S->arena, (int)S->learnt.len) < 0) return -1;
    c->start = (int)S->arena.len; c->lbd = lbd; c->keep = (uint8_t)keep; c->dead = c->used = 0;
    for (size_t i = 0; i < S->learnt.len; i++) if (push(&S->arena, S->learnt.v[i]) < 0) return -1;
    if (watch(S, k) < 0) return -1;
    S->ncl++;
    return k;
}

/* Learn S->learnt: jump back to `back`, keep it (a clause of one literal is a fact of level 0),
 * and give its first literal. */
static int learn(Solver *S, int back, int keep, BBSearch *s) {
    PROOF_LEARNT(S, s);
    int lbd = levels_of(S, S->learnt.v, S->learnt.len, 1);
    backtrack(S, back);
    if (S->learnt.len == 1) { assign(S, S->learnt.v[0], REASON(R_DECISION, 0)); return 0; }
    int k = add_clause(S, keep, lbd);
    if (k < 0) return -1;
    assign(S, S->learnt.v[0], REASON(R_CLAUSE, k));
    return 0;
}

static int by_key(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Remove REDUCE_PERCENT of the learnt clauses of more than GLUE levels not used since the last
 * reductions (Clause.used), the most levels first, then the longest, and none that is the reason
 * of a literal now given; the clauses kept renumbered and watched again. */
static int reduce(Solver *S, BBSearch *s) {
    uint64_t *order = malloc(sizeof(uint64_t) * ((size_t)S->ncl + 1));
    int *renumber = malloc(sizeof(int) * ((size_t)S->ncl + 1)), candidates = 0;
    if (!order || !renumber) { free(order); free(renumber); return -1; }
    for (int k = 0; k < S->ncl; k++) {
        Clause *c = &S->cl[k];
        int first = S->arena.v[c->start] >> 1;
        int locked = lit_true(S, S->arena.v[c->start]) && S->reason[first] == REASON(R_CLAUSE, k);
        int recent = c->used, len = S->arena.v[c->start - 1];
        if (c->used) c->used--;
        /* sorted on: the most levels first, then the longest, then the oldest (the lowest index) */
        if (!c->keep && c->lbd > GLUE && !locked && !recent)
            order[candidates++] = (uint64_t)(255 - (c->lbd < 255 ? c->lbd : 255)) << 56
                | (uint64_t)(65535 - (len < 65535 ? len : 65535)) << 40 | (uint32_t)k;
    }
    qsort(order, (size_t)candidates, sizeof(uint64_t), by_key);
    for (int i = 0; i < candidates * REDUCE_PERCENT / 100; i++) S->cl[(uint32_t)order[i]].dead = 1;
    int next = 0, at = 0;
    for (int k = 0; k < S->ncl; k++) {
        Clause c = S->cl[k];
        if (c.dead) { PROOF_FORGOTTEN(S, s, k); renumber[k] = -1; continue; }
        PROOF_KEPT(s, k, next);
        int len = S->arena.v[c.start - 1];
        memmove(S->arena.v + at, S->arena.v + c.start - HEADER, sizeof(int) * (size_t)(HEADER + len));
        S->arena.v[at] = next;
        c.start = at + HEADER; at += HEADER + len;
        renumber[k] = next;
        S->cl[next++] = c;
    }
    S->arena.len = (size_t)at; S->ncl = next;
    for (int i = 0; i < S->ntrail; i++) {
        int x = S->trail[i] >> 1;
        if (KIND(S->reason[x]) == R_CLAUSE) S->reason[x] = REASON(R_CLAUSE, renumber[PAYLOAD(S->reason[x])]);
    }
    for (int l = 0; l < 2 * S->nvar; l++) S->watches[l].len = 0;
    for (int k = 0; k < S->ncl; k++) {
        if (watch(S, k) < 0) { free(order); free(renumber); return -1; }
    }
    free(order); free(renumber);
    return 0;
}

/* The solution on the trail, counted and copied out. */
static void record(Solver *S, BBSearch *s) {
    if (s->kept < s->keep) {
        uint8_t *out = s->solutions + (size_t)s->kept * S->ncell;
        for (int x = 0; x < S->nvar; x++) if (S->asg[x] == 1) out[x / S->n] = (uint8_t)(x % S->n + 1);
        s->kept++;
    }
    s->count++;
}

static int stop_now(Solver *S, BBSearch *s) {
    if (PB_MUST_STOP(++S->ticks, PB_CLOCK_EVERY, s->deadline, s->sigints)) s->timed_out = 1;
    return bb_stop(s);
}

/* Target phases on cells (Biere and Fleury, "Chasing target phases", POS 2020): the trail
 * before the conflict's last decision, when it is the longest since the restart, is kept as each
 * cell's value; a decision on cell c then sets c's kept value where it is open, and the value
 * VSIDS picked where not.  The decision stays "cell holds value", so counting is as before.
 * Once a solution is found the search is a proof that no other exists, and the target is put
 * away for good: it would lead back to the solution just blocked (hard 25x25 counted to two:
 * 0.82 s against 1.15 s, results/bitboard.md, "Hard minimal 25x25"). */
static void keep_target(Solver *S) {
    S->target_len = S->trail_lim[S->nlevels - 1];
    for (int i = 0; i < S->target_len; i++) {
        int lit = S->trail[i];
        if (!(lit & 1)) S->target[(lit >> 1) / S->n] = (lit >> 1) % S->n;
    }
}

static int target_value(const Solver *S, int y) {
    int c = y / S->n, w = S->target[c];
    return w >= 0 && !S->asg[c * S->n + w] ? c * S->n + w : y;
}

#ifdef CDCL_PROOF
/* The solutions a claim names (s->blocked), each blocked from the start by its clause of the
 * claim's formula, "one of its open cells holds another value" (less its literals false at the
 * root: a lemma of the proof, PROOF_BLOCKED): the search is then the
 * refutation the claim needs, proving from the start (no target phases: they would lead back
 * to a blocked solution), with no lemma spent on finding them again.  1 when no solution is
 * left at the root, 0 when the search is to go on, -1 on no memory. */
static int block_known(Solver *S, const uint8_t *givens, BBSearch *s) {
    S->proving = 1;
    for (int k = 0; k < s->nblocked; k++) {
        const uint8_t *solution = s->blocked + (size_t)k * S->ncell;
        int satisfied = 0;
        S->learnt.len = 0;
        for (int c = 0; c < S->ncell && !satisfied; c++) {
            if (givens[c]) continue;
            int lit = 2 * (c * S->n + solution[c] - 1) + 1;   /* "c does not hold its value" */
            if (lit_true(S, lit)) satisfied = 1;
            else if (!lit_false(S, lit) && push(&S->learnt, lit) < 0) return -1;
        }
        if (satisfied) continue;
        PROOF_BLOCKED(S, s, k, givens);
        if (S->learnt.len == 0) return 1;
        if (S->learnt.len == 1) assign(S, S->learnt.v[0], REASON(R_DECISION, 0));
        else if (add_clause(S, 1, 0) < 0) return -1;
        uint32_t confl; int x;
        int p = propagate(S, &confl, &x, s);
        if (p == 1) PROOF_CONFLICT(s, confl, x);
        if (p) return p;
    }
    return 0;
}
#endif

/* The whole square root of x (x below 2^62). */
static uint64_t isqrt(uint64_t x) {
    uint64_t r = 0;
    for (uint64_t bit = 1ULL << 31; bit; bit >>= 1)
        if ((r + bit) * (r + bit) <= x) r += bit;
    return r;
}

/* The search: 1 when it ended (complete, at the limit, or out of time), -1 on no memory. */
static int search(Solver *S, int rules, BBSearch *s) {
    uint64_t unit = s->conflict_unit ? s->conflict_unit : CONFLICT_UNIT;
    uint64_t cutoff = restart_cutoff(rules, unit, 0), since_restart = 0;
    uint64_t next_reduce = REDUCE_INTERVAL, reductions = 0;
    keep_root(S);
    for (;;) {
        uint32_t confl; int x;
        int rc = propagate(S, &confl, &x, s);
        if (rc < 0) return -1;
        if (rc) {
            s->conflicts++; since_restart++;
            PROOF_CONFLICT(s, confl, x);
            if (S->nlevels == 0) { PROOF_REFUTED(S, s); return 1; }   /* no solution left */
            if (!S->proving && S->trail_lim[S->nlevels - 1] > S->target_len) keep_target(S);
            int back = analyze(S, confl, x);
            if (back < 0 || learn(S, back, 0, s) < 0) return -1;
            s->nogoods++;
            if (stop_now(S, s)) return 1;
            continue;
        }
        /* restarts only until a solution is found: the proof that no other exists ran in 0.95 of
         * the time without them (hard minimal 25x25, results/bitboard.md) */
        if (cutoff && since_restart >= cutoff && !S->proving) {
            backtrack(S, 0);
            keep_root(S);
            S->target_len = 0;
            s->restarts++;
            since_restart = 0;
            cutoff = restart_cutoff(rules, unit, s->restarts);
        }
        if (s->conflicts >= next_reduce || S->arena.len > ARENA_CAP) {
            if (reduce(S, s) < 0) return -1;
            next_reduce = s->conflicts + isqrt(REDUCE_INTERVAL * REDUCE_INTERVAL * (++reductions + 1));
        }
        int y = -1;
        while (S->nheap) { int z = heap_pop(S); if (!S->asg[z]) { y = z; break; } }
        if (y < 0) {   /* every variable given: a solution, blocked by its decisions' negations */
            record(S, s);
            if (bb_stop(s)) return 1;
            PROOF_CONFLICT(s, 0, -1);
            if (S->nlevels == 0) { PROOF_REFUTED(S, s); return 1; }
            if (!S->proving)   /* the target would lead back to the solution just blocked */
                for (int c = 0; c < S->ncell; c++) S->target[c] = -1;
            S->proving = 1;
            S->learnt.len = 0;
            for (int l = S->nlevels - 1; l >= 0; l--)
                if (push(&S->learnt, S->trail[S->trail_lim[l]] ^ 1) < 0) return -1;
            if (learn(S, S->nlevels - 1, 1, s) < 0) return -1;
            continue;
        }
        if (bb_tick(s)) return 1;
        y = target_value(S, y);
        s->guesses++;
        S->trail_lim[S->nlevels++] = S->ntrail;
        assign(S, 2 * y, REASON(R_DECISION, 0));   /* "y holds" */
    }
}

static void solver_free(Solver *S) {
    free(S->cu_pos); free(S->asg); free(S->level); free(S->reason); free(S->trail);
    free(S->trail_lim); free(S->cellmask); free(S->posmask);
    free(S->root_cellmask); free(S->root_posmask); free(S->arena.v); free(S->cl);
    if (S->watches) for (int l = 0; l < 2 * S->nvar; l++) free(S->watches[l].v);
    free(S->watches); free(S->activity); free(S->heap); free(S->heap_at); free(S->seen); free(S->level_stamp);
    free(S->target);
    free(S->learnt.v); free(S->buf.v); free(S->stack.v); free(S->toclear.v);
    free(S->block.v); free(S->added.v); free(S->reasonbuf.v); free(S->shrinking.v);
}

int CDCL_COPY(bbu_cdcl)(const UnitGrid *g, const uint8_t *givens, int rules, BBSearch *s) {
    Solver S;
    memset(&S, 0, sizeof S);
    const int n = g->n, ncell = n * n, nvar = ncell * n;
    S.g = g; S.n = n; S.ncell = ncell; S.nvar = nvar; S.bump = 1.0; S.rng = s->seed;
    size_t ncu = (size_t)g->cu_start[ncell];
    int rc = -1;
    S.cu_pos = malloc(sizeof(int) * (ncu + 1));
    S.asg = calloc((size_t)nvar, 1);
    S.level = calloc((size_t)nvar, sizeof(int));
    S.reason = calloc((size_t)nvar, sizeof(uint32_t));
    S.trail = malloc(sizeof(int) * (size_t)nvar);
    S.trail_lim = malloc(sizeof(int) * ((size_t)nvar + 1));
    S.cellmask = malloc(sizeof(uint64_t) * (size_t)ncell);
    S.posmask = malloc(sizeof(uint64_t) * (size_t)g->nunit * n);
    S.root_cellmask = malloc(sizeof(uint64_t) * (size_t)ncell);
    S.root_posmask = malloc(sizeof(uint64_t) * (size_t)g->nunit * n);
    S.watches = calloc(2 * (size_t)nvar, sizeof(IntVec));
    S.activity = malloc(sizeof(double) * (size_t)nvar);
    S.heap = malloc(sizeof(int) * (size_t)nvar);
    S.heap_at = malloc(sizeof(int) * (size_t)nvar);
    S.seen = calloc((size_t)nvar + 1, 1);
    S.level_stamp = calloc((size_t)nvar + 1, sizeof(unsigned));
    S.target = malloc(sizeof(int) * (size_t)ncell);
    for (int c = 0; S.target && c < ncell; c++) S.target[c] = -1;
    if (!S.cu_pos || !S.asg || !S.level || !S.reason || !S.trail || !S.trail_lim || !S.cellmask
        || !S.posmask || !S.root_cellmask || !S.root_posmask || !S.watches || !S.activity || !S.heap || !S.heap_at || !S.seen || !S.level_stamp
        || !S.target) goto done;
    for (int c = 0; c < ncell; c++)
        for (int k = g->cu_start[c]; k < g->cu_start[c + 1]; k++) {
            const int *cells = g->units + (size_t)g->cu[k] * n;
            int x = 0;
            while (cells[x] != c) x++;
            S.cu_pos[k] = x;
        }
    const uint64_t full = all_values(n);
    for (int c = 0; c < ncell; c++) S.cellmask[c] = full;
    for (size_t i = 0; i < (size_t)g->nunit * n; i++) S.posmask[i] = full;
    int random = (rules & BB_RANDOM) != 0;
    for (int x = 0; x < nvar; x++) {   /* ties among the untouched broken by the seed, or in order */
        S.activity[x] = random ? (double)(splitmix64(&S.rng) >> 11) * 0x1p-53 * 1e-6 : (double)(nvar - x) * 1e-12;
        S.heap_at[x] = -1;
    }
    for (int x = 0; x < nvar; x++) heap_insert(&S, x);
    rc = 0;
    s->nodes++;   /* the root */
    for (int c = 0; c < ncell; c++) {
        if (!givens[c]) continue;
        int x = c * n + givens[c] - 1;
        if (S.asg[x] == 1) continue;
        if (S.asg[x] == -1) { s->conflicts++; PROOF_GIVENS_CLASH(&S, s, x); goto done; }   /* two givens clash */
        assign(&S, 2 * x, REASON(R_DECISION, 0));
        uint32_t confl; int y;
        int p = propagate(&S, &confl, &y, s);
        if (p < 0) { rc = -1; goto done; }
        if (p) { s->conflicts++; PROOF_CONFLICT(s, confl, y); PROOF_REFUTED(&S, s); goto done; }
    }
#ifdef CDCL_PROOF
    int blocked = block_known(&S, givens, s);
    if (blocked < 0) { rc = -1; goto done; }
    if (blocked) { s->conflicts++; PROOF_REFUTED(&S, s); goto done; }
#endif
    if (search(&S, rules, s) < 0) rc = -1;
done:
    solver_free(&S);
    return rc;
}
