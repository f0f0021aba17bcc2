/* SPDX-License-Identifier: MIT */
/*
 * test_kfull_diff.c - the full-board kernels (src/rules/kfull*.c) against
 * the reference generator.
 *
 * For each variant a kernel serves: random games from the start position
 * plus random placements (which reach kings and long captures sooner than
 * random play), 40,000 positions per variant (2,000 under DAMIER_QUICK); at
 * each, kfull_generate and refgen_generate must give the same list in each
 * mode (duplicates merged, kept, kept with every landing square): the same
 * moves (from, to, captured set, flags, jumps) with the same routes in the
 * same order, as kernel.h promises.  A mismatch prints the FEN and both
 * lists.  Then kfull_perft against the reference perft in the same modes,
 * from the start position and from random positions; KISH's published
 * Turkish counts; and kfull_for's choices, which read the rules fields.
 *
 * DAMIER_KFULL_POSITIONS=N compares N positions per variant instead (a
 * longer soak).  DAMIER_KFULL_BENCH=1 adds a benchmark: the `damier bench
 * perft` workload of each variant through kfull_perft and through the
 * reference generator, in leaves per second.
 */
#include "testutil.h"

#include <time.h>

#include "rules/kernel.h"
#include "rules/kfull.h"
#include "rules/refgen.h"
#include "rules/variant.h"

static const char *const served[] = {"turkish", "dameo", "gothic", "alquerque", "hawaiian"};
enum { SERVED = sizeof served / sizeof served[0] };

/* ---- comparing move lists ------------------------------------------------ */

/* A move with every byte that does not belong to it zeroed, so that whole
 * structs compare with memcmp. */
static dm_move normalized(const dm_move *m)
{
    dm_move n;
    memset(&n, 0, sizeof n);
    n.captured_set = m->captured_set;
    n.from = m->from;
    n.to = m->to;
    n.njumps = m->njumps;
    n.flags = m->flags;
    memcpy(n.path, m->path, m->njumps);
    memcpy(n.captured, m->captured, m->njumps);
    return n;
}

static void print_list(const dm_variant *v, const char *who, const dm_move_list *list, int rc)
{
    char text[400];
    print_message("%s: %d moves (returned %d)\n", who, list->count, rc);
    for (int i = 0; i < list->count; i++) {
        tu_route_text(v, &list->moves[i], text, sizeof text);
        print_message("    %s\n", text);
    }
}

/* The generation modes compared: duplicates merged, kept (a king going on
 * straight is one route), kept with every landing square before such a
 * piece (the convention of Turkish's published counts). */
static const unsigned modes[] = {0, DM_GEN_KEEP_DUPLICATES,
                                 DM_GEN_KEEP_DUPLICATES | DM_GEN_EVERY_LANDING};
static const char *const mode_names[] = {"merged", "keep duplicates",
                                         "keep duplicates, every landing"};
enum { MODES = sizeof modes / sizeof modes[0] };

/* What one position exercised, for the coverage line. */
struct coverage {
    long positions, with_kings, captures, multi_jumps, duplicates, promotions;
};

/* kfull_generate and refgen_generate agree on pos in both modes: the same
 * moves with the same routes in the same order (kernel.h: callers walk the
 * list), hence the same route kept for merged duplicates too. */
static void compare_position(const dm_variant *v, const dm_position *pos, struct coverage *cov)
{
    static dm_move_list ref, fast;
    int counts[MODES] = {0};

    /* The horizon's question, answered without a list. */
    refgen_generate(v, pos, &ref, 0);
    int want = ref.count == 0 ? 0 : (ref.moves[0].flags & DM_MOVE_CAPTURE) ? 2 : 1;
    if (kfull_leaf(v, pos) != want || kernel_leaf(v, pos) != want) {
        char fen[1024];
        dm_fen_format(v, pos, fen, sizeof fen);
        fail_msg("%s: kfull_leaf %d, expected %d at %s", dm_variant_id(v), kfull_leaf(v, pos),
                 want, fen);
    }
    for (int k = 0; k < MODES; k++) {
        int rr = refgen_generate(v, pos, &ref, modes[k]);
        int rf = kfull_generate(v, pos, &fast, modes[k]);
        bool same = rr == rf && ref.count == fast.count;
        /* Past DM_MAX_MOVES both lists hold "the first ones" of the same
         * walk, so they still agree. */
        for (int i = 0; same && i < ref.count; i++) {
            dm_move a = normalized(&ref.moves[i]), b = normalized(&fast.moves[i]);
            same = memcmp(&a, &b, sizeof a) == 0;
        }
        if (!same) {
            char fen[1024];
            dm_fen_format(v, pos, fen, sizeof fen);
            print_message("%s: FEN %s (%s)\n", dm_variant_id(v), fen, mode_names[k]);
            print_list(v, "reference", &ref, rr);
            print_list(v, "kfull", &fast, rf);
            fail_msg("%s: kfull_generate differs from the reference at %s", dm_variant_id(v), fen);
        }
        counts[k] = ref.count;
    }
    cov->positions++;
    cov->with_kings += pos->kings != 0;
    if (ref.count > 0 && ref.moves[0].njumps > 0) {
        cov->captures++;
        for (int i = 0; i < ref.count; i++)
            if (ref.moves[i].njumps > 1) {
                cov->multi_jumps++;
                break;
            }
    }
    for (int i = 0; i < ref.count; i++)
        if (ref.moves[i].flags & DM_MOVE_PROMOTES) {
            cov->promotions++;
            break;
        }
    cov->duplicates += counts[2] > counts[0];
}

/* A random placement: up to a quarter of the cells (every other time up to
 * half) in men of each colour and, where the variant has kings, up to
 * three kings, on random cells, no man on its own promotion cells, either
 * side to move. */
static void random_placement(const dm_variant *v, uint64_t *seed, dm_position *pos)
{
    int cells = dm_variant_cells(v);
    bool kings = v->king != KING_NONE;
    memset(pos, 0, sizeof *pos);
    pos->king_cell[0] = pos->king_cell[1] = DM_NO_CELL;
    pos->side = (uint8_t)(tu_xorshift(seed) & 1);
    for (int color = 0; color < 2; color++) {
        int most = (tu_xorshift(seed) & 1) ? cells / 2 : cells / 4;
        int men = 1 + (int)(tu_xorshift(seed) % (uint64_t)most);
        int nkings = kings ? (int)(tu_xorshift(seed) % 4) : 0;
        for (int i = 0; i < men + nkings; i++) {
            bool king = i >= men;
            for (int tries = 0; tries < 100; tries++) {
                int c = (int)(tu_xorshift(seed) % (uint64_t)cells);
                dm_bits bit = (dm_bits)1 << c;
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
                break;
            }
        }
    }
}

/* Random games from the start, and every fourth game a random placement
 * played on from, until `want` positions are compared.  Every 50th
 * position also goes into samples[] (up to nsamples) for perft. */
static long compare_games(const dm_variant *v, long want, uint64_t *seed, dm_position *samples,
                          int nsamples, int *got_samples, struct coverage *cov)
{
    dm_move_list list;
    long n = 0;
    *got_samples = 0;
    for (int game = 0; n < want; game++) {
        dm_position pos;
        if (game % 4 == 3)
            random_placement(v, seed, &pos);
        else
            dm_position_start(v, &pos);
        for (int ply = 0; ply < 400 && n < want; ply++) {
            compare_position(v, &pos, cov);
            if (n % 50 == 0 && *got_samples < nsamples)
                samples[(*got_samples)++] = pos;
            n++;
            refgen_generate(v, &pos, &list, 0);
            if (list.count <= 0)
                break;
            dm_make_move(v, &pos, &list.moves[tu_xorshift(seed) % (uint64_t)list.count]);
        }
    }
    return n;
}

/* kfull_perft agrees with the reference perft in mode k. */
static void check_perft(const dm_variant *v, const dm_position *pos, int depth, int k)
{
    unsigned flags = modes[k];
    uint64_t fast = kfull_perft(v, pos, depth, flags);
    uint64_t ref = dm_perft(v, pos, depth, flags | DM_GEN_REFERENCE);
    if (fast != ref) {
        char fen[1024];
        dm_fen_format(v, pos, fen, sizeof fen);
        fail_msg("%s: perft %d (%s) of %s: kfull %llu, reference %llu", dm_variant_id(v), depth,
                 mode_names[k], fen, (unsigned long long)fast, (unsigned long long)ref);
    }
}

/* ... in every mode. */
static void check_perft_modes(const dm_variant *v, const dm_position *pos, int depth)
{
    for (int k = 0; k < MODES; k++)
        check_perft(v, pos, depth, k);
}

/* ---- tests --------------------------------------------------------------- */

static void test_random_positions(void **state)
{
    (void)state;
    long want = atol(tu_env("DAMIER_KFULL_POSITIONS", tu_quick() ? "2000" : "40000"));
    enum { SAMPLES = 200 };
    static dm_position samples[SAMPLES];
    uint64_t seed = 0xD1CE5EED12345677ull;
    for (int k = 0; k < SERVED; k++) {
        const dm_variant *v = tu_variant(served[k]);
        struct coverage cov = {0};
        int nsamples = 0;
        long n = compare_games(v, want, &seed, samples, tu_quick() ? 40 : SAMPLES, &nsamples, &cov);
        print_message("%-10s %ld positions: %ld with kings, %ld captures, %ld multi-jump, "
                      "%ld with duplicate routes, %ld promotions\n",
                      served[k], n, cov.with_kings, cov.captures, cov.multi_jumps, cov.duplicates,
                      cov.promotions);
        assert_true(n >= want);
        for (int i = 0; i < nsamples; i++)
            check_perft_modes(v, &samples[i], 3);
    }
}

/* The Turkish examples (pydraughts-checked) and some edge cases, compared. */
static void test_examples(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *fen;
    } cases[] = {
        {"turkish", "W:WKd4:Bd6,d2"},
        {"turkish", "W:WKc1:Bc3,d4,e3,d2,c5"},
        {"turkish", "W:Wc6:Bc7,e8"},
        {"turkish", "W:WKa1:Ba3,a6,c5,f5,f2,c2"},
        {"turkish", "B:WKa1,Kh8,d4,e4:Bd5,Ka8"},
        {"dameo", "W:WKd4:Bd6,f4,d2,b4,b6,f6,f2,b2"},
        {"dameo", "W:Wa1,a2,a3,b1,b2:Ba8"},
        {"dameo", "W:Wd4:Bd5,e6,c6,d7,c4,b4"},
        {"gothic", "W:Wd6:Be7,f7,c7"},
        {"gothic", "W:WKd4:Bd5,e5,c5,c4,e4,c3,d3,e3"},
        {"alquerque", "W:Wc3:Bc4,d4,b4,b3,d3"},
        {"alquerque", "W:Wa5,b5:Ba1"},
        {"hawaiian", "W:Wa1,c1:Ba2,b1"},
    };
    struct coverage cov = {0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const dm_variant *v = tu_variant(cases[i].variant);
        dm_position pos;
        tu_position(v, cases[i].fen, &pos);
        compare_position(v, &pos, &cov);
        check_perft_modes(v, &pos, 3);
    }
}

static void test_start_perft(void **state)
{
    (void)state;
    static const struct {
        const char *variant;
        int depth, quick_depth;
    } rows[] = {
        {"turkish", 5, 4},    {"dameo", 4, 3},    {"gothic", 5, 4},
        {"alquerque", 10, 8}, {"hawaiian", 7, 6},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const dm_variant *v = tu_variant(rows[i].variant);
        dm_position pos;
        dm_position_start(v, &pos);
        int depth = tu_quick() ? rows[i].quick_depth : rows[i].depth;
        for (int d = 1; d <= depth; d++)
            check_perft_modes(v, &pos, d);
    }
    /* Published (KISH, tests/perft/turkish.txt), which counts a route
     * per landing square before a piece taken straight on; d8 is out of the
     * reference generator's reach in a unit test.  The merged count is the
     * reference's (test_ortho.c); kept with one route straight on, d7 has
     * no other duplicates. */
    const dm_variant *t = tu_variant("turkish");
    dm_position pos;
    dm_position_start(t, &pos);
    const unsigned every = DM_GEN_KEEP_DUPLICATES | DM_GEN_EVERY_LANDING;
    assert_int_equal(kfull_perft(t, &pos, 7, every), 10782382);
    assert_int_equal(kfull_perft(t, &pos, 7, DM_GEN_KEEP_DUPLICATES), 10782308);
    assert_int_equal(kfull_perft(t, &pos, 7, 0), 10782308);
    if (!tu_quick())
        assert_int_equal(kfull_perft(t, &pos, 8, every), 123290300);
    assert_int_equal(kfull_perft(t, &pos, 0, 0), 1);
}

/* The kernel is chosen from the rules fields: each served variant gets its
 * own, the diagonal boards none, and a record that differs from a served
 * one in a single rule none either. */
static void test_kernel_choice(void **state)
{
    (void)state;
    int seen = 0;
    for (int k = 0; k < SERVED; k++) {
        int kernel = kfull_for(tu_variant(served[k]));
        assert_true(kernel >= 0 && kernel < 31);
        assert_false(seen & (1 << kernel));
        seen |= 1 << kernel;
    }
    for (int i = 0; i < dm_variant_count(); i++) {
        const dm_variant *v = dm_variant_at(i);
        bool is_served = false;
        for (int k = 0; k < SERVED; k++)
            is_served |= strcmp(dm_variant_id(v), served[k]) == 0;
        if (!is_served && kfull_for(v) >= 0)
            fail_msg("kfull_for serves %s", dm_variant_id(v));
    }

    struct dm_variant copy = *tu_variant("turkish");
    copy.reversal_ban = false;
    assert_int_equal(kfull_for(&copy), -1);
    copy = *tu_variant("turkish");
    copy.promotion = PROMOTE_END_ONLY;
    assert_int_equal(kfull_for(&copy), -1);
    copy = *tu_variant("dameo");
    copy.linear_moves = false;
    assert_int_equal(kfull_for(&copy), -1);
    copy = *tu_variant("alquerque");
    copy.far_row = FAR_ROW_FREE;
    assert_int_equal(kfull_for(&copy), -1);
    copy = *tu_variant("hawaiian");
    copy.optional_continuation = false;
    assert_int_equal(kfull_for(&copy), -1);
    copy = *tu_variant("gothic");
    copy.goal = GOAL_FIRST_KING;
    assert_int_equal(kfull_for(&copy), -1);

    /* A variant no kernel serves gets no moves and says so. */
    dm_move_list list;
    dm_position pos;
    const dm_variant *intl = tu_variant("international");
    dm_position_start(intl, &pos);
    assert_int_equal(kfull_generate(intl, &pos, &list, 0), -1);
    assert_int_equal(list.count, 0);
    assert_int_equal(kfull_perft(intl, &pos, 1, 0), 0);
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* `damier bench perft`'s workload through both generators, best of three. */
static void test_bench(void **state)
{
    (void)state;
    if (!*tu_env("DAMIER_KFULL_BENCH", ""))
        skip();
    static const struct {
        const char *variant;
        int depth;
    } work[] = {
        {"turkish", 7}, {"dameo", 4}, {"gothic", 5}, {"alquerque", 13}, {"hawaiian", 9},
    };
    for (size_t i = 0; i < sizeof work / sizeof work[0]; i++) {
        const dm_variant *v = tu_variant(work[i].variant);
        dm_position pos;
        dm_position_start(v, &pos);
        double best[2] = {1e9, 1e9};
        uint64_t leaves[2] = {0, 0};
        for (int rep = 0; rep < 3; rep++)
            for (int g = 0; g < 2; g++) {
                double t0 = seconds_now();
                leaves[g] = g == 0 ? kfull_perft(v, &pos, work[i].depth, 0)
                                   : dm_perft(v, &pos, work[i].depth, DM_GEN_REFERENCE);
                double t = seconds_now() - t0;
                if (t < best[g])
                    best[g] = t;
            }
        assert_true(leaves[0] == leaves[1]);
        print_message("%-10s depth %2d %12llu leaves  kfull %7.1f M/s  reference %6.1f M/s\n",
                      work[i].variant, work[i].depth, (unsigned long long)leaves[0],
                      (double)leaves[0] / best[0] / 1e6, (double)leaves[1] / best[1] / 1e6);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel_choice), cmocka_unit_test(test_examples),
        cmocka_unit_test(test_start_perft),   cmocka_unit_test(test_random_positions),
        cmocka_unit_test(test_bench),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
