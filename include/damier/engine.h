/* SPDX-License-Identifier: MIT */
/*
 * damier/engine.h - the engine layer (src/engine): search and evaluation.
 * It stands on the rules alone: moves stay structs, never text.
 */
#ifndef DAMIER_ENGINE_H
#define DAMIER_ENGINE_H

#include "damier/rules.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- engine: search and evaluation (src/engine) ---- */

/*
 * A computer player: iterative deepening PVS with a transposition table,
 * quiescence on forced captures and a static evaluation whose weights come
 * from a table per family of variants.  Scores are in hundredths of a man
 * from the side to move's point of view; a game decided by the rules (no
 * move left, giveaway's inverted goal, Breakthrough's first king) scores
 * DM_SCORE_WIN minus the plies it takes, negated for a loss.  An engine is
 * used by one thread at a time; it allocates everything in dm_engine_new
 * and nothing while it searches.
 */

#define DM_SCORE_WIN     30000 /* the side to move has won                      */
#define DM_SCORE_DECIDED 29000 /* |score| above this: a forced win or loss      */
#define DM_MAX_PV        64    /* moves of the principal variation kept         */
#define DM_MAX_DEPTH     100   /* nominal plies an iteration may reach          */

/* Plies to the end of a decided score (> 0 for a win, < 0 for a loss), or 0
 * when the score is not decided. */
static inline int dm_score_plies_to_end(int score)
{
    return score > DM_SCORE_DECIDED    ? DM_SCORE_WIN - score
           : score < -DM_SCORE_DECIDED ? -(DM_SCORE_WIN + score)
                                       : 0;
}

typedef struct dm_engine dm_engine;

/* When to stop; zero fields do not limit.  Without depth, nodes or time the
 * search goes to DM_MAX_DEPTH.  With only depth and nodes it is exactly
 * reproducible: the same engine state, position and limits give the same
 * move, score and node count. */
typedef struct dm_search_limits {
    int depth;              /* iterations of this many plies at most           */
    uint64_t nodes;         /* stop once this many nodes are searched          */
    int64_t move_time_ms;   /* a fixed time for this move                      */
    int64_t time_left_ms;   /* the mover's clock: time left,                   */
    int64_t increment_ms;   /*   added after the move,                         */
    int moves_to_go;        /*   moves until more time comes (0: sudden death)  */
    /* Weaker play: choose at random (from seed) among the root moves scoring
     * within random_margin of the best; every root move is then searched with
     * a full window.  0: the best move. */
    int random_margin;
    uint64_t seed;
    dm_time_source *now;    /* NULL: the monotonic clock                        */
    void *now_ctx;
} dm_search_limits;

typedef struct dm_search_result {
    bool has_move;          /* false: the position has no legal move            */
    dm_move best;           /* one of dm_generate's moves for the position      */
    int score;              /* of the last completed iteration                  */
    int depth;              /* the last completed iteration                     */
    int seldepth;           /* the deepest ply reached                          */
    uint64_t nodes;
    int64_t time_ms;
    int pv_length;
    dm_move pv[DM_MAX_PV];  /* pv[0] is best                                    */
} dm_search_result;

/* An engine with a transposition table of about tt_mb megabytes (0: 16),
 * rounded down to a power of two; NULL if memory runs out. */
dm_engine *dm_engine_new(size_t tt_mb);
void dm_engine_free(dm_engine *e);
/* Forgets what earlier searches learnt (the transposition table). */
void dm_engine_new_game(dm_engine *e);

/*
 * Searches pos of v within limits and fills result.  history holds the
 * nhistory positions of the game before pos, oldest first (NULL, 0: none):
 * a position that repeats one of them, or one earlier in the search, scores
 * as a draw.  Returns 0, or -1 when pos has no legal move or is already
 * decided (result->has_move false, result->score the outcome).
 */
int dm_engine_search(dm_engine *e, const dm_variant *v, const dm_position *pos,
                     const dm_position *history, int nhistory, const dm_search_limits *limits,
                     dm_search_result *result);

/* The static evaluation of pos for its side to move (no search). */
int dm_evaluate(const dm_variant *v, const dm_position *pos);

#ifdef __cplusplus
}
#endif

#endif /* DAMIER_ENGINE_H */
