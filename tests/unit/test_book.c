/* SPDX-License-Identifier: MIT */
/*
 * test_book.c - opening books (src/play/book.c, book_build.c): what a
 * build keeps, the file read back, every malformed file refused with its
 * reason, the choice within a margin, and the computer playing from a
 * book at the levels that do.
 */
#include "testutil.h"

#include "play/play.h"

/* ---- a book written by hand ----------------------------------------------------- */

struct hand_move {
    const char *text; /* in the variant's notation, from pos */
    int score;
};

static void put16(unsigned char *p, unsigned x)
{
    p[0] = (unsigned char)x;
    p[1] = (unsigned char)(x >> 8);
}

/* The bytes of a book of v holding pos with moves (best first), header
 * lines as given; its size in *size. */
static char *hand_book(const dm_variant *v, const dm_position *pos, const struct hand_move *moves,
                       int n, const char *header, size_t *size)
{
    char *out = malloc(4096);
    assert_non_null(out);
    int h = snprintf(out, 4096, "%s", header);
    unsigned char *p = (unsigned char *)out + h;
    dm_move_list legal;
    dm_generate(v, pos, &legal, 0);
    uint64_t key = play_book_key(v, pos);
    for (int i = 0; i < n; i++, p += BOOK_RECORD) {
        dm_error err;
        int at = dm_move_parse(v, &legal, moves[i].text, &err);
        assert_true(at >= 0);
        const dm_move *m = &legal.moves[at];
        for (int b = 0; b < 8; b++)
            p[b] = (unsigned char)(key >> (8 * b));
        p[8] = m->from;
        p[9] = m->to;
        put16(p + 10, play_book_fold(m->captured_set));
        put16(p + 12, (unsigned)(uint16_t)(int16_t)moves[i].score);
        put16(p + 14, 0);
    }
    *size = (size_t)((char *)p - out);
    return out;
}

static const struct hand_move opening[] = {{"11-15", 12}, {"9-14", 5}, {"10-15", -20}};
#define HEADER_OK "DMBOOK 1\nvariant english\npositions 1\nmoves 3\nmade by hand\n\n"

static dm_book *english_hand_book(void)
{
    const dm_variant *v = dm_variant_by_id("english");
    dm_position start;
    dm_position_start(v, &start);
    size_t size;
    char *bytes = hand_book(v, &start, opening, 3, HEADER_OK, &size);
    dm_error err;
    dm_book *b = dm_book_read(v, bytes, size, &err);
    free(bytes);
    if (!b)
        fail_msg("%s", err.msg);
    return b;
}

static void format(const dm_variant *v, const dm_position *pos, const dm_move *m, char *buf)
{
    dm_move_list legal;
    dm_generate(v, pos, &legal, 0);
    dm_move_format(v, m, &legal, buf, DM_PDN_MOVE_TEXT);
}

static void test_read_hand_book(void **state)
{
    (void)state;
    const dm_variant *v = dm_variant_by_id("english");
    dm_book *b = english_hand_book();
    int positions;
    assert_int_equal(dm_book_size(b, &positions), 3);
    assert_int_equal(positions, 1);
    assert_string_equal(dm_book_made(b), "by hand");
    dm_position pos;
    dm_position_start(v, &pos);
    dm_book_move found[8];
    assert_int_equal(dm_book_moves(b, &pos, found, 8), 3);
    char text[DM_PDN_MOVE_TEXT];
    for (int i = 0; i < 3; i++) {
        format(v, &pos, &found[i].move, text);
        assert_string_equal(text, opening[i].text);
        assert_int_equal(found[i].score, opening[i].score);
    }
    assert_int_equal(dm_book_moves(b, &pos, found, 2), 2); /* at most max */
    /* After a move, the position is not in this book. */
    dm_make_move(v, &pos, &found[0].move);
    assert_int_equal(dm_book_moves(b, &pos, found, 8), 0);
    dm_move mv;
    assert_false(dm_book_choose(b, &pos, 10, 1, &mv));
    /* NULL is a book without positions. */
    assert_int_equal(dm_book_moves(NULL, &pos, found, 8), 0);
    dm_book_free(b);
}

/* dm_book_choose picks within the margin only, and every one of those
 * for some seed. */
static void test_choose_within_margin(void **state)
{
    (void)state;
    const dm_variant *v = dm_variant_by_id("english");
    dm_book *b = english_hand_book();
    dm_position start;
    dm_position_start(v, &start);
    int chosen[3] = {0};
    for (uint64_t seed = 0; seed < 200; seed++) {
        dm_move mv;
        assert_true(dm_book_choose(b, &start, 10, seed, &mv));
        char text[DM_PDN_MOVE_TEXT];
        format(v, &start, &mv, text);
        int i = 0;
        while (i < 3 && strcmp(text, opening[i].text) != 0)
            i++;
        assert_true(i < 3);
        chosen[i]++;
        dm_move again;
        dm_book_choose(b, &start, 10, seed, &again); /* the same seed, the same move */
        assert_memory_equal(&mv, &again, sizeof mv);
    }
    assert_true(chosen[0] > 0 && chosen[1] > 0); /* 12 and 5: within 10 */
    assert_int_equal(chosen[2], 0);               /* -20: not */
    for (uint64_t seed = 0; seed < 50; seed++) { /* margin 0: the best */
        dm_move mv;
        dm_book_choose(b, &start, 0, seed, &mv);
        char text[DM_PDN_MOVE_TEXT];
        format(v, &start, &mv, text);
        assert_string_equal(text, "11-15");
    }
    dm_book_free(b);
}

/* ---- malformed files ------------------------------------------------------------ */

static void expect_refused(const char *variant, const char *bytes, size_t size, const char *why)
{
    dm_error err = {{0}};
    dm_book *b = dm_book_read(dm_variant_by_id(variant), bytes, size, &err);
    if (b)
        fail_msg("a book read that should not: %s", why);
    assert_string_equal(err.msg, why);
}

static void test_malformed(void **state)
{
    (void)state;
    const dm_variant *v = dm_variant_by_id("english");
    dm_position start;
    dm_position_start(v, &start);
    size_t size;
    char *good = hand_book(v, &start, opening, 3, HEADER_OK, &size);
    size_t header = strlen(HEADER_OK);

    expect_refused("english", "", 0, "not a book of Damier: it does not start with 'DMBOOK 1'");
    expect_refused("english", "DMBOOK 2\n\n", 10,
                   "not a book of Damier: it does not start with 'DMBOOK 1'");
    expect_refused("english", "DMBOOK 1\nvariant english\n", 25,
                   "not a book of Damier: its header does not end with an empty line");
    expect_refused("russian", good, size,
                   "not a book of Damier: it is a book of english, not of russian");
    expect_refused("english", "DMBOOK 1\ncolour \x1b[31m\n\n", 23,
                   "not a book of Damier: unknown header line 'colour \\e[31m'");
    expect_refused("english", "DMBOOK 1\nvariant english\nmoves 0\n\n", 34,
                   "not a book of Damier: its header lacks the variant, positions or moves");
    /* Truncated: a record cut, or a whole one missing. */
    expect_refused("english", good, size - 5,
                   "not a book of Damier: it says 3 moves but holds 43 bytes of them");
    expect_refused("english", good, size - 16,
                   "not a book of Damier: it says 3 moves but holds 32 bytes of them");

    char *bad = malloc(size);
    assert_non_null(bad);
    /* A cell off the board. */
    memcpy(bad, good, size);
    bad[header + 16 + 9] = 40;
    expect_refused("english", bad, size,
                   "not a book of Damier: move 2 goes from cell 8 to 40 of a 32-cell board");
    /* Scores out of order within the position. */
    static const struct hand_move unsorted[] = {{"11-15", 5}, {"9-14", 12}};
    free(bad);
    size_t n;
    bad = hand_book(v, &start, unsorted, 2,
                    "DMBOOK 1\nvariant english\npositions 1\nmoves 2\n\n", &n);
    expect_refused("english", bad, n, "not a book of Damier: move 2 is out of order");
    free(bad);
    /* The positions it claims. */
    bad = hand_book(v, &start, opening, 3, "DMBOOK 1\nvariant english\npositions 2\nmoves 3\n\n",
                    &n);
    expect_refused("english", bad, n, "not a book of Damier: it says 2 positions but holds 1");
    free(bad);
    free(good);

    dm_error err;
    assert_null(dm_book_load(v, "/nonexistent/x.dmb", &err));
    assert_string_equal(err.msg, "cannot open /nonexistent/x.dmb: No such file or directory");
}

/* ---- a build -------------------------------------------------------------------- */

/* Walks the book from pos down to plies: every position reached by a
 * kept move before the last ply is in the book, its moves best first and
 * within the margin of the best. */
static int walk(const dm_book *b, const dm_variant *v, const dm_position *pos, int plies,
                int margin)
{
    dm_book_move found[DM_MAX_MULTIPV];
    int n = dm_book_moves(b, pos, found, DM_MAX_MULTIPV);
    dm_move_list legal;
    if (dm_generate(v, pos, &legal, 0) > 0)
        assert_true(n > 0);
    int reached = 1;
    for (int i = 0; i < n; i++) {
        assert_true(found[i].score <= found[0].score);
        assert_true(found[i].score >= found[0].score - margin);
        if (plies > 1) {
            dm_position next = *pos;
            dm_make_move(v, &next, &found[i].move);
            reached += walk(b, v, &next, plies - 1, margin);
        }
    }
    return reached;
}

static void test_build(void **state)
{
    (void)state;
    const dm_variant *v = dm_variant_by_id("russian");
    dm_book_build_options o = {.nodes = 3000, .plies = 3, .margin = 20, .lines = 4,
                               .made = "test"};
    char *data, *again;
    size_t size, size2;
    dm_error err;
    assert_int_equal(dm_book_build(v, &o, &data, &size, &err), 0);
    assert_int_equal(dm_book_build(v, &o, &again, &size2, &err), 0);
    assert_int_equal(size, size2); /* node budgets: the same book every time */
    assert_memory_equal(data, again, size);
    free(again);
    dm_book *b = dm_book_read(v, data, size, &err);
    if (!b)
        fail_msg("%s", err.msg);
    assert_string_equal(dm_book_made(b), "test");
    int positions;
    int moves = dm_book_size(b, &positions);
    assert_true(positions > 1 && moves >= positions);
    dm_position start;
    dm_position_start(v, &start);
    int reached = walk(b, v, &start, 3, 20);
    assert_true(reached >= positions); /* transpositions are reached twice */
    dm_book_free(b);

    /* A position limit cuts the deepest positions first: one position is
     * the start alone. */
    o.max_positions = 1;
    assert_int_equal(dm_book_build(v, &o, &again, &size2, &err), 0);
    b = dm_book_read(v, again, size2, &err);
    assert_non_null(b);
    assert_int_equal(dm_book_size(b, &positions) > 0, 1);
    assert_int_equal(positions, 1);
    dm_book_free(b);
    free(again);
    free(data);
}

/* ---- the computer plays from it ------------------------------------------------- */

static void test_computer_plays_book(void **state)
{
    (void)state;
    dm_book *b = english_hand_book();
    const dm_variant *v = dm_variant_by_id("english");
    for (int level = 1; level <= DM_LEVEL_MAX; level++) {
        for (int no_book = 0; no_book <= 1; no_book++) {
            dm_match_options o = {.variant = v, .seed = 7, .book = b, .no_book = no_book};
            o.seat[0] = (dm_seat){.kind = DM_SEAT_COMPUTER, .level = level};
            o.seat[1] = (dm_seat){.kind = DM_SEAT_PERSON};
            dm_error err;
            dm_match *m = dm_match_new(&o, &err);
            assert_non_null(m);
            dm_snapshot s;
            assert_int_equal(dm_match_snapshot(m, level, &s, &err), 0);
            bool from_book = level >= 5 && !no_book;
            assert_true((s.book != NULL) == from_book);
            if (from_book) {
                assert_true(s.seed != 0); /* a choice to vary at every level */
                dm_move mv;
                assert_int_equal(dm_snapshot_move(NULL, &s, &mv, &err), 0); /* no search */
                char text[DM_PDN_MOVE_TEXT];
                format(v, &s.positions[0], &mv, text);
                assert_true(strcmp(text, "11-15") == 0 || strcmp(text, "9-14") == 0);
            }
            dm_snapshot_free(&s);
            /* A hint never comes from the book. */
            assert_int_equal(dm_match_snapshot(m, DM_LEVEL_HINT, &s, &err), 0);
            assert_null(s.book);
            dm_snapshot_free(&s);
            dm_match_free(m);
        }
    }
    dm_book_free(b);
}

/* Every variant has its book built in, made by damier book build from
 * Damier's own analysis with the margin of 15 the books are built with:
 * the start and every position a book move leads to are in it. */
static void test_builtin_books(void **state)
{
    (void)state;
    for (int i = 0; i < dm_variant_count(); i++) {
        const dm_variant *v = dm_variant_at(i);
        const dm_book *b = dm_book_builtin(v);
        if (!b)
            fail_msg("no built-in book of %s (data/books/%s.dmb)", dm_variant_id(v),
                     dm_variant_id(v));
        char command[80];
        snprintf(command, sizeof command, "damier book build --variant %s ", dm_variant_id(v));
        if (!strstr(dm_book_made(b), command) || !strstr(dm_book_made(b), "--margin 15 "))
            fail_msg("the book of %s says it was made by '%s'", dm_variant_id(v), dm_book_made(b));
        dm_position start;
        dm_position_start(v, &start);
        assert_true(walk(b, v, &start, 2, 15) > 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_hand_book),
        cmocka_unit_test(test_choose_within_margin),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_build),
        cmocka_unit_test(test_computer_plays_book),
        cmocka_unit_test(test_builtin_books),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
