/* SPDX-License-Identifier: MIT */
/*
 * test_nodes.c - several `damier serve --node` processes on one
 * PostgreSQL database and one Redis (docs/deploy.md, "Several nodes"),
 * driven from outside by HTTP and WebSocket as players and spectators
 * are: a game created on node A, joined and played through node B (HTTP
 * for one side, a WebSocket for the other), watched from node C; A killed
 * with SIGKILL mid-game and the game going on through B once its lease
 * has expired, with every acknowledged move still there; Redis killed
 * and started again mid-game, the owner playing on meanwhile and the
 * nodes reconnecting; a node without an engine handing its computer game
 * to one that has one.
 *
 * It needs DAMIER_TEST_PG (a database URL), DAMIER_TEST_REDIS and
 * DAMIER_TEST_REDIS_DIR with DAMIER_REDIS_TEST_TOOL (a Redis it may kill
 * and start again): tests/cli/nodes.sh starts both.  Without them it
 * skips.
 */
#include "srvclient.h"

#define LEASE "2" /* seconds: short, so a takeover comes quickly */
#define MOVES_MAX 64

static const char *need_env(const char *name)
{
    const char *v = getenv(name);
    if (!v || !*v) {
        print_message("SKIP: several nodes: %s is unset (tests/cli/nodes.sh sets it)\n", name);
        skip();
    }
    return v;
}

/* Node name on the test's database and Redis, leases of lease seconds;
 * no_engine: --no-engine. */
static void start_node_leased(sc_server *s, const char *name, bool no_engine, const char *lease)
{
    const char *pg = need_env("DAMIER_TEST_PG"), *redis = need_env("DAMIER_TEST_REDIS");
    sc_make_dir(s);
    snprintf(s->db, sizeof s->db, "%s", pg);
    const char *extra[] = {"--node", name, "--redis", redis, "--lease-seconds", lease,
                           no_engine ? "--no-engine" : NULL, NULL};
    sc_start(s, extra);
}

static void start_node(sc_server *s, const char *name, bool no_engine)
{
    start_node_leased(s, name, no_engine, LEASE);
}

static void stop_node(sc_server *s, int sig)
{
    sc_stop(s, sig);
    sc_remove_dir(s);
}

/* redis-test.sh (kill|start) on the test's server. */
static void redis_ctl(const char *verb)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s %s '%s' >/dev/null", need_env("DAMIER_REDIS_TEST_TOOL"), verb,
             need_env("DAMIER_TEST_REDIS_DIR"));
    if (system(cmd) != 0)
        fail_msg("%s failed", cmd);
}

/* The first legal move of game id as node port says. */
static void first_legal(int port, const char *id, char *move, size_t size)
{
    sc_reply r;
    sc_state(port, id, &r);
    json_t *first = json_array_get(json_object_get(r.json, "legal"), 0);
    snprintf(move, size, "%s", sc_str(first, "notation"));
    sc_reply_free(&r);
}

/* POST path with body at port until the answer is not 503 (a node that
 * cannot reach the game's owner now says so, with a Retry-After), for at
 * most ms; the last answer in r. */
static void post_until(int port, const char *path, const char *body, int ms, sc_reply *r)
{
    int64_t deadline = net_now_ms() + ms;
    for (;;) {
        sc_post(port, path, body, r);
        if (r->status != 503 || net_now_ms() > deadline)
            return;
        if (!strstr(r->headers, "retry-after: "))
            fail_msg("POST %s: a 503 without Retry-After: %s", path, r->body);
        sc_reply_free(r);
        net_pause_ms(200);
    }
}

/* A white move by HTTP at port, retried while the owner is away; it must
 * be acknowledged (200) with the game at ply. */
static void http_move(int port, const char *id, const char *token, const char *move, int ply)
{
    char path[128], body[256];
    snprintf(path, sizeof path, "/api/games/%s/moves", id);
    snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\"}", move, token);
    sc_reply r;
    post_until(port, path, body, 20000, &r);
    if (r.status != 200)
        fail_msg("move %s at port %d: %d %s", move, port, r.status, r.body);
    assert_int_equal(sc_int(r.json, "ply"), ply);
    sc_reply_free(&r);
}

/* The next state on socket fd that is at ply at least (earlier ones, a
 * takeover's or a join's, are skipped): its moves must be moves[0..ply). */
static void ws_expect_ply(int fd, int ply, char moves[][32])
{
    for (;;) {
        json_t *o = sc_ws_expect(fd, "state");
        json_t *game = json_object_get(o, "game");
        int at = sc_int(game, "ply");
        if (at >= ply) {
            assert_int_equal(at, ply);
            json_t *list = json_object_get(game, "moves");
            assert_int_equal((int)json_array_size(list), ply);
            for (int i = 0; i < ply; i++)
                assert_string_equal(json_string_value(json_array_get(list, (size_t)i)), moves[i]);
            json_decref(o);
            return;
        }
        json_decref(o);
    }
}

/* A black move over the WebSocket fd, sent again after an error note (the
 * owner away) for at most 20 s; its state must come back at ply. */
static void ws_move(int fd, const char *move, int ply, char moves[][32])
{
    char msg[128];
    snprintf(msg, sizeof msg, "{\"type\":\"move\",\"move\":\"%s\"}", move);
    int64_t deadline = net_now_ms() + 20000;
    sc_ws_write(fd, msg);
    for (;;) {
        char *text;
        if (sc_ws_frame(fd, SC_WAIT_MS, &text, NULL) != 1)
            fail_msg("move %s over the socket: no answer", move);
        json_t *o = json_loads(text, 0, NULL);
        const char *type = json_string_value(json_object_get(o, "type"));
        if (type && strcmp(type, "error") == 0) {
            if (net_now_ms() > deadline)
                fail_msg("move %s over the socket: %s", move, text);
            net_pause_ms(300);
            sc_ws_write(fd, msg);
        } else if (type && strcmp(type, "state") == 0 &&
                   sc_int(json_object_get(o, "game"), "ply") >= ply) {
            json_t *list = json_object_get(json_object_get(o, "game"), "moves");
            assert_int_equal((int)json_array_size(list), ply);
            for (int i = 0; i < ply; i++)
                assert_string_equal(json_string_value(json_array_get(list, (size_t)i)), moves[i]);
            json_decref(o);
            free(text);
            return;
        }
        json_decref(o);
        free(text);
    }
}

/* Game id's moves at port are exactly moves[0..n). */
static void expect_moves(int port, const char *id, char moves[][32], int n)
{
    sc_reply r;
    sc_state(port, id, &r);
    json_t *list = json_object_get(r.json, "moves");
    if ((int)json_array_size(list) != n)
        fail_msg("port %d: %zu moves, expected %d: %s", port, json_array_size(list), n, r.body);
    for (int i = 0; i < n; i++)
        assert_string_equal(json_string_value(json_array_get(list, (size_t)i)), moves[i]);
    sc_reply_free(&r);
}

/* Whether every node of ports says its bus is up, within ms. */
static bool buses_up(const int *ports, int n, int ms)
{
    int64_t deadline = net_now_ms() + ms;
    for (;;) {
        int up = 0;
        for (int i = 0; i < n; i++) {
            sc_reply r;
            sc_get(ports[i], "/readyz", &r);
            const char *bus = json_string_value(json_object_get(r.json, "bus"));
            up += r.status == 200 && bus && strcmp(bus, "up") == 0;
            sc_reply_free(&r);
        }
        if (up == n)
            return true;
        if (net_now_ms() > deadline)
            return false;
        net_pause_ms(200);
    }
}

/* Plays the next move of game id (white by HTTP at http_port, black on
 * the socket black_ws), records it and sees it reach the watcher. */
static void next_move(int http_port, int black_ws, int watcher, const char *id,
                      const char *white_token, char moves[][32], int *n)
{
    char move[32];
    first_legal(http_port, id, move, sizeof move);
    snprintf(moves[*n], 32, "%s", move);
    (*n)++;
    if (*n % 2 == 1)
        http_move(http_port, id, white_token, move, *n);
    else
        ws_move(black_ws, move, *n, moves);
    ws_expect_ply(watcher, *n, moves);
}

static void test_three_nodes(void **state)
{
    (void)state;
    sc_server a, b, c;
    start_node(&a, "a", false);
    start_node(&b, "b", false);
    start_node(&c, "c", true);

    /* Created on A, joined through B: B finds the invite in the database
     * and passes the join to A. */
    char id[16], white[48], path[128];
    sc_reply r;
    sc_create(a.port, "{\"opponent\":{\"type\":\"friend\"},\"side\":\"white\"}", id, white, &r);
    char join[64];
    snprintf(join, sizeof join, "/api%s", sc_str(r.json, "invite"));
    sc_reply_free(&r);
    sc_post(b.port, join, "{}", &r);
    if (r.status != 200)
        fail_msg("join through B: %d %s", r.status, r.body);
    assert_string_equal(sc_str(r.json, "side"), "black");
    char black[48];
    snprintf(black, sizeof black, "%s", sc_str(r.json, "token"));
    sc_reply_free(&r);

    /* Watched from C, black's socket on B. */
    snprintf(path, sizeof path, "/ws/games/%s", id);
    int watcher = sc_ws_open(c.port, path);
    snprintf(path, sizeof path, "/ws/games/%s?token=%s", id, black);
    int black_ws = sc_ws_open(b.port, path);
    char moves[MOVES_MAX][32];
    int n = 0;
    ws_expect_ply(watcher, 0, moves);
    ws_expect_ply(black_ws, 0, moves);
    for (int i = 0; i < 6; i++)
        next_move(b.port, black_ws, watcher, id, white, moves, &n);
    expect_moves(a.port, id, moves, n);
    expect_moves(b.port, id, moves, n);
    expect_moves(c.port, id, moves, n);

    /* A dies mid-game: B answers 503 until A's lease expires, then the
     * game goes on (B or C takes it), every acknowledged move kept. */
    stop_node(&a, SIGKILL);
    for (int i = 0; i < 4; i++)
        next_move(b.port, black_ws, watcher, id, white, moves, &n);
    expect_moves(b.port, id, moves, n);
    expect_moves(c.port, id, moves, n);

    /* Redis dies mid-game: the owner plays on (a move through B or C is
     * taken by one of them, the other answering 503), and once Redis is
     * back both reconnect, the watcher rereads and sees that move, and
     * the game goes on through B. */
    redis_ctl("kill");
    char move[32], body[256];
    first_legal(b.port, id, move, sizeof move);
    snprintf(path, sizeof path, "/api/games/%s/moves", id);
    snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\"}",
             move, n % 2 == 0 ? white : black);
    bool played = false;
    for (int tries = 0; tries < 50 && !played; tries++) {
        for (int k = 0; k < 2 && !played; k++) {
            sc_post(k ? c.port : b.port, path, body, &r);
            played = r.status == 200;
            if (!played && r.status != 503)
                fail_msg("a move while Redis is away: %d %s", r.status, r.body);
            if (!played && !strstr(r.headers, "retry-after: "))
                fail_msg("a 503 without Retry-After: %s", r.body);
            sc_reply_free(&r);
        }
        if (!played)
            net_pause_ms(200);
    }
    assert_true(played);
    snprintf(moves[n++], 32, "%s", move);
    redis_ctl("start");
    int ports[] = {b.port, c.port};
    assert_true(buses_up(ports, 2, 15000));
    ws_expect_ply(watcher, n, moves);
    for (int i = 0; i < 2; i++)
        next_move(b.port, black_ws, watcher, id, white, moves, &n);
    expect_moves(b.port, id, moves, n);
    expect_moves(c.port, id, moves, n);

    close(watcher);
    close(black_ws);
    stop_node(&b, SIGTERM);
    stop_node(&c, SIGTERM);
}

/* game id's clock at port: white's and black's time left, in ms. */
static void clock_at(int port, const char *id, long long *white, long long *black)
{
    sc_reply r;
    sc_state(port, id, &r);
    json_t *clock = json_object_get(r.json, "clock");
    if (!json_is_object(clock))
        fail_msg("port %d: no clock in %s", port, r.body);
    *white = json_integer_value(json_object_get(clock, "white_ms"));
    *black = json_integer_value(json_object_get(clock, "black_ms"));
    sc_reply_free(&r);
}

/* A timed game whose owner dies: the node that takes it over charges the
 * side to move nothing of the outage (each side resumes with its time
 * after its last committed move), and the other side's time is as it was. */
static void test_takeover_clock(void **state)
{
    (void)state;
    sc_server a, b;
    start_node(&a, "a", false);
    start_node(&b, "b", false);
    char id[16], white[48], black[48];
    sc_reply r;
    sc_create(a.port, "{\"opponent\":{\"type\":\"friend\"},\"side\":\"white\",\"clock\":\"5+0\"}",
              id, white, &r);
    char join[64];
    snprintf(join, sizeof join, "/api%s", sc_str(r.json, "invite"));
    sc_reply_free(&r);
    sc_post(a.port, join, "{}", &r);
    assert_int_equal(r.status, 200);
    snprintf(black, sizeof black, "%s", sc_str(r.json, "token"));
    sc_reply_free(&r);
    /* Four moves on A: both clocks have started (they wait for each
     * side's first move), White's runs. */
    char move[32];
    int64_t turn = 0; /* before White's turn began */
    for (int ply = 1; ply <= 4; ply++) {
        first_legal(a.port, id, move, sizeof move);
        turn = net_now_ms();
        http_move(a.port, id, ply % 2 ? white : black, move, ply);
    }
    long long white_before, black_before;
    clock_at(a.port, id, &white_before, &black_before);
    /* White's clock ran from its turn's start to this reading: B, which
     * restarts it from the turn's start, may give back up to that much. */
    long long read_lag = net_now_ms() - turn;
    assert_true(white_before > 0 && white_before <= 300000);

    /* A dies; White's move through B is answered 503 until A's lease has
     * expired and B has the game, then played: the outage (at least the
     * lease) is not on White's clock, only the moments since B has it. */
    int64_t killed = net_now_ms();
    stop_node(&a, SIGKILL);
    first_legal(b.port, id, move, sizeof move);
    http_move(b.port, id, white, move, 5);
    long long outage = net_now_ms() - killed;
    long long white_after, black_after;
    clock_at(b.port, id, &white_after, &black_after);
    long long charged = white_before - white_after;
    print_message("takeover: an outage of %lld ms, White charged %lld ms\n", outage, charged);
    if (outage < 2000 || charged > 1000)
        fail_msg("White was charged %lld ms of an outage of %lld ms (lease " LEASE " s)", charged,
                 outage);
    if (charged < -read_lag)
        fail_msg("White was given back %lld ms (its clock was read %lld ms after its turn began)",
                 -charged, read_lag);
    /* Black's time is what it had after its last move (its clock has just
     * started again). */
    if (black_after > black_before || black_before - black_after > 500)
        fail_msg("Black's time moved from %lld to %lld ms over the takeover", black_before,
                 black_after);
    stop_node(&b, SIGTERM);
}

/* A node without an engine (--no-engine) hands its computer game to one
 * with an engine: the game created there is played there, the computer
 * answering from the other node; it runs no analysis (503). */
static void test_no_engine(void **state)
{
    (void)state;
    sc_server b, c;
    start_node(&b, "b", false);
    start_node(&c, "c", true);
    char id[16], token[48], move[32], path[128], body[256];
    sc_create(c.port, "{\"opponent\":{\"type\":\"computer\",\"level\":1},\"side\":\"white\"}",
              id, token, NULL);
    first_legal(c.port, id, move, sizeof move);
    snprintf(path, sizeof path, "/api/games/%s/moves", id);
    snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\"}", move, token);
    sc_reply r;
    post_until(c.port, path, body, 20000, &r);
    if (r.status != 200)
        fail_msg("the move at the node without an engine: %d %s", r.status, r.body);
    sc_reply_free(&r);
    assert_true(sc_wait_ply(c.port, id, 2));
    sc_post(c.port, "/api/analysis", "{}", &r);
    assert_int_equal(r.status, 503);
    sc_reply_free(&r);
    stop_node(&b, SIGTERM);
    stop_node(&c, SIGTERM);
}

/* A node killed and started again under its name takes its games back
 * at once, though their leases (a minute here) have not expired: a move
 * through another node reaches it at the first try. */
static void test_same_name(void **state)
{
    (void)state;
    sc_server a, b;
    start_node_leased(&a, "a", false, "60");
    start_node_leased(&b, "b", false, "60");
    char id[16], token[48], move[32];
    sc_create(a.port, "{\"opponent\":{\"type\":\"local\"}}", id, token, NULL);
    first_legal(a.port, id, move, sizeof move);
    assert_int_equal(sc_move(a.port, id, token, move), 200);
    sc_stop(&a, SIGKILL);
    sc_start(&a, (const char *const[]){"--node", "a", "--redis", need_env("DAMIER_TEST_REDIS"),
                                        "--lease-seconds", "60", NULL});
    first_legal(b.port, id, move, sizeof move);
    sc_reply r;
    assert_int_equal(sc_move_reply(b.port, id, token, move, &r), 200);
    assert_int_equal(sc_int(r.json, "ply"), 2);
    sc_reply_free(&r);
    stop_node(&a, SIGTERM);
    stop_node(&b, SIGTERM);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_three_nodes, sc_kill_all),
        cmocka_unit_test_teardown(test_takeover_clock, sc_kill_all),
        cmocka_unit_test_teardown(test_no_engine, sc_kill_all),
        cmocka_unit_test_teardown(test_same_name, sc_kill_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
