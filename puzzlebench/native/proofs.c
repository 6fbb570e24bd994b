/* Python bindings of the searches that write a proof of their answer (sudoku9_proof.c,
 * sudokun_cdcl_proof.c, dlx_sudoku_proof.c), for the engines' own certificates (engines/certify.py).  The buffers
 * are checked here; the GIL is released while searching. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "dlx_sudoku.h"
#include "engines.h"
#include "pb_bitboard.h"
#include "pb_proof.h"

/* The search's givens checked (`cells` values 0..n), its counters zeroed, room for `keep`
 * solutions, its proof opened, its clock and Ctrl-C armed; -1 with an exception set, and
 * *opened saying whether the proof is to be closed. */
static int begin_proving(BBSearch *s, PBProof *proof, int *opened, const Py_buffer *g, Py_ssize_t cells, int n,
                         int keep, double seconds) {
    memset(s, 0, sizeof *s);
    *opened = 0;
    const uint8_t *givens = g->buf;
    if (g->len != cells) { PyErr_Format(PyExc_ValueError, "givens: expected %zd bytes, got %zd", cells, g->len); return -1; }
    for (Py_ssize_t i = 0; i < cells; i++)
        if (givens[i] > n) { PyErr_Format(PyExc_ValueError, "givens[%zd] = %d is outside 0..%d", i, givens[i], n); return -1; }
    if (keep < 0) { PyErr_SetString(PyExc_ValueError, "keep must be >= 0"); return -1; }
    s->keep = keep;
    s->solutions = PyMem_Malloc((size_t)(keep ? keep : 1) * (size_t)cells);
    if (!s->solutions || pb_proof_open(proof) < 0) { PyErr_NoMemory(); return -1; }
    *opened = 1;
    s->deadline = seconds > 0 ? pb_now() + seconds : 0;
    return pb_interrupt_arm(&s->sigints);
}

/* (proof | None, count, solutions) after the search (rc < 0: out of memory), or NULL. */
static PyObject *proved(const BBSearch *s, const PBProof *proof, int rc, Py_ssize_t cells) {
    if (pb_interrupted(s->timed_out, s->sigints)) return NULL;
    if (rc < 0) return PyErr_NoMemory();
    if (s->timed_out)
        return Py_BuildValue("(OLy#)", Py_None, s->count, (const char *)s->solutions, (Py_ssize_t)s->kept * cells);
    return Py_BuildValue("(y#Ly#)", (const char *)proof->bytes, (Py_ssize_t)proof->len, s->count,
                         (const char *)s->solutions, (Py_ssize_t)s->kept * cells);
}

/* sudoku9_prove(givens, keep, seconds) -> (proof | None, count, solutions) */
static PyObject *sudoku9_prove(PyObject *self, PyObject *args) {
    Py_buffer g;
    int keep, opened;
    double seconds;
    if (!PyArg_ParseTuple(args, "y*id", &g, &keep, &seconds)) return NULL;
    PyObject *res = NULL;
    BBSearch s;
    PBProof proof;
    if (begin_proving(&s, &proof, &opened, &g, 81, 9, keep, seconds) == 0) {
        int rc;
        Py_BEGIN_ALLOW_THREADS
        rc = bb9_prove(g.buf, &s, &proof);
        Py_END_ALLOW_THREADS
        res = proved(&s, &proof, rc, 81);
    }
    if (opened) pb_proof_close(&proof);
    PyMem_Free(s.solutions);
    PyBuffer_Release(&g);
    return res;
}

static int values_in_range(const uint8_t *v, Py_ssize_t len, int n) {
    for (Py_ssize_t i = 0; i < len; i++) if (v[i] < 1 || v[i] > n) return 0;
    return 1;
}

/* units_prove(n, units, givens, keep, seconds, rules, seed, conflict_unit, known, formula)
 *   -> (proof | None, count, solutions); `known`: solutions blocked from the start, which the
 *   proof refutes with the grid's CNF and none of which is counted; `formula`: the claim's
 *   clauses (32-bit DIMACS literals, each clause closed by 0), whose IDs the LRAT proof's hints name */
static PyObject *units_prove(PyObject *self, PyObject *args) {
    int n, keep, rules, opened = 0;
    PyObject *units_obj;
    Py_buffer g;
    double seconds;
    unsigned long long seed, conflict_unit;
    Py_buffer known = {0}, formula = {0};
    if (!PyArg_ParseTuple(args, "iOy*idiKKy*y*", &n, &units_obj, &g, &keep, &seconds, &rules, &seed, &conflict_unit,
                          &known, &formula))
        return NULL;
    PyObject *res = NULL;
    BBSearch s;
    s.solutions = NULL;
    PBProof proof;
    int *units = NULL, nunit = 0;
    if (n < 1 || n > 64) { PyErr_Format(PyExc_ValueError, "n = %d: 1 to 64 values supported", n); goto done; }
    if (!(units = read_units(units_obj, n, &nunit))) goto done;
    Py_ssize_t cells = (Py_ssize_t)n * n;
    if (begin_proving(&s, &proof, &opened, &g, cells, n, keep, seconds) < 0) goto done;
    s.seed = seed;
    s.conflict_unit = conflict_unit;
    if (known.buf && (known.len % cells || !values_in_range(known.buf, known.len, n))) {
        PyErr_Format(PyExc_ValueError, "known: whole solutions of %zd values 1..%d expected", cells, n);
        goto done;
    }
    const int32_t *lits = formula.buf;
    if (formula.len % 4 || (formula.len && lits[formula.len / 4 - 1] != 0)) {
        PyErr_SetString(PyExc_ValueError, "formula: 32-bit literals, each clause closed by 0");
        goto done;
    }
    s.blocked = known.buf;
    s.nblocked = (int)(known.len / cells);
    proof.formula = lits;
    proof.formula_len = (size_t)formula.len / 4;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = bbu_prove(n, nunit, units, g.buf, rules | BB_CDCL, &s, &proof);
    Py_END_ALLOW_THREADS
    if (rc == -2) {
        PyErr_SetString(PyExc_ValueError, "formula: its last clauses are not the known solutions' blocking clauses");
        goto done;
    }
    res = proved(&s, &proof, rc, cells);
done:
    if (opened) pb_proof_close(&proof);
    PyMem_Free(s.solutions);
    PyMem_Free(units);
    PyBuffer_Release(&g);
    if (known.buf) PyBuffer_Release(&known);
    if (formula.buf) PyBuffer_Release(&formula);
    return res;
}

/* dlx_sudoku_prove(givens, box_rows, box_cols, keep, seconds) -> (proof | None, count, solutions) */
static PyObject *py_dlx_sudoku_prove(PyObject *self, PyObject *args) {
    Py_buffer g;
    int rows, cols, keep, opened = 0;
    double seconds;
    if (!PyArg_ParseTuple(args, "y*iiid", &g, &rows, &cols, &keep, &seconds)) return NULL;
    PyObject *res = NULL;
    BBSearch s;
    s.solutions = NULL;
    PBProof proof;
    if (!pb_block_shape_ok(rows, cols, "dlx_sudoku_prove: ", "")) goto done;
    int n = rows * cols;
    if (begin_proving(&s, &proof, &opened, &g, (Py_ssize_t)n * n, n, keep, seconds) < 0) goto done;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = dlx_sudoku_prove(g.buf, rows, cols, &s, &proof);
    Py_END_ALLOW_THREADS
    res = proved(&s, &proof, rc, (Py_ssize_t)n * n);
done:
    if (opened) pb_proof_close(&proof);
    PyMem_Free(s.solutions);
    PyBuffer_Release(&g);
    return res;
}

static PyMethodDef PROOF_METHODS[] = {
    {"sudoku9_prove", sudoku9_prove, METH_VARARGS,
     "sudoku9_prove(givens: 81 values 0..9, keep, seconds) -> (proof, count, solutions): every solution of a "
     "9x9 Sudoku (the first `keep`, 81 bytes each) and a binary DRAT proof that the puzzle's CNF with a "
     "blocking clause for each is unsatisfiable (None when the time limit, seconds > 0, struck)"},
    {"units_prove", units_prove, METH_VARARGS,
     "units_prove(n, units, givens: n*n values 0..n, keep, seconds, rules, seed, conflict_unit, known, formula) -> "
     "(proof, count, solutions): every solution of a grid of units (as units_solve) but the `known` ones found by "
     "clause learning from the start (rules: its random tie-breaks and restarts), the first `keep` kept, and a "
     "binary LRAT proof that `formula` (the puzzle's CNF with a blocking clause for each known solution, last) "
     "is unsatisfiable (None when the time limit struck)"},
    {"dlx_sudoku_prove", py_dlx_sudoku_prove, METH_VARARGS,
     "dlx_sudoku_prove(givens: N*N values 0..N, box_rows, box_cols, keep, seconds) -> (proof, count, solutions): "
     "every solution of a Sudoku of box_rows x box_cols blocks found by Dancing Links (as dlx_sudoku_batch), "
     "the first `keep` kept, and a binary DRAT proof that the puzzle's CNF with a blocking clause for each is "
     "unsatisfiable (None when the time limit struck)"},
    {NULL, NULL, 0, NULL},
};

int pb_register_proofs(PyObject *module) {
    bb9_prove_init();
    return PyModule_AddFunctions(module, PROOF_METHODS);
}
