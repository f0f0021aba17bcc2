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
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/bits.h"
#include "egdb/egdb.h"
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

struct builder {
    const struct dm_variant *v;
    struct table *by_sig[SIG_DIM][SIG_DIM][SIG_DIM][SIG_DIM];
    const struct table *building; /* whose values are not final yet */
    dm_move_list *lists;          /* one per depth of resolve()      */
    dm_egdb_report *report;
    void *ctx;
    dm_error *err;
    bool failed;
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

/*
 * The value of pos from the finished tables: a table's answer where it has
 * one, else (a capture pending) the best of its moves, each valued the same
 * way.  Captures make the material smaller, so this ends.
 */
static struct val resolve(struct builder *b, const dm_position *pos, int depth)
{
    const struct dm_variant *v = b->v;
    if (rules_goal_reached(v, pos) != DM_ONGOING)
        return game_over(v, pos, 1);
    struct egdb_sig s = egdb_sig_of(pos);
    const struct table *t = egdb_sig_pieces(&s) <= DM_EGDB_MAX_PIECES ? *slot(b, &s) : NULL;
    if (t && t != b->building) {
        int64_t i = egdb_index_of(&t->ix, pos);
        if (i >= 0 && t->values[i] != EGDB_NOT_STORED) {
            dm_egdb_value x = egdb_value_of(t->values[i]);
            return (struct val){x.wdl, x.plies};
        }
    }
    if (depth >= RESOLVE_DEPTH) {
        b->failed = true;
        snprintf(b->err->msg, sizeof b->err->msg, "captures deeper than %d plies", RESOLVE_DEPTH);
        return (struct val){0, 0};
    }
    dm_move_list *list = &b->lists[depth];
    int count = dm_generate(v, pos, list, 0);
    struct val over = game_over(v, pos, count);
    if (over.wdl != 2)
        return over;
    if (!(list->moves[0].flags & DM_MOVE_CAPTURE)) {
        char name[32];
        egdb_sig_name(&s, name, sizeof name);
        b->failed = true;
        snprintf(b->err->msg, sizeof b->err->msg, "the %s table is needed but missing", name);
        return (struct val){0, 0};
    }
    struct val best = {0, 0};
    bool any = false;
    for (int k = 0; k < list->count; k++) {
        dm_position next = *pos;
        dm_make_move(v, &next, &list->moves[k]);
        fold(&best, &any, resolve(b, &next, depth + 1));
    }
    return best;
}

/* ---- the build of one table --------------------------------------------- */

#define ESCAPE    0xFF   /* cnt: a successor draws or loses: never lost    */
#define WIN_QUEUED 0x8000 /* ext: a win through the table is queued (the first
                          * such is the soonest)                            */
#define TERMINAL  0x4000 /* ext: the game is over here                     */
#define EXT_PLIES 0x3FFF

struct queue {
    uint64_t *e;
    size_t n, cap;
};

struct retro {
    struct builder *b;
    struct table *t;
    /* Whether a move back found along a line must be checked by generating
     * the moves of the position it leads to.  Where men and kings move
     * along lines onto any empty cell in their directions, the step back
     * (the piece's own kind, onto a cell its kind may stand on, from a
     * position with no capture pending) is always a legal move; Dameo's
     * runs of men and Alquerque's stuck men are checked. */
    bool check_moves;
    uint8_t *cnt;
    uint16_t *ext;
    struct queue *levels;
    int nlevels;
};

static bool push(struct retro *r, int level, uint64_t i, bool win)
{
    if (level >= EXT_PLIES) {
        snprintf(r->b->err->msg, sizeof r->b->err->msg, "a distance over %d plies", EXT_PLIES);
        return false;
    }
    if (level >= r->nlevels) {
        int n = r->nlevels ? r->nlevels : 64;
        while (n <= level)
            n *= 2;
        struct queue *q = realloc(r->levels, (size_t)n * sizeof *q);
        if (!q)
            goto oom;
        memset(q + r->nlevels, 0, (size_t)(n - r->nlevels) * sizeof *q);
        r->levels = q;
        r->nlevels = n;
    }
    struct queue *q = &r->levels[level];
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
    snprintf(r->b->err->msg, sizeof r->b->err->msg, "out of memory for the build queue");
    return false;
}

/* Step 1. */
static bool mark(struct retro *r)
{
    const struct dm_variant *v = r->b->v;
    struct table *t = r->t;
    dm_move_list *list = &r->b->lists[0];
    for (uint64_t i = 0; i < t->ix.size; i++) {
        dm_position pos;
        if (!egdb_position_at(&t->ix, i, &pos)) {
            t->values[i] = EGDB_NOT_STORED;
            continue;
        }
        int count = dm_generate(v, &pos, list, 0);
        struct val over = game_over(v, &pos, count);
        if (over.wdl != 2) {
            r->ext[i] = TERMINAL;
            if (!push(r, 0, i, over.wdl == DM_EGDB_WIN))
                return false;
        } else if (list->moves[0].flags & DM_MOVE_CAPTURE) {
            t->values[i] = EGDB_NOT_STORED;
        }
    }
    return true;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Step 2. */
static bool count_successors(struct retro *r)
{
    struct builder *b = r->b;
    const struct dm_variant *v = b->v;
    struct table *t = r->t;
    dm_move_list *list = &b->lists[0];
    uint64_t inside[DM_MAX_MOVES];
    for (uint64_t i = 0; i < t->ix.size; i++) {
        if (t->values[i] != 0 || (r->ext[i] & TERMINAL))
            continue;
        dm_position pos;
        egdb_position_at(&t->ix, i, &pos);
        int count = dm_generate(v, &pos, list, 0);
        int n = 0, win_at = -1, ext = 0;
        bool escape = false;
        for (int k = 0; k < count; k++) {
            dm_position next = pos;
            dm_make_move(v, &next, &list->moves[k]);
            struct egdb_sig s = egdb_sig_of(&next);
            if (egdb_sig_equal(&s, &t->ix.sig)) {
                int64_t j = egdb_index_of(&t->ix, &next);
                if (j >= 0 && t->values[j] != EGDB_NOT_STORED) {
                    inside[n++] = (uint64_t)j;
                    continue;
                }
            }
            /* resolve() uses lists from 1 up: keep this node's list. */
            struct val x = resolve(b, &next, 1);
            if (b->failed)
                return false;
            if (x.wdl == DM_EGDB_LOSS) {
                if (win_at < 0 || x.plies + 1 < win_at)
                    win_at = x.plies + 1;
            } else if (x.wdl == DM_EGDB_DRAW) {
                escape = true;
            } else if (x.plies > ext) {
                ext = x.plies;
            }
        }
        qsort(inside, (size_t)n, sizeof inside[0], cmp_u64);
        int distinct = 0;
        for (int k = 0; k < n; k++)
            if (k == 0 || inside[k] != inside[k - 1])
                distinct++;
        if (distinct >= ESCAPE) {
            snprintf(b->err->msg, sizeof b->err->msg, "a position with over %d moves", ESCAPE - 1);
            return false;
        }
        /* A draw or a win outside the table: never lost. */
        r->cnt[i] = escape || win_at >= 0 ? ESCAPE : (uint8_t)distinct;
        r->ext[i] = (uint16_t)ext;
        /* Not marked WIN_QUEUED: a win through the table may come sooner. */
        if (win_at >= 0) {
            if (!push(r, win_at, i, true))
                return false;
        } else if (!escape && distinct == 0 && !push(r, ext + 1, i, false)) {
            return false;
        }
    }
    return true;
}

/* Whether y, a position of the table, has a quiet move from a to b that
 * makes x. */
static bool makes(struct retro *r, const dm_position *y, int a, int to, const dm_position *x)
{
    dm_move_list *list = &r->b->lists[0];
    int count = dm_generate(r->b->v, y, list, 0);
    for (int k = 0; k < count; k++) {
        const dm_move *m = &list->moves[k];
        if (m->from != a || m->to != to || (m->flags & DM_MOVE_CAPTURE))
            continue;
        dm_position next = *y;
        dm_make_move(r->b->v, &next, m);
        if (next.white == x->white && next.black == x->black && next.kings == x->kings)
            return true;
    }
    return false;
}

/* Step 3 for one position x, decided at level as won or lost. */
static bool tell_predecessors(struct retro *r, const dm_position *x, int level, bool won)
{
    const struct dm_variant *v = r->b->v;
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
                if (j < 0 || t->values[j] != 0 || (r->ext[j] & TERMINAL))
                    continue;
                if (!won && (r->ext[j] & WIN_QUEUED))
                    continue;
                if (won && r->cnt[j] == ESCAPE)
                    continue;
                if (r->check_moves && !makes(r, &y, a, to, x))
                    continue;
                if (!won) {
                    r->ext[j] |= WIN_QUEUED;
                    if (!push(r, level + 1, (uint64_t)j, true))
                        return false;
                } else if (--r->cnt[j] == 0) {
                    int slowest = (r->ext[j] & EXT_PLIES) + 1;
                    if (!push(r, slowest > level + 1 ? slowest : level + 1, (uint64_t)j, false))
                        return false;
                }
            }
        }
    }
    return true;
}

static bool run_levels(struct retro *r)
{
    struct table *t = r->t;
    for (int level = 0; level < r->nlevels; level++) {
        /* Not a pointer kept across the loop: a push may move the levels,
         * and it adds to later levels only, so this one's entries stay. */
        for (size_t k = 0; k < r->levels[level].n; k++) {
            uint64_t i = r->levels[level].e[k] >> 1;
            bool won = r->levels[level].e[k] & 1;
            if (t->values[i] != 0)
                continue;
            t->values[i] = egdb_byte(won ? DM_EGDB_WIN : DM_EGDB_LOSS, level);
            dm_position x;
            egdb_position_at(&t->ix, i, &x);
            if (!tell_predecessors(r, &x, level, won))
                return false;
        }
        free(r->levels[level].e);
        r->levels[level] = (struct queue){0};
    }
    return true;
}

static bool build_table(struct builder *b, struct table *t)
{
    struct retro r = {.b = b, .t = t,
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
    ok = mark(&r) && count_successors(&r) && run_levels(&r);
    b->building = NULL;
done:
    for (int level = 0; level < r.nlevels; level++)
        free(r.levels[level].e);
    free(r.levels);
    free(r.cnt);
    free(r.ext);
    return ok;
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

static bool start(struct builder *b, const dm_variant *v, dm_egdb_report *report, void *ctx,
                  dm_error *err)
{
    memset(b, 0, sizeof *b);
    b->v = v;
    b->report = report;
    b->ctx = ctx;
    b->err = err;
    b->lists = malloc(RESOLVE_DEPTH * sizeof *b->lists);
    if (!b->lists)
        snprintf(err->msg, sizeof err->msg, "out of memory");
    return b->lists != NULL;
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
    free(b->lists);
}

/* Reads the table of s from its file into b; 1 if there is no file. */
static int load(struct builder *b, const char *path, const struct egdb_sig *s)
{
    struct egdb_file f;
    int rc = egdb_open_file(&f, path, b->v, s, b->err);
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

int dm_egdb_build(const dm_variant *v, const char *root, int pieces, dm_egdb_report *report,
                  void *ctx, dm_error *err)
{
    if (!check_pieces(v, pieces, err))
        return -1;
    struct egdb_sig sigs[MAX_SIGS];
    int nsigs = egdb_signatures(v, pieces, sigs, MAX_SIGS);
    return egdb_build_sigs(v, root, sigs, nsigs, report, ctx, err);
}

int egdb_build_sigs(const struct dm_variant *v, const char *root, const struct egdb_sig *sigs,
                    int nsigs, dm_egdb_report *report, void *ctx, dm_error *err)
{
    if (!dm_egdb_supported(v, err))
        return -1;
    char dir[600];
    snprintf(dir, sizeof dir, "%s/%s", root, v->id);
    if (make_dirs(dir, err) != 0)
        return -1;
    struct builder b;
    if (!start(&b, v, report, ctx, err))
        return -1;
    int rc = -1, pieces = 0;
    double all = now_s();
    for (int k = 0; k < nsigs; k++) {
        char path[700], name[32];
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
        if (!build_table(&b, t) || egdb_write(path, &t->ix, t->values, EGDB_BLOCK, err) != 0)
            goto out;
        struct stat st;
        long long bytes = stat(path, &st) == 0 ? (long long)st.st_size : -1;
        say(&b, "%s: %s built: %llu positions, %lld bytes, %.2f s", v->id, name,
            (unsigned long long)t->ix.size, bytes, now_s() - t0);
    }
    say(&b, "%s: %d tables up to %d pieces in %s, %.1f s", v->id, nsigs, pieces, dir,
        now_s() - all);
    rc = 0;
out:
    finish(&b);
    return rc;
}

/* ---- verify ------------------------------------------------------------- */

/* What the position at i of t should hold, from its successors. */
static uint8_t expected(struct builder *b, const struct table *t, uint64_t i)
{
    dm_position pos;
    if (!egdb_position_at(&t->ix, i, &pos))
        return EGDB_NOT_STORED;
    dm_move_list *list = &b->lists[0];
    int count = dm_generate(b->v, &pos, list, 0);
    struct val over = game_over(b->v, &pos, count);
    if (over.wdl != 2)
        return egdb_byte(over.wdl, 0);
    if (list->moves[0].flags & DM_MOVE_CAPTURE)
        return EGDB_NOT_STORED;
    struct val best = {0, 0};
    bool any = false;
    for (int k = 0; k < count; k++) {
        dm_position next = pos;
        dm_make_move(b->v, &next, &list->moves[k]);
        fold(&best, &any, resolve(b, &next, 1));
    }
    return egdb_byte(best.wdl, best.plies);
}

long dm_egdb_verify(const dm_variant *v, const char *root, int pieces, dm_egdb_report *report,
                    void *ctx, dm_error *err)
{
    if (!dm_egdb_supported(v, err))
        return -1;
    if (pieces <= 0 || pieces > DM_EGDB_MAX_PIECES)
        pieces = DM_EGDB_MAX_PIECES;
    struct builder b;
    if (!start(&b, v, report, ctx, err))
        return -1;
    struct egdb_sig sigs[MAX_SIGS];
    int nsigs = egdb_signatures(v, pieces, sigs, MAX_SIGS);
    long wrong = 0;
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
        long bad = 0;
        for (uint64_t i = 0; i < t->ix.size; i++) {
            uint8_t want = expected(&b, t, i);
            if (b.failed) {
                wrong = -1;
                goto out;
            }
            if (want != t->values[i] && bad++ < 3) {
                dm_egdb_value x = egdb_value_of(t->values[i]), y = egdb_value_of(want);
                say(&b, "%s: %s position %llu holds %d/%d, its successors say %d/%d", v->id, name,
                    (unsigned long long)i, x.wdl, x.plies, y.wdl, y.plies);
            }
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
