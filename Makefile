# Two-command quick start: `make demo` and `make test` each create .venv on
# first use, install memplan into it and then do their job.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev
# One pytest worker per core, each taking whole test files (module-scoped
# fixtures, such as the planned torch fixtures, are then built once).
PYTEST_FLAGS ?= -q -n auto --dist loadfile

.PHONY: demo test lit pytest lint bench venv clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	PATH=$(CURDIR)/$(BIN):$$PATH bash examples/demo.sh

test: $(STAMP)
	$(BIN)/ruff check .
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/lit -v tests/filecheck
	$(BIN)/pytest $(PYTEST_FLAGS)

lit: $(STAMP)
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/lit -v tests/filecheck

pytest: $(STAMP)
	$(BIN)/pytest $(PYTEST_FLAGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/pyright

bench: $(STAMP)
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/python bench/packing.py
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/python bench/optimality.py
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/python bench/ladder.py
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/python bench/fragmentation.py
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/python bench/interpreter_speed.py
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/python bench/pass_scaling.py
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/python bench/placement.py
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/python bench/torch_models.py
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/python bench/tool_phases.py

clean:
	rm -rf $(VENV) build *.egg-info
