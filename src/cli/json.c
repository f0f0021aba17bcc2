/* SPDX-License-Identifier: MIT */
/*
 * json.c - the JSON forms of json.h, written straight to a stream: the
 * commands write one object a line (JSON Lines), so nothing is built in
 * memory.  docs/json.md documents each form; a change here changes the
 * contract every front end reads, and goes there too.
 */
#include "cli/json.h"

#include <string.h>

#include "base/text.h"

void json_quoted(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len = strlen(s);
    fputc('"', out);
    for (size_t i = 0; i < len;) {
        unsigned char c = p[i];
        if (c >= 0x80) {
            size_t n = text_utf8_length(p + i, len - i);
            if (n) {
                fwrite(p + i, 1, n, out);
                i += n;
            } else {
                fputs("\\ufffd", out);
                i++;
            }
            continue;
        }
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c < 0x20 || c == 0x7F)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
        i++;
    }
    fputc('"', out);
}

void json_cell(FILE *out, const dm_variant *v, int cell)
{
    char name[8];
    dm_cell_name(v, cell, name, sizeof name);
    json_quoted(out, name);
}

void json_move(FILE *out, const dm_variant *v, const dm_move *m, const char *notation,
               const char *comment)
{
    fputs("{\"notation\":", out);
    json_quoted(out, notation);
    fputs(",\"from\":", out);
    json_cell(out, v, m->from);
    fputs(",\"to\":", out);
    json_cell(out, v, m->to);
    /* The route: where the piece stands after each step or jump. */
    fputs(",\"path\":[", out);
    json_cell(out, v, m->from);
    for (int j = 0; j < m->njumps; j++) {
        fputc(',', out);
        json_cell(out, v, m->path[j]);
    }
    if (m->njumps == 0 && m->to != m->from) {
        fputc(',', out);
        json_cell(out, v, m->to);
    }
    fputs("],\"captures\":[", out);
    for (int j = 0; j < m->njumps; j++) {
        fputs(j ? "," : "", out);
        json_cell(out, v, m->captured[j]);
    }
    fprintf(out, "],\"promotes\":%s", (m->flags & DM_MOVE_PROMOTES) ? "true" : "false");
    if (comment) {
        fputs(",\"comment\":", out);
        json_quoted(out, comment);
    }
    fputc('}', out);
}

void json_position(FILE *out, const dm_variant *v, const dm_position *pos)
{
    char fen[1024];
    dm_fen_format(v, pos, fen, sizeof fen);
    fputs("{\"fen\":", out);
    json_quoted(out, fen);
    fprintf(out, ",\"side\":\"%s\",\"pieces\":[", pos->side == DM_WHITE ? "white" : "black");
    bool first = true;
    for (int cell = 0; cell < dm_variant_cells(v); cell++) {
        dm_bits bit = (dm_bits)1 << cell;
        if (!((pos->white | pos->black) & bit))
            continue;
        fputs(first ? "{\"square\":" : ",{\"square\":", out);
        first = false;
        json_cell(out, v, cell);
        fprintf(out, ",\"color\":\"%s\",\"kind\":\"%s\"}", (pos->white & bit) ? "white" : "black",
                (pos->kings & bit) ? "king" : (pos->paras & bit) ? "parachutist" : "man");
    }
    fputs("]}", out);
}

void json_error(FILE *out, const char *file, int game, int line, const char *input,
                const char *error)
{
    const char *sep = "{";
    if (file) {
        fprintf(out, "%s\"file\":", sep);
        json_quoted(out, file);
        sep = ",";
    }
    if (game > 0) {
        fprintf(out, "%s\"game\":%d", sep, game);
        sep = ",";
    }
    if (line > 0) {
        fprintf(out, "%s\"line\":%d", sep, line);
        sep = ",";
    }
    if (input) {
        fprintf(out, "%s\"input\":", sep);
        json_quoted(out, input);
        sep = ",";
    }
    fprintf(out, "%s\"error\":", sep);
    json_quoted(out, error ? error : "");
    fputs("}\n", out);
    fflush(out);
}
