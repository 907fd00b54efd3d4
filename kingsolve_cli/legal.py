"""``kingsolve legal``: the seat on move, its legal cards, the trick and points taken."""

from __future__ import annotations

import argparse

from .args import add_request_flags, read_request
from .terminal import print_json

HELP = "the seat on move, its legal cards, the trick and points taken"

add_flags = add_request_flags


def run(args: argparse.Namespace) -> int:
    from kingsolve.io.request import legal_request
    print_json(legal_request(read_request(args)))
    return 0
