/* SPDX-License-Identifier: MIT */
/*
 * geometry.h - boards as cell graphs.
 *
 * A geometry lists the cells of a board (the playing squares, or the points of
 * the alquerque grid) and, for each cell and each of eight directions, the
 * next cell in that direction.  On the dark-square boards an orthogonal step
 * skips the light square between (Frisian: e5 -> e7); on the full board it is
 * one square.  Cells are numbered from the top-left cell, left to right, row
 * by row downwards, so cell + 1 is the FMJD square number (FMJD rules 8.1;
 * WCDF numbers 8x8 the same way).  The public face of these tables, for
 * drawers, is the "board geometry" section of damier/rules.h (board.c).
 */
#ifndef DM_RULES_GEOMETRY_H
#define DM_RULES_GEOMETRY_H

#include <stdint.h>

#include "damier/rules.h"

enum geometry_id {
    GEOM_D8,  /* 8x8, dark squares, a1 playing             */
    GEOM_M8,  /* 8x8, dark squares, h1 playing (mirrored)  */
    GEOM_D10, /* 10x10, dark squares                       */
    GEOM_D12, /* 12x12, dark squares                       */
    GEOM_F8,  /* 8x8, all 64 squares                       */
    GEOM_Q5,  /* 5x5 alquerque points                      */
    GEOM_COUNT
};

/* Directions, seen from White's side: north is towards rank 8 (10, 12). */
enum dir {
    DIR_NE, DIR_NW, DIR_SE, DIR_SW, /* diagonals   */
    DIR_N, DIR_S, DIR_E, DIR_W,     /* orthogonals */
    DIR_COUNT
};

#define DIRS_DIAG 0x0Fu
#define DIRS_ORTH 0xF0u
#define DIRS_ALL 0xFFu
#define DIRBIT(d) (1u << (d))

/* The direction pointing the other way, and the one mirrored north/south. */
extern const uint8_t dir_opposite[DIR_COUNT];
extern const uint8_t dir_flip_vertical[DIR_COUNT];

struct geometry {
    enum geometry_id id;
    const char *name;                      /* "8x8", "10x10", ...             */
    int files, ranks;
    int ncells;
    int8_t file_of[DM_MAX_CELLS];          /* 0 = file a                      */
    int8_t rank_of[DM_MAX_CELLS];          /* 0 = rank 1                      */
    int8_t cell_at[12][12];                /* [rank][file] -> cell, or -1     */
    int8_t next[DM_MAX_CELLS][DIR_COUNT];  /* neighbour cell, or -1           */
    dm_bits all;                           /* every cell                      */
    dm_bits rank_bb[12];                   /* the cells of each rank          */
    enum dm_board_kind kind;               /* squares or points, for drawers  */
    int nlines;                            /* the grid's lines (points only)  */
    dm_board_line lines[DM_MAX_BOARD_LINES];
};

const struct geometry *geometry_get(enum geometry_id id);

/* Flips a direction mask north/south (a White direction set -> Black's). */
uint8_t dirs_flip_vertical(uint8_t dirs);

#endif
