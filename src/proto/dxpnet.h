/* SPDX-License-Identifier: MIT */
/*
 * dxpnet.h - the DXP transport: one TCP connection carrying NUL-ended
 * messages.
 */
#ifndef DM_PROTO_DXPNET_H
#define DM_PROTO_DXPNET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "proto/dxpmsg.h"

#define DXP_DEFAULT_PORT 27531

struct dxp_conn {
    int fd;
    char buf[4096]; /* bytes received and not yet read as messages */
    size_t len;
};

/* Listens on spec "[ADDR:]PORT" (loopback unless ADDR is given; port 0: any
 * free one), writes "listening on ADDR:PORT" to log, and waits for one peer.
 * Returns 0, or -1 with why filled. */
int dxp_listen(const char *spec, FILE *log, struct dxp_conn *c, char *why, size_t size);
/* Connects to spec "HOST:PORT".  0, or -1 with why filled. */
int dxp_connect(const char *spec, struct dxp_conn *c, char *why, size_t size);
void dxp_close(struct dxp_conn *c);

/* Sends text (at most DXP_MAX_MESSAGE characters) and its NUL.  0 or -1. */
int dxp_send(struct dxp_conn *c, const char *text);
/* The next message into text (NUL-terminated, at least DXP_MAX_MESSAGE + 1
 * bytes), waiting at most timeout_ms.  Returns its length, or -1 with why
 * filled: the peer closed the connection, the time ran out, or more than
 * DXP_MAX_MESSAGE characters came without a NUL. */
int dxp_receive(struct dxp_conn *c, char *text, int timeout_ms, char *why, size_t size);

#endif
