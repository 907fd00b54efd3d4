"""The value model (docs/rules.md 12): its features and network in the core against a
plain-Python reference, the estimating search against exact values, the estimates
of the analysis inside proved ranges, and a reproducible fit."""

from __future__ import annotations

import random

import pytest

from kingsolve.search.analysis import analyse
from kingsolve.search.budget import Budget
from kingsolve.search import engine
from kingsolve.search.solver import solve
from kingsolve.search.value_model import default_model, read_model, write_model

from training.positions import SETTINGS, position
from value_model_reference import NF, features as ref_features
from value_model_reference import network as ref_network

MODEL = default_model()


def _positions(count: int, seed: int, left=None):
    return [position(seed, i, left=left) for i in range(count)]


def _masks(pos):
    return [engine.side_mask(pos, s) for s in pos.seats if not pos.doubles or s.name in ("N", "E")]


def test_the_package_ships_a_model_with_its_making():
    assert MODEL is not None
    trained = MODEL.trained
    assert trained["command"].startswith("python -m training.fit")
    assert trained["seed"] is not None and trained["data_digest"]
    assert MODEL.header["features"] == NF


@pytest.mark.parametrize("seed", range(4))
def test_the_cores_features_equal_the_reference(seed):
    core = engine.Core(1)
    for pos in _positions(60, 1000 + seed):
        engine.load(core, pos)
        for mask in _masks(pos):
            got = core.features(mask)
            want = ref_features(pos, mask, core)
            if want is None:
                assert got is None
                continue
            assert got == pytest.approx(want, abs=1e-6), repr(pos)


def test_the_cores_network_equals_the_reference():
    core = engine.Core(1)
    n = 0
    for pos in _positions(25, 77):
        engine.load(core, pos)
        for mask in _masks(pos)[:2]:
            x = core.features(mask)
            if x is None:
                continue
            assert MODEL.core.evaluate(x) == pytest.approx(ref_network(MODEL, x), abs=1e-4)
            n += 1
    assert n >= 30


def test_every_kind_of_game_is_in_the_training_settings():
    kinds = {(s.variant, s.contract, s.players, s.doubles) for s in SETTINGS}
    assert ("italian", "no-queens", 4, True) in kinds
    assert ("italian", "no-hearts", 3, False) in kinds
    assert ("russian", "nothing", 4, False) in kinds


@pytest.mark.parametrize("left", [2, 3, 4])
def test_a_search_to_the_end_of_the_hand_is_the_exact_value(left):
    rnd = random.Random(left)
    checked = 0
    for pos in _positions(40, 500 + left, left=left):
        for seat in (rnd.choice(list(pos.seats)),):
            mask = engine.side_mask(pos, seat)
            exact = solve(pos, seats=[seat], cards=False).values[seat]
            with engine.leased_core(pos, Budget()) as core:
                core.set_model(MODEL.core)
                core.set_budget(10 ** 9, 60_000)
                got = core.estimate(mask, left)
            assert engine.total(pos, seat, got) == exact, repr(pos)
            checked += 1
    assert checked == 40


def test_the_search_is_held_in_the_quick_bounds():
    for pos in _positions(30, 9):
        with engine.leased_core(pos, Budget()) as core:
            core.set_model(MODEL.core)
            core.set_budget(10 ** 9, 60_000)
            lo, hi = core.bounds()
            for mask in _masks(pos)[:2]:
                for depth in (0, 1, 2):
                    assert lo <= core.estimate(mask, depth) <= hi


@pytest.mark.parametrize("index", range(6))
def test_the_model_estimates_lie_in_the_proved_ranges(index):
    pos = position(31, index, left=11)
    engine.idle_cores.clear()
    a = analyse(pos, budget=Budget(ms=300), estimator="model")
    assert a.estimated
    for card, (lo, hi) in a.card_bounds.items():
        assert lo <= a.card_estimates[card] <= hi
        if lo == hi:
            assert a.card_estimates[card] == lo
    for seat, (lo, hi) in a.bounds.items():
        assert lo <= a.estimates[seat] <= hi


def test_a_fit_on_a_tiny_seeded_set_is_reproducible(tmp_path):
    np = pytest.importorskip("numpy")
    from training.dataset import examples
    from training.fit import Network, fit
    from training.generate import label_position
    rows = [label_position(position(3, i, left=4 + i % 3), i, 5000) for i in range(24)]
    ex = examples(rows)
    assert len(ex.y) > 40 and ((ex.y >= 0) & (ex.y <= 1)).all()
    a = fit(ex, seed=5, hidden=(8, 4), epochs=3, batch=16)
    b = fit(ex, seed=5, hidden=(8, 4), epochs=3, batch=16)
    assert a.weights() == b.weights()
    assert a.weights() != fit(ex, seed=6, hidden=(8, 4), epochs=3, batch=16).weights()
    path = tmp_path / "m.bin"
    write_model(path, ex.x.shape[1], (8, 4), a.weights(), {"seed": 5})
    m = read_model(path)
    x = list(ex.x[0])
    assert m.core.evaluate(x) == pytest.approx(float(a.predict(ex.x[:1])[0]), abs=1e-5)
    assert isinstance(a, Network) and np.isfinite(a.predict(ex.x)).all()
