/* SPDX-License-Identifier: MIT */
/*
 * k_d8_fly.c - the kernel of the 8x8 boards with flying kings
 * (Russian, Poddavki, Brazilian, Pool, Czech, Corner; Spanish and Portuguese
 * on the mirrored board).
 */
#define K_NAME(x) k_d8_fly_##x
#define K_BB      uint64_t
#define K_WIDE    0
#define K_HALF    4
#define K_ROWS    8
#define K_FLYING  1
#define K_ORTH    0
#include "rules/kernel_body.h"
