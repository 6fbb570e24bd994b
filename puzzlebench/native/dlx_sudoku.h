/* Dancing Links for Sudoku batches (dlx_sudoku.c), registered by pb_register_dlx (dlx.c). */
#ifndef PUZZLEBENCH_DLX_SUDOKU_H
#define PUZZLEBENCH_DLX_SUDOKU_H
#include <Python.h>

int pb_register_dlx_sudoku(PyObject *module); /* adds dlx_sudoku_batch */

#endif
