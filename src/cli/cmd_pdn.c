/* SPDX-License-Identifier: MIT */
/*
 * cmd_pdn.c - damier pdn check|convert: PDN files read, replayed, written.
 *
 *   damier pdn check [--variant V] FILE...
 *       one line per game: "FILE:game N (White - Black): ok, M moves" or
 *       "FILE:game N (White - Black): line L: reason", "FILE: no game in
 *       it" for a file without one (a file that cannot be read is said on
 *       stderr, with strerror's reason), then the summary
 *       "pdn check: F files, G games, M moves, X failed"; exit 1 if any
 *       game or file fails
 *   damier pdn convert [--variant V] --to pdn|fen|json FILE...
 *       every good game as normalised PDN (blank line between games), as
 *       its final FEN (one line each), or as JSON (one object a line,
 *       docs/json.md); the bad ones on stderr as check reports them (and
 *       with json also as error objects in the output), exit 1
 *
 * A game whose tags do not name its variant is read as --variant V; without
 * it the reader guesses (the first variant that replays the whole game) and
 * check says so.  FILE "-" is standard input.  Every line is flushed as it
 * is written, so that a reader of a pipe follows the run game by game.
 * File names are shown with control characters escaped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/json.h"

enum { MAX_FILE = 1 << 30 };

enum format { TO_PDN, TO_FEN, TO_JSON };

/* What a run has done so far, for check's summary line. */
struct tally {
    int files, games, moves, failed;
};

/* The whole file, malloc'ed; NULL with why set (strerror's words, or ours)
 * if it cannot be read. */
static char *slurp(const char *path, size_t *size, char *why, size_t why_size)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    struct stat st;
    if (!f) {
        snprintf(why, why_size, "%s", strerror(errno));
        return NULL;
    }
    /* fopen opens a directory for reading; only the read would fail. */
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(why, why_size, "%s", strerror(EISDIR));
        if (f != stdin)
            fclose(f);
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *data = malloc(cap);
    while (data) {
        len += fread(data + len, 1, cap - len, f);
        if (len < cap)
            break;
        if (cap >= MAX_FILE) {
            snprintf(why, why_size, "larger than %d MiB", MAX_FILE >> 20);
            free(data);
            data = NULL;
            break;
        }
        char *grown = realloc(data, cap * 2);
        if (!grown) {
            snprintf(why, why_size, "out of memory");
            free(data);
            data = NULL;
            break;
        }
        data = grown;
        cap *= 2;
    }
    if (data && ferror(f)) {
        snprintf(why, why_size, "read error: %s", strerror(errno));
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

/* A game as one JSON line (docs/json.md). */
static void json_game(FILE *out, const char *path, const dm_pdn_game *g)
{
    const dm_variant *v = g->variant;
    fputs("{\"file\":", out);
    json_quoted(out, path);
    fprintf(out, ",\"game\":%d,\"variant\":", g->number);
    json_quoted(out, dm_variant_id(v));
    fprintf(out, ",\"guessed\":%s,\"tags\":{", g->variant_guessed ? "true" : "false");
    for (int i = 0; i < g->ntags; i++) {
        fputs(i ? "," : "", out);
        json_quoted(out, g->tags[i].name);
        fputc(':', out);
        json_quoted(out, g->tags[i].value);
    }
    fputs("},\"start\":", out);
    json_position(out, v, &g->start);
    fputs(",\"moves\":[", out);
    for (int i = 0; i < g->nmoves; i++) {
        const dm_pdn_move *pm = &g->moves[i];
        fputs(i ? "," : "", out);
        json_move(out, v, &pm->move, pm->text, pm->comment);
    }
    fputs("],\"result\":", out);
    json_quoted(out, dm_pdn_result_text(v, g->result));
    fputs(",\"end\":", out);
    json_position(out, v, &g->end);
    fputs("}\n", out);
}

/* A file that cannot be read, on stderr as every command reports bad input
 * (check's own lines, on stdout, are about what files hold); with json also
 * an error object in the output. */
static void file_failed(const char *path, enum format to, bool check, const char *why)
{
    cli_error("%s: %s", cli_quote(path), why);
    if (!check && to == TO_JSON)
        json_error(stdout, path, 0, 0, NULL, why);
    fflush(stdout);
}

/* Reads every game of one file; check prints a line for each, convert the
 * good ones.  Counts the file, its games, the moves of the good ones and
 * what failed into t. */
static void run_file(const char *path, const dm_variant *variant, bool check, enum format to,
                     int *written, struct tally *t)
{
    size_t size;
    char why[256];
    t->files++;
    char *data = slurp(path, &size, why, sizeof why);
    if (!data) {
        file_failed(path, to, check, why);
        t->failed++;
        return;
    }
    dm_pdn_options opt = {.variant = variant, .guess_variant = variant == NULL};
    dm_pdn_reader *r = dm_pdn_reader_new(data, size, &opt);
    free(data);
    if (!r) {
        file_failed(path, to, check, "out of memory");
        t->failed++;
        return;
    }
    const char *shown = cli_quote(path);
    dm_pdn_game g = {0};
    dm_error err;
    int status, games = 0;
    while ((status = dm_pdn_read(r, &g, &err)) != 0) {
        char label[160];
        games++;
        t->games++;
        dm_pdn_game_label(&g, label, sizeof label);
        if (status < 0) {
            t->failed++;
            fprintf(check ? stdout : stderr, "%s:%s: line %d: %s\n", shown, label, g.error_line,
                    g.error);
            if (!check && to == TO_JSON)
                json_error(stdout, path, g.number, g.error_line, NULL, g.error);
            fflush(stdout);
            continue;
        }
        t->moves += g.nmoves;
        if (check) {
            printf("%s:%s: ok, %d moves", shown, label, g.nmoves);
            if (g.variant_guessed)
                printf(" (%s, guessed)", dm_variant_id(g.variant));
            printf("\n");
        } else if (to == TO_FEN) {
            char fen[512];
            dm_fen_format(g.variant, &g.end, fen, sizeof fen);
            printf("%s\n", fen);
        } else if (to == TO_JSON) {
            json_game(stdout, path, &g);
        } else {
            char *text = dm_pdn_write(&g, &err);
            if (!text) {
                t->failed++;
                fprintf(stderr, "%s:%s: %s\n", shown, label, err.msg);
                continue;
            }
            printf("%s%s", (*written)++ ? "\n" : "", text);
            free(text);
        }
        fflush(stdout);
    }
    dm_pdn_game_free(&g);
    dm_pdn_reader_free(r);
    if (games == 0) {
        /* Most likely the wrong file: said where check reports games. */
        fprintf(check ? stdout : stderr, "%s%s: no game in it\n", check ? "" : "damier: ", shown);
        if (!check && to == TO_JSON)
            json_error(stdout, path, 0, 0, NULL, "no game in it");
        fflush(stdout);
        t->failed++;
    }
}

int cmd_pdn(int argc, char **argv)
{
    const char *usage = "usage: damier pdn check [--variant V] FILE...\n"
                        "       damier pdn convert [--variant V] --to pdn|fen|json FILE...\n"
                        "(see 'damier pdn --help')";
    if (argc < 1) {
        fprintf(stderr, "%s\n", usage);
        return CLI_USAGE;
    }
    if (strcmp(argv[0], "check") != 0 && strcmp(argv[0], "convert") != 0) {
        if (argv[0][0] == '-' && argv[0][1])
            return cli_unknown_option("pdn", argv[0]);
        cli_error("pdn: unknown command '%s' (check or convert)", cli_quote(argv[0]));
        return CLI_USAGE;
    }
    bool check = strcmp(argv[0], "check") == 0;
    const char *variant_id = NULL, *to = NULL;
    const char **files = calloc((size_t)argc, sizeof *files);
    int nfiles = 0;
    if (!files) {
        cli_error("out of memory");
        return CLI_BAD_INPUT;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool valued = strcmp(a, "--variant") == 0 || (strcmp(a, "--to") == 0 && !check);
        if (valued && i + 1 >= argc) {
            cli_error("pdn %s: option '%s' needs a value", argv[0], a);
            free(files);
            return CLI_USAGE;
        }
        if (strcmp(a, "--variant") == 0) {
            variant_id = argv[++i];
        } else if (valued) {
            to = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            free(files);
            return cli_unknown_option(check ? "pdn check" : "pdn convert", a);
        } else {
            files[nfiles++] = a;
        }
    }
    enum format format = TO_PDN;
    if (!check && !to) {
        cli_error("pdn convert: give --to pdn, fen or json");
        free(files);
        return CLI_USAGE;
    }
    if (to && strcmp(to, "pdn") != 0 && strcmp(to, "fen") != 0 && strcmp(to, "json") != 0) {
        cli_error("pdn convert: --to is pdn, fen or json, not '%s'", cli_quote(to));
        free(files);
        return CLI_USAGE;
    }
    if (to)
        format = strcmp(to, "fen") == 0 ? TO_FEN : strcmp(to, "json") == 0 ? TO_JSON : TO_PDN;
    if (nfiles == 0) {
        cli_error("pdn %s: give at least one FILE (- for stdin)", argv[0]);
        free(files);
        return CLI_USAGE;
    }
    const dm_variant *variant = NULL;
    if (variant_id && !(variant = cli_variant(variant_id))) {
        free(files);
        return CLI_BAD_INPUT;
    }
    struct tally t = {0};
    int written = 0;
    for (int i = 0; i < nfiles; i++)
        run_file(files[i], variant, check, format, &written, &t);
    free(files);
    if (check) {
        printf("pdn check: %d file%s, %d game%s, %d move%s, %d failed\n", t.files,
               t.files == 1 ? "" : "s", t.games, t.games == 1 ? "" : "s", t.moves,
               t.moves == 1 ? "" : "s", t.failed);
        fflush(stdout);
    }
    return t.failed ? CLI_BAD_INPUT : CLI_OK;
}
