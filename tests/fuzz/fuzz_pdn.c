/* SPDX-License-Identifier: MIT */
/*
 * fuzz_pdn.c - libFuzzer harness for the PDN reader and writer.
 *
 * Any input must read without a crash; a game that fails must say where
 * (line and reason); a game that reads must write, and the text written
 * must read back to the same moves, result and comments.  Build and run
 * with `make fuzz-pdn` (clang); seed it with tests/pdn/corpus.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "damier.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool same_text(const char *a, const char *b)
{
    return (a == NULL) == (b == NULL) && (a == NULL || strcmp(a, b) == 0);
}

/* Writes g and reads it back; aborts on any difference. */
static void check_round_trip(const dm_pdn_game *g)
{
    dm_error err;
    char *text = dm_pdn_write(g, &err);
    if (!text)
        abort();
    dm_pdn_options again = {.variant = g->variant};
    dm_pdn_reader *r = dm_pdn_reader_new(text, strlen(text), &again);
    dm_pdn_game back = {0};
    if (!r || dm_pdn_read(r, &back, &err) != 1)
        abort();
    if (back.nmoves != g->nmoves || back.result != g->result || !same_text(back.comment, g->comment))
        abort();
    for (int i = 0; i < g->nmoves; i++)
        if (!dm_move_same(&back.moves[i].move, &g->moves[i].move) ||
            !same_text(back.moves[i].comment, g->moves[i].comment))
            abort();
    dm_pdn_game_free(&back);
    dm_pdn_reader_free(r);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    dm_pdn_options opt = {.guess_variant = (size & 1) != 0};
    dm_pdn_reader *r = dm_pdn_reader_new((const char *)data, size, &opt);
    if (!r)
        return 0;
    dm_pdn_game g = {0};
    dm_error err;
    int status;
    while ((status = dm_pdn_read(r, &g, &err)) != 0) {
        if (status < 0) {
            if (g.error_line <= 0 || !g.error[0])
                abort();
            continue;
        }
        check_round_trip(&g);
    }
    dm_pdn_game_free(&g);
    dm_pdn_reader_free(r);
    return 0;
}
