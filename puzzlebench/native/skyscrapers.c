/* Skyscrapers by whole-row permutations (seed 000).
 *
 * Every permutation of 1..N is listed once per N with its visibility from the left and the
 * right, and bucketed by (left, right).  A puzzle's row starts from the bucket of its two
 * clues (0 = any) and keeps the permutations that respect its givens and the bounds the
 * column clues put on each cell (a tower at distance d from a viewer whose clue is c is at
 * most N - c + 1 + d tall; clue 1 sees N first; clue N sees 1..N in order).  The search
 * fills one row at a time with a whole permutation, always the row with the fewest
 * permutations left (most constrained first); column-value bits (bit j*N + v-1) filter the
 * other rows' lists; a column's clue is checked as its cells are filled from the viewer's
 * side (seen-so-far + what the rest can add must reach the clue) and exactly once full. */
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
    const uint8_t *top, *bottom;
    int *arena;          /* candidate lists of every level */
    size_t cap;
    int grid[9][9];      /* placed heights, 0 = not yet */
    int row_done[9];
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

/* Can column j still meet its clue seen from one end, given the rows filled from that end? */
static int column_ok(const Sky *k, int j, int clue, int from_top) {
    if (!clue) return 1;
    int n = k->n, seen = 0, tall = 0, prefix = 0;
    for (int i = 0; i < n; i++) {
        int h = k->grid[from_top ? i : n - 1 - i][j];
        if (!h) break;
        prefix++;
        if (h > tall) { tall = h; seen++; }
    }
    if (prefix == n) return seen == clue;
    if (seen > clue) return 0;
    int rest = n - prefix, add = n - tall < rest ? n - tall : rest;
    if (seen + add < clue) return 0;
    return !(tall < n && seen + 1 > clue);
}

static void record_s(Sky *k) {
    BBSearch *s = k->s;
    if (s->kept < s->keep) {
        uint8_t *out = s->solutions + (size_t)s->kept * k->n * k->n;
        for (int i = 0; i < k->n; i++)
            for (int j = 0; j < k->n; j++) out[i * k->n + j] = (uint8_t)k->grid[i][j];
        s->kept++;
    }
    s->count++;
}

/* lists: offsets/sizes of each row's list in the arena (rows already filled: unused). */
static int sky_search(Sky *k, int filled, const size_t *off, const int *size, size_t top) {
    BBSearch *s = k->s;
    int n = k->n;
    if (filled == n) { record_s(k); return 0; }
    int row = -1;
    for (int i = 0; i < n; i++)
        if (!k->row_done[i] && (row < 0 || size[i] < size[row])) row = i;
    if (size[row] > 1) s->guesses++;
    size_t need = top;
    for (int i = 0; i < n; i++) if (!k->row_done[i] && i != row) need += (size_t)size[i];
    if (reserve(k, need) < 0) return -1;
    k->row_done[row] = 1;
    for (int x = 0; x < size[row]; x++) {
        if (bb_tick(s)) break;
        int p = k->arena[off[row] + x];
        const uint8_t *perm = k->t->perm + (size_t)p * n;
        for (int j = 0; j < n; j++) k->grid[row][j] = perm[j];
        int ok = 1;
        for (int j = 0; j < n && ok; j++)
            ok = column_ok(k, j, k->top[j], 1) && column_ok(k, j, k->bottom[j], 0);
        size_t off2[9], at = top;
        int size2[9];
        if (ok) {
            Bits b = k->t->bits[p];
            for (int i = 0; i < n && ok; i++) {
                if (k->row_done[i]) continue;
                off2[i] = at;
                int m = 0;
                for (int y = 0; y < size[i]; y++) {
                    int q = k->arena[off[i] + y];
                    Bits c = k->t->bits[q];
                    if (!((c.lo & b.lo) | (c.hi & b.hi))) k->arena[at + m++] = q;
                }
                size2[i] = m;
                at += (size_t)m;
                ok = m > 0;
            }
        }
        if (ok) {
            if (sky_search(k, filled + 1, off2, size2, at) < 0) return -1;
        } else {
            s->backtracks++;
        }
        if (bb_stop(s)) break;
    }
    for (int j = 0; j < n; j++) k->grid[row][j] = 0;
    k->row_done[row] = 0;
    return 0;
}

/* Does permutation p fit row i's givens and the column clues' bounds? */
static int fits(const Sky *k, const uint8_t *p, int i, const uint8_t *givens) {
    int n = k->n;
    for (int j = 0; j < n; j++) {
        int h = p[j], g = givens[i * n + j];
        if (g && g != h) return 0;
        int c = k->top[j], d = i;
        if (c && (h > n - c + 1 + d || (c == 1 && d == 0 && h != n) || (c == n && h != d + 1))) return 0;
        c = k->bottom[j]; d = n - 1 - i;
        if (c && (h > n - c + 1 + d || (c == 1 && d == 0 && h != n) || (c == n && h != d + 1))) return 0;
    }
    return 1;
}

int bbs_solve(int n, const uint8_t *top, const uint8_t *bottom, const uint8_t *left,
              const uint8_t *right, const uint8_t *givens, BBSearch *s) {
    if (bbs_prepare(n) < 0) return -1;
    Sky k;
    memset(&k, 0, sizeof k);
    k.n = n; k.t = &tables[n]; k.top = top; k.bottom = bottom; k.s = s;
    size_t off[9], at = 0;
    int size[9];
    for (int i = 0; i < n; i++) {
        int lmin = left[i] ? left[i] : 1, lmax = left[i] ? left[i] : n;
        int rmin = right[i] ? right[i] : 1, rmax = right[i] ? right[i] : n;
        size_t most = 0;
        for (int l = lmin; l <= lmax; l++)
            for (int r = rmin; r <= rmax; r++) most += (size_t)k.t->size[l][r];
        if (reserve(&k, at + most) < 0) { free(k.arena); return -1; }
        off[i] = at;
        int m = 0;
        for (int l = lmin; l <= lmax; l++)
            for (int r = rmin; r <= rmax; r++)
                for (int x = 0; x < k.t->size[l][r]; x++) {
                    int p = k.t->order[k.t->start[l][r] + x];
                    if (fits(&k, k.t->perm + (size_t)p * n, i, givens)) k.arena[at + m++] = p;
                }
        size[i] = m;
        at += (size_t)m;
    }
    s->nodes++;
    int rc = 0, empty = 0;
    for (int i = 0; i < n; i++) empty |= size[i] == 0;
    if (!empty) rc = sky_search(&k, 0, off, size, at);
    free(k.arena);
    return rc;
}
