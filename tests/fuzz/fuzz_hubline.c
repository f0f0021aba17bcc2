/* SPDX-License-Identifier: MIT */
/*
 * fuzz_hubline.c - libFuzzer target for Hub lines (src/proto/hubline.h).
 *
 * Any line reads or is refused with a reason, within its buffer.  A line
 * that reads is written again with hub_out_* (the command, each flag and
 * each name=value) and that text must read back to the same command and
 * arguments: a value the engine echoes reaches the GUI as it was.  The
 * writer's documented changes are allowed for: a quote inside a value
 * becomes an apostrophe and a line break a blank (the syntax has no
 * escape), and a line longer than the buffer is cut.  Names and commands
 * are ours when we write, so only plain ones (no blank, quote or '=') are
 * written back.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto/hubline.h"
#include "fuzz.h"

static bool plain(const char *s, bool allow_equals)
{
    for (; *s; s++)
        if (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n' || *s == '"' ||
            (*s == '=' && !allow_equals))
            return false;
    return true;
}

/* a as the writer puts it, equal to b. */
static bool same_value(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char c = *a == '"' ? '\'' : *a == '\n' || *a == '\r' ? ' ' : *a;
        if (c != *b)
            return false;
    }
    return *a == *b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 2 * HUB_LINE_MAX)
        return 0;
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    static struct hub_line line, back;
    char why[80];
    why[0] = '\0';
    if (hub_line_parse(text, &line, why, sizeof why) != 0) {
        FUZZ_CHECK(why[0]); /* a refusal says why */
        free(text);
        return 0;
    }
    free(text);
    FUZZ_CHECK(line.nargs >= 0 && line.nargs <= HUB_MAX_ARGS);
    if (!line.command[0] || !plain(line.command, true))
        return 0;
    for (int i = 0; i < line.nargs; i++)
        if (!line.args[i].name[0] || !plain(line.args[i].name, false))
            return 0;

    static struct hub_out out;
    hub_out_start(&out, line.command);
    for (int i = 0; i < line.nargs; i++) {
        if (line.args[i].flag)
            hub_out_flag(&out, line.args[i].name);
        else
            hub_out_arg(&out, line.args[i].name, line.args[i].value);
    }
    const char *written = hub_out_end(&out);
    size_t len = strlen(written);
    FUZZ_CHECK(len == out.len && len < HUB_LINE_MAX && written[len - 1] == '\n');
    if (len >= HUB_LINE_MAX - 2)
        return 0; /* cut: what is left need not read back */
    FUZZ_CHECK(hub_line_parse(written, &back, why, sizeof why) == 0);
    FUZZ_CHECK(strcmp(back.command, line.command) == 0);
    FUZZ_CHECK(back.nargs == line.nargs);
    for (int i = 0; i < line.nargs; i++) {
        FUZZ_CHECK(strcmp(back.args[i].name, line.args[i].name) == 0);
        FUZZ_CHECK(back.args[i].flag == line.args[i].flag);
        FUZZ_CHECK(same_value(line.args[i].value, back.args[i].value));
    }
    return 0;
}
