"""kingsolve against DDS, the bridge double-dummy solver (through endplay).

Italian doubles ``trumps`` and ``no-trumps`` with N+S against E+W are bridge play
problems (docs/rules.md 4 and 11): a side's value is the points taken so far plus its
future tricks, times 2 in ``no-trumps``. On 200 seeded deals, played at random
down to 5-9 tricks (often mid-trick), every card of the seat on move and both
sides' values must agree with DDS ``solve_board``. On 10 full 13-card deals (every
trump and no trump) every opening lead and both sides agree too, and 3 more full
deals are compared through ``dd_table``.
"""

from __future__ import annotations

import random

import pytest

from kingsolve import Deal, Position, Seat
from kingsolve.game.cards import Card
from kingsolve.game.deal import hand_text
from kingsolve.search.budget import Budget
from kingsolve.search.solver import solve
from kingsolve.search.table import dd_table

endplay_types = pytest.importorskip("endplay.types")
endplay_dds = pytest.importorskip("endplay.dds")

pytestmark = pytest.mark.dds

DENOM = {None: "nt", "S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
PLAYER = {Seat.N: "north", Seat.E: "east", Seat.S: "south", Seat.W: "west"}


def _dds_board(pos: Position):
    """The endplay deal of the position: hands at the start of the current trick."""
    hands = list(pos.hands)
    for seat, bit in pos.trick:
        hands[seat] |= 1 << bit
    pbn = "N:" + " ".join(hand_text(h) for h in hands)
    trump = None if pos.trump is None else pos.trump.name
    deal = endplay_types.Deal(pbn, first=getattr(endplay_types.Player, PLAYER[pos.trick_leader]),
                              trump=getattr(endplay_types.Denom, DENOM[trump]))
    for _, bit in pos.trick:
        deal.play(str(Card.from_bit(bit)))
    return deal


def _card_of(dds_card) -> Card:
    rank = int(dds_card.rank).bit_length() - 1
    return Card(int(dds_card.suit), rank)


def _case(seed: int):
    rng = random.Random(f"dds/{seed}")
    contract = "no-trumps" if seed % 3 == 0 else "trumps"
    trump = None if contract == "no-trumps" else "SHDC"[seed % 4]
    leader = Seat(seed % 4)
    deal = Deal.random(rng.randrange(10**9))
    pos = Position("italian", contract, deal, leader=leader, trump=trump, doubles=True)
    keep = rng.randint(5, 9)
    while len(pos.tricks) < 13 - keep:
        pos.play(rng.choice(pos.legal_cards()))
    for _ in range(rng.randrange(4)):
        pos.play(rng.choice(pos.legal_cards()))
    return pos


def _check_every_card(pos: Position) -> None:
    """Every legal card of the seat on move and both sides' values, against DDS."""
    mult = 2 if pos.contract.name == "no-trumps" else 1
    result = solve(pos, budget=Budget(nodes=2_000_000_000, ms=300_000))
    mover = pos.to_move
    taken = sum(pos.taken[s] for s in pos.side_of(mover))
    dds = {_card_of(c): t for c, t in endplay_dds.solve_board(_dds_board(pos))}
    assert set(dds) == set(result.cards), pos
    for card, tricks in dds.items():
        assert result.cards[card] == taken + mult * tricks, (pos, card)
    best = max(dds.values())
    assert result.values[mover] == taken + mult * best
    other = mover.next()
    other_taken = sum(pos.taken[s] for s in pos.side_of(other))
    remaining = pos.n_tricks - len(pos.tricks)
    assert result.values[other] == other_taken + mult * (remaining - best), pos


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10))
def test_every_opening_lead_of_a_full_deal_agrees_with_dds(seed):
    # docs/rules.md 4 and 11: a full 13-card deal, the leader's every card and both sides.
    rng = random.Random(f"dds-full-cards/{seed}")
    deal = Deal.random(rng.randrange(10**9))
    trump = [None, "S", "H", "D", "C"][seed % 5]
    contract = "no-trumps" if trump is None else "trumps"
    _check_every_card(Position("italian", contract, deal, leader=Seat(seed % 4), trump=trump,
                               doubles=True))


@pytest.mark.parametrize("chunk", range(10))
def test_every_card_agrees_with_dds(chunk):
    for seed in range(chunk * 20, chunk * 20 + 20):
        _check_every_card(_case(seed))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_full_deals_agree_with_dds(seed):
    rng = random.Random(f"dds-full/{seed}")
    deal = Deal.random(rng.randrange(10**9))
    trump = [None, "S", "H"][seed]
    contract = "no-trumps" if trump is None else "trumps"
    leader = Seat(seed % 4)
    pos = Position("italian", contract, deal, leader=leader, trump=trump, doubles=True)
    mult = 2 if trump is None else 1
    table = dd_table("italian", deal, leader, contracts=[contract], trump=trump, doubles=True,
                     budget=Budget(nodes=2_000_000_000, ms=300_000), exact=True)
    values = table.to_dict()["rows"][0]["values"]
    best = max(t for _, t in endplay_dds.solve_board(_dds_board(pos)))
    assert values[leader.name] == mult * best
    assert values[leader.next().name] == mult * (13 - best)
