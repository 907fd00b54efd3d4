"""kingsolve's web surface: the JSON/msgpack API under ``/api/v1`` and the analysis board at ``/``.

``create_app(config)`` builds the Flask app. Every limit is a setting (``DEFAULTS``);
bad input of any kind answers 400 with ``{"error": code, "message": ...}``, a search
over its budget 503 (for /solve: not even an estimate within it), a client over its
share 429 with ``Retry-After`` (``kingsolve_api.limits``), and no answer ever carries
a traceback.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from flask import Flask, send_from_directory
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import HTTPException

from kingsolve import __version__
from kingsolve.errors import KingsolveError, SolveTimeout

from .limits import install_limits, rate_retry_after
from .schemas import Schemas
from .settings import InvalidSettingError, check_settings
from .stream import Running
from .views import bp, server_limits
from .wire import respond

__all__ = ["create_app", "DEFAULTS", "InvalidSettingError"]

STATIC = Path(__file__).parent / "static"

#: The server's limits; pass any of them to ``create_app`` to change it (each is checked
#: by ``kingsolve_api.settings`` when the app is made).
DEFAULTS: dict[str, Any] = {
    "MAX_CONTENT_LENGTH": 256 * 1024,      # bytes of one request body (413 past it)
    "KINGSOLVE_BATCH_MAX": 64,             # requests in one /solve batch
    "KINGSOLVE_MAX_NODES": 50_000_000,     # node budget of one search, at most
    "KINGSOLVE_MAX_MS": 20_000,            # time budget of one search in ms, at most
    "KINGSOLVE_SOLVE_MS": 2_000,           # time of a /solve that gives no ms
    "KINGSOLVE_STREAM_MS": 10_000,         # time of a /solve/stream that gives no ms
    "KINGSOLVE_BATCH_MS": 30_000,          # time shared by the searches of one batch, review,
                                           # choices or hint
    "KINGSOLVE_TT_MB": 64,                 # transposition-table memory of a /table search
    "KINGSOLVE_TABLE_THREADS": 1,          # search threads of one /table, /solve or /hint
                                           # request, at most
    "KINGSOLVE_READ_TIMEOUT": 10,          # seconds a request body may stall (408 past it)
    "KINGSOLVE_SEARCH_SLOTS": None,        # searches run at once by the whole server (default:
                                           # one per core); others wait within their budget
    "KINGSOLVE_CLIENT_SEARCHES": 4,        # searches one client address may run or wait for
                                           # at once (429 past it)
    "KINGSOLVE_RATE_LIMIT": "1200 per minute",  # requests to /api/v1 per client address and
                                           # worker process (429 past it); None or "none":
                                           # no limit
    "KINGSOLVE_CORS_ORIGINS": (),          # origins whose pages may call the API from a
                                           # browser ("*": any); none by default
    "KINGSOLVE_LOCK_DIR": None,            # folder of the search slots' lock files, shared by
                                           # the worker processes (default: one per app)
}

log = logging.getLogger(__name__)


def _allow_origins(app: Flask, origins) -> None:
    """CORS for the API and the health check: pages of ``origins`` may call them.

    Preflight requests (OPTIONS) are answered for them; other origins get no CORS
    headers, so browsers keep their pages out. The board is served from the API's own
    origin and needs none.
    """
    if not origins:
        return
    from flask_cors import CORS

    allowed = "*" if "*" in origins else list(origins)
    CORS(app, resources={r"/api/*": {}, r"/healthz": {}}, origins=allowed,
         allow_headers=["Content-Type", "Accept"], expose_headers=["Retry-After"], max_age=600)


@dataclass(frozen=True)
class ApiState:
    """What the views share: the schemas built for this app's limits, and the counts
    of the stream analyses and the plain /solve searches running now."""

    schemas: Schemas
    streams: Running = field(default_factory=Running)
    searches: Running = field(default_factory=Running)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """The Flask app: API blueprint, board, error handlers, limits from ``config``.

    A setting it cannot run with raises ``InvalidSettingError`` naming it, at once.
    """
    settings = check_settings(config or {})
    app = Flask(__name__, static_folder=str(STATIC), static_url_path="/static")
    app.config.update(DEFAULTS)
    app.config.update(settings)
    if isinstance(app.json, DefaultJSONProvider):     # answers keep their fields' order
        app.json.sort_keys = False
    app.extensions["kingsolve"] = ApiState(Schemas(app.config, server_limits(app.config)))
    app.register_blueprint(bp)
    install_limits(app)
    _allow_origins(app, app.config["KINGSOLVE_CORS_ORIGINS"])
    _add_pages(app)
    _add_error_handlers(app)
    return app


def _add_pages(app: Flask) -> None:
    """The board, the game page and liveness."""
    @app.get("/")
    def board():
        return send_from_directory(STATIC, "index.html")

    @app.get("/play")
    def play():
        return send_from_directory(STATIC, "play.html")

    @app.get("/healthz")
    @app.get("/api/v1/healthz")
    def healthz():
        return respond({"status": "ok", "version": __version__})


def _add_error_handlers(app: Flask) -> None:
    """Every error answers JSON (or msgpack): bad input 400, limits their own status,
    never a traceback."""
    @app.errorhandler(KingsolveError)
    def bad_input(exc: KingsolveError):
        status = getattr(exc, "status", 503 if isinstance(exc, SolveTimeout) else 400)
        retry = getattr(exc, "retry_after", None)
        return respond(exc.to_dict(), status, {"Retry-After": str(retry)} if retry else None)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        code = (exc.name or "error").lower().replace(" ", "-")
        headers = {k: v for k, v in exc.get_headers() if k.lower() != "content-type"}
        message = exc.description or exc.name
        if exc.code == 413:
            message = f"request body too large: at most {app.config['MAX_CONTENT_LENGTH']} bytes"
        elif exc.code == 429:
            message = f"too many requests from this client: at most {exc.description}"
            headers["Retry-After"] = str(rate_retry_after(app))
        elif exc.code == 405:
            message = f"method not allowed here: use {headers.get('Allow', 'another method')}"
        if exc.code in (408, 413):
            headers["Connection"] = "close"     # the rest of the body is never read
        return respond({"error": code, "message": message}, exc.code or 500, headers)

    @app.errorhandler(ModuleNotFoundError)
    def not_built(exc: ModuleNotFoundError):
        if not (exc.name or "").startswith("kingsolve"):
            return internal(exc)
        return respond({"error": "unavailable", "message": f"this server has no {exc.name}: "
                        f"the search is not installed"}, 503)

    @app.errorhandler(Exception)
    def internal(exc: Exception):
        log.exception("unhandled error")
        return respond({"error": "internal", "message": "internal server error"}, 500)
