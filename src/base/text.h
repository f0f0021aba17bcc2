/* SPDX-License-Identifier: MIT */
/*
 * text.h - input lines and text shown back to a person.
 *
 * Every front end reads lines (moves, FENs, commands) and shows bad input
 * back in its error messages.  Both are written once here: a line reader
 * that tells an overlong line and a NUL byte from a good line and always
 * goes on with the next one, and an escaper that keeps control characters
 * from reaching the terminal as they are.
 */
#ifndef DM_BASE_TEXT_H
#define DM_BASE_TEXT_H

#include <stddef.h>
#include <stdio.h>

enum text_line {
    TEXT_LINE_OK = 0,   /* buf holds the line, without its "\n" or "\r\n"   */
    TEXT_LINE_EOF,      /* no line left                                       */
    TEXT_LINE_TOO_LONG, /* longer than size - 1: buf holds its start          */
    TEXT_LINE_NUL,      /* the line holds a NUL byte: buf holds it up to there */
};

/*
 * Reads the next line of in into buf (size > 1), NUL-terminated.  The whole
 * line is consumed whatever the status, so the next call reads the next
 * line; the last line may lack its newline.  *len (may be NULL) gets the
 * length kept in buf.
 */
enum text_line text_read_line(FILE *in, char *buf, size_t size, size_t *len);

/*
 * Writes text[0..len) into out (size > 0, always NUL-terminated, cut to fit
 * at a character boundary) with what a terminal would act on escaped: C0
 * controls and DEL as \n, \t, \r, \e or \xHH, a backslash as \\, bytes that
 * are not valid UTF-8 as \xHH; valid UTF-8 is kept.  Returns out, so that
 * it can be an argument of printf.
 */
char *text_escape(const char *text, size_t len, char *out, size_t size);

/* The same, but a backslash is kept as it is: for a whole message that
 * may already quote escaped input (from the library's dm_error), so that
 * escaping it again changes nothing while a raw control byte is still
 * caught. */
char *text_safe(const char *text, size_t len, char *out, size_t size);

/* The length of the valid UTF-8 sequence at s[0..left), or 0 where none
 * starts (overlong forms, surrogates and values past U+10FFFF are
 * invalid). */
size_t text_utf8_length(const unsigned char *s, size_t left);

/* The room text_escape or text_safe may need for len bytes of input, its NUL included. */
#define TEXT_ESCAPED_SIZE(len) (4 * (len) + 1)

#endif
