/* SPDX-License-Identifier: MIT */
/*
 * test_bus.c - bus.h on a real Redis: the one DAMIER_TEST_REDIS names
 * (tests/cli/bus.sh starts a throwaway one with tools/redis-test.sh, and
 * sets DAMIER_TEST_REDIS_DIR, its folder, so this test can crash it and
 * start it again).  Without it the tests that need a server are skipped,
 * and say so; the URL checks and the refused port need none.
 *
 * Bad URLs and a refused port: NULL with the reason, never the password.
 * The channel of a game: fixed, within range, spread.  Two buses as two
 * nodes: a message reaches the other, field by field, on the channel its
 * game hashes to (seen by a plain subscriber), never its sender; many
 * games, each game's messages in order; malformed messages dropped and
 * counted, the bus going on; passwords (none, a wrong one: refused,
 * never shown; the default user's, an ACL user's); Redis killed: both buses say BUS_DOWN,
 * publishing fails at once, and once Redis is back both say BUS_UP and
 * messages flow again.
 */
#include "testutil.h"

#include <hiredis/hiredis.h>
#include <pthread.h>
#include <time.h>

#include "server/bus.h"

/* ---- waiting for the buses ----------------------------------------------- */

static pthread_mutex_t wake_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake_cond = PTHREAD_COND_INITIALIZER;
static int wakes;

/* The bus's wake function: what lws_cancel_service is to the server. */
static void wake(void *ctx)
{
    (void)ctx;
    pthread_mutex_lock(&wake_lock);
    wakes++;
    pthread_cond_broadcast(&wake_cond);
    pthread_mutex_unlock(&wake_lock);
}

#define KEEP 2048

/* What one bus delivered. */
struct got {
    int n, up, down;
    char last_error[512];
    struct {
        char origin[BUS_NODE], game[BUS_GAME], kind[BUS_KIND];
        char *payload;
    } m[KEEP];
};

static void collect(void *ctx, const bus_message *m)
{
    struct got *g = ctx;
    if (m->event == BUS_UP) {
        g->up++;
        return;
    }
    if (m->event == BUS_DOWN) {
        g->down++;
        snprintf(g->last_error, sizeof g->last_error, "%s", m->error);
        return;
    }
    /* Stamped when the bus's thread read it: before now, on the same clock. */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    int64_t now = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    if (m->received_ms <= 0 || m->received_ms > now)
        fail_msg("message stamped %lld ms, now %lld", (long long)m->received_ms, (long long)now);
    if (g->n < KEEP) {
        snprintf(g->m[g->n].origin, BUS_NODE, "%s", m->origin);
        snprintf(g->m[g->n].game, BUS_GAME, "%s", m->game);
        snprintf(g->m[g->n].kind, BUS_KIND, "%s", m->kind);
        g->m[g->n].payload = json_dumps(m->payload, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    }
    g->n++;
}

static void forget(struct got *g)
{
    for (int i = 0; i < g->n && i < KEEP; i++)
        free(g->m[i].payload);
    memset(g, 0, sizeof *g);
}

/* Dispatches a and b (b may be NULL) into ga and gb until done(ga, gb)
 * holds, for at most ms; whether it came to hold. */
static bool wait_for(bus *a, struct got *ga, bus *b, struct got *gb,
                     bool (*done)(const struct got *, const struct got *, int), int want,
                     int ms)
{
    struct timespec end;
    clock_gettime(CLOCK_REALTIME, &end);
    end.tv_sec += ms / 1000;
    end.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (end.tv_nsec >= 1000000000L) {
        end.tv_sec++;
        end.tv_nsec -= 1000000000L;
    }
    for (;;) {
        bus_dispatch(a, collect, ga);
        if (b)
            bus_dispatch(b, collect, gb);
        if (done(ga, gb, want))
            return true;
        pthread_mutex_lock(&wake_lock);
        int seen = wakes;
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        bool late = now.tv_sec > end.tv_sec ||
                    (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec);
        struct timespec step = now;
        step.tv_nsec += 50000000L; /* at most 50 ms asleep: a wake may come between */
        if (step.tv_nsec >= 1000000000L) {
            step.tv_sec++;
            step.tv_nsec -= 1000000000L;
        }
        if (!late && wakes == seen)
            pthread_cond_timedwait(&wake_cond, &wake_lock, &step);
        pthread_mutex_unlock(&wake_lock);
        if (late) {
            bus_dispatch(a, collect, ga);
            if (b)
                bus_dispatch(b, collect, gb);
            return done(ga, gb, want);
        }
    }
}

static bool second_has(const struct got *ga, const struct got *gb, int want)
{
    (void)ga;
    return gb->n >= want;
}

static bool both_down(const struct got *ga, const struct got *gb, int want)
{
    (void)want;
    return ga->down > 0 && gb->down > 0;
}

static bool both_up(const struct got *ga, const struct got *gb, int want)
{
    (void)want;
    return ga->up > 0 && gb->up > 0;
}

/* ---- the server ------------------------------------------------------------ */

static const char *redis_url(void)
{
    const char *url = getenv("DAMIER_TEST_REDIS");
    if (!url || !*url) {
        print_message("SKIP: the bus on Redis: DAMIER_TEST_REDIS is unset "
                      "(tests/cli/bus.sh starts a server for it)\n");
        skip();
    }
    return url;
}

static bus *open_bus(const char *node)
{
    char err[512] = "";
    bus *b = bus_open(redis_url(), node, wake, NULL, err, sizeof err);
    if (!b)
        fail_msg("bus_open %s: %s", node, err);
    assert_true(bus_connected(b));
    return b;
}

static void publish(bus *b, const char *game, const char *kind, const char *payload)
{
    json_t *p = json_loads(payload, JSON_DECODE_ANY, NULL);
    assert_non_null(p);
    char err[512];
    if (bus_publish(b, game, kind, p, err, sizeof err) != 0)
        fail_msg("publish %s %s: %s", game, kind, err);
    json_decref(p);
}

/* redis-test.sh (kill|start) on the test's server. */
static void redis_ctl(const char *verb)
{
    const char *dir = getenv("DAMIER_TEST_REDIS_DIR");
    if (!dir || !*dir) {
        print_message("SKIP: DAMIER_TEST_REDIS_DIR is unset: no server to restart\n");
        skip();
    }
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s %s '%s' >/dev/null",
             tu_env("DAMIER_REDIS_TEST_TOOL", "tools/redis-test.sh"), verb, dir);
    if (system(cmd) != 0)
        fail_msg("%s failed", cmd);
}

/* ---- no server needed --------------------------------------------------------- */

static void expect_open_fails(const char *url, const char *want, const char *secret)
{
    char err[512] = "";
    bus *b = bus_open(url, "node-a", wake, NULL, err, sizeof err);
    if (b) {
        bus_close(b);
        fail_msg("bus_open '%s' opened", want);
    }
    if (!strstr(err, want))
        fail_msg("bus_open: '%s', expected '%s' in it", err, want);
    if (secret && strstr(err, secret))
        fail_msg("the error shows the password: %s", err);
}

static void test_bad_urls(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "",
        "http://127.0.0.1:6379",
        "redis://",
        "redis://:6379",
        "redis://127.0.0.1:0",
        "redis://127.0.0.1:65536",
        "redis://127.0.0.1:63x9",
        "redis://127.0.0.1:6379/0",
        "redis://127.0.0.1:6379?x=1",
        "redis://[::1",
        "redis://user@127.0.0.1",
        "redis://:bad%zzpw@127.0.0.1",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_open_fails(bad[i], "bad Redis URL", NULL);
    expect_open_fails("redis://:Hush1234@127.0.0.1:6379/x", "bad Redis URL", "Hush1234");
    expect_open_fails(NULL, "bad Redis URL", NULL);
    char err[256];
    assert_null(bus_open("redis://127.0.0.1:6379", "", wake, NULL, err, sizeof err));
    assert_null(bus_open("redis://127.0.0.1:6379", "a b", wake, NULL, err, sizeof err));
}

static void test_refused(void **state)
{
    (void)state;
    expect_open_fails("redis://127.0.0.1:1", "bus redis://127.0.0.1:1: cannot connect: ", NULL);
    expect_open_fails("redis://127.0.0.1:1", "Connection refused", NULL);
    expect_open_fails("redis://:S3cretPw@127.0.0.1:1/", "Connection refused", "S3cretPw");
    expect_open_fails("redis://[::1]:1", "bus redis://[::1]:1: cannot connect", NULL);
}

static void test_channels(void **state)
{
    (void)state;
    /* FNV-1a 32 of the id's bytes, modulo 64: the same on every node. */
    assert_int_equal(bus_channel("Ab3xY9"), 59);
    assert_int_equal(bus_channel("g1"), 21);
    bool seen[BUS_CHANNELS] = {false};
    int distinct = 0;
    for (int i = 0; i < 1000; i++) {
        char id[16];
        snprintf(id, sizeof id, "game%d", i);
        int c = bus_channel(id);
        assert_true(c >= 0 && c < BUS_CHANNELS);
        assert_int_equal(bus_channel(id), c);
        if (!seen[c])
            distinct++;
        seen[c] = true;
    }
    assert_int_equal(distinct, BUS_CHANNELS);
}

/* ---- on a server ----------------------------------------------------------------- */

static void test_publish_receive(void **state)
{
    (void)state;
    bus *a = open_bus("node-a"), *b = open_bus("node-b");
    static struct got ga, gb;
    forget(&ga);
    forget(&gb);
    /* A plain subscriber on the channel g1 hashes to (21). */
    const char *url = redis_url();
    redisContext *spy = redisConnect("127.0.0.1", atoi(strrchr(url, ':') + 1));
    assert_true(spy && !spy->err);
    redisReply *r = redisCommand(spy, "SUBSCRIBE damier:game:21");
    assert_non_null(r);
    freeReplyObject(r);

    publish(a, "g1", "move", "{\"ply\": 1, \"move\": \"32-28\", \"text\": \"caf\\u00e9\"}");
    assert_true(wait_for(a, &ga, b, &gb, second_has, 1, 3000));
    assert_int_equal(gb.n, 1);
    assert_string_equal(gb.m[0].origin, "node-a");
    assert_string_equal(gb.m[0].game, "g1");
    assert_string_equal(gb.m[0].kind, "move");
    assert_string_equal(gb.m[0].payload, "{\"move\":\"32-28\",\"ply\":1,\"text\":\"caf\xc3\xa9\"}");
    struct timeval tv = {3, 0};
    redisSetTimeout(spy, tv);
    r = NULL;
    assert_int_equal(redisGetReply(spy, (void **)&r), REDIS_OK);
    assert_int_equal(r->type, REDIS_REPLY_ARRAY);
    assert_string_equal(r->element[1]->str, "damier:game:21");
    json_t *seen = json_loads(r->element[2]->str, 0, NULL);
    assert_non_null(seen);
    assert_string_equal(json_string_value(json_object_get(seen, "origin")), "node-a");
    assert_string_equal(json_string_value(json_object_get(seen, "game")), "g1");
    json_decref(seen);
    freeReplyObject(r);
    redisFree(spy);

    /* Any JSON value is a payload; b answers; neither hears itself. */
    publish(b, "Ab3xY9", "state", "[1, \"two\", null]");
    assert_true(wait_for(b, &gb, a, &ga, second_has, 1, 3000));
    assert_string_equal(ga.m[0].origin, "node-b");
    assert_string_equal(ga.m[0].payload, "[1,\"two\",null]");
    wait_for(a, &ga, b, &gb, second_has, 2, 300);
    assert_int_equal(ga.n, 1);
    assert_int_equal(gb.n, 1);
    assert_int_equal(ga.up + ga.down + gb.up + gb.down, 0);

    /* What cannot be a message is refused at once. */
    char err[256];
    json_t *p = json_object();
    assert_int_equal(bus_publish(a, "", "move", p, err, sizeof err), -1);
    assert_int_equal(bus_publish(a, "has space", "move", p, err, sizeof err), -1);
    assert_int_equal(bus_publish(a, "0123456789abcdefX", "move", p, err, sizeof err), -1);
    assert_int_equal(bus_publish(a, "g1", "", p, err, sizeof err), -1);
    assert_int_equal(bus_publish(a, "g1", "move", NULL, err, sizeof err), -1);
    json_decref(p);
    forget(&ga);
    forget(&gb);
    bus_close(a);
    bus_close(b);
}

static bool in_order(const struct got *g, int games, int each)
{
    int next[200] = {0};
    for (int i = 0; i < g->n; i++) {
        int game = atoi(g->m[i].game + 1);
        json_t *p = json_loads(g->m[i].payload, 0, NULL);
        int seq = (int)json_integer_value(json_object_get(p, "seq"));
        json_decref(p);
        if (game < 0 || game >= games || seq != next[game])
            return false;
        next[game]++;
    }
    for (int i = 0; i < games; i++)
        if (next[i] != each)
            return false;
    return true;
}

static void test_many_games(void **state)
{
    (void)state;
    bus *a = open_bus("node-a"), *b = open_bus("node-b");
    static struct got ga, gb;
    forget(&ga);
    forget(&gb);
    enum { GAMES = 200, EACH = 5 };
    for (int seq = 0; seq < EACH; seq++)
        for (int game = 0; game < GAMES; game++) {
            char id[16], payload[64];
            snprintf(id, sizeof id, "g%d", game);
            snprintf(payload, sizeof payload, "{\"seq\": %d}", seq);
            publish(a, id, "move", payload);
        }
    assert_true(wait_for(a, &ga, b, &gb, second_has, GAMES * EACH, 10000));
    assert_int_equal(gb.n, GAMES * EACH);
    assert_true(in_order(&gb, GAMES, EACH));
    assert_int_equal(ga.n, 0);
    assert_int_equal(bus_dropped(b), 0);
    forget(&ga);
    forget(&gb);
    bus_close(a);
    bus_close(b);
}

static void test_malformed_dropped(void **state)
{
    (void)state;
    bus *a = open_bus("node-a"), *b = open_bus("node-b");
    static struct got ga, gb;
    forget(&ga);
    forget(&gb);
    const char *url = redis_url();
    redisContext *raw = redisConnect("127.0.0.1", atoi(strrchr(url, ':') + 1));
    assert_true(raw && !raw->err);
    static const char *const junk[] = {
        "not json",
        "{\"origin\":\"x\",\"game\":\"g1\",\"kind\":\"move\"}",                  /* no payload */
        "{\"origin\":\"x\",\"game\":\"g1\",\"kind\":7,\"payload\":1}",             /* kind */
        "{\"origin\":\"x\",\"game\":\"Ab3xY9\",\"kind\":\"move\",\"payload\":1}", /* channel 59 */
        "{\"origin\":\"x y\",\"game\":\"g1\",\"kind\":\"move\",\"payload\":1}",
    };
    for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++) {
        redisReply *r = redisCommand(raw, "PUBLISH damier:game:21 %s", junk[i]);
        assert_non_null(r);
        freeReplyObject(r);
    }
    redisReply *r = redisCommand(raw, "PUBLISH damier:game:99 x");
    freeReplyObject(r);
    redisFree(raw);
    publish(a, "g1", "move", "{}");
    assert_true(wait_for(a, &ga, b, &gb, second_has, 1, 3000));
    assert_int_equal(gb.n, 1);
    assert_string_equal(gb.m[0].origin, "node-a");
    assert_int_equal(bus_dropped(b), 5);
    forget(&ga);
    forget(&gb);
    bus_close(a);
    bus_close(b);
}

/* A command (hiredis's format) on a connection of the test's own; fails
 * the test on an error. */
static void redis_admin(const char *auth, const char *cmd, ...)
{
    const char *url = redis_url();
    redisContext *c = redisConnect("127.0.0.1", atoi(strrchr(url, ':') + 1));
    assert_true(c && !c->err);
    if (auth)
        freeReplyObject(redisCommand(c, "AUTH %s", auth));
    va_list ap;
    va_start(ap, cmd);
    redisReply *r = redisvCommand(c, cmd, ap);
    va_end(ap);
    if (!r || r->type == REDIS_REPLY_ERROR)
        fail_msg("%s: %s", cmd, r ? r->str : c->errstr);
    freeReplyObject(r);
    redisFree(c);
}

/* A URL of the test's server with credentials in it. */
static void with_auth(const char *userinfo, char *url, size_t size)
{
    snprintf(url, size, "redis://%s@%s", userinfo, redis_url() + strlen("redis://"));
}

static void test_passwords(void **state)
{
    (void)state;
    char url[512], err[512];
    redis_admin(NULL, "ACL SETUSER node on >n0de%%pw ~* &* +@all");
    redis_admin(NULL, "CONFIG SET requirepass Wh0le-Secret");
    /* Without a password, or a wrong one: refused, the password unsaid. */
    err[0] = '\0';
    assert_null(bus_open(redis_url(), "node-a", wake, NULL, err, sizeof err));
    if (!strstr(err, "PING: NOAUTH"))
        fail_msg("no password: '%s'", err);
    with_auth(":Wr0ngPw", url, sizeof url);
    err[0] = '\0';
    assert_null(bus_open(url, "node-a", wake, NULL, err, sizeof err));
    if (!strstr(err, "AUTH: WRONGPASS") || strstr(err, "Wr0ngPw"))
        fail_msg("a wrong password: '%s'", err);
    /* The default user's password, and a user with one percent-encoded. */
    with_auth(":Wh0le-Secret", url, sizeof url);
    bus *a = bus_open(url, "node-a", wake, NULL, err, sizeof err);
    if (!a)
        fail_msg("with the password: %s", err);
    with_auth("node:n0de%25pw", url, sizeof url);
    bus *b = bus_open(url, "node-b", wake, NULL, err, sizeof err);
    if (!b)
        fail_msg("as the user node: %s", err);
    static struct got ga, gb;
    forget(&ga);
    forget(&gb);
    publish(a, "g1", "move", "{\"auth\": 1}");
    assert_true(wait_for(a, &ga, b, &gb, second_has, 1, 3000));
    assert_string_equal(gb.m[0].payload, "{\"auth\":1}");
    forget(&ga);
    forget(&gb);
    bus_close(a);
    bus_close(b);
}

/* test_passwords's server as it found it, whatever failed. */
static int no_passwords(void **state)
{
    (void)state;
    const char *url = getenv("DAMIER_TEST_REDIS");
    if (!url || !*url)
        return 0;
    redisContext *c = redisConnect("127.0.0.1", atoi(strrchr(url, ':') + 1));
    if (!c || c->err)
        return -1;
    freeReplyObject(redisCommand(c, "AUTH %s", "Wh0le-Secret"));
    freeReplyObject(redisCommand(c, "CONFIG SET requirepass %s", ""));
    freeReplyObject(redisCommand(c, "ACL DELUSER node"));
    redisFree(c);
    return 0;
}

static void test_redis_restart(void **state)
{
    (void)state;
    bus *a = open_bus("node-a"), *b = open_bus("node-b");
    static struct got ga, gb;
    forget(&ga);
    forget(&gb);
    redis_ctl("kill");
    assert_true(wait_for(a, &ga, b, &gb, both_down, 0, 5000));
    assert_false(bus_connected(a));
    assert_non_null(strstr(ga.last_error, "bus redis://127.0.0.1:"));
    /* Down: a message is refused at once, not kept. */
    json_t *p = json_object();
    char err[256];
    assert_int_equal(bus_publish(a, "g1", "move", p, err, sizeof err), -1);
    assert_non_null(strstr(err, "not connected"));
    /* Let a few attempts fail, then bring Redis back on its port. */
    struct timespec t = {0, 700000000L};
    nanosleep(&t, NULL);
    redis_ctl("start");
    assert_true(wait_for(a, &ga, b, &gb, both_up, 0, 10000));
    assert_true(bus_connected(a) && bus_connected(b));
    assert_int_equal(ga.down, 1);
    assert_int_equal(gb.down, 1);
    publish(a, "g1", "move", "{\"after\": true}");
    assert_true(wait_for(a, &ga, b, &gb, second_has, 1, 3000));
    assert_string_equal(gb.m[0].payload, "{\"after\":true}");
    publish(b, "g2", "move", "{\"back\": 1}");
    assert_true(wait_for(b, &gb, a, &ga, second_has, 1, 3000));
    assert_string_equal(ga.m[0].payload, "{\"back\":1}");
    json_decref(p);
    forget(&ga);
    forget(&gb);
    bus_close(a);
    bus_close(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_urls),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_channels),
        cmocka_unit_test(test_publish_receive),
        cmocka_unit_test(test_many_games),
        cmocka_unit_test(test_malformed_dropped),
        cmocka_unit_test_teardown(test_passwords, no_passwords),
        cmocka_unit_test(test_redis_restart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
