/* Dancing Links: Knuth's Algorithm X (exact cover, primary and secondary items) and Algorithm C
 * (secondary items with colors), after his programs DLX1 and DLX2 (Knuth, TAOCP 7.2.2.1, 2019).
 *
 * Knuth's data layout (item headers, a separate len[] so that the MRV scan reads one compact
 * array, options stored one after another between spacer nodes) and Knuth's counters (nodes as
 * TAOCP 7.2.2-(4), updates, DLX2's cleansings), so that a matrix run here and by DLX1/DLX2
 * gives equal figures.  Branching: the leftmost active primary item of minimum length.
 *
 * Python entry points (registered by pb_register_dlx), both releasing the GIL while they search:
 *   dlx_solve(n_primary, n_secondary, items, colors, starts, limit, keep, time_limit)
 *   dlx_sudoku_batch(givens, box_rows, box_cols, limit, keep, time_limit)  (dlx_sudoku.c)
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engines.h"
#include "pb_common.h"
#include "dlx_sudoku.h"

/* Knuth's names (DLX1, DLX2): a node's up and down are his ULINK and DLINK; itm is his TOP,
 * the item of an option's node, 0 in an item's header and <= 0 in a spacer (here -(id + 1)
 * of the option before it); color 0 = none, -1 once purify has settled it.  An item's record
 * in the active lists (his LLINK, RLINK) is prev and next; nd are the nodes, cl the items. */
typedef struct { int up, down, itm, color; } dnode;
typedef struct { int prev, next; } ditem;

typedef struct {
    dnode *nd;
    ditem *cl;
    int *len;     /* len[i]: the length of item i's list (apart: the MRV scan stays compact) */
    int *choice;
    int n_items, n_primary, last_itm; /* last_itm = N + 1: nodes above it are option nodes */
    int n_nodes;                      /* nodes in use, spacers included */
    int cap_nodes, cap_items;
    int colored;
    /* the run */
    uint64_t nodes, updates, cleansings, count;
    long long limit;      /* <= 0: all */
    int keep;             /* solutions to record */
    int *kept;            /* keep * (n_primary + 1) option ids, -1 terminated */
    int kept_n;
    double deadline;      /* monotonic seconds, 0 = none */
    sig_atomic_t sigints; /* pb_sigints when the run began (a change: Ctrl-C, stop) */
    int timed_out;
} dlx_t;

/* ---- building ------------------------------------------------------------------------- */

static int dlx_reserve(dlx_t *d, int n_items, int n_nodes, int n_primary) {
    if (n_items + 2 > d->cap_items) {
        int cap = n_items + 2;
        ditem *cl = realloc(d->cl, sizeof(ditem) * (size_t)cap);
        if (cl) d->cl = cl;
        int *choice = realloc(d->choice, sizeof(int) * (size_t)cap);
        if (choice) d->choice = choice;
        int *len = realloc(d->len, sizeof(int) * (size_t)cap);
        if (len) d->len = len;
        if (!cl || !choice || !len) return -1;
        d->cap_items = cap;
    }
    if (n_nodes > d->cap_nodes) {
        dnode *nd = realloc(d->nd, sizeof(dnode) * (size_t)n_nodes);
        if (!nd) return -1;
        d->nd = nd; d->cap_nodes = n_nodes;
    }
    (void)n_primary;
    return 0;
}

static void dlx_free(dlx_t *d) {
    free(d->nd); free(d->cl); free(d->len); free(d->choice); free(d->kept);
    memset(d, 0, sizeof *d);
}

/* Empty item lists, the two active lists, and the first spacer. */
static void dlx_begin(dlx_t *d, int n_primary, int n_secondary) {
    int n = n_primary + n_secondary, i;
    dnode *nd = d->nd;
    ditem *cl = d->cl;
    d->n_items = n; d->n_primary = n_primary; d->last_itm = n + 1; d->colored = 0;
    for (i = 0; i <= n + 1; i++) { cl[i].prev = i - 1; cl[i].next = i + 1; }
    /* primary: 0 <-> 1..n_primary <-> 0 */
    cl[0].prev = n_primary; cl[n_primary].next = 0;
    if (n_primary == 0) cl[0].next = 0;
    /* secondary: n+1 <-> n_primary+1..n <-> n+1 */
    if (n_secondary) {
        cl[n + 1].next = n_primary + 1; cl[n_primary + 1].prev = n + 1;
        cl[n].next = n + 1; cl[n + 1].prev = n;
    } else {
        cl[n + 1].next = cl[n + 1].prev = n + 1;
    }
    for (i = 1; i <= n; i++) { nd[i].up = nd[i].down = i; nd[i].itm = 0; nd[i].color = 0; d->len[i] = 0; }
    nd[n + 1].itm = 0; nd[n + 1].color = 0; nd[n + 1].up = nd[n + 1].down = 0;
    d->n_nodes = n + 2; /* next free node */
}

/* Append one option; items are 1-based.  An option without a primary item is left out, as
 * DLX1/DLX2 do.  `id` is stored in the spacer that follows (as -(id+1)). */
static void dlx_add_option(dlx_t *d, const int *items, const int *colors, int k, int id) {
    dnode *nd = d->nd;
    int spacer = d->n_nodes - 1, j, has_primary = 0;
    for (j = 0; j < k; j++) if (items[j] <= d->n_primary) { has_primary = 1; break; }
    if (!has_primary || k == 0) return;
    for (j = 0; j < k; j++) {
        int x = d->n_nodes + j, it = items[j], bottom = nd[it].up;
        nd[x].itm = it;
        nd[x].color = colors ? colors[j] : 0;
        if (nd[x].color) d->colored = 1;
        nd[x].up = bottom; nd[x].down = it;
        nd[bottom].down = x; nd[it].up = x;
        d->len[it]++;
    }
    nd[spacer].down = d->n_nodes + k - 1;
    d->n_nodes += k;
    nd[d->n_nodes].itm = -(id + 1);
    nd[d->n_nodes].color = 0;
    nd[d->n_nodes].up = spacer + 1;
    nd[d->n_nodes].down = 0;
    d->n_nodes++;
}

/* ---- the dance (always inlined, so that the uncolored search loses the color tests) ---- */

#define INLINE static inline __attribute__((always_inline))

INLINE void cover(dlx_t *d, int c, const int colored) {
    dnode *nd = d->nd;
    int *len = d->len;
    ditem *cl = d->cl;
    int l = cl[c].prev, r = cl[c].next, rr, nn, uu, dd, cc;
    const int last = d->last_itm;
    uint64_t upd = 1;
    cl[l].next = r; cl[r].prev = l;
    for (rr = nd[c].down; rr >= last; rr = nd[rr].down) {
        for (nn = rr + 1; nn != rr;) {
            if (!colored || nd[nn].color >= 0) {
                uu = nd[nn].up; dd = nd[nn].down; cc = nd[nn].itm;
                if (cc <= 0) { nn = uu; continue; }
                nd[uu].down = dd; nd[dd].up = uu;
                upd++;
                len[cc]--;
            }
            nn++;
        }
    }
    d->updates += upd;
}

INLINE void uncover(dlx_t *d, int c, const int colored) {
    dnode *nd = d->nd;
    int *len = d->len;
    ditem *cl = d->cl;
    int l, r, rr, nn, uu, dd, cc;
    const int last = d->last_itm;
    /* Knuth: bottom to top is not needed, but we undo in the mirror order of cover. */
    for (rr = nd[c].up; rr >= last; rr = nd[rr].up) {
        for (nn = rr - 1; nn != rr;) {
            if (!colored || nd[nn].color >= 0) {
                uu = nd[nn].up; dd = nd[nn].down; cc = nd[nn].itm;
                if (cc <= 0) { nn = dd; continue; }
                nd[uu].down = nn; nd[dd].up = nn;
                len[cc]++;
            }
            nn--;
        }
    }
    l = cl[c].prev; r = cl[c].next;
    cl[l].next = c; cl[r].prev = c;
}

/* Algorithm C: keep only the options of item nd[p].itm that agree with p's color. */
static void purify(dlx_t *d, int p) {
    dnode *nd = d->nd;
    int *len = d->len;
    int c = nd[p].itm, x = nd[p].color, rr, nn, uu, dd, cc;
    const int last = d->last_itm;
    d->cleansings++;
    for (rr = nd[c].down; rr >= last; rr = nd[rr].down) {
        if (nd[rr].color != x) {
            for (nn = rr + 1; nn != rr;) {
                if (nd[nn].color >= 0) {
                    uu = nd[nn].up; dd = nd[nn].down; cc = nd[nn].itm;
                    if (cc <= 0) { nn = uu; continue; }
                    nd[uu].down = dd; nd[dd].up = uu;
                    d->updates++;
                    len[cc]--;
                }
                nn++;
            }
        } else {
            d->cleansings++;
            nd[rr].color = -1;
        }
    }
}

static void unpurify(dlx_t *d, int p) {
    dnode *nd = d->nd;
    int *len = d->len;
    int c = nd[p].itm, x = nd[p].color, rr, nn, uu, dd, cc;
    const int last = d->last_itm;
    for (rr = nd[c].up; rr >= last; rr = nd[rr].up) {
        if (nd[rr].color < 0) {
            nd[rr].color = x;
        } else {
            for (nn = rr - 1; nn != rr;) {
                if (nd[nn].color >= 0) {
                    uu = nd[nn].up; dd = nd[nn].down; cc = nd[nn].itm;
                    if (cc <= 0) { nn = dd; continue; }
                    nd[uu].down = nn; nd[dd].up = nn;
                    len[cc]++;
                }
                nn--;
            }
        }
    }
}

static int option_id(const dlx_t *d, int node) {
    while (d->nd[node].itm > 0) node++;
    return -d->nd[node].itm - 1;
}

static void record_solution(dlx_t *d, int depth) {
    if (d->kept_n < d->keep) {
        int *out = d->kept + (size_t)d->kept_n * (size_t)(d->n_primary + 1), k;
        for (k = 0; k < depth; k++) out[k] = option_id(d, d->choice[k]);
        out[depth] = -1;
        d->kept_n++;
    }
}

INLINE void search(dlx_t *d, const int colored) {
    dnode *nd = d->nd;
    ditem *cl = d->cl;
    const int *len = d->len;
    int *choice = d->choice;
    int level = 0, best = 0, cur, pp, cc, k, t;
    if (cl[0].next == 0) { /* nothing to cover: the empty choice is the one solution */
        d->nodes++; d->count++; record_solution(d, 0);
        return;
    }
forward:
    d->nodes++;
    if (PB_MUST_STOP(d->nodes, PB_CLOCK_EVERY, d->deadline, d->sigints)) {
        d->timed_out = 1;
        return;
    }
    t = INT_MAX;
    for (k = cl[0].next; t && k != 0; k = cl[k].next)
        if (len[k] < t) { best = k; t = len[k]; }
    cover(d, best, colored);
    cur = choice[level] = nd[best].down;
advance:
    if (cur == best) goto backup;
    for (pp = cur + 1; pp != cur;) {
        cc = nd[pp].itm;
        if (cc <= 0) { pp = nd[pp].up; continue; }
        if (!colored || nd[pp].color == 0) cover(d, cc, colored);
        else if (nd[pp].color > 0) purify(d, pp);
        pp++;
    }
    if (cl[0].next == 0) { /* a solution, which counts as a node */
        d->nodes++;
        d->count++;
        record_solution(d, level + 1);
        if (d->limit > 0 && d->count >= (uint64_t)d->limit) return;
        goto recover;
    }
    level++;
    goto forward;
backup:
    uncover(d, best, colored);
    if (level == 0) return;
    level--;
    cur = choice[level];
    best = nd[cur].itm;
recover:
    for (pp = cur - 1; pp != cur;) {
        cc = nd[pp].itm;
        if (cc <= 0) { pp = nd[pp].down; continue; }
        if (!colored || nd[pp].color == 0) uncover(d, cc, colored);
        else if (nd[pp].color > 0) unpurify(d, pp);
        pp--;
    }
    cur = choice[level] = nd[cur].down;
    goto advance;
}

static void search_plain(dlx_t *d) { search(d, 0); }
static void search_colored(dlx_t *d) { search(d, 1); }

static int dlx_prepare_run(dlx_t *d, long long limit, int keep, double time_limit) {
    d->nodes = d->updates = d->cleansings = d->count = 0;
    d->limit = limit; d->timed_out = 0; d->kept_n = 0;
    d->deadline = time_limit > 0 ? pb_now() + time_limit : 0;
    if (keep < 0) keep = 0;
    d->keep = keep;
    free(d->kept);
    d->kept = malloc(sizeof(int) * ((size_t)keep * (size_t)(d->n_primary + 1) + 1));
    return d->kept ? 0 : -1;
}

static void dlx_run(dlx_t *d) {
    if (d->colored) search_colored(d); else search_plain(d);
}

/* ---- Python: a general matrix ---------------------------------------------------------- */

static PyObject *kept_solutions(const dlx_t *d) {
    PyObject *list = PyList_New(d->kept_n);
    int s, k;
    if (!list) return NULL;
    for (s = 0; s < d->kept_n; s++) {
        const int *sol = d->kept + (size_t)s * (size_t)(d->n_primary + 1);
        int len = 0;
        while (sol[len] >= 0) len++;
        PyObject *tup = PyTuple_New(len);
        if (!tup) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, s, tup);   /* the list owns it now: freed with it on failure */
        for (k = 0; k < len; k++) {
            PyObject *option = PyLong_FromLong(sol[k]);
            if (!option) { Py_DECREF(list); return NULL; }
            PyTuple_SET_ITEM(tup, k, option);
        }
    }
    return list;
}

static int buffer_ints(Py_buffer *b, const char *what) {
    if (b->itemsize != (Py_ssize_t)sizeof(int) || b->len % (Py_ssize_t)sizeof(int)) {
        PyErr_Format(PyExc_TypeError, "%s: expected an array of C ints (array('i'))", what);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(dlx_solve_doc,
"dlx_solve(n_primary, n_secondary, items, colors, starts, limit, keep, time_limit)\n"
"-> (count, solutions, nodes, updates, cleansings, timed_out)\n\n"
"Exact cover by Dancing Links.  items/colors/starts are array('i'): option k holds\n"
"items[starts[k]:starts[k+1]] (0-based; primary items first), colors 0 = none.\n"
"limit <= 0: all solutions; keep: how many solutions (tuples of option indices) to return;\n"
"time_limit <= 0: none.  The GIL is released during the search; a Ctrl-C stops it with\n"
"KeyboardInterrupt.");

static PyObject *py_dlx_solve(PyObject *self, PyObject *args) {
    int n_primary, n_secondary, keep;
    long long limit;
    double time_limit;
    Py_buffer bi, bc, bs;
    dlx_t d;
    PyObject *result = NULL;
    (void)self;
    if (!PyArg_ParseTuple(args, "iiy*y*y*Lid", &n_primary, &n_secondary, &bi, &bc, &bs,
                          &limit, &keep, &time_limit))
        return NULL;
    memset(&d, 0, sizeof d);
    if (buffer_ints(&bi, "items") < 0 || buffer_ints(&bc, "colors") < 0 ||
        buffer_ints(&bs, "starts") < 0)
        goto out;
    {
        const int *items = bi.buf, *colors = bc.buf, *starts = bs.buf;
        Py_ssize_t n_entries = bi.len / (Py_ssize_t)sizeof(int);
        Py_ssize_t n_options = bs.len / (Py_ssize_t)sizeof(int) - 1;
        int n, *tmp = NULL, k, j, ok = 1;
        if (n_primary < 0 || n_secondary < 0 || n_options < 0 || bc.len != bi.len ||
            starts[0] != 0 || starts[n_options] != n_entries) {
            PyErr_SetString(PyExc_ValueError, "dlx_solve: inconsistent matrix arrays");
            goto out;
        }
        /* every node (headers, option nodes, spacers) is numbered by an int: sum in 64 bits */
        if ((long long)n_primary + n_secondary + 3 + n_entries + n_options > INT_MAX) {
            PyErr_Format(PyExc_ValueError, "dlx_solve: %d primary and %d secondary items with %zd "
                         "entries: more nodes than an int numbers", n_primary, n_secondary, n_entries);
            goto out;
        }
        n = n_primary + n_secondary;
        for (j = 0; j < n_entries && ok; j++)
            ok = items[j] >= 0 && items[j] < n && colors[j] >= 0;
        for (k = 0; k < n_options && ok; k++) ok = starts[k] <= starts[k + 1];
        if (!ok) {
            PyErr_SetString(PyExc_ValueError, "dlx_solve: an item index or color is out of range");
            goto out;
        }
        d.n_primary = n_primary; /* sizes the rows of kept solutions */
        if (dlx_reserve(&d, n, (int)(n + 3 + n_entries + n_options), n_primary) < 0 ||
            dlx_prepare_run(&d, limit, keep, time_limit) < 0 ||
            !(tmp = malloc(sizeof(int) * (size_t)(n + 1)))) {
            free(tmp);
            PyErr_NoMemory();
            goto out;
        }
        if (pb_interrupt_arm(&d.sigints) < 0) { free(tmp); goto out; }
        Py_BEGIN_ALLOW_THREADS
        dlx_begin(&d, n_primary, n_secondary);
        for (k = 0; k < n_options; k++) {
            int len = starts[k + 1] - starts[k];
            for (j = 0; j < len; j++) tmp[j] = items[starts[k] + j] + 1;
            dlx_add_option(&d, tmp, colors + starts[k], len, k);
        }
        dlx_run(&d);
        Py_END_ALLOW_THREADS
        free(tmp);
        if (pb_interrupted(d.timed_out, d.sigints)) goto out;
        PyObject *sols = kept_solutions(&d);
        if (sols)
            result = Py_BuildValue("KNKKKO", (unsigned long long)d.count, sols, (unsigned long long)d.nodes,
                                   (unsigned long long)d.updates, (unsigned long long)d.cleansings,
                                   d.timed_out ? Py_True : Py_False);
    }
out:
    PyBuffer_Release(&bi); PyBuffer_Release(&bc); PyBuffer_Release(&bs);
    dlx_free(&d);
    return result;
}

static PyMethodDef dlx_methods[] = {
    {"dlx_solve", py_dlx_solve, METH_VARARGS, dlx_solve_doc},
    {NULL, NULL, 0, NULL},
};

int pb_register_dlx(PyObject *module) {
    if (PyModule_AddFunctions(module, dlx_methods) < 0) return -1;
    return pb_register_dlx_sudoku(module);
}
