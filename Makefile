# Two jobs from a clean clone: `make serve` (the dashboards for a class) and `make test` (the whole
# suite, browser tests included). `make lab` opens the notebooks in JupyterLab for a teacher.
#   make serve                       dashboards on http://127.0.0.1:8866/ (this machine only)
#   make serve HOST=0.0.0.0 PORT=80  dashboards for a class network
#   make serve POOL=4                keep 4 preheated kernels per dashboard (about 100 MB each)
#   make serve LESSON=01_rolling_dice CLASS=30
#                                    a lesson: 30 preheated kernels on that dashboard (README)
#   make serve DATA=/srv/henkit      the class pool (class.sqlite3) in that folder; default:
#                                    henkit's data folder, or HENKIT_CLASS_DB when it is set
#   make serve CERT=c.pem KEY=k.pem  HTTPS with the school's certificate and its key
#   make serve PLAIN=1               stock Voilà's workings (henkit's settings and template)
#   make serve KERNELS=60 PER_DEVICE=4
#                                    at most 60 kernels in all (default: what 3/4 of the memory
#                                    holds) and 4 open pages per device (default 6)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8866

.PHONY: serve lab test check lock browser postgresql bench handouts lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamp files make each install happen once, and again when pyproject.toml or the lock changes.
# Every Python package comes at the exact version requirements.lock gives (`make lock`).
$(VENV)/.kit: pyproject.toml requirements.lock | $(BIN)/python
	$(BIN)/pip install --quiet -c requirements.lock -e ".[kit]"
	touch $@

$(VENV)/.test: pyproject.toml requirements.lock | $(BIN)/python
	$(BIN)/pip install --quiet -c requirements.lock -e ".[test]"
	touch $@

$(VENV)/.bench: pyproject.toml requirements.lock | $(BIN)/python
	$(BIN)/pip install --quiet -c requirements.lock -e ".[bench]"
	touch $@

# Voilà with preheated kernels, idle culling and no silent port change: dashboards/voila.json.
# serve.sh creates the class pool first and checks LESSON, CLASS, POOL and FILL_DELAY.
serve: $(VENV)/.kit
	HOST=$(HOST) PORT=$(PORT) POOL=$(POOL) FILL_DELAY=$(FILL_DELAY) LESSON=$(LESSON) \
		CLASS=$(CLASS) DATA="$(DATA)" KERNELS=$(KERNELS) PER_DEVICE=$(PER_DEVICE) \
		CERT="$(CERT)" KEY="$(KEY)" PLAIN=$(PLAIN) HENKIT_PYTHON=$(CURDIR)/$(BIN)/python \
		dashboards/serve.sh

lab: $(VENV)/.kit
	$(BIN)/jupyter lab --no-browser --allow-root --ip=$(HOST) --port=$(PORT) \
		--ServerApp.port_retries=0 --notebook-dir=notebooks

# The browser tests drive Debian's Chromium (never a downloaded one): install it when missing.
browser: | $(BIN)/python
	@if [ ! -x /usr/bin/chromium ]; then \
		echo "make: /usr/bin/chromium is missing; installing Debian's chromium with apt-get"; \
		if [ "$$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi; \
		{ $$sudo apt-get update -qq && \
		  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq chromium; } \
			>$(VENV)/apt-chromium.log 2>&1 || { cat $(VENV)/apt-chromium.log; \
			echo "make: ERROR: could not install chromium; the browser tests need /usr/bin/chromium"; \
			exit 1; }; \
		test -x /usr/bin/chromium || { echo "make: ERROR: apt-get ran but /usr/bin/chromium is missing"; exit 1; }; \
	fi

# The class pool's tests start a throwaway PostgreSQL server of their own (initdb and pg_ctl in a
# temporary folder): install Debian's postgresql when missing, and keep apt from starting its
# service (a policy-rc.d saying no, for the install only).
postgresql:
	@if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then \
		echo "make: PostgreSQL's server is missing; installing Debian's postgresql with apt-get"; \
		if [ "$$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi; \
		policy=; if [ ! -e /usr/sbin/policy-rc.d ]; then policy=/usr/sbin/policy-rc.d; \
			printf '#!/bin/sh\nexit 101\n' | $$sudo tee $$policy >/dev/null && $$sudo chmod +x $$policy; fi; \
		{ $$sudo apt-get update -qq && \
		  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq postgresql; } \
			>$(VENV)/apt-postgresql.log 2>&1; status=$$?; \
		if [ -n "$$policy" ]; then $$sudo rm -f $$policy; fi; \
		if [ $$status != 0 ]; then cat $(VENV)/apt-postgresql.log; \
			echo "make: ERROR: could not install postgresql; the class pool tests need initdb and pg_ctl"; \
			exit 1; fi; \
		ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || { \
			echo "make: ERROR: apt-get ran but /usr/lib/postgresql/*/bin/pg_ctl is missing"; exit 1; }; \
	fi

test: $(VENV)/.test browser postgresql
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

# The edit-test loop: ruff and every test that needs no browser, no PostgreSQL and no notebook run.
check: $(VENV)/.test
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q -o addopts="-ra --strict-markers --import-mode=importlib" \
		-m "not browser and not postgres" tests

# New versions on purpose: the newest the registry has for pyproject.toml's ranges, locked in
# requirements.lock, installed, and the whole suite run on them.
lock: | $(BIN)/python
	$(BIN)/pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml --all-extras --universal --python-version 3.11 \
		--upgrade --no-header -o requirements.lock
	$(MAKE) test

bench: $(VENV)/.bench browser
	$(BIN)/python -m benchmarks

# The teacher pack as A4 PDFs (docs/teacher/build/): teacher pages, worksheets, rules sheets,
# printed by Chromium (which `browser` installs when missing).
handouts: $(VENV)/.kit browser
	$(BIN)/python docs/teacher/build.py --out docs/teacher/build

lint: $(VENV)/.test
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis docs/teacher/build
