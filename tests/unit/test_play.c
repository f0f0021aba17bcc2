/* SPDX-License-Identifier: MIT */
/*
 * test_play.c - the play layer: every act of a match (moves for a seat,
 * draw offers accepted, declined and lapsing, takebacks asked, accepted
 * and declined, resignation, the flag on an injected time source), the
 * events a front end reads, the computer player (legal, reproducible from
 * a seed, independent per engine) and PDN of a match out and back in.
 */
#include "testutil.h"

static int64_t fake_now(void *ctx)
{
    return *(const int64_t *)ctx;
}

/* A match of variant id between two persons, untimed unless tc is given. */
static dm_match *new_match(const char *id, const char *fen, const char *tc, int64_t *now)
{
    dm_match_options o = {.variant = tu_variant(id), .fen = fen, .date = "2026.12.01"};
    dm_error err;
    if (tc && dm_time_control_parse(tc, &o.time, &err) != 0)
        fail_msg("time control '%s': %s", tc, err.msg);
    if (now) {
        o.now = fake_now;
        o.now_ctx = now;
    }
    dm_match *m = dm_match_new(&o, &err);
    if (!m)
        fail_msg("dm_match_new: %s", err.msg);
    return m;
}

static void play_ok(dm_match *m, enum dm_color seat, const char *move)
{
    dm_error err;
    if (dm_match_play_text(m, seat, move, &err) != 0)
        fail_msg("%s %s refused: %s", seat == DM_WHITE ? "White" : "Black", move, err.msg);
}

/* The act returned -1 and its message holds want. */
static void refused(int rc, const dm_error *err, const char *want)
{
    assert_int_equal(rc, -1);
    if (!strstr(err->msg, want))
        fail_msg("message '%s' lacks '%s'", err->msg, want);
}

/* The kinds of the events after seq `after`, as a string of digits. */
static void event_kinds(const dm_match *m, uint64_t after, char *buf, size_t size)
{
    dm_match_event ev[DM_MATCH_EVENTS];
    int n = dm_match_events(m, after, ev, DM_MATCH_EVENTS);
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && len + 4 < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%d", i ? " " : "", (int)ev[i].kind);
}

static void test_moves_and_errors(void **state)
{
    (void)state;
    dm_match *m = new_match("english", NULL, NULL, NULL);
    dm_error err;
    assert_string_equal(dm_match_seat(m, DM_WHITE)->name, "human");
    assert_int_equal(dm_match_turn(m), DM_BLACK); /* English: Black opens */
    refused(dm_match_play_text(m, DM_WHITE, "22-18", &err), &err, "it is not White's turn");
    assert_int_equal(dm_match_ply(m), 0);
    play_ok(m, DM_BLACK, "11-15");
    play_ok(m, DM_WHITE, "22-18");
    refused(dm_match_play_text(m, DM_BLACK, "9-13", &err), &err,
            "move '9-13' is illegal: a capture is compulsory: 15x22");
    refused(dm_match_play_text(m, DM_BLACK, "99-98", &err), &err, "square '99' does not exist");
    refused(dm_match_play_text(m, (enum dm_color)5, "15x22", &err), &err, "no such seat: 5");
    assert_int_equal(dm_match_ply(m), 2);
    play_ok(m, DM_BLACK, "15x22");
    char text[64];
    dm_match_move_text(m, 3, text, sizeof text);
    assert_string_equal(text, "15x22");
    /* A struct move too: the first legal one. */
    const dm_move_list *legal = dm_match_legal(m);
    assert_int_equal(legal->count, 2); /* 25x18 or 26x17 */
    dm_move mv = legal->moves[0];
    assert_int_equal(dm_match_play(m, DM_WHITE, &mv, &err), 0);
    assert_int_equal(dm_match_ply(m), 4);
    char kinds[64];
    event_kinds(m, 0, kinds, sizeof kinds);
    assert_string_equal(kinds, "1 1 1 1");
    assert_int_equal(dm_match_seq(m), 4);
    dm_match_free(m);

    /* Bad options: a level out of range, a bad FEN. */
    dm_match_options o = {.variant = tu_variant("english")};
    o.seat[DM_BLACK].kind = DM_SEAT_COMPUTER;
    o.seat[DM_BLACK].level = 11;
    refused(dm_match_new(&o, &err) ? 0 : -1, &err, "Black's seat: level 11, levels are 1 to 10");
    o.seat[DM_BLACK].level = 3;
    o.fen = "W:W99";
    assert_null(dm_match_new(&o, &err));
    o.fen = NULL;
    m = dm_match_new(&o, &err);
    assert_non_null(m);
    assert_string_equal(dm_match_seat(m, DM_BLACK)->name, "computer (level 3)");
    /* A move struct that is not legal here: the start's first move, played
     * from the wrong side's turn and then twice. */
    dm_move first = dm_match_legal(m)->moves[0];
    refused(dm_match_play(m, DM_WHITE, &first, &err), &err, "it is not White's turn");
    assert_int_equal(dm_match_play(m, DM_BLACK, &first, &err), 0);
    dm_match_free(m);
    o.seat[DM_WHITE].kind = DM_SEAT_REMOTE;
    o.seat[DM_BLACK].kind = DM_SEAT_PERSON;
    m = dm_match_new(&o, &err);
    assert_non_null(m);
    assert_string_equal(dm_match_seat(m, DM_WHITE)->name, "remote");
    play_ok(m, DM_BLACK, "11-15");
    refused(dm_match_play(m, DM_WHITE, &first, &err), &err, "that move is not legal");
    /* A remote seat answers for itself: the computer's answer leaves it. */
    assert_int_equal(dm_match_offer_draw(m, DM_BLACK, &err), 0);
    assert_int_equal(dm_match_computer_answer(m, &err), 0);
    assert_int_equal(dm_match_draw_offer(m), DM_BLACK);
    o.seat[DM_WHITE].kind = (enum dm_seat_kind)7;
    refused(dm_match_new(&o, &err) ? 0 : -1, &err, "White's seat: unknown kind 7");
    dm_match_free(m);
}

/* Why a capture is compulsory, in the words a front end shows. */
static void test_capture_reason(void **state)
{
    (void)state;
    char why[256];
    dm_match *m = new_match("international", "W:W32,45:B27,17,5", NULL, NULL);
    assert_int_equal(dm_game_capture_reason(dm_match_game(m), why, sizeof why), 1);
    assert_string_equal(why, "a capture is compulsory: 32x12 takes the most pieces (2)");
    dm_match_free(m);
    m = new_match("frisian", "W:W33,K43:B28,K23,19", NULL, NULL);
    assert_int_equal(dm_game_capture_reason(dm_match_game(m), why, sizeof why), 1);
    assert_non_null(strstr(why, "a capture is compulsory: 33x13 takes the most value ("));
    dm_match_free(m);
    m = new_match("international", NULL, NULL, NULL);
    assert_int_equal(dm_game_capture_reason(dm_match_game(m), why, sizeof why), 0);
    assert_string_equal(why, "");
    dm_match_free(m);
}

static void test_draw_offers(void **state)
{
    (void)state;
    dm_error err;
    char kinds[64];
    /* Accepted. */
    dm_match *m = new_match("international", NULL, NULL, NULL);
    assert_int_equal(dm_match_offer_draw(m, DM_WHITE, &err), 0);
    assert_int_equal(dm_match_draw_offer(m), DM_WHITE);
    refused(dm_match_offer_draw(m, DM_WHITE, &err), &err, "White's draw offer already stands");
    refused(dm_match_answer_draw(m, DM_WHITE, true, &err), &err, "Black has offered no draw");
    assert_int_equal(dm_match_answer_draw(m, DM_BLACK, true, &err), 0);
    assert_true(dm_match_over(m));
    assert_int_equal(dm_match_result(m), DM_RESULT_DRAW);
    assert_string_equal(dm_match_reason(m), "draw agreed");
    assert_string_equal(dm_match_result_text(m), "1-1");
    assert_int_equal(dm_match_draw_offer(m), -1);
    event_kinds(m, 0, kinds, sizeof kinds);
    assert_string_equal(kinds, "2 9");
    refused(dm_match_offer_draw(m, DM_BLACK, &err), &err, "the game is over: draw agreed");
    dm_match_free(m);

    /* Offering when the opponent's offer stands agrees. */
    m = new_match("international", NULL, NULL, NULL);
    assert_int_equal(dm_match_offer_draw(m, DM_BLACK, &err), 0);
    assert_int_equal(dm_match_offer_draw(m, DM_WHITE, &err), 1);
    assert_int_equal(dm_match_result(m), DM_RESULT_DRAW);
    dm_match_free(m);

    /* Declined: play goes on. */
    m = new_match("international", NULL, NULL, NULL);
    play_ok(m, DM_WHITE, "32-28");
    assert_int_equal(dm_match_offer_draw(m, DM_WHITE, &err), 0);
    assert_int_equal(dm_match_answer_draw(m, DM_BLACK, false, &err), 0);
    assert_int_equal(dm_match_draw_offer(m), -1);
    assert_false(dm_match_over(m));
    event_kinds(m, 1, kinds, sizeof kinds);
    assert_string_equal(kinds, "2 3");
    dm_match_free(m);

    /* Lapsing: White offers and moves, the offer stands; Black moves
     * instead of answering, and it lapses. */
    m = new_match("international", NULL, NULL, NULL);
    assert_int_equal(dm_match_offer_draw(m, DM_WHITE, &err), 0);
    play_ok(m, DM_WHITE, "32-28");
    assert_int_equal(dm_match_draw_offer(m), DM_WHITE);
    play_ok(m, DM_BLACK, "19-23");
    assert_int_equal(dm_match_draw_offer(m), -1);
    refused(dm_match_answer_draw(m, DM_BLACK, true, &err), &err, "White has offered no draw");
    event_kinds(m, 0, kinds, sizeof kinds);
    assert_string_equal(kinds, "2 1 1 4");
    dm_match_free(m);
}

static void test_takebacks(void **state)
{
    (void)state;
    dm_error err;
    dm_match *m = new_match("international", NULL, NULL, NULL);
    refused(dm_match_request_takeback(m, DM_WHITE, &err), &err, "there is no move to take back");
    play_ok(m, DM_WHITE, "32-28");
    refused(dm_match_request_takeback(m, DM_BLACK, &err), &err,
            "there is no move of Black's to take back");
    play_ok(m, DM_BLACK, "17-21");
    dm_position after_first = *dm_game_position(dm_match_game(m), 1);

    /* Black asks for its own move: one ply.  Declined: nothing changes. */
    assert_int_equal(dm_match_request_takeback(m, DM_BLACK, &err), 0);
    assert_int_equal(dm_match_takeback_request(m), DM_BLACK);
    refused(dm_match_request_takeback(m, DM_WHITE, &err), &err,
            "Black's takeback request already stands");
    refused(dm_match_answer_takeback(m, DM_BLACK, true, &err), &err,
            "White has asked for no takeback");
    assert_int_equal(dm_match_answer_takeback(m, DM_WHITE, false, &err), 0);
    assert_int_equal(dm_match_ply(m), 2);
    assert_int_equal(dm_match_takeback_request(m), -1);

    /* Black asks again and White accepts: back to Black's turn. */
    uint64_t seen = dm_match_seq(m);
    assert_int_equal(dm_match_request_takeback(m, DM_BLACK, &err), 0);
    assert_int_equal(dm_match_answer_takeback(m, DM_WHITE, true, &err), 0);
    assert_int_equal(dm_match_ply(m), 1);
    assert_true(dm_position_equal(dm_match_position(m), &after_first));
    dm_match_event ev[4];
    assert_int_equal(dm_match_events(m, seen, ev, 4), 2);
    assert_int_equal(ev[1].kind, DM_EVENT_TAKEBACK_DONE);
    assert_int_equal(ev[1].plies, 1);
    assert_int_equal(ev[1].ply, 1);

    /* White, to move, asks: its last move and Black's reply after it. */
    play_ok(m, DM_BLACK, "17-21");
    play_ok(m, DM_WHITE, "37-32");
    play_ok(m, DM_BLACK, "12-17");
    assert_int_equal(dm_match_request_takeback(m, DM_WHITE, &err), 0);
    assert_int_equal(dm_match_events(m, dm_match_seq(m) - 1, ev, 4), 1);
    assert_int_equal(ev[0].kind, DM_EVENT_TAKEBACK_ASKED);
    assert_int_equal(ev[0].plies, 2);
    assert_int_equal(dm_match_answer_takeback(m, DM_BLACK, true, &err), 0);
    assert_int_equal(dm_match_ply(m), 2);
    assert_int_equal(dm_match_turn(m), DM_WHITE);

    /* A request lapses when a move is made. */
    assert_int_equal(dm_match_request_takeback(m, DM_WHITE, &err), 0);
    play_ok(m, DM_WHITE, "37-32");
    assert_int_equal(dm_match_takeback_request(m), -1);
    assert_int_equal(dm_match_events(m, dm_match_seq(m) - 1, ev, 4), 1);
    assert_int_equal(ev[0].kind, DM_EVENT_TAKEBACK_LAPSED);

    /* After a resignation a takeback brings the game back. */
    assert_int_equal(dm_match_resign(m, DM_BLACK, &err), 0);
    assert_true(dm_match_over(m));
    assert_int_equal(dm_match_request_takeback(m, DM_WHITE, &err), 0);
    assert_int_equal(dm_match_answer_takeback(m, DM_BLACK, true, &err), 0);
    assert_false(dm_match_over(m));
    assert_int_equal(dm_match_ply(m), 2);
    dm_match_free(m);
}

static void test_resignation(void **state)
{
    (void)state;
    dm_error err;
    dm_match *m = new_match("international", NULL, NULL, NULL);
    play_ok(m, DM_WHITE, "32-28");
    assert_int_equal(dm_match_resign(m, DM_WHITE, &err), 0);
    assert_int_equal(dm_match_result(m), DM_RESULT_BLACK_WINS);
    assert_string_equal(dm_match_reason(m), "White resigned");
    assert_string_equal(dm_match_result_text(m), "0-2");
    refused(dm_match_play_text(m, DM_BLACK, "19-23", &err), &err,
            "the game is over: White resigned");
    refused(dm_match_resign(m, DM_BLACK, &err), &err, "the game is over");
    dm_match_free(m);

    assert_string_equal(dm_result_text(tu_variant("english"), DM_RESULT_WHITE_WINS), "1-0");
    assert_string_equal(dm_result_text(tu_variant("english"), DM_RESULT_DRAW), "1/2-1/2");
    assert_string_equal(dm_result_text(tu_variant("international"), DM_RESULT_NONE), "*");
}

static void test_clock_and_time_forfeit(void **state)
{
    (void)state;
    dm_error err;
    int64_t now = 1000;
    /* 1 minute plus 2 seconds a move. */
    dm_match *m = new_match("international", NULL, "1+2", &now);
    assert_true(dm_match_timed(m));
    now += 10000;
    play_ok(m, DM_WHITE, "32-28");
    assert_int_equal(dm_match_time_left(m, DM_WHITE), 60000 - 10000 + 2000);
    assert_int_equal(dm_match_clock_after(m, 1), 52000);
    now += 5000;
    assert_int_equal(dm_match_time_left(m, DM_BLACK), 55000);
    assert_false(dm_match_tick(m));
    play_ok(m, DM_BLACK, "19-23");
    assert_int_equal(dm_match_clock_after(m, 2), 57000);

    /* White thinks past its time while a takeback request stands: the
     * game ends on time, and the request with it. */
    assert_int_equal(dm_match_request_takeback(m, DM_WHITE, &err), 0);
    now += 52000;
    refused(dm_match_answer_takeback(m, DM_BLACK, true, &err), &err,
            "the game was lost on time: no takeback");
    assert_int_equal(dm_match_takeback_request(m), -1);
    assert_int_equal(dm_match_ply(m), 2);
    assert_false(dm_match_tick(m)); /* already over */
    assert_int_equal(dm_match_result(m), DM_RESULT_BLACK_WINS);
    assert_string_equal(dm_match_reason(m), "White lost on time");
    assert_int_equal(dm_match_time_left(m, DM_WHITE), 0);
    refused(dm_match_request_takeback(m, DM_BLACK, &err), &err, "lost on time");
    dm_match_free(m);

    /* The tick alone ends it too. */
    now = 0;
    m = new_match("international", NULL, "0.5", &now);
    now = 29999;
    assert_false(dm_match_tick(m));
    now = 30000;
    assert_true(dm_match_tick(m));
    assert_string_equal(dm_match_reason(m), "White lost on time");
    assert_false(dm_match_tick(m));
    dm_match_free(m);

    /* A move made after the flag fell is refused, the game lost on time. */
    now = 0;
    m = new_match("international", NULL, "1", &now);
    now = 60001;
    refused(dm_match_play_text(m, DM_WHITE, "32-28", &err), &err,
            "the game is over: White lost on time");
    assert_int_equal(dm_match_ply(m), 0);
    char kinds[16];
    event_kinds(m, 0, kinds, sizeof kinds);
    assert_string_equal(kinds, "9");
    dm_match_free(m);
}

/* A match that holds its clock until each side has moved once. */
static dm_match *held_clock_match(const char *tc, int64_t *now)
{
    dm_match_options o = {.variant = tu_variant("international"), .date = "2026.12.01",
                          .now = fake_now, .now_ctx = now, .clock_after_first_moves = true};
    dm_error err;
    if (dm_time_control_parse(tc, &o.time, &err) != 0)
        fail_msg("time control '%s': %s", tc, err.msg);
    dm_match *m = dm_match_new(&o, &err);
    if (!m)
        fail_msg("dm_match_new: %s", err.msg);
    return m;
}

static void test_clock_after_first_moves(void **state)
{
    (void)state;
    dm_error err;
    int64_t now = 1000;
    dm_match *m = held_clock_match("1+2", &now);
    /* Nobody's time runs before the first moves, which get no increment. */
    assert_int_equal(dm_match_clock_running(m), -1);
    now += 10000;
    assert_int_equal(dm_match_time_left(m, DM_WHITE), 60000);
    assert_false(dm_match_tick(m));
    play_ok(m, DM_WHITE, "32-28");
    assert_int_equal(dm_match_time_left(m, DM_WHITE), 60000);
    assert_int_equal(dm_match_clock_after(m, 1), 60000);
    assert_int_equal(dm_match_clock_running(m), -1);

    /* Read back from its PDN (a restarted server) the clock still waits. */
    char *text = dm_match_write_pdn(m, &err);
    assert_non_null(text);
    dm_match_options o = {.now = fake_now, .now_ctx = &now, .clock_after_first_moves = true};
    dm_match *back = dm_match_read_pdn(text, strlen(text), &o, &err);
    free(text);
    assert_non_null(back);
    assert_int_equal(dm_match_clock_running(back), -1);
    now += 5000;
    assert_int_equal(dm_match_time_left(back, DM_BLACK), 60000);
    play_ok(back, DM_BLACK, "19-23");
    assert_int_equal(dm_match_clock_running(back), DM_WHITE);
    dm_match_free(back);

    now += 7000;
    assert_int_equal(dm_match_time_left(m, DM_BLACK), 60000);
    play_ok(m, DM_BLACK, "19-23");
    assert_int_equal(dm_match_time_left(m, DM_BLACK), 60000);
    /* Both have moved: White's time runs from now. */
    assert_int_equal(dm_match_clock_running(m), DM_WHITE);
    now += 5000;
    assert_int_equal(dm_match_time_left(m, DM_WHITE), 55000);
    play_ok(m, DM_WHITE, "28x19");
    assert_int_equal(dm_match_time_left(m, DM_WHITE), 57000);
    assert_int_equal(dm_match_clock_running(m), DM_BLACK);
    /* A takeback to before the second first move holds the clock again. */
    assert_int_equal(dm_match_request_takeback(m, DM_BLACK, &err), 0);
    assert_int_equal(dm_match_answer_takeback(m, DM_WHITE, true, &err), 0);
    assert_int_equal(dm_match_ply(m), 1);
    assert_int_equal(dm_match_clock_running(m), -1);
    now += 9000;
    assert_int_equal(dm_match_time_left(m, DM_BLACK), 60000);
    dm_match_free(m);

    /* The untimed first moves count for the periods: 2 moves a minute. */
    now = 0;
    m = held_clock_match("1/2", &now);
    play_ok(m, DM_WHITE, "32-28");
    play_ok(m, DM_BLACK, "19-23");
    now += 10000;
    play_ok(m, DM_WHITE, "28x19");
    assert_int_equal(dm_match_time_left(m, DM_WHITE), 50000 + 60000);
    dm_match_free(m);

    /* Without the option the clock runs from the start, as before. */
    now = 0;
    m = new_match("international", NULL, "1+2", &now);
    assert_int_equal(dm_match_clock_running(m), DM_WHITE);
    dm_match_free(m);
}

static void test_events_ring(void **state)
{
    (void)state;
    dm_error err;
    dm_match *m = new_match("international", NULL, NULL, NULL);
    /* 70 offers and declines: 140 events, the last DM_MATCH_EVENTS kept. */
    for (int i = 0; i < 70; i++) {
        assert_int_equal(dm_match_offer_draw(m, DM_WHITE, &err), 0);
        assert_int_equal(dm_match_answer_draw(m, DM_BLACK, false, &err), 0);
    }
    assert_int_equal(dm_match_seq(m), 140);
    dm_match_event ev[DM_MATCH_EVENTS];
    int n = dm_match_events(m, 0, ev, DM_MATCH_EVENTS);
    assert_int_equal(n, DM_MATCH_EVENTS);
    assert_int_equal(ev[0].seq, 140 - DM_MATCH_EVENTS + 1);
    assert_int_equal(ev[n - 1].seq, 140);
    assert_int_equal(ev[n - 1].kind, DM_EVENT_DRAW_DECLINED);
    assert_int_equal(dm_match_events(m, 138, ev, DM_MATCH_EVENTS), 2);
    assert_int_equal(ev[0].seq, 139);
    assert_int_equal(ev[0].kind, DM_EVENT_DRAW_OFFERED);
    assert_int_equal(dm_match_events(m, 140, ev, DM_MATCH_EVENTS), 0);
    dm_match_free(m);
}

/* The moves of a game between two computers at level, plies long, into
 * out (may end early when the game does). */
static int computer_game(dm_match *m, int plies, dm_move *out)
{
    dm_error err;
    int n = 0;
    while (n < plies && !dm_match_over(m)) {
        dm_move mv;
        if (dm_match_computer_move(m, &mv, &err) != 0)
            fail_msg("computer move: %s", err.msg);
        if (dm_match_play(m, dm_match_turn(m), &mv, &err) != 0)
            fail_msg("the computer's move is refused: %s", err.msg);
        out[n++] = mv;
    }
    return n;
}

static dm_match *computer_match(const char *id, int level, uint64_t seed)
{
    dm_match_options o = {.variant = tu_variant(id), .seed = seed};
    o.seat[0] = o.seat[1] = (dm_seat){.kind = DM_SEAT_COMPUTER, .level = level};
    dm_error err;
    dm_match *m = dm_match_new(&o, &err);
    if (!m)
        fail_msg("%s", err.msg);
    return m;
}

static void test_computer(void **state)
{
    (void)state;
    enum { PLIES = 12 };
    dm_move a[PLIES], b[PLIES], c[PLIES], d[PLIES];
    /* Level 1 chooses at random: the same seed plays the same game. */
    dm_match *solo = computer_match("english", 1, 42);
    int na = computer_game(solo, PLIES, a);
    dm_match_free(solo);
    solo = computer_match("english", 1, 42);
    assert_int_equal(computer_game(solo, PLIES, b), na);
    assert_true(na > 4);
    for (int i = 0; i < na; i++)
        assert_true(dm_move_same(&a[i], &b[i]));
    dm_match_free(solo);
    /* Another seed changes its choices somewhere in the game. */
    solo = computer_match("english", 1, 43);
    int nc = computer_game(solo, PLIES, c);
    dm_match_free(solo);
    bool differ = nc != na;
    for (int i = 0; i < nc && i < na && !differ; i++)
        differ = !dm_move_same(&a[i], &c[i]);
    assert_true(differ);

    /* Two matches searched in turn, as on a server's workers, share
     * nothing: each plays its solo game, and the second goes on after the
     * first (and its engines) is freed. */
    dm_match *m1 = computer_match("english", 1, 42), *m2 = computer_match("english", 1, 43);
    int n1 = 0, n2 = 0;
    for (int i = 0; i < PLIES / 4; i++) {
        n1 += computer_game(m1, 2, b + n1);
        n2 += computer_game(m2, 2, d + n2);
    }
    dm_match_free(m1);
    n2 += computer_game(m2, PLIES - n2, d + n2);
    dm_match_free(m2);
    assert_int_equal(n2, nc);
    for (int i = 0; i < n1; i++)
        assert_true(dm_move_same(&a[i], &b[i]));
    for (int i = 0; i < n2; i++)
        assert_true(dm_move_same(&c[i], &d[i]));

    /* Hints use up no seed: with a hint before each of the first moves the
     * seeded game is the same. */
    dm_match *hinted = computer_match("english", 1, 42);
    dm_error e0;
    for (int i = 0; i < na; i++) {
        dm_move hint, mv;
        if (i < 6)
            assert_int_equal(dm_match_hint(hinted, &hint, &e0), 0);
        assert_int_equal(dm_match_computer_move(hinted, &mv, &e0), 0);
        assert_true(dm_move_same(&mv, &a[i]));
        assert_int_equal(dm_match_play(hinted, dm_match_turn(hinted), &mv, &e0), 0);
    }
    dm_match_free(hinted);

    /* A snapshot searched with an engine passed in gives the seat's move. */
    dm_match *m = computer_match("english", 2, 9), *twin = computer_match("english", 2, 9);
    dm_snapshot s;
    dm_error err;
    assert_int_equal(dm_match_snapshot(m, 2, &s, &err), 0);
    assert_int_equal(s.ply, 0);
    dm_engine *e = dm_engine_new(dm_level_hash_mb(2));
    assert_non_null(e);
    dm_move mine, theirs;
    assert_int_equal(dm_snapshot_move(e, &s, &mine, &err), 0);
    dm_snapshot_free(&s);
    assert_int_equal(dm_match_computer_move(twin, &theirs, &err), 0);
    assert_true(dm_move_same(&mine, &theirs));
    dm_engine_free(e);
    dm_match_free(twin);

    refused(dm_match_snapshot(m, 11, &s, &err), &err, "level 11");
    /* A person's seat is not the computer's; a hint still is. */
    dm_match *p = new_match("english", NULL, NULL, NULL);
    refused(dm_match_computer_move(p, &mine, &err), &err, "Black is not played by the computer");
    assert_int_equal(dm_match_hint(p, &mine, &err), 0);
    assert_int_equal(dm_match_play(p, DM_BLACK, &mine, &err), 0);
    dm_match_free(p);
    dm_match_free(m);
}

static void test_computer_answers(void **state)
{
    (void)state;
    dm_error err;
    dm_match_options o = {.variant = tu_variant("international"), .seed = 1};
    o.seat[DM_BLACK] = (dm_seat){.kind = DM_SEAT_COMPUTER, .level = 1};
    dm_match *m = dm_match_new(&o, &err);
    assert_non_null(m);
    /* Nothing waiting: no answer. */
    assert_int_equal(dm_match_computer_answer(m, &err), 0);
    /* An even start: the draw is accepted. */
    assert_int_equal(dm_match_offer_draw(m, DM_WHITE, &err), 0);
    assert_int_equal(dm_match_computer_answer(m, &err), 1);
    assert_int_equal(dm_match_result(m), DM_RESULT_DRAW);
    dm_match_free(m);

    /* From level 5 on it plays the opening out, even as it is. */
    o.seat[DM_BLACK].level = 5;
    m = dm_match_new(&o, &err);
    assert_int_equal(dm_match_offer_draw(m, DM_WHITE, &err), 0);
    assert_int_equal(dm_match_computer_answer(m, &err), 1);
    assert_false(dm_match_over(m));
    assert_int_equal(dm_match_draw_offer(m), -1);
    dm_match_free(m);
    /* A piece up, it plays on at any level, however its search sees it:
     * two men against a king is a draw by the board. */
    o.fen = "W:W46,47:BK5";
    o.seat[DM_WHITE] = (dm_seat){.kind = DM_SEAT_COMPUTER, .level = 1};
    o.seat[DM_BLACK] = (dm_seat){.kind = DM_SEAT_PERSON};
    m = dm_match_new(&o, &err);
    assert_int_equal(dm_match_offer_draw(m, DM_BLACK, &err), 0);
    assert_int_equal(dm_match_computer_answer(m, &err), 1);
    assert_false(dm_match_over(m));
    dm_match_free(m);
    /* Judging a draw leaves the game's random choices alone. */
    dm_snapshot snap;
    o.fen = NULL;
    o.seat[DM_WHITE] = (dm_seat){.kind = DM_SEAT_PERSON};
    o.seat[DM_BLACK] = (dm_seat){.kind = DM_SEAT_COMPUTER, .level = 2};
    m = dm_match_new(&o, &err);
    refused(dm_match_draw_snapshot(m, DM_WHITE, &snap, &err), &err, "White is not played by the computer");
    assert_int_equal(dm_match_draw_snapshot(m, DM_BLACK, &snap, &err), 0);
    assert_int_equal(snap.level, 2);
    assert_int_equal(snap.seed, 0);
    dm_snapshot_free(&snap);
    dm_match_free(m);
    o.seat[DM_BLACK].level = 1;

    /* Three kings against a man: the computer plays on. */
    o.fen = "W:WK46,K47,K48:B5";
    o.seat[DM_WHITE] = (dm_seat){.kind = DM_SEAT_COMPUTER, .level = 1};
    o.seat[DM_BLACK] = (dm_seat){.kind = DM_SEAT_PERSON};
    m = dm_match_new(&o, &err);
    assert_non_null(m);
    assert_int_equal(dm_match_offer_draw(m, DM_BLACK, &err), 0);
    assert_int_equal(dm_match_computer_answer(m, &err), 1);
    assert_false(dm_match_over(m));
    assert_int_equal(dm_match_draw_offer(m), -1);
    dm_match_free(m);

    /* A takeback is accepted: back to the person's turn. */
    o.fen = NULL;
    o.seat[DM_WHITE] = (dm_seat){.kind = DM_SEAT_PERSON};
    o.seat[DM_BLACK] = (dm_seat){.kind = DM_SEAT_COMPUTER, .level = 1};
    m = dm_match_new(&o, &err);
    play_ok(m, DM_WHITE, "32-28");
    dm_move mv;
    assert_int_equal(dm_match_computer_move(m, &mv, &err), 0);
    assert_int_equal(dm_match_play(m, DM_BLACK, &mv, &err), 0);
    assert_int_equal(dm_match_request_takeback(m, DM_WHITE, &err), 0);
    assert_int_equal(dm_match_computer_answer(m, &err), 1);
    assert_int_equal(dm_match_ply(m), 0);
    dm_match_free(m);
}

/* The match read back from m's PDN, with persons in both seats. */
static dm_match *round_trip(const dm_match *m, char **text)
{
    dm_error err;
    *text = dm_match_write_pdn(m, &err);
    if (!*text)
        fail_msg("write: %s", err.msg);
    dm_match_options o = {.variant = tu_variant("international")};
    dm_match *back = dm_match_read_pdn(*text, strlen(*text), &o, &err);
    if (!back)
        fail_msg("read back: %s\n%s", err.msg, *text);
    return back;
}

static void test_pdn_round_trip(void **state)
{
    (void)state;
    int64_t now = 0;
    dm_match_options o = {.variant = tu_variant("russian"),
                          .rules = DM_RULES_OFFICIAL,
                          .event = "Club night",
                          .site = "Leiden",
                          .date = "2026.12.01",
                          .now = fake_now,
                          .now_ctx = &now};
    dm_error err;
    assert_int_equal(dm_time_control_parse("5+3", &o.time, &err), 0);
    snprintf(o.seat[DM_WHITE].name, DM_SEAT_NAME, "Ann");
    snprintf(o.seat[DM_BLACK].name, DM_SEAT_NAME, "Bob");
    dm_match *m = dm_match_new(&o, &err);
    assert_non_null(m);
    static const char *const moves[] = {"c3-d4", "f6-g5", "g3-h4", "g7-f6"};
    for (int i = 0; i < 4; i++) {
        now += 1500 * (i + 1);
        play_ok(m, (enum dm_color)(i % 2), moves[i]);
    }
    assert_int_equal(dm_match_resign(m, DM_BLACK, &err), 0);

    char *text;
    dm_match *back = round_trip(m, &text);
    static const char *const wanted[] = {
        "[Event \"Club night\"]",
        "[Site \"Leiden\"]",
        "[Date \"2026.12.01\"]",
        "[White \"Ann\"]",
        "[Black \"Bob\"]",
        "[Result \"1-0\"]",
        "[Rules \"official\"]",
        "[TimeControl \"300+3\"]",
        "[Termination \"resignation\"]",
        "1. c3-d4 {[%clock 0:05:01.5]}",
        "f6-g5 {[%clock 0:05:00.0]}",
    };
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++)
        if (!strstr(text, wanted[i]))
            fail_msg("no '%s' in\n%s", wanted[i], text);
    assert_int_equal(dm_match_ply(back), 4);
    for (int i = 1; i <= 4; i++) {
        assert_true(
            dm_move_same(dm_game_move(dm_match_game(back), i), dm_game_move(dm_match_game(m), i)));
        assert_int_equal(dm_match_clock_after(back, i), dm_match_clock_after(m, i));
    }
    assert_ptr_equal(dm_match_variant(back), tu_variant("russian"));
    assert_int_equal(dm_game_rules(dm_match_game(back)), DM_RULES_OFFICIAL);
    assert_string_equal(dm_match_seat(back, DM_WHITE)->name, "Ann");
    assert_string_equal(dm_match_seat(back, DM_BLACK)->name, "Bob");
    assert_int_equal(dm_match_time_control(back)->kind, DM_CLOCK_FISCHER);
    assert_int_equal(dm_match_time_control(back)->increment_ms, 3000);
    assert_int_equal(dm_match_time_left(back, DM_BLACK), dm_match_clock_after(m, 4));
    assert_int_equal(dm_match_result(back), DM_RESULT_WHITE_WINS);
    assert_string_equal(dm_match_reason(back), "Black resigned");
    assert_int_equal(dm_match_seq(back), 0);
    /* Written again, the same text. */
    char *again = dm_match_write_pdn(back, &err);
    assert_non_null(again);
    assert_string_equal(again, text);
    free(again);
    free(text);
    dm_match_free(back);
    dm_match_free(m);

    /* Agreement and a game still on come back as they were. */
    m = new_match("international", NULL, NULL, NULL);
    play_ok(m, DM_WHITE, "32-28");
    back = round_trip(m, &text);
    assert_false(dm_match_over(back));
    assert_false(dm_match_timed(back));
    assert_int_equal(dm_match_turn(back), DM_BLACK);
    assert_non_null(strstr(text, "[Termination \"unterminated\"]"));
    assert_null(strstr(text, "%clock"));
    free(text);
    dm_match_free(back);
    assert_int_equal(dm_match_offer_draw(m, DM_BLACK, &err), 0);
    assert_int_equal(dm_match_answer_draw(m, DM_WHITE, true, &err), 0);
    back = round_trip(m, &text);
    assert_string_equal(dm_match_reason(back), "draw agreed");
    assert_string_equal(dm_match_result_text(back), "1-1");
    free(text);
    dm_match_free(back);
    dm_match_free(m);
}

static void test_pdn_in(void **state)
{
    (void)state;
    dm_error err;
    dm_match_options o = {.variant = tu_variant("international")};
    snprintf(o.seat[DM_BLACK].name, DM_SEAT_NAME, "kept");
    /* A result the moves do not reach, without a Termination: kept as the
     * file's; a takeback undoes it.  A foreign TimeControl is no error. */
    const char *pdn = "[White \"Ann\"]\n[Black \"?\"]\n[TimeControl \"40/7200:3600\"]\n"
                      "[Result \"2-0\"]\n\n1. 32-28 19-23 2-0\n";
    dm_match *m = dm_match_read_pdn(pdn, strlen(pdn), &o, &err);
    if (!m)
        fail_msg("%s", err.msg);
    assert_true(dm_match_over(m));
    assert_int_equal(dm_match_result(m), DM_RESULT_WHITE_WINS);
    assert_string_equal(dm_match_reason(m), "the result given by the file");
    assert_false(dm_match_timed(m));
    assert_string_equal(dm_match_seat(m, DM_WHITE)->name, "Ann");
    assert_string_equal(dm_match_seat(m, DM_BLACK)->name, "kept");
    refused(dm_match_play_text(m, DM_WHITE, "28x19", &err), &err, "the game is over");
    assert_int_equal(dm_match_request_takeback(m, DM_WHITE, &err), 0);
    assert_int_equal(dm_match_answer_takeback(m, DM_BLACK, true, &err), 0);
    assert_false(dm_match_over(m));
    dm_match_free(m);

    /* Time forfeit by the file. */
    pdn = "[TimeControl \"1\"]\n[Termination \"time forfeit\"]\n[Result \"0-2\"]\n\n"
          "1. 32-28 {[%clock 0:00:40.0]} 19-23 {[%clock 0:00:50.0]} 0-2\n";
    m = dm_match_read_pdn(pdn, strlen(pdn), &o, &err);
    if (!m)
        fail_msg("%s", err.msg);
    assert_string_equal(dm_match_reason(m), "White lost on time");
    assert_int_equal(dm_match_time_left(m, DM_WHITE), 0);
    assert_int_equal(dm_match_time_left(m, DM_BLACK), 50000);
    dm_match_free(m);

    /* lidraughts' form: TimeControl in seconds, both clocks after a move. */
    pdn = "[TimeControl \"300+3\"]\n[Result \"*\"]\n\n"
          "1. 32-28 {[%clock w0:05:00 B0:05:00]} 17-22 {[%clock w0:05:00 B0:04:58]} *\n";
    m = dm_match_read_pdn(pdn, strlen(pdn), &o, &err);
    if (!m)
        fail_msg("%s", err.msg);
    assert_int_equal(dm_match_time_control(m)->kind, DM_CLOCK_FISCHER);
    assert_int_equal(dm_match_time_control(m)->base_ms, 300000);
    assert_int_equal(dm_match_time_control(m)->increment_ms, 3000);
    assert_int_equal(dm_match_clock_after(m, 2), 298000);
    assert_int_equal(dm_match_time_left(m, DM_BLACK), 298000);
    char *text = dm_match_write_pdn(m, &err);
    assert_non_null(text);
    assert_non_null(strstr(text, "[TimeControl \"300+3\"]"));
    assert_non_null(
        strstr(text, "1. 32-28 {[%clock 0:05:00.0]} 1... 17-22 {[%clock 0:04:58.0]} *"));
    free(text);
    dm_match_free(m);

    /* The other time controls, written and read back; what a match cannot
     * keep (several periods, an hourglass) leaves o's. */
    static const struct {
        const char *ours, *pgn;
    } forms[] = {{"5", "300"},
                 {"90/40", "40/5400"},
                 {"90/40+30", "40/5400+30"},
                 {"10/move", "10/move"},
                 {"0.5+1.5", "30+1.5"}};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        dm_match_options t = o;
        assert_int_equal(dm_time_control_parse(forms[i].ours, &t.time, &err), 0);
        dm_match *timed = dm_match_new(&t, &err);
        char *written = dm_match_write_pdn(timed, &err);
        char want[64];
        snprintf(want, sizeof want, "[TimeControl \"%s\"]", forms[i].pgn);
        if (!strstr(written, want))
            fail_msg("%s: no %s in\n%s", forms[i].ours, want, written);
        dm_match *back = dm_match_read_pdn(written, strlen(written), &o, &err);
        assert_non_null(back);
        char again[64];
        dm_time_control_format(dm_match_time_control(back), again, sizeof again);
        assert_string_equal(again, forms[i].ours);
        free(written);
        dm_match_free(back);
        dm_match_free(timed);
    }
    pdn = "[TimeControl \"40/7200:3600\"]\n\n1. 32-28 *\n";
    m = dm_match_read_pdn(pdn, strlen(pdn), &o, &err);
    assert_non_null(m);
    assert_false(dm_match_timed(m));
    dm_match_free(m);

    /* Bad input: an illegal move names it; no game at all. */
    pdn = "1. 32-28 32-28 *\n";
    assert_null(dm_match_read_pdn(pdn, strlen(pdn), &o, &err));
    assert_non_null(strstr(err.msg, "32-28"));
    assert_null(dm_match_read_pdn("", 0, &o, &err));
    assert_string_equal(err.msg, "no game in the PDN text");
    pdn = "[Rules \"strict\"]\n\n1. 32-28 *\n";
    assert_null(dm_match_read_pdn(pdn, strlen(pdn), &o, &err));
    assert_non_null(strstr(err.msg, "Rules tag 'strict'"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_moves_and_errors),
        cmocka_unit_test(test_draw_offers),
        cmocka_unit_test(test_takebacks),
        cmocka_unit_test(test_resignation),
        cmocka_unit_test(test_capture_reason),
        cmocka_unit_test(test_clock_and_time_forfeit),
        cmocka_unit_test(test_clock_after_first_moves),
        cmocka_unit_test(test_events_ring),
        cmocka_unit_test(test_computer),
        cmocka_unit_test(test_computer_answers),
        cmocka_unit_test(test_pdn_round_trip),
        cmocka_unit_test(test_pdn_in),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
