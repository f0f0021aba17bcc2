/* SPDX-License-Identifier: MIT */
/*
 * files.c - saving and loading a match in terminal play: the file side
 * only; the PDN of a match (its tags, clocks and result) is the play
 * layer's (dm_match_write_pdn, dm_match_read_pdn).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/tui.h"

#define PDN_MAX_BYTES (16 << 20) /* a larger file is surely not a saved game */

int tui_save_pdn(const dm_match *m, const char *path, dm_error *err)
{
    char *text = dm_match_write_pdn(m, err);
    if (!text)
        return -1;
    FILE *f = fopen(path, "w");
    bool ok = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        snprintf(err->msg, sizeof err->msg, "cannot write %s: %s", path, strerror(errno));
    free(text);
    return ok ? 0 : -1;
}

/* The whole file at path, malloc'ed, or NULL with err filled. */
static char *read_file(const char *path, size_t *size, dm_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *data = malloc(cap);
    while (data) {
        size_t n = fread(data + len, 1, cap - len, f);
        len += n;
        if (len < cap)
            break;
        if (cap >= PDN_MAX_BYTES) {
            snprintf(err->msg, sizeof err->msg, "%s is larger than %d MB", path,
                     PDN_MAX_BYTES >> 20);
            free(data);
            fclose(f);
            return NULL;
        }
        char *more = realloc(data, cap * 2);
        if (!more)
            free(data);
        data = more;
        cap *= 2;
    }
    bool failed = !data || ferror(f);
    fclose(f);
    if (failed) {
        snprintf(err->msg, sizeof err->msg, "cannot read %s", path);
        free(data);
        return NULL;
    }
    *size = len;
    return data;
}

dm_match *tui_load_pdn(const char *path, const dm_match_options *o, dm_error *err)
{
    size_t size;
    char *data = read_file(path, &size, err);
    if (!data)
        return NULL;
    dm_match *m = dm_match_read_pdn(data, size, o, err);
    free(data);
    if (!m) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s: %s", path, err->msg);
        snprintf(err->msg, sizeof err->msg, "%s", why);
    }
    return m;
}
