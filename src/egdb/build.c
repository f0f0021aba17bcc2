/* SPDX-License-Identifier: MIT */
/*
 * build.c - building the tables by retrograde analysis, and checking them.
 *
 * A table is built in three steps over its index.
 *   1. Mark what is not stored (holes, a capture pending) and the ends of
 *      the game (no move left, Breakthrough's first king): those go into
 *      the queue of level 0.
 *   2. For every other position, look at its moves.  A successor of the
 *      same material with no capture pending is an edge inside the table:
 *      count it.  Any other successor (a promotion, or a capture pending) is
 *      valued now, from the smaller tables, by a search of the captures
 *      (resolve()).  A successor lost for the opponent queues a win one
 *      level later; a drawn one means the position can never be lost.
 *   3. Levels in order: a position taken from the queue of level L is
 *      decided at L plies.  Its predecessors in the table (found by moving
 *      a piece of the side that just moved back along a line, then checked
 *      by generating that position's moves) win at L + 1 if it is lost, or
 *      count one successor less if it is won; the last one makes them lost,
 *      at the level of their slowest successor.
 * What is never decided is a draw.  Levels in order make every distance the
 * shortest win and the longest loss.
 *
 * Everything goes through dm_generate and dm_make_move: no variant has code
 * of its own here.
 *
 * Each step is shared between threads (workers): steps 1 and 2 by ranges of
 * the index, step 3 one level at a time, its queue cut into chunks.  A level
 * only queues positions for later levels, so a level's queue is fixed while
 * it runs; a position is decided by the worker that claims its value byte
 * first, and the counts and flags of step 3 are changed atomically.  Every
 * value is the same whatever the order: the file is the same for any number
 * of threads.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/bits.h"
#include "egdb/egdb.h"
#include "rules/kernel.h"
#include "rules/rules.h"
#include "rules/variant.h"

#define MAX_SIGS 512
#define SIG_DIM (DM_EGDB_MAX_PIECES + 1)
#define RESOLVE_DEPTH 24

/* A table in memory: built here, or read back whole. */
struct table {
    struct egdb_index ix;
    uint8_t *values;
};

struct queue {
    uint64_t *e;
    size_t n, cap;
};

#define MAX_WORKERS 64

/* What one thread of a build or a check has of its own. */
struct worker {
    struct builder *b;
    dm_move_list *lists;  /* one per depth of resolve()          */
    struct queue *levels; /* what it queued for step 3, by level */
    int nlevels;
    long wrong;           /* verify: the values found wrong      */
    uint64_t first_wrong[3];
    uint8_t held[3], want[3];
    bool failed;
    dm_error err;
};

struct builder {
    const struct dm_variant *v;
    struct table *by_sig[SIG_DIM][SIG_DIM][SIG_DIM][SIG_DIM];
    const struct table *building; /* whose values are not final yet */
    struct worker workers[MAX_WORKERS];
    int nworkers;
    struct egdb_build_opts opts;
    bool mirrors; /* v's mirrored signatures share one table (egdb_mirrors) */
    dm_egdb_report *report;
    void *ctx;
    dm_error *err;
};

struct val {
    int wdl;
    int plies;
};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static void say(struct builder *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct builder *b, const char *fmt, ...)
{
    if (!b->report)
        return;
    char line[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    b->report(b->ctx, line);
}

static void fail(struct worker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct worker *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->err.msg, sizeof w->err.msg, fmt, ap);
    va_end(ap);
    w->failed = true;
}

bool dm_egdb_supported(const dm_variant *v, dm_error *err)
{
    const char *why = v->frisian_king_limit ? "its positions carry the king-move counters"
                      : v->parachutes       ? "its positions carry the parachutists"
                      : v->opening_removals ? "every move of it is a capture"
                                            : NULL;
    if (why) {
        snprintf(err->msg, sizeof err->msg, "endgame databases: not supported for %s (%s)",
                 v->id, why);
        return false;
    }
    return true;
}

static struct table **slot(struct builder *b, const struct egdb_sig *s)
{
    return &b->by_sig[s->men[0]][s->kings[0]][s->men[1]][s->kings[1]];
}

/* ---- the workers ---------------------------------------------------------- */

/* A step over n items, cut into chunks that the workers take in turn. */
struct job {
    void (*run)(struct worker *w, void *ctx, uint64_t lo, uint64_t hi);
    void *ctx;
    uint64_t n;
    uint64_t chunk, min_parallel; /* 0: the builder's options (run_job sets chunk) */
    uint64_t next; /* the first item no worker has taken (atomic) */
    bool stop;     /* a worker failed (atomic)                    */
};

struct job_thread {
    struct job *job;
    struct worker *w;
};

static void *job_loop(void *arg)
{
    struct job_thread *jt = arg;
    struct job *j = jt->job;
    while (!__atomic_load_n(&j->stop, __ATOMIC_RELAXED)) {
        uint64_t lo = __atomic_fetch_add(&j->next, j->chunk, __ATOMIC_RELAXED);
        if (lo >= j->n)
            break;
        j->run(jt->w, j->ctx, lo, j->n - lo < j->chunk ? j->n : lo + j->chunk);
        if (jt->w->failed)
            __atomic_store_n(&j->stop, true, __ATOMIC_RELAXED);
    }
    return NULL;
}

/* Runs j on the workers, or on this thread alone when it is small; false,
 * b->err set, if a worker failed. */
static bool run_job(struct builder *b, struct job *j)
{
    if (!j->chunk)
        j->chunk = b->opts.chunk;
    uint64_t min_parallel = j->min_parallel ? j->min_parallel : b->opts.min_parallel;
    uint64_t chunks = (j->n + j->chunk - 1) / j->chunk;
    int n = j->n >= min_parallel ? b->nworkers : 1;
    if ((uint64_t)n > chunks)
        n = (int)chunks;
    if (n < 1)
        n = 1;
    struct job_thread jt[MAX_WORKERS];
    pthread_t th[MAX_WORKERS];
    int started = 1;
    for (int k = 0; k < n; k++)
        jt[k] = (struct job_thread){j, &b->workers[k]};
    /* A thread that cannot start leaves its chunks to the others. */
    while (started < n && pthread_create(&th[started], NULL, job_loop, &jt[started]) == 0)
        started++;
    job_loop(&jt[0]);
    for (int k = 1; k < started; k++)
        pthread_join(th[k], NULL);
    for (int k = 0; k < b->nworkers; k++)
        if (b->workers[k].failed) {
            *b->err = b->workers[k].err;
            return false;
        }
    return true;
}

/* ---- values of positions outside the table being built ------------------- */

/* The decided value of a position whose game is over, or wdl 2 if not. */
static struct val game_over(const struct dm_variant *v, const dm_position *pos, int count)
{
    enum dm_outcome o = rules_goal_reached(v, pos);
    if (o == DM_ONGOING && count == 0)
        o = v->goal == GOAL_NO_MOVE_WINS ? DM_SIDE_TO_MOVE_WINS : DM_SIDE_TO_MOVE_LOSES;
    if (o == DM_ONGOING)
        return (struct val){2, 0};
    return (struct val){o == DM_SIDE_TO_MOVE_WINS ? DM_EGDB_WIN : DM_EGDB_LOSS, 0};
}

/* Folds a successor's value (the opponent's) into the best so far. */
static void fold(struct val *best, bool *any, struct val child)
{
    struct val mine = {-child.wdl, child.plies + 1};
    if (!*any) {
        *best = mine;
        *any = true;
    } else if (mine.wdl > best->wdl) {
        *best = mine;
    } else if (mine.wdl == best->wdl && mine.wdl != DM_EGDB_DRAW) {
        if ((mine.wdl == DM_EGDB_WIN) == (mine.plies < best->plies))
            best->plies = mine.plies;
    }
    if (best->wdl == DM_EGDB_DRAW)
        best->plies = 0;
}

/* The table in b holding the value of pos (of signature s): its own, or
 * where only the mirrored signature's is kept, that one, *at then pointing
 * to pos's mirror (made in *mirrored); NULL if neither is in b. */
static const struct table *table_for(struct builder *b, const struct egdb_sig *s,
                                     const dm_position *pos, dm_position *mirrored,
                                     const dm_position **at)
{
    if (egdb_sig_pieces(s) > DM_EGDB_MAX_PIECES)
        return NULL;
    const struct table *t = *slot(b, s);
    if (t || !b->mirrors)
        return t;
    struct egdb_sig m = egdb_sig_mirror(s);
    t = *slot(b, &m);
    if (t) {
        egdb_position_mirror(b->v, pos, mirrored);
        *at = mirrored;
    }
    return t;
}

/*
 * The value of pos from the finished tables: a table's answer where it has
 * one, else (a capture pending) the best of its moves, each valued the same
 * way.  Captures make the material smaller, so this ends.
 */
static struct val resolve(struct worker *w, const dm_position *pos, int depth)
{
    struct builder *b = w->b;
    const struct dm_variant *v = b->v;
    if (rules_goal_reached(v, pos) != DM_ONGOING)
        return game_over(v, pos, 1);
    struct egdb_sig s = egdb_sig_of(pos);
    const dm_position *at = pos;
    dm_position mirrored;
    const struct table *t = table_for(b, &s, pos, &mirrored, &at);
    if (t && t != b->building) {
        int64_t i = egdb_index_of(&t->ix, at);
        if (i >= 0 && t->values[i] != EGDB_NOT_STORED) {
            dm_egdb_value x = egdb_value_of(t->values[i]);
            return (struct val){x.wdl, x.plies};
        }
    }
    if (depth >= RESOLVE_DEPTH) {
        fail(w, "captures deeper than %d plies", RESOLVE_DEPTH);
        return (struct val){0, 0};
    }
    dm_move_list *list = &w->lists[depth];
    int count = dm_generate(v, pos, list, 0);
    struct val over = game_over(v, pos, count);
    if (over.wdl != 2)
        return over;
    if (!(list->moves[0].flags & DM_MOVE_CAPTURE)) {
        char name[32];
        egdb_sig_name(&s, name, sizeof name);
        fail(w, "the %s table is needed but missing", name);
        return (struct val){0, 0};
    }
    struct val best = {0, 0};
    bool any = false;
    for (int k = 0; k < list->count; k++) {
        dm_position next = *pos;
        dm_make_move(v, &next, &list->moves[k]);
        fold(&best, &any, resolve(w, &next, depth + 1));
    }
    return best;
}

/* ---- the build of one table --------------------------------------------- */

#define ESCAPE    0xFF   /* cnt: a successor draws or loses: never lost    */
#define WIN_QUEUED 0x8000 /* ext: a win through the table is queued (the first
                          * such is the soonest)                            */
#define TERMINAL  0x4000 /* ext: the game is over here                     */
#define EXT_PLIES 0x3FFF

struct retro {
    struct table *t;
    /* Whether a move back found along a line must be checked by generating
     * the moves of the position it leads to.  Where men and kings move
     * along lines onto any empty cell in their directions, the step back
     * (the piece's own kind, onto a cell its kind may stand on, from a
     * position with no capture pending) is always a legal move; Dameo's
     * runs of men and Alquerque's stuck men are checked. */
    bool check_moves;
    /* Of a position to decide, its successors in the table not yet decided
     * (or ESCAPE); of one with a capture pending, its value (a value byte,
     * step 1). */
    uint8_t *cnt;
    uint16_t *ext;
    int level; /* step 3: the level being decided */
};

/* Queues position i at level, on w's own queues. */
static bool push(struct worker *w, int level, uint64_t i, bool win)
{
    if (level >= EXT_PLIES) {
        fail(w, "a distance over %d plies", EXT_PLIES);
        return false;
    }
    if (level >= w->nlevels) {
        int n = w->nlevels ? w->nlevels : 64;
        while (n <= level)
            n *= 2;
        struct queue *q = realloc(w->levels, (size_t)n * sizeof *q);
        if (!q)
            goto oom;
        memset(q + w->nlevels, 0, (size_t)(n - w->nlevels) * sizeof *q);
        w->levels = q;
        w->nlevels = n;
    }
    struct queue *q = &w->levels[level];
    if (q->n == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 1024;
        uint64_t *e = realloc(q->e, cap * sizeof *e);
        if (!e)
            goto oom;
        q->e = e;
        q->cap = cap;
    }
    q->e[q->n++] = i << 1 | (win ? 1 : 0);
    return true;
oom:
    fail(w, "out of memory for the build queue");
    return false;
}

/* The moves of pos into list: their count, and whether they capture.  The
 * kernel tells it without a list where it can. */
static int moves_of(const struct dm_variant *v, const dm_position *pos, dm_move_list *list,
                    bool *capture)
{
    int leaf = kernel_leaf(v, pos);
    if (leaf >= 0) {
        *capture = leaf == 2;
        return leaf;
    }
    int count = dm_generate(v, pos, list, 0);
    *capture = count > 0 && (list->moves[0].flags & DM_MOVE_CAPTURE);
    return count;
}

/* Step 1 over the positions lo..hi. */
static void mark(struct worker *w, void *ctx, uint64_t lo, uint64_t hi)
{
    struct retro *r = ctx;
    const struct dm_variant *v = w->b->v;
    struct table *t = r->t;
    for (uint64_t i = lo; i < hi; i++) {
        dm_position pos;
        if (!egdb_position_at(&t->ix, i, &pos)) {
            t->values[i] = EGDB_NOT_STORED;
            continue;
        }
        bool capture;
        int count = moves_of(v, &pos, &w->lists[0], &capture);
        struct val over = game_over(v, &pos, count);
        if (over.wdl != 2) {
            r->ext[i] = TERMINAL;
            if (!push(w, 0, i, over.wdl == DM_EGDB_WIN))
                return;
        } else if (capture) {
            /* Valued once here, not once for each position that leads
             * to it: its captures lead to smaller tables only. */
            t->values[i] = EGDB_NOT_STORED;
            struct val x = resolve(w, &pos, 1);
            if (w->failed)
                return;
            r->cnt[i] = egdb_byte(x.wdl, x.plies);
        }
    }
}

/* Sorts a few indexes (a position's moves). */
static void sort_small(uint64_t *a, int n)
{
    for (int k = 1; k < n; k++) {
        uint64_t x = a[k];
        int j = k;
        for (; j > 0 && a[j - 1] > x; j--)
            a[j] = a[j - 1];
        a[j] = x;
    }
}

/* Step 2 over the positions lo..hi. */
static void count_successors(struct worker *w, void *ctx, uint64_t lo, uint64_t hi)
{
    struct retro *r = ctx;
    const struct dm_variant *v = w->b->v;
    struct table *t = r->t;
    dm_move_list *list = &w->lists[0];
    uint64_t inside[DM_MAX_MOVES];
    for (uint64_t i = lo; i < hi; i++) {
        if (t->values[i] != 0 || (r->ext[i] & TERMINAL))
            continue;
        dm_position pos;
        egdb_position_at(&t->ix, i, &pos);
        int count = dm_generate(v, &pos, list, 0);
        int n = 0, win_at = -1, ext = 0;
        bool escape = false;
        for (int k = 0; k < count; k++) {
            const dm_move *m = &list->moves[k];
            dm_position next = pos;
            dm_make_move(v, &next, m);
            struct val x;
            /* A quiet move that crowns no man keeps the material. */
            int64_t j = m->flags & (DM_MOVE_CAPTURE | DM_MOVE_PROMOTES)
                            ? -1
                            : egdb_index_of(&t->ix, &next);
            if (j >= 0 && t->values[j] != EGDB_NOT_STORED) {
                inside[n++] = (uint64_t)j;
                continue;
            } else if (j >= 0) {
                dm_egdb_value c = egdb_value_of(r->cnt[j]); /* a capture pending */
                x = (struct val){c.wdl, c.plies};
            } else {
                /* resolve() uses lists from 1 up: keep this node's list. */
                x = resolve(w, &next, 1);
                if (w->failed)
                    return;
            }
            if (x.wdl == DM_EGDB_LOSS) {
                if (win_at < 0 || x.plies + 1 < win_at)
                    win_at = x.plies + 1;
            } else if (x.wdl == DM_EGDB_DRAW) {
                escape = true;
            } else if (x.plies > ext) {
                ext = x.plies;
            }
        }
        sort_small(inside, n);
        int distinct = 0;
        for (int k = 0; k < n; k++)
            if (k == 0 || inside[k] != inside[k - 1])
                distinct++;
        if (distinct >= ESCAPE) {
            fail(w, "a position with over %d moves", ESCAPE - 1);
            return;
        }
        /* A draw or a win outside the table: never lost. */
        r->cnt[i] = escape || win_at >= 0 ? ESCAPE : (uint8_t)distinct;
        r->ext[i] = (uint16_t)ext;
        /* Not marked WIN_QUEUED: a win through the table may come sooner. */
        if (win_at >= 0) {
            if (!push(w, win_at, i, true))
                return;
        } else if (!escape && distinct == 0 && !push(w, ext + 1, i, false)) {
            return;
        }
    }
}

/* Whether y, a position of the table, has a quiet move from a to b that
 * makes x. */
static bool makes(struct worker *w, const dm_position *y, int a, int to, const dm_position *x)
{
    dm_move_list *list = &w->lists[0];
    int count = dm_generate(w->b->v, y, list, 0);
    for (int k = 0; k < count; k++) {
        const dm_move *m = &list->moves[k];
        if (m->from != a || m->to != to || (m->flags & DM_MOVE_CAPTURE))
            continue;
        dm_position next = *y;
        dm_make_move(w->b->v, &next, m);
        if (next.white == x->white && next.black == x->black && next.kings == x->kings)
            return true;
    }
    return false;
}

/* Step 3 for the predecessor j of a position decided at level as won or
 * lost: the values, counts and flags of step 3 are shared between the
 * workers, hence the atomics. */
static bool tell(struct worker *w, struct retro *r, uint64_t j, int level, bool won)
{
    if (!won) {
        /* The first to queue j's win queues the soonest. */
        if (__atomic_fetch_or(&r->ext[j], WIN_QUEUED, __ATOMIC_RELAXED) & WIN_QUEUED)
            return true;
        return push(w, level + 1, j, true);
    }
    if (__atomic_sub_fetch(&r->cnt[j], 1, __ATOMIC_RELAXED) != 0)
        return true;
    int slowest = (__atomic_load_n(&r->ext[j], __ATOMIC_RELAXED) & EXT_PLIES) + 1;
    return push(w, slowest > level + 1 ? slowest : level + 1, j, false);
}

/* Step 3 for one position x, decided at level as won or lost. */
static bool tell_predecessors(struct worker *w, struct retro *r, const dm_position *x, int level,
                              bool won)
{
    const struct dm_variant *v = w->b->v;
    const struct geometry *g = v->geo;
    struct table *t = r->t;
    int mover = x->side ^ 1;
    dm_bits occupied = x->white | x->black;
    dm_bits pieces = mover == DM_WHITE ? x->white : x->black;
    while (pieces) {
        int to = ctz128(pieces);
        pieces &= pieces - 1;
        dm_bits seen = 0;
        bool king = has128(x->kings, to);
        unsigned dirs = king ? v->king_step_dirs : v->man_step_dirs[mover];
        /* How far back the piece may have come: one step, or along an empty
         * line (a flying king); Dameo's men step over their own, so there
         * any cell of the line may be where one came from. */
        bool over = !king && v->linear_moves;
        bool far = over || (king && v->king == KING_FLYING);
        for (int d = 0; d < DIR_COUNT; d++) {
            if (!(dirs & DIRBIT(dir_opposite[d])))
                continue;
            for (int a = g->next[to][d]; a >= 0; a = far ? g->next[a][d] : -1) {
                if (has128(occupied | seen, a)) {
                    if (over)
                        continue;
                    break;
                }
                seen |= (dm_bits)1 << a;
                dm_position y = *x;
                dm_bits from = (dm_bits)1 << a, here = (dm_bits)1 << to;
                if (mover == DM_WHITE)
                    y.white = (y.white & ~here) | from;
                else
                    y.black = (y.black & ~here) | from;
                if (has128(x->kings, to))
                    y.kings = (y.kings & ~here) | from;
                y.side = (uint8_t)mover;
                int64_t j = egdb_index_of(&t->ix, &y);
                if (j < 0 || __atomic_load_n(&t->values[j], __ATOMIC_RELAXED) != 0)
                    continue;
                uint16_t ext = __atomic_load_n(&r->ext[j], __ATOMIC_RELAXED);
                if ((ext & TERMINAL) || (!won && (ext & WIN_QUEUED)))
                    continue;
                if (won && __atomic_load_n(&r->cnt[j], __ATOMIC_RELAXED) == ESCAPE)
                    continue;
                if (r->check_moves && !makes(w, &y, a, to, x))
                    continue;
                if (!tell(w, r, (uint64_t)j, level, won))
                    return false;
            }
        }
    }
    return true;
}

/* Step 3 for one level: its queue is the workers' queues of that level one
 * after the other. */
struct level_queue {
    struct retro *r;
    int nseg;
    const uint64_t *e[MAX_WORKERS];
    uint64_t start[MAX_WORKERS + 1];
};

static void decide(struct worker *w, void *ctx, uint64_t lo, uint64_t hi)
{
    struct level_queue *lq = ctx;
    struct retro *r = lq->r;
    struct table *t = r->t;
    int s = 0;
    for (uint64_t g = lo; g < hi; g++) {
        while (g >= lq->start[s + 1])
            s++;
        uint64_t e = lq->e[s][g - lq->start[s]];
        uint64_t i = e >> 1;
        bool won = e & 1;
        uint8_t none = 0;
        if (!__atomic_compare_exchange_n(&t->values[i], &none,
                                         egdb_byte(won ? DM_EGDB_WIN : DM_EGDB_LOSS, r->level),
                                         false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            continue; /* decided already, at this level or before */
        dm_position x;
        egdb_position_at(&t->ix, i, &x);
        if (!tell_predecessors(w, r, &x, r->level, won))
            return;
    }
}

static bool run_levels(struct builder *b, struct retro *r)
{
    for (int level = 0;; level++) {
        struct level_queue lq = {.r = r};
        bool more = false;
        for (int k = 0; k < b->nworkers; k++) {
            struct worker *w = &b->workers[k];
            if (level >= w->nlevels)
                continue;
            more = true;
            /* Fixed while the level runs: pushes go to later levels. */
            lq.e[lq.nseg] = w->levels[level].e;
            lq.start[lq.nseg + 1] = lq.start[lq.nseg] + w->levels[level].n;
            lq.nseg++;
        }
        if (!more)
            return true;
        r->level = level;
        struct job j = {.run = decide, .ctx = &lq, .n = lq.start[lq.nseg]};
        bool ok = run_job(b, &j);
        for (int k = 0; k < b->nworkers; k++) {
            struct worker *w = &b->workers[k];
            if (level < w->nlevels) {
                free(w->levels[level].e);
                w->levels[level] = (struct queue){0};
            }
        }
        if (!ok)
            return false;
    }
}

static void drop_queues(struct builder *b)
{
    for (int k = 0; k < b->nworkers; k++) {
        struct worker *w = &b->workers[k];
        for (int level = 0; level < w->nlevels; level++)
            free(w->levels[level].e);
        free(w->levels);
        w->levels = NULL;
        w->nlevels = 0;
    }
}

static bool build_table(struct builder *b, struct table *t)
{
    struct retro r = {.t = t,
                      .check_moves = b->v->linear_moves || b->v->far_row != FAR_ROW_FREE};
    size_t n = t->ix.size;
    r.cnt = calloc(n ? n : 1, 1);
    r.ext = calloc(n ? n : 1, sizeof *r.ext);
    bool ok = false;
    if (!r.cnt || !r.ext) {
        snprintf(b->err->msg, sizeof b->err->msg, "out of memory for a table of %zu positions", n);
        goto done;
    }
    b->building = t;
    struct job step1 = {.run = mark, .ctx = &r, .n = n};
    struct job step2 = {.run = count_successors, .ctx = &r, .n = n};
    ok = run_job(b, &step1) && run_job(b, &step2) && run_levels(b, &r);
    b->building = NULL;
done:
    drop_queues(b);
    free(r.cnt);
    free(r.ext);
    return ok;
}

/* Compresses blocks lo..hi of a table being written. */
static void compress_blocks(struct worker *w, void *ctx, uint64_t lo, uint64_t hi)
{
    (void)w;
    egdb_writer_compress(ctx, (uint32_t)lo, (uint32_t)hi); /* finish reports a failure */
}

/* Writes t's file, its blocks compressed by the workers. */
static bool write_table(struct builder *b, const struct table *t, const char *path)
{
    struct egdb_writer wr;
    if (egdb_writer_init(&wr, path, &t->ix, t->values, EGDB_BLOCK, b->err) != 0)
        return false;
    /* A block holds a chunk of positions: blocks are shared one at a time,
     * from as many as a step of positions is. */
    uint64_t per = EGDB_BLOCK;
    struct job j = {.run = compress_blocks, .ctx = &wr, .n = wr.blocks, .chunk = 1,
                    .min_parallel = (b->opts.min_parallel + per - 1) / per};
    run_job(b, &j);
    return egdb_writer_finish(&wr, path, b->err) == 0;
}

/* ---- the whole build ------------------------------------------------------- */

static int make_dirs(const char *path, dm_error *err)
{
    char buf[600];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || *p == 0) {
            char c = *p;
            *p = 0;
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
                snprintf(err->msg, sizeof err->msg, "cannot create %s: %s", buf, strerror(errno));
                return -1;
            }
            *p = c;
            if (c == 0)
                return 0;
        }
    }
}

/* The defaults: one thread per core; steps of fewer than 2^16 items (the
 * small tables) on one thread; chunks of 4096 positions. */
static struct egdb_build_opts options(const struct egdb_build_opts *o)
{
    struct egdb_build_opts r = o ? *o : (struct egdb_build_opts){0};
    if (r.threads <= 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        r.threads = cores > 0 ? (int)cores : 1;
    }
    if (r.threads > MAX_WORKERS)
        r.threads = MAX_WORKERS;
    if (!r.min_parallel)
        r.min_parallel = 1 << 16;
    if (!r.chunk)
        r.chunk = 4096;
    return r;
}

static bool start(struct builder *b, const dm_variant *v, const struct egdb_build_opts *opts,
                  dm_egdb_report *report, void *ctx, dm_error *err)
{
    memset(b, 0, sizeof *b);
    b->v = v;
    b->opts = options(opts);
    b->mirrors = egdb_mirrors(v);
    b->report = report;
    b->ctx = ctx;
    b->err = err;
    for (int k = 0; k < b->opts.threads; k++) {
        struct worker *w = &b->workers[k];
        w->b = b;
        w->lists = malloc(RESOLVE_DEPTH * sizeof *w->lists);
        if (!w->lists) {
            snprintf(err->msg, sizeof err->msg, "out of memory");
            return false;
        }
        b->nworkers++;
    }
    return true;
}

static void finish(struct builder *b)
{
    for (int a = 0; a < SIG_DIM; a++)
        for (int c = 0; c < SIG_DIM; c++)
            for (int d = 0; d < SIG_DIM; d++)
                for (int e = 0; e < SIG_DIM; e++) {
                    struct table *t = b->by_sig[a][c][d][e];
                    if (t) {
                        free(t->values);
                        free(t);
                    }
                }
    for (int k = 0; k < b->nworkers; k++)
        free(b->workers[k].lists);
}

/* Reads the table of s from its file into b; 1 if there is no file. */
static int load(struct builder *b, const char *path, const struct egdb_sig *s)
{
    struct egdb_file f;
    int rc = egdb_open_file(&f, path, b->v, s, EGDB_CHECK_ALL, b->err);
    if (rc != 0)
        return rc;
    struct table *t = calloc(1, sizeof *t);
    if (!t) {
        egdb_close_file(&f);
        snprintf(b->err->msg, sizeof b->err->msg, "out of memory");
        return -1;
    }
    egdb_index_init(&t->ix, b->v, *s);
    t->values = egdb_read_all(&f, b->err);
    egdb_close_file(&f);
    if (!t->values) {
        free(t);
        return -1;
    }
    *slot(b, s) = t;
    return 0;
}

static bool check_pieces(const dm_variant *v, int pieces, dm_error *err)
{
    if (!dm_egdb_supported(v, err))
        return false;
    if (pieces < 2 || pieces > DM_EGDB_MAX_PIECES) {
        snprintf(err->msg, sizeof err->msg, "pieces must be 2 to %d, not %d", DM_EGDB_MAX_PIECES,
                 pieces);
        return false;
    }
    return true;
}

int dm_egdb_build(const dm_variant *v, const char *root, int pieces, int threads,
                  dm_egdb_report *report, void *ctx, dm_error *err)
{
    if (!check_pieces(v, pieces, err))
        return -1;
    struct egdb_sig sigs[MAX_SIGS];
    int nsigs = egdb_signatures(v, pieces, sigs, MAX_SIGS);
    struct egdb_build_opts opts = {.threads = threads};
    return egdb_build_sigs(v, root, sigs, nsigs, &opts, report, ctx, err);
}

int egdb_build_sigs(const struct dm_variant *v, const char *root, const struct egdb_sig *sigs,
                    int nsigs, const struct egdb_build_opts *opts, dm_egdb_report *report,
                    void *ctx, dm_error *err)
{
    if (!dm_egdb_supported(v, err))
        return -1;
    char dir[600];
    snprintf(dir, sizeof dir, "%s/%s", root, v->id);
    if (make_dirs(dir, err) != 0)
        return -1;
    struct builder b;
    int rc = -1, pieces = 0;
    if (!start(&b, v, opts, report, ctx, err))
        goto out;
    double all = now_s();
    int tables = 0;
    for (int k = 0; k < nsigs; k++) {
        char path[700], name[32];
        /* A mirrored signature's positions are read from its mirror's. */
        if (b.mirrors && !b.opts.every_sig && !egdb_sig_stored(&sigs[k]))
            continue;
        tables++;
        egdb_sig_name(&sigs[k], name, sizeof name);
        if (egdb_sig_pieces(&sigs[k]) > pieces)
            pieces = egdb_sig_pieces(&sigs[k]);
        if (egdb_table_path(root, v, &sigs[k], path, sizeof path) != 0) {
            snprintf(err->msg, sizeof err->msg, "the path of %s/%s is too long", dir, name);
            goto out;
        }
        int loaded = load(&b, path, &sigs[k]);
        if (loaded < 0)
            goto out;
        if (loaded == 0) {
            say(&b, "%s: %s already built", v->id, name);
            continue;
        }
        struct table *t = calloc(1, sizeof *t);
        if (!t || !egdb_index_init(&t->ix, v, sigs[k]) ||
            !(t->values = calloc(t->ix.size ? t->ix.size : 1, 1))) {
            free(t);
            snprintf(err->msg, sizeof err->msg, "out of memory for the %s table", name);
            goto out;
        }
        *slot(&b, &sigs[k]) = t;
        double t0 = now_s();
        if (!build_table(&b, t) || !write_table(&b, t, path))
            goto out;
        struct stat st;
        long long bytes = stat(path, &st) == 0 ? (long long)st.st_size : -1;
        say(&b, "%s: %s built: %llu positions, %lld bytes, %.2f s", v->id, name,
            (unsigned long long)t->ix.size, bytes, now_s() - t0);
    }
    say(&b, "%s: %d tables up to %d pieces in %s%s, %.1f s (%d thread%s)", v->id, tables,
        pieces, dir, b.mirrors && !b.opts.every_sig ? " (each also its colours' mirror)" : "",
        now_s() - all, b.nworkers, b.nworkers == 1 ? "" : "s");
    rc = 0;
out:
    finish(&b);
    return rc;
}

/* ---- verify ------------------------------------------------------------- */

/* What the position at i of t should hold, from its successors. */
static uint8_t expected(struct worker *w, const struct table *t, uint64_t i)
{
    const struct dm_variant *v = w->b->v;
    dm_position pos;
    if (!egdb_position_at(&t->ix, i, &pos))
        return EGDB_NOT_STORED;
    dm_move_list *list = &w->lists[0];
    int count = dm_generate(v, &pos, list, 0);
    struct val over = game_over(v, &pos, count);
    if (over.wdl != 2)
        return egdb_byte(over.wdl, 0);
    if (list->moves[0].flags & DM_MOVE_CAPTURE)
        return EGDB_NOT_STORED;
    struct val best = {0, 0};
    bool any = false;
    for (int k = 0; k < count; k++) {
        dm_position next = pos;
        dm_make_move(v, &next, &list->moves[k]);
        fold(&best, &any, resolve(w, &next, 1));
    }
    return egdb_byte(best.wdl, best.plies);
}

/* Checks the positions lo..hi of a table; each worker keeps its first
 * three wrong ones (its lowest: a worker's chunks come in order). */
static void check_range(struct worker *w, void *ctx, uint64_t lo, uint64_t hi)
{
    const struct table *t = ctx;
    for (uint64_t i = lo; i < hi; i++) {
        uint8_t want = expected(w, t, i);
        if (w->failed)
            return;
        if (want != t->values[i]) {
            if (w->wrong < 3) {
                w->first_wrong[w->wrong] = i;
                w->held[w->wrong] = t->values[i];
                w->want[w->wrong] = want;
            }
            w->wrong++;
        }
    }
}

/* Checks one table; its count of wrong values, or -1 (b->err set). */
static long check_table(struct builder *b, const struct table *t, const char *name)
{
    for (int k = 0; k < b->nworkers; k++)
        b->workers[k].wrong = 0;
    struct job j = {.run = check_range, .ctx = (void *)t, .n = t->ix.size};
    if (!run_job(b, &j))
        return -1;
    /* The three lowest, from every worker's first three. */
    struct { uint64_t i; uint8_t held, want; } seen[3 * MAX_WORKERS];
    int n = 0;
    long bad = 0;
    for (int k = 0; k < b->nworkers; k++) {
        const struct worker *w = &b->workers[k];
        for (int m = 0; m < 3 && m < w->wrong; m++) {
            int at = n++;
            for (; at > 0 && seen[at - 1].i > w->first_wrong[m]; at--)
                seen[at] = seen[at - 1];
            seen[at].i = w->first_wrong[m];
            seen[at].held = w->held[m];
            seen[at].want = w->want[m];
        }
    }
    for (int m = 0; m < 3 && m < n; m++) {
        dm_egdb_value x = egdb_value_of(seen[m].held), y = egdb_value_of(seen[m].want);
        say(b, "%s: %s position %llu holds %d/%d, its successors say %d/%d", b->v->id, name,
            (unsigned long long)seen[m].i, x.wdl, x.plies, y.wdl, y.plies);
    }
    for (int k = 0; k < b->nworkers; k++)
        bad += b->workers[k].wrong;
    return bad;
}

long dm_egdb_verify(const dm_variant *v, const char *root, int pieces, int threads,
                    dm_egdb_report *report, void *ctx, dm_error *err)
{
    struct egdb_build_opts opts = {.threads = threads};
    return egdb_verify(v, root, pieces, &opts, report, ctx, err);
}

long egdb_verify(const struct dm_variant *v, const char *root, int pieces,
                 const struct egdb_build_opts *opts, dm_egdb_report *report, void *ctx,
                 dm_error *err)
{
    if (!dm_egdb_supported(v, err))
        return -1;
    if (pieces <= 0 || pieces > DM_EGDB_MAX_PIECES)
        pieces = DM_EGDB_MAX_PIECES;
    struct builder b;
    long wrong = -1;
    if (!start(&b, v, opts, report, ctx, err))
        goto out;
    struct egdb_sig sigs[MAX_SIGS];
    int nsigs = egdb_signatures(v, pieces, sigs, MAX_SIGS);
    wrong = 0;
    int tables = 0;
    for (int k = 0; k < nsigs; k++) {
        char path[700];
        if (egdb_table_path(root, v, &sigs[k], path, sizeof path) != 0)
            continue;
        int rc = load(&b, path, &sigs[k]);
        if (rc < 0) {
            wrong = -1;
            goto out;
        }
        if (rc > 0)
            continue;
        tables++;
        const struct table *t = *slot(&b, &sigs[k]);
        char name[32];
        egdb_sig_name(&sigs[k], name, sizeof name);
        double t0 = now_s();
        long bad = check_table(&b, t, name);
        if (bad < 0) {
            wrong = -1;
            goto out;
        }
        wrong += bad;
        say(&b, "%s: %s: %llu positions, %ld wrong, %.2f s", v->id, name,
            (unsigned long long)t->ix.size, bad, now_s() - t0);
    }
    if (tables == 0) {
        snprintf(err->msg, sizeof err->msg, "no %s table in %s/%s", v->id, root, v->id);
        wrong = -1;
    }
out:
    finish(&b);
    return wrong;
}
