/* SPDX-License-Identifier: MIT */
/*
 * dxp.c - Damier as a DamExchange (DXP 01) player, engine against engine
 * over TCP: Scan, Moby Dam, Kingsrow and the tournament managers speak it.
 *
 * Which side listens and which connects is independent of which side
 * proposes the games: the initiator sends GAMEREQ for each game (its
 * colour alternating, White first), the follower answers GAMEACC.  Then
 * the side to move sends its MOVE, or GAMEEND when the game is over for
 * it, which the other answers with its own GAMEEND.  A MOVE names from, to
 * and the captured squares: the legal move with that signature is found
 * (notation/wire.c).  Every game is a match of the play layer (the
 * computer's seat against a remote one), so legality, the draw rules and
 * PDN come from there; the clocks are kept from the seconds each side
 * reports, which is all either side can know of the other's time.
 *
 * Anything malformed or illegal from the peer ends the game cleanly: a
 * log line says what and why, GAMEEND (reason unknown, stop) goes out, and
 * the connection closes.  Nothing the peer sends can crash or hang us: every
 * wait has a time limit.
 */
#include "proto/proto.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "damier/play.h"
#include "proto/dxpmsg.h"
#include "proto/dxpnet.h"

#define DXP_NAME_SELF  "Damier"
#define DXP_GRACE_MS   60000 /* beyond the peer's time: a silent peer is gone */

struct dxp {
    const struct proto_dxp_options *o;
    struct dxp_conn conn;
    FILE *log;
    const dm_variant *v;
    int squares;
    dm_engine *engine;    /* ours, for every game */

    /* The game in progress. */
    int game;             /* 1, 2, ... */
    dm_match *match;
    enum dm_color me;
    char peer[DXP_NAME + 1];
    int minutes, moves;   /* of the game's GAMEREQ */
    char start_fen[256];
    int64_t left_ms[2];   /* from the seconds each side reported */
    int moved[2];         /* moves made, for moves-in-time */
    bool sent_end;        /* our GAMEEND of this game is out */
    int score2;           /* our points so far, in half points */
    bool stop;            /* no further game */
};

static void say(struct dxp *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct dxp *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("dxp: ", d->log);
    if (d->game)
        fprintf(d->log, "game %d: ", d->game);
    vfprintf(d->log, fmt, ap);
    fputc('\n', d->log);
    fflush(d->log);
    va_end(ap);
}

static int64_t monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool send_message(struct dxp *d, const struct dxp_message *m)
{
    char text[DXP_MAX_MESSAGE + 1];
    if (dxp_format(m, d->squares, text, sizeof text) < 0 || dxp_send(&d->conn, text) != 0) {
        say(d, "cannot send a message: the connection is lost");
        return false;
    }
    return true;
}

/* ---- positions as DXP writes them (w z W Z e, colour W or Z) ---------------- */

static void board_of(struct dxp *d, const dm_position *pos, char *to_move, char *board)
{
    char hub[DM_HUB_POSITION_SIZE];
    dm_hub_position_format(d->v, pos, hub, sizeof hub);
    *to_move = hub[0] == 'W' ? 'W' : 'Z';
    for (int i = 0; i < d->squares; i++)
        board[i] = hub[i + 1] == 'b' ? 'z' : hub[i + 1] == 'B' ? 'Z' : hub[i + 1];
    board[d->squares] = '\0';
}

static int position_of(struct dxp *d, char to_move, const char *board, dm_position *pos,
                       dm_error *err)
{
    char hub[DM_HUB_POSITION_SIZE];
    hub[0] = to_move == 'W' ? 'W' : 'B';
    for (int i = 0; i < d->squares; i++)
        hub[i + 1] = board[i] == 'z' ? 'b' : board[i] == 'Z' ? 'B' : board[i];
    hub[d->squares + 1] = '\0';
    return dm_hub_position_parse(d->v, hub, pos, err);
}

/* ---- one game ---------------------------------------------------------------------- */

/* Starts game d->game with us playing me from fen (said in the log when
 * announce); false if the match cannot be made. */
static bool start_game(struct dxp *d, enum dm_color me, const char *fen, bool announce)
{
    dm_match_options mo = {.variant = d->v, .fen = fen, .seed = (uint64_t)d->game,
                           .event = "DXP match"};
    mo.seat[me] = (dm_seat){.kind = DM_SEAT_COMPUTER, .level = d->o->level};
    snprintf(mo.seat[me].name, sizeof mo.seat[me].name, "%s", DXP_NAME_SELF);
    mo.seat[!me] = (dm_seat){.kind = DM_SEAT_REMOTE};
    snprintf(mo.seat[!me].name, sizeof mo.seat[!me].name, "%s", d->peer[0] ? d->peer : "?");
    dm_error err;
    d->match = dm_match_new(&mo, &err);
    if (!d->match) {
        say(d, "cannot start the game: %s", err.msg);
        return false;
    }
    d->me = me;
    d->sent_end = false;
    if (!announce)
        return true;
    snprintf(d->start_fen, sizeof d->start_fen, "%s", fen ? fen : "");
    d->left_ms[0] = d->left_ms[1] = (int64_t)d->minutes * 60000;
    d->moved[0] = d->moved[1] = 0;
    say(d, "Damier plays %s against %s, %d min%s%.0d%s", me == DM_WHITE ? "White" : "Black",
        d->peer, d->minutes, d->moves ? " for " : "", d->moves, d->moves ? " moves" : "");
    return true;
}

/* The reason of a GAMEEND from our side. */
static int our_reason(struct dxp *d)
{
    enum dm_result r = dm_match_result(d->match);
    if (r == DM_RESULT_DRAW)
        return DXP_DRAW;
    if (r == DM_RESULT_NONE)
        return DXP_UNKNOWN;
    return (r == DM_RESULT_WHITE_WINS) == (d->me == DM_WHITE) ? DXP_I_WIN : DXP_I_LOSE;
}

/* Writes the game to the PDN file (if any), logs the result, frees it. */
static void end_game(struct dxp *d)
{
    if (!d->match)
        return;
    int reason = our_reason(d);
    d->score2 += reason == DXP_I_WIN ? 2 : reason == DXP_DRAW || reason == DXP_UNKNOWN ? 1 : 0;
    say(d, "over: %s%s%s", dm_match_result_text(d->match), *dm_match_reason(d->match) ? ", " : "",
        dm_match_reason(d->match));
    if (d->o->pdn) {
        dm_error err;
        char *text = dm_match_write_pdn(d->match, &err);
        FILE *f = text ? fopen(d->o->pdn, "a") : NULL;
        if (f) {
            fprintf(f, "%s\n", text);
            fclose(f);
        } else {
            say(d, "cannot write %s: %s", d->o->pdn, text ? "cannot open it" : err.msg);
        }
        free(text);
    }
    dm_match_free(d->match);
    d->match = NULL;
}

static bool send_end(struct dxp *d, int reason)
{
    struct dxp_message e = {.kind = DXP_GAMEEND, .reason = reason, .stop = d->stop};
    d->sent_end = true;
    return send_message(d, &e);
}

/* Ends the game because of what the peer sent: logged, GAMEEND with an
 * unknown reason and stop, no further game. */
static void abandon(struct dxp *d, const char *what)
{
    say(d, "%s; the game ends", what);
    d->stop = true;
    if (d->match)
        send_end(d, DXP_UNKNOWN);
}

/* Plays who's move mv, which took seconds; false (logged) if the match
 * refuses it. */
static bool played(struct dxp *d, enum dm_color who, const dm_move *mv, int seconds)
{
    dm_error err;
    if (dm_match_play(d->match, who, mv, &err) != 0) {
        say(d, "cannot play the move: %s", err.msg);
        return false;
    }
    d->left_ms[who] -= (int64_t)seconds * 1000;
    d->moved[who]++;
    if (d->moves && d->moved[who] % d->moves == 0)
        d->left_ms[who] += (int64_t)d->minutes * 60000;
    return true;
}

/* The computer's move, sent and played; false if the game cannot go on. */
static bool our_move(struct dxp *d)
{
    dm_snapshot s;
    dm_error err;
    if (dm_match_snapshot(d->match, d->o->level, &s, &err) != 0) {
        say(d, "cannot think: %s", err.msg);
        return false;
    }
    dm_time_control tc = {.kind = d->moves ? DM_CLOCK_MOVES_IN_TIME : DM_CLOCK_SUDDEN_DEATH,
                          .base_ms = (int64_t)d->minutes * 60000, .moves = d->moves};
    if (d->minutes > 0) {
        dm_clock_init(&s.clock, &tc, NULL, NULL);
        s.clock.left_ms[0] = d->left_ms[0] > 0 ? d->left_ms[0] : 1;
        s.clock.left_ms[1] = d->left_ms[1] > 0 ? d->left_ms[1] : 1;
        s.clock.moves[0] = d->moved[0];
        s.clock.moves[1] = d->moved[1];
    }
    int64_t start = monotonic_ms();
    dm_move mv;
    int rc = dm_snapshot_move(d->engine, &s, &mv, &err);
    dm_snapshot_free(&s);
    if (rc != 0) {
        say(d, "cannot think: %s", err.msg);
        return false;
    }
    int seconds = (int)((monotonic_ms() - start + 500) / 1000);
    struct dxp_message m = {.kind = DXP_MOVE, .seconds = seconds,
                            .from = dm_cell_number(d->v, mv.from),
                            .to = dm_cell_number(d->v, mv.to)};
    for (int i = 0; i < mv.njumps && i < DXP_MAX_CAPTURED; i++)
        m.captured[m.ncaptured++] = dm_cell_number(d->v, mv.captured[i]);
    if (!send_message(d, &m))
        return false;
    return played(d, d->me, &mv, seconds);
}

/* The peer's MOVE: the legal move with its signature; false if there is
 * none (then the game is abandoned). */
static bool their_move(struct dxp *d, const struct dxp_message *m)
{
    char what[200];
    if (dm_match_over(d->match) || dm_match_turn(d->match) == d->me) {
        abandon(d, "the peer moved when it was not its turn");
        return false;
    }
    int from = dm_cell_of_number(d->v, m->from), to = dm_cell_of_number(d->v, m->to);
    dm_bits captured = 0;
    for (int i = 0; i < m->ncaptured; i++)
        captured |= (dm_bits)1 << dm_cell_of_number(d->v, m->captured[i]);
    int at = dm_move_find(dm_match_legal(d->match), from, to, captured);
    if (at < 0) {
        snprintf(what, sizeof what, "illegal move from %d to %d taking %d piece(s)", m->from,
                 m->to, m->ncaptured);
        abandon(d, what);
        return false;
    }
    return played(d, (enum dm_color)!d->me, &dm_match_legal(d->match)->moves[at], m->seconds);
}

/* The peer's GAMEEND before the game is over by the rules: it resigns,
 * offers the draw we accept, or claims the win we concede. */
static void their_end(struct dxp *d, int reason)
{
    if (dm_match_over(d->match))
        return;
    dm_error err;
    enum dm_color peer = (enum dm_color)!d->me;
    if (reason == DXP_I_LOSE)
        dm_match_resign(d->match, peer, &err);
    else if (reason == DXP_I_WIN)
        dm_match_resign(d->match, d->me, &err);
    else if (reason == DXP_DRAW && dm_match_offer_draw(d->match, peer, &err) == 0)
        dm_match_offer_draw(d->match, d->me, &err);
}

/* BACKREQ: back to move_number with color to move, if that is a ply of the
 * game: the game is replayed to it (time spent stays spent). */
static bool take_back(struct dxp *d, const struct dxp_message *m)
{
    const dm_game *g = dm_match_game(d->match);
    bool black_first = dm_game_position(g, 0)->side == DM_BLACK;
    int ply = 2 * (m->move_number - 1) + (m->color == 'Z') - black_first;
    struct dxp_message acc = {.kind = DXP_BACKACC, .code = 1};
    if (ply < 0 || ply > dm_game_ply(g)) {
        say(d, "refused to take back to move %d (%c): no such point", m->move_number, m->color);
        return send_message(d, &acc);
    }
    dm_move moves[1024];
    int n = ply < 1024 ? ply : 1024;
    for (int i = 0; i < n; i++)
        moves[i] = *dm_game_move(g, i + 1);
    dm_match_free(d->match);
    d->match = NULL;
    if (!start_game(d, d->me, d->start_fen[0] ? d->start_fen : NULL, false))
        return false;
    dm_error err;
    for (int i = 0; i < n; i++)
        if (dm_match_play(d->match, dm_match_turn(d->match), &moves[i], &err) != 0)
            return false;
    say(d, "took back to move %d (%c)", m->move_number, m->color);
    acc.code = 0;
    return send_message(d, &acc);
}

/* Plays the game in progress to its end.  Returns false when the session
 * must stop (the peer or we asked, or something went wrong). */
static bool play_game(struct dxp *d)
{
    while (d->match) {
        if (dm_match_over(d->match)) {
            if (dm_match_turn(d->match) == d->me && !d->sent_end && !send_end(d, our_reason(d)))
                break;
        } else if (dm_match_turn(d->match) == d->me) {
            if (!our_move(d)) {
                abandon(d, "Damier could not move");
                break;
            }
            continue;
        }
        char text[DXP_MAX_MESSAGE + 1], why[200], shown[200];
        int64_t wait = d->left_ms[!d->me] + DXP_GRACE_MS;
        int n = dxp_receive(&d->conn, text, wait > 3600000 ? 3600000 : (int)wait, why, sizeof why);
        if (n < 0) {
            abandon(d, why);
            break;
        }
        struct dxp_message m;
        if (dxp_parse(text, (size_t)n, d->squares, &m, why, sizeof why) != 0) {
            snprintf(shown, sizeof shown, "malformed message '%.40s': %s", text, why);
            abandon(d, shown);
            break;
        }
        switch (m.kind) {
        case DXP_MOVE:
            if (!their_move(d, &m))
                goto out;
            break;
        case DXP_GAMEEND:
            if (m.stop)
                d->stop = true;
            their_end(d, m.reason);
            if (!d->sent_end)
                send_end(d, our_reason(d));
            end_game(d);
            return !d->stop;
        case DXP_CHAT:
            say(d, "chat: %s", m.text);
            break;
        case DXP_BACKREQ:
            if (!take_back(d, &m))
                goto out;
            break;
        default:
            snprintf(shown, sizeof shown, "unexpected message '%c' during a game", m.kind);
            abandon(d, shown);
            goto out;
        }
    }
out:
    end_game(d);
    d->stop = true;
    return false;
}

/* ---- the session: games proposed or accepted -------------------------------------- */

/* The initiator: proposes each game and plays it. */
static void initiate(struct dxp *d)
{
    for (d->game = 1; d->game <= d->o->games && !d->stop; d->game++) {
        enum dm_color me = d->game % 2 ? DM_WHITE : DM_BLACK;
        struct dxp_message req = {.kind = DXP_GAMEREQ, .color = me == DM_WHITE ? 'Z' : 'W',
                                  .minutes = d->o->minutes, .moves = d->o->moves};
        snprintf(req.name, sizeof req.name, "%s", DXP_NAME_SELF);
        dm_position start;
        dm_error err;
        if (d->o->fen) {
            if (dm_fen_parse(d->v, d->o->fen, &start, &err) != 0) {
                say(d, "%s", err.msg);
                d->stop = true;
                return;
            }
            req.setup = true;
            board_of(d, &start, &req.to_move, req.board);
        }
        if (!send_message(d, &req))
            return;
        char text[DXP_MAX_MESSAGE + 1], why[200];
        struct dxp_message acc;
        int n = dxp_receive(&d->conn, text, DXP_GRACE_MS, why, sizeof why);
        if (n < 0 || dxp_parse(text, (size_t)n, d->squares, &acc, why, sizeof why) != 0 ||
            acc.kind != DXP_GAMEACC) {
            say(d, "no GAMEACC: %s", n < 0 ? why : "another message came");
            return;
        }
        if (acc.code != 0) {
            say(d, "%s refused the game (code %d)", acc.name, acc.code);
            return;
        }
        snprintf(d->peer, sizeof d->peer, "%s", acc.name);
        d->minutes = d->o->minutes;
        d->moves = d->o->moves;
        if (d->game == d->o->games)
            d->stop = true; /* our last GAMEEND says so */
        if (!start_game(d, me, d->o->fen, true) || !play_game(d))
            return;
    }
}

/* The follower: accepts each GAMEREQ it can play, until stopped. */
static void follow(struct dxp *d)
{
    for (d->game = 1; !d->stop; d->game++) {
        char text[DXP_MAX_MESSAGE + 1], why[200], fen[256];
        struct dxp_message req;
        int n = dxp_receive(&d->conn, text, 10 * DXP_GRACE_MS, why, sizeof why);
        if (n < 0) {
            d->game = 0;
            say(d, "%s", why); /* the initiator is done */
            return;
        }
        if (dxp_parse(text, (size_t)n, d->squares, &req, why, sizeof why) != 0 ||
            req.kind != DXP_GAMEREQ) {
            say(d, "expected GAMEREQ: %s", why);
            return;
        }
        struct dxp_message acc = {.kind = DXP_GAMEACC, .code = 0};
        snprintf(acc.name, sizeof acc.name, "%s", DXP_NAME_SELF);
        const char *start = NULL;
        if (req.setup) {
            dm_position pos;
            dm_error err;
            if (position_of(d, req.to_move, req.board, &pos, &err) != 0) {
                say(d, "refused the set-up position: %s", err.msg);
                acc.code = 2;
                send_message(d, &acc);
                continue;
            }
            dm_fen_format(d->v, &pos, fen, sizeof fen);
            start = fen;
        }
        snprintf(d->peer, sizeof d->peer, "%s", req.name);
        d->minutes = req.minutes;
        d->moves = req.moves;
        if (!send_message(d, &acc))
            return;
        if (!start_game(d, req.color == 'W' ? DM_WHITE : DM_BLACK, start, true) || !play_game(d))
            return;
    }
}

int proto_dxp_run(const struct proto_dxp_options *o)
{
    FILE *log = o->log ? o->log : stderr;
    struct dxp_conn conn = {.fd = -1};
    char why[300];
    int rc = o->listen ? dxp_listen(o->listen, log, &conn, why, sizeof why)
                       : dxp_connect(o->connect, &conn, why, sizeof why);
    if (rc != 0) {
        fprintf(log, "dxp: %s\n", why);
        fflush(log);
        return 1;
    }
    return proto_dxp_run_on(conn.fd, o);
}

int proto_dxp_run_on(int fd, const struct proto_dxp_options *o)
{
    struct dxp d = {.o = o, .log = o->log ? o->log : stderr, .conn = {.fd = fd}};
    d.v = o->variant ? o->variant : dm_variant_by_id("international");
    d.squares = dm_variant_cells(d.v);
    d.engine = dm_player_engine_new(o->hash_mb ? o->hash_mb : dm_level_hash_mb(o->level));
    if (!d.engine) {
        say(&d, "out of memory for the engine");
        dxp_close(&d.conn);
        return 1;
    }
    if (o->initiator)
        initiate(&d);
    else
        follow(&d);
    d.game = 0;
    say(&d, "score %.1f", d.score2 / 2.0);
    dm_engine_free(d.engine);
    dxp_close(&d.conn);
    return 0;
}
