/* Which copy of the 9x9 kernel runs: picked once, when the module is loaded, by what the
 * processor can do.
 *
 * The extension is built for every x86-64 (SSE2) so that a wheel runs anywhere, but the kernel
 * is faster with popcnt, SSE4.1 and BMI2 (results/bitboard.md).  So sudoku9.c is compiled three
 * times (baseline, sudoku9_v2.c, sudoku9_v2_bmi2.c) and the copy is chosen from the CPUID bits
 * (__builtin_cpu_supports): GCC's function multiversioning ("Function Multiversioning", GCC
 * manual) done by hand for the whole file, since target_clones clones one function and the
 * kernel is recursive functions and static tables.  PUZZLEBENCH_NATIVE_KERNEL=<copy> picks a
 * copy at load time where the processor runs it; sudoku9_kernel (bitboard.c) tells and
 * switches the copy, and the engine reports it beside its version (engines/bitboard.py). */
#include <stdlib.h>
#include <string.h>
#include "pb_bitboard.h"

typedef void (*Solve9)(const uint8_t *givens, int locked, BBSearch *s);

void bb9_init_baseline(void);
void bb9_solve_baseline(const uint8_t *givens, int locked, BBSearch *s);
static int runs_anywhere(void) { return 1; }

#if defined(__x86_64__)
void bb9_init_x86_64_v2(void);
void bb9_solve_x86_64_v2(const uint8_t *givens, int locked, BBSearch *s);
void bb9_init_x86_64_v2_bmi2(void);
void bb9_solve_x86_64_v2_bmi2(const uint8_t *givens, int locked, BBSearch *s);

static int runs_x86_64_v2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("sse3") &&
           __builtin_cpu_supports("ssse3") && __builtin_cpu_supports("sse4.1") &&
           __builtin_cpu_supports("sse4.2");
}

/* AMD's processors before Zen 3 (families 15h and 17h) run pext in microcode, tens to
 * hundreds of cycles against Intel's 3 (A. Fog, "Instruction tables", 2022): there the
 * copy without it runs. */
static int runs_x86_64_v2_bmi2(void) {
    return runs_x86_64_v2() && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
           !__builtin_cpu_is("amdfam15h") && !__builtin_cpu_is("amdfam17h");
}
#endif

static const struct {
    const char *name;
    void (*init)(void);
    Solve9 solve;
    int (*runs_here)(void);
} KERNELS[] = {   /* the preferred first */
#if defined(__x86_64__)
    {"x86-64-v2+bmi2", bb9_init_x86_64_v2_bmi2, bb9_solve_x86_64_v2_bmi2, runs_x86_64_v2_bmi2},
    {"x86-64-v2", bb9_init_x86_64_v2, bb9_solve_x86_64_v2, runs_x86_64_v2},
#endif
    {"baseline", bb9_init_baseline, bb9_solve_baseline, runs_anywhere},
};
enum { N_KERNELS = sizeof KERNELS / sizeof KERNELS[0] };
static int chosen = N_KERNELS - 1;   /* the baseline until bb9_init */

int bb9_kernels(const char *names[BB9_KERNELS_MAX]) {
    int n = 0;
    for (int k = 0; k < N_KERNELS && n < BB9_KERNELS_MAX; k++)
        if (KERNELS[k].runs_here()) names[n++] = KERNELS[k].name;
    return n;
}

int bb9_use_kernel(const char *name) {
    for (int k = 0; k < N_KERNELS; k++)
        if (!strcmp(name, KERNELS[k].name) && KERNELS[k].runs_here()) { chosen = k; return 0; }
    return -1;
}

const char *bb9_kernel(void) { return KERNELS[chosen].name; }

/* Sets up the tables of every copy this processor runs (a copy's own setup may use its
 * instructions) and picks the first of them, or the one the environment names. */
void bb9_init(void) {
    for (int k = N_KERNELS - 1; k >= 0; k--)
        if (KERNELS[k].runs_here()) {
            KERNELS[k].init();
            chosen = k;
        }
    const char *wanted = getenv("PUZZLEBENCH_NATIVE_KERNEL");
    if (wanted && *wanted) bb9_use_kernel(wanted);
}

void bb9_solve(const uint8_t *givens, int locked, BBSearch *s) { KERNELS[chosen].solve(givens, locked, s); }
