/* SPDX-License-Identifier: MIT */
/*
 * kfull.c - which compiled full-board kernel serves a variant, and the calls
 * into it.
 *
 * A kernel serves a variant when every rules field it was compiled for
 * equals the variant's (kfull_rules_match); the fields no kernel implements
 * (Italian's men sparing kings, Thai and Killer landings, parachutists, one
 * way men, Frisian's king limit, Breakthrough's goal) rule a variant out.
 * The choice is remade on each call, a few dozen compares, so that nothing
 * is cached in a global.
 */
#include "rules/kfull.h"

static const struct kfull_kernel *const kernels[] = {
    &kfull_f8_rook, &kfull_f8_queen, &kfull_f8_short, &kfull_f8_konane, &kfull_q5_men,
};

enum { KERNEL_COUNT = sizeof kernels / sizeof kernels[0] };

/* Whether the kernel compiled for r plays exactly v's rules. */
static bool kfull_rules_match(const struct kfull_rules *r, const struct dm_variant *v)
{
    return v->geometry == r->geometry && v->man_step_dirs[DM_WHITE] == r->man_steps &&
           v->man_step_dirs[DM_BLACK] == dirs_flip_vertical(r->man_steps) &&
           v->man_jump_dirs[DM_WHITE] == r->man_jumps &&
           v->man_jump_dirs[DM_BLACK] == dirs_flip_vertical(r->man_jumps) &&
           v->man_later_jump_dirs[DM_WHITE] == r->man_later_jumps &&
           v->man_later_jump_dirs[DM_BLACK] == dirs_flip_vertical(r->man_later_jumps) &&
           v->king == r->king && v->king_step_dirs == r->king_steps &&
           v->king_jump_dirs == r->king_jumps && v->removal == r->removal &&
           v->reversal_ban == r->reversal_ban && v->promotion == r->promotion &&
           v->precedence == r->precedence && v->linear_moves == r->linear_moves &&
           v->far_row == r->far_row && v->straight_continuation == r->straight_continuation &&
           v->optional_continuation == r->optional_continuation &&
           (v->opening_bb != 0) == r->opening_removals;
}

int kfull_for(const struct dm_variant *v)
{
    if (v->geometry != GEOM_F8 && v->geometry != GEOM_Q5)
        return -1;
    if (v->man_spares_kings || v->landing != LAND_ANY || v->parachutes || v->one_way ||
        v->frisian_king_limit || v->goal == GOAL_FIRST_KING)
        return -1;
    for (int i = 0; i < KERNEL_COUNT; i++)
        if (kfull_rules_match(&kernels[i]->rules, v))
            return i;
    return -1;
}

int kfull_generate(const struct dm_variant *v, const dm_position *pos, dm_move_list *list,
                   unsigned flags)
{
    int k = kfull_for(v);
    if (k < 0) {
        list->count = 0;
        return -1;
    }
    return kernels[k]->generate(v, pos, list, flags);
}

uint64_t kfull_perft(const struct dm_variant *v, const dm_position *pos, int depth, unsigned flags)
{
    int k = kfull_for(v);
    if (k < 0)
        return 0;
    return kernels[k]->perft(v, pos, depth, flags);
}

int kfull_leaf(const struct dm_variant *v, const dm_position *pos)
{
    int k = kfull_for(v);
    return k < 0 ? -1 : kernels[k]->leaf(v, pos);
}

const struct kfull_kernel *kfull_kernel_at(int k)
{
    return kernels[k];
}
