"""``kingsolve choices KIND``: the options of a choice before the play and every
seat's value for each, double dummy."""

from __future__ import annotations

import argparse
import json

from ..errors import InvalidRequestError
from .args import add_rules_flag, budget_from_args, rules_document

HELP = "trump, sale, festa and contract choices before the play, double dummy"


def add_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("kind", choices=["trump", "sale", "festa", "contract", "redeal"],
                   help="trump: each trump; sale: Italian sale; festa: Portuguese festa; "
                        "contract: Turkish chooser; redeal: domino redeal property")
    p.add_argument("--variant", help="rule set (trump and sale; festa is portuguese, "
                                     "contract turkish)")
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
    from ..choices import contract_choice, festa_choice, redeal_choice, sale_choice, trump_choice
    from ..deal import Deal
    from ..rule_documents import resolve_variant

    document = rules_document(args)
    if document is not None and args.kind not in ("trump", "sale"):
        raise InvalidRequestError(f"choices {args.kind} takes no --rules")
    variant_name = {"festa": "portuguese", "contract": "turkish", "redeal": "italian"}.get(
        args.kind, args.variant)
    if variant_name is None and document is None:
        raise InvalidRequestError(f"choices {args.kind} needs --variant or --rules")
    if args.variant is not None and args.variant != variant_name:
        raise InvalidRequestError(f"choices {args.kind} is for variant {variant_name!r}, "
                                  f"got --variant {args.variant!r}")
    variant = resolve_variant(document if document is not None else variant_name)
    if (args.deal is None) == (args.seed is None):
        raise InvalidRequestError("give exactly one of --deal and --seed")
    deal = Deal(args.deal) if args.deal is not None else Deal.random(args.seed, deck=variant.deck)
    seed = args.seed
    budget = budget_from_args(args)

    def need(name: str) -> str:
        value = getattr(args, name)
        if value is None:
            raise InvalidRequestError(f"choices {args.kind} needs --{name}")
        return value

    searched = {"budget": budget, "seed": seed, "exact": args.exact}
    if args.kind == "trump":
        result = trump_choice(variant, deal, leader=args.leader, dealer=args.dealer,
                              contract=args.contract, **searched)
    elif args.kind == "sale":
        result = sale_choice(variant, deal, need("dealer"), **searched)
    elif args.kind == "festa":
        result = festa_choice(deal, need("host"), **searched)
    elif args.kind == "contract":
        result = contract_choice(deal, need("chooser"), parse_chosen(args.chosen), **searched)
    else:
        result = redeal_choice(deal, args.threshold, seed=seed)
    print(json.dumps(result.to_dict(), ensure_ascii=False) if args.json else result.text(),
          end="\n" if args.json else "")
    return 0
