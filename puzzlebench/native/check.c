/* Bulk checks of Sudoku batches in the models' compact form (models/sudoku_batch.py, SudokuBatch:
 * n*n values a puzzle, one byte each, 0 = empty), for verifying answers (engines/batch.py) and
 * reading many lines at once (models/sudoku_batch.py, read_sudoku_lines).
 *   sudoku_answers_right(rows, cols, solutions, givens, threads=1) -> bytes: Sudoku.check's twin
 *     for a batch (every value in 1..n, every given kept, each unit's value bits the full mask);
 *   sudoku_givens_right(rows, cols, givens, threads=1) -> bytes: Sudoku._validate's twin
 *     (every value in 0..n, none twice in a row, column or block);
 *   sudoku_text_givens(rows, cols, text, table, threads=1) -> (values, right): lines of text read
 *     into givens through a character table, checked as sudoku_givens_right.
 * One byte per puzzle, 1 where right; rows x cols the block shape (n <= 64); `threads` native
 * threads split the batch, the GIL released.  They share no code with any engine, so that an
 * engine's bug cannot hide in its own check; the tests hold them to the model on random grids
 * of every shape.  A malformed argument raises ValueError. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "engines.h"
#include "pb_threads.h"

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


_Static_assert(MAX_VALUES == 64, "the block shapes the checks take are pb_block_shape_ok's");

/* Givens that keep the rules: every value in 0..n, no value twice in a row, column or block. */
static int givens_right(const uint8_t *g, const uint8_t *unused, int n, const uint8_t *block_of) {
    (void)unused;
    uint64_t row[MAX_VALUES], col[MAX_VALUES], box[MAX_VALUES];
    memset(row, 0, sizeof(uint64_t) * n);
    memset(col, 0, sizeof(uint64_t) * n);
    memset(box, 0, sizeof(uint64_t) * n);
    for (int r = 0, i = 0; r < n; r++)
        for (int c = 0; c < n; c++, i++) {
            int x = g[i];
            if (!x) continue;
            if (x > n) return 0;
            uint64_t bit = 1ULL << (x - 1);
            if ((row[r] | col[c] | box[block_of[i]]) & bit) return 0;
            row[r] |= bit; col[c] |= bit; box[block_of[i]] |= bit;
        }
    return 1;
}

typedef int (*PuzzleTest)(const uint8_t *values, const uint8_t *givens, int n, const uint8_t *block_of);

/* A bulk check's puzzles and their flags, for the threads it is split over (pb_threads.h). */
typedef struct {
    PuzzleTest test;
    const uint8_t *values, *givens, *block_of;
    int n;
    Py_ssize_t cells;
    uint8_t *flags;
} Checks;

static ptrdiff_t check_range(void *work, int worker, ptrdiff_t begin, ptrdiff_t end) {
    const Checks *c = work;
    (void)worker;
    for (Py_ssize_t k = begin; k < end; k++)
        c->flags[k] = (uint8_t)c->test(c->values + k * c->cells, c->givens ? c->givens + k * c->cells : NULL,
                                       c->n, c->block_of);
    return end;
}

/* One byte per puzzle of a packed batch, 1 where `test` holds: `values` (and `givens`, when
 * given, the same length) hold n*n bytes a puzzle; the puzzles split over `threads` threads,
 * the GIL released.  NULL with an exception set on a bad shape, length or thread count. */
static PyObject *each_puzzle(int rows, int cols, const Py_buffer *values, const Py_buffer *givens,
                             PuzzleTest test, int threads) {
    if (!pb_block_shape_ok(rows, cols, "", "")) return NULL;
    if (threads < 1 || threads > PB_MAX_THREADS) {
        PyErr_Format(PyExc_ValueError, "threads = %d: 1 to %d", threads, (int)PB_MAX_THREADS);
        return NULL;
    }
    int n = rows * cols;
    Py_ssize_t cells = (Py_ssize_t)n * n;
    if (givens && givens->len != values->len) {
        PyErr_Format(PyExc_ValueError, "solutions (%zd values) and givens (%zd values) are not the same "
                     "whole number of %zd-cell puzzles", values->len, givens->len, cells);
        return NULL;
    }
    if (values->len % cells) {
        PyErr_Format(PyExc_ValueError, "%s: %zd values, not a whole number of %zd-cell puzzles",
                     givens ? "solutions" : "givens", values->len, cells);
        return NULL;
    }
    Py_ssize_t count = values->len / cells;
    uint8_t *block_of = PyMem_Malloc((size_t)cells);
    PyObject *out = PyBytes_FromStringAndSize(NULL, count);
    if (!out || !block_of) {
        Py_XDECREF(out);
        PyMem_Free(block_of);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    block_table(rows, cols, block_of);
    Checks checks = {test, values->buf, givens ? givens->buf : NULL, block_of, n, cells,
                     (uint8_t *)PyBytes_AS_STRING(out)};
    Py_BEGIN_ALLOW_THREADS
    pb_split(count, threads, check_range, &checks, NULL);
    Py_END_ALLOW_THREADS
    PyMem_Free(block_of);
    return out;
}

/* sudoku_answers_right(rows, cols, solutions, givens, threads=1) -> bytes (see the top of the file). */
static PyObject *py_sudoku_answers_right(PyObject *self, PyObject *args) {
    int rows, cols, threads = 1;
    Py_buffer sol, giv;
    if (!PyArg_ParseTuple(args, "iiy*y*|i", &rows, &cols, &sol, &giv, &threads)) return NULL;
    PyObject *out = each_puzzle(rows, cols, &sol, &giv, grid_right, threads);
    PyBuffer_Release(&sol);
    PyBuffer_Release(&giv);
    return out;
}

/* sudoku_givens_right(rows, cols, givens, threads=1) -> bytes: 1 per puzzle whose givens (n*n values a
 * puzzle, 0 = empty) keep the rules, 0 where a value is out of range or repeats in a unit
 * (the model's own validation then names it). */
static PyObject *py_sudoku_givens_right(PyObject *self, PyObject *args) {
    int rows, cols, threads = 1;
    Py_buffer giv;
    if (!PyArg_ParseTuple(args, "iiy*|i", &rows, &cols, &giv, &threads)) return NULL;
    PyObject *out = each_puzzle(rows, cols, &giv, NULL, givens_right, threads);
    PyBuffer_Release(&giv);
    return out;
}

/* Text read into givens: each puzzle's n*n characters through `table` (a value a byte: 0 empty,
 * 1..n, more: no value here), then the givens' rules; the GIL released, split over threads. */
typedef struct {
    const uint8_t *text, *table, *block_of;
    uint8_t *values, *flags;
    int n;
    Py_ssize_t cells;
} TextChecks;

static ptrdiff_t text_range(void *work, int worker, ptrdiff_t begin, ptrdiff_t end) {
    const TextChecks *c = work;
    (void)worker;
    for (Py_ssize_t k = begin; k < end; k++) {
        const uint8_t *t = c->text + k * c->cells;
        uint8_t *v = c->values + k * c->cells, most = 0;
        for (Py_ssize_t i = 0; i < c->cells; i++) {
            v[i] = c->table[t[i]];
            most = v[i] > most ? v[i] : most;
        }
        c->flags[k] = (uint8_t)(most <= c->n && givens_right(v, NULL, c->n, c->block_of));
    }
    return end;
}

/* sudoku_text_givens(rows, cols, text, table, threads=1) -> (values, right): the text of many
 * puzzles (n*n characters each, one after another) as packed givens, each character through
 * the 256-byte `table`, and one byte per puzzle, 1 where every character is a value of the
 * shape (0..n) and the givens keep the rules (as sudoku_givens_right).  The values of a puzzle
 * that is not right mean nothing. */
static PyObject *py_sudoku_text_givens(PyObject *self, PyObject *args) {
    int rows, cols, threads = 1;
    Py_buffer text, table;
    if (!PyArg_ParseTuple(args, "iiy*y*|i", &rows, &cols, &text, &table, &threads)) return NULL;
    PyObject *values = NULL, *flags = NULL, *out = NULL;
    uint8_t *block_of = NULL;
    if (!pb_block_shape_ok(rows, cols, "", "")) goto done;
    if (threads < 1 || threads > PB_MAX_THREADS) {
        PyErr_Format(PyExc_ValueError, "threads = %d: 1 to %d", threads, (int)PB_MAX_THREADS);
        goto done;
    }
    int n = rows * cols;
    Py_ssize_t cells = (Py_ssize_t)n * n;
    if (table.len != 256 || text.len % cells) {
        PyErr_Format(PyExc_ValueError, "text: %zd characters, not a whole number of %zd-cell puzzles, or a table of "
                     "%zd bytes, not 256", text.len, cells, table.len);
        goto done;
    }
    Py_ssize_t count = text.len / cells;
    values = PyBytes_FromStringAndSize(NULL, text.len);
    flags = PyBytes_FromStringAndSize(NULL, count);
    block_of = PyMem_Malloc((size_t)cells);
    if (!values || !flags || !block_of) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    block_table(rows, cols, block_of);
    TextChecks checks = {text.buf, table.buf, block_of, (uint8_t *)PyBytes_AS_STRING(values),
                         (uint8_t *)PyBytes_AS_STRING(flags), n, cells};
    Py_BEGIN_ALLOW_THREADS
    pb_split(count, threads, text_range, &checks, NULL);
    Py_END_ALLOW_THREADS
    out = PyTuple_Pack(2, values, flags);
done:
    Py_XDECREF(values);
    Py_XDECREF(flags);
    PyMem_Free(block_of);
    PyBuffer_Release(&text);
    PyBuffer_Release(&table);
    return out;
}

static PyMethodDef check_methods[] = {
    {"sudoku_answers_right", py_sudoku_answers_right, METH_VARARGS,
     "sudoku_answers_right(rows, cols, solutions, givens: both n*n values a puzzle, threads=1) -> bytes: 1 per right answer"},
    {"sudoku_givens_right", py_sudoku_givens_right, METH_VARARGS,
     "sudoku_givens_right(rows, cols, givens: n*n values a puzzle, threads=1) -> bytes: 1 per puzzle whose givens keep the rules"},
    {"sudoku_text_givens", py_sudoku_text_givens, METH_VARARGS,
     "sudoku_text_givens(rows, cols, text: n*n characters a puzzle, table: 256 bytes, threads=1) -> (values, right): "
     "the text through the table as packed givens, and 1 per puzzle whose characters are all values 0..n "
     "and whose givens keep the rules"},
    {NULL, NULL, 0, NULL},
};

int pb_register_check(PyObject *module) { return PyModule_AddFunctions(module, check_methods); }
