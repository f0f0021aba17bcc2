/* SPDX-License-Identifier: MIT */
/*
 * game.h - what the game modules share beyond the public API: the draw rules
 * as data.
 *
 * A variant's draw rules under one preset are a repetition count and a short
 * list of counters (RULES.md 0.5).  Every counter is the same machine: it
 * counts plies (or the strong side's moves) while its material condition
 * holds, starts over on the moves its reset bits name or when the condition
 * fails, and draws the game when it reaches its limit.  The
 * king-only rules are counters with no material condition, reset by man
 * moves and captures; the endgame rules (FMJD-64 7.2.4-7.2.8, International's
 * 16 and 5 moves, Frisian's 2 v 1 and 1 v 1, the 3-kings rules) are counters
 * with one, reset by the capture or promotion that changes the material.
 */
#ifndef DM_GAME_GAME_H
#define DM_GAME_GAME_H

#include <stdbool.h>
#include <stdint.h>

#include "damier/game.h"

/* The kinds of ply that start a counter over (or, for rep_clear, after
 * which earlier positions stop counting for repetition). */
enum draw_reset {
    RESET_CAPTURE = 1,    /* any capture, and Hawaiian's opening removals */
    RESET_MAN_MOVE = 2,   /* any move of a man, a promotion included */
    RESET_PROMOTION = 4,  /* a man crowned */
    RESET_DIAG_ENTRY = 8, /* a king of the strong side steps onto the long
                           * diagonal (Portuguese 3 kings v 1)                */
};

/* When a counter runs.  "Lone king": a side whose only piece is a king; the
 * other side is the strong side. */
enum draw_material {
    MAT_ANY,                /* always */
    MAT_BOTH_KINGS_4_5,     /* both sides own a king, 4 or 5 pieces in all */
    MAT_BOTH_KINGS_6_7,     /* both sides own a king, 6 or 7 pieces in all */
    MAT_ONE_V_ONE,          /* one piece each, man or king */
    MAT_KINGS_3PLUS_V_KING, /* 3 or more kings, no men, v a lone king */
    MAT_KINGS_3_V_KING,     /* exactly 3 kings, no men, v a lone king */
    MAT_KINGS_2_V_KING,     /* 2 kings, no men, v a lone king */
    MAT_KING_V_KING,        /* a lone king each */
    MAT_3_WITH_KING_V_KING, /* 3 pieces, at least one a king, v a lone king */
    MAT_2_WITH_KING_V_KING, /* 1 or 2 pieces, at least one a king, v a lone king */
};

/* Where the long diagonal (a1-h8 on D8, h1-a8 on M8) matters. */
enum draw_diagonal {
    DIAG_ANY,        /* it does not */
    DIAG_WEAK_ALONE, /* the lone king stands on it, the only piece there */
    DIAG_STRONG,     /* a king of the strong side stands on it */
};

struct draw_counter {
    const char *reason;  /* the rule, as the result names it */
    uint16_t limit;      /* the count that draws; 0: at once */
    uint8_t reset;       /* enum draw_reset bits */
    uint8_t material;    /* enum draw_material */
    uint8_t diagonal;    /* enum draw_diagonal */
    bool strong_moves;   /* counts the strong side's moves ("within 13 of its
                          * moves"), not plies                                 */
    bool unless_capture; /* not while the side to move has a capture (Turkish) */
};

#define DRAW_MAX_COUNTERS 6

struct draw_rules {
    const char *source; /* where the rules come from, for the help */
    uint8_t repetition; /* occurrences that draw; 0: no repetition rule */
    uint8_t rep_clear;  /* enum draw_reset bits: earlier positions forgotten */
    struct draw_counter counter[DRAW_MAX_COUNTERS]; /* until reason is NULL */
};

/* The draw rules of v under a preset; never NULL (a variant without a row
 * gets DEFAULT_DRAW, RULES.md 0.5). */
const struct draw_rules *game_draw_rules(const dm_variant *v, enum dm_rules preset);

/* Whether v has a row of its own in the table (the tests check every
 * variant has). */
bool game_draw_rules_listed(const dm_variant *v);

#endif
