/* SPDX-License-Identifier: MIT */
/*
 * replay.c - runs a fuzz target's LLVMFuzzerTestOneInput on files, without
 * libFuzzer, so that `make check` replays every seed corpus with the
 * compiler and sanitizers of the build (gcc, ASan) and a crash once found
 * stays a regression test.
 *
 * With no argument it replays the folders FUZZ_SEEDS names (blank
 * separated, set by mk/hardening.mk); arguments name files or folders to
 * replay instead.  A target reports a failure by aborting, so success is
 * reaching the end: it prints how many inputs it replayed.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef FUZZ_SEEDS
#define FUZZ_SEEDS ""
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replayed;

static void replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        exit(1);
    }
    size_t cap = 4096, len = 0;
    uint8_t *data = malloc(cap);
    size_t n;
    while (data && (n = fread(data + len, 1, cap - len, f)) > 0)
        if ((len += n) == cap)
            data = realloc(data, cap *= 2);
    fclose(f);
    if (!data) {
        fprintf(stderr, "replay: out of memory for %s\n", path);
        exit(1);
    }
    /* An exact-size copy, so ASan sees a read past the input's end. */
    uint8_t *exact = malloc(len ? len : 1);
    memcpy(exact, data, len);
    free(data);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    replayed++;
}

/* A file, or every file of a folder (not recursing; dot files skipped). */
static void replay_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: no such file or folder %s\n", path);
        exit(1);
    }
    if (!S_ISDIR(st.st_mode)) {
        replay_file(path);
        return;
    }
    struct dirent **names;
    int n = scandir(path, &names, NULL, alphasort); /* sorted: the same order each run */
    for (int i = 0; i < n; i++) {
        char file[4096];
        if (names[i]->d_name[0] != '.') {
            snprintf(file, sizeof file, "%s/%s", path, names[i]->d_name);
            if (stat(file, &st) == 0 && S_ISREG(st.st_mode))
                replay_file(file);
        }
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            replay_path(argv[i]);
    } else {
        char seeds[] = FUZZ_SEEDS;
        for (char *s = strtok(seeds, " "); s; s = strtok(NULL, " "))
            replay_path(s);
    }
    printf("replayed %d inputs\n", replayed);
    return 0;
}
