"""``kingsolve serve``: the API and the board under gunicorn (``kingsolve_api.serve``).

The flags are the server's size and limits, checked here so that a wrong one is a
one-line error before anything starts, and handed to the app as its settings.
"""

from __future__ import annotations

import argparse
from typing import Any

from kingsolve.errors import KingsolveError

HELP = "serve the JSON API and the analysis board (gunicorn, several workers)"


def add_flags(p: argparse.ArgumentParser) -> None:
    # the defaults are the API's own; it is imported only when serve is the command
    from kingsolve_api.serve import THREADS, default_workers
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    p.add_argument("--workers", type=int, default=None,
                   help=f"worker processes (default: one per core, at least 2: {default_workers()})")
    p.add_argument("--max-ms", type=float, default=None, help="longest search a request may ask for, in ms")
    p.add_argument("--max-nodes", type=int, default=None, help="largest node budget a request may ask for")
    p.add_argument("--cors-origin", action="append", default=None, metavar="URL",
                   help="an origin whose pages may call the API from a browser, e.g. "
                        "https://club.example ('*': any); repeatable (default: none)")
    p.add_argument("--read-timeout", type=float, default=None, metavar="S",
                   help="seconds a request body may stall before a 408 (default 10)")
    p.add_argument("--threads", type=int, default=THREADS,
                   help=f"threads of each worker (default {THREADS})")
    p.add_argument("--search-slots", type=int, default=None,
                   help="searches the server runs at once; others wait (default: one per core)")
    p.add_argument("--client-searches", type=int, default=None,
                   help="searches one client address may run or wait for at once (default 4)")
    p.add_argument("--rate-limit", default=None, metavar="RATE",
                   help="requests to /api/v1 per client and worker, e.g. '600 per minute' or "
                        "'none' (default 1200 per minute)")


def run(args: argparse.Namespace) -> int:
    from kingsolve_api import serve as serving

    if not 0 < args.port < 65536:
        raise KingsolveError(f"invalid port {args.port}: expected 1 to 65535")
    if args.workers is not None and not 1 <= args.workers <= 64:
        raise KingsolveError(f"invalid number of workers {args.workers}: expected 1 to 64")
    config: dict[str, Any] = {}
    if args.max_ms is not None:
        if not args.max_ms > 0:
            raise KingsolveError(f"invalid --max-ms {args.max_ms}: expected a positive number")
        config["KINGSOLVE_MAX_MS"] = args.max_ms
    if args.max_nodes is not None:
        if args.max_nodes < 1:
            raise KingsolveError(f"invalid --max-nodes {args.max_nodes}: expected a positive number")
        config["KINGSOLVE_MAX_NODES"] = args.max_nodes
    if args.read_timeout is not None:
        if not 0 < args.read_timeout <= 3600:
            raise KingsolveError(f"invalid --read-timeout {args.read_timeout}: expected 0 to 3600 s")
        config["KINGSOLVE_READ_TIMEOUT"] = args.read_timeout
    if not 1 <= args.threads <= 256:
        raise KingsolveError(f"invalid --threads {args.threads}: expected 1 to 256")
    for flag, key in (("search_slots", "KINGSOLVE_SEARCH_SLOTS"),
                      ("client_searches", "KINGSOLVE_CLIENT_SEARCHES")):
        value = getattr(args, flag)
        if value is not None:
            if not 1 <= value <= 1024:
                raise KingsolveError(f"invalid --{flag.replace('_', '-')} {value}: expected 1 to 1024")
            config[key] = value
    if args.cors_origin:
        config["KINGSOLVE_CORS_ORIGINS"] = [_origin(o) for o in args.cors_origin]
    if args.rate_limit is not None:
        config["KINGSOLVE_RATE_LIMIT"] = _rate(args.rate_limit)
    serving.serve(args.host, args.port, args.workers, config, threads=args.threads)
    return 0


def _rate(text: str) -> str | None:
    """A rate limit as Flask-Limiter reads it ('600 per minute'), or None for 'none'."""
    if text.strip().lower() in ("none", "off", "0"):
        return None
    from limits import parse_many
    try:
        parse_many(text)
    except ValueError:
        raise KingsolveError(f"invalid --rate-limit {text[:40]!r}: expected a rate such as "
                             f"'600 per minute' or 'none'") from None
    return text


def _origin(text: str) -> str:
    """A CORS origin as browsers send it: scheme://host[:port], no path; or '*'."""
    from urllib.parse import urlsplit

    if text == "*":
        return text
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/") \
            or parts.query or parts.fragment or parts.username:
        raise KingsolveError(f"invalid --cors-origin {text[:60]!r}: expected an origin such as "
                             f"https://club.example (scheme, host and port only) or '*'")
    return f"{parts.scheme}://{parts.netloc}".lower()
