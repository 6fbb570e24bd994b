/* Clause learning over a grid of units (sudokun_cdcl.c) compiled once more, writing a DRUP proof
 * of its search: the puzzle's CNF (encoders/cnf.py, `extended`: variable n * cell + value, each
 * cell's values and each unit's places of a value at least one and pairwise at most one, a unit
 * clause a given) with a blocking clause for each solution found (its open cells' values) is
 * unsatisfiable.  Each reason of the search is a clause of that CNF (R_BINARY a pairwise
 * at-most-one, R_CELL a cell's at-least-one, R_UNIT a unit's for a value) or a clause learnt
 * before, so its propagation is unit propagation and each first-UIP clause, minimised by those
 * reasons, is RUP as it stands.  The solutions the claim names are blocked from the start
 * (block_known), so the search is a refutation from its first step; one it finds besides them
 * refutes the claim, and the caller then has no proof.  A conflict at the root ends the proof
 * with the empty clause.  The clauses the search forgets are deleted from the proof as well, so
 * the checker propagates over the clauses the search kept. */
#include "sudokun.h"
#include "pb_proof.h"

/* The search's counters, and the proof it writes: the search passes the first around as ever,
 * the hooks find the second beside it. */
typedef struct { BBSearch search; PBProof *proof; } ProvingUnits;

static inline PBProof *proof_of(BBSearch *s) { return ((ProvingUnits *)s)->proof; }

/* A step over clause learning's literals: 2x, + 1 when negative, of variable x = cell * n +
 * value (0-based), which is DIMACS variable x + 1, whose code is the literal + 2. */
static void proof_step(BBSearch *s, uint8_t kind, const int *lits, size_t len) {
    PBProof *p = proof_of(s);
    if (!pb_proof_begin(p, kind, len)) return;
    for (size_t i = 0; i < len; i++) pb_proof_put(p, (uint32_t)lits[i] + 2);
    pb_proof_end(p);
}

#define CDCL_PROOF 1
#define CDCL_COPY(name) name##_proof
#define PROOF_LEARNT(s, lits, len) proof_step(s, 'a', lits, len)
#define PROOF_FORGOTTEN(s, lits, len) proof_step(s, 'd', lits, len)
#define PROOF_REFUTED(s) proof_step(s, 'a', NULL, 0)
#include "sudokun_cdcl.c"

int bbu_cdcl_prove(const UnitGrid *grid, const uint8_t *givens, int rules, BBSearch *s, PBProof *proof) {
    ProvingUnits proving = {*s, proof};
    int rc = bbu_cdcl_proof(grid, givens, rules, &proving.search);
    *s = proving.search;
    return rc < 0 || proof->out_of_memory ? -1 : 0;
}
