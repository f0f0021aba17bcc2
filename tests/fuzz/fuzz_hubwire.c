/* SPDX-License-Identifier: MIT */
/*
 * fuzz_hubwire.c - libFuzzer target for the Hub wire forms of positions
 * and moves (dm_hub_position_parse/format, dm_hub_move_parse/format).
 *
 * Input: a variant byte, then a Hub position, a newline and a Hub move.  A
 * position that reads writes back to text that reads to the same position
 * and writes the same text; one that does not read is refused with a
 * message, and the move is then tried on the variant's start.  The move
 * text parses to a legal move or is refused; every legal move's Hub form
 * parses back to a move reaching the same position (duplicate routes share
 * a Hub form, and the first is taken).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "damier.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    const dm_variant *v = dm_variant_at(data[0] % dm_variant_count());
    char *text = malloc(size);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    char *move = strchr(text, '\n');
    if (move)
        *move++ = '\0';

    dm_position pos, back;
    dm_error err;
    err.msg[0] = '\0';
    if (dm_hub_position_parse(v, text, &pos, &err) == 0) {
        char out[DM_HUB_POSITION_SIZE], again[DM_HUB_POSITION_SIZE];
        int len = dm_hub_position_format(v, &pos, out, sizeof out);
        FUZZ_CHECK(len > 0 && (size_t)len < sizeof out);
        FUZZ_CHECK(dm_hub_position_parse(v, out, &back, &err) == 0);
        FUZZ_CHECK(dm_position_equal(&pos, &back));
        dm_hub_position_format(v, &back, again, sizeof again);
        FUZZ_CHECK(strcmp(out, again) == 0);
    } else {
        FUZZ_CHECK(err.msg[0]);
        dm_position_start(v, &pos);
    }

    static dm_move_list legal;
    dm_generate(v, &pos, &legal, 0);
    if (move) {
        err.msg[0] = '\0';
        int got = dm_hub_move_parse(v, &legal, move, &err);
        FUZZ_CHECK(got < legal.count);
        FUZZ_CHECK(got >= 0 || (got >= DM_PARSE_AMBIGUOUS && err.msg[0]));
    }
    for (int i = 0; i < legal.count; i++) {
        char buf[DM_HUB_MOVE_SIZE];
        dm_hub_move_format(v, &legal.moves[i], buf, sizeof buf);
        int got = dm_hub_move_parse(v, &legal, buf, &err);
        FUZZ_CHECK(got >= 0);
        dm_position a = pos, b = pos;
        dm_make_move(v, &a, &legal.moves[i]);
        dm_make_move(v, &b, &legal.moves[got]);
        FUZZ_CHECK(dm_position_equal(&a, &b));
    }
    free(text);
    return 0;
}
