/* SPDX-License-Identifier: MIT */
/*
 * kfull_f8_rook.c - the full-board kernel compiled for rook-like flying
 * kings (Turkish draughts, today): men step and take forwards or
 * sideways, pieces leave at once, no 180-degree turn between jumps, a man
 * crowned mid-capture goes on as a king, most pieces must be taken.
 */
#define KF_NAME            kfull_f8_rook
#define KF_Q5              0
#define KF_MAN_STEPS       (DIRBIT(DIR_N) | DIRBIT(DIR_E) | DIRBIT(DIR_W))
#define KF_MAN_JUMPS       KF_MAN_STEPS
#define KF_MAN_LATER_JUMPS KF_MAN_STEPS
#define KF_KING            KING_FLYING
#define KF_KING_STEPS      DIRS_ORTH
#define KF_KING_JUMPS      DIRS_ORTH
#define KF_REMOVAL         REMOVE_IMMEDIATE
#define KF_REVERSAL_BAN    1
#define KF_PROMOTION       PROMOTE_CONTINUE_AS_KING
#define KF_PRECEDENCE      PREC_QUANTITY
#define KF_LINEAR          0
#define KF_FAR_ROW         FAR_ROW_FREE
#define KF_STRAIGHT        0
#define KF_OPTIONAL        0
#define KF_OPENING         0
#include "rules/kfull_body.h"
