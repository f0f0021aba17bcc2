/* SPDX-License-Identifier: MIT */
/*
 * pdn.c - PDN 3.0 games: the game record, the GameType and result tables,
 * and the strict writer.  The lenient reader is pdn_read.c.
 *
 * What the writer produces, so that any PDN reader takes it:
 *
 *   [Event "?"] ... [Result "2-0"]     the seven-tag roster, "?" if unknown
 *   [GameType "20,W,10,10,N2,0"]       always, in its full form
 *   [Variant "killer"]                 for variants without a number
 *   [SetUp "1"] [FEN "W:W..:B.."]      when the game starts elsewhere
 *   the other tags, in their order
 *
 *   1. 32-28 19-23 2. 28x19 14x23 {a comment} 3... 23-28 2-0
 *
 * Moves are in the variant's notation, from-to unless another legal move
 * shares both ends (then the whole route, the PDN 3.0 rule), numbered from
 * the side the variant starts with, "N..." when a black move opens a line of
 * play.  Movetext lines hold at most 80 characters; only a move route or a
 * comment word longer than that stands alone on a longer line, since
 * cutting it would change it.  Tag lines are not wrapped: PDN has no way to
 * continue a tag.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "notation/pdn.h"
#include "rules/variant.h"

/* ---- growing text ----------------------------------------------------- */

void pdn_buf_put(struct pdn_buf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *grown = realloc(b->s, cap);
        if (!grown) {
            b->oom = true;
            return;
        }
        b->s = grown;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void pdn_buf_puts(struct pdn_buf *b, const char *s)
{
    pdn_buf_put(b, s, strlen(s));
}

void pdn_buf_printf(struct pdn_buf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        pdn_buf_put(b, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        b->oom = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    pdn_buf_put(b, big, (size_t)n);
    free(big);
}

/* Folding blanks is what lets the writer wrap comments at any blank and
 * the reader get the same text back; a '}', which would close the comment
 * once written, becomes ')'. */
void pdn_buf_fold(struct pdn_buf *b, const char *s, size_t n)
{
    bool blank = b->len > 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        if (c <= ' ' || c == 0x7F) {
            blank = b->len > 0;
            i++;
            continue;
        }
        size_t run = i;
        while (run < n && (unsigned char)s[run] > ' ' && s[run] != 0x7F)
            run++;
        if (blank)
            pdn_buf_put(b, " ", 1);
        blank = false;
        for (; i < run; i++)
            pdn_buf_put(b, s[i] == '}' ? ")" : s + i, 1);
    }
}

/* ---- GameType --------------------------------------------------------- */

/*
 * The GameType of each variant is in its record (struct gametype,
 * rules/variant.h): the PDN 3.0 number (wiegerw/pdn, "GameType tag") or
 * lidraughts' private one, or the nearest relative's, written with a
 * Variant tag beside it so that a reader that knows only numbers still gets
 * the board and the notation.
 */

/* The variant whose own number this is, or NULL. */
const dm_variant *pdn_variant_of_gametype(int number)
{
    for (int i = 0; i < dm_variant_count(); i++) {
        const dm_variant *v = dm_variant_at(i);
        bool own = v->gametype.from == GAMETYPE_PDN3 || v->gametype.from == GAMETYPE_LIDRAUGHTS;
        if (own && v->gametype.number == number)
            return v;
    }
    return NULL;
}

/* Numbers of games Damier does not play stay here: no record has them. */
const char *pdn_gametype_unplayed(int number)
{
    static const struct {
        int number;
        const char *name;
    } names[] = {
        {0, "chess"},
        {1, "Chinese chess"},
        {30, "Turkish draughts"},
        {41, "Spantsiretti draughts"},
        {50, "Othello"},
    };
    if (number >= 2 && number <= 19)
        return "chess";
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].number == number)
            return names[i].name;
    return NULL;
}

/* Lower-case letters and digits of s only: "Frysk!" -> "frysk". */
static void squash(const char *s, char *out, size_t size)
{
    size_t n = 0;
    for (; *s && n + 1 < size; s++)
        if (isalnum((unsigned char)*s))
            out[n++] = (char)tolower((unsigned char)*s);
    out[n] = '\0';
}

static bool ends_with(char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    if (n <= k || strcmp(s + n - k, suffix) != 0)
        return false;
    s[n - k] = '\0';
    return true;
}

const dm_variant *pdn_variant_named(const char *name, bool *deferred)
{
    char want[64], bare[64], id[64], full[64];
    squash(name, want, sizeof want);
    *deferred = strcmp(want, "standard") == 0 || strcmp(want, "fromposition") == 0;
    if (*deferred || !want[0])
        return NULL;
    /* "Russian draughts", "English checkers": the id and a game word. */
    memcpy(bare, want, sizeof bare);
    if (!ends_with(bare, "draughts"))
        ends_with(bare, "checkers");
    for (int i = 0; i < dm_variant_count(); i++) {
        const dm_variant *v = dm_variant_at(i);
        squash(dm_variant_id(v), id, sizeof id);
        squash(dm_variant_name(v), full, sizeof full);
        if (strcmp(want, id) == 0 || strcmp(want, full) == 0 || strcmp(bare, id) == 0)
            return v;
    }
    return NULL;
}

/*
 * The full GameType of v, derived from its record: number, the colour that
 * starts, board width and height, notation (A0 for algebraic; N and the
 * corner of square 1 as the starting player sees it: 0 bottom left,
 * 1 bottom right, 2 top left, 3 top right), and 1 if the bottom left corner
 * is not a playing square.  This gives the standard's own strings for every
 * variant it lists ("20,W,10,10,N2,0", "21,B,8,8,N1,0", "22,W,8,8,N2,1").
 * False if v has no number at all.
 */
static bool gametype_text(const dm_variant *v, char *buf, size_t size)
{
    const struct gametype *t = &v->gametype;
    if (t->from == GAMETYPE_NONE)
        return false;
    dm_position start;
    dm_position_start(v, &start);
    int files = dm_variant_board_files(v), ranks = dm_variant_board_ranks(v);
    char notation[4] = "A0";
    if (dm_variant_is_numeric(v)) {
        int one = dm_cell_parse(v, "1", 1), file = 0, rank = 0;
        for (int r = 0; r < ranks; r++)
            for (int f = 0; f < files; f++) {
                char name[8];
                int n = snprintf(name, sizeof name, "%c%d", 'a' + f, r + 1);
                if (dm_cell_parse(v, name, (size_t)n) == one)
                    file = f, rank = r;
            }
        if (start.side == DM_BLACK)
            file = files - 1 - file, rank = ranks - 1 - rank;
        bool bottom = rank < ranks / 2, left = file < files / 2;
        notation[1] = (char)('0' + (bottom ? (left ? 0 : 1) : (left ? 2 : 3)));
        notation[0] = 'N';
    }
    bool invert = dm_cell_parse(v, "a1", 2) < 0;
    snprintf(buf, size, "%d,%c,%d,%d,%s,%d", t->number, start.side == DM_WHITE ? 'W' : 'B', files,
             ranks, notation, invert);
    return true;
}

/* The capture separator of the variant's GameType in the PDN 3.0 table
 * (the record's: ':' for Russian, 'x' for the others, Brazilian and Czech
 * included, which Damier's own notation writes with ':'); 0 for a variant
 * without one. */
static char capture_sep(const dm_variant *v)
{
    return v->gametype.capture_sep;
}

/* ---- results ---------------------------------------------------------- */

const char *dm_pdn_result_text(const dm_variant *v, enum dm_pdn_result r)
{
    /* PDN 3.0 gives the international result type to 20 and 27; the 10x10
     * family plays for 2 points a game too, Frisian included. */
    bool points = !v || dm_variant_board_files(v) >= 10;
    switch (r) {
    case DM_PDN_WHITE_WINS:
        return points ? "2-0" : "1-0";
    case DM_PDN_BLACK_WINS:
        return points ? "0-2" : "0-1";
    case DM_PDN_DRAW:
        return points ? "1-1" : "1/2-1/2";
    case DM_PDN_BOTH_LOSE:
        return "0-0";
    case DM_PDN_UNFINISHED:
        break;
    }
    return "*";
}

bool pdn_result_parse(const char *text, size_t len, enum dm_pdn_result *r)
{
    static const struct {
        const char *text;
        enum dm_pdn_result result;
    } results[] = {
        {"*", DM_PDN_UNFINISHED},   {"2-0", DM_PDN_WHITE_WINS},         {"1-0", DM_PDN_WHITE_WINS},
        {"0-2", DM_PDN_BLACK_WINS}, {"0-1", DM_PDN_BLACK_WINS},         {"1-1", DM_PDN_DRAW},
        {"1/2-1/2", DM_PDN_DRAW},   {"\xC2\xBD-\xC2\xBD", DM_PDN_DRAW}, {"0-0", DM_PDN_BOTH_LOSE},
    };
    for (size_t i = 0; i < sizeof results / sizeof results[0]; i++)
        if (strlen(results[i].text) == len && memcmp(results[i].text, text, len) == 0) {
            *r = results[i].result;
            return true;
        }
    return false;
}

/* ---- the game record -------------------------------------------------- */

void dm_pdn_game_init(dm_pdn_game *g, const dm_variant *v, const dm_position *start)
{
    memset(g, 0, sizeof *g);
    g->variant = v;
    if (start)
        g->start = *start;
    else
        dm_position_start(v, &g->start);
    g->end = g->start;
}

void dm_pdn_game_free(dm_pdn_game *g)
{
    for (int i = 0; i < g->ntags; i++) {
        free(g->tags[i].name);
        free(g->tags[i].value);
    }
    for (int i = 0; i < g->nmoves; i++)
        free(g->moves[i].comment);
    free(g->tags);
    free(g->moves);
    free(g->comment);
    memset(g, 0, sizeof *g);
}

const char *dm_pdn_game_tag(const dm_pdn_game *g, const char *name)
{
    for (int i = 0; i < g->ntags; i++)
        if (strcmp(g->tags[i].name, name) == 0)
            return g->tags[i].value;
    return NULL;
}

int dm_pdn_game_set_tag(dm_pdn_game *g, const char *name, const char *value)
{
    char *v = strdup(value);
    if (!v)
        return -1;
    for (int i = 0; i < g->ntags; i++)
        if (strcmp(g->tags[i].name, name) == 0) {
            free(g->tags[i].value);
            g->tags[i].value = v;
            return 0;
        }
    char *n = strdup(name);
    if (!n || pdn_game_push_tag(g, n, v) != 0) {
        free(n);
        free(v);
        return -1;
    }
    return 0;
}

int pdn_game_push_tag(dm_pdn_game *g, char *name, char *value)
{
    if (g->ntags == g->tags_cap) {
        int cap = g->tags_cap ? g->tags_cap * 2 : 16;
        dm_pdn_tag *grown = realloc(g->tags, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        g->tags = grown;
        g->tags_cap = cap;
    }
    g->tags[g->ntags].name = name;
    g->tags[g->ntags].value = value;
    g->ntags++;
    return 0;
}

dm_pdn_move *pdn_game_push_move(dm_pdn_game *g)
{
    if (g->nmoves == g->moves_cap) {
        int cap = g->moves_cap ? g->moves_cap * 2 : 64;
        dm_pdn_move *grown = realloc(g->moves, (size_t)cap * sizeof *grown);
        if (!grown)
            return NULL;
        g->moves = grown;
        g->moves_cap = cap;
    }
    dm_pdn_move *m = &g->moves[g->nmoves++];
    memset(m, 0, sizeof *m);
    return m;
}

int pdn_find_legal(const dm_move_list *legal, const dm_move *m)
{
    for (int i = 0; i < legal->count; i++)
        if (dm_move_same(&legal->moves[i], m))
            return i;
    /* The same move by another route, as a generator that keeps duplicate
     * routes would give it: same ends, same pieces taken. */
    for (int i = 0; i < legal->count; i++) {
        const dm_move *o = &legal->moves[i];
        if (o->from == m->from && o->to == m->to && o->captured_set == m->captured_set &&
            o->njumps == m->njumps)
            return i;
    }
    return -1;
}

int dm_pdn_game_add_move(dm_pdn_game *g, const dm_move *m, const char *comment, dm_error *err)
{
    dm_move_list *legal = malloc(sizeof *legal);
    if (!legal) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    dm_generate(g->variant, &g->end, legal, 0);
    int i = pdn_find_legal(legal, m);
    if (i < 0) {
        char text[DM_PDN_MOVE_TEXT];
        dm_move_format(g->variant, m, NULL, text, sizeof text);
        snprintf(err->msg, sizeof err->msg, "move %s is not legal after move %d", text, g->nmoves);
        free(legal);
        return -1;
    }
    struct pdn_buf copy = {0};
    if (comment)
        pdn_buf_fold(&copy, comment, strlen(comment));
    dm_pdn_move *pm = copy.oom ? NULL : pdn_game_push_move(g);
    if (!pm) {
        free(copy.s);
        free(legal);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    pm->move = legal->moves[i];
    pm->comment = copy.s;
    dm_move_format(g->variant, &legal->moves[i], legal, pm->text, sizeof pm->text);
    dm_make_move(g->variant, &g->end, &legal->moves[i]);
    free(legal);
    return 0;
}

/* Copies at most max bytes of s, not cutting a UTF-8 character. */
static void put_clipped(char *buf, size_t size, size_t *len, const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n > max) {
        n = max;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
    }
    *len += (size_t)snprintf(buf + *len, *len < size ? size - *len : 0, "%.*s", (int)n, s);
}

static bool known(const char *s)
{
    return s && s[0] && strcmp(s, "?") != 0 && strcmp(s, "-") != 0;
}

void dm_pdn_game_label(const dm_pdn_game *g, char *buf, size_t size)
{
    const char *white = dm_pdn_game_tag(g, "White"), *black = dm_pdn_game_tag(g, "Black");
    const char *event = dm_pdn_game_tag(g, "Event");
    size_t len = (size_t)snprintf(buf, size, "game %d", g->number);
    if (known(white) || known(black)) {
        len += (size_t)snprintf(buf + len, len < size ? size - len : 0, " (");
        put_clipped(buf, size, &len, known(white) ? white : "?", 40);
        len += (size_t)snprintf(buf + len, len < size ? size - len : 0, " - ");
        put_clipped(buf, size, &len, known(black) ? black : "?", 40);
        snprintf(buf + len, len < size ? size - len : 0, ")");
    } else if (known(event)) {
        len += (size_t)snprintf(buf + len, len < size ? size - len : 0, " (");
        put_clipped(buf, size, &len, event, 60);
        snprintf(buf + len, len < size ? size - len : 0, ")");
    }
}

/* ---- the writer ------------------------------------------------------- */

enum { LINE_MAX_COLS = 80 };

struct writer {
    struct pdn_buf out;
    int col; /* characters on the current movetext line */
};

static int columns(const char *s, size_t n)
{
    int cols = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            cols++;
    return cols;
}

/* Adds one movetext token, starting a new line when it would not fit. */
static void emit(struct writer *w, const char *s, size_t n)
{
    int cols = columns(s, n);
    if (w->col > 0 && w->col + 1 + cols > LINE_MAX_COLS) {
        pdn_buf_put(&w->out, "\n", 1);
        w->col = 0;
    } else if (w->col > 0) {
        pdn_buf_put(&w->out, " ", 1);
        w->col++;
    }
    pdn_buf_put(&w->out, s, n);
    w->col += cols;
}

/* A comment, word by word so that it wraps.  '}' would end it early, so it
 * becomes ')'. */
static void emit_comment(struct writer *w, const char *text)
{
    struct pdn_buf words = {0};
    pdn_buf_puts(&words, "{");
    pdn_buf_puts(&words, text);
    pdn_buf_puts(&words, "}");
    if (words.oom) {
        w->out.oom = true;
        free(words.s);
        return;
    }
    for (char *p = words.s; *p; p++)
        if (*p == '}' && p[1])
            *p = ')';
    const char *p = words.s;
    while (*p) {
        while (*p == ' ')
            p++;
        const char *e = p;
        while (*e && *e != ' ')
            e++;
        /* The braces stay on the first and last words (the text was folded:
         * it neither starts nor ends with a blank). */
        if (e > p)
            emit(w, p, (size_t)(e - p));
        p = e;
    }
    free(words.s);
}

/* A tag value as a PDN string: quotes and backslashes escaped, control
 * characters (which a string may not hold) as blanks. */
static void put_tag(struct pdn_buf *b, const char *name, const char *value)
{
    pdn_buf_printf(b, "[%s \"", name);
    for (const char *p = value; *p; p++) {
        if (*p == '"' || *p == '\\')
            pdn_buf_put(b, "\\", 1);
        pdn_buf_put(b, (unsigned char)*p < ' ' ? " " : p, 1);
    }
    pdn_buf_puts(b, "\"]\n");
}

static bool valid_tag_name(const char *s)
{
    if (!isalpha((unsigned char)*s))
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return false;
    return true;
}

/* The first tag of that name in any case: readers differ on case. */
static const char *tag_any_case(const dm_pdn_game *g, const char *name)
{
    for (int i = 0; i < g->ntags; i++)
        if (strcasecmp(g->tags[i].name, name) == 0)
            return g->tags[i].value;
    return NULL;
}

static bool written_by_us(const char *name)
{
    static const char *const ours[] = {"Event",  "Site",     "Date",    "Round", "White", "Black",
                                       "Result", "GameType", "Variant", "FEN",   "SetUp"};
    for (size_t i = 0; i < sizeof ours / sizeof ours[0]; i++)
        if (strcasecmp(name, ours[i]) == 0)
            return true;
    return false;
}

static void write_tags(struct pdn_buf *b, const dm_pdn_game *g)
{
    static const struct {
        const char *name, *unknown;
    } roster[] = {
        {"Event", "?"}, {"Site", "?"},  {"Date", "????.??.??"},
        {"Round", "?"}, {"White", "?"}, {"Black", "?"},
    };
    const dm_variant *v = g->variant;
    for (size_t i = 0; i < sizeof roster / sizeof roster[0]; i++) {
        const char *value = tag_any_case(g, roster[i].name);
        put_tag(b, roster[i].name, value && value[0] ? value : roster[i].unknown);
    }
    put_tag(b, "Result", dm_pdn_result_text(v, g->result));
    char text[64];
    if (gametype_text(v, text, sizeof text))
        put_tag(b, "GameType", text);
    if (v->gametype.from != GAMETYPE_PDN3)
        put_tag(b, "Variant", dm_variant_id(v));
    dm_position start;
    dm_position_start(v, &start);
    if (!dm_position_equal(&start, &g->start)) {
        char fen[512];
        dm_fen_format(v, &g->start, fen, sizeof fen);
        put_tag(b, "SetUp", "1");
        put_tag(b, "FEN", fen);
    }
    /* A name given twice is written once: a reader takes a repeated name
     * for the first tag of the next game. */
    for (int i = 0; i < g->ntags; i++) {
        const char *name = g->tags[i].name;
        bool again = false;
        for (int k = 0; k < i && !again; k++)
            again = strcmp(g->tags[k].name, name) == 0;
        if (valid_tag_name(name) && !written_by_us(name) && !again)
            put_tag(b, name, g->tags[i].value);
    }
}

char *dm_pdn_write(const dm_pdn_game *g, dm_error *err)
{
    const dm_variant *v = g->variant;
    if (!v) {
        snprintf(err->msg, sizeof err->msg, "the game has no variant");
        return NULL;
    }
    dm_move_list *legal = malloc(sizeof *legal);
    struct writer w = {0};
    if (!legal)
        goto oom;
    write_tags(&w.out, g);
    pdn_buf_puts(&w.out, "\n");
    if (g->comment)
        emit_comment(&w, g->comment);

    dm_position first, pos = g->start;
    dm_position_start(v, &first);
    int offset = g->start.side == first.side ? 0 : 1;
    bool interrupted = true; /* a black move needs its number: "12..." */
    for (int i = 0; i < g->nmoves; i++) {
        const dm_pdn_move *pm = &g->moves[i];
        dm_generate(v, &pos, legal, 0);
        int k = pdn_find_legal(legal, &pm->move);
        if (k < 0) {
            char text[DM_PDN_MOVE_TEXT];
            dm_move_format(v, &pm->move, NULL, text, sizeof text);
            snprintf(err->msg, sizeof err->msg, "move %d (%s) is not legal where it stands", i + 1,
                     text);
            free(legal);
            free(w.out.s);
            return NULL;
        }
        int ply = i + offset;
        char tok[DM_PDN_MOVE_TEXT + 32];
        int n;
        if (ply % 2 == 0 || interrupted) {
            n = snprintf(tok, sizeof tok, "%d%s", ply / 2 + 1, ply % 2 ? "..." : ".");
            emit(&w, tok, (size_t)n);
        }
        char text[DM_PDN_MOVE_TEXT];
        dm_move_format(v, &legal->moves[k], legal, text, sizeof text);
        char sep = capture_sep(v);
        if (sep && legal->moves[k].njumps > 0)
            for (char *p = text; *p; p++)
                if (*p == ':' || *p == 'x')
                    *p = sep;
        bool mark_ok = pm->mark[0] && strspn(pm->mark, "!?") == strlen(pm->mark);
        n = snprintf(tok, sizeof tok, "%s%s", text, mark_ok ? pm->mark : "");
        emit(&w, tok, (size_t)n);
        interrupted = false;
        if (pm->nag > 0) {
            n = snprintf(tok, sizeof tok, "$%d", pm->nag);
            emit(&w, tok, (size_t)n);
            interrupted = true;
        }
        if (pm->comment && pm->comment[0]) {
            emit_comment(&w, pm->comment);
            interrupted = true;
        }
        dm_make_move(v, &pos, &legal->moves[k]);
    }
    const char *result = dm_pdn_result_text(v, g->result);
    emit(&w, result, strlen(result));
    pdn_buf_puts(&w.out, "\n");
    free(legal);
    if (w.out.oom)
        goto oom;
    return w.out.s;
oom:
    free(legal);
    free(w.out.s);
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return NULL;
}
