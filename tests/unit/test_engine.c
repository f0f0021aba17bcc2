/* SPDX-License-Identifier: MIT */
/*
 * test_engine.c - the engine: forced wins found, blunders avoided, legal
 * moves in every variant, repetitions, decided scores, giveaway goals and
 * reproducible node counts; engines searching in several threads at once,
 * the overflow of the move stack.
 *
 * No test depends on the speed of the machine: searches are limited by
 * depth or nodes, and the one test of the time limit injects a clock that
 * advances a millisecond each time it is read.  Every position below is
 * worked out by hand in its comment; International squares are numbered
 * 1-50 from the top left, row r (from the top) holding r*5+1..r*5+5.
 */
#include <pthread.h>

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
 * take the man.  And in Poddavki (White c3 h2, Black a7 e5), c3-d4 gives a
 * man to e5 while c3-b4 and h2-g3 give nothing.
 */
static void test_giveaway_gives(void **state)
{
    (void)state;
    static const struct {
        const char *id, *fen;
    } cases[] = {
        {"antidraughts", BLUNDER_FEN},
        {"poddavki", "W:Wc3,h2:Ba7,e5"},
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
 * English, two white kings against one black king: Black is lost on
 * material.  The game went K29-25, K4-8, K25-29 from White K29 K32 and
 * Black K4; with Black to move, K8-4 brings back the position after the
 * first of them, a draw by repetition, which the search prefers.  Without
 * that history the same search scores the position as lost.
 */
static void test_repetition(void **state)
{
    (void)state;
    const dm_variant *v = tu_variant("english");
    const char *fens[] = {"W:WK29,K32:BK4", "B:WK25,K32:BK4", "W:WK25,K32:BK8"};
    dm_position history[3], pos;
    for (int i = 0; i < 3; i++)
        tu_position(v, fens[i], &history[i]);
    tu_position(v, "B:WK29,K32:BK8", &pos);
    dm_engine *e = dm_engine_new(1);
    assert_non_null(e);
    dm_search_limits limits = {.depth = 8};
    dm_search_result r;
    assert_int_equal(dm_engine_search(e, v, &pos, history, 3, &limits, &r), 0);
    assert_int_equal(r.score, 0);
    dm_move back = tu_legal_move(v, &pos, "8-4", 0);
    assert_true(dm_move_same(&back, &r.best));

    dm_engine_new_game(e);
    assert_int_equal(dm_engine_search(e, v, &pos, NULL, 0, &limits, &r), 0);
    assert_true(r.score < -100);
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
 * legal move, whether the time is fixed or the share of a clock. */
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
        .time_left_ms = 60000, .increment_ms = 0, .now = ticking_clock, .now_ctx = &t};
    const dm_search_limits *limits[] = {&fixed, &clock};
    for (int k = 0; k < 2; k++) {
        dm_search_result r;
        assert_int_equal(dm_engine_search(e, v, &pos, NULL, 0, limits[k], &r), 0);
        assert_true(is_legal(v, &pos, &r.best));
        assert_true(r.depth >= 1);
        /* 60 s with 30 moves to play: at most about 2 s of ticks. */
        assert_true(r.time_ms <= 2000);
        assert_true(r.nodes <= (uint64_t)(r.time_ms + 2) * 1024);
    }
    dm_engine_free(e);
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

/* The evaluation of the symmetric start positions is even. */
static void test_eval_start(void **state)
{
    (void)state;
    const char *ids[] = {"international", "english", "russian", "frisian", "turkish", "canadian"};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        dm_position pos;
        dm_position_start(tu_variant(ids[i]), &pos);
        assert_int_equal(dm_evaluate(tu_variant(ids[i]), &pos), 0);
    }
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
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_time_limits),
        cmocka_unit_test(test_every_variant),
        cmocka_unit_test(test_eval_start),
        cmocka_unit_test(test_two_threads),
        cmocka_unit_test(test_move_stack_overflow),
    };
    /* clang-format on */
    return cmocka_run_group_tests(tests, NULL, NULL);
}
