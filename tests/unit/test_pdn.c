/* SPDX-License-Identifier: MIT */
/*
 * test_pdn.c - PDN 3.0 games read, replayed and written.
 *
 * The public corpus of the PDN 3.0 standard (tests/pdn/corpus, or
 * $DAMIER_TESTS/pdn/corpus): every game of succeed/ reads
 * and replays under its file's variant except the few that really hold a
 * defect, which are listed by name with the reason; every file of fail/ is
 * rejected, each bad game named with its line and reason.  Every good game
 * is written and read back to the same moves, tags and result, and the
 * variant guesser is measured against the files' known variants.
 *
 * Then the reader's own odd and broken files (tests/pdn), malformed and
 * hostile input (deep nesting, binary, unclosed comments, huge counts),
 * encodings, the GameType and Variant tags, the writer's format, random
 * games of every variant written and read back, and a bounded
 * random-mutation run over the sample files.
 */
#include "testutil.h"

#include <strings.h>
#include <time.h>

/* ---- helpers ---------------------------------------------------------- */

/* The whole file, malloc'ed, or NULL if it cannot be read. */
static char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t)n + 1);
    assert_non_null(data);
    size_t got = fread(data, 1, (size_t)n, f);
    fclose(f);
    assert_int_equal(got, (size_t)n);
    data[n] = '\0';
    *size = (size_t)n;
    return data;
}

static void corpus_dir(char *buf, size_t size, const char *sub)
{
    snprintf(buf, size, "%s/pdn/corpus/%s", tu_env("DAMIER_TESTS", "tests"), sub);
}

static void tests_dir(char *buf, size_t size)
{
    snprintf(buf, size, "%s/pdn", tu_env("DAMIER_TESTS", "tests"));
}

/* The sorted .pdn files of dir; the test fails clearly if there is none. */
static int list_pdn(const char *dir, char ***names)
{
    int n = tu_list_dir(dir, ".pdn", names);
    if (n <= 0)
        fail_msg("no PDN files in %s (run the tests from the repository root, or "
                 "set DAMIER_TESTS to its tests/ folder)",
                 dir);
    return n;
}

static void assert_has(const char *text, const char *part, const char *where)
{
    if (!strstr(text, part))
        fail_msg("%s: '%s' does not contain '%s'", where, text, part);
}

/* Characters (not bytes) of the line at s, up to its newline. */
static int columns(const char *s)
{
    int cols = 0;
    for (; *s && *s != '\n'; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            cols++;
    return cols;
}

static bool same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static const char *tag_any_case(const dm_pdn_game *g, const char *name)
{
    for (int i = 0; i < g->ntags; i++)
        if (strcasecmp(g->tags[i].name, name) == 0)
            return g->tags[i].value;
    return NULL;
}

static bool unknown_value(const char *s)
{
    return !s[0] || strcmp(s, "?") == 0 || strcmp(s, "????.??.??") == 0;
}

/*
 * Writes g, checks the text (movetext lines of at most 80 characters but
 * for a single word too long for any line, the seven-tag roster first),
 * reads it back and checks that the copy has the
 * same variant, start, moves (route, text, marks, glyphs, comments),
 * result, comment and tags.
 */
static void round_trip(const dm_pdn_game *g, const char *where)
{
    dm_error err;
    char *text = dm_pdn_write(g, &err);
    if (!text)
        fail_msg("%s: not written: %s", where, err.msg);
    assert_true(strncmp(text, "[Event \"", 8) == 0);
    for (const char *line = text; *line; line = strchr(line, '\n') + 1) {
        const char *end = strchr(line, '\n');
        bool one_word = !memchr(line, ' ', end ? (size_t)(end - line) : strlen(line));
        if (*line != '[' && columns(line) > 80 && !one_word)
            fail_msg("%s: a line of %d characters: %.100s", where, columns(line), line);
        if (!strchr(line, '\n'))
            break;
    }
    dm_pdn_options opt = {.variant = g->variant};
    dm_pdn_reader *r = dm_pdn_reader_new(text, strlen(text), &opt);
    assert_non_null(r);
    dm_pdn_game copy = {0};
    int status = dm_pdn_read(r, &copy, &err);
    if (status != 1)
        fail_msg("%s: written game not read back: %s\n%s", where, err.msg, text);
    assert_ptr_equal(copy.variant, g->variant);
    assert_false(copy.variant_guessed);
    assert_true(dm_position_equal(&copy.start, &g->start));
    assert_true(dm_position_equal(&copy.end, &g->end));
    assert_int_equal(copy.nmoves, g->nmoves);
    for (int i = 0; i < g->nmoves; i++) {
        const dm_pdn_move *a = &g->moves[i], *b = &copy.moves[i];
        if (!dm_move_same(&a->move, &b->move) || strcmp(a->text, b->text) != 0)
            fail_msg("%s: move %d was %s, read back as %s", where, i + 1, a->text, b->text);
        assert_string_equal(a->mark, b->mark);
        assert_int_equal(a->nag, b->nag);
        if (!same_text(a->comment, b->comment))
            fail_msg("%s: the comment of move %d changed:\n'%s'\n'%s'", where, i + 1,
                     a->comment ? a->comment : "(none)", b->comment ? b->comment : "(none)");
    }
    assert_int_equal(copy.result, g->result);
    assert_true(same_text(copy.comment, g->comment));
    for (int i = 0; i < g->ntags; i++) {
        const char *name = g->tags[i].name;
        if (strcasecmp(name, "Result") == 0 || strcasecmp(name, "GameType") == 0 ||
            strcasecmp(name, "FEN") == 0 || strcasecmp(name, "SetUp") == 0 ||
            strcasecmp(name, "Variant") == 0)
            continue;
        const char *now = tag_any_case(&copy, name);
        const char *first = tag_any_case(g, name);
        if (!now || (strcmp(now, first) != 0 && !(unknown_value(first) && unknown_value(now))))
            fail_msg("%s: tag %s was '%s', read back as '%s'", where, name, first,
                     now ? now : "(none)");
    }
    assert_int_equal(dm_pdn_read(r, &copy, &err), 0);
    dm_pdn_game_free(&copy);
    dm_pdn_reader_free(r);
    free(text);
}

/* A game the reader must reject: where, and parts of its message. */
struct defect {
    const char *file;
    int game, line;
    const char *what, *why;
    bool seen;
};

struct file_variant {
    const char *file, *variant;
};

static const char *variant_of(const struct file_variant *table, size_t n, const char *file)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(table[i].file, file) == 0)
            return table[i].variant;
    fail_msg("corpus file '%s' is new: give its variant in the test's table", file);
    return NULL;
}

/* Checks a failed game against the defects expected; fails if it is not
 * one of them or its message lacks the game, the line or the reason. */
static void expect_defect(struct defect *defects, size_t n, const char *file, const dm_pdn_game *g,
                          const dm_error *err)
{
    for (size_t i = 0; i < n; i++) {
        struct defect *d = &defects[i];
        if (strcmp(d->file, file) != 0 || d->game != g->number)
            continue;
        char where[300], part[32];
        snprintf(where, sizeof where, "%s game %d", file, g->number);
        assert_int_equal(g->error_line, d->line);
        snprintf(part, sizeof part, "game %d", d->game);
        assert_has(err->msg, part, where);
        snprintf(part, sizeof part, "line %d", d->line);
        assert_has(err->msg, part, where);
        assert_has(g->error, d->what, where);
        assert_has(g->error, d->why, where);
        d->seen = true;
        return;
    }
    fail_msg("%s: unexpected error: %s", file, err->msg);
}

/* ---- the corpus ------------------------------------------------------- */

/* What each succeed/ file holds (README: International, English, Italian,
 * Russian, Czech); none has a tag that would say it for every game. */
static const struct file_variant succeed_variants[] = {
    {"090417ronde12.pdn", "international"},
    {"Campionato Assoluto 2005.pdn", "italian"},
    {"Cat.B1.pdn", "international"},
    {"Cat.D1.pdn", "international"},
    {"DUTCH96H.pdn", "international"},
    {"OCA_2.0.pdn", "english"},
    {"PROF2.pdn", "international"},
    {"PWCP 2a.pdn", "international"},
    {"PWCP_2.pdn", "international"},
    {"Principles of Strategy.pdn", "english"},
    {"Tricks traps and shots.pdn", "english"},
    {"alphanumeric.pdn", "russian"}, /* "1.a3b4": a Russian opening */
    {"beginner.pdn", "english"},
    {"borderclassics.pdn", "english"},
    {"bridges.pdn", "english"},
    {"candidate95.pdn", "international"},
    {"fen.pdn", "international"},
    {"gameterminator.pdn", "international"},
    {"gem.pdn", "english"},
    {"goulds.pdn", "english"},
    {"inferno.pdn", "english"},
    {"kurnik.pdn", "international"},
    {"linecomment.pdn", "international"},
    {"lpc.pdn", "english"},
    {"movestrength.pdn", "international"},
    {"mrcd2000kval.pdn", "czech"},
    {"mrcd2006.pdn", "czech"},
    {"mrcd2007.pdn", "czech"},
    {"nk ronde 01.pdn", "international"},
    {"nk ronde 02.pdn", "international"},
    {"nk2003-amsterdam.pdn", "international"},
    {"rk ronde 12.pdn", "international"},
    {"schildpad.pdn", "international"},
    {"string.pdn", "international"},
    {"unicode.pdn", "international"},
    {"ussr1947.pdn", "russian"},
    {"variation.pdn", "international"},
    {"windragon.pdn", "international"},
    {"wk2003.pdn", "international"},
};

/*
 * The games of succeed/ that really hold a defect.  A checkers problem
 * cannot have a man on the row where it would have been crowned; the Italian
 * game ends on a capture written from and to only, which two legal captures
 * (taking different pieces) match, with no later move to tell them apart.
 */
static struct defect succeed_defects[] = {
    {"Campionato Assoluto 2005.pdn", 46, 753, "move '3x26'", "is ambiguous", false},
    {"beginner.pdn", 10, 78, "a white man on 1", "promotion row", false},
    {"bridges.pdn", 14, 124, "FEN", "unknown field ''", false}, /* "W::." */
    {"goulds.pdn", 93, 837, "a white man on 3", "promotion row", false},
    {"lpc.pdn", 36, 286, "a black man on 30", "promotion row", false},
    {"lpc.pdn", 63, 502, "a black man on 32", "promotion row", false},
    {"lpc.pdn", 65, 518, "a black man on 31", "promotion row", false},
    {"lpc.pdn", 73, 582, "a white man on 4", "promotion row", false},
};

static const struct file_variant fail_variants[] = {
    {"40Camp.DamaInternazionaleAssoluto.pdn", "international"},
    {"Cat.A1.pdn", "international"},
    {"Cat.C1.pdn", "international"},
    {"abatsiev.pdn", "russian"},
    {"delfts.pdn", "international"},
    {"mrdrcd07.pdn", "czech"},
    {"mrdrcd08.pdn", "czech"},
    {"nested_comment.pdn", "international"},
};

/* Every defect of fail/, each file's whole list. */
static struct defect fail_defects[] = {
    {"40Camp.DamaInternazionaleAssoluto.pdn", 11, 226, "no result", "on line 228", false},
    {"Cat.A1.pdn", 30, 405, "'.'", "is not a move", false},
    {"Cat.C1.pdn", 43, 579, "move number '6.'", "not followed by a move", false},
    {"Cat.C1.pdn", 46, 611, "move '36x27'", "illegal", false}, /* a stray line */
    {"abatsiev.pdn", 36, 595, "'-'", "unknown move", false},
    {"delfts.pdn", 1, 26, "move '4-6'", "illegal", false}, /* results "4-6", "1-9" */
    {"delfts.pdn", 2, 53, "move '1-9'", "illegal", false},
    {"mrdrcd07.pdn", 12, 198, "move number '1.'", "not followed by a move", false},
    {"mrdrcd07.pdn", 20, 326, "move number '1.'", "not followed by a move", false},
    {"mrdrcd07.pdn", 36, 583, "move number '1.'", "not followed by a move", false},
    {"mrdrcd08.pdn", 31, 499, "move number '1.'", "not followed by a move", false},
    {"nested_comment.pdn", 1, 1, "'}' without '{'", "do not nest", false},
};

struct tally {
    int files, games, good, moves;
};

/* Reads one file; failed games go through expect_defect, good ones through
 * a round trip.  Returns the number of failed games. */
static int read_file(const char *dir, const char *file, const dm_variant *v, struct defect *defects,
                     size_t ndefects, struct tally *t)
{
    char path[1024];
    size_t size;
    snprintf(path, sizeof path, "%s%s", dir, file);
    char *data = slurp(path, &size);
    if (!data)
        fail_msg("cannot read %s", path);
    dm_pdn_options opt = {.variant = v};
    dm_pdn_reader *r = dm_pdn_reader_new(data, size, &opt);
    assert_non_null(r);
    dm_pdn_game g = {0};
    dm_error err;
    int status, failed = 0;
    while ((status = dm_pdn_read(r, &g, &err)) != 0) {
        t->games++;
        if (status < 0) {
            failed++;
            expect_defect(defects, ndefects, file, &g, &err);
            continue;
        }
        t->good++;
        t->moves += g.nmoves;
        char where[300];
        snprintf(where, sizeof where, "%s game %d", file, g.number);
        round_trip(&g, where);
    }
    dm_pdn_game_free(&g);
    dm_pdn_reader_free(r);
    free(data);
    t->files++;
    return failed;
}

static void test_corpus_succeed(void **state)
{
    (void)state;
    char dir[1024];
    char **names;
    corpus_dir(dir, sizeof dir, "succeed/");
    int n = list_pdn(dir, &names);
    struct tally t = {0};
    size_t nvariants = sizeof succeed_variants / sizeof succeed_variants[0];
    size_t ndefects = sizeof succeed_defects / sizeof succeed_defects[0];
    for (int i = 0; i < n; i++) {
        const char *id = variant_of(succeed_variants, nvariants, names[i]);
        read_file(dir, names[i], tu_variant(id), succeed_defects, ndefects, &t);
    }
    for (size_t i = 0; i < ndefects; i++)
        if (!succeed_defects[i].seen)
            fail_msg("%s game %d was expected to fail (%s) but did not", succeed_defects[i].file,
                     succeed_defects[i].game, succeed_defects[i].why);
    print_message("succeed/: %d files, %d games, %d replayed (%d moves), %zu known defects\n",
                  t.files, t.games, t.good, t.moves, ndefects);
    assert_int_equal(t.games - t.good, (int)ndefects);
    tu_free_names(names, n);
}

static void test_corpus_fail(void **state)
{
    (void)state;
    char dir[1024];
    char **names;
    corpus_dir(dir, sizeof dir, "fail/");
    int n = list_pdn(dir, &names);
    struct tally t = {0};
    size_t nvariants = sizeof fail_variants / sizeof fail_variants[0];
    size_t ndefects = sizeof fail_defects / sizeof fail_defects[0];
    for (int i = 0; i < n; i++) {
        const char *id = variant_of(fail_variants, nvariants, names[i]);
        if (read_file(dir, names[i], tu_variant(id), fail_defects, ndefects, &t) == 0)
            fail_msg("fail/%s was read without an error", names[i]);
    }
    for (size_t i = 0; i < ndefects; i++)
        if (!fail_defects[i].seen)
            fail_msg("%s game %d: the expected error (%s) did not come", fail_defects[i].file,
                     fail_defects[i].game, fail_defects[i].why);
    print_message("fail/: %d files, %d games, %d rejected\n", t.files, t.games, t.games - t.good);
    tu_free_names(names, n);
}

/* Without a variant given, the reader guesses: every game that replays
 * under its file's variant replays, and one with moves is taken for that
 * variant, but for a Czech game that is a legal Russian game too (the
 * guess goes Russian, then Czech). */
static void test_corpus_guess(void **state)
{
    (void)state;
    char dir[1024], path[1200];
    char **names;
    corpus_dir(dir, sizeof dir, "succeed/");
    int n = list_pdn(dir, &names);
    int games = 0, wrong = 0;
    for (int i = 0; i < n; i++) {
        const char *id = variant_of(succeed_variants,
                                    sizeof succeed_variants / sizeof succeed_variants[0], names[i]);
        size_t size;
        snprintf(path, sizeof path, "%s%s", dir, names[i]);
        char *data = slurp(path, &size);
        assert_non_null(data);
        dm_pdn_options explicit_opt = {.variant = tu_variant(id)};
        dm_pdn_options guess_opt = {.guess_variant = true};
        dm_pdn_reader *a = dm_pdn_reader_new(data, size, &explicit_opt);
        dm_pdn_reader *b = dm_pdn_reader_new(data, size, &guess_opt);
        dm_pdn_game ga = {0}, gb = {0};
        dm_error err;
        int sa;
        while ((sa = dm_pdn_read(a, &ga, &err)) != 0) {
            int sb = dm_pdn_read(b, &gb, &err);
            assert_int_not_equal(sb, 0);
            if (sa < 0 || ga.nmoves == 0)
                continue;
            games++;
            if (sb < 0)
                fail_msg("%s game %d: replays as %s, not when guessed: %s", names[i], ga.number, id,
                         err.msg);
            if (gb.variant != ga.variant && !gb.variant_guessed)
                fail_msg("%s game %d: a tag names the variant", names[i], ga.number);
            if (gb.variant != ga.variant) {
                wrong++;
                assert_string_equal(names[i], "mrcd2006.pdn");
                assert_int_equal(ga.number, 1);
                assert_string_equal(dm_variant_id(gb.variant), "russian");
            }
        }
        dm_pdn_game_free(&ga);
        dm_pdn_game_free(&gb);
        dm_pdn_reader_free(a);
        dm_pdn_reader_free(b);
        free(data);
    }
    print_message("guessed: %d games with moves, %d taken for another variant\n", games, wrong);
    tu_free_names(names, n);
}

/* ---- reading in memory ------------------------------------------------ */

struct read_result {
    int good, bad;
    int first_bad_game, first_bad_line;
    char first_error[200];
    char message[200];
    int last_moves;
};

/* Reads text (len bytes) with opt; counts the games. */
static struct read_result read_text(const char *text, size_t len, const dm_pdn_options *opt)
{
    struct read_result res = {0};
    dm_pdn_reader *r = dm_pdn_reader_new(text, len, opt);
    assert_non_null(r);
    dm_pdn_game g = {0};
    dm_error err;
    int status;
    while ((status = dm_pdn_read(r, &g, &err)) != 0) {
        if (status > 0) {
            res.good++;
            res.last_moves = g.nmoves;
            continue;
        }
        assert_true(g.error_line > 0);
        assert_true(g.error[0] != '\0');
        if (res.bad++ == 0) {
            res.first_bad_game = g.number;
            res.first_bad_line = g.error_line;
            snprintf(res.first_error, sizeof res.first_error, "%s", g.error);
            snprintf(res.message, sizeof res.message, "%s", err.msg);
        }
    }
    dm_pdn_game_free(&g);
    dm_pdn_reader_free(r);
    return res;
}

static struct read_result read_str(const char *text)
{
    return read_text(text, strlen(text), NULL);
}

/* Reads the single game of text; the test fails unless it is good. */
static void read_one(const char *text, const dm_pdn_options *opt, dm_pdn_game *g)
{
    dm_pdn_reader *r = dm_pdn_reader_new(text, strlen(text), opt);
    assert_non_null(r);
    dm_error err;
    int status = dm_pdn_read(r, g, &err);
    if (status != 1)
        fail_msg("not read: %s\n%s", status ? err.msg : "no game", text);
    dm_pdn_reader_free(r);
}

static void test_malformed(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int line;
        const char *why;
    } cases[] = {
        {"[Event \"x]\n1. 32-28 *", 1, "closing '\"' is missing"},
        {"[Event \"x\" y\n1. 32-28 *", 1, "expected ']'"},
        {"1. 32-28 { never closed\n19-23 *", 1, "never closed"},
        {"1. 32-28 (19-23 (18-23)\n*", 1, "variation '(' is never closed"},
        {"1. 32-28 19-23 ) *", 1, "')' without '('"},
        {"1. 32-28 } *", 1, "'}' without '{'"},
        {"1. 32-28 ] *", 1, "']' without '['"},
        {"1. 32-28 \"str\" *", 1, "a string outside a tag pair"},
        {"1. 32-28 $ *", 1, "'$' without a glyph number"},
        {"1. 32-28 [ *", 1, "'[' does not start a tag pair"},
        {"1. 32-28\n\n19+23 *", 3, "'19+23' is not a move"},
        {"1. 32-28 19-23 2. 28-22 *", 1, "a capture is compulsory"},
        {"1. 32-28 19-23 2. 28x19 14x23 3. 28x19 *", 1, "is illegal"},
        {"1. 32-88 *", 1, "does not exist"},
        {"1. 32-28 19-23 2. *", 1, "move number '2.' is not followed by a move"},
        {"1. 32-28 - *", 1, "unknown move"},
        {"1. 32-28 /FEN \"W:W31-50:B1-20\"/ *", 1, "after the first move"},
        {"1. 32-28 /FEN W *", 1, "not closed by '/'"},
        {"[GameType \"41\"]\n1. c3-d4 *", 1, "GameType 41 (Spantsiretti draughts)"},
        {"[GameType \"x\"]\n*", 1, "does not start with a number"},
        {"[GameType \"0\"]\n*", 1, "GameType 0 (chess)"},
        {"[GameType \"21,B,10,10,N1,0\"]\n*", 1, "english is played on 8x8, not 10x10"},
        {"[Variant \"Hexdame\"]\n*", 1, "Variant 'Hexdame'"},
        {"[FEN \"W:W31-50:B1-20:X\"]\n*", 1, "unknown field"},
        {"[FEN \"W:W1:B50\"]\n*", 1, "promotion row"},
        {"1. 32-28\x01 *", 1, "control character 0x01"},
        {"[Event \"a\"]\n1. 32-28\n[Event \"b\"]\n*", 2, "tag pairs on line 3"},
        {"[Event \"a\"]\n[Site \"b\"]\n[Event \"c\"]\n*", 3, "no result"},
        {"1. 32-28 . *", 1, "'.' is not a move"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct read_result res = read_str(cases[i].text);
        if (res.bad == 0)
            fail_msg("case %zu read without an error: %s", i, cases[i].text);
        if (res.first_bad_line != cases[i].line || !strstr(res.first_error, cases[i].why))
            fail_msg("case %zu: line %d '%s', expected line %d '%s'", i, res.first_bad_line,
                     res.first_error, cases[i].line, cases[i].why);
        assert_has(res.message, "game 1", cases[i].text);
    }

    /* The error names the players, or else the event. */
    struct read_result res =
        read_str("[White \"Sijbrands, Ton\"]\n[Black \"Wiersma, Harm\"]\n1. 32-28 32-28 *");
    assert_string_equal(res.message, "game 1 (Sijbrands, Ton - Wiersma, Harm), line 3: at 1...: "
                                     "move '32-28' is illegal in this position");
    res = read_str("[Event \"Open\"]\n1. 31-36 *");
    assert_has(res.message, "game 1 (Open), line 2", "event label");
}

/* After a broken game the next one reads; the counts of tests/pdn/broken.pdn. */
static void test_recovery(void **state)
{
    (void)state;
    char dir[1024], path[1200];
    tests_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/broken.pdn", dir);
    size_t size;
    char *data = slurp(path, &size);
    assert_non_null(data);
    static const struct {
        int line;
        const char *why;
    } expect[] = {
        {1, "closing '\"' is missing"},
        {0, NULL},
        {9, "GameType 41"},
        {13, "played on 10x10, not 8x8"},
        {17, "')' without '('"},
        {20, "Variant 'Hexdame'"},
        {24, "a capture is compulsory"},
        {28, "square '51' does not exist"},
        {32, "variation '(' is never closed"},
        {0, NULL},
        {38, "comment '{' opened on line 38 is never closed"},
        {0, NULL},
    };
    dm_pdn_reader *r = dm_pdn_reader_new(data, size, NULL);
    dm_pdn_game g = {0};
    dm_error err;
    int status;
    size_t k = 0;
    while ((status = dm_pdn_read(r, &g, &err)) != 0) {
        assert_true(k < sizeof expect / sizeof expect[0]);
        assert_int_equal(g.number, (int)k + 1);
        if (!expect[k].why) {
            if (status != 1)
                fail_msg("broken.pdn game %zu: %s", k + 1, err.msg);
        } else {
            assert_int_equal(status, -1);
            if (g.error_line != expect[k].line || !strstr(g.error, expect[k].why))
                fail_msg("broken.pdn game %zu: line %d '%s'", k + 1, g.error_line, g.error);
        }
        k++;
    }
    assert_int_equal(k, sizeof expect / sizeof expect[0]);
    dm_pdn_game_free(&g);
    dm_pdn_reader_free(r);
    free(data);
}

/* Input that would hang or crash a careless reader must cost little time. */
static void test_hostile(void **state)
{
    (void)state;
    clock_t start = clock();
    enum { DEEP = 200000 };
    size_t size = 2 * DEEP + 64;
    char *text = malloc(size);
    assert_non_null(text);

    /* Deep but closed variations: the main line still reads. */
    size_t n = (size_t)snprintf(text, size, "1. 32-28 ");
    memset(text + n, '(', DEEP);
    memset(text + n + DEEP, ')', DEEP);
    snprintf(text + n + 2 * DEEP, size - n - 2 * DEEP, " 19-23 *");
    struct read_result res = read_str(text);
    assert_int_equal(res.good, 1);
    assert_int_equal(res.last_moves, 2);

    /* Never closed. */
    text[n + DEEP] = '\0';
    res = read_str(text);
    assert_int_equal(res.bad, 1);
    assert_has(res.first_error, "never closed", "deep");

    /* Unclosed comments, each followed by a tag line: each must not scan
     * to the end again. */
    struct {
        char *s;
        size_t len, cap;
    } b = {malloc(1 << 20), 0, 1 << 20};
    assert_non_null(b.s);
    while (b.len + 32 < b.cap) {
        memcpy(b.s + b.len, "1. {\n[Event \"e\"]\n", 17);
        b.len += 17;
    }
    res = read_text(b.s, b.len, NULL);
    assert_true(res.bad > 1000);
    assert_has(res.first_error, "never closed", "unclosed comments");

    /* Many comments after one move, and many tags: linear. */
    b.len = (size_t)snprintf(b.s, b.cap, "1. 32-28 ");
    while (b.len + 8 < b.cap) {
        memcpy(b.s + b.len, "{ab} ", 5);
        b.len += 5;
    }
    res = read_text(b.s, b.len, NULL);
    assert_int_equal(res.good, 1);
    b.len = 0;
    for (int i = 0; b.len + 40 < b.cap; i++)
        b.len += (size_t)snprintf(b.s + b.len, b.cap - b.len, "[T%d \"v\"]\n", i);
    res = read_text(b.s, b.len, NULL);
    assert_int_equal(res.bad, 1);
    assert_has(res.first_error, "more than 1000 tag pairs", "many tags");

    /* One huge line with a huge word, and a huge glyph number. */
    memset(b.s, '7', b.cap - 1);
    res = read_text(b.s, b.cap - 1, NULL);
    assert_int_equal(res.bad, 1);
    res = read_str("1. 32-28 $99999999999999999999 *");
    assert_int_equal(res.good, 1);

    /* Binary garbage (NUL bytes included) is an error, never a crash. */
    unsigned seed = 12345;
    for (size_t i = 0; i < b.cap; i++) {
        seed = seed * 1103515245u + 12345u;
        b.s[i] = (char)(seed >> 16);
    }
    res = read_text(b.s, b.cap, NULL);
    assert_true(res.bad >= 1);

    /* Nothing, or nothing but comments and results: no game. */
    assert_int_equal(read_str("").good + read_str("").bad, 0);
    assert_int_equal(read_str(" \n\t\r\n").good, 0);
    res = read_str("{only a comment} % and a line\n; and this\n* 1-0 *");
    assert_int_equal(res.good + res.bad, 0);

    double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
    print_message("hostile input read in %.2f s\n", seconds);
    assert_true(seconds < 30);
    free(b.s);
    free(text);
}

/* ---- encodings -------------------------------------------------------- */

static void test_encodings(void **state)
{
    (void)state;
    dm_pdn_game g = {0};
    /* Latin-1 / Windows-1252 names. */
    read_one("[White \"M\xfcller\"]\n[Black \"\x93"
             "Fran\xe7ois\x94\"]\n1. 32-28 *",
             NULL, &g);
    assert_string_equal(dm_pdn_game_tag(&g, "White"), "Müller");
    assert_string_equal(dm_pdn_game_tag(&g, "Black"), "“François”");
    /* Windows-1251 Cyrillic: letters in runs. */
    read_one("[White \"\xc0\xe1\xe0\xf3\xeb\xe8\xed \xc2.\"]\n1. 32-28 *", NULL, &g);
    assert_string_equal(dm_pdn_game_tag(&g, "White"), "Абаулин В.");
    /* UTF-8 kept, line by line: a valid line beside a Latin-1 one. */
    read_one("\xef\xbb\xbf[White \"Абаулин\"]\n[Black \"Jos\xe9\"]\n1. 32-28 *", NULL, &g);
    assert_string_equal(dm_pdn_game_tag(&g, "White"), "Абаулин");
    assert_string_equal(dm_pdn_game_tag(&g, "Black"), "José");
    /* Overlong forms and surrogates are not UTF-8. */
    read_one("[White \"\xc0\xaf\xed\xa0\x80\"]\n*", NULL, &g);
    assert_string_equal(dm_pdn_game_tag(&g, "White"), "À¯í\u00a0€");
    dm_pdn_game_free(&g);

    /* The sample files. */
    char dir[1024], path[1200];
    tests_dir(dir, sizeof dir);
    static const struct {
        const char *file, *tag, *value;
    } files[] = {
        {"latin1.pdn", "White", "Müller, Jürgen"},
        {"latin1.pdn", "Event", "Championnat de la Réunion"},
        {"cp1251.pdn", "White", "Иванов И."},
        {"cp1251.pdn", "Site", "Москва"},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t size;
        snprintf(path, sizeof path, "%s/%s", dir, files[i].file);
        char *data = slurp(path, &size);
        assert_non_null(data);
        dm_pdn_reader *r = dm_pdn_reader_new(data, size, NULL);
        dm_error err;
        assert_int_equal(dm_pdn_read(r, &g, &err), 1);
        assert_string_equal(dm_pdn_game_tag(&g, files[i].tag), files[i].value);
        dm_pdn_reader_free(r);
        free(data);
    }
    dm_pdn_game_free(&g);
}

/* ---- tags that name the variant --------------------------------------- */

static void test_variant_tags(void **state)
{
    (void)state;
    static const struct {
        const char *text, *variant;
    } cases[] = {
        {"[GameType \"20\"]\n1. 32-28 *", "international"},
        {"[GameType \"20,W,10,10,N1,0\"]\n1. 32-28 *", "international"},
        {"[GameType \"21\"]\n1. 11-15 *", "english"},
        {"[GameType \"21,B,8,8,N1,0\"]\n1. 11-15 *", "english"},
        {"[GameType \"22\"]\n1. 21-17 *", "italian"},
        {"[GameType \"23\"]\n1. 11-15 *", "pool"},
        {"[GameType \"24\"]\n1. 12-16 *", "spanish"},
        {"[GameType \"25\"]\n1. c3-d4 *", "russian"},
        {"[GameType \"26\"]\n1. c3-d4 *", "brazilian"},
        {"[GameType \"27\"]\n1. 44-38 *", "canadian"},
        {"[GameType \"28\"]\n1. 12-16 *", "portuguese"},
        {"[GameType \"29\"]\n1. c3-d4 *", "czech"},
        {"[GameType \"31\"]\n1. b2-c3 *", "thai"},
        {"[GameType \"40\"]\n1. 32-28 *", "frisian"},
        {"[GameType \"96\"]\n1. 32-28 *", "breakthrough"},
        {"[GameType \"97\"]\n1. 48-43 *", "frysk"},
        {"[GameType \"98\"]\n1. 32-28 *", "antidraughts"},
        {"[Variant \"Frisian\"]\n1. 32-28 *", "frisian"},
        {"[Variant \"Frysk!\"]\n1. 48-43 *", "frysk"},
        {"[Variant \"Russian draughts\"]\n1. c3-d4 *", "russian"},
        {"[Variant \"killer\"]\n[GameType \"20\"]\n1. 32-28 *", "killer"},
        {"[Variant \"Standard\"]\n1. 32-28 *", "international"},
        {"[Variant \"Standard\"]\n[GameType \"29\"]\n1. c3-d4 *", "czech"},
        {"[GameType \"99\"]\n[Variant \"From Position\"]\n[FEN \"W:W32:B19\"]\n1. 32-28 *",
         "international"},
        {"[Variant \"anti-checkers\"]\n1. 11-15 *", "anti-checkers"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (!dm_variant_by_id(cases[i].variant))
            continue;
        dm_pdn_game g = {0};
        /* A default that the tags must override. */
        dm_pdn_options opt = {
            .variant =
                tu_variant(strcmp(cases[i].variant, "english") == 0 ? "russian" : "english")};
        read_one(cases[i].text, &opt, &g);
        if (strcmp(dm_variant_id(g.variant), cases[i].variant) != 0)
            fail_msg("read as %s: %s", dm_variant_id(g.variant), cases[i].text);
        assert_false(g.variant_guessed);
        dm_pdn_game_free(&g);
    }
}

static void test_results(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        enum dm_pdn_result result;
    } cases[] = {
        {"1. 32-28 2-0", DM_PDN_WHITE_WINS},
        {"1. 32-28 1-0", DM_PDN_WHITE_WINS},
        {"1. 32-28 0-2", DM_PDN_BLACK_WINS},
        {"1. 32-28 0-1", DM_PDN_BLACK_WINS},
        {"1. 32-28 1-1", DM_PDN_DRAW},
        {"1. 32-28 1/2-1/2", DM_PDN_DRAW},
        {"1. 32-28 ½-½", DM_PDN_DRAW},
        {"1. 32-28 0-0", DM_PDN_BOTH_LOSE},
        {"1. 32-28 *", DM_PDN_UNFINISHED},
        {"[Result \"0-2\"]\n1. 32-28", DM_PDN_BLACK_WINS},
        {"[Result \"0-1\"]\n1. 32-28 2-0", DM_PDN_WHITE_WINS}, /* the movetext's */
        {"[Result \"4-6\"]\n1. 32-28", DM_PDN_UNFINISHED},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dm_pdn_game g = {0};
        read_one(cases[i].text, NULL, &g);
        assert_int_equal(g.result, cases[i].result);
        dm_pdn_game_free(&g);
    }
    const dm_variant *intl = tu_variant("international"), *eng = tu_variant("english");
    assert_string_equal(dm_pdn_result_text(intl, DM_PDN_WHITE_WINS), "2-0");
    assert_string_equal(dm_pdn_result_text(intl, DM_PDN_DRAW), "1-1");
    assert_string_equal(dm_pdn_result_text(intl, DM_PDN_BLACK_WINS), "0-2");
    assert_string_equal(dm_pdn_result_text(tu_variant("frisian"), DM_PDN_DRAW), "1-1");
    assert_string_equal(dm_pdn_result_text(tu_variant("canadian"), DM_PDN_WHITE_WINS), "2-0");
    assert_string_equal(dm_pdn_result_text(eng, DM_PDN_WHITE_WINS), "1-0");
    assert_string_equal(dm_pdn_result_text(eng, DM_PDN_DRAW), "1/2-1/2");
    assert_string_equal(dm_pdn_result_text(eng, DM_PDN_BLACK_WINS), "0-1");
    assert_string_equal(dm_pdn_result_text(tu_variant("russian"), DM_PDN_DRAW), "1/2-1/2");
    assert_string_equal(dm_pdn_result_text(eng, DM_PDN_BOTH_LOSE), "0-0");
    assert_string_equal(dm_pdn_result_text(eng, DM_PDN_UNFINISHED), "*");
}

/* Lenient forms: each game reads to the moves given. */
static void test_lenient(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int moves;
        const char *last; /* the text of the last move as read */
    } cases[] = {
        {"1.32-28 19-23 2.28x19 14x23 *", 4, "14x23"},
        {"01. 32-28 19-23 02. 28x19 14x23 *", 4, "14x23"},
        {"1. 32-28 1... 19-23 2. 28:19 14:23", 4, "14x23"},
        {"1. 3228 1923 2. 28x19 14X23 *", 4, "14x23"},
        {"1. 32-28 19- 23 2. 28x\n19 14x23 *", 4, "14x23"},
        {"1. 32-28! 19-23? 2. 28x19!! 14x23?! $3 *", 4, "14x23"},
        {"1. 32-28 (!?) 19-23 (?) *", 2, "19-23"},
        {"1. 32-28 ... 19-23 *", 2, "19-23"},
        {"1. 32-28 … 19-23 *", 2, "19-23"},
        {"1. ... 32-28 *", 1, "32-28"},
        {"1. 32-28 {a} {b} ;c\n19-23 %d\n*", 2, "19-23"},
        {"1. 32-28 {[%clock w0:05:00 B0:04:58]} 19-23 [%clock w0:04:59 B0:04:57] *", 2, "19-23"},
        {"1. 32-28 19-23 2. 28x19 14x23 3. 37-32 9-14 4. 34-29 23x34 5. 40x29 *", 9, "40x29"},
        {"[GameType \"25\"]\n1. c3d4 f6g5 2. d4c5 b6xd4 3. e3:c5 *", 5, "e3:c5"},
        {"[GameType \"25\"]\n1. C3-D4 *", 1, "c3-d4"},
        {"1. 32-28 19-23 (19-24 (18-23 (17-22))) 2. 28x19 (2. 33-29) 14x23 *", 4, "14x23"},
        {"/FEN \"B:W31,32:B19,20\"/ 1... 19-23 *", 1, "19-23"},
        {"[FEN \"?:W29,13,11:B22,4,2\"]\n*", 0, NULL},
        {"[FEN \"W:W31-50:B1-20:H0:F1\"]\n1. 32-28 *", 1, "32-28"},
        {"[Event \"Unterminated at the end\"]\n1. 32-28", 1, "32-28"},
        {"[Event    \"blanks\"   ]   \n[Round 5]\n1. 32-28 *", 1, "32-28"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dm_pdn_game g = {0};
        read_one(cases[i].text, NULL, &g);
        if (g.nmoves != cases[i].moves)
            fail_msg("case %zu: %d moves, expected %d: %s", i, g.nmoves, cases[i].moves,
                     cases[i].text);
        if (cases[i].last)
            assert_string_equal(g.moves[g.nmoves - 1].text, cases[i].last);
        dm_pdn_game_free(&g);
    }

    /* A blank before the separator is not taken for a cut move. */
    assert_int_equal(read_str("1. 32-28 19 -23 *").bad, 1);

    /* Marks, glyphs and comments land on their moves. */
    dm_pdn_game g = {0};
    read_one("{before} 1. 32-28!? {one} {two} 19-23 $14 (18-23 {not kept}) *", NULL, &g);
    assert_string_equal(g.comment, "before");
    assert_string_equal(g.moves[0].mark, "!?");
    assert_string_equal(g.moves[0].comment, "one two");
    assert_int_equal(g.moves[1].nag, 14);
    assert_null(g.moves[1].comment);
    dm_pdn_game_free(&g);

    /* The tag values, escapes and bare quotes included. */
    read_one("[White \"A \\\"q\\\" \\\\ b\"]\n[Black \"The \"Cup\" 1999\"]\n*", NULL, &g);
    assert_string_equal(dm_pdn_game_tag(&g, "White"), "A \"q\" \\ b");
    assert_string_equal(dm_pdn_game_tag(&g, "Black"), "The \"Cup\" 1999");
    dm_pdn_game_free(&g);

    /* An ambiguous capture settled by the move after it: 10x26 takes 15
     * and 23, or 14 and 22; only after the first can White play 14-9. */
    read_one("[GameType \"21\"]\n[FEN \"B:W14,15,22,23,30:B10,3\"]\n1. 10x26 30x23 2. 3-7 14-9 *",
             NULL, &g);
    assert_string_equal(g.moves[0].text, "10x19x26");
    dm_pdn_game_free(&g);

    /* A capture route through a square the merged move does not keep. */
    read_one("[GameType \"29\"]\n[FEN \"W:WKa1:Bd4,g7\"]\n1. a1xf6xh8 *", NULL, &g);
    assert_int_equal(g.moves[0].move.njumps, 2);
    assert_int_equal(g.moves[0].move.to, dm_cell_parse(g.variant, "h8", 2));
    dm_pdn_game_free(&g);
}

/* ---- the writer ------------------------------------------------------- */

static char *write_game(const dm_pdn_game *g)
{
    dm_error err;
    char *text = dm_pdn_write(g, &err);
    if (!text)
        fail_msg("not written: %s", err.msg);
    return text;
}

static void test_writer(void **state)
{
    (void)state;
    static const struct {
        const char *id, *gametype;
    } types[] = {
        {"international", "20,W,10,10,N2,0"}, {"english", "21,B,8,8,N1,0"},
        {"italian", "22,W,8,8,N2,1"},         {"pool", "23,B,8,8,N1,0"},
        {"spanish", "24,W,8,8,N1,1"},         {"russian", "25,W,8,8,A0,0"},
        {"brazilian", "26,W,8,8,A0,0"},       {"canadian", "27,W,12,12,N2,0"},
        {"portuguese", "28,W,8,8,N1,1"},      {"czech", "29,W,8,8,A0,0"},
        {"frisian", "40,W,10,10,N2,0"},       {"killer", "20,W,10,10,N2,0"},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        dm_pdn_game g;
        dm_pdn_game_init(&g, tu_variant(types[i].id), NULL);
        char *text = write_game(&g);
        char want[64];
        snprintf(want, sizeof want, "[GameType \"%s\"]\n", types[i].gametype);
        assert_has(text, want, types[i].id);
        assert_true(!strstr(text, "[FEN ") && !strstr(text, "[SetUp "));
        if (strcmp(types[i].id, "killer") == 0)
            assert_has(text, "[Variant \"killer\"]\n", "killer");
        else
            assert_null(strstr(text, "[Variant "));
        free(text);
        dm_pdn_game_free(&g);
    }

    /* The roster in order, unknowns as "?", then ours, then the others. */
    dm_pdn_game g;
    dm_error err;
    dm_pdn_game_init(&g, tu_variant("international"), NULL);
    assert_int_equal(dm_pdn_game_set_tag(&g, "Annotator", "me"), 0);
    assert_int_equal(dm_pdn_game_set_tag(&g, "White", "Wit \"W\""), 0);
    assert_int_equal(dm_pdn_game_set_tag(&g, "White", "Wit"), 0);
    assert_string_equal(dm_pdn_game_tag(&g, "White"), "Wit");
    g.result = DM_PDN_DRAW;
    char *text = write_game(&g);
    assert_string_equal(text, "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                              "[White \"Wit\"]\n[Black \"?\"]\n[Result \"1-1\"]\n"
                              "[GameType \"20,W,10,10,N2,0\"]\n[Annotator \"me\"]\n\n1-1\n");
    free(text);
    dm_pdn_game_free(&g);

    /* From a position: SetUp and FEN; Black to move opens with "1...". */
    const dm_variant *eng = tu_variant("english");
    dm_position pos;
    tu_position(eng, "B:W14,15,22,23:B10", &pos);
    dm_pdn_game_init(&g, eng, &pos);
    dm_move_list *legal = malloc(sizeof *legal);
    assert_non_null(legal);
    dm_generate(eng, &pos, legal, 0);
    assert_int_equal(legal->count, 2);
    for (int i = 0; i < legal->count; i++) {
        char t[64];
        dm_move_format(eng, &legal->moves[i], legal, t, sizeof t);
        if (strcmp(t, "10x17x26") == 0)
            assert_int_equal(dm_pdn_game_add_move(&g, &legal->moves[i], "the {other} way", &err),
                             0);
    }
    assert_int_equal(g.nmoves, 1);
    assert_string_equal(g.moves[0].text, "10x17x26");
    g.result = DM_PDN_BLACK_WINS;
    text = write_game(&g);
    assert_has(text, "[SetUp \"1\"]\n[FEN \"B:W14,15,22,23:B10\"]\n", "setup");
    assert_has(text, "\n1. 10x17x26 {the {other) way} 0-1\n", "english movetext");
    free(text);
    round_trip(&g, "english from a position");

    /* A move that is not legal where it stands. */
    dm_move bogus = legal->moves[0];
    bogus.to = 0;
    assert_int_equal(dm_pdn_game_add_move(&g, &bogus, NULL, &err), -1);
    assert_has(err.msg, "not legal", "add_move");
    dm_pdn_game_free(&g);

    /* Long comments wrap at 80 characters and read back the same. */
    const dm_variant *intl = tu_variant("international");
    dm_pdn_game_init(&g, intl, NULL);
    dm_generate(intl, &g.end, legal, 0);
    char comment[800];
    size_t n = 0;
    for (int i = 0; n + 120 < sizeof comment; i++)
        n += (size_t)snprintf(comment + n, sizeof comment - n, "wörd%d ", i);
    snprintf(comment + n, sizeof comment - n, "%s",
             "a-very-long-word-that-does-not-fit-on-any-line-of-eighty-characters-at-all-"
             "not-even-on-its-own");
    assert_int_equal(dm_pdn_game_add_move(&g, &legal->moves[0], comment, &err), 0);
    snprintf(g.moves[0].mark, sizeof g.moves[0].mark, "!");
    g.moves[0].nag = 7;
    text = write_game(&g);
    int long_lines = 0;
    for (const char *line = text; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
        long_lines += *line != '[' && columns(line) > 80;
    assert_int_equal(long_lines, 1);
    assert_has(text,
               "\na-very-long-word-that-does-not-fit-on-any-line-of-eighty-characters-at-all-"
               "not-even-on-its-own}\n",
               "long word");
    free(text);
    round_trip(&g, "long comment");
    dm_pdn_game_free(&g);
    free(legal);
}

/* Random games of every variant: written and read back the same. */
static void test_random_games(void **state)
{
    (void)state;
    dm_move_list *legal = malloc(sizeof *legal);
    assert_non_null(legal);
    unsigned seed = 2024;
    int games = 0, plies = 0;
    for (int vi = 0; vi < dm_variant_count(); vi++) {
        const dm_variant *v = dm_variant_at(vi);
        for (int round = 0; round < 3; round++) {
            dm_position start;
            dm_position_start(v, &start);
            if (round == 2) {
                /* Start from a position a few moves in. */
                for (int i = 0; i < 5; i++) {
                    if (dm_generate(v, &start, legal, 0) <= 0)
                        break;
                    seed = seed * 1103515245u + 12345u;
                    dm_make_move(v, &start, &legal->moves[(seed >> 16) % (unsigned)legal->count]);
                }
            }
            dm_pdn_game g;
            dm_error err;
            dm_pdn_game_init(&g, v, &start);
            char event[64];
            snprintf(event, sizeof event, "Random %s %d", dm_variant_id(v), round);
            assert_int_equal(dm_pdn_game_set_tag(&g, "Event", event), 0);
            for (int ply = 0; ply < 80; ply++) {
                int count = dm_generate(v, &g.end, legal, 0);
                if (count <= 0)
                    break;
                seed = seed * 1103515245u + 12345u;
                const dm_move *m = &legal->moves[(seed >> 16) % (unsigned)count];
                const char *comment = (seed >> 8) % 7 == 0 ? "a comment" : NULL;
                if (dm_pdn_game_add_move(&g, m, comment, &err) != 0)
                    fail_msg("%s: %s", event, err.msg);
                if ((seed >> 4) % 11 == 0)
                    snprintf(g.moves[g.nmoves - 1].mark, 8, "?!");
            }
            g.result = (enum dm_pdn_result)(seed % 5);
            plies += g.nmoves;
            round_trip(&g, event);
            dm_pdn_game_free(&g);
            games++;
        }
    }
    print_message("random games: %d written and read back, %d moves\n", games, plies);
    free(legal);
}

/* ---- random mutations ------------------------------------------------- */

/*
 * Small random edits of the sample files (bytes changed to PDN's special
 * characters or anything, inserted, deleted, repeated), read to the end:
 * no crash (the sanitizer build watches), every failed game with a line and
 * a reason, every good game written and read back the same.
 */
static void test_mutations(void **state)
{
    (void)state;
    char dir[1024], path[1200];
    char **names;
    tests_dir(dir, sizeof dir);
    int nfiles = list_pdn(dir, &names);
    static const char special[] = "{}()[]\"\\%;$*/\n\r\t.-x:0123456789 !?KWB,";
    unsigned seed = 99;
    int rounds = tu_quick() ? 300 : 2000, good = 0, bad = 0;
    size_t cap = 1 << 16;
    char *buf = malloc(cap);
    assert_non_null(buf);
    for (int round = 0; round < rounds; round++) {
        size_t size;
        snprintf(path, sizeof path, "%s/%s", dir, names[round % nfiles]);
        char *data = slurp(path, &size);
        assert_non_null(data);
        assert_true(size < cap / 2);
        memcpy(buf, data, size);
        free(data);
        seed = seed * 1103515245u + 12345u;
        int edits = 1 + (int)((seed >> 16) % 8);
        for (int e = 0; e < edits && size > 2; e++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = (seed >> 8) % size;
            unsigned what = (seed >> 4) % 5;
            seed = seed * 1103515245u + 12345u;
            char c = (seed >> 12) % 4 ? special[(seed >> 16) % (sizeof special - 1)]
                                      : (char)(seed >> 16);
            if (what == 0) {
                buf[at] = c;
            } else if (what == 1 && size + 1 < cap / 2) {
                memmove(buf + at + 1, buf + at, size - at);
                buf[at] = c;
                size++;
            } else if (what == 2) {
                size_t n = 1 + (seed >> 20) % 16;
                if (at + n > size)
                    n = size - at;
                memmove(buf + at, buf + at + n, size - at - n);
                size -= n;
            } else {
                size_t n = 1 + (seed >> 20) % 32;
                if (at + n > size)
                    n = size - at;
                if (size + n < cap / 2) {
                    memmove(buf + at + n, buf + at, size - at);
                    size += n;
                }
            }
        }
        dm_pdn_reader *r = dm_pdn_reader_new(buf, size, NULL);
        assert_non_null(r);
        dm_pdn_game g = {0};
        dm_error err;
        int status;
        while ((status = dm_pdn_read(r, &g, &err)) != 0) {
            if (status < 0) {
                bad++;
                assert_true(g.error_line > 0 && g.error[0]);
                continue;
            }
            good++;
            char where[64];
            snprintf(where, sizeof where, "mutation %d game %d", round, g.number);
            round_trip(&g, where);
        }
        dm_pdn_game_free(&g);
        dm_pdn_reader_free(r);
    }
    print_message("mutations: %d rounds, %d games read, %d rejected\n", rounds, good, bad);
    free(buf);
    tu_free_names(names, nfiles);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_succeed), cmocka_unit_test(test_corpus_fail),
        cmocka_unit_test(test_corpus_guess),   cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_recovery),       cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_encodings),      cmocka_unit_test(test_variant_tags),
        cmocka_unit_test(test_results),        cmocka_unit_test(test_lenient),
        cmocka_unit_test(test_writer),         cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_mutations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
