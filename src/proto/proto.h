/* SPDX-License-Identifier: MIT */
/*
 * proto.h - the engine protocols: Hub on standard input and output
 * (hub.c), DamExchange over TCP (dxp.c).  The command line starts them.
 */
#ifndef DM_PROTO_PROTO_H
#define DM_PROTO_PROTO_H

#include <stdbool.h>
#include <stdio.h>

#include "damier/rules.h"

/* Speaks Hub version 2 on in and out until quit or the end of in.  Returns
 * the exit status (0; 1 if the engine cannot be made). */
int proto_hub_run(FILE *in, FILE *out);

/* The same with the hash table's sizes bounded, in MB: the one made by
 * default and the largest tt-size a GUI may set (0: the usual 64 and 4096).
 * The fuzzer keeps a session small with them, so that an input costs
 * microseconds and `set-param name=tt-size value=4096` is no finding. */
struct proto_hub_options {
    size_t tt_mb;
    size_t tt_mb_max;
};
int proto_hub_run_with(FILE *in, FILE *out, const struct proto_hub_options *o);

/* A DXP session: a connection made one way or the other, and games
 * proposed (initiator) or accepted. */
struct proto_dxp_options {
    const char *listen;         /* "[ADDR:]PORT": wait for the peer, or    */
    const char *connect;        /* "HOST:PORT": call it                    */
    bool initiator;             /* propose the games                       */
    int games;                  /* initiator: how many                     */
    int minutes, moves;         /* initiator: the time control             */
    const char *fen;            /* initiator: a set-up (NULL: the start)   */
    const dm_variant *variant;  /* NULL: International                     */
    int level;                  /* the computer's, 1..DM_LEVEL_MAX         */
    const char *pdn;            /* append every game here (NULL: nowhere)  */
    FILE *log;                  /* what happens, a line each (NULL: stderr)*/
    size_t hash_mb;             /* the engine's table (0: the level's)     */
};

/* Plays the session; returns the exit status (0; 1 if it could not
 * start). */
int proto_dxp_run(const struct proto_dxp_options *o);
/* The same session on fd, a connection already made (closed at the end):
 * the fuzz target plays one on a socket pair. */
int proto_dxp_run_on(int fd, const struct proto_dxp_options *o);

#endif
