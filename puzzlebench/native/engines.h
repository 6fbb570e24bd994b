/* Registration functions of the engines compiled into puzzlebench._native. */
#ifndef PUZZLEBENCH_ENGINES_H
#define PUZZLEBENCH_ENGINES_H
#include <Python.h>
#include <signal.h>

int pb_register_bitboard(PyObject *module); /* bitboard.c: Sudoku, N-Queens, Skyscrapers */
int pb_register_dlx(PyObject *module);      /* dlx.c: Dancing Links, Algorithms X and C */
int pb_register_check(PyObject *module);    /* check.c: bulk checks of packed Sudoku (answers, givens) */
int pb_register_records(PyObject *module);  /* records.c: a batch's result records built in C */
int pb_register_interrupt(PyObject *module); /* interrupt.c: the count of SIGINTs, for Python */
int pb_register_drat(PyObject *module);      /* drat.c: the DRAT proof checker */
int pb_register_proofs(PyObject *module);    /* proofs.c: searches that write their proofs */

/* A buffer of integers as the units of an n x n grid, each checked (bitboard.c); NULL with
 * ValueError set otherwise, else PyMem_Malloc'd, *nunit_out units of n cells. */
int *read_units(PyObject *obj, int n, int *nunit_out);

/* Ctrl-C in a search run with the GIL released (interrupt.c).  pb_interrupt_arm, with the GIL
 * held just before a search: our SIGINT handler in place, *seen = pb_sigints (the search's
 * `sigints`); -1 with KeyboardInterrupt set when a Ctrl-C was already pending.  After the search,
 * with the GIL again: pb_interrupted(stopped, seen) is 1, KeyboardInterrupt (or the exception of
 * Python's handler) set, when a Ctrl-C stopped it (`stopped`: it ended before its end), else 0. */
int pb_interrupt_arm(sig_atomic_t *seen);
int pb_interrupted(int stopped, sig_atomic_t seen);

/* Whether a Sudoku block shape of rows x cols is one the native searches take (1 to 64 values),
 * each side bounded before the product, which could overflow an int; else 0 with a ValueError,
 * "<call>block shape RxC: 1 to 64 values<tail>". */
static inline int pb_block_shape_ok(int rows, int cols, const char *call, const char *tail) {
    if (rows < 1 || cols < 1 || rows > 64 || cols > 64 || rows * cols > 64) {
        PyErr_Format(PyExc_ValueError, "%sblock shape %dx%d: 1 to 64 values%s", call, rows, cols, tail);
        return 0;
    }
    return 1;
}

/* A search's status as the columnar result codes it (results.STATUS_CODES: the order of
 * results.Status, which a test holds to these), from its count, limit (<= 0: all) and clock,
 * as results.status_of decides it. */
enum { PB_UNIQUE, PB_MULTIPLE, PB_SAT, PB_UNSAT, PB_TIMEOUT, PB_MEMOUT, PB_ERROR };
static inline unsigned char pb_status_code(unsigned long long count, long long limit, int timed_out) {
    if (timed_out) return PB_TIMEOUT;
    if (count == 0) return PB_UNSAT;
    if (count >= 2) return PB_MULTIPLE;
    return limit == 1 ? PB_SAT : PB_UNIQUE;
}

#endif
