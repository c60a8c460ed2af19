# zaria — see README.md. Every Go command uses -tags goolm (pure-Go olm for
# Matrix encryption) with cgo on (mattn/go-sqlite3).
GO       ?= go
TAGS     := goolm
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -X main.version=$(VERSION)
FUZZTIME ?=
export CGO_ENABLED := 1

# Where the test set-up puts the Dendrite homeserver and the Telegram emulator.
export ZARIA_DENDRITE_DIR ?= $(HOME)/.cache/zaria/dendrite-v0.13.8
# Where the test set-up installs Synapse (from ../shared/vendor, on Debian's
# python3 packages; see adapters/matrix/testdata/install-synapse.sh).
export ZARIA_SYNAPSE_DIR ?= $(HOME)/.cache/zaria/synapse-1.67.0

.PHONY: all build run test test-setup unit fuzz bench bench-compare bench-e2e lint clean

all: build

build:
	$(GO) build -tags $(TAGS) -ldflags '$(LDFLAGS)' -o bin/zaria ./cmd/zaria

run: build
	./bin/zaria

# test: everything — set-up of the test servers, every test with the race
# detector (they refuse to skip the real servers), then the fuzz targets for
# a bounded time.
test: test-setup unit fuzz

test-setup:
	@if [ -x adapters/matrix/testdata/build-dendrite.sh ]; then adapters/matrix/testdata/build-dendrite.sh; fi
	@if [ -x adapters/matrix/testdata/install-synapse.sh ]; then adapters/matrix/testdata/install-synapse.sh; fi
	@if [ -x adapters/telegram/testdata/emulator/setup.sh ]; then adapters/telegram/testdata/emulator/setup.sh; fi
	@if [ -x adapters/web/testdata/clients/setup.sh ]; then adapters/web/testdata/clients/setup.sh; fi

unit:
	ZARIA_REQUIRE_DENDRITE=1 ZARIA_REQUIRE_SYNAPSE=1 ZARIA_REQUIRE_EMULATOR=1 ZARIA_REQUIRE_CHROMIUM=1 $(GO) test -race -tags $(TAGS) -timeout 60m ./...

# fuzz: every fuzz target for a bounded number of runs (the parser and the
# whole router first; then the systems, the character commands, Telegram's
# HTML splitter, the folding fast paths and the import reader), each about
# 30 s on the CI machine. A count, not a duration: Go 1.26's fuzzing
# coordinator can fail a target with "context deadline exceeded" when a
# -fuzztime duration ends under load (go.dev/issue/75804, fixed in Go 1.27);
# a count never races a deadline. FUZZTIME=5m (or 1000x) overrides every
# target's budget for a longer local run.
FUZZ_TARGETS := FuzzParse:./core/dice/:1000000 FuzzDispatch:./cmd/zaria/:30000 \
	FuzzSystems:./core/systems/:90000 FuzzCommands:./core/sheet/:15000 \
	FuzzSplitHTML:./adapters/telegram/:90000 FuzzCleanFastPath:./core/fold/:2000000 \
	FuzzASCIIKey:./core/fold/:1500000 FuzzReadDoc:./core/transfer/:450000 \
	FuzzSystemFile:./core/systems/engine/:3000 FuzzFork:./core/systems/fork/:3000
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		name=$${t%%:*}; rest=$${t#*:}; pkg=$${rest%%:*}; budget=$(FUZZTIME); budget=$${budget:-$${rest##*:}x}; \
		echo "fuzz $$name ($$budget)"; \
		out=$$($(GO) test -tags $(TAGS) -run '^$$' -fuzz "^$$name$$" -fuzztime $$budget $$pkg 2>&1) \
			|| { echo "$$out"; exit 1; }; echo "$$out" | tail -n 1; \
	done

bench:
	$(GO) test -tags $(TAGS) -run '^$$' -bench . -benchmem ./...

# bench-compare: zaria's core against rpg-dice-roller and bcdice (npm, pinned),
# same expressions, same run; plus exact odds of the five systems.
bench-compare:
	bench/compare/run.sh

# bench-e2e: the real binary against the fake Bot API over loopback HTTP:
# 10,000 commands from 1,000 chats at Telegram's limits (~6 min), the same
# with limits lifted (capacity), and memory with 10,000 chats and 100,000
# characters in the database. E2EFLAGS passes flags (go run ./bench/e2e -h).
# BASE=<git ref> (make bench-e2e BASE=d796621) builds that ref too and runs
# each phase (capacity and memory unless E2EFLAGS names others) against
# both binaries in one run, printing every figure with its ratio to the
# base's.
bench-e2e: build
	$(GO) run -tags $(TAGS) ./bench/e2e -bin bin/zaria $(if $(BASE),-base $(BASE)) $(E2EFLAGS)

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet -tags $(TAGS) ./...

clean:
	rm -rf bin
