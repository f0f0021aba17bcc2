/* SPDX-License-Identifier: MIT */
/*
 * tui.h - play in the terminal: the session (play.c), the board drawings
 * (board.c), the raw terminal (term.c), PDN files (files.c) and the
 * computer player (computer.c, on the engine).
 *
 * A session is one game between two players, each a person at the keyboard
 * or the computer, with an optional clock.  Two front ends share it: the
 * full-screen one (ANSI colour, Unicode pieces, 80x24, live clocks) and the
 * plain one (a text board after each move, one command a line), which a
 * script can drive through a pipe.
 */
#ifndef DM_TUI_TUI_H
#define DM_TUI_TUI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "damier.h"

struct tui_options {
    const dm_variant *variant;
    enum dm_rules rules;
    const char *fen;      /* NULL: the start position */
    bool computer[2];     /* per colour: the computer plays it */
    int level;            /* computer strength, 1 to TUI_LEVEL_MAX */
    dm_time_control time; /* kind DM_CLOCK_NONE: no clock */
    bool plain;           /* line mode even on a terminal */
    uint64_t seed;        /* the computer's random choices */
};

/* Plays the session to its end (quit, or end of input).  Returns the exit
 * status: 0, or 1 if the position or a file could not be used. */
int tui_play(const struct tui_options *o);

/* ---- board.c ------------------------------------------------------------ */

/* The plain text board: one row per rank, w b for men, W B for kings, p q
 * for parachutists (White, Black), '.' an empty playing square, file letters under it and, for
 * numeric variants, the square numbers of each row beside it.  flipped: seen from Black's side.
 * Returns the length written (truncated to size). */
size_t tui_board_text(const dm_variant *v, const dm_position *pos, bool flipped, char *buf,
                      size_t size);

/* The full-screen board, one string per screen row (at most
 * TUI_BOARD_ROWS, each at most TUI_BOARD_COLS columns wide), into rows[];
 * last (may be NULL) is marked.  With colour: ANSI colours (a wooden board,
 * the last move in gold) and the filled pieces ● ♛ P of either side.
 * Without: no escape sequence at all; White ○ ♕ ◇, Black ● ♛ ◆ (man, king,
 * parachutist), · an empty square, [ ] around a cell of the last move.
 * A point grid (alquerque) is drawn as its points joined by its lines.
 * Returns the number of rows. */
#define TUI_BOARD_ROWS 14
#define TUI_BOARD_COLS 47
#define TUI_ROW_BYTES  1024
int tui_board_screen(const dm_variant *v, const dm_position *pos, const dm_move *last, bool flipped,
                     bool colour, char rows[][TUI_ROW_BYTES]);

/* ---- computer.c ---------------------------------------------------------- */

#define TUI_LEVEL_HINT 0 /* not a player: the short search behind a hint */
#define TUI_LEVEL_MAX  8

/* The move the computer chooses at level (1..TUI_LEVEL_MAX, or
 * TUI_LEVEL_HINT) in the current position of g: its index in
 * dm_game_legal(g), which must not be empty.  clock (NULL: none) is the
 * game's clock, whose time the search keeps within; *rng is advanced. */
int tui_computer_move(const dm_game *g, const dm_clock *clock, int level, uint64_t *rng);

/* Whether the computer, playing color, accepts a draw in the current
 * position of g: unless its search finds it clearly better. */
bool tui_computer_accepts_draw(const dm_game *g, int color);

/* ---- files.c --------------------------------------------------------------- */

/* Writes the game as PDN to path, the players named white and black.
 * Returns 0, or -1 with err filled. */
int tui_save_pdn(const dm_game *g, const char *path, const char *white, const char *black,
                 dm_error *err);

/* Reads the first game of the PDN file at path (games without a variant tag
 * are taken as fallback's) and replays it as a new game under rules (or
 * those of its Rules tag); *result gets the result the file gives.  Returns
 * the game, or NULL with err filled. */
dm_game *tui_load_pdn(const char *path, const dm_variant *fallback, enum dm_rules rules,
                      enum dm_pdn_result *result, dm_error *err);

/* ---- term.c ---------------------------------------------------------------- */

/* Puts the terminal in raw mode on the alternate screen, and back; the state
 * is restored at exit and on SIGINT, SIGTERM, SIGHUP too. */
bool tui_term_enter(void);
void tui_term_leave(void);

/* The next byte typed within timeout_ms: the byte, TUI_KEY_NONE on time-out,
 * TUI_KEY_EOF at the end of input. */
#define TUI_KEY_NONE (-1)
#define TUI_KEY_EOF  (-2)
int tui_term_key(int timeout_ms);

/* The terminal's size (80x24 if it cannot tell). */
void tui_term_size(int *cols, int *rows);

/* Whether to use ANSI colour: not when NO_COLOR is set to anything but ""
 * (no-color.org), nor on a dumb terminal (TERM unset, empty or "dumb"). */
bool tui_term_colour(void);

/* Whether the full screen can be used: standard input and output are
 * terminals, and not a dumb one (which gets the plain line mode). */
bool tui_term_full_screen(void);

#endif
