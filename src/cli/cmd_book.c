/* SPDX-License-Identifier: MIT */
/*
 * cmd_book.c - `damier book`: building an opening book by Damier's own
 * analysis, and reading one.
 *
 *   damier book build --variant V [--nodes N] [--plies P] [--margin M]
 *                     [--lines K] [--positions K] [--out FILE]
 *   damier book show --variant V [--file FILE] [--fen F] [--moves M]
 *
 * build writes the book file (data/books/ID.dmb by default, where the
 * build embeds it) with a header line saying how it was made; show prints
 * the book moves of a position, best first, with their scores in men.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"

static const char cmd[] = "book";

struct book_cli {
    const char *variant, *out, *file, *fen, *moves;
    int nodes, plies, margin, lines, positions;
};

/* Reads the options after the subcommand; 0, or CLI_USAGE after an error
 * line. */
static int parse(int argc, char **argv, struct book_cli *o)
{
    static const char *const known[] = {"--variant", "--out",    "--file",  "--fen",
                                        "--moves",   "--nodes",  "--plies", "--margin",
                                        "--lines",   "--positions"};
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        size_t k = 0;
        while (k < sizeof known / sizeof *known && strcmp(a, known[k]) != 0)
            k++;
        if (k == sizeof known / sizeof *known)
            return cli_unknown_option(cmd, a);
        if (i + 1 >= argc) {
            cli_error("book: option '%s' needs a value", a);
            return CLI_USAGE;
        }
        const char *value = argv[++i];
        int bad = 0;
        if (strcmp(a, "--variant") == 0)
            o->variant = value;
        else if (strcmp(a, "--out") == 0)
            o->out = value;
        else if (strcmp(a, "--file") == 0)
            o->file = value;
        else if (strcmp(a, "--fen") == 0)
            o->fen = value;
        else if (strcmp(a, "--moves") == 0)
            o->moves = value;
        else if (strcmp(a, "--nodes") == 0)
            bad = cli_number(cmd, a, value, 100, 1000000000, &o->nodes);
        else if (strcmp(a, "--plies") == 0)
            bad = cli_number(cmd, a, value, 1, 60, &o->plies);
        else if (strcmp(a, "--margin") == 0)
            bad = cli_number(cmd, a, value, 1, 1000, &o->margin);
        else if (strcmp(a, "--lines") == 0)
            bad = cli_number(cmd, a, value, 1, DM_MAX_MULTIPV, &o->lines);
        else
            bad = cli_number(cmd, a, value, 1, 10000000, &o->positions);
        if (bad)
            return CLI_USAGE;
    }
    if (!o->variant)
        o->variant = "international";
    return 0;
}

static void progress(void *ctx, int positions, int moves, int ply)
{
    (void)ctx;
    if (positions % 100 == 0) {
        fprintf(stderr, "book: %d positions, %d moves, ply %d\n", positions, moves, ply);
        fflush(stderr);
    }
}

static int build(const struct book_cli *o, const dm_variant *v)
{
    char out[512], made[400], date[16];
    snprintf(out, sizeof out, o->out ? "%s" : "data/books/%s.dmb", o->out ? o->out : dm_variant_id(v));
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    dm_book_build_options bo = {.nodes = (uint64_t)o->nodes, .plies = o->plies,
                                .margin = o->margin, .lines = o->lines,
                                .max_positions = o->positions, .on_progress = progress};
    /* The defaults as dm_book_build takes them, so that the file says them. */
    snprintf(made, sizeof made,
             "%s: damier book build --variant %s --nodes %d --plies %d --margin %d --lines %d "
             "--positions %d",
             date, dm_variant_id(v), o->nodes ? o->nodes : 100000, o->plies ? o->plies : 8,
             o->margin ? o->margin : 15, o->lines ? o->lines : 6,
             o->positions ? o->positions : 5000);
    bo.made = made;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char *data;
    size_t size;
    dm_error err;
    if (dm_book_build(v, &bo, &data, &size, &err) != 0) {
        cli_error("book: %s", err.msg);
        return CLI_BAD_INPUT;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    dm_book *b = dm_book_read(v, data, size, &err);
    FILE *f = b ? fopen(out, "wb") : NULL;
    bool written = f && fwrite(data, 1, size, f) == size;
    if (f && fclose(f) != 0)
        written = false;
    free(data);
    if (!b || !written) {
        cli_error("book: %s", b ? "cannot write the book" : err.msg);
        if (b)
            fprintf(stderr, "book: to '%s'\n", cli_quote(out));
        dm_book_free(b);
        return CLI_BAD_INPUT;
    }
    int positions, moves = dm_book_size(b, &positions);
    printf("book of %s: %d positions, %d moves, %zu bytes, %.1f s: %s\n", dm_variant_id(v),
           positions, moves, size,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, out);
    dm_book_free(b);
    return CLI_OK;
}

/* Plays the blank-separated moves of text from *pos; 0, or CLI_BAD_INPUT
 * after an error line naming the move. */
static int play_moves(const dm_variant *v, dm_position *pos, const char *text)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", text);
    dm_move_list legal;
    int n = 0;
    for (char *tok = strtok(buf, " \t"); tok; tok = strtok(NULL, " \t")) {
        dm_error err;
        dm_generate(v, pos, &legal, 0);
        int i = dm_move_parse(v, &legal, tok, &err);
        if (i < 0) {
            cli_error("book: --moves, move %d '%s': %s", n + 1, cli_quote(tok), err.msg);
            return CLI_BAD_INPUT;
        }
        dm_make_move(v, pos, &legal.moves[i]);
        n++;
    }
    return 0;
}

static int show(const struct book_cli *o, const dm_variant *v)
{
    dm_error err;
    dm_book *loaded = NULL;
    const dm_book *b;
    if (o->file) {
        b = loaded = dm_book_load(v, o->file, &err);
        if (!b) {
            cli_error("book: %s", err.msg);
            return CLI_BAD_INPUT;
        }
    } else if (!(b = dm_book_builtin(v))) {
        cli_error("book: %s has no built-in book (damier book build makes one)", dm_variant_id(v));
        return CLI_BAD_INPUT;
    }
    dm_position pos;
    int rc = o->fen ? cli_position(v, o->fen, &pos) : (dm_position_start(v, &pos), 0);
    if (rc == 0 && o->moves)
        rc = play_moves(v, &pos, o->moves);
    if (rc == 0) {
        int positions, moves = dm_book_size(b, &positions);
        printf("book of %s: %d positions, %d moves; made %s\n", dm_variant_id(v), positions,
               moves, *dm_book_made(b) ? dm_book_made(b) : "(it does not say how)");
        dm_book_move found[DM_MAX_MULTIPV];
        int n = dm_book_moves(b, &pos, found, DM_MAX_MULTIPV);
        dm_move_list legal;
        dm_generate(v, &pos, &legal, 0);
        if (n == 0)
            printf("not in the book\n");
        for (int i = 0; i < n; i++) {
            char text[DM_PDN_MOVE_TEXT];
            dm_move_format(v, &found[i].move, &legal, text, sizeof text);
            int s = found[i].score;
            printf("%s %s%d.%02d\n", text, s > 0 ? "+" : s < 0 ? "-" : "", abs(s) / 100,
                   abs(s) % 100);
        }
    }
    dm_book_free(loaded);
    return rc;
}

int cmd_book(int argc, char **argv)
{
    if (argc < 1 || (strcmp(argv[0], "build") != 0 && strcmp(argv[0], "show") != 0)) {
        cli_error("book: build or show expected%s%s%s", argc ? ", not '" : "",
                  argc ? cli_quote(argv[0]) : "", argc ? "'" : "");
        return CLI_USAGE;
    }
    struct book_cli o = {0};
    int rc = parse(argc - 1, argv + 1, &o);
    if (rc)
        return rc;
    const dm_variant *v = cli_variant(o.variant);
    if (!v)
        return CLI_BAD_INPUT;
    if (strcmp(argv[0], "build") == 0) {
        if (o.file || o.fen || o.moves) {
            cli_error("book: build takes no --file, --fen or --moves");
            return CLI_USAGE;
        }
        return build(&o, v);
    }
    if (o.out || o.nodes || o.plies || o.margin || o.lines || o.positions) {
        cli_error("book: show takes --variant, --file, --fen and --moves only");
        return CLI_USAGE;
    }
    return show(&o, v);
}
