/* SPDX-License-Identifier: MIT */
/*
 * search.c - the engine: iterative deepening principal variation search.
 *
 * Each iteration searches the root moves one ply deeper than the last, the
 * previous best first, within a window around the last score (aspiration),
 * widened on the side where the score falls out of it.  Below the root, a node probes the transposition
 * table, generates its moves (no move left ends the game, and a capture is
 * compulsory), and searches them in order: the table's move, captures by
 * size, promotions, the two killers of the ply, then the rest by their
 * history score.  A table's move that neither jumps nor captures is made
 * from its entry alone (from, to, flags) and searched before the list is
 * generated, which a cutoff then spares; the others are ordered after it
 * (by the history as it stands once it is searched).  The first move gets the full
 * window, the others a null window, re-searched when they beat alpha; late
 * quiet moves are searched shallower first, the more so the later and the
 * deeper (lmr_reduction), and again to the full depth if they beat alpha.
 * A ply or two from the horizon, a quiet node whose static score is far
 * above beta is cut without a search (reverse futility), and from depth 6
 * one whose shallower search is (ProbCut); both only in the games a side
 * loses by having no move (prunes_on_static).  At depth zero a node
 * whose side must capture keeps searching (quiescence: in draughts a
 * capture is forced, so the position is not quiet until no capture is
 * left); any other returns the static evaluation.  Such a node asks the
 * kernel (kernel_leaf) whether it must capture and has a move at all,
 * without a move list: most nodes are these leaves.  A node with a single
 * legal move does not count towards the depth.  A child's key comes from
 * the move (tt_key_move), and while one move is searched the table entry
 * of the next starts loading (prefetch).
 *
 * A position that repeats one earlier in the search or in the game scores
 * as a draw; positions are compared by key, and only back to the last
 * capture or man move, which no later position can repeat across (but a
 * man's step along its rank, in the games whose men step sideways).
 *
 * The search allocates nothing: the move stack, the principal variation
 * table and the game's keys live in the engine, allocated when it is made
 * (the keys grow, if ever, before a search starts).  The plies of the
 * current line hold consecutive slices of one move stack; dm_generate
 * writes a node's moves straight onto it (list_at), or, within
 * DM_MAX_MOVES of its end, into a scratch list whose count moves are then
 * copied.  A node whose moves do not fit in what is left of the stack is
 * scored by the evaluation, as at the last ply (deterministic; the bench's
 * searches use 209 slots at most).  An engine thus takes under 1 MB
 * besides its transposition table, where a whole move list per ply took
 * 13.5 MB.  It stops at a
 * depth, a node count or a deadline; the clock is read every
 * SEARCH_CHECK_NODES nodes, the node count at every node, so that a search
 * limited by depth and nodes alone is exactly reproducible.
 *
 * Other threads steer a search through two atomic flags: a stop, read at
 * every node, and a ponder hit, read at every node while the time limits
 * wait for it.  Each iteration searches multipv lines one after the other:
 * line j is the best of the root moves the lines before it did not take,
 * searched with a full window, so its score is exact.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/bits.h"
#include "engine/engine.h"
#include "engine/tablebase.h"
#include "rules/kernel.h"
#include "rules/rules.h"
#include "rules/variant.h"

#define SEARCH_MAX_PLY     128       /* plies from the root, extensions included */
#define SEARCH_MOVE_STACK  4096      /* moves of the plies of one line, together */
/* The principal variation table is triangular: the line from ply p is kept
 * for DM_MAX_PV - p moves, all of it that reaches the root's DM_MAX_PV. */
#define PV_ROW(p)  ((p) * DM_MAX_PV - (p) * ((p) - 1) / 2)
#define PV_ROOM(p) ((p) < DM_MAX_PV ? DM_MAX_PV - (p) : 0)
#define PV_MOVES   PV_ROW(DM_MAX_PV)
#define SEARCH_INF         32000     /* beyond every score                       */
#define SEARCH_CHECK_NODES 1024      /* nodes between two looks at the clock     */
#define HISTORY_MAX        (1 << 16) /* history scores are halved beyond this    */
#define NO_KILLER          0xFFFF
/* Aspiration: the half width of the first window, and the iterations that
 * use one. */
#define ASPIRATION_DELTA 25
#define ASPIRATION_DEPTH 4
/* Sudden death: the moves a game is assumed still to last. */
#define SEARCH_SUDDEN_DEATH_MOVES 30
/* A fall of the best score between iterations that earns more time. */
#define SEARCH_SCORE_DROP 30
/* Reverse futility: up to this depth, a static score this much per ply
 * above beta cuts the node off; razoring: one this much per ply below
 * alpha fails low at once. */
#define FUTILITY_DEPTH  2
#define FUTILITY_MARGIN 100
#define RAZOR_MARGIN    150
/* ProbCut: from this depth, a search this much shallower that beats beta
 * by the margin cuts the node off. */
#define PROBCUT_DEPTH     6
#define PROBCUT_REDUCTION 4
#define PROBCUT_MARGIN    80
/* Internal iterative reduction: from this depth, a node the table knows
 * no move for is searched a ply shallower. */
#define IIR_DEPTH 4
/* Weaker play: a best move that wins this much over the evaluation (a man)
 * is a shot, never passed over for a move that wins less than half of it. */
#define SHOT_GAIN 100

/* Move ordering keys: each class above every score of the next. */
#define ORDER_TT      (1 << 30)
#define ORDER_CAPTURE (1 << 24)
#define ORDER_PROMO   (1 << 22)
#define ORDER_KILLER  (1 << 20)

/* The draw rules' move counters as the search applies them (see
 * counter_draw): the shortest king-only run that draws, and the counters
 * that run while a material holds. */
struct counter_draws {
    int quiet_limit; /* plies of quiet king moves that draw; 0: none       */
    int nmaterial;
    struct {
        uint8_t material; /* enum draw_material                            */
        int plies;        /* plies without capture or promotion that draw  */
    } material[DRAW_MAX_COUNTERS];
    int min_plies;    /* the least of their plies                          */
};

/* The state of one ply of the current line. */
struct search_ply {
    int base;           /* where its moves start on the move stack         */
    int count;          /* how many                                         */
    dm_move *moves;     /* its slices of the move stack, from base:         */
    int *order_key;     /*   the moves, their ordering keys                 */
    uint16_t *order;    /*   and the order they are tried in                */
    uint64_t key;       /* of this ply's position                          */
    int reversible;     /* plies back to the last capture or man move      */
    int repeatable;     /* plies back to the last move no later position can
                           undo: as reversible, but where men step sideways
                           (Turkish, Gothic, Alquerque) such a step is undone */
    int same_material;  /* plies back to the last capture or promotion     */
    uint16_t killer[2]; /* from << 8 | to of quiet moves that cut off here */
};

/* A Lazy SMP helper: an engine of its own that searches the main
 * engine's root on its own thread, with the main engine's table. */
struct helper {
    struct dm_engine *engine;
    pthread_t thread;
    bool running;
    /* What it searches: the main search's, valid while it runs. */
    const struct dm_variant *v;
    const dm_position *pos, *history;
    int nhistory;
    dm_search_limits limits;
};

struct dm_engine {
    struct tt tt;      /* its own (a helper's is unallocated)             */
    struct tt *table;  /* the one it searches with: its own, or its main
                          engine's for a Lazy SMP helper                   */
    struct tt_keys keys;
    struct eval_tables eval;
    struct search_ply stack[SEARCH_MAX_PLY + 1];
    /* The move stack: each ply's moves, with their ordering keys and the
     * order they are tried in (indices into the ply's slice); one slot
     * free after each slice (list_at). */
    dm_move *moves;       /* SEARCH_MOVE_STACK                              */
    int move_room;        /* of which the plies below the root may use this many */
    int *order_key;       /* SEARCH_MOVE_STACK                              */
    uint16_t *order;      /* SEARCH_MOVE_STACK                              */
    dm_move_list scratch; /* dm_generate's list near the stack's end        */
    dm_move *pv;          /* PV_MOVES: row PV_ROW(p) for ply p            */
    int pv_len[SEARCH_MAX_PLY + 1];
    int history[2][DM_MAX_CELLS][DM_MAX_CELLS]; /* [side][from][to]        */
    uint64_t *game_keys;                        /* the positions before the root */
    int game_cap, ngame;

    struct engine_egdb egdb; /* the endgame tables, if given */

    /* Lines of the last search, best first, and those of the iteration in
     * progress. */
    dm_search_line lines[DM_MAX_MULTIPV], found[DM_MAX_MULTIPV];
    int nlines;

    /* Lazy SMP: the helpers searching beside this engine (threads - 1),
     * and which helper this engine is (0: none, a main engine). */
    struct helper helpers[DM_MAX_THREADS - 1];
    int nhelpers;
    int helper_index;

    /* Set by other threads (dm_engine_stop, dm_engine_ponder_hit), cleared
     * as a search returns. */
    atomic_bool stop_request;
    atomic_bool ponder_hit;

    /* The search in progress. */
    const struct dm_variant *v;
    struct counter_draws draws; /* the draw rules' counters in force     */
    bool men_sideways;          /* the variant's men step sideways too     */
    int draw_score[2];          /* a draw's score for the side to move:
                                   -contempt at the root's side, +contempt
                                   at its opponent's (dm_search_limits)    */
    bool has_quiet; /* the variant has moves that capture nothing */
    bool prune_static; /* shallow scores may cut nodes (prunes_on_static) */
    dm_search_limits lim;
    uint64_t nodes;
    int seldepth;
    int root_depth;
    bool stop;
    bool pondering; /* the time limits wait for a ponder hit          */
    int64_t begin_ms;                   /* when the search began          */
    int64_t start_ms;                   /* when the move's time began (a
                                           ponder hit moves it)           */
    struct time_plan plan;              /* its deadlines after start      */
    int root_score[DM_MAX_MOVES];       /* full-window scores (random_margin) */
};

static int64_t monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t now_ms(const struct dm_engine *e)
{
    return e->lim.now ? e->lim.now(e->lim.now_ctx) : monotonic_ms();
}

/* ---- the engine object ------------------------------------------------- */

/* An engine without a table of its own (a helper's), or NULL. */
static struct dm_engine *engine_alloc(void)
{
    struct dm_engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    /* Not cleared: a search writes each slot before it reads it, and a
     * short search touches only the first pages. */
    e->moves = malloc(SEARCH_MOVE_STACK * sizeof *e->moves);
    e->order_key = malloc(SEARCH_MOVE_STACK * sizeof *e->order_key);
    e->order = malloc(SEARCH_MOVE_STACK * sizeof *e->order);
    e->pv = malloc(PV_MOVES * sizeof *e->pv);
    if (!e->moves || !e->order_key || !e->order || !e->pv) {
        dm_engine_free(e);
        return NULL;
    }
    e->table = &e->tt;
    tt_keys_init(&e->keys);
    e->move_room = SEARCH_MOVE_STACK;
    atomic_init(&e->stop_request, false);
    atomic_init(&e->ponder_hit, false);
    return e;
}

dm_engine *dm_engine_new(size_t tt_mb)
{
    struct dm_engine *e = engine_alloc();
    if (e && !tt_init(&e->tt, tt_mb ? tt_mb : 16)) {
        dm_engine_free(e);
        return NULL;
    }
    return e;
}

void dm_engine_free(dm_engine *e)
{
    if (!e)
        return;
    for (int i = 0; i < e->nhelpers; i++)
        dm_engine_free(e->helpers[i].engine);
    tt_free(&e->tt);
    engine_egdb_close(&e->egdb);
    free(e->moves);
    free(e->order_key);
    free(e->order);
    free(e->pv);
    free(e->game_keys);
    free(e);
}

int dm_engine_set_threads(dm_engine *e, int threads)
{
    if (threads < 1 || threads > DM_MAX_THREADS)
        return -1;
    while (e->nhelpers > threads - 1)
        dm_engine_free(e->helpers[--e->nhelpers].engine);
    while (e->nhelpers < threads - 1) {
        struct dm_engine *h = engine_alloc();
        if (!h)
            return -1;
        h->table = &e->tt;
        h->helper_index = e->nhelpers + 1;
        engine_egdb_set(&h->egdb, e->egdb.root);
        e->helpers[e->nhelpers++].engine = h;
    }
    return 0;
}

int dm_engine_threads(const dm_engine *e)
{
    return 1 + e->nhelpers;
}

void dm_engine_set_egdb(dm_engine *e, const char *root)
{
    engine_egdb_set(&e->egdb, root);
    for (int i = 0; i < e->nhelpers; i++)
        engine_egdb_set(&e->helpers[i].engine->egdb, root);
}

void dm_engine_new_game(dm_engine *e)
{
    tt_clear(&e->tt);
}

void dm_engine_stop(dm_engine *e)
{
    atomic_store_explicit(&e->stop_request, true, memory_order_relaxed);
}

void dm_engine_ponder_hit(dm_engine *e)
{
    atomic_store_explicit(&e->ponder_hit, true, memory_order_relaxed);
}

void dm_engine_forget_signals(dm_engine *e)
{
    atomic_store_explicit(&e->stop_request, false, memory_order_relaxed);
    atomic_store_explicit(&e->ponder_hit, false, memory_order_relaxed);
}

int dm_engine_line(const dm_engine *e, int index, dm_search_line *line)
{
    if (index < 0 || index >= e->nlines)
        return -1;
    *line = e->lines[index];
    return 0;
}

/* A cap below the stack's size, for the tests of the overflow rule. */
void search_set_move_room(dm_engine *e, int room)
{
    e->move_room = room < 0 ? 0 : room > SEARCH_MOVE_STACK ? SEARCH_MOVE_STACK : room;
}

/* ---- limits -------------------------------------------------------------- */

/* The deadlines (struct time_plan): soft, after which no new iteration
 * starts, and hard, at which the search stops where it is (the root's best
 * so far stands).
 *
 * A fixed time per move is time that is lost if not used: the search goes
 * on to its end (soft = hard), and the root's best of the iteration it
 * stops in stands if it was searched.  With a clock the move gets its
 * share of the time left until more comes, plus most of the increment,
 * never more than a third of what is left (all of it, less a margin, for
 * the last move of a period), its hard limit.  The last move of a period
 * (every move, with so many seconds a move) has nothing to save for, so it
 * is planned as a fixed time.  Any other starts no new iteration
 * past 2/5 of it (an iteration takes several times the one before), more
 * when the search is unstable, nor one that would probably not end before
 * the hard limit (search_goes_on).  A clock's margin must absorb what the
 * move costs around the search, which on a loaded machine is more than a
 * tenth of a short time (at 0.1 and 0.5 s a move most games were lost on
 * time by either side; a hard limit of twice the share lost 3 games of 4
 * on time at 3 s + 0.02 s with the machine at a load of 20; through
 * damier hub at 0.5 s a move a tenth left 30-44 ms of its 50, and a game
 * in 172 was lost on time with two matches on two cores).  With both a
 * fixed time and a clock, the shorter wins. */
void search_plan_time(const dm_search_limits *l, int nroot, struct time_plan *plan)
{
    int64_t hard = 0, soft = 0;
    bool clock = false;
    if (l->move_time_ms > 0)
        hard = soft = l->move_time_ms;
    if (l->time_left_ms > 0) {
        /* A margin for what the move costs around the search: a tenth,
         * but of a short time up to a quarter and 100 ms; at least 20 ms,
         * at most a second. */
        int64_t left = l->time_left_ms;
        int64_t margin = left / 10;
        int64_t short_margin = left / 4 < 100 ? left / 4 : 100;
        if (margin < short_margin)
            margin = short_margin;
        if (margin < 20)
            margin = 20;
        if (margin > 1000)
            margin = 1000;
        int64_t usable = left > margin ? left - margin : 1;
        int64_t mtg = l->moves_to_go > 0 ? l->moves_to_go : SEARCH_SUDDEN_DEATH_MOVES;
        int64_t share = usable / mtg + l->increment_ms * 3 / 4;
        int64_t cap = mtg == 1 ? usable : usable / 3;
        if (share > cap)
            share = cap;
        if (hard == 0 || share < hard) {
            hard = share;
            soft = mtg == 1 ? share : share * 2 / 5;
            clock = mtg != 1;
        }
    }
    *plan = (struct time_plan){0};
    if (l->move_time_ms <= 0 && l->time_left_ms <= 0)
        return;
    if (hard < 1)
        hard = 1;
    /* A single legal move needs no thought. */
    if (nroot == 1)
        soft = 0;
    plan->hard_ms = hard;
    plan->soft_ms = soft < 1 ? 1 : soft;
    plan->clock = clock;
}

/* Whether a search on a clock starts another iteration, elapsed ms after
 * the move's time began, the last iteration having taken last_ms: not past
 * the soft limit, which stretches to twice as far when the last iteration
 * changed its mind about the best move and half as far again when its
 * score fell by SEARCH_SCORE_DROP or more (never past the hard limit), and
 * not when twice the last iteration's time would reach the hard limit (the
 * next one takes longer).  A fixed time starts iterations until its soft
 * limit, which is its end. */
bool search_goes_on(const struct time_plan *plan, int64_t elapsed, int64_t last_ms,
                    bool best_changed, int score_drop)
{
    if (!plan->soft_ms)
        return true;
    if (!plan->clock)
        return elapsed < plan->soft_ms;
    int64_t scale = 100 + (best_changed ? 100 : 0) + (score_drop >= SEARCH_SCORE_DROP ? 50 : 0);
    int64_t soft = plan->soft_ms * scale / 100;
    if (soft > plan->hard_ms)
        soft = plan->hard_ms;
    return elapsed < soft && elapsed + 2 * last_ms < plan->hard_ms;
}

/* Whether the search must stop now: called at every node.  A ponder hit
 * starts the move's time here, within a node of its coming. */
static bool out_of_budget(struct dm_engine *e)
{
    if (e->stop)
        return true;
    if (atomic_load_explicit(&e->stop_request, memory_order_relaxed))
        e->stop = true;
    else if (e->lim.nodes && e->nodes >= e->lim.nodes)
        e->stop = true;
    else if (e->pondering) {
        if (atomic_load_explicit(&e->ponder_hit, memory_order_relaxed)) {
            e->pondering = false;
            e->start_ms = now_ms(e);
        }
    } else if (e->plan.hard_ms && e->nodes % SEARCH_CHECK_NODES == 0 &&
               now_ms(e) - e->start_ms >= e->plan.hard_ms)
        e->stop = true;
    return e->stop;
}

/* A ponder search that has ended on its own waits for its hit or a stop,
 * as the protocols require; a sleep of 0.2 ms between looks. */
static void wait_for_hit(struct dm_engine *e)
{
    while (e->pondering && !atomic_load_explicit(&e->stop_request, memory_order_relaxed) &&
           !atomic_load_explicit(&e->ponder_hit, memory_order_relaxed))
        nanosleep(&(struct timespec){.tv_nsec = 200000}, NULL);
}

/* ---- repetitions --------------------------------------------------------- */

/* Whether b can follow a without a capture or a man move (so that a might
 * come again later). */
static bool reversible_step(const dm_position *a, const dm_position *b)
{
    return (a->white & ~a->kings) == (b->white & ~b->kings) &&
           (a->black & ~a->kings) == (b->black & ~b->kings) && a->paras == b->paras &&
           popcount128(a->white | a->black) == popcount128(b->white | b->black);
}

/* Whether b can follow a by a move that a later one can undo: a quiet king
 * move, or where men step sideways (men_sideways) a man's step along its
 * rank (each rank keeps its count of each colour's men). */
static bool repeatable_step(const struct dm_variant *v, bool men_sideways, const dm_position *a,
                            const dm_position *b)
{
    if (reversible_step(a, b))
        return true;
    if (!men_sideways || a->kings != b->kings || a->paras != b->paras ||
        popcount128(a->white | a->black) != popcount128(b->white | b->black))
        return false;
    for (int r = 0; r < v->geo->ranks; r++) {
        dm_bits rank = v->geo->rank_bb[r];
        if (popcount128(a->white & ~a->kings & rank) != popcount128(b->white & ~b->kings & rank) ||
            popcount128(a->black & ~a->kings & rank) != popcount128(b->black & ~b->kings & rank))
            return false;
    }
    return true;
}

/* Whether b can follow a without a capture or a promotion. */
static bool same_material_step(const dm_position *a, const dm_position *b)
{
    return popcount128(a->white) == popcount128(b->white) &&
           popcount128(a->black) == popcount128(b->black) &&
           popcount128(a->kings) == popcount128(b->kings);
}

/* The key of the position back plies before ply (which may reach into the
 * game before the root). */
static uint64_t key_before(const struct dm_engine *e, int ply, int back)
{
    int at = ply - back;
    return at >= 0 ? e->stack[at].key : e->game_keys[e->ngame + at];
}

/* Whether the position at ply occurred before, in the search or the game.
 * Only positions with the same side to move, two plies apart, can match. */
static bool repeated(const struct dm_engine *e, int ply)
{
    const struct search_ply *sp = &e->stack[ply];
    int reach = sp->repeatable;
    if (reach > ply + e->ngame)
        reach = ply + e->ngame;
    for (int back = 4; back <= reach; back += 2)
        if (key_before(e, ply, back) == sp->key)
            return true;
    return false;
}

/* ---- the move counters ---------------------------------------------------- */

/*
 * The draw rules' counters (the variant's record, under the limits' rules)
 * as the search can apply them from what each ply knows, never drawing a
 * game the rules would not: a counter of plies without capture (MAT_ANY)
 * draws after quiet_limit plies of king moves (a run that a man move ends
 * too, so it is never longer than the rule's count); a counter that runs
 * while a material holds, reset by the captures and promotions that alone
 * change it, draws once the material has stood that long (the strong
 * side's moves: twice as many plies).  Left out, so never claimed: the
 * long diagonal's conditions and Turkish's one piece against one (whether
 * a capture is on).  The game before the root counts only as far as the
 * history given reaches.
 */
static void load_counters(struct dm_engine *e, enum dm_rules rules)
{
    struct counter_draws *d = &e->draws;
    memset(d, 0, sizeof *d);
    const struct draw_rules *dr = e->v->draw[rules == DM_RULES_OFFICIAL ? 1 : 0];
    if (!dr)
        return;
    for (int i = 0; i < DRAW_MAX_COUNTERS && dr->counter[i].reason; i++) {
        const struct draw_counter *c = &dr->counter[i];
        if (c->unless_capture || c->diagonal != DIAG_ANY || c->limit == 0)
            continue;
        if (c->material == MAT_ANY) {
            if (c->reset & RESET_CAPTURE && (!d->quiet_limit || c->limit < d->quiet_limit))
                d->quiet_limit = c->limit;
            continue;
        }
        if ((c->reset & ~(RESET_CAPTURE | RESET_PROMOTION)) ||
            !(c->reset & RESET_CAPTURE) || !(c->reset & RESET_PROMOTION))
            continue;
        int plies = c->strong_moves ? 2 * c->limit : c->limit;
        d->material[d->nmaterial].material = c->material;
        d->material[d->nmaterial++].plies = plies;
        if (!d->min_plies || plies < d->min_plies)
            d->min_plies = plies;
    }
}

/* Whether the material of pos fits mat (struct draw_counter). */
static bool material_holds(enum draw_material mat, const dm_position *pos)
{
    int n[2] = {popcount128(pos->white), popcount128(pos->black)};
    int k[2] = {popcount128(pos->white & pos->kings), popcount128(pos->black & pos->kings)};
    int total = n[0] + n[1];
    switch (mat) {
    case MAT_BOTH_KINGS_4_5:
        return k[0] && k[1] && total >= 4 && total <= 5;
    case MAT_BOTH_KINGS_6_7:
        return k[0] && k[1] && total >= 6 && total <= 7;
    case MAT_ONE_V_ONE:
        return n[0] == 1 && n[1] == 1;
    default:
        break;
    }
    for (int weak = 0; weak < 2; weak++) {
        int s = weak ^ 1;
        if (n[weak] != 1 || k[weak] != 1)
            continue;
        bool fits = mat == MAT_KINGS_3PLUS_V_KING ? n[s] >= 3 && k[s] == n[s]
                    : mat == MAT_KINGS_3_V_KING   ? n[s] == 3 && k[s] == 3
                    : mat == MAT_KINGS_2_V_KING   ? n[s] == 2 && k[s] == 2
                    : mat == MAT_KING_V_KING      ? n[s] == 1 && k[s] == 1
                    : mat == MAT_3_WITH_KING_V_KING ? n[s] == 3 && k[s] >= 1
                    : mat == MAT_2_WITH_KING_V_KING ? n[s] >= 1 && n[s] <= 2 && k[s] >= 1
                                                    : false;
        if (fits)
            return true;
    }
    return false;
}

/* Whether a counter of material has drawn pos, same plies after the last
 * capture or promotion. */
static bool material_draw(const struct counter_draws *d, const dm_position *pos, int same)
{
    for (int i = 0; i < d->nmaterial; i++)
        if (same >= d->material[i].plies &&
            material_holds((enum draw_material)d->material[i].material, pos))
            return true;
    return false;
}

/* Whether a move counter has drawn the position at ply.  Inline at every
 * node but for the rare material's look. */
static inline bool counter_draw(const struct dm_engine *e, const dm_position *pos, int ply)
{
    const struct counter_draws *d = &e->draws;
    const struct search_ply *sp = &e->stack[ply];
    if (d->quiet_limit && sp->reversible >= d->quiet_limit)
        return true;
    if (!d->min_plies || sp->same_material < d->min_plies)
        return false;
    return material_draw(d, pos, sp->same_material);
}

/* Keeps the keys of the game's positions; false if memory runs out.  The
 * root's reversible count is the run of quiet king moves that led to it. */
static bool load_history(struct dm_engine *e, const dm_position *pos, const dm_position *history,
                         int nhistory)
{
    if (nhistory > e->game_cap) {
        uint64_t *keys = realloc(e->game_keys, (size_t)nhistory * sizeof *keys);
        if (!keys)
            return false;
        e->game_keys = keys;
        e->game_cap = nhistory;
    }
    int run = 0, repeat = 0, same = 0;
    for (int i = 0; i < nhistory; i++) {
        e->game_keys[i] = tt_key(&e->keys, &history[i]);
        const dm_position *next = i + 1 < nhistory ? &history[i + 1] : pos;
        run = reversible_step(&history[i], next) ? run + 1 : 0;
        repeat = repeatable_step(e->v, e->men_sideways, &history[i], next) ? repeat + 1 : 0;
        same = same_material_step(&history[i], next) ? same + 1 : 0;
    }
    e->ngame = nhistory;
    e->stack[0].key = tt_key(&e->keys, pos);
    e->stack[0].reversible = run;
    e->stack[0].repeatable = repeat;
    e->stack[0].same_material = same;
    return true;
}

/* ---- move ordering ---------------------------------------------------------- */

static uint16_t move_id(const dm_move *m)
{
    return (uint16_t)(m->from << 8 | m->to);
}

static bool is_quiet(const dm_move *m)
{
    return !(m->flags & (DM_MOVE_CAPTURE | DM_MOVE_PROMOTES));
}

/* Scores every move of the ply's slice for ordering; tt_move is the
 * table's index (or TT_NO_MOVE), checked against its from cell. */
static void order_moves(struct dm_engine *e, const dm_position *pos, int ply, int tt_move,
                        int tt_from)
{
    struct search_ply *sp = &e->stack[ply];
    const dm_move *moves = sp->moves;
    int *order_key = sp->order_key;
    uint16_t *order = sp->order;
    if (sp->count == 1) { /* a forced move (a capture, mostly): no keys */
        order_key[0] = 0;
        order[0] = 0;
        return;
    }
    const int(*hist)[DM_MAX_CELLS] = e->history[pos->side];
    for (int i = 0; i < sp->count; i++) {
        const dm_move *m = &moves[i];
        int key;
        if (i == tt_move && m->from == tt_from)
            key = ORDER_TT;
        else if (m->flags & DM_MOVE_CAPTURE)
            key = ORDER_CAPTURE + 64 * popcount128(m->captured_set) +
                  16 * popcount128(m->captured_set & pos->kings) +
                  (m->flags & DM_MOVE_PROMOTES ? 8 : 0);
        else if (m->flags & DM_MOVE_PROMOTES)
            key = ORDER_PROMO;
        else if (move_id(m) == sp->killer[0])
            key = ORDER_KILLER + 1;
        else if (move_id(m) == sp->killer[1])
            key = ORDER_KILLER;
        else
            key = hist[m->from][m->to];
        order_key[i] = key;
        order[i] = (uint16_t)i;
    }
}

/* The index of the k-th move to search: the best of those not yet taken
 * (a selection step, as most nodes cut off after a few moves). */
static int next_move(const struct search_ply *sp, int k)
{
    const int *order_key = sp->order_key;
    uint16_t *order = sp->order;
    int best = k, best_key = order_key[order[k]], count = sp->count;
    for (int j = k + 1; j < count; j++)
        if (order_key[order[j]] > best_key) {
            best = j;
            best_key = order_key[order[j]];
        }
    uint16_t t = order[k];
    order[k] = order[best];
    order[best] = t;
    return order[k];
}

static void reward_quiet(struct dm_engine *e, int side, int ply, const dm_move *m, int depth)
{
    struct search_ply *sp = &e->stack[ply];
    uint16_t id = move_id(m);
    if (sp->killer[0] != id) {
        sp->killer[1] = sp->killer[0];
        sp->killer[0] = id;
    }
    int *h = &e->history[side][m->from][m->to];
    *h += depth * depth;
    if (*h > HISTORY_MAX)
        for (int f = 0; f < DM_MAX_CELLS; f++)
            for (int t = 0; t < DM_MAX_CELLS; t++)
                e->history[side][f][t] /= 2;
}

/* The line from ply: m, then the line from ply + 1, as far as the row
 * has room. */
static void update_pv(struct dm_engine *e, int ply, const dm_move *m)
{
    int room = PV_ROOM(ply);
    if (room == 0) {
        e->pv_len[ply] = 0;
        return;
    }
    dm_move *row = e->pv + PV_ROW(ply);
    row[0] = *m;
    int n = e->pv_len[ply + 1];
    if (n > room - 1)
        n = room - 1;
    if (n > 0)
        memcpy(&row[1], e->pv + PV_ROW(ply + 1), (size_t)n * sizeof(dm_move));
    e->pv_len[ply] = n + 1;
}

/* ---- the search ------------------------------------------------------------- */

/* The plies a late quiet move loses, from the node's depth and the move's
 * rank (0: the first tried): ln(depth) * ln(rank) / 2 rounded down, at
 * least one; both capped at 31. */
#define LMR_LIMIT 32
static int lmr_reduction(int depth, int k)
{
    /* 64 * ln(n), n = 0..31, rounded (ln(0) taken as 0). */
    static const uint8_t ln64[LMR_LIMIT] = {0,   0,   44,  70,  89,  103, 115, 125,
                                            133, 141, 147, 153, 159, 164, 169, 173,
                                            177, 181, 185, 188, 192, 195, 198, 201,
                                            203, 206, 209, 211, 213, 216, 218, 220};
    int d = depth < LMR_LIMIT ? depth : LMR_LIMIT - 1;
    int n = k < LMR_LIMIT ? k : LMR_LIMIT - 1;
    int r = ln64[d] * ln64[n] / (64 * 64 * 2);
    return r < 1 ? 1 : r;
}

/* The score for the side to move at a position without moves. */
static int no_move_score(const struct dm_variant *v, int ply)
{
    return v->goal == GOAL_NO_MOVE_WINS ? DM_SCORE_WIN - ply : -(DM_SCORE_WIN - ply);
}

/*
 * The move list whose moves start at slot base of the move stack: its
 * count sits in the slot before, which the plies leave free, so that
 * dm_generate writes straight onto the stack.  The caller makes sure that
 * the DM_MAX_MOVES slots from base are the stack's.
 */
static dm_move_list *list_at(struct dm_engine *e, int base)
{
    _Static_assert(offsetof(dm_move_list, moves) <= sizeof(dm_move) &&
                       sizeof(dm_move) % _Alignof(dm_move_list) == 0,
                   "a list's count fits in the free slot before its moves");
    return (dm_move_list *)((char *)(e->moves + base) - offsetof(dm_move_list, moves));
}

/* Gives the ply its count moves from slot base, and the next ply the
 * slots after them (and after the slot for its list's count). */
static void set_slices(struct dm_engine *e, struct search_ply *sp, int base, int count)
{
    sp->base = base;
    sp->count = count;
    sp->moves = e->moves + base;
    sp->order_key = e->order_key + base;
    sp->order = e->order + base;
    sp[1].base = base + count + 1;
}

/* Makes m from pos into next, and keys the child ply; known, if not NULL,
 * is tt_key_move's key of m, found already (and its entry prefetched).  A
 * child at the horizon (quiesce, and its captures after it) never probes
 * the table, and there a key serves only the repetition test of a move
 * that a later position can undo: any other goes unkeyed, and nothing
 * below it reads its key (their moves are captures, which repeat
 * nothing). */
static inline void play_known(struct dm_engine *e, const dm_position *pos, int ply,
                              const dm_move *m, dm_position *next, const uint64_t *known,
                              bool horizon)
{
    struct search_ply *child = &e->stack[ply + 1];
    bool quiet = m->njumps == 0 && !(m->flags & (DM_MOVE_REMOVAL | DM_MOVE_PROMOTES));
    bool reversible = quiet && bit_at128(pos->kings, m->from);
    child->reversible = reversible ? e->stack[ply].reversible + 1 : 0;
    bool repeatable = reversible || (quiet && e->men_sideways &&
                                     e->v->geo->rank_of[m->from] == e->v->geo->rank_of[m->to]);
    child->repeatable = repeatable ? e->stack[ply].repeatable + 1 : 0;
    bool same = m->njumps == 0 && !(m->flags & (DM_MOVE_CAPTURE | DM_MOVE_REMOVAL | DM_MOVE_PROMOTES));
    child->same_material = same ? e->stack[ply].same_material + 1 : 0;
    bool keyed = !horizon || repeatable;
    uint64_t key = 0;
    /* The child's entry starts loading before the move is made (which
     * takes a while): the key comes from the move alone. */
    if (keyed) {
        key = known ? *known : tt_key_move(&e->keys, e->stack[ply].key, pos, m);
        if (!horizon && !known)
            tt_prefetch(e->table, key);
    }
    *next = *pos;
    dm_make_move(e->v, next, m);
    if (keyed && e->v->frisian_king_limit) {
        uint64_t counted = key ^ tt_key_counters_change(&e->keys, pos, next);
        if (!horizon && counted != key)
            tt_prefetch(e->table, counted);
        key = counted;
    }
    child->key = key;
#ifdef SEARCH_CHECK_KEYS
    if (keyed && child->key != tt_key(&e->keys, next))
        abort();
#endif
}

/* Makes m (play_known), the child to be searched child_depth deep. */
static void play(struct dm_engine *e, const dm_position *pos, int ply, const dm_move *m,
                 dm_position *next, int child_depth)
{
    play_known(e, pos, ply, m, next, NULL, child_depth <= 0);
}

/* Probes the table for the node keyed key: its move (for ordering) into
 * *move (TT_INDEX bits and flags), *from and *to, and true with the score in
 * *cut when the stored bound settles the node at this depth and window
 * (never at a PV node). */
static bool tt_cutoff(struct dm_engine *e, uint64_t key, int ply, int depth, int alpha, int beta,
                      bool pv_node, int *move, int *from, int *to, int *cut)
{
    struct tt_entry entry;
    if (!tt_probe(e->table, key, &entry))
        return false;
    const struct tt_entry *te = &entry;
    *move = te->move;
    *from = te->from;
    *to = (uint8_t)te->key;
    int s = tt_score_from(te->score, ply);
    if (pv_node || te->depth < depth ||
        !(te->bound == TT_EXACT || (te->bound == TT_LOWER && s >= beta) ||
          (te->bound == TT_UPPER && s <= alpha)))
        return false;
    *cut = s;
    return true;
}

/* The table's code of moves[index] of a list of count moves (tt_entry). */
static int tt_code(const dm_move *m, int index, int count)
{
    int code = index;
    if (m->njumps == 0 && !(m->flags & DM_MOVE_CAPTURE))
        code |= TT_PLAIN | (m->flags & DM_MOVE_PROMOTES ? TT_PROMOTES : 0) |
                (m->flags & DM_MOVE_REMOVAL ? TT_REMOVAL : 0);
    if (count == 1)
        code |= TT_SINGLE;
    return code;
}

/* The plain move (TT_PLAIN) a table entry codes, as dm_generate makes it;
 * false unless pos has a piece of its side on from and to is free (a
 * check against a key's collision, so that no impossible move is made). */
static bool tt_plain_move(const dm_position *pos, int code, int from, int to, dm_move *m)
{
    if (!(code & TT_PLAIN) || (code & TT_INDEX) == TT_NO_MOVE || from >= DM_MAX_CELLS ||
        to >= DM_MAX_CELLS)
        return false;
    dm_bits own = pos->side == DM_WHITE ? pos->white : pos->black;
    bool removal = (code & TT_REMOVAL) != 0;
    if (!has128(own, from) || (removal ? from != to : has128(pos->white | pos->black, to)))
        return false;
    memset(m, 0, sizeof *m);
    m->from = (uint8_t)from;
    m->to = (uint8_t)to;
    m->flags = (uint8_t)((code & TT_PROMOTES ? DM_MOVE_PROMOTES : 0) |
                         (removal ? DM_MOVE_REMOVAL : 0));
    return true;
}

/*
 * What every node looks at first: a stopped search (0), a draw by the
 * rules, a decided game, the end of the stack.  True when that settles
 * the node, its score in *score; else the window narrowed to the scores a
 * line from here can still reach (false too, with *score = alpha, when
 * none can).  Counts the node.
 */
static inline bool node_settled(struct dm_engine *e, const dm_position *pos, int ply, int *alpha,
                                int *beta, int *score)
{
    e->pv_len[ply] = 0;
    if (out_of_budget(e)) {
        *score = 0;
        return true;
    }
    e->nodes++;
    if (ply > e->seldepth)
        e->seldepth = ply;
    if (repeated(e, ply) || counter_draw(e, pos, ply)) {
        *score = e->draw_score[pos->side];
        return true;
    }
    /* Only Breakthrough's first king ends a game before its moves run out
     * (a test here, not a call at every node). */
    enum dm_outcome decided =
        e->v->goal == GOAL_FIRST_KING ? rules_goal_reached(e->v, pos) : DM_ONGOING;
    if (decided != DM_ONGOING) {
        *score = decided == DM_SIDE_TO_MOVE_WINS ? DM_SCORE_WIN - ply : -(DM_SCORE_WIN - ply);
        return true;
    }
    if (ply >= SEARCH_MAX_PLY - 1) {
        *score = eval_position(&e->eval, pos);
        return true;
    }
    /* No line from here can end sooner than the next ply. */
    if (*alpha < -DM_SCORE_WIN + ply)
        *alpha = -DM_SCORE_WIN + ply;
    if (*beta > DM_SCORE_WIN - ply - 1)
        *beta = DM_SCORE_WIN - ply - 1;
    *score = *alpha;
    return *alpha >= *beta;
}

/*
 * The horizon (search at depth 0): a position with no capture to make is
 * scored as it stands; one that must capture plays every capture (the
 * only moves it has) until none is left.  Most of a tree's nodes are
 * here, so they pay for nothing the nodes inside the horizon do: no
 * table (a probe is a cache miss, and a capture sequence is searched
 * again cheaper than it is looked up), no reductions, no killers.
 */
static int quiesce(struct dm_engine *e, const dm_position *pos, int ply, int alpha, int beta)
{
    const struct dm_variant *v = e->v;
    struct search_ply *sp = &e->stack[ply];
    bool pv_node = beta - alpha > 1;
    int settled;
    if (node_settled(e, pos, ply, &alpha, &beta, &settled))
        return settled;
    /* Most need not capture: a kernel tells so, and whether any move is
     * left, without a list. */
    int leaf = kernel_leaf(v, pos);
    if (leaf == 0)
        return no_move_score(v, ply);
    if (leaf == 1 || (leaf == 2 && !e->has_quiet))
        return eval_position(&e->eval, pos);
    int base = sp->base;
    dm_move_list *list = base + DM_MAX_MOVES <= e->move_room ? list_at(e, base) : &e->scratch;
    dm_generate(v, pos, list, 0);
    int count = list->count;
    if (count == 0)
        return no_move_score(v, ply);
    /* Capture is compulsory: a list that starts with a capture holds only
     * captures.  Where every move jumps (Hawaiian) that says nothing. */
    bool must_capture = e->has_quiet && (list->moves[0].flags & DM_MOVE_CAPTURE);
    if (!must_capture || base + count > e->move_room)
        return eval_position(&e->eval, pos);
    dm_move *moves = e->moves + base;
    if (list == &e->scratch)
        memcpy(moves, list->moves, (size_t)count * sizeof *moves);
    set_slices(e, sp, base, count);
    order_moves(e, pos, ply, TT_NO_MOVE, DM_NO_CELL);
    int best = -SEARCH_INF;
    for (int k = 0; k < count; k++) {
        const dm_move *m = &moves[next_move(sp, k)];
        dm_position next;
        play(e, pos, ply, m, &next, 0);
        int s;
        if (k == 0) {
            s = -quiesce(e, &next, ply + 1, -beta, -alpha);
        } else {
            s = -quiesce(e, &next, ply + 1, -alpha - 1, -alpha);
            if (s > alpha && s < beta)
                s = -quiesce(e, &next, ply + 1, -beta, -alpha);
        }
        if (e->stop)
            return 0;
        if (s <= best)
            continue;
        best = s;
        if (s <= alpha)
            continue;
        alpha = s;
        if (pv_node)
            update_pv(e, ply, m);
        if (s >= beta)
            break;
    }
    return best;
}

static int search(struct dm_engine *e, const dm_position *pos, int ply, int depth, int alpha,
                  int beta);

/* A child's score: quiesce's at the horizon, without a call of search on
 * the way. */
static inline int descend(struct dm_engine *e, const dm_position *pos, int ply, int depth,
                          int alpha, int beta)
{
    return depth > 0 ? search(e, pos, ply, depth, alpha, beta) : quiesce(e, pos, ply, alpha, beta);
}

/*
 * The score of pos (at ply, keyed in the stack) for its side to move,
 * searched depth plies deep within (alpha, beta): exact inside the window,
 * a bound outside it.  Returns 0 once the search is stopped; callers check
 * e->stop before using a score.
 */
static int search(struct dm_engine *e, const dm_position *pos, int ply, int depth, int alpha,
                  int beta)
{
    if (depth <= 0)
        return quiesce(e, pos, ply, alpha, beta);
    const struct dm_variant *v = e->v;
    struct search_ply *sp = &e->stack[ply];
    bool pv_node = beta - alpha > 1;
    int settled;
    if (node_settled(e, pos, ply, &alpha, &beta, &settled))
        return settled;

    /* The table first: a cutoff saves generating the moves. */
    int tt_move = TT_NO_MOVE, tt_from = DM_NO_CELL, tt_to = DM_NO_CELL;
    int cut;
    /* The endgame tables know this node (few pieces, no capture pending). */
    if (ply > 0 && engine_egdb_score(&e->egdb, pos, ply, &cut))
        return cut ? cut : e->draw_score[pos->side];
    if (tt_cutoff(e, sp->key, ply, depth, alpha, beta, pv_node, &tt_move, &tt_from, &tt_to, &cut))
        return cut;
    /* Reverse futility and razoring: a ply or two from the horizon, a
     * position with no capture to make whose static score beats beta by a
     * margin a ply is not likely to give back is cut at once, and one
     * that falls short of alpha by a wider margin (a quiet move seldom
     * wins a man and a half back) fails low at once. */
    if (!pv_node && depth <= FUTILITY_DEPTH && ply > 0 && e->prune_static &&
        abs(beta) < DM_SCORE_DECIDED && e->has_quiet && kernel_leaf(v, pos) == 1) {
        int s = eval_position(&e->eval, pos);
        if (s - FUTILITY_MARGIN * depth >= beta)
            return s;
        if (s + RAZOR_MARGIN * depth <= alpha)
            return s;
    }
    /* ProbCut: where a shallower search beats beta by a margin, the full
     * one would beat beta too; it costs a fraction of the full search. */
    if (!pv_node && depth >= PROBCUT_DEPTH && e->prune_static && abs(beta) < DM_SCORE_DECIDED) {
        int probe_beta = beta + PROBCUT_MARGIN;
        int s = search(e, pos, ply, depth - PROBCUT_REDUCTION, probe_beta - 1, probe_beta);
        if (e->stop)
            return 0;
        if (s >= probe_beta)
            return s;
    }
    int base = sp->base;
    int old_alpha = alpha, best = -SEARCH_INF, best_index = TT_NO_MOVE;
    /* The table's move, if its entry says how to make it (a plain move),
     * is searched before the moves are generated: when it cuts off, they
     * never are.  Only where every list fits on the stack, so that the
     * node is not one the overflow rule would have evaluated. */
    int first = 0;
    dm_move hash_move;
    if (base + DM_MAX_MOVES <= e->move_room &&
        tt_plain_move(pos, tt_move, tt_from, tt_to, &hash_move)) {
        int hash_depth = depth - 1;
        if ((tt_move & TT_SINGLE) && ply < 2 * e->root_depth + 16)
            hash_depth = depth; /* a forced move is not a choice */
        /* No slice of this node's yet: the child's moves start at its
         * base, where the node's own list goes once the child is done
         * (the child then has more room than after the list, which
         * matters only in lines near the stack's end). */
        sp[1].base = base + 1;
        dm_position next;
        play(e, pos, ply, &hash_move, &next, hash_depth);
        int s = -descend(e, &next, ply + 1, hash_depth, -beta, -alpha);
        if (e->stop)
            return 0;
        best = s;
        best_index = tt_move & TT_INDEX;
        if (s > alpha) {
            alpha = s;
            if (pv_node)
                update_pv(e, ply, &hash_move);
            if (s >= beta) {
                if (is_quiet(&hash_move))
                    reward_quiet(e, pos->side, ply, &hash_move, depth);
                tt_store(e->table, sp->key, tt_score_to(best, ply), depth, TT_LOWER, tt_move,
                         tt_from, tt_to);
                return best;
            }
        }
        first = 1;
    }
    dm_move_list *list = base + DM_MAX_MOVES <= e->move_room ? list_at(e, base) : &e->scratch;
    dm_generate(v, pos, list, 0);
    int count = list->count;
    if (count == 0)
        return no_move_score(v, ply);
    if (base + count > e->move_room)
        return eval_position(&e->eval, pos);
    dm_move *moves = e->moves + base;
    if (list == &e->scratch)
        memcpy(moves, list->moves, (size_t)count * sizeof *moves);
    set_slices(e, sp, base, count);
    int tt_index = tt_move & TT_INDEX;
    if (tt_index >= count || moves[tt_index].from != tt_from)
        tt_index = TT_NO_MOVE;
    if (first && (tt_index == TT_NO_MOVE || !dm_move_same(&moves[tt_index], &hash_move))) {
        /* A key's collision: the move searched is not this position's. */
        first = 0;
        alpha = old_alpha;
        best = -SEARCH_INF;
        best_index = TT_NO_MOVE;
        e->pv_len[ply] = 0;
    }

    int new_depth = depth - 1;
    if (count == 1 && ply < 2 * e->root_depth + 16)
        new_depth = depth; /* a forced move is not a choice */
    else if (depth >= IIR_DEPTH && tt_index == TT_NO_MOVE && !first)
        new_depth--; /* a node no search has been through: its moves unordered */

    order_moves(e, pos, ply, tt_index, tt_from);
    if (first)
        next_move(sp, 0); /* the table's move, searched already */
    /* The move after this one is chosen while this one is searched, and
     * its entry starts loading (its key from the move, which play then
     * takes; Frisian's is a guess: a wrong one costs a load). */
    int next_i = -1;
    uint64_t next_key = 0;
    bool horizon = new_depth <= 0; /* every child is searched by quiesce */
    for (int k = first; k < count; k++) {
        int i = next_i >= 0 ? next_i : next_move(sp, k);
        const dm_move *m = &moves[i];
        dm_position next;
        play_known(e, pos, ply, m, &next, next_i >= 0 && !horizon ? &next_key : NULL, horizon);
        if (k + 1 < count) {
            next_i = next_move(sp, k + 1);
            if (!horizon) {
                next_key = tt_key_move(&e->keys, sp->key, pos, &moves[next_i]);
                tt_prefetch(e->table, next_key);
            }
        }
        int s;
        if (k == 0) {
            s = -descend(e, &next, ply + 1, new_depth, -beta, -alpha);
        } else {
            /* Late quiet moves rarely matter: a shallower look first, the
             * shallower the later and deeper (less at a PV node), never
             * below one ply.  Captures, promotions, the table's move and
             * the killers are searched to the full depth. */
            int r = 0;
            if (depth >= 3 && k >= 3 && is_quiet(m) && sp->order_key[i] < ORDER_KILLER) {
                r = lmr_reduction(depth, k) - pv_node;
                if (r < 1)
                    r = 1;
                if (r > new_depth - 1)
                    r = new_depth - 1;
            }
            s = -descend(e, &next, ply + 1, new_depth - r, -alpha - 1, -alpha);
            if (s > alpha && r)
                s = -descend(e, &next, ply + 1, new_depth, -alpha - 1, -alpha);
            if (s > alpha && s < beta)
                s = -descend(e, &next, ply + 1, new_depth, -beta, -alpha);
        }
        if (e->stop)
            return 0;
        if (s <= best)
            continue;
        best = s;
        best_index = i;
        if (s <= alpha)
            continue;
        alpha = s;
        /* Lines are kept at PV nodes only: a null window's score is a
         * bound, and a move whose bound falls inside the parent's window
         * is searched again with a full one, which makes its line. */
        if (pv_node)
            update_pv(e, ply, m);
        if (s >= beta) {
            if (is_quiet(m))
                reward_quiet(e, pos->side, ply, m, depth);
            break;
        }
    }
    enum tt_bound bound = best >= beta ? TT_LOWER : best > old_alpha ? TT_EXACT : TT_UPPER;
    if (bound == TT_UPPER)
        tt_store(e->table, sp->key, tt_score_to(best, ply), depth, bound, TT_NO_MOVE, DM_NO_CELL,
                 DM_NO_CELL);
    else
        tt_store(e->table, sp->key, tt_score_to(best, ply), depth, bound,
                 tt_code(&moves[best_index], best_index, count), moves[best_index].from,
                 moves[best_index].to);
    return best;
}

/* ---- the root ------------------------------------------------------------------ */

/* What a line search found. */
struct root_result {
    int index; /* of the best move in the root list, -1: none finished */
    int score;
};

/* Tells the caller's on_info about a line (index line, 0: the best). */
static void report(struct dm_engine *e, int depth, int line, int score,
                   enum dm_score_bound bound, const dm_move *pv, int pv_len)
{
    if (!e->lim.on_info)
        return;
    int64_t ms = now_ms(e) - e->begin_ms;
    dm_search_info info = {
        .depth = depth,
        .seldepth = e->seldepth,
        .score = score,
        .bound = bound,
        .multipv = line + 1,
        .nodes = e->nodes,
        .nps = ms > 0 ? e->nodes * 1000 / (uint64_t)ms : 0,
        .time_ms = ms,
        .pv_length = pv_len < DM_MAX_PV ? pv_len : DM_MAX_PV,
        .pv = pv,
    };
    e->lim.on_info(e->lim.info_ctx, &info);
}

/* One line of an iteration at depth, within (alpha, beta): the root moves
 * from order[first] on (the lines before took the others), the previous
 * iteration's best first, which it keeps in front; the line's best goes to
 * order[first].  A score at or below alpha is an upper bound (the first
 * move's stands as the best), one at or above beta a lower bound (the
 * search stops there).  With full_window every move gets an exact score
 * in e->root_score. */
static struct root_result search_root(struct dm_engine *e, const dm_position *pos, int depth,
                                      int first, bool full_window, int alpha, int beta)
{
    int count = e->stack[0].count;
    uint16_t *order = e->order; /* the root's slice starts the stack */
    struct root_result r = {-1, -SEARCH_INF};
    e->pv_len[0] = 0;
    int new_depth = count == 1 ? depth : depth - 1;
    for (int k = first; k < count; k++) {
        int i = order[k];
        const dm_move *m = &e->moves[i];
        dm_position next;
        play(e, pos, 0, m, &next, new_depth);
        int s;
        if (k == first || full_window) {
            s = -search(e, &next, 1, new_depth, -beta, -alpha);
        } else {
            s = -search(e, &next, 1, new_depth, -alpha - 1, -alpha);
            if (s > alpha && s < beta && !e->stop)
                s = -search(e, &next, 1, new_depth, -beta, -alpha);
        }
        if (e->stop)
            break;
        e->root_score[i] = s;
        if (k == first || (full_window ? s > r.score : s > alpha)) {
            r.score = s;
            r.index = i;
            update_pv(e, 0, m);
            if (!full_window && s > alpha)
                alpha = s;
            /* The new best goes to the front for the next iteration. */
            memmove(&order[first + 1], &order[first], (size_t)(k - first) * sizeof order[0]);
            order[first] = (uint16_t)i;
            if (k > first)
                report(e, depth, first, s, DM_BOUND_LOWER, e->pv, e->pv_len[0]);
            if (s >= beta)
                break;
        }
    }
    return r;
}

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Weaker play: one of the root moves within margin of the best, chosen by
 * seed, in list order so that the choice is reproducible.  A shot is never
 * passed over: when the best move wins a man or more over the position's
 * evaluation (a sacrifice and the captures it forces, which a beginner
 * sees), only the moves that win at least half as much are chosen from. */
static int pick_within_margin(const struct dm_engine *e, const dm_position *pos, int best_score)
{
    int count = e->stack[0].count;
    int best = e->root_score[0];
    for (int i = 1; i < count; i++)
        if (e->root_score[i] > best)
            best = e->root_score[i];
    /* A stop in the middle of an iteration can leave the best line's score
     * above every root score: measure from the best of these then. */
    if (best_score > best)
        best_score = best;
    int floor = best_score - e->lim.random_margin;
    int stand = eval_position(&e->eval, pos);
    if (best_score - stand >= SHOT_GAIN && floor < stand + (best_score - stand) / 2)
        floor = stand + (best_score - stand) / 2;
    int n = 0;
    for (int i = 0; i < count; i++)
        n += e->root_score[i] >= floor;
    int pick = (int)(mix64(e->lim.seed + 0x9E3779B97F4A7C15ull) % (uint64_t)n);
    for (int i = 0; i < count; i++)
        if (e->root_score[i] >= floor && pick-- == 0)
            return i;
    return 0;
}

/* Sets line to the root move m alone. */
static void line_of_move(dm_search_line *line, const dm_move *m, int score, int depth,
                         enum dm_score_bound bound)
{
    line->score = score;
    line->depth = depth;
    line->bound = bound;
    line->pv_length = 1;
    line->pv[0] = *m;
}

/* Keeps what a line search of the iteration at depth found as found[j]:
 * the principal variation of the root's row, which starts with its move. */
static void keep_line(struct dm_engine *e, int j, const struct root_result *r, int depth,
                      enum dm_score_bound bound)
{
    dm_search_line *line = &e->found[j];
    int n = e->pv_len[0] < DM_MAX_PV ? e->pv_len[0] : DM_MAX_PV;
    if (n == 0 || !dm_move_same(&e->pv[0], &e->moves[r->index])) {
        line_of_move(line, &e->moves[r->index], r->score, depth, bound);
        return;
    }
    line->score = r->score;
    line->depth = depth;
    line->bound = bound;
    line->pv_length = n;
    memcpy(line->pv, e->pv, (size_t)n * sizeof line->pv[0]);
}

/* The iteration's nfound lines replace the kept ones; when a stop cut it
 * short, the kept lines of other root moves follow them, up to want. */
static void take_lines(struct dm_engine *e, int nfound, int want)
{
    int n = nfound;
    for (int i = 0; i < e->nlines && n < want; i++) {
        bool taken = false;
        for (int j = 0; j < nfound && !taken; j++)
            taken = dm_move_same(&e->found[j].pv[0], &e->lines[i].pv[0]);
        if (!taken)
            e->found[n++] = e->lines[i];
    }
    memcpy(e->lines, e->found, (size_t)n * sizeof e->lines[0]);
    e->nlines = n;
}

static void fill_result(const struct dm_engine *e, dm_search_result *res, int depth)
{
    const dm_search_line *best = &e->lines[0];
    res->has_move = true;
    res->best = best->pv[0];
    res->score = best->score;
    res->depth = depth;
    res->pv_length = best->pv_length;
    memcpy(res->pv, best->pv, (size_t)best->pv_length * sizeof best->pv[0]);
    res->lines = e->nlines;
    res->seldepth = e->seldepth;
    res->nodes = e->nodes;
    res->time_ms = now_ms(e) - e->begin_ms;
}

/* One line of an iteration: the best line, at depth ASPIRATION_DEPTH and
 * more, first within a window around the last iteration's score, widened
 * (twice as far each time) on the side it fails; other lines and decided
 * scores with a full window.  A stop leaves r.index at -1 unless some move
 * beat the window's floor (a score that is a bound of its own). */
static struct root_result search_line(struct dm_engine *e, const dm_position *pos, int depth,
                                      int line, bool full_window)
{
    int alpha = -SEARCH_INF, beta = SEARCH_INF, delta = ASPIRATION_DELTA;
    int last = e->nlines > 0 ? e->lines[0].score : 0;
    if (line == 0 && !full_window && depth >= ASPIRATION_DEPTH && e->nlines > 0 &&
        !dm_score_plies_to_end(last)) {
        alpha = last - delta;
        beta = last + delta;
    }
    for (;;) {
        struct root_result r = search_root(e, pos, depth, line, full_window, alpha, beta);
        if (e->stop) {
            if (r.index >= 0 && r.score <= alpha)
                r.index = -1;
            return r;
        }
        delta *= 2;
        if (r.score <= alpha && alpha > -SEARCH_INF)
            alpha = r.score - delta < -SEARCH_INF / 2 ? -SEARCH_INF : r.score - delta;
        else if (r.score >= beta && beta < SEARCH_INF)
            beta = r.score + delta > SEARCH_INF / 2 ? SEARCH_INF : r.score + delta;
        else
            return r;
    }
}

/* The searching proper, once the root's moves are on the stack: the
 * iterations, and the result from the lines they kept.  Returns the
 * depth of the last finished iteration. */
static int iterate(struct dm_engine *e, const dm_position *pos, int count)
{
    bool full_window = e->lim.random_margin > 0;
    int want = full_window || e->lim.multipv <= 1 ? 1 : e->lim.multipv;
    if (want > count)
        want = count;
    if (want > DM_MAX_MULTIPV)
        want = DM_MAX_MULTIPV;
    int max_depth = e->lim.depth > 0 && e->lim.depth < DM_MAX_DEPTH ? e->lim.depth : DM_MAX_DEPTH;
    int done = 0;
    int64_t iteration_began = 0;
    /* Helpers of odd index start a ply deeper, so that the threads are
     * not all at the same depth at once. */
    for (int depth = 1 + (e->helper_index & 1); depth <= max_depth; depth++) {
        e->root_depth = depth;
        dm_move last_best = e->nlines > 0 ? e->lines[0].pv[0] : e->moves[e->order[0]];
        int last_score = e->nlines > 0 ? e->lines[0].score : 0;
        int nfound = 0;
        for (int j = 0; j < want; j++) {
            struct root_result r = search_line(e, pos, depth, j, full_window);
            if (e->stop && (r.index < 0 || full_window))
                break;
            /* A stopped line's best stands if it finished: every move
             * searched before it scored lower at this depth. */
            keep_line(e, nfound++, &r, depth, e->stop ? DM_BOUND_LOWER : DM_BOUND_EXACT);
            if (e->stop)
                break;
            const dm_search_line *l = &e->found[j];
            report(e, depth, j, l->score, DM_BOUND_EXACT, l->pv, l->pv_length);
        }
        if (nfound > 0)
            take_lines(e, nfound, want);
        if (e->stop)
            break;
        done = depth;
        int to_end = dm_score_plies_to_end(e->lines[0].score);
        if (to_end && abs(to_end) + 2 <= depth)
            break; /* a forced end well within the horizon */
        if (e->pondering)
            continue;
        int64_t elapsed = now_ms(e) - e->start_ms;
        bool changed = depth > 1 && !dm_move_same(&last_best, &e->lines[0].pv[0]);
        int drop = depth > 1 ? last_score - e->lines[0].score : 0;
        if (!search_goes_on(&e->plan, elapsed, elapsed - iteration_began, changed, drop))
            break;
        iteration_began = elapsed;
    }
    if (e->nlines == 0) /* stopped before any root move was searched */
        line_of_move(&e->lines[e->nlines++], &e->moves[e->order[0]], 0, 0, DM_BOUND_LOWER);
    if (full_window && done > 0) {
        int pick = pick_within_margin(e, pos, e->lines[0].score);
        line_of_move(&e->lines[0], &e->moves[pick], e->root_score[pick], done, DM_BOUND_EXACT);
        e->nlines = 1;
    }
    return done;
}

/* ---- Lazy SMP ----------------------------------------------------------------- */

static void *helper_main(void *arg)
{
    struct helper *h = arg;
    dm_search_result r;
    dm_engine_search(h->engine, h->v, h->pos, h->history, h->nhistory, &h->limits, &r);
    return NULL;
}

/* Starts the helpers on the main search's position: no time or node
 * limit (the main search stops them), its depth, no reports.  A helper
 * whose thread cannot start is left out. */
static void start_helpers(struct dm_engine *e, const dm_position *pos, const dm_position *history,
                          int nhistory)
{
    for (int i = 0; i < e->nhelpers; i++) {
        struct helper *h = &e->helpers[i];
        h->v = e->v;
        h->pos = pos;
        h->history = history;
        h->nhistory = nhistory;
        h->limits = (dm_search_limits){
            .depth = e->lim.depth, .rules = e->lim.rules, .contempt = e->lim.contempt};
        h->running = pthread_create(&h->thread, NULL, helper_main, h) == 0;
    }
}

/* Stops the helpers and waits for them; their nodes count in the result.
 * A stop that came after a helper ended on its own is dropped: nothing
 * else signals a helper. */
static void stop_helpers(struct dm_engine *e, dm_search_result *result)
{
    for (int i = 0; i < e->nhelpers; i++)
        if (e->helpers[i].running)
            dm_engine_stop(e->helpers[i].engine);
    for (int i = 0; i < e->nhelpers; i++) {
        struct helper *h = &e->helpers[i];
        if (!h->running)
            continue;
        pthread_join(h->thread, NULL);
        h->running = false;
        dm_engine_forget_signals(h->engine);
        result->nodes += h->engine->nodes;
    }
}

/* Forgets the other threads' signals: they were for the search ending. */
static int search_returns(struct dm_engine *e, int rc)
{
    atomic_store_explicit(&e->stop_request, false, memory_order_relaxed);
    atomic_store_explicit(&e->ponder_hit, false, memory_order_relaxed);
    return rc;
}

/*
 * Whether reverse futility, razoring and ProbCut serve v: they cut a node
 * on a static score, or a shallow search's, being far from the window, and
 * their margins were set by matches in games that end when a side cannot
 * move.  Where that side wins (the giveaway games) or the first king does
 * (Breakthrough), a quiet position's static score says little of the
 * forced captures that decide it: against a2e3ad3's engine at 10000 nodes
 * a move, 200 games each, without them Poddavki went from -115 to -23 (and
 * +17 without ProbCut alone), Anti-checkers from -91 to -17, Breakthrough
 * from -17 to +135.
 */
static bool prunes_on_static(const struct dm_variant *v)
{
    return v->goal == GOAL_NO_MOVE_LOSES;
}

int dm_engine_search(dm_engine *e, const dm_variant *v, const dm_position *pos,
                     const dm_position *history, int nhistory, const dm_search_limits *limits,
                     dm_search_result *result)
{
    static const dm_search_limits no_limits;
    memset(result, 0, sizeof *result);
    e->lim = limits ? *limits : no_limits;
    e->v = v;
    e->has_quiet = v->man_steps != 0 || v->king != KING_NONE;
    e->prune_static = prunes_on_static(v);
    e->men_sideways = (v->man_steps & (DIRBIT(DIR_E) | DIRBIT(DIR_W))) != 0;
    e->nodes = 0;
    e->seldepth = 0;
    e->nlines = 0;
    e->stop = false;
    e->pondering = e->lim.ponder && !atomic_load_explicit(&e->ponder_hit, memory_order_relaxed);
    e->begin_ms = e->start_ms = now_ms(e);
    e->tt.age++;
    memset(e->history, 0, sizeof e->history);
    eval_prepare(&e->eval, v);
    load_counters(e, e->lim.rules);
    e->draw_score[pos->side] = -e->lim.contempt;
    e->draw_score[pos->side ^ 1] = e->lim.contempt;
    engine_egdb_prepare(&e->egdb, v);
    if (!history || nhistory < 0)
        nhistory = 0;
    if (!load_history(e, pos, history, nhistory))
        nhistory = e->ngame = 0; /* out of memory: repetitions in the search only */

    for (int ply = 0; ply <= SEARCH_MAX_PLY; ply++)
        e->stack[ply].killer[0] = e->stack[ply].killer[1] = NO_KILLER;
    struct search_ply *root = &e->stack[0];
    enum dm_outcome decided = rules_goal_reached(v, pos);
    int count = 0;
    if (decided == DM_ONGOING) {
        dm_generate(v, pos, &e->scratch, 0);
        count = e->scratch.count;
    }
    if (count == 0) {
        result->score = decided == DM_SIDE_TO_MOVE_WINS    ? DM_SCORE_WIN
                        : decided == DM_SIDE_TO_MOVE_LOSES ? -DM_SCORE_WIN
                                                           : no_move_score(v, 0);
        return search_returns(e, -1);
    }
    /* At most DM_MAX_MOVES, which the stack always has room for. */
    memcpy(e->moves, e->scratch.moves, (size_t)count * sizeof *e->moves);
    set_slices(e, root, 0, count);

    /* The first ordering: as any node orders, with the table's move. */
    struct tt_entry te;
    bool found = tt_probe(e->table, root->key, &te);
    int te_index = found ? te.move & TT_INDEX : TT_NO_MOVE;
    order_moves(e, pos, 0, te_index < count ? te_index : TT_NO_MOVE, found ? te.from : DM_NO_CELL);
    for (int k = 0; k < count; k++)
        next_move(root, k);
    search_plan_time(&e->lim, count, &e->plan);

    if (e->nhelpers && count > 1)
        start_helpers(e, pos, history, nhistory);
    int done = iterate(e, pos, count);
    wait_for_hit(e);
    fill_result(e, result, done);
    stop_helpers(e, result);
    return search_returns(e, 0);
}
