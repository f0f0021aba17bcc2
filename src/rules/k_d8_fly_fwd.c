/* SPDX-License-Identifier: MIT */
/*
 * k_d8_fly_fwd.c - the kernel of the 8x8 boards with flying kings and men
 * that take forwards only (Czech, Corner; Spanish and Portuguese on the
 * mirrored board).
 */
#define K_NAME(x)  k_d8_fly_fwd_##x
#define K_BB       uint64_t
#define K_WIDE     0
#define K_HALF     4
#define K_ROWS     8
#define K_FLYING   1
#define K_ORTH     0
#define K_MEN_BACK 0
#include "rules/kernel_body.h"
