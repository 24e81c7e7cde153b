# Scorekeeper — the two commands are `make run` and `make test`.
SHELL := /bin/bash
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/scorekeeper
TEST_REDIS_URL ?= redis://127.0.0.1:6379/15

.PHONY: run test venv venv-dev services chromium axe lint typecheck pytest worker beat superuser backup demo messages bench faults faults-hosts prod-up prod-down clean screenshots

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

## PyICU (names sorted in each language's alphabet) compiles against Debian's ICU: install its headers when missing
ICU := @pkg-config --exists icu-i18n 2>/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	apt-get install -y -qq libicu-dev pkg-config g++ >/dev/null)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(ICU)
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(ICU)
	$(BIN)/pip install --quiet -e ".[dev]"
	touch $(VENV)/.installed $@

## the browser libraries (htmx, the partial plotly.js bundle) from npm, served from frontend/node_modules
BROWSER_DEPS := frontend/node_modules/.installed
$(BROWSER_DEPS): frontend/package.json
	@command -v npm >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null)
	npm install --prefix frontend --no-package-lock --no-audit --no-fund --loglevel=error
	touch $@

venv: $(VENV)/.installed $(BROWSER_DEPS)
venv-dev: $(VENV)/.installed-dev $(BROWSER_DEPS)

## make run: set up and serve the app on http://127.0.0.1:8000 (SQLite, Celery eager)
run: venv
	env -u DATABASE_URL -u REDIS_URL $(BIN)/python manage.py migrate --noinput
	env -u DATABASE_URL -u REDIS_URL $(BIN)/python manage.py load_demo
	env -u DATABASE_URL -u REDIS_URL $(BIN)/python manage.py runserver $(HOST):$(PORT)

## make test: set up everything the tests need and run the whole suite
test: venv-dev services chromium axe lint typecheck pytest

services:
	bash tests/ensure_services.sh

chromium:
	@command -v chromium >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)

## the accessibility checker the browser tests inject into pages (tests/browser/test_comfort.py), pinned
AXE_VERSION := 4.14.1
axe:
	@grep -qs '"version": "$(AXE_VERSION)"' tests/browser/.npm/node_modules/axe-core/package.json \
		|| npm install --prefix tests/browser/.npm --no-package-lock --no-audit --no-fund --loglevel=error axe-core@$(AXE_VERSION)

lint: venv-dev
	$(BIN)/ruff check .

typecheck: venv-dev
	$(BIN)/mypy

## pytest in two runs: the tests that stand alone on both cores (each xdist worker its own test database; the
## coverage gate is theirs), then one at a time those that drive Chromium, stop Redis or PostgreSQL, or run real
## Celery workers on the shared broker
PYTEST_ALONE := not browser and not faults and not services
pytest: venv-dev
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) CELERY_EAGER=1 \
		$(BIN)/pytest -n 2 --cov --cov-report=term -m "$(PYTEST_ALONE)" $(PYTEST_ARGS)
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) CELERY_EAGER=1 \
		$(BIN)/pytest -m "not ($(PYTEST_ALONE))" $(PYTEST_ARGS)

## make worker: a Celery worker for REDIS_URL (and the same DATABASE_URL as the web process)
worker: venv
	@test -n "$$REDIS_URL" || (echo "config error: REDIS_URL: set it (e.g. redis://127.0.0.1:6379/0) to run a worker" >&2; exit 2)
	$(BIN)/celery -A config worker --loglevel=INFO

beat: venv
	$(BIN)/celery -A config beat --loglevel=INFO

superuser: venv
	$(BIN)/python manage.py createsuperuser

## make backup: a checked copy of the database (DATABASE_URL) into var/backups/, keeping the newest 14
backup: venv
	$(BIN)/python manage.py backup

## make screenshots: the README's pictures (docs/img/), the app at 360 px light and dark, from a scratch demo database
screenshots: venv-dev chromium
	$(BIN)/python docs/screenshots.py

clean:
	rm -rf $(VENV) frontend/node_modules db.sqlite3 staticfiles .pytest_cache .mypy_cache .ruff_cache .coverage

## make bench: the benchmarks against the prod-up stack (wrk, valgrind, Lighthouse and Chromium), summary table last;
## BENCH_SKIP_STATS=1 leaves out the 1 000 000-round statistics benchmark (long: it generates its history once)
bench: venv-dev chromium
	@command -v wrk >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null)
	@command -v valgrind >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null)
	@test -f tests/benchmarks/.npm/node_modules/lighthouse/cli/index.js \
		|| npm install --prefix tests/benchmarks/.npm --no-audit --no-fund lighthouse@13.5.0
	bash tests/benchmarks/run_all.sh

## make faults: the fault tests at a larger scale; this one also restarts the shared PostgreSQL cluster
FAULTS_SCALE ?= 10
FAULTS_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/sk_faults
FAULTS_REDIS_URL ?= redis://127.0.0.1:6379/10
FAULTS_PG_RESTART ?= 1
faults: venv-dev services
	DATABASE_URL=$(FAULTS_DATABASE_URL) REDIS_URL=$(FAULTS_REDIS_URL) CELERY_EAGER=1 FAULTS_SCALE=$(FAULTS_SCALE) \
		FAULTS_PG_RESTART=$(FAULTS_PG_RESTART) $(BIN)/pytest tests/faults -m faults -p no:cacheprovider -q -s

## make faults-hosts: the multi-host layout of deploy/README.md in network namespaces on this machine (as root), with
## a web host, the worker and Redis killed under load; figures printed and written to var/drill/report.json
faults-hosts: venv-dev
	@command -v nft >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nftables >/dev/null)
	@command -v nginx >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null)
	@command -v curl >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq curl >/dev/null)
	bash tests/ensure_services.sh >/dev/null  # installs PostgreSQL and Redis when missing (their shared servers are not used)
	$(BIN)/python tests/faults/hosts_drill.py

## production-like stack on loopback (issue 8)
prod-up: venv
	bash deploy/prod_up.sh

prod-down:
	bash deploy/prod_down.sh
