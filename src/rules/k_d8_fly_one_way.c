/* SPDX-License-Identifier: MIT */
/*
 * k_d8_fly_one_way.c - the kernel of the 8x8 board, flying kings, where the
 * men of both colours move and take towards rank 8 (BrainKing's One Way
 * checkers).
 */
#define K_NAME(x)  k_d8_fly_one_way_##x
#define K_BB       uint64_t
#define K_WIDE     0
#define K_HALF     4
#define K_ROWS     8
#define K_FLYING   1
#define K_ORTH     0
#define K_MEN_BACK 0
#define K_ONE_WAY  1
#define K_CZECH    1
#include "rules/kernel_body.h"
