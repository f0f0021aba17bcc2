/* SPDX-License-Identifier: MIT */
/*
 * testutil.h - small helpers the unit tests share.
 *
 * The tests are cmocka programs run from the repository root by
 * tools/run-tests.sh; they find their data through environment variables
 * with defaults relative to that root (tu_env).  Everything here is static
 * inline so that a test using only part of it still builds under -Werror.
 */
#ifndef DM_TESTS_TESTUTIL_H
#define DM_TESTS_TESTUTIL_H

/* cmocka.h needs these first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "damier.h"

/* The value of an environment variable, or fallback when unset or empty. */
static inline const char *tu_env(const char *name, const char *fallback)
{
    const char *value = getenv(name);
    return value && *value ? value : fallback;
}

/* Whether DAMIER_QUICK asks for the short run (sanitizer builds). */
static inline bool tu_quick(void)
{
    const char *q = getenv("DAMIER_QUICK");
    return q && *q && strcmp(q, "0") != 0;
}

/* The variant of that id; the test fails if the table does not have it. */
static inline const dm_variant *tu_variant(const char *id)
{
    const dm_variant *v = dm_variant_by_id(id);
    if (!v)
        fail_msg("variant '%s' is not in the table", id);
    return v;
}

/* Reads fen into pos; the test fails with the parser's message if it cannot. */
static inline void tu_position(const dm_variant *v, const char *fen, dm_position *pos)
{
    dm_error err;
    if (dm_fen_parse(v, fen, pos, &err) != 0)
        fail_msg("%s: FEN '%s' rejected: %s", dm_variant_id(v), fen, err.msg);
}

/* Writes every move of list, blank-separated, in the variant's notation (as
 * players would read it) into buf, for failure messages. */
static inline void tu_moves_text(const dm_variant *v, const dm_move_list *list, char *buf,
                                 size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    if (list->count == 0) {
        snprintf(buf, size, "none");
        return;
    }
    for (int i = 0; i < list->count && len + 1 < size; i++) {
        char text[160];
        dm_move_format(v, &list->moves[i], list, text, sizeof text);
        int n = snprintf(buf + len, size - len, "%s%s%s", i ? " " : "", text,
                         (list->moves[i].flags & DM_MOVE_PROMOTES) ? "(K)" : "");
        if (n < 0)
            break;
        len += (size_t)n;
    }
}

/* Steps the xorshift64 generator at *s (which must not be 0) and returns the
 * new state: cheap, and the same sequence on every platform. */
static inline uint64_t tu_xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The legal move of pos written text, generated with flags (dm_gen_flags);
 * the test fails with the parser's message if there is none.  The list is
 * static: a dm_move_list is large for a stack frame. */
static inline dm_move tu_legal_move(const dm_variant *v, const dm_position *pos, const char *text,
                                    unsigned flags)
{
    static dm_move_list list;
    dm_error err;
    dm_generate(v, pos, &list, flags);
    int at = dm_move_parse(v, &list, text, &err);
    if (at < 0)
        fail_msg("%s: cannot play %s: %s", dm_variant_id(v), text, err.msg);
    return list.moves[at];
}

/* Plays the move written text from pos (see tu_legal_move). */
static inline void tu_play(const dm_variant *v, dm_position *pos, const char *text, unsigned flags)
{
    dm_move m = tu_legal_move(v, pos, text, flags);
    dm_make_move(v, pos, &m);
}

/* One move with its whole route for failure messages, as "d4xd7xf7[d6,e7]K":
 * the landing squares, the pieces taken in order, K if it crowns; a removal
 * is its lone square.  No blanks, so that a list of them reads on one line. */
static inline void tu_route_text(const dm_variant *v, const dm_move *m, char *buf, size_t size)
{
    char name[8];
    size_t len = 0;
    dm_cell_name(v, m->from, name, sizeof name);
    len += (size_t)snprintf(buf + len, size - len, "%s", name);
    if (m->njumps == 0) {
        dm_cell_name(v, m->to, name, sizeof name);
        if (!(m->flags & DM_MOVE_REMOVAL))
            len += (size_t)snprintf(buf + len, size - len, "-%s", name);
    }
    for (int i = 0; i < m->njumps && len < size; i++) {
        dm_cell_name(v, m->path[i], name, sizeof name);
        len += (size_t)snprintf(buf + len, size - len, "x%s", name);
    }
    for (int i = 0; i < m->njumps && len < size; i++) {
        dm_cell_name(v, m->captured[i], name, sizeof name);
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? "," : "[", name);
    }
    if (m->njumps && len < size)
        len += (size_t)snprintf(buf + len, size - len, "]");
    if ((m->flags & DM_MOVE_PROMOTES) && len < size)
        snprintf(buf + len, size - len, "K");
}

static inline int tu_strcmp_qsort(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the files of dir ending in suffix, sorted, malloc'ed (free each
 * name and the array).  Returns the count, or -1 if dir cannot be opened. */
static inline int tu_list_dir(const char *dir, const char *suffix, char ***names)
{
    DIR *d = opendir(dir);
    *names = NULL;
    if (!d)
        return -1;
    int n = 0, cap = 0;
    size_t sl = strlen(suffix);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || len <= sl || strcmp(e->d_name + len - sl, suffix) != 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 32;
            char **grown = realloc(*names, (size_t)cap * sizeof **names);
            assert_non_null(grown);
            *names = grown;
        }
        (*names)[n] = strdup(e->d_name);
        assert_non_null((*names)[n]);
        n++;
    }
    closedir(d);
    if (n > 1)
        qsort(*names, (size_t)n, sizeof **names, tu_strcmp_qsort);
    return n;
}

static inline void tu_free_names(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* Removes blanks (and a CR) at both ends of s, in place; returns s. */
static inline char *tu_trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

#endif
