/* SPDX-License-Identifier: MIT */
/*
 * dxpmsg.c - reading and writing DXP messages (dxpmsg.h), as the
 * DamExchange pages lay them out and Scan's and Moby Dam's dxp code send
 * them.
 */
#include "proto/dxpmsg.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* A cursor over one message, with the reason of the first failure. */
struct reader {
    const char *text;
    size_t len, at;
    char *why;
    size_t size;
    bool bad;
};

static bool refuse(struct reader *r, const char *fmt, ...)
{
    if (!r->bad) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->why, r->size, fmt, ap);
        va_end(ap);
    }
    r->bad = true;
    return false;
}

/* A field of width digits, or -1. */
static int number(struct reader *r, int width, const char *field)
{
    if (r->bad)
        return -1;
    if (r->at + (size_t)width > r->len)
        return refuse(r, "%s: the message ends before it", field), -1;
    int n = 0;
    for (int i = 0; i < width; i++) {
        char c = r->text[r->at + (size_t)i];
        if (c < '0' || c > '9')
            return refuse(r, "%s: '%.*s' is not %d digits", field, width, r->text + r->at,
                          width),
                   -1;
        n = n * 10 + (c - '0');
    }
    r->at += (size_t)width;
    return n;
}

/* One character of the set allowed, or 0. */
static char letter(struct reader *r, const char *allowed, const char *field)
{
    if (r->bad)
        return 0;
    if (r->at >= r->len)
        return refuse(r, "%s: the message ends before it", field), 0;
    char c = r->text[r->at];
    if (!strchr(allowed, c) || c == '\0')
        return refuse(r, "%s: '%c' is not one of %s", field, c, allowed), 0;
    r->at++;
    return c;
}

/* A blank-padded name of width characters, trimmed into out. */
static void name(struct reader *r, int width, char *out, const char *field)
{
    out[0] = '\0';
    if (r->bad)
        return;
    if (r->at + (size_t)width > r->len) {
        refuse(r, "%s: the message ends before it", field);
        return;
    }
    memcpy(out, r->text + r->at, (size_t)width);
    int n = width;
    while (n > 0 && out[n - 1] == ' ')
        n--;
    out[n] = '\0';
    r->at += (size_t)width;
}

static void end(struct reader *r)
{
    if (!r->bad && r->at != r->len)
        refuse(r, "%zu characters too many after the last field", r->len - r->at);
}

static bool square(struct reader *r, int n, int squares, const char *field)
{
    if (r->bad)
        return false;
    if (n < 1 || n > squares)
        return refuse(r, "%s: square %d is not on a board of %d squares", field, n, squares);
    return true;
}

int dxp_parse(const char *text, size_t len, int squares, struct dxp_message *m, char *why,
              size_t size)
{
    struct reader r = {text, len, 0, why, size, false};
    memset(m, 0, sizeof *m);
    if (len == 0)
        return refuse(&r, "an empty message"), -1;
    if (len > DXP_MAX_MESSAGE)
        return refuse(&r, "%zu characters; a message has at most %d", len, DXP_MAX_MESSAGE), -1;
    for (size_t i = 0; i < len; i++)
        if (text[i] < 0x20 || text[i] > 0x7E)
            return refuse(&r, "character %zu (\\x%02x) is not printable ASCII", i + 1,
                          (unsigned char)text[i]),
                   -1;
    m->kind = (enum dxp_kind)text[r.at++];
    switch (m->kind) {
    case DXP_GAMEREQ:
        if (number(&r, 2, "GAMEREQ version") != 1 && !r.bad)
            refuse(&r, "GAMEREQ version: '%.2s', only 01 is known", text + 1);
        name(&r, DXP_NAME, m->name, "GAMEREQ initiator name");
        m->color = letter(&r, "WZ", "GAMEREQ follower colour");
        m->minutes = number(&r, 3, "GAMEREQ thinking time");
        m->moves = number(&r, 3, "GAMEREQ number of moves");
        m->setup = letter(&r, "AB", "GAMEREQ starting position") == 'B';
        if (m->setup) {
            m->to_move = letter(&r, "WZ", "GAMEREQ colour to move");
            for (int i = 0; i < squares && !r.bad; i++)
                m->board[i] = letter(&r, "wzWZe", "GAMEREQ square");
        }
        break;
    case DXP_GAMEACC:
        name(&r, DXP_NAME, m->name, "GAMEACC follower name");
        m->code = number(&r, 1, "GAMEACC acceptance code");
        break;
    case DXP_MOVE:
        m->seconds = number(&r, 4, "MOVE time");
        m->from = number(&r, 2, "MOVE from");
        square(&r, m->from, squares, "MOVE from");
        m->to = number(&r, 2, "MOVE to");
        square(&r, m->to, squares, "MOVE to");
        m->ncaptured = number(&r, 2, "MOVE number captured");
        if (!r.bad && (m->ncaptured > squares || m->ncaptured > DXP_MAX_CAPTURED))
            refuse(&r, "MOVE number captured: %d on a board of %d squares", m->ncaptured,
                   squares);
        for (int i = 0; i < m->ncaptured && !r.bad; i++) {
            m->captured[i] = number(&r, 2, "MOVE captured piece");
            square(&r, m->captured[i], squares, "MOVE captured piece");
        }
        break;
    case DXP_GAMEEND:
        m->reason = letter(&r, "0123", "GAMEEND reason") - '0';
        m->stop = letter(&r, "01", "GAMEEND stop code") - '0';
        break;
    case DXP_CHAT:
        memcpy(m->text, text + 1, len - 1);
        m->text[len - 1] = '\0';
        r.at = len;
        break;
    case DXP_BACKREQ:
        m->move_number = number(&r, 3, "BACKREQ move number");
        m->color = letter(&r, "WZ", "BACKREQ colour to move");
        break;
    case DXP_BACKACC:
        m->code = number(&r, 1, "BACKACC acceptance code");
        break;
    default:
        refuse(&r, "unknown message type '%c'", text[0]);
    }
    end(&r);
    return r.bad ? -1 : 0;
}

int dxp_format(const struct dxp_message *m, int squares, char *buf, size_t size)
{
    char out[4 * DXP_MAX_MESSAGE];
    int n = 0;
    switch (m->kind) {
    case DXP_GAMEREQ:
        n = snprintf(out, sizeof out, "R01%-32.32s%c%03d%03d%c", m->name, m->color, m->minutes,
                     m->moves, m->setup ? 'B' : 'A');
        if (m->setup)
            n += snprintf(out + n, sizeof out - (size_t)n, "%c%.*s", m->to_move, squares,
                          m->board);
        break;
    case DXP_GAMEACC:
        n = snprintf(out, sizeof out, "A%-32.32s%d", m->name, m->code);
        break;
    case DXP_MOVE:
        n = snprintf(out, sizeof out, "M%04d%02d%02d%02d", m->seconds, m->from, m->to,
                     m->ncaptured);
        for (int i = 0; i < m->ncaptured && n < (int)sizeof out - 3; i++)
            n += snprintf(out + n, sizeof out - (size_t)n, "%02d", m->captured[i]);
        break;
    case DXP_GAMEEND:
        n = snprintf(out, sizeof out, "E%d%d", m->reason, m->stop);
        break;
    case DXP_CHAT:
        n = snprintf(out, sizeof out, "C%s", m->text);
        break;
    case DXP_BACKREQ:
        n = snprintf(out, sizeof out, "B%03d%c", m->move_number, m->color);
        break;
    case DXP_BACKACC:
        n = snprintf(out, sizeof out, "K%d", m->code);
        break;
    }
    if (n <= 0 || n > DXP_MAX_MESSAGE || (size_t)n >= size)
        return -1;
    memcpy(buf, out, (size_t)n + 1);
    return n;
}
