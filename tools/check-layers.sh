#!/bin/sh
# Checks that no source includes a header of a layer above its own
# (docs/architecture.md, "Layers").  A layer is a folder of src/ and the
# public header of the same name in include/damier/; damier.h is the whole
# public API, which only the front ends and the command line may include.
# Prints each offending include and exits 1 if there is one.  The tree to
# check is the argument (default: this repository).
cd "${1:-$(dirname "$0")/..}" || exit 2

# What each layer may include, itself among them.
allowed() {
    case $1 in
    base)     echo "base" ;;
    rules)    echo "base rules" ;;
    notation) echo "base rules notation" ;;
    engine)   echo "base rules engine" ;;
    game)     echo "base rules notation game" ;;
    play)     echo "base rules notation engine game play" ;;
    proto)    echo "base rules notation engine game play proto" ;;
    tui)      echo "base rules notation engine game play tui all" ;;
    server)   echo "base rules notation engine game play server all" ;;
    cli)      echo "base rules notation engine game play proto tui server cli all" ;;
    *)        echo "" ;;
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
    grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$1" |
        sed 's/^\([0-9]*\):.*"\(.*\)".*/\1 \2/' |
        while read -r line inc; do
            target=$(layer_of_include "$inc")
            [ -z "$target" ] && continue # a header beside the source
            case " $(allowed "$2") " in
            *" $target "*) ;;
            *) echo "$1:$line: the $2 layer includes \"$inc\" ($target layer)" ;;
            esac
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
echo "layers: every include stays within its layer or below"
