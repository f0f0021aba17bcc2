# SPDX-License-Identifier: MIT
#
# mk/train.mk - the learned evaluation's weights (issue 10), included by
# the Makefile.
#
# Every data/weights/VARIANT.dmw is built into libdamier.a by mk/data.mk,
# so the binary runs from any directory.
#
#   make train VARIANT=international [GAMES=2000 NODES=4000 ROUNDS=1]
#       plays GAMES self-play games in all (resuming from the data in
#       $(TRAIN_CACHE)), fits the weights and writes
#       data/weights/VARIANT.dmw; ROUNDS > 1 rebuilds with the new weights
#       and plays GAMES more with them each round.

TRAIN_CACHE  ?= $(HOME)/.cache/damier/train
GAMES        ?= 2000
NODES        ?= 4000
ROUNDS       ?= 1

# The trainer: self-play, the quiet positions, the fit (tools/train).
$(BUILD)/damier-train: tools/train/train.c $(BUILD)/libdamier.a
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALLFLAGS) $< $(BUILD)/libdamier.a -o $@ $(LDLIBS)

.PHONY: train
train:
	@test -n "$(VARIANT)" || { echo "make train: VARIANT=id needed (damier variants)"; exit 2; }
	@r=1; while [ $$r -le $(ROUNDS) ]; do \
	  $(MAKE) --no-print-directory $(BUILD)/damier-train $(BUILD)/damier || exit 1; \
	  $(BUILD)/damier-train --variant $(VARIANT) --games $$(( $(GAMES) * $$r )) --nodes $(NODES) \
	    --cache $(TRAIN_CACHE) --out data/weights/$(VARIANT).dmw || exit 1; \
	  r=$$((r+1)); done

# tests/cli/train.sh runs the trainer.
all-tests: $(BUILD)/damier-train
