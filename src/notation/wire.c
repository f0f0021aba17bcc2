/* SPDX-License-Identifier: MIT */
/*
 * wire.c - positions and moves as the engine protocols carry them.
 *
 * Hub (Scan's protocol.txt, "pos" and moves) and DXP (the DamExchange
 * MOVE message) both name squares by number and both give a capture as
 * its from, to and captured squares rather than its route: the receiver
 * finds the legal move with that signature.  So the wire forms are written
 * here once, over square numbers, and dm_move_find serves both protocols.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/bits.h"
#include "base/text.h"
#include "notation/notation.h"
#include "rules/variant.h"

int dm_cell_number(const dm_variant *v, int cell)
{
    return v->numbering == NUM_IBER ? v->geo->ncells - cell : cell + 1;
}

int dm_cell_of_number(const dm_variant *v, int number)
{
    int n = v->geo->ncells;
    if (number < 1 || number > n)
        return -1;
    return v->numbering == NUM_IBER ? n - number : number - 1;
}

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

/* ---- positions ------------------------------------------------------------ */

int dm_hub_position_format(const dm_variant *v, const dm_position *pos, char *buf, size_t size)
{
    int n = v->geo->ncells;
    char text[DM_HUB_POSITION_SIZE];
    text[0] = pos->side == DM_WHITE ? 'W' : 'B';
    for (int number = 1; number <= n; number++) {
        dm_bits bit = BIT128(dm_cell_of_number(v, number));
        bool white = pos->white & bit, black = pos->black & bit;
        char c = 'e';
        if (white || black) {
            c = (pos->kings & bit) ? 'W' : (pos->paras & bit) ? 'p' : 'w';
            if (black)
                c = c == 'W' ? 'B' : c == 'p' ? 'q' : 'b';
        }
        text[number] = c;
    }
    text[n + 1] = '\0';
    return snprintf(buf, size, "%s", text);
}

int dm_hub_position_parse(const dm_variant *v, const char *text, dm_position *pos, dm_error *err)
{
    int n = v->geo->ncells;
    size_t len = strlen(text);
    char shown[TEXT_ESCAPED_SIZE(DM_HUB_POSITION_SIZE)];
    if (len != (size_t)n + 1)
        return fail(err, "Hub position '%s': %zu letters, %s needs %d (the side, then %d squares)",
                    text_escape(text, len < DM_HUB_POSITION_SIZE ? len : DM_HUB_POSITION_SIZE,
                                shown, sizeof shown),
                    len, v->id, n + 1, n);
    memset(pos, 0, sizeof *pos);
    pos->king_cell[0] = pos->king_cell[1] = DM_NO_CELL;
    if (text[0] != 'W' && text[0] != 'B')
        return fail(err, "Hub position: side to move '%s' is neither W nor B",
                    text_escape(text, 1, shown, sizeof shown));
    pos->side = text[0] == 'W' ? DM_WHITE : DM_BLACK;
    for (int number = 1; number <= n; number++) {
        char c = text[number];
        dm_bits bit = BIT128(dm_cell_of_number(v, number));
        const char *kinds = "wbWBpq";
        const char *k = c ? strchr(kinds, c) : NULL;
        if (c == 'e')
            continue;
        if (!k)
            return fail(err, "Hub position: square %d is '%s', not one of w b W B e%s", number,
                        text_escape(&text[number], 1, shown, sizeof shown),
                        v->parachutes ? " p q" : "");
        int kind = (int)(k - kinds);
        if (kind >= 2 && kind < 4 && v->king == KING_NONE)
            return fail(err, "Hub position: square %d holds a king; %s has none", number, v->id);
        if (kind >= 4 && !v->parachutes)
            return fail(err, "Hub position: square %d holds a parachutist; %s has none", number,
                        v->id);
        if (kind % 2)
            pos->black |= bit;
        else
            pos->white |= bit;
        if (kind == 2 || kind == 3)
            pos->kings |= bit;
        if (kind >= 4)
            pos->paras |= bit;
    }
    return notation_check_position(v, pos, "Hub position", err);
}

/* ---- moves ----------------------------------------------------------------- */

void dm_hub_move_format(const dm_variant *v, const dm_move *m, char *buf, size_t size)
{
    if (m->flags & DM_MOVE_REMOVAL) {
        snprintf(buf, size, "%d", dm_cell_number(v, m->from));
        return;
    }
    int len = snprintf(buf, size, "%d%c%d", dm_cell_number(v, m->from), m->njumps ? 'x' : '-',
                       dm_cell_number(v, m->to));
    for (int i = 0; i < m->njumps && len >= 0 && (size_t)len < size; i++)
        len += snprintf(buf + len, size - (size_t)len, "x%d", dm_cell_number(v, m->captured[i]));
}

int dm_move_find(const dm_move_list *legal, int from, int to, dm_bits captured)
{
    for (int i = 0; i < legal->count; i++) {
        const dm_move *m = &legal->moves[i];
        if (m->from == from && m->to == to && m->captured_set == captured &&
            !(m->flags & DM_MOVE_REMOVAL))
            return i;
    }
    return -1;
}

/* The removal move of cell, or -1. */
static int find_removal(const dm_move_list *legal, int cell)
{
    for (int i = 0; i < legal->count; i++)
        if ((legal->moves[i].flags & DM_MOVE_REMOVAL) && legal->moves[i].from == cell)
            return i;
    return -1;
}

int dm_hub_move_parse(const dm_variant *v, const dm_move_list *legal, const char *text,
                      dm_error *err)
{
    char shown[TEXT_ESCAPED_SIZE(DM_HUB_MOVE_SIZE)];
    size_t len = strlen(text);
    text_escape(text, len < DM_HUB_MOVE_SIZE ? len : DM_HUB_MOVE_SIZE, shown, sizeof shown);
    int cells[DM_MAX_JUMPS + 2], count = 0;
    char sep = 0;
    const char *p = text;
    for (;;) {
        if (!isdigit((unsigned char)*p) || count == DM_MAX_JUMPS + 2)
            break;
        int number = 0;
        while (isdigit((unsigned char)*p) && number < 1000)
            number = number * 10 + (*p++ - '0');
        int cell = dm_cell_of_number(v, number);
        if (cell < 0) {
            fail(err, "move '%s': square %d does not exist on %s's board", shown, number, v->id);
            return DM_PARSE_MALFORMED;
        }
        cells[count++] = cell;
        if (*p == '\0')
            break;
        if ((*p != '-' && *p != 'x') || (sep && *p != sep) || (*p == '-' && count > 1))
            break;
        sep = *p++;
    }
    bool whole = *p == '\0' && count > 0 && (count == 1 || sep);
    /* from x to without the captured squares: PDN's short form, which a
     * lenient reader takes too. */
    if (whole && sep == 'x' && count == 2)
        return dm_move_parse(v, legal, text, err);
    if (!whole || (sep == '-' && count != 2) || (sep == 'x' && count < 3)) {
        fail(err, "move '%s': expected from-to, from x to x captured..., or a square", shown);
        return DM_PARSE_MALFORMED;
    }
    int index;
    if (count == 1) {
        index = find_removal(legal, cells[0]);
    } else {
        dm_bits captured = 0;
        for (int i = 2; i < count; i++) {
            if (captured & BIT128(cells[i])) {
                fail(err, "move '%s': captured square %d is given twice", shown,
                     dm_cell_number(v, cells[i]));
                return DM_PARSE_MALFORMED;
            }
            captured |= BIT128(cells[i]);
        }
        index = dm_move_find(legal, cells[0], cells[1], captured);
    }
    if (index < 0) {
        fail(err, "move '%s' is not legal in this position", shown);
        return DM_PARSE_ILLEGAL;
    }
    return index;
}
