# reqrun: build, demo and tests. Every target installs what it needs first (scripts/install-deps).
.PHONY: all deps build demo test clean bench corpus man docs install release

all: build

deps:
	scripts/install-deps

build: deps
	swift build

# The main job on the sample workspace against a local httpbin (no internet needed).
demo: build
	scripts/demo

# The whole test suite against local test servers (httpbin, nginx, tinyproxy) that it starts and stops.
test: build
	scripts/test

clean:
	swift package clean

# Loads every Postman collection of DIR and prints one line per file (scripts/postman-corpus).
corpus: build
	scripts/postman-corpus $(DIR)

# Ratios against curl and Python measured side by side (release build with the Swift runtime linked in
# statically, which halves start-up, as a position-dependent executable, which saves 110,000 relocations
# at each start; nginx on 127.0.0.1).
bench: deps
	swift build -c release -Xswiftc -static-stdlib -Xlinker -no-pie
	scripts/bench

# The manual page, generated from the command specifications (as --help is); read it with man -l reqrun.1.
man: build
	.build/debug/reqrun --generate-man-page > reqrun.1.tmp && mv reqrun.1.tmp reqrun.1

# docs/cli-reference.md, generated from the command specifications; a test fails when the committed page
# differs from this output.
docs: build
	.build/debug/reqrun --generate-cli-reference > docs/cli-reference.md.tmp && mv docs/cli-reference.md.tmp docs/cli-reference.md

# make install PREFIX=DIR (default /usr/local; DESTDIR for packaging): the release binary in PREFIX/bin, the
# completions for bash, zsh and fish and the man page where those look for them. REQRUN=FILE installs that
# binary instead of building one (the tests install the debug build).
PREFIX ?= /usr/local
ifeq ($(origin REQRUN),undefined)
REQRUN := .build/release/reqrun
install: release
endif
install:
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d \
	  $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(REQRUN) $(DESTDIR)$(PREFIX)/bin/reqrun
	$(REQRUN) --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/reqrun
	$(REQRUN) --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_reqrun
	$(REQRUN) --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/reqrun.fish
	$(REQRUN) --generate-man-page > $(DESTDIR)$(PREFIX)/share/man/man1/reqrun.1
	chmod 644 $(DESTDIR)$(PREFIX)/share/bash-completion/completions/reqrun $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_reqrun \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/reqrun.fish $(DESTDIR)$(PREFIX)/share/man/man1/reqrun.1

# Only the reqrun product: not TestSupport, which a plain swift build -c release builds too.
release: deps
	swift build -c release --product reqrun
