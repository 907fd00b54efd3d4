"""Batch scaling: deals per second with 1 and 2 local workers and a Dask LocalCluster.

Every run answers the same seeded requests (one seat-solve of a full deal each) so
the rates compare; the ratio column is against the 1-worker run of this same
invocation.

    python research/scaling.py [--deals 40] [--variant italian] [--contract domino]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from kingsolve import Deal  # noqa: E402
from kingsolve.io.batch import run_batch  # noqa: E402


def make_requests(n: int, variant: str, contract: str) -> list[dict]:
    deck = 32 if variant == "russian" else 52
    return [{"id": i, "variant": variant, "contract": contract,
             "deal": Deal.random(seed=1000 + i, deck=deck).pbn(), "leader": "NESW"[i % 4],
             "seats": ["NESW"[i % 4]]} for i in range(n)]


def timed(label: str, inp: str, workdir: str, **kw) -> tuple[str, float, int]:
    out = os.path.join(workdir, f"{label.replace(' ', '_')}.jsonl")
    start = time.perf_counter()
    summary = run_batch(inp, out, **kw)
    return label, time.perf_counter() - start, summary.failed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--variant", default="italian")
    ap.add_argument("--contract", default="domino")
    ap.add_argument("--no-dask", action="store_true")
    args = ap.parse_args()
    reqs = make_requests(args.deals, args.variant, args.contract)
    with tempfile.TemporaryDirectory() as tmp:
        inp = os.path.join(tmp, "in.jsonl")
        with open(inp, "w") as fh:
            fh.writelines(json.dumps(r) + "\n" for r in reqs)
        runs = [timed("1 worker", inp, tmp, workers=1), timed("2 workers", inp, tmp, workers=2)]
        if not args.no_dask:
            try:
                from distributed import LocalCluster
            except ImportError:
                print("dask[distributed] not installed: LocalCluster run skipped", file=sys.stderr)
            else:
                with LocalCluster(n_workers=2, threads_per_worker=1,
                                  dashboard_address=None) as cluster:
                    runs.append(timed("dask LocalCluster 2x1", inp, tmp,
                                      scheduler=cluster.scheduler_address))
    base = runs[0][1]
    print(f"{args.deals} deals, {args.variant} {args.contract}, one seat-solve each, "
          f"{os.cpu_count()} cores")
    print(f"{'run':<24} {'seconds':>8} {'deals/s':>8} {'speed-up':>9} {'failed':>7}")
    for label, secs, failed in runs:
        print(f"{label:<24} {secs:8.2f} {args.deals / secs:8.2f} {base / secs:9.2f} {failed:7d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
