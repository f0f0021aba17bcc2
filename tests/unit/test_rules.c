/* SPDX-License-Identifier: MIT */
/*
 * test_rules.c - the legal move sets of the rules case files, and the rules
 * that no single position can show.
 *
 * Each tests/rules/<variant>.txt (the folder comes from DAMIER_TESTS, default
 * "tests") holds cases worked out by hand from the rulebooks (docs/variants.md
 * names them; each case says where it comes from):
 *
 *   # where the case comes from
 *   fen: W:Wb6:Bc7,f6
 *   moves: b6:d8:g5 b6:d8:h4        (or "none")
 *   promotes: b6:d8:g5 b6:d8:h4     (optional; or "none")
 *   keep-duplicates: yes            (optional)
 *   variant: brazilian              (optional; default: the file name)
 *
 * A case passes when every expected move text names, through dm_move_parse,
 * a distinct legal move and the counts agree, both with the variant's own
 * generator and with the reference generator; with a promotes line, exactly
 * the listed moves end as a king.  A "variant:" line before the first case
 * sets the variant of the whole file; a file whose variant the table does
 * not have (yet) is skipped with a SKIP line.  A case's own "variant:"
 * naming no variant is a typo and fails.
 *
 * The C tests below cover what a list of moves cannot say: Frisian's
 * same-king limit as dm_make_move counts it over a sequence of moves, who
 * wins when no move is left, the position a move leaves, and that the case
 * checker itself catches a wrong expectation.
 */
#include "testutil.h"

enum { FIELD = 4096 };

struct rcase {
    int line;             /* of the fen: line                          */
    char fen[512];
    char variant[64];     /* "" : the variant the file is named after  */
    char moves[FIELD];
    char promotes[FIELD];
    bool has_moves, has_promotes, keep_duplicates;
};

/* The checker's self-test silences the report of the failures it expects. */
static bool quiet;

struct rfile {
    char path[1024];
    char name[256];       /* "english.txt"                             */
    char id[256];         /* "english", or the file's "variant:" line  */
};

/* The rules folder: $DAMIER_TESTS/rules. */
static void rules_dir(char *buf, size_t size)
{
    snprintf(buf, size, "%s/rules", tu_env("DAMIER_TESTS", "tests"));
}

/* Copies value into field, failing on overflow so that a long line is
 * never silently cut. */
static bool set_field(char *field, size_t size, const char *value)
{
    if (strlen(value) >= size)
        return false;
    strcpy(field, value);
    return true;
}

/*
 * Reads the cases of one file.  Returns the number of format errors (each
 * printed with its line); *cases is malloc'ed.
 */
static int read_cases(struct rfile *f, struct rcase **cases, int *ncases)
{
    FILE *in = fopen(f->path, "r");
    *cases = NULL;
    *ncases = 0;
    if (!in) {
        printf("FAIL %s: cannot open\n", f->path);
        return 1;
    }
    int errors = 0, cap = 0, lineno = 0;
    char raw[2 * FIELD];
    struct rcase *c = NULL;
    while (fgets(raw, sizeof raw, in)) {
        lineno++;
        if (!strchr(raw, '\n') && !feof(in)) {
            printf("FAIL %s:%d: line longer than %d characters\n", f->name, lineno,
                   (int)sizeof raw - 2);
            errors++;
            int ch;
            while ((ch = fgetc(in)) != EOF && ch != '\n')
                ;
            continue;
        }
        char *line = tu_trim(raw);
        if (*line == '\0' || *line == '#')
            continue;
        char *colon = strchr(line, ':');
        if (!colon) {
            printf("FAIL %s:%d: expected 'key: value', found '%s'\n", f->name, lineno, line);
            errors++;
            continue;
        }
        *colon = '\0';
        char *key = tu_trim(line), *value = tu_trim(colon + 1);
        if (strcmp(key, "fen") == 0) {
            if (*ncases == cap) {
                cap = cap ? 2 * cap : 16;
                struct rcase *grown = realloc(*cases, (size_t)cap * sizeof **cases);
                assert_non_null(grown);
                *cases = grown;
            }
            c = &(*cases)[(*ncases)++];
            memset(c, 0, sizeof *c);
            c->line = lineno;
            if (!set_field(c->fen, sizeof c->fen, value)) {
                printf("FAIL %s:%d: FEN too long\n", f->name, lineno);
                errors++;
            }
            continue;
        }
        if (!c && strcmp(key, "variant") == 0) {
            /* The variant of the whole file. */
            if (!set_field(f->id, sizeof f->id, value)) {
                printf("FAIL %s:%d: variant name too long\n", f->name, lineno);
                errors++;
            }
            continue;
        }
        if (!c) {
            printf("FAIL %s:%d: '%s:' before the first 'fen:'\n", f->name, lineno, key);
            errors++;
            continue;
        }
        bool ok = true, repeated = false;
        if (strcmp(key, "moves") == 0) {
            repeated = c->has_moves;
            c->has_moves = true;
            ok = set_field(c->moves, sizeof c->moves, value);
        } else if (strcmp(key, "promotes") == 0) {
            repeated = c->has_promotes;
            c->has_promotes = true;
            ok = set_field(c->promotes, sizeof c->promotes, value);
        } else if (strcmp(key, "keep-duplicates") == 0) {
            if (strcmp(value, "yes") != 0 && strcmp(value, "no") != 0) {
                printf("FAIL %s:%d: keep-duplicates: expects yes or no\n", f->name, lineno);
                errors++;
            }
            c->keep_duplicates = strcmp(value, "yes") == 0;
        } else if (strcmp(key, "variant") == 0) {
            repeated = c->variant[0] != '\0';
            ok = set_field(c->variant, sizeof c->variant, value);
        } else {
            printf("FAIL %s:%d: unknown key '%s' (fen, moves, promotes, keep-duplicates, "
                   "variant)\n",
                   f->name, lineno, key);
            errors++;
            continue;
        }
        if (!ok || repeated) {
            printf("FAIL %s:%d: '%s:' %s\n", f->name, lineno, key,
                   repeated ? "given twice in one case" : "too long");
            errors++;
        }
    }
    fclose(in);
    for (int i = 0; i < *ncases; i++)
        if (!(*cases)[i].has_moves) {
            printf("FAIL %s:%d: case without a 'moves:' line\n", f->name, (*cases)[i].line);
            errors++;
        }
    return errors;
}

/* printf, unless the self-test asked for quiet. */
__attribute__((format(printf, 1, 2))) static void report(const char *fmt, ...)
{
    if (quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

/* Splits a blank-separated list in place; "none" alone is the empty list. */
static int split_words(char *text, char **words, int max)
{
    int n = 0;
    for (char *w = strtok(text, " \t"); w; w = strtok(NULL, " \t")) {
        if (n == max)
            return -1;
        words[n++] = w;
    }
    if (n == 1 && strcmp(words[0], "none") == 0)
        return 0;
    return n;
}

/*
 * Checks one case with one set of generator flags.  Prints what is wrong,
 * prefixed by where, and returns whether the case holds.
 */
static bool check_case(const dm_variant *v, const struct rcase *c, unsigned flags,
                       const char *where)
{
    static dm_move_list list;
    static char words_buf[FIELD], text[2 * FIELD];
    char *words[DM_MAX_MOVES];
    bool used[DM_MAX_MOVES] = {false}, promo[DM_MAX_MOVES] = {false};
    dm_position pos;
    dm_error err;
    bool ok = true;
    const char *gen = (flags & DM_GEN_REFERENCE) ? "reference generator" : "generator";

    if (dm_fen_parse(v, c->fen, &pos, &err) != 0) {
        report("FAIL %s %s: FEN rejected: %s\n", where, c->fen, err.msg);
        return false;
    }
    int count = dm_generate(v, &pos, &list, flags);
    if (count < 0) {
        report("FAIL %s %s: more than %d legal moves\n", where, c->fen, DM_MAX_MOVES);
        return false;
    }

    strcpy(words_buf, c->moves);
    int n = split_words(words_buf, words, DM_MAX_MOVES);
    if (n < 0) {
        report("FAIL %s: too many expected moves\n", where);
        return false;
    }
    for (int i = 0; i < n; i++) {
        int at = dm_move_parse(v, &list, words[i], &err);
        if (at < 0) {
            report("FAIL %s %s (%s): expected %s is not legal: %s\n", where, c->fen, gen,
                   words[i], err.msg);
            ok = false;
        } else if (used[at]) {
            report("FAIL %s %s (%s): %s names a move listed before\n", where, c->fen, gen,
                   words[i]);
            ok = false;
        } else {
            used[at] = true;
        }
    }
    if (n != list.count) {
        report("FAIL %s %s (%s): %d moves expected, %d legal\n", where, c->fen, gen, n,
               list.count);
        ok = false;
    }

    if (ok && c->has_promotes) {
        strcpy(words_buf, c->promotes);
        int np = split_words(words_buf, words, DM_MAX_MOVES);
        for (int i = 0; i < np; i++) {
            int at = dm_move_parse(v, &list, words[i], &err);
            if (at < 0) {
                report("FAIL %s %s (%s): promotes: %s: %s\n", where, c->fen, gen, words[i],
                       err.msg);
                ok = false;
            } else {
                promo[at] = true;
            }
        }
        for (int i = 0; ok && i < list.count; i++) {
            bool crowned = (list.moves[i].flags & DM_MOVE_PROMOTES) != 0;
            if (crowned != promo[i]) {
                char m[160];
                dm_move_format(v, &list.moves[i], &list, m, sizeof m);
                report("FAIL %s %s (%s): %s %s\n", where, c->fen, gen, m,
                       crowned ? "promotes, but should not" : "should promote, but does not");
                ok = false;
            }
        }
    }
    if (!ok) {
        tu_moves_text(v, &list, text, sizeof text);
        report("     expected: %s%s%s\n     legal:    %s\n", c->moves,
               c->has_promotes ? "  promotes: " : "", c->has_promotes ? c->promotes : "",
               text);
    }
    return ok;
}

/* Runs a case with the variant's generator and the reference one. */
static bool run_case(const struct rfile *f, const struct rcase *c)
{
    const char *id = c->variant[0] ? c->variant : f->id;
    const dm_variant *v = dm_variant_by_id(id);
    char where[400];
    snprintf(where, sizeof where, "%s:%d", f->name, c->line);
    if (!v) {
        /* An explicit variant: line naming no variant is a typo, not a
         * variant still to come (those are whole files, skipped). */
        printf("FAIL %s: variant '%s' is not in the table\n", where, id);
        return false;
    }
    unsigned base = c->keep_duplicates ? DM_GEN_KEEP_DUPLICATES : 0u;
    bool ok = check_case(v, c, base, where);
    ok = check_case(v, c, base | DM_GEN_REFERENCE, where) && ok;
    return ok;
}

static void test_rules_file(void **state)
{
    struct rfile *f = *state;
    struct rcase *cases;
    int ncases;
    int failed = read_cases(f, &cases, &ncases);
    if (!dm_variant_by_id(f->id)) {
        printf("SKIP %s: variant not in the table\n", f->name);
        free(cases);
        skip();
        return;
    }
    for (int i = 0; i < ncases; i++)
        if (!run_case(f, &cases[i]))
            failed++;
    printf("%s: %d cases, %d failed\n", f->name, ncases, failed);
    fflush(stdout); /* before cmocka's report on stderr */
    free(cases);
    if (ncases == 0)
        fail_msg("%s holds no case", f->name);
    if (failed)
        fail_msg("%s: %d case(s) failed", f->name, failed);
}

/* ---- the checker itself -------------------------------------------------- */

/* A case checker that accepts everything would pass every file: each of
 * these expectations is wrong and must be caught.  The position is the
 * English example (pydraughts-checked): Black's 23x30 is the only move and it crowns. */
static void test_checker_catches_wrong_cases(void **state)
{
    (void)state;
    const dm_variant *v = tu_variant("english");
    struct rcase c;
    quiet = true;
    memset(&c, 0, sizeof c);
    strcpy(c.fen, "B:W25,26:B23");
    c.has_moves = true;

    strcpy(c.moves, "23x30");
    assert_true(check_case(v, &c, 0, "self-test (right)"));

    strcpy(c.moves, "none");
    assert_false(check_case(v, &c, 0, "self-test (missing move, expected)"));
    strcpy(c.moves, "23x30 23-27");
    assert_false(check_case(v, &c, 0, "self-test (extra move, expected)"));
    strcpy(c.moves, "23x30 23x30");
    assert_false(check_case(v, &c, 0, "self-test (same move twice, expected)"));

    strcpy(c.moves, "23x30");
    c.has_promotes = true;
    strcpy(c.promotes, "none");
    assert_false(check_case(v, &c, 0, "self-test (missed crowning, expected)"));
    strcpy(c.promotes, "23x30");
    assert_true(check_case(v, &c, 0, "self-test (crowning)"));

    /* Two routes 22-15-6 and 22-13-6: "22x6" names both. */
    memset(&c, 0, sizeof c);
    strcpy(c.fen, "W:W22:B9,10,17,18");
    c.has_moves = true;
    strcpy(c.moves, "22x6 22x13x6");
    assert_false(check_case(v, &c, 0, "self-test (ambiguous text, expected)"));
    quiet = false;
}

/* Every variant of the table has a rules file with cases. */
static void test_every_variant_has_cases(void **state)
{
    (void)state;
    char dir[1024];
    rules_dir(dir, sizeof dir);
    int missing = 0;
    for (int i = 0; i < dm_variant_count(); i++) {
        const char *id = dm_variant_id(dm_variant_at(i));
        char path[1200];
        snprintf(path, sizeof path, "%s/%s.txt", dir, id);
        FILE *f = fopen(path, "r");
        if (!f) {
            printf("FAIL variant %s has no %s\n", id, path);
            missing++;
            continue;
        }
        fclose(f);
    }
    assert_int_equal(missing, 0);
}

/* ---- rules a FEN cannot carry -------------------------------------------- */

/* Plays the move written text from pos, failing if it is not legal; the
 * reference generator is the one these rules are checked against. */
static void play(const dm_variant *v, dm_position *pos, const char *text)
{
    tu_play(v, pos, text, DM_GEN_REFERENCE);
}

/* Whether the move text is legal in pos, by both generators (which must
 * agree). */
static bool legal(const dm_variant *v, const dm_position *pos, const char *text)
{
    static dm_move_list list;
    dm_error err;
    dm_generate(v, pos, &list, 0);
    bool fast = dm_move_parse(v, &list, text, &err) >= 0;
    dm_generate(v, pos, &list, DM_GEN_REFERENCE);
    bool ref = dm_move_parse(v, &list, text, &err) >= 0;
    assert_true(fast == ref);
    return ref;
}

/*
 * Frisian rules (lidraughts): while a player has men, one king makes at most three quiet
 * moves in a row; then it may only capture, and a man move or another king's
 * move resets the count.
 *
 * White: man 46 (a1), king 50 (i1), shuttling 50-45-50-45 (i1, j2).  Black:
 * king 6 (a9) shuttling 6-1-6-1 (a9, b10), man 5 (j10).  Every line between
 * the pieces ends at the board's edge, so no capture arises.
 */
static void test_frisian_same_king_limit(void **state)
{
    (void)state;
    const dm_variant *v = tu_variant("frisian");
    dm_position pos;
    tu_position(v, "W:W46,K50:BK6,5", &pos);

    play(v, &pos, "50-45"); /* this king's 1st quiet move */
    play(v, &pos, "6-1");
    play(v, &pos, "45-50"); /* 2nd */
    play(v, &pos, "1-6");
    play(v, &pos, "50-45"); /* 3rd */
    play(v, &pos, "6-1");   /* Black's king has made three too */
    assert_false(legal(v, &pos, "45-50"));
    assert_false(legal(v, &pos, "45-40"));
    assert_true(legal(v, &pos, "46-41")); /* the man may move */
    play(v, &pos, "46-41");
    assert_false(legal(v, &pos, "1-6"));
    assert_true(legal(v, &pos, "5-10"));
    play(v, &pos, "5-10");

    /* White's man move reset the count: three more, then stuck again. */
    play(v, &pos, "45-50");
    assert_true(legal(v, &pos, "10-15") || legal(v, &pos, "10-14"));
    play(v, &pos, "10-14"); /* Black's man move frees its king */
    play(v, &pos, "50-45");
    play(v, &pos, "1-6");
    play(v, &pos, "45-50");
    play(v, &pos, "6-1");
    assert_false(legal(v, &pos, "50-45"));
    assert_true(legal(v, &pos, "41-37"));
}

/*
 * A move by another king resets the count (the other king starts at 1); a
 * king that reached the limit may still capture; a side without men has no
 * limit.
 */
static void test_frisian_other_king_capture_no_men(void **state)
{
    (void)state;
    const dm_variant *v = tu_variant("frisian");
    dm_position pos;

    /* A second White king on 30 (i5). */
    tu_position(v, "W:W46,K50,K30:BK6,5", &pos);
    play(v, &pos, "50-45");
    play(v, &pos, "6-1");
    play(v, &pos, "45-50");
    play(v, &pos, "1-6");
    play(v, &pos, "50-45");
    play(v, &pos, "6-1");
    assert_false(legal(v, &pos, "45-50"));
    play(v, &pos, "30-25"); /* the other king moves: 45's run is over */
    play(v, &pos, "5-10");
    assert_true(legal(v, &pos, "45-50"));

    /* After its third move the king at 45 (j2) may still capture: Black's
     * man 13-18 (f8-e7) stands on its diagonal with d8, c9, b10 free. */
    tu_position(v, "W:W46,K50:BK6,5,13", &pos);
    play(v, &pos, "50-45");
    play(v, &pos, "6-1");
    play(v, &pos, "45-50");
    play(v, &pos, "1-6");
    play(v, &pos, "50-45");
    play(v, &pos, "13-18");
    assert_true(legal(v, &pos, "45x12"));
    assert_true(legal(v, &pos, "45x1"));

    /* No White man: the same king moves a fourth time. */
    tu_position(v, "W:WK50:BK6,5", &pos);
    const char *shuttle[] = {"50-45", "6-1", "45-50", "1-6", "50-45", "6-1"};
    for (size_t i = 0; i < sizeof shuttle / sizeof shuttle[0]; i++)
        play(v, &pos, shuttle[i]);
    assert_true(legal(v, &pos, "45-50"));
}

/* No move loses (every rulebook here), except in the giveaway variants where it wins;
 * Breakthrough is decided by the first king. */
static void test_outcome_without_moves(void **state)
{
    (void)state;
    struct {
        const char *id, *fen;
        enum dm_outcome outcome;
    } cases[] = {
        /* White's a1 man is blocked by b2 and c3 (english numbers 29, 25, 22). */
        {"english", "W:W29:B25,22", DM_SIDE_TO_MOVE_LOSES},
        {"anti-checkers", "W:W29:B25,22", DM_SIDE_TO_MOVE_WINS},
        {"russian", "W:Wa1:Bb2,c3", DM_SIDE_TO_MOVE_LOSES},
        {"poddavki", "W:Wa1:Bb2,c3", DM_SIDE_TO_MOVE_WINS},
        /* White has no piece at all. */
        {"international", "W:W:B1", DM_SIDE_TO_MOVE_LOSES},
        {"antidraughts", "W:W:B1", DM_SIDE_TO_MOVE_WINS},
        /* 46 (a1) blocked by 41 and 37 (b2, c3). */
        {"antidraughts", "W:W46:B41,37", DM_SIDE_TO_MOVE_WINS},
        {"breakthrough", "W:W46:B41,37", DM_SIDE_TO_MOVE_LOSES},
        /* Breakthrough: a king on the board has already won. */
        {"breakthrough", "B:WK3,40:B20", DM_SIDE_TO_MOVE_LOSES},
        {"breakthrough", "W:WK3,40:B20", DM_SIDE_TO_MOVE_WINS},
        {"breakthrough", "W:W40:BK48", DM_SIDE_TO_MOVE_LOSES},
        /* A position with moves is not over, giveaway or not. */
        {"antidraughts", "W:W31-50:B1-20", DM_ONGOING},
        {"breakthrough", "W:W31-50:B1-20", DM_ONGOING},
        {"international", "W:WK3,40:B20", DM_ONGOING},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const dm_variant *v = tu_variant(cases[i].id);
        dm_position pos;
        tu_position(v, cases[i].fen, &pos);
        enum dm_outcome got = dm_position_outcome(v, &pos);
        if (got != cases[i].outcome)
            fail_msg("%s %s: outcome %d, expected %d", cases[i].id, cases[i].fen, (int)got,
                     (int)cases[i].outcome);
    }
}

/*
 * dm_make_move leaves the board the rules say: captured pieces gone, a
 * crowned man a king, a Brazilian man that passed the last row still a man,
 * a parachutist a man once it has landed.
 */
static void test_make_move_results(void **state)
{
    (void)state;
    struct {
        const char *id, *fen, *move, *after;
    } cases[] = {
        /* Russian example: crowned on c1 and goes on as a king to a3. */
        {"russian", "B:Wb2,d2:Be3", "e3:a3", "W:W:BKa3"},
        /* Brazilian: the same route played as a man; it ends as a man. */
        {"brazilian", "B:Wb2,d2:Be3", "e3:a3", "W:W:Ba3"},
        /* English example: crowned on 30, the move ends. */
        {"english", "B:W25,26:B23", "23x30", "W:W25:BK30"},
        /* FMJD example: 13 touches 2 on the last row and ends on 11 as a man. */
        {"international", "W:W13:B7,8", "13x11", "B:W11:B"},
        /* Parachute: White's parachutist b8 drops over c7 and is a man on d6. */
        {"parachute", "W:WPb8:Bc7", "b8:d6", "B:Wd6:B"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const dm_variant *v = tu_variant(cases[i].id);
        dm_position pos, want;
        tu_position(v, cases[i].fen, &pos);
        tu_position(v, cases[i].after, &want);
        play(v, &pos, cases[i].move);
        if (!dm_position_equal(&pos, &want)) {
            char got[256];
            dm_fen_format(v, &pos, got, sizeof got);
            fail_msg("%s %s after %s: %s, expected %s", cases[i].id, cases[i].fen,
                     cases[i].move, got, cases[i].after);
        }
    }
}

int main(void)
{
    char dir[1024];
    rules_dir(dir, sizeof dir);
    char **names;
    int n = tu_list_dir(dir, ".txt", &names);
    if (n < 0) {
        fprintf(stderr, "test_rules: cannot open %s (set DAMIER_TESTS to the tests folder)\n",
                dir);
        return 1;
    }
    enum { FIXED = 6 };
    struct CMUnitTest *tests = calloc((size_t)n + FIXED, sizeof *tests);
    struct rfile *files = calloc((size_t)n + 1, sizeof *files);
    assert_non_null(tests);
    assert_non_null(files);
    const struct CMUnitTest fixed[FIXED] = {
        cmocka_unit_test(test_checker_catches_wrong_cases),
        cmocka_unit_test(test_every_variant_has_cases),
        cmocka_unit_test(test_frisian_same_king_limit),
        cmocka_unit_test(test_frisian_other_king_capture_no_men),
        cmocka_unit_test(test_outcome_without_moves),
        cmocka_unit_test(test_make_move_results),
    };
    memcpy(tests, fixed, sizeof fixed);
    for (int i = 0; i < n; i++) {
        struct rfile *f = &files[i];
        snprintf(f->path, sizeof f->path, "%s/%s", dir, names[i]);
        snprintf(f->name, sizeof f->name, "%s", names[i]);
        snprintf(f->id, sizeof f->id, "%.*s", (int)(strlen(names[i]) - 4), names[i]);
        tests[FIXED + i] = (struct CMUnitTest){
            .name = f->name, .test_func = test_rules_file, .initial_state = f};
    }
    int failed = _cmocka_run_group_tests("rules", tests, (size_t)n + FIXED, NULL, NULL);
    tu_free_names(names, n);
    free(tests);
    free(files);
    return failed ? 1 : 0;
}
