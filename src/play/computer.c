/* SPDX-License-Identifier: MIT */
/*
 * computer.c - the computer player: levels on top of the engine
 * (src/engine), the draw-offer judgement and the hint.
 *
 * A level is a set of search limits.  The low levels search shallowly and
 * choose at random among the moves that score nearly as well as the best,
 * so that they make the mistakes a beginner makes; the middle levels search
 * to a node count, which plays the same on every machine; the top levels
 * think for a time (the strongest, with a clock, for its share of the
 * clock).  Every level also keeps to its share of the clock, so the
 * computer never loses on time for thinking too long.
 *
 * A search is a function of a snapshot (positions, level, seed, clock) and
 * an engine the caller passes, so it can run on any thread.  The match's
 * own seats keep one engine each, made at the first search and grown when
 * a level asks for a bigger table: making one per move would cost more
 * than a weak level's whole search.  Its table is cleared before each
 * search of a level without a time limit, so that such a search plays the
 * same whatever came before it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "damier/egdb.h"
#include "play/play.h"

#define HINT_NODES 300000 /* a hint: about a tenth of a second           */
#define DRAW_NODES 200000 /* judging a draw offer                         */
/* The computer accepts a draw unless it stands better by this much (a
 * quarter of a man). */
#define DRAW_ACCEPT_BELOW 25
/* From this level on the computer plays the opening out: no draw in the
 * first moves while nearly every piece is still on the board. */
#define DRAW_OPENING_LEVEL  5
#define DRAW_OPENING_PLIES  20 /* ten moves each                         */
#define DRAW_OPENING_TAKEN  4  /* pieces off the board, both sides        */
/* From this level on the computer plays its opening book while the game
 * is in it (the weaker levels make their own opening mistakes), choosing
 * among the book's moves scoring within BOOK_MARGIN of the best. */
#define BOOK_LEVEL  5
#define BOOK_MARGIN 10

/* From level 5 the computer plays for a win: a draw costs it 0.3 man, so
 * that it keeps playing a position it is not worse in rather than repeat
 * moves (Gothic's men can shuffle sideways for ever) or trade into a drawn
 * table.  At 20000 nodes a move against a2e3ad3's engine, 200 games:
 * Russian 59.8% without, 62.0% with it; English 75.8%, 76.5%. */
#define PLAY_CONTEMPT 30

/* The search limits of each level; zero fields do not limit.  The hash
 * table grows with the search (a bigger one costs more to clear than a
 * short search gains from it). */
/* clang-format off */
static const struct level {
    int depth;
    uint64_t nodes;
    int64_t move_ms;
    bool by_clock;  /* with a clock: its share of the clock, not move_ms */
    int margin;     /* random choice among moves this close to the best  */
    size_t hash_mb;
    int contempt;   /* a draw's cost to the computer (dm_search_limits)  */
} levels[DM_LEVEL_MAX + 1] = {
    [DM_LEVEL_HINT] = {0, HINT_NODES, 0,    false, 0,   16, 0},
    [1]             = {1, 0,          0,    false, 150, 1,  0},
    [2]             = {2, 0,          0,    false, 80,  1,  0},
    [3]             = {3, 0,          0,    false, 40,  1,  0},
    [4]             = {4, 0,          0,    false, 20,  1,  0},
    [5]             = {6, 100000,     0,    false, 0,   4,  PLAY_CONTEMPT},
    [6]             = {0, 300000,     0,    false, 0,   16, PLAY_CONTEMPT},
    [7]             = {0, 1000000,    0,    false, 0,   32, PLAY_CONTEMPT},
    [8]             = {0, 3000000,    0,    false, 0,   64, PLAY_CONTEMPT},
    [9]             = {0, 0,          1000, false, 0,   64, PLAY_CONTEMPT},
    [10]            = {0, 0,          2000, true,  0,   64, PLAY_CONTEMPT},
};
/* clang-format on */

size_t dm_level_hash_mb(int level)
{
    return level >= DM_LEVEL_HINT && level <= DM_LEVEL_MAX ? levels[level].hash_mb : 0;
}

int dm_level_contempt(int level)
{
    return level >= DM_LEVEL_HINT && level <= DM_LEVEL_MAX ? levels[level].contempt : 0;
}

dm_engine *dm_player_engine_new(size_t mb)
{
    dm_engine *e = dm_engine_new(mb);
    char root[512];
    dm_error err;
    /* No folder known (no HOME): no tables, which is no error. */
    if (e && dm_egdb_default_root(root, sizeof root, &err) == 0)
        dm_engine_set_egdb(e, root);
    return e;
}

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

int dm_match_snapshot(dm_match *m, int level, dm_snapshot *s, dm_error *err)
{
    memset(s, 0, sizeof *s);
    if (level < DM_LEVEL_HINT || level > DM_LEVEL_MAX) {
        snprintf(err->msg, sizeof err->msg, "level %d: levels are 1 to %d", level, DM_LEVEL_MAX);
        return -1;
    }
    if (dm_match_over(m)) {
        snprintf(err->msg, sizeof err->msg, "the game is over: %s", dm_match_reason(m));
        return -1;
    }
    int ply = dm_game_ply(m->game);
    s->positions = malloc((size_t)(ply + 1) * sizeof *s->positions);
    if (!s->positions) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    for (int i = 0; i <= ply; i++)
        s->positions[i] = *dm_game_position(m->game, i);
    s->variant = dm_game_variant(m->game);
    s->ply = ply;
    s->level = level;
    /* Only the levels that choose at random use up a seed, so that a hint
     * or a draw judgement leaves a seeded game as it would have gone. */
    s->seed = levels[level].margin ? next_random(&m->rng) : 0;
    s->clock = m->clock;
    if (!m->timed || level == DM_LEVEL_HINT)
        s->clock.tc.kind = DM_CLOCK_NONE;
    s->seq = m->seq;
    if (!m->no_book && level >= BOOK_LEVEL) {
        const dm_book *book = m->book ? m->book : dm_book_builtin(s->variant);
        dm_book_move first;
        if (dm_book_moves(book, &s->positions[ply], &first, 1) > 0) {
            s->book = book;
            if (!s->seed) /* the book's choice varies at every level */
                s->seed = next_random(&m->rng);
        }
    }
    return 0;
}

void dm_snapshot_free(dm_snapshot *s)
{
    free(s->positions);
    memset(s, 0, sizeof *s);
}

/* The mover's clock as search limits: time left, increment, and the moves
 * until the next period. */
static void clock_limits(const dm_clock *clock, int side, dm_search_limits *l)
{
    if (clock->tc.kind == DM_CLOCK_NONE)
        return;
    l->time_left_ms = dm_clock_left(clock, (enum dm_color)side);
    if (l->time_left_ms < 1)
        l->time_left_ms = 1;
    switch (clock->tc.kind) {
    case DM_CLOCK_FISCHER:
        l->increment_ms = clock->tc.increment_ms;
        break;
    case DM_CLOCK_MOVES_IN_TIME:
        l->increment_ms = clock->tc.increment_ms;
        if (clock->tc.moves > 0)
            l->moves_to_go = clock->tc.moves - clock->moves[side] % clock->tc.moves;
        break;
    case DM_CLOCK_PER_MOVE:
        l->moves_to_go = 1;
        break;
    default:
        break;
    }
}

/* Searches s's current position within limits (and s's clock), from an
 * empty table if fresh; false if there is no move. */
static bool think(dm_engine *e, const dm_snapshot *s, dm_search_limits limits, bool fresh,
                  dm_search_result *r)
{
    const dm_position *pos = &s->positions[s->ply];
    if (fresh)
        dm_engine_new_game(e);
    /* Read last, so that the time spent above counts. */
    clock_limits(&s->clock, pos->side, &limits);
    return dm_engine_search(e, s->variant, pos, s->positions, s->ply, &limits, r) == 0;
}

int dm_snapshot_move(dm_engine *e, const dm_snapshot *s, dm_move *mv, dm_error *err)
{
    if (s->book && dm_book_choose(s->book, &s->positions[s->ply], BOOK_MARGIN, s->seed, mv))
        return 0;
    int level = s->level >= DM_LEVEL_HINT && s->level <= DM_LEVEL_MAX ? s->level : 1;
    const struct level *lv = &levels[level];
    dm_search_limits limits = {.depth = lv->depth,
                               .nodes = lv->nodes,
                               .move_time_ms = lv->move_ms,
                               .random_margin = lv->margin,
                               .seed = lv->margin ? s->seed : 0,
                               .contempt = lv->contempt};
    if (lv->by_clock && s->clock.tc.kind != DM_CLOCK_NONE)
        limits.move_time_ms = 0;
    dm_search_result r;
    if (!think(e, s, limits, lv->move_ms == 0, &r) || !r.has_move) {
        snprintf(err->msg, sizeof err->msg, "the position has no legal move");
        return -1;
    }
    *mv = r.best;
    return 0;
}

int dm_match_draw_snapshot(dm_match *m, enum dm_color judge, dm_snapshot *s, dm_error *err)
{
    const dm_seat *seat = &m->seat[judge & 1];
    if (seat->kind != DM_SEAT_COMPUTER) {
        snprintf(err->msg, sizeof err->msg, "%s is not played by the computer",
                 judge == DM_WHITE ? "White" : "Black");
        return -1;
    }
    /* The hint's level draws no seed: the game's random choices stay as
     * they would have gone without the offer. */
    if (dm_match_snapshot(m, DM_LEVEL_HINT, s, err) != 0)
        return -1;
    s->level = seat->level;
    return 0;
}

/* Whether the position alone settles the answer to a draw offered to
 * color: a piece or more up it plays on, and from DRAW_OPENING_LEVEL on
 * so it does in the opening. */
static bool draw_refused_by_position(const dm_snapshot *s, enum dm_color color)
{
    const dm_position *pos = &s->positions[s->ply];
    int mine = popcount128(color == DM_WHITE ? pos->white : pos->black);
    int theirs = popcount128(color == DM_WHITE ? pos->black : pos->white);
    if (mine > theirs)
        return true;
    if (s->level < DRAW_OPENING_LEVEL || s->ply >= DRAW_OPENING_PLIES)
        return false;
    dm_position start;
    dm_position_start(s->variant, &start);
    int at_start = popcount128(start.white | start.black);
    return popcount128(pos->white | pos->black) + DRAW_OPENING_TAKEN >= at_start;
}

bool dm_snapshot_accepts_draw(dm_engine *e, const dm_snapshot *s, enum dm_color color)
{
    if (draw_refused_by_position(s, color))
        return false;
    dm_search_limits limits = {.nodes = DRAW_NODES};
    dm_snapshot untimed = *s;
    untimed.clock.tc.kind = DM_CLOCK_NONE;
    dm_search_result r;
    if (!think(e, &untimed, limits, true, &r))
        return true; /* the game is decided anyway; nothing to play for */
    int side = s->positions[s->ply].side;
    int mine = side == (int)color ? r.score : -r.score;
    return mine < DRAW_ACCEPT_BELOW;
}

dm_engine *play_engine(dm_match *m, enum dm_color color, size_t mb)
{
    if (!m->engine[color] || m->engine_mb[color] < mb) {
        dm_engine_free(m->engine[color]);
        m->engine[color] = dm_player_engine_new(mb);
        m->engine_mb[color] = m->engine[color] ? mb : 0;
    }
    return m->engine[color];
}

/* Searches the current position at level with the engine of the side to
 * move's seat. */
static int seat_search(dm_match *m, int level, dm_move *mv, dm_error *err)
{
    dm_snapshot s;
    if (dm_match_snapshot(m, level, &s, err) != 0)
        return -1;
    dm_engine *e = play_engine(m, dm_match_turn(m), dm_level_hash_mb(level));
    int rc = -1;
    if (!e)
        snprintf(err->msg, sizeof err->msg, "out of memory for the engine");
    else
        rc = dm_snapshot_move(e, &s, mv, err);
    dm_snapshot_free(&s);
    return rc;
}

int dm_match_computer_move(dm_match *m, dm_move *mv, dm_error *err)
{
    const dm_seat *seat = &m->seat[dm_match_turn(m)];
    if (seat->kind != DM_SEAT_COMPUTER) {
        snprintf(err->msg, sizeof err->msg, "%s is not played by the computer",
                 dm_match_turn(m) == DM_WHITE ? "White" : "Black");
        return -1;
    }
    return seat_search(m, seat->level, mv, err);
}

int dm_match_hint(dm_match *m, dm_move *mv, dm_error *err)
{
    return seat_search(m, DM_LEVEL_HINT, mv, err);
}

int dm_match_computer_answer(dm_match *m, dm_error *err)
{
    int answers = 0;
    if (m->request >= 0 && m->seat[m->request ^ 1].kind == DM_SEAT_COMPUTER) {
        if (dm_match_answer_takeback(m, (enum dm_color)(m->request ^ 1), true, err) != 0)
            return -1;
        answers++;
    }
    if (m->offer >= 0 && m->seat[m->offer ^ 1].kind == DM_SEAT_COMPUTER) {
        enum dm_color me = (enum dm_color)(m->offer ^ 1);
        dm_snapshot s;
        if (dm_match_draw_snapshot(m, me, &s, err) != 0)
            return -1;
        dm_engine *e = play_engine(m, me, dm_level_hash_mb(DM_LEVEL_HINT));
        if (!e) {
            dm_snapshot_free(&s);
            snprintf(err->msg, sizeof err->msg, "out of memory for the engine");
            return -1;
        }
        bool accept = dm_snapshot_accepts_draw(e, &s, me);
        dm_snapshot_free(&s);
        if (dm_match_answer_draw(m, me, accept, err) != 0)
            return -1;
        answers++;
    }
    return answers;
}
