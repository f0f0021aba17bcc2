/* SPDX-License-Identifier: MIT */
/*
 * match.c - a match: a game record, its clock, two seats, and the acts of
 * the seats (moves, draw offers, takeback requests, resignation) with the
 * events a front end reads to learn what changed.
 *
 * The game record (src/game) keeps the rules, the draw counters and the
 * result; the match adds what is between the players.  A draw offer and a
 * takeback request are the match's own state, so that they can be declined
 * and lapse: an offer lapses when the opponent of the offering side moves
 * (it declines by moving), a takeback request when anyone moves.  The
 * clock is pressed by each move and read for a fallen flag before each
 * act; a takeback restarts the clock of the side to move but gives no time
 * back.  A match may hold its clock back until each side has made its
 * first move (clock_after_first_moves), so that a game costs nobody time
 * before it has really begun.  A result that a PDN file gives and the moves do not reach is kept
 * beside the game as `declared`, until a takeback.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "play/play.h"

static const char *const color_name[2] = {"White", "Black"};

/* ---- results ---------------------------------------------------------- */

enum dm_pdn_result play_pdn_result(enum dm_result r)
{
    switch (r) {
    case DM_RESULT_WHITE_WINS:
        return DM_PDN_WHITE_WINS;
    case DM_RESULT_BLACK_WINS:
        return DM_PDN_BLACK_WINS;
    case DM_RESULT_DRAW:
        return DM_PDN_DRAW;
    default:
        return DM_PDN_UNFINISHED;
    }
}

const char *dm_result_text(const dm_variant *v, enum dm_result r)
{
    return dm_pdn_result_text(v, play_pdn_result(r));
}

/* ---- making and freeing ----------------------------------------------- */

static void default_name(dm_seat *seat)
{
    if (seat->name[0])
        return;
    if (seat->kind == DM_SEAT_COMPUTER)
        snprintf(seat->name, sizeof seat->name, "computer (level %d)", seat->level);
    else
        snprintf(seat->name, sizeof seat->name, "%s",
                 seat->kind == DM_SEAT_REMOTE ? "remote" : "human");
}

static void today(char *buf, size_t size)
{
    snprintf(buf, size, "????.??.??");
    time_t now = time(NULL);
    struct tm tm;
    if (localtime_r(&now, &tm))
        strftime(buf, size, "%Y.%m.%d", &tm);
}

/* The plies after which each side has made its first move. */
#define FIRST_MOVES_PLIES 2

/* Whether the clock may run: a timed game on, and, where the match waits
 * for them, past both sides' first moves. */
static bool clock_may_run(const dm_match *m)
{
    return m->timed && !dm_match_over(m) &&
           (!m->clock_after_first_moves || dm_game_ply(m->game) >= FIRST_MOVES_PLIES);
}

void play_restart_clock(dm_match *m)
{
    if (clock_may_run(m))
        dm_clock_start(&m->clock, dm_match_turn(m));
    else
        dm_clock_stop(&m->clock);
}

dm_match *dm_match_new(const dm_match_options *o, dm_error *err)
{
    for (int c = 0; c < 2; c++) {
        const dm_seat *s = &o->seat[c];
        if (s->kind != DM_SEAT_PERSON && s->kind != DM_SEAT_COMPUTER && s->kind != DM_SEAT_REMOTE) {
            snprintf(err->msg, sizeof err->msg, "%s's seat: unknown kind %d", color_name[c],
                     (int)s->kind);
            return NULL;
        }
        if (s->kind == DM_SEAT_COMPUTER && (s->level < 1 || s->level > DM_LEVEL_MAX)) {
            snprintf(err->msg, sizeof err->msg, "%s's seat: level %d, levels are 1 to %d",
                     color_name[c], s->level, DM_LEVEL_MAX);
            return NULL;
        }
    }
    dm_match *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    const dm_variant *v = o->variant ? o->variant : dm_variant_by_id("international");
    m->game = dm_game_new(v, o->rules, o->fen, err);
    if (!m->game) {
        free(m);
        return NULL;
    }
    for (int c = 0; c < 2; c++) {
        m->seat[c] = o->seat[c];
        m->seat[c].name[DM_SEAT_NAME - 1] = '\0';
        default_name(&m->seat[c]);
    }
    m->rng = o->seed;
    m->offer = m->request = -1;
    m->timed = o->time.kind != DM_CLOCK_NONE;
    m->clock_after_first_moves = o->clock_after_first_moves;
    m->no_book = o->no_book;
    m->book = o->book;
    dm_clock_init(&m->clock, &o->time, o->now, o->now_ctx);
    snprintf(m->event, sizeof m->event, "%s", o->event ? o->event : "Damier game");
    snprintf(m->site, sizeof m->site, "%s", o->site ? o->site : "?");
    if (o->date)
        snprintf(m->date, sizeof m->date, "%s", o->date);
    else
        today(m->date, sizeof m->date);
    play_restart_clock(m);
    return m;
}

void dm_match_free(dm_match *m)
{
    if (!m)
        return;
    dm_game_free(m->game);
    dm_engine_free(m->engine[0]);
    dm_engine_free(m->engine[1]);
    free(m->clock_after);
    free(m);
}

/* ---- queries ----------------------------------------------------------- */

const dm_game *dm_match_game(const dm_match *m)
{
    return m->game;
}

const dm_variant *dm_match_variant(const dm_match *m)
{
    return dm_game_variant(m->game);
}

const dm_seat *dm_match_seat(const dm_match *m, enum dm_color color)
{
    return &m->seat[color];
}

int dm_match_ply(const dm_match *m)
{
    return dm_game_ply(m->game);
}

const dm_position *dm_match_position(const dm_match *m)
{
    return dm_game_position(m->game, dm_game_ply(m->game));
}

enum dm_color dm_match_turn(const dm_match *m)
{
    return (enum dm_color)dm_match_position(m)->side;
}

const dm_move_list *dm_match_legal(const dm_match *m)
{
    return dm_game_legal(m->game);
}

void dm_match_legal_text(const dm_match *m, int i, char *buf, size_t size)
{
    const dm_move_list *legal = dm_game_legal(m->game);
    if (i < 0 || i >= legal->count) {
        snprintf(buf, size, "?");
        return;
    }
    dm_move_format(dm_match_variant(m), &legal->moves[i], legal, buf, size);
}

void dm_match_move_text(const dm_match *m, int ply, char *buf, size_t size)
{
    dm_game_move_text(m->game, ply, buf, size);
}

bool dm_match_timed(const dm_match *m)
{
    return m->timed;
}

const dm_time_control *dm_match_time_control(const dm_match *m)
{
    return &m->clock.tc;
}

int64_t dm_match_time_left(const dm_match *m, enum dm_color color)
{
    return dm_clock_left(&m->clock, color);
}

int dm_match_clock_running(const dm_match *m)
{
    return m->timed && !dm_match_over(m) ? m->clock.running : -1;
}

int64_t dm_match_clock_after(const dm_match *m, int ply)
{
    if (!m->timed || ply < 1 || ply > dm_game_ply(m->game) || ply >= m->clock_cap)
        return -1;
    return m->clock_after[ply];
}

bool dm_match_over(const dm_match *m)
{
    return dm_game_over(m->game) || m->declared != DM_RESULT_NONE;
}

enum dm_result dm_match_result(const dm_match *m)
{
    return dm_game_over(m->game) ? dm_game_result(m->game) : m->declared;
}

const char *dm_match_reason(const dm_match *m)
{
    return dm_game_over(m->game) ? dm_game_reason(m->game) : m->declared_reason;
}

const char *dm_match_result_text(const dm_match *m)
{
    return dm_result_text(dm_match_variant(m), dm_match_result(m));
}

int dm_match_draw_offer(const dm_match *m)
{
    return m->offer;
}

int dm_match_takeback_request(const dm_match *m)
{
    return m->request;
}

/* ---- events ------------------------------------------------------------ */

void play_event(dm_match *m, enum dm_match_event_kind kind, enum dm_color color, int plies)
{
    dm_match_event *e = &m->events[m->seq % DM_MATCH_EVENTS];
    m->seq++;
    *e = (dm_match_event){
        .seq = m->seq, .kind = kind, .color = color, .ply = dm_game_ply(m->game), .plies = plies};
}

uint64_t dm_match_seq(const dm_match *m)
{
    return m->seq;
}

int dm_match_events(const dm_match *m, uint64_t after, dm_match_event *out, int max)
{
    uint64_t first = m->seq > DM_MATCH_EVENTS ? m->seq - DM_MATCH_EVENTS + 1 : 1;
    if (after + 1 > first)
        first = after + 1;
    int n = 0;
    for (uint64_t s = first; s <= m->seq && n < max; s++)
        out[n++] = m->events[(s - 1) % DM_MATCH_EVENTS];
    return n;
}

/* ---- acts -------------------------------------------------------------- */

/* After an act that may have ended the game: the clock stops, the offers
 * go, and the end is an event. */
static void after_act(dm_match *m, bool was_over, enum dm_color by)
{
    if (was_over || !dm_match_over(m))
        return;
    dm_clock_stop(&m->clock);
    m->offer = m->request = -1;
    play_event(m, DM_EVENT_OVER, by, 0);
}

bool dm_match_tick(dm_match *m)
{
    if (!m->timed || dm_match_over(m))
        return false;
    int flagged = dm_clock_flag(&m->clock);
    if (flagged < 0)
        return false;
    dm_game_time_forfeit(m->game, (enum dm_color)flagged);
    after_act(m, false, (enum dm_color)flagged);
    return true;
}

/* The checks every act of seat begins with; 0, or -1 with err filled. */
static int check_seat(dm_match *m, int seat, dm_error *err)
{
    if (seat != DM_WHITE && seat != DM_BLACK) {
        snprintf(err->msg, sizeof err->msg, "no such seat: %d (0 White, 1 Black)", seat);
        return -1;
    }
    dm_match_tick(m);
    if (dm_match_over(m)) {
        snprintf(err->msg, sizeof err->msg, "the game is over: %s", dm_match_reason(m));
        return -1;
    }
    return 0;
}

/* Keeps the mover's time left after ply. */
static bool record_clock(dm_match *m, int ply, int64_t left)
{
    if (ply >= m->clock_cap) {
        int cap = m->clock_cap ? m->clock_cap * 2 : 128;
        while (cap <= ply)
            cap *= 2;
        int64_t *more = realloc(m->clock_after, (size_t)cap * sizeof *more);
        if (!more)
            return false;
        for (int i = m->clock_cap; i < cap; i++)
            more[i] = -1;
        m->clock_after = more;
        m->clock_cap = cap;
    }
    m->clock_after[ply] = left;
    return true;
}

/* Plays mv for seat, whose turn it is: the clock pressed and read, the
 * offers that lapse by a move dropped, the events added. */
static int play_checked(dm_match *m, enum dm_color seat, const dm_move *mv, dm_error *err)
{
    if (m->timed && !record_clock(m, dm_game_ply(m->game) + 1, 0)) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    if (dm_game_play(m->game, mv, err) != 0)
        return -1;
    int ply = dm_game_ply(m->game);
    if (m->timed) {
        if (m->clock.running < 0)
            m->clock.moves[seat]++; /* a first move, untimed: it counts for the periods */
        else if (!dm_clock_press(&m->clock))
            dm_game_time_forfeit(m->game, seat);
        m->clock_after[ply] = dm_clock_left(&m->clock, seat);
        if (m->clock.running < 0 && clock_may_run(m))
            dm_clock_start(&m->clock, dm_match_turn(m)); /* the game has begun */
    }
    play_event(m, DM_EVENT_MOVE, seat, 0);
    if (m->offer == (int)(seat ^ 1)) {
        m->offer = -1;
        play_event(m, DM_EVENT_DRAW_LAPSED, seat, 0);
    }
    if (m->request >= 0) {
        m->request = -1;
        play_event(m, DM_EVENT_TAKEBACK_LAPSED, seat, 0);
    }
    after_act(m, false, seat);
    return 0;
}

static int check_turn(dm_match *m, enum dm_color seat, dm_error *err)
{
    if (check_seat(m, (int)seat, err) != 0)
        return -1;
    if (dm_match_turn(m) != seat) {
        snprintf(err->msg, sizeof err->msg, "it is not %s's turn: %s to move", color_name[seat],
                 color_name[seat ^ 1]);
        return -1;
    }
    return 0;
}

int dm_match_play(dm_match *m, enum dm_color seat, const dm_move *mv, dm_error *err)
{
    if (check_turn(m, seat, err) != 0)
        return -1;
    return play_checked(m, seat, mv, err);
}

int dm_match_play_text(dm_match *m, enum dm_color seat, const char *text, dm_error *err)
{
    if (check_turn(m, seat, err) != 0)
        return -1;
    const dm_move_list *legal = dm_game_legal(m->game);
    int i = dm_move_parse(dm_match_variant(m), legal, text, err);
    if (i < 0) {
        /* The game record explains it better (it names the capture a move
         * ignores); it parses the same way, so it refuses the move too. */
        int ply = dm_game_ply(m->game);
        if (dm_game_play_text(m->game, text, err) == 0)
            dm_game_undo(m->game, dm_game_ply(m->game) - ply);
        return -1;
    }
    return play_checked(m, seat, &legal->moves[i], err);
}

int dm_match_offer_draw(dm_match *m, enum dm_color seat, dm_error *err)
{
    if (check_seat(m, (int)seat, err) != 0)
        return -1;
    if (m->offer == (int)(seat ^ 1))
        return dm_match_answer_draw(m, seat, true, err) == 0 ? 1 : -1;
    if (m->offer == (int)seat) {
        snprintf(err->msg, sizeof err->msg, "%s's draw offer already stands", color_name[seat]);
        return -1;
    }
    m->offer = seat;
    play_event(m, DM_EVENT_DRAW_OFFERED, seat, 0);
    return 0;
}

int dm_match_answer_draw(dm_match *m, enum dm_color seat, bool accept, dm_error *err)
{
    if (check_seat(m, (int)seat, err) != 0)
        return -1;
    if (m->offer != (int)(seat ^ 1)) {
        snprintf(err->msg, sizeof err->msg, "%s has offered no draw to %s", color_name[seat ^ 1],
                 accept ? "accept" : "decline");
        return -1;
    }
    m->offer = -1;
    if (!accept) {
        play_event(m, DM_EVENT_DRAW_DECLINED, seat, 0);
        return 0;
    }
    dm_game_offer_draw(m->game, seat ^ 1);
    dm_game_accept_draw(m->game, seat);
    after_act(m, false, seat);
    return 0;
}

/* Whether seat may ask for or answer a takeback now (the flag read first):
 * a real seat, and a game not lost on time.  false with err filled. */
static bool takeback_open(dm_match *m, enum dm_color seat, dm_error *err)
{
    if (seat != DM_WHITE && seat != DM_BLACK) {
        snprintf(err->msg, sizeof err->msg, "no such seat: %d (0 White, 1 Black)", (int)seat);
        return false;
    }
    dm_match_tick(m);
    if (dm_game_end(m->game) == DM_END_TIME) {
        snprintf(err->msg, sizeof err->msg, "the game was lost on time: no takeback");
        return false;
    }
    return true;
}

int dm_match_request_takeback(dm_match *m, enum dm_color seat, dm_error *err)
{
    if (!takeback_open(m, seat, err))
        return -1;
    if (m->request >= 0) {
        snprintf(err->msg, sizeof err->msg, "%s's takeback request already stands",
                 color_name[m->request]);
        return -1;
    }
    /* Back to the last position where seat was to move. */
    int ply = dm_game_ply(m->game), plies = 0;
    while (ply - plies > 0) {
        plies++;
        if (dm_game_position(m->game, ply - plies)->side == (int)seat)
            break;
    }
    if (plies == 0 || dm_game_position(m->game, ply - plies)->side != (int)seat) {
        if (ply == 0)
            snprintf(err->msg, sizeof err->msg, "there is no move to take back");
        else
            snprintf(err->msg, sizeof err->msg, "there is no move of %s's to take back",
                     color_name[seat]);
        return -1;
    }
    m->request = seat;
    m->request_plies = plies;
    play_event(m, DM_EVENT_TAKEBACK_ASKED, seat, plies);
    return 0;
}

int dm_match_answer_takeback(dm_match *m, enum dm_color seat, bool accept, dm_error *err)
{
    if (!takeback_open(m, seat, err))
        return -1;
    if (m->request != (int)(seat ^ 1)) {
        snprintf(err->msg, sizeof err->msg, "%s has asked for no takeback to %s",
                 color_name[seat ^ 1], accept ? "accept" : "decline");
        return -1;
    }
    int plies = m->request_plies;
    m->request = -1;
    if (!accept) {
        play_event(m, DM_EVENT_TAKEBACK_DECLINED, seat, plies);
        return 0;
    }
    int ply = dm_game_ply(m->game);
    for (int i = 0; i < plies && m->timed; i++) {
        int mover = dm_game_position(m->game, ply - 1 - i)->side;
        if (m->clock.moves[mover] > 0)
            m->clock.moves[mover]--;
    }
    dm_game_undo(m->game, plies);
    m->declared = DM_RESULT_NONE;
    m->declared_reason[0] = '\0';
    m->offer = -1;
    play_restart_clock(m);
    play_event(m, DM_EVENT_TAKEBACK_DONE, seat, plies);
    return 0;
}

int dm_match_resign(dm_match *m, enum dm_color seat, dm_error *err)
{
    if (check_seat(m, (int)seat, err) != 0)
        return -1;
    dm_game_resign(m->game, seat);
    after_act(m, false, seat);
    return 0;
}
