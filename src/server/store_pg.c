/* SPDX-License-Identifier: MIT */
/*
 * store_pg.c - store.h on PostgreSQL through libpq: the database that
 * several server processes can share (docs/deploy.md).
 *
 * The same two tables as SQLite (games, moves), made by store.c's
 * migrations, which store_open applies in one transaction under an
 * advisory lock, so servers started together never apply a step twice.
 * Every write is one transaction, and returns 0 only once COMMIT has
 * answered: with PostgreSQL's default synchronous_commit the act is then
 * on the database's disk.  Every value travels as a parameter of a
 * prepared statement, never inside SQL text.
 *
 * The workload is the event loop's: one small transaction per act, on one
 * connection, synchronously.  A connection that broke (the database
 * restarted, an administrator ended it) is reset before the next call; a
 * call whose statements had not yet reached the database (BEGIN failed,
 * or a read) is tried once more on the new connection, while a write that
 * failed midway is reported, never replayed.  Errors name the database
 * without its password.
 */
#include "server/store_backend.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pg_store {
    store base;
    PGconn *conn;
    bool prepared;  /* the statements exist on this connection         */
    char name[256]; /* postgresql://USER@HOST:PORT/DB, for messages     */
} pg_store;

static const store_backend PG_BACKEND;

/* Held while migrating, so that one server at a time upgrades the schema
 * ("Dami" in ASCII: any constant the database's other users leave alone). */
#define PG_MIGRATION_LOCK "1147235689"

#define COLUMNS                                                                                  \
    "id, opponent, seat_white, seat_black, level, token_white, token_black, invite, joined,"     \
    " clock, draw_offer, takeback, over, seq, pdn"

/* The prepared statements, made on every new connection. */
static const struct {
    const char *name, *sql;
} STATEMENTS[] = {
    {"insert", "INSERT INTO games (" COLUMNS ") VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,"
               "$13,$14,$15)"},
    {"update", "UPDATE games SET opponent=$2, seat_white=$3, seat_black=$4, level=$5,"
               " token_white=$6, token_black=$7, invite=$8, joined=$9, clock=$10, draw_offer=$11,"
               " takeback=$12, over=$13, seq=$14, pdn=$15 WHERE id=$1"},
    {"move", "INSERT INTO moves (game, ply, move, clock_ms) VALUES ($1,$2,$3,$4)"
             " ON CONFLICT (game, ply) DO UPDATE SET move=EXCLUDED.move, clock_ms=EXCLUDED.clock_ms"},
    {"drop_moves", "DELETE FROM moves WHERE game=$1 AND ply>$2"},
    {"unfinished", "SELECT " COLUMNS " FROM games WHERE NOT over ORDER BY rowid"},
    {"one", "SELECT " COLUMNS " FROM games WHERE id=$1"},
    {"count", "SELECT count(*) FROM moves WHERE game=$1"},
    {"invite", "SELECT id FROM games WHERE invite=$1 LIMIT 1"},
    {"ping", "SELECT coalesce(max(version), 0) FROM schema_version"},
    /* Leases ($2 the node, $3 the lease in ms).  The guard locks the row,
     * so a take of the game waits until the write it guards is committed
     * and then sees that the lease is still held, or finds it expired and
     * loads what that write left. */
    {"lease_guard", "SELECT 1 FROM leases WHERE game=$1 AND node=$2 AND expires > now() FOR UPDATE"},
    {"lease_new", "INSERT INTO leases (game, node, expires)"
                  " VALUES ($1, $2, now() + $3::float8 * interval '1 millisecond')"},
    {"lease_take", "INSERT INTO leases (game, node, expires)"
                   " SELECT id, $2, now() + $3::float8 * interval '1 millisecond' FROM games"
                   " WHERE id=$1 ON CONFLICT (game) DO UPDATE SET node=EXCLUDED.node,"
                   " expires=EXCLUDED.expires"
                   " WHERE leases.node=EXCLUDED.node OR leases.expires <= now() RETURNING node"},
    {"lease_holder", "SELECT l.node FROM games g LEFT JOIN leases l ON l.game=g.id WHERE g.id=$1"},
    {"lease_renew", "UPDATE leases SET expires = now() + $2::float8 * interval '1 millisecond'"
                    " WHERE node=$1 AND expires > now() RETURNING game"},
    {"lease_release", "DELETE FROM leases WHERE game=$1 AND node=$2"},
    {"lease_release_all", "DELETE FROM leases WHERE node=$1"},
    {"lease_takeable", "SELECT g.id FROM games g LEFT JOIN leases l ON l.game=g.id"
                       " WHERE NOT g.over AND (l.game IS NULL OR l.expires <= now())"
                       " ORDER BY g.rowid LIMIT $1"},
};

/* ---- messages ----------------------------------------------------------- */

/* libpq's message on one line: its line breaks and tabs as single blanks,
 * without the trailing break. */
static void one_line(char *dst, size_t size, const char *msg)
{
    size_t n = 0;
    bool blank = false;
    for (const char *c = msg ? msg : ""; *c && n + 1 < size; c++) {
        if (*c == '\n' || *c == '\t' || *c == ' ') {
            blank = n > 0;
            continue;
        }
        if (blank && n + 2 < size)
            dst[n++] = ' ';
        blank = false;
        dst[n++] = *c;
    }
    dst[n] = '\0';
}

static void set_err(char *err, size_t size, const pg_store *s, const char *what, const char *msg)
{
    char line[512];
    one_line(line, sizeof line, msg);
    snprintf(err, size, "database %s: %s: %s", s->name, what, line[0] ? line : "failed");
}

static void set_conn_err(char *err, size_t size, const pg_store *s, const char *what)
{
    set_err(err, size, s, what, s->conn ? PQerrorMessage(s->conn) : "out of memory");
}

/* The result's own message, else the connection's (a lost connection). */
static void set_result_err(char *err, size_t size, const pg_store *s, const char *what,
                           const PGresult *r)
{
    const char *msg = r ? PQresultErrorMessage(r) : NULL;
    set_err(err, size, s, what, msg && *msg ? msg : PQerrorMessage(s->conn));
}

/* libpq quotes a URL it cannot read in its message: the password of any
 * USER:PASSWORD@ in text becomes "***". */
static void hide_password(char *text, size_t size)
{
    for (char *scheme = strstr(text, "://"); scheme; scheme = strstr(scheme + 3, "://")) {
        char *user = scheme + 3, *at = strpbrk(user, "@/ \"");
        char *colon = at && *at == '@' ? memchr(user, ':', (size_t)(at - user)) : NULL;
        if (!colon)
            continue;
        char rest[512];
        snprintf(rest, sizeof rest, "%s", at);
        snprintf(colon + 1, size - (size_t)(colon + 1 - text), "***%s", rest);
    }
}

/* s->name from the URL's parts, leaving out the password.  0, or -1 with
 * err for a URL libpq cannot read. */
static int describe(pg_store *s, const char *url, char *err, size_t errsize)
{
    char *perr = NULL;
    PQconninfoOption *opts = PQconninfoParse(url, &perr);
    if (!opts) {
        char line[256];
        one_line(line, sizeof line, perr ? perr : "out of memory");
        hide_password(line, sizeof line);
        snprintf(err, errsize, "database: bad PostgreSQL URL: %s", line);
        PQfreemem(perr);
        return -1;
    }
    const char *user = "", *host = "", *port = "", *db = "";
    for (PQconninfoOption *o = opts; o->keyword; o++) {
        const char *v = o->val ? o->val : "";
        if (strcmp(o->keyword, "user") == 0)
            user = v;
        else if (strcmp(o->keyword, "host") == 0)
            host = v;
        else if (strcmp(o->keyword, "port") == 0)
            port = v;
        else if (strcmp(o->keyword, "dbname") == 0)
            db = v;
    }
    snprintf(s->name, sizeof s->name, "postgresql://%s%s%s%s%s/%s", user, *user ? "@" : "", host,
             *port ? ":" : "", port, db);
    PQconninfoFree(opts);
    return 0;
}

/* CREATE TABLE IF NOT EXISTS and its kind tell of what they skip in
 * notices, which libpq would print on stderr: the server has nothing to
 * learn from them. */
static void ignore_notice(void *arg, const char *msg)
{
    (void)arg;
    (void)msg;
}

/* ---- the connection ----------------------------------------------------- */

static bool prepare_statements(pg_store *s, char *err, size_t errsize)
{
    for (size_t i = 0; i < sizeof STATEMENTS / sizeof STATEMENTS[0]; i++) {
        PGresult *r = PQprepare(s->conn, STATEMENTS[i].name, STATEMENTS[i].sql, 0, NULL);
        bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        if (!ok)
            set_result_err(err, errsize, s, "prepare", r);
        PQclear(r);
        if (!ok)
            return false;
    }
    return true;
}

/* A live connection, in no transaction, its statements prepared: a broken
 * one is reset first.  False with err. */
static bool ready(pg_store *s, char *err, size_t errsize)
{
    if (PQstatus(s->conn) != CONNECTION_OK) {
        s->prepared = false;
        PQreset(s->conn);
        if (PQstatus(s->conn) != CONNECTION_OK) {
            set_conn_err(err, errsize, s, "cannot reconnect");
            return false;
        }
    }
    if (PQtransactionStatus(s->conn) != PQTRANS_IDLE)
        PQclear(PQexec(s->conn, "ROLLBACK"));
    if (!s->prepared)
        s->prepared = prepare_statements(s, err, errsize);
    return s->prepared;
}

/* Runs SQL without parameters; true if its status is want, else err. */
static bool exec(pg_store *s, const char *sql, ExecStatusType want, const char *what, char *err,
                 size_t errsize)
{
    PGresult *r = PQexec(s->conn, sql);
    bool ok = PQresultStatus(r) == want;
    if (!ok)
        set_result_err(err, errsize, s, what, r);
    PQclear(r);
    return ok;
}

/* Runs a prepared statement that returns no rows; the rows it touched,
 * or -1 with err. */
static long run(pg_store *s, const char *stmt, int n, const char *const *values, const char *what,
                char *err, size_t errsize)
{
    PGresult *r = PQexecPrepared(s->conn, stmt, n, values, NULL, NULL, 0);
    long rows = -1;
    if (PQresultStatus(r) == PGRES_COMMAND_OK)
        rows = strtol(PQcmdTuples(r), NULL, 10);
    else
        set_result_err(err, errsize, s, what, r);
    PQclear(r);
    return rows;
}

/* A prepared query's rows, or NULL with err.  A query changes nothing,
 * so one that met a broken connection is tried again on a new one. */
static PGresult *query(pg_store *s, const char *stmt, int n, const char *const *values,
                       const char *what, char *err, size_t errsize)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        if (!ready(s, err, errsize))
            return NULL;
        PGresult *r = PQexecPrepared(s->conn, stmt, n, values, NULL, NULL, 0);
        if (PQresultStatus(r) == PGRES_TUPLES_OK)
            return r;
        set_result_err(err, errsize, s, what, r);
        PQclear(r);
        if (PQstatus(s->conn) == CONNECTION_OK)
            break;
    }
    return NULL;
}

/* Opens a write transaction; as with a query, a BEGIN that met a broken
 * connection is tried once more, since nothing was written yet. */
static bool begin(pg_store *s, const char *what, char *err, size_t errsize)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        if (!ready(s, err, errsize))
            return false;
        if (exec(s, "BEGIN", PGRES_COMMAND_OK, what, err, errsize))
            return true;
        if (PQstatus(s->conn) == CONNECTION_OK)
            break;
    }
    return false;
}

/* Commits when ok (err already says why not), else rolls back; whether
 * the commit held.  COMMIT of a failed transaction answers ROLLBACK, so
 * the answer's tag is read, not only its status. */
static bool end(pg_store *s, bool ok, const char *what, char *err, size_t errsize)
{
    if (ok) {
        PGresult *r = PQexec(s->conn, "COMMIT");
        ok = PQresultStatus(r) == PGRES_COMMAND_OK && strcmp(PQcmdStatus(r), "COMMIT") == 0;
        if (!ok)
            set_result_err(err, errsize, s, what, r);
        PQclear(r);
        return ok;
    }
    if (PQstatus(s->conn) == CONNECTION_OK)
        PQclear(PQexec(s->conn, "ROLLBACK"));
    return false;
}

/* ---- opening: connection, schema, statements ---------------------------- */

/* The schema brought up to date in one transaction.  0, or -1 with err. */
static int migrate(pg_store *s, char *err, size_t errsize)
{
    const char *what = "cannot set up its schema";
    bool ok = exec(s, "BEGIN", PGRES_COMMAND_OK, what, err, errsize) &&
              exec(s, "SELECT pg_advisory_xact_lock(" PG_MIGRATION_LOCK ")", PGRES_TUPLES_OK, what,
                   err, errsize) &&
              exec(s, STORE_SCHEMA_VERSION_PG, PGRES_COMMAND_OK, what, err, errsize);
    int version = 0;
    if (ok) {
        PGresult *r = PQexec(s->conn, "SELECT coalesce(max(version), 0) FROM schema_version");
        ok = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1;
        if (ok)
            version = atoi(PQgetvalue(r, 0, 0));
        else
            set_result_err(err, errsize, s, what, r);
        PQclear(r);
    }
    const int newest = store_migrations[store_migration_count - 1].version;
    if (ok && version > newest) {
        snprintf(err, errsize,
                 "database %s: schema version %d is newer than this program's (%d): run a newer "
                 "damier",
                 s->name, version, newest);
        ok = false;
    }
    for (int i = 0; ok && i < store_migration_count; i++) {
        const store_migration *m = &store_migrations[i];
        if (m->version <= version)
            continue;
        char number[16];
        snprintf(number, sizeof number, "%d", m->version);
        const char *values[] = {number};
        ok = exec(s, m->pg, PGRES_COMMAND_OK, what, err, errsize);
        if (ok) {
            PGresult *r = PQexecParams(s->conn, "INSERT INTO schema_version (version) VALUES ($1)",
                                       1, NULL, values, NULL, NULL, 0);
            ok = PQresultStatus(r) == PGRES_COMMAND_OK;
            if (!ok)
                set_result_err(err, errsize, s, what, r);
            PQclear(r);
        }
    }
    return end(s, ok, what, err, errsize) ? 0 : -1;
}

static void pg_close(store *base)
{
    pg_store *s = (pg_store *)base;
    PQfinish(s->conn);
    free(s);
}

store *store_pg_open(const char *url, char *err, size_t errsize)
{
    pg_store *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    s->base.backend = &PG_BACKEND;
    if (describe(s, url, err, errsize) != 0) {
        free(s);
        return NULL;
    }
    /* Defaults the URL may override (it is expanded in dbname's place, so
     * the keys before it yield to it), except the encoding: the server's
     * text is UTF-8 whatever the database keeps.  The event loop waits for
     * every call, so none may hang: a connection attempt gives up after
     * 10 s, a statement (a lock waited for among them) after 10 s, and a
     * database host gone silent is noticed within about 10 s whether data
     * is unacknowledged (tcp_user_timeout) or an answer is awaited (TCP
     * keepalives: 5 s idle, 3 probes 2 s apart). */
    static const char *const keys[] = {"connect_timeout",  "application_name",
                                       "options",          "tcp_user_timeout",
                                       "keepalives_idle",  "keepalives_interval",
                                       "keepalives_count", "dbname",
                                       "client_encoding",  NULL};
    const char *values[] = {"10", "damier", "-c statement_timeout=10000", "10000", "5", "2", "3",
                            url,  "UTF8",   NULL};
    s->conn = PQconnectdbParams(keys, values, 1);
    if (PQstatus(s->conn) != CONNECTION_OK) {
        set_conn_err(err, errsize, s, "cannot connect");
        pg_close(&s->base);
        return NULL;
    }
    PQsetNoticeProcessor(s->conn, ignore_notice, NULL);
    if (migrate(s, err, errsize) != 0 || !ready(s, err, errsize)) {
        pg_close(&s->base);
        return NULL;
    }
    return &s->base;
}

/* ---- the calls ---------------------------------------------------------- */

static int pg_ping(store *base, char *err, size_t errsize)
{
    pg_store *s = (pg_store *)base;
    PGresult *r = query(s, "ping", 0, NULL, "ping", err, errsize);
    PQclear(r);
    return r ? 0 : -1;
}

/* g as the 15 parameters of insert and update, the numbers written into
 * text, which values points into. */
typedef struct game_params {
    char numbers[10][24];
    const char *values[15];
} game_params;

static void game_values(game_params *p, const store_game *g)
{
    const long long numbers[] = {g->opponent,   g->seat[0], g->seat[1], g->level,
                                 g->draw_offer, g->takeback, (long long)g->seq};
    for (int i = 0; i < 7; i++)
        snprintf(p->numbers[i], sizeof p->numbers[i], "%lld", numbers[i]);
    const char *const v[15] = {g->id,           p->numbers[0], p->numbers[1], p->numbers[2],
                               p->numbers[3],   g->token[0],   g->token[1],   g->invite,
                               g->joined ? "true" : "false", g->clock, p->numbers[4],
                               p->numbers[5],   g->over ? "true" : "false", p->numbers[6],
                               g->pdn ? g->pdn : ""};
    memcpy(p->values, v, sizeof v);
}

/* Runs update for g inside a transaction: true if g's row was there. */
static bool update(pg_store *s, const store_game *g, const char *what, char *err,
                   size_t errsize)
{
    game_params p;
    game_values(&p, g);
    long rows = run(s, "update", 15, p.values, what, err, errsize);
    if (rows == 0)
        snprintf(err, errsize, "database %s: %s: no game '%s'", s->name, what, g->id);
    return rows == 1;
}

/* Inside a write transaction of a node's store: whether this node holds
 * the lease of id, its row locked until the transaction ends.  A store of
 * no node holds every game.  False with err, *lost set when the database
 * answered that the lease is not held. */
static bool guard(pg_store *s, const char *id, const char *what, bool *lost, char *err,
                  size_t errsize)
{
    *lost = false;
    if (!s->base.node[0])
        return true;
    const char *values[] = {id, s->base.node};
    PGresult *r = PQexecPrepared(s->conn, "lease_guard", 2, values, NULL, NULL, 0);
    bool ok = PQresultStatus(r) == PGRES_TUPLES_OK;
    if (!ok)
        set_result_err(err, errsize, s, what, r);
    else if (PQntuples(r) == 0) {
        snprintf(err, errsize, "database %s: %s: node %s does not hold the lease of game '%s'",
                 s->name, what, s->base.node, id);
        *lost = true;
        ok = false;
    }
    PQclear(r);
    return ok;
}

/* The lease in ms as a statement's parameter. */
static void lease_text(const pg_store *s, char *text, size_t size)
{
    snprintf(text, size, "%d", s->base.lease_ms);
}

static int pg_create_game(store *base, const store_game *g, char *err, size_t errsize)
{
    pg_store *s = (pg_store *)base;
    game_params p;
    game_values(&p, g);
    char ms[16];
    lease_text(s, ms, sizeof ms);
    const char *lease[] = {g->id, s->base.node, ms};
    const char *what = "create game";
    bool ok = begin(s, what, err, errsize) &&
              run(s, "insert", 15, p.values, what, err, errsize) == 1 &&
              (!s->base.node[0] || run(s, "lease_new", 3, lease, what, err, errsize) == 1);
    return end(s, ok, what, err, errsize) ? 0 : -1;
}

static int pg_append_move(store *base, const store_game *g, int ply, const char *move,
                          int64_t clock_ms, char *err, size_t errsize)
{
    pg_store *s = (pg_store *)base;
    char ply_text[16], clock_text[24];
    snprintf(ply_text, sizeof ply_text, "%d", ply);
    snprintf(clock_text, sizeof clock_text, "%lld", (long long)clock_ms);
    const char *values[] = {g->id, ply_text, move, clock_ms >= 0 ? clock_text : NULL};
    const char *what = "record move";
    bool lost = false;
    /* The game first: a move of no game is refused by its own message
     * rather than by the foreign key's. */
    bool ok = begin(s, what, err, errsize) && guard(s, g->id, what, &lost, err, errsize) &&
              update(s, g, what, err, errsize) &&
              run(s, "move", 4, values, what, err, errsize) == 1;
    return end(s, ok, what, err, errsize) ? 0 : lost ? STORE_NOT_HOLDER : -1;
}

static int pg_save_game(store *base, const store_game *g, int keep_plies, char *err,
                        size_t errsize)
{
    pg_store *s = (pg_store *)base;
    char keep_text[16];
    snprintf(keep_text, sizeof keep_text, "%d", keep_plies);
    const char *values[] = {g->id, keep_text};
    const char *what = "save game";
    bool lost = false;
    bool ok = begin(s, what, err, errsize) && guard(s, g->id, what, &lost, err, errsize) &&
              (keep_plies < 0 || run(s, "drop_moves", 2, values, what, err, errsize) >= 0) &&
              update(s, g, what, err, errsize);
    return end(s, ok, what, err, errsize) ? 0 : lost ? STORE_NOT_HOLDER : -1;
}

static void copy_text(char *dst, size_t size, const PGresult *r, int row, int col)
{
    snprintf(dst, size, "%s", PQgetvalue(r, row, col));
}

/* Row row of r into *g, its pdn malloc'ed (NULL when memory ran out). */
static void read_row(const PGresult *r, int row, store_game *g)
{
    memset(g, 0, sizeof *g);
    copy_text(g->id, sizeof g->id, r, row, 0);
    g->opponent = (enum store_opponent)atoi(PQgetvalue(r, row, 1));
    g->seat[0] = atoi(PQgetvalue(r, row, 2));
    g->seat[1] = atoi(PQgetvalue(r, row, 3));
    g->level = atoi(PQgetvalue(r, row, 4));
    copy_text(g->token[0], sizeof g->token[0], r, row, 5);
    copy_text(g->token[1], sizeof g->token[1], r, row, 6);
    copy_text(g->invite, sizeof g->invite, r, row, 7);
    g->joined = PQgetvalue(r, row, 8)[0] == 't';
    copy_text(g->clock, sizeof g->clock, r, row, 9);
    g->draw_offer = atoi(PQgetvalue(r, row, 10));
    g->takeback = atoi(PQgetvalue(r, row, 11));
    g->over = PQgetvalue(r, row, 12)[0] == 't';
    g->seq = strtoull(PQgetvalue(r, row, 13), NULL, 10);
    g->pdn = strdup(PQgetvalue(r, row, 14));
}

static int pg_load_unfinished(store *base, void (*fn)(void *ctx, store_game *g), void *ctx,
                              char *err, size_t errsize)
{
    pg_store *s = (pg_store *)base;
    PGresult *r = query(s, "unfinished", 0, NULL, "load games", err, errsize);
    if (!r)
        return -1;
    int n = PQntuples(r);
    for (int i = 0; i < n; i++) {
        store_game g;
        read_row(r, i, &g);
        fn(ctx, &g);
        free(g.pdn);
    }
    PQclear(r);
    return n;
}

static int pg_load_game(store *base, const char *id, store_game *g, char *err, size_t errsize)
{
    pg_store *s = (pg_store *)base;
    const char *values[] = {id};
    PGresult *r = query(s, "one", 1, values, "load game", err, errsize);
    if (!r)
        return -1;
    int found = PQntuples(r) > 0;
    if (found)
        read_row(r, 0, g);
    PQclear(r);
    return found;
}

static int pg_find_invite(store *base, const char *code, char *id, size_t idsize, char *err,
                          size_t errsize)
{
    pg_store *s = (pg_store *)base;
    const char *values[] = {code};
    PGresult *r = query(s, "invite", 1, values, "find invite", err, errsize);
    if (!r)
        return -1;
    int found = PQntuples(r) == 1;
    if (found)
        snprintf(id, idsize, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    return found;
}

static int pg_move_count(store *base, const char *id)
{
    pg_store *s = (pg_store *)base;
    const char *values[] = {id};
    char err[256];
    PGresult *r = query(s, "count", 1, values, "count moves", err, sizeof err);
    int n = r && PQntuples(r) == 1 ? atoi(PQgetvalue(r, 0, 0)) : -1;
    PQclear(r);
    return n;
}

/* ---- leases ------------------------------------------------------------- */

/* One statement each, so a take or a renewal that met a broken
 * connection is tried again on a new one (query): taking a lease twice
 * for the same node is taking it once. */
static int pg_lease_take(store *base, const char *id, char *holder, size_t holdersize, char *err,
                         size_t errsize)
{
    pg_store *s = (pg_store *)base;
    char ms[16];
    lease_text(s, ms, sizeof ms);
    const char *values[] = {id, s->base.node, ms};
    PGresult *r = query(s, "lease_take", 3, values, "take lease", err, errsize);
    if (!r)
        return -1;
    int taken = PQntuples(r) == 1;
    PQclear(r);
    if (taken)
        return 1;
    /* Not taken: another node holds it, or there is no such game. */
    r = query(s, "lease_holder", 1, values, "take lease", err, errsize);
    if (!r)
        return -1;
    int rc = 0;
    if (PQntuples(r) == 0) {
        snprintf(err, errsize, "database %s: take lease: no game '%s'", s->name, id);
        rc = -1;
    } else if (holder && holdersize) {
        snprintf(holder, holdersize, "%s", PQgetvalue(r, 0, 0));
    }
    PQclear(r);
    return rc;
}

static int pg_lease_renew(store *base, void (*held)(void *ctx, const char *id), void *ctx,
                          char *err, size_t errsize)
{
    pg_store *s = (pg_store *)base;
    char ms[16];
    lease_text(s, ms, sizeof ms);
    const char *values[] = {s->base.node, ms};
    PGresult *r = query(s, "lease_renew", 2, values, "renew leases", err, errsize);
    if (!r)
        return -1;
    int n = PQntuples(r);
    for (int i = 0; held && i < n; i++)
        held(ctx, PQgetvalue(r, i, 0));
    PQclear(r);
    return n;
}

static int pg_lease_release(store *base, const char *id, char *err, size_t errsize)
{
    pg_store *s = (pg_store *)base;
    const char *values[] = {id ? id : s->base.node, s->base.node};
    const char *what = "release lease";
    bool ok = ready(s, err, errsize) &&
              run(s, id ? "lease_release" : "lease_release_all", id ? 2 : 1, values, what, err,
                  errsize) >= 0;
    return ok ? 0 : -1;
}

static int pg_lease_takeable(store *base, int max, void (*fn)(void *ctx, const char *id),
                             void *ctx, char *err, size_t errsize)
{
    pg_store *s = (pg_store *)base;
    char limit[16];
    snprintf(limit, sizeof limit, "%d", max);
    const char *values[] = {max > 0 ? limit : NULL};
    PGresult *r = query(s, "lease_takeable", 1, values, "takeable games", err, errsize);
    if (!r)
        return -1;
    int n = PQntuples(r);
    for (int i = 0; i < n; i++)
        fn(ctx, PQgetvalue(r, i, 0));
    PQclear(r);
    return n;
}

static const store_backend PG_BACKEND = {
    .kind = "postgresql",
    .close = pg_close,
    .ping = pg_ping,
    .create_game = pg_create_game,
    .append_move = pg_append_move,
    .save_game = pg_save_game,
    .load_unfinished = pg_load_unfinished,
    .load_game = pg_load_game,
    .move_count = pg_move_count,
    .find_invite = pg_find_invite,
    .lease_take = pg_lease_take,
    .lease_renew = pg_lease_renew,
    .lease_release = pg_lease_release,
    .lease_takeable = pg_lease_takeable,
};
