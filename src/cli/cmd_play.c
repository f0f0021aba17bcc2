/* SPDX-License-Identifier: MIT */
/*
 * cmd_play.c - `damier play`: a game in the terminal against the computer
 * or between two people at one keyboard (src/tui does the playing).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "tui/tui.h"

static int player_kind(const char *text, bool *computer)
{
    if (strcmp(text, "human") == 0)
        *computer = false;
    else if (strcmp(text, "computer") == 0)
        *computer = true;
    else {
        cli_error("a player is human or computer, not '%s'", text);
        return -1;
    }
    return 0;
}

int cmd_play(int argc, char **argv)
{
    struct tui_options o = {.rules = DM_RULES_DEFAULT, .level = 1};
    const char *variant = "international";
    o.computer[DM_BLACK] = true;
    o.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    static const char *const valued[] = {"--variant", "--rules", "--white", "--black",
                                         "--level",   "--fen",   "--time",  "--seed"};

    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *value = NULL;
        for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
            if (strcmp(a, valued[k]) == 0) {
                if (i + 1 >= argc) {
                    cli_error("option '%s' needs a value", a);
                    return 2;
                }
                value = argv[++i];
            }
        char *end;
        if (strcmp(a, "--plain") == 0)
            o.plain = true;
        else if (strcmp(a, "--variant") == 0)
            variant = value;
        else if (strcmp(a, "--rules") == 0) {
            if (dm_rules_parse(value, &o.rules) != 0) {
                cli_error("--rules is default or official, not '%s'", value);
                return 2;
            }
        } else if (strcmp(a, "--white") == 0 || strcmp(a, "--black") == 0) {
            if (player_kind(value, &o.computer[a[2] == 'w' ? DM_WHITE : DM_BLACK]) != 0)
                return 2;
        } else if (strcmp(a, "--level") == 0) {
            long level = strtol(value, &end, 10);
            if (*end || end == value || level < 1 || level > TUI_LEVEL_MAX) {
                cli_error("--level is 1 (weakest) to %d (strongest), not '%s'", TUI_LEVEL_MAX,
                          value);
                return 2;
            }
            o.level = (int)level;
        } else if (strcmp(a, "--fen") == 0)
            o.fen = value;
        else if (strcmp(a, "--time") == 0) {
            dm_error err;
            if (dm_time_control_parse(value, &o.time, &err) != 0) {
                cli_error("%s", err.msg);
                return 2;
            }
        } else if (strcmp(a, "--seed") == 0) {
            unsigned long long seed = strtoull(value, &end, 10);
            if (*end || end == value) {
                cli_error("--seed takes a number, not '%s'", value);
                return 2;
            }
            o.seed = seed;
        } else {
            cli_error("unknown argument '%s'", a);
            return 2;
        }
    }
    o.variant = cli_variant(variant);
    if (!o.variant)
        return 1;
    if (o.fen) {
        dm_position pos;
        if (cli_position(o.variant, o.fen, &pos))
            return 1;
    }
    return tui_play(&o);
}
