/* SPDX-License-Identifier: MIT */
/*
 * test_text.c - the line reader and the escaper (src/base/text.h): lines
 * with and without a newline, CRLF, overlong lines and NUL bytes each
 * reported and followed by the next line; control bytes, backslashes and
 * broken UTF-8 escaped, good UTF-8 kept, output cut at a boundary.
 */
#include "testutil.h"

#include "base/text.h"

static FILE *input(const char *data, size_t size)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    rewind(f);
    return f;
}

static void test_read_lines(void **state)
{
    (void)state;
    static const char data[] = "32-28\r\nabcdefghij\n18\0-23\n\nlast";
    FILE *f = input(data, sizeof data - 1);
    char buf[8];
    size_t len;
    assert_int_equal(text_read_line(f, buf, sizeof buf, &len), TEXT_LINE_OK);
    assert_string_equal(buf, "32-28");
    assert_int_equal(len, 5);
    assert_int_equal(text_read_line(f, buf, sizeof buf, &len), TEXT_LINE_TOO_LONG);
    assert_string_equal(buf, "abcdefg");
    assert_int_equal(text_read_line(f, buf, sizeof buf, &len), TEXT_LINE_NUL);
    assert_string_equal(buf, "18");
    assert_int_equal(text_read_line(f, buf, sizeof buf, &len), TEXT_LINE_OK);
    assert_string_equal(buf, "");
    assert_int_equal(len, 0);
    assert_int_equal(text_read_line(f, buf, sizeof buf, NULL), TEXT_LINE_OK);
    assert_string_equal(buf, "last");
    assert_int_equal(text_read_line(f, buf, sizeof buf, &len), TEXT_LINE_EOF);
    fclose(f);
}

static void expect_escape(const char *in, size_t len, size_t size, const char *want)
{
    char out[256];
    assert_true(size <= sizeof out);
    assert_ptr_equal(text_escape(in, len, out, size), out);
    if (strcmp(out, want) != 0)
        fail_msg("escape: got '%s', want '%s'", out, want);
}

static void test_escape(void **state)
{
    (void)state;
    expect_escape("W:W31", 5, 64, "W:W31");
    expect_escape("\x1b[2J31", 6, 64, "\\e[2J31");
    expect_escape("a\tb\nc\rd\\e", 9, 64, "a\\tb\\nc\\rd\\\\e");
    expect_escape("\x01\x7f", 2, 64, "\\x01\\x7f");
    expect_escape("a\0b", 3, 64, "a\\x00b");
    expect_escape("M\xc3\xbcller", 7, 64, "M\xc3\xbcller");        /* ü kept     */
    expect_escape("\xc3(", 2, 64, "\\xc3(");                      /* cut short  */
    expect_escape("\xc0\xaf", 2, 64, "\\xc0\\xaf");               /* overlong   */
    expect_escape("\xed\xa0\x80", 3, 64, "\\xed\\xa0\\x80");       /* surrogate  */
    expect_escape("\xf0\x9f\x99\x82", 4, 64, "\xf0\x9f\x99\x82"); /* emoji kept */
    /* Cut to fit, never in the middle of an escape or a character. */
    expect_escape("ab\x1b", 3, 4, "ab");
    expect_escape("a\xc3\xbc", 3, 3, "a");
    expect_escape("abc", 3, 1, "");
    /* text_safe keeps backslashes, so a message that quotes escaped input
     * comes out the same, while a raw control byte is still caught. */
    char out2[64];
    assert_string_equal(text_safe("move '\\e[2J' \x1b", 14, out2, sizeof out2),
                        "move '\\e[2J' \\e");
    /* The bound holds for the worst input. */
    char worst[16], out[TEXT_ESCAPED_SIZE(16)];
    memset(worst, 0x01, sizeof worst);
    text_escape(worst, sizeof worst, out, sizeof out);
    assert_int_equal(strlen(out), 4 * sizeof worst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_lines),
        cmocka_unit_test(test_escape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
