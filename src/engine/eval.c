/* SPDX-License-Identifier: MIT */
/*
 * eval.c - the static evaluation: generic terms, weights per family.
 *
 * Every variant is scored by the same few terms: material, advancement
 * (weighing more as the board empties), men guarding their own back row,
 * men in the centre, men on the side files, the balance of the men between
 * the two wings, men with no step forward, king mobility and runaway men
 * (a man whose way forward to a promotion square is empty); a material
 * lead counts for more as the board empties (the side ahead trades down),
 * and a score with kings on both sides counts for less (most such endings
 * are drawn).  A family's
 * weight of 0 (100 for kings_both) leaves a term out where matches showed
 * it does not pay.
 * What differs between variants is how much each term weighs, and that
 * comes from two tables: one row per family of variants, chosen from the
 * rules record (the board, whether kings fly, whether men capture
 * orthogonally on a diagonal board), and one row per goal, which turns the
 * material goal round in the giveaway variants and favours running men when
 * the first king wins.  No variant is named here.
 *
 * Scores are hundredths of a man for the side to move.  The short kings'
 * row is tuned on Damier's own games (damier-train --tune-hand, Texel's
 * method: docs/engine.md), the others are first guesses adjusted by
 * matches.  The per-cell tables (how far each man has come, the cells
 * ahead of it) are built once per variant by eval_prepare.
 */
#include "base/bits.h"
#include "engine/engine.h"
#include "rules/variant.h"

enum eval_family {
    FAMILY_SHORT_KINGS,  /* 8x8 dark squares, kings step one square           */
    FAMILY_FLYING_KINGS, /* 10x10, 12x12 dark squares, kings fly              */
    FAMILY_FLYING_8X8,   /* 8x8 dark squares, kings fly                       */
    FAMILY_FRISIAN,      /* men and kings also capture orthogonally           */
    FAMILY_FULL_BOARD,   /* the orthogonal games on every square (and Q5)     */
    FAMILY_FULL_SHORT,   /* every square, kings step one square (Gothic)      */
    FAMILY_COUNT
};

/* A flying king is worth about three men: it controls whole diagonals and
 * catches lone men.  The short kings' row: three rounds of damier-train
 * --variant english --tune-hand (docs/engine.md), each from the row before
 * it, the first from the guesses {100, 170, 100, 3, 0, 12, 8, 0, 0, 3, 60,
 * 100, 0}: 7411 and 19998 games of the guessed row's engine, then 12000
 * games of the second round's own (1519945 positions at 4000 nodes a
 * move; cross-entropy 0.6141 to 0.6103, held out 0.6139 to 0.6106).  That
 * the men's own back row and a material lead as the board empties weigh
 * this much, and the centre nothing, is what the games say. */
/* The flying kings' row on 8x8 (Russian, Brazilian, Pool, ...) is the same
 * with men that have no step forward costing 0.2 man each: against the row
 * without it, 20000 nodes a move, Russian +38 [+23, +53] (1000 games),
 * Brazilian +58 [+35, +81] (400); 5, 12 and 30 a man +18, +29, +19 in
 * Russian.  The bigger boards lost with it or gained nothing (Canadian -76
 * at 20 a man, International +30, +1, +5 at 5, 12, 20): there a packed
 * formation is how the men stand until the middle game opens. */
/* Gothic's row (full board, short kings): one round of damier-train
 * --variant gothic --games 6000 --tune-hand from the full-board row (985440
 * positions at 4000 nodes a move; cross-entropy 0.6752 to 0.6725, held out
 * 0.6740 to 0.6717): a short king is worth 1.7 men there, and men kept on
 * the back row and a material lead as the board empties count for much. */
/* clang-format off */
static const struct eval_weights family_weights[FAMILY_COUNT] = {
    /*                      man king para adv endgame back centre edge bal kmob runaway kings_both trade locked */
    [FAMILY_SHORT_KINGS]  = {100, 132, 100,  4,     92,  44,   -12,  19, 10,   8,     50,  60, 110,  0},
    [FAMILY_FLYING_KINGS] = {100, 300, 100,  2,    100,   8,     6,   5,  8,   2,    120,  50,   0,  0},
    [FAMILY_FLYING_8X8]   = {100, 300, 100,  2,    100,   8,     6,   5,  8,   2,    120,  50,   0, 20},
    [FAMILY_FRISIAN]      = {100, 280, 100,  2,      0,   8,     6,   0, 16,   2,    120, 100,   0,  0},
    [FAMILY_FULL_BOARD]   = {100, 250, 100,  3,      0,   6,     5,   0,  0,   2,     80, 100,   0,  0},
    [FAMILY_FULL_SHORT]   = {100, 167, 100,  9,      0,  55,     9, -16,  2,   0,     73,  91,  66,  0},
};
/* clang-format on */

/* How the goal of the game reshapes the terms. */
static const struct {
    int material_sign;    /* -1: the side with less material is better       */
    int positional_scale; /* percent of the positional terms                 */
    int runaway_scale;    /* percent of the runaway term                     */
} goal_scales[] = {
    [GOAL_NO_MOVE_LOSES] = {1, 100, 100},
    /* Giveaway: material counts the other way round; the positional terms
     * are tuned for the usual goal, so they are left out. */
    [GOAL_NO_MOVE_WINS] = {-1, 0, 0},
    /* Breakthrough: a man that cannot be stopped wins the game. */
    [GOAL_FIRST_KING] = {1, 150, 500},
};

static const char *family_names[FAMILY_COUNT] = {
    [FAMILY_SHORT_KINGS] = "short-kings",
    [FAMILY_FLYING_KINGS] = "flying-kings",
    [FAMILY_FLYING_8X8] = "flying-kings-8x8",
    [FAMILY_FRISIAN] = "frisian",
    [FAMILY_FULL_BOARD] = "full-board",
    [FAMILY_FULL_SHORT] = "full-board-short",
};

static enum eval_family family_of(const struct dm_variant *v)
{
    if (v->geometry == GEOM_F8 || v->geometry == GEOM_Q5)
        return v->king == KING_SHORT ? FAMILY_FULL_SHORT : FAMILY_FULL_BOARD;
    if ((v->man_jumps | v->king_jumps) & DIRS_ORTH)
        return FAMILY_FRISIAN;
    if (v->king != KING_FLYING)
        return FAMILY_SHORT_KINGS;
    return v->geo->ranks == 8 ? FAMILY_FLYING_8X8 : FAMILY_FLYING_KINGS;
}

/* Files cell's forward step to next under its delta (build_cones). */
static void add_step(struct eval_tables *t, int c, int cell, int next)
{
    int delta = next - cell, i = 0;
    while (i < t->nsteps[c] && t->step_delta[c][i] != delta)
        i++;
    if (i == t->nsteps[c]) {
        t->step_delta[c][i] = (int8_t)delta;
        t->step_mask[c][i] = 0;
        t->nsteps[c]++;
    }
    t->step_mask[c][i] |= BIT128(cell);
}

/* The cones: for colour c, the cells a man on each cell may still step
 * through going forward (each step to a row nearer its far row).  A cell's
 * cone is built from the cones of the cells one step ahead, so cells are
 * visited from the far row back. */
static void build_cones(struct eval_tables *t, const struct dm_variant *v, int c, bool up)
{
    const struct geometry *g = v->geo;
    t->nsteps[c] = 0;
    for (int k = 0; k < g->ncells; k++) {
        /* Cells are numbered from the top row down. */
        int cell = up ? k : g->ncells - 1 - k;
        dm_bits cone = 0;
        t->ahead[c][cell] = 0;
        for (int d = 0; d < DIR_COUNT; d++) {
            int next = g->next[cell][d];
            if (!(v->man_step_dirs[c] & DIRBIT(d)) || next < 0)
                continue;
            int gain = (g->rank_of[next] - g->rank_of[cell]) * (up ? 1 : -1);
            if (gain > 0)
                cone |= BIT128(next) | t->cone[c][next];
            if (gain > 0) {
                t->ahead[c][cell] |= BIT128(next);
                add_step(t, c, cell, next);
            }
        }
        t->cone[c][cell] = cone;
    }
    t->step_sign[c] = 0;
    for (int i = 0; i < t->nsteps[c]; i++) {
        int sign = t->step_delta[c][i] > 0 ? 1 : -1;
        t->step_sign[c] = i == 0 || t->step_sign[c] == sign ? sign : 0;
    }
    /* A cone that reaches no promotion square marks no runaway. */
    for (int cell = 0; cell < g->ncells; cell++)
        if (!(t->cone[c][cell] & v->promo_bb[c]))
            t->cone[c][cell] = 0;
}

void eval_prepare(struct eval_tables *t, const struct dm_variant *v)
{
    if (t->variant != v)
        eval_prepare_weights(t, v, eval_family_weights(v));
}

const struct eval_weights *eval_family_weights(const struct dm_variant *v)
{
    return &family_weights[family_of(v)];
}

void eval_prepare_weights(struct eval_tables *t, const struct dm_variant *v,
                          const struct eval_weights *w)
{
    const struct geometry *g = v->geo;
    t->variant = v;
    t->w = w;
    t->material_sign = goal_scales[v->goal].material_sign;
    t->positional_scale = goal_scales[v->goal].positional_scale;
    t->runaway_scale = goal_scales[v->goal].runaway_scale;
    t->material_only = t->positional_scale == 0 && t->runaway_scale == 0;
    t->ranks = g->ranks;
    t->wide = g->ncells > 64;
    dm_position start;
    dm_position_start(v, &start);
    t->start_pieces = popcount128(start.white | start.black);
    if (t->start_pieces == 0)
        t->start_pieces = 1;
    int sp = t->start_pieces;
    for (int p = 0; p <= DM_MAX_CELLS; p++) {
        int emptied = sp - p; /* below 0: a set-up position with more pieces */
        t->advance_at[p] = w->advance * (100 + w->endgame_advance * emptied / sp);
        t->trade_at[p] = w->trade * emptied;
    }
    t->trade_divisor = 100 * sp;
    t->centre = 0;
    t->wing[0] = t->wing[1] = 0;
    t->edge = 0;
    int top = g->ranks - 1;
    for (int c = 0; c < 2; c++) {
        /* Forward is towards the colour's far row (one-way: both go up). */
        bool up = (v->far_row_bb[c] & g->rank_bb[top]) != 0;
        t->back_rank[c] = g->rank_bb[up ? 0 : top];
        int promo_rank = up ? top : 0;
        for (dm_bits p = v->promo_bb[c]; p; p &= p - 1) {
            int r = g->rank_of[ctz128(p)];
            /* The nearest promotion row counts (Corner crowns on two cells). */
            if (up ? r < promo_rank : r > promo_rank)
                promo_rank = r;
        }
        for (int b = 0; b < 4; b++)
            t->progress_bit[c][b] = 0;
        t->near_promotion[c] = 0;
        for (int cell = 0; cell < g->ncells; cell++) {
            int r = g->rank_of[cell];
            t->progress[c][cell] = (int8_t)(up ? r : top - r);
            for (int b = 0; b < 4; b++)
                if (t->progress[c][cell] & (1 << b))
                    t->progress_bit[c][b] |= BIT128(cell);
            int left = up ? promo_rank - r : r - promo_rank;
            t->to_go[c][cell] = (int8_t)(v->promo_bb[c] && left > 0 ? left : 0);
            t->runaway_value[c][cell] =
                (int16_t)(t->w->runaway * (g->ranks - t->to_go[c][cell]) / g->ranks);
            if (t->to_go[c][cell] > 0 && t->to_go[c][cell] <= g->ranks / 2)
                t->near_promotion[c] |= BIT128(cell);
        }
        build_cones(t, v, c, up);
    }
    for (int cell = 0; cell < g->ncells; cell++) {
        int f = g->file_of[cell], r = g->rank_of[cell];
        if (f == 0 || f == g->files - 1)
            t->edge |= BIT128(cell);
        if (f < g->files / 2)
            t->wing[0] |= BIT128(cell);
        else if (f >= g->files - g->files / 2)
            t->wing[1] |= BIT128(cell);
        if (f >= g->files / 4 && f < g->files - g->files / 4 && r >= g->ranks / 4 &&
            r < g->ranks - g->ranks / 4)
            t->centre |= BIT128(cell);
    }
    pattern_prepare(&t->pattern, v);
}

const char *eval_family_name(const struct dm_variant *v)
{
    return family_names[family_of(v)];
}

/* Empty cells the kings in kings can move to. */
static int king_mobility(const struct dm_variant *v, dm_bits kings, dm_bits occupied)
{
    const struct geometry *g = v->geo;
    int n = 0;
    for (; kings; kings &= kings - 1) {
        int from = ctz128(kings);
        for (int d = 0; d < DIR_COUNT; d++) {
            if (!(v->king_step_dirs & DIRBIT(d)))
                continue;
            for (int c = g->next[from][d]; c >= 0 && !has128(occupied, c); c = g->next[c][d]) {
                n++;
                if (v->king != KING_FLYING)
                    break;
            }
        }
    }
    return n;
}

/* The cells of colour c none of whose steps forward lands on a cell of
 * closed (cells without steps among them). */
static inline dm_bits steps_open(const struct eval_tables *t, int c, dm_bits closed, bool wide)
{
    /* A narrow board's cells in one word, shifted one way for every step
     * of a colour (forward is one way in the cells' order): no test of
     * the delta's sign in the loop. */
    if (!wide && t->step_sign[c]) {
        uint64_t near = (uint64_t)closed, blocked = 0;
        if (t->step_sign[c] > 0)
            for (int i = 0; i < t->nsteps[c]; i++)
                blocked |= (uint64_t)t->step_mask[c][i] & near >> t->step_delta[c][i];
        else
            for (int i = 0; i < t->nsteps[c]; i++)
                blocked |= (uint64_t)t->step_mask[c][i] & near << -t->step_delta[c][i];
        return ~(dm_bits)blocked;
    }
    dm_bits blocked = 0;
    for (int i = 0; i < t->nsteps[c]; i++) {
        int d = t->step_delta[c][i];
        if (wide) {
            blocked |= t->step_mask[c][i] & (d > 0 ? closed >> d : closed << -d);
        } else {
            uint64_t near = (uint64_t)closed; /* a narrow board's cells */
            blocked |= t->step_mask[c][i] & (d > 0 ? near >> d : near << -d);
        }
    }
    return ~blocked;
}

/* The men of colour c in men that may be runaways: a man's cone holds the
 * cells one step ahead of it and their cones, so only a man whose steps
 * forward land on empty cells with empty steps forward in turn can have
 * an empty cone (two steps: most men fail them, for a few shifts). */
static inline dm_bits runaway_candidates(const struct eval_tables *t, int c, dm_bits men,
                                         dm_bits occupied, bool wide)
{
    dm_bits one = steps_open(t, c, occupied, wide);
    return men & steps_open(t, c, occupied | ~one, wide);
}

/* The material of colour c. */
static inline __attribute__((always_inline)) int material_of(const struct eval_weights *w,
                                                             const dm_position *pos, int c,
                                                             bool wide)
{
    dm_bits own = c == DM_WHITE ? pos->white : pos->black;
    return w->man * popcount_cells(own & ~pos->kings & ~pos->paras, wide) +
           w->king * popcount_cells(own & pos->kings, wide) +
           w->para * popcount_cells(own & pos->paras, wide);
}

/* A score within the evaluation's bounds (DM_SCORE_DECIDED and beyond are
 * the search's decided games). */
static inline int clamp_score(int score)
{
    const int bound = DM_SCORE_DECIDED - 1;
    return score > bound ? bound : score < -bound ? -bound : score;
}

/* Material, and the positional terms, of colour c.  Inlined twice, for
 * narrow and wide boards: on a board of 64 cells or fewer a set's high word
 * is empty, and counting it would cost a third of the evaluation's
 * popcounts. */
static inline __attribute__((always_inline)) void
side_terms(const struct eval_tables *t, const dm_position *pos, int c, bool wide, int advance,
           int *material, int *positional, int *runaway)
{
    const struct dm_variant *v = t->variant;
    const struct eval_weights *w = t->w;
    dm_bits own = c == DM_WHITE ? pos->white : pos->black;
    dm_bits occupied = pos->white | pos->black;
    dm_bits men = own & ~pos->kings & ~pos->paras;
    dm_bits kings = own & pos->kings;
    *material = material_of(w, pos, c, wide);
    int pos_score = w->back_rank * popcount_cells(men & t->back_rank[c], wide) +
                    w->centre * popcount_cells(men & t->centre, wide) -
                    w->edge * popcount_cells(men & t->edge, wide);
    if (kings)
        pos_score += w->king_mobility * king_mobility(v, kings, occupied);
    /* Men crowded on one wing leave the other one to the opponent's
     * outposts and run out of tempo moves there. */
    if (w->balance) {
        int wing_gap =
            popcount_cells(men & t->wing[0], wide) - popcount_cells(men & t->wing[1], wide);
        pos_score -= w->balance * (wing_gap < 0 ? -wing_gap : wing_gap);
    }
    /* The ranks the men have come, summed bit by bit of each one's count
     * (at most 11: four bits). */
    int progress = 0;
    for (int b = 0; b < 4; b++)
        progress += popcount_cells(men & t->progress_bit[c][b], wide) << b;
    pos_score += advance * progress / 100;
    /* A man with no step forward (every cell ahead of it taken) costs its
     * side a tempo move and often its way to promotion. */
    if (w->locked)
        pos_score -= w->locked * popcount_cells(men & steps_open(t, c, ~occupied, wide), wide);
    int run = 0;
    dm_bits candidates = runaway_candidates(t, c, men, occupied, wide);
    if (wide) {
        for (dm_bits m = candidates; m; m &= m - 1) {
            int cell = ctz128(m);
            dm_bits cone = t->cone[c][cell];
            if (cone && !(cone & occupied))
                run += t->runaway_value[c][cell];
        }
    } else {
        /* One word's steps, and a cone's low word alone. */
        for (uint64_t m = (uint64_t)candidates; m; m &= m - 1) {
            int cell = ctz64(m);
            uint64_t cone = (uint64_t)t->cone[c][cell];
            if (cone && !(cone & (uint64_t)occupied))
                run += t->runaway_value[c][cell];
        }
    }
    *positional = pos_score;
    *runaway = run;
}

/* The terms of both sides into a score for the side to move. */
static inline __attribute__((always_inline)) int hand_score(const struct eval_tables *t,
                                                            const dm_position *pos, bool wide)
{
    const struct eval_weights *w = t->w;
    /* The giveaway games count their material alone (the other terms
     * would be scaled to nothing). */
    if (t->material_only) {
        int lead = material_of(w, pos, pos->side, wide) - material_of(w, pos, pos->side ^ 1, wide);
        return clamp_score(t->material_sign * lead);
    }
    /* The advance's weight, in hundredths, grows as the board empties. */
    int pieces = popcount_cells(pos->white | pos->black, wide);
    int advance = t->advance_at[pieces];
    int mat[2], posi[2], run[2];
    for (int c = 0; c < 2; c++)
        side_terms(t, pos, c, wide, advance, &mat[c], &posi[c], &run[c]);
    int us = pos->side, them = us ^ 1;
    int lead = mat[us] - mat[them];
    if (t->material_sign > 0 && lead && t->trade_at[pieces])
        lead += lead * t->trade_at[pieces] / t->trade_divisor;
    int score = t->material_sign * lead +
                t->positional_scale * (posi[us] - posi[them]) / 100 +
                t->runaway_scale * (run[us] - run[them]) / 100;
    /* Kings on both sides: most such endings are drawn, whatever else the
     * material says (the giveaway games, unmeasured, keep their score). */
    if (t->material_sign > 0 && (pos->white & pos->kings) && (pos->black & pos->kings))
        score = score * w->kings_both / 100;
    return clamp_score(score);
}

int eval_position(const struct eval_tables *t, const dm_position *pos)
{
    return t->pattern.on ? pattern_evaluate(t, pos) : eval_hand(t, pos);
}

int eval_hand(const struct eval_tables *t, const dm_position *pos)
{
    return t->wide ? hand_score(t, pos, true) : hand_score(t, pos, false);
}

int dm_evaluate(const dm_variant *v, const dm_position *pos)
{
    struct eval_tables t = {0};
    eval_prepare(&t, v);
    return eval_position(&t, pos);
}
