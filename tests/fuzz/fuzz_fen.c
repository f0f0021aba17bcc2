/* SPDX-License-Identifier: MIT */
/*
 * fuzz_fen.c - libFuzzer target for the FEN reader and writer.
 *
 * The first byte picks the variant, the rest is the FEN.  Any text must
 * read or be refused with a message, never crash.  A FEN that reads must
 * write, and what is written must read back to the same position and write
 * the same text again; the position must then be playable: its moves
 * generate and each one plays.
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
    char *fen = malloc(size);
    memcpy(fen, data + 1, size - 1);
    fen[size - 1] = '\0';

    dm_position pos, back;
    dm_error err;
    if (dm_fen_parse(v, fen, &pos, &err) != 0) {
        FUZZ_CHECK(err.msg[0]); /* a refusal says why */
        free(fen);
        return 0;
    }
    char out[1024], again[1024];
    int len = dm_fen_format(v, &pos, out, sizeof out);
    FUZZ_CHECK(len > 0 && (size_t)len < sizeof out && strlen(out) == (size_t)len);
    FUZZ_CHECK(dm_fen_parse(v, out, &back, &err) == 0);
    FUZZ_CHECK(dm_position_equal(&pos, &back));
    dm_fen_format(v, &back, again, sizeof again);
    FUZZ_CHECK(strcmp(out, again) == 0);

    static dm_move_list legal;
    int n = dm_generate(v, &pos, &legal, 0);
    FUZZ_CHECK(n <= DM_MAX_MOVES && legal.count <= DM_MAX_MOVES);
    for (int i = 0; i < legal.count && i < 64; i++) {
        dm_position next = pos;
        dm_make_move(v, &next, &legal.moves[i]);
    }
    dm_position_outcome(v, &pos);
    free(fen);
    return 0;
}
