/* SPDX-License-Identifier: MIT */
/*
 * players.h - a player of a match, started once per worker and asked for
 * one move at a time (players.c).
 */
#ifndef DM_MATCH_PLAYERS_H
#define DM_MATCH_PLAYERS_H

#include <sys/types.h>

#include "match/match.h"
#include "proto/dxpnet.h"

/* What a move may use: a node budget, or the mover's clock. */
struct player_limits {
    uint64_t nodes;
    int64_t time_left_ms, increment_ms;
    int moves_to_go;
};

struct player {
    struct player_spec spec;
    dm_engine *engine;     /* damier                                      */
    pid_t pid;             /* hub: the engine's process and its pipes      */
    int to, from;
    char buf[16384];
    size_t len;
    struct dxp_conn dxp;   /* dxp: the connection                          */
    int synced;            /* dxp: plies the engine knows of this game     */
    enum dm_color color;   /* dxp: the engine's colour in this game        */
};

/* Starts p as spec says, for games of v; 0, or -1 with why filled. */
int player_start(struct player *p, const struct player_spec *spec, const dm_variant *v, char *why,
                 size_t size);
/* A new game, m after its opening, with p playing color and the clock lim
 * at its start: 0, or -1 with why filled (a DXP engine that refuses it). */
int player_new_game(struct player *p, const dm_match *m, enum dm_color color,
                    const struct player_limits *lim, char *why, size_t size);
/* The game is over (DXP: GAMEEND sent and answered). */
void player_end_game(struct player *p, const dm_match *m);
/* p's move in m's current position (one of dm_match_legal's): 0, or -1
 * with why filled when p has none (it then loses the game). */
int player_move(struct player *p, dm_match *m, const struct player_limits *lim, dm_move *mv,
                char *why, size_t size);
void player_stop(struct player *p);

#endif
