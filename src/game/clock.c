/* SPDX-License-Identifier: MIT */
/*
 * clock.c - time controls and a two-sided game clock.
 *
 * A clock keeps, for each side, the time left when its time last stopped or
 * started; the running side's time left now is that minus what the time
 * source says has passed since.  Nothing here sleeps or keeps time on its
 * own: callers ask when they redraw, and tests inject a source they step by
 * hand.  The flag falls when the running side's time reaches zero; the clock
 * notices it when asked (dm_clock_flag) or when the side presses too late.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "damier/game.h"

/* Bounds that keep every time in range and catch typing slips. */
#define CLOCK_MAX_MINUTES 10000.0 /* about a week */
#define CLOCK_MAX_SECONDS 36000.0 /* an increment or a time per move */
#define CLOCK_MAX_MOVES   1000

static int64_t monotonic_ms(void *ctx)
{
    (void)ctx;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- time controls ---------------------------------------------------- */

/* Reads digits with an optional decimal part at *p; no sign, no exponent. */
static bool read_number(const char **p, double *out)
{
    const char *s = *p;
    double v = 0, scale = 1;
    if (!isdigit((unsigned char)*s))
        return false;
    while (isdigit((unsigned char)*s) && v < 1e9)
        v = v * 10 + (*s++ - '0');
    if (isdigit((unsigned char)*s))
        return false; /* absurdly long */
    if (*s == '.') {
        s++;
        if (!isdigit((unsigned char)*s))
            return false;
        while (isdigit((unsigned char)*s)) {
            scale /= 10;
            v += (*s++ - '0') * scale;
        }
    }
    *p = s;
    *out = v;
    return true;
}

static int spec_error(dm_error *err, const char *spec, const char *why)
{
    snprintf(err->msg, sizeof err->msg, "time control '%.40s': %s", spec, why);
    return -1;
}

#define SPEC_FORMS                                                                                 \
    "write none, 5 (minutes), 5+3 (plus seconds a move), 90/40 (40 moves in "                      \
    "90 minutes) or 10/move (seconds a move)"

int dm_time_control_parse(const char *spec, dm_time_control *tc, dm_error *err)
{
    memset(tc, 0, sizeof *tc);
    const char *p = spec;
    while (isspace((unsigned char)*p))
        p++;
    size_t len = strlen(p);
    while (len > 0 && isspace((unsigned char)p[len - 1]))
        len--;
    if (len == 0)
        return spec_error(err, spec, "empty; " SPEC_FORMS);
    if ((len == 4 && strncmp(p, "none", 4) == 0) || (len == 1 && *p == '-')) {
        tc->kind = DM_CLOCK_NONE;
        return 0;
    }
    const char *end = p + len;
    double first, second = 0, inc = 0;
    if (!read_number(&p, &first))
        return spec_error(err, spec, "expected a number first; " SPEC_FORMS);

    if (p == end || *p == '+') {
        if (*p == '+') {
            p++;
            if (!read_number(&p, &inc) || p != end)
                return spec_error(err, spec, "expected seconds after '+', as in 5+3");
        }
        if (first <= 0)
            return spec_error(err, spec, "the minutes must be more than 0");
        if (first > CLOCK_MAX_MINUTES || inc > CLOCK_MAX_SECONDS)
            return spec_error(err, spec, "too long");
        tc->kind = inc > 0 ? DM_CLOCK_FISCHER : DM_CLOCK_SUDDEN_DEATH;
        tc->base_ms = (int64_t)(first * 60000 + 0.5);
        tc->increment_ms = (int64_t)(inc * 1000 + 0.5);
        return 0;
    }
    if (*p != '/') {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "unexpected '%c'; %s", *p, SPEC_FORMS);
        return spec_error(err, spec, why);
    }
    p++;
    if ((size_t)(end - p) == 4 && strncmp(p, "move", 4) == 0) {
        if (first <= 0 || first > CLOCK_MAX_SECONDS)
            return spec_error(err, spec,
                              "the seconds a move must be more than 0 and at most 36000");
        tc->kind = DM_CLOCK_PER_MOVE;
        tc->base_ms = (int64_t)(first * 1000 + 0.5);
        return 0;
    }
    const char *moves_at = p;
    if (!read_number(&p, &second) || memchr(moves_at, '.', (size_t)(p - moves_at)))
        return spec_error(err, spec, "expected a whole number of moves after '/', as in 90/40");
    if (p < end && *p == '+') {
        p++;
        if (!read_number(&p, &inc))
            return spec_error(err, spec, "expected seconds after '+', as in 90/40+30");
    }
    if (p != end)
        return spec_error(err, spec, "unexpected text at the end; " SPEC_FORMS);
    if (first <= 0 || second < 1)
        return spec_error(err, spec, "the minutes and the moves must be more than 0");
    if (first > CLOCK_MAX_MINUTES || second > CLOCK_MAX_MOVES || inc > CLOCK_MAX_SECONDS)
        return spec_error(err, spec, "too long");
    tc->kind = DM_CLOCK_MOVES_IN_TIME;
    tc->base_ms = (int64_t)(first * 60000 + 0.5);
    tc->moves = (int)second;
    tc->increment_ms = (int64_t)(inc * 1000 + 0.5);
    return 0;
}

/* Minutes or seconds without a needless ".0". */
static void put_amount(char *buf, size_t size, int64_t ms, int64_t unit)
{
    if (ms % unit == 0)
        snprintf(buf, size, "%lld", (long long)(ms / unit));
    else
        snprintf(buf, size, "%g", (double)ms / (double)unit);
}

void dm_time_control_format(const dm_time_control *tc, char *buf, size_t size)
{
    char base[32], inc[32];
    put_amount(base, sizeof base, tc->base_ms, 60000);
    put_amount(inc, sizeof inc, tc->increment_ms, 1000);
    switch (tc->kind) {
    case DM_CLOCK_NONE:
        snprintf(buf, size, "none");
        break;
    case DM_CLOCK_SUDDEN_DEATH:
        snprintf(buf, size, "%s", base);
        break;
    case DM_CLOCK_FISCHER:
        snprintf(buf, size, "%s+%s", base, inc);
        break;
    case DM_CLOCK_MOVES_IN_TIME:
        if (tc->increment_ms)
            snprintf(buf, size, "%s/%d+%s", base, tc->moves, inc);
        else
            snprintf(buf, size, "%s/%d", base, tc->moves);
        break;
    case DM_CLOCK_PER_MOVE:
        put_amount(base, sizeof base, tc->base_ms, 1000);
        snprintf(buf, size, "%s/move", base);
        break;
    }
}

/* ---- the clock -------------------------------------------------------- */

void dm_clock_init(dm_clock *c, const dm_time_control *tc, dm_time_source *now, void *ctx)
{
    memset(c, 0, sizeof *c);
    if (tc)
        c->tc = *tc;
    c->left_ms[0] = c->left_ms[1] = c->tc.kind == DM_CLOCK_NONE ? 0 : c->tc.base_ms;
    c->running = -1;
    c->flagged = -1;
    c->now = now ? now : monotonic_ms;
    c->now_ctx = now ? ctx : NULL;
}

/* The running side's time left at source time t, unclamped. */
static int64_t running_left(const dm_clock *c, int64_t t)
{
    return c->left_ms[c->running] - (t - c->since_ms);
}

/* Stops the running side's time at source time t; false if its flag fell. */
static bool stop_at(dm_clock *c, int64_t t)
{
    if (c->running < 0)
        return true;
    int side = c->running;
    c->running = -1;
    if (c->tc.kind == DM_CLOCK_NONE)
        return true;
    int64_t left = c->left_ms[side] - (t - c->since_ms);
    if (left <= 0) {
        c->left_ms[side] = 0;
        c->flagged = side;
        return false;
    }
    c->left_ms[side] = left;
    return true;
}

static void start_at(dm_clock *c, int side, int64_t t)
{
    c->running = side;
    c->since_ms = t;
    if (c->tc.kind == DM_CLOCK_PER_MOVE)
        c->left_ms[side] = c->tc.base_ms;
}

void dm_clock_start(dm_clock *c, enum dm_color side)
{
    if (c->flagged >= 0)
        return;
    int64_t t = c->now(c->now_ctx);
    if (!stop_at(c, t))
        return;
    start_at(c, side, t);
}

bool dm_clock_press(dm_clock *c)
{
    if (c->running < 0)
        return c->flagged < 0;
    int side = c->running;
    int64_t t = c->now(c->now_ctx);
    if (!stop_at(c, t))
        return false;
    c->moves[side]++;
    switch (c->tc.kind) {
    case DM_CLOCK_FISCHER:
        c->left_ms[side] += c->tc.increment_ms;
        break;
    case DM_CLOCK_MOVES_IN_TIME:
        c->left_ms[side] += c->tc.increment_ms;
        if (c->moves[side] % c->tc.moves == 0)
            c->left_ms[side] += c->tc.base_ms;
        break;
    default:
        break;
    }
    start_at(c, side ^ 1, t);
    return true;
}

void dm_clock_stop(dm_clock *c)
{
    stop_at(c, c->now(c->now_ctx));
}

int64_t dm_clock_left(const dm_clock *c, enum dm_color side)
{
    if (c->tc.kind == DM_CLOCK_NONE)
        return 0;
    int64_t left = c->running == (int)side ? running_left(c, c->now(c->now_ctx)) : c->left_ms[side];
    return left > 0 ? left : 0;
}

int dm_clock_flag(dm_clock *c)
{
    if (c->flagged < 0 && c->running >= 0 && c->tc.kind != DM_CLOCK_NONE) {
        int64_t t = c->now(c->now_ctx);
        if (running_left(c, t) <= 0)
            stop_at(c, t);
    }
    return c->flagged;
}

void dm_clock_format(int64_t ms, char *buf, size_t size)
{
    if (ms < 0)
        ms = 0;
    int64_t s = ms / 1000;
    if (ms < 10000)
        snprintf(buf, size, "0:%02lld.%lld", (long long)s, (long long)(ms % 1000 / 100));
    else if (s >= 3600)
        snprintf(buf, size, "%lld:%02lld:%02lld", (long long)(s / 3600), (long long)(s / 60 % 60),
                 (long long)(s % 60));
    else
        snprintf(buf, size, "%lld:%02lld", (long long)(s / 60), (long long)(s % 60));
}
