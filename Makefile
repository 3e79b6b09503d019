# Precompile Studio. `make run` and `make test` do all the set-up on a fresh machine
# (packaging/bootstrap.sh: Debian packages, the Python environment, the build).
BUILD ?= build
EXAMPLE ?= resources/examples/training_step.py
STUDIO = $(BUILD)/bin/precompile-studio

.PHONY: all build run test check bench fuzz clean format lint deb

all: build

build:
	@PS_BUILD_DIR=$(BUILD) bash packaging/bootstrap.sh

run: build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ] && $(STUDIO) --help 2>/dev/null | grep -q '^  open'; then \
		$(STUDIO) open $(EXAMPLE); \
	else \
		$(STUDIO) run $(EXAMPLE); \
	fi

# The test-only Python environment (packaging/test-env.sh: Model Explorer, xmlschema, junit-10.xsd)
# is made here, not by `build`: `make run` never needs it.
# Both torch environments (2.15 and 2.14) and both workers: the suites that run the worker run
# on each (ctest labels torch-2.15, torch-2.14). Workers come from warm pools in the build folder
# (docs/design/worker-pool.md), which end with the run.
POOL = $(abspath $(BUILD))/worker-pool
test:
	@PS_BUILD_DIR=$(BUILD) PS_TORCH_SERIES="2.15 2.14" bash packaging/bootstrap.sh
	@bash packaging/test-env.sh
	@cd $(BUILD) && PRECOMPILE_STUDIO_WORKER_POOL=$(POOL) ctest --output-on-failure -j2 --timeout 1200; \
		rc=$$?; bash $(CURDIR)/tests/support/stop_worker_pools.sh $(POOL); exit $$rc

# The fast loop: the unit suites only (ctest label `unit`: no worker, no torch, no Python
# embedded; the lint checks and the torch-free Python tests with them), about a minute of tests. `make test` stays the whole suite and what CI runs.
check: build
	@cd $(BUILD) && ctest -L unit --output-on-failure -j2 --timeout 300

# House style in place: clang-format on every C++ file, ruff's import order and fixes on the Python.
PYTHON_ENV = $(shell bash packaging/python-env-path.sh)
format:
	@bash tests/support/check_format.sh --fix
	@$(PYTHON_ENV)/bin/python -m ruff check --fix --quiet engine/python tests/python tests/bench tests/gallery tests/support tests/share tests/packaging

# House style checked, nothing changed: what `make test` checks first (cxx_format, js_lint,
# cxx_layers, python_lint).
lint:
	@bash tests/support/check_format.sh
	@bash tests/support/check_js.sh
	@python3 tests/support/check_layers.py
	@$(PYTHON_ENV)/bin/python -m ruff check engine/python tests/python tests/bench tests/gallery tests/support tests/share tests/packaging

bench: build
	@cmake --build $(BUILD) --target bench_all >/dev/null
	@bash tests/bench/run_all.sh $(BUILD)

# libFuzzer targets (tests/fuzz/, built with the engine's libraries by clang into $(FUZZ_BUILD),
# so the normal g++ build is unaffected; `make test` replays their seeds). Each runs
# FUZZ_SECONDS; a crash, leak or timeout fails.
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 2
FUZZ_TARGETS ?=
FUZZ_CXX ?= $(firstword $(shell command -v clang++-14 clang++ 2>/dev/null))

fuzz:
	@test -n "$(FUZZ_CXX)" || { echo "make fuzz needs clang++ (Debian: apt-get install clang-14 libclang-rt-14-dev)" >&2; exit 2; }
	@cmake -S . -B $(FUZZ_BUILD) -G Ninja -DPS_FUZZ=ON -DCMAKE_CXX_COMPILER=$(FUZZ_CXX) >/dev/null
	@cmake --build $(FUZZ_BUILD) --target fuzz_targets -j $(FUZZ_JOBS)
	@bash tests/fuzz/run_fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# The Debian package (cmake/Packaging.cmake: CPack's DEB generator) into $(BUILD)/packaging/:
# precompile-studio_VERSION-1_amd64.deb, VERSION from `git describe`.
deb: build
	@rm -f $(BUILD)/packaging/precompile-studio_*.deb
	@cmake --build $(BUILD) --target precompile-studio precompile-studio-workers ps_man_page
	@cd $(BUILD) && cpack -G DEB -B $(abspath $(BUILD))/packaging

clean:
	rm -rf $(BUILD)
