/* SPDX-License-Identifier: MIT */
/*
 * test_access.c - what `damier serve` refuses (issue 12, part 5), each
 * case checked to change nothing and to leave other games playing.
 *
 * A bystander game (a local game on its own, from 127.0.0.1, watched over
 * a WebSocket) stands for every other player: after each refusal it still
 * moves at once and its watcher sees the move.  The cases: a missing or
 * wrong seat token, the other seat's token, a spectator, a replayed and
 * an out-of-turn message (HTTP and WebSocket), malformed JSON, an
 * oversized body, header and WebSocket frame, paths outside web/ (.. and
 * its encoded forms), slow clients that never finish a request, and a
 * flood of connections from one address (127.0.0.2: loopback stands for
 * a second machine).
 */
#include "srvclient.h"

/* The server's limits (server.c, server.h), as a client meets them. */
#define REQUEST_SECONDS 10
#define MAX_PER_ADDRESS 64

struct bystander {
    char id[16], token[48];
    int watcher;         /* a spectator's WebSocket                       */
    int ply;
};

/* The opening the bystander plays, both sides from one token. */
static const char *const BYSTANDER_MOVES[] = {"32-28", "18-23", "37-32", "12-18", "41-37",
                                              "7-12", "46-41", "1-7", "31-26", "17-21",
                                              "36-31", "21-27", "32x21", "16x27", "31x22"};

static void bystander_start(int port, struct bystander *b)
{
    sc_create(port, "{\"variant\":\"international\",\"opponent\":{\"type\":\"local\"}}", b->id,
              b->token, NULL);
    char path[64];
    snprintf(path, sizeof path, "/ws/games/%s", b->id);
    b->watcher = sc_ws_open(port, path);
    json_decref(sc_ws_expect(b->watcher, "state"));
    b->ply = 0;
}

/* The bystander's next move: answered 200 within a second, and its
 * watcher told of it. */
static void bystander_moves(int port, struct bystander *b, const char *after)
{
    int n = (int)(sizeof BYSTANDER_MOVES / sizeof BYSTANDER_MOVES[0]);
    if (b->ply >= n)
        fail_msg("the bystander has no move left (after %s)", after);
    int64_t t0 = net_now_ms();
    int status = sc_move(port, b->id, b->token, BYSTANDER_MOVES[b->ply]);
    int64_t ms = net_now_ms() - t0;
    if (status != 200 || ms > 1000)
        fail_msg("after %s the bystander's move was %d in %lld ms", after, status, (long long)ms);
    b->ply++;
    json_t *o = sc_ws_expect(b->watcher, "state");
    assert_int_equal(sc_int(json_object_get(o, "game"), "ply"), b->ply);
    json_decref(o);
}

/* ---- seats --------------------------------------------------------------- */

static void test_seats(void **state)
{
    (void)state;
    sc_server s;
    sc_make_dir(&s);
    sc_start(&s, NULL);
    struct bystander b;
    bystander_start(s.port, &b);

    /* A friend game: white's token, black's from the invite. */
    char id[16], white[48], black[48], path[160];
    sc_reply r;
    sc_create(s.port, "{\"side\":\"white\",\"opponent\":{\"type\":\"friend\"}}", id, white, &r);
    snprintf(path, sizeof path, "/api%s", sc_str(r.json, "invite"));
    sc_reply_free(&r);
    sc_post(s.port, path, "", &r);
    assert_int_equal(r.status, 200);
    snprintf(black, sizeof black, "%s", sc_str(r.json, "token"));
    sc_reply_free(&r);
    sc_post(s.port, path, "", &r);
    sc_expect_error(&r, 409, "a second join of the invite");
    int seq = sc_seq(s.port, id);

    /* No token, a wrong one, one of another game, the other seat's. */
    snprintf(path, sizeof path, "/api/games/%s/moves", id);
    sc_post(s.port, path, "{\"move\":\"32-28\"}", &r);
    sc_expect_error(&r, 403, "a move without a token");
    sc_post(s.port, path, "{\"move\":\"32-28\",\"token\":\"0123456789abcdef0123456789abcdef\"}", &r);
    sc_expect_error(&r, 403, "a move with a wrong token");
    sc_post(s.port, path, "{\"move\":\"32-28\",\"token\":\"\"}", &r);
    sc_expect_error(&r, 403, "a move with an empty token");
    char body[256];
    snprintf(body, sizeof body, "{\"move\":\"32-28\",\"token\":\"%s\"}", b.token);
    sc_post(s.port, path, body, &r);
    sc_expect_error(&r, 403, "a move with another game's token");
    sc_http(s.port, "POST", path, "{\"move\":\"32-28\"}", "Authorization: Bearer nonsense\r\n", &r);
    sc_expect_error(&r, 403, "a move with a wrong bearer token");
    snprintf(body, sizeof body, "{\"move\":\"19-23\",\"token\":\"%s\"}", black);
    sc_post(s.port, path, body, &r);
    sc_expect_error(&r, 409, "black moving in white's turn");
    snprintf(path, sizeof path, "/api/games/%s/actions", id);
    sc_post(s.port, path, "{\"action\":\"resign\",\"token\":\"wrong\"}", &r);
    sc_expect_error(&r, 403, "a resignation with a wrong token");
    assert_int_equal(sc_seq(s.port, id), seq);
    bystander_moves(s.port, &b, "wrong tokens over HTTP");

    /* A token's seat is not shown to another token. */
    snprintf(path, sizeof path, "/api/games/%s?token=wrong", id);
    sc_get(s.port, path, &r);
    assert_int_equal(r.status, 200);
    assert_null(json_object_get(r.json, "you"));
    assert_null(strstr(r.body, white));
    assert_null(strstr(r.body, black));
    sc_reply_free(&r);

    /* White moves; the same request again is refused (a replay), and so is
     * white moving twice. */
    assert_int_equal(sc_move(s.port, id, white, "32-28"), 200);
    seq = sc_seq(s.port, id);
    assert_int_equal(sc_move(s.port, id, white, "32-28"), 409);
    assert_int_equal(sc_move(s.port, id, white, "37-32"), 409);
    assert_int_equal(sc_seq(s.port, id), seq);

    /* Over the WebSocket: a spectator, a wrong token, white out of turn. */
    snprintf(path, sizeof path, "/ws/games/%s", id);
    int spectator = sc_ws_open(s.port, path);
    json_t *o = sc_ws_expect(spectator, "state");
    assert_null(json_object_get(json_object_get(o, "game"), "you"));
    json_decref(o);
    sc_ws_write(spectator, "{\"type\":\"move\",\"move\":\"19-23\"}");
    json_decref(sc_ws_expect(spectator, "error"));
    sc_ws_write(spectator, "{\"type\":\"action\",\"action\":\"resign\"}");
    json_decref(sc_ws_expect(spectator, "error"));
    snprintf(path, sizeof path, "/ws/games/%s?token=wrong", id);
    int forger = sc_ws_open(s.port, path);
    json_decref(sc_ws_expect(forger, "state"));
    sc_ws_write(forger, "{\"type\":\"move\",\"move\":\"19-23\"}");
    json_decref(sc_ws_expect(forger, "error"));
    snprintf(path, sizeof path, "/ws/games/%s?token=%s", id, white);
    int wsock = sc_ws_open(s.port, path);
    json_decref(sc_ws_expect(wsock, "state"));
    sc_ws_write(wsock, "{\"type\":\"move\",\"move\":\"37-32\"}");
    json_decref(sc_ws_expect(wsock, "error"));
    assert_int_equal(sc_seq(s.port, id), seq);
    bystander_moves(s.port, &b, "wrong tokens over the WebSocket");

    /* Black moves over its socket; the same message again is refused. */
    snprintf(path, sizeof path, "/ws/games/%s?token=%s", id, black);
    int bsock = sc_ws_open(s.port, path);
    json_decref(sc_ws_expect(bsock, "state"));
    sc_ws_write(bsock, "{\"type\":\"move\",\"move\":\"19-23\"}");
    o = sc_ws_expect(bsock, "state");
    assert_int_equal(sc_int(json_object_get(o, "game"), "ply"), 2);
    json_decref(o);
    seq = sc_seq(s.port, id);
    sc_ws_write(bsock, "{\"type\":\"move\",\"move\":\"19-23\"}");
    json_decref(sc_ws_expect(bsock, "error"));
    assert_int_equal(sc_seq(s.port, id), seq);
    o = sc_ws_expect(spectator, "state"); /* the spectator saw black's move only */
    assert_int_equal(sc_int(json_object_get(o, "game"), "ply"), 2);
    json_decref(o);
    assert_true(sc_ws_quiet(spectator, 200));

    close(spectator);
    close(forger);
    close(wsock);
    close(bsock);
    bystander_moves(s.port, &b, "a replayed WebSocket move");
    close(b.watcher);
    sc_stop(&s, SIGTERM);
    sc_remove_dir(&s);
}

/* ---- malformed and oversized input ---------------------------------------- */

/* The server's close frame with code, answered by the client's as the
 * closing handshake goes; then the connection ends. */
static void expect_close(int ws, int code, const char *what)
{
    char *text;
    size_t len = 0;
    int op = sc_ws_frame(ws, 5000, &text, &len);
    int got = op == 8 && len >= 2 ? (unsigned char)text[0] << 8 | (unsigned char)text[1] : -1;
    free(text);
    if (got != code)
        fail_msg("%s: frame %d (close code %d), not a close with %d", what, op, got, code);
    unsigned char reply[2] = {(unsigned char)(code >> 8), (unsigned char)code};
    sc_ws_send_frame(ws, 8, true, reply, 2);
    if (!sc_closed_within(ws, 5000))
        fail_msg("%s: the connection stayed open after the close", what);
    close(ws);
}

static void test_input(void **state)
{
    (void)state;
    sc_server s;
    sc_make_dir(&s);
    sc_start(&s, NULL);
    struct bystander b;
    bystander_start(s.port, &b);
    char id[16], token[48], path[160];
    sc_create(s.port, "{\"opponent\":{\"type\":\"local\"}}", id, token, NULL);
    int seq = sc_seq(s.port, id);
    sc_reply r;

    /* Malformed JSON and wrong shapes over HTTP: 400, nothing changed. */
    snprintf(path, sizeof path, "/api/games/%s/moves", id);
    static const char *const bad[] = {"{\"move\":", "not json", "[\"32-28\"]", "{\"move\":32}",
                                      "{\"move\":null}", "{\"move\":\"32-28\",\"token\":7}",
                                      "{\"move\":\"32-28\"}\x01", "\xff\xfe{}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sc_post(s.port, path, bad[i], &r);
        if (r.status != 400 && r.status != 403)
            fail_msg("body %zu: %d %s", i, r.status, r.body);
        sc_expect_error(&r, r.status, "a malformed body");
    }
    assert_int_equal(sc_seq(s.port, id), seq);

    /* An oversized body: 413; a header line of 64 KiB is refused (a
     * Content-Length far past what is sent: test_slow_clients). */
    size_t big = 70 * 1024;
    char *huge = malloc(100 * 1024 + 1); /* the WebSocket's frame below too */
    memset(huge, ' ', big);
    huge[0] = '{';
    huge[big - 1] = '}';
    huge[big] = '\0';
    sc_post(s.port, path, huge, &r);
    sc_expect_error(&r, 413, "a 70 KiB body");
    char *header = malloc(big + 64);
    memset(huge, 'a', big);
    snprintf(header, big + 64, "X-Long: %.*s\r\n", (int)(64 * 1024), huge);
    int fd = sc_connect(s.port);
    char head[128];
    int n = snprintf(head, sizeof head, "GET /api/games/%s HTTP/1.1\r\nHost: x\r\n", id);
    net_send_all(fd, head, (size_t)n);
    net_send_all(fd, header, strlen(header));
    net_send_all(fd, "\r\n", 2);
    /* lws has no room for it (its header space is 4 KiB): it closes. */
    if (sc_read_reply(fd, &r))
        fail_msg("a 64 KiB header line: %d %s", r.status, r.body);
    close(fd);
    free(header);
    bystander_moves(s.port, &b, "oversized requests");

    /* Over the WebSocket: bad JSON answered with an error; a frame over
     * 4096 bytes, and a fragmented message, close that socket alone with
     * 1009. */
    snprintf(path, sizeof path, "/ws/games/%s?token=%s", id, token);
    int ws = sc_ws_open(s.port, path);
    json_decref(sc_ws_expect(ws, "state"));
    static const char *const bad_ws[] = {"{\"type\":", "[1,2]", "{\"type\":7}", "{}",
                                         "{\"type\":\"move\"}", "{\"type\":\"move\",\"move\":[]}",
                                         "{\"type\":\"teleport\"}",
                                         "{\"type\":\"action\",\"action\":\"accept-draw\"}"};
    for (size_t i = 0; i < sizeof bad_ws / sizeof bad_ws[0]; i++) {
        sc_ws_write(ws, bad_ws[i]);
        json_decref(sc_ws_expect(ws, "error"));
    }
    assert_true(sc_ws_send_frame(ws, 1, true, "\xc3\x28", 2)); /* not UTF-8 */
    expect_close(ws, 1007, "a message that is not UTF-8");
    for (int fragmented = 0; fragmented < 2; fragmented++) {
        ws = sc_ws_open(s.port, path);
        json_decref(sc_ws_expect(ws, "state"));
        size_t len = fragmented ? 10 : 100 * 1024;
        memset(huge, ' ', len);
        sc_ws_send_frame(ws, 1, !fragmented, huge, len);
        expect_close(ws, 1009, fragmented ? "a fragmented message" : "a 100 KiB message");
    }
    free(huge);
    assert_int_equal(sc_seq(s.port, id), seq);
    bystander_moves(s.port, &b, "bad WebSocket messages");

    /* Paths outside web/: never served, whatever the encoding. */
    static const char *const escapes[] = {
        "/../../../../etc/passwd",        "/%2e%2e/%2e%2e/etc/passwd",
        "/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd", "/..%2f..%2f..%2fetc%2fpasswd",
        "/%252e%252e/%252e%252e/etc/passwd", "/.%2e/.%2e/etc/passwd",
        "/..\\..\\etc\\passwd",           "/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd",
        "/./../damier.db",                "/game/../../damier.db",
        "/web/../damier.db",              "//etc/passwd",
        "/api/../../etc/passwd",          "/api/games/..%2f..%2fdamier.db",
    };
    for (size_t i = 0; i < sizeof escapes / sizeof escapes[0]; i++) {
        sc_get(s.port, escapes[i], &r);
        if (r.status < 400 || r.status > 404 || strstr(r.body, "root:") ||
            strstr(r.body, "SQLite format"))
            fail_msg("GET %s: %d %.80s", escapes[i], r.status, r.body);
        sc_reply_free(&r);
    }
    /* A NUL in the path: lws drops the connection before any callback. */
    fd = sc_connect(s.port);
    static const char nul[] = "GET /index.html%00.png HTTP/1.1\r\nHost: x\r\n\r\n";
    net_send_all(fd, nul, sizeof nul - 1);
    assert_false(sc_read_reply(fd, &r));
    close(fd);
    sc_http(s.port, "DELETE", "/api/games", NULL, NULL, &r);
    sc_expect_error(&r, 405, "a DELETE");
    bystander_moves(s.port, &b, "paths outside web/");
    assert_true(sc_alive(&s));
    close(b.watcher);
    sc_stop(&s, SIGTERM);
    sc_remove_dir(&s);
}

/* ---- slow clients ---------------------------------------------------------- */

static void test_slow_clients(void **state)
{
    (void)state;
    sc_server s;
    sc_make_dir(&s);
    sc_start(&s, NULL);
    struct bystander b;
    bystander_start(s.port, &b);

    /* Five that never finish: connected and silent, half a request line,
     * headers trickled a byte a second, a body that stops, a body
     * trickled.  Each is closed within REQUEST_SECONDS (and a little). */
    enum { SILENT, HALF_LINE, TRICKLED_HEADERS, STALLED_BODY, TRICKLED_BODY, SLOW };
    static const char *const names[SLOW] = {"a silent connection", "half a request line",
                                            "trickled headers", "a stalled body",
                                            "a trickled body"};
    int fd[SLOW];
    bool closed[SLOW] = {false};
    for (int i = 0; i < SLOW; i++)
        fd[i] = sc_connect_from(s.port, "127.0.0.3");
    net_send_all(fd[HALF_LINE], "GET /api/vari", 13);
    static const char head[] = "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{";
    net_send_all(fd[STALLED_BODY], head, sizeof head - 1);
    net_send_all(fd[TRICKLED_BODY], head, sizeof head - 1);
    static const char slow_head[] = "GET /api/variants HTTP/1.1\r\nHost: x\r\nX-Pad: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    int64_t t0 = net_now_ms();
    int open_left = SLOW;
    for (int second = 0; open_left > 0 && second < REQUEST_SECONDS + 5; second++) {
        if (second < (int)sizeof slow_head - 1 && !closed[TRICKLED_HEADERS])
            net_send_all(fd[TRICKLED_HEADERS], slow_head + second, 1);
        if (!closed[TRICKLED_BODY])
            net_send_all(fd[TRICKLED_BODY], " ", 1);
        /* Meanwhile the bystander plays as if nothing were happening. */
        if (second % 3 == 0)
            bystander_moves(s.port, &b, "slow clients connected");
        /* Each turn of the loop is a second of the clock, the first open
         * connection waited on for what is left of it: a turn that waited
         * on the silent one alone ran in a millisecond once it was closed,
         * and the last seconds could pass before the others were. */
        int64_t end_of_second = t0 + (int64_t)(second + 1) * 1000;
        for (int i = 0; i < SLOW; i++) {
            int64_t left = end_of_second - net_now_ms();
            if (!closed[i] && sc_closed_within(fd[i], left > 1 ? (int)left : 1)) {
                closed[i] = true;
                open_left--;
                int64_t at = net_now_ms() - t0;
                if (at < (REQUEST_SECONDS - 2) * 1000)
                    fail_msg("%s was closed after %lld ms only", names[i], (long long)at);
            }
        }
    }
    for (int i = 0; i < SLOW; i++) {
        if (!closed[i])
            fail_msg("%s was still open after %d s", names[i], REQUEST_SECONDS + 5);
        close(fd[i]);
    }
    bystander_moves(s.port, &b, "slow clients closed");
    assert_true(sc_alive(&s));
    close(b.watcher);
    sc_stop(&s, SIGTERM);
    sc_remove_dir(&s);
}

/* ---- a flood from one address --------------------------------------------- */

static void test_flood(void **state)
{
    (void)state;
    sc_server s;
    sc_make_dir(&s);
    sc_start(&s, NULL);
    struct bystander b;
    bystander_start(s.port, &b);
    char id[16], token[48], path[160];
    sc_create(s.port, "{\"opponent\":{\"type\":\"local\"}}", id, token, NULL);

    /* 127.0.0.2 opens as many as it may (WebSockets and idle HTTP); one
     * more is answered 429 and closed, while 127.0.0.1 plays on. */
    int held[MAX_PER_ADDRESS];
    snprintf(path, sizeof path, "/ws/games/%s", id);
    for (int i = 0; i < MAX_PER_ADDRESS; i++) {
        if (i % 2) {
            held[i] = sc_ws_open_from(s.port, path, "127.0.0.2");
            json_decref(sc_ws_expect(held[i], "state"));
        } else {
            held[i] = sc_connect_from(s.port, "127.0.0.2");
        }
    }
    sc_reply r;
    for (int extra = 0; extra < 20; extra++) {
        int fd = sc_connect_from(s.port, "127.0.0.2");
        if (!sc_read_reply(fd, &r))
            fail_msg("connection %d over the limit: no answer", MAX_PER_ADDRESS + extra + 1);
        sc_expect_error(&r, 429, "a connection over the limit");
        assert_true(sc_closed_within(fd, 2000));
        close(fd);
    }
    bystander_moves(s.port, &b, "a flood from 127.0.0.2");
    /* The watchers from the flooding address are still served. */
    assert_int_equal(sc_move(s.port, id, token, "32-28"), 200);
    json_t *o = sc_ws_expect(held[1], "state");
    assert_int_equal(sc_int(json_object_get(o, "game"), "ply"), 1);
    json_decref(o);

    /* Once it lets go, the address is served again. */
    for (int i = 0; i < MAX_PER_ADDRESS; i++)
        close(held[i]);
    net_pause_ms(300);
    for (int i = 0; i < 3; i++) {
        int fd = sc_connect_from(s.port, "127.0.0.2");
        snprintf(path, sizeof path, "GET /api/games/%s HTTP/1.1\r\nHost: x\r\n\r\n", id);
        assert_true(net_send_all(fd, path, strlen(path)));
        assert_true(sc_read_reply(fd, &r));
        assert_int_equal(r.status, 200);
        sc_reply_free(&r);
        close(fd);
    }
    bystander_moves(s.port, &b, "the flood's end");
    close(b.watcher);
    sc_stop(&s, SIGTERM);

    /* --max-per-address 0 lifts the limit (a load test's server). */
    const char *const unlimited[] = {"--max-per-address", "0", NULL};
    sc_start(&s, unlimited);
    int many[MAX_PER_ADDRESS + 16];
    for (int i = 0; i < MAX_PER_ADDRESS + 16; i++)
        many[i] = sc_connect_from(s.port, "127.0.0.2");
    sc_get(s.port, "/api/variants", &r);
    assert_int_equal(r.status, 200);
    sc_reply_free(&r);
    int fd = sc_connect_from(s.port, "127.0.0.2");
    assert_true(net_send_all(fd, "GET /api/variants HTTP/1.1\r\nHost: x\r\n\r\n", 39));
    assert_true(sc_read_reply(fd, &r));
    assert_int_equal(r.status, 200);
    sc_reply_free(&r);
    close(fd);
    for (int i = 0; i < MAX_PER_ADDRESS + 16; i++)
        close(many[i]);
    sc_stop(&s, SIGTERM);
    sc_remove_dir(&s);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_seats, sc_kill_all),
        cmocka_unit_test_teardown(test_input, sc_kill_all),
        cmocka_unit_test_teardown(test_slow_clients, sc_kill_all),
        cmocka_unit_test_teardown(test_flood, sc_kill_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
