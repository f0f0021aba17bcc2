/* SPDX-License-Identifier: MIT */
/*
 * json.h - the JSON forms of docs/json.md (square, move, position) built as
 * jansson values, for the web server's answers.  The command line writes
 * the same forms to a stream (src/cli/json.c); this is the server's own
 * copy, since a front end does not link another front end.  A change to a
 * form changes docs/json.md and both writers together.
 */
#ifndef DM_SERVER_JSON_H
#define DM_SERVER_JSON_H

#include <jansson.h>

#include "damier.h"

/* A square: the cell's name as a JSON string ("32", "c3"). */
json_t *sj_cell(const dm_variant *v, int cell);
/* A move: notation, from, to, path, captures, promotes. */
json_t *sj_move(const dm_variant *v, const dm_move *m, const char *notation);
/* A position: fen, side, pieces. */
json_t *sj_position(const dm_variant *v, const dm_position *pos);
/* {"error": msg}. */
json_t *sj_error(const char *msg);

#endif
