/* SPDX-License-Identifier: MIT */
/*
 * tui.h - play in the terminal: the session (play.c), the board drawings
 * (board.c), the raw terminal (term.c) and PDN files (files.c).
 *
 * A session is one match of the play layer (src/play) between two seats,
 * each a person at the keyboard or the computer, with an optional clock.
 * Two front ends share it: the full-screen one (ANSI colour, Unicode
 * pieces, 80x24, live clocks) and the plain one (a text board after each
 * move, one command a line, each output line flushed), which a script can
 * drive through a pipe.
 */
#ifndef DM_TUI_TUI_H
#define DM_TUI_TUI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "damier.h"

struct tui_options {
    dm_match_options match; /* variant, rules, FEN, time control, seats, seed */
    bool plain;             /* line mode even on a terminal */
};

/* Plays the session to its end (quit, or end of input).  Returns the exit
 * status: 0, or 1 if the match could not be made (a bad position). */
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

/* ---- files.c --------------------------------------------------------------- */

/* Writes the match as PDN (dm_match_write_pdn) to path.  Returns 0, or -1
 * with err filled. */
int tui_save_pdn(const dm_match *m, const char *path, dm_error *err);

/* Reads the first game of the PDN file at path as a new match
 * (dm_match_read_pdn): o gives the seats, and the variant and rules of a
 * file that names none.  Returns the match, or NULL with err filled. */
dm_match *tui_load_pdn(const char *path, const dm_match_options *o, dm_error *err);

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
