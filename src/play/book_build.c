/* SPDX-License-Identifier: MIT */
/*
 * book_build.c - building an opening book by Damier's own analysis.
 *
 * Breadth first from the start position: each position is searched with
 * a multipv search at a node budget, every move scoring within the margin
 * of the best is kept, and the positions the kept moves reach are searched
 * in turn, up to the ply limit or the position limit.  Breadth first, so
 * that a limit cuts the deepest lines, never a sideline near the start.
 * Every search is at a node budget on one engine in one order, so a build
 * gives the same book on every machine.
 */
#include "play/play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pending {
    dm_position pos;
    int ply;
};

struct builder {
    const dm_variant *v;
    dm_book_build_options o;
    dm_engine *engine;
    struct pending *queue; /* positions to search, in order            */
    int head, tail, queue_cap;
    uint64_t *seen;        /* keys queued, open addressing, 0: empty    */
    size_t seen_mask;
    struct book_entry *entries;
    int count, cap;
    int positions;
};

/* Whether key was queued before (and marks it queued). */
static bool seen_before(struct builder *b, uint64_t key)
{
    key |= 1; /* 0 marks an empty slot */
    for (size_t i = (size_t)key & b->seen_mask;; i = (i + 1) & b->seen_mask) {
        if (b->seen[i] == key)
            return true;
        if (!b->seen[i]) {
            b->seen[i] = key;
            return false;
        }
    }
}

static void enqueue(struct builder *b, const dm_position *pos, int ply)
{
    if (ply >= b->o.plies || b->tail == b->queue_cap ||
        seen_before(b, play_book_key(b->v, pos)))
        return;
    b->queue[b->tail++] = (struct pending){*pos, ply};
}

static bool add_entry(struct builder *b, uint64_t key, const dm_move *m, int score)
{
    if (b->count == b->cap) {
        int cap = b->cap ? 2 * b->cap : 1024;
        struct book_entry *more = realloc(b->entries, (size_t)cap * sizeof *more);
        if (!more)
            return false;
        b->entries = more;
        b->cap = cap;
    }
    score = score > INT16_MAX ? INT16_MAX : score < -INT16_MAX ? -INT16_MAX : score;
    b->entries[b->count++] = (struct book_entry){.key = key, .from = m->from, .to = m->to,
                                                 .captured = play_book_fold(m->captured_set),
                                                 .score = (int16_t)score};
    return true;
}

/* Searches p and keeps its good moves; false if memory runs out. */
static bool expand(struct builder *b, const struct pending *p)
{
    dm_move_list legal;
    int n = dm_generate(b->v, &p->pos, &legal, 0);
    if (n <= 0)
        return true; /* the game is over here */
    dm_search_limits limits = {.nodes = b->o.nodes, .multipv = n < b->o.lines ? n : b->o.lines};
    dm_search_result r;
    if (dm_engine_search(b->engine, b->v, &p->pos, NULL, 0, &limits, &r) != 0 || !r.has_move)
        return true;
    uint64_t key = play_book_key(b->v, &p->pos);
    /* The margin is measured from the best line's score, which need not be
     * the first line's: a line finished late in the last iteration can
     * score above it. */
    int nlines = r.lines > 0 ? r.lines : 1;
    struct {
        dm_move move;
        int score;
    } root[DM_MAX_MULTIPV];
    int best = INT32_MIN;
    for (int i = 0; i < nlines; i++) {
        dm_search_line line = {.score = r.score, .pv_length = 1, .pv = {r.best}};
        if (r.lines > 0)
            dm_engine_line(b->engine, i, &line);
        root[i].move = line.pv[0];
        root[i].score = line.score;
        if (line.score > best)
            best = line.score;
    }
    for (int i = 0; i < nlines; i++) {
        if (root[i].score < best - b->o.margin)
            continue;
        if (!add_entry(b, key, &root[i].move, root[i].score))
            return false;
        dm_position next = p->pos;
        dm_make_move(b->v, &next, &root[i].move);
        enqueue(b, &next, p->ply + 1);
    }
    b->positions++;
    return true;
}

static int by_key_then_score(const void *x, const void *y)
{
    const struct book_entry *a = x, *c = y;
    if (a->key != c->key)
        return a->key < c->key ? -1 : 1;
    return (a->score < c->score) - (a->score > c->score);
}

static void put_le(unsigned char *p, uint64_t x, int n)
{
    for (int i = 0; i < n; i++, x >>= 8)
        p[i] = (unsigned char)x;
}

/* The file's bytes of b's entries, sorted. */
static int write_book(struct builder *b, char **data, size_t *size)
{
    qsort(b->entries, (size_t)b->count, sizeof *b->entries, by_key_then_score);
    char header[512];
    int h = snprintf(header, sizeof header, "%s\nvariant %s\npositions %d\nmoves %d\n%s%s%s\n",
                     BOOK_MAGIC, dm_variant_id(b->v), b->positions, b->count,
                     b->o.made ? "made " : "", b->o.made ? b->o.made : "", b->o.made ? "\n" : "");
    if (h < 0 || (size_t)h >= sizeof header)
        return -1;
    *size = (size_t)h + (size_t)b->count * BOOK_RECORD;
    unsigned char *out = malloc(*size);
    if (!out)
        return -1;
    memcpy(out, header, (size_t)h);
    unsigned char *p = out + h;
    for (int i = 0; i < b->count; i++, p += BOOK_RECORD) {
        const struct book_entry *e = &b->entries[i];
        put_le(p, e->key, 8);
        p[8] = e->from;
        p[9] = e->to;
        put_le(p + 10, e->captured, 2);
        put_le(p + 12, (uint16_t)e->score, 2);
        put_le(p + 14, 0, 2);
    }
    *data = (char *)out;
    return 0;
}

int dm_book_build(const dm_variant *v, const dm_book_build_options *o, char **data, size_t *size,
                  dm_error *err)
{
    struct builder b = {.v = v, .o = *o};
    if (!b.o.nodes)
        b.o.nodes = 100000;
    if (!b.o.plies)
        b.o.plies = 8;
    if (!b.o.margin)
        b.o.margin = 15;
    if (!b.o.lines)
        b.o.lines = 6;
    if (b.o.lines > DM_MAX_MULTIPV)
        b.o.lines = DM_MAX_MULTIPV;
    if (!b.o.max_positions)
        b.o.max_positions = 5000;
    b.queue_cap = b.o.max_positions;
    size_t slots = 1024;
    while (slots < 4 * (size_t)b.queue_cap)
        slots *= 2;
    b.seen_mask = slots - 1;
    b.queue = malloc((size_t)b.queue_cap * sizeof *b.queue);
    b.seen = calloc(slots, sizeof *b.seen);
    b.engine = dm_engine_new(16);
    int rc = -1;
    if (!b.queue || !b.seen || !b.engine)
        goto out;
    dm_position start;
    dm_position_start(v, &start);
    enqueue(&b, &start, 0);
    while (b.head < b.tail) {
        const struct pending *p = &b.queue[b.head++];
        if (!expand(&b, p))
            goto out;
        if (o->on_progress)
            o->on_progress(o->ctx, b.positions, b.count, p->ply);
    }
    rc = write_book(&b, data, size);
out:
    if (rc != 0)
        snprintf(err->msg, sizeof err->msg, "out of memory building the book");
    dm_engine_free(b.engine);
    free(b.entries);
    free(b.seen);
    free(b.queue);
    return rc;
}
