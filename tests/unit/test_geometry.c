/* SPDX-License-Identifier: MIT */
/*
 * test_geometry.c - the board geometry of the public API (damier/rules.h):
 * for every variant its board's kind, files, ranks and cells; cells named
 * by hand on each of the six boards with their file, rank, drawing position
 * and name; the inverse map (-1 on light squares and off the board); the
 * shading; the 56 lines of the alquerque grid; and round trips cell ->
 * (file, rank) -> cell and cell -> name -> cell for every cell of every
 * variant.
 */
#include "testutil.h"

#include <limits.h>

/* The board each variant is played on. */
struct board {
    const char *ids; /* the variants on it, blank-separated */
    enum dm_board_kind kind;
    int files, ranks, cells;
    bool a1_plays; /* false: the mirrored 8x8 */
};

static const struct board boards[] = {
    {"english anti-checkers russian poddavki brazilian pool czech corner one-way parachute thai",
     DM_BOARD_DARK_SQUARES, 8, 8, 32, true},
    {"italian spanish portuguese", DM_BOARD_DARK_SQUARES, 8, 8, 32, false},
    {"international killer antidraughts breakthrough frisian frysk", DM_BOARD_DARK_SQUARES, 10, 10,
     50, true},
    {"canadian", DM_BOARD_DARK_SQUARES, 12, 12, 72, true},
    {"turkish dameo gothic hawaiian", DM_BOARD_ALL_SQUARES, 8, 8, 64, true},
    {"alquerque", DM_BOARD_POINTS, 5, 5, 25, true},
};

enum { NBOARDS = sizeof boards / sizeof boards[0] };

static const struct board *board_of(const char *id)
{
    size_t n = strlen(id);
    for (int b = 0; b < NBOARDS; b++)
        for (const char *p = strstr(boards[b].ids, id); p; p = strstr(p + 1, id))
            if ((p == boards[b].ids || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
                return &boards[b];
    return NULL;
}

static void test_every_variant_has_its_board(void **state)
{
    (void)state;
    int listed = 0;
    for (int b = 0; b < NBOARDS; b++)
        for (const char *p = boards[b].ids; *p; p++)
            listed += (p == boards[b].ids || p[-1] == ' ');
    assert_int_equal(dm_variant_count(), listed);
    for (int i = 0; i < dm_variant_count(); i++) {
        const dm_variant *v = dm_variant_at(i);
        const struct board *b = board_of(dm_variant_id(v));
        if (!b)
            fail_msg("variant '%s' is in no board of this test", dm_variant_id(v));
        assert_int_equal(dm_board_kind(v), b->kind);
        assert_int_equal(dm_variant_board_files(v), b->files);
        assert_int_equal(dm_variant_board_ranks(v), b->ranks);
        assert_int_equal(dm_variant_cells(v), b->cells);
        assert_int_equal(dm_square_cell(v, 0, 0) >= 0, b->a1_plays);
    }
}

/* Cell cell of variant id is on (file, rank) and named name; its drawing
 * position follows, with White at the bottom. */
static void expect_cell(const char *id, int cell, int file, int rank, const char *name)
{
    const dm_variant *v = tu_variant(id);
    char got[8];
    dm_cell_name(v, cell, got, sizeof got);
    assert_string_equal(got, name);
    assert_int_equal(dm_cell_file(v, cell), file);
    assert_int_equal(dm_cell_rank(v, cell), rank);
    assert_int_equal(dm_square_cell(v, file, rank), cell);
    assert_int_equal(dm_cell_column(v, cell), file);
    assert_int_equal(dm_cell_row(v, cell), dm_variant_board_ranks(v) - 1 - rank);
}

static void test_cells_by_hand(void **state)
{
    (void)state;
    /* 10x10, a1 dark, numbered from the top left: square 1 is b10, 5 is
     * j10, 6 is a9 (the next rank starts on file a), 46 a1, 50 i1. */
    expect_cell("international", 0, 1, 9, "1");
    expect_cell("international", 4, 9, 9, "5");
    expect_cell("international", 5, 0, 8, "6");
    expect_cell("international", 45, 0, 0, "46");
    expect_cell("international", 49, 8, 0, "50");
    /* English, the same layout on 8x8: 1 = b8, 4 = h8, 5 = a7, 29 = a1,
     * 32 = g1. */
    expect_cell("english", 0, 1, 7, "1");
    expect_cell("english", 3, 7, 7, "4");
    expect_cell("english", 4, 0, 6, "5");
    expect_cell("english", 28, 0, 0, "29");
    expect_cell("english", 31, 6, 0, "32");
    /* Russian: the same squares, named algebraically; c3 is the second
     * cell of the sixth row from the top (5 rows of 4 before it). */
    expect_cell("russian", 0, 1, 7, "b8");
    expect_cell("russian", 21, 2, 2, "c3");
    expect_cell("russian", 28, 0, 0, "a1");
    /* Italian, mirrored (h1 dark), numbered from the top left: 1 = a8,
     * 4 = g8, 29 = b1, 32 = h1. */
    expect_cell("italian", 0, 0, 7, "1");
    expect_cell("italian", 3, 6, 7, "4");
    expect_cell("italian", 28, 1, 0, "29");
    expect_cell("italian", 31, 7, 0, "32");
    /* Spanish, mirrored, numbered from the bottom right leftwards: 1 = h1,
     * 4 = b1, 5 = g2, 32 = a8. */
    expect_cell("spanish", 31, 7, 0, "1");
    expect_cell("spanish", 28, 1, 0, "4");
    expect_cell("spanish", 27, 6, 1, "5");
    expect_cell("spanish", 0, 0, 7, "32");
    /* 12x12: 1 = b12, 67 = a1, 72 = k1. */
    expect_cell("canadian", 0, 1, 11, "1");
    expect_cell("canadian", 66, 0, 0, "67");
    expect_cell("canadian", 71, 10, 0, "72");
    /* The full board: every square, a8 first, h1 last. */
    expect_cell("turkish", 0, 0, 7, "a8");
    expect_cell("turkish", 1, 1, 7, "b8");
    expect_cell("turkish", 56, 0, 0, "a1");
    expect_cell("turkish", 63, 7, 0, "h1");
    /* The point grid: a5 first, c3 in the middle, e1 last. */
    expect_cell("alquerque", 0, 0, 4, "a5");
    expect_cell("alquerque", 12, 2, 2, "c3");
    expect_cell("alquerque", 24, 4, 0, "e1");
}

static void test_bad_squares_and_cells(void **state)
{
    (void)state;
    const dm_variant *intl = tu_variant("international");
    const dm_variant *italian = tu_variant("italian");
    /* Light squares are no cells. */
    assert_int_equal(dm_square_cell(intl, 1, 0), -1);    /* b1 */
    assert_int_equal(dm_square_cell(intl, 0, 9), -1);    /* a10 */
    assert_int_equal(dm_square_cell(italian, 0, 0), -1); /* a1 */
    assert_int_equal(dm_square_cell(italian, 7, 7), -1); /* h8 */
    assert_int_equal(dm_square_cell(tu_variant("english"), 1, 0), -1);
    for (int i = 0; i < dm_variant_count(); i++) {
        const dm_variant *v = dm_variant_at(i);
        int files = dm_variant_board_files(v), ranks = dm_variant_board_ranks(v);
        int n = dm_variant_cells(v);
        /* Off the board. */
        const int off[][2] = {{-1, 0}, {0, -1}, {files, 0}, {0, ranks}, {INT_MIN, INT_MAX}};
        for (size_t k = 0; k < sizeof off / sizeof off[0]; k++) {
            assert_int_equal(dm_square_cell(v, off[k][0], off[k][1]), -1);
            assert_false(dm_square_dark(v, off[k][0], off[k][1]));
        }
        /* No such cell. */
        const int bad[] = {-1, n, 255, INT_MIN, INT_MAX};
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            assert_int_equal(dm_cell_file(v, bad[k]), -1);
            assert_int_equal(dm_cell_rank(v, bad[k]), -1);
            assert_int_equal(dm_cell_column(v, bad[k]), -1);
            assert_int_equal(dm_cell_row(v, bad[k]), -1);
        }
    }
}

/* Every cell of every variant: its square maps back to it, its name parses
 * back to it, no two cells share a square, and the squares that are no
 * cell are exactly the rest of the board. */
static void test_round_trips(void **state)
{
    (void)state;
    for (int i = 0; i < dm_variant_count(); i++) {
        const dm_variant *v = dm_variant_at(i);
        int files = dm_variant_board_files(v), ranks = dm_variant_board_ranks(v);
        int n = dm_variant_cells(v);
        for (int c = 0; c < n; c++) {
            int file = dm_cell_file(v, c), rank = dm_cell_rank(v, c);
            assert_in_range(file, 0, files - 1);
            assert_in_range(rank, 0, ranks - 1);
            if (dm_square_cell(v, file, rank) != c)
                fail_msg("%s: cell %d -> (%d, %d) -> cell %d", dm_variant_id(v), c, file, rank,
                         dm_square_cell(v, file, rank));
            assert_int_equal(dm_cell_column(v, c), file);
            assert_int_equal(dm_cell_row(v, c), ranks - 1 - rank);
            char name[8];
            dm_cell_name(v, c, name, sizeof name);
            assert_int_equal(dm_cell_parse(v, name, strlen(name)), c);
        }
        int found = 0;
        for (int rank = 0; rank < ranks; rank++)
            for (int file = 0; file < files; file++) {
                int c = dm_square_cell(v, file, rank);
                if (c < 0)
                    continue;
                assert_in_range(c, 0, n - 1);
                assert_int_equal(dm_cell_file(v, c), file);
                assert_int_equal(dm_cell_rank(v, c), rank);
                found++;
            }
        assert_int_equal(found, n);
    }
}

static void test_shading(void **state)
{
    (void)state;
    const dm_variant *intl = tu_variant("international"), *italian = tu_variant("italian");
    const dm_variant *turkish = tu_variant("turkish"), *alquerque = tu_variant("alquerque");
    /* Dark-square boards: dark exactly where a cell is. */
    for (int i = 0; i < dm_variant_count(); i++) {
        const dm_variant *v = dm_variant_at(i);
        if (dm_board_kind(v) != DM_BOARD_DARK_SQUARES)
            continue;
        for (int rank = 0; rank < dm_variant_board_ranks(v); rank++)
            for (int file = 0; file < dm_variant_board_files(v); file++)
                assert_int_equal(dm_square_dark(v, file, rank), dm_square_cell(v, file, rank) >= 0);
    }
    assert_true(dm_square_dark(intl, 0, 0));     /* a1 */
    assert_false(dm_square_dark(intl, 1, 0));    /* b1 */
    assert_false(dm_square_dark(italian, 0, 0)); /* a1 */
    assert_true(dm_square_dark(italian, 7, 0));  /* h1 */
    /* The full board is checkered like a chessboard, though every square plays. */
    assert_true(dm_square_dark(turkish, 0, 0));  /* a1 */
    assert_false(dm_square_dark(turkish, 1, 0)); /* b1 */
    assert_false(dm_square_dark(turkish, 7, 0)); /* h1 */
    assert_true(dm_square_dark(turkish, 7, 7));  /* h8 */
    /* The grid: the points the diagonals pass through. */
    assert_true(dm_square_dark(alquerque, 2, 2));  /* c3 */
    assert_false(dm_square_dark(alquerque, 1, 2)); /* b3 */
}

/* The alquerque grid: 5 rows and 5 columns of 4 orthogonal segments (40),
 * and in each of the four 2x2 quarters both diagonals, each 2 segments
 * long (16): 56 lines. */
static void test_alquerque_lines(void **state)
{
    (void)state;
    const dm_variant *v = tu_variant("alquerque");
    dm_board_line lines[DM_MAX_BOARD_LINES];
    int n = dm_board_lines(v, lines, DM_MAX_BOARD_LINES);
    assert_int_equal(n, 56);
    int orth = 0, diag = 0, degree[25] = {0};
    for (int i = 0; i < n; i++) {
        int a = lines[i].from, b = lines[i].to;
        assert_true(a < b);
        assert_in_range(b, 0, 24);
        if (i > 0)
            assert_true(lines[i - 1].from < a || (lines[i - 1].from == a && lines[i - 1].to < b));
        int df = abs(dm_cell_file(v, a) - dm_cell_file(v, b));
        int dr = abs(dm_cell_rank(v, a) - dm_cell_rank(v, b));
        assert_true(df <= 1 && dr <= 1 && df + dr >= 1);
        if (df + dr == 2) {
            diag++;
            assert_int_equal((dm_cell_file(v, a) + dm_cell_rank(v, a)) % 2, 0);
        } else {
            orth++;
        }
        degree[a]++;
        degree[b]++;
    }
    assert_int_equal(orth, 40);
    assert_int_equal(diag, 16);
    assert_int_equal(degree[dm_square_cell(v, 2, 2)], 8); /* c3: every way */
    assert_int_equal(degree[dm_square_cell(v, 1, 2)], 4); /* b3: no diagonal */
    assert_int_equal(degree[dm_square_cell(v, 0, 0)], 3); /* a1: a corner, diagonal too */
    assert_int_equal(degree[dm_square_cell(v, 1, 0)], 3); /* b1: the edge, no diagonal */
    assert_int_equal(degree[dm_square_cell(v, 0, 4)], 3); /* a5 */
    /* The first lines, from a5: to b5 (east), a4 (south), b4 (south-east). */
    assert_int_equal(lines[0].from, 0);
    assert_int_equal(lines[0].to, 1);
    assert_int_equal(lines[1].to, 5);
    assert_int_equal(lines[2].to, 6);

    /* Fewer asked for: only those written, the total still returned. */
    dm_board_line some[11];
    memset(some, 0xEE, sizeof some);
    assert_int_equal(dm_board_lines(v, some, 10), 56);
    assert_memory_equal(some, lines, 10 * sizeof *some);
    assert_int_equal(some[10].from, 0xEE);
    assert_int_equal(dm_board_lines(v, NULL, 0), 56);
    assert_int_equal(dm_board_lines(v, NULL, -5), 56);
}

static void test_square_boards_have_no_lines(void **state)
{
    (void)state;
    for (int i = 0; i < dm_variant_count(); i++) {
        const dm_variant *v = dm_variant_at(i);
        int want = dm_board_kind(v) == DM_BOARD_POINTS ? 56 : 0;
        assert_int_equal(dm_board_lines(v, NULL, 0), want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_variant_has_its_board),
        cmocka_unit_test(test_cells_by_hand),
        cmocka_unit_test(test_bad_squares_and_cells),
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_shading),
        cmocka_unit_test(test_alquerque_lines),
        cmocka_unit_test(test_square_boards_have_no_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
