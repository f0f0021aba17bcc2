/* SPDX-License-Identifier: MIT */
/*
 * fuzz_hubsession.c - libFuzzer target for a whole Hub session
 * (proto_hub_run_with): the input is what a GUI sends, line by line.
 *
 * The session must end (at quit or the end of the input, stopping a search
 * that still runs), never crash, and everything it writes must be Hub lines
 * a GUI can read: each one parses and is one of the engine's commands.
 * The hash table is kept at 1 MB (at most 2) so that `init`, `go` and
 * tt-size cost little; searches run on the session's own thread, as they
 * do for a GUI, and are stopped when the input ends, so an input holding
 * `level infinite` or `go ponder` still ends at once.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/hubline.h"
#include "proto/proto.h"
#include "fuzz.h"

static const char *const replies[] = {"id", "param", "wait", "ready", "pong",
                                      "info", "done", "error"};

static void check_output(char *text, size_t len)
{
    static struct hub_line line;
    char why[80];
    FUZZ_CHECK(len == 0 || text[len - 1] == '\n'); /* every line is whole */
    for (char *p = text, *nl; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
        *nl = '\0';
        FUZZ_CHECK(hub_line_parse(p, &line, why, sizeof why) == 0);
        bool known = false;
        for (size_t i = 0; i < sizeof replies / sizeof *replies; i++)
            known |= strcmp(line.command, replies[i]) == 0;
        FUZZ_CHECK(known);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > 16384)
        return 0;
    FILE *in = fmemopen((void *)data, size, "r");
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    FUZZ_CHECK(in && out);
    struct proto_hub_options o = {.tt_mb = 1, .tt_mb_max = 2};
    FUZZ_CHECK(proto_hub_run_with(in, out, &o) == 0);
    fclose(in);
    fclose(out);
    check_output(text, len);
    free(text);
    return 0;
}
