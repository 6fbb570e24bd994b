/* Sudoku of any block shape up to 64 values: one 64-bit candidate mask per cell.
 *
 * Cell bitboards (a candidate mask per cell), generalised: placing a value removes its bit from the cell's
 * peers (row, column, block), a cell left with one candidate is queued (naked single), a
 * cell left with none is a dead end; every unit is then scanned with bit-sliced counting
 * (at least one / at least two) for hidden singles and for values with no place; with
 * `locked`, a value confined to one row or column of a block is removed from the rest of
 * that line (pointing).  Branching on the undecided cell with the fewest candidates (MRV),
 * the state copied onto a heap stack for each alternative. */
#include <stdlib.h>
#include <string.h>
#include "pb_bitboard.h"

/* The grid's geometry and the search's buffers. */
typedef struct {
    int n, ncell, br, bc;  /* values, cells (n*n), block rows and columns */
    int npeer;             /* peers of a cell: its row, column and block but itself */
    uint64_t full;         /* the mask of all n values */
    int *peers;            /* ncell * npeer */
    int *units;            /* 3n units * n cells: rows, columns, blocks */
    int *queue;            /* cells left with one candidate, to settle */
    uint64_t *stack;       /* frames of ncell masks + ncell values (as uint64 words) */
    size_t frames;         /* frames allocated */
    int locked;            /* pointing on */
} Geo;

static int geo_init(Geo *g, int br, int bc) {
    int n = br * bc, ncell = n * n;
    g->n = n; g->ncell = ncell; g->br = br; g->bc = bc;
    g->full = n == 64 ? ~0ULL : ((1ULL << n) - 1);
    g->npeer = 2 * (n - 1) + (br - 1) * (bc - 1);
    g->peers = malloc(sizeof(int) * (size_t)ncell * (size_t)(g->npeer > 0 ? g->npeer : 1));
    g->units = malloc(sizeof(int) * (size_t)3 * (size_t)ncell);
    g->queue = malloc(sizeof(int) * (size_t)ncell);
    g->stack = NULL; g->frames = 0;
    if (!g->peers || !g->units || !g->queue) return -1;
    for (int c = 0; c < ncell; c++) {
        int r = c / n, j = c % n, top = (r / br) * br, left = (j / bc) * bc, k = 0;
        int *p = g->peers + (size_t)c * g->npeer;
        for (int x = 0; x < n; x++) if (x != j) p[k++] = r * n + x;
        for (int x = 0; x < n; x++) if (x != r) p[k++] = x * n + j;
        for (int y = top; y < top + br; y++)
            for (int x = left; x < left + bc; x++)
                if (y != r && x != j) p[k++] = y * n + x;
    }
    for (int u = 0; u < n; u++)
        for (int x = 0; x < n; x++) {
            g->units[(size_t)u * n + x] = u * n + x;                 /* row u */
            g->units[(size_t)(n + u) * n + x] = x * n + u;           /* column u */
            int top = (u / br) * br, left = (u % br) * bc;           /* block u, as the model */
            g->units[(size_t)(2 * n + u) * n + x] = (top + x / bc) * n + left + x % bc;
        }
    return 0;
}

static void geo_free(Geo *g) { free(g->peers); free(g->units); free(g->queue); free(g->stack); }

/* A frame: cand[ncell] then val[ncell] (uint64 each, to keep one allocation). */
static uint64_t *frame(Geo *g, size_t depth) {
    if (depth >= g->frames) {
        size_t want = g->frames ? g->frames * 2 : 8;
        while (want <= depth) want *= 2;
        uint64_t *p = realloc(g->stack, want * 2 * (size_t)g->ncell * sizeof(uint64_t));
        if (!p) return NULL;
        g->stack = p; g->frames = want;
    }
    return g->stack + depth * 2 * (size_t)g->ncell;
}

/* Place the single candidate of every queued cell and what follows; 0 on a contradiction. */
static int settle(Geo *g, uint64_t *cand, uint64_t *val, int qn, BBSearch *s) {
    while (qn) {
        int c = g->queue[--qn];
        if (val[c]) continue;
        uint64_t bit = cand[c];
        if (!bit) return 0;
        val[c] = (uint64_t)pb_ctz64(bit) + 1;
        const int *p = g->peers + (size_t)c * g->npeer;
        for (int k = 0; k < g->npeer; k++) {
            int o = p[k];
            uint64_t m = cand[o];
            if (m & bit) {
                m &= ~bit;
                cand[o] = m;
                if (!m) return 0;
                if (!(m & (m - 1))) { g->queue[qn++] = o; s->naked++; }
            }
        }
    }
    return 1;
}

static int propagate(Geo *g, uint64_t *cand, uint64_t *val, int qn, BBSearch *s) {
    int n = g->n;
    for (;;) {
        if (!settle(g, cand, val, qn, s)) return 0;
        qn = 0;
        for (int u = 0; u < 3 * n; u++) {
            const int *cells = g->units + (size_t)u * n;
            uint64_t A = 0, B = 0;
            for (int x = 0; x < n; x++) { uint64_t m = cand[cells[x]]; B |= A & m; A |= m; }
            if (A != g->full) return 0;
            uint64_t E = A & ~B;
            if (!E) continue;
            for (int x = 0; x < n; x++) {
                int c = cells[x];
                uint64_t m = cand[c] & E;
                if (m && !val[c]) {
                    if (m & (m - 1)) return 0;  /* two values that fit only here */
                    if (cand[c] & (cand[c] - 1)) { cand[c] = m; g->queue[qn++] = c; s->hidden++; }
                }
            }
        }
        if (qn) continue;
        if (!g->locked) return 1;
        /* pointing: in a block, a value confined to one row (column) leaves the rest of it */
        int changed = 0;
        for (int u = 0; u < n && !changed; u++) {
            const int *cells = g->units + (size_t)(2 * n + u) * n;
            for (int r = 0; r < g->br; r++) {
                uint64_t here = 0, other = 0;
                for (int x = 0; x < n; x++)
                    if (x / g->bc == r) here |= cand[cells[x]] & ~(val[cells[x]] ? ~0ULL : 0);
                    else other |= cand[cells[x]];
                uint64_t only = here & ~other;
                if (!only) continue;
                int row = cells[r * g->bc] / n, left = cells[0] % n;
                for (int j = 0; j < n; j++) {
                    if (j >= left && j < left + g->bc) continue;
                    int c = row * n + j;
                    if (cand[c] & only && !val[c]) {
                        cand[c] &= ~only; changed = 1; s->locked++;
                        if (!cand[c]) return 0;
                        if (!(cand[c] & (cand[c] - 1))) g->queue[qn++] = c;
                    }
                }
            }
        }
        if (!changed) return 1;
    }
}

static void recordn(Geo *g, const uint64_t *val, BBSearch *s) {
    if (s->kept < s->keep) {
        uint8_t *out = s->solutions + (size_t)s->kept * g->ncell;
        for (int c = 0; c < g->ncell; c++) out[c] = (uint8_t)val[c];
        s->kept++;
    }
    s->count++;
}

static int searchn(Geo *g, size_t depth, BBSearch *s) {
    uint64_t *cand = frame(g, depth);
    if (!cand) return -1;
    uint64_t *val = cand + g->ncell;
    int best = -1, bestn = 65;
    for (int c = 0; c < g->ncell; c++) {
        if (val[c]) continue;
        int k = pb_popcount64(cand[c]);
        if (k < bestn) { bestn = k; best = c; if (k == 2) break; }
    }
    if (best < 0) { recordn(g, val, s); return 0; }
    if (bestn > 1) s->guesses++;
    uint64_t m = cand[best];
    while (m) {
        uint64_t bit = m & -m;
        m ^= bit;
        if (bb_tick(s)) return 0;
        uint64_t *next = frame(g, depth + 1);
        if (!next) return -1;
        cand = g->stack + depth * 2 * (size_t)g->ncell;  /* the stack may have moved */
        memcpy(next, cand, 2 * (size_t)g->ncell * sizeof(uint64_t));
        next[best] = bit;
        g->queue[0] = best;
        if (propagate(g, next, next + g->ncell, 1, s)) {
            if (searchn(g, depth + 1, s) < 0) return -1;
        } else {
            s->backtracks++;
        }
        if (bb_stop(s)) return 0;
    }
    return 0;
}

int bbn_solve(int br, int bc, const uint8_t *givens, int locked, BBSearch *s) {
    Geo g;
    int rc = -1;
    if (geo_init(&g, br, bc) < 0) goto done;
    g.locked = locked;
    uint64_t *cand = frame(&g, 0);
    if (!cand) goto done;
    uint64_t *val = cand + g.ncell;
    int qn = 0;
    for (int c = 0; c < g.ncell; c++) {
        val[c] = 0;
        cand[c] = givens[c] ? (1ULL << (givens[c] - 1)) : g.full;
        if (givens[c]) g.queue[qn++] = c;
    }
    rc = 0;
    s->nodes++;  /* the root */
    if (propagate(&g, cand, val, qn, s)) rc = searchn(&g, 0, s);
    else s->backtracks++;
done:
    geo_free(&g);
    return rc;
}
