"""``kingsolve choices KIND``: the options of a choice before the play and every
seat's value for each, double dummy."""

from __future__ import annotations

import argparse
import json

from kingsolve.errors import InvalidRequestError
from .args import add_rules_flag, budget_from_args, rules_document

HELP = "trump, sale, festa and contract choices before the play, double dummy"


def add_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("kind", choices=["trump", "sale", "festa", "contract", "redeal"],
                   help="trump: each trump; sale: Italian sale; festa: Portuguese festa; "
                        "contract: Turkish chooser; redeal: domino redeal property")
    p.add_argument("--variant", help="rule set (trump and sale; festa defaults to "
                                     "portuguese, contract to turkish)")
    add_rules_flag(p)
    p.add_argument("--deal", help="PBN-style deal text")
    p.add_argument("--seed", help="deal a random deal from this seed instead of --deal")
    p.add_argument("--leader", help="the seat that leads (trump)")
    p.add_argument("--dealer", help="the dealer (trump, sale); the seat after it leads")
    p.add_argument("--host", help="the festa's host (its dealer)")
    p.add_argument("--chooser", help="the Turkish chooser (it leads)")
    p.add_argument("--chosen", default="",
                   help="choices already made, such as 'N:no-queens,E:trumps'")
    p.add_argument("--contract", help="the trump contract (default trumps, or festa)")
    p.add_argument("--threshold", type=int, default=4, help="aces and kings for a redeal")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--nodes", type=int, help="node budget of the whole choice")
    p.add_argument("--ms", type=float, help="time budget of the whole choice, in milliseconds "
                                            "(default 10000)")
    p.add_argument("--exact", action="store_true",
                   help="exact values only: fail, naming the option the budget stops")


def parse_chosen(text: str) -> list[tuple[str, str]]:
    """The ``--chosen`` choices as (seat, contract) pairs: ``'N:no-queens,E:trumps'``."""
    out = []
    for item in (x.strip() for x in text.split(",")):
        if not item:
            continue
        seat, sep, name = item.partition(":")
        if not sep or not seat.strip() or not name.strip():
            raise InvalidRequestError(f"invalid --chosen item {item!r}: expected seat:contract, "
                                      f"such as 'N:no-queens'")
        out.append((seat.strip(), name.strip()))
    return out


def run(args: argparse.Namespace) -> int:
    from kingsolve.game.deal import Deal
    from kingsolve.io.request import CHOICE_KINDS, ChoicesRequest, choice_variant
    from kingsolve.game.rule_documents import resolve_variant
    from kingsolve.game.rules import get_variant

    document = rules_document(args)
    for name in CHOICE_KINDS[args.kind]:
        if getattr(args, name) is None and not (name == "variant" and document is not None):
            raise InvalidRequestError(f"choices {args.kind} needs --{name}"
                                      + (" or --rules" if name == "variant" else ""))
    if document is not None and args.kind == "redeal":
        raise InvalidRequestError(f"choices {args.kind} takes no --rules")
    given = resolve_variant(document) if document is not None else \
        None if args.variant is None else get_variant(args.variant)
    variant = choice_variant(args.kind, given)
    if variant is None:         # the loop above asked for --variant where a kind has no own
        raise InvalidRequestError(f"choices {args.kind} needs --variant or --rules")
    if (args.deal is None) == (args.seed is None):
        raise InvalidRequestError("give exactly one of --deal and --seed")
    deal = Deal(args.deal) if args.deal is not None else Deal.random(args.seed, deck=variant.deck)
    result = ChoicesRequest(args.kind, variant, deal, budget_from_args(args), leader=args.leader,
                            dealer=args.dealer, contract=args.contract, host=args.host,
                            chooser=args.chooser, chosen=tuple(parse_chosen(args.chosen)),
                            threshold=args.threshold, seed=args.seed, exact=args.exact).result()
    print(json.dumps(result.to_dict(), ensure_ascii=False) if args.json else result.text(),
          end="\n" if args.json else "")
    return 0
