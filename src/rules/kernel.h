/* SPDX-License-Identifier: MIT */
/*
 * kernel.h - the fast bitboard move generators.
 *
 * A kernel serves the variants whose rules it was compiled for; the others
 * use the reference generator (refgen.h).  Both produce the same moves with
 * the same routes, in the same order, which the differential test checks
 * (tests/unit/test_kernel_diff.c); merged duplicates may keep another of
 * their routes.
 */
#ifndef DM_RULES_KERNEL_H
#define DM_RULES_KERNEL_H

#include <stdint.h>

#include "damier/rules.h"

struct dm_variant;

/* The kernel serving v, or -1 when only the reference generator does.
 * Decided from the record's fields alone. */
int kernel_for(const struct dm_variant *v);

/* As dm_generate, for a variant whose kernel is not -1. */
int kernel_generate(const struct dm_variant *v, const dm_position *pos, dm_move_list *list,
                    unsigned flags);

/* As dm_perft (depth >= 1), for a variant whose kernel is not -1: the last
 * ply is counted, not played.  With DM_GEN_KEEP_DUPLICATES a route that only
 * differs by the landing square before a piece taken straight on counts
 * once, as in the published counts (the generators list it once per such
 * square). */
uint64_t kernel_perft(const struct dm_variant *v, const dm_position *pos, int depth,
                      unsigned flags);

/* Keeps in v the rules its kernel reads (v->krules), once its record is
 * concluded: the kernels read them at every call. */
void kernel_prepare(struct dm_variant *v);

/* What a search's horizon needs of pos, without a move list: 2 when the
 * side to move must capture, 1 when it has quiet moves only, 0 when it has
 * no move (as dm_generate's count and its first move's DM_MOVE_CAPTURE
 * tell); -1 when v has no kernel (the caller generates). */
int kernel_leaf(const struct dm_variant *v, const dm_position *pos);

#endif
