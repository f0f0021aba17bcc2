/* SPDX-License-Identifier: MIT */
/*
 * kernel_impl.h - what kernel.c shares with the compiled kernel bodies.
 *
 * kernel.c reads a variant record once per call into a struct kernel_rules
 * (plain masks and switches); each k_*.c file is kernel_body.h compiled for
 * one board size, king range, set of men's jump directions and special rule,
 * which kernel.c matches against the record's fields, and exports a generate
 * and a perft entry named after it.  Nothing here is public: dm_generate and
 * dm_perft reach the kernels through kernel.h.
 */
#ifndef DM_RULES_KERNEL_IMPL_H
#define DM_RULES_KERNEL_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "damier/rules.h"

/* The rules a kernel reads, for one variant. */
struct kernel_rules {
    uint8_t king_jump_dirs; /* enum dir bits                                  */
    uint8_t promotion;      /* enum promotion                                 */
    unsigned precedence;    /* enum precedence bits                           */
    bool killer;            /* LAND_ADJACENT_IF_KING                          */
    bool spares_kings;      /* a man may not capture a king (Italian)         */
    bool first_king_ends;   /* GOAL_FIRST_KING: no move once a king exists    */
    bool king_limit;        /* Frisian same-king limit on quiet moves         */
    bool mirrored;          /* M8: cells map onto the D8 layout mirrored      */
    dm_bits promo_cells[2]; /* where each colour's men are crowned            */
    dm_bits para_cells[2];  /* where the piece a parachutist jumps over first
                             * must stand (Parachute)                         */
};

/* The capture states a search has finished, per thread (kernel.c): a long
 * capture may reach one landing square with one captured set by many
 * routes (a Frisian king among thirty men: millions), and what follows from
 * there is the same every time, so it is searched once.  A cache: a state
 * missing from it (never stored, or overwritten) is searched again, which
 * only costs time.  A stamp per search tells old slots from current ones. */
#define CAPTURE_MEMO_BITS 12
struct capture_memo_slot {
    uint64_t captured_lo, captured_hi; /* the pieces taken so far       */
    uint32_t stamp;                    /* the search that stored it     */
    uint8_t sq;                        /* where the capturer stands     */
    uint8_t dirs;                      /* a king's directions left; 0: a man */
    bool went_on;                      /* whether a jump followed       */
};
struct capture_memo {
    uint32_t stamp; /* the last search's */
    struct capture_memo_slot slots[1u << CAPTURE_MEMO_BITS];
};
extern _Thread_local struct capture_memo kernel_capture_memo;

/* A new stamp for one piece's capture search (the slots cleared when the
 * count wraps). */
uint32_t kernel_capture_memo_stamp(void);

/* One compiled kernel: the entry points of a k_*.c file. */
#define KERNEL_DECLARE(name)                                                                       \
    int name##_generate(const struct kernel_rules *r, const dm_position *pos, dm_move_list *list,  \
                        unsigned flags);                                                           \
    uint64_t name##_perft(const struct kernel_rules *r, const dm_position *pos, int depth,         \
                          unsigned flags);                                                         \
    int name##_leaf(const struct kernel_rules *r, const dm_position *pos)

KERNEL_DECLARE(k_d8_short);        /* 8x8, short kings: English, Italian, ...       */
KERNEL_DECLARE(k_d8_fly);          /* 8x8, flying kings: Russian, Brazilian, ...    */
KERNEL_DECLARE(k_d8_fly_fwd);      /* the same, men take forwards: Czech, Spanish   */
KERNEL_DECLARE(k_d8_fly_adjacent); /* 8x8, kings land behind, pieces leave: Thai    */
KERNEL_DECLARE(k_d8_fly_one_way);  /* 8x8, both colours' men go north: One Way      */
KERNEL_DECLARE(k_d8_fly_paras);    /* 8x8, with parachutists: Parachute             */
KERNEL_DECLARE(k_d10_fly);         /* 10x10, flying kings: International, Killer    */
KERNEL_DECLARE(k_d10_orth);        /* 10x10, orthogonal captures too: Frisian       */
KERNEL_DECLARE(k_d12_fly);         /* 12x12, flying kings: Canadian                 */

#endif
