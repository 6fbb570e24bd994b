/* Dancing Links (issue 4): not written yet; registers nothing. */
#include "engines.h"
int pb_register_dlx(PyObject *module) { (void)module; return 0; }
