/* What every engine file of puzzlebench._native shares: the clock, how often a search looks
 * at it, bit counting, and the words the files use alike (glossary):
 *   value 1-based, 0 = empty (to and from Python); digit 0-based, a bit of a candidate mask;
 *   n values per unit, cell = row * n + column; br, bc a Sudoku block's rows and columns;
 *   item, option   Knuth's columns and rows of an exact-cover matrix;
 *   limit stop after this many solutions (<= 0: all); keep  solutions copied out, the first;
 *   deadline  a pb_now() value after which a search stops with timed_out set, 0 = none;
 *   sigints   pb_sigints when the search began: a change stops the search (timed_out set);
 *   counters  uint64_t (a count of all solutions passes 2^32 nodes within minutes);
 *   rc        0 ok, -1 failure: an allocation (C parts) or an exception set (Python parts).
 * Built with gcc or clang (the __builtin_* below; setup.py). */
#ifndef PUZZLEBENCH_PB_COMMON_H
#define PUZZLEBENCH_PB_COMMON_H
#include <signal.h>
#include <stdint.h>

/* Monotonic clock in seconds (clock_gettime; pb_common.c). */
double pb_now(void);

/* How often a search looks at the clock: every PB_CLOCK_EVERY nodes (a power of two).  At 256
 * the clock costs under 0.1% of the cheapest node (a 9x9 DLX node, about 0.1 us) while the
 * dearest nodes (a 64x64 Sudoku copies 64 KB) still stop within a few milliseconds of the
 * deadline. */
#define PB_CLOCK_EVERY 256u
/* N-Queens nodes are a handful of bit operations (a few ns): there the clock is looked at
 * every 65536 nodes (about a millisecond), so that it stays under 1% of the search. */
#define PB_CLOCK_EVERY_QUEENS 65536u

/* Ctrl-C: how many SIGINTs the process has had, counted by a C handler put in front of
 * Python's before each search (interrupt.c), since Python's own runs only between bytecodes,
 * never inside a search that released the GIL. */
extern volatile sig_atomic_t pb_sigints;

/* Whether a search at node count `nodes` must stop: a Ctrl-C since it began (`sigints`), or
 * its deadline passed (looked at every `every` nodes only; every a power of two, deadline 0 =
 * none).  A macro, so that `deadline` and `sigints` are read only when the count comes round:
 * as an inline function's argument `deadline` would be read at every node and held in a
 * register the search loop needs (N-Queens 4% slower). */
#define PB_MUST_STOP(nodes, every, deadline, sigints) \
    ((((nodes) & ((every) - 1)) == 0) \
     && (pb_sigints != (sigints) || ((deadline) > 0 && pb_now() >= (deadline))))

/* Bit counting.  The portable build (no -march) has no popcnt instruction, and there
 * __builtin_popcount is a call into libgcc that costs more than these few shifts; with
 * -march=native (__POPCNT__ defined), or in a file compiled for a target that has it
 * (PB_POPCNT: sudoku9_copy.h; clang's target attribute defines no __POPCNT__), the instruction
 * is used. */
#if defined(__POPCNT__) || defined(PB_POPCNT)
#define PB_HAS_POPCNT 1
#endif
/* BMI2's pext where the target has it (-march=native, or PB_BMI2: sudoku9_v2_bmi2.c). */
#if defined(__BMI2__) || defined(PB_BMI2)
#define PB_HAS_BMI2 1
#endif
static inline int pb_popcount32(uint32_t x) {
#ifdef PB_HAS_POPCNT
    return __builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
#endif
}

static inline int pb_popcount64(uint64_t x) {
#ifdef PB_HAS_POPCNT
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

/* The lowest set bit's position; x must not be 0. */
static inline int pb_ctz32(uint32_t x) { return __builtin_ctz(x); }
static inline int pb_ctz64(uint64_t x) { return __builtin_ctzll(x); }

#endif
