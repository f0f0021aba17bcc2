/* SPDX-License-Identifier: MIT */
/*
 * test_server.c - `damier serve` on loopback, driven as a browser would:
 * plain sockets, HTTP/1.1 requests and a minimal WebSocket client (the
 * handshake, masked text frames out, unmasked frames in), both from
 * srvclient.h.
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
#include "srvclient.h"

/* A fresh folder with a small web/ of each file type the app uses; the
 * database there, or DAMIER_TEST_DB's (tests/cli/store_pg.sh). */
static void make_dir(sc_server *s)
{
    sc_make_dir(s);
    sc_use_test_db(s);
    s->threads = 2;
    sc_write_file(s->web, "app.mjs", "export const app = 1;\n");
    sc_write_file(s->web, "style.css", "body { margin: 0 }\n");
    sc_write_file(s->web, "board.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n");
    sc_write_file(s->web, "data.json", "{}\n");
}

/* Starts damier serve on the folder's database with the options extra
 * (NULL-ended, or NULL); its "Damier is at http://127.0.0.1:PORT/" line. */
static void start_with(sc_server *s, const char *const *extra)
{
    sc_start(s, extra);
    assert_non_null(strstr(s->said, "Damier is at http://127.0.0.1:"));
}

static void start(sc_server *s)
{
    start_with(s, NULL);
}

/* ---- the API walk ------------------------------------------------------- */

static void test_static_files(void **state_)
{
    (void)state_;
    sc_server s;
    make_dir(&s);
    start(&s);
    static const struct {
        const char *path, *type;
    } files[] = {
        {"/", "text/html"},         {"/game/abc123", "text/html"}, {"/join/xyz", "text/html"},
        {"/app.mjs", "text/javascript"}, {"/style.css", "text/css"},
        {"/board.svg", "image/svg+xml"}, {"/data.json", "application/json"},
    };
    sc_reply r;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        sc_get(s.port, files[i].path, &r);
        if (r.status != 200)
            fail_msg("GET %s: %d", files[i].path, r.status);
        char want[80];
        snprintf(want, sizeof want, "content-type: %s", files[i].type);
        if (!strstr(r.headers, want))
            fail_msg("GET %s: not %s:\n%s", files[i].path, files[i].type, r.headers);
        assert_non_null(strstr(r.headers, "content-security-policy: default-src 'none'; script-src 'self'"));
        assert_non_null(strstr(r.headers, "cache-control:"));
        sc_reply_free(&r);
    }
    sc_get(s.port, "/game/abc123", &r);
    assert_non_null(strstr(r.body, "<title>app</title>"));
    sc_reply_free(&r);
    sc_get(s.port, "/missing.js", &r);
    sc_expect_error(&r, 404, "a missing file");
    /* ".." never leaves web/, spelt out or percent-encoded. */
    static const char *const escapes[] = {"/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
                                          "/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd", "/api/..%2f..%2fetc/passwd",
                                          "/web/../../damier.db"};
    for (size_t i = 0; i < sizeof escapes / sizeof escapes[0]; i++) {
        sc_get(s.port, escapes[i], &r);
        if (r.status < 400 || r.status > 404 || strstr(r.body, "root:") || strstr(r.body, "SQLite"))
            fail_msg("GET %s: %d %s", escapes[i], r.status, r.body);
        sc_reply_free(&r);
    }
    sc_stop(&s, SIGTERM);
    sc_remove_dir(&s);
}

static void test_api(void **state_)
{
    (void)state_;
    sc_server s;
    make_dir(&s);
    start(&s);
    int port = s.port;
    sc_reply r;
    char id[16], token[48], path[256];

    /* GET /api/variants: the whole table, with the geometry. */
    sc_get(port, "/api/variants", &r);
    assert_int_equal(r.status, 200);
    assert_true(json_is_array(r.json));
    assert_int_equal(json_array_size(r.json), dm_variant_count());
    for (int i = 0; i < dm_variant_count(); i++) {
        json_t *v = json_array_get(r.json, (size_t)i);
        assert_string_equal(sc_str(v, "id"), dm_variant_id(dm_variant_at(i)));
        json_t *board = json_object_get(v, "board");
        assert_int_equal(json_array_size(json_object_get(board, "cells")),
                         dm_variant_cells(dm_variant_at(i)));
        assert_true(strlen(sc_str(v, "rules")) > 10);
        assert_non_null(json_object_get(json_object_get(v, "draw_rules"), "official"));
    }
    sc_reply_free(&r);

    /* Bad requests: 400, 413, 404, nothing created. */
    sc_post(port, "/api/games", "{\"variant\":", &r);
    sc_expect_error(&r, 400, "malformed JSON");
    sc_post(port, "/api/games", "[1,2]", &r);
    sc_expect_error(&r, 400, "not an object");
    sc_post(port, "/api/games", "{\"variant\":\"chess\"}", &r);
    sc_expect_error(&r, 400, "an unknown variant");
    sc_post(port, "/api/games", "{\"variant\":7}", &r);
    sc_expect_error(&r, 400, "a number for a string");
    sc_post(port, "/api/games", "{\"clock\":\"soon\"}", &r);
    sc_expect_error(&r, 400, "a bad clock");
    sc_post(port, "/api/games", "{\"fen\":\"W:W99:B1\"}", &r);
    sc_expect_error(&r, 400, "a bad FEN");
    sc_post(port, "/api/games", "{\"fen\":\"W:W11-50:B1-10\"}", &r);
    if (!strstr(r.body, "White has 40 pieces, more than the 20 of the start position"))
        fail_msg("a FEN with 40 white men: %s", r.body);
    sc_expect_error(&r, 400, "a FEN with more pieces than the start");
    sc_post(port, "/api/games", "{\"opponent\":{\"type\":\"computer\",\"level\":11}}", &r);
    sc_expect_error(&r, 400, "a bad level");
    sc_post(port, "/api/games", "{\"side\":\"red\"}", &r);
    sc_expect_error(&r, 400, "a bad side");
    size_t big = 70 * 1024;
    char *huge = malloc(big + 1);
    memset(huge, ' ', big);
    huge[0] = '{';
    huge[big - 1] = '}';
    huge[big] = '\0';
    sc_http(port, "POST", "/api/games", huge, NULL, &r);
    sc_expect_error(&r, 413, "a 70 KiB body");
    free(huge);
    sc_get(port, "/api/games/nosuchgame", &r);
    sc_expect_error(&r, 404, "an unknown game");
    sc_post(port, "/api/games/nosuchgame/moves", "{\"move\":\"32-28\",\"token\":\"x\"}", &r);
    sc_expect_error(&r, 404, "a move in an unknown game");
    sc_get(port, "/api/nothing", &r);
    sc_expect_error(&r, 404, "an unknown API path");
    sc_post(port, "/api/join/nosuchcode", "{}", &r);
    sc_expect_error(&r, 404, "an unknown invite");

    /* A local game: one token moves both sides. */
    sc_create(port, "{\"variant\":\"international\",\"opponent\":{\"type\":\"local\"},\"side\":\"white\"}",
           id, token, NULL);
    sc_state(port, id, &r);
    assert_int_equal(sc_int(r.json, "ply"), 0);
    assert_string_equal(sc_str(r.json, "turn"), "white");
    assert_string_equal(sc_str(r.json, "status"), "playing");
    assert_int_equal(json_array_size(json_object_get(r.json, "legal")), 9);
    assert_null(json_object_get(r.json, "you"));
    assert_true(json_is_null(json_object_get(r.json, "must_capture")));
    int seq0 = sc_int(r.json, "seq");
    sc_reply_free(&r);
    assert_int_equal(sc_move(port, id, "wrongtoken", "32-28"), 403);
    assert_int_equal(sc_move(port, id, "", "32-28"), 403);
    assert_int_equal(sc_move_reply(port, id, token, "32-26", &r), 409);
    assert_non_null(strstr(sc_str(r.json, "error"), "32-26"));
    sc_reply_free(&r);
    assert_int_equal(sc_move(port, id, token, "99-98"), 409);
    snprintf(path, sizeof path, "/api/games/%s/moves", id);
    sc_post(port, path, "{\"move\":32}", &r);
    sc_expect_error(&r, 400, "a move as a number");
    sc_post(port, path, "{\"move\":", &r);
    sc_expect_error(&r, 400, "a malformed move body");
    sc_state(port, id, &r);
    assert_int_equal(sc_int(r.json, "ply"), 0); /* nothing changed */
    assert_int_equal(sc_int(r.json, "seq"), seq0);
    sc_reply_free(&r);
    assert_int_equal(sc_move_reply(port, id, token, "32-28", &r), 200);
    assert_int_equal(sc_int(r.json, "ply"), 1);
    assert_string_equal(sc_str(r.json, "you"), "both");
    assert_true(sc_int(r.json, "seq") > seq0);
    sc_reply_free(&r);
    /* The token in the Authorization header, then ?token= on a GET. */
    char auth[128], body[128];
    snprintf(auth, sizeof auth, "Authorization: Bearer %s\r\n", token);
    snprintf(body, sizeof body, "{\"move\":\"18-23\"}");
    sc_http(port, "POST", path, body, auth, &r);
    assert_int_equal(r.status, 200);
    sc_reply_free(&r);
    snprintf(path, sizeof path, "/api/games/%s?token=%s", id, token);
    sc_get(port, path, &r);
    assert_string_equal(sc_str(r.json, "you"), "both");
    json_t *moves = json_object_get(r.json, "moves");
    assert_int_equal(json_array_size(moves), 2);
    assert_string_equal(json_string_value(json_array_get(moves, 1)), "18-23");
    json_t *pos = json_object_get(r.json, "position");
    assert_int_equal(json_array_size(json_object_get(pos, "pieces")), 40);
    sc_reply_free(&r);
    /* An earlier position, for a client reviewing the moves. */
    snprintf(path, sizeof path, "/api/games/%s?token=%s&ply=1", id, token);
    sc_get(port, path, &r);
    assert_int_equal(r.status, 200);
    assert_int_equal(sc_int(r.json, "ply"), 1);
    assert_int_equal(sc_int(r.json, "plies"), 2);
    assert_string_equal(sc_str(r.json, "move"), "32-28");
    assert_string_equal(sc_str(r.json, "turn"), "black");
    assert_string_equal(sc_str(r.json, "fen"), "B:W28,31,33-50:B1-20");
    assert_int_equal(json_array_size(json_object_get(json_object_get(r.json, "position"), "pieces")),
                     40);
    sc_reply_free(&r);
    snprintf(path, sizeof path, "/api/games/%s?ply=0", id);
    sc_get(port, path, &r);
    assert_int_equal(r.status, 200);
    assert_true(json_is_null(json_object_get(r.json, "move")));
    assert_string_equal(sc_str(r.json, "fen"), "W:W31-50:B1-20");
    sc_reply_free(&r);
    static const char *const bad_plies[] = {"3", "-1", "x", "", "1x"};
    for (size_t i = 0; i < sizeof bad_plies / sizeof bad_plies[0]; i++) {
        snprintf(path, sizeof path, "/api/games/%s?ply=%s", id, bad_plies[i]);
        sc_get(port, path, &r);
        sc_expect_error(&r, 400, "a ply out of range");
    }
    assert_int_equal(sc_action(port, id, token, "dance"), 400);
    assert_int_equal(sc_action(port, id, "nope", "resign"), 403);
    assert_int_equal(sc_action(port, id, token, "accept-draw"), 409); /* no offer */
    assert_int_equal(sc_action(port, id, token, "resign"), 200);
    sc_state(port, id, &r);
    assert_string_equal(sc_str(r.json, "status"), "over");
    assert_string_equal(sc_str(r.json, "result"), "0-2");
    assert_int_equal(json_array_size(json_object_get(r.json, "legal")), 0);
    sc_reply_free(&r);
    assert_int_equal(sc_move(port, id, token, "33-28"), 409); /* game over */

    /* A compulsory capture comes with its reason, in the terminal's words. */
    char cid[16], ctok[48];
    sc_create(port, "{\"fen\":\"W:W32,45:B27,17,5\",\"opponent\":{\"type\":\"local\"}}", cid,
           ctok, NULL);
    sc_state(port, cid, &r);
    assert_string_equal(sc_str(r.json, "must_capture"),
                        "a capture is compulsory: 32x12 takes the most pieces (2)");
    sc_reply_free(&r);
    sc_create(port, "{\"variant\":\"russian\",\"fen\":\"W:Wc3,e3:Bd4,f6\",\"opponent\":{\"type\":\"local\"}}",
           cid, ctok, NULL);
    sc_state(port, cid, &r);
    assert_string_equal(sc_str(r.json, "must_capture"),
                        "a capture is compulsory: c3:g7 or e3:c5");
    sc_reply_free(&r);

    /* Frisian: each side's king that made the last quiet moves, counted. */
    sc_create(port, "{\"variant\":\"frisian\",\"fen\":\"W:WK46,36:BK1,15\",\"opponent\":{\"type\":\"local\"}}",
           cid, ctok, NULL);
    sc_state(port, cid, &r);
    assert_int_equal(json_array_size(json_object_get(r.json, "king_moves")), 0);
    sc_reply_free(&r);
    assert_int_equal(sc_move(port, cid, ctok, "46-37"), 200);
    assert_int_equal(sc_move(port, cid, ctok, "1-7"), 200);
    assert_int_equal(sc_move_reply(port, cid, ctok, "37-41", &r), 200);
    char *kings = json_dumps(json_object_get(r.json, "king_moves"), JSON_COMPACT);
    assert_string_equal(kings, "[{\"color\":\"white\",\"square\":\"41\",\"count\":2},"
                               "{\"color\":\"black\",\"square\":\"7\",\"count\":1}]");
    free(kings);
    sc_reply_free(&r);

    /* A friend game with a clock: the invite, turns, a draw agreed. */
    sc_create(port, "{\"variant\":\"russian\",\"side\":\"white\",\"opponent\":{\"type\":\"friend\"},"
                 "\"clock\":\"5+3\"}",
           id, token, &r);
    char invite[64];
    snprintf(invite, sizeof invite, "%s", sc_str(r.json, "invite"));
    assert_true(strncmp(invite, "/join/", 6) == 0);
    assert_string_equal(sc_str(r.json, "side"), "white");
    sc_reply_free(&r);
    /* No clock runs before the friend has come and both have moved once. */
    net_pause_ms(300);
    sc_state(port, id, &r);
    json_t *clock = json_object_get(r.json, "clock");
    assert_true(json_is_null(json_object_get(clock, "running")));
    assert_int_equal(sc_int(clock, "white_ms"), 300000);
    sc_reply_free(&r);
    snprintf(path, sizeof path, "/api%s", invite);
    sc_post(port, path, "", &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(sc_str(r.json, "side"), "black");
    assert_string_equal(sc_str(r.json, "id"), id);
    char black[48];
    snprintf(black, sizeof black, "%s", sc_str(r.json, "token"));
    sc_reply_free(&r);
    sc_post(port, path, "", &r);
    sc_expect_error(&r, 409, "an invite used twice");
    assert_int_equal(sc_move(port, id, black, "f6-g5"), 409); /* not black's turn */
    net_pause_ms(200);
    assert_int_equal(sc_move_reply(port, id, token, "c3-d4", &r), 200);
    clock = json_object_get(r.json, "clock");
    assert_true(json_is_null(json_object_get(clock, "running")));
    assert_int_equal(sc_int(clock, "white_ms"), 300000); /* untimed, no increment */
    sc_reply_free(&r);
    assert_int_equal(sc_move(port, id, token, "e3-f4"), 409); /* out of turn */
    net_pause_ms(200);
    assert_int_equal(sc_move_reply(port, id, black, "f6-g5", &r), 200);
    clock = json_object_get(r.json, "clock");
    assert_string_equal(sc_str(clock, "control"), "5+3");
    assert_string_equal(sc_str(clock, "running"), "white");
    assert_int_equal(sc_int(clock, "black_ms"), 300000);
    assert_true(sc_int(clock, "white_ms") > 290000 && sc_int(clock, "white_ms") <= 300000);
    sc_reply_free(&r);
    net_pause_ms(100);
    sc_state(port, id, &r);
    assert_true(sc_int(json_object_get(r.json, "clock"), "white_ms") < 300000);
    sc_reply_free(&r);
    assert_int_equal(sc_action(port, id, token, "offer-draw"), 200);
    sc_state(port, id, &r);
    assert_string_equal(sc_str(r.json, "draw_offer"), "white");
    sc_reply_free(&r);
    assert_int_equal(sc_action(port, id, black, "accept-draw"), 200);
    sc_state(port, id, &r);
    assert_string_equal(sc_str(r.json, "status"), "over");
    assert_string_equal(sc_str(r.json, "result"), "1/2-1/2"); /* as Russian writes it */
    sc_reply_free(&r);
    /* A rematch: the colours changed, the friend told by the old game. */
    snprintf(path, sizeof path, "/api/games/%s/rematch", id);
    snprintf(body, sizeof body, "{\"token\":\"%s\"}", black);
    sc_post(port, path, body, &r);
    assert_int_equal(r.status, 201);
    assert_string_equal(sc_str(r.json, "side"), "white");
    char again[16], again_invite[64], again_token[48];
    snprintf(again, sizeof again, "%s", sc_str(r.json, "id"));
    snprintf(again_token, sizeof again_token, "%s", sc_str(r.json, "token"));
    snprintf(again_invite, sizeof again_invite, "%s", sc_str(r.json, "invite"));
    sc_reply_free(&r);
    sc_post(port, path, body, &r);
    sc_expect_error(&r, 409, "a second rematch");
    snprintf(path, sizeof path, "/api/games/%s?token=%s", id, token);
    sc_get(port, path, &r);
    assert_string_equal(sc_str(r.json, "rematch"), again_invite);
    sc_reply_free(&r);
    snprintf(path, sizeof path, "/api/games/%s?token=%s", id, black);
    sc_get(port, path, &r);
    assert_true(json_is_null(json_object_get(r.json, "rematch")));
    sc_reply_free(&r);
    sc_state(port, id, &r); /* a spectator never sees the invite */
    assert_true(json_is_null(json_object_get(r.json, "rematch")));
    sc_reply_free(&r);
    snprintf(path, sizeof path, "/api%s", again_invite);
    sc_post(port, path, "", &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(sc_str(r.json, "side"), "black");
    assert_string_equal(sc_str(r.json, "id"), again);
    sc_reply_free(&r);
    /* Its invite used, the finished game leaves memory (nobody watches it)
     * and is read back from the store, whole, when asked for. */
    net_pause_ms(500);
    snprintf(path, sizeof path, "/api/games/%s?token=%s", id, token);
    sc_get(port, path, &r);
    assert_true(json_is_null(json_object_get(r.json, "rematch")));
    assert_string_equal(sc_str(r.json, "result"), "1/2-1/2");
    assert_string_equal(sc_str(r.json, "you"), "white");
    assert_int_equal(sc_int(r.json, "ply"), 2);
    sc_reply_free(&r);
    sc_state(port, again, &r);
    assert_string_equal(sc_str(json_object_get(r.json, "clock"), "control"), "5+3");
    assert_string_equal(sc_str(r.json, "variant"), "russian");
    sc_reply_free(&r);
    snprintf(path, sizeof path, "/api/games/%s/rematch", again);
    snprintf(body, sizeof body, "{\"token\":\"%s\"}", again_token);
    sc_post(port, path, body, &r);
    sc_expect_error(&r, 409, "a rematch of a game still on");

    snprintf(path, sizeof path, "/api/games/%s/pdn", id);
    sc_get(port, path, &r);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.headers, "content-type: text/plain"));
    assert_non_null(strstr(r.body, "[Result \"1/2-1/2\"]"));
    assert_non_null(strstr(r.body, "1. c3-d4"));
    sc_reply_free(&r);

    /* Import: the game goes on from the end of the file. */
    sc_post(port, "/api/import",
         "{\"pdn\":\"[GameType \\\"20\\\"]\\n1. 32-28 18-23 2. 37-32 *\",\"opponent\":{\"type\":\"local\"}}",
         &r);
    assert_int_equal(r.status, 201);
    snprintf(id, sizeof id, "%s", sc_str(r.json, "id"));
    snprintf(token, sizeof token, "%s", sc_str(r.json, "token"));
    sc_reply_free(&r);
    assert_int_equal(sc_ply(port, id), 3);
    assert_int_equal(sc_move(port, id, token, "12-18"), 200);
    sc_post(port, "/api/import", "{\"pdn\":\"1. 32-99 *\"}", &r);
    sc_expect_error(&r, 400, "a bad PDN");
    sc_post(port, "/api/import", "{}", &r);
    sc_expect_error(&r, 400, "no PDN");

    /* Analysis, with moves and without. */
    sc_post(port, "/api/analysis", "{\"variant\":\"international\",\"moves\":[\"32-28\"],\"nodes\":50000}", &r);
    assert_int_equal(r.status, 200);
    assert_true(strlen(sc_str(r.json, "best")) >= 5);
    assert_true(json_is_number(json_object_get(r.json, "score")));
    assert_true(json_array_size(json_object_get(r.json, "pv")) >= 1);
    sc_reply_free(&r);
    sc_post(port, "/api/analysis", "{\"moves\":[\"32-26\"]}", &r);
    sc_expect_error(&r, 409, "an analysis after an illegal move");
    sc_post(port, "/api/analysis", "{\"nodes\":-5}", &r);
    sc_expect_error(&r, 400, "a negative node budget");

    /* Against the computer: its answer comes, a takeback is granted. */
    sc_create(port, "{\"side\":\"white\",\"opponent\":{\"type\":\"computer\",\"level\":1}}", id, token,
           NULL);
    assert_int_equal(sc_move(port, id, token, "32-28"), 200);
    assert_true(sc_wait_ply(port, id, 2));
    sc_state(port, id, &r);
    json_t *players = json_object_get(r.json, "players");
    assert_string_equal(sc_str(json_object_get(players, "black"), "type"), "computer");
    assert_int_equal(sc_int(json_object_get(players, "black"), "level"), 1);
    sc_reply_free(&r);
    assert_int_equal(sc_action(port, id, token, "takeback"), 200);
    assert_int_equal(sc_ply(port, id), 0);
    /* The computer moving first. */
    sc_create(port, "{\"side\":\"black\",\"opponent\":{\"type\":\"computer\",\"level\":2}}", id, token,
           NULL);
    assert_true(sc_wait_ply(port, id, 1));

    sc_stop(&s, SIGTERM);
    sc_remove_dir(&s);
}

/* ---- limits ---------------------------------------------------------------- */

/* New games: a few a minute from one address (429), a few unfinished at
 * once on the server (503), each refusal a JSON error naming its limit. */
static void test_limits(void **state_)
{
    (void)state_;
    sc_server s;
    make_dir(&s);
    /* The store may hold unfinished games already (DAMIER_TEST_DB: a
     * database the suite's other tests used): room for two more. */
    sc_reply r;
    start(&s);
    sc_get(s.port, "/healthz", &r);
    assert_int_equal(r.status, 200);
    int held = sc_int(r.json, "games");
    sc_reply_free(&r);
    sc_stop(&s, SIGTERM);
    char max_games[16], refusal[32];
    snprintf(max_games, sizeof max_games, "%d", held + 2);
    snprintf(refusal, sizeof refusal, "max_games %d)", held + 2);
    const char *const limits[] = {"--games-per-minute", "4", "--max-games", max_games, NULL};
    start_with(&s, limits);
    char id[16], token[48], first[16], first_token[48];
    static const char local[] = "{\"opponent\":{\"type\":\"local\"}}";
    sc_create(s.port, local, first, first_token, NULL);
    sc_create(s.port, local, id, token, NULL);
    sc_post(s.port, "/api/games", local, &r);
    assert_int_equal(r.status, 503);
    assert_non_null(strstr(sc_str(r.json, "error"), refusal));
    sc_reply_free(&r);
    /* A game ended makes room. */
    assert_int_equal(sc_action(s.port, first, first_token, "resign"), 200);
    sc_post(s.port, "/api/import", "{\"pdn\":\"1. 32-28 *\",\"opponent\":{\"type\":\"local\"}}", &r);
    assert_int_equal(r.status, 201);
    sc_reply_free(&r);
    /* The fifth request of the minute (the refused one counted too). */
    sc_post(s.port, "/api/games", local, &r);
    assert_int_equal(r.status, 429);
    assert_non_null(strstr(sc_str(r.json, "error"), "at most 4 a minute from one address"));
    sc_reply_free(&r);
    sc_post(s.port, "/api/import", "{\"pdn\":\"1. 32-28 *\"}", &r);
    sc_expect_error(&r, 429, "an import past the rate");
    /* Playing on is not limited. */
    assert_int_equal(sc_move(s.port, id, token, "32-28"), 200);
    sc_stop(&s, SIGTERM);
    sc_remove_dir(&s);
}

/* ---- draw offers to the computer ----------------------------------------- */

/* Waits until game id is over; false on time. */
static bool wait_over(int port, const char *id)
{
    int64_t deadline = net_now_ms() + SC_WAIT_MS;
    for (;;) {
        sc_reply r;
        sc_state(port, id, &r);
        bool over = strcmp(sc_str(r.json, "status"), "over") == 0;
        sc_reply_free(&r);
        if (over)
            return true;
        if (net_now_ms() > deadline)
            return false;
        net_pause_ms(20);
    }
}

/* Waits until no draw offer stands in game id; false on time. */
static bool wait_no_offer(int port, const char *id)
{
    int64_t deadline = net_now_ms() + SC_WAIT_MS;
    for (;;) {
        sc_reply r;
        sc_state(port, id, &r);
        bool offered = json_is_string(json_object_get(r.json, "draw_offer"));
        sc_reply_free(&r);
        if (!offered)
            return true;
        if (net_now_ms() > deadline)
            return false;
        net_pause_ms(20);
    }
}

/* A draw offered while the computer thinks is answered, not let lapse. */
static void test_computer_draw(void **state_)
{
    (void)state_;
    sc_server s;
    make_dir(&s);
    start(&s);
    char id[16], token[48];
    sc_reply r;
    /* Level 9 thinks a second a move (level 8, 3 M nodes, could answer
     * before the offer came on a loaded machine).  A draw offered while it
     * does, in an even ending, is answered before it moves: accepted. */
    sc_create(s.port, "{\"fen\":\"W:W46,47:B4,5\",\"side\":\"white\",\"opponent\":{\"type\":\"computer\",\"level\":9}}",
           id, token, NULL);
    assert_int_equal(sc_move(s.port, id, token, "46-41"), 200);
    assert_int_equal(sc_action(s.port, id, token, "offer-draw"), 200);
    assert_true(wait_over(s.port, id));
    sc_state(s.port, id, &r);
    assert_string_equal(sc_str(r.json, "result"), "1-1");
    assert_int_equal(sc_int(r.json, "ply"), 1); /* the offer did not lapse by its move */
    sc_reply_free(&r);

    /* In the opening it declines, then plays the move its search found
     * (kept, not searched again; not asserted, the machine's load varies). */
    sc_create(s.port, "{\"side\":\"white\",\"opponent\":{\"type\":\"computer\",\"level\":9}}", id,
           token, NULL);
    /* 33-29: a position out of the built-in book (`damier book show
     * --variant international --moves 33-29`), so level 9 searches; a book
     * move comes at once, before the offer (33-28 did, once the book
     * held it). */
    assert_int_equal(sc_move(s.port, id, token, "33-29"), 200);
    assert_int_equal(sc_action(s.port, id, token, "offer-draw"), 200);
    assert_true(sc_wait_ply(s.port, id, 2));
    sc_state(s.port, id, &r);
    assert_true(json_is_null(json_object_get(r.json, "draw_offer")));
    assert_string_equal(sc_str(r.json, "status"), "playing");
    sc_reply_free(&r);

    /* Level 1 takes a draw in an even opening. */
    sc_create(s.port, "{\"side\":\"white\",\"opponent\":{\"type\":\"computer\",\"level\":1}}", id,
           token, NULL);
    assert_int_equal(sc_move(s.port, id, token, "32-28"), 200);
    assert_int_equal(sc_action(s.port, id, token, "offer-draw"), 200);
    assert_true(wait_over(s.port, id));
    sc_state(s.port, id, &r);
    assert_string_equal(sc_str(r.json, "result"), "1-1");
    sc_reply_free(&r);

    /* A man up, it never agrees, whatever its level. */
    sc_create(s.port, "{\"fen\":\"W:W31-50:B1-19\",\"side\":\"black\",\"opponent\":{\"type\":\"computer\",\"level\":1}}",
           id, token, NULL);
    assert_true(sc_wait_ply(s.port, id, 1));
    assert_int_equal(sc_action(s.port, id, token, "offer-draw"), 200);
    assert_true(wait_no_offer(s.port, id));
    sc_state(s.port, id, &r);
    assert_string_equal(sc_str(r.json, "status"), "playing");
    sc_reply_free(&r);
    sc_stop(&s, SIGTERM);
    sc_remove_dir(&s);
}

/* ---- WebSocket ---------------------------------------------------------- */

static int ws_open(int port, const char *path)
{
    return sc_ws_open_as(port, path, "127.0.0.1", SC_WS_ACCEPT);
}

static void test_websocket(void **state_)
{
    (void)state_;
    sc_server s;
    make_dir(&s);
    start(&s);
    char id[16], token[48], path[128];
    sc_create(s.port, "{\"side\":\"white\",\"opponent\":{\"type\":\"local\"}}", id, token, NULL);
    snprintf(path, sizeof path, "/ws/games/%s", id);
    int watcher = ws_open(s.port, path);
    json_t *o = sc_ws_expect(watcher, "state");
    assert_int_equal(sc_int(json_object_get(o, "game"), "ply"), 0);
    assert_null(json_object_get(json_object_get(o, "game"), "you"));
    json_decref(o);

    /* A move over HTTP reaches the spectator. */
    assert_int_equal(sc_move(s.port, id, token, "32-28"), 200);
    o = sc_ws_expect(watcher, "state");
    assert_int_equal(sc_int(json_object_get(o, "game"), "ply"), 1);
    json_decref(o);

    /* The spectator cannot move; ping answers pong. */
    sc_ws_write(watcher, "{\"type\":\"move\",\"move\":\"18-23\"}");
    o = sc_ws_expect(watcher, "error");
    json_decref(o);
    assert_int_equal(sc_ply(s.port, id), 1);
    sc_ws_write(watcher, "{\"type\":\"ping\"}");
    o = sc_ws_expect(watcher, "pong");
    json_decref(o);
    sc_ws_write(watcher, "not json");
    o = sc_ws_expect(watcher, "error");
    json_decref(o);

    /* The seat's socket moves, and both sockets see it. */
    snprintf(path, sizeof path, "/ws/games/%s?token=%s", id, token);
    int player = ws_open(s.port, path);
    o = sc_ws_expect(player, "state");
    assert_string_equal(sc_str(json_object_get(o, "game"), "you"), "both");
    json_decref(o);
    sc_ws_write(player, "{\"type\":\"move\",\"move\":\"18-23\"}");
    o = sc_ws_expect(player, "state");
    assert_int_equal(sc_int(json_object_get(o, "game"), "ply"), 2);
    json_decref(o);
    o = sc_ws_expect(watcher, "state");
    assert_int_equal(sc_int(json_object_get(o, "game"), "ply"), 2);
    json_decref(o);
    assert_int_equal(sc_ply(s.port, id), 2);
    close(player);
    close(watcher);

    /* No such game: an error, then the socket closes. */
    int none = ws_open(s.port, "/ws/games/nosuchgame");
    o = sc_ws_expect(none, "error");
    json_decref(o);
    close(none);

    sc_stop(&s, SIGTERM);
    sc_remove_dir(&s);
}

/* ---- kill -9 and restart ------------------------------------------------ */

static void test_restart(void **state_)
{
    (void)state_;
    sc_server s;
    make_dir(&s);
    start(&s);
    char fid[16], ftok[48], cid[16], ctok[48], black[48], path[128];
    sc_reply r;
    /* A friend game with a clock: four acknowledged moves. */
    sc_create(s.port, "{\"side\":\"white\",\"opponent\":{\"type\":\"friend\"},\"clock\":\"10+5\"}", fid,
           ftok, &r);
    snprintf(path, sizeof path, "/api%s", sc_str(r.json, "invite"));
    sc_reply_free(&r);
    sc_post(s.port, path, "", &r);
    snprintf(black, sizeof black, "%s", sc_str(r.json, "token"));
    sc_reply_free(&r);
    static const char *const moves[] = {"32-28", "19-23", "28x19", "14x23"};
    for (int i = 0; i < 4; i++)
        assert_int_equal(sc_move(s.port, fid, i % 2 ? black : ftok, moves[i]), 200);
    sc_state(s.port, fid, &r);
    int white_ms = sc_int(json_object_get(r.json, "clock"), "white_ms");
    sc_reply_free(&r);
    assert_int_equal(sc_action(s.port, fid, black, "offer-draw"), 200);
    /* A timed friend game one move in: its clocks have not started, and
     * must not start with the restart. */
    char hid[16], htok[48];
    sc_create(s.port, "{\"side\":\"white\",\"opponent\":{\"type\":\"friend\"},\"clock\":\"3+2\"}", hid,
           htok, NULL);
    assert_int_equal(sc_move(s.port, hid, htok, "32-28"), 200);
    /* A computer game at a level that thinks for a second (level 9's
     * fixed time; a level bounded by nodes answered within the test's
     * next request on a fast machine): killed before it answers, so its
     * move is still to be made. */
    sc_create(s.port, "{\"side\":\"white\",\"opponent\":{\"type\":\"computer\",\"level\":9}}", cid, ctok,
           NULL);
    assert_int_equal(sc_move(s.port, cid, ctok, "34-29"), 200);
    assert_int_equal(sc_ply(s.port, cid), 1);
    sc_stop(&s, SIGKILL);

    start(&s);
    sc_state(s.port, fid, &r);
    json_t *got = json_object_get(r.json, "moves");
    assert_int_equal(json_array_size(got), 4);
    for (int i = 0; i < 4; i++)
        assert_string_equal(json_string_value(json_array_get(got, (size_t)i)), moves[i]);
    assert_string_equal(sc_str(r.json, "status"), "playing");
    assert_string_equal(sc_str(r.json, "draw_offer"), "black");
    json_t *clock = json_object_get(r.json, "clock");
    assert_string_equal(sc_str(clock, "control"), "10+5");
    /* White's time is what it was at its last move (the downtime is not
     * charged), less what runs since the restart. */
    int after = sc_int(clock, "white_ms");
    if (after > white_ms + 100 || after < white_ms - 5000)
        fail_msg("white had %d ms, has %d after the restart", white_ms, after);
    sc_reply_free(&r);
    sc_state(s.port, hid, &r);
    clock = json_object_get(r.json, "clock");
    assert_true(json_is_null(json_object_get(clock, "running")));
    assert_int_equal(sc_int(clock, "white_ms"), 180000);
    assert_int_equal(sc_int(clock, "black_ms"), 180000);
    sc_reply_free(&r);
    assert_int_equal(sc_action(s.port, fid, ftok, "decline-draw"), 200);
    assert_int_equal(sc_move(s.port, fid, ftok, "37-32"), 200);
    assert_int_equal(sc_ply(s.port, fid), 5);
    /* The tokens still hold their seats. */
    assert_int_equal(sc_move(s.port, fid, ftok, "31-27"), 409);
    assert_int_equal(sc_move(s.port, fid, black, "20-24"), 200);

    /* The computer's move, lost with the kill, is made now. */
    assert_true(sc_ply(s.port, cid) >= 1);
    assert_true(sc_wait_ply(s.port, cid, 2));
    sc_state(s.port, cid, &r);
    assert_string_equal(json_string_value(json_array_get(json_object_get(r.json, "moves"), 0)),
                        "34-29");
    sc_reply_free(&r);
    sc_stop(&s, SIGTERM);

    /* A finished game is read back on demand. */
    start(&s);
    assert_int_equal(sc_action(s.port, cid, ctok, "resign"), 200);
    sc_stop(&s, SIGKILL);
    start(&s);
    sc_state(s.port, cid, &r);
    assert_string_equal(sc_str(r.json, "status"), "over");
    assert_non_null(strstr(sc_str(r.json, "reason"), "resign"));
    sc_reply_free(&r);
    sc_stop(&s, SIGTERM);
    sc_remove_dir(&s);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_static_files, sc_kill_all),
        cmocka_unit_test_teardown(test_api, sc_kill_all),
        cmocka_unit_test_teardown(test_limits, sc_kill_all),
        cmocka_unit_test_teardown(test_computer_draw, sc_kill_all),
        cmocka_unit_test_teardown(test_websocket, sc_kill_all),
        cmocka_unit_test_teardown(test_restart, sc_kill_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
