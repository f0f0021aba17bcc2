/* SPDX-License-Identifier: MIT */
/*
 * index.c - material signatures and the index of each table (egdb.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "egdb/egdb.h"
#include "rules/variant.h"

/* ---- binomials ---------------------------------------------------------- */

#define BINOM_N (DM_MAX_CELLS + 1)
#define BINOM_K (DM_EGDB_MAX_PIECES + 1)

static uint64_t binom[BINOM_N][BINOM_K];
static bool binom_ready;

static void binom_init(void)
{
    if (binom_ready)
        return;
    for (int n = 0; n < BINOM_N; n++) {
        binom[n][0] = 1;
        for (int k = 1; k < BINOM_K; k++)
            binom[n][k] = n == 0 ? 0 : binom[n - 1][k - 1] + binom[n - 1][k];
    }
    binom_ready = true;
}

uint64_t egdb_binomial(int n, int k)
{
    binom_init();
    if (n < 0 || k < 0 || k >= BINOM_K || n >= BINOM_N)
        return 0;
    return binom[n][k];
}

/* The rank of the set of positions p[0] < p[1] < ... < p[k-1]. */
static uint64_t comb_rank(const int *p, int k)
{
    uint64_t r = 0;
    for (int i = 0; i < k; i++)
        r += binom[p[i]][i + 1];
    return r;
}

/* The positions of the set ranked r (inverse of comb_rank). */
static void comb_unrank(uint64_t r, int k, int n, int *p)
{
    int top = n - 1;
    for (int i = k - 1; i >= 0; i--) {
        while (binom[top][i + 1] > r)
            top--;
        p[i] = top;
        r -= binom[top][i + 1];
        top--;
    }
}

/* ---- signatures --------------------------------------------------------- */

static void side_name(char *buf, size_t size, int men, int kings)
{
    if (men && kings)
        snprintf(buf, size, "%dm%dk", men, kings);
    else if (men)
        snprintf(buf, size, "%dm", men);
    else
        snprintf(buf, size, "%dk", kings);
}

void egdb_sig_name(const struct egdb_sig *s, char *buf, size_t size)
{
    char w[16], b[16];
    side_name(w, sizeof w, s->men[0], s->kings[0]);
    side_name(b, sizeof b, s->men[1], s->kings[1]);
    snprintf(buf, size, "%s-%s", w, b);
}

struct egdb_sig egdb_sig_of(const dm_position *pos)
{
    struct egdb_sig s;
    s.men[0] = (uint8_t)popcount128(pos->white & ~pos->kings);
    s.men[1] = (uint8_t)popcount128(pos->black & ~pos->kings);
    s.kings[0] = (uint8_t)popcount128(pos->white & pos->kings);
    s.kings[1] = (uint8_t)popcount128(pos->black & pos->kings);
    return s;
}

bool egdb_sig_equal(const struct egdb_sig *a, const struct egdb_sig *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

/* Whether v has kings worth a table: men are crowned and a crowning does
 * not end the game (Breakthrough's first king does). */
static bool has_kings(const struct dm_variant *v)
{
    return v->king != KING_NONE && v->promotion != PROMOTE_NONE && v->goal != GOAL_FIRST_KING;
}

int egdb_signatures(const struct dm_variant *v, int pieces, struct egdb_sig *out, int max)
{
    int n = 0;
    bool kings = has_kings(v);
    for (int total = 2; total <= pieces; total++)
        for (int men = 0; men <= total; men++)
            for (int wm = 0; wm <= men; wm++)
                for (int wpieces = 1; wpieces < total; wpieces++) {
                    int bm = men - wm, wk = wpieces - wm, bk = total - wpieces - bm;
                    if (wk < 0 || bk < 0)
                        continue;
                    if (!kings && (wk || bk))
                        continue;
                    if (n < max)
                        out[n] = (struct egdb_sig){{(uint8_t)wm, (uint8_t)bm},
                                                   {(uint8_t)wk, (uint8_t)bk}};
                    n++;
                }
    return n;
}

/* ---- mirrored tables ---------------------------------------------------- */

struct egdb_sig egdb_sig_mirror(const struct egdb_sig *s)
{
    return (struct egdb_sig){{s->men[1], s->men[0]}, {s->kings[1], s->kings[0]}};
}

bool egdb_sig_stored(const struct egdb_sig *s)
{
    int w = s->men[0] + s->kings[0], b = s->men[1] + s->kings[1];
    return w != b ? w > b : s->men[0] >= s->men[1];
}

static dm_bits mirror_cells(dm_bits x, int n)
{
    dm_bits r = 0;
    for (; x; x &= x - 1)
        r |= bit128(n - 1 - ctz128(x));
    return r;
}

void egdb_position_mirror(const struct dm_variant *v, const dm_position *pos, dm_position *out)
{
    int n = v->geo->ncells;
    *out = *pos;
    out->white = mirror_cells(pos->black, n);
    out->black = mirror_cells(pos->white, n);
    out->kings = mirror_cells(pos->kings, n);
    out->side = (uint8_t)(pos->side == DM_WHITE ? DM_BLACK : DM_WHITE);
}

/* Whether every position up to depth plies from pos has as many moves as
 * its mirror; lists holds two move lists a ply (too big for a thread's
 * stack). */
static bool moves_mirror(const struct dm_variant *v, const dm_position *pos, int depth,
                         dm_move_list *lists)
{
    dm_position m;
    egdb_position_mirror(v, pos, &m);
    int count = dm_generate(v, pos, &lists[0], 0);
    if (dm_generate(v, &m, &lists[1], 0) != count)
        return false;
    for (int k = 0; depth > 1 && k < count; k++) {
        dm_position next = *pos;
        dm_make_move(v, &next, &lists[0].moves[k]);
        if (!moves_mirror(v, &next, depth - 1, lists + 2))
            return false;
    }
    return true;
}

bool egdb_mirrors(const struct dm_variant *v)
{
    const struct geometry *g = v->geo;
    int n = g->ncells;
    for (int c = 0; c < n; c++)
        if (g->file_of[n - 1 - c] != g->files - 1 - g->file_of[c] ||
            g->rank_of[n - 1 - c] != g->ranks - 1 - g->rank_of[c])
            return false;
    dm_position start, m;
    dm_position_start(v, &start);
    egdb_position_mirror(v, &start, &m);
    if (m.white != start.white || m.black != start.black || m.kings != start.kings)
        return false;
    enum { PLIES = 3 };
    dm_move_list *lists = malloc(2 * PLIES * sizeof *lists);
    bool same = lists && moves_mirror(v, &start, PLIES, lists);
    free(lists);
    return same;
}

/* ---- the index ---------------------------------------------------------- */

bool egdb_index_init(struct egdb_index *ix, const struct dm_variant *v, struct egdb_sig sig)
{
    binom_init();
    memset(ix, 0, sizeof *ix);
    ix->v = v;
    ix->sig = sig;
    ix->ncells = v->geo->ncells;
    for (int c = 0; c < 2; c++) {
        int k = 0;
        for (int cell = 0; cell < ix->ncells; cell++) {
            if (has128(v->promo_bb[c], cell)) {
                ix->man_rank[c][cell] = -1;
            } else {
                ix->man_rank[c][cell] = (int8_t)k;
                ix->man_cell[c][k++] = (uint8_t)cell;
            }
        }
        ix->man_cells[c] = k;
    }
    ix->narrow = DM_FAST_PDEP && ix->ncells <= 64;
    if (ix->narrow) {
        ix->board_mask = ix->ncells == 64 ? ~0ull : (1ull << ix->ncells) - 1;
        for (int c = 0; c < 2; c++)
            ix->man_mask[c] = ix->board_mask & ~(uint64_t)v->promo_bb[c];
    }
    int men = sig.men[0] + sig.men[1];
    if (egdb_sig_pieces(&sig) > DM_EGDB_MAX_PIECES)
        return false;
    ix->part[0] = egdb_binomial(ix->man_cells[0], sig.men[0]);
    ix->part[1] = egdb_binomial(ix->man_cells[1], sig.men[1]);
    ix->part[2] = egdb_binomial(ix->ncells - men, sig.kings[0]);
    ix->part[3] = egdb_binomial(ix->ncells - men - sig.kings[0], sig.kings[1]);
    uint64_t half = 1;
    for (int i = 0; i < 4; i++) {
        if (ix->part[i] == 0 || half > ((uint64_t)1 << 40) / ix->part[i])
            return false;
        half *= ix->part[i];
    }
    ix->half = half;
    ix->size = 2 * half;
    return true;
}

/* The ranks of the cells of set among the cells not in taken. */
static int free_ranks(dm_bits set, dm_bits taken, int *p)
{
    int k = 0;
    while (set) {
        int cell = ctz128(set);
        set &= set - 1;
        dm_bits below = cell ? (((dm_bits)1 << cell) - 1) : 0;
        p[k++] = cell - popcount128(taken & below);
    }
    return k;
}

/* The rank of the set of the low bits set in bits (comb_rank of their
 * positions). */
static inline uint64_t comb_rank_bits(uint64_t bits)
{
    uint64_t r = 0;
    for (int i = 1; bits; i++, bits &= bits - 1)
        r += binom[ctz64(bits)][i];
    return r;
}

/* The set of k positions ranked r, as bits (comb_unrank): each position
 * the highest whose binomial fits in what is left of r, found by halving;
 * the last one is r itself (binom[p][1] = p). */
static inline uint64_t comb_unrank_bits(uint64_t r, int k, int n)
{
    uint64_t bits = 0;
    int top = n - 1;
    for (int i = k; i >= 2; i--) {
        int lo = i - 1; /* binom[i - 1][i] = 0 fits */
        while (lo < top) {
            int mid = (lo + top + 1) / 2;
            if (binom[mid][i] > r)
                top = mid - 1;
            else
                lo = mid;
        }
        bits |= 1ull << top;
        r -= binom[top][i];
        top--;
    }
    return k >= 1 ? bits | 1ull << r : bits;
}

/* egdb_index_of on a narrow board: each digit is the rank of a word's bits
 * gathered from the cells it may use. */
static int64_t index_of_narrow(const struct egdb_index *ix, const dm_position *pos)
{
    uint64_t white = (uint64_t)pos->white, black = (uint64_t)pos->black;
    uint64_t kings = (uint64_t)pos->kings;
    uint64_t wm = white & ~kings, bm = black & ~kings, wk = white & kings;
    if ((wm & ~ix->man_mask[0]) | (bm & ~ix->man_mask[1]))
        return -1;
    uint64_t i = pos->side;
    i = i * ix->part[0] + comb_rank_bits(pext64(wm, ix->man_mask[0]));
    i = i * ix->part[1] + comb_rank_bits(pext64(bm, ix->man_mask[1]));
    uint64_t left = ix->board_mask & ~(wm | bm);
    i = i * ix->part[2] + comb_rank_bits(pext64(wk, left));
    i = i * ix->part[3] + comb_rank_bits(pext64(black & kings, left & ~wk));
    return (int64_t)i;
}

int64_t egdb_index_of(const struct egdb_index *ix, const dm_position *pos)
{
    if (ix->narrow)
        return index_of_narrow(ix, pos);
    int p[DM_EGDB_MAX_PIECES + 1];
    uint64_t digit[4];
    dm_bits own[2] = {pos->white, pos->black};
    dm_bits men_all = (pos->white | pos->black) & ~pos->kings;
    for (int c = 0; c < 2; c++) {
        dm_bits men = own[c] & ~pos->kings;
        int k = 0;
        while (men) {
            int cell = ctz128(men);
            men &= men - 1;
            if (ix->man_rank[c][cell] < 0)
                return -1;
            p[k++] = ix->man_rank[c][cell];
        }
        digit[c] = comb_rank(p, k);
    }
    dm_bits wk = pos->white & pos->kings;
    int k = free_ranks(wk, men_all, p);
    digit[2] = comb_rank(p, k);
    k = free_ranks(pos->black & pos->kings, men_all | wk, p);
    digit[3] = comb_rank(p, k);
    uint64_t i = pos->side;
    for (int d = 0; d < 4; d++)
        i = i * ix->part[d] + digit[d];
    return (int64_t)i;
}

/* Places k pieces ranked r among the cells not in taken. */
static dm_bits place_free(uint64_t r, int k, dm_bits taken, int ncells)
{
    int p[DM_EGDB_MAX_PIECES + 1];
    int nfree = ncells - popcount128(taken);
    comb_unrank(r, k, nfree, p);
    dm_bits free_cells = ~taken & (ncells >= 128 ? ~(dm_bits)0 : (((dm_bits)1 << ncells) - 1));
    dm_bits set = 0;
    /* The free cells in order, popped until the k-th chosen rank. */
    for (int rank = 0, j = 0; j < k; rank++) {
        dm_bits low = free_cells & (~free_cells + 1);
        free_cells ^= low;
        if (rank == p[j]) {
            set |= low;
            j++;
        }
    }
    return set;
}

bool egdb_position_at(const struct egdb_index *ix, uint64_t i, dm_position *pos)
{
    uint64_t digit[4];
    for (int d = 3; d >= 0; d--) {
        digit[d] = i % ix->part[d];
        i /= ix->part[d];
    }
    memset(pos, 0, sizeof *pos);
    pos->side = (uint8_t)i;
    pos->king_cell[0] = pos->king_cell[1] = DM_NO_CELL;
    if (ix->narrow) {
        const struct egdb_sig *s = &ix->sig;
        uint64_t wm = pdep64(comb_unrank_bits(digit[0], s->men[0], ix->man_cells[0]),
                             ix->man_mask[0]);
        uint64_t bm = pdep64(comb_unrank_bits(digit[1], s->men[1], ix->man_cells[1]),
                             ix->man_mask[1]);
        if (wm & bm)
            return false;
        uint64_t left = ix->board_mask & ~(wm | bm);
        uint64_t wk = pdep64(comb_unrank_bits(digit[2], s->kings[0], popcount64(left)), left);
        left &= ~wk;
        uint64_t bk = pdep64(comb_unrank_bits(digit[3], s->kings[1], popcount64(left)), left);
        pos->white = wm | wk;
        pos->black = bm | bk;
        pos->kings = wk | bk;
        return true;
    }
    dm_bits men[2];
    int p[DM_EGDB_MAX_PIECES + 1];
    for (int c = 0; c < 2; c++) {
        comb_unrank(digit[c], ix->sig.men[c], ix->man_cells[c], p);
        men[c] = 0;
        for (int j = 0; j < ix->sig.men[c]; j++)
            men[c] |= (dm_bits)1 << ix->man_cell[c][p[j]];
    }
    if (men[0] & men[1])
        return false;
    dm_bits taken = men[0] | men[1];
    dm_bits wk = place_free(digit[2], ix->sig.kings[0], taken, ix->ncells);
    dm_bits bk = place_free(digit[3], ix->sig.kings[1], taken | wk, ix->ncells);
    pos->white = men[0] | wk;
    pos->black = men[1] | bk;
    pos->kings = wk | bk;
    return true;
}
