# SPDX-License-Identifier: MIT
#
# mk/hardening.mk - fuzzing and ThreadSanitizer (issue 12), included at the
# end of the Makefile.
#
# Every tests/fuzz/fuzz_<name>.c is a libFuzzer target for one reader of
# untrusted input; fuzz_http and fuzz_ws send theirs to a damier serve
# running in the target's process (tests/fuzz/fuzz_server.h).  The same file is also linked with tests/fuzz/replay.c
# into build/tests/test_fuzz_<name>, which `make check` (and check-asan)
# runs: it replays the seed corpus, so every input that once crashed stays a
# regression test without clang.
#
#   make fuzz        each target for FUZZ_SECONDS (60), one after the other
#   make fuzz-smoke  each target for FUZZ_SMOKE_SECONDS (15), as CI runs it
#   make fuzz-<name> one target for FUZZ_SECONDS
#   make check-tsan  the threaded tests under -fsanitize=thread

FUZZ_SECONDS       ?= 60
FUZZ_SMOKE_SECONDS ?= 15
FUZZ_BUILD         := build-fuzz
FUZZ_NAMES         := $(sort $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_BINS          := $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz_%)

# The seeds of each target: its own folder, and for the PDN reader the PDN
# test corpus besides.
fuzz_seeds = tests/fuzz/corpus/$(1) $(if $(filter pdn,$(1)),tests/pdn/corpus/succeed tests/pdn/corpus/fail)

# ---- replay in make check ---------------------------------------------------

FUZZ_REPLAY := $(FUZZ_NAMES:%=$(BUILD)/tests/test_fuzz_%)
all-tests: $(FUZZ_REPLAY)

$(BUILD)/tests/test_fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c tests/fuzz/fuzz.h $(BUILD)/libdamier.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(ALLFLAGS) -DFUZZ_SEEDS='"$(call fuzz_seeds,$*)"' tests/fuzz/replay.c $< \
	  $(BUILD)/libdamier.a -o $@ $(LDLIBS)

# ---- libFuzzer --------------------------------------------------------------

# The library is instrumented for coverage (fuzzer-no-link), the targets
# linked with libFuzzer's main.  Warnings clang lacks are not errors here.
FUZZ_MAKE := $(MAKE) BUILD=$(FUZZ_BUILD) CC=clang OPT=-O1 \
  WARN="-Wall -Wextra -Werror -Wno-unknown-warning-option" \
  SANITIZE="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all"

.PHONY: fuzz fuzz-smoke fuzz-build fuzz-bins check-tsan
fuzz-build:
	$(FUZZ_MAKE) fuzz-bins
fuzz-bins: $(FUZZ_BINS)

# (libdamier.a holds the server: the HTTP and WebSocket targets run it in a
# thread, so every target links its libraries.)
$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_BUILD)/libdamier.a
	@$(if $(Q),echo "  FUZZ    $@")
	$(Q)clang -std=c17 -D_POSIX_C_SOURCE=200809L -g -O1 -Iinclude -Isrc \
	  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  $< $(FUZZ_BUILD)/libdamier.a -o $@ $(LDLIBS)

# The server targets share their harness.
$(FUZZ_BUILD)/fuzz_http $(FUZZ_BUILD)/fuzz_ws $(BUILD)/tests/test_fuzz_http \
  $(BUILD)/tests/test_fuzz_ws: tests/fuzz/fuzz_server.h

# The PDN seeds are whole tournaments (up to 100 KB): new inputs are kept
# to 16 KB, a few games, so that the reader runs about fifty times a second
# rather than twenty (the seeds are read cut to that length too).
FUZZ_FLAGS_pdn := -max_len=16384

# One target for $(1) seconds: new inputs go to build-fuzz/corpus/<name>
# (the committed seeds are only read), a crash to build-fuzz/crash-<name>-*.
# -rss_limit_mb and -timeout make a leak or a hang a finding, not a stall.
fuzz_run = mkdir -p $(FUZZ_BUILD)/corpus/$(1) && \
  $(FUZZ_BUILD)/fuzz_$(1) -max_total_time=$(2) -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix=$(FUZZ_BUILD)/crash-$(1)- $(FUZZ_FLAGS_$(1)) \
    $(FUZZ_BUILD)/corpus/$(1) $(call fuzz_seeds,$(1))

fuzz: fuzz-build
	$(foreach n,$(FUZZ_NAMES),$(call fuzz_run,$(n),$(FUZZ_SECONDS)) &&) true

fuzz-smoke: fuzz-build
	$(foreach n,$(FUZZ_NAMES),$(call fuzz_run,$(n),$(FUZZ_SMOKE_SECONDS)) &&) true

fuzz-%: fuzz-build
	$(call fuzz_run,$*,$(FUZZ_SECONDS))

# ---- ThreadSanitizer --------------------------------------------------------

# The tests that run searches on threads: stop from another thread, two
# engines at once, pondering (test_engine); the Hub session's search thread
# (test_hub); DXP's two sides (test_dxp); matches searched in turn
# (test_play); and the Hub session in this process, its search thread
# stopped, ponder-hit and joined as the seed sessions of fuzz_hubsession say
# (test_fuzz_hubsession); the web server's loop in a thread of its own, its
# engine pool searching an analysis, stopped by srv_stop from the main
# thread (test_fuzz_http, test_fuzz_ws).  halt_on_error makes a race fail
# the test.
TSAN_TESTS := test_engine test_hub test_dxp test_play test_fuzz_hubsession test_fuzz_http \
  test_fuzz_ws
check-tsan: deps-check
	$(MAKE) BUILD=build-tsan OPT=-O1 SANITIZE="-fsanitize=thread -fno-omit-frame-pointer" \
	  build-tsan/damier $(TSAN_TESTS:%=build-tsan/tests/%)
	@set -e; for t in $(TSAN_TESTS); do echo "== build-tsan/tests/$$t"; \
	  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" DAMIER_QUICK=1 \
	  DAMIER_BIN=build-tsan/damier build-tsan/tests/$$t; done
	@# the endgame tables built and checked by four threads (test_threads)
	$(MAKE) BUILD=build-tsan OPT=-O1 SANITIZE="-fsanitize=thread -fno-omit-frame-pointer" \
	  build-tsan/tests/test_egdb
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" DAMIER_QUICK=1 \
	  DAMIER_TEST_FILTER=test_threads build-tsan/tests/test_egdb
	@# the bus between nodes on a Redis of its own (tests/cli/bus.sh)
	$(MAKE) BUILD=build-tsan OPT=-O1 SANITIZE="-fsanitize=thread -fno-omit-frame-pointer" \
	  build-tsan/tests/test_bus
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" DAMIER_BIN=build-tsan/damier \
	  sh tests/cli/bus.sh
	@# three nodes on PostgreSQL and Redis: the server's loop, bus thread
	@# and engine workers of TSan builds (tests/cli/nodes.sh)
	$(MAKE) BUILD=build-tsan OPT=-O1 SANITIZE="-fsanitize=thread -fno-omit-frame-pointer" \
	  build-tsan/tests/test_nodes
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" DAMIER_BIN=build-tsan/damier \
	  sh tests/cli/nodes.sh
	@echo "check-tsan: $(words $(TSAN_TESTS)) tests, the bus and three nodes clean"

clean: clean-hardening
.PHONY: clean-hardening
clean-hardening:
	rm -rf $(FUZZ_BUILD) build-tsan
