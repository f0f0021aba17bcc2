/* SPDX-License-Identifier: MIT */
/*
 * k_d8_fly_adjacent.c - the kernel of the 8x8 board whose flying kings land
 * right behind the piece they take, each piece leaving at once, and whose
 * men take forwards (Thai checkers as mindsports and checkerschest
 * give them).
 */
#define K_NAME(x)       k_d8_fly_adjacent_##x
#define K_BB            uint64_t
#define K_WIDE          0
#define K_HALF          4
#define K_ROWS          8
#define K_FLYING        1
#define K_ORTH          0
#define K_MEN_BACK      0
#define K_LAND_ADJACENT 1
#define K_IMMEDIATE     1
#include "rules/kernel_body.h"
