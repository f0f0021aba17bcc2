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
    {"pdn", cmd_pdn, "pdn check|convert [--variant V] [--to pdn|fen|json] FILE...\n"
     "                           replay PDN games; write them as PDN, FEN or JSON"},
    {"analyse", cmd_analyse,
     "analyse [--variant V] [--fen F] [--moves M] [--time S | --depth D | --nodes N]\n"
     "        [--multipv K]      a line per iteration, then the best move; defaults:\n"
     "                           international, its start, 5 seconds; scores in men\n"
     "                           (+0.25), decided: win-in-N/loss-in-N plies (half-moves)"},
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
