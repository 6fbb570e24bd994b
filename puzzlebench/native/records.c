/* The records of a native batch's columns, built in one C pass (results.py:
 * Results._from_columns): the same Result, Times and Stats objects, with the same field
 * values, as the Python dataclasses would build, without their __init__ per record.
 *
 * Why: reading a record in Python costs about as much as the 9x9 search it reports (3.7 us
 * against 4 us on the 17-clue set).  Each object is made as object.__new__(cls) makes it,
 * its fields set in the dataclass __init__'s order so that the instances share their keys.  A compact batch's
 * record (engines/batch.py, BatchRecord) gets the batch and its index instead of a puzzle.  The
 * records come one at a time from an iterator: records alive at once would survive the
 * collector's young passes and bring on full collections. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "engines.h"

enum {
    N_KIND, N_SOLVER, N_LIMIT, N_STATUS, N_COUNT, N_SOLUTIONS, N_TIMES, N_STATS, N_SIZE, N_SOURCE,
    N_ERROR, N_PEAK, N_VERIFIED, N_PUZZLE, N_CERTIFICATE, N__PUZZLE, N__BATCH, N__INDEX, N__TEXT,
    N_PARSE, N_ENCODE, N_SOLVE, N_DECODE, N_TOTAL, N_CPU,
    N_NODES, N_GUESSES, N_BACKTRACKS, N_CONFLICTS, N_PROPAGATIONS, N_RAW, N_NAMES
};
static const char *const NAME_TEXT[N_NAMES] = {
    "kind", "solver", "limit", "status", "count", "solutions", "times", "stats", "size", "source",
    "error", "peak_memory", "verified", "puzzle", "certificate", "_puzzle", "_batch", "_index", "_text",
    "parse", "encode", "solve", "decode", "total", "cpu",
    "nodes", "guesses", "backtracks", "conflicts", "propagations", "raw",
};
static PyObject *NAME[N_NAMES];
static PyObject *EMPTY_ARGS, *ZERO;
static PyObject *SMALL[256];   /* the ints 0..255 (a cell's value is a byte) */

/* obj.<NAME[k]> = value, the reference to value taken (also on failure). */
static int set_steal(PyObject *obj, int k, PyObject *value) {
    if (value == NULL) return -1;
    int rc = PyObject_GenericSetAttr(obj, NAME[k], value);
    Py_DECREF(value);
    return rc;
}

static int set_borrowed(PyObject *obj, int k, PyObject *value) {
    return PyObject_GenericSetAttr(obj, NAME[k], value);
}

static PyObject *instance(PyObject *cls) {
    return ((PyTypeObject *)cls)->tp_new((PyTypeObject *)cls, EMPTY_ARGS, NULL);
}

/* Item i of a list (borrowed), or None when the column is None (not counted). */
static PyObject *item_or_none(PyObject *column, Py_ssize_t i) {
    return column == Py_None ? Py_None : PyList_GET_ITEM(column, i);
}

/* The columns, checked once; the iterator owns a reference to every object. */
typedef struct {
    PyObject_HEAD
    PyObject *record_cls, *times_cls, *stats_cls, *kind, *solver, *limit, *statuses, *counts, *solve,
        *total, *stats, *raw_names, *raw, *sizes, *puzzles, *parse_f, *cpu_f;
    Py_buffer sol, ver, table;   /* ver, table: .obj NULL when not given */
    Py_ssize_t cells, width, next, stop;
    double parse;
    int lazy, shared_size;
} RecordIter;

static void iter_dealloc(RecordIter *it) {
    PyObject **refs[] = {&it->record_cls, &it->times_cls, &it->stats_cls, &it->kind, &it->solver, &it->limit,
                         &it->statuses, &it->counts, &it->solve, &it->total, &it->stats, &it->raw_names,
                         &it->raw, &it->sizes, &it->puzzles, &it->parse_f, &it->cpu_f};
    for (size_t k = 0; k < sizeof refs / sizeof refs[0]; k++) Py_CLEAR(*refs[k]);
    if (it->sol.obj) PyBuffer_Release(&it->sol);
    if (it->ver.obj) PyBuffer_Release(&it->ver);
    if (it->table.obj) PyBuffer_Release(&it->table);
    PyObject_Free(it);
}

/* The record of puzzle i (a new reference), or NULL with an exception set. */
static PyObject *build_record(RecordIter *it, Py_ssize_t i) {
    PyObject *rec = NULL, *times = NULL, *st = NULL, *rawd = NULL, *sols = NULL, *puzzle = NULL;
    long count = PyLong_AsLong(PyList_GET_ITEM(it->counts, i));
    if (count == -1 && PyErr_Occurred()) return NULL;
    /* Times(parse, 0.0, solve, 0.0, total + parse, cpu) */
    double tot = PyFloat_AsDouble(PyList_GET_ITEM(it->total, i));
    if (tot == -1.0 && PyErr_Occurred()) return NULL;
    times = instance(it->times_cls);
    if (!times) goto fail;
    if (set_borrowed(times, N_PARSE, it->parse_f) < 0 || set_borrowed(times, N_ENCODE, ZERO) < 0
        || set_borrowed(times, N_SOLVE, PyList_GET_ITEM(it->solve, i)) < 0
        || set_borrowed(times, N_DECODE, ZERO) < 0
        || set_steal(times, N_TOTAL, PyFloat_FromDouble(tot + it->parse)) < 0
        || set_borrowed(times, N_CPU, it->cpu_f) < 0)
        goto fail;
    /* Stats(nodes, guesses, backtracks, conflicts, propagations, raw) */
    rawd = _PyDict_NewPresized(it->width);
    if (!rawd) goto fail;
    for (Py_ssize_t k = 0; k < it->width; k++)
        if (PyDict_SetItem(rawd, PyTuple_GET_ITEM(it->raw_names, k),
                           PyList_GET_ITEM(it->raw, i * it->width + k)) < 0)
            goto fail;
    st = instance(it->stats_cls);
    if (!st) goto fail;
    for (int k = 0; k < 5; k++)
        if (set_borrowed(st, N_NODES + k, item_or_none(PyTuple_GET_ITEM(it->stats, k), i)) < 0) goto fail;
    if (set_borrowed(st, N_RAW, rawd) < 0) goto fail;
    /* the first solution, as a tuple of values, when there is one */
    const uint8_t *values = (const uint8_t *)it->sol.buf + i * it->cells;
    sols = PyList_New(count ? 1 : 0);
    if (!sols) goto fail;
    if (count) {
        PyObject *t = PyTuple_New(it->cells);
        if (!t) goto fail;
        for (Py_ssize_t c = 0; c < it->cells; c++) {
            PyObject *v = SMALL[values[c]];
            Py_INCREF(v);
            PyTuple_SET_ITEM(t, c, v);
        }
        /* A tuple of ints can never be part of a cycle: the collector would untrack it at its
         * first pass (CPython's _PyTuple_MaybeUntrack); untracked now, it is never walked, and a
         * caller keeping many records does not pay a traversal of its 81 items per pass. */
        PyObject_GC_UnTrack(t);
        PyList_SET_ITEM(sols, 0, t);
    }
    rec = instance(it->record_cls);
    if (!rec) goto fail;
    PyObject *source = Py_None;
    if (!it->lazy) {
        puzzle = PySequence_GetItem(it->puzzles, i);
        if (!puzzle) goto fail;
        source = PyObject_GetAttr(puzzle, NAME[N_SOURCE]);
        if (!source) goto fail;
    } else {
        Py_INCREF(source);
    }
    const uint8_t *flags = it->ver.buf;
    int bad = set_borrowed(rec, N_KIND, it->kind) < 0 || set_borrowed(rec, N_SOLVER, it->solver) < 0
        || set_borrowed(rec, N_LIMIT, it->limit) < 0
        || set_borrowed(rec, N_STATUS, PyList_GET_ITEM(it->statuses, i)) < 0
        || set_borrowed(rec, N_COUNT, PyList_GET_ITEM(it->counts, i)) < 0
        || set_borrowed(rec, N_SOLUTIONS, sols) < 0 || set_borrowed(rec, N_TIMES, times) < 0
        || set_borrowed(rec, N_STATS, st) < 0
        || set_borrowed(rec, N_SIZE, it->shared_size ? it->sizes : PyList_GET_ITEM(it->sizes, i)) < 0
        || set_borrowed(rec, N_SOURCE, source) < 0 || set_borrowed(rec, N_ERROR, Py_None) < 0
        || set_borrowed(rec, N_PEAK, Py_None) < 0
        || set_borrowed(rec, N_VERIFIED, (flags && flags[i] == 1) ? Py_True : Py_False) < 0;
    Py_DECREF(source);
    if (bad) goto fail;
    if (!it->lazy) {
        if (set_borrowed(rec, N_PUZZLE, puzzle) < 0 || set_borrowed(rec, N_CERTIFICATE, Py_None) < 0) goto fail;
    } else {
        if (set_borrowed(rec, N_CERTIFICATE, Py_None) < 0) goto fail;
        if (set_borrowed(rec, N__PUZZLE, Py_None) < 0 || set_borrowed(rec, N__BATCH, it->puzzles) < 0
            || set_steal(rec, N__INDEX, PyLong_FromSsize_t(i)) < 0)
            goto fail;
        if (it->table.obj && count) {
            PyObject *text = PyUnicode_New(it->cells, 127);
            if (!text) goto fail;
            Py_UCS1 *p = PyUnicode_1BYTE_DATA(text);
            const uint8_t *chars = it->table.buf;
            for (Py_ssize_t c = 0; c < it->cells; c++) p[c] = chars[values[c]] & 0x7f;
            if (set_steal(rec, N__TEXT, text) < 0) goto fail;
        }
    }
    Py_XDECREF(puzzle); Py_DECREF(times); Py_DECREF(st); Py_DECREF(rawd); Py_DECREF(sols);
    return rec;
fail:
    Py_XDECREF(puzzle); Py_XDECREF(rec); Py_XDECREF(times); Py_XDECREF(st); Py_XDECREF(rawd); Py_XDECREF(sols);
    return NULL;
}

static PyObject *iter_next(RecordIter *it) {
    if (it->next >= it->stop) return NULL;
    return build_record(it, it->next++);
}

static PyTypeObject RecordIterType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "puzzlebench._native.ColumnRecords",
    .tp_basicsize = sizeof(RecordIter),
    .tp_dealloc = (destructor)iter_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The records of a batch's columns, built one at a time (native/records.c).",
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)iter_next,
};

static int fail_value(const char *what) {
    PyErr_Format(PyExc_ValueError, "column_records: %s", what);
    return -1;
}

static PyObject *column_records(PyObject *self, PyObject *args) {
    PyObject *record_cls, *times_cls, *stats_cls, *kind, *solver, *limit, *statuses, *counts, *solve,
        *total, *stats, *raw_names, *raw, *sizes, *puzzles, *lazy_obj, *verified_obj;
    Py_ssize_t cells, start, stop;
    double parse, cpu;
    RecordIter *it = PyObject_New(RecordIter, &RecordIterType);
    if (!it) return NULL;
    memset((char *)it + sizeof(PyObject), 0, sizeof(RecordIter) - sizeof(PyObject));
    if (!PyArg_ParseTuple(args, "OOOOOOO!O!O!O!O!O!O!OnOy*ddOOnn", &record_cls, &times_cls, &stats_cls,
                          &kind, &solver, &limit, &PyList_Type, &statuses, &PyList_Type, &counts,
                          &PyList_Type, &solve, &PyList_Type, &total, &PyTuple_Type, &stats,
                          &PyTuple_Type, &raw_names, &PyList_Type, &raw, &sizes, &cells, &verified_obj,
                          &it->sol, &parse, &cpu, &puzzles, &lazy_obj, &start, &stop))
        goto fail;
    PyObject *objs[] = {record_cls, times_cls, stats_cls, kind, solver, limit, statuses, counts, solve,
                        total, stats, raw_names, raw, sizes, puzzles};
    PyObject **refs[] = {&it->record_cls, &it->times_cls, &it->stats_cls, &it->kind, &it->solver, &it->limit,
                         &it->statuses, &it->counts, &it->solve, &it->total, &it->stats, &it->raw_names,
                         &it->raw, &it->sizes, &it->puzzles};
    for (size_t k = 0; k < sizeof objs / sizeof objs[0]; k++) { Py_INCREF(objs[k]); *refs[k] = objs[k]; }
    Py_ssize_t n = PyList_GET_SIZE(statuses);
    it->cells = cells; it->width = PyTuple_GET_SIZE(raw_names); it->parse = parse;
    it->next = start; it->stop = stop;
    it->lazy = PyObject_IsTrue(lazy_obj);
    if (it->lazy < 0) goto fail;
    if (!PyType_Check(record_cls) || !PyType_Check(times_cls) || !PyType_Check(stats_cls)) {
        fail_value("the classes");
        goto fail;
    }
    if (it->lazy && PyTuple_Check(lazy_obj) && PyTuple_GET_SIZE(lazy_obj) == 2
        && PyTuple_GET_ITEM(lazy_obj, 1) != Py_None) {   /* (True, table): 256 bytes, value -> character */
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(lazy_obj, 1), &it->table, PyBUF_SIMPLE) < 0) goto fail;
        if (it->table.len != 256) { fail_value("the table is not 256 bytes"); goto fail; }
    }
    if (PyTuple_GET_SIZE(stats) != 5 || PyList_GET_SIZE(counts) != n || PyList_GET_SIZE(solve) != n
        || PyList_GET_SIZE(total) != n || PyList_GET_SIZE(raw) != n * it->width || cells < 0
        || it->sol.len < n * cells || start < 0 || stop > n || start > stop) {
        fail_value("columns of unequal lengths");
        goto fail;
    }
    for (int k = 0; k < 5; k++) {
        PyObject *c = PyTuple_GET_ITEM(stats, k);
        if (c != Py_None && (!PyList_Check(c) || PyList_GET_SIZE(c) != n)) {
            fail_value("a statistic is not a list of one value a puzzle");
            goto fail;
        }
    }
    it->shared_size = !PyList_Check(sizes);
    if (!it->shared_size && PyList_GET_SIZE(sizes) != n) { fail_value("sizes"); goto fail; }
    if (verified_obj != Py_None) {
        if (PyObject_GetBuffer(verified_obj, &it->ver, PyBUF_SIMPLE) < 0) goto fail;
        if (it->ver.len < n) { fail_value("verified"); goto fail; }
    }
    if (!(it->parse_f = PyFloat_FromDouble(parse)) || !(it->cpu_f = PyFloat_FromDouble(cpu))) goto fail;
    return (PyObject *)it;
fail:
    Py_DECREF(it);
    return NULL;
}

static PyMethodDef records_methods[] = {
    {"column_records", column_records, METH_VARARGS,
     "column_records(record_cls, times_cls, stats_cls, kind, solver, limit, statuses: list, counts: list, "
     "solve: list, total: list, stats: (nodes, guesses, backtracks, conflicts, propagations) lists or None, "
     "raw_names: tuple, raw: flat list, sizes: list|dict, cells, verified: bytes|None, solutions: bytes, "
     "parse, cpu, puzzles, lazy: False | (True, table|None), start, stop) -> an iterator of the records"},
    {NULL, NULL, 0, NULL},
};

/* NAME[from..to) as a tuple of str. */
static PyObject *names_between(int from, int to) {
    PyObject *t = PyTuple_New(to - from);
    if (!t) return NULL;
    for (int k = from; k < to; k++) {
        Py_INCREF(NAME[k]);
        PyTuple_SET_ITEM(t, k - from, NAME[k]);
    }
    return t;
}

/* RECORD_FIELDS: the attribute names this file sets, by class, so that a test holds them equal
 * to the dataclasses' fields in order (tests/engines/test_batch.py): a renamed field fails it
 * rather than building records with a stray attribute. */
static int add_record_fields(PyObject *module) {
    PyObject *fields = Py_BuildValue("{sNsNsNsN}", "Result", names_between(N_KIND, N__PUZZLE),
                                     "lazy", names_between(N__PUZZLE, N_PARSE),
                                     "Times", names_between(N_PARSE, N_NODES),
                                     "Stats", names_between(N_NODES, N_NAMES));
    if (!fields) return -1;
    if (PyModule_AddObject(module, "RECORD_FIELDS", fields) < 0) {
        Py_DECREF(fields);
        return -1;
    }
    return 0;
}

int pb_register_records(PyObject *module) {
    for (int k = 0; k < N_NAMES; k++)
        if (!(NAME[k] = PyUnicode_InternFromString(NAME_TEXT[k]))) return -1;
    if (!(EMPTY_ARGS = PyTuple_New(0)) || !(ZERO = PyFloat_FromDouble(0.0))) return -1;
    for (int v = 0; v < 256; v++)
        if (!(SMALL[v] = PyLong_FromLong(v))) return -1;
    if (PyType_Ready(&RecordIterType) < 0 || add_record_fields(module) < 0) return -1;
    return PyModule_AddFunctions(module, records_methods);
}
