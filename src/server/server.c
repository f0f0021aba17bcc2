/* SPDX-License-Identifier: MIT */
/*
 * server.c - damier serve: HTTP, WebSocket and static files on one
 * libwebsockets event loop, which owns every live game.
 *
 * A live game is a dm_match (the play layer decides every rule, clock and
 * offer), its store record (seats, tokens, invite, the API's seq) and the
 * WebSockets watching it.  Every act goes the same way: the match is asked
 * (it changes nothing when it refuses), and if its seq moved the game is
 * committed to the store first and only then answered over HTTP and pushed
 * to the watchers, so nobody ever learns of a move a crash could lose.
 *
 * Searches (the computer's moves, its answer to a draw offer, analyses)
 * run on the engine pool; a finished one wakes the loop through
 * lws_cancel_service, and LWS_CALLBACK_EVENT_WAIT_CANCELLED collects it.
 * A computer's move is played only if the match's seq is still the one its
 * snapshot was taken at: a takeback or a resignation meanwhile voids it.
 * A 200 ms timer ends games whose flag fell with nobody acting.
 *
 * HTTP answers go out in two writable callbacks (the headers, then the
 * body), so an answer that must wait for a search (an analysis) leaves
 * the same way as one made at once.
 *
 * Several nodes (--node, docs/deploy.md): the server is one of several on
 * one PostgreSQL database, joined by the Redis bus (bus.h).  A live game
 * is played by the node holding its lease (store.h); on any other node it
 * is a copy read from the store (live.remote), for readers and watchers.
 * An act on a copy is passed to the owner (`act`), which plays it through
 * the same functions as an HTTP request (a pss without a socket) and
 * sends back the answer (`result`); the owner publishes `state` after
 * every commit, on which the nodes with watchers read the game again.
 * Timers renew the leases (a third of the lease) and take games nobody
 * holds (half a lease).
 */
#include "server/server.h"

#include <errno.h>
#include <jansson.h>
#include <libwebsockets.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>

#include "server/bus.h"
#include "server/json.h"
#include "server/pool.h"
#include "server/store.h"

#define BODY_MAX (64 * 1024)        /* docs/api.md: a request body at most   */
#define TICK_US (200 * LWS_US_PER_MS)
#define ANALYSIS_NODES 300000       /* an analysis' default budget           */
#define ANALYSIS_NODES_MAX 20000000 /* a few seconds at most                 */
#define MAX_GAMES 10000             /* unfinished games at once, by default  */
#define GAMES_PER_MINUTE 30         /* new games an address starts, by default */
#define RATE_SLOTS 512              /* addresses whose new games are counted */
/* A WebSocket message is one frame of at most this (lws' receive buffer,
 * so a message arrives in one callback); a move or an act is under 200. */
#define WS_MESSAGE_MAX 4096
/* A request's headers, and then its body, must arrive within this: a
 * client that stalls or trickles is closed, and its slot freed. */
#define REQUEST_SECONDS 10
#define PEER_BUCKETS 1024
/* Several nodes (docs/deploy.md): the games a takeover round takes at
 * most, and how long an act passed to another node may wait for its
 * result (at most the lease: past it the owner is gone). */
#define TAKE_PER_ROUND 64
#define FORWARD_MS_MAX 5000

/* The content security policy of every answer: scripts and styles from
 * files of this server only (no inline ones), the WebSocket to it. */
#define CSP                                                                                      \
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "            \
    "font-src 'self'; connect-src 'self' ws: wss:; manifest-src 'self'; base-uri 'none'; "       \
    "form-action 'self'; frame-ancestors 'none'"

enum { ROLE_READER = -1, ROLE_BOTH = 2 };

typedef struct pss pss;

/* The games one address started in the current minute of its own. */
typedef struct rate_slot {
    char addr[64];
    int64_t since_ms;   /* the start of its minute                         */
    int count;
} rate_slot;

typedef struct live {
    store_game rec;  /* rec.pdn stays NULL in memory: written at each save */
    dm_match *m;
    bool searching;  /* a move or draw job of this game is in the pool      */
    /* The computer's move found while a draw was offered to it: played as
     * soon as the offer is answered, if nothing else happened meanwhile. */
    bool kept;
    dm_move kept_move;
    uint64_t kept_after; /* the seq its search started from                 */
    pss *subs;       /* its WebSockets                                     */
    /* A rematch one seat started once the game ended: its invite, for the
     * other seat's page (kept in memory only: after a restart the friend
     * is sent the link again). */
    /* Several nodes: a copy of a game another node owns, read from the
     * store for this node's watchers and readers (refreshed when the
     * owner's `state` comes); never acted on here. */
    bool remote;
    char holder[STORE_NODE]; /* a copy's owner, as its last `state` said   */
    int64_t holder_ms;       /* when: trusted for a lease's time           */
    unsigned renewed; /* the renewal round that last found its lease     */
    char rematch_invite[STORE_ID];
    char rematch_id[STORE_ID];
    int rematch_by;  /* the colour that asked for it                       */
    struct live *next;        /* every game in memory                        */
    struct live *next_by_id;  /* the games of its bucket in S.by_id          */
} live;

/* Live games are found by id through a table of buckets: a move at 5000
 * games must not walk them all (the linear search was 6% of the server's
 * time under load, docs/load.md). */
#define ID_BUCKETS 16384

/* One connection's state, HTTP or WebSocket (one protocol serves both). */
struct pss {
    struct lws *wsi;
    bool is_ws;
    /* HTTP */
    bool post;
    char uri[512];
    char *body;
    size_t body_len;
    bool too_big;
    bool routed;        /* this request has been routed (answered or queued) */
    lws_usec_t started; /* when the request's headers were read           */
    char *resp;         /* LWS_PRE bytes, then the body                   */
    size_t resp_len;
    int status;
    const char *ctype;
    int phase;          /* 0 idle, 1 headers due, 2 body due, 3 closing   */
    uint64_t request;   /* an analysis waiting for the pool, or an act
                         * waiting for the owner's result (forwarded)     */
    int64_t forward_deadline; /* the act's: when it is answered 503, or 0  */
    int retry_after;    /* seconds, for a 503's Retry-After; 0: none      */
    char forward_game[STORE_ID]; /* the game of the act passed on          */
    pss *next_wait;
    /* WebSocket */
    live *game;
    int role;           /* ROLE_READER, a colour, ROLE_BOTH               */
    char token[STORE_TOKEN]; /* the socket's seat token, for acts forwarded */
    bool dirty, pong;
    char *note;         /* a message to send (an error), malloc'ed        */
    bool close_after;
    pss *next_sub;
};

static struct server {
    struct lws_context *ctx;
    store *store;
    pool *pool;
    live *games;
    live *by_id[ID_BUCKETS];
    pss *waiting;       /* analyses in the pool                           */
    uint64_t next_request;
    char web[4096];
    char *variants;     /* GET /api/variants, built once                  */
    FILE *urandom;
    lws_sorted_usec_list_t tick;
    int max_games, games_per_minute; /* -1: no limit                      */
    rate_slot rate[RATE_SLOTS];
    int max_per_address;         /* 0: no limit                            */
    struct peer *peers[PEER_BUCKETS];
    /* Several nodes: the bus (NULL: one process), this node's name, its
     * leases' time, the timers.  (A node without an engine has no pool.) */
    bus *bus;
    char node[STORE_NODE];
    int lease_ms;
    lws_sorted_usec_list_t renew_timer, takeover_timer;
    int64_t renewed_ms; /* the last renewal that answered                */
    unsigned round;     /* renewal rounds                                 */
} S;

/* ---- small helpers ----------------------------------------------------- */

/* n random characters of [0-9A-Za-z] into out (n + 1 bytes). */
static void random_text(char *out, int n)
{
    static const char abc[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    unsigned char raw[64];
    if (!S.urandom || fread(raw, 1, (size_t)n, S.urandom) != (size_t)n)
        for (int i = 0; i < n; i++)
            raw[i] = (unsigned char)rand(); /* only if /dev/urandom is gone */
    for (int i = 0; i < n; i++)
        out[i] = abc[raw[i] % 62];
    out[n] = '\0';
}

static uint64_t random_seed(void)
{
    uint64_t x = 0;
    if (!S.urandom || fread(&x, sizeof x, 1, S.urandom) != 1)
        x = (uint64_t)rand();
    return x;
}

static const char *color_name(int c)
{
    return c == DM_WHITE ? "white" : "black";
}

static live **id_bucket(const char *id)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (const unsigned char *c = (const unsigned char *)id; *c; c++)
        h = (h ^ *c) * 16777619u;
    return &S.by_id[h & (ID_BUCKETS - 1)];
}

static live *find_live(const char *id)
{
    for (live *g = *id_bucket(id); g; g = g->next_by_id)
        if (strcmp(g->rec.id, id) == 0)
            return g;
    return NULL;
}

static void unindex_live(live *g)
{
    for (live **link = id_bucket(g->rec.id); *link; link = &(*link)->next_by_id)
        if (*link == g) {
            *link = g->next_by_id;
            return;
        }
}

/* The colours token holds in g: bit 0 white, bit 1 black. */
static int token_seats(const live *g, const char *token)
{
    if (!token || !*token)
        return 0;
    int seats = 0;
    for (int c = 0; c < 2; c++)
        if (g->rec.token[c][0] && strcmp(g->rec.token[c], token) == 0)
            seats |= 1 << c;
    return seats;
}

/* ---- the state of a game (GET /api/games/{id}) -------------------------- */

static json_t *player_json(const live *g, int c)
{
    const dm_seat *seat = dm_match_seat(g->m, (enum dm_color)c);
    if (g->rec.seat[c] == STORE_COMPUTER)
        return json_pack("{s:s, s:s, s:i}", "type", "computer", "name", seat->name, "level",
                         seat->level);
    return json_pack("{s:s, s:s}", "type", "person", "name", seat->name);
}

/* The object of docs/api.md; you: the token's seats (0: none). */
static json_t *state_json(const live *g, int you)
{
    const dm_match *m = g->m;
    const dm_game *game = dm_match_game(m);
    const dm_variant *v = dm_match_variant(m);
    char fen[1024], start[1024], text[DM_PDN_MOVE_TEXT];
    dm_fen_format(v, dm_match_position(m), fen, sizeof fen);
    dm_fen_format(v, dm_game_position(game, 0), start, sizeof start);
    bool over = dm_match_over(m);

    json_t *moves = json_array();
    for (int ply = 1; ply <= dm_match_ply(m); ply++) {
        dm_match_move_text(m, ply, text, sizeof text);
        json_array_append_new(moves, json_string(text));
    }
    json_t *legal = json_array();
    const dm_move_list *list = dm_match_legal(m);
    for (int i = 0; !over && i < list->count; i++) {
        dm_match_legal_text(m, i, text, sizeof text);
        json_array_append_new(legal, sj_move(v, &list->moves[i], text));
    }
    /* The game layer's words, as the terminal prints them. */
    char must[256];
    bool must_capture = !over && dm_game_capture_reason(game, must, sizeof must);
    json_t *clock = json_null();
    if (dm_match_timed(m)) {
        char control[64];
        if (g->rec.clock[0])
            snprintf(control, sizeof control, "%s", g->rec.clock);
        else
            dm_time_control_format(dm_match_time_control(m), control, sizeof control);
        /* The play layer runs it once both sides have made a move. */
        int running = dm_match_clock_running(m);
        clock = json_pack("{s:s, s:I, s:I, s:o}", "control", control, "white_ms",
                          (json_int_t)dm_match_time_left(m, DM_WHITE), "black_ms",
                          (json_int_t)dm_match_time_left(m, DM_BLACK), "running",
                          running >= 0 ? json_string(color_name(running)) : json_null());
    }
    json_t *counters = json_array();
    const char *name;
    int count, limit;
    for (int i = 0; dm_game_counter(game, i, &name, &count, &limit); i++)
        json_array_append_new(counters,
                              json_pack("{s:s, s:i, s:i}", "name", name, "count", count, "limit", limit));
    /* Frisian: the king of each side that made its last quiet moves, and
     * how many in a row (the position keeps them; the rules limit them). */
    json_t *king_moves = json_array();
    const dm_position *now = dm_match_position(m);
    for (int c = 0; c < 2; c++)
        if (now->king_moves[c] && now->king_cell[c] != DM_NO_CELL)
            json_array_append_new(king_moves,
                                  json_pack("{s:s, s:o, s:i}", "color", color_name(c), "square",
                                            sj_cell(v, now->king_cell[c]), "count",
                                            now->king_moves[c]));
    int offer = dm_match_draw_offer(m), takeback = dm_match_takeback_request(m);
    json_t *o = json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:i, s:s, s:o, s:o, s:{s:o, s:o}, s:o, s:s, s:o, "
        "s:s, s:o, s:o, s:o, s:I}",
        "id", g->rec.id, "variant", dm_variant_id(v), "rules",
        dm_rules_name(dm_game_rules(game)), "start", start, "fen", fen, "position",
        sj_position(v, dm_match_position(m)), "moves", moves, "ply", dm_match_ply(m), "turn",
        color_name(dm_match_turn(m)), "legal", legal, "must_capture",
        must_capture ? json_string(must) : json_null(), "players", "white",
        player_json(g, DM_WHITE), "black", player_json(g, DM_BLACK), "clock", clock, "status",
        over ? "over" : "playing", "result",
        over ? json_string(dm_match_result_text(m)) : json_null(), "reason", dm_match_reason(m),
        "draw_offer", offer >= 0 ? json_string(color_name(offer)) : json_null(), "takeback",
        takeback >= 0 ? json_string(color_name(takeback)) : json_null(), "counters", counters,
        "seq", (json_int_t)g->rec.seq);
    json_object_set_new(o, "king_moves", king_moves);
    bool invited = g->rematch_invite[0] && you != 3 && (you & (1 << (g->rematch_by ^ 1)));
    char join[32];
    snprintf(join, sizeof join, "/join/%s", g->rematch_invite);
    json_object_set_new(o, "rematch", invited ? json_string(join) : json_null());
    if (you)
        json_object_set_new(o, "you",
                            json_string(you == 3 ? "both" : color_name(you == 1 ? 0 : 1)));
    return o;
}

/* The position after ply (0: the start) of g, for a client reviewing the
 * moves: GET /api/games/{id}?ply=N. */
static json_t *ply_json(const live *g, int ply)
{
    const dm_match *m = g->m;
    const dm_variant *v = dm_match_variant(m);
    const dm_position *pos = dm_game_position(dm_match_game(m), ply);
    char fen[1024], text[DM_PDN_MOVE_TEXT];
    dm_fen_format(v, pos, fen, sizeof fen);
    if (ply > 0)
        dm_match_move_text(m, ply, text, sizeof text);
    int64_t left = dm_match_clock_after(m, ply);
    return json_pack("{s:s, s:i, s:i, s:s, s:o, s:s, s:o, s:o}", "id", g->rec.id, "ply", ply,
                     "plies", dm_match_ply(m), "fen", fen, "position", sj_position(v, pos), "turn",
                     color_name(pos->side), "move", ply > 0 ? json_string(text) : json_null(),
                     "clock_after", left >= 0 ? json_integer((json_int_t)left) : json_null());
}

/* ---- HTTP answers ------------------------------------------------------- */

/* Sets pss's answer to text[0..len) (copied) and asks for the writable
 * callback that sends it. */
static void respond_raw(pss *p, int status, const char *ctype, const char *text, size_t len)
{
    free(p->resp);
    p->resp = malloc(LWS_PRE + len + 1);
    if (!p->resp) {
        p->resp_len = 0;
        p->status = HTTP_STATUS_INTERNAL_SERVER_ERROR;
    } else {
        memcpy(p->resp + LWS_PRE, text, len);
        p->resp_len = len;
        p->status = status;
    }
    p->ctype = ctype;
    p->phase = 1;
    if (p->wsi) /* else an act played for another node: its result is read */
        lws_callback_on_writable(p->wsi);
}

/* Answers with o (which it takes). */
static void respond(pss *p, int status, json_t *o)
{
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    if (!text) {
        static const char oom[] = "{\"error\":\"out of memory\"}";
        respond_raw(p, HTTP_STATUS_INTERNAL_SERVER_ERROR, "application/json", oom,
                    sizeof oom - 1);
        return;
    }
    respond_raw(p, status, "application/json", text, strlen(text));
    free(text);
}

static void respond_error(pss *p, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void respond_error(pss *p, int status, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    respond(p, status, sj_error(msg));
}

/* The headers every answer carries. */
static int common_headers(struct lws *wsi, unsigned char **q, unsigned char *end,
                          const char *cache)
{
    static const struct {
        const char *name, *value;
    } h[] = {
        {"content-security-policy:", CSP},
        {"x-content-type-options:", "nosniff"},
        {"referrer-policy:", "no-referrer"},
        {"x-frame-options:", "DENY"},
        {"connection:", "close"}, /* close_after_answer */
    };
    for (size_t i = 0; i < sizeof h / sizeof h[0]; i++)
        if (lws_add_http_header_by_name(wsi, (const unsigned char *)h[i].name,
                                        (const unsigned char *)h[i].value,
                                        (int)strlen(h[i].value), q, end))
            return -1;
    return lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
                                       (const unsigned char *)cache, (int)strlen(cache), q, end);
}

/*
 * Every HTTP answer ends its connection, and says so: libwebsockets 4.1
 * mishandles a request pipelined behind another on one connection when it
 * has a body (fuzz_http found it: lws spins in its loop, or hands the body
 * from a buffer it has freed), so no second request is ever read from a
 * connection.  A reverse proxy sends one request a connection anyway, and
 * a WebSocket is one request.  The close waits until lws has sent all it
 * holds of the answer.  Returns the callback's value.
 */
static int close_after_answer(pss *p)
{
    if (lws_partial_buffered(p->wsi)) {
        p->phase = 3;
        lws_callback_on_writable(p->wsi);
        return 0;
    }
    return -1;
}

/* ---- static files ------------------------------------------------------- */

static const char *mime_type(const char *path)
{
    static const struct {
        const char *ext, *type;
    } types[] = {
        {".html", "text/html; charset=utf-8"}, {".mjs", "text/javascript"},
        {".js", "text/javascript"},            {".css", "text/css"},
        {".svg", "image/svg+xml"},             {".json", "application/json"},
        {".png", "image/png"},                 {".ico", "image/x-icon"},
        {".woff2", "font/woff2"},              {".webmanifest", "application/manifest+json"},
        {".txt", "text/plain; charset=utf-8"}, {".wasm", "application/wasm"},
    };
    const char *dot = strrchr(path, '.');
    for (size_t i = 0; dot && i < sizeof types / sizeof types[0]; i++)
        if (strcmp(dot, types[i].ext) == 0)
            return types[i].type;
    return NULL;
}

/* Serves web/rel; 0 when the file goes out (or an error answer does), -1
 * to close.  rel has been checked for "..". */
static int serve_file(pss *p, const char *rel)
{
    char path[4600];
    struct stat st;
    const char *type = mime_type(rel);
    snprintf(path, sizeof path, "%s/%s", S.web, rel);
    if (!type || stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        /* Without the app's files (a server of the API alone, or a
         * checkout before web/ landed) the pages still say what is here. */
        if (strcmp(rel, "index.html") == 0) {
            static const char page[] =
                "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>Damier</title>"
                "<h1>Damier</h1><p>This server has no web/ folder: only its API is served "
                "(docs/api.md).</p></html>\n";
            respond_raw(p, HTTP_STATUS_OK, "text/html; charset=utf-8", page, sizeof page - 1);
            return 0;
        }
        respond_error(p, HTTP_STATUS_NOT_FOUND, "no such file: /%s", rel);
        return 0;
    }
    unsigned char headers[2048], *q = headers, *end = headers + sizeof headers;
    /* The app's files have no hashed names: the browser revalidates them
     * (cheap: a 304 costs one round trip), so a new version shows at once. */
    if (common_headers(p->wsi, &q, end, "no-cache"))
        return -1;
    int n = lws_serve_http_file(p->wsi, path, type, (const char *)headers, (int)(q - headers));
    if (n < 0)
        return -1;
    return n > 0 ? close_after_answer(p) : 0;
}

/* ---- storage of acts ---------------------------------------------------- */

static void schedule(live *g);
static dm_match *match_from_record(const store_game *rec);

/* Several nodes: a message about game id to the others (payload taken).
 * Lost when Redis is away: the bus says so, and the others reread. */
static void publish(const char *id, const char *kind, json_t *payload)
{
    char err[256];
    /* While Redis is away every publish fails: BUS_DOWN said so once. */
    if (S.bus && payload && bus_publish(S.bus, id, kind, payload, err, sizeof err) != 0 &&
        bus_connected(S.bus))
        lwsl_err("game %s: %s\n", id, err);
    json_decref(payload);
}

/* Marks every watcher of g as due for the new state; the owner of a game
 * among several nodes tells the others too (their watchers'). */
static void notify(live *g)
{
    for (pss *s = g->subs; s; s = s->next_sub) {
        s->dirty = true;
        lws_callback_on_writable(s->wsi);
    }
    if (S.bus && !g->remote)
        publish(g->rec.id, "state", json_pack("{s:I}", "seq", (json_int_t)g->rec.seq));
}

/* Several nodes: g's lease is gone (not renewed in time, or a write came
 * back STORE_NOT_HOLDER): another node may own it now, so this one stops
 * acting on it and keeps it, if watched, as a copy. */
static void lose(live *g)
{
    if (g->remote)
        return;
    lwsl_err("game %s: this node no longer holds its lease\n", g->rec.id);
    g->remote = true;
    g->kept = false;
}

/* g back to what the store holds (after a failed commit; a copy when the
 * owner says it changed), so that neither the caller (answered an error)
 * nor the watchers (sent the stored state) hear of an act a restart would
 * lose.  The seq never goes back: watchers re-read.  false (g as it was)
 * if the store cannot be read. */
static bool reload_stored(live *g)
{
    store_game rec;
    char err[256];
    if (store_load_game(S.store, g->rec.id, &rec, err, sizeof err) != 1) {
        lwsl_err("game %s: cannot read back the stored game\n", g->rec.id);
        return false;
    }
    dm_match *m = match_from_record(&rec);
    free(rec.pdn);
    rec.pdn = NULL;
    if (!m)
        return false;
    if (rec.seq < g->rec.seq)
        rec.seq = g->rec.seq;
    dm_match_free(g->m);
    g->m = m;
    g->rec = rec;
    g->kept = false; /* found for a match that is no more */
    return true;
}

/* Commits g after an act that moved the match from (seq0, ply0): the move
 * with its clock when one ply was added, a takeback's dropped plies, any
 * other change; then tells the watchers and lets the computer think.
 * Returns 0, or -1 with err when the store failed (g is then back as the
 * store holds it, restore_stored: the caller answers 500). */
static int commit(live *g, int ply0, char *err, size_t errsize)
{
    dm_error perr;
    g->rec.draw_offer = dm_match_draw_offer(g->m);
    g->rec.takeback = dm_match_takeback_request(g->m);
    g->rec.over = dm_match_over(g->m);
    g->rec.seq++;
    g->rec.pdn = dm_match_write_pdn(g->m, &perr);
    int rc;
    if (!g->rec.pdn) {
        snprintf(err, errsize, "%s", perr.msg);
        rc = -1;
    } else {
        int ply = dm_match_ply(g->m);
        if (ply == ply0 + 1) {
            char text[DM_PDN_MOVE_TEXT];
            dm_match_move_text(g->m, ply, text, sizeof text);
            rc = store_append_move(S.store, &g->rec, ply, text,
                                   dm_match_timed(g->m) ? dm_match_clock_after(g->m, ply) : -1,
                                   err, errsize);
        } else {
            rc = store_save_game(S.store, &g->rec, ply < ply0 ? ply : -1, err, errsize);
        }
    }
    free(g->rec.pdn);
    g->rec.pdn = NULL;
    if (rc != 0) {
        lwsl_err("game %s: %s\n", g->rec.id, err);
        if (rc == STORE_NOT_HOLDER)
            lose(g);
        reload_stored(g);
    }
    notify(g);
    schedule(g);
    return rc;
}

/* Whether only draw offers and their answers happened in m after seq
 * after: a move found in the position of then is still the move. */
static bool only_offers_since(const dm_match *m, uint64_t after)
{
    dm_match_event ev[DM_MATCH_EVENTS];
    int n = dm_match_events(m, after, ev, DM_MATCH_EVENTS);
    if ((uint64_t)n != dm_match_seq(m) - after)
        return false; /* more than the ring holds */
    for (int i = 0; i < n; i++)
        if (ev[i].kind != DM_EVENT_DRAW_OFFERED && ev[i].kind != DM_EVENT_DRAW_DECLINED)
            return false;
    return true;
}

/* Gives the computer of g what it must think about: its answer to a draw
 * offered to it, first and whoever is to move (a move of its own would
 * let the offer lapse unanswered), else its move.  One job per game at a
 * time: an offer made while it searches its move is judged when that
 * search ends, and the move found is kept and played once the offer is
 * declined (so offers cost the computer no second search, nor its clock). */
static void schedule(live *g)
{
    dm_match *m = g->m;
    if (!S.pool || g->remote || g->searching || dm_match_over(m))
        return;
    int turn = dm_match_turn(m), offer = dm_match_draw_offer(m);
    enum pool_kind kind;
    int computer;
    if (offer >= 0 && g->rec.seat[offer ^ 1] == STORE_COMPUTER) {
        kind = POOL_DRAW;
        computer = offer ^ 1;
    } else if (g->rec.seat[turn] == STORE_COMPUTER) {
        kind = POOL_MOVE;
        computer = turn;
        bool play_kept = g->kept && only_offers_since(m, g->kept_after);
        g->kept = false;
        if (play_kept) {
            uint64_t seq0 = dm_match_seq(m);
            int ply0 = dm_match_ply(m);
            dm_error perr;
            /* Played, or refused by a flag that fell meanwhile: either is
             * a change to store. */
            if (dm_match_play(m, (enum dm_color)turn, &g->kept_move, &perr) == 0 ||
                dm_match_seq(m) != seq0) {
                char err[256];
                commit(g, ply0, err, sizeof err);
                return;
            }
        }
    } else {
        return;
    }
    pool_job *job = calloc(1, sizeof *job);
    if (!job)
        return;
    dm_error err;
    job->kind = kind;
    job->color = (enum dm_color)computer;
    snprintf(job->game, sizeof job->game, "%s", g->rec.id);
    int rc = kind == POOL_MOVE ? dm_match_snapshot(m, g->rec.level, &job->snap, &err)
                               : dm_match_draw_snapshot(m, job->color, &job->snap, &err);
    if (rc != 0) {
        lwsl_err("game %s: %s\n", g->rec.id, err.msg);
        free(job);
        return;
    }
    g->searching = true;
    pool_submit(S.pool, job);
}

/* A finished search of the game it names, on the loop thread. */
static void game_job_done(pool_job *job)
{
    live *g = find_live(job->game);
    if (!g)
        return;
    g->searching = false;
    if (g->remote)
        return; /* another node's now: its own engine plays */
    char err[256];
    if (job->rc == 0 && job->snap.seq == dm_match_seq(g->m)) {
        int ply0 = dm_match_ply(g->m);
        dm_error perr;
        int rc = job->kind == POOL_MOVE
                     ? dm_match_play(g->m, job->color, &job->move, &perr)
                     : dm_match_answer_draw(g->m, job->color, job->accepts, &perr);
        if (rc != 0 && job->snap.seq == dm_match_seq(g->m))
            lwsl_err("game %s: the computer's act failed: %s\n", g->rec.id, perr.msg);
        if (job->snap.seq != dm_match_seq(g->m)) {
            commit(g, ply0, err, sizeof err);
            return;
        }
    } else if (job->rc != 0) {
        lwsl_err("game %s: search: %s\n", g->rec.id, job->err.msg);
    } else if (job->kind == POOL_MOVE && only_offers_since(g->m, job->snap.seq)) {
        g->kept = true;
        g->kept_move = job->move;
        g->kept_after = job->snap.seq;
    }
    schedule(g);
}

/* ---- games: creation, loading ------------------------------------------ */

static live *add_live(const store_game *rec, dm_match *m)
{
    live *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->rec = *rec;
    g->rec.pdn = NULL;
    g->m = m;
    g->next = S.games;
    S.games = g;
    live **bucket = id_bucket(g->rec.id);
    g->next_by_id = *bucket;
    *bucket = g;
    return g;
}

/* The seats of o from rec: a computer at its level, or a person named
 * as the creator ("Player") or the invited friend ("Friend"). */
static void seats_from(const store_game *rec, int creator, dm_match_options *o)
{
    for (int c = 0; c < 2; c++) {
        dm_seat *seat = &o->seat[c];
        memset(seat, 0, sizeof *seat);
        if (rec->seat[c] == STORE_COMPUTER) {
            seat->kind = DM_SEAT_COMPUTER;
            seat->level = rec->level;
        } else {
            seat->kind = DM_SEAT_REMOTE;
            snprintf(seat->name, sizeof seat->name, "%s",
                     rec->opponent == STORE_VS_FRIEND && c != creator ? "Friend" : "Player");
        }
    }
    o->seed = random_seed();
    /* A web game begins with both sides' first moves: a friend may take a
     * while to open the invite, a person to find the first move. */
    o->clock_after_first_moves = true;
    o->event = "Damier web game";
    o->site = "damier serve";
}

/* A stored game back in memory: the match rebuilt from its PDN (moves,
 * clocks, result), the standing offer or request asked again. */
static dm_match *match_from_record(const store_game *rec)
{
    dm_match_options o = {0};
    seats_from(rec, -1, &o);
    dm_error err;
    /* Names come from the PDN's White and Black tags. */
    dm_match *m = dm_match_read_pdn(rec->pdn, strlen(rec->pdn), &o, &err);
    if (!m) {
        lwsl_err("game %s cannot be read back: %s\n", rec->id, err.msg);
        return NULL;
    }
    if (rec->draw_offer >= 0 && !dm_match_over(m))
        dm_match_offer_draw(m, (enum dm_color)rec->draw_offer, &err);
    if (rec->takeback >= 0)
        dm_match_request_takeback(m, (enum dm_color)rec->takeback, &err);
    return m;
}

static live *revive(store_game *rec)
{
    dm_match *m = match_from_record(rec);
    if (!m)
        return NULL;
    live *g = add_live(rec, m);
    if (!g)
        dm_match_free(m);
    return g;
}

static void revive_cb(void *ctx, store_game *rec)
{
    int *n = ctx;
    live *g = revive(rec);
    if (g) {
        (*n)++;
        /* The restart is a change: watchers that saw the old seq re-read. */
        g->rec.seq++;
        schedule(g);
    }
}

/* Whether g's rematch invite waits for the friend: only memory keeps it. */
static bool rematch_waits(const live *g)
{
    const live *next = g->rematch_invite[0] ? find_live(g->rematch_id) : NULL;
    return next && !next->rec.joined && !dm_match_over(next->m);
}

/* Finished games that nobody watches leave memory: the store keeps them
 * and find_game reads one back when it is asked for, so memory holds the
 * unfinished games (at most max_games) and the finished ones looked at;
 * so do copies of other nodes' games nobody here watches.  A node among
 * several gives up the lease of a finished game it forgets. */
static void forget_finished(void)
{
    for (live **link = &S.games; *link;) {
        live *g = *link;
        bool copy = g->remote && !g->subs;
        if (copy || (dm_match_over(g->m) && !g->subs && !g->searching && !rematch_waits(g))) {
            *link = g->next;
            unindex_live(g);
            char err[256];
            if (S.bus && !g->remote && store_lease_release(S.store, g->rec.id, err, sizeof err) != 0)
                lwsl_err("game %s: %s\n", g->rec.id, err);
            dm_match_free(g->m);
            free(g);
        } else {
            link = &g->next;
        }
    }
}

enum where { HELD, ELSEWHERE, NO_GAME, UNAVAILABLE };
static enum where locate(const char *id, live **out, char *holder);

/* The game id, in memory or brought back from the store; NULL if none.
 * Among several nodes: this node's, or a copy of another's (g->remote). */
static live *find_game(const char *id)
{
    if (S.bus) {
        live *g;
        char holder[STORE_NODE];
        return locate(id, &g, holder) <= ELSEWHERE ? g : NULL;
    }
    live *g = find_live(id);
    if (g)
        return g;
    store_game rec;
    char err[256];
    if (strlen(id) >= STORE_ID || store_load_game(S.store, id, &rec, err, sizeof err) != 1)
        return NULL;
    g = revive(&rec);
    free(rec.pdn);
    return g;
}

/* ---- request bodies ------------------------------------------------------ */

/* The body of p as a JSON object (an empty body: {}), or NULL after a 400. */
static json_t *body_object(pss *p)
{
    if (p->body_len == 0)
        return json_object();
    json_error_t e;
    json_t *o = json_loadb(p->body, p->body_len, 0, &e);
    if (!o) {
        respond_error(p, HTTP_STATUS_BAD_REQUEST, "malformed JSON: %s (line %d)", e.text, e.line);
        return NULL;
    }
    if (!json_is_object(o)) {
        json_decref(o);
        respond_error(p, HTTP_STATUS_BAD_REQUEST, "the body must be a JSON object");
        return NULL;
    }
    return o;
}

/* Field key of o as a string: *out the text, or NULL when absent or null.
 * false after a 400 when it has another type. */
static bool opt_string(pss *p, json_t *o, const char *key, const char **out)
{
    json_t *v = json_object_get(o, key);
    *out = NULL;
    if (!v || json_is_null(v))
        return true;
    if (!json_is_string(v)) {
        respond_error(p, HTTP_STATUS_BAD_REQUEST, "'%s' must be a string", key);
        return false;
    }
    *out = json_string_value(v);
    return true;
}

/* The caller's token: the body's "token", the Authorization header's
 * Bearer, or ?token= (into buf). */
static const char *request_token(pss *p, json_t *body, char *buf, int size)
{
    json_t *t = body ? json_object_get(body, "token") : NULL;
    if (json_is_string(t))
        return json_string_value(t);
    if (!p->wsi) /* an act played for another node: the token is in the body */
        return NULL;
    if (lws_hdr_copy(p->wsi, buf, size, WSI_TOKEN_HTTP_AUTHORIZATION) > 0 &&
        strncmp(buf, "Bearer ", 7) == 0)
        return buf + 7;
    return lws_get_urlarg_by_name(p->wsi, "token=", buf, size);
}

/* ---- the API -------------------------------------------------------------- */

static char *build_variants(void)
{
    json_t *list = json_array();
    static char text[16384];
    for (int i = 0; i < dm_variant_count(); i++) {
        const dm_variant *v = dm_variant_at(i);
        json_t *cells = json_array(), *lines = json_array();
        for (int c = 0; c < dm_variant_cells(v); c++)
            json_array_append_new(cells,
                                  json_pack("{s:o, s:i, s:i, s:i, s:i}", "square", sj_cell(v, c),
                                            "file", dm_cell_file(v, c), "rank", dm_cell_rank(v, c),
                                            "column", dm_cell_column(v, c), "row",
                                            dm_cell_row(v, c)));
        dm_board_line bl[DM_MAX_BOARD_LINES];
        int nl = dm_board_lines(v, bl, DM_MAX_BOARD_LINES);
        for (int l = 0; l < nl && l < DM_MAX_BOARD_LINES; l++)
            json_array_append_new(lines, json_pack("[o, o]", sj_cell(v, bl[l].from),
                                                   sj_cell(v, bl[l].to)));
        enum dm_board_kind kind = dm_board_kind(v);
        dm_position start;
        dm_position_start(v, &start);
        char fen[1024], def[2048];
        dm_fen_format(v, &start, fen, sizeof fen);
        dm_variant_describe(v, text, sizeof text);
        dm_draw_rules_describe(v, DM_RULES_DEFAULT, def, sizeof def);
        char official[2048];
        dm_draw_rules_describe(v, DM_RULES_OFFICIAL, official, sizeof official);
        json_array_append_new(
            list,
            json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:s, s:i, s:i, s:o, s:o}, s:s, s:s, "
                      "s:{s:s, s:s}}",
                      "id", dm_variant_id(v), "name", dm_variant_name(v), "summary",
                      dm_variant_summary(v), "first", color_name(start.side), "notation",
                      dm_variant_is_numeric(v) ? "numeric" : "algebraic", "board", "kind",
                      kind == DM_BOARD_DARK_SQUARES  ? "dark"
                      : kind == DM_BOARD_ALL_SQUARES ? "all"
                                                     : "points",
                      "files", dm_variant_board_files(v), "ranks", dm_variant_board_ranks(v),
                      "cells", cells, "lines", lines, "start", fen, "rules", text, "draw_rules",
                      "default", def, "official", official));
    }
    char *out = json_dumps(list, JSON_COMPACT);
    json_decref(list);
    return out;
}

/* The seats asked for: opponent {type, level}, side; fills rec's opponent,
 * seats, level and returns the caller's colour, or -1 after a 400. */
static int parse_seating(pss *p, json_t *body, store_game *rec)
{
    json_t *opp = json_object_get(body, "opponent");
    const char *type = "computer", *side;
    json_int_t level = 3;
    if (opp && !json_is_null(opp)) {
        if (!json_is_object(opp)) {
            respond_error(p, HTTP_STATUS_BAD_REQUEST, "'opponent' must be an object");
            return -1;
        }
        if (!opt_string(p, opp, "type", &type))
            return -1;
        type = type ? type : "computer";
        json_t *lv = json_object_get(opp, "level");
        if (lv && !json_is_null(lv)) {
            if (!json_is_integer(lv) || json_integer_value(lv) < 1 ||
                json_integer_value(lv) > DM_LEVEL_MAX) {
                respond_error(p, HTTP_STATUS_BAD_REQUEST, "'level' must be a number from 1 to %d",
                              DM_LEVEL_MAX);
                return -1;
            }
            level = json_integer_value(lv);
        }
    }
    if (!opt_string(p, body, "side", &side))
        return -1;
    int me;
    if (!side || strcmp(side, "random") == 0)
        me = (int)(random_seed() & 1);
    else if (strcmp(side, "white") == 0 || strcmp(side, "black") == 0)
        me = side[0] == 'w' ? DM_WHITE : DM_BLACK;
    else {
        respond_error(p, HTTP_STATUS_BAD_REQUEST, "'side' must be white, black or random");
        return -1;
    }
    rec->seat[0] = rec->seat[1] = STORE_PERSON;
    rec->level = 0;
    if (strcmp(type, "computer") == 0) {
        rec->opponent = STORE_VS_COMPUTER;
        rec->seat[me ^ 1] = STORE_COMPUTER;
        rec->level = (int)level;
    } else if (strcmp(type, "friend") == 0) {
        rec->opponent = STORE_VS_FRIEND;
    } else if (strcmp(type, "local") == 0) {
        rec->opponent = STORE_VS_LOCAL;
    } else {
        respond_error(p, HTTP_STATUS_BAD_REQUEST, "'opponent.type' must be computer, friend or local");
        return -1;
    }
    return me;
}

/* ---- limits on new games ---------------------------------------------------- */

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int games_playing(void)
{
    int n = 0;
    for (live *g = S.games; g; g = g->next)
        n += !g->remote && !dm_match_over(g->m);
    return n;
}

/* Whether p's client may start a game now: at most games_per_minute from
 * one address in a minute of its own (429), at most max_games unfinished
 * on this server (503); false after answering so.  An allowed request
 * counts, whatever becomes of it. */
static bool may_start_game(pss *p)
{
    /* An act played for another node (p->wsi NULL) was counted there. */
    if (S.games_per_minute >= 0 && p->wsi) {
        char addr[64] = "";
        lws_get_peer_simple(p->wsi, addr, sizeof addr);
        int64_t now = now_ms();
        rate_slot *slot = NULL, *oldest = &S.rate[0];
        for (int i = 0; i < RATE_SLOTS && !slot; i++) {
            if (strcmp(S.rate[i].addr, addr) == 0)
                slot = &S.rate[i];
            else if (S.rate[i].since_ms < oldest->since_ms)
                oldest = &S.rate[i];
        }
        if (!slot) {
            slot = oldest; /* the address seen longest ago is forgotten */
            snprintf(slot->addr, sizeof slot->addr, "%s", addr);
            slot->count = 0;
            slot->since_ms = now;
        }
        if (now - slot->since_ms >= 60000) {
            slot->since_ms = now;
            slot->count = 0;
        }
        if (slot->count >= S.games_per_minute) {
            respond_error(p, 429 /* Too Many Requests */,
                          "too many new games: at most %d a minute from one address "
                          "(games_per_minute); try again in %d s",
                          S.games_per_minute, (int)((slot->since_ms + 60000 - now + 999) / 1000));
            return false;
        }
        slot->count++;
    }
    if (S.max_games >= 0 && games_playing() >= S.max_games) {
        respond_error(p, HTTP_STATUS_SERVICE_UNAVAILABLE,
                      "this server holds its most unfinished games (max_games %d): try again "
                      "when one has ended",
                      S.max_games);
        return false;
    }
    return true;
}

static bool hand_to_engine(live *g);

/* Registers m as a new game seated as rec says, me the caller's colour,
 * and answers 201 {id, token, side, invite}; the game, or NULL after a 500. */
static live *start_game(pss *p, store_game *rec, int me, dm_match *m)
{
    random_text(rec->id, 8);
    random_text(rec->token[me], 32);
    rec->token[me ^ 1][0] = '\0';
    rec->invite[0] = '\0';
    if (rec->opponent == STORE_VS_LOCAL)
        memcpy(rec->token[me ^ 1], rec->token[me], sizeof rec->token[me]);
    if (rec->opponent == STORE_VS_FRIEND)
        random_text(rec->invite, 10);
    rec->draw_offer = dm_match_draw_offer(m);
    rec->takeback = dm_match_takeback_request(m);
    rec->over = dm_match_over(m);
    rec->seq = 1;
    dm_error perr;
    char err[256];
    rec->pdn = dm_match_write_pdn(m, &perr);
    if (!rec->pdn || store_create_game(S.store, rec, err, sizeof err) != 0) {
        free(rec->pdn);
        dm_match_free(m);
        respond_error(p, HTTP_STATUS_INTERNAL_SERVER_ERROR, "the game could not be stored");
        return NULL;
    }
    free(rec->pdn);
    rec->pdn = NULL;
    live *g = add_live(rec, m);
    if (!g) {
        dm_match_free(m);
        respond_error(p, HTTP_STATUS_INTERNAL_SERVER_ERROR, "out of memory");
        return NULL;
    }
    json_t *o = json_pack("{s:s, s:s, s:s}", "id", rec->id, "token", rec->token[me], "side",
                          color_name(me));
    hand_to_engine(g);
    if (rec->invite[0]) {
        char path[64];
        snprintf(path, sizeof path, "/join/%s", rec->invite);
        json_object_set_new(o, "invite", json_string(path));
    }
    schedule(g);
    respond(p, 201, o);
    return g;
}

/* POST /api/games */
static void api_create(pss *p, json_t *body)
{
    const char *variant, *rules, *clock, *fen;
    if (!may_start_game(p))
        return;
    if (!opt_string(p, body, "variant", &variant) || !opt_string(p, body, "rules", &rules) ||
        !opt_string(p, body, "clock", &clock) || !opt_string(p, body, "fen", &fen))
        return;
    store_game rec = {0};
    int me = parse_seating(p, body, &rec);
    if (me < 0)
        return;
    dm_match_options o = {0};
    o.variant = dm_variant_by_id(variant ? variant : "international");
    if (!o.variant) {
        respond_error(p, HTTP_STATUS_BAD_REQUEST, "no variant '%.64s' (GET /api/variants)", variant);
        return;
    }
    if (rules && dm_rules_parse(rules, &o.rules) != 0) {
        respond_error(p, HTTP_STATUS_BAD_REQUEST, "'rules' must be default or official");
        return;
    }
    dm_error err;
    if (clock && *clock) {
        if (strlen(clock) >= sizeof rec.clock ||
            dm_time_control_parse(clock, &o.time, &err) != 0) {
            respond_error(p, HTTP_STATUS_BAD_REQUEST, "clock: %s",
                          strlen(clock) >= sizeof rec.clock ? "too long" : err.msg);
            return;
        }
        if (o.time.kind != DM_CLOCK_NONE)
            snprintf(rec.clock, sizeof rec.clock, "%s", clock);
    }
    o.fen = fen && *fen ? fen : NULL;
    seats_from(&rec, me, &o);
    dm_match *m = dm_match_new(&o, &err);
    if (!m) {
        respond_error(p, HTTP_STATUS_BAD_REQUEST, "%s", err.msg);
        return;
    }
    start_game(p, &rec, me, m);
}

/* POST /api/import */
static void api_import(pss *p, json_t *body)
{
    const char *pdn;
    if (!may_start_game(p) || !opt_string(p, body, "pdn", &pdn))
        return;
    if (!pdn) {
        respond_error(p, HTTP_STATUS_BAD_REQUEST, "'pdn' (the PDN text) is missing");
        return;
    }
    store_game rec = {0};
    int me = parse_seating(p, body, &rec);
    if (me < 0)
        return;
    dm_match_options o = {0};
    seats_from(&rec, me, &o);
    dm_error err;
    dm_match *m = dm_match_read_pdn(pdn, strlen(pdn), &o, &err);
    if (!m) {
        respond_error(p, HTTP_STATUS_BAD_REQUEST, "%s", err.msg);
        return;
    }
    if (dm_match_timed(m))
        dm_time_control_format(dm_match_time_control(m), rec.clock, sizeof rec.clock);
    start_game(p, &rec, me, m);
}

/* POST /api/join/{code} */
static void api_join(pss *p, const char *code)
{
    live *g = NULL;
    for (live *q = S.games; q && !g; q = q->next)
        if (q->rec.invite[0] && strcmp(q->rec.invite, code) == 0)
            g = q;
    if (!g) {
        respond_error(p, HTTP_STATUS_NOT_FOUND, "no invite '%.32s'", code);
        return;
    }
    if (g->rec.joined) {
        respond_error(p, HTTP_STATUS_CONFLICT, "this invite has been used");
        return;
    }
    int side = g->rec.token[DM_WHITE][0] ? DM_BLACK : DM_WHITE;
    char err[256];
    random_text(g->rec.token[side], 32);
    g->rec.joined = true;
    g->rec.seq++;
    g->rec.pdn = dm_match_write_pdn(g->m, &(dm_error){{0}});
    int rc = g->rec.pdn ? store_save_game(S.store, &g->rec, -1, err, sizeof err) : -1;
    free(g->rec.pdn);
    g->rec.pdn = NULL;
    if (rc != 0) {
        g->rec.joined = false;
        g->rec.token[side][0] = '\0';
        respond_error(p, HTTP_STATUS_INTERNAL_SERVER_ERROR, "the join could not be stored");
        return;
    }
    notify(g);
    respond(p, HTTP_STATUS_OK,
            json_pack("{s:s, s:s, s:s}", "id", g->rec.id, "token", g->rec.token[side], "side",
                      color_name(side)));
}

static live *game_for(pss *p, const char *id, json_t *body, bool need_seat, int *seats);

/* POST /api/games/{id}/rematch: once the game is over, a new one between
 * the same seats (the computer at its level, the friend by a new invite,
 * or the same device), colours changed, from the start, the same clock.
 * Answers 201 as POST /api/games; the other seat's state then carries the
 * invite as "rematch". */
static void api_rematch(pss *p, const char *id, json_t *body)
{
    int seats;
    live *old = game_for(p, id, body, true, &seats);
    if (!old)
        return;
    if (!dm_match_over(old->m)) {
        respond_error(p, HTTP_STATUS_CONFLICT, "the game is still on: a rematch comes after it");
        return;
    }
    if (old->rematch_invite[0]) {
        respond_error(p, HTTP_STATUS_CONFLICT, "a rematch has been asked for already");
        return;
    }
    if (!may_start_game(p))
        return;
    int mine = seats == 2 ? DM_BLACK : DM_WHITE;
    store_game rec = {0};
    rec.opponent = old->rec.opponent;
    rec.level = old->rec.level;
    int me = seats == 3 ? DM_WHITE : mine ^ 1;
    rec.seat[me] = STORE_PERSON;
    rec.seat[me ^ 1] = rec.opponent == STORE_VS_COMPUTER ? STORE_COMPUTER : STORE_PERSON;
    snprintf(rec.clock, sizeof rec.clock, "%s", old->rec.clock);
    dm_match_options o = {0};
    o.variant = dm_match_variant(old->m);
    o.rules = dm_game_rules(dm_match_game(old->m));
    if (dm_match_timed(old->m))
        o.time = *dm_match_time_control(old->m);
    seats_from(&rec, me, &o);
    dm_error err;
    dm_match *m = dm_match_new(&o, &err);
    if (!m) {
        respond_error(p, HTTP_STATUS_INTERNAL_SERVER_ERROR, "%s", err.msg);
        return;
    }
    if (start_game(p, &rec, me, m) && rec.invite[0]) {
        snprintf(old->rematch_invite, sizeof old->rematch_invite, "%s", rec.invite);
        snprintf(old->rematch_id, sizeof old->rematch_id, "%s", rec.id);
        old->rematch_by = mine;
        /* A change the other seat's page must see: a new seq, stored so
         * that a restart never hands out one already seen. */
        char serr[256];
        old->rec.seq++;
        old->rec.pdn = dm_match_write_pdn(old->m, &err);
        if (!old->rec.pdn || store_save_game(S.store, &old->rec, -1, serr, sizeof serr) != 0)
            lwsl_err("game %s: the rematch's seq could not be stored\n", old->rec.id);
        free(old->rec.pdn);
        old->rec.pdn = NULL;
        notify(old);
    }
}

/* The game and the seats the caller's token holds; NULL after a 404, or
 * after a 403 when need_seat and the token holds none. */
static live *game_for(pss *p, const char *id, json_t *body, bool need_seat, int *seats)
{
    live *g = find_game(id);
    if (!g) {
        respond_error(p, HTTP_STATUS_NOT_FOUND, "no game '%.32s'", id);
        return NULL;
    }
    char buf[256];
    const char *token = request_token(p, body, buf, sizeof buf);
    *seats = token_seats(g, token);
    if (need_seat && !*seats) {
        respond_error(p, HTTP_STATUS_FORBIDDEN,
                      token && *token ? "this token holds no seat of this game"
                                      : "a seat token is needed (\"token\")");
        return NULL;
    }
    return g;
}

/* The colour an act of seats is made for: the one holding it, or for a
 * token holding both (a local game) the side to move, or for answers the
 * side that was asked. */
static enum dm_color acting_color(const live *g, int seats, int asked_by)
{
    if (seats != 3)
        return seats == 1 ? DM_WHITE : DM_BLACK;
    if (asked_by >= 0)
        return (enum dm_color)(asked_by ^ 1);
    return dm_match_turn(g->m);
}

/* Answers the state after an act: 200, or 500 if the store failed. */
static void answer_act(pss *p, live *g, int ply0, uint64_t seq0, int seats)
{
    char err[256];
    int rc = dm_match_seq(g->m) != seq0 ? commit(g, ply0, err, sizeof err) : 0;
    if (rc == STORE_NOT_HOLDER) {
        p->retry_after = 1; /* the new owner's, asked again through the bus */
        respond_error(p, HTTP_STATUS_SERVICE_UNAVAILABLE,
                      "this node lost the game to another: try again");
        return;
    }
    if (rc != 0) {
        respond_error(p, HTTP_STATUS_INTERNAL_SERVER_ERROR, "the act could not be stored: %s", err);
        return;
    }
    respond(p, HTTP_STATUS_OK, state_json(g, seats));
}

/* GET /api/games/{id}: the state, or with ?ply=N the position after ply N. */
static void api_state(pss *p, const char *id)
{
    int seats;
    live *g = game_for(p, id, NULL, false, &seats);
    if (!g)
        return;
    char buf[256]; /* lws copies each argument here to find it: a token's too */
    const char *arg = lws_get_urlarg_by_name(p->wsi, "ply=", buf, sizeof buf);
    if (!arg) {
        respond(p, HTTP_STATUS_OK, state_json(g, seats));
        return;
    }
    char *end;
    long ply = strtol(arg, &end, 10);
    int plies = dm_match_ply(g->m);
    if (!*arg || *end || ply < 0 || ply > plies) {
        respond_error(p, HTTP_STATUS_BAD_REQUEST, "'ply' must be a number from 0 to %d", plies);
        return;
    }
    respond(p, HTTP_STATUS_OK, ply_json(g, (int)ply));
}

/* POST /api/games/{id}/moves */
static void api_move(pss *p, const char *id, json_t *body)
{
    int seats;
    const char *move;
    if (!opt_string(p, body, "move", &move))
        return;
    if (!move) {
        respond_error(p, HTTP_STATUS_BAD_REQUEST, "'move' is missing");
        return;
    }
    live *g = game_for(p, id, body, true, &seats);
    if (!g)
        return;
    enum dm_color color = acting_color(g, seats, -1);
    int ply0 = dm_match_ply(g->m);
    uint64_t seq0 = dm_match_seq(g->m);
    dm_error err;
    if (dm_match_play_text(g->m, color, move, &err) != 0) {
        /* A flag that fell is an end to store, though the move is refused. */
        if (dm_match_seq(g->m) != seq0) {
            char serr[256];
            commit(g, ply0, serr, sizeof serr);
        }
        respond_error(p, HTTP_STATUS_CONFLICT, "%s", err.msg);
        return;
    }
    answer_act(p, g, ply0, seq0, seats);
}

/* POST /api/games/{id}/actions */
static void api_action(pss *p, const char *id, json_t *body)
{
    int seats;
    const char *action;
    if (!opt_string(p, body, "action", &action))
        return;
    if (!action) {
        respond_error(p, HTTP_STATUS_BAD_REQUEST, "'action' is missing");
        return;
    }
    static const char *const actions[] = {"resign",   "offer-draw",      "accept-draw",
                                          "decline-draw", "takeback", "accept-takeback",
                                          "decline-takeback"};
    int a = -1;
    for (int i = 0; i < (int)(sizeof actions / sizeof actions[0]); i++)
        if (strcmp(action, actions[i]) == 0)
            a = i;
    if (a < 0) {
        respond_error(p, HTTP_STATUS_BAD_REQUEST,
                      "unknown action (resign, offer-draw, accept-draw, decline-draw, takeback, "
                      "accept-takeback, decline-takeback)");
        return;
    }
    live *g = game_for(p, id, body, true, &seats);
    if (!g)
        return;
    dm_match *m = g->m;
    int ply0 = dm_match_ply(m);
    uint64_t seq0 = dm_match_seq(m);
    dm_error err;
    int rc = 0;
    enum dm_color c;
    switch (a) {
    case 0:
        rc = dm_match_resign(m, acting_color(g, seats, -1), &err);
        break;
    case 1:
        rc = dm_match_offer_draw(m, acting_color(g, seats, -1), &err) < 0 ? -1 : 0;
        break;
    case 2:
    case 3:
        c = acting_color(g, seats, dm_match_draw_offer(m));
        rc = dm_match_answer_draw(m, c, a == 2, &err);
        break;
    case 4:
        /* A local game's token asks for the side that moved last. */
        c = seats == 3 ? (enum dm_color)(dm_match_turn(m) ^ 1) : acting_color(g, seats, -1);
        rc = dm_match_request_takeback(m, c, &err);
        /* The computer grants it at once (dm_match_computer_answer's rule:
         * a request only ever takes back the asker's own move). */
        if (rc == 0 && g->rec.seat[c ^ 1] == STORE_COMPUTER)
            rc = dm_match_answer_takeback(m, (enum dm_color)(c ^ 1), true, &err);
        break;
    default:
        c = acting_color(g, seats, dm_match_takeback_request(m));
        rc = dm_match_answer_takeback(m, c, a == 5, &err);
        break;
    }
    if (rc != 0 && dm_match_seq(m) == seq0) {
        respond_error(p, HTTP_STATUS_CONFLICT, "%s", err.msg);
        return;
    }
    answer_act(p, g, ply0, seq0, seats);
}

/* POST /api/analysis: queued on the pool, answered when it is done. */
static void api_analysis(pss *p, json_t *body)
{
    const char *variant, *fen, *rules;
    if (!S.pool) {
        p->retry_after = 10;
        respond_error(p, HTTP_STATUS_SERVICE_UNAVAILABLE,
                      "this node runs no engine (--no-engine): ask another");
        return;
    }
    if (!opt_string(p, body, "variant", &variant) || !opt_string(p, body, "fen", &fen) ||
        !opt_string(p, body, "rules", &rules))
        return;
    const dm_variant *v = dm_variant_by_id(variant ? variant : "international");
    if (!v) {
        respond_error(p, HTTP_STATUS_BAD_REQUEST, "no variant '%.64s'", variant);
        return;
    }
    enum dm_rules r = DM_RULES_DEFAULT;
    if (rules && dm_rules_parse(rules, &r) != 0) {
        respond_error(p, HTTP_STATUS_BAD_REQUEST, "'rules' must be default or official");
        return;
    }
    json_t *moves = json_object_get(body, "moves"), *nodes = json_object_get(body, "nodes");
    if (moves && !json_is_null(moves) && !json_is_array(moves)) {
        respond_error(p, HTTP_STATUS_BAD_REQUEST, "'moves' must be an array of strings");
        return;
    }
    uint64_t budget = ANALYSIS_NODES;
    if (nodes && !json_is_null(nodes)) {
        if (!json_is_integer(nodes) || json_integer_value(nodes) < 1 ||
            json_integer_value(nodes) > ANALYSIS_NODES_MAX) {
            respond_error(p, HTTP_STATUS_BAD_REQUEST, "'nodes' must be a number from 1 to %d",
                          ANALYSIS_NODES_MAX);
            return;
        }
        budget = (uint64_t)json_integer_value(nodes);
    }
    dm_error err;
    /* The game record replays the moves: the rules stay in the library. */
    dm_game *game = dm_game_new(v, r, fen && *fen ? fen : NULL, &err);
    if (!game) {
        respond_error(p, HTTP_STATUS_BAD_REQUEST, "%s", err.msg);
        return;
    }
    size_t i;
    json_t *mv;
    json_array_foreach(moves, i, mv)
    {
        if (!json_is_string(mv) || dm_game_play_text(game, json_string_value(mv), &err) != 0) {
            respond_error(p, json_is_string(mv) ? HTTP_STATUS_CONFLICT : HTTP_STATUS_BAD_REQUEST,
                          "move %zu: %s", i + 1,
                          json_is_string(mv) ? err.msg : "not a string");
            dm_game_free(game);
            return;
        }
    }
    pool_job *job = calloc(1, sizeof *job);
    int ply = dm_game_ply(game);
    if (job)
        job->history = malloc(sizeof *job->history * (size_t)(ply + 1));
    if (!job || !job->history) {
        free(job);
        dm_game_free(game);
        respond_error(p, HTTP_STATUS_INTERNAL_SERVER_ERROR, "out of memory");
        return;
    }
    for (int k = 0; k < ply; k++)
        job->history[k] = *dm_game_position(game, k);
    job->nhistory = ply;
    job->pos = *dm_game_position(game, ply);
    dm_game_free(game);
    job->kind = POOL_ANALYSIS;
    job->variant = v;
    job->nodes = budget;
    job->request = p->request = ++S.next_request;
    p->next_wait = S.waiting;
    S.waiting = p;
    pool_submit(S.pool, job);
}

/* The answer of an analysis, to the request still waiting for it. */
static void analysis_done(pool_job *job)
{
    pss **link = &S.waiting, *p = NULL;
    for (; *link; link = &(*link)->next_wait)
        if ((*link)->request == job->request) {
            p = *link;
            *link = p->next_wait;
            break;
        }
    if (!p)
        return; /* the client left */
    p->request = 0;
    if (job->rc != 0) {
        respond_error(p, HTTP_STATUS_CONFLICT, "%s", job->err.msg);
        return;
    }
    const dm_variant *v = job->variant;
    json_t *pv = json_array();
    dm_position pos = job->pos;
    char text[DM_PDN_MOVE_TEXT], best[DM_PDN_MOVE_TEXT] = "";
    static dm_move_list legal; /* the loop's thread alone uses it */
    for (int i = 0; i < job->result.pv_length; i++) {
        dm_generate(v, &pos, &legal, 0);
        dm_move_format(v, &job->result.pv[i], &legal, text, sizeof text);
        if (i == 0)
            snprintf(best, sizeof best, "%s", text);
        json_array_append_new(pv, json_string(text));
        dm_make_move(v, &pos, &job->result.pv[i]);
    }
    if (!best[0]) {
        dm_generate(v, &job->pos, &legal, 0);
        dm_move_format(v, &job->result.best, &legal, best, sizeof best);
    }
    respond(p, HTTP_STATUS_OK,
            json_pack("{s:s, s:f, s:i, s:o, s:I}", "best", best, "score",
                      job->result.score / 100.0, "depth", job->result.depth, "pv", pv, "nodes",
                      (json_int_t)job->result.nodes));
}

/* GET /api/games/{id}/pdn */
static void api_pdn(pss *p, const char *id)
{
    int seats;
    live *g = game_for(p, id, NULL, false, &seats);
    if (!g)
        return;
    dm_error err;
    char *pdn = dm_match_write_pdn(g->m, &err);
    if (!pdn) {
        respond_error(p, HTTP_STATUS_INTERNAL_SERVER_ERROR, "%s", err.msg);
        return;
    }
    respond_raw(p, HTTP_STATUS_OK, "text/plain; charset=utf-8", pdn, strlen(pdn));
    free(pdn);
}

/* ---- several nodes (docs/deploy.md) -------------------------------------- */

static void ws_note(pss *p, const char *type, const char *error);

/* Whether g has a computer seat, which only a node with an engine plays. */
static bool has_computer(const store_game *rec)
{
    return rec->seat[0] == STORE_COMPUTER || rec->seat[1] == STORE_COMPUTER;
}

/* A node without an engine (--no-engine) gives up the lease of a game
 * with a computer seat as soon as it has one, and tells the nodes with an
 * engine, which take it (`released`); true if it did. */
static bool hand_to_engine(live *g)
{
    char err[256];
    if (!S.bus || S.pool || g->remote || !has_computer(&g->rec) || dm_match_over(g->m))
        return false;
    g->remote = true;
    if (store_lease_release(S.store, g->rec.id, err, sizeof err) != 0)
        lwsl_err("game %s: %s\n", g->rec.id, err);
    publish(g->rec.id, "released", json_pack("{s:I}", "seq", (json_int_t)g->rec.seq));
    return true;
}

/* g (in memory already, or NULL) as the store holds id now: loaded into
 * g, or into a new game in memory.  NULL if it cannot be read. */
static live *load_into(live *g, const char *id)
{
    if (g)
        return reload_stored(g) ? g : NULL;
    store_game rec;
    char err[256];
    int found = store_load_game(S.store, id, &rec, err, sizeof err);
    if (found != 1) {
        if (found < 0)
            lwsl_err("game %s: %s\n", id, err);
        return NULL;
    }
    g = revive(&rec);
    free(rec.pdn);
    return g;
}

/* Takes game id's lease for this node if nobody holds it, and loads the
 * game afresh as its own (what it had in memory may be stale): the seq
 * moves on (watchers re-read), the computer thinks, the others hear.
 * 1 taken (*out), 0 another node holds it (its name in holder, "" when
 * this node may not take it: no engine), -1 no such game or the store
 * failed. */
static int take_over(const char *id, live **out, char *holder)
{
    char err[256];
    *out = NULL;
    holder[0] = '\0';
    int took = store_lease_take(S.store, id, holder, STORE_NODE, err, sizeof err);
    if (took != 1)
        return took;
    live *g = load_into(find_live(id), id);
    if (!g) {
        store_lease_release(S.store, id, err, sizeof err);
        return -1;
    }
    g->remote = false;
    g->renewed = S.round;
    g->rec.seq++;
    *out = g;
    if (hand_to_engine(g))
        return 0;
    schedule(g);
    notify(g);
    return 1;
}

static int64_t now_ms(void);

/* Game id as this node may serve it: HELD (this node's: act on it),
 * ELSEWHERE (another node's, or nobody's that this node may take: g a
 * copy read from the store now, holder the owner's name or ""), NO_GAME,
 * UNAVAILABLE (the store failed).  Without copy (an act to pass on), an
 * owner known from its last state, or found by the take, is enough: g
 * may then be NULL, and nothing is read. */
static enum where locate_for(const char *id, bool copy, live **out, char *holder)
{
    live *g = find_live(id);
    *out = g;
    holder[0] = '\0';
    if (g && !g->remote)
        return HELD;
    if (strlen(id) >= STORE_ID)
        return NO_GAME;
    if (!copy && g && g->holder[0] && now_ms() - g->holder_ms < S.lease_ms) {
        snprintf(holder, STORE_NODE, "%s", g->holder);
        return ELSEWHERE;
    }
    int took = take_over(id, out, holder);
    if (took == 1)
        return HELD;
    if (took == 0 && (*out || !copy)) /* held elsewhere; or taken and handed on */
        return ELSEWHERE;
    g = load_into(g, id);
    *out = g;
    if (g) {
        g->remote = true;
        return ELSEWHERE;
    }
    store_game rec;
    char err[256];
    int found = store_load_game(S.store, id, &rec, err, sizeof err);
    if (found == 1)
        free(rec.pdn);
    return found == 0 ? NO_GAME : UNAVAILABLE;
}

static enum where locate(const char *id, live **out, char *holder)
{
    return locate_for(id, true, out, holder);
}

/* Forgets the owner a copy of id trusted: an act passed to it failed. */
static void doubt_holder(const char *id)
{
    live *g = find_live(id);
    if (g)
        g->holder[0] = '\0';
}

static int forward_ms(void)
{
    return S.lease_ms < FORWARD_MS_MAX ? S.lease_ms : FORWARD_MS_MAX;
}

/* Passes an act on game id (path "/moves", "/actions", "/rematch" or
 * "join", body its request body with the caller's token) to holder, the
 * node that owns the game; p is answered from its `result`, or 503 after
 * forward_ms.  false (nothing sent) when the bus is away. */
static bool forward(pss *p, const char *holder, const char *id, const char *path, json_t *body)
{
    char err[256];
    uint64_t request = ++S.next_request;
    json_t *o = json_pack("{s:s, s:I, s:s, s:O}", "to", holder, "request", (json_int_t)request,
                          "path", path, "body", body);
    int rc = o ? bus_publish(S.bus, id, "act", o, err, sizeof err) : -1;
    json_decref(o);
    if (rc != 0)
        return false;
    p->request = request;
    p->forward_deadline = now_ms() + forward_ms();
    snprintf(p->forward_game, sizeof p->forward_game, "%s", id);
    p->next_wait = S.waiting;
    S.waiting = p;
    return true;
}

static void respond_later(pss *p, const char *why)
{
    p->retry_after = 1;
    respond_error(p, HTTP_STATUS_SERVICE_UNAVAILABLE, "%s: try again", why);
}

/* A POST on game id (path as forward's) at this node: false when this
 * node plays it (the caller goes on as for one node), true when it was
 * passed to the owner or answered 503 (no owner now, the bus away). */
static bool route_elsewhere(pss *p, const char *id, const char *path, json_t *body)
{
    live *g;
    char holder[STORE_NODE];
    enum where w = locate_for(id, false, &g, holder);
    if (w == HELD || w == NO_GAME)
        return false;
    if (w == UNAVAILABLE) {
        respond_later(p, "the database does not answer");
        return true;
    }
    if (!holder[0]) {
        respond_later(p, "no node holds this game now (it waits for a node with an engine)");
        return true;
    }
    /* The token goes in the body: the owner sees no headers. */
    char buf[256];
    const char *token = request_token(p, body, buf, sizeof buf);
    if (token && !json_is_string(json_object_get(body, "token")))
        json_object_set_new(body, "token", json_string(token));
    if (!forward(p, holder, id, path, body))
        respond_later(p, "the bus between nodes is away");
    return true;
}

/* The owner's side of an act another node passed on: played as if
 * received here (committed first), its answer sent back as `result`. */
static void play_forwarded(const bus_message *m)
{
    const char *to = json_string_value(json_object_get(m->payload, "to"));
    const char *path = json_string_value(json_object_get(m->payload, "path"));
    json_t *body = json_object_get(m->payload, "body");
    json_int_t request = json_integer_value(json_object_get(m->payload, "request"));
    if (!to || strcmp(to, S.node) != 0)
        return; /* for another node */
    pss v;
    memset(&v, 0, sizeof v);
    live *g = find_live(m->game);
    /* An act that waited for this loop past half the sender's patience is
     * not played: the sender may have answered 503 already, and a 503
     * must mean the act was not played. */
    if (now_ms() - m->received_ms > forward_ms() / 2) {
        respond_later(&v, "the game's node was too busy to play it in time");
    } else if (!path || !json_is_object(body)) {
        respond_error(&v, HTTP_STATUS_BAD_REQUEST, "a malformed act from node %s", m->origin);
    } else if (!g || g->remote) {
        respond_later(&v, "the game moved to another node");
    } else if (strcmp(path, "/moves") == 0) {
        api_move(&v, m->game, body);
    } else if (strcmp(path, "/actions") == 0) {
        api_action(&v, m->game, body);
    } else if (strcmp(path, "/rematch") == 0) {
        api_rematch(&v, m->game, body);
    } else if (strcmp(path, "join") == 0 && g->rec.invite[0]) {
        api_join(&v, g->rec.invite);
    } else {
        respond_error(&v, HTTP_STATUS_NOT_FOUND, "no act '%.32s'", path);
    }
    json_t *o = json_pack("{s:s, s:I, s:i, s:i, s:s%}", "to", m->origin, "request", request,
                          "status", v.status, "retry_after", v.retry_after, "body",
                          v.resp ? v.resp + LWS_PRE : "", v.resp ? v.resp_len : 0);
    free(v.resp);
    publish(m->game, "result", o);
}

/* The waiting request whose id is request, taken off the list; NULL. */
static pss *take_waiting(uint64_t request)
{
    for (pss **link = &S.waiting; *link; link = &(*link)->next_wait)
        if ((*link)->request == request) {
            pss *p = *link;
            *link = p->next_wait;
            p->request = 0;
            p->forward_deadline = 0;
            return p;
        }
    return NULL;
}

/* The error text of an answer's JSON body, for a socket. */
static void note_answer(pss *p, const char *body, size_t len)
{
    json_t *o = json_loadb(body, len, 0, NULL);
    const char *e = json_string_value(json_object_get(o, "error"));
    ws_note(p, "error", e ? e : "the act failed");
    json_decref(o);
}

/* The owner's answer to an act this node passed on. */
static void forwarded_result(const bus_message *m)
{
    const char *to = json_string_value(json_object_get(m->payload, "to"));
    const char *body = json_string_value(json_object_get(m->payload, "body"));
    int status = (int)json_integer_value(json_object_get(m->payload, "status"));
    if (!to || strcmp(to, S.node) != 0 || !body)
        return;
    pss *p = take_waiting((uint64_t)json_integer_value(json_object_get(m->payload, "request")));
    if (!p)
        return; /* its client left, or it timed out */
    size_t len = json_string_length(json_object_get(m->payload, "body"));
    if (status == HTTP_STATUS_SERVICE_UNAVAILABLE)
        doubt_holder(m->game);
    if (p->is_ws) {
        if (status != HTTP_STATUS_OK)
            note_answer(p, body, len);
        return; /* the state comes as the owner's `state` */
    }
    p->retry_after = (int)json_integer_value(json_object_get(m->payload, "retry_after"));
    respond_raw(p, status ? status : HTTP_STATUS_INTERNAL_SERVER_ERROR, "application/json", body,
                len);
}

static void on_bus(void *ctx, const bus_message *m);

/* Acts passed on whose result did not come in time: the owner died or
 * the bus lost them. */
static void forward_timeouts(void)
{
    /* Results that arrived while this loop was busy count first. */
    if (S.bus)
        bus_dispatch(S.bus, on_bus, NULL);
    int64_t now = now_ms();
    for (pss **link = &S.waiting; *link;) {
        pss *p = *link;
        if (!p->forward_deadline || p->forward_deadline > now) {
            link = &p->next_wait;
            continue;
        }
        *link = p->next_wait;
        p->request = 0;
        p->forward_deadline = 0;
        doubt_holder(p->forward_game);
        if (p->is_ws)
            ws_note(p, "error", "the game's node did not answer: try again");
        else
            respond_later(p, "the game's node did not answer");
    }
}

/* What another node says. */
static void on_bus(void *ctx, const bus_message *m)
{
    (void)ctx;
    if (m->event == BUS_DOWN) {
        lwsl_err("bus: down: %s\n", m->error);
        return;
    }
    if (m->event == BUS_UP) {
        /* Messages may have been missed: every copy read again. */
        for (live *g = S.games; g; g = g->next)
            if (g->remote && reload_stored(g))
                notify(g);
        return;
    }
    live *g = find_live(m->game);
    if (strcmp(m->kind, "act") == 0) {
        play_forwarded(m);
    } else if (strcmp(m->kind, "result") == 0) {
        forwarded_result(m);
    } else if (strcmp(m->kind, "state") == 0 && g) {
        uint64_t seq = (uint64_t)json_integer_value(json_object_get(m->payload, "seq"));
        /* A newer state from another node: the lease is theirs now (an
         * older one may be a late message of the owner before). */
        if (seq > g->rec.seq)
            lose(g);
        if (g->remote && seq >= g->rec.seq) { /* whoever commits it owns it */
            snprintf(g->holder, sizeof g->holder, "%s", m->origin);
            g->holder_ms = now_ms();
        }
        if (seq > g->rec.seq && reload_stored(g)) {
            if (g->rec.seq < seq)
                g->rec.seq = seq;
            notify(g);
        }
    } else if (strcmp(m->kind, "released") == 0 && S.pool && (!g || g->remote)) {
        char holder[STORE_NODE];
        take_over(m->game, &g, holder);
    }
}

typedef struct takeable {
    char id[TAKE_PER_ROUND][STORE_ID];
    int n;
} takeable;

static void takeable_cb(void *ctx, const char *id)
{
    takeable *t = ctx;
    if (t->n < TAKE_PER_ROUND)
        snprintf(t->id[t->n++], STORE_ID, "%s", id);
}

/* A renewed lease: its game marked, or noted when this node does not
 * play it (a node restarted under its name, whose leases outlived it). */
static void renewed_cb(void *ctx, const char *id)
{
    live *g = find_live(id);
    if (g && !g->remote)
        g->renewed = S.round;
    else
        takeable_cb(ctx, id);
}

/* This node's leases renewed; a game whose lease was not (it expired
 * first) is lost, and so is every game once the database has not
 * answered for a lease's time; games it holds but does not play yet are
 * loaded (a few a round).  The games loaded. */
static int renew_round(void)
{
    char err[256];
    takeable own = {.n = 0};
    S.round++;
    int n = store_lease_renew(S.store, renewed_cb, &own, err, sizeof err);
    int64_t now = now_ms();
    if (n >= 0)
        S.renewed_ms = now;
    else
        lwsl_err("leases: %s\n", err);
    for (live *g = S.games; g; g = g->next)
        if (!g->remote && (n >= 0 ? g->renewed != S.round : now - S.renewed_ms > S.lease_ms))
            lose(g);
    int loaded = 0;
    for (int i = 0; i < own.n; i++) {
        live *g;
        char holder[STORE_NODE];
        loaded += take_over(own.id[i], &g, holder) == 1;
    }
    return loaded;
}

/* Every third of the lease. */
static void renew(lws_sorted_usec_list_t *sul)
{
    renew_round();
    lws_sul_schedule(S.ctx, 0, sul, renew, (lws_usec_t)S.lease_ms * LWS_US_PER_MS / 3);
}

/* One round of takeover: a few of the games nobody holds (a dead node's,
 * or a stopped one's) taken and loaded; the count taken. */
static int take_round(void)
{
    takeable t = {.n = 0};
    char err[256], holder[STORE_NODE];
    int room = S.max_games < 0 ? TAKE_PER_ROUND : S.max_games - games_playing();
    if (room <= 0)
        return 0;
    if (store_lease_takeable(S.store, room < TAKE_PER_ROUND ? room : TAKE_PER_ROUND, takeable_cb,
                             &t, err, sizeof err) < 0) {
        lwsl_err("takeover: %s\n", err);
        return 0;
    }
    int taken = 0;
    for (int i = 0; i < t.n; i++) {
        live *g;
        taken += take_over(t.id[i], &g, holder) == 1;
    }
    return taken;
}

/* Every half lease. */
static void takeover(lws_sorted_usec_list_t *sul)
{
    int n = take_round();
    if (n)
        fprintf(stderr, "node %s: took over %d game%s\n", S.node, n, n == 1 ? "" : "s");
    lws_sul_schedule(S.ctx, 0, sul, takeover, (lws_usec_t)S.lease_ms * LWS_US_PER_MS / 2);
}

/* Whether path holds a ".." segment (after lws' decoding): never served. */
static bool has_dotdot(const char *path)
{
    return strstr(path, "..") != NULL;
}

/* The load balancer's probes: /healthz, the process answers (200);
 * /readyz, and so does its store (200, else 503, the reason logged).  Both
 * say how many unfinished games the server holds (what --max-games caps). */
static void api_health(pss *p, bool readiness)
{
    char err[512];
    if (readiness && store_ping(S.store, err, sizeof err) != 0) {
        lwsl_err("readyz: %s\n", err);
        respond_error(p, HTTP_STATUS_SERVICE_UNAVAILABLE, "the %s database does not answer",
                      store_kind(S.store));
        return;
    }
    json_t *o = json_pack("{s:s, s:s, s:i}", "status", readiness ? "ready" : "up", "store",
                          store_kind(S.store), "games", games_playing());
    /* A node among several: its name and its bus (a node whose bus is away
     * still plays its own games, so it stays ready). */
    if (S.bus) {
        json_object_set_new(o, "node", json_string(S.node));
        json_object_set_new(o, "bus", json_string(bus_connected(S.bus) ? "up" : "down"));
    }
    respond(p, HTTP_STATUS_OK, o);
}

/* Routes the request in p (the body read, for a POST). */
static int route(pss *p)
{
    /* lws may report the end of an empty body after the request itself. */
    if (p->routed)
        return 0;
    p->routed = true;
    const char *u = p->uri;
    char id[64], rest[64];
    if (has_dotdot(u)) {
        respond_error(p, HTTP_STATUS_BAD_REQUEST, "a path may not hold '..'");
        return 0;
    }
    if (!p->post && (strcmp(u, "/healthz") == 0 || strcmp(u, "/readyz") == 0)) {
        api_health(p, strcmp(u, "/readyz") == 0);
        return 0;
    }
    if (strncmp(u, "/api/", 5) != 0) {
        if (p->post) {
            respond_error(p, HTTP_STATUS_METHOD_NOT_ALLOWED, "POST is for /api/ paths");
            return 0;
        }
        /* The app routes itself: its pages are all index.html. */
        if (strcmp(u, "/") == 0 || strncmp(u, "/game/", 6) == 0 || strncmp(u, "/join/", 6) == 0)
            return serve_file(p, "index.html");
        return serve_file(p, u + 1);
    }
    if (p->too_big) {
        respond_error(p, HTTP_STATUS_REQ_ENTITY_TOO_LARGE, "the body is over %d bytes", BODY_MAX);
        return 0;
    }
    const char *a = u + 5;
    if (strcmp(a, "variants") == 0 && !p->post) {
        respond_raw(p, HTTP_STATUS_OK, "application/json", S.variants, strlen(S.variants));
        return 0;
    }
    int n = 0;
    id[0] = rest[0] = '\0';
    if (sscanf(a, "games/%63[^/]%n", id, &n) == 1) {
        const char *tail = a + n;
        if (!p->post && *tail == '\0') {
            api_state(p, id);
            return 0;
        }
        if (!p->post && strcmp(tail, "/pdn") == 0) {
            api_pdn(p, id);
            return 0;
        }
        snprintf(rest, sizeof rest, "%s", tail);
    }
    if (p->post) {
        bool known = strcmp(a, "games") == 0 || strcmp(a, "import") == 0 ||
                     strcmp(a, "analysis") == 0 || strncmp(a, "join/", 5) == 0 ||
                     (id[0] && (strcmp(rest, "/moves") == 0 || strcmp(rest, "/actions") == 0 ||
                                strcmp(rest, "/rematch") == 0));
        if (known) {
            json_t *body = body_object(p);
            if (!body)
                return 0;
            /* Among several nodes an act on another node's game goes to
             * its owner; a join finds its game in the store. */
            char joined[STORE_ID], err[256];
            bool join = strncmp(a, "join/", 5) == 0;
            int found = S.bus && join
                            ? store_find_invite(S.store, a + 5, joined, sizeof joined, err, sizeof err)
                            : 0;
            if (found < 0) {
                respond_later(p, "the database does not answer");
                json_decref(body);
                return 0;
            }
            if (S.bus && (found == 1 || (id[0] && !join)) &&
                route_elsewhere(p, found == 1 ? joined : id, found == 1 ? "join" : rest, body)) {
                json_decref(body);
                return 0;
            }
            if (strcmp(a, "games") == 0)
                api_create(p, body);
            else if (strcmp(a, "import") == 0)
                api_import(p, body);
            else if (strcmp(a, "analysis") == 0)
                api_analysis(p, body);
            else if (strncmp(a, "join/", 5) == 0)
                api_join(p, a + 5);
            else if (strcmp(rest, "/moves") == 0)
                api_move(p, id, body);
            else if (strcmp(rest, "/rematch") == 0)
                api_rematch(p, id, body);
            else
                api_action(p, id, body);
            json_decref(body);
            return 0;
        }
    }
    respond_error(p, HTTP_STATUS_NOT_FOUND, "no such API path: %s %.200s", p->post ? "POST" : "GET",
                  u);
    return 0;
}

/* ---- WebSockets ---------------------------------------------------------- */

static void ws_attach(pss *p)
{
    char uri[256], buf[256];
    p->is_ws = true;
    p->role = ROLE_READER;
    if (lws_hdr_copy(p->wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) <= 0 ||
        strncmp(uri, "/ws/games/", 10) != 0 || !(p->game = find_game(uri + 10))) {
        p->note = strdup("{\"type\":\"error\",\"error\":\"no such game\"}");
        p->close_after = true;
        lws_callback_on_writable(p->wsi);
        return;
    }
    const char *token = lws_get_urlarg_by_name(p->wsi, "token=", buf, sizeof buf);
    int seats = token_seats(p->game, token);
    if (seats)
        snprintf(p->token, sizeof p->token, "%s", token);
    p->role = seats == 3 ? ROLE_BOTH : seats == 1 ? DM_WHITE : seats == 2 ? DM_BLACK : ROLE_READER;
    p->next_sub = p->game->subs;
    p->game->subs = p;
    p->dirty = true;
    lws_callback_on_writable(p->wsi);
}

static void ws_detach(pss *p)
{
    if (!p->game)
        return;
    for (pss **link = &p->game->subs; *link; link = &(*link)->next_sub)
        if (*link == p) {
            *link = p->next_sub;
            break;
        }
    p->game = NULL;
}

static int ws_send(pss *p, const char *text)
{
    size_t len = strlen(text);
    unsigned char *buf = malloc(LWS_PRE + len);
    if (!buf)
        return -1;
    memcpy(buf + LWS_PRE, text, len);
    int n = lws_write(p->wsi, buf + LWS_PRE, len, LWS_WRITE_TEXT);
    free(buf);
    return n < (int)len ? -1 : 0;
}

static void ws_note(pss *p, const char *type, const char *error)
{
    json_t *o = json_pack("{s:s, s:s}", "type", type, "error", error);
    free(p->note);
    p->note = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    lws_callback_on_writable(p->wsi);
}

/* A socket's move or act on another node's game: passed to the owner,
 * whose `state` then reaches this socket (an error comes as a note);
 * false when the game turned out to be this node's now (played here). */
static bool ws_forward(pss *p, const char *type, const char *what)
{
    bool move = strcmp(type, "move") == 0;
    if (!move && strcmp(what, "resign") != 0 && strcmp(what, "offer-draw") != 0) {
        ws_note(p, "error", "over the socket: resign, offer-draw (the rest by POST "
                            "/api/games/{id}/actions)");
        return true;
    }
    if (p->request) {
        ws_note(p, "error", "the last act is on its way to the game's node: wait for its state");
        return true;
    }
    char holder[STORE_NODE];
    live *g;
    enum where w = locate_for(p->game->rec.id, false, &g, holder);
    if (w == HELD)
        return false; /* taken over here meanwhile: played here */
    json_t *body = json_pack("{s:s, s:s}", move ? "move" : "action", what, "token", p->token);
    if (w != ELSEWHERE || !holder[0] ||
        !forward(p, holder, p->game->rec.id, move ? "/moves" : "/actions", body))
        ws_note(p, "error", "the game's node cannot be reached now: try again");
    json_decref(body);
    return true;
}

/* One message from a socket: a ping, or (with a seat token) a move or an
 * act in the forms of the HTTP API: {"type":"move","move":...},
 * {"type":"action","action":...}. */
static void ws_receive(pss *p, const char *text, size_t len)
{
    json_t *o = json_loadb(text, len, 0, NULL);
    const char *type = json_string_value(json_object_get(o, "type"));
    if (!type) {
        ws_note(p, "error", "a message is a JSON object with a \"type\"");
    } else if (strcmp(type, "ping") == 0) {
        p->pong = true;
        lws_callback_on_writable(p->wsi);
    } else if (strcmp(type, "move") == 0 || strcmp(type, "action") == 0) {
        live *g = p->game;
        const char *what = json_string_value(json_object_get(o, type));
        dm_error err;
        int ply0 = g ? dm_match_ply(g->m) : 0, rc = -1;
        uint64_t seq0 = g ? dm_match_seq(g->m) : 0;
        if (!g || p->role == ROLE_READER) {
            ws_note(p, "error", "this socket only reads: connect with ?token= to play");
        } else if (!what) {
            ws_note(p, "error", strcmp(type, "move") == 0 ? "'move' is missing" : "'action' is missing");
        } else if (g->remote && ws_forward(p, type, what)) {
            /* passed to the owner, or refused with a note */
        } else {
            int seats = p->role == ROLE_BOTH ? 3 : 1 << p->role;
            if (strcmp(type, "move") == 0) {
                rc = dm_match_play_text(g->m, acting_color(g, seats, -1), what, &err);
            } else if (strcmp(what, "resign") == 0) {
                rc = dm_match_resign(g->m, acting_color(g, seats, -1), &err);
            } else if (strcmp(what, "offer-draw") == 0) {
                rc = dm_match_offer_draw(g->m, acting_color(g, seats, -1), &err) < 0 ? -1 : 0;
            } else {
                snprintf(err.msg, sizeof err.msg, "over the socket: resign, offer-draw (the rest "
                                                  "by POST /api/games/{id}/actions)");
            }
            char serr[256];
            if (dm_match_seq(g->m) != seq0 && commit(g, ply0, serr, sizeof serr) != 0 && rc == 0) {
                snprintf(err.msg, sizeof err.msg, "the act could not be stored: %s", serr);
                rc = -1;
            }
            if (rc != 0)
                ws_note(p, "error", err.msg);
        }
    } else {
        ws_note(p, "error", "unknown message type");
    }
    json_decref(o);
}

static int ws_writable(pss *p)
{
    if (p->note) {
        int rc = ws_send(p, p->note);
        free(p->note);
        p->note = NULL;
        if (rc || p->close_after)
            return -1;
    } else if (p->pong) {
        p->pong = false;
        if (ws_send(p, "{\"type\":\"pong\"}"))
            return -1;
    } else if (p->dirty && p->game) {
        p->dirty = false;
        int seats = p->role == ROLE_BOTH ? 3 : p->role >= 0 ? 1 << p->role : 0;
        json_t *o = json_pack("{s:s, s:o}", "type", "state", "game", state_json(p->game, seats));
        char *text = json_dumps(o, JSON_COMPACT);
        json_decref(o);
        int rc = text ? ws_send(p, text) : -1;
        free(text);
        if (rc)
            return -1;
    }
    if (p->note || p->pong || p->dirty)
        lws_callback_on_writable(p->wsi);
    return 0;
}

/* ---- connections per peer address ---------------------------------------- */

/* The open connections of one address.  An accepted connection points at
 * its peer (lws' opaque user data of the wsi) from its first callback to
 * its destruction, so the count is exact whatever way the connection ends. */
typedef struct peer {
    unsigned char addr[16]; /* IPv6, or IPv4 mapped into it              */
    int conns;
    struct peer *next;
} peer;

/* The address of socket fd's peer as 16 bytes; false if it has none. */
static bool peer_address(int fd, unsigned char addr[16])
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    if (fd < 0 || getpeername(fd, (struct sockaddr *)&ss, &len) != 0)
        return false;
    memset(addr, 0, 16);
    if (ss.ss_family == AF_INET) {
        addr[10] = addr[11] = 0xff;
        memcpy(addr + 12, &((struct sockaddr_in *)&ss)->sin_addr, 4);
    } else if (ss.ss_family == AF_INET6) {
        memcpy(addr, &((struct sockaddr_in6 *)&ss)->sin6_addr, 16);
    } else {
        return false;
    }
    return true;
}

static peer **peer_slot(const unsigned char addr[16])
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (int i = 0; i < 16; i++)
        h = (h ^ addr[i]) * 16777619u;
    peer **link = &S.peers[h % PEER_BUCKETS];
    while (*link && memcmp((*link)->addr, addr, 16) != 0)
        link = &(*link)->next;
    return link;
}

/* A new connection on socket fd, before lws takes it: 0 to take it, -1
 * (lws closes it) when its address holds max_per_address already; that
 * client is told so in a complete answer, as nothing of its request has
 * been read yet. */
static int peer_admit(int fd)
{
    unsigned char addr[16];
    if (S.max_per_address <= 0 || !peer_address(fd, addr))
        return 0;
    peer *known = *peer_slot(addr);
    if (!known || known->conns < S.max_per_address)
        return 0;
    char answer[256];
    int n = snprintf(answer, sizeof answer,
                     "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n"
                     "content-length: %d\r\nconnection: close\r\n\r\n%s",
                     (int)strlen("{\"error\":\"too many connections from this address\"}"),
                     "{\"error\":\"too many connections from this address\"}");
    if (send(fd, answer, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL) == n)
        shutdown(fd, SHUT_WR);
    return -1;
}

/* The connection wsi (just accepted) counted against its address. */
static void peer_attach(struct lws *wsi)
{
    unsigned char addr[16];
    if (!peer_address(lws_get_socket_fd(wsi), addr))
        return;
    peer **link = peer_slot(addr);
    if (!*link) {
        if (!(*link = calloc(1, sizeof **link)))
            return; /* uncounted: the limit is a defence, not a contract */
        memcpy((*link)->addr, addr, 16);
    }
    (*link)->conns++;
    lws_set_opaque_user_data(wsi, *link);
}

static void peer_detach(struct lws *wsi)
{
    peer *pe = lws_get_opaque_user_data(wsi);
    if (!pe)
        return;
    lws_set_opaque_user_data(wsi, NULL);
    if (--pe->conns > 0)
        return;
    peer **link = peer_slot(pe->addr);
    *link = pe->next;
    free(pe);
}

/* ---- the protocol callback ---------------------------------------------- */

static void forget_request(pss *p)
{
    for (pss **link = &S.waiting; *link; link = &(*link)->next_wait)
        if (*link == p) {
            *link = p->next_wait;
            break;
        }
    free(p->body);
    free(p->resp);
    free(p->note);
    p->body = p->resp = p->note = NULL;
}

static int http_writable(pss *p)
{
    if (p->phase == 3)
        return close_after_answer(p);
    if (p->phase == 1) {
        unsigned char buf[LWS_PRE + 2048], *start = buf + LWS_PRE, *q = start,
                                                *end = buf + sizeof buf - 1;
        char retry[16];
        snprintf(retry, sizeof retry, "%d", p->retry_after);
        if (lws_add_http_common_headers(p->wsi, (unsigned)p->status, p->ctype,
                                        (lws_filepos_t)p->resp_len, &q, end) ||
            common_headers(p->wsi, &q, end, "no-store") ||
            (p->retry_after > 0 &&
             lws_add_http_header_by_name(p->wsi, (const unsigned char *)"retry-after:",
                                         (const unsigned char *)retry, (int)strlen(retry), &q,
                                         end)) ||
            lws_finalize_write_http_header(p->wsi, start, &q, end))
            return -1;
        p->phase = 2;
        p->retry_after = 0;
        lws_callback_on_writable(p->wsi);
        return 0;
    }
    if (p->phase == 2) {
        p->phase = 0;
        int n = lws_write(p->wsi, (unsigned char *)p->resp + LWS_PRE, p->resp_len,
                          LWS_WRITE_HTTP_FINAL);
        free(p->resp);
        p->resp = NULL;
        if (n < 0)
            return -1;
        free(p->body);
        p->body = NULL;
        p->body_len = 0;
        p->too_big = false;
        return close_after_answer(p);
    }
    return 0;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len)
{
    pss *p = user;
    /* A connection closed before its first request was read (an idle one
     * timed out, or one that sent half a request) has no state yet. */
    if (!p && (reason == LWS_CALLBACK_CLOSED_HTTP || reason == LWS_CALLBACK_CLOSED))
        return 0;
    switch (reason) {
    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
        return peer_admit((int)(intptr_t)in);
    case LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED:
        peer_attach(wsi);
        return 0;
    case LWS_CALLBACK_WSI_DESTROY:
        peer_detach(wsi);
        return 0;
    case LWS_CALLBACK_HTTP:
        p->wsi = wsi;
        p->started = lws_now_usecs();
        p->post = lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0;
        if (!p->post && lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) <= 0) {
            respond_error(p, HTTP_STATUS_METHOD_NOT_ALLOWED, "only GET and POST");
            return 0;
        }
        snprintf(p->uri, sizeof p->uri, "%s", (const char *)in);
        p->body_len = 0;
        p->too_big = false;
        p->routed = false;
        if (p->post) {
            char cl[32];
            /* No body at all: lws sends no completion, so answer now. */
            if (lws_hdr_copy(wsi, cl, sizeof cl, WSI_TOKEN_HTTP_CONTENT_LENGTH) <= 0 ||
                atol(cl) == 0)
                return route(p);
            return 0; /* the body follows */
        }
        return route(p);
    case LWS_CALLBACK_HTTP_BODY:
        if (len == 0) /* an empty body's report: in may be NULL */
            return 0;
        /* lws' timeout restarts with every piece: a trickle is cut here. */
        if (lws_now_usecs() - p->started > REQUEST_SECONDS * LWS_US_PER_SEC)
            return -1;
        if (p->too_big || p->body_len + len > BODY_MAX) {
            /* Read on, keep nothing: the client hears 413 once it is done. */
            p->too_big = true;
            return 0;
        }
        if (!p->body && !(p->body = malloc(BODY_MAX)))
            return -1;
        memcpy(p->body + p->body_len, in, len);
        p->body_len += len;
        return 0;
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        return route(p);
    case LWS_CALLBACK_HTTP_WRITEABLE:
        return http_writable(p);
    case LWS_CALLBACK_HTTP_FILE_COMPLETION:
        return close_after_answer(p);
    case LWS_CALLBACK_CLOSED_HTTP:
        forget_request(p);
        return 0;
    case LWS_CALLBACK_ESTABLISHED:
        p->wsi = wsi;
        ws_attach(p);
        return 0;
    case LWS_CALLBACK_RECEIVE:
        if (!lws_is_final_fragment(wsi) || !lws_is_first_fragment(wsi)) {
            /* The rest of such a message would come as more pieces: the
             * socket is closed rather than read on. */
            static const char why[] = "a message is one frame of at most 4096 bytes";
            lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, (unsigned char *)why,
                             sizeof why - 1);
            return -1;
        }
        ws_receive(p, in, len);
        return 0;
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return ws_writable(p);
    case LWS_CALLBACK_CLOSED:
        ws_detach(p);
        forget_request(p);
        return 0;
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        if (S.bus)
            bus_dispatch(S.bus, on_bus, NULL);
        if (!S.pool)
            return 0;
        for (pool_job *job = pool_take_done(S.pool), *next; job; job = next) {
            next = job->next;
            if (job->kind == POOL_ANALYSIS)
                analysis_done(job);
            else
                game_job_done(job);
            pool_job_free(job);
        }
        return 0;
    default:
        return 0;
    }
}

static struct lws_protocols protocols[] = {
    {"damier", callback, sizeof(pss), WS_MESSAGE_MAX, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* ---- the loop ------------------------------------------------------------ */

/* Set by a signal or by srv_stop on another thread: a lock-free atomic
 * serves both. */
static atomic_int stopping;

static void on_signal(int sig)
{
    (void)sig;
    stopping = 1;
    if (S.ctx)
        lws_cancel_service(S.ctx);
}

/* srv_stop's view of the running context: set and cleared under the lock,
 * so a stop from another thread never wakes a context being destroyed. */
static pthread_mutex_t running_lock = PTHREAD_MUTEX_INITIALIZER;
static struct lws_context *running;

void srv_stop(void)
{
    pthread_mutex_lock(&running_lock);
    if (running) {
        stopping = 1;
        lws_cancel_service(running);
    }
    pthread_mutex_unlock(&running_lock);
}

static void wake(void *ctx)
{
    lws_cancel_service(ctx);
}

/* Ends on time the games whose flag fell with nobody acting; lets the
 * finished ones nobody watches go from memory. */
static void tick(lws_sorted_usec_list_t *sul)
{
    char err[256];
    for (live *g = S.games; g; g = g->next) {
        if (g->remote || !dm_match_timed(g->m) || dm_match_over(g->m))
            continue;
        int ply0 = dm_match_ply(g->m);
        if (dm_match_tick(g->m))
            commit(g, ply0, err, sizeof err);
    }
    forget_finished();
    forward_timeouts();
    lws_sul_schedule(S.ctx, 0, sul, tick, TICK_US);
}

int srv_run(const srv_config *c)
{
    char err[512];
    memset(&S, 0, sizeof S);
    snprintf(S.web, sizeof S.web, "%s", c->web);
    S.max_games = c->max_games ? c->max_games : MAX_GAMES;
    S.lease_ms = c->lease_ms > 0 ? c->lease_ms : SRV_LEASE_MS;
    S.games_per_minute = c->games_per_minute ? c->games_per_minute : GAMES_PER_MINUTE;
    S.urandom = fopen("/dev/urandom", "rb");
    S.variants = build_variants();
    S.store = store_open(c->db, err, sizeof err);
    if (!S.store || !S.variants ||
        (c->node && store_set_node(S.store, c->node, S.lease_ms, err, sizeof err) != 0)) {
        fprintf(stderr, "serve: %s\n", S.store && !S.variants ? "out of memory" : err);
        store_close(S.store);
        free(S.variants);
        return 1;
    }
    if (c->node)
        snprintf(S.node, sizeof S.node, "%s", c->node);
    lws_set_log_level(LLL_ERR, NULL);

    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = c->port;
    info.iface = c->host;
    info.protocols = protocols;
    info.options = LWS_SERVER_OPTION_VALIDATE_UTF8;
    /* Bodies of at most BODY_MAX; lws' default header space is enough.
     * A request stalled in its headers or its body is closed after
     * REQUEST_SECONDS; an idle keep-alive connection after lws' 5 s. */
    info.timeout_secs = REQUEST_SECONDS;
    info.timeout_secs_ah_idle = REQUEST_SECONDS;
    S.max_per_address = c->max_per_address == 0   ? SRV_MAX_PER_ADDRESS
                        : c->max_per_address < 0 ? 0
                                                 : c->max_per_address;
    S.ctx = lws_create_context(&info);
    if (!S.ctx) {
        fprintf(stderr, "serve: cannot listen on %s:%d\n", c->host, c->port);
        store_close(S.store);
        free(S.variants);
        return 1;
    }
    if (c->node && !(S.bus = bus_open(c->redis, c->node, wake, S.ctx, err, sizeof err))) {
        fprintf(stderr, "serve: %s\n", err);
        lws_context_destroy(S.ctx);
        store_close(S.store);
        free(S.variants);
        return 1;
    }
    S.pool = c->engine_threads > 0 ? pool_start(c->engine_threads, wake, S.ctx) : NULL;
    int loaded = 0;
    /* One process resumes every unfinished game; a node among several
     * takes those nobody holds, round after round (the rest are the
     * other nodes'). */
    int rc = 0;
    if (S.bus) {
        for (int n; (n = renew_round()) > 0;)
            loaded += n;
        for (int n; (n = take_round()) > 0;)
            loaded += n;
    }
    else if (S.pool)
        rc = store_load_unfinished(S.store, revive_cb, &loaded, err, sizeof err);
    if ((!S.pool && c->engine_threads > 0) || rc < 0) {
        fprintf(stderr, "serve: %s\n", rc < 0 ? err : "cannot start the engine threads");
        pool_stop(S.pool);
        bus_close(S.bus);
        lws_context_destroy(S.ctx);
        store_close(S.store);
        free(S.variants);
        return 1;
    }
    struct lws_vhost *vh = lws_get_vhost_by_name(S.ctx, "default");
    int port = vh ? lws_get_vhost_listen_port(vh) : c->port;
    printf("Damier is at http://%s:%d/\n", c->host, port);
    if (S.bus)
        printf("node %s: leases of %d ms, %s\n", S.node, S.lease_ms,
               S.pool ? "with an engine" : "no engine (its computer games go to other nodes)");
    if (loaded)
        printf("resumed %d unfinished game%s\n", loaded, loaded == 1 ? "" : "s");
    fflush(stdout);

    stopping = 0;
    if (!c->in_thread) {
        signal(SIGINT, on_signal);
        signal(SIGTERM, on_signal);
    }
    signal(SIGPIPE, SIG_IGN);
    pthread_mutex_lock(&running_lock);
    running = S.ctx;
    pthread_mutex_unlock(&running_lock);
    lws_sul_schedule(S.ctx, 0, &S.tick, tick, TICK_US);
    if (S.bus) {
        S.renewed_ms = now_ms();
        lws_sul_schedule(S.ctx, 0, &S.renew_timer, renew,
                         (lws_usec_t)S.lease_ms * LWS_US_PER_MS / 3);
        lws_sul_schedule(S.ctx, 0, &S.takeover_timer, takeover,
                         (lws_usec_t)S.lease_ms * LWS_US_PER_MS / 2);
    }
    while (!stopping)
        if (lws_service(S.ctx, 0) < 0)
            break;
    pthread_mutex_lock(&running_lock);
    running = NULL;
    pthread_mutex_unlock(&running_lock);

    pool_stop(S.pool);
    S.pool = NULL;
    if (S.bus) {
        /* A clean stop gives every game up at once, and says so: the
         * other nodes take them without waiting for the leases. */
        if (store_lease_release(S.store, NULL, err, sizeof err) != 0)
            lwsl_err("leases: %s\n", err);
        for (live *g = S.games; g; g = g->next)
            if (!g->remote && !dm_match_over(g->m))
                publish(g->rec.id, "released", json_pack("{s:I}", "seq", (json_int_t)g->rec.seq));
        bus_close(S.bus);
        S.bus = NULL;
    }
    lws_context_destroy(S.ctx);
    for (live *g = S.games, *next; g; g = next) {
        next = g->next;
        dm_match_free(g->m);
        free(g);
    }
    store_close(S.store);
    free(S.variants);
    if (S.urandom)
        fclose(S.urandom);
    return 0;
}
