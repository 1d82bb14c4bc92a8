# minodice — `make play` to play, `make test` to run the test suite.
# Everything installs into a local virtual environment (.venv) on first use.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
ARGS   ?=

.PHONY: play serve test test-slow lint bench clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "minodice needs Python 3.11 or newer (found " + sys.version.split()[0] + ")")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	@touch $(STAMP)

## play: set up and start a game in the terminal (pass options with ARGS="--bot random --seed 3")
play: $(STAMP)
	$(BIN)/minodice play $(ARGS)

## serve: set up and start the browser server on http://127.0.0.1:8000/ (options in ARGS)
serve: $(STAMP)
	$(BIN)/minodice serve $(ARGS)

## test: set up, lint, and run the test suite (slow 10,000-game runs excluded)
test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/lint-imports --no-logo
	$(BIN)/python -m pytest -q -n 2 -m "not slow" -p no:cacheprovider

## test-slow: the long runs too (10,000 games verified and rescored)
test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 -p no:cacheprovider

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/lint-imports --no-logo

## bench: the benchmarks (installs open-spiel for the reference figures)
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[test,bench]"
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_records.py
	$(BIN)/python benchmarks/bench_sim.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis src/*.egg-info
