/* SPDX-License-Identifier: MIT */
/*
 * bus.h - the message bus between the nodes of one Damier service: Redis
 * pub/sub through hiredis (docs/deploy.md, "Several nodes").
 *
 * A message is about one game: JSON {"origin": the node that sent it,
 * "game": its id, "kind": what it is ("move", "state", ...), "payload":
 * any JSON value} (docs/architecture.md, "The bus"), published on one of
 * BUS_CHANNELS channels, "damier:game:N", N chosen by a hash of the game
 * id (bus_channel), so every message of a game goes one way, in order.
 * Each bus subscribes to every channel and delivers what the other nodes
 * publish; its own messages are not delivered back to it.
 *
 * Pub/sub delivers at most once: a message published while a node is cut
 * off from Redis is lost to it.  So the bus says when it goes down and
 * when it is up again (BUS_DOWN, BUS_UP), and a node that sees BUS_UP
 * reads again from the database what it may have missed.
 *
 * The bus runs a thread of its own, which holds the two connections to
 * Redis (one subscribed, one to publish), reconnects with backoff (100 ms
 * doubling to 5 s) when Redis goes away, and hands what it receives to
 * the event loop: it calls wake (lws_cancel_service, as the engine pool
 * does), and the loop calls bus_dispatch on its own thread.  Nothing of
 * the bus ever blocks the loop: bus_publish only queues.
 */
#ifndef DM_SERVER_BUS_H
#define DM_SERVER_BUS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BUS_CHANNELS 64
#define BUS_GAME 16   /* game ids, with their '\0' (STORE_ID)            */
#define BUS_NODE 64   /* node names, with their '\0' (STORE_NODE)        */
#define BUS_KIND 32   /* a message's kind, with its '\0'                 */
#define BUS_MESSAGE_MAX (256 * 1024) /* a message's JSON text at most    */

typedef struct bus bus;

enum bus_event {
    BUS_MESSAGE, /* another node's message                                  */
    BUS_DOWN,    /* the connection to Redis is lost (error says why)        */
    BUS_UP,      /* connected again: messages may have been missed          */
};

typedef struct bus_message {
    enum bus_event event;
    char origin[BUS_NODE];
    char game[BUS_GAME];
    char kind[BUS_KIND];
    json_t *payload;   /* BUS_MESSAGE: borrowed for the call               */
    const char *error; /* BUS_DOWN: what failed; "" otherwise              */
    int64_t received_ms; /* when it arrived, CLOCK_MONOTONIC in ms: how long
                          * it waited for the loop                         */
} bus_message;

/* Connects the node named node to Redis at url, redis://[[USER]:PASSWORD@]
 * HOST[:PORT][/] (port 6379 by default; a password percent-encoded), and
 * subscribes to every channel; wake(wake_ctx) is then called from the
 * bus's thread whenever there is something for bus_dispatch.  NULL with
 * err (a bad URL, a refused connection, a refused password; never the
 * password). */
bus *bus_open(const char *url, const char *node, void (*wake)(void *ctx), void *wake_ctx,
              char *err, size_t errsize);
/* Stops the thread, closes the connections, drops what is queued. */
void bus_close(bus *b);

/* The channel of game id: 0 .. BUS_CHANNELS-1 (FNV-1a of its bytes). */
int bus_channel(const char *game);

/* Queues a message about game (kind a word, payload any JSON value, not
 * taken) for the bus's thread to publish.  0, or -1 with err: a bad game
 * or kind, a message too large, Redis unreachable now (the message is
 * dropped, not kept for later: see BUS_UP). */
int bus_publish(bus *b, const char *game, const char *kind, json_t *payload, char *err,
                size_t errsize);

/* On the loop's thread: calls fn for everything received since the last
 * call, in order (malformed messages are dropped and counted).  The
 * number of calls made. */
int bus_dispatch(bus *b, void (*fn)(void *ctx, const bus_message *m), void *ctx);

/* Whether the bus is connected now, and how many messages it dropped
 * (malformed, or queues full) since it opened. */
bool bus_connected(bus *b);
long bus_dropped(bus *b);

#endif
