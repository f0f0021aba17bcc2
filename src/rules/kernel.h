/* SPDX-License-Identifier: MIT */
/*
 * kernel.h - the fast bitboard move generators.
 *
 * A kernel serves the variants whose rules it was compiled for; the others
 * use the reference generator (refgen.h).  Both produce identical move lists
 * (same moves, same routes, any order), which the differential test checks.
 */
#ifndef DM_RULES_KERNEL_H
#define DM_RULES_KERNEL_H

#include <stdint.h>

#include "damier.h"

struct dm_variant;

/* The kernel serving v, or -1 when only the reference generator does. */
int kernel_for(const struct dm_variant *v);

/* As dm_generate, for a variant whose kernel is not -1. */
int kernel_generate(const struct dm_variant *v, const dm_position *pos, dm_move_list *list,
                    unsigned flags);

/* As dm_perft (depth >= 1), for a variant whose kernel is not -1. */
uint64_t kernel_perft(const struct dm_variant *v, const dm_position *pos, int depth,
                      unsigned flags);

#endif
