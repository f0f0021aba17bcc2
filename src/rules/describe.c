/* SPDX-License-Identifier: MIT */
/*
 * describe.c - a variant's rules record told in words.
 *
 * `damier variants --markdown` writes docs/variants.md from this, so the
 * documentation is generated from the same table the generators read.
 */
#include <stdio.h>

#include "rules/variant.h"

static const char *dirs_text(uint8_t dirs)
{
    const uint8_t fwd = DIRBIT(DIR_NE) | DIRBIT(DIR_NW);
    const uint8_t side = DIRBIT(DIR_E) | DIRBIT(DIR_W);
    if (dirs == fwd)
        return "diagonally forward";
    if (dirs == DIRS_DIAG)
        return "diagonally, forward and backward";
    if (dirs == DIRS_ALL)
        return "in all eight directions";
    if (dirs == DIRS_ORTH)
        return "orthogonally, forward, backward and sideways";
    if (dirs == (DIRBIT(DIR_N) | side))
        return "straight forward or sideways";
    if (dirs == (DIRBIT(DIR_N) | side | fwd))
        return "forward, diagonally forward or sideways";
    if (dirs == (DIRBIT(DIR_N) | fwd))
        return "straight or diagonally forward";
    if (dirs == 0)
        return "nowhere";
    return "in the directions of its record";
}

static const char *promotion_text(enum promotion p)
{
    switch (p) {
    case PROMOTE_NONE:
        return "men are never crowned";
    case PROMOTE_END_ONLY:
        return "crowned only when the move ends on the last row (a man passing it mid-capture "
               "goes on as a man)";
    case PROMOTE_STOP:
        return "reaching the last row ends the move and crowns the man";
    case PROMOTE_CONTINUE_AS_KING:
        return "crowned at once, even mid-capture, and goes on capturing as a king";
    }
    return "";
}

static const char *precedence_text(unsigned p)
{
    switch (p) {
    case 0:
        return "free choice among captures (a capture must be completed)";
    case PREC_QUANTITY:
        return "the most pieces";
    case PREC_QUANTITY | PREC_MOST_KINGS:
        return "the most pieces, then the most kings";
    case PREC_WITH_KING:
        return "a king that can capture must; free choice otherwise";
    case PREC_VALUE | PREC_WITH_KING:
        return "the highest value (a man 100, a king 199), then a king captor";
    case PREC_QUANTITY | PREC_WITH_KING | PREC_MOST_KINGS | PREC_EARLIEST_KINGS:
        return "the most pieces, then a king captor, then the most kings, then the kings met "
               "soonest";
    }
    return "as its record says";
}

/* The special rules of the orthogonal games, one "special:" line each;
 * returns the length they need, as snprintf. */
static int describe_section4(const dm_variant *v, char *buf, size_t size)
{
    const char *far_row = v->far_row == FAR_ROW_CAPTURES_ONLY
                              ? "special: a man on the last row makes no plain move, but may "
                                "capture\n"
                          : v->far_row == FAR_ROW_STUCK
                              ? "special: a man on the last row neither moves nor captures\n"
                              : "";
    return snprintf(
        buf, size, "%s%s%s%s%s%s%s%s%s%s",
        v->linear_moves ? "special: a man may step over an unbroken line of its own men "
                          "ahead of it onto the square after it (linear move)\n"
                        : "",
        v->man_jumps_later ? "special: after the first jump of a capture a man jumps " : "",
        v->man_jumps_later ? dirs_text(v->man_jumps_later) : "",
        v->man_jumps_later ? "\n" : "", far_row,
        v->straight_continuation ? "special: a capture goes on only in the direction of its "
                                   "first jump\n"
                                 : "",
        v->optional_continuation ? "special: a capture may stop after any jump\n" : "",
        v->opening_removals ? "special: on the full board the side to move first takes one of "
                              "its men off "
                            : "",
        v->opening_removals ? v->opening_removals : "",
        v->opening_removals ? "; with one hole, one of its men next to it\n" : "");
}

int dm_variant_describe(const dm_variant *v, char *buf, size_t size)
{
    static const char *const king_text[] = {"none", "short (one square)",
                                            "flying (any distance)"};
    static const char *const landing_text[] = {
        "any empty square beyond the captured piece", "the square right behind the captured piece",
        "right behind the last piece taken when it is a king, else any square beyond"};
    static const char *const goal_text[] = {
        "the side that cannot move loses", "the side that cannot move wins",
        "the first side to crown a king wins; the side that cannot move loses"};
    const struct geometry *g = v->geo;
    const char *numbering = v->numbering == NUM_ALGEBRAIC ? "algebraic (a1 bottom left)"
                            : v->numbering == NUM_IBER     ? "numbers 1-32 from White's right"
                                                           : "numbers from the top left";
    int len = snprintf(buf, size,
                    "board: %s, %d cells, squares %s\n"
                    "men move: %s\n"
                    "men capture: %s%s\n"
                    "kings: %s%s%s\n"
                    "king landing: %s\n"
                    "captured pieces: %s%s\n"
                    "promotion: %s\n"
                    "capture precedence: %s\n"
                    "goal: %s\n"
                    "start: %s\n"
                    "%s%s%s%s%s",
                    g->name, g->ncells, numbering, dirs_text(v->man_steps),
                    dirs_text(v->man_jumps), v->man_spares_kings ? " (never a king)" : "",
                    king_text[v->king], v->king != KING_NONE ? ", capture " : "",
                    v->king != KING_NONE ? dirs_text(v->king_jumps) : "",
                    landing_text[v->king == KING_FLYING ? v->landing : LAND_ADJACENT],
                    v->removal == REMOVE_IMMEDIATE ? "removed at once"
                                                   : "removed when the move ends",
                    v->reversal_ban ? "; no 180-degree turn between jumps" : "",
                    promotion_text(v->promotion), precedence_text(v->precedence),
                    goal_text[v->goal], v->start_fen,
                    v->one_way ? "special: the men of both colours move towards the top rank\n"
                               : "",
                    v->parachutes ? "special: parachutists (P in FEN) only capture, jumping "
                                    "from the enemy back row over the rank in front of it, "
                                    "and land as men\n"
                                  : "",
                    v->promo_cells ? "special: men are crowned only on the squares "
                                     "(White/Black) "
                                   : "",
                    v->promo_cells ? v->promo_cells : "", v->promo_cells ? "\n" : "");
    return len + describe_section4(v, buf + (len < (int)size ? len : (int)size),
                                   len < (int)size ? size - (size_t)len : 0);
}
