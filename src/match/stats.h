/* SPDX-License-Identifier: MIT */
/*
 * stats.h - what a match's results say: the score, an Elo difference with
 * its 95 % interval, and the sequential probability ratio test that stops
 * a match once the evidence is enough.
 *
 * The Elo difference comes from the mean score by the logistic curve; its
 * interval from the variance of the game results (wins, draws and losses
 * as a trinomial), or of the colour-reversed pairs' (pentanomial), as the
 * engine-testing frameworks compute them.  The SPRT
 * is the generalised one (GSPRT, the normal approximation of the
 * log-likelihood ratio between elo0 and elo1 that fishtest uses).
 */
#ifndef DM_MATCH_STATS_H
#define DM_MATCH_STATS_H

#include <stdbool.h>

struct match_tally {
    int wins, draws, losses; /* of the first player */
};

struct match_elo {
    double score;  /* mean points a game of the first player, 0..1   */
    double elo;    /* its Elo difference                              */
    double low, high; /* the 95 % interval of elo                     */
};

/* The Elo estimate; with no games, or a score of 0 or 1, the bounds are
 * infinite (HUGE_VAL with the sign). */
struct match_elo match_elo(const struct match_tally *t);

/*
 * The colour-reversed pairs of games played from one opening, by the first
 * player's points in the pair: n[k] pairs of k / 2 points, k = 0
 * (both lost) to 4 (both won).  A pair's two games share their opening,
 * whose bias for one side the pair cancels: the variance of the pairs'
 * points (pentanomial, as fishtest counts them) is the honest one when
 * openings favour a colour, and the smaller.
 */
struct match_pairs {
    int n[5];
};

/* The Elo estimate from the pairs alone, its interval from the variance of
 * the pairs' points; as match_elo for no pairs or a pair score of 0 or 1. */
struct match_elo match_elo_pairs(const struct match_pairs *p);

/* The expected score of a player elo stronger (logistic). */
double match_expected_score(double elo);

enum sprt_verdict { SPRT_CONTINUE, SPRT_H0, SPRT_H1 };

struct match_sprt {
    double elo0, elo1;  /* H0: elo = elo0; H1: elo = elo1               */
    double alpha, beta; /* error rates                                   */
};

/* The log-likelihood ratio of the tally and the test's bounds; the verdict
 * once the ratio leaves them (H1 accepted above, H0 below). */
double match_sprt_llr(const struct match_tally *t, const struct match_sprt *s);
void match_sprt_bounds(const struct match_sprt *s, double *lower, double *upper);
enum sprt_verdict match_sprt_verdict(const struct match_tally *t, const struct match_sprt *s);

#endif
