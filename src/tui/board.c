/* SPDX-License-Identifier: MIT */
/*
 * board.c - the board drawn as text: plain letters for scripts, ANSI colour
 * and Unicode pieces for the full screen.
 *
 * Both walk the variant's geometry (docs/variants.md, "board"): rank by rank from the top
 * as White sees it (from the bottom when flipped), a cell where the geometry
 * has one, a blank or light square where it has none.  Numeric variants
 * show square numbers (in empty squares, and the range of each row beside
 * the board); algebraic ones show file letters and rank numbers.
 */
#include <stdio.h>
#include <string.h>

#include "base/bits.h"
#include "rules/variant.h"
#include "tui/tui.h"

/* Colours (xterm 256): a wooden board, the last move in gold. */
#define COL_DARK        "\x1b[48;5;94m"
#define COL_LIGHT       "\x1b[48;5;223m"
#define COL_MARK        "\x1b[48;5;172m"
#define COL_WHITE_PIECE "\x1b[1;38;5;231m"
#define COL_BLACK_PIECE "\x1b[22;38;5;16m"
#define COL_NUMBER      "\x1b[22;38;5;180m"
#define COL_LABEL       "\x1b[0;38;5;250m"
#define COL_RESET       "\x1b[0m"

#define GLYPH_MAN  "\xe2\x97\x8f" /* U+25CF black circle */
#define GLYPH_KING "\xe2\x99\x9b" /* U+265B black chess queen */

/* Appends s to buf[0..*len), cut to what fits. */
static void put(char *buf, size_t size, size_t *len, const char *s)
{
    size_t n = strlen(s);
    if (*len + n >= size)
        n = *len + 1 < size ? size - *len - 1 : 0;
    memcpy(buf + *len, s, n);
    *len += n;
    if (size)
        buf[*len] = '\0';
}

/* The file and rank shown at screen column i and row j. */
static int file_at(const struct geometry *g, bool flipped, int i)
{
    return flipped ? g->files - 1 - i : i;
}

static int rank_at(const struct geometry *g, bool flipped, int j)
{
    return flipped ? j : g->ranks - 1 - j;
}

/* The names of the first and last cells of screen row j ("1-4"), or "". */
static void row_range(const dm_variant *v, bool flipped, int j, char *buf, size_t size)
{
    const struct geometry *g = v->geo;
    int first = -1, last = -1;
    for (int i = 0; i < g->files; i++) {
        int c = g->cell_at[rank_at(g, flipped, j)][file_at(g, flipped, i)];
        if (c < 0)
            continue;
        if (first < 0)
            first = c;
        last = c;
    }
    buf[0] = '\0';
    if (first < 0 || !dm_variant_is_numeric(v))
        return;
    char a[8], b[8];
    dm_cell_name(v, first, a, sizeof a);
    dm_cell_name(v, last, b, sizeof b);
    snprintf(buf, size, "%s-%s", a, b);
}

static char piece_letter(const dm_position *pos, int c)
{
    dm_bits bit = BIT128(c);
    char l = (pos->white & bit) ? 'w' : (pos->black & bit) ? 'b' : '.';
    if (l != '.' && (pos->kings & bit))
        l = (char)(l - 'a' + 'A');
    if (l != '.' && (pos->paras & bit))
        l = l == 'w' ? 'p' : 'q';
    return l;
}

size_t tui_board_text(const dm_variant *v, const dm_position *pos, bool flipped, char *buf,
                      size_t size)
{
    const struct geometry *g = v->geo;
    size_t len = 0;
    char files[64] = "    ", line[128], range[16];
    for (int i = 0; i < g->files; i++) {
        char f[4] = {(char)('a' + file_at(g, flipped, i)), ' ', 0};
        strcat(files, f);
    }
    files[strlen(files) - 1] = '\n'; /* the blank after the last letter */
    if (size)
        buf[0] = '\0';
    put(buf, size, &len, files);
    for (int j = 0; j < g->ranks; j++) {
        int rank = rank_at(g, flipped, j);
        snprintf(line, sizeof line, "%3d ", rank + 1);
        for (int i = 0; i < g->files; i++) {
            int c = g->cell_at[rank][file_at(g, flipped, i)];
            char sq[3] = {c < 0 ? ' ' : piece_letter(pos, c), ' ', 0};
            strcat(line, sq);
        }
        row_range(v, flipped, j, range, sizeof range);
        if (range[0]) {
            strcat(line, "  ");
            strcat(line, range);
        }
        size_t n = strlen(line);
        while (n > 0 && line[n - 1] == ' ')
            line[--n] = '\0';
        strcat(line, "\n");
        put(buf, size, &len, line);
    }
    put(buf, size, &len, files);
    return len;
}

/* Whether cell c is part of the last move: where it came from, went through
 * or stopped. */
static bool marked(const dm_move *last, int c)
{
    if (!last)
        return false;
    if (last->from == c || last->to == c)
        return true;
    for (int i = 0; i < last->njumps; i++)
        if (last->path[i] == c)
            return true;
    return false;
}

int tui_board_screen(const dm_variant *v, const dm_position *pos, const dm_move *last, bool flipped,
                     char rows[][TUI_ROW_BYTES])
{
    const struct geometry *g = v->geo;
    bool numeric = dm_variant_is_numeric(v);
    int n = 0;
    char cell[64], range[16];

    /* Files above and below. */
    char files[TUI_ROW_BYTES];
    size_t flen = 0;
    files[0] = '\0';
    put(files, sizeof files, &flen, COL_LABEL "   ");
    for (int i = 0; i < g->files; i++) {
        snprintf(cell, sizeof cell, " %c ", 'a' + file_at(g, flipped, i));
        put(files, sizeof files, &flen, cell);
    }
    put(files, sizeof files, &flen, COL_RESET);
    if (!numeric)
        snprintf(rows[n++], TUI_ROW_BYTES, "%s", files);

    for (int j = 0; j < g->ranks; j++) {
        int rank = rank_at(g, flipped, j);
        char *row = rows[n++];
        size_t len = 0;
        row[0] = '\0';
        if (numeric)
            snprintf(cell, sizeof cell, COL_LABEL "   ");
        else
            snprintf(cell, sizeof cell, COL_LABEL "%2d ", rank + 1);
        put(row, TUI_ROW_BYTES, &len, cell);
        for (int i = 0; i < g->files; i++) {
            int file = file_at(g, flipped, i);
            int c = g->cell_at[rank][file];
            /* Playing squares dark; on a board where every square plays,
             * the checkering still helps the eye. */
            bool dark = c >= 0 && (g->ncells < g->files * g->ranks || (file + rank) % 2 == 0);
            const char *bg = c >= 0 && marked(last, c) ? COL_MARK : dark ? COL_DARK : COL_LIGHT;
            put(row, TUI_ROW_BYTES, &len, bg);
            if (c < 0) {
                put(row, TUI_ROW_BYTES, &len, "   ");
                continue;
            }
            dm_bits bit = BIT128(c);
            if ((pos->white | pos->black) & bit) {
                snprintf(cell, sizeof cell, "%s %s ",
                         (pos->white & bit) ? COL_WHITE_PIECE : COL_BLACK_PIECE,
                         (pos->kings & bit)   ? GLYPH_KING
                         : (pos->paras & bit) ? "P"
                                              : GLYPH_MAN);
            } else if (numeric) {
                char name[8];
                dm_cell_name(v, c, name, sizeof name);
                snprintf(cell, sizeof cell, COL_NUMBER "%3s", name);
            } else {
                snprintf(cell, sizeof cell, "   ");
            }
            put(row, TUI_ROW_BYTES, &len, cell);
        }
        put(row, TUI_ROW_BYTES, &len, COL_RESET);
        row_range(v, flipped, j, range, sizeof range);
        if (range[0]) {
            snprintf(cell, sizeof cell, COL_LABEL " %-6s" COL_RESET, range);
            put(row, TUI_ROW_BYTES, &len, cell);
        }
    }
    if (!numeric)
        snprintf(rows[n++], TUI_ROW_BYTES, "%s", files);
    return n;
}
