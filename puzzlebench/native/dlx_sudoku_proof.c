/* The Sudoku Dancing Links search (dlx_sudoku.c) compiled once more, writing a DRUP proof of
 * its search: the puzzle's CNF (encoders/cnf.py, `extended`: variable n * cell + value, each
 * cell's values and each unit's places of a value at least one and pairwise at most one, a unit
 * clause a given) with a blocking clause for each solution found is unsatisfiable.
 * The matrix's items are the at-least-one clauses (a cell; a row, column or block and a value)
 * and two options meet in an item exactly where an at-most-one clause forbids both, so under
 * the options chosen, unit propagation removes every option the covers removed.  A decision is
 * an option chosen among two or more of the branch item's: one chosen as its item's only one is
 * no decision, unit propagation placing it.  Under the decisions D, a branch item left without
 * options has its at-least-one clause false, and a solution (the givens and every option placed)
 * its blocking clause: either node gets the lemma not-D.  A branch item whose every choice x
 * gave (not-D or not-x) gives not-D, the lemmas and the removals falsifying its at-least-one
 * clause; at the root, the empty clause. */
#include "pb_proof.h"

#define DLX_SUDOKU_PROOF 1
/* x: option cell * n + value - 1, the candidate variable x + 1, assumed true (its negation
 * joins not-D). */
#define PROOF_TRY(s, b, x) do { if (bx_choices(b) > 1) pb_proof_assume((s)->proof, pb_literal_code(-(int64_t)(x) - 1)); } while (0)
#define PROOF_UNTRY(s, b) do { if (bx_choices(b) > 1) pb_proof_retract((s)->proof); } while (0)
#define PROOF_CLOSED(s, b) do { if (bx_choices(b) != 1) pb_proof_lemma((s)->proof, 0); } while (0)
#define PROOF_SOLVED(s) pb_proof_lemma((s)->proof, 0)
#include "dlx_sudoku.c"

int dlx_sudoku_prove(const uint8_t *givens, int box_rows, int box_cols, BBSearch *out, PBProof *proof) {
    sudoku_dlx s;
    bx_state b;
    int rc = -1;
    memset(&b, 0, sizeof b);
    if (sd_setup(&s, box_rows, box_cols, out->keep) < 0 || bx_setup(&b, &s) < 0) goto done;
    s.deadline = out->deadline;
    s.sigints = out->sigints;
    s.proof = proof;
    if (bx_load(&s, &b, givens) < 0)
        pb_proof_lemma(proof, 0);   /* two givens share an item: their at-most-one clause is false */
    else
        bx_search(&s, &b);
    out->count = (long long)s.count;
    out->nodes = s.nodes;
    out->timed_out = s.timed_out;
    out->kept = s.kept_n;
    for (int k = 0; k < s.kept_n; k++) sd_solution(&s, k, givens, out->solutions + (size_t)k * (size_t)s.nn);
    rc = proof->out_of_memory ? -1 : 0;
done:
    sd_free(&s);
    bx_free(&b);
    return rc;
}
