/* Skyscrapers by whole-line permutations, rows and columns alike.
 *
 * Each of the 2N lines must be a permutation of 1..N whose visibility from both ends matches
 * its clues.  Listing all N! permutations per line would be most of a 9x9's time, so support
 * is found without listing them: the tallest building splits a line into a prefix and a
 * suffix, and a dynamic programme over their value sets finds in O(2^(N-1) N) which values
 * each square takes in some fitting permutation (forward and backward passes, as for the
 * regular constraint: Pesant, "A regular language membership constraint", CP 2004).
 * Propagation: Latin singles on changed lines, then the support of the changed clued line
 * with fewest candidates.  Search: the line with fewest fitting permutations, each tried whole
 * (a square-wise branch took 20-30% fewer nodes, but seconds on full-clue 9x9s; lines, ms).
 * No allocation, no global state: a node is its N*N domains, copied on the stack. */
#include <string.h>
#include "pb_bitboard.h"

#define SKY_MAX 9
#define SKY_SETS (1 << (SKY_MAX - 1))   /* value sets of a prefix or suffix without N */

typedef uint16_t Dom;                    /* bit v-1: value v still possible */

typedef struct {
    int n;
    uint8_t first[2 * SKY_MAX], last[2 * SKY_MAX];   /* clues at the line's two ends */
    uint8_t cell[2 * SKY_MAX][SKY_MAX];              /* cell index of the line's q-th square */
    BBSearch *s;
} Sky;

/* The maxima counts (bit c: c maxima) a clue accepts from a part without the tallest. */
static inline unsigned wanted(int clue) { return clue ? 1u << (clue - 1) : 0xFFFFu; }

/* One direction's part of a line: R[S] = maxima counts (bit c: c maxima) of the
 * arrangements of the values S in the |S| squares from this end, capped below the clue;
 * need[S] = the counts from which S can still grow into a good split's part.  Only the
 * reachable sets are visited: list[start[k] .. start[k+1]) holds those of size k. */
typedef struct {
    uint16_t R[SKY_SETS], need[SKY_SETS], list[SKY_SETS];
    int start[SKY_MAX + 1];
} Side;

/* Forward pass; at[k] = domain of the k-th square from this end. */
static void reach(int n, const Dom *at, int clue, Side *x) {
    unsigned lower = (1u << (n - 1)) - 1, cap = clue ? (1u << clue) - 1 : 0xFFFFu;
    memset(x->R, 0, sizeof(uint16_t) * (lower + 1));
    x->R[0] = 1;
    x->list[0] = 0;
    x->start[0] = 0;
    int end = 1;
    for (int k = 0; k < n; k++) {
        int from = x->start[k];
        x->start[k + 1] = end;
        if (k == n - 1) break;
        for (int i = from; i < x->start[k + 1]; i++) {
            unsigned S = x->list[i], avail = at[k] & lower & ~S;
            while (avail) {
                unsigned b = avail & -avail;
                avail ^= b;
                /* b > S as numbers: the value is taller than every value of S */
                uint16_t old = x->R[S | b];
                unsigned got = (b > S ? x->R[S] << 1 : x->R[S]) & cap;
                x->R[S | b] |= (uint16_t)got;
                if (!old && x->R[S | b]) x->list[end++] = (uint16_t)(S | b);
            }
        }
    }
}

/* Backward pass (need[] holds the good splits' wanted counts, 0 elsewhere): completes need
 * and marks the supported (square, value) pairs in sup. */
static void back(int n, const Dom *at, Side *x, Dom *sup) {
    unsigned lower = (1u << (n - 1)) - 1;
    for (int k = n - 1; k >= 0; k--)
        for (int i = x->start[k]; i < x->start[k + 1]; i++) {
            unsigned S = x->list[i], avail = at[k] & lower & ~S, got = x->need[S];
            while (avail) {
                unsigned b = avail & -avail;
                avail ^= b;
                if (!x->R[S | b]) continue;
                unsigned take = b > S ? x->need[S | b] >> 1 : x->need[S | b];
                got |= take;
                if (x->R[S] & take) sup[k] |= (Dom)b;
            }
            x->need[S] = (uint16_t)got;
        }
}

/* Support of one line: sup[q] = the values of d[q] used by at least one permutation that
 * fits the domains d[0..n-1] and the clues.  Returns 0 when no permutation fits. */
static int line_support(int n, const Dom *d, int first, int last, Dom *sup) {
    Side F, B;
    Dom rev[SKY_MAX], rsup[SKY_MAX];
    unsigned lower = (1u << (n - 1)) - 1, tallest = 1u << (n - 1);
    for (int q = 0; q < n; q++) { rev[q] = d[n - 1 - q]; sup[q] = rsup[q] = 0; }
    reach(n, d, first, &F);
    reach(n, rev, last, &B);
    /* good split: N at square k = |S|, prefix values S, suffix values the rest */
    int any = 0;
    unsigned wf = wanted(first), wl = wanted(last);
    for (int i = 0; i < B.start[n]; i++) B.need[B.list[i]] = 0;
    for (int k = 0; k < n; k++)
        for (int i = F.start[k]; i < F.start[k + 1]; i++) {
            unsigned S = F.list[i];
            int good = (d[k] & tallest) && (F.R[S] & wf) && (B.R[lower ^ S] & wl);
            F.need[S] = good ? (uint16_t)wf : 0;
            if (good) { B.need[lower ^ S] = (uint16_t)wl; sup[k] |= (Dom)tallest; any = 1; }
        }
    if (!any) return 0;
    back(n, d, &F, sup);
    back(n, rev, &B, rsup);
    for (int q = 0; q < n; q++) sup[q] |= rsup[n - 1 - q];
    return 1;
}

/* Line L's crossing line at its q-th square. */
static inline int crossing(int n, int L, int q) { return L < n ? n + q : q; }

/* Number of values in a domain. */
static inline int values_in(Dom d) { return pb_popcount32(d); }

/* Latin-square singles on the lines of `work` (a placed value leaves the line's other
 * squares, a value with one square left goes there), repeated on the lines they change,
 * which are also added to *dirty.  0 on a contradiction. */
static int latin(const Sky *k, Dom *dom, uint32_t *dirty, uint32_t work) {
    int n = k->n;
    Dom full = (Dom)((1u << n) - 1);
    while (work) {
        int L = pb_ctz32(work);
        work &= work - 1;
        Dom placed = 0, once = 0, twice = 0;
        for (int q = 0; q < n; q++) {
            Dom d = dom[k->cell[L][q]];
            if (!(d & (d - 1))) {
                if (placed & d) return 0;
                placed |= d;
            }
            twice |= once & d;
            once |= d;
        }
        if (once != full) return 0;               /* a value with no square left */
        Dom single = once & ~twice & ~placed;     /* values with one square left */
        if (!single && !placed) continue;
        for (int q = 0; q < n; q++) {
            int c = k->cell[L][q];
            Dom d = dom[c];
            if (!(d & (d - 1))) continue;
            Dom nd = d & ~placed, only = nd & single;
            if (only & (only - 1)) return 0;      /* two values need this square */
            if (only) nd = only;
            if (nd == d) continue;
            if (!nd) return 0;
            dom[c] = nd;
            uint32_t touched = 1u << L | 1u << crossing(n, L, q);
            *dirty |= touched;
            work |= touched;
        }
    }
    return 1;
}

/* Candidates left on line L: the sum of its squares' domain sizes. */
static int line_left(const Sky *k, const Dom *dom, int L) {
    int left = 0;
    for (int q = 0; q < k->n; q++) left += values_in(dom[k->cell[L][q]]);
    return left;
}

/* Latin singles and line supports until nothing changes; 0 on a contradiction.  `dirty`:
 * the lines whose squares changed since their support was last taken. */
static int propagate(const Sky *k, Dom *dom, uint32_t dirty) {
    int n = k->n;
    uint32_t fresh = dirty;   /* changed since the last Latin pass */
    while (dirty) {
        if (fresh && !latin(k, dom, &dirty, fresh)) return 0;
        fresh = 0;
        int L = -1, fewest = 0;
        for (uint32_t x = dirty; x; x &= x - 1) {
            int M = pb_ctz32(x), left = line_left(k, dom, M);
            if (L < 0 || left < fewest) { L = M; fewest = left; }
        }
        dirty &= ~(1u << L);
        /* a line without clues is a plain all-different: its Latin singles are kept, its
         * support (Hall sets) is left out: it cost more than the nodes it saved */
        if (!k->first[L] && !k->last[L]) continue;
        Dom d[SKY_MAX], sup[SKY_MAX];
        for (int q = 0; q < n; q++) d[q] = dom[k->cell[L][q]];
        if (!line_support(n, d, k->first[L], k->last[L], sup)) return 0;
        for (int q = 0; q < n; q++) {
            Dom nd = d[q] & sup[q];
            if (nd == d[q]) continue;
            if (!nd) return 0;
            dom[k->cell[L][q]] = nd;
            dirty |= 1u << crossing(n, L, q);
            fresh |= 1u << crossing(n, L, q);
        }
    }
    return 1;
}

static void record(const Sky *k, const Dom *dom) {
    BBSearch *s = k->s;
    if (s->kept < s->keep) {
        int cells = k->n * k->n;
        uint8_t *out = s->solutions + (size_t)s->kept * cells;
        for (int c = 0; c < cells; c++) out[c] = (uint8_t)(pb_ctz32(dom[c]) + 1);
        s->kept++;
    }
    s->count++;
}

/* Enumeration of one line's permutations that fit its squares' domains and its clues:
 * lexicographic, pruned by what can still be seen from the first end, the last clue checked
 * on the complete line; `visit` is called on each (nonzero: stop). */
typedef struct Walk Walk;
struct Walk {
    const Sky *k;
    const Dom *dom;
    int line;
    uint8_t perm[SKY_MAX];
    long long count, cap;            /* counting: stop at cap */
    int (*visit)(Walk *);
};

static int visible_from_end(const uint8_t *p, int n) {
    int seen = 0, tall = 0;
    for (int i = n - 1; i >= 0; i--)
        if (p[i] > tall) { tall = p[i]; seen++; }
    return seen;
}

static int walk(Walk *w, int pos, unsigned used, int tall, int seen) {
    const Sky *k = w->k;
    int n = k->n, first = k->first[w->line];
    if (pos == n) {
        int last = k->last[w->line];
        if ((first && seen != first) || (last && visible_from_end(w->perm, n) != last)) return 0;
        return w->visit(w);
    }
    if (first) {
        /* the buildings taller than the tallest so far bound what can still be seen */
        unsigned taller = ((1u << n) - 1) & ~used & ~((1u << tall) - 1);
        if (seen > first || seen + values_in((Dom)taller) < first) return 0;
    }
    unsigned avail = w->dom[k->cell[w->line][pos]] & ~used;
    while (avail) {
        int v = pb_ctz32(avail) + 1;
        avail &= avail - 1;
        w->perm[pos] = (uint8_t)v;
        if (walk(w, pos + 1, used | 1u << (v - 1), v > tall ? v : tall, seen + (v > tall)))
            return 1;
    }
    return 0;
}

static int count_visit(Walk *w) { return ++w->count >= w->cap; }

/* Fitting permutations of a line, counted up to cap. */
static long long line_count(const Sky *k, const Dom *dom, int line, long long cap) {
    Walk w = {.k = k, .dom = dom, .line = line, .cap = cap, .visit = count_visit};
    walk(&w, 0, 0, 0, 0);
    return w.count;
}

static void search(const Sky *k, const Dom *dom);

/* One alternative: the line set to w->perm, propagated, searched on. */
static int branch_visit(Walk *w) {
    const Sky *k = w->k;
    BBSearch *s = k->s;
    if (bb_tick(s)) return 1;
    int n = k->n;
    Dom child[SKY_MAX * SKY_MAX];
    memcpy(child, w->dom, sizeof(Dom) * (size_t)(n * n));
    uint32_t dirty = 0;
    for (int q = 0; q < n; q++) {
        int c = k->cell[w->line][q];
        Dom v = (Dom)(1u << (w->perm[q] - 1));
        if (child[c] != v) { child[c] = v; dirty |= 1u << crossing(n, w->line, q); }
    }
    if (propagate(k, child, dirty)) search(k, child);
    else s->backtracks++;
    return bb_stop(s);
}

/* dom is at the propagation fixed point. */
static void search(const Sky *k, const Dom *dom) {
    int n = k->n, line = -1, order[2 * SKY_MAX], left[2 * SKY_MAX], open = 0;
    long long best = 0;
    /* open lines by candidates left (insertion sort): the first counted caps the others */
    for (int L = 0; L < 2 * n; L++) {
        int l = line_left(k, dom, L);
        if (l == n) continue;
        int i = open++;
        while (i > 0 && left[i - 1] > l) { left[i] = left[i - 1]; order[i] = order[i - 1]; i--; }
        left[i] = l; order[i] = L;
    }
    for (int i = 0; i < open; i++) {
        int L = order[i];
        long long c = line_count(k, dom, L, line < 0 ? (long long)1 << 62 : best);
        if (line < 0 || c < best) { line = L; best = c; }
    }
    if (line < 0) { record(k, dom); return; }
    k->s->guesses++;   /* an open square has two supported values, so two permutations */
    Walk w = {.k = k, .dom = dom, .line = line, .visit = branch_visit};
    walk(&w, 0, 0, 0, 0);
}

int bbs_solve(int n, const uint8_t *top, const uint8_t *bottom, const uint8_t *left,
              const uint8_t *right, const uint8_t *givens, BBSearch *s) {
    if (n < 1 || n > SKY_MAX) return -1;
    Sky k;
    memset(&k, 0, sizeof k);
    k.n = n; k.s = s;
    for (int L = 0; L < 2 * n; L++) {
        k.first[L] = L < n ? left[L] : top[L - n];
        k.last[L] = L < n ? right[L] : bottom[L - n];
        for (int q = 0; q < n; q++)
            k.cell[L][q] = (uint8_t)(L < n ? L * n + q : q * n + (L - n));
    }
    Dom dom[SKY_MAX * SKY_MAX];
    for (int c = 0; c < n * n; c++)
        dom[c] = givens[c] ? (Dom)(1u << (givens[c] - 1)) : (Dom)((1u << n) - 1);
    s->nodes++;
    if (propagate(&k, dom, (1u << (2 * n)) - 1)) search(&k, dom);
    else s->backtracks++;
    return 0;
}
