/* SPDX-License-Identifier: MIT */
/*
 * text.c - the line reader and the escaper of text.h.
 */
#include "base/text.h"

#include <stdbool.h>
#include <string.h>

enum text_line text_read_line(FILE *in, char *buf, size_t size, size_t *len)
{
    size_t n = 0;
    bool nul = false, long_line = false, any = false;
    int c;
    while ((c = getc(in)) != EOF) {
        any = true;
        if (c == '\n')
            break;
        if (c == '\0')
            nul = true;
        if (nul || long_line)
            continue; /* consumed, not kept */
        if (n + 1 < size)
            buf[n++] = (char)c;
        else
            long_line = true;
    }
    if (n > 0 && buf[n - 1] == '\r' && !long_line)
        n--;
    buf[n] = '\0';
    if (len)
        *len = n;
    if (!any)
        return TEXT_LINE_EOF;
    return nul ? TEXT_LINE_NUL : long_line ? TEXT_LINE_TOO_LONG : TEXT_LINE_OK;
}

size_t text_utf8_length(const unsigned char *s, size_t left)
{
    unsigned char c = s[0];
    size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
    if (c >= 0xF5)
        n = 0;
    if (n == 0 || n > left)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] >= 0xA0) ||
        (c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] >= 0x90))
        return 0;
    return n;
}

static char *escape(const char *text, size_t len, char *out, size_t size, bool backslash);

char *text_escape(const char *text, size_t len, char *out, size_t size)
{
    return escape(text, len, out, size, true);
}

char *text_safe(const char *text, size_t len, char *out, size_t size)
{
    return escape(text, len, out, size, false);
}

static char *escape(const char *text, size_t len, char *out, size_t size, bool backslash)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *s = (const unsigned char *)text;
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        char piece[8];
        size_t n = 0, used = 1;
        unsigned char c = s[i];
        size_t u = c >= 0x80 ? text_utf8_length(s + i, len - i) : 0;
        if (u) {
            memcpy(piece, s + i, u);
            n = used = u;
        } else if (c >= 0x20 && c < 0x7F && (c != '\\' || !backslash)) {
            piece[n++] = (char)c;
        } else {
            const char *named = c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r"
                              : c == 0x1B ? "\\e" : c == '\\' ? "\\\\" : NULL;
            if (named) {
                n = strlen(named);
                memcpy(piece, named, n);
            } else {
                piece[0] = '\\', piece[1] = 'x', piece[2] = hex[c >> 4], piece[3] = hex[c & 15];
                n = 4;
            }
        }
        if (o + n >= size)
            break;
        memcpy(out + o, piece, n);
        o += n;
        i += used;
    }
    out[o] = '\0';
    return out;
}
