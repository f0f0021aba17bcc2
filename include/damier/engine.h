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
 * DM_SCORE_WIN minus the plies it takes, negated for a loss.
 *
 * Threads: an engine searches from one thread at a time (the thread that
 * calls dm_engine_search, with helper threads of its own when
 * dm_engine_set_threads asks for them); engines share nothing mutable, so
 * several may search on several threads at once.  Any other thread may call
 * dm_engine_stop and dm_engine_ponder_hit on an engine while it searches.
 * An engine allocates everything in dm_engine_new (under 1 MB besides its
 * transposition table) and nothing while it searches.
 */

#define DM_SCORE_WIN     30000 /* the side to move has won                      */
#define DM_SCORE_DECIDED 29000 /* |score| above this: a forced win or loss      */
#define DM_MAX_PV        64    /* moves of the principal variation kept         */
#define DM_MAX_DEPTH     100   /* nominal plies an iteration may reach          */
#define DM_MAX_MULTIPV   16    /* lines a search may keep (dm_search_limits.multipv) */
#define DM_MAX_THREADS   64    /* threads a search may use (dm_engine_set_threads) */

/* Plies to the end of a decided score (> 0 for a win, < 0 for a loss), or 0
 * when the score is not decided. */
static inline int dm_score_plies_to_end(int score)
{
    return score > DM_SCORE_DECIDED    ? DM_SCORE_WIN - score
           : score < -DM_SCORE_DECIDED ? -(DM_SCORE_WIN + score)
                                       : 0;
}

typedef struct dm_engine dm_engine;

/* What a score says about the true value of its line. */
enum dm_score_bound {
    DM_BOUND_EXACT = 0, /* the line was searched to its depth              */
    DM_BOUND_LOWER = 1, /* the best so far of an unfinished iteration: the
                           position is worth at least this                 */
};

/* What the search reports as it goes (dm_search_limits.on_info).  A report
 * comes after each finished line of an iteration (each multipv line, with
 * its index) and each time a new root move becomes the best of a line
 * within an iteration (DM_BOUND_LOWER). */
typedef struct dm_search_info {
    int depth;             /* nominal plies of the iteration                 */
    int seldepth;          /* the deepest ply the search has reached         */
    int score;             /* as dm_search_result.score, for this line       */
    enum dm_score_bound bound;
    int multipv;           /* the line: 1 is the best, 2 the next ...        */
    uint64_t nodes;        /* since the search started                       */
    uint64_t nps;          /* nodes per second (0 before the first ms)       */
    int64_t time_ms;       /* since the search started                       */
    int pv_length;
    const dm_move *pv;     /* the line; valid during the call only           */
} dm_search_info;

/* One line of a multipv search (dm_engine_line). */
typedef struct dm_search_line {
    int score;
    int depth;             /* the iteration that found it                    */
    enum dm_score_bound bound;
    int pv_length;
    dm_move pv[DM_MAX_PV]; /* pv[0] is the line's root move                  */
} dm_search_line;

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
     * within random_margin of the best, but never pass over a shot (a best
     * move a man or more above the evaluation: then only moves winning half
     * of that); every root move is then searched with a full window.  0: the
     * best move. */
    int random_margin;
    uint64_t seed;
    dm_time_source *now;    /* NULL: the monotonic clock                        */
    void *now_ctx;
    /* Called on the searching thread, within dm_engine_search, with what
     * it found so far (NULL: no reports).  It must return quickly and not
     * call the engine, except dm_engine_stop and dm_engine_ponder_hit. */
    void (*on_info)(void *ctx, const dm_search_info *info);
    void *info_ctx;
    /* Pondering: the time limits are not armed until dm_engine_ponder_hit
     * (depth and nodes still limit); a ponder search that ends before the
     * hit or a stop waits for one of them before it returns. */
    bool ponder;
    /* The best multipv root moves (0 or 1: the best only; at most
     * DM_MAX_MULTIPV), each with an exact score and its own line, searched
     * one after another within each iteration.  Ignored with
     * random_margin, which scores every root move anyway. */
    int multipv;
    /* The draw rules whose move counters the search applies (a position
     * they draw scores 0), as dm_game_new's. */
    enum dm_rules rules;
    /* Playing for a win: a draw (a repetition, a move counter, an endgame
     * table's draw) scores -contempt for the side to move at the root and
     * +contempt for its opponent, in hundredths of a man, so that the
     * engine plays on where it is not worse by more than that.  0: draws
     * score 0 (analysis, hints). */
    int contempt;
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
    dm_move pv[DM_MAX_PV];  /* pv[0] is best, pv[1] the reply to ponder on      */
    int lines;              /* multipv lines kept: dm_engine_line(e, 0..lines-1) */
} dm_search_result;

/* An engine with a transposition table of about tt_mb megabytes (0: 16),
 * rounded down to a power of two; NULL if memory runs out. */
dm_engine *dm_engine_new(size_t tt_mb);
void dm_engine_free(dm_engine *e);
/* Searches on threads threads (1 to DM_MAX_THREADS; 1 when made): the
 * engine's own and threads - 1 helpers that search the same position
 * beside it and share its transposition table (Lazy SMP), each with its
 * own move stack (about 1 MB), allocated here.  Such a search is not
 * reproducible, and its node count adds the helpers'.  Returns 0, or -1
 * for a count out of range or when memory runs out (the engine then keeps
 * the threads it had, or those it could add).  Not while it searches. */
int dm_engine_set_threads(dm_engine *e, int threads);
int dm_engine_threads(const dm_engine *e);

/* Endgame tables (damier/egdb.h): the searches of e probe those under root
 * (ROOT/VARIANT/, as damier egdb build writes them) where few pieces are
 * left and no capture is pending, scoring a win as 25000 less the plies
 * from the root to the end (docs/egdb.md).  NULL or "": none (the default).
 * Missing tables are no error: nothing is probed. */
void dm_engine_set_egdb(dm_engine *e, const char *root);
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

/* Line index (0: the best) of the last search of e, best first, into
 * *line; -1 if there is no such line.  Line 0 is the result's best move
 * and principal variation.  When a stop ended an iteration early, its
 * finished lines come first and the previous iteration's others follow. */
int dm_engine_line(const dm_engine *e, int index, dm_search_line *line);

/*
 * Stops the search running on e as soon as possible (it checks at every
 * node); it returns its best move so far: the last finished iteration's,
 * or the best of an unfinished one when a root move has been searched to
 * the end.  May be called from any thread.  A stop (or a ponder hit) that
 * comes before the search starts is kept for it, so that none is lost; the
 * search forgets both when it returns, so a caller must not send one after
 * it knows the search has returned (the next search would take it).
 */
void dm_engine_stop(dm_engine *e);
/* Ends the pondering of the search running on e: its time limits start from
 * this moment, as if the move's time began now.  Any thread. */
void dm_engine_ponder_hit(dm_engine *e);
/* Drops a stop or ponder hit that is still pending: one that raced with the
 * end of the last search (sent before the sender could know it had
 * returned).  The thread that starts searches calls it before starting the
 * next one, when nothing else can signal the engine. */
void dm_engine_forget_signals(dm_engine *e);

/* The static evaluation of pos for its side to move (no search). */
int dm_evaluate(const dm_variant *v, const dm_position *pos);

#ifdef __cplusplus
}
#endif

#endif /* DAMIER_ENGINE_H */
