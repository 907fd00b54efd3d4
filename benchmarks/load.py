"""Load benchmark of the real server: concurrent clients on loopback, p50/p99 and throughput.

By default it starts ``kingsolve serve`` on a free loopback port, runs each scenario with
a fixed number of requests and a time cap, prints a table and stops the server. With
``--url`` it measures a server that is already running (loopback addresses only).

    python benchmarks/load.py                       # 2 workers, 8 client threads
    python benchmarks/load.py --requests 400 --threads 16 --workers 4

Scenarios: ``/solve`` on mid-hand positions (Italian no-queens, 52 cards, 30 played),
``/solve`` on full deals (Russian no-queens, 32 cards, nothing played) and ``/legal`` as
the floor that the web stack alone costs. Positions vary by seed from request to request.

``--mix`` runs the abuse mix instead: long searches on every worker, slow clients that
send headers and one byte of a body, a search queued behind the others with a short
budget, and health probes throughout. It reports the probes' latencies, the 5xx count
and how long the queued search took against its budget.

    python benchmarks/load.py --mix --duration 30
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

from kingsolve.game.deal import Deal
from kingsolve.io.request import position_from_request

POSITIONS = 16          # distinct positions per scenario
#: Every client of the benchmark is one loopback address: its per-client limits are
#: lifted, so that the server's capacity is what is measured.
UNLIMITED = ["--client-searches", "64", "--rate-limit", "none"]


def mid_hand(seed: int, played: int = 30) -> dict:
    req = {"variant": "italian", "contract": "no-queens", "deal": Deal.random(seed).pbn(), "leader": "N"}
    pos = position_from_request(req)
    for _ in range(played):
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


def status_of(req: "urllib.request.Request | str", timeout: float) -> int:
    """The status of one request, its answer read to the end; 0 when none came."""
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            resp.read()
            return resp.status
    except urllib.error.HTTPError as err:
        err.read()
        return err.code
    except (urllib.error.URLError, OSError):
        return 0            # connection refused, reset or timed out


def post(url: str, body: dict, timeout: float) -> int:
    return status_of(urllib.request.Request(url, data=json.dumps(body).encode(),
                                            headers={"Content-Type": "application/json"}),
                     timeout)


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


def start_server(workers: int, flags: list[str] = UNLIMITED) -> tuple[subprocess.Popen, str]:
    port = free_port()
    exe = Path(sys.executable).with_name("kingsolve")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "kingsolve_cli"]
    proc = subprocess.Popen(cmd + ["serve", "--host", "127.0.0.1", "--port", str(port),
                                   "--workers", str(workers), *flags],
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


# --- the abuse mix ------------------------------------------------------------------------

#: Deals whose search with 12 cards played takes 0.5 to 2 s on one core and finishes
#: (others of the same kind run into the node budget: a 503 by design).
LONG_SEEDS = [2001, 2002, 2004, 2007, 2009, 2010, 2013, 2014]


def long_solve(seed: int) -> dict:
    """A search of about a second on one core: 52 cards, 12 played, every seat, asked
    to finish (20 s: it waits in the queue that long at most, and proves its values)."""
    return {**mid_hand(seed, played=12), "ms": 20000}


def get(url: str, timeout: float) -> int:
    return status_of(url, timeout)


def slow_client(base: str, stop: float, tally: Tally) -> None:
    """Headers announcing 100 bytes, then ``{`` and nothing more, again and again."""
    parts = urllib.parse.urlsplit(base)
    head = (f"POST /api/v1/legal HTTP/1.1\r\nHost: {parts.netloc}\r\n"
            "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{").encode()
    while time.monotonic() < stop:
        start = time.perf_counter()
        status = 0
        try:
            with socket.create_connection((parts.hostname, parts.port), timeout=5) as sock:
                sock.sendall(head)
                sock.settimeout(max(0.1, stop - time.monotonic()))
                reply = sock.recv(64)
                if reply.startswith(b"HTTP/"):
                    status = int(reply.split()[1])
        except OSError:
            pass                # still held when the mix ends, or reset by the server
        tally.add(status, time.perf_counter() - start)


@dataclass
class MixResult:
    tallies: dict[str, Tally]
    queued_ms: float            # the queued search's budget

    @property
    def server_errors(self) -> int:
        """5xx answers to the long searches and the probes (the queued search may be 503)."""
        return sum(n for role, t in self.tallies.items() if role != "queued search"
                   for status, n in t.statuses.items() if status // 100 == 5)

    @property
    def health_failures(self) -> int:
        return self.tallies["health probe"].statuses.get(0, 0)


def run_mix(base: str, duration: float, long_clients: int = 4, slow_clients: int = 2,
            queued_ms: float = 3000, probe_every: float = 0.1, timeout: float = 60) -> MixResult:
    """Long searches, slow clients, a queued short-budget search and health probes at once."""
    tallies = {role: Tally() for role in ("long solve", "slow client", "queued search", "health probe")}
    stop = time.monotonic() + duration
    bodies = [long_solve(seed) for seed in LONG_SEEDS]
    counter = iter(range(10**9))

    def long_client() -> None:
        while time.monotonic() < stop:
            body = bodies[next(counter) % len(bodies)]
            start = time.perf_counter()
            tallies["long solve"].add(post(base + "/api/v1/solve", body, timeout), time.perf_counter() - start)

    def queued_client() -> None:
        time.sleep(min(1.0, duration / 4))          # behind the long searches
        while time.monotonic() < stop:
            body = {**bodies[next(counter) % len(bodies)], "ms": queued_ms}
            start = time.perf_counter()
            tallies["queued search"].add(post(base + "/api/v1/solve", body, timeout),
                                         time.perf_counter() - start)

    def prober() -> None:
        while time.monotonic() < stop:
            start = time.perf_counter()
            tallies["health probe"].add(get(base + "/healthz", timeout), time.perf_counter() - start)
            time.sleep(probe_every)

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=long_clients + slow_clients + 2) as pool:
        for _ in range(long_clients):
            pool.submit(long_client)
        for _ in range(slow_clients):
            pool.submit(slow_client, base, stop, tallies["slow client"])
        pool.submit(queued_client)
        pool.submit(prober)
    for t in tallies.values():
        t.wall = time.perf_counter() - start
    return MixResult(tallies, queued_ms)


def print_mix(result: MixResult) -> None:
    head = f"{'role':16} {'done':>5} {'2xx':>5} {'4xx':>4} {'5xx':>4} {'none':>4} " \
           f"{'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}"
    print(head)
    print("-" * len(head))
    for role, t in result.tallies.items():
        lat = sorted(x * 1000 for x in t.latencies)
        by = {k: sum(n for s, n in t.statuses.items() if s // 100 == k) for k in (2, 4, 5)}
        print(f"{role:16} {len(lat):5d} {by[2]:5d} {by[4]:4d} {by[5]:4d} {t.statuses.get(0, 0):4d} "
              f"{percentile(lat, .5):8.1f} {percentile(lat, .99):8.1f} {lat[-1] if lat else 0:8.1f}")
    print(f"queued search budget {result.queued_ms:g} ms; 5xx answers (long solves and probes): "
          f"{result.server_errors}; health probes unanswered: {result.health_failures}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", help="a running server on loopback (default: start one)")
    ap.add_argument("--workers", type=int, default=2, help="server worker processes (default 2)")
    ap.add_argument("--threads", type=int, default=8, help="concurrent clients (default 8)")
    ap.add_argument("--requests", type=int, default=200, help="requests per scenario (default 200)")
    ap.add_argument("--duration", type=float, default=60, help="time cap per scenario, s (default 60)")
    ap.add_argument("--timeout", type=float, default=60, help="client timeout per request, s")
    ap.add_argument("--mix", action="store_true", help="run the abuse mix for --duration seconds")
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
        if args.mix:
            print(f"server {base}, {args.workers if proc else '?'} workers, abuse mix for "
                  f"{args.duration:g} s, {os.cpu_count()} cores")
            result = run_mix(base, args.duration, timeout=args.timeout)
            print_mix(result)
            return 1 if result.server_errors or result.health_failures else 0
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
