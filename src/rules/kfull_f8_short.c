/* SPDX-License-Identifier: MIT */
/*
 * kfull_f8_short.c - the full-board kernel compiled for short kings in
 * eight directions (BrainKing's Gothic checkers, today): men step and take
 * forwards, diagonally forwards or sideways, a man reaching the last row by
 * a jump stops there crowned, captured pieces stay until the move ends,
 * free choice of capture.
 */
#define KF_NAME kfull_f8_short
#define KF_Q5   0
#define KF_MAN_STEPS                                                                               \
    (DIRBIT(DIR_N) | DIRBIT(DIR_NE) | DIRBIT(DIR_NW) | DIRBIT(DIR_E) | DIRBIT(DIR_W))
#define KF_MAN_JUMPS       KF_MAN_STEPS
#define KF_MAN_LATER_JUMPS KF_MAN_STEPS
#define KF_KING            KING_SHORT
#define KF_KING_STEPS      DIRS_ALL
#define KF_KING_JUMPS      DIRS_ALL
#define KF_REMOVAL         REMOVE_DEFERRED
#define KF_REVERSAL_BAN    0
#define KF_PROMOTION       PROMOTE_STOP
#define KF_PRECEDENCE      0
#define KF_LINEAR          0
#define KF_FAR_ROW         FAR_ROW_FREE
#define KF_STRAIGHT        0
#define KF_OPTIONAL        0
#define KF_OPENING         0
#include "rules/kfull_body.h"
