/* SPDX-License-Identifier: MIT */
/*
 * test_dxpmsg.c - DXP messages read and written (src/proto/dxpmsg.c): the
 * layouts of the DamExchange pages field by field, round trips, and every
 * kind of malformed message refused with the field named.
 */
#include "testutil.h"

#include "proto/dxpmsg.h"

static struct dxp_message msg;

static void parse_ok(const char *text, int squares)
{
    char why[120];
    if (dxp_parse(text, strlen(text), squares, &msg, why, sizeof why) != 0)
        fail_msg("'%s' refused: %s", text, why);
    char back[DXP_MAX_MESSAGE + 1];
    assert_int_equal(dxp_format(&msg, squares, back, sizeof back), (int)strlen(text));
    if (strcmp(back, text) != 0)
        fail_msg("'%s' written back as '%s'", text, back);
}

static void test_messages(void **state)
{
    (void)state;
    parse_ok("M001205250422122320", 50);
    assert_int_equal(msg.kind, DXP_MOVE);
    assert_int_equal(msg.seconds, 12);
    assert_int_equal(msg.from, 5);
    assert_int_equal(msg.to, 25);
    assert_int_equal(msg.ncaptured, 4);
    assert_int_equal(msg.captured[0], 22);
    assert_int_equal(msg.captured[3], 20);

    parse_ok("M0003322800", 50);
    assert_int_equal(msg.ncaptured, 0);

    parse_ok("R01Scan 2.0                        Z005075A", 50);
    assert_int_equal(msg.kind, DXP_GAMEREQ);
    assert_string_equal(msg.name, "Scan 2.0");
    assert_int_equal(msg.color, 'Z');
    assert_int_equal(msg.minutes, 5);
    assert_int_equal(msg.moves, 75);
    assert_false(msg.setup);

    char req[DXP_MAX_MESSAGE + 1];
    snprintf(req, sizeof req, "R01%-32sW010000BZ%s", "Damier",
             "zzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwwe");
    parse_ok(req, 50);
    assert_true(msg.setup);
    assert_int_equal(msg.to_move, 'Z');
    assert_int_equal(msg.board[0], 'z');
    assert_int_equal(msg.board[49], 'e');

    parse_ok("ADamier                          0", 50);
    assert_int_equal(msg.kind, DXP_GAMEACC);
    assert_string_equal(msg.name, "Damier");
    assert_int_equal(msg.code, 0);

    parse_ok("E21", 50);
    assert_int_equal(msg.reason, DXP_DRAW);
    assert_int_equal(msg.stop, 1);

    parse_ok("Chello there", 50);
    assert_string_equal(msg.text, "hello there");

    parse_ok("B012W", 50);
    assert_int_equal(msg.move_number, 12);
    assert_int_equal(msg.color, 'W');

    parse_ok("K1", 50);
    assert_int_equal(msg.code, 1);

    /* An 8x8 set-up has 32 squares. */
    snprintf(req, sizeof req, "R01%-32sZ005000BW%s", "x", "bbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
    char why[120];
    assert_int_equal(dxp_parse(req, strlen(req), 32, &msg, why, sizeof why), -1);
    assert_string_equal(why, "GAMEREQ square: 'b' is not one of wzWZe");
    snprintf(req, sizeof req, "R01%-32sZ005000BW%s", "x", "zzzzzzzzzzzzeeeeeeeewwwwwwwwwwww");
    parse_ok(req, 32);
}

static void parse_bad(const char *text, size_t len, const char *reason)
{
    char why[120] = "";
    if (dxp_parse(text, len, 50, &msg, why, sizeof why) == 0)
        fail_msg("'%.*s' accepted", (int)len, text);
    if (strcmp(why, reason) != 0)
        fail_msg("'%.*s': reason '%s', want '%s'", (int)len, text, why, reason);
}

static void test_malformed(void **state)
{
    (void)state;
    parse_bad("", 0, "an empty message");
    parse_bad("X12", 3, "unknown message type 'X'");
    parse_bad("M00120525042212232", 18, "MOVE captured piece: the message ends before it");
    parse_bad("M0012052504221223200", 20, "1 characters too many after the last field");
    parse_bad("M00a205250422122320", 19, "MOVE time: '00a2' is not 4 digits");
    parse_bad("M001205510422122320", 19, "MOVE to: square 51 is not on a board of 50 squares");
    parse_bad("M001200250422122320", 19, "MOVE from: square 0 is not on a board of 50 squares");
    parse_bad("M0012052599", 11, "MOVE number captured: 99 on a board of 50 squares");
    parse_bad("E4", 2, "GAMEEND reason: '4' is not one of 0123");
    parse_bad("E2", 2, "GAMEEND stop code: the message ends before it");
    parse_bad("R02Scan                            Z005075A", 43,
              "GAMEREQ version: '02', only 01 is known");
    parse_bad("R01Scan                            X005075A", 43,
              "GAMEREQ follower colour: 'X' is not one of WZ");
    parse_bad("R01Scan                            Z005075C", 43,
              "GAMEREQ starting position: 'C' is not one of AB");
    parse_bad("R01Scan", 7, "GAMEREQ initiator name: the message ends before it");
    parse_bad("B12W", 4, "BACKREQ move number: '12W' is not 3 digits");
    parse_bad("K", 1, "BACKACC acceptance code: the message ends before it");
    parse_bad("Chi\x1b[2J", 7, "character 4 (\\x1b) is not printable ASCII");
    parse_bad("E2\0" "1", 4, "character 3 (\\x00) is not printable ASCII");
    static char big[200];
    memset(big, 'C', sizeof big);
    parse_bad(big, 128, "128 characters; a message has at most 127");
}

static void test_format_limits(void **state)
{
    (void)state;
    struct dxp_message m = {.kind = DXP_CHAT};
    memset(m.text, 'a', sizeof m.text - 1);
    char buf[DXP_MAX_MESSAGE + 1];
    assert_int_equal(dxp_format(&m, 50, buf, sizeof buf), DXP_MAX_MESSAGE); /* 'C' + 126 */
    assert_int_equal(dxp_format(&m, 50, buf, 50), -1);                        /* no room  */
    struct dxp_message mv = {.kind = DXP_MOVE, .seconds = 3, .from = 32, .to = 28};
    assert_int_equal(dxp_format(&mv, 50, buf, sizeof buf), 11);
    assert_string_equal(buf, "M0003322800");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_messages),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_format_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
