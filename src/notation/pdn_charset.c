/* SPDX-License-Identifier: MIT */
/*
 * pdn_charset.c - PDN text into UTF-8, whatever encoding it was saved in.
 *
 * PDN 3.0 requires UTF-8 and recommends that readers accept ISO 8859-1 too.
 * Old files come in three encodings: UTF-8 (or plain ASCII), Latin-1 from
 * Western European programs, and Windows-1251 from Russian ones.  Each line
 * that is valid UTF-8 is kept as it is, so a file that mixes games from
 * several sources loses nothing; the other lines are decoded byte by byte.
 *
 * Which single-byte code page: in Cyrillic text almost every non-ASCII
 * byte is a letter in 0xC0-0xFF standing next to another one (whole words
 * are Cyrillic), while in Western text accented letters stand alone between
 * ASCII ones ("Müller", "Réunion").  So when at least half of the bytes
 * 0xC0-0xFF of the bad lines have such a neighbour, the lines are read as
 * Windows-1251, else as Windows-1252 (Latin-1 with printable characters in
 * 0x80-0x9F instead of control codes).  This is a guess: a Latin-1 file
 * full of runs like "ÄÖ" would be misread, but draughts files hold names and
 * places, where it works.  Bytes with no character become U+FFFD.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "notation/pdn.h"

/* Eight a row, as code page charts print them. */
/* clang-format off */

/* Windows-1251, 0x80-0xBF; 0xC0-0xFF are U+0410-U+044F in order. */
static const uint16_t cp1251_high[64] = {
    0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021,
    0x20AC, 0x2030, 0x0409, 0x2039, 0x040A, 0x040C, 0x040B, 0x040F,
    0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0xFFFD, 0x2122, 0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F,
    0x00A0, 0x040E, 0x045E, 0x0408, 0x00A4, 0x0490, 0x00A6, 0x00A7,
    0x0401, 0x00A9, 0x0404, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x0407,
    0x00B0, 0x00B1, 0x0406, 0x0456, 0x0491, 0x00B5, 0x00B6, 0x00B7,
    0x0451, 0x2116, 0x0454, 0x00BB, 0x0458, 0x0405, 0x0455, 0x0457,
};

/* Windows-1252, 0x80-0x9F; 0xA0-0xFF are Latin-1, the same code points. */
static const uint16_t cp1252_c1[32] = {
    0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
    0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178,
};

/* clang-format on */

int pdn_utf8_len(const unsigned char *s, size_t n)
{
    if (n == 0)
        return 0;
    unsigned c = s[0];
    if (c < 0x80)
        return 1;
    int len;
    unsigned min, cp;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2, min = 0x80, cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3, min = 0x800, cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4, min = 0x10000, cp = c & 0x07;
    } else {
        return 0;
    }
    if (n < (size_t)len)
        return 0;
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    /* Overlong forms, UTF-16 surrogates and code points past U+10FFFF are
     * not characters. */
    if (cp < min || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
        return 0;
    return len;
}

static bool line_is_utf8(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        int k = pdn_utf8_len(s + i, n - i);
        if (k == 0)
            return false;
        i += (size_t)k;
    }
    return true;
}

static size_t line_end(const unsigned char *s, size_t i, size_t size)
{
    while (i < size && s[i] != '\n')
        i++;
    return i < size ? i + 1 : i;
}

static void put_code_point(struct pdn_buf *b, unsigned cp)
{
    char u[3];
    if (cp < 0x80) {
        u[0] = (char)cp;
        pdn_buf_put(b, u, 1);
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | cp >> 6);
        u[1] = (char)(0x80 | (cp & 0x3F));
        pdn_buf_put(b, u, 2);
    } else {
        u[0] = (char)(0xE0 | cp >> 12);
        u[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        pdn_buf_put(b, u, 3);
    }
}

char *pdn_to_utf8(const char *data, size_t size, size_t *len)
{
    const unsigned char *s = (const unsigned char *)data;
    size_t start = 0;
    if (size >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF)
        start = 3;

    /* First pass: the statistics of the lines that are not UTF-8. */
    size_t high = 0, paired = 0;
    for (size_t i = start; i < size;) {
        size_t e = line_end(s, i, size);
        if (!line_is_utf8(s + i, e - i)) {
            for (size_t k = i; k < e; k++) {
                if (s[k] < 0xC0)
                    continue;
                high++;
                if ((k > i && s[k - 1] >= 0xC0) || (k + 1 < e && s[k + 1] >= 0xC0))
                    paired++;
            }
        }
        i = e;
    }
    bool cyrillic = high > 0 && paired * 2 >= high;

    struct pdn_buf b = {0};
    pdn_buf_put(&b, "", 0);
    for (size_t i = start; i < size;) {
        size_t e = line_end(s, i, size);
        if (line_is_utf8(s + i, e - i)) {
            pdn_buf_put(&b, data + i, e - i);
        } else {
            for (size_t k = i; k < e; k++) {
                unsigned c = s[k];
                if (c < 0x80)
                    put_code_point(&b, c);
                else if (cyrillic)
                    put_code_point(&b, c >= 0xC0 ? 0x0410 + (c - 0xC0) : cp1251_high[c - 0x80]);
                else
                    put_code_point(&b, c >= 0xA0 ? c : cp1252_c1[c - 0x80]);
            }
        }
        i = e;
    }
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    *len = b.len;
    return b.s;
}
