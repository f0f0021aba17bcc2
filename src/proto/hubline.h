/* SPDX-License-Identifier: MIT */
/*
 * hubline.h - the lines of the Hub protocol, both ways.
 *
 * Every Hub line is `command name=value name="quoted value" flag ...`
 * (Scan's protocol.txt, "general syntax"): a value must be quoted when it
 * holds a blank or '=' or is empty; a flag is a name without a value.  The
 * reader splits a line into its command and arguments in place; the writer
 * quotes exactly where the syntax needs it.
 */
#ifndef DM_PROTO_HUBLINE_H
#define DM_PROTO_HUBLINE_H

#include <stdbool.h>
#include <stddef.h>

#define HUB_LINE_MAX 8192 /* a pv of 100 long captures fits          */
#define HUB_MAX_ARGS 32

struct hub_arg {
    const char *name;
    const char *value; /* "" for a flag                                 */
    bool flag;         /* written without "=value"                       */
};

struct hub_line {
    const char *command; /* "" for a blank line                           */
    int nargs;
    struct hub_arg args[HUB_MAX_ARGS];
    char text[HUB_LINE_MAX]; /* the line, cut into the strings above     */
};

/* Reads text into line.  Returns 0, or -1 with why filled (a quote never
 * closed, more than HUB_MAX_ARGS arguments, a line over HUB_LINE_MAX). */
int hub_line_parse(const char *text, struct hub_line *line, char *why, size_t size);

/* The value of the first argument of that name (a flag's is ""), or NULL. */
const char *hub_line_arg(const struct hub_line *line, const char *name);
bool hub_line_has(const struct hub_line *line, const char *name);

/* A line being written: start it with its command, add arguments, then
 * take buf (ends in "\n").  Over-long lines are cut, never overflowed. */
struct hub_out {
    char buf[HUB_LINE_MAX];
    size_t len;
};

void hub_out_start(struct hub_out *out, const char *command);
void hub_out_arg(struct hub_out *out, const char *name, const char *value);
void hub_out_argf(struct hub_out *out, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void hub_out_flag(struct hub_out *out, const char *name);
const char *hub_out_end(struct hub_out *out);

#endif
