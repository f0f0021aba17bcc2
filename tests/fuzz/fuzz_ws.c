/* SPDX-License-Identifier: MIT */
/*
 * fuzz_ws.c - libFuzzer target: WebSocket messages to a game of `damier
 * serve` running in this process (fuzz_server.h).
 *
 * The input's first byte picks one of a few local games and the socket's
 * seat: the game's token, none (a spectator) or a wrong one.  Each further
 * line is one message, sent as a masked text frame; "@MOVE@" in a line
 * stands for a legal move of the latest state the socket was sent, so the
 * games really go on.  A line starting with "~" is sent as a frame of the
 * opcode its next byte gives (a ping, a binary frame, a continuation, a
 * close, an unknown one) with the rest as payload.
 *
 * Invariants: the socket's first frame is the game's state; the server
 * sends text frames, pongs and a close only, every text frame a JSON
 * object whose "type" is "state", "error" or "pong"; and after each input the server still answers a request of
 * the API as it should.
 */
#include "fuzz_server.h"

#include <jansson.h>

#define GAMES 4

static struct {
    char id[32], token[64];
    int64_t made_ms;
} games[GAMES];

/* A new local game in slot i. */
static void new_game(int i)
{
    static const char body[] = "{\"opponent\":{\"type\":\"local\"}}";
    char req[256], buf[8192];
    snprintf(req, sizeof req, "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: %zu\r\n\r\n%s",
             sizeof body - 1, body);
    fs_request(req, buf, sizeof buf);
    const char *id = strstr(buf, "\"id\":\""), *token = strstr(buf, "\"token\":\"");
    FUZZ_CHECK(id && token);
    sscanf(id + 6, "%31[^\"]", games[i].id);
    sscanf(token + 9, "%63[^\"]", games[i].token);
    games[i].made_ms = net_now_ms();
}

static void send_frame(int fd, int opcode, const char *data, size_t len)
{
    unsigned char head[14] = {(unsigned char)(0x80 | opcode)};
    size_t n = 1;
    if (len < 126) {
        head[n++] = (unsigned char)(0x80 | len);
    } else {
        head[n++] = 0x80 | 126;
        head[n++] = (unsigned char)(len >> 8);
        head[n++] = (unsigned char)len;
    }
    static const unsigned char mask[4] = {0x5a, 0x17, 0xc3, 0x08};
    memcpy(head + n, mask, 4);
    n += 4;
    char *frame = malloc(n + len);
    memcpy(frame, head, n);
    for (size_t i = 0; i < len; i++)
        frame[n + i] = (char)(data[i] ^ mask[i % 4]);
    net_send_all(fd, frame, n + len);
    free(frame);
}

struct reader {
    char buf[1 << 18];
    size_t len;
    bool closed;
    char move[64];      /* a legal move of the latest state, or ""        */
    int states;
    char first[160];    /* the first frame, for a failure's report        */
};

/* Checks one whole frame from the server. */
static void check_frame(struct reader *r, int opcode, const char *payload, size_t len)
{
    if (!r->first[0])
        snprintf(r->first, sizeof r->first, "%d:%.*s", opcode, (int)(len < 150 ? len : 150), payload);
    if (opcode == 8) {
        r->closed = true;
        return;
    }
    if (opcode == 10) /* lws' pong to a ping frame */
        return;
    if (opcode != 1)
        fprintf(stderr, "fuzz_ws: a frame of opcode %d from the server\n", opcode);
    FUZZ_CHECK(opcode == 1);
    json_error_t jerr;
    json_t *o = json_loadb(payload, len, 0, &jerr);
    FUZZ_CHECK(json_is_object(o));
    const char *type = json_string_value(json_object_get(o, "type"));
    FUZZ_CHECK(type && (strcmp(type, "state") == 0 || strcmp(type, "error") == 0 ||
                        strcmp(type, "pong") == 0));
    if (strcmp(type, "state") == 0) {
        r->states++;
        json_t *legal = json_object_get(json_object_get(o, "game"), "legal");
        const char *m = json_string_value(json_object_get(json_array_get(legal, 0), "notation"));
        snprintf(r->move, sizeof r->move, "%s", m ? m : "");
    }
    json_decref(o);
}

/* Reads what the server sends (waiting first_ms for something, then
 * until quiet_ms pass without more) and checks every whole frame. */
static void drain(int fd, struct reader *r, int first_ms, int quiet_ms)
{
    bool got = false;
    while (!r->closed && r->len < sizeof r->buf) {
        if (!net_readable(fd, got ? quiet_ms : first_ms))
            return;
        ssize_t n = recv(fd, r->buf + r->len, sizeof r->buf - r->len, 0);
        if (n <= 0) {
            r->closed = true;
            return;
        }
        got = true;
        r->len += (size_t)n;
        for (;;) { /* whole frames off the front: server frames are unmasked */
            const unsigned char *b = (const unsigned char *)r->buf;
            if (r->len < 2)
                break;
            size_t head = 2, plen = b[1] & 0x7f;
            FUZZ_CHECK(!(b[1] & 0x80));
            if (plen == 126) {
                if (r->len < 4)
                    break;
                plen = (size_t)b[2] << 8 | b[3];
                head = 4;
            } else if (plen == 127) {
                if (r->len < 10)
                    break;
                plen = 0;
                for (int i = 2; i < 10; i++)
                    plen = plen << 8 | b[i];
                head = 10;
            }
            FUZZ_CHECK(plen < sizeof r->buf);
            if (r->len < head + plen)
                break;
            check_frame(r, b[0] & 0x0f, r->buf + head, plen);
            memmove(r->buf, r->buf + head + plen, r->len - head - plen);
            r->len -= head + plen;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fs_start();
    if (!games[0].id[0])
        for (int i = 0; i < GAMES; i++)
            new_game(i);
    if (size == 0)
        return 0;
    int slot = data[0] % GAMES, seat = (data[0] / GAMES) % 3;
    char path[256], req[512];
    snprintf(path, sizeof path, "/ws/games/%s%s%s", games[slot].id,
             seat == 0 ? "?token=" : seat == 1 ? "" : "?token=wrong",
             seat == 0 ? games[slot].token : "");
    int fd = fs_connect_server();
    FUZZ_CHECK(fd >= 0);
    int n = snprintf(req, sizeof req,
                     "GET %s HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
                     path);
    FUZZ_CHECK(net_send_all(fd, req, (size_t)n));
    /* The handshake's answer, byte by byte so no frame is read with it. */
    char hs[2048];
    size_t hl = 0;
    while (hl < sizeof hs - 1) {
        FUZZ_CHECK(net_readable(fd, 5000) && recv(fd, hs + hl, 1, 0) == 1);
        hs[++hl] = '\0';
        if (strstr(hs, "\r\n\r\n"))
            break;
    }
    FUZZ_CHECK(strstr(hs, " 101 ") != NULL);
    static struct reader r;
    r.len = 0;
    r.closed = false;
    r.states = 0;
    r.move[0] = '\0';
    r.first[0] = '\0';
    int64_t t0 = net_now_ms();
    drain(fd, &r, 5000, 1);
    if (r.states != 1)
        fprintf(stderr, "fuzz_ws: %d states on connecting to %s after %lld ms (closed %d, %zu bytes left, first frame %s)\n",
                r.states, path, (long long)(net_now_ms() - t0), r.closed, r.len, r.first);
    FUZZ_CHECK(r.states == 1);

    const char *text = (const char *)data + 1, *end = (const char *)data + size;
    while (text < end && !r.closed) {
        const char *eol = memchr(text, '\n', (size_t)(end - text));
        size_t len = (size_t)((eol ? eol : end) - text);
        if (len > 4000)
            len = 4000;
        char msg[4200];
        size_t m = 0;
        int opcode = 1;
        const char *from = text;
        if (len >= 2 && text[0] == '~') {
            opcode = text[1] & 0x0f;
            from += 2;
        }
        bool wants_move = false;
        for (const char *c = from; c + 6 <= text + len && !wants_move; c++)
            wants_move = memcmp(c, "@MOVE@", 6) == 0;
        if (wants_move)
            drain(fd, &r, 2, 1);
        for (const char *c = from; c < text + len;) {
            if (text + len - c >= 6 && memcmp(c, "@MOVE@", 6) == 0) {
                m += (size_t)snprintf(msg + m, sizeof msg - m, "%s", r.move);
                c += 6;
            } else {
                msg[m++] = *c++;
            }
        }
        /* Control frames are at most 125 bytes (RFC 6455 5.5). */
        if (opcode >= 8 && m > 125)
            m = 125;
        send_frame(fd, opcode, msg, m);
        text += len + (eol ? 1 : 0);
    }
    drain(fd, &r, 20, 2);
    fs_close(fd);

    /* A game over (or long) is replaced, at most one a second: the server
     * keeps every game in memory. */
    if (r.move[0] == '\0' && net_now_ms() - games[slot].made_ms > 1000)
        new_game(slot);
    fs_check_alive();
    return 0;
}
