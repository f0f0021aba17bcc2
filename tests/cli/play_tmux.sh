#!/bin/sh
# The full-screen `damier play` test (tests/tui/tmux_play.sh), when tmux is
# installed (CI installs it); otherwise it is skipped with a notice.
if ! command -v tmux >/dev/null 2>&1; then
    echo "SKIP: tmux is not installed; the full-screen test did not run"
    exit 0
fi
exec sh "$(dirname "$0")/../tui/tmux_play.sh"
