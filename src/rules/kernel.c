/* SPDX-License-Identifier: MIT */
/*
 * kernel.c - which fast bitboard generator serves a variant, and the calls
 * into it.
 *
 * Five kernels are compiled from one body (kernel_body.h): 8x8 with short
 * or flying kings, 10x10 with diagonal or eight-direction captures, 12x12.
 * kernel_for() picks one from the record's fields alone, and only when every
 * field is one the body implements; anything else (immediate removal,
 * parachutists, one-way men, the orthogonal boards, ...) stays on the
 * reference generator.  Each call reads the record into a struct
 * kernel_rules, a few masks and switches the body tests once per node.
 */
#include "rules/kernel.h"

#include "rules/kernel_impl.h"
#include "rules/variant.h"

enum kernel_id {
    KERNEL_D8_SHORT,
    KERNEL_D8_FLY,
    KERNEL_D10_FLY,
    KERNEL_D10_ORTH,
    KERNEL_D12_FLY,
};

static const struct kernel_entry {
    int (*generate)(const struct kernel_rules *r, const dm_position *pos, dm_move_list *list,
                    unsigned flags);
    uint64_t (*perft)(const struct kernel_rules *r, const dm_position *pos, int depth,
                      unsigned flags);
} kernels[] = {
    [KERNEL_D8_SHORT] = {k_d8_short_generate, k_d8_short_perft},
    [KERNEL_D8_FLY] = {k_d8_fly_generate, k_d8_fly_perft},
    [KERNEL_D10_FLY] = {k_d10_fly_generate, k_d10_fly_perft},
    [KERNEL_D10_ORTH] = {k_d10_orth_generate, k_d10_orth_perft},
    [KERNEL_D12_FLY] = {k_d12_fly_generate, k_d12_fly_perft},
};

#define FWD_DIAG_DIRS (DIRBIT(DIR_NE) | DIRBIT(DIR_NW))

/* Whether the record's movement is what every kernel body implements: men
 * step diagonally forwards and jump in a set the M8 mirror leaves alone,
 * kings move diagonally, captured pieces stay until the move ends, and none
 * of the special rules of the other families. */
static bool movement_fits(const struct dm_variant *v)
{
    unsigned man = v->man_jumps, king = v->king_jumps;
    bool man_ok = man == FWD_DIAG_DIRS || man == DIRS_DIAG || man == DIRS_ALL;
    bool king_ok = king == DIRS_DIAG || king == DIRS_ALL;
    return man_ok && king_ok && v->man_steps == FWD_DIAG_DIRS && v->king_steps == DIRS_DIAG &&
           !v->one_way && !v->parachutes && !v->reversal_ban && v->removal == REMOVE_DEFERRED &&
           (v->landing == LAND_ANY || v->landing == LAND_ADJACENT_IF_KING) && !v->linear_moves &&
           (v->man_jumps_later == 0 || v->man_jumps_later == man) && v->far_row == FAR_ROW_FREE &&
           !v->straight_continuation && !v->optional_continuation && !v->opening_removals;
}

int kernel_for(const struct dm_variant *v)
{
    enum geometry_id g = v->geometry;
    bool d8 = g == GEOM_D8 || g == GEOM_M8;
    if ((!d8 && g != GEOM_D10 && g != GEOM_D12) || !movement_fits(v))
        return -1;
    /* The orthogonal kernel is compiled for men that jump every way. */
    bool orth = ((v->man_jumps | v->king_jumps) & DIRS_ORTH) != 0;
    if (orth && v->man_jumps != DIRS_ALL)
        return -1;
    if (v->king == KING_SHORT)
        return d8 && !orth ? KERNEL_D8_SHORT : -1;
    if (v->king != KING_FLYING)
        return -1;
    if (g == GEOM_D10)
        return orth ? KERNEL_D10_ORTH : KERNEL_D10_FLY;
    if (orth)
        return -1;
    return d8 ? KERNEL_D8_FLY : KERNEL_D12_FLY;
}

/* The record as the kernel bodies read it. */
static void rules_of(const struct dm_variant *v, struct kernel_rules *r)
{
    r->man_jump_dirs[DM_WHITE] = v->man_jump_dirs[DM_WHITE];
    r->man_jump_dirs[DM_BLACK] = v->man_jump_dirs[DM_BLACK];
    r->king_jump_dirs = v->king_jump_dirs;
    r->promotion = (uint8_t)v->promotion;
    r->precedence = v->precedence;
    r->killer = v->landing == LAND_ADJACENT_IF_KING;
    r->spares_kings = v->man_spares_kings;
    r->first_king_ends = v->goal == GOAL_FIRST_KING;
    r->king_limit = v->frisian_king_limit;
    r->mirrored = v->geometry == GEOM_M8;
    r->promo_cells[DM_WHITE] = v->promo_bb[DM_WHITE];
    r->promo_cells[DM_BLACK] = v->promo_bb[DM_BLACK];
}

int kernel_generate(const struct dm_variant *v, const dm_position *pos, dm_move_list *list,
                    unsigned flags)
{
    struct kernel_rules r;
    rules_of(v, &r);
    return kernels[v->kernel].generate(&r, pos, list, flags);
}

uint64_t kernel_perft(const struct dm_variant *v, const dm_position *pos, int depth, unsigned flags)
{
    struct kernel_rules r;
    rules_of(v, &r);
    return kernels[v->kernel].perft(&r, pos, depth, flags);
}
