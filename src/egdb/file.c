/* SPDX-License-Identifier: MIT */
/*
 * file.c - the table files: a header, the offsets of the compressed blocks,
 * the blocks (zlib).  docs/egdb.md gives the layout.  Every number is
 * little-endian; every check that can fail on a damaged file is made when
 * the file is opened, and a block that still will not inflate is refused,
 * never trusted.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "egdb/egdb.h"
#include "rules/variant.h"

#define HEADER_BYTES 128

static void put32(uint8_t *p, uint32_t x)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(x >> (8 * i));
}
static void put64(uint8_t *p, uint64_t x)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(x >> (8 * i));
}
static uint32_t get32(const uint8_t *p)
{
    uint32_t x = 0;
    for (int i = 3; i >= 0; i--)
        x = x << 8 | p[i];
    return x;
}
static uint64_t get64(const uint8_t *p)
{
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--)
        x = x << 8 | p[i];
    return x;
}

int egdb_table_path(const char *root, const struct dm_variant *v, const struct egdb_sig *s,
                    char *buf, size_t size)
{
    char name[32];
    egdb_sig_name(s, name, sizeof name);
    int n = snprintf(buf, size, "%s/%s/%s%s", root, v->id, name, EGDB_EXT);
    return n < 0 || (size_t)n >= size ? -1 : 0;
}

static void encode_header(uint8_t *h, const struct egdb_header *x)
{
    memset(h, 0, HEADER_BYTES);
    memcpy(h, EGDB_MAGIC, 8);
    put32(h + 8, EGDB_VERSION);
    put32(h + 12, HEADER_BYTES);
    memcpy(h + 16, x->variant, 31);
    h[48] = x->sig.men[0];
    h[49] = x->sig.kings[0];
    h[50] = x->sig.men[1];
    h[51] = x->sig.kings[1];
    put32(h + 52, x->block_size);
    put32(h + 56, x->blocks);
    put32(h + 60, x->data_crc);
    put64(h + 64, x->positions);
    put64(h + 72, x->wins);
    put64(h + 80, x->draws);
    put64(h + 88, x->losses);
    put64(h + 96, x->not_stored);
    put32(h + 124, (uint32_t)crc32(0, h, 124));
}

static bool write_all(FILE *f, const void *p, size_t n)
{
    return fwrite(p, 1, n, f) == n;
}

/* Whether a table may have blocks of bs values: a power of two (a probe
 * finds its block by a shift) from 256 to EGDB_BLOCK_MAX (a cache slot). */
static bool block_size_ok(uint32_t bs)
{
    return bs >= 256 && bs <= EGDB_BLOCK_MAX && !(bs & (bs - 1));
}

int egdb_writer_init(struct egdb_writer *w, const char *path, const struct egdb_index *ix,
                     const uint8_t *values, uint32_t block_size, dm_error *err)
{
    memset(w, 0, sizeof *w);
    if (!block_size_ok(block_size)) {
        snprintf(err->msg, sizeof err->msg, "%s: a block of %u values (a power of two from 256 to %d)",
                 path, block_size, EGDB_BLOCK_MAX);
        return -1;
    }
    w->ix = ix;
    w->values = values;
    w->block_size = block_size;
    w->blocks = (uint32_t)((ix->size + block_size - 1) / block_size);
    w->bound = compressBound(block_size);
    w->slots = malloc((size_t)w->blocks * w->bound + 1);
    w->lens = calloc((size_t)w->blocks + 1, sizeof *w->lens);
    if (!w->slots || !w->lens) {
        egdb_writer_free(w);
        snprintf(err->msg, sizeof err->msg, "out of memory writing %s", path);
        return -1;
    }
    return 0;
}

void egdb_writer_free(struct egdb_writer *w)
{
    free(w->slots);
    free(w->lens);
    w->slots = NULL;
    w->lens = NULL;
}

bool egdb_writer_compress(struct egdb_writer *w, uint32_t first, uint32_t end)
{
    for (uint32_t b = first; b < end; b++) {
        uint64_t start = (uint64_t)b * w->block_size, size = w->ix->size;
        uLong len = (uLong)(size - start < w->block_size ? size - start : w->block_size);
        uLongf out = (uLongf)w->bound;
        if (compress2(w->slots + (size_t)b * w->bound, &out, w->values + start, len, 6) != Z_OK)
            return false;
        w->lens[b] = out;
    }
    return true;
}

int egdb_writer_finish(struct egdb_writer *w, const char *path, dm_error *err)
{
    const struct egdb_index *ix = w->ix;
    const uint8_t *values = w->values;
    struct egdb_header h;
    memset(&h, 0, sizeof h);
    snprintf(h.variant, sizeof h.variant, "%s", ix->v->id);
    h.sig = ix->sig;
    h.positions = ix->size;
    h.block_size = w->block_size;
    h.blocks = w->blocks;
    for (uint64_t i = 0; i < ix->size; i++) {
        dm_egdb_value val = egdb_value_of(values[i]);
        if (values[i] == EGDB_NOT_STORED)
            h.not_stored++;
        else if (val.wdl == DM_EGDB_WIN)
            h.wins++;
        else if (val.wdl == DM_EGDB_LOSS)
            h.losses++;
        else
            h.draws++;
    }

    size_t noff = (size_t)h.blocks + 1;
    uint8_t *offsets = malloc(noff * 8);
    int rc = -1;
    FILE *f = NULL;
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (!offsets) {
        snprintf(err->msg, sizeof err->msg, "out of memory writing %s", path);
        goto done;
    }
    uint64_t used = 0;
    for (uint32_t b = 0; b < h.blocks; b++) {
        if (!w->lens[b]) {
            snprintf(err->msg, sizeof err->msg, "%s: zlib could not compress block %u", path, b);
            goto done;
        }
        put64(offsets + 8 * (size_t)b, used);
        used += w->lens[b];
    }
    put64(offsets + 8 * (size_t)h.blocks, used);
    uLong crc = crc32(0, offsets, (uInt)(noff * 8));
    for (uint32_t b = 0; b < h.blocks; b++)
        crc = crc32(crc, w->slots + (size_t)b * w->bound, (uInt)w->lens[b]);
    h.data_crc = (uint32_t)crc;

    uint8_t head[HEADER_BYTES];
    encode_header(head, &h);
    f = fopen(tmp, "wb");
    bool written = f && write_all(f, head, sizeof head) && write_all(f, offsets, noff * 8);
    for (uint32_t b = 0; written && b < h.blocks; b++)
        written = write_all(f, w->slots + (size_t)b * w->bound, w->lens[b]);
    if (!written || fflush(f) != 0) {
        snprintf(err->msg, sizeof err->msg, "cannot write %s: %s", tmp, strerror(errno));
        goto done;
    }
    if (fclose(f) != 0) {
        f = NULL;
        snprintf(err->msg, sizeof err->msg, "cannot write %s: %s", tmp, strerror(errno));
        goto done;
    }
    f = NULL;
    if (rename(tmp, path) != 0) {
        snprintf(err->msg, sizeof err->msg, "cannot rename %s to %s: %s", tmp, path,
                 strerror(errno));
        goto done;
    }
    rc = 0;
done:
    if (f) {
        fclose(f);
        remove(tmp);
    }
    free(offsets);
    egdb_writer_free(w);
    return rc;
}

int egdb_write(const char *path, const struct egdb_index *ix, const uint8_t *values,
               uint32_t block_size, dm_error *err)
{
    struct egdb_writer w;
    if (egdb_writer_init(&w, path, ix, values, block_size, err) != 0)
        return -1;
    egdb_writer_compress(&w, 0, w.blocks); /* a block that fails has no length */
    return egdb_writer_finish(&w, path, err);
}

/* ---- reading ------------------------------------------------------------ */

static int refuse(dm_error *err, const char *path, const char *why)
{
    snprintf(err->msg, sizeof err->msg, "%s: %s", path, why);
    return -1;
}

static int check_file(struct egdb_file *f, const char *path, const struct dm_variant *v,
                      const struct egdb_sig *sig, enum egdb_check check, dm_error *err)
{
    const uint8_t *h = f->map;
    if (f->map_size < HEADER_BYTES || memcmp(h, EGDB_MAGIC, 8) != 0)
        return refuse(err, path, "not a Damier endgame table (no DMEGDB header)");
    if (get32(h + 8) != EGDB_VERSION || get32(h + 12) != HEADER_BYTES)
        return refuse(err, path, "a table of another format version");
    if (get32(h + 124) != (uint32_t)crc32(0, h, 124))
        return refuse(err, path, "the header's checksum is wrong (damaged file)");
    memcpy(f->h.variant, h + 16, 31);
    f->h.variant[31] = 0;
    f->h.sig = (struct egdb_sig){{h[48], h[50]}, {h[49], h[51]}};
    f->h.block_size = get32(h + 52);
    f->h.blocks = get32(h + 56);
    f->h.data_crc = get32(h + 60);
    f->h.positions = get64(h + 64);
    f->h.wins = get64(h + 72);
    f->h.draws = get64(h + 80);
    f->h.losses = get64(h + 88);
    f->h.not_stored = get64(h + 96);
    if (strcmp(f->h.variant, v->id) != 0) {
        char why[120];
        snprintf(why, sizeof why, "a table of %s, not of %s", f->h.variant, v->id);
        return refuse(err, path, why);
    }
    if (!egdb_sig_equal(&f->h.sig, sig))
        return refuse(err, path, "its header names another material than its file name");
    struct egdb_index ix;
    if (!egdb_index_init(&ix, v, *sig) || ix.size != f->h.positions)
        return refuse(err, path, "its position count does not match its material");
    uint32_t bs = f->h.block_size;
    if (!block_size_ok(bs))
        return refuse(err, path, "its block size is not a power of two from 256 to 16384");
    f->h.block_shift = (uint32_t)__builtin_ctz(bs);
    if (f->h.blocks != (f->h.positions + bs - 1) / bs)
        return refuse(err, path, "its block count does not match its position count");
    size_t noff = (size_t)f->h.blocks + 1;
    if (f->map_size - HEADER_BYTES < noff * 8)
        return refuse(err, path, "truncated (the block offsets are cut)");
    f->offsets = h + HEADER_BYTES;
    f->data = f->offsets + noff * 8;
    size_t data_size = f->map_size - HEADER_BYTES - noff * 8;
    if (get64(f->offsets + 8 * (noff - 1)) != data_size)
        return refuse(err, path, "truncated or padded (its size is not what its offsets say)");
    f->check_blocks = check == EGDB_CHECK_BLOCKS;
    if (check == EGDB_CHECK_ALL) {
        uLong crc = crc32(0, f->offsets, (uInt)(noff * 8));
        for (size_t done = 0; done < data_size;) {
            size_t n = data_size - done > (1u << 30) ? (1u << 30) : data_size - done;
            crc = crc32(crc, f->data + done, (uInt)n);
            done += n;
        }
        if ((uint32_t)crc != f->h.data_crc)
            return refuse(err, path, "the data's checksum is wrong (damaged file)");
    }
    for (size_t b = 0; b + 1 < noff; b++)
        if (get64(f->offsets + 8 * b) > get64(f->offsets + 8 * (b + 1)))
            return refuse(err, path, "its block offsets go backwards");
    return 0;
}

int egdb_open_file(struct egdb_file *f, const char *path, const struct dm_variant *v,
                   const struct egdb_sig *sig, enum egdb_check check, dm_error *err)
{
    memset(f, 0, sizeof *f);
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        if (errno == ENOENT)
            return 1;
        snprintf(err->msg, sizeof err->msg, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return refuse(err, path, "not a regular file");
    }
    if (st.st_size == 0) {
        close(fd);
        return refuse(err, path, "empty file");
    }
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
        snprintf(err->msg, sizeof err->msg, "cannot map %s: %s", path, strerror(errno));
        return -1;
    }
    f->map = map;
    f->map_size = (size_t)st.st_size;
    if (check_file(f, path, v, sig, check, err) != 0) {
        egdb_close_file(f);
        return -1;
    }
    return 0;
}

void egdb_close_file(struct egdb_file *f)
{
    if (f->map)
        munmap((void *)f->map, f->map_size);
    memset(f, 0, sizeof *f);
}

/* The blocks are zlib streams (RFC 1950); the inflater reads their deflate
 * data raw, past the two bytes of the zlib header.  The Adler-32 at their
 * end is checked only where the file's CRC-32 was not (a file opened for
 * probing): a probe's first block of a table then reads that block, not
 * the whole file. */
struct egdb_inflater {
    z_stream z;
};

struct egdb_inflater *egdb_inflater_new(void)
{
    struct egdb_inflater *z = calloc(1, sizeof *z);
    if (z && inflateInit2(&z->z, -MAX_WBITS) != Z_OK) {
        free(z);
        return NULL;
    }
    return z;
}

void egdb_inflater_free(struct egdb_inflater *z)
{
    if (!z)
        return;
    inflateEnd(&z->z);
    free(z);
}

long egdb_read_block(const struct egdb_file *f, uint32_t b, struct egdb_inflater *z, uint8_t *out,
                     dm_error *err)
{
    uint64_t bs = f->h.block_size, start = (uint64_t)b * bs;
    uint64_t want = f->h.positions - start < bs ? f->h.positions - start : bs;
    uint64_t from = get64(f->offsets + 8 * (size_t)b), to = get64(f->offsets + 8 * (size_t)b + 8);
    /* A zlib header: deflate, no preset dictionary (RFC 1950, 2.2). */
    const uint8_t *in = f->data + from;
    bool ok = to - from > 6 && (in[0] & 0x0F) == 8 && !(in[1] & 0x20) &&
              inflateReset(&z->z) == Z_OK;
    if (ok) {
        z->z.next_in = (Bytef *)(uintptr_t)(in + 2);
        z->z.avail_in = (uInt)(to - from - 2);
        z->z.next_out = out;
        z->z.avail_out = (uInt)want;
        ok = inflate(&z->z, Z_FINISH) == Z_STREAM_END && z->z.total_out == want;
    }
    if (!ok) {
        snprintf(err->msg, sizeof err->msg, "block %u of the %s table does not inflate (damaged file)",
                 b, f->h.variant);
        return -1;
    }
    if (f->check_blocks) {
        const uint8_t *sum = f->data + to - 4; /* big-endian (RFC 1950, 2.2) */
        uint32_t stored = (uint32_t)sum[0] << 24 | (uint32_t)sum[1] << 16 |
                          (uint32_t)sum[2] << 8 | sum[3];
        if (stored != (uint32_t)adler32(1, out, (uInt)want)) {
            snprintf(err->msg, sizeof err->msg,
                     "block %u of the %s table: the data's checksum is wrong (damaged file)", b,
                     f->h.variant);
            return -1;
        }
    }
    return (long)want;
}

uint8_t *egdb_read_all(const struct egdb_file *f, dm_error *err)
{
    uint8_t *all = malloc(f->h.positions ? f->h.positions : 1);
    uint8_t *block = malloc(EGDB_BLOCK_MAX);
    struct egdb_inflater *z = egdb_inflater_new();
    if (!all || !block || !z) {
        snprintf(err->msg, sizeof err->msg, "out of memory for a table of %llu positions",
                 (unsigned long long)f->h.positions);
        goto fail;
    }
    for (uint32_t b = 0; b < f->h.blocks; b++) {
        long len = egdb_read_block(f, b, z, block, err);
        if (len < 0)
            goto fail;
        memcpy(all + (uint64_t)b * f->h.block_size, block, (size_t)len);
    }
    free(block);
    egdb_inflater_free(z);
    return all;
fail:
    free(all);
    free(block);
    egdb_inflater_free(z);
    return NULL;
}
