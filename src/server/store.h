/* SPDX-License-Identifier: MIT */
/*
 * store.h - where the server keeps its games, behind one small interface
 * with two backends: SQLite (store_sqlite.c, a file: one process) and
 * PostgreSQL (store_pg.c, a postgresql:// URL: the database several
 * processes can share).  store_open picks the backend from the string it
 * is given; the server never knows which one it has.
 *
 * A game is one record (store_game): who sits where, the seat tokens, the
 * invite, the draw offer and takeback request standing, the server's seq,
 * whether it is over, and the match as PDN (dm_match_write_pdn: moves, the
 * clock after each move, the result and how it ended), from which a
 * restarted server rebuilds the match (dm_match_read_pdn).  Beside it a
 * ledger of the moves, one row a ply with the mover's clock reading.
 *
 * Every write is one transaction, committed when the call returns 0: the
 * server acknowledges an act (its HTTP answer, its WebSocket push) only
 * after that.  The store is used by the event loop's thread alone.
 *
 * Both backends keep the same schema, built by numbered migrations that
 * store_open applies in one transaction (the versions applied are rows of
 * schema_version), and behave the same to the caller: one test suite
 * (tests/unit/test_store.c) runs on both.  A game id that cannot be one
 * (empty, too long, a byte outside printable ASCII) is no game on either.
 *
 * Several nodes (docs/deploy.md): a store given a node name
 * (store_set_node) keeps leases, one row a game (game, node, expiry by the
 * database's clock).  A node holds a game while its lease has not
 * expired; it takes the lease of a new game in the transaction that
 * creates it, takes an unowned or expired one (store_lease_take), renews
 * all of its own in one statement and releases them.  Every write of such
 * a store checks, in its own transaction and with the lease row locked,
 * that this node still holds the game, so a node that lost a game can
 * never commit over the new owner, and a take waits for a write in
 * flight.  A store without a node name (one process) keeps no leases and
 * checks none.
 */
#ifndef DM_SERVER_STORE_H
#define DM_SERVER_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STORE_ID     16 /* game ids and invite codes, with their '\0'      */
#define STORE_TOKEN  40 /* seat tokens                                     */

enum store_seat { STORE_PERSON = 0, STORE_COMPUTER = 1 };
enum store_opponent { STORE_VS_COMPUTER = 0, STORE_VS_FRIEND = 1, STORE_VS_LOCAL = 2 };

typedef struct store_game {
    char id[STORE_ID];
    enum store_opponent opponent;
    int seat[2];                   /* enum store_seat, by colour            */
    int level;                     /* the computer's, or 0                  */
    char token[2][STORE_TOKEN];    /* by colour; "" for a computer seat     */
    char invite[STORE_ID];         /* friend games: the join code, else ""  */
    bool joined;                   /* the invite has been used              */
    char clock[32];                /* the control as given ("5+3"), or ""   */
    int draw_offer;                /* the colour offering, or -1            */
    int takeback;                  /* the colour asking, or -1              */
    bool over;
    uint64_t seq;                  /* the API's seq                          */
    char *pdn;                     /* the match (malloc'ed on load)         */
} store_game;

typedef struct store store;

/* Opens the database where names: a "postgresql://" or "postgres://" URL
 * (libpq's form: postgresql://USER:PASSWORD@HOST:PORT/DBNAME?OPTIONS) or
 * else an SQLite file, created if missing; brings its schema up to date.
 * NULL with err filled (what failed: a bad URL, a refused connection, the
 * authentication, a file that is no database, a schema newer than this
 * program), never a password. */
store *store_open(const char *where, char *err, size_t errsize);
void store_close(store *s);
/* "sqlite" or "postgresql". */
const char *store_kind(const store *s);
/* Whether the database answers now (the readiness probe): 0, or -1 with
 * err.  A PostgreSQL store whose connection broke reconnects here, as it
 * does before any call. */
int store_ping(store *s, char *err, size_t errsize);

/* Records a new game.  0, or -1 with err. */
int store_create_game(store *s, const store_game *g, char *err, size_t errsize);
/* Appends the move of ply (its text and the mover's clock reading in ms,
 * -1 untimed) and saves g, in one transaction.  0, or -1 with err (also
 * when no game g->id was created). */
int store_append_move(store *s, const store_game *g, int ply, const char *move,
                      int64_t clock_ms, char *err, size_t errsize);
/* Saves g (an offer, a result, a join) and drops the moves after ply
 * keep_plies (a takeback; -1 keeps them all), in one transaction.  0, or
 * -1 with err (also when no game g->id was created). */
int store_save_game(store *s, const store_game *g, int keep_plies, char *err, size_t errsize);

/* Calls fn for every game not over, oldest first; g->pdn is freed after
 * the call.  Returns the games loaded, or -1 with err.  (A node among
 * several loads only the games whose leases it takes: see
 * store_lease_takeable.) */
int store_load_unfinished(store *s, void (*fn)(void *ctx, store_game *g), void *ctx, char *err,
                          size_t errsize);
/* The game id into *g (g->pdn malloc'ed: the caller frees it): 1 found,
 * 0 not, -1 error. */
int store_load_game(store *s, const char *id, store_game *g, char *err, size_t errsize);
/* The moves recorded for id (a test's view of the ledger): their count,
 * or -1 when the database failed. */
int store_move_count(store *s, const char *id);
/* The id (idsize bytes) of the game whose invite code is code: 1 found,
 * 0 not, -1 with err.  (A node among several finds an invite here: the
 * game may be another node's.) */
int store_find_invite(store *s, const char *code, char *id, size_t idsize, char *err,
                      size_t errsize);

/* ---- several nodes: leases --------------------------------------------- */

#define STORE_NODE 64         /* node names, with their '\0'                   */
#define STORE_NOT_HOLDER (-2) /* a write refused: the node does not hold the game */

/* Makes s the store of the node named node (1-63 bytes of [A-Za-z0-9._-])
 * whose leases last lease_ms (100 ms to a day) from each take or renewal.
 * From then on store_create_game takes the new game's lease, and
 * store_append_move and store_save_game return STORE_NOT_HOLDER (err
 * saying so) for a game whose lease this node does not hold.  0, or -1
 * with err. */
int store_set_node(store *s, const char *node, int lease_ms, char *err, size_t errsize);
/* Takes the lease of game id for this node: when nobody holds it (no
 * lease, or an expired one, this node's own among them) or when this
 * node holds it already (renewed).  1 taken; 0 held by another node,
 * whose name goes into holder (holdersize bytes; may be NULL); -1 with
 * err (also for no game id).  The caller loads the game afresh after a
 * take: whatever it had in memory may be stale. */
int store_lease_take(store *s, const char *id, char *holder, size_t holdersize, char *err,
                     size_t errsize);
/* Renews every lease this node holds, in one statement, and calls held
 * (may be NULL) with each game's id; a lease that expired first is not
 * renewed (the game may have been taken: drop it, take it again and load
 * it).  The count renewed, or -1 with err. */
int store_lease_renew(store *s, void (*held)(void *ctx, const char *id), void *ctx, char *err,
                      size_t errsize);
/* Gives up this node's lease of id (NULL: all of its leases, as a node
 * that stops does), so another node may take it at once.  0, or -1 with
 * err; a lease this node does not hold is left alone. */
int store_lease_release(store *s, const char *id, char *err, size_t errsize);
/* Calls fn with the id of every unfinished game nobody holds (no lease,
 * or an expired one), oldest first, at most max of them (0: all).  The
 * count, or -1 with err. */
int store_lease_takeable(store *s, int max, void (*fn)(void *ctx, const char *id), void *ctx,
                         char *err, size_t errsize);

#endif
