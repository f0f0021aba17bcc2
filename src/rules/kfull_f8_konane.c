/* SPDX-License-Identifier: MIT */
/*
 * kfull_f8_konane.c - the full-board kernel compiled for Konane-like play
 * (BrainKing's Hawaiian checkers, today): an opening of removals, then men only
 * jump, orthogonally, every later jump in the first one's direction, and
 * may stop after any jump; no kings.
 */
#define KF_NAME            kfull_f8_konane
#define KF_Q5              0
#define KF_MAN_STEPS       0
#define KF_MAN_JUMPS       DIRS_ORTH
#define KF_MAN_LATER_JUMPS DIRS_ORTH
#define KF_KING            KING_NONE
#define KF_KING_STEPS      0
#define KF_KING_JUMPS      0
#define KF_REMOVAL         REMOVE_IMMEDIATE
#define KF_REVERSAL_BAN    0
#define KF_PROMOTION       PROMOTE_NONE
#define KF_PRECEDENCE      0
#define KF_LINEAR          0
#define KF_FAR_ROW         FAR_ROW_FREE
#define KF_STRAIGHT        1
#define KF_OPTIONAL        1
#define KF_OPENING         1
#include "rules/kfull_body.h"
