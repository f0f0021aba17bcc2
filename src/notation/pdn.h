/* SPDX-License-Identifier: MIT */
/*
 * pdn.h - what the PDN files (pdn.c, pdn_read.c, pdn_charset.c) share beyond
 * the public API: a growing text buffer, the encoding repair, the GameType
 * table and the result texts.
 */
#ifndef DM_NOTATION_PDN_H
#define DM_NOTATION_PDN_H

#include <stdarg.h>

#include "damier/notation.h"

/* A growing NUL-terminated string.  Out of memory sets oom and drops
 * further writes, so callers check once at the end. */
struct pdn_buf {
    char *s;
    size_t len, cap;
    bool oom;
};

void pdn_buf_put(struct pdn_buf *b, const char *s, size_t n);
void pdn_buf_puts(struct pdn_buf *b, const char *s);
void pdn_buf_printf(struct pdn_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* data[0..size) as UTF-8 in a malloc'ed NUL-terminated copy (length in
 * *len): lines that are valid UTF-8 are kept, the others decoded from
 * Windows-1251 or Windows-1252 as pdn_charset.c decides; a byte order mark
 * is dropped.  NULL if out of memory. */
char *pdn_to_utf8(const char *data, size_t size, size_t *len);

/* The length of the valid UTF-8 sequence at s[0..n), or 0 if it is not one. */
int pdn_utf8_len(const unsigned char *s, size_t n);

/* GameType numbers (PDN 3.0 table, lidraughts' private 96-98). */
const dm_variant *pdn_variant_of_gametype(int number);
/* What a number the standard defines but Damier does not play is ("Chess"),
 * or NULL. */
const char *pdn_gametype_unplayed(int number);
/* The variant a lidraughts-style Variant tag names (our id or name, any
 * case, punctuation ignored), or NULL; "Standard" and "From Position" name
 * none, which *deferred reports. */
const dm_variant *pdn_variant_named(const char *name, bool *deferred);

/* Reads a result text ("2-0", "1/2-1/2", "*", ...); false if it is none. */
bool pdn_result_parse(const char *text, size_t len, enum dm_pdn_result *r);

/* Appends comment text s[0..n) to b, after a blank if b is not empty, with
 * runs of blanks and control characters folded into one blank, none at the
 * ends, and '}' turned into ')'. */
void pdn_buf_fold(struct pdn_buf *b, const char *s, size_t n);

/* Appends a tag (taking name and value, both malloc'ed); 0 or -1. */
int pdn_game_push_tag(dm_pdn_game *g, char *name, char *value);
/* A new zeroed move at the end of g->moves, or NULL out of memory. */
dm_pdn_move *pdn_game_push_move(dm_pdn_game *g);
/* The index in legal of m (or of the same move by another route), or -1. */
int pdn_find_legal(const dm_move_list *legal, const dm_move *m);

#endif
