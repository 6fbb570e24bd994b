/* 9x9 Sudoku on band bitboards, JCZSolve-style.
 *
 * Representation (JCZSolve by Zhou Yundong and JasonLion; fsss2; tdoku's digit planes): for
 * every digit d and band b (three rows) one 27-bit word F[3d+b] holds the cells where d may
 * still go; a solved cell keeps the bit of its digit.  U[b] holds the unsolved cells.
 * seen[i] is F[i] as it was last examined, so propagation revisits only the words that
 * changed since (the idea that makes JCZSolve fast: after a placement most words are
 * untouched).
 *
 * Propagation to a fixed point, per changed word and per digit:
 *   - band logic (one table lookup): in a band, digit d occupies one cell of each row and of
 *     each box, so the 3x3 pattern "row r has d in box x" must contain a permutation; the
 *     entries that belong to no permutation are removed (pointing and claiming along rows,
 *     and more), and a pattern without a permutation is a contradiction;
 *   - stack logic, the same on the columns' side: "band b has d in column j of the stack";
 *   - hidden singles in rows, boxes (per word) and columns (per digit);
 *   - naked singles and empty cells, by bit-sliced counting over the nine planes, once the
 *     words are stable; the columns last.
 * With option locked off, the band and stack logic only checks that every row, box and
 * column keeps a candidate (singles only).
 * Branching: the two-candidate cell that sees the most unsolved cells, else the cell with the
 * fewest candidates; the state is copied for every alternative but the last (the classic bitboard solvers'
 * zero-allocation depth-first search). */
#include <string.h>
#include "pb_bitboard.h"

#define ROWBITS 0x1FFu
#define ALL27 0x7FFFFFFu
static uint32_t PEERS[27];           /* same band: row, box and column peers of a cell */
static uint32_t COLM[9];             /* a column's three cells in a band */
static uint32_t BOXM[3];
static const uint32_t ROWM[3] = {ROWBITS, ROWBITS << 9, ROWBITS << 18};
static uint8_t THIRDS[512];          /* 9-bit row -> which of its three thirds are non-empty */
static uint16_t PERM[2][512];        /* 3x3 pattern -> entries on some permutation ([1]) or
                                        the whole pattern if no line is empty ([0]); 0 = none */
static uint32_t PATTERN_CELLS[512];  /* 3x3 (row, box) pattern -> its 27 cells */
static uint32_t STACK_COLS[512];     /* 9-bit column set -> its cells in a band */
static int ready;

/* The entries of the 3x3 0/1 matrix m (bit 3r+c) that lie on a permutation inside m. */
static uint16_t on_permutation(unsigned m) {
    static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    unsigned out = 0;
    for (int p = 0; p < 6; p++) {
        unsigned cells = 0;
        for (int r = 0; r < 3; r++) cells |= 1u << (3 * r + perms[p][r]);
        if ((cells & m) == cells) out |= cells;
    }
    return (uint16_t)out;
}

static uint16_t lines_nonempty(unsigned m) {
    for (int k = 0; k < 3; k++)
        if (!(m & (7u << (3 * k))) || !(m & (0x49u << k))) return 0;
    return (uint16_t)m;
}

void bb9_init(void) {
    if (ready) return;
    for (int j = 0; j < 9; j++) COLM[j] = (1u << j) | (1u << (j + 9)) | (1u << (j + 18));
    for (int k = 0; k < 3; k++) BOXM[k] = (7u << (3 * k)) | (7u << (3 * k + 9)) | (7u << (3 * k + 18));
    for (int k = 0; k < 27; k++)
        PEERS[k] = (ROWM[k / 9] | COLM[k % 9] | BOXM[(k % 9) / 3]) & ~(1u << k);
    for (unsigned m = 0; m < 512; m++) {
        THIRDS[m] = (uint8_t)(((m & 7) ? 1 : 0) | ((m & 070) ? 2 : 0) | ((m & 0700) ? 4 : 0));
        PERM[1][m] = on_permutation(m);
        PERM[0][m] = lines_nonempty(m);
        uint32_t cells = 0, cols = 0;
        for (int e = 0; e < 9; e++)
            if (m & (1u << e)) {
                cells |= 7u << (9 * (e / 3) + 3 * (e % 3));
                cols |= COLM[e];
            }
        PATTERN_CELLS[m] = cells;
        STACK_COLS[m] = cols;
    }
    ready = 1;
}

/* One search state (the file's opening comment names them): F[3d+b] the cells of band b
 * where digit d may go (27 bits, row-major within the band), seen[i] F[i] as last examined,
 * U[b] the unsolved cells of band b. */
typedef struct { uint32_t F[27]; uint32_t seen[27]; uint32_t U[3]; } S9;

static inline void place9(S9 *s, int d, int b, int k) {
    uint32_t bit = 1u << k, nb = ~bit, cm = ~COLM[k % 9];
    for (int e = 0; e < 9; e++) s->F[3 * e + b] &= nb;
    s->F[3 * d + b] = (s->F[3 * d + b] & ~PEERS[k]) | bit;
    if (b != 0) s->F[3 * d] &= cm;
    if (b != 1) s->F[3 * d + 1] &= cm;
    if (b != 2) s->F[3 * d + 2] &= cm;
    s->U[b] &= nb;
}

/* Place d on the cells of `cells` (singles found in word 3d+b); 0 when one of them was
 * emptied meanwhile by another placement (its unit has no d left: a contradiction). */
static int place_singles(S9 *s, int d, int b, uint32_t cells, uint64_t *counter) {
    while (cells) {
        int k = pb_ctz32(cells);
        uint32_t bit = 1u << k;
        cells &= cells - 1;
        if (!(s->F[3 * d + b] & bit)) return 0;
        if (!(s->U[b] & bit)) continue;
        place9(s, d, b, k);
        (*counter)++;
    }
    return 1;
}

/* Band logic and hidden singles in rows and boxes for word i = 3d+b; 0 on a contradiction. */
static int update_word(S9 *s, int i, int locked, BBSearch *c) {
    uint32_t f = s->F[i];
    unsigned pattern = THIRDS[f & ROWBITS] | THIRDS[(f >> 9) & ROWBITS] << 3 | THIRDS[f >> 18] << 6;
    unsigned keep = PERM[locked][pattern];
    if (!keep) return 0;
    uint32_t g = f & PATTERN_CELLS[keep];
    if (g != f) {
        c->locked += (uint64_t)pb_popcount32(f & ~g);
        s->F[i] = g;
    }
    s->seen[i] = g;
    int d = i / 3, b = i % 3;
    if (!(g & s->U[b])) return 1;
    uint32_t singles = 0, v;
    for (int r = 0; r < 3; r++) { v = g & ROWM[r]; if (!(v & (v - 1))) singles |= v; }
    for (int x = 0; x < 3; x++) { v = g & BOXM[x]; if (!(v & (v - 1))) singles |= v; }
    return place_singles(s, d, b, singles & s->U[b], &c->hidden);
}

/* Stack logic and hidden singles in columns for digit d; 0 on a contradiction. */
static int update_columns(S9 *s, int d, int locked, BBSearch *c) {
    uint32_t *F = s->F + 3 * d;
    uint32_t p[3];
    for (int b = 0; b < 3; b++) p[b] = (F[b] | F[b] >> 9 | F[b] >> 18) & ROWBITS;
    if ((p[0] | p[1] | p[2]) != ROWBITS) return 0;
    if (locked) {
        for (int st = 0; st < 3; st++) {
            unsigned pattern = (p[0] >> (3 * st) & 7) | (p[1] >> (3 * st) & 7) << 3 | (p[2] >> (3 * st) & 7) << 6;
            unsigned keep = PERM[1][pattern];
            if (!keep) return 0;
            unsigned gone = pattern & ~keep;
            for (int b = 0; gone && b < 3; b++) {
                uint32_t cols = ((gone >> (3 * b)) & 7) << (3 * st);
                if (!cols) continue;
                uint32_t cells = F[b] & STACK_COLS[cols];
                c->locked += (uint64_t)pb_popcount32(cells);
                F[b] &= ~cells;
                p[b] &= ~cols;
            }
        }
    }
    uint32_t once = (p[0] ^ p[1] ^ p[2]) & ~((p[0] & p[1]) | (p[0] & p[2]) | (p[1] & p[2]));
    while (once) {
        int j = pb_ctz32(once);
        once &= once - 1;
        int b = (p[0] >> j & 1) ? 0 : (p[1] >> j & 1) ? 1 : 2;
        uint32_t v = F[b] & COLM[j];
        if (!v) return 0;
        if (!(v & (v - 1)) && (v & s->U[b])) { place9(s, d, b, pb_ctz32(v)); c->hidden++; }
    }
    return 1;
}

/* Naked singles (and empty cells) in every band: -1 contradiction, else how many placed. */
static int naked_singles(S9 *s, BBSearch *c) {
    int placed = 0;
    for (int b = 0; b < 3; b++) {
        uint32_t u = s->U[b];
        if (!u) continue;
        uint32_t a = 0, t = 0;
        for (int d = 0; d < 9; d++) { uint32_t f = s->F[3 * d + b]; t |= a & f; a |= f; }
        if (u & ~a) return -1;
        uint32_t single = u & ~t;
        while (single) {
            int k = pb_ctz32(single);
            single &= single - 1;
            uint32_t bit = 1u << k;
            int d = 0;
            while (d < 9 && !(s->F[3 * d + b] & bit)) d++;
            if (d == 9) return -1;
            place9(s, d, b, k);
            c->naked++;
            placed++;
        }
    }
    return placed;
}

/* Everything above to a fixed point; 0 on a contradiction.  The band words first (cheap, and
 * most of the work), then naked singles, and only when both stall the columns of the digits
 * whose words changed (this order was the fastest measured: 1.3x on top1465 against
 * columns after every band pass).  A full grid is consistent: every placement cleared its
 * peers. */
static int propagate9(S9 *s, BBSearch *c, int locked) {
    unsigned column_dirty = 0;  /* digits whose words changed since their columns were seen */
    for (;;) {
        int changed;
        do {
            changed = 0;
            for (int i = 0; i < 27; i++) {
                if (s->F[i] == s->seen[i]) continue;
                if (!update_word(s, i, locked, c)) return 0;
                column_dirty |= 1u << (i / 3);
                changed = 1;
            }
        } while (changed);
        if (!(s->U[0] | s->U[1] | s->U[2])) return 1;
        int placed = naked_singles(s, c);
        if (placed < 0) return 0;
        if (placed) continue;
        if (!column_dirty) return 1;
        while (column_dirty) {
            int d = pb_ctz32(column_dirty);
            column_dirty &= column_dirty - 1;
            if (!update_columns(s, d, locked, c)) return 0;
        }
    }
}

static void record9(const S9 *s, BBSearch *c) {
    if (c->kept < c->keep) {
        uint8_t *out = c->solutions + (size_t)c->kept * 81;
        for (int d = 0; d < 9; d++)
            for (int b = 0; b < 3; b++) {
                uint32_t f = s->F[3 * d + b];
                while (f) { out[27 * b + pb_ctz32(f)] = (uint8_t)(d + 1); f &= f - 1; }
            }
        c->kept++;
    }
    c->count++;
}

/* Unsolved cells that see cell k of band b (row, box and the column across the bands). */
static inline int open_peers(const S9 *s, int b, int k) {
    int n = pb_popcount32(s->U[b] & PEERS[k]);
    for (int o = 0; o < 3; o++)
        if (o != b) n += pb_popcount32(s->U[o] & COLM[k % 9]);
    return n;
}

/* The cell to branch on: among the two-candidate cells, the one that sees the most unsolved
 * cells (either choice then propagates furthest: on top1465 this halves the guesses of the
 * first two-candidate cell, 10.4 against 18.8 per puzzle); with none, the fewest candidates. */
static void choose9(const S9 *s, int *band, int *bitpos) {
    uint32_t twos[3], any = 0;
    for (int b = 0; b < 3; b++) {
        uint32_t a = 0, t2 = 0, t3 = 0;
        for (int d = 0; d < 9; d++) {
            uint32_t f = s->F[3 * d + b];
            t3 |= t2 & f; t2 |= a & f; a |= f;
        }
        twos[b] = s->U[b] & t2 & ~t3;
        any |= twos[b];
    }
    if (any) {
        int best = -1;
        for (int b = 0; b < 3; b++)
            for (uint32_t two = twos[b]; two; two &= two - 1) {
                int k = pb_ctz32(two), score = open_peers(s, b, k);
                if (score > best) { best = score; *band = b; *bitpos = k; }
            }
        return;
    }
    int fewest = 10;
    for (int b = 0; b < 3; b++)
        for (uint32_t u = s->U[b]; u; u &= u - 1) {
            int k = pb_ctz32(u), n = 0;
            for (int d = 0; d < 9; d++) n += (s->F[3 * d + b] >> k) & 1;
            if (n < fewest) { fewest = n; *band = b; *bitpos = k; }
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
        if (s->F[3 * d + b] & bit) digits[n++] = d;
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
    locked = locked != 0;
    for (int i = 0; i < 27; i++) { s.F[i] = ALL27; s.seen[i] = 0; }
    s.U[0] = s.U[1] = s.U[2] = ALL27;
    for (int i = 0; i < 81; i++) {
        int v = givens[i];
        if (!v) continue;
        int b = i / 27, k = i % 27;
        if (v > 9 || !(s.F[3 * (v - 1) + b] & (1u << k))) { c->nodes++; return; }  /* contradiction */
        place9(&s, v - 1, b, k);
    }
    search9(&s, c, locked);
}
