/* SPDX-License-Identifier: MIT */
/*
 * server.h - damier serve: the web app's server (docs/api.md), one
 * libwebsockets event loop that owns every live game, a pool of engine
 * threads (pool.h) and the store (store.h).
 */
#ifndef DM_SERVER_SERVER_H
#define DM_SERVER_SERVER_H

#include <stdbool.h>

typedef struct srv_config {
    const char *host;   /* the address to listen on ("127.0.0.1")          */
    int port;           /* 0: any free port (the address line says which)  */
    const char *db;     /* an SQLite file or a postgresql:// URL (store.h) */
    int engine_threads; /* workers searching                               */
    const char *web;    /* the folder of static files                      */
    int max_games;      /* unfinished games held at once; 0: 10000, -1: any */
    int games_per_minute; /* new games one address may start in a minute;
                             0: 30, -1: any                                */
    int max_per_address; /* connections one peer address may hold at once:
                          * SRV_MAX_PER_ADDRESS when 0, no limit when < 0  */
    /* Several nodes on one PostgreSQL database (docs/deploy.md): this
     * node's name and the Redis bus's URL (both, or neither: one
     * process), its leases' time (0: SRV_LEASE_MS).  engine_threads 0
     * (--no-engine): the node plays no computer seat, and hands such
     * games to nodes that have an engine. */
    const char *node;
    const char *redis;
    int lease_ms;
    bool in_thread;     /* a server in a thread of a bigger program (a fuzz
                         * target): SIGINT and SIGTERM are left alone, and
                         * srv_stop() ends it                              */
} srv_config;

/* The connections one address may hold when the configuration says 0: a
 * few browsers' tabs behind one router (six HTTP connections and a
 * WebSocket each), not a flood. */
#define SRV_MAX_PER_ADDRESS 64
#define SRV_LEASE_MS 10000

/* Serves until SIGINT or SIGTERM.  Prints "Damier is at http://H:P/" on
 * stdout once listening, errors on stderr.  Returns 0 after a clean stop,
 * 1 if it cannot start (the database, the port). */
int srv_run(const srv_config *c);

/* Asks the srv_run of this process to return (from any thread): it stops
 * within one turn of its loop.  A call before srv_run starts, or after it
 * returned, does nothing. */
void srv_stop(void);

#endif
