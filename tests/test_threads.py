"""Searches on several threads sharing one table (ext/README.md, "Threads").

The threads race on the table's entries and stop each other: none of it may change a
value (docs/rules.md 11). Every penalty contract of the 52-card rule sets, positions
of full deals with 8 and 9 tricks left reached by seeded random play: each seat's
value and each legal card's on 2 and 3 threads equal the one-thread values (the one
thread is held to the brute force in test_solver_differential.py); a budget stop on
several threads leaves ranges that hold the exact values. The same for each Italian
doubles contract's sides, whose wide entries the threads share under locks.
"""

from __future__ import annotations

import random

import pytest

from kingsolve import Deal, Position, Seat
from kingsolve.errors import SolveTimeout
from kingsolve.search.budget import Budget
from kingsolve.game.rules import VARIANTS
from kingsolve.search import engine
from kingsolve.search.solver import solve

#: every contract of the 52-card rule sets whose points are all penalties
PENALTY_CONTRACTS = [(vname, cname) for vname, rs in VARIANTS.items() if rs.deck == 52
                     for cname, c in rs.contracts.items() if c.penalty]


def _mid_hand(variant: str, contract: str, seed: int, left: int) -> Position:
    rng = random.Random(f"{variant}/{contract}/{seed}/{left}")
    pos = Position(variant, contract, Deal.random(rng.randrange(10**9)),
                   leader=Seat(rng.randrange(4)))
    while not pos.complete and (pos.n_tricks - len(pos.tricks) > left or pos.trick):
        pos.play(rng.choice(pos.legal_cards()))
    return pos


def test_the_contracts_are_the_penalty_ones():
    assert len(PENALTY_CONTRACTS) >= 20
    assert ("italian", "no-tricks") in PENALTY_CONTRACTS
    assert ("italian", "no-hearts") in PENALTY_CONTRACTS


@pytest.mark.slow
@pytest.mark.parametrize("variant, contract", PENALTY_CONTRACTS,
                         ids=[f"{v}-{c}" for v, c in PENALTY_CONTRACTS])
def test_several_threads_give_the_one_thread_values(variant, contract):
    for seed, left, threads in ((0, 8, 2), (1, 8, 3), (2, 9, 2)):
        pos = _mid_hand(variant, contract, seed, left)
        if pos.complete:
            continue
        one = solve(pos, cards=False)
        many = solve(pos, cards=False, threads=threads)
        assert many.values == one.values, (seed, left, threads)
    # the cards' values: the children of the root searched on threads too
    pos = _mid_hand(variant, contract, 3, 7)
    if not pos.complete:
        one = solve(pos, seats=[pos.to_move])
        two = solve(pos, seats=[pos.to_move], threads=2)
        assert two.values == one.values and two.cards == one.cards and two.best == one.best


@pytest.mark.slow
def test_budget_stops_on_threads_leave_ranges_that_hold_the_values():
    for contract in ("no-tricks", "no-queens", "no-hearts"):
        pos = _mid_hand("italian", contract, 4, 9)
        exact = solve(pos, cards=False)
        for nodes in (20_000, 200_000, 1_000_000):
            try:
                got = solve(pos, cards=False, budget=Budget(nodes=nodes), threads=2)
            except SolveTimeout as exc:
                assert exc.bounds is not None
                for seat, (lo, hi) in exc.bounds.items():
                    assert lo <= exact.values[seat] <= hi, (contract, nodes, seat)
            else:
                assert got.values == exact.values


def test_the_threads_share_the_node_budget_and_report_their_nodes():
    pos = _mid_hand("italian", "no-queens", 0, 9)      # a million nodes on one thread
    with engine.leased_core(pos, Budget(), threads=2) as core:
        assert core.threads == 2
        core.set_budget(1 << 40, 60_000.0)
        core.value(1 << int(Seat.N), 0)
        each = core.thread_nodes
        assert len(each) == 2 and core.nodes == sum(each) and each[1] > 0
    with engine.leased_core(pos, Budget()) as core:
        assert core.threads == 1 and len(core.thread_nodes) == 1
    # from an empty table: the core above keeps this hand's entries
    engine.idle_cores.clear()
    with pytest.raises(SolveTimeout, match="node budget of 8192"):
        solve(pos, seats=["N"], cards=False, budget=Budget(nodes=8192), threads=2)


DOUBLES_CONTRACTS = [name for name, c in VARIANTS["italian"].contracts.items()
                     if c.penalty or c.takes_trump or name == "no-trumps"]


@pytest.mark.slow
@pytest.mark.parametrize("contract", DOUBLES_CONTRACTS)
def test_doubles_sides_on_several_threads_give_the_one_thread_values(contract):
    for seed, left, threads in ((0, 8, 2), (1, 9, 3), (2, 10, 2)):
        rng = random.Random(f"threads/doubles/{contract}/{seed}")
        pos = Position("italian", contract, Deal.random(rng.randrange(10**9)),
                       leader=Seat(rng.randrange(4)), doubles=True,
                       trump=rng.choice("SHDC") if contract == "trumps" else None)
        while pos.n_tricks - len(pos.tricks) > left or pos.trick:
            pos.play(rng.choice(pos.legal_cards()))
        engine.idle_cores.clear()
        one = solve(pos, seats=["N", "E"], cards=False)
        engine.idle_cores.clear()
        many = solve(pos, seats=["N", "E"], cards=False, threads=threads)
        assert many.values == one.values, (seed, left, threads)
    one = solve(pos, seats=[pos.to_move])
    two = solve(pos, seats=[pos.to_move], threads=2)
    assert two.cards == one.cards and two.best == one.best


def test_one_card_positions_search_on_one_thread():
    pos = Position("italian", "no-trumps", Deal.random(2), leader="E", doubles=True)
    pos.play(pos.legal_cards()[0])
    assert solve(pos, threads=2).values == solve(pos).values


def test_a_half_written_entry_reads_as_no_entry():
    # A store racing a probe leaves a slot with one word of each entry: it must read
    # as neither (whatever the keys and bounds), never as a key with another's bounds.
    core = engine.Core(1)
    for a, b, lo_a, lo_b in (((1 << 58) | 12345, (1 << 58) | 12346, -5, -7),
                             ((3 << 58) | 1, (3 << 58) | 1 | (1 << 52), 0, -13),
                             ((1 << 58) | 77, (1 << 58) | 77 ^ 2, -2, -4)):
        assert core.torn_entry(a, lo_a, b, lo_b) == [a, 0, b, lo_b]


def test_a_solve_request_takes_threads_from_the_library_cli_and_api(make_client, capsys):
    # threads reach the search through every surface; the server spends its own
    import json

    from kingsolve_cli import main
    from kingsolve.errors import InvalidRequestError
    from kingsolve.io.request import solve_request
    pos = _mid_hand("italian", "no-hearts", 3, 8)
    req = {"variant": "italian", "contract": "no-hearts", "deal": pos.deal.pbn(),
           "leader": pos.leader.name, "play": [str(c) for c in pos.record], "exact": True}
    one = solve_request(req)
    two = solve_request({**req, "threads": 2})
    assert two["values"] == one["values"] and two["cards"] == one["cards"]
    with pytest.raises(InvalidRequestError, match="invalid field 'threads': 0 is out of range: expected 1 to 64"):
        solve_request({**req, "threads": 0})
    assert main(["solve", "--variant", "italian", "--contract", "no-hearts", "--deal",
                 req["deal"], "--leader", req["leader"], "--play", " ".join(req["play"]),
                 "--exact", "--threads", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["values"] == one["values"]
    client = make_client(TESTING=True, KINGSOLVE_TABLE_THREADS=2)
    assert client.post("/api/v1/solve", json={**req, "threads": 8}).get_json()["values"] == \
        one["values"]
    assert client.post("/api/v1/solve", json={**req, "threads": 65}).status_code == 400
