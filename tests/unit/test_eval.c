/* SPDX-License-Identifier: MIT */
/*
 * test_eval.c - the learned evaluation (src/engine/pattern.c): the window
 * layout, the fast reading of windows against a cell-by-cell reference,
 * the weight file reader, and colour symmetry of both evaluations.
 */
#include "testutil.h"

#include "base/bits.h"
#include "engine/engine.h"
#include "engine/pattern.h"
#include "rules/variant.h"

static const dm_variant *variant(const char *id)
{
    const dm_variant *v = dm_variant_by_id(id);
    assert_non_null(v);
    return v;
}

/* The cells of window w as the variant's square numbers (cell + 1). */
static void assert_window(const struct pattern_layout *l, int w, const int *squares)
{
    for (int k = 0; k < l->cells; k++)
        assert_int_equal(l->cell[w][k] + 1, squares[k]);
}

static void test_layout_10x10(void **state)
{
    (void)state;
    struct pattern_layout l;
    assert_true(pattern_layout_build(&l, variant("international")));
    /* 4 files of blocks (a-d, c-f, e-h, g-j) on 7 ranks (1-4 .. 7-10). */
    assert_int_equal(l.windows, 28);
    assert_int_equal(l.cells, 8);
    assert_int_equal(l.configs, 6561);
    assert_int_equal(l.start_pieces, 40);
    /* Window 0: files a-d, ranks 1-4: 31 32 36 37 41 42 46 47. */
    assert_window(&l, 0, (const int[]){31, 32, 36, 37, 41, 42, 46, 47});
    /* Window 1: files c-f, ranks 1-4. */
    assert_window(&l, 1, (const int[]){32, 33, 37, 38, 42, 43, 47, 48});
    /* The last: files g-j, ranks 7-10. */
    assert_window(&l, 27, (const int[]){4, 5, 9, 10, 14, 15, 19, 20});
    /* Black's reading of window 0 is White's files g-j, ranks 7-10,
     * squares 4 5 9 10 14 15 19 20 (cells 3 ..): the window turned. */
    assert_true(l.turned[0][0] == ((1ull << 3) | (1ull << 4) | (1ull << 8) | (1ull << 9) |
                                   (1ull << 13) | (1ull << 14) | (1ull << 18) | (1ull << 19)));
    assert_true(l.mask[0][1] == 0);
}

static void test_layout_8x8(void **state)
{
    (void)state;
    struct pattern_layout l;
    const dm_variant *v = variant("russian");
    assert_true(pattern_layout_build(&l, v));
    assert_int_equal(l.windows, 15); /* 3 files of blocks on 5 ranks */
    assert_int_equal(l.cells, 8);
    assert_int_equal(l.start_pieces, 24);
    /* Window 0: a1 c1 b2 d2 a3 c3 b4 d4, cells numbered from the top:
     * rank 4's b4 d4 are cells 16 17, rank 1's a1 c1 cells 28 29. */
    assert_window(&l, 0, (const int[]){17, 18, 21, 22, 25, 26, 29, 30});
    assert_int_equal(dm_square_cell(v, 0, 0), 28);
    assert_int_equal(dm_square_cell(v, 3, 3), 17);
    /* 12x12 needs both halves of a 128-bit board. */
    assert_true(pattern_layout_build(&l, variant("canadian")));
    assert_int_equal(l.windows, 45);
    bool high = false;
    for (int w = 0; w < l.windows; w++)
        high |= l.mask[w][1] != 0;
    assert_true(high);
    /* The full boards: 3x3 blocks of 9 cells. */
    assert_true(pattern_layout_build(&l, variant("turkish")));
    assert_int_equal(l.cells, 9);
    assert_int_equal(l.windows, 36);
}

static uint64_t rng = 88172645463325252ull;
static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A random position of men and kings: not always legal, which the window
 * reading does not need. */
static void random_position(const dm_variant *v, dm_position *pos)
{
    memset(pos, 0, sizeof *pos);
    int n = dm_variant_cells(v);
    for (int c = 0; c < n; c++) {
        int r = (int)(next_random() % 8);
        if (r == 0 || r == 1)
            pos->white |= BIT128(c);
        else if (r == 2 || r == 3)
            pos->black |= BIT128(c);
        if (r == 1 || r == 3)
            pos->kings |= (next_random() % 4 == 0) ? BIT128(c) : 0;
    }
    pos->side = (uint8_t)(next_random() % 2);
}

static void test_index_against_reference(void **state)
{
    (void)state;
    const char *ids[] = {"international", "english", "frisian", "canadian", "turkish", "russian"};
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
        const dm_variant *v = variant(ids[i]);
        static struct eval_tables t;
        memset(&t, 0, sizeof t);
        eval_prepare(&t, v);
        assert_true(pattern_layout_build(&t.pattern.layout, v));
        for (int k = 0; k < 2000; k++) {
            dm_position pos;
            random_position(v, &pos);
            struct pattern_features fast, slow;
            pattern_features_of(&t, &pos, &fast);
            pattern_features_slow(&t, &pos, &slow);
            for (int w = 0; w < t.pattern.layout.windows; w++) {
                assert_int_equal(fast.white[w], slow.white[w]);
                assert_int_equal(fast.black[w], slow.black[w]);
                assert_true(fast.white[w] < t.pattern.layout.configs);
            }
            for (int g = 0; g < PG_COUNT; g++)
                assert_int_equal(fast.global[g], slow.global[g]);
            assert_int_equal(fast.phase, slow.phase);
        }
    }
    /* One exact value: the start of International, window 0 (ranks 1-4,
     * files a-d) holds 8 white men: 1+3+...+3^7 = 3280; Black's reading of
     * the same window sees its own 8 men there too. */
    static struct eval_tables t;
    memset(&t, 0, sizeof t);
    const dm_variant *v = variant("international");
    eval_prepare(&t, v);
    assert_true(pattern_layout_build(&t.pattern.layout, v));
    struct pattern_features f;
    pattern_features_of(&t, &v->start, &f);
    assert_int_equal(f.white[0], 3280);
    assert_int_equal(f.black[0], 3280);
    /* Ranks 4-7 (window 3*4): rank 4 white, rank 7 black, 5-6 empty. */
    assert_int_equal(f.white[12], 2 * (1 + 3) + (729 + 2187));
    assert_int_equal(f.global[PG_MAN], 0);
    assert_int_equal(f.global[PG_TEMPO], 1);
    assert_int_equal(f.phase, 40);
}

/* A weight file for layout l of v with weights from a fixed sequence,
 * in memory (malloc's alignment); *size its length. */
/* A weight file of random windows; without shape, the runaway and locked
 * terms weigh nothing. */
static unsigned char *make_file_of(const dm_variant *v, const struct pattern_layout *l, bool shape,
                                   size_t *size)
{
    size_t nw = (size_t)l->windows * (size_t)l->configs * 2;
    int16_t *window = malloc(nw * sizeof *window);
    assert_non_null(window);
    for (size_t i = 0; i < nw; i++)
        window[i] = (int16_t)((int)(next_random() % 801) - 400);
    int16_t global[PG_COUNT * 2] = {800, 790, 2400, 2300, 300, 500, 40, 0, -64, -32};
    if (!shape)
        global[2 * PG_RUNAWAY] = global[2 * PG_RUNAWAY + 1] = global[2 * PG_LOCKED] =
            global[2 * PG_LOCKED + 1] = 0;
    struct pattern_header h = {v->id, eval_family_name(v), 12, 345, "2026-12-02", "test", false};
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(pattern_weights_write(f, &h, l, global, window), 0);
    long len = ftell(f);
    rewind(f);
    unsigned char *data = malloc((size_t)len);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    free(window);
    *size = (size_t)len;
    return data;
}

static unsigned char *make_file(const dm_variant *v, const struct pattern_layout *l, size_t *size)
{
    return make_file_of(v, l, true, size);
}

static void assert_read_fails(const unsigned char *data, size_t size, const dm_variant *v,
                              const struct pattern_layout *l, const char *want)
{
    struct pattern_weights w;
    char why[200] = "";
    assert_int_equal(pattern_weights_read(data, size, v, l, &w, why, sizeof why), -1);
    if (!strstr(why, want))
        fail_msg("error \"%s\" does not say \"%s\"", why, want);
}

static void test_weight_file_reader(void **state)
{
    (void)state;
    const dm_variant *v = variant("international");
    struct pattern_layout l;
    assert_true(pattern_layout_build(&l, v));
    size_t size;
    unsigned char *data = make_file(v, &l, &size);
    struct pattern_weights w;
    char why[200];
    assert_int_equal(pattern_weights_read(data, size, v, &l, &w, why, sizeof why), 0);
    assert_int_equal(w.global[PG_KING][0], 2400);
    assert_int_equal(w.global[PG_LOCKED][1], -32);
    assert_true((const unsigned char *)w.window - data ==
                (ptrdiff_t)(size - (size_t)l.windows * (size_t)l.configs * 4));
    /* Malformed files. */
    assert_read_fails((const unsigned char *)"hello", 5, v, &l, "not a weight file");
    assert_read_fails(data, size - 2, v, &l, "bytes of weights, expected");
    assert_read_fails(data, 200, v, &l, "no valid \"data\" line");
    assert_read_fails(data, size, variant("frisian"), &l,
                      "weights for variant \"international\", not frisian");
    struct pattern_layout other;
    assert_true(pattern_layout_build(&other, variant("russian")));
    unsigned char *copy = malloc(size);
    assert_non_null(copy);
    memcpy(copy, data, size);
    char *version = strstr((char *)copy, "weights 1");
    assert_non_null(version);
    version[8] = '7';
    assert_read_fails(copy, size, v, &l, "layout version 7, this build reads 1");
    memcpy(copy, data, size);
    char *cells = strstr((char *)copy, "\ncells 8");
    assert_non_null(cells);
    cells[7] = '9';
    assert_read_fails(copy, size, v, &l, "windows/cells do not match");
    memcpy(copy, data, size);
    char *base = strstr((char *)copy, "\nbase none");
    assert_non_null(base);
    base[6] = 'X';
    assert_read_fails(copy, size, v, &l, "no \"base\" line (hand or none)");
    memcpy(copy, data, size);
    base = strstr((char *)copy, "\nbase none");
    memcpy(base + 6, "hand", 4);
    assert_int_equal(pattern_weights_read(copy, size, v, &l, &w, why, sizeof why), 0);
    assert_true(w.on_hand);
    memcpy(copy, data, size);
    char *off = strstr((char *)copy, "\ndata ");
    assert_non_null(off);
    off[6] = '9'; /* an offset that is no multiple of the alignment */
    assert_read_fails(copy, size, v, &l, "no valid \"data\" line");
    free(copy);
    free(data);
}

/* pos with colours swapped and the board turned half round. */
static void mirror(const dm_variant *v, const dm_position *pos, dm_position *out)
{
    int n = dm_variant_cells(v);
    memset(out, 0, sizeof *out);
    for (int c = 0; c < n; c++) {
        int t = n - 1 - c;
        if (has128(pos->white, c))
            out->black |= BIT128(t);
        if (has128(pos->black, c))
            out->white |= BIT128(t);
        if (has128(pos->kings, c))
            out->kings |= BIT128(t);
    }
    out->side = pos->side ^ 1;
    out->king_cell[0] = out->king_cell[1] = DM_NO_CELL;
}

static void test_colour_symmetry(void **state)
{
    (void)state;
    const char *ids[] = {"international", "english", "russian", "frisian", "canadian"};
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
        const dm_variant *v = variant(ids[i]);
        static struct eval_tables t;
        memset(&t, 0, sizeof t);
        eval_prepare(&t, v);
        assert_true(pattern_layout_build(&t.pattern.layout, v));
        size_t size;
        unsigned char *data = make_file(v, &t.pattern.layout, &size);
        char why[200];
        assert_int_equal(
            pattern_weights_read(data, size, v, &t.pattern.layout, &t.pattern.w, why, sizeof why),
            0);
        int nonzero = 0;
        for (int k = 0; k < 1000; k++) {
            dm_position pos, flipped;
            random_position(v, &pos);
            mirror(v, &pos, &flipped);
            t.pattern.on = true;
            t.pattern.w.on_hand = k % 2 == 1;
            int a = eval_position(&t, &pos), b = eval_position(&t, &flipped);
            assert_int_equal(a, b);
            nonzero += a != 0;
            t.pattern.on = false;
            assert_int_equal(eval_position(&t, &pos), eval_position(&t, &flipped));
        }
        assert_true(nonzero > 900);
        free(data);
    }
}

/* The score of a position from its features and the weights, by the
 * formula of pattern.h, against pattern_evaluate: with the runaway and
 * locked terms, and without them (then not read at all). */
static void test_score_formula(void **state)
{
    (void)state;
    const dm_variant *v = variant("international");
    static struct eval_tables t;
    memset(&t, 0, sizeof t);
    eval_prepare(&t, v);
    assert_true(pattern_layout_build(&t.pattern.layout, v));
    const struct pattern_layout *l = &t.pattern.layout;
    for (int shape = 1; shape >= 0; shape--) {
        size_t size;
        unsigned char *data = make_file_of(v, l, shape, &size);
        char why[200];
        assert_int_equal(pattern_weights_read(data, size, v, l, &t.pattern.w, why, sizeof why), 0);
        assert_int_equal(t.pattern.w.shape, shape);
        t.pattern.on = true;
        for (int k = 0; k < 500; k++) {
            dm_position pos;
            random_position(v, &pos);
            struct pattern_features f;
            pattern_features_slow(&t, &pos, &f);
            long mg = 0, eg = 0;
            for (int w = 0; w < l->windows; w++) {
                const int16_t *tab = t.pattern.w.window + (size_t)w * (size_t)l->configs * 2;
                mg += tab[2 * f.white[w]] - tab[2 * f.black[w]];
                eg += tab[2 * f.white[w] + 1] - tab[2 * f.black[w] + 1];
            }
            for (int g = 0; g < PG_COUNT; g++) {
                mg += t.pattern.w.global[g][0] * f.global[g];
                eg += t.pattern.w.global[g][1] * f.global[g];
            }
            long s = (mg * f.phase + eg * (40 - f.phase)) / (40 * PATTERN_UNIT);
            if (pos.side == DM_BLACK)
                s = -s;
            assert_int_equal(pattern_evaluate(&t, &pos), s);
        }
        free(data);
    }
}

/* The embedded weights are read once for both sides (pattern_weights.net):
 * the score is the one of reading every window twice, on every board size. */
static void test_net_reading(void **state)
{
    (void)state;
    int checked = 0;
    for (int i = 0; i < dm_variant_count(); i++) {
        const dm_variant *v = dm_variant_at(i);
        static struct eval_tables t;
        memset(&t, 0, sizeof t);
        eval_prepare(&t, v);
        if (!t.pattern.on)
            continue;
        assert_non_null(t.pattern.w.net);
        checked++;
        const int16_t *net = t.pattern.w.net;
        for (int k = 0; k < 2000; k++) {
            dm_position pos;
            random_position(v, &pos);
            int once = pattern_evaluate(&t, &pos);
            t.pattern.w.net = NULL;
            int twice = pattern_evaluate(&t, &pos);
            t.pattern.w.net = net;
            assert_int_equal(once, twice);
        }
    }
    assert_true(checked >= 2);
}

/* The variants with a committed weight file use it; the others keep the
 * hand-set evaluation. */
static void test_embedded_weights(void **state)
{
    (void)state;
    for (int i = 0; i < dm_variant_count(); i++) {
        const dm_variant *v = dm_variant_at(i);
        size_t size;
        const unsigned char *data = pattern_embedded(v->id, &size);
        static struct eval_tables t;
        memset(&t, 0, sizeof t);
        eval_prepare(&t, v);
        assert_int_equal(t.pattern.on, data != NULL);
    }
    size_t size;
    assert_null(pattern_embedded("no-such-variant", &size));
}

/* The trainer's weights (eval_prepare_weights): the family's own give the
 * family's scores, and one weight changed moves the score by exactly that
 * weight's term. */
static void test_tuned_weights(void **state)
{
    (void)state;
    static struct eval_tables family, tuned;
    const char *ids[] = {"english", "international", "frisian", "turkish"};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        const dm_variant *v = variant(ids[i]);
        memset(&family, 0, sizeof family);
        memset(&tuned, 0, sizeof tuned);
        eval_prepare(&family, v);
        struct eval_weights w = *eval_family_weights(v);
        eval_prepare_weights(&tuned, v, &w);
        for (int k = 0; k < 300; k++) {
            dm_position pos;
            random_position(v, &pos);
            assert_int_equal(eval_hand(&tuned, &pos), eval_hand(&family, &pos));
        }
    }
    /* English: White's man on 29 stands on its back row, Black's men do
     * not; no kings, so nothing scales the difference. */
    const dm_variant *v = variant("english");
    memset(&family, 0, sizeof family);
    eval_prepare(&family, v);
    struct eval_weights w = *eval_family_weights(v);
    w.back_rank += 10;
    memset(&tuned, 0, sizeof tuned);
    eval_prepare_weights(&tuned, v, &w);
    dm_position pos;
    tu_position(v, "W:W29,22:B10,14", &pos);
    assert_int_equal(eval_hand(&tuned, &pos), eval_hand(&family, &pos) + 10);
    tu_position(v, "B:W29,22:B10,14", &pos);
    assert_int_equal(eval_hand(&tuned, &pos), eval_hand(&family, &pos) - 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_10x10),
        cmocka_unit_test(test_layout_8x8),
        cmocka_unit_test(test_index_against_reference),
        cmocka_unit_test(test_weight_file_reader),
        cmocka_unit_test(test_colour_symmetry),
        cmocka_unit_test(test_score_formula),
        cmocka_unit_test(test_net_reading),
        cmocka_unit_test(test_embedded_weights),
        cmocka_unit_test(test_tuned_weights),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
