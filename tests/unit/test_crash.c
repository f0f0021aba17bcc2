/* SPDX-License-Identifier: MIT */
/*
 * test_crash.c - the server when its database cannot be written (issue 12,
 * part 4; kill -9 under load is tests/cli/crash.sh).
 *
 * A full disk: the database on a 1 MiB tmpfs, filled up by a file while a
 * game is played.  A move that cannot be stored is answered 500 with a
 * JSON error naming the database, the game stays at its last acknowledged
 * move (in its state and in its watcher's pushes), reads go on, and the
 * moves succeed again once the file is removed; after a kill -9 every
 * acknowledged move is there.  A locked database: another process holds
 * it with BEGIN EXCLUSIVE; a move is refused within the store's busy
 * timeout (5 s) and a little, and goes through once the lock is let go.
 * The tmpfs needs root (mount); the test fails, saying so, without it.
 */
#include "srvclient.h"

#include <sqlite3.h>
#include <sys/mount.h>

/* Moves of a local International game that never runs out early: men
 * shuffled forward on the flanks, both sides. */
static const char *const MOVES[] = {"32-28", "19-23", "28x19", "14x23", "33-28", "23x32",
                                    "37x28", "17-22", "28x17", "11x22", "31-27", "22x31",
                                    "36x27", "20-24", "34-29", "24x33", "39x28", "15-20",
                                    "40-34", "10-15", "44-39", "5-10",  "50-44", "20-24",
                                    "29x20", "15x24", "34-29", "24x33", "38x29", "10-15",
                                    "42-38", "4-10",  "47-42", "12-17", "41-37", "7-12",
                                    "46-41", "1-7",   "43-39", "18-22", "27x18", "13x22"};
#define NMOVES ((int)(sizeof MOVES / sizeof MOVES[0]))

static char mounted[160];

static int unmount_all(void **state)
{
    sc_kill_all(state);
    if (mounted[0]) {
        umount2(mounted, MNT_DETACH);
        mounted[0] = '\0';
    }
    return 0;
}

/* The game's moves as the server has them, checked to be MOVES[0..ply). */
static void expect_moves(int port, const char *id, int ply)
{
    sc_reply r;
    sc_state(port, id, &r);
    json_t *moves = json_object_get(r.json, "moves");
    if ((int)json_array_size(moves) != ply)
        fail_msg("game %s has %zu moves, %d acknowledged", id, json_array_size(moves), ply);
    for (int i = 0; i < ply; i++)
        assert_string_equal(json_string_value(json_array_get(moves, (size_t)i)), MOVES[i]);
    sc_reply_free(&r);
}

/* POSTs MOVES[ply]; the answer in r. */
static void post_move(int port, const char *id, const char *token, int ply, sc_reply *r)
{
    char path[128], body[256];
    snprintf(path, sizeof path, "/api/games/%s/moves", id);
    snprintf(body, sizeof body, "{\"move\":\"%s\",\"token\":\"%s\"}", MOVES[ply], token);
    sc_post(port, path, body, r);
}

/* The next state the watcher is sent, checked to be at ply. */
static void expect_push(int ws, int ply)
{
    json_t *o = sc_ws_expect(ws, "state");
    int got = sc_int(json_object_get(o, "game"), "ply");
    json_decref(o);
    if (got != ply)
        fail_msg("the watcher was sent ply %d, %d acknowledged", got, ply);
}

static void test_full_disk(void **state)
{
    (void)state;
    sc_server s;
    sc_make_dir(&s);
    snprintf(mounted, sizeof mounted, "%s/disk", s.dir);
    assert_int_equal(mkdir(mounted, 0755), 0);
    if (mount("tmpfs", mounted, "tmpfs", 0, "size=1m") != 0) {
        int e = errno;
        mounted[0] = '\0';
        fail_msg("cannot mount a 1 MiB tmpfs (root is needed): %s", strerror(e));
    }
    snprintf(s.db, sizeof s.db, "%s/damier.db", mounted);
    sc_start(&s, NULL);
    char id[16], token[48], path[128];
    sc_create(s.port, "{\"opponent\":{\"type\":\"local\"}}", id, token, NULL);
    snprintf(path, sizeof path, "/ws/games/%s", id);
    int ws = sc_ws_open(s.port, path);
    expect_push(ws, 0);
    int ply = 0;
    sc_reply r;
    for (; ply < 4; ply++) {
        post_move(s.port, id, token, ply, &r);
        assert_int_equal(r.status, 200);
        sc_reply_free(&r);
        expect_push(ws, ply + 1);
    }

    /* The disk fills up: the moves go on until one cannot be stored. */
    char filler[200];
    snprintf(filler, sizeof filler, "%s/filler", mounted);
    FILE *f = fopen(filler, "w");
    assert_non_null(f);
    static char block[4096];
    while (fwrite(block, 1, sizeof block, f) == sizeof block && fflush(f) == 0)
        ;
    fclose(f);
    bool refused = false;
    while (ply < NMOVES - 8 && !refused) {
        post_move(s.port, id, token, ply, &r);
        if (r.status == 200) {
            ply++;
            expect_push(ws, ply);
        } else {
            if (r.status != 500 || !strstr(r.body, "could not be stored") ||
                !strstr(r.body, "disk is full"))
                fail_msg("a move on a full disk: %d %s", r.status, r.body);
            refused = true;
        }
        sc_reply_free(&r);
    }
    if (!refused)
        fail_msg("%d moves were stored on a full 1 MiB disk", ply);
    /* The refused move is nowhere: not in the state, not pushed as made. */
    expect_moves(s.port, id, ply);
    expect_push(ws, ply);
    sc_get(s.port, "/api/variants", &r);
    assert_int_equal(r.status, 200);
    sc_reply_free(&r);
    post_move(s.port, id, token, ply, &r);
    sc_expect_error(&r, 500, "a second move on a full disk");
    expect_push(ws, ply);

    /* Space comes back: the game goes on where it was. */
    assert_int_equal(unlink(filler), 0);
    for (int i = 0; i < 4; i++, ply++) {
        post_move(s.port, id, token, ply, &r);
        if (r.status != 200)
            fail_msg("a move once space is back: %d %s", r.status, r.body);
        sc_reply_free(&r);
        expect_push(ws, ply + 1);
    }
    close(ws);
    sc_stop(&s, SIGKILL);
    sc_start(&s, NULL);
    expect_moves(s.port, id, ply);
    post_move(s.port, id, token, ply, &r);
    assert_int_equal(r.status, 200);
    sc_reply_free(&r);
    sc_stop(&s, SIGTERM);
    assert_int_equal(umount2(mounted, 0), 0);
    mounted[0] = '\0';
    sc_remove_dir(&s);
}

static void test_locked_database(void **state)
{
    (void)state;
    sc_server s;
    sc_make_dir(&s);
    sc_start(&s, NULL);
    char id[16], token[48];
    sc_create(s.port, "{\"opponent\":{\"type\":\"local\"}}", id, token, NULL);
    sc_reply r;
    int ply = 0;
    for (; ply < 2; ply++) {
        post_move(s.port, id, token, ply, &r);
        assert_int_equal(r.status, 200);
        sc_reply_free(&r);
    }

    /* Another process takes the write lock and keeps it. */
    int go[2], held[2];
    assert_int_equal(pipe(go), 0);
    assert_int_equal(pipe(held), 0);
    pid_t locker = fork();
    assert_true(locker >= 0);
    if (locker == 0) {
        sqlite3 *db;
        char ok = 'n', c;
        if (sqlite3_open(s.db, &db) == SQLITE_OK &&
            sqlite3_exec(db, "BEGIN EXCLUSIVE", NULL, NULL, NULL) == SQLITE_OK)
            ok = 'y';
        if (write(held[1], &ok, 1) != 1 || read(go[0], &c, 1) != 1)
            _exit(1);
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        sqlite3_close(db);
        _exit(0);
    }
    char ok = 0;
    assert_int_equal(read(held[0], &ok, 1), 1);
    if (ok != 'y')
        fail_msg("the other process could not lock the database");

    int64_t t0 = net_now_ms();
    post_move(s.port, id, token, ply, &r);
    int64_t ms = net_now_ms() - t0;
    if (r.status != 500 || !strstr(r.body, "could not be stored") ||
        !strstr(r.body, "database is locked"))
        fail_msg("a move on a locked database: %d %s", r.status, r.body);
    sc_reply_free(&r);
    if (ms < 4000 || ms > 8000)
        fail_msg("a move on a locked database was refused after %lld ms, not about 5 s",
                 (long long)ms);
    /* Reads are served from memory meanwhile, at their last stored move. */
    expect_moves(s.port, id, ply);

    /* The lock goes: the move goes through. */
    assert_int_equal(write(go[1], "g", 1), 1);
    int status;
    assert_int_equal(waitpid(locker, &status, 0), locker);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    post_move(s.port, id, token, ply, &r);
    if (r.status != 200)
        fail_msg("a move once the lock is gone: %d %s", r.status, r.body);
    sc_reply_free(&r);
    ply++;
    sc_stop(&s, SIGKILL);
    sc_start(&s, NULL);
    expect_moves(s.port, id, ply);
    sc_stop(&s, SIGTERM);
    close(go[0]);
    close(go[1]);
    close(held[0]);
    close(held[1]);
    sc_remove_dir(&s);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_full_disk, unmount_all),
        cmocka_unit_test_teardown(test_locked_database, unmount_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
