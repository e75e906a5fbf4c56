# Two entry points (see README): `make play` and `make test`. Both build .venv first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# `make play` installs the package alone; `make test` adds every extra, so CI tests them all.
TEST_EXTRAS ?= dev,rl,cluster

.PHONY: setup setup-play play test lint typecheck unit bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

setup: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[$(TEST_EXTRAS)]"

setup-play: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .

play: setup-play
	$(BIN)/ziggurat play kuhnah --players 3 --seats human,random,random

lint: setup
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: setup
	$(BIN)/mypy

unit: setup
	$(BIN)/python -m pytest -n 2 -p no:cacheprovider

test: lint typecheck unit

bench: setup
	$(BIN)/python benchmarks/throughput.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
