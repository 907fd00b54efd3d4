# The two commands of the README's quick start: `make serve` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check -q

.PHONY: serve test install-test install-serve bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip setuptools wheel Cython

install-serve: $(PY)
	$(PIP) install -e .

install-test: $(PY)
	$(PIP) install -e '.[test,dds]'

serve: install-serve
	$(VENV)/bin/kingsolve serve --host 127.0.0.1 --port 8000

test: install-test
	$(PY) -m pytest -n 2 -q

bench: install-test
	$(PY) benchmarks/compare.py

clean:
	rm -rf build $(VENV) kingsolve/*.so ext/*.c
