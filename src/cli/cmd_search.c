/* SPDX-License-Identifier: MIT */
/*
 * cmd_search.c - damier bench search: a fixed search workload.
 *
 * The engine searches each position of a fixed set (the start of every
 * variant and a few middlegames) to a fixed depth, with a fresh
 * transposition table, and prints the nodes, the time and the nodes per
 * second of each.  The total node count is the search's signature (DESIGN.md
 * 5): any change to what the search visits - ordering, pruning, extensions,
 * evaluation - changes it, and a commit that changes it says so.  Speed
 * figures are only comparable between runs of this same workload.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "cli/cli.h"

/* The workload: changing a position or a depth changes the signature. */
static const struct {
    const char *variant;
    const char *label;
    const char *fen; /* NULL: the start position */
    int depth;
} workload[] = {
    {"international", "start", NULL, 12},
    {"english", "start", NULL, 14},
    {"russian", "start", NULL, 13},
    {"brazilian", "start", NULL, 13},
    {"italian", "start", NULL, 13},
    {"frisian", "start", NULL, 11},
    {"turkish", "start", NULL, 10},
    {"canadian", "start", NULL, 10},
    /* Every other variant from its start, to a depth of a few hundred
     * thousand nodes. */
    {"anti-checkers", "start", NULL, 14},
    {"poddavki", "start", NULL, 14},
    {"pool", "start", NULL, 12},
    {"czech", "start", NULL, 12},
    {"corner", "start", NULL, 12},
    {"one-way", "start", NULL, 15},
    {"parachute", "start", NULL, 13},
    {"spanish", "start", NULL, 11},
    {"portuguese", "start", NULL, 11},
    {"thai", "start", NULL, 12},
    {"killer", "start", NULL, 11},
    {"antidraughts", "start", NULL, 13},
    {"breakthrough", "start", NULL, 11},
    {"frysk", "start", NULL, 13},
    {"dameo", "start", NULL, 6},
    {"gothic", "start", NULL, 9},
    {"alquerque", "start", NULL, 12},
    {"hawaiian", "start", NULL, 10},
    /* Middlegames from games the engine played against itself. */
    {"international", "middle", "W:W27,30-32,34-36,38,40-42,44-48,50:B4-8,10-13,15-19,21,23,29",
     12},
    {"international", "late", "W:W24,27,29,36,39,40,42-44,46,47,49,50:B1-6,9,10,12,13,15,16,20",
     11},
    {"english", "middle", "B:W14,22-26,28,30,32:B3,5,7,9,11-13,15", 16},
    {"russian", "kings", "W:WKe1,h2,a3:Be3,d4,f6,h8", 15},
    {"frisian", "middle", "W:W26,32,33,37,40-45,47,49,50:B1,3-6,9-11,15,17,21,22,24", 12},
};

int cmd_bench_search(int argc, char **argv)
{
    int depth_delta = 0;
    size_t tt_mb = 16;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int mb;
        if ((strcmp(a, "--depth-delta") == 0 || strcmp(a, "--hash") == 0) && i + 1 >= argc) {
            cli_error("bench search: option '%s' needs a value", a);
            return CLI_USAGE;
        }
        if (strcmp(a, "--depth-delta") == 0) {
            if (cli_number("bench search", a, argv[++i], -20, 20, &depth_delta))
                return CLI_USAGE;
        } else if (strcmp(a, "--hash") == 0) {
            if (cli_number("bench search", a, argv[++i], 1, 4096, &mb))
                return CLI_USAGE;
            tt_mb = (size_t)mb;
        } else if (a[0] == '-' && a[1]) {
            return cli_unknown_option("bench search", a);
        } else {
            cli_error("bench search: unexpected argument '%s'", cli_quote(a));
            return CLI_USAGE;
        }
    }
    dm_engine *engine = dm_engine_new(tt_mb);
    if (!engine) {
        cli_error("out of memory for a %zu MB hash table", tt_mb);
        return 1;
    }
    uint64_t total = 0;
    double total_secs = 0;
    printf("%-14s %-7s %5s %12s %9s %10s %7s  %s\n", "variant", "pos", "depth", "nodes", "seconds",
           "knodes/s", "score", "best");
    fflush(stdout);
    for (size_t i = 0; i < sizeof workload / sizeof workload[0]; i++) {
        const dm_variant *v = cli_variant(workload[i].variant);
        dm_position pos;
        if (!v || cli_position(v, workload[i].fen, &pos) != 0) {
            dm_engine_free(engine);
            return 1;
        }
        int depth = workload[i].depth + depth_delta;
        dm_search_limits limits = {.depth = depth < 1 ? 1 : depth};
        dm_search_result r;
        dm_engine_new_game(engine);
        double t0 = clock_seconds();
        dm_engine_search(engine, v, &pos, NULL, 0, &limits, &r);
        double secs = clock_seconds() - t0;
        char best[160] = "-";
        if (r.has_move) {
            dm_move_list legal;
            dm_generate(v, &pos, &legal, 0);
            dm_move_format(v, &r.best, &legal, best, sizeof best);
        }
        total += r.nodes;
        total_secs += secs;
        printf("%-14s %-7s %5d %12llu %9.3f %10.0f %7d  %s\n", workload[i].variant,
               workload[i].label, limits.depth, (unsigned long long)r.nodes, secs,
               secs > 0 ? (double)r.nodes / secs / 1e3 : 0.0, r.score, best);
        fflush(stdout);
    }
    printf("%-14s %-7s %5s %12llu %9.3f %10.0f\n", "total", "", "", (unsigned long long)total,
           total_secs, total_secs > 0 ? (double)total / total_secs / 1e3 : 0.0);
    printf("signature: %llu\n", (unsigned long long)total);
    dm_engine_free(engine);
    return 0;
}
