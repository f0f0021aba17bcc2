/* SPDX-License-Identifier: MIT */
/*
 * fuzz.h - what the fuzz targets share: FUZZ_CHECK, which names the
 * invariant that failed before aborting, so that a crash file's report
 * (libFuzzer's, or make check's replay) says what went wrong and where.
 */
#ifndef DM_FUZZ_H
#define DM_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond);   \
            abort();                                                                       \
        }                                                                                  \
    } while (0)

#endif
