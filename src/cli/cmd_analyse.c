/* SPDX-License-Identifier: MIT */
/*
 * cmd_analyse.c - `damier analyse`: the engine's view of one position, as
 * a GUI or a script reads it through a pipe.
 *
 * The engine reports each finished line of each iteration, and each new
 * best root move within one, through its info callback; every report
 * becomes one line on stdout, flushed at once:
 *
 *   depth 6 seldepth 11 multipv 1 score +0.25 nodes 10408 nps 2081600 time 5 pv 32-28 18-23
 *
 * A score is in men for the side to move (+0.25); a decided one reads
 * win-in-N or loss-in-N, N plies (half-moves) to the end of the game by the
 * rules; the word lowerbound follows the score of an unfinished iteration's
 * best.  The last line gives the result:
 *
 *   best 32-28 ponder 18-23 score +0.12 depth 14
 *
 * The engine hands moves as structs; this file writes them in the
 * variant's notation, each from the legal moves of its own position so that
 * routes are spelt out where two moves share their ends.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "cli/cli.h"

#define ANALYSE_DEFAULT_SECONDS 5
#define ANALYSE_MAX_FEN         4096 /* characters                         */
#define ANALYSE_HASH_MB         32

/* What the info callback needs to write a report. */
struct analysis {
    const dm_variant *v;
    dm_position root;
    dm_move_list legal; /* scratch for one ply of a line                   */
};

/* Writes score as the lines show it: +0.25, -1.00, 0.00, win-in-3. */
static void format_score(int score, char *buf, size_t size)
{
    int plies = dm_score_plies_to_end(score);
    if (plies > 0)
        snprintf(buf, size, "win-in-%d", plies);
    else if (plies < 0)
        snprintf(buf, size, "loss-in-%d", -plies);
    else
        snprintf(buf, size, "%s%d.%02d", score > 0 ? "+" : score < 0 ? "-" : "",
                 abs(score) / 100, abs(score) % 100);
}

/* Writes the n moves of pv, played from pos, each after a blank. */
static void print_line(struct analysis *a, const dm_move *pv, int n)
{
    dm_position p = a->root;
    for (int i = 0; i < n; i++) {
        char text[DM_PDN_MOVE_TEXT];
        dm_generate(a->v, &p, &a->legal, 0);
        dm_move_format(a->v, &pv[i], &a->legal, text, sizeof text);
        printf(" %s", text);
        dm_make_move(a->v, &p, &pv[i]);
    }
}

/* The engine's info callback: one line per report, flushed for the pipe. */
static void print_info(void *ctx, const dm_search_info *info)
{
    struct analysis *a = ctx;
    char score[32];
    format_score(info->score, score, sizeof score);
    printf("depth %d seldepth %d multipv %d score %s%s nodes %llu nps %llu time %lld pv",
           info->depth, info->seldepth, info->multipv, score,
           info->bound == DM_BOUND_LOWER ? " lowerbound" : "", (unsigned long long)info->nodes,
           (unsigned long long)info->nps, (long long)info->time_ms);
    print_line(a, info->pv, info->pv_length);
    putchar('\n');
    fflush(stdout);
}

/* The last line: the best move, the reply to ponder on, score and depth. */
static void print_best(struct analysis *a, const dm_search_result *r)
{
    char score[32];
    format_score(r->score, score, sizeof score);
    printf("best");
    print_line(a, r->pv, 1);
    if (r->pv_length >= 2) {
        printf(" ponder");
        dm_position p = a->root;
        dm_make_move(a->v, &p, &r->pv[0]);
        dm_generate(a->v, &p, &a->legal, 0);
        char text[DM_PDN_MOVE_TEXT];
        dm_move_format(a->v, &r->pv[1], &a->legal, text, sizeof text);
        printf(" %s", text);
    }
    printf(" score %s depth %d\n", score, r->depth);
    fflush(stdout);
}

/* An error line naming the option and its value, escaped for the terminal,
 * then why. */
static void input_error(const char *option, const char *value, const char *why)
{
    char shown[TEXT_ESCAPED_SIZE(80)], reason[TEXT_ESCAPED_SIZE(sizeof(dm_error))];
    size_t len = strlen(value);
    text_escape(value, len > 80 ? 80 : len, shown, sizeof shown);
    text_escape(why, strlen(why), reason, sizeof reason);
    cli_error("%s '%s%s': %s", option, shown, len > 80 ? "..." : "", reason);
}

/* Reads a whole decimal number within [min, max] into *out; 0, or 2 after
 * a usage error line. */
static int parse_count(const char *option, const char *text, unsigned long long min,
                       unsigned long long max, unsigned long long *out)
{
    char *end;
    errno = 0;
    unsigned long long n = strtoull(text, &end, 10);
    if (text[0] < '0' || text[0] > '9' || *end || errno || n < min || n > max) {
        char range[80];
        snprintf(range, sizeof range, "expected a whole number from %llu to %llu", min, max);
        input_error(option, text, range);
        return 2;
    }
    *out = n;
    return 0;
}

/*
 * Plays the blank-separated moves of text from *pos, keeping each position
 * before a move in *history (grown with realloc; *n of them).  0, or 1
 * after an error line naming the move; *history is the caller's to free.
 */
static int play_moves(const dm_variant *v, dm_position *pos, const char *text,
                      dm_position **history, int *n)
{
    char *buf = strdup(text);
    dm_move_list *legal = malloc(sizeof *legal);
    if (!buf || !legal) {
        cli_error("out of memory");
        free(buf);
        free(legal);
        return 1;
    }
    static const char blanks[] = " \t\r\n";
    int rc = 0, cap = 0;
    for (char *tok = strtok(buf, blanks); tok; tok = strtok(NULL, blanks)) {
        dm_error err;
        dm_generate(v, pos, legal, 0);
        int i = dm_move_parse(v, legal, tok, &err);
        if (i < 0) {
            char option[32];
            snprintf(option, sizeof option, "--moves, move %d", *n + 1);
            input_error(option, tok, err.msg);
            rc = 1;
            break;
        }
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            dm_position *grown = realloc(*history, (size_t)cap * sizeof *grown);
            if (!grown) {
                cli_error("out of memory");
                rc = 1;
                break;
            }
            *history = grown;
        }
        (*history)[(*n)++] = *pos;
        dm_make_move(v, pos, &legal->moves[i]);
    }
    free(legal);
    free(buf);
    return rc;
}

struct analyse_options {
    const char *variant, *fen, *moves;
    dm_search_limits limits;
    int limit_options; /* how many of --time, --depth, --nodes            */
};

/* Reads the options into *o, the default limit included; 0, or 2 after a
 * usage error line. */
static int parse_options(int argc, char **argv, struct analyse_options *o)
{
    static const char *const valued[] = {"--variant", "--fen",   "--moves",
                                         "--time",    "--depth", "--nodes", "--multipv"};
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *value = NULL;
        for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
            if (strcmp(a, valued[k]) == 0) {
                if (i + 1 >= argc) {
                    cli_error("option '%s' needs a value", a);
                    return 2;
                }
                value = argv[++i];
            }
        unsigned long long n;
        if (!value) {
            char shown[TEXT_ESCAPED_SIZE(80)];
            size_t len = strlen(a);
            cli_error("%s '%s'", a[0] == '-' ? "unknown option" : "unexpected argument",
                      text_escape(a, len > 80 ? 80 : len, shown, sizeof shown));
            return 2;
        } else if (strcmp(a, "--variant") == 0) {
            o->variant = value;
        } else if (strcmp(a, "--fen") == 0) {
            o->fen = value;
        } else if (strcmp(a, "--moves") == 0) {
            o->moves = value;
        } else if (strcmp(a, "--time") == 0) {
            char *end;
            errno = 0;
            double s = strtod(value, &end);
            if (end == value || *end || errno || !isfinite(s) || s < 0.001 || s > 1e6) {
                input_error(a, value, "expected seconds from 0.001 to 1000000");
                return 2;
            }
            o->limits.move_time_ms = (int64_t)(s * 1000 + 0.5);
            o->limit_options++;
        } else if (strcmp(a, "--depth") == 0) {
            if (parse_count(a, value, 1, DM_MAX_DEPTH, &n))
                return 2;
            o->limits.depth = (int)n;
            o->limit_options++;
        } else if (strcmp(a, "--nodes") == 0) {
            if (parse_count(a, value, 1, UINT64_MAX, &n))
                return 2;
            o->limits.nodes = n;
            o->limit_options++;
        } else if (strcmp(a, "--multipv") == 0) {
            if (parse_count(a, value, 1, DM_MAX_MULTIPV, &n))
                return 2;
            o->limits.multipv = (int)n;
        }
    }
    if (o->limit_options > 1) {
        cli_error("give one limit at most: --time, --depth or --nodes");
        return 2;
    }
    if (o->limit_options == 0)
        o->limits.move_time_ms = ANALYSE_DEFAULT_SECONDS * 1000;
    return 0;
}

int cmd_analyse(int argc, char **argv)
{
    struct analyse_options o = {.variant = "international"};
    int rc = parse_options(argc, argv, &o);
    if (rc)
        return rc;
    struct analysis *a = calloc(1, sizeof *a);
    if (!a) {
        cli_error("out of memory");
        return 1;
    }
    dm_position *history = NULL;
    int nhistory = 0;
    dm_engine *e = NULL;
    dm_error err;
    a->v = dm_variant_by_id(o.variant);
    rc = 1;
    if (!a->v) {
        input_error("--variant", o.variant, "no such variant (see 'damier variants')");
        goto done;
    }
    if (o.fen && strlen(o.fen) > ANALYSE_MAX_FEN) {
        input_error("--fen", o.fen, "longer than 4096 characters");
        goto done;
    }
    if (!o.fen)
        dm_position_start(a->v, &a->root);
    else if (dm_fen_parse(a->v, o.fen, &a->root, &err) != 0) {
        input_error("--fen", o.fen, err.msg);
        goto done;
    }
    if (o.moves && play_moves(a->v, &a->root, o.moves, &history, &nhistory))
        goto done;
    e = dm_player_engine_new(ANALYSE_HASH_MB);
    if (!e) {
        cli_error("out of memory for the engine");
        goto done;
    }
    o.limits.on_info = print_info;
    o.limits.info_ctx = a;
    dm_search_result r;
    if (dm_engine_search(e, a->v, &a->root, history, nhistory, &o.limits, &r) != 0) {
        printf("best none (the game is over: the side to move has %s)\n",
               r.score > 0 ? "won" : "lost");
    } else {
        print_best(a, &r);
    }
    rc = 0;
done:
    dm_engine_free(e);
    free(history);
    free(a);
    return rc;
}
