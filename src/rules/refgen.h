/* SPDX-License-Identifier: MIT */
/*
 * refgen.h - the reference move generator: slow, simple, serves any record.
 */
#ifndef DM_RULES_REFGEN_H
#define DM_RULES_REFGEN_H

#include "damier/rules.h"

struct dm_variant;

/* As dm_generate, for any variant, by walking the cell graph. */
int refgen_generate(const struct dm_variant *v, const dm_position *pos, dm_move_list *list,
                    unsigned flags);

#endif
