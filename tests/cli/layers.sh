#!/bin/sh
# SPDX-License-Identifier: MIT
# layers.sh - tools/check-layers.sh passes on this tree, and in a small tree
# made for the purpose catches an include that reaches up a layer and a
# front end (tui, proto, server, cli) including another layer's internal
# header, in "..." or <...> form, while letting through what is allowed:
# public headers, base/, the front end's own folder, the front ends below
# it, system headers.
. "$(dirname "$0")/common.inc"

root=$(cd "$(dirname "$0")/../.." && pwd)
out=$("$root/tools/check-layers.sh" 2>&1) || fail "the layer check fails on this tree: $out"

t=$tmp/tree
mkdir -p "$t/src/rules" "$t/src/engine" "$t/src/tui" "$t/src/proto" "$t/src/server" \
    "$t/src/cli" "$t/include/damier"
# Allowed.
printf '#include "damier/rules.h"\n#include "base/bits.h"\n#include <stdio.h>\n' >"$t/src/rules/ok.c"
printf '#include "damier.h"\n#include "damier/game.h"\n#include "base/text.h"\n#include "tui/tui.h"\n#include <sys/ioctl.h>\n#include <stdio.h>\n' >"$t/src/tui/ok.c"
printf '#include "damier.h"\n#include "tui/tui.h"\n#include "proto/hub.h"\n#include "server/server.h"\n#include "cli/cli.h"\n' >"$t/src/cli/ok.c"
printf '#include "helper.h"\n' >"$t/src/server/ok.c"
# Reported.
printf '#include "rules/variant.h"\n#include "notation/notation.h"\n' >"$t/src/engine/up.c"
printf '#include "damier/game.h"\n' >"$t/include/damier/rules.h"
printf '#include "tui/tui.h"\n#include "rules/variant.h"\n  #  include <game/game.h>\n#include "play/play.h"\n' >"$t/src/tui/board.c"
printf '#include "damier.h"\n#include "engine/engine.h"\n' >"$t/src/proto/hub.c"
printf '#include "notation/pdn.h"\n#include "cli/cli.h"\n' >"$t/src/server/api.c"
printf '#include "cli/cli.h"\n#include <rules/geometry.h>\n' >"$t/src/cli/main.c"

out=$("$root/tools/check-layers.sh" "$t" 2>&1)
status=$?
[ "$status" -eq 1 ] || fail "a tree with forbidden includes: exit $status, expected 1"
internal() { # file line header layer front-end
    echo "$1:$2: the $5 front end includes \"$3\", an internal header of the $4 layer (use the public API: damier.h, damier/*.h)"
}
{
    echo 'src/engine/up.c:2: the engine layer includes "notation/notation.h" (notation layer)'
    echo 'include/damier/rules.h:1: the rules layer includes "damier/game.h" (game layer)'
    internal src/tui/board.c 2 rules/variant.h rules tui
    internal src/tui/board.c 3 game/game.h game tui
    internal src/tui/board.c 4 play/play.h play tui
    internal src/proto/hub.c 2 engine/engine.h engine proto
    internal src/server/api.c 1 notation/pdn.h notation server
    echo 'src/server/api.c:2: the server layer includes "cli/cli.h" (cli layer)'
    internal src/cli/main.c 2 rules/geometry.h rules cli
} >"$tmp/expected"
echo "$out" >"$tmp/got"
same_lines "the reports on the made-up tree" "$tmp/expected" "$tmp/got"

finish
