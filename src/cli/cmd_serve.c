/* SPDX-License-Identifier: MIT */
/*
 * cmd_serve.c - `damier serve`: the web app (src/server) on an address, a
 * database and a folder of static files, with defaults that make
 * `make run` work from a checkout: damier.db in the working folder,
 * loopback port 8080, the repository's web/ found beside the binary's
 * build folder (as damier match finds data/).  --db is a file (SQLite) or
 * a postgresql:// URL; store_open tells them apart, so nothing here does.
 *
 * --node and --redis make the server one of several nodes on one
 * PostgreSQL database and one Redis (docs/deploy.md, "Several nodes"):
 * checked here (both or neither, a node name the store takes, a
 * postgresql:// --db), with --lease-seconds and --no-engine, which only
 * a node takes.
 */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "server/server.h"

#define SERVE_MAX_THREADS 64

/* web/ beside the program's build folder, else the current folder's. */
static void default_web(char *path, size_t size)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        snprintf(path, size, "%s/../web", dirname(exe));
        if (access(path, R_OK) == 0)
            return;
    }
    snprintf(path, size, "web");
}

/* ADDR:PORT (ADDR may be empty: loopback) into host and *port. */
static int parse_listen(const char *text, char *host, size_t size, int *port)
{
    const char *colon = strrchr(text, ':');
    if (!colon || colon - text >= (long)size) {
        cli_error("serve: --listen is ADDR:PORT (127.0.0.1:8080), not '%s'", cli_quote(text));
        return -1;
    }
    snprintf(host, size, "%.*s", (int)(colon - text), text);
    if (!host[0])
        snprintf(host, size, "127.0.0.1");
    return cli_number("serve", "the port of --listen", colon + 1, 0, 65535, port);
}

/* A node's name as the store takes it (store_set_node): a short word. */
static bool node_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 63)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", name[i]))
            return false;
    return true;
}

/* --node and --redis against each other and --db; CLI_OK, or the error
 * printed and CLI_USAGE. */
static int check_nodes(const char *node, const char *redis, const char *db)
{
    if (!node && !redis)
        return CLI_OK;
    if (!node || !redis) {
        cli_error("serve: --node and --redis go together");
        return CLI_USAGE;
    }
    if (!node_name_ok(node)) {
        cli_error("serve: --node is 1 to 63 letters, digits, '.', '_' or '-', not '%s'",
                  cli_quote(node));
        return CLI_USAGE;
    }
    if (strncmp(redis, "redis://", 8) != 0) {
        cli_error("serve: --redis is a redis://HOST:PORT URL");
        return CLI_USAGE;
    }
    if (strncmp(db, "postgresql://", 13) != 0 && strncmp(db, "postgres://", 11) != 0) {
        cli_error("serve: --redis needs a postgresql:// --db: the nodes share one database "
                  "(an SQLite file serves one process)");
        return CLI_USAGE;
    }
    return CLI_OK;
}

int cmd_serve(int argc, char **argv)
{
    const char *node = NULL, *redis = NULL;
    int lease_seconds = 0;
    bool no_engine = false;
    char host[256] = "127.0.0.1", web[PATH_MAX];
    srv_config c = {.host = host, .port = 8080, .db = "damier.db", .engine_threads = 2};
    default_web(web, sizeof web);
    c.web = web;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(a, "--listen") == 0 || strcmp(a, "--db") == 0 ||
            strcmp(a, "--engine-threads") == 0 || strcmp(a, "--web") == 0 ||
            strcmp(a, "--max-games") == 0 || strcmp(a, "--games-per-minute") == 0 ||
            strcmp(a, "--max-per-address") == 0 || strcmp(a, "--node") == 0 ||
            strcmp(a, "--redis") == 0 || strcmp(a, "--lease-seconds") == 0) {
            if (!has_value) {
                cli_error("serve: %s needs a value", a);
                return CLI_USAGE;
            }
            const char *v = argv[++i];
            if (strcmp(a, "--listen") == 0 && parse_listen(v, host, sizeof host, &c.port) != 0)
                return CLI_USAGE;
            if (strcmp(a, "--db") == 0)
                c.db = v;
            if (strcmp(a, "--engine-threads") == 0 &&
                cli_number("serve", a, v, 1, SERVE_MAX_THREADS, &c.engine_threads) != 0)
                return CLI_USAGE;
            if (strcmp(a, "--web") == 0)
                c.web = v;
            if (strcmp(a, "--node") == 0)
                node = v;
            if (strcmp(a, "--redis") == 0)
                redis = v;
            if (strcmp(a, "--lease-seconds") == 0 &&
                cli_number("serve", a, v, 1, 3600, &lease_seconds) != 0)
                return CLI_USAGE;
            /* 0 on the command line is "no limit"; the config's 0 is the default. */
            int *limit = strcmp(a, "--max-games") == 0        ? &c.max_games
                         : strcmp(a, "--games-per-minute") == 0 ? &c.games_per_minute
                                                                : NULL;
            if (limit) {
                if (cli_number("serve", a, v, 0, 100000000, limit) != 0)
                    return CLI_USAGE;
                if (*limit == 0)
                    *limit = -1;
            }
            if (strcmp(a, "--max-per-address") == 0) {
                int max;
                if (cli_number("serve", a, v, 0, 1000000, &max) != 0)
                    return CLI_USAGE;
                c.max_per_address = max == 0 ? -1 : max; /* the config's 0 is the default */
            }
        } else if (strcmp(a, "--no-engine") == 0) {
            no_engine = true;
        } else {
            return cli_unknown_option("serve", a);
        }
    }
    int nodes = check_nodes(node, redis, c.db);
    if (nodes != CLI_OK)
        return nodes;
    if ((lease_seconds || no_engine) && !node) {
        cli_error("serve: %s is for a node among several (--node, --redis)",
                  no_engine ? "--no-engine" : "--lease-seconds");
        return CLI_USAGE;
    }
    c.node = node;
    c.redis = redis;
    c.lease_ms = lease_seconds * 1000;
    if (no_engine)
        c.engine_threads = 0;
    if (access(c.web, R_OK) != 0)
        fprintf(stderr, "damier: serve: no folder '%s': only the API is served\n",
                cli_quote(c.web));
    return srv_run(&c) == 0 ? CLI_OK : CLI_BAD_INPUT;
}
