/* SPDX-License-Identifier: MIT */
/*
 * kfull_q5_men.c - the alquerque-grid kernel compiled for men without
 * kings (BrainKing's Alquerque, today): men step and take along the lines
 * forwards or sideways, later jumps of a capture any way, captured pieces
 * stay until the move ends, no plain move from the far row, free choice.
 */
#define KF_NAME kfull_q5_men
#define KF_Q5   1
#define KF_MAN_STEPS                                                                               \
    (DIRBIT(DIR_N) | DIRBIT(DIR_NE) | DIRBIT(DIR_NW) | DIRBIT(DIR_E) | DIRBIT(DIR_W))
#define KF_MAN_JUMPS       KF_MAN_STEPS
#define KF_MAN_LATER_JUMPS DIRS_ALL
#define KF_KING            KING_NONE
#define KF_KING_STEPS      0
#define KF_KING_JUMPS      0
#define KF_REMOVAL         REMOVE_DEFERRED
#define KF_REVERSAL_BAN    0
#define KF_PROMOTION       PROMOTE_NONE
#define KF_PRECEDENCE      0
#define KF_LINEAR          0
#define KF_FAR_ROW         FAR_ROW_CAPTURES_ONLY
#define KF_STRAIGHT        0
#define KF_OPTIONAL        0
#define KF_OPENING         0
#include "rules/kfull_body.h"
