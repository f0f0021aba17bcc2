# SPDX-License-Identifier: MIT
#
# mk/data.mk - the data files Damier generates and commits, built into
# libdamier.a by tools/embed.sh (.incbin, read at build time) so that the
# binary runs from any folder:
#   data/weights/VARIANT.dmw  the learned evaluation's weights
#                             (make train, mk/train.mk), read by
#                             pattern_embedded() (src/engine/pattern.h);
#   data/books/VARIANT.dmb    the opening books (damier book build), read
#                             by play_book_embedded() (src/play/play.h).
# How each file was made is in its folder's README.md and its own header.

# $(call embed,NAME,FUNCTION,HEADER,FILES): $(BUILD)/gen/NAME.o defining
# FUNCTION over FILES, in libdamier.a.  The list of files is rewritten
# only when it changes, so that a file taken away regenerates the C file.
define embed
$(BUILD)/gen/$(1).list: FORCE
	@mkdir -p $$(dir $$@)
	@echo '$(4)' | cmp -s - $$@ || echo '$(4)' >$$@

$(BUILD)/gen/$(1).c: $(BUILD)/gen/$(1).list $(4) tools/embed.sh
	@$$(if $$(Q),echo "  GEN     $$@")
	$$(Q)sh tools/embed.sh $(2) $(3) $(4) >$$@.tmp && mv $$@.tmp $$@

$(BUILD)/gen/$(1).o: $(BUILD)/gen/$(1).c $(4) src/$(3)
	@$$(if $$(Q),echo "  CC      $$<")
	$$(Q)$$(CC) $$(ALLFLAGS) -Wno-missing-prototypes -c $$< -o $$@

$(BUILD)/libdamier.a: $(BUILD)/gen/$(1).o
endef

WEIGHT_FILES := $(sort $(wildcard data/weights/*.dmw))
BOOK_FILES   := $(sort $(wildcard data/books/*.dmb))
$(eval $(call embed,weights,pattern_embedded,engine/pattern.h,$(WEIGHT_FILES)))
$(eval $(call embed,books,play_book_embedded,play/play.h,$(BOOK_FILES)))
