/* SPDX-License-Identifier: MIT */
/*
 * kfull.h - fast bitboard generators for the full 8x8 board and the 5x5
 * alquerque grid (the orthogonal games of docs/variants.md: Turkish, Dameo, Gothic,
 * Alquerque, Hawaiian).
 *
 * One body (kfull_body.h) is compiled once per rule set; each compiled
 * kernel carries the rules record fields it was compiled for, and
 * kfull_for() serves a variant with the kernel whose fields equal the
 * variant's, so a new record with the same rules is served without code.
 * The dispatcher (kernel.c) calls the three functions below; the kernel
 * descriptors are shared only between kfull.c and the compiled bodies.
 *
 * Both boards fit a 64-bit word with the bit index equal to the cell
 * (cells are numbered from the top-left, row by row downwards: F8 cell =
 * (7 - rank) * 8 + file, Q5 cell = (4 - rank) * 5 + file), so positions and
 * moves convert by a cast.
 */
#ifndef DM_RULES_KFULL_H
#define DM_RULES_KFULL_H

#include <stdbool.h>
#include <stdint.h>

#include "damier/rules.h"
#include "rules/variant.h"

/* The rules record fields a compiled kernel implements.  Direction sets are
 * White's; Black's are their north/south mirror.  Promotion cells, far rows
 * and opening cells are read from the variant at run time. */
struct kfull_rules {
    enum geometry_id geometry;  /* GEOM_F8 or GEOM_Q5                      */
    uint8_t man_steps;          /* quiet step directions of a man          */
    uint8_t man_jumps;          /* first jump directions of a man          */
    uint8_t man_later_jumps;    /* second and later jumps of a man         */
    enum king_range king;       /* none, short or flying                   */
    uint8_t king_steps;         /* as king_step_dirs: 0 without kings      */
    uint8_t king_jumps;         /* as king_jump_dirs: 0 without kings      */
    enum removal removal;       /* deferred or immediate                   */
    bool reversal_ban;          /* no 180-degree turn between two jumps    */
    enum promotion promotion;   /* none, end only, stop, continue as king  */
    unsigned precedence;        /* 0 or PREC_QUANTITY                      */
    bool linear_moves;          /* Dameo: a man moves a line of men        */
    enum far_row far_row;       /* Alquerque: a man on its far row         */
    bool straight_continuation; /* Hawaiian: later jumps keep direction    */
    bool optional_continuation; /* Hawaiian: a capture may stop anywhere   */
    bool opening_removals;      /* Hawaiian: the variant has opening cells */
};

/* A compiled kernel: its rules and its two entry points. */
struct kfull_kernel {
    const char *name;
    struct kfull_rules rules;
    int (*generate)(const struct dm_variant *v, const dm_position *pos, dm_move_list *list,
                    unsigned flags);
    uint64_t (*perft)(const struct dm_variant *v, const dm_position *pos, int depth,
                      unsigned flags);
    int (*leaf)(const struct dm_variant *v, const dm_position *pos);
};

/* The compiled kernels (kfull_*.c). */
extern const struct kfull_kernel kfull_f8_rook;   /* Turkish's rules  */
extern const struct kfull_kernel kfull_f8_queen;  /* Dameo's rules    */
extern const struct kfull_kernel kfull_f8_short;  /* Gothic's rules   */
extern const struct kfull_kernel kfull_f8_konane; /* Hawaiian's rules */
extern const struct kfull_kernel kfull_q5_men;    /* Alquerque's rules */

/* The index of the kernel serving v (decided from its rules fields), or -1
 * when none does.  Reads only fields that variant_conclude() sets before it
 * chooses a kernel. */
int kfull_for(const struct dm_variant *v);

/* As dm_generate, for a variant with kfull_for(v) >= 0: the same moves as
 * refgen_generate (routes, flags, precedence, duplicates merged unless
 * DM_GEN_KEEP_DUPLICATES), in another order; of merged duplicates another
 * route may be kept. */
int kfull_generate(const struct dm_variant *v, const dm_position *pos, dm_move_list *list,
                   unsigned flags);

/* As dm_perft, for a variant with kfull_for(v) >= 0: leaves counted at the
 * last ply without being made.  depth <= 0 counts the root alone. */
uint64_t kfull_perft(const struct dm_variant *v, const dm_position *pos, int depth, unsigned flags);

/* As kernel_leaf, for a variant with kfull_for(v) >= 0 (-1 otherwise). */
int kfull_leaf(const struct dm_variant *v, const dm_position *pos);

/* Kernel k of kfull_for: the dispatcher's way in, with the index the
 * record keeps (v->kfull), so that no call matches the rules again. */
const struct kfull_kernel *kfull_kernel_at(int k);

#endif
