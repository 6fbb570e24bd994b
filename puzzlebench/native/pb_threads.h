/* A batch of puzzles split over native threads (pb_threads.c), for the batch calls of
 * bitboard.c, dlx_sudoku.c and check.c.
 *
 * The batch is cut into contiguous chunks that the threads take in turn from a shared atomic
 * cursor (an easy chunk does not leave a thread idle while another works on a hard one), each
 * chunk's puzzles in input order.  The caller's thread is one of the threads; the others are
 * started with every signal blocked, so that a Ctrl-C reaches the caller's thread, as with
 * one thread.  Whatever the tables a search reads (sudoku9.c's, set up when the module loads),
 * they are written before any thread starts. */
#ifndef PUZZLEBENCH_PB_THREADS_H
#define PUZZLEBENCH_PB_THREADS_H
#include <signal.h>
#include <stddef.h>

/* The most threads a batch is split over (options.py: MAX_THREADS, the bound a user may ask). */
enum { PB_MAX_THREADS = 256 };

/* Answers puzzles begin..end-1 in order with worker `worker`'s own state (0 .. threads-1):
 * the index of the first puzzle it did not answer (`end` when it answered all; fewer only
 * when a Ctrl-C stopped it). */
typedef ptrdiff_t (*PbRange)(void *work, int worker, ptrdiff_t begin, ptrdiff_t end);

/* The threads a split of `count` puzzles over `threads` uses: no more than its chunks. */
int pb_threads_used(ptrdiff_t count, int threads);

/* Runs `run` over puzzles 0..count-1 on pb_threads_used(count, threads) threads (one: in the
 * caller's thread alone, no thread started); every thread joined before it returns.  After a
 * Ctrl-C (`sigints` != pb_sigints; NULL: none stops it) no further chunk is begun, and the
 * answer is the number of puzzles answered before the first unanswered one in input order
 * (the puzzles answered after it are dropped); else `count`. */
ptrdiff_t pb_split(ptrdiff_t count, int threads, PbRange run, void *work, const sig_atomic_t *sigints);

#endif
