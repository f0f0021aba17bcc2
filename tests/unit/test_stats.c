/* SPDX-License-Identifier: MIT */
/*
 * test_stats.c - the match statistics (src/match/stats.c) against values
 * worked out by hand: the Elo of a score, its 95 % interval from the
 * trinomial variance, and the GSPRT's ratio, bounds and verdicts.
 */
#include "testutil.h"

#include <math.h>

#include "match/stats.h"

static void near(double got, double want, const char *what)
{
    if (fabs(got - want) > 0.01)
        fail_msg("%s: %.4f, want %.4f", what, got, want);
}

static void test_elo(void **state)
{
    (void)state;
    struct match_tally none = {0, 0, 0};
    struct match_elo e = match_elo(&none);
    near(e.score, 0.5, "no games: score");
    assert_true(isinf(e.low) && e.low < 0 && isinf(e.high) && e.high > 0);

    /* 60 wins, 20 draws, 20 losses: score 0.7, variance 0.16, so the
     * standard error is 0.04 and the interval 0.7 +- 0.0784. */
    struct match_tally t = {60, 20, 20};
    e = match_elo(&t);
    near(e.score, 0.7, "score");
    near(e.elo, 147.19, "elo");
    near(e.low, 86.23, "low");
    near(e.high, 218.25, "high");

    struct match_tally even = {10, 80, 10};
    e = match_elo(&even);
    near(e.elo, 0, "even: elo");
    near(e.low, -e.high, "even: symmetric");

    struct match_tally all = {5, 0, 0};
    e = match_elo(&all);
    assert_true(isinf(e.elo) && e.elo > 0);
    near(match_expected_score(0), 0.5, "expected(0)");
    near(match_expected_score(400), 10.0 / 11.0, "expected(400)");
}

static void test_sprt(void **state)
{
    (void)state;
    struct match_sprt s = {0, 10, 0.05, 0.05};
    double lower, upper;
    match_sprt_bounds(&s, &lower, &upper);
    near(lower, -2.944, "lower");
    near(upper, 2.944, "upper");
    /* s0 = 0.5, s1 = 0.514387: llr = 100 * 0.014387 * (1.4 - 1.014387) / 0.32. */
    struct match_tally t = {60, 20, 20};
    near(match_sprt_llr(&t, &s), 1.7337, "llr");
    assert_int_equal(match_sprt_verdict(&t, &s), SPRT_CONTINUE);
    struct match_tally more = {600, 200, 200};
    near(match_sprt_llr(&more, &s), 17.337, "llr x10");
    assert_int_equal(match_sprt_verdict(&more, &s), SPRT_H1);
    struct match_tally worse = {200, 200, 600};
    assert_int_equal(match_sprt_verdict(&worse, &s), SPRT_H0);
    struct match_tally draws = {0, 50, 0};
    near(match_sprt_llr(&draws, &s), 0, "no spread");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elo),
        cmocka_unit_test(test_sprt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
