/* SPDX-License-Identifier: MIT */
/*
 * k_d8_fly.c - the kernel of the 8x8 board with flying kings and men that
 * take backwards too (Russian, Poddavki, Brazilian, Pool).
 */
#define K_NAME(x)  k_d8_fly_##x
#define K_BB       uint64_t
#define K_WIDE     0
#define K_HALF     4
#define K_ROWS     8
#define K_FLYING   1
#define K_ORTH     0
#define K_MEN_BACK 1
#include "rules/kernel_body.h"
