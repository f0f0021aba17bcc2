/* SPDX-License-Identifier: MIT */
/*
 * hub.c - Damier as a Hub engine (Scan's protocol.txt, version 2), for the
 * GUIs and bots that speak it: lidraughts' analysis, pydraughts,
 * lidraughts-bot, the Hub GUI.
 *
 * The main thread reads commands; a search runs on a thread of its own, so
 * that `stop`, `ponder-hit` and `ping` are answered while it thinks.  The
 * searcher writes `info` lines as iterations end and exactly one `done`;
 * both threads write whole lines under one lock.  Positions and moves are
 * in each variant's wire form (notation/wire.c).  Unknown commands and
 * arguments are ignored, as the protocol asks; what cannot be accepted is
 * answered by an `error` line and changes nothing.
 */
#include "proto/proto.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "damier/egdb.h"
#include "damier/engine.h"
#include "damier/notation.h"
#include "damier/play.h"
#include "proto/hubline.h"

#ifndef DAMIER_VERSION
#define DAMIER_VERSION "0.1"
#endif

#define HUB_DEFAULT_VARIANT "international"
#define HUB_TT_MB_DEFAULT   64
#define HUB_TT_MB_MAX       4096
#define HUB_MAX_HISTORY     1024 /* moves= a GUI may send: far more than any game needs */

/* What a `go` needs, kept apart from the session so that the search thread
 * reads a copy the main thread never changes while it runs. */
struct hub_search {
    const dm_variant *variant;
    dm_position pos;
    dm_position history[HUB_MAX_HISTORY];
    int nhistory;
    dm_search_limits limits;
};

struct hub {
    FILE *in, *out;
    pthread_mutex_t out_lock;

    /* Parameters (set-param), in force from init. */
    const dm_variant *variant;
    size_t tt_mb;
    size_t tt_mb_max; /* the largest tt-size accepted */
    int threads;      /* search threads (Lazy SMP)     */
    bool ponder_allowed;
    bool book;          /* go think answers from the built-in book when it can */
    uint64_t book_seed; /* varies the book's choice from one move to the next  */
    char egdb_dir[512]; /* the endgame tables' root; "default", or "": none */

    dm_engine *engine; /* made by init, or at the first search */

    /* The position of the last pos, and the level. */
    bool has_pos;
    struct hub_search next;

    /* The search in progress.  finished is set by the search thread before
     * it writes done, so a command read after done always finds it set. */
    bool searching;
    atomic_bool finished;
    pthread_t thread;
    struct hub_search run;
};

/* ---- output ----------------------------------------------------------------- */

static void send_line(struct hub *h, const char *line)
{
    pthread_mutex_lock(&h->out_lock);
    fputs(line, h->out);
    fflush(h->out);
    pthread_mutex_unlock(&h->out_lock);
}

static void send_error(struct hub *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void send_error(struct hub *h, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    struct hub_out out;
    hub_out_start(&out, "error");
    hub_out_arg(&out, "message", msg);
    send_line(h, hub_out_end(&out));
}

/* A score in men, as Hub reads it: +-99.xx when the end of the game is
 * xx plies short of 100 away (99.97: three plies), else hundredths. */
static void score_text(int score, char *buf, size_t size)
{
    int to_end = dm_score_plies_to_end(score);
    int plies = abs(to_end) > 99 ? 99 : abs(to_end);
    if (to_end)
        snprintf(buf, size, "%s99.%02d", to_end > 0 ? "" : "-", 100 - plies);
    else
        snprintf(buf, size, "%.2f", score / 100.0);
}

/* The moves of a line in Hub form, blank-separated. */
static void line_text(const dm_variant *v, const dm_move *moves, int n, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && len + DM_HUB_MOVE_SIZE + 1 < size; i++) {
        char m[DM_HUB_MOVE_SIZE];
        dm_hub_move_format(v, &moves[i], m, sizeof m);
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? " " : "", m);
    }
}

/* The engine's report of an iteration, as an info line. */
static void on_info(void *ctx, const dm_search_info *info)
{
    struct hub *h = ctx;
    char score[16], pv[HUB_LINE_MAX / 2];
    score_text(info->score, score, sizeof score);
    line_text(h->run.variant, info->pv, info->pv_length, pv, sizeof pv);
    struct hub_out out;
    hub_out_start(&out, "info");
    hub_out_argf(&out, "depth", "%d", info->depth);
    hub_out_argf(&out, "seldepth", "%d", info->seldepth);
    hub_out_arg(&out, "score", score);
    hub_out_argf(&out, "nodes", "%llu", (unsigned long long)info->nodes);
    hub_out_argf(&out, "time", "%.3f", info->time_ms / 1000.0);
    hub_out_argf(&out, "nps", "%.2f", info->nps / 1e6);
    hub_out_arg(&out, "pv", pv);
    send_line(h, hub_out_end(&out));
}

/* ---- the search thread --------------------------------------------------------- */

static void *search_thread(void *arg)
{
    struct hub *h = arg;
    struct hub_search *s = &h->run;
    dm_search_result r;
    int rc = dm_engine_search(h->engine, s->variant, &s->pos, s->history, s->nhistory,
                              &s->limits, &r);
    atomic_store(&h->finished, true);
    struct hub_out out;
    hub_out_start(&out, "done");
    if (rc == 0 && r.has_move) {
        char m[DM_HUB_MOVE_SIZE];
        dm_hub_move_format(s->variant, &r.best, m, sizeof m);
        hub_out_arg(&out, "move", m);
        if (r.pv_length >= 2) {
            dm_hub_move_format(s->variant, &r.pv[1], m, sizeof m);
            hub_out_arg(&out, "ponder", m);
        }
    }
    send_line(h, hub_out_end(&out));
    return NULL;
}

/* Waits for the search in progress (if any) to end, stopping it first if
 * asked. */
static void finish_search(struct hub *h, bool stop)
{
    if (!h->searching)
        return;
    if (stop)
        dm_engine_stop(h->engine);
    pthread_join(h->thread, NULL);
    h->searching = false;
}

/* ---- commands --------------------------------------------------------------------- */

/* The handshake: who we are and every parameter, with its default. */
static void cmd_hub(struct hub *h)
{
    struct hub_out out;
    hub_out_start(&out, "id");
    hub_out_arg(&out, "name", "Damier");
    hub_out_arg(&out, "version", DAMIER_VERSION);
    hub_out_arg(&out, "author", "The Damier authors");
    hub_out_arg(&out, "country", "Netherlands");
    send_line(h, hub_out_end(&out));

    char values[HUB_LINE_MAX / 2];
    size_t len = 0;
    values[0] = '\0';
    for (int i = 0; i < dm_variant_count() && len + 32 < sizeof values; i++)
        len += (size_t)snprintf(values + len, sizeof values - len, "%s%s", i ? " " : "",
                                dm_variant_id(dm_variant_at(i)));
    hub_out_start(&out, "param");
    hub_out_arg(&out, "name", "variant");
    hub_out_arg(&out, "value", dm_variant_id(h->variant));
    hub_out_arg(&out, "type", "enum");
    hub_out_arg(&out, "values", values);
    send_line(h, hub_out_end(&out));

    hub_out_start(&out, "param");
    hub_out_arg(&out, "name", "threads");
    hub_out_argf(&out, "value", "%d", h->threads);
    hub_out_arg(&out, "type", "int");
    hub_out_arg(&out, "min", "1");
    hub_out_argf(&out, "max", "%d", DM_MAX_THREADS);
    send_line(h, hub_out_end(&out));
    hub_out_start(&out, "param");
    hub_out_arg(&out, "name", "tt-size");
    hub_out_argf(&out, "value", "%zu", h->tt_mb);
    hub_out_arg(&out, "type", "int");
    hub_out_arg(&out, "min", "1");
    hub_out_argf(&out, "max", "%zu", h->tt_mb_max);
    send_line(h, hub_out_end(&out));
    /* No endgame databases yet: declared, as clients expect them, at the
     * only value they can take.  The book is off unless asked for: a match
     * tool gives its own openings. */
    send_line(h, "param name=bb-size value=0 type=int min=0 max=0\n");
    send_line(h, "param name=ponder value=true type=bool\n");
    send_line(h, "param name=book value=false type=bool\n");
    /* The endgame tables (damier egdb build): "default" is
     * $DAMIER_EGDB_DIR or ~/.cache/damier/egdb, "none" turns them off. */
    hub_out_start(&out, "param");
    hub_out_arg(&out, "name", "egdb-dir");
    hub_out_arg(&out, "value", h->egdb_dir[0] ? h->egdb_dir : "none");
    hub_out_arg(&out, "type", "string");
    send_line(h, hub_out_end(&out));
    send_line(h, "wait\n");
}

static bool parse_bool(const char *text, bool *value)
{
    if (strcmp(text, "true") == 0 || strcmp(text, "1") == 0)
        return *value = true, true;
    if (strcmp(text, "false") == 0 || strcmp(text, "0") == 0)
        return *value = false, true;
    return false;
}

/* A number in [min, max] (an integer when integer), or false. */
static bool parse_number(const char *text, double min, double max, bool integer, double *value)
{
    char *end;
    double x = strtod(text, &end);
    if (end == text || *end != '\0' || x != x || x < min || x > max)
        return false;
    if (integer && x != (double)(long long)x)
        return false;
    *value = x;
    return true;
}

/* Gives the engine the endgame tables' root (none if no home is known). */
static void set_egdb(struct hub *h)
{
    char root[512];
    dm_error err;
    if (strcmp(h->egdb_dir, "default") != 0)
        dm_engine_set_egdb(h->engine, h->egdb_dir);
    else
        dm_engine_set_egdb(h->engine,
                           dm_egdb_default_root(root, sizeof root, &err) == 0 ? root : NULL);
}

static void cmd_set_param(struct hub *h, const struct hub_line *l)
{
    const char *name = hub_line_arg(l, "name"), *value = hub_line_arg(l, "value");
    char shown[TEXT_ESCAPED_SIZE(64)], shown_value[TEXT_ESCAPED_SIZE(64)];
    if (!name || !value) {
        send_error(h, "set-param needs name= and value=");
        return;
    }
    text_escape(name, strnlen(name, 64), shown, sizeof shown);
    text_escape(value, strnlen(value, 64), shown_value, sizeof shown_value);
    double x;
    bool b;
    if (strcmp(name, "variant") == 0) {
        const dm_variant *v = dm_variant_by_id(value);
        if (!v) {
            send_error(h, "unknown variant '%s' (see the values of param variant)", shown_value);
            return;
        }
        if (v != h->variant)
            h->has_pos = false;
        h->variant = v;
    } else if (strcmp(name, "tt-size") == 0) {
        if (!parse_number(value, 1, (double)h->tt_mb_max, true, &x)) {
            send_error(h, "tt-size '%s' is not a whole number of megabytes from 1 to %zu",
                       shown_value, h->tt_mb_max);
            return;
        }
        if ((size_t)x != h->tt_mb) {
            h->tt_mb = (size_t)x;
            dm_engine_free(h->engine); /* made again, at the new size, when needed */
            h->engine = NULL;
        }
    } else if (strcmp(name, "threads") == 0) {
        if (!parse_number(value, 1, DM_MAX_THREADS, true, &x))
            send_error(h, "threads '%s' is not a whole number from 1 to %d", shown_value,
                       DM_MAX_THREADS);
        else
            h->threads = (int)x; /* the engine takes it at the next search */
    } else if (strcmp(name, "bb-size") == 0) {
        if (!parse_number(value, 0, 0, true, &x))
            send_error(h, "bb-size '%s': Damier has no endgame databases yet", shown_value);
    } else if (strcmp(name, "ponder") == 0) {
        if (!parse_bool(value, &b))
            send_error(h, "ponder '%s' is neither true nor false", shown_value);
        else
            h->ponder_allowed = b;
    } else if (strcmp(name, "egdb-dir") == 0) {
        snprintf(h->egdb_dir, sizeof h->egdb_dir, "%s", strcmp(value, "none") ? value : "");
        if (h->engine)
            set_egdb(h);
    } else if (strcmp(name, "book") == 0) {
        if (!parse_bool(value, &b))
            send_error(h, "book '%s' is neither true nor false", shown_value);
        else
            h->book = b;
    }
    /* Unknown parameters are ignored. */
}

/* Makes the engine if there is none; false (with an error line) if memory
 * runs out. */
static bool ensure_engine(struct hub *h)
{
    if (!h->engine && (h->engine = dm_engine_new(h->tt_mb)) != NULL)
        set_egdb(h);
    if (!h->engine) {
        send_error(h, "out of memory for a %zu MB hash table", h->tt_mb);
        return false;
    }
    if (dm_engine_threads(h->engine) != h->threads &&
        dm_engine_set_threads(h->engine, h->threads) != 0)
        send_error(h, "out of memory for %d search threads: searching with %d", h->threads,
                   dm_engine_threads(h->engine));
    return true;
}

/* pos pos=<position> [moves="..."], or pos start [moves=...]: the moves are
 * played from the position, which they also give the search as history. */
static void cmd_pos(struct hub *h, const struct hub_line *l)
{
    struct hub_search *s = &h->next;
    const char *text = hub_line_arg(l, "pos");
    const char *moves = hub_line_arg(l, "moves");
    dm_position pos;
    dm_error err;
    if (text && *text) {
        if (dm_hub_position_parse(h->variant, text, &pos, &err) != 0) {
            send_error(h, "%s", err.msg);
            return;
        }
    } else if (hub_line_has(l, "start")) {
        dm_position_start(h->variant, &pos);
    } else {
        send_error(h, "pos needs pos=<position> or start");
        return;
    }
    int n = 0;
    static dm_move_list legal; /* the main thread's alone */
    for (const char *p = moves ? moves : ""; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        char move[DM_HUB_MOVE_SIZE];
        size_t len = strcspn(p, " ");
        if (len >= sizeof move) {
            send_error(h, "moves: move %d is too long", n + 1);
            return;
        }
        memcpy(move, p, len);
        move[len] = '\0';
        p += len;
        if (n == HUB_MAX_HISTORY) {
            send_error(h, "moves: more than %d moves", HUB_MAX_HISTORY);
            return;
        }
        dm_generate(h->variant, &pos, &legal, 0);
        int at = dm_hub_move_parse(h->variant, &legal, move, &err);
        if (at < 0) {
            send_error(h, "moves: move %d: %s", n + 1, err.msg);
            return;
        }
        s->history[n++] = pos;
        dm_make_move(h->variant, &pos, &legal.moves[at]);
    }
    s->variant = h->variant;
    s->pos = pos;
    s->nhistory = n;
    h->has_pos = true;
}

/* level depth= | nodes= | move-time= | [moves=] time= [inc=] | infinite. */
static void cmd_level(struct hub *h, const struct hub_line *l)
{
    dm_search_limits lim = {0};
    const char *depth = hub_line_arg(l, "depth"), *nodes = hub_line_arg(l, "nodes");
    const char *move_time = hub_line_arg(l, "move-time"), *time = hub_line_arg(l, "time");
    const char *moves = hub_line_arg(l, "moves"), *inc = hub_line_arg(l, "inc");
    double x;
    if (depth) {
        if (!parse_number(depth, 1, DM_MAX_DEPTH, true, &x))
            return send_error(h, "level depth= must be a whole number from 1 to %d", DM_MAX_DEPTH);
        lim.depth = (int)x;
    }
    if (nodes) {
        if (!parse_number(nodes, 1, 1e18, true, &x))
            return send_error(h, "level nodes= must be a whole number above 0");
        lim.nodes = (uint64_t)x;
    }
    if (move_time) {
        if (!parse_number(move_time, 0.001, 1e7, false, &x))
            return send_error(h, "level move-time= must be seconds above 0");
        lim.move_time_ms = (int64_t)(x * 1000);
    }
    if (time) {
        if (!parse_number(time, 0, 1e7, false, &x))
            return send_error(h, "level time= must be seconds, 0 or more");
        lim.time_left_ms = (int64_t)(x * 1000) > 0 ? (int64_t)(x * 1000) : 1;
        if (moves) {
            if (!parse_number(moves, 0, 10000, true, &x))
                return send_error(h, "level moves= must be a whole number of moves");
            lim.moves_to_go = (int)x;
        }
        if (inc) {
            if (!parse_number(inc, 0, 1e5, false, &x))
                return send_error(h, "level inc= must be seconds, 0 or more");
            lim.increment_ms = (int64_t)(x * 1000);
        }
    }
    if (!depth && !nodes && !move_time && !time && !hub_line_has(l, "infinite"))
        return send_error(h, "level needs depth=, nodes=, move-time=, time= or infinite");
    h->next.limits = lim;
}

/* With book on, a position of the variant's built-in book is answered at
 * once with one of its book moves (within 0.10 of the best, varied from
 * move to move), and no search; false when it is not in the book. */
static bool answer_from_book(struct hub *h)
{
    dm_move mv;
    if (!h->book || !dm_book_choose(dm_book_builtin(h->next.variant), &h->next.pos, 10,
                                    h->book_seed++, &mv))
        return false;
    char m[DM_HUB_MOVE_SIZE];
    struct hub_out out;
    dm_hub_move_format(h->next.variant, &mv, m, sizeof m);
    hub_out_start(&out, "done");
    hub_out_arg(&out, "move", m);
    send_line(h, hub_out_end(&out));
    return true;
}

static void cmd_go(struct hub *h, const struct hub_line *l)
{
    bool ponder = hub_line_has(l, "ponder");
    if (!hub_line_has(l, "think") && !ponder && !hub_line_has(l, "analyze"))
        return send_error(h, "go needs think, ponder or analyze");
    if (!h->has_pos)
        return send_error(h, "go without a position (send pos first)");
    if (!ponder && !hub_line_has(l, "analyze") && answer_from_book(h))
        return;
    if (!ensure_engine(h))
        return;
    h->run = h->next;
    h->run.limits.ponder = ponder && h->ponder_allowed;
    h->run.limits.on_info = on_info;
    h->run.limits.info_ctx = h;
    /* Only this thread signals the engine, and the last search is over:
     * a stop that raced with its end must not end this one. */
    dm_engine_forget_signals(h->engine);
    atomic_store(&h->finished, false);
    if (pthread_create(&h->thread, NULL, search_thread, h) != 0)
        return send_error(h, "cannot start the search thread");
    h->searching = true;
}

/* Runs one command.  Returns false on quit. */
static bool command(struct hub *h, const struct hub_line *l)
{
    const char *c = l->command;
    if (strcmp(c, "quit") == 0)
        return false;
    if (strcmp(c, "ping") == 0) {
        send_line(h, "pong\n");
    } else if (h->searching && strcmp(c, "stop") == 0) {
        dm_engine_stop(h->engine);
    } else if (h->searching && strcmp(c, "ponder-hit") == 0) {
        dm_engine_ponder_hit(h->engine);
    } else if (h->searching) {
        /* The protocol allows only ping, ponder-hit and stop here. */
        if (strcmp(c, "hub") == 0 || strcmp(c, "init") == 0 || strcmp(c, "set-param") == 0 ||
            strcmp(c, "pos") == 0 || strcmp(c, "level") == 0 || strcmp(c, "go") == 0 ||
            strcmp(c, "new-game") == 0)
            send_error(h, "'%s' during a search: send stop first", c);
    } else if (strcmp(c, "hub") == 0) {
        cmd_hub(h);
    } else if (strcmp(c, "set-param") == 0) {
        cmd_set_param(h, l);
    } else if (strcmp(c, "init") == 0) {
        if (ensure_engine(h))
            send_line(h, "ready\n");
    } else if (strcmp(c, "new-game") == 0) {
        if (h->engine)
            dm_engine_new_game(h->engine);
    } else if (strcmp(c, "pos") == 0) {
        cmd_pos(h, l);
    } else if (strcmp(c, "level") == 0) {
        cmd_level(h, l);
    } else if (strcmp(c, "go") == 0) {
        cmd_go(h, l);
    }
    /* stop and ponder-hit with no search, and unknown commands: ignored. */
    return true;
}

/* ---- the session ---------------------------------------------------------------------- */

int proto_hub_run(FILE *in, FILE *out)
{
    return proto_hub_run_with(in, out, NULL);
}

int proto_hub_run_with(FILE *in, FILE *out, const struct proto_hub_options *o)
{
    static struct hub h; /* large (the history); one session a process */
    memset(&h, 0, sizeof h);
    h.in = in;
    h.out = out;
    h.variant = dm_variant_by_id(HUB_DEFAULT_VARIANT);
    h.tt_mb_max = o && o->tt_mb_max ? o->tt_mb_max : HUB_TT_MB_MAX;
    h.tt_mb = o && o->tt_mb ? o->tt_mb : HUB_TT_MB_DEFAULT;
    if (h.tt_mb > h.tt_mb_max)
        h.tt_mb = h.tt_mb_max;
    h.ponder_allowed = true;
    h.threads = 1;
    snprintf(h.egdb_dir, sizeof h.egdb_dir, "default");
    pthread_mutex_init(&h.out_lock, NULL);
    static struct hub_line line;
    char text[HUB_LINE_MAX], why[80], shown[TEXT_ESCAPED_SIZE(80)];
    for (;;) {
        enum text_line status = text_read_line(in, text, sizeof text, NULL);
        if (status == TEXT_LINE_EOF)
            break; /* the GUI is gone: quit */
        if (status != TEXT_LINE_OK) {
            send_error(&h, "%s", status == TEXT_LINE_NUL ? "a line holds a NUL byte"
                                                         : "line too long");
            continue;
        }
        if (hub_line_parse(text, &line, why, sizeof why) != 0) {
            send_error(&h, "%s: %s", why, text_escape(text, strnlen(text, 40), shown, sizeof shown));
            continue;
        }
        /* A search that ended by itself is joined before the next command. */
        if (h.searching && atomic_load(&h.finished))
            finish_search(&h, false);
        if (!command(&h, &line))
            break;
    }
    finish_search(&h, true);
    dm_engine_free(h.engine);
    pthread_mutex_destroy(&h.out_lock);
    return 0;
}
