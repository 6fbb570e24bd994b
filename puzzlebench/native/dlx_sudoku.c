/* Dancing Links for many Sudokus in one call: dlx_sudoku_batch (registered by dlx.c).
 *
 * The Sudoku exact-cover matrix has a fixed shape (N^3 options of 4 items), so its "links" can
 * be a bitset of the active options instead of pointers, as kudoku and Knuth's remark on sparse
 * fixed matrices suggest.  The search is still Algorithm X as DLX1 runs it, step for step, on
 * the matrix encoders/exact_cover.py builds (givens folded in, uncounted): option r is linked
 * exactly when its bit is set, so nodes and updates equal dlx_solve's on the same matrix (the
 * tests check it puzzle by puzzle).  Why a second Algorithm X beside dlx.c's: the bitset ran
 * the same batches 2.7x faster on top1465 and 2.9x on 16x16 (CPU, same run).
 *
 * dlx_sudoku_proof.c compiles the search once more with the proof hooks below (the batch
 * calls left out); here they are nothing: the solver's code is the same as without them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dlx_sudoku.h"
#include "engines.h"
#include "pb_common.h"
#include "pb_threads.h"

#ifndef DLX_SUDOKU_PROOF
#define PROOF_TRY(s, b, option) ((void)0)   /* option is tried: a decision when it is a choice */
#define PROOF_UNTRY(s, b) ((void)0)         /* ... and taken back */
#define PROOF_CLOSED(s, b) ((void)0)        /* the branch item's options are all refuted */
#define PROOF_SOLVED(s) ((void)0)           /* a solution is found */
#endif

typedef struct {
    int n, nn, n_items, n_options;  /* N values, N*N cells, 4N^2 items, N^3 options */
    uint16_t *opt_items; /* per option its 4 items (cell, row, column, block; < 4 * 64 * 64) */
    int *item_opts;      /* per item its N options, ascending */
    /* state */
    uint8_t *key;        /* per item: its list's length, + 128 while the item is covered */
    int open_items;      /* items not covered */
    /* run */
    uint64_t nodes, updates, count;
    long long limit;     /* <= 0: all */
    int keep, kept_n, timed_out;
    int items_left, options_left;  /* the folded matrix's size, after the givens */
    int *kept;           /* keep rows of nn + 1 option ids, -1 terminated */
    double deadline;     /* pb_now() value, 0 = none */
    sig_atomic_t sigints; /* pb_sigints when the batch began (a change: Ctrl-C, stop) */
} sudoku_dlx;

static int sd_setup(sudoku_dlx *s, int br, int bc, int keep) {
    int n = br * bc, nn = n * n, r, c, v;
    memset(s, 0, sizeof *s);
    s->n = n; s->nn = nn; s->n_items = 4 * nn; s->n_options = nn * n; s->keep = keep;
    s->opt_items = malloc(sizeof(uint16_t) * 4 * (size_t)s->n_options);
    s->item_opts = malloc(sizeof(int) * (size_t)s->n_items * (size_t)n);
    s->key = malloc((size_t)s->n_items);
    s->kept = malloc(sizeof(int) * ((size_t)keep * (size_t)(nn + 1) + 1));
    if (!s->opt_items || !s->item_opts || !s->key || !s->kept)
        return -1;
    int *fill = calloc((size_t)s->n_items, sizeof(int));
    if (!fill) return -1;
    for (r = 0; r < n; r++)
        for (c = 0; c < n; c++)
            for (v = 0; v < n; v++) {
                int opt = (r * n + c) * n + v, b = (r / br) * br + c / bc;
                int its[4] = {r * n + c, nn + r * n + v, 2 * nn + c * n + v, 3 * nn + b * n + v};
                for (int k = 0; k < 4; k++) {
                    s->opt_items[opt * 4 + k] = (uint16_t)its[k];
                    s->item_opts[its[k] * n + fill[its[k]]++] = opt; /* ascending: opt grows */
                }
            }
    free(fill);
    return 0;
}

static void sd_free(sudoku_dlx *s) {
    free(s->opt_items); free(s->item_opts); free(s->key); free(s->kept);
}

/* The leftmost active item of minimum length (DLX1's choice): the minimum key, then its first
 * occurrence; both loops run over bytes, which the compiler and memchr vectorise. */
static inline int sd_best(const uint8_t *key, int m) {
    uint8_t least = 255;
    for (int i = 0; i < m; i++) least = key[i] < least ? key[i] : least;
    return (int)((const uint8_t *)memchr(key, least, (size_t)m) - key);
}

/* ---- the options as a bitset ------------------------------------------------------------ *
 * Active options are the bits of A; an item's options are a few (word, mask) pairs.  Covering
 * item j clears A & its masks (the options that leave the lists now) and pushes what it
 * cleared; uncovering pops it back.  The options to try on a branch are the ones the branch
 * item's own cover cleared, in ascending order (= list order). */

/* The bitset kernel's state ("bx_": bitset exact cover).  Entries of the saved stack are
 * (word, bits) pairs: the options one cover cleared from one word of `active`. */
typedef struct {
    int n_words;            /* words of the option bitset: ceil(N^3 / 64) */
    int *pair_count;        /* per item: its options as (word, mask) pairs, how many */
    uint16_t *pair_word;    /* per item, up to N pairs: the word (< 64^3 / 64) ... */
    uint64_t *pair_mask;    /* ... and the item's options in it */
    uint64_t *active;       /* n_words words: the options in their items' lists */
    int *saved_word;        /* the saved stack: what each cover cleared, word ... */
    uint64_t *saved_bits;   /* ... and bits */
    int saved_top;          /* entries on the saved stack */
    int *cover_start;       /* per cover in progress: the saved stack's top when it began */
    int covers;             /* covers in progress */
    /* per search level: the branch item, the end of the entries its own cover saved (its
     * options to try), the entry being tried, that entry's bits still to try, and the option
     * being tried (the level's choice in a solution) */
    int *level_item, *level_end, *level_entry, *level_option;
    uint64_t *level_rest;
} bx_state;

static int bx_setup(bx_state *b, const sudoku_dlx *s) {
    int n = s->n, m = s->n_items;
    memset(b, 0, sizeof *b);
    b->n_words = (s->n_options + 63) / 64;
    b->pair_count = calloc((size_t)m, sizeof(int));
    b->pair_word = malloc(sizeof(uint16_t) * (size_t)m * (size_t)n);
    b->active = malloc(sizeof(uint64_t) * (size_t)b->n_words);
    b->pair_mask = malloc(sizeof(uint64_t) * (size_t)m * (size_t)n);
    b->saved_word = malloc(sizeof(int) * ((size_t)m * (size_t)n + 1));
    b->saved_bits = malloc(sizeof(uint64_t) * ((size_t)m * (size_t)n + 1));
    b->cover_start = malloc(sizeof(int) * ((size_t)m + 1));
    b->level_item = malloc(sizeof(int) * ((size_t)m + 1));
    b->level_end = malloc(sizeof(int) * ((size_t)m + 1));
    b->level_entry = malloc(sizeof(int) * ((size_t)m + 1));
    b->level_option = malloc(sizeof(int) * ((size_t)m + 1));
    b->level_rest = malloc(sizeof(uint64_t) * ((size_t)m + 1));
    if (!b->pair_count || !b->pair_word || !b->active || !b->pair_mask || !b->saved_word ||
        !b->saved_bits || !b->cover_start || !b->level_item || !b->level_end || !b->level_entry ||
        !b->level_option || !b->level_rest)
        return -1;
    for (int j = 0; j < m; j++)
        for (int k = 0; k < n; k++) {  /* item_opts is ascending: pairs come out ascending */
            int r = s->item_opts[(size_t)j * n + k], w = r >> 6, q = b->pair_count[j];
            if (q && b->pair_word[(size_t)j * n + q - 1] == w) {
                b->pair_mask[(size_t)j * n + q - 1] |= 1ULL << (r & 63);
            } else {
                b->pair_word[(size_t)j * n + q] = (uint16_t)w;
                b->pair_mask[(size_t)j * n + q] = 1ULL << (r & 63);
                b->pair_count[j] = q + 1;
            }
        }
    return 0;
}

static void bx_free(bx_state *b) {
    free(b->pair_count); free(b->pair_word); free(b->active); free(b->pair_mask);
    free(b->saved_word); free(b->saved_bits); free(b->cover_start); free(b->level_item); free(b->level_end); free(b->level_entry); free(b->level_option); free(b->level_rest);
}

static inline void bx_cover(sudoku_dlx *s, bx_state *b, int j, int count) {
    const int n = s->n, t = j / s->nn;
    const int o1 = (t + 1) & 3, o2 = (t + 2) & 3, o3 = (t + 3) & 3;
    const uint16_t *restrict items = s->opt_items;
    uint8_t *restrict key = s->key;
    const uint16_t *restrict words = b->pair_word + (size_t)j * n;
    const uint64_t *restrict masks = b->pair_mask + (size_t)j * n;
    uint64_t *restrict active = b->active, *restrict saved_bits = b->saved_bits;
    int *restrict saved_word = b->saved_word;
    int top = b->saved_top, pairs = b->pair_count[j];
    unsigned hidden = 0;
    key[j] += 128;
    s->open_items--;
    b->cover_start[b->covers++] = top;
    for (int k = 0; k < pairs; k++) {
        int w = words[k];
        uint64_t cleared = active[w] & masks[k];
        if (!cleared) continue;
        active[w] ^= cleared;
        saved_word[top] = w; saved_bits[top] = cleared; top++;
        hidden += (unsigned)pb_popcount64(cleared);
        do {
            const uint16_t *its = items + 4 * ((w << 6) + pb_ctz64(cleared));
            key[its[o1]]--; key[its[o2]]--; key[its[o3]]--;
            cleared &= cleared - 1;
        } while (cleared);
    }
    b->saved_top = top;
    if (count) s->updates += 1 + 3ULL * hidden;
}

static inline void bx_uncover(sudoku_dlx *s, bx_state *b, int j) {
    const int t = j / s->nn;
    const int o1 = (t + 1) & 3, o2 = (t + 2) & 3, o3 = (t + 3) & 3;
    const uint16_t *restrict items = s->opt_items;
    uint8_t *restrict key = s->key;
    uint64_t *restrict active = b->active;
    const uint64_t *restrict saved_bits = b->saved_bits;
    const int *restrict saved_word = b->saved_word;
    int start = b->cover_start[--b->covers];
    for (int i = b->saved_top - 1; i >= start; i--) {
        int w = saved_word[i];
        uint64_t back = saved_bits[i];
        active[w] |= back;
        do {
            const uint16_t *its = items + 4 * ((w << 6) + pb_ctz64(back));
            key[its[o1]]++; key[its[o2]]++; key[its[o3]]++;
            back &= back - 1;
        } while (back);
    }
    b->saved_top = start;
    key[j] -= 128;
    s->open_items++;
}

static int bx_load(sudoku_dlx *s, bx_state *b, const unsigned char *g) {
    const int n = s->n, nn = s->nn;
    for (int w = 0; w < b->n_words; w++) b->active[w] = ~0ULL;  /* every option active */
    if (s->n_options & 63) b->active[b->n_words - 1] = (1ULL << (s->n_options & 63)) - 1;
    memset(s->key, n, (size_t)s->n_items);
    s->open_items = s->n_items;
    b->saved_top = b->covers = 0;
    for (int cell = 0; cell < nn; cell++) {
        if (!g[cell]) continue;
        int opt = cell * n + g[cell] - 1;
        if (!((b->active[opt >> 6] >> (opt & 63)) & 1)) return -1;
        for (int q = 0; q < 4; q++) bx_cover(s, b, s->opt_items[4 * opt + q], 0);
    }
    s->items_left = s->open_items;
    s->options_left = 0;
    for (int w = 0; w < b->n_words; w++) s->options_left += pb_popcount64(b->active[w]);
    return 0;
}

/* The options the branch item's cover cleared, the search's choices at its level: the cover
 * last begun (the branch item's, while its options are tried) up to the saved stack's top. */
static inline int bx_choices(const bx_state *b) {
    int choices = 0;
    for (int i = b->cover_start[b->covers - 1]; i < b->saved_top; i++) choices += pb_popcount64(b->saved_bits[i]);
    return choices;
}

static void bx_record(sudoku_dlx *s, const bx_state *b, int depth) {
    if (s->kept_n < s->keep) {
        int *out = s->kept + (size_t)s->kept_n * (size_t)(s->nn + 1);
        for (int k = 0; k < depth; k++) out[k] = b->level_option[k];
        out[depth] = -1;
        s->kept_n++;
    }
}

static void bx_search(sudoku_dlx *s, bx_state *b) {
    const int m = s->n_items;
    const uint16_t *restrict items = s->opt_items;
    int level = 0, best = 0, entry, end, option, q, its[4];
    uint64_t rest;
    if (s->open_items == 0) { s->nodes++; s->count++; bx_record(s, b, 0); PROOF_SOLVED(s); return; }
forward:
    s->nodes++;
    if (PB_MUST_STOP(s->nodes, PB_CLOCK_EVERY, s->deadline, s->sigints)) {
        s->timed_out = 1;
        return;
    }
    best = sd_best(s->key, m);
    entry = b->saved_top;
    bx_cover(s, b, best, 1);
    end = b->saved_top;
    rest = entry < end ? b->saved_bits[entry] : 0;
advance:
    while (!rest) {
        if (++entry >= end) goto backup;
        rest = b->saved_bits[entry];
    }
    option = (b->saved_word[entry] << 6) + pb_ctz64(rest);
    rest &= rest - 1;
    b->level_item[level] = best; b->level_end[level] = end; b->level_entry[level] = entry;
    b->level_rest[level] = rest; b->level_option[level] = option;
    PROOF_TRY(s, b, option);
    for (q = 0; q < 4; q++) its[q] = items[4 * option + q];
    for (q = 0; q < 4; q++)
        if (its[q] != best) bx_cover(s, b, its[q], 1);
    if (s->open_items == 0) {
        s->nodes++;
        s->count++;
        bx_record(s, b, level + 1);
        PROOF_SOLVED(s);
        if (s->limit > 0 && s->count >= (uint64_t)s->limit) return;
        goto recover;
    }
    level++;
    goto forward;
backup:
    PROOF_CLOSED(s, b);
    bx_uncover(s, b, best);
    if (level == 0) return;
    level--;
    best = b->level_item[level]; end = b->level_end[level]; entry = b->level_entry[level];
    rest = b->level_rest[level]; option = b->level_option[level];
    for (q = 0; q < 4; q++) its[q] = items[4 * option + q];
recover:
    for (q = 3; q >= 0; q--)
        if (its[q] != best) bx_uncover(s, b, its[q]);
    PROOF_UNTRY(s, b);
    goto advance;
}

typedef struct { uint64_t count, nodes, updates; int timed_out, kept, items, options, bad; double seconds; } sd_row;

/* A worker's search: its own matrix state and bitset (the threads share nothing they write). */
typedef struct { sudoku_dlx s; bx_state bits; } sd_worker;

/* One batch call: its puzzles, a row of results and the first `keep` solutions of each
 * (zeros where fewer were found), and a search a thread. */
typedef struct {
    const unsigned char *givens;
    Py_ssize_t count;
    double time_limit;
    sd_row *rows;
    unsigned char *sols;
    sd_worker *workers;
    int threads;         /* workers set up */
    sig_atomic_t sigints; /* pb_sigints when the batch began */
} sd_call;

/* Puzzles begin..end-1 searched one after another by worker `worker` (a PbRange, the GIL
 * released by the caller): the first one a Ctrl-C left unanswered, or `end`. */
static ptrdiff_t sd_run_range(void *work, int worker, ptrdiff_t begin, ptrdiff_t end) {
    sd_call *call = work;
    sudoku_dlx *s = &call->workers[worker].s;
    bx_state *b = &call->workers[worker].bits;
    const int n = s->n, nn = s->nn, keep = s->keep;
    sd_row *rows = call->rows;
    for (Py_ssize_t p = begin; p < end; p++) {
        const unsigned char *gp = call->givens + (size_t)p * nn;
        double t0 = pb_now();
        s->nodes = s->updates = s->count = 0;
        s->timed_out = 0; s->kept_n = 0;
        s->deadline = call->time_limit > 0 ? t0 + call->time_limit : 0;
        if (bx_load(s, b, gp) < 0) { rows[p].bad = 1; continue; }
        bx_search(s, b);
        if (s->timed_out && pb_sigints != s->sigints) return p;   /* Ctrl-C */
        rows[p].seconds = pb_now() - t0;
        rows[p].count = s->count; rows[p].nodes = s->nodes; rows[p].updates = s->updates;
        rows[p].timed_out = s->timed_out; rows[p].kept = s->kept_n;
        rows[p].items = s->items_left; rows[p].options = s->options_left;
        for (int k = 0; k < keep; k++) {
            unsigned char *o = call->sols + ((size_t)p * keep + k) * nn;
            if (k >= s->kept_n) { memset(o, 0, (size_t)nn); continue; }
            const int *sol = s->kept + (size_t)k * (size_t)(nn + 1);
            memcpy(o, gp, (size_t)nn);
            for (int j = 0; sol[j] >= 0; j++) o[sol[j] / n] = (unsigned char)(sol[j] % n + 1);
        }
    }
    return end;
}

#ifndef DLX_SUDOKU_PROOF   /* the batch calls: the solver's only (the proof's runs one puzzle) */

PyDoc_STRVAR(dlx_sudoku_batch_doc,
"dlx_sudoku_batch(givens, box_rows, box_cols, limit, keep, time_limit, threads=1)\n"
"-> list of (count, solutions, nodes, updates, timed_out, items, options, seconds), one per puzzle\n\n"
"givens: bytes, N*N values (0 = empty) per puzzle, puzzles one after another.  Each puzzle is\n"
"searched as the exact-cover matrix the Python encoder builds, with DLX1's counters;\n"
"solutions are bytes of N*N values; items/options: the folded matrix's size.  time_limit\n"
"applies to each puzzle.  The GIL is released while it runs.  A Ctrl-C stops it: the rows of\n"
"the puzzles answered before the first it left unanswered, fewer than the puzzles given.\n"
"threads: native threads the batch is split over (a search state each).");

/* The batch's puzzles over the call's threads (pb_threads.h), into `sols`: the number
 * answered, those before the first a Ctrl-C left unanswered. */
static Py_ssize_t sd_run_batch(sd_call *call, unsigned char *sols) {
    call->sols = sols;
    return pb_split(call->count, call->threads, sd_run_range, call, &call->sigints);
}

static void sd_close(sd_call *call) {
    for (int t = 0; call->workers && t < call->threads; t++) {
        sd_free(&call->workers[t].s);
        bx_free(&call->workers[t].bits);
    }
    free(call->workers);
    free(call->rows);
}

/* The batch's arguments checked and a search set up for each thread it will use (`call`
 * zeroed here): the number of puzzles in `bg`, or -1 with an exception set. */
static Py_ssize_t sd_open(const Py_buffer *bg, int br, int bc, int keep, long long limit, double time_limit,
                          int threads, sd_call *call) {
    memset(call, 0, sizeof *call);
    if (!pb_block_shape_ok(br, bc, "dlx_sudoku_batch: ", "")) return -1;
    if (threads < 1 || threads > PB_MAX_THREADS) {
        PyErr_Format(PyExc_ValueError, "dlx_sudoku_batch: threads = %d: 1 to %d", threads, (int)PB_MAX_THREADS);
        return -1;
    }
    int n = br * bc, nn = n * n;
    if (bg->len % nn) {
        PyErr_Format(PyExc_ValueError, "dlx_sudoku_batch: %zd givens, not a whole number of %d-cell puzzles",
                     bg->len, nn);
        return -1;
    }
    const unsigned char *g = bg->buf;
    for (Py_ssize_t p = 0; p < bg->len; p++)
        if (g[p] > n) {
            PyErr_SetString(PyExc_ValueError, "dlx_sudoku_batch: a value is out of range");
            return -1;
        }
    Py_ssize_t count = bg->len / nn;
    int used = pb_threads_used(count, threads);
    call->givens = g;
    call->count = count;
    call->time_limit = time_limit;
    call->rows = calloc((size_t)count + 1, sizeof(sd_row));
    call->workers = calloc((size_t)used, sizeof(sd_worker));
    if (!call->rows || !call->workers) {
        PyErr_NoMemory();
        return -1;
    }
    for (; call->threads < used; call->threads++) {
        sd_worker *w = &call->workers[call->threads];
        int failed = sd_setup(&w->s, br, bc, keep) < 0 || bx_setup(&w->bits, &w->s) < 0;
        w->s.limit = limit;
        if (failed) {
            call->threads++;   /* freed by sd_close with the others */
            PyErr_NoMemory();
            return -1;
        }
    }
    if (pb_interrupt_arm(&call->sigints) < 0) return -1;   /* last: nothing but the search comes after it */
    for (int t = 0; t < used; t++) call->workers[t].s.sigints = call->sigints;
    return count;
}

static PyObject *py_dlx_sudoku_batch(PyObject *self, PyObject *args) {
    Py_buffer bg;
    int br, bc, keep;
    long long limit;
    double time_limit;
    PyObject *result = NULL;
    sd_call call;
    unsigned char *sols = NULL;
    (void)self;
    int threads = 1;
    if (!PyArg_ParseTuple(args, "y*iiLid|i", &bg, &br, &bc, &limit, &keep, &time_limit, &threads)) return NULL;
    if (keep < 0) keep = 0;
    Py_ssize_t count = sd_open(&bg, br, bc, keep, limit, time_limit, threads, &call), p, answered;
    const sd_row *rows = call.rows;
    if (count < 0) goto out;
    int nn = call.workers[0].s.nn;
    sols = malloc((size_t)count * (size_t)keep * (size_t)nn + 1);
    if (!sols) { PyErr_NoMemory(); goto out; }
    Py_BEGIN_ALLOW_THREADS
    answered = sd_run_batch(&call, sols);
    Py_END_ALLOW_THREADS
    result = PyList_New(answered);
    if (!result) goto out;
    for (p = 0; p < answered; p++) {
        PyObject *row;
        if (rows[p].bad) {
            row = Py_None;
            Py_INCREF(row);
        } else {
            PyObject *sl = PyList_New(rows[p].kept);
            if (!sl) { Py_CLEAR(result); goto out; }
            for (int k = 0; k < rows[p].kept; k++) {
                PyObject *grid = PyBytes_FromStringAndSize((const char *)sols + ((size_t)p * keep + k) * nn, nn);
                if (!grid) { Py_DECREF(sl); Py_CLEAR(result); goto out; }
                PyList_SET_ITEM(sl, k, grid);
            }
            row = Py_BuildValue("KNKKOiid", (unsigned long long)rows[p].count, sl,
                                (unsigned long long)rows[p].nodes, (unsigned long long)rows[p].updates,
                                rows[p].timed_out ? Py_True : Py_False, rows[p].items,
                                rows[p].options, rows[p].seconds);
            if (!row) { Py_CLEAR(result); goto out; }
        }
        PyList_SET_ITEM(result, p, row);
    }
out:
    PyBuffer_Release(&bg);
    sd_close(&call);
    free(sols);
    return result;
}

PyDoc_STRVAR(dlx_sudoku_batch_columns_doc,
"dlx_sudoku_batch_columns(givens, box_rows, box_cols, limit, time_limit, status, counts, nodes,\n"
"                         updates, items, options, solutions, threads=1) -> answered\n\n"
"dlx_sudoku_batch with keep 1, written into the caller's writable arrays, at least one entry a\n"
"puzzle each (a columnar result: no object a puzzle): status codes (results.STATUS_CODES;\n"
"givens that break a rule: the error code), counts, nodes and updates (uint64), the folded\n"
"matrix's items and options (int32), the first solution (N*N values, zeros where none).  The\n"
"number of puzzles answered: fewer than given after a Ctrl-C.");

static PyObject *py_dlx_sudoku_batch_columns(PyObject *self, PyObject *args) {
    enum { STATUS, COUNTS, NODES, UPDATES, ITEMS, OPTIONS, SOLUTIONS, OUTS };
    static const char *name[OUTS] = {"status", "counts", "nodes", "updates", "items", "options", "solutions"};
    Py_buffer bg, out[OUTS];
    int br, bc;
    long long limit;
    double time_limit;
    PyObject *result = NULL;
    sd_call call;
    (void)self;
    int threads = 1;
    if (!PyArg_ParseTuple(args, "y*iiLdw*w*w*w*w*w*w*|i", &bg, &br, &bc, &limit, &time_limit, &out[STATUS],
                          &out[COUNTS], &out[NODES], &out[UPDATES], &out[ITEMS], &out[OPTIONS],
                          &out[SOLUTIONS], &threads)) return NULL;
    Py_ssize_t count = sd_open(&bg, br, bc, 1, limit, time_limit, threads, &call), answered;
    if (count < 0) goto out;
    const Py_ssize_t width[OUTS] = {1, 8, 8, 8, 4, 4, call.workers[0].s.nn};
    for (int k = 0; k < OUTS; k++)
        if (out[k].len < count * width[k]) {
            PyErr_Format(PyExc_ValueError, "%s: %zd bytes, too small for %zd puzzles", name[k], out[k].len, count);
            goto out;
        }
    Py_BEGIN_ALLOW_THREADS
    answered = sd_run_batch(&call, out[SOLUTIONS].buf);
    uint8_t *status = out[STATUS].buf;
    uint64_t *counts = out[COUNTS].buf, *nodes = out[NODES].buf, *updates = out[UPDATES].buf;
    int32_t *items = out[ITEMS].buf, *options = out[OPTIONS].buf;
    for (Py_ssize_t p = 0; p < answered; p++) {
        const sd_row *r = call.rows + p;
        status[p] = r->bad ? PB_ERROR : pb_status_code(r->count, limit, r->timed_out);
        counts[p] = r->count; nodes[p] = r->nodes; updates[p] = r->updates;
        items[p] = r->items; options[p] = r->options;
    }
    Py_END_ALLOW_THREADS
    result = PyLong_FromSsize_t(answered);
out:
    PyBuffer_Release(&bg);
    for (int k = 0; k < OUTS; k++) PyBuffer_Release(&out[k]);
    sd_close(&call);
    return result;
}

static PyMethodDef dlx_sudoku_methods[] = {
    {"dlx_sudoku_batch", py_dlx_sudoku_batch, METH_VARARGS, dlx_sudoku_batch_doc},
    {"dlx_sudoku_batch_columns", py_dlx_sudoku_batch_columns, METH_VARARGS, dlx_sudoku_batch_columns_doc},
    {NULL, NULL, 0, NULL},
};

int pb_register_dlx_sudoku(PyObject *module) {
    return PyModule_AddFunctions(module, dlx_sudoku_methods);
}

#endif
