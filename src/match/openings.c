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
#define GENERATE_TRIES 50   /* walks tried for each opening kept, at most  */

int openings_generate(FILE *f, const dm_variant *v, int count, int plies, uint64_t seed)
{
    dm_engine *e = dm_engine_new(4);
    dm_position *kept = calloc((size_t)count, sizeof *kept);
    static dm_move_list legal;
    if (!e || !kept) {
        dm_engine_free(e);
        free(kept);
        return 0;
    }
    uint64_t rng = seed ? seed : 1;
    int n = 0;
    for (int tries = 0; n < count && tries < count * GENERATE_TRIES; tries++) {
        dm_position pos;
        dm_position_start(v, &pos);
        char text[256] = "";
        size_t len = 0;
        bool ok = true;
        for (int ply = 0; ply < plies && ok; ply++) {
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
        dm_search_result r;
        dm_engine_new_game(e);
        if (dm_engine_search(e, v, &pos, NULL, 0, &lim, &r) != 0 || abs(r.score) > BALANCE_MARGIN)
            continue;
        kept[n++] = pos;
        fprintf(f, "%s\n", text);
    }
    dm_engine_free(e);
    free(kept);
    return n;
}
