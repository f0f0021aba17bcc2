/* SPDX-License-Identifier: MIT */
/*
 * cmd_play.c - `damier play`: a game in the terminal against the computer
 * or between two people at one keyboard (src/tui does the playing, on a
 * match of src/play).  Every error message shows the user's text escaped,
 * so that a control sequence in an argument never reaches the terminal.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/text.h"
#include "cli/cli.h"
#include "tui/tui.h"

/* cli_error with the whole message escaped (text_safe): the only text in
 * it that is not ours is what the user gave. */
static void play_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void play_error(const char *fmt, ...)
{
    char raw[512], shown[TEXT_ESCAPED_SIZE(512)];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    cli_error("%s", text_safe(raw, strlen(raw), shown, sizeof shown));
}

static int seat_kind(const char *text, dm_seat *seat)
{
    if (strcmp(text, "human") == 0)
        seat->kind = DM_SEAT_PERSON;
    else if (strcmp(text, "computer") == 0)
        seat->kind = DM_SEAT_COMPUTER;
    else {
        play_error("a player is human or computer, not '%s'", text);
        return -1;
    }
    return 0;
}

int cmd_play(int argc, char **argv)
{
    struct tui_options o = {.match = {.rules = DM_RULES_DEFAULT}};
    dm_match_options *mo = &o.match;
    const char *variant = "international";
    int level = 1;
    mo->seat[DM_BLACK].kind = DM_SEAT_COMPUTER;
    mo->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    static const char *const valued[] = {"--variant", "--rules", "--white", "--black",
                                         "--level",   "--fen",   "--time",  "--seed"};

    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *value = NULL;
        for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
            if (strcmp(a, valued[k]) == 0) {
                if (i + 1 >= argc) {
                    play_error("option '%s' needs a value", a);
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
            if (dm_rules_parse(value, &mo->rules) != 0) {
                play_error("--rules is default or official, not '%s'", value);
                return 2;
            }
        } else if (strcmp(a, "--white") == 0 || strcmp(a, "--black") == 0) {
            if (seat_kind(value, &mo->seat[a[2] == 'w' ? DM_WHITE : DM_BLACK]) != 0)
                return 2;
        } else if (strcmp(a, "--level") == 0) {
            long l = strtol(value, &end, 10);
            if (*end || end == value || l < 1 || l > DM_LEVEL_MAX) {
                play_error("--level is 1 (weakest) to %d (strongest), not '%s'", DM_LEVEL_MAX,
                           value);
                return 2;
            }
            level = (int)l;
        } else if (strcmp(a, "--fen") == 0)
            mo->fen = value;
        else if (strcmp(a, "--time") == 0) {
            dm_error err;
            if (dm_time_control_parse(value, &mo->time, &err) != 0) {
                play_error("%s", err.msg);
                return 2;
            }
        } else if (strcmp(a, "--seed") == 0) {
            unsigned long long seed = strtoull(value, &end, 10);
            if (*end || end == value) {
                play_error("--seed takes a number, not '%s'", value);
                return 2;
            }
            mo->seed = seed;
        } else {
            play_error("unknown argument '%s'", a);
            return 2;
        }
    }
    mo->variant = dm_variant_by_id(variant);
    if (!mo->variant) {
        play_error("unknown variant '%s' (see 'damier variants')", variant);
        return 1;
    }
    for (int c = 0; c < 2; c++)
        mo->seat[c].level = level;
    if (mo->fen) {
        dm_position pos;
        dm_error err;
        if (dm_fen_parse(mo->variant, mo->fen, &pos, &err) != 0) {
            play_error("%s", err.msg);
            return 1;
        }
    }
    return tui_play(&o);
}
