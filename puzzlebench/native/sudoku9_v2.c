/* The 9x9 kernel for x86-64-v2 processors (popcnt, SSE3, SSSE3, SSE4.1, SSE4.2: nearly every
 * x86-64 since 2009); sudoku9_copy.h says how.  Elsewhere than x86-64 this file is empty. */
#if defined(__x86_64__)
#define BB9_TARGET "popcnt,sse3,ssse3,sse4.1,sse4.2"
#define BB9_COPY(name) name##_x86_64_v2
#define PB_POPCNT 1
#include "sudoku9_copy.h"
#else
typedef int bb9_no_x86_64_v2_copy;   /* ISO C: a translation unit declares something */
#endif
