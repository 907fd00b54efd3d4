"""What several commands read from their flags: a request, and a search budget."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from kingsolve.errors import InvalidRequestError, KingsolveError

if TYPE_CHECKING:
    from kingsolve.search.budget import Budget

#: The command line's time budget of one analysis (a solve, a table, a review, a choice)
#: when no ``--ms`` is given: long enough for most exact values below 10 tricks left,
#: short enough that an answer of estimates never keeps a user waiting long.
DEFAULT_MS = 10_000.0


def add_request_flags(p: argparse.ArgumentParser) -> None:
    """The flags that build a request when no JSON file is given."""
    p.add_argument("request", nargs="?", help="a JSON request file, or - for standard input")
    p.add_argument("--variant", help="rule set: italian, italian-wikipedia, portuguese, turkish, russian")
    add_rules_flag(p)
    p.add_argument("--contract", help="contract name, as in docs/rules.md")
    p.add_argument("--trump", help="trump suit letter for trumps and festa")
    p.add_argument("--option", action="append", dest="options", help="contract option (repeatable)")
    p.add_argument("--doubles", action="store_true", default=None, help="Italian doubles (N+S vs E+W)")
    p.add_argument("--deal", help="PBN-style deal text")
    p.add_argument("--leader", help="seat that leads the first trick")
    p.add_argument("--play", help="cards played so far, separated by spaces or commas")


def add_rules_flag(p: argparse.ArgumentParser) -> None:
    """``--rules FILE``: a client's own rule set, beside ``--variant``."""
    p.add_argument("--rules", metavar="FILE",
                   help="a rule document (JSON, docs/rules.md 13) instead of --variant, "
                        "such as docs/house-rules/russian-program.json")


def rules_document(args: argparse.Namespace) -> "dict[str, Any] | None":
    """The rule document of ``--rules FILE`` as read (None without the flag): JSON, at
    most ``MAX_DOCUMENT`` characters. The library checks it where the request's
    variant is read, once."""
    path = getattr(args, "rules", None)
    if path is None:
        return None
    if getattr(args, "variant", None) is not None:
        raise InvalidRequestError("give --variant or --rules, not both")
    from kingsolve.game.rule_documents import MAX_DOCUMENT
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read(MAX_DOCUMENT + 1)
    except OSError as exc:
        raise KingsolveError(f"cannot read rules {path!r}: {exc.strerror}") from None
    if len(text) > MAX_DOCUMENT:
        raise InvalidRequestError(f"rules {path!r}: more than {MAX_DOCUMENT} characters")
    try:
        return json.loads(text)
    except ValueError as exc:
        raise InvalidRequestError(f"rules {path!r} are not JSON: {exc}") from None


def read_request(args: argparse.Namespace) -> dict[str, Any]:
    """The request from a JSON file, standard input, or flags (flags override)."""
    req: dict[str, Any] = {}
    if args.request:
        try:
            if args.request == "-":
                req = json.load(sys.stdin)
            else:
                with open(args.request, encoding="utf-8") as fh:
                    req = json.load(fh)
        except json.JSONDecodeError as exc:
            raise KingsolveError(f"invalid JSON request in {args.request!r}: {exc}") from None
        except OSError as exc:
            raise KingsolveError(f"cannot read request {args.request!r}: {exc.strerror}") from None
        if not isinstance(req, dict):
            raise KingsolveError(f"invalid request in {args.request!r}: expected a JSON object")
    for name in ("variant", "contract", "trump", "deal", "leader", "options", "doubles"):
        value = getattr(args, name, None)
        if value is not None:
            req[name] = value
    document = rules_document(args)
    if document is not None:
        req["variant"] = document
    if getattr(args, "play", None) is not None:
        req["play"] = [c for c in args.play.replace(",", " ").split() if c]
    return req


def budget_from_args(args: argparse.Namespace) -> Budget:
    """The ``Budget`` the ``--nodes`` and ``--ms`` flags give (``DEFAULT_MS`` and the
    default nodes otherwise)."""
    from kingsolve.search.budget import Budget
    base = Budget()
    nodes = base.nodes if getattr(args, "nodes", None) is None else args.nodes
    ms = DEFAULT_MS if getattr(args, "ms", None) is None else args.ms
    if nodes < 1 or not ms > 0:   # not "ms <= 0": nan is no budget either
        raise InvalidRequestError(f"invalid budget: --nodes {nodes} and --ms {ms} must be positive")
    return Budget(nodes=nodes, ms=ms, tt_mb=base.tt_mb)
