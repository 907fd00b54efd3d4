"""``kingsolve serve``: the API and the board under gunicorn (``kingsolve_api.serve``).

The flags are the server's size and limits, checked here so that a wrong one is a
one-line error before anything starts, and handed to the app as its settings.
"""

from __future__ import annotations

import argparse

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


#: Each flag that sets one of the app's settings (``kingsolve_api.DEFAULTS``).
SETTING_FLAGS = {"max_ms": "KINGSOLVE_MAX_MS", "max_nodes": "KINGSOLVE_MAX_NODES",
                 "read_timeout": "KINGSOLVE_READ_TIMEOUT", "search_slots": "KINGSOLVE_SEARCH_SLOTS",
                 "client_searches": "KINGSOLVE_CLIENT_SEARCHES",
                 "cors_origin": "KINGSOLVE_CORS_ORIGINS", "rate_limit": "KINGSOLVE_RATE_LIMIT"}


def run(args: argparse.Namespace) -> int:
    from kingsolve_api import serve as serving
    from kingsolve_api.settings import check_settings

    if not args.host or any(c.isspace() or c == "/" for c in args.host):
        raise KingsolveError(f"invalid --host {args.host[:60]!r}: expected an address or host name")
    if not 0 < args.port < 65536:
        raise KingsolveError(f"invalid port {args.port}: expected 1 to 65535")
    if args.workers is not None and not 1 <= args.workers <= 64:
        raise KingsolveError(f"invalid number of workers {args.workers}: expected 1 to 64")
    if not 1 <= args.threads <= 256:
        raise KingsolveError(f"invalid --threads {args.threads}: expected 1 to 256")
    # the app's own checks, each error naming the flag
    config = check_settings(
        {key: getattr(args, flag) for flag, key in SETTING_FLAGS.items()
         if getattr(args, flag) is not None},
        names={key: "--" + flag.replace("_", "-") for flag, key in SETTING_FLAGS.items()})
    serving.serve(args.host, args.port, args.workers, config, threads=args.threads)
    return 0
