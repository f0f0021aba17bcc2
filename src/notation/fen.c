/* SPDX-License-Identifier: MIT */
/*
 * fen.c - positions in and out as PDN 3.0 FEN.
 *
 *   <side>:W<list>:B<list>[:H<halfmoves>:F<fullmove>][:+<black>+<white>]
 *
 * A list holds squares (numbers or algebraic names) separated by commas,
 * each optionally prefixed K (king) or P (parachutist); numbered variants
 * allow ranges (31-50).  The reader is lenient about case, blanks and a final
 * full stop; it rejects anything it cannot place, naming the token and why.
 *
 * The last field is lidraughts' Frisian king-move counter (the Frisian
 * same-king limit, lidraughts' Frisian rules):
 * for Black then White, '+', the number of quiet moves in a row (0-3) of one
 * king and, when not 0, that king's square as two digits ("+0+207": White's
 * king on 7 has made two).  It is written only when a counter is not 0.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/bits.h"
#include "base/text.h"
#include "notation/notation.h"
#include "rules/variant.h"

static int fail(dm_error *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Input quoted in a message: control characters and broken UTF-8 escaped
 * (an ESC sequence in a FEN must not reach a terminal), cut after 40 bytes
 * so that the reason still fits the message. */
#define QUOTE_MAX 40
struct quoted {
    char s[TEXT_ESCAPED_SIZE(QUOTE_MAX) + 4];
};

static const char *quote(struct quoted *q, const char *text, size_t len)
{
    text_escape(text, len < QUOTE_MAX ? len : QUOTE_MAX, q->s, sizeof q->s - 3);
    if (len > QUOTE_MAX)
        strcat(q->s, "...");
    return q->s;
}

/* Places one piece; checks the square is free. */
static int place(const dm_variant *v, dm_position *pos, int color, int cell, char kind,
                 const char *tok, int toklen, dm_error *err)
{
    dm_bits bit = BIT128(cell);
    struct quoted q;
    /* Each square holds one piece, so no list can hold more pieces than the
     * board has cells. */
    if ((pos->white | pos->black) & bit)
        return fail(err, "FEN: square '%s' is given twice", quote(&q, tok, (size_t)toklen));
    if (kind == 'K' && v->king == KING_NONE)
        return fail(err, "FEN: '%s': %s has no kings", quote(&q, tok, (size_t)toklen), v->id);
    if (kind == 'P' && !v->parachutes)
        return fail(err, "FEN: '%s': %s has no parachutists", quote(&q, tok, (size_t)toklen),
                    v->id);
    if (color == DM_WHITE)
        pos->white |= bit;
    else
        pos->black |= bit;
    if (kind == 'K')
        pos->kings |= bit;
    if (kind == 'P')
        pos->paras |= bit;
    return 0;
}

/* Reads one piece list (the text after W or B, up to the next ':'). */
static int parse_list(const dm_variant *v, dm_position *pos, int color, const char *p,
                      const char *end, dm_error *err)
{
    while (p < end) {
        const char *tok = p;
        while (p < end && *p != ',')
            p++;
        const char *tok_end = p;
        if (p < end)
            p++; /* the comma */
        while (tok < tok_end && isspace((unsigned char)*tok))
            tok++;
        while (tok_end > tok && isspace((unsigned char)tok_end[-1]))
            tok_end--;
        int len = (int)(tok_end - tok);
        if (len == 0) {
            if (p == end && tok_end == end)
                break; /* a trailing comma */
            return fail(err, "FEN: empty square in the %s list", color ? "black" : "white");
        }
        char kind = 0;
        const char *sq = tok;
        /* A lower-case prefix is a file letter where the board has that file
         * (k1 on 12x12); upper case is always the prefix. */
        int file = tolower((unsigned char)*sq) - 'a';
        bool is_file = islower((unsigned char)*sq) && file < v->geo->files;
        if ((*sq == 'K' || *sq == 'k' || *sq == 'P' || *sq == 'p') && !is_file) {
            kind = (char)toupper((unsigned char)*sq);
            sq++;
        }
        const char *dash = memchr(sq, '-', (size_t)(tok_end - sq));
        const char *sq_end = dash ? dash : tok_end;
        int first = dm_cell_parse(v, sq, (size_t)(sq_end - sq));
        struct quoted q;
        if (first < 0)
            return fail(err, "FEN: square '%s' does not exist on the %s board of %s",
                        quote(&q, sq, (size_t)(sq_end - sq)), v->geo->name, v->id);
        if (!dash) {
            if (place(v, pos, color, first, kind, tok, len, err))
                return -1;
            continue;
        }
        int last = dm_cell_parse(v, dash + 1, (size_t)(tok_end - dash - 1));
        if (last < 0 || v->numbering == NUM_ALGEBRAIC)
            return fail(err, "FEN: range '%s' is not two square numbers",
                        quote(&q, tok, (size_t)len));
        int a = notation_cell_order(v, first), b = notation_cell_order(v, last);
        if (a > b)
            return fail(err, "FEN: range '%s' runs backwards", quote(&q, tok, (size_t)len));
        for (int n = a; n <= b; n++) {
            char num[8];
            int nl = snprintf(num, sizeof num, "%d", n);
            if (place(v, pos, color, dm_cell_parse(v, num, (size_t)nl), kind, tok, len, err))
                return -1;
        }
    }
    return 0;
}

/* Reads the Frisian counter field "+<n>[<square>]+<n>[<square>]" (Black's,
 * then White's) into pos->king_moves and king_cell.  A count of 1-3 needs the
 * square of a king of that colour; a count of 0 leaves no king. */
static int parse_counters(const dm_variant *v, dm_position *pos, const char *p, const char *end,
                          dm_error *err)
{
    size_t len = (size_t)(end - p);
    struct quoted q, q2;
    const char *field = quote(&q, p, len);
    for (int i = 0; i < 2; i++) {
        int color = i == 0 ? DM_BLACK : DM_WHITE;
        if (p >= end || *p != '+' || p + 1 >= end || !isdigit((unsigned char)p[1]))
            return fail(err,
                        "FEN: king-move counters '%s': expected +<count>[square] for "
                        "Black, then for White",
                        field);
        int count = p[1] - '0';
        const char *sq = p + 2, *sq_end = sq;
        while (sq_end < end && *sq_end != '+')
            sq_end++;
        p = sq_end;
        if (count > 3)
            return fail(err, "FEN: king-move counters '%s': %d is more than 3 moves", field,
                        count);
        if (count == 0)
            continue;
        int cell = sq < sq_end ? dm_cell_parse(v, sq, (size_t)(sq_end - sq)) : -1;
        dm_bits own = color == DM_WHITE ? pos->white : pos->black;
        if (cell < 0 || !has128(own & pos->kings, cell))
            return fail(err,
                        "FEN: king-move counters '%s': %s's count needs the square of "
                        "one of its kings, found '%s'",
                        field, color ? "Black" : "White", quote(&q2, sq, (size_t)(sq_end - sq)));
        pos->king_cell[color] = (uint8_t)cell;
        pos->king_moves[color] = (uint8_t)count;
    }
    if (p != end)
        return fail(err, "FEN: king-move counters '%s': unexpected '%s' at the end", field,
                    quote(&q2, p, (size_t)(end - p)));
    return 0;
}

static int parse_unchecked(const dm_variant *v, const char *fen, dm_position *pos,
                           dm_error *err)
{
    memset(pos, 0, sizeof *pos);
    pos->king_cell[0] = pos->king_cell[1] = DM_NO_CELL;
    const char *p = fen;
    while (isspace((unsigned char)*p) || *p == '"')
        p++;
    const char *end = p + strlen(p);
    while (end > p && (isspace((unsigned char)end[-1]) || end[-1] == '"' || end[-1] == '.'))
        end--;
    if (p == end)
        return fail(err, "FEN: empty");
    char side = (char)toupper((unsigned char)*p);
    struct quoted q, q2;
    if (side != 'W' && side != 'B')
        return fail(err, "FEN '%s': expected W or B for the side to move, found '%s'",
                    quote(&q, p, (size_t)(end - p)), quote(&q2, p, 1));
    pos->side = side == 'W' ? DM_WHITE : DM_BLACK;
    p++;
    bool seen[2] = {false, false};
    const char *counters = NULL, *counters_end = NULL;
    while (p < end) {
        if (*p != ':')
            return fail(err, "FEN: expected ':' after the side to move, found '%s'",
                        quote(&q, p, 1));
        p++;
        const char *field_end = memchr(p, ':', (size_t)(end - p));
        if (!field_end)
            field_end = end;
        char tag = (char)toupper((unsigned char)*p);
        if (tag == 'W' || tag == 'B') {
            int color = tag == 'W' ? DM_WHITE : DM_BLACK;
            if (seen[color])
                return fail(err, "FEN: the %s pieces are listed twice",
                            color ? "black" : "white");
            seen[color] = true;
            if (parse_list(v, pos, color, p + 1, field_end, err))
                return -1;
        } else if (tag == 'H' || tag == 'F') {
            for (const char *c = p + 1; c < field_end; c++)
                if (!isdigit((unsigned char)*c))
                    return fail(err, "FEN: '%s' is not a move counter",
                                quote(&q, p, (size_t)(field_end - p)));
        } else if (tag == '+' && v->frisian_king_limit) {
            counters = p;
            counters_end = field_end;
        } else {
            return fail(err, "FEN: unknown field '%s' (expected W, B, H or F)",
                        quote(&q, p, (size_t)(field_end - p)));
        }
        p = field_end;
    }
    if (!seen[0] || !seen[1])
        return fail(err, "FEN: the %s pieces are missing (expected W<squares>:B<squares>)",
                    seen[0] ? "black" : "white");
    return counters ? parse_counters(v, pos, counters, counters_end, err) : 0;
}

/*
 * Reads fen and refuses only a position no game can reach: a square off
 * the playing cells, a square given twice, a piece kind the variant lacks,
 * a man standing where it would already have been crowned, and a side with
 * more pieces than the start position gives it.  The last one also bounds
 * the work of the capture search: finding the longest capture is a
 * longest-path search, and a king among thirty men that no game can hold
 * has millions of routes (tests/fuzz/findings).
 */
int dm_fen_parse(const dm_variant *v, const char *fen, dm_position *pos, dm_error *err)
{
    if (parse_unchecked(v, fen, pos, err))
        return -1;
    return notation_check_position(v, pos, "FEN", err);
}

int notation_check_position(const dm_variant *v, const dm_position *pos, const char *form,
                            dm_error *err)
{
    /* A man on its promotion squares (promo_bb: the far row, or the few
     * squares of Corner checkers, none without promotion) would have been
     * crowned there; the variant's own start position says which such
     * squares a man may still hold (One Way's Black men start on the row
     * where White's are crowned, which is theirs too). */
    for (int color = 0; color < 2; color++) {
        dm_bits own = color ? pos->black : pos->white;
        dm_bits start_own = color ? v->start.black : v->start.white;
        dm_bits men = own & ~pos->kings & ~pos->paras & v->promo_bb[color] & ~start_own;
        if (men) {
            char name[8];
            dm_cell_name(v, ctz128(men), name, sizeof name);
            return fail(err, "%s: a %s man on %s stands on its promotion row", form,
                        color ? "black" : "white", name);
        }
        /* Captures only take pieces away, and a man is crowned in place. */
        int count = popcount128(own), most = popcount128(start_own);
        if (count > most)
            return fail(err, "%s: %s has %d pieces, more than the %d of the start position",
                        form, color ? "Black" : "White", count, most);
    }
    return 0;
}

/* Appends the pieces of one colour, in listing order, with ranges for runs
 * of three or more numbered men. */
static void format_list(const dm_variant *v, const dm_position *pos, int color, char *buf,
                        size_t size, size_t *len)
{
    dm_bits own = color ? pos->black : pos->white;
    int order[DM_MAX_CELLS], n = 0;
    int by_order[DM_MAX_CELLS * 2 + 2];
    memset(by_order, -1, sizeof by_order);
    for (dm_bits b = own; b; b &= b - 1) {
        int c = ctz128(b);
        by_order[notation_cell_order(v, c)] = c;
    }
    for (int i = 0; i < (int)(sizeof by_order / sizeof by_order[0]); i++)
        if (by_order[i] >= 0)
            order[n++] = by_order[i];
    bool numeric = v->numbering != NUM_ALGEBRAIC;
    for (int i = 0; i < n;) {
        int c = order[i];
        char name[8];
        dm_cell_name(v, c, name, sizeof name);
        const char *prefix = has128(pos->kings, c) ? "K" : has128(pos->paras, c) ? "P" : "";
        int run = 1;
        if (numeric && !*prefix)
            while (i + run < n && !has128(pos->kings | pos->paras, order[i + run]) &&
                   notation_cell_order(v, order[i + run]) == notation_cell_order(v, c) + run)
                run++;
        if (run < 3)
            run = 1;
        *len += (size_t)snprintf(buf + *len, *len < size ? size - *len : 0, "%s%s%s",
                                 i ? "," : "", prefix, name);
        if (run > 1) {
            dm_cell_name(v, order[i + run - 1], name, sizeof name);
            *len += (size_t)snprintf(buf + *len, *len < size ? size - *len : 0, "-%s", name);
        }
        i += run;
    }
}

int dm_fen_format(const dm_variant *v, const dm_position *pos, char *buf, size_t size)
{
    size_t len = (size_t)snprintf(buf, size, "%c:W", pos->side == DM_WHITE ? 'W' : 'B');
    format_list(v, pos, DM_WHITE, buf, size, &len);
    len += (size_t)snprintf(buf + len, len < size ? size - len : 0, ":B");
    format_list(v, pos, DM_BLACK, buf, size, &len);
    if (pos->king_moves[DM_WHITE] || pos->king_moves[DM_BLACK]) {
        len += (size_t)snprintf(buf + len, len < size ? size - len : 0, ":");
        for (int color = DM_BLACK; color >= DM_WHITE; color--) {
            char name[8] = "";
            if (pos->king_moves[color])
                dm_cell_name(v, pos->king_cell[color], name, sizeof name);
            bool pad = v->numbering != NUM_ALGEBRAIC && name[0] && !name[1];
            len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "+%d%s%s",
                                    pos->king_moves[color], pad ? "0" : "", name);
        }
    }
    return (int)(len < size ? len : size - 1);
}
