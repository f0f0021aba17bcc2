/* SPDX-License-Identifier: MIT */
/*
 * play.h - what the play modules share beyond the public API: the match
 * record itself, which match.c changes, match_pdn.c writes and reads, and
 * computer.c takes snapshots of.
 */
#ifndef DM_PLAY_PLAY_H
#define DM_PLAY_PLAY_H

#include "damier/play.h"

#define PLAY_TAG_BYTES 128 /* Event, Site, Date as kept for the PDN tags */

struct dm_match {
    dm_game *game;
    dm_clock clock;
    bool timed;
    bool clock_after_first_moves; /* dm_match_options' rule                */
    dm_seat seat[2];
    dm_engine *engine[2];     /* per seat, made at its first search        */
    size_t engine_mb[2];
    uint64_t rng;             /* xorshift64* state: the seeds of searches  */
    int offer;                /* the colour offering a draw, or -1         */
    int request;              /* the colour asking for a takeback, or -1   */
    int request_plies;
    /* A result the PDN file gave that the moves do not reach. */
    enum dm_result declared;
    char declared_reason[64];
    int64_t *clock_after;     /* [ply]: the mover's time left after it     */
    int clock_cap;
    dm_match_event events[DM_MATCH_EVENTS]; /* a ring, by seq               */
    uint64_t seq;
    char event[PLAY_TAG_BYTES], site[PLAY_TAG_BYTES], date[PLAY_TAG_BYTES];
};

/* Starts the clock of the side to move if it may run now (timed, the game
 * on, the first moves made where the match waits for them), else stops it. */
void play_restart_clock(dm_match *m);

/* Adds an event (the ring forgets the oldest). */
void play_event(dm_match *m, enum dm_match_event_kind kind, enum dm_color color, int plies);

/* The result as PDN names it: one mapping for every writer. */
enum dm_pdn_result play_pdn_result(enum dm_result r);

/* The engine of seat color with a table of at least mb, made or grown now;
 * NULL if memory runs out. */
dm_engine *play_engine(dm_match *m, enum dm_color color, size_t mb);

#endif
