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
#define PY_SSIZE_T_CLEAN
#include <Python.h>   /* before the C library's headers, as in dlx_sudoku.c */
#include "pb_proof.h"

/* The proof the search writes: beside its search (ProvingDlx, after the search). */
static inline PBProof *proof_of(const void *s);

#define DLX_SUDOKU_PROOF 1
/* x: option cell * n + value - 1, the candidate variable x + 1, assumed true (its negation
 * joins not-D). */
#define PROOF_TRY(s, b, x) do { if (bx_choices(b) > 1) pb_proof_assume(proof_of(s), pb_literal_code(-(int64_t)(x) - 1)); } while (0)
#define PROOF_UNTRY(s, b) do { if (bx_choices(b) > 1) pb_proof_retract(proof_of(s)); } while (0)
#define PROOF_CLOSED(s, b) do { if (bx_choices(b) != 1) pb_proof_lemma(proof_of(s), 0); } while (0)
#define PROOF_SOLVED(s) pb_proof_lemma(proof_of(s), 0)
#include "dlx_sudoku.c"

/* The search (its matrix and bitset), and the proof it writes: the search passes the first
 * around as ever, the hooks find the second beside it. */
typedef struct { sd_worker worker; PBProof *proof; } ProvingDlx;

static inline PBProof *proof_of(const void *s) { return ((const ProvingDlx *)s)->proof; }

/* The puzzle run as a batch of one (sd_run_range) by a search that writes the proof. */
int dlx_sudoku_prove(const uint8_t *givens, int box_rows, int box_cols, BBSearch *out, PBProof *proof) {
    ProvingDlx proving = {.proof = proof};
    sd_worker *w = &proving.worker;
    sd_row row = {0};
    double left = out->deadline > 0 ? out->deadline - pb_now() : 0;
    sd_call call = {.givens = givens, .count = 1, .time_limit = out->deadline > 0 && left <= 0 ? 1e-9 : left,
                    .rows = &row, .sols = out->solutions, .workers = w, .threads = 1, .sigints = out->sigints};
    int rc = -1;
    if (sd_setup(&w->s, box_rows, box_cols, out->keep) == 0 && bx_setup(&w->bits, &w->s) == 0) {
        w->s.sigints = out->sigints;
        sd_run_range(&call, 0, 0, 1);
        if (row.bad) pb_proof_lemma(proof, 0);   /* two givens share an item: an at-most-one clause is false */
        out->count = (long long)row.count;
        out->nodes = row.nodes;
        out->kept = row.kept;
        out->timed_out = w->s.timed_out;
        rc = proof->out_of_memory ? -1 : 0;
    }
    sd_free(&w->s);
    bx_free(&w->bits);
    return rc;
}
