/* SPDX-License-Identifier: MIT */
/*
 * damier/base.h - what every layer of the public API shares: sizes, cell
 * sets, colours, error messages and the time source.
 */
#ifndef DAMIER_BASE_H
#define DAMIER_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- sizes ------------------------------------------------------------ */

#define DM_MAX_CELLS 72    /* 12x12 dark squares                          */
#define DM_MAX_JUMPS 32    /* longest capture sequence of any variant     */
#define DM_MAX_MOVES 1024  /* legal moves of one position, routes kept    */

/* A set of cells: bit i is cell i. */
typedef unsigned __int128 dm_bits;

enum dm_color { DM_WHITE = 0, DM_BLACK = 1 };

/* A clear one-line message naming the offending token and why. */
typedef struct dm_error {
    char msg[200];
} dm_error;

/* A source of monotonic time in milliseconds; tests inject their own. */
typedef int64_t dm_time_source(void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* DAMIER_BASE_H */
