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
