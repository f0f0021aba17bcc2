/* SPDX-License-Identifier: MIT */
/*
 * store.c - store.h's functions: the backend chosen by the string given to
 * store_open, the checks both backends share (a malformed game id is no
 * game), and the schema's history (store_migrations), which both
 * backends apply.
 */
#include "server/store_backend.h"

#include <stdio.h>
#include <string.h>

/* ---- the schema, version by version ------------------------------------ */

const store_migration store_migrations[] = {
    {1,
     /* games: one row a game, the match as PDN in it; moves: the ledger. */
     "CREATE TABLE IF NOT EXISTS games ("
     " id TEXT PRIMARY KEY, opponent INTEGER NOT NULL, seat_white INTEGER NOT NULL,"
     " seat_black INTEGER NOT NULL, level INTEGER NOT NULL, token_white TEXT NOT NULL,"
     " token_black TEXT NOT NULL, invite TEXT NOT NULL, joined INTEGER NOT NULL,"
     " clock TEXT NOT NULL, draw_offer INTEGER NOT NULL, takeback INTEGER NOT NULL,"
     " over INTEGER NOT NULL, seq INTEGER NOT NULL, pdn TEXT NOT NULL,"
     " created TEXT NOT NULL DEFAULT (datetime('now')));"
     "CREATE INDEX IF NOT EXISTS games_over ON games(over);"
     "CREATE TABLE IF NOT EXISTS moves ("
     " game TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL, move TEXT NOT NULL,"
     " clock_ms INTEGER, PRIMARY KEY (game, ply));",
     /* rowid: the order of creation, as SQLite's own rowid gives it. */
     "CREATE TABLE IF NOT EXISTS games ("
     " rowid bigint GENERATED ALWAYS AS IDENTITY UNIQUE,"
     " id text PRIMARY KEY, opponent integer NOT NULL, seat_white integer NOT NULL,"
     " seat_black integer NOT NULL, level integer NOT NULL, token_white text NOT NULL,"
     " token_black text NOT NULL, invite text NOT NULL, joined boolean NOT NULL,"
     " clock text NOT NULL, draw_offer integer NOT NULL, takeback integer NOT NULL,"
     " over boolean NOT NULL, seq bigint NOT NULL, pdn text NOT NULL,"
     " created timestamptz NOT NULL DEFAULT now());"
     "CREATE INDEX IF NOT EXISTS games_unfinished ON games(rowid) WHERE NOT over;"
     "CREATE TABLE IF NOT EXISTS moves ("
     " game text NOT NULL REFERENCES games(id), ply integer NOT NULL, move text NOT NULL,"
     " clock_ms bigint, PRIMARY KEY (game, ply));"},
    {2,
     /* leases: which node holds a live game, until when by the database's
      * clock (SQLite: milliseconds since 1970; PostgreSQL: timestamptz).
      * One row a game rather than a shard: the write guard then locks the
      * game's own row, a new game is its creator's in the same
      * transaction, and a dead node's games spread over the nodes that
      * take them (docs/deploy.md). */
     "CREATE TABLE leases (game TEXT PRIMARY KEY REFERENCES games(id), node TEXT NOT NULL,"
     " expires INTEGER NOT NULL);"
     "CREATE INDEX leases_node ON leases(node);",
     "CREATE TABLE leases (game text PRIMARY KEY REFERENCES games(id), node text NOT NULL,"
     " expires timestamptz NOT NULL);"
     "CREATE INDEX leases_node ON leases(node);"},
};
const int store_migration_count = (int)(sizeof store_migrations / sizeof store_migrations[0]);

/* ---- the choice of backend ---------------------------------------------- */

static bool is_pg_url(const char *where)
{
    return strncmp(where, "postgresql://", 13) == 0 || strncmp(where, "postgres://", 11) == 0;
}

store *store_open(const char *where, char *err, size_t errsize)
{
    if (!where || !*where) {
        snprintf(err, errsize, "database: no file or postgresql:// URL given");
        return NULL;
    }
    return is_pg_url(where) ? store_pg_open(where, err, errsize)
                            : store_sqlite_open(where, err, errsize);
}

void store_close(store *s)
{
    if (s)
        s->backend->close(s);
}

const char *store_kind(const store *s)
{
    return s->backend->kind;
}

int store_ping(store *s, char *err, size_t errsize)
{
    return s->backend->ping(s, err, errsize);
}

/* ---- the calls, with the checks both backends share --------------------- */

/* Whether id can name a game: the server's ids are short printable ASCII,
 * and a database with a text encoding (PostgreSQL) would refuse other
 * bytes with an error where a lookup should simply find nothing. */
static bool plausible_id(const char *id)
{
    size_t n = 0;
    for (; id[n]; n++)
        if (id[n] <= ' ' || id[n] > '~' || n + 1 >= STORE_ID)
            return false;
    return n > 0;
}

static int bad_id(const char *id, char *err, size_t errsize)
{
    snprintf(err, errsize, "database: no game '%.*s'", STORE_ID, plausible_id(id) ? id : "?");
    return -1;
}

int store_create_game(store *s, const store_game *g, char *err, size_t errsize)
{
    if (!plausible_id(g->id))
        return bad_id(g->id, err, errsize);
    return s->backend->create_game(s, g, err, errsize);
}

int store_append_move(store *s, const store_game *g, int ply, const char *move,
                      int64_t clock_ms, char *err, size_t errsize)
{
    if (!plausible_id(g->id))
        return bad_id(g->id, err, errsize);
    return s->backend->append_move(s, g, ply, move, clock_ms, err, errsize);
}

int store_save_game(store *s, const store_game *g, int keep_plies, char *err, size_t errsize)
{
    if (!plausible_id(g->id))
        return bad_id(g->id, err, errsize);
    return s->backend->save_game(s, g, keep_plies, err, errsize);
}

int store_load_unfinished(store *s, void (*fn)(void *ctx, store_game *g), void *ctx, char *err,
                          size_t errsize)
{
    return s->backend->load_unfinished(s, fn, ctx, err, errsize);
}

int store_load_game(store *s, const char *id, store_game *g, char *err, size_t errsize)
{
    if (!plausible_id(id))
        return 0;
    return s->backend->load_game(s, id, g, err, errsize);
}

int store_move_count(store *s, const char *id)
{
    return plausible_id(id) ? s->backend->move_count(s, id) : 0;
}

int store_find_invite(store *s, const char *code, char *id, size_t idsize, char *err,
                      size_t errsize)
{
    /* Invite codes are made as game ids are: anything else is no invite. */
    return plausible_id(code) ? s->backend->find_invite(s, code, id, idsize, err, errsize) : 0;
}

/* ---- leases ------------------------------------------------------------- */

#define LEASE_MS_MIN 100
#define LEASE_MS_MAX (24 * 3600 * 1000)

/* Node names go into log lines and messages between nodes: a short word. */
static bool plausible_node(const char *node)
{
    size_t n = 0;
    for (; node[n]; n++) {
        char c = node[n];
        bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
        if (!word || n + 1 >= STORE_NODE)
            return false;
    }
    return n > 0;
}

int store_set_node(store *s, const char *node, int lease_ms, char *err, size_t errsize)
{
    if (!node || !plausible_node(node)) {
        snprintf(err, errsize, "node name: 1 to %d letters, digits, '.', '_' or '-'",
                 STORE_NODE - 1);
        return -1;
    }
    if (lease_ms < LEASE_MS_MIN || lease_ms > LEASE_MS_MAX) {
        snprintf(err, errsize, "lease: %d ms is not between %d ms and a day", lease_ms,
                 LEASE_MS_MIN);
        return -1;
    }
    snprintf(s->node, sizeof s->node, "%s", node);
    s->lease_ms = lease_ms;
    return 0;
}

static bool has_node(const store *s, char *err, size_t errsize)
{
    if (s->node[0])
        return true;
    snprintf(err, errsize, "database: leases need a node name (store_set_node)");
    return false;
}

int store_lease_take(store *s, const char *id, char *holder, size_t holdersize, char *err,
                     size_t errsize)
{
    if (!has_node(s, err, errsize))
        return -1;
    if (!plausible_id(id))
        return bad_id(id, err, errsize);
    if (holder && holdersize)
        holder[0] = '\0';
    return s->backend->lease_take(s, id, holder, holdersize, err, errsize);
}

int store_lease_renew(store *s, void (*held)(void *ctx, const char *id), void *ctx, char *err,
                      size_t errsize)
{
    if (!has_node(s, err, errsize))
        return -1;
    return s->backend->lease_renew(s, held, ctx, err, errsize);
}

int store_lease_release(store *s, const char *id, char *err, size_t errsize)
{
    if (!has_node(s, err, errsize))
        return -1;
    if (id && !plausible_id(id))
        return 0; /* no such game, so no lease of it */
    return s->backend->lease_release(s, id, err, errsize);
}

int store_lease_takeable(store *s, int max, void (*fn)(void *ctx, const char *id), void *ctx,
                         char *err, size_t errsize)
{
    if (max < 0) {
        snprintf(err, errsize, "database: takeable games: max %d < 0", max);
        return -1;
    }
    return s->backend->lease_takeable(s, max, fn, ctx, err, errsize);
}
