/* SPDX-License-Identifier: MIT */
/*
 * clock.h - a monotonic clock in seconds.
 */
#ifndef DM_BASE_CLOCK_H
#define DM_BASE_CLOCK_H

#include <time.h>

static inline double clock_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
