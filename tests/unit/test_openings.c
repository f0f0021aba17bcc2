/* SPDX-License-Identifier: MIT */
/*
 * test_openings.c - the opening sets of data/openings: every variant has
 * one, every opening in it is legal and leads to a different position, and
 * English's is the ACF's 156-opening 3-move deck.  And the generator's
 * test of games (openings_generate with results), on sets of two openings
 * whose games take a thousand nodes a move.
 */
#include "testutil.h"

#include <unistd.h>

#include "match/match.h"

static void test_every_variant(void **state)
{
    (void)state;
    const char *root = tu_env("DAMIER_DATA", "data");
    for (int i = 0; i < dm_variant_count(); i++) {
        const dm_variant *v = dm_variant_at(i);
        char path[512], why[300];
        snprintf(path, sizeof path, "%s/openings/%s.txt", root, dm_variant_id(v));
        struct opening *list;
        int n = openings_read(path, v, &list, why, sizeof why);
        if (n < 0)
            fail_msg("%s", why);
        if (strcmp(dm_variant_id(v), "english") == 0)
            assert_int_equal(n, 156);
        else if (n < 20)
            fail_msg("%s: only %d openings", path, n);
        /* No two openings reach the same position. */
        dm_position *pos = calloc((size_t)n, sizeof *pos);
        assert_non_null(pos);
        for (int k = 0; k < n; k++) {
            dm_position_start(v, &pos[k]);
            char copy[256];
            snprintf(copy, sizeof copy, "%s", list[k].moves);
            for (char *save, *m = strtok_r(copy, " ", &save); m; m = strtok_r(NULL, " ", &save))
                tu_play(v, &pos[k], m, 0);
            for (int j = 0; j < k; j++)
                if (dm_position_equal(&pos[j], &pos[k]))
                    fail_msg("%s: openings %d and %d reach the same position", path, j + 1, k + 1);
        }
        free(pos);
        free(list);
    }
}

/* What openings_generate writes for o, malloc'ed; its report in r and the
 * openings it writes read back (each checked legal) into *list. */
static char *generate(const struct openings_options *o, struct openings_report *r,
                      struct opening **list, int *n)
{
    char path[] = "/tmp/damier-openings-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w+");
    assert_non_null(f);
    int kept = openings_generate(f, o, r);
    assert_int_equal(kept, r->kept);
    long size = ftell(f);
    char *text = calloc((size_t)size + 1, 1);
    assert_non_null(text);
    rewind(f);
    assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    char why[300];
    *list = NULL;
    *n = kept ? openings_read(path, o->variant, list, why, sizeof why) : 0;
    unlink(path);
    if (*n < 0)
        fail_msg("%s", why);
    assert_int_equal(*n, kept);
    return text;
}

/* A band that keeps every result: the walks kept are those of the search
 * alone (the games draw from a generator of their own), each played out
 * and counted, and the same seed gives the same set. */
static void test_results_counted(void **state)
{
    (void)state;
    struct openings_options o = {.variant = tu_variant("one-way"), .count = 2, .plies = 8,
                                 .seed = 3};
    struct openings_report r;
    struct opening *plain, *list;
    int n_plain, n;
    char *text_plain = generate(&o, &r, &plain, &n_plain);
    assert_int_equal(n_plain, 2);
    o.results = 3;
    o.game_nodes = 1000;
    o.band_low = 0;
    o.band_high = 100;
    char *text = generate(&o, &r, &list, &n);
    assert_int_equal(n, 2);
    for (int k = 0; k < n; k++)
        assert_string_equal(list[k].moves, plain[k].moves);
    assert_int_equal(r.played, 2);
    assert_int_equal(r.balanced, 2);
    assert_int_equal(r.white_wins + r.draws + r.black_wins, 2 * 3);
    struct openings_report again;
    struct opening *list2;
    int n2;
    char *text2 = generate(&o, &again, &list2, &n2);
    assert_string_equal(text, text2);
    assert_memory_equal(&r, &again, sizeof r);
    free(text_plain);
    free(text);
    free(text2);
    free(plain);
    free(list);
    free(list2);
}

/* A band: every opening kept has White's score in it, so their games
 * together have too. */
static void test_results_band(void **state)
{
    (void)state;
    struct openings_options o = {.variant = tu_variant("one-way"), .count = 2, .plies = 20,
                                 .seed = 1, .tries = 400, .results = 4, .game_nodes = 1000,
                                 .band_low = 25, .band_high = 75};
    struct openings_report r;
    struct opening *list;
    int n;
    char *text = generate(&o, &r, &list, &n);
    assert_true(n >= 1);
    assert_true(r.played >= n && r.balanced >= r.played && r.walks <= r.max_walks);
    int games = r.white_wins + r.draws + r.black_wins, points = 2 * r.white_wins + r.draws;
    assert_int_equal(games, 4 * n);
    assert_true(100 * points >= 25 * 2 * games && 100 * points <= 75 * 2 * games);
    free(text);
    free(list);
}

/* A band no score of three games falls in (they score in sixths): nothing
 * is kept, and the generator stops at its limit of walks. */
static void test_results_give_up(void **state)
{
    (void)state;
    struct openings_options o = {.variant = tu_variant("one-way"), .count = 2, .plies = 8,
                                 .seed = 1, .tries = 10, .results = 3, .game_nodes = 1000,
                                 .band_low = 40, .band_high = 45};
    struct openings_report r;
    struct opening *list;
    int n;
    char *text = generate(&o, &r, &list, &n);
    assert_int_equal(n, 0);
    assert_string_equal(text, "");
    assert_int_equal(r.max_walks, 20);
    assert_int_equal(r.walks, 20);
    assert_int_equal(r.played, r.balanced);
    assert_int_equal(r.white_wins + r.draws + r.black_wins, 0);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_every_variant),
                                       cmocka_unit_test(test_results_counted),
                                       cmocka_unit_test(test_results_band),
                                       cmocka_unit_test(test_results_give_up)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
