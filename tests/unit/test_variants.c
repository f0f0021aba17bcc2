/* SPDX-License-Identifier: MIT */
/*
 * test_variants.c - the variant record as the one source of per-variant
 * facts: the start position read once in the rules layer agrees with the
 * PDN FEN reader, and variant_check() turns down broken records with the
 * exact reason.
 *
 * The broken records are copies of real ones with one field spoiled, so
 * each test shows that one field alone makes the check fail.
 */
#include "testutil.h"

#include "game/game.h"
#include "rules/variant.h"

static const struct dm_variant *real(const char *id)
{
    const struct dm_variant *v = dm_variant_by_id(id);
    if (!v)
        fail_msg("no variant '%s'", id);
    return v;
}

/* dm_fen_parse(start_fen) gives exactly dm_position_start, every variant. */
static void test_start_position_is_the_fen(void **state)
{
    (void)state;
    assert_true(dm_variant_count() >= 26);
    for (int i = 0; i < dm_variant_count(); i++) {
        const dm_variant *v = dm_variant_at(i);
        dm_position want, got;
        dm_error err = {{0}};
        if (dm_fen_parse(v, dm_variant_start_fen(v), &want, &err) != 0)
            fail_msg("%s: %s", dm_variant_id(v), err.msg);
        memset(&got, 0xAB, sizeof got);
        dm_position_start(v, &got);
        if (got.white != want.white || got.black != want.black || got.kings != want.kings ||
            got.paras != want.paras || got.side != want.side ||
            got.king_cell[0] != want.king_cell[0] || got.king_cell[1] != want.king_cell[1] ||
            got.king_moves[0] != want.king_moves[0] || got.king_moves[1] != want.king_moves[1])
            fail_msg("%s: dm_position_start differs from its FEN", dm_variant_id(v));
        assert_true(dm_position_equal(&got, &want));
    }
}

/* Known squares, each numbering: Spanish 1 = h1 (Iberian, cell 31), Pool's
 * and International's 1 = the top-left square (cell 0), Parachute's P. */
static void test_start_position_cells(void **state)
{
    (void)state;
    dm_position p;
    dm_position_start(real("spanish"), &p);
    assert_true(p.white & ((dm_bits)1 << 31));
    assert_false(p.black & ((dm_bits)1 << 31));
    assert_int_equal(p.side, DM_WHITE);
    dm_position_start(real("pool"), &p);
    assert_true(p.black & 1);
    assert_int_equal(p.side, DM_BLACK);
    dm_position_start(real("international"), &p);
    assert_true(p.black & 1);
    assert_true(p.white & ((dm_bits)1 << 49));
    dm_position_start(real("parachute"), &p);
    const struct geometry *g = real("parachute")->geo;
    assert_true(p.paras & ((dm_bits)1 << g->cell_at[7][1]));  /* Pb8, White's */
    assert_true(p.white & ((dm_bits)1 << g->cell_at[7][1]));
    assert_int_equal(p.king_cell[0], DM_NO_CELL);
    assert_int_equal(p.king_cell[1], DM_NO_CELL);
}

static void test_real_records_pass(void **state)
{
    (void)state;
    for (int i = 0; i < dm_variant_count(); i++) {
        const struct dm_variant *v = dm_variant_at(i);
        char why[160] = "";
        if (!variant_check(v, why, sizeof why))
            fail_msg("%s: %s", v->id, why);
        assert_string_equal(why, "");
        assert_true(game_draw_rules_listed(v));
        assert_ptr_equal(game_draw_rules(v, DM_RULES_DEFAULT), v->draw[DM_RULES_DEFAULT]);
        assert_ptr_equal(game_draw_rules(v, DM_RULES_OFFICIAL), v->draw[DM_RULES_OFFICIAL]);
    }
}

/* Checks the copy c of a real record and expects exactly the reason want. */
static void expect_broken(const struct dm_variant *c, const char *want)
{
    char why[160] = "";
    if (variant_check(c, why, sizeof why))
        fail_msg("%s: a broken copy passed; expected \"%s\"", c->id, want);
    assert_string_equal(why, want);
}

static void test_bad_cells(void **state)
{
    (void)state;
    struct dm_variant c = *real("corner");
    c.promo_cells = "a7,b9/g1,h2";
    expect_broken(&c, "promo_cells: 'b9' is not a square of the 8x8 board");
    c.promo_cells = "a7,b8/g1,h1"; /* h1 is a light square */
    expect_broken(&c, "promo_cells: 'h1' is not a square of the 8x8 board");
    c.promo_cells = "a7,b8";
    expect_broken(&c, "promo_cells \"a7,b8\": expected White's cells/Black's cells");
    c = *real("hawaiian");
    c.opening_removals = "a8,d5,e4,h1,a8";
    expect_broken(&c, "opening_removals: 'a8' is given twice");
    c.opening_removals = "a8,";
    expect_broken(&c, "opening_removals: a comma ends the list");
    c = *real("alquerque");
    c.promo_cells = "a5/a1";
    expect_broken(&c, "promo_cells, but men are never crowned");
}

static void test_bad_start(void **state)
{
    (void)state;
    struct dm_variant c = *real("english");
    c.start_fen = "X:W21-32:B1-12";
    expect_broken(&c, "start_fen \"X:W21-32:B1-12\": expected W or B, then "
                      ":W<squares>:B<squares>");
    c.start_fen = "B:W21-32";
    expect_broken(&c, "start_fen \"B:W21-32\": no :B<squares> after the white list");
    c.start_fen = "B:W21-33:B1-12";
    expect_broken(&c, "start_fen: range '21-33' is not two square numbers in order");
    c.start_fen = "B:W21-32:B12-1";
    expect_broken(&c, "start_fen: range '12-1' is not two square numbers in order");
    c.start_fen = "B:W21-32:B1-12,5";
    expect_broken(&c, "start_fen: '5' puts a second piece on a square");
    c.start_fen = "B:W21-32:Ba1";
    expect_broken(&c, "start_fen: 'a1' is not a square of the 8x8 board");
    c.start_fen = "B:W21-32,:B1-12";
    expect_broken(&c, "start_fen: a comma ends the white list");
    c.start_fen = "B:W:B1-12";
    expect_broken(&c, "start_fen: the white list is empty");
    c.start_fen = NULL;
    expect_broken(&c, "start_fen is missing");
    c.start_fen = "B:WP21:B1-12";
    expect_broken(&c, "start_fen: 'P21' is a parachutist, but the record has no parachutes");
    c = *real("russian");
    c.start_fen = "W:Wa1,a2:Bb8"; /* a2 is a light square */
    expect_broken(&c, "start_fen: 'a2' is not a square of the 8x8 board");
    c.start_fen = "W:Wa1-c1:Bb8";
    expect_broken(&c, "start_fen: range 'a1-c1' where squares are algebraic");
    c.start_fen = "W:W1:Bb8"; /* Russian squares are algebraic */
    expect_broken(&c, "start_fen: '1' is not a square of the 8x8 board");
    c = *real("alquerque");
    c.start_fen = "W:WKa1:Be5";
    expect_broken(&c, "start_fen: 'Ka1' is a king, but the record has no king kind");
}

static void test_contradictions(void **state)
{
    (void)state;
    struct dm_variant c = *real("alquerque");
    c.king_jumps = DIRS_ALL;
    expect_broken(&c, "king_steps or king_jumps without a king kind");
    c = *real("hawaiian");
    c.promotion = PROMOTE_END_ONLY;
    expect_broken(&c, "men are crowned, but there is no king kind");
    c = *real("english");
    c.landing = LAND_ADJACENT;
    expect_broken(&c, "a landing rule for kings that do not fly");
    c = *real("frisian");
    c.precedence |= PREC_QUANTITY;
    expect_broken(&c, "precedence by quantity and by value at once");
    c = *real("international");
    c.precedence = 64;
    expect_broken(&c, "unknown precedence bits 0x40");
    c = *real("english");
    c.far_row = FAR_ROW_STUCK;
    expect_broken(&c, "a far-row rule for men that are crowned there");
    c = *real("dameo");
    c.numbering = NUM_TOP;
    expect_broken(&c, "numbered squares on the 8x8 full board, which has no numbers");
    c = *real("english");
    c.numbering = NUM_IBER;
    expect_broken(&c, "Iberian numbers on the 8x8 board (they need the mirrored 8x8)");
    c = *real("english");
    c.capture_sep = '-';
    expect_broken(&c, "quiet_sep '-' and capture_sep '-' must be two characters");
    c = *real("czech");
    c.parent = "nowhere";
    expect_broken(&c, "parent 'nowhere' is no variant of the table");
}

static void test_missing_draw_rules(void **state)
{
    (void)state;
    struct dm_variant c = *real("english");
    c.draw[DM_RULES_OFFICIAL] = NULL;
    expect_broken(&c, "no draw rules for the official preset");
    c.draw[DM_RULES_DEFAULT] = NULL;
    expect_broken(&c, "no draw rules for the default preset");
}

static void test_bad_gametype(void **state)
{
    (void)state;
    struct dm_variant c = *real("killer");
    c.gametype.from = GAMETYPE_PDN3; /* 20 is International's */
    expect_broken(&c, "GameType 20 is international's too");
    c = *real("frysk");
    c.gametype.number = 96; /* Breakthrough's */
    expect_broken(&c, "GameType 96 is breakthrough's too");
    c = *real("poddavki");
    c.gametype.number = 77;
    expect_broken(&c, "GameType 77, a relative's, is no variant's own");
    c = *real("dameo");
    c.gametype.number = 41;
    expect_broken(&c, "GameType 41 and its source 0 disagree");
    c = *real("english");
    c.gametype.capture_sep = 0;
    expect_broken(&c, "GameType 21: capture separator ' '");
    /* A number of one's own and nobody else's passes. */
    c = *real("dameo");
    c.gametype = (struct gametype){41, GAMETYPE_PDN3, 'x'};
    char why[160];
    assert_true(variant_check(&c, why, sizeof why));
}

/* A reason cut to the buffer stays a string; a zero size writes nothing. */
static void test_reason_cut(void **state)
{
    (void)state;
    struct dm_variant c = *real("english");
    c.draw[DM_RULES_OFFICIAL] = NULL;
    char why[8];
    assert_false(variant_check(&c, why, sizeof why));
    assert_string_equal(why, "no draw");
    char none = 'z';
    assert_false(variant_check(&c, &none, 0));
    assert_int_equal(none, 'z');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_position_is_the_fen),
        cmocka_unit_test(test_start_position_cells),
        cmocka_unit_test(test_real_records_pass),
        cmocka_unit_test(test_bad_cells),
        cmocka_unit_test(test_bad_start),
        cmocka_unit_test(test_contradictions),
        cmocka_unit_test(test_missing_draw_rules),
        cmocka_unit_test(test_bad_gametype),
        cmocka_unit_test(test_reason_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
