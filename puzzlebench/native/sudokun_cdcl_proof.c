/* Clause learning over a grid of units (sudokun_cdcl.c) compiled once more, writing a binary
 * LRAT proof that the claim's formula (engines/certify.py claim_formula: the puzzle's CNF and a
 * blocking clause per solution named) is unsatisfiable.  Each reason of the search is a clause
 * of that formula (R_BINARY, R_CELL, R_UNIT, a given's unit clause) or one learnt before, so a
 * learnt clause's hints are the reasons of the literals between the conflict and the clause:
 * the cone of the implication graph, walked depth first from the conflict (each reason after
 * those of its false literals, the conflict last), whatever minimising and shrinking took out.
 * A root literal is hinted by a unit lemma of its own, written when a hint first needs it.  The
 * claimed solutions are blocked from the start (block_known); the clauses forgotten are deleted
 * by ID.  The formula's IDs are read from the formula itself (PBProof.formula: its binary
 * clauses hashed, its at-least-one clauses by cell and by unit and value, its units by
 * variable, the blocking clauses last): computing them from the encoder's order would save
 * ~25 ms on 25x25 but could drift from it, where a clause missing here fails the check. */
#include "sudokun.h"
#include "pb_proof.h"

struct Solver;
typedef struct { uint64_t key; uint32_t id; } PairSlot;

/* The search's counters, and beside them the proof and what its hints need. */
typedef struct {
    BBSearch search;
    PBProof *proof;
    uint32_t n_formula, next_id;        /* the formula's clauses are IDs 1 .. n_formula */
    PairSlot *pairs; uint64_t pairs_mask;   /* binary clause "not x or not y" by (x, y), x < y */
    uint32_t *cell_alo, *unit_alo, *given, blocking;   /* by cell, by unit * n + value, by variable;
                                                          the first blocking clause's ID - 1 */
    uint32_t *ids; size_t ids_cap;      /* by learnt clause: its ID */
    uint32_t *unit_id;                  /* by variable fixed at the root: its unit lemma's (or given's) ID */
    uint8_t *mark;                      /* by variable: 1 in the clause, 2 met (the walk) */
    IntVec touched, walk, ante, chain, conflict, unit_walk, unit_chain;
    uint32_t confl; int confl_var;      /* the last conflict (PROOF_CONFLICT) */
    int refuted;                        /* the empty clause is written */
} ProvingUnits;

static inline ProvingUnits *proving(BBSearch *s) { return (ProvingUnits *)s; }

static void lrat_learnt(struct Solver *S, BBSearch *s);
static void lrat_forgotten(BBSearch *s, int k);
static void lrat_kept(BBSearch *s, int k, int to);
static void lrat_refuted(struct Solver *S, BBSearch *s);
static void lrat_givens_clash(struct Solver *S, BBSearch *s, int x);
static void lrat_blocked(struct Solver *S, BBSearch *s, int k, const uint8_t *givens);

#define CDCL_PROOF 1
#define CDCL_COPY(name) name##_proof
#define PROOF_CONFLICT(s, r, x) (proving(s)->confl = (r), proving(s)->confl_var = (x))
#define PROOF_LEARNT(S, s) lrat_learnt(S, s)
#define PROOF_FORGOTTEN(S, s, k) lrat_forgotten(s, k)
#define PROOF_KEPT(s, k, to) lrat_kept(s, k, to)
#define PROOF_REFUTED(S, s) lrat_refuted(S, s)
#define PROOF_GIVENS_CLASH(S, s, x) lrat_givens_clash(S, s, x)
#define PROOF_BLOCKED(S, s, k, givens) lrat_blocked(S, s, k, givens)
#include "sudokun_cdcl.c"

/* ---- writing ---------------------------------------------------------------------------- */

static int out_of_memory(ProvingUnits *P) { P->proof->out_of_memory = 1; return -1; }

/* The lemma of literals lits[0 .. len) (clause learning's: 2x, + 1 when negative, of DIMACS
 * variable x + 1) with the hints of `chain`, every number in binary DRAT's code; its ID. */
static uint32_t write_lemma(ProvingUnits *P, const int *lits, size_t len, const IntVec *chain) {
    PBProof *p = P->proof;
    uint32_t id = ++P->next_id;
    if (!pb_proof_begin(p, 'a', 1 + len + 1 + chain->len)) return id;
    pb_proof_put(p, 2 * id);
    for (size_t i = 0; i < len; i++) pb_proof_put(p, (uint32_t)lits[i] + 2);
    pb_proof_put(p, 0);
    for (size_t i = 0; i < chain->len; i++) pb_proof_put(p, 2 * (uint32_t)chain->v[i]);
    pb_proof_end(p);
    return id;
}

/* Learnt clause k's ID, where memory held it (else the proof is out of memory already). */
static uint32_t id_of(const ProvingUnits *P, int k) { return (size_t)k < P->ids_cap ? P->ids[k] : 0; }

/* Room for learnt clause k's ID. */
static int ids_room(ProvingUnits *P, int k) {
    if ((size_t)k < P->ids_cap) return 0;
    size_t cap = P->ids_cap ? 2 * P->ids_cap : 1024;
    uint32_t *ids = realloc(P->ids, cap * sizeof *ids);
    if (!ids) return out_of_memory(P);
    P->ids = ids; P->ids_cap = cap;
    return 0;
}

/* ---- the formula's clause IDs ------------------------------------------------------------ */

static uint64_t pair_key(int x, int y) {   /* never 0, an empty slot's */
    return x < y ? ((uint64_t)x << 32 | (uint32_t)y) + 1 : ((uint64_t)y << 32 | (uint32_t)x) + 1;
}

static PairSlot *pair_slot(ProvingUnits *P, uint64_t key) {
    uint64_t i = (key * 0x9E3779B97F4A7C15ull) >> 20 & P->pairs_mask;
    while (P->pairs[i].key && P->pairs[i].key != key) i = (i + 1) & P->pairs_mask;
    return &P->pairs[i];
}

/* The ID of the clause behind reason r of variable x (clause_vars reads the same), 0 where the
 * formula has none. */
static uint32_t reason_id(ProvingUnits *P, const Solver *S, uint32_t r, int x) {
    switch (KIND(r)) {
    case R_BINARY: return pair_slot(P, pair_key(x, PAYLOAD(r)))->id;
    case R_CELL: return P->cell_alo[x / S->n];
    case R_UNIT: return P->unit_alo[(size_t)PAYLOAD(r) * S->n + x % S->n];
    case R_CLAUSE: return id_of(P, PAYLOAD(r));
    default: return 0;
    }
}

/* A positive clause of n literals over one value in n cells: the unit of exactly those cells
 * (of the first cell's units), or -1.  `in` marks the clause's cells. */
static int unit_of(const UnitGrid *g, const int32_t *lits, uint8_t *in) {
    const int n = g->n, first = (lits[0] - 1) / n;
    int found = -1;
    for (int i = 0; i < n; i++) in[(lits[i] - 1) / n] = 1;
    for (int k = g->cu_start[first]; k < g->cu_start[first + 1] && found < 0; k++) {
        const int *cells = g->units + (size_t)g->cu[k] * n;
        int all = 1;
        for (int i = 0; i < n && all; i++) all = in[cells[i]];
        if (all) found = g->cu[k];
    }
    for (int i = 0; i < n; i++) in[(lits[i] - 1) / n] = 0;
    return found;
}

/* The ID tables of the formula P->proof->formula (DIMACS literals, each clause closed by 0);
 * -2 when its last clauses are not the blocking clauses of the solutions known, -1 on no memory. */
static int read_formula(ProvingUnits *P, const UnitGrid *g, const uint8_t *givens) {
    const int32_t *f = P->proof->formula;
    const size_t len = P->proof->formula_len;
    const int n = g->n, ncell = n * n, nvar = ncell * n;
    uint64_t binaries = 0, clauses = 0;
    for (size_t i = 0, start = 0; i < len; i++)
        if (f[i] == 0) { binaries += i - start == 2; clauses++; start = i + 1; }
    uint64_t cap = 1024;
    while (cap < 2 * binaries) cap *= 2;
    P->pairs = calloc(cap, sizeof *P->pairs);
    P->pairs_mask = cap - 1;
    P->cell_alo = calloc((size_t)ncell, sizeof(uint32_t));
    P->unit_alo = calloc((size_t)g->nunit * n, sizeof(uint32_t));
    P->given = calloc((size_t)nvar, sizeof(uint32_t));
    P->unit_id = calloc((size_t)nvar, sizeof(uint32_t));
    P->mark = calloc((size_t)nvar + (size_t)ncell, 1);
    if (!P->pairs || !P->cell_alo || !P->unit_alo || !P->given || !P->unit_id || !P->mark) return out_of_memory(P);
    P->n_formula = P->next_id = (uint32_t)clauses;
    P->blocking = (uint32_t)clauses - (uint32_t)P->search.nblocked;
    uint32_t id = 0;
    for (size_t i = 0, start = 0; i < len; i++) {
        if (f[i] != 0) continue;
        const int32_t *c = f + start;
        size_t size = i - start;
        start = i + 1;
        id++;
        if (id > P->blocking) {   /* solution k's: "one of its open cells holds another value" */
            const uint8_t *solution = P->search.blocked + (size_t)(id - P->blocking - 1) * ncell;
            size_t at = 0;
            for (int cell = 0; cell < ncell; cell++)
                if (!givens[cell] && (at >= size || c[at++] != -(cell * n + solution[cell]))) return -2;
            if (at != size) return -2;
        } else if (size == 1 && c[0] > 0 && c[0] <= nvar) {
            if (!P->given[c[0] - 1]) P->given[c[0] - 1] = id;
        } else if (size == 2 && c[0] < 0 && c[1] < 0 && c[0] >= -nvar && c[1] >= -nvar) {
            PairSlot *slot = pair_slot(P, pair_key(-c[0] - 1, -c[1] - 1));
            if (!slot->key) { slot->key = pair_key(-c[0] - 1, -c[1] - 1); slot->id = id; }
        } else if ((int)size == n && c[0] > 0) {
            int same_cell = 1, same_value = 1;
            for (size_t j = 0; j < size; j++) {
                if (c[j] <= 0 || c[j] > nvar) same_cell = same_value = 0;
                else {
                    same_cell &= (c[j] - 1) / n == (c[0] - 1) / n;
                    same_value &= (c[j] - 1) % n == (c[0] - 1) % n;
                }
            }
            if (same_cell && !P->cell_alo[(c[0] - 1) / n]) P->cell_alo[(c[0] - 1) / n] = id;
            int u = same_value ? unit_of(g, c, P->mark + nvar) : -1;
            uint32_t *at = u >= 0 ? &P->unit_alo[(size_t)u * n + (c[0] - 1) % n] : NULL;
            if (at && !*at) *at = id;
        }
    }
    return 0;
}

/* ---- hints ------------------------------------------------------------------------------- */

static int touch(ProvingUnits *P, int x, uint8_t how) {
    P->mark[x] = how;
    return push(&P->touched, x);
}

/* Whether root variable y's unit lemma is yet to be written: a given's is the formula's unit
 * clause, taken at once (where the formula has none, the hint is left out and the check fails). */
static int needs_unit(ProvingUnits *P, const Solver *S, int y) {
    if (P->unit_id[y]) return 0;
    if (KIND(S->reason[y]) != R_DECISION) return 1;
    P->unit_id[y] = P->given[y];
    return 0;
}

/* The ID of the unit clause that holds variable x's value at the root, its lemma written first
 * where it has none yet (and those of its reason's root literals before it, depth first). */
static uint32_t root_unit(ProvingUnits *P, Solver *S, int x) {
    IntVec *walk = &P->unit_walk, *chain = &P->unit_chain;
    walk->len = 0;
    if (needs_unit(P, S, x) && push(walk, x) < 0) return out_of_memory(P), 0;
    while (walk->len) {
        int y = walk->v[walk->len - 1];
        if (P->unit_id[y]) { walk->len--; continue; }
        uint32_t r = S->reason[y];
        if (clause_vars(S, r, y) < 0) return out_of_memory(P), 0;
        size_t before = walk->len;
        for (size_t i = 0; i < S->buf.len; i++)
            if (S->buf.v[i] != y && needs_unit(P, S, S->buf.v[i]) && push(walk, S->buf.v[i]) < 0)
                return out_of_memory(P), 0;
        if (walk->len > before) continue;   /* its reason's literals first */
        walk->len--;
        chain->len = 0;
        for (size_t i = 0; i < S->buf.len; i++)
            if (S->buf.v[i] != y && P->unit_id[S->buf.v[i]] && push(chain, (int)P->unit_id[S->buf.v[i]]) < 0)
                return out_of_memory(P), 0;
        uint32_t id = reason_id(P, S, r, y);
        if (id && push(chain, (int)id) < 0) return out_of_memory(P), 0;
        int lit = 2 * y + (S->asg[y] == -1);   /* y's value */
        P->unit_id[y] = write_lemma(P, &lit, 1, chain);
    }
    return P->unit_id[x];
}

/* P->chain: the hints of a clause whose literals' variables are marked 1 in P->mark, from the
 * conflict clause of ID `conflict_id` over the variables P->conflict: the cone of the
 * implication graph between them, depth first, each reason after those of its false literals;
 * root literals by their unit lemmas; the conflict last.  Where a hint has no clause (a
 * decision outside the clause: it would not be implied), it is left out and the check fails. */
static int build_chain(ProvingUnits *P, Solver *S, uint32_t conflict_id) {
    IntVec *walk = &P->walk, *ante = &P->ante;
    walk->len = ante->len = 0;
    /* a frame: the variable (-1: the conflict), where its antecedents start in ante, the next */
    if (push(walk, -1) < 0 || push(walk, 0) < 0 || push(walk, 0) < 0) return -1;
    for (size_t i = 0; i < P->conflict.len; i++) if (push(ante, P->conflict.v[i]) < 0) return -1;
    while (walk->len) {
        int *frame = walk->v + walk->len - 3;
        if ((size_t)frame[2] + (size_t)frame[1] < ante->len) {
            int q = ante->v[frame[1] + frame[2]++];
            if (P->mark[q]) continue;
            if (touch(P, q, 2) < 0) return -1;
            if (S->level[q] == 0) {
                uint32_t unit = root_unit(P, S, q);
                if (unit && push(&P->chain, (int)unit) < 0) return -1;
                continue;
            }
            if (KIND(S->reason[q]) == R_DECISION) continue;
            if (clause_vars(S, S->reason[q], q) < 0) return -1;
            int start = (int)ante->len;
            for (size_t i = 0; i < S->buf.len; i++)
                if (S->buf.v[i] != q && push(ante, S->buf.v[i]) < 0) return -1;
            if (push(walk, q) < 0 || push(walk, start) < 0 || push(walk, 0) < 0) return -1;
            continue;
        }
        int x = frame[0];
        ante->len = (size_t)frame[1];
        walk->len -= 3;
        uint32_t id = x < 0 ? conflict_id : reason_id(P, S, S->reason[x], x);
        if (id && push(&P->chain, (int)id) < 0) return -1;
    }
    return 0;
}

/* The lemma of literals lits[0 .. len), all false now, from the conflict clause of ID
 * `conflict_id` over P->conflict's variables; its ID (0 on no memory). */
static uint32_t derive(ProvingUnits *P, Solver *S, const int *lits, size_t len, uint32_t conflict_id) {
    P->chain.len = P->touched.len = 0;
    int ok = 1;
    for (size_t i = 0; i < len && ok; i++) ok = touch(P, lits[i] >> 1, 1) == 0;
    ok = ok && build_chain(P, S, conflict_id) == 0;
    for (size_t i = 0; i < P->touched.len; i++) P->mark[P->touched.v[i]] = 0;
    if (!ok) return out_of_memory(P), 0;
    return write_lemma(P, lits, len, &P->chain);
}

/* The last conflict (PROOF_CONFLICT) as P->conflict's variables; its clause's ID (0: none). */
static uint32_t last_conflict(ProvingUnits *P, Solver *S) {
    P->conflict.len = 0;
    if (P->confl_var < 0) return 0;
    if (clause_vars(S, P->confl, P->confl_var) < 0) return out_of_memory(P), 0;
    for (size_t i = 0; i < S->buf.len; i++) if (push(&P->conflict, S->buf.v[i]) < 0) return out_of_memory(P), 0;
    return reason_id(P, S, P->confl, P->confl_var);
}

/* ---- the hooks --------------------------------------------------------------------------- */

static void lrat_learnt(Solver *S, BBSearch *s) {
    ProvingUnits *P = proving(s);
    if (ids_room(P, S->ncl) < 0) return;
    uint32_t conflict_id = last_conflict(P, S);
    uint32_t id = derive(P, S, S->learnt.v, S->learnt.len, conflict_id);
    if (S->learnt.len == 1) P->unit_id[S->learnt.v[0] >> 1] = id;   /* fixed at the root next */
    else P->ids[S->ncl] = id;                                        /* the clause add_clause makes */
}

static void lrat_kept(BBSearch *s, int k, int to) {
    ProvingUnits *P = proving(s);
    if ((size_t)to < P->ids_cap) P->ids[to] = id_of(P, k);
}

static void lrat_forgotten(BBSearch *s, int k) {
    ProvingUnits *P = proving(s);
    if (!id_of(P, k) || !pb_proof_begin(P->proof, 'd', 2)) return;
    pb_proof_put(P->proof, 2 * id_of(P, k));
    pb_proof_end(P->proof);
}

static void lrat_refuted(Solver *S, BBSearch *s) {
    ProvingUnits *P = proving(s);
    if (P->refuted) return;
    P->refuted = 1;
    derive(P, S, NULL, 0, last_conflict(P, S));
}

/* Given x out at the root: its unit clause is the conflict. */
static void lrat_givens_clash(Solver *S, BBSearch *s, int x) {
    ProvingUnits *P = proving(s);
    P->conflict.len = 0;
    if (push(&P->conflict, x) < 0) { out_of_memory(P); return; }
    P->refuted = 1;
    derive(P, S, NULL, 0, P->given[x]);
}

/* Known solution k blocked by S->learnt, its blocking clause less the literals false at the
 * root (the empty clause when none is left): the blocking clause is the conflict. */
static void lrat_blocked(Solver *S, BBSearch *s, int k, const uint8_t *givens) {
    ProvingUnits *P = proving(s);
    const uint8_t *solution = s->blocked + (size_t)k * S->ncell;
    P->conflict.len = 0;
    for (int c = 0; c < S->ncell; c++)
        if (!givens[c] && push(&P->conflict, c * S->n + solution[c] - 1) < 0) { out_of_memory(P); return; }
    if (S->learnt.len == 0) P->refuted = 1;
    uint32_t id = derive(P, S, S->learnt.v, S->learnt.len, P->blocking + (uint32_t)k + 1);
    if (S->learnt.len == 1) P->unit_id[S->learnt.v[0] >> 1] = id;
    else if (S->learnt.len > 1 && ids_room(P, S->ncl) == 0) P->ids[S->ncl] = id;
}

int bbu_cdcl_prove(const UnitGrid *grid, const uint8_t *givens, int rules, BBSearch *s, PBProof *proof) {
    ProvingUnits P;
    memset(&P, 0, sizeof P);
    P.search = *s;
    P.proof = proof;
    P.confl_var = -1;
    int rc = read_formula(&P, grid, givens);
    if (rc == 0) rc = bbu_cdcl_proof(grid, givens, rules, &P.search);
    *s = P.search;
    free(P.pairs); free(P.cell_alo); free(P.unit_alo); free(P.given); free(P.ids); free(P.unit_id); free(P.mark);
    free(P.touched.v); free(P.walk.v); free(P.ante.v); free(P.chain.v); free(P.conflict.v); free(P.unit_walk.v);
    free(P.unit_chain.v);
    return rc == -2 ? -2 : rc < 0 || proof->out_of_memory ? -1 : 0;
}
