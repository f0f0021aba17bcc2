/* SPDX-License-Identifier: MIT */
/*
 * fuzz_dxpsession.c - libFuzzer target for a whole DXP session
 * (proto_dxp_run_on): the input is what the peer sends, NUL-ended messages
 * as on the wire, after two bytes choosing the variant and the session's
 * role (follower, or initiator of 1-4 games at 0-15 minutes).
 *
 * The session runs on one end of a socket pair whose other end has
 * written the input and shut down, so every wait ends at once.  It must
 * return 0, never crash, and everything it sends must be DXP messages the
 * peer can read: each one parses for the variant's board.  The games go to
 * /dev/null as PDN, so that ending a game writes its record too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "damier/play.h"
#include "proto/dxpmsg.h"
#include "proto/proto.h"
#include "fuzz.h"

static const char *const variants[] = {"international", "english", "russian", "canadian",
                                       "brazilian", "frisian"};

/* Every NUL-ended message the session sent parses for a board of squares. */
static void check_output(int fd, int squares)
{
    static char out[1 << 16];
    size_t len = 0;
    ssize_t n;
    while (len < sizeof out && (n = read(fd, out + len, sizeof out - len)) > 0)
        len += (size_t)n;
    struct dxp_message m;
    char why[120];
    for (size_t at = 0; at < len;) {
        char *end = memchr(out + at, '\0', len - at);
        FUZZ_CHECK(end); /* every message is whole */
        FUZZ_CHECK(dxp_parse(out + at, (size_t)(end - (out + at)), squares, &m, why,
                             sizeof why) == 0);
        at = (size_t)(end - out) + 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > 4096)
        return 0;
    static FILE *quiet;
    if (!quiet)
        quiet = fopen("/dev/null", "w");
    const dm_variant *v = dm_variant_by_id(variants[data[0] % (sizeof variants / sizeof *variants)]);
    FUZZ_CHECK(v && quiet);
    struct proto_dxp_options o = {.variant = v, .level = 1, .hash_mb = 1, .log = quiet,
                                  .pdn = "/dev/null", .initiator = data[1] & 1,
                                  .games = 1 + (data[1] >> 1 & 3), .minutes = data[1] >> 4};
    int pair[2];
    FUZZ_CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, pair) == 0);
    FUZZ_CHECK(write(pair[1], data + 2, size - 2) == (ssize_t)(size - 2));
    FUZZ_CHECK(shutdown(pair[1], SHUT_WR) == 0);
    FUZZ_CHECK(proto_dxp_run_on(pair[0], &o) == 0);
    check_output(pair[1], dm_variant_cells(v));
    close(pair[1]);
    return 0;
}
