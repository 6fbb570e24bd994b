/* The 9x9 kernel (sudoku9.c) compiled once more, writing a DRUP proof of its search: the
 * puzzle's CNF (encoders/cnf.py, `extended`: variable 9 * cell + value, pairwise at-most-one,
 * a unit a given) with a blocking clause for each solution found is unsatisfiable.
 * Under a node's decisions D, unit propagation reproduces the kernel's state (singles are units
 * of the at-least-one clauses, their eliminations the at-most-one clauses) but for the band and
 * stack logic, whose every removed candidate x gets the lemma (not-D or not-x) when removed.
 * It is RUP: with x placed, the at-most-one clauses clear its row and box (band) or box and
 * column (stack); x's entry being on no permutation of the 3x3 pattern, the 2x2 rest has none,
 * so one of its lines is empty (Koenig).  A dead end or a solution (its blocking clause false)
 * then gives not-D.  The search branches on cells, one literal a decision; when the
 * alternatives but the last have given (not-D or not-x), the last is searched under D itself
 * and its subtree ends with not-D: at the root, the empty clause.  No triads (their
 * eliminations are no one-step lemma). */
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
