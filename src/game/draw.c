/* SPDX-License-Identifier: MIT */
/*
 * draw.c - the draw rules of every variant under both presets, as data
 * (RULES.md 0.5 and each variant's section).
 *
 * One record per rule set, one row per variant id naming its `default` and
 * `official` records.  Counts are in plies: "k moves" means k moves by each
 * side, 2k plies; only a rule that gives the strong side k moves of its own
 * counts those (STRONG_MOVES).  A rule whose source is unsure is a named record here, so
 * that correcting it touches no code.  Variants without a row (none today;
 * the table test checks) get DEFAULT_DRAW.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "game/game.h"
#include "rules/variant.h"

/* k moves each with kings only: no man move, no capture. */
#define KING_ONLY(k, why)                                                                \
    {why, 2 * (k), RESET_CAPTURE | RESET_MAN_MOVE, MAT_ANY, DIAG_ANY, false, false}
/* k moves each once the material holds; a capture or promotion (which
 * changes the material) starts over, so the move that creates it is not
 * counted (RULES.md 3.1, FMJD-64 7.2.4 and 7.2.6). */
#define ENDGAME(k, mat, diag, why)                                                       \
    {why, 2 * (k), RESET_CAPTURE | RESET_PROMOTION, mat, diag, false, false}
/* The same, where the rule gives the strong side k moves of its own: the
 * game is drawn right after its k-th. */
#define STRONG_MOVES(k, mat, diag, why)                                                  \
    {why, k, RESET_CAPTURE | RESET_PROMOTION, mat, diag, true, false}

/* 0.5: variants whose sources give no counting rule [OPEN]. */
static const struct draw_rules DEFAULT_DRAW = {
    "DEFAULT_DRAW (RULES.md 0.5) [OPEN]", 3, RESET_CAPTURE,
    {KING_ONLY(50, "50 king-only moves each")}};

/* 1.1 default (house rule). */
static const struct draw_rules ENGLISH_HOUSE = {
    "house rules (RULES.md 1.1)", 3, RESET_CAPTURE,
    {{"50 moves each without a capture", 100, RESET_CAPTURE, MAT_ANY, DIAG_ANY, false, false}}};

/* 1.1 official (WCDF); 4.3 Gothic follows it [OPEN]. */
static const struct draw_rules ENGLISH_WCDF = {
    "WCDF (RULES.md 1.1)", 3, RESET_CAPTURE,
    {KING_ONLY(40, "WCDF 40-move rule: no man move or capture")}};

/* 1.3 [CONFLICT] 4-fold repetition (dctl cites FID 9.3(b1); pydraughts 3). */
#define ITALIAN_REPETITION 4
static const struct draw_rules ITALIAN_FID = {
    "FID (RULES.md 1.3)", ITALIAN_REPETITION, RESET_CAPTURE,
    {KING_ONLY(40, "40 moves each without a capture or man move")}};

/* 2.1 default (house rule), also Poddavki, Thai and Turkish. */
static const struct draw_rules KINGS_25 = {
    "house rules (RULES.md 2.1)", 3, RESET_CAPTURE,
    {KING_ONLY(25, "25 king-only moves each")}};

/* 2.1 official, and Brazilian (2.3) in both presets. */
static const struct draw_rules FMJD64 = {
    "FMJD-64 7.2 (RULES.md 2.1)", 3, RESET_CAPTURE,
    {ENDGAME(15, MAT_KINGS_3PLUS_V_KING, DIAG_ANY, "FMJD-64 7.2.4: 3 kings v 1 king, 15 moves"),
     KING_ONLY(15, "FMJD-64 7.2.5: 15 king-only moves each"),
     ENDGAME(30, MAT_BOTH_KINGS_4_5, DIAG_ANY, "FMJD-64 7.2.6: 30 moves with 4-5 pieces"),
     ENDGAME(60, MAT_BOTH_KINGS_6_7, DIAG_ANY, "FMJD-64 7.2.6: 60 moves with 6-7 pieces"),
     ENDGAME(5, MAT_3_WITH_KING_V_KING, DIAG_WEAK_ALONE,
             "FMJD-64 7.2.7: 5 moves v a lone king on the long diagonal"),
     ENDGAME(5, MAT_2_WITH_KING_V_KING, DIAG_ANY,
             "FMJD-64 7.2.8: 5 moves with 1-2 pieces v 1 king")}};

/* 2.2 official; 8.11: the 7.2.6/7.2.8 counters are not applied.  The big
 * road rule comes first: after a capture by the lone king it fires on the
 * strong side's 15th move, a ply before the king-only rule. */
static const struct draw_rules PODDAVKI_OFFICIAL = {
    "federation rules (RULES.md 2.2)", 3, RESET_CAPTURE,
    {STRONG_MOVES(15, MAT_KINGS_3_V_KING, DIAG_WEAK_ALONE,
                  "3 kings v 1 king on the long diagonal, 15 moves"),
     KING_ONLY(15, "15 king-only moves each")}};

/* 2.4 the APCA 13 count; 8.9 [OPEN] 15 king-only moves each. */
#define POOL_KING_MOVES 15
static const struct draw_rules POOL_APCA = {
    "APCA (RULES.md 2.4)", 3, RESET_CAPTURE,
    {STRONG_MOVES(13, MAT_KINGS_3_V_KING, DIAG_ANY, "APCA 13 count: 3 kings v 1 king, 13 moves"),
     KING_ONLY(POOL_KING_MOVES, "15 king-only moves each")}};

/* 2.9 */
static const struct draw_rules SPANISH = {
    "RULES.md 2.9", 3, RESET_CAPTURE,
    {KING_ONLY(20, "20 king-only moves each"),
     STRONG_MOVES(12, MAT_KINGS_3_V_KING, DIAG_ANY, "3 kings v 1 king, 12 moves")}};

/* 2.10 FPD 2021: the 3 v 1 count restarts when a king steps onto the long
 * diagonal (read as a king of the three). */
static const struct draw_rules PORTUGUESE_FPD = {
    "FPD 2021 (RULES.md 2.10)", 3, RESET_CAPTURE,
    {{"FPD: 20 moves each without a capture or promotion", 40, RESET_CAPTURE | RESET_PROMOTION,
      MAT_ANY, DIAG_ANY, false, false},
     {"FPD: 3 kings v 1 king with the long diagonal, 12 moves", 24,
      RESET_CAPTURE | RESET_PROMOTION | RESET_DIAG_ENTRY, MAT_KINGS_3_V_KING, DIAG_STRONG,
      false, false}}};

/* 3.1 FMJD art. 6; Killer and Canadian use it [OPEN]. */
static const struct draw_rules FMJD = {
    "FMJD (RULES.md 3.1)", 3, RESET_CAPTURE,
    {KING_ONLY(25, "25 king-only moves each"),
     ENDGAME(16, MAT_3_WITH_KING_V_KING, DIAG_ANY, "16 moves with 3 pieces v 1 king"),
     ENDGAME(5, MAT_2_WITH_KING_V_KING, DIAG_ANY, "5 moves with 1-2 pieces v 1 king")}};

/* 3.3: repetition only, history cleared after a man move or capture (a
 * promotion is a man move). */
static const struct draw_rules ANTIDRAUGHTS = {
    "lidraughts (RULES.md 3.3)", 3, RESET_CAPTURE | RESET_MAN_MOVE, {{0}}};

/* 3.4 and 4.5: no draw at all. */
static const struct draw_rules NO_DRAW = {"no draw rule (RULES.md 3.4, 4.5)", 0, 0, {{0}}};

/* 3.5: no repetition; 8.7, 1 v 1 as lidraughts (2 more moves each). */
static const struct draw_rules FRISIAN = {
    "lidraughts (RULES.md 3.5)", 0, RESET_CAPTURE,
    {ENDGAME(7, MAT_KINGS_2_V_KING, DIAG_ANY, "2 kings v 1 king 7 moves"),
     ENDGAME(2, MAT_KING_V_KING, DIAG_ANY, "1 king v 1 king 2 moves")}};

/* 4.1, 8.4: one piece against one is drawn once the side to move has no
 * capture; `default` adds the house rule of 25 king-only moves. */
#define ONE_V_ONE                                                                        \
    {"one piece against one", 0, RESET_CAPTURE, MAT_ONE_V_ONE, DIAG_ANY, false, true}
static const struct draw_rules TURKISH_HOUSE = {
    "house rules (RULES.md 4.1)", 3, RESET_CAPTURE,
    {ONE_V_ONE, KING_ONLY(25, "25 king-only moves each")}};
static const struct draw_rules TURKISH_ACADEMY = {
    "Turkish Dama Academy (RULES.md 4.1)", 3, RESET_CAPTURE, {ONE_V_ONE}};

/* 4.2 PlayStrategy. */
static const struct draw_rules DAMEO = {
    "PlayStrategy (RULES.md 4.2)", 3, RESET_CAPTURE,
    {KING_ONLY(25, "25 king-only moves each"),
     ENDGAME(2, MAT_KING_V_KING, DIAG_ANY, "1 king v 1 king 2 moves")}};

static const struct draw_row {
    const char *id;
    const struct draw_rules *preset[2]; /* DM_RULES_DEFAULT, DM_RULES_OFFICIAL */
} rows[] = {
    {"english", {&ENGLISH_HOUSE, &ENGLISH_WCDF}},
    {"anti-checkers", {&ENGLISH_HOUSE, &ENGLISH_WCDF}}, /* 1.2: draws as 1.1 */
    {"italian", {&ITALIAN_FID, &ITALIAN_FID}},
    {"russian", {&KINGS_25, &FMJD64}},
    {"poddavki", {&KINGS_25, &PODDAVKI_OFFICIAL}},
    {"brazilian", {&FMJD64, &FMJD64}},
    {"pool", {&POOL_APCA, &POOL_APCA}},
    {"czech", {&DEFAULT_DRAW, &DEFAULT_DRAW}},
    {"corner", {&DEFAULT_DRAW, &DEFAULT_DRAW}},
    {"one-way", {&DEFAULT_DRAW, &DEFAULT_DRAW}},
    {"parachute", {&DEFAULT_DRAW, &DEFAULT_DRAW}},
    {"spanish", {&SPANISH, &SPANISH}},
    {"portuguese", {&PORTUGUESE_FPD, &PORTUGUESE_FPD}},
    {"thai", {&KINGS_25, &KINGS_25}}, /* no federation text: official as default */
    {"international", {&FMJD, &FMJD}},
    {"killer", {&FMJD, &FMJD}},
    {"antidraughts", {&ANTIDRAUGHTS, &ANTIDRAUGHTS}},
    {"breakthrough", {&NO_DRAW, &NO_DRAW}},
    {"canadian", {&FMJD, &FMJD}},
    {"frisian", {&FRISIAN, &FRISIAN}},
    {"frysk", {&FRISIAN, &FRISIAN}},
    {"turkish", {&TURKISH_HOUSE, &TURKISH_ACADEMY}},
    {"dameo", {&DAMEO, &DAMEO}},
    {"gothic", {&ENGLISH_WCDF, &ENGLISH_WCDF}},
    {"alquerque", {&DEFAULT_DRAW, &DEFAULT_DRAW}},
    {"hawaiian", {&NO_DRAW, &NO_DRAW}},
};

static const struct draw_row *row_for(const dm_variant *v)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (strcmp(rows[i].id, v->id) == 0)
            return &rows[i];
    return NULL;
}

const struct draw_rules *game_draw_rules(const dm_variant *v, enum dm_rules preset)
{
    const struct draw_row *r = row_for(v);
    return r ? r->preset[preset == DM_RULES_OFFICIAL] : &DEFAULT_DRAW;
}

bool game_draw_rules_listed(const dm_variant *v)
{
    return row_for(v) != NULL;
}

const char *dm_rules_name(enum dm_rules rules)
{
    return rules == DM_RULES_OFFICIAL ? "official" : "default";
}

int dm_rules_parse(const char *text, enum dm_rules *rules)
{
    if (strcmp(text, "default") == 0)
        *rules = DM_RULES_DEFAULT;
    else if (strcmp(text, "official") == 0)
        *rules = DM_RULES_OFFICIAL;
    else
        return -1;
    return 0;
}

/* snprintf at the end of what buf holds so far; len keeps growing past size
 * so the caller learns the length it needed. */
static void appendf(char *buf, size_t size, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void appendf(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *at = *len < size ? buf + *len : NULL;
    int n = vsnprintf(at, at ? size - *len : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        *len += (size_t)n;
}

int dm_draw_rules_describe(const dm_variant *v, enum dm_rules rules, char *buf, size_t size)
{
    const struct draw_rules *d = game_draw_rules(v, rules);
    size_t len = 0;
    if (size > 0)
        buf[0] = '\0';
    appendf(buf, size, &len, "%s\n", d->source);
    if (d->repetition)
        appendf(buf, size, &len, "repetition: the same position %d times\n", d->repetition);
    else
        appendf(buf, size, &len, "no repetition rule\n");
    for (int i = 0; i < DRAW_MAX_COUNTERS && d->counter[i].reason; i++) {
        const struct draw_counter *c = &d->counter[i];
        if (c->limit)
            appendf(buf, size, &len, "%s (%d %s)\n", c->reason, c->limit,
                    c->strong_moves ? "moves of the strong side" : "plies");
        else
            appendf(buf, size, &len, "%s\n", c->reason);
    }
    return (int)len;
}
