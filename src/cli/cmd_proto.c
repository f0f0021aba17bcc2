/* SPDX-License-Identifier: MIT */
/*
 * cmd_proto.c - damier hub: the engine for Hub GUIs and bots (src/proto).
 */
#include <stdio.h>

#include "cli/cli.h"
#include "proto/proto.h"

int cmd_hub(int argc, char **argv)
{
    if (argc > 0) {
        cli_error("hub: unexpected argument '%s' (the protocol sets everything)", argv[0]);
        return 2;
    }
    return proto_hub_run(stdin, stdout);
}
