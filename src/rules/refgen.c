/* SPDX-License-Identifier: MIT */
/*
 * refgen.c - the reference move generator.
 *
 * Walks the cell graph of any geometry for any rules record, the obvious
 * way: every piece, every direction, every landing square, recursively, then
 * the precedence filters on the complete sequences.  It is the model the fast
 * kernels are tested against, so it favours plainness over speed; it still
 * allocates nothing.
 *
 * What data alone cannot say gets one small function each: Dameo's linear
 * moves (linear_target) and the Hawaiian opening (generate_removals).
 *
 * Capture search state: the board as an owner array (the mover's origin
 * emptied), the set of ghosts (pieces jumped but not yet removed) and the
 * route so far.  Immediate removal empties the jumped cell instead.
 */
#include "rules/refgen.h"

#include <string.h>

#include "base/bits.h"
#include "rules/movelist.h"
#include "rules/rules.h"
#include "rules/variant.h"

enum { EMPTY = -1 };

struct search {
    const struct dm_variant *v;
    const struct geometry *g;
    int8_t owner[DM_MAX_CELLS]; /* colour on each cell, or EMPTY          */
    dm_bits kings;              /* kings of the position (both colours)   */
    dm_bits ghosts;             /* jumped pieces still on the board       */
    int color;                  /* the side to move                       */
    bool king_captor;           /* the moving piece was a king at the start */
    bool para_captor;           /* ... or a parachutist                   */
    dm_move route;              /* the sequence so far                    */
    bool crowned;               /* crowned mid-capture (continue as king) */
    bool every_landing;         /* DM_GEN_EVERY_LANDING with duplicates kept */
    struct move_sink *sink;
};

static bool is_empty(const struct search *s, int c)
{
    return s->owner[c] == EMPTY && !has128(s->ghosts, c);
}

static bool is_target(const struct search *s, int c, bool king)
{
    if (s->owner[c] != (s->color ^ 1) || has128(s->ghosts, c))
        return false;
    return king || !s->v->man_spares_kings || !has128(s->kings, c);
}

/* The precedence key of a complete sequence: higher keys take precedence,
 * equal keys are free choice (as every rulebook here leaves
 * captures the precedence rules do not order). */
static uint64_t precedence_key(const struct search *s)
{
    const struct dm_variant *v = s->v;
    const dm_move *m = &s->route;
    uint64_t primary = 0, kings = 0, earliest = 0;
    for (int i = 0; i < m->njumps; i++)
        if (has128(s->kings, m->captured[i])) {
            kings++;
            earliest |= 1ull << (31 - i); /* a king met sooner sets a higher bit */
        }
    if (v->precedence & PREC_QUANTITY)
        primary = m->njumps;
    if (v->precedence & PREC_VALUE)
        primary = 100ull * (m->njumps - kings) + 199ull * kings;
    uint64_t key = primary << 40;
    if (v->precedence & PREC_WITH_KING)
        key |= (uint64_t)s->king_captor << 39;
    if (v->precedence & PREC_MOST_KINGS)
        key |= kings << 32;
    if (v->precedence & PREC_EARLIEST_KINGS)
        key |= earliest;
    return key;
}

static void emit(struct search *s)
{
    dm_move *m = &s->route;
    m->to = m->path[m->njumps - 1];
    m->flags = DM_MOVE_CAPTURE;
    bool man = !s->king_captor;
    if (man && (s->crowned || (s->v->promotion != PROMOTE_NONE &&
                               has128(s->v->promo_bb[s->color], m->to))))
        m->flags |= DM_MOVE_PROMOTES;
    sink_add(s->sink, m, precedence_key(s));
}

static unsigned extend(struct search *s, int at, bool king, int lastdir, bool straight_done);

/* Jumps over `over` in direction d, landing on each cell of lands[], and goes
 * on from there.  Emits the sequences that end with this jump when none of
 * the landings allows going on (continuation duty: how lidraughts and
 * PlayStrategy generate; for the Czech family our reading of "a capture
 * must be completed" [OPEN], docs/variants.md).
 *
 * Going on straight ahead is one route, whichever square the king touches
 * between the two pieces: it is taken from the square right behind the
 * piece (the square PDN 3.0 writes) and, for the continuation duty,
 * counts for every landing. */
static void jump(struct search *s, int over, int d, const int *lands, int nlands, bool king)
{
    const struct dm_variant *v = s->v;
    dm_move *m = &s->route;
    int n = m->njumps;
    bool went_on = false, straight_on = false;
    bool terminal[DM_MAX_CELLS];

    m->captured[n] = (uint8_t)over;
    m->captured_set |= BIT128(over);
    m->njumps = (uint8_t)(n + 1);
    int8_t saved_owner = s->owner[over];
    if (v->removal == REMOVE_IMMEDIATE)
        s->owner[over] = EMPTY;
    else
        s->ghosts |= BIT128(over);

    for (int i = 0; i < nlands; i++) {
        int land = lands[i];
        bool now_king = king, stop = false, was_crowned = s->crowned;
        if (!king && has128(v->promo_bb[s->color], land)) {
            if (v->promotion == PROMOTE_STOP)
                stop = true;
            else if (v->promotion == PROMOTE_CONTINUE_AS_KING)
                now_king = s->crowned = true;
        }
        m->path[n] = (uint8_t)land;
        unsigned onward = stop ? 0 : extend(s, land, now_king, d, i > 0 && !s->every_landing);
        if (i == 0)
            straight_on = (onward & DIRBIT(d)) != 0;
        terminal[i] = stop || (onward == 0 && !straight_on);
        went_on |= !terminal[i];
        s->crowned = was_crowned;
    }
    if (!went_on || v->optional_continuation) {
        /* Killer (Freeling's rules): a sequence whose last capture is a king stops right
         * behind it.  Hawaiian (BrainKing's rules): a capture may stop after any jump. */
        bool adjacent_only = v->landing == LAND_ADJACENT_IF_KING && has128(s->kings, over);
        for (int i = 0; i < (adjacent_only ? 1 : nlands); i++) {
            int land = lands[i];
            bool was_crowned = s->crowned;
            if (!king && v->promotion == PROMOTE_CONTINUE_AS_KING &&
                has128(v->promo_bb[s->color], land))
                s->crowned = true;
            m->path[n] = (uint8_t)land;
            emit(s);
            s->crowned = was_crowned;
        }
    }

    if (v->removal == REMOVE_IMMEDIATE)
        s->owner[over] = saved_owner;
    else
        s->ghosts &= ~BIT128(over);
    m->captured_set &= ~BIT128(over);
    m->njumps = (uint8_t)n;
}

/* Tries every capture from `at` (but straight on, when straight_done);
 * returns the directions that had one. */
static unsigned extend(struct search *s, int at, bool king, int lastdir, bool straight_done)
{
    const struct dm_variant *v = s->v;
    const struct geometry *g = s->g;
    bool first = s->route.njumps == 0;
    bool para = s->para_captor && first;
    unsigned dirs = para  ? v->para_jump_dirs[s->color]
                    : king  ? v->king_jump_dirs
                    : first ? v->man_jump_dirs[s->color]
                            : v->man_later_jump_dirs[s->color];
    if (v->reversal_ban && lastdir >= 0)
        dirs &= ~DIRBIT(dir_opposite[lastdir]);
    if (v->straight_continuation && lastdir >= 0)
        dirs &= DIRBIT(lastdir);
    if (straight_done)
        dirs &= ~DIRBIT(lastdir);
    if (!king && first && v->far_row == FAR_ROW_STUCK && has128(v->far_row_bb[s->color], at))
        dirs = 0;
    bool flying = king && v->king == KING_FLYING;
    unsigned found = 0;

    if (s->route.njumps >= DM_MAX_JUMPS)
        return 0;
    for (int d = 0; d < DIR_COUNT; d++) {
        if (!(dirs & DIRBIT(d)))
            continue;
        int over = g->next[at][d];
        while (flying && over >= 0 && is_empty(s, over))
            over = g->next[over][d];
        if (over < 0 || !is_target(s, over, king))
            continue;
        if (para && !has128(v->para_target_bb[s->color], over))
            continue;
        int lands[DM_MAX_CELLS], nlands = 0;
        for (int l = g->next[over][d]; l >= 0 && is_empty(s, l); l = g->next[l][d]) {
            lands[nlands++] = l;
            if (!flying || v->landing == LAND_ADJACENT)
                break;
        }
        if (nlands == 0)
            continue;
        found |= DIRBIT(d);
        jump(s, over, d, lands, nlands, king);
    }
    return found;
}

static void generate_captures(struct search *s, const dm_position *pos)
{
    dm_bits own = s->color == DM_WHITE ? pos->white : pos->black;
    for (dm_bits b = own; b; b &= b - 1) {
        int from = ctz128(b);
        s->king_captor = has128(pos->kings, from);
        s->para_captor = has128(pos->paras, from);
        s->owner[from] = EMPTY; /* its start square counts as empty (every rulebook here) */
        memset(&s->route, 0, sizeof s->route);
        s->route.from = (uint8_t)from;
        s->crowned = false;
        extend(s, from, s->king_captor, -1, false);
        s->owner[from] = (int8_t)s->color;
    }
}

static void add_quiet(struct search *s, int from, int to, bool promotes)
{
    dm_move m;
    memset(&m, 0, sizeof m);
    m.from = (uint8_t)from;
    m.to = (uint8_t)to;
    m.flags = promotes ? DM_MOVE_PROMOTES : 0;
    sink_add(s->sink, &m, 0);
}

/* Dameo's linear move (Freeling's rules): the cell after the unbroken run of the mover's
 * own men that starts next to `from` in direction d, if the run is not empty
 * and that cell is; else -1.  Kings neither form nor join a run. */
static int linear_target(const struct search *s, const dm_position *pos, int from, int d)
{
    const struct geometry *g = s->g;
    int c = g->next[from][d], run = 0;
    while (c >= 0 && s->owner[c] == s->color && !has128(pos->kings, c)) {
        c = g->next[c][d];
        run++;
    }
    return run > 0 && c >= 0 && is_empty(s, c) ? c : -1;
}

static void generate_quiet(struct search *s, const dm_position *pos)
{
    const struct dm_variant *v = s->v;
    const struct geometry *g = s->g;
    int color = s->color;
    dm_bits own = color == DM_WHITE ? pos->white : pos->black;
    bool has_men = (own & ~pos->kings & ~pos->paras) != 0;

    for (dm_bits b = own; b; b &= b - 1) {
        int from = ctz128(b);
        if (has128(pos->paras, from))
            continue; /* Parachute: a parachutist only captures */
        if (!has128(pos->kings, from)) {
            /* Alquerque: a man on its far row may be barred from plain moves. */
            if (v->far_row != FAR_ROW_FREE && has128(v->far_row_bb[color], from))
                continue;
            for (int d = 0; d < DIR_COUNT; d++) {
                if (!(v->man_step_dirs[color] & DIRBIT(d)))
                    continue;
                int to = g->next[from][d];
                if (to >= 0 && !is_empty(s, to) && v->linear_moves)
                    to = linear_target(s, pos, from, d);
                if (to >= 0 && is_empty(s, to))
                    add_quiet(s, from, to, has128(v->promo_bb[color], to));
            }
            continue;
        }
        /* Frisian: while its side has men, one king makes at most 3 quiet moves
         * in a row. */
        if (v->frisian_king_limit && has_men && pos->king_cell[color] == from &&
            pos->king_moves[color] >= 3)
            continue;
        for (int d = 0; d < DIR_COUNT; d++) {
            if (!(v->king_step_dirs & DIRBIT(d)))
                continue;
            for (int to = g->next[from][d]; to >= 0 && is_empty(s, to); to = g->next[to][d]) {
                add_quiet(s, from, to, false);
                if (v->king != KING_FLYING)
                    break;
            }
        }
    }
}

/* The opening of a variant with opening_removals (Hawaiian), read from the board
 * alone: on a full board the side to move takes one of its men off the
 * opening cells; with exactly one hole, one of its men orthogonally next to
 * the hole.  Returns false, adding nothing, once two or more cells are
 * empty: the opening is over. */
static bool generate_removals(struct search *s, const dm_position *pos)
{
    const struct geometry *g = s->g;
    dm_bits own = s->color == DM_WHITE ? pos->white : pos->black;
    dm_bits holes = g->all & ~(pos->white | pos->black);
    dm_bits candidates = 0;
    if (holes == 0) {
        candidates = own & s->v->opening_bb;
    } else if ((holes & (holes - 1)) == 0) {
        int hole = ctz128(holes);
        for (int d = 0; d < DIR_COUNT; d++)
            if ((DIRS_ORTH & DIRBIT(d)) && g->next[hole][d] >= 0)
                candidates |= BIT128(g->next[hole][d]);
        candidates &= own;
    } else {
        return false;
    }
    for (dm_bits b = candidates; b; b &= b - 1) {
        dm_move m;
        memset(&m, 0, sizeof m);
        m.from = m.to = (uint8_t)ctz128(b);
        m.flags = DM_MOVE_REMOVAL;
        sink_add(s->sink, &m, 0);
    }
    return true;
}

int refgen_generate(const struct dm_variant *v, const dm_position *pos, dm_move_list *list,
                    unsigned flags)
{
    struct search s;
    struct move_sink sink;
    sink_init(&sink, list, flags);
    s.v = v;
    s.g = v->geo;
    s.kings = pos->kings;
    s.ghosts = 0;
    s.color = pos->side;
    s.sink = &sink;
    s.every_landing = (flags & DM_GEN_EVERY_LANDING) && (flags & DM_GEN_KEEP_DUPLICATES);
    for (int c = 0; c < s.g->ncells; c++)
        s.owner[c] = has128(pos->white, c) ? DM_WHITE : has128(pos->black, c) ? DM_BLACK : EMPTY;

    if (rules_goal_reached(v, pos) != DM_ONGOING)
        return 0;
    if (v->opening_bb && generate_removals(&s, pos))
        return list->count;
    generate_captures(&s, pos);
    if (list->count == 0)
        generate_quiet(&s, pos);
    return sink.overflow ? -1 : list->count;
}
