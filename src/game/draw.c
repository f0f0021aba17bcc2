/* SPDX-License-Identifier: MIT */
/*
 * draw.c - the draw rules a game follows, and their description.
 *
 * The rules are data of the variant record (its `draw` field names the
 * `default` and `official` sets, src/rules/variants.c); this file reads
 * them from there and tells them in words for the help and
 * docs/variants.md.  game.c runs the counters.
 */
#include <stdarg.h>
#include <stdio.h>

#include "game/game.h"
#include "rules/variant.h"

const struct draw_rules *game_draw_rules(const dm_variant *v, enum dm_rules preset)
{
    return v->draw[preset == DM_RULES_OFFICIAL ? DM_RULES_OFFICIAL : DM_RULES_DEFAULT];
}

bool game_draw_rules_listed(const dm_variant *v)
{
    return v->draw[DM_RULES_DEFAULT] && v->draw[DM_RULES_OFFICIAL];
}

/* snprintf at the end of what buf holds so far; len keeps growing past size
 * so the caller learns the length it needed. */
static void appendf(char *buf, size_t size, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void appendf(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *at = *len < size ? buf + *len : NULL;
    int n = vsnprintf(at, at ? size - *len : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        *len += (size_t)n;
}

int dm_draw_rules_describe(const dm_variant *v, enum dm_rules rules, char *buf, size_t size)
{
    const struct draw_rules *d = game_draw_rules(v, rules);
    size_t len = 0;
    if (size > 0)
        buf[0] = '\0';
    appendf(buf, size, &len, "%s\n", d->source);
    if (d->repetition)
        appendf(buf, size, &len, "repetition: the same position %d times\n", d->repetition);
    else
        appendf(buf, size, &len, "no repetition rule\n");
    for (int i = 0; i < DRAW_MAX_COUNTERS && d->counter[i].reason; i++) {
        const struct draw_counter *c = &d->counter[i];
        if (c->limit)
            appendf(buf, size, &len, "%s (%d %s)\n", c->reason, c->limit,
                    c->strong_moves ? "moves of the strong side" : "plies");
        else
            appendf(buf, size, &len, "%s\n", c->reason);
    }
    return (int)len;
}
