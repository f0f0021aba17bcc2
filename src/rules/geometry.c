/* SPDX-License-Identifier: MIT */
/*
 * geometry.c - the six boards, built once from their shape.
 *
 * Each geometry is derived from a predicate "is (file, rank) a cell" and the
 * step vector of each direction; the tables are filled on first use and never
 * change afterwards.  The point grid also gets its lines, for drawers.
 */
#include "rules/geometry.h"

#include <pthread.h>
#include <stdbool.h>
#include <string.h>

const uint8_t dir_opposite[DIR_COUNT] = {
    [DIR_NE] = DIR_SW, [DIR_NW] = DIR_SE, [DIR_SE] = DIR_NW, [DIR_SW] = DIR_NE,
    [DIR_N] = DIR_S,   [DIR_S] = DIR_N,   [DIR_E] = DIR_W,   [DIR_W] = DIR_E,
};

const uint8_t dir_flip_vertical[DIR_COUNT] = {
    [DIR_NE] = DIR_SE, [DIR_NW] = DIR_SW, [DIR_SE] = DIR_NE, [DIR_SW] = DIR_NW,
    [DIR_N] = DIR_S,   [DIR_S] = DIR_N,   [DIR_E] = DIR_E,   [DIR_W] = DIR_W,
};

uint8_t dirs_flip_vertical(uint8_t dirs)
{
    uint8_t out = 0;
    for (int d = 0; d < DIR_COUNT; d++)
        if (dirs & DIRBIT(d))
            out |= (uint8_t)DIRBIT(dir_flip_vertical[d]);
    return out;
}

struct shape {
    const char *name;
    int size;
    int parity;              /* cells where (file + rank) % 2 == parity; -1: all */
    int orth_step;           /* board squares per orthogonal step               */
    enum dm_board_kind kind; /* points: diagonals only through even points      */
};

static const struct shape shapes[GEOM_COUNT] = {
    [GEOM_D8] = {"8x8", 8, 0, 2, DM_BOARD_DARK_SQUARES},
    [GEOM_M8] = {"8x8 mirrored", 8, 1, 2, DM_BOARD_DARK_SQUARES},
    [GEOM_D10] = {"10x10", 10, 0, 2, DM_BOARD_DARK_SQUARES},
    [GEOM_D12] = {"12x12", 12, 0, 2, DM_BOARD_DARK_SQUARES},
    [GEOM_F8] = {"8x8 full", 8, -1, 1, DM_BOARD_ALL_SQUARES},
    [GEOM_Q5] = {"5x5 points", 5, -1, 1, DM_BOARD_POINTS},
};

static struct geometry geometries[GEOM_COUNT];
static pthread_once_t geometries_once = PTHREAD_ONCE_INIT;

static bool is_cell(const struct shape *s, int file, int rank)
{
    if (file < 0 || rank < 0 || file >= s->size || rank >= s->size)
        return false;
    return s->parity < 0 || (file + rank) % 2 == s->parity;
}

/* The grid's lines are its links: from each point, the ones to higher
 * numbered points (east, then south-west, south, south-east: increasing
 * numbers on a grid numbered row by row downwards), so each once. */
static void build_lines(struct geometry *g)
{
    static const uint8_t later[] = {DIR_E, DIR_SW, DIR_S, DIR_SE};
    for (int c = 0; c < g->ncells; c++)
        for (size_t i = 0; i < sizeof later; i++) {
            int to = g->next[c][later[i]];
            if (to >= 0 && g->nlines < DM_MAX_BOARD_LINES)
                g->lines[g->nlines++] = (dm_board_line){(uint8_t)c, (uint8_t)to};
        }
}

static void build(enum geometry_id id)
{
    const struct shape *s = &shapes[id];
    struct geometry *g = &geometries[id];
    static const int8_t df[DIR_COUNT] = {1, -1, 1, -1, 0, 0, 1, -1};
    static const int8_t dr[DIR_COUNT] = {1, 1, -1, -1, 1, -1, 0, 0};

    memset(g, 0, sizeof *g);
    memset(g->cell_at, -1, sizeof g->cell_at);
    g->id = id;
    g->name = s->name;
    g->files = g->ranks = s->size;
    for (int rank = s->size - 1; rank >= 0; rank--)
        for (int file = 0; file < s->size; file++)
            if (is_cell(s, file, rank)) {
                int c = g->ncells++;
                g->file_of[c] = (int8_t)file;
                g->rank_of[c] = (int8_t)rank;
                g->cell_at[rank][file] = (int8_t)c;
                g->all |= ((dm_bits)1 << c);
                g->rank_bb[rank] |= ((dm_bits)1 << c);
            }
    for (int c = 0; c < g->ncells; c++)
        for (int d = 0; d < DIR_COUNT; d++) {
            int step = d >= DIR_N ? s->orth_step : 1;
            int f = g->file_of[c] + df[d] * step, r = g->rank_of[c] + dr[d] * step;
            bool linked = is_cell(s, f, r);
            if (s->kind == DM_BOARD_POINTS && d < DIR_N && (g->file_of[c] + g->rank_of[c]) % 2 != 0)
                linked = false; /* alquerque diagonals pass only through even points */
            g->next[c][d] = linked ? g->cell_at[r][f] : -1;
        }
    g->kind = s->kind;
    if (g->kind == DM_BOARD_POINTS)
        build_lines(g);
}

static void build_all(void)
{
    for (int id = 0; id < GEOM_COUNT; id++)
        build((enum geometry_id)id);
}

const struct geometry *geometry_get(enum geometry_id id)
{
    pthread_once(&geometries_once, build_all);
    return &geometries[id];
}
