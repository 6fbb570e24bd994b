/* 9x9 Sudoku on band bitboards, JCZSolve-style (JCZSolve by Zhou Yundong and JasonLion;
 * fsss2; T. Dillon's tdoku, 2019).
 *
 * For every digit d and band b one 27-bit word F[3d+b] holds the cells where d may still go;
 * seen[] keeps each word as last examined, so propagation revisits only the words that changed
 * (after a placement most are untouched: what makes JCZSolve fast).  Propagation to a fixed
 * point: band and stack logic by table lookup, hidden singles, naked singles by bit-sliced
 * counting and, with option locked, tdoku's triads (propagate9 gives the order).  Branching is
 * tdoku's: a digit's placement in a band or stack (choose_placement); with locked off, the
 * two-candidate cell that sees the most unsolved cells (choose9).  The state is copied for
 * every alternative but the last: a zero-allocation depth-first search. */
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "pb_bitboard.h"

#define ROWBITS 0x1FFu
#define ALL27 0x7FFFFFFu
static uint32_t PEERS[27];           /* same band: row, box and column peers of a cell */
static uint32_t COLM[9];             /* a column's three cells in a band */
static uint32_t BOXM[3];
static const uint32_t ROWM[3] = {ROWBITS, ROWBITS << 9, ROWBITS << 18};
static uint16_t PERM[2][512];        /* 3x3 pattern -> entries on some permutation ([1]) or
                                        the whole pattern if no line is empty ([0]); 0 = none */
static uint32_t PATTERN_CELLS[512];  /* 3x3 (row, box) pattern -> its 27 cells */
static uint32_t STACK_COLS[512];     /* 9-bit column set -> its cells in a band */
static uint16_t PERM_ENTRIES[6];     /* permutation p of a 3x3 pattern -> its three entries */
static uint32_t ALONE[512];          /* 3x3 pattern -> its entries alone in their row or column,
                                        entry e as bit 3e (the first cell of its third) */
#define THIRD_FIRST 01111111111u     /* the first cell of each of a word's nine thirds */
#define MINIROWS 0x1249249u   /* bit 3e: the first cell of minirow e = 3r+x (row r, box x) */
/* The minirows of a band word x that hold a candidate (bit 3e of minirow e), and its columns
 * that hold one (bit j of column j); on a 32-bit word, or lane by lane on the vectors below. */
#define MINIROWS_OF(x) (((x) | (x) >> 1 | (x) >> 2) & MINIROWS)
#define COLUMNS_OF(x) (((x) | (x) >> 9 | (x) >> 18) & ROWBITS)
static uint8_t PERMS_IN[512];        /* 3x3 pattern -> the permutations it contains (6 bits) */
static uint8_t PERMS_N[512];         /* 3x3 pattern -> how many */
static uint16_t PERMS_W[512];        /* 3x3 pattern -> its weight in choose_placement */
static const int PERMS[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
/* 3x3 pattern -> the cells of PERM[locked][pattern] (0: a contradiction) and its ALONE entries:
 * update_word's one load where two dependent ones would be (PERM, then PATTERN_CELLS and ALONE) */
typedef struct { uint32_t cells, alone; } Keep9;
static Keep9 KEEP[2][512];
static int ready;

/* A branch rarely taken: the contradictions (one a failing node, against some 20 word updates
 * and as many placements before it) and option locked off.  Told to the compiler, the rare
 * paths leave the hot loops: GCC then keeps propagate9's set of changed words in a register
 * (else it is spilled to the stack and reloaded every word, a store-to-load chain), and the
 * loops fall through.  With update_word's branchless count: the kernel 7% faster on hardest
 * 11+ and top1465, 7-10% on 17-clue in the BMI2 copy, 1-4% in the x86-64-v2 copy, level in
 * the baseline, the same search (results/bitboard.md; GCC's profile-guided optimisation made
 * the kernel slower instead). */
#define RARELY(x) __builtin_expect(!!(x), 0)

/* This file is compiled more than once, each copy for its own instruction set
 * (sudoku9_copy.h; sudoku9_isa.c picks the copy at run time): BB9_COPY names a copy's two
 * entry points, the copy built here as it stands being the baseline. */
#ifndef BB9_COPY
#define BB9_COPY(name) name##_baseline
#endif

/* One copy writes a DRUP proof of its search (sudoku9_proof.c defines BB9_PROOF and the hooks
 * below: the rules unit propagation does not reproduce state a lemma for each candidate they
 * remove, a failed node or a solution the negation of its decisions).  That copy branches on
 * cells, so that a decision is one literal, and leaves the triads out (their eliminations are
 * no one-step lemma).  In every other copy the hooks are nothing and BB9_PROVING the constant
 * 0, so that their code is the same instruction for instruction. */
#ifndef BB9_PROOF
#define BB9_PROVING 0
#define PROOF_REMOVED(c, word, cells) ((void)0)         /* candidates of word `word` removed */
#define PROOF_ASSUME(c, word, k) ((void)0)              /* decision: the candidate at bit k */
#define PROOF_RETRACT(c) ((void)0)                      /* ... taken back */
#define PROOF_CLOSED(c) ((void)0)                       /* the node's lemma: not-D */
#endif

/* The entries of the 3x3 0/1 matrix m (bit 3r+c) that lie on a permutation inside m. */
static uint16_t on_permutation(unsigned m) {
    unsigned out = 0;
    for (int p = 0; p < 6; p++) {
        unsigned cells = 0;
        for (int r = 0; r < 3; r++) cells |= 1u << (3 * r + PERMS[p][r]);
        if ((cells & m) == cells) out |= cells;
    }
    return (uint16_t)out;
}

static uint16_t lines_nonempty(unsigned m) {
    for (int k = 0; k < 3; k++)
        if (!(m & (7u << (3 * k))) || !(m & (0x49u << k))) return 0;
    return (uint16_t)m;
}

void BB9_COPY(bb9_init)(void) {
    if (ready) return;
    for (int j = 0; j < 9; j++) COLM[j] = (1u << j) | (1u << (j + 9)) | (1u << (j + 18));
    for (int k = 0; k < 3; k++) BOXM[k] = (7u << (3 * k)) | (7u << (3 * k + 9)) | (7u << (3 * k + 18));
    for (int k = 0; k < 27; k++)
        PEERS[k] = (ROWM[k / 9] | COLM[k % 9] | BOXM[(k % 9) / 3]) & ~(1u << k);
    for (int p = 0; p < 6; p++) {
        PERM_ENTRIES[p] = 0;
        for (int r = 0; r < 3; r++) PERM_ENTRIES[p] |= (uint16_t)(1u << (3 * r + PERMS[p][r]));
    }
    for (unsigned m = 0; m < 512; m++) {
        PERMS_IN[m] = PERMS_N[m] = 0;
        for (int p = 0; p < 6; p++)
            if ((m & PERM_ENTRIES[p]) == PERM_ENTRIES[p]) { PERMS_IN[m] |= (uint8_t)(1u << p); PERMS_N[m]++; }
        /* 1000 * log2(n) for n placements: a settled digit (one) weighs nothing */
        static const uint16_t weight[7] = {0, 0, 1000, 1585, 2000, 2322, 2585};
        PERMS_W[m] = weight[PERMS_N[m]];
        PERM[1][m] = on_permutation(m);
        PERM[0][m] = lines_nonempty(m);
        uint32_t cells = 0, cols = 0;
        for (int e = 0; e < 9; e++)
            if (m & (1u << e)) {
                cells |= 7u << (9 * (e / 3) + 3 * (e % 3));
                cols |= COLM[e];
            }
        PATTERN_CELLS[m] = cells;
        ALONE[m] = 0;
        for (int e = 0; e < 9; e++)
            if ((m >> e & 1) && (!(m & (7u << (3 * (e / 3))) & ~(1u << e)) || !(m & (0x49u << (e % 3)) & ~(1u << e))))
                ALONE[m] |= 1u << (3 * e);
        STACK_COLS[m] = cols;
    }
    for (int l = 0; l < 2; l++)
        for (unsigned m = 0; m < 512; m++) {
            unsigned keep = PERM[l][m];
            KEEP[l][m].cells = keep ? PATTERN_CELLS[keep] : 0;
            KEEP[l][m].alone = ALONE[keep];
        }
    ready = 1;
}

/* One search state (the file's opening comment names them): F[3d+b] the cells of band b
 * where digit d may go (27 bits, row-major within the band), seen[i] F[i] as last examined,
 * U[b] the unsolved cells of band b; TR[b] and TC[b] the minirows and minicolumns of band b
 * whose triad (triads9) has been applied already (lane 3 unused). */
typedef struct { uint32_t F[27]; uint32_t seen[27]; uint32_t U[3]; uint32_t TR[4], TC[4]; } S9;

static inline void place9(S9 *s, int d, int b, int k) {
    uint32_t bit = 1u << k, nb = ~bit, cm = ~COLM[k % 9];
    for (int e = 0; e < 9; e++) s->F[3 * e + b] &= nb;
    /* d leaves the column in all three bands, then band b's word is set whole (the column's
     * cells there are peers): no test of which band is b (2-3% faster, the same search) */
    s->F[3 * d] &= cm;
    s->F[3 * d + 1] &= cm;
    s->F[3 * d + 2] &= cm;
    s->F[3 * d + b] = (s->F[3 * d + b] & ~PEERS[k]) | bit;
    s->U[b] &= nb;
}

/* Place d on the cells of `cells` (singles found in word 3d+b, option locked off); 0 when one
 * of them was emptied meanwhile by another placement (its unit has no d left: a
 * contradiction). */
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

/* The 3x3 pattern of a word's minirows (minirow e = 3r+x at bit 3e, the other bits clear):
 * bit 3r+x when row r of the band has a candidate in box x.  One pext where BMI2 is (2-3%
 * on every set, the kernel alone: results/bitboard.md), else the minirows' bits gathered by
 * shifts (GATHER_MINIROWS: on a word, or on a vector's lanes, patterns_of below). */
#define GATHER_MINIROWS(m) ({ __typeof__(m) z_ = (m) | (m) >> 2 | (m) >> 4; \
                              (z_ & 7u) | (z_ >> 6 & 070u) | (z_ >> 12 & 0700u); })
static inline unsigned pattern_of(uint32_t minirows) {
#ifdef PB_HAS_BMI2
    return __builtin_ia32_pext_si(minirows, MINIROWS);
#else
    return GATHER_MINIROWS(minirows);
#endif
}

/* The 3x3 pattern of a digit's columns in stack st (c0, c1, c2: the columns of bands 0, 1, 2
 * holding a candidate, COLUMNS_OF): bit 3b+j when band b has one in the stack's column j.
 * One pext where BMI2 is, else shifts. */
static inline unsigned stack_pattern(uint32_t c0, uint32_t c1, uint32_t c2, int st) {
#ifdef PB_HAS_BMI2
    return __builtin_ia32_pext_si(c0 | c1 << 9 | c2 << 18, 0x1C0E07u << (3 * st));
#else
    return (c0 >> (3 * st) & 7) | (c1 >> (3 * st) & 7) << 3 | (c2 >> (3 * st) & 7) << 6;
#endif
}

/* Band logic and hidden singles in rows and boxes for word i = 3d+b; 0 on a contradiction. */
static int update_word(S9 *s, int i, int locked, BBSearch *c) {
    uint32_t f = s->F[i];
    /* the 3x3 pattern (the rows' non-empty thirds gathered), then one table load: with the
     * placements below, 4% faster on hardest 11+ than three THIRDS loads and two dependent
     * ones (a chain of loads a word), the same search */
    Keep9 keep = KEEP[locked][pattern_of(MINIROWS_OF(f))];
    if (RARELY(!keep.cells)) { PROOF_REMOVED(c, i, f); return 0; }
    uint32_t g = f & keep.cells;
    PROOF_REMOVED(c, i, f & ~g);
    /* counted and stored whether or not the band logic removed something: no branch that the
     * processor mispredicts (with RARELY's hints 5-6% on hardest 11+ in the BMI2 copy) */
    c->locked += (uint64_t)pb_popcount32(f & ~g);
    s->F[i] = g;
    s->seen[i] = g;
    int d = i / 3, b = i % 3;
    if (!(g & s->U[b])) return 1;
    /* A row (box) holds one candidate when its only non-empty third (keep's entries alone in
     * their row or column: ALONE) holds one; the thirds holding exactly one are found all nine
     * at once, by the bits of each third added without carry (odd, and not all three).  This
     * replaced six masked tests a word: the kernel 3-5% faster on hardest 11+, 3-7% on 17-clue,
     * the same search (five alternations in one session). */
    uint32_t a = g & THIRD_FIRST, m = (g >> 1) & THIRD_FIRST, z = (g >> 2) & THIRD_FIRST;
    uint32_t sel = (a ^ m ^ z) & ~(a & m & z) & keep.alone;
    uint32_t singles = g & (sel | sel << 1 | sel << 2);
    singles &= s->U[b];
    if (RARELY(!locked)) return place_singles(s, d, b, singles, &c->hidden);
    if (!singles) return 1;
    /* With the band logic, keep is a union of permutations, so its singles lie in different
     * rows and boxes (hence columns: two in one row would each be alone in their column, and
     * every permutation would take that row twice): they are placed together, the same state
     * as place9 one by one gives (1.5% on hardest 11+, the same search). */
    uint32_t cols = COLUMNS_OF(singles);
    uint32_t colm = cols | cols << 9 | cols << 18;
    uint32_t rows = (singles & ROWM[0] ? ROWM[0] : 0) | (singles & ROWM[1] ? ROWM[1] : 0) | (singles & ROWM[2] ? ROWM[2] : 0);
    uint32_t bx = (singles | singles >> 9 | singles >> 18) & 0111u;
    bx = (bx | bx << 1 | bx << 2);
    bx |= bx << 9 | bx << 18;
    uint32_t ns = ~singles;
    for (int e = 0; e < 9; e++) s->F[3 * e + b] &= ns;
    s->F[3 * d] &= ~colm;
    s->F[3 * d + 1] &= ~colm;
    s->F[3 * d + 2] &= ~colm;
    s->F[i] = (g & ~(rows | bx | colm)) | singles;
    s->U[b] &= ns;
    c->hidden += (uint64_t)pb_popcount32(singles);
    return 1;
}

/* Stack logic and hidden singles in columns for digit d; 0 on a contradiction. */
static int update_columns(S9 *s, int d, int locked, BBSearch *c) {
    uint32_t *F = s->F + 3 * d;
    /* placed: the columns where d is already placed; their lone band need not be looked at
     * again (the kernel 9% faster on hardest 11+, 7% on 17-clue, the same search). */
    uint32_t p[3], placed = 0;
    for (int b = 0; b < 3; b++) {
        uint32_t f = F[b], x = f & ~s->U[b];
        p[b] = COLUMNS_OF(f);
        placed |= x | x >> 9 | x >> 18;
    }
    if (RARELY((p[0] | p[1] | p[2]) != ROWBITS)) return 0;
    if (locked) {
        for (int st = 0; st < 3; st++) {
            unsigned pattern = stack_pattern(p[0], p[1], p[2], st);
            unsigned keep = PERM[1][pattern];
            if (RARELY(!keep)) {
                for (int b = 0; b < 3; b++) PROOF_REMOVED(c, 3 * d + b, F[b] & STACK_COLS[7u << (3 * st)]);
                return 0;
            }
            unsigned gone = pattern & ~keep;
            for (int b = 0; gone && b < 3; b++) {
                uint32_t cols = ((gone >> (3 * b)) & 7) << (3 * st);
                if (!cols) continue;
                uint32_t cells = F[b] & STACK_COLS[cols];
                PROOF_REMOVED(c, 3 * d + b, cells);
                c->locked += (uint64_t)pb_popcount32(cells);
                F[b] &= ~cells;
                p[b] &= ~cols;
            }
        }
    }
    uint32_t once = (p[0] ^ p[1] ^ p[2]) & ~((p[0] & p[1]) | (p[0] & p[2]) | (p[1] & p[2]) | placed);
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
        if (RARELY(u & ~a)) return -1;
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

/* The words that changed since they were last examined (F[i] != seen[i]), as a 27-bit set:
 * with SSE2 (every x86-64) four words a compare, the scan of 27 words one by one having been
 * a tenth of the search on the hardest puzzles. */
static inline uint32_t changed_words(const S9 *s) {
#ifdef __SSE2__
    uint32_t same = 0;
    for (int q = 0; q < 7; q++) {   /* the 28th lane reads past F (seen[0], U[0]): masked off */
        __m128i f = _mm_loadu_si128((const __m128i *)(s->F + 4 * q));
        __m128i g = _mm_loadu_si128((const __m128i *)(s->seen + 4 * q));
        same |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(f, g))) << (4 * q);
    }
    return ~same & ALL27;
#else
    uint32_t changed = 0;
    for (int i = 0; i < 27; i++) changed |= (uint32_t)(s->F[i] != s->seen[i]) << i;
    return changed;
#endif
}

/* Four 32-bit lanes, one a band (lane 3 unused): GCC/Clang vector extensions, SSE2 on every
 * x86-64, NEON or scalar code elsewhere. */
typedef uint32_t v4u __attribute__((vector_size(16)));
#if defined(__clang__)
#define ROTATE_LANES(x, a, b, c) __builtin_shufflevector((x), (x), a, b, c, 3)
#else
#define ROTATE_LANES(x, a, b, c) __builtin_shuffle((x), (v4u){a, b, c, 3})
#endif

/* The digit sets of every minirow and minicolumn, counted over the nine digit planes at once
 * with carry-save adders (bit-sliced): where the count is three or more (*atleast3) and
 * exactly three (*exactly3). */
#define FULL_ADD(a, b, c, sum, carry) do { v4u t_ = (a) ^ (b); (carry) = ((a) & (b)) | (t_ & (c)); (sum) = t_ ^ (c); } while (0)
static inline void count9(const v4u *x, v4u *atleast3, v4u *exactly3) {
    v4u s1, s2, s3, c1, c2, c3, b0, c4, s5, c5;
    FULL_ADD(x[0], x[1], x[2], s1, c1);
    FULL_ADD(x[3], x[4], x[5], s2, c2);
    FULL_ADD(x[6], x[7], x[8], s3, c3);
    FULL_ADD(s1, s2, s3, b0, c4);              /* b0: weight 1 */
    FULL_ADD(c1, c2, c3, s5, c5);              /* s5: weight 2, c5: weight 4 */
    v4u b1 = s5 ^ c4, high = c5 | (s5 & c4);   /* b1: weight 2; high: 4 or more */
    *atleast3 = (b0 & b1) | high;
    *exactly3 = b0 & b1 & ~high;
}

/* Each digit's minirows (m: bit 3e of minirow e) and minicolumns (q: bit j of column j) in
 * each band, as the last triad pass saw them at a fixed point: what choose_placement reads. */
typedef struct { v4u m[9], q[9]; } Occupancy9;

/* pattern_of for a digit's three bands at once (lane 3 unused). */
static inline v4u patterns_of(v4u minirows) {
#ifdef PB_HAS_BMI2
    return (v4u){pattern_of(minirows[0]), pattern_of(minirows[1]), pattern_of(minirows[2]), 0};
#else
    return GATHER_MINIROWS(minirows);
#endif
}

/* A digit's three band words in one vector (lane 3: the next word, ignored). */
static inline v4u digit_words(const S9 *s, int d) {
    v4u x;
    memcpy(&x, s->F + 3 * d, sizeof x);
    return x;
}

/* Digit d's minirows and columns as its words stand, put in occ (the words returned): where
 * the triad pass starts for each digit; occupancy9 does it for every digit, for
 * choose_placement with option locked off (no triad pass). */
static inline v4u occupy9(const S9 *s, int d, Occupancy9 *occ) {
    v4u x = digit_words(s, d);
    occ->m[d] = MINIROWS_OF(x);
    occ->q[d] = COLUMNS_OF(x);
    return x;
}

static void occupancy9(const S9 *s, Occupancy9 *occ) {
    for (int d = 0; d < 9; d++) occupy9(s, d, occ);
}

/* The triad rules (T. Dillon's tdoku, 2019, "triads"): the three cells of a minirow (a box's
 * row) hold three different digits, and so do those of a minicolumn.
 *   - naked: a minirow where only three digits remain holds those three: each leaves the
 *     rest of its row and of its box (fewer than three: a contradiction);
 *   - hidden: a minirow where three digits are forced (the digit's only minirow in its row,
 *     or in its box) holds those three: the other digits leave its cells (four: a
 *     contradiction).
 * The same for minicolumns, a digit forced into one when it is the only one of its column.
 * Called at a fixed point of the other rules, where every band pattern and stack pattern is a
 * union of permutations: there an entry alone in its row of the pattern is alone in its
 * column too, so "forced" is one test, not two.  Naked and hidden counts share the adders:
 * the forced minirows sit one bit above the minirows (bit 3e + 1), the forced minicolumns
 * nine above the minicolumns.  A triad once applied holds for good (candidates only go), so
 * TR/TC remember it.  -1 on a contradiction, else the candidates removed; *occ is the
 * occupancy when none was removed. */
static int triads9(S9 *s, BBSearch *c, Occupancy9 *occ) {
    v4u *m = occ->m, *q = occ->q, f[9], rows[9], cols[9];
    for (int d = 0; d < 9; d++) {
        f[d] = occupy9(s, d, occ);
        v4u mr = m[d], mc = q[d];
        /* the digit's other minirows in the same box (no masks needed: the shifts leave the
         * band or land on positions mr does not hold); its other bands' minicolumns */
        v4u box = mr >> 9 | mr << 9 | mr >> 18 | mr << 18;
        v4u band = ROTATE_LANES(mc, 1, 2, 0) | ROTATE_LANES(mc, 2, 0, 1);
        rows[d] = mr | (mr & ~box) << 1;
        cols[d] = mc | (mc & ~band) << 9;
    }
    v4u three_r, exact_r, three_c, exact_c;
    count9(rows, &three_r, &exact_r);
    count9(cols, &three_c, &exact_c);
    v4u bad = ((three_r & MINIROWS) ^ MINIROWS) | (three_r & ~exact_r & (MINIROWS << 1)) |
              ((three_c & ROWBITS) ^ ROWBITS) | (three_c & ~exact_c & (ROWBITS << 9));
    if (bad[0] | bad[1] | bad[2]) return -1;
    v4u u = {s->U[0], s->U[1], s->U[2], 0}, tr, tc;
    memcpy(&tr, s->TR, sizeof tr);
    memcpy(&tc, s->TC, sizeof tc);
    v4u open_r = MINIROWS_OF(u) & ~tr, open_c = COLUMNS_OF(u) & ~tc;
    v4u nr = exact_r & open_r, nc = exact_c & open_c;                       /* naked */
    v4u hr = (exact_r >> 1) & open_r & ~nr, hc = (exact_c >> 9) & open_c & ~nc;  /* hidden */
    v4u any = nr | nc | hr | hc;
    if (!(any[0] | any[1] | any[2])) return 0;
    tr |= nr | hr;
    tc |= nc | hc;
    memcpy(s->TR, &tr, sizeof tr);
    memcpy(s->TC, &tc, sizeof tc);
    int removed = 0;
    for (int d = 0; d < 9; d++) {
        v4u t = nr & m[d], k = nc & q[d];
        v4u hout = hr & m[d] & ~(rows[d] >> 1), hcout = hc & q[d] & ~(cols[d] >> 9);
        v4u sel = t | k | hout | hcout;
        if (!(sel[0] | sel[1] | sel[2])) continue;
        /* naked minirow: the rest of its row and box */
        v4u row = (t | t >> 3 | t >> 6) & 0x40201u;        /* the first cell of each row hit */
        row |= row << 1 | row << 2;
        row |= row << 3 | row << 6;
        v4u box = (t | t >> 9 | t >> 18) & 0x49u;           /* the first column of each box hit */
        box |= box << 1 | box << 2;
        box |= box << 9 | box << 18;
        v4u gone = (row | box) & ~(t | t << 1 | t << 2);
        /* naked minicolumn: the rest of its column (the other bands) and of its box */
        v4u col = k | k << 9 | k << 18;
        v4u cbox = (k | k >> 1 | k >> 2) & 0x49u;
        cbox |= cbox << 1 | cbox << 2;
        cbox |= cbox << 9 | cbox << 18;
        gone |= (cbox | ROTATE_LANES(col, 1, 2, 0) | ROTATE_LANES(col, 2, 0, 1)) & ~col;
        /* hidden: the digits not forced leave the minirow's (minicolumn's) cells */
        gone |= hout | hout << 1 | hout << 2 | hcout | hcout << 9 | hcout << 18;
        gone &= f[d];
        for (int b = 0; b < 3; b++)
            if (gone[b]) { removed += pb_popcount32(gone[b]); s->F[3 * d + b] &= ~gone[b]; }
    }
    c->locked += (uint64_t)removed;
    return removed;
}

/* Everything above to a fixed point; 0 on a contradiction.  The band words first (cheap, and
 * most of the work), then naked singles, and only when both stall the columns of the digits
 * whose words changed (the fastest order measured: 1.3x on top1465 against the columns after
 * every band pass), and when those stall too the triads (option locked), which leave the
 * occupancy the branch is chosen from in *occ.  A full grid is consistent: every placement
 * cleared its peers. */
static int propagate9(S9 *s, BBSearch *c, int locked, Occupancy9 *occ) {
    unsigned column_dirty = 0;  /* digits whose words changed since their columns were seen */
    for (;;) {
        for (uint32_t changed; (changed = changed_words(s)) != 0;)
            while (changed) {
                int i = pb_ctz32(changed);
                changed &= changed - 1;
                if (RARELY(!update_word(s, i, locked, c))) return 0;
                column_dirty |= 1u << (i / 3);
            }
        if (!(s->U[0] | s->U[1] | s->U[2])) return 1;
        int placed = naked_singles(s, c);
        if (placed < 0) return 0;
        if (placed) continue;
        if (!column_dirty) {
            if (!locked || BB9_PROVING) return 1;
            int removed = triads9(s, c, occ);
            if (removed <= 0) return removed == 0;
            continue;
        }
        while (column_dirty) {
            int d = pb_ctz32(column_dirty);
            column_dirty &= column_dirty - 1;
            if (RARELY(!update_columns(s, d, locked, c))) return 0;
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

/* The cell to branch on with option locked off: among the two-candidate cells, the one that
 * sees the most unsolved cells (either choice then propagates furthest: on top1465 this halves
 * the guesses of the first two-candidate cell, 10.4 against 18.8 per puzzle); 1 when there is
 * one, else 0 with the cell of fewest candidates (search9 then branches on a placement: the
 * hardest 11+ puzzles, 79.6 guesses a puzzle against 81.6 for that cell; 17-clue 0.65 against
 * 0.69, measured with option locked on). */
static int choose9(const S9 *s, int *band, int *bitpos) {
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
        return 1;
    }
    int fewest = 10;
    for (int b = 0; b < 3; b++)
        for (uint32_t u = s->U[b]; u; u &= u - 1) {
            int k = pb_ctz32(u), n = 0;
            for (int d = 0; d < 9; d++) n += (s->F[3 * d + b] >> k) & 1;
            if (n < fewest) { fewest = n; *band = b; *bitpos = k; }
        }
    return 0;
}

/* A band's or stack's placements of one digit: which box each of the band's rows takes it in
 * (horizontal), or which column of the stack each band takes it in (vertical), a permutation
 * of a 3x3 pattern (tdoku's band "configurations", T. Dillon 2019).  The branch: the band or
 * stack whose unsettled digits (two placements or more) weigh least, a digit with n
 * placements weighing log2(n) (PERMS_W: the log of the band's or stack's configurations, the
 * digits taken alone), and in it the digit with the fewest placements (the first of them);
 * each placement is tried whole.  The placements of a digit partition its solutions, so the
 * alternatives are exclusive.  The weight is measured, not derived (nodes a puzzle, whole
 * sets, hardest 11+ / 17-clue / top1465): tdoku's rule, the fewest placements in all (weight
 * n), 123.8 / 2.12 / 18.7; log2(n) 119.7 / 2.17 / 18.7; sqrt(n) 120.0 / 2.32 / 18.3; every
 * unsettled digit the same 118.4 / 2.57 / 19.2, the same but the unit with more placements
 * first 116.2 / 2.67 / 20.1 (both 5-7% slower on 17-clue and top1465). */
typedef struct { int vertical, unit, digit; unsigned perms; } Branch9;

static int choose_placement(const Occupancy9 *occ, Branch9 *br) {
    uint16_t pattern[2][3][9];
    int total[2][3] = {{0, 0, 0}, {0, 0, 0}};
    for (int d = 0; d < 9; d++) {
        v4u rows = patterns_of(occ->m[d]), q = occ->q[d];   /* bit 3r+x: row r, box x */
        for (int b = 0; b < 3; b++) {
            pattern[0][b][d] = (uint16_t)rows[b];
            total[0][b] += PERMS_W[rows[b]];
        }
        for (int st = 0; st < 3; st++) {
            unsigned cols = stack_pattern(q[0], q[1], q[2], st);
            pattern[1][st][d] = (uint16_t)cols;
            total[1][st] += PERMS_W[cols];
        }
    }
    int best = 1 << 30;
    for (int v = 0; v < 2; v++)
        for (int u = 0; u < 3; u++)
            if (total[v][u] > 0 && total[v][u] < best) { best = total[v][u]; br->vertical = v; br->unit = u; }
    if (best == 1 << 30) return 0;
    int fewest = 7;
    br->digit = 0;
    for (int d = 0; d < 9; d++) {
        int n = PERMS_N[pattern[br->vertical][br->unit][d]];
        if (n >= 2 && n < fewest) { fewest = n; br->digit = d; }
    }
    br->perms = PERMS_IN[pattern[br->vertical][br->unit][br->digit]];
    return 1;
}

/* Keep only placement p of the branch's digit in its band or stack. */
static inline void restrict_placement(S9 *s, const Branch9 *br, int p) {
    uint32_t *F = s->F + 3 * br->digit;
    if (!br->vertical) {
        F[br->unit] &= PATTERN_CELLS[PERM_ENTRIES[p]];
        return;
    }
    unsigned stack = 7u << (3 * br->unit);
    for (int b = 0; b < 3; b++)
        F[b] &= ~STACK_COLS[stack & ~(1u << (3 * br->unit + PERMS[p][b]))];
}

static void search9(S9 *s, BBSearch *c, int locked) {
    if (bb_tick(c)) return;
    Occupancy9 occ;
    if (!propagate9(s, c, locked, &occ)) { c->backtracks++; PROOF_CLOSED(c); return; }
    if (!(s->U[0] | s->U[1] | s->U[2])) { record9(s, c); PROOF_CLOSED(c); return; }
    int b = 0, k = 0;
    Branch9 br;
    /* With option locked, a digit's placement always (the triads' fixed point leaves the
     * occupancy in occ); without, a two-candidate cell first (choose9). */
    int cell_chosen = (!locked || BB9_PROVING) && choose9(s, &b, &k);
    if (!locked && !cell_chosen) occupancy9(s, &occ);
    if (!BB9_PROVING && !cell_chosen && choose_placement(&occ, &br)) {
        unsigned perms = br.perms;
        if (perms & (perms - 1)) c->guesses++;
        while (perms) {
            int p = pb_ctz32(perms);
            perms &= perms - 1;
            if (perms) {
                S9 t = *s;
                restrict_placement(&t, &br, p);
                search9(&t, c, locked);
            } else {
                restrict_placement(s, &br, p);
                search9(s, c, locked);
            }
            if (bb_stop(c)) return;
        }
        return;
    }
    /* with option locked, a fallback never taken: at the triads' fixed point an open cell
     * leaves some digit two placements or more (one settled everywhere is a hidden single) */
    if (locked && !BB9_PROVING) choose9(s, &b, &k);
    uint32_t bit = 1u << k;
    int digits[9], n = 0;
    for (int d = 0; d < 9; d++)
        if (s->F[3 * d + b] & bit) digits[n++] = d;
    if (n > 1) c->guesses++;
    for (int i = 0; i < n; i++) {
        if (i + 1 < n) {
            S9 t = *s;
            PROOF_ASSUME(c, 3 * digits[i] + b, k);
            place9(&t, digits[i], b, k);
            search9(&t, c, locked);
            PROOF_RETRACT(c);
        } else {   /* the last: no decision (the others' lemmas imply it) */
            place9(s, digits[i], b, k);
            search9(s, c, locked);
        }
        if (bb_stop(c)) return;
    }
}

void BB9_COPY(bb9_solve)(const uint8_t *givens, int locked, BBSearch *c) {
    S9 s;
    locked = locked != 0;
    for (int i = 0; i < 27; i++) { s.F[i] = ALL27; s.seen[i] = 0; }
    s.U[0] = s.U[1] = s.U[2] = ALL27;
    memset(s.TR, 0, sizeof s.TR);
    memset(s.TC, 0, sizeof s.TC);
    for (int i = 0; i < 81; i++) {
        int v = givens[i];
        if (!v) continue;
        int b = i / 27, k = i % 27;
        if (v > 9 || !(s.F[3 * (v - 1) + b] & (1u << k))) { c->nodes++; PROOF_CLOSED(c); return; }  /* contradiction */
        place9(&s, v - 1, b, k);
    }
    search9(&s, c, locked);
}
