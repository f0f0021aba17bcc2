# SPDX-License-Identifier: MIT
#
# mk/data.mk - the data files Damier generates and commits, built into
# libdamier.a by tools/embed.sh so that the binary runs from any folder:
# the opening books data/books/VARIANT.dmb (damier book build; how each was
# made is in data/books/README.md and in the file's own header).

BOOK_FILES := $(sort $(wildcard data/books/*.dmb))

# The list of files, rewritten only when it changes, so that a file taken
# away regenerates the C file too.
$(BUILD)/gen/books.list: FORCE
	@mkdir -p $(dir $@)
	@echo '$(BOOK_FILES)' | cmp -s - $@ || echo '$(BOOK_FILES)' >$@

$(BUILD)/gen/books.c: $(BUILD)/gen/books.list $(BOOK_FILES) tools/embed.sh
	@$(if $(Q),echo "  GEN     $@")
	$(Q)sh tools/embed.sh play_book_embedded play/play.h $(BOOK_FILES) >$@.tmp && mv $@.tmp $@

$(BUILD)/gen/books.o: $(BUILD)/gen/books.c $(BOOK_FILES)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALLFLAGS) -Wno-missing-prototypes -c $< -o $@

$(BUILD)/libdamier.a: $(BUILD)/gen/books.o
