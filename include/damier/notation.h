/* SPDX-License-Identifier: MIT */
/*
 * damier/notation.h - the notation layer (src/notation): square names, FEN,
 * move text and PDN 3.0 games.  Notation converts cells to the names a
 * player reads: numbers (32-28) or algebraic squares (c3-d4).
 */
#ifndef DAMIER_NOTATION_H
#define DAMIER_NOTATION_H

#include "damier/rules.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- squares, FEN and move text (src/notation) ------------------------ */

/* The name of a cell: "32" or "c3". */
void dm_cell_name(const dm_variant *v, int cell, char *buf, size_t size);
/* The cell named by text (number or algebraic), or -1. */
int dm_cell_parse(const dm_variant *v, const char *text, size_t len);

/* Reads a FEN in the variant's notation ("W:W31-50:B1-20", "W:Wa1,c1:Bh8",
 * kings prefixed K, parachutists P, lidraughts :H..:F.. accepted).  A
 * position no game can reach is refused: a man on its promotion row, or a
 * side with more pieces than the start position gives it.
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
 * Returns its index in legal, or a negative enum dm_parse_status with err
 * filled. */
enum dm_parse_status {
    DM_PARSE_MALFORMED = -1, /* not squares joined by separators, or no such square */
    DM_PARSE_ILLEGAL = -2,   /* well formed, but no legal move matches           */
    DM_PARSE_AMBIGUOUS = -3, /* several legal moves match                        */
};
int dm_move_parse(const dm_variant *v, const dm_move_list *legal, const char *text,
                  dm_error *err);

/* ---- PDN 3.0 games (src/notation/pdn.c) -------------------------------- */

/*
 * A game as PDN 3.0 stores it: tag pairs, a start position, the moves and a
 * result.  The reader is lenient (any encoding it can recognise, comments,
 * variations, NAGs, move numbers, x or : captures, games without tags); the
 * writer is strict (the seven-tag roster, GameType, FEN only when needed,
 * short move text unless ambiguous, the variant's result style, lines of at
 * most 80 characters).  Variations are read for their syntax and dropped.
 */

#define DM_PDN_MOVE_TEXT 144 /* a 32-jump route of 3-character squares fits */

enum dm_pdn_result {
    DM_PDN_UNFINISHED = 0, /* "*": unknown or not over                 */
    DM_PDN_WHITE_WINS,     /* "2-0", "1-0"                              */
    DM_PDN_BLACK_WINS,     /* "0-2", "0-1"                              */
    DM_PDN_DRAW,           /* "1-1", "1/2-1/2"                          */
    DM_PDN_BOTH_LOSE,      /* "0-0": both players forfeit               */
};

typedef struct dm_pdn_tag {
    char *name;  /* "Event"                                              */
    char *value; /* UTF-8, without the quotes or escapes                 */
} dm_pdn_tag;

typedef struct dm_pdn_move {
    dm_move move;                /* as dm_generate made it              */
    char text[DM_PDN_MOVE_TEXT]; /* the variant's notation, whole route
                                    when another legal move shares ends */
    char mark[8];                /* strength as written: "!", "?!", ""  */
    int nag;                     /* first $n glyph after it, 0 if none  */
    char *comment;               /* the comments after it, or NULL      */
} dm_pdn_move;

typedef struct dm_pdn_game {
    const dm_variant *variant;
    dm_position start;           /* before the first move               */
    dm_position end;             /* after the last move                 */
    dm_pdn_tag *tags;            /* in file order; Result, GameType, FEN,
                                    SetUp and Variant as read           */
    int ntags;
    dm_pdn_move *moves;
    int nmoves;
    enum dm_pdn_result result;
    char *comment;               /* before the first move, or NULL      */
    bool variant_guessed;        /* reader: no tag named the variant    */
    int number;                  /* reader: 1 for the first game        */
    int line;                    /* reader: where the game starts       */
    int error_line;              /* reader: 0, or where it went wrong   */
    char error[200];             /* reader: the reason, or ""           */
    int tags_cap, moves_cap;     /* allocation; not for the caller      */
} dm_pdn_game;

/* An empty game of v from start (NULL: the variant's start position), to
 * be freed with dm_pdn_game_free. */
void dm_pdn_game_init(dm_pdn_game *g, const dm_variant *v, const dm_position *start);
/* Frees what the game holds and leaves it zeroed (variant NULL). */
void dm_pdn_game_free(dm_pdn_game *g);
/* The value of the first tag of that name (case-sensitive), or NULL. */
const char *dm_pdn_game_tag(const dm_pdn_game *g, const char *name);
/* Sets the tag (replacing the first of that name); 0, or -1 out of memory. */
int dm_pdn_game_set_tag(dm_pdn_game *g, const char *name, const char *value);
/* Plays m at g->end after checking it is legal there, keeping its text and a
 * copy of comment (may be NULL).  Returns 0, or -1 with err filled. */
int dm_pdn_game_add_move(dm_pdn_game *g, const dm_move *m, const char *comment,
                         dm_error *err);

/* "2-0" or "1-0" and so on in the variant's style: the international one
 * on 10x10 and 12x12 boards, the default one elsewhere. */
const char *dm_pdn_result_text(const dm_variant *v, enum dm_pdn_result r);

typedef struct dm_pdn_options {
    /* For games whose tags name no variant: NULL reads them as international
     * (the PDN 3.0 default). */
    const dm_variant *variant;
    /* For games whose tags name no variant and when variant is NULL: try the
     * variants that have a PDN GameType number one by one (those of the
     * notation the moves use first, the last one guessed before all) and
     * keep the first that replays the whole game; with no move to go by,
     * that is the first whose FEN reads.  g->variant_guessed says so. */
    bool guess_variant;
} dm_pdn_options;

typedef struct dm_pdn_reader dm_pdn_reader;

/* A reader of the PDN text data[0..size), copied and turned into UTF-8
 * (each line that is not valid UTF-8 is read as Windows-1252, the superset
 * of Latin-1, or as Windows-1251 when the non-ASCII bytes of such lines form
 * Cyrillic words).  opt may be NULL.  NULL if size is over 1 GiB or out of
 * memory. */
dm_pdn_reader *dm_pdn_reader_new(const char *data, size_t size, const dm_pdn_options *opt);
void dm_pdn_reader_free(dm_pdn_reader *r);

/*
 * Reads the next game into g, freeing what g held (g must be zeroed or hold
 * a game), and replays its moves.  Returns 1 for a good game, 0 when no game
 * is left, -1 for a game with an error: g then holds what was read up to the
 * error (its variant is NULL if the tags name one Damier does not play),
 * g->error_line and g->error say where and why, and err->msg names the game
 * ("game 3 (White - Black), line 41: ...").  The next call goes on with the
 * next game.  When the movetext's result and the Result tag differ, the
 * movetext's counts.
 */
int dm_pdn_read(dm_pdn_reader *r, dm_pdn_game *g, dm_error *err);

/* The label of a game in messages: "game 3 (White - Black)", or the event
 * when the players are unknown. */
void dm_pdn_game_label(const dm_pdn_game *g, char *buf, size_t size);

/* The game as PDN 3.0 text ending in a newline, malloc'ed (free it), or NULL
 * with err filled if a move is not legal where it stands or out of memory.
 * Captures take the separator of the GameType table (':' for Russian, 'x'
 * for the others). */
char *dm_pdn_write(const dm_pdn_game *g, dm_error *err);

/* ---- wire forms: Hub and DXP (src/notation/wire.c) ---------------------- */

/*
 * The engine protocols name squares by number only: the variant's own
 * square numbers where it has them, and for an algebraic variant the
 * number counted from the top-left playing square, as PDN allows (on 8x8,
 * 1 = b8 ... 32 = g1).  A Hub position is the side to move ('W' or 'B')
 * then one letter per square in number order: 'w' 'b' men, 'W' 'B' kings,
 * 'p' 'q' parachutists (White, Black), 'e' empty.  A Hub move is from-to,
 * or for a capture from x to x each captured square (in any order, no
 * landing squares); a Hawaiian removal is its square alone.
 */
int dm_cell_number(const dm_variant *v, int cell);
int dm_cell_of_number(const dm_variant *v, int number); /* -1 if off the board */

#define DM_HUB_POSITION_SIZE (DM_MAX_CELLS + 2) /* letters and the NUL */
#define DM_HUB_MOVE_SIZE     (4 * (DM_MAX_JUMPS + 2))

/* Writes the Hub position of pos; returns its length. */
int dm_hub_position_format(const dm_variant *v, const dm_position *pos, char *buf, size_t size);
/* Reads a Hub position; 0, or -1 with err naming the letter or length at
 * fault.  A game must be playable from it, as from a FEN. */
int dm_hub_position_parse(const dm_variant *v, const char *text, dm_position *pos, dm_error *err);

void dm_hub_move_format(const dm_variant *v, const dm_move *m, char *buf, size_t size);
/* The legal move a Hub move names: its index in legal, or a negative enum
 * dm_parse_status with err filled.  Where the captured set does not tell
 * two legal moves apart (duplicate routes kept), the first is taken: they
 * reach the same position. */
int dm_hub_move_parse(const dm_variant *v, const dm_move_list *legal, const char *text,
                      dm_error *err);

/* The first legal move from from to to that captures exactly captured (a
 * DXP move's signature; 0 for a quiet move): its index, or -1. */
int dm_move_find(const dm_move_list *legal, int from, int to, dm_bits captured);

#ifdef __cplusplus
}
#endif

#endif /* DAMIER_NOTATION_H */
