/* SPDX-License-Identifier: MIT */
/*
 * test_clock.c - time controls and the game clock, on a time source the
 * tests step by hand: nothing sleeps, every result is exact.
 */
#include "testutil.h"

/* The injected source: milliseconds the test sets. */
static int64_t fake_now(void *ctx)
{
    return *(const int64_t *)ctx;
}

static void parse_ok(const char *spec, enum dm_clock_kind kind, int64_t base, int64_t inc,
                     int moves, const char *formatted)
{
    dm_time_control tc;
    dm_error err;
    if (dm_time_control_parse(spec, &tc, &err) != 0)
        fail_msg("'%s' refused: %s", spec, err.msg);
    assert_int_equal(tc.kind, kind);
    assert_int_equal(tc.base_ms, base);
    assert_int_equal(tc.increment_ms, inc);
    assert_int_equal(tc.moves, moves);
    char text[64];
    dm_time_control_format(&tc, text, sizeof text);
    assert_string_equal(text, formatted);
}

static void parse_bad(const char *spec, const char *why)
{
    dm_time_control tc;
    dm_error err;
    if (dm_time_control_parse(spec, &tc, &err) == 0)
        fail_msg("'%s' accepted", spec);
    if (!strstr(err.msg, why))
        fail_msg("'%s': message '%s' lacks '%s'", spec, err.msg, why);
}

static void test_parse(void **state)
{
    (void)state;
    parse_ok("none", DM_CLOCK_NONE, 0, 0, 0, "none");
    parse_ok("5", DM_CLOCK_SUDDEN_DEATH, 300000, 0, 0, "5");
    parse_ok(" 5+0 ", DM_CLOCK_SUDDEN_DEATH, 300000, 0, 0, "5");
    parse_ok("5+3", DM_CLOCK_FISCHER, 300000, 3000, 0, "5+3");
    parse_ok("0.5+1.5", DM_CLOCK_FISCHER, 30000, 1500, 0, "0.5+1.5");
    parse_ok("90/40", DM_CLOCK_MOVES_IN_TIME, 5400000, 0, 40, "90/40");
    parse_ok("90/40+30", DM_CLOCK_MOVES_IN_TIME, 5400000, 30000, 40, "90/40+30");
    parse_ok("10/move", DM_CLOCK_PER_MOVE, 10000, 0, 0, "10/move");

    parse_bad("", "empty");
    parse_bad("fast", "expected a number");
    parse_bad("5+", "expected seconds after '+'");
    parse_bad("5+x", "expected seconds after '+'");
    parse_bad("0", "more than 0");
    parse_bad("5*3", "unexpected '*'");
    parse_bad("90/", "whole number of moves");
    parse_bad("90/4.5", "whole number of moves");
    parse_bad("90/0", "more than 0");
    parse_bad("90/40x", "unexpected text");
    parse_bad("0/move", "more than 0");
    parse_bad("-5", "expected a number");
    parse_bad("99999999999999999999", "expected a number");
    parse_bad("20000", "too long");
    parse_bad("1e3", "unexpected 'e'");
}

static void test_sudden_death(void **state)
{
    (void)state;
    int64_t now = 1000;
    dm_time_control tc;
    dm_error err;
    dm_clock c;
    assert_int_equal(dm_time_control_parse("1", &tc, &err), 0);
    dm_clock_init(&c, &tc, fake_now, &now);
    assert_int_equal(dm_clock_left(&c, DM_WHITE), 60000);
    dm_clock_start(&c, DM_WHITE);
    now += 10000;
    assert_int_equal(dm_clock_left(&c, DM_WHITE), 50000);
    assert_int_equal(dm_clock_left(&c, DM_BLACK), 60000);
    assert_true(dm_clock_press(&c));
    assert_int_equal(c.running, DM_BLACK);
    now += 59999;
    assert_int_equal(dm_clock_flag(&c), -1);
    assert_int_equal(dm_clock_left(&c, DM_BLACK), 1);
    now += 1;
    assert_int_equal(dm_clock_left(&c, DM_BLACK), 0);
    assert_int_equal(dm_clock_flag(&c), DM_BLACK);
    assert_int_equal(c.running, -1);
    /* Pressing after the flag fell changes nothing. */
    assert_false(dm_clock_press(&c));
    assert_int_equal(dm_clock_left(&c, DM_WHITE), 50000);
}

static void test_fischer(void **state)
{
    (void)state;
    int64_t now = 0;
    dm_time_control tc;
    dm_error err;
    dm_clock c;
    assert_int_equal(dm_time_control_parse("5+3", &tc, &err), 0);
    dm_clock_init(&c, &tc, fake_now, &now);
    dm_clock_start(&c, DM_WHITE);
    now += 2000;
    assert_true(dm_clock_press(&c)); /* 300 - 2 + 3 */
    assert_int_equal(dm_clock_left(&c, DM_WHITE), 301000);
    now += 10000;
    assert_true(dm_clock_press(&c));
    assert_int_equal(dm_clock_left(&c, DM_BLACK), 293000);
    assert_int_equal(c.moves[DM_WHITE], 1);
    assert_int_equal(c.moves[DM_BLACK], 1);
    /* A move that overruns loses, increment or not. */
    now += 301000;
    assert_false(dm_clock_press(&c));
    assert_int_equal(dm_clock_flag(&c), DM_WHITE);
    assert_int_equal(dm_clock_left(&c, DM_WHITE), 0);
}

static void test_moves_in_time(void **state)
{
    (void)state;
    int64_t now = 0;
    dm_time_control tc;
    dm_error err;
    dm_clock c;
    assert_int_equal(dm_time_control_parse("1/2", &tc, &err), 0); /* 2 moves in 1 min */
    dm_clock_init(&c, &tc, fake_now, &now);
    dm_clock_start(&c, DM_WHITE);
    for (int move = 1; move <= 4; move++) {
        now += 20000;
        assert_true(dm_clock_press(&c)); /* White */
        now += 1000;
        assert_true(dm_clock_press(&c)); /* Black */
        if (move == 2)
            assert_int_equal(dm_clock_left(&c, DM_WHITE), 60000 - 40000 + 60000);
    }
    /* 4 moves, 2 periods: 120 s given, 80 s used. */
    assert_int_equal(dm_clock_left(&c, DM_WHITE), 40000 + 60000);
    assert_int_equal(dm_clock_left(&c, DM_BLACK), 120000 - 4000 + 60000);
}

static void test_per_move(void **state)
{
    (void)state;
    int64_t now = 0;
    dm_time_control tc;
    dm_error err;
    dm_clock c;
    assert_int_equal(dm_time_control_parse("10/move", &tc, &err), 0);
    dm_clock_init(&c, &tc, fake_now, &now);
    dm_clock_start(&c, DM_WHITE);
    now += 9000;
    assert_true(dm_clock_press(&c));
    assert_int_equal(dm_clock_left(&c, DM_BLACK), 10000); /* unused time is lost */
    now += 3000;
    assert_int_equal(dm_clock_left(&c, DM_BLACK), 7000);
    assert_true(dm_clock_press(&c));
    assert_int_equal(dm_clock_left(&c, DM_WHITE), 10000);
    now += 10000;
    assert_int_equal(dm_clock_flag(&c), DM_WHITE);
}

static void test_none_and_takeback(void **state)
{
    (void)state;
    int64_t now = 0;
    dm_clock c;
    dm_clock_init(&c, NULL, fake_now, &now);
    dm_clock_start(&c, DM_WHITE);
    now += 1000000;
    assert_int_equal(dm_clock_flag(&c), -1);
    assert_int_equal(dm_clock_left(&c, DM_WHITE), 0);
    assert_true(dm_clock_press(&c));
    assert_int_equal(c.running, DM_BLACK);

    /* A takeback hands the move back without an increment. */
    dm_time_control tc;
    dm_error err;
    assert_int_equal(dm_time_control_parse("1+5", &tc, &err), 0);
    dm_clock_init(&c, &tc, fake_now, &now);
    dm_clock_start(&c, DM_WHITE);
    now += 5000;
    dm_clock_start(&c, DM_BLACK);
    assert_int_equal(dm_clock_left(&c, DM_WHITE), 55000);
    now += 5000;
    dm_clock_stop(&c);
    now += 50000;
    assert_int_equal(dm_clock_left(&c, DM_BLACK), 55000); /* stopped: no time runs */
    assert_int_equal(c.moves[DM_WHITE] + c.moves[DM_BLACK], 0);
}

static void test_format(void **state)
{
    (void)state;
    char buf[32];
    dm_clock_format(305000, buf, sizeof buf);
    assert_string_equal(buf, "5:05");
    dm_clock_format(9450, buf, sizeof buf);
    assert_string_equal(buf, "0:09.4");
    dm_clock_format(3723000, buf, sizeof buf);
    assert_string_equal(buf, "1:02:03");
    dm_clock_format(-5, buf, sizeof buf);
    assert_string_equal(buf, "0:00.0");
}

/* The default source is the monotonic clock: it never goes back. */
static void test_real_source(void **state)
{
    (void)state;
    dm_time_control tc;
    dm_error err;
    dm_clock c;
    assert_int_equal(dm_time_control_parse("5", &tc, &err), 0);
    dm_clock_init(&c, &tc, NULL, NULL);
    dm_clock_start(&c, DM_BLACK);
    int64_t a = dm_clock_left(&c, DM_BLACK), b = dm_clock_left(&c, DM_BLACK);
    assert_true(a <= 300000 && b <= a && b > 290000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),    cmocka_unit_test(test_sudden_death),
        cmocka_unit_test(test_fischer),  cmocka_unit_test(test_moves_in_time),
        cmocka_unit_test(test_per_move), cmocka_unit_test(test_none_and_takeback),
        cmocka_unit_test(test_format),   cmocka_unit_test(test_real_source),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
