/* SPDX-License-Identifier: MIT */
/*
 * test_openings.c - the opening sets of data/openings: every variant has
 * one, every opening in it is legal and leads to a different position, and
 * English's is the ACF's 156-opening 3-move deck.
 */
#include "testutil.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_every_variant)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
