/* SPDX-License-Identifier: MIT */
/*
 * files.c - saving and loading a game in terminal play, as PDN 3.0 through
 * the PDN module (damier.h, PDN section).
 *
 * A saved game records its preset in a [Rules "official"] tag (absent for
 * `default`; the presets of docs/variants.md) and its players as White and Black.  Loading
 * replays the first game of the file through the game record, so the draw
 * counters and repetition history are those of the moves, not of a bare
 * position.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tui/tui.h"

#define PDN_MAX_BYTES (16 << 20) /* a larger file is surely not a saved game */

static enum dm_pdn_result pdn_result_of(const dm_game *g)
{
    switch (dm_game_result(g)) {
    case DM_RESULT_WHITE_WINS:
        return DM_PDN_WHITE_WINS;
    case DM_RESULT_BLACK_WINS:
        return DM_PDN_BLACK_WINS;
    case DM_RESULT_DRAW:
        return DM_PDN_DRAW;
    default:
        return DM_PDN_UNFINISHED;
    }
}

int tui_save_pdn(const dm_game *g, const char *path, const char *white, const char *black,
                 dm_error *err)
{
    dm_pdn_game pg;
    const dm_variant *v = dm_game_variant(g);
    dm_pdn_game_init(&pg, v, dm_game_position(g, 0));
    char date[16] = "????.??.??";
    time_t now = time(NULL);
    struct tm tm;
    if (localtime_r(&now, &tm))
        strftime(date, sizeof date, "%Y.%m.%d", &tm);
    int rc = dm_pdn_game_set_tag(&pg, "Event", "Damier game") |
             dm_pdn_game_set_tag(&pg, "Date", date) | dm_pdn_game_set_tag(&pg, "White", white) |
             dm_pdn_game_set_tag(&pg, "Black", black);
    if (dm_game_rules(g) == DM_RULES_OFFICIAL)
        rc |= dm_pdn_game_set_tag(&pg, "Rules", "official");
    if (dm_game_over(g))
        rc |= dm_pdn_game_set_tag(&pg, "Termination", dm_game_reason(g));
    if (rc) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        dm_pdn_game_free(&pg);
        return -1;
    }
    for (int i = 1; i <= dm_game_ply(g); i++)
        if (dm_pdn_game_add_move(&pg, dm_game_move(g, i), NULL, err) != 0) {
            dm_pdn_game_free(&pg);
            return -1;
        }
    pg.result = pdn_result_of(g);
    char *text = dm_pdn_write(&pg, err);
    dm_pdn_game_free(&pg);
    if (!text)
        return -1;
    FILE *f = fopen(path, "w");
    bool ok = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        snprintf(err->msg, sizeof err->msg, "cannot write %s: %s", path, strerror(errno));
    free(text);
    return ok ? 0 : -1;
}

/* The whole file at path, malloc'ed, or NULL with err filled. */
static char *read_file(const char *path, size_t *size, dm_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *data = malloc(cap);
    while (data) {
        size_t n = fread(data + len, 1, cap - len, f);
        len += n;
        if (len < cap)
            break;
        if (cap >= PDN_MAX_BYTES) {
            snprintf(err->msg, sizeof err->msg, "%s is larger than %d MB", path,
                     PDN_MAX_BYTES >> 20);
            free(data);
            fclose(f);
            return NULL;
        }
        char *more = realloc(data, cap * 2);
        if (!more)
            free(data);
        data = more;
        cap *= 2;
    }
    bool failed = !data || ferror(f);
    fclose(f);
    if (failed) {
        snprintf(err->msg, sizeof err->msg, "cannot read %s", path);
        free(data);
        return NULL;
    }
    *size = len;
    return data;
}

dm_game *tui_load_pdn(const char *path, const dm_variant *fallback, enum dm_rules rules,
                      enum dm_pdn_result *result, dm_error *err)
{
    size_t size;
    char *data = read_file(path, &size, err);
    if (!data)
        return NULL;
    dm_pdn_options opt = {.variant = fallback, .guess_variant = false};
    dm_pdn_reader *r = dm_pdn_reader_new(data, size, &opt);
    free(data);
    if (!r) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    dm_pdn_game pg;
    memset(&pg, 0, sizeof pg);
    int got = dm_pdn_read(r, &pg, err);
    dm_pdn_reader_free(r);
    dm_game *g = NULL;
    if (got == 0)
        snprintf(err->msg, sizeof err->msg, "%s holds no game", path);
    if (got == 1) {
        *result = pg.result;
        const char *tag = dm_pdn_game_tag(&pg, "Rules");
        if (tag)
            dm_rules_parse(tag, &rules);
        char fen[512];
        dm_fen_format(pg.variant, &pg.start, fen, sizeof fen);
        g = dm_game_new(pg.variant, rules, fen, err);
        for (int i = 0; g && i < pg.nmoves; i++)
            if (dm_game_play(g, &pg.moves[i].move, err) != 0) {
                char why[sizeof err->msg];
                snprintf(why, sizeof why, "%s, move %d (%s): %s", path, i + 1, pg.moves[i].text,
                         err->msg);
                snprintf(err->msg, sizeof err->msg, "%s", why);
                dm_game_free(g);
                g = NULL;
            }
    }
    dm_pdn_game_free(&pg);
    return g;
}
