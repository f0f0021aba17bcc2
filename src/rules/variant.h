/* SPDX-License-Identifier: MIT */
/*
 * variant.h - a variant is a rules record (RULES.md 0.2).
 *
 * The table in variants.c declares each variant's fields, citing the rule
 * they come from; variant_conclude() checks each record once and derives what
 * the generators read (direction sets per colour, promotion squares, which
 * fast kernel serves it).  Generators never test a variant's id.
 */
#ifndef DM_RULES_VARIANT_H
#define DM_RULES_VARIANT_H

#include <stdbool.h>
#include <stdint.h>

#include "damier/rules.h"
#include "rules/geometry.h"

enum numbering {
    NUM_TOP,       /* 1 = top-left playing square (FMJD, WCDF; FID on M8)       */
    NUM_IBER,      /* 1 = bottom-right, right to left, upwards (Spanish, Portug.) */
    NUM_ALGEBRAIC, /* a1 .. h8                                                  */
};

enum king_range { KING_NONE, KING_SHORT, KING_FLYING };

enum landing {
    LAND_ANY,               /* any empty square beyond the captured piece     */
    LAND_ADJACENT,          /* only the square directly behind it (Thai)      */
    LAND_ADJACENT_IF_KING,  /* behind the last piece taken if a king (Killer) */
};

enum removal {
    REMOVE_DEFERRED,  /* captured pieces stay as blockers until the move ends */
    REMOVE_IMMEDIATE, /* each captured piece leaves at once                  */
};

enum promotion {
    PROMOTE_NONE,             /* men stay men (Alquerque, Hawaiian)            */
    PROMOTE_END_ONLY,         /* crowned only if the move ends on a promo cell */
    PROMOTE_STOP,             /* reaching the promo row by a jump ends the move */
    PROMOTE_CONTINUE_AS_KING, /* crowned at once, keeps capturing as a king    */
};

/* Capture precedence filters, applied in this order to complete sequences. */
enum precedence {
    PREC_QUANTITY = 1,       /* most pieces                                    */
    PREC_VALUE = 2,          /* Frisian: most value, 100 a man, 199 a king     */
    PREC_WITH_KING = 4,      /* a king captor beats a man captor               */
    PREC_MOST_KINGS = 8,     /* most kings captured                            */
    PREC_EARLIEST_KINGS = 16,/* Italian: kings met sooner                      */
};

/* What a man on its far row (the promotion row of its colour) may still do
 * when it is never crowned (4.4). */
enum far_row {
    FAR_ROW_FREE,          /* moves and captures as anywhere else             */
    FAR_ROW_CAPTURES_ONLY, /* no plain move; it may still start a capture     */
    FAR_ROW_STUCK,         /* neither                                         */
};

enum goal {
    GOAL_NO_MOVE_LOSES,
    GOAL_NO_MOVE_WINS,   /* giveaway: the side that cannot move wins         */
    GOAL_FIRST_KING,     /* Breakthrough: crowning wins; no move still loses */
};

struct dm_variant {
    /* identity */
    const char *id;
    const char *name;
    const char *summary;
    const char *parent;          /* id of the record this one amends, or NULL  */

    /* board and start */
    enum geometry_id geometry;
    enum numbering numbering;
    const char *start_fen;       /* in the variant's own notation             */

    /* movement, for White (Black's mirror north/south unless one_way) */
    uint8_t man_steps;           /* quiet step directions of a man            */
    uint8_t man_jumps;           /* jump directions of a man                  */
    bool man_spares_kings;       /* Italian: a man may not capture a king     */
    enum king_range king;
    uint8_t king_steps;          /* directions a king moves in                */
    uint8_t king_jumps;          /* directions a king captures in             */
    enum landing landing;
    enum removal removal;
    bool reversal_ban;           /* no 180-degree turn between two jumps      */
    enum promotion promotion;
    const char *promo_cells;     /* "a7,b8/g1,h2": White/Black; NULL: last row */

    /* capture */
    unsigned precedence;         /* enum precedence bits                      */

    /* special pieces and rules */
    bool one_way;                /* both colours move towards the top rank     */
    bool parachutes;             /* Parachute checkers' parachutists           */
    bool frisian_king_limit;     /* same king: at most 3 quiet moves in a row  */
    bool linear_moves;           /* 4.2: a man may step over an unbroken run of
                                  * its own men ahead, onto the square after it */
    uint8_t man_jumps_later;     /* 4.4: directions of a man's 2nd and later
                                  * jumps in one capture; 0: man_jumps          */
    enum far_row far_row;        /* 4.4: a man on its far row, never crowned    */
    bool straight_continuation;  /* 4.5: every later jump keeps the first
                                  * jump's direction                            */
    bool optional_continuation;  /* 4.5: a capture may stop after any jump, so
                                  * every prefix is a move of its own           */
    const char *opening_removals;/* 4.5: on a full board the side to move takes
                                  * one of its men off these cells; with one
                                  * hole, one of its men orthogonally next to
                                  * it (DM_MOVE_REMOVAL moves). NULL: none      */

    /* end */
    enum goal goal;

    /* notation */
    char quiet_sep, capture_sep; /* '-' and 'x' or ':'                        */

    /* derived by variant_conclude() */
    const struct geometry *geo;
    uint8_t man_step_dirs[2];    /* per colour                                 */
    uint8_t man_jump_dirs[2];
    uint8_t man_later_jump_dirs[2];
    uint8_t para_jump_dirs[2];
    uint8_t king_step_dirs;
    uint8_t king_jump_dirs;
    dm_bits promo_bb[2];         /* where each colour's men are crowned       */
    dm_bits para_target_bb[2];   /* the rank a parachutist may jump over      */
    dm_bits far_row_bb[2];       /* each colour's last row                    */
    dm_bits opening_bb;          /* the opening_removals cells                */
    int men_per_side;            /* in the start position                     */
    int kernel;                  /* fast kernel serving it, or -1             */
};

/* The table, concluded. */
const struct dm_variant *variant_table(int *count);

#endif
