/* SPDX-License-Identifier: MIT */
/*
 * damier/rules.h - the rules layer (src/rules): variants, positions, moves,
 * legal move generation, perft and the end of the game by the rules.
 *
 * A variant is an opaque rules record chosen by id ("international",
 * "russian", ...).  A position is a few words that are copied, never undone.
 * A move is one struct that keeps its whole route: the landing cell of every
 * jump and every captured cell, so that every notation can be written from
 * it.  Cells are the playing squares of the variant's board, numbered 0..n-1
 * from the top-left playing square, left to right, row by row downwards
 * (White sits at the bottom).
 */
#ifndef DAMIER_RULES_H
#define DAMIER_RULES_H

#include "damier/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- variants --------------------------------------------------------- */

typedef struct dm_variant dm_variant;

int dm_variant_count(void);
const dm_variant *dm_variant_at(int index);
const dm_variant *dm_variant_by_id(const char *id); /* NULL if unknown */

const char *dm_variant_id(const dm_variant *v);
const char *dm_variant_name(const dm_variant *v);
const char *dm_variant_summary(const dm_variant *v); /* one line */
const char *dm_variant_start_fen(const dm_variant *v);
int dm_variant_board_files(const dm_variant *v);
int dm_variant_board_ranks(const dm_variant *v);
int dm_variant_cells(const dm_variant *v);
bool dm_variant_is_numeric(const dm_variant *v); /* 32-28 rather than c3-d4 */
/* The rules record in words, one "field: value" line each; returns the
 * length it needed (as snprintf). */
int dm_variant_describe(const dm_variant *v, char *buf, size_t size);

/* ---- positions -------------------------------------------------------- */

typedef struct dm_position {
    dm_bits white;        /* cells holding a white piece                    */
    dm_bits black;        /* cells holding a black piece                    */
    dm_bits kings;        /* of those, the kings                            */
    dm_bits paras;        /* of those, the parachutists (Parachute only)    */
    uint8_t side;         /* enum dm_color: the side to move                */
    uint8_t king_cell[2]; /* Frisian: the king that made the last quiet     */
    uint8_t king_moves[2];/*   moves of each side, and how many (0: none)   */
} dm_position;

#define DM_NO_CELL 0xFF

/* The variant's start position. */
void dm_position_start(const dm_variant *v, dm_position *pos);
bool dm_position_equal(const dm_position *a, const dm_position *b);

/* ---- moves ------------------------------------------------------------ */

enum dm_move_flags {
    DM_MOVE_CAPTURE = 1,  /* jumps[] and captured[] hold the route        */
    DM_MOVE_PROMOTES = 2, /* the moving man ends the move as a king       */
    DM_MOVE_REMOVAL = 4,  /* Hawaiian opening: a man is taken off (from=to) */
};

typedef struct dm_move {
    dm_bits captured_set;            /* every captured cell                    */
    uint8_t from, to;                /* cells                                  */
    uint8_t njumps;                  /* 0 for a quiet move                     */
    uint8_t flags;                   /* enum dm_move_flags                     */
    uint8_t path[DM_MAX_JUMPS];      /* landing cell after each jump           */
    uint8_t captured[DM_MAX_JUMPS];  /* cell jumped over by each jump          */
} dm_move;

typedef struct dm_move_list {
    int count;
    dm_move moves[DM_MAX_MOVES];
} dm_move_list;

enum dm_gen_flags {
    DM_GEN_KEEP_DUPLICATES = 1, /* every capture route is its own move        */
    DM_GEN_REFERENCE = 2,       /* use the slow reference generator           */
    /* With KEEP_DUPLICATES: a king going on straight after a capture makes
     * one route per square it may touch between the two pieces (the
     * convention of some perft sources, e.g. Turkish's); reference only. */
    DM_GEN_EVERY_LANDING = 4,
};

/*
 * Fills list with the legal moves of pos.  Capture obligation and precedence
 * applied; routes with the same from, to and captured set merged into one
 * move unless DM_GEN_KEEP_DUPLICATES.  Returns the count, or -1 if the
 * position has more moves than DM_MAX_MOVES (list then holds the first ones).
 */
int dm_generate(const dm_variant *v, const dm_position *pos, dm_move_list *list,
                unsigned flags);

/* Plays a move produced by dm_generate for pos. */
void dm_make_move(const dm_variant *v, dm_position *pos, const dm_move *m);

bool dm_move_same(const dm_move *a, const dm_move *b); /* from, to, set, route */

/*
 * Counts the leaf nodes of the legal move tree to depth.  Uses the fast
 * generator of the variant when it has one (leaves counted without being
 * made), else the reference generator.
 */
uint64_t dm_perft(const dm_variant *v, const dm_position *pos, int depth, unsigned flags);

/* ---- game end --------------------------------------------------------- */

enum dm_outcome {
    DM_ONGOING = 0,
    DM_SIDE_TO_MOVE_LOSES, /* no move left, or the opponent got the first king */
    DM_SIDE_TO_MOVE_WINS,  /* giveaway variants: no move left                 */
};

/* The result of the position by the rules alone (no draw counters). */
enum dm_outcome dm_position_outcome(const dm_variant *v, const dm_position *pos);

/* ---- rule presets ------------------------------------------------------ */

/* The rule preset a game follows: the product's house rules, or the
 * federation's where they differ.  Only the draw rules differ. */
enum dm_rules { DM_RULES_DEFAULT = 0, DM_RULES_OFFICIAL = 1 };

const char *dm_rules_name(enum dm_rules rules);              /* "default", "official" */
int dm_rules_parse(const char *text, enum dm_rules *rules);  /* 0, or -1 if unknown */

/* ---- board geometry ---------------------------------------------------- */

/*
 * What a front end needs to draw the board of any variant, from the six
 * boards Damier has: the dark squares of 8x8, of the mirrored 8x8 (Italian,
 * Spanish, Portuguese), of 10x10 and 12x12; every square of the full 8x8
 * board (the orthogonal games); the points of the 5x5 alquerque grid.
 *
 * Coordinates.  The board has dm_variant_board_files() files and
 * dm_variant_board_ranks() ranks.  File 0 is file a and rank 0 is rank 1,
 * White's bottom left as White sees the board.  The drawing is a grid of
 * files x ranks units, column 0 at the left, row 0 at the top, White at the
 * bottom: a square fills unit (column, row), a point sits at that unit's
 * centre, and the lines of a grid join those centres.  A view from Black's
 * side is the caller's 180-degree turn: column' = files - 1 - column,
 * row' = ranks - 1 - row.
 *
 * Names.  A cell's name in the variant's notation ("32", "c3") belongs to
 * the notation layer: call dm_cell_name() (damier/notation.h) with the
 * cell.  The rules layer gives only files and ranks; the board's edge labels
 * are 'a' + file and rank + 1.
 *
 * Every function here takes a variant from dm_variant_by_id() or
 * dm_variant_at(), reads tables built once, and allocates nothing.
 */

enum dm_board_kind {
    DM_BOARD_DARK_SQUARES, /* cells are the dark squares of a checkered board */
    DM_BOARD_ALL_SQUARES,  /* every square is a cell                          */
    DM_BOARD_POINTS,       /* cells are the points where the grid's lines meet */
};

enum dm_board_kind dm_board_kind(const dm_variant *v);

/* The file and rank of a cell (0-based, from White's side), and its column
 * and row in the drawing (White at the bottom); -1 if cell is not one of
 * the variant's cells (0..dm_variant_cells() - 1). */
int dm_cell_file(const dm_variant *v, int cell);
int dm_cell_rank(const dm_variant *v, int cell);
int dm_cell_column(const dm_variant *v, int cell);
int dm_cell_row(const dm_variant *v, int cell);

/* The cell on square (file, rank), or -1 if that square is not a playing
 * square (a light square of the dark-square boards) or is off the board. */
int dm_square_cell(const dm_variant *v, int file, int rank);

/* Whether the square (file, rank) is shaded dark in the usual picture of
 * the board: on the dark-square boards exactly the playing squares; on the
 * full board and the point grid the squares or points whose file + rank is
 * even (a1 dark, as on a chessboard; on the grid these are the points the
 * diagonals pass through).  False off the board. */
bool dm_square_dark(const dm_variant *v, int file, int rank);

/* A segment of a grid's lines, between two neighbouring points (cells). */
typedef struct dm_board_line {
    uint8_t from, to; /* cells, from < to */
} dm_board_line;

#define DM_MAX_BOARD_LINES 56 /* the alquerque grid's */

/*
 * The lines a drawer draws between the points of a DM_BOARD_POINTS board:
 * each segment between neighbouring points once, orthogonal ones between
 * every two neighbours, diagonal ones only from the points where file +
 * rank is even (the alquerque pattern), ordered by from and then to.
 * The square boards have none (0).  Writes the first max of them (none if
 * max <= 0; lines may then be NULL) and returns how many the board has.
 */
int dm_board_lines(const dm_variant *v, dm_board_line *lines, int max);

#ifdef __cplusplus
}
#endif

#endif /* DAMIER_RULES_H */
