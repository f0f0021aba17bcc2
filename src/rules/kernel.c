/* SPDX-License-Identifier: MIT */
/*
 * kernel.c - dispatch to the fast bitboard generators.
 *
 * No kernel is compiled in yet: every variant is served by the reference
 * generator.  TODO(#2): bitboard kernels for the diagonal boards.
 */
#include "rules/kernel.h"

#include "rules/variant.h"

int kernel_for(const struct dm_variant *v)
{
    (void)v;
    return -1;
}

int kernel_generate(const struct dm_variant *v, const dm_position *pos, dm_move_list *list,
                    unsigned flags)
{
    (void)v, (void)pos, (void)flags;
    list->count = 0;
    return -1;
}

uint64_t kernel_perft(const struct dm_variant *v, const dm_position *pos, int depth,
                      unsigned flags)
{
    (void)v, (void)pos, (void)depth, (void)flags;
    return 0;
}
