/* SPDX-License-Identifier: MIT */
/*
 * pool.h - the engine worker pool: threads that each own a dm_engine and
 * run the searches the event loop hands them (the computer's moves, its
 * answer to a draw offer, analyses), so the loop never waits for a search.
 *
 * The loop submits a job, a worker fills in its answer and calls the
 * wake function (lws_cancel_service), and the loop collects finished jobs
 * with pool_take_done on its own thread.  A job holds copies only (a
 * dm_snapshot, positions): the game it came from may change or end
 * meanwhile, which the loop checks (the snapshot's seq) before using it.
 */
#ifndef DM_SERVER_POOL_H
#define DM_SERVER_POOL_H

#include "damier.h"
#include "server/store.h"

enum pool_kind {
    POOL_MOVE,     /* the computer's move in snap                            */
    POOL_DRAW,     /* whether the computer (snap's side to move's opponent
                      is the offerer) accepts a draw: color is the computer */
    POOL_ANALYSIS, /* a search of pos within nodes, for an HTTP request      */
};

typedef struct pool_job {
    enum pool_kind kind;
    char game[STORE_ID];    /* the game it is for ("" for an analysis)      */
    uint64_t request;       /* the analysis' HTTP request                    */
    dm_snapshot snap;       /* MOVE, DRAW: owned by the job                  */
    enum dm_color color;    /* DRAW                                          */
    /* ANALYSIS: the position, the game's earlier positions (malloc'ed,
     * owned by the job), the node budget. */
    const dm_variant *variant;
    dm_position pos;
    dm_position *history;
    int nhistory;
    uint64_t nodes;
    /* The answer. */
    int rc;                 /* 0, or -1 with err                            */
    dm_error err;
    dm_move move;           /* MOVE                                          */
    bool accepts;           /* DRAW                                          */
    dm_search_result result;/* ANALYSIS                                      */
    struct pool_job *next;
} pool_job;

typedef struct pool pool;

/* Starts threads workers; wake(ctx) is called from a worker after each
 * job it finishes.  NULL if a thread cannot start. */
pool *pool_start(int threads, void (*wake)(void *ctx), void *ctx);
/* Stops the searches running, joins the workers, frees every job left. */
void pool_stop(pool *p);
/* Queues job (malloc'ed; the pool owns it until pool_take_done). */
void pool_submit(pool *p, pool_job *job);
/* The finished jobs, oldest first, as a list the caller frees with
 * pool_job_free; NULL if none. */
pool_job *pool_take_done(pool *p);
void pool_job_free(pool_job *job);

#endif
