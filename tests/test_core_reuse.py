"""Cores reused between searches (kingsolve.solver._leased_core, ext/README.md).

A thread keeps one core per table size; each load starts a new table epoch instead
of clearing the table (a load of the same contract and cards keeps it), every 31
loads the table is cleared, and a change between exact entries (singles) and wide
entries (doubles) clears it. None of this may change a value (docs/rules.md 11).
"""

from __future__ import annotations

import random

import pytest

from kingsolve import Deal, Position, Seat
from kingsolve.errors import SolveTimeout
from kingsolve.result import Budget
from kingsolve.solver import _leased_core, solve

import bruteforce
from test_solver_differential import _short_deal, random_position

SINGLES = ("italian", "no-queens", None, (), 4, False)
DOUBLES = ("italian", "no-trumps", None, (), 4, True)
TRUMPS = ("italian", "trumps", "H", (), 4, True)


def test_a_thread_reuses_its_core_and_a_nested_lease_gets_another():
    pos = Position("italian", "no-trumps", Deal.random(3), leader=Seat.E)
    budget = Budget()
    with _leased_core(pos, budget) as first:
        with _leased_core(pos, budget) as nested:
            assert nested is not first
    with _leased_core(pos, budget) as again:
        assert again is first


def test_values_stay_exact_through_epochs_and_layout_changes():
    # 90 searches in one thread: the epoch wraps twice and the layout changes at
    # almost every step (singles, doubles, doubles with trumps, in turn).
    configs = (SINGLES, DOUBLES, TRUMPS)
    for i in range(90):
        pos = random_position(configs[i % 3], 1000 + i)
        result = solve(pos)
        for seat in pos.seats:
            assert result.values[seat] == bruteforce.value(pos, seat), (i, pos, seat)
        if not pos.complete:
            assert result.cards == bruteforce.card_values(pos), (i, pos)


@pytest.mark.parametrize("cfg", [SINGLES, DOUBLES, TRUMPS], ids=["singles", "doubles", "trumps"])
def test_the_same_cards_under_each_leader_share_the_table_and_stay_exact(cfg):
    # The same contract and cards loaded again (a table's leaders in turn) keep the
    # table's entries: each leader's values must still be exact.
    vname, cname, trump, _, _, doubles = cfg
    for i in range(6):
        deal = _short_deal(random.Random(f"leaders/{cname}/{i}"), 52, 4, 3)
        for leader in (Seat.N, Seat.E, Seat.S, Seat.W, Seat.N):
            pos = Position(vname, cname, deal, leader=leader, trump=trump, doubles=doubles)
            result = solve(pos)
            for seat in pos.seats:
                assert result.values[seat] == bruteforce.value(pos, seat), (i, pos, seat)
            assert result.cards == bruteforce.card_values(pos), (i, pos)


def test_a_stopped_search_leaves_the_core_usable():
    # A budget stop mid-search leaves the entries of an unfinished search behind:
    # the next loads (same table size, so the same core) must not read them.
    big = Position("italian", "no-queens", Deal.random(5), leader=Seat.S)
    with pytest.raises(SolveTimeout):
        solve(big, seats=["N"], budget=Budget(nodes=20_000, tt_mb=1))
    for i in range(5):
        pos = random_position(SINGLES, 2000 + i)
        result = solve(pos, budget=Budget(tt_mb=1))
        for seat in pos.seats:
            assert result.values[seat] == bruteforce.value(pos, seat)


def test_a_thread_keeps_the_cores_of_two_table_sizes_at_most():
    from kingsolve import solver
    pos = Position("italian", "no-trumps", Deal.random(7), leader=Seat.N)
    for mb in (1, 2, 4, 8):
        with _leased_core(pos, Budget(tt_mb=mb)):
            pass
    kept = solver._cores.by_mb
    assert len(kept) == solver._KEPT_CORES
    assert set(kept) == {4, 8}


def test_the_core_counts_its_trick_start_nodes_as_dds_does():
    # DDS reports the positions at a trick start its search reaches; the core counts
    # the same (benchmarks/core_speed.py compares the two), among all its nodes.
    pos = Position("italian", "no-trumps", Deal.random(5), leader=Seat.S, doubles=True)
    for _ in range(28):                    # 7 tricks played: a position at a trick start
        pos.play(pos.legal_cards()[0])
    budget = Budget()
    with _leased_core(pos, budget) as core:
        core.set_budget(budget.nodes, budget.ms)
        assert core.trick_nodes == 0
        core.value(0b0101, 0)              # N+S
        assert 1 <= core.trick_nodes < core.nodes
        core.set_budget(budget.nodes, budget.ms)
        assert core.trick_nodes == 0 and core.nodes == 0


def test_the_lone_seat_games_memos_stay_exact_through_their_epochs():
    # ext/README.md ("a lone seat that can lose every trick"): the suit games'
    # memos keep one epoch per load and are cleared every 63 loads; 130 singles
    # loads in one thread (two wraps) must keep every value exact (docs/rules.md 11).
    for i in range(130):
        pos = random_position(("italian", "no-tricks", None, (), 4, False), 3000 + i)
        result = solve(pos)
        for seat in pos.seats:
            assert result.values[seat] == bruteforce.value(pos, seat), (i, pos, seat)
