/* SPDX-License-Identifier: MIT */
/*
 * openings.c - the opening sets a match starts its games from.
 *
 * A set is a text file of one opening a line: moves from the variant's
 * start in its notation, blank-separated, optionally after a number (the
 * ACF numbers of English checkers' 3-move ballots); '#' starts a comment.
 * English checkers uses the ACF's deck; for every other variant Damier
 * generates a set (`damier openings`): random walks from the start, kept
 * when a short search finds them balanced.
 *
 * The search misjudges a start that one side wins in the long run (One
 * Way checkers', where both sides' men run towards rank 8): a walk it
 * finds within a quarter of a man may still be a White win nearly every
 * time.  So a walk may also have to pass a test of games: played out a few
 * times by the engine against itself, at some thousands of nodes a move
 * with a little randomness in the first moves, White must score within a
 * band.  A game costs as much as dozens of the first filter's searches,
 * which is why it comes second.
 */
#include "match/match.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Plays the moves of text from the start of v; 0, or -1 with err naming
 * the move. */
static int play_opening(const dm_variant *v, const char *text, dm_position *pos, dm_error *err)
{
    static _Thread_local dm_move_list legal;
    dm_position_start(v, pos);
    char move[64];
    int n = 0;
    for (const char *p = text; *p;) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        if (len == 0)
            break;
        if (len >= sizeof move) {
            snprintf(err->msg, sizeof err->msg, "move %d is too long", n + 1);
            return -1;
        }
        memcpy(move, p, len);
        move[len] = '\0';
        p += len;
        dm_generate(v, pos, &legal, 0);
        int at = dm_move_parse(v, &legal, move, err);
        if (at < 0)
            return -1;
        dm_make_move(v, pos, &legal.moves[at]);
        n++;
    }
    return 0;
}

void openings_play(dm_match *m, const char *moves)
{
    char move[64];
    dm_error err;
    for (const char *p = moves; *p;) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        if (!len)
            break;
        snprintf(move, sizeof move, "%.*s", (int)len, p);
        p += len;
        dm_match_play_text(m, dm_match_turn(m), move, &err);
    }
}

int openings_read(const char *path, const dm_variant *v, struct opening **out, char *why,
                  size_t size)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, size, "%s: %s", path, strerror(errno));
        return -1;
    }
    struct opening *list = NULL;
    int n = 0, cap = 0, lineno = 0;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "#\r\n")] = '\0';
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        /* A leading number with no separator is the opening's number. */
        char *q = p;
        while (isdigit((unsigned char)*q))
            q++;
        if (q > p && *q == ' ')
            p = q + 1;
        size_t len = strlen(p);
        while (len && isspace((unsigned char)p[len - 1]))
            p[--len] = '\0';
        if (len == 0)
            continue;
        dm_position pos;
        dm_error err;
        if (len >= sizeof list->moves || play_opening(v, p, &pos, &err) != 0) {
            snprintf(why, size, "%s:%d: %s", path, lineno, len >= sizeof list->moves ? "too long" : err.msg);
            free(list);
            fclose(f);
            return -1;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            struct opening *grown = realloc(list, (size_t)cap * sizeof *list);
            if (!grown) {
                snprintf(why, size, "%s: out of memory", path);
                free(list);
                fclose(f);
                return -1;
            }
            list = grown;
        }
        memcpy(list[n++].moves, p, len + 1);
    }
    fclose(f);
    if (n == 0) {
        snprintf(why, size, "%s: no opening in it", path);
        free(list);
        return -1;
    }
    *out = list;
    return n;
}

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

#define BALANCE_NODES 20000 /* a short search: a tenth of a second at most  */
#define BALANCE_MARGIN 25   /* hundredths of a man                         */
#define GENERATE_TRIES 50   /* walks made for each opening wanted, at most */

/* The games that test a walk.  Fixed nodes make each game a function of
 * its seed, and the seed varies the first moves: the engine chooses at
 * random among the moves within VARIETY_MARGIN of its best for the first
 * VARIETY_PLIES plies after the opening (never passing a shot over), then
 * plays its best.  A game this long is a draw. */
#define VARIETY_MARGIN   10  /* hundredths of a man                        */
#define VARIETY_PLIES    10
#define RESULT_MAX_PLIES 400

/* The result of one game from the opening text, the engine e playing both
 * sides at o->game_nodes a move, its first choices from seed: through the
 * play layer, so that the variant's end and draw rules decide it as they
 * do in damier match.  A game that cannot go on (out of memory) is a draw. */
static enum dm_result play_out(dm_engine *e, const struct openings_options *o, const char *text,
                               uint64_t seed)
{
    dm_match_options mo = {.variant = o->variant, .no_book = true};
    mo.seat[DM_WHITE].kind = mo.seat[DM_BLACK].kind = DM_SEAT_REMOTE;
    dm_error err;
    dm_match *m = dm_match_new(&mo, &err);
    if (!m)
        return DM_RESULT_DRAW;
    openings_play(m, text);
    int start = dm_match_ply(m);
    dm_engine_new_game(e);
    while (!dm_match_over(m) && dm_match_ply(m) - start < RESULT_MAX_PLIES) {
        dm_snapshot s;
        if (dm_match_snapshot(m, DM_LEVEL_MAX, &s, &err) != 0)
            break;
        /* The contempt of damier match on a node budget, so that the games
         * are played for a win as the levels play them. */
        dm_search_limits lim = {.nodes = o->game_nodes,
                                .contempt = dm_level_contempt(DM_LEVEL_MAX)};
        if (dm_match_ply(m) - start < VARIETY_PLIES) {
            lim.random_margin = VARIETY_MARGIN;
            lim.seed = next_random(&seed);
        }
        dm_search_result r;
        int rc = dm_engine_search(e, s.variant, &s.positions[s.ply], s.positions, s.ply, &lim, &r);
        dm_snapshot_free(&s);
        if (rc != 0 || dm_match_play(m, dm_match_turn(m), &r.best, &err) != 0)
            break;
    }
    enum dm_result result = dm_match_over(m) ? dm_match_result(m) : DM_RESULT_DRAW;
    dm_match_free(m);
    return result;
}

/* Whether White's score in o->results games from text lies in the band;
 * the games are counted in w (White's wins, draws, losses).  Stops as soon
 * as the band is out of reach: most walks of a lopsided variant are lost
 * for one side, and their games need not all be played. */
static bool results_balanced(dm_engine *e, const struct openings_options *o, const char *text,
                             uint64_t *rng, int w[3])
{
    int n = o->results, points = 0; /* White's, 2 a win */
    w[0] = w[1] = w[2] = 0;
    for (int g = 0; g < n; g++) {
        enum dm_result r = play_out(e, o, text, next_random(rng));
        int k = r == DM_RESULT_WHITE_WINS ? 0 : r == DM_RESULT_BLACK_WINS ? 2 : 1;
        w[k]++;
        points += 2 - k;
        int best = points + 2 * (n - g - 1);
        if (100 * points > o->band_high * 2 * n || 100 * best < o->band_low * 2 * n)
            return false;
    }
    return true;
}

int openings_generate(FILE *f, const struct openings_options *o, struct openings_report *r)
{
    const dm_variant *v = o->variant;
    int count = o->count;
    memset(r, 0, sizeof *r);
    r->max_walks = count * (o->tries > 0 ? o->tries : GENERATE_TRIES);
    dm_engine *e = dm_engine_new(4);
    dm_position *kept = calloc((size_t)count, sizeof *kept);
    static dm_move_list legal;
    if (!e || !kept) {
        dm_engine_free(e);
        free(kept);
        return 0;
    }
    uint64_t rng = o->seed ? o->seed : 1;
    /* The games draw from a generator of their own, so that the walks are
     * the same with and without them. */
    uint64_t games_rng = rng * 0x9E3779B97F4A7C15u | 1;
    int n = 0;
    for (; n < count && r->walks < r->max_walks; r->walks++) {
        dm_position pos;
        dm_position_start(v, &pos);
        char text[256] = "";
        size_t len = 0;
        bool ok = true;
        for (int ply = 0; ply < o->plies && ok; ply++) {
            if (dm_generate(v, &pos, &legal, 0) <= 0) {
                ok = false;
                break;
            }
            const dm_move *m = &legal.moves[next_random(&rng) % (uint64_t)legal.count];
            char mt[DM_PDN_MOVE_TEXT];
            dm_move_format(v, m, &legal, mt, sizeof mt);
            if (len + strlen(mt) + 2 >= sizeof text) {
                ok = false;
                break;
            }
            len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", ply ? " " : "", mt);
            dm_make_move(v, &pos, m);
        }
        if (!ok || dm_position_outcome(v, &pos) != DM_ONGOING)
            continue;
        bool seen = false;
        for (int i = 0; i < n && !seen; i++)
            seen = dm_position_equal(&kept[i], &pos);
        if (seen)
            continue;
        dm_search_limits lim = {.nodes = BALANCE_NODES};
        dm_search_result sr;
        dm_engine_new_game(e);
        if (dm_engine_search(e, v, &pos, NULL, 0, &lim, &sr) != 0 || abs(sr.score) > BALANCE_MARGIN)
            continue;
        r->balanced++;
        if (o->results > 0) {
            int w[3];
            bool in = results_balanced(e, o, text, &games_rng, w);
            r->played++;
            if (o->log) {
                int games = w[0] + w[1] + w[2];
                fprintf(o->log,
                        "openings: walk %d, %s: White %d-%d-%d (W-D-L) in %d games, %s "
                        "(%d of %d)\n",
                        r->walks + 1, text, w[0], w[1], w[2], games,
                        in ? "kept" : "out of the band", n + in, count);
                fflush(o->log);
            }
            if (!in)
                continue;
            r->white_wins += w[0];
            r->draws += w[1];
            r->black_wins += w[2];
        }
        kept[n++] = pos;
        fprintf(f, "%s\n", text);
        fflush(f);
    }
    r->kept = n;
    dm_engine_free(e);
    free(kept);
    return n;
}
