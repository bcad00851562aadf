# reqrun: build, demo and tests. Every target installs what it needs first (scripts/install-deps).
.PHONY: all deps build demo test clean bench corpus

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
