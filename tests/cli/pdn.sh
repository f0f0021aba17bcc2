#!/bin/sh
# SPDX-License-Identifier: MIT
# damier pdn check and convert on the sample files of tests/pdn: one line a
# game, errors with their line and reason, exit codes, and PDN written by
# convert read back by check with the same move counts.
. "$(dirname "$0")/common.inc"

# check: every game ok, exit 0.
"$DAMIER_BIN" pdn check tests/pdn/lidraughts.pdn tests/pdn/latin1.pdn >"$tmp/ok" ||
    fail "check of good files exits $?"
cat >"$tmp/want" <<'EOF'
tests/pdn/lidraughts.pdn:game 1 (anon1 - anon2): ok, 18 moves
tests/pdn/lidraughts.pdn:game 2 (Casual Frysk! game): ok, 8 moves
tests/pdn/lidraughts.pdn:game 3 (Casual Russian game): ok, 6 moves
tests/pdn/lidraughts.pdn:game 4 (Standard game from a position): ok, 3 moves
tests/pdn/latin1.pdn:game 1 (Müller, Jürgen - François): ok, 4 moves
pdn check: 2 files, 5 games, 39 moves, 0 failed
EOF
diff -u "$tmp/want" "$tmp/ok" || fail "check output"

# check: the bad games named with line and reason, the good ones still read,
# exit 1.
"$DAMIER_BIN" pdn check tests/pdn/broken.pdn >"$tmp/broken"
[ $? -eq 1 ] || fail "check of broken.pdn does not exit 1"
grep -qxF "tests/pdn/broken.pdn:game 7 (Broken 7: illegal move): line 24: at 2.: move '28-22' is illegal: a capture is compulsory (28x19)" "$tmp/broken" ||
    fail "the illegal move of game 7"
grep -qxF "tests/pdn/broken.pdn:game 11 (Broken 11: comment never closed): line 38: comment '{' opened on line 38 is never closed" "$tmp/broken" ||
    fail "the unclosed comment of game 11"
[ "$(grep -c ': ok, ' "$tmp/broken")" -eq 3 ] || fail "broken.pdn: not 3 good games"
[ "$(wc -l <"$tmp/broken")" -eq 13 ] || fail "broken.pdn: not 13 lines"
tail -n 1 "$tmp/broken" | grep -qxE 'pdn check: 1 file, 12 games, [0-9]+ moves, 9 failed' ||
    fail "broken.pdn: summary line: $(tail -n 1 "$tmp/broken")"

# Without tags the variant is guessed, and check says so; --variant decides.
printf '1. c3-d4 f6-g5 2. d4-c5 b6xd4 3. e3:c5 *\n' >"$tmp/russian.pdn"
"$DAMIER_BIN" pdn check "$tmp/russian.pdn" | grep -q ': ok, 5 moves (russian, guessed)$' ||
    fail "guess russian"
"$DAMIER_BIN" pdn check --variant brazilian "$tmp/russian.pdn" | grep -q ': ok, 5 moves$' ||
    fail "--variant brazilian"

# convert --to pdn, then check reads it back from stdin with the same counts.
"$DAMIER_BIN" pdn convert --to pdn tests/pdn/odd.pdn tests/pdn/cp1251.pdn >"$tmp/out.pdn" ||
    fail "convert --to pdn exits $?"
"$DAMIER_BIN" pdn check - <"$tmp/out.pdn" | sed 's/ (international, guessed)$//' | grep -v '^pdn check: ' >"$tmp/back"
cat >"$tmp/want" <<'EOF'
-:game 1 (A "quoted" name \ too - Bare "quotes" inside): ok, 9 moves
-:game 2 (Odd but readable 2): ok, 2 moves
-:game 3: ok, 4 moves
-:game 4 (Иванов И. - Петров П.): ok, 16 moves
EOF
diff -u "$tmp/want" "$tmp/back" || fail "convert --to pdn read back"
grep -qxF '[GameType "25,W,8,8,A0,0"]' "$tmp/out.pdn" || fail "GameType of the Russian game"
if awk '!/^\[/ && length($0) > 80 { bad = 1 } END { exit !bad }' "$tmp/out.pdn"; then
    fail "a movetext line longer than 80 characters"
fi

# convert --to fen: the final position of each game.
"$DAMIER_BIN" pdn convert --to fen tests/pdn/lidraughts.pdn >"$tmp/fen"
cat >"$tmp/want" <<'EOF'
W:W34-36,39-41,43-47,49,50:B1-6,8-10,13-15,20,22
W:W40,41,43,47,49:B4,6-8,10
W:Wa1,c1,e1,g1,b2,d2,f2,h2,c3,e3,h6:Ba3,d6,f6,a7,c7,e7,g7,b8,d8,f8,h8
B:W11,33:B
EOF
diff -u "$tmp/want" "$tmp/fen" || fail "convert --to fen"

# convert --to json: one object a line (docs/json.md), the moves in the
# same form as moves --json, with their comments.
"$DAMIER_BIN" pdn convert --to json tests/pdn/lidraughts.pdn >"$tmp/json"
[ "$(wc -l <"$tmp/json")" -eq 4 ] || fail "convert --to json: not 4 lines"
json '"$_->{file} $_->{game} $_->{variant} " . $j->encode($_->{guessed}) . " $_->{tags}{Event}"' "$tmp/json" | head -1 >"$tmp/got"
echo 'tests/pdn/lidraughts.pdn 1 frisian false Casual Frisian game' | diff -u - "$tmp/got" || fail "json game 1"
json '$_->{moves}[0]' "$tmp/json" | head -1 >"$tmp/got"
echo '{"captures":[],"comment":"[%clock w0:05:00 B0:05:00]","from":"32","notation":"32-28","path":["32","28"],"promotes":false,"to":"28"}' |
    diff -u - "$tmp/got" || fail "json moves"
json 'join " ", map { $j->encode($_) } grep { $_->{notation} eq "f4:h6" } @{$_->{moves}}' "$tmp/json" | sed -n 3p >"$tmp/got"
echo '{"captures":["g5"],"from":"f4","notation":"f4:h6","path":["f4","h6"],"promotes":false,"to":"h6"}' |
    diff -u - "$tmp/got" || fail "json captures"
json '$_->{end}{fen}' "$tmp/json" | sed -n 4p | grep -qxF 'B:W11,33:B' || fail "json: the end position of game 4"
# A game that fails is an error object in the output too.
"$DAMIER_BIN" pdn convert --to json tests/pdn/broken.pdn >"$tmp/json" 2>"$tmp/err"
json 'exists $_->{error} ? "$_->{game} $_->{line}" : ()' "$tmp/json" | grep -qxF '7 24' ||
    fail "json: no error object for game 7, line 24"
grep -qF 'game 7' "$tmp/err" || fail "json: game 7's error not on stderr"

# A file that cannot be read says why, with its name; a file with no game in
# it says so; the summary counts them as failed and the run goes on.
: >"$tmp/empty.pdn"
printf '{ only a comment }\n' >"$tmp/comment.pdn"
mkdir "$tmp/dir.pdn"
run pdn check "$tmp/missing.pdn" "$tmp/dir.pdn" "$tmp/empty.pdn" "$tmp/comment.pdn" tests/pdn/latin1.pdn
[ "$rc" -eq 1 ] || fail "pdn check of bad files: exit $rc, expected 1"
cat >"$tmp/want" <<EOF
damier: $tmp/missing.pdn: No such file or directory
damier: $tmp/dir.pdn: Is a directory
EOF
diff -u "$tmp/want" "$tmp/err" || fail "pdn check of unreadable files: stderr"
cat >"$tmp/want" <<EOF
$tmp/empty.pdn: no game in it
$tmp/comment.pdn: no game in it
tests/pdn/latin1.pdn:game 1 (Müller, Jürgen - François): ok, 4 moves
pdn check: 5 files, 1 game, 4 moves, 4 failed
EOF
diff -u "$tmp/want" "$tmp/out" || fail "pdn check of bad files"
# convert: the same reasons on stderr, and in the JSON output.
run pdn convert --to json "$tmp/missing.pdn" tests/pdn/latin1.pdn
[ "$rc" -eq 1 ] || fail "pdn convert of a missing file: exit $rc, expected 1"
grep -qxF "damier: $tmp/missing.pdn: No such file or directory" "$tmp/err" ||
    fail "pdn convert: the missing file on stderr: $(cat "$tmp/err")"
json '$_->{error} // "game $_->{game}"' "$tmp/out" >"$tmp/got"
printf 'No such file or directory\ngame 1\n' | diff -u - "$tmp/got" || fail "pdn convert --to json: a missing file"

# Bad usage exits 2, an unreadable file 1.
"$DAMIER_BIN" pdn convert tests/pdn/odd.pdn >/dev/null 2>&1
[ $? -eq 2 ] || fail "convert without --to does not exit 2"
"$DAMIER_BIN" pdn frobnicate >/dev/null 2>&1
[ $? -eq 2 ] || fail "an unknown pdn command does not exit 2"
"$DAMIER_BIN" pdn check "$tmp/no such file.pdn" >/dev/null 2>&1
[ $? -eq 1 ] || fail "a missing file does not exit 1"

finish
