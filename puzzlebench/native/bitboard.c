/* Python bindings of the bitboard engines: Sudoku (9x9 band bitboards and any
 * block shape up to 64 values), N-Queens and Skyscrapers, one puzzle per call, and the 9x9
 * batch call that parses, validates and solves a whole list of lines in C.
 *
 * Every buffer from Python is checked here (sizes, value ranges) before any search sees it;
 * a malformed one raises ValueError.  The GIL is released while searching. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>
#include "engines.h"
#include "pb_bitboard.h"

static int get_limit(PyObject *obj, long long *limit) {
    if (obj == Py_None) { *limit = 0; return 0; }
    long long v = PyLong_AsLongLong(obj);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < 0) { PyErr_SetString(PyExc_ValueError, "limit must be >= 0 or None"); return -1; }
    *limit = v;
    return 0;
}

static double deadline_of(double seconds) { return seconds > 0 ? pb_now() + seconds : 0; }

/* (count, timed_out, solutions bytes, (nodes, guesses, backtracks, naked, hidden, locked)) */
static PyObject *outcome(const BBSearch *s, Py_ssize_t cells) {
    return Py_BuildValue("(LNy#(KKKKKK))", s->count, PyBool_FromLong(s->timed_out),
                         (const char *)s->solutions, (Py_ssize_t)s->kept * cells,
                         (unsigned long long)s->nodes, (unsigned long long)s->guesses,
                         (unsigned long long)s->backtracks, (unsigned long long)s->naked,
                         (unsigned long long)s->hidden, (unsigned long long)s->locked);
}

static int init_search(BBSearch *s, PyObject *limit, int keep, double seconds, Py_ssize_t cells) {
    memset(s, 0, sizeof *s);
    if (get_limit(limit, &s->limit) < 0) return -1;
    if (keep < 0) { PyErr_SetString(PyExc_ValueError, "keep must be >= 0"); return -1; }
    s->keep = keep;
    s->solutions = PyMem_Malloc((size_t)(keep ? keep : 1) * (size_t)cells);
    if (!s->solutions) { PyErr_NoMemory(); return -1; }
    s->deadline = deadline_of(seconds);
    return 0;
}

static int check_values(const Py_buffer *b, Py_ssize_t want, int max, const char *what) {
    if (b->len != want) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd bytes, got %zd", what, want, b->len);
        return -1;
    }
    const uint8_t *p = b->buf;
    for (Py_ssize_t i = 0; i < want; i++)
        if (p[i] > max) {
            PyErr_Format(PyExc_ValueError, "%s[%zd] = %d is outside 0..%d", what, i, p[i], max);
            return -1;
        }
    return 0;
}

static PyObject *sudoku_solve(PyObject *self, PyObject *args) {
    int br, bc, keep, locked;
    Py_buffer g;
    PyObject *limit;
    double seconds;
    if (!PyArg_ParseTuple(args, "iiy*Oidp", &br, &bc, &g, &limit, &keep, &seconds, &locked))
        return NULL;
    PyObject *res = NULL;
    BBSearch s;
    s.solutions = NULL;
    if (br < 1 || bc < 1 || br > 64 || bc > 64 || br * bc > 64) {
        PyErr_Format(PyExc_ValueError, "block shape %dx%d: 1 to 64 values supported", br, bc);
        goto done;
    }
    int n = br * bc;
    if (check_values(&g, (Py_ssize_t)n * n, n, "givens") < 0) goto done;
    if (init_search(&s, limit, keep, seconds, (Py_ssize_t)n * n) < 0) goto done;
    int rc = 0;
    Py_BEGIN_ALLOW_THREADS
    if (br == 3 && bc == 3) bb9_solve(g.buf, locked, &s);
    else rc = bbn_solve(br, bc, g.buf, locked, &s);
    Py_END_ALLOW_THREADS
    if (rc < 0) { PyErr_NoMemory(); goto done; }   /* bbn_solve fails only to allocate its tables */
    res = outcome(&s, (Py_ssize_t)n * n);
done:
    PyMem_Free(s.solutions);
    PyBuffer_Release(&g);
    return res;
}

static PyObject *nqueens_solve(PyObject *self, PyObject *args) {
    int n, keep, symmetry;
    Py_buffer g;
    PyObject *limit;
    double seconds;
    if (!PyArg_ParseTuple(args, "iy*Oidp", &n, &g, &limit, &keep, &seconds, &symmetry)) return NULL;
    PyObject *res = NULL;
    BBSearch s;
    s.solutions = NULL;
    if (n < 1 || n > 64) { PyErr_Format(PyExc_ValueError, "n = %d: 1 to 64 supported", n); goto done; }
    if (check_values(&g, n, n, "placed") < 0) goto done;
    if (init_search(&s, limit, keep, seconds, n) < 0) goto done;
    Py_BEGIN_ALLOW_THREADS
    bbq_solve(n, g.buf, symmetry, &s);
    Py_END_ALLOW_THREADS
    res = outcome(&s, n);
done:
    PyMem_Free(s.solutions);
    PyBuffer_Release(&g);
    return res;
}

static PyObject *skyscrapers_solve(PyObject *self, PyObject *args) {
    int n, keep;
    Py_buffer b[5];
    PyObject *limit;
    double seconds;
    if (!PyArg_ParseTuple(args, "iy*y*y*y*y*Oid", &n, &b[0], &b[1], &b[2], &b[3], &b[4], &limit,
                          &keep, &seconds))
        return NULL;
    PyObject *res = NULL;
    BBSearch s;
    s.solutions = NULL;
    static const char *names[4] = {"top", "bottom", "left", "right"};
    if (n < 1 || n > 9) { PyErr_Format(PyExc_ValueError, "n = %d: 1 to 9 supported", n); goto done; }
    for (int i = 0; i < 4; i++)
        if (check_values(&b[i], n, n, names[i]) < 0) goto done;
    if (check_values(&b[4], (Py_ssize_t)n * n, n, "givens") < 0) goto done;
    if (init_search(&s, limit, keep, seconds, (Py_ssize_t)n * n) < 0) goto done;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = bbs_solve(n, b[0].buf, b[1].buf, b[2].buf, b[3].buf, b[4].buf, &s);
    Py_END_ALLOW_THREADS
    if (rc < 0) { PyErr_Format(PyExc_ValueError, "n = %d: 1 to 9 supported", n); goto done; }
    res = outcome(&s, (Py_ssize_t)n * n);
done:
    PyMem_Free(s.solutions);
    for (int i = 0; i < 5; i++) PyBuffer_Release(&b[i]);
    return res;
}

/* ---- the 9x9 batch ------------------------------------------------------------------- */

enum { B_OK = 0, B_TIMEOUT = 1, B_BAD_CHAR = 2, B_RANGE = 3, B_DUPLICATE = 4, B_OTHER = 5 };
#define STATS_PER 6

typedef struct {
    Py_ssize_t count;
    char *text;          /* count * 81 characters */
    uint8_t *status, *column;
    unsigned long long *counts;
    uint64_t *stats;
    double *seconds;
    char *solutions;
} Batch;

static void solve_batch(Batch *bt, long long limit, double seconds, int locked) {
    uint8_t givens[81], sol[81];
    for (Py_ssize_t i = 0; i < bt->count; i++) {
        char *out = bt->solutions + i * 81;
        memset(out, '.', 81);
        if (bt->status[i] != B_OK) continue;
        int column = 0;
        int rc = bb9_parse(bt->text + i * 81, givens, &column);
        if (rc) {
            bt->status[i] = (uint8_t)(rc == 1 ? B_BAD_CHAR : rc == 2 ? B_RANGE : B_DUPLICATE);
            bt->column[i] = (uint8_t)column;
            continue;
        }
        double t0 = bb_now();
        BBSearch s;
        memset(&s, 0, sizeof s);
        s.limit = limit;
        s.keep = 1;
        s.solutions = sol;
        s.deadline = seconds > 0 ? t0 + seconds : 0;
        bb9_solve(givens, locked, &s);
        bt->seconds[i] = bb_now() - t0;
        if (s.kept)
            for (int c = 0; c < 81; c++) out[c] = (char)('0' + sol[c]);
        bt->counts[i] = (unsigned long long)s.count;
        bt->status[i] = s.timed_out ? B_TIMEOUT : B_OK;
        uint64_t *st = bt->stats + i * STATS_PER;
        st[0] = s.nodes; st[1] = s.guesses; st[2] = s.backtracks;
        st[3] = s.naked; st[4] = s.hidden; st[5] = s.locked;
    }
}

/* Copy the puzzles' characters into one buffer (GIL held): a list/tuple of str, or one
 * bytes-like buffer of lines separated by "\n" (a trailing "\r" is dropped, a last empty
 * line ignored).  Lines that are not 81 ASCII characters are marked B_OTHER. */
static Py_ssize_t gather(PyObject *data, Batch *bt) {
    if (PyList_Check(data) || PyTuple_Check(data)) {
        PyObject *seq = data;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        bt->count = n;
        bt->text = PyMem_Malloc((size_t)(n ? n : 1) * 81);
        bt->status = PyMem_Calloc((size_t)(n ? n : 1), 1);
        if (!bt->text || !bt->status) { PyErr_NoMemory(); return -1; }
        PyObject **items = PySequence_Fast_ITEMS(seq);
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *s = items[i];
            if (!PyUnicode_Check(s)) {
                PyErr_Format(PyExc_TypeError, "puzzle %zd is %.100s, not str", i, Py_TYPE(s)->tp_name);
                return -1;
            }
            if (PyUnicode_READY(s) < 0) return -1;
            if (!PyUnicode_IS_ASCII(s) || PyUnicode_GET_LENGTH(s) != 81) { bt->status[i] = B_OTHER; continue; }
            memcpy(bt->text + i * 81, PyUnicode_DATA(s), 81);
        }
        return n;
    }
    Py_buffer b;
    if (PyObject_GetBuffer(data, &b, PyBUF_SIMPLE) < 0) {
        PyErr_SetString(PyExc_TypeError, "puzzles: expected a list of str or a bytes buffer of lines");
        return -1;
    }
    const char *p = b.buf, *end = p + b.len;
    Py_ssize_t n = 0;
    for (const char *q = p; q < end; q++) n += *q == '\n';
    if (b.len && end[-1] != '\n') n++;
    bt->count = n;
    bt->text = PyMem_Malloc((size_t)(n ? n : 1) * 81);
    bt->status = PyMem_Calloc((size_t)(n ? n : 1), 1);
    if (!bt->text || !bt->status) { PyBuffer_Release(&b); PyErr_NoMemory(); return -1; }
    Py_ssize_t i = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl : end;
        Py_ssize_t len = stop - p;
        if (len && p[len - 1] == '\r') len--;
        int ascii = 1;
        for (Py_ssize_t k = 0; k < len; k++) ascii &= (unsigned char)p[k] < 128;
        if (len == 81 && ascii) memcpy(bt->text + i * 81, p, 81);
        else bt->status[i] = B_OTHER;
        i++;
        p = nl ? nl + 1 : end;
    }
    PyBuffer_Release(&b);
    return n;
}

static PyObject *sudoku9_batch(PyObject *self, PyObject *args) {
    PyObject *data, *limit_obj;
    double seconds;
    int locked;
    if (!PyArg_ParseTuple(args, "OOdp", &data, &limit_obj, &seconds, &locked)) return NULL;
    long long limit;
    if (get_limit(limit_obj, &limit) < 0) return NULL;
    Batch bt;
    memset(&bt, 0, sizeof bt);
    PyObject *res = NULL;
    if (gather(data, &bt) < 0) goto done;
    size_t n = (size_t)(bt.count ? bt.count : 1);
    bt.column = PyMem_Calloc(n, 1);
    bt.counts = PyMem_Calloc(n, sizeof(unsigned long long));
    bt.stats = PyMem_Calloc(n * STATS_PER, sizeof(uint64_t));
    bt.seconds = PyMem_Calloc(n, sizeof(double));
    bt.solutions = PyMem_Malloc(n * 81);
    if (!bt.column || !bt.counts || !bt.stats || !bt.seconds || !bt.solutions) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    solve_batch(&bt, limit, seconds, locked);
    Py_END_ALLOW_THREADS
    Py_ssize_t c = bt.count;
    res = Py_BuildValue("(ny#y#y#y#y#y#)", c, (char *)bt.status, c, (char *)bt.column, c,
                        (char *)bt.counts, c * (Py_ssize_t)sizeof(unsigned long long),
                        (char *)bt.stats, c * STATS_PER * (Py_ssize_t)sizeof(uint64_t),
                        (char *)bt.seconds, c * (Py_ssize_t)sizeof(double), bt.solutions, c * 81);
done:
    PyMem_Free(bt.text); PyMem_Free(bt.status); PyMem_Free(bt.column); PyMem_Free(bt.counts);
    PyMem_Free(bt.stats); PyMem_Free(bt.seconds); PyMem_Free(bt.solutions);
    return res;
}

static PyMethodDef bitboard_methods[] = {
    {"sudoku_solve", sudoku_solve, METH_VARARGS,
     "sudoku_solve(box_rows, box_cols, givens: bytes, limit|None, keep, seconds, locked) -> "
     "(count, timed_out, solutions: bytes, (nodes, guesses, backtracks, naked, hidden, locked))"},
    {"sudoku9_batch", sudoku9_batch, METH_VARARGS,
     "sudoku9_batch(lines: list[str] | bytes, limit|None, seconds, locked) -> (n, status, column, "
     "counts<Q>, stats<6Q>, seconds<d>, solutions: 81 chars each)"},
    {"nqueens_solve", nqueens_solve, METH_VARARGS,
     "nqueens_solve(n, placed: bytes, limit|None, keep, seconds, symmetry) -> as sudoku_solve"},
    {"skyscrapers_solve", skyscrapers_solve, METH_VARARGS,
     "skyscrapers_solve(n, top, bottom, left, right, givens: bytes, limit|None, keep, seconds) "
     "-> as sudoku_solve"},
    {NULL, NULL, 0, NULL},
};

int pb_register_bitboard(PyObject *module) {
    bb9_init();
    return PyModule_AddFunctions(module, bitboard_methods);
}
