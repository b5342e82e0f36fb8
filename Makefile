# pe: set-up, docs, tests and benchmarks. Everything runs inside .venv, from requirements.lock.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
export NO_MKDOCS_2_WARNING := 1
export PYDEVD_DISABLE_FILE_VALIDATION := 1
export MPLBACKEND := Agg

.PHONY: install browser-tools docs serve test test-fast lint typecheck check-pages pytest bench dist frameworks mutants lock clean

install: $(STAMP) ## create .venv and install the pinned dependencies and pe (idempotent)

$(STAMP): requirements.lock pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
	  || { echo "pe needs Python >= 3.11 (found: $$($(PYTHON) --version))"; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	@# the distribution was named "pe" before "pe-sinusoidal": drop an old editable install
	$(BIN)/python -m pip uninstall --quiet --disable-pip-version-check -y pe 2>/dev/null || true
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	@touch $(STAMP)

NODE_STAMP := node_modules/.installed-stamp

browser-tools: $(NODE_STAMP) ## the browser tests' npm tools (Lighthouse, axe-core; package-lock.json) into node_modules/

$(NODE_STAMP): package.json package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
	  npm ci --no-audit --no-fund --ignore-scripts --loglevel=error && touch $@; \
	else echo "npm not found: the Lighthouse and axe-core tests skip (with CI set they fail)"; fi

docs: install ## build the executed site into site/ (strict: any warning fails)
	$(BIN)/mkdocs build --strict --clean

serve: docs ## build, then serve site/ on http://127.0.0.1:8000
	@echo "Serving the built site on http://127.0.0.1:8000 (Ctrl-C to stop)"
	$(BIN)/python -m http.server 8000 --bind 127.0.0.1 --directory site

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install
	$(BIN)/mypy

check-pages: install ## fail on any number, formula, quantifier or attribution in the pages' prose not rendered from pe nor attached to a claim
	$(BIN)/python -m pe.site.page_check docs

pytest: install browser-tools
	$(BIN)/python -m pytest

test: lint typecheck check-pages pytest ## lint, type-check (mypy --strict), check the pages' prose and run the whole test suite

test-fast: install ## the suite without the slow tests (site build, browser, built wheel), one worker per core: about 5 minutes on 2 cores
	$(BIN)/python -m pytest -m "not slow" --ignore=tests/site -n auto

bench: install ## speed and memory benchmarks, as ratios against baselines in the same run
	$(BIN)/python benchmarks/run.py

dist: install ## the sdist and the wheel of the distribution pe-sinusoidal, into dist/
	$(BIN)/python -m build --no-isolation --outdir dist .

FRAMEWORKS_STAMP := $(VENV)/.frameworks-stamp

frameworks: $(FRAMEWORKS_STAMP) ## the third-party code the real-code tests run (PyTorch, JAX, transformers, ...; pinned in .ci/real-code-requirements.txt)

$(FRAMEWORKS_STAMP): .ci/real-code-requirements.txt $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r .ci/real-code-requirements.txt
	@touch $@

mutants: install frameworks ## a random sample of Cosmic Ray's mutants of pe, each run against its tests in a copy; fails below 90 % killed
	@# PE_MUTANTS_SEED=N repeats a sample, PE_MUTANTS_SAMPLE=N sets its size;
	@# MUTANTS_ARGS="--since COMMIT" draws from the lines changed since COMMIT only
	$(BIN)/python tests/mutants/run.py $(MUTANTS_ARGS)

lock: ## re-pin every dependency from pyproject.toml into requirements.lock
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet hatchling editables -e '.[docs,dev]'
	.lock-venv/bin/python -m pip freeze --exclude-editable | grep -v -i '^pe\(-sinusoidal\)\?[= ]' > requirements.lock
	rm -rf .lock-venv

clean:
	rm -rf site dist .pytest_cache .mypy_cache .ruff_cache node_modules
