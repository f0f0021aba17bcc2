#!/bin/sh
# SPDX-License-Identifier: MIT
# store_pg.sh - the PostgreSQL store on a throwaway server of its own
# (tools/pg-test.sh): the store suite (tests/unit/test_store.c, whose
# PostgreSQL half is skipped without DAMIER_TEST_PG; here as the database
# owner of docs/deploy.md, no superuser) and the whole API
# suite (tests/unit/test_server.c, DAMIER_TEST_DB) as they run on SQLite;
# damier serve's refusals of a database it cannot use (exit 1, the reason
# named, never the password); and that tools/deps.sh installs what this
# needs.  Without PostgreSQL's server programs it says SKIP, unless
# DAMIER_REQUIRE_PG is set (CI), where that is a failure (servers.inc).
. "$(dirname "$0")/common.inc"
. "$(dirname "$0")/servers.inc"
build=$(dirname "$DAMIER_BIN")

echo " $("$root/tools/deps.sh" list-run) " | grep -q " libpq-dev " ||
    fail "tools/deps.sh run does not install libpq-dev"
echo " $("$root/tools/deps.sh" list-check) " | grep -q " postgresql " ||
    fail "tools/deps.sh check does not install postgresql"

# Refusals, which need no server.
run serve --listen 127.0.0.1:0 --db postgresql://damier:S3cretPw@127.0.0.1:1/damier
[ "$rc" -eq 1 ] || fail "serve on a port nobody listens on: exit $rc"
grep -q '^serve: database postgresql://damier@127.0.0.1:1/damier: cannot connect: .*Connection refused' "$tmp/err" ||
    fail "serve on a closed port: $(cat "$tmp/err")"
run serve --listen 127.0.0.1:0 --db 'postgresql://damier:S3cretPw@[::1/damier'
[ "$rc" -eq 1 ] || fail "serve on a bad URL: exit $rc"
grep -q '^serve: database: bad PostgreSQL URL: ' "$tmp/err" || fail "serve on a bad URL: $(cat "$tmp/err")"
grep -q S3cretPw "$tmp/err" && fail "an error shows the password: $(cat "$tmp/err")"

need_pg
url=$pg_url

# The store suite as docs/deploy.md sets the database up: a user that is
# no superuser and owns its database.
admin="${url%/damier_test}/postgres"
command psql -X -q "$admin" -c "CREATE ROLE damier LOGIN PASSWORD 'pa:ss@w/rd'" \
    -c "CREATE DATABASE damier OWNER damier ENCODING 'UTF8' TEMPLATE template0" ||
    fail "cannot create the user and database of docs/deploy.md"
owner=$(echo "$url" | sed 's|^postgresql://[^@]*@\([^/]*\)/.*|postgresql://damier:pa%3Ass%40w%2Frd@\1/damier|')
if ! DAMIER_TEST_PG=$owner "$build/tests/test_store" >"$tmp/store.out" 2>&1; then
    cat "$tmp/store.out"
    fail "the store suite fails on PostgreSQL"
fi
grep -q SKIP "$tmp/store.out" && fail "the store suite skipped tests with DAMIER_TEST_PG set"
if ! DAMIER_TEST_DB=$url "$build/tests/test_server" >"$tmp/server.out" 2>&1; then
    cat "$tmp/server.out"
    fail "the API suite fails on PostgreSQL"
fi

# pg-test.sh run: the command's status, and no server or folder left after it.
"$root/tools/pg-test.sh" run sh -c 'echo "$DAMIER_TEST_PG" >"$0"; psql -X -q -c "SELECT 1" "$DAMIER_TEST_PG" >/dev/null && exit 3' "$tmp/run-url"
[ $? -eq 3 ] || fail "tools/pg-test.sh run: not the command's exit status, or no server"
command psql -X -q -c "SELECT 1" "$(cat "$tmp/run-url")" >/dev/null 2>&1 &&
    fail "tools/pg-test.sh run left its server running"

# A wrong password: refused by the server, the password kept out of the message.
wrong=$(echo "$url" | sed 's|^\(postgresql://postgres:\)[^@]*@|\1Wr0ngPw@|')
run serve --listen 127.0.0.1:0 --db "$wrong"
[ "$rc" -eq 1 ] || fail "serve with a wrong password: exit $rc"
grep -q 'password authentication failed for user "postgres"' "$tmp/err" ||
    fail "serve with a wrong password: $(cat "$tmp/err")"
grep -q Wr0ngPw "$tmp/err" && fail "an error shows the password: $(cat "$tmp/err")"
finish
