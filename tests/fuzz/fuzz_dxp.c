/* SPDX-License-Identifier: MIT */
/*
 * fuzz_dxp.c - libFuzzer target for DXP messages (src/proto/dxpmsg.h).
 *
 * Input: a byte choosing the board (32, 50 or 72 squares), then one
 * message.  Any bytes parse or are refused with a reason.  A message that
 * parses formats back to exactly its text (the layout has one way to write
 * each message) and that text parses to the same fields.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto/dxpmsg.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 1024)
        return 0;
    static const int boards[] = {32, 50, 72};
    int squares = boards[data[0] % 3];
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    struct dxp_message m, back;
    char why[120], buf[DXP_MAX_MESSAGE + 1];
    why[0] = '\0';
    if (dxp_parse(text, len, squares, &m, why, sizeof why) != 0) {
        FUZZ_CHECK(why[0]); /* a refusal says why */
        return 0;
    }
    int n = dxp_format(&m, squares, buf, sizeof buf);
    FUZZ_CHECK(n >= 0 && (size_t)n == len && memcmp(buf, text, len) == 0);
    FUZZ_CHECK(dxp_parse(buf, (size_t)n, squares, &back, why, sizeof why) == 0);
    FUZZ_CHECK(memcmp(&m, &back, sizeof m) == 0); /* both zeroed first, then filled alike */
    return 0;
}
