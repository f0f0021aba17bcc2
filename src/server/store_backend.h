/* SPDX-License-Identifier: MIT */
/*
 * store_backend.h - what a storage backend gives store.c (internal to
 * src/server/store*.c): its operations in a table, which store.c calls
 * for store.h's functions after the checks both backends share, and the
 * schema's migrations, numbered once for both dialects.
 *
 * A backend's handle begins with struct store, so store.c reaches the
 * table from any handle and the backend casts the handle to its own.
 */
#ifndef DM_SERVER_STORE_BACKEND_H
#define DM_SERVER_STORE_BACKEND_H

#include "server/store.h"

typedef struct store_backend {
    const char *kind; /* store_kind's answer */
    void (*close)(store *s);
    int (*ping)(store *s, char *err, size_t errsize);
    int (*create_game)(store *s, const store_game *g, char *err, size_t errsize);
    int (*append_move)(store *s, const store_game *g, int ply, const char *move,
                       int64_t clock_ms, char *err, size_t errsize);
    int (*save_game)(store *s, const store_game *g, int keep_plies, char *err, size_t errsize);
    int (*load_unfinished)(store *s, void (*fn)(void *ctx, store_game *g), void *ctx, char *err,
                           size_t errsize);
    int (*load_game)(store *s, const char *id, store_game *g, char *err, size_t errsize);
    int (*move_count)(store *s, const char *id);
    int (*find_invite)(store *s, const char *code, char *id, size_t idsize, char *err,
                       size_t errsize);
    int (*lease_take)(store *s, const char *id, char *holder, size_t holdersize, char *err,
                      size_t errsize);
    int (*lease_renew)(store *s, void (*held)(void *ctx, const char *id), void *ctx, char *err,
                       size_t errsize);
    int (*lease_release)(store *s, const char *id, char *err, size_t errsize);
    int (*lease_takeable)(store *s, int max, void (*fn)(void *ctx, const char *id), void *ctx,
                          char *err, size_t errsize);
} store_backend;

/* node is "" until store_set_node: then writes take and check leases of
 * lease_ms, and the lease calls are allowed (store.c checks). */
struct store {
    const store_backend *backend;
    char node[STORE_NODE];
    int lease_ms;
};

store *store_sqlite_open(const char *path, char *err, size_t errsize);
store *store_pg_open(const char *url, char *err, size_t errsize);

/* One step of the schema, in each dialect.  Steps are applied in order,
 * each once, inside the transaction that opens the store; a step only
 * adds (a table, a column with a default, an index), so a node still on
 * the previous version keeps working while another upgrades.  Version 1
 * creates with IF NOT EXISTS, which adopts an SQLite file written before
 * the schema had versions. */
typedef struct store_migration {
    int version;
    const char *sqlite;
    const char *pg;
} store_migration;

extern const store_migration store_migrations[];
extern const int store_migration_count;

/* The statement that makes schema_version, the table of versions applied. */
#define STORE_SCHEMA_VERSION_SQLITE                                                           \
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY,"                \
    " applied TEXT NOT NULL DEFAULT (datetime('now')))"
#define STORE_SCHEMA_VERSION_PG                                                               \
    "CREATE TABLE IF NOT EXISTS schema_version (version integer PRIMARY KEY,"                \
    " applied timestamptz NOT NULL DEFAULT now())"

#endif
