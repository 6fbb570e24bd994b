/* The 9x9 kernel for x86-64-v2 processors with BMI1 and BMI2 (Intel since Haswell, 2013; AMD
 * since Excavator, 2015): BMI2's pext gathers a word's 3x3 pattern in one instruction
 * (sudoku9.c, pattern_of); sudoku9_copy.h says how.  Elsewhere than x86-64 this file is
 * empty. */
#if defined(__x86_64__)
#define BB9_TARGET "popcnt,sse3,ssse3,sse4.1,sse4.2,bmi,bmi2"
#define BB9_COPY(name) name##_x86_64_v2_bmi2
#define PB_POPCNT 1
#define PB_BMI2 1
#include "sudoku9_copy.h"
#else
typedef int bb9_no_x86_64_v2_bmi2_copy;   /* ISO C: a translation unit declares something */
#endif
