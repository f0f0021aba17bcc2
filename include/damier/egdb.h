/* SPDX-License-Identifier: MIT */
/*
 * damier/egdb.h - the endgame databases (src/egdb): the game-theoretic value
 * of every capture-free position with few pieces, one table per material
 * signature (men and kings of each side), built by retrograde analysis,
 * stored compressed in a folder and probed by the search.
 *
 * A value is the side to move's: win, draw or loss with the plies to the
 * end of the game under best play (the winner hastens, the loser delays),
 * without the draw rules that count moves or repetitions (docs/egdb.md).
 * Positions where the side to move has a capture pending are not stored:
 * the probe does not answer them, the search resolves them.
 *
 * Folders: a root holds one folder per variant (ROOT/russian/...).  The
 * default root is $DAMIER_EGDB_DIR, else $XDG_CACHE_HOME/damier/egdb, else
 * ~/.cache/damier/egdb.
 */
#ifndef DAMIER_EGDB_H
#define DAMIER_EGDB_H

#include "damier/rules.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DM_EGDB_MAX_PIECES 8   /* the most pieces a table may hold         */
#define DM_EGDB_MAX_PLIES  126 /* stored distances stop here (a bound)     */

/* Whether v's positions are pieces and a side to move alone, so that tables
 * can hold them; false with the reason in err (Frisian's king-move counters,
 * Parachute's parachutists, Hawaiian's captures-only moves). */
bool dm_egdb_supported(const dm_variant *v, dm_error *err);

/* Writes the default root into buf; -1 (err set) if no home is known or the
 * path does not fit. */
int dm_egdb_default_root(char *buf, size_t size, dm_error *err);

/* A line of progress for the user (the builder's and verifier's). */
typedef void dm_egdb_report(void *ctx, const char *line);

/* Builds every table of v with 2..pieces pieces that ROOT/variant lacks
 * (creating the folders), smaller ones first: a capture leads to fewer
 * pieces, a promotion to fewer men; on threads threads (0: one per core),
 * the files the same for any number.  0, or -1 with err set. */
int dm_egdb_build(const dm_variant *v, const char *root, int pieces, int threads,
                  dm_egdb_report *report, void *ctx, dm_error *err);

/* Checks every value of every table of v in ROOT/variant with at most
 * pieces pieces (0: all) against its successors, on threads threads (0: one
 * per core).  Returns the count of
 * wrong values (0: all sound), or -1 with err set (no table, a bad file). */
long dm_egdb_verify(const dm_variant *v, const char *root, int pieces, int threads,
                    dm_egdb_report *report, void *ctx, dm_error *err);

/* ---- probing ---------------------------------------------------------- */

typedef struct dm_egdb dm_egdb;

enum dm_egdb_wdl { DM_EGDB_LOSS = -1, DM_EGDB_DRAW = 0, DM_EGDB_WIN = 1 };

typedef struct dm_egdb_value {
    int wdl;   /* enum dm_egdb_wdl, the side to move's                    */
    int plies; /* to the end (0 for a draw); DM_EGDB_MAX_PLIES: at least */
} dm_egdb_value;

/* The tables of v under root (NULL: the default root).  A folder without
 * tables gives a database that answers nothing; NULL (err set) only when
 * memory runs out or v is not supported.  Tables load on their first probe;
 * a bad file is then refused (dm_egdb_error tells why) and not probed. */
dm_egdb *dm_egdb_open(const dm_variant *v, const char *root, dm_error *err);
void dm_egdb_close(dm_egdb *db);

/* The most pieces of the tables found (0: none). */
int dm_egdb_pieces(const dm_egdb *db);

/*
 * The value of pos: 1 with *out filled, 0 when the tables do not answer
 * (no table for its material, a capture pending, a table refused), -1 when
 * pos is not a position of db's variant.  Allocates nothing; threads may
 * probe one database at once (a lock guards its block cache).
 */
int dm_egdb_probe(dm_egdb *db, const dm_position *pos, dm_egdb_value *out);

/* The last table refused, with the reason; empty if none. */
const char *dm_egdb_error(const dm_egdb *db);

/* What `damier egdb info` prints of one table. */
typedef struct dm_egdb_table_info {
    char name[32];          /* the signature, "2k-1k" style (docs/egdb.md) */
    char path[512];
    uint64_t file_bytes;
    uint64_t positions;     /* the index's size, both sides to move        */
    uint64_t wins, draws, losses, not_stored;
    bool ok;                /* false: refused, error says why               */
    char error[200];
    char mirror[32];        /* the signature it answers for too, turned round
                               (docs/egdb.md), or ""                          */
} dm_egdb_table_info;

/* Every table file of v under root (NULL: default) with at most
 * DM_EGDB_MAX_PIECES pieces, checked; calls each(ctx, info) in build
 * order and returns how many there were. */
int dm_egdb_list(const dm_variant *v, const char *root,
                 void (*each)(void *ctx, const dm_egdb_table_info *info), void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* DAMIER_EGDB_H */
