/* SPDX-License-Identifier: MIT */
/*
 * cmd_match.c - damier match, engines against each other (src/match), and
 * damier openings, which makes the balanced opening sets matches start
 * from.
 */
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "match/match.h"

/* data/openings/<id>.txt: beside the program's build folder (the
 * repository's data/), else from the current folder. */
static void default_openings(const dm_variant *v, char *path, size_t size)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        snprintf(path, size, "%s/../data/openings/%s.txt", dirname(exe), dm_variant_id(v));
        if (access(path, R_OK) == 0)
            return;
    }
    snprintf(path, size, "data/openings/%s.txt", dm_variant_id(v));
}

/* A number from option's value within [min, max], or false with an error. */
static bool number(const char *option, const char *value, double min, double max, double *x)
{
    char *end;
    double n = value ? strtod(value, &end) : 0;
    if (!value || !*value || *end || n < min || n > max) {
        cli_error("%s needs a number from %g to %g", option, min, max);
        return false;
    }
    *x = n;
    return true;
}

int cmd_match(int argc, char **argv)
{
    struct match_options o = {.rules = DM_RULES_DEFAULT, .games = 2, .concurrency = 1,
                              .max_plies = 600, .out = stdout,
                              .sprt_params = {0, 10, 0.05, 0.05}};
    int engines = 0;
    char path[PATH_MAX], why[300];
    const char *openings = NULL;
    double x;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!value) {
            cli_error("match: %s needs a value (see damier match --help)", a);
            return 2;
        }
        i++;
        if (strcmp(a, "--engine") == 0) {
            if (engines == 2) {
                cli_error("match: two --engine at most");
                return 2;
            }
            if (player_spec_parse(value, &o.player[engines], why, sizeof why) != 0) {
                cli_error("match: %s", why);
                return 2;
            }
            engines++;
        } else if (strcmp(a, "--variant") == 0) {
            if (!(o.variant = cli_variant(value)))
                return 2;
        } else if (strcmp(a, "--rules") == 0) {
            if (dm_rules_parse(value, &o.rules) != 0) {
                cli_error("match: --rules is default or official");
                return 2;
            }
        } else if (strcmp(a, "--games") == 0) {
            if (!number(a, value, 1, 1e6, &x))
                return 2;
            o.games = (int)x;
        } else if (strcmp(a, "--nodes") == 0) {
            if (!number(a, value, 1, 1e12, &x))
                return 2;
            o.nodes = (uint64_t)x;
        } else if (strcmp(a, "--tc") == 0) {
            dm_error err;
            if (dm_time_control_parse(value, &o.tc, &err) != 0) {
                cli_error("match: --tc: %s", err.msg);
                return 2;
            }
        } else if (strcmp(a, "--concurrency") == 0) {
            if (!number(a, value, 1, 64, &x))
                return 2;
            o.concurrency = (int)x;
        } else if (strcmp(a, "--openings") == 0) {
            openings = value;
        } else if (strcmp(a, "--pdn") == 0) {
            o.pdn = value;
        } else if (strcmp(a, "--max-plies") == 0) {
            if (!number(a, value, 10, 10000, &x))
                return 2;
            o.max_plies = (int)x;
        } else if (strcmp(a, "--sprt") == 0) {
            struct match_sprt *s = &o.sprt_params;
            int got = sscanf(value, "%lf,%lf,%lf,%lf", &s->elo0, &s->elo1, &s->alpha, &s->beta);
            if ((got != 2 && got != 4) || s->elo1 <= s->elo0 || s->alpha <= 0 || s->alpha >= 0.5 ||
                s->beta <= 0 || s->beta >= 0.5) {
                cli_error("match: --sprt is elo0,elo1[,alpha,beta] with elo0 < elo1 and error "
                          "rates between 0 and 0.5");
                return 2;
            }
            o.sprt = true;
        } else {
            cli_error("match: unknown option '%s' (see damier match --help)", a);
            return 2;
        }
    }
    if (engines != 2) {
        cli_error("match needs two --engine (damier [level=N] [hash=MB] [name=X], or hub:COMMAND)");
        return 2;
    }
    if (!o.nodes && o.tc.kind == DM_CLOCK_NONE &&
        (o.player[0].kind == PLAYER_HUB || o.player[1].kind == PLAYER_HUB ||
         !o.player[0].level || !o.player[1].level)) {
        cli_error("match: give --nodes or --tc (or a level for each Damier)");
        return 2;
    }
    if ((o.player[0].kind == PLAYER_DXP || o.player[1].kind == PLAYER_DXP) &&
        (o.nodes || o.tc.kind == DM_CLOCK_NONE)) {
        cli_error("match: a DXP engine plays by the clock: give --tc (DXP has no node budget)");
        return 2;
    }
    if (strcmp(o.player[0].name, o.player[1].name) == 0) {
        strncat(o.player[0].name, " (1)", sizeof o.player[0].name - strlen(o.player[0].name) - 1);
        strncat(o.player[1].name, " (2)", sizeof o.player[1].name - strlen(o.player[1].name) - 1);
    }
    if (!o.variant)
        o.variant = dm_variant_by_id("international");
    if (!openings) {
        default_openings(o.variant, path, sizeof path);
        openings = path;
    }
    o.openings = openings;
    /* An engine that dies leaves a broken pipe: its next write fails and
     * the engine loses, rather than the whole match ending on SIGPIPE. */
    signal(SIGPIPE, SIG_IGN);
    return match_run(&o);
}

/* The header of a set: what it is and the command that made it. */
static void openings_header(const struct openings_options *o, bool tries_given)
{
    const char *id = dm_variant_id(o->variant);
    printf("# SPDX-License-Identifier: MIT\n"
           "# %s.txt - balanced openings of %s for damier match, made by\n"
           "#   damier openings --variant %s --count %d --plies %d --seed %llu",
           id, dm_variant_name(o->variant), id, o->count, o->plies, (unsigned long long)o->seed);
    if (o->results)
        printf(" --results %d --game-nodes %llu --band %d-%d", o->results,
               (unsigned long long)o->game_nodes, o->band_low, o->band_high);
    if (tries_given)
        printf(" --tries %d", o->tries);
    printf("\n# (random walks of %d plies from the start, each kept when a 20000-node search\n",
           o->plies);
    if (o->results)
        printf("# scores it within a quarter of a man, White scores %d%% to %d%% in %d games\n"
               "# played out from it by the engine against itself at %llu nodes a move (at\n"
               "# random among the moves within 0.1 man for the first ten plies), and no kept\n"
               "# one reaches its position).\n",
               o->band_low, o->band_high, o->results, (unsigned long long)o->game_nodes);
    else
        printf("# scores it within a quarter of a man and no kept one reaches its position).\n");
}

int cmd_openings(int argc, char **argv)
{
    struct openings_options o = {.count = 100, .plies = 6, .seed = 1, .game_nodes = 10000,
                                 .band_low = 25, .band_high = 75};
    bool band_given = false, nodes_given = false, tries_given = false;
    double x;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        i++;
        if (strcmp(a, "--variant") == 0 && value) {
            if (!(o.variant = cli_variant(value)))
                return 2;
        } else if (strcmp(a, "--count") == 0) {
            if (!number(a, value, 1, 100000, &x))
                return 2;
            o.count = (int)x;
        } else if (strcmp(a, "--plies") == 0) {
            if (!number(a, value, 1, 40, &x))
                return 2;
            o.plies = (int)x;
        } else if (strcmp(a, "--seed") == 0) {
            if (!number(a, value, 1, 1e18, &x))
                return 2;
            o.seed = (uint64_t)x;
        } else if (strcmp(a, "--tries") == 0) {
            /* At most 10000, so that count * tries walks fit an int. */
            if (!number(a, value, 1, 10000, &x))
                return 2;
            o.tries = (int)x;
            tries_given = true;
        } else if (strcmp(a, "--results") == 0) {
            if (!number(a, value, 1, 1000, &x))
                return 2;
            o.results = (int)x;
        } else if (strcmp(a, "--game-nodes") == 0) {
            if (!number(a, value, 100, 1e9, &x))
                return 2;
            o.game_nodes = (uint64_t)x;
            nodes_given = true;
        } else if (strcmp(a, "--band") == 0) {
            int low, high, end = 0;
            if (!value || sscanf(value, "%d-%d%n", &low, &high, &end) != 2 || value[end] ||
                low < 0 || high > 100 || low > high) {
                cli_error("openings: --band is LOW-HIGH, White's score in percent with "
                          "0 <= LOW <= HIGH <= 100 (e.g. 25-75)");
                return 2;
            }
            o.band_low = low;
            o.band_high = high;
            band_given = true;
        } else {
            cli_error("openings: unknown option '%s' or its value missing", a);
            return 2;
        }
    }
    if (!o.variant) {
        cli_error("openings needs --variant V");
        return 2;
    }
    if (!o.results && (band_given || nodes_given)) {
        cli_error("openings: --band and --game-nodes need --results N (the games they are for)");
        return 2;
    }
    if (o.results)
        o.log = stderr;
    openings_header(&o, tries_given);
    struct openings_report r;
    int n = openings_generate(stdout, &o, &r);
    int games = r.white_wins + r.draws + r.black_wins;
    if (games)
        printf("# White scored %.1f%% in the %d games of the kept openings (%d-%d-%d, W-D-L).\n",
               50.0 * (2 * r.white_wins + r.draws) / games, games, r.white_wins, r.draws,
               r.black_wins);
    fflush(stdout);
    if (n == 0 && r.walks == 0) {
        fprintf(stderr, "damier: openings: out of memory\n");
        return 1;
    }
    if (n < o.count) {
        fprintf(stderr, "damier: openings: %d of %d found: stopped after %d walks (--tries %d "
                "for each opening wanted); %d were balanced by the search",
                n, o.count, r.walks, r.max_walks / o.count, r.balanced);
        if (o.results)
            fprintf(stderr, ", %d played out, %d of them with White within %d%%-%d%%", r.played,
                    n, o.band_low, o.band_high);
        fprintf(stderr, ".  More --tries, more --plies%s or a smaller --count may find more.\n",
                o.results ? ", a wider --band" : "");
    }
    return n > 0 ? 0 : 1;
}
