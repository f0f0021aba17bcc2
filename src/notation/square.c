/* SPDX-License-Identifier: MIT */
/*
 * square.c - the names of cells: square numbers (N-top, Iberian) or
 * algebraic names: FMJD and WCDF numbers from the top left (FMJD rules 8.1),
 * the Iberian ones of the FPD rules, a1-h8 as the Russian and Czech rules
 * write them (docs/variants.md).
 */
#include <ctype.h>
#include <stdio.h>

#include "notation/notation.h"
#include "rules/variant.h"

void dm_cell_name(const dm_variant *v, int cell, char *buf, size_t size)
{
    const struct geometry *g = v->geo;
    if (cell < 0 || cell >= g->ncells) {
        snprintf(buf, size, "?");
        return;
    }
    switch (v->numbering) {
    case NUM_TOP:
        snprintf(buf, size, "%d", cell + 1);
        break;
    case NUM_IBER:
        snprintf(buf, size, "%d", g->ncells - cell);
        break;
    case NUM_ALGEBRAIC:
        snprintf(buf, size, "%c%d", 'a' + g->file_of[cell], g->rank_of[cell] + 1);
        break;
    }
}

/* Square numbers are accepted in every variant (PDN allows them for the
 * algebraic ones too); algebraic names only where the board has files. */
int dm_cell_parse(const dm_variant *v, const char *text, size_t len)
{
    const struct geometry *g = v->geo;
    if (len == 0 || len > 4)
        return -1;
    if (isdigit((unsigned char)text[0])) {
        int n = 0;
        for (size_t i = 0; i < len; i++) {
            if (!isdigit((unsigned char)text[i]))
                return -1;
            n = n * 10 + (text[i] - '0');
        }
        if (n < 1 || n > g->ncells)
            return -1;
        return v->numbering == NUM_IBER ? g->ncells - n : n - 1;
    }
    int file = tolower((unsigned char)text[0]) - 'a';
    if (file < 0 || file >= g->files || len < 2)
        return -1;
    int rank = 0;
    for (size_t i = 1; i < len; i++) {
        if (!isdigit((unsigned char)text[i]))
            return -1;
        rank = rank * 10 + (text[i] - '0');
    }
    if (rank < 1 || rank > g->ranks)
        return -1;
    return g->cell_at[rank - 1][file];
}

int notation_cell_order(const dm_variant *v, int cell)
{
    /* Algebraic lists read from a1 along rank 1, then up (as the perft
     * sources write them); numbered lists in number order. */
    const struct geometry *g = v->geo;
    if (v->numbering == NUM_ALGEBRAIC)
        return g->rank_of[cell] * g->files + g->file_of[cell];
    return v->numbering == NUM_IBER ? g->ncells - cell : cell + 1;
}
