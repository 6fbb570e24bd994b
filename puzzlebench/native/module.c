/* The compiled extension puzzlebench._native: one module, one file per engine.
 *
 * Each engine's file defines `int pb_register_<engine>(PyObject *module)`, which adds its
 * functions to the module (PyModule_AddFunctions) and returns 0, or -1 with an exception set.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "engines.h"

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT, "puzzlebench._native",
    "puzzlebench's compiled engines: bitboard search, Dancing Links, bulk Sudoku checks and a DRAT proof checker.", -1, NULL,
};

PyMODINIT_FUNC PyInit__native(void) {
    PyObject *m = PyModule_Create(&native_module);
    if (m == NULL) return NULL;
    if (pb_register_bitboard(m) < 0 || pb_register_dlx(m) < 0 || pb_register_check(m) < 0
        || pb_register_records(m) < 0 || pb_register_interrupt(m) < 0
        || pb_register_drat(m) < 0 || pb_register_proofs(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
