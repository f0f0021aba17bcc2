/* SPDX-License-Identifier: MIT */
/*
 * test_game.c - the game record: results, every draw rule at its exact ply,
 * counter resets, takebacks and the players' acts.
 *
 * Draw counters are driven by a walker: it plays quiet king moves (a man
 * move or a promotion where the test plans one), each to a position the game
 * has not seen, after which the opponent has a move and no capture, so that
 * only the rule under test can end the game; it searches depth-first and
 * takes back dead ends.  For each rule
 * the game is still on one ply before the limit and ends on it with the
 * rule's reason; scripted man moves, captures and promotions show what
 * restarts a count.  Positions are set up by FEN, in each variant's own
 * notation.  A variant the table does not have yet is skipped.
 */
#include "testutil.h"

#include "game/game.h"

/* Whether the walker may go to next from the current position of g. */
typedef bool keep_fn(const dm_game *g, const dm_position *next);

/* What the walker plays at each ply (by default a king move), the cells its
 * kings never go to (where a scripted exchange happens), and the positions
 * it may still try before giving up.  game_of() resets them. */
enum walk_kind { WALK_KING, WALK_MAN, WALK_PROMOTE };
static unsigned char walk_plan[512];
static dm_bits walk_forbidden;
static long walk_budget;

static dm_game *game_of(const char *id, enum dm_rules rules, const char *fen)
{
    dm_error err;
    const dm_variant *v = tu_variant(id);
    dm_game *g = dm_game_new(v, rules, fen, &err);
    memset(walk_plan, WALK_KING, sizeof walk_plan);
    walk_forbidden = 0;
    if (!g)
        fail_msg("%s: game from '%s' refused: %s", id, fen ? fen : "start", err.msg);
    return g;
}

/* The game of a variant that may not be in the table yet, or NULL. */
static dm_game *game_if(const char *id, enum dm_rules rules, const char *fen)
{
    if (!dm_variant_by_id(id)) {
        print_message("SKIP: variant %s is not in the table yet\n", id);
        return NULL;
    }
    return game_of(id, rules, fen);
}

static void play(dm_game *g, const char *text)
{
    dm_error err;
    if (dm_game_play_text(g, text, &err) != 0)
        fail_msg("ply %d: '%s' refused: %s", dm_game_ply(g) + 1, text, err.msg);
}

static void play_all(dm_game *g, const char *texts)
{
    char buf[512], *save = NULL;
    snprintf(buf, sizeof buf, "%s", texts);
    for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
        play(g, t);
}

static bool seen(const dm_game *g, const dm_position *p)
{
    for (int i = 0; i <= dm_game_ply(g); i++)
        if (dm_position_equal(dm_game_position(g, i), p))
            return true;
    return false;
}

/* The walker plays a man move at ply (WALK_MAN: one that does not crown). */
static void plan(int ply, enum walk_kind kind)
{
    walk_plan[ply] = (unsigned char)kind;
}

/* Whether m, played now, is a move the walker may make: quiet, by the piece
 * the plan wants, to a fresh position (accepted by keep) that leaves the
 * opponent a move and no capture. */
static bool walkable(const dm_game *g, const dm_move *m, keep_fn *keep)
{
    static dm_move_list next_legal;
    const dm_variant *v = dm_game_variant(g);
    const dm_position *pos = dm_game_position(g, dm_game_ply(g));
    bool king = (pos->kings & ((dm_bits)1 << m->from)) != 0;
    bool promotes = (m->flags & DM_MOVE_PROMOTES) != 0;
    if (m->njumps)
        return false;
    size_t next_ply = (size_t)dm_game_ply(g) + 1;
    switch ((enum walk_kind)(next_ply < sizeof walk_plan ? walk_plan[next_ply] : WALK_KING)) {
    case WALK_KING:
        if (!king || (walk_forbidden & ((dm_bits)1 << m->to)))
            return false;
        break;
    case WALK_MAN:
        if (king || promotes)
            return false;
        break;
    case WALK_PROMOTE:
        if (!promotes)
            return false;
        break;
    }
    dm_position next = *pos;
    dm_make_move(v, &next, m);
    if (seen(g, &next) || (keep && !keep(g, &next)))
        return false;
    dm_generate(v, &next, &next_legal, 0);
    return next_legal.count > 0 && next_legal.moves[0].njumps == 0;
}

/* Depth-first: a walk of n plies from here, taking back dead ends. */
static bool walk_from(dm_game *g, int n, keep_fn *keep)
{
    if (n == 0)
        return true;
    if (dm_game_over(g))
        fail_msg("ply %d: the game ended early: %s", dm_game_ply(g), dm_game_reason(g));
    const dm_move_list *now = dm_game_legal(g);
    dm_move_list *legal = malloc(sizeof *legal);
    assert_non_null(legal);
    legal->count = now->count;
    memcpy(legal->moves, now->moves, (size_t)now->count * sizeof now->moves[0]);
    /* Start at a different move each ply, so the walk wanders instead of
     * circling one corner. */
    for (int k = 0; k < legal->count; k++) {
        const dm_move *m = &legal->moves[(k + dm_game_ply(g) * 7) % legal->count];
        if (!walkable(g, m, keep))
            continue;
        if (--walk_budget < 0)
            break;
        dm_error err;
        assert_int_equal(dm_game_play(g, m, &err), 0);
        if (walk_from(g, n - 1, keep)) {
            free(legal);
            return true;
        }
        dm_game_undo(g, 1);
    }
    free(legal);
    return false;
}

/* Plays n quiet moves as walkable() allows; fails the test if no such
 * walk exists. */
static void walk(dm_game *g, int n, keep_fn *keep)
{
    walk_budget = 200000;
    if (!walk_from(g, n, keep)) {
        char fen[256];
        dm_fen_format(dm_game_variant(g), dm_game_position(g, dm_game_ply(g)), fen, sizeof fen);
        fail_msg("ply %d: no walk of %d quiet king moves from %s", dm_game_ply(g), n, fen);
    }
}

static void assert_on(const dm_game *g)
{
    if (dm_game_over(g))
        fail_msg("ply %d: over too early: %s", dm_game_ply(g), dm_game_reason(g));
}

static void assert_end(const dm_game *g, enum dm_end end, enum dm_result result, const char *reason)
{
    if (!dm_game_over(g))
        fail_msg("ply %d: still on, expected '%s'", dm_game_ply(g), reason);
    if (dm_game_end(g) != end || dm_game_result(g) != result || strcmp(dm_game_reason(g), reason))
        fail_msg("ply %d: ended by '%s' (end %d, result %d), expected '%s' (end %d, result %d)",
                 dm_game_ply(g), dm_game_reason(g), dm_game_end(g), dm_game_result(g), reason, end,
                 result);
}

/* Walks to ply `at` (the walk fails if the game ends before) and expects
 * the draw there. */
static void expect_draw_at(dm_game *g, int at, const char *reason, keep_fn *keep)
{
    walk(g, at - dm_game_ply(g), keep);
    assert_int_equal(dm_game_ply(g), at);
    assert_end(g, DM_END_DRAW_RULE, DM_RESULT_DRAW, reason);
}

static int counter(const dm_game *g, int i)
{
    const char *name;
    int count, limit;
    assert_true(dm_game_counter(g, i, &name, &count, &limit));
    return count;
}

/* ---- walker predicates -------------------------------------------------- */

static const char *const long_diag_d8[] = {"a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"};

static dm_bits d8_long_diagonal(const dm_variant *v)
{
    dm_bits set = 0;
    for (int i = 0; i < 8; i++)
        set |= (dm_bits)1 << dm_cell_parse(v, long_diag_d8[i], 2);
    return set;
}

/* The black lone king stays alone on a1-h8. */
static bool black_alone_on_diagonal(const dm_game *g, const dm_position *next)
{
    dm_bits d = d8_long_diagonal(dm_game_variant(g));
    dm_bits on = (next->white | next->black) & d;
    return on && on == (next->black & d);
}

/* The black lone king keeps off a1-h8. */
static bool black_off_diagonal(const dm_game *g, const dm_position *next)
{
    return (next->black & d8_long_diagonal(dm_game_variant(g))) == 0;
}

/* Portuguese: the rio h1-a8 (squares 1, 5, 10, 14, 19, 23, 28, 32) keeps the
 * white kings it has and gains none. */
static dm_bits rio(const dm_variant *v)
{
    static const char *const sq[] = {"1", "5", "10", "14", "19", "23", "28", "32"};
    dm_bits set = 0;
    for (int i = 0; i < 8; i++)
        set |= (dm_bits)1 << dm_cell_parse(v, sq[i], strlen(sq[i]));
    return set;
}

static bool rio_unchanged(const dm_game *g, const dm_position *next)
{
    dm_bits d = rio(dm_game_variant(g));
    const dm_position *now = dm_game_position(g, dm_game_ply(g));
    return (next->white & d) == (now->white & d) && !(next->black & d);
}

/* ... and the king on 3 (d1) stays, with its way to the rio (6, 10) free. */
static bool rio_unchanged_3_ready(const dm_game *g, const dm_position *next)
{
    const dm_variant *v = dm_game_variant(g);
    dm_bits k3 = (dm_bits)1 << dm_cell_parse(v, "3", 1);
    dm_bits way =
        ((dm_bits)1 << dm_cell_parse(v, "6", 1)) | ((dm_bits)1 << dm_cell_parse(v, "10", 2));
    return rio_unchanged(g, next) && (next->white & k3) && !((next->white | next->black) & way);
}

/* ---- results by the rules ----------------------------------------------- */

static void test_no_move(void **state)
{
    (void)state;
    dm_game *g = game_of("english", DM_RULES_DEFAULT, "W:W29:B25,22");
    assert_end(g, DM_END_NO_MOVE, DM_RESULT_BLACK_WINS, "White cannot move");
    dm_game_free(g);

    g = game_of("english", DM_RULES_DEFAULT, "B:W18:B14");
    assert_on(g);
    play(g, "14x23");
    assert_end(g, DM_END_NO_MOVE, DM_RESULT_BLACK_WINS, "White cannot move");
    dm_game_free(g);
}

static void test_giveaway(void **state)
{
    (void)state;
    dm_game *g = game_of("anti-checkers", DM_RULES_DEFAULT, "B:W18:B14");
    play(g, "14x23");
    assert_end(g, DM_END_NO_MOVE, DM_RESULT_WHITE_WINS, "White cannot move and wins");
    dm_game_free(g);

    g = game_of("poddavki", DM_RULES_OFFICIAL, "W:Wc3:Bd4");
    play(g, "c3:e5");
    assert_end(g, DM_END_NO_MOVE, DM_RESULT_BLACK_WINS, "Black cannot move and wins");
    dm_game_free(g);

    g = game_of("antidraughts", DM_RULES_DEFAULT, "W:W32:B28");
    play(g, "32x23");
    assert_end(g, DM_END_NO_MOVE, DM_RESULT_BLACK_WINS, "Black cannot move and wins");
    dm_game_free(g);
}

static void test_breakthrough(void **state)
{
    (void)state;
    dm_game *g = game_of("breakthrough", DM_RULES_DEFAULT, "W:W6:B45");
    assert_on(g);
    play(g, "6-1");
    assert_end(g, DM_END_FIRST_KING, DM_RESULT_WHITE_WINS, "White crowned the first king");
    dm_game_free(g);

    /* No move still loses. */
    g = game_of("breakthrough", DM_RULES_DEFAULT, "W:W46:B41,37");
    assert_end(g, DM_END_NO_MOVE, DM_RESULT_BLACK_WINS, "White cannot move");
    dm_game_free(g);

    /* No draw rule at all. */
    g = game_of("breakthrough", DM_RULES_OFFICIAL, NULL);
    int limit;
    const char *name;
    int count;
    assert_false(dm_game_counter(g, 0, &name, &count, &limit));
    dm_game_repetitions(g, &limit);
    assert_int_equal(limit, 0);
    dm_game_free(g);
}

/* ---- repetition ----------------------------------------------------------- */

static void test_threefold(void **state)
{
    (void)state;
    dm_game *g = game_of("international", DM_RULES_DEFAULT, "W:WK47,K49:BK2,K4");
    play_all(g, "47-42 2-7 42-47 7-2");
    int limit;
    assert_int_equal(dm_game_repetitions(g, &limit), 2);
    assert_int_equal(limit, 3);
    play_all(g, "47-42 2-7 42-47");
    assert_on(g);
    play(g, "7-2");
    assert_int_equal(dm_game_ply(g), 8);
    assert_end(g, DM_END_REPETITION, DM_RESULT_DRAW, "threefold repetition");

    /* Taking back the last move restores the history: twice seen, on. */
    assert_int_equal(dm_game_undo(g, 1), 1);
    assert_on(g);
    assert_int_equal(dm_game_repetitions(g, NULL), 2);
    play(g, "7-2");
    assert_end(g, DM_END_REPETITION, DM_RESULT_DRAW, "threefold repetition");
    dm_game_free(g);
}

static void test_italian_fourfold(void **state)
{
    (void)state;
    dm_game *g = game_of("italian", DM_RULES_DEFAULT, "W:WK29,K30:BK3,K4");
    play_all(g, "29-25 4-8 25-29 8-4 29-25 4-8 25-29 8-4 29-25 4-8 25-29");
    assert_int_equal(dm_game_repetitions(g, NULL), 3);
    assert_on(g);
    play(g, "8-4");
    assert_int_equal(dm_game_ply(g), 12);
    assert_end(g, DM_END_REPETITION, DM_RESULT_DRAW, "fourfold repetition");
    dm_game_free(g);
}

static void test_frisian_no_repetition(void **state)
{
    (void)state;
    dm_game *g = game_of("frisian", DM_RULES_DEFAULT, "W:WK47,K49:BK2,K4");
    for (int i = 0; i < 4; i++)
        play_all(g, "47-42 2-7 42-47 7-2");
    int limit;
    assert_int_equal(dm_game_repetitions(g, &limit), 5); /* seen five times, */
    assert_int_equal(limit, 0);                          /* and no rule draws */
    assert_on(g);
    dm_game_free(g);
}

/* Turkish men step sideways, so a man move is no barrier to repetition. */
static void test_turkish_repetition(void **state)
{
    (void)state;
    dm_game *g = game_if("turkish", DM_RULES_OFFICIAL, "W:Wa2,h2:Ba7,h7");
    if (!g)
        return;
    play_all(g, "a2-b2 a7-b7 b2-a2 b7-a7 a2-b2 a7-b7 b2-a2");
    assert_on(g);
    play(g, "b7-a7");
    assert_end(g, DM_END_REPETITION, DM_RESULT_DRAW, "threefold repetition");
    dm_game_free(g);
}

/* Antidraughts: repetition is its only draw rule. */
static void test_antidraughts(void **state)
{
    (void)state;
    dm_game *g = game_of("antidraughts", DM_RULES_DEFAULT, "W:WK47,K49:BK2,K4");
    const char *name;
    int count, limit;
    assert_false(dm_game_counter(g, 0, &name, &count, &limit));
    walk(g, 120, NULL);
    assert_on(g);
    dm_game_free(g);

    g = game_of("antidraughts", DM_RULES_OFFICIAL, "W:WK47,K49:BK2,K4");
    play_all(g, "47-42 2-7 42-47 7-2 47-42 2-7 42-47 7-2");
    assert_end(g, DM_END_REPETITION, DM_RESULT_DRAW, "threefold repetition");
    dm_game_free(g);
}

/* ---- English ------------------------------------------------------------ */

/* Kings walk; the men 19 (White) and 11 (Black) wait for the scripted
 * exchange 11-15 19x10, the kings keeping off the squares around it. */
#define ENGLISH_FEN "B:WK29,K30,19:BK4,K8,11"

static dm_bits cells(const dm_variant *v, const char *names)
{
    char buf[256], *save = NULL;
    dm_bits set = 0;
    snprintf(buf, sizeof buf, "%s", names);
    for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
        set |= (dm_bits)1 << dm_cell_parse(v, t, strlen(t));
    return set;
}

static dm_game *english_game(enum dm_rules rules)
{
    dm_game *g = game_of("english", rules, ENGLISH_FEN);
    walk_forbidden = cells(dm_game_variant(g), "1 2 3 6 7 10 11 14 15 18 19 22 23");
    return g;
}

static void test_english_default(void **state)
{
    (void)state;
    dm_game *g = english_game(DM_RULES_DEFAULT);
    walk(g, 20, NULL);
    assert_int_equal(counter(g, 0), 20);
    play(g, "11-15"); /* a man move: no capture, the count goes on */
    assert_int_equal(counter(g, 0), 21);
    play(g, "19x10"); /* a capture starts it over */
    assert_int_equal(counter(g, 0), 0);
    expect_draw_at(g, 122, "50 moves each without a capture", NULL);
    walk_forbidden = 0;
    dm_game_free(g);
}

static void test_english_official(void **state)
{
    (void)state;
    dm_game *g = english_game(DM_RULES_OFFICIAL);
    walk(g, 20, NULL);
    assert_int_equal(counter(g, 0), 20);
    play(g, "11-15"); /* WCDF: a man move starts it over */
    assert_int_equal(counter(g, 0), 0);
    play(g, "19x10");
    assert_int_equal(counter(g, 0), 0);
    expect_draw_at(g, 22 + 80, "WCDF 40-move rule: no man move or capture", NULL);
    walk_forbidden = 0;
    dm_game_free(g);
}

static void test_italian_king_moves(void **state)
{
    (void)state;
    for (int preset = 0; preset < 2; preset++) {
        dm_game *g = game_of("italian", (enum dm_rules)preset, "W:WK29,K30:BK3,K4");
        expect_draw_at(g, 80, "40 moves each without a capture or man move", NULL);
        dm_game_free(g);
    }
}

/* ---- Russian and its family ---------------------------------------------- */

static void test_russian_default(void **state)
{
    (void)state;
    dm_game *g = game_of("russian", DM_RULES_DEFAULT, "W:WKa3,e1:BKh6,d8");
    plan(11, WALK_MAN); /* a man move starts the count over */
    expect_draw_at(g, 11 + 50, "25 king-only moves each", NULL);
    dm_game_undo(g, 50);
    assert_int_equal(counter(g, 0), 0);
    dm_game_undo(g, 1);
    assert_int_equal(counter(g, 0), 10);
    dm_game_free(g);
}

static void test_fmjd64_724(void **state)
{
    (void)state;
    /* The lone king takes one of four: 3 kings v 1 from ply 1. */
    dm_game *g = game_of("russian", DM_RULES_OFFICIAL, "B:WKf4,Kb8,Kh4,Ka5:BKg5");
    play(g, "g5:e3");
    assert_int_equal(counter(g, 0), 0);
    expect_draw_at(g, 31, "FMJD-64 7.2.4: 3 kings v 1 king, 15 moves", black_off_diagonal);
    dm_game_free(g);
}

static void test_fmjd64_725(void **state)
{
    (void)state;
    /* 8 pieces: no endgame rule; the men stand still. */
    dm_game *g = game_of("russian", DM_RULES_OFFICIAL, "W:WKa3,c1,e1,g1:BKh6,b8,d8,f8");
    expect_draw_at(g, 30, "FMJD-64 7.2.5: 15 king-only moves each", NULL);
    dm_game_free(g);
}

static void test_fmjd64_726(void **state)
{
    (void)state;
    /* 4 pieces, a king each; man moves keep 7.2.5 away. */
    dm_game *g = game_of("russian", DM_RULES_OFFICIAL, "W:WKa3,e1:BKh6,d8");
    plan(20, WALK_MAN);
    plan(40, WALK_MAN);
    expect_draw_at(g, 60, "FMJD-64 7.2.6: 30 moves with 4-5 pieces", NULL);
    dm_game_undo(g, 40);
    assert_int_equal(counter(g, 1), 0);  /* the man move restarts 7.2.5 */
    assert_int_equal(counter(g, 2), 20); /* but not 7.2.6 */
    dm_game_free(g);

    /* 6 pieces: 60 moves. */
    g = game_of("russian", DM_RULES_OFFICIAL, "W:WKa3,e1,g1:BKh6,b8,d8");
    plan(20, WALK_MAN);
    plan(41, WALK_MAN);
    plan(60, WALK_MAN);
    plan(81, WALK_MAN);
    plan(100, WALK_MAN);
    expect_draw_at(g, 120, "FMJD-64 7.2.6: 60 moves with 6-7 pieces", NULL);
    dm_game_free(g);
}

static void test_fmjd64_727(void **state)
{
    (void)state;
    /* King and two men v a lone king alone on the long diagonal. */
    dm_game *g = game_of("russian", DM_RULES_OFFICIAL, "W:WKh2,e1,g1:BKd4");
    expect_draw_at(g, 10, "FMJD-64 7.2.7: 5 moves v a lone king on the long diagonal",
                   black_alone_on_diagonal);
    dm_game_free(g);

    /* Off the diagonal only 7.2.5 applies, at ply 30. */
    g = game_of("russian", DM_RULES_OFFICIAL, "W:WKh2,e1,g1:BKb6");
    expect_draw_at(g, 30, "FMJD-64 7.2.5: 15 king-only moves each", black_off_diagonal);
    dm_game_free(g);
}

static void test_fmjd64_728(void **state)
{
    (void)state;
    dm_game *g = game_of("russian", DM_RULES_OFFICIAL, "W:WKh2,e1:BKb6");
    expect_draw_at(g, 10, "FMJD-64 7.2.8: 5 moves with 1-2 pieces v 1 king", black_off_diagonal);
    dm_game_free(g);

    /* Brazilian plays the FMJD-64 rules in both presets. */
    g = game_of("brazilian", DM_RULES_DEFAULT, "W:WKh2:BKb6");
    expect_draw_at(g, 10, "FMJD-64 7.2.8: 5 moves with 1-2 pieces v 1 king", NULL);
    dm_game_free(g);
}

static void test_poddavki(void **state)
{
    (void)state;
    dm_game *g = game_of("poddavki", DM_RULES_DEFAULT, "W:WKa3,Kc1:BKh6,Kf8");
    expect_draw_at(g, 50, "25 king-only moves each", NULL);
    dm_game_free(g);

    /* The lone king takes onto the big road; the strong side's 15th move is
     * ply 30, a ply before the king-only rule. */
    g = game_of("poddavki", DM_RULES_OFFICIAL, "B:WKe3,Ka5,Kh6,Kb8:BKf2");
    play(g, "f2:d4");
    expect_draw_at(g, 30, "3 kings v 1 king on the long diagonal, 15 moves",
                   black_alone_on_diagonal);
    dm_game_free(g);

    g = game_of("poddavki", DM_RULES_OFFICIAL, "W:WKa3,Kc1:BKh6,Kf8");
    expect_draw_at(g, 30, "15 king-only moves each", NULL);
    dm_game_free(g);
}

static void test_pool(void **state)
{
    (void)state;
    /* The strong side moves first: its 13th move is ply 25. */
    dm_game *g = game_of("pool", DM_RULES_DEFAULT, "W:WK29,K30,K32:BK1");
    expect_draw_at(g, 25, "APCA 13 count: 3 kings v 1 king, 13 moves", NULL);
    dm_game_free(g);

    g = game_of("pool", DM_RULES_OFFICIAL, "B:WK29,K30:BK3,K4");
    expect_draw_at(g, 30, "15 king-only moves each", NULL);
    dm_game_free(g);
}

static void test_spanish(void **state)
{
    (void)state;
    dm_game *g = game_of("spanish", DM_RULES_DEFAULT, "W:WK1,K2,K3:BK30");
    expect_draw_at(g, 23, "3 kings v 1 king, 12 moves", NULL);
    dm_game_free(g);

    g = game_of("spanish", DM_RULES_OFFICIAL, "W:WK2,K3:BK30,K31");
    expect_draw_at(g, 40, "20 king-only moves each", NULL);
    dm_game_free(g);
}

static void test_portuguese(void **state)
{
    (void)state;
    /* Man moves do not restart the 20-move count; a promotion does. */
    dm_game *g = game_of("portuguese", DM_RULES_DEFAULT, "W:WK2,K3,8:BK30,K31,21");
    plan(11, WALK_MAN);
    expect_draw_at(g, 40, "FPD: 20 moves each without a capture or promotion", NULL);
    dm_game_free(g);

    g = game_of("portuguese", DM_RULES_DEFAULT, "W:WK2,K3,25:BK30,K31");
    plan(11, WALK_PROMOTE);
    expect_draw_at(g, 51, "FPD: 20 moves each without a capture or promotion", NULL);
    dm_game_undo(g, 40);
    assert_int_equal(counter(g, 0), 0);
    dm_game_undo(g, 1);
    assert_int_equal(counter(g, 0), 10);
    dm_game_free(g);

    /* 3 kings v 1 with one of the three on the rio: 24 plies... */
    g = game_of("portuguese", DM_RULES_OFFICIAL, "W:WK1,K2,K3:BK30");
    expect_draw_at(g, 24, "FPD: 3 kings v 1 king with the long diagonal, 12 moves", rio_unchanged);
    dm_game_free(g);

    /* ... restarted when another of them steps onto it. */
    g = game_of("portuguese", DM_RULES_OFFICIAL, "W:WK1,K2,K3:BK30");
    walk(g, 8, rio_unchanged_3_ready);
    assert_int_equal(counter(g, 1), 8);
    play(g, "3-10"); /* d1-f3 */
    assert_int_equal(counter(g, 1), 0);
    expect_draw_at(g, 9 + 24, "FPD: 3 kings v 1 king with the long diagonal, 12 moves",
                   rio_unchanged);
    dm_game_free(g);
}

static void test_czech_default_draw(void **state)
{
    (void)state;
    for (int preset = 0; preset < 2; preset++) {
        dm_game *g = game_of("czech", (enum dm_rules)preset, "W:WKa3,Kc1:BKh6,Kf8");
        expect_draw_at(g, 100, "50 king-only moves each", NULL);
        dm_game_free(g);
    }
}

static void test_thai(void **state)
{
    (void)state;
    for (int preset = 0; preset < 2; preset++) {
        dm_game *g = game_of("thai", (enum dm_rules)preset, "W:WKa3,Kc1:BKh6,Kf8");
        expect_draw_at(g, 50, "25 king-only moves each", NULL);
        dm_game_free(g);
    }
}

/* ---- International family -------------------------------------------------- */

static void test_international(void **state)
{
    (void)state;
    dm_game *g = game_of("international", DM_RULES_DEFAULT, "W:WK47,K49:BK2,K4");
    expect_draw_at(g, 50, "25 king-only moves each", NULL);
    dm_game_free(g);

    /* 3 kings v king and man: the capture creating 3 v 1 is not counted. */
    g = game_of("international", DM_RULES_OFFICIAL, "W:WK46,K47,K48:BK1,41");
    play(g, "46x32");
    assert_int_equal(counter(g, 1), 0);
    expect_draw_at(g, 1 + 32, "16 moves with 3 pieces v 1 king", NULL);
    dm_game_free(g);

    /* King and man v king: 5 moves, restarted by the promotion. */
    g = game_of("international", DM_RULES_DEFAULT, "W:WK46,7:BK25");
    plan(5, WALK_PROMOTE);
    expect_draw_at(g, 5 + 10, "5 moves with 1-2 pieces v 1 king", NULL);
    dm_game_undo(g, 10);
    assert_int_equal(counter(g, 2), 0);
    dm_game_undo(g, 1);
    assert_int_equal(counter(g, 2), 4);
    dm_game_free(g);

    /* Killer and Canadian use the same rules. */
    g = game_of("killer", DM_RULES_DEFAULT, "W:WK47:BK4");
    expect_draw_at(g, 10, "5 moves with 1-2 pieces v 1 king", NULL);
    dm_game_free(g);
    g = game_of("canadian", DM_RULES_OFFICIAL, "W:WK67,K72:BK1,K6");
    expect_draw_at(g, 50, "25 king-only moves each", NULL);
    dm_game_free(g);
}

static void test_frisian(void **state)
{
    (void)state;
    /* 2 kings v 2: the capture makes 2 v 1, drawn 7 moves each later. */
    dm_game *g = game_of("frisian", DM_RULES_DEFAULT, "W:WK46,K50:BK41,K1");
    play(g, "46x32");
    assert_int_equal(counter(g, 0), 0);
    expect_draw_at(g, 1 + 14, "2 kings v 1 king 7 moves", NULL);
    dm_game_free(g);

    g = game_of("frisian", DM_RULES_OFFICIAL, "W:WK47:BK4");
    expect_draw_at(g, 4, "1 king v 1 king 2 moves", NULL);
    dm_game_free(g);

    /* 2 v 2 kings: no rule at all. */
    g = game_of("frisian", DM_RULES_DEFAULT, "W:WK47,K49:BK2,K4");
    walk(g, 120, NULL);
    assert_on(g);
    dm_game_free(g);
}

/* ---- orthogonal games ------------------------------------------------------ */

static void test_turkish(void **state)
{
    (void)state;
    /* One piece each and no capture: drawn at once. */
    dm_game *g = game_if("turkish", DM_RULES_OFFICIAL, "W:Wa2:Bh7");
    if (!g)
        return;
    assert_end(g, DM_END_DRAW_RULE, DM_RESULT_DRAW, "one piece against one");
    dm_game_free(g);

    /* With a capture to make, it is played out. */
    g = game_of("turkish", DM_RULES_DEFAULT, "W:Wd4:Bd5");
    assert_on(g);
    play(g, "d4xd6");
    assert_end(g, DM_END_NO_MOVE, DM_RESULT_WHITE_WINS, "Black cannot move");
    dm_game_free(g);

    /* A capture that leaves one piece each draws. */
    g = game_of("turkish", DM_RULES_DEFAULT, "W:Wd4:Bd5,h7");
    play(g, "d4xd6");
    assert_end(g, DM_END_DRAW_RULE, DM_RESULT_DRAW, "one piece against one");
    dm_game_free(g);

    /* The house rule of 25 king-only moves is not the academy's. */
    g = game_of("turkish", DM_RULES_DEFAULT, "W:WKa1,Kc1:BKh8,Kf8");
    expect_draw_at(g, 50, "25 king-only moves each", NULL);
    dm_game_free(g);
    g = game_of("turkish", DM_RULES_OFFICIAL, "W:WKa1,Kc1:BKh8,Kf8");
    walk(g, 60, NULL);
    assert_on(g);
    dm_game_free(g);
}

static void test_dameo(void **state)
{
    (void)state;
    dm_game *g = game_if("dameo", DM_RULES_DEFAULT, "W:WKa1:BKh6");
    if (!g)
        return;
    expect_draw_at(g, 4, "1 king v 1 king 2 moves", NULL);
    dm_game_free(g);
    g = game_of("dameo", DM_RULES_OFFICIAL, "W:WKa1,Kc1:BKh6,Kf8");
    expect_draw_at(g, 50, "25 king-only moves each", NULL);
    dm_game_free(g);
}

static void test_gothic(void **state)
{
    (void)state;
    dm_game *g = game_if("gothic", DM_RULES_DEFAULT, "W:WKa1,Kc1:BKh6,Kf8");
    if (!g)
        return;
    expect_draw_at(g, 80, "WCDF 40-move rule: no man move or capture", NULL);
    dm_game_free(g);
}

static void test_no_draw_variants(void **state)
{
    (void)state;
    static const char *const ids[] = {"breakthrough", "hawaiian"};
    for (int i = 0; i < 2; i++) {
        const dm_variant *v = dm_variant_by_id(ids[i]);
        if (!v)
            continue;
        for (int preset = 0; preset < 2; preset++) {
            const struct draw_rules *d = game_draw_rules(v, (enum dm_rules)preset);
            assert_int_equal(d->repetition, 0);
            assert_null(d->counter[0].reason);
        }
    }
}

/* Every variant of the table has its own row, and every rule set is sane. */
static void test_table(void **state)
{
    (void)state;
    for (int i = 0; i < dm_variant_count(); i++) {
        const dm_variant *v = dm_variant_at(i);
        if (!game_draw_rules_listed(v))
            fail_msg("variant %s has no row in the draw-rule table", dm_variant_id(v));
        for (int preset = 0; preset < 2; preset++) {
            const struct draw_rules *d = game_draw_rules(v, (enum dm_rules)preset);
            assert_non_null(d->source);
            for (int k = 0; k < DRAW_MAX_COUNTERS && d->counter[k].reason; k++)
                assert_true(d->counter[k].limit > 0 || d->counter[k].unless_capture);
            char text[1024];
            int n = dm_draw_rules_describe(v, (enum dm_rules)preset, text, sizeof text);
            assert_true(n > 0 && (size_t)n < sizeof text);
        }
    }
}

/* ---- takebacks ------------------------------------------------------------ */

static void test_undo_counters(void **state)
{
    (void)state;
    /* A walk with a man move at ply 20, replayed in a second game: every
     * takeback must give the replay's position and counters. */
    dm_game *g = game_of("russian", DM_RULES_OFFICIAL, "W:WKa3,e1:BKh6,d8");
    plan(20, WALK_MAN);
    walk(g, 39, NULL);
    dm_game *replay = game_of("russian", DM_RULES_OFFICIAL, "W:WKa3,e1:BKh6,d8");
    int saved[40][DRAW_MAX_COUNTERS];
    const char *name;
    int count, limit;
    dm_error err;
    for (int ply = 0; ply <= 39; ply++) {
        if (ply)
            assert_int_equal(dm_game_play(replay, dm_game_move(g, ply), &err), 0);
        for (int i = 0; i < DRAW_MAX_COUNTERS; i++)
            saved[ply][i] = dm_game_counter(replay, i, &name, &count, &limit) ? count : -1;
    }
    assert_int_equal(saved[20][1], 0);
    assert_int_equal(saved[19][1], 19);
    for (int back = 39; back >= 0; back -= 3) {
        dm_game_undo(g, dm_game_ply(g) - back);
        assert_int_equal(dm_game_ply(g), back);
        assert_true(dm_position_equal(dm_game_position(g, back), dm_game_position(replay, back)));
        for (int i = 0; i < DRAW_MAX_COUNTERS; i++)
            assert_int_equal(dm_game_counter(g, i, &name, &count, &limit) ? count : -1,
                             saved[back][i]);
    }
    assert_int_equal(dm_game_undo(g, 5), 0);
    dm_game_free(replay);
    dm_game_free(g);

    /* Taking back a capture restores the count it had reset. */
    g = english_game(DM_RULES_DEFAULT);
    walk(g, 20, NULL);
    play_all(g, "11-15 19x10");
    assert_int_equal(counter(g, 0), 0);
    dm_game_undo(g, 2);
    assert_int_equal(counter(g, 0), 20);

    /* Taking back the drawing move reopens the game. */
    expect_draw_at(g, 100, "50 moves each without a capture", NULL);
    dm_game_undo(g, 1);
    assert_on(g);
    assert_int_equal(counter(g, 0), 99);
    walk_forbidden = 0;
    dm_game_free(g);
}

/* ---- the players' acts ------------------------------------------------------ */

static void test_acts(void **state)
{
    (void)state;
    dm_error err;
    dm_game *g = game_of("international", DM_RULES_DEFAULT, NULL);
    play(g, "32-28");
    dm_game_resign(g, DM_BLACK);
    assert_end(g, DM_END_RESIGNATION, DM_RESULT_WHITE_WINS, "Black resigned");
    assert_int_equal(dm_game_play_text(g, "19-23", &err), -1);
    assert_non_null(strstr(err.msg, "the game is over"));
    dm_game_undo(g, 1); /* the resignation goes with the move */
    assert_on(g);
    assert_int_equal(dm_game_ply(g), 0);

    /* An offer stands until the opponent moves. */
    assert_false(dm_game_accept_draw(g, DM_BLACK));
    assert_false(dm_game_offer_draw(g, DM_WHITE));
    assert_int_equal(dm_game_draw_offer(g), DM_WHITE);
    play(g, "32-28");
    assert_int_equal(dm_game_draw_offer(g), DM_WHITE);
    play(g, "19-23"); /* Black declines by moving */
    assert_int_equal(dm_game_draw_offer(g), -1);
    assert_false(dm_game_offer_draw(g, DM_WHITE));
    assert_true(dm_game_offer_draw(g, DM_BLACK)); /* crossed offers agree */
    assert_end(g, DM_END_AGREEMENT, DM_RESULT_DRAW, "draw agreed");
    dm_game_free(g);

    g = game_of("english", DM_RULES_DEFAULT, NULL);
    assert_false(dm_game_offer_draw(g, DM_BLACK));
    assert_true(dm_game_accept_draw(g, DM_WHITE));
    assert_end(g, DM_END_AGREEMENT, DM_RESULT_DRAW, "draw agreed");
    dm_game_free(g);

    g = game_of("english", DM_RULES_DEFAULT, NULL);
    dm_game_time_forfeit(g, DM_BLACK);
    assert_end(g, DM_END_TIME, DM_RESULT_WHITE_WINS, "Black lost on time");
    dm_game_resign(g, DM_WHITE); /* too late */
    assert_end(g, DM_END_TIME, DM_RESULT_WHITE_WINS, "Black lost on time");
    dm_game_free(g);
}

/* ---- moves in and out ---------------------------------------------------------- */

static void test_history_and_text(void **state)
{
    (void)state;
    dm_error err;
    dm_game *g = game_of("international", DM_RULES_DEFAULT, NULL);
    play_all(g, "32-28 19-23 28x19 14x23");
    char text[64];
    dm_game_move_text(g, 3, text, sizeof text);
    assert_string_equal(text, "28x19");
    dm_game_move_text(g, 9, text, sizeof text);
    assert_string_equal(text, "");
    assert_null(dm_game_move(g, 0));
    assert_null(dm_game_position(g, 5));
    assert_int_equal(dm_game_move(g, 4)->from, 13);

    /* Not a legal move: nothing changes. */
    assert_int_equal(dm_game_play_text(g, "50-45", &err), -1);
    assert_int_equal(dm_game_ply(g), 4);
    dm_move bogus = *dm_game_move(g, 1);
    assert_int_equal(dm_game_play(g, &bogus, &err), -1);
    assert_int_equal(dm_game_ply(g), 4);
    dm_game_free(g);

    assert_null(dm_game_new(tu_variant("english"), DM_RULES_DEFAULT, "W:W99", &err));
    assert_true(strlen(err.msg) > 0);
}

static void test_compulsory_capture_message(void **state)
{
    (void)state;
    dm_error err;
    dm_game *g = game_of("international", DM_RULES_DEFAULT, "W:W48,49:B24,K31,34,K42,43");
    assert_int_equal(dm_game_play_text(g, "49-44", &err), -1);
    assert_string_equal(err.msg, "move '49-44' is illegal: a capture is compulsory: 48x19 takes "
                                 "the most pieces (3)");
    /* Bad squares keep the parser's own message. */
    assert_int_equal(dm_game_play_text(g, "49-77", &err), -1);
    assert_non_null(strstr(err.msg, "does not exist"));
    dm_game_free(g);

    /* Free choice: the captures are listed. */
    g = game_of("english", DM_RULES_DEFAULT, "B:W18,19:B14,15,1");
    assert_int_equal(dm_game_play_text(g, "1-6", &err), -1);
    assert_non_null(strstr(err.msg, "a capture is compulsory: "));
    assert_null(strstr(err.msg, "most"));
    dm_game_free(g);

    /* Frisian: by value (the Frisian example F1, pydraughts-checked: the king
     * must be the captor). */
    g = game_of("frisian", DM_RULES_DEFAULT, "W:W28,K45:B23");
    assert_int_equal(dm_game_play_text(g, "28-22", &err), -1);
    assert_non_null(strstr(err.msg, "a capture is compulsory: 45x"));
    assert_non_null(strstr(err.msg, "take the most value (1 man, 0 kings)"));
    dm_game_free(g);

    /* Czech: the king must capture. */
    g = game_of("czech", DM_RULES_DEFAULT, "W:WKa1,g3:Bc3,f4");
    assert_int_equal(dm_game_play_text(g, "g3xe5", &err), -1);
    assert_non_null(strstr(err.msg, "a king that can capture must"));
    dm_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_move),
        cmocka_unit_test(test_giveaway),
        cmocka_unit_test(test_breakthrough),
        cmocka_unit_test(test_threefold),
        cmocka_unit_test(test_italian_fourfold),
        cmocka_unit_test(test_frisian_no_repetition),
        cmocka_unit_test(test_turkish_repetition),
        cmocka_unit_test(test_antidraughts),
        cmocka_unit_test(test_english_default),
        cmocka_unit_test(test_english_official),
        cmocka_unit_test(test_italian_king_moves),
        cmocka_unit_test(test_russian_default),
        cmocka_unit_test(test_fmjd64_724),
        cmocka_unit_test(test_fmjd64_725),
        cmocka_unit_test(test_fmjd64_726),
        cmocka_unit_test(test_fmjd64_727),
        cmocka_unit_test(test_fmjd64_728),
        cmocka_unit_test(test_poddavki),
        cmocka_unit_test(test_pool),
        cmocka_unit_test(test_spanish),
        cmocka_unit_test(test_portuguese),
        cmocka_unit_test(test_czech_default_draw),
        cmocka_unit_test(test_thai),
        cmocka_unit_test(test_international),
        cmocka_unit_test(test_frisian),
        cmocka_unit_test(test_turkish),
        cmocka_unit_test(test_dameo),
        cmocka_unit_test(test_gothic),
        cmocka_unit_test(test_no_draw_variants),
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_undo_counters),
        cmocka_unit_test(test_acts),
        cmocka_unit_test(test_history_and_text),
        cmocka_unit_test(test_compulsory_capture_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
