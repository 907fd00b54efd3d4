"""``kingsolve hint``: a seat's legal cards ranked over sampled deals it cannot tell
apart, or its choice (trump, sale, contract, festa) from its hand alone."""

from __future__ import annotations

import argparse

from kingsolve.errors import InvalidRequestError, excerpt
from .args import add_request_flags, read_request
from .terminal import print_json

HELP = ("a seat's legal cards ranked over sampled deals it cannot tell apart, "
        "or its choice (trump, sale, contract, festa) from its hand alone")


def _level(text: str) -> "int | str":
    """A ``--level``: a number, or a level's name as given."""
    return int(text) if text.isdigit() else text


def add_flags(p: argparse.ArgumentParser) -> None:
    """The shared request flags and the hint's own."""
    # the hint module is imported when the hint command runs, not for every command's help
    from kingsolve.hands.hints import CHOICES, DEFAULT_HORIZON, DEFAULT_LEVEL, LEVELS
    from kingsolve.io.schema import CHOICE_SAMPLES
    add_request_flags(p)
    p.add_argument("--seat", help="the seat asking (N, E, S or W)")
    p.add_argument("--hand", help="its hand: PBN text (AKQ.JT9.876.5432) or cards")
    p.add_argument("--known", action="append", metavar="SEAT:CARDS",
                   help="cards known to be in a hand, e.g. E:HK (repeatable)")
    names = [lv.name for lv in LEVELS]
    p.add_argument("--level", type=_level, choices=[*range(len(LEVELS)), *names],
                   metavar="LEVEL",
                   help=f"strength of the hint, by number or name: 0 ({names[0]}, the simple "
                        f"player's card) to {len(LEVELS) - 1} ({names[-1]}); sets the samples, "
                        f"horizon, inference and play-out policy together (default "
                        f"{DEFAULT_LEVEL}, {names[DEFAULT_LEVEL]}; docs/guide/hints.md, Levels)")
    p.add_argument("--samples", type=int,
                   help=f"number of sampled deals (default: the level's; {CHOICE_SAMPLES} for a "
                        f"choice without --level)")
    p.add_argument("--ms", type=float, help="time limit of the whole hint, in milliseconds")
    p.add_argument("--seed", type=int, help="seed of the sampling (default 0)")
    p.add_argument("--nodes", type=int, help="node limit of each search")
    p.add_argument("--choice", choices=CHOICES, help="a choice hint instead of a card hint")
    p.add_argument("--role", choices=("host", "bidder"), help="festa role (default host)")
    p.add_argument("--contracts", help="Turkish contracts to choose from, comma separated")
    p.add_argument("--threads", type=int, help="search threads (default 1)")
    p.add_argument("--horizon", type=int,
                   help=f"tricks left from which each sample is searched double dummy; earlier "
                        f"the simple player plays each card out to there (default: the level's, "
                        f"{DEFAULT_HORIZON} without --level)")


def request_from_args(args: argparse.Namespace, req: dict) -> dict:
    """The hint request: the shared request flags, then the hint flags (flags override)."""
    for name in ("seat", "hand", "level", "samples", "ms", "seed", "nodes", "choice", "role",
                 "threads", "horizon"):
        value = getattr(args, name, None)
        if value is not None:
            req[name] = value
    if getattr(args, "contracts", None):
        req["contracts"] = [c for c in args.contracts.split(",") if c]
    for item in getattr(args, "known", None) or ():
        seat, sep, cards = item.partition(":")
        if not sep:
            raise InvalidRequestError(f"invalid --known {excerpt(item)}: expected SEAT:CARDS such as E:HK")
        req.setdefault("known", {})[seat] = cards
    return req


def run(args: argparse.Namespace) -> int:
    from kingsolve.io.request import hint_request
    print_json(hint_request(request_from_args(args, read_request(args))))
    return 0
