/* SPDX-License-Identifier: MIT */
/*
 * k_d12_fly.c - the kernel of the 12x12 board, flying kings, diagonal
 * captures (Canadian): 72 squares and 5 ghosts need a 128-bit set.
 */
#define K_NAME(x)  k_d12_fly_##x
#define K_BB       unsigned __int128
#define K_WIDE     1
#define K_HALF     6
#define K_ROWS     12
#define K_FLYING   1
#define K_ORTH     0
#define K_MEN_BACK 1
#include "rules/kernel_body.h"
