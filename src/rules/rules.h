/* SPDX-License-Identifier: MIT */
/*
 * rules.h - what the rules modules share beyond the public API.
 */
#ifndef DM_RULES_RULES_H
#define DM_RULES_RULES_H

#include "damier/rules.h"

struct dm_variant;

/* Whether the game is decided before any move is generated (Breakthrough's
 * first king); DM_ONGOING otherwise. */
enum dm_outcome rules_goal_reached(const struct dm_variant *v, const dm_position *pos);

#endif
