/* SPDX-License-Identifier: MIT */
/*
 * bits.h - bit tricks on 64- and 128-bit sets.
 *
 * dm_bits (unsigned __int128) holds one bit per cell of any board; the fast
 * kernels use plain uint64_t words.  Everything here is inline and branch-free
 * where the hardware allows.
 */
#ifndef DM_BASE_BITS_H
#define DM_BASE_BITS_H

#include <stdbool.h>
#include <stdint.h>

#include "damier/base.h"

#define BIT128(i) ((dm_bits)1 << (i))

static inline int popcount64(uint64_t x) { return __builtin_popcountll(x); }
static inline int ctz64(uint64_t x) { return __builtin_ctzll(x); }

static inline int popcount128(dm_bits x)
{
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}

/* The set bits of x; wide: a board of more than 64 cells (12x12), whose
 * sets use both words of dm_bits (the others need one word's popcount). */
static inline int popcount_cells(dm_bits x, bool wide)
{
    return wide ? popcount128(x) : popcount64((uint64_t)x);
}

/* Index of the lowest set bit; x must not be 0. */
static inline int ctz128(dm_bits x)
{
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

static inline int has128(dm_bits x, int i) { return (int)((x >> i) & 1); }

/* BIT128 and has128 for a cell not known at compile time: a shift of the
 * cell's word alone, where a 128-bit shift by a variable count takes
 * several instructions (and most boards' cells are all in the low word). */
static inline dm_bits bit128(int i)
{
    return i < 64 ? (dm_bits)(1ull << i) : (dm_bits)(1ull << (i - 64)) << 64;
}
static inline int bit_at128(dm_bits x, int i)
{
    uint64_t word = i < 64 ? (uint64_t)x : (uint64_t)(x >> 64);
    return (int)(word >> (i & 63)) & 1;
}

/* Bit gather and scatter: pext64 packs the bits of x under mask into the
 * low bits, pdep64 spreads the low bits of x over mask.  One instruction
 * where BMI2 is fast; AMD's Zen 1 and 2 microcode it (hundreds of cycles),
 * so there, as without BMI2, DM_FAST_PDEP is 0 and the portable loop
 * stands in (callers with a cheaper way of their own take it then). */
#if defined(__BMI2__) && !defined(__znver1__) && !defined(__znver2__)
#include <immintrin.h>
#define DM_FAST_PDEP 1
static inline uint64_t pext64(uint64_t x, uint64_t mask) { return _pext_u64(x, mask); }
static inline uint64_t pdep64(uint64_t x, uint64_t mask) { return _pdep_u64(x, mask); }
#else
#define DM_FAST_PDEP 0
static inline uint64_t pext64(uint64_t x, uint64_t mask)
{
    uint64_t out = 0;
    for (uint64_t bit = 1; mask; mask &= mask - 1, bit <<= 1)
        if (x & mask & -mask)
            out |= bit;
    return out;
}
static inline uint64_t pdep64(uint64_t x, uint64_t mask)
{
    uint64_t out = 0;
    for (uint64_t bit = 1; mask; mask &= mask - 1, bit <<= 1)
        if (x & bit)
            out |= mask & -mask;
    return out;
}
#endif

/* Iterate over set bits: for (dm_bits b = set; b; b &= b - 1) ctz128(b) */

#endif
