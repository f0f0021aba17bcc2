/* SPDX-License-Identifier: MIT */
/*
 * cmd_rules.c - the rules commands: variants, moves, perft.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "cli/cli.h"

/* The options these commands share. */
struct options {
    const char *variant;
    const char *fen;
    bool json, divide, keep_duplicates, reference;
    const char *positional;
};

static int parse_options(int argc, char **argv, struct options *o, const char *allowed)
{
    memset(o, 0, sizeof *o);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        bool takes_value = strcmp(a, "--variant") == 0 || strcmp(a, "--fen") == 0;
        if (a[0] == '-' && a[1] == '-' && !strstr(allowed, a)) {
            cli_error("unknown option '%s'", a);
            return 2;
        }
        if (takes_value && i + 1 >= argc) {
            cli_error("option '%s' needs a value", a);
            return 2;
        }
        if (strcmp(a, "--variant") == 0)
            o->variant = argv[++i];
        else if (strcmp(a, "--fen") == 0)
            o->fen = argv[++i];
        else if (strcmp(a, "--json") == 0)
            o->json = true;
        else if (strcmp(a, "--divide") == 0)
            o->divide = true;
        else if (strcmp(a, "--keep-duplicates") == 0)
            o->keep_duplicates = true;
        else if (strcmp(a, "--reference") == 0)
            o->reference = true;
        else if (!o->positional)
            o->positional = a;
        else {
            cli_error("unexpected argument '%s'", a);
            return 2;
        }
    }
    return 0;
}

static unsigned gen_flags(const struct options *o)
{
    return (o->keep_duplicates ? DM_GEN_KEEP_DUPLICATES : 0u) |
           (o->reference ? DM_GEN_REFERENCE : 0u);
}

int cmd_variants(int argc, char **argv)
{
    (void)argv;
    if (argc > 0) {
        cli_error("'variants' takes no arguments");
        return 2;
    }
    printf("%-14s %-28s %-13s %-6s %s\n", "id", "name", "board", "first", "rules");
    for (int i = 0; i < dm_variant_count(); i++) {
        const dm_variant *v = dm_variant_at(i);
        char board[16];
        dm_position start;
        dm_position_start(v, &start);
        snprintf(board, sizeof board, "%dx%d", dm_variant_board_files(v),
                 dm_variant_board_ranks(v));
        printf("%-14s %-28s %-13s %-6s %s\n", dm_variant_id(v), dm_variant_name(v), board,
               start.side == DM_WHITE ? "White" : "Black", dm_variant_summary(v));
    }
    return 0;
}

static void print_cell_json(const dm_variant *v, int cell)
{
    char name[8];
    dm_cell_name(v, cell, name, sizeof name);
    printf(dm_variant_is_numeric(v) ? "%s" : "\"%s\"", name);
}

static void print_moves(const dm_variant *v, const dm_position *pos, unsigned flags, bool json)
{
    dm_move_list list;
    if (dm_generate(v, pos, &list, flags) < 0)
        cli_error("more than %d legal moves: the list is cut short", DM_MAX_MOVES);
    for (int i = 0; i < list.count; i++) {
        const dm_move *m = &list.moves[i];
        char text[256];
        dm_move_format(v, m, &list, text, sizeof text);
        if (!json) {
            printf("%s\n", text);
            continue;
        }
        printf("{\"notation\":\"%s\",\"from\":", text);
        print_cell_json(v, m->from);
        printf(",\"to\":");
        print_cell_json(v, m->to);
        printf(",\"path\":[");
        print_cell_json(v, m->from);
        for (int j = 0; j < m->njumps; j++) {
            putchar(',');
            print_cell_json(v, m->path[j]);
        }
        if (m->njumps == 0) {
            putchar(',');
            print_cell_json(v, m->to);
        }
        printf("],\"captures\":[");
        for (int j = 0; j < m->njumps; j++) {
            if (j)
                putchar(',');
            print_cell_json(v, m->captured[j]);
        }
        printf("],\"promotes\":%s}\n", (m->flags & DM_MOVE_PROMOTES) ? "true" : "false");
    }
}

int cmd_moves(int argc, char **argv)
{
    struct options o;
    dm_position pos;
    int rc = parse_options(argc, argv, &o, "--variant --fen --json --keep-duplicates --reference");
    if (rc)
        return rc;
    if (o.positional) {
        cli_error("unexpected argument '%s'", o.positional);
        return 2;
    }
    const dm_variant *v = cli_variant(o.variant ? o.variant : "international");
    if (!v)
        return 1;
    if (o.fen) {
        if (cli_position(v, o.fen, &pos))
            return 1;
        print_moves(v, &pos, gen_flags(&o), o.json);
        return 0;
    }
    /* One FEN a line; an empty line after each position's moves. A bad line
     * is reported and the run goes on, with exit status 1 at the end. */
    char line[4096];
    int status = 0;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '\0')
            continue;
        if (cli_position(v, line, &pos))
            status = 1;
        else
            print_moves(v, &pos, gen_flags(&o), o.json);
        printf("\n");
        fflush(stdout);
    }
    return status;
}

static int parse_depth(const char *text)
{
    char *end;
    long d = text ? strtol(text, &end, 10) : -1;
    if (!text || *end || d < 0 || d > 30) {
        cli_error("perft needs a depth from 0 to 30, got '%s'", text ? text : "");
        return -1;
    }
    return (int)d;
}

int cmd_perft(int argc, char **argv)
{
    struct options o;
    dm_position pos;
    int rc = parse_options(argc, argv, &o,
                           "--variant --fen --divide --keep-duplicates --reference");
    if (rc)
        return rc;
    int depth = parse_depth(o.positional);
    if (depth < 0)
        return 2;
    const dm_variant *v = cli_variant(o.variant ? o.variant : "international");
    if (!v || cli_position(v, o.fen, &pos))
        return 1;
    unsigned flags = gen_flags(&o);
    double t0 = clock_seconds();
    uint64_t total = 0;
    if (o.divide && depth >= 1) {
        dm_move_list list;
        dm_generate(v, &pos, &list, flags);
        for (int i = 0; i < list.count; i++) {
            dm_position next = pos;
            char text[256];
            dm_make_move(v, &next, &list.moves[i]);
            uint64_t n = dm_perft(v, &next, depth - 1, flags);
            dm_move_format(v, &list.moves[i], &list, text, sizeof text);
            printf("%s %llu\n", text, (unsigned long long)n);
            total += n;
        }
    } else {
        total = dm_perft(v, &pos, depth, flags);
    }
    double secs = clock_seconds() - t0;
    printf("perft %d: %llu nodes in %.3f s, %.1f M nodes/s\n", depth, (unsigned long long)total,
           secs, secs > 0 ? (double)total / secs / 1e6 : 0.0);
    return 0;
}
