/* SPDX-License-Identifier: MIT */
/*
 * cmd_pdn.c - damier pdn check|convert: PDN files read, replayed, written.
 *
 *   damier pdn check [--variant V] FILE...
 *       one line per game: "FILE:game N (White - Black): ok, M moves" or
 *       "FILE:game N (White - Black): line L: reason"; exit 1 if any fails
 *   damier pdn convert [--variant V] --to pdn|fen|json FILE...
 *       every good game as normalised PDN (blank line between games), as
 *       its final FEN (one line each), or as JSON (one object a line);
 *       the bad ones on stderr as check reports them, exit 1
 *
 * A game whose tags do not name its variant is read as --variant V; without
 * it the reader guesses (the first variant that replays the whole game) and
 * check says so.  FILE "-" is standard input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

enum { MAX_FILE = 1 << 30 };

enum format { TO_PDN, TO_FEN, TO_JSON };

/* The whole file, malloc'ed; NULL with an error line if it cannot be read. */
static char *slurp(const char *path, size_t *size)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        cli_error("%s: cannot open", path);
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *data = malloc(cap);
    while (data) {
        len += fread(data + len, 1, cap - len, f);
        if (len < cap)
            break;
        if (cap >= MAX_FILE) {
            cli_error("%s: larger than %d MiB", path, MAX_FILE >> 20);
            free(data);
            data = NULL;
            break;
        }
        char *grown = realloc(data, cap * 2);
        if (!grown) {
            cli_error("%s: out of memory", path);
            free(data);
            data = NULL;
            break;
        }
        data = grown;
        cap *= 2;
    }
    if (data && ferror(f)) {
        cli_error("%s: read error", path);
        free(data);
        data = NULL;
    }
    if (f != stdin)
        fclose(f);
    if (!data)
        return NULL;
    *size = len;
    return data;
}

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < ' ')
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

static void json_cell(FILE *out, const dm_variant *v, int cell)
{
    char name[8];
    dm_cell_name(v, cell, name, sizeof name);
    json_string(out, name);
}

static void json_game(FILE *out, const dm_pdn_game *g)
{
    const dm_variant *v = g->variant;
    char fen[512];
    fprintf(out, "{\"game\":%d,\"variant\":", g->number);
    json_string(out, dm_variant_id(v));
    fprintf(out, ",\"guessed\":%s,\"tags\":{", g->variant_guessed ? "true" : "false");
    for (int i = 0; i < g->ntags; i++) {
        fputs(i ? "," : "", out);
        json_string(out, g->tags[i].name);
        fputc(':', out);
        json_string(out, g->tags[i].value);
    }
    dm_fen_format(v, &g->start, fen, sizeof fen);
    fputs("},\"start\":", out);
    json_string(out, fen);
    fputs(",\"moves\":[", out);
    for (int i = 0; i < g->nmoves; i++) {
        const dm_pdn_move *pm = &g->moves[i];
        fputs(i ? ",{\"notation\":" : "{\"notation\":", out);
        json_string(out, pm->text);
        fputs(",\"from\":", out);
        json_cell(out, v, pm->move.from);
        fputs(",\"to\":", out);
        json_cell(out, v, pm->move.to);
        fputs(",\"captures\":[", out);
        for (int k = 0; k < pm->move.njumps; k++) {
            fputs(k ? "," : "", out);
            json_cell(out, v, pm->move.captured[k]);
        }
        fputc(']', out);
        if (pm->comment) {
            fputs(",\"comment\":", out);
            json_string(out, pm->comment);
        }
        fputc('}', out);
    }
    dm_fen_format(v, &g->end, fen, sizeof fen);
    fputs("],\"result\":", out);
    json_string(out, dm_pdn_result_text(v, g->result));
    fputs(",\"end\":", out);
    json_string(out, fen);
    fputs("}\n", out);
}

/* Reads every game of one file; check prints a line for each, convert the
 * good ones.  Returns the number of games that failed, or -1 if the file
 * could not be read. */
static int run_file(const char *path, const dm_variant *variant, bool check, enum format to,
                    int *written)
{
    size_t size;
    char *data = slurp(path, &size);
    if (!data)
        return -1;
    dm_pdn_options opt = {.variant = variant, .guess_variant = variant == NULL};
    dm_pdn_reader *r = dm_pdn_reader_new(data, size, &opt);
    free(data);
    if (!r) {
        cli_error("%s: out of memory", path);
        return -1;
    }
    dm_pdn_game g = {0};
    dm_error err;
    int failed = 0, status;
    while ((status = dm_pdn_read(r, &g, &err)) != 0) {
        char label[160];
        dm_pdn_game_label(&g, label, sizeof label);
        if (status < 0) {
            failed++;
            fprintf(check ? stdout : stderr, "%s:%s: line %d: %s\n", path, label, g.error_line,
                    g.error);
            continue;
        }
        if (check) {
            printf("%s:%s: ok, %d moves", path, label, g.nmoves);
            if (g.variant_guessed)
                printf(" (%s, guessed)", dm_variant_id(g.variant));
            printf("\n");
        } else if (to == TO_FEN) {
            char fen[512];
            dm_fen_format(g.variant, &g.end, fen, sizeof fen);
            printf("%s\n", fen);
        } else if (to == TO_JSON) {
            json_game(stdout, &g);
        } else {
            char *text = dm_pdn_write(&g, &err);
            if (!text) {
                failed++;
                fprintf(stderr, "%s:%s: %s\n", path, label, err.msg);
                continue;
            }
            printf("%s%s", (*written)++ ? "\n" : "", text);
            free(text);
        }
    }
    dm_pdn_game_free(&g);
    dm_pdn_reader_free(r);
    return failed;
}

int cmd_pdn(int argc, char **argv)
{
    const char *usage = "usage: damier pdn check [--variant V] FILE...\n"
                        "       damier pdn convert [--variant V] --to pdn|fen|json FILE...";
    if (argc < 1 || (strcmp(argv[0], "check") != 0 && strcmp(argv[0], "convert") != 0)) {
        fprintf(stderr, "%s\n", usage);
        return 2;
    }
    bool check = strcmp(argv[0], "check") == 0;
    const dm_variant *variant = NULL;
    const char *to = NULL;
    const char **files = calloc((size_t)argc, sizeof *files);
    int nfiles = 0;
    if (!files)
        return 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--variant") == 0 && i + 1 < argc) {
            if (!(variant = cli_variant(argv[++i]))) {
                free(files);
                return 2;
            }
        } else if (strcmp(argv[i], "--to") == 0 && i + 1 < argc && !check) {
            to = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            cli_error("pdn: unknown option '%s'", argv[i]);
            fprintf(stderr, "%s\n", usage);
            free(files);
            return 2;
        } else {
            files[nfiles++] = argv[i];
        }
    }
    enum format format = TO_PDN;
    if (!check &&
        (!to || (strcmp(to, "pdn") != 0 && strcmp(to, "fen") != 0 && strcmp(to, "json") != 0))) {
        cli_error("pdn convert: --to pdn, fen or json");
        free(files);
        return 2;
    }
    if (to)
        format = strcmp(to, "fen") == 0 ? TO_FEN : strcmp(to, "json") == 0 ? TO_JSON : TO_PDN;
    if (nfiles == 0) {
        fprintf(stderr, "%s\n", usage);
        free(files);
        return 2;
    }
    int status = 0, written = 0;
    for (int i = 0; i < nfiles; i++)
        if (run_file(files[i], variant, check, format, &written) != 0)
            status = 1;
    free(files);
    return status;
}
