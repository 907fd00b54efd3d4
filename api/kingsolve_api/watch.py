"""A client that goes away while its search runs: seen on its socket, it stops the search.

A plain answer is written only when the search ends, so unlike a stream no failed
write tells the server that the client has gone. While the search runs the request's
thread reads nothing more from the connection, so the connection turning readable
means the client has either sent more (a pipelined request: it is still there) or
closed its side (the socket reads end of file, or is reset). A thread of its own
waits on the socket while the search runs and on end of file sets the search's
cancel event; the analysis then stops within one search. The socket is the one
gunicorn's and werkzeug's servers put in the request's environment; without one (a
test client, another server) the search runs to its budget.

A client that shuts down only its sending side and still waits for the answer is
taken for gone, as reverse proxies take it.
"""

from __future__ import annotations

import os
import select
import socket
import threading
from contextlib import contextmanager
from typing import Iterator

from flask import request

from .stream import Running

__all__ = ["client_watch"]

_SOCKETS = ("gunicorn.socket", "werkzeug.socket")


def _client_socket() -> socket.socket | None:
    for key in _SOCKETS:
        sock = request.environ.get(key)
        if isinstance(sock, socket.socket) and sock.fileno() >= 0:
            return sock
    return None


def _closed(sock: socket.socket) -> bool:
    """Whether the peer of the readable ``sock`` closed it (not when it sent more, nor
    when the socket cannot be peeked at, as a TLS one)."""
    try:
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except (BlockingIOError, ValueError):
        return False
    except OSError:                 # reset by the peer
        return True


def _watch(sock: socket.socket, cancel: threading.Event, done: int) -> None:
    """Set ``cancel`` when the client closes ``sock``; return when ``done`` turns readable."""
    looks = select.poll()           # not select(): a busy server's sockets pass 1024
    looks.register(sock, select.POLLIN)
    looks.register(done, select.POLLIN)
    ready = dict(looks.poll())
    if done not in ready and sock.fileno() in ready and _closed(sock):
        cancel.set()
    # after anything else the socket stays readable: no more can be told from it


@contextmanager
def client_watch(running: Running) -> Iterator[threading.Event]:
    """A cancel event for this request's searches, set when its client goes away.

    ``running`` counts the request while it runs, and as cancelled when its client
    went away. The watch ends with the block, before the answer is written.
    """
    cancel = threading.Event()
    sock = _client_socket()
    with running:
        if sock is None:
            yield cancel
            return
        # the watcher waits on the socket and on this pipe, written to when the block ends
        done, finish = os.pipe()
        watcher = threading.Thread(target=_watch, args=(sock, cancel, done),
                                   name="kingsolve-client-watch", daemon=True)
        watcher.start()
        try:
            yield cancel
        finally:
            os.write(finish, b"x")
            watcher.join()
            os.close(done)
            os.close(finish)
            if cancel.is_set():
                running.note_cancelled()
