/* SPDX-License-Identifier: MIT */
/*
 * test_egdb.c - the endgame tables: the index (every position of a small
 * signature found once, at its own index), values known by hand or from the
 * literature, every stored value checked against its successors, and
 * damaged files refused.
 */
#include "testutil.h"

#include <sys/stat.h>
#include <unistd.h>

#include "damier/egdb.h"
#include "egdb/egdb.h"
#include "rules/variant.h"

static char root[256];

static void remove_tree(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static int setup_root(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "%s/damier-egdb-XXXXXX", tu_env("TMPDIR", "/tmp"));
    assert_non_null(mkdtemp(root));
    return 0;
}

static int teardown_root(void **state)
{
    (void)state;
    remove_tree(root);
    return 0;
}

/* ---- the index ---------------------------------------------------------- */

/* Places the remaining pieces (kind k of 4: white men, black men, white
 * kings, black kings), each kind in increasing cells, counting the legal
 * placements and checking each against the index. */
struct walk {
    const struct egdb_index *ix;
    uint8_t *seen;
    uint64_t found;
    int need[4];
};

static void check_position(struct walk *w, const dm_position *pos)
{
    int64_t i = egdb_index_of(w->ix, pos);
    assert_true(i >= 0);
    assert_true((uint64_t)i < w->ix->size);
    assert_int_equal(w->seen[i], 0);
    w->seen[i] = 1;
    dm_position back;
    assert_true(egdb_position_at(w->ix, (uint64_t)i, &back));
    assert_true(back.white == pos->white && back.black == pos->black &&
                back.kings == pos->kings && back.side == pos->side);
    w->found++;
}

static void place(struct walk *w, dm_position *pos, int kind, int left, int from)
{
    if (kind == 4) {
        for (int side = 0; side < 2; side++) {
            pos->side = (uint8_t)side;
            check_position(w, pos);
        }
        return;
    }
    if (left == 0) {
        int next = kind + 1;
        place(w, pos, next, next < 4 ? w->need[next] : 0, 0);
        return;
    }
    const struct dm_variant *v = w->ix->v;
    int color = kind & 1;
    bool king = kind >= 2;
    for (int cell = from; cell < v->geo->ncells; cell++) {
        dm_bits bit = (dm_bits)1 << cell;
        if ((pos->white | pos->black) & bit)
            continue;
        if (!king && (v->promo_bb[color] & bit))
            continue;
        if (color == DM_WHITE)
            pos->white |= bit;
        else
            pos->black |= bit;
        if (king)
            pos->kings |= bit;
        place(w, pos, kind, left - 1, cell + 1);
        pos->white &= ~bit;
        pos->black &= ~bit;
        pos->kings &= ~bit;
    }
}

static void round_trip(const char *id, int pieces)
{
    const struct dm_variant *v = dm_variant_by_id(id);
    assert_non_null(v);
    struct egdb_sig sigs[128];
    int n = egdb_signatures(v, pieces, sigs, 128);
    assert_true(n > 0 && n <= 128);
    for (int k = 0; k < n; k++) {
        struct egdb_index ix;
        assert_true(egdb_index_init(&ix, v, sigs[k]));
        struct walk w = {.ix = &ix,
                         .need = {sigs[k].men[0], sigs[k].men[1], sigs[k].kings[0],
                                  sigs[k].kings[1]}};
        w.seen = calloc(ix.size, 1);
        assert_non_null(w.seen);
        dm_position pos;
        memset(&pos, 0, sizeof pos);
        pos.king_cell[0] = pos.king_cell[1] = DM_NO_CELL;
        place(&w, &pos, 0, w.need[0], 0);
        /* Every index that is not a hole is a position the walk found. */
        uint64_t valid = 0;
        for (uint64_t i = 0; i < ix.size; i++) {
            dm_position p;
            if (egdb_position_at(&ix, i, &p)) {
                valid++;
                assert_int_equal(w.seen[i], 1);
            }
        }
        assert_int_equal(valid, w.found);
        free(w.seen);
    }
}

static void test_index_round_trip(void **state)
{
    (void)state;
    round_trip("english", 3);
    round_trip("italian", 3);
    round_trip("international", 3);
    round_trip("turkish", 2);
    round_trip("breakthrough", 3);
}

static void test_index_sizes(void **state)
{
    (void)state;
    const struct dm_variant *en = dm_variant_by_id("english");
    const struct dm_variant *in = dm_variant_by_id("international");
    struct egdb_index ix;
    /* 32 cells, 28 for a man of each colour (not its crowning row). */
    assert_true(egdb_index_init(&ix, en, (struct egdb_sig){{0, 0}, {1, 1}}));
    assert_int_equal(ix.size, 2 * 32 * 31);
    assert_true(egdb_index_init(&ix, en, (struct egdb_sig){{0, 0}, {2, 1}}));
    assert_int_equal(ix.size, 2 * 496 * 30); /* C(32,2) x 30 */
    assert_true(egdb_index_init(&ix, en, (struct egdb_sig){{1, 1}, {0, 0}}));
    assert_int_equal(ix.size, 2 * 28 * 28);
    assert_true(egdb_index_init(&ix, en, (struct egdb_sig){{2, 1}, {1, 0}}));
    assert_int_equal(ix.size, 2 * 378 * 28 * 29); /* C(28,2) x 28 x 29 */
    /* 50 cells, 45 for a man. */
    assert_true(egdb_index_init(&ix, in, (struct egdb_sig){{1, 0}, {0, 2}}));
    assert_int_equal(ix.size, 2 * 45 * 1176); /* C(49,2) */
    char name[32];
    egdb_sig_name(&(struct egdb_sig){{2, 0}, {1, 1}}, name, sizeof name);
    assert_string_equal(name, "2m1k-1k");
    /* Build order: fewer pieces, then fewer men. */
    struct egdb_sig sigs[64];
    int n = egdb_signatures(en, 3, sigs, 64);
    assert_int_equal(n, 4 + 12);
    for (int k = 1; k < n; k++) {
        int a = egdb_sig_pieces(&sigs[k - 1]), b = egdb_sig_pieces(&sigs[k]);
        assert_true(a < b || (a == b && sigs[k - 1].men[0] + sigs[k - 1].men[1] <=
                                            sigs[k].men[0] + sigs[k].men[1]));
    }
    /* Breakthrough: a king ends the game, so no table has one. */
    n = egdb_signatures(dm_variant_by_id("breakthrough"), 4, sigs, 64);
    for (int k = 0; k < n; k++)
        assert_int_equal(sigs[k].kings[0] + sigs[k].kings[1], 0);
}

/* ---- values ------------------------------------------------------------- */

static void build(const char *id, int pieces)
{
    dm_error err;
    int rc = dm_egdb_build(dm_variant_by_id(id), root, pieces, 0, NULL, NULL, &err);
    if (rc != 0)
        fail_msg("build %s: %s", id, err.msg);
}

/* The value of fen: 'W', 'D', 'L' or '?' (not answered), plies in *plies. */
static char probe(const char *id, const char *fen, int *plies)
{
    const dm_variant *v = dm_variant_by_id(id);
    dm_error err;
    dm_position pos;
    if (dm_fen_parse(v, fen, &pos, &err) != 0)
        fail_msg("%s: %s", fen, err.msg);
    dm_egdb *db = dm_egdb_open(v, root, &err);
    assert_non_null(db);
    dm_egdb_value val;
    int rc = dm_egdb_probe(db, &pos, &val);
    dm_egdb_close(db);
    if (rc != 1)
        return '?';
    *plies = val.plies;
    return val.wdl > 0 ? 'W' : val.wdl < 0 ? 'L' : 'D';
}

static void test_english_values(void **state)
{
    (void)state;
    build("english", 3);
    int plies = -1;
    /* A lone king each: a draw when each sits in a double corner (1 and
     * 5, 28 and 32), where it shuttles and cannot be shut in. */
    assert_int_equal(probe("english", "W:WK32:BK1", &plies), 'D');
    assert_int_equal(probe("english", "B:WK32:BK1", &plies), 'D');
    /* But a king in the single corner 4 (h8) with the other on 11 (f6)
     * must step to 8 and is taken: lost in 2 plies. */
    assert_int_equal(probe("english", "B:WK11:BK4", &plies), 'L');
    assert_int_equal(plies, 2);
    /* Two kings catch one, wherever it runs (checkers literature): a win
     * in an odd number of plies for the side with two, a loss in an even
     * number for the other. */
    assert_int_equal(probe("english", "W:WK29,K30:BK4", &plies), 'W');
    assert_true(plies > 1 && plies < DM_EGDB_MAX_PLIES && plies % 2 == 1);
    assert_int_equal(probe("english", "B:WK29,K30:BK4", &plies), 'L');
    assert_true(plies > 0 && plies % 2 == 0);
    /* Black's king on 1 (b8) must take White's man on 6 (c7), landing on
     * 10: a capture pending is not stored. */
    assert_int_equal(probe("english", "B:W6:BK1", &plies), '?');
    /* White's man on 5 (a7) may only step to 1, where Black's man stands,
     * and cannot jump off the board: no move, lost at once. */
    assert_int_equal(probe("english", "W:W5:B1,K2", &plies), 'L');
    assert_int_equal(plies, 0);
    /* Four pieces: no table, no answer. */
    assert_int_equal(probe("english", "W:WK29,K30:BK4,K3", &plies), '?');
}

/* Russian kings fly: three kings holding the long diagonal a1-h8 (the
 * "big road") catch a lone king that is off it, in at most 13 moves
 * (Petrov's triangle); a lone king on the big road draws. */
static void test_russian_three_kings(void **state)
{
    (void)state;
    const struct dm_variant *v = dm_variant_by_id("russian");
    const struct egdb_sig kings_only[] = {
        {{0, 0}, {1, 1}}, {{0, 0}, {2, 1}}, {{0, 0}, {1, 2}},
        {{0, 0}, {3, 1}}, {{0, 0}, {2, 2}}, {{0, 0}, {1, 3}},
    };
    dm_error err;
    if (egdb_build_sigs(v, root, kings_only, 6, NULL, NULL, NULL, &err) != 0)
        fail_msg("build: %s", err.msg);
    int plies = -1;
    assert_int_equal(probe("russian", "W:WKa1,Kc1,Ke1:BKf8", &plies), 'W');
    assert_true(plies <= 25); /* 13 moves of White's, the last a capture */
    assert_int_equal(probe("russian", "B:WKc1,Ke1,Kg1:BKa1", &plies), 'D');
    /* White's king in the corner a1 may only go along the big road, and
     * Black's on h8 then takes it: lost in 2 plies. */
    assert_int_equal(probe("russian", "W:WKa1:BKh8", &plies), 'L');
    assert_int_equal(plies, 2);
    long wrong = dm_egdb_verify(v, root, 0, 0, NULL, NULL, &err);
    assert_int_equal(wrong, 0);
}

/* Every stored value of English and Russian to 3 pieces agrees with its
 * successors; one value changed by hand is found. */
/* Probes p in da and q in db, asserts the same answer and value; the
 * answer. */
static int probe_same(dm_egdb *da, const dm_position *p, dm_egdb *db, const dm_position *q)
{
    dm_egdb_value a, b;
    int ra = dm_egdb_probe(da, p, &a), rb = dm_egdb_probe(db, q, &b);
    assert_int_equal(ra, rb);
    if (ra == 1) {
        assert_int_equal(a.wdl, b.wdl);
        assert_int_equal(a.plies, b.plies);
    }
    return ra;
}

/* Turns the first decided value of v's 2k-1k table under dir over: a win
 * becomes a loss or the other way. */
static void turn_over_first_decided(const struct dm_variant *v, const char *dir)
{
    struct egdb_sig sig = {{0, 0}, {2, 1}};
    char path[700];
    assert_int_equal(egdb_table_path(dir, v, &sig, path, sizeof path), 0);
    dm_error err;
    struct egdb_file f;
    assert_int_equal(egdb_open_file(&f, path, v, &sig, EGDB_CHECK_ALL, &err), 0);
    uint8_t *values = egdb_read_all(&f, &err);
    assert_non_null(values);
    egdb_close_file(&f);
    struct egdb_index ix;
    assert_true(egdb_index_init(&ix, v, sig));
    uint64_t changed = 0;
    while (values[changed] < 2)
        changed++;
    values[changed] ^= 1;
    assert_int_equal(egdb_write(path, &ix, values, EGDB_BLOCK, &err), 0);
    free(values);
}

static void test_verify(void **state)
{
    (void)state;
    build("english", 3);
    build("russian", 3);
    dm_error err;
    assert_int_equal(dm_egdb_verify(dm_variant_by_id("english"), root, 3, 0, NULL, NULL, &err), 0);
    assert_int_equal(dm_egdb_verify(dm_variant_by_id("russian"), root, 3, 0, NULL, NULL, &err), 0);

    /* English is the same game seen from the other side: turning the board
     * round and swapping the colours keeps every value. */
    const struct dm_variant *en = dm_variant_by_id("english");
    struct egdb_sig sigs[32];
    int n = egdb_signatures(en, 3, sigs, 32);
    dm_egdb *db = dm_egdb_open(en, root, &err);
    assert_non_null(db);
    for (int k = 0; k < n; k++) {
        struct egdb_index ix;
        assert_true(egdb_index_init(&ix, en, sigs[k]));
        for (uint64_t i = 0; i < ix.size; i++) {
            dm_position p, q;
            if (!egdb_position_at(&ix, i, &p))
                continue;
            q = p;
            q.white = q.black = q.kings = 0;
            for (int c = 0; c < 32; c++) {
                dm_bits from = (dm_bits)1 << c, to = (dm_bits)1 << (31 - c);
                if (p.white & from)
                    q.black |= to;
                if (p.black & from)
                    q.white |= to;
                if (p.kings & from)
                    q.kings |= to;
            }
            q.side = (uint8_t)(p.side ^ 1);
            probe_same(db, &p, db, &q);
        }
    }
    dm_egdb_close(db);

    /* A copy of the tables with one value of 2k-1k changed. */
    char other[300], cmd[700];
    snprintf(other, sizeof other, "%s/tampered", root);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cp -r '%s/english' '%s/'", other, root, other);
    assert_int_equal(system(cmd), 0);
    const struct dm_variant *v = dm_variant_by_id("english");
    turn_over_first_decided(v, other);
    long wrong = dm_egdb_verify(v, other, 3, 0, NULL, NULL, &err);
    assert_true(wrong >= 1);
}

/* The bytes of the file at path, and its size in *size. */
static uint8_t *file_bytes(const char *path, long *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    *size = ftell(f);
    rewind(f);
    uint8_t *buf = malloc((size_t)*size + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)*size, f), (size_t)*size);
    fclose(f);
    return buf;
}

/* The files at a and b hold the same bytes. */
static void same_files(const char *a, const char *b)
{
    long sa, sb;
    uint8_t *da = file_bytes(a, &sa), *db = file_bytes(b, &sb);
    assert_int_equal(sa, sb);
    assert_memory_equal(da, db, (size_t)sa);
    free(da);
    free(db);
}

/* Four threads taking 64 positions at a time (every step shared, however
 * small) build the same files as one thread, and check them; a value
 * changed is still found.  English to 3 pieces, Russian's flying kings to
 * 4 (long chains of levels in step 3; 3 in the sanitizers' quick run),
 * Alquerque to 3 (each move back checked by generating moves). */
static void test_threads(void **state)
{
    (void)state;
    const struct egdb_build_opts one = {.threads = 1};
    const struct egdb_build_opts four = {.threads = 4, .min_parallel = 1, .chunk = 64};
    const struct {
        const char *id;
        int pieces;
        bool kings_only;
    } cases[] = {{"english", 3, false},
                 {"russian", tu_quick() ? 3 : 4, true},
                 {"alquerque", 3, false}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const struct dm_variant *v = dm_variant_by_id(cases[c].id);
        struct egdb_sig all[64], sigs[64];
        int n = 0, total = egdb_signatures(v, cases[c].pieces, all, 64);
        for (int k = 0; k < total; k++)
            if (!cases[c].kings_only || all[k].men[0] + all[k].men[1] == 0)
                sigs[n++] = all[k];
        char a[300], b[300];
        snprintf(a, sizeof a, "%s/one-%s", root, v->id);
        snprintf(b, sizeof b, "%s/four-%s", root, v->id);
        dm_error err;
        if (egdb_build_sigs(v, a, sigs, n, &one, NULL, NULL, &err) != 0 ||
            egdb_build_sigs(v, b, sigs, n, &four, NULL, NULL, &err) != 0)
            fail_msg("build %s: %s", v->id, err.msg);
        for (int k = 0; k < n; k++) {
            if (egdb_mirrors(v) && !egdb_sig_stored(&sigs[k]))
                continue; /* read through its mirror's table */
            char pa[700], pb[700];
            assert_int_equal(egdb_table_path(a, v, &sigs[k], pa, sizeof pa), 0);
            assert_int_equal(egdb_table_path(b, v, &sigs[k], pb, sizeof pb), 0);
            same_files(pa, pb);
        }
        assert_int_equal(egdb_verify(v, b, 0, &four, NULL, NULL, &err), 0);
    }

    const struct dm_variant *v = dm_variant_by_id("russian");
    char dir[300];
    snprintf(dir, sizeof dir, "%s/four-russian", root);
    turn_over_first_decided(v, dir);
    dm_error err;
    assert_true(egdb_verify(v, dir, 0, &four, NULL, NULL, &err) >= 1);
}

/* Where a variant treats both colours alike, a build keeps one table of
 * each pair of mirrored signatures, the same file as a build of every
 * signature makes, and a probe of the other signature's positions reads
 * the same values from it, mirrored, as from that signature's own table.
 * One Way (its start is not its own mirror) keeps every table. */
static void test_mirrored_tables(void **state)
{
    (void)state;
    const struct egdb_build_opts every = {.every_sig = true};
    const char *ids[] = {"english", "russian", "turkish", "international"};
    for (size_t c = 0; c < sizeof ids / sizeof ids[0]; c++) {
        const struct dm_variant *v = dm_variant_by_id(ids[c]);
        assert_true(egdb_mirrors(v));
        struct egdb_sig sigs[64];
        int n = egdb_signatures(v, 3, sigs, 64);
        char a[300], b[300];
        snprintf(a, sizeof a, "%s/every-%s", root, v->id);
        snprintf(b, sizeof b, "%s/mirrored-%s", root, v->id);
        dm_error err;
        if (egdb_build_sigs(v, a, sigs, n, &every, NULL, NULL, &err) != 0 ||
            egdb_build_sigs(v, b, sigs, n, NULL, NULL, NULL, &err) != 0)
            fail_msg("build %s: %s", v->id, err.msg);
        dm_egdb *da = dm_egdb_open(v, a, &err), *db = dm_egdb_open(v, b, &err);
        assert_non_null(da);
        assert_non_null(db);
        int kept = 0, answered = 0;
        for (int k = 0; k < n; k++) {
            char pa[700], pb[700];
            assert_int_equal(egdb_table_path(a, v, &sigs[k], pa, sizeof pa), 0);
            assert_int_equal(egdb_table_path(b, v, &sigs[k], pb, sizeof pb), 0);
            struct stat st;
            if (!egdb_sig_stored(&sigs[k])) {
                assert_int_not_equal(stat(pb, &st), 0);
                struct egdb_index ix;
                assert_true(egdb_index_init(&ix, v, sigs[k]));
                for (uint64_t i = 0; i < ix.size; i++) {
                    dm_position p;
                    if (egdb_position_at(&ix, i, &p))
                        answered += probe_same(da, &p, db, &p);
                }
                continue;
            }
            kept++;
            same_files(pa, pb);
        }
        assert_true(kept < n && answered > 0);
        dm_egdb_close(da);
        dm_egdb_close(db);
        assert_int_equal(dm_egdb_verify(v, b, 3, 0, NULL, NULL, &err), 0);
    }
    assert_false(egdb_mirrors(dm_variant_by_id("one-way")));
}

/* Tables of every block size a reader takes (16384: those built before
 * aa9e3cb) read back the same values, whole and probe by probe;
 * a size that is not a power of two is refused. */
static void test_block_sizes(void **state)
{
    (void)state;
    build("english", 3);
    const struct dm_variant *v = dm_variant_by_id("english");
    struct egdb_sig sig = {{1, 0}, {1, 1}}; /* 1m1k-1k: 52080 positions */
    struct egdb_index ix;
    assert_true(egdb_index_init(&ix, v, sig));
    assert_true(ix.size > 3 * EGDB_BLOCK_MAX); /* several blocks at every size */
    char path[700], dir[400];
    dm_error err = {{0}};
    assert_int_equal(egdb_table_path(root, v, &sig, path, sizeof path), 0);
    struct egdb_file f;
    assert_int_equal(egdb_open_file(&f, path, v, &sig, EGDB_CHECK_ALL, &err), 0);
    assert_int_equal(f.h.block_size, EGDB_BLOCK);
    uint8_t *values = egdb_read_all(&f, &err);
    assert_non_null(values);
    egdb_close_file(&f);
    dm_egdb *built = dm_egdb_open(v, root, &err);
    assert_non_null(built);

    static const uint32_t sizes[] = {256, 1024, EGDB_BLOCK_MAX};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        snprintf(dir, sizeof dir, "%s/blocks%u", root, sizes[k]);
        assert_int_equal(egdb_table_path(dir, v, &sig, path, sizeof path), 0);
        char cmd[800];
        snprintf(cmd, sizeof cmd, "mkdir -p '%s/english'", dir);
        assert_int_equal(system(cmd), 0);
        assert_int_equal(egdb_write(path, &ix, values, sizes[k], &err), 0);
        assert_int_equal(egdb_open_file(&f, path, v, &sig, EGDB_CHECK_ALL, &err), 0);
        assert_int_equal(f.h.block_size, sizes[k]);
        uint8_t *again = egdb_read_all(&f, &err);
        assert_non_null(again);
        assert_memory_equal(again, values, ix.size);
        free(again);
        egdb_close_file(&f);
        dm_egdb *db = dm_egdb_open(v, dir, &err);
        assert_non_null(db);
        int probed = 0;
        for (uint64_t i = 0; i < ix.size; i += 7) {
            dm_position p;
            if (!egdb_position_at(&ix, i, &p))
                continue;
            probed += probe_same(db, &p, built, &p) == 1;
        }
        assert_true(probed > 1000);
        dm_egdb_close(db);
    }
    dm_egdb_close(built);
    assert_int_equal(egdb_write(path, &ix, values, 3000, &err), -1);
    assert_non_null(strstr(err.msg, "a power of two"));
    free(values);
}

/* A table of many more blocks than the cache holds, probed through twice,
 * with one position probed again and again between, answers every probe
 * with its stored value: a block read again after being put out of the
 * cache (EGDB_CACHE_SLOTS) is the block asked for, and the block kept in
 * use stays right.  The values are made up (a reader does not judge
 * them), written in blocks of 256. */
static void test_cache_eviction(void **state)
{
    (void)state;
    const struct dm_variant *v = dm_variant_by_id("english");
    struct egdb_sig sig = {{0, 0}, {3, 2}}; /* 3 kings v 2 kings */
    struct egdb_index ix;
    assert_true(egdb_index_init(&ix, v, sig));
    assert_true(ix.size > (uint64_t)3 * EGDB_CACHE_SLOTS * 256);
    uint8_t *values = malloc(ix.size);
    assert_non_null(values);
    for (uint64_t i = 0; i < ix.size; i++) {
        uint64_t h = i * 0x9E3779B97F4A7C15ull;
        values[i] = (uint8_t)(h >> 61 ? 2 + (h >> 56) % 200 : EGDB_DRAW);
    }
    char dir[400], path[700], cmd[800];
    dm_error err = {{0}};
    snprintf(dir, sizeof dir, "%s/evict", root);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/english'", dir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(egdb_table_path(dir, v, &sig, path, sizeof path), 0);
    assert_int_equal(egdb_write(path, &ix, values, 256, &err), 0);
    dm_egdb *db = dm_egdb_open(v, dir, &err);
    assert_non_null(db);
    uint64_t hot = ix.size / 3;
    dm_position hot_pos;
    while (!egdb_position_at(&ix, hot, &hot_pos))
        hot++;
    int probed = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (uint64_t i = 0; i < ix.size; i += 61) {
            dm_position p;
            uint64_t at = probed % 16 == 0 ? hot : i;
            if (at == hot)
                p = hot_pos;
            else if (!egdb_position_at(&ix, at, &p))
                continue;
            dm_egdb_value got, want = egdb_value_of(values[at]);
            assert_int_equal(dm_egdb_probe(db, &p, &got), 1);
            assert_int_equal(got.wdl, want.wdl);
            assert_int_equal(got.plies, want.plies);
            probed++;
        }
    }
    assert_true(probed > 100000);
    dm_egdb_close(db);
    free(values);
}

/* ---- damaged files ------------------------------------------------------ */

static void copy_file(const char *from, const char *to)
{
    char cmd[1500];
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\" && cp '%s' '%s'", to, from, to);
    assert_int_equal(system(cmd), 0);
}

/* Opens the 1k-1k table of variant id under dir and probes a position of
 * it; returns the probe's answer and leaves its error in why. */
static int probe_damaged(const char *id, const char *dir, char *why, size_t size)
{
    const dm_variant *v = dm_variant_by_id(id);
    dm_error err;
    dm_position pos;
    assert_int_equal(dm_fen_parse(v, strcmp(id, "english") == 0 ? "W:WK29:BK4" : "W:WKa1:BKh8",
                                  &pos, &err),
                     0);
    dm_egdb *db = dm_egdb_open(v, dir, &err);
    assert_non_null(db);
    dm_egdb_value val;
    int rc = dm_egdb_probe(db, &pos, &val);
    snprintf(why, size, "%s", dm_egdb_error(db));
    dm_egdb_close(db);
    return rc;
}

static void damage(const char *path, long offset, int byte, long truncate_to)
{
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    if (offset >= 0) {
        assert_int_equal(fseek(f, offset, offset < 0 ? SEEK_END : SEEK_SET), 0);
        fputc(byte, f);
    }
    fclose(f);
    if (truncate_to >= 0)
        assert_int_equal(truncate(path, truncate_to), 0);
}

static void test_damaged_files(void **state)
{
    (void)state;
    build("english", 2);
    char good[700], bad[700], dir[400], why[300];
    const struct dm_variant *v = dm_variant_by_id("english");
    struct egdb_sig sig = {{0, 0}, {1, 1}};
    assert_int_equal(egdb_table_path(root, v, &sig, good, sizeof good), 0);
    struct stat st;
    assert_int_equal(stat(good, &st), 0);
    snprintf(dir, sizeof dir, "%s/damaged", root);
    assert_int_equal(egdb_table_path(dir, v, &sig, bad, sizeof bad), 0);

    /* The good file answers. */
    assert_int_equal(probe_damaged("english", root, why, sizeof why), 1);
    assert_string_equal(why, "");

    static const struct {
        long offset;     /* byte to change (-1: none; -3: the last) */
        int byte;
        long truncate_to; /* -1: keep the length; -2: half */
        const char *why;
    } cases[] = {
        {0, 'X', -1, "not a Damier endgame table"},
        {8, 9, -1, "another format version"},
        {20, 'q', -1, "header's checksum"},
        {-1, 0, -2, "truncated"},
        {-1, 0, 100, "not a Damier endgame table"},
        {-1, 0, 0, "empty file"},
        /* A probe reads a block's deflate data, then checks its sum (the
         * last 4 bytes of this table of one block). */
        {200, 0x55, -1, "does not inflate (damaged file)"},
        {-3, 0x55, -1, "the data's checksum is wrong (damaged file)"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        copy_file(good, bad);
        long cut = cases[k].truncate_to == -2 ? (long)st.st_size / 2 : cases[k].truncate_to;
        long at = cases[k].offset == -3 ? (long)st.st_size - 1 : cases[k].offset;
        damage(bad, at, cases[k].byte, cut);
        assert_int_equal(probe_damaged("english", dir, why, sizeof why), 0);
        if (!strstr(why, cases[k].why))
            fail_msg("case %zu: '%s' does not say '%s'", k, why, cases[k].why);
    }
    /* An English table put where the Russian one belongs. */
    char russian[700];
    assert_int_equal(egdb_table_path(dir, dm_variant_by_id("russian"), &sig, russian,
                                     sizeof russian),
                     0);
    copy_file(good, russian);
    assert_int_equal(probe_damaged("russian", dir, why, sizeof why), 0);
    assert_non_null(strstr(why, "a table of english, not of russian"));
    /* verify refuses a damaged table too, with the reason. */
    copy_file(good, bad);
    damage(bad, 200, 0x55, -1);
    dm_error err;
    assert_int_equal(dm_egdb_verify(v, dir, 0, 0, NULL, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "checksum"));
}

static void test_unsupported(void **state)
{
    (void)state;
    dm_error err;
    for (const char *const *id = (const char *const[]){"frisian", "frysk", "parachute",
                                                       "hawaiian", NULL};
         *id; id++) {
        assert_false(dm_egdb_supported(dm_variant_by_id(*id), &err));
        assert_non_null(strstr(err.msg, "not supported for"));
        assert_int_equal(dm_egdb_build(dm_variant_by_id(*id), root, 2, 0, NULL, NULL, &err), -1);
    }
    assert_true(dm_egdb_supported(dm_variant_by_id("international"), &err));
    assert_int_equal(dm_egdb_build(dm_variant_by_id("english"), root, 9, 0, NULL, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "pieces must be 2 to 8"));
    /* No folder: a database that answers nothing. */
    dm_egdb *db = dm_egdb_open(dm_variant_by_id("english"), "/nonexistent/egdb", &err);
    assert_non_null(db);
    assert_int_equal(dm_egdb_pieces(db), 0);
    dm_position pos;
    dm_position_start(dm_variant_by_id("english"), &pos);
    dm_egdb_value val;
    assert_int_equal(dm_egdb_probe(db, &pos, &val), 0);
    dm_egdb_close(db);
}

/* English two kings against one, which win in 11 plies (the table): every
 * reply at ply 1 is in the tables, so with them the root scores
 * 25000 - 11; without them, 3 plies see no end.  Builds the tables. */
static const dm_variant *kings_ending(dm_position *pos)
{
    build("english", 3);
    const dm_variant *v = dm_variant_by_id("english");
    dm_error err;
    assert_int_equal(dm_fen_parse(v, "W:WK29,K30:BK4", pos, &err), 0);
    return v;
}

/* The score of e's search of pos, 3 plies, from an empty table. */
static int score_of(dm_engine *e, const dm_variant *v, const dm_position *pos)
{
    dm_search_limits lim = {.depth = 3};
    dm_search_result res;
    dm_engine_new_game(e);
    assert_int_equal(dm_engine_search(e, v, pos, NULL, 0, &lim, &res), 0);
    return res.score;
}

/* The search scores a node the tables know as 25000 less the plies to the
 * end from the root, and without tables sees the mate itself. */
static void test_engine_probes(void **state)
{
    (void)state;
    dm_position pos;
    const dm_variant *v = kings_ending(&pos);
    dm_engine *e = dm_engine_new(1);
    assert_non_null(e);
    assert_true(score_of(e, v, &pos) < 25000 - 126);
    dm_engine_set_egdb(e, root);
    assert_int_equal(score_of(e, v, &pos), 25000 - 11);
    /* Tables that are not there: no probe, no error. */
    dm_engine_set_egdb(e, "/nonexistent/egdb");
    assert_true(score_of(e, v, &pos) < 25000 - 126);
    dm_engine_free(e);
}

/* The computer player's engine (dm_player_engine_new) probes the tables of
 * the default folder, DAMIER_EGDB_DIR here, as the Hub engine does. */
static void test_player_engine_probes(void **state)
{
    (void)state;
    dm_position pos;
    const dm_variant *v = kings_ending(&pos);
    assert_int_equal(setenv("DAMIER_EGDB_DIR", root, 1), 0);
    dm_engine *e = dm_player_engine_new(1);
    assert_non_null(e);
    assert_int_equal(score_of(e, v, &pos), 25000 - 11);
    dm_engine_free(e);
    /* A default folder without tables: the search sees no end. */
    assert_int_equal(setenv("DAMIER_EGDB_DIR", "/nonexistent/egdb", 1), 0);
    e = dm_player_engine_new(1);
    assert_non_null(e);
    assert_true(score_of(e, v, &pos) < 25000 - 126);
    dm_engine_free(e);
    unsetenv("DAMIER_EGDB_DIR");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index_sizes),
        cmocka_unit_test(test_index_round_trip),
        cmocka_unit_test(test_english_values),
        cmocka_unit_test(test_russian_three_kings),
        cmocka_unit_test(test_verify),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_mirrored_tables),
        cmocka_unit_test(test_block_sizes),
        cmocka_unit_test(test_cache_eviction),
        cmocka_unit_test(test_damaged_files),
        cmocka_unit_test(test_unsupported),
        cmocka_unit_test(test_engine_probes),
        cmocka_unit_test(test_player_engine_probes),
    };
    /* check-tsan runs test_threads alone. */
    const char *only = getenv("DAMIER_TEST_FILTER");
    if (only && *only)
        cmocka_set_test_filter(only);
    return cmocka_run_group_tests(tests, setup_root, teardown_root);
}
