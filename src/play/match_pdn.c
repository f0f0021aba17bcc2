/* SPDX-License-Identifier: MIT */
/*
 * match_pdn.c - a whole match as PDN 3.0 and back, through the PDN module
 * (src/notation): the tags of the match, its moves with the clock after
 * each, and how it ended.
 *
 * The PDN writer owns the seven-tag roster, Result and GameType; this file
 * adds what only a match knows: the seats' names, Rules, TimeControl,
 * Termination, and a {[%clock H:MM:SS.t]} comment after each move of a
 * timed match (the mover's time left).  TimeControl takes the PGN form the
 * draughts servers write, in seconds ("300+3", "40/5400", "300"; time per
 * move, which PGN has no form for, as "10/move"); the reader also takes
 * lidraughts' clock comments, which give both sides' times
 * ("[%clock w0:05:00 B0:04:58]").  Reading replays the moves through a new
 * match, so every counter and the clock's move count are those of the
 * moves.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "play/play.h"

/* ---- writing ------------------------------------------------------------ */

/* The Termination tag for the way the match ended. */
static const char *termination(const dm_match *m)
{
    if (!dm_game_over(m->game))
        return m->declared != DM_RESULT_NONE ? NULL : "unterminated";
    switch (dm_game_end(m->game)) {
    case DM_END_RESIGNATION:
        return "resignation";
    case DM_END_AGREEMENT:
        return "agreement";
    case DM_END_TIME:
        return "time forfeit";
    default:
        return "normal";
    }
}

/* Seconds without a needless ".0". */
static void put_seconds(char *buf, size_t size, int64_t ms)
{
    if (ms % 1000 == 0)
        snprintf(buf, size, "%" PRId64, ms / 1000);
    else
        snprintf(buf, size, "%g", (double)ms / 1000.0);
}

/* tc in PGN's TimeControl form (seconds); kind DM_CLOCK_NONE: "-". */
static void time_control_text(const dm_time_control *tc, char *buf, size_t size)
{
    char base[32], inc[32];
    put_seconds(base, sizeof base, tc->base_ms);
    put_seconds(inc, sizeof inc, tc->increment_ms);
    switch (tc->kind) {
    case DM_CLOCK_NONE:
        snprintf(buf, size, "-");
        break;
    case DM_CLOCK_SUDDEN_DEATH:
        snprintf(buf, size, "%s", base);
        break;
    case DM_CLOCK_FISCHER:
        snprintf(buf, size, "%s+%s", base, inc);
        break;
    case DM_CLOCK_MOVES_IN_TIME:
        snprintf(buf, size, "%d/%s%s%s", tc->moves, base, tc->increment_ms ? "+" : "",
                 tc->increment_ms ? inc : "");
        break;
    case DM_CLOCK_PER_MOVE:
        snprintf(buf, size, "%s/move", base);
        break;
    }
}

/* Reads a TimeControl tag: PGN's forms of one period ("-", "300",
 * "300+3", "40/5400", "40/5400+30") and "10/move".  Returns false for what
 * a match cannot keep (several periods "40/5400:3600", hourglass "*60",
 * "?"). */
static bool time_control_read(const char *text, dm_time_control *tc)
{
    dm_error ignored;
    if (strcmp(text, "-") == 0)
        return dm_time_control_parse("none", tc, &ignored) == 0;
    const char *move = strstr(text, "/move");
    if (move && move[5] == '\0')
        return dm_time_control_parse(text, tc, &ignored) == 0;
    /* The rest in dm_time_control_parse's form, which counts minutes. */
    char *end;
    long moves = 0;
    const char *p = text;
    if (strchr(text, '/')) {
        moves = strtol(text, &end, 10);
        if (end == text || *end != '/' || moves < 1)
            return false;
        p = end + 1;
    }
    if (*p < '0' || *p > '9')
        return false;
    double seconds = strtod(p, &end), inc = 0;
    if (*end == '+') {
        const char *q = end + 1;
        if (*q < '0' || *q > '9')
            return false;
        inc = strtod(q, &end);
    }
    if (*end != '\0')
        return false;
    char spec[96];
    if (moves > 0)
        snprintf(spec, sizeof spec, "%.10g/%ld+%.10g", seconds / 60, moves, inc);
    else
        snprintf(spec, sizeof spec, "%.10g+%.10g", seconds / 60, inc);
    return dm_time_control_parse(spec, tc, &ignored) == 0;
}

static void clock_comment(int64_t ms, char *buf, size_t size)
{
    int64_t s = ms / 1000;
    snprintf(buf, size, "[%%clock %" PRId64 ":%02" PRId64 ":%02" PRId64 ".%" PRId64 "]", s / 3600,
             s / 60 % 60, s % 60, ms % 1000 / 100);
}

char *dm_match_write_pdn(const dm_match *m, dm_error *err)
{
    const dm_game *g = m->game;
    dm_pdn_game pg;
    dm_pdn_game_init(&pg, dm_game_variant(g), dm_game_position(g, 0));
    int rc = dm_pdn_game_set_tag(&pg, "Event", m->event) |
             dm_pdn_game_set_tag(&pg, "Site", m->site) | dm_pdn_game_set_tag(&pg, "Date", m->date) |
             dm_pdn_game_set_tag(&pg, "White", m->seat[DM_WHITE].name) |
             dm_pdn_game_set_tag(&pg, "Black", m->seat[DM_BLACK].name);
    if (dm_game_rules(g) == DM_RULES_OFFICIAL)
        rc |= dm_pdn_game_set_tag(&pg, "Rules", "official");
    if (m->timed) {
        char tc[64];
        time_control_text(&m->clock.tc, tc, sizeof tc);
        rc |= dm_pdn_game_set_tag(&pg, "TimeControl", tc);
    }
    const char *how = termination(m);
    if (how)
        rc |= dm_pdn_game_set_tag(&pg, "Termination", how);
    if (rc) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        dm_pdn_game_free(&pg);
        return NULL;
    }
    for (int i = 1; i <= dm_game_ply(g); i++) {
        char comment[48] = "";
        int64_t left = dm_match_clock_after(m, i);
        if (left >= 0)
            clock_comment(left, comment, sizeof comment);
        if (dm_pdn_game_add_move(&pg, dm_game_move(g, i), comment[0] ? comment : NULL, err) != 0) {
            dm_pdn_game_free(&pg);
            return NULL;
        }
    }
    pg.result = play_pdn_result(dm_match_result(m));
    char *text = dm_pdn_write(&pg, err);
    dm_pdn_game_free(&pg);
    return text;
}

/* ---- reading ------------------------------------------------------------ */

/* The time H:MM:SS(.t) at p, or -1. */
static int64_t clock_time(const char *p)
{
    unsigned h, mi, sec, tenths = 0;
    int n = 0;
    if (sscanf(p, "%u:%2u:%2u%n", &h, &mi, &sec, &n) != 3 || mi > 59 || sec > 59 || h > 10000)
        return -1;
    if (p[n] == '.' && p[n + 1] >= '0' && p[n + 1] <= '9')
        tenths = (unsigned)(p[n + 1] - '0');
    return ((int64_t)h * 3600 + mi * 60 + sec) * 1000 + tenths * 100;
}

/* The times a move's comment gives into left[]: ours, "[%clock H:MM:SS.t]"
 * for the mover, or lidraughts' "[%clock w0:05:00 B0:04:58]" for both. */
static void clock_read(const char *comment, enum dm_color mover, int64_t left[2])
{
    const char *p = comment ? strstr(comment, "[%clock ") : NULL;
    if (!p)
        return;
    p += 8;
    if (*p >= '0' && *p <= '9') {
        int64_t t = clock_time(p);
        if (t >= 0)
            left[mover] = t;
        return;
    }
    while (*p && *p != ']') {
        int side = *p == 'w' || *p == 'W' ? DM_WHITE : *p == 'b' || *p == 'B' ? DM_BLACK : -1;
        int64_t t = side >= 0 ? clock_time(p + 1) : -1;
        if (t >= 0)
            left[side] = t;
        while (*p && *p != ' ' && *p != ']')
            p++;
        while (*p == ' ')
            p++;
    }
}

/* Ends the replayed match (its clock stopped) the way the file says, where
 * the moves did not. */
static void restore_result(dm_match *m, const dm_pdn_game *pg)
{
    if (dm_game_over(m->game) || pg->result == DM_PDN_UNFINISHED)
        return;
    const char *how = dm_pdn_game_tag(pg, "Termination");
    enum dm_color loser = pg->result == DM_PDN_WHITE_WINS ? DM_BLACK : DM_WHITE;
    bool decisive = pg->result == DM_PDN_WHITE_WINS || pg->result == DM_PDN_BLACK_WINS;
    if (how && decisive && strcmp(how, "resignation") == 0) {
        dm_game_resign(m->game, loser);
    } else if (how && decisive && strcmp(how, "time forfeit") == 0) {
        dm_game_time_forfeit(m->game, loser);
        m->clock.left_ms[loser] = 0;
        m->clock.flagged = loser;
    } else if (how && pg->result == DM_PDN_DRAW && strcmp(how, "agreement") == 0) {
        dm_game_offer_draw(m->game, DM_WHITE);
        dm_game_accept_draw(m->game, DM_BLACK);
    } else {
        m->declared = pg->result == DM_PDN_WHITE_WINS   ? DM_RESULT_WHITE_WINS
                      : pg->result == DM_PDN_BLACK_WINS ? DM_RESULT_BLACK_WINS
                      : pg->result == DM_PDN_DRAW       ? DM_RESULT_DRAW
                                                        : DM_RESULT_NONE;
        if (m->declared == DM_RESULT_NONE) /* "0-0": both forfeit; no such result here */
            return;
        snprintf(m->declared_reason, sizeof m->declared_reason, "the result given by the file");
    }
}

/* A new match of pg's game under o, with its tags. */
static dm_match *match_of(const dm_pdn_game *pg, const dm_match_options *o, dm_error *err)
{
    dm_match_options mo = *o;
    mo.variant = pg->variant;
    const char *tag = dm_pdn_game_tag(pg, "Rules");
    if (tag && dm_rules_parse(tag, &mo.rules) != 0) {
        snprintf(err->msg, sizeof err->msg, "Rules tag '%.40s': default or official", tag);
        return NULL;
    }
    /* A TimeControl a match cannot keep ("40/7200:3600") is no error in
     * the file: the match then keeps o's time control. */
    tag = dm_pdn_game_tag(pg, "TimeControl");
    dm_time_control tc;
    if (tag && time_control_read(tag, &tc))
        mo.time = tc;
    static const char *const names[2] = {"White", "Black"};
    for (int c = 0; c < 2; c++) {
        tag = dm_pdn_game_tag(pg, names[c]);
        if (tag && tag[0] && strcmp(tag, "?") != 0)
            snprintf(mo.seat[c].name, sizeof mo.seat[c].name, "%s", tag);
    }
    mo.event = dm_pdn_game_tag(pg, "Event");
    mo.site = dm_pdn_game_tag(pg, "Site");
    mo.date = dm_pdn_game_tag(pg, "Date");
    char fen[512];
    dm_fen_format(pg->variant, &pg->start, fen, sizeof fen);
    mo.fen = fen;
    return dm_match_new(&mo, err);
}

dm_match *dm_match_read_pdn(const char *text, size_t len, const dm_match_options *o, dm_error *err)
{
    dm_pdn_options opt = {.variant = o->variant, .guess_variant = false};
    dm_pdn_reader *r = dm_pdn_reader_new(text, len, &opt);
    if (!r) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    dm_pdn_game pg;
    memset(&pg, 0, sizeof pg);
    int got = dm_pdn_read(r, &pg, err);
    dm_pdn_reader_free(r);
    dm_match *m = NULL;
    if (got == 0)
        snprintf(err->msg, sizeof err->msg, "no game in the PDN text");
    if (got == 1)
        m = match_of(&pg, o, err);
    int64_t left[2] = {-1, -1};
    for (int i = 0; m && i < pg.nmoves; i++) {
        enum dm_color mover = dm_match_turn(m);
        if (dm_match_play(m, mover, &pg.moves[i].move, err) != 0) {
            char why[sizeof err->msg];
            snprintf(why, sizeof why, "move %d (%s): %s", i + 1, pg.moves[i].text, err->msg);
            snprintf(err->msg, sizeof err->msg, "%s", why);
            dm_match_free(m);
            m = NULL;
            break;
        }
        if (m->timed) {
            int64_t before = left[mover];
            left[mover] = -1;
            clock_read(pg.moves[i].comment, mover, left);
            if (left[mover] >= 0)
                m->clock_after[dm_game_ply(m->game)] = left[mover];
            else {
                left[mover] = before;
                m->clock_after[dm_game_ply(m->game)] = -1; /* not the replay's own time */
            }
        }
    }
    if (m) {
        /* The times the file gives, not those of the replay's own clock. */
        dm_clock_stop(&m->clock);
        for (int c = 0; c < 2; c++)
            if (left[c] >= 0)
                m->clock.left_ms[c] = left[c];
        restore_result(m, &pg);
        play_restart_clock(m);
        /* A fresh record: what the replay did is not news to anyone. */
        m->seq = 0;
    }
    dm_pdn_game_free(&pg);
    return m;
}
