/* SPDX-License-Identifier: MIT */
/*
 * fuzz_http.c - libFuzzer target: the raw bytes of one or a few HTTP
 * requests, sent on one connection to `damier serve` running in this
 * process (fuzz_server.h), @ID@ and @TOKEN@ standing for a game of it.
 *
 * Invariants: whatever comes back starts as an HTTP answer with a
 * three-digit status (lws answers a request it cannot parse in HTTP/1.0); a plain complete GET (a request line, headers, the
 * blank line, nothing odd) is answered; and after each input the server
 * still answers a request of the API as it should.  A crash or a hang of
 * the server's thread is the process's.
 */
#include "fuzz_server.h"

#include <ctype.h>
#include <strings.h>

/* Whether req is one plain GET that must be answered: printable ASCII,
 * "GET /path HTTP/1.1", headers "Name: value" of a few plain kinds (none
 * about the body or an upgrade), the blank line ending the input.  lws may close on anything
 * odder without a word (a NUL in the path, a header over its 4 KiB). */
static bool plain_get(const char *req, size_t len)
{
    if (len > 3000 || len < 18 || strncmp(req, "GET /", 5) != 0 ||
        strcmp(req + len - 4, "\r\n\r\n") != 0 || strstr(req, "\r\n\r\n") != req + len - 4)
        return false;
    const char *eol = strstr(req, "\r\n");
    if (eol - req < 14 || strncmp(eol - 9, " HTTP/1.1", 9) != 0)
        return false;
    for (const char *c = req + 4; c < eol - 9; c++)
        if (*c <= ' ' || *c > '~' || *c == '%')
            return false;
    for (const char *line = eol + 2; line < req + len - 2;) {
        const char *end = strstr(line, "\r\n");
        const char *colon = memchr(line, ':', (size_t)(end - line));
        if (!colon || colon == line)
            return false;
        for (const char *c = line; c < colon; c++)
            if (!isalnum((unsigned char)*c) && *c != '-')
                return false;
        for (const char *c = colon + 1; c < end; c++)
            if (*c < ' ' || *c > '~')
                return false;
        /* Names lws knows, or X-: lws 4.1 never answers a request holding
         * a header whose name begins one it knows ("Ho:", "Accep:", "X-A:"
         * of X-Auth-Token), and closes it after the request timeout (two
         * findings of this target). */
        static const char *const plain[] = {"host", "accept", "user-agent", "authorization",
                                            "cookie", "referer"};
        static const char *const lws_x[] = {"x-real-ip", "x-forwarded-for", "x-auth-token"};
        bool known = colon - line > 2 && strncasecmp(line, "x-", 2) == 0;
        for (size_t i = 0; i < sizeof lws_x / sizeof lws_x[0]; i++)
            if ((size_t)(colon - line) < strlen(lws_x[i]) &&
                strncasecmp(line, lws_x[i], (size_t)(colon - line)) == 0)
                known = false;
        for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
            if ((size_t)(colon - line) == strlen(plain[i]) &&
                strncasecmp(line, plain[i], strlen(plain[i])) == 0)
                known = true;
        if (!known)
            return false;
        line = end + 2;
    }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fs_start();
    size_t len;
    char *req = fs_expand(data, size, &len);
    int fd = fs_connect_server();
    FUZZ_CHECK(fd >= 0);
    net_send_all(fd, req, len); /* the server may close first: what it sent is read */
    bool must_answer = memchr(req, '\0', len) == NULL && plain_get(req, len);
    static char answer[1 << 20];
    size_t got = fs_read_all(fd, answer, sizeof answer, must_answer ? 5000 : 30, 5);
    fs_close(fd);
    if (got > 0)
        FUZZ_CHECK(got >= 12 &&
                   (strncmp(answer, "HTTP/1.1 ", 9) == 0 || strncmp(answer, "HTTP/1.0 ", 9) == 0) &&
                   isdigit((unsigned char)answer[9]) &&
                   isdigit((unsigned char)answer[10]) && isdigit((unsigned char)answer[11]));
    if (must_answer)
        FUZZ_CHECK(got > 0);
    free(req);
    fs_check_alive();
    return 0;
}
