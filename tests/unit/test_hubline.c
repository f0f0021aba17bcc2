/* SPDX-License-Identifier: MIT */
/*
 * test_hubline.c - Hub lines read and written (src/proto/hubline.c): the
 * examples of Scan's protocol.txt, quoting, flags, blanks, and malformed
 * lines refused with the reason.
 */
#include "testutil.h"

#include "proto/hubline.h"

static struct hub_line line;

static void parse_ok(const char *text)
{
    char why[80];
    if (hub_line_parse(text, &line, why, sizeof why) != 0)
        fail_msg("'%s' refused: %s", text, why);
}

static void test_read(void **state)
{
    (void)state;
    parse_ok("id name=Scan version=3.0 author=\"Fabien Letouzey\" country=France");
    assert_string_equal(line.command, "id");
    assert_int_equal(line.nargs, 4);
    assert_string_equal(hub_line_arg(&line, "author"), "Fabien Letouzey");
    assert_string_equal(hub_line_arg(&line, "country"), "France");
    assert_null(hub_line_arg(&line, "Country"));

    parse_ok("pos pos=BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee moves=\"38-15 5-41 48-26\"");
    assert_string_equal(line.command, "pos");
    assert_string_equal(hub_line_arg(&line, "moves"), "38-15 5-41 48-26");

    parse_ok("go think");
    assert_string_equal(line.command, "go");
    assert_true(hub_line_has(&line, "think"));
    assert_true(line.args[0].flag);
    assert_string_equal(hub_line_arg(&line, "think"), "");

    parse_ok("  level   moves=9 time=291.587\r");
    assert_string_equal(line.command, "level");
    assert_string_equal(hub_line_arg(&line, "time"), "291.587");

    parse_ok("set-param name=variant value=\"\"");
    assert_string_equal(hub_line_arg(&line, "value"), "");
    assert_false(line.args[1].flag);

    parse_ok("");
    assert_string_equal(line.command, "");
    assert_int_equal(line.nargs, 0);

    parse_ok("param name=variant value=normal type=enum values=\"normal killer bt\"");
    assert_string_equal(hub_line_arg(&line, "values"), "normal killer bt");
}

static void parse_bad(const char *text, const char *reason)
{
    char why[80] = "";
    if (hub_line_parse(text, &line, why, sizeof why) == 0)
        fail_msg("'%s' accepted", text);
    assert_string_equal(why, reason);
}

static void test_refuse(void **state)
{
    (void)state;
    parse_bad("pos moves=\"32-28 18-23", "a quote is never closed");
    parse_bad("\"pos", "a quote is never closed");
    char many[600] = "go";
    for (int i = 0; i <= HUB_MAX_ARGS; i++)
        strcat(many, " x=1");
    parse_bad(many, "too many arguments");
    static char huge[HUB_LINE_MAX + 10];
    memset(huge, 'a', sizeof huge - 1);
    parse_bad(huge, "line too long");
}

static void test_write(void **state)
{
    (void)state;
    struct hub_out out;
    hub_out_start(&out, "id");
    hub_out_arg(&out, "name", "Damier");
    hub_out_arg(&out, "author", "The Damier authors");
    hub_out_arg(&out, "empty", "");
    hub_out_arg(&out, "eq", "a=b");
    hub_out_arg(&out, "quote", "say \"hi\"");
    hub_out_argf(&out, "score", "%+.2f", 0.25);
    hub_out_flag(&out, "wait");
    assert_string_equal(hub_out_end(&out), "id name=Damier author=\"The Damier authors\" "
                                           "empty=\"\" eq=\"a=b\" quote=\"say 'hi'\" "
                                           "score=+0.25 wait\n");
    /* What is written reads back. */
    parse_ok(out.buf);
    assert_string_equal(hub_line_arg(&line, "author"), "The Damier authors");
    assert_string_equal(hub_line_arg(&line, "eq"), "a=b");
    assert_true(hub_line_has(&line, "wait"));
    /* Too long: cut, still one line. */
    static char big[HUB_LINE_MAX * 2];
    memset(big, 'm', sizeof big - 1);
    hub_out_start(&out, "info");
    hub_out_arg(&out, "pv", big);
    const char *text = hub_out_end(&out);
    assert_int_equal(strlen(text), HUB_LINE_MAX - 1);
    assert_int_equal(text[strlen(text) - 1], '\n');
    assert_null(strchr(text, '\n') + 1 == text + strlen(text) ? NULL : "two lines");
}

/* A value with a line break but no blank (as an echoed message may hold)
 * is quoted, so that its break, written as a blank, stays inside it: it
 * once came back as two arguments (fuzz_hubline). */
static void test_write_line_break(void **state)
{
    (void)state;
    struct hub_out out;
    hub_out_start(&out, "error");
    hub_out_arg(&out, "message", "a\r\nb");
    hub_out_arg(&out, "lf", "c\nd");
    assert_string_equal(hub_out_end(&out), "error message=\"a  b\" lf=\"c d\"\n");
    parse_ok(out.buf);
    assert_int_equal(line.nargs, 2);
    assert_string_equal(hub_line_arg(&line, "message"), "a  b");
    assert_string_equal(hub_line_arg(&line, "lf"), "c d");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read),
        cmocka_unit_test(test_refuse),
        cmocka_unit_test(test_write),
        cmocka_unit_test(test_write_line_break),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
