/* 9x9 Sudoku on band bitboards.
 *
 * The representation follows the band idea of JCZSolve / fsss2 (and tdoku's digit-plane
 * view): for every digit d and every band b (three rows) one 27-bit word F[d][b] holds the
 * cells where d may still go; a solved cell keeps the bit of its digit.  U[b] holds the
 * unsolved cells.  Placing d clears the cell from the other digits' planes and the cell's
 * peers from d's plane: a dozen word operations.  Propagation to a fixed point:
 *   - naked singles and empty cells, by bit-sliced counting over the nine planes;
 *   - hidden singles per digit: every row, column and box of a plane must hold exactly one
 *     bit once solved, so a unit with one bit on an unsolved cell places the digit, and a
 *     unit with none is a contradiction;
 *   - optionally locked candidates (pointing and claiming, rows and columns) when the
 *     singles stall.
 * Branching: a cell with two candidates when there is one (bit-sliced), else the cell with
 * the fewest; the state (112 bytes) is copied for every alternative but the last. */
#include <string.h>
#include "pb_bitboard.h"

#define ROWBITS 0x1FFu
static uint32_t PEERS[27];
static uint32_t COLM[9];
static uint32_t BOXM[3];
static const uint32_t ROWM[3] = {ROWBITS, ROWBITS << 9, ROWBITS << 18};
static int ready;

void bb9_init(void) {
    if (ready) return;
    for (int j = 0; j < 9; j++) COLM[j] = (1u << j) | (1u << (j + 9)) | (1u << (j + 18));
    for (int k = 0; k < 3; k++) BOXM[k] = (7u << (3 * k)) | (7u << (3 * k + 9)) | (7u << (3 * k + 18));
    for (int k = 0; k < 27; k++)
        PEERS[k] = (ROWM[k / 9] | COLM[k % 9] | BOXM[(k % 9) / 3]) & ~(1u << k);
    ready = 1;
}

typedef struct { uint32_t F[9][3]; uint32_t U[3]; } S9;

static inline int ctz32(uint32_t x) { return __builtin_ctz(x); }
static inline int single_bit(uint32_t x) { return x && !(x & (x - 1)); }

static inline void place9(S9 *s, int d, int b, int k) {
    uint32_t bit = 1u << k, nb = ~bit, cm = ~COLM[k % 9];
    for (int e = 0; e < 9; e++) s->F[e][b] &= nb;
    s->F[d][b] = (s->F[d][b] & ~PEERS[k]) | bit;
    if (b != 0) s->F[d][0] &= cm;
    if (b != 1) s->F[d][1] &= cm;
    if (b != 2) s->F[d][2] &= cm;
    s->U[b] &= nb;
}

/* Pointing and claiming for every digit, along rows and columns; 1 when a candidate went. */
static int locked9(S9 *s, BBSearch *c) {
    int changed = 0;
    for (int d = 0; d < 9; d++) {
        uint32_t *F = s->F[d];
        if (!((F[0] & s->U[0]) | (F[1] & s->U[1]) | (F[2] & s->U[2]))) continue;
        for (int b = 0; b < 3; b++) {
            if (!(F[b] & s->U[b])) continue;
            for (int bx = 0; bx < 3; bx++) {
                uint32_t in_box = F[b] & BOXM[bx];
                if (!in_box) continue;
                /* rows of the box that hold d */
                int rows = 0, row = 0;
                for (int r = 0; r < 3; r++)
                    if (in_box & ROWM[r]) { rows++; row = r; }
                if (rows == 1) {  /* pointing along the row */
                    uint32_t out = ROWM[row] & ~BOXM[bx];
                    if (F[b] & out) { F[b] &= ~out; changed = 1; c->locked++; }
                }
                uint32_t cols = (in_box | in_box >> 9 | in_box >> 18) & (7u << (3 * bx));
                if (single_bit(cols)) {  /* pointing along the column */
                    int j = ctz32(cols);
                    for (int bb = 0; bb < 3; bb++)
                        if (bb != b && (F[bb] & COLM[j])) { F[bb] &= ~COLM[j]; changed = 1; c->locked++; }
                }
            }
            for (int r = 0; r < 3; r++) {  /* claiming: a row's d within one box */
                uint32_t in_row = F[b] & ROWM[r];
                int boxes = 0, box = 0;
                for (int bx = 0; bx < 3; bx++)
                    if (in_row & BOXM[bx]) { boxes++; box = bx; }
                if (boxes == 1) {
                    uint32_t out = BOXM[box] & ~ROWM[r];
                    if (F[b] & out) { F[b] &= ~out; changed = 1; c->locked++; }
                }
            }
        }
        for (int j = 0; j < 9; j++) {  /* claiming: a column's d within one band */
            int bands = 0, band = 0;
            for (int b = 0; b < 3; b++)
                if (F[b] & COLM[j]) { bands++; band = b; }
            if (bands == 1) {
                uint32_t out = BOXM[j / 3] & ~COLM[j];
                if (F[band] & out) { F[band] &= ~out; changed = 1; c->locked++; }
            }
        }
    }
    return changed;
}

/* Singles (and locked candidates) to a fixed point; 0 on a contradiction. */
static int propagate9(S9 *s, BBSearch *c, int locked) {
    for (;;) {
        int progress = 0;
        for (int b = 0; b < 3; b++) {
            uint32_t a = 0, t = 0;
            for (int d = 0; d < 9; d++) { uint32_t f = s->F[d][b]; t |= a & f; a |= f; }
            uint32_t u = s->U[b];
            if (u & ~a) return 0;
            uint32_t single = u & ~t;
            while (single) {
                int k = ctz32(single);
                single &= single - 1;
                uint32_t bit = 1u << k;
                int d = 0;
                while (d < 9 && !(s->F[d][b] & bit)) d++;
                if (d == 9) return 0;
                place9(s, d, b, k);
                c->naked++;
                progress = 1;
            }
        }
        if (!(s->U[0] | s->U[1] | s->U[2])) return 1;
        for (int d = 0; d < 9; d++) {
            uint32_t *F = s->F[d];
            /* a digit placed in all nine of its cells has nothing left to find */
            if (!((F[0] & s->U[0]) | (F[1] & s->U[1]) | (F[2] & s->U[2]))) continue;
            for (int b = 0; b < 3; b++) {
                if (!(F[b] & s->U[b])) continue;  /* this band's three d are placed */
                for (int r = 0; r < 3; r++) {
                    uint32_t v = F[b] & ROWM[r];
                    if (!v) return 0;
                    if (!(v & (v - 1))) {
                        int k = ctz32(v);
                        if (s->U[b] & v) { place9(s, d, b, k); c->hidden++; progress = 1; }
                    }
                }
                for (int bx = 0; bx < 3; bx++) {
                    uint32_t v = F[b] & BOXM[bx];
                    if (!v) return 0;
                    if (!(v & (v - 1))) {
                        int k = ctz32(v);
                        if (s->U[b] & v) { place9(s, d, b, k); c->hidden++; progress = 1; }
                    }
                }
            }
            /* columns: count the nine row slices bitwise (at least one, at least two) */
            uint32_t A = 0, B = 0;
            for (int b = 0; b < 3; b++) {
                uint32_t f = F[b];
                for (int r = 0; r < 3; r++) {
                    uint32_t v = (f >> (9 * r)) & ROWBITS;
                    B |= A & v;
                    A |= v;
                }
            }
            if (A != ROWBITS) return 0;
            uint32_t E = A & ~B;
            while (E) {
                int j = ctz32(E);
                E &= E - 1;
                int b = 0;
                while (b < 3 && !(F[b] & COLM[j])) b++;
                if (b == 3) return 0;
                uint32_t v = F[b] & COLM[j];
                if (s->U[b] & v) { place9(s, d, b, ctz32(v)); c->hidden++; progress = 1; }
            }
        }
        if (!progress) {
            if (!(s->U[0] | s->U[1] | s->U[2])) return 1;
            if (!locked || !locked9(s, c)) return 1;
        }
    }
}

static void record9(const S9 *s, BBSearch *c) {
    if (c->kept < c->keep) {
        uint8_t *out = c->solutions + (size_t)c->kept * 81;
        for (int d = 0; d < 9; d++)
            for (int b = 0; b < 3; b++) {
                uint32_t f = s->F[d][b];
                while (f) { out[27 * b + ctz32(f)] = (uint8_t)(d + 1); f &= f - 1; }
            }
        c->kept++;
    }
    c->count++;
}

/* The cell to branch on: a two-candidate cell if any, else the fewest candidates. */
static void choose9(const S9 *s, int *band, int *bitpos) {
    for (int b = 0; b < 3; b++) {
        uint32_t a = 0, t2 = 0, t3 = 0;
        for (int d = 0; d < 9; d++) {
            uint32_t f = s->F[d][b];
            t3 |= t2 & f; t2 |= a & f; a |= f;
        }
        uint32_t two = s->U[b] & t2 & ~t3;
        if (two) { *band = b; *bitpos = ctz32(two); return; }
    }
    int best = 10;
    for (int b = 0; b < 3; b++) {
        uint32_t u = s->U[b];
        while (u) {
            int k = ctz32(u);
            u &= u - 1;
            int n = 0;
            for (int d = 0; d < 9; d++) n += (s->F[d][b] >> k) & 1;
            if (n < best) { best = n; *band = b; *bitpos = k; }
        }
    }
}

static void search9(S9 *s, BBSearch *c, int locked) {
    if (bb_tick(c)) return;
    if (!propagate9(s, c, locked)) { c->backtracks++; return; }
    if (!(s->U[0] | s->U[1] | s->U[2])) { record9(s, c); return; }
    int b = 0, k = 0;
    choose9(s, &b, &k);
    uint32_t bit = 1u << k;
    int digits[9], n = 0;
    for (int d = 0; d < 9; d++)
        if (s->F[d][b] & bit) digits[n++] = d;
    if (n > 1) c->guesses++;
    for (int i = 0; i < n; i++) {
        if (i + 1 < n) {
            S9 t = *s;
            place9(&t, digits[i], b, k);
            search9(&t, c, locked);
        } else {
            place9(s, digits[i], b, k);
            search9(s, c, locked);
        }
        if (bb_stop(c)) return;
    }
}

void bb9_solve(const uint8_t *givens, int locked, BBSearch *c) {
    S9 s;
    for (int d = 0; d < 9; d++) s.F[d][0] = s.F[d][1] = s.F[d][2] = 0x7FFFFFFu;
    s.U[0] = s.U[1] = s.U[2] = 0x7FFFFFFu;
    for (int i = 0; i < 81; i++) {
        int v = givens[i];
        if (!v) continue;
        int b = i / 27, k = i % 27;
        if (v > 9 || !(s.F[v - 1][b] & (1u << k))) { c->nodes++; return; }  /* contradiction */
        place9(&s, v - 1, b, k);
    }
    search9(&s, c, locked);
}

/* The model's checks for one 81-character line (parse_sudoku_line + Sudoku._validate). */
int bb9_parse(const char *text, uint8_t *g, int *column) {
    for (int i = 0; i < 81; i++) {
        unsigned char ch = (unsigned char)text[i];
        if (ch == '.' || ch == '0' || ch == '_') { g[i] = 0; continue; }
        if (ch >= '1' && ch <= '9') { g[i] = (uint8_t)(ch - '0'); continue; }
        *column = i + 1;
        if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z')) return 2;
        return 1;
    }
    uint16_t rows[9] = {0}, cols[9] = {0}, boxes[9] = {0};
    int dup = 0;
    for (int i = 0; i < 81; i++) {
        if (!g[i]) continue;
        uint16_t bit = (uint16_t)(1u << g[i]);
        int r = i / 9, j = i % 9, x = (r / 3) * 3 + j / 3;
        if ((rows[r] & bit) || (cols[j] & bit) || (boxes[x] & bit)) dup = 1;
        rows[r] |= bit; cols[j] |= bit; boxes[x] |= bit;
    }
    return dup ? 3 : 0;
}
