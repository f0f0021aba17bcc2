/* SPDX-License-Identifier: MIT */
/*
 * bus.c - bus.h on Redis pub/sub through hiredis 0.14's synchronous API,
 * on a thread of the bus's own.
 *
 * Why a thread and not hiredis's asynchronous API on the event loop:
 * hiredis 0.14 has no adapter for libwebsockets, its connect resolves
 * names and waits without a timeout of its own, and a thread keeps the
 * bus testable without the server; the engine pool already hands work to
 * the loop this way (a queue and lws_cancel_service).  The workload is
 * small: a message per move, a few per second per game.
 *
 * The thread waits in poll() on the subscribed connection and on a pipe
 * by which bus_publish and bus_close wake it.  It reads only what poll()
 * says has arrived (redisBufferRead, then the replies already whole), so
 * it never blocks on a half message and never lets hiredis's socket
 * timeout (which ends a connection) fire while idle; it publishes with
 * redisCommand on the other connection, whose 2 s timeout bounds a Redis
 * gone silent.  Any failure closes both connections; they are made again
 * after a backoff, and the loop is told (BUS_DOWN, BUS_UP).
 */
#include "server/bus.h"

#include <errno.h>
#include <fcntl.h>
#include <hiredis/hiredis.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHANNEL_PREFIX "damier:game:"
#define TIMEOUT_MS 2000      /* to connect, and each command             */
#define BACKOFF_MIN_MS 100
#define BACKOFF_MAX_MS 5000
#define QUEUE_MAX 16384      /* messages waiting either way              */

/* A message waiting: published text on its way out, or what arrived
 * (text and channel, or an event) on its way to the loop. */
typedef struct item {
    enum bus_event event;
    int channel;
    char *text;              /* malloc'ed: the JSON, or BUS_DOWN's reason */
    int64_t received_ms;     /* when the bus's thread read it (monotonic) */
    struct item *next;
} item;

typedef struct queue {
    item *head, *tail;
    int n;
} queue;

struct bus {
    char node[BUS_NODE];
    char host[256];
    int port;
    char user[128], password[256];
    char name[300];          /* redis://HOST:PORT, for messages           */
    void (*wake)(void *ctx);
    void *wake_ctx;
    /* The thread's alone. */
    redisContext *sub, *pub;
    pthread_t thread;
    int pipe[2];             /* [0] the thread polls, [1] wakes it         */
    /* Under lock. */
    pthread_mutex_t lock;
    queue out, in;
    bool up, stopping;
    long dropped;
};

/* ---- small helpers ------------------------------------------------------ */

int bus_channel(const char *game)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *c = (const unsigned char *)game; *c; c++)
        h = (h ^ *c) * 16777619u;
    return (int)(h % BUS_CHANNELS);
}

static void push(queue *q, item *it)
{
    it->next = NULL;
    if (q->tail)
        q->tail->next = it;
    else
        q->head = it;
    q->tail = it;
    q->n++;
}

static item *take_all(queue *q)
{
    item *all = q->head;
    q->head = q->tail = NULL;
    q->n = 0;
    return all;
}

static void free_items(item *it)
{
    for (item *next; it; it = next) {
        next = it->next;
        free(it->text);
        free(it);
    }
}

static item *new_item(enum bus_event event, int channel, const char *text, size_t len)
{
    item *it = calloc(1, sizeof *it);
    char *copy = malloc(len + 1);
    if (!it || !copy) {
        free(it);
        free(copy);
        return NULL;
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    it->event = event;
    it->channel = channel;
    it->text = copy;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    it->received_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    return it;
}

/* Hands an item to the loop, waking it when the queue was empty (it
 * takes the whole queue when it wakes); dropped (and counted) when the
 * loop is that far behind. */
static void deliver(bus *b, enum bus_event event, int channel, const char *text, size_t len)
{
    item *it = new_item(event, channel, text, len);
    pthread_mutex_lock(&b->lock);
    bool first = b->in.n == 0;
    if (it && b->in.n < QUEUE_MAX) {
        push(&b->in, it);
        it = NULL;
    } else {
        b->dropped++;
        first = false;
    }
    pthread_mutex_unlock(&b->lock);
    free_items(it);
    if (first)
        b->wake(b->wake_ctx);
}

/* ---- the URL -------------------------------------------------------------- */

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* text[0..n) percent-decoded into dst; false if it does not fit or a %
 * is not followed by two hex digits. */
static bool decode(char *dst, size_t size, const char *text, size_t n)
{
    size_t out = 0;
    for (size_t i = 0; i < n; i++) {
        char c = text[i];
        if (c == '%') {
            int hi = i + 2 < n ? hex_digit(text[i + 1]) : -1;
            int lo = i + 2 < n ? hex_digit(text[i + 2]) : -1;
            if (hi < 0 || lo < 0)
                return false;
            c = (char)(hi * 16 + lo);
            i += 2;
        }
        if (out + 1 >= size)
            return false;
        dst[out++] = c;
    }
    dst[out] = '\0';
    return true;
}

static int bad_url(char *err, size_t errsize, const char *why)
{
    snprintf(err, errsize,
             "bus: bad Redis URL: %s (expected redis://[[USER]:PASSWORD@]HOST[:PORT])", why);
    return -1;
}

/* b's host, port, user and password from url.  0, or -1 with err, which
 * never quotes the URL (it may hold a password). */
static int parse_url(bus *b, const char *url, char *err, size_t errsize)
{
    if (!url || strncmp(url, "redis://", 8) != 0)
        return bad_url(err, errsize, "not a redis:// URL");
    const char *p = url + 8, *end = p + strcspn(p, "/?#");
    if (*end == '?' || *end == '#' || (*end == '/' && end[1]))
        return bad_url(err, errsize, "a path or options (pub/sub knows no database)");
    const char *at = memchr(p, '@', (size_t)(end - p));
    if (at) {
        const char *colon = memchr(p, ':', (size_t)(at - p));
        if (!colon)
            return bad_url(err, errsize, "a user without a password");
        if (!decode(b->user, sizeof b->user, p, (size_t)(colon - p)) ||
            !decode(b->password, sizeof b->password, colon + 1, (size_t)(at - colon - 1)))
            return bad_url(err, errsize, "a user or password badly encoded or too long");
        p = at + 1;
    }
    const char *host = p, *host_end, *port = NULL;
    if (*p == '[') {
        host = p + 1;
        host_end = memchr(host, ']', (size_t)(end - host));
        if (!host_end)
            return bad_url(err, errsize, "an IPv6 address without its ']'");
        if (host_end + 1 < end && host_end[1] != ':')
            return bad_url(err, errsize, "text after the IPv6 address");
        port = host_end + 1 < end ? host_end + 2 : NULL;
    } else {
        host_end = memchr(p, ':', (size_t)(end - p));
        if (host_end)
            port = host_end + 1;
        else
            host_end = end;
    }
    if (host_end == host || (size_t)(host_end - host) >= sizeof b->host)
        return bad_url(err, errsize, "no host, or one too long");
    memcpy(b->host, host, (size_t)(host_end - host));
    b->host[host_end - host] = '\0';
    b->port = 6379;
    if (port) {
        long v = 0;
        const char *c = port;
        for (; c < end && *c >= '0' && *c <= '9' && v <= 65535; c++)
            v = v * 10 + (*c - '0');
        if (c != end || c == port || v < 1 || v > 65535)
            return bad_url(err, errsize, "a port that is not 1-65535");
        b->port = (int)v;
    }
    snprintf(b->name, sizeof b->name, "redis://%s%s%s:%d", strchr(b->host, ':') ? "[" : "",
             b->host, strchr(b->host, ':') ? "]" : "", b->port);
    return 0;
}

/* ---- the connections (the bus's thread, or bus_open before it starts) ---- */

static void disconnect(bus *b)
{
    if (b->sub)
        redisFree(b->sub);
    if (b->pub)
        redisFree(b->pub);
    b->sub = b->pub = NULL;
}

/* A connection to Redis, its password given, its commands bounded by
 * TIMEOUT_MS; NULL with err. */
static redisContext *connect_one(bus *b, char *err, size_t errsize)
{
    struct timeval tv = {TIMEOUT_MS / 1000, (TIMEOUT_MS % 1000) * 1000};
    redisContext *c = redisConnectWithTimeout(b->host, b->port, tv);
    if (!c || c->err) {
        snprintf(err, errsize, "bus %s: cannot connect: %s", b->name,
                 c ? c->errstr : "out of memory");
        if (c)
            redisFree(c);
        return NULL;
    }
    redisSetTimeout(c, tv);
    redisEnableKeepAlive(c);
    /* A PING after any AUTH: a server that wants a password says so here
     * (NOAUTH), rather than by a protocol error at SUBSCRIBE. */
    redisReply *r = NULL;
    if (b->password[0])
        r = b->user[0] ? redisCommand(c, "AUTH %s %s", b->user, b->password)
                       : redisCommand(c, "AUTH %s", b->password);
    bool ok = !b->password[0] || (r && r->type == REDIS_REPLY_STATUS);
    const char *what = "AUTH";
    if (ok) {
        if (r)
            freeReplyObject(r);
        r = redisCommand(c, "PING");
        ok = r && r->type == REDIS_REPLY_STATUS;
        what = "PING";
    }
    if (!ok)
        snprintf(err, errsize, "bus %s: %s: %s", b->name, what,
                 r && r->type == REDIS_REPLY_ERROR ? r->str : c->errstr);
    if (r)
        freeReplyObject(r);
    if (!ok) {
        redisFree(c);
        return NULL;
    }
    return c;
}

/* Both connections, the subscribed one on every channel.  0, or -1 with
 * err and neither left open. */
static int connect_all(bus *b, char *err, size_t errsize)
{
    b->pub = connect_one(b, err, errsize);
    b->sub = b->pub ? connect_one(b, err, errsize) : NULL;
    if (!b->sub) {
        disconnect(b);
        return -1;
    }
    char names[BUS_CHANNELS][32];
    const char *argv[BUS_CHANNELS + 1] = {"SUBSCRIBE"};
    for (int i = 0; i < BUS_CHANNELS; i++) {
        snprintf(names[i], sizeof names[i], CHANNEL_PREFIX "%d", i);
        argv[i + 1] = names[i];
    }
    bool ok = redisAppendCommandArgv(b->sub, BUS_CHANNELS + 1, argv, NULL) == REDIS_OK;
    for (int i = 0; ok && i < BUS_CHANNELS; i++) {
        redisReply *r = NULL;
        ok = redisGetReply(b->sub, (void **)&r) == REDIS_OK && r &&
             r->type == REDIS_REPLY_ARRAY && r->elements == 3 &&
             r->element[0]->type == REDIS_REPLY_STRING &&
             strcmp(r->element[0]->str, "subscribe") == 0;
        if (!ok)
            snprintf(err, errsize, "bus %s: SUBSCRIBE: %s", b->name,
                     r && r->type == REDIS_REPLY_ERROR ? r->str
                     : b->sub->err                     ? b->sub->errstr
                                                       : "unexpected answer");
        if (r)
            freeReplyObject(r);
    }
    if (!ok)
        disconnect(b);
    return ok ? 0 : -1;
}

/* ---- the thread ----------------------------------------------------------- */

static bool stopping(bus *b)
{
    pthread_mutex_lock(&b->lock);
    bool stop = b->stopping;
    pthread_mutex_unlock(&b->lock);
    return stop;
}

static void set_up(bus *b, bool up)
{
    pthread_mutex_lock(&b->lock);
    b->up = up;
    pthread_mutex_unlock(&b->lock);
}

/* The channel number of a "damier:game:N" name, or -1. */
static int channel_of(const redisReply *r)
{
    const size_t n = sizeof CHANNEL_PREFIX - 1;
    if (r->type != REDIS_REPLY_STRING || r->len <= n || r->len > n + 2 ||
        memcmp(r->str, CHANNEL_PREFIX, n) != 0)
        return -1;
    int v = 0;
    for (size_t i = n; i < r->len; i++) {
        if (r->str[i] < '0' || r->str[i] > '9')
            return -1;
        v = v * 10 + (r->str[i] - '0');
    }
    return v < BUS_CHANNELS ? v : -1;
}

/* Hands the loop every whole reply already read from the subscribed
 * connection (a message is delivered, anything else skipped).  False with
 * err when what arrived is no Redis protocol. */
static bool drain(bus *b, char *err, size_t errsize)
{
    for (;;) {
        redisReply *r = NULL;
        if (redisGetReplyFromReader(b->sub, (void **)&r) != REDIS_OK) {
            snprintf(err, errsize, "bus %s: %s", b->name, b->sub->errstr);
            return false;
        }
        if (!r)
            return true;
        bool message = r->type == REDIS_REPLY_ARRAY && r->elements == 3 &&
                       r->element[0]->type == REDIS_REPLY_STRING &&
                       strcmp(r->element[0]->str, "message") == 0 &&
                       r->element[2]->type == REDIS_REPLY_STRING;
        int channel = message ? channel_of(r->element[1]) : -1;
        if (channel >= 0)
            deliver(b, BUS_MESSAGE, channel, r->element[2]->str, r->element[2]->len);
        freeReplyObject(r);
    }
}

/* Reads what poll() said has arrived; false with err when the connection
 * failed (Redis closed it, among others). */
static bool receive(bus *b, char *err, size_t errsize)
{
    if (redisBufferRead(b->sub) != REDIS_OK) {
        snprintf(err, errsize, "bus %s: connection lost: %s", b->name, b->sub->errstr);
        return false;
    }
    return drain(b, err, errsize);
}

/* Publishes every queued message.  False with err when Redis failed (the
 * rest of the queue is dropped: pub/sub keeps nothing either). */
static bool publish_queued(bus *b, char *err, size_t errsize)
{
    pthread_mutex_lock(&b->lock);
    item *all = take_all(&b->out);
    pthread_mutex_unlock(&b->lock);
    bool ok = true;
    for (item *it = all; ok && it; it = it->next) {
        char channel[32];
        snprintf(channel, sizeof channel, CHANNEL_PREFIX "%d", it->channel);
        redisReply *r = redisCommand(b->pub, "PUBLISH %s %s", channel, it->text);
        ok = r && r->type == REDIS_REPLY_INTEGER;
        if (!ok)
            snprintf(err, errsize, "bus %s: PUBLISH: %s", b->name,
                     r && r->type == REDIS_REPLY_ERROR ? r->str : b->pub->errstr);
        if (r)
            freeReplyObject(r);
    }
    free_items(all);
    return ok;
}

static void drain_pipe(bus *b)
{
    char buf[256];
    while (read(b->pipe[0], buf, sizeof buf) > 0)
        ;
}

/* Waits up to ms for the wake pipe (the connection down). */
static void pause_ms(bus *b, int ms)
{
    struct pollfd p = {.fd = b->pipe[0], .events = POLLIN};
    if (poll(&p, 1, ms) > 0)
        drain_pipe(b);
}

/* A write to a connection Redis has closed raises SIGPIPE, which would
 * end the whole process: the bus's thread blocks it (the write then fails
 * with EPIPE, and the pending signal stays with the thread). */
static void block_sigpipe(void)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
}

static void *run(void *arg)
{
    bus *b = arg;
    char err[512];
    int backoff = BACKOFF_MIN_MS;
    block_sigpipe();
    while (!stopping(b)) {
        if (!b->sub) {
            pause_ms(b, backoff);
            if (stopping(b))
                break;
            if (connect_all(b, err, sizeof err) != 0) {
                backoff = backoff * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : backoff * 2;
                continue;
            }
            backoff = BACKOFF_MIN_MS;
            set_up(b, true);
            deliver(b, BUS_UP, -1, "", 0);
        }
        /* Connecting may have read a message after the confirmations. */
        if (!drain(b, err, sizeof err)) {
            disconnect(b);
            set_up(b, false);
            deliver(b, BUS_DOWN, -1, err, strlen(err));
            continue;
        }
        struct pollfd p[2] = {{.fd = b->pipe[0], .events = POLLIN},
                              {.fd = b->sub->fd, .events = POLLIN}};
        if (poll(p, 2, 1000) < 0 && errno != EINTR)
            break;
        bool ok = true;
        if (p[0].revents) {
            drain_pipe(b);
            ok = publish_queued(b, err, sizeof err);
        }
        if (ok && p[1].revents)
            ok = receive(b, err, sizeof err);
        if (!ok) {
            disconnect(b);
            set_up(b, false);
            pthread_mutex_lock(&b->lock);
            free_items(take_all(&b->out));
            pthread_mutex_unlock(&b->lock);
            deliver(b, BUS_DOWN, -1, err, strlen(err));
        }
    }
    disconnect(b);
    return NULL;
}

/* ---- the loop's side ------------------------------------------------------ */

static void poke(bus *b)
{
    ssize_t n = write(b->pipe[1], "", 1);
    (void)n; /* a full pipe already wakes the thread */
}

static bool plausible_word(const char *s, size_t size)
{
    size_t n = 0;
    for (; s[n]; n++)
        if (s[n] <= ' ' || s[n] > '~' || s[n] == '"' || s[n] == '\\' || n + 1 >= size)
            return false;
    return n > 0;
}

bus *bus_open(const char *url, const char *node, void (*wake)(void *ctx), void *wake_ctx,
              char *err, size_t errsize)
{
    if (!node || !plausible_word(node, BUS_NODE) || !wake) {
        snprintf(err, errsize, "bus: a node name (1-%d printable bytes) and a wake function",
                 BUS_NODE - 1);
        return NULL;
    }
    bus *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    snprintf(b->node, sizeof b->node, "%s", node);
    b->wake = wake;
    b->wake_ctx = wake_ctx;
    b->pipe[0] = b->pipe[1] = -1;
    if (parse_url(b, url, err, errsize) != 0 || connect_all(b, err, errsize) != 0) {
        free(b);
        return NULL;
    }
    if (pipe(b->pipe) != 0 || fcntl(b->pipe[0], F_SETFL, O_NONBLOCK) != 0 ||
        fcntl(b->pipe[1], F_SETFL, O_NONBLOCK) != 0) {
        snprintf(err, errsize, "bus: pipe: %s", strerror(errno));
        goto fail;
    }
    pthread_mutex_init(&b->lock, NULL);
    b->up = true;
    if (pthread_create(&b->thread, NULL, run, b) != 0) {
        snprintf(err, errsize, "bus: cannot start its thread");
        pthread_mutex_destroy(&b->lock);
        goto fail;
    }
    return b;
fail:
    disconnect(b);
    if (b->pipe[0] >= 0)
        close(b->pipe[0]);
    if (b->pipe[1] >= 0)
        close(b->pipe[1]);
    free(b);
    return NULL;
}

void bus_close(bus *b)
{
    if (!b)
        return;
    pthread_mutex_lock(&b->lock);
    b->stopping = true;
    pthread_mutex_unlock(&b->lock);
    poke(b);
    pthread_join(b->thread, NULL);
    free_items(take_all(&b->out));
    free_items(take_all(&b->in));
    close(b->pipe[0]);
    close(b->pipe[1]);
    pthread_mutex_destroy(&b->lock);
    free(b);
}

int bus_publish(bus *b, const char *game, const char *kind, json_t *payload, char *err,
                size_t errsize)
{
    if (!game || !plausible_word(game, BUS_GAME) || !kind || !plausible_word(kind, BUS_KIND) ||
        !payload) {
        snprintf(err, errsize, "bus: a message needs a game id, a kind and a payload");
        return -1;
    }
    json_t *m = json_pack("{s:s, s:s, s:s, s:O}", "origin", b->node, "game", game, "kind", kind,
                          "payload", payload);
    char *text = m ? json_dumps(m, JSON_COMPACT) : NULL;
    json_decref(m);
    if (!text || strlen(text) > BUS_MESSAGE_MAX) {
        snprintf(err, errsize, "bus: game %s: %s", game,
                 text ? "message too large" : "out of memory");
        free(text);
        return -1;
    }
    item *it = new_item(BUS_MESSAGE, bus_channel(game), text, strlen(text));
    free(text);
    pthread_mutex_lock(&b->lock);
    int rc = -1;
    if (!it)
        snprintf(err, errsize, "out of memory");
    else if (!b->up)
        snprintf(err, errsize, "bus %s: not connected to Redis", b->name);
    else if (b->out.n >= QUEUE_MAX)
        snprintf(err, errsize, "bus %s: %d messages waiting for Redis", b->name, QUEUE_MAX);
    else {
        push(&b->out, it);
        it = NULL;
        rc = 0;
    }
    pthread_mutex_unlock(&b->lock);
    free_items(it);
    if (rc == 0)
        poke(b);
    return rc;
}

/* text's fields into m (payload a new reference); false if it is no
 * message of the bus, or one about a game of another channel. */
static bool read_message(const char *text, int channel, bus_message *m)
{
    json_t *o = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
    const char *origin, *game, *kind;
    json_t *payload;
    bool ok = o && json_unpack(o, "{s:s, s:s, s:s, s:o}", "origin", &origin, "game", &game,
                               "kind", &kind, "payload", &payload) == 0 &&
              plausible_word(origin, BUS_NODE) && plausible_word(game, BUS_GAME) &&
              plausible_word(kind, BUS_KIND) && bus_channel(game) == channel;
    if (ok) {
        snprintf(m->origin, sizeof m->origin, "%s", origin);
        snprintf(m->game, sizeof m->game, "%s", game);
        snprintf(m->kind, sizeof m->kind, "%s", kind);
        m->payload = json_incref(payload);
    }
    json_decref(o);
    return ok;
}

int bus_dispatch(bus *b, void (*fn)(void *ctx, const bus_message *m), void *ctx)
{
    pthread_mutex_lock(&b->lock);
    item *all = take_all(&b->in);
    pthread_mutex_unlock(&b->lock);
    int calls = 0;
    long dropped = 0;
    for (item *it = all; it; it = it->next) {
        bus_message m = {.event = it->event, .error = "", .received_ms = it->received_ms};
        if (it->event == BUS_MESSAGE) {
            if (!read_message(it->text, it->channel, &m)) {
                dropped++;
                continue;
            }
            if (strcmp(m.origin, b->node) == 0) {
                json_decref(m.payload);
                continue;
            }
        } else if (it->event == BUS_DOWN) {
            m.error = it->text;
        }
        fn(ctx, &m);
        json_decref(m.payload);
        calls++;
    }
    free_items(all);
    if (dropped) {
        pthread_mutex_lock(&b->lock);
        b->dropped += dropped;
        pthread_mutex_unlock(&b->lock);
    }
    return calls;
}

bool bus_connected(bus *b)
{
    pthread_mutex_lock(&b->lock);
    bool up = b->up;
    pthread_mutex_unlock(&b->lock);
    return up;
}

long bus_dropped(bus *b)
{
    pthread_mutex_lock(&b->lock);
    long n = b->dropped;
    pthread_mutex_unlock(&b->lock);
    return n;
}
