/* SPDX-License-Identifier: MIT */
/*
 * test_server.c - `damier serve` on loopback, driven as a browser would:
 * plain sockets, HTTP/1.1 requests and a minimal WebSocket client (the
 * handshake, masked text frames out, unmasked frames in).
 *
 * The API walk calls every endpoint of docs/api.md and the bad inputs a
 * server meets (malformed JSON, a 70 KiB body, wrong tokens, moves out of
 * turn and illegal, unknown games and paths, ".." in paths) and checks
 * each answer and that a refused request changed nothing.  The WebSocket
 * test has a spectator see a move and fail to make one.  The restart test
 * kills the server with SIGKILL after acknowledged moves, starts it again
 * on the same database and finds every acknowledged move, the games going
 * on, and the computer's pending move made after the restart.
 */
#include "testutil.h"

#include <arpa/inet.h>
#include <jansson.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WAIT_MS 30000

struct server {
    pid_t pid;
    int out;            /* its standard output                            */
    int port;
    char dir[64];       /* the test's folder: the database, web/          */
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void pause_ms(int ms)
{
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A fresh folder with a small web/ of each file type the app uses. */
static void make_dir(struct server *s)
{
    snprintf(s->dir, sizeof s->dir, "/tmp/damier-server-XXXXXX");
    assert_non_null(mkdtemp(s->dir));
    char web[128];
    snprintf(web, sizeof web, "%s/web", s->dir);
    assert_int_equal(mkdir(web, 0755), 0);
    write_file(web, "index.html", "<!doctype html><title>app</title>\n");
    write_file(web, "app.mjs", "export const app = 1;\n");
    write_file(web, "style.css", "body { margin: 0 }\n");
    write_file(web, "board.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n");
    write_file(web, "data.json", "{}\n");
}

/* The servers a test started, killed by its teardown if a failure left
 * them running. */
static pid_t started[8];

static int kill_servers(void **state_)
{
    (void)state_;
    for (int i = 0; i < 8; i++)
        if (started[i] > 0) {
            kill(started[i], SIGKILL);
            waitpid(started[i], NULL, 0);
            started[i] = 0;
        }
    return 0;
}

/* Starts damier serve on the folder's database, port 0, with the options
 * extra (NULL-ended, or NULL); reads the port off its "Damier is at
 * http://127.0.0.1:PORT/" line. */
static void start_with(struct server *s, const char *const *extra)
{
    const char *bin = tu_env("DAMIER_BIN", "build/damier");
    char file[128], web[128];
    snprintf(file, sizeof file, "%s/damier.db", s->dir);
    /* DAMIER_TEST_DB runs the suite on another store: a postgresql:// URL
     * (tests/cli/store_pg.sh). */
    const char *db = tu_env("DAMIER_TEST_DB", file);
    snprintf(web, sizeof web, "%s/web", s->dir);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    s->pid = fork();
    assert_true(s->pid >= 0);
    if (s->pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        const char *argv[24] = {bin,  "serve", "--listen",         "127.0.0.1:0", "--db", db,
                                "--web", web,   "--engine-threads", "2"};
        for (int i = 0; extra && extra[i] && i < 12; i++)
            argv[10 + i] = extra[i];
        execv(bin, (char *const *)argv);
        _exit(127);
    }
    close(fds[1]);
    for (int i = 0; i < 8; i++)
        if (started[i] <= 0) {
            started[i] = s->pid;
            break;
        }
    s->out = fds[0];
    char line[512] = "";
    size_t len = 0;
    int64_t deadline = now_ms() + WAIT_MS;
    const char *at = NULL;
    while (!(at = strstr(line, "http://127.0.0.1:")) || !strchr(at, '\n')) {
        struct pollfd q = {s->out, POLLIN, 0};
        int64_t left = deadline - now_ms();
        if (left <= 0 || poll(&q, 1, (int)left) <= 0)
            fail_msg("damier serve printed no address");
        ssize_t r = read(s->out, line + len, sizeof line - len - 1);
        if (r <= 0)
            fail_msg("damier serve ended before printing its address");
        len += (size_t)r;
        line[len] = '\0';
    }
    assert_non_null(strstr(line, "Damier is at http://127.0.0.1:"));
    s->port = atoi(at + strlen("http://127.0.0.1:"));
    assert_true(s->port > 0);
}

static void start(struct server *s)
{
    start_with(s, NULL);
}

/* Ends the server with sig; for SIGTERM it must exit 0. */
static void stop(struct server *s, int sig)
{
    int status;
    kill(s->pid, sig);
    int64_t deadline = now_ms() + WAIT_MS;
    while (waitpid(s->pid, &status, WNOHANG) == 0) {
        if (now_ms() > deadline) {
            kill(s->pid, SIGKILL);
            waitpid(s->pid, &status, 0);
            fail_msg("damier serve did not stop");
        }
        pause_ms(10);
    }
    close(s->out);
    for (int i = 0; i < 8; i++)
        if (started[i] == s->pid)
            started[i] = 0;
    if (sig == SIGTERM)
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void remove_dir(struct server *s)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s->dir);
    assert_int_equal(system(cmd), 0);
}

static int connect_to(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    return fd;
}

static void send_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        assert_true(n > 0);
        p += n;
        len -= (size_t)n;
    }
}

/* Reads from fd until buf holds need bytes (or the end); the length. */
static size_t read_until(int fd, char *buf, size_t size, size_t have, size_t need)
{
    while (have < need && have < size - 1) {
        struct pollfd q = {fd, POLLIN, 0};
        if (poll(&q, 1, WAIT_MS) <= 0)
            break;
        ssize_t r = recv(fd, buf + have, size - 1 - have, 0);
        if (r <= 0)
            break;
        have += (size_t)r;
    }
    buf[have] = '\0';
    return have;
}

struct reply {
    int status;
    char headers[4096];
    char *body;         /* malloc'ed, '\0'-terminated                      */
    json_t *json;       /* the body parsed, or NULL                        */
};

static void reply_free(struct reply *r)
{
    free(r->body);
    json_decref(r->json);
    memset(r, 0, sizeof *r);
}

/* One HTTP request (raw: the request line's path as given) and its answer. */
static void http(int port, const char *method, const char *path, const char *body,
                 size_t body_len, const char *extra, struct reply *r)
{
    memset(r, 0, sizeof *r);
    int fd = connect_to(port);
    char head[1024];
    int n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s%s", method, path, extra ? extra : "",
                     body ? "Content-Type: application/json\r\n" : "");
    if (body)
        n += snprintf(head + n, sizeof head - (size_t)n, "Content-Length: %zu\r\n", body_len);
    n += snprintf(head + n, sizeof head - (size_t)n, "\r\n");
    send_all(fd, head, (size_t)n);
    if (body)
        send_all(fd, body, body_len);
    size_t cap = 1 << 20;
    char *buf = malloc(cap);
    buf[0] = '\0';
    size_t len = 0;
    char *end = NULL;
    while (!(end = strstr(buf, "\r\n\r\n"))) {
        size_t before = len;
        len = read_until(fd, buf, cap, len, len + 1);
        if (len == before) {
            free(buf);
            close(fd);
            fail_msg("%s %s: no answer", method, path);
        }
    }
    size_t hlen = (size_t)(end - buf) + 4;
    snprintf(r->headers, sizeof r->headers, "%.*s", (int)hlen, buf);
    for (char *c = r->headers; *c; c++)
        *c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
    r->status = atoi(buf + 9);
    const char *cl = strstr(r->headers, "content-length:");
    size_t clen = cl ? (size_t)atol(cl + 15) : 0;
    len = read_until(fd, buf, cap, len, hlen + clen);
    close(fd);
    r->body = strndup(buf + hlen, len - hlen);
    free(buf);
    r->json = json_loads(r->body, 0, NULL);
}

static void get(int port, const char *path, struct reply *r)
{
    http(port, "GET", path, NULL, 0, NULL, r);
}

static void post(int port, const char *path, const char *body, struct reply *r)
{
    http(port, "POST", path, body, strlen(body), NULL, r);
}

/* An error answer: status, a JSON object whose "error" is a string. */
static void expect_error(struct reply *r, int status, const char *what)
{
    if (r->status != status)
        fail_msg("%s: status %d, expected %d: %s", what, r->status, status, r->body);
    if (!json_is_string(json_object_get(r->json, "error")))
        fail_msg("%s: no JSON error: %s", what, r->body);
    reply_free(r);
}

static const char *jstr(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    if (!s)
        fail_msg("no string '%s' in %s", key, json_dumps(o, JSON_COMPACT));
    return s;
}

static int jint(json_t *o, const char *key)
{
    return (int)json_integer_value(json_object_get(o, key));
}

/* A new game from body: its id and token (the answer 201). */
static void create(int port, const char *body, char *id, char *token, struct reply *out)
{
    struct reply r;
    post(port, "/api/games", body, &r);
    if (r.status != 201)
        fail_msg("POST /api/games %s: %d %s", body, r.status, r.body);
    snprintf(id, 16, "%s", jstr(r.json, "id"));
    snprintf(token, 48, "%s", jstr(r.json, "token"));
    if (out)
        *out = r;
    else
        reply_free(&r);
}

/* POST a move; the status. */
static int move(int port, const char *id, const char *token, const char *mv, struct reply *out)
{
    char path[128], body[256];
    snprintf(path, sizeof path, "/api/games/%s/moves", id);
    snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\"}", mv, token);
    struct reply r;
    post(port, path, body, &r);
    int status = r.status;
    if (out)
        *out = r;
    else
        reply_free(&r);
    return status;
}

static int action(int port, const char *id, const char *token, const char *act)
{
    char path[128], body[256];
    snprintf(path, sizeof path, "/api/games/%s/actions", id);
    snprintf(body, sizeof body, "{\"action\":\"%s\",\"token\":\"%s\"}", act, token);
    struct reply r;
    post(port, path, body, &r);
    int status = r.status;
    reply_free(&r);
    return status;
}

/* GET /api/games/{id} into r (200 expected). */
static void state(int port, const char *id, struct reply *r)
{
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s", id);
    get(port, path, r);
    if (r->status != 200 || !r->json)
        fail_msg("GET %s: %d %s", path, r->status, r->body);
}

static int ply_of(int port, const char *id)
{
    struct reply r;
    state(port, id, &r);
    int ply = jint(r.json, "ply");
    reply_free(&r);
    return ply;
}

/* Waits until game id reaches ply (the computer's answer); false on time. */
static bool wait_ply(int port, const char *id, int ply)
{
    int64_t deadline = now_ms() + WAIT_MS;
    while (ply_of(port, id) < ply) {
        if (now_ms() > deadline)
            return false;
        pause_ms(20);
    }
    return true;
}

/* ---- the API walk ------------------------------------------------------- */

static void test_static_files(void **state_)
{
    (void)state_;
    struct server s;
    make_dir(&s);
    start(&s);
    static const struct {
        const char *path, *type;
    } files[] = {
        {"/", "text/html"},         {"/game/abc123", "text/html"}, {"/join/xyz", "text/html"},
        {"/app.mjs", "text/javascript"}, {"/style.css", "text/css"},
        {"/board.svg", "image/svg+xml"}, {"/data.json", "application/json"},
    };
    struct reply r;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        get(s.port, files[i].path, &r);
        if (r.status != 200)
            fail_msg("GET %s: %d", files[i].path, r.status);
        char want[80];
        snprintf(want, sizeof want, "content-type: %s", files[i].type);
        if (!strstr(r.headers, want))
            fail_msg("GET %s: not %s:\n%s", files[i].path, files[i].type, r.headers);
        assert_non_null(strstr(r.headers, "content-security-policy: default-src 'none'; script-src 'self'"));
        assert_non_null(strstr(r.headers, "cache-control:"));
        reply_free(&r);
    }
    get(s.port, "/game/abc123", &r);
    assert_non_null(strstr(r.body, "<title>app</title>"));
    reply_free(&r);
    get(s.port, "/missing.js", &r);
    expect_error(&r, 404, "a missing file");
    /* ".." never leaves web/, spelt out or percent-encoded. */
    static const char *const escapes[] = {"/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
                                          "/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd", "/api/..%2f..%2fetc/passwd",
                                          "/web/../../damier.db"};
    for (size_t i = 0; i < sizeof escapes / sizeof escapes[0]; i++) {
        get(s.port, escapes[i], &r);
        if (r.status < 400 || r.status > 404 || strstr(r.body, "root:") || strstr(r.body, "SQLite"))
            fail_msg("GET %s: %d %s", escapes[i], r.status, r.body);
        reply_free(&r);
    }
    stop(&s, SIGTERM);
    remove_dir(&s);
}

static void test_api(void **state_)
{
    (void)state_;
    struct server s;
    make_dir(&s);
    start(&s);
    int port = s.port;
    struct reply r;
    char id[16], token[48], path[256];

    /* GET /api/variants: the whole table, with the geometry. */
    get(port, "/api/variants", &r);
    assert_int_equal(r.status, 200);
    assert_true(json_is_array(r.json));
    assert_int_equal(json_array_size(r.json), dm_variant_count());
    for (int i = 0; i < dm_variant_count(); i++) {
        json_t *v = json_array_get(r.json, (size_t)i);
        assert_string_equal(jstr(v, "id"), dm_variant_id(dm_variant_at(i)));
        json_t *board = json_object_get(v, "board");
        assert_int_equal(json_array_size(json_object_get(board, "cells")),
                         dm_variant_cells(dm_variant_at(i)));
        assert_true(strlen(jstr(v, "rules")) > 10);
        assert_non_null(json_object_get(json_object_get(v, "draw_rules"), "official"));
    }
    reply_free(&r);

    /* Bad requests: 400, 413, 404, nothing created. */
    post(port, "/api/games", "{\"variant\":", &r);
    expect_error(&r, 400, "malformed JSON");
    post(port, "/api/games", "[1,2]", &r);
    expect_error(&r, 400, "not an object");
    post(port, "/api/games", "{\"variant\":\"chess\"}", &r);
    expect_error(&r, 400, "an unknown variant");
    post(port, "/api/games", "{\"variant\":7}", &r);
    expect_error(&r, 400, "a number for a string");
    post(port, "/api/games", "{\"clock\":\"soon\"}", &r);
    expect_error(&r, 400, "a bad clock");
    post(port, "/api/games", "{\"fen\":\"W:W99:B1\"}", &r);
    expect_error(&r, 400, "a bad FEN");
    post(port, "/api/games", "{\"opponent\":{\"type\":\"computer\",\"level\":9}}", &r);
    expect_error(&r, 400, "a bad level");
    post(port, "/api/games", "{\"side\":\"red\"}", &r);
    expect_error(&r, 400, "a bad side");
    size_t big = 70 * 1024;
    char *huge = malloc(big + 1);
    memset(huge, ' ', big);
    huge[0] = '{';
    huge[big - 1] = '}';
    http(port, "POST", "/api/games", huge, big, NULL, &r);
    expect_error(&r, 413, "a 70 KiB body");
    free(huge);
    get(port, "/api/games/nosuchgame", &r);
    expect_error(&r, 404, "an unknown game");
    post(port, "/api/games/nosuchgame/moves", "{\"move\":\"32-28\",\"token\":\"x\"}", &r);
    expect_error(&r, 404, "a move in an unknown game");
    get(port, "/api/nothing", &r);
    expect_error(&r, 404, "an unknown API path");
    post(port, "/api/join/nosuchcode", "{}", &r);
    expect_error(&r, 404, "an unknown invite");

    /* A local game: one token moves both sides. */
    create(port, "{\"variant\":\"international\",\"opponent\":{\"type\":\"local\"},\"side\":\"white\"}",
           id, token, NULL);
    state(port, id, &r);
    assert_int_equal(jint(r.json, "ply"), 0);
    assert_string_equal(jstr(r.json, "turn"), "white");
    assert_string_equal(jstr(r.json, "status"), "playing");
    assert_int_equal(json_array_size(json_object_get(r.json, "legal")), 9);
    assert_null(json_object_get(r.json, "you"));
    assert_true(json_is_null(json_object_get(r.json, "must_capture")));
    int seq0 = jint(r.json, "seq");
    reply_free(&r);
    assert_int_equal(move(port, id, "wrongtoken", "32-28", NULL), 403);
    assert_int_equal(move(port, id, "", "32-28", NULL), 403);
    assert_int_equal(move(port, id, token, "32-26", &r), 409);
    assert_non_null(strstr(jstr(r.json, "error"), "32-26"));
    reply_free(&r);
    assert_int_equal(move(port, id, token, "99-98", NULL), 409);
    snprintf(path, sizeof path, "/api/games/%s/moves", id);
    post(port, path, "{\"move\":32}", &r);
    expect_error(&r, 400, "a move as a number");
    post(port, path, "{\"move\":", &r);
    expect_error(&r, 400, "a malformed move body");
    state(port, id, &r);
    assert_int_equal(jint(r.json, "ply"), 0); /* nothing changed */
    assert_int_equal(jint(r.json, "seq"), seq0);
    reply_free(&r);
    assert_int_equal(move(port, id, token, "32-28", &r), 200);
    assert_int_equal(jint(r.json, "ply"), 1);
    assert_string_equal(jstr(r.json, "you"), "both");
    assert_true(jint(r.json, "seq") > seq0);
    reply_free(&r);
    /* The token in the Authorization header, then ?token= on a GET. */
    char auth[128], body[128];
    snprintf(auth, sizeof auth, "Authorization: Bearer %s\r\n", token);
    snprintf(body, sizeof body, "{\"move\":\"18-23\"}");
    http(port, "POST", path, body, strlen(body), auth, &r);
    assert_int_equal(r.status, 200);
    reply_free(&r);
    snprintf(path, sizeof path, "/api/games/%s?token=%s", id, token);
    get(port, path, &r);
    assert_string_equal(jstr(r.json, "you"), "both");
    json_t *moves = json_object_get(r.json, "moves");
    assert_int_equal(json_array_size(moves), 2);
    assert_string_equal(json_string_value(json_array_get(moves, 1)), "18-23");
    json_t *pos = json_object_get(r.json, "position");
    assert_int_equal(json_array_size(json_object_get(pos, "pieces")), 40);
    reply_free(&r);
    /* An earlier position, for a client reviewing the moves. */
    snprintf(path, sizeof path, "/api/games/%s?token=%s&ply=1", id, token);
    get(port, path, &r);
    assert_int_equal(r.status, 200);
    assert_int_equal(jint(r.json, "ply"), 1);
    assert_int_equal(jint(r.json, "plies"), 2);
    assert_string_equal(jstr(r.json, "move"), "32-28");
    assert_string_equal(jstr(r.json, "turn"), "black");
    assert_string_equal(jstr(r.json, "fen"), "B:W28,31,33-50:B1-20");
    assert_int_equal(json_array_size(json_object_get(json_object_get(r.json, "position"), "pieces")),
                     40);
    reply_free(&r);
    snprintf(path, sizeof path, "/api/games/%s?ply=0", id);
    get(port, path, &r);
    assert_int_equal(r.status, 200);
    assert_true(json_is_null(json_object_get(r.json, "move")));
    assert_string_equal(jstr(r.json, "fen"), "W:W31-50:B1-20");
    reply_free(&r);
    static const char *const bad_plies[] = {"3", "-1", "x", "", "1x"};
    for (size_t i = 0; i < sizeof bad_plies / sizeof bad_plies[0]; i++) {
        snprintf(path, sizeof path, "/api/games/%s?ply=%s", id, bad_plies[i]);
        get(port, path, &r);
        expect_error(&r, 400, "a ply out of range");
    }
    assert_int_equal(action(port, id, token, "dance"), 400);
    assert_int_equal(action(port, id, "nope", "resign"), 403);
    assert_int_equal(action(port, id, token, "accept-draw"), 409); /* no offer */
    assert_int_equal(action(port, id, token, "resign"), 200);
    state(port, id, &r);
    assert_string_equal(jstr(r.json, "status"), "over");
    assert_string_equal(jstr(r.json, "result"), "0-2");
    assert_int_equal(json_array_size(json_object_get(r.json, "legal")), 0);
    reply_free(&r);
    assert_int_equal(move(port, id, token, "33-28", NULL), 409); /* game over */

    /* A compulsory capture comes with its reason, in the terminal's words. */
    char cid[16], ctok[48];
    create(port, "{\"fen\":\"W:W32,45:B27,17,5\",\"opponent\":{\"type\":\"local\"}}", cid,
           ctok, NULL);
    state(port, cid, &r);
    assert_string_equal(jstr(r.json, "must_capture"),
                        "a capture is compulsory: 32x12 takes the most pieces (2)");
    reply_free(&r);
    create(port, "{\"variant\":\"russian\",\"fen\":\"W:Wc3,e3:Bd4,f6\",\"opponent\":{\"type\":\"local\"}}",
           cid, ctok, NULL);
    state(port, cid, &r);
    assert_string_equal(jstr(r.json, "must_capture"),
                        "a capture is compulsory: c3:g7 or e3:c5");
    reply_free(&r);

    /* Frisian: each side's king that made the last quiet moves, counted. */
    create(port, "{\"variant\":\"frisian\",\"fen\":\"W:WK46,36:BK1,15\",\"opponent\":{\"type\":\"local\"}}",
           cid, ctok, NULL);
    state(port, cid, &r);
    assert_int_equal(json_array_size(json_object_get(r.json, "king_moves")), 0);
    reply_free(&r);
    assert_int_equal(move(port, cid, ctok, "46-37", NULL), 200);
    assert_int_equal(move(port, cid, ctok, "1-7", NULL), 200);
    assert_int_equal(move(port, cid, ctok, "37-41", &r), 200);
    char *kings = json_dumps(json_object_get(r.json, "king_moves"), JSON_COMPACT);
    assert_string_equal(kings, "[{\"color\":\"white\",\"square\":\"41\",\"count\":2},"
                               "{\"color\":\"black\",\"square\":\"7\",\"count\":1}]");
    free(kings);
    reply_free(&r);

    /* A friend game with a clock: the invite, turns, a draw agreed. */
    create(port, "{\"variant\":\"russian\",\"side\":\"white\",\"opponent\":{\"type\":\"friend\"},"
                 "\"clock\":\"5+3\"}",
           id, token, &r);
    char invite[64];
    snprintf(invite, sizeof invite, "%s", jstr(r.json, "invite"));
    assert_true(strncmp(invite, "/join/", 6) == 0);
    assert_string_equal(jstr(r.json, "side"), "white");
    reply_free(&r);
    /* No clock runs before the friend has come and both have moved once. */
    pause_ms(300);
    state(port, id, &r);
    json_t *clock = json_object_get(r.json, "clock");
    assert_true(json_is_null(json_object_get(clock, "running")));
    assert_int_equal(jint(clock, "white_ms"), 300000);
    reply_free(&r);
    snprintf(path, sizeof path, "/api%s", invite);
    post(port, path, "", &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(jstr(r.json, "side"), "black");
    assert_string_equal(jstr(r.json, "id"), id);
    char black[48];
    snprintf(black, sizeof black, "%s", jstr(r.json, "token"));
    reply_free(&r);
    post(port, path, "", &r);
    expect_error(&r, 409, "an invite used twice");
    assert_int_equal(move(port, id, black, "f6-g5", NULL), 409); /* not black's turn */
    pause_ms(200);
    assert_int_equal(move(port, id, token, "c3-d4", &r), 200);
    clock = json_object_get(r.json, "clock");
    assert_true(json_is_null(json_object_get(clock, "running")));
    assert_int_equal(jint(clock, "white_ms"), 300000); /* untimed, no increment */
    reply_free(&r);
    assert_int_equal(move(port, id, token, "e3-f4", NULL), 409); /* out of turn */
    pause_ms(200);
    assert_int_equal(move(port, id, black, "f6-g5", &r), 200);
    clock = json_object_get(r.json, "clock");
    assert_string_equal(jstr(clock, "control"), "5+3");
    assert_string_equal(jstr(clock, "running"), "white");
    assert_int_equal(jint(clock, "black_ms"), 300000);
    assert_true(jint(clock, "white_ms") > 290000 && jint(clock, "white_ms") <= 300000);
    reply_free(&r);
    pause_ms(100);
    state(port, id, &r);
    assert_true(jint(json_object_get(r.json, "clock"), "white_ms") < 300000);
    reply_free(&r);
    assert_int_equal(action(port, id, token, "offer-draw"), 200);
    state(port, id, &r);
    assert_string_equal(jstr(r.json, "draw_offer"), "white");
    reply_free(&r);
    assert_int_equal(action(port, id, black, "accept-draw"), 200);
    state(port, id, &r);
    assert_string_equal(jstr(r.json, "status"), "over");
    assert_string_equal(jstr(r.json, "result"), "1/2-1/2"); /* as Russian writes it */
    reply_free(&r);
    /* A rematch: the colours changed, the friend told by the old game. */
    snprintf(path, sizeof path, "/api/games/%s/rematch", id);
    snprintf(body, sizeof body, "{\"token\":\"%s\"}", black);
    post(port, path, body, &r);
    assert_int_equal(r.status, 201);
    assert_string_equal(jstr(r.json, "side"), "white");
    char again[16], again_invite[64], again_token[48];
    snprintf(again, sizeof again, "%s", jstr(r.json, "id"));
    snprintf(again_token, sizeof again_token, "%s", jstr(r.json, "token"));
    snprintf(again_invite, sizeof again_invite, "%s", jstr(r.json, "invite"));
    reply_free(&r);
    post(port, path, body, &r);
    expect_error(&r, 409, "a second rematch");
    snprintf(path, sizeof path, "/api/games/%s?token=%s", id, token);
    get(port, path, &r);
    assert_string_equal(jstr(r.json, "rematch"), again_invite);
    reply_free(&r);
    snprintf(path, sizeof path, "/api/games/%s?token=%s", id, black);
    get(port, path, &r);
    assert_true(json_is_null(json_object_get(r.json, "rematch")));
    reply_free(&r);
    state(port, id, &r); /* a spectator never sees the invite */
    assert_true(json_is_null(json_object_get(r.json, "rematch")));
    reply_free(&r);
    snprintf(path, sizeof path, "/api%s", again_invite);
    post(port, path, "", &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(jstr(r.json, "side"), "black");
    assert_string_equal(jstr(r.json, "id"), again);
    reply_free(&r);
    /* Its invite used, the finished game leaves memory (nobody watches it)
     * and is read back from the store, whole, when asked for. */
    pause_ms(500);
    snprintf(path, sizeof path, "/api/games/%s?token=%s", id, token);
    get(port, path, &r);
    assert_true(json_is_null(json_object_get(r.json, "rematch")));
    assert_string_equal(jstr(r.json, "result"), "1/2-1/2");
    assert_string_equal(jstr(r.json, "you"), "white");
    assert_int_equal(jint(r.json, "ply"), 2);
    reply_free(&r);
    state(port, again, &r);
    assert_string_equal(jstr(json_object_get(r.json, "clock"), "control"), "5+3");
    assert_string_equal(jstr(r.json, "variant"), "russian");
    reply_free(&r);
    snprintf(path, sizeof path, "/api/games/%s/rematch", again);
    snprintf(body, sizeof body, "{\"token\":\"%s\"}", again_token);
    post(port, path, body, &r);
    expect_error(&r, 409, "a rematch of a game still on");

    snprintf(path, sizeof path, "/api/games/%s/pdn", id);
    get(port, path, &r);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.headers, "content-type: text/plain"));
    assert_non_null(strstr(r.body, "[Result \"1/2-1/2\"]"));
    assert_non_null(strstr(r.body, "1. c3-d4"));
    reply_free(&r);

    /* Import: the game goes on from the end of the file. */
    post(port, "/api/import",
         "{\"pdn\":\"[GameType \\\"20\\\"]\\n1. 32-28 18-23 2. 37-32 *\",\"opponent\":{\"type\":\"local\"}}",
         &r);
    assert_int_equal(r.status, 201);
    snprintf(id, sizeof id, "%s", jstr(r.json, "id"));
    snprintf(token, sizeof token, "%s", jstr(r.json, "token"));
    reply_free(&r);
    assert_int_equal(ply_of(port, id), 3);
    assert_int_equal(move(port, id, token, "12-18", NULL), 200);
    post(port, "/api/import", "{\"pdn\":\"1. 32-99 *\"}", &r);
    expect_error(&r, 400, "a bad PDN");
    post(port, "/api/import", "{}", &r);
    expect_error(&r, 400, "no PDN");

    /* Analysis, with moves and without. */
    post(port, "/api/analysis", "{\"variant\":\"international\",\"moves\":[\"32-28\"],\"nodes\":50000}", &r);
    assert_int_equal(r.status, 200);
    assert_true(strlen(jstr(r.json, "best")) >= 5);
    assert_true(json_is_number(json_object_get(r.json, "score")));
    assert_true(json_array_size(json_object_get(r.json, "pv")) >= 1);
    reply_free(&r);
    post(port, "/api/analysis", "{\"moves\":[\"32-26\"]}", &r);
    expect_error(&r, 409, "an analysis after an illegal move");
    post(port, "/api/analysis", "{\"nodes\":-5}", &r);
    expect_error(&r, 400, "a negative node budget");

    /* Against the computer: its answer comes, a takeback is granted. */
    create(port, "{\"side\":\"white\",\"opponent\":{\"type\":\"computer\",\"level\":1}}", id, token,
           NULL);
    assert_int_equal(move(port, id, token, "32-28", NULL), 200);
    assert_true(wait_ply(port, id, 2));
    state(port, id, &r);
    json_t *players = json_object_get(r.json, "players");
    assert_string_equal(jstr(json_object_get(players, "black"), "type"), "computer");
    assert_int_equal(jint(json_object_get(players, "black"), "level"), 1);
    reply_free(&r);
    assert_int_equal(action(port, id, token, "takeback"), 200);
    assert_int_equal(ply_of(port, id), 0);
    /* The computer moving first. */
    create(port, "{\"side\":\"black\",\"opponent\":{\"type\":\"computer\",\"level\":2}}", id, token,
           NULL);
    assert_true(wait_ply(port, id, 1));

    stop(&s, SIGTERM);
    remove_dir(&s);
}

/* ---- limits ---------------------------------------------------------------- */

/* New games: a few a minute from one address (429), a few unfinished at
 * once on the server (503), each refusal a JSON error naming its limit. */
static void test_limits(void **state_)
{
    (void)state_;
    struct server s;
    make_dir(&s);
    /* The store may hold unfinished games already (DAMIER_TEST_DB: a
     * database the suite's other tests used): room for two more. */
    struct reply r;
    start(&s);
    get(s.port, "/healthz", &r);
    assert_int_equal(r.status, 200);
    int held = jint(r.json, "games");
    reply_free(&r);
    stop(&s, SIGTERM);
    char max_games[16], refusal[32];
    snprintf(max_games, sizeof max_games, "%d", held + 2);
    snprintf(refusal, sizeof refusal, "max_games %d)", held + 2);
    const char *const limits[] = {"--games-per-minute", "4", "--max-games", max_games, NULL};
    start_with(&s, limits);
    char id[16], token[48], first[16], first_token[48];
    static const char local[] = "{\"opponent\":{\"type\":\"local\"}}";
    create(s.port, local, first, first_token, NULL);
    create(s.port, local, id, token, NULL);
    post(s.port, "/api/games", local, &r);
    assert_int_equal(r.status, 503);
    assert_non_null(strstr(jstr(r.json, "error"), refusal));
    reply_free(&r);
    /* A game ended makes room. */
    assert_int_equal(action(s.port, first, first_token, "resign"), 200);
    post(s.port, "/api/import", "{\"pdn\":\"1. 32-28 *\",\"opponent\":{\"type\":\"local\"}}", &r);
    assert_int_equal(r.status, 201);
    reply_free(&r);
    /* The fifth request of the minute (the refused one counted too). */
    post(s.port, "/api/games", local, &r);
    assert_int_equal(r.status, 429);
    assert_non_null(strstr(jstr(r.json, "error"), "at most 4 a minute from one address"));
    reply_free(&r);
    post(s.port, "/api/import", "{\"pdn\":\"1. 32-28 *\"}", &r);
    expect_error(&r, 429, "an import past the rate");
    /* Playing on is not limited. */
    assert_int_equal(move(s.port, id, token, "32-28", NULL), 200);
    stop(&s, SIGTERM);
    remove_dir(&s);
}

/* ---- draw offers to the computer ----------------------------------------- */

/* Waits until game id is over; false on time. */
static bool wait_over(int port, const char *id)
{
    int64_t deadline = now_ms() + WAIT_MS;
    for (;;) {
        struct reply r;
        state(port, id, &r);
        bool over = strcmp(jstr(r.json, "status"), "over") == 0;
        reply_free(&r);
        if (over)
            return true;
        if (now_ms() > deadline)
            return false;
        pause_ms(20);
    }
}

/* Waits until no draw offer stands in game id; false on time. */
static bool wait_no_offer(int port, const char *id)
{
    int64_t deadline = now_ms() + WAIT_MS;
    for (;;) {
        struct reply r;
        state(port, id, &r);
        bool offered = json_is_string(json_object_get(r.json, "draw_offer"));
        reply_free(&r);
        if (!offered)
            return true;
        if (now_ms() > deadline)
            return false;
        pause_ms(20);
    }
}

/* A draw offered while the computer thinks is answered, not let lapse. */
static void test_computer_draw(void **state_)
{
    (void)state_;
    struct server s;
    make_dir(&s);
    start(&s);
    char id[16], token[48];
    struct reply r;
    /* Level 8 thinks 2 s a move.  A draw offered while it does, in an
     * even ending, is answered before it moves: accepted. */
    create(s.port, "{\"fen\":\"W:W46,47:B4,5\",\"side\":\"white\",\"opponent\":{\"type\":\"computer\",\"level\":8}}",
           id, token, NULL);
    assert_int_equal(move(s.port, id, token, "46-41", NULL), 200);
    assert_int_equal(action(s.port, id, token, "offer-draw"), 200);
    assert_true(wait_over(s.port, id));
    state(s.port, id, &r);
    assert_string_equal(jstr(r.json, "result"), "1-1");
    assert_int_equal(jint(r.json, "ply"), 1); /* the offer did not lapse by its move */
    reply_free(&r);

    /* In the opening it declines, then plays the move its search found
     * (kept, not searched again: about 1.9 s for the move here, against
     * 3.1 s searching twice; not asserted, the machine's load varies). */
    create(s.port, "{\"side\":\"white\",\"opponent\":{\"type\":\"computer\",\"level\":8}}", id,
           token, NULL);
    assert_int_equal(move(s.port, id, token, "32-28", NULL), 200);
    assert_int_equal(action(s.port, id, token, "offer-draw"), 200);
    assert_true(wait_ply(s.port, id, 2));
    state(s.port, id, &r);
    assert_true(json_is_null(json_object_get(r.json, "draw_offer")));
    assert_string_equal(jstr(r.json, "status"), "playing");
    reply_free(&r);

    /* Level 1 takes a draw in an even opening. */
    create(s.port, "{\"side\":\"white\",\"opponent\":{\"type\":\"computer\",\"level\":1}}", id,
           token, NULL);
    assert_int_equal(move(s.port, id, token, "32-28", NULL), 200);
    assert_int_equal(action(s.port, id, token, "offer-draw"), 200);
    assert_true(wait_over(s.port, id));
    state(s.port, id, &r);
    assert_string_equal(jstr(r.json, "result"), "1-1");
    reply_free(&r);

    /* A man up, it never agrees, whatever its level. */
    create(s.port, "{\"fen\":\"W:W31-50:B1-19\",\"side\":\"black\",\"opponent\":{\"type\":\"computer\",\"level\":1}}",
           id, token, NULL);
    assert_true(wait_ply(s.port, id, 1));
    assert_int_equal(action(s.port, id, token, "offer-draw"), 200);
    assert_true(wait_no_offer(s.port, id));
    state(s.port, id, &r);
    assert_string_equal(jstr(r.json, "status"), "playing");
    reply_free(&r);
    stop(&s, SIGTERM);
    remove_dir(&s);
}

/* ---- WebSocket ---------------------------------------------------------- */

static int ws_open(int port, const char *path)
{
    int fd = connect_to(port);
    char req[512];
    int n = snprintf(req, sizeof req,
                     "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     "Sec-WebSocket-Version: 13\r\n\r\n",
                     path);
    send_all(fd, req, (size_t)n);
    /* The handshake answer, byte by byte so no frame is read with it. */
    char buf[2048];
    size_t len = 0;
    while (len < sizeof buf - 1 && !strstr(buf, "\r\n\r\n")) {
        struct pollfd q = {fd, POLLIN, 0};
        if (poll(&q, 1, WAIT_MS) <= 0 || recv(fd, buf + len, 1, 0) != 1)
            fail_msg("WebSocket %s: no handshake", path);
        buf[++len] = '\0';
    }
    if (!strstr(buf, " 101 ") || !strstr(buf, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))
        fail_msg("WebSocket %s: %s", path, buf);
    return fd;
}

/* The next text message (malloc'ed), or NULL if none comes in ms. */
static char *ws_read(int fd, int ms)
{
    unsigned char h[10];
    struct pollfd q = {fd, POLLIN, 0};
    if (poll(&q, 1, ms) <= 0)
        return NULL;
    if (recv(fd, h, 2, MSG_WAITALL) != 2)
        return NULL;
    uint64_t len = h[1] & 0x7F;
    if (len == 126) {
        assert_int_equal(recv(fd, h + 2, 2, MSG_WAITALL), 2);
        len = (uint64_t)h[2] << 8 | h[3];
    } else if (len == 127) {
        assert_int_equal(recv(fd, h + 2, 8, MSG_WAITALL), 8);
        len = 0;
        for (int i = 2; i < 10; i++)
            len = len << 8 | h[i];
    }
    char *text = malloc(len + 1);
    assert_int_equal(recv(fd, text, len, MSG_WAITALL), (ssize_t)len);
    text[len] = '\0';
    assert_int_equal(h[0] & 0x0F, 1); /* a text frame */
    return text;
}

static void ws_write(int fd, const char *text)
{
    size_t len = strlen(text);
    assert_true(len < 126);
    unsigned char frame[256] = {0x81, (unsigned char)(0x80 | len), 1, 2, 3, 4};
    for (size_t i = 0; i < len; i++)
        frame[6 + i] = (unsigned char)(text[i] ^ frame[2 + i % 4]);
    send_all(fd, frame, 6 + len);
}

/* The next message of type, its "game" ply checked when ply >= 0. */
static json_t *ws_expect(int fd, const char *type)
{
    char *text = ws_read(fd, WAIT_MS);
    if (!text)
        fail_msg("no '%s' message", type);
    json_t *o = json_loads(text, 0, NULL);
    if (!o || strcmp(jstr(o, "type"), type) != 0)
        fail_msg("expected a '%s' message, got %s", type, text);
    free(text);
    return o;
}

static void test_websocket(void **state_)
{
    (void)state_;
    struct server s;
    make_dir(&s);
    start(&s);
    char id[16], token[48], path[128];
    create(s.port, "{\"side\":\"white\",\"opponent\":{\"type\":\"local\"}}", id, token, NULL);
    snprintf(path, sizeof path, "/ws/games/%s", id);
    int watcher = ws_open(s.port, path);
    json_t *o = ws_expect(watcher, "state");
    assert_int_equal(jint(json_object_get(o, "game"), "ply"), 0);
    assert_null(json_object_get(json_object_get(o, "game"), "you"));
    json_decref(o);

    /* A move over HTTP reaches the spectator. */
    assert_int_equal(move(s.port, id, token, "32-28", NULL), 200);
    o = ws_expect(watcher, "state");
    assert_int_equal(jint(json_object_get(o, "game"), "ply"), 1);
    json_decref(o);

    /* The spectator cannot move; ping answers pong. */
    ws_write(watcher, "{\"type\":\"move\",\"move\":\"18-23\"}");
    o = ws_expect(watcher, "error");
    json_decref(o);
    assert_int_equal(ply_of(s.port, id), 1);
    ws_write(watcher, "{\"type\":\"ping\"}");
    o = ws_expect(watcher, "pong");
    json_decref(o);
    ws_write(watcher, "not json");
    o = ws_expect(watcher, "error");
    json_decref(o);

    /* The seat's socket moves, and both sockets see it. */
    snprintf(path, sizeof path, "/ws/games/%s?token=%s", id, token);
    int player = ws_open(s.port, path);
    o = ws_expect(player, "state");
    assert_string_equal(jstr(json_object_get(o, "game"), "you"), "both");
    json_decref(o);
    ws_write(player, "{\"type\":\"move\",\"move\":\"18-23\"}");
    o = ws_expect(player, "state");
    assert_int_equal(jint(json_object_get(o, "game"), "ply"), 2);
    json_decref(o);
    o = ws_expect(watcher, "state");
    assert_int_equal(jint(json_object_get(o, "game"), "ply"), 2);
    json_decref(o);
    assert_int_equal(ply_of(s.port, id), 2);
    close(player);
    close(watcher);

    /* No such game: an error, then the socket closes. */
    int none = ws_open(s.port, "/ws/games/nosuchgame");
    o = ws_expect(none, "error");
    json_decref(o);
    close(none);

    stop(&s, SIGTERM);
    remove_dir(&s);
}

/* ---- kill -9 and restart ------------------------------------------------ */

static void test_restart(void **state_)
{
    (void)state_;
    struct server s;
    make_dir(&s);
    start(&s);
    char fid[16], ftok[48], cid[16], ctok[48], black[48], path[128];
    struct reply r;
    /* A friend game with a clock: four acknowledged moves. */
    create(s.port, "{\"side\":\"white\",\"opponent\":{\"type\":\"friend\"},\"clock\":\"10+5\"}", fid,
           ftok, &r);
    snprintf(path, sizeof path, "/api%s", jstr(r.json, "invite"));
    reply_free(&r);
    post(s.port, path, "", &r);
    snprintf(black, sizeof black, "%s", jstr(r.json, "token"));
    reply_free(&r);
    static const char *const moves[] = {"32-28", "19-23", "28x19", "14x23"};
    for (int i = 0; i < 4; i++)
        assert_int_equal(move(s.port, fid, i % 2 ? black : ftok, moves[i], NULL), 200);
    state(s.port, fid, &r);
    int white_ms = jint(json_object_get(r.json, "clock"), "white_ms");
    reply_free(&r);
    assert_int_equal(action(s.port, fid, black, "offer-draw"), 200);
    /* A timed friend game one move in: its clocks have not started, and
     * must not start with the restart. */
    char hid[16], htok[48];
    create(s.port, "{\"side\":\"white\",\"opponent\":{\"type\":\"friend\"},\"clock\":\"3+2\"}", hid,
           htok, NULL);
    assert_int_equal(move(s.port, hid, htok, "32-28", NULL), 200);
    /* A computer game at a level that thinks for 700 ms: killed before it
     * answers, so its move is still to be made. */
    create(s.port, "{\"side\":\"white\",\"opponent\":{\"type\":\"computer\",\"level\":7}}", cid, ctok,
           NULL);
    assert_int_equal(move(s.port, cid, ctok, "34-29", NULL), 200);
    assert_int_equal(ply_of(s.port, cid), 1);
    stop(&s, SIGKILL);

    start(&s);
    state(s.port, fid, &r);
    json_t *got = json_object_get(r.json, "moves");
    assert_int_equal(json_array_size(got), 4);
    for (int i = 0; i < 4; i++)
        assert_string_equal(json_string_value(json_array_get(got, (size_t)i)), moves[i]);
    assert_string_equal(jstr(r.json, "status"), "playing");
    assert_string_equal(jstr(r.json, "draw_offer"), "black");
    json_t *clock = json_object_get(r.json, "clock");
    assert_string_equal(jstr(clock, "control"), "10+5");
    /* White's time is what it was at its last move (the downtime is not
     * charged), less what runs since the restart. */
    int after = jint(clock, "white_ms");
    if (after > white_ms + 100 || after < white_ms - 5000)
        fail_msg("white had %d ms, has %d after the restart", white_ms, after);
    reply_free(&r);
    state(s.port, hid, &r);
    clock = json_object_get(r.json, "clock");
    assert_true(json_is_null(json_object_get(clock, "running")));
    assert_int_equal(jint(clock, "white_ms"), 180000);
    assert_int_equal(jint(clock, "black_ms"), 180000);
    reply_free(&r);
    assert_int_equal(action(s.port, fid, ftok, "decline-draw"), 200);
    assert_int_equal(move(s.port, fid, ftok, "37-32", NULL), 200);
    assert_int_equal(ply_of(s.port, fid), 5);
    /* The tokens still hold their seats. */
    assert_int_equal(move(s.port, fid, ftok, "31-27", NULL), 409);
    assert_int_equal(move(s.port, fid, black, "20-24", NULL), 200);

    /* The computer's move, lost with the kill, is made now. */
    assert_true(ply_of(s.port, cid) >= 1);
    assert_true(wait_ply(s.port, cid, 2));
    state(s.port, cid, &r);
    assert_string_equal(json_string_value(json_array_get(json_object_get(r.json, "moves"), 0)),
                        "34-29");
    reply_free(&r);
    stop(&s, SIGTERM);

    /* A finished game is read back on demand. */
    start(&s);
    assert_int_equal(action(s.port, cid, ctok, "resign"), 200);
    stop(&s, SIGKILL);
    start(&s);
    state(s.port, cid, &r);
    assert_string_equal(jstr(r.json, "status"), "over");
    assert_non_null(strstr(jstr(r.json, "reason"), "resign"));
    reply_free(&r);
    stop(&s, SIGTERM);
    remove_dir(&s);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_static_files, kill_servers),
        cmocka_unit_test_teardown(test_api, kill_servers),
        cmocka_unit_test_teardown(test_limits, kill_servers),
        cmocka_unit_test_teardown(test_computer_draw, kill_servers),
        cmocka_unit_test_teardown(test_websocket, kill_servers),
        cmocka_unit_test_teardown(test_restart, kill_servers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
