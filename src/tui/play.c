/* SPDX-License-Identifier: MIT */
/*
 * play.c - a game in the terminal: the session loop, the commands, and the
 * two front ends, all on a match of the play layer (src/play).
 *
 * Every act (a move, the computer's move, a draw offer, a takeback, a
 * resignation, the flag) is a call of the match, which keeps the rules,
 * the clock and the offers; this file turns typed lines into those calls
 * and the match's events into messages.  The persons at the keyboard are
 * the person seats: with one, it acts for that side; with two, the side to
 * move acts and the other answers at once (they share the keyboard).  The
 * full-screen front end redraws the whole frame (board, players and
 * clocks, move list, messages, the line being typed) after each key and a
 * few times a second while a clock runs, so the clocks tick and a flag
 * falls on time.  The plain front end prints the board after each move and
 * reads one line at a time, flushing each line it writes, so that a script
 * or a GUI can drive it through a pipe.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/text.h"
#include "tui/tui.h"

#define LINE_MAX_CHARS 200 /* longer input lines are refused whole */
#define MSG_LINES      7   /* full screen: rows 16-22 */
#define MSG_COLS       78
#define PANEL_COL      50 /* full screen: the column the panel starts at */
#define PANEL_COLS     30
#define TICK_MS        200 /* full screen: redraw while a clock runs */

struct session {
    const struct tui_options *opt;
    dm_match *match;
    uint64_t seen; /* the last event of the match turned into messages */
    bool flipped;
    bool fullscreen;
    bool announced; /* the result has been shown */
    bool quit;
    long line_number; /* plain: of the input, for its error messages */
    char msg[MSG_LINES][MSG_COLS + 1];
    int nmsg;
    char input[LINE_MAX_CHARS + 1];
    int input_len;
    const char *status; /* the row above the prompt */
};

static const char *const color_name[2] = {"White", "Black"};

static const dm_variant *variant_of(const struct session *s)
{
    return dm_match_variant(s->match);
}

static const dm_position *position_of(const struct session *s)
{
    return dm_match_position(s->match);
}

static int side_to_move(const struct session *s)
{
    return (int)dm_match_turn(s->match);
}

static bool is_computer(const struct session *s, int color)
{
    return dm_match_seat(s->match, (enum dm_color)color)->kind == DM_SEAT_COMPUTER;
}

/* ---- messages ------------------------------------------------------------ */

/* Shows a message, escaped (text_safe): printed at once in plain mode,
 * kept for the message area (word-wrapped) on the full screen. */
static void say(struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct session *s, const char *fmt, ...)
{
    char raw[1024], text[TEXT_ESCAPED_SIZE(1024)];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    /* Messages quote what the person typed or a file held: escaped, no
     * control byte of it reaches the terminal. */
    text_safe(raw, strlen(raw), text, sizeof text);
    if (!s->fullscreen) {
        printf("%s\n", text);
        return;
    }
    const char *p = text;
    while (*p) {
        size_t n = strlen(p);
        if (n > MSG_COLS) {
            n = MSG_COLS;
            while (n > 0 && p[n] != ' ')
                n--;
            if (n == 0)
                n = MSG_COLS;
        }
        if (s->nmsg == MSG_LINES) {
            memmove(s->msg[0], s->msg[1], sizeof s->msg[0] * (MSG_LINES - 1));
            s->nmsg--;
        }
        snprintf(s->msg[s->nmsg++], sizeof s->msg[0], "%.*s", (int)n, p);
        p += n;
        while (*p == ' ')
            p++;
    }
}

static void clear_messages(struct session *s)
{
    s->nmsg = 0;
}

/* ---- the full screen -------------------------------------------------------- */

/* Appends to the frame being built. */
struct frame {
    char *buf;
    size_t len, cap;
};

static void frame_put(struct frame *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void frame_put(struct frame *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(f->buf + f->len, f->cap - f->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        f->len = f->len + (size_t)n < f->cap ? f->len + (size_t)n : f->cap - 1;
}

/* The panel beside the board, one line per row (ASCII, at most
 * PANEL_COLS wide). */
static int panel_lines(const struct session *s, char lines[][PANEL_COLS + 1])
{
    const dm_match *m = s->match;
    const dm_game *g = dm_match_game(m);
    int n = 0, side = side_to_move(s);
    char who[40], left[16];
    snprintf(lines[n++], PANEL_COLS + 1, "%s", dm_variant_name(variant_of(s)));
    snprintf(lines[n++], PANEL_COLS + 1, "%s rules", dm_rules_name(dm_game_rules(g)));
    lines[n++][0] = '\0';
    for (int c = 0; c < 2; c++) {
        const dm_seat *seat = dm_match_seat(m, (enum dm_color)c);
        if (seat->kind == DM_SEAT_COMPUTER)
            snprintf(who, sizeof who, "computer %d", seat->level);
        else
            snprintf(who, sizeof who, "%s", seat->kind == DM_SEAT_REMOTE ? "remote" : "human");
        left[0] = '\0';
        if (dm_match_timed(m))
            dm_clock_format(dm_match_time_left(m, (enum dm_color)c), left, sizeof left);
        snprintf(lines[n++], PANEL_COLS + 1, "%c %-5s %-13.13s %8s",
                 !dm_match_over(m) && c == side ? '>' : ' ', color_name[c], who, left);
    }
    lines[n++][0] = '\0';
    if (dm_match_over(m)) {
        snprintf(lines[n++], PANEL_COLS + 1, "Game over, %s", dm_match_result_text(m));
        snprintf(lines[n++], PANEL_COLS + 1, "%s", dm_match_reason(m));
    } else {
        snprintf(lines[n++], PANEL_COLS + 1, "%s to move%s", color_name[side],
                 dm_match_draw_offer(m) >= 0         ? ", draw offered"
                 : dm_match_takeback_request(m) >= 0 ? ", takeback asked"
                                                     : "");
        /* The draw rule nearest its end, once it has started counting. */
        const char *name, *near = NULL;
        int count, limit, best = 0, best_limit = 0;
        for (int i = 0; dm_game_counter(g, i, &name, &count, &limit); i++)
            if (limit > 0 && count > 0 && count * best_limit >= best * limit) {
                near = name;
                best = count;
                best_limit = limit;
            }
        int reps, rep_limit;
        reps = dm_game_repetitions(g, &rep_limit);
        if (rep_limit && reps > 1)
            snprintf(lines[n++], PANEL_COLS + 1, "position seen %d of %d times", reps, rep_limit);
        else if (near)
            snprintf(lines[n++], PANEL_COLS + 1, "draw count %d/%d", best, best_limit);
        else
            lines[n++][0] = '\0';
    }
    lines[n++][0] = '\0';
    /* The last moves, numbered as PDN numbers them: from the side the
     * variant starts with, "12..." for a line opened by its second side. */
    dm_position start;
    dm_position_start(variant_of(s), &start);
    int ply = dm_game_ply(g);
    int offset = dm_game_position(g, 0)->side == start.side ? 0 : 1;
    int room = TUI_BOARD_ROWS - n, from = ply - 2 * room + 1, ne = 0;
    char entries[2 * TUI_BOARD_ROWS][PANEL_COLS + 1];
    for (int i = from < 1 ? 1 : from; i <= ply; i++) {
        char text[64];
        dm_game_move_text(g, i, text, sizeof text);
        int index = i - 1 + offset, number = index / 2 + 1;
        if (index % 2 == 1 && ne > 0) {
            size_t len = strlen(entries[ne - 1]);
            snprintf(entries[ne - 1] + len, PANEL_COLS + 1 - len, " %s", text);
        } else {
            snprintf(entries[ne++], PANEL_COLS + 1, "%3d.%s %s", number, index % 2 ? ".." : "",
                     text);
        }
    }
    for (int i = ne > room ? ne - room : 0; i < ne; i++)
        snprintf(lines[n++], PANEL_COLS + 1, "%s", entries[i]);
    return n;
}

static void redraw(struct session *s)
{
    static char rows[TUI_BOARD_ROWS][TUI_ROW_BYTES];
    static char panel[TUI_BOARD_ROWS][PANEL_COLS + 1];
    static char buf[64 * 1024];
    struct frame f = {buf, 0, sizeof buf};
    buf[0] = '\0';
    const dm_game *g = dm_match_game(s->match);
    int ply = dm_game_ply(g);
    int nrows =
        tui_board_screen(variant_of(s), position_of(s), dm_game_move(g, ply), s->flipped,
                         tui_term_colour(), rows);
    int npanel = panel_lines(s, panel);
    frame_put(&f, "\x1b[?25l");
    for (int r = 0; r < TUI_BOARD_ROWS; r++) {
        frame_put(&f, "\x1b[%d;1H\x1b[0m\x1b[K%s", r + 1, r < nrows ? rows[r] : "");
        if (r < npanel)
            frame_put(&f, "\x1b[0m\x1b[%d;%dH%s", r + 1, PANEL_COL, panel[r]);
    }
    frame_put(&f, "\x1b[15;1H\x1b[0m\x1b[K");
    for (int i = 0; i < MSG_LINES; i++)
        frame_put(&f, "\x1b[%d;1H\x1b[K%s", 16 + i, i < s->nmsg ? s->msg[i] : "");
    frame_put(&f, "\x1b[23;1H\x1b[K\x1b[2m%s\x1b[0m", s->status ? s->status : "");
    frame_put(&f, "\x1b[24;1H\x1b[K> %s\x1b[?25h", s->input);
    fwrite(buf, 1, f.len, stdout);
    fflush(stdout);
}

/* ---- the plain front end ----------------------------------------------------- */

static void print_position(struct session *s)
{
    char board[4096];
    tui_board_text(variant_of(s), position_of(s), s->flipped, board, sizeof board);
    fputs(board, stdout);
    if (dm_match_over(s->match))
        return;
    if (dm_match_timed(s->match)) {
        char w[16], b[16];
        dm_clock_format(dm_match_time_left(s->match, DM_WHITE), w, sizeof w);
        dm_clock_format(dm_match_time_left(s->match, DM_BLACK), b, sizeof b);
        printf("%s to move (White %s, Black %s)\n", color_name[side_to_move(s)], w, b);
    } else {
        printf("%s to move\n", color_name[side_to_move(s)]);
    }
}

/* ---- the match's events as messages -------------------------------------------- */

static void announce_result(struct session *s)
{
    static const char *const outcome[] = {"", "White wins", "Black wins", "Draw"};
    say(s, "Game over: %s (%s), %s", outcome[dm_match_result(s->match)], dm_match_reason(s->match),
        dm_match_result_text(s->match));
    s->announced = true;
}

/* Shows what happened in the match since the last call. */
static void report(struct session *s)
{
    dm_match_event ev[DM_MATCH_EVENTS];
    int n = dm_match_events(s->match, s->seen, ev, DM_MATCH_EVENTS);
    for (int i = 0; i < n; i++) {
        const dm_match_event *e = &ev[i];
        int c = (int)e->color;
        s->seen = e->seq;
        switch (e->kind) {
        case DM_EVENT_MOVE: {
            char text[160];
            dm_match_move_text(s->match, e->ply, text, sizeof text);
            if (!s->fullscreen || is_computer(s, c))
                say(s, "%s plays %s", color_name[c], text);
            if (!s->fullscreen)
                print_position(s);
            break;
        }
        case DM_EVENT_DRAW_OFFERED:
            if (!is_computer(s, c ^ 1))
                say(s, "%s offers a draw: %s may type draw to accept, or play on.", color_name[c],
                    color_name[c ^ 1]);
            break;
        case DM_EVENT_DRAW_DECLINED:
            if (is_computer(s, c))
                say(s, "The computer declines the draw.");
            else
                say(s, "%s declines the draw.", color_name[c]);
            break;
        case DM_EVENT_TAKEBACK_DONE:
            s->announced = false;
            say(s, "Took back %d move%s.", e->plies, e->plies == 1 ? "" : "s");
            if (!s->fullscreen)
                print_position(s);
            break;
        case DM_EVENT_TAKEBACK_DECLINED:
            say(s, "%s declines the takeback.", is_computer(s, c) ? "The computer" : color_name[c]);
            break;
        case DM_EVENT_OVER:
            if (dm_game_end(dm_match_game(s->match)) == DM_END_AGREEMENT) {
                if (is_computer(s, c))
                    say(s, "The computer accepts the draw.");
                else
                    say(s, "%s accepts the draw.", color_name[c]);
            }
            break;
        case DM_EVENT_DRAW_LAPSED:
        case DM_EVENT_TAKEBACK_ASKED:
        case DM_EVENT_TAKEBACK_LAPSED:
            break;
        }
    }
}

/* ---- the commands ------------------------------------------------------------ */

static void computer_turn(struct session *s)
{
    if (s->fullscreen) {
        s->status = "thinking...";
        redraw(s);
    }
    dm_move mv;
    dm_error err;
    int rc = dm_match_computer_move(s->match, &mv, &err);
    s->status = NULL;
    if (rc == 0)
        rc = dm_match_play(s->match, dm_match_turn(s->match), &mv, &err);
    if (rc != 0 && !dm_match_over(s->match)) {
        say(s, "The computer cannot move: %s", err.msg);
        s->quit = true;
    }
}

/* "32 28" -> "32-28": squares typed apart are one move. */
static void join_squares(char *line)
{
    char *w = line;
    bool gap = false;
    for (char *r = line; *r; r++) {
        if (*r == ' ' || *r == '\t') {
            gap = w > line;
            continue;
        }
        if (gap && w[-1] != '-' && w[-1] != 'x' && w[-1] != ':' && *r != '-' && *r != 'x' &&
            *r != ':')
            *w++ = '-';
        gap = false;
        *w++ = *r;
    }
    *w = '\0';
}

/* The person at the keyboard who acts with undo, resign or draw: the only
 * one, or the side to move when two people (or none) play. */
static enum dm_color acting_person(const struct session *s)
{
    if (is_computer(s, DM_WHITE) != is_computer(s, DM_BLACK))
        return is_computer(s, DM_WHITE) ? DM_BLACK : DM_WHITE;
    return (enum dm_color)side_to_move(s);
}

/* The opponent of a seat that asked or offered answers: the computer by its
 * rule, a person at the same keyboard at once (for accept). */
static bool answer_for_opponent(struct session *s, enum dm_color asker, bool takeback,
                                dm_error *err)
{
    enum dm_color other = (enum dm_color)(asker ^ 1);
    if (is_computer(s, other))
        return dm_match_computer_answer(s->match, err) >= 0;
    if (takeback)
        return dm_match_answer_takeback(s->match, other, true, err) == 0;
    return true; /* a draw offer waits for the other person's own "draw" */
}

static void human_move(struct session *s, char *line)
{
    dm_error err;
    join_squares(line);
    if (dm_match_play_text(s->match, dm_match_turn(s->match), line, &err) == 0)
        return;
    if (dm_match_over(s->match))
        say(s, "The game is over: %s. Type undo, save, load or quit.", dm_match_reason(s->match));
    else
        say(s, "%s", err.msg);
}

static void cmd_undo(struct session *s)
{
    /* With two people at the keyboard, the last mover takes back its own
     * move; against the computer, the person takes back to its turn. */
    enum dm_color who = acting_person(s);
    if (is_computer(s, DM_WHITE) == is_computer(s, DM_BLACK))
        who = (enum dm_color)(side_to_move(s) ^ 1);
    dm_error err;
    if (dm_match_request_takeback(s->match, who, &err) != 0 ||
        !answer_for_opponent(s, who, true, &err))
        say(s, "%s", err.msg);
}

static void cmd_draw(struct session *s)
{
    enum dm_color me = acting_person(s);
    dm_error err;
    int rc = dm_match_offer_draw(s->match, me, &err);
    if (rc < 0 || (rc == 0 && !answer_for_opponent(s, me, false, &err)))
        say(s, "%s", err.msg);
}

static void cmd_resign(struct session *s)
{
    dm_error err;
    if (dm_match_resign(s->match, acting_person(s), &err) != 0)
        say(s, "%s", err.msg);
}

static void cmd_hint(struct session *s)
{
    dm_move mv;
    dm_error err;
    if (dm_match_hint(s->match, &mv, &err) != 0) {
        say(s, "%s", err.msg);
        return;
    }
    char text[160];
    dm_move_format(variant_of(s), &mv, dm_match_legal(s->match), text, sizeof text);
    say(s, "Hint: %s", text);
}

static void cmd_save(struct session *s, const char *path)
{
    dm_error err;
    if (tui_save_pdn(s->match, path, &err) == 0)
        say(s, "Saved the game to %s.", path);
    else
        say(s, "Not saved: %s", err.msg);
}

static void cmd_load(struct session *s, const char *path)
{
    dm_error err;
    dm_match_options o = s->opt->match;
    o.variant = variant_of(s);
    o.rules = dm_game_rules(dm_match_game(s->match));
    dm_match *m = tui_load_pdn(path, &o, &err);
    if (!m) {
        say(s, "Not loaded: %s", err.msg);
        return;
    }
    dm_match_free(s->match);
    s->match = m;
    s->seen = dm_match_seq(m);
    s->announced = false;
    say(s, "Loaded %s: %s, %d moves.", path, dm_variant_name(variant_of(s)), dm_match_ply(m));
    if (!s->fullscreen)
        print_position(s);
}

static void cmd_moves(struct session *s)
{
    const dm_move_list *legal = dm_match_legal(s->match);
    char text[4096];
    size_t len = 0;
    text[0] = '\0';
    for (int i = 0; i < legal->count && len + 80 < sizeof text; i++) {
        char m[160];
        dm_match_legal_text(s->match, i, m, sizeof m);
        len += (size_t)snprintf(text + len, sizeof text - len, " %s", m);
    }
    if (legal->count == 0 || dm_match_over(s->match))
        say(s, "No moves: the game is over.");
    else
        say(s, "%d legal move%s:%s", legal->count, legal->count == 1 ? "" : "s", text);
}

static void cmd_help(struct session *s)
{
    say(s, "Type a move as the variant writes it (32-28, 28x19, c3-d4, c3:e5) or its squares "
           "(32 28).");
    say(s, "Commands: moves, undo, hint, flip, save FILE.pdn, load FILE.pdn, resign, draw, "
           "rules, help, quit.");
}

static void cmd_rules(struct session *s)
{
    char text[1024];
    dm_draw_rules_describe(variant_of(s), dm_game_rules(dm_match_game(s->match)), text,
                           sizeof text);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
        say(s, "%s", line);
}

/* Runs one line typed by the person. */
static void handle(struct session *s, char *line)
{
    while (isspace((unsigned char)*line))
        line++;
    size_t n = strlen(line);
    while (n > 0 && isspace((unsigned char)line[n - 1]))
        line[--n] = '\0';
    if (n == 0)
        return;
    char word[16] = "";
    const char *arg = line;
    while (*arg && !isspace((unsigned char)*arg))
        arg++;
    if ((size_t)(arg - line) < sizeof word)
        for (size_t i = 0; i < (size_t)(arg - line); i++)
            word[i] = (char)tolower((unsigned char)line[i]);
    while (isspace((unsigned char)*arg))
        arg++;

    if (strcmp(word, "quit") == 0 || strcmp(word, "exit") == 0)
        s->quit = true;
    else if (strcmp(word, "help") == 0 || strcmp(word, "?") == 0)
        cmd_help(s);
    else if (strcmp(word, "moves") == 0)
        cmd_moves(s);
    else if (strcmp(word, "undo") == 0)
        cmd_undo(s);
    else if (strcmp(word, "flip") == 0) {
        s->flipped = !s->flipped;
        if (!s->fullscreen)
            print_position(s);
    } else if (strcmp(word, "rules") == 0)
        cmd_rules(s);
    else if ((strcmp(word, "save") == 0 || strcmp(word, "load") == 0) && !*arg)
        say(s, "Give a file name: %s FILE.pdn", word);
    else if (strcmp(word, "save") == 0)
        cmd_save(s, arg);
    else if (strcmp(word, "load") == 0)
        cmd_load(s, arg);
    else if (strcmp(word, "hint") == 0)
        cmd_hint(s);
    else if (strcmp(word, "resign") == 0)
        cmd_resign(s);
    else if (strcmp(word, "draw") == 0)
        cmd_draw(s);
    else if (!strpbrk(line, "0123456789"))
        say(s, "'%.40s' is neither a command nor a move: type help.", line);
    else
        human_move(s, line);
}

/* ---- reading commands ------------------------------------------------------------ */

/* Plain: one line from stdin (text_read_line).  Returns 1 with line filled,
 * 0 for a line refused (too long, a NUL byte), -1 at the end of input. */
static int read_plain(struct session *s, char *line, size_t size)
{
    if (isatty(STDIN_FILENO)) {
        fputs("> ", stdout);
        fflush(stdout);
    }
    enum text_line got = text_read_line(stdin, line, size, NULL);
    s->line_number++;
    switch (got) {
    case TEXT_LINE_OK:
        return 1;
    case TEXT_LINE_EOF:
        return -1;
    case TEXT_LINE_TOO_LONG:
        say(s, "Line %ld too long: at most %d characters.", s->line_number, (int)size - 1);
        return 0;
    case TEXT_LINE_NUL:
        say(s, "Line %ld holds a NUL byte: ignored.", s->line_number);
        return 0;
    }
    return 0;
}

/* Full screen: edits a line key by key, redrawing as it goes.  Returns 1
 * with line filled, 0 when a flag fell while waiting, -1 on end of input or
 * Ctrl-C / Ctrl-D. */
static int read_screen(struct session *s, char *line, size_t size)
{
    s->input_len = 0;
    s->input[0] = '\0';
    redraw(s);
    for (;;) {
        bool running = dm_match_timed(s->match) && !dm_match_over(s->match);
        int k = tui_term_key(running ? TICK_MS : 1000);
        if (k == TUI_KEY_EOF)
            return -1;
        if (k == TUI_KEY_NONE) {
            if (running && dm_match_tick(s->match))
                return 0;
            if (running)
                redraw(s);
            continue;
        }
        if (k == '\r' || k == '\n') {
            snprintf(line, size, "%s", s->input);
            s->input_len = 0;
            s->input[0] = '\0';
            return 1;
        }
        if (k == 3 || (k == 4 && s->input_len == 0))
            return -1;
        if ((k == 127 || k == 8) && s->input_len > 0)
            s->input[--s->input_len] = '\0';
        else if (k == 21) {
            s->input_len = 0;
            s->input[0] = '\0';
        } else if (k == 27) {
            /* An escape sequence (arrow keys...): skip it whole. */
            int c = tui_term_key(20);
            if (c == '[' || c == 'O')
                while ((c = tui_term_key(20)) >= 0 && !isalpha(c) && c != '~')
                    ;
        } else if (k >= 32 && k < 127 && s->input_len < LINE_MAX_CHARS)
            s->input[s->input_len++] = (char)k, s->input[s->input_len] = '\0';
        redraw(s);
    }
}

/* ---- the session ------------------------------------------------------------------- */

int tui_play(const struct tui_options *o)
{
    struct session s;
    memset(&s, 0, sizeof s);
    s.opt = o;
    dm_error err;
    s.match = dm_match_new(&o->match, &err);
    if (!s.match) {
        char shown[TEXT_ESCAPED_SIZE(sizeof err.msg)];
        fprintf(stderr, "damier: %s\n", text_safe(err.msg, strlen(err.msg), shown, sizeof shown));
        return 1;
    }
    s.fullscreen = !o->plain && tui_term_full_screen() && tui_term_enter();
    if (!s.fullscreen)
        setvbuf(stdout, NULL, _IOLBF, 0); /* each line reaches a pipe at once */
    if (s.fullscreen) {
        int cols, rows;
        tui_term_size(&cols, &rows);
        if (cols < 80 || rows < 24)
            say(&s, "The terminal is %dx%d; the board needs 80x24 (or use --plain).", cols, rows);
    }

    say(&s, "Damier: %s, %s rules. White: %s, Black: %s. Type help for the commands.",
        dm_variant_name(variant_of(&s)), dm_rules_name(dm_game_rules(dm_match_game(s.match))),
        dm_match_seat(s.match, DM_WHITE)->name, dm_match_seat(s.match, DM_BLACK)->name);
    if (!s.fullscreen)
        print_position(&s);

    char line[LINE_MAX_CHARS + 1];
    for (;;) {
        dm_match_tick(s.match);
        report(&s);
        if (dm_match_over(s.match) && !s.announced)
            announce_result(&s);
        if (s.quit)
            break;
        bool over = dm_match_over(s.match);
        if (!over && is_computer(&s, side_to_move(&s))) {
            computer_turn(&s);
            continue;
        }
        if (over && is_computer(&s, DM_WHITE) && is_computer(&s, DM_BLACK) && !s.fullscreen)
            break;
        int got =
            s.fullscreen ? read_screen(&s, line, sizeof line) : read_plain(&s, line, sizeof line);
        if (got < 0)
            break;
        if (got == 0)
            continue;
        if (s.fullscreen)
            clear_messages(&s);
        handle(&s, line);
    }
    if (s.fullscreen)
        tui_term_leave();
    fflush(stdout);
    dm_match_free(s.match);
    return 0;
}
