/* SPDX-License-Identifier: MIT */
/*
 * damier/game.h - the game layer (src/game): a game record with its
 * takebacks, results and draw rules, and chess clocks.
 */
#ifndef DAMIER_GAME_H
#define DAMIER_GAME_H

#include "damier/notation.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- games: moves, takebacks, results, draw rules, clocks (src/game) ---- */

enum dm_result { DM_RESULT_NONE = 0, DM_RESULT_WHITE_WINS, DM_RESULT_BLACK_WINS, DM_RESULT_DRAW };

/* How a game ended. */
enum dm_end {
    DM_END_NONE = 0,    /* still on                                             */
    DM_END_NO_MOVE,     /* the side to move cannot move: it loses (giveaway: wins) */
    DM_END_FIRST_KING,  /* Breakthrough: a side has crowned a king              */
    DM_END_REPETITION,  /* the same position for the N-th time                  */
    DM_END_DRAW_RULE,   /* a draw counter ran out; dm_game_reason names it      */
    DM_END_RESIGNATION,
    DM_END_AGREEMENT,   /* a draw offered and accepted                          */
    DM_END_TIME,        /* a flag fell                                          */
};

typedef struct dm_game dm_game;

/*
 * A new game of v under rules, from fen (NULL: the variant's start).  The
 * result is already known if the position is over (no move, Turkish 1 v 1).
 * Returns NULL with err filled if the FEN is bad or memory runs out.
 */
dm_game *dm_game_new(const dm_variant *v, enum dm_rules rules, const char *fen, dm_error *err);
void dm_game_free(dm_game *g);

const dm_variant *dm_game_variant(const dm_game *g);
enum dm_rules dm_game_rules(const dm_game *g);

/* Plies played so far; the position after ply i (0: the start) and the move
 * that led to it (i >= 1); the current position is dm_game_position(g,
 * dm_game_ply(g)).  Out of range: NULL. */
int dm_game_ply(const dm_game *g);
const dm_position *dm_game_position(const dm_game *g, int ply);
const dm_move *dm_game_move(const dm_game *g, int ply);
/* The text of move ply (i >= 1) in the variant's notation, the route written
 * out when another legal move shares from and to. */
void dm_game_move_text(const dm_game *g, int ply, char *buf, size_t size);

/* The legal moves of the current position (empty once the position has none;
 * still filled when the game ended otherwise). */
const dm_move_list *dm_game_legal(const dm_game *g);

/*
 * Plays m, which must be one of dm_game_legal's moves, updates the draw
 * counters and the result.  Returns 0, or -1 with err filled when the game is
 * over or m is not legal (nothing changes then).
 */
int dm_game_play(dm_game *g, const dm_move *m, dm_error *err);
/* The same for a move in text (dm_move_parse); when a capture is compulsory
 * the error names it, and the most pieces or value it must take. */
int dm_game_play_text(dm_game *g, const char *text, dm_error *err);

/* Why the side to move must capture, in the words the terminal prints for
 * a move that ignores it: "a capture is compulsory: 26x37 takes the most
 * pieces (3)" (up to three captures, and the precedence that chose them).
 * Returns 1 with buf filled when every legal move is a capture, else 0 and
 * "" (no capture, captures optional, or the game over). */
int dm_game_capture_reason(const dm_game *g, char *buf, size_t size);

/* Takes back up to plies moves, restoring the position, the counters and the
 * repetition history exactly as they were; a resignation, agreement, time
 * forfeit or draw offer goes with them.  Returns the plies taken back. */
int dm_game_undo(dm_game *g, int plies);

/* The players' acts (resignation, agreement, time).  Each does nothing once the game is
 * over.  A draw offer stands until the opponent accepts (dm_game_offer_draw
 * by the other side, or dm_game_accept_draw) or moves. */
void dm_game_resign(dm_game *g, enum dm_color loser);
bool dm_game_offer_draw(dm_game *g, enum dm_color who);  /* true: agreed, game drawn */
bool dm_game_accept_draw(dm_game *g, enum dm_color who); /* false: no offer to accept */
int dm_game_draw_offer(const dm_game *g);                /* the offering colour, or -1 */
void dm_game_time_forfeit(dm_game *g, enum dm_color flagged);

bool dm_game_over(const dm_game *g);
enum dm_result dm_game_result(const dm_game *g);
enum dm_end dm_game_end(const dm_game *g);
/* The reason in words: "Black cannot move", "threefold repetition",
 * "FMJD-64 7.2.6: 30 moves with 4-5 pieces", "White resigned"; "" while on. */
const char *dm_game_reason(const dm_game *g);

/* The draw rules in force, for display: counter i's name, its count now and
 * the count that ends the game (plies; for a rule that gives the strong side
 * k moves, its moves).  Returns false past the last one. */
bool dm_game_counter(const dm_game *g, int i, const char **name, int *count, int *limit);
/* How often the current position has occurred (1: first time) and how often
 * draws (0: no repetition rule). */
int dm_game_repetitions(const dm_game *g, int *limit);
/* Every draw rule of v under rules in words, one per line; as snprintf. */
int dm_draw_rules_describe(const dm_variant *v, enum dm_rules rules, char *buf, size_t size);

/* Time controls.  Times are in milliseconds. */
enum dm_clock_kind {
    DM_CLOCK_NONE = 0,
    DM_CLOCK_SUDDEN_DEATH, /* base for the whole game                          */
    DM_CLOCK_FISCHER,      /* base, plus increment after each move             */
    DM_CLOCK_MOVES_IN_TIME,/* base for every `moves` moves, time carried over  */
    DM_CLOCK_PER_MOVE,     /* base for each move, unused time lost             */
};

typedef struct dm_time_control {
    enum dm_clock_kind kind;
    int64_t base_ms;
    int64_t increment_ms; /* Fischer; moves in time may have one too          */
    int moves;            /* moves in time: the moves of one period           */
} dm_time_control;

/*
 * Reads a time control: "none"; "5" (5 minutes, sudden death); "5+3" (5
 * minutes plus 3 seconds a move); "90/40" (40 moves in 90 minutes, then again;
 * "90/40+30" adds 30 s a move); "10/move" (10 seconds for each move).  Minutes
 * and seconds may have decimals.  Returns 0, or -1 with err filled.
 */
int dm_time_control_parse(const char *spec, dm_time_control *tc, dm_error *err);
void dm_time_control_format(const dm_time_control *tc, char *buf, size_t size);

/* A chess clock for two sides.  Plain data: copy it, inspect it. */
typedef struct dm_clock {
    dm_time_control tc;
    int64_t left_ms[2];   /* time left when the clock last stopped or started  */
    int moves[2];         /* moves completed by each side                      */
    int running;          /* the colour whose time runs, or -1                 */
    int64_t since_ms;     /* source time when it started running               */
    int flagged;          /* the colour whose flag fell, or -1                 */
    dm_time_source *now;
    void *now_ctx;
} dm_clock;

/* Sets both sides' time; now NULL: the monotonic clock.  Nothing runs. */
void dm_clock_init(dm_clock *c, const dm_time_control *tc, dm_time_source *now, void *ctx);
/* Starts side's time (stopping the other's, no increment): the first move,
 * after a takeback, after a pause. */
void dm_clock_start(dm_clock *c, enum dm_color side);
/* The running side completed a move: its time stops, its increment or next
 * period is added, the other side's time starts.  Returns false, and keeps
 * the time at 0, when its flag had already fallen. */
bool dm_clock_press(dm_clock *c);
void dm_clock_stop(dm_clock *c);
/* side's time left now (0 at least; without a clock, 0). */
int64_t dm_clock_left(const dm_clock *c, enum dm_color side);
/* The colour whose flag has fallen by now, or -1. */
int dm_clock_flag(dm_clock *c);
/* "5:03", "1:02:03", "0:09.4" under ten seconds. */
void dm_clock_format(int64_t ms, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* DAMIER_GAME_H */
