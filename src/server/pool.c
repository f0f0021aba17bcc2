/* SPDX-License-Identifier: MIT */
/*
 * pool.c - the worker threads of pool.h: one queue of jobs under a mutex,
 * a condition variable the workers wait on, a list of finished jobs.  Each
 * worker makes its engine at its first job and grows the hash table when
 * a level wants more (dm_level_hash_mb), so a server that never plays the
 * computer holds no engine memory.
 */
#include "server/pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define ANALYSIS_HASH_MB 16

typedef struct worker {
    pthread_t thread;
    pool *pool;
    dm_engine *engine;
    size_t hash_mb;
    dm_engine *_Atomic busy; /* the engine while it searches, for pool_stop */
} worker;

struct pool {
    pthread_mutex_t lock;
    pthread_cond_t work;
    pool_job *queue, *queue_tail, *done, *done_tail;
    bool stopping;
    int nworkers;
    worker *workers;
    void (*wake)(void *ctx);
    void *wake_ctx;
};

void pool_job_free(pool_job *job)
{
    if (!job)
        return;
    if (job->kind != POOL_ANALYSIS)
        dm_snapshot_free(&job->snap);
    free(job->history);
    free(job);
}

/* The engine of w with at least mb of hash, or NULL. */
static dm_engine *engine_for(worker *w, size_t mb)
{
    if (w->engine && w->hash_mb >= mb)
        return w->engine;
    dm_engine_free(w->engine);
    w->engine = dm_player_engine_new(mb);
    w->hash_mb = w->engine ? mb : 0;
    return w->engine;
}

static void run_job(worker *w, pool_job *job)
{
    size_t mb = job->kind == POOL_ANALYSIS ? ANALYSIS_HASH_MB : dm_level_hash_mb(job->snap.level);
    dm_engine *e = engine_for(w, mb);
    if (!e) {
        job->rc = -1;
        strcpy(job->err.msg, "out of memory for the engine");
        return;
    }
    /* Each job is its own game: what an earlier one learnt would make a
     * computer's move depend on which worker took it. */
    dm_engine_new_game(e);
    dm_engine_forget_signals(e);
    w->busy = e;
    switch (job->kind) {
    case POOL_MOVE:
        job->rc = dm_snapshot_move(e, &job->snap, &job->move, &job->err);
        break;
    case POOL_DRAW:
        job->accepts = dm_snapshot_accepts_draw(e, &job->snap, job->color);
        job->rc = 0;
        break;
    case POOL_ANALYSIS: {
        dm_search_limits lim = {.nodes = job->nodes};
        job->rc = dm_engine_search(e, job->variant, &job->pos, job->history, job->nhistory, &lim,
                                   &job->result);
        if (job->rc < 0)
            strcpy(job->err.msg, "the position has no legal move");
        break;
    }
    }
    w->busy = NULL;
}

static void *work(void *arg)
{
    worker *w = arg;
    pool *p = w->pool;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        while (!p->queue && !p->stopping)
            pthread_cond_wait(&p->work, &p->lock);
        if (p->stopping) {
            pthread_mutex_unlock(&p->lock);
            break;
        }
        pool_job *job = p->queue;
        p->queue = job->next;
        if (!p->queue)
            p->queue_tail = NULL;
        pthread_mutex_unlock(&p->lock);

        run_job(w, job);

        job->next = NULL;
        pthread_mutex_lock(&p->lock);
        if (p->done_tail)
            p->done_tail->next = job;
        else
            p->done = job;
        p->done_tail = job;
        pthread_mutex_unlock(&p->lock);
        p->wake(p->wake_ctx);
    }
    dm_engine_free(w->engine);
    return NULL;
}

pool *pool_start(int threads, void (*wake)(void *ctx), void *ctx)
{
    pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->workers = calloc((size_t)threads, sizeof *p->workers);
    if (!p->workers) {
        free(p);
        return NULL;
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work, NULL);
    p->wake = wake;
    p->wake_ctx = ctx;
    for (int i = 0; i < threads; i++) {
        p->workers[i].pool = p;
        if (pthread_create(&p->workers[i].thread, NULL, work, &p->workers[i]) != 0) {
            pool_stop(p);
            return NULL;
        }
        p->nworkers++;
    }
    return p;
}

void pool_stop(pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->stopping = true;
    pthread_cond_broadcast(&p->work);
    for (int i = 0; i < p->nworkers; i++) {
        dm_engine *e = p->workers[i].busy;
        if (e)
            dm_engine_stop(e);
    }
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->nworkers; i++)
        pthread_join(p->workers[i].thread, NULL);
    for (pool_job *j = p->queue, *next; j; j = next) {
        next = j->next;
        pool_job_free(j);
    }
    for (pool_job *j = p->done, *next; j; j = next) {
        next = j->next;
        pool_job_free(j);
    }
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->work);
    free(p->workers);
    free(p);
}

void pool_submit(pool *p, pool_job *job)
{
    job->next = NULL;
    pthread_mutex_lock(&p->lock);
    if (p->queue_tail)
        p->queue_tail->next = job;
    else
        p->queue = job;
    p->queue_tail = job;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->lock);
}

pool_job *pool_take_done(pool *p)
{
    pthread_mutex_lock(&p->lock);
    pool_job *list = p->done;
    p->done = p->done_tail = NULL;
    pthread_mutex_unlock(&p->lock);
    return list;
}
