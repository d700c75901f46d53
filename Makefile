# Two jobs from a clean clone: `make serve` (the kit for a class) and `make test` (the whole suite).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8888

.PHONY: serve test bench lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamp files make each install happen once, and again when pyproject.toml changes.
$(VENV)/.kit: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e ".[kit]"
	touch $@

$(VENV)/.test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e ".[test]"
	touch $@

$(VENV)/.bench: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e ".[bench]"
	touch $@

serve: $(VENV)/.kit
	$(BIN)/jupyter lab --no-browser --allow-root --ip=$(HOST) --port=$(PORT) \
		--ServerApp.port_retries=0 --notebook-dir=notebooks

test: $(VENV)/.test
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

bench: $(VENV)/.bench
	$(BIN)/python -m benchmarks

lint: $(VENV)/.test
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
