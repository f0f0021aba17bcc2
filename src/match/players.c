/* SPDX-License-Identifier: MIT */
/*
 * players.c - the two kinds of player a match knows: Damier in this
 * process, and an engine behind the Hub protocol in a process of its own.
 *
 * Both answer one question: the move for the current position of a match,
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

#include "proto/hubline.h"

#define HUB_START_MS 10000 /* handshake and init                              */
#define HUB_GRACE_MS 5000  /* beyond the mover's time before it is given up   */

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
    if (strncmp(text, "damier", 6) != 0 || (text[6] && text[6] != ' ')) {
        snprintf(why, size, "engine '%.40s': expected 'damier [level=N] [hash=MB] [name=X]' or "
                 "'hub:COMMAND'", text);
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
}

/* The Hub engine's move in m's position, or -1 (with why). */
static int hub_move(struct player *p, const dm_match *m, const struct player_limits *lim,
                    dm_move *mv, char *why, size_t size)
{
    const dm_variant *v = dm_match_variant(m);
    const dm_game *g = dm_match_game(m);
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
        dm_search_limits l = {.nodes = lim->nodes};
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
    if (spec->kind == PLAYER_HUB)
        return hub_start(p, v, why, size);
    size_t mb = spec->hash_mb ? spec->hash_mb : dm_level_hash_mb(spec->level ? spec->level : 8);
    p->engine = dm_engine_new(mb);
    if (!p->engine) {
        snprintf(why, size, "out of memory for a %zu MB hash table", mb);
        return -1;
    }
    return 0;
}

void player_new_game(struct player *p)
{
    if (p->spec.kind == PLAYER_HUB)
        hub_send(p, "new-game\n");
    else
        dm_engine_new_game(p->engine);
}

int player_move(struct player *p, dm_match *m, const struct player_limits *lim, dm_move *mv,
                char *why, size_t size)
{
    return p->spec.kind == PLAYER_HUB ? hub_move(p, m, lim, mv, why, size)
                                      : damier_move(p, m, lim, mv, why, size);
}

void player_stop(struct player *p)
{
    if (p->spec.kind == PLAYER_HUB)
        hub_stop(p);
    dm_engine_free(p->engine);
    p->engine = NULL;
}
