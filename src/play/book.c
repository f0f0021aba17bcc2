/* SPDX-License-Identifier: MIT */
/*
 * book.c - opening books: the moves Damier's own analysis found good in
 * the first plies of a variant, so that the computer plays the opening
 * at once and varies it.
 *
 * A book maps a position to its good moves, each with the score the
 * analysis gave it for the side to move.  It is built (dm_book_build) by
 * searching the start position and then every position its kept moves
 * lead to, breadth first, with a multipv search at a node budget: a move
 * is kept when it scores within the margin of the position's best, so a
 * book holds a few good moves where the choice is open and one where the
 * position has one good move.  The computer picks among the kept moves
 * that score within a margin of the best (dm_book_choose), at random from
 * its seed: the same seed, the same game.
 *
 * A position is keyed by a 64-bit hash of its FEN, so a key means the
 * same on every build and machine; a move by its from and to cells and a
 * 16-bit fold of its captured cells, found again among the legal moves
 * when probed (a key or move that matches nothing is no move).
 *
 * The file: text lines ("DMBOOK 1", "variant ID", "positions N",
 * "moves N", "made ...") up to an empty line, then N records of 16
 * little-endian bytes (key 8, from 1, to 1, captured 2, score 2, 2 zero),
 * sorted by key and, within a key, best score first.
 */
#include "play/play.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"

#define BOOK_MAX_MOVES_PER_POSITION 16

struct dm_book {
    const dm_variant *variant;
    int positions;
    int count;
    struct book_entry *entries; /* sorted by key, best first within one  */
    char made[200];
};

/* ---- keys ------------------------------------------------------------------------- */

uint64_t play_book_key(const dm_variant *v, const dm_position *pos)
{
    char fen[1024];
    dm_fen_format(v, pos, fen, sizeof fen);
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
    for (const char *c = fen; *c; c++)
        h = (h ^ (uint8_t)*c) * 0x100000001b3ULL;
    return h;
}

uint16_t play_book_fold(dm_bits set)
{
    uint64_t lo = (uint64_t)set, hi = (uint64_t)(set >> 64);
    uint64_t x = lo ^ (hi * 0x9e3779b97f4a7c15ULL);
    x ^= x >> 32;
    x ^= x >> 16;
    return (uint16_t)x;
}

/* ---- probing ---------------------------------------------------------------------- */

/* The first entry of key, or count if there is none. */
static int first_of(const dm_book *b, uint64_t key)
{
    int lo = 0, hi = b->count;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (b->entries[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < b->count && b->entries[lo].key == key ? lo : b->count;
}

int dm_book_moves(const dm_book *b, const dm_position *pos, dm_book_move *out, int max)
{
    if (!b)
        return 0;
    dm_move_list legal;
    if (dm_generate(b->variant, pos, &legal, 0) <= 0)
        return 0;
    uint64_t key = play_book_key(b->variant, pos);
    int n = 0;
    for (int i = first_of(b, key); i < b->count && b->entries[i].key == key && n < max; i++) {
        const struct book_entry *e = &b->entries[i];
        for (int j = 0; j < legal.count; j++) {
            const dm_move *m = &legal.moves[j];
            if (m->from == e->from && m->to == e->to &&
                play_book_fold(m->captured_set) == e->captured) {
                out[n++] = (dm_book_move){.move = *m, .score = e->score};
                break;
            }
        }
    }
    return n;
}

bool dm_book_choose(const dm_book *b, const dm_position *pos, int margin, uint64_t seed,
                    dm_move *mv)
{
    dm_book_move moves[BOOK_MAX_MOVES_PER_POSITION];
    int n = dm_book_moves(b, pos, moves, BOOK_MAX_MOVES_PER_POSITION);
    if (n == 0)
        return false;
    int best = moves[0].score, near = 0;
    for (int i = 0; i < n; i++)
        if (moves[i].score >= best - margin)
            moves[near++] = moves[i];
    /* splitmix64 of the seed: one draw, so that seed 0 varies as well */
    uint64_t z = seed + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    *mv = moves[z % (uint64_t)near].move;
    return true;
}

int dm_book_size(const dm_book *b, int *positions)
{
    if (positions)
        *positions = b ? b->positions : 0;
    return b ? b->count : 0;
}

const char *dm_book_made(const dm_book *b)
{
    return b ? b->made : "";
}

void dm_book_free(dm_book *b)
{
    if (b) {
        free(b->entries);
        free(b);
    }
}

/* ---- reading ---------------------------------------------------------------------- */

static uint64_t get_le(const unsigned char *p, int n)
{
    uint64_t x = 0;
    for (int i = n - 1; i >= 0; i--)
        x = x << 8 | p[i];
    return x;
}

/* The next header line of text[*at..size) into line (without its '\n');
 * false if none ends within the header's room. */
static bool header_line(const char *text, size_t size, size_t *at, char *line, size_t room)
{
    const char *nl = memchr(text + *at, '\n', size - *at);
    if (!nl || (size_t)(nl - (text + *at)) >= room)
        return false;
    size_t n = (size_t)(nl - (text + *at));
    memcpy(line, text + *at, n);
    line[n] = '\0';
    *at += n + 1;
    return true;
}

static dm_book *refuse(dm_book *b, dm_error *err, const char *what)
{
    snprintf(err->msg, sizeof err->msg, "not a book of Damier: %s", what);
    dm_book_free(b);
    return NULL;
}

dm_book *dm_book_read(const dm_variant *v, const void *data, size_t size, dm_error *err)
{
    const char *text = data;
    dm_book *b = calloc(1, sizeof *b);
    if (!b)
        return refuse(b, err, "out of memory");
    b->variant = v;
    char line[256], what[300], esc[128];
    size_t at = 0;
    long long count = -1, positions = -1;
    bool variant_seen = false;
    if (!header_line(text, size, &at, line, sizeof line) || strcmp(line, BOOK_MAGIC) != 0)
        return refuse(b, err, "it does not start with '" BOOK_MAGIC "'");
    for (;;) {
        if (!header_line(text, size, &at, line, sizeof line))
            return refuse(b, err, "its header does not end with an empty line");
        if (!line[0])
            break;
        char word[32];
        long long n;
        if (sscanf(line, "variant %31s", word) == 1) {
            if (strcmp(word, dm_variant_id(v)) != 0) {
                snprintf(what, sizeof what, "it is a book of %s, not of %s",
                         text_escape(word, strlen(word), esc, sizeof esc),
                         dm_variant_id(v));
                return refuse(b, err, what);
            }
            variant_seen = true;
        } else if (sscanf(line, "positions %lld", &n) == 1) {
            positions = n;
        } else if (sscanf(line, "moves %lld", &n) == 1) {
            count = n;
        } else if (strncmp(line, "made ", 5) == 0) {
            snprintf(b->made, sizeof b->made, "%s", line + 5);
        } else {
            snprintf(what, sizeof what, "unknown header line '%.60s'",
                     text_escape(line, strlen(line), esc, sizeof esc));
            return refuse(b, err, what);
        }
    }
    if (!variant_seen || count < 0 || positions < 0)
        return refuse(b, err, "its header lacks the variant, positions or moves");
    if (count > (long long)((size - at) / BOOK_RECORD) || (size - at) % BOOK_RECORD != 0 ||
        (size_t)count * BOOK_RECORD != size - at) {
        snprintf(what, sizeof what, "it says %lld moves but holds %zu bytes of them", count,
                 size - at);
        return refuse(b, err, what);
    }
    b->count = (int)count;
    b->positions = (int)positions;
    b->entries = malloc((size_t)(count ? count : 1) * sizeof *b->entries);
    if (!b->entries)
        return refuse(b, err, "out of memory");
    const unsigned char *p = (const unsigned char *)text + at;
    int cells = dm_variant_cells(v);
    long long distinct = 0;
    for (int i = 0; i < b->count; i++, p += BOOK_RECORD) {
        struct book_entry *e = &b->entries[i];
        *e = (struct book_entry){.key = get_le(p, 8), .from = p[8], .to = p[9],
                                 .captured = (uint16_t)get_le(p + 10, 2),
                                 .score = (int16_t)(uint16_t)get_le(p + 12, 2)};
        if (e->from >= cells || e->to >= cells) {
            snprintf(what, sizeof what, "move %d goes from cell %d to %d of a %d-cell board",
                     i + 1, e->from, e->to, cells);
            return refuse(b, err, what);
        }
        if (i > 0 && (e->key < e[-1].key || (e->key == e[-1].key && e->score > e[-1].score))) {
            snprintf(what, sizeof what, "move %d is out of order", i + 1);
            return refuse(b, err, what);
        }
        distinct += i == 0 || e->key != e[-1].key;
    }
    if (distinct != positions) {
        snprintf(what, sizeof what, "it says %lld positions but holds %lld", positions, distinct);
        return refuse(b, err, what);
    }
    return b;
}

dm_book *dm_book_load(const dm_variant *v, const char *path, dm_error *err)
{
    char esc[256];
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "cannot open %s: %s",
                 text_escape(path, strlen(path), esc, sizeof esc), strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, len = 0, n;
    char *data = malloc(cap);
    while (data && (n = fread(data + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            char *more = realloc(data, cap *= 2);
            if (!more) {
                free(data);
                data = NULL;
            }
            data = more;
        }
    }
    bool failed = ferror(f);
    fclose(f);
    if (!data || failed) {
        snprintf(err->msg, sizeof err->msg, "cannot read %s",
                 text_escape(path, strlen(path), esc, sizeof esc));
        free(data);
        return NULL;
    }
    dm_book *b = dm_book_read(v, data, len, err);
    free(data);
    return b;
}

/* ---- the books built in ------------------------------------------------------------- */

/* Each variant's book is read at its first use; after that the lookup is
 * a walk of a few dozen pointers under the lock, once a computer move. */
static pthread_mutex_t builtin_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    const dm_variant *variant;
    dm_book *book; /* NULL: it has none, or its bytes were refused */
} builtin[64];
static int nbuiltin;

const dm_book *dm_book_builtin(const dm_variant *v)
{
    pthread_mutex_lock(&builtin_lock);
    const dm_book *found = NULL;
    int i = 0;
    while (i < nbuiltin && builtin[i].variant != v)
        i++;
    if (i < nbuiltin) {
        found = builtin[i].book;
    } else if (nbuiltin < (int)(sizeof builtin / sizeof *builtin)) {
        size_t size = 0;
        const unsigned char *bytes = play_book_embedded(dm_variant_id(v), &size);
        dm_error err;
        dm_book *b = bytes ? dm_book_read(v, bytes, size, &err) : NULL;
        if (bytes && !b) /* a build with a broken book: say so once, play without it */
            fprintf(stderr, "damier: the built-in book of %s: %s\n", dm_variant_id(v), err.msg);
        builtin[nbuiltin].variant = v;
        builtin[nbuiltin++].book = b;
        found = b;
    }
    pthread_mutex_unlock(&builtin_lock);
    return found;
}
