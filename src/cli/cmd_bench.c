/* SPDX-License-Identifier: MIT */
/*
 * cmd_bench.c - damier bench perft: a fixed perft workload per variant.
 *
 * Each variant runs perft from its start position to a depth chosen so that
 * the fast generators take about a second; the figure is leaves per second,
 * counted the way fast engines count (the last ply's moves are generated,
 * not made).  Compare numbers only between runs of this same workload.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "cli/cli.h"

/* The workload: a depth per variant that takes its fast generator a tenth
 * of a second to a second.  Changing a depth changes the benchmark: say so
 * in the commit. */
static const struct {
    const char *id;
    int depth;
} workload[] = {
    {"canadian", 8},  {"turkish", 8}, {"dameo", 5},     {"gothic", 6},
    {"alquerque", 15}, {"hawaiian", 10}, {"frysk", 9},  {"thai", 10},
    {"corner", 15},    {"one-way", 14}, {"parachute", 15},
};

static int bench_depth(const dm_variant *v)
{
    for (size_t i = 0; i < sizeof workload / sizeof workload[0]; i++)
        if (strcmp(workload[i].id, dm_variant_id(v)) == 0)
            return workload[i].depth;
    return dm_variant_cells(v) >= 50 ? 9 : 10; /* 10x10: 9 plies; 8x8: 10 */
}

int cmd_bench(int argc, char **argv)
{
    /* The search workload is the default: its signature is what every
     * engine change quotes (Bench: N). */
    if (argc == 0)
        return cmd_bench_search(0, argv);
    if (strcmp(argv[0], "search") == 0)
        return cmd_bench_search(argc - 1, argv + 1);
    if (argc < 1 || strcmp(argv[0], "perft") != 0) {
        if (argc >= 1 && argv[0][0] == '-' && argv[0][1])
            return cli_unknown_option("bench", argv[0]);
        if (argc >= 1)
            cli_error("bench: unknown workload '%s' (perft or search)", cli_quote(argv[0]));
        else
            cli_error("bench: give perft or search (see 'damier bench --help')");
        return CLI_USAGE;
    }
    const char *only = NULL;
    int depth_override = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((strcmp(a, "--variant") == 0 || strcmp(a, "--depth") == 0) && i + 1 >= argc) {
            cli_error("bench perft: option '%s' needs a value", a);
            return CLI_USAGE;
        }
        if (strcmp(a, "--variant") == 0) {
            only = argv[++i];
        } else if (strcmp(a, "--depth") == 0) {
            if (cli_number("bench perft", "--depth", argv[++i], 1, 30, &depth_override))
                return CLI_USAGE;
        } else if (a[0] == '-' && a[1]) {
            return cli_unknown_option("bench perft", a);
        } else {
            cli_error("bench perft: unexpected argument '%s'", cli_quote(a));
            return CLI_USAGE;
        }
    }
    if (only && !cli_variant(only))
        return CLI_BAD_INPUT;
    uint64_t total = 0;
    double total_secs = 0;
    printf("%-14s %5s %14s %9s %12s\n", "variant", "depth", "leaves", "seconds", "M leaves/s");
    fflush(stdout);
    for (int i = 0; i < dm_variant_count(); i++) {
        const dm_variant *v = dm_variant_at(i);
        if (only && strcmp(only, dm_variant_id(v)) != 0)
            continue;
        dm_position pos;
        dm_position_start(v, &pos);
        int depth = depth_override > 0 ? depth_override : bench_depth(v);
        double t0 = clock_seconds();
        uint64_t n = dm_perft(v, &pos, depth, 0);
        double secs = clock_seconds() - t0;
        total += n;
        total_secs += secs;
        printf("%-14s %5d %14llu %9.3f %12.1f\n", dm_variant_id(v), depth,
               (unsigned long long)n, secs, secs > 0 ? (double)n / secs / 1e6 : 0.0);
        fflush(stdout); /* each variant as soon as it is done */
    }
    printf("%-14s %5s %14llu %9.3f %12.1f\n", "total", "", (unsigned long long)total, total_secs,
           total_secs > 0 ? (double)total / total_secs / 1e6 : 0.0);
    return CLI_OK;
}
