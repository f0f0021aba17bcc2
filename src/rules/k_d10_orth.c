/* SPDX-License-Identifier: MIT */
/*
 * k_d10_orth.c - the kernel of the 10x10 board, flying kings,
 * captures in eight directions (Frisian, Frysk!).
 */
#define K_NAME(x)    k_d10_orth_##x
#define K_BB         uint64_t
#define K_WIDE       0
#define K_HALF       5
#define K_ROWS       10
#define K_FLYING     1
#define K_ORTH       1
#define K_MEN_BACK   1
#define K_KING_LIMIT 1
#include "rules/kernel_body.h"
