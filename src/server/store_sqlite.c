/* SPDX-License-Identifier: MIT */
/*
 * store_sqlite.c - store.h on SQLite, in WAL mode with synchronous=FULL:
 * a commit is on disk when sqlite3_step returns, so a move the server has
 * acknowledged survives a kill -9 and a power cut alike, and readers (a
 * backup, sqlite3 on the command line) never block the server.
 *
 * Two tables: games (one row a game, the match as PDN in it) and moves
 * (the ledger, one row a ply), made by store.c's migrations.  The
 * workload is one small transaction per act, a few a second per game; the
 * statements are prepared once.
 */
#include "server/store_backend.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sqlite_store {
    store base;
    sqlite3 *db;
    sqlite3_stmt *insert, *update, *move, *drop_moves, *unfinished, *one, *count, *invite;
    sqlite3_stmt *lease_guard, *lease_new, *lease_take, *lease_holder, *lease_renew,
        *lease_release, *lease_release_all, *lease_takeable;
} sqlite_store;

static const store_backend SQLITE_BACKEND;

/* The database's clock in ms since 1970, as leases keep it: SQLite's
 * 'now' is the same within one statement. */
#define NOW_MS "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)"

#define COLUMNS                                                                                  \
    "id, opponent, seat_white, seat_black, level, token_white, token_black, invite, joined,"     \
    " clock, draw_offer, takeback, over, seq, pdn"

static void set_err(char *err, size_t size, const char *what, sqlite3 *db)
{
    snprintf(err, size, "database: %s: %s", what, db ? sqlite3_errmsg(db) : "out of memory");
}

static void sqlite_close(store *base)
{
    sqlite_store *s = (sqlite_store *)base;
    sqlite3_finalize(s->insert);
    sqlite3_finalize(s->update);
    sqlite3_finalize(s->move);
    sqlite3_finalize(s->drop_moves);
    sqlite3_finalize(s->unfinished);
    sqlite3_finalize(s->one);
    sqlite3_finalize(s->count);
    sqlite3_finalize(s->invite);
    sqlite3_stmt *leases[] = {s->lease_guard,  s->lease_new,     s->lease_take,
                              s->lease_holder, s->lease_renew,   s->lease_release,
                              s->lease_release_all, s->lease_takeable};
    for (size_t i = 0; i < sizeof leases / sizeof leases[0]; i++)
        sqlite3_finalize(leases[i]);
    sqlite3_close(s->db);
    free(s);
}

/* The highest version in schema_version into *version (0: none). */
static bool schema_version(sqlite3 *db, int *version)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT coalesce(max(version), 0) FROM schema_version", -1, &st,
                           NULL) != SQLITE_OK)
        return false;
    bool ok = sqlite3_step(st) == SQLITE_ROW;
    *version = ok ? sqlite3_column_int(st, 0) : 0;
    sqlite3_finalize(st);
    return ok;
}

/* Applies the migrations the file lacks, all in one transaction, which
 * BEGIN IMMEDIATE makes the only writer: two servers started on one file
 * cannot both apply a step.  0, or -1 with err. */
static int migrate(sqlite3 *db, const char *path, char *err, size_t errsize)
{
    char *msg = NULL;
    int version = 0;
    bool ok = sqlite3_exec(db, "BEGIN IMMEDIATE; " STORE_SCHEMA_VERSION_SQLITE, NULL, NULL,
                           &msg) == SQLITE_OK &&
              schema_version(db, &version);
    const int newest = store_migrations[store_migration_count - 1].version;
    if (ok && version > newest) {
        snprintf(err, errsize,
                 "database %s: schema version %d is newer than this program's (%d): run a newer "
                 "damier",
                 path, version, newest);
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    for (int i = 0; ok && i < store_migration_count; i++) {
        const store_migration *m = &store_migrations[i];
        if (m->version <= version)
            continue;
        char record[96];
        snprintf(record, sizeof record, "INSERT INTO schema_version (version) VALUES (%d)",
                 m->version);
        ok = sqlite3_exec(db, m->sqlite, NULL, NULL, &msg) == SQLITE_OK &&
             sqlite3_exec(db, record, NULL, NULL, &msg) == SQLITE_OK;
    }
    if (ok && sqlite3_exec(db, "COMMIT", NULL, NULL, &msg) == SQLITE_OK)
        return 0;
    snprintf(err, errsize, "database %s: cannot set up its schema: %s", path,
             msg ? msg : sqlite3_errmsg(db));
    sqlite3_free(msg);
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

store *store_sqlite_open(const char *path, char *err, size_t errsize)
{
    sqlite_store *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    s->base.backend = &SQLITE_BACKEND;
    if (sqlite3_open(path, &s->db) != SQLITE_OK) {
        set_err(err, errsize, path, s->db);
        sqlite_close(&s->base);
        return NULL;
    }
    sqlite3_busy_timeout(s->db, 5000);
    char *msg = NULL;
    if (sqlite3_exec(s->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;", NULL, NULL,
                     &msg) != SQLITE_OK) {
        snprintf(err, errsize, "database %s: %s", path, msg ? msg : "cannot set up");
        sqlite3_free(msg);
        sqlite_close(&s->base);
        return NULL;
    }
    if (migrate(s->db, path, err, errsize) != 0) {
        sqlite_close(&s->base);
        return NULL;
    }
    struct {
        sqlite3_stmt **st;
        const char *sql;
    } st[] = {
        {&s->insert, "INSERT INTO games (" COLUMNS ") VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,"
                     "?12,?13,?14,?15)"},
        {&s->update, "UPDATE games SET opponent=?2, seat_white=?3, seat_black=?4, level=?5,"
                     " token_white=?6, token_black=?7, invite=?8, joined=?9, clock=?10,"
                     " draw_offer=?11, takeback=?12, over=?13, seq=?14, pdn=?15 WHERE id=?1"},
        {&s->move, "INSERT OR REPLACE INTO moves (game, ply, move, clock_ms) VALUES (?1,?2,?3,?4)"},
        {&s->drop_moves, "DELETE FROM moves WHERE game=?1 AND ply>?2"},
        {&s->unfinished, "SELECT " COLUMNS " FROM games WHERE over=0 ORDER BY rowid"},
        {&s->one, "SELECT " COLUMNS " FROM games WHERE id=?1"},
        {&s->count, "SELECT count(*) FROM moves WHERE game=?1"},
        {&s->invite, "SELECT id FROM games WHERE invite=?1 LIMIT 1"},
        /* Leases (?2 the node, ?3 the lease in ms), as on PostgreSQL;
         * BEGIN IMMEDIATE makes the guard and its write one step. */
        {&s->lease_guard, "SELECT 1 FROM leases WHERE game=?1 AND node=?2 AND expires > " NOW_MS},
        {&s->lease_new, "INSERT INTO leases (game, node, expires) VALUES (?1, ?2, " NOW_MS " + ?3)"},
        {&s->lease_take, "INSERT INTO leases (game, node, expires) SELECT id, ?2, " NOW_MS " + ?3"
                         " FROM games WHERE id=?1 ON CONFLICT (game) DO UPDATE SET"
                         " node=excluded.node, expires=excluded.expires"
                         " WHERE leases.node=excluded.node OR leases.expires <= " NOW_MS
                         " RETURNING node"},
        {&s->lease_holder, "SELECT l.node FROM games g LEFT JOIN leases l ON l.game=g.id"
                           " WHERE g.id=?1"},
        {&s->lease_renew, "UPDATE leases SET expires = " NOW_MS " + ?2 WHERE node=?1 AND"
                          " expires > " NOW_MS " RETURNING game"},
        {&s->lease_release, "DELETE FROM leases WHERE game=?1 AND node=?2"},
        {&s->lease_release_all, "DELETE FROM leases WHERE node=?1"},
        {&s->lease_takeable, "SELECT g.id FROM games g LEFT JOIN leases l ON l.game=g.id"
                             " WHERE g.over=0 AND (l.game IS NULL OR l.expires <= " NOW_MS ")"
                             " ORDER BY g.rowid LIMIT ?1"},
    };
    for (size_t i = 0; i < sizeof st / sizeof st[0]; i++)
        if (sqlite3_prepare_v2(s->db, st[i].sql, -1, st[i].st, NULL) != SQLITE_OK) {
            set_err(err, errsize, "prepare", s->db);
            sqlite_close(&s->base);
            return NULL;
        }
    return &s->base;
}

static int sqlite_ping(store *base, char *err, size_t errsize)
{
    sqlite_store *s = (sqlite_store *)base;
    int version;
    if (schema_version(s->db, &version))
        return 0;
    set_err(err, errsize, "ping", s->db);
    return -1;
}

/* Binds g to the 15 columns of insert and update. */
static void bind_game(sqlite3_stmt *st, const store_game *g)
{
    sqlite3_bind_text(st, 1, g->id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, g->opponent);
    sqlite3_bind_int(st, 3, g->seat[0]);
    sqlite3_bind_int(st, 4, g->seat[1]);
    sqlite3_bind_int(st, 5, g->level);
    sqlite3_bind_text(st, 6, g->token[0], -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 7, g->token[1], -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 8, g->invite, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 9, g->joined);
    sqlite3_bind_text(st, 10, g->clock, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 11, g->draw_offer);
    sqlite3_bind_int(st, 12, g->takeback);
    sqlite3_bind_int(st, 13, g->over);
    sqlite3_bind_int64(st, 14, (sqlite3_int64)g->seq);
    sqlite3_bind_text(st, 15, g->pdn ? g->pdn : "", -1, SQLITE_TRANSIENT);
}

/* Runs a statement that returns no rows; true if it did. */
static bool run(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc == SQLITE_DONE;
}

/* Runs the update of g; true if it changed g's row, which must exist. */
static bool run_update(sqlite_store *s, const store_game *g, bool *absent)
{
    bind_game(s->update, g);
    bool ok = run(s->update);
    *absent = ok && sqlite3_changes(s->db) == 0;
    return ok && !*absent;
}

static bool begin(sqlite_store *s)
{
    return sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK;
}

/* Commits when ok, else rolls back; returns whether the commit held.  On
 * failure err names what: the database's complaint, or a missing game. */
static bool end(sqlite_store *s, bool ok, bool absent, const store_game *g, const char *what,
                char *err, size_t errsize)
{
    if (ok && sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
        return true;
    if (absent)
        snprintf(err, errsize, "database: %s: no game '%s'", what, g->id);
    else
        set_err(err, errsize, what, s->db);
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return false;
}

/* Inside a write transaction of a node's store: whether this node holds
 * the lease of id (a store of no node holds every game).  *lost when it
 * does not. */
static bool guard(sqlite_store *s, const char *id, bool *lost)
{
    *lost = false;
    if (!s->base.node[0])
        return true;
    sqlite3_bind_text(s->lease_guard, 1, id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s->lease_guard, 2, s->base.node, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s->lease_guard);
    sqlite3_reset(s->lease_guard);
    sqlite3_clear_bindings(s->lease_guard);
    *lost = rc == SQLITE_DONE;
    return rc == SQLITE_ROW;
}

/* The failure of a guarded write: STORE_NOT_HOLDER when the guard refused
 * it (end rolled back), else -1. */
static int refused(const sqlite_store *s, bool lost, const store_game *g, const char *what,
                   char *err, size_t errsize)
{
    if (!lost)
        return -1;
    snprintf(err, errsize, "database: %s: node %s does not hold the lease of game '%s'", what,
             s->base.node, g->id);
    return STORE_NOT_HOLDER;
}

static int sqlite_create_game(store *base, const store_game *g, char *err, size_t errsize)
{
    sqlite_store *s = (sqlite_store *)base;
    bool ok = begin(s);
    if (ok) {
        bind_game(s->insert, g);
        ok = run(s->insert);
    }
    if (ok && s->base.node[0]) {
        sqlite3_bind_text(s->lease_new, 1, g->id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(s->lease_new, 2, s->base.node, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(s->lease_new, 3, s->base.lease_ms);
        ok = run(s->lease_new);
    }
    return end(s, ok, false, g, "create game", err, errsize) ? 0 : -1;
}

static int sqlite_append_move(store *base, const store_game *g, int ply, const char *move,
                              int64_t clock_ms, char *err, size_t errsize)
{
    sqlite_store *s = (sqlite_store *)base;
    bool absent = false, lost = false, ok = begin(s) && guard(s, g->id, &lost);
    if (ok) {
        sqlite3_bind_text(s->move, 1, g->id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(s->move, 2, ply);
        sqlite3_bind_text(s->move, 3, move, -1, SQLITE_TRANSIENT);
        if (clock_ms >= 0)
            sqlite3_bind_int64(s->move, 4, clock_ms);
        else
            sqlite3_bind_null(s->move, 4);
        ok = run(s->move) && run_update(s, g, &absent);
    }
    if (end(s, ok, absent, g, "record move", err, errsize))
        return 0;
    return refused(s, lost, g, "record move", err, errsize);
}

static int sqlite_save_game(store *base, const store_game *g, int keep_plies, char *err,
                            size_t errsize)
{
    sqlite_store *s = (sqlite_store *)base;
    bool absent = false, lost = false, ok = begin(s) && guard(s, g->id, &lost);
    if (ok && keep_plies >= 0) {
        sqlite3_bind_text(s->drop_moves, 1, g->id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(s->drop_moves, 2, keep_plies);
        ok = run(s->drop_moves);
    }
    ok = ok && run_update(s, g, &absent);
    if (end(s, ok, absent, g, "save game", err, errsize))
        return 0;
    return refused(s, lost, g, "save game", err, errsize);
}

static void copy_text(char *dst, size_t size, sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(dst, size, "%s", t ? (const char *)t : "");
}

/* The row under st into *g, its pdn malloc'ed (NULL when memory ran out). */
static void read_row(sqlite3_stmt *st, store_game *g)
{
    memset(g, 0, sizeof *g);
    copy_text(g->id, sizeof g->id, st, 0);
    g->opponent = (enum store_opponent)sqlite3_column_int(st, 1);
    g->seat[0] = sqlite3_column_int(st, 2);
    g->seat[1] = sqlite3_column_int(st, 3);
    g->level = sqlite3_column_int(st, 4);
    copy_text(g->token[0], sizeof g->token[0], st, 5);
    copy_text(g->token[1], sizeof g->token[1], st, 6);
    copy_text(g->invite, sizeof g->invite, st, 7);
    g->joined = sqlite3_column_int(st, 8) != 0;
    copy_text(g->clock, sizeof g->clock, st, 9);
    g->draw_offer = sqlite3_column_int(st, 10);
    g->takeback = sqlite3_column_int(st, 11);
    g->over = sqlite3_column_int(st, 12) != 0;
    g->seq = (uint64_t)sqlite3_column_int64(st, 13);
    const unsigned char *pdn = sqlite3_column_text(st, 14);
    g->pdn = strdup(pdn ? (const char *)pdn : "");
}

static int sqlite_load_unfinished(store *base, void (*fn)(void *ctx, store_game *g), void *ctx,
                                  char *err, size_t errsize)
{
    sqlite_store *s = (sqlite_store *)base;
    int n = 0, rc;
    while ((rc = sqlite3_step(s->unfinished)) == SQLITE_ROW) {
        store_game g;
        read_row(s->unfinished, &g);
        fn(ctx, &g);
        free(g.pdn);
        n++;
    }
    sqlite3_reset(s->unfinished);
    if (rc != SQLITE_DONE) {
        set_err(err, errsize, "load games", s->db);
        return -1;
    }
    return n;
}

static int sqlite_load_game(store *base, const char *id, store_game *g, char *err,
                            size_t errsize)
{
    sqlite_store *s = (sqlite_store *)base;
    sqlite3_bind_text(s->one, 1, id, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s->one), found = 0;
    if (rc == SQLITE_ROW) {
        read_row(s->one, g);
        found = 1;
    } else if (rc != SQLITE_DONE) {
        set_err(err, errsize, "load game", s->db);
        found = -1;
    }
    sqlite3_reset(s->one);
    sqlite3_clear_bindings(s->one);
    return found;
}

static int sqlite_find_invite(store *base, const char *code, char *id, size_t idsize, char *err,
                              size_t errsize)
{
    sqlite_store *s = (sqlite_store *)base;
    sqlite3_bind_text(s->invite, 1, code, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s->invite), found = rc == SQLITE_ROW;
    if (found)
        snprintf(id, idsize, "%s", (const char *)sqlite3_column_text(s->invite, 0));
    else if (rc != SQLITE_DONE)
        set_err(err, errsize, "find invite", s->db);
    sqlite3_reset(s->invite);
    sqlite3_clear_bindings(s->invite);
    return found ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

static int sqlite_move_count(store *base, const char *id)
{
    sqlite_store *s = (sqlite_store *)base;
    sqlite3_bind_text(s->count, 1, id, -1, SQLITE_TRANSIENT);
    int n = sqlite3_step(s->count) == SQLITE_ROW ? sqlite3_column_int(s->count, 0) : -1;
    sqlite3_reset(s->count);
    sqlite3_clear_bindings(s->count);
    return n;
}

/* ---- leases ------------------------------------------------------------- */

/* Steps st to its end, calling fn (may be NULL) with the first column of
 * each row; the rows, or -1 with err.  st is reset and unbound. */
static int each_row(sqlite_store *s, sqlite3_stmt *st, void (*fn)(void *ctx, const char *text),
                    void *ctx, const char *what, char *err, size_t errsize)
{
    int n = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(st, 0);
        if (fn)
            fn(ctx, t ? (const char *)t : "");
        n++;
    }
    if (rc != SQLITE_DONE) {
        set_err(err, errsize, what, s->db);
        n = -1;
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return n;
}

struct holder_text {
    char *text;
    size_t size;
};

static void copy_holder(void *ctx, const char *node)
{
    struct holder_text *h = ctx;
    if (h->text && h->size)
        snprintf(h->text, h->size, "%s", node);
}

static int sqlite_lease_take(store *base, const char *id, char *holder, size_t holdersize,
                             char *err, size_t errsize)
{
    sqlite_store *s = (sqlite_store *)base;
    const char *what = "take lease";
    sqlite3_bind_text(s->lease_take, 1, id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s->lease_take, 2, s->base.node, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(s->lease_take, 3, s->base.lease_ms);
    int taken = each_row(s, s->lease_take, NULL, NULL, what, err, errsize);
    if (taken != 0)
        return taken < 0 ? -1 : 1;
    struct holder_text h = {holder, holdersize};
    sqlite3_bind_text(s->lease_holder, 1, id, -1, SQLITE_TRANSIENT);
    int games = each_row(s, s->lease_holder, copy_holder, &h, what, err, errsize);
    if (games == 0)
        snprintf(err, errsize, "database: %s: no game '%s'", what, id);
    return games > 0 ? 0 : -1;
}

static int sqlite_lease_renew(store *base, void (*held)(void *ctx, const char *id), void *ctx,
                              char *err, size_t errsize)
{
    sqlite_store *s = (sqlite_store *)base;
    sqlite3_bind_text(s->lease_renew, 1, s->base.node, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(s->lease_renew, 2, s->base.lease_ms);
    return each_row(s, s->lease_renew, held, ctx, "renew leases", err, errsize);
}

static int sqlite_lease_release(store *base, const char *id, char *err, size_t errsize)
{
    sqlite_store *s = (sqlite_store *)base;
    sqlite3_stmt *st = id ? s->lease_release : s->lease_release_all;
    sqlite3_bind_text(st, 1, id ? id : s->base.node, -1, SQLITE_TRANSIENT);
    if (id)
        sqlite3_bind_text(st, 2, s->base.node, -1, SQLITE_TRANSIENT);
    return each_row(s, st, NULL, NULL, "release lease", err, errsize) < 0 ? -1 : 0;
}

static int sqlite_lease_takeable(store *base, int max, void (*fn)(void *ctx, const char *id),
                                 void *ctx, char *err, size_t errsize)
{
    sqlite_store *s = (sqlite_store *)base;
    sqlite3_bind_int(s->lease_takeable, 1, max > 0 ? max : -1); /* LIMIT -1: no limit */
    return each_row(s, s->lease_takeable, fn, ctx, "takeable games", err, errsize);
}

static const store_backend SQLITE_BACKEND = {
    .kind = "sqlite",
    .close = sqlite_close,
    .ping = sqlite_ping,
    .create_game = sqlite_create_game,
    .append_move = sqlite_append_move,
    .save_game = sqlite_save_game,
    .load_unfinished = sqlite_load_unfinished,
    .load_game = sqlite_load_game,
    .move_count = sqlite_move_count,
    .find_invite = sqlite_find_invite,
    .lease_take = sqlite_lease_take,
    .lease_renew = sqlite_lease_renew,
    .lease_release = sqlite_lease_release,
    .lease_takeable = sqlite_lease_takeable,
};
