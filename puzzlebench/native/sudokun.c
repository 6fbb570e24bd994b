/* Grids whose units each hold every value once, up to 64 values: Sudoku of any block shape,
 * Sudoku-X, jigsaw Sudoku, Latin squares.  One 64-bit candidate mask per cell.
 *
 * The geometry is an explicit list of units, so one search serves every kind (Sudoku,
 * bbn_solve, is it given rows, columns and blocks).  Propagation: naked singles from a queue,
 * hidden singles by bit-sliced counting per unit, and with `locked` the pointing and claiming
 * of every two units sharing two cells or more, grouped so a unit costs one pass per family.
 * From 16 values up (BB_ALLDIFF, BB_WDEG), Régin's alldifferent filter ("A filtering algorithm
 * for constraints of difference in CSPs", AAAI 1994) and dom/wdeg branching (Boussemart et al.,
 * "Boosting systematic search by weighting constraints", ECAI 2004), skipping units whose
 * candidates did not move; below, MRV.  On request ties are broken at random and the search
 * restarts while it has no solution (restart_search), recording at each restart the nogoods
 * its last run refuted (record_nogoods).  What was measured and left out, and why: the note
 * above searchn. */
#include <stdlib.h>
#include <string.h>
#include "sudokun.h"

enum { MAX_VALUES = 64, MAX_PIECES = MAX_VALUES / 2 };  /* disjoint pieces of 2 cells or more */
enum { LARGE = 16 };   /* the alldifferent filter and dom/wdeg from this many values up */
/* Nogoods: the literals (cell = value) kept at most, all nogoods together (16 MB, and half as
 * much again of watches); past it none is recorded.  A 36x36 at its hardness peak records about
 * 5,000 nogoods in 30 s (results/bitboard.md), far below it. */
enum { NOGOOD_LITERALS = 1 << 22 };


/* The grid's geometry and the search's buffers. */
typedef struct {
    UnitGrid grid;         /* the geometry (sudokun.h): built here, handed to clause learning */
    int ncell;             /* n * n */
    uint64_t full;         /* the mask of all n values */
    /* locked: unit u's families are fam_start[u] .. fam_start[u+1]); family f's pieces are
     * numbered 1 .. piece_start[f+1] - piece_start[f], and slot[f * n + x] is the piece that
     * holds position x of the unit (0: none); piece p clears out[out_start[p] .. out_start[p+1]) */
    int *fam_start, *piece_start, *out_start, *out;
    uint8_t *slot;
    int *queue;            /* cells left with one candidate, to settle */
    uint64_t *stack;       /* frames of ncell masks + ncell values + 4 nunit seen (uint64 words) */
    size_t frames;         /* frames allocated */
    size_t fsize;          /* words a frame */
    int locked;            /* the locked rule on */
    int alldiff, wdeg;     /* n >= 16: the alldifferent filter; dom/wdeg branching */
    int large;             /* n >= 16 and either: the frames' seen[] words kept */
    uint32_t *weight;      /* dom/wdeg: per unit, 1 + the dead ends found in it */
    int random;            /* BB_RANDOM: ties broken by rng */
    uint64_t rng;          /* splitmix64's state */
    uint64_t fails, cutoff;   /* dead ends in this run; a restart at cutoff (0: never) */
    int restart;           /* set when the run is to begin again from the root */
    int handed;            /* set when the search hands the puzzle to clause learning (BBSearch.handover) */
    /* the run's branch, for the nogoods: at depth d the cell branched on, the value being
     * tried (a bit) and the values refuted before it; the depth of the dead end that ended it */
    int *path_cell;
    uint64_t *path_bit, *path_refuted;
    size_t path_cap, restart_depth;
    /* nogoods (record_nogoods): literal cell * n + value - 1; nogood k's literals are
     * ng_lits[ng_start[k] .. ng_start[k+1]), the first two watched; watches[literal] the
     * nogoods watching it (NULL while nogoods are off or none is recorded) */
    int nogoods;           /* BB_NOGOODS */
    IntVec ng_lits, ng_start, *watches;
} Geo;

/* Cell c's units: cu[cu_start[c] .. cu_start[c+1]). */
static int cell_units(const Geo *g, int **start_out, int **cu_out) {
    int *start = calloc((size_t)g->ncell + 1, sizeof(int));
    int *cu = malloc(sizeof(int) * ((size_t)g->grid.nunit * g->grid.n + 1));
    if (!start || !cu) { free(start); free(cu); return -1; }
    for (size_t k = 0; k < (size_t)g->grid.nunit * g->grid.n; k++) start[g->grid.units[k] + 1]++;
    for (int c = 0; c < g->ncell; c++) start[c + 1] += start[c];
    int *fill = malloc(sizeof(int) * ((size_t)g->ncell + 1));
    if (!fill) { free(start); free(cu); return -1; }
    memcpy(fill, start, sizeof(int) * (size_t)g->ncell);
    for (int u = 0; u < g->grid.nunit; u++)
        for (int x = 0; x < g->grid.n; x++) cu[fill[g->grid.units[(size_t)u * g->grid.n + x]]++] = u;
    free(fill);
    *start_out = start; *cu_out = cu;
    return 0;
}

/* Peers: the union of a cell's units, in the units' order (for a Sudoku: its row, its
 * column, then the rest of its block), each cell once.  `mark` holds ncell stamps.  Every
 * cell is written and kept only when new (no branch to mispredict: with one, building the
 * peers is half of a 16x16's set-up). */
static int build_peers(Geo *g, const int *cu_start, const int *cu, int *mark) {
    IntVec peers = {0};
    g->grid.peer_start = malloc(sizeof(int) * ((size_t)g->ncell + 1));
    if (!g->grid.peer_start) return -1;
    for (int c = 0; c < g->ncell; c++) mark[c] = -1;
    for (int c = 0; c < g->ncell; c++) {
        g->grid.peer_start[c] = (int)peers.len;
        mark[c] = c;
        if (reserve(&peers, (size_t)(cu_start[c + 1] - cu_start[c]) * g->grid.n) < 0) { free(peers.v); return -1; }
        int *at = peers.v + peers.len;
        for (int k = cu_start[c]; k < cu_start[c + 1]; k++) {
            const int *cells = g->grid.units + (size_t)cu[k] * g->grid.n;
            for (int x = 0; x < g->grid.n; x++) {
                int o = cells[x];
                *at = o;
                at += mark[o] != c;
                mark[o] = c;
            }
        }
        peers.len = (size_t)(at - peers.v);
    }
    g->grid.peer_start[g->ncell] = (int)peers.len;
    g->grid.peers = peers.v ? peers.v : malloc(sizeof(int));
    return g->grid.peers ? 0 : -1;
}

/* The units B that share two cells or more with unit a (and are not a's cells again), in
 * increasing order; `count` holds nunit zeros and is left so. */
static int partners(const Geo *g, int a, const int *cu_start, const int *cu, int *count, int *found) {
    int k = 0;
    const int *cells = g->grid.units + (size_t)a * g->grid.n;
    for (int x = 0; x < g->grid.n; x++)
        for (int j = cu_start[cells[x]]; j < cu_start[cells[x] + 1]; j++)
            if (cu[j] != a && count[cu[j]]++ == 0) found[k++] = cu[j];
    int kept = 0;
    for (int i = 0; i < k; i++) {
        int b = found[i], shared = count[b];
        count[b] = 0;
        if (shared >= 2 && shared < g->grid.n) found[kept++] = b;
    }
    for (int i = 1; i < kept; i++)   /* insertion sort: a few units */
        for (int j = i; j > 0 && found[j - 1] > found[j]; j--) { int t = found[j]; found[j] = found[j - 1]; found[j - 1] = t; }
    return kept;
}

/* The locked rule's families and pieces.  Per unit A, the intersections A∩B are grouped into
 * families of pairwise disjoint pieces (the blocks cutting a row; a block's rows; its columns;
 * a diagonal's cells in it ...), so that one pass over A's cells gives every piece's
 * candidates at once and each piece's complement in A is the other pieces' and the uncovered
 * cells' union, from prefix and suffix unions: a family costs one pass over A, not one per
 * piece.  `pos` holds ncell ints (-1 on entry and on return); `count` and `found` nunit ints
 * each. */
static int build_pieces(Geo *g, const int *cu_start, const int *cu, int *pos, int *count, int *found) {
    int n = g->grid.n;
    IntVec fam = {0}, out_start = {0}, out = {0}, slots = {0}, outside = {0};
    int rc = -1;
    uint64_t taken[MAX_VALUES];     /* per family of this unit: the positions its pieces hold */
    int pieces_of[MAX_VALUES];
    int *family_of = malloc(sizeof(int) * ((size_t)g->grid.nunit + 1));   /* a's i-th partner's family */
    int *outside_at = malloc(sizeof(int) * ((size_t)g->grid.nunit + 2));  /* its cells outside a */
    g->fam_start = malloc(sizeof(int) * ((size_t)g->grid.nunit + 1));
    if (!family_of || !outside_at || !g->fam_start) goto done;
    for (int a = 0; a < g->grid.nunit; a++) {
        g->fam_start[a] = (int)fam.len;
        const int *cells = g->grid.units + (size_t)a * n;
        size_t first_slot = slots.len;
        int nfam = 0;
        int nb = partners(g, a, cu_start, cu, count, found);
        for (int x = 0; x < n; x++) pos[cells[x]] = x;
        outside.len = 0;
        if (reserve(&outside, (size_t)nb * n) < 0) goto done;
        for (int i = 0; i < nb; i++) {
            const int *bc = g->grid.units + (size_t)found[i] * n;
            uint64_t where = 0;            /* A∩B as positions in A; B's other cells kept */
            outside_at[i] = (int)outside.len;
            for (int x = 0; x < n; x++) {
                int c = bc[x];
                if (pos[c] >= 0) where |= 1ULL << pos[c];
                else outside.v[outside.len++] = c;
            }
            int f = 0;
            while (f < nfam && (taken[f] & where)) f++;
            family_of[i] = f;
            if (f == MAX_VALUES) continue;   /* past 64 families (units overlapping many times
                                              * over) a piece is left out: the rule only infers */
            if (f == nfam) {                 /* a new family: its slots start at 0 (no piece) */
                taken[nfam] = 0; pieces_of[nfam] = 0; nfam++;
                if (reserve(&slots, (size_t)n) < 0) goto done;
                memset(slots.v + slots.len, 0, sizeof(int) * (size_t)n);
                slots.len += (size_t)n;
            }
            taken[f] |= where;
            int p = ++pieces_of[f];
            for (int x = 0; x < n; x++)
                if (where >> x & 1) slots.v[first_slot + (size_t)f * n + x] = p;
        }
        outside_at[nb] = (int)outside.len;
        /* the pieces family by family, each family's in the order of their slots */
        for (int f = 0; f < nfam; f++) {
            if (push(&fam, (int)out_start.len) < 0) goto done;
            for (int i = 0; i < nb; i++) {
                if (family_of[i] != f) continue;
                if (push(&out_start, (int)out.len) < 0) goto done;
                if (reserve(&out, (size_t)(outside_at[i + 1] - outside_at[i])) < 0) goto done;
                for (int k = outside_at[i]; k < outside_at[i + 1]; k++) out.v[out.len++] = outside.v[k];
            }
        }
        for (int x = 0; x < n; x++) pos[cells[x]] = -1;
    }
    g->fam_start[g->grid.nunit] = (int)fam.len;
    if (push(&fam, (int)out_start.len) < 0 || push(&out_start, (int)out.len) < 0 || push(&out, 0) < 0) goto done;
    g->piece_start = fam.v; fam.v = NULL;
    g->out_start = out_start.v; out_start.v = NULL;
    g->out = out.v; out.v = NULL;
    g->slot = malloc(slots.len ? slots.len : 1);
    if (!g->slot) goto done;
    for (size_t k = 0; k < slots.len; k++) g->slot[k] = (uint8_t)slots.v[k];
    rc = 0;
done:
    free(fam.v); free(out_start.v); free(out.v); free(slots.v); free(outside.v);
    free(family_of); free(outside_at);
    return rc;
}

static int geo_init(Geo *g, int n, int nunit, const int *units) {
    memset(g, 0, sizeof *g);
    g->grid.n = n; g->ncell = n * n; g->grid.nunit = nunit; g->grid.units = units;
    g->fsize = 2 * (size_t)g->ncell;
    g->full = all_values(n);
    g->queue = malloc(sizeof(int) * (size_t)g->ncell);
    int *mark = malloc(sizeof(int) * (size_t)g->ncell);
    int *count = calloc((size_t)nunit + 1, sizeof(int));
    int *found = malloc(sizeof(int) * ((size_t)nunit + 1));
    int rc = -1;
    if (!g->queue || !mark || !count || !found) goto done;
    if (cell_units(g, &g->grid.cu_start, &g->grid.cu) < 0) goto done;
    if (build_peers(g, g->grid.cu_start, g->grid.cu, mark) < 0) goto done;
    for (int c = 0; c < g->ncell; c++) mark[c] = -1;
    if (build_pieces(g, g->grid.cu_start, g->grid.cu, mark, count, found) < 0) goto done;
    if (!(g->weight = malloc(sizeof(uint32_t) * ((size_t)nunit + 1)))) goto done;
    for (int u = 0; u < nunit; u++) g->weight[u] = 1;
    rc = 0;
done:
    free(mark); free(count); free(found);
    return rc;
}

static void geo_free(Geo *g) {
    free(g->grid.peer_start); free(g->grid.peers); free(g->fam_start); free(g->piece_start);
    free(g->out_start); free(g->out); free(g->slot); free(g->queue); free(g->stack);
    free(g->grid.cu_start); free(g->grid.cu); free(g->weight);
    free(g->path_cell); free(g->path_bit); free(g->path_refuted);
    free(g->ng_lits.v); free(g->ng_start.v);
    if (g->watches)
        for (size_t l = 0; l < (size_t)g->ncell * g->grid.n; l++) free(g->watches[l].v);
    free(g->watches);
}

/* dom/wdeg's weights (Boussemart, Hemery, Lecoutre and Sais, "Boosting systematic search by
 * weighting constraints", ECAI 2004): a dead end found in a unit adds one to its weight; a
 * cell left with no candidate adds one to each of its units (the peer elimination that
 * emptied it came through one of them, unknown here: blaming them all measured better than
 * blaming none, 6,840 nodes against 10,555 on thirty minimal 16x16). */
static void blame_unit(Geo *g, int u) { if (g->wdeg) g->weight[u]++; }

static void blame_cell(Geo *g, int c) {
    if (g->wdeg)
        for (int k = g->grid.cu_start[c]; k < g->grid.cu_start[c + 1]; k++) g->weight[g->grid.cu[k]]++;
}

/* A unit's version: the sums of its cells' masks as numbers, low and high 32 bits apart (no
 * overflow up to 2^32 cells a unit).  Candidates are only ever removed, so any removal
 * lowers one sum or both: an unchanged version is an unchanged unit.  (A count of candidates
 * would serve as well, but without the popcnt instruction, in the portable build, a count
 * costs a dozen instructions a cell.) */
static inline int unit_changed(const uint64_t *cand, const int *cells, int n, uint64_t *seen) {
    uint64_t lo = 0, hi = 0;
    for (int x = 0; x < n; x++) { uint64_t m = cand[cells[x]]; lo += m & 0xffffffffu; hi += m >> 32; }
    if (lo == seen[0] && hi == seen[1]) return 0;
    seen[0] = lo; seen[1] = hi;
    return 1;
}

/* A frame: cand[ncell], val[ncell], then (large grids) seen[4 * nunit] (uint64 each, to keep
 * one allocation): seen[2u], seen[2u + 1] are unit u's version (unit_changed) when the
 * alldifferent filter last left it, seen[2 nunit + 2u] and the next word when the locked rule
 * last did. */
static uint64_t *frame(Geo *g, size_t depth) {
    if (depth >= g->frames) {
        size_t want = g->frames ? g->frames * 2 : 8;
        while (want <= depth) want *= 2;
        uint64_t *p = realloc(g->stack, want * g->fsize * sizeof(uint64_t));
        if (!p) return NULL;
        g->stack = p; g->frames = want;
    }
    return g->stack + depth * g->fsize;
}

static int nogood_true(const Geo *g, const uint64_t *val, int lit) {
    return val[lit / g->grid.n] == (uint64_t)(lit % g->grid.n) + 1;
}

/* Cell c has just been given value v (1-based): each nogood watching that literal watches
 * another literal not yet true, or, when there is none, its other watched literal is made false
 * (the value leaves the cell's candidates; a cell left with one is queued at *qn): two watched
 * literals, as in Chaff (Moskewicz et al., DAC 2001), so that a nogood costs nothing until all
 * but one of its literals hold.  0 when every literal of a nogood holds or a cell is emptied. */
static int fire_nogoods(Geo *g, uint64_t *cand, const uint64_t *val, int c, uint64_t v, int *qn) {
    const int n = g->grid.n, lit = c * n + (int)v - 1;
    IntVec *w = &g->watches[lit];
    size_t i = 0, kept = 0;
    int ok = 1;
    for (; i < w->len && ok; i++) {
        int k = w->v[i];
        int *lits = g->ng_lits.v + g->ng_start.v[k], len = g->ng_start.v[k + 1] - g->ng_start.v[k];
        if (lits[0] == lit) { lits[0] = lits[1]; lits[1] = lit; }
        int t = 2;
        while (t < len && nogood_true(g, val, lits[t])) t++;
        if (t < len && push(&g->watches[lits[t]], k) == 0) {   /* another literal to watch */
            lits[1] = lits[t]; lits[t] = lit;
            continue;
        }
        w->v[kept++] = k;
        if (t < len) continue;   /* no room to move the watch: kept here, only less is inferred */
        int other = lits[0], oc = other / n;
        uint64_t bit = 1ULL << (other % n);
        if (!(cand[oc] & bit)) continue;            /* already false */
        if (val[oc]) { ok = 0; continue; }          /* true: every literal holds */
        cand[oc] &= ~bit;
        if (!cand[oc]) { blame_cell(g, oc); ok = 0; }
        else if (!(cand[oc] & (cand[oc] - 1))) g->queue[(*qn)++] = oc;
    }
    for (; i < w->len; i++) w->v[kept++] = w->v[i];
    w->len = kept;
    return ok;
}

/* Place the single candidate of every queued cell and what follows; 0 on a contradiction. */
static int settle(Geo *g, uint64_t *cand, uint64_t *val, int qn, BBSearch *s) {
    int *queue = g->queue;
    const int *peers = g->grid.peers, *peer_start = g->grid.peer_start;
    while (qn) {
        int c = queue[--qn];
        if (val[c]) continue;
        uint64_t bit = cand[c];
        if (!bit) { blame_cell(g, c); return 0; }
        val[c] = (uint64_t)pb_ctz64(bit) + 1;
        for (const int *p = peers + peer_start[c], *end = peers + peer_start[c + 1]; p < end; p++) {
            int o = *p;
            uint64_t m = cand[o];
            if (m & bit) {
                m &= ~bit;
                cand[o] = m;
                if (!m) { blame_cell(g, o); return 0; }
                if (!(m & (m - 1))) { queue[qn++] = o; s->naked++; }
            }
        }
        if (g->watches && !fire_nogoods(g, cand, val, c, val[c], &qn)) return 0;
    }
    return 1;
}

/* Hidden singles and values with no place, over every unit: cells to settle queued, their
 * number returned; -1 on a contradiction. */
static int hidden(Geo *g, uint64_t *cand, const uint64_t *val, BBSearch *s) {
    const int n = g->grid.n, nunit = g->grid.nunit, *units = g->grid.units, large = g->large;
    const uint64_t full = g->full;
    int *queue = g->queue, qn = 0;
    for (int u = 0; u < nunit; u++) {
        const int *cells = units + (size_t)u * n;
        uint64_t A = 0, B = 0, D = 0;   /* D: the values of decided cells, one place each too */
        if (large)   /* without D the second pass below would run on nearly every unit of a 25x25 */
            for (int x = 0; x < n; x++) {
                int c = cells[x];
                uint64_t m = cand[c];
                B |= A & m; A |= m;
                D |= m & (0 - (uint64_t)(val[c] != 0));
            }
        else        /* a 9x9's units are short: the second pass costs less than loading val */
            for (int x = 0; x < n; x++) { uint64_t m = cand[cells[x]]; B |= A & m; A |= m; }
        if (A != full) { blame_unit(g, u); return -1; }
        uint64_t E = A & ~B & ~D;
        if (!E) continue;
        for (int x = 0; x < n; x++) {
            int c = cells[x];
            uint64_t m = cand[c] & E;
            if (m && !val[c]) {
                if (m & (m - 1)) { blame_unit(g, u); return -1; }  /* two values that fit only here */
                if (cand[c] & (cand[c] - 1)) { cand[c] = m; queue[qn++] = c; s->hidden++; }
            }
        }
    }
    return qn;
}

/* The locked rule over every unit, up to the first unit that removes something (then the
 * singles go first again): cells to settle queued, their number returned (0 and *changed
 * unset at a fixed point); -1 on a contradiction.  On large grids (n >= 16) the pass goes
 * over every unit, skipping those unchanged since the rule last saw them (restarting from
 * the first unit after every change costs a quarter of a 25x25's time). */
static int locked_rule(Geo *g, uint64_t *cand, const uint64_t *val, int *changed, BBSearch *s) {
    int n = g->grid.n, qn = 0;
    for (int u = 0; u < g->grid.nunit && (!*changed || g->large); u++) {
        int f0 = g->fam_start[u], f1 = g->fam_start[u + 1];
        if (f0 == f1) continue;
        const int *cells = g->grid.units + (size_t)u * n;
        /* on large grids a unit unchanged since the rule last saw it is skipped: what the rule
         * infers from unit u depends on u's candidates alone, and its eliminations lie outside u */
        if (g->large && !unit_changed(cand, cells, n, cand + 2 * (size_t)g->ncell + 2 * ((size_t)g->grid.nunit + u)))
            continue;
        uint64_t open[MAX_VALUES], any = 0;   /* the candidates of the unit's undecided cells */
        for (int x = 0; x < n; x++) { int c = cells[x]; open[x] = val[c] ? 0 : cand[c]; any |= open[x]; }
        if (!any) continue;
        for (int f = f0; f < f1; f++) {
            const uint8_t *slot = g->slot + (size_t)f * n;
            int p0 = g->piece_start[f], np = g->piece_start[f + 1] - p0;
            uint64_t in[MAX_PIECES + 1], after[MAX_PIECES + 2];   /* in[0]: cells in no piece */
            for (int i = 0; i <= np; i++) in[i] = 0;
            for (int x = 0; x < n; x++) in[slot[x]] |= open[x];
            after[np + 1] = 0;
            for (int i = np; i >= 1; i--) after[i] = after[i + 1] | in[i];
            uint64_t before = in[0];
            for (int i = 1; i <= np; i++) {
                uint64_t only = in[i] & ~(before | after[i + 1]);
                before |= in[i];
                if (!only) continue;
                const int *o = g->out + g->out_start[p0 + i - 1], *end = g->out + g->out_start[p0 + i];
                for (; o < end; o++) {
                    int c = *o;
                    if (!(cand[c] & only) || val[c]) continue;
                    cand[c] &= ~only; *changed = 1; s->locked++;
                    if (!cand[c]) { blame_cell(g, c); return -1; }
                    if (!(cand[c] & (cand[c] - 1))) g->queue[qn++] = c;
                }
            }
        }
    }
    return qn;
}

/* The alldifferent filter (Régin, "A filtering algorithm for constraints of difference in
 * CSPs", AAAI 1994) on k variables whose domains are the masks m[0..k), their union `vals`:
 * a matching of every variable to a value of its own (none: a dead end, k variables holding
 * fewer than k values between them), then value w stays in the variable matched to v only if
 * v can be reached back from w in the graph where each value leads to the other values of
 * the variable matched to it (an alternating cycle through v and w), i.e. only if w and v
 * lie in one strongly connected component.  On a unit's open cells it removes at once what
 * every naked and hidden subset (pairs, triples ... of any size) would.  Variables and values
 * are bits of 64-bit words: the matching grows by breadth-first augmenting paths over masks,
 * and the reachability is Warshall's closure on one word per value (k^2 word operations,
 * k <= 64).  drop[x] gets the values to remove from variable x; -1 on a dead end. */
static int regin(int k, const uint64_t *m, uint64_t vals, uint64_t *drop) {
    if (pb_popcount64(vals) < k) return -1;
    int mate[MAX_VALUES], owner[MAX_VALUES];   /* variable -> value, value -> variable */
    uint64_t free_vals = vals;
    for (int x = 0; x < k; x++) {          /* greedy first: most variables find a free value */
        uint64_t f = m[x] & free_vals;
        mate[x] = -1;
        if (f) { int v = pb_ctz64(f); mate[x] = v; owner[v] = x; free_vals &= ~(1ULL << v); }
    }
    for (int x = 0; x < k; x++) {
        if (mate[x] >= 0) continue;
        int queue[MAX_VALUES + 1], from[MAX_VALUES], head = 0, tail = 0, found = -1;
        uint64_t seen = 0;
        queue[tail++] = x;
        while (head < tail) {
            int y = queue[head++];
            uint64_t fresh = m[y] & ~seen;
            seen |= fresh;
            for (uint64_t f = fresh; f; f &= f - 1) from[pb_ctz64(f)] = y;
            if (fresh & free_vals) { found = pb_ctz64(fresh & free_vals); break; }
            for (uint64_t f = fresh; f; f &= f - 1) queue[tail++] = owner[pb_ctz64(f)];
        }
        if (found < 0) return -1;             /* a Hall set with too few values */
        free_vals &= ~(1ULL << found);
        for (int v = found;;) {               /* flip the path back to x */
            int y = from[v], before = mate[y];
            mate[y] = v; owner[v] = y;
            if (y == x) break;
            v = before;
        }
    }
    for (int x = 0; x < k; x++) drop[x] = 0;
    if (free_vals) return 0;   /* more values than variables: not met in a grid of units */
    uint64_t reach[MAX_VALUES];
    for (int x = 0; x < k; x++) reach[mate[x]] = m[x] & ~(1ULL << mate[x]);
    for (uint64_t w = vals; w; w &= w - 1) {   /* Warshall: through w */
        int mid = pb_ctz64(w);
        uint64_t through = reach[mid];
        for (uint64_t v = vals; v; v &= v - 1) {   /* no branch: which values reach w is random */
            int from_v = pb_ctz64(v);
            reach[from_v] |= through & (0 - (reach[from_v] >> mid & 1));
        }
    }
    for (int x = 0; x < k; x++) {
        int v = mate[x];
        for (uint64_t w = m[x] & ~(1ULL << v); w; w &= w - 1) {
            int to = pb_ctz64(w);
            if (!(reach[to] >> v & 1)) drop[x] |= 1ULL << to;
        }
    }
    return 0;
}

/* The alldifferent filter on unit u's open cells: the cells left with one candidate queued
 * from *qn on; -1 on a dead end. */
static int alldiff_unit(Geo *g, int u, uint64_t *cand, const uint64_t *val, int *qn, BBSearch *s) {
    const int n = g->grid.n, *cells = g->grid.units + (size_t)u * n;
    uint64_t *seen = cand + 2 * (size_t)g->ncell + 2 * (size_t)u;   /* the frame's seen[2u] */
    int at[MAX_VALUES], k = 0;             /* the undecided cells, as cells of the grid */
    uint64_t m[MAX_VALUES], vals = 0, drop[MAX_VALUES];   /* their candidates, and the union */
    if (!unit_changed(cand, cells, n, seen)) return 0;   /* filtered since, unchanged */
    for (int x = 0; x < n; x++) {
        int c = cells[x];
        if (val[c]) continue;
        at[k] = c; m[k] = cand[c]; vals |= m[k]; k++;
    }
    if (k < 2) return 0;
    if (regin(k, m, vals, drop) < 0) { blame_unit(g, u); return -1; }
    for (int x = 0; x < k; x++) {
        if (!drop[x]) continue;
        int c = at[x];
        cand[c] &= ~drop[x];
        s->alldiff += (uint64_t)pb_popcount64(drop[x]);
        seen[0] -= drop[x] & 0xffffffffu;   /* drop[x] was in the mask: the sums fall by it */
        seen[1] -= drop[x] >> 32;
        if (!(cand[c] & (cand[c] - 1))) g->queue[(*qn)++] = c;
    }
    return 0;
}

/* The alldifferent filter over every unit in one pass: cells to settle queued, their number
 * returned (*changed set when a candidate went); -1 on a dead end. */
static int alldiff_rule(Geo *g, uint64_t *cand, const uint64_t *val, int *changed, BBSearch *s) {
    int qn = 0;
    uint64_t before = s->alldiff;
    for (int u = 0; u < g->grid.nunit; u++)
        if (alldiff_unit(g, u, cand, val, &qn, s) < 0) return -1;
    *changed = s->alldiff != before;
    return qn;
}

static int propagate(Geo *g, uint64_t *cand, uint64_t *val, int qn, BBSearch *s) {
    for (;;) {
        if (!settle(g, cand, val, qn, s)) return 0;
        qn = hidden(g, cand, val, s);
        if (qn < 0) return 0;
        if (qn) continue;
        int changed = 0;
        if (g->locked) {
            qn = locked_rule(g, cand, val, &changed, s);
            if (qn < 0) return 0;
            if (changed) continue;
        }
        if (!g->alldiff) return 1;
        qn = alldiff_rule(g, cand, val, &changed, s);
        if (qn < 0) return 0;
        if (!changed) return 1;
    }
}

/* A dead end of the run; with restarts on, the run ends at its cutoff while no solution has
 * been found (after one, the run goes on as a plain depth-first search to its end: restarted
 * runs find nothing, the last one is complete, so nothing is lost or counted twice). */
static void dead_end(Geo *g, BBSearch *s) {
    s->backtracks++;
    if (g->cutoff && ++g->fails >= g->cutoff && s->count == 0) g->restart = 1;
    if (s->handover && s->backtracks >= s->handover && s->count == 0) g->restart = g->handed = 1;
}

/* Room in the branch's record for depth d. */
static int grow_path(Geo *g, size_t d) {
    if (d < g->path_cap) return 0;
    size_t cap = g->path_cap ? g->path_cap * 2 : 64;
    while (cap <= d) cap *= 2;
    int *cell = realloc(g->path_cell, cap * sizeof(int));
    if (cell) g->path_cell = cell;
    uint64_t *bit = realloc(g->path_bit, cap * sizeof(uint64_t));
    if (bit) g->path_bit = bit;
    uint64_t *refuted = realloc(g->path_refuted, cap * sizeof(uint64_t));
    if (refuted) g->path_refuted = refuted;
    if (!cell || !bit || !refuted) return -1;
    g->path_cap = cap;
    return 0;
}

static void recordn(Geo *g, const uint64_t *val, BBSearch *s) {
    if (s->kept < s->keep) {
        uint8_t *out = s->solutions + (size_t)s->kept * g->ncell;
        for (int c = 0; c < g->ncell; c++) out[c] = (uint8_t)val[c];
        s->kept++;
    }
    s->count++;
}

/* Why the large-grid search is as it is (results/bitboard.md, "Large grids" and "Large grids
 * with random holes").  Measured on thirty minimal 16x16 and on 25x25 with 320 and 330 holes,
 * and left out (within noise or worse): the same filter per value on rows and columns (fish
 * of every size: 3% fewer nodes, 30-60% more time), branching on a value's two places in a
 * unit, min-domain with a wdeg tie-break, other cell weights, blaming only units, and the
 * filter before the locked rule.  On random full grids of 36 to 64 values with holes, counted
 * to two, the first solution is what takes long: above a size's threshold (about 47% holes at
 * 36 values, 43% at 49, 38% at 64) no engine here finds one within seconds, completions of a
 * quasigroup with holes near their hardest (Achlioptas, Gomes, Kautz and Selman, "Generating
 * satisfiable problem instances", AAAI 2000); randomised restarts (restart_search) are there
 * for them, measured in results/rtd.md.  Left out: least- or most-constraining value order,
 * a second solution sought as a swap of two values, and a second search with the first
 * solution's values tried last (it walks again what the first search refuted). */
static int searchn(Geo *g, size_t depth, BBSearch *s) {
    uint64_t *cand = frame(g, depth);
    if (!cand) return -1;
    uint64_t *val = cand + g->ncell;
    int best = -1, bestn = 65;
    if (g->wdeg) {
        /* fewest candidates per unit weight: k / w least, compared as k * w' < k' * w; with
         * BB_RANDOM each of t tied cells kept with chance 1/t (reservoir sampling) */
        uint64_t bestw = 1, ties = 0;
        const uint32_t *weight = g->weight;
        for (int c = 0; c < g->ncell; c++) {
            if (val[c]) continue;
            int k = pb_popcount64(cand[c]);
            uint64_t w = 0;
            for (int j = g->grid.cu_start[c]; j < g->grid.cu_start[c + 1]; j++) w += weight[g->grid.cu[j]];
            uint64_t mine = (uint64_t)k * bestw, theirs = (uint64_t)bestn * w;
            if (mine < theirs) { bestn = k; bestw = w; best = c; ties = 1; }
            else if (g->random && mine == theirs && splitmix64(&g->rng) % ++ties == 0) { bestn = k; bestw = w; best = c; }
        }
    } else {
        /* MRV, the first cell of two candidates taken at once; with BB_RANDOM the scan
         * begins at a random cell (a full scan with a fair draw would cost the early stop) */
        int start = g->random ? (int)(splitmix64(&g->rng) % (uint64_t)g->ncell) : 0;
        for (int i = 0, c = start; i < g->ncell; i++, c = c + 1 == g->ncell ? 0 : c + 1) {
            if (val[c]) continue;
            int k = pb_popcount64(cand[c]);
            if (k < bestn) { bestn = k; best = c; if (k == 2) break; }
        }
    }
    if (best < 0) { recordn(g, val, s); return 0; }
    if (bestn > 1) s->guesses++;
    if (g->nogoods && grow_path(g, depth) < 0) return -1;
    uint64_t m = cand[best], later = 0, refuted = 0;
    if (g->random) {   /* the values from a random one up first, then those below it */
        int from = (int)(splitmix64(&g->rng) & 63);
        later = m & ((1ULL << from) - 1);
        m &= ~later;
    }
    while (m || later) {
        if (!m) { m = later; later = 0; }
        uint64_t bit = m & -m;
        m ^= bit;
        if (bb_tick(s)) return 0;
        uint64_t *next = frame(g, depth + 1);
        if (!next) return -1;
        cand = g->stack + depth * g->fsize;  /* the stack may have moved */
        memcpy(next, cand, g->fsize * sizeof(uint64_t));
        next[best] = bit;
        g->queue[0] = best;
        if (g->nogoods) { g->path_cell[depth] = best; g->path_bit[depth] = bit; g->path_refuted[depth] = refuted; }
        if (propagate(g, next, next + g->ncell, 1, s)) {
            if (searchn(g, depth + 1, s) < 0) return -1;
            if (bb_stop(s) || g->restart) return 0;   /* the value still being tried */
        } else {
            dead_end(g, s);
            if (g->restart && g->nogoods) { g->path_refuted[depth] = refuted | bit; g->restart_depth = depth; }
            if (bb_stop(s) || g->restart) return 0;
        }
        refuted |= bit;
    }
    return 0;
}

/* One nogood, literals lits[0 .. len), added at the root frame (cand, val): watched on two
 * literals not true there; with one only, its value leaves the root's candidates (queued at *qn
 * when one is left), and it is not kept; with none, the root is refuted (0).  A nogood with a
 * literal false at the root can never fire and is not kept either. */
static int add_nogood(Geo *g, const int *lits, int len, uint64_t *cand, const uint64_t *val, int *qn,
                      BBSearch *s) {
    const int n = g->grid.n;
    int open[2], nopen = 0;
    for (int t = 0; t < len; t++) {
        int c = lits[t] / n;
        if (!(cand[c] & 1ULL << (lits[t] % n))) return 1;
        if (!nogood_true(g, val, lits[t]) && nopen < 2) open[nopen++] = t;
    }
    if (nopen == 0) return 0;
    if (nopen == 1) {
        int c = lits[open[0]] / n;
        cand[c] &= ~(1ULL << (lits[open[0]] % n));
        if (!cand[c]) return 0;
        if (!(cand[c] & (cand[c] - 1))) g->queue[(*qn)++] = c;
        return 1;
    }
    if (g->ng_lits.len + (size_t)len > NOGOOD_LITERALS) { s->nogoods_dropped++; return 1; }
    if (!g->watches && !(g->watches = calloc((size_t)g->ncell * n, sizeof(IntVec)))) { s->nogoods_dropped++; return 1; }
    if (!g->ng_start.len && push(&g->ng_start, 0) < 0) { s->nogoods_dropped++; return 1; }
    int k = (int)g->ng_start.len - 1;
    if (reserve(&g->ng_lits, (size_t)len) < 0 || reserve(&g->ng_start, 1) < 0 ||
        push(&g->watches[lits[open[0]]], k) < 0) { s->nogoods_dropped++; return 1; }
    if (push(&g->watches[lits[open[1]]], k) < 0) { g->watches[lits[open[0]]].len--; s->nogoods_dropped++; return 1; }
    int *at = g->ng_lits.v + g->ng_lits.len, kept = 2;
    at[0] = lits[open[0]]; at[1] = lits[open[1]];   /* the watched literals first */
    for (int t = 0; t < len; t++)
        if (t != open[0] && t != open[1]) at[kept++] = lits[t];
    g->ng_lits.len += (size_t)len;
    g->ng_start.v[g->ng_start.len++] = (int)g->ng_lits.len;
    s->nogoods++;
    return 1;
}

/* The nogoods of the run that has just ended at a cutoff (Lecoutre, Sais, Tabary and Vidal,
 * "Recording and minimizing nogoods from restarts", JSAT 2007: reduced nld-nogoods).  Its
 * branch is, depth by depth, the values refuted at the cell branched on, then the value being
 * tried; each refuted value v at depth d gives the nogood "not (the values tried at depths 0 ..
 * d-1, and v at d)": a frame holds the root and the values being tried above it, never the
 * values refuted, so the subtree of v, searched to its end with no solution, is refuted by
 * those alone.  Restarts happen before a first solution only, so no nogood removes one.  The
 * root frame takes them at once and is propagated again; 0 when that refutes it (no solution),
 * -1 when memory fails. */
static int record_nogoods(Geo *g, BBSearch *s) {
    const int n = g->grid.n;
    size_t depth = g->restart_depth;
    int *lits = malloc(sizeof(int) * (depth + 1));
    if (!lits) return -1;
    uint64_t *cand = g->stack, *val = cand + g->ncell;   /* the root frame */
    int qn = 0, ok = 1;
    for (size_t d = 0; d <= depth && ok; d++) {
        int c = g->path_cell[d];
        for (uint64_t r = g->path_refuted[d]; r && ok; r &= r - 1) {
            lits[d] = c * n + pb_ctz64(r);
            ok = add_nogood(g, lits, (int)d + 1, cand, val, &qn, s);
        }
        lits[d] = c * n + pb_ctz64(g->path_bit[d]);
    }
    free(lits);
    return ok && propagate(g, cand, val, qn, s);
}

/* The search from the root frame, begun again at each cutoff while no solution has been
 * found (Gomes, Selman and Kautz, "Boosting combinatorial search through randomization", AAAI
 * 1998): the random tie-breaks send each run elsewhere, and dom/wdeg's weights, kept from run
 * to run, carry what the runs before learnt of the hard units. */
static int restart_search(Geo *g, int rules, BBSearch *s) {
    if (!(rules & (BB_LUBY | BB_GEOMETRIC))) return searchn(g, 0, s);
    for (;;) {
        g->fails = 0;
        g->restart = 0;
        g->cutoff = restart_cutoff(rules, s->restart_unit ? s->restart_unit : RESTART_UNIT, s->restarts);
        if (searchn(g, 0, s) < 0) return -1;
        if (!g->restart || g->handed || bb_stop(s)) return 0;
        s->restarts++;
        if (g->nogoods) {
            int ok = record_nogoods(g, s);
            if (ok <= 0) return ok;   /* 0: the root refuted, no solution */
        }
    }
}

int bbu_solve(int n, int nunit, const int *units, const uint8_t *givens, int rules, BBSearch *s) {
    Geo g;
    int rc = -1;
    if (geo_init(&g, n, nunit, units) < 0) goto done;
    g.locked = rules & BB_LOCKED;
    g.alldiff = n >= LARGE && (rules & BB_ALLDIFF);
    g.wdeg = n >= LARGE && (rules & BB_WDEG);
    g.large = g.alldiff || g.wdeg;
    g.random = (rules & BB_RANDOM) != 0;
    g.nogoods = (rules & BB_NOGOODS) && (rules & (BB_LUBY | BB_GEOMETRIC));
    g.rng = s->seed;
    if (g.large) g.fsize += 4 * (size_t)nunit;
    uint64_t *cand = frame(&g, 0);
    if (!cand) goto done;
    uint64_t *val = cand + g.ncell;
    int qn = 0;
    for (int c = 0; c < g.ncell; c++) {
        val[c] = 0;
        cand[c] = givens[c] ? (1ULL << (givens[c] - 1)) : g.full;
        if (givens[c]) g.queue[qn++] = c;
    }
    if (g.large)
        for (int u = 0; u < 4 * nunit; u++) val[g.ncell + u] = ~0ULL;   /* seen: none filtered yet */
    rc = 0;
    if (!(rules & BB_CDCL)) {
        s->nodes++;  /* the root */
        if (propagate(&g, cand, val, qn, s)) rc = restart_search(&g, rules, s);
        else s->backtracks++;
    }
    if (rc == 0 && ((rules & BB_CDCL) || g.handed) && !bb_stop(s)) {
        rc = bbu_cdcl(&g.grid, givens, rules, s);
    }
done:
    geo_free(&g);
    return rc;
}

int bbu_prove(int n, int nunit, const int *units, const uint8_t *givens, int rules, BBSearch *s,
              struct PBProof *proof) {
    Geo g;
    int rc = geo_init(&g, n, nunit, units) < 0 ? -1 : bbu_cdcl_prove(&g.grid, givens, rules, s, proof);
    geo_free(&g);
    return rc;
}

int bbn_solve(int br, int bc, const uint8_t *givens, int rules, BBSearch *s) {
    int n = br * bc;
    int *units = malloc(sizeof(int) * 3 * (size_t)n * n);
    if (!units) return -1;
    for (int u = 0; u < n; u++)
        for (int x = 0; x < n; x++) {
            units[u * n + x] = u * n + x;                            /* row u */
            units[(n + u) * n + x] = x * n + u;                      /* column u */
            int top = (u / br) * br, left = (u % br) * bc;           /* block u, as the model */
            units[(2 * n + u) * n + x] = (top + x / bc) * n + left + x % bc;
        }
    int rc = bbu_solve(n, 3 * n, units, givens, rules, s);
    free(units);
    return rc;
}
