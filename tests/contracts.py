"""Every trick contract's configurations, and the seeded deals, positions and records the
tests draw.

A configuration is (variant, contract, trump, options, players, doubles): every trick
contract of every rule set (docs/rules.md sections 4-8) with each trump, its options, 2
and 3 players and Italian doubles. The positions are seeded, so a failure repeats.
"""

from __future__ import annotations

import random
from typing import Callable, Sequence

import pytest

from kingsolve import Deal, Position, Seat
from kingsolve.game.cards import Card, cards_of_mask, deck_mask
from kingsolve.game.record import Record
from kingsolve.game.deal import seats_for_players
from kingsolve.game.rules import TRUMP_NAMED, TRUMP_NAMED_OR_NONE, VARIANTS


def _configs():
    """(variant, contract, trump, options, players, doubles) for every trick contract."""
    out = []
    for vname, rs in VARIANTS.items():
        setups = [(4, False)]
        if vname == "italian":
            setups = [(4, False), (3, False), (2, False), (4, True)]
        for players, doubles in setups:
            for cname, c in rs.contracts.items():
                if c.kind != "tricks":
                    continue
                trumps = [None]
                if c.trump in (TRUMP_NAMED, TRUMP_NAMED_OR_NONE):
                    trumps = ["S", "H", "D", "C"] + ([None] if c.trump == TRUMP_NAMED_OR_NONE else [])
                for t in trumps:
                    out.append((vname, cname, t, (), players, doubles))
                for opt in c.options:
                    out.append((vname, cname, None, (opt,), players, doubles))
    return out


CONFIGS = _configs()


def fast_sample(cases: Sequence, ids: Callable[[object], str], every: int = 4) -> list:
    """``cases`` as test parameters, all but every ``every``-th marked slow: the fast tier
    (``make test-fast``) runs that sample of a long family, the full suite all of it."""
    return [pytest.param(case, id=ids(case), marks=() if i % every == 0 else pytest.mark.slow)
            for i, case in enumerate(cases)]


def config_id(cfg) -> str:
    """The configuration's test id: variant-contract, then trump, options, players, doubles."""
    v, c, t, o, p, d = cfg
    return f"{v}-{c}" + (f"-{t}" if t else "") + "".join(f"-{x}" for x in o) + \
        (f"-{p}p" if p != 4 else "") + ("-doubles" if d else "")


def short_deal(rng: random.Random, deck: int, players: int, per: int) -> Deal:
    """A deal of ``per`` cards each, biased towards the cards that score."""
    cards = cards_of_mask(deck_mask(deck))
    if players == 3:
        cards = [c for c in cards if c != Card("C2")]
    wanted = [c for c in (Card("HK"), Card("D8")) if c in cards and rng.random() < 0.6]
    rest = [c for c in cards if c not in wanted]
    rng.shuffle(rest)
    chosen = (wanted + rest)[:per * players]
    rng.shuffle(chosen)
    return _dealt(chosen, seats_for_players(players), per)


def _cards_left(players: int) -> int:
    """The most cards a seat keeps in the positions of few cards: brute-forced whole."""
    return {4: 3, 3: 3, 2: 5}[players]


def random_position(cfg, seed: int) -> Position:
    """A seeded position with few cards left under ``cfg``."""
    vname, cname, trump, options, players, doubles = cfg
    rs = VARIANTS[vname]
    rng = random.Random(f"{config_id(cfg)}/{seed}")
    leader = rng.choice(seats_for_players(players))
    if seed % 2 == 0:
        deal = short_deal(rng, rs.deck, players, rng.randint(2, _cards_left(players)))
        pos = Position(rs, cname, deal, leader=leader, trump=trump, doubles=doubles,
                       options=options)
        extra = rng.randrange(players)
    else:
        deal = Deal.random(rng.randrange(10**9), deck=rs.deck, players=players)
        pos = Position(rs, cname, deal, leader=leader, trump=trump, doubles=doubles,
                       options=options)
        keep = rng.randint(1, _cards_left(players))
        while not pos.complete and pos.n_tricks - len(pos.tricks) > keep:
            pos.play(rng.choice(pos.legal_cards()))
        extra = rng.randrange(players)
    for _ in range(extra):
        if pos.complete:
            break
        pos.play(rng.choice(pos.legal_cards()))
    return pos


def deeper_position(cfg, seed: int, keep: int = 4) -> Position:
    """A seeded position of a full deal with ``keep`` tricks left after
    random legal play, often mid-trick: where the core's rules that need several
    tricks (the lone seat's suit games, cashing runs, later tricks) decide."""
    vname, cname, trump, options, players, doubles = cfg
    rs = VARIANTS[vname]
    rng = random.Random(f"deeper/{config_id(cfg)}/{seed}")
    deal = Deal.random(rng.randrange(10**9), deck=rs.deck, players=players)
    pos = Position(rs, cname, deal, leader=rng.choice(seats_for_players(players)),
                   trump=trump, doubles=doubles, options=options)
    while not pos.complete and pos.n_tricks - len(pos.tricks) > keep:
        pos.play(rng.choice(pos.legal_cards()))
    for _ in range(rng.randrange(players)):
        if not pos.complete:
            pos.play(rng.choice(pos.legal_cards()))
    return pos


def small_deal(rng: random.Random, per_seat: int, players: int = 4) -> Deal:
    """``per_seat`` cards a seat from the 52-card deck (N and S alone with 2 players)."""
    cards = cards_of_mask(deck_mask(52))
    rng.shuffle(cards)
    seats = [Seat.N, Seat.E, Seat.S, Seat.W] if players == 4 else [Seat.N, Seat.S]
    return _dealt(cards, seats, per_seat)


def _dealt(cards: list[Card], seats, per: int) -> Deal:
    """The deal that gives each of ``seats`` in turn the next ``per`` of ``cards``."""
    hands: list[int | None] = [None] * 4
    for i, seat in enumerate(seats):
        hands[seat] = sum(c.mask for c in cards[i * per:(i + 1) * per])
    return Deal(hands)


def played_out(seed: int = 4) -> Record:
    """An Italian no-hearts record of a 13-card hand played to the end, each seat
    playing its last legal card."""
    unplayed = Record("italian", "no-hearts", Deal.random(seed), "N", dealer="W")
    pos, play = unplayed.position(), []
    while len(play) < 52:
        play.append(pos.legal_cards()[-1])
        pos.play(play[-1])
    return Record("italian", "no-hearts", unplayed.deal, "N", dealer="W", play=play)
