"""The fixtures the test modules share: the API app and its test client, and the board
served over HTTP to headless Chromium.

Helpers that are not fixtures live in modules of their own beside the tests
(``contracts``, ``bruteforce``, ``golden``, ``api_answers``, ``board_page``), so that
no test module imports another.
"""

from __future__ import annotations

import shutil
import threading

import pytest

from kingsolve_api import create_app

import golden


def pytest_addoption(parser):
    parser.addoption("--write-golden", action="store_true",
                     help="solve every golden value by the brute force again and write "
                          "tests/data/golden-*.jsonl anew (make golden)")


def pytest_configure(config):
    if config.getoption("--write-golden"):
        if config.pluginmanager.hasplugin("xdist") and config.getoption("numprocesses", None):
            raise pytest.UsageError("--write-golden writes its files from one process: "
                                    "run it with -p no:xdist")
        golden.start_writing()


@pytest.hookimpl(tryfirst=True)          # before -m selects by the marks
def pytest_collection_modifyitems(items):
    # every test of a module that reads a golden table is what `make golden` runs
    for item in items:
        module = getattr(item, "module", None)
        if module is not None and any(isinstance(v, golden.Values) for v in vars(module).values()):
            item.add_marker(pytest.mark.golden)


def pytest_sessionfinish(session):
    if session.config.getoption("--write-golden"):
        golden.write_all()


@pytest.fixture
def app():
    """The API app with Flask's testing settings and the server's default limits."""
    return create_app({"TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def make_client():
    """A test client of an app made with the settings given, each a keyword:
    ``make_client(KINGSOLVE_MAX_MS=50)``."""
    def make(**config):
        return create_app(config).test_client()
    return make


# --- the board in headless Chromium (Debian's chromium and chromium-driver) -------------

@pytest.fixture(scope="module")
def board_app():
    """The app the board's browser tests serve; a module overrides it for other limits."""
    return create_app({"KINGSOLVE_MAX_MS": 10_000})


@pytest.fixture(scope="module")
def server(board_app):
    """The board's address, served over real HTTP on loopback from this process."""
    from werkzeug.serving import make_server
    httpd = make_server("127.0.0.1", 0, board_app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium driven by selenium; the test skips where either is missing."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    chromedriver = shutil.which("chromedriver")
    if not (chromium and chromedriver):
        pytest.skip("chromium and chromium-driver are not installed (make test installs them)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    from board_page import WAIT
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,1000", "--disable-extensions"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)
    driver.set_page_load_timeout(WAIT)
    yield driver
    driver.quit()
