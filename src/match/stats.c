/* SPDX-License-Identifier: MIT */
/*
 * stats.c - the Elo estimate and the SPRT of stats.h.
 */
#include "match/stats.h"

#include <math.h>

double match_expected_score(double elo)
{
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

static double elo_of(double score)
{
    if (score <= 0)
        return -HUGE_VAL;
    if (score >= 1)
        return HUGE_VAL;
    return -400.0 * log10(1.0 / score - 1.0);
}

/* Mean and variance of one game's points. */
static void moments(const struct match_tally *t, double *mean, double *var)
{
    double n = t->wins + t->draws + t->losses;
    double s = (t->wins + 0.5 * t->draws) / n;
    *mean = s;
    *var = (t->wins * (1 - s) * (1 - s) + t->draws * (0.5 - s) * (0.5 - s) +
            t->losses * s * s) /
           n;
}

struct match_elo match_elo(const struct match_tally *t)
{
    struct match_elo e = {0.5, 0, -HUGE_VAL, HUGE_VAL};
    int n = t->wins + t->draws + t->losses;
    if (n == 0)
        return e;
    double s, var;
    moments(t, &s, &var);
    double margin = 1.959964 * sqrt(var / n);
    e.score = s;
    e.elo = elo_of(s);
    e.low = elo_of(s - margin);
    e.high = elo_of(s + margin);
    return e;
}

struct match_elo match_elo_pairs(const struct match_pairs *p)
{
    struct match_elo e = {0.5, 0, -HUGE_VAL, HUGE_VAL};
    double n = 0, sum = 0;
    for (int k = 0; k < 5; k++) {
        n += p->n[k];
        sum += p->n[k] * k / 4.0;
    }
    if (n == 0)
        return e;
    double s = sum / n, var = 0;
    for (int k = 0; k < 5; k++)
        var += p->n[k] * (k / 4.0 - s) * (k / 4.0 - s);
    var /= n;
    double margin = 1.959964 * sqrt(var / n);
    e.score = s;
    e.elo = elo_of(s);
    e.low = elo_of(s - margin);
    e.high = elo_of(s + margin);
    return e;
}

double match_sprt_llr(const struct match_tally *t, const struct match_sprt *sp)
{
    int n = t->wins + t->draws + t->losses;
    if (n == 0)
        return 0;
    double s, var;
    moments(t, &s, &var);
    if (var <= 0)
        return 0; /* every game alike: no spread to judge by yet */
    double s0 = match_expected_score(sp->elo0), s1 = match_expected_score(sp->elo1);
    return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var);
}

void match_sprt_bounds(const struct match_sprt *s, double *lower, double *upper)
{
    *lower = log(s->beta / (1 - s->alpha));
    *upper = log((1 - s->beta) / s->alpha);
}

enum sprt_verdict match_sprt_verdict(const struct match_tally *t, const struct match_sprt *s)
{
    double lower, upper, llr = match_sprt_llr(t, s);
    match_sprt_bounds(s, &lower, &upper);
    return llr >= upper ? SPRT_H1 : llr <= lower ? SPRT_H0 : SPRT_CONTINUE;
}
