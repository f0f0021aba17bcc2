/* SPDX-License-Identifier: MIT */
/*
 * kernel_body.h - the bitboard move generator, written once and compiled per
 * board, king range, men's jump directions and special rule by the k_*.c
 * files ("template by include").  Not a header: each k_*.c file includes it
 * once, after defining
 *
 *   K_NAME(x)  the name of its two entry points (k_d10_fly_##x); the rest
 *              is static, named kb_ (kernel body) in every file
 *   K_BB       the set type: uint64_t, or unsigned __int128 for 12x12
 *   K_WIDE     1 when K_BB is 128 bits wide
 *   K_HALF     playing squares per row (4, 5 or 6)
 *   K_ROWS     rows (8, 10 or 12)
 *   K_FLYING   1: kings fly; 0: kings step and jump one square
 *   K_ORTH     1: captures go orthogonally too (Frisian); men jump every way
 *   K_MEN_BACK 1: men jump backwards too; 0: forwards only (diagonal
 *              captures); compiled in, as bulk counting tests little else
 *
 * and, where the rules need them (0 when not defined):
 *
 *   K_IMMEDIATE 1: each captured piece leaves at once, so a king may run
 *              back over the square it emptied (refgen.c's REMOVE_IMMEDIATE);
 *              with flying kings, only with K_LAND_ADJACENT (Thai, mindsports' rules)
 *   K_LAND_ADJACENT 1: a flying king lands only right behind the piece it
 *              takes (LAND_ADJACENT)
 *   K_ONE_WAY  1: the men of both colours step north (the record's one_way,
 *              BrainKing's One Way rules); their jumps and promotion squares are read at run time
 *   K_PARAS    1: parachutists (pos->paras, BrainKing's Parachute rules): no quiet move; a first
 *              jump backwards for their colour, over para_target_bb, then
 *              they go on as men
 *   K_CZECH    1: the rules of the Czech family compiled in, which kernel.c
 *              checks: a king captor first and nothing else (PREC_WITH_KING),
 *              men crowned where a move ends (PROMOTE_END_ONLY) on the far
 *              row of their way, and (K_PARAS) a parachutist's first prey on
 *              the row in front of the enemy's back row.  The narrow trees of
 *              One Way and Parachute spend little per node, so that the tests
 *              of these rules at run time weighed (bench perft: Parachute
 *              some 5% faster with them folded)
 *   K_KILLER, K_FIRST_KING, K_KING_LIMIT  1: the kernel reads at run time
 *              whether a capture ending on a king stops right behind it
 *              (Freeling's Killer), whether a king on the board ends the game
 *              (lidraughts' Breakthrough), whether one king makes at most three
 *              quiet moves in a row (Frisian, lidraughts' rules); 0: the rule is off, and
 *              kernel.c serves no record that has it
 *
 * Layout: the "ghost square" board of Scan and Kingsrow.  Squares (_sq) are
 * the cells in their own order (row by row from the top-left playing square)
 * with one unused bit after every two rows: sq = cell + cell / (2 * K_HALF).
 * A diagonal step is then a shift by K_HALF or K_HALF + 1, an orthogonal one
 * (two rows up or down, or the next playing square of the row) a shift by
 * 2 * K_HALF + 1 or by 1; a step off the board lands on a ghost bit or
 * outside the board, which one mask removes.  North (White's forward) is
 * towards bit 0.  The mirrored 8x8 board (M8) is mapped onto this layout
 * left to right, which the rules cannot tell apart.
 *
 * The workload it is tuned for is perft from start positions, counted the
 * way fast engines count: the last ply is counted, not played.  Most nodes
 * have men only, so a count is a few shifts and popcounts; when a man can
 * capture, one test on the whole board tells which jumps go on (most do
 * not: they are counted or listed at once, as sets), and only the men whose
 * jumps go on are searched square by square; when men take forwards only,
 * not even those (kb_bulk_count: by direction strings, as sets).  Kings are
 * searched only when one test on the whole board finds a piece at the end
 * of one of their lines with an empty square behind it; a lone king's
 * lines are read from a table up to the first piece (kb_ray), several
 * kings' filled at once (Kogge-Stone), and counted when no capture is
 * found; at the last ply their captures are counted as sets too where the
 * rules allow (kb_tally: a jump's landing squares at once).  The search
 * keeps a lean list (captured set, from, to, promotion) under the
 * precedence key of refgen.c as each complete sequence arrives; duplicates
 * are looked for only among sequences long enough to have one (K_DUP_MIN).
 * Full dm_move routes are written only for kernel_generate, in refgen.c's
 * order.
 *
 * Perft (kb_perft_moves) writes no list for the quiet moves and the men's
 * single jumps, most moves: each is played from its set (from and to bits,
 * the piece taken halfway), as are the men's longer captures where they
 * are counted as sets and any is legal (kb_perft_bulk), and at the parents
 * of the counted nodes its
 * replies are counted at once.  In the narrow trees (One Way, Parachute: under
 * four replies per count) the fixed cost of a node is what counts, so the
 * count and kb_play keep their branches for what the predictor can learn
 * (kings on the board, a capture search): a man's capture or not, a king
 * moving or a man crowned are chosen by masks.
 *
 * Routes past a piece taken straight on: perft counts the route once, going
 * on from the square right behind the piece taken (the published counts, and
 * PDN 3.0's way of writing it); kernel_generate with duplicates kept
 * lists it from every landing square on the way, as refgen.c does.
 */
/* No vectorizing: it packs the few words of a node into vector registers
 * through memory (scalar stores read back as one vector stall the load),
 * which costs more than the popcounts and copies it would save (bench perft:
 * 5-30% on the diagonal boards).  Before the includes, so that every
 * function of the file is compiled alike and still inlines. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-tree-vectorize")
#endif

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "rules/geometry.h"
#include "rules/kernel_impl.h"
#include "rules/movelist.h"
#include "rules/variant.h"

#ifndef K_IMMEDIATE
#define K_IMMEDIATE 0
#endif
#ifndef K_LAND_ADJACENT
#define K_LAND_ADJACENT 0
#endif
#ifndef K_ONE_WAY
#define K_ONE_WAY 0
#endif
#ifndef K_PARAS
#define K_PARAS 0
#endif
#ifndef K_CZECH
#define K_CZECH 0
#endif
#ifndef K_KILLER
#define K_KILLER 0
#endif
#ifndef K_FIRST_KING
#define K_FIRST_KING 0
#endif
#ifndef K_KING_LIMIT
#define K_KING_LIMIT 0
#endif
#if K_IMMEDIATE && K_FLYING && !K_LAND_ADJACENT
#error "a flying king removing pieces at once is compiled only with adjacent landing"
#endif
#if K_PARAS && K_ORTH
#error "parachutists are compiled only with diagonal captures"
#endif

#if K_WIDE
#define K_CTZ(b)      ctz128(b)
#define K_POPCOUNT(b) popcount128(b)
#else
#define K_CTZ(b)      ctz64(b)
#define K_POPCOUNT(b) popcount64(b)
#endif

#define K_INLINE static inline __attribute__((always_inline))
/* The loops over the directions unrolled, so that each step is a constant
 * shift: a count inlined many times made GCC keep some of them as loops,
 * over a jump table. */
#if defined(__GNUC__) && !defined(__clang__)
#define K_UNROLL _Pragma("GCC unroll 8")
#else
#define K_UNROLL
#endif

/* The rules K_CZECH compiles in, else as read at run time: the precedence,
 * whether men spare kings (Italian), the kind of promotion, color's
 * promotion squares, (K_PARAS) where a parachutist's first prey stands, and
 * what follows for counting men's captures in bulk (kb_bulk_fits). */
#if K_CZECH
#define KB_PRECEDENCE(x)       ((void)(x), (unsigned)PREC_WITH_KING)
#define KB_SPARES(x)           ((void)(x), false)
#define KB_PROMOTION(x)        ((void)(x), PROMOTE_END_ONLY)
#define KB_PROMO_BB(x, color)  ((void)(x), K_ROW_BB(K_MEN_NORTH(color) ? 0 : K_ROWS - 1))
#define KB_PARA_PREY(x, color) ((void)(x), K_ROW_BB((color) == DM_WHITE ? 1 : K_ROWS - 2))
#define KB_BULK(x)             ((void)(x), true)
#define KB_KINGS_WEIGH(x)      ((void)(x), false)
#else
#define KB_PRECEDENCE(x)       ((x)->precedence)
#define KB_SPARES(x)           ((x)->spares)
#define KB_PROMOTION(x)        ((x)->promotion)
#define KB_PROMO_BB(x, color)  ((x)->promo_bb[color])
#define KB_PARA_PREY(x, color) ((x)->para_prey_bb[color])
#define KB_BULK(x)             ((x)->bulk)
#define KB_KINGS_WEIGH(x)      ((x)->kings_weigh)
#endif
#define K_MEN_NORTH(color) (K_ONE_WAY || (color) == DM_WHITE) /* men step north */
#define K_ONE    ((K_BB)1)
#define K_CELLS  (K_HALF * K_ROWS)
#define K_NO_SQ  0xFF
#define K_NDIRS  (K_ORTH ? 8 : 4) /* capture directions: enum dir from 0 */

/* The board mask and the two masks of horizontal steps, as constants. */
#define K_ROW_OFFSET(r) ((r)*K_HALF + (r) / 2)
#define K_ROW_BB(r)     ((r) < K_ROWS ? ((K_ONE << K_HALF) - 1) << K_ROW_OFFSET(r) : 0)
#define K_FIRST_BB(r)   ((r) < K_ROWS ? K_ONE << K_ROW_OFFSET(r) : 0)
#define K_LAST_BB(r)    ((r) < K_ROWS ? K_ONE << (K_ROW_OFFSET(r) + K_HALF - 1) : 0)
#define K_EVERY_ROW(M)                                                                             \
    (M(0) | M(1) | M(2) | M(3) | M(4) | M(5) | M(6) | M(7) | M(8) | M(9) | M(10) | M(11))
#define K_ALL       K_EVERY_ROW(K_ROW_BB)
#define K_NOT_FIRST (K_ALL & ~K_EVERY_ROW(K_FIRST_BB))
#define K_NOT_LAST  (K_ALL & ~K_EVERY_ROW(K_LAST_BB))

/* The directions (enum dir bits) of color's men's jumps, and of a
 * parachutist's first jump; constants once color is. */
#define K_FWD_DIRS(color)                                                                          \
    (K_MEN_NORTH(color) ? DIRBIT(DIR_NE) | DIRBIT(DIR_NW) : DIRBIT(DIR_SE) | DIRBIT(DIR_SW))
#define K_MAN_DIRS(color)  (K_ORTH ? DIRS_ALL : K_MEN_BACK ? DIRS_DIAG : K_FWD_DIRS(color))
#define K_PARA_DIRS(color) (DIRS_DIAG & ~K_FWD_DIRS(color))

/* Precedences under which a capture of two pieces beats any of one: most
 * pieces, or most value (two men, 200, beat a king, 199). */
#define K_LONGER_WINS (PREC_QUANTITY | PREC_VALUE)

/* Kings read their lines from tables (kb_ray): the flying kings of the
 * 64-bit boards.  12x12 keeps the fills: a 128-bit set's first bit costs a
 * branch, and its bench meets few kings. */
#define K_RAYS (K_FLYING && !K_WIDE)

/* Two routes with the same from, to and captured set need a loop: four
 * diagonal jumps at least, three once orthogonal ones mix in (a triangle).
 * A king that removes pieces at once and lands right behind them may turn
 * back: two jumps (over X, then over Y) still never end next to X, so two
 * routes of two jumps never meet, but three may. */
#if K_ORTH || K_IMMEDIATE
#define K_DUP_MIN 3
#else
#define K_DUP_MIN 4
#endif

/* A position in this layout; the side to move is passed alongside. */
struct kb_pos {
    K_BB side_bb[2];       /* each colour's pieces                          */
    K_BB kings_bb;         /* the kings of both                             */
#if K_PARAS
    K_BB paras_bb;         /* the parachutists of both                      */
#endif
#if K_KING_LIMIT
    uint8_t king_sq[2];    /* Frisian: the king of the last quiet moves     */
    uint8_t king_moves[2]; /*   and how many in a row (0: none)             */
#endif
};

/* A lean move: enough to play it and to merge duplicates. */
struct kb_move {
    K_BB captured_bb;
    uint8_t from_sq, to_sq;
    uint8_t njumps;
    bool promotes;
};

/* Moves under precedence: only the best key seen so far is kept. */
struct kb_list {
    int count;
    uint64_t best;
    struct kb_move moves[DM_MAX_MOVES];
};

/* What stays fixed during one kernel call: the rules, read once. */
struct kb_ctx {
    K_BB promo_bb[2];        /* each colour's promotion squares          */
#if K_PARAS
    K_BB para_prey_bb[2];    /* where the piece a parachutist jumps over
                              * first must stand                         */
#endif
    unsigned precedence;     /* enum precedence bits                     */
    uint8_t promotion;       /* enum promotion                           */
    uint8_t king_dirs;       /* enum dir bits                            */
    bool killer, spares, first_king_ends, king_limit, mirrored;
    bool merge;         /* merge duplicate routes (no
                         * DM_GEN_KEEP_DUPLICATES)                  */
    bool bulk;          /* men's captures counted in bulk (K_BULK)
                         * unless kings_weigh and kings are prey    */
    bool kings_weigh;   /* the precedence weighs the kings a man
                         * takes, and a man may take them           */
};

/* The capture search of one side.  What changes with every jump (where the
 * piece stands, the pieces taken so far, how many) travels as arguments;
 * the route is written here for kernel_generate and Italian's precedence. */
struct kb_search {
    const struct kb_ctx *x;
    K_BB empty_bb;      /* empty squares, the mover's origin included        */
    K_BB enemy_bb;      /* the opponent's pieces (taken ones stay: ghosts,
                         * unless K_IMMEDIATE, where they count as empty)   */
    K_BB man_prey_bb;   /* those a man may take (Italian: no kings)          */
    K_BB kings_bb;      /* the position's kings                              */
    K_BB promo_bb;      /* the mover's promotion squares                     */
    int color;          /* the mover's                                       */
    bool king_captor;   /* the mover started as a king                       */
    bool crowned;       /* a man crowned on the way (continue as king)       */
    int from_sq;
    bool memo;          /* the states of long routes are memoised: every
                         * route with one from, to and captured set is one
                         * move, and the key weighs no order of capture    */
    uint32_t stamp;     /* this piece's in kernel_capture_memo, 0: none yet */
    struct kb_list *list;   /* lean output, or NULL                      */
    struct move_sink *sink; /* full routes (kernel_generate), or NULL    */
    uint8_t over_sq[DM_MAX_JUMPS], land_sq[DM_MAX_JUMPS];
};

/* One step of every square of b in direction d (a constant once inlined). */
K_INLINE K_BB kb_step(K_BB b, int d)
{
    switch (d) {
    case DIR_NE:
        return (b >> K_HALF) & K_ALL;
    case DIR_NW:
        return (b >> (K_HALF + 1)) & K_ALL;
    case DIR_SE:
        return (b << (K_HALF + 1)) & K_ALL;
    case DIR_SW:
        return (b << K_HALF) & K_ALL;
    case DIR_N:
        return (b >> (2 * K_HALF + 1)) & K_ALL;
    case DIR_S:
        return (b << (2 * K_HALF + 1)) & K_ALL;
    case DIR_E:
        return (b << 1) & K_NOT_FIRST;
    default:
        return (b >> 1) & K_NOT_LAST;
    }
}

/* The direction opposite d (a constant once inlined). */
K_INLINE int kb_opposite(int d)
{
    switch (d) {
    case DIR_NE:
        return DIR_SW;
    case DIR_NW:
        return DIR_SE;
    case DIR_SE:
        return DIR_NW;
    case DIR_SW:
        return DIR_NE;
    case DIR_N:
        return DIR_S;
    case DIR_S:
        return DIR_N;
    case DIR_E:
        return DIR_W;
    default:
        return DIR_E;
    }
}

/* How a square's index changes with one step in direction d. */
K_INLINE int kb_delta(int d)
{
    switch (d) {
    case DIR_NE:
        return -K_HALF;
    case DIR_NW:
        return -(K_HALF + 1);
    case DIR_SE:
        return K_HALF + 1;
    case DIR_SW:
        return K_HALF;
    case DIR_N:
        return -(2 * K_HALF + 1);
    case DIR_S:
        return 2 * K_HALF + 1;
    case DIR_E:
        return 1;
    default:
        return -1;
    }
}

/* The bits of b moved k steps in direction d (constants), unmasked: the
 * caller masks.  A move past the width of the set leaves nothing. */
K_INLINE K_BB kb_shift(K_BB b, const int d, const int k)
{
    int delta = k * kb_delta(d), width = (int)sizeof(K_BB) * 8;
    if (delta >= width || -delta >= width)
        return 0;
    return delta > 0 ? b << delta : b >> -delta;
}

/* One step of every square of b in direction d (a constant) onto the
 * squares of onto_bb, which are on the board: its mask does the work of
 * K_ALL (a step along a row still needs its own). */
K_INLINE K_BB kb_step_onto(K_BB b, const int d, K_BB onto_bb)
{
    if (d == DIR_E || d == DIR_W)
        return kb_step(b, d) & onto_bb;
    return kb_shift(b, d, 1) & onto_bb;
}

/* The square of a cell, and back (M8 cells mirrored left to right). */
static inline int kb_sq_of_cell(int cell, bool mirrored)
{
    int row = cell / K_HALF, idx = cell % K_HALF;
    if (mirrored)
        idx = K_HALF - 1 - idx;
    return K_ROW_OFFSET(row) + idx;
}

static inline int kb_cell_of_sq(int sq, bool mirrored)
{
    int c = sq - sq / (2 * K_HALF + 1);
    int row = c / K_HALF, idx = c % K_HALF;
    if (mirrored)
        idx = K_HALF - 1 - idx;
    return row * K_HALF + idx;
}

/* Cells mirrored left to right within each row of K_HALF (M8, whose rows
 * are nibbles: two swaps reverse each). */
static inline dm_bits kb_mirror_rows(dm_bits cells)
{
    uint64_t c = (uint64_t)cells;
    c = ((c & 0x5555555555555555ull) << 1) | ((c >> 1) & 0x5555555555555555ull);
    c = ((c & 0x3333333333333333ull) << 2) | ((c >> 2) & 0x3333333333333333ull);
    return c;
}

/* Cells to squares and back, a pair of rows (2 * K_HALF cells) at a time:
 * each pair moves up one ghost bit per pair before it.  No loop over the
 * pieces: a node converts its position once per kernel call. */
#define K_PAIR_CELLS (2 * K_HALF)
#define K_PAIR_MASK  ((K_ONE << K_PAIR_CELLS) - 1)

/* On a board of one word, the squares are the cells spread over K_ALL:
 * one pdep or pext, where it is fast. */
#define K_BY_PDEP (DM_FAST_PDEP && !K_WIDE)

static inline dm_bits kb_cells_of(K_BB b, bool mirrored)
{
    dm_bits cells = 0;
    if (K_BY_PDEP) {
        cells = pext64((uint64_t)b, (uint64_t)K_ALL);
    } else {
        K_UNROLL for (int g = 0; g < K_ROWS / 2; g++)
            cells |= (dm_bits)((b >> (g * (K_PAIR_CELLS + 1))) & K_PAIR_MASK) << (g * K_PAIR_CELLS);
    }
    if (K_HALF == 4 && mirrored)
        cells = kb_mirror_rows(cells);
    return cells;
}

static inline K_BB kb_bb_of(dm_bits cells, bool mirrored)
{
    if (K_HALF == 4 && mirrored)
        cells = kb_mirror_rows(cells);
    if (K_BY_PDEP)
        return (K_BB)pdep64((uint64_t)cells, (uint64_t)K_ALL);
    K_BB b = 0;
    K_UNROLL for (int g = 0; g < K_ROWS / 2; g++)
        b |= ((K_BB)(cells >> (g * K_PAIR_CELLS)) & K_PAIR_MASK) << (g * (K_PAIR_CELLS + 1));
    return b;
}

/* The precedence key of the route in s, n jumps taking captured_bb:
 * refgen.c's precedence_key. */
static uint64_t kb_key(const struct kb_search *s, K_BB captured_bb, int n)
{
    unsigned prec = KB_PRECEDENCE(s->x);
    uint64_t primary = 0, kings = (uint64_t)K_POPCOUNT(captured_bb & s->kings_bb), key;
    if (prec & PREC_QUANTITY)
        primary = (uint64_t)n;
    if (prec & PREC_VALUE)
        primary = 100 * ((uint64_t)n - kings) + 199 * kings;
    key = primary << 40;
    if (prec & PREC_WITH_KING)
        key |= (uint64_t)s->king_captor << 39;
    if (prec & PREC_MOST_KINGS)
        key |= kings << 32;
    if ((prec & PREC_EARLIEST_KINGS) && kings)
        for (int i = 0; i < n; i++)
            if (s->kings_bb & (K_ONE << s->over_sq[i]))
                key |= 1ull << (31 - i); /* a king met sooner sets a higher bit */
    return key;
}

/* Writes the route in s as a full dm_move into the sink. */
static __attribute__((noinline)) void kb_emit_full(const struct kb_search *s, K_BB to_bb,
                                                   K_BB captured_bb, int n, bool promotes,
                                                   uint64_t key)
{
    bool mirrored = s->x->mirrored;
    dm_move m;
    memset(&m, 0, sizeof m);
    m.from = (uint8_t)kb_cell_of_sq(s->from_sq, mirrored);
    m.to = (uint8_t)kb_cell_of_sq(K_CTZ(to_bb), mirrored);
    m.njumps = (uint8_t)n;
    m.flags = DM_MOVE_CAPTURE | (promotes ? DM_MOVE_PROMOTES : 0);
    for (int i = 0; i < n; i++) {
        m.path[i] = (uint8_t)kb_cell_of_sq(s->land_sq[i], mirrored);
        m.captured[i] = (uint8_t)kb_cell_of_sq(s->over_sq[i], mirrored);
    }
    m.captured_set = kb_cells_of(captured_bb, mirrored);
    sink_add(s->sink, &m, key);
}

/* A complete sequence of n jumps taking captured_bb ends on to_bb: into the
 * list under precedence, merged with an equal route already there unless
 * duplicates are kept. */
K_INLINE void kb_emit(const struct kb_search *s, K_BB to_bb, K_BB captured_bb, int n)
{
    unsigned prec = KB_PRECEDENCE(s->x);
    /* The keys of the commonest precedences inline (Czech and its family:
     * only the captor's kind), the others out of line. */
    uint64_t key = prec == PREC_QUANTITY    ? (uint64_t)n << 40
                   : prec == PREC_WITH_KING ? (uint64_t)s->king_captor << 39
                   : prec                   ? kb_key(s, captured_bb, n)
                                            : 0;
    bool promotes = !s->king_captor && (s->crowned | ((to_bb & s->promo_bb) != 0));
    if (__builtin_expect(s->sink != NULL, 0)) {
        kb_emit_full(s, to_bb, captured_bb, n, promotes, key);
        return;
    }
    struct kb_list *l = s->list;
    if (key != l->best) {
        if (key < l->best && l->count > 0)
            return;
        l->count = 0;
        l->best = key;
    }
    uint8_t to_sq = (uint8_t)K_CTZ(to_bb);
    if (n >= K_DUP_MIN && s->x->merge)
        for (int i = 0; i < l->count; i++)
            if (l->moves[i].captured_bb == captured_bb && l->moves[i].to_sq == to_sq &&
                l->moves[i].from_sq == s->from_sq)
                return;
    if (l->count == DM_MAX_MOVES)
        return;
    struct kb_move *m = &l->moves[l->count++];
    m->captured_bb = captured_bb;
    m->from_sq = (uint8_t)s->from_sq;
    m->to_sq = to_sq;
    m->njumps = (uint8_t)n;
    m->promotes = promotes;
}

/* Whether the capturer on sq, having taken captured_bb, with (a king) the
 * directions dirs left or (a man) 0, was searched from there already in
 * this piece's search: then every route from there was found, and *went_on
 * tells whether there was any.  Else *slot is where to note it once done.
 * Only for routes of K_DUP_MIN jumps or more: shorter ones never meet. */
static bool kb_memo_find(struct kb_search *s, int sq, K_BB captured_bb, unsigned dirs,
                         struct capture_memo_slot **slot, bool *went_on)
{
    if (!s->stamp)
        s->stamp = kernel_capture_memo_stamp();
    uint64_t lo = (uint64_t)captured_bb, hi = 0;
#if K_WIDE
    hi = (uint64_t)(captured_bb >> 64);
#endif
    uint64_t h = (lo ^ (hi * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)sq << 56) ^ ((uint64_t)dirs << 48)) *
                 0xD6E8FEB86659FD93ull;
    struct capture_memo_slot *m = &kernel_capture_memo.slots[h >> (64 - CAPTURE_MEMO_BITS)];
    if (m->stamp == s->stamp && m->sq == sq && m->dirs == dirs && m->captured_lo == lo &&
        m->captured_hi == hi) {
        *went_on = m->went_on;
        return true;
    }
    *slot = m;
    return false;
}

/* Notes in slot that the capturer's search from sq, captured_bb, dirs is
 * done (kb_memo_find's key), with went_on. */
static void kb_memo_note(const struct kb_search *s, struct capture_memo_slot *slot, int sq,
                         K_BB captured_bb, unsigned dirs, bool went_on)
{
    slot->captured_lo = (uint64_t)captured_bb;
    slot->captured_hi = 0;
#if K_WIDE
    slot->captured_hi = (uint64_t)(captured_bb >> 64);
#endif
    slot->stamp = s->stamp;
    slot->sq = (uint8_t)sq;
    slot->dirs = (uint8_t)dirs;
    slot->went_on = went_on;
}

static void kb_man_jumps(struct kb_search *s, int at_sq, K_BB lands_bb, K_BB captured_bb, int n);
K_INLINE K_BB kb_reach(K_BB kings_bb, K_BB empty_bb, const int d);
K_INLINE K_BB kb_ray(int sq, K_BB empty_bb, const int d, K_BB *first_bb);
static bool kb_king_extend(struct kb_search *s, K_BB at_bb, K_BB captured_bb, int n, int lastdir,
                           bool straight);

/* The landing squares of the jumps in direction d (a constant) of the
 * pieces of men_bb over prey_bb onto open_bb, if dirs (a constant) has d. */
K_INLINE K_BB kb_land(K_BB men_bb, K_BB prey_bb, K_BB open_bb, const unsigned dirs, const int d)
{
    if (!(dirs & DIRBIT(d)))
        return 0;
    return kb_step_onto(kb_step_onto(men_bb, d, prey_bb), d, open_bb);
}

/* The landing squares of the jumps of the pieces of men_bb over prey_bb
 * onto open_bb in the directions of dirs (a constant). */
K_INLINE K_BB kb_lands(K_BB men_bb, K_BB prey_bb, K_BB open_bb, const unsigned dirs)
{
    return kb_land(men_bb, prey_bb, open_bb, dirs, DIR_NE) |
           kb_land(men_bb, prey_bb, open_bb, dirs, DIR_NW) |
           kb_land(men_bb, prey_bb, open_bb, dirs, DIR_SE) |
           kb_land(men_bb, prey_bb, open_bb, dirs, DIR_SW) |
           kb_land(men_bb, prey_bb, open_bb, dirs, DIR_N) |
           kb_land(men_bb, prey_bb, open_bb, dirs, DIR_S) |
           kb_land(men_bb, prey_bb, open_bb, dirs, DIR_E) |
           kb_land(men_bb, prey_bb, open_bb, dirs, DIR_W);
}

/* The landing squares of every jump of a man on at_bb, after jumps that
 * took captured_bb.  Straight back is never one: the piece just taken is
 * still there, or (K_IMMEDIATE) gone, so not a piece to take. */
K_INLINE K_BB kb_man_lands(const struct kb_search *s, K_BB at_bb, K_BB captured_bb)
{
    K_BB targets = s->man_prey_bb & ~captured_bb;
    K_BB open = K_IMMEDIATE ? s->empty_bb | captured_bb : s->empty_bb;
    if (K_MEN_NORTH(s->color))
        return kb_lands(at_bb, targets, open, K_MAN_DIRS(DM_WHITE));
    return kb_lands(at_bb, targets, open, K_MAN_DIRS(DM_BLACK));
}

/* Whether a man on at_bb can jump again; if so, every such jump is made.
 * Most sequences end here, so the test is inline and cheap. */
K_INLINE bool kb_man_extend(struct kb_search *s, K_BB at_bb, K_BB captured_bb, int n)
{
    K_BB lands = kb_man_lands(s, at_bb, captured_bb);
    if (!lands || n >= DM_MAX_JUMPS)
        return false;
    struct capture_memo_slot *slot = NULL;
    bool went_on;
    if (n >= K_DUP_MIN && s->memo && kb_memo_find(s, K_CTZ(at_bb), captured_bb, 0, &slot, &went_on))
        return true;
    kb_man_jumps(s, K_CTZ(at_bb), lands, captured_bb, n);
    if (slot)
        kb_memo_note(s, slot, K_CTZ(at_bb), captured_bb, 0, true);
    return true;
}

/* The direction of a man's jump from at_sq to land_sq (a crowned man going
 * on as a king needs it; that is rare). */
static int kb_jump_dir(int at_sq, int land_sq)
{
    int d = 0;
    while (d + 1 < K_NDIRS && 2 * kb_delta(d) != land_sq - at_sq)
        d++;
    return d;
}

/* Every jump n of a man on at_sq, landing on lands_bb: the piece taken is
 * halfway, in this layout as on the board.  Each goes on from its landing
 * square if it can (every rulebook here: a capture, once begun,
 * must be completed). */
static void kb_man_jumps(struct kb_search *s, int at_sq, K_BB lands_bb, K_BB captured_bb, int n)
{
    for (; lands_bb; lands_bb &= lands_bb - 1) {
        int land_sq = K_CTZ(lands_bb), over_sq = (at_sq + land_sq) >> 1;
        K_BB land = lands_bb & -lands_bb, over = K_ONE << over_sq;
        K_BB captured = captured_bb | over;
        s->over_sq[n] = (uint8_t)over_sq;
        s->land_sq[n] = (uint8_t)land_sq;
        bool went_on = false;
        if (!(land & s->promo_bb)) {
            went_on = kb_man_extend(s, land, captured, n + 1);
        } else if (s->x->promotion == PROMOTE_CONTINUE_AS_KING) {
            s->crowned = true; /* crowned at once, goes on with a king's powers */
            went_on = kb_king_extend(s, land, captured, n + 1, kb_jump_dir(at_sq, land_sq), true);
        } else if (s->x->promotion != PROMOTE_STOP) {
            went_on = kb_man_extend(s, land, captured, n + 1);
        }
        if (!went_on)
            kb_emit(s, land, captured, n + 1);
        s->crowned = false;
    }
}

/* Jump n of a king from at_bb in direction d (a constant), if there is one:
 * the first enemy piece along the line, with an empty square behind it.  A
 * flying king goes on from every landing square; if none lets it, the
 * sequence ends on each of them (Killer: only right behind a captured king).
 * With K_IMMEDIATE the pieces taken are gone: their squares are empty. */
K_INLINE bool kb_king_try(struct kb_search *s, K_BB at_bb, K_BB captured_bb, int n, const int d)
{
    K_BB open = K_IMMEDIATE ? s->empty_bb | captured_bb : s->empty_bb;
#if K_RAYS
    /* The square past the king's open line at once, not square by square:
     * the loop's exit, at a varying distance, was mispredicted. */
    K_BB over;
    kb_ray(K_CTZ(at_bb), open, d, &over);
#elif K_FLYING
    K_BB over = kb_step(at_bb | kb_reach(at_bb, open, d), d);
#else
    K_BB over = kb_step(at_bb, d);
#endif
    over &= s->enemy_bb & ~captured_bb;
    if (!over)
        return false;
    K_BB land = kb_step(over, d) & open;
    if (!land)
        return false;
    s->over_sq[n] = (uint8_t)K_CTZ(over);
    captured_bb |= over;
    bool went_on = false;
#if K_FLYING && !K_LAND_ADJACENT
    bool first = true;
    for (K_BB l = land; l; l = kb_step(l, d) & s->empty_bb) {
        s->land_sq[n] = (uint8_t)K_CTZ(l);
        went_on |= kb_king_extend(s, l, captured_bb, n + 1, d, first);
        first = false;
    }
    if (!went_on) {
        bool adjacent_only = K_KILLER && s->x->killer && (s->kings_bb & over);
        for (K_BB l = land; l; l = kb_step(l, d) & s->empty_bb) {
            s->land_sq[n] = (uint8_t)K_CTZ(l);
            kb_emit(s, l, captured_bb, n + 1);
            if (adjacent_only)
                break;
        }
    }
#else
    s->land_sq[n] = (uint8_t)K_CTZ(land);
    went_on = kb_king_extend(s, land, captured_bb, n + 1, d, true);
    if (!went_on)
        kb_emit(s, land, captured_bb, n + 1);
#endif
    return true;
}

/* Every jump n of a king from at_bb: never straight back over the piece
 * just taken (a ghost blocks it; K_IMMEDIATE: it is gone, and the king may
 * turn back), and straight on only from the first landing square (straight
 * is false for the others: the same line, the same next piece). */
static bool kb_king_extend(struct kb_search *s, K_BB at_bb, K_BB captured_bb, int n, int lastdir,
                           bool straight)
{
    if (n >= DM_MAX_JUMPS)
        return false;
    unsigned dirs = s->x->king_dirs;
    if (lastdir >= 0) {
        if (!K_IMMEDIATE)
            dirs &= ~DIRBIT(dir_opposite[lastdir]);
        if (!straight)
            dirs &= ~DIRBIT(lastdir);
    }
    struct capture_memo_slot *slot = NULL;
    bool any = false;
    if (n >= K_DUP_MIN && s->memo && dirs &&
        kb_memo_find(s, K_CTZ(at_bb), captured_bb, dirs, &slot, &any))
        return any;
    if (dirs & DIRBIT(DIR_NE))
        any |= kb_king_try(s, at_bb, captured_bb, n, DIR_NE);
    if (dirs & DIRBIT(DIR_NW))
        any |= kb_king_try(s, at_bb, captured_bb, n, DIR_NW);
    if (dirs & DIRBIT(DIR_SE))
        any |= kb_king_try(s, at_bb, captured_bb, n, DIR_SE);
    if (dirs & DIRBIT(DIR_SW))
        any |= kb_king_try(s, at_bb, captured_bb, n, DIR_SW);
#if K_ORTH
    if (dirs & DIRBIT(DIR_N))
        any |= kb_king_try(s, at_bb, captured_bb, n, DIR_N);
    if (dirs & DIRBIT(DIR_S))
        any |= kb_king_try(s, at_bb, captured_bb, n, DIR_S);
    if (dirs & DIRBIT(DIR_E))
        any |= kb_king_try(s, at_bb, captured_bb, n, DIR_E);
    if (dirs & DIRBIT(DIR_W))
        any |= kb_king_try(s, at_bb, captured_bb, n, DIR_W);
#endif
    if (slot)
        kb_memo_note(s, slot, K_CTZ(at_bb), captured_bb, dirs, any);
    return any;
}

/* The jumper of direction d (a constant), if dirs (a constant) has d. */
K_INLINE K_BB kb_jumper(K_BB targets_bb, K_BB empty_bb, const unsigned dirs, const int d)
{
    if (!(dirs & DIRBIT(d)))
        return 0;
    int back = kb_opposite(d);
    return kb_step(kb_step_onto(empty_bb, back, targets_bb), back);
}

/* The men of men_bb that can jump one of targets_bb: a target one step away
 * and an empty square behind it, in a direction of dirs (a constant). */
K_INLINE K_BB kb_jumpers(K_BB men_bb, K_BB targets_bb, K_BB empty_bb, const unsigned dirs)
{
    K_BB from = kb_jumper(targets_bb, empty_bb, dirs, DIR_NE) |
                kb_jumper(targets_bb, empty_bb, dirs, DIR_NW) |
                kb_jumper(targets_bb, empty_bb, dirs, DIR_SE) |
                kb_jumper(targets_bb, empty_bb, dirs, DIR_SW) |
                kb_jumper(targets_bb, empty_bb, dirs, DIR_N) |
                kb_jumper(targets_bb, empty_bb, dirs, DIR_S) |
                kb_jumper(targets_bb, empty_bb, dirs, DIR_E) |
                kb_jumper(targets_bb, empty_bb, dirs, DIR_W);
    return from & men_bb;
}

/* The landing squares of the first jumps of color's parachutists on
 * paras_bb over prey_bb: only a piece on the colour's para_prey_bb, only
 * backwards for the colour (BrainKing's Parachute rules: down from the
 * enemy's first row). */
K_INLINE K_BB kb_para_lands(const struct kb_ctx *x, K_BB paras_bb, K_BB prey_bb, K_BB empty_bb,
                            int color)
{
#if K_PARAS
    prey_bb &= KB_PARA_PREY(x, color);
    if (color == DM_WHITE)
        return kb_lands(paras_bb, prey_bb, empty_bb, K_PARA_DIRS(DM_WHITE));
    return kb_lands(paras_bb, prey_bb, empty_bb, K_PARA_DIRS(DM_BLACK));
#else
    (void)x, (void)paras_bb, (void)prey_bb, (void)empty_bb, (void)color;
    return 0;
#endif
}

/* The parachutists of color (none unless K_PARAS). */
K_INLINE K_BB kb_paras(const struct kb_pos *p, int color)
{
#if K_PARAS
    return p->side_bb[color] & p->paras_bb;
#else
    (void)p, (void)color;
    return 0;
#endif
}

/* The men of color: not its kings, nor its parachutists, which never step
 * and make their first jump their own way. */
K_INLINE K_BB kb_men(const struct kb_pos *p, int color)
{
    return p->side_bb[color] & ~p->kings_bb & ~kb_paras(p, color);
}

/* Searches every capture of color's men and parachutists in jumpers_bb and
 * of its kings in kings_bb; the sequences go where s sends them. */
static void kb_captures(struct kb_search *s, const struct kb_pos *p, int color, K_BB jumpers_bb,
                        K_BB kings_bb)
{
    const struct kb_ctx *x = s->x;
    K_BB empty = K_ALL & ~(p->side_bb[0] | p->side_bb[1]);
    s->enemy_bb = p->side_bb[color ^ 1];
    s->man_prey_bb = KB_SPARES(x) ? s->enemy_bb & ~p->kings_bb : s->enemy_bb;
    s->kings_bb = p->kings_bb;
    s->promo_bb = KB_PROMO_BB(x, color);
    s->color = color;
    s->crowned = false;
    s->king_captor = false;
    s->memo = x->merge && !(KB_PRECEDENCE(x) & PREC_EARLIEST_KINGS);
    K_BB paras = kb_paras(p, color);
    for (K_BB b = jumpers_bb; b; b &= b - 1) {
        K_BB from = b & -b;
        s->from_sq = K_CTZ(b);
        s->stamp = 0; /* each piece its own: its square is empty to it only */
        s->empty_bb = empty | from; /* its start square counts as empty */
        K_BB lands = from & paras ? kb_para_lands(x, from, s->man_prey_bb, s->empty_bb, color)
                                  : kb_man_lands(s, from, 0);
        kb_man_jumps(s, s->from_sq, lands, 0, 0);
    }
    s->king_captor = true;
    for (K_BB b = kings_bb; b; b &= b - 1) {
        K_BB from = b & -b;
        s->from_sq = K_CTZ(b);
        s->stamp = 0;
        s->empty_bb = empty | from;
        kb_king_extend(s, from, 0, 0, -1, true);
    }
}

/* The kings of color whose quiet moves the Frisian limit leaves (lidraughts'
 * Frisian rules: while its side has men, one king makes at most 3 in a row). */
K_INLINE K_BB kb_free_kings(const struct kb_ctx *x, const struct kb_pos *p, int color)
{
    K_BB kings = p->side_bb[color] & p->kings_bb;
#if K_KING_LIMIT
    if (x->king_limit && p->king_moves[color] >= 3 && p->king_sq[color] != K_NO_SQ &&
        (p->side_bb[color] & ~p->kings_bb))
        kings &= ~(K_ONE << p->king_sq[color]);
#else
    (void)x;
#endif
    return kings;
}

/* The men and parachutists of color that can capture (kings are searched
 * separately). */
K_INLINE K_BB kb_man_jumpers(const struct kb_ctx *x, const struct kb_pos *p, int color)
{
    K_BB empty = K_ALL & ~(p->side_bb[0] | p->side_bb[1]);
    K_BB targets = p->side_bb[color ^ 1];
    if (KB_SPARES(x))
        targets &= ~p->kings_bb;
    K_BB from = kb_jumpers(kb_men(p, color), targets, empty, K_MAN_DIRS(color));
#if K_PARAS
    from |= kb_jumpers(kb_paras(p, color), targets & KB_PARA_PREY(x, color), empty,
                       K_PARA_DIRS(color));
#endif
    return from;
}

/* The shortcut for the usual capture, when no king of color can capture:
 * most jumps of its men end at once.  On the position's board the landing
 * square of a jump in direction d never allows the jump straight back (the
 * man's own square is not empty yet), and the piece taken and the square
 * left matter to no other direction, so one test on the whole board tells
 * which jumps go on.  Their men (*deep_bb) need the search; the other jumps
 * are single captures, by direction in lands_bb.  Returns false when the shortcut does
 * not hold: a man crowned on the way goes on as a king, or a jump goes on
 * and the precedence would have to weigh single captures against it.
 * *kings_only tells that single captures of a king take precedence.
 * A parachutist's first jump is one more single capture: it goes on as a
 * man, and the same test holds (straight back it would land on its own
 * square). */
K_INLINE bool kb_singles(const struct kb_ctx *x, const struct kb_pos *p, const int color,
                         K_BB lands_bb[K_NDIRS], K_BB *deep_bb, bool *kings_only)
{
    K_BB empty = K_ALL & ~(p->side_bb[0] | p->side_bb[1]);
    K_BB men = kb_men(p, color);
    K_BB prey = p->side_bb[color ^ 1];
    if (KB_SPARES(x))
        prey &= ~p->kings_bb;
    K_BB all = 0, deep = 0;
    K_UNROLL for (int d = 0; d < K_NDIRS; d++) {
        lands_bb[d] = kb_land(men, prey, empty, K_MAN_DIRS(color), d);
#if K_PARAS
        lands_bb[d] |= kb_land(kb_paras(p, color), prey & KB_PARA_PREY(x, color), empty,
                               K_PARA_DIRS(color), d);
#endif
        all |= lands_bb[d];
    }
    /* No test of all: whether a man can take follows no pattern the
     * predictor could learn, and with none the sets below are empty. */
    K_BB again = all & kb_jumpers(K_ALL, prey, empty, K_MAN_DIRS(color));
    K_BB promo = all & KB_PROMO_BB(x, color);
    if (promo) {
        if (KB_PROMOTION(x) == PROMOTE_CONTINUE_AS_KING)
            return false;
        if (KB_PROMOTION(x) == PROMOTE_STOP)
            again &= ~promo;
    }
    if (again) {
        /* Free choice keeps the single captures beside the longer ones;
         * most pieces or most value drops them.  Any other key would need
         * to weigh them against each other. */
        if (!(KB_PRECEDENCE(x) & K_LONGER_WINS) && (KB_PRECEDENCE(x) & ~(unsigned)PREC_WITH_KING))
            return false;
        K_UNROLL for (int d = 0; d < K_NDIRS; d++) {
            int back = kb_opposite(d);
            deep |= kb_step(kb_step(lands_bb[d] & again, back), back);
        }
        K_UNROLL for (int d = 0; d < K_NDIRS; d++)
            lands_bb[d] &= ~kb_step(kb_step(deep, d), d);
    }
    *deep_bb = deep;
    *kings_only = false;
    if ((KB_PRECEDENCE(x) & (PREC_VALUE | PREC_MOST_KINGS | PREC_EARLIEST_KINGS)) &&
        (prey & p->kings_bb)) {
        K_UNROLL for (int d = 0; d < K_NDIRS; d++) {
            K_BB king_lands = lands_bb[d] & kb_step(prey & p->kings_bb, d);
            *kings_only |= king_lands != 0;
        }
    }
    return true;
}

/* Searches the captures of the men of jumpers_bb into l (no king of color
 * can capture). */
static void kb_search_men(const struct kb_ctx *x, const struct kb_pos *p, struct kb_list *l,
                          int color, K_BB jumpers_bb)
{
    struct kb_search s;
    s.x = x;
    s.list = l;
    s.sink = NULL;
    kb_captures(&s, p, color, jumpers_bb, 0);
}

/* Men's sequences counted in bulk, by direction strings, with no search.
 * When men jump forwards only (diagonally, pieces removed at the end), a
 * sequence never meets a piece it took nor its own start square: they are
 * behind it (a parachutist's jump straight back over the piece it took
 * would land on its start square, still occupied on the board).  So each
 * jump can be tested on the position's board, for a whole set of men at
 * once: the men that land after the jumps of one direction string are
 * kb_land() of the set one jump shorter.  Different strings take different
 * pieces, so every man of every set is one sequence of its own (no two
 * routes to merge).  Up to (K_ROWS - 1) / 2 forward jumps fit, two
 * directions each, for men and parachutists (whose first jump is
 * backwards): at most 2 << ((K_ROWS - 1) / 2) sets in a level, and one more
 * written past the last. */
#define K_BULK      (!K_MEN_BACK && !K_ORTH && !K_IMMEDIATE)
#define K_BULK_SETS (2 << ((K_ROWS - 1) / 2))

/* Whether the captures of color's men may be counted in bulk (no king of
 * color can capture): nobody crowned on the way goes on as a king, and the
 * precedence weighs at most the number of pieces taken (a man's captures
 * are all a man's; kings weigh nothing if men may not take them, or if the
 * opponent has none). */
K_INLINE bool kb_bulk_fits(const struct kb_ctx *x, const struct kb_pos *p, int color)
{
    return K_BULK && KB_BULK(x) && !(KB_KINGS_WEIGH(x) && (p->side_bb[color ^ 1] & p->kings_bb));
}

/* Appends to sets_bb[k...] the non-empty sets of the men of go_bb after
 * one more jump, one per direction (constants); returns the new k. */
K_INLINE int kb_bulk_step(K_BB go_bb, K_BB prey_bb, K_BB empty_bb, K_BB *sets_bb, int k,
                          const int color)
{
    const unsigned dirs = K_MAN_DIRS(color);
    K_BB a = kb_land(go_bb, prey_bb, empty_bb, dirs, K_MEN_NORTH(color) ? DIR_NE : DIR_SE);
    K_BB b = kb_land(go_bb, prey_bb, empty_bb, dirs, K_MEN_NORTH(color) ? DIR_NW : DIR_SW);
    sets_bb[k] = a;
    k += a != 0;
    sets_bb[k] = b;
    return k + (b != 0);
}

/* The number of sequences from the first jumps' sets first_bb[0..K_NDIRS),
 * the men of on_bb going on: all of them, or under majority capture the
 * longest only. */
K_INLINE int kb_bulk_levels(const struct kb_ctx *x, K_BB prey_bb, K_BB empty_bb, K_BB on_bb,
                            const K_BB first_bb[K_NDIRS], const int color)
{
    K_BB sets[2][K_BULK_SETS + 1], *cur = sets[0], *next = sets[1];
    int k = 0;
    for (int d = 0; d < K_NDIRS; d++) {
        cur[k] = first_bb[d];
        k += first_bb[d] != 0;
    }
    int all = 0, last = 0;
    while (k) {
        int m = 0;
        last = 0;
        for (int i = 0; i < k; i++) {
            K_BB b = cur[i], go = b & on_bb;
            last += K_POPCOUNT(b);
            all += K_POPCOUNT(b & ~go);
            if (go)
                m = kb_bulk_step(go, prey_bb, empty_bb, next, m, color);
        }
        K_BB *t = cur;
        cur = next;
        next = t;
        k = m;
    }
    /* The last level's sets all end there: the longest sequences. */
    return KB_PRECEDENCE(x) & K_LONGER_WINS ? last : all;
}

/* The board as color's men's jumps in bulk see it. */
struct kb_bulk {
    K_BB empty_bb, prey_bb;
    K_BB on_bb;              /* where a man goes on: a jump from there, and no
                              * stop on crowning */
    K_BB first_bb[K_NDIRS];  /* the landing squares of the first jumps of the
                              * men and parachutists of deep_bb, by direction */
};

K_INLINE void kb_bulk_first(const struct kb_ctx *x, const struct kb_pos *p, const int color,
                            K_BB deep_bb, struct kb_bulk *b)
{
    K_BB empty = K_ALL & ~(p->side_bb[0] | p->side_bb[1]);
    K_BB men = kb_men(p, color) & deep_bb;
    K_BB prey = p->side_bb[color ^ 1];
    if (KB_SPARES(x))
        prey &= ~p->kings_bb;
    K_UNROLL for (int d = 0; d < K_NDIRS; d++) {
        b->first_bb[d] = kb_land(men, prey, empty, K_MAN_DIRS(color), d);
#if K_PARAS
        b->first_bb[d] |= kb_land(kb_paras(p, color) & deep_bb, prey & KB_PARA_PREY(x, color),
                                  empty, K_PARA_DIRS(color), d);
#endif
    }
    b->on_bb = kb_jumpers(K_ALL, prey, empty, K_MAN_DIRS(color));
    if (KB_PROMOTION(x) == PROMOTE_STOP)
        b->on_bb &= ~KB_PROMO_BB(x, color);
    b->empty_bb = empty;
    b->prey_bb = prey;
}

/* The number of captures of the men and parachutists of deep_bb (no king
 * of color can capture, kb_bulk_fits holds): their first jumps by
 * direction, then the sequences going on. */
K_INLINE int kb_bulk_count(const struct kb_ctx *x, const struct kb_pos *p, const int color,
                           K_BB deep_bb)
{
    struct kb_bulk b;
    kb_bulk_first(x, p, color, deep_bb, &b);
    return kb_bulk_levels(x, b.prey_bb, b.empty_bb, b.on_bb, b.first_bb, color);
}

/* The number of captures of the men of deep_bb, counted in bulk or
 * searched (out of line, so that the count needs no list on the stack). */
static __attribute__((noinline)) int kb_count_deep(const struct kb_ctx *x, const struct kb_pos *p,
                                                   int color, K_BB deep_bb)
{
    if (kb_bulk_fits(x, p, color))
        return color == DM_WHITE ? kb_bulk_count(x, p, DM_WHITE, deep_bb)
                                 : kb_bulk_count(x, p, DM_BLACK, deep_bb);
    struct kb_list l;
    l.count = 0;
    l.best = 0;
    kb_search_men(x, p, &l, color, deep_bb);
    return l.count;
}

/* The squares the kings of kings_bb reach in direction d (a constant).
 * Flying kings: an occluded fill (Kogge-Stone), steps of 1, 2, 4 (and 8)
 * squares through the squares a step may enter, so no loop and no branch;
 * the longest line has K_ROWS - 1 squares. */
K_INLINE K_BB kb_reach(K_BB kings_bb, K_BB empty_bb, const int d)
{
#if K_FLYING
    K_BB gen = kings_bb, pro = empty_bb & kb_step(K_ALL, d);
    gen |= pro & kb_shift(gen, d, 1);
    pro &= kb_shift(pro, d, 1);
    gen |= pro & kb_shift(gen, d, 2);
    pro &= kb_shift(pro, d, 2);
    gen |= pro & kb_shift(gen, d, 4);
#if K_ROWS > 8
    pro &= kb_shift(pro, d, 4);
    gen |= pro & kb_shift(gen, d, 8);
#endif
    return gen & ~kings_bb;
#else
    return kb_step_onto(kings_bb, d, empty_bb);
#endif
}

/* A lone king, the usual case (one king of the side to move, in most counts
 * that meet kings), reads its lines from a table of each square's lines on
 * the empty board (K_RAYS): the reach in a direction is the line up to the
 * first occupied square, one ctz or clz, where a fill costs some 16
 * operations. */
#if K_RAYS
static K_BB kb_rays[K_NDIRS][64]; /* [direction][square]: the open line */

static __attribute__((constructor)) void kb_init_rays(void)
{
    for (int d = 0; d < K_NDIRS; d++)
        for (int sq = 0; sq < 64; sq++)
            if (K_ALL & (K_ONE << sq))
                for (K_BB b = kb_step(K_ONE << sq, d); b; b = kb_step(b, d))
                    kb_rays[d][sq] |= b;
}
#endif

/* The squares a king on sq reaches in direction d (a constant) through
 * empty_bb, and in *first_bb the occupied square that ends its line (none at
 * the edge); no branch. */
K_INLINE K_BB kb_ray(int sq, K_BB empty_bb, const int d, K_BB *first_bb)
{
#if K_RAYS
    K_BB ray = kb_rays[d][sq], occupied = ray & ~empty_bb;
    if (kb_delta(d) > 0) {
        /* The nearest is the lowest: the squares below it, or all of them
         * when the line is open (0 - 1). */
        K_BB first = occupied & -occupied;
        *first_bb = first;
        return ray & (first - 1);
    }
    /* The nearest is the highest.  Doubled, with bit 0 set for the edge,
     * the highest bit of the occupied squares is one up, so that the mask
     * below it holds the squares up to the nearest, or none. */
    K_BB upto = (~(K_BB)0 >> 1) >> __builtin_clzll(occupied * 2 + 1);
    *first_bb = occupied & ~(upto >> 1);
    return ray & ~upto;
#else
    K_BB king = K_ONE << sq, reach = kb_reach(king, empty_bb, d);
    *first_bb = kb_step(king | reach, d) & ~empty_bb;
    return reach;
#endif
}

/* Every square of the four diagonal lines of the king on from_bb (they
 * never overlap). */
K_INLINE K_BB kb_king_lines(K_BB from_bb, K_BB empty_bb)
{
#if K_RAYS
    int sq = K_CTZ(from_bb);
    K_BB first;
    return kb_ray(sq, empty_bb, DIR_NE, &first) | kb_ray(sq, empty_bb, DIR_NW, &first) |
           kb_ray(sq, empty_bb, DIR_SE, &first) | kb_ray(sq, empty_bb, DIR_SW, &first);
#else
    return kb_reach(from_bb, empty_bb, DIR_NE) | kb_reach(from_bb, empty_bb, DIR_NW) |
           kb_reach(from_bb, empty_bb, DIR_SE) | kb_reach(from_bb, empty_bb, DIR_SW);
#endif
}

/* The landing squares right behind the pieces of prey_bb that the kings
 * of kings_bb, whose lines in direction d (a constant) reach reach_bb, meet
 * first, if empty. */
K_INLINE K_BB kb_king_hits(K_BB kings_bb, K_BB reach_bb, K_BB empty_bb, K_BB prey_bb,
                           const int d)
{
    K_BB line = K_FLYING ? kings_bb | reach_bb : kings_bb;
    return kb_step_onto(kb_step_onto(line, d, prey_bb), d, empty_bb);
}

/* The landing squares of the captures of the kings of kings_bb, by fills;
 * reach_bb gets the squares they reach in each diagonal direction. */
K_INLINE K_BB kb_fill_hits(const struct kb_ctx *x, K_BB kings_bb, K_BB empty_bb, K_BB prey_bb,
                           K_BB reach_bb[4])
{
    K_BB hits = 0;
    K_UNROLL for (int d = 0; d < 4; d++) {
        reach_bb[d] = kb_reach(kings_bb, empty_bb, d);
        hits |= kb_king_hits(kings_bb, reach_bb[d], empty_bb, prey_bb, d);
    }
#if K_ORTH
    if (x->king_dirs & DIRS_ORTH)
        for (int d = DIR_N; d <= DIR_W; d++)
            hits |= kb_king_hits(kings_bb, kb_reach(kings_bb, empty_bb, d), empty_bb, prey_bb, d);
#else
    (void)x;
#endif
    return hits;
}

/* The same out of line, where a lone king reads tables (K_RAYS): two kings
 * or more are rare, and the count that inlines this is inlined many times. */
static __attribute__((noinline)) K_BB kb_fill_hits_apart(const struct kb_ctx *x, K_BB kings_bb,
                                                         K_BB empty_bb, K_BB prey_bb,
                                                         K_BB reach_bb[4])
{
    return kb_fill_hits(x, kings_bb, empty_bb, prey_bb, reach_bb);
}

/* The kings of color to search for captures: all of them if one can
 * capture, else none; one test on the whole board, so that the usual
 * position, whose kings cannot take, needs no search.  When a king's
 * capture beats any man's (the first precedence is the captor's), the men's
 * jumpers are dropped then.  reach_bb gets the squares the kings reach in
 * each diagonal direction, for the quiet moves (every king moves and
 * captures diagonally: kernel_for); nothing when color has no king. */
K_INLINE K_BB kb_capturing_kings(const struct kb_ctx *x, const struct kb_pos *p, int color,
                                 K_BB *jumpers_bb, K_BB reach_bb[4])
{
    K_BB kings = p->side_bb[color] & p->kings_bb;
    if (!kings)
        return 0;
    K_BB empty = K_ALL & ~(p->side_bb[0] | p->side_bb[1]);
    K_BB prey = p->side_bb[color ^ 1], hits = 0;
    if (!K_RAYS) {
        hits = kb_fill_hits(x, kings, empty, prey, reach_bb);
    } else if (!(kings & (kings - 1))) {
        /* A lone king: the first piece on each line, taken if it is an
         * enemy with an empty square behind it. */
        int sq = K_CTZ(kings);
        K_BB first;
        K_UNROLL for (int d = 0; d < 4; d++) {
            reach_bb[d] = kb_ray(sq, empty, d, &first);
            hits |= kb_step_onto(first & prey, d, empty);
        }
#if K_ORTH
        if (x->king_dirs & DIRS_ORTH)
            K_UNROLL for (int d = DIR_N; d <= DIR_W; d++) {
                kb_ray(sq, empty, d, &first);
                hits |= kb_step_onto(first & prey, d, empty);
            }
#endif
    } else {
        hits = kb_fill_hits_apart(x, kings, empty, prey, reach_bb);
    }
    if (!hits)
        return 0;
    if ((KB_PRECEDENCE(x) & PREC_WITH_KING) && !(KB_PRECEDENCE(x) & K_LONGER_WINS))
        *jumpers_bb = 0;
    return kings;
}

/* The number of captures, or 0 when there is none; kept out of line so that
 * the quiet count needs no list on the stack. */
static __attribute__((noinline)) int kb_count_captures(const struct kb_ctx *x,
                                                       const struct kb_pos *p, int color,
                                                       K_BB jumpers_bb, K_BB kings_bb)
{
    struct kb_list l;
    struct kb_search s;
    l.count = 0;
    l.best = 0;
    s.x = x;
    s.list = &l;
    s.sink = NULL;
    kb_captures(&s, p, color, jumpers_bb, kings_bb);
    return l.count;
}

/* Counting kings' captures without routes (the last ply of perft): a jump's
 * landing squares are one set, and one test on the whole set tells whether
 * the sequence goes on from any of them; most do not, and then it ends on
 * each of them (their number is the count).  The next jumps are followed
 * from the squares they land on first, each of which only one landing
 * square of the set sees (the lines from the set are parallel), so no
 * route is needed.  Sequences shorter than K_DUP_MIN jumps have no
 * duplicate to merge; the longer ones keep their ends by captured set
 * (struct kb_ends), and a square already there is not counted again.
 *
 * A tally is a number of sequences; under PREC_QUANTITY, (jumps << 16) |
 * number, of the longest only.  KB_TALLY_OVER (struct kb_ends full, rarely
 * if ever) makes the list search count the position instead: returned at
 * once by every jump after it, it stays at or above itself through the
 * sums and maxima of the first jumps (of a few kings, under DM_MAX_MOVES
 * each). */
#define KB_TALLY_OVER (1 << 24)
/* The kernels whose kings the tally may count (kb_tally_holds tells the
 * rest at run time); the others keep the list search's call as it was. */
#define KB_TALLY (K_FLYING && !K_ORTH && !K_IMMEDIATE && !K_LAND_ADJACENT)
#define KB_ENDS_MAX   32
/* A function compiled once, not cloned per constant argument (GCC). */
#if defined(__GNUC__) && !defined(__clang__)
#define K_ONE_COPY __attribute__((noinline, noclone))
#else
#define K_ONE_COPY __attribute__((noinline))
#endif

/* The ends of the sequences of K_DUP_MIN jumps or more counted so far: by
 * king (its origin, as open_bb has it) and captured set, the squares. */
struct kb_ends {
    int count;
    bool merge; /* duplicates merged (no DM_GEN_KEEP_DUPLICATES) */
    struct {
        K_BB open_bb, captured_bb, to_bb;
    } sets[KB_ENDS_MAX];
};

/* Whether the tally holds for these rules: flying kings that land anywhere
 * behind, take diagonally and leave their prey to the end, and a precedence
 * that only the length or nothing decides among kings. */
K_INLINE bool kb_tally_holds(const struct kb_ctx *x)
{
    if (!KB_TALLY || (K_KILLER && x->killer))
        return false;
    unsigned prec = KB_PRECEDENCE(x);
    return (prec == 0 || prec == PREC_WITH_KING || prec == PREC_QUANTITY) &&
           x->king_dirs == DIRS_DIAG;
}

/* The tally of both a and b. */
K_INLINE int kb_tally_sum(int a, int b, bool longest)
{
    if (!longest)
        return a + b;
    if ((a >> 16) == (b >> 16))
        return a + (b & 0xFFFF);
    return a > b ? a : b;
}

/* The number of sequences of K_DUP_MIN jumps or more of the king of
 * open_bb that end on to_bb, taking captured_bb, and not counted yet. */
static int kb_tally_ends(struct kb_ends *e, K_BB open_bb, K_BB captured_bb, K_BB to_bb)
{
    if (!e->merge)
        return K_POPCOUNT(to_bb);
    for (int i = 0; i < e->count; i++)
        if (e->sets[i].captured_bb == captured_bb && e->sets[i].open_bb == open_bb) {
            K_BB fresh = to_bb & ~e->sets[i].to_bb;
            e->sets[i].to_bb |= to_bb;
            return K_POPCOUNT(fresh);
        }
    if (e->count == KB_ENDS_MAX)
        return KB_TALLY_OVER;
    e->sets[e->count].open_bb = open_bb;
    e->sets[e->count].captured_bb = captured_bb;
    e->sets[e->count].to_bb = to_bb;
    e->count++;
    return K_POPCOUNT(to_bb);
}

/* The landing squares, first of their lines, of the jumps in direction e
 * (a constant) from the squares of from_bb over prey_bb onto open_bb. */
K_INLINE K_BB kb_tally_hits(K_BB from_bb, K_BB open_bb, K_BB prey_bb, const int e)
{
    return kb_king_hits(from_bb, kb_reach(from_bb, open_bb, e), open_bb, prey_bb, e);
}

static int kb_tally_jump(struct kb_ends *e, K_BB first_bb, K_BB captured_bb, K_BB open_bb,
                         K_BB prey_bb, int n, bool longest, int d);

/* Jump n of a king in direction d (a constant), first landing on first_bb,
 * taking captured_bb so far; open_bb has the king's origin.  Straight on
 * goes on only from the last landing square, sideways from every one
 * (e1, e2); never back: the piece just taken stays, a ghost. */
K_INLINE int kb_tally_dir(struct kb_ends *e, K_BB first_bb, K_BB captured_bb, K_BB open_bb,
                          K_BB prey_bb, int n, bool longest, const int d)
{
    const int e1 = d == DIR_NE || d == DIR_SW ? DIR_NW : DIR_NE;
    const int e2 = kb_opposite(e1);
    K_BB lands = first_bb | kb_reach(first_bb, open_bb, d);
    K_BB prey = prey_bb & ~captured_bb;
    K_BB on = kb_step_onto(kb_step_onto(lands, d, prey), d, open_bb);
    K_BB side1 = kb_tally_hits(lands, open_bb, prey, e1);
    K_BB side2 = kb_tally_hits(lands, open_bb, prey, e2);
    if (!(on | side1 | side2) || n >= DM_MAX_JUMPS) {
        int ends = n >= K_DUP_MIN ? kb_tally_ends(e, open_bb, captured_bb, lands)
                                  : K_POPCOUNT(lands);
        return (longest ? n << 16 : 0) + ends;
    }
    int t = on ? kb_tally_jump(e, on, captured_bb | kb_step(on, kb_opposite(d)), open_bb, prey_bb,
                               n + 1, longest, d)
               : 0;
    for (; side1 && t < KB_TALLY_OVER; side1 &= side1 - 1) {
        K_BB h = side1 & -side1;
        t = kb_tally_sum(t, kb_tally_jump(e, h, captured_bb | kb_step(h, e2), open_bb, prey_bb,
                                          n + 1, longest, e1),
                         longest);
    }
    for (; side2 && t < KB_TALLY_OVER; side2 &= side2 - 1) {
        K_BB h = side2 & -side2;
        t = kb_tally_sum(t, kb_tally_jump(e, h, captured_bb | kb_step(h, e1), open_bb, prey_bb,
                                          n + 1, longest, e2),
                         longest);
    }
    return t < KB_TALLY_OVER ? t : KB_TALLY_OVER;
}

/* kb_tally_dir for a direction known at run time (the jumps after the
 * first, few): one copy, so that the kernel's other functions stay within
 * GCC's inlining budget (kb_captures stopped inlining kb_man_jumps). */
static K_ONE_COPY int kb_tally_jump(struct kb_ends *e, K_BB first_bb, K_BB captured_bb,
                                    K_BB open_bb, K_BB prey_bb, int n, bool longest, int d)
{
    switch (d) {
    case DIR_NE:
        return kb_tally_dir(e, first_bb, captured_bb, open_bb, prey_bb, n, longest, DIR_NE);
    case DIR_NW:
        return kb_tally_dir(e, first_bb, captured_bb, open_bb, prey_bb, n, longest, DIR_NW);
    case DIR_SE:
        return kb_tally_dir(e, first_bb, captured_bb, open_bb, prey_bb, n, longest, DIR_SE);
    default:
        return kb_tally_dir(e, first_bb, captured_bb, open_bb, prey_bb, n, longest, DIR_SW);
    }
}

/* The tally of the first jumps in direction d (a constant) of the one king
 * king_bb, whose line reaches reach_bb. */
K_INLINE int kb_tally_king(struct kb_ends *e, K_BB king_bb, K_BB reach_bb, K_BB empty_bb,
                           K_BB prey_bb, bool longest, const int d)
{
    K_BB first = kb_king_hits(king_bb, reach_bb, empty_bb, prey_bb, d);
    if (!first)
        return 0;
    return kb_tally_dir(e, first, kb_step(first, kb_opposite(d)), empty_bb | king_bb, prey_bb, 1,
                        longest, d);
}

/* The same for the kings of kings_bb, more than one: each first landing
 * square is one king's, found back along its line, as the king's origin is
 * open to it only. */
K_INLINE int kb_tally_kings(struct kb_ends *e, K_BB kings_bb, K_BB reach_bb, K_BB empty_bb,
                            K_BB prey_bb, bool longest, const int d)
{
    int t = 0, back = kb_opposite(d);
    for (K_BB first = kb_king_hits(kings_bb, reach_bb, empty_bb, prey_bb, d); first;
         first &= first - 1) {
        K_BB f = first & -first, over = kb_step(f, back);
        K_BB king = kb_step(over | kb_reach(over, empty_bb, back), back) & kings_bb;
        t = kb_tally_sum(t, kb_tally_jump(e, f, over, empty_bb | king, prey_bb, 1, longest, d),
                         longest);
    }
    return t;
}

/* The number of captures of the side of the kings of kings_bb, which can
 * capture, and of the men of jumpers_bb too: the kings tallied where
 * kb_tally_holds, else everything listed.  The squares the kings reach on
 * their two diagonals, diag_ne_bb (NE and SW) and diag_nw_bb, come from the
 * caller, merged so that every argument has its register: a value passed
 * on the stack, or an array by address, made the counts without a king's
 * capture slower (callgrind: +0.2% instructions on Czech). */
static __attribute__((noinline)) int kb_count_king_captures(const struct kb_ctx *x,
                                                            const struct kb_pos *p,
                                                            K_BB jumpers_bb, K_BB kings_bb,
                                                            K_BB diag_ne_bb, K_BB diag_nw_bb)
{
    int color = (p->side_bb[DM_BLACK] & kings_bb) != 0;
    if (kb_tally_holds(x)) {
        K_BB empty = K_ALL & ~(p->side_bb[0] | p->side_bb[1]), prey = p->side_bb[color ^ 1];
        bool longest = KB_PRECEDENCE(x) == PREC_QUANTITY;
        struct kb_ends e;
        e.count = 0;
        e.merge = x->merge;
        int t;
        if (!(kings_bb & (kings_bb - 1))) {
            /* North of the king, the lower squares. */
            K_BB north = kings_bb - 1;
            K_BB reach_ne = diag_ne_bb & north, reach_sw = diag_ne_bb & ~north & ~kings_bb;
            K_BB reach_nw = diag_nw_bb & north, reach_se = diag_nw_bb & ~north & ~kings_bb;
            t = kb_tally_king(&e, kings_bb, reach_ne, empty, prey, longest, DIR_NE);
            t = kb_tally_sum(t, kb_tally_king(&e, kings_bb, reach_nw, empty, prey, longest, DIR_NW),
                             longest);
            t = kb_tally_sum(t, kb_tally_king(&e, kings_bb, reach_se, empty, prey, longest, DIR_SE),
                             longest);
            t = kb_tally_sum(t, kb_tally_king(&e, kings_bb, reach_sw, empty, prey, longest, DIR_SW),
                             longest);
        } else {
            K_BB reach_ne = kb_reach(kings_bb, empty, DIR_NE);
            K_BB reach_nw = kb_reach(kings_bb, empty, DIR_NW);
            K_BB reach_se = kb_reach(kings_bb, empty, DIR_SE);
            K_BB reach_sw = kb_reach(kings_bb, empty, DIR_SW);
            t = kb_tally_kings(&e, kings_bb, reach_ne, empty, prey, longest, DIR_NE);
            t = kb_tally_sum(t, kb_tally_kings(&e, kings_bb, reach_nw, empty, prey, longest, DIR_NW),
                             longest);
            t = kb_tally_sum(t, kb_tally_kings(&e, kings_bb, reach_se, empty, prey, longest, DIR_SE),
                             longest);
            t = kb_tally_sum(t, kb_tally_kings(&e, kings_bb, reach_sw, empty, prey, longest, DIR_SW),
                             longest);
        }
        if (t < KB_TALLY_OVER) {
            if (!jumpers_bb)
                return t & 0xFFFF;
            /* The men's captures, from other squares than the kings': no
             * route of theirs is a king's. */
            struct kb_list l;
            l.count = 0;
            l.best = 0;
            kb_search_men(x, p, &l, color, jumpers_bb);
            if (!longest)
                return t + l.count;
            int men_jumps = (int)(l.best >> 40);
            if (men_jumps == t >> 16)
                return (t & 0xFFFF) + l.count;
            return men_jumps > t >> 16 ? l.count : t & 0xFFFF;
        }
    }
    return kb_count_captures(x, p, color, jumpers_bb, kings_bb);
}

/* The number of quiet moves of color's men. */
K_INLINE uint64_t kb_count_steps(const struct kb_pos *p, K_BB empty_bb, const int color)
{
    K_BB men = kb_men(p, color);
    if (K_MEN_NORTH(color))
        return (uint64_t)(K_POPCOUNT(kb_step_onto(men, DIR_NE, empty_bb)) +
                          K_POPCOUNT(kb_step_onto(men, DIR_NW, empty_bb)));
    return (uint64_t)(K_POPCOUNT(kb_step_onto(men, DIR_SE, empty_bb)) +
                      K_POPCOUNT(kb_step_onto(men, DIR_SW, empty_bb)));
}

/* The number of legal moves of color: captures searched only when one is
 * possible, quiet moves counted by popcount, never listed.  The men's
 * single jumps and the quiet moves are both counted, and one of the two
 * kept without a branch: whether a man can take follows no pattern (in the
 * narrow, capture-heavy trees of One Way and Parachute most counts are
 * single jumps), and the quiet count costs a few shifts. */
K_INLINE uint64_t kb_count(const struct kb_ctx *x, const struct kb_pos *p, const int color)
{
    if (K_FIRST_KING && x->first_king_ends && p->kings_bb)
        return 0;
    K_BB empty = K_ALL & ~(p->side_bb[0] | p->side_bb[1]);
    K_BB kings = p->side_bb[color] & p->kings_bb;
    int king_steps = 0;
    if (kings) {
        K_BB men_take = 1, reach[4]; /* cleared when a king's capture drops the men's */
        K_BB takers = kb_capturing_kings(x, p, color, &men_take, reach);
        if (takers) {
            K_BB jumpers = men_take ? kb_man_jumpers(x, p, color) : 0;
            int n = KB_TALLY ? kb_count_king_captures(x, p, jumpers, takers,
                                                      reach[DIR_NE] | reach[DIR_SW],
                                                      reach[DIR_NW] | reach[DIR_SE])
                             : kb_count_captures(x, p, color, jumpers, takers);
            if (n)
                return (uint64_t)n;
        }
        /* The rays of two kings in one direction never overlap: the one
         * behind stops at the other.  Rays in different directions may. */
        K_BB free = kb_free_kings(x, p, color);
        if (free != kings)
            K_UNROLL for (int d = 0; d < 4; d++)
                reach[d] = kb_reach(free, empty, d);
        if (!(free & (free - 1))) /* a lone king's rays never overlap */
            king_steps = K_POPCOUNT(reach[DIR_NE] | reach[DIR_NW] | reach[DIR_SE] | reach[DIR_SW]);
        else
            king_steps = K_POPCOUNT(reach[DIR_NE]) + K_POPCOUNT(reach[DIR_NW]) +
                         K_POPCOUNT(reach[DIR_SE]) + K_POPCOUNT(reach[DIR_SW]);
        if (takers)
            return (uint64_t)king_steps + kb_count_steps(p, empty, color);
    }
    K_BB lands[K_NDIRS], deep;
    bool kings_only;
    int n = 0;
    if (!kb_singles(x, p, color, lands, &deep, &kings_only)) {
        n = kb_count_captures(x, p, color, kb_man_jumpers(x, p, color), 0);
    } else {
        if (deep) {
            /* With majority capture a sequence that goes on beats every
             * single capture. */
            n = kb_count_deep(x, p, color, deep);
            if (KB_PRECEDENCE(x) & K_LONGER_WINS)
                return (uint64_t)n;
        }
        K_UNROLL for (int d = 0; d < K_NDIRS; d++)
            n += K_POPCOUNT(kings_only ? lands[d] & kb_step(p->kings_bb, d) : lands[d]);
    }
    uint64_t quiet = (uint64_t)king_steps + kb_count_steps(p, empty, color);
    return (uint64_t)n + (quiet & (0 - (uint64_t)(n == 0))); /* no branch */
}

/* Plays a move of color from p into c (dm_make_move's rules): the piece on
 * from lands on to, taking captured_bb; crown_bb is to when it lands as a
 * king (a king, or a man crowned), else nothing.  By masks, no branch:
 * whether the piece was a king or is crowned follows no pattern the
 * predictor could learn. */
K_INLINE void kb_play(const struct kb_ctx *x, const struct kb_pos *p, struct kb_pos *c,
                      const int color, K_BB from, K_BB to, K_BB captured_bb, K_BB crown_bb)
{
    c->side_bb[color] = (p->side_bb[color] & ~from) | to;
    c->side_bb[color ^ 1] = p->side_bb[color ^ 1] & ~captured_bb;
    c->kings_bb = (p->kings_bb & ~(captured_bb | from)) | crown_bb;
#if K_PARAS
    c->paras_bb = p->paras_bb & ~(captured_bb | from); /* it lands as a man */
#endif
#if K_KING_LIMIT
    c->king_sq[0] = p->king_sq[0];
    c->king_sq[1] = p->king_sq[1];
    c->king_moves[0] = p->king_moves[0];
    c->king_moves[1] = p->king_moves[1];
    if (x->king_limit) {
        /* Frisian rules: the quiet moves of one king in a row while its side has men;
         * anything else resets (dm_make_move). */
        int from_sq = K_CTZ(from);
        if ((p->kings_bb & from) && !captured_bb && (c->side_bb[color] & ~c->kings_bb)) {
            c->king_moves[color] =
                p->king_sq[color] == from_sq ? (uint8_t)(p->king_moves[color] + 1) : 1;
            c->king_sq[color] = (uint8_t)K_CTZ(to);
        } else {
            c->king_sq[color] = K_NO_SQ;
            c->king_moves[color] = 0;
        }
        int them = color ^ 1;
        if (c->king_sq[them] != K_NO_SQ && (captured_bb & (K_ONE << c->king_sq[them]))) {
            c->king_sq[them] = K_NO_SQ;
            c->king_moves[them] = 0;
        }
    }
#else
    (void)x;
#endif
}

/* Plays the lean move m of color from p into c. */
K_INLINE void kb_make(const struct kb_ctx *x, const struct kb_pos *p, const struct kb_move *m,
                      struct kb_pos *c, const int color)
{
    K_BB from = K_ONE << m->from_sq, to = K_ONE << m->to_sq;
    K_BB was_king = (p->kings_bb >> m->from_sq) & 1;
    kb_play(x, p, c, color, from, to, m->captured_bb, to & -(was_king | (K_BB)m->promotes));
}

static uint64_t kb_perft_2_white(const struct kb_ctx *x, const struct kb_pos *p);
static uint64_t kb_perft_2_black(const struct kb_ctx *x, const struct kb_pos *p);
static uint64_t kb_perft_white(const struct kb_ctx *x, const struct kb_pos *p, int depth);
static uint64_t kb_perft_black(const struct kb_ctx *x, const struct kb_pos *p, int depth);

/* Perft depth - 1 of c, color having played (depth >= 2): at depth 2 the
 * replies counted, not played (a constant there, so that the count is
 * inline). */
K_INLINE uint64_t kb_child(const struct kb_ctx *x, const struct kb_pos *c, const int color,
                           int depth)
{
    if (depth == 2)
        return kb_count(x, c, color ^ 1);
    if (depth == 3)
        return color == DM_WHITE ? kb_perft_2_black(x, c) : kb_perft_2_white(x, c);
    return color == DM_WHITE ? kb_perft_black(x, c, depth - 1) : kb_perft_white(x, c, depth - 1);
}

/* Perft depth - 1 after each capture of the men and parachutists of
 * deep_bb, kb_bulk_fits holding and every sequence legal (no majority):
 * played as found, each jump tested on the position's board (as in
 * kb_bulk_levels, so no two routes to merge), with no list.  A stack of
 * sequences under way: (from, where, taken). */
K_INLINE uint64_t kb_perft_bulk(const struct kb_ctx *x, const struct kb_pos *p, const int color,
                                K_BB deep_bb, int depth)
{
    struct kb_bulk b;
    kb_bulk_first(x, p, color, deep_bb, &b);
    /* Each jump pops one sequence and pushes at most two; the first jumps
     * are at most two per piece of the side. */
    struct {
        K_BB from, at, taken;
    } stack[2 * K_CELLS + K_ROWS];
    int top = 0;
    K_UNROLL for (int d = 0; d < K_NDIRS; d++)
        for (K_BB l = b.first_bb[d]; l; l &= l - 1) {
            K_BB to = l & -l;
            stack[top].from = kb_shift(to, d, -2);
            stack[top].at = to;
            stack[top].taken = kb_shift(to, d, -1);
            top++;
        }
    const unsigned dirs = K_MAN_DIRS(color);
    const int da = K_MEN_NORTH(color) ? DIR_NE : DIR_SE, db = K_MEN_NORTH(color) ? DIR_NW : DIR_SW;
    uint64_t nodes = 0;
    while (top) {
        top--;
        K_BB from = stack[top].from, at = stack[top].at, taken = stack[top].taken;
        if (at & b.on_bb) {
            K_BB la = kb_land(at, b.prey_bb, b.empty_bb, dirs, da);
            K_BB lb = kb_land(at, b.prey_bb, b.empty_bb, dirs, db);
            stack[top].from = from;
            stack[top].at = la;
            stack[top].taken = taken | kb_shift(la, da, -1);
            top += la != 0;
            stack[top].from = from;
            stack[top].at = lb;
            stack[top].taken = taken | kb_shift(lb, db, -1);
            top += lb != 0;
            continue;
        }
        struct kb_pos c;
        kb_play(x, p, &c, color, from, at, taken, at & KB_PROMO_BB(x, color));
        nodes += kb_child(x, &c, color, depth);
    }
    return nodes;
}

/* Perft depth - 1 after each quiet move of color's men in direction d (a
 * constant), played from the step set itself (a parachutist never
 * steps). */
K_INLINE uint64_t kb_perft_men_steps(const struct kb_ctx *x, const struct kb_pos *p, K_BB men_bb,
                                     K_BB empty_bb, const int color, const int d, int depth)
{
    uint64_t nodes = 0;
    for (K_BB b = kb_step_onto(men_bb, d, empty_bb); b; b &= b - 1) {
        struct kb_pos c;
        K_BB to = b & -b;
        kb_play(x, p, &c, color, kb_shift(to, d, -1), to, 0, to & KB_PROMO_BB(x, color));
        nodes += kb_child(x, &c, color, depth);
    }
    return nodes;
}

/* Perft depth - 1 after each single jump of color's men and parachutists,
 * played from their landing sets by direction.  Unrolled: the directions
 * no piece jumps in (a constant) leave no loop, and each direction's loop
 * exit is a branch of its own to predict (cachegrind, Parachute: 3% fewer
 * instructions, 14% fewer mispredictions than one loop over a table). */
K_INLINE uint64_t kb_perft_single_jumps(const struct kb_ctx *x, const struct kb_pos *p,
                                        const K_BB lands_bb[K_NDIRS], const int color, int depth)
{
    uint64_t nodes = 0;
    K_UNROLL for (int d = 0; d < K_NDIRS; d++)
        for (K_BB b = lands_bb[d]; b; b &= b - 1) {
            struct kb_pos c;
            K_BB to = b & -b;
            kb_play(x, p, &c, color, kb_shift(to, d, -2), to, kb_shift(to, d, -1),
                    to & KB_PROMO_BB(x, color));
            nodes += kb_child(x, &c, color, depth);
        }
    return nodes;
}

/* Perft depth - 1 after each quiet move of color's free kings: every
 * square of a king's four lines at once (they never overlap).  Found here,
 * not kept from kb_capturing_kings: kept, they would be found at every
 * node with kings, where only the hit test is needed unless nothing
 * captures (cachegrind: more instructions). */
K_INLINE uint64_t kb_perft_king_steps(const struct kb_ctx *x, const struct kb_pos *p,
                                      K_BB empty_bb, const int color, int depth)
{
    uint64_t nodes = 0;
    for (K_BB b = kb_free_kings(x, p, color); b; b &= b - 1) {
        K_BB from = b & -b;
        K_BB to_bb = kb_king_lines(from, empty_bb);
        for (; to_bb; to_bb &= to_bb - 1) {
            struct kb_pos c;
            K_BB to = to_bb & -to_bb;
            kb_play(x, p, &c, color, from, to, 0, to);
            nodes += kb_child(x, &c, color, depth);
        }
    }
    return nodes;
}

/* On 8x8 (a 35-bit board) the two landing sets of the men's forward moves
 * of one node, quiet steps or single jumps, fit one word side by side,
 * each cut down to the rows its squares can be on: one loop plays them
 * both, one loop exit to mispredict per node instead of two (the narrow
 * trees spend a good part of their time on those); with parachutists,
 * whose first jumps land on one row, the four directions' jumps fit one
 * word too.  Only in the
 * narrow trees (One Way, Parachute): where nodes have many quiet moves the
 * decoding per move costs more than the exits saved (bench perft: Czech and
 * English 7% slower). */
#define K_PACK                                                                                     \
    ((K_ONE_WAY || K_PARAS) && !K_WIDE && K_HALF == 4 && K_ROWS == 8 && !K_ORTH && !K_MEN_BACK &&  \
     (!K_PARAS || K_CZECH))

#if K_PACK
/* The squares of rows r0.. of b, moved to bit at (constants). */
#define K_LANE(b, r0, at) (((b) >> K_ROW_OFFSET(r0)) << (at))
#define K_LANE_W(r0, r1)  (K_ROW_OFFSET(r1) + K_HALF - K_ROW_OFFSET(r0))
/* The rows a forward move of k steps of color's men may land on. */
#define K_FWD_ROW0(color, k) (K_MEN_NORTH(color) ? 0 : (k))
#define K_FWD_ROW1(color, k) (K_MEN_NORTH(color) ? K_ROWS - 1 - (k) : K_ROWS - 1)
_Static_assert(2 * K_LANE_W(0, K_ROWS - 2) <= 64, "two step sets fit a word");

/* Perft depth - 1 after each forward move of k steps (1: quiet, 2: a
 * jump) of color's men, from the two directions' landing sets a_bb and
 * b_bb packed side by side, decoded by shifts: a table's load lengthened
 * the path to the child's count (bench perft: One Way 8% slower). */
K_INLINE uint64_t kb_perft_two_lanes(const struct kb_ctx *x, const struct kb_pos *p, K_BB a_bb,
                                     K_BB b_bb, const int color, const int k, int depth)
{
    const int da = K_MEN_NORTH(color) ? DIR_NE : DIR_SE, db = K_MEN_NORTH(color) ? DIR_NW : DIR_SW;
    const int r0 = K_FWD_ROW0(color, k), w = K_LANE_W(r0, K_FWD_ROW1(color, k));
    const K_BB lane_a = (K_ONE << w) - 1;
    uint64_t nodes = 0;
    for (K_BB b = K_LANE(a_bb, r0, 0) | K_LANE(b_bb, r0, w); b; b &= b - 1) {
        struct kb_pos c;
        K_BB low = b & -b, to_a = (low & lane_a) << K_ROW_OFFSET(r0);
        K_BB to_b = (low >> w) << K_ROW_OFFSET(r0), to = to_a | to_b;
        K_BB taken = k == 2 ? kb_shift(to_a, da, -1) | kb_shift(to_b, db, -1) : 0;
        kb_play(x, p, &c, color, kb_shift(to_a, da, -k) | kb_shift(to_b, db, -k), to, taken,
                to & KB_PROMO_BB(x, color));
        nodes += kb_child(x, &c, color, depth);
    }
    return nodes;
}

#if K_PARAS
/* The row a parachutist of color lands on: behind its prey's row. */
#define K_PARA_ROW(color) ((color) == DM_WHITE ? 2 : K_ROWS - 3)
_Static_assert(2 * K_LANE_W(0, K_ROWS - 3) + 2 * K_HALF <= 64, "four jump sets fit a word");

/* The single jumps of lands_bb (by direction) of color, packed: the men's
 * two directions, then the row the parachutists' first jumps land on
 * (their only one, K_CZECH) for each of theirs.  The rows' masks change
 * nothing but were faster (bench perft: Parachute 5%, code placement?). */
K_INLINE K_BB kb_pack_jumps(const K_BB lands_bb[K_NDIRS], const int color)
{
    const int da = K_MEN_NORTH(color) ? DIR_NE : DIR_SE, db = K_MEN_NORTH(color) ? DIR_NW : DIR_SW;
    const int pa = K_MEN_NORTH(color) ? DIR_SE : DIR_NE, pb = K_MEN_NORTH(color) ? DIR_SW : DIR_NW;
    const int r0 = K_FWD_ROW0(color, 2), w = K_LANE_W(r0, K_FWD_ROW1(color, 2));
    const int r = K_PARA_ROW(color);
    return K_LANE(lands_bb[da], r0, 0) | K_LANE(lands_bb[db], r0, w) |
           K_LANE(lands_bb[pa] & K_ROW_BB(r), r, 2 * w) |
           K_LANE(lands_bb[pb] & K_ROW_BB(r), r, 2 * w + K_HALF);
}

/* The single jumps by their bit in kb_pack_jumps: [color][bit].  Read from
 * a table: four directions' shifts would cost more than the load. */
struct kb_jump {
    K_BB from, to, taken;
};
static struct kb_jump kb_jumps[2][64];

/* Each jump's bit found by packing it alone: the men's forwards, the
 * parachutists' backwards onto their row. */
static __attribute__((constructor)) void kb_init_jumps(void)
{
    for (int color = 0; color < 2; color++)
        for (int d = 0; d < K_NDIRS; d++)
            for (K_BB b = K_FWD_DIRS(color) & DIRBIT(d) ? K_ALL : K_ROW_BB(K_PARA_ROW(color)); b;
                 b &= b - 1) {
                K_BB to = b & -b, lands[K_NDIRS] = {0};
                K_BB over = kb_step(to, kb_opposite(d)), from = kb_step(over, kb_opposite(d));
                lands[d] = to;
                K_BB bit = color == DM_WHITE ? kb_pack_jumps(lands, DM_WHITE)
                                             : kb_pack_jumps(lands, DM_BLACK);
                if (bit && from)
                    kb_jumps[color][K_CTZ(bit)] = (struct kb_jump){from, to, over};
            }
}

/* Perft depth - 1 after each single jump of lands_bb (by direction). */
K_INLINE uint64_t kb_perft_packed_jumps(const struct kb_ctx *x, const struct kb_pos *p,
                                        const K_BB lands_bb[K_NDIRS], const int color, int depth)
{
    uint64_t nodes = 0;
    for (K_BB b = kb_pack_jumps(lands_bb, color); b; b &= b - 1) {
        struct kb_pos c;
        const struct kb_jump *m = &kb_jumps[color][K_CTZ(b)];
        kb_play(x, p, &c, color, m->from, m->to, m->taken, m->to & KB_PROMO_BB(x, color));
        nodes += kb_child(x, &c, color, depth);
    }
    return nodes;
}
#endif
#endif

/* Perft of color to move, depth >= 2: every move played, and at depth 2
 * (a constant there) each reply counted, not played.  Quiet moves and the
 * men's single jumps, most moves of the narrow trees, are played straight
 * from their sets, with no list written and read back; only the other
 * captures go through the lean list and kb_make. */
K_INLINE uint64_t kb_perft_moves(const struct kb_ctx *x, const struct kb_pos *p, const int color,
                                 int depth)
{
    if (K_FIRST_KING && x->first_king_ends && p->kings_bb)
        return 0;
    struct kb_list l;
    l.count = 0;
    l.best = 0;
    uint64_t nodes = 0;
    K_BB jumpers = 1, reach[4]; /* cleared when a king's capture drops the men's */
    K_BB kings = kb_capturing_kings(x, p, color, &jumpers, reach);
    K_BB lands[K_NDIRS], deep;
    bool kings_only, captures;
    if (kings || !kb_singles(x, p, color, lands, &deep, &kings_only)) {
        struct kb_search s;
        s.x = x;
        s.list = &l;
        s.sink = NULL;
        kb_captures(&s, p, color, jumpers ? kb_man_jumpers(x, p, color) : 0, kings);
        captures = l.count > 0;
    } else {
        K_BB all = deep; /* the men whose jumps go on are not in lands */
        K_UNROLL for (int d = 0; d < K_NDIRS; d++)
            all |= lands[d];
        captures = all != 0;
        if (deep) {
            if (kb_bulk_fits(x, p, color) && !(KB_PRECEDENCE(x) & K_LONGER_WINS))
                nodes += kb_perft_bulk(x, p, color, deep, depth);
            else
                kb_search_men(x, p, &l, color, deep);
        }
        /* With majority capture a sequence that goes on beats every single
         * capture. */
        if (captures && !(deep && (KB_PRECEDENCE(x) & K_LONGER_WINS))) {
            if (kings_only)
                K_UNROLL for (int d = 0; d < K_NDIRS; d++)
                    lands[d] &= kb_step(p->kings_bb, d);
#if K_PACK
#if K_PARAS
            nodes += kb_perft_packed_jumps(x, p, lands, color, depth);
#else
            if (K_MEN_NORTH(color))
                nodes += kb_perft_two_lanes(x, p, lands[DIR_NE], lands[DIR_NW], color, 2, depth);
            else
                nodes += kb_perft_two_lanes(x, p, lands[DIR_SE], lands[DIR_SW], color, 2, depth);
#endif
#else
            nodes += kb_perft_single_jumps(x, p, lands, color, depth);
#endif
        }
    }
    for (int i = 0; i < l.count; i++) {
        struct kb_pos c;
        kb_make(x, p, &l.moves[i], &c, color);
        nodes += kb_child(x, &c, color, depth);
    }
    if (captures)
        return nodes;
    K_BB empty = K_ALL & ~(p->side_bb[0] | p->side_bb[1]);
    K_BB men = kb_men(p, color);
#if K_PACK
    if (K_MEN_NORTH(color))
        nodes = kb_perft_two_lanes(x, p, kb_step_onto(men, DIR_NE, empty),
                                   kb_step_onto(men, DIR_NW, empty), color, 1, depth);
    else
        nodes = kb_perft_two_lanes(x, p, kb_step_onto(men, DIR_SE, empty),
                                   kb_step_onto(men, DIR_SW, empty), color, 1, depth);
#else
    if (K_MEN_NORTH(color))
        nodes = kb_perft_men_steps(x, p, men, empty, color, DIR_NE, depth) +
                kb_perft_men_steps(x, p, men, empty, color, DIR_NW, depth);
    else
        nodes = kb_perft_men_steps(x, p, men, empty, color, DIR_SE, depth) +
                kb_perft_men_steps(x, p, men, empty, color, DIR_SW, depth);
#endif
    if (p->side_bb[color] & p->kings_bb)
        nodes += kb_perft_king_steps(x, p, empty, color, depth);
    return nodes;
}

/* Perft 2, out of line per colour: called straight from depth 3, the most
 * common call, with none of the deeper levels' tests. */
static __attribute__((noinline)) uint64_t kb_perft_2_white(const struct kb_ctx *x,
                                                           const struct kb_pos *p)
{
    return kb_perft_moves(x, p, DM_WHITE, 2);
}

static __attribute__((noinline)) uint64_t kb_perft_2_black(const struct kb_ctx *x,
                                                           const struct kb_pos *p)
{
    return kb_perft_moves(x, p, DM_BLACK, 2);
}

/* Perft of color to move, depth >= 2; the last ply counted, not played
 * (with no call per leaf's parent: its count is inline in kb_perft_2_*). */
K_INLINE uint64_t kb_perft_side(const struct kb_ctx *x, const struct kb_pos *p, int depth,
                                const int color)
{
    if (depth == 2)
        return color == DM_WHITE ? kb_perft_2_white(x, p) : kb_perft_2_black(x, p);
    return kb_perft_moves(x, p, color, depth);
}

static uint64_t kb_perft_white(const struct kb_ctx *x, const struct kb_pos *p, int depth)
{
    return kb_perft_side(x, p, depth, DM_WHITE);
}

static uint64_t kb_perft_black(const struct kb_ctx *x, const struct kb_pos *p, int depth)
{
    return kb_perft_side(x, p, depth, DM_BLACK);
}

/* Converts pos, the rules and the call's options once, at entry. */
static void kb_load(const struct kernel_rules *r, const dm_position *pos, unsigned flags,
                    struct kb_pos *p, struct kb_ctx *x)
{
    bool mirrored = r->mirrored;
    if (K_HALF != 4 && mirrored)
        abort(); /* only M8, an 8x8 board, is mirrored (kb_mirror_rows) */
    dm_bits cells = ((dm_bits)1 << K_CELLS) - 1;
    p->side_bb[DM_WHITE] = kb_bb_of(pos->white & cells, mirrored);
    p->side_bb[DM_BLACK] = kb_bb_of(pos->black & cells, mirrored);
    p->kings_bb = kb_bb_of(pos->kings & cells, mirrored);
#if K_PARAS
    p->paras_bb = kb_bb_of(pos->paras & cells, mirrored);
#endif
    for (int color = 0; color < 2; color++) {
#if K_KING_LIMIT
        int cell = pos->king_cell[color];
        bool counted = cell < K_CELLS && pos->king_moves[color] > 0;
        p->king_sq[color] = counted ? (uint8_t)kb_sq_of_cell(cell, mirrored) : K_NO_SQ;
        p->king_moves[color] = counted ? pos->king_moves[color] : 0;
#endif
        x->promo_bb[color] = kb_bb_of(r->promo_cells[color], mirrored);
#if K_PARAS
        x->para_prey_bb[color] = kb_bb_of(r->para_cells[color], mirrored);
#endif
    }
#if K_CZECH
    /* kernel_for() serves no record whose rules differ from those compiled
     * in (kernel.c's czech_rules). */
    bool fits = r->precedence == PREC_WITH_KING && r->promotion == PROMOTE_END_ONLY &&
                !r->spares_kings;
    for (int color = 0; color < 2; color++) {
        fits &= x->promo_bb[color] == KB_PROMO_BB(x, color);
#if K_PARAS
        fits &= x->para_prey_bb[color] == KB_PARA_PREY(x, color);
#endif
    }
    if (!fits)
        abort();
#endif
    x->precedence = r->precedence;
    x->promotion = r->promotion;
    x->king_dirs = r->king_jump_dirs;
    x->killer = r->killer;
    x->spares = r->spares_kings;
    x->first_king_ends = r->first_king_ends;
    x->king_limit = r->king_limit;
    x->mirrored = mirrored;
    x->merge = !(flags & DM_GEN_KEEP_DUPLICATES);
    x->bulk = r->promotion != PROMOTE_CONTINUE_AS_KING;
    x->kings_weigh =
        (r->precedence & (PREC_VALUE | PREC_MOST_KINGS | PREC_EARLIEST_KINGS)) && !r->spares_kings;
}

/* The board direction (enum dir, as refgen.c walks them) from cell a towards
 * cell b on one line, and how far: the layout's own direction, mirrored back
 * on M8. */
static int kb_board_dir(int a_cell, int b_cell, bool mirrored, int *distance)
{
    int a = kb_sq_of_cell(a_cell, mirrored), b = kb_sq_of_cell(b_cell, mirrored);
    int ca = a - a / (2 * K_HALF + 1), cb = b - b / (2 * K_HALF + 1);
    int ra = ca / K_HALF, rb = cb / K_HALF;
    int fa = 2 * (ca % K_HALF) + !(ra & 1), fb = 2 * (cb % K_HALF) + !(rb & 1);
    int dr = rb - ra, df = fb - fa;
    if (mirrored)
        df = -df;
    *distance = (dr < 0 ? -dr : dr) + (df < 0 ? -df : df);
    if (dr && df)
        return dr < 0 ? (df > 0 ? DIR_NE : DIR_NW) : (df > 0 ? DIR_SE : DIR_SW);
    if (df)
        return df > 0 ? DIR_E : DIR_W;
    return dr < 0 ? DIR_N : DIR_S;
}

/* refgen.c's order of two captures: by piece, then jump by jump by
 * direction and by landing square, nearest first (its depth-first walk). */
static int kb_route_order(const dm_move *a, const dm_move *b, bool mirrored)
{
    if (a->from != b->from)
        return a->from < b->from ? -1 : 1;
    int at_a = a->from, at_b = b->from;
    for (int i = 0; i < a->njumps && i < b->njumps; i++) {
        int da, db, ta, tb;
        int dir_a = kb_board_dir(at_a, a->captured[i], mirrored, &da);
        int dir_b = kb_board_dir(at_b, b->captured[i], mirrored, &db);
        if (dir_a != dir_b)
            return dir_a < dir_b ? -1 : 1;
        kb_board_dir(a->captured[i], a->path[i], mirrored, &ta);
        kb_board_dir(b->captured[i], b->path[i], mirrored, &tb);
        if (ta != tb)
            return ta < tb ? -1 : 1;
        at_a = a->path[i];
        at_b = b->path[i];
    }
    return (a->njumps > b->njumps) - (a->njumps < b->njumps);
}

/* Cells to squares and back by table, [mirrored][...]: the quiet moves'
 * lists convert every from and to. */
static uint8_t kb_sq_at[2][K_CELLS], kb_cell_at[2][2 * K_CELLS];

static __attribute__((constructor)) void kb_init_cell_tables(void)
{
    for (int mirrored = 0; mirrored < 2; mirrored++)
        for (int cell = 0; cell < K_CELLS; cell++) {
            int sq = kb_sq_of_cell(cell, mirrored);
            kb_sq_at[mirrored][cell] = (uint8_t)sq;
            kb_cell_at[mirrored][sq] = (uint8_t)cell;
        }
}

/* Each diagonal of the board as the kernel's direction on M8 (mirrored
 * left to right). */
static const int kb_mirror_dir[4] = {DIR_NW, DIR_NE, DIR_SW, DIR_SE};

/* The quiet moves of every piece of movers, the cells in ascending order
 * and each piece's directions in the order NE, NW, SE, SW of the board
 * (the kernel's own, mirrored on M8); mirrored a constant, so that every
 * step is a shift. */
K_INLINE void kb_quiet_moves(const struct kb_ctx *x, K_BB movers, K_BB kings, K_BB empty,
                             int color, struct move_sink *sink, const bool mirrored)
{
    const uint8_t *sq_at = kb_sq_at[mirrored], *cell_at = kb_cell_at[mirrored];
    K_BB promo = x->promo_bb[color];
    dm_move_list *list = sink->list;
    for (dm_bits b = kb_cells_of(movers, mirrored); b; b &= b - 1) {
        int cell = ctz128(b);
        K_BB from = K_ONE << sq_at[cell];
        bool king = (kings & from) != 0;
        K_UNROLL for (int d = 0; d < 4; d++) {
            bool north = d == DIR_NE || d == DIR_NW;
            bool forward = K_MEN_NORTH(color) ? north : !north;
            if (!king && !forward)
                continue;
            const int kd = mirrored ? kb_mirror_dir[d] : d;
            for (K_BB to = kb_step(from, kd) & empty; to; to = kb_step(to, kd) & empty) {
                if (list->count == DM_MAX_MOVES) {
                    sink->overflow = true;
                    return;
                }
                dm_move *m = &list->moves[list->count++];
                memset(m, 0, sizeof *m);
                m->from = (uint8_t)cell;
                m->to = cell_at[K_CTZ(to)];
                m->flags = !king && (to & promo) ? DM_MOVE_PROMOTES : 0;
                if (!king || !K_FLYING)
                    break;
            }
        }
    }
}

/* Appends color's quiet moves to the sink in refgen.c's order: piece by
 * piece, directions in enum order, nearest square first.  Only the pieces
 * with a step to make are visited (a few shifts find them: in most
 * positions the blocked pieces are many), and each move is written
 * straight into the list (quiet moves have no precedence and no
 * duplicates; the list holds no capture when they are generated). */
static void kb_full_quiet(const struct kb_ctx *x, const struct kb_pos *p, int color,
                          struct move_sink *sink)
{
    static const int back[4] = {DIR_SW, DIR_SE, DIR_NW, DIR_NE}; /* each diagonal's opposite */
    K_BB empty = K_ALL & ~(p->side_bb[0] | p->side_bb[1]);
    K_BB kings = kb_free_kings(x, p, color); /* a parachutist only ever captures */
    K_BB men = p->side_bb[color] & ~p->kings_bb & ~kb_paras(p, color);
    K_BB movers = 0;
    for (int d = 0; d < 4; d++) {
        bool north = d == DIR_NE || d == DIR_NW;
        bool forward = K_MEN_NORTH(color) ? north : !north;
        int kd = x->mirrored ? kb_mirror_dir[d] : d;
        movers |= (forward ? men | kings : kings) & kb_step(empty, back[kd]);
    }
    if (K_HALF == 4 && x->mirrored)
        kb_quiet_moves(x, movers, kings, empty, color, sink, true);
    else
        kb_quiet_moves(x, movers, kings, empty, color, sink, false);
}

int K_NAME(generate)(const struct kernel_rules *r, const dm_position *pos, dm_move_list *list,
                     unsigned flags)
{
    struct kb_pos p;
    struct kb_ctx x;
    struct move_sink sink;
    int color = pos->side;
    sink_init(&sink, list, flags);
    kb_load(r, pos, flags, &p, &x);
    if (K_FIRST_KING && r->first_king_ends && p.kings_bb)
        return 0;
    K_BB jumpers = kb_man_jumpers(&x, &p, color);
    if (jumpers | (p.side_bb[color] & p.kings_bb)) {
        struct kb_search s;
        s.x = &x;
        s.list = NULL;
        s.sink = &sink;
        kb_captures(&s, &p, color, jumpers, p.side_bb[color] & p.kings_bb);
        /* The same order as the reference generator, so that whoever walks
         * the list meets the moves as before (insertion: few captures). */
        for (int i = 1; i < list->count; i++) {
            dm_move m = list->moves[i];
            int j = i;
            for (; j > 0 && kb_route_order(&m, &list->moves[j - 1], r->mirrored) < 0; j--)
                list->moves[j] = list->moves[j - 1];
            list->moves[j] = m;
        }
    }
    if (list->count == 0)
        kb_full_quiet(&x, &p, color, &sink);
    return sink.overflow ? -1 : list->count;
}

uint64_t K_NAME(perft)(const struct kernel_rules *r, const dm_position *pos, int depth,
                       unsigned flags)
{
    struct kb_pos p;
    struct kb_ctx x;
    kb_load(r, pos, flags, &p, &x);
    if (depth <= 0)
        return 1;
    if (depth == 1)
        return pos->side == DM_WHITE ? kb_count(&x, &p, DM_WHITE) : kb_count(&x, &p, DM_BLACK);
    return pos->side == DM_WHITE ? kb_perft_white(&x, &p, depth) : kb_perft_black(&x, &p, depth);
}

/* What the search's horizon needs of a position (kernel_leaf): 2 when
 * color may capture (the move list holds captures only), 1 when it has
 * quiet moves only, 0 when it has no move.  The tests kb_count makes
 * before it counts, and no list: a capture exists exactly when a man or a
 * parachutist has a first jump (kb_man_jumpers) or a king's line meets a
 * piece it may take (kb_capturing_kings). */
int K_NAME(leaf)(const struct kernel_rules *r, const dm_position *pos)
{
    struct kb_pos p;
    struct kb_ctx x;
    kb_load(r, pos, 0, &p, &x);
    if (K_FIRST_KING && x.first_king_ends && p.kings_bb)
        return 0;
    int color = pos->side;
    if (kb_man_jumpers(&x, &p, color))
        return 2;
    K_BB empty = K_ALL & ~(p.side_bb[0] | p.side_bb[1]);
    if (p.side_bb[color] & p.kings_bb) {
        K_BB men_take = 1, reach[4];
        if (kb_capturing_kings(&x, &p, color, &men_take, reach))
            return 2;
        K_BB free = kb_free_kings(&x, &p, color);
        if (kb_step_onto(free, DIR_NE, empty) | kb_step_onto(free, DIR_NW, empty) |
            kb_step_onto(free, DIR_SE, empty) | kb_step_onto(free, DIR_SW, empty))
            return 1; /* a king steps to a square next to it */
    }
    return color == DM_WHITE ? kb_count_steps(&p, empty, DM_WHITE) != 0
                             : kb_count_steps(&p, empty, DM_BLACK) != 0;
}
