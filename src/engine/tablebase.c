/* SPDX-License-Identifier: MIT */
/*
 * tablebase.c - the endgame tables as the search sees them (tablebase.h).
 */
#include <stdio.h>
#include <string.h>

#include "base/bits.h"
#include "engine/tablebase.h"
#include "rules/kernel.h"

void engine_egdb_set(struct engine_egdb *t, const char *root)
{
    engine_egdb_close(t);
    snprintf(t->root, sizeof t->root, "%s", root ? root : "");
}

void engine_egdb_close(struct engine_egdb *t)
{
    dm_egdb_close(t->db);
    t->db = NULL;
    t->variant = NULL;
    t->pieces = 0;
}

void engine_egdb_prepare(struct engine_egdb *t, const dm_variant *v)
{
    if (!t->root[0] || t->variant == v)
        return;
    engine_egdb_close(t);
    t->variant = v;
    dm_error err;
    if (dm_egdb_supported(v, &err))
        t->db = dm_egdb_open(v, t->root, &err); /* NULL: no tables, no probes */
    t->pieces = dm_egdb_pieces(t->db);
}

bool engine_egdb_score(struct engine_egdb *t, const dm_position *pos, int ply, int *score)
{
    if (!t->pieces || popcount128(pos->white | pos->black) > t->pieces)
        return false;
    /* A capture pending is never stored: no block is read to learn it. */
    if (kernel_leaf(t->variant, pos) == 2)
        return false;
    dm_egdb_value val;
    if (dm_egdb_probe(t->db, pos, &val) != 1)
        return false;
    *score = val.wdl == DM_EGDB_DRAW ? 0
                                     : val.wdl * (DM_EGDB_SCORE - ply - val.plies);
    return true;
}
