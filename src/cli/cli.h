/* SPDX-License-Identifier: MIT */
/*
 * cli.h - the subcommands of the damier multi-tool.
 *
 * Each command takes the arguments after its name and returns the process
 * exit status: CLI_OK done, CLI_BAD_INPUT bad input (an error line on stderr
 * naming it), CLI_USAGE bad usage (an unknown option, a missing value).
 * main.c prints each command's help, so a command never sees -h or --help.
 */
#ifndef DM_CLI_CLI_H
#define DM_CLI_CLI_H

#include "damier.h"

enum { CLI_OK = 0, CLI_BAD_INPUT = 1, CLI_USAGE = 2 };

int cmd_variants(int argc, char **argv);
int cmd_moves(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_bench_search(int argc, char **argv); /* bench search (cmd_search.c) */
int cmd_play(int argc, char **argv);
int cmd_pdn(int argc, char **argv);
int cmd_hub(int argc, char **argv);  /* cmd_proto.c */
int cmd_dxp(int argc, char **argv);  /* cmd_proto.c */
int cmd_match(int argc, char **argv);    /* cmd_match.c */
int cmd_openings(int argc, char **argv); /* cmd_match.c */
int cmd_analyse(int argc, char **argv); /* cmd_analyse.c */
int cmd_book(int argc, char **argv);    /* cmd_book.c */
int cmd_serve(int argc, char **argv);   /* cmd_serve.c: the web server */
int cmd_egdb(int argc, char **argv);    /* cmd_egdb.c: the endgame tables */

/* Helpers shared by the commands. */
const dm_variant *cli_variant(const char *id);           /* error line if unknown */
int cli_position(const dm_variant *v, const char *fen, dm_position *pos); /* 0 or 1 */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* text with control characters and broken UTF-8 escaped (base/text.h), cut
 * after 256 bytes, for quoting input in a message; the buffer is reused by
 * the fourth call after. */
const char *cli_quote(const char *text);
/* Reads text as a whole number from min to max into *out; 0, or -1 after
 * "COMMAND: OPTION is a number from MIN to MAX, not 'TEXT'". */
int cli_number(const char *command, const char *option, const char *text, int min, int max,
               int *out);
/* "COMMAND: unknown option 'OPTION'" on stderr; returns CLI_USAGE. */
int cli_unknown_option(const char *command, const char *option);

#endif
