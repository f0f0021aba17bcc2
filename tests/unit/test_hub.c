/* SPDX-License-Identifier: MIT */
/*
 * test_hub.c - `damier hub` replayed from transcripts (the .txt files of tests/proto/hub)
 * written from the protocol (Scan's protocol.txt, version 2).
 *
 * A transcript is a dialogue, one line each:
 *   > text       the GUI sends text
 *   < pattern    the engine's next line matches pattern (fnmatch: * ? [..])
 *   <* pattern   any number of engine lines matching pattern (info lines),
 *                then the next expectation
 *   <eof         the engine closes its output (it quit)
 *   >eof         the GUI closes the engine's input
 *   ~ N          N milliseconds pass (to show that nothing comes meanwhile:
 *                the next < sees whatever did)
 *   # ...        a comment; blank lines are skipped
 * Each expectation waits at most TIMEOUT_MS for its line, so a hang fails
 * instead of blocking the suite; the engine must exit with status 0.
 */
#include "testutil.h"

#include <fnmatch.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TIMEOUT_MS 20000

struct engine {
    pid_t pid;
    int to, from; /* its standard input and output */
    char buf[65536];
    size_t len;
    bool eof;
};

static void start(struct engine *e)
{
    const char *bin = tu_env("DAMIER_BIN", "build/damier");
    int in[2], out[2];
    assert_int_equal(pipe(in), 0);
    assert_int_equal(pipe(out), 0);
    e->pid = fork();
    assert_true(e->pid >= 0);
    if (e->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        execl(bin, bin, "hub", (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    e->to = in[1];
    e->from = out[0];
    e->len = 0;
    e->eof = false;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The engine's next line (without its newline) into line; false at the end
 * of its output; fails the test after TIMEOUT_MS. */
static bool next_line(struct engine *e, char *line, size_t size, const char *waiting_for)
{
    int64_t deadline = now_ms() + TIMEOUT_MS;
    for (;;) {
        char *nl = memchr(e->buf, '\n', e->len);
        if (nl) {
            size_t n = (size_t)(nl - e->buf);
            snprintf(line, size, "%.*s", (int)n, e->buf);
            memmove(e->buf, nl + 1, e->len - n - 1);
            e->len -= n + 1;
            return true;
        }
        if (e->eof)
            return false;
        int64_t left = deadline - now_ms();
        if (left <= 0)
            fail_msg("no line from the engine within %d ms while waiting for '%s'", TIMEOUT_MS,
                     waiting_for);
        struct pollfd p = {e->from, POLLIN, 0};
        if (poll(&p, 1, (int)left) <= 0)
            continue;
        ssize_t got = read(e->from, e->buf + e->len, sizeof e->buf - e->len - 1);
        if (got <= 0)
            e->eof = true;
        else
            e->len += (size_t)got;
    }
}

static void send_text(struct engine *e, const char *text)
{
    size_t n = strlen(text);
    assert_int_equal(write(e->to, text, n), (ssize_t)n);
    assert_int_equal(write(e->to, "\n", 1), 1);
}

static void replay(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    signal(SIGPIPE, SIG_IGN);
    struct engine e;
    start(&e);
    char t[8192], line[8192], pending[8192];
    bool have_pending = false;
    int lineno = 0;
    while (fgets(t, sizeof t, f)) {
        lineno++;
        t[strcspn(t, "\n")] = '\0';
        if (t[0] == '\0' || t[0] == '#')
            continue;
        if (strncmp(t, "> ", 2) == 0) {
            send_text(&e, t + 2);
        } else if (strncmp(t, "~ ", 2) == 0) {
            struct timespec pause = {atoi(t + 2) / 1000, (long)(atoi(t + 2) % 1000) * 1000000};
            nanosleep(&pause, NULL);
        } else if (strcmp(t, ">eof") == 0) {
            close(e.to);
            e.to = -1;
        } else if (strncmp(t, "<* ", 3) == 0) {
            /* Skip lines matching; the first that does not is kept. */
            for (;;) {
                if (!have_pending && !next_line(&e, pending, sizeof pending, t))
                    break;
                have_pending = true;
                if (fnmatch(t + 3, pending, 0) != 0)
                    break;
                have_pending = false;
            }
        } else if (strncmp(t, "< ", 2) == 0 || strcmp(t, "<eof") == 0) {
            bool got = have_pending;
            if (got)
                snprintf(line, sizeof line, "%s", pending);
            else
                got = next_line(&e, line, sizeof line, t);
            have_pending = false;
            if (strcmp(t, "<eof") == 0) {
                if (got)
                    fail_msg("%s:%d: expected the end of output, got '%s'", path, lineno, line);
            } else if (!got) {
                fail_msg("%s:%d: the engine ended its output; expected '%s'", path, lineno,
                         t + 2);
            } else if (fnmatch(t + 2, line, 0) != 0) {
                fail_msg("%s:%d: expected '%s', got '%s'", path, lineno, t + 2, line);
            }
        } else {
            fail_msg("%s:%d: not a transcript line: '%s'", path, lineno, t);
        }
    }
    fclose(f);
    if (e.to >= 0)
        close(e.to);
    int status;
    assert_int_equal(waitpid(e.pid, &status, 0), e.pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("%s: the engine did not exit with status 0 (status %d)", path, status);
    close(e.from);
}

static void test_transcript(void **state)
{
    replay(*state);
}

int main(void)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/proto/hub", tu_env("DAMIER_TESTS", "tests"));
    char **names;
    int n = tu_list_dir(dir, ".txt", &names);
    if (n <= 0) {
        fprintf(stderr, "test_hub: no transcripts in %s\n", dir);
        return 1;
    }
    struct CMUnitTest *tests = calloc((size_t)n, sizeof *tests);
    char(*paths)[1200] = calloc((size_t)n, sizeof *paths);
    assert_non_null(tests);
    assert_non_null(paths);
    for (int i = 0; i < n; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/%s", dir, names[i]);
        tests[i] = (struct CMUnitTest){
            .name = names[i], .test_func = test_transcript, .initial_state = paths[i]};
    }
    int failed = _cmocka_run_group_tests("hub", tests, (size_t)n, NULL, NULL);
    tu_free_names(names, n);
    free(tests);
    free(paths);
    return failed ? 1 : 0;
}
