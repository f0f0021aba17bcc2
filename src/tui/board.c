/* SPDX-License-Identifier: MIT */
/*
 * board.c - the board drawn as text: plain letters for scripts, ANSI colour
 * and Unicode pieces for the full screen.
 *
 * Both walk the board geometry of the public API (damier/rules.h) and name
 * cells with dm_cell_name, as every front end must: rank by rank from the top
 * as White sees it (from the bottom when flipped), a cell where the geometry
 * has one, a blank or light square where it has none.  Numeric variants
 * show square numbers (in empty squares, and the range of each row beside
 * the board); algebraic ones show file letters and rank numbers.  On the
 * full screen the alquerque grid is drawn as points joined by its lines.
 */
#include <stdio.h>
#include <string.h>

#include "base/bits.h"
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

/* The pieces by kind and side.  In colour both sides share the filled
 * shapes; without colour White's are the hollow ones, so that the sides
 * still differ (as the letters w and b do in the plain board). */
enum { MAN, KING, PARA };
static const char *const glyph_colour[3] = {
    [MAN] = "\xe2\x97\x8f",  /* U+25CF black circle       */
    [KING] = "\xe2\x99\x9b", /* U+265B black chess queen  */
    [PARA] = "P",
};
static const char *const glyph_plain[3][2] = {
    [MAN] = {"\xe2\x97\x8b", "\xe2\x97\x8f"},  /* U+25CB white, U+25CF black circle */
    [KING] = {"\xe2\x99\x95", "\xe2\x99\x9b"}, /* U+2655 white, U+265B black queen  */
    [PARA] = {"\xe2\x97\x87", "\xe2\x97\x86"}, /* U+25C7 white, U+25C6 black diamond */
};
#define GLYPH_EMPTY "\xc2\xb7" /* U+00B7 middle dot: an empty square, without colour */

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

/* The file and rank shown at screen column i and row j: the drawing's
 * column and row (White at the bottom), turned 180 degrees when flipped. */
static int file_at(const dm_variant *v, bool flipped, int i)
{
    return flipped ? dm_variant_board_files(v) - 1 - i : i;
}

static int rank_at(const dm_variant *v, bool flipped, int j)
{
    return flipped ? j : dm_variant_board_ranks(v) - 1 - j;
}

/* The names of the first and last cells of screen row j ("1-4"), or "". */
static void row_range(const dm_variant *v, bool flipped, int j, char *buf, size_t size)
{
    int first = -1, last = -1;
    for (int i = 0; i < dm_variant_board_files(v); i++) {
        int c = dm_square_cell(v, file_at(v, flipped, i), rank_at(v, flipped, j));
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
    int nfiles = dm_variant_board_files(v), nranks = dm_variant_board_ranks(v);
    size_t len = 0;
    char files[64] = "    ", line[128], range[16];
    for (int i = 0; i < nfiles; i++) {
        char f[4] = {(char)('a' + file_at(v, flipped, i)), ' ', 0};
        strcat(files, f);
    }
    files[strlen(files) - 1] = '\n'; /* the blank after the last letter */
    if (size)
        buf[0] = '\0';
    put(buf, size, &len, files);
    for (int j = 0; j < nranks; j++) {
        int rank = rank_at(v, flipped, j);
        snprintf(line, sizeof line, "%3d ", rank + 1);
        for (int i = 0; i < nfiles; i++) {
            int c = dm_square_cell(v, file_at(v, flipped, i), rank);
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

/* Puts an ANSI colour sequence, only when colour is on. */
static void paint(char *row, size_t *len, bool colour, const char *sgr)
{
    if (colour)
        put(row, TUI_ROW_BYTES, len, sgr);
}

/* ---- the point grid ------------------------------------------------------- */

/* A grid of points (alquerque) is drawn as its points joined by its lines,
 * the lines of dm_board_lines: a point every GRID_STEP columns on every
 * other row, the lines between them in box-drawing characters, a column
 * each side of a point for the brackets of the last move. */
#define GRID_STEP  4
#define GRID_ROWS  (TUI_BOARD_ROWS - 2) /* the file letters above and below */
#define GRID_COLS  (TUI_BOARD_COLS - 3) /* the rank numbers at the left      */
#define GRID_LINE  "\x1b[22;38;5;223m"  /* light lines on the dark wood     */
#define LINE_H     "\xe2\x94\x80"       /* U+2500 ─ */
#define LINE_V     "\xe2\x94\x82"       /* U+2502 │ */
#define LINE_DOWN  "\xe2\x95\xb2"       /* U+2572 ╲ */
#define LINE_UP    "\xe2\x95\xb1"       /* U+2571 ╱ */
#define LINE_CROSS "\xe2\x95\xb3"       /* U+2573 ╳ */

struct grid {
    int width, height;
    const char *glyph[GRID_ROWS][GRID_COLS]; /* one column each             */
    const char *fg[GRID_ROWS][GRID_COLS];    /* with colour: its foreground */
    bool mark[GRID_ROWS][GRID_COLS];         /* with colour: gold behind it */
};

/* Where the point of cell c is drawn in the grid: column *x, row *y. */
static void grid_place(const dm_variant *v, bool flipped, int c, int *x, int *y)
{
    int i = dm_cell_column(v, c), j = dm_cell_row(v, c);
    if (flipped) {
        i = dm_variant_board_files(v) - 1 - i;
        j = dm_variant_board_ranks(v) - 1 - j;
    }
    *x = GRID_STEP * i + 1;
    *y = 2 * j;
}

/* Draws one line of the grid, between the points of cells a and b. */
static void grid_line(struct grid *g, const dm_variant *v, bool flipped, int a, int b)
{
    int xa, ya, xb, yb;
    grid_place(v, flipped, a, &xa, &ya);
    grid_place(v, flipped, b, &xb, &yb);
    if (ya > yb) { /* a above b */
        int t = xa;
        xa = xb, xb = t, t = ya, ya = yb, yb = t;
    }
    if (ya == yb) {
        for (int x = (xa < xb ? xa : xb) + 1; x < (xa < xb ? xb : xa); x++)
            g->glyph[ya][x] = LINE_H;
        return;
    }
    int x = (xa + xb) / 2, y = (ya + yb) / 2;
    const char *slant = xa < xb ? LINE_DOWN : LINE_UP;
    if (xa == xb)
        g->glyph[y][x] = LINE_V;
    else if (strcmp(g->glyph[y][x], " ") == 0 || strcmp(g->glyph[y][x], slant) == 0)
        g->glyph[y][x] = slant;
    else
        g->glyph[y][x] = LINE_CROSS; /* both diagonals of a square */
}

/* Draws the point of cell c: its piece, or a dot; the last move marked. */
static void grid_point(struct grid *g, const dm_variant *v, const dm_position *pos, bool flipped,
                       bool mark, bool colour, int c)
{
    int x, y;
    grid_place(v, flipped, c, &x, &y);
    dm_bits bit = BIT128(c);
    g->glyph[y][x] = GLYPH_EMPTY;
    if ((pos->white | pos->black) & bit) {
        int kind = (pos->kings & bit) ? KING : (pos->paras & bit) ? PARA : MAN;
        int side = (pos->white & bit) ? 0 : 1;
        g->glyph[y][x] = colour ? glyph_colour[kind] : glyph_plain[kind][side];
        g->fg[y][x] = side == 0 ? COL_WHITE_PIECE : COL_BLACK_PIECE;
    }
    if (!mark)
        return;
    if (colour) {
        g->mark[y][x - 1] = g->mark[y][x] = g->mark[y][x + 1] = true;
    } else {
        g->glyph[y][x - 1] = "[";
        g->glyph[y][x + 1] = "]";
    }
}

/* Appends the file letters of the grid, each over its points. */
static void grid_files(const dm_variant *v, bool flipped, bool colour, int width, char *row)
{
    size_t len = 0;
    row[0] = '\0';
    paint(row, &len, colour, COL_LABEL);
    put(row, TUI_ROW_BYTES, &len, "   ");
    for (int x = 0; x < width; x++) {
        char letter[2] = {' ', 0};
        if (x % GRID_STEP == 1)
            letter[0] = (char)('a' + file_at(v, flipped, x / GRID_STEP));
        put(row, TUI_ROW_BYTES, &len, letter);
    }
    paint(row, &len, colour, COL_RESET);
}

/* The point grid's rows, as tui_board_screen; 0 if the grid would not fit
 * (the caller then draws squares). */
static int grid_screen(const dm_variant *v, const dm_position *pos, const dm_move *last,
                       bool flipped, bool colour, char rows[][TUI_ROW_BYTES])
{
    struct grid g;
    g.width = GRID_STEP * (dm_variant_board_files(v) - 1) + 3;
    g.height = 2 * dm_variant_board_ranks(v) - 1;
    if (g.width > GRID_COLS || g.height > GRID_ROWS)
        return 0;
    for (int y = 0; y < g.height; y++)
        for (int x = 0; x < g.width; x++) {
            g.glyph[y][x] = " ";
            g.fg[y][x] = GRID_LINE;
            g.mark[y][x] = false;
        }
    dm_board_line lines[DM_MAX_BOARD_LINES];
    int nlines = dm_board_lines(v, lines, DM_MAX_BOARD_LINES);
    for (int i = 0; i < nlines && i < DM_MAX_BOARD_LINES; i++)
        grid_line(&g, v, flipped, lines[i].from, lines[i].to);
    for (int c = 0; c < dm_variant_cells(v); c++)
        grid_point(&g, v, pos, flipped, marked(last, c), colour, c);

    int n = 0;
    grid_files(v, flipped, colour, g.width, rows[n++]);
    for (int y = 0; y < g.height; y++) {
        char *row = rows[n++], label[8];
        size_t len = 0;
        row[0] = '\0';
        paint(row, &len, colour, COL_LABEL);
        if (y % 2 == 0)
            snprintf(label, sizeof label, "%2d ", rank_at(v, flipped, y / 2) + 1);
        else
            snprintf(label, sizeof label, "   ");
        put(row, TUI_ROW_BYTES, &len, label);
        const char *bg = NULL, *fg = NULL; /* what the row has painted so far */
        for (int x = 0; x < g.width; x++) {
            const char *want = g.mark[y][x] ? COL_MARK : COL_DARK;
            if (want != bg)
                paint(row, &len, colour, bg = want);
            if (g.fg[y][x] != fg)
                paint(row, &len, colour, fg = g.fg[y][x]);
            put(row, TUI_ROW_BYTES, &len, g.glyph[y][x]);
        }
        paint(row, &len, colour, COL_RESET);
    }
    grid_files(v, flipped, colour, g.width, rows[n++]);
    return n;
}

/* ---- the squares ----------------------------------------------------------- */

/* What cell c shows, three columns wide, after its background: its piece,
 * or its number (numeric variants) or nothing.  Without colour an empty
 * square gets a dot, and a cell of the last move brackets instead of gold. */
static void cell_text(const dm_variant *v, const dm_position *pos, int c, bool mark, bool colour,
                      char *out, size_t size)
{
    dm_bits bit = BIT128(c);
    if ((pos->white | pos->black) & bit) {
        int kind = (pos->kings & bit) ? KING : (pos->paras & bit) ? PARA : MAN;
        int side = (pos->white & bit) ? 0 : 1;
        if (colour)
            snprintf(out, size, "%s %s ", side == 0 ? COL_WHITE_PIECE : COL_BLACK_PIECE,
                     glyph_colour[kind]);
        else
            snprintf(out, size, "%c%s%c", mark ? '[' : ' ', glyph_plain[kind][side],
                     mark ? ']' : ' ');
    } else if (!colour && mark) {
        snprintf(out, size, "[" GLYPH_EMPTY "]");
    } else if (dm_variant_is_numeric(v)) {
        char name[8];
        dm_cell_name(v, c, name, sizeof name);
        snprintf(out, size, "%s%3s", colour ? COL_NUMBER : "", name);
    } else {
        snprintf(out, size, colour ? "   " : " " GLYPH_EMPTY " ");
    }
}

int tui_board_screen(const dm_variant *v, const dm_position *pos, const dm_move *last, bool flipped,
                     bool colour, char rows[][TUI_ROW_BYTES])
{
    if (dm_board_kind(v) == DM_BOARD_POINTS) {
        int n = grid_screen(v, pos, last, flipped, colour, rows);
        if (n > 0)
            return n;
    }
    int nfiles = dm_variant_board_files(v), nranks = dm_variant_board_ranks(v);
    bool numeric = dm_variant_is_numeric(v);
    int n = 0;
    char cell[64], range[16];

    /* Files above and below. */
    char files[TUI_ROW_BYTES];
    size_t flen = 0;
    files[0] = '\0';
    paint(files, &flen, colour, COL_LABEL);
    put(files, sizeof files, &flen, "   ");
    for (int i = 0; i < nfiles; i++) {
        snprintf(cell, sizeof cell, " %c ", 'a' + file_at(v, flipped, i));
        put(files, sizeof files, &flen, cell);
    }
    paint(files, &flen, colour, COL_RESET);
    if (!numeric)
        snprintf(rows[n++], TUI_ROW_BYTES, "%s", files);

    for (int j = 0; j < nranks; j++) {
        int rank = rank_at(v, flipped, j);
        char *row = rows[n++];
        size_t len = 0;
        row[0] = '\0';
        paint(row, &len, colour, COL_LABEL);
        if (numeric)
            snprintf(cell, sizeof cell, "   ");
        else
            snprintf(cell, sizeof cell, "%2d ", rank + 1);
        put(row, TUI_ROW_BYTES, &len, cell);
        for (int i = 0; i < nfiles; i++) {
            int file = file_at(v, flipped, i);
            int c = dm_square_cell(v, file, rank);
            /* The usual shading: the playing squares, or where every square
             * plays the checkering that still helps the eye. */
            bool dark = c >= 0 && dm_square_dark(v, file, rank);
            bool mark = c >= 0 && marked(last, c);
            paint(row, &len, colour, mark ? COL_MARK : dark ? COL_DARK : COL_LIGHT);
            if (c < 0) {
                put(row, TUI_ROW_BYTES, &len, "   ");
                continue;
            }
            cell_text(v, pos, c, mark, colour, cell, sizeof cell);
            put(row, TUI_ROW_BYTES, &len, cell);
        }
        paint(row, &len, colour, COL_RESET);
        row_range(v, flipped, j, range, sizeof range);
        if (range[0]) {
            paint(row, &len, colour, COL_LABEL);
            snprintf(cell, sizeof cell, " %-6s", range);
            put(row, TUI_ROW_BYTES, &len, cell);
            paint(row, &len, colour, COL_RESET);
        }
    }
    if (!numeric)
        snprintf(rows[n++], TUI_ROW_BYTES, "%s", files);
    return n;
}
