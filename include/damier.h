/* SPDX-License-Identifier: MIT */
/*
 * damier.h - the public C API of Damier, a draughts and checkers system.
 *
 * A variant is an opaque rules record chosen by id ("international",
 * "russian", ...).  A position is a few words that are copied, never undone.
 * A move is one struct that keeps its whole route: the landing cell of every
 * jump and every captured cell, so that every notation can be written from
 * it.  Cells are the playing squares of the variant's board, numbered 0..n-1
 * from the top-left playing square, left to right, row by row downwards
 * (White sits at the bottom).  Notation converts cells to the names a player
 * reads: numbers (32-28) or algebraic squares (c3-d4).
 */
#ifndef DAMIER_H
#define DAMIER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- sizes ------------------------------------------------------------ */

#define DM_MAX_CELLS 72    /* 12x12 dark squares                          */
#define DM_MAX_JUMPS 32    /* longest capture sequence of any variant     */
#define DM_MAX_MOVES 1024  /* legal moves of one position, routes kept    */

/* A set of cells: bit i is cell i. */
typedef unsigned __int128 dm_bits;

enum dm_color { DM_WHITE = 0, DM_BLACK = 1 };

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

/* ---- notation --------------------------------------------------------- */

/* A clear one-line message naming the offending token and why. */
typedef struct dm_error {
    char msg[200];
} dm_error;

/* The name of a cell: "32" or "c3". */
void dm_cell_name(const dm_variant *v, int cell, char *buf, size_t size);
/* The cell named by text (number or algebraic), or -1. */
int dm_cell_parse(const dm_variant *v, const char *text, size_t len);

/* Reads a FEN in the variant's notation ("W:W31-50:B1-20", "W:Wa1,c1:Bh8",
 * kings prefixed K, parachutists P, lidraughts :H..:F.. accepted).
 * Returns 0, or -1 with err filled. */
int dm_fen_parse(const dm_variant *v, const char *fen, dm_position *pos, dm_error *err);
/* Writes the FEN; returns the length written (truncated to size). */
int dm_fen_format(const dm_variant *v, const dm_position *pos, char *buf, size_t size);

/* Writes m in the variant's notation: the short form from-to (32-28, 26x37,
 * c3:e5), the whole route when another legal move shares from and to.
 * legal is the list m came from (NULL: always the short form). */
void dm_move_format(const dm_variant *v, const dm_move *m, const dm_move_list *legal,
                    char *buf, size_t size);
/* Finds the legal move meant by text: any separator (- x :), from and to
 * alone when unambiguous, or a route with some or all landing squares.
 * Returns its index in legal, or -1 with err filled. */
int dm_move_parse(const dm_variant *v, const dm_move_list *legal, const char *text,
                  dm_error *err);

/* ---- games: moves, takebacks, results, draw rules, clocks (src/game) ---- */

/* ---- PDN 3.0 games (src/notation/pdn.c) -------------------------------- */

#ifdef __cplusplus
}
#endif

#endif /* DAMIER_H */
