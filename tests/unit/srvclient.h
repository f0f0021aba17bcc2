/* SPDX-License-Identifier: MIT */
/*
 * srvclient.h - a test's `damier serve` on loopback and a minimal client
 * of it: plain sockets, HTTP/1.1 requests, a WebSocket (the handshake,
 * masked frames out of any size, unmasked frames in, the close frame).
 *
 * The API suite (test_server) and the hardening tests (test_access,
 * test_crash) share it; every helper is static inline, so a test using
 * part of it still builds under -Werror.  A helper that meets something
 * unexpected fails the test with what it met.
 */
#ifndef DM_TESTS_SRVCLIENT_H
#define DM_TESTS_SRVCLIENT_H

#include "testutil.h"
#include "../netio.h"

#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SC_WAIT_MS 30000

typedef struct sc_server {
    pid_t pid;
    int out;             /* its standard output                           */
    int port;
    int threads;         /* --engine-threads; 0 for 1                     */
    char dir[64];        /* the test's folder: the database               */
    char db[256];        /* dir/damier.db, beside web/: what ".." would reach;
                          * or DAMIER_TEST_DB (sc_use_test_db)             */
    char web[128];       /* dir/web, holding index.html                   */
    char said[512];      /* its standard output up to its address line    */
} sc_server;

/* The servers started, killed by sc_kill_all (a test's teardown) if a
 * failure left them running. */
static pid_t sc_started[8];

static inline int sc_kill_all(void **state)
{
    (void)state;
    for (int i = 0; i < 8; i++)
        if (sc_started[i] > 0) {
            kill(sc_started[i], SIGKILL);
            waitpid(sc_started[i], NULL, 0);
            sc_started[i] = 0;
        }
    return 0;
}

static inline void sc_write_file(const char *dir, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A fresh folder for s's database. */
static inline void sc_make_dir(sc_server *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->dir, sizeof s->dir, "/tmp/damier-hard-XXXXXX");
    assert_non_null(mkdtemp(s->dir));
    snprintf(s->db, sizeof s->db, "%s/damier.db", s->dir);
    snprintf(s->web, sizeof s->web, "%s/web", s->dir);
    assert_int_equal(mkdir(s->web, 0755), 0);
    sc_write_file(s->web, "index.html", "<!doctype html><title>app</title>\n");
}

/* DAMIER_TEST_DB, when set, stands for s's database: another store, a
 * postgresql:// URL (tests/cli/store_pg.sh runs test_server so). */
static inline void sc_use_test_db(sc_server *s)
{
    const char *db = getenv("DAMIER_TEST_DB");
    if (db && *db && snprintf(s->db, sizeof s->db, "%s", db) >= (int)sizeof s->db)
        fail_msg("DAMIER_TEST_DB is too long");
}

static inline void sc_remove_dir(sc_server *s)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s->dir);
    assert_int_equal(system(cmd), 0);
}

/* Starts damier serve on s's database, port 0, with the extra arguments
 * (NULL-ended, at most 8); reads the port off its address line.  The
 * server's standard error is the test's. */
static inline void sc_start(sc_server *s, const char *const *extra)
{
    const char *bin = tu_env("DAMIER_BIN", "build/damier");
    char threads[16];
    snprintf(threads, sizeof threads, "%d", s->threads > 0 ? s->threads : 1);
    const char *argv[24] = {bin, "serve", "--listen", "127.0.0.1:0", "--db", s->db,
                            "--web", s->web, "--engine-threads", threads};
    int argc = 10;
    for (int i = 0; extra && extra[i] && argc < 22; i++)
        argv[argc++] = extra[i];
    argv[argc] = NULL;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    s->pid = fork();
    assert_true(s->pid >= 0);
    if (s->pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        execv(bin, (char *const *)argv);
        _exit(127);
    }
    close(fds[1]);
    for (int i = 0; i < 8; i++)
        if (sc_started[i] <= 0) {
            sc_started[i] = s->pid;
            break;
        }
    s->out = fds[0];
    char line[512] = "";
    size_t len = 0;
    int64_t deadline = net_now_ms() + SC_WAIT_MS;
    const char *at = NULL;
    while (!(at = strstr(line, "http://127.0.0.1:")) || !strchr(at, '\n')) {
        struct pollfd q = {s->out, POLLIN, 0};
        int64_t left = deadline - net_now_ms();
        if (left <= 0 || poll(&q, 1, (int)left) <= 0)
            fail_msg("damier serve printed no address");
        ssize_t r = read(s->out, line + len, sizeof line - len - 1);
        if (r <= 0)
            fail_msg("damier serve ended before printing its address");
        len += (size_t)r;
        line[len] = '\0';
    }
    snprintf(s->said, sizeof s->said, "%s", line);
    s->port = atoi(at + strlen("http://127.0.0.1:"));
    assert_true(s->port > 0);
}

/* Whether s's server is still running (not exited, not killed). */
static inline bool sc_alive(sc_server *s)
{
    int status;
    return waitpid(s->pid, &status, WNOHANG) == 0;
}

/* Ends the server with sig; for SIGTERM it must exit 0. */
static inline void sc_stop(sc_server *s, int sig)
{
    int status;
    kill(s->pid, sig);
    int64_t deadline = net_now_ms() + SC_WAIT_MS;
    while (waitpid(s->pid, &status, WNOHANG) == 0) {
        if (net_now_ms() > deadline) {
            kill(s->pid, SIGKILL);
            waitpid(s->pid, &status, 0);
            fail_msg("damier serve did not stop");
        }
        net_pause_ms(10);
    }
    close(s->out);
    for (int i = 0; i < 8; i++)
        if (sc_started[i] == s->pid)
            sc_started[i] = 0;
    if (sig == SIGTERM && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
        fail_msg("damier serve ended with status %d on SIGTERM", status);
}

/* A socket connected to the server from source address from ("127.0.0.1",
 * or another loopback address to stand for another client). */
static inline int sc_connect_from(int port, const char *from)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in src = {.sin_family = AF_INET};
    assert_int_equal(inet_pton(AF_INET, from, &src.sin_addr), 1);
    if (bind(fd, (struct sockaddr *)&src, sizeof src) != 0)
        fail_msg("bind %s: %s", from, strerror(errno));
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0)
        fail_msg("connect from %s: %s", from, strerror(errno));
    return fd;
}

static inline int sc_connect(int port)
{
    return sc_connect_from(port, "127.0.0.1");
}

/* Reads from fd until buf holds need bytes, the end, or ms pass; the
 * length read so far. */
static inline size_t sc_read_until(int fd, char *buf, size_t size, size_t have, size_t need,
                                   int ms)
{
    int64_t deadline = net_now_ms() + ms;
    while (have < need && have < size - 1) {
        struct pollfd q = {fd, POLLIN, 0};
        int64_t left = deadline - net_now_ms();
        if (left <= 0 || poll(&q, 1, (int)left) <= 0)
            break;
        ssize_t r = recv(fd, buf + have, size - 1 - have, 0);
        if (r <= 0)
            break;
        have += (size_t)r;
    }
    buf[have] = '\0';
    return have;
}

/* Whether the server closes fd within ms (reading and dropping anything
 * it sends first). */
static inline bool sc_closed_within(int fd, int ms)
{
    int64_t deadline = net_now_ms() + ms;
    char buf[4096];
    for (;;) {
        struct pollfd q = {fd, POLLIN, 0};
        int64_t left = deadline - net_now_ms();
        if (left <= 0 || poll(&q, 1, (int)left) <= 0)
            return false;
        ssize_t r = recv(fd, buf, sizeof buf, 0);
        if (r <= 0)
            return true;
    }
}

typedef struct sc_reply {
    int status;
    char headers[4096];  /* lower-cased                                   */
    char *body;          /* malloc'ed, '\0'-terminated                    */
    json_t *json;        /* the body parsed, or NULL                      */
} sc_reply;

static inline void sc_reply_free(sc_reply *r)
{
    free(r->body);
    json_decref(r->json);
    memset(r, 0, sizeof *r);
}

/* The answer to a request already sent on fd; false if none came. */
static inline bool sc_read_reply(int fd, sc_reply *r)
{
    memset(r, 0, sizeof *r);
    size_t cap = 1 << 20, len = 0;
    char *buf = malloc(cap), *end;
    buf[0] = '\0';
    while (!(end = strstr(buf, "\r\n\r\n"))) {
        size_t before = len;
        len = sc_read_until(fd, buf, cap, len, len + 1, SC_WAIT_MS);
        if (len == before) {
            free(buf);
            return false;
        }
    }
    size_t hlen = (size_t)(end - buf) + 4;
    snprintf(r->headers, sizeof r->headers, "%.*s", (int)hlen, buf);
    for (char *c = r->headers; *c; c++)
        *c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
    r->status = atoi(buf + 9);
    const char *cl = strstr(r->headers, "content-length:");
    size_t clen = cl ? (size_t)atol(cl + 15) : 0;
    len = sc_read_until(fd, buf, cap, len, hlen + clen, SC_WAIT_MS);
    r->body = strndup(buf + hlen, len - hlen);
    free(buf);
    r->json = json_loads(r->body, 0, NULL);
    return true;
}

/* One HTTP request (the path as given, raw) and its answer. */
static inline void sc_http(int port, const char *method, const char *path, const char *body,
                           const char *extra, sc_reply *r)
{
    int fd = sc_connect(port);
    char head[2048];
    int n = snprintf(head, sizeof head, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s", method, path,
                     extra ? extra : "");
    if (body)
        n += snprintf(head + n, sizeof head - (size_t)n,
                      "Content-Type: application/json\r\nContent-Length: %zu\r\n", strlen(body));
    n += snprintf(head + n, sizeof head - (size_t)n, "\r\n");
    if (!net_send_all(fd, head, (size_t)n) || (body && !net_send_all(fd, body, strlen(body))) ||
        !sc_read_reply(fd, r))
        fail_msg("%s %s: no answer", method, path);
    close(fd);
}

static inline void sc_get(int port, const char *path, sc_reply *r)
{
    sc_http(port, "GET", path, NULL, NULL, r);
}

static inline void sc_post(int port, const char *path, const char *body, sc_reply *r)
{
    sc_http(port, "POST", path, body, NULL, r);
}

/* An error answer: that status and a JSON object whose "error" is a
 * string. */
static inline void sc_expect_error(sc_reply *r, int status, const char *what)
{
    if (r->status != status)
        fail_msg("%s: status %d, expected %d: %s", what, r->status, status, r->body);
    if (!json_is_string(json_object_get(r->json, "error")))
        fail_msg("%s: no JSON error: %s", what, r->body);
    sc_reply_free(r);
}

static inline const char *sc_str(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    if (!s)
        fail_msg("no string '%s' in %s", key, o ? json_dumps(o, JSON_COMPACT) : "nothing");
    return s;
}

static inline int sc_int(json_t *o, const char *key)
{
    return (int)json_integer_value(json_object_get(o, key));
}

/* A new game from body: its id and token (id 16, token 48 bytes). */
static inline void sc_create(int port, const char *body, char *id, char *token, sc_reply *out)
{
    sc_reply r;
    sc_post(port, "/api/games", body, &r);
    if (r.status != 201)
        fail_msg("POST /api/games %s: %d %s", body, r.status, r.body);
    snprintf(id, 16, "%s", sc_str(r.json, "id"));
    snprintf(token, 48, "%s", sc_str(r.json, "token"));
    if (out)
        *out = r;
    else
        sc_reply_free(&r);
}

/* POSTs a move with a token (NULL: none); the status, the answer in out
 * (NULL: dropped). */
static inline int sc_move_reply(int port, const char *id, const char *token, const char *mv,
                                sc_reply *out)
{
    char path[128], body[256];
    snprintf(path, sizeof path, "/api/games/%s/moves", id);
    if (token)
        snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\"}", mv, token);
    else
        snprintf(body, sizeof body, "{\"move\":\"%s\"}", mv);
    sc_reply r;
    sc_post(port, path, body, &r);
    int status = r.status;
    if (out)
        *out = r;
    else
        sc_reply_free(&r);
    return status;
}

static inline int sc_move(int port, const char *id, const char *token, const char *mv)
{
    return sc_move_reply(port, id, token, mv, NULL);
}

/* POSTs an action ("resign", "offer-draw", ...) with a token; the status. */
static inline int sc_action(int port, const char *id, const char *token, const char *act)
{
    char path[128], body[256];
    snprintf(path, sizeof path, "/api/games/%s/actions", id);
    snprintf(body, sizeof body, "{\"action\":\"%s\",\"token\":\"%s\"}", act, token);
    sc_reply r;
    sc_post(port, path, body, &r);
    int status = r.status;
    sc_reply_free(&r);
    return status;
}

/* GET /api/games/{id} into r (200 expected). */
static inline void sc_state(int port, const char *id, sc_reply *r)
{
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s", id);
    sc_get(port, path, r);
    if (r->status != 200 || !r->json)
        fail_msg("GET %s: %d %s", path, r->status, r->body);
}

/* The number key of game id's state. */
static inline int sc_state_int(int port, const char *id, const char *key)
{
    sc_reply r;
    sc_state(port, id, &r);
    int n = sc_int(r.json, key);
    sc_reply_free(&r);
    return n;
}

static inline int sc_seq(int port, const char *id)
{
    return sc_state_int(port, id, "seq");
}

static inline int sc_ply(int port, const char *id)
{
    return sc_state_int(port, id, "ply");
}

/* Waits until game id reaches ply (the computer's answer); false on time. */
static inline bool sc_wait_ply(int port, const char *id, int ply)
{
    int64_t deadline = net_now_ms() + SC_WAIT_MS;
    while (sc_ply(port, id) < ply) {
        if (net_now_ms() > deadline)
            return false;
        net_pause_ms(20);
    }
    return true;
}

/* ---- WebSocket ---------------------------------------------------------- */

/* The Sec-WebSocket-Accept that answers the key sc_ws_open sends (RFC
 * 6455, 1.3). */
#define SC_WS_ACCEPT "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="

/* A WebSocket to path from address from, past its handshake; the answer
 * must carry accept too unless that is NULL. */
static inline int sc_ws_open_as(int port, const char *path, const char *from, const char *accept)
{
    int fd = sc_connect_from(port, from);
    char req[512];
    int n = snprintf(req, sizeof req,
                     "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     "Sec-WebSocket-Version: 13\r\n\r\n",
                     path);
    assert_true(net_send_all(fd, req, (size_t)n));
    /* The handshake answer, byte by byte so no frame is read with it. */
    char buf[2048] = "";
    size_t len = 0;
    while (len < sizeof buf - 1 && !strstr(buf, "\r\n\r\n")) {
        struct pollfd q = {fd, POLLIN, 0};
        if (poll(&q, 1, SC_WAIT_MS) <= 0 || recv(fd, buf + len, 1, 0) != 1)
            fail_msg("WebSocket %s: no handshake", path);
        buf[++len] = '\0';
    }
    if (!strstr(buf, " 101 ") || (accept && !strstr(buf, accept)))
        fail_msg("WebSocket %s: %s", path, buf);
    return fd;
}

static inline int sc_ws_open_from(int port, const char *path, const char *from)
{
    return sc_ws_open_as(port, path, from, NULL);
}

static inline int sc_ws_open(int port, const char *path)
{
    return sc_ws_open_from(port, path, "127.0.0.1");
}

/* The next frame within ms: its opcode (1 text, 8 close), the payload
 * malloc'ed in *text; -1 if none comes or the socket closes. */
static inline int sc_ws_frame(int fd, int ms, char **text, size_t *len_out)
{
    unsigned char h[10];
    *text = NULL;
    struct pollfd q = {fd, POLLIN, 0};
    if (poll(&q, 1, ms) <= 0 || recv(fd, h, 2, MSG_WAITALL) != 2)
        return -1;
    uint64_t len = h[1] & 0x7F;
    if (len == 126) {
        if (recv(fd, h + 2, 2, MSG_WAITALL) != 2)
            return -1;
        len = (uint64_t)h[2] << 8 | h[3];
    } else if (len == 127) {
        if (recv(fd, h + 2, 8, MSG_WAITALL) != 8)
            return -1;
        len = 0;
        for (int i = 2; i < 10; i++)
            len = len << 8 | h[i];
    }
    char *buf = malloc(len + 1);
    if (len && recv(fd, buf, len, MSG_WAITALL) != (ssize_t)len) {
        free(buf);
        return -1;
    }
    buf[len] = '\0';
    *text = buf;
    if (len_out)
        *len_out = (size_t)len;
    return h[0] & 0x0F;
}

/* Sends one masked frame of opcode with payload data[0..len). */
static inline bool sc_ws_send_frame(int fd, int opcode, bool fin, const void *data, size_t len)
{
    unsigned char head[14];
    size_t n = 0;
    head[n++] = (unsigned char)((fin ? 0x80 : 0) | opcode);
    if (len < 126) {
        head[n++] = (unsigned char)(0x80 | len);
    } else if (len < 65536) {
        head[n++] = 0x80 | 126;
        head[n++] = (unsigned char)(len >> 8);
        head[n++] = (unsigned char)len;
    } else {
        head[n++] = 0x80 | 127;
        for (int i = 7; i >= 0; i--)
            head[n++] = (unsigned char)((uint64_t)len >> (8 * i));
    }
    static const unsigned char mask[4] = {1, 2, 3, 4};
    memcpy(head + n, mask, 4);
    n += 4;
    unsigned char *frame = malloc(n + len);
    memcpy(frame, head, n);
    for (size_t i = 0; i < len; i++)
        frame[n + i] = (unsigned char)(((const unsigned char *)data)[i] ^ mask[i % 4]);
    bool ok = net_send_all(fd, frame, n + len);
    free(frame);
    return ok;
}

static inline void sc_ws_write(int fd, const char *text)
{
    assert_true(sc_ws_send_frame(fd, 1, true, text, strlen(text)));
}

/* The next message, which must be a JSON object of that type. */
static inline json_t *sc_ws_expect(int fd, const char *type)
{
    char *text;
    int op = sc_ws_frame(fd, SC_WAIT_MS, &text, NULL);
    if (op != 1)
        fail_msg("no '%s' message (frame %d: %s)", type, op, text ? text : "");
    json_t *o = json_loads(text, 0, NULL);
    if (!o || !json_is_string(json_object_get(o, "type")) ||
        strcmp(json_string_value(json_object_get(o, "type")), type) != 0)
        fail_msg("expected a '%s' message, got %s", type, text);
    free(text);
    return o;
}

/* Whether no message comes within ms. */
static inline bool sc_ws_quiet(int fd, int ms)
{
    struct pollfd q = {fd, POLLIN, 0};
    return poll(&q, 1, ms) == 0;
}

#endif
