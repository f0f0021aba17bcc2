#!/bin/sh
# SPDX-License-Identifier: MIT
# layers.sh - tools/check-layers.sh passes on this tree, and catches an
# include that reaches up a layer in a small tree made for the purpose.
. "$(dirname "$0")/common.inc"

root=$(cd "$(dirname "$0")/../.." && pwd)
out=$("$root/tools/check-layers.sh" 2>&1) || fail "the layer check fails on this tree: $out"

mkdir -p "$tmp/tree/src/rules" "$tmp/tree/src/engine" "$tmp/tree/src/tui" "$tmp/tree/include/damier"
printf '#include "damier/rules.h"\n#include "base/bits.h"\n' >"$tmp/tree/src/rules/ok.c"
printf '#include "rules/variant.h"\n#include "notation/notation.h"\n' >"$tmp/tree/src/engine/up.c"
printf '#include "damier.h"\n#include "play/play.h"\n' >"$tmp/tree/src/tui/ok.c"
printf '#include "damier/game.h"\n' >"$tmp/tree/include/damier/rules.h"
out=$("$root/tools/check-layers.sh" "$tmp/tree" 2>&1)
status=$?
[ "$status" -eq 1 ] || fail "a tree with upward includes: exit $status, expected 1"
echo "$out" | grep -q 'src/engine/up.c:2: the engine layer includes "notation/notation.h"' ||
    fail "engine including notation not reported: $out"
echo "$out" | grep -q 'include/damier/rules.h:1: the rules layer includes "damier/game.h"' ||
    fail "public rules header including game not reported: $out"
[ "$(echo "$out" | wc -l)" -eq 2 ] || fail "expected exactly two reports, got: $out"

finish
