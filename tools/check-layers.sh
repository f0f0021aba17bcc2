#!/bin/sh
# Checks that no source includes a header of a layer above its own
# (docs/architecture.md, "Layers").  A layer is a folder of src/ and the
# public header of the same name in include/damier/; damier.h is the whole
# public API, which only the front ends (the command line among them) may
# include.
#
# The endgame tables (src/egdb) sit on base and rules; the engine probes them.
#
# The front ends (src/tui, src/proto, src/server, src/match, src/cli) are held to more:
# they reach the library layers (rules, notation, engine, game, play) only
# through the public API (damier.h, damier/*.h), never through an internal
# header such as "rules/variant.h"; besides that they may include base/
# headers, their own folder's, and those of the front ends below them (match:
# proto/, the Hub lines it speaks to engines; cli: all of them).  Both "..." and <...> includes are read; a <...>
# one is ours when its first folder is a layer's.
#
# Prints each offending include and exits 1 if there is one.  The tree to
# check is the argument (default: this repository).
cd "${1:-$(dirname "$0")/..}" || exit 2

# What each layer may include, itself among them.
allowed() {
    case $1 in
    base)     echo "base" ;;
    rules)    echo "base rules" ;;
    egdb)     echo "base rules egdb" ;;
    notation) echo "base rules notation" ;;
    engine)   echo "base rules egdb engine" ;;
    game)     echo "base rules notation game" ;;
    play)     echo "base rules notation egdb engine game play" ;;
    proto)    echo "base rules notation egdb engine game play proto all" ;;
    tui)      echo "base rules notation egdb engine game play tui all" ;;
    server)   echo "base rules notation egdb engine game play server all" ;;
    match)    echo "base rules notation egdb engine game play proto match all" ;;
    cli)      echo "base rules notation egdb engine game play proto tui server match cli all" ;;
    *)        echo "" ;;
    esac
}

is_layer() {
    case $1 in
    base | rules | egdb | notation | engine | game | play | proto | tui | server | match | cli | all) return 0 ;;
    *) return 1 ;;
    esac
}

is_front_end() {
    case $1 in
    tui | proto | server | match | cli) return 0 ;;
    *) return 1 ;;
    esac
}

# The layer a quoted include names: "rules/variant.h" and "damier/rules.h"
# are both the rules layer; "damier.h" is all of it.
layer_of_include() {
    case $1 in
    damier.h)   echo all ;;
    damier/*.h) basename "$1" .h ;;
    */*)        echo "${1%%/*}" ;;
    *)          echo "" ;;
    esac
}

check() { # file layer
    grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' "$1" |
        sed 's/^\([0-9]*\):[^<"]*\([<"]\)\([^>"]*\).*/\1 \2 \3/' |
        while read -r line form inc; do
            target=$(layer_of_include "$inc")
            [ -z "$target" ] && continue # a header beside the source
            if [ "$form" = "<" ] && ! is_layer "$target"; then
                continue # a system header such as <sys/ioctl.h>
            fi
            case " $(allowed "$2") " in
            *" $target "*) ;;
            *)
                echo "$1:$line: the $2 layer includes \"$inc\" ($target layer)"
                continue
                ;;
            esac
            case $inc in
            damier.h | damier/*.h) continue ;;
            esac
            if is_front_end "$2" && ! is_front_end "$target" && [ "$target" != base ]; then
                echo "$1:$line: the $2 front end includes \"$inc\", an internal header of" \
                    "the $target layer (use the public API: damier.h, damier/*.h)"
            fi
        done
}

out=$(
    for dir in src/*/; do
        layer=$(basename "$dir")
        for f in "$dir"*.c "$dir"*.h; do
            [ -f "$f" ] && check "$f" "$layer"
        done
    done
    for f in include/damier/*.h; do
        check "$f" "$(basename "$f" .h)"
    done
)
if [ -n "$out" ]; then
    echo "$out"
    exit 1
fi
echo "layers: every include stays within its layer or below, and the front ends use the public API"
