/* SPDX-License-Identifier: MIT */
/*
 * variants.c - the variant table: every variant Damier plays, as data, and
 * the one place each per-variant fact lives: the moves, the draw rules of
 * both presets, the start position, the notation and the PDN GameType.
 *
 * Each field cites the rulebook it comes from (the federation's article
 * where one is known, else the source the rules were taken from);
 * docs/variants.md, generated from this table, tells every record in words.
 * Where sources disagree a comment says [CONFLICT] and names the choice;
 * where none settles a point, [OPEN] and the default, kept in a named
 * constant so that correcting it touches no code.
 *
 * A variant that amends another starts from the parent's fields
 * (RULES_<PARENT>) and states only what differs; later designated
 * initialisers override earlier ones, which is what -Woverride-init warns
 * about, so that warning is off in this file alone.  A field that is an
 * array or a struct is always given whole, so an override leaves nothing of
 * the parent's behind.
 *
 * variant_conclude() checks each record (variant_check, fatal on a bad one)
 * and derives per-colour direction sets, promotion cells and the start
 * position once, so the generators read plain masks.
 */
#include "rules/variant.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "rules/kernel.h"
#include "rules/kfull.h"

#pragma GCC diagnostic ignored "-Woverride-init"

/* ---- draw rules ------------------------------------------------------------
 *
 * One record per rule set; each variant names its `default` and `official`
 * sets.  Counts are in plies: "k moves" means k moves by each side, 2k
 * plies; only a rule that gives the strong side k moves of its own counts
 * those (STRONG_MOVES).  A rule whose source is unsure is a named record
 * here, so that correcting it touches no code.
 */

/* k moves each with kings only: no man move, no capture. */
#define KING_ONLY(k, why)                                                                \
    {why, 2 * (k), RESET_CAPTURE | RESET_MAN_MOVE, MAT_ANY, DIAG_ANY, false, false}
/* k moves each once the material holds; a capture or promotion (which
 * changes the material) starts over, so the move that creates it is not
 * counted (FMJD-64 rules 7.2.4 and 7.2.6; FMJD rules art. 6 as lidraughts
 * reads it). */
#define ENDGAME(k, mat, diag, why)                                                       \
    {why, 2 * (k), RESET_CAPTURE | RESET_PROMOTION, mat, diag, false, false}
/* The same, where the rule gives the strong side k moves of its own: the
 * game is drawn right after its k-th. */
#define STRONG_MOVES(k, mat, diag, why)                                                  \
    {why, k, RESET_CAPTURE | RESET_PROMOTION, mat, diag, true, false}

/* [OPEN] Variants whose sources give no automatic counting rule (Czech's
 * federation adjudicates "no further capture with correct play"; BrainKing's
 * pages give none): repetition and a safety counter, Damier's own choice. */
static const struct draw_rules DEFAULT_DRAW = {
    "Damier's default: no source gives a counting rule [OPEN]", 3,
    RESET_CAPTURE, {KING_ONLY(50, "50 king-only moves each")}};

/* English default: the product's house rules (threefold repetition, or 50
 * moves each without a capture). */
static const struct draw_rules ENGLISH_HOUSE = {
    "Damier house rules", 3, RESET_CAPTURE,
    {{"50 moves each without a capture", 100, RESET_CAPTURE, MAT_ANY, DIAG_ANY, false, false}}};

/* English official: WCDF rules 1.32.1 (repetition) and 1.32.2 (40-move
 * rule).  [OPEN] Gothic follows it: BrainKing says "other rules as Checkers". */
static const struct draw_rules ENGLISH_WCDF = {
    "WCDF rules 1.32", 3, RESET_CAPTURE,
    {KING_ONLY(40, "WCDF 40-move rule: no man move or capture")}};

/* FID Regolamento tecnico, capo I, art. 9.3(b1) and 10.4.  [CONFLICT] the
 * repetition count: 4 by the FID article (as dctl cites it), 3 in pydraughts;
 * chosen 4. */
#define ITALIAN_REPETITION 4
static const struct draw_rules ITALIAN_FID = {
    "FID Regolamento art. 9.3, 10.4", ITALIAN_REPETITION, RESET_CAPTURE,
    {KING_ONLY(40, "40 moves each without a capture or man move")}};

/* Russian default: the house rule "25 king moves in a row"; also Poddavki,
 * Thai and Turkish.  [CONFLICT] 25 is the 100-square figure, FMJD-64 rules
 * give Russian 15 (the official preset); the house rule is kept as default. */
static const struct draw_rules KINGS_25 = {
    "Damier house rules", 3, RESET_CAPTURE,
    {KING_ONLY(25, "25 king-only moves each")}};

/* Russian official, and Brazilian in both presets: FMJD-64 rules 7.2.3-7.2.8
 * as lidraughts implements them.  [OPEN] lidraughts applies only the most
 * specific of 7.2.5/7.2.6 for 4-7 pieces; all are checked here (as
 * pydraughts does).  [CONFLICT] a Brazilian federation summary gives 20 king
 * moves for 64 squares; chosen 15, as FMJD-64 and lidraughts. */
static const struct draw_rules FMJD64 = {
    "FMJD-64 rules 7.2", 3, RESET_CAPTURE,
    {ENDGAME(15, MAT_KINGS_3PLUS_V_KING, DIAG_ANY, "FMJD-64 7.2.4: 3 kings v 1 king, 15 moves"),
     KING_ONLY(15, "FMJD-64 7.2.5: 15 king-only moves each"),
     ENDGAME(30, MAT_BOTH_KINGS_4_5, DIAG_ANY, "FMJD-64 7.2.6: 30 moves with 4-5 pieces"),
     ENDGAME(60, MAT_BOTH_KINGS_6_7, DIAG_ANY, "FMJD-64 7.2.6: 60 moves with 6-7 pieces"),
     ENDGAME(5, MAT_3_WITH_KING_V_KING, DIAG_WEAK_ALONE,
             "FMJD-64 7.2.7: 5 moves v a lone king on the long diagonal"),
     ENDGAME(5, MAT_2_WITH_KING_V_KING, DIAG_ANY,
             "FMJD-64 7.2.8: 5 moves with 1-2 pieces v 1 king")}};

/* Poddavki official: the federation rules as draughts.github.io sums them up.
 * [OPEN] whether FMJD-64 7.2.6/7.2.8 apply too: not applied.  The big road
 * rule comes first: after a capture by the lone king it fires on the strong
 * side's 15th move, a ply before the king-only rule. */
static const struct draw_rules PODDAVKI_OFFICIAL = {
    "Russian federation rules (draughts.github.io summary)", 3, RESET_CAPTURE,
    {STRONG_MOVES(15, MAT_KINGS_3_V_KING, DIAG_WEAK_ALONE,
                  "3 kings v 1 king on the long diagonal, 15 moves"),
     KING_ONLY(15, "15 king-only moves each")}};

/* APCA tournament rules of play 26 and the APCA "13 count".  [OPEN] dctl
 * reads rule 26 as 30 reversible plies; chosen 15 king-only moves each. */
#define POOL_KING_MOVES 15
static const struct draw_rules POOL_APCA = {
    "APCA rules 26", 3, RESET_CAPTURE,
    {STRONG_MOVES(13, MAT_KINGS_3_V_KING, DIAG_ANY, "APCA 13 count: 3 kings v 1 king, 13 moves"),
     KING_ONLY(POOL_KING_MOVES, "15 king-only moves each")}};

/* Spanish: no federation text found; the PlayStrategy forum's counts ("12
 * for Spanish and Portuguese"). */
static const struct draw_rules SPANISH = {
    "PlayStrategy forum", 3, RESET_CAPTURE,
    {KING_ONLY(20, "20 king-only moves each"),
     STRONG_MOVES(12, MAT_KINGS_3_V_KING, DIAG_ANY, "3 kings v 1 king, 12 moves")}};

/* FPD "Regras do Jogo de Damas Clássicas" (2021), as strategygames cites
 * them: the 3 v 1 count restarts when a king steps onto the long diagonal
 * (read as a king of the three). */
static const struct draw_rules PORTUGUESE_FPD = {
    "FPD rules 2021", 3, RESET_CAPTURE,
    {{"FPD: 20 moves each without a capture or promotion", 40, RESET_CAPTURE | RESET_PROMOTION,
      MAT_ANY, DIAG_ANY, false, false},
     {"FPD: 3 kings v 1 king with the long diagonal, 12 moves", 24,
      RESET_CAPTURE | RESET_PROMOTION | RESET_DIAG_ENTRY, MAT_KINGS_3_V_KING, DIAG_STRONG,
      false, false}}};

/* FMJD rules art. 6 (6.1 repetition, 6.2 25 king moves, then the 16 and 5
 * move endings), as lidraughts implements them.  [OPEN] Killer and Canadian
 * use it: no rules of their own found. */
static const struct draw_rules FMJD = {
    "FMJD rules art. 6", 3, RESET_CAPTURE,
    {KING_ONLY(25, "25 king-only moves each"),
     ENDGAME(16, MAT_3_WITH_KING_V_KING, DIAG_ANY, "16 moves with 3 pieces v 1 king"),
     ENDGAME(5, MAT_2_WITH_KING_V_KING, DIAG_ANY, "5 moves with 1-2 pieces v 1 king")}};

/* lidraughts Antidraughts: repetition only, history cleared after a man move
 * or capture (a promotion is a man move). */
static const struct draw_rules ANTIDRAUGHTS = {
    "lidraughts Antidraughts rules", 3, RESET_CAPTURE | RESET_MAN_MOVE, {{0}}};

/* lidraughts Breakthrough, and Hawaiian (every move captures): no draw. */
static const struct draw_rules NO_DRAW = {"no draw rule", 0, 0, {{0}}};

/* Frisian rules as lidraughts plays them: no repetition rule (lidraughts
 * disables it); 1 king v 1 king is drawn at once by the rules unless a
 * capture is forced, lidraughts (adopted) allows 2 more moves each. */
static const struct draw_rules FRISIAN = {
    "lidraughts Frisian rules", 0, RESET_CAPTURE,
    {ENDGAME(7, MAT_KINGS_2_V_KING, DIAG_ANY, "2 kings v 1 king 7 moves"),
     ENDGAME(2, MAT_KING_V_KING, DIAG_ANY, "1 king v 1 king 2 moves")}};

/* Turkish Dama Academy tournament rules (draft, damaakademisi.com) 19b: one
 * piece against one is drawn once the side to move has no capture.
 * [CONFLICT] English Wikipedia says a king beats a lone man, pydraughts plays
 * 2 more moves each; the academy's rule is chosen.  `default` adds the house
 * rule of 25 king-only moves. */
#define ONE_V_ONE                                                                        \
    {"one piece against one", 0, RESET_CAPTURE, MAT_ONE_V_ONE, DIAG_ANY, false, true}
static const struct draw_rules TURKISH_HOUSE = {
    "Damier house rules", 3, RESET_CAPTURE,
    {ONE_V_ONE, KING_ONLY(25, "25 king-only moves each")}};
static const struct draw_rules TURKISH_ACADEMY = {
    "Turkish Dama Academy rules 19b", 3, RESET_CAPTURE, {ONE_V_ONE}};

/* Dameo as PlayStrategy plays it. */
static const struct draw_rules DAMEO = {
    "PlayStrategy Dameo rules", 3, RESET_CAPTURE,
    {KING_ONLY(25, "25 king-only moves each"),
     ENDGAME(2, MAT_KING_V_KING, DIAG_ANY, "1 king v 1 king 2 moves")}};

/* ---- the records -------------------------------------------------------- */

#define DRAWS(preset_default, preset_official) {&(preset_default), &(preset_official)}
#define GAMETYPE(number, from) {number, GAMETYPE_##from, (number) == 25 ? ':' : 'x'}
#define NO_GAMETYPE {0, GAMETYPE_NONE, 0}

#define FWD_DIAG (DIRBIT(DIR_NE) | DIRBIT(DIR_NW))
#define RUSSIAN_START                                                                    \
    "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"

/* English checkers, WCDF rules (article numbers as dctl cites them): short
 * kings 1.17, men capture forwards only 1.18, a man crowned by a jump ends
 * the move 1.19, free choice among captures 1.20.  [CONFLICT] who starts:
 * some boards let White; WCDF and APCA say Black, chosen. */
#define RULES_ENGLISH                                                                    \
    .geometry = GEOM_D8, .numbering = NUM_TOP, .start_fen = "B:W21-32:B1-12",            \
    .man_steps = FWD_DIAG, .man_jumps = FWD_DIAG, .king = KING_SHORT,                    \
    .king_steps = DIRS_DIAG, .king_jumps = DIRS_DIAG, .landing = LAND_ANY,               \
    .removal = REMOVE_DEFERRED, .promotion = PROMOTE_STOP, .precedence = 0,              \
    .goal = GOAL_NO_MOVE_LOSES, .draw = DRAWS(ENGLISH_HOUSE, ENGLISH_WCDF),              \
    .quiet_sep = '-', .capture_sep = 'x', .gametype = GAMETYPE(21, PDN3)

/* Russian draughts federation rules (shashist.ru code of 2004, as dctl
 * cites it): flying kings 1.4.5, men capture backwards 1.5.3, a man crowned
 * mid-capture goes on as a king 1.5.15; free choice among captures;
 * algebraic squares, ':' for captures. */
#define RULES_RUSSIAN                                                                    \
    .geometry = GEOM_D8, .numbering = NUM_ALGEBRAIC, .start_fen = RUSSIAN_START,         \
    .man_steps = FWD_DIAG, .man_jumps = DIRS_DIAG, .king = KING_FLYING,                  \
    .king_steps = DIRS_DIAG, .king_jumps = DIRS_DIAG, .landing = LAND_ANY,               \
    .removal = REMOVE_DEFERRED, .promotion = PROMOTE_CONTINUE_AS_KING, .precedence = 0,  \
    .goal = GOAL_NO_MOVE_LOSES, .draw = DRAWS(KINGS_25, FMJD64), .quiet_sep = '-',       \
    .capture_sep = ':', .gametype = GAMETYPE(25, PDN3)

/* Czech draughts federation rules (damweb.cz, as dctl cites them): men
 * capture forwards only 4.1, a queen that can capture must 4.14.
 * [CONFLICT] one page calls the board mirrored and a French summary lets men
 * take backwards; the federation's texts (hrejsi.cz, dama.opalka.cz) are
 * followed: standard board, forwards only. */
#define RULES_CZECH                                                                      \
    RULES_RUSSIAN, .man_jumps = FWD_DIAG, .promotion = PROMOTE_END_ONLY,                 \
    .precedence = PREC_WITH_KING, .draw = DRAWS(DEFAULT_DRAW, DEFAULT_DRAW),             \
    .gametype = GAMETYPE(29, PDN3)

/* Spanish draughts: mirrored board (FPD rules 2.1.5; Spain and Portugal
 * share the board and numbering), Iberian numbers from White's right, most
 * pieces then most kings (dctl's Spanish rules). */
#define RULES_SPANISH                                                                    \
    .geometry = GEOM_M8, .numbering = NUM_IBER, .start_fen = "W:W1-12:B21-32",           \
    .man_steps = FWD_DIAG, .man_jumps = FWD_DIAG, .king = KING_FLYING,                   \
    .king_steps = DIRS_DIAG, .king_jumps = DIRS_DIAG, .landing = LAND_ANY,               \
    .removal = REMOVE_DEFERRED, .promotion = PROMOTE_END_ONLY,                           \
    .precedence = PREC_QUANTITY | PREC_MOST_KINGS, .goal = GOAL_NO_MOVE_LOSES,           \
    .draw = DRAWS(SPANISH, SPANISH), .quiet_sep = '-', .capture_sep = 'x',               \
    .gametype = GAMETYPE(24, PDN3)

/* International draughts, FMJD rules: 10x10 (2.1), flying kings 3.9, men
 * capture backwards 4.1, the most pieces must be taken 4.13, a man is
 * crowned only when the move ends on the last row 4.15; notation 8.2. */
#define RULES_INTERNATIONAL                                                              \
    .geometry = GEOM_D10, .numbering = NUM_TOP, .start_fen = "W:W31-50:B1-20",           \
    .man_steps = FWD_DIAG, .man_jumps = DIRS_DIAG, .king = KING_FLYING,                  \
    .king_steps = DIRS_DIAG, .king_jumps = DIRS_DIAG, .landing = LAND_ANY,               \
    .removal = REMOVE_DEFERRED, .promotion = PROMOTE_END_ONLY,                           \
    .precedence = PREC_QUANTITY, .goal = GOAL_NO_MOVE_LOSES, .draw = DRAWS(FMJD, FMJD),  \
    .quiet_sep = '-', .capture_sep = 'x', .gametype = GAMETYPE(20, PDN3)

/* Frisian draughts (friesdammen.nl rules; lidraughts' Frisian page):
 * captures in eight directions, by value, then a king captor; kings move
 * diagonally; one king makes at most 3 quiet moves in a row.
 * [CONFLICT] a king's value: "1.5 men" (Wikipedia) or "less than two"
 * (mindsports); chosen lidraughts' 199 for a king, 100 for a man.
 * [CONFLICT] mindsports lets kings move orthogonally; lidraughts and
 * Wikipedia do not, chosen. */
#define RULES_FRISIAN                                                                    \
    RULES_INTERNATIONAL, .man_jumps = DIRS_ALL, .king_jumps = DIRS_ALL,                  \
    .precedence = PREC_VALUE | PREC_WITH_KING, .frisian_king_limit = true,               \
    .draw = DRAWS(FRISIAN, FRISIAN), .gametype = GAMETYPE(40, PDN3)

/* The orthogonal games: every square of the 8x8 board (Alquerque: every
 * point of its grid) is a cell; algebraic squares; no move loses; no PDN
 * number of their own but Turkish's. */
#define RULES_ORTHO                                                                      \
    .geometry = GEOM_F8, .numbering = NUM_ALGEBRAIC, .landing = LAND_ANY,                \
    .goal = GOAL_NO_MOVE_LOSES, .quiet_sep = '-', .capture_sep = 'x',                    \
    .gametype = NO_GAMETYPE
#define FWD_SIDE (DIRBIT(DIR_N) | DIRBIT(DIR_E) | DIRBIT(DIR_W))
#define FWD_ALL (DIRBIT(DIR_N) | FWD_DIAG)

/* Turkish promotion [CONFLICT]: a man reaching the last row mid-capture is
 * crowned and goes on as a king (current Wikipedia, draughts.github.io),
 * chosen; pydraughts goes on as a man and crowns at the end
 * (PROMOTE_END_ONLY), older texts stop (PROMOTE_STOP). */
#define TURKISH_PROMOTION PROMOTE_CONTINUE_AS_KING

/* Alquerque [OPEN]: a man on the opponent's back row makes no plain move;
 * BrainKing's "unless it can jump" read as: it may still capture sideways. */
#define ALQUERQUE_FAR_ROW FAR_ROW_CAPTURES_ONLY

static struct dm_variant table[] = {
    {RULES_ENGLISH, .id = "english", .name = "English checkers",
     .summary = "8x8, Black starts, short kings, men capture forwards, free choice of capture"},
    /* BrainKing's Anti Checkers: English rules, the side that cannot move
     * wins; draws as English.  [OPEN] BrainKing's first mover may be White;
     * chosen Black, as English. */
    {RULES_ENGLISH, .id = "anti-checkers", .name = "Anti checkers", .parent = "english",
     .summary = "English checkers where the side that cannot move wins",
     .goal = GOAL_NO_MOVE_WINS, .gametype = GAMETYPE(21, RELATIVE)},
    /* FID Regolamento tecnico, capo I: mirrored board art. 2.3, men forward
     * only art. 5.3(a) and never over a king art. 5.3(b); precedence art. 6.6
     * (most pieces), 6.7 (king captor), 6.8 (most kings), 6.9 (kings met
     * soonest). */
    {RULES_ENGLISH, .id = "italian", .name = "Italian draughts",
     .summary = "8x8 mirrored, short kings, men cannot take kings, most pieces, king "
                "captor, most kings, earliest kings",
     .geometry = GEOM_M8, .start_fen = "W:W21-32:B1-12", .man_spares_kings = true,
     .precedence = PREC_QUANTITY | PREC_WITH_KING | PREC_MOST_KINGS | PREC_EARLIEST_KINGS,
     .draw = DRAWS(ITALIAN_FID, ITALIAN_FID), .gametype = GAMETYPE(22, PDN3)},
    {RULES_RUSSIAN, .id = "russian", .name = "Russian draughts (shashki)",
     .summary = "8x8, flying kings, men capture backwards, crowned mid-capture and go on as "
                "kings, free choice of capture"},
    /* Poddavki: Russian rules, the side that cannot move wins (Wikipedia,
     * draughts.github.io). */
    {RULES_RUSSIAN, .id = "poddavki", .name = "Poddavki", .parent = "russian",
     .summary = "Russian draughts where the side that cannot move wins",
     .goal = GOAL_NO_MOVE_WINS, .draw = DRAWS(KINGS_25, PODDAVKI_OFFICIAL),
     .gametype = GAMETYPE(25, RELATIVE)},
    /* Brazilian: FMJD rules (4.13 most pieces, 4.15 crowned at the end) on
     * 8x8, as lidraughts plays it; its draws are FMJD-64's. */
    {RULES_RUSSIAN, .id = "brazilian", .name = "Brazilian draughts", .parent = "russian",
     .summary = "International rules on 8x8: flying kings, most pieces must be taken",
     .promotion = PROMOTE_END_ONLY, .precedence = PREC_QUANTITY,
     .draw = DRAWS(FMJD64, FMJD64), .gametype = GAMETYPE(26, PDN3)},
    /* APCA tournament rules of play: Black starts, men capture backwards 14,
     * flying kings 15, a man passing the last row mid-capture is not crowned
     * 16, no majority rule 20. */
    {RULES_RUSSIAN, .id = "pool", .name = "Pool checkers",
     .summary = "8x8, Black starts, flying kings, men capture backwards, free choice",
     .numbering = NUM_TOP, .start_fen = "B:W21-32:B1-12", .promotion = PROMOTE_END_ONLY,
     .capture_sep = 'x', .draw = DRAWS(POOL_APCA, POOL_APCA), .gametype = GAMETYPE(23, PDN3)},
    {RULES_CZECH, .id = "czech", .name = "Czech draughts",
     .summary = "8x8, flying queens, men capture forwards, a queen that can capture must"},
    /* BrainKing's Corner checkers: Czech rules, men crowned only on two
     * corner squares.  [OPEN] the start position (BrainKing shows only a
     * picture): each side on the other's promotion corner triangle. */
    {RULES_CZECH, .id = "corner", .name = "Corner checkers", .parent = "czech",
     .summary = "Czech rules from the corners; men are crowned only on two corner squares",
     .start_fen = "W:Wg1,h2,e1,f2,g3,h4,c1,d2,e3,f4,g5,h6"
                  ":Bb8,a7,d8,c7,b6,a5,f8,e7,d6,c5,b4,a3",
     .promo_cells = "a7,b8/g1,h2", .gametype = GAMETYPE(29, RELATIVE)},
    /* BrainKing's One Way checkers: Czech rules, all men move towards rank 8.
     * [OPEN] the start position (a picture only) and the promotion row:
     * side by side on three files each, both crowned on rank 8. */
    {RULES_CZECH, .id = "one-way", .name = "One Way checkers", .parent = "czech",
     .summary = "Czech rules where the men of both colours move towards rank 8",
     .start_fen = "W:Wa1,a3,a5,a7,b2,b4,b6,b8,c1,c3,c5,c7"
                  ":Bf2,f4,f6,f8,g1,g3,g5,g7,h2,h4,h6,h8",
     .one_way = true, .gametype = GAMETYPE(29, RELATIVE)},
    /* BrainKing's Parachute checkers: Czech rules plus parachutists.
     * [OPEN] a parachutist that lands goes on capturing as a man. */
    {RULES_CZECH, .id = "parachute", .name = "Parachute checkers", .parent = "czech",
     .summary = "Czech rules plus parachutists that drop behind enemy men on the 7th rank",
     .start_fen = "W:Wb2,d2,f2,h2,a3,c3,e3,g3,Pb8,Pd8,Pf8,Ph8"
                  ":Ba7,c7,e7,g7,b6,d6,f6,h6,Pa1,Pc1,Pe1,Pg1",
     .parachutes = true, .gametype = GAMETYPE(29, RELATIVE)},
    {RULES_SPANISH, .id = "spanish", .name = "Spanish draughts",
     .summary = "8x8 mirrored, flying kings, men capture forwards, most pieces then most kings"},
    /* FPD "Regras do Jogo de Damas Clássicas": Spanish rules (most pieces,
     * then most kings). */
    {RULES_SPANISH, .id = "portuguese", .name = "Portuguese draughts", .parent = "spanish",
     .summary = "Spanish rules (FPD): most pieces, then most kings",
     .draw = DRAWS(PORTUGUESE_FPD, PORTUGUESE_FPD), .gametype = GAMETYPE(28, PDN3)},
    /* Thai checkers (mindsports, checkerschest; no federation text found):
     * 8 men each, kings land right behind the piece taken, pieces leave at
     * once.  [CONFLICT] who starts: a Thai-rules wiki says no fixed rule;
     * chosen White.  The PDN 3.0 table gives Thai '-' for captures, which
     * would read as a quiet move: Thai keeps 'x' (GAMETYPE's). */
    {RULES_RUSSIAN, .id = "thai", .name = "Thai checkers (Mak-hot)",
     .summary = "8x8, 8 men each, kings land right behind the piece taken, pieces leave at once",
     .start_fen = "W:Wa1,c1,e1,g1,b2,d2,f2,h2:Ba7,c7,e7,g7,b8,d8,f8,h8",
     .man_jumps = FWD_DIAG, .landing = LAND_ADJACENT, .removal = REMOVE_IMMEDIATE,
     .promotion = PROMOTE_STOP, .capture_sep = 'x', .draw = DRAWS(KINGS_25, KINGS_25),
     .gametype = GAMETYPE(31, PDN3)},
    {RULES_INTERNATIONAL, .id = "international", .name = "International draughts",
     .summary = "10x10, flying kings, men capture backwards, most pieces must be taken"},
    /* Freeling's Killer draughts (mindsports): a capture whose last piece is
     * a king stops right behind it.  [OPEN] no draw rules of its own:
     * International's. */
    {RULES_INTERNATIONAL, .id = "killer", .name = "Killer draughts", .parent = "international",
     .summary = "International rules, but a capture ending on a king stops right behind it",
     .landing = LAND_ADJACENT_IF_KING, .gametype = GAMETYPE(20, RELATIVE)},
    /* lidraughts Antidraughts: FMJD rules, the side that cannot move wins. */
    {RULES_INTERNATIONAL, .id = "antidraughts", .name = "Antidraughts",
     .parent = "international",
     .summary = "International rules where the side that cannot move wins",
     .goal = GOAL_NO_MOVE_WINS, .draw = DRAWS(ANTIDRAUGHTS, ANTIDRAUGHTS),
     .gametype = GAMETYPE(98, LIDRAUGHTS)},
    /* lidraughts Breakthrough: the first king wins; no draw at all. */
    {RULES_INTERNATIONAL, .id = "breakthrough", .name = "Breakthrough",
     .parent = "international",
     .summary = "International rules where the first side to crown a king wins",
     .goal = GOAL_FIRST_KING, .draw = DRAWS(NO_DRAW, NO_DRAW),
     .gametype = GAMETYPE(96, LIDRAUGHTS)},
    /* Canadian: FMJD rules on 12x12 (FMJD forum, dctl). */
    {RULES_INTERNATIONAL, .id = "canadian", .name = "Canadian draughts",
     .parent = "international", .summary = "International rules on 12x12, 30 men each",
     .geometry = GEOM_D12, .start_fen = "W:W43-72:B1-30", .gametype = GAMETYPE(27, PDN3)},
    {RULES_FRISIAN, .id = "frisian", .name = "Frisian draughts",
     .summary = "10x10, men and kings capture orthogonally too, kings count double, at most "
                "3 quiet moves in a row with one king"},
    /* lidraughts Frysk!: Frisian rules, 5 men each on the back rows. */
    {RULES_FRISIAN, .id = "frysk", .name = "Frysk!", .parent = "frisian",
     .summary = "Frisian rules with 5 men each", .start_fen = "W:W46-50:B1-5",
     .gametype = GAMETYPE(97, LIDRAUGHTS)},
    /* Turkish draughts (Wikipedia, draughts.github.io, pydraughts; the Turkish
     * Dama Academy rules for the draws): men short, never backwards; kings
     * like rooks; pieces leave at once; no 180-degree turn; most pieces, a
     * king counting as a man. */
    {RULES_ORTHO, .id = "turkish", .name = "Turkish draughts (Dama)",
     .summary = "8x8 all squares, 16 men each, men move and capture forwards or sideways, "
                "rook-like flying kings, pieces leave at once, most pieces must be taken",
     .start_fen = "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3"
                  ":Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
     .man_steps = FWD_SIDE, .man_jumps = FWD_SIDE, .king = KING_FLYING,
     .king_steps = DIRS_ORTH, .king_jumps = DIRS_ORTH, .removal = REMOVE_IMMEDIATE,
     .reversal_ban = true, .promotion = TURKISH_PROMOTION, .precedence = PREC_QUANTITY,
     .draw = DRAWS(TURKISH_HOUSE, TURKISH_ACADEMY), .gametype = GAMETYPE(30, PDN3)},
    /* Freeling's Dameo (mindsports, Wikipedia, PlayStrategy): men step
     * straight or diagonally forwards and move whole lines; queen-like kings;
     * captures only orthogonal, short for men, back too; most pieces; PDN
     * writes captures h2:f2. */
    {RULES_ORTHO, .id = "dameo", .name = "Dameo",
     .summary = "8x8 all squares, 18 men each, men step forwards and move whole lines, "
                "queen-like kings, captures only orthogonal, most pieces must be taken",
     .start_fen = "W:Wa1,b1,c1,d1,e1,f1,g1,h1,b2,c2,d2,e2,f2,g2,c3,d3,e3,f3"
                  ":Bc6,d6,e6,f6,b7,c7,d7,e7,f7,g7,a8,b8,c8,d8,e8,f8,g8,h8",
     .man_steps = FWD_ALL, .linear_moves = true, .man_jumps = DIRS_ORTH,
     .king = KING_FLYING, .king_steps = DIRS_ALL, .king_jumps = DIRS_ORTH,
     .removal = REMOVE_DEFERRED, .promotion = PROMOTE_END_ONLY, .precedence = PREC_QUANTITY,
     .draw = DRAWS(DAMEO, DAMEO), .capture_sep = ':'},
    /* BrainKing's Gothic checkers: men in 5 directions, short kings in 8,
     * "other rules as Checkers".  [CONFLICT] setupgroup.com gives flying
     * kings and backward captures; BrainKing's rules are followed. */
    {RULES_ORTHO, .id = "gothic", .name = "Gothic checkers",
     .summary = "8x8 all squares, 16 men each, men move and capture forwards, diagonally "
                "forwards or sideways, short kings in eight directions, free choice",
     .start_fen = "W:Wa1,b1,c1,d1,e1,f1,g1,h1,a2,b2,c2,d2,e2,f2,g2,h2"
                  ":Ba7,b7,c7,d7,e7,f7,g7,h7,a8,b8,c8,d8,e8,f8,g8,h8",
     .man_steps = FWD_ALL | FWD_SIDE, .man_jumps = FWD_ALL | FWD_SIDE, .king = KING_SHORT,
     .king_steps = DIRS_ALL, .king_jumps = DIRS_ALL, .removal = REMOVE_DEFERRED,
     .promotion = PROMOTE_STOP, .precedence = 0, .draw = DRAWS(ENGLISH_WCDF, ENGLISH_WCDF)},
    /* BrainKing's Alquerque de doze: men along the lines, forwards or
     * sideways, later jumps of a capture any way; no kings.  [OPEN] the start
     * position (a picture only): the standard layout, c3 empty. */
    {RULES_ORTHO, .id = "alquerque", .name = "Alquerque",
     .summary = "5x5 points joined by lines, 12 men each, no kings, men go forwards or "
                "sideways, later jumps of a capture may go any way, free choice",
     .geometry = GEOM_Q5,
     .start_fen = "W:Wa1,b1,c1,d1,e1,a2,b2,c2,d2,e2,d3,e3"
                  ":Ba3,b3,a4,b4,c4,d4,e4,a5,b5,c5,d5,e5",
     .man_steps = FWD_ALL | FWD_SIDE, .man_jumps = FWD_ALL | FWD_SIDE,
     .man_jumps_later = DIRS_ALL, .far_row = ALQUERQUE_FAR_ROW, .king = KING_NONE,
     .removal = REMOVE_DEFERRED, .promotion = PROMOTE_NONE, .precedence = 0,
     .draw = DRAWS(DEFAULT_DRAW, DEFAULT_DRAW)},
    /* BrainKing's Hawaiian checkers (Konane): Black first takes a man off the
     * long light diagonal; then straight orthogonal jumps that may stop after
     * any jump; no draw. */
    {RULES_ORTHO, .id = "hawaiian", .name = "Hawaiian checkers (Konane)",
     .summary = "8x8 full board, Black starts by taking a man off; then every move jumps "
                "orthogonally in a straight line and may stop after any jump",
     .start_fen = "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3,b4,d4,f4,h4"
                  ",a5,c5,e5,g5,b6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
                  ":Bb1,d1,f1,h1,a2,c2,e2,g2,b3,d3,f3,h3,a4,c4,e4,g4"
                  ",b5,d5,f5,h5,a6,c6,e6,g6,b7,d7,f7,h7,a8,c8,e8,g8",
     .opening_removals = "a8,d5,e4,h1", .man_steps = 0, .man_jumps = DIRS_ORTH,
     .straight_continuation = true, .optional_continuation = true, .king = KING_NONE,
     .removal = REMOVE_IMMEDIATE, .promotion = PROMOTE_NONE, .precedence = 0,
     .draw = DRAWS(NO_DRAW, NO_DRAW)},
};

enum { TABLE_SIZE = sizeof table / sizeof table[0] };

/* ---- reading the record's cell names ------------------------------------
 *
 * The rules layer reads its own fixed data (the start position, promotion
 * and removal cells) without the notation layer: a small strict reader of
 * square names in the record's numbering, and of the start FEN
 * "<side>:W<list>:B<list>" with K and P prefixes and, where squares are
 * numbers, ranges.  Anything else is a broken record, reported by
 * variant_check.
 */

/* printf into why; always false, so a check can return it. */
static bool failf(char *why, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool failf(char *why, size_t size, const char *fmt, ...)
{
    if (size > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, size, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* The cell that s[0..len) names in v's own notation (a number 1..n in its
 * numbering where squares are numbers, "a1" where they are algebraic), or
 * -1. */
static int cell_named(const struct dm_variant *v, const struct geometry *g, const char *s,
                      size_t len)
{
    int n = 0;
    if (v->numbering != NUM_ALGEBRAIC) {
        if (len == 0 || len > 2 || s[0] == '0')
            return -1;
        for (size_t i = 0; i < len; i++) {
            if (s[i] < '0' || s[i] > '9')
                return -1;
            n = n * 10 + (s[i] - '0');
        }
        if (n < 1 || n > g->ncells)
            return -1;
        return v->numbering == NUM_IBER ? g->ncells - n : n - 1;
    }
    if (len < 2 || len > 3 || s[0] < 'a' || s[0] >= 'a' + g->files || s[1] == '0')
        return -1;
    for (size_t i = 1; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        n = n * 10 + (s[i] - '0');
    }
    return n >= 1 && n <= g->ranks ? g->cell_at[n - 1][s[0] - 'a'] : -1;
}

/* The number cell has in v's numbering (the inverse of cell_named). */
static int number_of(const struct dm_variant *v, const struct geometry *g, int cell)
{
    return v->numbering == NUM_IBER ? g->ncells - cell : cell + 1;
}

/* Reads the names "a7,b8" of text[0..end) into *set; field names the list
 * in the reason.  False on an unknown or repeated name. */
static bool read_cells(const struct dm_variant *v, const struct geometry *g, const char *field,
                       const char *text, const char *end, dm_bits *set, char *why, size_t size)
{
    *set = 0;
    for (const char *p = text; p < end;) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        const char *tok_end = comma ? comma : end;
        int cell = cell_named(v, g, p, (size_t)(tok_end - p));
        if (cell < 0)
            return failf(why, size, "%s: '%.*s' is not a square of the %s board", field,
                         (int)(tok_end - p), p, g->name);
        if (*set & BIT128(cell))
            return failf(why, size, "%s: '%.*s' is given twice", field, (int)(tok_end - p), p);
        *set |= BIT128(cell);
        p = comma ? comma + 1 : end;
        if (comma && p == end)
            return failf(why, size, "%s: a comma ends the list", field);
    }
    return true;
}

/* Reads one colour's piece list of the start FEN, text[0..end). */
static bool read_pieces(const struct dm_variant *v, const struct geometry *g, int color,
                        const char *text, const char *end, dm_position *pos, char *why,
                        size_t size)
{
    const char *list = color == DM_WHITE ? "white" : "black";
    if (text == end)
        return failf(why, size, "start_fen: the %s list is empty", list);
    for (const char *p = text; p < end;) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        const char *tok = p, *tok_end = comma ? comma : end;
        int len = (int)(tok_end - tok);
        p = comma ? comma + 1 : end;
        if (comma && p == end)
            return failf(why, size, "start_fen: a comma ends the %s list", list);
        char kind = *tok == 'K' || *tok == 'P' ? *tok : 0;
        const char *sq = kind ? tok + 1 : tok;
        if (kind == 'K' && v->king == KING_NONE)
            return failf(why, size, "start_fen: '%.*s' is a king, but the record has no king kind",
                         len, tok);
        if (kind == 'P' && !v->parachutes)
            return failf(why, size,
                         "start_fen: '%.*s' is a parachutist, but the record has no parachutes",
                         len, tok);
        const char *dash = memchr(sq, '-', (size_t)(tok_end - sq));
        const char *first_end = dash ? dash : tok_end;
        int first = cell_named(v, g, sq, (size_t)(first_end - sq)), last = first;
        if (first < 0)
            return failf(why, size, "start_fen: '%.*s' is not a square of the %s board",
                         (int)(first_end - sq), sq, g->name);
        if (dash) {
            if (v->numbering == NUM_ALGEBRAIC)
                return failf(why, size, "start_fen: range '%.*s' where squares are algebraic",
                             len, tok);
            last = cell_named(v, g, dash + 1, (size_t)(tok_end - dash - 1));
            if (last < 0 || number_of(v, g, last) < number_of(v, g, first))
                return failf(why, size, "start_fen: range '%.*s' is not two square numbers "
                             "in order", len, tok);
        }
        for (int n = number_of(v, g, first); n <= number_of(v, g, last); n++) {
            int cell = v->numbering == NUM_IBER ? g->ncells - n : n - 1;
            dm_bits bit = BIT128(cell);
            if ((pos->white | pos->black) & bit)
                return failf(why, size, "start_fen: '%.*s' puts a second piece on a square",
                             len, tok);
            *(color == DM_WHITE ? &pos->white : &pos->black) |= bit;
            if (kind == 'K')
                pos->kings |= bit;
            if (kind == 'P')
                pos->paras |= bit;
        }
    }
    return true;
}

/* Reads v->start_fen into *pos, exactly as the PDN FEN reader would. */
static bool read_start(const struct dm_variant *v, const struct geometry *g, dm_position *pos,
                       char *why, size_t size)
{
    memset(pos, 0, sizeof *pos);
    pos->king_cell[0] = pos->king_cell[1] = DM_NO_CELL;
    const char *f = v->start_fen;
    if (!f)
        return failf(why, size, "start_fen is missing");
    if ((f[0] != 'W' && f[0] != 'B') || strncmp(f + 1, ":W", 2) != 0)
        return failf(why, size, "start_fen \"%s\": expected W or B, then :W<squares>:B<squares>",
                     f);
    pos->side = f[0] == 'W' ? DM_WHITE : DM_BLACK;
    const char *white = f + 3, *black = strstr(white, ":B");
    if (!black)
        return failf(why, size, "start_fen \"%s\": no :B<squares> after the white list", f);
    return read_pieces(v, g, DM_WHITE, white, black, pos, why, size) &&
           read_pieces(v, g, DM_BLACK, black + 2, black + strlen(black), pos, why, size);
}

/* ---- checking a record -------------------------------------------------- */

static const struct dm_variant *table_find(const char *id)
{
    for (int i = 0; i < TABLE_SIZE; i++)
        if (strcmp(table[i].id, id) == 0)
            return &table[i];
    return NULL;
}

static bool owns_gametype(const struct dm_variant *v)
{
    return v->gametype.from == GAMETYPE_PDN3 || v->gametype.from == GAMETYPE_LIDRAUGHTS;
}

/* The movement and promotion fields against each other. */
static bool check_moves(const struct dm_variant *v, char *why, size_t size)
{
    if (v->king == KING_NONE && (v->king_steps || v->king_jumps))
        return failf(why, size, "king_steps or king_jumps without a king kind");
    if (v->king == KING_NONE && v->promotion != PROMOTE_NONE)
        return failf(why, size, "men are crowned, but there is no king kind");
    if (v->king != KING_NONE && v->promotion == PROMOTE_NONE)
        return failf(why, size, "a king kind, but men are never crowned");
    if (v->king != KING_NONE && !v->king_jumps)
        return failf(why, size, "kings that never capture (king_jumps is 0)");
    if (v->landing != LAND_ANY && v->king != KING_FLYING)
        return failf(why, size, "a landing rule for kings that do not fly");
    if (v->frisian_king_limit && v->king == KING_NONE)
        return failf(why, size, "a same-king limit without kings");
    if (v->far_row != FAR_ROW_FREE && v->promotion != PROMOTE_NONE)
        return failf(why, size, "a far-row rule for men that are crowned there");
    if (v->man_spares_kings && v->king == KING_NONE)
        return failf(why, size, "men spare kings, but there are no kings");
    unsigned known = PREC_QUANTITY | PREC_VALUE | PREC_WITH_KING | PREC_MOST_KINGS |
                     PREC_EARLIEST_KINGS;
    if (v->precedence & ~known)
        return failf(why, size, "unknown precedence bits 0x%x", v->precedence & ~known);
    if ((v->precedence & PREC_QUANTITY) && (v->precedence & PREC_VALUE))
        return failf(why, size, "precedence by quantity and by value at once");
    return true;
}

/* The notation and GameType fields, the GameType against the table. */
static bool check_notation(const struct dm_variant *v, const struct geometry *g, char *why,
                           size_t size)
{
    if (v->numbering != NUM_ALGEBRAIC && (g->id == GEOM_F8 || g->id == GEOM_Q5))
        return failf(why, size, "numbered squares on the %s board, which has no numbers",
                     g->name);
    if (v->numbering == NUM_IBER && g->id != GEOM_M8)
        return failf(why, size, "Iberian numbers on the %s board (they need the mirrored 8x8)",
                     g->name);
    if (!v->quiet_sep || !v->capture_sep || v->quiet_sep == v->capture_sep)
        return failf(why, size, "quiet_sep '%c' and capture_sep '%c' must be two characters",
                     v->quiet_sep ? v->quiet_sep : ' ', v->capture_sep ? v->capture_sep : ' ');
    const struct gametype *t = &v->gametype;
    if ((t->number == 0) != (t->from == GAMETYPE_NONE) || t->from > GAMETYPE_RELATIVE)
        return failf(why, size, "GameType %d and its source %d disagree", t->number, t->from);
    if ((t->capture_sep == 0) != (t->from == GAMETYPE_NONE))
        return failf(why, size, "GameType %d: capture separator '%c'", t->number,
                     t->capture_sep ? t->capture_sep : ' ');
    if (t->from == GAMETYPE_NONE)
        return true;
    const struct dm_variant *owner = NULL;
    for (int i = 0; i < TABLE_SIZE; i++)
        if (owns_gametype(&table[i]) && table[i].gametype.number == t->number &&
            strcmp(table[i].id, v->id) != 0)
            owner = &table[i];
    if (owns_gametype(v) && owner)
        return failf(why, size, "GameType %d is %s's too", t->number, owner->id);
    if (t->from == GAMETYPE_RELATIVE && !owner)
        return failf(why, size, "GameType %d, a relative's, is no variant's own", t->number);
    return true;
}

bool variant_check(const struct dm_variant *v, char *why, size_t size)
{
    if (!v->id || !v->name || !v->summary)
        return failf(why, size, "id, name or summary missing");
    if ((unsigned)v->geometry >= GEOM_COUNT)
        return failf(why, size, "geometry %d is no board", (int)v->geometry);
    const struct geometry *g = geometry_get(v->geometry);
    for (int i = 0; i < TABLE_SIZE; i++)
        for (int k = 0; k < i && v == &table[i]; k++)
            if (strcmp(table[k].id, v->id) == 0)
                return failf(why, size, "id '%s' is used twice in the table", v->id);
    if (v->parent && !table_find(v->parent))
        return failf(why, size, "parent '%s' is no variant of the table", v->parent);
    if (!check_moves(v, why, size) || !check_notation(v, g, why, size))
        return false;
    if (!v->draw[DM_RULES_DEFAULT])
        return failf(why, size, "no draw rules for the default preset");
    if (!v->draw[DM_RULES_OFFICIAL])
        return failf(why, size, "no draw rules for the official preset");
    dm_position start;
    if (!read_start(v, g, &start, why, size))
        return false;
    if (!start.white || !start.black)
        return failf(why, size, "start_fen: a side without pieces");
    dm_bits set;
    if (v->promo_cells) {
        const char *slash = strchr(v->promo_cells, '/');
        if (v->promotion == PROMOTE_NONE)
            return failf(why, size, "promo_cells, but men are never crowned");
        if (!slash)
            return failf(why, size, "promo_cells \"%s\": expected White's cells/Black's cells",
                         v->promo_cells);
        if (!read_cells(v, g, "promo_cells", v->promo_cells, slash, &set, why, size) ||
            !read_cells(v, g, "promo_cells", slash + 1, slash + strlen(slash), &set, why, size))
            return false;
    }
    if (v->opening_removals &&
        !read_cells(v, g, "opening_removals", v->opening_removals,
                    v->opening_removals + strlen(v->opening_removals), &set, why, size))
        return false;
    return true;
}

/* ---- concluding --------------------------------------------------------- */

/* Checks v, aborting on a broken record (the table is fixed data: a bad
 * field is a bug to stop at, not an input error), then derives the fields
 * the generators read. */
static void variant_conclude(struct dm_variant *v)
{
    char why[160];
    if (!variant_check(v, why, sizeof why)) {
        fprintf(stderr, "damier: variant '%s': %s\n", v->id ? v->id : "?", why);
        abort();
    }
    const struct geometry *g = geometry_get(v->geometry);
    v->geo = g;
    read_start(v, g, &v->start, why, sizeof why);
    v->man_step_dirs[DM_WHITE] = v->man_steps;
    v->man_jump_dirs[DM_WHITE] = v->man_jumps;
    v->man_step_dirs[DM_BLACK] = v->one_way ? v->man_steps : dirs_flip_vertical(v->man_steps);
    v->man_jump_dirs[DM_BLACK] = v->one_way ? v->man_jumps : dirs_flip_vertical(v->man_jumps);
    uint8_t later = v->man_jumps_later ? v->man_jumps_later : v->man_jumps;
    v->man_later_jump_dirs[DM_WHITE] = later;
    v->man_later_jump_dirs[DM_BLACK] = v->one_way ? later : dirs_flip_vertical(later);
    v->king_step_dirs = v->king == KING_NONE ? 0 : v->king_steps;
    v->king_jump_dirs = v->king == KING_NONE ? 0 : v->king_jumps;

    int top = g->ranks - 1;
    if (v->promotion == PROMOTE_NONE) {
        v->promo_bb[DM_WHITE] = v->promo_bb[DM_BLACK] = 0;
    } else if (v->promo_cells) {
        const char *slash = strchr(v->promo_cells, '/');
        read_cells(v, g, "", v->promo_cells, slash, &v->promo_bb[DM_WHITE], why, sizeof why);
        read_cells(v, g, "", slash + 1, slash + strlen(slash), &v->promo_bb[DM_BLACK], why,
                   sizeof why);
    } else {
        v->promo_bb[DM_WHITE] = g->rank_bb[top];
        v->promo_bb[DM_BLACK] = v->one_way ? g->rank_bb[top] : g->rank_bb[0];
    }
    v->far_row_bb[DM_WHITE] = g->rank_bb[top];
    v->far_row_bb[DM_BLACK] = v->one_way ? g->rank_bb[top] : g->rank_bb[0];
    v->opening_bb = 0;
    if (v->opening_removals)
        read_cells(v, g, "", v->opening_removals,
                   v->opening_removals + strlen(v->opening_removals), &v->opening_bb, why,
                   sizeof why);
    if (v->parachutes) {
        /* BrainKing's Parachute rules: a parachutist drops from the enemy
         * back row over the rank in front of it, so it jumps "backwards"
         * for its colour. */
        v->para_jump_dirs[DM_WHITE] = DIRBIT(DIR_SE) | DIRBIT(DIR_SW);
        v->para_jump_dirs[DM_BLACK] = DIRBIT(DIR_NE) | DIRBIT(DIR_NW);
        v->para_target_bb[DM_WHITE] = g->rank_bb[top - 1];
        v->para_target_bb[DM_BLACK] = g->rank_bb[1];
    }
    v->kernel = kernel_for(v);
    v->kfull = kfull_for(v);
    kernel_prepare(v);
}

static void conclude_all(void)
{
    for (int i = 0; i < TABLE_SIZE; i++)
        variant_conclude(&table[i]);
}

static pthread_once_t table_once = PTHREAD_ONCE_INIT;

const struct dm_variant *variant_table(int *count)
{
    pthread_once(&table_once, conclude_all);
    *count = TABLE_SIZE;
    return table;
}

int dm_variant_count(void)
{
    int n;
    variant_table(&n);
    return n;
}

const dm_variant *dm_variant_at(int index)
{
    int n;
    const struct dm_variant *t = variant_table(&n);
    return index >= 0 && index < n ? &t[index] : NULL;
}

const dm_variant *dm_variant_by_id(const char *id)
{
    int n;
    const struct dm_variant *t = variant_table(&n);
    for (int i = 0; i < n; i++)
        if (strcmp(t[i].id, id) == 0)
            return &t[i];
    return NULL;
}

/* The start position, read once from start_fen by variant_conclude. */
void dm_position_start(const dm_variant *v, dm_position *pos)
{
    *pos = v->start;
}

const char *dm_variant_id(const dm_variant *v) { return v->id; }
const char *dm_variant_name(const dm_variant *v) { return v->name; }
const char *dm_variant_summary(const dm_variant *v) { return v->summary; }
const char *dm_variant_start_fen(const dm_variant *v) { return v->start_fen; }
int dm_variant_board_files(const dm_variant *v) { return v->geo->files; }
int dm_variant_board_ranks(const dm_variant *v) { return v->geo->ranks; }
int dm_variant_cells(const dm_variant *v) { return v->geo->ncells; }
bool dm_variant_is_numeric(const dm_variant *v) { return v->numbering != NUM_ALGEBRAIC; }

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
