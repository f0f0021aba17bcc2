/* SPDX-License-Identifier: MIT */
/*
 * engine.h - what the engine modules share beyond the public API: the
 * transposition table (tt.c), the evaluation (eval.c) and the search state
 * (search.c).
 *
 * The engine sits on the rules layer: it reads the concluded rules record
 * (geometry, promotion cells, goal) and plays moves with dm_generate and
 * dm_make_move.  It never formats text.
 */
#ifndef DM_ENGINE_ENGINE_H
#define DM_ENGINE_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "damier/engine.h"
#include "engine/pattern.h"

struct dm_variant;

/* ---- tt.c: Zobrist keys and the transposition table ---------------------- */

/* Piece kinds a key tells apart, per colour. */
enum tt_kind { TT_MAN, TT_KING, TT_PARA, TT_KINDS };

struct tt_keys {
    uint64_t piece[2][TT_KINDS][DM_MAX_CELLS]; /* [colour][kind][cell]       */
    uint64_t black_to_move;
    uint64_t king_run[2][4];             /* Frisian: same-king moves  */
    uint64_t king_cell[2][DM_MAX_CELLS]; /*   and the king that made them */
};

/* Fills keys from a fixed seed, so that keys (and node counts) are the same
 * in every run. */
void tt_keys_init(struct tt_keys *keys);
/* The key of pos: every piece, the side to move and Frisian's counters. */
uint64_t tt_key(const struct tt_keys *keys, const dm_position *pos);
/* The key of after, a move from before whose key is key: the same value as
 * tt_key(after), found from the cells the move changed alone. */
uint64_t tt_key_after(const struct tt_keys *keys, uint64_t key, const dm_position *before,
                      const dm_position *after);

/* The key of the position after m (a move of pos, keyed key), found from
 * the move alone: tt_key_after's value except where Frisian's counters
 * change (tt_key_counters_change makes up the difference). */
uint64_t tt_key_move(const struct tt_keys *keys, uint64_t key, const dm_position *pos,
                     const dm_move *m);
/* What the Frisian counters change in the key from before to after: with
 * tt_key_move's key, tt_key_after's. */
uint64_t tt_key_counters_change(const struct tt_keys *keys, const dm_position *before,
                                const dm_position *after);

enum tt_bound { TT_NONE = 0, TT_UPPER = 1, TT_LOWER = 2, TT_EXACT = 3 };

/* The move of an entry: its index in dm_generate's list (TT_INDEX bits,
 * TT_NO_MOVE: none) and what replays it without a list.  A move that
 * neither jumps nor captures is made of its from, to and flags alone:
 * TT_PLAIN, with its flags in TT_PROMOTES and TT_REMOVAL, so that the
 * search tries it before generating the node's moves.  TT_SINGLE: it was
 * the position's only legal move. */
#define TT_INDEX    0x07FF
#define TT_NO_MOVE  0x07FF
#define TT_PLAIN    0x0800
#define TT_PROMOTES 0x1000
#define TT_REMOVAL  0x2000
#define TT_SINGLE   0x4000

/* One entry, as a probe reads it.  The low byte of a key is its cluster's
 * (a table has at least 256 clusters): the entry keeps the move's to cell
 * there instead. */
struct tt_entry {
    uint64_t key;  /* bits 8-63: the key's; bits 0-7: the move's to cell  */
    int16_t score; /* mate scores relative to this node (tt_score_to)       */
    uint16_t move; /* TT_INDEX bits and flags, as above                    */
    uint8_t from;  /* of that move: a check against index drift            */
    int8_t depth;
    uint8_t bound; /* enum tt_bound                                        */
    uint8_t age;   /* the search that wrote it                             */
};

/* An entry as the table holds it: 16 bytes, four to a 64-byte cluster.
 * Threads share a table (Lazy SMP) without a lock: data packs the entry's
 * fields but the key, and check is the key (with the to cell) XOR data, so
 * that a slot half written by one thread while another wrote or read it
 * fails the key's check instead of giving one position another's entry. */
struct tt_slot {
    _Atomic uint64_t check;
    _Atomic uint64_t data;
};

#define TT_KEY_MASK (~(uint64_t)0xFF)
#define TT_MIN_CLUSTERS 256

#define TT_CLUSTER 4

struct tt {
    struct tt_slot *slots;  /* clusters of TT_CLUSTER                       */
    size_t clusters;        /* a power of two                               */
    uint8_t age;
};

/* The cluster where key's entry lives. */
static inline struct tt_slot *tt_cluster(const struct tt *t, uint64_t key)
{
    return &t->slots[(size_t)(key & (t->clusters - 1)) * TT_CLUSTER];
}

/* Starts loading key's cluster, so that the probe a little later finds it
 * in the cache. */
static inline void tt_prefetch(const struct tt *t, uint64_t key)
{
    __builtin_prefetch(tt_cluster(t, key));
}

/* Allocates about mb megabytes; false if memory runs out. */
bool tt_init(struct tt *t, size_t mb);
void tt_free(struct tt *t);
void tt_clear(struct tt *t);
/* The entry for key into *entry; false if there is none. */
bool tt_probe(const struct tt *t, uint64_t key, struct tt_entry *entry);
/* Stores a result; score already made relative to the node. */
void tt_store(struct tt *t, uint64_t key, int score, int depth, enum tt_bound bound, int move,
              int from, int to);

/* Mate scores are stored as distances from the node, not from the root, so
 * that an entry is right wherever the position recurs. */
static inline int tt_score_to(int score, int ply)
{
    return score > DM_SCORE_DECIDED ? score + ply : score < -DM_SCORE_DECIDED ? score - ply : score;
}
static inline int tt_score_from(int score, int ply)
{
    return score > DM_SCORE_DECIDED ? score - ply : score < -DM_SCORE_DECIDED ? score + ply : score;
}

/* ---- search.c ------------------------------------------------------------- */

/* The time a search may take, in ms after the move's time begins; 0: no
 * limit. */
struct time_plan {
    int64_t soft_ms; /* no iteration starts after this                    */
    int64_t hard_ms; /* the search stops here                             */
    bool clock;      /* from a clock: soft stretches, and an iteration that
                        would not end before hard is not started          */
};

/* The plan for a search within limits of a position with nroot moves. */
void search_plan_time(const dm_search_limits *limits, int nroot, struct time_plan *plan);
/* Whether another iteration starts (search.c tells the rule). */
bool search_goes_on(const struct time_plan *plan, int64_t elapsed, int64_t last_ms,
                    bool best_changed, int score_drop);

/* For the tests: lets the plies below the root use only room moves of the
 * move stack (clamped to its size), so that the overflow rule is tried. */
void search_set_move_room(dm_engine *e, int room);

/* ---- eval.c: the static evaluation ---------------------------------------- */

/* The hand-set evaluation's weights: one row per family of variants
 * (eval.c); the trainer tunes a copy (eval_prepare_weights). */
struct eval_weights {
    int man, king, para; /* material                                        */
    int advance;         /* per rank a man has come from its back row        */
    int endgame_advance; /* percent more of it on an empty board (less with
                            every piece left: tempo decides the endings)    */
    int back_rank;       /* per man still on its own back row                */
    int centre;          /* per man on a central cell                        */
    int edge;            /* per man on a side file (a penalty)               */
    int balance;         /* per man more on one wing than on the other       */
    int king_mobility;   /* per empty cell a king can move to                */
    int runaway;         /* a man with a free way to promotion, all but there */
    int kings_both;      /* percent of the score kept when both sides have
                            kings: most such endings are drawn              */
    int trade;           /* percent more of the material lead on an empty
                            board (less with every piece left): the side
                            ahead trades down, the side behind avoids it   */
    int locked;          /* per man with no step forward (a penalty)       */
};

/* What the evaluation precomputes for one variant: which weights apply and
 * the per-cell tables they multiply. */
struct eval_tables {
    const struct dm_variant *variant; /* the tables' variant, or NULL      */
    const struct eval_weights *w;     /* the family's weights               */
    int material_sign;                /* -1: giveaway, less is more         */
    int positional_scale;             /* percent: 0 in giveaway             */
    int runaway_scale;                /* percent: more when a king wins      */
    bool material_only;               /* no positional term counts (giveaway) */
    int8_t progress[2][DM_MAX_CELLS]; /* ranks a man has come from its own back row */
    dm_bits progress_bit[2][4];       /* cells whose progress has bit b set  */
    int8_t to_go[2][DM_MAX_CELLS];    /* ranks left to its promotion row    */
    int16_t runaway_value[2][DM_MAX_CELLS]; /* a runaway man's worth there  */
    dm_bits back_rank[2];             /* each colour's own first row        */
    dm_bits centre;                   /* the central cells                  */
    dm_bits edge;                     /* the cells of the side files        */
    dm_bits wing[2];                  /* the cells left, right of the middle file */
    dm_bits cone[2][DM_MAX_CELLS];    /* cells a man may still step through
                                         on its way forward (empty: no promotion) */
    dm_bits ahead[2][DM_MAX_CELLS];   /* the cells one step forward of a man */
    dm_bits near_promotion[2];        /* cells at most ranks/2 from promotion */
    /* A man's steps forward as shifts: the cells of step_mask[c][i] step
     * to the cell step_delta[c][i] further (cells numbered row by row, so
     * a direction takes one or two deltas by row). */
    dm_bits step_mask[2][16];
    int8_t step_delta[2][16];
    int nsteps[2];
    int step_sign[2];                 /* 1, -1: every delta is positive, negative; 0: mixed */
    int ranks;
    bool wide;                        /* more than 64 cells: sets span both words */
    int start_pieces;                 /* on the board at the start          */
    /* By the pieces on the board: the advance's weight in hundredths (it
     * grows as the board empties), and the trade term's multiplier of the
     * lead, over trade_divisor: divisions done once, not at every node. */
    int advance_at[DM_MAX_CELLS + 1];
    int trade_at[DM_MAX_CELLS + 1];
    int trade_divisor;
    struct pattern_eval pattern;      /* the learned evaluation, when on     */
};

/* Prepares t for v (does nothing when t already serves v). */
void eval_prepare(struct eval_tables *t, const struct dm_variant *v);
/* Prepares t for v with the weights w (kept by pointer: the caller keeps
 * them alive), whatever t served before: the trainer tunes them. */
void eval_prepare_weights(struct eval_tables *t, const struct dm_variant *v,
                          const struct eval_weights *w);
/* The weights of v's family. */
const struct eval_weights *eval_family_weights(const struct dm_variant *v);
/* The evaluation of pos for its side to move, within +-DM_SCORE_DECIDED:
 * the learned one (pattern.c) when v has weights, else the hand-set one. */
int eval_position(const struct eval_tables *t, const dm_position *pos);
/* The hand-set evaluation alone. */
int eval_hand(const struct eval_tables *t, const dm_position *pos);
/* The name of v's family of weights ("flying-kings", ...): the weight
 * files record it. */
const char *eval_family_name(const struct dm_variant *v);

#endif
