/* SPDX-License-Identifier: MIT */
/*
 * play.c - a game in the terminal: the session loop, the commands, and the
 * two front ends.
 *
 * The loop is the same for both: whose turn it is decides between asking
 * the computer and reading a command; every change goes through the game
 * record (src/game), so the rules, draw counters and takebacks are those
 * of every other way to play.  The full-screen front end redraws the whole
 * frame (board, players and clocks, move list, messages, the line being
 * typed) after each key and a few times a second while a clock runs, so the
 * clocks tick and a flag falls on time.  The plain front end prints the
 * board after each move and reads one line at a time, ending cleanly at the
 * end of its input, which is what a script needs.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/tui.h"

#define LINE_MAX_CHARS 200 /* longer input lines are refused whole */
#define MSG_LINES      7   /* full screen: rows 16-22 */
#define MSG_COLS       78
#define PANEL_COL      50 /* full screen: the column the panel starts at */
#define PANEL_COLS     30
#define TICK_MS        200 /* full screen: redraw while a clock runs */

struct session {
    const struct tui_options *opt;
    dm_game *game;
    bool computer[2];
    dm_clock clock;
    bool timed;
    bool flipped;
    bool fullscreen;
    bool announced; /* the result has been shown */
    bool quit;
    uint64_t rng;
    char msg[MSG_LINES][MSG_COLS + 1];
    int nmsg;
    char input[LINE_MAX_CHARS + 1];
    int input_len;
    const char *status; /* the row above the prompt */
};

static const char *const color_name[2] = {"White", "Black"};

static const dm_variant *variant_of(const struct session *s)
{
    return dm_game_variant(s->game);
}

static const dm_position *position_of(const struct session *s)
{
    return dm_game_position(s->game, dm_game_ply(s->game));
}

static int side_to_move(const struct session *s)
{
    return position_of(s)->side;
}

static void player_name(const struct session *s, int color, char *buf, size_t size)
{
    if (s->computer[color])
        snprintf(buf, size, "computer (level %d)", s->opt->level);
    else
        snprintf(buf, size, "human");
}

/* ---- messages ------------------------------------------------------------ */

/* Shows a message: printed at once in plain mode, kept for the message area
 * (word-wrapped) on the full screen. */
static void say(struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct session *s, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
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
    const dm_game *g = s->game;
    int n = 0, side = side_to_move(s);
    char who[40], left[16];
    snprintf(lines[n++], PANEL_COLS + 1, "%s", dm_variant_name(variant_of(s)));
    snprintf(lines[n++], PANEL_COLS + 1, "%s rules", dm_rules_name(dm_game_rules(g)));
    lines[n++][0] = '\0';
    for (int c = 0; c < 2; c++) {
        if (s->computer[c])
            snprintf(who, sizeof who, "computer %d", s->opt->level);
        else
            snprintf(who, sizeof who, "human");
        left[0] = '\0';
        if (s->timed)
            dm_clock_format(dm_clock_left(&s->clock, (enum dm_color)c), left, sizeof left);
        snprintf(lines[n++], PANEL_COLS + 1, "%c %-5s %-13.13s %8s",
                 !dm_game_over(g) && c == side ? '>' : ' ', color_name[c], who, left);
    }
    lines[n++][0] = '\0';
    if (dm_game_over(g)) {
        snprintf(lines[n++], PANEL_COLS + 1, "Game over");
        snprintf(lines[n++], PANEL_COLS + 1, "%s", dm_game_reason(g));
    } else {
        snprintf(lines[n++], PANEL_COLS + 1, "%s to move%s", color_name[side],
                 dm_game_draw_offer(g) >= 0 ? ", draw offered" : "");
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
    const dm_game *g = s->game;
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
    if (dm_game_over(s->game))
        return;
    if (s->timed) {
        char w[16], b[16];
        dm_clock_format(dm_clock_left(&s->clock, DM_WHITE), w, sizeof w);
        dm_clock_format(dm_clock_left(&s->clock, DM_BLACK), b, sizeof b);
        printf("%s to move (White %s, Black %s)\n", color_name[side_to_move(s)], w, b);
    } else {
        printf("%s to move\n", color_name[side_to_move(s)]);
    }
}

/* ---- the game flow ----------------------------------------------------------- */

static void announce_result(struct session *s)
{
    const dm_game *g = s->game;
    static const char *const outcome[] = {"", "White wins", "Black wins", "Draw"};
    enum dm_pdn_result r = dm_game_result(g) == DM_RESULT_WHITE_WINS   ? DM_PDN_WHITE_WINS
                           : dm_game_result(g) == DM_RESULT_BLACK_WINS ? DM_PDN_BLACK_WINS
                                                                       : DM_PDN_DRAW;
    say(s, "Game over: %s (%s), %s", outcome[dm_game_result(g)], dm_game_reason(g),
        dm_pdn_result_text(variant_of(s), r));
    s->announced = true;
    dm_clock_stop(&s->clock);
}

/* Ends the game on time if the flag of the side to move has fallen. */
static void check_time(struct session *s)
{
    if (!s->timed || dm_game_over(s->game))
        return;
    int flagged = dm_clock_flag(&s->clock);
    if (flagged >= 0)
        dm_game_time_forfeit(s->game, (enum dm_color)flagged);
}

/* After a move: the clock, and the move shown. */
static void moved(struct session *s)
{
    int ply = dm_game_ply(s->game);
    char text[160];
    dm_game_move_text(s->game, ply, text, sizeof text);
    int mover = dm_game_position(s->game, ply - 1)->side;
    if (s->timed && !dm_clock_press(&s->clock))
        dm_game_time_forfeit(s->game, (enum dm_color)mover);
    if (dm_game_over(s->game))
        dm_clock_stop(&s->clock);
    if (s->fullscreen) {
        if (s->computer[mover])
            say(s, "%s plays %s", color_name[mover], text);
        return;
    }
    printf("%s plays %s\n", color_name[mover], text);
    print_position(s);
}

static void computer_turn(struct session *s)
{
    const dm_move_list *legal = dm_game_legal(s->game);
    if (s->fullscreen) {
        s->status = "thinking...";
        redraw(s);
    }
    int i = tui_computer_move(s->game, s->timed ? &s->clock : NULL, s->opt->level, &s->rng);
    dm_move m = legal->moves[i];
    s->status = NULL;
    check_time(s);
    if (dm_game_over(s->game))
        return;
    dm_error err;
    if (dm_game_play(s->game, &m, &err) == 0)
        moved(s);
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

static void human_move(struct session *s, char *line)
{
    dm_error err;
    check_time(s);
    if (dm_game_over(s->game)) {
        say(s, "The game is over: %s. Type undo, save, load or quit.", dm_game_reason(s->game));
        return;
    }
    join_squares(line);
    if (dm_game_play_text(s->game, line, &err) != 0) {
        say(s, "%s", err.msg);
        return;
    }
    moved(s);
}

/* The human who acts with resign or draw: the only one, or the side to move
 * when two people play. */
static int acting_human(const struct session *s)
{
    if (s->computer[DM_WHITE] != s->computer[DM_BLACK])
        return s->computer[DM_WHITE] ? DM_BLACK : DM_WHITE;
    return side_to_move(s);
}

static void restart_clock(struct session *s)
{
    if (s->timed && !dm_game_over(s->game))
        dm_clock_start(&s->clock, (enum dm_color)side_to_move(s));
}

static void cmd_undo(struct session *s)
{
    if (dm_game_ply(s->game) == 0) {
        say(s, "There is no move to take back.");
        return;
    }
    /* Against the computer, back to the person's own turn. */
    int n = dm_game_undo(s->game, 1);
    while (dm_game_ply(s->game) > 0 && s->computer[side_to_move(s)] &&
           !(s->computer[DM_WHITE] && s->computer[DM_BLACK]))
        n += dm_game_undo(s->game, 1);
    s->announced = false;
    restart_clock(s);
    say(s, "Took back %d move%s.", n, n == 1 ? "" : "s");
    if (!s->fullscreen)
        print_position(s);
}

static void cmd_draw(struct session *s)
{
    dm_game *g = s->game;
    int me = acting_human(s), them = me ^ 1;
    if (s->computer[them]) {
        if (tui_computer_accepts_draw(s->game, them)) {
            dm_game_offer_draw(g, (enum dm_color)me);
            dm_game_accept_draw(g, (enum dm_color)them);
            say(s, "The computer accepts the draw.");
        } else {
            say(s, "The computer declines the draw.");
        }
        return;
    }
    if (dm_game_offer_draw(g, (enum dm_color)me))
        say(s, "%s accepts the draw.", color_name[me]);
    else
        say(s, "%s offers a draw: %s may type draw to accept, or play on.", color_name[me],
            color_name[them]);
}

static void cmd_save(struct session *s, const char *path)
{
    dm_error err;
    char white[40], black[40];
    player_name(s, DM_WHITE, white, sizeof white);
    player_name(s, DM_BLACK, black, sizeof black);
    if (tui_save_pdn(s->game, path, white, black, &err) == 0)
        say(s, "Saved the game to %s.", path);
    else
        say(s, "Not saved: %s", err.msg);
}

static void cmd_load(struct session *s, const char *path)
{
    dm_error err;
    enum dm_pdn_result result = DM_PDN_UNFINISHED;
    dm_game *g = tui_load_pdn(path, variant_of(s), dm_game_rules(s->game), &result, &err);
    if (!g) {
        say(s, "Not loaded: %s", err.msg);
        return;
    }
    dm_game_free(s->game);
    s->game = g;
    s->announced = false;
    dm_clock_init(&s->clock, &s->opt->time, NULL, NULL);
    restart_clock(s);
    say(s, "Loaded %s: %s, %d moves.", path, dm_variant_name(dm_game_variant(g)), dm_game_ply(g));
    if (result != DM_PDN_UNFINISHED && !dm_game_over(g))
        say(s, "The file gives the result %s; play goes on from its last position.",
            dm_pdn_result_text(dm_game_variant(g), result));
    if (!s->fullscreen)
        print_position(s);
}

static void cmd_moves(struct session *s)
{
    const dm_move_list *legal = dm_game_legal(s->game);
    char text[4096];
    size_t len = 0;
    text[0] = '\0';
    for (int i = 0; i < legal->count && len + 80 < sizeof text; i++) {
        char m[160];
        dm_move_format(variant_of(s), &legal->moves[i], legal, m, sizeof m);
        len += (size_t)snprintf(text + len, sizeof text - len, " %s", m);
    }
    if (legal->count == 0 || dm_game_over(s->game))
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
    dm_draw_rules_describe(variant_of(s), dm_game_rules(s->game), text, sizeof text);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
        say(s, "%s", line);
}

/* Runs one line typed by the person. */
static void handle(struct session *s, char *line)
{
    /* Control characters would reach the screen in the messages. */
    for (char *p = line; *p; p++)
        if (((unsigned char)*p < 32 && *p != '\t' && *p != '\n' && *p != '\r') || *p == 127)
            *p = '?';
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
    bool over = dm_game_over(s->game);

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
    else if (over && (strcmp(word, "hint") == 0 || strcmp(word, "resign") == 0 ||
                      strcmp(word, "draw") == 0))
        say(s, "The game is over: %s.", dm_game_reason(s->game));
    else if (strcmp(word, "hint") == 0) {
        const dm_move_list *legal = dm_game_legal(s->game);
        int i = tui_computer_move(s->game, NULL, TUI_LEVEL_HINT, &s->rng);
        char m[160];
        dm_move_format(variant_of(s), &legal->moves[i], legal, m, sizeof m);
        say(s, "Hint: %s", m);
    } else if (strcmp(word, "resign") == 0)
        dm_game_resign(s->game, (enum dm_color)acting_human(s));
    else if (strcmp(word, "draw") == 0)
        cmd_draw(s);
    else if (!strpbrk(line, "0123456789"))
        say(s, "'%.40s' is neither a command nor a move: type help.", line);
    else
        human_move(s, line);
}

/* ---- reading commands ------------------------------------------------------------ */

/* Plain: one line from stdin.  Returns 1 with line filled, 0 for a line
 * refused as too long, -1 at the end of input. */
static int read_plain(struct session *s, char *line, size_t size)
{
    if (isatty(STDIN_FILENO)) {
        fputs("> ", stdout);
        fflush(stdout);
    }
    if (!fgets(line, (int)size, stdin))
        return -1;
    size_t n = strlen(line);
    if (n > 0 && line[n - 1] == '\n')
        return 1;
    if (feof(stdin))
        return 1; /* a last line without its newline */
    int c;
    while ((c = getchar()) != EOF && c != '\n')
        ;
    say(s, "Line too long: at most %d characters.", (int)size - 2);
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
        bool running = s->timed && s->clock.running >= 0;
        int k = tui_term_key(running ? TICK_MS : 1000);
        if (k == TUI_KEY_EOF)
            return -1;
        if (k == TUI_KEY_NONE) {
            if (running && dm_clock_flag(&s->clock) >= 0)
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
    s.computer[DM_WHITE] = o->computer[DM_WHITE];
    s.computer[DM_BLACK] = o->computer[DM_BLACK];
    s.rng = o->seed;
    dm_error err;
    s.game = dm_game_new(o->variant, o->rules, o->fen, &err);
    if (!s.game) {
        fprintf(stderr, "damier: %s\n", err.msg);
        return 1;
    }
    s.timed = o->time.kind != DM_CLOCK_NONE;
    dm_clock_init(&s.clock, &o->time, NULL, NULL);
    s.fullscreen = !o->plain && tui_term_full_screen() && tui_term_enter();
    if (s.fullscreen) {
        int cols, rows;
        tui_term_size(&cols, &rows);
        if (cols < 80 || rows < 24)
            say(&s, "The terminal is %dx%d; the board needs 80x24 (or use --plain).", cols, rows);
    }

    char white[40], black[40];
    player_name(&s, DM_WHITE, white, sizeof white);
    player_name(&s, DM_BLACK, black, sizeof black);
    say(&s, "Damier: %s, %s rules. White: %s, Black: %s. Type help for the commands.",
        dm_variant_name(o->variant), dm_rules_name(o->rules), white, black);
    if (!s.fullscreen)
        print_position(&s);
    restart_clock(&s);

    char line[LINE_MAX_CHARS + 2];
    for (;;) {
        check_time(&s);
        if (dm_game_over(s.game) && !s.announced)
            announce_result(&s);
        if (s.quit)
            break;
        bool over = dm_game_over(s.game);
        if (!over && s.computer[side_to_move(&s)]) {
            computer_turn(&s);
            continue;
        }
        if (over && s.computer[DM_WHITE] && s.computer[DM_BLACK] && !s.fullscreen)
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
    dm_game_free(s.game);
    return 0;
}
