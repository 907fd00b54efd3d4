"""Choices before the play, double dummy: trump, sale, festa auction, Turkish contract.

Each function analyses the deal once per option it compares (``kingsolve.analyse``,
every seat at once, the options sharing the budget as a table's rows do: the time an
option leaves goes to the options still open) and returns a ``Choices`` value: the options with each seat's value (docs/rules.md 11,
paranoid) and a ``summary`` of what they mean for the choice, with the budget, seed
and node count that made it. Every option answers within the budget: exact where
proved, otherwise an estimate inside a proved range; the summaries rank the options
by estimate (the exact value where proved) and say whether the ranking is proved.
With ``exact=True`` every value must be proved within the budget, or ``SolveTimeout``
names the option that stopped.

- ``trump_choice``: each trump suit (and no trump where the contract allows it).
- ``sale_choice``: the Italian sale (docs/rules.md 10), per buyer and price.
- ``festa_choice``: the Portuguese festa (docs/rules.md 6), for the host and each bidder.
- ``contract_choice``: the Turkish chooser's contracts under the quotas (docs/rules.md 7).
- ``redeal_choice``: the booklet's domino redeal property of a deal (docs/rules.md 4).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Iterable

from ..game.cards import Seat, Suit
from ..checks import check_int
from ..game.deal import Deal
from ..game.position import Position
from ..search.analysis import LEGEND, format_number, value_text
from ..errors import InvalidRequestError
from ..search.budget import Budget
from ..game.numbers import Number, json_number
from ..search.result import Solver
from ..game.rule_documents import resolve_variant
from ..game.rules import TRUMP_NONE, TURKISH_PENALTIES, RuleSet
from ..search.table import analyse_each

__all__ = ["Choices", "Option", "trump_choice", "sale_choice", "festa_choice",
           "contract_choice", "redeal_choice", "TURKISH_PENALTIES"]

Range = tuple[Number, Number]


@dataclass(frozen=True)
class Option:
    """One way to play the deal and every seat's double-dummy value for it.

    ``values`` holds the exact values only; ``bounds`` every seat's proved range and
    ``estimates`` a number inside it (the value where exact).
    """

    label: str
    contract: str | None
    trump: Suit | None
    leader: Seat | None
    values: dict[Seat, Number]
    bounds: dict[Seat, Range] = field(default_factory=dict)
    estimates: dict[Seat, Number] = field(default_factory=dict)

    @property
    def solved(self) -> bool:
        """Whether every seat's value is exact."""
        return len(self.values) == len(self.bounds)

    def rating(self, seat: Seat) -> Number:
        """The number the options are ranked by for ``seat``: its value where exact,
        else its estimate, else the lowest value proved."""
        if seat in self.values:
            return self.values[seat]
        return self.estimates.get(seat, self.bounds[seat][0])

    def cell(self, seat: Seat) -> str:
        """The seat's value as text: exact, ``≈x (lo..hi)`` or ``lo..hi``."""
        return value_text(self.bounds.get(seat), self.estimates.get(seat))

    def to_dict(self) -> dict:
        return {"label": self.label, "contract": self.contract,
                "trump": None if self.trump is None else self.trump.letter,
                "leader": None if self.leader is None else self.leader.name,
                "solved": self.solved,
                "values": {s.name: json_number(v) for s, v in self.values.items()},
                "bounds": {s.name: [json_number(lo), json_number(hi)]
                           for s, (lo, hi) in self.bounds.items()},
                "estimates": {s.name: json_number(v) for s, v in self.estimates.items()}}


def _fixed(label: str, values: dict[Seat, Number]) -> Option:
    """An option settled without play (the festa's 433): every value exact."""
    return Option(label, None, None, None, dict(values), {s: (v, v) for s, v in values.items()},
                  dict(values))


@dataclass(frozen=True)
class Choices:
    """The options of one choice, their values, and what they mean (``summary``)."""

    kind: str
    variant: str
    deal: Deal
    options: tuple[Option, ...]
    summary: dict[str, Any]
    budget: Budget | None
    seed: Any = None
    nodes: int = 0
    ms: float = 0.0
    params: dict[str, Any] = field(default_factory=dict)

    def option(self, label: str) -> Option:
        """The option of that label."""
        for o in self.options:
            if o.label == label:
                return o
        raise InvalidRequestError(f"no option {label!r}: expected one of "
                                  f"{', '.join(o.label for o in self.options)}")

    def to_dict(self) -> dict:
        return {"kind": self.kind, "variant": self.variant, "deal": self.deal.pbn(),
                "params": self.params, "options": [o.to_dict() for o in self.options],
                "summary": self.summary, "seed": self.seed,
                "budget": None if self.budget is None else self.budget.to_dict(),
                "nodes": int(self.nodes), "ms": round(float(self.ms), 3)}

    def text(self) -> str:
        """The choice as a player reads it: the options, a line each with every seat's
        value marked as a table marks it (exact, ``≈`` estimate, ``lo..hi`` proved
        range, and the legend while any is not exact), then what they mean for the
        choice, in words and columns."""
        params = ", ".join(f"{k} {v}" for k, v in self.params.items())
        lines = [f"{self.kind} choice · {self.variant}" + (f" · {params}" if params else ""),
                 f"Deal: {self.deal.pbn()}"]
        if self.seed is not None:
            lines.append(f"Seed: {self.seed}")
        if self.options:
            seats = list(self.options[0].bounds)
            lines.extend(_columns([["", *(s.name for s in seats)]]
                                  + [[o.label, *(o.cell(s) for s in seats)]
                                     for o in self.options], indent="  "))
            if not all(o.solved for o in self.options):
                lines.append(f"  {LEGEND}")
        lines.append("")
        lines.extend(_SUMMARIES[self.kind](self))
        if self.options:
            lines.append(_exactness(self.options))
        return "\n".join(lines) + "\n"


def _columns(rows: list[list[str]], indent: str = "") -> list[str]:
    """Rows of cells as aligned lines: the first column to the left, the others to
    the right, two spaces apart (ranges never run together)."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:])]
        out.append((indent + "  ".join(cells)).rstrip())
    return out


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    """A small table of text: every column to the left."""
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in [head, *rows]]


def _num(option: "Option", seat: Seat, plus: Number = 0) -> str:
    """The option's rating for the seat (plus ``plus``), ``≈`` before it unless exact."""
    return ("" if seat in option.values else "≈") + format_number(option.rating(seat) + plus,
                                                                  signed=False)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _exactness(options: "Iterable[Option]") -> str:
    options = list(options)
    total = sum(len(o.bounds) for o in options)
    exact = sum(len(o.values) for o in options)
    if exact == total:
        return "every value exact: the choice is proved"
    return f"{exact} of {total} values exact; the others are estimates inside proved ranges"


def _trump_text(ch: "Choices") -> list[str]:
    sm = ch.summary
    rows = []
    for seat in ch.deal.seats:
        best = sm["best"][seat.name]
        rows.append([seat.name, ", ".join(best), ch.option(best[0]).cell(seat),
                     _yes(sm["proved_best"][seat.name]), ", ".join(sm["ranking"][seat.name])])
    return _table(["seat", "best", "value", "proved best", "from best to worst"], rows)


def _sale_text(ch: "Choices") -> list[str]:
    sm = ch.summary
    dealer = Seat.parse(ch.params["dealer"])
    declared = ch.option(sm["dealer_declares"])
    lines = [f"without a sale {dealer.name} declares {declared.label} and scores "
             f"{declared.cell(dealer)}",
             "a buyer at price k names its trump and scores its tricks less k, the dealer "
             "its own plus k"]
    rows = []
    for name, b in sm["buyers"].items():
        buyer = Seat.parse(name)
        named = ch.option(b["trump"])
        paying = b["highest_paying_price"]
        if paying:
            per = named.rating(buyer) - b["prices"][0]["buyer"]
            pays = (f"{paying}: {name} {_num(named, buyer, -paying * per)}, "
                    f"{dealer.name} {_num(named, dealer, paying * per)}")
        else:
            pays = "none"
        rows.append([name, b["trump"], named.cell(buyer),
                     f"{name} {_num(declared, buyer)}, {dealer.name} {_num(declared, dealer)}",
                     pays])
    return lines + _table(["buyer", "names", "its value", "without a sale",
                           "highest price that pays"], rows)


def _festa_text(ch: "Choices") -> list[str]:
    sm = ch.summary
    host = Seat.parse(ch.params["host"])
    best = ch.option(sm["host_best"])
    lines = [f"host {host.name}: best {best.label}, value {best.cell(host)}; proved best: "
             f"{_yes(sm['host_proved_best'])}; its own choices:"]
    lines.extend(_columns([[label, ch.option(label).cell(host)] for label in sm["host_values"]],
                          indent="  "))
    rows = []
    for name, b in sm["bidders"].items():
        bidder = Seat.parse(name)
        plus, null = ch.option(b["plus_game"]), ch.option(b["null_game"])
        rows.append([name, b["plus_game"], plus.cell(bidder), b["null_game"], null.cell(bidder),
                     _num(best, bidder), str(b["highest_plus_bid"] or "none"),
                     str(b["highest_null_bid"] or "none")])
    return lines + _table(["bidder", "plus game", "value", "null game", "value", "without a bid",
                           "highest plus bid", "highest null bid"], rows)


def _contract_text(ch: "Choices") -> list[str]:
    sm = ch.summary
    chooser = Seat.parse(ch.params["chooser"])
    best = ch.option(sm["best"][0])
    left = sm["left"]
    return [f"best for {chooser.name}: {', '.join(sm['best'])}, value {best.cell(chooser)}; "
            f"proved best: {_yes(sm['proved_best'])}",
            f"from best to worst: {', '.join(sm['ranking'])}",
            f"left to choose: {left['penalties']} penalty contracts, {left['trumps']} trumps"]


def _redeal_text(ch: "Choices") -> list[str]:
    seats = ch.summary["seats"]
    rows = [[name, str(v["aces"]), str(v["kings"]), str(v["total"]), _yes(v["may_redeal"])]
            for name, v in seats.items()]
    may = ch.summary["may_redeal"]
    return _table(["seat", "aces", "kings", "total", "may ask for a redeal"], rows) + [
        f"a redeal needs {ch.params['threshold']} aces and kings or more: "
        + (", ".join(may) + " may ask for one" if may else "no seat may ask for one")]


_SUMMARIES = {"trump": _trump_text, "sale": _sale_text, "festa": _festa_text,
              "contract": _contract_text, "redeal": _redeal_text}


class _Analyser:
    """Analyses the options of one deal, every seat at once, sharing one budget
    between them, counting nodes and time."""

    def __init__(self, variant: RuleSet, deal: Deal, budget: Budget | None,
                 solver: Solver | None, exact: bool = False) -> None:
        self.variant, self.deal, self.solver, self.exact = variant, deal, solver, exact
        self.budget = budget or Budget()
        self.nodes = 0
        self.began = time.perf_counter()

    def options(self, specs: list[tuple[str, str, Seat, Suit | None]]) -> list[Option]:
        """Each option ``(label, contract, leader, trump)`` analysed within the one
        budget, as a table's rows are (``kingsolve.search.table.analyse_each``): each starts
        with an equal part of what is left, and the time an option leaves goes to the
        options still open."""
        items = [(label, Position(self.variant, contract, self.deal, leader=leader, trump=trump))
                 for label, contract, leader, trump in specs]
        seats = list(items[0][1].seats) if items else []
        found = analyse_each(items, seats, self.budget.start(pieces=len(items)),
                             exact=self.exact, solver=self.solver, what="option")
        self.nodes += sum(int(a.nodes) for a in found)
        return [Option(label, contract, trump, leader, dict(a.values), dict(a.bounds),
                       dict(a.estimates))
                for (label, contract, leader, trump), a in zip(specs, found)]

    def done(self, kind: str, options: list[Option], summary: dict, seed: Any,
             params: dict) -> Choices:
        summary = {**summary, "exact": all(o.solved for o in options)}
        return Choices(kind, self.variant.name, self.deal, tuple(options), summary, self.budget,
                       seed, self.nodes, (time.perf_counter() - self.began) * 1000, params)


def _deal(deal: "Deal | str") -> Deal:
    return deal if isinstance(deal, Deal) else Deal(deal)


def _trump_contract(variant: RuleSet, contract: str | None) -> str:
    if contract is None:
        contract = "festa" if "festa" in variant.contracts else "trumps"
    c = variant.contract(contract)
    if c.trump == TRUMP_NONE:
        raise InvalidRequestError(f"contract {contract!r} of variant {variant.name!r} takes no "
                                  f"trump: nothing to choose")
    return contract


def _trump_label(trump: Suit | None) -> str:
    return "no trump" if trump is None else f"trump {trump.letter}"


def _best(options: Iterable[Option], seat: Seat) -> list[Option]:
    """The options of the seat's best rating (its exact value where proved)."""
    options = list(options)
    top = max(o.rating(seat) for o in options)
    return [o for o in options if o.rating(seat) == top]


def _proved_best(options: Iterable[Option], seat: Seat) -> bool:
    """Whether one of the seat's best options is proved at least as good as every
    other option: its lowest value reaches every other option's highest."""
    options = list(options)
    return any(all(o.bounds[seat][1] <= b.bounds[seat][0] for o in options if o is not b)
               for b in _best(options, seat))


def _ranking(options: Iterable[Option], seat: Seat) -> list[str]:
    """The options' labels from the seat's best to its worst (by ``Option.rating``)."""
    return [o.label for o in sorted(options, key=lambda o: -o.rating(seat))]


def trump_choice(variant: "str | RuleSet", deal: "Deal | str", leader: "Seat | str | None" = None,
                 dealer: "Seat | str | None" = None, contract: str | None = None,
                 budget: Budget | None = None, seed: Any = None,
                 solver: Solver | None = None, exact: bool = False) -> Choices:
    """Every seat's value for each trump (and no trump where allowed).

    The Italian dealer's declaration (the seat after ``dealer`` leads, docs/rules.md 4-5),
    the Turkish ``trumps`` (the chooser leads: pass it as ``leader``, docs/rules.md 7), the
    Portuguese festa (docs/rules.md 6). ``summary["best"]`` gives each seat's best trumps.
    """
    variant = resolve_variant(variant)
    deal = _deal(deal)
    contract = _trump_contract(variant, contract)
    first = _first_leader(variant, deal, leader, dealer)
    run = _Analyser(variant, deal, budget, solver, exact)
    options = run.options([(_trump_label(t), contract, first, t)
                           for t in variant.contract(contract).trump_options])
    summary = {"best": {s.name: [o.label for o in _best(options, s)] for s in deal.seats},
               "proved_best": {s.name: _proved_best(options, s) for s in deal.seats},
               "ranking": {s.name: _ranking(options, s) for s in deal.seats}}
    params = {"contract": contract, "leader": first.name}
    if dealer is not None:
        params["dealer"] = Seat.parse(dealer).name
    return run.done("trump", options, summary, seed, params)


def _first_leader(variant: RuleSet, deal: Deal, leader, dealer) -> Seat:
    if leader is None and dealer is None:
        raise InvalidRequestError("give the leader or the dealer (the seat after it leads)")
    if leader is not None:
        first = Seat.parse(leader)
        if dealer is not None and variant.next_seat(Seat.parse(dealer), deal.seats) != first:
            raise InvalidRequestError(f"leader {first.name} is not the seat after dealer "
                                      f"{Seat.parse(dealer).name}")
        return first
    return variant.next_seat(Seat.parse(dealer), deal.seats)


def sale_choice(variant: "str | RuleSet", deal: "Deal | str", dealer: "Seat | str",
                budget: Budget | None = None, seed: Any = None,
                solver: Solver | None = None, exact: bool = False) -> Choices:
    """The Italian sale (docs/rules.md 10): each buyer and price, double dummy.

    Without a sale the dealer declares its best trump. A buyer at price k names its own
    best trump and scores its tricks - k, the dealer its tricks + k. Per buyer the
    summary gives both outcomes at every price, the outcomes without a sale, and
    ``stops_paying``: the lowest price at which buying no longer gains the buyer
    anything (``highest_paying_price`` is one less; 0 when buying never pays).
    """
    variant = resolve_variant(variant).require("sale")
    deal = _deal(deal)
    dealer = Seat.parse(dealer)
    if dealer not in deal.seats:
        raise InvalidRequestError(f"invalid dealer {dealer.name!r}: that seat is not in play")
    first = variant.next_seat(dealer, deal.seats)
    run = _Analyser(variant, deal, budget, solver, exact)
    options = run.options([(_trump_label(t), "trumps", first, t)
                           for t in variant.contract("trumps").trump_options])
    per_trick = variant.contract("trumps").each_trick
    declared = _best(options, dealer)[0]
    buyers = {}
    for buyer in deal.seats:
        if buyer == dealer:
            continue
        named = _best(options, buyer)[0]
        without_b, without_d = declared.rating(buyer), declared.rating(dealer)
        prices = []
        stops = None
        for k in range(1, deal.tricks + 1):
            b = named.rating(buyer) - k * per_trick
            d = named.rating(dealer) + k * per_trick
            prices.append({"price": k, "buyer": json_number(b), "dealer": json_number(d),
                           "buyer_gains": json_number(b - without_b),
                           "dealer_gains": json_number(d - without_d)})
            if stops is None and b <= without_b:
                stops = k
        if stops is None:
            stops = deal.tricks + 1
        buyers[buyer.name] = {
            "trump": named.label, "value": json_number(named.rating(buyer)),
            "without_sale": {"buyer": json_number(without_b), "dealer": json_number(without_d)},
            "stops_paying": stops, "highest_paying_price": stops - 1, "prices": prices}
    summary = {"dealer_declares": declared.label,
               "dealer_value": json_number(declared.rating(dealer)), "buyers": buyers}
    return run.done("sale", options, summary, seed,
                    {"dealer": dealer.name, "leader": first.name})


def festa_choice(deal: "Deal | str", host: "Seat | str", budget: Budget | None = None,
                 seed: Any = None, solver: Solver | None = None,
                 exact: bool = False, variant: "str | RuleSet" = "portuguese") -> Choices:
    """The Portuguese festa (docs/rules.md 6), double dummy, for the host and each bidder.

    Options: ``433`` (host 100, each other 75, no play), ``null`` (the seat after the
    host leads), and every trump and null with each possible leader. The host's
    ``best`` is its best choice when no bid is accepted. Each bidder's plus game is its
    best trump with itself or the next seat leading (its null game likewise); it pays
    25 points a plus-trick or 75 a null-trick to the host, so a bid pays for it while
    its value minus the bid beats what it gets from the host's own best choice:
    ``highest_plus_bid`` and ``highest_null_bid`` (0 when no bid pays).
    """
    variant = resolve_variant(variant).require("festa")
    deal = _deal(deal)
    host = Seat.parse(host)
    if deal.players != 4 or host not in deal.seats:
        raise InvalidRequestError(f"invalid host {host.name!r}: the festa needs four seats")
    run = _Analyser(variant, deal, budget, solver, exact)
    specs: list[tuple[str, str, Seat, Suit | None]] = []
    after_host = variant.next_seat(host, deal.seats)
    for leader in deal.seats:
        specs.append((f"null, {leader.name} leads", "null", leader, None))
        specs.extend((f"trump {t.letter}, {leader.name} leads", "festa", leader, t) for t in Suit)
    options = [_fixed("433", {s: 100 if s == host else 75 for s in deal.seats})]
    options += run.options(specs)
    by_label = {o.label: o for o in options}
    host_options = [by_label["433"], by_label[f"null, {after_host.name} leads"]]
    host_options += [o for o in options if o.contract == "festa" and o.leader in (host, after_host)]
    host_best = _best(host_options, host)[0]
    bidders = {}
    for bidder in deal.seats:
        if bidder == host:
            continue
        leaders = (bidder, variant.next_seat(bidder, deal.seats))
        plus = _best([o for o in options if o.contract == "festa" and o.leader in leaders], bidder)[0]
        null = _best([o for o in options if o.contract == "null" and o.leader in leaders], bidder)[0]
        baseline = host_best.rating(bidder)
        highest_plus = 0
        while plus.rating(bidder) - 25 * (highest_plus + 1) > baseline and \
                highest_plus < deal.tricks:
            highest_plus += 1
        highest_null = 0
        while null.rating(bidder) - 75 * (highest_null + 1) > baseline and highest_null < 3:
            highest_null += 1
        bidders[bidder.name] = {
            "plus_game": plus.label, "plus_value": json_number(plus.rating(bidder)),
            "null_game": null.label, "null_value": json_number(null.rating(bidder)),
            "without_bid": json_number(baseline),
            "highest_plus_bid": highest_plus, "highest_null_bid": highest_null}
    summary = {"host_best": host_best.label,
               "host_value": json_number(host_best.rating(host)),
               "host_proved_best": _proved_best(host_options, host),
               "host_values": {o.label: json_number(o.rating(host)) for o in host_options},
               "bidders": bidders}
    return run.done("festa", options, summary, seed, {"host": host.name})


def contract_choice(deal: "Deal | str", chooser: "Seat | str",
                    chosen: Iterable[tuple["Seat | str", str]] = (),
                    budget: Budget | None = None, seed: Any = None,
                    solver: Solver | None = None, exact: bool = False,
                    variant: "str | RuleSet" = "turkish") -> Choices:
    """The Turkish chooser's contracts under the quotas (docs/rules.md 7), double dummy.

    ``chosen`` lists the (seat, contract) choices already made in the match. Each
    penalty contract is played twice a match; each seat chooses three penalty
    contracts and two ``trumps``. The chooser leads; for ``trumps`` it names the trump,
    so each suit is an option.
    """
    variant = resolve_variant(variant).require("chooser")
    deal = _deal(deal)
    chooser = Seat.parse(chooser)
    if chooser not in deal.seats:
        raise InvalidRequestError(f"invalid chooser {chooser.name!r}: that seat is not in play")
    from .match import check_turkish_choices
    pairs = []
    for i, item in enumerate(chosen):
        if isinstance(item, (str, bytes)) or not hasattr(item, "__len__") or len(item) != 2:
            raise InvalidRequestError(f"invalid chosen[{i}] {item!r}: expected (seat, "
                                      f"contract)")
        pairs.append((Seat.parse(item[0]), item[1]))
    check_turkish_choices(pairs, variant=variant)
    played = {name: sum(1 for _, n in pairs if n == name) for name in TURKISH_PENALTIES}
    penalties = {s: sum(1 for x, n in pairs if x == s and n != "trumps") for s in Seat}
    trumps = {s: sum(1 for x, n in pairs if x == s and n == "trumps") for s in Seat}
    each, own_penalties, own_trumps = (variant.quotas[k] for k in
                                       ("each_penalty_contract", "penalty_per_seat", "trumps_per_seat"))
    allowed = []
    if penalties[chooser] < own_penalties:
        allowed += [name for name in TURKISH_PENALTIES if played[name] < each]
    specs: list[tuple[str, str, Seat, Suit | None]] = [(n, n, chooser, None) for n in allowed]
    if trumps[chooser] < own_trumps:
        specs += [(f"trumps {t.letter}", "trumps", chooser, t) for t in Suit]
    if not specs:
        raise InvalidRequestError(f"{chooser.name} has no contract left to choose: its "
                                  f"{own_penalties} penalties and {own_trumps} trumps are chosen")
    run = _Analyser(variant, deal, budget, solver, exact)
    options = run.options(specs)
    best = _best(options, chooser)
    summary = {"best": [o.label for o in best], "value": json_number(best[0].rating(chooser)),
               "proved_best": _proved_best(options, chooser),
               "ranking": _ranking(options, chooser),
               "left": {"penalties": own_penalties - penalties[chooser],
                        "trumps": own_trumps - trumps[chooser]}}
    return run.done("contract", options, summary, seed, {"chooser": chooser.name})


def redeal_choice(deal: "Deal | str", threshold: int = 4, seed: Any = None) -> Choices:
    """The booklet's domino redeal property (docs/rules.md 4): who may ask for a redeal."""
    from ..game.domino import redeal_property
    check_int(threshold, "threshold", 1, expected="a whole number of at least 1")
    deal = _deal(deal)
    prop = redeal_property(deal, threshold)
    summary = {"seats": prop, "may_redeal": [s for s, v in prop.items() if v["may_redeal"]]}
    return Choices("redeal", "italian", deal, (), summary, None, seed, 0, 0.0,
                   {"threshold": threshold})
