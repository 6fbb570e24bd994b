/* The records of a native batch's columns (results.py: Results._from_columns): views, objects of
 * engines/batch.py's BatchRecord, BatchTimes and BatchStats (subclasses of Result, Times, Stats),
 * whose fields are C descriptors (ColumnField) that read the columns when asked.
 *
 * Why: the 9x9 search takes about 3 us a puzzle, and building a whole Result (Times, Stats,
 * solution tuple and text) took 1.2 us more whatever the caller read.  A view is one small object;
 * a caller pays for a field when it reads it.  A view's slots (its class's __slots__):
 *
 *     _src            the iterator below, which holds every column
 *     _index          the puzzle's index in the columns
 *     _held_<field>   NULL while the field is the column's; else the value set, or the object
 *                     built at the first read (solutions, times, stats, raw, puzzle: mutable, so
 *                     r.stats is r.stats and a change to it stays)
 *
 * The records come one at a time: records alive at once would bring on full collections. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <string.h>

#include "engines.h"

enum {
    N_KIND, N_SOLVER, N_LIMIT, N_STATUS, N_COUNT, N_SOLUTIONS, N_TIMES, N_STATS, N_SIZE, N_SOURCE,
    N_ERROR, N_PEAK, N_VERIFIED, N_PUZZLE, N_CERTIFICATE,
    N_PARSE, N_ENCODE, N_SOLVE, N_DECODE, N_TOTAL, N_CPU,
    N_NODES, N_GUESSES, N_BACKTRACKS, N_CONFLICTS, N_PROPAGATIONS, N_RAW,
    N_SOLUTION, N_FORMAT_SOLUTION, N_NAMES
};
static const char *const NAME_TEXT[N_NAMES] = {
    "kind", "solver", "limit", "status", "count", "solutions", "times", "stats", "size", "source",
    "error", "peak_memory", "verified", "puzzle", "certificate",
    "parse", "encode", "solve", "decode", "total", "cpu",
    "nodes", "guesses", "backtracks", "conflicts", "propagations", "raw",
    "solution", "format_solution",
};
/* The views and their fields: NAME[FIRST[v] .. FIRST[v + 1]) are the fields of view v. */
enum { V_RECORD, V_TIMES, V_STATS, N_VIEWS };
static const int FIRST[N_VIEWS + 1] = {N_KIND, N_PARSE, N_NODES, N_SOLUTION};
static const char *const VIEW_TEXT[N_VIEWS] = {"Result", "Times", "Stats"};

static PyObject *NAME[N_NAMES];
static PyObject *ZERO;
static PyObject *SMALL[256];   /* the ints 0..255 (a cell's value is a byte) */

/* The view classes, bound once (bind_column_views): where each keeps _src and _index. */
static struct { PyTypeObject *type; Py_ssize_t src, index; } VIEW[N_VIEWS];

#define SLOT(obj, offset) ((PyObject **)((char *)(obj) + (offset)))

/* The columns, checked once; the iterator owns a reference to every object, and every view
 * built from it owns a reference to the iterator. */
typedef struct {
    PyObject_HEAD
    PyObject *kind, *solver, *limit, *statuses, *counts, *solve, *total, *stats, *raw_names, *raw,
        *sizes, *puzzles, *parse_f, *cpu_f;
    Py_buffer sol, ver, table;   /* ver, table: .obj NULL when not given */
    Py_ssize_t cells, width, next, stop;
    double parse;
    int from_text, shared_size;
} RecordIter;

static PyTypeObject RecordIterType;

static void iter_dealloc(RecordIter *it) {
    PyObject **refs[] = {&it->kind, &it->solver, &it->limit, &it->statuses, &it->counts, &it->solve,
                         &it->total, &it->stats, &it->raw_names, &it->raw, &it->sizes, &it->puzzles,
                         &it->parse_f, &it->cpu_f};
    for (size_t k = 0; k < sizeof refs / sizeof refs[0]; k++) Py_CLEAR(*refs[k]);
    if (it->sol.obj) PyBuffer_Release(&it->sol);
    if (it->ver.obj) PyBuffer_Release(&it->ver);
    if (it->table.obj) PyBuffer_Release(&it->table);
    PyObject_Free(it);
}

/* A view of class v on puzzle `index` of the iterator's columns (a new reference). */
static PyObject *new_view(int v, PyObject *src, PyObject *index) {
    PyTypeObject *type = VIEW[v].type;
    PyObject *view = type->tp_alloc(type, 0);
    if (!view) return NULL;
    Py_INCREF(src);
    *SLOT(view, VIEW[v].src) = src;
    Py_INCREF(index);
    *SLOT(view, VIEW[v].index) = index;
    return view;
}

/* The first solution as a list of one tuple of values, or an empty list. */
static PyObject *solutions_of(RecordIter *it, Py_ssize_t i) {
    int found = PyObject_IsTrue(PyList_GET_ITEM(it->counts, i));
    if (found < 0) return NULL;
    PyObject *sols = PyList_New(found);
    if (!sols || !found) return sols;
    const uint8_t *values = (const uint8_t *)it->sol.buf + i * it->cells;
    PyObject *t = PyTuple_New(it->cells);
    if (!t) { Py_DECREF(sols); return NULL; }
    for (Py_ssize_t c = 0; c < it->cells; c++) {
        Py_INCREF(SMALL[values[c]]);
        PyTuple_SET_ITEM(t, c, SMALL[values[c]]);
    }
    /* A tuple of ints can never be part of a cycle: the collector would untrack it at its
     * first pass (CPython's _PyTuple_MaybeUntrack); untracked now, it is never walked, and a
     * caller keeping many records does not pay a traversal of its 81 items per pass. */
    PyObject_GC_UnTrack(t);
    PyList_SET_ITEM(sols, 0, t);
    return sols;
}

static PyObject *raw_of(RecordIter *it, Py_ssize_t i) {
    PyObject *raw = _PyDict_NewPresized(it->width);
    if (!raw) return NULL;
    for (Py_ssize_t k = 0; k < it->width; k++)
        if (PyDict_SetItem(raw, PyTuple_GET_ITEM(it->raw_names, k), PyList_GET_ITEM(it->raw, i * it->width + k)) < 0) {
            Py_DECREF(raw);
            return NULL;
        }
    return raw;
}

/* The solution text of a batch read from text: its table's character for each value. */
static PyObject *text_of(RecordIter *it, const uint8_t *values) {
    PyObject *text = PyUnicode_New(it->cells, 127);
    if (!text) return NULL;
    Py_UCS1 *out = PyUnicode_1BYTE_DATA(text);
    const uint8_t *chars = it->table.buf;
    for (Py_ssize_t c = 0; c < it->cells; c++) out[c] = chars[values[c]] & 0x7f;
    return text;
}

/* Result.solution on a view: the first solution as the puzzle's writer writes it.  From the
 * columns through the batch's table when the solutions were not set or read; else as
 * Result.solution computes it. */
static PyObject *solution_of(RecordIter *it, Py_ssize_t i, PyObject *record, PyObject *held) {
    if (!held && it->table.obj) {
        int found = PyObject_IsTrue(PyList_GET_ITEM(it->counts, i));
        if (found < 0) return NULL;
        if (!found) Py_RETURN_NONE;
        return text_of(it, (const uint8_t *)it->sol.buf + i * it->cells);
    }
    PyObject *sols = PyObject_GetAttr(record, NAME[N_SOLUTIONS]), *out = NULL;
    if (!sols) return NULL;
    int any = PyObject_IsTrue(sols);
    if (any <= 0) {
        Py_DECREF(sols);
        if (any < 0) return NULL;
        Py_RETURN_NONE;
    }
    PyObject *first = PySequence_GetItem(sols, 0), *puzzle = NULL;
    if (first && (puzzle = PyObject_GetAttr(record, NAME[N_PUZZLE])) != NULL)
        out = puzzle == Py_None ? Py_NewRef(Py_None)
                                : PyObject_CallMethodOneArg(puzzle, NAME[N_FORMAT_SOLUTION], first);
    Py_XDECREF(puzzle); Py_XDECREF(first); Py_DECREF(sols);
    return out;
}

/* Field k of puzzle i read from the columns (a new reference); `view` is the object asked. */
static PyObject *column_value(int k, RecordIter *it, Py_ssize_t i, PyObject *view, PyObject *index,
                              PyObject *held_solutions) {
    const uint8_t *flags = it->ver.buf;
    switch (k) {
    case N_KIND: return Py_NewRef(it->kind);
    case N_SOLVER: return Py_NewRef(it->solver);
    case N_LIMIT: return Py_NewRef(it->limit);
    case N_STATUS: return Py_NewRef(PyList_GET_ITEM(it->statuses, i));
    case N_COUNT: return Py_NewRef(PyList_GET_ITEM(it->counts, i));
    case N_SOLUTIONS: return solutions_of(it, i);
    case N_TIMES: return new_view(V_TIMES, (PyObject *)it, index);
    case N_STATS: return new_view(V_STATS, (PyObject *)it, index);
    case N_SIZE: return Py_NewRef(it->shared_size ? it->sizes : PyList_GET_ITEM(it->sizes, i));
    case N_SOURCE: {
        if (it->from_text) Py_RETURN_NONE;   /* a line of text names no source */
        PyObject *puzzle = PyObject_GetAttr(view, NAME[N_PUZZLE]);
        if (!puzzle) return NULL;
        PyObject *source = PyObject_GetAttr(puzzle, NAME[N_SOURCE]);
        Py_DECREF(puzzle);
        return source;
    }
    case N_ERROR: case N_PEAK: case N_CERTIFICATE: Py_RETURN_NONE;
    case N_VERIFIED: return Py_NewRef(flags && flags[i] == 1 ? Py_True : Py_False);
    case N_PUZZLE: return PySequence_GetItem(it->puzzles, i);
    case N_PARSE: return Py_NewRef(it->parse_f);
    case N_ENCODE: case N_DECODE: return Py_NewRef(ZERO);
    case N_SOLVE: return Py_NewRef(PyList_GET_ITEM(it->solve, i));
    case N_TOTAL: {
        double total = PyFloat_AsDouble(PyList_GET_ITEM(it->total, i));
        if (total == -1.0 && PyErr_Occurred()) return NULL;
        return PyFloat_FromDouble(total + it->parse);
    }
    case N_CPU: return Py_NewRef(it->cpu_f);
    case N_RAW: return raw_of(it, i);
    case N_SOLUTION: return solution_of(it, i, view, held_solutions);
    default: {   /* nodes, guesses, backtracks, conflicts, propagations: None where not counted */
        PyObject *column = PyTuple_GET_ITEM(it->stats, k - N_NODES);
        return Py_NewRef(column == Py_None ? Py_None : PyList_GET_ITEM(column, i));
    }
    }
}

/* The descriptor of one field of a view class. */
typedef struct {
    PyObject_HEAD
    int view, field, keep;   /* keep: the value built at the first read is held (mutable) */
    Py_ssize_t held;         /* offset of _held_<field>; of _held_solutions for `solution` */
} ColumnField;

static PyObject *field_get(ColumnField *f, PyObject *obj, PyObject *type) {
    if (obj == NULL) return Py_NewRef((PyObject *)f);
    PyObject **held = SLOT(obj, f->held);
    if (*held && f->field != N_SOLUTION) return Py_NewRef(*held);
    PyObject *src = *SLOT(obj, VIEW[f->view].src), *index = *SLOT(obj, VIEW[f->view].index);
    if (!src || Py_TYPE(src) != &RecordIterType || !index) {
        if (f->field == N_SOLUTION) return solution_of(NULL, 0, obj, Py_None);
        PyErr_Format(PyExc_AttributeError, "'%s' object has no attribute '%U' (not set, no columns)",
                     Py_TYPE(obj)->tp_name, NAME[f->field]);
        return NULL;
    }
    Py_ssize_t i = PyLong_AsSsize_t(index);
    if (i == -1 && PyErr_Occurred()) return NULL;
    RecordIter *it = (RecordIter *)src;
    if (i < 0 || i >= PyList_GET_SIZE(it->statuses)) {
        PyErr_SetString(PyExc_IndexError, "a record's index is past its columns");
        return NULL;
    }
    PyObject *value = column_value(f->field, it, i, obj, index, *held);
    if (value && f->keep) *held = Py_NewRef(value);
    return value;
}

static int field_set(ColumnField *f, PyObject *obj, PyObject *value) {
    if (f->field == N_SOLUTION) {
        PyErr_SetString(PyExc_AttributeError, "can't set attribute 'solution' (it is the first of 'solutions')");
        return -1;
    }
    Py_XINCREF(value);
    Py_XSETREF(*SLOT(obj, f->held), value);   /* deleting the value gives the column's back */
    return 0;
}

static PyTypeObject ColumnFieldType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "puzzlebench._native.ColumnField",
    .tp_basicsize = sizeof(ColumnField),
    .tp_dealloc = (destructor)PyObject_Free,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A field of a record view, read from the batch's columns when asked (native/records.c).",
    .tp_descr_get = (descrgetfunc)field_get,
    .tp_descr_set = (descrsetfunc)field_set,
};

static PyObject *iter_next(RecordIter *it) {
    if (it->next >= it->stop) return NULL;
    PyObject *index = PyLong_FromSsize_t(it->next++);
    if (!index) return NULL;
    PyObject *record = new_view(V_RECORD, (PyObject *)it, index);
    Py_DECREF(index);
    return record;
}

static PyTypeObject RecordIterType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "puzzlebench._native.ColumnRecords",
    .tp_basicsize = sizeof(RecordIter),
    .tp_dealloc = (destructor)iter_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The records of a batch's columns, one view at a time (native/records.c).",
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)iter_next,
};

static int fail_value(const char *what) {
    PyErr_Format(PyExc_ValueError, "column_records: %s", what);
    return -1;
}

static PyObject *column_records(PyObject *self, PyObject *args) {
    PyObject *kind, *solver, *limit, *statuses, *counts, *solve, *total, *stats, *raw_names, *raw, *sizes,
        *puzzles, *table_obj, *verified_obj;
    Py_ssize_t cells, start, stop;
    double parse, cpu;
    if (!VIEW[V_RECORD].type) {
        PyErr_SetString(PyExc_RuntimeError, "column_records: no view classes bound (bind_column_views)");
        return NULL;
    }
    RecordIter *it = PyObject_New(RecordIter, &RecordIterType);
    if (!it) return NULL;
    memset((char *)it + sizeof(PyObject), 0, sizeof(RecordIter) - sizeof(PyObject));
    if (!PyArg_ParseTuple(args, "OOOO!O!O!O!O!O!O!OnOy*ddOOnn", &kind, &solver, &limit, &PyList_Type, &statuses,
                          &PyList_Type, &counts, &PyList_Type, &solve, &PyList_Type, &total, &PyTuple_Type, &stats,
                          &PyTuple_Type, &raw_names, &PyList_Type, &raw, &sizes, &cells, &verified_obj,
                          &it->sol, &parse, &cpu, &puzzles, &table_obj, &start, &stop))
        goto fail;
    PyObject *objs[] = {kind, solver, limit, statuses, counts, solve, total, stats, raw_names, raw, sizes, puzzles};
    PyObject **refs[] = {&it->kind, &it->solver, &it->limit, &it->statuses, &it->counts, &it->solve, &it->total,
                         &it->stats, &it->raw_names, &it->raw, &it->sizes, &it->puzzles};
    for (size_t k = 0; k < sizeof objs / sizeof objs[0]; k++) *refs[k] = Py_NewRef(objs[k]);
    Py_ssize_t n = PyList_GET_SIZE(statuses);
    it->cells = cells; it->width = PyTuple_GET_SIZE(raw_names); it->parse = parse;
    it->next = start; it->stop = stop;
    it->from_text = table_obj != Py_None;
    if (it->from_text) {   /* a batch read from text: 256 bytes, value -> character */
        if (PyObject_GetBuffer(table_obj, &it->table, PyBUF_SIMPLE) < 0) goto fail;
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

/* The offset of a view class's object slot `name` (a __slots__ member), or -1 with an error. */
static Py_ssize_t slot_offset(PyTypeObject *type, const char *name) {
    PyObject *member = PyDict_GetItemString(type->tp_dict, name);
    if (!member || !PyObject_TypeCheck(member, &PyMemberDescr_Type)
        || ((PyMemberDescrObject *)member)->d_member->type != T_OBJECT_EX) {
        PyErr_Format(PyExc_TypeError, "bind_column_views: %s has no slot %s", type->tp_name, name);
        return -1;
    }
    return ((PyMemberDescrObject *)member)->d_member->offset;
}

/* Sets ColumnField k of view v on its class, reading its value held in slot `held_name`. */
static int bind_field(int v, int k, const char *held_name) {
    PyTypeObject *type = VIEW[v].type;
    Py_ssize_t held = slot_offset(type, held_name);
    if (held < 0) return -1;
    ColumnField *f = PyObject_New(ColumnField, &ColumnFieldType);
    if (!f) return -1;
    f->view = v; f->field = k; f->held = held;
    f->keep = k == N_SOLUTIONS || k == N_TIMES || k == N_STATS || k == N_PUZZLE || k == N_RAW;
    int rc = PyObject_SetAttr((PyObject *)type, NAME[k], (PyObject *)f);
    Py_DECREF(f);
    return rc;
}

static PyObject *bind_column_views(PyObject *self, PyObject *args) {
    PyTypeObject *types[N_VIEWS];
    if (!PyArg_ParseTuple(args, "O!O!O!", &PyType_Type, &types[V_RECORD], &PyType_Type, &types[V_TIMES],
                          &PyType_Type, &types[V_STATS]))
        return NULL;
    if (VIEW[V_RECORD].type) {
        PyErr_SetString(PyExc_RuntimeError, "bind_column_views: the view classes are bound once");
        return NULL;
    }
    char held[64];
    for (int v = 0; v < N_VIEWS; v++) {
        VIEW[v].type = (PyTypeObject *)Py_NewRef(types[v]);
        if ((VIEW[v].src = slot_offset(types[v], "_src")) < 0 || (VIEW[v].index = slot_offset(types[v], "_index")) < 0)
            goto fail;
        for (int k = FIRST[v]; k < FIRST[v + 1]; k++) {
            snprintf(held, sizeof held, "_held_%s", NAME_TEXT[k]);
            if (bind_field(v, k, held) < 0) goto fail;
        }
    }
    if (bind_field(V_RECORD, N_SOLUTION, "_held_solutions") < 0) goto fail;
    Py_RETURN_NONE;
fail:
    for (int v = 0; v < N_VIEWS; v++) Py_CLEAR(VIEW[v].type);
    return NULL;
}

static PyMethodDef records_methods[] = {
    {"column_records", column_records, METH_VARARGS,
     "column_records(kind, solver, limit, statuses: list, counts: list, solve: list, total: list, "
     "stats: (nodes, guesses, backtracks, conflicts, propagations) lists or None, raw_names: tuple, "
     "raw: flat list, sizes: list|dict, cells, verified: bytes|None, solutions: bytes, parse, cpu, puzzles, "
     "table: 256 bytes (a batch read from text) | None, start, stop) -> an iterator of record views"},
    {"bind_column_views", bind_column_views, METH_VARARGS,
     "bind_column_views(record_cls, times_cls, stats_cls): set the column fields on the view classes, once"},
    {NULL, NULL, 0, NULL},
};

/* VIEW_FIELDS: the fields each view reads, by the dataclass it stands for, so that a test holds
 * them equal to the dataclasses' fields in order (tests/engines/test_batch.py): a field renamed or
 * added on one side only fails it rather than reading a stray column. */
static int add_view_fields(PyObject *module) {
    PyObject *fields = PyDict_New();
    if (!fields) return -1;
    for (int v = 0; v < N_VIEWS; v++) {
        PyObject *names = PyTuple_New(FIRST[v + 1] - FIRST[v]);
        if (!names) { Py_DECREF(fields); return -1; }
        for (int k = FIRST[v]; k < FIRST[v + 1]; k++) PyTuple_SET_ITEM(names, k - FIRST[v], Py_NewRef(NAME[k]));
        if (PyDict_SetItemString(fields, VIEW_TEXT[v], names) < 0) { Py_DECREF(names); Py_DECREF(fields); return -1; }
        Py_DECREF(names);
    }
    if (PyModule_AddObject(module, "VIEW_FIELDS", fields) < 0) {
        Py_DECREF(fields);
        return -1;
    }
    return 0;
}

int pb_register_records(PyObject *module) {
    for (int k = 0; k < N_NAMES; k++)
        if (!(NAME[k] = PyUnicode_InternFromString(NAME_TEXT[k]))) return -1;
    if (!(ZERO = PyFloat_FromDouble(0.0))) return -1;
    for (int v = 0; v < 256; v++)
        if (!(SMALL[v] = PyLong_FromLong(v))) return -1;
    if (PyType_Ready(&RecordIterType) < 0 || PyType_Ready(&ColumnFieldType) < 0 || add_view_fields(module) < 0)
        return -1;
    return PyModule_AddFunctions(module, records_methods);
}
