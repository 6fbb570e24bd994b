/* Bitboard engines (issue 3): not written yet; registers nothing. */
#include "engines.h"
int pb_register_bitboard(PyObject *module) { (void)module; return 0; }
