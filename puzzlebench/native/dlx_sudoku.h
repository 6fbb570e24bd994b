/* Dancing Links for Sudoku batches (dlx_sudoku.c), registered by pb_register_dlx (dlx.c). */
#ifndef PUZZLEBENCH_DLX_SUDOKU_H
#define PUZZLEBENCH_DLX_SUDOKU_H
#include <Python.h>
#include "pb_bitboard.h"

int pb_register_dlx_sudoku(PyObject *module); /* adds dlx_sudoku_batch */

/* The search of a Sudoku of box_rows x box_cols blocks writing a DRUP proof of what it finds
 * into `proof` (dlx_sudoku_proof.c): every solution (out->count, the first out->keep in
 * out->solutions), under out->deadline and out->sigints; the proof complete unless
 * out->timed_out.  -1 when memory fails. */
struct PBProof;
int dlx_sudoku_prove(const uint8_t *givens, int box_rows, int box_cols, BBSearch *out, struct PBProof *proof);

#endif
