# Two commands for a fresh machine (Python 3.11 and make; no conda, no pre-made virtualenv):
#   make run    set up .venv and run the pipeline on the default (quick) profile
#   make test   set up .venv and run the test suite
# Options: make run PROFILE=paper CORES=16 OVERRIDES='["method.rf.params.n_estimators=500"]'
#   make report        rebuild every committed report (results/report/paper/) from the committed run records
#   make report-check  the same, and fail if any committed report changed (CI)
#   make docs          build the library's documentation strictly into docs/site/ (docs/mkdocs.yml)
#   make lint          ruff check and ruff format --check (configured in pyproject.toml; CI runs it)

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORES ?= 2
PROFILE ?= quick
OVERRIDES ?= []

.PHONY: setup run test lint report report-check snakemake-report docs clean

$(BIN)/.installed: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[test,docs]"
	touch $@

setup: $(BIN)/.installed

run: setup
	$(BIN)/snakemake --cores $(CORES) --config profile=$(PROFILE) overrides='$(OVERRIDES)'

test: setup
	$(BIN)/python -m pytest -n 2 --dist worksteal --durations=15 tests

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

report: setup
	$(BIN)/forestrepro reports --cores $(CORES)

report-check: setup
	$(BIN)/forestrepro reports --cores $(CORES) --check

docs: setup
	$(BIN)/python -m mkdocs build --strict -f docs/mkdocs.yml

snakemake-report: setup
	$(BIN)/snakemake --cores 1 --config profile=$(PROFILE) overrides='$(OVERRIDES)' --report results/snakemake-report-$(PROFILE).html

# everything the pipeline made except what is committed (the run records under results/runs/
# and the reports under results/report/paper/)
clean:
	rm -rf results/data results/tables results/logs results/report/quick results/snakemake_report figures/*/ .snakemake docs/site
	rm -rf results/runs/quick results/runs/*/specs results/runs/*/scans results/runs/*/config.yaml
