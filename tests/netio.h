/* SPDX-License-Identifier: MIT */
/*
 * netio.h - the few socket and clock helpers that the server's test
 * client (unit/srvclient.h) and the fuzz targets' harness
 * (fuzz/fuzz_server.h) share; static inline, plain libc.
 */
#ifndef DM_TESTS_NETIO_H
#define DM_TESTS_NETIO_H

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>

static inline int64_t net_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline void net_pause_ms(int ms)
{
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* Sends all of data; false if the peer closed first. */
static inline bool net_send_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n <= 0)
            return false;
        p += (size_t)n;
        len -= (size_t)n;
    }
    return true;
}

/* Whether fd has something to read within ms.  A signal (libFuzzer's
 * -timeout timer) interrupting poll resumes it for the time left. */
static inline bool net_readable(int fd, int ms)
{
    int64_t deadline = net_now_ms() + ms;
    for (;;) {
        struct pollfd q = {fd, POLLIN, 0};
        int64_t left = deadline - net_now_ms();
        int n = poll(&q, 1, left > 0 ? (int)left : 0);
        if (n >= 0 || errno != EINTR)
            return n > 0;
    }
}

#endif
