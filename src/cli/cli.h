/* SPDX-License-Identifier: MIT */
/*
 * cli.h - the subcommands of the damier multi-tool.
 *
 * Each command takes the arguments after its name and returns the process
 * exit status: 0 done, 1 bad input (one error line on stderr), 2 bad usage.
 */
#ifndef DM_CLI_CLI_H
#define DM_CLI_CLI_H

#include "damier.h"

int cmd_variants(int argc, char **argv);
int cmd_moves(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_bench_search(int argc, char **argv); /* bench search (cmd_search.c) */
int cmd_play(int argc, char **argv);
int cmd_pdn(int argc, char **argv);
int cmd_analyse(int argc, char **argv); /* cmd_analyse.c */

/* Helpers shared by the commands. */
const dm_variant *cli_variant(const char *id);           /* error line if unknown */
int cli_position(const dm_variant *v, const char *fen, dm_position *pos); /* 0 or 1 */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
