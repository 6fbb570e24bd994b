/* The clock of pb_common.h.  clock_gettime is POSIX, not C11: ask for it before any header. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "pb_common.h"

double pb_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
