"""Batch files: order, ids, errors, resuming after a kill, formats, workers."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import msgpack
import pytest

from kingsolve import Deal
from kingsolve.io.batch import answer, run_batch
from kingsolve_cli import main


def _requests(n: int = 12) -> list[dict]:
    out = []
    for i in range(n):
        out.append({"id": f"r{i}", "variant": "italian", "contract": "no-hearts",
                    "deal": Deal.random(seed=i).pbn(), "leader": "NESW"[i % 4],
                    "play": []})
    return out


def _write_jsonl(path, items) -> None:
    path.write_text("".join(json.dumps(x) + "\n" for x in items))


def _read_jsonl(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_responses_in_input_order_with_ids_echoed(tmp_path):
    reqs = _requests()
    _write_jsonl(tmp_path / "in.jsonl", reqs)
    summary = run_batch(str(tmp_path / "in.jsonl"), str(tmp_path / "out.jsonl"),
                        operation="legal", progress=False)
    out = _read_jsonl(tmp_path / "out.jsonl")
    assert [r["id"] for r in out] == [r["id"] for r in reqs]
    assert summary.solved == len(reqs) and summary.failed == 0
    # each response is the answer to its own request: the seat on move is the leader
    assert [r["to_move"] for r in out] == [q["leader"] for q in reqs]


def test_bad_lines_answered_with_errors_and_batch_goes_on(tmp_path):
    reqs = _requests(3)
    reqs[1]["deal"] = "N:AKQ"  # malformed deal
    text = "".join(json.dumps(x) + "\n" for x in reqs) + "{not json\n"
    (tmp_path / "in.jsonl").write_text(text)
    summary = run_batch(str(tmp_path / "in.jsonl"), str(tmp_path / "out.jsonl"),
                        operation="legal", progress=False)
    out = _read_jsonl(tmp_path / "out.jsonl")
    assert len(out) == 4
    assert out[1]["id"] == "r1" and out[1]["error"] == "parse" and "N:AKQ" in out[1]["message"]
    assert out[3]["error"] == "parse" and "line 4" in out[3]["message"]
    assert "error" not in out[0] and "error" not in out[2]
    assert summary.failed == 2 and summary.solved == 2


def test_resume_after_kill_gives_exactly_one_response_per_request(tmp_path):
    reqs = _requests(10)
    _write_jsonl(tmp_path / "in.jsonl", reqs)
    full = tmp_path / "full.jsonl"
    run_batch(str(tmp_path / "in.jsonl"), str(full), operation="legal", progress=False)
    # a run killed after four responses and half of the fifth
    lines = full.read_text().splitlines(keepends=True)
    partial = tmp_path / "out.jsonl"
    partial.write_text("".join(lines[:4]) + lines[4][: len(lines[4]) // 2])
    summary = run_batch(str(tmp_path / "in.jsonl"), str(partial), operation="legal",
                        progress=False)
    assert summary.skipped == 4 and summary.solved == 6
    assert partial.read_text() == full.read_text()


def test_resume_refuses_an_output_of_another_input(tmp_path):
    reqs = _requests(4)
    _write_jsonl(tmp_path / "in.jsonl", reqs)
    (tmp_path / "out.jsonl").write_text(json.dumps({"id": "other"}) + "\n")
    with pytest.raises(ValueError, match="does not match the input"):
        run_batch(str(tmp_path / "in.jsonl"), str(tmp_path / "out.jsonl"), operation="legal",
                  progress=False)


def test_msgpack_in_and_out(tmp_path):
    reqs = _requests(5)
    (tmp_path / "in.msgpack").write_bytes(b"".join(msgpack.packb(r) for r in reqs))
    run_batch(str(tmp_path / "in.msgpack"), str(tmp_path / "out.msgpack"), operation="legal",
              progress=False)
    out = list(msgpack.Unpacker(open(tmp_path / "out.msgpack", "rb"), raw=False))
    assert [r["id"] for r in out] == [r["id"] for r in reqs]
    assert out == [answer(r, "legal") for r in reqs]


def test_parallel_workers_match_serial_run(tmp_path):
    reqs = _requests(16)
    _write_jsonl(tmp_path / "in.jsonl", reqs)
    run_batch(str(tmp_path / "in.jsonl"), str(tmp_path / "a.jsonl"), operation="legal",
              progress=False)
    run_batch(str(tmp_path / "in.jsonl"), str(tmp_path / "b.jsonl"), operation="legal",
              workers=3, progress=False, executor_factory=lambda n: ThreadPoolExecutor(n))
    run_batch(str(tmp_path / "in.jsonl"), str(tmp_path / "c.jsonl"), operation="legal",
              workers=2, progress=False)
    a = (tmp_path / "a.jsonl").read_text()
    assert a == (tmp_path / "b.jsonl").read_text() == (tmp_path / "c.jsonl").read_text()


def test_dask_local_cluster_matches_local_run(tmp_path):
    distributed = pytest.importorskip("distributed")
    reqs = _requests(8)
    _write_jsonl(tmp_path / "in.jsonl", reqs)
    run_batch(str(tmp_path / "in.jsonl"), str(tmp_path / "local.jsonl"), operation="legal",
              progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        run_batch(str(tmp_path / "in.jsonl"), str(tmp_path / "dask.jsonl"), operation="legal",
                  scheduler=cluster.scheduler_address, progress=False)
    assert (tmp_path / "dask.jsonl").read_text() == (tmp_path / "local.jsonl").read_text()


def test_cli_batch_exit_code_says_some_failed(tmp_path, capsys):
    reqs = _requests(2)
    _write_jsonl(tmp_path / "in.jsonl", reqs)
    assert main(["batch", str(tmp_path / "in.jsonl"), "-o", str(tmp_path / "o.jsonl"),
                 "--operation", "legal"]) == 0
    assert "2 solved, 0 failed" in capsys.readouterr().err
    (tmp_path / "bad.jsonl").write_text('{"variant": "klondike"}\n')
    assert main(["batch", str(tmp_path / "bad.jsonl"), "-o", str(tmp_path / "o2.jsonl"),
                 "--operation", "legal", "-q"]) == 1
    assert "unknown variant 'klondike'" in (tmp_path / "o2.jsonl").read_text()
