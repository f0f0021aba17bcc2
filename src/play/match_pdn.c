/* SPDX-License-Identifier: MIT */
/*
 * match_pdn.c - a whole match as PDN 3.0 and back, through the PDN module
 * (src/notation): the tags of the match, its moves with the clock after
 * each, and how it ended.
 *
 * The PDN writer owns the seven-tag roster, Result and GameType; this file
 * adds what only a match knows: the seats' names, Rules, TimeControl in
 * the form dm_time_control_parse reads, Termination, and a {[%clock ...]}
 * comment after each move of a timed match (the mover's time left, as
 * H:MM:SS.t).  Reading replays the moves through a new match, so every
 * counter and the clock's move count are those of the moves.
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
        dm_time_control_format(&m->clock.tc, tc, sizeof tc);
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

/* The time in a "[%clock H:MM:SS.t]" comment, or -1. */
static int64_t clock_of(const char *comment)
{
    const char *p = comment ? strstr(comment, "[%clock ") : NULL;
    if (!p)
        return -1;
    unsigned h, mi, s, tenths = 0;
    int n = 0;
    if (sscanf(p + 8, "%u:%2u:%2u%n", &h, &mi, &s, &n) != 3 || mi > 59 || s > 59 || h > 10000)
        return -1;
    if (p[8 + n] == '.' && p[9 + n] >= '0' && p[9 + n] <= '9')
        tenths = (unsigned)(p[9 + n] - '0');
    return ((int64_t)h * 3600 + mi * 60 + s) * 1000 + tenths * 100;
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
    /* Another program's TimeControl form ("40/7200:3600") is no error in
     * the file: the match then keeps o's time control. */
    tag = dm_pdn_game_tag(pg, "TimeControl");
    dm_time_control tc;
    dm_error ignored;
    if (tag && dm_time_control_parse(tag, &tc, &ignored) == 0)
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
        int64_t t = clock_of(pg.moves[i].comment);
        if (t >= 0 && m->timed) {
            left[mover] = t;
            m->clock_after[dm_game_ply(m->game)] = t;
        }
    }
    if (m) {
        /* The times the file gives, not those of the replay's own clock. */
        dm_clock_stop(&m->clock);
        for (int c = 0; c < 2; c++)
            if (left[c] >= 0)
                m->clock.left_ms[c] = left[c];
        restore_result(m, &pg);
        if (m->timed && !dm_match_over(m))
            dm_clock_start(&m->clock, dm_match_turn(m));
        /* A fresh record: what the replay did is not news to anyone. */
        m->seq = 0;
    }
    dm_pdn_game_free(&pg);
    return m;
}
