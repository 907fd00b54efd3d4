"""What a surface lets one request spend: ``Limits``, and the library's own (``LIMITS``)."""

from __future__ import annotations

from dataclasses import dataclass

from ..checks import MAX_THREADS
from ..search.budget import Budget

__all__ = ["Limits", "LIMITS", "MAX_TEXT", "MAX_PLAY", "MAX_NODES", "MAX_MS"]

MAX_TEXT = 400          # longest deal text accepted
MAX_PLAY = 52           # longest play record accepted
#: The largest budgets a request may ask for.
MAX_NODES = 2_000_000_000
MAX_MS = 600_000.0


@dataclass(frozen=True)
class Limits:
    """What a surface lets one request spend: the largest budgets and thread count,
    what a request that names none gets, and the size and shared time of a list of
    requests. The library's own are ``LIMITS`` (the command line's and batch files');
    the API makes its own from the server's settings. A request's budget and threads
    are cut to these where the request is read (``kingsolve.io.request``), once."""

    nodes: int = MAX_NODES               # the largest node budget
    ms: float = MAX_MS                   # the longest time budget, in ms
    default_nodes: int | None = None     # a request without nodes (None: ``Budget()``'s)
    default_ms: float | None = None      # a request without ms (None: ``Budget()``'s)
    threads: int = MAX_THREADS           # the most search threads of one request
    table_threads: int = 2               # the threads of a table that names none
    tt_mb: int = Budget.tt_mb            # the transposition table of each search
    batch: int = 100_000                 # the most requests in one list
    batch_ms: float = MAX_MS             # the time a list of requests, or a request's
                                         # searches together (review, choices, hint), share

    def budget(self, nodes: int | None, ms: float | None) -> Budget:
        """The budget of a request that asks for ``nodes`` and ``ms`` (None: the
        defaults), each at most the largest allowed."""
        default = Budget()
        if nodes is None:
            nodes = default.nodes if self.default_nodes is None else self.default_nodes
        if ms is None:
            ms = default.ms if self.default_ms is None else self.default_ms
        return Budget(nodes=min(nodes, self.nodes), ms=min(float(ms), self.ms), tt_mb=self.tt_mb)


#: The library's limits: the command line's and the batch files'.
LIMITS = Limits()
