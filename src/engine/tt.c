/* SPDX-License-Identifier: MIT */
/*
 * tt.c - Zobrist keys and the transposition table.
 *
 * A key XORs one random word per (colour, piece kind, cell), one for Black
 * to move and, for Frisian's same-king limit, words for the king that made
 * the last quiet moves and how many; two positions dm_position_equal calls
 * equal get the same key.  Keys come from a fixed seed so that a search
 * counts the same nodes in every run.
 *
 * The table is allocated once, in clusters of four 16-byte entries (one
 * cache line), each read and written as two relaxed atomic words (which
 * cost what plain ones do) checked against each other (struct tt_slot).  A store replaces, within the cluster of its key, the same
 * key or else the entry least worth keeping: the one from an older search,
 * then the shallowest.  Tuned for the search's workload: a probe and at most
 * one store per node.
 */
/* madvise's MADV_HUGEPAGE is a Linux extension, outside POSIX. */
#define _DEFAULT_SOURCE

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/bits.h"
#include "engine/engine.h"

#define TT_HUGE_PAGE ((size_t)2 << 20)

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void tt_keys_init(struct tt_keys *keys)
{
    uint64_t state = 0x44616D6965722121ull; /* fixed: reproducible node counts */
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < TT_KINDS; k++)
            for (int i = 0; i < DM_MAX_CELLS; i++)
                keys->piece[c][k][i] = splitmix64(&state);
    keys->black_to_move = splitmix64(&state);
    for (int c = 0; c < 2; c++) {
        for (int n = 0; n < 4; n++)
            keys->king_run[c][n] = splitmix64(&state);
        for (int i = 0; i < DM_MAX_CELLS; i++)
            keys->king_cell[c][i] = splitmix64(&state);
    }
}

/* The XOR of words[cell] over the cells of set, a word at a time: most
 * boards have 64 cells or fewer, and 128-bit steps cost several
 * instructions each. */
static uint64_t key_of_set(const uint64_t *words, dm_bits set)
{
    uint64_t key = 0;
    for (uint64_t lo = (uint64_t)set; lo; lo &= lo - 1)
        key ^= words[ctz64(lo)];
    for (uint64_t hi = (uint64_t)(set >> 64); hi; hi &= hi - 1)
        key ^= words[64 + ctz64(hi)];
    return key;
}

/* The key of the piece on cell in pos, or 0 if the cell is empty. */
static uint64_t piece_key(const struct tt_keys *keys, const dm_position *pos, int cell)
{
    dm_bits bit = BIT128(cell);
    int c = (pos->white & bit) ? DM_WHITE : (pos->black & bit) ? DM_BLACK : -1;
    if (c < 0)
        return 0;
    int kind = (pos->kings & bit) ? TT_KING : (pos->paras & bit) ? TT_PARA : TT_MAN;
    return keys->piece[c][kind][cell];
}

/* The Frisian counters' part of a key. */
static uint64_t counters_key(const struct tt_keys *keys, const dm_position *pos)
{
    uint64_t key = 0;
    for (int c = 0; c < 2; c++) {
        if (pos->king_cell[c] < DM_MAX_CELLS)
            key ^= keys->king_cell[c][pos->king_cell[c]];
        key ^= keys->king_run[c][pos->king_moves[c] & 3];
    }
    return key;
}

uint64_t tt_key_counters_change(const struct tt_keys *keys, const dm_position *before,
                                const dm_position *after)
{
    return counters_key(keys, before) ^ counters_key(keys, after);
}

uint64_t tt_key_after(const struct tt_keys *keys, uint64_t key, const dm_position *before,
                      const dm_position *after)
{
    /* Only the cells whose contents changed: a few for any move. */
    dm_bits changed = (before->white ^ after->white) | (before->black ^ after->black) |
                      (before->kings ^ after->kings) | (before->paras ^ after->paras);
    for (; changed; changed &= changed - 1) {
        int cell = ctz128(changed);
        key ^= piece_key(keys, before, cell) ^ piece_key(keys, after, cell);
    }
    if (before->side != after->side)
        key ^= keys->black_to_move;
    return key ^ counters_key(keys, before) ^ counters_key(keys, after);
}

/* The kind of the piece on cell in pos (one of its pieces). */
static int kind_at(const dm_position *pos, int cell)
{
    return bit_at128(pos->kings, cell) ? TT_KING : bit_at128(pos->paras, cell) ? TT_PARA : TT_MAN;
}

uint64_t tt_key_move(const struct tt_keys *keys, uint64_t key, const dm_position *pos,
                     const dm_move *m)
{
    /* As dm_make_move: the piece leaves from (Hawaiian: taken off), lands
     * on to a king if it was one or is crowned, else a man (a parachutist
     * too), and the captured pieces go. */
    int c = pos->side, kind = kind_at(pos, m->from);
    key ^= keys->piece[c][kind][m->from] ^ keys->black_to_move;
    if (!(m->flags & DM_MOVE_REMOVAL))
        key ^= keys->piece[c][kind == TT_KING || (m->flags & DM_MOVE_PROMOTES) ? TT_KING : TT_MAN]
                          [m->to];
    /* The captured pieces by kind, a set each (kings and parachutists are
     * rarely among them). */
    dm_bits taken = m->captured_set;
    if (taken) {
        const uint64_t(*them)[DM_MAX_CELLS] = keys->piece[c ^ 1];
        dm_bits special = taken & (pos->kings | pos->paras);
        key ^= key_of_set(them[TT_MAN], taken & ~special);
        if (special)
            key ^= key_of_set(them[TT_KING], special & pos->kings) ^
                   key_of_set(them[TT_PARA], special & ~pos->kings);
    }
    return key;
}

uint64_t tt_key(const struct tt_keys *keys, const dm_position *pos)
{
    uint64_t key = pos->side == DM_BLACK ? keys->black_to_move : 0;
    for (int c = 0; c < 2; c++) {
        dm_bits own = c == DM_WHITE ? pos->white : pos->black;
        key ^= key_of_set(keys->piece[c][TT_MAN], own & ~pos->kings & ~pos->paras);
        key ^= key_of_set(keys->piece[c][TT_KING], own & pos->kings);
        key ^= key_of_set(keys->piece[c][TT_PARA], own & pos->paras);
    }
    return key ^ counters_key(keys, pos);
}

bool tt_init(struct tt *t, size_t mb)
{
    size_t bytes = (mb ? mb : 1) << 20;
    size_t clusters = TT_MIN_CLUSTERS;
    while (clusters * 2 * TT_CLUSTER * sizeof(struct tt_slot) <= bytes)
        clusters *= 2;
    /* A cluster is one cache line: aligned, a probe touches one line only.
     * A table of 2 MB or more sits on 2 MB pages where the kernel offers
     * them (transparent huge pages): each probe lands on a random page, and
     * with 4 KB pages most probes also miss the TLB. */
    size_t size = clusters * TT_CLUSTER * sizeof *t->slots;
    size_t align = size >= TT_HUGE_PAGE ? TT_HUGE_PAGE : TT_CLUSTER * sizeof *t->slots;
    t->slots = aligned_alloc(align, size);
    if (t->slots) {
        if (size >= TT_HUGE_PAGE)
            madvise(t->slots, size, MADV_HUGEPAGE); /* a hint: ignored if refused */
        memset(t->slots, 0, size);
    }
    t->clusters = clusters;
    t->age = 0;
    return t->slots != NULL;
}

void tt_free(struct tt *t)
{
    free(t->slots);
    t->slots = NULL;
}

void tt_clear(struct tt *t)
{
    memset(t->slots, 0, t->clusters * TT_CLUSTER * sizeof *t->slots);
    t->age = 0;
}


/* The fields of an entry but its key, packed into one word and back. */
static uint64_t pack(const struct tt_entry *e)
{
    return (uint64_t)(uint16_t)e->score | (uint64_t)e->move << 16 | (uint64_t)e->from << 32 |
           (uint64_t)(uint8_t)e->depth << 40 | (uint64_t)e->bound << 48 | (uint64_t)e->age << 56;
}

/* The entry of a slot's two words. */
static void unpack(uint64_t check, uint64_t data, struct tt_entry *e)
{
    e->key = check ^ data;
    e->score = (int16_t)(uint16_t)data;
    e->move = (uint16_t)(data >> 16);
    e->from = (uint8_t)(data >> 32);
    e->depth = (int8_t)(uint8_t)(data >> 40);
    e->bound = (uint8_t)(data >> 48);
    e->age = (uint8_t)(data >> 56);
}

/* Reads slot s into *e. */
static void load(const struct tt_slot *s, struct tt_entry *e)
{
    uint64_t data = atomic_load_explicit(&s->data, memory_order_relaxed);
    uint64_t check = atomic_load_explicit(&s->check, memory_order_relaxed);
    unpack(check, data, e);
}

static void save(struct tt_slot *s, const struct tt_entry *e)
{
    uint64_t data = pack(e);
    atomic_store_explicit(&s->data, data, memory_order_relaxed);
    atomic_store_explicit(&s->check, e->key ^ data, memory_order_relaxed);
}

bool tt_probe(const struct tt *t, uint64_t key, struct tt_entry *entry)
{
    /* The keys are compared before any field is unpacked: most probes of
     * a cluster find one entry or none. */
    const struct tt_slot *c = tt_cluster(t, key);
    for (int i = 0; i < TT_CLUSTER; i++) {
        uint64_t data = atomic_load_explicit(&c[i].data, memory_order_relaxed);
        uint64_t check = atomic_load_explicit(&c[i].check, memory_order_relaxed);
        if (((check ^ data ^ key) & TT_KEY_MASK) == 0 && (uint8_t)(data >> 48) != TT_NONE) {
            unpack(check, data, entry);
            return true;
        }
    }
    return false;
}

void tt_store(struct tt *t, uint64_t key, int score, int depth, enum tt_bound bound, int move,
              int from, int to)
{
    struct tt_slot *c = tt_cluster(t, key), *slot = &c[0];
    struct tt_entry e[TT_CLUSTER], *old = &e[0];
    int worst = 1 << 30;
    bool same = false;
    for (int i = 0; i < TT_CLUSTER; i++) {
        load(&c[i], &e[i]);
        same = ((e[i].key ^ key) & TT_KEY_MASK) == 0;
        if (same || e[i].bound == TT_NONE) {
            slot = &c[i];
            old = &e[i];
            break;
        }
        /* Older searches' entries go first, then the shallowest. */
        int worth = e[i].depth + (e[i].age == t->age ? 256 : 0);
        if (worth < worst) {
            worst = worth;
            slot = &c[i];
            old = &e[i];
        }
    }
    /* Keep a deeper result for the same key unless this one is exact;
     * the best move is worth keeping either way. */
    bool has_move = (move & TT_INDEX) != TT_NO_MOVE;
    if (same && old->bound != TT_NONE && depth < old->depth - 1 && bound != TT_EXACT) {
        if (has_move && (old->move & TT_INDEX) == TT_NO_MOVE) {
            old->move = (uint16_t)move;
            old->from = (uint8_t)from;
            old->key = (key & TT_KEY_MASK) | (uint8_t)to;
            save(slot, old);
        }
        return;
    }
    if (!has_move && same) {
        move = old->move;
        from = old->from;
        to = (uint8_t)old->key;
    }
    struct tt_entry fresh = {
        .key = (key & TT_KEY_MASK) | (uint8_t)to,
        .score = (int16_t)score,
        .move = (uint16_t)move,
        .from = (uint8_t)from,
        .depth = (int8_t)(depth < -100 ? -100 : depth > 120 ? 120 : depth),
        .bound = (uint8_t)bound,
        .age = t->age,
    };
    save(slot, &fresh);
}
