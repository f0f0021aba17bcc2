/* SPDX-License-Identifier: MIT */
/*
 * test_kernel_diff.c - every fast kernel against the reference generator.
 *
 * For each variant a kernel serves (one cmocka test each), random games from
 * the start position and random positions with many kings (deterministic
 * xorshift seeds) are walked; at every position kernel_generate must give
 * the moves of refgen_generate:
 *   - duplicates merged: the same (from, to, captured set, flags, jumps), and
 *     in the same order when no two routes were merged;
 *   - duplicates kept: the same full routes, as multisets.
 * kernel_leaf must tell, from no list, whether those moves are captures,
 * quiet moves or none.
 * kernel_perft counts, at depth 1 (the bulk counting path) and to depth 2
 * at every position, to depth 3 every hundredth, what the reference
 * generator gives.  With duplicates kept, perft counts a route once where
 * the generators list it once per landing square before a piece taken
 * straight on (46x37x23, 46x32x23: the published counts do), so its
 * reference is refgen's routes with that landing written as the square
 * right behind the piece taken (PDN 3.0), equal ones once.  A mismatch
 * prints the variant, the FEN and both move lists with their full routes.
 *
 * 10,000 game positions and as many random ones per variant (2,000 each
 * under DAMIER_QUICK).  The full-board kernels have their own test
 * (test_kfull_diff.c).
 */
#include "testutil.h"

#include "base/bits.h"
#include "rules/kernel.h"
#include "rules/refgen.h"
#include "rules/variant.h"

enum { PLY_LIMIT = 250 };

/* The xorshift stream of the variant under test, seeded from its id. */
static uint64_t rng_state;

/* The next number of that stream in [0, n). */
static int rng_below(int n)
{
    return (int)(tu_xorshift(&rng_state) % (uint64_t)n);
}

/* The direction from cell a towards cell b on one line of g. */
static int dir_towards(const struct geometry *g, int a, int b)
{
    int df = g->file_of[b] - g->file_of[a], dr = g->rank_of[b] - g->rank_of[a];
    int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
    if (sf && sr)
        return sr > 0 ? (sf > 0 ? DIR_NE : DIR_NW) : (sf > 0 ? DIR_SE : DIR_SW);
    if (sf)
        return sf > 0 ? DIR_E : DIR_W;
    return sr > 0 ? DIR_N : DIR_S;
}

/* Writes a straight-on landing as the square right behind the piece taken. */
static void canonical_route(const struct geometry *g, dm_move *m)
{
    int at = m->from;
    for (int i = 0; i < m->njumps; i++) {
        int d = dir_towards(g, at, m->captured[i]);
        int next = m->path[i];
        if (i + 1 < m->njumps && dir_towards(g, next, m->captured[i + 1]) == d)
            m->path[i] = (uint8_t)g->next[m->captured[i]][d];
        at = next;
    }
}

static int cmp_bits(dm_bits a, dm_bits b)
{
    return a < b ? -1 : a > b;
}

/* Orders moves by what merged mode compares. */
static int cmp_signature(const void *pa, const void *pb)
{
    const dm_move *a = pa, *b = pb;
    if (a->from != b->from)
        return a->from - b->from;
    if (a->to != b->to)
        return a->to - b->to;
    if (a->captured_set != b->captured_set)
        return cmp_bits(a->captured_set, b->captured_set);
    if (a->flags != b->flags)
        return a->flags - b->flags;
    return a->njumps - b->njumps;
}

/* Orders moves by their whole route. */
static int cmp_route(const void *pa, const void *pb)
{
    const dm_move *a = pa, *b = pb;
    int c = cmp_signature(a, b);
    if (c)
        return c;
    c = memcmp(a->path, b->path, a->njumps);
    return c ? c : memcmp(a->captured, b->captured, a->njumps);
}

/* Sorts list by cmp and, if unique, drops moves equal to the one before. */
static void sort_moves(dm_move_list *list, int (*cmp)(const void *, const void *), bool unique)
{
    qsort(list->moves, (size_t)list->count, sizeof list->moves[0], cmp);
    if (!unique)
        return;
    int n = 0;
    for (int i = 0; i < list->count; i++)
        if (n == 0 || cmp(&list->moves[n - 1], &list->moves[i]) != 0)
            list->moves[n++] = list->moves[i];
    list->count = n;
}

static void print_list(const dm_variant *v, const char *title, const dm_move_list *list)
{
    printf("  %s (%d):", title, list->count);
    for (int i = 0; i < list->count && i < 40; i++) {
        char text[512];
        tu_route_text(v, &list->moves[i], text, sizeof text);
        printf(" %s", text);
    }
    printf("%s\n", list->count > 40 ? " ..." : "");
}

static void report(const dm_variant *v, const dm_position *pos, const char *what,
                   const dm_move_list *kernel, const dm_move_list *ref)
{
    char fen[1024];
    dm_fen_format(v, pos, fen, sizeof fen);
    printf("%s: %s differs\n  fen %s\n", dm_variant_id(v), what, fen);
    print_list(v, "kernel", kernel);
    print_list(v, "reference", ref);
}

static bool same_lists(const dm_move_list *a, const dm_move_list *b,
                       int (*cmp)(const void *, const void *))
{
    if (a->count != b->count)
        return false;
    for (int i = 0; i < a->count; i++)
        if (cmp(&a->moves[i], &b->moves[i]) != 0)
            return false;
    return true;
}

/* The routes of list as perft counts them: a straight-on landing written as
 * the square right behind the piece taken, equal routes once. */
static int perft_routes(const dm_variant *v, dm_move_list *list)
{
    for (int i = 0; i < list->count; i++)
        canonical_route(v->geo, &list->moves[i]);
    sort_moves(list, cmp_route, true);
    return list->count;
}

/* Perft with duplicates kept by the reference generator, routes counted as
 * perft_routes() says. */
static uint64_t reference_perft_kept(const dm_variant *v, const dm_position *pos, int depth)
{
    dm_move_list *list = malloc(sizeof *list);
    assert_non_null(list);
    refgen_generate(v, pos, list, DM_GEN_KEEP_DUPLICATES);
    perft_routes(v, list);
    uint64_t nodes = 0;
    if (depth == 1) {
        nodes = (uint64_t)list->count;
    } else {
        for (int i = 0; i < list->count; i++) {
            dm_position next = *pos;
            dm_make_move(v, &next, &list->moves[i]);
            nodes += reference_perft_kept(v, &next, depth - 1);
        }
    }
    free(list);
    return nodes;
}

/* What the positions walked had, to show the test reaches the rare cases. */
static struct {
    int captures, duplicates, overflows, para_captures;
} stats;

struct lists {
    dm_move_list kernel, ref;
};

/* Compares the kernel with the reference on pos; returns false (after
 * printing why) on the first difference. */
static bool check_position(const dm_variant *v, const dm_position *pos, struct lists *l, bool deep,
                           bool deeper)
{
    int kn = kernel_generate(v, pos, &l->kernel, 0);
    int rn = refgen_generate(v, pos, &l->ref, 0);
    /* The horizon's question, answered without a list. */
    int leaf = kernel_leaf(v, pos);
    int want = l->ref.count == 0 ? 0 : (l->ref.moves[0].flags & DM_MOVE_CAPTURE) ? 2 : 1;
    if (leaf != want) {
        report(v, pos, "kernel_leaf", &l->kernel, &l->ref);
        printf("  kernel_leaf: %d, expected %d\n", leaf, want);
        return false;
    }
    if (kn < 0 || rn < 0) {
        /* Cut at DM_MAX_MOVES: the two lists keep different parts. */
        if (kn >= 0 || rn >= 0) {
            report(v, pos, "overflow (duplicates merged)", &l->kernel, &l->ref);
            return false;
        }
        stats.overflows++;
        return true;
    }
    int merged = kn;
    bool same_order = same_lists(&l->kernel, &l->ref, cmp_signature);
    sort_moves(&l->kernel, cmp_signature, false);
    sort_moves(&l->ref, cmp_signature, false);
    if (kn != rn || !same_lists(&l->kernel, &l->ref, cmp_signature)) {
        report(v, pos, "move set (duplicates merged)", &l->kernel, &l->ref);
        return false;
    }
    uint64_t counted = kernel_perft(v, pos, 1, 0);
    if (counted != (uint64_t)l->kernel.count) {
        report(v, pos, "perft 1 (duplicates merged)", &l->kernel, &l->ref);
        printf("  kernel_perft: %llu\n", (unsigned long long)counted);
        return false;
    }

    kn = kernel_generate(v, pos, &l->kernel, DM_GEN_KEEP_DUPLICATES);
    rn = refgen_generate(v, pos, &l->ref, DM_GEN_KEEP_DUPLICATES);
    if (kn < 0 || rn < 0) {
        if (kn >= 0 || rn >= 0) {
            report(v, pos, "overflow (duplicates kept)", &l->kernel, &l->ref);
            return false;
        }
        stats.overflows++;
        return true;
    }
    sort_moves(&l->kernel, cmp_route, false);
    sort_moves(&l->ref, cmp_route, false);
    if (kn != rn || !same_lists(&l->kernel, &l->ref, cmp_route)) {
        report(v, pos, "routes (duplicates kept)", &l->kernel, &l->ref);
        return false;
    }
    int routes = perft_routes(v, &l->ref);
    counted = kernel_perft(v, pos, 1, DM_GEN_KEEP_DUPLICATES);
    if (counted != (uint64_t)routes) {
        report(v, pos, "perft 1 (duplicates kept)", &l->kernel, &l->ref);
        printf("  kernel_perft: %llu\n", (unsigned long long)counted);
        return false;
    }
    if (routes > 0 && (l->ref.moves[0].flags & DM_MOVE_CAPTURE))
        stats.captures++;
    for (int i = 0; i < routes; i++)
        if (has128(pos->paras, l->ref.moves[i].from)) {
            stats.para_captures++;
            break;
        }
    if (routes > merged) {
        stats.duplicates++;
    } else if (!same_order) {
        /* Without duplicates the kernel lists the moves in the reference's
         * order (others walk the list and expect it). */
        kernel_generate(v, pos, &l->kernel, 0);
        refgen_generate(v, pos, &l->ref, 0);
        report(v, pos, "move order", &l->kernel, &l->ref);
        return false;
    }

    if (!deep)
        return true;
    uint64_t k2 = kernel_perft(v, pos, 2, 0);
    uint64_t r2 = dm_perft(v, pos, 2, DM_GEN_REFERENCE);
    if (k2 != r2) {
        char fen[1024];
        dm_fen_format(v, pos, fen, sizeof fen);
        printf("%s: perft 2 differs at %s: kernel %llu, reference %llu\n", dm_variant_id(v), fen,
               (unsigned long long)k2, (unsigned long long)r2);
        return false;
    }
    if (!deeper)
        return true;
    uint64_t k3 = kernel_perft(v, pos, 3, 0);
    uint64_t r3 = dm_perft(v, pos, 3, DM_GEN_REFERENCE);
    uint64_t k3kept = kernel_perft(v, pos, 3, DM_GEN_KEEP_DUPLICATES);
    uint64_t r3kept = reference_perft_kept(v, pos, 3);
    if (k3 != r3 || k3kept != r3kept) {
        char fen[1024];
        dm_fen_format(v, pos, fen, sizeof fen);
        printf("%s: perft 3 differs at %s: kernel %llu / %llu kept, reference %llu / %llu\n",
               dm_variant_id(v), fen, (unsigned long long)k3, (unsigned long long)k3kept,
               (unsigned long long)r3, (unsigned long long)r3kept);
        return false;
    }
    return true;
}

/* A random position: a few to many pieces of each colour, many of them
 * kings, no man on its own promotion square; now and then a Frisian king
 * counter; with parachutes, some parachutists, most of them on the enemy's
 * first row, where they start. */
static void random_position(const dm_variant *v, dm_position *pos)
{
    const struct geometry *g = v->geo;
    memset(pos, 0, sizeof *pos);
    pos->side = (uint8_t)rng_below(2);
    pos->king_cell[0] = pos->king_cell[1] = DM_NO_CELL;
    int men = v->men_per_side > 0 ? v->men_per_side : g->ncells / 3;
    for (int color = 0; color < 2; color++) {
        int pieces = 1 + rng_below(men);
        /* Breakthrough: a king on the board ends the game. */
        int king_pct = v->goal == GOAL_FIRST_KING ? 0 : rng_below(100);
        int para_pct = v->parachutes ? rng_below(60) : 0;
        dm_bits drop_zone = g->rank_bb[color == DM_WHITE ? g->ranks - 1 : 0];
        for (int i = 0; i < pieces; i++) {
            int cell = rng_below(g->ncells);
            bool para = para_pct > 0 && rng_below(100) < para_pct;
            if (para && rng_below(4)) {
                int skip = rng_below(popcount128(drop_zone));
                dm_bits zone = drop_zone;
                while (skip--)
                    zone &= zone - 1;
                cell = ctz128(zone);
            }
            dm_bits bit = (dm_bits)1 << cell;
            if ((pos->white | pos->black) & bit)
                continue;
            if (para) {
                pos->paras |= bit;
            } else {
                bool king = rng_below(100) < king_pct;
                if (!king && (v->promo_bb[color] & bit))
                    continue;
                if (king)
                    pos->kings |= bit;
            }
            if (color == DM_WHITE)
                pos->white |= bit;
            else
                pos->black |= bit;
        }
        dm_bits kings = (color == DM_WHITE ? pos->white : pos->black) & pos->kings;
        if (v->frisian_king_limit && kings && rng_below(2)) {
            int skip = rng_below(popcount128(kings));
            while (skip--)
                kings &= kings - 1;
            pos->king_cell[color] = (uint8_t)ctz128(kings);
            pos->king_moves[color] = (uint8_t)(1 + rng_below(3));
        }
    }
}

static void test_variant(void **state)
{
    const dm_variant *v = *state;
    int target = tu_quick() ? 2000 : 10000;
    struct lists *l = malloc(sizeof *l);
    assert_non_null(l);
    rng_state = 0x9E3779B97F4A7C15ull ^ (uint64_t)(uintptr_t)strlen(dm_variant_id(v));
    for (const char *p = dm_variant_id(v); *p; p++)
        rng_state = rng_state * 131 + (uint64_t)(unsigned char)*p;
    if (!rng_state)
        rng_state = 1;

    int checked = 0, games = 0;
    memset(&stats, 0, sizeof stats);
    bool ok = true;
    while (ok && checked < target) {
        dm_position pos;
        dm_position_start(v, &pos);
        games++;
        for (int ply = 0; ok && ply < PLY_LIMIT && checked < target; ply++) {
            ok = check_position(v, &pos, l, true, checked % 100 == 99);
            checked++;
            if (!ok || l->ref.count == 0)
                break;
            refgen_generate(v, &pos, &l->ref, 0);
            dm_make_move(v, &pos, &l->ref.moves[rng_below(l->ref.count)]);
        }
    }
    for (int i = 0; ok && i < target; i++) {
        dm_position pos;
        random_position(v, &pos);
        ok = check_position(v, &pos, l, true, i % 100 == 99);
    }
    free(l);
    if (!ok)
        fail_msg("%s: the kernel and the reference generator differ", dm_variant_id(v));
    printf("%s: %d game positions (%d games) and %d random ones agree; %d with captures, "
           "%d with duplicate routes, %d over %d moves",
           dm_variant_id(v), checked, games, target, stats.captures, stats.duplicates,
           stats.overflows, DM_MAX_MOVES);
    if (v->parachutes)
        printf(", %d where a parachutist captures", stats.para_captures);
    printf("\n");
}

/* Whether the dark-square kernels (not the full-board ones) serve v. */
static bool dark_board(const dm_variant *v)
{
    return v->geometry == GEOM_D8 || v->geometry == GEOM_M8 || v->geometry == GEOM_D10 ||
           v->geometry == GEOM_D12;
}

/* kernel_for() serves what the issue asks for (every variant of the 8x8
 * dark squares among them), and no record with rules no kernel was
 * compiled for. */
static void test_served(void **state)
{
    (void)state;
    static const char *const fast[] = {
        "international", "antidraughts", "breakthrough", "killer",  "canadian", "brazilian",
        "russian",       "poddavki",     "pool",         "czech",   "english",  "anti-checkers",
        "spanish",       "portuguese",   "italian",      "frisian", "frysk",    "corner",
        "thai",          "one-way",      "parachute",
    };
    for (size_t i = 0; i < sizeof fast / sizeof fast[0]; i++) {
        const dm_variant *v = dm_variant_by_id(fast[i]);
        if (v && v->kernel < 0)
            fail_msg("%s has no kernel", fast[i]);
    }
    for (int i = 0; i < dm_variant_count(); i++) {
        const dm_variant *v = dm_variant_at(i);
        if ((v->geometry == GEOM_D8 || v->geometry == GEOM_M8) && v->kernel < 0)
            fail_msg("%s is played on the 8x8 dark squares but has no kernel", dm_variant_id(v));
    }

    /* One special rule at most, and pieces leaving at once only with kings
     * landing right behind them. */
    struct dm_variant copy = *dm_variant_by_id("thai");
    copy.one_way = true;
    assert_int_equal(kernel_for(&copy), -1);
    copy = *dm_variant_by_id("thai");
    copy.landing = LAND_ANY;
    assert_int_equal(kernel_for(&copy), -1);
    copy = *dm_variant_by_id("thai");
    copy.removal = REMOVE_DEFERRED;
    assert_int_equal(kernel_for(&copy), -1);
    copy = *dm_variant_by_id("parachute");
    copy.one_way = true;
    assert_int_equal(kernel_for(&copy), -1);
    copy = *dm_variant_by_id("international");
    copy.landing = LAND_ADJACENT;
    copy.removal = REMOVE_IMMEDIATE;
    assert_int_equal(kernel_for(&copy), -1);

    /* The men's directions and the run-time options are compiled in: a
     * record asking for others gets no kernel. */
    copy = *dm_variant_by_id("thai");
    copy.man_jumps = DIRS_DIAG;
    assert_int_equal(kernel_for(&copy), -1);
    copy = *dm_variant_by_id("russian");
    copy.goal = GOAL_FIRST_KING;
    assert_int_equal(kernel_for(&copy), -1);
    copy = *dm_variant_by_id("international");
    copy.frisian_king_limit = true;
    assert_int_equal(kernel_for(&copy), -1);

    /* One Way and Parachute have the Czech rules compiled in (K_CZECH). */
    copy = *dm_variant_by_id("parachute");
    copy.precedence = PREC_QUANTITY;
    assert_int_equal(kernel_for(&copy), -1);
    copy = *dm_variant_by_id("one-way");
    copy.promotion = PROMOTE_STOP;
    assert_int_equal(kernel_for(&copy), -1);
    copy = *dm_variant_by_id("one-way");
    copy.promo_bb[DM_BLACK] = copy.geo->rank_bb[0];
    assert_int_equal(kernel_for(&copy), -1);
}

int main(void)
{
    struct CMUnitTest tests[64];
    int n = 0;
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_served);
    for (int i = 0; i < dm_variant_count() && n < 64; i++) {
        const dm_variant *v = dm_variant_at(i);
        if (v->kernel < 0 || !dark_board(v))
            continue;
        tests[n++] =
            (struct CMUnitTest){dm_variant_id(v), test_variant, NULL, NULL, (void *)(uintptr_t)v};
    }
    return _cmocka_run_group_tests("kernel_diff", tests, (size_t)n, NULL, NULL);
}
