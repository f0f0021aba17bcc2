/* SPDX-License-Identifier: MIT */
/*
 * test_fen_check.c - what dm_fen_parse refuses, and what it must not.
 *
 * A FEN is refused for what no game can reach: a square off the playing
 * cells, a square given twice, a piece kind the variant lacks, a man on a
 * square where it would already have been crowned (the far row; Corner
 * checkers' two squares; nowhere without promotion), a side with more
 * pieces than the start position gives it (men and kings alike).  Anything
 * else a board editor or a problem collection sets up reads.  Every refusal
 * names the square or the count and the reason, with control characters
 * escaped (an ESC sequence must not reach a terminal).
 */
#include "testutil.h"

/* Positions that must read, and the number of pieces each holds. */
static void test_accepted(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *fen;
        int pieces;
    } good[] = {
        /* As many pieces as the start position gives a side, kings counted. */
        {"international", "W:W31-50:B1-20", 40},
        {"international", "W:WK1-10,K41-50:B25", 21},
        {"frysk", "W:W41-45:BK1,2-5", 10},                 /* Frysk! starts with 5 */
        {"thai", "W:Wa1,c1,e1,g1,b2,d2,f2,h2:Bb6,d6,f6,h6,a7,c7,e7,g7", 16},
        {"parachute", "W:Wb2,d2,f2,h2,a3,c3,e3,g3,Pb8,Pd8,Pf8,Ph8:Ba7", 13},
        {"hawaiian", "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3,b4,d4,f4,h4,a5,c5,e5,g5,b6,d6,f6,"
                     "h6,a7,c7,e7,g7,b8,d8,f8,h8:Bb1", 33},
        /* Kings anywhere, men on their own back row. */
        {"international", "W:WK1,46:BK50,5", 4},
        /* Corner checkers crowns White only on a7 and b8, Black on g1 and h2:
         * the rest of the far rows may hold men. */
        {"corner", "W:Wd8,f8:Bc1,a1", 4},
        /* Alquerque has no promotion: a man may stand anywhere. */
        {"alquerque", "W:Wa5,e5:Ba1,e1", 4},
        /* One Way's men start on rank 8, their promotion row. */
        {"one-way", "W:Wb8:Bf8,h8", 3},
        /* Nobody to move against: still a position (the game is over). */
        {"international", "W:W31:B", 1},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        const dm_variant *v = tu_variant(good[i].variant);
        dm_position pos;
        dm_error err;
        if (dm_fen_parse(v, good[i].fen, &pos, &err) != 0) {
            fail_msg("%s: '%s' refused: %s", good[i].variant, good[i].fen, err.msg);
        }
        int n = 0;
        for (dm_bits b = pos.white | pos.black; b; b &= b - 1)
            n++;
        if (n != good[i].pieces)
            fail_msg("%s: '%s' holds %d pieces, read %d", good[i].variant, good[i].fen,
                     good[i].pieces, n);
    }
}

/* Positions that must not read, each with the words its message must hold:
 * the square, then the reason. */
static void test_refused(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *fen, *square, *reason;
    } bad[] = {
        /* Off the playing squares. */
        {"international", "W:W51:B1", "'51'", "does not exist"},
        {"russian", "W:Wb1:Bb8", "'b1'", "does not exist"},      /* a light square */
        {"english", "W:W33:B1", "'33'", "does not exist"},
        /* A square twice, in one list or in both. */
        {"international", "W:W31,31:B1", "'31'", "given twice"},
        {"international", "W:W31:B31", "'31'", "given twice"},
        /* More pieces than cells can only be a square twice. */
        {"international", "W:W6-50:B1-6", "'1-6'", "given twice"},
        /* A man where it would have been crowned. */
        {"international", "W:W3:B20", "on 3 ", "promotion row"},
        {"international", "W:W31:B48", "on 48 ", "promotion row"},
        {"english", "W:W1:B12", "on 1 ", "promotion row"},
        {"russian", "W:Wa1:Bc1", "on c1 ", "promotion row"},
        {"corner", "W:Wb8:Bc1", "on b8 ", "promotion row"},
        {"corner", "W:Wc1:Bh2", "on h2 ", "promotion row"},
        {"one-way", "W:Wd8:Bf8", "on d8 ", "promotion row"},
        /* A piece the variant does not have. */
        {"alquerque", "W:WKc3:Bb4", "'Kc3'", "no kings"},
        {"international", "W:WP31:B1", "'P31'", "no parachutists"},
        /* More pieces than the start position gives a side. */
        {"international", "W:W11-50:B1-10", "White has 40 pieces", "20 of the start"},
        {"international", "W:W50:B1-20,K30", "Black has 21 pieces", "20 of the start"},
        {"english", "W:W5-32:B1-4", "White has 28 pieces", "12 of the start"},
        {"frysk", "W:W41-46:B1", "White has 6 pieces", "5 of the start"},
        {"thai", "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3:Bb8", "White has 9 pieces", "8 of the start"},
        {"gothic",
         "W:Wa1:Ba3,b3,c3,d3,e3,f3,g3,h3,a4,b4,c4,d4,e4,f4,g4,h4,"
         "a5,b5,c5,d5,e5,f5,g5,h5,a6,b6,c6,d6,e6,f6,g6,h6,a7",
         "Black has 33 pieces", "16 of the start"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const dm_variant *v = tu_variant(bad[i].variant);
        dm_position pos;
        dm_error err = {{0}};
        if (dm_fen_parse(v, bad[i].fen, &pos, &err) == 0)
            fail_msg("%s: '%s' accepted", bad[i].variant, bad[i].fen);
        if (!strstr(err.msg, bad[i].square) || !strstr(err.msg, bad[i].reason))
            fail_msg("%s: '%s': message '%s' lacks '%s' or '%s'", bad[i].variant, bad[i].fen,
                     err.msg, bad[i].square, bad[i].reason);
    }
}

/* Whether s holds a byte below 0x20 or DEL. */
static bool has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7F)
            return true;
    return false;
}

/* Control characters and broken UTF-8 in a FEN or a move are escaped in the
 * message, not copied into it. */
static void test_messages_escaped(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *fen, *shown;
    } bad[] = {
        {"international", "W:W\x1b[31m:B1", "'\\e[31m'"},
        {"international", "W:W31,\x07:B1", "'\\x07'"},
        {"international", "W:W31:B1:X\x1b]0;t\x07", "'X\\e]0;t\\x07'"},
        {"international", "\x1b:W31:B1", "found '\\e'"},
        {"international", "W\x01W31:B1", "found '\\x01'"},
        {"russian", "W:W\xff\xfe:B1", "'\\xff\\xfe'"},
        {"frisian", "W:WK31:B1:+1\x1b+0", "'\\e'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const dm_variant *v = tu_variant(bad[i].variant);
        dm_position pos;
        dm_error err = {{0}};
        if (dm_fen_parse(v, bad[i].fen, &pos, &err) == 0)
            fail_msg("%s: FEN %zu accepted", bad[i].variant, i);
        if (has_control(err.msg) || !strstr(err.msg, bad[i].shown))
            fail_msg("%s: FEN %zu: message '%s' does not show %s", bad[i].variant, i, err.msg,
                     bad[i].shown);
    }
    /* Move text: the move and the bad square or separator. */
    const dm_variant *intl = tu_variant("international");
    dm_position start;
    dm_move_list legal;
    dm_position_start(intl, &start);
    dm_generate(intl, &start, &legal, 0);
    static const struct {
        const char *move, *shown;
    } moves[] = {
        {"32-28\x1b[2J", "'32-28\\e[2J'"},
        {"32\x07" "28", "'\\x07' is not a move separator"},
        {"\x1b" "32-28", "'\\e32-28'"},
        {"32-99\x1b", "'32-99\\e'"},
    };
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) {
        dm_error err = {{0}};
        if (dm_move_parse(intl, &legal, moves[i].move, &err) >= 0)
            fail_msg("move %zu accepted", i);
        if (has_control(err.msg) || !strstr(err.msg, moves[i].shown))
            fail_msg("move %zu: message '%s' does not show %s", i, err.msg, moves[i].shown);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accepted),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_messages_escaped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
