/* SPDX-License-Identifier: MIT */
/*
 * run.c - a match played: games handed out to workers, results gathered.
 *
 * Game i starts from opening i / 2, the first player White in even games
 * and Black in odd ones, so each opening is played once with each colour
 * and neither player gains from the set.  Each worker owns its two players
 * (an engine, or two Hub processes) and plays one game at a time; the
 * results, the PDN file and the progress lines are the lock's.  After each
 * game the SPRT, when asked for, may end the match: games in progress are
 * still finished and counted.
 */
#include "match/match.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "match/players.h"

#define MATCH_MAX_WORKERS 64

struct shared {
    const struct match_options *o;
    struct opening *openings;
    int nopenings;
    int total;            /* games in the match, an even number */
    unsigned char *done;  /* per game: finished (here or before a resume) */
    signed char *score;   /* per finished game: the first player's 1, 0, -1 */
    struct match_pairs pairs; /* games 2k and 2k + 1, one opening, both done */
    int next;             /* where the search for an unplayed game starts */
    struct match_tally tally;
    int played;           /* games finished in this run */
    bool stop;            /* the SPRT has decided, or a player failed to start */
    int failed;           /* exit status */
    FILE *pdn;
    pthread_mutex_t lock;
};

/* ---- one game ---------------------------------------------------------------- */

/* The PDN text with its Round tag (the play layer writes "?") set to
 * round, malloc'ed; a resumed match finds its games by it. */
static char *with_round(const char *pdn, int round)
{
    static const char unknown[] = "[Round \"?\"]";
    const char *at = strstr(pdn, unknown);
    size_t skip = at ? sizeof unknown - 1 : 0;
    if (!at)
        at = strstr(pdn, "[White ");
    size_t head = at ? (size_t)(at - pdn) : 0;
    char tag[32];
    int n = snprintf(tag, sizeof tag, at && skip ? "[Round \"%d\"]" : "[Round \"%d\"]\n", round);
    char *out = malloc(strlen(pdn) + (size_t)n + 1);
    if (!out)
        return NULL;
    memcpy(out, pdn, head);
    memcpy(out + head, tag, (size_t)n);
    strcpy(out + head + (size_t)n, pdn + head + skip);
    return out;
}

/* The limits of the mover in m: the node budget, or its clock. */
static struct player_limits limits_of(const struct match_options *o, const dm_match *m)
{
    struct player_limits l = {.nodes = o->nodes};
    if (o->nodes || o->tc.kind == DM_CLOCK_NONE)
        return l;
    enum dm_color side = dm_match_turn(m);
    l.time_left_ms = dm_match_time_left(m, side);
    l.increment_ms = o->tc.increment_ms;
    if (o->tc.kind == DM_CLOCK_MOVES_IN_TIME && o->tc.moves > 0)
        l.moves_to_go = o->tc.moves - (dm_match_ply(m) / 2) % o->tc.moves;
    else if (o->tc.kind == DM_CLOCK_PER_MOVE)
        l.moves_to_go = 1;
    return l;
}

/* Plays game i with players[0] the first player; the result for it: 1 a
 * win, 0 a draw, -1 a loss; the PDN text in *pdn (malloc'ed); a note (why
 * a game was lost other than by the rules) in note. */
static int play_game(struct shared *sh, struct player players[2], int i, char **pdn, char *note,
                     size_t size)
{
    const struct match_options *o = sh->o;
    enum dm_color first = i % 2 ? DM_BLACK : DM_WHITE;
    dm_match_options mo = {.variant = o->variant, .rules = o->rules, .event = "Damier match",
                           .no_book = true};
    if (!o->nodes)
        mo.time = o->tc;
    for (int p = 0; p < 2; p++) {
        enum dm_color c = p == 0 ? first : (enum dm_color)!first;
        mo.seat[c].kind = DM_SEAT_REMOTE;
        snprintf(mo.seat[c].name, sizeof mo.seat[c].name, "%s", players[p].spec.name);
    }
    dm_error err;
    note[0] = '\0';
    *pdn = NULL;
    dm_match *m = dm_match_new(&mo, &err);
    if (!m) {
        snprintf(note, size, "%s", err.msg);
        return 0;
    }
    openings_play(m, sh->openings[(i / 2) % sh->nopenings].moves);
    for (int k = 0; k < 2; k++) {
        enum dm_color c = k == 0 ? first : (enum dm_color)!first;
        struct player_limits lim = limits_of(o, m);
        char why[200];
        if (player_new_game(&players[k], m, c, &lim, why, sizeof why) != 0) {
            snprintf(note, size, "%s loses: %s", players[k].spec.name, why);
            dm_match_resign(m, c, &err);
        }
    }
    while (!dm_match_over(m)) {
        if (dm_match_ply(m) >= o->max_plies) {
            dm_match_offer_draw(m, DM_WHITE, &err);
            dm_match_offer_draw(m, DM_BLACK, &err);
            snprintf(note, size, "adjudicated a draw after %d plies", o->max_plies);
            break;
        }
        enum dm_color side = dm_match_turn(m);
        struct player *mover = &players[side == first ? 0 : 1];
        struct player_limits lim = limits_of(o, m);
        dm_move mv;
        char why[200];
        if (player_move(mover, m, &lim, &mv, why, sizeof why) != 0 ||
            dm_match_play(m, side, &mv, &err) != 0) {
            if (!dm_match_over(m)) { /* not already lost on time */
                snprintf(note, size, "%s loses: %s", mover->spec.name, why);
                dm_match_resign(m, side, &err);
            }
            break;
        }
    }
    for (int k = 0; k < 2; k++)
        player_end_game(&players[k], m);
    *pdn = dm_match_write_pdn(m, &err);
    enum dm_result r = dm_match_result(m);
    int score = r == DM_RESULT_DRAW || r == DM_RESULT_NONE ? 0
                : (r == DM_RESULT_WHITE_WINS) == (first == DM_WHITE) ? 1 : -1;
    if (!note[0] && *dm_match_reason(m))
        snprintf(note, size, "%s", dm_match_reason(m));
    dm_match_free(m);
    return score;
}

/* ---- bookkeeping ----------------------------------------------------------------- */

/* Counts game i's score: in the tally, and in the pairs once the other
 * game of its opening is done too. */
static void count(struct shared *sh, int i, int score)
{
    struct match_tally *t = &sh->tally;
    if (score > 0)
        t->wins++;
    else if (score < 0)
        t->losses++;
    else
        t->draws++;
    sh->done[i] = 1;
    sh->score[i] = (signed char)score;
    int other = i ^ 1;
    if (sh->done[other])
        sh->pairs.n[score + sh->score[other] + 2]++;
}

/* The line that says where the match stands. */
static void standing(const struct shared *sh, char *buf, size_t size)
{
    const struct match_tally *t = &sh->tally;
    struct match_elo e = match_elo(t);
    int n = snprintf(buf, size, "%d-%d-%d (W-D-L), score %.1f%%, Elo %+.0f [%+.0f, %+.0f]",
                     t->wins, t->draws, t->losses, 100 * e.score, e.elo + 0.0, e.low + 0.0,
                     e.high + 0.0);
    if (sh->o->sprt && n > 0 && (size_t)n < size) {
        double lower, upper;
        match_sprt_bounds(&sh->o->sprt_params, &lower, &upper);
        snprintf(buf + n, size - (size_t)n, ", LLR %.2f [%.2f, %.2f]",
                 match_sprt_llr(t, &sh->o->sprt_params), lower, upper);
    }
}

/* The estimate from the colour-reversed pairs: each opening's bias
 * cancelled within its pair (stats.h). */
static void pairs_line(const struct shared *sh)
{
    const struct match_pairs *p = &sh->pairs;
    int n = p->n[0] + p->n[1] + p->n[2] + p->n[3] + p->n[4];
    if (n == 0)
        return;
    struct match_elo e = match_elo_pairs(p);
    fprintf(sh->o->out,
            "pairs: %d, by the first player's points 0-0.5-1-1.5-2: %d-%d-%d-%d-%d, score %.1f%%, "
            "Elo %+.0f [%+.0f, %+.0f]\n",
            n, p->n[0], p->n[1], p->n[2], p->n[3], p->n[4], 100 * e.score, e.elo + 0.0,
            e.low + 0.0, e.high + 0.0);
}

/* Records game i: the tally, the file, a progress line, the SPRT. */
static void record(struct shared *sh, int i, int score, const char *pdn, const char *note)
{
    pthread_mutex_lock(&sh->lock);
    sh->played++;
    count(sh, i, score);
    if (sh->pdn && pdn) {
        char *text = with_round(pdn, i + 1);
        fprintf(sh->pdn, "%s\n", text ? text : pdn);
        fflush(sh->pdn);
        free(text);
    }
    char line[256];
    standing(sh, line, sizeof line);
    fprintf(sh->o->out, "game %d (opening %d, %s White): %s%s%s | %s\n", i + 1,
            (i / 2) % sh->nopenings + 1, i % 2 ? sh->o->player[1].name : sh->o->player[0].name,
            score > 0 ? "win" : score < 0 ? "loss" : "draw", note[0] ? ", " : "", note, line);
    fflush(sh->o->out);
    if (sh->o->sprt && match_sprt_verdict(&sh->tally, &sh->o->sprt_params) != SPRT_CONTINUE)
        sh->stop = true;
    pthread_mutex_unlock(&sh->lock);
}

/* The next game nobody has played, or -1. */
static int take_game(struct shared *sh)
{
    pthread_mutex_lock(&sh->lock);
    int i = -1;
    while (!sh->stop && sh->next < sh->total) {
        int k = sh->next++;
        if (!sh->done[k]) {
            i = k;
            break;
        }
    }
    pthread_mutex_unlock(&sh->lock);
    return i;
}

static void *worker(void *arg)
{
    struct shared *sh = arg;
    struct player players[2];
    char why[300];
    for (int p = 0; p < 2; p++) {
        if (player_start(&players[p], &sh->o->player[p], sh->o->variant, why, sizeof why) != 0) {
            pthread_mutex_lock(&sh->lock);
            fprintf(sh->o->out, "match: %s\n", why);
            sh->stop = true;
            sh->failed = 1;
            pthread_mutex_unlock(&sh->lock);
            if (p == 1)
                player_stop(&players[0]);
            return NULL;
        }
    }
    for (int i; (i = take_game(sh)) >= 0;) {
        char *pdn, note[300];
        int score = play_game(sh, players, i, &pdn, note, sizeof note);
        record(sh, i, score, pdn, note);
        free(pdn);
    }
    player_stop(&players[0]);
    player_stop(&players[1]);
    return NULL;
}

/* Reads the games of an earlier run of this match from the PDN file: each
 * counted, by its Round tag, as done. */
static int resume(struct shared *sh, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return errno == ENOENT ? 0 : -1;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t)size + 1);
    if (!data || fread(data, 1, (size_t)size, f) != (size_t)size) {
        free(data);
        fclose(f);
        return -1;
    }
    fclose(f);
    dm_pdn_options po = {.variant = sh->o->variant};
    dm_pdn_reader *r = dm_pdn_reader_new(data, (size_t)size, &po);
    dm_pdn_game g = {0};
    dm_error err;
    int resumed = 0;
    while (r && dm_pdn_read(r, &g, &err) != 0) {
        const char *round = dm_pdn_game_tag(&g, "Round"), *white = dm_pdn_game_tag(&g, "White");
        int i = round ? atoi(round) - 1 : -1;
        if (i < 0 || i >= sh->total || sh->done[i] || !white)
            continue;
        bool first_white = strcmp(white, sh->o->player[0].name) == 0;
        int score = g.result == DM_PDN_DRAW || g.result == DM_PDN_UNFINISHED ? 0
                    : (g.result == DM_PDN_WHITE_WINS) == first_white ? 1 : -1;
        count(sh, i, score);
        resumed++;
    }
    dm_pdn_game_free(&g);
    dm_pdn_reader_free(r);
    free(data);
    return resumed;
}

int match_run(const struct match_options *o)
{
    struct shared sh = {.o = o};
    char why[300];
    sh.nopenings = openings_read(o->openings, o->variant, &sh.openings, why, sizeof why);
    if (sh.nopenings < 0) {
        fprintf(o->out, "match: %s\n", why);
        return 1;
    }
    sh.total = (o->games + 1) / 2 * 2;
    /* Engines on a node budget play the same game from the same opening
     * and colours, so repeats add no information but shrink the error bar. */
    if (o->nodes && sh.total > 2 * sh.nopenings)
        fprintf(o->out,
                "match: note: %d games from %d openings: past game %d they repeat, and on a "
                "node budget repeat the same games (the error bar counts them as new)\n",
                sh.total, sh.nopenings, 2 * sh.nopenings);
    sh.done = calloc((size_t)sh.total, 1);
    sh.score = calloc((size_t)sh.total, 1);
    if (!sh.done || !sh.score) {
        fprintf(o->out, "match: out of memory\n");
        free(sh.done);
        free(sh.score);
        free(sh.openings);
        return 1;
    }
    pthread_mutex_init(&sh.lock, NULL);
    int resumed = o->pdn ? resume(&sh, o->pdn) : 0;
    if (resumed < 0) {
        fprintf(o->out, "match: cannot read %s: %s\n", o->pdn, strerror(errno));
        free(sh.done);
        free(sh.score);
        free(sh.openings);
        return 1;
    }
    if (resumed > 0) {
        char line[256];
        standing(&sh, line, sizeof line);
        fprintf(o->out, "resumed %d games from %s: %s\n", resumed, o->pdn, line);
    }
    if (o->pdn && !(sh.pdn = fopen(o->pdn, "a"))) {
        fprintf(o->out, "match: cannot write %s: %s\n", o->pdn, strerror(errno));
        free(sh.done);
        free(sh.score);
        free(sh.openings);
        return 1;
    }
    if (o->sprt && match_sprt_verdict(&sh.tally, &o->sprt_params) != SPRT_CONTINUE)
        sh.stop = true;
    int workers = o->concurrency < 1 ? 1 : o->concurrency > MATCH_MAX_WORKERS ? MATCH_MAX_WORKERS
                                                                            : o->concurrency;
    pthread_t threads[MATCH_MAX_WORKERS];
    int started = 0;
    for (int w = 0; w < workers; w++)
        started += pthread_create(&threads[started], NULL, worker, &sh) == 0;
    for (int w = 0; w < started; w++)
        pthread_join(threads[w], NULL);
    char line[256];
    standing(&sh, line, sizeof line);
    fprintf(o->out, "result: %s vs %s: %s\n", o->player[0].name, o->player[1].name, line);
    pairs_line(&sh);
    if (o->sprt) {
        enum sprt_verdict v = match_sprt_verdict(&sh.tally, &o->sprt_params);
        fprintf(o->out, "sprt: %s (elo0 %g, elo1 %g, alpha %g, beta %g)\n",
                v == SPRT_H1   ? "H1 accepted: the first player is stronger by elo1"
                : v == SPRT_H0 ? "H0 accepted: not stronger by elo1"
                               : "no decision yet",
                o->sprt_params.elo0, o->sprt_params.elo1, o->sprt_params.alpha,
                o->sprt_params.beta);
    }
    fflush(o->out);
    if (sh.pdn)
        fclose(sh.pdn);
    pthread_mutex_destroy(&sh.lock);
    free(sh.done);
    free(sh.score);
    free(sh.openings);
    return sh.failed;
}
