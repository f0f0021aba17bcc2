/* SPDX-License-Identifier: MIT */
/*
 * k_d8_short.c - the kernel of the 8x8 boards with short kings and men
 * that take forwards (English, Anti checkers, Italian on the mirrored board).
 */
#define K_NAME(x)  k_d8_short_##x
#define K_BB       uint64_t
#define K_WIDE     0
#define K_HALF     4
#define K_ROWS     8
#define K_FLYING   0
#define K_ORTH     0
#define K_MEN_BACK 0
#include "rules/kernel_body.h"
