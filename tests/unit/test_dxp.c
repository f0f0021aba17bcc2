/* SPDX-License-Identifier: MIT */
/*
 * test_dxp.c - `damier dxp` on loopback: two Damier processes play whole
 * games, one listening and one connecting, from the start and from a
 * set-up; and the test itself as the peer, following the DamExchange
 * dialogue message by message (GAMEREQ fields, GAMEACC, CHAT, BACKREQ,
 * GAMEEND answered, a refused GAMEREQ), and sending a malformed and an
 * illegal move, which must end the game cleanly with a log line.
 */
#include "testutil.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WAIT_MS 60000

struct proc {
    pid_t pid;
    int err;        /* its standard error */
    char log[65536];
    size_t len;
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Starts damier dxp with args (NULL-terminated). */
static void spawn(struct proc *p, const char *const *args)
{
    const char *bin = tu_env("DAMIER_BIN", "build/damier");
    const char *argv[32] = {bin, "dxp"};
    int n = 2;
    while (*args && n < 31)
        argv[n++] = *args++;
    argv[n] = NULL;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    p->pid = fork();
    assert_true(p->pid >= 0);
    if (p->pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        close(fds[1]);
        freopen("/dev/null", "w", stdout);
        execv(bin, (char *const *)argv);
        _exit(127);
    }
    close(fds[1]);
    p->err = fds[0];
    p->len = 0;
    p->log[0] = '\0';
}

/* Reads p's log until it holds text (true) or it ends / the time runs out. */
static bool wait_log(struct proc *p, const char *text)
{
    int64_t deadline = now_ms() + WAIT_MS;
    while (!strstr(p->log, text)) {
        int64_t left = deadline - now_ms();
        struct pollfd q = {p->err, POLLIN, 0};
        if (left <= 0 || poll(&q, 1, (int)left) <= 0)
            return false;
        ssize_t r = read(p->err, p->log + p->len, sizeof p->log - p->len - 1);
        if (r <= 0)
            return false;
        p->len += (size_t)r;
        p->log[p->len] = '\0';
    }
    return true;
}

/* Waits for p to exit (reading its log to the end); its exit status. */
static int finish(struct proc *p)
{
    wait_log(p, "\x01never"); /* to the end of its output */
    int status = -1;
    int64_t deadline = now_ms() + WAIT_MS;
    while (waitpid(p->pid, &status, WNOHANG) == 0) {
        if (now_ms() > deadline) {
            kill(p->pid, SIGKILL);
            waitpid(p->pid, &status, 0);
            fail_msg("damier dxp did not exit; its log:\n%s", p->log);
        }
        struct timespec pause = {0, 10000000};
        nanosleep(&pause, NULL);
    }
    close(p->err);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* The port of a "dxp: listening on ADDR:PORT" line. */
static int listening_port(struct proc *p)
{
    if (!wait_log(p, "listening on "))
        fail_msg("no 'listening on' line: %s", p->log);
    const char *at = strstr(p->log, "listening on ");
    while (!strchr(at, '\n'))
        wait_log(p, "\n");
    const char *colon = strchr(at, '\n');
    while (colon > at && *colon != ':')
        colon--;
    return atoi(colon + 1);
}

static double score_of(const struct proc *p)
{
    const char *s = strstr(p->log, "score ");
    if (!s)
        fail_msg("no score line in: %s", p->log);
    return atof(s + 6);
}

static void test_two_damiers(void **state)
{
    (void)state;
    char pdn[] = "/tmp/damier-dxp-XXXXXX";
    int fd = mkstemp(pdn);
    assert_true(fd >= 0);
    close(fd);
    struct proc follower, initiator;
    spawn(&follower, (const char *const[]){"--listen", "127.0.0.1:0", "--level", "2", NULL});
    char address[32];
    snprintf(address, sizeof address, "127.0.0.1:%d", listening_port(&follower));
    spawn(&initiator, (const char *const[]){"--connect", address, "--games", "2", "--time", "1",
                                            "--level", "2", "--pdn", pdn, NULL});
    assert_int_equal(finish(&initiator), 0);
    assert_int_equal(finish(&follower), 0);
    if (!strstr(initiator.log, "game 1: Damier plays White") ||
        !strstr(initiator.log, "game 2: Damier plays Black") ||
        !strstr(follower.log, "game 1: Damier plays Black") ||
        !strstr(follower.log, "game 2: over: "))
        fail_msg("logs:\n%s\n%s", initiator.log, follower.log);
    /* The two sides agree on the points: two games, two points between them. */
    assert_true(score_of(&initiator) + score_of(&follower) == 2.0);
    size_t size;
    FILE *f = fopen(pdn, "r");
    assert_non_null(f);
    static char text[1 << 20];
    size = fread(text, 1, sizeof text - 1, f);
    text[size] = '\0';
    fclose(f);
    unlink(pdn);
    int games = 0;
    for (const char *p = text; (p = strstr(p, "[Event ")); p++)
        games++;
    assert_int_equal(games, 2);
    assert_non_null(strstr(text, "[GameType \"20"));
}

static void test_setup(void **state)
{
    (void)state;
    struct proc follower, initiator;
    spawn(&follower, (const char *const[]){"--listen", "127.0.0.1:0", "--level", "2", NULL});
    char address[32];
    snprintf(address, sizeof address, "127.0.0.1:%d", listening_port(&follower));
    spawn(&initiator, (const char *const[]){"--connect", address, "--games", "1", "--level", "2",
                                            "--fen", "B:W28,33,48:B3,9,23", NULL});
    assert_int_equal(finish(&initiator), 0);
    assert_int_equal(finish(&follower), 0);
    /* Black to move first in the set-up: the initiator (White) answers. */
    if (!strstr(follower.log, "game 1: over: ") || !strstr(initiator.log, "game 1: over: "))
        fail_msg("logs:\n%s\n%s", initiator.log, follower.log);
}

/* ---- the test as the peer ---- */

struct peer {
    int fd;
    char buf[4096];
    size_t len;
};

static void peer_send(struct peer *p, const char *text)
{
    size_t n = strlen(text) + 1;
    assert_int_equal(send(p->fd, text, n, MSG_NOSIGNAL), (ssize_t)n);
}

/* The next message, or "" at the end of the connection. */
static const char *peer_receive(struct peer *p)
{
    static char msg[256];
    int64_t deadline = now_ms() + WAIT_MS;
    for (;;) {
        char *nul = memchr(p->buf, '\0', p->len);
        if (nul) {
            size_t n = (size_t)(nul - p->buf);
            memcpy(msg, p->buf, n + 1);
            memmove(p->buf, nul + 1, p->len - n - 1);
            p->len -= n + 1;
            return msg;
        }
        struct pollfd q = {p->fd, POLLIN, 0};
        int64_t left = deadline - now_ms();
        if (left <= 0 || poll(&q, 1, (int)left) <= 0)
            fail_msg("no message from damier within %d ms", WAIT_MS);
        ssize_t r = recv(p->fd, p->buf + p->len, sizeof p->buf - p->len, 0);
        if (r <= 0)
            return "";
        p->len += (size_t)r;
    }
}

static void peer_connect(struct peer *p, int port)
{
    p->fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(p->fd, (struct sockaddr *)&a, sizeof a), 0);
    p->len = 0;
}

/* damier listens and follows; the test proposes a game in which damier is
 * White, reads its first move, then sends bad; damier must answer GAMEEND
 * (unknown, stop), close, log why and exit 0. */
static void expect_game_ended_by(const char *bad, const char *logged)
{
    struct proc d;
    spawn(&d, (const char *const[]){"--listen", "127.0.0.1:0", "--level", "1", NULL});
    struct peer p;
    peer_connect(&p, listening_port(&d));
    char req[128];
    snprintf(req, sizeof req, "R01%-32sW005000A", "Tester");
    peer_send(&p, req);
    const char *acc = peer_receive(&p);
    if (strncmp(acc, "ADamier", 7) != 0 || acc[33] != '0')
        fail_msg("GAMEACC expected, got '%s'", acc);
    const char *move = peer_receive(&p);
    if (move[0] != 'M' || strlen(move) != 11)
        fail_msg("a first quiet MOVE expected, got '%s'", move);
    peer_send(&p, bad);
    assert_string_equal(peer_receive(&p), "E01");
    assert_string_equal(peer_receive(&p), "");
    close(p.fd);
    assert_int_equal(finish(&d), 0);
    if (!strstr(d.log, logged))
        fail_msg("log does not say '%s':\n%s", logged, d.log);
}

static void test_malformed(void **state)
{
    (void)state;
    expect_game_ended_by("M00zz", "malformed message 'M00zz': MOVE time: '00zz' is not 4 digits");
    expect_game_ended_by("M0001010600", "illegal move from 1 to 6 taking 0 piece(s)");
    expect_game_ended_by("R01Again                           W005000A",
                         "unexpected message 'R' during a game");
}

/* A set-up that no game can reach (21 black men) is refused with GAMEACC
 * code 2 and the reason in the log; damier waits for the next request. */
static void test_setup_refused(void **state)
{
    (void)state;
    struct proc d;
    spawn(&d, (const char *const[]){"--listen", "127.0.0.1:0", "--level", "1", NULL});
    struct peer p;
    peer_connect(&p, listening_port(&d));
    char req[128];
    snprintf(req, sizeof req, "R01%-32sW005000BW%s%s%s", "Tester", "zzzzzzzzzzzzzzzzzzzzz",
             "eeeeeeeeeeeeeeeeeeeeeeeeeeee", "w");
    peer_send(&p, req);
    char want[64];
    snprintf(want, sizeof want, "A%-32s2", "Damier");
    assert_string_equal(peer_receive(&p), want);
    close(p.fd);
    assert_int_equal(finish(&d), 0);
    if (!strstr(d.log, "refused the set-up position: Hub position: Black has 21 pieces, more "
                       "than the 20 of the start position"))
        fail_msg("log does not name the count:\n%s", d.log);
}

/* damier connects and proposes; the test follows. */
static void test_follow_damier(void **state)
{
    (void)state;
    int ls = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(ls, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(ls, 1), 0);
    socklen_t len = sizeof a;
    getsockname(ls, (struct sockaddr *)&a, &len);
    char address[32];
    snprintf(address, sizeof address, "127.0.0.1:%d", ntohs(a.sin_port));
    struct proc d;
    spawn(&d, (const char *const[]){"--connect", address, "--games", "2", "--time", "1",
                                    "--moves", "40", "--level", "1", NULL});
    struct peer p = {.fd = accept(ls, NULL, NULL)};
    close(ls);
    assert_true(p.fd >= 0);
    char want[128];
    snprintf(want, sizeof want, "R01%-32sZ001040A", "Damier");
    assert_string_equal(peer_receive(&p), want);
    snprintf(want, sizeof want, "A%-32s0", "Tester");
    peer_send(&p, want);
    const char *move = peer_receive(&p);
    assert_int_equal(move[0], 'M');
    peer_send(&p, "Chello from the test");
    peer_send(&p, "B001W"); /* back to the start: damier moves again */
    assert_string_equal(peer_receive(&p), "K0");
    move = peer_receive(&p);
    assert_int_equal(move[0], 'M');
    peer_send(&p, "E10"); /* I lose; another game welcome */
    assert_string_equal(peer_receive(&p), "E30");
    /* Game 2: damier is Black; the test refuses it. */
    snprintf(want, sizeof want, "R01%-32sW001040A", "Damier");
    assert_string_equal(peer_receive(&p), want);
    snprintf(want, sizeof want, "A%-32s1", "Tester");
    peer_send(&p, want);
    assert_string_equal(peer_receive(&p), "");
    close(p.fd);
    assert_int_equal(finish(&d), 0);
    if (!strstr(d.log, "chat: hello from the test") || !strstr(d.log, "took back to move 1 (W)") ||
        !strstr(d.log, "game 1: over: 2-0") || !strstr(d.log, "Tester refused the game (code 1)"))
        fail_msg("log:\n%s", d.log);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_damiers),
        cmocka_unit_test(test_setup),
        cmocka_unit_test(test_setup_refused),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_follow_damier),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
