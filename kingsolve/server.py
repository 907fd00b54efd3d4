"""``kingsolve serve``: the API and the board behind gunicorn, with several worker processes.

Searches are CPU-bound, so the workers are processes (gunicorn's sync workers), one
request each at a time; a worker that stays in one request longer than the longest
search budget plus a margin is restarted by gunicorn, so nothing hangs for good.
"""

from __future__ import annotations

import argparse
import os
from typing import Any, Mapping

__all__ = ["serve", "add_serve_flags", "cmd_serve", "default_workers"]

#: Seconds a worker may spend past the app's time budget before gunicorn restarts it.
TIMEOUT_MARGIN = 30


def default_workers() -> int:
    """One worker per core, at least two."""
    return max(2, os.cpu_count() or 1)


def serve(host: str = "127.0.0.1", port: int = 8000, workers: int | None = None,
          config: Mapping[str, Any] | None = None) -> None:
    """Run the app under gunicorn until interrupted."""
    from gunicorn.app.base import BaseApplication

    from kingsolve_api import DEFAULTS, create_app

    settings = {**DEFAULTS, **(config or {})}
    worst_ms = max(settings["KINGSOLVE_MAX_MS"], settings["KINGSOLVE_BATCH_MS"])
    options = {
        "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
        "workers": workers or default_workers(),
        "worker_class": "sync",
        "timeout": int(worst_ms / 1000) + TIMEOUT_MARGIN,
        "graceful_timeout": 10,
        "accesslog": "-",
        "errorlog": "-",
        "loglevel": "info",
        "proc_name": "kingsolve",
        "control_socket_disable": True,    # gunicorn >= 25.1: one shared socket path otherwise
    }

    class KingsolveServer(BaseApplication):
        def load_config(self) -> None:
            for key, value in options.items():
                if key in self.cfg.settings:
                    self.cfg.set(key, value)

        def load(self):
            return create_app(config)

    KingsolveServer().run()


def add_serve_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    p.add_argument("--workers", type=int, default=None,
                   help=f"worker processes (default: one per core, at least 2: {default_workers()})")
    p.add_argument("--max-ms", type=float, default=None, help="longest search a request may ask for, in ms")
    p.add_argument("--max-nodes", type=int, default=None, help="largest node budget a request may ask for")


def cmd_serve(args: argparse.Namespace) -> int:
    from .errors import KingsolveError

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
    serve(args.host, args.port, args.workers, config)
    return 0
