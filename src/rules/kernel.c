/* SPDX-License-Identifier: MIT */
/*
 * kernel.c - which fast bitboard generator serves a variant, and the calls
 * into it.
 *
 * Nine kernels are compiled from one body (kernel_body.h) for the dark
 * squares: 8x8 with short kings, with flying kings and men that take
 * backwards too or forwards only, 10x10 with diagonal or eight-direction
 * captures, 12x12, and three 8x8 flying ones for one special rule each,
 * compiled in so that the common kernels test nothing more: kings landing
 * right behind with pieces leaving at once (Thai), men of both colours
 * going north (One Way), parachutists (Parachute).  The men's jump
 * directions are compiled into each (the bulk counts test them at every
 * node).  kernel_for() picks one from the record's fields alone, and only
 * when every field is one the kernel implements; the full board and the
 * alquerque grid go to kfull.c; anything else (Turkish's reversal ban on
 * the dark squares, ...) stays on the reference generator.  Each call reads
 * the record into a struct kernel_rules, a few masks and switches the body
 * tests once per node.
 */
#include "rules/kernel.h"

#include <string.h>

#include "rules/kernel_impl.h"
#include "rules/kfull.h"
#include "rules/variant.h"

enum kernel_id {
    KERNEL_D8_SHORT,
    KERNEL_D8_FLY,
    KERNEL_D10_FLY,
    KERNEL_D10_ORTH,
    KERNEL_D12_FLY,
    KERNEL_FULL, /* kfull.c: the full 8x8 board and the alquerque grid */
    KERNEL_D8_FLY_ADJACENT,
    KERNEL_D8_FLY_ONE_WAY,
    KERNEL_D8_FLY_PARAS,
    KERNEL_D8_FLY_FWD,
};

#define FWD_DIAG_DIRS  (DIRBIT(DIR_NE) | DIRBIT(DIR_NW))
#define BACK_DIAG_DIRS (DIRBIT(DIR_SE) | DIRBIT(DIR_SW))

/* The rules a kernel reads at run time only if compiled to (K_KILLER,
 * K_FIRST_KING, K_KING_LIMIT in kernel_body.h). */
enum kernel_option {
    KOPT_KILLER = 1,     /* LAND_ADJACENT_IF_KING                            */
    KOPT_FIRST_KING = 2, /* GOAL_FIRST_KING                                  */
    KOPT_KING_LIMIT = 4, /* frisian_king_limit                               */
    KOPT_CZECH = 8,      /* compiled in (K_CZECH): the record must have them */
};

/* The entry points of each kernel, the directions its men jump in (for
 * White; Black's mirror them, or equal them in the one-way kernel), which
 * are compiled in, and the options it reads. */
static const struct kernel_entry {
    int (*generate)(const struct kernel_rules *r, const dm_position *pos, dm_move_list *list,
                    unsigned flags);
    uint64_t (*perft)(const struct kernel_rules *r, const dm_position *pos, int depth,
                      unsigned flags);
    int (*leaf)(const struct kernel_rules *r, const dm_position *pos);
    unsigned man_jumps;
    unsigned options; /* enum kernel_option bits */
} kernels[] = {
    [KERNEL_D8_SHORT] = {k_d8_short_generate, k_d8_short_perft, k_d8_short_leaf, FWD_DIAG_DIRS, 0},
    [KERNEL_D8_FLY] = {k_d8_fly_generate, k_d8_fly_perft, k_d8_fly_leaf, DIRS_DIAG, 0},
    [KERNEL_D10_FLY] = {k_d10_fly_generate, k_d10_fly_perft, k_d10_fly_leaf, DIRS_DIAG,
                        KOPT_KILLER | KOPT_FIRST_KING},
    [KERNEL_D10_ORTH] = {k_d10_orth_generate, k_d10_orth_perft, k_d10_orth_leaf, DIRS_ALL,
                         KOPT_KING_LIMIT},
    [KERNEL_D12_FLY] = {k_d12_fly_generate, k_d12_fly_perft, k_d12_fly_leaf, DIRS_DIAG, 0},
    [KERNEL_D8_FLY_ADJACENT] = {k_d8_fly_adjacent_generate, k_d8_fly_adjacent_perft,
                                k_d8_fly_adjacent_leaf, FWD_DIAG_DIRS, 0},
    [KERNEL_D8_FLY_ONE_WAY] = {k_d8_fly_one_way_generate, k_d8_fly_one_way_perft,
                               k_d8_fly_one_way_leaf, FWD_DIAG_DIRS, KOPT_CZECH},
    [KERNEL_D8_FLY_PARAS] = {k_d8_fly_paras_generate, k_d8_fly_paras_perft, k_d8_fly_paras_leaf,
                             FWD_DIAG_DIRS, KOPT_CZECH},
    [KERNEL_D8_FLY_FWD] = {k_d8_fly_fwd_generate, k_d8_fly_fwd_perft, k_d8_fly_fwd_leaf,
                           FWD_DIAG_DIRS, 0},
};

/* Whether the record's movement is what every kernel body implements: men
 * step diagonally forwards and jump in a set the M8 mirror leaves alone,
 * kings move diagonally, and none of the special rules of the other
 * families.  The rules that kernels of their own implement are weighed by
 * d8_fly_kernel(). */
static bool movement_fits(const struct dm_variant *v)
{
    unsigned man = v->man_jumps, king = v->king_jumps;
    bool man_ok = man == FWD_DIAG_DIRS || man == DIRS_DIAG || man == DIRS_ALL;
    bool king_ok = king == DIRS_DIAG || king == DIRS_ALL;
    return man_ok && king_ok && v->man_steps == FWD_DIAG_DIRS && v->king_steps == DIRS_DIAG &&
           !v->reversal_ban && !v->linear_moves &&
           (v->man_jumps_later == 0 || v->man_jumps_later == man) && v->far_row == FAR_ROW_FREE &&
           !v->straight_continuation && !v->optional_continuation && !v->opening_removals;
}

/* Whether the record has one of the rules only the 8x8 flying kernels of
 * their own implement. */
static bool special_rules(const struct dm_variant *v)
{
    return v->landing == LAND_ADJACENT || v->removal != REMOVE_DEFERRED || v->one_way ||
           v->parachutes;
}

/* The 8x8 flying-king kernel for the record: a plain one, or the one
 * compiled for its special rule; one such rule at most.  Pieces leaving at
 * once are compiled only with kings landing right behind (the straight-on
 * routes of a king landing anywhere would need more), and a parachutist's
 * first jump only backwards for its colour (BrainKing's Parachute rules). */
static int d8_fly_kernel(const struct dm_variant *v)
{
    bool adjacent = v->landing == LAND_ADJACENT, immediate = v->removal == REMOVE_IMMEDIATE;
    if (adjacent != immediate || adjacent + v->one_way + v->parachutes > 1)
        return -1;
    if (adjacent)
        return KERNEL_D8_FLY_ADJACENT;
    if (v->one_way)
        return KERNEL_D8_FLY_ONE_WAY;
    if (!v->parachutes)
        return v->man_jumps == FWD_DIAG_DIRS ? KERNEL_D8_FLY_FWD : KERNEL_D8_FLY;
    if (v->para_jump_dirs[DM_WHITE] != BACK_DIAG_DIRS ||
        v->para_jump_dirs[DM_BLACK] != FWD_DIAG_DIRS)
        return -1;
    return KERNEL_D8_FLY_PARAS;
}

/* The dark-square kernel for the record's board, kings and special rules,
 * or -1. */
static int kernel_for_rules(const struct dm_variant *v)
{
    enum geometry_id g = v->geometry;
    bool d8 = g == GEOM_D8 || g == GEOM_M8;
    if ((!d8 && g != GEOM_D10 && g != GEOM_D12) || !movement_fits(v))
        return -1;
    /* The orthogonal kernel is compiled for men that jump every way. */
    bool orth = ((v->man_jumps | v->king_jumps) & DIRS_ORTH) != 0;
    if (orth && v->man_jumps != DIRS_ALL)
        return -1;
    if (d8 && !orth && v->king == KING_FLYING)
        return d8_fly_kernel(v);
    if (special_rules(v))
        return -1;
    if (v->king == KING_SHORT)
        return d8 && !orth ? KERNEL_D8_SHORT : -1;
    if (v->king != KING_FLYING)
        return -1;
    if (g == GEOM_D10)
        return orth ? KERNEL_D10_ORTH : KERNEL_D10_FLY;
    if (orth)
        return -1;
    return KERNEL_D12_FLY;
}

/* The options the record needs (enum kernel_option). */
static unsigned options_of(const struct dm_variant *v)
{
    return (v->landing == LAND_ADJACENT_IF_KING ? KOPT_KILLER : 0) |
           (v->goal == GOAL_FIRST_KING ? KOPT_FIRST_KING : 0) |
           (v->frisian_king_limit ? KOPT_KING_LIMIT : 0);
}

/* Whether the record has the rules K_CZECH compiles in (kernel_body.h): a
 * king captor first and nothing else, men that take kings, men crowned
 * where a move ends, on the far row of their way (the top one for both
 * colours with one_way), and parachutists' first prey on the row in front
 * of the enemy's back row. */
static bool czech_rules(const struct dm_variant *v)
{
    const struct geometry *g = v->geo;
    int top = g->ranks - 1;
    bool paras_fit = !v->parachutes || (v->para_target_bb[DM_WHITE] == g->rank_bb[top - 1] &&
                                        v->para_target_bb[DM_BLACK] == g->rank_bb[1]);
    return v->precedence == PREC_WITH_KING && v->promotion == PROMOTE_END_ONLY &&
           !v->man_spares_kings && v->promo_bb[DM_WHITE] == g->rank_bb[top] &&
           v->promo_bb[DM_BLACK] == g->rank_bb[v->one_way ? top : 0] && paras_fit;
}

/* Decides with kernel_for_rules, then checks the men's jump directions, the
 * options, and the rules a kernel has compiled in. */
static int dark_kernel(const struct dm_variant *v)
{
    int k = kernel_for_rules(v);
    if (k < 0 || kernels[k].man_jumps != v->man_jumps || (options_of(v) & ~kernels[k].options))
        return -1;
    if ((kernels[k].options & KOPT_CZECH) && !czech_rules(v))
        return -1;
    return k;
}

int kernel_for(const struct dm_variant *v)
{
    if (kfull_for(v) >= 0)
        return KERNEL_FULL;
    return dark_kernel(v);
}

/* The record as the kernel bodies read it. */
static void rules_of(const struct dm_variant *v, struct kernel_rules *r)
{
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
    r->para_cells[DM_WHITE] = v->para_target_bb[DM_WHITE];
    r->para_cells[DM_BLACK] = v->para_target_bb[DM_BLACK];
}

int kernel_generate(const struct dm_variant *v, const dm_position *pos, dm_move_list *list,
                    unsigned flags)
{
    if (v->kernel == KERNEL_FULL)
        return kfull_kernel_at(v->kfull)->generate(v, pos, list, flags);
    return kernels[v->kernel].generate(&v->krules, pos, list, flags);
}

uint64_t kernel_perft(const struct dm_variant *v, const dm_position *pos, int depth, unsigned flags)
{
    if (v->kernel == KERNEL_FULL)
        return kfull_kernel_at(v->kfull)->perft(v, pos, depth, flags);
    return kernels[v->kernel].perft(&v->krules, pos, depth, flags);
}

int kernel_leaf(const struct dm_variant *v, const dm_position *pos)
{
    if (v->kernel == KERNEL_FULL)
        return kfull_kernel_at(v->kfull)->leaf(v, pos);
    if (v->kernel < 0)
        return -1;
    return kernels[v->kernel].leaf(&v->krules, pos);
}

void kernel_prepare(struct dm_variant *v)
{
    rules_of(v, &v->krules);
}

_Thread_local struct capture_memo kernel_capture_memo;

uint32_t kernel_capture_memo_stamp(void)
{
    struct capture_memo *m = &kernel_capture_memo;
    if (++m->stamp == 0) {
        memset(m->slots, 0, sizeof m->slots);
        m->stamp = 1;
    }
    return m->stamp;
}
