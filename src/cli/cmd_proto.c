/* SPDX-License-Identifier: MIT */
/*
 * cmd_proto.c - the engine protocols on the command line (src/proto):
 * damier hub, for Hub GUIs and bots; damier dxp, engine against engine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "proto/proto.h"

int cmd_hub(int argc, char **argv)
{
    if (argc > 0) {
        cli_error("hub: unexpected argument '%s' (the protocol sets everything)", argv[0]);
        return 2;
    }
    return proto_hub_run(stdin, stdout);
}

/* A whole number in [min, max] from the value of option, or -1 (with an
 * error line). */
static int number_option(const char *option, const char *value, int min, int max)
{
    char *end;
    long n = value ? strtol(value, &end, 10) : 0;
    if (!value || *value == '\0' || *end != '\0' || n < min || n > max) {
        cli_error("%s needs a whole number from %d to %d", option, min, max);
        return -1;
    }
    return (int)n;
}

int cmd_dxp(int argc, char **argv)
{
    struct proto_dxp_options o = {.minutes = 5, .moves = 0, .games = 0, .level = DM_LEVEL_MAX};
    bool games_given = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        int n = 0;
        if (strcmp(a, "--listen") == 0 && value) {
            o.listen = value;
        } else if (strcmp(a, "--connect") == 0 && value) {
            o.connect = value;
        } else if (strcmp(a, "--games") == 0) {
            if ((n = number_option(a, value, 1, 100000)) < 0)
                return 2;
            o.games = n;
            games_given = true;
        } else if (strcmp(a, "--time") == 0) {
            if ((n = number_option(a, value, 1, 999)) < 0)
                return 2;
            o.minutes = n;
        } else if (strcmp(a, "--moves") == 0) {
            if ((n = number_option(a, value, 0, 999)) < 0)
                return 2;
            o.moves = n;
        } else if (strcmp(a, "--level") == 0) {
            if ((n = number_option(a, value, 1, 8)) < 0)
                return 2;
            o.level = n;
        } else if (strcmp(a, "--variant") == 0 && value) {
            if (!(o.variant = cli_variant(value)))
                return 2;
        } else if (strcmp(a, "--fen") == 0 && value) {
            o.fen = value;
        } else if (strcmp(a, "--pdn") == 0 && value) {
            o.pdn = value;
        } else {
            cli_error("dxp: unknown option '%s' or its value missing (see damier dxp --help)", a);
            return 2;
        }
        i++;
    }
    if (!o.listen == !o.connect) {
        cli_error("dxp needs exactly one of --listen [ADDR:]PORT and --connect HOST:PORT");
        return 2;
    }
    o.initiator = games_given;
    if (o.fen && !o.initiator) {
        cli_error("dxp: --fen is for the side that proposes the games (give --games)");
        return 2;
    }
    return proto_dxp_run(&o);
}
