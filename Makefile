# evreport: `make help` lists the targets. Everything runs from a local virtualenv (.venv).
PY ?= .venv/bin/python
VENV_STAMP := .venv/.installed
VENV_BASE := .venv/.installed-base
EXAMPLE ?= examples/weekly-churn

.PHONY: help setup example examples-build test test-install lint format fixtures golden pages bench bench-peer clean
.DEFAULT_GOAL := help

help: ## list the targets
	@grep -hE '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-22s %s\n", $$1, $$2}'

# two stamps: evreport alone (what building a report needs), then the test extras on top
$(VENV_BASE): pyproject.toml
	python3 -m venv .venv
	.venv/bin/pip install --quiet --upgrade pip
	.venv/bin/pip install --quiet -e .
	@touch $(VENV_BASE)

$(VENV_STAMP): $(VENV_BASE)
	.venv/bin/pip install --quiet -e ".[test,distributed]"
	@touch $(VENV_STAMP)

setup: $(VENV_STAMP) ## create .venv and install evreport with its test extras

example: $(VENV_BASE) ## set up, then build the weekly-churn example report (HTML, PDF, JSON, MD)
	.venv/bin/evreport build $(EXAMPLE)
	@echo "open $(EXAMPLE)/report/report.html or report.pdf"

examples-build: $(VENV_BASE) ## build the report of every example project
	@for d in examples/*/; do [ -f "$$d/evreport.toml" ] && .venv/bin/evreport build "$$d" || exit 1; done

test: lint ## set up, run ruff (lint and format check), then the whole test suite (two workers)
	.venv/bin/python -m pytest -n 2 --dist loadfile
	$(MAKE) --no-print-directory test-install

test-install: $(VENV_STAMP) ## build the wheel and sdist, pip-install each into a fresh venv, build and grade examples there
	EVREPORT_TEST_INSTALL=1 .venv/bin/python -m pytest tests/install

lint: $(VENV_STAMP) ## ruff lint and format check
	.venv/bin/ruff check reportgen tests bench examples
	.venv/bin/ruff format --check reportgen tests bench examples

format: $(VENV_STAMP) ## ruff format in place
	.venv/bin/ruff format reportgen tests bench examples

fixtures: $(VENV_STAMP) ## rebuild tests/fixtures/ from the examples through the real pipeline
	$(PY) tests/render/make_fixtures.py

golden: $(VENV_STAMP) ## regenerate the golden HTML used by tests/render
	EVREPORT_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/render -q

pages: $(VENV_STAMP) ## PNG of every PDF page and of the HTML at 1280 and 390 px of every example, in build/pages/
	$(PY) tests/render/pages.py --out build/pages

bench: $(VENV_STAMP) ## run the benchmarks under bench/ (figures, not pass/fail), except bench-peer
	for f in bench/bench_*.py; do [ $$f = bench/bench_peer.py ] && continue; echo "== $$f"; .venv/bin/python $$f || exit 1; done

bench-peer: $(VENV_STAMP) ## time the build against Evidently's HTML (PEER_CACHE=DIR: where its venv goes)
	@[ -n "$(PEER_CACHE)" ] || { echo "give PEER_CACHE=DIR (the peer's virtualenv is installed there once)"; exit 2; }
	.venv/bin/python bench/bench_peer.py --cache "$(PEER_CACHE)"

clean: ## remove the virtualenv and caches
	rm -rf .venv .pytest_cache .ruff_cache .hypothesis build *.egg-info

include Makefile.examples
