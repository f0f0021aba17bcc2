/* SPDX-License-Identifier: MIT */
/*
 * kfull_f8_queen.c - the full-board kernel compiled for queen-moving kings
 * that capture orthogonally (Freeling's Dameo, today): men step forwards
 * straight or diagonally and move whole lines, men and kings take
 * orthogonally (men backwards too), captured pieces stay until the move
 * ends, crowned only at the end, most pieces must be taken.
 */
#define KF_NAME            kfull_f8_queen
#define KF_Q5              0
#define KF_MAN_STEPS       (DIRBIT(DIR_N) | DIRBIT(DIR_NE) | DIRBIT(DIR_NW))
#define KF_MAN_JUMPS       DIRS_ORTH
#define KF_MAN_LATER_JUMPS DIRS_ORTH
#define KF_KING            KING_FLYING
#define KF_KING_STEPS      DIRS_ALL
#define KF_KING_JUMPS      DIRS_ORTH
#define KF_REMOVAL         REMOVE_DEFERRED
#define KF_REVERSAL_BAN    0
#define KF_PROMOTION       PROMOTE_END_ONLY
#define KF_PRECEDENCE      PREC_QUANTITY
#define KF_LINEAR          1
#define KF_FAR_ROW         FAR_ROW_FREE
#define KF_STRAIGHT        0
#define KF_OPTIONAL        0
#define KF_OPENING         0
#include "rules/kfull_body.h"
