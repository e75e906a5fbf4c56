# Two entry points (see README): `make serve` and `make test`. Both build .venv first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# `make serve`/`make play` install the package alone; `make test` adds every extra, so CI tests them all.
TEST_EXTRAS ?= dev,rl,cluster,postgres,redis,fast,lab,parquet,train
# Debian packages the tests drive for real: Chromium (browser tests), PostgreSQL (database tests) and
# Redis (the scale-out tests' other notice carrier).
SYSTEM_PACKAGES ?= chromium postgresql redis-server
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: setup setup-play system serve play test lint typecheck unit bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

setup: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[$(TEST_EXTRAS)]"

setup-play: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .

# Installs what is missing of SYSTEM_PACKAGES with apt-get (as root, or through sudo).
system:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	command -v redis-server >/dev/null 2>&1 || missing="$$missing redis-server"; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  $$sudo apt-get install -y --no-install-recommends $$missing \
	    || { $$sudo apt-get update && $$sudo apt-get install -y --no-install-recommends $$missing; }; \
	fi

serve: setup-play
	$(BIN)/ziggurat serve --host $(HOST) --port $(PORT)

play: setup-play
	$(BIN)/ziggurat play kuhnah --players 3 --seats human,random,random

lint: setup
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks examples

typecheck: setup
	$(BIN)/mypy

unit: setup system
	$(BIN)/python -m pytest -n 2 -p no:cacheprovider

test: lint typecheck unit

bench: setup
	$(BIN)/python benchmarks/throughput.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
