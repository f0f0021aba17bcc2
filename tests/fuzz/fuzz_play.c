/* SPDX-License-Identifier: MIT */
/*
 * fuzz_play.c - libFuzzer target for the play layer (damier/play.h): a
 * match between two people, driven by acts the input chooses.
 *
 * Input: a variant byte, a byte choosing the time control, the rules and
 * whether a FEN and a newline follow (the position to start from), then
 * one act per byte (its low four bits the act, bit 4 whether the side
 * to move or the other one acts, bit 5 accept or decline), some acts taking
 * the next byte as an argument: legal moves, moves given as text, moves
 * that are not in the legal list, draw offers and answers, takeback
 * requests and answers, resignation, time passing on a clock the input
 * drives, and the match written as PDN and read back.
 *
 * Invariants checked after every act:
 * - an act that fails changes nothing: the whole state before and after
 *   (events, ply, position, offers, result, clocks and the PDN text) is
 *   the same, and the error says why;
 * - an act that succeeds adds an event, and a move played is a legal one;
 * - a takeback restores every earlier position and draw counter exactly;
 * - the PDN of the match reads back to a match with the same moves, result
 *   and state, whose own PDN is the same text.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "damier.h"
#include "fuzz.h"

#define MAX_PLIES  4096
#define MAX_COUNTS 8

/* The clock's time source: it moves only when an act says so, so that a
 * failed act and its repetition see the same time. */
static int64_t fuzz_now_ms;
static int64_t fuzz_now(void *ctx)
{
    (void)ctx;
    return fuzz_now_ms;
}

/* What the draw rules keep at one ply. */
struct counts {
    int n[MAX_COUNTS];
    int repetitions;
};

static void take_counts(const dm_game *g, struct counts *c)
{
    memset(c, 0, sizeof *c);
    const char *name;
    int count, limit;
    for (int i = 0; i < MAX_COUNTS && dm_game_counter(g, i, &name, &count, &limit); i++)
        c->n[i] = count;
    c->repetitions = dm_game_repetitions(g, &limit);
}

/* The state a failed act must leave as it found it. */
struct state {
    uint64_t seq;
    int ply, offer, takeback;
    dm_position pos;
    bool over;
    enum dm_result result;
    char reason[200];
    int64_t left[2];
    struct counts counts;
    char *pdn;
};

static void take_state(const dm_match *m, struct state *s)
{
    dm_error err;
    s->seq = dm_match_seq(m);
    s->ply = dm_match_ply(m);
    s->offer = dm_match_draw_offer(m);
    s->takeback = dm_match_takeback_request(m);
    s->pos = *dm_match_position(m);
    s->over = dm_match_over(m);
    s->result = dm_match_result(m);
    snprintf(s->reason, sizeof s->reason, "%s", dm_match_reason(m));
    s->left[0] = dm_match_time_left(m, DM_WHITE);
    s->left[1] = dm_match_time_left(m, DM_BLACK);
    take_counts(dm_match_game(m), &s->counts);
    s->pdn = dm_match_write_pdn(m, &err);
    FUZZ_CHECK(s->pdn);
}

static bool same_state(const struct state *a, const struct state *b)
{
    return a->seq == b->seq && a->ply == b->ply && a->offer == b->offer &&
           a->takeback == b->takeback && dm_position_equal(&a->pos, &b->pos) &&
           a->over == b->over && a->result == b->result &&
           strcmp(a->reason, b->reason) == 0 && a->left[0] == b->left[0] &&
           a->left[1] == b->left[1] && memcmp(&a->counts, &b->counts, sizeof a->counts) == 0 &&
           strcmp(a->pdn, b->pdn) == 0;
}

/* The events since before are after's, numbered one by one, the last at
 * after's ply; a clock that still runs has time left (at 0 its flag has
 * fallen, and the tick before every act ends the game). */
static void check_events(const dm_match *m, const struct state *before, const struct state *after)
{
    dm_match_event ev[DM_MATCH_EVENTS];
    int n = dm_match_events(m, before->seq, ev, DM_MATCH_EVENTS);
    FUZZ_CHECK((uint64_t)n == after->seq - before->seq);
    for (int i = 0; i < n; i++)
        FUZZ_CHECK(ev[i].seq == before->seq + 1 + (uint64_t)i);
    if (n > 0)
        FUZZ_CHECK(ev[n - 1].ply == after->ply);
    if (dm_match_timed(m) && !after->over)
        FUZZ_CHECK(after->left[dm_match_turn(m)] > 0);
}

static const dm_time_control clocks[] = {
    {DM_CLOCK_NONE, 0, 0, 0},
    {DM_CLOCK_SUDDEN_DEATH, 60000, 0, 0},
    {DM_CLOCK_FISCHER, 30000, 2000, 0},
    {DM_CLOCK_MOVES_IN_TIME, 120000, 0, 40},
    {DM_CLOCK_PER_MOVE, 10000, 0, 0},
};

static dm_match_options options(const dm_variant *v, uint8_t b)
{
    dm_match_options o = {
        .variant = v,
        .rules = (b & 8) ? DM_RULES_OFFICIAL : DM_RULES_DEFAULT,
        .time = clocks[(b & 7) % 5],
        .seat = {{.kind = DM_SEAT_PERSON}, {.kind = DM_SEAT_PERSON}},
        .now = fuzz_now,
        .date = "2026.12.01", /* not today: the same text on either side of midnight */
    };
    return o;
}

/* The PDN of m reads back to the same match, and writes the same text. */
static void check_pdn(const dm_match *m, const dm_match_options *o)
{
    dm_error err;
    char *text = dm_match_write_pdn(m, &err);
    FUZZ_CHECK(text);
    dm_match *back = dm_match_read_pdn(text, strlen(text), o, &err);
    FUZZ_CHECK(back);
    const dm_game *g = dm_match_game(m), *h = dm_match_game(back);
    FUZZ_CHECK(dm_match_variant(back) == dm_match_variant(m));
    FUZZ_CHECK(dm_game_ply(h) == dm_game_ply(g));
    FUZZ_CHECK(dm_position_equal(dm_game_position(h, 0), dm_game_position(g, 0)));
    for (int i = 1; i <= dm_game_ply(g); i++)
        FUZZ_CHECK(dm_move_same(dm_game_move(h, i), dm_game_move(g, i)));
    FUZZ_CHECK(dm_match_over(back) == dm_match_over(m));
    FUZZ_CHECK(dm_match_result(back) == dm_match_result(m));
    char *again = dm_match_write_pdn(back, &err);
    FUZZ_CHECK(again && strcmp(again, text) == 0);
    free(again);
    free(text);
    dm_match_free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > 2048)
        return 0;
    const dm_variant *v = dm_variant_at(data[0] % dm_variant_count());
    dm_match_options o = options(v, data[1]);
    fuzz_now_ms = 1000000;
    dm_error err;
    size_t start = 2;
    char fen[256];
    if (data[1] & 16) { /* a FEN up to a newline: endgames, kings, draw counters */
        const uint8_t *nl = memchr(data + start, '\n', size - start);
        size_t n = nl ? (size_t)(nl - (data + start)) : 0;
        if (nl && n < sizeof fen) {
            memcpy(fen, data + start, n);
            fen[n] = '\0';
            o.fen = fen;
            start += n + 1;
        }
    }
    dm_match *m = dm_match_new(&o, &err);
    if (!m && o.fen) {
        FUZZ_CHECK(err.msg[0]); /* a bad FEN is refused with a reason */
        o.fen = NULL;
        m = dm_match_new(&o, &err);
    }
    if (!m)
        fprintf(stderr, "dm_match_new: %s\n", err.msg);
    FUZZ_CHECK(m); /* every variant's start position makes a match */

    /* Every position and count the game has been through, by ply. */
    static dm_position seen[MAX_PLIES + 1];
    static struct counts seen_counts[MAX_PLIES + 1];
    seen[0] = *dm_match_position(m);
    take_counts(dm_match_game(m), &seen_counts[0]);

    /* The state before each act is the one after the last: the clock
     * moves only at act 11, after which it is taken again. */
    struct state before, after;
    take_state(m, &before);
    for (size_t at = start; at < size;) {
        uint8_t act = data[at++];
        uint8_t arg = at < size ? data[at] : 0;
        enum dm_color turn = dm_match_turn(m);
        enum dm_color seat = (act & 16) ? (enum dm_color)!turn : turn;
        bool yes = (act & 32) != 0;
        if (dm_match_tick(m)) { /* the flag is read here, so the act itself starts level */
            free(before.pdn);
            take_state(m, &before);
        }
        /* A copy: the match's own list changes with the move. */
        static dm_move_list legal_before;
        legal_before = *dm_match_legal(m);
        const dm_move_list *legal = &legal_before;
        dm_move mv;
        int rc = 0;
        bool is_move = false;
        err.msg[0] = '\0';
        switch (act & 15) {
        case 4: { /* a move as text: up to 15 bytes of the input */
            size_t n = arg & 15;
            at++;
            char text[16];
            if (n > size - at)
                n = size - at;
            memcpy(text, data + at, n);
            text[n] = '\0';
            at += n;
            rc = dm_match_play_text(m, seat, text, &err);
            is_move = true;
            break;
        }
        case 5: /* a move that is not as generated: one field changed */
            at++;
            if (legal->count == 0) {
                memset(&mv, 0, sizeof mv);
            } else {
                mv = legal->moves[arg % legal->count];
                uint8_t *bytes = (uint8_t *)&mv;
                bytes[sizeof mv.captured_set + (arg >> 3) % (sizeof mv - sizeof mv.captured_set)] ^=
                    (uint8_t)(1u << (arg & 7));
            }
            rc = dm_match_play(m, seat, &mv, &err);
            is_move = true;
            break;
        case 6:
            rc = dm_match_offer_draw(m, seat, &err);
            break;
        case 7:
            rc = dm_match_answer_draw(m, seat, yes, &err);
            break;
        case 8:
            rc = dm_match_request_takeback(m, seat, &err);
            break;
        case 9:
            rc = dm_match_answer_takeback(m, seat, yes, &err);
            break;
        case 10:
            if (!yes)
                continue; /* resignation, on half of its bytes: games go on longer */
            rc = dm_match_resign(m, seat, &err);
            break;
        case 11: /* time passes, up to 25.5 s */
            at++;
            fuzz_now_ms += 100 * (int64_t)arg;
            dm_match_tick(m);
            free(before.pdn);
            take_state(m, &before);
            continue;
        case 12:
            check_pdn(m, &o);
            continue;
        default: /* a legal move, most often */
            at++;
            if (legal->count == 0) {
                memset(&mv, 0, sizeof mv);
            } else {
                mv = legal->moves[arg % legal->count];
            }
            rc = dm_match_play(m, seat, &mv, &err);
            is_move = true;
            break;
        }
        take_state(m, &after);
        check_events(m, &before, &after);
        if (rc < 0) {
            FUZZ_CHECK(err.msg[0]);
            FUZZ_CHECK(same_state(&before, &after));
        } else {
            FUZZ_CHECK(after.seq > before.seq);
            if (is_move) {
                FUZZ_CHECK(after.ply == before.ply + 1 && after.ply <= MAX_PLIES);
                bool found = false;
                for (int i = 0; i < legal->count; i++)
                    found |= dm_move_same(dm_game_move(dm_match_game(m), after.ply),
                                          &legal->moves[i]);
                FUZZ_CHECK(found);
                seen[after.ply] = after.pos;
                seen_counts[after.ply] = after.counts;
            } else if (after.ply < before.ply) {
                /* A takeback: back to exactly what was. */
                const dm_game *g = dm_match_game(m);
                for (int i = 0; i <= after.ply; i++)
                    FUZZ_CHECK(dm_position_equal(dm_game_position(g, i), &seen[i]));
                FUZZ_CHECK(memcmp(&after.counts, &seen_counts[after.ply], sizeof after.counts) == 0);
                FUZZ_CHECK(!after.over && after.offer == -1 && after.takeback == -1);
            } else {
                FUZZ_CHECK(after.ply == before.ply);
            }
        }
        free(before.pdn);
        before = after;
    }
    free(before.pdn);
    check_pdn(m, &o);
    dm_match_free(m);
    return 0;
}
