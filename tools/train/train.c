/* SPDX-License-Identifier: MIT */
/*
 * train.c - damier-train: the learned evaluation's weights from Damier's
 * own games (issue 10; src/engine/pattern.h).
 *
 *   damier-train --variant ID --games N [--nodes 4000] [--cache DIR]
 *                [--seed 0] [--out FILE] [--epochs 300] [--l2 2e-6]
 *                [--fit-only] [--phase-scale] [--hold-material] [--hold-shape]
 *                [--tune-hand] [--label-nodes N [--lambda L] [--threads T]]
 *
 * 1. Self-play until the data file DIR/ID.pos holds N games: each game
 *    starts with a few random plies, the engine then plays at a fixed node
 *    budget (the same games under any load), choosing among near-best moves
 *    for its first moves.  Every quiet position (no capture to make) after
 *    the random plies is appended with the game's result; a game is written
 *    whole, closed by an end record, so an interrupted run resumes at the
 *    last whole game.  Game k of a seed is the same game on every machine;
 *    runs of other seeds into other folders play other games side by side
 *    (one a core), and their files, appended to one another, are one set.
 * 2. The fit: the score of a position is the pattern evaluation with float
 *    weights; the probability that White wins is sigmoid(score / SCALE);
 *    the loss is the cross-entropy against the result (a draw is 1/2) plus
 *    an L2 penalty on the window weights, minimised by full-batch Adam.  One
 *    game in 20 is held out to report the validation loss.  SCALE is the
 *    one the hand-set evaluation fits best (174 with --base none), or with
 *    --phase-scale the one it fits best in each eighth of the phase
 *    (set_scales); --hold-material keeps the men's
 *    and kings' values, --hold-shape the runaway and locked terms at 0
 *    (which the engine then does not read: a faster evaluation).
 * 3. The weights are scaled so that a man is worth 100, rounded to
 *    PATTERN_UNIT steps and written to FILE with the games and positions
 *    behind them.
 *
 * --tune-hand replaces steps 2 and 3: the hand-set evaluation's weights of
 * the variant's family tuned on the same positions (tune_hand), printed
 * for eval.c's table.  With --label-nodes N, either fit is made against
 * the scores of N-node searches of the positions rather than the games'
 * results (label_positions).
 *
 * The engine that plays is the one linked in: after `make` embeds new
 * weights, the next run plays with them (make train ROUNDS=n iterates).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "damier/engine.h"
#include "damier/game.h"
#include "engine/engine.h"
#include "engine/pattern.h"
#include "rules/variant.h"

#define SCALE         174.0 /* score units per unit of the sigmoid's argument */
#define MAX_PLIES     400   /* a game this long is scored a draw              */
#define RANDOM_MARGIN 30    /* the first engine moves: within this of the best */
#define RANDOM_MOVES  10    /*   for this many plies,                         */
#define RANDOM_DEPTH  4     /*   searched this deep                           */
#define HOLD_OUT      20    /* one game in this many is kept for validation    */

/* One record of the data file. */
struct record {
    uint64_t white[2], black[2], kings[2];
    uint32_t game;
    uint8_t side;   /* the side to move; RECORD_END closes a game           */
    uint8_t result; /* 0 Black won, 1 draw, 2 White won                      */
    uint16_t ply;
};
#define RECORD_END 0xFF

static void usage(void)
{
    fprintf(stderr, "usage: damier-train --variant ID --games N [--nodes N] [--cache DIR] "
                    "[--seed S] [--out FILE] [--epochs N] [--l2 X] [--base hand|none] [--fit-only] "
                    "[--phase-scale] [--hold-material] [--hold-shape] [--tune-hand] "
                    "[--label-nodes N [--lambda L] [--threads T]]\n");
    exit(2);
}

static int mkdirs(const char *path)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0755) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* Reads every whole game of path; *games gets their count.  Whatever
 * follows the last end record (an interrupted game) is cut off. */
static struct record *read_records(const char *path, size_t *count, long *games)
{
    *count = 0;
    *games = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    struct record *r = malloc(cap * sizeof *r);
    while (r && fread(&r[n], sizeof *r, 1, f) == 1)
        if (++n == cap) {
            cap *= 2;
            struct record *grown = realloc(r, cap * sizeof *r);
            if (!grown) {
                free(r);
                r = NULL;
            }
            r = grown;
        }
    fclose(f);
    if (!r) {
        fprintf(stderr, "damier-train: out of memory reading %s\n", path);
        exit(1);
    }
    size_t whole = 0;
    for (size_t i = 0; i < n; i++)
        if (r[i].side == RECORD_END) {
            whole = i + 1;
            ++*games;
        }
    struct stat st;
    bool longer = stat(path, &st) == 0 && (size_t)st.st_size != whole * sizeof *r;
    if (longer && truncate(path, (off_t)(whole * sizeof *r)) != 0)
        fprintf(stderr, "damier-train: cannot cut the unfinished game off %s\n", path);
    *count = whole;
    return r;
}

static void pack(struct record *r, const dm_position *pos)
{
    r->white[0] = (uint64_t)pos->white, r->white[1] = (uint64_t)(pos->white >> 64);
    r->black[0] = (uint64_t)pos->black, r->black[1] = (uint64_t)(pos->black >> 64);
    r->kings[0] = (uint64_t)pos->kings, r->kings[1] = (uint64_t)(pos->kings >> 64);
}

static void unpack(dm_position *pos, const struct record *r)
{
    memset(pos, 0, sizeof *pos);
    pos->white = (dm_bits)r->white[1] << 64 | r->white[0];
    pos->black = (dm_bits)r->black[1] << 64 | r->black[0];
    pos->kings = (dm_bits)r->kings[1] << 64 | r->kings[0];
    pos->side = r->side;
}

static uint64_t rng_next(uint64_t *s)
{
    /* splitmix64 */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Plays game number index and appends its quiet positions and its end
 * record to f.  Returns the positions written. */
static int play_game(FILE *f, const dm_variant *v, dm_engine *e, long index, uint64_t nodes,
                     uint64_t series)
{
    static struct record recs[MAX_PLIES + 1];
    static dm_position hist[MAX_PLIES + 2];
    uint64_t seed = 0x5EED0000ull + (uint64_t)index * 7919 + series * 0x9E3779B97F4A7C15ull;
    dm_error err;
    dm_game *g = dm_game_new(v, DM_RULES_DEFAULT, NULL, &err);
    if (!g) {
        fprintf(stderr, "damier-train: %s\n", err.msg);
        exit(1);
    }
    dm_engine_new_game(e);
    int random_plies = 2 + (int)(rng_next(&seed) % 7);
    int n = 0;
    while (!dm_game_over(g) && dm_game_ply(g) < MAX_PLIES) {
        int ply = dm_game_ply(g);
        const dm_move_list *legal = dm_game_legal(g);
        const dm_position *pos = dm_game_position(g, ply);
        hist[ply] = *pos;
        dm_move m;
        if (ply < random_plies) {
            m = legal->moves[rng_next(&seed) % (uint64_t)legal->count];
        } else {
            if (!(legal->moves[0].flags & DM_MOVE_CAPTURE)) {
                pack(&recs[n], pos);
                recs[n].game = (uint32_t)index;
                recs[n].side = pos->side;
                recs[n].ply = (uint16_t)ply;
                n++;
            }
            dm_search_limits lim = {0};
            lim.nodes = nodes;
            if (ply < random_plies + RANDOM_MOVES) {
                /* A depth, not a node budget: a search cut off within an
                 * iteration may have no root move within the margin. */
                lim.nodes = 0;
                lim.depth = RANDOM_DEPTH;
                lim.random_margin = RANDOM_MARGIN;
                lim.seed = rng_next(&seed);
            }
            dm_search_result res;
            if (dm_engine_search(e, v, pos, hist, ply, &lim, &res) != 0 || !res.has_move)
                break;
            m = res.best;
        }
        if (dm_game_play(g, &m, &err) != 0) {
            fprintf(stderr, "damier-train: game %ld: %s\n", index, err.msg);
            exit(1);
        }
    }
    enum dm_result result = dm_game_over(g) ? dm_game_result(g) : DM_RESULT_DRAW;
    uint8_t label = result == DM_RESULT_WHITE_WINS ? 2 : result == DM_RESULT_BLACK_WINS ? 0 : 1;
    for (int i = 0; i < n; i++)
        recs[i].result = label;
    memset(&recs[n], 0, sizeof recs[n]);
    recs[n].game = (uint32_t)index;
    recs[n].side = RECORD_END;
    recs[n].result = label;
    recs[n].ply = (uint16_t)dm_game_ply(g);
    dm_game_free(g);
    if (fwrite(recs, sizeof recs[0], (size_t)n + 1, f) != (size_t)n + 1 || fflush(f) != 0) {
        fprintf(stderr, "damier-train: cannot write the data file\n");
        exit(1);
    }
    return n;
}

/* ---- the fit ---------------------------------------------------------- */

struct sample {
    struct pattern_features f;
    float hand; /* the hand-set evaluation for White (the scales' measure)  */
    float base; /* what the corrections add to: hand, or 0 (--base none)   */
    float y;    /* White's result: 0, 1/2, 1                                 */
    float per;  /* 1 / the scale of the sigmoid at this position's phase     */
    bool held;  /* validation                                                */
};

struct model {
    int nw;                  /* window weights: windows * configs * 2                 */
    double *w, *g, *m1, *m2; /* weights, gradient, Adam moments (all nw + G) */
};

#define NG (PG_COUNT * 2)

/* White's score of s under weights w (globals first, then windows). */
static double score_of(const struct pattern_layout *l, const double *w, const struct sample *s,
                       double *mg_part)
{
    const double *win = w + NG;
    double mg = 0, eg = 0;
    for (int i = 0; i < l->windows; i++) {
        const double *t = win + (size_t)i * (size_t)l->configs * 2;
        mg += t[2 * s->f.white[i]] - t[2 * s->f.black[i]];
        eg += t[2 * s->f.white[i] + 1] - t[2 * s->f.black[i] + 1];
    }
    for (int i = 0; i < PG_COUNT; i++) {
        mg += w[2 * i] * s->f.global[i];
        eg += w[2 * i + 1] * s->f.global[i];
    }
    double p = (double)s->f.phase / l->start_pieces;
    *mg_part = p;
    return s->base + mg * p + eg * (1 - p);
}

static double sigmoid(double x)
{
    return 1 / (1 + exp(-x));
}

static double loss_of(double q, double y)
{
    const double eps = 1e-12;
    return -(y * log(q + eps) + (1 - y) * log(1 - q + eps));
}

#define PHASE_BUCKETS 8

/* The sigmoid's scale of every sample (s[i].per): the one the hand-set
 * evaluation fits best (over a grid), over all samples, or with by_phase
 * over each eighth of the game's phase; the corrections are then fitted at
 * those scales.  A man ahead decides more games among many pieces than
 * among few: fitted at one scale, the corrections learn that as material
 * worth more in the middle game (Russian, 60000 games: a man 3.8 men
 * there), and the search's margins, in men, no longer fit the evaluation.
 * Per phase, the scale absorbs it. */
static void set_scales(const struct pattern_layout *l, struct sample *s, size_t n, bool by_phase)
{
    int *bucket_of = malloc((n + 1) * sizeof *bucket_of);
    if (!bucket_of) {
        fprintf(stderr, "damier-train: out of memory\n");
        exit(1);
    }
    size_t count[PHASE_BUCKETS + 1] = {0};
    for (size_t i = 0; i < n; i++) {
        int b = s[i].f.phase * PHASE_BUCKETS / (l->start_pieces + 1);
        bucket_of[i] = b < 0 ? 0 : b >= PHASE_BUCKETS ? PHASE_BUCKETS - 1 : b;
        count[bucket_of[i]]++;
    }
    count[PHASE_BUCKETS] = n;
    /* Bucket PHASE_BUCKETS is every sample. */
    double best[PHASE_BUCKETS + 1], best_loss[PHASE_BUCKETS + 1];
    for (int b = 0; b <= PHASE_BUCKETS; b++)
        best[b] = SCALE, best_loss[b] = 1e300;
    for (double k = 40; k < 4000; k *= 1.05) {
        double loss[PHASE_BUCKETS + 1] = {0};
        for (size_t i = 0; i < n; i++)
            loss[bucket_of[i]] += loss_of(sigmoid(s[i].hand / k), s[i].y);
        for (int b = 0; b < PHASE_BUCKETS; b++)
            loss[PHASE_BUCKETS] += loss[b];
        for (int b = 0; b <= PHASE_BUCKETS; b++)
            if (loss[b] < best_loss[b])
                best_loss[b] = loss[b], best[b] = k;
    }
    double all = best[PHASE_BUCKETS];
    printf("base: the hand-set evaluation fits best at scale %.0f, loss %.5f\n", all,
           best_loss[PHASE_BUCKETS] / (double)(n ? n : 1));
    double per[PHASE_BUCKETS];
    for (int b = 0; b < PHASE_BUCKETS; b++) {
        per[b] = all;
        if (!by_phase)
            continue;
        if (count[b] >= 1000) /* fewer say too little */
            per[b] = best[b];
        printf("  phase %d/%d: scale %.0f, loss %.5f, %zu positions\n", b + 1, PHASE_BUCKETS,
               per[b], count[b] ? best_loss[b] / (double)count[b] : 0.0, count[b]);
    }
    for (size_t i = 0; i < n; i++)
        s[i].per = (float)(1 / per[bucket_of[i]]);
    free(bucket_of);
}

/* Full-batch Adam; the globals of the mask held (bit i: global i) keep
 * their first values. */
static void fit(const struct pattern_layout *l, struct model *md, const struct sample *s, size_t n,
                int epochs, double l2, unsigned held)
{
    size_t total = (size_t)md->nw + NG;
    double *w = md->w, *g = md->g;
    const double b1 = 0.9, b2 = 0.999;
    for (int ep = 1; ep <= epochs; ep++) {
        memset(g, 0, total * sizeof *g);
        double train_loss = 0, val_loss = 0;
        size_t ntrain = 0, nval = 0;
        for (size_t k = 0; k < n; k++) {
            double p;
            double sc = score_of(l, w, &s[k], &p);
            double q = sigmoid(sc * s[k].per);
            if (s[k].held) {
                val_loss += loss_of(q, s[k].y);
                nval++;
                continue;
            }
            train_loss += loss_of(q, s[k].y);
            ntrain++;
            double d = (q - s[k].y) * s[k].per, dm = d * p, de = d * (1 - p);
            double *gw = g + NG;
            for (int i = 0; i < l->windows; i++) {
                size_t base = (size_t)i * (size_t)l->configs * 2;
                gw[base + 2 * s[k].f.white[i]] += dm;
                gw[base + 2 * s[k].f.white[i] + 1] += de;
                gw[base + 2 * s[k].f.black[i]] -= dm;
                gw[base + 2 * s[k].f.black[i] + 1] -= de;
            }
            for (int i = 0; i < PG_COUNT; i++) {
                g[2 * i] += dm * s[k].f.global[i];
                g[2 * i + 1] += de * s[k].f.global[i];
            }
        }
        if (ntrain == 0)
            return;
        double lr = 3.0 * (1 - 0.9 * ep / epochs);
        double c1 = 1 - pow(b1, ep), c2 = 1 - pow(b2, ep);
        for (int i = 0; i < PG_COUNT; i++)
            if (held & 1u << i)
                g[2 * i] = g[2 * i + 1] = 0;
        for (size_t i = 0; i < total; i++) {
            double gi = g[i] / (double)ntrain + (i >= NG ? l2 * w[i] : 0);
            md->m1[i] = b1 * md->m1[i] + (1 - b1) * gi;
            md->m2[i] = b2 * md->m2[i] + (1 - b2) * gi * gi;
            w[i] -= lr * (md->m1[i] / c1) / (sqrt(md->m2[i] / c2) + 1e-9);
        }
        if (ep == 1 || ep % 50 == 0 || ep == epochs)
            printf("epoch %4d  loss %.5f  validation %.5f  man %.0f/%.0f king %.0f/%.0f\n", ep,
                   train_loss / (double)ntrain, nval ? val_loss / (double)nval : 0.0, w[0], w[1],
                   w[2], w[3]);
    }
}

static int16_t quantize(double x)
{
    double q = round(x * PATTERN_UNIT);
    return (int16_t)(q > 32767 ? 32767 : q < -32767 ? -32767 : q);
}

/* ---- tuning the hand-set weights ---------------------------------------- */

/* Texel's method: the hand-set evaluation's weights of the variant's family
 * changed one at a time, by a step and back, keeping every change that
 * lowers the cross-entropy of sigmoid(score / scale) against the games'
 * results; the steps halve when no change helps.  A man stays 100 (the
 * unit of the search's margins) and the scale is fitted once, to the
 * weights as they are. */
struct tuned {
    const char *name;
    size_t offset; /* in struct eval_weights */
    int min, max;
};

/* clang-format off */
#define TUNED(field, lo, hi) {#field, offsetof(struct eval_weights, field), lo, hi}
/* clang-format on */
static const struct tuned tuned_weights[] = {
    TUNED(king, 100, 600),      TUNED(advance, -20, 40),     TUNED(endgame_advance, 0, 400),
    TUNED(back_rank, -20, 60),  TUNED(centre, -20, 60),      TUNED(edge, -30, 30),
    TUNED(balance, -10, 40),    TUNED(king_mobility, 0, 30), TUNED(runaway, 0, 400),
    TUNED(kings_both, 20, 100), TUNED(trade, -50, 200),   TUNED(locked, -20, 40),
};
#define NTUNED (sizeof tuned_weights / sizeof tuned_weights[0])

struct tune_sample {
    dm_position pos;
    float y;   /* White's result: 0, 1/2, 1 (or a search's, --label-nodes) */
    bool held; /* validation                */
};

/* ---- labels from a deeper search (--label-nodes) ------------------------ */

/* A game's result says little about a position early in it, and games of
 * 4000 nodes a move reward what such a search sees (docs/engine.md): with
 * --label-nodes N each position is labelled instead by the score of an
 * N-node search from it, as a probability through the same sigmoid
 * (LABEL_SCALE), mixed with the result by --lambda.  The scores are kept in
 * DIR/ID.lab-N (one int16 a position, White's view, in the order of the
 * data file), so that a run resumes where the last stopped; --threads T
 * searches T positions at once, one engine each. */
#define LABEL_SCALE 174.0
#define LABEL_CLAMP 1000 /* a decided score: ten men */
#define LABEL_CHUNK 4096

struct labeller {
    const dm_variant *v;
    const dm_position *pos;
    int16_t *score;
    size_t lo, hi;
    uint64_t nodes;
    int threads, index;
};

static void *label_range(void *arg)
{
    struct labeller *L = arg;
    /* A small table: a search of a few thousand nodes fills little of it,
     * and it is cleared for every position. */
    dm_engine *e = dm_engine_new(1);
    if (!e) {
        fprintf(stderr, "damier-train: out of memory\n");
        exit(1);
    }
    for (size_t i = L->lo + (size_t)L->index; i < L->hi; i += (size_t)L->threads) {
        dm_search_limits lim = {0};
        lim.nodes = L->nodes;
        dm_search_result res;
        dm_engine_new_game(e);
        int sc = 0;
        if (dm_engine_search(e, L->v, &L->pos[i], NULL, 0, &lim, &res) == 0 && res.has_move)
            sc = res.score;
        if (sc > LABEL_CLAMP)
            sc = LABEL_CLAMP;
        if (sc < -LABEL_CLAMP)
            sc = -LABEL_CLAMP;
        L->score[i] = (int16_t)(L->pos[i].side == DM_WHITE ? sc : -sc);
    }
    dm_engine_free(e);
    return NULL;
}

/* Labels the n positions by N-node searches (the file path holds those
 * done before), then sets each y (the game's result) to lambda * y +
 * (1 - lambda) * the search's probability. */
static int label_positions(const dm_variant *v, const dm_position *pos, float *y, size_t n,
                           const char *path, uint64_t nodes, int threads, double lambda)
{
    int16_t *score = malloc((n + 1) * sizeof *score);
    if (!score)
        return -1;
    size_t done = 0;
    FILE *f = fopen(path, "rb");
    if (f) {
        done = fread(score, sizeof *score, n, f);
        fclose(f);
    }
    if (done < n) {
        f = fopen(path, done ? "ab" : "wb");
        if (!f) {
            fprintf(stderr, "damier-train: cannot write %s: %s\n", path, strerror(errno));
            free(score);
            return -1;
        }
        printf("labelling %zu positions by %llu-node searches (%zu done before), %d thread%s\n",
               n - done, (unsigned long long)nodes, done, threads, threads == 1 ? "" : "s");
        time_t t0 = time(NULL);
        while (done < n) {
            size_t hi = done + LABEL_CHUNK < n ? done + LABEL_CHUNK : n;
            pthread_t tid[64];
            struct labeller L[64];
            for (int t = 0; t < threads; t++) {
                L[t] = (struct labeller){v, pos, score, done, hi, nodes, threads, t};
                pthread_create(&tid[t], NULL, label_range, &L[t]);
            }
            for (int t = 0; t < threads; t++)
                pthread_join(tid[t], NULL);
            if (fwrite(score + done, sizeof *score, hi - done, f) != hi - done || fflush(f) != 0) {
                fprintf(stderr, "damier-train: cannot write %s\n", path);
                fclose(f);
                free(score);
                return -1;
            }
            done = hi;
            printf("  %zu of %zu, %lds\n", done, n, (long)(time(NULL) - t0));
            fflush(stdout);
        }
        fclose(f);
    }
    for (size_t i = 0; i < n; i++)
        y[i] = (float)(lambda * y[i] + (1 - lambda) / (1 + exp(-score[i] / LABEL_SCALE)));
    free(score);
    return 0;
}

static int *weight_at(struct eval_weights *w, int i)
{
    return (int *)((char *)w + tuned_weights[i].offset);
}

/* The mean loss of the samples (held: the validation ones, else the
 * others) under the weights t was prepared with. */
static double hand_loss(const struct eval_tables *t, const struct tune_sample *s, size_t n,
                        double k, bool held)
{
    double loss = 0;
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i].held != held)
            continue;
        int e = eval_hand(t, &s[i].pos);
        double white = s[i].pos.side == DM_WHITE ? e : -e;
        loss += loss_of(sigmoid(white / k), s[i].y);
        count++;
    }
    return count ? loss / (double)count : 0;
}

static void print_weights(const char *what, const struct eval_weights *w)
{
    printf("%s: man %d para %d", what, w->man, w->para);
    for (size_t i = 0; i < NTUNED; i++)
        printf(" %s %d", tuned_weights[i].name, *weight_at((struct eval_weights *)w, (int)i));
    printf("\n");
}

static void tune_hand(const dm_variant *v, const struct tune_sample *s, size_t n)
{
    struct eval_weights w = *eval_family_weights(v);
    struct eval_tables t = {0};
    eval_prepare_weights(&t, v, &w);
    double best_k = 0, best = 1e300;
    for (double k = 40; k < 4000; k *= 1.03) {
        double l = hand_loss(&t, s, n, k, false);
        if (l < best)
            best = l, best_k = k;
    }
    print_weights("family", &w);
    printf("scale %.0f: loss %.5f, validation %.5f\n", best_k, best,
           hand_loss(&t, s, n, best_k, true));
    int step[NTUNED];
    for (size_t i = 0; i < NTUNED; i++) {
        int x = abs(*weight_at(&w, (int)i));
        step[i] = x / 4 > 1 ? x / 4 : 2;
    }
    for (int pass = 1; pass <= 60; pass++) {
        bool changed = false, coarse = false;
        for (size_t i = 0; i < NTUNED; i++) {
            int *x = weight_at(&w, (int)i);
            for (int dir = 1; dir >= -1; dir -= 2) {
                bool moved = false;
                for (;;) {
                    int was = *x, to = was + dir * step[i];
                    if (to < tuned_weights[i].min || to > tuned_weights[i].max)
                        break;
                    *x = to;
                    eval_prepare_weights(&t, v, &w);
                    double l = hand_loss(&t, s, n, best_k, false);
                    if (l >= best) {
                        *x = was;
                        eval_prepare_weights(&t, v, &w);
                        break;
                    }
                    best = l;
                    moved = changed = true;
                }
                if (moved)
                    break;
            }
            if (step[i] > 1)
                coarse = true;
        }
        printf("pass %2d: loss %.5f, validation %.5f\n", pass, best,
               hand_loss(&t, s, n, best_k, true));
        print_weights("tuned", &w);
        fflush(stdout);
        if (!changed) {
            if (!coarse)
                break;
            for (size_t i = 0; i < NTUNED; i++)
                step[i] = step[i] > 1 ? step[i] / 2 : 1;
        }
    }
}

int main(int argc, char **argv)
{
    const char *id = NULL, *out = NULL, *cache = NULL;
    long games = -1;
    uint64_t nodes = 4000, series = 0;
    int epochs = 300;
    double l2 = 2e-6;
    bool fit_only = false, on_hand = true, tune = false;
    bool phase_scale = false;
    unsigned held = 0; /* globals held (bit i: global i) */
    uint64_t label_nodes = 0;
    int label_threads = 1;
    double lambda = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--fit-only") == 0 || strcmp(a, "--tune-hand") == 0) {
            fit_only = fit_only || strcmp(a, "--fit-only") == 0;
            tune = tune || strcmp(a, "--tune-hand") == 0;
            continue;
        }
        if (strcmp(a, "--phase-scale") == 0) {
            phase_scale = true;
            continue;
        }
        if (strcmp(a, "--hold-material") == 0 || strcmp(a, "--hold-shape") == 0) {
            /* The shape terms held at 0 are not read by the engine. */
            held |= strcmp(a, "--hold-material") == 0 ? 1u << PG_MAN | 1u << PG_KING
                                                      : 1u << PG_RUNAWAY | 1u << PG_LOCKED;
            continue;
        }
        if (!val)
            usage();
        i++;
        if (strcmp(a, "--variant") == 0)
            id = val;
        else if (strcmp(a, "--games") == 0)
            games = atol(val);
        else if (strcmp(a, "--nodes") == 0)
            nodes = strtoull(val, NULL, 10);
        else if (strcmp(a, "--cache") == 0)
            cache = val;
        else if (strcmp(a, "--seed") == 0)
            series = strtoull(val, NULL, 10);
        else if (strcmp(a, "--out") == 0)
            out = val;
        else if (strcmp(a, "--epochs") == 0)
            epochs = atoi(val);
        else if (strcmp(a, "--l2") == 0)
            l2 = atof(val);
        else if (strcmp(a, "--label-nodes") == 0)
            label_nodes = strtoull(val, NULL, 10);
        else if (strcmp(a, "--threads") == 0 && atoi(val) >= 1 && atoi(val) <= 64)
            label_threads = atoi(val);
        else if (strcmp(a, "--lambda") == 0 && atof(val) >= 0 && atof(val) <= 1)
            lambda = atof(val);
        else if (strcmp(a, "--base") == 0 && (!strcmp(val, "hand") || !strcmp(val, "none")))
            on_hand = strcmp(val, "hand") == 0;
        else
            usage();
    }
    if (!id || games < 0 || nodes == 0 || epochs <= 0)
        usage();
    const dm_variant *v = dm_variant_by_id(id);
    if (!v) {
        fprintf(stderr, "damier-train: unknown variant %s (damier variants)\n", id);
        return 2;
    }
    char cache_buf[1024], path[1200];
    if (!cache) {
        const char *home = getenv("HOME");
        snprintf(cache_buf, sizeof cache_buf, "%s/.cache/damier/train", home ? home : ".");
        cache = cache_buf;
    }
    if (mkdirs(cache) != 0) {
        fprintf(stderr, "damier-train: cannot create %s: %s\n", cache, strerror(errno));
        return 1;
    }
    snprintf(path, sizeof path, "%s/%s.pos", cache, id);

    struct eval_tables tables = {0};
    eval_prepare(&tables, v);
    if (!pattern_layout_build(&tables.pattern.layout, v)) {
        fprintf(stderr, "damier-train: %s has no window layout (board not half-turn symmetric)\n",
                id);
        return 1;
    }
    const struct pattern_layout *l = &tables.pattern.layout;
    printf("%s: %d windows of %d cells, %s evaluation playing\n", id, l->windows, l->cells,
           tables.pattern.on ? "learned" : "hand-set");

    size_t nrec;
    long have;
    struct record *recs = read_records(path, &nrec, &have);
    free(recs);
    if (!fit_only && have < games) {
        FILE *f = fopen(path, "ab");
        if (!f) {
            fprintf(stderr, "damier-train: cannot open %s: %s\n", path, strerror(errno));
            return 1;
        }
        dm_engine *e = dm_engine_new(16);
        long positions = 0;
        time_t t0 = time(NULL);
        char seed_note[40] = "";
        if (series)
            snprintf(seed_note, sizeof seed_note, ", seed %llu", (unsigned long long)series);
        printf("self-play: %ld games there, playing %ld more at %llu nodes a move%s\n", have,
               games - have, (unsigned long long)nodes, seed_note);
        for (long gi = have; gi < games; gi++) {
            positions += play_game(f, v, e, gi, nodes, series);
            if ((gi + 1) % 100 == 0 || gi + 1 == games) {
                printf("  game %ld, %ld positions, %lds\n", gi + 1, positions,
                       (long)(time(NULL) - t0));
                fflush(stdout);
            }
        }
        dm_engine_free(e);
        fclose(f);
    }
    recs = read_records(path, &nrec, &have);
    /* The samples, every quiet position of every game, and their labels:
     * the games' results, or the searches' scores. */
    dm_position *pos = malloc((nrec + 1) * sizeof *pos);
    float *y = malloc((nrec + 1) * sizeof *y);
    if (!pos || !y) {
        fprintf(stderr, "damier-train: out of memory\n");
        return 1;
    }
    size_t n = 0;
    for (size_t i = 0; i < nrec; i++)
        if (recs[i].side != RECORD_END) {
            unpack(&pos[n], &recs[i]);
            y[n++] = (float)recs[i].result / 2;
        }
    if (label_nodes && n) {
        char lab[1300];
        snprintf(lab, sizeof lab, "%s/%s.lab-%llu", cache, id, (unsigned long long)label_nodes);
        if (label_positions(v, pos, y, n, lab, label_nodes, label_threads, lambda) != 0)
            return 1;
    }
    const char *labelled = label_nodes ? ", labelled by searches" : "";
    if (tune) {
        struct tune_sample *ts = malloc((n + 1) * sizeof *ts);
        size_t nt = 0;
        for (size_t i = 0; ts && i < nrec; i++) {
            if (recs[i].side == RECORD_END)
                continue;
            ts[nt].pos = pos[nt];
            ts[nt].y = y[nt];
            ts[nt].held = recs[i].game % HOLD_OUT == HOLD_OUT - 1;
            nt++;
        }
        free(recs);
        free(pos);
        free(y);
        if (!ts || nt == 0) {
            fprintf(stderr, "damier-train: no positions to tune on\n");
            return 1;
        }
        printf("tuning the hand-set weights on %ld games, %zu positions%s\n", have, nt, labelled);
        tune_hand(v, ts, nt);
        free(ts);
        return 0;
    }

    struct sample *s = malloc((n + 1) * sizeof *s);
    if (!s) {
        fprintf(stderr, "damier-train: out of memory\n");
        return 1;
    }
    long results[3] = {0, 0, 0};
    for (size_t i = 0, k = 0; i < nrec; i++) {
        if (recs[i].side == RECORD_END) {
            results[recs[i].result]++;
            continue;
        }
        pattern_features_of(&tables, &pos[k], &s[k].f);
        int hand = eval_hand(&tables, &pos[k]);
        s[k].hand = (float)(pos[k].side == DM_WHITE ? hand : -hand);
        s[k].base = on_hand ? s[k].hand : 0;
        s[k].y = y[k];
        s[k].held = recs[i].game % HOLD_OUT == HOLD_OUT - 1;
        k++;
    }
    free(recs);
    free(pos);
    free(y);
    printf("data: %ld games (White %ld, draws %ld, Black %ld), %zu positions%s\n", have,
           results[2], results[1], results[0], n, labelled);
    if (n == 0 || !out) {
        free(s);
        return n == 0 ? 1 : 0;
    }

    struct model md;
    md.nw = l->windows * l->configs * 2;
    size_t total = (size_t)md.nw + NG;
    md.w = calloc(total, sizeof(double));
    md.g = calloc(total, sizeof(double));
    md.m1 = calloc(total, sizeof(double));
    md.m2 = calloc(total, sizeof(double));
    if (!md.w || !md.g || !md.m1 || !md.m2) {
        fprintf(stderr, "damier-train: out of memory\n");
        return 1;
    }
    double k = 1;
    if (on_hand) {
        /* Corrections to the hand-set evaluation, from zero. */
        set_scales(l, s, n, phase_scale);
        fit(l, &md, s, n, epochs, l2, held);
    } else {
        /* From a man of 100 and a king of 250, at the hand-set evaluation's
         * scales by phase, or one fixed scale. */
        if (phase_scale)
            set_scales(l, s, n, true);
        else
            for (size_t i = 0; i < n; i++)
                s[i].per = (float)(1 / SCALE);
        md.w[2 * PG_MAN] = md.w[2 * PG_MAN + 1] = 100;
        md.w[2 * PG_KING] = md.w[2 * PG_KING + 1] = 250;
        fit(l, &md, s, n, epochs, l2, held);
        /* A man is worth 100: the search's margins are in those units. */
        double man = (md.w[2 * PG_MAN] + md.w[2 * PG_MAN + 1]) / 2;
        k = man > 1 ? 100 / man : 1;
    }
    int16_t global[NG];
    int16_t *window = malloc((size_t)md.nw * sizeof *window);
    if (!window)
        return 1;
    for (int i = 0; i < NG; i++)
        global[i] = quantize(md.w[i] * k);
    for (int i = 0; i < md.nw; i++)
        window[i] = quantize(md.w[NG + i] * k);

    char cmd[1024] = "damier-train";
    for (int i = 1; i < argc; i++) {
        size_t len = strlen(cmd);
        snprintf(cmd + len, sizeof cmd - len, " %s", argv[i]);
    }
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    struct pattern_header h = {id, eval_family_name(v), have, (long)n, date, cmd, on_hand};
    char tmp[1300];
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    FILE *f = fopen(tmp, "wb");
    if (!f || pattern_weights_write(f, &h, l, global, window) != 0 || fclose(f) != 0 ||
        rename(tmp, out) != 0) {
        fprintf(stderr, "damier-train: cannot write %s\n", out);
        return 1;
    }
    printf("wrote %s: %ld games, %zu positions, man %d king %d (mg, /%d)\n", out, have, n,
           global[0], global[2], PATTERN_UNIT);
    free(window);
    free(s);
    free(md.w), free(md.g), free(md.m1), free(md.m2);
    return 0;
}
