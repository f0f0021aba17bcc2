/* SPDX-License-Identifier: MIT */
/*
 * position.c - playing moves, the end of the game by the rules, perft.
 *
 * dm_generate chooses the generator: the variant's fast kernel if it has one,
 * else the reference generator.  Positions are copied, never undone.
 */
#include <string.h>

#include "base/bits.h"
#include "rules/kernel.h"
#include "rules/rules.h"
#include "rules/refgen.h"
#include "rules/variant.h"

bool dm_position_equal(const dm_position *a, const dm_position *b)
{
    return a->white == b->white && a->black == b->black && a->kings == b->kings &&
           a->paras == b->paras && a->side == b->side &&
           a->king_cell[0] == b->king_cell[0] && a->king_cell[1] == b->king_cell[1] &&
           a->king_moves[0] == b->king_moves[0] && a->king_moves[1] == b->king_moves[1];
}

bool dm_move_same(const dm_move *a, const dm_move *b)
{
    return a->from == b->from && a->to == b->to && a->njumps == b->njumps &&
           a->captured_set == b->captured_set && a->flags == b->flags &&
           memcmp(a->path, b->path, a->njumps) == 0 &&
           memcmp(a->captured, b->captured, a->njumps) == 0;
}

int dm_generate(const dm_variant *v, const dm_position *pos, dm_move_list *list, unsigned flags)
{
    if (v->kernel >= 0 && !(flags & (DM_GEN_REFERENCE | DM_GEN_EVERY_LANDING)))
        return kernel_generate(v, pos, list, flags);
    return refgen_generate(v, pos, list, flags);
}

void dm_make_move(const dm_variant *v, dm_position *pos, const dm_move *m)
{
    int color = pos->side;
    dm_bits from = bit128(m->from), to = bit128(m->to);
    bool was_king = (pos->kings & from) != 0;
    dm_bits *own = color == DM_WHITE ? &pos->white : &pos->black;
    dm_bits *other = color == DM_WHITE ? &pos->black : &pos->white;

    *other &= ~m->captured_set;
    pos->kings &= ~m->captured_set;
    pos->paras &= ~(m->captured_set | from); /* a parachutist lands as a man */
    *own = (*own & ~from) | (m->flags & DM_MOVE_REMOVAL ? 0 : to); /* Hawaiian: taken off */
    if (was_king)
        pos->kings = (pos->kings & ~from) | to;
    if (m->flags & DM_MOVE_PROMOTES)
        pos->kings |= to;

    if (v->frisian_king_limit) {
        /* Frisian rules: count the quiet moves of one king in a row; anything else
         * starts over.  Without men the limit is gone and so is the count
         * (as lidraughts), which keeps it within 0-3 for FEN. */
        if (was_king && m->njumps == 0 && (*own & ~pos->kings)) {
            pos->king_moves[color] =
                pos->king_cell[color] == m->from ? (uint8_t)(pos->king_moves[color] + 1) : 1;
            pos->king_cell[color] = m->to;
        } else {
            pos->king_cell[color] = DM_NO_CELL;
            pos->king_moves[color] = 0;
        }
        int them = color ^ 1;
        if (pos->king_cell[them] != DM_NO_CELL && bit_at128(m->captured_set, pos->king_cell[them])) {
            pos->king_cell[them] = DM_NO_CELL;
            pos->king_moves[them] = 0;
        }
    }
    pos->side = (uint8_t)(color ^ 1);
}

/* Whether the game is already decided before any move is generated. */
enum dm_outcome rules_goal_reached(const struct dm_variant *v, const dm_position *pos)
{
    if (v->goal == GOAL_FIRST_KING && pos->kings) {
        dm_bits mine = pos->side == DM_WHITE ? pos->white : pos->black;
        return (pos->kings & ~mine) ? DM_SIDE_TO_MOVE_LOSES : DM_SIDE_TO_MOVE_WINS;
    }
    return DM_ONGOING;
}

enum dm_outcome dm_position_outcome(const dm_variant *v, const dm_position *pos)
{
    enum dm_outcome decided = rules_goal_reached(v, pos);
    if (decided != DM_ONGOING)
        return decided;
    dm_move_list list;
    if (dm_generate(v, pos, &list, 0) != 0)
        return DM_ONGOING;
    return v->goal == GOAL_NO_MOVE_WINS ? DM_SIDE_TO_MOVE_WINS : DM_SIDE_TO_MOVE_LOSES;
}

static uint64_t perft_reference(const dm_variant *v, const dm_position *pos, int depth,
                                unsigned flags)
{
    dm_move_list list;
    dm_generate(v, pos, &list, flags | DM_GEN_REFERENCE);
    if (depth == 1)
        return (uint64_t)list.count;
    uint64_t nodes = 0;
    for (int i = 0; i < list.count; i++) {
        dm_position next = *pos;
        dm_make_move(v, &next, &list.moves[i]);
        nodes += perft_reference(v, &next, depth - 1, flags);
    }
    return nodes;
}

uint64_t dm_perft(const dm_variant *v, const dm_position *pos, int depth, unsigned flags)
{
    if (depth <= 0)
        return 1;
    if (v->kernel >= 0 && !(flags & (DM_GEN_REFERENCE | DM_GEN_EVERY_LANDING)))
        return kernel_perft(v, pos, depth, flags);
    return perft_reference(v, pos, depth, flags);
}
