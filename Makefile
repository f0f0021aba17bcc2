# Damier - build, test and run.
#
#   make            build build/damier
#   make check      build and run every test (installs what building and
#                   testing need first: tools/deps.sh check)
#   make check-asan the same tests built with -fsanitize=address,undefined
#   make run        install what running needs (tools/deps.sh run), build,
#                   start the web app (damier serve: http://127.0.0.1:8080/)
#   make bench      perft speed of every variant

# The version, defined here only: `damier --version` prints it, with the
# commit (git describe) when the source is a git checkout.
VERSION  := 0.1.0
GIT_DESC := $(shell git describe --tags --always --dirty 2>/dev/null)
FULL_VERSION := $(VERSION)$(if $(GIT_DESC), (git $(GIT_DESC)))

BUILD    ?= build
CC       ?= cc
OPT      ?= -O3 -march=native
CFLAGS   ?= $(OPT) -g
# Error messages are cut to their buffer on purpose: no format-truncation
# (a GCC warning; clang has no such option and would stop on it).
IS_CLANG := $(findstring clang,$(shell $(CC) --version 2>/dev/null))
WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            $(if $(IS_CLANG),,-Wno-format-truncation)
# The web server (src/server) stands on libwebsockets, jansson, SQLite,
# libpq and hiredis (Debian's -dev packages, tools/deps.sh); the damier binary and the
# tests link them all, since libdamier.a holds the server too.
LWS_CFLAGS := $(shell pkg-config --cflags libwebsockets 2>/dev/null)
LWS_LIBS   := $(or $(shell pkg-config --libs libwebsockets 2>/dev/null),-lwebsockets)
PQ_CFLAGS  := $(or $(shell pkg-config --cflags libpq 2>/dev/null),-I/usr/include/postgresql)
PQ_LIBS    := $(or $(shell pkg-config --libs libpq 2>/dev/null),-lpq)
# hiredis: the bus between nodes (src/server/bus.c, Redis pub/sub).
REDIS_CFLAGS := $(shell pkg-config --cflags hiredis 2>/dev/null)
REDIS_LIBS   := $(or $(shell pkg-config --libs hiredis 2>/dev/null),-lhiredis)
LDLIBS   := $(LWS_LIBS) -ljansson -lsqlite3 $(PQ_LIBS) $(REDIS_LIBS) -lz -lpthread -lm
ALLFLAGS := -std=c17 -D_POSIX_C_SOURCE=200809L $(WARN) -Iinclude -Isrc $(LWS_CFLAGS) $(PQ_CFLAGS) $(REDIS_CFLAGS) $(CFLAGS) $(SANITIZE)

# Every module but the command-line front end goes into libdamier.a.
LIB_SRC  := $(sort $(filter-out src/cli/%,$(wildcard src/*/*.c)))
CLI_SRC  := $(sort $(wildcard src/cli/*.c))
TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
TESTS    := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all check check-asan run bench deps clean
all: $(BUILD)/damier

# One short line per step; V=1 shows the whole commands.
Q := $(if $(V),,@)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALLFLAGS) -MMD -MP -c $< -o $@

# main.c alone sees the version; it is rebuilt when the version changes
# (the stamp file is rewritten only then).
$(BUILD)/src/cli/main.o: ALLFLAGS += -DDAMIER_VERSION='"$(FULL_VERSION)"'
$(BUILD)/src/cli/main.o: $(BUILD)/version.stamp
$(BUILD)/version.stamp: FORCE
	@mkdir -p $(dir $@)
	@echo '$(FULL_VERSION)' | cmp -s - $@ || echo '$(FULL_VERSION)' >$@
.PHONY: FORCE
FORCE:

$(BUILD)/libdamier.a: $(LIB_OBJ)
	@$(if $(Q),echo "  AR      $@")
	$(Q)ar rcs $@ $^

$(BUILD)/damier: $(CLI_OBJ) $(BUILD)/libdamier.a
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALLFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c tests/unit/testutil.h $(BUILD)/libdamier.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(ALLFLAGS) -Itests/unit $< $(BUILD)/libdamier.a -o $@ -lcmocka $(LDLIBS)
$(BUILD)/tests/test_server $(BUILD)/tests/test_access $(BUILD)/tests/test_crash: tests/unit/srvclient.h

# Debian packages, installed only when missing: what building and running
# need (run), and on top of that what the tests need (check).
.PHONY: deps-run deps-check
deps: deps-check
deps-run:
	@tools/deps.sh run
deps-check:
	@tools/deps.sh check

check: deps-check
	$(MAKE) all-tests
	tools/run-tests.sh $(BUILD)

.PHONY: all-tests
all-tests: $(BUILD)/damier $(TESTS)

check-asan: deps-check
	$(MAKE) BUILD=build-asan OPT=-O1 SANITIZE="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" all-tests
	DAMIER_QUICK=1 tools/run-tests.sh build-asan

# The main job: the web app on its embedded defaults (damier.db in this
# folder, loopback, port 8080); it prints its address.
run: deps-run all
	$(BUILD)/damier serve

bench: all
	$(BUILD)/damier bench perft

clean:
	rm -rf build build-asan

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)

include mk/hardening.mk
include mk/data.mk
include mk/train.mk
