/* SPDX-License-Identifier: MIT */
/*
 * hubline.c - reading and writing Hub lines (hubline.h).
 */
#include "proto/hubline.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int refuse(char *why, size_t size, const char *reason)
{
    snprintf(why, size, "%s", reason);
    return -1;
}

/* Cuts the next word or quoted value at *p, returning it; NULL if a quote
 * is never closed.  A value ends at a blank; a name also at '='. */
static char *take(char **p, bool is_name)
{
    char *s = *p;
    if (*s == '"') {
        char *end = strchr(s + 1, '"');
        if (!end)
            return NULL;
        *end = '\0';
        *p = end + 1;
        return s + 1;
    }
    char *e = s;
    while (*e && !is_blank(*e) && !(is_name && *e == '='))
        e++;
    *p = e;
    return s;
}

int hub_line_parse(const char *text, struct hub_line *line, char *why, size_t size)
{
    size_t len = strlen(text);
    if (len >= sizeof line->text)
        return refuse(why, size, "line too long");
    memcpy(line->text, text, len + 1);
    line->nargs = 0;
    line->command = "";
    char *p = line->text;
    while (is_blank(*p))
        p++;
    char *command = take(&p, false);
    if (!command)
        return refuse(why, size, "a quote is never closed");
    char after = *p;
    *p = '\0';
    line->command = command;
    if (after)
        p++;
    for (;;) {
        while (is_blank(*p))
            p++;
        if (!*p)
            return 0;
        if (line->nargs == HUB_MAX_ARGS)
            return refuse(why, size, "too many arguments");
        struct hub_arg *a = &line->args[line->nargs++];
        char *name = take(&p, true);
        if (!name)
            return refuse(why, size, "a quote is never closed");
        a->name = name;
        a->value = "";
        a->flag = *p != '=';
        if (a->flag) {
            char end = *p;
            *p = '\0';
            if (end)
                p++;
            continue;
        }
        *p++ = '\0'; /* the '=' */
        char *value = take(&p, false);
        if (!value)
            return refuse(why, size, "a quote is never closed");
        char end = *p;
        *p = '\0';
        a->value = value;
        if (end)
            p++;
    }
}

const char *hub_line_arg(const struct hub_line *line, const char *name)
{
    for (int i = 0; i < line->nargs; i++)
        if (strcmp(line->args[i].name, name) == 0)
            return line->args[i].value;
    return NULL;
}

bool hub_line_has(const struct hub_line *line, const char *name)
{
    return hub_line_arg(line, name) != NULL;
}

/* Appends s as it is, cut to the room left (one byte kept for "\n"). */
static void put(struct hub_out *out, const char *s, size_t n)
{
    size_t room = sizeof out->buf - 2 - out->len;
    if (n > room)
        n = room;
    memcpy(out->buf + out->len, s, n);
    out->len += n;
    out->buf[out->len] = '\0';
}

void hub_out_start(struct hub_out *out, const char *command)
{
    out->len = 0;
    out->buf[0] = '\0';
    put(out, command, strlen(command));
}

void hub_out_flag(struct hub_out *out, const char *name)
{
    put(out, " ", 1);
    put(out, name, strlen(name));
}

/* Quoted when empty or holding a blank, '=' or a quote; a quote inside
 * becomes an apostrophe, as the syntax has no escape, and a line break a
 * blank.  Every character the reader takes for a blank counts (is_blank):
 * a value holding a bare CR or LF, written unquoted, came back as two
 * arguments once its break became a blank (found by fuzz_hubline). */
void hub_out_arg(struct hub_out *out, const char *name, const char *value)
{
    hub_out_flag(out, name);
    put(out, "=", 1);
    bool quote = *value == '\0' || strpbrk(value, " \t\r\n=\"") != NULL;
    if (quote)
        put(out, "\"", 1);
    for (const char *v = value; *v; v++) {
        char c = *v == '"' ? '\'' : *v == '\n' || *v == '\r' ? ' ' : *v;
        put(out, &c, 1);
    }
    if (quote)
        put(out, "\"", 1);
}

void hub_out_argf(struct hub_out *out, const char *name, const char *fmt, ...)
{
    char value[HUB_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(value, sizeof value, fmt, ap);
    va_end(ap);
    hub_out_arg(out, name, value);
}

const char *hub_out_end(struct hub_out *out)
{
    out->buf[out->len++] = '\n';
    out->buf[out->len] = '\0';
    return out->buf;
}
