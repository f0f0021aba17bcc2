/* SPDX-License-Identifier: MIT */
/*
 * dxpmsg.h - the messages of DamExchange (DXP) version 01.
 *
 * A message is 1 to 127 printable ASCII characters, ended on the wire by a
 * NUL byte: a header letter, then fixed-width fields, numbers zero-padded
 * and names blank-padded on the right.  Colours are 'W' (white) and 'Z'
 * (black).  Squares are numbers (01..50 on 10x10; 8x8 programs use 01..32
 * the same way), so the board's size is a parameter of the reader.  The
 * reader refuses anything that does not fit its layout, naming the field.
 */
#ifndef DM_PROTO_DXPMSG_H
#define DM_PROTO_DXPMSG_H

#include <stdbool.h>
#include <stddef.h>

#include "damier/base.h"

#define DXP_MAX_MESSAGE  127 /* characters, the NUL not counted           */
#define DXP_NAME         32
#define DXP_MAX_CAPTURED 50  /* two digits of a count, at most a board    */

enum dxp_kind {
    DXP_GAMEREQ = 'R',
    DXP_GAMEACC = 'A',
    DXP_MOVE = 'M',
    DXP_GAMEEND = 'E',
    DXP_CHAT = 'C',
    DXP_BACKREQ = 'B',
    DXP_BACKACC = 'K',
};

/* GAMEEND reasons, from the sender's point of view. */
enum dxp_reason { DXP_UNKNOWN = 0, DXP_I_LOSE = 1, DXP_DRAW = 2, DXP_I_WIN = 3 };

struct dxp_message {
    enum dxp_kind kind;
    char name[DXP_NAME + 1];     /* GAMEREQ initiator, GAMEACC follower, trimmed */
    char color;                  /* GAMEREQ: the follower's; BACKREQ: to move    */
    int minutes;                 /* GAMEREQ: thinking time of each side          */
    int moves;                   /* GAMEREQ: moves in that time, 0: the game     */
    bool setup;                  /* GAMEREQ: board[] given (start 'B')           */
    char to_move;                /* GAMEREQ with setup: 'W' or 'Z'               */
    char board[DM_MAX_CELLS + 1];/* GAMEREQ with setup: w z W Z e per square     */
    int code;                    /* GAMEACC, BACKACC: 0 accepted                 */
    int seconds;                 /* MOVE: time used                              */
    int from, to;                /* MOVE: square numbers                         */
    int ncaptured;
    int captured[DXP_MAX_CAPTURED];
    int reason;                  /* GAMEEND: enum dxp_reason                     */
    int stop;                    /* GAMEEND: 0 another game welcome, 1 stop      */
    int move_number;             /* BACKREQ                                      */
    char text[DXP_MAX_MESSAGE];  /* CHAT                                         */
};

/*
 * Reads the message text[0..len) (without its NUL) for a board of squares
 * playing squares.  Returns 0, or -1 with why naming what is wrong.
 */
int dxp_parse(const char *text, size_t len, int squares, struct dxp_message *m, char *why,
              size_t size);

/* Writes m (without the NUL) into buf of at least DXP_MAX_MESSAGE + 1;
 * returns its length, or -1 if m does not fit a message. */
int dxp_format(const struct dxp_message *m, int squares, char *buf, size_t size);

#endif
