/* SPDX-License-Identifier: MIT */
/*
 * test_perft.c - the published perft counts, as a contract.
 *
 * Reads every <variant>.txt of tests/perft ($DAMIER_TESTS/perft, default "tests",
 * relative to the repository root the tests run from), one row a line:
 *
 *   fen ; depth ; nodes ; duplicates ; sources
 *
 * where duplicates is "kept" (every capture route counts: the count is run
 * with DM_GEN_KEEP_DUPLICATES), "merged" (routes with the same from, to and
 * captured set count once) or "unknown" (the source does not say: the row
 * passes if the merged, the kept or the kept count with every landing square
 * (DM_GEN_EVERY_LANDING) matches, and says which).  Every row of at most
 * the node budget is checked with dm_perft as the program runs it (the fast
 * kernel where there is one); every row of at most REFERENCE_BUDGET nodes
 * is checked again with the reference generator alone.  The budget is
 * 3,000,000 nodes, 200,000 under DAMIER_QUICK (sanitizer builds), or
 * DAMIER_PERFT_BUDGET.  A file named after a variant the table does not
 * have (yet) is skipped with a SKIP line.
 */
#include <inttypes.h>
#include <time.h>

#include "testutil.h"

enum { REFERENCE_BUDGET = 100000 };

struct pfile {
    char path[1024];
    char name[256]; /* "english.txt" */
    char id[256];   /* "english"     */
};

static uint64_t budget(void)
{
    const char *b = getenv("DAMIER_PERFT_BUDGET");
    if (b && *b)
        return strtoull(b, NULL, 10);
    return tu_quick() ? 200000 : 3000000;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Splits line at ';' into at most max trimmed fields; returns the count. */
static int split_fields(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        char *semi = strchr(p, ';');
        if (semi)
            *semi = '\0';
        fields[n++] = tu_trim(p);
        if (!semi)
            break;
        p = semi + 1;
    }
    return n;
}

/* Reports a malformed row once: in the first pass, not the reference one. */
static void format_error(const struct pfile *f, int lineno, const char *why, bool reference,
                         int *failed)
{
    if (reference)
        return;
    printf("FAIL %s:%d: %s\n", f->name, lineno, why);
    (*failed)++;
}

/* Rows checked in all files, so that an empty folder cannot pass. */
static int rows_checked;

/*
 * Checks the rows of one file: those within the budget with the program's
 * own generator, those within REFERENCE_BUDGET with the reference one.
 * Returns the number of failures.
 */
static int check_file(const struct pfile *f, const dm_variant *v, bool reference)
{
    FILE *in = fopen(f->path, "r");
    if (!in) {
        printf("FAIL %s: cannot open\n", f->path);
        return 1;
    }
    uint64_t limit = reference ? REFERENCE_BUDGET : budget();
    int failed = 0, over = 0, lineno = 0;
    char line[2048];
    while (fgets(line, sizeof line, in)) {
        lineno++;
        char *text = tu_trim(line);
        if (*text == '\0' || *text == '#')
            continue;
        char *fields[6];
        int nf = split_fields(text, fields, 6);
        char *end;
        if (nf != 5) {
            format_error(f, lineno, "expected 'fen ; depth ; nodes ; duplicates ; sources'",
                         reference, &failed);
            continue;
        }
        long depth = strtol(fields[1], &end, 10);
        if (*end || depth < 0 || depth > 30) {
            format_error(f, lineno, "bad depth", reference, &failed);
            continue;
        }
        uint64_t nodes = strtoull(fields[2], &end, 10);
        if (*end || !*fields[2]) {
            format_error(f, lineno, "bad node count", reference, &failed);
            continue;
        }
        unsigned flags;
        bool unknown = strcmp(fields[3], "unknown") == 0;
        if (strcmp(fields[3], "kept") == 0)
            flags = DM_GEN_KEEP_DUPLICATES;
        else if (strcmp(fields[3], "merged") == 0 || unknown)
            flags = 0;
        else {
            format_error(f, lineno, "duplicates must be kept, merged or unknown", reference,
                         &failed);
            continue;
        }
        if (nodes > limit) {
            over++;
            continue;
        }
        dm_position pos;
        dm_error err;
        if (dm_fen_parse(v, fields[0], &pos, &err) != 0) {
            printf("FAIL %s:%d: %s\n", f->name, lineno, err.msg);
            failed++;
            continue;
        }
        if (reference)
            flags |= DM_GEN_REFERENCE;
        double t0 = now();
        uint64_t got = dm_perft(v, &pos, (int)depth, flags);
        const char *mode = fields[3];
        if (unknown && got != nodes) {
            got = dm_perft(v, &pos, (int)depth, flags | DM_GEN_KEEP_DUPLICATES);
            mode = "unknown, matched as kept";
        }
        if (unknown && got != nodes) {
            got = dm_perft(v, &pos, (int)depth,
                           flags | DM_GEN_KEEP_DUPLICATES | DM_GEN_EVERY_LANDING);
            mode = "unknown, matched as kept with every landing square";
        } else if (unknown && strcmp(mode, "unknown") == 0) {
            mode = "unknown, matched as merged";
        }
        double secs = now() - t0;
        rows_checked++;
        bool ok = got == nodes;
        printf("%s %s:%d %s d%ld %s%s: %" PRIu64, ok ? "ok  " : "FAIL", f->name, lineno,
               f->id, depth, mode, reference ? " reference" : "", nodes);
        if (!ok)
            printf(" expected, %" PRIu64 " counted", got);
        printf(" (%.2f s)\n", secs);
        if (!ok)
            failed++;
    }
    fclose(in);
    if (over)
        printf("     %s: %d row(s) above %" PRIu64 " nodes not run%s\n", f->name, over, limit,
               reference ? " with the reference generator" : "");
    return failed;
}

static void test_perft_file(void **state)
{
    const struct pfile *f = *state;
    const dm_variant *v = dm_variant_by_id(f->id);
    if (!v) {
        printf("SKIP %s: variant not in the table\n", f->name);
        skip();
        return;
    }
    int failed = check_file(f, v, false) + check_file(f, v, true);
    fflush(stdout);
    if (failed)
        fail_msg("%s: %d perft row(s) wrong", f->name, failed);
}

/* Runs last: some rows must have been checked. */
static void test_some_rows_checked(void **state)
{
    (void)state;
    if (rows_checked == 0)
        fail_msg("no perft row was checked: is %s/perft empty?", tu_env("DAMIER_TESTS", "tests"));
}

int main(void)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/perft", tu_env("DAMIER_TESTS", "tests"));
    char **names;
    int n = tu_list_dir(dir, ".txt", &names);
    if (n < 0) {
        fprintf(stderr,
                "test_perft: cannot open %s: run from the repository root or set DAMIER_TESTS to its tests/ folder\n",
                dir);
        return 1;
    }
    struct CMUnitTest *tests = calloc((size_t)n + 1, sizeof *tests);
    struct pfile *files = calloc((size_t)n + 1, sizeof *files);
    assert_non_null(tests);
    assert_non_null(files);
    for (int i = 0; i < n; i++) {
        struct pfile *f = &files[i];
        snprintf(f->path, sizeof f->path, "%s/%s", dir, names[i]);
        snprintf(f->name, sizeof f->name, "%s", names[i]);
        snprintf(f->id, sizeof f->id, "%.*s", (int)(strlen(names[i]) - 4), names[i]);
        tests[i] = (struct CMUnitTest){
            .name = f->name, .test_func = test_perft_file, .initial_state = f};
    }
    tests[n] = (struct CMUnitTest){.name = "some rows checked",
                                   .test_func = test_some_rows_checked};
    int failed = _cmocka_run_group_tests("perft", tests, (size_t)n + 1, NULL, NULL);
    tu_free_names(names, n);
    free(tests);
    free(files);
    return failed ? 1 : 0;
}
