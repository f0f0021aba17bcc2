/* SPDX-License-Identifier: MIT */
/*
 * computer.c - a stop-gap computer player, until the engine exists.
 *
 * TODO(#4): replace with the engine of the engine issue, whose levels will
 * replace these two.  Level 1 looks one ply ahead: it plays the move after
 * which the opponent's material balance is worst, picking at random among
 * equals.  Level 2 searches 4 plies with alpha-beta on the same material
 * count.  Material is 100 a man, 300 a king; in giveaway variants less is
 * better; a game decided by the rules (no move, first king) outweighs any
 * material.  The random choice uses the session's seedable generator, so a
 * seeded game replays exactly.
 */
#include "base/bits.h"
#include "rules/rules.h"
#include "rules/variant.h"
#include "tui/tui.h"

#include <stdlib.h>

#define MAN_VALUE    100
#define KING_VALUE   300
#define WIN_SCORE    100000
#define SEARCH_DEPTH 4 /* level 2 */

static uint64_t next_random(uint64_t *state)
{
    /* xorshift64*: small, fast, and a fixed sequence per seed. */
    uint64_t x = *state ? *state : 0x9E3779B97F4A7C15ull;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

/* Material of the side to move minus the opponent's, as the variant's goal
 * counts it. */
static int material(const dm_variant *v, const dm_position *pos)
{
    dm_bits own = pos->side == DM_WHITE ? pos->white : pos->black;
    dm_bits their = pos->side == DM_WHITE ? pos->black : pos->white;
    int score = MAN_VALUE * (popcount128(own & ~pos->kings) - popcount128(their & ~pos->kings)) +
                KING_VALUE * (popcount128(own & pos->kings) - popcount128(their & pos->kings));
    return v->goal == GOAL_NO_MOVE_WINS ? -score : score;
}

/* The score of pos for its side to move, searched depth plies deep; lists
 * holds a move list for each ply still to search. */
static int search(const dm_variant *v, const dm_position *pos, int depth, int alpha, int beta,
                  dm_move_list *lists)
{
    enum dm_outcome decided = rules_goal_reached(v, pos);
    if (decided == DM_SIDE_TO_MOVE_WINS)
        return WIN_SCORE + depth;
    if (decided == DM_SIDE_TO_MOVE_LOSES)
        return -WIN_SCORE - depth;
    dm_move_list *list = &lists[depth];
    dm_generate(v, pos, list, 0);
    if (list->count == 0)
        return v->goal == GOAL_NO_MOVE_WINS ? WIN_SCORE + depth : -WIN_SCORE - depth;
    if (depth == 0)
        return material(v, pos);
    int best = -2 * WIN_SCORE;
    for (int i = 0; i < list->count && alpha < beta; i++) {
        dm_position next = *pos;
        dm_make_move(v, &next, &list->moves[i]);
        int score = -search(v, &next, depth - 1, -beta, -alpha, lists);
        if (score > best)
            best = score;
        if (score > alpha)
            alpha = score;
    }
    return best;
}

int tui_computer_move(const dm_variant *v, const dm_position *pos, const dm_move_list *legal,
                      int level, uint64_t *rng)
{
    int depth = level >= 2 ? SEARCH_DEPTH : 1;
    dm_move_list *lists = malloc((size_t)depth * sizeof *lists);
    int best = -3 * WIN_SCORE, ties = 0, chosen = 0;
    for (int i = 0; i < legal->count && lists; i++) {
        dm_position next = *pos;
        dm_make_move(v, &next, &legal->moves[i]);
        /* A full window for every root move, so that equal scores are
         * really equal and the random choice among them is fair. */
        int score = -search(v, &next, depth - 1, -3 * WIN_SCORE, 3 * WIN_SCORE, lists);
        if (score > best) {
            best = score;
            ties = 0;
        }
        if (score == best && next_random(rng) % (uint64_t)++ties == 0)
            chosen = i;
    }
    free(lists);
    return chosen;
}

bool tui_computer_accepts_draw(const dm_variant *v, const dm_position *pos, int color)
{
    dm_position mine = *pos;
    mine.side = (uint8_t)color;
    return material(v, &mine) <= 0;
}
