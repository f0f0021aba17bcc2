/* SPDX-License-Identifier: MIT */
/*
 * egdb.h - what the endgame-database modules share: material signatures and
 * their index (index.c), the table files (file.c), the value bytes.
 */
#ifndef DM_EGDB_EGDB_H
#define DM_EGDB_EGDB_H

#include <stdbool.h>
#include <stdint.h>

#include "damier/egdb.h"

struct dm_variant;

/* ---- signatures and the index (index.c) ----------------------------------- */

/* The material of a table: men and kings of each colour. */
struct egdb_sig {
    uint8_t men[2], kings[2];
};

static inline int egdb_sig_pieces(const struct egdb_sig *s)
{
    return s->men[0] + s->men[1] + s->kings[0] + s->kings[1];
}

/* "2m1k-1k": White's men and kings, then Black's ("0" for none). */
void egdb_sig_name(const struct egdb_sig *s, char *buf, size_t size);
/* The signature of pos. */
struct egdb_sig egdb_sig_of(const dm_position *pos);
bool egdb_sig_equal(const struct egdb_sig *a, const struct egdb_sig *b);

/*
 * Every signature of v with 2..pieces pieces, each side at least one, in
 * build order (fewer pieces first; for as many pieces, fewer men first);
 * kings only where v crowns men and a king does not end the game.  Writes
 * at most max and returns how many there are.
 */
int egdb_signatures(const struct dm_variant *v, int pieces, struct egdb_sig *out, int max);

/*
 * The index of one signature.  The men of each colour are a combination of
 * the cells where a man of that colour may stand (not its promotion row),
 * ranked by the combinatorial number system; the two colours' men are
 * ranked independently, so that a cell both claim is a hole.  Then White's
 * kings among the cells left, then Black's among those left after them:
 * those parts are perfect.  The side to move is the top digit.
 */
struct egdb_index {
    const struct dm_variant *v;
    struct egdb_sig sig;
    int ncells;
    int8_t man_rank[2][DM_MAX_CELLS];  /* cell -> rank among man cells, or -1 */
    uint8_t man_cell[2][DM_MAX_CELLS]; /* rank -> cell                        */
    int man_cells[2];
    /* Boards of 64 cells or fewer, with a fast pdep: the cells as words,
     * ranked and placed by pext and pdep. */
    bool narrow;
    uint64_t board_mask, man_mask[2];
    uint64_t part[4];                  /* sizes: white men, black men, white kings, black kings */
    uint64_t half;                     /* one side to move                    */
    uint64_t size;                     /* both                                */
};

/* Prepares ix; false if the table would be too big to index (2^40). */
bool egdb_index_init(struct egdb_index *ix, const struct dm_variant *v, struct egdb_sig sig);
/* The index of pos (of ix's signature), or -1 if a man stands on its
 * promotion row. */
int64_t egdb_index_of(const struct egdb_index *ix, const dm_position *pos);
/* The position of index i; false for a hole (two men on one cell). */
bool egdb_position_at(const struct egdb_index *ix, uint64_t i, dm_position *pos);

uint64_t egdb_binomial(int n, int k);

/* ---- mirrored tables (index.c) ------------------------------------------ */

/*
 * Where v treats both colours alike, a position and its mirror (the board
 * turned half round, the colours swapped, the other side to move) have the
 * same value, so that of two signatures that are each other's mirror only
 * one table is built and stored: the one whose White has more pieces (or
 * as many and more men).  egdb_mirrors tells whether v is such a variant:
 * its board turned half round numbers cell k as cell n-1-k, its start is
 * its own mirror, and every position a few plies from it has as many
 * moves as its mirror.
 */
bool egdb_mirrors(const struct dm_variant *v);
struct egdb_sig egdb_sig_mirror(const struct egdb_sig *s);
/* Whether s's table is stored under s itself where v mirrors (else the
 * positions of s are looked up, mirrored, in egdb_sig_mirror(s)'s). */
bool egdb_sig_stored(const struct egdb_sig *s);
/* pos's mirror into out. */
void egdb_position_mirror(const struct dm_variant *v, const dm_position *pos, dm_position *out);

/* ---- building (build.c) ------------------------------------------------- */

/* How a build or a check shares its work between threads: how many (0:
 * one per core), the fewest items a step must have to be shared (0: 2^16)
 * and how many a thread takes at a time (0: 4096). */
struct egdb_build_opts {
    int threads;
    uint64_t min_parallel;
    uint64_t chunk;
    bool every_sig; /* build a mirrored signature's table too (tests) */
};

/* Builds the tables of sigs that ROOT/variant lacks, in the order given
 * (each one's captures and promotions must lead to tables before it or
 * already there): dm_egdb_build with a chosen list (opts NULL: the
 * defaults). */
int egdb_build_sigs(const struct dm_variant *v, const char *root, const struct egdb_sig *sigs,
                    int nsigs, const struct egdb_build_opts *opts, dm_egdb_report *report,
                    void *ctx, dm_error *err);
/* dm_egdb_verify with opts. */
long egdb_verify(const struct dm_variant *v, const char *root, int pieces,
                 const struct egdb_build_opts *opts, dm_egdb_report *report, void *ctx,
                 dm_error *err);

/* ---- values ----------------------------------------------------------- */

/* A stored byte: 0 a draw, 1 not stored (a capture pending, or a hole),
 * else 2 + 2 * plies + (1 if a win), plies capped at DM_EGDB_MAX_PLIES. */
#define EGDB_DRAW       0
#define EGDB_NOT_STORED 1

static inline uint8_t egdb_byte(int wdl, int plies)
{
    if (wdl == DM_EGDB_DRAW)
        return EGDB_DRAW;
    if (plies > DM_EGDB_MAX_PLIES)
        plies = DM_EGDB_MAX_PLIES;
    return (uint8_t)(2 + 2 * plies + (wdl == DM_EGDB_WIN));
}

static inline dm_egdb_value egdb_value_of(uint8_t b)
{
    dm_egdb_value r = {DM_EGDB_DRAW, 0};
    if (b >= 2) {
        r.wdl = (b & 1) ? DM_EGDB_WIN : DM_EGDB_LOSS;
        r.plies = (b - 2) / 2;
    }
    return r;
}

/* ---- table files (file.c) ------------------------------------------------- */

#define EGDB_MAGIC      "DMEGDB\r\n"
#define EGDB_VERSION    1
/* Values per compressed block: what a build writes, and the most a reader
 * takes (tables built before aa9e3cb have blocks of 16384).  A probe that
 * misses the cache inflates a whole block, so that small blocks cost less
 * per probe than they lose in compression. */
#define EGDB_BLOCK      4096
#define EGDB_BLOCK_MAX  16384
#define EGDB_CACHE_SLOTS 4096 /* blocks a dm_egdb keeps inflated (probe.c) */
#define EGDB_EXT        ".egdb"

/* The header, as read (little-endian on disk, 128 bytes). */
struct egdb_header {
    char variant[32];
    struct egdb_sig sig;
    uint64_t positions;
    uint64_t wins, draws, losses, not_stored;
    uint32_t block_size; /* a power of two, at most EGDB_BLOCK_MAX */
    uint32_t block_shift; /* its log2 */
    uint32_t blocks;
    uint32_t data_crc; /* of everything after the header */
};

/* ROOT/variant/NAME.egdb into buf; -1 if it does not fit. */
int egdb_table_path(const char *root, const struct dm_variant *v, const struct egdb_sig *s,
                    char *buf, size_t size);

/* Writes values (ix->size bytes) as the table file path in blocks of
 * block_size values (EGDB_BLOCK; a power of two from 256 to
 * EGDB_BLOCK_MAX), through a temporary file renamed at the end.  0, or -1
 * with err set. */
int egdb_write(const char *path, const struct egdb_index *ix, const uint8_t *values,
               uint32_t block_size, dm_error *err);
/* egdb_write in three steps, so that threads may share the compression:
 * init (0, or -1 with err set), compress blocks first..end-1 (ranges apart
 * may run at once; false if zlib failed, which finish then reports), finish
 * (writes the file and frees what init took, whatever happens; 0 or -1). */
struct egdb_writer {
    const struct egdb_index *ix;
    const uint8_t *values;
    uint32_t block_size, blocks;
    size_t bound;   /* the room of a compressed block             */
    uint8_t *slots; /* block b at b * bound                        */
    size_t *lens;   /* its compressed length; 0: not compressed   */
};
int egdb_writer_init(struct egdb_writer *w, const char *path, const struct egdb_index *ix,
                     const uint8_t *values, uint32_t block_size, dm_error *err);
bool egdb_writer_compress(struct egdb_writer *w, uint32_t first, uint32_t end);
int egdb_writer_finish(struct egdb_writer *w, const char *path, dm_error *err);
void egdb_writer_free(struct egdb_writer *w);

/* A table file mapped into memory, its header checked against v and sig
 * and its data checked as egdb_check says. */
struct egdb_file {
    const uint8_t *map;
    size_t map_size;
    struct egdb_header h;
    const uint8_t *offsets; /* blocks + 1 little-endian uint64, from data */
    const uint8_t *data;    /* the compressed blocks                      */
    bool check_blocks;      /* each block's Adler-32 when it is read      */
};

/* How much of a file is checked when it is opened: everything (the data's
 * CRC-32: a builder or a check reads every block anyway), or the header and
 * offsets, each block's own Adler-32 then checked as it is read (a probe:
 * opening a table of 40 MB in the middle of a search took 20 ms). */
enum egdb_check { EGDB_CHECK_ALL, EGDB_CHECK_BLOCKS };

/* 0, 1 if the file does not exist, -1 with err set if it is refused. */
int egdb_open_file(struct egdb_file *f, const char *path, const struct dm_variant *v,
                   const struct egdb_sig *sig, enum egdb_check check, dm_error *err);
void egdb_close_file(struct egdb_file *f);
/* A decompressor kept from block to block (a probe's miss then allocates
 * nothing); NULL if out of memory. */
struct egdb_inflater;
struct egdb_inflater *egdb_inflater_new(void);
void egdb_inflater_free(struct egdb_inflater *z);
/* Inflates block b into out (EGDB_BLOCK_MAX bytes room) with z; its
 * length, or -1 (err set) if the block is corrupt. */
long egdb_read_block(const struct egdb_file *f, uint32_t b, struct egdb_inflater *z, uint8_t *out,
                     dm_error *err);
/* The whole table into a new array of h.positions bytes; NULL, err set. */
uint8_t *egdb_read_all(const struct egdb_file *f, dm_error *err);

#endif
