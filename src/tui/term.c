/* SPDX-License-Identifier: MIT */
/*
 * term.c - the raw terminal of the full-screen mode.
 *
 * Raw mode (no line editing, no echo, keys one by one with a time-out) on
 * the alternate screen, so the player's scrollback survives the game.  The
 * saved terminal state is put back however the program ends: normally, by
 * exit(), or by a signal that would otherwise leave the shell unusable.
 * It also decides, from the environment, whether colour and the full screen
 * are wanted at all.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "tui/tui.h"

#define SCREEN_ENTER "\x1b[?1049h\x1b[H\x1b[2J"
#define SCREEN_LEAVE "\x1b[0m\x1b[?25h\x1b[?1049l"

static struct termios saved;
static volatile sig_atomic_t raw_on;

static void write_all(const char *s)
{
    size_t n = strlen(s);
    while (n > 0) {
        ssize_t w = write(STDOUT_FILENO, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

void tui_term_leave(void)
{
    if (!raw_on)
        return;
    raw_on = 0;
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
    write_all(SCREEN_LEAVE);
}

static void on_signal(int sig)
{
    /* Only async-signal-safe calls: tcsetattr and write are. */
    if (raw_on) {
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
        if (write(STDOUT_FILENO, SCREEN_LEAVE, sizeof SCREEN_LEAVE - 1) < 0)
            raw_on = 0;
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

bool tui_term_enter(void)
{
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) || tcgetattr(STDIN_FILENO, &saved) != 0)
        return false;
    struct termios raw = saved;
    raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ISIG | IEXTEN);
    raw.c_iflag &= ~(tcflag_t)(IXON | ICRNL);
    raw.c_cc[VMIN] = 0;
    raw.c_cc[VTIME] = 0;
    if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) != 0)
        return false;
    raw_on = 1;
    static bool hooked;
    if (!hooked) {
        hooked = true;
        atexit(tui_term_leave);
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        sigaction(SIGHUP, &sa, NULL);
    }
    write_all(SCREEN_ENTER);
    return true;
}

int tui_term_key(int timeout_ms)
{
    struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
    int r = poll(&p, 1, timeout_ms);
    if (r < 0)
        return errno == EINTR ? TUI_KEY_NONE : TUI_KEY_EOF;
    if (r == 0)
        return TUI_KEY_NONE;
    unsigned char c;
    ssize_t n = read(STDIN_FILENO, &c, 1);
    if (n == 1)
        return c;
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return TUI_KEY_NONE;
    return TUI_KEY_EOF;
}

void tui_term_size(int *cols, int *rows)
{
    struct winsize ws;
    *cols = 80;
    *rows = 24;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0) {
        *cols = ws.ws_col;
        *rows = ws.ws_row;
    }
}

/* TERM unset or empty tells as little as "dumb": no cursor addressing. */
static bool term_dumb(void)
{
    const char *term = getenv("TERM");
    return !term || !*term || strcmp(term, "dumb") == 0;
}

bool tui_term_colour(void)
{
    const char *no_color = getenv("NO_COLOR");
    return !(no_color && *no_color) && !term_dumb();
}

bool tui_term_full_screen(void)
{
    return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) && !term_dumb();
}
