/* SPDX-License-Identifier: MIT */
/*
 * json.h - the JSON forms of a move, a position and a failed input, written
 * once for every command that writes JSON (docs/json.md is their contract;
 * the web server writes the same forms).
 */
#ifndef DM_CLI_JSON_H
#define DM_CLI_JSON_H

#include <stdio.h>

#include "damier.h"

/* s as a JSON string: quotes, backslashes and control characters escaped,
 * bytes that are not valid UTF-8 written as U+FFFD. */
void json_quoted(FILE *out, const char *s);

/* A square: always a string, in the variant's own notation ("32", "c3"). */
void json_cell(FILE *out, const dm_variant *v, int cell);

/* A move: {"notation","from","to","path","captures","promotes"}, and
 * "comment" when comment is not NULL (game records). */
void json_move(FILE *out, const dm_variant *v, const dm_move *m, const char *notation,
               const char *comment);

/* A position: {"fen","side","pieces":[{"square","color","kind"}...]}. */
void json_position(FILE *out, const dm_variant *v, const dm_position *pos);

/* One input that failed, as a whole line (newline included, flushed):
 * {"file","game","line","input","error"}, the fields that are NULL or 0
 * left out. */
void json_error(FILE *out, const char *file, int game, int line, const char *input,
                const char *error);

#endif
