/* SPDX-License-Identifier: MIT */
/*
 * fuzz_move.c - libFuzzer target for move text (dm_move_parse).
 *
 * Input: a variant byte, a ply count byte (its top bit: a FEN and a
 * newline follow, the position to start from instead of the variant's
 * start), that many bytes choosing moves from there (openings and the
 * middlegames they reach), then the text.  Whatever the text, the parser
 * returns a legal move's index or a refusal with a message.  And for every
 * legal move of the position, the text dm_move_format writes parses back
 * to that very move: a move the program prints can always be typed in.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "damier.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > 4096)
        return 0;
    const dm_variant *v = dm_variant_at(data[0] % dm_variant_count());
    size_t at = 2, plies = data[1] % 24;
    static dm_move_list legal;
    dm_position pos;
    dm_position_start(v, &pos);
    if (data[1] & 0x80) { /* from a FEN up to a newline: kings, long routes */
        const uint8_t *nl = memchr(data + at, '\n', size - at);
        if (nl) {
            char fen[512];
            size_t n = (size_t)(nl - (data + at));
            dm_error ferr;
            if (n < sizeof fen) {
                memcpy(fen, data + at, n);
                fen[n] = '\0';
                if (dm_fen_parse(v, fen, &pos, &ferr) != 0)
                    dm_position_start(v, &pos);
            }
            at += n + 1;
        }
    }
    dm_generate(v, &pos, &legal, 0);
    for (size_t i = 0; i < plies && at < size && legal.count > 0; i++) {
        dm_make_move(v, &pos, &legal.moves[data[at++] % legal.count]);
        dm_generate(v, &pos, &legal, 0);
    }

    char *text = malloc(size - at + 1);
    memcpy(text, data + at, size - at);
    text[size - at] = '\0';
    dm_error err;
    err.msg[0] = '\0';
    int got = dm_move_parse(v, &legal, text, &err);
    FUZZ_CHECK(got < legal.count);
    FUZZ_CHECK(got >= 0 || (got >= DM_PARSE_AMBIGUOUS && err.msg[0]));
    free(text);

    for (int i = 0; i < legal.count; i++) {
        char buf[DM_PDN_MOVE_TEXT];
        dm_move_format(v, &legal.moves[i], &legal, buf, sizeof buf);
        FUZZ_CHECK(dm_move_parse(v, &legal, buf, &err) == i);
    }
    return 0;
}
