/* The 9x9 kernel (sudoku9.c) compiled once more, writing a DRUP proof of its search: that the
 * puzzle's CNF (encoders/cnf.py's `extended` encoding: variable 9 * cell + value, pairwise
 * at-most-one, a unit clause a given) with a blocking clause for each solution the search
 * finds is unsatisfiable, each lemma RUP with respect to the formula and the lemmas before it.
 *
 * Under the decisions D of a node, unit propagation reproduces the kernel's state: placements
 * are units of the cells' and units' at-least-one clauses (naked and hidden singles), their
 * eliminations the at-most-one clauses, and each candidate the band and stack logic removes
 * has its lemma (not-D or not-x), stated when it is removed.  That one is RUP: with x placed,
 * the at-most-one clauses clear its row and box (band) or its box and column (stack), and as
 * x's entry is on no permutation of the 3x3 pattern, the 2x2 rest has none either, so one of
 * its lines is empty (Koenig): a row, box or column with no place left for the digit.  A
 * failed node then gives not-D by propagation alone, and so does a solution, whose blocking
 * clause D falsifies.  The search branches on a cell (a decision is one literal); after the
 * alternatives but the last have given (not-D or not-x), the last follows by propagation,
 * searched under D itself, and its subtree ends with not-D: at the root, the empty clause.
 * The triads are left out (their eliminations need more than one lemma each). */
#include "pb_bitboard.h"
#include "pb_proof.h"

/* The search's counters, and the proof it writes: the kernel passes the first around as
 * ever, the hooks find the second beside it. */
typedef struct { BBSearch search; PBProof *proof; } Proving9;

/* The negative literal of digit word / 3 at bit k of band word % 3 (cell 27 * band + k). */
static inline uint32_t removal_code(int word, int k) {
    return pb_literal_code(-(int64_t)((27 * (word % 3) + k) * 9 + word / 3 + 1));
}

static inline PBProof *proof_of(BBSearch *c) { return ((Proving9 *)c)->proof; }

static void proof_removed(BBSearch *c, int word, uint32_t cells) {
    for (; cells; cells &= cells - 1) pb_proof_lemma(proof_of(c), removal_code(word, __builtin_ctz(cells)));
}

#define BB9_PROOF 1
#define BB9_PROVING 1
#define BB9_COPY(name) name##_proof
#define PROOF_REMOVED(c, word, cells) proof_removed(c, word, cells)
#define PROOF_ASSUME(c, word, k) pb_proof_assume(proof_of(c), removal_code(word, k))
#define PROOF_RETRACT(c) pb_proof_retract(proof_of(c))
#define PROOF_CLOSED(c) pb_proof_lemma(proof_of(c), 0)
#include "sudoku9.c"

void bb9_prove_init(void) { bb9_init_proof(); }

int bb9_prove(const uint8_t *givens, BBSearch *s, PBProof *proof) {
    Proving9 proving = {*s, proof};
    bb9_solve_proof(givens, 1, &proving.search);
    *s = proving.search;
    return proof->out_of_memory ? -1 : 0;
}
