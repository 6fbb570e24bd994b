/* Bulk verification of Sudoku answers, for the harness (harness/workers.py).
 *
 * A twin of Sudoku.check (models/sudoku.py) for a whole batch in one call: the answer to a
 * puzzle is right when every value is in 1..n, every given is kept, and every row, column and
 * block holds each value once (n cells whose value bits OR to the full mask).  It shares no
 * code with any engine, so that an engine's bug cannot hide in its own check; the tests hold
 * it to Sudoku.check on random right and wrong grids of every block shape.
 *
 *   sudoku_check_batch(rows, cols, solutions, givens) -> bytes
 *
 * rows x cols is the block shape (n = rows*cols <= 64 values); solutions is a bytes-like of
 * n*n values per puzzle (one byte each); givens is a sequence with one sequence of n*n ints
 * (0 = empty) per puzzle: Puzzle.givens as they are.  The answer has one byte per puzzle,
 * 1 where the solution is right.  A malformed argument raises an exception. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "engines.h"

#define MAX_VALUES 64

/* block_of[i]: the block of cell i (r*n + c), for every cell of the shape. */
static void block_table(int rows, int cols, uint8_t *block_of) {
    int n = rows * cols;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) block_of[r * n + c] = (uint8_t)((r / rows) * rows + c / cols);
}

static int grid_right(const uint8_t *v, const uint8_t *g, int n, const uint8_t *block_of) {
    uint64_t full = n == 64 ? ~0ULL : ((1ULL << n) - 1);
    uint64_t row[MAX_VALUES], col[MAX_VALUES], box[MAX_VALUES];
    memset(col, 0, sizeof(uint64_t) * n);
    memset(box, 0, sizeof(uint64_t) * n);
    for (int r = 0, i = 0; r < n; r++) {
        uint64_t seen = 0;
        for (int c = 0; c < n; c++, i++) {
            int x = v[i];
            if (x < 1 || x > n || (g[i] && g[i] != x)) return 0;
            uint64_t bit = 1ULL << (x - 1);
            seen |= bit;
            col[c] |= bit;
            box[block_of[i]] |= bit;
        }
        row[r] = seen;
    }
    for (int k = 0; k < n; k++)
        if (row[k] != full || col[k] != full || box[k] != full) return 0;
    return 1;
}

/* One puzzle's givens (a sequence of cells ints) into g; -1 with an exception set. */
static int read_givens(PyObject *seq, uint8_t *g, Py_ssize_t cells, int n, Py_ssize_t index, PyObject *zero) {
    PyObject *fast = PySequence_Fast(seq, "givens: each puzzle's givens must be a sequence");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != cells) {
        PyErr_Format(PyExc_ValueError, "givens of puzzle %zd: %zd cells, expected %zd", index,
                     PySequence_Fast_GET_SIZE(fast), cells);
        Py_DECREF(fast);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < cells; i++) {
        if (items[i] == zero) { g[i] = 0; continue; }  /* most cells are empty: skip the conversion */
        long x = PyLong_AsLong(items[i]);
        if (x == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        if (x < 0 || x > n) {
            PyErr_Format(PyExc_ValueError, "givens of puzzle %zd: value %ld at cell %zd is outside 0..%d",
                         index, x, i, n);
            Py_DECREF(fast);
            return -1;
        }
        g[i] = (uint8_t)x;
    }
    Py_DECREF(fast);
    return 0;
}

static PyObject *py_sudoku_check_batch(PyObject *self, PyObject *args) {
    int rows, cols;
    Py_buffer sol;
    PyObject *givens;
    if (!PyArg_ParseTuple(args, "iiy*O", &rows, &cols, &sol, &givens)) return NULL;
    PyObject *out = NULL, *fast = NULL;
    uint8_t *g = NULL, *block_of = NULL;
    PyObject *zero = PyLong_FromLong(0);  /* CPython's one small int 0: compared by identity */
    if (!zero) goto done;
    /* each side bounded before the product, which could overflow an int */
    if (rows < 1 || cols < 1 || rows > MAX_VALUES || cols > MAX_VALUES || rows * cols > MAX_VALUES) {
        PyErr_Format(PyExc_ValueError, "block shape %dx%d: 1 to %d values", rows, cols, MAX_VALUES);
        goto done;
    }
    int n = rows * cols;
    Py_ssize_t cells = (Py_ssize_t)n * n;
    fast = PySequence_Fast(givens, "givens must be a sequence (one per puzzle)");
    if (!fast) goto done;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    if (sol.len != count * cells) {
        PyErr_Format(PyExc_ValueError, "solutions: %zd bytes for %zd puzzles of %zd cells", sol.len, count,
                     cells);
        goto done;
    }
    out = PyBytes_FromStringAndSize(NULL, count);
    g = PyMem_Malloc((size_t)cells);
    block_of = PyMem_Malloc((size_t)cells);
    if (!out || !g || !block_of) { Py_CLEAR(out); if (!PyErr_Occurred()) PyErr_NoMemory(); goto done; }
    uint8_t *flags = (uint8_t *)PyBytes_AS_STRING(out);
    block_table(rows, cols, block_of);
    for (Py_ssize_t k = 0; k < count; k++) {
        if (read_givens(PySequence_Fast_GET_ITEM(fast, k), g, cells, n, k, zero) < 0) { Py_CLEAR(out); goto done; }
        flags[k] = (uint8_t)grid_right((const uint8_t *)sol.buf + k * cells, g, n, block_of);
    }
done:
    PyMem_Free(g);
    PyMem_Free(block_of);
    Py_XDECREF(fast);
    PyBuffer_Release(&sol);
    Py_XDECREF(zero);
    return out;
}

static PyMethodDef check_methods[] = {
    {"sudoku_check_batch", py_sudoku_check_batch, METH_VARARGS,
     "sudoku_check_batch(rows, cols, solutions, givens) -> bytes: 1 per right Sudoku answer"},
    {NULL, NULL, 0, NULL},
};

int pb_register_check(PyObject *module) { return PyModule_AddFunctions(module, check_methods); }
