/* SPDX-License-Identifier: MIT */
/*
 * dxpnet.c - DXP over TCP (dxpnet.h), with getaddrinfo so that names and
 * IPv6 addresses work as well as dotted quads.
 */
#include "proto/dxpnet.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

static int refuse(char *why, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int refuse(char *why, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
    return -1;
}

/* Splits "[HOST:]PORT" (HOST may be "[v6]") into host and port; host is
 * fallback when absent.  False if the port is not a number of 0..65535. */
static bool split(const char *spec, const char *fallback, char *host, size_t hsize, char *port,
                  size_t psize)
{
    const char *colon = strrchr(spec, ':');
    const char *p = colon ? colon + 1 : spec;
    if (colon) {
        const char *h = spec;
        size_t n = (size_t)(colon - spec);
        if (n >= 2 && h[0] == '[' && h[n - 1] == ']')
            h++, n -= 2;
        snprintf(host, hsize, "%.*s", (int)n, h);
    } else {
        snprintf(host, hsize, "%s", fallback);
    }
    char *end;
    long n = strtol(p, &end, 10);
    if (*p == '\0' || *end != '\0' || n < 0 || n > 65535 || (colon && host[0] == '\0'))
        return false;
    snprintf(port, psize, "%ld", n);
    return true;
}

static void tune(int fd)
{
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); /* short messages */
}

int dxp_listen(const char *spec, FILE *log, struct dxp_conn *c, char *why, size_t size)
{
    char host[256], port[8];
    if (!split(spec, "127.0.0.1", host, sizeof host, port, sizeof port))
        return refuse(why, size, "listen address '%s': expected [ADDR:]PORT", spec);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE | AI_NUMERICSERV}, *ai;
    int rc = getaddrinfo(host, port, &hints, &ai);
    if (rc != 0)
        return refuse(why, size, "listen address '%s': %s", host, gai_strerror(rc));
    int fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
    int one = 1;
    if (fd >= 0)
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 1) != 0) {
        int e = errno;
        freeaddrinfo(ai);
        if (fd >= 0)
            close(fd);
        return refuse(why, size, "cannot listen on '%s': %s", spec, strerror(e));
    }
    freeaddrinfo(ai);
    struct sockaddr_storage sa;
    socklen_t len = sizeof sa;
    char shown[INET6_ADDRSTRLEN] = "?";
    int bound = 0;
    if (getsockname(fd, (struct sockaddr *)&sa, &len) == 0) {
        if (sa.ss_family == AF_INET) {
            struct sockaddr_in *in = (struct sockaddr_in *)&sa;
            inet_ntop(AF_INET, &in->sin_addr, shown, sizeof shown);
            bound = ntohs(in->sin_port);
        } else if (sa.ss_family == AF_INET6) {
            struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&sa;
            inet_ntop(AF_INET6, &in6->sin6_addr, shown, sizeof shown);
            bound = ntohs(in6->sin6_port);
        }
    }
    fprintf(log, "dxp: listening on %s:%d\n", shown, bound);
    fflush(log);
    int peer;
    while ((peer = accept(fd, NULL, NULL)) < 0 && errno == EINTR)
        ;
    int e = errno;
    close(fd);
    if (peer < 0)
        return refuse(why, size, "accept on '%s': %s", spec, strerror(e));
    tune(peer);
    c->fd = peer;
    c->len = 0;
    return 0;
}

int dxp_connect(const char *spec, struct dxp_conn *c, char *why, size_t size)
{
    char host[256], port[8];
    if (!strchr(spec, ':') || !split(spec, "", host, sizeof host, port, sizeof port))
        return refuse(why, size, "address '%s': expected HOST:PORT", spec);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_NUMERICSERV}, *ai, *a;
    int rc = getaddrinfo(host, port, &hints, &ai);
    if (rc != 0)
        return refuse(why, size, "address '%s': %s", host, gai_strerror(rc));
    int fd = -1, e = 0;
    for (a = ai; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
            e = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(ai);
    if (fd < 0)
        return refuse(why, size, "cannot connect to '%s': %s", spec, strerror(e));
    tune(fd);
    c->fd = fd;
    c->len = 0;
    return 0;
}

void dxp_close(struct dxp_conn *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
}

int dxp_send(struct dxp_conn *c, const char *text)
{
    size_t n = strlen(text) + 1; /* the NUL ends the message */
    for (size_t done = 0; done < n;) {
        ssize_t w = send(c->fd, text + done, n - done, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        done += (size_t)w;
    }
    return 0;
}

int dxp_receive(struct dxp_conn *c, char *text, int timeout_ms, char *why, size_t size)
{
    for (;;) {
        char *nul = memchr(c->buf, '\0', c->len);
        if (nul) {
            size_t n = (size_t)(nul - c->buf);
            if (n > DXP_MAX_MESSAGE)
                return refuse(why, size, "a message of more than %d characters", DXP_MAX_MESSAGE);
            memcpy(text, c->buf, n + 1);
            memmove(c->buf, nul + 1, c->len - n - 1);
            c->len -= n + 1;
            return (int)n;
        }
        if (c->len > DXP_MAX_MESSAGE)
            return refuse(why, size, "more than %d characters without a NUL", DXP_MAX_MESSAGE);
        struct pollfd p = {c->fd, POLLIN, 0};
        int ready = poll(&p, 1, timeout_ms);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0)
            return refuse(why, size, "no message within %d s", timeout_ms / 1000);
        ssize_t r = recv(c->fd, c->buf + c->len, sizeof c->buf - c->len, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            return refuse(why, size, "the peer closed the connection");
        if (r < 0)
            return refuse(why, size, "receive: %s", strerror(errno));
        c->len += (size_t)r;
    }
}
