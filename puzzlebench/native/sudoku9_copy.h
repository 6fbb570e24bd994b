/* The 9x9 kernel (sudoku9.c) compiled again for an instruction set: a file that defines
 * BB9_TARGET (the target's features, as GCC's and clang's target attribute spell them) and
 * BB9_COPY (the copy's entry points' names), and PB_POPCNT / PB_BMI2 when the target has
 * those instructions, then includes this one (sudoku9_v2.c, sudoku9_v2_bmi2.c; sudoku9_isa.c
 * picks the copy at run time).  The target is set before the kernel's headers, so that their
 * inline helpers are compiled for it too; the intrinsics' headers come first, as they carry
 * their own targets.  x86-64 only: the including file checks. */
#include <stdint.h>
#include <string.h>
#include <emmintrin.h>
#define BB9_PRAGMA(text) _Pragma(#text)
#if defined(__clang__)
#define BB9_TARGET_PUSH(features) BB9_PRAGMA(clang attribute push(__attribute__((target(features))), apply_to = function))
#else
#define BB9_TARGET_PUSH(features) BB9_PRAGMA(GCC target(features))
#endif
BB9_TARGET_PUSH(BB9_TARGET)
#include "sudoku9.c"
#if defined(__clang__)
#pragma clang attribute pop
#endif
