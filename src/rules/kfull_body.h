/* SPDX-License-Identifier: MIT */
/*
 * kfull_body.h - the full-board kernel body, compiled once per rule set.
 *
 * Bitboard move generation for the 8x8 board of all 64 squares and the 5x5
 * alquerque grid (the orthogonal games of docs/variants.md), tuned for perft and search: the
 * position is three 64-bit words, a step in a direction is one shift and one
 * mask, quiet moves are counted by popcount at the last ply, and captures
 * are searched depth first on bitboards (the enemy pieces still to take, the
 * cells to land on or fly across), one piece at a time.  It produces exactly
 * refgen.c's moves; the differential test (tests/unit/test_kfull_diff.c)
 * checks that at every node of random games.
 *
 * An instance file (kfull_f8_rook.c, ...) defines the rules as constants and
 * includes this body once (DESIGN.md 3), so every rules test below is a
 * constant the compiler folds away:
 *
 *   KF_NAME            the kernel descriptor's name
 *   KF_Q5              1: the alquerque grid, 0: the full 8x8 board
 *   KF_MAN_STEPS       White's man quiet step directions (Black's mirrored)
 *   KF_MAN_JUMPS       White's man first jump directions
 *   KF_MAN_LATER_JUMPS White's man second and later jump directions
 *   KF_KING            enum king_range
 *   KF_KING_STEPS      king move directions (0 without kings)
 *   KF_KING_JUMPS      king capture directions (0 without kings)
 *   KF_REMOVAL         enum removal
 *   KF_REVERSAL_BAN    no 180-degree turn between two jumps
 *   KF_PROMOTION       enum promotion
 *   KF_PRECEDENCE      0 or PREC_QUANTITY
 *   KF_LINEAR          Dameo's linear moves
 *   KF_FAR_ROW         enum far_row (Alquerque)
 *   KF_STRAIGHT        every later jump keeps the first one's direction (Hawaiian)
 *   KF_OPTIONAL        a capture may stop after any jump (Hawaiian)
 *   KF_OPENING         opening removals (Hawaiian)
 *
 * Layout: bit i is cell i on both boards (F8: (7 - rank) * 8 + file; Q5:
 * (4 - rank) * 5 + file), so north is a right shift by the width.  Q5's
 * diagonal lines pass only through its even points, which are exactly the
 * even cells (the width is odd), so a diagonal step masks its sources with
 * the even cells.  Nothing here allocates; the move lists live on the stack.
 */
#include <string.h>

#include "base/bits.h"
#include "rules/kfull.h"
#include "rules/movelist.h"

#if KF_Q5
#define KF_GEOMETRY   GEOM_Q5
#define KF_WIDTH      5
#define KF_ALL        0x1FFFFFFull
#define KF_FILE_FIRST 0x0108421ull
#define KF_FILE_LAST  0x1084210ull
#define KF_DIAG_FROM  0x1555555ull
#else
#define KF_GEOMETRY   GEOM_F8
#define KF_WIDTH      8
#define KF_ALL        0xFFFFFFFFFFFFFFFFull
#define KF_FILE_FIRST 0x0101010101010101ull
#define KF_FILE_LAST  0x8080808080808080ull
#define KF_DIAG_FROM  0xFFFFFFFFFFFFFFFFull
#endif

/* A White direction set mirrored north/south for Black (enum dir order:
 * NE NW SE SW N S E W). */
#define KF_FLIP(m)                                                                                 \
    (((0x03u & (m)) << 2) | (0x03u & ((m) >> 2)) | ((0x10u & (m)) << 1) | (0x10u & ((m) >> 1)) |   \
     (0xC0u & (m)))
#define KF_OF(c, m) ((c) == DM_WHITE ? (unsigned)(m) : KF_FLIP(m))

/* Every direction any piece jumps in; the others are compiled out. */
#define KF_JUMP_DIRS                                                                               \
    ((unsigned)(KF_MAN_JUMPS) | KF_FLIP(KF_MAN_JUMPS) | (unsigned)(KF_MAN_LATER_JUMPS) |           \
     KF_FLIP(KF_MAN_LATER_JUMPS) | (unsigned)(KF_KING_JUMPS))

#define KF_QUANTITY ((PREC_QUANTITY & (KF_PRECEDENCE)) != 0)
#define KF_FLYING   ((KF_KING) == KING_FLYING)

#define KF_STR2(x) #x
#define KF_STR(x)  KF_STR2(x)

/* A move as perft needs it: enough to make it and to merge duplicates. */
struct kf_move {
    uint64_t captured_bb;
    uint8_t from_sq, to_sq;
    uint8_t njumps;
    uint8_t flags; /* enum dm_move_flags */
};

/* The moves of one position, capture precedence applied on insertion. */
struct kf_list {
    int count;
    int best;  /* jumps of the captures listed (quantity precedence) */
    bool keep; /* DM_GEN_KEEP_DUPLICATES */
    struct kf_move moves[DM_MAX_MOVES];
};

/* A position as the kernel keeps it: bit i of a word is cell i. */
struct kf_pos {
    uint64_t pieces_bb[2]; /* per colour */
    uint64_t kings_bb;     /* both colours */
    int side;
};

/* What the variant record says beyond the compiled constants. */
struct kf_ctx {
    uint64_t promo_bb[2]; /* where each colour's men are crowned */
    uint64_t far_bb[2];   /* each colour's far row */
    uint64_t opening_bb;  /* opening removal cells */
    bool keep;            /* DM_GEN_KEEP_DUPLICATES */
    bool every_landing;   /* ... with DM_GEN_EVERY_LANDING */
};

/* The depth-first capture search of one piece.  What changes with each
 * jump (the enemy pieces still to take, the cells to land on, the jump
 * count) travels by value down the recursion, so nothing is restored on
 * the way back; the captured set is what left opp_bb.  Moves go to the lean
 * list (perft) or, when sink is set, with their whole route to the caller's
 * list (kfull_generate). */
struct kf_search {
    uint64_t start_opp_bb;          /* enemy pieces before the move        */
    uint64_t promo_bb;              /* the mover's promotion cells         */
    int from_sq;                    /* where the moving piece started      */
    bool king_captor;               /* it was a king then                  */
    bool every_landing;             /* kept routes straight on from every
                                       landing, not the nearest alone      */
    int color;                      /* the side to move                    */
    struct kf_list *lean;           /* perft's list, or NULL               */
    struct move_sink *sink;         /* kfull_generate's list, or NULL      */
    uint8_t path[DM_MAX_JUMPS];     /* landing cell of each jump           */
    uint8_t captured[DM_MAX_JUMPS]; /* cell jumped over by each jump       */
};

/* ---- geometry ----------------------------------------------------------- */

/* The cells one step from b in direction d (d a constant after inlining). */
static inline uint64_t kf_shift(uint64_t b, int d)
{
    switch (d) {
    case DIR_N:
        return b >> KF_WIDTH;
    case DIR_S:
        return (b << KF_WIDTH) & KF_ALL;
    case DIR_E:
        return (b << 1) & ~KF_FILE_FIRST & KF_ALL;
    case DIR_W:
        return (b >> 1) & ~KF_FILE_LAST;
    case DIR_NE:
        return ((b & KF_DIAG_FROM) >> (KF_WIDTH - 1)) & ~KF_FILE_FIRST;
    case DIR_NW:
        return ((b & KF_DIAG_FROM) >> (KF_WIDTH + 1)) & ~KF_FILE_LAST;
    case DIR_SE:
        return ((b & KF_DIAG_FROM) << (KF_WIDTH + 1)) & ~KF_FILE_FIRST & KF_ALL;
    default: /* DIR_SW */
        return ((b & KF_DIAG_FROM) << (KF_WIDTH - 1)) & ~KF_FILE_LAST & KF_ALL;
    }
}

/* How the bit index changes by one step in direction d. */
static inline int kf_delta(int d)
{
    switch (d) {
    case DIR_N:
        return -KF_WIDTH;
    case DIR_S:
        return KF_WIDTH;
    case DIR_E:
        return 1;
    case DIR_W:
        return -1;
    case DIR_NE:
        return 1 - KF_WIDTH;
    case DIR_NW:
        return -1 - KF_WIDTH;
    case DIR_SE:
        return KF_WIDTH + 1;
    default: /* DIR_SW */
        return KF_WIDTH - 1;
    }
}

static inline int kf_opposite(int d)
{
    return d < DIR_N ? 3 - d : d ^ 1;
}

/* The cell of cells_bb (on one ray in direction d) nearest to where the
 * ray starts: the reference generator walks rays outwards, and the lists
 * keep its order. */
static inline int kf_nearest(uint64_t cells_bb, int d)
{
    if (!KF_FLYING)
        return ctz64(cells_bb); /* a short jump lands on one cell */
    return kf_delta(d) > 0 ? ctz64(cells_bb) : 63 - __builtin_clzll(cells_bb);
}

/* ---- output ------------------------------------------------------------- */

/* Adds a quiet move or a removal (never merged, no precedence). */
static inline void kf_add_plain(struct kf_list *lean, struct move_sink *sink, int from_sq,
                                int to_sq, unsigned flags)
{
    if (sink) {
        dm_move m;
        memset(&m, 0, sizeof m);
        m.from = (uint8_t)from_sq;
        m.to = (uint8_t)to_sq;
        m.flags = (uint8_t)flags;
        sink_add(sink, &m, 0);
        return;
    }
    if (lean->count == DM_MAX_MOVES)
        return; /* as the reference generator: the list holds the first ones */
    struct kf_move *m = &lean->moves[lean->count++];
    m->captured_bb = 0;
    m->from_sq = (uint8_t)from_sq;
    m->to_sq = (uint8_t)to_sq;
    m->njumps = 0;
    m->flags = (uint8_t)flags;
}

/* Adds a complete capture sequence under quantity precedence, merging it
 * into an equal one (same from, to and captured set) unless keep. */
static inline void kf_add_capture(struct kf_list *l, uint64_t captured_bb, int from_sq, int to_sq,
                                  int njumps, unsigned flags)
{
    if (KF_QUANTITY) {
        if (njumps < l->best)
            return;
        if (njumps > l->best) {
            l->best = njumps;
            l->count = 0;
        }
    }
    if (!l->keep && njumps > 1)
        for (int i = 0; i < l->count; i++) {
            const struct kf_move *o = &l->moves[i];
            if (o->captured_bb == captured_bb && o->to_sq == to_sq && o->from_sq == from_sq)
                return;
        }
    if (l->count == DM_MAX_MOVES)
        return;
    struct kf_move *m = &l->moves[l->count++];
    m->captured_bb = captured_bb;
    m->from_sq = (uint8_t)from_sq;
    m->to_sq = (uint8_t)to_sq;
    m->njumps = (uint8_t)njumps;
    m->flags = (uint8_t)flags;
}

/* The sequence of n jumps searched so far ends on to_sq, opp_bb left of
 * the enemy; king: the piece made its last jump as a king (a man crowned
 * on the way, under continue-as-king, has). */
static void kf_emit(struct kf_search *s, int to_sq, bool king, int n, uint64_t opp_bb)
{
    unsigned flags = DM_MOVE_CAPTURE;
    if (!s->king_captor && (king || ((s->promo_bb >> to_sq) & 1)))
        flags |= DM_MOVE_PROMOTES;
    uint64_t captured_bb = s->start_opp_bb ^ opp_bb;
    if (!s->sink) {
        kf_add_capture(s->lean, captured_bb, s->from_sq, to_sq, n, flags);
        return;
    }
    dm_move m;
    memset(&m, 0, sizeof m);
    m.captured_set = (dm_bits)captured_bb;
    m.from = (uint8_t)s->from_sq;
    m.to = (uint8_t)to_sq;
    m.njumps = (uint8_t)n;
    m.flags = (uint8_t)flags;
    memcpy(m.path, s->path, (size_t)n);
    memcpy(m.captured, s->captured, (size_t)n);
    sink_add(s->sink, &m, KF_QUANTITY ? (uint64_t)n << 40 : 0);
}

/* ---- captures ----------------------------------------------------------- */

static bool kf_extend(struct kf_search *s, int at_sq, bool king, int lastdir, bool straight_done,
                      int n, uint64_t opp_bb, uint64_t empty_bb);

/* Makes jump n + 1, over `over` in direction d onto each cell of lands_bb,
 * and goes on from there; emits the sequences ending with this jump when no
 * landing lets the piece go on (continuation duty, as lidraughts and
 * PlayStrategy generate), or
 * always under optional continuation.  opp_bb: the enemy pieces that may
 * still be jumped; empty_bb: the cells to land on or fly across (the
 * origin among them).  Mirrors refgen.c's jump(), and its convention that
 * going on straight ahead is one route whichever cell the king touches
 * between the two pieces: it is searched from the nearest landing only
 * (the cell PDN 3.0 writes), unless every landing is asked for.
 * It still counts as going on for every landing, which the nearest one's
 * having gone on already says. */
static void kf_jump(struct kf_search *s, uint64_t over_bb, int d, uint64_t lands_bb, bool king,
                    int n, uint64_t opp_bb, uint64_t empty_bb)
{
    s->captured[n] = (uint8_t)ctz64(over_bb);
    opp_bb &= ~over_bb; /* never jumped twice */
    if (KF_REMOVAL == REMOVE_IMMEDIATE)
        empty_bb |= over_bb; /* gone at once: may be crossed or landed on */

    bool went_on = false, nearest = true;
    for (uint64_t b = lands_bb; b;) {
        int land_sq = kf_nearest(b, d);
        b &= ~(1ull << land_sq);
        bool now_king = king, stop = false;
        if (!king && ((s->promo_bb >> land_sq) & 1)) {
            if (KF_PROMOTION == PROMOTE_STOP)
                stop = true;
            else if (KF_PROMOTION == PROMOTE_CONTINUE_AS_KING)
                now_king = true;
        }
        s->path[n] = (uint8_t)land_sq;
        bool straight_done = !nearest && !s->every_landing;
        if (!stop && kf_extend(s, land_sq, now_king, d, straight_done, n + 1, opp_bb, empty_bb))
            went_on = true;
        nearest = false;
    }
    if (!went_on || KF_OPTIONAL)
        for (uint64_t b = lands_bb; b;) {
            int land_sq = kf_nearest(b, d);
            b &= ~(1ull << land_sq);
            bool now_king = king;
            if (KF_PROMOTION == PROMOTE_CONTINUE_AS_KING && ((s->promo_bb >> land_sq) & 1))
                now_king = true;
            s->path[n] = (uint8_t)land_sq;
            kf_emit(s, land_sq, now_king, n + 1, opp_bb);
        }
}

/* Tries the capture in direction d from at_bb; returns whether there was
 * one. */
static inline bool kf_try_jump(struct kf_search *s, uint64_t at_bb, bool king, int d, int n,
                               uint64_t opp_bb, uint64_t empty_bb)
{
    uint64_t over_bb, lands_bb = 0;
    if (KF_FLYING && king) {
        over_bb = kf_shift(at_bb, d);
        while (over_bb & empty_bb)
            over_bb = kf_shift(over_bb, d);
        over_bb &= opp_bb;
        if (!over_bb)
            return false;
        for (uint64_t l = kf_shift(over_bb, d); l & empty_bb; l = kf_shift(l, d))
            lands_bb |= l;
    } else {
        over_bb = kf_shift(at_bb, d) & opp_bb;
        lands_bb = kf_shift(over_bb, d) & empty_bb;
    }
    if (!lands_bb)
        return false;
    kf_jump(s, over_bb, d, lands_bb, king, n, opp_bb, empty_bb);
    return true;
}

/* Tries every capture from at_sq after n jumps (but straight on, when
 * straight_done); returns whether there was one.  Mirrors refgen.c's
 * extend(). */
static bool kf_extend(struct kf_search *s, int at_sq, bool king, int lastdir, bool straight_done,
                      int n, uint64_t opp_bb, uint64_t empty_bb)
{
    unsigned dirs = king     ? (unsigned)(KF_KING_JUMPS)
                    : n == 0 ? KF_OF(s->color, KF_MAN_JUMPS)
                             : KF_OF(s->color, KF_MAN_LATER_JUMPS);
    if (KF_REVERSAL_BAN && lastdir >= 0)
        dirs &= ~DIRBIT(kf_opposite(lastdir));
    if (KF_STRAIGHT && lastdir >= 0)
        dirs &= DIRBIT(lastdir);
    if (KF_FLYING && straight_done)
        dirs &= ~DIRBIT(lastdir);
    if (n >= DM_MAX_JUMPS)
        return false;
    uint64_t at_bb = 1ull << at_sq;
    bool any = false;
#pragma GCC unroll 8
    for (int d = 0; d < DIR_COUNT; d++)
        if ((KF_JUMP_DIRS & DIRBIT(d)) && (dirs & DIRBIT(d)))
            any |= kf_try_jump(s, at_bb, king, d, n, opp_bb, empty_bb);
    return any;
}

/* The men of colour c that have a first jump. */
static inline uint64_t kf_man_jumpers(uint64_t men_bb, uint64_t opp_bb, uint64_t empty_bb, int c)
{
    uint64_t jumpers_bb = 0;
#pragma GCC unroll 8
    for (int d = 0; d < DIR_COUNT; d++)
        if (KF_OF(c, KF_MAN_JUMPS) & DIRBIT(d))
            jumpers_bb |= kf_shift(kf_shift(empty_bb, kf_opposite(d)) & opp_bb, kf_opposite(d));
    return jumpers_bb & men_bb;
}

/* The men that may start a capture (Alquerque: not from a far row that sticks). */
static inline uint64_t kf_capturing_men(const struct kf_pos *p, const struct kf_ctx *ctx, int c)
{
    uint64_t men_bb = p->pieces_bb[c] & ~p->kings_bb;
    if (KF_FAR_ROW == FAR_ROW_STUCK)
        men_bb &= ~ctx->far_bb[c];
    return men_bb;
}

/* Whether the king on king_bb has a capture. */
static inline bool kf_king_captures(uint64_t king_bb, uint64_t opp_bb, uint64_t empty_bb)
{
#pragma GCC unroll 8
    for (int d = 0; d < DIR_COUNT; d++) {
        if (!(DIRBIT(d) & (KF_KING_JUMPS)))
            continue;
        uint64_t t = kf_shift(king_bb, d);
        if (KF_FLYING)
            while (t & empty_bb)
                t = kf_shift(t, d);
        if (kf_shift(t & opp_bb, d) & empty_bb)
            return true;
    }
    return false;
}

/* Whether the side to move has a capture: a few shifts, before paying for
 * the search. */
static inline bool kf_has_capture(const struct kf_pos *p, const struct kf_ctx *ctx)
{
    int c = p->side;
    uint64_t own_bb = p->pieces_bb[c], opp_bb = p->pieces_bb[c ^ 1];
    uint64_t empty_bb = KF_ALL & ~(own_bb | opp_bb);
    if (kf_man_jumpers(kf_capturing_men(p, ctx, c), opp_bb, empty_bb, c))
        return true;
    if (KF_KING_JUMPS)
        for (uint64_t b = own_bb & p->kings_bb; b; b &= b - 1)
            if (kf_king_captures(b & -b, opp_bb, empty_bb))
                return true;
    return false;
}

/* Every capture of the side to move into s's output. */
static void kf_captures(const struct kf_pos *p, const struct kf_ctx *ctx, struct kf_search *s)
{
    int c = p->side;
    uint64_t own_bb = p->pieces_bb[c], opp_bb = p->pieces_bb[c ^ 1];
    uint64_t empty_bb = KF_ALL & ~(own_bb | opp_bb);
    uint64_t starters_bb = kf_man_jumpers(kf_capturing_men(p, ctx, c), opp_bb, empty_bb, c);
    if (KF_KING_JUMPS)
        starters_bb |= own_bb & p->kings_bb;
    s->start_opp_bb = opp_bb;
    s->promo_bb = ctx->promo_bb[c];
    s->every_landing = ctx->every_landing;
    s->color = c;
    for (uint64_t b = starters_bb; b; b &= b - 1) {
        int sq = ctz64(b);
        s->from_sq = sq;
        s->king_captor = ((p->kings_bb >> sq) & 1) != 0;
        /* its start counts as empty, as every rulebook here has it */
        kf_extend(s, sq, s->king_captor, -1, false, 0, opp_bb, empty_bb | (1ull << sq));
    }
}

/* Hawaiian-style captures (straight, optional, short men, no promotion)
 * counted without a search: the k-th jump of a run lands on cells the
 * earlier jumps never touched, so iterating the first jump's shift counts
 * every prefix of every run. */
#define KF_STRAIGHT_COUNT                                                                          \
    (KF_STRAIGHT && KF_OPTIONAL && (KF_KING) == KING_NONE && (KF_PROMOTION) == PROMOTE_NONE)

static inline uint64_t kf_count_straight(const struct kf_pos *p, const struct kf_ctx *ctx)
{
    int c = p->side;
    uint64_t own_bb = p->pieces_bb[c], opp_bb = p->pieces_bb[c ^ 1];
    uint64_t empty_bb = KF_ALL & ~(own_bb | opp_bb);
    uint64_t men_bb = kf_capturing_men(p, ctx, c);
    uint64_t n = 0;
#pragma GCC unroll 8
    for (int d = 0; d < DIR_COUNT; d++) {
        if (!(KF_OF(c, KF_MAN_JUMPS) & DIRBIT(d)))
            continue;
        uint64_t t = kf_shift(kf_shift(men_bb, d) & opp_bb, d) & empty_bb;
        n += (uint64_t)popcount64(t);
        if (KF_OF(c, KF_MAN_LATER_JUMPS) & DIRBIT(d))
            while (t) {
                t = kf_shift(kf_shift(t, d) & opp_bb, d) & empty_bb;
                n += (uint64_t)popcount64(t);
            }
    }
    return n;
}

/* ---- quiet moves and removals ------------------------------------------- */

/* The men of colour c that may make a plain move (Alquerque: not from the far
 * row, unless it is free). */
static inline uint64_t kf_stepping_men(const struct kf_pos *p, const struct kf_ctx *ctx, int c)
{
    uint64_t men_bb = p->pieces_bb[c] & ~p->kings_bb;
    if (KF_FAR_ROW != FAR_ROW_FREE)
        men_bb &= ~ctx->far_bb[c];
    return men_bb;
}

/* Every quiet move of the side to move into lean, direction by direction
 * (perft does not need the reference's order).  A linear move (Dameo) is
 * found from its target: the men reaching an empty cell in direction d are
 * the unbroken run of own men behind it, each of them (the nearest steps,
 * the others move the line). */
static void kf_quiet(const struct kf_pos *p, const struct kf_ctx *ctx, struct kf_list *lean)
{
    int c = p->side;
    uint64_t own_bb = p->pieces_bb[c];
    uint64_t empty_bb = KF_ALL & ~(own_bb | p->pieces_bb[c ^ 1]);
    uint64_t men_bb = own_bb & ~p->kings_bb, movers_bb = kf_stepping_men(p, ctx, c);
    uint64_t promo_bb = ctx->promo_bb[c];
#pragma GCC unroll 8
    for (int d = 0; d < DIR_COUNT; d++) {
        if (!(KF_OF(c, KF_MAN_STEPS) & DIRBIT(d)))
            continue;
        if (KF_LINEAR) {
            uint64_t run_bb = empty_bb;
            for (int j = 1; (run_bb = kf_shift(run_bb, kf_opposite(d)) & men_bb) != 0; j++)
                for (uint64_t b = run_bb & movers_bb; b; b &= b - 1) {
                    int from_sq = ctz64(b), to_sq = from_sq + j * kf_delta(d);
                    kf_add_plain(lean, NULL, from_sq, to_sq,
                                 ((promo_bb >> to_sq) & 1) ? DM_MOVE_PROMOTES : 0);
                }
        } else {
            for (uint64_t b = kf_shift(movers_bb, d) & empty_bb; b; b &= b - 1) {
                int to_sq = ctz64(b);
                kf_add_plain(lean, NULL, to_sq - kf_delta(d), to_sq,
                             ((promo_bb >> to_sq) & 1) ? DM_MOVE_PROMOTES : 0);
            }
        }
    }
    if (!KF_KING_STEPS)
        return;
    for (uint64_t k = own_bb & p->kings_bb; k; k &= k - 1) {
        int from_sq = ctz64(k);
#pragma GCC unroll 8
        for (int d = 0; d < DIR_COUNT; d++) {
            if (!((unsigned)(KF_KING_STEPS)&DIRBIT(d)))
                continue;
            for (uint64_t t = kf_shift(k & -k, d); t & empty_bb; t = kf_shift(t, d)) {
                kf_add_plain(lean, NULL, from_sq, ctz64(t), 0);
                if (!KF_FLYING)
                    break;
            }
        }
    }
}

/* Every quiet move of the side to move into sink in the reference
 * generator's order (piece by piece from the lowest cell, directions in
 * enum order, nearest cell first), which callers walking the list rely
 * on. */
static void kf_quiet_listed(const struct kf_pos *p, const struct kf_ctx *ctx,
                            struct move_sink *sink)
{
    int c = p->side;
    uint64_t own_bb = p->pieces_bb[c];
    uint64_t empty_bb = KF_ALL & ~(own_bb | p->pieces_bb[c ^ 1]);
    uint64_t men_bb = own_bb & ~p->kings_bb, movers_bb = kf_stepping_men(p, ctx, c);
    uint64_t promo_bb = ctx->promo_bb[c];
    for (uint64_t b = own_bb; b; b &= b - 1) {
        uint64_t piece_bb = b & -b;
        int from_sq = ctz64(b);
        if (piece_bb & men_bb) {
            if (!(piece_bb & movers_bb))
                continue;
#pragma GCC unroll 8
            for (int d = 0; d < DIR_COUNT; d++) {
                if (!(KF_OF(c, KF_MAN_STEPS) & DIRBIT(d)))
                    continue;
                uint64_t t = kf_shift(piece_bb, d);
                if (KF_LINEAR) /* Dameo: over the run of own men ahead */
                    while (t & men_bb)
                        t = kf_shift(t, d);
                if (t & empty_bb)
                    kf_add_plain(NULL, sink, from_sq, ctz64(t),
                                 (t & promo_bb) ? DM_MOVE_PROMOTES : 0);
            }
            continue;
        }
#pragma GCC unroll 8
        for (int d = 0; d < DIR_COUNT; d++) {
            if (!((unsigned)(KF_KING_STEPS)&DIRBIT(d)))
                continue;
            for (uint64_t t = kf_shift(piece_bb, d); t & empty_bb; t = kf_shift(t, d)) {
                kf_add_plain(NULL, sink, from_sq, ctz64(t), 0);
                if (!KF_FLYING)
                    break;
            }
        }
    }
}

/* The number of quiet moves of the side to move, by popcount. */
static inline uint64_t kf_count_quiet(const struct kf_pos *p, const struct kf_ctx *ctx)
{
    int c = p->side;
    uint64_t own_bb = p->pieces_bb[c];
    uint64_t empty_bb = KF_ALL & ~(own_bb | p->pieces_bb[c ^ 1]);
    uint64_t men_bb = own_bb & ~p->kings_bb, movers_bb = kf_stepping_men(p, ctx, c);
    uint64_t n = 0;
#pragma GCC unroll 8
    for (int d = 0; d < DIR_COUNT; d++) {
        if (!(KF_OF(c, KF_MAN_STEPS) & DIRBIT(d)))
            continue;
        if (KF_LINEAR) {
            for (uint64_t run_bb = empty_bb;
                 (run_bb = kf_shift(run_bb, kf_opposite(d)) & men_bb) != 0;)
                n += (uint64_t)popcount64(run_bb & movers_bb);
        } else {
            n += (uint64_t)popcount64(kf_shift(movers_bb, d) & empty_bb);
        }
    }
    if (!KF_KING_STEPS)
        return n;
    for (uint64_t k = own_bb & p->kings_bb; k; k &= k - 1) {
#pragma GCC unroll 8
        for (int d = 0; d < DIR_COUNT; d++) {
            if (!((unsigned)(KF_KING_STEPS)&DIRBIT(d)))
                continue;
            for (uint64_t t = kf_shift(k & -k, d); t & empty_bb; t = kf_shift(t, d)) {
                n++;
                if (!KF_FLYING)
                    break;
            }
        }
    }
    return n;
}

/* The Hawaiian opening, read from the board alone as refgen.c's
 * generate_removals: on a full board the side to move takes one of its men
 * off the opening cells; with one hole, one of its men orthogonally next to
 * it.  Returns the number of removals (adding them to lean or sink when
 * given), or -1 once two or more cells are empty. */
static inline int kf_removals(const struct kf_pos *p, const struct kf_ctx *ctx,
                              struct kf_list *lean, struct move_sink *sink)
{
    uint64_t own_bb = p->pieces_bb[p->side];
    uint64_t holes_bb = KF_ALL & ~(p->pieces_bb[0] | p->pieces_bb[1]);
    uint64_t candidates_bb;
    if (holes_bb == 0)
        candidates_bb = own_bb & ctx->opening_bb;
    else if ((holes_bb & (holes_bb - 1)) == 0)
        candidates_bb = own_bb & (kf_shift(holes_bb, DIR_N) | kf_shift(holes_bb, DIR_S) |
                                  kf_shift(holes_bb, DIR_E) | kf_shift(holes_bb, DIR_W));
    else
        return -1;
    if (lean || sink)
        for (uint64_t b = candidates_bb; b; b &= b - 1)
            kf_add_plain(lean, sink, ctz64(b), ctz64(b), DM_MOVE_REMOVAL);
    return popcount64(candidates_bb);
}

/* ---- perft -------------------------------------------------------------- */

static void kf_ctx_init(struct kf_ctx *ctx, const struct dm_variant *v, unsigned flags)
{
    for (int c = 0; c < 2; c++) {
        ctx->promo_bb[c] = (uint64_t)v->promo_bb[c];
        ctx->far_bb[c] = (uint64_t)v->far_row_bb[c];
    }
    ctx->opening_bb = (uint64_t)v->opening_bb;
    ctx->keep = (flags & DM_GEN_KEEP_DUPLICATES) != 0;
    ctx->every_landing = ctx->keep && (flags & DM_GEN_EVERY_LANDING);
}

static inline void kf_load(struct kf_pos *p, const dm_position *pos)
{
    p->pieces_bb[DM_WHITE] = (uint64_t)pos->white & KF_ALL;
    p->pieces_bb[DM_BLACK] = (uint64_t)pos->black & KF_ALL;
    p->kings_bb = (uint64_t)pos->kings & KF_ALL;
    p->side = pos->side;
}

/* As dm_make_move. */
static inline void kf_make(struct kf_pos *p, const struct kf_move *m)
{
    int c = p->side;
    uint64_t from_bb = 1ull << m->from_sq, to_bb = 1ull << m->to_sq;
    p->pieces_bb[c ^ 1] &= ~m->captured_bb;
    p->kings_bb &= ~m->captured_bb;
    if (KF_OPENING && (m->flags & DM_MOVE_REMOVAL)) {
        p->pieces_bb[c] &= ~from_bb;
    } else {
        p->pieces_bb[c] = (p->pieces_bb[c] & ~from_bb) | to_bb;
        if (p->kings_bb & from_bb)
            p->kings_bb = (p->kings_bb & ~from_bb) | to_bb;
        if (m->flags & DM_MOVE_PROMOTES)
            p->kings_bb |= to_bb;
    }
    p->side = c ^ 1;
}

/* Every legal move of p into list. */
static void kf_generate_lean(const struct kf_pos *p, const struct kf_ctx *ctx, struct kf_list *list)
{
    list->count = 0;
    list->best = 0;
    list->keep = ctx->keep;
    if (KF_OPENING && kf_removals(p, ctx, list, NULL) >= 0)
        return;
    struct kf_search s;
    s.lean = list;
    s.sink = NULL;
    kf_captures(p, ctx, &s);
    if (list->count == 0)
        kf_quiet(p, ctx, list);
}

/* The number of legal moves of p, counted rather than listed where the
 * moves cannot be duplicates: removals, quiet moves, straight runs. */
static uint64_t kf_count(const struct kf_pos *p, const struct kf_ctx *ctx)
{
    if (KF_OPENING) {
        int n = kf_removals(p, ctx, NULL, NULL);
        if (n >= 0)
            return (uint64_t)n;
    }
    if (KF_STRAIGHT_COUNT) {
        uint64_t n = kf_count_straight(p, ctx);
        return n ? n : kf_count_quiet(p, ctx);
    }
    if (!kf_has_capture(p, ctx))
        return kf_count_quiet(p, ctx);
    struct kf_list list;
    struct kf_search s;
    list.count = 0;
    list.best = 0;
    list.keep = ctx->keep;
    s.lean = &list;
    s.sink = NULL;
    kf_captures(p, ctx, &s);
    return (uint64_t)list.count;
}

static uint64_t kf_perft_rec(const struct kf_pos *p, int depth, const struct kf_ctx *ctx)
{
    if (depth == 1)
        return kf_count(p, ctx);
    struct kf_list list;
    kf_generate_lean(p, ctx, &list);
    uint64_t nodes = 0;
    for (int i = 0; i < list.count; i++) {
        struct kf_pos next = *p;
        kf_make(&next, &list.moves[i]);
        nodes += kf_perft_rec(&next, depth - 1, ctx);
    }
    return nodes;
}

/* ---- entry points --------------------------------------------------------- */

static uint64_t kf_perft(const struct dm_variant *v, const dm_position *pos, int depth,
                         unsigned flags)
{
    if (depth <= 0)
        return 1;
    struct kf_ctx ctx;
    struct kf_pos p;
    kf_ctx_init(&ctx, v, flags);
    kf_load(&p, pos);
    return kf_perft_rec(&p, depth, &ctx);
}

/* kernel_leaf for these rules: 2 when the moves are captures, 1 quiet
 * moves (or removals) only, 0 none; kf_count's tests, no list. */
static int kf_leaf(const struct dm_variant *v, const dm_position *pos)
{
    struct kf_ctx ctx;
    struct kf_pos p;
    kf_ctx_init(&ctx, v, 0);
    kf_load(&p, pos);
    if (KF_OPENING) {
        int n = kf_removals(&p, &ctx, NULL, NULL);
        if (n >= 0)
            return n > 0;
    }
    if (KF_STRAIGHT_COUNT ? kf_count_straight(&p, &ctx) != 0 : kf_has_capture(&p, &ctx))
        return 2;
    return kf_count_quiet(&p, &ctx) != 0;
}

static int kf_generate(const struct dm_variant *v, const dm_position *pos, dm_move_list *list,
                       unsigned flags)
{
    struct move_sink sink;
    struct kf_ctx ctx;
    struct kf_pos p;
    sink_init(&sink, list, flags);
    kf_ctx_init(&ctx, v, flags);
    kf_load(&p, pos);
    if (!(KF_OPENING && kf_removals(&p, &ctx, NULL, &sink) >= 0)) {
        struct kf_search s;
        s.lean = NULL;
        s.sink = &sink;
        kf_captures(&p, &ctx, &s);
        if (list->count == 0)
            kf_quiet_listed(&p, &ctx, &sink);
    }
    return sink.overflow ? -1 : list->count;
}

const struct kfull_kernel KF_NAME = {
    .name = KF_STR(KF_NAME),
    .leaf = kf_leaf,
    .rules =
        {
            .geometry = KF_GEOMETRY,
            .man_steps = (KF_MAN_STEPS),
            .man_jumps = (KF_MAN_JUMPS),
            .man_later_jumps = (KF_MAN_LATER_JUMPS),
            .king = (KF_KING),
            .king_steps = (KF_KING_STEPS),
            .king_jumps = (KF_KING_JUMPS),
            .removal = (KF_REMOVAL),
            .reversal_ban = (KF_REVERSAL_BAN),
            .promotion = (KF_PROMOTION),
            .precedence = (KF_PRECEDENCE),
            .linear_moves = (KF_LINEAR),
            .far_row = (KF_FAR_ROW),
            .straight_continuation = (KF_STRAIGHT),
            .optional_continuation = (KF_OPTIONAL),
            .opening_removals = (KF_OPENING),
        },
    .generate = kf_generate,
    .perft = kf_perft,
};
