# Two entry points (see README): `make play` and `make test`. Both build .venv first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
EXTRAS ?= dev

.PHONY: setup play test lint typecheck unit bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

setup: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[$(EXTRAS)]"

play: setup
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
