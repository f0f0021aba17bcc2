/* SPDX-License-Identifier: MIT */
/*
 * notation.h - what the notation modules share beyond the public API.
 */
#ifndef DM_NOTATION_NOTATION_H
#define DM_NOTATION_NOTATION_H

#include "damier/notation.h"

/* The rank of a cell in the order squares are listed in FEN. */
int notation_cell_order(const dm_variant *v, int cell);

/* Whether a game can be played from pos, whatever form it came in (form
 * names it in the message: "FEN", "Hub position").  0, or -1 with err
 * filled. */
int notation_check_position(const dm_variant *v, const dm_position *pos, const char *form,
                            dm_error *err);

#endif
