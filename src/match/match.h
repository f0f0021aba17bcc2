/* SPDX-License-Identifier: MIT */
/*
 * match.h - `damier match`: engines play each other in colour-reversed
 * pairs of games from an opening set, and the results say which is
 * stronger, by how much, and when that is known well enough (SPRT).
 *
 * A player is Damier in this process (a level, or a node budget, and a hash
 * size), any engine that speaks Hub, started as a command (another build
 * of Damier among them), or an engine that waits for DXP games at an
 * address.  Every move a player makes is checked legal by
 * Damier's own generator and every game follows the variant's draw rules,
 * through the play layer; a player that sends an illegal move or none loses
 * that game.  Games are written to a PDN file as they end, and a match
 * started again with the same file goes on where it stopped.
 */
#ifndef DM_MATCH_MATCH_H
#define DM_MATCH_MATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "damier/play.h"
#include "match/stats.h"

#define MATCH_NAME 64

enum player_kind { PLAYER_DAMIER, PLAYER_HUB, PLAYER_DXP };

/* A player as the command line describes it: "damier [level=N] [hash=MB]
 * [name=X]", "hub:COMMAND" (run by /bin/sh) or "dxp:HOST:PORT" (an engine
 * listening for DamExchange games, which the match proposes). */
struct player_spec {
    enum player_kind kind;
    int level;          /* damier: 1..DM_LEVEL_MAX; 0: the top level   */
    size_t hash_mb;     /* damier: the hash table (0: the level's)     */
    char command[512];  /* hub: the command line; dxp: HOST:PORT       */
    char name[MATCH_NAME];
};

/* Reads text into spec; 0, or -1 with why filled. */
int player_spec_parse(const char *text, struct player_spec *spec, char *why, size_t size);

struct match_options {
    const dm_variant *variant;
    enum dm_rules rules;
    struct player_spec player[2]; /* the first is the one results are for */
    int games;                    /* at most this many (rounded up to pairs) */
    uint64_t nodes;               /* a node budget per move (0: none)     */
    dm_time_control tc;           /* the clock (kind NONE: none)          */
    int concurrency;              /* games at once                        */
    const char *openings;         /* the opening file                     */
    const char *pdn;              /* the games' file (NULL: none): resumed from */
    bool sprt;
    struct match_sprt sprt_params;
    int max_plies;                /* a game this long is adjudicated a draw */
    FILE *out;                    /* progress and the result              */
};

/* Plays the match; returns the exit status (0; 1 for bad input such as an
 * unreadable opening file or an engine that cannot start). */
int match_run(const struct match_options *o);

/* ---- openings (openings.c) ---- */

/* An opening: moves from the variant's start, as text. */
struct opening {
    char moves[256];
};

/* Reads the openings of path for v, checking each is legal; returns how
 * many (malloc'ed in *out), or -1 with why naming the file and line. */
int openings_read(const char *path, const dm_variant *v, struct opening **out, char *why,
                  size_t size);

/* Plays the opening's moves (blank-separated text) in m for both sides,
 * as far as they are legal: the openings were checked when read. */
void openings_play(dm_match *m, const char *moves);

/* How `damier openings` makes a set. */
struct openings_options {
    const dm_variant *variant;
    int count;      /* openings wanted                                       */
    int plies;      /* each a random walk of this many plies from the start   */
    uint64_t seed;  /* the walks, and the played-out games' random choices    */
    int tries;      /* walks made for each opening wanted, at most (0: 50)    */
    /* Balance by results (0: by the search alone): a walk the search finds
     * balanced is played out this many times, the engine against itself at
     * game_nodes a move, and kept when White scores from band_low to
     * band_high percent of the points. */
    int results;
    uint64_t game_nodes;
    int band_low, band_high;
    FILE *log;      /* a line for each walk played out (NULL: none)           */
};

/* What openings_generate did, for its caller to say. */
struct openings_report {
    int walks;        /* random walks made (tries * count at most)           */
    int max_walks;    /* that limit                                          */
    int balanced;     /* walks that were new and balanced by the search      */
    int played;       /* of them, played out (with results)                  */
    int kept;
    /* The games of the kept openings, from White's side. */
    int white_wins, draws, black_wins;
};

/* Writes up to o->count balanced openings of o->variant to f, one a line:
 * each a random walk of o->plies moves from the start (reproducible from
 * o->seed), kept when a short search finds it within a quarter of a man for
 * both sides, (with o->results) when White's score in the games played out
 * from it lies in the band, and when no other kept one reaches the same
 * position.  Stops after o->tries walks for each opening wanted, so that it
 * ends however few pass.  Returns how many were written, r saying more. */
int openings_generate(FILE *f, const struct openings_options *o, struct openings_report *r);

#endif
