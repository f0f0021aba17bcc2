/* SPDX-License-Identifier: MIT */
/*
 * test_notation.c - square names, FEN and move text (PDN 3.0; the numberings of
 * FMJD rules 8.1, FID and FPD, docs/variants.md).
 *
 * The expected names come from those numbering schemes, the FENs
 * from the start positions the rules give, and each malformed input names
 * the token its error message must quote, so that a user can find the
 * mistake.  Move text is checked on positions whose legal moves are worked
 * out in the comments.
 */
#include "testutil.h"

/* ---- square names --------------------------------------------------------- */

/* The squares each numbering scheme names (FMJD and WCDF from the top
 * left, FID from a8, FPD from h1). */
static void test_square_numbers(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *number, *square;
    } names[] = {
        /* N-top on D8 */
        {"english", "1", "b8"},       {"english", "4", "h8"},
        {"english", "5", "a7"},       {"english", "29", "a1"},
        {"english", "32", "g1"},      {"pool", "1", "b8"},
        /* N-top on D10 and D12 */
        {"international", "1", "b10"}, {"international", "5", "j10"},
        {"international", "6", "a9"},  {"international", "46", "a1"},
        {"international", "50", "i1"}, {"canadian", "1", "b12"},
        {"canadian", "6", "l12"},      {"canadian", "67", "a1"},
        {"canadian", "72", "k1"},
        /* N-ital on M8 */
        {"italian", "1", "a8"},       {"italian", "2", "c8"},
        {"italian", "4", "g8"},       {"italian", "5", "b7"},
        {"italian", "29", "b1"},      {"italian", "32", "h1"},
        /* N-iber on M8: from White's right, right to left, upwards */
        {"spanish", "1", "h1"},       {"spanish", "2", "f1"},
        {"spanish", "4", "b1"},       {"spanish", "5", "g2"},
        {"spanish", "6", "e2"},       {"spanish", "29", "g8"},
        {"spanish", "32", "a8"},      {"portuguese", "1", "h1"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const dm_variant *v = tu_variant(names[i].variant);
        int by_number = dm_cell_parse(v, names[i].number, strlen(names[i].number));
        int by_square = dm_cell_parse(v, names[i].square, strlen(names[i].square));
        char name[16];
        if (by_number < 0 || by_number != by_square)
            fail_msg("%s: square %s should be %s", names[i].variant, names[i].number,
                     names[i].square);
        dm_cell_name(v, by_number, name, sizeof name);
        assert_string_equal(name, names[i].number);
    }

    /* Algebraic variants name squares by file and rank. */
    const dm_variant *russian = tu_variant("russian");
    char name[16];
    dm_cell_name(russian, dm_cell_parse(russian, "c3", 2), name, sizeof name);
    assert_string_equal(name, "c3");
    /* Light squares and squares off the board do not exist. */
    assert_int_equal(dm_cell_parse(russian, "b1", 2), -1);
    assert_int_equal(dm_cell_parse(russian, "i1", 2), -1);
    assert_int_equal(dm_cell_parse(russian, "a9", 2), -1);
    assert_int_equal(dm_cell_parse(russian, "33", 2), -1);
    assert_int_equal(dm_cell_parse(russian, "0", 1), -1);
    assert_int_equal(dm_cell_parse(tu_variant("international"), "51", 2), -1);
}

/* ---- FEN ------------------------------------------------------------------ */

/* Parses fen, formats it, parses that again: the same position. */
static void round_trip(const dm_variant *v, const char *fen, char *out, size_t size)
{
    dm_position a, b;
    dm_error err;
    tu_position(v, fen, &a);
    int len = dm_fen_format(v, &a, out, size);
    assert_int_equal(len, (int)strlen(out));
    if (dm_fen_parse(v, out, &b, &err) != 0)
        fail_msg("%s: '%s' formatted as '%s', which is rejected: %s", dm_variant_id(v), fen,
                 out, err.msg);
    if (!dm_position_equal(&a, &b))
        fail_msg("%s: '%s' formatted as '%s' reads back differently", dm_variant_id(v), fen,
                 out);
}

/* Every start position survives format and parse; the numbered ones come
 * out as the ranges the rulebooks write them with (W:W31-50:B1-20). */
static void test_start_positions(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *fen;
    } starts[] = {
        {"english", "B:W21-32:B1-12"},        {"anti-checkers", "B:W21-32:B1-12"},
        {"italian", "W:W21-32:B1-12"},        {"pool", "B:W21-32:B1-12"},
        {"spanish", "W:W1-12:B21-32"},        {"portuguese", "W:W1-12:B21-32"},
        {"international", "W:W31-50:B1-20"},  {"killer", "W:W31-50:B1-20"},
        {"antidraughts", "W:W31-50:B1-20"},   {"breakthrough", "W:W31-50:B1-20"},
        {"frisian", "W:W31-50:B1-20"},        {"frysk", "W:W46-50:B1-5"},
        {"canadian", "W:W43-72:B1-30"},
        {"russian", "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,"
                    "f8,h8"},
    };
    char out[512];
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++) {
        const dm_variant *v = tu_variant(starts[i].variant);
        dm_position start;
        dm_position_start(v, &start);
        dm_fen_format(v, &start, out, sizeof out);
        if (strcmp(out, starts[i].fen) != 0)
            fail_msg("%s: start written '%s', expected '%s'", starts[i].variant, out,
                     starts[i].fen);
    }
    /* Every variant of the table, including those not listed above. */
    for (int i = 0; i < dm_variant_count(); i++) {
        const dm_variant *v = dm_variant_at(i);
        dm_position start, back;
        dm_error err;
        dm_position_start(v, &start);
        dm_fen_format(v, &start, out, sizeof out);
        if (dm_fen_parse(v, out, &back, &err) != 0)
            fail_msg("%s: start position written '%s' is rejected: %s", dm_variant_id(v), out,
                     err.msg);
        if (!dm_position_equal(&start, &back))
            fail_msg("%s: start position '%s' reads back differently", dm_variant_id(v), out);
        /* The variant's own start FEN reads as its start position. */
        if (dm_fen_parse(v, dm_variant_start_fen(v), &back, &err) != 0 ||
            !dm_position_equal(&start, &back))
            fail_msg("%s: start FEN '%s' does not read as the start position",
                     dm_variant_id(v), dm_variant_start_fen(v));
    }
}

static void test_kings_and_lists(void **state)
{
    (void)state;
    char out[512];
    const dm_variant *intl = tu_variant("international");
    const dm_variant *russian = tu_variant("russian");
    dm_position pos, other;

    /* Kings keep their K; a king breaks a run of men. */
    round_trip(intl, "W:W31,32,33,K34,35:BK1,2,K3", out, sizeof out);
    assert_non_null(strstr(out, "31-33"));
    assert_non_null(strstr(out, "K34"));
    assert_non_null(strstr(out, "K1"));
    assert_non_null(strstr(out, "K3"));
    tu_position(intl, "W:W31,32,33,K34,35:BK1,2,K3", &pos);
    assert_true(pos.side == DM_WHITE);
    assert_int_equal((int)((pos.kings >> 33) & 1), 1); /* square 34 is cell 33 */
    assert_int_equal((int)(pos.kings & 1), 1);          /* square 1 is cell 0 */
    assert_int_equal((int)((pos.kings >> 1) & 1), 0);

    /* Black to move, empty list for one side. */
    round_trip(intl, "B:W:BK25", out, sizeof out);
    assert_true(out[0] == 'B');

    /* Algebraic lists in any order and case read the same. */
    round_trip(russian, "W:Wc3,Ke1:Bd6,Kh8", out, sizeof out);
    tu_position(russian, "W:Wc3,Ke1:Bd6,Kh8", &pos);
    tu_position(russian, "w:wKE1,C3:bKH8,D6", &other);
    assert_true(dm_position_equal(&pos, &other));
    /* The same position with square numbers (accepted for algebraic
     * variants): c3 = 22, e1 = 31, d6 = 10, h8 = 4. */
    tu_position(russian, "W:W22,K31:B10,K4", &other);
    assert_true(dm_position_equal(&pos, &other));

    /* Parachutists keep their P. */
    round_trip(tu_variant("parachute"), "W:Wb2,Pd8:Ba7,Pc1", out, sizeof out);
    assert_non_null(strstr(out, "Pd8"));
    assert_non_null(strstr(out, "Pc1"));

    /* lidraughts' move counters are accepted and ignored. */
    dm_position start;
    dm_position_start(intl, &start);
    tu_position(intl, "W:W31-50:B1-20:H0:F1", &pos);
    assert_true(dm_position_equal(&pos, &start));
    tu_position(intl, "W:W31-50:B1-20:H12:F30", &pos);
    assert_true(dm_position_equal(&pos, &start));
    /* Blanks, quotes and a final full stop are tolerated. */
    tu_position(intl, "  \"W:W31-50:B1-20.\" ", &pos);
    assert_true(dm_position_equal(&pos, &start));
    /* Ranges in Iberian numbers run upwards too. */
    const dm_variant *spanish = tu_variant("spanish");
    dm_position_start(spanish, &start);
    tu_position(spanish, "W:W1-12:B21-32", &pos);
    assert_true(dm_position_equal(&pos, &start));
}

/* On 12x12 boards k is a file: a lowercase "k1" names the square k1 (72),
 * it is not the king prefix before square 1, while "K1" (PDN) is. */
static void test_k_file_is_not_a_king(void **state)
{
    (void)state;
    const dm_variant *canadian = tu_variant("canadian");
    dm_position pos;
    dm_error err;
    tu_position(canadian, "W:WK1:B30", &pos);
    assert_true(pos.kings == 1 && pos.white == 1);
    if (dm_fen_parse(canadian, "W:Wk1:B30", &pos, &err) == 0) {
        int k1 = dm_cell_parse(canadian, "72", 2);
        if (pos.white != ((dm_bits)1 << k1) || pos.kings)
            fail_msg("canadian: 'W:Wk1:B30' does not read as a man on k1 (72)");
    }
}

/* Each malformed FEN is rejected with a message quoting the offending text. */
static void test_malformed_fens(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *fen, *quoted;
    } bad[] = {
        {"international", "", "empty"},
        {"international", "   ", "empty"},
        {"international", "X:W31:B1", "'X'"},          /* side to move */
        {"international", "W;W31:B1", "';'"},          /* missing colon */
        {"international", "W:W31:B1:X5", "X5"},        /* unknown field */
        {"international", "W:W31:B1:Hx", "Hx"},        /* bad move counter */
        {"international", "W:W51:B1", "'51'"},         /* off the board */
        {"international", "W:W0:B1", "'0'"},
        {"russian", "W:Wj1:Bb8", "'j1'"},
        {"russian", "W:Wb1:Bb8", "'b1'"},              /* a light square */
        {"international", "W:W31,31:B1", "'31'"},      /* given twice */
        {"international", "W:W31:B31", "'31'"},
        {"international", "W:W31:B1:W32", "white"},    /* a colour listed twice */
        {"international", "W:W31-50", "black"},        /* a colour missing */
        {"international", "W:W3:B20", "on 3 "},        /* a man on its promotion row */
        {"international", "W:W31:B48", "on 48 "},
        {"russian", "W:Wa1:Bc1", "c1"},
        {"international", "W:WP31:B1", "P31"},         /* no parachutists here */
        {"international", "W:W50-31:B1", "50-31"},     /* bad ranges */
        {"international", "W:W31-99:B1", "31-99"},
        {"russian", "W:Wa1-c3:Bb8", "a1-c3"},
        {"international", "W:W31,3#:B1", "3#"},        /* garbage */
        {"international", "W:W31,,32:B1", "empty square"},
        {"international", "hello", "'h'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const dm_variant *v = tu_variant(bad[i].variant);
        dm_position pos;
        dm_error err;
        memset(&err, 0, sizeof err);
        if (dm_fen_parse(v, bad[i].fen, &pos, &err) == 0)
            fail_msg("%s: malformed FEN '%s' accepted", bad[i].variant, bad[i].fen);
        if (!strstr(err.msg, bad[i].quoted))
            fail_msg("%s: FEN '%s': message '%s' does not quote '%s'", bad[i].variant,
                     bad[i].fen, err.msg, bad[i].quoted);
    }
}

/* A K prefix where the variant has no kings.  Only the section 4 games
 * without promotion have none; until they are in the table there is nothing
 * to test. */
static void test_king_without_kings(void **state)
{
    (void)state;
    const char *ids[] = {"alquerque", "hawaiian"};
    int tested = 0;
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        const dm_variant *v = dm_variant_by_id(ids[i]);
        if (!v)
            continue;
        dm_position pos;
        dm_error err;
        assert_int_equal(dm_fen_parse(v, "W:WKc3:Bb4", &pos, &err), -1);
        if (!strstr(err.msg, "Kc3"))
            fail_msg("%s: message '%s' does not quote 'Kc3'", ids[i], err.msg);
        tested++;
    }
    if (!tested)
        skip();
}

/* 10 KB of text: rejected or read without overrunning anything (the
 * sanitizer build checks the overrun), the message kept to its buffer. */
static void test_long_fens(void **state)
{
    (void)state;
    enum { SIZE = 10 * 1024 };
    const dm_variant *intl = tu_variant("international");
    char *fen = malloc(SIZE + 64);
    assert_non_null(fen);
    dm_position pos, start;
    dm_error err;

    /* One enormous square number. */
    strcpy(fen, "W:W");
    memset(fen + 3, '9', SIZE);
    strcpy(fen + 3 + SIZE, ":B1");
    assert_int_equal(dm_fen_parse(intl, fen, &pos, &err), -1);
    assert_true(strlen(err.msg) < sizeof err.msg);
    assert_non_null(strstr(err.msg, "999"));

    /* The same square over and over. */
    strcpy(fen, "W:W");
    for (size_t len = 3; len + 4 < SIZE;) {
        memcpy(fen + len, "31,", 3);
        len += 3;
        fen[len] = '\0';
    }
    strcat(fen, ":B1");
    assert_int_equal(dm_fen_parse(intl, fen, &pos, &err), -1);
    assert_non_null(strstr(err.msg, "'31'"));

    /* Garbage characters all the way. */
    memset(fen, '#', SIZE);
    fen[SIZE] = '\0';
    assert_int_equal(dm_fen_parse(intl, fen, &pos, &err), -1);

    /* A valid FEN padded with 10 KB of blanks is still valid. */
    strcpy(fen, "W:W31-50:B1-20");
    memset(fen + 14, ' ', SIZE);
    fen[14 + SIZE] = '\0';
    assert_int_equal(dm_fen_parse(intl, fen, &pos, &err), 0);
    dm_position_start(intl, &start);
    assert_true(dm_position_equal(&pos, &start));

    /* A formatted FEN cut to a small buffer stays terminated. */
    char small[8];
    int len = dm_fen_format(intl, &start, small, sizeof small);
    assert_int_equal(len, (int)strlen(small));
    assert_true(len < (int)sizeof small);
    free(fen);
}

/* ---- move text ------------------------------------------------------------ */

static dm_move_list legal_list;

/* Fills legal_list for fen and returns the index of the move written text,
 * failing if it is not there. */
static int move_in(const dm_variant *v, const char *fen, const char *text)
{
    dm_position pos;
    dm_error err;
    tu_position(v, fen, &pos);
    dm_generate(v, &pos, &legal_list, 0);
    int at = dm_move_parse(v, &legal_list, text, &err);
    if (at < 0)
        fail_msg("%s %s: '%s' not read: %s", dm_variant_id(v), fen, text, err.msg);
    return at;
}

/* The error dm_move_parse gives for text in fen (which must be one). */
static const char *parse_error(const dm_variant *v, const char *fen, const char *text)
{
    static dm_error err;
    dm_position pos;
    tu_position(v, fen, &pos);
    dm_generate(v, &pos, &legal_list, 0);
    memset(&err, 0, sizeof err);
    if (dm_move_parse(v, &legal_list, text, &err) >= 0)
        fail_msg("%s %s: '%s' was accepted", dm_variant_id(v), fen, text);
    return err.msg;
}

static void expect_format(const dm_variant *v, const char *fen, const char *text,
                          bool with_list, const char *want)
{
    int at = move_in(v, fen, text);
    char out[128];
    dm_move_format(v, &legal_list.moves[at], with_list ? &legal_list : NULL, out, sizeof out);
    if (strcmp(out, want) != 0)
        fail_msg("%s %s: %s written '%s', expected '%s'", dm_variant_id(v), fen, text, out,
                 want);
}

static void test_move_format(void **state)
{
    (void)state;
    const dm_variant *intl = tu_variant("international");
    const dm_variant *english = tu_variant("english");
    const dm_variant *czech = tu_variant("czech");

    /* Short forms, each variant's own separators. */
    expect_format(intl, "W:W31-50:B1-20", "32-28", true, "32-28");
    /* d4 x c5 -> b6. */
    expect_format(intl, "W:W32:B27", "32x21", true, "32x21");
    expect_format(tu_variant("russian"), "W:Wc3:Bh8", "c3-d4", true, "c3-d4");
    expect_format(tu_variant("russian"), "W:Wd4:Bc3", "d4xb2", true, "d4:b2");
    expect_format(tu_variant("thai"), "W:WKa1:Bd4", "a1-e5", true, "a1xe5");
    expect_format(tu_variant("spanish"), "W:W1-12:B21-32", "b3-a4", true, "12-16");
    /* A long capture is written from-to when nothing else shares its ends:
     * a1 x b2, d4, f6 lands on g7 (29-22-15-8). */
    expect_format(english, "W:W29:B25,18,11", "29x8", true, "29x8");

    /* Two captures from c3 to c7 over different men (c3-e5-c7 over d4, d6;
     * c3-a5-c7 over b4, b6): the route tells them apart. */
    expect_format(english, "W:W22:B9,10,17,18", "22x15x6", true, "22x15x6");
    expect_format(english, "W:W22:B9,10,17,18", "22x13x6", true, "22x13x6");
    expect_format(czech, "W:Wc3:Bb4,b6,d4,d6", "c3-e5-c7", true, "c3:e5:c7");
    expect_format(czech, "W:Wc3:Bb4,b6,d4,d6", "c3xa5xc7", true, "c3:a5:c7");
    /* Without the list, the short form. */
    expect_format(english, "W:W22:B9,10,17,18", "22x15x6", false, "22x6");

    /* An International king with two routes of three from h4 (34) to g1 (49):
     * x g5 lands on f6 (23), x e5 to d4 (32), x f2 to g1; or x g5 lands on
     * c9 (7), x b8 to a7 (16), x f2 to g1.  Every other route takes fewer. */
    const char *king = "W:WK34:B11,43,10,29,28";
    expect_format(intl, king, "34x23x49", true, "34x23x32x49");
    expect_format(intl, king, "34x7x49", true, "34x7x16x49");
    expect_format(intl, king, "34x7x49", false, "34x49");
}

static void test_move_parse(void **state)
{
    (void)state;
    const dm_variant *intl = tu_variant("international");
    const dm_variant *english = tu_variant("english");
    const char *start = "W:W31-50:B1-20";

    /* Any separator, blanks around. */
    int a = move_in(intl, start, "32-28");
    assert_int_equal(move_in(intl, start, "32x28"), a);
    assert_int_equal(move_in(intl, start, "32:28"), a);
    assert_int_equal(move_in(intl, start, "  32-28 "), a);
    /* Algebraic names in a numbered variant: 32 = d4, 28 = e5. */
    assert_int_equal(move_in(intl, start, "d4-e5"), a);
    assert_true(legal_list.moves[a].from == 31 && legal_list.moves[a].to == 27);

    /* a1 x b2 -> c3 x d4 -> e5 x f6 -> g7 (29-22-15-8): from-to alone, or
     * any part of the route. */
    const char *three = "W:W29:B25,18,11";
    int m = move_in(english, three, "29x8");
    assert_int_equal(legal_list.moves[m].njumps, 3);
    assert_int_equal(move_in(english, three, "29x15x8"), m);
    assert_int_equal(move_in(english, three, "29x22x8"), m);
    assert_int_equal(move_in(english, three, "29x22x15x8"), m);
    assert_int_equal(move_in(english, three, "29-22-15-8"), m);
    assert_int_equal(move_in(english, three, "a1xc3xe5xg7"), m);
    /* 18 is a captured square, not a landing one; the order matters too. */
    assert_non_null(strstr(parse_error(english, three, "29x18x8"), "29x18x8"));
    assert_non_null(parse_error(english, three, "29x15x22x8"));

    /* Two routes share from and to: "22x6" is ambiguous and the message
     * names both; the routes are not. */
    const char *two = "W:W22:B9,10,17,18";
    const char *amb = parse_error(english, two, "22x6");
    assert_non_null(strstr(amb, "ambiguous"));
    assert_non_null(strstr(amb, "22x15x6"));
    assert_non_null(strstr(amb, "22x13x6"));
    assert_int_not_equal(move_in(english, two, "22x15x6"), move_in(english, two, "22x13x6"));
    assert_int_equal(move_in(english, two, "22x13x6"), move_in(english, two, "22-13-6"));

    /* A quiet move while a capture is compulsory: d4 (32) x c5 (27) must be
     * played; the message says so and names it. */
    const char *msg = parse_error(intl, "W:W32,40:B27", "40-35");
    assert_non_null(strstr(msg, "compulsory"));
    assert_non_null(strstr(msg, "32x21"));
    /* A move no piece can make. */
    msg = parse_error(intl, "W:W32:B1", "32-22");
    assert_non_null(strstr(msg, "32-22"));
    assert_null(strstr(msg, "compulsory"));
    msg = parse_error(intl, "W:W:B1", "32-28");
    assert_non_null(strstr(msg, "no legal move"));

    /* Unknown squares, garbage, nothing. */
    assert_non_null(strstr(parse_error(intl, start, "60-55"), "'60'"));
    assert_non_null(strstr(parse_error(tu_variant("russian"),
                                       "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,"
                                       "a7,c7,e7,g7,b8,d8,f8,h8",
                                       "i3-h4"),
                           "'i3'"));
    assert_non_null(strstr(parse_error(intl, start, "32/28"), "'/'"));
    assert_non_null(parse_error(intl, start, "32--28"));
    assert_non_null(parse_error(intl, start, "hello"));
    assert_non_null(parse_error(intl, start, "32"));
    assert_non_null(strstr(parse_error(intl, start, ""), "empty"));
    assert_non_null(strstr(parse_error(intl, start, "   "), "empty"));
    /* Far too many squares. */
    char many[512] = "32";
    for (int i = 0; i < 60; i++)
        strcat(many, "-28");
    assert_non_null(parse_error(intl, start, many));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_square_numbers),   cmocka_unit_test(test_start_positions),
        cmocka_unit_test(test_kings_and_lists),  cmocka_unit_test(test_malformed_fens),
        cmocka_unit_test(test_king_without_kings), cmocka_unit_test(test_long_fens),
        cmocka_unit_test(test_k_file_is_not_a_king),
        cmocka_unit_test(test_move_format),      cmocka_unit_test(test_move_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
