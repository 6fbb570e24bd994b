/* Skyscrapers by whole-line permutations (seed 000), rows and columns alike.
 *
 * Every permutation of 1..N is listed once per N with its visibility from either end, and
 * bucketed by (first clue, last clue).  Each of the 2N lines (rows seen from the left and
 * right, columns from the top and bottom) starts from the bucket of its two clues (0 = any)
 * less what contradicts the givens.  Propagation keeps the rows and the columns consistent:
 * the values a row's remaining permutations allow in a cell, intersected with what the
 * column's allow there, is the cell's domain, and every permutation using a value outside
 * a domain is dropped (column-value bit sets: bit p*N + v-1), to a fixed point.  The search
 * then takes the line with the fewest permutations left (most constrained first; seed 000
 * fills rows, here columns are lines too) and tries each of its permutations in turn. */
#include <stdlib.h>
#include <string.h>
#include "pb_bitboard.h"

typedef struct { uint64_t lo, hi; } Bits;

typedef struct {
    int count;            /* n! */
    uint8_t *perm;        /* count * n */
    uint8_t *vl, *vr;     /* visibility from the left / right */
    Bits *bits;           /* column-value bits */
    int *order;           /* permutations sorted by (vl, vr) */
    int start[10][10];    /* bucket (l, r) = order[start[l][r] .. start[l][r]+size[l][r]) */
    int size[10][10];
} Table;

static Table tables[10];

static int visible(const uint8_t *p, int n, int step) {
    int seen = 0, tall = 0;
    for (int i = 0; i < n; i++) {
        int h = p[step > 0 ? i : n - 1 - i];
        if (h > tall) { tall = h; seen++; }
    }
    return seen;
}

int bbs_prepare(int n) {
    if (n < 1 || n > 9) return -1;
    Table *t = &tables[n];
    if (t->count) return 0;
    int count = 1;
    for (int i = 2; i <= n; i++) count *= i;
    uint8_t *perm = malloc((size_t)count * n);
    uint8_t *vl = malloc((size_t)count), *vr = malloc((size_t)count);
    Bits *bits = malloc(sizeof(Bits) * (size_t)count);
    int *order = malloc(sizeof(int) * (size_t)count);
    if (!perm || !vl || !vr || !bits || !order) {
        free(perm); free(vl); free(vr); free(bits); free(order);
        return -1;
    }
    /* lexicographic enumeration (next permutation) */
    uint8_t a[9];
    for (int i = 0; i < n; i++) a[i] = (uint8_t)(i + 1);
    for (int k = 0; k < count; k++) {
        memcpy(perm + (size_t)k * n, a, (size_t)n);
        vl[k] = (uint8_t)visible(a, n, 1);
        vr[k] = (uint8_t)visible(a, n, -1);
        Bits b = {0, 0};
        for (int j = 0; j < n; j++) {
            int bit = j * n + a[j] - 1;
            if (bit < 64) b.lo |= 1ULL << bit; else b.hi |= 1ULL << (bit - 64);
        }
        bits[k] = b;
        int i = n - 2;
        while (i >= 0 && a[i] > a[i + 1]) i--;
        if (i < 0) break;
        int j = n - 1;
        while (a[j] < a[i]) j--;
        uint8_t x = a[i]; a[i] = a[j]; a[j] = x;
        for (int l = i + 1, r = n - 1; l < r; l++, r--) { x = a[l]; a[l] = a[r]; a[r] = x; }
    }
    /* counting sort by (vl, vr) */
    memset(t->size, 0, sizeof t->size);
    for (int k = 0; k < count; k++) t->size[vl[k]][vr[k]]++;
    int at = 0;
    for (int l = 0; l < 10; l++)
        for (int r = 0; r < 10; r++) { t->start[l][r] = at; at += t->size[l][r]; }
    int fill[10][10];
    memcpy(fill, t->start, sizeof fill);
    for (int k = 0; k < count; k++) order[fill[vl[k]][vr[k]]++] = k;
    t->perm = perm; t->vl = vl; t->vr = vr; t->bits = bits; t->order = order;
    t->count = count;
    return 0;
}

typedef struct {
    int n;
    const Table *t;
    int *arena;          /* the lines' permutation lists, level after level */
    size_t cap;
    BBSearch *s;
} Sky;

static int reserve(Sky *k, size_t need) {
    if (need <= k->cap) return 0;
    size_t cap = k->cap ? k->cap : 1024;
    while (cap < need) cap *= 2;
    int *p = realloc(k->arena, cap * sizeof(int));
    if (!p) return -1;
    k->arena = p; k->cap = cap;
    return 0;
}

static inline unsigned field(Bits b, int start, int n) {
    unsigned mask = (1u << n) - 1;
    if (start >= 64) return (unsigned)(b.hi >> (start - 64)) & mask;
    uint64_t x = b.lo >> start;
    if (start + n > 64) x |= b.hi << (64 - start);
    return (unsigned)x & mask;
}

static inline void put(Bits *b, int start, unsigned v) {
    if (start >= 64) { b->hi |= (uint64_t)v << (start - 64); return; }
    b->lo |= (uint64_t)v << start;
    if (start > 0 && start + 9 > 64) b->hi |= (uint64_t)v >> (64 - start);
}

/* Row/column consistency to a fixed point; 0 when a line or a cell is left with nothing. */
static int consistent(Sky *k, const size_t *off, int *size) {
    int n = k->n, lines = 2 * n;
    const Bits *bits = k->t->bits;
    for (;;) {
        Bits sup[18], allowed[18];
        for (int L = 0; L < lines; L++) {
            Bits u = {0, 0};
            const int *list = k->arena + off[L];
            for (int x = 0; x < size[L]; x++) { u.lo |= bits[list[x]].lo; u.hi |= bits[list[x]].hi; }
            sup[L] = u;
            allowed[L].lo = allowed[L].hi = 0;
        }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                unsigned d = field(sup[i], j * n, n) & field(sup[n + j], i * n, n);
                if (!d) return 0;
                put(&allowed[i], j * n, d);
                put(&allowed[n + j], i * n, d);
            }
        int changed = 0;
        for (int L = 0; L < lines; L++) {
            Bits out = {sup[L].lo & ~allowed[L].lo, sup[L].hi & ~allowed[L].hi};
            if (!(out.lo | out.hi)) continue;
            int *list = k->arena + off[L], m = 0;
            for (int x = 0; x < size[L]; x++) {
                Bits b = bits[list[x]];
                if (!((b.lo & out.lo) | (b.hi & out.hi))) list[m++] = list[x];
            }
            if (!m) return 0;
            size[L] = m;
            changed = 1;
        }
        if (!changed) return 1;
    }
}

static void record_s(Sky *k, const size_t *off) {
    BBSearch *s = k->s;
    if (s->kept < s->keep) {
        int n = k->n;
        uint8_t *out = s->solutions + (size_t)s->kept * n * n;
        for (int i = 0; i < n; i++)
            memcpy(out + i * n, k->t->perm + (size_t)k->arena[off[i]] * n, (size_t)n);
        s->kept++;
    }
    s->count++;
}

/* Lists of this level at off[] (sizes size[]), free arena from `top`. */
static int sky_search(Sky *k, const size_t *off, const int *size, size_t top) {
    BBSearch *s = k->s;
    int lines = 2 * k->n, line = -1;
    size_t total = 0;
    for (int L = 0; L < lines; L++) {
        total += (size_t)size[L];
        if (size[L] > 1 && (line < 0 || size[L] < size[line])) line = L;
    }
    if (line < 0) { record_s(k, off); return 0; }
    if (size[line] > 1) s->guesses++;
    if (reserve(k, top + total) < 0) return -1;
    for (int x = 0; x < size[line]; x++) {
        if (bb_tick(s)) break;
        size_t off2[18], at = top;
        int size2[18];
        for (int L = 0; L < lines; L++) {
            off2[L] = at;
            if (L == line) {
                k->arena[at] = k->arena[off[line] + x];
                size2[L] = 1;
            } else {
                memcpy(k->arena + at, k->arena + off[L], (size_t)size[L] * sizeof(int));
                size2[L] = size[L];
            }
            at += (size_t)size2[L];
        }
        if (consistent(k, off2, size2)) {
            if (sky_search(k, off2, size2, at) < 0) return -1;
        } else {
            s->backtracks++;
        }
        if (bb_stop(s)) break;
    }
    return 0;
}

int bbs_solve(int n, const uint8_t *top, const uint8_t *bottom, const uint8_t *left,
              const uint8_t *right, const uint8_t *givens, BBSearch *s) {
    if (bbs_prepare(n) < 0) return -1;
    Sky k;
    memset(&k, 0, sizeof k);
    k.n = n; k.t = &tables[n]; k.s = s;
    size_t off[18], at = 0;
    int size[18];
    for (int L = 0; L < 2 * n; L++) {
        int first = L < n ? left[L] : top[L - n], last = L < n ? right[L] : bottom[L - n];
        int lmin = first ? first : 1, lmax = first ? first : n;
        int rmin = last ? last : 1, rmax = last ? last : n;
        size_t most = 0;
        for (int l = lmin; l <= lmax; l++)
            for (int r = rmin; r <= rmax; r++) most += (size_t)k.t->size[l][r];
        if (reserve(&k, at + most) < 0) { free(k.arena); return -1; }
        off[L] = at;
        int m = 0;
        for (int l = lmin; l <= lmax; l++)
            for (int r = rmin; r <= rmax; r++)
                for (int x = 0; x < k.t->size[l][r]; x++) {
                    int p = k.t->order[k.t->start[l][r] + x];
                    const uint8_t *perm = k.t->perm + (size_t)p * n;
                    int ok = 1;
                    for (int q = 0; q < n && ok; q++) {
                        int g = L < n ? givens[L * n + q] : givens[q * n + (L - n)];
                        ok = !g || g == perm[q];
                    }
                    if (ok) k.arena[at + m++] = p;
                }
        size[L] = m;
        at += (size_t)m;
    }
    s->nodes++;
    int rc = 0, empty = 0;
    for (int L = 0; L < 2 * n; L++) empty |= size[L] == 0;
    if (!empty && consistent(&k, off, size)) rc = sky_search(&k, off, size, at);
    else s->backtracks++;
    free(k.arena);
    return rc;
}
