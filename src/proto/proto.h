/* SPDX-License-Identifier: MIT */
/*
 * proto.h - the engine protocols: Hub on standard input and output
 * (hub.c), DamExchange over TCP (dxp.c).  The command line starts them.
 */
#ifndef DM_PROTO_PROTO_H
#define DM_PROTO_PROTO_H

#include <stdio.h>

/* Speaks Hub version 2 on in and out until quit or the end of in.  Returns
 * the exit status (0; 1 if the engine cannot be made). */
int proto_hub_run(FILE *in, FILE *out);

#endif
