/* SPDX-License-Identifier: MIT */
/*
 * pattern.h - the learned evaluation: windows of cells over the board, each
 * window's men (empty, own, other) indexing a weight, two game phases
 * blended by the number of pieces left, and a few global terms.
 *
 * The layout comes from the board alone (pattern_layout_build): blocks of
 * 4x4 squares on the dark-square boards (8 cells each), 3x3 elsewhere, laid
 * at every rank and every other file.  A window is read for White as it
 * stands and for Black on the board turned half round, so that a weight
 * means the same thing for either side and the evaluation of a position
 * and of its colour-flipped mirror are equal by construction.
 *
 * The weights come from files under data/weights/ (written by tools/train),
 * embedded into the library at build time (mk/train.mk); a variant without
 * one keeps the hand-set evaluation of eval.c.
 */
#ifndef DM_ENGINE_PATTERN_H
#define DM_ENGINE_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "damier/rules.h"

struct dm_variant;

#define PATTERN_LAYOUT_VERSION 1
#define PATTERN_MAX_WINDOWS    64
#define PATTERN_MAX_CELLS      9  /* cells of one window: 3^9 configurations     */
#define PATTERN_ALIGN          64 /* the weights start at a multiple of this    */
#define PATTERN_UNIT           8  /* weights are eighths of a hundredth of a man  */

/* The global terms, each a count for White less the same for Black. */
enum pattern_global {
    PG_MAN,     /* men                                                      */
    PG_KING,    /* kings                                                    */
    PG_RUNAWAY, /* men whose way forward to a promotion cell is empty       */
    PG_TEMPO,   /* +1 for the side to move                                  */
    PG_LOCKED,  /* men with no empty cell ahead, counted as a weakness      */
    PG_COUNT
};

/* Window cells of one variant, and the masks that read them. */
struct pattern_layout {
    int windows;
    int cells;                                            /* per window                      */
    int configs;                                          /* 3^cells                         */
    int ncells;                                           /* of the board                    */
    int start_pieces;                                     /* the phase: pieces at the start  */
    uint8_t cell[PATTERN_MAX_WINDOWS][PATTERN_MAX_CELLS]; /* ascending        */
    uint64_t mask[PATTERN_MAX_WINDOWS][2];                /* the window's cells, lo and hi */
    uint64_t turned[PATTERN_MAX_WINDOWS][2];              /* the same on the turned board  */
    uint8_t lo_bits[PATTERN_MAX_WINDOWS][2];              /* popcount of each lo mask      */
    uint16_t ternary[1 << PATTERN_MAX_CELLS];             /* bit i -> 3^i                */
    uint16_t reversed[1 << PATTERN_MAX_CELLS];            /* bit i -> 3^(cells-1-i)      */
};

/* A weight set: global terms and windows, each with a middle-game and an
 * endgame value ([..][0] and [..][1]); windows are [window][config][phase]. */
struct pattern_weights {
    bool on_hand; /* the weights correct the hand-set evaluation: added to it */
    bool shape;   /* the runaway and locked terms weigh (else not read)       */
    int16_t global[PG_COUNT][2];
    const int16_t *window; /* windows * configs * 2 values                  */
    /* The same windows read once for both sides (pattern_prepare's, for
     * the embedded weights; NULL: window is read twice): net[u][c] is
     * window u's weight of configuration c less the weight Black reads
     * from the same cells, so the sum over the windows is the score. */
    const int16_t *net;
};

/* What the evaluation of one variant holds (inside struct eval_tables). */
struct pattern_eval {
    bool on; /* false: the hand-set evaluation serves this variant       */
    struct pattern_layout layout;
    struct pattern_weights w;
};

/* The features of one position, from White's side: the training set's
 * record of it (tools/train) and what the slow reference reads. */
struct pattern_features {
    uint16_t white[PATTERN_MAX_WINDOWS]; /* each window's config for White  */
    uint16_t black[PATTERN_MAX_WINDOWS]; /*   and for Black, board turned   */
    int8_t global[PG_COUNT];
    uint8_t phase; /* pieces on the board, at most layout.start_pieces      */
};

/* Builds v's layout; false if the board has no half-turn symmetry or its
 * windows would not fit (the hand-set evaluation then serves v). */
bool pattern_layout_build(struct pattern_layout *l, const struct dm_variant *v);

/* Reads a weight file's bytes (data stays in place: weights points into
 * it, which must be 2-byte aligned and outlive w) for layout l of variant
 * v.  Returns 0, or -1 with why naming what is wrong. */
int pattern_weights_read(const unsigned char *data, size_t size, const struct dm_variant *v,
                         const struct pattern_layout *l, struct pattern_weights *w, char *why,
                         size_t why_size);

/* The embedded weight file of variant id, or NULL (build/gen/weights.c). */
const unsigned char *pattern_embedded(const char *id, size_t *size);

/* Prepares p for v: on when v's layout builds and an embedded weight file
 * for it reads. */
void pattern_prepare(struct pattern_eval *p, const struct dm_variant *v);

struct eval_tables;
/* The features of pos (for the trainer and the tests). */
void pattern_features_of(const struct eval_tables *t, const dm_position *pos,
                         struct pattern_features *f);
/* The same windows read one cell at a time: the reference the fast
 * reading is tested against. */
void pattern_features_slow(const struct eval_tables *t, const dm_position *pos,
                           struct pattern_features *f);
/* The evaluation of pos for its side to move, from t's pattern weights. */
int pattern_evaluate(const struct eval_tables *t, const dm_position *pos);

/* The header of a weight file: its text part, before the weights. */
struct pattern_header {
    const char *variant;
    const char *family;
    long games, positions;
    const char *date;
    const char *command;
    bool on_hand; /* "base hand": the weights are added to eval_hand       */
};
/* Writes a weight file for layout l: header h, padding to PATTERN_ALIGN,
 * then global (PG_COUNT * 2 values) and window (windows * configs * 2),
 * little-endian.  Returns 0, or -1 if writing fails. */
int pattern_weights_write(FILE *f, const struct pattern_header *h, const struct pattern_layout *l,
                          const int16_t *global, const int16_t *window);

#endif
