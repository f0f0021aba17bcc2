/* SPDX-License-Identifier: MIT */
/*
 * cmd_egdb.c - damier egdb build|verify|probe|info: the endgame tables
 * (damier/egdb.h, docs/egdb.md).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "damier/egdb.h"

struct egdb_args {
    const char *variant;
    const char *dir;
    const char *fen;
    int pieces;
    int threads; /* 0: one per core */
};

static void print_line(void *ctx, const char *line)
{
    (void)ctx;
    printf("%s\n", line);
    fflush(stdout);
}

/* Reads the options of "egdb SUB"; CLI_OK or the exit status. */
static int read_args(const char *sub, int argc, char **argv, struct egdb_args *a)
{
    char command[32];
    snprintf(command, sizeof command, "egdb %s", sub);
    for (int i = 0; i < argc; i++) {
        const char *o = argv[i];
        bool takes = strcmp(o, "--variant") == 0 || strcmp(o, "--dir") == 0 ||
                     strcmp(o, "--fen") == 0 || strcmp(o, "--pieces") == 0 ||
                     strcmp(o, "--threads") == 0;
        if (takes && i + 1 >= argc) {
            cli_error("%s: option '%s' needs a value", command, o);
            return CLI_USAGE;
        }
        if (strcmp(o, "--variant") == 0)
            a->variant = argv[++i];
        else if (strcmp(o, "--dir") == 0)
            a->dir = argv[++i];
        else if (strcmp(o, "--fen") == 0 && strcmp(sub, "probe") == 0)
            a->fen = argv[++i];
        else if (strcmp(o, "--pieces") == 0 && strcmp(sub, "probe") != 0) {
            if (cli_number(command, "--pieces", argv[++i], 2, DM_EGDB_MAX_PIECES, &a->pieces))
                return CLI_USAGE;
        } else if (strcmp(o, "--threads") == 0 &&
                   (strcmp(sub, "build") == 0 || strcmp(sub, "verify") == 0)) {
            if (cli_number(command, "--threads", argv[++i], 1, 64, &a->threads))
                return CLI_USAGE;
        } else if (o[0] == '-' && o[1])
            return cli_unknown_option(command, o);
        else {
            cli_error("%s: unexpected argument '%s'", command, cli_quote(o));
            return CLI_USAGE;
        }
    }
    return CLI_OK;
}

static const dm_variant *supported_variant(const char *sub, const char *id)
{
    if (!id) {
        cli_error("egdb %s: give --variant V ('damier variants' lists them)", sub);
        return NULL;
    }
    const dm_variant *v = cli_variant(id);
    dm_error err;
    if (v && !dm_egdb_supported(v, &err)) {
        cli_error("%s", err.msg);
        return NULL;
    }
    return v;
}

static const char *root_of(const struct egdb_args *a, char *buf, size_t size)
{
    if (a->dir)
        return a->dir;
    dm_error err;
    if (dm_egdb_default_root(buf, size, &err) != 0) {
        cli_error("%s", err.msg);
        return NULL;
    }
    return buf;
}

static int egdb_build(const struct egdb_args *a, const dm_variant *v, const char *root)
{
    if (!a->pieces) {
        cli_error("egdb build: give --pieces N (2 to %d)", DM_EGDB_MAX_PIECES);
        return CLI_USAGE;
    }
    dm_error err;
    if (dm_egdb_build(v, root, a->pieces, a->threads, print_line, NULL, &err) != 0) {
        cli_error("egdb build: %s", err.msg);
        return CLI_BAD_INPUT;
    }
    return CLI_OK;
}

static int egdb_verify(const struct egdb_args *a, const dm_variant *v, const char *root)
{
    dm_error err;
    long wrong = dm_egdb_verify(v, root, a->pieces, a->threads, print_line, NULL, &err);
    if (wrong < 0) {
        cli_error("egdb verify: %s", err.msg);
        return CLI_BAD_INPUT;
    }
    printf("egdb verify: %s: %ld wrong values\n", dm_variant_id(v), wrong);
    return wrong ? CLI_BAD_INPUT : CLI_OK;
}

static int egdb_probe(const struct egdb_args *a, const dm_variant *v, const char *root)
{
    if (!a->fen) {
        cli_error("egdb probe: give --fen F");
        return CLI_USAGE;
    }
    dm_position pos;
    if (cli_position(v, a->fen, &pos) != 0)
        return CLI_BAD_INPUT;
    dm_error err;
    dm_egdb *db = dm_egdb_open(v, root, &err);
    if (!db) {
        cli_error("egdb probe: %s", err.msg);
        return CLI_BAD_INPUT;
    }
    dm_egdb_value val;
    int rc = dm_egdb_probe(db, &pos, &val);
    int status = CLI_OK;
    if (rc > 0) {
        const char *what = val.wdl > 0 ? "win" : val.wdl < 0 ? "loss" : "draw";
        if (val.wdl == 0)
            printf("draw\n");
        else
            printf("%s in %s%d plies\n", what, val.plies >= DM_EGDB_MAX_PLIES ? ">= " : "",
                   val.plies);
    } else if (*dm_egdb_error(db)) {
        cli_error("egdb probe: %s", dm_egdb_error(db));
        status = CLI_BAD_INPUT;
    } else {
        printf("unknown (no table for this material under %s, or a capture pending)\n", root);
    }
    dm_egdb_close(db);
    return status;
}

struct info_totals {
    int tables, signatures, bad;
    unsigned long long bytes, positions;
};

static void print_info(void *ctx, const dm_egdb_table_info *t)
{
    struct info_totals *tot = ctx;
    tot->tables++;
    tot->bytes += t->file_bytes;
    if (!t->ok) {
        tot->bad++;
        printf("%-12s %12llu bytes  refused: %s\n", t->name, (unsigned long long)t->file_bytes,
               t->error);
        return;
    }
    tot->positions += t->positions;
    tot->signatures += t->mirror[0] ? 2 : 1;
    printf("%-12s %12llu bytes %12llu positions  W %llu  D %llu  L %llu  not stored %llu%s%s%s\n",
           t->name, (unsigned long long)t->file_bytes, (unsigned long long)t->positions,
           (unsigned long long)t->wins, (unsigned long long)t->draws,
           (unsigned long long)t->losses, (unsigned long long)t->not_stored,
           t->mirror[0] ? "  (also " : "", t->mirror, t->mirror[0] ? ")" : "");
}

static int egdb_info(const struct egdb_args *a, const dm_variant *v, const char *root)
{
    (void)a;
    struct info_totals tot = {0};
    dm_egdb_list(v, root, print_info, &tot);
    printf("egdb info: %s: %d tables in %s/%s (%d signatures with their mirrors), %llu bytes, "
           "%llu positions, %d refused\n",
           dm_variant_id(v), tot.tables, root, dm_variant_id(v), tot.signatures, tot.bytes,
           tot.positions, tot.bad);
    return tot.bad ? CLI_BAD_INPUT : CLI_OK;
}

int cmd_egdb(int argc, char **argv)
{
    if (argc < 1) {
        cli_error("egdb: give build, verify, probe or info (see 'damier egdb --help')");
        return CLI_USAGE;
    }
    const char *sub = argv[0];
    int (*run)(const struct egdb_args *, const dm_variant *, const char *) =
        strcmp(sub, "build") == 0    ? egdb_build
        : strcmp(sub, "verify") == 0 ? egdb_verify
        : strcmp(sub, "probe") == 0  ? egdb_probe
        : strcmp(sub, "info") == 0   ? egdb_info
                                     : NULL;
    if (!run) {
        if (sub[0] == '-' && sub[1])
            return cli_unknown_option("egdb", sub);
        cli_error("egdb: unknown subcommand '%s' (build, verify, probe or info)", cli_quote(sub));
        return CLI_USAGE;
    }
    struct egdb_args a = {0};
    int rc = read_args(sub, argc - 1, argv + 1, &a);
    if (rc != CLI_OK)
        return rc;
    const dm_variant *v = supported_variant(sub, a.variant);
    if (!v)
        return a.variant ? CLI_BAD_INPUT : CLI_USAGE;
    char buf[512];
    const char *root = root_of(&a, buf, sizeof buf);
    if (!root)
        return CLI_BAD_INPUT;
    return run(&a, v, root);
}
