/* SPDX-License-Identifier: MIT */
/*
 * test_stats.c - the match statistics (src/match/stats.c) against values
 * worked out by hand: the Elo of a score, its 95 % interval from the
 * trinomial variance or the pairs' pentanomial one, and the GSPRT's
 * ratio, bounds and verdicts.
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

/* The pairs' estimate: the same score as the games', its interval from
 * the spread of the pairs' points. */
static void test_elo_pairs(void **state)
{
    (void)state;
    struct match_pairs none = {{0, 0, 0, 0, 0}};
    struct match_elo e = match_elo_pairs(&none);
    assert_true(isinf(e.low) && e.low < 0 && isinf(e.high) && e.high > 0);

    /* Every opening won by the side it favours, once by each player:
     * 20 wins and 20 losses, whose games' interval is +-111 Elo, but no
     * spread between the pairs at all. */
    struct match_pairs split = {{0, 0, 20, 0, 0}};
    e = match_elo_pairs(&split);
    near(e.score, 0.5, "split: score");
    near(e.low, 0, "split: low");
    near(e.high, 0, "split: high");
    struct match_tally games = {20, 0, 20};
    near(match_elo(&games).low, -111.32, "split as games: low");

    /* Ten pairs won twice and ten lost twice: variance 1/4 a pair, the
     * standard error sqrt(0.25 / 20), the score 0.5 -+ 0.21913. */
    struct match_pairs apart = {{10, 0, 0, 0, 10}};
    e = match_elo_pairs(&apart);
    near(e.elo, 0, "apart: elo");
    near(e.low, -163.32, "apart: low");

    /* 69 pairs 0-0-7-23-39: score 59.75 / 69 = 0.865942, variance
     * 0.028224, margin 1.959964 * sqrt(0.028224 / 69) = 0.039640. */
    struct match_pairs p = {{0, 0, 7, 23, 39}};
    e = match_elo_pairs(&p);
    near(e.score, 0.865942, "score");
    near(e.elo, 324.07, "elo");
    near(e.low, 270.94, "low");
    near(e.high, 392.75, "high");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elo),
        cmocka_unit_test(test_elo_pairs),
        cmocka_unit_test(test_sprt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
