/* SPDX-License-Identifier: MIT */
/*
 * fuzz_server.h - one `damier serve` in a thread of the fuzz target's
 * process, for fuzz_http and fuzz_ws: started on the first input (a fresh
 * database on /dev/shm, where a commit costs no disk flush, any free
 * loopback port, no limit of connections per address), stopped and joined
 * at exit, so that the replay in make check ends clean under ASan.  Each
 * input comes on new connections; a local game made at the start, whose id
 * and token stand in the inputs as @ID@ and @TOKEN@, gives them a game to
 * act on.
 */
#ifndef DM_FUZZ_SERVER_H
#define DM_FUZZ_SERVER_H

#include "../netio.h"
#include "fuzz.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "server/server.h"

static struct {
    pthread_t thread;
    srv_config config;
    int rc;
    char dir[64], db[96];
    int port;
    char id[32], token[64];
} FS;

static atomic_bool fs_ended; /* srv_run returned: it could not listen */

static inline void *fs_serve(void *arg)
{
    (void)arg;
    FS.rc = srv_run(&FS.config);
    atomic_store(&fs_ended, true);
    return NULL;
}

/* A socket to the server (-1 if it does not answer). */
static inline int fs_connect(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    FUZZ_CHECK(fd >= 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)FS.port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* A socket to the running server, tried again for up to 5 s: on a machine
 * loaded enough, a loopback connect now and then fails for a moment (seen
 * in hour-long runs), which is not the server's fault; one that fails for
 * 5 s is, and says why. */
static inline int fs_connect_server(void)
{
    int64_t deadline = net_now_ms() + 5000;
    for (;;) {
        int fd = fs_connect();
        if (fd >= 0)
            return fd;
        int why = errno;
        if (net_now_ms() > deadline) {
            fprintf(stderr, "fuzz: cannot connect to the server for 5 s: %s\n", strerror(why));
            return -1;
        }
        net_pause_ms(20);
    }
}

/* Closes fd with a reset: no TIME_WAIT left behind by thousands of inputs. */
static inline void fs_close(int fd)
{
    struct linger l = {1, 0};
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
    close(fd);
}

/* Reads into buf (size, '\0'-ended) until the server closes, buf is full,
 * nothing comes in first_ms, or, once something came, nothing more in
 * quiet_ms; the length.  (A client's half-close would be quicker, but lws
 * drops a POST whose end it reads with its body, answer and all.) */
static inline size_t fs_read_all(int fd, char *buf, size_t size, int first_ms, int quiet_ms)
{
    size_t len = 0;
    while (len < size - 1) {
        if (!net_readable(fd, len ? quiet_ms : first_ms))
            break;
        ssize_t r = recv(fd, buf + len, size - 1 - len, 0);
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    buf[len] = '\0';
    return len;
}

/* One request and its whole answer (its headers and Content-Length bytes;
 * the server's own answers always carry it). */
static inline size_t fs_request(const char *req, char *buf, size_t size)
{
    int fd = fs_connect_server();
    FUZZ_CHECK(fd >= 0);
    FUZZ_CHECK(net_send_all(fd, req, strlen(req)));
    size_t len = 0;
    const char *end = NULL, *cl = NULL;
    while (len < size - 1) {
        if (!net_readable(fd, 5000))
            break;
        ssize_t r = recv(fd, buf + len, size - 1 - len, 0);
        if (r <= 0)
            break;
        len += (size_t)r;
        buf[len] = '\0';
        if (!end && (end = strstr(buf, "\r\n\r\n")) && !(cl = strstr(buf, "content-length: ")))
            break;
        if (end && (size_t)(end + 4 - buf) + (size_t)atol(cl + 16) <= len)
            break;
    }
    buf[len] = '\0';
    fs_close(fd);
    return len;
}

/* The server still serves: a request of the API answered as it should. */
static inline void fs_check_alive(void)
{
    char buf[4096];
    int64_t t0 = net_now_ms();
    fs_request("GET /api/games/nosuchgame HTTP/1.1\r\nHost: x\r\n\r\n", buf, sizeof buf);
    if (strncmp(buf, "HTTP/1.1 404", 12) != 0)
        fprintf(stderr, "fuzz: after %lld ms the server answered '%.200s'\n",
                (long long)(net_now_ms() - t0), buf);
    FUZZ_CHECK(strncmp(buf, "HTTP/1.1 404", 12) == 0);
}

static inline void fs_stop(void)
{
    srv_stop();
    pthread_join(FS.thread, NULL);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", FS.dir);
    if (system(cmd) != 0)
        fprintf(stderr, "fuzz: cannot remove %s\n", FS.dir);
}

/* A free loopback port, found by binding port 0. */
static inline int fs_free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    FUZZ_CHECK(bind(fd, (struct sockaddr *)&a, sizeof a) == 0);
    FUZZ_CHECK(getsockname(fd, (struct sockaddr *)&a, &len) == 0);
    close(fd);
    return ntohs(a.sin_port);
}

/* Unfinished games the server holds at once: an hour's inputs create
 * hundreds of thousands, which would otherwise stay in memory until the
 * process's RSS limit; beyond this the server answers 503, a path worth
 * fuzzing too. */
#define FS_MAX_GAMES 2000

/* Starts the server once; the game @ID@ with @TOKEN@ made. */
static inline void fs_start(void)
{
    if (FS.port)
        return;
    snprintf(FS.dir, sizeof FS.dir, "%s/damier-fuzz-XXXXXX",
             access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    FUZZ_CHECK(mkdtemp(FS.dir) != NULL);
    snprintf(FS.db, sizeof FS.db, "%s/fuzz.db", FS.dir);
    /* A port found free may be taken before the server binds it (tests
     * run side by side): the server then ends at once, and another port is
     * tried. */
    int fd = -1;
    for (int attempt = 0; fd < 0; attempt++) {
        FUZZ_CHECK(attempt < 5);
        FS.port = fs_free_port();
        FS.config = (srv_config){.host = "127.0.0.1", .port = FS.port, .db = FS.db,
                                 .engine_threads = 1, .web = FS.dir, .max_per_address = -1,
                                 .max_games = FS_MAX_GAMES, .games_per_minute = -1,
                                 .in_thread = true};
        atomic_store(&fs_ended, false);
        FUZZ_CHECK(pthread_create(&FS.thread, NULL, fs_serve, NULL) == 0);
        int64_t deadline = net_now_ms() + 10000;
        while ((fd = fs_connect()) < 0 && !atomic_load(&fs_ended)) {
            FUZZ_CHECK(net_now_ms() < deadline);
            net_pause_ms(10);
        }
        if (fd < 0)
            pthread_join(FS.thread, NULL);
    }
    fs_close(fd);
    atexit(fs_stop);
    char buf[8192];
    static const char body[] = "{\"opponent\":{\"type\":\"local\"}}";
    char req[256];
    snprintf(req, sizeof req, "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: %zu\r\n\r\n%s",
             sizeof body - 1, body);
    fs_request(req, buf, sizeof buf);
    const char *id = strstr(buf, "\"id\":\""), *token = strstr(buf, "\"token\":\"");
    if (!id || !token)
        fprintf(stderr, "fuzz: the game was not made: %s\n", buf);
    FUZZ_CHECK(id && token);
    sscanf(id + 6, "%31[^\"]", FS.id);
    sscanf(token + 9, "%63[^\"]", FS.token);
}

/* in[0..len) with @ID@ and @TOKEN@ replaced, into a malloc'ed buffer; its
 * length in *out_len. */
static inline char *fs_expand(const uint8_t *in, size_t len, size_t *out_len)
{
    size_t cap = len * 8 + 64, n = 0;
    char *out = malloc(cap);
    FUZZ_CHECK(out != NULL);
    for (size_t i = 0; i < len;) {
        const char *with = NULL;
        size_t skip = 0;
        if (len - i >= 4 && memcmp(in + i, "@ID@", 4) == 0)
            with = FS.id, skip = 4;
        else if (len - i >= 7 && memcmp(in + i, "@TOKEN@", 7) == 0)
            with = FS.token, skip = 7;
        if (with) {
            size_t w = strlen(with);
            memcpy(out + n, with, w);
            n += w;
            i += skip;
        } else {
            out[n++] = (char)in[i++];
        }
    }
    out[n] = '\0';
    *out_len = n;
    return out;
}

#endif
