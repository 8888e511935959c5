PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test test-slow bench lint docs clean

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(PY) pyproject.toml
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP)

demo: $(STAMP)
	$(PY) examples/demo.py

test: $(STAMP)
	$(PY) -m pytest -n 2 -q

test-slow: $(STAMP)
	$(PY) -m pytest -n 2 -q -m slow

bench: $(STAMP)
	$(PY) -m benchmarks.bss
	$(PY) -m benchmarks.leverage
	$(PY) -m benchmarks.solvers
	$(PY) -m benchmarks.ridge
	$(PY) -m benchmarks.paths
	$(PY) -m benchmarks.l1svm_path
	$(PY) -m benchmarks.rs_weights
	$(PY) -m benchmarks.scale --threads 1

docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict   # the site: site/index.html

lint: $(STAMP)
	$(PY) -m ruff check sparsify solvers tests examples benchmarks docs

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
