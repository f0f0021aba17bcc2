/* SPDX-License-Identifier: MIT */
/*
 * damier/play.h - the play layer (src/play): a match, which every front end
 * (the terminal, the Hub and DXP protocols, the web server) drives.
 *
 * A match is a game record (dm_game) with its clock (dm_clock) and two
 * seats, each a person, the computer at a level or a remote player.  The
 * seats act through the match: moves (checked legal, the clock pressed),
 * draw offers, takeback requests, resignation; the clock's flag ends the
 * game on time.  Every act either changes the match and adds an event, or
 * changes nothing and fills a dm_error naming what is wrong.  A front end
 * learns what changed from dm_match_seq and dm_match_events.
 *
 * The computer's move is a function of a snapshot (the positions of the
 * game, the level, a seed, a copy of the clock) and an engine, so a server
 * can take the snapshot on its event loop, search on a worker thread with
 * an engine of its own and play the move back with dm_match_play.  A match
 * used directly owns one engine per seat, made at its first search.
 * Nothing here is process-wide: two matches share no state.  A match is
 * used by one thread at a time.
 */
#ifndef DAMIER_PLAY_H
#define DAMIER_PLAY_H

#include "damier/engine.h"
#include "damier/game.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- seats and matches (src/play/match.c) ---- */

#define DM_LEVEL_HINT 0 /* not a player: the short search behind a hint       */
#define DM_LEVEL_MAX  10 /* levels 1 (weakest) to 10                          */
#define DM_SEAT_NAME  64

enum dm_seat_kind {
    DM_SEAT_PERSON = 0, /* at this front end's keyboard or screen              */
    DM_SEAT_COMPUTER,   /* the computer player at a level                      */
    DM_SEAT_REMOTE,     /* a player elsewhere (protocol, browser)              */
};

typedef struct dm_seat {
    enum dm_seat_kind kind;
    int level;               /* computer: 1..DM_LEVEL_MAX                     */
    char name[DM_SEAT_NAME]; /* "" at creation: "human", "computer (level 3)", "remote" */
} dm_seat;

typedef struct dm_match_options {
    const dm_variant *variant;  /* NULL: International                        */
    enum dm_rules rules;
    const char *fen;            /* NULL: the start position                   */
    dm_time_control time;       /* kind DM_CLOCK_NONE: no clock               */
    dm_seat seat[2];            /* by colour                                  */
    uint64_t seed;              /* the computer's random choices              */
    dm_time_source *now;        /* the clock's time source; NULL: monotonic   */
    void *now_ctx;
    const char *event, *site;   /* PDN tags; NULL: "Damier game", "?"         */
    const char *date;           /* "2026.12.01"; NULL: today                  */
    /* The clock runs only once each side has made its first move (as on
     * lichess and lidraughts): nobody's time goes while a friend has yet
     * to come or a first move is found.  Those moves get no increment but
     * count for the periods.  false: it runs from the start. */
    bool clock_after_first_moves;
    /* The computer thinks from the first move instead of playing from its
     * opening book (dm_book_builtin): for the match tool, whose games
     * start from its own openings. */
    bool no_book;
    const struct dm_book *book; /* the book to play from; NULL: the built-in one */
} dm_match_options;

typedef struct dm_match dm_match;
typedef struct dm_book dm_book; /* an opening book (below) */

/* A new match as o says, the clock of the side to move started when timed
 * (unless o->clock_after_first_moves holds it back).
 * NULL with err filled when the FEN or a seat is bad, or memory runs out. */
dm_match *dm_match_new(const dm_match_options *o, dm_error *err);
void dm_match_free(dm_match *m);

/* ---- queries ---- */

const dm_game *dm_match_game(const dm_match *m); /* position, history, legal moves */
const dm_variant *dm_match_variant(const dm_match *m);
const dm_seat *dm_match_seat(const dm_match *m, enum dm_color color);
const dm_position *dm_match_position(const dm_match *m); /* the current one */
enum dm_color dm_match_turn(const dm_match *m);          /* the side to move */
int dm_match_ply(const dm_match *m);
/* The legal moves of the current position, as dm_game_legal. */
const dm_move_list *dm_match_legal(const dm_match *m);
/* Move text: legal move i, or the move that led to ply (1..dm_match_ply). */
void dm_match_legal_text(const dm_match *m, int i, char *buf, size_t size);
void dm_match_move_text(const dm_match *m, int ply, char *buf, size_t size);

bool dm_match_timed(const dm_match *m);
const dm_time_control *dm_match_time_control(const dm_match *m);
int64_t dm_match_time_left(const dm_match *m, enum dm_color color); /* ms; 0 untimed */
/* The colour whose time runs now, or -1 (untimed, over, or not yet begun). */
int dm_match_clock_running(const dm_match *m);
/* The mover's time left after ply's move (1..dm_match_ply), or -1 if unknown. */
int64_t dm_match_clock_after(const dm_match *m, int ply);

bool dm_match_over(const dm_match *m);
enum dm_result dm_match_result(const dm_match *m);
/* How it ended in words ("White resigned", "threefold repetition"), "" while on. */
const char *dm_match_reason(const dm_match *m);
/* The result as PDN writes it for this variant ("2-0", "1-0", "1/2-1/2",
 * "*"): the one place a front end takes a result's text from. */
const char *dm_match_result_text(const dm_match *m);
const char *dm_result_text(const dm_variant *v, enum dm_result r);

int dm_match_draw_offer(const dm_match *m);       /* the colour offering, or -1       */
int dm_match_takeback_request(const dm_match *m); /* the colour asking, or -1         */

/* ---- what changed ---- */

enum dm_match_event_kind {
    DM_EVENT_MOVE = 1,         /* color moved; ply is the new ply                */
    DM_EVENT_DRAW_OFFERED,     /* color offers a draw                            */
    DM_EVENT_DRAW_DECLINED,    /* color declined the other's offer               */
    DM_EVENT_DRAW_LAPSED,      /* color moved instead of answering the offer     */
    DM_EVENT_TAKEBACK_ASKED,   /* color asks to take back plies                  */
    DM_EVENT_TAKEBACK_DONE,    /* color accepted: plies taken back, ply is now   */
    DM_EVENT_TAKEBACK_DECLINED,/* color declined                                 */
    DM_EVENT_TAKEBACK_LAPSED,  /* a move was made instead of answering           */
    DM_EVENT_OVER,             /* the match ended (dm_match_reason); color is who
                                  acted last: the mover, the resigning side, the
                                  side accepting a draw, the side whose flag fell */
};

typedef struct dm_match_event {
    uint64_t seq;                  /* 1, 2, 3... in the order things happened    */
    enum dm_match_event_kind kind;
    enum dm_color color;           /* who acted                                  */
    int ply;                       /* dm_match_ply after the event               */
    int plies;                     /* takebacks: how many plies                  */
} dm_match_event;

#define DM_MATCH_EVENTS 64 /* the last events kept */

/* The seq of the last event (0: none yet): a front end that saw this value
 * has seen everything. */
uint64_t dm_match_seq(const dm_match *m);
/* Copies up to max events with seq > after, oldest first, into out and
 * returns how many.  Only the last DM_MATCH_EVENTS are kept: a front end
 * that finds a gap in the seqs reads the whole state again. */
int dm_match_events(const dm_match *m, uint64_t after, dm_match_event *out, int max);

/* ---- acts ---- */

/* Ends the game on time if the flag of the side whose time runs has fallen
 * (every act does this first).  Returns true if the game ended now. */
bool dm_match_tick(dm_match *m);

/* seat plays mv (one of dm_match_legal's) or the move written as text; the
 * clock is pressed.  Returns 0, or -1 with err filled and nothing changed:
 * the match is over, it is not seat's turn, the move is illegal (why).  A
 * flag that fell before the move ends the game on time instead. */
int dm_match_play(dm_match *m, enum dm_color seat, const dm_move *mv, dm_error *err);
int dm_match_play_text(dm_match *m, enum dm_color seat, const char *text, dm_error *err);

/* seat offers a draw, which stands until the opponent accepts or declines
 * it, or moves.  Offering when the opponent's offer stands accepts it.
 * Returns 1 if the match is now drawn, 0 if the offer stands, -1 with err. */
int dm_match_offer_draw(dm_match *m, enum dm_color seat, dm_error *err);
/* seat accepts or declines the opponent's standing offer: 0, or -1 with err. */
int dm_match_answer_draw(dm_match *m, enum dm_color seat, bool accept, dm_error *err);

/* seat asks to take back its own last move, and the opponent's reply after
 * it if there is one: back to seat's turn.  Allowed after the end of the
 * game too, except on time.  The request stands until the opponent answers
 * or a move is made.  Returns 0, or -1 with err (no move of seat's to take
 * back, a request already standing). */
int dm_match_request_takeback(dm_match *m, enum dm_color seat, dm_error *err);
/* seat accepts (the plies are taken back, the clock of the side to move
 * restarts, time spent stays spent) or declines the opponent's request. */
int dm_match_answer_takeback(dm_match *m, enum dm_color seat, bool accept, dm_error *err);

int dm_match_resign(dm_match *m, enum dm_color seat, dm_error *err);

/* Answers, for each computer seat, the opponent's standing draw offer or
 * takeback request: a draw as dm_snapshot_accepts_draw judges it; a takeback is
 * always accepted, since a request only ever takes back the requester's own
 * last move (and the computer's reply).  Returns the answers given (0: none
 * was waiting), or -1 with err if a search could not run. */
int dm_match_computer_answer(dm_match *m, dm_error *err);

/* ---- the computer player (src/play/computer.c) ---- */

/* What a search needs, copied out of a match: it stays valid when the match
 * changes or is freed, and may go to another thread. */
typedef struct dm_snapshot {
    const dm_variant *variant;
    dm_position *positions; /* positions[0..ply], positions[ply] the current  */
    int ply;
    int level;              /* DM_LEVEL_HINT or 1..DM_LEVEL_MAX               */
    uint64_t seed;          /* this move's random choices                     */
    dm_clock clock;         /* a copy; kind DM_CLOCK_NONE: none               */
    uint64_t seq;           /* dm_match_seq when taken                        */
    const dm_book *book;    /* the position is in it: the move comes from it  */
} dm_snapshot;

/* Takes the snapshot for a search at level for the side to move (at the
 * levels that choose at random, the match's generator gives its seed and
 * advances).  Returns 0, or -1 with err filled (out of memory, a bad
 * level, the match over). */
int dm_match_snapshot(dm_match *m, int level, dm_snapshot *s, dm_error *err);
void dm_snapshot_free(dm_snapshot *s);

/* The hash table a level's search wants, in MB: an engine passed to
 * dm_snapshot_move should have at least that. */
size_t dm_level_hash_mb(int level);

/* A level's contempt (dm_search_limits): what a draw costs it, in
 * hundredths of a man. */
int dm_level_contempt(int level);

/* An engine for the computer player, with a hash table of about mb (0: 16)
 * and the endgame tables of the default folder (dm_egdb_default_root:
 * what `damier egdb build` makes) when there are some, as the Hub engine
 * has them; NULL if memory runs out.  Every front end that lets the
 * computer play makes its engines here. */
dm_engine *dm_player_engine_new(size_t mb);

/* The move the computer chooses for s with engine e (used by this thread
 * alone while it runs): at a level without a time limit, the same snapshot
 * gives the same move.  A clock in s keeps the search within the mover's
 * share of its time.  Returns 0 with *mv one of the position's legal moves,
 * or -1 with err filled (no legal move). */
int dm_snapshot_move(dm_engine *e, const dm_snapshot *s, dm_move *mv, dm_error *err);
/* The snapshot for judging a draw offered to the computer seat judge: its
 * level, and no seed drawn (the game goes on as it would have).  0, or -1
 * with err (judge is no computer, the match is over). */
int dm_match_draw_snapshot(dm_match *m, enum dm_color judge, dm_snapshot *s, dm_error *err);
/* Whether the computer, playing color at s->level, accepts a draw in s's
 * position: never while it has more pieces, nor (from level 5) in the
 * opening (the first ten moves each, at most four pieces taken); else
 * unless its search finds it better by a quarter of a man. */
bool dm_snapshot_accepts_draw(dm_engine *e, const dm_snapshot *s, enum dm_color color);

/* The move the computer seat to move chooses, with that seat's engine;
 * not played (play it with dm_match_play).  0, or -1 with err. */
int dm_match_computer_move(dm_match *m, dm_move *mv, dm_error *err);
/* A suggestion for the side to move (a short search, DM_LEVEL_HINT), with
 * the engine of its seat.  0, or -1 with err. */
int dm_match_hint(dm_match *m, dm_move *mv, dm_error *err);

/* ---- PDN of a match (src/play/match_pdn.c) ---- */

/*
 * The match as PDN 3.0 text, malloc'ed, or NULL with err filled: Event,
 * Site, Date, White and Black (the seats' names), Result and GameType from
 * the PDN writer, Rules when official, TimeControl when timed in PGN's
 * form, in seconds ("300+3", "40/5400", "300"; "10/move" for a time per
 * move), Termination ("normal" for an end by the rules, "resignation",
 * "agreement", "time forfeit", "unterminated" while on; none for a result
 * kept as a file gave it), and after each move of a timed match the
 * mover's time left as a {[%clock H:MM:SS.t]} comment.
 */
char *dm_match_write_pdn(const dm_match *m, dm_error *err);

/*
 * A match from the first game of the PDN text[0..len): its variant (o's
 * when the file names none), Rules, moves (replayed, so every draw counter
 * is that of the moves), the seats' names from White and Black (the kinds
 * and levels from o), the time control from TimeControl (else, or when it
 * has several periods, o's) with each side's time left from its last clock
 * comment (ours, or lidraughts' "[%clock w0:05:00 B0:04:58]"), and, where
 * the file says so, the result: a Termination of resignation, agreement or
 * time forfeit ends the game that way; another result the moves do not
 * reach is kept as given by the file.  NULL with err filled.
 */
dm_match *dm_match_read_pdn(const char *text, size_t len, const dm_match_options *o,
                            dm_error *err);

/* ---- opening books (src/play/book.c, book_build.c) ---- */

/*
 * A book: for positions of a variant's first plies, the moves Damier's own
 * analysis found good, each with its score for the side to move.  The
 * computer plays from it (at the levels that do not choose at random) and
 * varies its choice; hints, analysis and the match tool do not use it.
 */
typedef struct dm_book_move {
    dm_move move;
    int score;
} dm_book_move;

/* The book built into this program for v (data/books/ID.dmb), read once;
 * NULL when it has none.  Shared by every thread, never freed. */
const dm_book *dm_book_builtin(const dm_variant *v);
/* A book from the bytes of a book file (dm_book_build's, or a file's read
 * by dm_book_load); NULL with err naming what is wrong. */
dm_book *dm_book_read(const dm_variant *v, const void *data, size_t size, dm_error *err);
dm_book *dm_book_load(const dm_variant *v, const char *path, dm_error *err);
void dm_book_free(dm_book *b);

/* pos's book moves, best first, legal in pos (at most max); 0: not in the
 * book (or b is NULL). */
int dm_book_moves(const dm_book *b, const dm_position *pos, dm_book_move *out, int max);
/* One of pos's book moves scoring within margin of its best, chosen by
 * seed; false when pos is not in the book. */
bool dm_book_choose(const dm_book *b, const dm_position *pos, int margin, uint64_t seed,
                    dm_move *mv);
/* The moves the book holds (and its positions in *positions, if not NULL),
 * and how it was made ("" if it does not say). */
int dm_book_size(const dm_book *b, int *positions);
const char *dm_book_made(const dm_book *b);

typedef struct dm_book_build_options {
    uint64_t nodes;     /* a search of each position (0: 100000)              */
    int plies;          /* positions this many plies from the start (0: 8)   */
    int margin;         /* moves kept within this of the best (0: 15; a man is 100) */
    int lines;          /* moves searched in each position (0: 6)            */
    int max_positions;  /* at most (0: 5000)                                  */
    const char *made;   /* what the file says of how it was made (NULL: none) */
    /* After each position searched (NULL: no reports). */
    void (*on_progress)(void *ctx, int positions, int moves, int ply);
    void *ctx;
} dm_book_build_options;

/* Builds v's book from its start position, breadth first, as o says:
 * the book file's bytes in *data (malloc'ed) and *size.  0, or -1 with err. */
int dm_book_build(const dm_variant *v, const dm_book_build_options *o, char **data, size_t *size,
                  dm_error *err);

#ifdef __cplusplus
}
#endif

#endif /* DAMIER_PLAY_H */
