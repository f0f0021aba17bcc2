/* SPDX-License-Identifier: MIT */
/*
 * test_store.c - store.h, one suite run on both backends: SQLite on a
 * fresh file per test, PostgreSQL on the database DAMIER_TEST_PG names
 * (its public schema emptied before each test).  Without DAMIER_TEST_PG
 * the PostgreSQL half is skipped, and says so; tests/cli/store_pg.sh runs
 * this program again on a throwaway server (tools/pg-test.sh).
 *
 * Each backend: a game created and loaded back field by field; moves
 * appended with their clock readings, a takeback's truncation; the
 * unfinished games in creation order; absent, malformed and hostile ids;
 * reopening (the schema migrated once, a newer schema refused).  Then what
 * only one of them meets: bad URLs, a refused connection, a wrong
 * password (never echoed); a connection ended under the store (reset on
 * the next call; an error while the database refuses, never a crash); a
 * lock that would hold the store (given up after statement_timeout).
 * Leases, on both, with two stores as two nodes of one database: a new
 * game is its creator's; the other node can neither take it nor write it
 * (the write guard, STORE_NOT_HOLDER, nothing changed); an expired lease
 * is taken over, and its old holder's writes and renewal then fail;
 * renewal keeps leases past their first expiry; release, one and all;
 * the takeable list (unowned, expired, never a finished game, at most
 * max); on PostgreSQL, a take that waits for a write in flight and then
 * sees it.
 */
#include "testutil.h"

#include <libpq-fe.h>
#include <pthread.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "server/store.h"

struct backend {
    const char *name;
    char where[512]; /* the file or the URL                            */
    char dir[64];    /* SQLite: the test's folder                      */
};

static struct backend sqlite_backend = {.name = "sqlite"};
static struct backend pg_backend = {.name = "postgresql"};

static void quiet(void *arg, const char *msg)
{
    (void)arg;
    (void)msg;
}

/* SQL on a connection of its own to url (PostgreSQL); fails the test on an
 * error. */
static void exec_on(const char *url, const char *sql)
{
    PGconn *c = PQconnectdb(url);
    if (PQstatus(c) != CONNECTION_OK)
        fail_msg("cannot reach %s: %s", url, PQerrorMessage(c));
    PQsetNoticeProcessor(c, quiet, NULL);
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK)
        fail_msg("%s: %s", sql, PQerrorMessage(c));
    PQclear(r);
    PQfinish(c);
}

static void admin_exec(const char *sql)
{
    exec_on(pg_backend.where, sql);
}

/* SQL run on the backend's database behind the store's back. */
static void raw_exec(struct backend *b, const char *sql)
{
    if (b == &pg_backend) {
        admin_exec(sql);
        return;
    }
    sqlite3 *db;
    assert_int_equal(sqlite3_open(b->where, &db), SQLITE_OK);
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%s: %s", sql, msg);
    sqlite3_close(db);
}

/* A fresh, empty database for each test. */
static int fresh(void **state)
{
    struct backend *b = *state;
    if (b == &pg_backend) {
        const char *url = getenv("DAMIER_TEST_PG");
        if (!url || !*url)
            return 0; /* the test skips */
        snprintf(b->where, sizeof b->where, "%s", url);
        admin_exec("DROP SCHEMA public CASCADE; CREATE SCHEMA public");
        return 0;
    }
    snprintf(b->dir, sizeof b->dir, "/tmp/damier-store-XXXXXX");
    assert_non_null(mkdtemp(b->dir));
    snprintf(b->where, sizeof b->where, "%s/games.db", b->dir);
    return 0;
}

static int cleanup(void **state)
{
    struct backend *b = *state;
    if (b == &sqlite_backend) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", b->dir);
        assert_int_equal(system(cmd), 0);
    }
    return 0;
}

/* The backend's store, open; the test skips when PostgreSQL is not given. */
static store *open_store(void **state)
{
    struct backend *b = *state;
    if (b == &pg_backend && !getenv("DAMIER_TEST_PG")) {
        print_message("SKIP: the PostgreSQL store: DAMIER_TEST_PG is unset "
                      "(tests/cli/store_pg.sh starts a server for it)\n");
        skip();
    }
    char err[512] = "";
    store *s = store_open(b->where, err, sizeof err);
    if (!s)
        fail_msg("%s: store_open: %s", b->name, err);
    assert_string_equal(store_kind(s), b->name);
    return s;
}

/* A game with every field away from its zero. */
static store_game sample(const char *id)
{
    store_game g = {.opponent = STORE_VS_FRIEND,
                    .seat = {STORE_PERSON, STORE_COMPUTER},
                    .level = 5,
                    .joined = true,
                    .draw_offer = 1,
                    .takeback = 0,
                    .over = false,
                    .seq = 4294967301u,
                    .pdn = "[Event \"t\u00e9st\"]\n1. 32-28 *\n"};
    snprintf(g.id, sizeof g.id, "%s", id);
    snprintf(g.token[0], sizeof g.token[0], "tok-white-%s", id);
    snprintf(g.token[1], sizeof g.token[1], "tok-black");
    snprintf(g.invite, sizeof g.invite, "inv%s", id);
    snprintf(g.clock, sizeof g.clock, "5+3");
    return g;
}

static void expect_same(const store_game *want, const store_game *got)
{
    assert_string_equal(got->id, want->id);
    assert_int_equal(got->opponent, want->opponent);
    assert_int_equal(got->seat[0], want->seat[0]);
    assert_int_equal(got->seat[1], want->seat[1]);
    assert_int_equal(got->level, want->level);
    assert_string_equal(got->token[0], want->token[0]);
    assert_string_equal(got->token[1], want->token[1]);
    assert_string_equal(got->invite, want->invite);
    assert_int_equal(got->joined, want->joined);
    assert_string_equal(got->clock, want->clock);
    assert_int_equal(got->draw_offer, want->draw_offer);
    assert_int_equal(got->takeback, want->takeback);
    assert_int_equal(got->over, want->over);
    assert_true(got->seq == want->seq);
    assert_non_null(got->pdn);
    assert_string_equal(got->pdn, want->pdn);
}

static void create(store *s, const store_game *g)
{
    char err[512];
    if (store_create_game(s, g, err, sizeof err) != 0)
        fail_msg("create %s: %s", g->id, err);
}

/* ---- both backends ------------------------------------------------------ */

static void test_create_and_load(void **state)
{
    store *s = open_store(state);
    store_game g = sample("Ab3xY9"), got;
    create(s, &g);
    char err[512];
    assert_int_equal(store_load_game(s, "Ab3xY9", &got, err, sizeof err), 1);
    expect_same(&g, &got);
    free(got.pdn);
    assert_int_equal(store_move_count(s, "Ab3xY9"), 0);
    /* An id created twice is refused, the first kept. */
    store_game again = sample("Ab3xY9");
    again.level = 1;
    assert_int_equal(store_create_game(s, &again, err, sizeof err), -1);
    assert_true(strlen(err) > 0);
    assert_int_equal(store_load_game(s, "Ab3xY9", &got, err, sizeof err), 1);
    assert_int_equal(got.level, 5);
    free(got.pdn);
    store_close(s);
}

/* Invites are found by their code (a node joins another node's game). */
static void test_find_invite(void **state)
{
    store *s = open_store(state);
    store_game a = sample("gameA"), b = sample("gameB");
    snprintf(b.invite, sizeof b.invite, "%s", "");
    create(s, &a);
    create(s, &b);
    char err[512], id[STORE_ID] = "";
    assert_int_equal(store_find_invite(s, "invgameA", id, sizeof id, err, sizeof err), 1);
    assert_string_equal(id, "gameA");
    static const char *const none[] = {"invgameB", "", "invgame", "invgameA ", "x'OR'1'='1"};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        id[0] = '\0';
        if (store_find_invite(s, none[i], id, sizeof id, err, sizeof err) != 0)
            fail_msg("invite '%s': not 0 (%s)", none[i], err);
        assert_string_equal(id, "");
    }
    store_close(s);
}

static void test_moves_and_takeback(void **state)
{
    store *s = open_store(state);
    store_game g = sample("mv1");
    create(s, &g);
    char err[512];
    static const char *const moves[] = {"32-28", "18-23", "28x19", "14x23", "37-32"};
    for (int ply = 1; ply <= 5; ply++) {
        g.seq++;
        if (store_append_move(s, &g, ply, moves[ply - 1], ply == 3 ? -1 : 300000 - ply * 1000,
                              err, sizeof err) != 0)
            fail_msg("append %d: %s", ply, err);
    }
    assert_int_equal(store_move_count(s, "mv1"), 5);
    store_game got;
    assert_int_equal(store_load_game(s, "mv1", &got, err, sizeof err), 1);
    assert_true(got.seq == g.seq);
    free(got.pdn);
    /* A takeback to ply 3 drops plies 4 and 5 with the save. */
    g.seq++;
    g.takeback = -1;
    assert_int_equal(store_save_game(s, &g, 3, err, sizeof err), 0);
    assert_int_equal(store_move_count(s, "mv1"), 3);
    /* A save that keeps every move; then ply 4 again, a new move. */
    g.draw_offer = -1;
    assert_int_equal(store_save_game(s, &g, -1, err, sizeof err), 0);
    assert_int_equal(store_move_count(s, "mv1"), 3);
    assert_int_equal(store_append_move(s, &g, 4, "19-14", 1234, err, sizeof err), 0);
    assert_int_equal(store_append_move(s, &g, 4, "19-13", 1200, err, sizeof err), 0);
    assert_int_equal(store_move_count(s, "mv1"), 4);
    /* Back to the start. */
    assert_int_equal(store_save_game(s, &g, 0, err, sizeof err), 0);
    assert_int_equal(store_move_count(s, "mv1"), 0);
    assert_int_equal(store_load_game(s, "mv1", &got, err, sizeof err), 1);
    expect_same(&g, &got);
    free(got.pdn);
    store_close(s);
}

struct seen {
    int n;
    char ids[8][STORE_ID];
};

static void collect(void *ctx, store_game *g)
{
    struct seen *seen = ctx;
    assert_non_null(g->pdn);
    if (seen->n < 8)
        snprintf(seen->ids[seen->n], STORE_ID, "%s", g->id);
    seen->n++;
}

static void test_unfinished(void **state)
{
    store *s = open_store(state);
    char err[512];
    struct seen seen = {0};
    assert_int_equal(store_load_unfinished(s, collect, &seen, err, sizeof err), 0);
    /* Creation order, not the ids' order; the finished one left out. */
    static const char *const ids[] = {"zz", "mm", "aa", "over"};
    for (int i = 0; i < 4; i++) {
        store_game g = sample(ids[i]);
        create(s, &g);
    }
    store_game over = sample("over");
    over.over = true;
    over.seq++;
    assert_int_equal(store_save_game(s, &over, -1, err, sizeof err), 0);
    assert_int_equal(store_load_unfinished(s, collect, &seen, err, sizeof err), 3);
    assert_int_equal(seen.n, 3);
    assert_string_equal(seen.ids[0], "zz");
    assert_string_equal(seen.ids[1], "mm");
    assert_string_equal(seen.ids[2], "aa");
    store_close(s);
}

static void test_absent_and_malformed_ids(void **state)
{
    store *s = open_store(state);
    store_game g = sample("real"), got;
    create(s, &g);
    char err[512];
    static const char *const none[] = {
        "nosuch", "", "real ", "re\377al", "\xc3\xa9t\xc3\xa9", "0123456789abcdefXYZ",
        "x'OR'1'='1", "real';DROP", "%", "real\n",
    };
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        err[0] = '\0';
        if (store_load_game(s, none[i], &got, err, sizeof err) != 0)
            fail_msg("load '%s': not 0 (%s)", none[i], err);
        assert_int_equal(store_move_count(s, none[i]), 0);
    }
    /* Writes to a game never created fail and leave nothing behind. */
    store_game ghost = sample("ghost");
    assert_int_equal(store_append_move(s, &ghost, 1, "32-28", 1000, err, sizeof err), -1);
    assert_non_null(strstr(err, "no game 'ghost'"));
    assert_int_equal(store_move_count(s, "ghost"), 0);
    assert_int_equal(store_save_game(s, &ghost, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "no game 'ghost'"));
    snprintf(ghost.id, sizeof ghost.id, "bad id");
    assert_int_equal(store_create_game(s, &ghost, err, sizeof err), -1);
    assert_int_equal(store_load_game(s, "ghost", &got, err, sizeof err), 0);
    /* And the real game is untouched by all of it. */
    assert_int_equal(store_load_game(s, "real", &got, err, sizeof err), 1);
    expect_same(&g, &got);
    free(got.pdn);
    store_close(s);
}

static void test_reopen_and_schema(void **state)
{
    struct backend *b = *state;
    store *s = open_store(state);
    store_game g = sample("keep");
    create(s, &g);
    char err[512];
    assert_int_equal(store_append_move(s, &g, 1, "32-28", 5000, err, sizeof err), 0);
    assert_int_equal(store_ping(s, err, sizeof err), 0);
    store_close(s);
    /* Open again: the data there, no migration applied twice. */
    s = open_store(state);
    assert_int_equal(store_move_count(s, "keep"), 1);
    store_close(s);
    s = open_store(state);
    store_close(s);
    /* A schema newer than this program is refused, with a reason. */
    raw_exec(b, "DELETE FROM schema_version WHERE version = 1; "
                "INSERT INTO schema_version (version) VALUES (1), (999)");
    err[0] = '\0';
    assert_null(store_open(b->where, err, sizeof err));
    if (!strstr(err, "schema version 999 is newer"))
        fail_msg("%s: a newer schema: '%s'", b->name, err);
}

/* ---- leases: two stores as two nodes ------------------------------------ */

static store *open_node(void **state, const char *node, int lease_ms)
{
    store *s = open_store(state);
    char err[512];
    if (store_set_node(s, node, lease_ms, err, sizeof err) != 0)
        fail_msg("store_set_node %s: %s", node, err);
    return s;
}

static void sleep_ms(int ms)
{
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

struct ids {
    int n;
    char id[8][STORE_ID];
};

static void collect_id(void *ctx, const char *id)
{
    struct ids *ids = ctx;
    if (ids->n < 8)
        snprintf(ids->id[ids->n], STORE_ID, "%s", id);
    ids->n++;
}

static bool has_id(const struct ids *ids, const char *id)
{
    for (int i = 0; i < ids->n && i < 8; i++)
        if (strcmp(ids->id[i], id) == 0)
            return true;
    return false;
}

/* A write by b of a game a holds: refused, saying why, nothing changed. */
static void expect_refused(store *b, store *a, store_game *g)
{
    char err[512] = "";
    int moves = store_move_count(a, g->id);
    store_game stale = *g;
    stale.seq += 100;
    assert_int_equal(store_append_move(b, &stale, moves + 1, "99-98", 1, err, sizeof err),
                     STORE_NOT_HOLDER);
    if (!strstr(err, "does not hold the lease of game"))
        fail_msg("a refused write: '%s'", err);
    err[0] = '\0';
    assert_int_equal(store_save_game(b, &stale, 0, err, sizeof err), STORE_NOT_HOLDER);
    assert_non_null(strstr(err, "does not hold the lease of game"));
    assert_int_equal(store_move_count(a, g->id), moves);
    store_game got;
    assert_int_equal(store_load_game(a, g->id, &got, err, sizeof err), 1);
    assert_true(got.seq == g->seq);
    free(got.pdn);
}

static void test_leases_compete(void **state)
{
    store *a = open_node(state, "node-a", 60000), *b = open_node(state, "node-b", 60000);
    char err[512], holder[STORE_NODE];
    store_game g = sample("g1");
    create(a, &g);
    /* Created by a, held by a: b can neither take it nor write it. */
    assert_int_equal(store_lease_take(b, "g1", holder, sizeof holder, err, sizeof err), 0);
    assert_string_equal(holder, "node-a");
    expect_refused(b, a, &g);
    g.seq++;
    assert_int_equal(store_append_move(a, &g, 1, "32-28", 1000, err, sizeof err), 0);
    assert_int_equal(store_lease_take(a, "g1", holder, sizeof holder, err, sizeof err), 1);
    struct ids ids = {0};
    assert_int_equal(store_lease_takeable(b, 0, collect_id, &ids, err, sizeof err), 0);
    /* A game made by a store of no node is nobody's until taken. */
    store *plain = open_store(state);
    store_game free_game = sample("g2");
    create(plain, &free_game);
    assert_int_equal(store_lease_takeable(b, 0, collect_id, &ids, err, sizeof err), 1);
    assert_string_equal(ids.id[0], "g2");
    expect_refused(a, plain, &free_game);
    assert_int_equal(store_lease_take(b, "g2", holder, sizeof holder, err, sizeof err), 1);
    assert_int_equal(store_lease_take(a, "g2", holder, sizeof holder, err, sizeof err), 0);
    assert_string_equal(holder, "node-b");
    assert_int_equal(store_save_game(b, &free_game, -1, err, sizeof err), 0);
    /* No game, no lease; a store of no node has none to take. */
    assert_int_equal(store_lease_take(a, "nosuch", holder, sizeof holder, err, sizeof err), -1);
    assert_non_null(strstr(err, "no game 'nosuch'"));
    assert_int_equal(store_lease_take(plain, "g2", holder, sizeof holder, err, sizeof err), -1);
    assert_non_null(strstr(err, "node name"));
    /* Names and lease times that cannot be. */
    assert_int_equal(store_set_node(plain, "", 1000, err, sizeof err), -1);
    assert_int_equal(store_set_node(plain, "a b", 1000, err, sizeof err), -1);
    assert_int_equal(store_set_node(plain, "ok", 99, err, sizeof err), -1);
    store_close(plain);
    store_close(a);
    store_close(b);
}

static void test_leases_expire(void **state)
{
    store *a = open_node(state, "node-a", 300), *b = open_node(state, "node-b", 60000);
    char err[512], holder[STORE_NODE];
    store_game g = sample("gx");
    create(a, &g);
    assert_int_equal(store_lease_take(b, "gx", holder, sizeof holder, err, sizeof err), 0);
    /* Past its expiry by the database's clock: b takes it over. */
    sleep_ms(450);
    struct ids ids = {0};
    assert_int_equal(store_lease_takeable(b, 0, collect_id, &ids, err, sizeof err), 1);
    assert_string_equal(ids.id[0], "gx");
    assert_int_equal(store_lease_take(b, "gx", holder, sizeof holder, err, sizeof err), 1);
    /* a lost it: its writes and its renewal fail, it cannot take it back. */
    expect_refused(a, b, &g);
    ids.n = 0;
    assert_int_equal(store_lease_renew(a, collect_id, &ids, err, sizeof err), 0);
    assert_int_equal(ids.n, 0);
    assert_int_equal(store_lease_take(a, "gx", holder, sizeof holder, err, sizeof err), 0);
    assert_string_equal(holder, "node-b");
    g.seq++;
    assert_int_equal(store_append_move(b, &g, 1, "32-28", 1000, err, sizeof err), 0);
    /* A lease that expired with nobody taking it is not renewed, but its
     * old holder may take it again (and must load the game afresh). */
    store_game h = sample("gy");
    create(a, &h);
    sleep_ms(450);
    assert_int_equal(store_lease_renew(a, NULL, NULL, err, sizeof err), 0);
    expect_refused(a, b, &h);
    assert_int_equal(store_lease_take(a, "gy", holder, sizeof holder, err, sizeof err), 1);
    h.seq++;
    assert_int_equal(store_save_game(a, &h, -1, err, sizeof err), 0);
    store_close(a);
    store_close(b);
}

static void test_leases_renew_release(void **state)
{
    store *a = open_node(state, "node-a", 300), *b = open_node(state, "node-b", 60000);
    char err[512], holder[STORE_NODE];
    static const char *const ids3[] = {"r1", "r2", "r3"};
    for (int i = 0; i < 3; i++) {
        store_game g = sample(ids3[i]);
        create(a, &g);
    }
    /* Renewed every 100 ms, the 300 ms leases outlive 700 ms. */
    struct ids ids = {0};
    for (int i = 0; i < 7; i++) {
        sleep_ms(100);
        ids.n = 0;
        assert_int_equal(store_lease_renew(a, collect_id, &ids, err, sizeof err), 3);
    }
    assert_true(has_id(&ids, "r1") && has_id(&ids, "r2") && has_id(&ids, "r3"));
    assert_int_equal(store_lease_take(b, "r2", holder, sizeof holder, err, sizeof err), 0);
    assert_int_equal(store_lease_takeable(b, 0, collect_id, &ids, err, sizeof err), 0);
    /* Released: at once another's. */
    assert_int_equal(store_lease_release(a, "r2", err, sizeof err), 0);
    assert_int_equal(store_lease_release(b, "r1", err, sizeof err), 0); /* not b's: kept */
    ids.n = 0;
    assert_int_equal(store_lease_takeable(b, 0, collect_id, &ids, err, sizeof err), 1);
    assert_string_equal(ids.id[0], "r2");
    assert_int_equal(store_lease_take(b, "r2", holder, sizeof holder, err, sizeof err), 1);
    assert_int_equal(store_lease_renew(a, NULL, NULL, err, sizeof err), 2);
    /* A finished game is never takeable; max bounds the list; all of a's
     * leases released at once, oldest first in the list. */
    store_game over = sample("r3");
    over.over = true;
    assert_int_equal(store_save_game(a, &over, -1, err, sizeof err), 0);
    assert_int_equal(store_lease_release(a, NULL, err, sizeof err), 0);
    assert_int_equal(store_lease_renew(a, NULL, NULL, err, sizeof err), 0);
    ids.n = 0;
    assert_int_equal(store_lease_takeable(b, 0, collect_id, &ids, err, sizeof err), 1);
    assert_string_equal(ids.id[0], "r1");
    store_game r4 = sample("r4");
    create(a, &r4);
    assert_int_equal(store_lease_release(a, "r4", err, sizeof err), 0);
    ids.n = 0;
    assert_int_equal(store_lease_takeable(b, 1, collect_id, &ids, err, sizeof err), 1);
    assert_string_equal(ids.id[0], "r1");
    ids.n = 0;
    assert_int_equal(store_lease_takeable(b, 0, collect_id, &ids, err, sizeof err), 2);
    assert_string_equal(ids.id[1], "r4");
    store_close(a);
    store_close(b);
}

/* ---- SQLite only -------------------------------------------------------- */

static void test_sqlite_bad_files(void **state)
{
    struct backend *b = *state;
    char err[512], path[600];
    snprintf(path, sizeof path, "%s/not-a-database", b->dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("this is no SQLite file, just text that is long enough to have a header page\n", f);
    fclose(f);
    assert_null(store_open(path, err, sizeof err));
    assert_non_null(strstr(err, "not a database"));
    snprintf(path, sizeof path, "%s/no/such/folder/games.db", b->dir);
    assert_null(store_open(path, err, sizeof err));
    assert_non_null(strstr(err, "database"));
    assert_null(store_open("", err, sizeof err));
}

/* A file written before the schema had versions (its two tables, no
 * schema_version) is adopted: its games load, version 1 is recorded. */
static void test_sqlite_unversioned_file(void **state)
{
    struct backend *b = *state;
    raw_exec(b, "CREATE TABLE games ("
                " id TEXT PRIMARY KEY, opponent INTEGER NOT NULL, seat_white INTEGER NOT NULL,"
                " seat_black INTEGER NOT NULL, level INTEGER NOT NULL, token_white TEXT NOT NULL,"
                " token_black TEXT NOT NULL, invite TEXT NOT NULL, joined INTEGER NOT NULL,"
                " clock TEXT NOT NULL, draw_offer INTEGER NOT NULL, takeback INTEGER NOT NULL,"
                " over INTEGER NOT NULL, seq INTEGER NOT NULL, pdn TEXT NOT NULL,"
                " created TEXT NOT NULL DEFAULT (datetime('now')));"
                "CREATE INDEX games_over ON games(over);"
                "CREATE TABLE moves (game TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,"
                " move TEXT NOT NULL, clock_ms INTEGER, PRIMARY KEY (game, ply));"
                "INSERT INTO games VALUES ('old1', 0, 0, 1, 3, 'tw', '', '', 0, '', -1, -1, 0, 7,"
                " '1. 32-28 *', datetime('now'));"
                "INSERT INTO moves VALUES ('old1', 1, '32-28', NULL);");
    store *s = open_store(state);
    char err[512];
    store_game got;
    assert_int_equal(store_load_game(s, "old1", &got, err, sizeof err), 1);
    assert_int_equal(got.level, 3);
    assert_true(got.seq == 7);
    assert_string_equal(got.pdn, "1. 32-28 *");
    free(got.pdn);
    assert_int_equal(store_move_count(s, "old1"), 1);
    store_close(s);
    sqlite3 *db;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open(b->where, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT group_concat(version) FROM schema_version",
                                        -1, &st, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), "1,2");
    sqlite3_finalize(st);
    sqlite3_close(db);
}

/* ---- PostgreSQL only ---------------------------------------------------- */

/* The test server's URL with its password replaced; false if it has
 * none (DAMIER_TEST_PG as postgresql://USER:PASSWORD@HOST:PORT/DB). */
static bool with_password(const char *password, char *url, size_t size)
{
    const char *after = strstr(pg_backend.where, "://");
    const char *at = after ? strchr(after, '@') : NULL;
    const char *colon = after ? strchr(after + 3, ':') : NULL;
    if (!at || !colon || colon > at)
        return false;
    snprintf(url, size, "%.*s:%s%s", (int)(colon - pg_backend.where), pg_backend.where, password,
             at);
    return true;
}

/* The test server's URL for another database. */
static void other_database(const char *db, char *url, size_t size)
{
    const char *slash = strrchr(pg_backend.where, '/');
    const char *query = strchr(slash, '?');
    snprintf(url, size, "%.*s/%s%s", (int)(slash - pg_backend.where), pg_backend.where, db,
             query ? query : "");
}

static void expect_open_fails(const char *where, const char *want, const char *secret)
{
    char err[512] = "";
    store *s = store_open(where, err, sizeof err);
    if (s)
        fail_msg("store_open '%s' opened", want);
    if (!strstr(err, want))
        fail_msg("store_open: '%s', expected '%s' in it", err, want);
    if (secret && strstr(err, secret))
        fail_msg("the error shows the password: %s", err);
    assert_null(strchr(err, '\n'));
}

static void test_pg_connection_errors(void **state)
{
    store_close(open_store(state)); /* skips without a server */
    char url[600];
    expect_open_fails("postgresql://127.0.0.1:1/damier", "Connection refused", NULL);
    expect_open_fails("postgres://127.0.0.1:1/damier", "cannot connect", NULL);
    expect_open_fails("postgresql://localhost/x?nonsense=1", "bad PostgreSQL URL", NULL);
    expect_open_fails("postgresql://[::1/x", "bad PostgreSQL URL", NULL);
    expect_open_fails("postgresql://me:Hush@[::1/x", "bad PostgreSQL URL", "Hush");
    char missing[700];
    other_database("no_such_db", missing, sizeof missing);
    if (!with_password("Wr0ngSecret", url, sizeof url)) {
        expect_open_fails(missing, "no_such_db", NULL);
        return;
    }
    expect_open_fails(url, "password authentication failed", "Wr0ngSecret");
    /* The message names the database, never with its password. */
    const char *password = strchr(strstr(pg_backend.where, "://") + 3, ':') + 1;
    char real[128];
    snprintf(real, sizeof real, "%.*s", (int)(strchr(password, '@') - password), password);
    expect_open_fails(missing, "no_such_db", real);
}

/* Ends every connection to the test database (the store's), waiting
 * until each has ended, so that the store's next call meets a closed
 * connection.  Run from the database postgres, which stays open when the
 * test database is closed to new connections. */
static void kick(void)
{
    char postgres[700];
    other_database("postgres", postgres, sizeof postgres);
    PGconn *c = PQconnectdb(pg_backend.where);
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE datname = '%s'",
             PQdb(c));
    PQfinish(c);
    exec_on(postgres, sql);
}

static void test_pg_connection_lost(void **state)
{
    store *s = open_store(state);
    store_game g = sample("lost"), got;
    create(s, &g);
    char err[512];
    /* Ended once: the next calls reconnect, a read and a write alike. */
    kick();
    assert_int_equal(store_load_game(s, "lost", &got, err, sizeof err), 1);
    free(got.pdn);
    kick();
    g.seq++;
    if (store_append_move(s, &g, 1, "32-28", 1000, err, sizeof err) != 0)
        fail_msg("append after a reset: %s", err);
    /* While the database refuses connections: errors, no crash. */
    PGconn *c = PQconnectdb(pg_backend.where);
    char db[128], sql[256], postgres[700];
    snprintf(db, sizeof db, "%s", PQdb(c));
    PQfinish(c);
    /* The database postgres lets the test in while the store is kept out. */
    other_database("postgres", postgres, sizeof postgres);
    snprintf(sql, sizeof sql, "ALTER DATABASE \"%s\" ALLOW_CONNECTIONS false", db);
    exec_on(postgres, sql);
    kick();
    g.seq++;
    err[0] = '\0';
    int append = store_append_move(s, &g, 2, "18-23", 900, err, sizeof err);
    char append_err[512];
    snprintf(append_err, sizeof append_err, "%s", err);
    int ping = store_ping(s, err, sizeof err);
    int load = store_load_game(s, "lost", &got, err, sizeof err);
    int count = store_move_count(s, "lost");
    snprintf(sql, sizeof sql, "ALTER DATABASE \"%s\" ALLOW_CONNECTIONS true", db);
    exec_on(postgres, sql);
    assert_int_equal(append, -1);
    assert_true(strlen(append_err) > 0);
    assert_int_equal(ping, -1);
    assert_int_equal(load, -1);
    assert_int_equal(count, -1);
    /* Back: the store reconnects, and the failed write left nothing. */
    assert_int_equal(store_ping(s, err, sizeof err), 0);
    assert_int_equal(store_move_count(s, "lost"), 1);
    assert_int_equal(store_append_move(s, &g, 2, "18-23", 900, err, sizeof err), 0);
    assert_int_equal(store_move_count(s, "lost"), 2);
    store_close(s);
}

/* A test on one backend, named after both. */
/* A statement waiting on a lock gives up (statement_timeout, the store's
 * default 10 s, 300 ms from this URL) rather than hold the server. */
static void test_pg_lock_wait_bounded(void **state)
{
    store_close(open_store(state)); /* skips without a server; makes the tables */
    char url[700];
    snprintf(url, sizeof url, "%s%soptions=-c%%20statement_timeout%%3D300", pg_backend.where,
             strchr(pg_backend.where, '?') ? "&" : "?");
    char err[512];
    store *s = store_open(url, err, sizeof err);
    if (!s)
        fail_msg("store_open %s: %s", url, err);
    PGconn *c = PQconnectdb(pg_backend.where);
    PQclear(PQexec(c, "BEGIN"));
    PGresult *r = PQexec(c, "LOCK TABLE games IN ACCESS EXCLUSIVE MODE");
    assert_int_equal(PQresultStatus(r), PGRES_COMMAND_OK);
    PQclear(r);
    store_game g = sample("locked");
    int rc = store_create_game(s, &g, err, sizeof err);
    PQclear(PQexec(c, "ROLLBACK"));
    PQfinish(c);
    assert_int_equal(rc, -1);
    if (!strstr(err, "statement timeout"))
        fail_msg("a write behind a lock: '%s'", err);
    /* The lock gone, the same store writes. */
    assert_int_equal(store_create_game(s, &g, err, sizeof err), 0);
    store_close(s);
}

struct take_job {
    store *s;
    const char *id;
    int rc;
    char err[512];
};

static void *take_in_thread(void *arg)
{
    struct take_job *job = arg;
    job->rc = store_lease_take(job->s, job->id, NULL, 0, job->err, sizeof job->err);
    return NULL;
}

/* A take that comes while the holder's guarded write is in flight waits
 * for its commit, and then sees what it wrote: the write's transaction is
 * played here by hand on a connection of the test's own, as the guard
 * does it (the lease row locked), while its lease runs out. */
static void test_pg_take_waits_for_write(void **state)
{
    store *a = open_node(state, "node-a", 300), *b = open_node(state, "node-b", 60000);
    store_game g = sample("inflight");
    create(a, &g);
    PGconn *c = PQconnectdb(pg_backend.where);
    PQclear(PQexec(c, "BEGIN"));
    PGresult *r = PQexec(c, "SELECT 1 FROM leases WHERE game='inflight' AND node='node-a'"
                            " AND expires > now() FOR UPDATE");
    assert_int_equal(PQntuples(r), 1);
    PQclear(r);
    sleep_ms(450); /* the lease has expired, the write not yet committed */
    struct take_job job = {.s = b, .id = "inflight", .rc = 99};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, take_in_thread, &job), 0);
    sleep_ms(300);
    int rc_while_locked = __atomic_load_n(&job.rc, __ATOMIC_SEQ_CST);
    r = PQexec(c, "UPDATE games SET seq = 77 WHERE id = 'inflight'");
    assert_int_equal(PQresultStatus(r), PGRES_COMMAND_OK);
    PQclear(r);
    PQclear(PQexec(c, "COMMIT"));
    PQfinish(c);
    pthread_join(t, NULL);
    assert_int_equal(rc_while_locked, 99);
    if (job.rc != 1)
        fail_msg("the take after the write: %d %s", job.rc, job.err);
    store_game got;
    char err[512];
    assert_int_equal(store_load_game(b, "inflight", &got, err, sizeof err), 1);
    assert_true(got.seq == 77);
    free(got.pdn);
    expect_refused(a, b, &got);
    store_close(a);
    store_close(b);
}

#define ON(backend, test) {#backend ": " #test, test, fresh, cleanup, &backend##_backend}
#define BOTH(test) ON(sqlite, test), ON(pg, test)

int main(void)
{
    const struct CMUnitTest tests[] = {
        BOTH(test_create_and_load),
        BOTH(test_moves_and_takeback),
        BOTH(test_unfinished),
        BOTH(test_absent_and_malformed_ids),
        BOTH(test_find_invite),
        BOTH(test_reopen_and_schema),
        BOTH(test_leases_compete),
        BOTH(test_leases_expire),
        BOTH(test_leases_renew_release),
        ON(sqlite, test_sqlite_bad_files),
        ON(sqlite, test_sqlite_unversioned_file),
        ON(pg, test_pg_connection_errors),
        ON(pg, test_pg_connection_lost),
        ON(pg, test_pg_lock_wait_bounded),
        ON(pg, test_pg_take_waits_for_write),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
