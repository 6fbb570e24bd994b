/* N-Queens by bitmasks: the free squares of a row are ~(columns | left diagonals | right
 * diagonals), the diagonal masks shifted by one as the search goes down a row (the classic
 * bitmask formulation; see e.g. Richards 1997 / Qiu 2002).  A row with a pre-placed queen
 * offers only that square.  With no queen placed and every solution counted, the mirror
 * image halves the work exactly: solutions with the first row's queen in the left half are
 * counted twice; for odd n, the middle queen with the second row's queen in the left half,
 * twice as well. */
#include <string.h>
#include "pb_bitboard.h"

typedef struct {
    int n;
    uint64_t full;       /* the mask of the n columns */
    uint64_t fixed[64];  /* the one allowed square of a row with a placed queen, else 0 */
    uint8_t cols[64];    /* the current placement: row -> 1-based column */
    long long mult;      /* each solution found counts this many times (symmetry) */
    BBSearch *s;
} Q;

/* A solution counted `mult` times is kept as many times: itself, then (mult 2, the mirror
 * halving below) its mirror image, which the halved search never visits. */
static void record_q(Q *q) {
    BBSearch *s = q->s;
    for (long long k = 0; k < q->mult && s->kept < s->keep; k++, s->kept++) {
        uint8_t *out = s->solutions + (size_t)s->kept * q->n;
        for (int r = 0; r < q->n; r++) out[r] = k ? (uint8_t)(q->n + 1 - q->cols[r]) : q->cols[r];
    }
    s->count += q->mult;
}

/* Depth-first over rows with an explicit stack: free squares, columns and diagonals per row. */
static void queens(Q *q) {
    BBSearch *s = q->s;
    const int n = q->n;
    const uint64_t full = q->full;
    uint64_t freeb[65], cols[65], ld[65], rd[65];
    uint64_t nodes = 0;
    int row = 0;
    cols[0] = ld[0] = rd[0] = 0;
    freeb[0] = full & (q->fixed[0] ? q->fixed[0] : full);
    if (freeb[0] & (freeb[0] - 1)) s->guesses++;
    if (!freeb[0]) s->backtracks++;
    for (;;) {
        uint64_t f = freeb[row];
        if (!f) {
            if (--row < 0) break;
            continue;
        }
        uint64_t bit = f & -f;
        freeb[row] = f ^ bit;
        nodes++;
        if (PB_MUST_STOP(nodes, PB_CLOCK_EVERY_QUEENS, s->deadline, s->sigints)) {
            s->timed_out = 1;
            break;
        }
        q->cols[row] = (uint8_t)(pb_ctz64(bit) + 1);
        if (row + 1 == n) {
            record_q(q);
            if (bb_stop(s)) break;
            continue;
        }
        uint64_t c = cols[row] | bit, l = (ld[row] | bit) << 1, r = (rd[row] | bit) >> 1;
        row++;
        cols[row] = c; ld[row] = l; rd[row] = r;
        f = ~(c | l | r) & full;
        if (q->fixed[row]) f &= q->fixed[row];
        if (!f) s->backtracks++;
        else if (f & (f - 1)) s->guesses++;
        freeb[row] = f;
    }
    s->nodes += nodes;
}

int bbq_solve(int n, const uint8_t *placed, int symmetry, BBSearch *s) {
    Q q;
    memset(&q, 0, sizeof q);
    q.n = n; q.s = s; q.mult = 1;
    q.full = n == 64 ? ~0ULL : ((1ULL << n) - 1);
    int any = 0;
    for (int r = 0; r < n; r++) {
        q.fixed[r] = placed[r] ? (1ULL << (placed[r] - 1)) : 0;
        any |= placed[r] != 0;
    }
    if (!symmetry || any || s->limit != 0 || n < 4) {
        queens(&q);
        return 0;
    }
    /* mirror halving: first queen in the left half, counted twice */
    q.mult = 2;
    int half = n / 2;
    for (int c = 0; c < half && !bb_stop(s); c++) {
        q.fixed[0] = 1ULL << c;
        queens(&q);
    }
    if (n % 2 && !bb_stop(s)) {
        q.fixed[0] = 1ULL << half;
        for (int c = 0; c < half && !bb_stop(s); c++) {
            q.fixed[1] = 1ULL << c;
            queens(&q);
        }
    }
    return 0;
}
