"""Serving: the API and the board behind gunicorn, with several worker processes.

The workers are gunicorn's threaded workers (``gthread``): each process answers many
requests at once on its threads. The compiled search releases the GIL, so a worker's
threads answer ``/healthz`` and ``/legal`` while it searches, and a slow client holds
one thread, not the worker. How many searches run at once is bounded by the search
slots that every worker shares (``kingsolve_api.limits``): one per core by default,
the others wait within their own time budget. A worker whose main loop stops for
longer than the longest budget plus a margin is restarted by gunicorn.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any, Mapping

__all__ = ["serve", "default_workers", "THREADS", "TIMEOUT_MARGIN"]

#: Seconds a worker may spend past the app's time budget before gunicorn restarts it.
TIMEOUT_MARGIN = 30
#: Threads of each worker: enough for the searches waiting for a slot, slow clients
#: and the light requests beside them.
THREADS = 16


def default_workers() -> int:
    """One worker per core, at least two."""
    return max(2, os.cpu_count() or 1)


def serve(host: str = "127.0.0.1", port: int = 8000, workers: int | None = None,
          config: Mapping[str, Any] | None = None, threads: int = THREADS) -> None:
    """Run the app under gunicorn until interrupted."""
    from gunicorn.app.base import BaseApplication

    from . import DEFAULTS, create_app
    from .settings import check_settings

    config = check_settings(config or {})    # a wrong setting stops here, not in each worker
    # One folder of lock files for the search slots that all the workers share.
    lock_dir = tempfile.mkdtemp(prefix="kingsolve-locks-")
    config = {"KINGSOLVE_LOCK_DIR": lock_dir, **config}
    settings = {**DEFAULTS, **config}
    worst_ms = max(settings["KINGSOLVE_MAX_MS"], settings["KINGSOLVE_BATCH_MS"])
    options = {
        "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
        "workers": workers or default_workers(),
        "worker_class": "gthread",
        "threads": threads,
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

    try:
        KingsolveServer().run()
    finally:
        shutil.rmtree(lock_dir, ignore_errors=True)
