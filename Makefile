# minodice — `make play` to play, `make test` to run the test suite.
# Everything installs into a local virtual environment (.venv) on first use.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
ARGS   ?=

.PHONY: play serve test test-slow test-research lint types docs dist screenshots bench lighthouse clean

# One stamp per set of extras: `make play` installs only what playing needs (no server, no test tools);
# `make serve` adds the server; `make test` everything the tests use.
$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "minodice needs Python 3.11 or newer (found " + sys.version.split()[0] + ")")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The stamps of `play` and `serve` also compile the kernels (`minodice warm`, about half a minute once), so
# that no game waits for them; a failure there only leaves them to compile, with a line, when first used.
$(VENV)/.stamp-play: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[fast]"
	-$(BIN)/minodice warm
	@touch $@

$(VENV)/.stamp-server: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[server]"
	-$(BIN)/minodice warm
	@touch $@

$(VENV)/.stamp-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test]"
	@touch $@

# axe-core for the accessibility tests (tests/test_web_a11y.py), pinned in tests/a11y/package-lock.json;
# the stamp lives in node_modules so that deleting that folder installs it again.
A11Y_STAMP := tests/a11y/node_modules/.stamp
$(A11Y_STAMP): tests/a11y/package.json tests/a11y/package-lock.json
	npm ci --prefix tests/a11y --no-audit --no-fund
	@touch $@

## play: set up and start a game in the terminal (pass options with ARGS="--bot random --seed 3")
# MINODICE_MAKE: the game's "Resume it with:" line then reads `make play ARGS="--resume FILE"`.
play: $(VENV)/.stamp-play
	MINODICE_MAKE=play $(BIN)/minodice play $(ARGS)

## serve: set up and start the browser server on http://127.0.0.1:8000/ (options in ARGS)
serve: $(VENV)/.stamp-server
	$(BIN)/minodice serve $(ARGS)

## test: set up, lint, check types, build the docs and the package, and run the test suite (slow runs excluded)
test: $(VENV)/.stamp-test $(A11Y_STAMP)
	$(BIN)/ruff check src tests benchmarks examples scripts research
	$(BIN)/lint-imports --no-logo
	$(BIN)/mypy
	@# Strict, and silent unless it fails: --quiet would drop the warnings before --strict counts them
	@# (MkDocs 1.6), so the log is kept and shown only on failure. NO_MKDOCS_2_WARNING: Material's
	@# end-of-life notice (docs/development.md).
	@echo 'mkdocs build --strict --site-dir $(VENV)/site'
	@log=$$(NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir $(VENV)/site 2>&1) || { printf '%s\n' "$$log"; exit 1; }
	$(MAKE) --no-print-directory dist
	$(BIN)/python -m pytest -q -n 2 -m "not slow" -p no:cacheprovider

## test-slow: the long runs too (10,000 games verified and rescored)
test-slow: $(VENV)/.stamp-test $(A11Y_STAMP)
	$(BIN)/python -m pytest -q -n 2 -p no:cacheprovider

## test-research: the tests of research/: its one-off benchmarks and the lab (not in `make test`: no product figure rests on them)
test-research: $(VENV)/.stamp-test
	$(BIN)/python -m pytest -q -n 2 -p no:cacheprovider research/tests

lint: $(VENV)/.stamp-test
	$(BIN)/ruff check src tests benchmarks examples scripts research
	$(BIN)/lint-imports --no-logo

## types: mypy over src/ (configured in pyproject.toml)
types: $(VENV)/.stamp-test
	$(BIN)/mypy

## docs: build the documentation site (MkDocs) into site/; `$(BIN)/mkdocs serve` to browse it live
docs: $(VENV)/.stamp-test
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

## dist: build the sdist and the wheel into dist/ and check them with twine
dist: $(VENV)/.stamp-test
	rm -rf dist
	$(BIN)/python -m build --quiet --outdir dist . > /dev/null
	$(BIN)/twine check --strict dist/*

## screenshots: refresh the README's pictures of the web client (docs/screenshots/): every screen, in headless Chromium
screenshots: $(VENV)/.stamp-test
	$(BIN)/python scripts/screenshots.py docs/screenshots

## bench: the benchmarks (installs open-spiel for the reference figures)
bench: $(VENV)/.stamp-test
	$(BIN)/python -m pip install --quiet -e ".[test,bench]"
	$(BIN)/python benchmarks/bench_startup.py
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_records.py
	$(BIN)/python benchmarks/bench_sim.py
	$(BIN)/python benchmarks/bench_vector.py

## lighthouse: Lighthouse's accessibility and best-practices scores of the web client (installs Lighthouse 12 with npm)
lighthouse: $(VENV)/.stamp-test
	$(BIN)/python benchmarks/bench_lighthouse.py $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis src/*.egg-info dist site build
	rm -rf tests/a11y/node_modules benchmarks/lighthouse/node_modules
