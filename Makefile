# Precompile Studio. `make run` and `make test` do all the set-up on a fresh machine
# (packaging/bootstrap.sh: Debian packages, the Python environment, the build).
BUILD ?= build
EXAMPLE ?= resources/examples/training_step.py
STUDIO = $(BUILD)/bin/precompile-studio

.PHONY: all build run test bench clean

all: build

build:
	@PS_BUILD_DIR=$(BUILD) bash packaging/bootstrap.sh

run: build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ] && $(STUDIO) --help 2>/dev/null | grep -q '^  open'; then \
		$(STUDIO) open $(EXAMPLE); \
	else \
		$(STUDIO) run $(EXAMPLE); \
	fi

test: build
	@cd $(BUILD) && ctest --output-on-failure -j2 --timeout 1200

bench: build
	@cmake --build $(BUILD) --target bench_all >/dev/null
	@bash tests/bench/run_all.sh $(BUILD)

clean:
	rm -rf $(BUILD)
