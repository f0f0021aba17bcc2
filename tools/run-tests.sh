#!/bin/sh
# Runs every unit test binary of a build folder and the command-line tests,
# then prints one closing line "tests: N passed, N failed" (the form CI reads).
# DAMIER_QUICK=1 (sanitizer builds) trims the deepest perft runs.
build=${1:-build}
passed=0
failed=0
for t in "$build"/tests/test_*; do
    [ -x "$t" ] || continue
    echo "== $t"
    if DAMIER_BIN="$build/damier" "$t"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAILED: $t"
    fi
done
for t in tests/cli/*.sh; do
    [ -f "$t" ] || continue
    echo "== $t"
    if DAMIER_BIN="$build/damier" sh "$t"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAILED: $t"
    fi
done
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
