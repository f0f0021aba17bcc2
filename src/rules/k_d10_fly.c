/* SPDX-License-Identifier: MIT */
/*
 * k_d10_fly.c - the kernel of the 10x10 board, flying kings,
 * diagonal captures (International, Killer, Antidraughts, Breakthrough).
 */
#define K_NAME(x)    k_d10_fly_##x
#define K_BB         uint64_t
#define K_WIDE       0
#define K_HALF       5
#define K_ROWS       10
#define K_FLYING     1
#define K_ORTH       0
#define K_MEN_BACK   1
#define K_KILLER     1
#define K_FIRST_KING 1
#include "rules/kernel_body.h"
