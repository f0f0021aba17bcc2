/* SPDX-License-Identifier: MIT */
/*
 * movelist.h - adding moves to a list under capture precedence.
 *
 * Precedence is applied as each complete sequence arrives (as Scan's list
 * does): a lower key is dropped, a higher key empties the list first.
 * Duplicate routes (same from, to and captured set: one move by
 * the FMJD notation rule, PDN 3.0) are
 * merged unless the caller keeps them; the first route found is kept.
 */
#ifndef DM_RULES_MOVELIST_H
#define DM_RULES_MOVELIST_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "damier/rules.h"

struct move_sink {
    dm_move_list *list;
    uint64_t best;  /* precedence key of the moves in the list */
    bool keep_duplicates;
    bool overflow;
};

static inline void sink_init(struct move_sink *s, dm_move_list *list, unsigned flags)
{
    s->list = list;
    s->best = 0;
    s->keep_duplicates = (flags & DM_GEN_KEEP_DUPLICATES) != 0;
    s->overflow = false;
    list->count = 0;
}

static inline bool move_same_signature(const dm_move *a, const dm_move *b)
{
    return a->from == b->from && a->to == b->to && a->captured_set == b->captured_set;
}

static inline void sink_add(struct move_sink *s, const dm_move *m, uint64_t key)
{
    dm_move_list *l = s->list;
    if (l->count > 0 && key < s->best)
        return;
    if (l->count == 0 || key > s->best) {
        l->count = 0;
        s->best = key;
    }
    if (!s->keep_duplicates && m->njumps > 1)
        for (int i = 0; i < l->count; i++)
            if (move_same_signature(&l->moves[i], m))
                return;
    if (l->count == DM_MAX_MOVES) {
        s->overflow = true;
        return;
    }
    l->moves[l->count++] = *m;
}

#endif
