# Damier - build, test and run.
#
#   make            build build/damier
#   make check      build and run every test (installs what is missing first)
#   make check-asan the same tests built with -fsanitize=address,undefined
#   make run        install what is missing, build, start a game in the terminal
#   make bench      perft speed of every variant

BUILD    ?= build
CC       ?= cc
OPT      ?= -O3 -march=native
CFLAGS   ?= $(OPT) -g
# Error messages are cut to their buffer on purpose: no format-truncation
# (a GCC warning; clang has no such option and would stop on it).
IS_CLANG := $(findstring clang,$(shell $(CC) --version 2>/dev/null))
WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            $(if $(IS_CLANG),,-Wno-format-truncation)
ALLFLAGS := -std=c17 -D_POSIX_C_SOURCE=200809L $(WARN) -Iinclude -Isrc $(CFLAGS) $(SANITIZE)
LDLIBS   := -lpthread -lm

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

# Debian packages the build and the tests need; installed only when missing.
deps:
	@tools/deps.sh

check: deps
	$(MAKE) all-tests
	tools/run-tests.sh $(BUILD)

.PHONY: all-tests
all-tests: $(BUILD)/damier $(TESTS)

check-asan: deps
	$(MAKE) BUILD=build-asan OPT=-O1 SANITIZE="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" all-tests
	DAMIER_QUICK=1 tools/run-tests.sh build-asan

# The main job: a game in the terminal against the computer.
run: deps all
	$(BUILD)/damier play

bench: all
	$(BUILD)/damier bench perft

clean:
	rm -rf build build-asan

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)

# Coverage-guided fuzzing of the PDN reader (clang and libFuzzer; not part of
# check).  FUZZ_SECONDS bounds the run; the corpus starts from tests/pdn/corpus.
FUZZ_SECONDS ?= 60
.PHONY: fuzz-pdn
fuzz-pdn:
	$(MAKE) BUILD=build-fuzz CC=clang OPT=-O1 WARN="-Wall -Wextra -Werror -Wno-unknown-warning-option" \
	  SANITIZE="-fsanitize=fuzzer-no-link,address,undefined" build-fuzz/libdamier.a
	clang -std=c17 -g -O1 -Iinclude -fsanitize=fuzzer,address,undefined \
	  tests/fuzz/fuzz_pdn.c build-fuzz/libdamier.a -o build-fuzz/fuzz_pdn -lpthread
	mkdir -p build-fuzz/corpus
	build-fuzz/fuzz_pdn -max_total_time=$(FUZZ_SECONDS) build-fuzz/corpus tests/pdn/corpus/succeed tests/pdn/corpus/fail
