/* SPDX-License-Identifier: MIT */
/*
 * variant.h - a variant is a rules record: every per-variant fact, from the
 * board and the moves to the draw rules, the start position and the PDN
 * GameType (docs/variants.md tells each record in words).
 *
 * The table in variants.c declares each variant's fields, citing the rule
 * they come from; variant_conclude() checks each record once
 * (variant_check) and derives what the generators read (direction sets per
 * colour, promotion squares, the start position, which fast kernel serves
 * it).  Generators never test a variant's id.
 */
#ifndef DM_RULES_VARIANT_H
#define DM_RULES_VARIANT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "damier/rules.h"
#include "rules/geometry.h"
#include "rules/kernel_impl.h"

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
 * when it is never crowned (BrainKing's Alquerque). */
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

/* ---- draw rules ----------------------------------------------------------
 *
 * A variant's draw rules under one preset are a repetition count and a short
 * list of counters.  Every counter is the same machine (src/game/game.c runs
 * it): it counts plies (or the strong side's moves) while its material
 * condition holds, starts over on the moves its reset bits name or when the
 * condition fails, and draws the game when it reaches its limit.  The
 * king-only rules are counters with no material condition, reset by man
 * moves and captures; the endgame rules (FMJD-64 rules 7.2.4-7.2.8,
 * International's 16 and 5 moves, Frisian's 2 v 1 and 1 v 1, the 3-kings
 * rules) are counters with one, reset by the capture or promotion that
 * changes the material.
 */

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

/* ---- PDN GameType ---------------------------------------------------------- */

/* Whose number a record's GameType is. */
enum gametype_from {
    GAMETYPE_NONE,       /* no number: PDN names the variant in a Variant tag */
    GAMETYPE_PDN3,       /* the variant's own number in the PDN 3.0 table     */
    GAMETYPE_LIDRAUGHTS, /* lidraughts' private number (96-98); a Variant tag
                          * goes with it                                      */
    GAMETYPE_RELATIVE,   /* the nearest relative's number, so that a reader
                          * that knows only numbers gets the board and the
                          * notation; a Variant tag says which variant        */
};

struct gametype {
    uint8_t number;   /* 0 with GAMETYPE_NONE                                 */
    uint8_t from;     /* enum gametype_from                                   */
    char capture_sep; /* the capture separator the PDN 3.0 table gives the
                       * number (':' for 25, else 'x'); 0 without a number    */
};

/* ---- the record ----------------------------------------------------------- */

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
    bool linear_moves;           /* Dameo: a man may step over an unbroken run of
                                  * its own men ahead, onto the square after it */
    uint8_t man_jumps_later;     /* Alquerque: directions of a man's 2nd and later
                                  * jumps in one capture; 0: man_jumps          */
    enum far_row far_row;        /* Alquerque: a man on its far row, never crowned */
    bool straight_continuation;  /* Hawaiian: every later jump keeps the first
                                  * jump's direction                            */
    bool optional_continuation;  /* Hawaiian: a capture may stop after any jump, so
                                  * every prefix is a move of its own           */
    const char *opening_removals;/* Hawaiian: on a full board the side to move takes
                                  * one of its men off these cells; with one
                                  * hole, one of its men orthogonally next to
                                  * it (DM_MOVE_REMOVAL moves). NULL: none      */

    /* end */
    enum goal goal;
    const struct draw_rules *draw[2]; /* indexed by enum dm_rules: default,
                                       * official                            */

    /* notation (numbering is with the board) */
    char quiet_sep, capture_sep; /* '-' and 'x' or ':'                        */
    struct gametype gametype;    /* PDN GameType tag                          */

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
    dm_position start;           /* start_fen, read once                      */
    int men_per_side;            /* in the start position                     */
    int kernel;                  /* fast kernel serving it, or -1             */
    int kfull;                   /* kfull_for's kernel, or -1                 */
    struct kernel_rules krules;  /* the record as a dark-square kernel reads
                                  * it (kernel_prepare), read at every call   */
};

/* The table, concluded. */
const struct dm_variant *variant_table(int *count);

/*
 * Whether the declared fields of v (not the derived ones) make a sound
 * record: every cell name exists, the start FEN reads, both draw-rule sets
 * are there, no field contradicts another, and its id and GameType number
 * are its own in the table.  On false, why holds the reason (cut to size).
 * variant_conclude() aborts on a record that fails it.
 */
bool variant_check(const struct dm_variant *v, char *why, size_t size);

#endif
