/* SPDX-License-Identifier: MIT */
/*
 * game.h - what the game modules share beyond the public API: the draw rules
 * a game follows.
 *
 * The rules themselves are data of the variant record (struct draw_rules in
 * rules/variant.h, the sets in rules/variants.c); game.c runs their
 * counters.
 */
#ifndef DM_GAME_GAME_H
#define DM_GAME_GAME_H

#include <stdbool.h>
#include <stdint.h>

#include "damier/game.h"
#include "rules/variant.h"

/* The draw rules of v under a preset, read from its record; never NULL
 * (variant_check makes a record without them fatal). */
const struct draw_rules *game_draw_rules(const dm_variant *v, enum dm_rules preset);

/* Whether v's record names both its draw-rule sets (the tests check every
 * variant does). */
bool game_draw_rules_listed(const dm_variant *v);

#endif
