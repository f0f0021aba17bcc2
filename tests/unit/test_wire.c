/* SPDX-License-Identifier: MIT */
/*
 * test_wire.c - positions and moves as Hub and DXP carry them
 * (src/notation/wire.c): the examples of Scan's protocol.txt, square
 * numbers of numbered, Iberian and algebraic variants, captures found from
 * their captured set in any order, round trips over random games of every
 * variant, and malformed input named in the error.
 */
#include "testutil.h"

static void expect_hub(const char *id, const char *fen, const char *want)
{
    const dm_variant *v = tu_variant(id);
    dm_position pos, back;
    tu_position(v, fen, &pos);
    char text[DM_HUB_POSITION_SIZE];
    dm_hub_position_format(v, &pos, text, sizeof text);
    if (strcmp(text, want) != 0)
        fail_msg("%s %s: Hub form '%s', want '%s'", id, fen, text, want);
    dm_error err;
    if (dm_hub_position_parse(v, text, &back, &err) != 0)
        fail_msg("%s: '%s' not read back: %s", id, text, err.msg);
    assert_true(dm_position_equal(&pos, &back));
}

static void test_positions(void **state)
{
    (void)state;
    /* protocol.txt's first example: the International start. */
    expect_hub("international", "W:W31-50:B1-20",
               "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
    /* Its second: kings on 4, 5, 38 and 48, men on 25, 35, 36. */
    expect_hub("international", "B:WK4,K5,25,35,36:BK38,K48",
               "BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee");
    /* English: 33 letters, square 1 first. */
    expect_hub("english", "B:W21-32:B1-12", "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
    /* Russian is algebraic: b8 is square 1, c3 22, h2 28 (as PDN numbers it). */
    expect_hub("russian", "W:Wc3,h2:Bb8", "Wbeeeeeeeeeeeeeeeeeeeeweeeeeweeee");
    /* Spanish numbers from the bottom right: square 1 (h1 side) first. */
    expect_hub("spanish", "W:W1,K2:B32", "WwWeeeeeeeeeeeeeeeeeeeeeeeeeeeeeb");
    /* Parachutists are p and q. */
    expect_hub("parachute", "W:Wc3,Pb8:BPa1", "Wpeeeeeeeeeeeeeeeeeeeeweeeeeeqeee");
}

static void expect_bad_position(const char *id, const char *text, const char *part)
{
    const dm_variant *v = tu_variant(id);
    dm_position pos;
    dm_error err = {{0}};
    if (dm_hub_position_parse(v, text, &pos, &err) == 0)
        fail_msg("%s: Hub position '%s' accepted", id, text);
    if (!strstr(err.msg, part))
        fail_msg("%s: error '%s' does not say '%s'", id, err.msg, part);
}

static void test_bad_positions(void **state)
{
    (void)state;
    expect_bad_position("english", "Bbbbb", "5 letters, english needs 33");
    expect_bad_position("english", "Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww", "'X' is neither W nor B");
    expect_bad_position("english", "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwz", "square 32 is 'z'");
    expect_bad_position("english", "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwww\x1b", "square 32 is '\\e'");
    expect_bad_position("english", "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwp",
                        "square 32 holds a parachutist; english has none");
    expect_bad_position("hawaiian",
                        "WWeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
                        "holds a king; hawaiian has none");
    /* A white man on its crowning row cannot be. */
    expect_bad_position("english", "Bwbbbbbbbbbbbeeeeeeeewwwwwwwwwwwe", "promotion row");
}

static void test_numbers(void **state)
{
    (void)state;
    const dm_variant *intl = tu_variant("international"), *sp = tu_variant("spanish"),
                     *ru = tu_variant("russian"), *tk = tu_variant("turkish");
    assert_int_equal(dm_cell_number(intl, 0), 1);
    assert_int_equal(dm_cell_number(intl, 49), 50);
    assert_int_equal(dm_cell_of_number(intl, 51), -1);
    assert_int_equal(dm_cell_of_number(intl, 0), -1);
    assert_int_equal(dm_cell_number(sp, 0), 32);
    assert_int_equal(dm_cell_of_number(sp, 32), 0);
    assert_int_equal(dm_cell_number(ru, dm_cell_parse(ru, "c3", 2)), 22);
    assert_int_equal(dm_cell_number(ru, dm_cell_parse(ru, "b8", 2)), 1);
    assert_int_equal(dm_cell_number(tk, dm_cell_parse(tk, "h1", 2)), 64);
}

/* The Hub text of the legal move written (in the variant's notation) as
 * move, in fen (NULL: the start); and the Hub text parsed back to the same move. */
static void expect_move(const char *id, const char *fen, const char *move, const char *want)
{
    const dm_variant *v = tu_variant(id);
    dm_position pos;
    if (fen)
        tu_position(v, fen, &pos);
    else
        dm_position_start(v, &pos);
    dm_move m = tu_legal_move(v, &pos, move, 0);
    char text[DM_HUB_MOVE_SIZE];
    dm_hub_move_format(v, &m, text, sizeof text);
    if (strcmp(text, want) != 0)
        fail_msg("%s: %s is '%s' in Hub, want '%s'", id, move, text, want);
    static dm_move_list legal;
    dm_generate(v, &pos, &legal, 0);
    dm_error err;
    int at = dm_hub_move_parse(v, &legal, text, &err);
    if (at < 0)
        fail_msg("%s: Hub move '%s' not read back: %s", id, text, err.msg);
    assert_true(dm_move_same(&legal.moves[at], &m));
}

static void test_moves(void **state)
{
    (void)state;
    /* protocol.txt: "28x19x23". */
    expect_move("international", "W:W28:B23", "28x19", "28x19x23");
    expect_move("international", "W:W31-50:B1-20", "32-28", "32-28");
    /* Captured squares in jump order out; any order in. */
    expect_move("international", "W:W48:B42,32,22", "48x17", "48x17x42x32x22");
    const dm_variant *v = tu_variant("international");
    dm_position pos;
    tu_position(v, "W:W48:B42,32,22", &pos);
    static dm_move_list legal;
    dm_generate(v, &pos, &legal, 0);
    dm_error err;
    assert_int_equal(dm_hub_move_parse(v, &legal, "48x17x22x42x32", &err), 0);
    /* PDN's short capture form is read too. */
    assert_int_equal(dm_hub_move_parse(v, &legal, "48x17", &err), 0);
    /* Russian and Spanish in numbers. */
    expect_move("russian", "W:Wc3:Bb8", "c3-d4", "22-18");
    expect_move("spanish", "W:W9:B32", "9-13", "9-13");
    /* Hawaiian's opening removal is a square alone: d5 is 28 on the full
     * board numbered from a8. */
    expect_move("hawaiian", NULL, "d5", "28");
}

static void expect_bad_move(const char *text, int status, const char *part)
{
    const dm_variant *v = tu_variant("international");
    dm_position pos;
    tu_position(v, "W:W28,33:B23", &pos);
    static dm_move_list legal;
    dm_generate(v, &pos, &legal, 0);
    dm_error err = {{0}};
    int at = dm_hub_move_parse(v, &legal, text, &err);
    if (at != status)
        fail_msg("Hub move '%s': %d, want %d (%s)", text, at, status, err.msg);
    if (!strstr(err.msg, part))
        fail_msg("Hub move '%s': error '%s' does not say '%s'", text, err.msg, part);
}

static void test_bad_moves(void **state)
{
    (void)state;
    expect_bad_move("33-29", DM_PARSE_ILLEGAL, "'33-29' is not legal");
    expect_bad_move("28x19x22", DM_PARSE_ILLEGAL, "not legal");
    expect_bad_move("28x51x23", DM_PARSE_MALFORMED, "square 51 does not exist");
    expect_bad_move("28-19x23", DM_PARSE_MALFORMED, "expected from-to");
    expect_bad_move("28-", DM_PARSE_MALFORMED, "expected");
    expect_bad_move("", DM_PARSE_MALFORMED, "expected");
    expect_bad_move("a1-b2", DM_PARSE_MALFORMED, "expected");
    expect_bad_move("28x19x23\x1b[2J", DM_PARSE_MALFORMED, "\\e[2J");
    expect_bad_move("28x19x23x23", DM_PARSE_MALFORMED, "captured square 23 is given twice");
    /* More squares than any capture has. */
    char longest[4 * (DM_MAX_JUMPS + 4)] = "28x19";
    for (int i = 0; i < DM_MAX_JUMPS + 1; i++)
        strcat(longest, "x23");
    expect_bad_move(longest, DM_PARSE_MALFORMED, "expected");
}

/* Random games of every variant: every position and every legal move
 * survives the Hub form, and dm_move_find names each move by signature. */
static void test_round_trips(void **state)
{
    (void)state;
    uint64_t rng = 0x5EEDu;
    static dm_move_list legal;
    for (int vi = 0; vi < dm_variant_count(); vi++) {
        const dm_variant *v = dm_variant_at(vi);
        for (int game = 0; game < 20; game++) {
            dm_position pos;
            dm_position_start(v, &pos);
            for (int ply = 0; ply < 120; ply++) {
                char text[DM_HUB_POSITION_SIZE];
                dm_position back;
                dm_error err;
                dm_hub_position_format(v, &pos, text, sizeof text);
                if (dm_hub_position_parse(v, text, &back, &err) != 0)
                    fail_msg("%s: '%s' not read back: %s", dm_variant_id(v), text, err.msg);
                back.king_cell[0] = pos.king_cell[0], back.king_cell[1] = pos.king_cell[1];
                back.king_moves[0] = pos.king_moves[0], back.king_moves[1] = pos.king_moves[1];
                assert_true(dm_position_equal(&pos, &back));
                if (dm_generate(v, &pos, &legal, 0) <= 0)
                    break;
                for (int i = 0; i < legal.count; i++) {
                    const dm_move *m = &legal.moves[i];
                    char mt[DM_HUB_MOVE_SIZE];
                    dm_hub_move_format(v, m, mt, sizeof mt);
                    int at = dm_hub_move_parse(v, &legal, mt, &err);
                    if (at < 0)
                        fail_msg("%s: Hub move '%s' not read back: %s", dm_variant_id(v), mt,
                                 err.msg);
                    assert_int_equal(legal.moves[at].from, m->from);
                    assert_int_equal(legal.moves[at].to, m->to);
                    assert_true(legal.moves[at].captured_set == m->captured_set);
                    if (!(m->flags & DM_MOVE_REMOVAL))
                        assert_int_equal(dm_move_find(&legal, m->from, m->to, m->captured_set),
                                         at);
                }
                dm_make_move(v, &pos, &legal.moves[tu_xorshift(&rng) % (uint64_t)legal.count]);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_positions),  cmocka_unit_test(test_bad_positions),
        cmocka_unit_test(test_numbers),    cmocka_unit_test(test_moves),
        cmocka_unit_test(test_bad_moves),  cmocka_unit_test(test_round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
