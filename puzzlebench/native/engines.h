/* Registration functions of the engines compiled into puzzlebench._native. */
#ifndef PUZZLEBENCH_ENGINES_H
#define PUZZLEBENCH_ENGINES_H
#include <Python.h>

int pb_register_bitboard(PyObject *module); /* bitboard.c: Sudoku, N-Queens, Skyscrapers */
int pb_register_dlx(PyObject *module);      /* dlx.c: Dancing Links, Algorithms X and C */
int pb_register_check(PyObject *module);    /* check.c: bulk checks of packed Sudoku (answers, givens) */
int pb_register_records(PyObject *module);  /* records.c: a batch's result records built in C */

#endif
