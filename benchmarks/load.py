"""Load benchmark of the real server: concurrent clients on loopback, p50/p99 and throughput.

By default it starts ``kingsolve serve`` on a free loopback port, runs each scenario with
a fixed number of requests and a time cap, prints a table and stops the server. With
``--url`` it measures a server that is already running (loopback addresses only).

    python benchmarks/load.py                       # 2 workers, 8 client threads
    python benchmarks/load.py --requests 400 --threads 16 --workers 4

Scenarios: ``/solve`` on mid-hand positions (Italian no-queens, 52 cards, 30 played),
``/solve`` on full deals (Russian no-queens, 32 cards, nothing played) and ``/legal`` as
the floor that the web stack alone costs. Positions vary by seed from request to request.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import math
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from kingsolve.deal import Deal
from kingsolve.request import position_from_request

POSITIONS = 16          # distinct positions per scenario


def mid_hand(seed: int) -> dict:
    req = {"variant": "italian", "contract": "no-queens", "deal": Deal.random(seed).pbn(), "leader": "N"}
    pos = position_from_request(req)
    for _ in range(30):
        pos.play(pos.legal_cards()[-1])
    return {**req, "play": [str(c) for c in pos.record]}


def full_deal(seed: int) -> dict:
    return {"variant": "russian", "contract": "no-queens", "deal": Deal.random(seed, deck=32).pbn(),
            "leader": "N"}


SCENARIOS = {
    "solve mid-hand (52 cards, 30 played)": ("/api/v1/solve", mid_hand),
    "solve full deal (32 cards)": ("/api/v1/solve", full_deal),
    "legal (web stack floor)": ("/api/v1/legal", mid_hand),
}


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    wall: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, status: int, seconds: float) -> None:
        with self.lock:
            self.latencies.append(seconds)
            self.statuses[status] = self.statuses.get(status, 0) + 1


def percentile(sorted_values: list[float], p: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[max(0, math.ceil(p * len(sorted_values)) - 1)]


def post(url: str, body: dict, timeout: float) -> int:
    req = urllib.request.Request(url, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            resp.read()
            return resp.status
    except urllib.error.HTTPError as err:
        err.read()
        return err.code
    except (urllib.error.URLError, OSError):
        return 0            # connection refused, reset or timed out


def run(url: str, bodies: list[dict], requests: int, threads: int, duration: float, timeout: float) -> Tally:
    tally = Tally()
    counter = iter(range(requests))
    counter_lock = threading.Lock()
    deadline = time.monotonic() + duration

    def client() -> None:
        while time.monotonic() < deadline:
            with counter_lock:
                i = next(counter, None)
            if i is None:
                return
            start = time.perf_counter()
            status = post(url, bodies[i % len(bodies)], timeout)
            tally.add(status, time.perf_counter() - start)

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=threads) as pool:
        for _ in range(threads):
            pool.submit(client)
    tally.wall = time.perf_counter() - start
    return tally


def check_loopback(url: str) -> None:
    host = urllib.parse.urlsplit(url).hostname or ""
    if host == "localhost":
        return
    try:
        if ipaddress.ip_address(host).is_loopback:
            return
    except ValueError:
        pass
    sys.exit(f"load.py: refusing {url!r}: only loopback addresses (127.0.0.0/8, ::1, localhost)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(workers: int) -> tuple[subprocess.Popen, str]:
    port = free_port()
    exe = Path(sys.executable).with_name("kingsolve")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "kingsolve"]
    proc = subprocess.Popen(cmd + ["serve", "--host", "127.0.0.1", "--port", str(port),
                                   "--workers", str(workers)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ})
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2):
                return proc, base
        except (urllib.error.URLError, OSError):
            if proc.poll() is not None:
                break
            time.sleep(0.2)
    proc.kill()
    sys.exit("load.py: the server did not start")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", help="a running server on loopback (default: start one)")
    ap.add_argument("--workers", type=int, default=2, help="server worker processes (default 2)")
    ap.add_argument("--threads", type=int, default=8, help="concurrent clients (default 8)")
    ap.add_argument("--requests", type=int, default=200, help="requests per scenario (default 200)")
    ap.add_argument("--duration", type=float, default=60, help="time cap per scenario, s (default 60)")
    ap.add_argument("--timeout", type=float, default=60, help="client timeout per request, s")
    args = ap.parse_args(argv)
    if not (1 <= args.threads <= 64 and 1 <= args.requests <= 100_000 and 0 < args.duration <= 600):
        ap.error("threads 1-64, requests 1-100000, duration up to 600 s")

    proc = None
    if args.url:
        check_loopback(args.url)
        base = args.url.rstrip("/")
    else:
        proc, base = start_server(args.workers)
    try:
        print(f"server {base}, {args.workers if proc else '?'} workers, {args.threads} client threads, "
              f"{args.requests} requests per scenario (cap {args.duration:g} s), {os.cpu_count()} cores")
        head = f"{'scenario':40} {'done':>5} {'2xx':>5} {'4xx':>4} {'5xx':>4} {'fail':>4} " \
               f"{'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'req/s':>7}"
        print(head)
        print("-" * len(head))
        total_5xx = 0
        for name, (path, make) in SCENARIOS.items():
            bodies = [make(1000 + i) for i in range(POSITIONS)]
            post(base + path, bodies[0], args.timeout)          # warm the workers
            t = run(base + path, bodies, args.requests, args.threads, args.duration, args.timeout)
            lat = sorted(x * 1000 for x in t.latencies)
            done = len(lat)
            by = {k: sum(n for s, n in t.statuses.items() if s // 100 == k) for k in (2, 4, 5)}
            fail = t.statuses.get(0, 0)
            total_5xx += by[5]
            print(f"{name:40} {done:5d} {by[2]:5d} {by[4]:4d} {by[5]:4d} {fail:4d} "
                  f"{percentile(lat, .5):8.1f} {percentile(lat, .99):8.1f} {lat[-1] if lat else 0:8.1f} "
                  f"{done / t.wall if t.wall else 0:7.1f}")
        print(f"5xx answers: {total_5xx}")
        return 1 if total_5xx else 0
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()


if __name__ == "__main__":
    sys.exit(main())
