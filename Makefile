# Two commands do everything on a fresh machine: `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Each job installs what it needs once, then only when pyproject.toml (or the npm lock) changes:
# serving needs the server extra (SQLite by default); the tests need every extra.
SERVE_STAMP := $(VENV)/.serve-stamp
TEST_STAMP := $(VENV)/.test-stamp
NODE_STAMP := node_modules/.ci-stamp
CHROMIUM := /usr/bin/chromium
NGINX := /usr/sbin/nginx
# Four workers on two cores: the server and browser tests mostly wait on betting windows and
# reveals (measured 2026-12-01: 467 CPU-s in 8 min 46 s with four workers; five starve the
# browser tests of CPU in their betting windows).
PYTEST_ARGS ?= -n 4 --dist loadfile
# Python's bytecode cache, kept out of the source tree (some machines set PYTHONDONTWRITEBYTECODE):
# without it every process of the suite (test workers, servers, CLI subprocesses) compiles the
# same sources again, and pytest rewrites every test module's asserts again.
export PYTHONDONTWRITEBYTECODE :=
export PYTHONPYCACHEPREFIX := $(CURDIR)/$(VENV)/pycache
# The browser table's ES modules, linted and type-checked as JavaScript (biome.json, jsconfig.json).
WEB_JS := src/baccarat/web/static/js

.PHONY: install serve serve-provider test lint typecheck pytest debs format bench bench-provider clean vendor

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(SERVE_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[server,device]'
	@touch $@

# Every extra includes the server's, so a test install serves too.
$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[all,test]'
	@touch $@ $(SERVE_STAMP)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

install: $(TEST_STAMP) $(NODE_STAMP)

# `make serve PORT=8080`, `make serve DB=postgresql://...`: each passed on only when set. The
# tables include a studio table dealt by the demo robot (`SERVE_TABLES=... STUDIO_ROBOT=` to
# choose others, or none). An Indonesian machine (the first of LC_ALL, LC_MESSAGES and LANG
# that is set is id_ID...), or `make serve LOCALE=id`, deals rupiah tables and shows the page
# in Bahasa Indonesia.
LOCALE ?= $(if $(filter id id_% in in_%,$(firstword $(LC_ALL) $(LC_MESSAGES) $(LANG))),id,en)
SERVE_TABLES_en = standard,no-commission,ez,standard:studio
SERVE_TABLES_id = standard-idr,no-commission-idr,ez-idr,standard-idr:studio
SERVE_TABLES ?= $(SERVE_TABLES_$(LOCALE))
STUDIO_ROBOT ?= $(if $(filter id,$(LOCALE)),standard-idr-studio,standard-studio)
serve: $(SERVE_STAMP)
	$(BIN)/baccarat serve --locale '$(LOCALE)' --tables '$(SERVE_TABLES)' $(if $(STUDIO_ROBOT),--studio-robot '$(STUDIO_ROBOT)') $(if $(PORT),--port '$(PORT)') $(if $(DB),--db '$(DB)')

# Provider mode on one machine: the game server beside the reference operator wallet, and a
# signed launch link for a rupiah player (deploy/provider-demo.sh).
serve-provider: $(SERVE_STAMP)
	BIN=$(BIN) $(if $(PORT),PORT='$(PORT)') deploy/provider-demo.sh

# The browser tests drive Debian's Chromium; the cluster tests run two nodes behind Debian's
# nginx with the shipped configuration (deploy/nginx); the studio video's tests make their HLS
# stream with ffmpeg. All are installed where missing and we are root, in one apt run (two at
# once would fight over dpkg's lock), and nginx is not left running as a service. Elsewhere
# those tests skip (unless BACCARAT_REQUIRE_SERVICES=1).
debs:
	@missing=""; \
	[ -x $(CHROMIUM) ] || missing="$$missing chromium"; \
	[ -x $(NGINX) ] || missing="$$missing nginx-light"; \
	command -v ffmpeg >/dev/null || missing="$$missing ffmpeg"; \
	if [ -n "$$missing" ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing Debian's$$missing for the tests"; \
		DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
		(service nginx stop || pkill -x nginx || true) >/dev/null 2>&1; \
	fi

lint: $(TEST_STAMP) $(NODE_STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/lint-imports --no-logo
	node_modules/.bin/biome ci $(WEB_JS)

typecheck: $(TEST_STAMP) $(NODE_STAMP)
	$(BIN)/mypy
	node_modules/.bin/tsc --project jsconfig.json

# The browser tests inject axe-core from node_modules (test_web_axe.py).
pytest: $(TEST_STAMP) $(NODE_STAMP) debs
	$(BIN)/pytest $(PYTEST_ARGS)

# The three at once: lint and type checks take about 20 CPU-seconds, and the suite leaves part of
# the second core idle while it waits on its servers and browsers. The installs they share run
# first, once.
test: $(TEST_STAMP) $(NODE_STAMP)
	$(MAKE) --no-print-directory -j3 lint typecheck pytest

# hls.js (a studio table's video where the browser has no HLS of its own) is served from the
# package, so `make serve` needs no npm: after changing its version in package.json (exact, then
# `npm install`), copy the pinned build and its licence here and commit them. test_web_video
# checks the copy is byte for byte node_modules' own.
VENDOR := src/baccarat/web/static/vendor
vendor: $(NODE_STAMP)
	cp node_modules/hls.js/dist/hls.min.mjs $(VENDOR)/hls.min.mjs
	cp node_modules/hls.js/LICENSE $(VENDOR)/hls.js.LICENSE

format: $(TEST_STAMP) $(NODE_STAMP)
	$(BIN)/ruff format src tests bench
	node_modules/.bin/biome format --write $(WEB_JS)

bench: $(TEST_STAMP)
	$(BIN)/python bench/run.py

# Provider mode's alone (bench_provider.py: bets through an operator's wallet beside the
# internal wallet, a slow operator beside a fast one; bench_provider_jepsen.py: the Jepsen-style
# test three times longer than `make test` plays it); `make bench` runs them with the rest.
bench-provider: $(TEST_STAMP)
	$(BIN)/python bench/run.py provider

clean:
	rm -rf $(VENV) node_modules .mypy_cache .ruff_cache .hypothesis .import_linter_cache .grimp_cache
