/* SPDX-License-Identifier: MIT */
/*
 * test_engine.c - the engine: forced wins found, blunders avoided, legal
 * moves in every variant, repetitions, decided scores, giveaway goals and
 * reproducible node counts; engines searching in several threads at once,
 * the overflow of the move stack; stopping from another thread, the info
 * reports, pondering and multipv lines.
 *
 * No test depends on the speed of the machine but one: searches are
 * limited by depth or nodes, and the tests of the time limits inject a
 * clock that advances a millisecond each time it is read; the stop test
 * measures how soon a search returns, with a loose bound when DAMIER_QUICK
 * (sanitizers) asks for one.  Every position below is
 * worked out by hand in its comment; International squares are numbered
 * 1-50 from the top left, row r (from the top) holding r*5+1..r*5+5.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "testutil.h"

#include "engine/engine.h"

/* A search of fen in variant id within limits; result in *r, and the
 * return value of dm_engine_search. */
static int search_fen(const char *id, const char *fen, const dm_search_limits *limits,
                      dm_search_result *r)
{
    const dm_variant *v = tu_variant(id);
    dm_position pos;
    tu_position(v, fen, &pos);
    dm_engine *e = dm_engine_new(1);
    assert_non_null(e);
    int rc = dm_engine_search(e, v, &pos, NULL, 0, limits, r);
    dm_engine_free(e);
    return rc;
}

/* Fails unless the search of fen plays want. */
static void expect_move(const char *id, const char *fen, const dm_search_result *r,
                        const char *want)
{
    const dm_variant *v = tu_variant(id);
    dm_position pos;
    tu_position(v, fen, &pos);
    dm_move m = tu_legal_move(v, &pos, want, 0);
    if (!r->has_move || !dm_move_same(&m, &r->best)) {
        char got[160] = "none";
        dm_move_list legal;
        dm_generate(v, &pos, &legal, 0);
        if (r->has_move)
            dm_move_format(v, &r->best, &legal, got, sizeof got);
        fail_msg("%s %s: played %s, expected %s (score %d)", id, fen, got, want, r->score);
    }
}

/* Whether m is one of the legal moves of pos. */
static bool is_legal(const dm_variant *v, const dm_position *pos, const dm_move *m)
{
    static dm_move_list legal;
    dm_generate(v, pos, &legal, 0);
    for (int i = 0; i < legal.count; i++)
        if (dm_move_same(&legal.moves[i], m))
            return true;
    return false;
}

/*
 * White 32 33 37 41, Black 12 22 23.  32-28 gives a man: Black must take it
 * with 23x32 (22 cannot: 33 is taken behind it; 23x32 cannot go on, 41
 * stands behind 37), and 37 takes three, 37x28x17x8, the whole black army.
 * Black to move then has no move: a win in three plies, and no other move
 * takes all three black men so soon.
 */
static void test_shot_one_for_three(void **state)
{
    (void)state;
    const char *fen = "W:W32,33,37,41:B12,22,23";
    dm_search_limits limits = {.depth = 6};
    dm_search_result r;
    assert_int_equal(search_fen("international", fen, &limits, &r), 0);
    expect_move("international", fen, &r, "32-28");
    assert_int_equal(r.score, DM_SCORE_WIN - 3);
    assert_int_equal(dm_score_plies_to_end(r.score), 3);
    assert_int_equal(r.pv_length, 3);
}

/*
 * White 32 38 48, Black 23 24 34: White has no capture (38 has nothing to
 * take), and 32-28 gives two men at once: Black's only move is 23x32x43,
 * taking 28 and 38 (34 and 24 have nothing to take, and the majority rule
 * would force the double capture anyway).  Then 48 takes the three black
 * men, 48x39x30x19 (over 43, 34 and 24), and Black has no move left.
 */
static void test_shot_two_for_three(void **state)
{
    (void)state;
    const char *fen = "W:W32,38,48:B23,24,34";
    dm_search_limits limits = {.depth = 6};
    dm_search_result r;
    assert_int_equal(search_fen("international", fen, &limits, &r), 0);
    expect_move("international", fen, &r, "32-28");
    assert_int_equal(r.score, DM_SCORE_WIN - 3);
    /* The principal variation is the combination, each move legal. */
    const dm_variant *v = tu_variant("international");
    dm_position pos;
    tu_position(v, fen, &pos);
    const char *line[] = {"32-28", "23x43", "48x19"};
    assert_int_equal(r.pv_length, 3);
    for (int i = 0; i < 3; i++) {
        dm_move m = tu_legal_move(v, &pos, line[i], 0);
        assert_true(dm_move_same(&m, &r.pv[i]));
        dm_make_move(v, &pos, &m);
    }
}

/*
 * White 33 46 50, Black 5 22 23.  The man on 33 cannot move: 33-28 is taken
 * by 22x33 or 23x32, 33-29 by 23x34, with nothing to take back.  Any other
 * move keeps the material even.
 */
#define BLUNDER_FEN "W:W33,46,50:B5,22,23"

static void test_avoids_blunder(void **state)
{
    (void)state;
    dm_search_limits limits = {.depth = 4};
    dm_search_result r;
    assert_int_equal(search_fen("international", BLUNDER_FEN, &limits, &r), 0);
    assert_true(r.has_move);
    assert_int_not_equal(dm_cell_parse(tu_variant("international"), "33", 2), r.best.from);
    assert_true(r.score > -50);
}

/* Whether every move of pos after m captures. */
static bool gives_a_piece(const dm_variant *v, const dm_position *pos, const dm_move *m)
{
    dm_position next = *pos;
    dm_make_move(v, &next, m);
    static dm_move_list reply;
    dm_generate(v, &next, &reply, 0);
    for (int i = 0; i < reply.count; i++)
        if (!(reply.moves[i].flags & DM_MOVE_CAPTURE))
            return false;
    return reply.count > 0;
}

/*
 * The blunder position again, in Antidraughts, where the side that runs out
 * of moves wins: now the moves from 33 are the good ones, since Black must
 * take the man.  And in Poddavki (White c1 g5, Black a3 c3), where the
 * endgame tables say that c1-b2 alone wins (a man Black must take; then
 * White runs out of moves first), c1-d2 gives a man too but loses, and g5's
 * moves give nothing and lose: the search finds the win.  (The position
 * this test held before, White c3 h2 against a7 e5, asked for c3-d4, a
 * gift that the tables show loses: h2-g3 draws.)
 */
static void test_giveaway_gives(void **state)
{
    (void)state;
    static const struct {
        const char *id, *fen;
    } cases[] = {
        {"antidraughts", BLUNDER_FEN},
        {"poddavki", "W:Wg5,c1:Bc3,a3"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const dm_variant *v = tu_variant(cases[i].id);
        dm_position pos;
        tu_position(v, cases[i].fen, &pos);
        dm_search_limits limits = {.depth = 4};
        dm_search_result r;
        assert_int_equal(search_fen(cases[i].id, cases[i].fen, &limits, &r), 0);
        if (!gives_a_piece(v, &pos, &r.best))
            fail_msg("%s %s: the move played gives nothing away", cases[i].id, cases[i].fen);
        assert_true(r.score > 0);
    }
    /* The evaluation itself: a man less is better in giveaway, worse
     * otherwise. */
    const char *fen = "W:W46:B5,6";
    dm_position pos;
    tu_position(tu_variant("antidraughts"), fen, &pos);
    assert_true(dm_evaluate(tu_variant("antidraughts"), &pos) > 0);
    assert_true(dm_evaluate(tu_variant("international"), &pos) < 0);
}

/*
 * Decided scores: a Breakthrough man one step from the far row wins at
 * once (White 6 48, Black 44: 6-1 crowns); positions without a move are
 * lost, or won in a giveaway variant, and have no best move.
 */
static void test_decided_scores(void **state)
{
    (void)state;
    dm_search_limits limits = {.depth = 5};
    dm_search_result r;
    assert_int_equal(search_fen("breakthrough", "W:W6,48:B44", &limits, &r), 0);
    expect_move("breakthrough", "W:W6,48:B44", &r, "6-1");
    assert_int_equal(r.score, DM_SCORE_WIN - 1);

    /* White 46 is blocked by 41, which 37 covers. */
    assert_int_equal(search_fen("international", "W:W46:B37,41", &limits, &r), -1);
    assert_false(r.has_move);
    assert_int_equal(r.score, -DM_SCORE_WIN);
    assert_int_equal(search_fen("antidraughts", "W:W46:B37,41", &limits, &r), -1);
    assert_int_equal(r.score, DM_SCORE_WIN);
    /* Breakthrough: Black already has a king; White has lost. */
    assert_int_equal(search_fen("breakthrough", "W:W31:BK45", &limits, &r), -1);
    assert_int_equal(r.score, -DM_SCORE_WIN);
    assert_int_equal(dm_score_plies_to_end(0), 0);
    assert_int_equal(dm_score_plies_to_end(-(DM_SCORE_WIN - 4)), -4);
}

/*
 * A position reached by the game of history_fens (three positions) in
 * which the side to move is lost on material but can play back, bringing
 * back the game's first position: with the history the search finds that
 * draw, scored -contempt for the side at the root; without it the same
 * search scores the position as lost.
 */
static void assert_repetition_found(const char *id, const char *const history_fens[3],
                                    const char *fen, const char *back_move, int contempt)
{
    const dm_variant *v = tu_variant(id);
    dm_position history[3], pos;
    for (int i = 0; i < 3; i++)
        tu_position(v, history_fens[i], &history[i]);
    tu_position(v, fen, &pos);
    dm_engine *e = dm_engine_new(1);
    assert_non_null(e);
    dm_search_limits limits = {.depth = 8, .contempt = contempt};
    dm_search_result r;
    assert_int_equal(dm_engine_search(e, v, &pos, history, 3, &limits, &r), 0);
    assert_int_equal(r.score, -contempt);
    dm_move back = tu_legal_move(v, &pos, back_move, 0);
    assert_true(dm_move_same(&back, &r.best));

    dm_engine_new_game(e);
    assert_int_equal(dm_engine_search(e, v, &pos, NULL, 0, &limits, &r), 0);
    assert_true(r.score < -100);
    dm_engine_free(e);
}

/*
 * English, two white kings against one black king: the game went K29-25,
 * K4-8, K25-29 from White K29 K32 and Black K4; with Black to move, K8-4
 * brings back the position after the first of them.
 */
static void test_repetition(void **state)
{
    (void)state;
    const char *const fens[] = {"W:WK29,K32:BK4", "B:WK25,K32:BK4", "W:WK25,K32:BK8"};
    assert_repetition_found("english", fens, "B:WK29,K32:BK8", "8-4", 0);
}

/*
 * Gothic's men step sideways, so a man's move can be undone: the game went
 * Ka1-a2, h8-g8, Ka2-a1 from White Ka1 Kc1 against Black's lone man on h8;
 * with Black to move, g8-h8 brings back the first position, which the
 * search must see through the man's step.  With contempt the draw is still
 * Black's best.
 */
static void test_sideways_repetition(void **state)
{
    (void)state;
    const char *const fens[] = {"W:WKa1,Kc1:Bh8", "B:WKa2,Kc1:Bh8", "W:WKa2,Kc1:Bg8"};
    assert_repetition_found("gothic", fens, "B:WKa1,Kc1:Bg8", "g8-h8", 0);
    assert_repetition_found("gothic", fens, "B:WKa1,Kc1:Bg8", "g8-h8", 30);
}

/*
 * The move counters: International's "5 moves with 1-2 pieces v 1 king"
 * (10 plies without capture or promotion).  White king 46 and a man, Black
 * a lone king shuttling 1-7-1 while the man walks 48-43-39-33-28 (none of
 * the king's lines crosses its path): 8 plies of the count are gone at the
 * root, so every line is drawn at ply 2 (the black king on 1, on the edge,
 * cannot be taken) but 28-23, which gives the man (1x29) for a king
 * against a king: either way no more than an even game.  Without the game
 * the man is worth its material.
 */
static void test_move_counter(void **state)
{
    (void)state;
    const dm_variant *v = tu_variant("international");
    static const char *const moves[] = {"48-43", "1-7", "43-39", "7-1",
                                        "39-33", "1-7", "33-28", "7-1"};
    dm_position history[8], pos;
    tu_position(v, "W:WK46,48:BK1", &pos);
    for (int i = 0; i < 8; i++) {
        history[i] = pos;
        tu_play(v, &pos, moves[i], 0);
    }
    dm_engine *e = dm_engine_new(1);
    assert_non_null(e);
    dm_search_limits limits = {.depth = 6};
    dm_search_result r;
    assert_int_equal(dm_engine_search(e, v, &pos, history, 8, &limits, &r), 0);
    assert_true(r.score >= 0 && r.score < 20);
    /* Six plies gone and a search of one: the count is not out, and White
     * is a man up (half of it and more, with kings on both sides). */
    dm_engine_new_game(e);
    dm_search_limits shallow = {.depth = 1};
    assert_int_equal(dm_engine_search(e, v, &pos, history + 2, 6, &shallow, &r), 0);
    assert_true(r.score > 50);
    dm_engine_new_game(e);
    assert_int_equal(dm_engine_search(e, v, &pos, NULL, 0, &limits, &r), 0);
    assert_true(r.score > 50);
    dm_engine_free(e);
}

/* The same search twice from a fresh table: the same nodes, move, score. */
static void test_deterministic(void **state)
{
    (void)state;
    const dm_variant *v = tu_variant("international");
    dm_position pos;
    dm_position_start(v, &pos);
    dm_engine *e = dm_engine_new(4);
    assert_non_null(e);
    dm_search_limits by_depth = {.depth = tu_quick() ? 5 : 7};
    dm_search_limits by_nodes = {.nodes = 5000};
    const dm_search_limits *limits[] = {&by_depth, &by_nodes};
    for (int k = 0; k < 2; k++) {
        dm_search_result a, b;
        dm_engine_new_game(e);
        assert_int_equal(dm_engine_search(e, v, &pos, NULL, 0, limits[k], &a), 0);
        dm_engine_new_game(e);
        assert_int_equal(dm_engine_search(e, v, &pos, NULL, 0, limits[k], &b), 0);
        assert_true(a.nodes > 0);
        assert_int_equal(a.nodes, b.nodes);
        assert_int_equal(a.score, b.score);
        assert_int_equal(a.depth, b.depth);
        assert_true(dm_move_same(&a.best, &b.best));
        assert_true(is_legal(v, &pos, &a.best));
    }
    dm_search_result r;
    dm_engine_new_game(e);
    dm_engine_search(e, v, &pos, NULL, 0, &by_nodes, &r);
    assert_int_equal(r.nodes, by_nodes.nodes);
    dm_engine_free(e);
}

/* A clock that advances one millisecond each time it is read. */
static int64_t ticking_clock(void *ctx)
{
    int64_t *t = ctx;
    return ++*t;
}

/* The time limits, on the ticking clock: the search stops on time with a
 * legal move, whether the time is fixed (and then all of it used) or the
 * share of a clock. */
static void test_time_limits(void **state)
{
    (void)state;
    const dm_variant *v = tu_variant("russian");
    dm_position pos;
    dm_position_start(v, &pos);
    dm_engine *e = dm_engine_new(1);
    assert_non_null(e);
    int64_t t = 0;
    dm_search_limits fixed = {.move_time_ms = 40, .now = ticking_clock, .now_ctx = &t};
    dm_search_limits clock = {
        .time_left_ms = 6000, .increment_ms = 0, .now = ticking_clock, .now_ctx = &t};
    /* The last move of a period: 100 ms less a margin of 20 at most. */
    dm_search_limits last = {
        .time_left_ms = 100, .moves_to_go = 1, .now = ticking_clock, .now_ctx = &t};
    const dm_search_limits *limits[] = {&fixed, &clock, &last};
    for (int k = 0; k < 3; k++) {
        dm_search_result r;
        assert_int_equal(dm_engine_search(e, v, &pos, NULL, 0, limits[k], &r), 0);
        assert_true(is_legal(v, &pos, &r.best));
        assert_true(r.depth >= 1);
        /* 6 s with 30 moves to play: a share of 180 ms (6 s less its
         * tenth, over 30) at most; a fixed 40 ms used up. */
        int64_t most = k == 0 ? 40 : k == 1 ? 180 : 80;
        assert_true(r.time_ms <= most + 2);
        if (k == 0)
            assert_true(r.time_ms >= most); /* a fixed time used up */
        assert_true(r.nodes <= (uint64_t)(r.time_ms + 2) * 1024);
    }
    dm_engine_free(e);
}

/* The plan's arithmetic (search_plan_time), figure by figure. */
static void test_time_plan(void **state)
{
    (void)state;
    static const struct {
        dm_search_limits limits;
        int nroot;
        struct time_plan want;
    } cases[] = {
        /* No time limit. */
        {{.depth = 5}, 10, {0, 0, false}},
        /* A fixed time is used to its end. */
        {{.move_time_ms = 500}, 10, {500, 500, false}},
        /* Sudden death, 6 s: a margin of 600 ms; 5400 over 30 moves is a
         * share of 180, the hard limit, soft 2/5 of it. */
        {{.time_left_ms = 6000}, 10, {72, 180, true}},
        /* 10 s + 0.5 s: margin 1000, share 9000 / 30 + 375 = 675. */
        {{.time_left_ms = 10000, .increment_ms = 500}, 10, {270, 675, true}},
        /* 10 moves in 60 s: margin 1000 (its cap), share 5900. */
        {{.time_left_ms = 60000, .moves_to_go = 10}, 10, {2360, 5900, true}},
        /* 1 s + 2 s: the share (30 + 1500) is capped at a third of 900. */
        {{.time_left_ms = 1000, .increment_ms = 2000}, 10, {120, 300, true}},
        /* The last move of a period (and every move of so many seconds a
         * move): all of 100 ms less a quarter, thought to the end as a
         * fixed time, since nothing left over is needed later. */
        {{.time_left_ms = 100, .moves_to_go = 1}, 10, {75, 75, false}},
        /* 0.5 s a move: a short time, the margin 100 ms (not a tenth). */
        {{.time_left_ms = 500, .moves_to_go = 1}, 10, {400, 400, false}},
        /* 60 ms: the margin's floor of 20 ms. */
        {{.time_left_ms = 60, .moves_to_go = 1}, 10, {40, 40, false}},
        /* A clock nearly out: at least a millisecond. */
        {{.time_left_ms = 5}, 10, {1, 1, true}},
        /* The shorter of a fixed time and a clock's hard limit. */
        {{.move_time_ms = 100, .time_left_ms = 6000}, 10, {100, 100, false}},
        {{.move_time_ms = 1000, .time_left_ms = 6000}, 10, {72, 180, true}},
        /* A single legal move: one iteration. */
        {{.time_left_ms = 6000}, 1, {1, 180, true}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct time_plan p;
        search_plan_time(&cases[i].limits, cases[i].nroot, &p);
        if (p.soft_ms != cases[i].want.soft_ms || p.hard_ms != cases[i].want.hard_ms ||
            p.clock != cases[i].want.clock)
            fail_msg("case %zu: soft %lld hard %lld clock %d, expected %lld %lld %d", i,
                     (long long)p.soft_ms, (long long)p.hard_ms, p.clock,
                     (long long)cases[i].want.soft_ms, (long long)cases[i].want.hard_ms,
                     cases[i].want.clock);
    }

    /* When another iteration starts. */
    struct time_plan clock = {72, 180, true}, fixed = {500, 500, false}, none = {0, 0, false};
    assert_true(search_goes_on(&clock, 71, 10, false, 0));
    assert_false(search_goes_on(&clock, 72, 10, false, 0));
    /* A new best move doubles the soft limit; a fall of 30 adds half
     * (180 here, the hard limit, which caps it). */
    assert_true(search_goes_on(&clock, 143, 0, true, 0));
    assert_false(search_goes_on(&clock, 144, 0, true, 0));
    assert_true(search_goes_on(&clock, 179, 0, true, 30));
    assert_false(search_goes_on(&clock, 180, 0, true, 30));
    assert_false(search_goes_on(&clock, 144, 0, true, 29));
    assert_true(search_goes_on(&clock, 107, 0, false, 30));
    assert_false(search_goes_on(&clock, 108, 0, false, 30));
    /* Twice the last iteration would reach the hard limit. */
    assert_true(search_goes_on(&clock, 10, 84, false, 0));
    assert_false(search_goes_on(&clock, 10, 85, false, 0));
    /* A fixed time goes on to its end, however long iterations take. */
    assert_true(search_goes_on(&fixed, 499, 400, true, 100));
    assert_false(search_goes_on(&fixed, 500, 0, false, 0));
    assert_true(search_goes_on(&none, 1000000, 1000000, false, 0));
}

/* Checks a search of pos: a legal best move, a principal variation of
 * legal moves starting with it. */
static void check_search(dm_engine *e, const dm_variant *v, const dm_position *pos,
                         const dm_position *history, int nhistory, const dm_search_limits *limits)
{
    dm_search_result r;
    int rc = dm_engine_search(e, v, pos, history, nhistory, limits, &r);
    if (dm_position_outcome(v, pos) != DM_ONGOING) {
        assert_int_equal(rc, -1);
        return;
    }
    assert_int_equal(rc, 0);
    if (!is_legal(v, pos, &r.best)) {
        char fen[512];
        dm_fen_format(v, pos, fen, sizeof fen);
        fail_msg("%s %s: the move played is not legal", dm_variant_id(v), fen);
    }
    assert_true(r.pv_length >= 1 && r.pv_length <= DM_MAX_PV);
    assert_true(dm_move_same(&r.pv[0], &r.best));
    dm_position p = *pos;
    for (int i = 0; i < r.pv_length; i++) {
        assert_true(is_legal(v, &p, &r.pv[i]));
        dm_make_move(v, &p, &r.pv[i]);
    }
    assert_true(r.score >= -DM_SCORE_WIN && r.score <= DM_SCORE_WIN);
}

static uint64_t next_random(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

/* Lazy SMP: threads out of range refused; three threads sharing the
 * table find a forced shot and play legal lines in every variant, from
 * the start and after random plies (with the game as history), by depth
 * and by nodes; back to one thread, the search is reproducible again. */
static void test_lazy_smp(void **state)
{
    (void)state;
    dm_engine *e = dm_engine_new(1);
    assert_non_null(e);
    assert_int_equal(dm_engine_threads(e), 1);
    assert_int_equal(dm_engine_set_threads(e, 0), -1);
    assert_int_equal(dm_engine_set_threads(e, DM_MAX_THREADS + 1), -1);
    assert_int_equal(dm_engine_threads(e), 1);
    assert_int_equal(dm_engine_set_threads(e, 3), 0);
    assert_int_equal(dm_engine_threads(e), 3);

    /* The shot of test_shot_one_for_three, on three threads. */
    const dm_variant *intl = tu_variant("international");
    dm_position shot;
    tu_position(intl, "W:W32,33,37,41:B12,22,23", &shot);
    dm_search_limits deep = {.depth = 6};
    dm_search_result r;
    assert_int_equal(dm_engine_search(e, intl, &shot, NULL, 0, &deep, &r), 0);
    dm_move want = tu_legal_move(intl, &shot, "32-28", 0);
    assert_true(dm_move_same(&r.best, &want));
    assert_int_equal(r.score, DM_SCORE_WIN - 3);

    uint64_t seed = 99;
    static dm_position game[64];
    static dm_move_list legal;
    for (int vi = 0; vi < dm_variant_count(); vi++) {
        const dm_variant *v = dm_variant_at(vi);
        int n = 0;
        dm_position_start(v, &game[0]);
        int plies = (int)(next_random(&seed) % 40);
        while (n < plies && dm_position_outcome(v, &game[n]) == DM_ONGOING) {
            dm_generate(v, &game[n], &legal, 0);
            game[n + 1] = game[n];
            dm_make_move(v, &game[n + 1], &legal.moves[next_random(&seed) % (uint64_t)legal.count]);
            n++;
        }
        dm_search_limits by_depth = {.depth = tu_quick() ? 3 : 5};
        dm_search_limits by_nodes = {.nodes = tu_quick() ? 500 : 4000};
        check_search(e, v, &game[n], game, n, &by_depth);
        check_search(e, v, &game[n], game, n, &by_nodes);
    }

    /* The start, after a new game. */
    dm_position start;
    dm_position_start(intl, &start);
    dm_search_limits six = {.depth = 6};
    dm_engine_new_game(e);
    assert_int_equal(dm_engine_search(e, intl, &start, NULL, 0, &six, &r), 0);
    assert_true(is_legal(intl, &start, &r.best));

    /* One thread again: the same nodes as a fresh engine's. */
    assert_int_equal(dm_engine_set_threads(e, 1), 0);
    assert_int_equal(dm_engine_threads(e), 1);
    dm_engine *fresh = dm_engine_new(1);
    assert_non_null(fresh);
    dm_search_result a, b;
    dm_engine_new_game(e);
    assert_int_equal(dm_engine_search(e, intl, &start, NULL, 0, &six, &a), 0);
    assert_int_equal(dm_engine_search(fresh, intl, &start, NULL, 0, &six, &b), 0);
    assert_int_equal(a.nodes, b.nodes);
    assert_true(dm_move_same(&a.best, &b.best));
    dm_engine_free(fresh);
    dm_engine_free(e);
}

/* Every variant, from its start and from positions of random games (with
 * the game so far as history), at a node limit, and at the weak levels'
 * random choice. */
static void test_every_variant(void **state)
{
    (void)state;
    dm_engine *e = dm_engine_new(1);
    assert_non_null(e);
    int games = tu_quick() ? 2 : 6;
    uint64_t seed = 12345;
    static dm_position game[200];
    static dm_move_list legal;
    for (int vi = 0; vi < dm_variant_count(); vi++) {
        const dm_variant *v = dm_variant_at(vi);
        dm_search_limits limits = {.nodes = tu_quick() ? 600 : 3000};
        dm_position_start(v, &game[0]);
        check_search(e, v, &game[0], NULL, 0, &limits);
        for (int g = 0; g < games; g++) {
            int plies = 2 + (int)(next_random(&seed) % 120), n = 0;
            dm_position_start(v, &game[0]);
            while (n < plies && dm_position_outcome(v, &game[n]) == DM_ONGOING) {
                dm_generate(v, &game[n], &legal, 0);
                game[n + 1] = game[n];
                dm_make_move(v, &game[n + 1],
                             &legal.moves[next_random(&seed) % (uint64_t)legal.count]);
                n++;
            }
            dm_engine_new_game(e);
            check_search(e, v, &game[n], game, n, &limits);
            dm_search_limits weak = {.depth = 2, .random_margin = 60, .seed = seed};
            check_search(e, v, &game[n], game, n, &weak);
        }
    }
    dm_engine_free(e);
}

/* One search for a thread: its own engine, a fresh table. */
struct job {
    const char *variant;
    int depth;
    dm_search_result result;
    int rc;
};

static void run_job(struct job *j)
{
    const dm_variant *v = dm_variant_by_id(j->variant);
    dm_position pos;
    dm_position_start(v, &pos);
    dm_engine *e = dm_engine_new(2);
    j->rc = e ? dm_engine_search(e, v, &pos, NULL, 0, &(dm_search_limits){.depth = j->depth},
                                 &j->result)
              : -2;
    dm_engine_free(e);
}

static void *job_thread(void *arg)
{
    run_job(arg);
    return NULL;
}

/* Two engines searching in two threads at once count the same nodes and
 * choose the same moves as the same searches one after the other: an
 * engine shares nothing mutable with another. */
static void test_two_threads(void **state)
{
    (void)state;
    int quick = tu_quick();
    struct job alone[2] = {{"international", quick ? 5 : 8, {0}, 0},
                           {"russian", quick ? 7 : 10, {0}, 0}};
    struct job together[2];
    memcpy(together, alone, sizeof together);
    for (int k = 0; k < 2; k++) {
        run_job(&alone[k]);
        assert_int_equal(alone[k].rc, 0);
    }
    pthread_t t[2];
    for (int k = 0; k < 2; k++)
        assert_int_equal(pthread_create(&t[k], NULL, job_thread, &together[k]), 0);
    for (int k = 0; k < 2; k++)
        assert_int_equal(pthread_join(t[k], NULL), 0);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(together[k].rc, 0);
        assert_true(alone[k].result.nodes > 1000);
        assert_int_equal(together[k].result.nodes, alone[k].result.nodes);
        assert_int_equal(together[k].result.score, alone[k].result.score);
        assert_true(dm_move_same(&together[k].result.best, &alone[k].result.best));
    }
}

/* A move stack too small for the line: the nodes that do not fit are
 * scored by the evaluation, the search still ends with a legal move, and
 * does so the same way each time. */
static void test_move_stack_overflow(void **state)
{
    (void)state;
    const dm_variant *v = tu_variant("international");
    dm_position pos;
    dm_position_start(v, &pos);
    dm_engine *e = dm_engine_new(1);
    assert_non_null(e);
    dm_search_limits limits = {.depth = 6};
    dm_search_result full, small[2];
    assert_int_equal(dm_engine_search(e, v, &pos, NULL, 0, &limits, &full), 0);
    /* The root's 9 moves, then room for three plies of about 9 each. */
    search_set_move_room(e, 9 + 30);
    for (int k = 0; k < 2; k++) {
        dm_engine_new_game(e);
        assert_int_equal(dm_engine_search(e, v, &pos, NULL, 0, &limits, &small[k]), 0);
        assert_true(is_legal(v, &pos, &small[k].best));
    }
    assert_int_equal(small[0].nodes, small[1].nodes);
    assert_true(small[0].nodes < full.nodes);
    /* Captures (few moves each) still go deeper than three plies, but
     * not as deep as with the whole stack. */
    assert_true(small[0].seldepth < full.seldepth);
    dm_engine_free(e);
}

/* What the info reports of a search said, and when to act on them. */
struct reports {
    dm_engine *engine;
    int count, exact;
    int exact_at[DM_MAX_DEPTH + 1]; /* exact reports per depth            */
    dm_search_info last;            /* the last exact report of line 1    */
    dm_move last_pv[DM_MAX_PV];
    uint64_t nodes;                 /* never going down                   */
    bool nodes_went_down;
    int stop_at, hit_at;            /* depth whose line 1 stops or hits   */
    uint64_t nodes_at_hit;
    atomic_int started;             /* a report came: the search runs     */
};

static void on_info(void *ctx, const dm_search_info *info)
{
    struct reports *r = ctx;
    r->count++;
    r->nodes_went_down |= info->nodes < r->nodes;
    r->nodes = info->nodes;
    atomic_store(&r->started, 1);
    if (info->bound != DM_BOUND_EXACT)
        return;
    r->exact++;
    r->exact_at[info->depth]++;
    if (info->multipv != 1)
        return;
    r->last = *info;
    memcpy(r->last_pv, info->pv, (size_t)info->pv_length * sizeof *info->pv);
    if (info->depth == r->stop_at)
        dm_engine_stop(r->engine);
    if (info->depth == r->hit_at) {
        r->nodes_at_hit = info->nodes;
        dm_engine_ponder_hit(r->engine);
    }
}

/* The reports of a search to depth 6: one exact report per iteration, the
 * last one the result itself; nodes never go down; every line legal. */
static void test_info_reports(void **state)
{
    (void)state;
    const dm_variant *v = tu_variant("international");
    const char *fen = "W:W32,38,48:B23,24,34"; /* test_shot_two_for_three */
    dm_position pos;
    tu_position(v, fen, &pos);
    dm_engine *e = dm_engine_new(1);
    assert_non_null(e);
    struct reports rep = {.engine = e};
    dm_search_limits limits = {.depth = 6, .on_info = on_info, .info_ctx = &rep};
    dm_search_result r;
    assert_int_equal(dm_engine_search(e, v, &pos, NULL, 0, &limits, &r), 0);
    /* The win in three is seen at depth 3 and ends the search at 5 (a
     * forced end well within the horizon). */
    assert_int_equal(r.depth, 5);
    assert_int_equal(rep.exact, 5);
    for (int d = 1; d <= 5; d++)
        assert_int_equal(rep.exact_at[d], 1);
    assert_false(rep.nodes_went_down);
    assert_int_equal(rep.last.depth, 5);
    assert_int_equal(rep.last.score, DM_SCORE_WIN - 3);
    assert_int_equal(rep.last.multipv, 1);
    assert_int_equal(rep.last.nodes, r.nodes);
    assert_true(rep.last.seldepth >= 3 && rep.last.seldepth <= r.seldepth);
    assert_int_equal(rep.last.pv_length, r.pv_length);
    for (int i = 0; i < r.pv_length; i++)
        assert_true(dm_move_same(&rep.last_pv[i], &r.pv[i]));
    /* The line kept is the result. */
    dm_search_line line;
    assert_int_equal(r.lines, 1);
    assert_int_equal(dm_engine_line(e, 0, &line), 0);
    assert_int_equal(line.score, r.score);
    assert_int_equal(line.bound, DM_BOUND_EXACT);
    assert_true(dm_move_same(&line.pv[0], &r.best));
    assert_int_equal(dm_engine_line(e, 1, &line), -1);
    assert_int_equal(dm_engine_line(e, -1, &line), -1);
    dm_engine_free(e);
}

static int64_t wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A search on its own thread, with the moment it returned. */
struct searcher {
    dm_engine *engine;
    const dm_variant *v;
    dm_position pos;
    dm_search_limits limits;
    dm_search_result result;
    int rc;
    atomic_int returned;
    int64_t returned_ns;
};

static void *searcher_thread(void *arg)
{
    struct searcher *s = arg;
    s->rc = dm_engine_search(s->engine, s->v, &s->pos, NULL, 0, &s->limits, &s->result);
    s->returned_ns = wall_ns();
    atomic_store(&s->returned, 1);
    return NULL;
}

static void sleep_ms(int ms)
{
    nanosleep(&(struct timespec){.tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000L}, NULL);
}

/* Starts s on thread t and waits (up to 10 s) for its first report. */
static void start_searcher(struct searcher *s, struct reports *rep, pthread_t *t)
{
    s->limits.on_info = on_info;
    s->limits.info_ctx = rep;
    assert_int_equal(pthread_create(t, NULL, searcher_thread, s), 0);
    for (int i = 0; i < 10000 && !atomic_load(&rep->started); i++)
        sleep_ms(1);
    assert_true(atomic_load(&rep->started));
}

/* A search without limits, stopped from this thread, returns its best
 * move within a millisecond of the stop: the best of five tries, so that
 * one unlucky scheduling does not fail the test; 50 ms under DAMIER_QUICK. */
static void test_stop_from_another_thread(void **state)
{
    (void)state;
    const dm_variant *v = tu_variant("international");
    dm_engine *e = dm_engine_new(4);
    assert_non_null(e);
    /* The best of five tries, or of up to twenty on a busy machine, where
     * the searching thread may wait for a core after the stop. */
    int64_t best_ns = INT64_MAX, bound_ns = (tu_quick() ? 50 : 1) * 1000000LL;
    for (int k = 0; k < 20 && (k < 5 || best_ns >= bound_ns); k++) {
        struct searcher s = {.engine = e, .v = v};
        struct reports rep = {.engine = e};
        dm_position_start(v, &s.pos);
        pthread_t t;
        dm_engine_new_game(e);
        start_searcher(&s, &rep, &t);
        sleep_ms(20); /* well inside an iteration */
        int64_t stop_ns = wall_ns();
        dm_engine_stop(e);
        assert_int_equal(pthread_join(t, NULL), 0);
        assert_int_equal(s.rc, 0);
        assert_true(is_legal(v, &s.pos, &s.result.best));
        assert_true(s.result.depth >= 1);
        if (s.returned_ns - stop_ns < best_ns)
            best_ns = s.returned_ns - stop_ns;
    }
    print_message("stop to return: %lld us (best of the tries)\n", (long long)(best_ns / 1000));
    assert_true(best_ns < bound_ns);
    /* The engine forgets the stop: the next search runs to its depth. */
    dm_position pos;
    dm_position_start(v, &pos);
    dm_search_result r;
    assert_int_equal(dm_engine_search(e, v, &pos, NULL, 0, &(dm_search_limits){.depth = 4}, &r),
                     0);
    assert_int_equal(r.depth, 4);
    /* A stop that comes before the search starts is kept for it. */
    dm_engine_stop(e);
    assert_int_equal(dm_engine_search(e, v, &pos, NULL, 0, &(dm_search_limits){.depth = 4}, &r),
                     0);
    assert_int_equal(r.depth, 0);
    assert_true(is_legal(v, &pos, &r.best));
    dm_engine_free(e);
}

/*
 * Pondering on the ticking clock, on one thread: the info reports stop or
 * hit the search at a chosen depth.  With a fixed 30 ms a move the search
 * ends at some depth d; pondering, the same limits reach d + 2 (stopped
 * there), and after a hit at depth 2 the search goes on for at most the
 * 30 ms (ticks of 1024 nodes) from the hit.
 */
static void test_ponder_ticking(void **state)
{
    (void)state;
    const dm_variant *v = tu_variant("russian");
    dm_position pos;
    dm_position_start(v, &pos);
    dm_engine *e = dm_engine_new(1);
    assert_non_null(e);
    int64_t t = 0;
    dm_search_limits plain = {.move_time_ms = 30, .now = ticking_clock, .now_ctx = &t};
    dm_search_result r0, r1, r2, r3;
    assert_int_equal(dm_engine_search(e, v, &pos, NULL, 0, &plain, &r0), 0);
    int d = r0.depth;
    assert_true(d >= 1 && d < 20);

    struct reports rep = {.engine = e, .stop_at = d + 2};
    dm_search_limits ponder = plain;
    ponder.ponder = true;
    ponder.on_info = on_info;
    ponder.info_ctx = &rep;
    dm_engine_new_game(e);
    assert_int_equal(dm_engine_search(e, v, &pos, NULL, 0, &ponder, &r1), 0);
    assert_int_equal(r1.depth, d + 2);
    assert_true(r1.nodes > r0.nodes);

    for (int k = 0; k < 2; k++) {
        struct reports hit = {.engine = e, .hit_at = 2};
        ponder.info_ctx = &hit;
        dm_engine_new_game(e);
        assert_int_equal(dm_engine_search(e, v, &pos, NULL, 0, &ponder, k ? &r3 : &r2), 0);
        dm_search_result *r = k ? &r3 : &r2;
        assert_true(hit.nodes_at_hit > 0);
        assert_true(r->nodes - hit.nodes_at_hit <= 31 * 1024);
        assert_true(r->depth >= 2);
        assert_true(is_legal(v, &pos, &r->best));
    }
    /* Reproducible, as the clock is. */
    assert_int_equal(r2.nodes, r3.nodes);
    dm_engine_free(e);
}

/* Pondering across threads: a ponder search that has finished its depth
 * waits for the hit; a ponder miss is a stop, then a new search. */
static void test_ponder_threads(void **state)
{
    (void)state;
    const dm_variant *v = tu_variant("international");
    dm_engine *e = dm_engine_new(1);
    assert_non_null(e);
    struct searcher s = {.engine = e, .v = v, .limits = {.depth = 3, .ponder = true}};
    struct reports rep = {.engine = e};
    dm_position_start(v, &s.pos);
    pthread_t t;
    start_searcher(&s, &rep, &t);
    sleep_ms(30);
    assert_false(atomic_load(&s.returned)); /* depth 3 is done, but no hit */
    dm_engine_ponder_hit(e);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(s.rc, 0);
    assert_int_equal(s.result.depth, 3);

    /* The miss: pondering without limits, stopped, then the real search. */
    struct searcher miss = {.engine = e, .v = v, .limits = {.ponder = true}};
    struct reports rep2 = {.engine = e};
    dm_position_start(v, &miss.pos);
    start_searcher(&miss, &rep2, &t);
    dm_engine_stop(e);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(miss.rc, 0);
    assert_true(is_legal(v, &miss.pos, &miss.result.best));
    dm_position pos;
    tu_position(v, "W:W32,38,48:B23,24,34", &pos);
    dm_search_result r;
    assert_int_equal(dm_engine_search(e, v, &pos, NULL, 0, &(dm_search_limits){.depth = 6}, &r),
                     0);
    expect_move("international", "W:W32,38,48:B23,24,34", &r, "32-28");
    assert_int_equal(r.score, DM_SCORE_WIN - 3);
    dm_engine_free(e);
}

/* Whether line is a legal line of pos. */
static bool legal_line(const dm_variant *v, const dm_position *pos, const dm_search_line *line)
{
    dm_position p = *pos;
    for (int i = 0; i < line->pv_length; i++) {
        if (!is_legal(v, &p, &line->pv[i]))
            return false;
        dm_make_move(v, &p, &line->pv[i]);
    }
    return line->pv_length >= 1;
}

/*
 * multipv: the K best root moves, each its own line, best first.  In the
 * shot two for three the first line is the win in three; the start of
 * International with multipv 9 (all its moves) lists every move once; one
 * exact report per line per iteration.
 */
static void test_multipv(void **state)
{
    (void)state;
    const dm_variant *v = tu_variant("international");
    dm_position pos;
    tu_position(v, "W:W32,38,48:B23,24,34", &pos);
    dm_engine *e = dm_engine_new(1);
    assert_non_null(e);
    dm_search_limits limits = {.depth = 4, .multipv = 3};
    dm_search_result r;
    assert_int_equal(dm_engine_search(e, v, &pos, NULL, 0, &limits, &r), 0);
    assert_int_equal(r.lines, 3);
    dm_search_line lines[3];
    for (int i = 0; i < 3; i++) {
        assert_int_equal(dm_engine_line(e, i, &lines[i]), 0);
        assert_true(legal_line(v, &pos, &lines[i]));
        assert_int_equal(lines[i].bound, DM_BOUND_EXACT);
        assert_int_equal(lines[i].depth, 4);
    }
    dm_move shot = tu_legal_move(v, &pos, "32-28", 0);
    assert_true(dm_move_same(&lines[0].pv[0], &shot));
    assert_true(dm_move_same(&r.best, &shot));
    assert_int_equal(lines[0].score, DM_SCORE_WIN - 3);
    assert_int_equal(r.score, DM_SCORE_WIN - 3);
    /* The others give nothing away, and win nothing by force. */
    for (int i = 1; i < 3; i++) {
        assert_true(lines[i].score <= lines[i - 1].score);
        assert_true(abs(lines[i].score) < 200);
    }

    dm_position_start(v, &pos);
    struct reports rep = {.engine = e};
    limits = (dm_search_limits){.depth = 3, .multipv = 12, .on_info = on_info, .info_ctx = &rep};
    dm_engine_new_game(e);
    assert_int_equal(dm_engine_search(e, v, &pos, NULL, 0, &limits, &r), 0);
    assert_int_equal(r.lines, 9); /* as many as there are moves */
    for (int d = 1; d <= 3; d++)
        assert_int_equal(rep.exact_at[d], 9);
    dm_move_list legal;
    dm_generate(v, &pos, &legal, 0);
    bool seen[DM_MAX_MOVES] = {false};
    int previous = DM_SCORE_WIN;
    for (int i = 0; i < 9; i++) {
        dm_search_line line;
        assert_int_equal(dm_engine_line(e, i, &line), 0);
        assert_true(line.score <= previous);
        previous = line.score;
        int found = -1;
        for (int m = 0; m < legal.count; m++)
            if (dm_move_same(&legal.moves[m], &line.pv[0]))
                found = m;
        assert_true(found >= 0 && !seen[found]);
        seen[found] = true;
    }

    /* Stopped within an iteration (by a node limit, so reproducibly): the
     * lines it finished come first, at its depth, then the previous
     * iteration's lines of other moves; still three, all different. */
    int mixed = 0;
    for (int nodes = 2000; nodes <= 4000; nodes += 500) {
        limits = (dm_search_limits){.nodes = (uint64_t)nodes, .multipv = 3};
        dm_engine_new_game(e);
        assert_int_equal(dm_engine_search(e, v, &pos, NULL, 0, &limits, &r), 0);
        assert_int_equal(r.lines, 3);
        dm_search_line l[3];
        for (int i = 0; i < 3; i++) {
            assert_int_equal(dm_engine_line(e, i, &l[i]), 0);
            assert_true(legal_line(v, &pos, &l[i]));
            assert_true(l[i].depth == r.depth || l[i].depth == r.depth + 1);
            if (i > 0) {
                assert_true(l[i].depth <= l[i - 1].depth);
                assert_false(dm_move_same(&l[i].pv[0], &l[i - 1].pv[0]));
            }
        }
        assert_false(dm_move_same(&l[0].pv[0], &l[2].pv[0]));
        assert_true(dm_move_same(&l[0].pv[0], &r.best));
        assert_int_equal(l[0].score, r.score);
        mixed += l[0].depth != l[2].depth;
    }
    assert_true(mixed > 0); /* some stop came between two lines */
    dm_engine_free(e);
}

/* The symmetric start positions score the same for either side to move:
 * even for the hand-set evaluation, and the learned tempo's worth where
 * learned weights have one (International). */
static void test_eval_start(void **state)
{
    (void)state;
    const char *ids[] = {"international", "english", "russian", "frisian", "turkish", "canadian"};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        const dm_variant *v = tu_variant(ids[i]);
        dm_position pos;
        dm_position_start(v, &pos);
        int white = dm_evaluate(v, &pos);
        pos.side = DM_BLACK;
        assert_int_equal(dm_evaluate(v, &pos), white);
        if (strcmp(ids[i], "international") != 0)
            assert_int_equal(white, 0);
        else
            assert_true(white >= 0 && white < 20); /* the tempo: a fraction of a man */
    }
}

/* The key of a position found from its parent's and the move's cells, and
 * from the move alone (tt_key_move, with Frisian's counters made up), is
 * the key computed from scratch, for every move of random games of every
 * variant (Turkish's immediate removal, Parachute's parachutists, Frisian's
 * counters and Hawaiian's removals among them). */
static void test_key_after(void **state)
{
    (void)state;
    static struct tt_keys keys;
    tt_keys_init(&keys);
    static dm_move_list legal;
    uint64_t rng = 0x4B455953u;
    for (int vi = 0; vi < dm_variant_count(); vi++) {
        const dm_variant *v = dm_variant_at(vi);
        for (int game = 0; game < 10; game++) {
            dm_position pos;
            dm_position_start(v, &pos);
            uint64_t key = tt_key(&keys, &pos);
            for (int ply = 0; ply < 150 && dm_generate(v, &pos, &legal, 0) > 0; ply++) {
                for (int i = 0; i < legal.count; i++) {
                    dm_position next = pos;
                    dm_make_move(v, &next, &legal.moves[i]);
                    if (tt_key_after(&keys, key, &pos, &next) != tt_key(&keys, &next))
                        fail_msg("%s: the key after a move differs from the full key",
                                 dm_variant_id(v));
                    /* The search's way: from the move, the counters made up. */
                    uint64_t by_move = tt_key_move(&keys, key, &pos, &legal.moves[i]) ^
                                       tt_key_counters_change(&keys, &pos, &next);
                    if (by_move != tt_key(&keys, &next))
                        fail_msg("%s: the key from the move differs from the full key",
                                 dm_variant_id(v));
                }
                dm_position next = pos;
                dm_make_move(v, &next, &legal.moves[tu_xorshift(&rng) % (uint64_t)legal.count]);
                key = tt_key_after(&keys, key, &pos, &next);
                pos = next;
            }
        }
    }
}

/* A weak level's random choice from a search its node budget stops in the
 * middle of an iteration: the choice is one of the legal moves, whatever
 * the partial iteration left in the root's scores (it once divided by a
 * count of zero moves within the margin). */
static void test_random_margin_stopped(void **state)
{
    (void)state;
    const dm_variant *v = dm_variant_by_id("international");
    dm_engine *e = dm_engine_new(1);
    assert_non_null(e);
    dm_position pos;
    dm_position_start(v, &pos);
    dm_move_list legal;
    for (int ply = 0; ply < 12; ply++) {
        dm_generate(v, &pos, &legal, 0);
        if (legal.count == 0)
            break;
        for (uint64_t nodes = 40; nodes <= 4000; nodes = nodes * 3 / 2) {
            dm_search_limits lim = {.nodes = nodes, .random_margin = 30, .seed = nodes + ply};
            dm_search_result r;
            assert_int_equal(dm_engine_search(e, v, &pos, NULL, 0, &lim, &r), 0);
            assert_true(r.has_move);
            bool found = false;
            for (int i = 0; i < legal.count && !found; i++)
                found = dm_move_same(&legal.moves[i], &r.best);
            assert_true(found);
        }
        dm_make_move(v, &pos, &legal.moves[(ply * 7) % legal.count]);
    }
    dm_engine_free(e);
}

/* The weakest play (one ply, any move within 1.5 men of the best) still
 * never passes a shot over: a sacrifice whose forced captures win a man
 * over the position's evaluation.  Positions found in random games, each
 * with a single such move and seven or more within the margin.  Without a
 * shot the choice still varies. */
static void test_weak_play_takes_shots(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *fen, *shot;
    } shots[] = {
        /* 29-24 gives one, 20x29, and 34x23x32 takes two. */
        {"international", "W:W29,34-50:B1-11,13,15,16,20,21,28", "29-24"},
        /* 10-15 17x10 15x22 25x18 6x22: three for two. */
        {"english", "B:W17,18,20,21,23,25,27-31:B1-4,6,8-11,14,16", "10-15"},
    };
    dm_engine *e = dm_engine_new(1);
    assert_non_null(e);
    for (size_t i = 0; i < sizeof shots / sizeof shots[0]; i++) {
        const dm_variant *v = dm_variant_by_id(shots[i].variant);
        for (uint64_t seed = 1; seed <= 32; seed++) {
            dm_search_limits weak = {.depth = 1, .random_margin = 150, .seed = seed};
            dm_search_result r;
            dm_position pos;
            tu_position(v, shots[i].fen, &pos);
            assert_int_equal(dm_engine_search(e, v, &pos, NULL, 0, &weak, &r), 0);
            expect_move(shots[i].variant, shots[i].fen, &r, shots[i].shot);
        }
    }
    const dm_variant *v = dm_variant_by_id("international");
    dm_position start;
    dm_position_start(v, &start);
    dm_move first = {0};
    bool varied = false;
    for (uint64_t seed = 1; seed <= 32 && !varied; seed++) {
        dm_search_limits weak = {.depth = 1, .random_margin = 150, .seed = seed};
        dm_search_result r;
        assert_int_equal(dm_engine_search(e, v, &start, NULL, 0, &weak, &r), 0);
        if (seed == 1)
            first = r.best;
        varied = !dm_move_same(&first, &r.best);
    }
    assert_true(varied);
    dm_engine_free(e);
}

int main(void)
{
    /* clang-format off */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shot_one_for_three),
        cmocka_unit_test(test_shot_two_for_three),
        cmocka_unit_test(test_avoids_blunder),
        cmocka_unit_test(test_giveaway_gives),
        cmocka_unit_test(test_decided_scores),
        cmocka_unit_test(test_repetition),
        cmocka_unit_test(test_sideways_repetition),
        cmocka_unit_test(test_move_counter),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_time_limits),
        cmocka_unit_test(test_time_plan),
        cmocka_unit_test(test_every_variant),
        cmocka_unit_test(test_eval_start),
        cmocka_unit_test(test_two_threads),
        cmocka_unit_test(test_lazy_smp),
        cmocka_unit_test(test_move_stack_overflow),
        cmocka_unit_test(test_info_reports),
        cmocka_unit_test(test_stop_from_another_thread),
        cmocka_unit_test(test_ponder_ticking),
        cmocka_unit_test(test_ponder_threads),
        cmocka_unit_test(test_multipv),
        cmocka_unit_test(test_key_after),
        cmocka_unit_test(test_random_margin_stopped),
        cmocka_unit_test(test_weak_play_takes_shots),
    };
    /* clang-format on */
    return cmocka_run_group_tests(tests, NULL, NULL);
}
