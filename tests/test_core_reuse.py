"""Cores reused between searches (kingsolve.search.engine.leased_core, ext/README.md).

A thread keeps one core per table size; a load of another deal or contract starts a
new table epoch instead of clearing the table, every 31 such loads the table is
cleared, and a change between exact entries (singles) and wide entries (doubles)
clears it; the positions of one deal and contract share their entries. None of this
may change a value (docs/rules.md 11): the brute force's values are read from
tests/data/golden/.
"""

from __future__ import annotations

import random

import pytest

from kingsolve import Deal, Position, Seat
from kingsolve.errors import SolveTimeout
from kingsolve.search.budget import Budget
from kingsolve.search import engine
from kingsolve.search.solver import solve

import golden
from contracts import random_position, short_deal

GOLDEN = golden.Values("test_core_reuse")

SINGLES = ("italian", "no-queens", None, (), 4, False)
DOUBLES = ("italian", "no-trumps", None, (), 4, True)
TRUMPS = ("italian", "trumps", "H", (), 4, True)


def test_a_thread_reuses_its_core_and_a_nested_lease_gets_another():
    pos = Position("italian", "no-trumps", Deal.random(3), leader=Seat.E)
    budget = Budget()
    with engine.leased_core(pos, budget) as first:
        with engine.leased_core(pos, budget) as nested:
            assert nested is not first
    with engine.leased_core(pos, budget) as again:
        assert again is first


def test_values_stay_exact_through_epochs_and_layout_changes():
    # 90 searches in one thread: the epoch wraps twice and the layout changes at
    # almost every step (singles, doubles, doubles with trumps, in turn).
    configs = (SINGLES, DOUBLES, TRUMPS)
    for i in range(90):
        pos = random_position(configs[i % 3], 1000 + i)
        result = solve(pos)
        for seat in pos.seats:
            assert result.values[seat] == GOLDEN.value(pos, seat), (i, pos, seat)
        if not pos.complete:
            assert result.cards == GOLDEN.card_values(pos), (i, pos)


@pytest.mark.parametrize("cfg", [SINGLES, DOUBLES, TRUMPS], ids=["singles", "doubles", "trumps"])
def test_the_same_cards_under_each_leader_share_the_table_and_stay_exact(cfg):
    # The same contract and cards loaded again (a table's leaders in turn) keep the
    # table's entries: each leader's values must still be exact.
    vname, cname, trump, _, _, doubles = cfg
    for i in range(6):
        deal = short_deal(random.Random(f"leaders/{cname}/{i}"), 52, 4, 3)
        for leader in (Seat.N, Seat.E, Seat.S, Seat.W, Seat.N):
            pos = Position(vname, cname, deal, leader=leader, trump=trump, doubles=doubles)
            result = solve(pos)
            for seat in pos.seats:
                assert result.values[seat] == GOLDEN.value(pos, seat), (i, pos, seat)
            assert result.cards == GOLDEN.card_values(pos), (i, pos)


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
            assert result.values[seat] == GOLDEN.value(pos, seat)


def test_idle_cores_are_shared_by_threads_and_bounded(monkeypatch):
    # a core outlives the thread that ran it (a fresh one pays for its table's pages),
    # the one that last loaded the same hand comes first, and idle tables stay within
    # KEPT_MB, the least recently used going first
    from concurrent.futures import ThreadPoolExecutor
    engine.idle_cores.clear()
    pos = Position("italian", "no-trumps", Deal.random(7), leader=Seat.N)
    other = Position("italian", "no-trumps", Deal.random(8), leader=Seat.N)
    budget = Budget(tt_mb=4)

    def lease_twice():
        with engine.leased_core(pos, budget) as a, engine.leased_core(other, budget) as b:
            return a, b

    with ThreadPoolExecutor(1) as pool:
        a, b = pool.submit(lease_twice).result()
    with engine.leased_core(pos, budget) as core:
        assert core is a                  # another thread, the same hand's core
    with engine.leased_core(other, budget) as core:
        assert core is b
    assert engine.idle_cores.sizes() == [4, 4]
    monkeypatch.setattr(engine.IdleCores, "KEPT_MB", 12)
    for mb in (1, 2, 8):
        with engine.leased_core(pos, Budget(tt_mb=mb)):
            pass
    assert engine.idle_cores.sizes() == [1, 2, 8]     # the two oldest went first


def test_the_core_counts_its_trick_start_nodes_as_dds_does():
    # DDS reports the positions at a trick start its search reaches; the core counts
    # the same (research/core_speed.py compares the two), among all its nodes.
    pos = Position("italian", "no-trumps", Deal.random(5), leader=Seat.S, doubles=True)
    for _ in range(28):                    # 7 tricks played: a position at a trick start
        pos.play(pos.legal_cards()[0])
    budget = Budget()
    with engine.leased_core(pos, budget) as core:
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
            assert result.values[seat] == GOLDEN.value(pos, seat), (i, pos, seat)


HANDS = (SINGLES, DOUBLES, TRUMPS, ("turkish", "no-tricks", None, (), 4, False),
         ("italian", "no-queens", None, (), 3, False))


@pytest.mark.parametrize("cfg", HANDS, ids=lambda cfg: "-".join(str(x) for x in cfg[:2]) +
                         ("-doubles" if cfg[5] else "") + (f"-{cfg[4]}p" if cfg[4] != 4 else ""))
def test_the_positions_of_one_hand_share_the_table_and_stay_exact(cfg):
    # Every position of a hand, forward then back, then the hand's other leaders: each
    # load of the same deal and contract reads the entries the loads before it left.
    for seed in range(4):
        pos = random_position(cfg, 2 * seed + 1)        # a full deal, a few cards left
        rng = random.Random(seed)
        line = [pos.copy()]
        while not pos.complete:
            pos.play(rng.choice(pos.legal_cards()))
            line.append(pos.copy())
        for p in line + line[::-1]:
            result = solve(p)
            for seat in p.seats:
                assert result.values[seat] == GOLDEN.value(p, seat), (p, seat)
            if not p.complete:
                assert result.cards == GOLDEN.card_values(p), p
        short = random_position(cfg, 2 * seed)          # a short deal from its start
        for leader in short.seats:
            p = Position(short.variant, short.contract, short.deal, leader=leader,
                         trump=short.trump, doubles=short.doubles)
            result = solve(p)
            for seat in p.seats:
                assert result.values[seat] == GOLDEN.value(p, seat), (p, seat)


def test_a_second_search_of_a_position_reads_the_first():
    # Same deal and contract: the table keeps its entries, so the root is all but
    # settled by them.
    pos = Position("italian", "no-hearts", Deal.random(11), leader=Seat.W)
    rng = random.Random(11)
    while len(pos.tricks) < 5:
        pos.play(rng.choice(pos.legal_cards()))
    budget = Budget()
    values, nodes = [], []
    for p in (pos, pos.copy()):
        with engine.leased_core(p, budget) as core:
            core.set_budget(budget.nodes, budget.ms)
            values.append(core.value(0b0001, 0))
            nodes.append(core.nodes)
    assert values[0] == values[1]
    assert nodes[1] * 20 < nodes[0]
