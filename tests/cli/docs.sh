#!/bin/sh
# docs/variants.md is generated from the variant table: it must be current.
# Regenerate with: build/damier variants --markdown > docs/variants.md
set -u
if ! "$DAMIER_BIN" variants --markdown | diff -u docs/variants.md - ; then
    echo "docs/variants.md is out of date: run 'build/damier variants --markdown > docs/variants.md'"
    exit 1
fi
echo "docs/variants.md is current"
