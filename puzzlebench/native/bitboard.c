/* Python bindings of the bitboard engines: Sudoku (9x9 band bitboards and any
 * block shape up to 64 values), grids of explicit units (Sudoku-X, jigsaw, Latin squares),
 * N-Queens and Skyscrapers, one puzzle per call, and the batch calls that solve many Sudoku of
 * one block shape (9x9 by the band bitboard, the others by the search over units) in C, split
 * over threads when asked (pb_threads.h).
 *
 * Every buffer from Python is checked here (sizes, value ranges) before any search sees it;
 * a malformed one raises ValueError.  The GIL is released while searching. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>
#include "engines.h"
#include "pb_bitboard.h"
#include "pb_threads.h"

static int get_limit(PyObject *obj, long long *limit) {
    if (obj == Py_None) { *limit = 0; return 0; }
    long long v = PyLong_AsLongLong(obj);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < 0) { PyErr_SetString(PyExc_ValueError, "limit must be >= 0 or None"); return -1; }
    *limit = v;
    return 0;
}

static double deadline_of(double seconds) { return seconds > 0 ? pb_now() + seconds : 0; }

/* (count, timed_out, solutions bytes, (nodes, guesses, backtracks, naked, hidden, locked, alldiff,
 * restarts, nogoods, nogoods_dropped, conflicts)) */
static PyObject *outcome(const BBSearch *s, Py_ssize_t cells) {
    return Py_BuildValue("(LNy#(KKKKKKKKKKK))", s->count, PyBool_FromLong(s->timed_out),
                         (const char *)s->solutions, (Py_ssize_t)s->kept * cells,
                         (unsigned long long)s->nodes, (unsigned long long)s->guesses,
                         (unsigned long long)s->backtracks, (unsigned long long)s->naked,
                         (unsigned long long)s->hidden, (unsigned long long)s->locked,
                         (unsigned long long)s->alldiff, (unsigned long long)s->restarts,
                         (unsigned long long)s->nogoods, (unsigned long long)s->nogoods_dropped,
                         (unsigned long long)s->conflicts);
}

static int init_search(BBSearch *s, PyObject *limit, int keep, double seconds, Py_ssize_t cells) {
    memset(s, 0, sizeof *s);
    if (get_limit(limit, &s->limit) < 0) return -1;
    if (keep < 0) { PyErr_SetString(PyExc_ValueError, "keep must be >= 0"); return -1; }
    s->keep = keep;
    s->solutions = PyMem_Malloc((size_t)(keep ? keep : 1) * (size_t)cells);
    if (!s->solutions) { PyErr_NoMemory(); return -1; }
    s->deadline = deadline_of(seconds);
    return pb_interrupt_arm(&s->sigints);   /* last: nothing but the search comes after it */
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
    int br, bc, keep, rules;
    Py_buffer g;
    PyObject *limit;
    double seconds;
    unsigned long long seed = 0, unit = 0, handover = 0, conflict_unit = 0;
    if (!PyArg_ParseTuple(args, "iiy*Oidi|KKKK", &br, &bc, &g, &limit, &keep, &seconds, &rules, &seed, &unit,
                          &handover, &conflict_unit))
        return NULL;
    PyObject *res = NULL;
    BBSearch s;
    s.solutions = NULL;
    if (!pb_block_shape_ok(br, bc, "", " supported")) goto done;
    int n = br * bc;
    if (check_values(&g, (Py_ssize_t)n * n, n, "givens") < 0) goto done;
    if (init_search(&s, limit, keep, seconds, (Py_ssize_t)n * n) < 0) goto done;
    s.seed = seed;
    s.restart_unit = unit;
    s.handover = handover;
    s.conflict_unit = conflict_unit;
    int rc = 0;
    Py_BEGIN_ALLOW_THREADS
    if (br == 3 && bc == 3) bb9_solve(g.buf, rules & BB_LOCKED, &s);
    else rc = bbn_solve(br, bc, g.buf, rules, &s);
    Py_END_ALLOW_THREADS
    if (rc < 0) { PyErr_NoMemory(); goto done; }   /* bbn_solve fails only to allocate its tables */
    if (pb_interrupted(s.timed_out, s.sigints)) goto done;
    res = outcome(&s, (Py_ssize_t)n * n);
done:
    PyMem_Free(s.solutions);
    PyBuffer_Release(&g);
    return res;
}

/* The most units a grid of n values may have: 8n (Sudoku-X has 3n + 2).  Building the
 * locked rule's pieces costs the sum over cells of (units holding the cell)^2, which this
 * keeps to milliseconds, outside the search's clock. */
enum { UNITS_PER_VALUE = 8 };

/* A buffer of integers (bytes, array('H'), array('i'), a memoryview ...) as C ints, every one
 * checked to be a cell of an n x n grid, each unit n distinct cells.  NULL with ValueError
 * set otherwise; the caller frees the result with PyMem_Free. */
int *read_units(PyObject *obj, int n, int *nunit_out) {
    Py_buffer b;
    if (PyObject_GetBuffer(obj, &b, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) return NULL;
    int *units = NULL;
    Py_ssize_t *unit_of = NULL;   /* the last unit each cell was seen in */
    const char *fmt = b.format ? b.format : "B";
    if (*fmt == '@' || *fmt == '=') fmt++;
    int is_signed = fmt[0] && strchr("bhilq", fmt[0]) != NULL;
    if (!fmt[0] || fmt[1] || !strchr("bBhHiIlLqQ", fmt[0]) ||
        (b.itemsize != 1 && b.itemsize != 2 && b.itemsize != 4 && b.itemsize != 8)) {
        PyErr_Format(PyExc_ValueError, "units: a buffer of integers is needed, not of format '%s'",
                     b.format ? b.format : "B");
        goto fail;
    }
    Py_ssize_t count = b.len / b.itemsize, ncell = (Py_ssize_t)n * n;
    if (count % n) {
        PyErr_Format(PyExc_ValueError, "units: %zd cell indices, not a whole number of units of %d cells",
                     count, n);
        goto fail;
    }
    if (count / n > (Py_ssize_t)UNITS_PER_VALUE * n) {
        PyErr_Format(PyExc_ValueError, "units: %zd units; at most %d (8 per value) supported",
                     count / n, UNITS_PER_VALUE * n);
        goto fail;
    }
    units = PyMem_Malloc(sizeof(int) * (size_t)(count ? count : 1));
    unit_of = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)ncell);
    if (!units || !unit_of) { PyErr_NoMemory(); goto fail; }
    for (Py_ssize_t c = 0; c < ncell; c++) unit_of[c] = -1;
    const char *p = b.buf;
    for (Py_ssize_t k = 0; k < count; k++, p += b.itemsize) {
        long long v;
        switch (b.itemsize) {
        case 1: v = is_signed ? (long long)*(const int8_t *)p : (long long)*(const uint8_t *)p; break;
        case 2: v = is_signed ? (long long)*(const int16_t *)p : (long long)*(const uint16_t *)p; break;
        case 4: v = is_signed ? (long long)*(const int32_t *)p : (long long)*(const uint32_t *)p; break;
        default: {
            uint64_t w;
            memcpy(&w, p, 8);
            if (!is_signed && w > (uint64_t)ncell) {
                PyErr_Format(PyExc_ValueError, "units: cell %llu in unit %zd is outside 0..%zd",
                             (unsigned long long)w, k / n, ncell - 1);
                goto fail;
            }
            v = (long long)w;
        }
        }
        Py_ssize_t unit = k / n;
        if (v < 0 || v >= ncell) {
            PyErr_Format(PyExc_ValueError, "units: cell %lld in unit %zd is outside 0..%zd", v, unit, ncell - 1);
            goto fail;
        }
        if (unit_of[v] == unit) {
            PyErr_Format(PyExc_ValueError, "units: unit %zd holds cell %lld twice", unit, v);
            goto fail;
        }
        unit_of[v] = unit;
        units[k] = (int)v;
    }
    PyMem_Free(unit_of);
    PyBuffer_Release(&b);
    *nunit_out = (int)(count / n);
    return units;
fail:
    PyMem_Free(units);
    PyMem_Free(unit_of);
    PyBuffer_Release(&b);
    return NULL;
}

static PyObject *units_solve(PyObject *self, PyObject *args) {
    int n, keep, rules;
    PyObject *units_obj, *limit;
    Py_buffer g;
    double seconds;
    unsigned long long seed = 0, unit = 0, handover = 0, conflict_unit = 0;
    if (!PyArg_ParseTuple(args, "iOy*Oidi|KKKK", &n, &units_obj, &g, &limit, &keep, &seconds, &rules, &seed, &unit,
                          &handover, &conflict_unit))
        return NULL;
    PyObject *res = NULL;
    BBSearch s;
    s.solutions = NULL;
    int *units = NULL, nunit = 0;
    if (n < 1 || n > 64) { PyErr_Format(PyExc_ValueError, "n = %d: 1 to 64 values supported", n); goto done; }
    if (!(units = read_units(units_obj, n, &nunit))) goto done;
    if (check_values(&g, (Py_ssize_t)n * n, n, "givens") < 0) goto done;
    if (init_search(&s, limit, keep, seconds, (Py_ssize_t)n * n) < 0) goto done;
    s.seed = seed;
    s.restart_unit = unit;
    s.handover = handover;
    s.conflict_unit = conflict_unit;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = bbu_solve(n, nunit, units, g.buf, rules, &s);
    Py_END_ALLOW_THREADS
    if (rc < 0) { PyErr_NoMemory(); goto done; }   /* bbu_solve fails only to allocate its tables */
    if (pb_interrupted(s.timed_out, s.sigints)) goto done;
    res = outcome(&s, (Py_ssize_t)n * n);
done:
    PyMem_Free(units);
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
    if (pb_interrupted(s.timed_out, s.sigints)) goto done;
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
    if (pb_interrupted(s.timed_out, s.sigints)) goto done;
    res = outcome(&s, (Py_ssize_t)n * n);
done:
    PyMem_Free(s.solutions);
    for (int i = 0; i < 5; i++) PyBuffer_Release(&b[i]);
    return res;
}

/* ---- the 9x9 batch ------------------------------------------------------------------- */

/* Many 9x9 puzzles in one call, the GIL released: the givens come as the model packs them
 * (models/sudoku_batch.py, SudokuBatch: 81 values 0..9 a puzzle, already validated), never as
 * text to parse again.  Each puzzle keeps its first solution.  A Ctrl-C stops the batch:
 * `answered` puzzles, those before the first it left unanswered (on any thread). */
enum { STATS_PER = 6 };

typedef struct {
    Py_ssize_t count;
    const uint8_t *givens;   /* count * 81 values 0..9 */
    uint8_t *timed_out;      /* or NULL: the columnar call codes the status instead */
    uint8_t *status;         /* or NULL: pb_status_code of each puzzle (the columnar call) */
    uint64_t *counts, *stats;
    double *seconds;
    uint8_t *solutions;      /* count * 81 values 1..9 (0 where none was found) */
    sig_atomic_t sigints;    /* pb_sigints when the batch began */
    long long limit;
    double time_limit;       /* per puzzle, seconds; 0 = none */
    int locked, threads;
    Py_ssize_t answered;
} Batch;

/* A batch puzzle's search, cleared: up to `limit` solutions, the first kept in `out`, on its own
 * clock from `t0` (no time limit where `time_limit` is 0), stopped by a Ctrl-C since `sigints`. */
static inline void batch_search(BBSearch *s, long long limit, uint8_t *out, double time_limit, double t0,
                                sig_atomic_t sigints) {
    memset(s, 0, sizeof *s);
    s->limit = limit;
    s->keep = 1;
    s->solutions = out;
    s->deadline = time_limit > 0 ? t0 + time_limit : 0;
    s->sigints = sigints;
}

/* Puzzles begin..end-1 of the batch, each on its own clock (a PbRange: any thread may run
 * any range, the kernel's tables being read-only): the first one a Ctrl-C left unanswered,
 * or `end`. */
static ptrdiff_t solve_range(void *work, int worker, ptrdiff_t begin, ptrdiff_t end) {
    Batch *bt = work;
    (void)worker;
    for (Py_ssize_t i = begin; i < end; i++) {
        uint8_t *out = bt->solutions + i * 81;
        double t0 = pb_now();
        BBSearch s;
        batch_search(&s, bt->limit, out, bt->time_limit, t0, bt->sigints);
        bb9_solve(bt->givens + i * 81, bt->locked, &s);
        if (s.timed_out && pb_sigints != s.sigints) return i;   /* Ctrl-C */
        bt->seconds[i] = pb_now() - t0;
        if (!s.kept) memset(out, 0, 81);
        bt->counts[i] = (uint64_t)s.count;
        if (bt->timed_out) bt->timed_out[i] = (uint8_t)s.timed_out;
        if (bt->status) bt->status[i] = pb_status_code((unsigned long long)s.count, bt->limit, s.timed_out);
        uint64_t *st = bt->stats + i * STATS_PER;
        st[0] = s.nodes; st[1] = s.guesses; st[2] = s.backtracks;
        st[3] = s.naked; st[4] = s.hidden; st[5] = s.locked;
    }
    return end;
}

/* The whole batch over bt->threads threads (pb_threads.h): bt->answered, the puzzles answered
 * before the first a Ctrl-C left unanswered. */
static void solve_batch(Batch *bt) {
    bt->answered = pb_split(bt->count, bt->threads, solve_range, bt, &bt->sigints);
}

/* A batch call's threads: 1 to PB_MAX_THREADS (the API resolves 0, every core, before the
 * call); -1 with ValueError set when not. */
static int batch_threads(int threads) {
    if (threads >= 1 && threads <= PB_MAX_THREADS) return 0;
    PyErr_Format(PyExc_ValueError, "threads = %d: 1 to %d", threads, (int)PB_MAX_THREADS);
    return -1;
}

/* The batch's givens taken into `bt`: a whole number of 81-cell puzzles, every value 0..9;
 * -1 with ValueError set when not. */
static int batch_givens(const Py_buffer *givens, Batch *bt) {
    if (givens->len % 81) {
        PyErr_Format(PyExc_ValueError, "givens: %zd values, not a whole number of 81-cell puzzles", givens->len);
        return -1;
    }
    bt->count = givens->len / 81;
    bt->givens = givens->buf;
    for (Py_ssize_t k = 0; k < givens->len; k++)
        if (bt->givens[k] > 9) {
            PyErr_Format(PyExc_ValueError, "givens: value %d at cell %zd of puzzle %zd is outside 0..9",
                         bt->givens[k], k % 81, k / 81);
            return -1;
        }
    return 0;
}

static PyObject *sudoku9_batch(PyObject *self, PyObject *args) {
    Py_buffer givens;
    PyObject *limit_obj;
    Batch bt;
    memset(&bt, 0, sizeof bt);
    bt.threads = 1;
    if (!PyArg_ParseTuple(args, "y*Odp|i", &givens, &limit_obj, &bt.time_limit, &bt.locked, &bt.threads))
        return NULL;
    PyObject *res = NULL;
    if (get_limit(limit_obj, &bt.limit) < 0 || batch_threads(bt.threads) < 0) goto done;
    if (batch_givens(&givens, &bt) < 0) goto done;
    size_t n = (size_t)(bt.count ? bt.count : 1);
    bt.timed_out = PyMem_Calloc(n, 1);
    bt.counts = PyMem_Calloc(n, sizeof(uint64_t));
    bt.stats = PyMem_Calloc(n * STATS_PER, sizeof(uint64_t));
    bt.seconds = PyMem_Calloc(n, sizeof(double));
    bt.solutions = PyMem_Malloc(n * 81);
    if (!bt.timed_out || !bt.counts || !bt.stats || !bt.seconds || !bt.solutions) {
        PyErr_NoMemory();
        goto done;
    }
    if (pb_interrupt_arm(&bt.sigints) < 0) goto done;
    Py_BEGIN_ALLOW_THREADS
    solve_batch(&bt);
    Py_END_ALLOW_THREADS
    Py_ssize_t c = bt.answered;
    res = Py_BuildValue("(y#y#y#y#y#)", (char *)bt.timed_out, c,
                        (char *)bt.counts, c * (Py_ssize_t)sizeof(uint64_t),
                        (char *)bt.stats, c * STATS_PER * (Py_ssize_t)sizeof(uint64_t),
                        (char *)bt.seconds, c * (Py_ssize_t)sizeof(double), (char *)bt.solutions, c * 81);
done:
    PyBuffer_Release(&givens);
    PyMem_Free(bt.timed_out); PyMem_Free(bt.counts); PyMem_Free(bt.stats);
    PyMem_Free(bt.seconds); PyMem_Free(bt.solutions);
    return res;
}

/* -1 with a ValueError naming the first of the `n` output buffers too small for `count` puzzles
 * of `width[k]` bytes each (a columnar batch's arrays), else 0. */
static int outputs_too_small(const Py_buffer *out, const char *const *name, const Py_ssize_t *width, int n,
                             Py_ssize_t count) {
    for (int k = 0; k < n; k++)
        if (out[k].len < count * width[k]) {
            PyErr_Format(PyExc_ValueError, "%s: %zd bytes, too small for %zd puzzles", name[k], out[k].len, count);
            return -1;
        }
    return 0;
}

/* The 9x9 batch written into the caller's arrays (a columnar result: no object a puzzle), the
 * status codes in the same pass.  The arrays, writable buffers of at least n puzzles: status
 * (a byte each), counts (uint64), stats (STATS_PER uint64 each), seconds (double), solutions
 * (81 bytes each).  Returns the number of puzzles answered (fewer after a Ctrl-C). */
static PyObject *sudoku9_batch_columns(PyObject *self, PyObject *args) {
    enum { STATUS, COUNTS, STATS, SECONDS, SOLUTIONS, OUTS };
    static const Py_ssize_t width[OUTS] = {1, sizeof(uint64_t), STATS_PER * sizeof(uint64_t), sizeof(double), 81};
    static const char *name[OUTS] = {"status", "counts", "stats", "seconds", "solutions"};
    Py_buffer givens, out[OUTS];
    PyObject *limit_obj, *res = NULL;
    Batch bt;
    memset(&bt, 0, sizeof bt);
    bt.threads = 1;
    if (!PyArg_ParseTuple(args, "y*Odpw*w*w*w*w*|i", &givens, &limit_obj, &bt.time_limit, &bt.locked, &out[STATUS],
                          &out[COUNTS], &out[STATS], &out[SECONDS], &out[SOLUTIONS], &bt.threads)) return NULL;
    if (get_limit(limit_obj, &bt.limit) < 0 || batch_threads(bt.threads) < 0 || batch_givens(&givens, &bt) < 0)
        goto done;
    if (outputs_too_small(out, name, width, OUTS, bt.count) < 0) goto done;
    bt.status = out[STATUS].buf;
    bt.counts = out[COUNTS].buf;
    bt.stats = out[STATS].buf;
    bt.seconds = out[SECONDS].buf;
    bt.solutions = out[SOLUTIONS].buf;
    if (pb_interrupt_arm(&bt.sigints) < 0) goto done;
    Py_BEGIN_ALLOW_THREADS
    solve_batch(&bt);
    Py_END_ALLOW_THREADS
    res = PyLong_FromSsize_t(bt.answered);
done:
    PyBuffer_Release(&givens);
    for (int k = 0; k < OUTS; k++) PyBuffer_Release(&out[k]);
    return res;
}

/* ---- Sudoku of any block shape, in a batch ------------------------------------------ */

/* Many Sudoku of one block shape in one call, each searched by bbn_solve as sudoku_solve
 * searches it alone (the same rules and seed, so the same answer and counters), written into
 * the caller's arrays and split over threads as the 9x9 batch is. */
enum { COUNTERS = 11 };   /* nodes, guesses, backtracks, naked, hidden, locked, alldiff, restarts,
                           * nogoods, nogoods_dropped, conflicts: sudoku_solve's counters */

typedef struct {
    int br, bc, rules;
    Py_ssize_t count, cells;
    const uint8_t *givens;
    uint8_t *status;
    uint64_t *counts, *counters;
    double *seconds;
    uint8_t *solutions;
    long long limit;
    double time_limit;
    unsigned long long seed, restart_unit, handover, conflict_unit;
    sig_atomic_t sigints;
    int threads, out_of_memory;   /* out_of_memory: a search could not allocate its tables (atomic) */
} ShapeBatch;

static ptrdiff_t solve_shape_range(void *work, int worker, ptrdiff_t begin, ptrdiff_t end) {
    ShapeBatch *bt = work;
    (void)worker;
    for (Py_ssize_t i = begin; i < end; i++) {
        uint8_t *out = bt->solutions + i * bt->cells;
        double t0 = pb_now();
        BBSearch s;
        batch_search(&s, bt->limit, out, bt->time_limit, t0, bt->sigints);
        s.seed = bt->seed;
        s.restart_unit = bt->restart_unit;
        s.handover = bt->handover;
        s.conflict_unit = bt->conflict_unit;
        if (bbn_solve(bt->br, bt->bc, bt->givens + i * bt->cells, bt->rules, &s) < 0) {
            __atomic_store_n(&bt->out_of_memory, 1, __ATOMIC_RELAXED);
            return i;
        }
        if (s.timed_out && pb_sigints != s.sigints) return i;   /* Ctrl-C */
        bt->seconds[i] = pb_now() - t0;
        if (!s.kept) memset(out, 0, (size_t)bt->cells);
        bt->counts[i] = (uint64_t)s.count;
        bt->status[i] = pb_status_code((unsigned long long)s.count, bt->limit, s.timed_out);
        uint64_t *c = bt->counters + i * COUNTERS;
        c[0] = s.nodes; c[1] = s.guesses; c[2] = s.backtracks; c[3] = s.naked; c[4] = s.hidden;
        c[5] = s.locked; c[6] = s.alldiff; c[7] = s.restarts; c[8] = s.nogoods; c[9] = s.nogoods_dropped;
        c[10] = s.conflicts;
    }
    return end;
}

/* sudoku_batch_columns(box_rows, box_cols, givens, limit|None, seconds, rules, seed, restart_unit,
 * handover, conflict_unit, status, counts, counters, seconds_out, solutions, threads=1) -> answered */
static PyObject *sudoku_batch_columns(PyObject *self, PyObject *args) {
    enum { STATUS, COUNTS, STATS, SECONDS, SOLUTIONS, OUTS };
    static const char *name[OUTS] = {"status", "counts", "counters", "seconds", "solutions"};
    Py_buffer givens, out[OUTS];
    PyObject *limit_obj, *res = NULL;
    ShapeBatch bt;
    memset(&bt, 0, sizeof bt);
    bt.threads = 1;
    if (!PyArg_ParseTuple(args, "iiy*OdiKKKKw*w*w*w*w*|i", &bt.br, &bt.bc, &givens, &limit_obj, &bt.time_limit,
                          &bt.rules, &bt.seed, &bt.restart_unit, &bt.handover, &bt.conflict_unit, &out[STATUS],
                          &out[COUNTS], &out[STATS], &out[SECONDS], &out[SOLUTIONS], &bt.threads)) return NULL;
    if (get_limit(limit_obj, &bt.limit) < 0 || batch_threads(bt.threads) < 0) goto done;
    if (!pb_block_shape_ok(bt.br, bt.bc, "", " supported")) goto done;
    int n = bt.br * bt.bc;
    bt.cells = (Py_ssize_t)n * n;
    if (givens.len % bt.cells) {
        PyErr_Format(PyExc_ValueError, "givens: %zd values, not a whole number of %zd-cell puzzles", givens.len,
                     bt.cells);
        goto done;
    }
    bt.count = givens.len / bt.cells;
    if (check_values(&givens, givens.len, n, "givens") < 0) goto done;
    bt.givens = givens.buf;
    const Py_ssize_t width[OUTS] = {1, sizeof(uint64_t), COUNTERS * sizeof(uint64_t), sizeof(double), bt.cells};
    if (outputs_too_small(out, name, width, OUTS, bt.count) < 0) goto done;
    bt.status = out[STATUS].buf;
    bt.counts = out[COUNTS].buf;
    bt.counters = out[STATS].buf;
    bt.seconds = out[SECONDS].buf;
    bt.solutions = out[SOLUTIONS].buf;
    if (pb_interrupt_arm(&bt.sigints) < 0) goto done;
    Py_ssize_t answered;
    Py_BEGIN_ALLOW_THREADS
    answered = pb_split(bt.count, bt.threads, solve_shape_range, &bt, &bt.sigints);
    Py_END_ALLOW_THREADS
    if (bt.out_of_memory) { PyErr_NoMemory(); goto done; }   /* bbn_solve fails only to allocate its tables */
    res = PyLong_FromSsize_t(answered);
done:
    PyBuffer_Release(&givens);
    for (int k = 0; k < OUTS; k++) PyBuffer_Release(&out[k]);
    return res;
}

/* The copies of the 9x9 kernel (one per instruction set, sudoku9_isa.c): which one runs, and
 * a switch to another, so that tests run every copy this processor has. */
static PyObject *sudoku9_kernel(PyObject *self, PyObject *args) {
    const char *name = NULL;
    if (!PyArg_ParseTuple(args, "|z", &name)) return NULL;
    if (name && bb9_use_kernel(name) < 0) {
        PyErr_Format(PyExc_ValueError, "9x9 kernel %R does not run here (see sudoku9_kernels())",
                     PyTuple_GET_ITEM(args, 0));
        return NULL;
    }
    return PyUnicode_FromString(bb9_kernel());
}

static PyObject *sudoku9_kernels(PyObject *self, PyObject *noargs) {
    const char *names[BB9_KERNELS_MAX];
    int n = bb9_kernels(names);
    PyObject *out = PyTuple_New(n);
    for (int k = 0; out && k < n; k++) {
        PyObject *name = PyUnicode_FromString(names[k]);
        if (!name) { Py_CLEAR(out); break; }
        PyTuple_SET_ITEM(out, k, name);
    }
    return out;
}

static PyMethodDef bitboard_methods[] = {
    {"sudoku9_kernel", sudoku9_kernel, METH_VARARGS,
     "sudoku9_kernel(name=None) -> the name of the 9x9 kernel's copy in use (one per instruction "
     "set: 'x86-64-v2', 'baseline'), after switching to `name` when given (ValueError when no copy "
     "of that name runs on this processor)"},
    {"sudoku9_kernels", sudoku9_kernels, METH_NOARGS,
     "sudoku9_kernels() -> the names of the 9x9 kernel's copies this processor runs, the one "
     "chosen by default first"},
    {"sudoku_solve", sudoku_solve, METH_VARARGS,
     "sudoku_solve(box_rows, box_cols, givens: bytes, limit|None, keep, seconds, rules: 1 locked | "
     "2 alldifferent | 4 dom/wdeg, the last two from 16 values up | 8 random tie-breaks | 16 Luby "
     "restarts | 32 geometric restarts | 64 nogoods recorded at restarts | 128 clause learning (not 9x9), "
     "seed=0, restart_unit=0: 100, handover=0: never, conflict_unit=0: 1024) -> (count, timed_out, solutions: bytes, (nodes, guesses, "
     "backtracks, naked, "
     "hidden, locked, alldiff, restarts, nogoods, nogoods_dropped, conflicts))"},
    {"sudoku9_batch", sudoku9_batch, METH_VARARGS,
     "sudoku9_batch(givens: 81 values 0..9 a puzzle, limit|None, seconds, locked, threads=1) -> (timed_out: a "
     "byte each, counts<Q>, stats<6Q>, seconds<d>, solutions: 81 values each), for the puzzles "
     "answered: fewer than given when a Ctrl-C stopped the batch (those before the first it left "
     "unanswered); threads: native threads the batch is split over"},
    {"sudoku9_batch_columns", sudoku9_batch_columns, METH_VARARGS,
     "sudoku9_batch_columns(givens, limit|None, seconds, locked, status, counts, stats, seconds_out, "
     "solutions, threads=1) -> answered: sudoku9_batch written into the caller's writable arrays (status codes: "
     "results.STATUS_CODES; counts<Q>, stats<6Q>, seconds<d>, 81 values each), fewer after a Ctrl-C"},
    {"sudoku_batch_columns", sudoku_batch_columns, METH_VARARGS,
     "sudoku_batch_columns(box_rows, box_cols, givens: n*n values 0..n a puzzle, limit|None, seconds, rules, seed, "
     "restart_unit, handover, conflict_unit, status, counts, counters, seconds_out, solutions, threads=1) -> "
     "answered: each puzzle as sudoku_solve searches it, written into the caller's writable arrays (status "
     "codes, counts<Q>, its 11 counters<11Q>, seconds<d>, the first solution: n*n values), split over `threads` "
     "native threads; fewer answered after a Ctrl-C (those before the first it left unanswered)"},
    {"units_solve", units_solve, METH_VARARGS,
     "units_solve(n, units: a buffer of integers, each n of them one unit's cells in 0..n*n-1, "
     "givens: bytes, limit|None, keep, seconds, rules, seed=0, restart_unit=0, handover=0, conflict_unit=0) -> as sudoku_solve"},
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
