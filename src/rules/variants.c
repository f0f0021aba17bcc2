/* SPDX-License-Identifier: MIT */
/*
 * variants.c - the variant table: every variant Damier plays, as data.
 *
 * Each record names the fields of RULES.md 0.2, citing the section they come
 * from.  A variant that amends another starts from the parent's fields
 * (RULES_<PARENT>) and states only what differs; later designated
 * initialisers override earlier ones, which is what -Woverride-init warns
 * about, so that warning is off in this file alone.
 *
 * variant_conclude() derives per-colour direction sets and promotion cells
 * once, so the generators read plain masks.
 */
#include "rules/variant.h"

#include <pthread.h>
#include <string.h>

#include "rules/kernel.h"

#pragma GCC diagnostic ignored "-Woverride-init"

#define FWD_DIAG (DIRBIT(DIR_NE) | DIRBIT(DIR_NW))
#define RUSSIAN_START                                                                    \
    "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"

/* 1.1 English checkers (WCDF): short kings, free mandatory capture. */
#define RULES_ENGLISH                                                                    \
    .geometry = GEOM_D8, .numbering = NUM_TOP, .start_fen = "B:W21-32:B1-12",            \
    .man_steps = FWD_DIAG, .man_jumps = FWD_DIAG, .king = KING_SHORT,                    \
    .king_steps = DIRS_DIAG, .king_jumps = DIRS_DIAG, .landing = LAND_ANY,               \
    .removal = REMOVE_DEFERRED, .promotion = PROMOTE_STOP, .precedence = 0,              \
    .goal = GOAL_NO_MOVE_LOSES, .quiet_sep = '-', .capture_sep = 'x'

/* 2.1 Russian (shashki): flying kings, men take backwards, crowned mid-capture. */
#define RULES_RUSSIAN                                                                    \
    .geometry = GEOM_D8, .numbering = NUM_ALGEBRAIC, .start_fen = RUSSIAN_START,         \
    .man_steps = FWD_DIAG, .man_jumps = DIRS_DIAG, .king = KING_FLYING,                  \
    .king_steps = DIRS_DIAG, .king_jumps = DIRS_DIAG, .landing = LAND_ANY,               \
    .removal = REMOVE_DEFERRED, .promotion = PROMOTE_CONTINUE_AS_KING, .precedence = 0,  \
    .goal = GOAL_NO_MOVE_LOSES, .quiet_sep = '-', .capture_sep = ':'

/* 2.5 Czech: men take forwards only; a queen that can capture must. */
#define RULES_CZECH                                                                      \
    RULES_RUSSIAN, .man_jumps = FWD_DIAG, .promotion = PROMOTE_END_ONLY,                 \
    .precedence = PREC_WITH_KING

/* 2.9 Spanish: mirrored board, Iberian numbers, most pieces then most kings. */
#define RULES_SPANISH                                                                    \
    .geometry = GEOM_M8, .numbering = NUM_IBER, .start_fen = "W:W1-12:B21-32",           \
    .man_steps = FWD_DIAG, .man_jumps = FWD_DIAG, .king = KING_FLYING,                   \
    .king_steps = DIRS_DIAG, .king_jumps = DIRS_DIAG, .landing = LAND_ANY,               \
    .removal = REMOVE_DEFERRED, .promotion = PROMOTE_END_ONLY,                           \
    .precedence = PREC_QUANTITY | PREC_MOST_KINGS, .goal = GOAL_NO_MOVE_LOSES,           \
    .quiet_sep = '-', .capture_sep = 'x'

/* 3.1 International (FMJD): 10x10, majority capture, crowned only at the end. */
#define RULES_INTERNATIONAL                                                              \
    .geometry = GEOM_D10, .numbering = NUM_TOP, .start_fen = "W:W31-50:B1-20",           \
    .man_steps = FWD_DIAG, .man_jumps = DIRS_DIAG, .king = KING_FLYING,                  \
    .king_steps = DIRS_DIAG, .king_jumps = DIRS_DIAG, .landing = LAND_ANY,               \
    .removal = REMOVE_DEFERRED, .promotion = PROMOTE_END_ONLY,                           \
    .precedence = PREC_QUANTITY, .goal = GOAL_NO_MOVE_LOSES, .quiet_sep = '-',           \
    .capture_sep = 'x'

/* 3.5 Frisian: captures in eight directions, valued; kings move diagonally. */
#define RULES_FRISIAN                                                                    \
    RULES_INTERNATIONAL, .man_jumps = DIRS_ALL, .king_jumps = DIRS_ALL,                  \
    .precedence = PREC_VALUE | PREC_WITH_KING, .frisian_king_limit = true

/* Section 4, the orthogonal games: every square of the 8x8 board (Alquerque:
 * every point of its grid) is a cell; algebraic squares; no move loses. */
#define RULES_ORTHO                                                                      \
    .geometry = GEOM_F8, .numbering = NUM_ALGEBRAIC, .landing = LAND_ANY,                \
    .goal = GOAL_NO_MOVE_LOSES, .quiet_sep = '-', .capture_sep = 'x'
#define FWD_SIDE (DIRBIT(DIR_N) | DIRBIT(DIR_E) | DIRBIT(DIR_W))
#define FWD_ALL (DIRBIT(DIR_N) | FWD_DIAG)

/* 4.1 [CONFLICT]: a man reaching the last row mid-capture is crowned and goes
 * on as a king (current Wikipedia, draughts.github.io); pydraughts goes on as
 * a man and crowns at the end (PROMOTE_END_ONLY), older texts stop
 * (PROMOTE_STOP). */
#define TURKISH_PROMOTION PROMOTE_CONTINUE_AS_KING

/* 4.4 [OPEN] (8.13): a man on the opponent's back row makes no plain move;
 * BrainKing's "unless it can jump" read as: it may still capture sideways. */
#define ALQUERQUE_FAR_ROW FAR_ROW_CAPTURES_ONLY

static struct dm_variant table[] = {
    {RULES_ENGLISH, .id = "english", .name = "English checkers",
     .summary = "8x8, Black starts, short kings, men capture forwards, free choice of capture"},
    {RULES_ENGLISH, .id = "anti-checkers", .name = "Anti checkers", .parent = "english",
     .summary = "English checkers where the side that cannot move wins",
     .goal = GOAL_NO_MOVE_WINS},                                      /* 1.2 */
    {RULES_ENGLISH, .id = "italian", .name = "Italian draughts",
     .summary = "8x8 mirrored, short kings, men cannot take kings, most pieces, king "
                "captor, most kings, earliest kings",
     .geometry = GEOM_M8, .start_fen = "W:W21-32:B1-12",              /* 1.3 */
     .man_spares_kings = true,
     .precedence = PREC_QUANTITY | PREC_WITH_KING | PREC_MOST_KINGS | PREC_EARLIEST_KINGS},
    {RULES_RUSSIAN, .id = "russian", .name = "Russian draughts (shashki)",
     .summary = "8x8, flying kings, men capture backwards, crowned mid-capture and go on as "
                "kings, free choice of capture"},
    {RULES_RUSSIAN, .id = "poddavki", .name = "Poddavki", .parent = "russian",
     .summary = "Russian draughts where the side that cannot move wins",
     .goal = GOAL_NO_MOVE_WINS},                                      /* 2.2 */
    {RULES_RUSSIAN, .id = "brazilian", .name = "Brazilian draughts", .parent = "russian",
     .summary = "International rules on 8x8: flying kings, most pieces must be taken",
     .promotion = PROMOTE_END_ONLY, .precedence = PREC_QUANTITY},     /* 2.3 */
    {RULES_RUSSIAN, .id = "pool", .name = "Pool checkers",
     .summary = "8x8, Black starts, flying kings, men capture backwards, free choice",
     .numbering = NUM_TOP, .start_fen = "B:W21-32:B1-12",             /* 2.4 */
     .promotion = PROMOTE_END_ONLY, .capture_sep = 'x'},
    {RULES_CZECH, .id = "czech", .name = "Czech draughts",
     .summary = "8x8, flying queens, men capture forwards, a queen that can capture must"},
    {RULES_CZECH, .id = "corner", .name = "Corner checkers", .parent = "czech",
     .summary = "Czech rules from the corners; men are crowned only on two corner squares",
     .start_fen = "W:Wg1,h2,e1,f2,g3,h4,c1,d2,e3,f4,g5,h6"            /* 2.6 [OPEN] */
                  ":Bb8,a7,d8,c7,b6,a5,f8,e7,d6,c5,b4,a3",
     .promo_cells = "a7,b8/g1,h2"},
    {RULES_CZECH, .id = "one-way", .name = "One Way checkers", .parent = "czech",
     .summary = "Czech rules where the men of both colours move towards rank 8",
     .start_fen = "W:Wa1,a3,a5,a7,b2,b4,b6,b8,c1,c3,c5,c7"            /* 2.7 [OPEN] */
                  ":Bf2,f4,f6,f8,g1,g3,g5,g7,h2,h4,h6,h8",
     .one_way = true},
    {RULES_CZECH, .id = "parachute", .name = "Parachute checkers", .parent = "czech",
     .summary = "Czech rules plus parachutists that drop behind enemy men on the 7th rank",
     .start_fen = "W:Wb2,d2,f2,h2,a3,c3,e3,g3,Pb8,Pd8,Pf8,Ph8"        /* 2.8 */
                  ":Ba7,c7,e7,g7,b6,d6,f6,h6,Pa1,Pc1,Pe1,Pg1",
     .parachutes = true},
    {RULES_SPANISH, .id = "spanish", .name = "Spanish draughts",
     .summary = "8x8 mirrored, flying kings, men capture forwards, most pieces then most kings"},
    {RULES_SPANISH, .id = "portuguese", .name = "Portuguese draughts", .parent = "spanish",
     .summary = "Spanish rules (FPD): most pieces, then most kings"}, /* 2.10 */
    {RULES_RUSSIAN, .id = "thai", .name = "Thai checkers (Mak-hot)",
     .summary = "8x8, 8 men each, kings land right behind the piece taken, pieces leave at once",
     .start_fen = "W:Wa1,c1,e1,g1,b2,d2,f2,h2:Ba7,c7,e7,g7,b8,d8,f8,h8", /* 2.11 */
     .man_jumps = FWD_DIAG, .landing = LAND_ADJACENT, .removal = REMOVE_IMMEDIATE,
     .promotion = PROMOTE_STOP, .capture_sep = 'x'},
    {RULES_INTERNATIONAL, .id = "international", .name = "International draughts",
     .summary = "10x10, flying kings, men capture backwards, most pieces must be taken"},
    {RULES_INTERNATIONAL, .id = "killer", .name = "Killer draughts", .parent = "international",
     .summary = "International rules, but a capture ending on a king stops right behind it",
     .landing = LAND_ADJACENT_IF_KING},                               /* 3.2 */
    {RULES_INTERNATIONAL, .id = "antidraughts", .name = "Antidraughts",
     .parent = "international",
     .summary = "International rules where the side that cannot move wins",
     .goal = GOAL_NO_MOVE_WINS},                                      /* 3.3 */
    {RULES_INTERNATIONAL, .id = "breakthrough", .name = "Breakthrough",
     .parent = "international",
     .summary = "International rules where the first side to crown a king wins",
     .goal = GOAL_FIRST_KING},                                        /* 3.4 */
    {RULES_INTERNATIONAL, .id = "canadian", .name = "Canadian draughts",
     .parent = "international", .summary = "International rules on 12x12, 30 men each",
     .geometry = GEOM_D12, .start_fen = "W:W43-72:B1-30"},            /* 3.7 */
    {RULES_FRISIAN, .id = "frisian", .name = "Frisian draughts",
     .summary = "10x10, men and kings capture orthogonally too, kings count double, at most "
                "3 quiet moves in a row with one king"},
    {RULES_FRISIAN, .id = "frysk", .name = "Frysk!", .parent = "frisian",
     .summary = "Frisian rules with 5 men each", .start_fen = "W:W46-50:B1-5"}, /* 3.6 */
    {RULES_ORTHO, .id = "turkish", .name = "Turkish draughts (Dama)",
     .summary = "8x8 all squares, 16 men each, men move and capture forwards or sideways, "
                "rook-like flying kings, pieces leave at once, most pieces must be taken",
     .start_fen = "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3"  /* 4.1 */
                  ":Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
     .man_steps = FWD_SIDE, .man_jumps = FWD_SIDE,                    /* short, never back */
     .king = KING_FLYING, .king_steps = DIRS_ORTH, .king_jumps = DIRS_ORTH, /* like a rook */
     .removal = REMOVE_IMMEDIATE, .reversal_ban = true,               /* no 180-degree turn */
     .promotion = TURKISH_PROMOTION, .precedence = PREC_QUANTITY},    /* king = man */
    {RULES_ORTHO, .id = "dameo", .name = "Dameo",
     .summary = "8x8 all squares, 18 men each, men step forwards and move whole lines, "
                "queen-like kings, captures only orthogonal, most pieces must be taken",
     .start_fen = "W:Wa1,b1,c1,d1,e1,f1,g1,h1,b2,c2,d2,e2,f2,g2,c3,d3,e3,f3" /* 4.2 */
                  ":Bc6,d6,e6,f6,b7,c7,d7,e7,f7,g7,a8,b8,c8,d8,e8,f8,g8,h8",
     .man_steps = FWD_ALL, .linear_moves = true,                      /* straight or diagonal */
     .man_jumps = DIRS_ORTH,                                          /* short, back too */
     .king = KING_FLYING, .king_steps = DIRS_ALL, .king_jumps = DIRS_ORTH, /* queen moves */
     .removal = REMOVE_DEFERRED, .promotion = PROMOTE_END_ONLY, .precedence = PREC_QUANTITY,
     .capture_sep = ':'},                                             /* h2:f2 */
    {RULES_ORTHO, .id = "gothic", .name = "Gothic checkers",
     .summary = "8x8 all squares, 16 men each, men move and capture forwards, diagonally "
                "forwards or sideways, short kings in eight directions, free choice",
     .start_fen = "W:Wa1,b1,c1,d1,e1,f1,g1,h1,a2,b2,c2,d2,e2,f2,g2,h2" /* 4.3 */
                  ":Ba7,b7,c7,d7,e7,f7,g7,h7,a8,b8,c8,d8,e8,f8,g8,h8",
     .man_steps = FWD_ALL | FWD_SIDE, .man_jumps = FWD_ALL | FWD_SIDE, /* 5 directions */
     .king = KING_SHORT, .king_steps = DIRS_ALL, .king_jumps = DIRS_ALL,
     .removal = REMOVE_DEFERRED, .promotion = PROMOTE_STOP, .precedence = 0},
    {RULES_ORTHO, .id = "alquerque", .name = "Alquerque",
     .summary = "5x5 points joined by lines, 12 men each, no kings, men go forwards or "
                "sideways, later jumps of a capture may go any way, free choice",
     .geometry = GEOM_Q5,                                             /* 4.4 [OPEN] setup */
     .start_fen = "W:Wa1,b1,c1,d1,e1,a2,b2,c2,d2,e2,d3,e3"
                  ":Ba3,b3,a4,b4,c4,d4,e4,a5,b5,c5,d5,e5",
     .man_steps = FWD_ALL | FWD_SIDE, .man_jumps = FWD_ALL | FWD_SIDE, /* along the lines */
     .man_jumps_later = DIRS_ALL, .far_row = ALQUERQUE_FAR_ROW,
     .king = KING_NONE, .removal = REMOVE_DEFERRED, .promotion = PROMOTE_NONE,
     .precedence = 0},
    {RULES_ORTHO, .id = "hawaiian", .name = "Hawaiian checkers (Konane)",
     .summary = "8x8 full board, Black starts by taking a man off; then every move jumps "
                "orthogonally in a straight line and may stop after any jump",
     .start_fen = "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3,b4,d4,f4,h4"   /* 4.5 */
                  ",a5,c5,e5,g5,b6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
                  ":Bb1,d1,f1,h1,a2,c2,e2,g2,b3,d3,f3,h3,a4,c4,e4,g4"
                  ",b5,d5,f5,h5,a6,c6,e6,g6,b7,d7,f7,h7,a8,c8,e8,g8",
     .opening_removals = "a8,d5,e4,h1",                               /* the long light diagonal */
     .man_steps = 0, .man_jumps = DIRS_ORTH, .straight_continuation = true,
     .optional_continuation = true, .king = KING_NONE, .removal = REMOVE_IMMEDIATE,
     .promotion = PROMOTE_NONE, .precedence = 0},
};

enum { TABLE_SIZE = sizeof table / sizeof table[0] };

/* Reads "a7,b8" into a cell set; the names are fixed data, checked once here. */
static dm_bits cells_named(const struct geometry *g, const char *list)
{
    dm_bits set = 0;
    for (const char *p = list; *p && *p != '/';) {
        int file = p[0] - 'a', rank = p[1] - '1';
        int c = g->cell_at[rank][file];
        if (c >= 0)
            set |= (dm_bits)1 << c;
        p += 2;
        if (*p == ',')
            p++;
    }
    return set;
}

static void variant_conclude(struct dm_variant *v)
{
    const struct geometry *g = geometry_get(v->geometry);
    v->geo = g;
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
        v->promo_bb[DM_WHITE] = cells_named(g, v->promo_cells);
        v->promo_bb[DM_BLACK] = cells_named(g, strchr(v->promo_cells, '/') + 1);
    } else {
        v->promo_bb[DM_WHITE] = g->rank_bb[top];
        v->promo_bb[DM_BLACK] = v->one_way ? g->rank_bb[top] : g->rank_bb[0];
    }
    v->far_row_bb[DM_WHITE] = g->rank_bb[top];
    v->far_row_bb[DM_BLACK] = v->one_way ? g->rank_bb[top] : g->rank_bb[0];
    v->opening_bb = v->opening_removals ? cells_named(g, v->opening_removals) : 0;
    if (v->parachutes) {
        /* 2.8: a parachutist drops from the enemy back row over the rank in
         * front of it, so it jumps "backwards" for its colour. */
        v->para_jump_dirs[DM_WHITE] = DIRBIT(DIR_SE) | DIRBIT(DIR_SW);
        v->para_jump_dirs[DM_BLACK] = DIRBIT(DIR_NE) | DIRBIT(DIR_NW);
        v->para_target_bb[DM_WHITE] = g->rank_bb[top - 1];
        v->para_target_bb[DM_BLACK] = g->rank_bb[1];
    }
    v->kernel = kernel_for(v);
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

const char *dm_variant_id(const dm_variant *v) { return v->id; }
const char *dm_variant_name(const dm_variant *v) { return v->name; }
const char *dm_variant_summary(const dm_variant *v) { return v->summary; }
const char *dm_variant_start_fen(const dm_variant *v) { return v->start_fen; }
int dm_variant_board_files(const dm_variant *v) { return v->geo->files; }
int dm_variant_board_ranks(const dm_variant *v) { return v->geo->ranks; }
int dm_variant_cells(const dm_variant *v) { return v->geo->ncells; }
bool dm_variant_is_numeric(const dm_variant *v) { return v->numbering != NUM_ALGEBRAIC; }
