/* SPDX-License-Identifier: MIT */
/*
 * main.c - the damier multi-tool: one program, one subcommand per job.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage;
} commands[] = {
    {"variants", cmd_variants, "variants                 list every variant and its rules"},
    {"moves", cmd_moves,
     "moves --variant V [--fen F] [--play MOVES] [--json] [--keep-duplicates]\n"
     "                           the legal moves (FENs from stdin without --fen)"},
    {"perft", cmd_perft,
     "perft --variant V [--fen F] [--play MOVES] [--divide] [--keep-duplicates]\n"
     "      [--every-landing] [--reference] DEPTH\n"
     "                           count the leaves of the move tree"},
    {"bench", cmd_bench,
     "bench perft [--variant V]  perft speed of every variant\n"
     "  bench search [--depth-delta N] [--hash MB]\n"
     "                           search speed and node-count signature"},
    {"play", cmd_play,
     "play [--variant V] [--rules default|official] [--white human|computer]\n"
     "     [--black human|computer] [--level 1-8] [--fen F] [--time 5+3] [--plain] [--seed N]\n"
     "                           play in the terminal, against the computer or a friend"},
    {"hub", cmd_hub,
     "hub                      the Hub protocol (version 2) on stdin and stdout, for Hub\n"
     "                           GUIs, lidraughts-bot and pydraughts"},
    {"dxp", cmd_dxp,
     "dxp (--listen [ADDR:]PORT | --connect HOST:PORT) [--games N --time MIN --moves M]\n"
     "    [--fen F] [--variant V] [--level 1-8] [--pdn FILE]\n"
     "                           play engine against engine over DamExchange (DXP 01);\n"
     "                           with --games, propose the games (colours alternate)"},
    {"match", cmd_match,
     "match --engine SPEC --engine SPEC [--variant V] [--games N] [--nodes N | --tc 1+0.1]\n"
     "      [--concurrency K] [--openings FILE] [--pdn FILE] [--sprt ELO0,ELO1[,A,B]]\n"
     "                           engines against each other in colour-reversed pairs;\n"
     "                           SPEC: 'damier [level=N] [hash=MB] [name=X]' or 'hub:COMMAND'"},
    {"openings", cmd_openings,
     "openings --variant V [--count N] [--plies P] [--seed S]\n"
     "                           a balanced opening set for damier match"},
    {"pdn", cmd_pdn, "pdn check|convert [--variant V] [--to pdn|fen|json] FILE...\n"
     "                           replay PDN games; write them as PDN, FEN or JSON"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: damier COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %s\n", commands[i].usage);
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("damier: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

const dm_variant *cli_variant(const char *id)
{
    const dm_variant *v = dm_variant_by_id(id);
    if (!v)
        cli_error("unknown variant '%s' (see 'damier variants')", id);
    return v;
}

int cli_position(const dm_variant *v, const char *fen, dm_position *pos)
{
    dm_error err;
    if (!fen) {
        dm_position_start(v, pos);
        return 0;
    }
    if (dm_fen_parse(v, fen, pos, &err) == 0)
        return 0;
    cli_error("%s", err.msg);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(argv[1], commands[i].name) != 0)
            continue;
        for (int a = 2; a < argc; a++)
            if (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0) {
                printf("usage: damier %s\n", commands[i].usage);
                return 0;
            }
        return commands[i].run(argc - 2, argv + 2);
    }
    cli_error("unknown command '%s'", argv[1]);
    usage(stderr);
    return 2;
}
