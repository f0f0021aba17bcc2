/* SPDX-License-Identifier: MIT */
/*
 * board.c - the board geometry of the public API (damier/rules.h, "board
 * geometry"): what a front end needs to draw any variant's board.
 *
 * Each function reads the variant's geometry (geometry.c), built once, and
 * checks its arguments, so that a drawer may ask about any file, rank or
 * cell and get -1 or false for one the board does not have.  They run once
 * per square per redraw at most: small lookups, nothing allocated.
 */
#include "rules/variant.h"

static bool is_cell(const struct geometry *g, int cell)
{
    return cell >= 0 && cell < g->ncells;
}

static bool on_board(const struct geometry *g, int file, int rank)
{
    return file >= 0 && file < g->files && rank >= 0 && rank < g->ranks;
}

enum dm_board_kind dm_board_kind(const dm_variant *v)
{
    return v->geo->kind;
}

int dm_cell_file(const dm_variant *v, int cell)
{
    return is_cell(v->geo, cell) ? v->geo->file_of[cell] : -1;
}

int dm_cell_rank(const dm_variant *v, int cell)
{
    return is_cell(v->geo, cell) ? v->geo->rank_of[cell] : -1;
}

int dm_cell_column(const dm_variant *v, int cell)
{
    return dm_cell_file(v, cell);
}

int dm_cell_row(const dm_variant *v, int cell)
{
    return is_cell(v->geo, cell) ? v->geo->ranks - 1 - v->geo->rank_of[cell] : -1;
}

int dm_square_cell(const dm_variant *v, int file, int rank)
{
    return on_board(v->geo, file, rank) ? v->geo->cell_at[rank][file] : -1;
}

bool dm_square_dark(const dm_variant *v, int file, int rank)
{
    const struct geometry *g = v->geo;
    if (!on_board(g, file, rank))
        return false;
    if (g->kind == DM_BOARD_DARK_SQUARES)
        return g->cell_at[rank][file] >= 0;
    return (file + rank) % 2 == 0;
}

int dm_board_lines(const dm_variant *v, dm_board_line *lines, int max)
{
    const struct geometry *g = v->geo;
    for (int i = 0; i < g->nlines && i < max; i++)
        lines[i] = g->lines[i];
    return g->nlines;
}
