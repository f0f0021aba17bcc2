/* SPDX-License-Identifier: MIT */
/*
 * computer.c - the computer player of a terminal game: levels on top of the
 * engine (src/engine).
 *
 * A level is a set of search limits.  The low levels search shallowly and
 * choose at random among the moves that score nearly as well as the best,
 * so that they make the mistakes a beginner makes; the middle levels search
 * to a node count, which plays the same on every machine; the top levels
 * think for a time (the strongest, with a clock, for its share of the
 * clock).  Every level also keeps to its share of the clock, so the computer
 * never loses on time for thinking too long.  The random choices come from the session's
 * seedable generator, so a seeded game at a level without time limits
 * replays exactly.  The engine is made at the first call and kept for the
 * process (a terminal session plays one game, in one thread): making one
 * per move would cost more than a weak level's whole search.  Its hash
 * table is cleared before each search of a level without a time limit, so
 * that such a search plays the same whatever came before it.
 */
#include <stdlib.h>

#include "tui/tui.h"

#define HINT_NODES 300000 /* a hint: about a tenth of a second           */
#define DRAW_NODES 200000 /* judging a draw offer                         */
/* The computer accepts a draw unless it stands better by this much (a
 * quarter of a man). */
#define DRAW_ACCEPT_BELOW 25

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
} levels[TUI_LEVEL_MAX + 1] = {
    [TUI_LEVEL_HINT] = {0, HINT_NODES, 0,    false, 0,   16},
    [1]              = {1, 0,          0,    false, 150, 1},
    [2]              = {2, 0,          0,    false, 60,  1},
    [3]              = {4, 0,          0,    false, 25,  1},
    [4]              = {6, 100000,     0,    false, 0,   4},
    [5]              = {0, 300000,     0,    false, 0,   16},
    [6]              = {0, 1000000,    0,    false, 0,   32},
    [7]              = {0, 0,          700,  false, 0,   64},
    [8]              = {0, 0,          2000, true,  0,   64},
};
/* clang-format on */

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

/* The mover's clock as search limits: time left, increment, and the moves
 * until the next period. */
static void clock_limits(const dm_clock *clock, int side, dm_search_limits *l)
{
    if (!clock || clock->tc.kind == DM_CLOCK_NONE)
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

/* The engine, with a hash table of at least hash_mb (grown when a level
 * asks for more), or NULL if memory runs out. */
static dm_engine *engine_of(size_t hash_mb)
{
    static dm_engine *engine;
    static size_t engine_mb;
    if (!engine || engine_mb < hash_mb) {
        dm_engine_free(engine);
        engine = dm_engine_new(hash_mb);
        engine_mb = engine ? hash_mb : 0;
    }
    return engine;
}

/* Searches g's current position within limits with a hash table of
 * hash_mb at least, and within the clock (NULL: none), from an empty table
 * if fresh; false if there is no move or memory runs out. */
static bool think(const dm_game *g, const dm_clock *clock, dm_search_limits limits, size_t hash_mb,
                  bool fresh, dm_search_result *r)
{
    int ply = dm_game_ply(g);
    const dm_position *pos = dm_game_position(g, ply);
    dm_position *history = malloc((size_t)(ply > 0 ? ply : 1) * sizeof *history);
    dm_engine *engine = engine_of(hash_mb);
    bool ok = false;
    if (history && engine) {
        for (int i = 0; i < ply; i++)
            history[i] = *dm_game_position(g, i);
        if (fresh)
            dm_engine_new_game(engine);
        /* Read last, so that the time spent above counts. */
        clock_limits(clock, pos->side, &limits);
        ok = dm_engine_search(engine, dm_game_variant(g), pos, history, ply, &limits, r) == 0;
    }
    free(history);
    return ok;
}

int tui_computer_move(const dm_game *g, const dm_clock *clock, int level, uint64_t *rng)
{
    if (level < TUI_LEVEL_HINT || level > TUI_LEVEL_MAX)
        level = 1;
    const struct level *lv = &levels[level];
    dm_search_limits limits = {.depth = lv->depth,
                               .nodes = lv->nodes,
                               .move_time_ms = lv->move_ms,
                               .random_margin = lv->margin,
                               .seed = lv->margin ? next_random(rng) : 0};
    if (level == TUI_LEVEL_HINT || !clock || clock->tc.kind == DM_CLOCK_NONE)
        clock = NULL;
    else if (lv->by_clock)
        limits.move_time_ms = 0;
    dm_search_result r;
    const dm_move_list *legal = dm_game_legal(g);
    if (!think(g, clock, limits, lv->hash_mb, lv->move_ms == 0, &r))
        return 0;
    for (int i = 0; i < legal->count; i++)
        if (dm_move_same(&legal->moves[i], &r.best))
            return i;
    return 0;
}

bool tui_computer_accepts_draw(const dm_game *g, int color)
{
    dm_search_limits limits = {.nodes = DRAW_NODES};
    dm_search_result r;
    if (!think(g, NULL, limits, levels[TUI_LEVEL_HINT].hash_mb, true, &r))
        return true; /* the game is decided anyway; nothing to play for */
    int side = dm_game_position(g, dm_game_ply(g))->side;
    int mine = side == color ? r.score : -r.score;
    return mine < DRAW_ACCEPT_BELOW;
}
