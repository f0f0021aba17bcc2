/* SPDX-License-Identifier: MIT */
/*
 * game.c - a game: its moves, takebacks, draw counters and result.
 *
 * The game keeps one record per ply: the position after it, the move that led
 * there, every draw counter and where the repetition history starts.  Undo
 * is therefore a matter of forgetting the last records, and restores every
 * counter exactly.  Games are short (hundreds of plies), so the repetition
 * check simply compares the current position with each earlier one since
 * the last irreversible move.
 *
 * Repetition compares whole positions (dm_position_equal), which includes
 * the counters that change which moves are legal (Frisian's same-king
 * counter).  The draw counters themselves are left out: they grow with every
 * ply, so a position compared with them could never occur twice.
 *
 * The result is judged after every change, in the order of docs/variants.md: the
 * rules of the position (no move, first king) before the draw rules, and the
 * draw rules in their table order; the players' acts only while the game is
 * on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "game/game.h"
#include "rules/rules.h"
#include "rules/variant.h"

struct game_ply {
    dm_position pos;                   /* after this ply */
    dm_move move;                      /* that led here (none at ply 0) */
    uint16_t count[DRAW_MAX_COUNTERS]; /* draw counters after this ply */
    int rep_start;                     /* first ply counted for repetition */
};

struct dm_game {
    const dm_variant *v;
    enum dm_rules rules;
    const struct draw_rules *draw;
    dm_bits long_diag;      /* a1-h8 (h1-a8 on mirrored boards) */
    struct game_ply *plies; /* [0 .. ply] */
    int ply, cap;
    dm_move_list legal; /* of the current position */
    enum dm_result result;
    enum dm_end end;
    char reason[96];
    int offer;       /* the colour offering a draw, or -1 */
    int repetitions; /* occurrences of the current position */
};

static const char *const color_name[2] = {"White", "Black"};

static dm_bits side_bits(const dm_position *p, int color)
{
    return color == DM_WHITE ? p->white : p->black;
}

/* The long diagonal: from the playing corner of rank 1 to the far corner. */
static dm_bits long_diagonal(const struct geometry *geo)
{
    int c = geo->cell_at[0][0], dir = DIR_NE;
    if (c < 0) {
        c = geo->cell_at[0][geo->files - 1];
        dir = DIR_NW;
    }
    dm_bits set = 0;
    for (; c >= 0; c = geo->next[c][dir])
        set |= BIT128(c);
    return set;
}

/* ---- draw counters ---------------------------------------------------- */

struct material {
    int pieces[2], kings[2];
};

static void material_of(const dm_position *p, struct material *m)
{
    for (int c = 0; c < 2; c++) {
        dm_bits own = side_bits(p, c);
        m->pieces[c] = popcount128(own);
        m->kings[c] = popcount128(own & p->kings);
    }
}

/* Whether side s fits the strong side of a lone-king condition. */
static bool strong_fits(enum draw_material mat, const struct material *m, int s)
{
    int n = m->pieces[s], k = m->kings[s];
    switch (mat) {
    case MAT_KINGS_3PLUS_V_KING:
        return n >= 3 && k == n;
    case MAT_KINGS_3_V_KING:
        return n == 3 && k == 3;
    case MAT_KINGS_2_V_KING:
        return n == 2 && k == 2;
    case MAT_KING_V_KING:
        return n == 1 && k == 1;
    case MAT_3_WITH_KING_V_KING:
        return n == 3 && k >= 1;
    case MAT_2_WITH_KING_V_KING:
        return n >= 1 && n <= 2 && k >= 1;
    default:
        return false;
    }
}

static bool diagonal_fits(const dm_game *g, enum draw_diagonal diag, const dm_position *p, int weak)
{
    dm_bits on_diag = (p->white | p->black) & g->long_diag;
    switch (diag) {
    case DIAG_WEAK_ALONE:
        return on_diag != 0 && on_diag == (side_bits(p, weak) & g->long_diag);
    case DIAG_STRONG:
        return (side_bits(p, weak ^ 1) & p->kings & g->long_diag) != 0;
    default:
        return true;
    }
}

/*
 * Whether counter c runs in position p.  For a lone-king condition, *strong
 * gets the strong side (either side when both are lone kings); else -1.
 */
static bool counter_holds(const dm_game *g, const struct draw_counter *c, const dm_position *p,
                          int *strong)
{
    struct material m;
    material_of(p, &m);
    int total = m.pieces[0] + m.pieces[1];
    bool both_kings = m.kings[0] > 0 && m.kings[1] > 0;
    *strong = -1;
    switch ((enum draw_material)c->material) {
    case MAT_ANY:
        return true;
    case MAT_BOTH_KINGS_4_5:
        return both_kings && total >= 4 && total <= 5;
    case MAT_BOTH_KINGS_6_7:
        return both_kings && total >= 6 && total <= 7;
    case MAT_ONE_V_ONE:
        return m.pieces[0] == 1 && m.pieces[1] == 1;
    default:
        break;
    }
    for (int weak = 0; weak < 2; weak++)
        if (m.pieces[weak] == 1 && m.kings[weak] == 1 &&
            strong_fits((enum draw_material)c->material, &m, weak ^ 1) &&
            diagonal_fits(g, (enum draw_diagonal)c->diagonal, p, weak)) {
            *strong = weak ^ 1;
            return true;
        }
    return false;
}

/* The enum draw_reset kinds that the move m from before is; DIAG_ENTRY when a
 * king steps onto the long diagonal (counters check it is the strong side). */
static unsigned ply_events(const dm_game *g, const dm_position *before, const dm_move *m)
{
    unsigned ev = 0;
    dm_bits from = BIT128(m->from);
    if (m->njumps > 0 || (m->flags & DM_MOVE_REMOVAL))
        ev |= RESET_CAPTURE;
    if (!(before->kings & from))
        ev |= RESET_MAN_MOVE;
    if (m->flags & DM_MOVE_PROMOTES)
        ev |= RESET_PROMOTION;
    if ((before->kings & from) && !(g->long_diag & from) && has128(g->long_diag, m->to))
        ev |= RESET_DIAG_ENTRY;
    return ev;
}

static void update_counters(const dm_game *g, const struct game_ply *prev, struct game_ply *next)
{
    unsigned ev = ply_events(g, &prev->pos, &next->move);
    int mover = prev->pos.side;
    for (int i = 0; i < DRAW_MAX_COUNTERS; i++) {
        const struct draw_counter *c = &g->draw->counter[i];
        next->count[i] = 0;
        if (!c->reason)
            continue;
        int strong;
        bool holds = counter_holds(g, c, &next->pos, &strong);
        unsigned reset = ev;
        if (mover != strong)
            reset &= ~(unsigned)RESET_DIAG_ENTRY;
        if (!holds || (c->reset & reset))
            continue;
        bool counts = !c->strong_moves || mover == strong;
        next->count[i] = (uint16_t)(prev->count[i] + (counts && prev->count[i] < UINT16_MAX));
    }
    next->rep_start = (ev & g->draw->rep_clear) ? g->ply + 1 : prev->rep_start;
}

/* ---- the result ------------------------------------------------------- */

static void set_result(dm_game *g, enum dm_result r, enum dm_end end, const char *reason)
{
    g->result = r;
    g->end = end;
    snprintf(g->reason, sizeof g->reason, "%s", reason);
}

static enum dm_result win_for(int color)
{
    return color == DM_WHITE ? DM_RESULT_WHITE_WINS : DM_RESULT_BLACK_WINS;
}

static int count_repetitions(const dm_game *g)
{
    const struct game_ply *cur = &g->plies[g->ply];
    int n = 1;
    for (int p = g->ply - 1; p >= cur->rep_start; p--)
        if (dm_position_equal(&g->plies[p].pos, &cur->pos))
            n++;
    return n;
}

/* Regenerates the legal moves and judges the current position. */
static void judge(dm_game *g)
{
    const struct game_ply *cur = &g->plies[g->ply];
    const dm_position *pos = &cur->pos;
    int side = pos->side;
    char why[96];

    set_result(g, DM_RESULT_NONE, DM_END_NONE, "");
    dm_generate(g->v, pos, &g->legal, 0);
    g->repetitions = count_repetitions(g);

    enum dm_outcome decided = rules_goal_reached(g->v, pos);
    if (decided != DM_ONGOING) {
        int winner = decided == DM_SIDE_TO_MOVE_WINS ? side : side ^ 1;
        snprintf(why, sizeof why, "%s crowned the first king", color_name[winner]);
        set_result(g, win_for(winner), DM_END_FIRST_KING, why);
        return;
    }
    if (g->legal.count == 0) {
        bool wins = g->v->goal == GOAL_NO_MOVE_WINS;
        snprintf(why, sizeof why, "%s cannot move%s", color_name[side], wins ? " and wins" : "");
        set_result(g, win_for(wins ? side : side ^ 1), DM_END_NO_MOVE, why);
        return;
    }
    static const char *const times[] = {"", "", "twofold", "threefold", "fourfold", "fivefold"};
    int rep = g->draw->repetition;
    if (rep && g->repetitions >= rep) {
        snprintf(why, sizeof why, "%s repetition", rep < 6 ? times[rep] : "repeated");
        set_result(g, DM_RESULT_DRAW, DM_END_REPETITION, why);
        return;
    }
    bool capture_now = g->legal.moves[0].njumps > 0;
    for (int i = 0; i < DRAW_MAX_COUNTERS && g->draw->counter[i].reason; i++) {
        const struct draw_counter *c = &g->draw->counter[i];
        int strong;
        if (cur->count[i] >= c->limit && counter_holds(g, c, pos, &strong) &&
            !(c->unless_capture && capture_now)) {
            set_result(g, DM_RESULT_DRAW, DM_END_DRAW_RULE, c->reason);
            return;
        }
    }
}

/* ---- the game --------------------------------------------------------- */

dm_game *dm_game_new(const dm_variant *v, enum dm_rules rules, const char *fen, dm_error *err)
{
    dm_game *g = calloc(1, sizeof *g);
    if (!g || !(g->plies = calloc(64, sizeof *g->plies))) {
        free(g);
        if (err)
            snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    g->cap = 64;
    if (fen) {
        if (dm_fen_parse(v, fen, &g->plies[0].pos, err) != 0) {
            dm_game_free(g);
            return NULL;
        }
    } else {
        dm_position_start(v, &g->plies[0].pos);
    }
    g->v = v;
    g->rules = rules;
    g->draw = game_draw_rules(v, rules);
    g->long_diag = long_diagonal(v->geo);
    g->offer = -1;
    judge(g);
    return g;
}

void dm_game_free(dm_game *g)
{
    if (!g)
        return;
    free(g->plies);
    free(g);
}

const dm_variant *dm_game_variant(const dm_game *g)
{
    return g->v;
}
enum dm_rules dm_game_rules(const dm_game *g)
{
    return g->rules;
}
int dm_game_ply(const dm_game *g)
{
    return g->ply;
}
const dm_move_list *dm_game_legal(const dm_game *g)
{
    return &g->legal;
}
bool dm_game_over(const dm_game *g)
{
    return g->end != DM_END_NONE;
}
enum dm_result dm_game_result(const dm_game *g)
{
    return g->result;
}
enum dm_end dm_game_end(const dm_game *g)
{
    return g->end;
}
const char *dm_game_reason(const dm_game *g)
{
    return g->reason;
}
int dm_game_draw_offer(const dm_game *g)
{
    return g->offer;
}

const dm_position *dm_game_position(const dm_game *g, int ply)
{
    return ply >= 0 && ply <= g->ply ? &g->plies[ply].pos : NULL;
}

const dm_move *dm_game_move(const dm_game *g, int ply)
{
    return ply >= 1 && ply <= g->ply ? &g->plies[ply].move : NULL;
}

void dm_game_move_text(const dm_game *g, int ply, char *buf, size_t size)
{
    if (size == 0)
        return;
    buf[0] = '\0';
    if (ply < 1 || ply > g->ply)
        return;
    /* The list of the position it was played in decides whether the route
     * must be written out. */
    dm_move_list legal;
    dm_generate(g->v, &g->plies[ply - 1].pos, &legal, 0);
    dm_move_format(g->v, &g->plies[ply].move, &legal, buf, size);
}

int dm_game_play(dm_game *g, const dm_move *m, dm_error *err)
{
    if (dm_game_over(g)) {
        snprintf(err->msg, sizeof err->msg, "the game is over: %s", g->reason);
        return -1;
    }
    int found = -1;
    for (int i = 0; i < g->legal.count && found < 0; i++)
        if (dm_move_same(&g->legal.moves[i], m))
            found = i;
    if (found < 0) {
        snprintf(err->msg, sizeof err->msg, "that move is not legal in this position");
        return -1;
    }
    if (g->ply + 1 == g->cap) {
        struct game_ply *more = realloc(g->plies, (size_t)g->cap * 2 * sizeof *more);
        if (!more) {
            snprintf(err->msg, sizeof err->msg, "out of memory");
            return -1;
        }
        g->plies = more;
        g->cap *= 2;
    }
    struct game_ply *prev = &g->plies[g->ply], *next = prev + 1;
    int mover = prev->pos.side;
    next->pos = prev->pos;
    next->move = g->legal.moves[found];
    dm_make_move(g->v, &next->pos, &next->move);
    update_counters(g, prev, next);
    g->ply++;
    if (g->offer == (mover ^ 1))
        g->offer = -1; /* declined by moving */
    judge(g);
    return 0;
}

/* The captures that may be played and, where precedence chose them, why:
 * "a capture is compulsory: 26x37 takes the most pieces (3)".  The legal
 * list must hold captures. */
static void capture_reason(const dm_game *g, char *buf, size_t size)
{
    const dm_variant *v = g->v;
    const dm_move_list *l = &g->legal;
    const dm_move *best = &l->moves[0];
    char list[120] = "", one[64];
    size_t len = 0;
    int shown = 0;
    for (int i = 0; i < l->count && shown < 3; i++, shown++) {
        dm_move_format(v, &l->moves[i], l, one, sizeof one);
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                i == 0 ? "" : (i + 1 == l->count ? " or " : ", "), one);
        if (len >= sizeof list)
            break;
    }
    if (shown < l->count && len < sizeof list)
        snprintf(list + len, sizeof list - len, " ...");

    char why[80] = "";
    int pieces = popcount128(best->captured_set);
    int kings = popcount128(best->captured_set & g->plies[g->ply].pos.kings);
    const char *verb = l->count == 1 ? "takes" : "take";
    if (v->precedence & PREC_VALUE)
        snprintf(why, sizeof why, " %s the most value (%d %s, %d %s)", verb, pieces - kings,
                 pieces - kings == 1 ? "man" : "men", kings, kings == 1 ? "king" : "kings");
    else if (v->precedence & PREC_QUANTITY)
        snprintf(why, sizeof why, " %s the most pieces (%d)", verb, pieces);
    else if ((v->precedence & PREC_WITH_KING) && (g->plies[g->ply].pos.kings & BIT128(best->from)))
        snprintf(why, sizeof why, ": a king that can capture must");
    snprintf(buf, size, "a capture is compulsory: %s%s", list, why);
}

int dm_game_capture_reason(const dm_game *g, char *buf, size_t size)
{
    if (size)
        buf[0] = '\0';
    if (dm_game_over(g) || g->legal.count == 0)
        return 0;
    for (int i = 0; i < g->legal.count; i++)
        if (g->legal.moves[i].njumps == 0)
            return 0;
    capture_reason(g, buf, size);
    return 1;
}

/* The message for a move that ignores a compulsory capture. */
static void explain_capture(const dm_game *g, const char *text, dm_error *err)
{
    char reason[240];
    capture_reason(g, reason, sizeof reason);
    size_t n = strcspn(text, "\r\n");
    snprintf(err->msg, sizeof err->msg, "move '%.*s' is illegal: %s", (int)(n > 24 ? 24 : n), text,
             reason);
}

int dm_game_play_text(dm_game *g, const char *text, dm_error *err)
{
    if (dm_game_over(g)) {
        snprintf(err->msg, sizeof err->msg, "the game is over: %s", g->reason);
        return -1;
    }
    int i = dm_move_parse(g->v, &g->legal, text, err);
    if (i < 0) {
        /* A well-formed move that is not legal while captures are: say which
         * captures may be played and why; other errors stay as they are. */
        if (i == DM_PARSE_ILLEGAL && g->legal.count > 0 && g->legal.moves[0].njumps > 0)
            explain_capture(g, text, err);
        return -1;
    }
    return dm_game_play(g, &g->legal.moves[i], err);
}

int dm_game_undo(dm_game *g, int plies)
{
    int n = plies < g->ply ? plies : g->ply;
    if (n <= 0)
        return 0;
    g->ply -= n;
    g->offer = -1;
    judge(g);
    return n;
}

/* Ends a game still on as a loss for loser, the reason being the colour's
 * name and then what: resigning and a fallen flag end it alike. */
static void declare_loss(dm_game *g, enum dm_color loser, enum dm_end end, const char *what)
{
    char why[32];
    if (dm_game_over(g))
        return;
    snprintf(why, sizeof why, "%s %s", color_name[loser], what);
    set_result(g, win_for(loser ^ 1), end, why);
}

void dm_game_resign(dm_game *g, enum dm_color loser)
{
    declare_loss(g, loser, DM_END_RESIGNATION, "resigned");
}

bool dm_game_accept_draw(dm_game *g, enum dm_color who)
{
    if (dm_game_over(g) || g->offer != (int)(who ^ 1))
        return false;
    g->offer = -1;
    set_result(g, DM_RESULT_DRAW, DM_END_AGREEMENT, "draw agreed");
    return true;
}

bool dm_game_offer_draw(dm_game *g, enum dm_color who)
{
    if (dm_game_over(g))
        return false;
    if (dm_game_accept_draw(g, who))
        return true;
    g->offer = who;
    return false;
}

void dm_game_time_forfeit(dm_game *g, enum dm_color flagged)
{
    declare_loss(g, flagged, DM_END_TIME, "lost on time");
}

bool dm_game_counter(const dm_game *g, int i, const char **name, int *count, int *limit)
{
    if (i < 0 || i >= DRAW_MAX_COUNTERS || !g->draw->counter[i].reason)
        return false;
    *name = g->draw->counter[i].reason;
    *count = g->plies[g->ply].count[i];
    *limit = g->draw->counter[i].limit;
    return true;
}

int dm_game_repetitions(const dm_game *g, int *limit)
{
    if (limit)
        *limit = g->draw->repetition;
    return g->repetitions;
}
