/* SPDX-License-Identifier: MIT */
/*
 * json.c - the move and position forms of docs/json.md as jansson values.
 * jansson escapes strings itself (and refuses invalid UTF-8), so unlike
 * the command line's writer nothing here escapes text; every string that
 * goes in is ours (square names, FENs, move text), never raw input.
 */
#include "server/json.h"

json_t *sj_cell(const dm_variant *v, int cell)
{
    char name[8];
    dm_cell_name(v, cell, name, sizeof name);
    return json_string(name);
}

json_t *sj_move(const dm_variant *v, const dm_move *m, const char *notation)
{
    json_t *path = json_array(), *captures = json_array();
    /* The route: where the piece stands after each step or jump. */
    json_array_append_new(path, sj_cell(v, m->from));
    for (int j = 0; j < m->njumps; j++) {
        json_array_append_new(path, sj_cell(v, m->path[j]));
        json_array_append_new(captures, sj_cell(v, m->captured[j]));
    }
    if (m->njumps == 0 && m->to != m->from)
        json_array_append_new(path, sj_cell(v, m->to));
    return json_pack("{s:s, s:o, s:o, s:o, s:o, s:b}", "notation", notation, "from",
                     sj_cell(v, m->from), "to", sj_cell(v, m->to), "path", path, "captures",
                     captures, "promotes", (m->flags & DM_MOVE_PROMOTES) != 0);
}

json_t *sj_position(const dm_variant *v, const dm_position *pos)
{
    char fen[1024];
    dm_fen_format(v, pos, fen, sizeof fen);
    json_t *pieces = json_array();
    for (int cell = 0; cell < dm_variant_cells(v); cell++) {
        dm_bits bit = (dm_bits)1 << cell;
        if (!((pos->white | pos->black) & bit))
            continue;
        json_array_append_new(
            pieces, json_pack("{s:o, s:s, s:s}", "square", sj_cell(v, cell), "color",
                              (pos->white & bit) ? "white" : "black", "kind",
                              (pos->kings & bit)   ? "king"
                              : (pos->paras & bit) ? "parachutist"
                                                   : "man"));
    }
    return json_pack("{s:s, s:s, s:o}", "fen", fen, "side",
                     pos->side == DM_WHITE ? "white" : "black", "pieces", pieces);
}

json_t *sj_error(const char *msg)
{
    /* A message may quote input that is not UTF-8: jansson would refuse
     * it, so fall back to a generic line rather than an empty answer. */
    json_t *o = json_pack("{s:s}", "error", msg);
    return o ? o : json_pack("{s:s}", "error", "bad input (not UTF-8)");
}
