/* SPDX-License-Identifier: MIT */
/*
 * players.c - the two kinds of player a match knows: Damier in this
 * process, and an engine behind the Hub protocol in a process of its own.
 *
 * A third kind, an engine that waits for DamExchange games at an address,
 * is proposed each game (GAMEREQ with the position after the opening), sent
 * the other side's moves and read for its own.
 *
 * All answer one question: the move for the current position of a match,
 * within a node budget or the mover's clock.  The answer is checked by the
 * caller against the legal moves; a Hub engine that cannot be understood,
 * or says nothing in time, has no move to give.
 */
#include "match/players.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proto/dxpmsg.h"
#include "proto/hubline.h"

#define HUB_START_MS 10000 /* handshake and init                              */
#define HUB_GRACE_MS 5000  /* beyond the mover's time before it is given up   */
#define HUB_STOP_MS 2000   /* for the answer to stop after a missed deadline  */

int player_spec_parse(const char *text, struct player_spec *spec, char *why, size_t size)
{
    memset(spec, 0, sizeof *spec);
    if (strncmp(text, "hub:", 4) == 0) {
        spec->kind = PLAYER_HUB;
        if (!text[4] || strlen(text + 4) >= sizeof spec->command) {
            snprintf(why, size, "engine '%.40s': hub: needs the command that starts it", text);
            return -1;
        }
        snprintf(spec->command, sizeof spec->command, "%s", text + 4);
        snprintf(spec->name, sizeof spec->name, "%.*s", (int)sizeof spec->name - 1, text + 4);
        return 0;
    }
    if (strncmp(text, "dxp:", 4) == 0) {
        spec->kind = PLAYER_DXP;
        if (!strchr(text + 4, ':') || strlen(text + 4) >= sizeof spec->command) {
            snprintf(why, size, "engine '%.40s': dxp: needs the engine's HOST:PORT", text);
            return -1;
        }
        snprintf(spec->command, sizeof spec->command, "%s", text + 4);
        snprintf(spec->name, sizeof spec->name, "%.*s", (int)sizeof spec->name - 1, text);
        return 0;
    }
    if (strncmp(text, "damier", 6) != 0 || (text[6] && text[6] != ' ')) {
        snprintf(why, size, "engine '%.40s': expected 'damier [level=N] [hash=MB] [name=X]', "
                 "'hub:COMMAND' or 'dxp:HOST:PORT'", text);
        return -1;
    }
    spec->kind = PLAYER_DAMIER;
    spec->level = 0;
    snprintf(spec->name, sizeof spec->name, "Damier");
    char copy[256];
    snprintf(copy, sizeof copy, "%s", text + 6);
    for (char *save, *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *end;
        if (strncmp(tok, "level=", 6) == 0) {
            long n = strtol(tok + 6, &end, 10);
            if (*end || n < 1 || n > DM_LEVEL_MAX) {
                snprintf(why, size, "engine '%.40s': level is 1 to %d", text, DM_LEVEL_MAX);
                return -1;
            }
            spec->level = (int)n;
            snprintf(spec->name, sizeof spec->name, "Damier level %ld", n);
        } else if (strncmp(tok, "hash=", 5) == 0) {
            long n = strtol(tok + 5, &end, 10);
            if (*end || n < 1 || n > 4096) {
                snprintf(why, size, "engine '%.40s': hash is 1 to 4096 MB", text);
                return -1;
            }
            spec->hash_mb = (size_t)n;
        } else if (strncmp(tok, "name=", 5) == 0 && tok[5]) {
            snprintf(spec->name, sizeof spec->name, "%s", tok + 5);
        } else {
            snprintf(why, size, "engine '%.40s': unknown setting '%.20s'", text, tok);
            return -1;
        }
    }
    return 0;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- a Hub engine in a child process ---------------------------------------- */

static bool hub_send(struct player *p, const char *line)
{
    size_t n = strlen(line);
    return write(p->to, line, n) == (ssize_t)n;
}

/* The engine's next line within deadline (a monotonic ms), or false. */
static bool hub_line(struct player *p, int64_t deadline, char *line, size_t size)
{
    for (;;) {
        char *nl = memchr(p->buf, '\n', p->len);
        if (nl) {
            size_t n = (size_t)(nl - p->buf);
            snprintf(line, size, "%.*s", (int)(n && nl[-1] == '\r' ? n - 1 : n), p->buf);
            memmove(p->buf, nl + 1, p->len - n - 1);
            p->len -= n + 1;
            return true;
        }
        if (p->len == sizeof p->buf)
            p->len = 0; /* a line longer than any Hub line: dropped */
        int64_t left = deadline - now_ms();
        if (left <= 0)
            return false;
        struct pollfd q = {p->from, POLLIN, 0};
        int r = poll(&q, 1, (int)left);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        ssize_t got = read(p->from, p->buf + p->len, sizeof p->buf - p->len);
        if (got <= 0)
            return false;
        p->len += (size_t)got;
    }
}

/* Reads lines until one with that command; false on time-out or the end. */
static bool hub_expect(struct player *p, const char *command, int64_t deadline,
                       struct hub_line *line)
{
    char text[HUB_LINE_MAX], why[64];
    while (hub_line(p, deadline, text, sizeof text))
        if (hub_line_parse(text, line, why, sizeof why) == 0 && strcmp(line->command, command) == 0)
            return true;
    return false;
}

static int hub_start(struct player *p, const dm_variant *v, char *why, size_t size)
{
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) {
        snprintf(why, size, "cannot start '%s': %s", p->spec.command, strerror(errno));
        return -1;
    }
    p->pid = fork();
    if (p->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        execl("/bin/sh", "sh", "-c", p->spec.command, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    p->to = in[1];
    p->from = out[0];
    p->len = 0;
    static _Thread_local struct hub_line line;
    int64_t deadline = now_ms() + HUB_START_MS;
    char set[128];
    snprintf(set, sizeof set, "set-param name=variant value=%s\n", dm_variant_id(v));
    if (p->pid < 0 || !hub_send(p, "hub\n") || !hub_expect(p, "wait", deadline, &line) ||
        !hub_send(p, set) || !hub_send(p, "init\n") || !hub_expect(p, "ready", deadline, &line)) {
        snprintf(why, size, "engine '%s' did not start as a Hub engine (hub, wait, init, ready)",
                 p->spec.command);
        return -1;
    }
    return 0;
}

static void hub_stop(struct player *p)
{
    if (p->pid <= 0)
        return;
    hub_send(p, "quit\n");
    close(p->to);
    int64_t deadline = now_ms() + 2000;
    int status;
    while (waitpid(p->pid, &status, WNOHANG) == 0) {
        if (now_ms() > deadline) {
            kill(p->pid, SIGKILL);
            waitpid(p->pid, &status, 0);
            break;
        }
        struct timespec pause = {0, 5000000};
        nanosleep(&pause, NULL);
    }
    close(p->from);
    p->pid = 0;
    p->to = p->from = -1; /* closed: no write may reach a reused descriptor */
}

/* A Hub engine that missed its deadline may answer later, and that late
 * "done" would be read as its move in the next game.  It is told to stop
 * and its answer is drained; one that still says nothing is started again
 * (a failed start leaves it with no process: its next moves fail at once). */
static void hub_recover(struct player *p, const dm_variant *v)
{
    static _Thread_local struct hub_line line;
    if (p->pid > 0 && hub_send(p, "stop\n") &&
        hub_expect(p, "done", now_ms() + HUB_STOP_MS, &line))
        return;
    hub_stop(p);
    char why[200];
    if (hub_start(p, v, why, sizeof why) != 0)
        hub_stop(p);
}

/* The Hub engine's move in m's position, or -1 (with why). */
static int hub_move(struct player *p, const dm_match *m, const struct player_limits *lim,
                    dm_move *mv, char *why, size_t size)
{
    const dm_variant *v = dm_match_variant(m);
    const dm_game *g = dm_match_game(m);
    if (p->pid <= 0) {
        snprintf(why, size, "'%s' is not running (it did not start again)", p->spec.name);
        return -1;
    }
    struct hub_out out;
    char text[DM_HUB_POSITION_SIZE];
    dm_hub_position_format(v, dm_game_position(g, 0), text, sizeof text);
    static _Thread_local char moves[HUB_LINE_MAX];
    size_t len = 0;
    moves[0] = '\0';
    for (int i = 1; i <= dm_game_ply(g) && len + DM_HUB_MOVE_SIZE + 1 < sizeof moves; i++) {
        char mt[DM_HUB_MOVE_SIZE];
        dm_hub_move_format(v, dm_game_move(g, i), mt, sizeof mt);
        len += (size_t)snprintf(moves + len, sizeof moves - len, "%s%s", i > 1 ? " " : "", mt);
    }
    hub_out_start(&out, "pos");
    hub_out_arg(&out, "pos", text);
    if (len)
        hub_out_arg(&out, "moves", moves);
    bool ok = hub_send(p, hub_out_end(&out));
    hub_out_start(&out, "level");
    if (lim->nodes) {
        hub_out_argf(&out, "nodes", "%llu", (unsigned long long)lim->nodes);
    } else {
        if (lim->moves_to_go)
            hub_out_argf(&out, "moves", "%d", lim->moves_to_go);
        hub_out_argf(&out, "time", "%.3f", lim->time_left_ms / 1000.0);
        if (lim->increment_ms)
            hub_out_argf(&out, "inc", "%.3f", lim->increment_ms / 1000.0);
    }
    ok = ok && hub_send(p, hub_out_end(&out)) && hub_send(p, "go think\n");
    static _Thread_local struct hub_line line;
    int64_t deadline = now_ms() + (lim->nodes ? 600000 : lim->time_left_ms) + HUB_GRACE_MS;
    if (!ok || !hub_expect(p, "done", deadline, &line)) {
        snprintf(why, size, "no move from '%s' in time", p->spec.name);
        hub_recover(p, v);
        return -1;
    }
    const char *move = hub_line_arg(&line, "move");
    dm_error err;
    int at = move ? dm_hub_move_parse(v, dm_match_legal(m), move, &err) : -1;
    if (at < 0) {
        snprintf(why, size, "'%s' played '%.40s': %s", p->spec.name, move ? move : "",
                 move ? err.msg : "no move= in its done line");
        return -1;
    }
    *mv = dm_match_legal(m)->moves[at];
    return 0;
}


/* ---- a DXP engine at an address ---------------------------------------------- */

#define DXP_ANSWER_MS 10000 /* GAMEACC and GAMEEND                           */

static int dxp_start(struct player *p, const dm_variant *v, char *why, size_t size)
{
    (void)v;
    if (dxp_connect(p->spec.command, &p->dxp, why, size) != 0)
        return -1;
    return 0;
}

static bool dxp_put(struct player *p, const struct dxp_message *m, int squares)
{
    char text[DXP_MAX_MESSAGE + 1];
    return dxp_format(m, squares, text, sizeof text) >= 0 && dxp_send(&p->dxp, text) == 0;
}

/* The next message other than CHAT within timeout_ms, or false. */
static bool dxp_get(struct player *p, int squares, int timeout_ms, struct dxp_message *m,
                    char *why, size_t size)
{
    char text[DXP_MAX_MESSAGE + 1], reason[200];
    for (;;) {
        int n = dxp_receive(&p->dxp, text, timeout_ms, reason, sizeof reason);
        if (n < 0) {
            snprintf(why, size, "'%s': %s", p->spec.name, reason);
            return false;
        }
        if (dxp_parse(text, (size_t)n, squares, m, reason, sizeof reason) != 0) {
            snprintf(why, size, "'%s' sent a malformed message: %s", p->spec.name, reason);
            return false;
        }
        if (m->kind != DXP_CHAT)
            return true;
    }
}

static int dxp_new_game(struct player *p, const dm_match *m, enum dm_color color,
                        const struct player_limits *lim, char *why, size_t size)
{
    const dm_variant *v = dm_match_variant(m);
    int squares = dm_variant_cells(v);
    struct dxp_message req = {.kind = DXP_GAMEREQ, .color = color == DM_WHITE ? 'W' : 'Z',
                              .moves = lim->moves_to_go};
    int64_t minutes = (lim->time_left_ms + 59999) / 60000;
    req.minutes = minutes < 1 ? 1 : minutes > 999 ? 999 : (int)minutes;
    snprintf(req.name, sizeof req.name, "Damier match");
    p->color = color;
    p->synced = dm_match_ply(m);
    if (p->synced > 0) {
        /* After the opening: the position as a set-up. */
        char hub[DM_HUB_POSITION_SIZE];
        dm_hub_position_format(v, dm_match_position(m), hub, sizeof hub);
        req.setup = true;
        req.to_move = hub[0] == 'W' ? 'W' : 'Z';
        for (int i = 0; i < squares; i++)
            req.board[i] = hub[i + 1] == 'b' ? 'z' : hub[i + 1] == 'B' ? 'Z' : hub[i + 1];
    }
    struct dxp_message acc;
    if (!dxp_put(p, &req, squares) || !dxp_get(p, squares, DXP_ANSWER_MS, &acc, why, size))
        return -1;
    if (acc.kind != DXP_GAMEACC || acc.code != 0) {
        snprintf(why, size, "'%s' refused the game (%c, code %d)", p->spec.name, acc.kind,
                 acc.code);
        return -1;
    }
    return 0;
}

/* Sends the engine the moves it has not seen (the other side's). */
static bool dxp_sync(struct player *p, const dm_match *m)
{
    const dm_variant *v = dm_match_variant(m);
    const dm_game *g = dm_match_game(m);
    for (; p->synced < dm_game_ply(g); p->synced++) {
        const dm_move *mv = dm_game_move(g, p->synced + 1);
        struct dxp_message out = {.kind = DXP_MOVE, .from = dm_cell_number(v, mv->from),
                                  .to = dm_cell_number(v, mv->to)};
        for (int i = 0; i < mv->njumps && i < DXP_MAX_CAPTURED; i++)
            out.captured[out.ncaptured++] = dm_cell_number(v, mv->captured[i]);
        if (!dxp_put(p, &out, dm_variant_cells(v)))
            return false;
    }
    return true;
}

static int dxp_move(struct player *p, const dm_match *m, const struct player_limits *lim,
                    dm_move *mv, char *why, size_t size)
{
    const dm_variant *v = dm_match_variant(m);
    int squares = dm_variant_cells(v);
    if (!dxp_sync(p, m)) {
        snprintf(why, size, "the connection to '%s' is lost", p->spec.name);
        return -1;
    }
    struct dxp_message in;
    int64_t wait = lim->time_left_ms + HUB_GRACE_MS;
    if (!dxp_get(p, squares, wait > 3600000 ? 3600000 : (int)wait, &in, why, size))
        return -1;
    if (in.kind != DXP_MOVE) {
        snprintf(why, size, "'%s' sent '%c' instead of its move", p->spec.name, in.kind);
        return -1;
    }
    dm_bits captured = 0;
    for (int i = 0; i < in.ncaptured; i++)
        captured |= (dm_bits)1 << dm_cell_of_number(v, in.captured[i]);
    int at = dm_move_find(dm_match_legal(m), dm_cell_of_number(v, in.from),
                          dm_cell_of_number(v, in.to), captured);
    if (at < 0) {
        snprintf(why, size, "'%s' played an illegal move from %d to %d", p->spec.name, in.from,
                 in.to);
        return -1;
    }
    *mv = dm_match_legal(m)->moves[at];
    p->synced++;
    return 0;
}

/* GAMEEND from the match's side (the engine's opponent), after the moves
 * the engine has not seen, and its answer read. */
static void dxp_end_game(struct player *p, const dm_match *m)
{
    enum dm_result r = dm_match_result(m);
    int reason = r == DM_RESULT_DRAW ? DXP_DRAW
                 : r == DM_RESULT_NONE ? DXP_UNKNOWN
                 : (r == DM_RESULT_WHITE_WINS) == (p->color == DM_WHITE) ? DXP_I_LOSE
                                                                         : DXP_I_WIN;
    struct dxp_message end = {.kind = DXP_GAMEEND, .reason = reason, .stop = 0}, in;
    char why[200];
    int squares = dm_variant_cells(dm_match_variant(m));
    /* The last move first, so that the engine sees the game end as it did. */
    if (dxp_sync(p, m) && dxp_put(p, &end, squares))
        while (dxp_get(p, squares, DXP_ANSWER_MS, &in, why, sizeof why) && in.kind != DXP_GAMEEND)
            ; /* a last MOVE of a game already over, then the answer */
}

/* ---- Damier in this process -------------------------------------------------------- */

static int damier_move(struct player *p, dm_match *m, const struct player_limits *lim,
                       dm_move *mv, char *why, size_t size)
{
    dm_error err;
    dm_snapshot s;
    int level = p->spec.level ? p->spec.level : DM_LEVEL_MAX;
    if (dm_match_snapshot(m, level, &s, &err) != 0) {
        snprintf(why, size, "%s", err.msg);
        return -1;
    }
    int rc;
    if (lim->nodes) {
        /* A node budget: the same search on every machine. */
        dm_search_limits l = {.nodes = lim->nodes, .contempt = dm_level_contempt(level)};
        dm_search_result r;
        rc = dm_engine_search(p->engine, s.variant, &s.positions[s.ply], s.positions, s.ply, &l,
                              &r);
        *mv = r.best;
        if (rc != 0)
            snprintf(err.msg, sizeof err.msg, "no legal move");
    } else {
        rc = dm_snapshot_move(p->engine, &s, mv, &err);
    }
    dm_snapshot_free(&s);
    if (rc != 0)
        snprintf(why, size, "%s", err.msg);
    return rc;
}

/* ---- the common interface --------------------------------------------------------- */

int player_start(struct player *p, const struct player_spec *spec, const dm_variant *v, char *why,
                 size_t size)
{
    memset(p, 0, sizeof *p);
    p->spec = *spec;
    p->dxp.fd = -1;
    if (spec->kind == PLAYER_HUB)
        return hub_start(p, v, why, size);
    if (spec->kind == PLAYER_DXP)
        return dxp_start(p, v, why, size);
    size_t mb = spec->hash_mb ? spec->hash_mb : dm_level_hash_mb(spec->level ? spec->level : DM_LEVEL_MAX);
    p->engine = dm_player_engine_new(mb);
    if (!p->engine) {
        snprintf(why, size, "out of memory for a %zu MB hash table", mb);
        return -1;
    }
    return 0;
}

int player_new_game(struct player *p, const dm_match *m, enum dm_color color,
                    const struct player_limits *lim, char *why, size_t size)
{
    if (p->spec.kind == PLAYER_DXP)
        return dxp_new_game(p, m, color, lim, why, size);
    if (p->spec.kind == PLAYER_HUB)
        hub_send(p, "new-game\n");
    else
        dm_engine_new_game(p->engine);
    return 0;
}

void player_end_game(struct player *p, const dm_match *m)
{
    if (p->spec.kind == PLAYER_DXP)
        dxp_end_game(p, m);
}

int player_move(struct player *p, dm_match *m, const struct player_limits *lim, dm_move *mv,
                char *why, size_t size)
{
    switch (p->spec.kind) {
    case PLAYER_HUB:
        return hub_move(p, m, lim, mv, why, size);
    case PLAYER_DXP:
        return dxp_move(p, m, lim, mv, why, size);
    default:
        return damier_move(p, m, lim, mv, why, size);
    }
}

void player_stop(struct player *p)
{
    if (p->spec.kind == PLAYER_HUB)
        hub_stop(p);
    if (p->spec.kind == PLAYER_DXP)
        dxp_close(&p->dxp);
    dm_engine_free(p->engine);
    p->engine = NULL;
}
