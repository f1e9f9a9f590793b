# evreport: `make help` lists the targets. Everything runs from a local virtualenv (.venv).
BIN ?= .venv/bin
PY ?= $(BIN)/python
VENV_STAMP := .venv/.installed
VENV_BASE := .venv/.installed-base
EXAMPLE ?= examples/weekly-churn

.PHONY: help setup example examples-build test test-fast test-install lint typecheck format fixtures messages golden pages bench bench-peer clean
.DEFAULT_GOAL := help

help: ## list the targets
	@grep -hE '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-22s %s\n", $$1, $$2}'

# two stamps: evreport alone (what building a report needs), then the test extras on top
$(VENV_BASE): pyproject.toml
	python3 -m venv .venv
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	@touch $(VENV_BASE)

$(VENV_STAMP): $(VENV_BASE)
	$(BIN)/pip install --quiet -e ".[test,distributed]"
	@touch $(VENV_STAMP)

setup: $(VENV_STAMP) ## create .venv and install evreport with its test extras

example: $(VENV_BASE) ## set up, then build the weekly-churn example report (HTML, PDF, JSON, MD)
	$(BIN)/evreport build $(EXAMPLE)
	@echo "open $(EXAMPLE)/report/report.html or report.pdf"

examples-build: $(VENV_BASE) ## build the report of every example project
	@for d in examples/*/; do [ -f "$$d/evreport.toml" ] && $(BIN)/evreport build "$$d" || exit 1; done

test: lint ## set up, run ruff (lint and format check) and mypy, then the whole test suite (two workers)
	$(PY) -m pytest -n 2 --dist loadfile
	$(MAKE) --no-print-directory test-install

# test-fast leaves out what takes seconds per test: the install test, the layout matrix, the
# perf checks, PDFs and the PDF layout, Chromium, helper processes, real-process faults, MLflow servers and
# builds of every example (picked with pytest --durations; each still runs in make test)
FAST_SKIP := --ignore=tests/install --ignore=tests/layouts --ignore=tests/perf \
	--ignore=tests/render/test_parallel.py --ignore=tests/render/test_pdf.py \
	--ignore=tests/render/test_layout.py \
	--ignore=tests/render/test_screen.py --ignore=tests/batch/test_hostile_faults.py \
	--ignore=tests/batch/test_real_examples.py --ignore=tests/record/test_mlflow_stores.py \
	--ignore=tests/record/test_mlflow_cv.py \
	--deselect=tests/render/test_html.py::test_size_under_one_megabyte \
	--deselect=tests/render/test_html.py::test_every_example_renders \
	--deselect=tests/render/test_outputs.py::test_charts_drawn_in_a_helper_process_are_the_same \
	--deselect=tests/batch/test_grading_batch.py::test_real_builds_are_graded_from_their_report_json \
	--deselect=tests/batch/test_hostile_batch.py::test_hostile_submissions_beside_good_ones \
	--deselect=tests/test_fixtures.py::test_make_fixtures_writes_exactly_these_files \
	--deselect=tests/input/test_hostile.py::test_control_characters_in_names_do_not_kill_chart_drawing \
	--deselect=tests/record/test_mlflow_import.py::test_mlflow3_artifact_folder_named_as_a_file_store \
	--deselect=tests/batch/test_hostile_inputs.py::test_a_folder_of_more_than_10000_entries_costs_one_row \
	--deselect=tests/record/test_recorder.py::test_parallel_processes_lose_nothing

test-fast: $(VENV_STAMP) ## the unit tests without the slow ones (two workers; no lint): the loop while editing
	$(PY) -m pytest -n 2 --dist loadfile $(FAST_SKIP)

test-install: $(VENV_STAMP) ## build the wheel and sdist, pip-install each into a fresh venv, build and grade examples there
	EVREPORT_TEST_INSTALL=1 $(PY) -m pytest tests/install

lint: $(VENV_STAMP) ## ruff lint and format check, then typecheck
	$(BIN)/ruff check reportgen tests bench examples
	$(BIN)/ruff format --check reportgen tests bench examples
	$(MAKE) --no-print-directory typecheck

typecheck: $(VENV_STAMP) ## mypy over reportgen/ ([tool.mypy] in pyproject.toml)
	$(PY) -m mypy reportgen

format: $(VENV_STAMP) ## ruff format in place
	$(BIN)/ruff format reportgen tests bench examples

fixtures: $(VENV_STAMP) ## rebuild tests/fixtures/ from the examples through the real pipeline
	$(PY) tests/render/make_fixtures.py

messages: $(VENV_STAMP) ## extract every message (Babel) into reportgen/locale, merge into each .po, compile the .mo
	$(PY) -m reportgen.words.catalog

golden: $(VENV_STAMP) ## regenerate the golden HTML used by tests/render
	EVREPORT_UPDATE_GOLDEN=1 $(PY) -m pytest tests/render -q

pages: $(VENV_STAMP) ## PNG of every PDF page and of the HTML at 1280 and 390 px of every example, in build/pages/
	$(PY) tests/render/pages.py --out build/pages

bench: $(VENV_STAMP) ## run the benchmarks under bench/ (figures, not pass/fail), except bench-peer
	for f in bench/bench_*.py; do [ $$f = bench/bench_peer.py ] && continue; echo "== $$f"; $(PY) $$f || exit 1; done

bench-peer: $(VENV_STAMP) ## time the build against Evidently's HTML (PEER_CACHE=DIR: where its venv goes)
	@[ -n "$(PEER_CACHE)" ] || { echo "give PEER_CACHE=DIR (the peer's virtualenv is installed there once)"; exit 2; }
	$(PY) bench/bench_peer.py --cache "$(PEER_CACHE)"

clean: ## remove the virtualenv and caches
	rm -rf .venv .pytest_cache .ruff_cache .mypy_cache .hypothesis build *.egg-info

include Makefile.examples
