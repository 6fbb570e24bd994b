/* A batch of puzzles split over native threads: pb_threads.h. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

#include "pb_common.h"
#include "pb_threads.h"

/* Chunks a thread's share is cut into: enough for an uneven batch (forum hardest: a few
 * puzzles take a hundred times the median) to even out, few enough that the cursor is not
 * contended; a chunk holds at most MAX_CHUNK puzzles. */
enum { CHUNKS_PER_THREAD = 8, MAX_CHUNK = 64 };

typedef struct {
    PbRange run;
    void *work;
    ptrdiff_t count, chunk, chunks;
    ptrdiff_t *answered;            /* per chunk: its puzzles answered in order (0: not begun) */
    const sig_atomic_t *sigints;
    ptrdiff_t cursor;               /* the next chunk to take (atomic) */
    int stopped;                    /* a chunk stopped short (atomic) */
} Split;

typedef struct { Split *split; int worker; } Worker;

static ptrdiff_t chunk_size(ptrdiff_t count, int threads) {
    ptrdiff_t size = count / ((ptrdiff_t)threads * CHUNKS_PER_THREAD);
    return size < 1 ? 1 : size > MAX_CHUNK ? MAX_CHUNK : size;
}

int pb_threads_used(ptrdiff_t count, int threads) {
    if (threads <= 1 || count <= 1) return 1;
    if (threads > PB_MAX_THREADS) threads = PB_MAX_THREADS;
    ptrdiff_t size = chunk_size(count, threads), chunks = (count + size - 1) / size;
    return chunks < threads ? (int)chunks : threads;
}

static int must_stop(const Split *sp) {
    return __atomic_load_n(&sp->stopped, __ATOMIC_RELAXED) || (sp->sigints && pb_sigints != *sp->sigints);
}

static void *take_chunks(void *arg) {
    const Worker *w = arg;
    Split *sp = w->split;
    while (!must_stop(sp)) {
        ptrdiff_t k = __atomic_fetch_add(&sp->cursor, 1, __ATOMIC_RELAXED);
        if (k >= sp->chunks) break;
        ptrdiff_t begin = k * sp->chunk, end = begin + sp->chunk < sp->count ? begin + sp->chunk : sp->count;
        ptrdiff_t upto = sp->run(sp->work, w->worker, begin, end);
        sp->answered[k] = upto - begin;
        if (upto < end) __atomic_store_n(&sp->stopped, 1, __ATOMIC_RELAXED);
    }
    return NULL;
}

/* The puzzles answered before the first unanswered one: the chunks in order, up to the first
 * one not answered whole. */
static ptrdiff_t answered_prefix(const Split *sp) {
    ptrdiff_t total = 0;
    for (ptrdiff_t k = 0; k < sp->chunks; k++) {
        ptrdiff_t begin = k * sp->chunk, size = begin + sp->chunk < sp->count ? sp->chunk : sp->count - begin;
        total += sp->answered[k];
        if (sp->answered[k] < size) break;
    }
    return total;
}

ptrdiff_t pb_split(ptrdiff_t count, int threads, PbRange run, void *work, const sig_atomic_t *sigints) {
    threads = pb_threads_used(count, threads);
    if (threads == 1) return run(work, 0, 0, count);
    Split sp = {run, work, count, chunk_size(count, threads), 0, NULL, sigints, 0, 0};
    sp.chunks = (count + sp.chunk - 1) / sp.chunk;
    sp.answered = calloc((size_t)sp.chunks, sizeof(ptrdiff_t));
    pthread_t *ids = malloc(sizeof(pthread_t) * (size_t)threads);
    Worker *workers = malloc(sizeof(Worker) * (size_t)threads);
    if (!sp.answered || !ids || !workers) {   /* no room to split: the caller's thread alone */
        free(sp.answered); free(ids); free(workers);
        return run(work, 0, 0, count);
    }
    sigset_t all, before;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &before);   /* inherited by the threads started below */
    int started = 1;
    for (; started < threads; started++) {
        workers[started] = (Worker){&sp, started};
        if (pthread_create(&ids[started], NULL, take_chunks, &workers[started]) != 0) break;
    }
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    workers[0] = (Worker){&sp, 0};   /* the threads that could not start: their chunks are taken by the others */
    take_chunks(&workers[0]);
    for (int t = 1; t < started; t++) pthread_join(ids[t], NULL);
    ptrdiff_t answered = answered_prefix(&sp);
    free(sp.answered); free(ids); free(workers);
    return answered;
}
