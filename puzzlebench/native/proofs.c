/* Python bindings of the searches that write a proof of their answer (sudoku9_proof.c), for
 * the engines' own certificates (engines/certify.py).  The buffers are checked here; the GIL
 * is released while searching. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "engines.h"
#include "pb_bitboard.h"
#include "pb_proof.h"

/* sudoku9_prove(givens, keep, seconds) -> (proof | None, count, solutions) */
static PyObject *sudoku9_prove(PyObject *self, PyObject *args) {
    Py_buffer g;
    int keep;
    double seconds;
    if (!PyArg_ParseTuple(args, "y*id", &g, &keep, &seconds)) return NULL;
    PyObject *res = NULL;
    BBSearch s;
    memset(&s, 0, sizeof s);
    PBProof proof;
    int opened = 0;
    const uint8_t *givens = g.buf;
    if (g.len != 81) { PyErr_Format(PyExc_ValueError, "givens: expected 81 bytes, got %zd", g.len); goto done; }
    for (int i = 0; i < 81; i++)
        if (givens[i] > 9) { PyErr_Format(PyExc_ValueError, "givens[%d] = %d is outside 0..9", i, givens[i]); goto done; }
    if (keep < 0) { PyErr_SetString(PyExc_ValueError, "keep must be >= 0"); goto done; }
    s.keep = keep;
    s.solutions = PyMem_Malloc((size_t)(keep ? keep : 1) * 81);
    if (!s.solutions || pb_proof_open(&proof) < 0) { PyErr_NoMemory(); goto done; }
    opened = 1;
    s.deadline = seconds > 0 ? pb_now() + seconds : 0;
    if (pb_interrupt_arm(&s.sigints) < 0) goto done;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = bb9_prove(givens, &s, &proof);
    Py_END_ALLOW_THREADS
    if (pb_interrupted(s.timed_out, s.sigints)) goto done;
    if (rc < 0) { PyErr_NoMemory(); goto done; }
    res = s.timed_out ? Py_BuildValue("(OLy#)", Py_None, s.count, (const char *)s.solutions, (Py_ssize_t)s.kept * 81)
                      : Py_BuildValue("(y#Ly#)", (const char *)proof.bytes, (Py_ssize_t)proof.len, s.count,
                                      (const char *)s.solutions, (Py_ssize_t)s.kept * 81);
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
    {NULL, NULL, 0, NULL},
};

int pb_register_proofs(PyObject *module) {
    bb9_prove_init();
    return PyModule_AddFunctions(module, PROOF_METHODS);
}
