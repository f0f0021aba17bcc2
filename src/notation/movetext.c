/* SPDX-License-Identifier: MIT */
/*
 * movetext.c - moves as players write them (PDN 3.0; FMJD rules 8.2).
 *
 * Out: from-to for a quiet move, from x to for a capture (the variant's
 * separators), and the whole route of landing squares when another legal
 * move shares from and to.  In: any separator, from and to alone when that
 * names one legal move, or a route giving some or all landing squares.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "base/bits.h"
#include "base/text.h"
#include "notation/notation.h"
#include "rules/variant.h"

static size_t put_cell(const dm_variant *v, int cell, char sep, char *buf, size_t size,
                       size_t len)
{
    char name[8];
    dm_cell_name(v, cell, name, sizeof name);
    int n = sep ? snprintf(buf + len, len < size ? size - len : 0, "%c%s", sep, name)
                : snprintf(buf + len, len < size ? size - len : 0, "%s", name);
    return len + (size_t)n;
}

/* Whether another move of the list has the same from and to as m. */
static bool shares_ends(const dm_move *m, const dm_move_list *legal)
{
    if (!legal)
        return false;
    for (int i = 0; i < legal->count; i++) {
        const dm_move *o = &legal->moves[i];
        if (o != m && o->from == m->from && o->to == m->to && !dm_move_same(o, m))
            return true;
    }
    return false;
}

void dm_move_format(const dm_variant *v, const dm_move *m, const dm_move_list *legal,
                    char *buf, size_t size)
{
    if (size == 0)
        return;
    buf[0] = '\0';
    if (m->flags & DM_MOVE_REMOVAL) {
        put_cell(v, m->from, 0, buf, size, 0);
        return;
    }
    size_t len = put_cell(v, m->from, 0, buf, size, 0);
    if (m->njumps == 0) {
        put_cell(v, m->to, v->quiet_sep, buf, size, len);
        return;
    }
    if (shares_ends(m, legal))
        for (int i = 0; i + 1 < m->njumps; i++)
            len = put_cell(v, m->path[i], v->capture_sep, buf, size, len);
    put_cell(v, m->to, v->capture_sep, buf, size, len);
}

/* The direction that leads from cell a to cell b in a straight line, or -1. */
static int direction_between(const struct geometry *g, int a, int b)
{
    for (int d = 0; d < DIR_COUNT; d++)
        for (int c = g->next[a][d]; c >= 0; c = g->next[c][d])
            if (c == b)
                return d;
    return -1;
}

/* Whether square c may stand for the landing after jump i of m: that
 * landing, or, when the next jump goes on straight, any square between the
 * two pieces (a king may be said to touch any of them: a1xf6xh8), though the
 * move keeps the one right behind the first. */
static bool stands_for_landing(const struct geometry *g, const dm_move *m, int i, int c)
{
    int land = m->path[i];
    if (c == land)
        return true;
    int d = direction_between(g, m->captured[i], land);
    if (d < 0 || direction_between(g, land, m->captured[i + 1]) != d)
        return false;
    for (int x = g->next[land][d]; x >= 0 && x != m->captured[i + 1]; x = g->next[x][d])
        if (x == c)
            return true;
    return false;
}

/* Whether the squares want[] name landings of m's route, in that order. */
static bool route_matches(const struct geometry *g, const dm_move *m, const int *want, int nwant)
{
    int j = 0;
    for (int i = 0; i + 1 < m->njumps && j < nwant; i++)
        if (stands_for_landing(g, m, i, want[j]))
            j++;
    return j == nwant;
}

/* The move text quoted in a message: control characters and broken UTF-8
 * escaped, so that they never reach a terminal as they are; cut after 48
 * bytes so that the reason still fits. */
#define QUOTE_MAX 48
static const char *quote(char *buf, size_t size, const char *text, size_t len)
{
    text_escape(text, len < QUOTE_MAX ? len : QUOTE_MAX, buf, size - 3);
    if (len > QUOTE_MAX)
        strcat(buf, "...");
    return buf;
}

int dm_move_parse(const dm_variant *v, const dm_move_list *legal, const char *text,
                  dm_error *err)
{
    int cells[DM_MAX_JUMPS + 2], n = 0;
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    size_t total = strlen(p);
    while (total > 0 && isspace((unsigned char)p[total - 1]))
        total--;
    char shown[TEXT_ESCAPED_SIZE(QUOTE_MAX) + 4], bad[TEXT_ESCAPED_SIZE(QUOTE_MAX) + 4];
    quote(shown, sizeof shown, p, total);
    if (total == 0) {
        snprintf(err->msg, sizeof err->msg, "empty move");
        return DM_PARSE_MALFORMED;
    }
    const char *end = p + total;
    while (p < end) {
        /* A square is digits, or one file letter and digits ('x' is no file
         * on any board, so "28x19" splits). */
        const char *tok = p;
        if (p < end && isalpha((unsigned char)*p) && *p != 'x' && *p != 'X')
            p++;
        while (p < end && isdigit((unsigned char)*p))
            p++;
        if (p == tok || n == DM_MAX_JUMPS + 2) {
            snprintf(err->msg, sizeof err->msg, "move '%s': expected squares joined by - x or :",
                     shown);
            return DM_PARSE_MALFORMED;
        }
        int cell = dm_cell_parse(v, tok, (size_t)(p - tok));
        if (cell < 0) {
            snprintf(err->msg, sizeof err->msg, "move '%s': square '%s' does not exist on the %s board",
                     shown, quote(bad, sizeof bad, tok, (size_t)(p - tok)), v->geo->name);
            return DM_PARSE_MALFORMED;
        }
        cells[n++] = cell;
        if (p < end) {
            if (*p != '-' && *p != 'x' && *p != 'X' && *p != ':') {
                snprintf(err->msg, sizeof err->msg, "move '%s': '%s' is not a move separator (- x :)",
                         shown, quote(bad, sizeof bad, p, 1));
                return DM_PARSE_MALFORMED;
            }
            p++;
        }
    }
    if (n == 1 && !(legal->count && (legal->moves[0].flags & DM_MOVE_REMOVAL))) {
        snprintf(err->msg, sizeof err->msg, "move '%s': give the square to move to as well",
                 shown);
        return DM_PARSE_MALFORMED;
    }

    int found = -1, matches = 0, exact = -1, nexact = 0;
    for (int i = 0; i < legal->count; i++) {
        const dm_move *m = &legal->moves[i];
        if (m->from != cells[0] || m->to != cells[n - 1])
            continue;
        if (n > 2 && !route_matches(v->geo, m, cells + 1, n - 2))
            continue;
        if (found < 0)
            found = i;
        matches++;
        if (n - 1 == m->njumps) {
            exact = i;
            nexact++;
        }
    }
    if (matches == 1)
        return found;
    /* A whole route names its move even when its squares are also part of a
     * longer route (free choice: a5xa3xc1 beside a5xa3xc3xc1). */
    if (matches > 1 && nexact == 1)
        return exact;
    if (matches > 1) {
        char a[96], b[96];
        int second = -1;
        for (int i = found + 1; i < legal->count && second < 0; i++)
            if (legal->moves[i].from == cells[0] && legal->moves[i].to == cells[n - 1])
                second = i;
        dm_move_format(v, &legal->moves[found], legal, a, sizeof a);
        dm_move_format(v, &legal->moves[second], legal, b, sizeof b);
        snprintf(err->msg, sizeof err->msg, "move '%s' is ambiguous: %d legal moves match, such as %s and %s",
                 shown, matches, a, b);
        return DM_PARSE_AMBIGUOUS;
    }
    bool captures = legal->count > 0 && legal->moves[0].njumps > 0;
    if (legal->count == 0)
        snprintf(err->msg, sizeof err->msg, "move '%s' is illegal: there is no legal move",
                 shown);
    else if (captures) {
        char a[96];
        dm_move_format(v, &legal->moves[0], legal, a, sizeof a);
        snprintf(err->msg, sizeof err->msg, "move '%s' is illegal: a capture is compulsory (%s%s)",
                 shown, a, legal->count > 1 ? ", ..." : "");
    } else
        snprintf(err->msg, sizeof err->msg, "move '%s' is illegal in this position",
                 shown);
    return DM_PARSE_ILLEGAL;
}
