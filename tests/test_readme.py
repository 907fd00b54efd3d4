"""The README and the guide as a new user follows them: the quick start, the front
page's examples and short speed table, and the guide's API examples (every endpoint
has one, and each answers 200 as written)."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from kingsolve_api import create_app

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "guide"
BASE = "http://127.0.0.1:8000"


def section(title: str, path: Path = README) -> str:
    """The section ``## title`` of the README (or of ``path``), up to the next one."""
    text = path.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else None]


# --- the quick start ----------------------------------------------------------------------

def test_the_quick_start_runs_the_blocking_serve_last_and_says_so():
    quick = section("Quick start")
    commands = [line for line in re.search(r"```sh\n(.*?)```", quick, re.S).group(1).splitlines()
                if line.startswith("make ")]
    assert [c.split("#")[0].strip() for c in commands] == ["make test", "make serve"]
    assert "until Ctrl-C" in commands[-1]


def test_the_readme_and_the_makefile_give_one_profile_guided_build_cost():
    def figures(text: str) -> set[str]:
        return set(re.findall(r"profile-guided[^.]*?about (\d+) s", " ".join(text.split())))

    readme = figures(section("Quick start"))
    makefile = figures((ROOT / "Makefile").read_text(encoding="utf-8"))
    assert len(readme) == 1 and readme == makefile, (readme, makefile)


def test_the_core_design_document_keeps_its_measurements_in_the_results():
    # ext/README.md says what is searched, how and why; the dated record of what was
    # measured and tried lives in research/HISTORY.md.
    design = (ROOT / "ext" / "README.md").read_text(encoding="utf-8")
    assert len(design.splitlines()) < 300
    assert not re.search(r"\b20\d\d-\d\d-\d\d\b", design), "dates belong in research/HISTORY.md"
    assert "research/HISTORY.md" in design


# --- the Speed section: the current figures, their history in research/HISTORY.md ------

def tables(text: str) -> list[list[list[str]]]:
    """The Markdown tables of ``text``: rows of cells, the header first, no rule line
    (a table inside a fenced block is a program's output, not one of the page's)."""
    out, rows = [], []
    fenced = False
    for line in text.splitlines() + [""]:
        fenced ^= line.startswith("```")
        if line.startswith("|") and not fenced:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(set(c) <= set("-:") for c in cells):
                rows.append(cells)
        elif rows:
            out.append(rows)
            rows = []
    return out


def test_the_speed_page_is_one_current_table_each_figure_with_its_command():
    speed = (GUIDE / "speed.md").read_text(encoding="utf-8")
    assert not re.search(r"\b20\d\d-\d\d-\d\d\b", speed), "dates belong in research/HISTORY.md"
    [table] = tables(speed)
    assert table[0] == ["what", "figure", "command"]
    for what, figure, command in table[1:]:
        assert figure and (command.startswith("`") or command == "the same"), what
    assert "research/HISTORY.md" in speed


def test_the_front_page_is_short_with_a_speed_table_a_screen_holds():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 150
    speed = section("Speed")
    assert not re.search(r"\b20\d\d-\d\d-\d\d\b", speed), "dates belong in research/HISTORY.md"
    [table] = tables(speed)
    assert table[0] == ["what", "figure"] and len(table) <= 8
    assert all(len(line) <= 100 for line in speed.splitlines()), "lines a screen holds"
    assert "docs/guide/speed.md" in speed


def test_the_research_history_is_dated():
    text = (ROOT / "research" / "HISTORY.md").read_text(encoding="utf-8")
    entries = re.findall(r"^## (.*)$", text, re.M)
    assert entries and all(re.match(r"20\d\d-\d\d-\d\d: ", e) for e in entries), entries


# --- the API examples ---------------------------------------------------------------------

def example_block() -> str:
    """The shell block of the guide that shows every endpoint by example."""
    text = (GUIDE / "api-and-board.md").read_text(encoding="utf-8")
    start = text.index("Every endpoint by example")
    match = re.compile(r"```sh\n(.*?)```", re.S).search(text, start)
    assert match, "the guide's API examples have no ```sh block"
    return match.group(1)


def examples() -> list[tuple[str, str, str | None]]:
    """Each example as (method, path with query, body), read as the shell reads it."""
    out = []
    for line in example_block().splitlines():
        words = shlex.split(line, comments=True)
        if not words or words[0] not in ("post", "curl"):
            continue
        if words[0] == "post":
            assert len(words) == 3, line
            out.append(("POST", "/api/v1/" + words[1], words[2]))
        else:
            url = next(w for w in words if w.startswith("http"))
            assert url.startswith(BASE), line
            parts = urlsplit(url)
            out.append(("GET", parts.path + (f"?{parts.query}" if parts.query else ""), None))
    return out


EXAMPLES = examples()


def test_every_endpoint_and_choice_kind_has_an_example(client):
    document = client.get("/api/v1/openapi.json").get_json()
    documented = {(method.upper(), path) for path, ops in document["paths"].items() for method in ops}
    shown = {(method, path.split("?")[0]) for method, path, _ in EXAMPLES}

    def covered(method: str, template: str) -> bool:     # /variants/{name} by /variants/portuguese
        pattern = re.sub(r"\\{[^}]+\\}", "[^/]+", re.escape(template))
        return any(m == method and re.fullmatch(pattern, p) for m, p in shown)
    assert {(m, p) for m, p in documented if not covered(m, p)} == set(), \
        "endpoints without an example in the guide"
    kinds = document["components"]["schemas"]["ChoicesRequest"]["oneOf"]
    shown_kinds = {json.loads(body)["kind"] for _, path, body in EXAMPLES if path.endswith("/choices")}
    assert {k["properties"]["kind"]["const"] for k in kinds} == shown_kinds


# a table, a review or a choice of a full deal searches until its budget (2 s) is spent
SEARCHED_TO_BUDGET = ("/api/v1/table", "/api/v1/review", "/api/v1/choices")


@pytest.mark.parametrize("method, path, body", [
    pytest.param(m, p, b, id=f"{m} {p.split('?')[0]} {i}",
                 marks=pytest.mark.slow if p in SEARCHED_TO_BUDGET else ())
    for i, (m, p, b) in enumerate(EXAMPLES)])
def test_a_readme_example_answers_200(client, method, path, body):
    if method == "GET":
        resp = client.get(path)
    else:
        resp = client.post(path, data=body, content_type="application/json")
    assert resp.status_code == 200, resp.get_data(as_text=True)
    if resp.mimetype == "text/event-stream":
        text = resp.get_data(as_text=True)
        assert "event: done" in text and "event: error" not in text
    else:
        answer = resp.get_json()
        assert not (isinstance(answer, dict) and "error" in answer), answer


@pytest.mark.skipif(shutil.which("curl") is None or shutil.which("bash") is None,
                    reason="the guide's examples use bash and curl")
def test_the_readme_shell_lines_run_as_written():
    # The quick ones, through the guide's own post() and curl lines, against a server.
    from werkzeug.serving import make_server
    httpd = make_server("127.0.0.1", 0, create_app(), threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        lines = [line for line in example_block().splitlines()
                 if line.startswith(("post()", "post legal", "curl"))]
        script = "\n".join(lines).replace(BASE, f"http://127.0.0.1:{httpd.server_port}")
        run = subprocess.run(["bash", "-euc", script], capture_output=True, text=True, timeout=60)
    finally:
        httpd.shutdown()
        thread.join(10)
    assert run.returncode == 0, run.stderr
    # the openapi document is one long line among the others
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(answers) == len(lines) - 1
    assert answers[0]["to_move"] == "E" and answers[-1]["status"] == "ok"
    assert not any("error" in a for a in answers)
