/* SPDX-License-Identifier: MIT */
/*
 * pattern.c - the learned evaluation (pattern.h): the window layout, the
 * weight files and the evaluation itself.
 *
 * A window's configuration is read with two bit extractions per colour
 * (pext on BMI2, a loop elsewhere): the men of each colour under the
 * window's mask, turned into a base-3 number by a table.  Black's reading
 * uses the half-turned mask, whose cells come out in reverse order, hence
 * the reversed table.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "engine/engine.h"
#include "engine/pattern.h"
#include "rules/variant.h"

/* ---- layout ----------------------------------------------------------- */

bool pattern_layout_build(struct pattern_layout *l, const struct dm_variant *v)
{
    const struct geometry *g = v->geo;
    memset(l, 0, sizeof *l);
    int n = g->ncells;
    /* Black's reading turns the board half round: cell k is cell n-1-k
     * there, which holds when cells are numbered row by row. */
    for (int c = 0; c < n; c++)
        if (g->file_of[n - 1 - c] != g->files - 1 - g->file_of[c] ||
            g->rank_of[n - 1 - c] != g->ranks - 1 - g->rank_of[c])
            return false;
    bool dark = n < g->files * g->ranks;
    int side = dark ? 4 : 3, file_step = dark ? 2 : 1;
    for (int r0 = 0; r0 + side <= g->ranks; r0++)
        for (int f0 = 0; f0 + side <= g->files; f0 += file_step) {
            if (l->windows == PATTERN_MAX_WINDOWS)
                return false;
            int w = l->windows++, k = 0;
            for (int c = 0; c < n; c++) {
                int f = g->file_of[c], r = g->rank_of[c];
                if (f < f0 || f >= f0 + side || r < r0 || r >= r0 + side)
                    continue;
                if (k == PATTERN_MAX_CELLS)
                    return false;
                l->cell[w][k++] = (uint8_t)c;
                l->mask[w][c >> 6] |= (uint64_t)1 << (c & 63);
                int t = n - 1 - c;
                l->turned[w][t >> 6] |= (uint64_t)1 << (t & 63);
            }
            if (w > 0 && k != l->cells)
                return false; /* every window the same size */
            l->cells = k;
            l->lo_bits[w][0] = (uint8_t)popcount64(l->mask[w][0]);
            l->lo_bits[w][1] = (uint8_t)popcount64(l->turned[w][0]);
        }
    if (l->windows == 0 || l->cells == 0)
        return false;
    l->configs = 1;
    for (int i = 0; i < l->cells; i++)
        l->configs *= 3;
    for (int b = 0; b < (1 << l->cells); b++) {
        int t = 0, rev = 0, p = 1;
        for (int i = 0; i < l->cells; i++, p *= 3) {
            if (b & (1 << i))
                t += p;
            if (b & (1 << (l->cells - 1 - i)))
                rev += p;
        }
        l->ternary[b] = (uint16_t)t;
        l->reversed[b] = (uint16_t)rev;
    }
    l->ncells = n;
    l->start_pieces = popcount128(v->start.white | v->start.black);
    if (l->start_pieces == 0)
        l->start_pieces = 1;
    return true;
}

/* ---- weight files ------------------------------------------------------ */

/* A weight file: text lines "key value", the last one "data OFFSET", then
 * zeros up to OFFSET (a multiple of PATTERN_ALIGN), then the weights as
 * little-endian int16: PG_COUNT * 2 globals, windows * configs * 2. */
#define PATTERN_MAGIC "damier-weights"

static const char *global_names[PG_COUNT] = {"man", "king", "runaway", "tempo", "locked"};

int pattern_weights_write(FILE *f, const struct pattern_header *h, const struct pattern_layout *l,
                          const int16_t *global, const int16_t *window)
{
    char head[4096];
    int len = snprintf(head, sizeof head,
                       PATTERN_MAGIC " %d\nvariant %s\nfamily %s\nbase %s\nwindows %d\ncells %d\n"
                                     "games %ld\npositions %ld\ndate %s\ncommand %s\n",
                       PATTERN_LAYOUT_VERSION, h->variant, h->family, h->on_hand ? "hand" : "none",
                       l->windows, l->cells, h->games, h->positions, h->date, h->command);
    for (int gi = 0; gi < PG_COUNT && len < (int)sizeof head; gi++)
        len += snprintf(head + len, sizeof head - (size_t)len, "global %s %d %d\n",
                        global_names[gi], global[2 * gi], global[2 * gi + 1]);
    if (len >= (int)sizeof head - 32)
        return -1;
    /* "data N\n" is itself part of the header. */
    int offset = (len + 16 + PATTERN_ALIGN - 1) / PATTERN_ALIGN * PATTERN_ALIGN;
    len += snprintf(head + len, sizeof head - (size_t)len, "data %d\n", offset);
    if (len > offset || fwrite(head, 1, (size_t)len, f) != (size_t)len)
        return -1;
    for (; len < offset; len++)
        if (fputc(0, f) == EOF)
            return -1;
    size_t count = (size_t)PG_COUNT * 2 + (size_t)l->windows * (size_t)l->configs * 2;
    for (size_t i = 0; i < count; i++) {
        int16_t x = i < PG_COUNT * 2 ? global[i] : window[i - PG_COUNT * 2];
        unsigned char le[2] = {(unsigned char)((uint16_t)x & 0xFF),
                               (unsigned char)((uint16_t)x >> 8)};
        if (fwrite(le, 1, 2, f) != 2)
            return -1;
    }
    return fflush(f) == 0 ? 0 : -1;
}

/* The value of header line key (NULL if absent): the rest of its line,
 * copied into buf. */
static const char *header_value(const char *head, size_t size, const char *key, char *buf,
                                size_t buf_size)
{
    size_t klen = strlen(key);
    for (size_t i = 0; i < size;) {
        const char *line = head + i;
        const char *end = memchr(line, '\n', size - i);
        if (!end)
            return NULL;
        size_t len = (size_t)(end - line);
        if (len > klen && memcmp(line, key, klen) == 0 && line[klen] == ' ') {
            size_t vlen = len - klen - 1;
            if (vlen >= buf_size)
                vlen = buf_size - 1;
            memcpy(buf, line + klen + 1, vlen);
            buf[vlen] = 0;
            return buf;
        }
        i += len + 1;
    }
    return NULL;
}

static bool header_long(const char *head, size_t size, const char *key, long *out)
{
    char buf[64], *end;
    if (!header_value(head, size, key, buf, sizeof buf))
        return false;
    long x = strtol(buf, &end, 10);
    if (end == buf || *end)
        return false;
    *out = x;
    return true;
}

int pattern_weights_read(const unsigned char *data, size_t size, const struct dm_variant *v,
                         const struct pattern_layout *l, struct pattern_weights *w, char *why,
                         size_t why_size)
{
    const char *head = (const char *)data;
    size_t mlen = strlen(PATTERN_MAGIC);
    if (!data || size < mlen + 2 || memcmp(head, PATTERN_MAGIC " ", mlen + 1) != 0) {
        snprintf(why, why_size, "not a weight file (no \"" PATTERN_MAGIC "\" first)");
        return -1;
    }
    long offset, version, windows, cells;
    /* The header is read up to the data line at most, within the file. */
    size_t head_size = size < 4096 ? size : 4096;
    if (!header_long(head, head_size, "data", &offset) || offset <= 0 ||
        offset % PATTERN_ALIGN != 0 || (size_t)offset > size) {
        snprintf(why, why_size, "no valid \"data\" line (offset a multiple of %d within the file)",
                 PATTERN_ALIGN);
        return -1;
    }
    head_size = (size_t)offset;
    if (sscanf(head + mlen, " %ld", &version) != 1) {
        snprintf(why, why_size, "no layout version after \"" PATTERN_MAGIC "\"");
        return -1;
    }
    if (version != PATTERN_LAYOUT_VERSION) {
        snprintf(why, why_size, "layout version %ld, this build reads %d", version,
                 PATTERN_LAYOUT_VERSION);
        return -1;
    }
    char id[64];
    if (!header_value(head, head_size, "variant", id, sizeof id) || strcmp(id, v->id) != 0) {
        snprintf(why, why_size, "weights for variant \"%s\", not %s",
                 header_value(head, head_size, "variant", id, sizeof id) ? id : "(none)", v->id);
        return -1;
    }
    char base[16];
    if (!header_value(head, head_size, "base", base, sizeof base) ||
        (strcmp(base, "hand") != 0 && strcmp(base, "none") != 0)) {
        snprintf(why, why_size, "no \"base\" line (hand or none)");
        return -1;
    }
    w->on_hand = strcmp(base, "hand") == 0;
    if (!header_long(head, head_size, "windows", &windows) ||
        !header_long(head, head_size, "cells", &cells) || windows != l->windows ||
        cells != l->cells) {
        snprintf(why, why_size, "windows/cells do not match the layout (%d windows of %d cells)",
                 l->windows, l->cells);
        return -1;
    }
    size_t count = (size_t)PG_COUNT * 2 + (size_t)l->windows * (size_t)l->configs * 2;
    if (size - (size_t)offset != count * 2) {
        snprintf(why, why_size, "%zu bytes of weights, expected %zu", size - (size_t)offset,
                 count * 2);
        return -1;
    }
    const unsigned char *p = data + offset;
    if ((uintptr_t)p % 2 != 0) {
        snprintf(why, why_size, "weights not 2-byte aligned in memory");
        return -1;
    }
    const uint16_t probe = 1;
    if (*(const unsigned char *)&probe != 1) {
        snprintf(why, why_size, "weights are little-endian; this machine is not");
        return -1;
    }
    for (int gi = 0; gi < PG_COUNT; gi++)
        for (int ph = 0; ph < 2; ph++)
            w->global[gi][ph] = (int16_t)(p[(gi * 2 + ph) * 2] | p[(gi * 2 + ph) * 2 + 1] << 8);
    w->shape = false;
    for (int ph = 0; ph < 2; ph++)
        w->shape = w->shape || w->global[PG_RUNAWAY][ph] || w->global[PG_LOCKED][ph];
    w->window = (const int16_t *)(const void *)(p + PG_COUNT * 2 * 2);
    w->net = NULL;
    return 0;
}

/* ---- the windows read once for both sides --------------------------------- */

/*
 * White reads window w as it stands, Black reads the cells of its half-turn
 * image m(w) (another window of the layout) in reverse order with the
 * colours swapped.  So the cells of a window u serve White's reading of u
 * and Black's of m(u), and one table, net[u][c] = W[u][c] - W[m(u)][R(c)]
 * (R: digits reversed, 1 and 2 swapped), scores both in one reading: the
 * same sums, half the bit extractions and lookups.  Built once per weight
 * set and kept for the process (the embedded sets only, whose addresses
 * never change).
 */

/* Configuration c as the other side reads the same cells. */
static int other_reader(const struct pattern_layout *l, int c)
{
    int r = 0;
    for (int k = 0; k < l->cells; k++, c /= 3) {
        int digit = c % 3;
        r = r * 3 + (digit ? 3 - digit : 0);
    }
    return r;
}

/* The net table of window weights w on layout l, or NULL (a window without
 * its image, a difference beyond 16 bits, no memory). */
static int16_t *net_build(const struct pattern_layout *l, const int16_t *w)
{
    int mirror[PATTERN_MAX_WINDOWS];
    for (int u = 0; u < l->windows; u++) {
        mirror[u] = -1;
        for (int m = 0; m < l->windows; m++)
            if (l->mask[m][0] == l->turned[u][0] && l->mask[m][1] == l->turned[u][1])
                mirror[u] = m;
        if (mirror[u] < 0)
            return NULL;
    }
    size_t stride = (size_t)l->configs * 2;
    int16_t *net = malloc((size_t)l->windows * stride * sizeof *net);
    if (!net)
        return NULL;
    for (int u = 0; u < l->windows; u++)
        for (int c = 0; c < l->configs; c++)
            for (int ph = 0; ph < 2; ph++) {
                int d = w[u * stride + 2 * (size_t)c + ph] -
                        w[mirror[u] * stride + 2 * (size_t)other_reader(l, c) + ph];
                if (d != (int16_t)d) {
                    free(net);
                    return NULL;
                }
                net[u * stride + 2 * (size_t)c + ph] = (int16_t)d;
            }
    return net;
}

#define NET_CACHE 32

static pthread_mutex_t net_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    const int16_t *window;
    int16_t *net; /* NULL: none could be built */
} net_cache[NET_CACHE];

/* The net table of the embedded window weights window (built at the first
 * call), or NULL. */
static const int16_t *net_of(const struct pattern_layout *l, const int16_t *window)
{
    const int16_t *net = NULL;
    pthread_mutex_lock(&net_lock);
    int i = 0;
    while (i < NET_CACHE && net_cache[i].window && net_cache[i].window != window)
        i++;
    if (i < NET_CACHE) {
        if (!net_cache[i].window) {
            net_cache[i].window = window;
            net_cache[i].net = net_build(l, window);
        }
        net = net_cache[i].net;
    }
    pthread_mutex_unlock(&net_lock);
    return net;
}

void pattern_prepare(struct pattern_eval *p, const struct dm_variant *v)
{
    p->on = false;
    size_t size;
    const unsigned char *data = pattern_embedded(v->id, &size);
    if (!data || !pattern_layout_build(&p->layout, v))
        return;
    char why[160];
    p->on = pattern_weights_read(data, size, v, &p->layout, &p->w, why, sizeof why) == 0;
    if (p->on)
        p->w.net = net_of(&p->layout, p->w.window);
}

/* ---- features and evaluation --------------------------------------------- */

static inline uint32_t extract(dm_bits x, const uint64_t mask[2], int lo_bits)
{
    uint32_t r = (uint32_t)pext64((uint64_t)x, mask[0]);
    if (mask[1])
        r |= (uint32_t)pext64((uint64_t)(x >> 64), mask[1]) << lo_bits;
    return r;
}

/* The global terms when the runaway and locked ones weigh nothing (and
 * the first part of all of them): the counts of men and kings and the
 * tempo, the rest 0. */
static inline void material_terms(const dm_position *pos, int g[PG_COUNT], bool wide)
{
    dm_bits men = ~pos->kings & ~pos->paras;
    g[PG_MAN] = popcount_cells(pos->white & men, wide) - popcount_cells(pos->black & men, wide);
    g[PG_KING] = popcount_cells(pos->white & pos->kings, wide) -
                 popcount_cells(pos->black & pos->kings, wide);
    g[PG_RUNAWAY] = g[PG_LOCKED] = 0;
    g[PG_TEMPO] = pos->side == DM_WHITE ? 1 : -1;
}

/* global_terms, inlined for the wide boards and for the others, whose sets
 * fit one word: their shifts and counts are one instruction each. */
static inline __attribute__((always_inline)) void
global_terms_of(const struct eval_tables *t, const dm_position *pos, int g[PG_COUNT], bool wide)
{
    dm_bits occupied = pos->white | pos->black;
    dm_bits empty = t->variant->geo->all & ~occupied;
    dm_bits men = occupied & ~pos->kings & ~pos->paras;
    dm_bits side_men[2] = {pos->white & men, pos->black & men};
    int run[2] = {0, 0}, locked[2] = {0, 0};
    for (int c = 0; c < 2; c++) {
        for (dm_bits m = side_men[c] & t->near_promotion[c]; m; m &= m - 1) {
            dm_bits cone = t->cone[c][wide ? ctz128(m) : ctz64((uint64_t)m)];
            run[c] += cone && !(cone & occupied);
        }
        /* Locked: a man with cells ahead, none of them empty. */
        dm_bits can_step = 0, has_ahead = 0;
        for (int i = 0; i < t->nsteps[c]; i++) {
            int d = t->step_delta[c][i];
            dm_bits to;
            if (wide)
                to = d > 0 ? empty >> d : empty << -d;
            else
                to = d > 0 ? (uint64_t)empty >> d : (uint64_t)empty << -d;
            can_step |= t->step_mask[c][i] & to;
            has_ahead |= t->step_mask[c][i];
        }
        locked[c] = popcount_cells(side_men[c] & has_ahead & ~can_step, wide);
    }
    material_terms(pos, g, wide);
    g[PG_RUNAWAY] = run[0] - run[1];
    g[PG_LOCKED] = locked[0] - locked[1];
}

/* The global terms of pos, White's less Black's.  Runaways are looked for
 * among the men of the half of the board nearest their promotion only. */
static void global_terms(const struct eval_tables *t, const dm_position *pos, int g[PG_COUNT])
{
    if (t->wide)
        global_terms_of(t, pos, g, true);
    else
        global_terms_of(t, pos, g, false);
}

/* The same terms man by man, from the per-cell tables: the reference. */
static void global_terms_slow(const struct eval_tables *t, const dm_position *pos, int g[PG_COUNT])
{
    const struct geometry *geo = t->variant->geo;
    int count[2][PG_COUNT] = {{0}};
    for (int cell = 0; cell < geo->ncells; cell++) {
        int c = has128(pos->white, cell) ? 0 : has128(pos->black, cell) ? 1 : -1;
        if (c < 0)
            continue;
        if (has128(pos->kings, cell)) {
            count[c][PG_KING]++;
            continue;
        }
        if (has128(pos->paras, cell))
            continue;
        count[c][PG_MAN]++;
        bool all_ahead_full = t->ahead[c][cell] != 0, cone_free = t->cone[c][cell] != 0;
        for (int k = 0; k < geo->ncells; k++) {
            bool full = has128(pos->white | pos->black, k);
            if (has128(t->ahead[c][cell], k) && !full)
                all_ahead_full = false;
            if (has128(t->cone[c][cell], k) && full)
                cone_free = false;
        }
        int to_go = t->to_go[c][cell];
        count[c][PG_RUNAWAY] += cone_free && to_go > 0 && to_go <= geo->ranks / 2;
        count[c][PG_LOCKED] += all_ahead_full;
    }
    for (int i = 0; i < PG_COUNT; i++)
        g[i] = count[0][i] - count[1][i];
    g[PG_TEMPO] = pos->side == DM_WHITE ? 1 : -1;
}

static int phase_of(const struct pattern_layout *l, const dm_position *pos)
{
    int n = popcount128(pos->white | pos->black);
    return n < l->start_pieces ? n : l->start_pieces;
}

void pattern_features_of(const struct eval_tables *t, const dm_position *pos,
                         struct pattern_features *f)
{
    const struct pattern_layout *l = &t->pattern.layout;
    dm_bits men = ~pos->kings & ~pos->paras;
    dm_bits wm = pos->white & men, bm = pos->black & men;
    for (int w = 0; w < l->windows; w++) {
        f->white[w] = (uint16_t)(l->ternary[extract(wm, l->mask[w], l->lo_bits[w][0])] +
                                 2 * l->ternary[extract(bm, l->mask[w], l->lo_bits[w][0])]);
        f->black[w] = (uint16_t)(l->reversed[extract(bm, l->turned[w], l->lo_bits[w][1])] +
                                 2 * l->reversed[extract(wm, l->turned[w], l->lo_bits[w][1])]);
    }
    int g[PG_COUNT];
    global_terms(t, pos, g);
    for (int i = 0; i < PG_COUNT; i++)
        f->global[i] = (int8_t)g[i];
    f->phase = (uint8_t)phase_of(l, pos);
}

void pattern_features_slow(const struct eval_tables *t, const dm_position *pos,
                           struct pattern_features *f)
{
    const struct pattern_layout *l = &t->pattern.layout;
    for (int w = 0; w < l->windows; w++) {
        int iw = 0, ib = 0, p = 1;
        for (int k = 0; k < l->cells; k++, p *= 3) {
            int c = l->cell[w][k], turned = l->ncells - 1 - c;
            bool man = !has128(pos->kings | pos->paras, c);
            bool man_t = !has128(pos->kings | pos->paras, turned);
            iw += p * (man && has128(pos->white, c) ? 1 : man && has128(pos->black, c) ? 2 : 0);
            ib += p * (man_t && has128(pos->black, turned)   ? 1
                       : man_t && has128(pos->white, turned) ? 2
                                                             : 0);
        }
        f->white[w] = (uint16_t)iw;
        f->black[w] = (uint16_t)ib;
    }
    int g[PG_COUNT];
    global_terms_slow(t, pos, g);
    for (int i = 0; i < PG_COUNT; i++)
        f->global[i] = (int8_t)g[i];
    f->phase = (uint8_t)phase_of(l, pos);
}

int pattern_evaluate(const struct eval_tables *t, const dm_position *pos)
{
    const struct pattern_layout *l = &t->pattern.layout;
    const struct pattern_weights *pw = &t->pattern.w;
    dm_bits men = ~pos->kings & ~pos->paras;
    dm_bits wm = pos->white & men, bm = pos->black & men;
    int mg = 0, eg = 0;
    const int16_t *table = pw->window;
    size_t stride = (size_t)l->configs * 2;
    if (pw->net) {
        /* Each window once, for both sides (net_build). */
        table = pw->net;
        if (l->ncells <= 64) {
            uint64_t w64 = (uint64_t)wm, b64 = (uint64_t)bm;
            for (int w = 0; w < l->windows; w++, table += stride) {
                uint64_t m = l->mask[w][0];
                unsigned c = l->ternary[pext64(w64, m)] + 2u * l->ternary[pext64(b64, m)];
                mg += table[2 * c];
                eg += table[2 * c + 1];
            }
        } else
            for (int w = 0; w < l->windows; w++, table += stride) {
                unsigned c = l->ternary[extract(wm, l->mask[w], l->lo_bits[w][0])] +
                             2u * l->ternary[extract(bm, l->mask[w], l->lo_bits[w][0])];
                mg += table[2 * c];
                eg += table[2 * c + 1];
            }
    } else if (l->ncells <= 64) {
        /* The boards of 64 cells or fewer: one word each. */
        uint64_t w64 = (uint64_t)wm, b64 = (uint64_t)bm;
        for (int w = 0; w < l->windows; w++, table += stride) {
            uint64_t m = l->mask[w][0], r = l->turned[w][0];
            unsigned iw = l->ternary[pext64(w64, m)] + 2u * l->ternary[pext64(b64, m)];
            unsigned ib = l->reversed[pext64(b64, r)] + 2u * l->reversed[pext64(w64, r)];
            mg += table[2 * iw] - table[2 * ib];
            eg += table[2 * iw + 1] - table[2 * ib + 1];
        }
    } else
        for (int w = 0; w < l->windows; w++, table += stride) {
            unsigned iw = l->ternary[extract(wm, l->mask[w], l->lo_bits[w][0])] +
                          2u * l->ternary[extract(bm, l->mask[w], l->lo_bits[w][0])];
            unsigned ib = l->reversed[extract(bm, l->turned[w], l->lo_bits[w][1])] +
                          2u * l->reversed[extract(wm, l->turned[w], l->lo_bits[w][1])];
            mg += table[2 * iw] - table[2 * ib];
            eg += table[2 * iw + 1] - table[2 * ib + 1];
        }
    int g[PG_COUNT];
    if (pw->shape)
        global_terms(t, pos, g);
    else
        material_terms(pos, g, t->wide);
    for (int i = 0; i < PG_COUNT; i++) {
        mg += pw->global[i][0] * g[i];
        eg += pw->global[i][1] * g[i];
    }
    int phase = phase_of(l, pos), full = l->start_pieces;
    /* Rounded toward zero the same way for both colours: symmetric.  A
     * 32-bit division where it fits (always, in practice): the 64-bit one
     * cost a tenth of this function. */
    long blended = (long)mg * phase + (long)eg * (full - phase);
    int div = full * PATTERN_UNIT;
    int score = blended == (int32_t)blended ? (int32_t)blended / div : (int)(blended / div);
    if (pos->side != DM_WHITE)
        score = -score;
    if (pw->on_hand)
        score += eval_hand(t, pos);
    const int bound = DM_SCORE_DECIDED - 1;
    return score > bound ? bound : score < -bound ? -bound : score;
}
