/* SPDX-License-Identifier: MIT */
/*
 * probe.c - the tables as the search reads them: each file mapped on its
 * first probe, its blocks inflated into a small cache allocated once.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "egdb/egdb.h"
#include "rules/variant.h"

/* Blocks kept inflated (EGDB_CACHE_SLOTS, egdb.h), in sets of two: a
 * block read replaces the one of its set used less lately.  A search that
 * enters the tables touches a few thousand blocks again and again; 1024
 * slots, one a set, left a Russian middle game's search a fifth of its
 * time inflating (zlib).  Each slot's values take EGDB_BLOCK_MAX bytes of
 * address space, of which a block of 4096 values touches one page: 16 MB
 * resident at most. */
#define CACHE_WAYS 2
#define SIG_DIM (DM_EGDB_MAX_PIECES + 1)

enum table_state { TABLE_UNTRIED, TABLE_MISSING, TABLE_OPEN, TABLE_REFUSED };

struct probe_table {
    uint8_t state;
    struct egdb_index ix;
    struct egdb_file file;
};

struct cache_slot {
    const struct probe_table *table; /* NULL: empty */
    uint32_t block;
    uint32_t used; /* the db's lookups when it was last used */
};

struct dm_egdb {
    const struct dm_variant *v;
    char root[512];
    int pieces; /* the most pieces of a table file found */
    bool mirrors; /* a missing table is read through its mirror's (egdb_mirrors) */
    pthread_mutex_t lock;
    struct probe_table tables[SIG_DIM][SIG_DIM][SIG_DIM][SIG_DIM];
    struct cache_slot *cache; /* EGDB_CACHE_SLOTS */
    uint8_t *values;          /* EGDB_CACHE_SLOTS blocks, page-aligned */
    uint32_t lookups;         /* cache lookups so far: the slots' clock */
    struct egdb_inflater *inflater;
    char error[200];
};

int dm_egdb_default_root(char *buf, size_t size, dm_error *err)
{
    const char *env = getenv("DAMIER_EGDB_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int n;
    if (env && *env)
        n = snprintf(buf, size, "%s", env);
    else if (xdg && *xdg)
        n = snprintf(buf, size, "%s/damier/egdb", xdg);
    else if (home && *home)
        n = snprintf(buf, size, "%s/.cache/damier/egdb", home);
    else {
        snprintf(err->msg, sizeof err->msg,
                 "no folder for the endgame tables: set DAMIER_EGDB_DIR or HOME");
        return -1;
    }
    if (n < 0 || (size_t)n >= size) {
        snprintf(err->msg, sizeof err->msg, "the endgame tables' folder name is too long");
        return -1;
    }
    return 0;
}

/* The values of a cache slot's block. */
static uint8_t *block_values(dm_egdb *db, const struct cache_slot *slot)
{
    return db->values + (size_t)(slot - db->cache) * EGDB_BLOCK_MAX;
}

static struct probe_table *table_of(dm_egdb *db, const struct egdb_sig *s)
{
    return &db->tables[s->men[0]][s->kings[0]][s->men[1]][s->kings[1]];
}

dm_egdb *dm_egdb_open(const dm_variant *v, const char *root, dm_error *err)
{
    if (!dm_egdb_supported(v, err))
        return NULL;
    dm_egdb *db = calloc(1, sizeof *db);
    if (db) {
        db->cache = calloc(EGDB_CACHE_SLOTS, sizeof *db->cache);
        db->values = aligned_alloc(4096, (size_t)EGDB_CACHE_SLOTS * EGDB_BLOCK_MAX);
        db->inflater = egdb_inflater_new();
    }
    if (!db || !db->cache || !db->values || !db->inflater) {
        if (db) {
            free(db->cache);
            free(db->values);
            egdb_inflater_free(db->inflater);
        }
        free(db);
        snprintf(err->msg, sizeof err->msg, "out of memory for the endgame tables");
        return NULL;
    }
    db->v = v;
    db->mirrors = egdb_mirrors(v);
    if (root)
        snprintf(db->root, sizeof db->root, "%s", root);
    else if (dm_egdb_default_root(db->root, sizeof db->root, err) != 0)
        db->root[0] = 0; /* no folder: no tables */
    pthread_mutex_init(&db->lock, NULL);
    /* Which tables there are, from the files alone; each opens when it is
     * first probed. */
    struct egdb_sig sigs[512];
    int n = egdb_signatures(v, DM_EGDB_MAX_PIECES, sigs, 512);
    for (int k = 0; k < n && k < 512 && db->root[0]; k++) {
        char path[700];
        struct stat st;
        struct probe_table *t = table_of(db, &sigs[k]);
        if (egdb_table_path(db->root, v, &sigs[k], path, sizeof path) != 0 ||
            stat(path, &st) != 0) {
            t->state = TABLE_MISSING;
            continue;
        }
        if (egdb_sig_pieces(&sigs[k]) > db->pieces)
            db->pieces = egdb_sig_pieces(&sigs[k]);
    }
    return db;
}

void dm_egdb_close(dm_egdb *db)
{
    if (!db)
        return;
    for (int a = 0; a < SIG_DIM; a++)
        for (int b = 0; b < SIG_DIM; b++)
            for (int c = 0; c < SIG_DIM; c++)
                for (int d = 0; d < SIG_DIM; d++)
                    if (db->tables[a][b][c][d].state == TABLE_OPEN)
                        egdb_close_file(&db->tables[a][b][c][d].file);
    pthread_mutex_destroy(&db->lock);
    free(db->cache);
    free(db->values);
    egdb_inflater_free(db->inflater);
    free(db);
}

int dm_egdb_pieces(const dm_egdb *db)
{
    return db ? db->pieces : 0;
}

const char *dm_egdb_error(const dm_egdb *db)
{
    return db->error;
}

static void open_table(dm_egdb *db, struct probe_table *t, const struct egdb_sig *s)
{
    char path[700];
    dm_error err = {{0}};
    t->state = TABLE_MISSING;
    if (egdb_table_path(db->root, db->v, s, path, sizeof path) != 0)
        return;
    int rc = egdb_open_file(&t->file, path, db->v, s, EGDB_CHECK_BLOCKS, &err);
    if (rc == 0 && egdb_index_init(&t->ix, db->v, *s)) {
        t->state = TABLE_OPEN;
    } else if (rc < 0) {
        t->state = TABLE_REFUSED;
        snprintf(db->error, sizeof db->error, "%s", err.msg);
    }
}

/* The stored byte at i of t, through the cache; -1 if its block is bad. */
static int stored(dm_egdb *db, struct probe_table *t, uint64_t i)
{
    uint32_t block = (uint32_t)(i >> t->file.h.block_shift);
    uint64_t h = ((uint64_t)(uintptr_t)t >> 4) * 0x9E3779B97F4A7C15ull ^ block * 0xBF58476D1CE4E5B9ull;
    size_t set = (size_t)(h >> 32) % (EGDB_CACHE_SLOTS / CACHE_WAYS) * CACHE_WAYS;
    struct cache_slot *c = &db->cache[set], *slot = NULL, *oldest = c;
    for (int w = 0; w < CACHE_WAYS && !slot; w++) {
        if (c[w].table == t && c[w].block == block)
            slot = &c[w];
        else if (c[w].used < oldest->used)
            oldest = &c[w];
    }
    if (!slot) {
        dm_error err = {{0}};
        slot = oldest;
        slot->table = NULL;
        if (egdb_read_block(&t->file, block, db->inflater, block_values(db, slot), &err) < 0) {
            snprintf(db->error, sizeof db->error, "%s", err.msg);
            egdb_close_file(&t->file);
            t->state = TABLE_REFUSED;
            return -1;
        }
        slot->table = t;
        slot->block = block;
    }
    slot->used = ++db->lookups;
    return block_values(db, slot)[i & (t->file.h.block_size - 1)];
}

int dm_egdb_probe(dm_egdb *db, const dm_position *pos, dm_egdb_value *out)
{
    int ncells = db->v->geo->ncells;
    dm_bits all = ncells >= 128 ? ~(dm_bits)0 : (((dm_bits)1 << ncells) - 1);
    if ((pos->white & pos->black) || ((pos->white | pos->black) & ~all) ||
        (pos->kings & ~(pos->white | pos->black)) || pos->side > 1)
        return -1;
    struct egdb_sig s = egdb_sig_of(pos);
    int pieces = egdb_sig_pieces(&s);
    if (pieces > db->pieces || pieces > DM_EGDB_MAX_PIECES || !(s.men[0] + s.kings[0]) ||
        !(s.men[1] + s.kings[1]))
        return 0;
    struct probe_table *t = table_of(db, &s);
    dm_position mirrored;
    if (t->state == TABLE_MISSING && db->mirrors) {
        s = egdb_sig_mirror(&s);
        t = table_of(db, &s);
        egdb_position_mirror(db->v, pos, &mirrored);
        pos = &mirrored;
    }
    if (t->state == TABLE_MISSING || t->state == TABLE_REFUSED)
        return 0;
    pthread_mutex_lock(&db->lock);
    if (t->state == TABLE_UNTRIED)
        open_table(db, t, &s);
    int b = -1;
    if (t->state == TABLE_OPEN) {
        int64_t i = egdb_index_of(&t->ix, pos);
        if (i >= 0)
            b = stored(db, t, (uint64_t)i);
    }
    pthread_mutex_unlock(&db->lock);
    if (b < 0 || b == EGDB_NOT_STORED)
        return 0;
    *out = egdb_value_of((uint8_t)b);
    return 1;
}

int dm_egdb_list(const dm_variant *v, const char *root,
                 void (*each)(void *ctx, const dm_egdb_table_info *info), void *ctx)
{
    char rootbuf[512];
    dm_error err = {{0}};
    if (!root) {
        if (dm_egdb_default_root(rootbuf, sizeof rootbuf, &err) != 0)
            return 0;
        root = rootbuf;
    }
    struct egdb_sig sigs[512];
    int n = egdb_signatures(v, DM_EGDB_MAX_PIECES, sigs, 512), found = 0;
    bool mirrors = egdb_mirrors(v);
    for (int k = 0; k < n && k < 512; k++) {
        dm_egdb_table_info info;
        memset(&info, 0, sizeof info);
        egdb_sig_name(&sigs[k], info.name, sizeof info.name);
        struct stat st;
        if (egdb_table_path(root, v, &sigs[k], info.path, sizeof info.path) != 0 ||
            stat(info.path, &st) != 0)
            continue;
        found++;
        /* The mirrored signature it answers for, unless that one has a
         * file of its own (a folder built before) or is this one. */
        struct egdb_sig m = egdb_sig_mirror(&sigs[k]);
        char mpath[512];
        struct stat mst;
        if (mirrors && !egdb_sig_equal(&m, &sigs[k]) &&
            (egdb_table_path(root, v, &m, mpath, sizeof mpath) != 0 || stat(mpath, &mst) != 0))
            egdb_sig_name(&m, info.mirror, sizeof info.mirror);
        info.file_bytes = (uint64_t)st.st_size;
        struct egdb_file f;
        if (egdb_open_file(&f, info.path, v, &sigs[k], EGDB_CHECK_ALL, &err) == 0) {
            info.ok = true;
            info.positions = f.h.positions;
            info.wins = f.h.wins;
            info.draws = f.h.draws;
            info.losses = f.h.losses;
            info.not_stored = f.h.not_stored;
            egdb_close_file(&f);
        } else {
            snprintf(info.error, sizeof info.error, "%s", err.msg);
        }
        each(ctx, &info);
    }
    return found;
}
