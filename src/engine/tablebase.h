/* SPDX-License-Identifier: MIT */
/*
 * tablebase.h - the engine's use of the endgame tables (tablebase.c,
 * damier/egdb.h): opened for the variant of each search, probed at the
 * search's interior nodes.
 */
#ifndef DM_ENGINE_TABLEBASE_H
#define DM_ENGINE_TABLEBASE_H

#include <stdbool.h>

#include "damier/egdb.h"

/*
 * What a table's answer scores: a win is worth DM_EGDB_SCORE less the
 * plies from the root to the end of the game (the sooner the better), a
 * loss the negation, a draw 0.  Below DM_SCORE_DECIDED, so that a mate the
 * search sees itself still ranks above, and far above any evaluation.
 */
#define DM_EGDB_SCORE 25000

struct engine_egdb {
    char root[512];           /* "": no tables                        */
    dm_egdb *db;              /* open for variant, or NULL             */
    const dm_variant *variant;
    int pieces;               /* the most pieces of a table; 0: none  */
};

/* Takes root (NULL or "": none) for the next searches. */
void engine_egdb_set(struct engine_egdb *t, const char *root);
/* Opens the tables of v if those open are another variant's. */
void engine_egdb_prepare(struct engine_egdb *t, const dm_variant *v);
void engine_egdb_close(struct engine_egdb *t);

/* The score of pos at ply if the tables know it (*score set), else false. */
bool engine_egdb_score(struct engine_egdb *t, const dm_position *pos, int ply, int *score);

#endif
