/* SPDX-License-Identifier: MIT */
/*
 * pdn_read.c - the lenient PDN reader: games one by one from a buffer.
 *
 * A game is read in two steps.  The first cuts it out of the text: tag
 * pairs, then movetext (moves, move numbers "12." and "12...", "..." for a
 * missing move, comments {...}, ';' comments to the end of the line, '%'
 * lines, [%clock ...] commands, variations (...) to any depth, NAGs $n,
 * strength marks !? and (!?), set-ups /FEN "..."/) up to a result, '*', the
 * next tag pair or the end.  The second finds the variant (Variant tag,
 * GameType tag, the caller's choice or a guess), the start position (FEN)
 * and replays every move against the legal moves, so a move is only ever
 * matched to a move the rules allow.
 *
 * Hostile text costs linear time and cannot crash the reader: variations
 * are counted, not recursed into; an unclosed comment, string or variation
 * is reported at the line where it opened and reading resumes at the next
 * line that starts a tag pair; a search that once ran to the end of the text
 * is never repeated.  A game with an error keeps its first error; reading
 * goes on with the next game.  Variations are checked for their syntax but
 * their moves are not replayed, and they are not kept.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/text.h"
#include "notation/pdn.h"

enum { MAX_INPUT = 1 << 30, QUOTE_LOOKAHEAD = 512, MAX_TAGS = 1000 };

struct raw_move {
    char text[DM_PDN_MOVE_TEXT]; /* squares and separators, cleaned up */
    char mark[8];
    int nag;
    int line;
    struct pdn_buf comment;
};

/* A game as cut out of the text, before its moves are replayed. */
struct raw_game {
    struct raw_move *moves;
    int nmoves, cap;
    int *tag_lines;         /* the line of each tag of the game */
    int tag_lines_cap;      /* allocated */
    struct pdn_buf comment; /* before the first move */
    char *setup;            /* a /FEN "..."/ before the moves */
    int setup_line;
    bool has_result;
    enum dm_pdn_result result;
    int err_line; /* the first syntax error, 0 if none */
    char err[200];
};

struct dm_pdn_reader {
    char *text; /* UTF-8, NUL-terminated */
    size_t len, pos;
    int line;
    dm_pdn_options opt;
    const dm_variant *sticky; /* the last variant guessed */
    int games;
    size_t no_brace_from; /* no '}' at or after this offset */
    dm_move_list *legal;  /* the legal moves where a move stands */
    dm_move_list *routes; /* the same with every capture route */
    dm_move_list *one;    /* one move, to test what text means */
    struct raw_game raw;
};

/* ---- the text --------------------------------------------------------- */

dm_pdn_reader *dm_pdn_reader_new(const char *data, size_t size, const dm_pdn_options *opt)
{
    if (size > MAX_INPUT)
        return NULL;
    dm_pdn_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->legal = malloc(sizeof *r->legal);
    r->routes = malloc(sizeof *r->routes);
    r->one = malloc(sizeof *r->one);
    r->text = pdn_to_utf8(data, size, &r->len);
    if (!r->legal || !r->routes || !r->one || !r->text) {
        dm_pdn_reader_free(r);
        return NULL;
    }
    if (opt)
        r->opt = *opt;
    r->line = 1;
    r->no_brace_from = SIZE_MAX;
    return r;
}

static void raw_clear(struct raw_game *raw)
{
    for (int i = 0; i < raw->nmoves; i++)
        free(raw->moves[i].comment.s);
    raw->nmoves = 0;
    free(raw->comment.s);
    memset(&raw->comment, 0, sizeof raw->comment);
    free(raw->setup);
    raw->setup = NULL;
    raw->setup_line = 0;
    raw->has_result = false;
    raw->result = DM_PDN_UNFINISHED;
    raw->err_line = 0;
    raw->err[0] = '\0';
}

void dm_pdn_reader_free(dm_pdn_reader *r)
{
    if (!r)
        return;
    raw_clear(&r->raw);
    free(r->raw.moves);
    free(r->raw.tag_lines);
    free(r->legal);
    free(r->routes);
    free(r->one);
    free(r->text);
    free(r);
}

static void syntax_error(struct raw_game *raw, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void syntax_error(struct raw_game *raw, int line, const char *fmt, ...)
{
    if (raw->err_line)
        return;
    raw->err_line = line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw->err, sizeof raw->err, fmt, ap);
    va_end(ap);
}

/* Shows a piece of input in a message: at most max bytes, whole characters,
 * control characters and broken UTF-8 escaped by text_escape (as \e, \xHH),
 * "..." when cut. */
static void quote(char *buf, size_t size, const char *s, size_t n, size_t max)
{
    size_t take = n < max ? n : max;
    while (take > 0 && take < n && ((unsigned char)s[take] & 0xC0) == 0x80)
        take--; /* not inside a character */
    text_escape(s, take, buf, size - 3);
    if (take < n)
        strcat(buf, "...");
}

/* ---- tokens ----------------------------------------------------------- */

enum tok_kind {
    T_EOF,     /* the end of the text */
    T_TAG,     /* name, value */
    T_COMMENT, /* text at start, len */
    T_LPAREN,  /* a variation opens */
    T_RPAREN,  /* a variation closes */
    T_NAG,     /* nag */
    T_MARK,    /* "(!?)": the marks at start, len */
    T_STAR,    /* the result '*' */
    T_SETUP,   /* the text between the slashes at start, len */
    T_WORD,    /* word, len */
    T_ERROR,   /* msg */
};

struct token {
    enum tok_kind kind;
    int line;
    size_t start, len;
    char *name, *value;
    int nag;
    char word[256]; /* T_WORD: its text, cut to the buffer */
    bool cut;       /* T_WORD: it was longer than that */
    char msg[200];
};

static int cur(const dm_pdn_reader *r)
{
    return r->pos < r->len ? (unsigned char)r->text[r->pos] : -1;
}

/* Moves one character on, counting lines ("\n", "\r\n" or a lone "\r"). */
static void advance(dm_pdn_reader *r)
{
    char c = r->text[r->pos++];
    if (c == '\n' || (c == '\r' && (r->pos >= r->len || r->text[r->pos] != '\n')))
        r->line++;
}

static bool is_blank(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static void skip_to_line_end(dm_pdn_reader *r)
{
    while (r->pos < r->len && r->text[r->pos] != '\n' && r->text[r->pos] != '\r')
        r->pos++;
}

/* Whether a tag pair starts at offset i: '[', blanks, a letter. */
static bool tag_at(const dm_pdn_reader *r, size_t i)
{
    if (i >= r->len || r->text[i] != '[')
        return false;
    i++;
    while (i < r->len && (r->text[i] == ' ' || r->text[i] == '\t'))
        i++;
    return i < r->len && isalpha((unsigned char)r->text[i]);
}

/* After an unclosed comment or set-up opened at offset from: goes on at the
 * first later line that starts with a tag pair, or at the end. */
static void resume_at_next_tag(dm_pdn_reader *r, size_t from)
{
    r->pos = from;
    for (;;) {
        while (r->pos < r->len && r->text[r->pos] != '\n' && r->text[r->pos] != '\r')
            r->pos++;
        if (r->pos >= r->len)
            return;
        advance(r);
        if (tag_at(r, r->pos))
            return;
    }
}

static void tok_error(struct token *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void tok_error(struct token *t, const char *fmt, ...)
{
    t->kind = T_ERROR;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->msg, sizeof t->msg, fmt, ap);
    va_end(ap);
}

static char *dup_range(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

/*
 * A tag pair [Name "value"] at r->pos.  Lenient: blanks anywhere between
 * the parts, \" and \\ escapes, a value without quotes up to ']', and a
 * value with bare quotes inside when the line ends it with "] (as in
 * [Event "The "Cup" 1999"]).  A broken pair is skipped to the end of its
 * line.
 */
static void lex_tag(dm_pdn_reader *r, struct token *t)
{
    const char *s = r->text;
    r->pos++; /* '[' */
    while (cur(r) == ' ' || cur(r) == '\t')
        r->pos++;
    size_t name = r->pos;
    while (r->pos < r->len && (isalnum((unsigned char)s[r->pos]) || s[r->pos] == '_'))
        r->pos++;
    size_t name_len = r->pos - name;
    while (cur(r) == ' ' || cur(r) == '\t')
        r->pos++;
    char shown[64];
    quote(shown, sizeof shown, s + name, name_len, 40);

    struct pdn_buf value = {0};
    pdn_buf_put(&value, "", 0);
    if (cur(r) == '"') {
        r->pos++;
        for (;;) {
            int c = cur(r);
            if (c < 0 || c == '\n' || c == '\r') {
                tok_error(t, "tag %s: the value's closing '\"' is missing", shown);
                free(value.s);
                skip_to_line_end(r);
                return;
            }
            if (c == '\\' && r->pos + 1 < r->len &&
                (s[r->pos + 1] == '"' || s[r->pos + 1] == '\\')) {
                pdn_buf_put(&value, s + r->pos + 1, 1);
                r->pos += 2;
                continue;
            }
            if (c == '"') {
                size_t after = r->pos + 1;
                while (after < r->len && (s[after] == ' ' || s[after] == '\t'))
                    after++;
                if (after < r->len && s[after] == ']') {
                    r->pos = after + 1;
                    break;
                }
                /* A bare quote inside the value: it goes on if this line
                 * closes it with "] further on. */
                bool closes = false;
                for (size_t k = after; k < r->len && k < after + QUOTE_LOOKAHEAD; k++) {
                    if (s[k] == '\n' || s[k] == '\r')
                        break;
                    if (s[k] == '"' && k + 1 < r->len && s[k + 1] == ']') {
                        closes = true;
                        break;
                    }
                }
                if (!closes) {
                    tok_error(t, "tag %s: expected ']' after the value", shown);
                    free(value.s);
                    skip_to_line_end(r);
                    return;
                }
            }
            pdn_buf_put(&value, s + r->pos, 1);
            r->pos++;
        }
    } else {
        size_t v = r->pos;
        while (r->pos < r->len && s[r->pos] != ']' && s[r->pos] != '\n' && s[r->pos] != '\r')
            r->pos++;
        if (cur(r) != ']') {
            tok_error(t, "tag %s: expected a value in quotes and ']'", shown);
            free(value.s);
            return;
        }
        size_t e = r->pos;
        while (e > v && (s[e - 1] == ' ' || s[e - 1] == '\t'))
            e--;
        pdn_buf_put(&value, s + v, e - v);
        r->pos++;
    }
    if (value.oom) {
        free(value.s);
        tok_error(t, "out of memory");
        return;
    }
    /* Control characters (NUL too) have no place in a value. */
    for (size_t i = 0; i < value.len; i++)
        if ((unsigned char)value.s[i] < ' ' || value.s[i] == 0x7F)
            value.s[i] = ' ';
    t->kind = T_TAG;
    t->name = dup_range(s + name, name_len);
    t->value = value.s;
    if (!t->name) {
        free(t->value);
        t->value = NULL;
        tok_error(t, "out of memory");
    }
}

/* Whether c ends a movetext word. */
static bool ends_word(int c)
{
    return c < 0 || is_blank(c) || (c < ' ' && c >= 0) || c == 0x7F || strchr("{}()[];\"$", c);
}

static void lex(dm_pdn_reader *r, struct token *t)
{
    const char *s = r->text;
    memset(t, 0, sizeof *t);
    for (;;) {
        while (r->pos < r->len && is_blank(cur(r)))
            advance(r);
        if (cur(r) == '%') {
            skip_to_line_end(r); /* a line PDN ignores */
            continue;
        }
        break;
    }
    t->line = r->line;
    t->start = r->pos;
    int c = cur(r);
    if (c < 0) {
        t->kind = T_EOF;
        return;
    }
    switch (c) {
    case '[':
        if (tag_at(r, r->pos)) {
            lex_tag(r, t);
            return;
        }
        if (r->pos + 1 < r->len && s[r->pos + 1] == '%') {
            /* A command such as [%clock w0:05:00 B0:04:58]. */
            size_t e = r->pos;
            while (e < r->len && s[e] != ']' && s[e] != '\n' && s[e] != '\r')
                e++;
            t->kind = T_COMMENT;
            t->len = e - r->pos + (e < r->len && s[e] == ']');
            r->pos += t->len;
            return;
        }
        r->pos++;
        tok_error(t, "'[' does not start a tag pair [Name \"value\"]");
        skip_to_line_end(r);
        return;
    case '{': {
        int opened = r->line;
        size_t from = r->pos;
        const char *close = NULL;
        if (from < r->no_brace_from)
            close = memchr(s + from, '}', r->len - from);
        if (!close) {
            r->no_brace_from = from;
            tok_error(t, "comment '{' opened on line %d is never closed", opened);
            resume_at_next_tag(r, from);
            return;
        }
        advance(r);
        t->kind = T_COMMENT;
        t->start = r->pos;
        t->len = (size_t)(close - s) - r->pos;
        while (r->pos <= (size_t)(close - s))
            advance(r);
        return;
    }
    case ';':
        t->kind = T_COMMENT;
        t->start = ++r->pos;
        skip_to_line_end(r);
        t->len = r->pos - t->start;
        return;
    case '}':
        r->pos++;
        tok_error(t, "'}' without '{' (comments do not nest in PDN)");
        return;
    case ']':
        r->pos++;
        tok_error(t, "']' without '['");
        return;
    case '(': {
        size_t k = r->pos + 1;
        while (k < r->len && (s[k] == '!' || s[k] == '?'))
            k++;
        if (k > r->pos + 1 && k < r->len && s[k] == ')') {
            t->kind = T_MARK;
            t->start = r->pos + 1;
            t->len = k - t->start;
            r->pos = k + 1;
            return;
        }
        r->pos++;
        t->kind = T_LPAREN;
        return;
    }
    case ')':
        r->pos++;
        t->kind = T_RPAREN;
        return;
    case '$': {
        r->pos++;
        long nag = 0;
        size_t digits = r->pos;
        while (r->pos < r->len && isdigit((unsigned char)s[r->pos])) {
            if (nag < 1000000)
                nag = nag * 10 + (s[r->pos] - '0');
            r->pos++;
        }
        if (r->pos == digits) {
            tok_error(t, "'$' without a glyph number");
            return;
        }
        t->kind = T_NAG;
        t->nag = nag > 255 ? 255 : (int)nag;
        return;
    }
    case '*':
        r->pos++;
        t->kind = T_STAR;
        return;
    case '"':
        r->pos++;
        while (r->pos < r->len && s[r->pos] != '"' && s[r->pos] != '\n' && s[r->pos] != '\r')
            r->pos++;
        if (cur(r) == '"')
            r->pos++;
        tok_error(t, "a string outside a tag pair");
        return;
    case '/': {
        size_t e = r->pos + 1;
        while (e < r->len && s[e] != '/' && s[e] != '\n' && s[e] != '\r')
            e++;
        if (e >= r->len || s[e] != '/') {
            r->pos++;
            tok_error(t, "set-up '/' is not closed by '/' on its line");
            skip_to_line_end(r);
            return;
        }
        t->kind = T_SETUP;
        t->start = r->pos + 1;
        t->len = e - t->start;
        r->pos = e + 1;
        return;
    }
    default:
        break;
    }
    if (c < ' ' || c == 0x7F) {
        r->pos++;
        tok_error(t, "control character 0x%02X: this is not PDN text", (unsigned)c);
        return;
    }
    t->kind = T_WORD;
    for (;;) {
        while (!ends_word(cur(r))) {
            if (t->len + 1 < sizeof t->word)
                t->word[t->len++] = s[r->pos];
            else
                t->cut = true;
            r->pos++;
        }
        /* "1- 6", "28x 6": a move cut in two by blanks after a separator
         * (DUTCH96H.pdn, schildpad.pdn) is one move. */
        size_t n = t->len, k = r->pos;
        if (n < 2 || !strchr("-xX:", t->word[n - 1]) || !isalnum((unsigned char)t->word[n - 2]))
            break;
        while (k < r->len && is_blank((unsigned char)s[k]))
            k++;
        if (k == r->pos || k >= r->len || !isalnum((unsigned char)s[k]))
            break;
        while (r->pos < k)
            advance(r);
    }
    t->word[t->len] = '\0';
}

/* ---- words ------------------------------------------------------------ */

enum word_kind { W_NUMBER, W_ELLIPSIS, W_RESULT, W_MARK, W_UNKNOWN_MOVE, W_MOVE, W_BAD };

struct word {
    enum word_kind kind;
    enum dm_pdn_result result;
    char text[DM_PDN_MOVE_TEXT];
    char mark[8];
};

static void copy_mark(char *mark, const char *s, size_t n)
{
    size_t k = n < 7 ? n : 7;
    memcpy(mark, s, k);
    mark[k] = '\0';
}

/*
 * A move as the reader hands it to dm_move_parse: squares (a letter and
 * digits, or digits) joined by - x or :, leading zeros dropped ("06-11"),
 * a dash put between algebraic squares written together ("a3b4").  False if
 * s is not a move.
 */
static bool clean_move(const char *s, size_t n, char *out, size_t size)
{
    size_t o = 0, i = 0;
    int squares = 0;
    for (;;) {
        bool alpha = false;
        if (i < n && isalpha((unsigned char)s[i]) && s[i] != 'x' && s[i] != 'X') {
            alpha = true;
            if (o + 1 >= size)
                return false;
            out[o++] = (char)tolower((unsigned char)s[i++]);
        }
        size_t d = i;
        while (i < n && isdigit((unsigned char)s[i]))
            i++;
        if (i == d || i - d > 8)
            return false;
        while (d + 1 < i && s[d] == '0')
            d++;
        if (i - d > 3 || o + (i - d) + 2 >= size || ++squares > DM_MAX_JUMPS + 2)
            return false;
        memcpy(out + o, s + d, i - d);
        o += i - d;
        if (i == n)
            break;
        char c = s[i];
        if (c == '-' || c == 'x' || c == 'X' || c == ':') {
            out[o++] = c == 'X' ? 'x' : c;
            if (++i == n)
                return false;
        } else if (!(alpha && isalpha((unsigned char)c))) {
            return false;
        } else {
            out[o++] = '-';
        }
    }
    out[o] = '\0';
    /* A lone square is a move only as a removal (Hawaiian, algebraic). */
    return squares >= 2 || isalpha((unsigned char)out[0]);
}

static void classify(const char *s, size_t n, struct word *w)
{
    memset(w, 0, sizeof *w);
    size_t digits = 0;
    while (digits < n && isdigit((unsigned char)s[digits]))
        digits++;
    if (digits > 0 && digits < n && s[digits] == '.') {
        /* "12." or "12...", maybe with the move written against it. */
        while (digits < n && s[digits] == '.')
            digits++;
        if (digits == n) {
            w->kind = W_NUMBER;
            return;
        }
        s += digits;
        n -= digits;
    } else if (digits == n) {
        /* "3228": a numeric move without its separator; shorter: a move
         * number without its dot. */
        if (n == 4) {
            char both[6] = {s[0], s[1], '-', s[2], s[3], '\0'};
            w->kind = clean_move(both, 5, w->text, sizeof w->text) ? W_MOVE : W_BAD;
        } else {
            w->kind = n <= 3 ? W_NUMBER : W_BAD;
        }
        return;
    }
    if (n == 3 && (memcmp(s, "...", 3) == 0 || memcmp(s, "\xE2\x80\xA6", 3) == 0)) {
        w->kind = W_ELLIPSIS;
        return;
    }
    if (pdn_result_parse(s, n, &w->result)) {
        w->kind = W_RESULT;
        return;
    }
    size_t e = n;
    while (e > 0 && (s[e - 1] == '!' || s[e - 1] == '?'))
        e--;
    copy_mark(w->mark, s + e, n - e);
    if (e == 0) {
        w->kind = W_MARK;
        return;
    }
    if (strspn(s, "-") >= e) {
        w->kind = W_UNKNOWN_MOVE;
        return;
    }
    w->kind = clean_move(s, e, w->text, sizeof w->text) ? W_MOVE : W_BAD;
}

/* ---- cutting out one game --------------------------------------------- */

static bool push_raw_move(struct raw_game *raw, const struct word *w, int line)
{
    if (raw->nmoves == raw->cap) {
        int cap = raw->cap ? raw->cap * 2 : 64;
        struct raw_move *grown = realloc(raw->moves, (size_t)cap * sizeof *grown);
        if (!grown)
            return false;
        raw->moves = grown;
        raw->cap = cap;
    }
    struct raw_move *m = &raw->moves[raw->nmoves++];
    memset(m, 0, sizeof *m);
    memcpy(m->text, w->text, sizeof m->text);
    memcpy(m->mark, w->mark, sizeof m->mark);
    m->line = line;
    return true;
}

static bool push_tag(struct raw_game *raw, dm_pdn_game *g, struct token *t)
{
    if (g->ntags == raw->tag_lines_cap) {
        int cap = raw->tag_lines_cap ? raw->tag_lines_cap * 2 : 16;
        int *grown = realloc(raw->tag_lines, (size_t)cap * sizeof *grown);
        if (!grown)
            return false;
        raw->tag_lines = grown;
        raw->tag_lines_cap = cap;
    }
    raw->tag_lines[g->ntags] = t->line;
    if (pdn_game_push_tag(g, t->name, t->value) != 0)
        return false;
    t->name = t->value = NULL;
    return true;
}

/* The comment text of a token; '[%...]' commands and ';' comments too. */
static void attach_comment(dm_pdn_reader *r, const struct token *t)
{
    struct raw_game *raw = &r->raw;
    struct pdn_buf *dst = raw->nmoves ? &raw->moves[raw->nmoves - 1].comment : &raw->comment;
    pdn_buf_fold(dst, r->text + t->start, t->len);
    if (dst->oom)
        syntax_error(raw, t->line, "out of memory");
}

/* Reads the FEN of a set-up /FEN "..."/. */
static void take_setup(dm_pdn_reader *r, const struct token *t)
{
    struct raw_game *raw = &r->raw;
    const char *s = r->text + t->start, *e = s + t->len;
    while (s < e && is_blank((unsigned char)*s))
        s++;
    if (e - s < 3 || strncmp(s, "FEN", 3) != 0) {
        syntax_error(raw, t->line, "a set-up /.../ must hold FEN \"...\"");
        return;
    }
    s += 3;
    while (s < e && (is_blank((unsigned char)*s) || *s == '"'))
        s++;
    while (e > s && (is_blank((unsigned char)e[-1]) || e[-1] == '"'))
        e--;
    if (raw->nmoves > 0) {
        syntax_error(raw, t->line, "a set-up /FEN/ after the first move is not supported");
        return;
    }
    free(raw->setup);
    raw->setup = dup_range(s, (size_t)(e - s));
    raw->setup_line = t->line;
    if (!raw->setup)
        syntax_error(raw, t->line, "out of memory");
}

/* Whether g already has a tag of that name: a second Event starts a game. */
static bool has_tag(const dm_pdn_game *g, const char *name)
{
    for (int i = 0; i < g->ntags; i++)
        if (strcmp(g->tags[i].name, name) == 0)
            return true;
    return false;
}

/*
 * Cuts the next game out of the text: its tags go into g, the rest into
 * r->raw.  Returns false when the text holds no further game.
 *
 * Lenient where the meaning is plain, strict where the text is broken (the
 * PDN reading grammar, and the corpus that tests readers against it): a
 * game that stops without a result while another game follows, a move
 * number with no move after it ("1. 2-0"), a variation left open.  Comments
 * before the first tag pair of a game are dropped: they trail the game
 * before (after its result), where PDN has no place for them.
 */
static bool read_raw(dm_pdn_reader *r, dm_pdn_game *g)
{
    struct raw_game *raw = &r->raw;
    for (;;) {
        raw_clear(raw);
        bool body = false, any = false;
        size_t depth = 0;
        int var_line = 0, number_line = 0, body_line = 0;
        char number[24] = "";
        struct token t;
        for (;;) {
            size_t pos = r->pos;
            int line = r->line;
            lex(r, &t);
            if (!g->line && t.kind != T_EOF && t.kind != T_COMMENT)
                g->line = t.line;
            if (t.kind == T_EOF)
                break;
            if (t.kind == T_TAG) {
                if (body || depth || has_tag(g, t.name)) {
                    /* The next game begins: give its tag back. */
                    free(t.name);
                    free(t.value);
                    r->pos = pos;
                    r->line = line;
                    if (!depth && !number_line)
                        syntax_error(raw, body_line ? body_line : t.line,
                                     "no result ('*', '2-0', '1-0' ...) ends the game before "
                                     "the next game's tag pairs on line %d",
                                     t.line);
                    break;
                }
                if (g->ntags == 0) {
                    free(raw->comment.s);
                    memset(&raw->comment, 0, sizeof raw->comment);
                }
                any = true;
                if (g->ntags >= MAX_TAGS) {
                    free(t.name);
                    free(t.value);
                    syntax_error(raw, t.line, "more than %d tag pairs", MAX_TAGS);
                } else if (!push_tag(raw, g, &t)) {
                    free(t.name);
                    free(t.value);
                    syntax_error(raw, t.line, "out of memory");
                }
                continue;
            }
            if (t.kind == T_ERROR) {
                syntax_error(raw, t.line, "%s", t.msg);
                any = true;
                continue;
            }
            if (t.kind == T_COMMENT) {
                if (!depth)
                    attach_comment(r, &t);
                continue;
            }
            body = true;
            body_line = t.line;
            bool open = !depth && !raw->err_line; /* moves still counted */
            struct raw_move *last = raw->nmoves ? &raw->moves[raw->nmoves - 1] : NULL;
            if (t.kind == T_LPAREN) {
                if (depth++ == 0)
                    var_line = t.line;
                continue;
            }
            if (t.kind == T_RPAREN) {
                if (depth == 0)
                    syntax_error(raw, t.line, "')' without '('");
                else
                    depth--;
                continue;
            }
            if (t.kind == T_NAG) {
                if (open && last && !last->nag)
                    last->nag = t.nag;
                continue;
            }
            if (t.kind == T_MARK) {
                if (open && last && !last->mark[0])
                    copy_mark(last->mark, r->text + t.start, t.len);
                continue;
            }
            if (t.kind == T_SETUP) {
                if (!depth)
                    take_setup(r, &t);
                continue;
            }
            if (t.kind == T_STAR) {
                if (depth)
                    continue;
                raw->has_result = true;
                raw->result = DM_PDN_UNFINISHED;
                break;
            }
            struct word w;
            classify(t.word, t.len, &w);
            if (t.cut)
                w.kind = W_BAD;
            char shown[64];
            quote(shown, sizeof shown, t.word, t.len, 40);
            any |= w.kind != W_RESULT; /* a result alone is no game */
            if (depth && w.kind != W_BAD)
                continue; /* a variation: its syntax only */
            switch (w.kind) {
            case W_NUMBER:
                number_line = t.line;
                snprintf(number, sizeof number, "%s", shown);
                continue;
            case W_ELLIPSIS:
                number_line = 0;
                continue;
            case W_RESULT:
                raw->has_result = true;
                raw->result = w.result;
                break;
            case W_MARK:
                if (open && last && !last->mark[0])
                    memcpy(last->mark, w.mark, sizeof last->mark);
                continue;
            case W_UNKNOWN_MOVE:
                number_line = 0;
                syntax_error(raw, t.line,
                             "'%s' stands for an unknown move, which cannot be "
                             "replayed",
                             shown);
                continue;
            case W_BAD:
                syntax_error(raw, t.line, "'%s' is not a move, a move number or a result", shown);
                continue;
            case W_MOVE:
                number_line = 0;
                if (open && !push_raw_move(raw, &w, t.line))
                    syntax_error(raw, t.line, "out of memory");
                continue;
            }
            break; /* a result ends the game */
        }
        if (depth)
            syntax_error(raw, var_line, "variation '(' is never closed");
        if (number_line)
            syntax_error(raw, number_line, "move number '%s' is not followed by a move", number);
        if (any || g->ntags) {
            if (raw->comment.len) {
                g->comment = raw->comment.s;
                memset(&raw->comment, 0, sizeof raw->comment);
            }
            return true;
        }
        if (t.kind == T_EOF)
            return false;
        /* Only a result or comments: no game; look further. */
        g->line = 0;
    }
}

/* ---- replaying -------------------------------------------------------- */

struct outcome {
    int replayed; /* moves replayed; -1 if the FEN failed */
    int line;     /* of the error */
    char why[200];
};

/* The side that moves first in v, for move numbers. */
static int first_side(const dm_variant *v)
{
    dm_position p;
    dm_position_start(v, &p);
    return p.side;
}

/* Reads a FEN for v; PDN's '?' for an unknown side to move becomes the side
 * that starts in v. */
static int read_fen(const dm_variant *v, const char *fen, dm_position *pos, dm_error *err)
{
    char buf[4096];
    size_t n = strlen(fen);
    if (n >= sizeof buf) {
        snprintf(err->msg, sizeof err->msg, "FEN: longer than %zu characters", sizeof buf - 1);
        return -1;
    }
    memcpy(buf, fen, n + 1);
    char *p = buf;
    while (*p && (is_blank((unsigned char)*p) || *p == '"'))
        p++;
    if (*p == '?')
        *p = first_side(v) == DM_WHITE ? 'W' : 'B';
    return dm_fen_parse(v, buf, pos, err);
}

enum { MAX_MEANINGS = 16, LOOKAHEAD = 40 };

/*
 * The legal moves at pos that text may mean (at most max, into out), with
 * r->legal left holding the legal moves of pos.  Beyond dm_move_parse:
 * when text is ambiguous, every move it may mean; when it gives a capture
 * route the merged move does not keep (a flying king's other landing square,
 * "a1xf6xh8" for the route a1-e5-h8), the move of that route.  Returns the
 * count, with dm_move_parse's message in err when it is 0 or more than 1.
 */
static int meanings(dm_pdn_reader *r, const dm_variant *v, const dm_position *pos, const char *text,
                    dm_move *out, int max, dm_error *err)
{
    dm_generate(v, pos, r->legal, 0);
    int k = dm_move_parse(v, r->legal, text, err);
    if (k >= 0) {
        out[0] = r->legal->moves[k];
        return 1;
    }
    dm_error ignored;
    if (k == DM_PARSE_AMBIGUOUS) {
        int n = 0;
        r->one->count = 1;
        for (int i = 0; i < r->legal->count && n < max; i++) {
            r->one->moves[0] = r->legal->moves[i];
            if (dm_move_parse(v, r->one, text, &ignored) >= 0)
                out[n++] = r->legal->moves[i];
        }
        return n;
    }
    int separators = 0;
    for (const char *p = text; *p; p++)
        separators += *p == '-' || *p == 'x' || *p == ':';
    if (k != DM_PARSE_ILLEGAL || separators < 2)
        return 0;
    dm_generate(v, pos, r->routes, DM_GEN_KEEP_DUPLICATES);
    k = dm_move_parse(v, r->routes, text, &ignored);
    if (k < 0)
        return 0;
    const dm_move *route = &r->routes->moves[k];
    for (int i = 0; i < r->legal->count; i++) {
        const dm_move *m = &r->legal->moves[i];
        if (m->from == route->from && m->to == route->to &&
            m->captured_set == route->captured_set) {
            out[0] = *m;
            return 1;
        }
    }
    return 0;
}

/* How many of the moves from index i on replay from pos, up to LOOKAHEAD;
 * a move that is ambiguous again counts as its first meaning. */
static int plies_that_replay(dm_pdn_reader *r, const dm_variant *v, dm_position pos, int i)
{
    struct raw_game *raw = &r->raw;
    int done = 0;
    for (; i < raw->nmoves && done < LOOKAHEAD; i++, done++) {
        dm_move m;
        dm_error err;
        if (meanings(r, v, &pos, raw->moves[i].text, &m, 1, &err) == 0)
            break;
        dm_make_move(v, &pos, &m);
    }
    return done;
}

/*
 * The move raw move i means at pos, into *m.  Text that several legal moves
 * match (a short-king capture written from x to when two routes take
 * different pieces) is settled by the moves that follow: the one meaning
 * after which more of them replay.  Returns false with err filled if no
 * legal move, or more than one equally, fits.
 */
static bool resolve(dm_pdn_reader *r, const dm_variant *v, const dm_position *pos, int i,
                    dm_move *m, dm_error *err)
{
    dm_move options[MAX_MEANINGS];
    int n = meanings(r, v, pos, r->raw.moves[i].text, options, MAX_MEANINGS, err);
    if (n == 1)
        *m = options[0];
    if (n <= 1)
        return n == 1;
    int best = -1, best_plies = -1, ties = 0;
    for (int k = 0; k < n; k++) {
        dm_position next = *pos;
        dm_make_move(v, &next, &options[k]);
        int plies = plies_that_replay(r, v, next, i + 1);
        if (plies > best_plies)
            best = k, best_plies = plies, ties = 0;
        else if (plies == best_plies)
            ties++;
    }
    if (ties)
        return false; /* err still holds dm_move_parse's "ambiguous" */
    *m = options[best];
    return true;
}

/*
 * Replays r->raw under v from fen (NULL: the start position).  With g, the
 * moves, variant and positions go into g and the comments move over from
 * raw.  Stops at the first move that is not legal.
 */
static void replay(dm_pdn_reader *r, const dm_variant *v, const char *fen, int fen_line,
                   dm_pdn_game *g, struct outcome *out)
{
    struct raw_game *raw = &r->raw;
    dm_position pos;
    dm_error err;
    memset(out, 0, sizeof *out);
    if (!fen) {
        dm_position_start(v, &pos);
    } else if (read_fen(v, fen, &pos, &err) != 0) {
        out->replayed = -1;
        out->line = fen_line;
        snprintf(out->why, sizeof out->why, "%s", err.msg);
        return;
    }
    if (g) {
        g->variant = v;
        g->start = g->end = pos;
    }
    int offset = pos.side == first_side(v) ? 0 : 1;
    for (int i = 0; i < raw->nmoves; i++) {
        struct raw_move *rm = &raw->moves[i];
        dm_move m;
        if (!resolve(r, v, &pos, i, &m, &err)) {
            int ply = i + offset;
            out->line = rm->line;
            snprintf(out->why, sizeof out->why, "at %d%s: %s", ply / 2 + 1, ply % 2 ? "..." : ".",
                     err.msg);
            return;
        }
        if (g) {
            dm_pdn_move *pm = pdn_game_push_move(g);
            if (!pm) {
                out->line = rm->line;
                snprintf(out->why, sizeof out->why, "out of memory");
                return;
            }
            dm_generate(v, &pos, r->legal, 0);
            pm->move = m;
            dm_move_format(v, &m, r->legal, pm->text, sizeof pm->text);
            memcpy(pm->mark, rm->mark, sizeof pm->mark);
            pm->nag = rm->nag;
            pm->comment = rm->comment.len ? rm->comment.s : NULL;
            if (!rm->comment.len)
                free(rm->comment.s);
            memset(&rm->comment, 0, sizeof rm->comment);
        }
        dm_make_move(v, &pos, &m);
        if (g)
            g->end = pos;
        out->replayed++;
    }
}

static bool algebraic_text(const char *s)
{
    for (; s && *s; s++)
        if (*s >= 'a' && *s <= 'l' && isdigit((unsigned char)s[1]))
            return true;
    return false;
}

/*
 * The variants to try for a game no tag names: the last one guessed, then
 * those with a PDN 3.0 GameType number (the games federations record) in
 * the notation its moves (or its FEN) are written in, then in the other
 * notation.  A variant played only online comes with a tag or not at all.
 * Returns the count.
 */
static int candidates(const dm_pdn_reader *r, const char *fen, const dm_variant **out, int size)
{
    static const char *const numeric[] = {"international", "english",    "italian",  "pool",
                                          "spanish",       "portuguese", "canadian", "frisian"};
    static const char *const algebraic[] = {"russian", "brazilian", "czech", "thai", "turkish"};
    bool alpha = r->raw.nmoves ? algebraic_text(r->raw.moves[0].text) : algebraic_text(fen);
    int n = 0;
    const dm_variant *order[32];
    if (r->sticky)
        order[n++] = r->sticky;
    for (int pass = 0; pass < 2; pass++) {
        bool want_numeric = (pass == 0) != alpha;
        const char *const *main = want_numeric ? numeric : algebraic;
        size_t nmain =
            want_numeric ? sizeof numeric / sizeof *numeric : sizeof algebraic / sizeof *algebraic;
        for (size_t i = 0; i < nmain; i++) {
            const dm_variant *v = dm_variant_by_id(main[i]);
            if (v)
                order[n++] = v;
        }
    }
    int count = 0;
    for (int i = 0; i < n && count < size; i++) {
        bool seen = false;
        for (int j = 0; j < count; j++)
            seen |= out[j] == order[i];
        if (!seen)
            out[count++] = order[i];
    }
    return count;
}

/* The first tag of that name, any case; its index or -1. */
static int find_tag(const dm_pdn_game *g, const char *name)
{
    for (int i = 0; i < g->ntags; i++)
        if (strcasecmp(g->tags[i].name, name) == 0)
            return i;
    return -1;
}

/*
 * The variant the tags name: Variant (lidraughts) before GameType, as it is
 * the more precise.  Returns 1 with *v set, 0 if no tag names one, -1 with
 * the reason and line.
 */
static int tagged_variant(dm_pdn_reader *r, const dm_pdn_game *g, const dm_variant **v,
                          struct outcome *out)
{
    int vt = find_tag(g, "Variant"), gt = find_tag(g, "GameType");
    bool deferred = false;
    if (vt >= 0) {
        *v = pdn_variant_named(g->tags[vt].value, &deferred);
        if (*v)
            return 1;
        if (!deferred && gt < 0) {
            char shown[64];
            const char *s = g->tags[vt].value;
            quote(shown, sizeof shown, s, strlen(s), 40);
            out->line = r->raw.tag_lines[vt];
            snprintf(out->why, sizeof out->why, "Variant '%s' is not a variant Damier plays",
                     shown);
            return -1;
        }
    }
    if (gt < 0) {
        if (vt >= 0 && deferred) {
            /* lidraughts' "Standard" is international draughts. */
            *v = dm_variant_by_id("international");
            return 1;
        }
        return 0;
    }
    const char *s = g->tags[gt].value;
    char shown[64];
    quote(shown, sizeof shown, s, strlen(s), 40);
    out->line = r->raw.tag_lines[gt];
    while (is_blank((unsigned char)*s))
        s++;
    char *end;
    long number = strtol(s, &end, 10);
    if (end == s || number < 0 || number > 9999) {
        snprintf(out->why, sizeof out->why, "GameType '%s' does not start with a number", shown);
        return -1;
    }
    if (number == 99 && vt >= 0) {
        *v = dm_variant_by_id("international");
        return 1;
    }
    *v = pdn_variant_of_gametype((int)number);
    if (!*v) {
        const char *name = pdn_gametype_unplayed((int)number);
        snprintf(out->why, sizeof out->why, "GameType %ld%s%s%s is not a variant Damier plays",
                 number, name ? " (" : "", name ? name : "", name ? ")" : "");
        return -1;
    }
    /* The full form "20,W,10,10,N2,0": the board must be the variant's.
     * The colour and notation fields only describe it; moves are read in
     * the variant's own notation. */
    int width, height;
    char colour;
    if (sscanf(end, " , %c , %d , %d", &colour, &width, &height) == 3 &&
        (width != dm_variant_board_files(*v) || height != dm_variant_board_ranks(*v))) {
        snprintf(out->why, sizeof out->why, "GameType '%s': %s is played on %dx%d, not %dx%d",
                 shown, dm_variant_id(*v), dm_variant_board_files(*v), dm_variant_board_ranks(*v),
                 width, height);
        return -1;
    }
    return 1;
}

/* Chooses the variant and start, replays the moves into g; fills g->error
 * and g->error_line on failure. */
static void finish(dm_pdn_reader *r, dm_pdn_game *g)
{
    struct raw_game *raw = &r->raw;
    struct outcome out;
    memset(&out, 0, sizeof out);

    int ft = find_tag(g, "FEN");
    const char *fen = raw->setup ? raw->setup : ft >= 0 ? g->tags[ft].value : NULL;
    int fen_line = raw->setup ? raw->setup_line : ft >= 0 ? raw->tag_lines[ft] : 0;
    if (fen && !fen[strspn(fen, " \t")])
        fen = NULL; /* [FEN ""]: none */

    int rt = find_tag(g, "Result");
    if (raw->has_result)
        g->result = raw->result;
    else if (rt >= 0)
        pdn_result_parse(g->tags[rt].value, strlen(g->tags[rt].value), &g->result);

    const dm_variant *v = NULL;
    int tagged = tagged_variant(r, g, &v, &out);
    if (tagged < 0) {
        g->error_line = out.line;
        snprintf(g->error, sizeof g->error, "%s", out.why);
        return;
    }
    if (tagged == 0 && r->opt.variant) {
        v = r->opt.variant;
    } else if (tagged == 0 && r->opt.guess_variant) {
        const dm_variant *list[256];
        int n = candidates(r, fen, list, 256);
        int best = -1, best_done = -2;
        for (int i = 0; i < n; i++) {
            replay(r, list[i], fen, fen_line, NULL, &out);
            if (out.replayed == raw->nmoves) {
                best = i;
                break;
            }
            if (out.replayed > best_done)
                best = i, best_done = out.replayed;
        }
        v = list[best];
        g->variant_guessed = true;
    } else if (tagged == 0) {
        v = dm_variant_by_id("international");
    }
    replay(r, v, fen, fen_line, g, &out);
    if (out.line) {
        g->error_line = out.line;
        snprintf(g->error, sizeof g->error, "%s", out.why);
    } else if (raw->err_line) {
        g->error_line = raw->err_line;
        snprintf(g->error, sizeof g->error, "%s", raw->err);
    } else if (g->variant_guessed && raw->nmoves > 0) {
        r->sticky = v;
    }
    if (out.replayed < 0)
        g->variant = v; /* the FEN failed: the game still has its variant */
}

int dm_pdn_read(dm_pdn_reader *r, dm_pdn_game *g, dm_error *err)
{
    dm_pdn_game_free(g);
    if (!read_raw(r, g))
        return 0;
    g->number = ++r->games;
    finish(r, g);
    if (!g->error_line)
        return 1;
    char label[160];
    dm_pdn_game_label(g, label, sizeof label);
    snprintf(err->msg, sizeof err->msg, "%s, line %d: %s", label, g->error_line, g->error);
    return -1;
}
