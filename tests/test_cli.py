"""The command line as a whole: exit codes, closed pipes, interrupts, no tracebacks."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kingsolve_cli import COMMANDS, ExitCode, main
from kingsolve_cli.exit_codes import epilog, markdown_table

DEAL = "N:AQ74.K93.J82.T65 KJ2.QT754.A3.K84 T98.AJ86.KQ95.A2 653.2.T764.QJ973"
SMALL = "N:A2.K.. K3.Q.. Q4.J.. J5.T.."
GUIDE = Path(__file__).resolve().parent.parent / "docs" / "guide" / "command-line.md"


def test_help_and_readme_give_every_code_the_one_meaning(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    help_text = capsys.readouterr().out
    assert help_text.rstrip("\n").endswith(epilog())
    # each code's meaning in --help, unwrapped, is the table's without its Markdown
    paragraphs = re.findall(r"^ +(\d+)  (.*(?:\n {7}\S.*)*)", epilog(), re.M)
    assert {int(c): " ".join(t.split()) for c, t in paragraphs} == \
        {int(code): code.meaning.replace("`", "") for code in ExitCode}
    # the guide's table is the one made from ExitCode, row for row
    readme = GUIDE.read_text(encoding="utf-8") + "\n"
    start = readme.index("| code | meaning |")
    assert readme[start:readme.index("\n\n", start)] == markdown_table()
    assert f"| 4 | {ExitCode.BUDGET.meaning} |" in markdown_table()


# One bad input for each subcommand: every one exits with the same code and one line.
BAD_INPUT = {
    "legal": ["legal", "--variant", "klondike", "--contract", "no-queens", "--deal", DEAL],
    "solve": ["solve", "--variant", "italian", "--contract", "no-queens", "--deal", DEAL,
              "--play", "HZ"],
    "table": ["table", "--variant", "klondike", "--deal", DEAL],
    "batch": ["batch", "{tmp}/nope.jsonl", "-o", "{tmp}/out.jsonl"],
    "stats": ["stats", "{tmp}/nope.jsonl", "{tmp}/out.jsonl"],
    "serve": ["serve", "--port", "70000"],
    "review": ["review", "{tmp}/nope.kpbn"],
    "choices": ["choices", "trump", "--variant", "klondike", "--deal", SMALL],
    "hint": ["hint", "--variant", "italian", "--contract", "no-queens", "--seat", "E",
             "--hand", "AKQ.AK3.72.85432"],
    "bench": ["bench", "--quick", "--compare", "{tmp}/nope.json"],
}


def test_bad_input_cases_cover_every_subcommand():
    assert set(BAD_INPUT) == set(COMMANDS)


@pytest.mark.parametrize("command", sorted(BAD_INPUT))
def test_bad_input_exits_3_with_one_line(command, tmp_path, capsys):
    argv = [a.format(tmp=tmp_path) for a in BAD_INPUT[command]]
    assert main(argv) == ExitCode.BAD_INPUT == 3
    err = capsys.readouterr().err
    assert err.startswith(f"kingsolve {command}: error: ") and err.count("\n") == 1, err


def test_help_imports_no_analysis_and_the_library_no_web_layer():
    """``kingsolve --help`` loads the command line only; each command imports what it
    uses when it runs, and the whole library never imports the API."""
    probe = ("import contextlib, io, sys\n"
             "from kingsolve_cli import main\n"
             "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
             "    main(['--help'])\n"
             "print(' '.join(sorted(m for m in sys.modules if m.startswith('kingsolve'))))\n"
             "import kingsolve\n"
             "[getattr(kingsolve, name) for name in kingsolve.__all__]\n"
             "print(any(m.startswith('kingsolve_api') for m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         timeout=120, check=True).stdout.split("\n")
    loaded = set(out[0].split())
    # the package, its errors and the finder of its 0.2 module paths, nothing of the analysis
    package = {"kingsolve", "kingsolve._moved", "kingsolve.errors"}
    assert loaded - package == {f"kingsolve_cli.{m}" for m in (
        *COMMANDS, "args", "exit_codes", "terminal")} | {"kingsolve_cli"}, loaded
    assert out[1] == "False"


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["solve", "--no-such-flag"])
    assert stop.value.code == ExitCode.USAGE == 2
    assert main([]) == ExitCode.USAGE


@pytest.mark.parametrize("argv", [["solve", "--ms"], ["solve", "--ms=abc"], ["bogus"],
                                  ["choices", "-"], ["table", "--threads", "x"]])
def test_usage_errors_are_one_line(capsys, argv):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == ExitCode.USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("kingsolve") and "--help" in err, err


def test_budget_stop_exits_4(capsys):
    assert main(["solve", "--variant", "italian", "--contract", "no-queens", "--deal", DEAL,
                 "--nodes", "100"]) == ExitCode.BUDGET == 4
    assert "ended before a first estimate" in capsys.readouterr().err


def test_a_bug_is_one_line_not_a_traceback(monkeypatch, capsys):
    def broken(args):
        raise RuntimeError("boom")
    monkeypatch.setitem(COMMANDS, "legal", (broken, *COMMANDS["legal"][1:]))
    monkeypatch.delenv("KINGSOLVE_TRACEBACK", raising=False)
    assert main(["legal"]) == ExitCode.INTERNAL
    err = capsys.readouterr().err
    assert "internal error: RuntimeError: boom" in err and err.count("\n") == 1
    monkeypatch.setenv("KINGSOLVE_TRACEBACK", "1")
    with pytest.raises(RuntimeError):
        main(["legal"])


def test_interrupt_exits_130_quietly(monkeypatch, capsys):
    def interrupted(args):
        raise KeyboardInterrupt
    monkeypatch.setitem(COMMANDS, "legal", (interrupted, *COMMANDS["legal"][1:]))
    assert main(["legal"]) == ExitCode.INTERRUPTED == 130
    assert capsys.readouterr().err == ""


def test_a_closed_pipe_ends_quietly():
    """``kingsolve solve ... | head -c 30``: the reader is gone before the answer is written."""
    proc = subprocess.Popen([sys.executable, "-m", "kingsolve_cli", "solve", "--variant", "italian",
                             "--contract", "no-queens", "--deal", SMALL],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == ExitCode.BROKEN_PIPE
    assert err == ""


def _write_jsonl(path: Path, items: list) -> None:
    path.write_text("".join(json.dumps(x) + "\n" for x in items))


def test_a_batch_rerun_over_failures_still_exits_1(tmp_path, capsys):
    good = {"id": 1, "variant": "italian", "contract": "no-queens", "deal": SMALL}
    bad = {"id": 2, "variant": "klondike"}
    _write_jsonl(tmp_path / "in.jsonl", [good, bad])
    argv = ["batch", str(tmp_path / "in.jsonl"), "-o", str(tmp_path / "out.jsonl"),
            "--operation", "legal"]
    assert main(argv) == ExitCode.FAILED_ITEMS
    capsys.readouterr()
    assert main(argv) == ExitCode.FAILED_ITEMS        # nothing left to do, one failed before
    assert "2 already done (1 failed)" in capsys.readouterr().err


def test_budgets_and_files_that_make_no_sense_are_bad_input(tmp_path, capsys):
    assert main(["table", "--deal", SMALL, "--ms", "nan"]) == ExitCode.BAD_INPUT
    assert "invalid budget" in capsys.readouterr().err
    _write_jsonl(tmp_path / "in.jsonl", [{"id": 1, "variant": "italian"}])
    before = (tmp_path / "in.jsonl").read_text()
    assert main(["batch", str(tmp_path / "in.jsonl"), "-o", str(tmp_path / "in.jsonl")]) \
        == ExitCode.BAD_INPUT
    assert "is the input file" in capsys.readouterr().err
    assert (tmp_path / "in.jsonl").read_text() == before
