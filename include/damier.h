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
 * Returns its index in legal, or a negative enum dm_parse_status with err
 * filled. */
enum dm_parse_status {
    DM_PARSE_MALFORMED = -1, /* not squares joined by separators, or no such square */
    DM_PARSE_ILLEGAL = -2,   /* well formed, but no legal move matches           */
    DM_PARSE_AMBIGUOUS = -3, /* several legal moves match                        */
};
int dm_move_parse(const dm_variant *v, const dm_move_list *legal, const char *text,
                  dm_error *err);

/* ---- games: moves, takebacks, results, draw rules, clocks (src/game) ---- */

/* The rule preset a game follows (RULES.md, top): the product's house rules,
 * or the federation's where they differ.  Only the draw rules differ. */
enum dm_rules { DM_RULES_DEFAULT = 0, DM_RULES_OFFICIAL = 1 };

const char *dm_rules_name(enum dm_rules rules);              /* "default", "official" */
int dm_rules_parse(const char *text, enum dm_rules *rules);  /* 0, or -1 if unknown */

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

/* Takes back up to plies moves, restoring the position, the counters and the
 * repetition history exactly as they were; a resignation, agreement, time
 * forfeit or draw offer goes with them.  Returns the plies taken back. */
int dm_game_undo(dm_game *g, int plies);

/* The players' acts (RULES.md 0.5).  Each does nothing once the game is
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

/* A source of monotonic time in milliseconds; tests inject their own. */
typedef int64_t dm_time_source(void *ctx);

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

/* ---- engine: search and evaluation (src/engine) ---- */

/*
 * A computer player: iterative deepening PVS with a transposition table,
 * quiescence on forced captures and a static evaluation whose weights come
 * from a table per family of variants.  Scores are in hundredths of a man
 * from the side to move's point of view; a game decided by the rules (no
 * move left, giveaway's inverted goal, Breakthrough's first king) scores
 * DM_SCORE_WIN minus the plies it takes, negated for a loss.  An engine is
 * used by one thread at a time; it allocates everything in dm_engine_new
 * and nothing while it searches.
 */

#define DM_SCORE_WIN     30000 /* the side to move has won                      */
#define DM_SCORE_DECIDED 29000 /* |score| above this: a forced win or loss      */
#define DM_MAX_PV        64    /* moves of the principal variation kept         */
#define DM_MAX_DEPTH     100   /* nominal plies an iteration may reach          */

/* Plies to the end of a decided score (> 0 for a win, < 0 for a loss), or 0
 * when the score is not decided. */
static inline int dm_score_plies_to_end(int score)
{
    return score > DM_SCORE_DECIDED    ? DM_SCORE_WIN - score
           : score < -DM_SCORE_DECIDED ? -(DM_SCORE_WIN + score)
                                       : 0;
}

typedef struct dm_engine dm_engine;

/* When to stop; zero fields do not limit.  Without depth, nodes or time the
 * search goes to DM_MAX_DEPTH.  With only depth and nodes it is exactly
 * reproducible: the same engine state, position and limits give the same
 * move, score and node count. */
typedef struct dm_search_limits {
    int depth;              /* iterations of this many plies at most           */
    uint64_t nodes;         /* stop once this many nodes are searched          */
    int64_t move_time_ms;   /* a fixed time for this move                      */
    int64_t time_left_ms;   /* the mover's clock: time left,                   */
    int64_t increment_ms;   /*   added after the move,                         */
    int moves_to_go;        /*   moves until more time comes (0: sudden death)  */
    /* Weaker play: choose at random (from seed) among the root moves scoring
     * within random_margin of the best; every root move is then searched with
     * a full window.  0: the best move. */
    int random_margin;
    uint64_t seed;
    dm_time_source *now;    /* NULL: the monotonic clock                        */
    void *now_ctx;
} dm_search_limits;

typedef struct dm_search_result {
    bool has_move;          /* false: the position has no legal move            */
    dm_move best;           /* one of dm_generate's moves for the position      */
    int score;              /* of the last completed iteration                  */
    int depth;              /* the last completed iteration                     */
    int seldepth;           /* the deepest ply reached                          */
    uint64_t nodes;
    int64_t time_ms;
    int pv_length;
    dm_move pv[DM_MAX_PV];  /* pv[0] is best                                    */
} dm_search_result;

/* An engine with a transposition table of about tt_mb megabytes (0: 16),
 * rounded down to a power of two; NULL if memory runs out. */
dm_engine *dm_engine_new(size_t tt_mb);
void dm_engine_free(dm_engine *e);
/* Forgets what earlier searches learnt (the transposition table). */
void dm_engine_new_game(dm_engine *e);

/*
 * Searches pos of v within limits and fills result.  history holds the
 * nhistory positions of the game before pos, oldest first (NULL, 0: none):
 * a position that repeats one of them, or one earlier in the search, scores
 * as a draw.  Returns 0, or -1 when pos has no legal move or is already
 * decided (result->has_move false, result->score the outcome).
 */
int dm_engine_search(dm_engine *e, const dm_variant *v, const dm_position *pos,
                     const dm_position *history, int nhistory, const dm_search_limits *limits,
                     dm_search_result *result);

/* The static evaluation of pos for its side to move (no search). */
int dm_evaluate(const dm_variant *v, const dm_position *pos);

#ifdef __cplusplus
}
#endif

#endif /* DAMIER_H */
