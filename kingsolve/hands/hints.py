"""Hints for a seat at the table: sampled deals it cannot tell apart, each solved.

Perfect-information Monte Carlo: ``SeatView`` collects what the seat knows (its
hand, the play, the rules' inferences, docs/rules.md 2), ``DealSampler`` draws full deals
uniformly among those consistent with it, and each deal is solved double dummy
(docs/rules.md 11, the paranoid value of the asking seat). A card's value is its mean
over the samples. Far from the end of the hand (more than ``horizon`` tricks left,
default 3), each card of each sample is instead played out: every seat follows the
play-out's policy (the simple player, ``play_preference``, or at the default level the
policy model) until ``horizon`` tricks remain, and that
position is solved double dummy (the play-out runs in the compiled core,
``kingsolve.search.solver.rollout_values``). Exact search of a whole 13-card singles hand
is often out of reach, and in the early tricks the play-out does not assume that
the three others play together against the seat; measured in
``research/hint_play.py``, it plays better than searching whole hands (README).

Two refinements are optional: ``inference`` weights each sampled deal by the
likelihood of the other seats' cards in it (``kingsolve.hands.inference``), and
``policy`` chooses who plays the play-outs (``kingsolve.hands.playouts``). A strength
``level`` (``LEVELS``) sets the samples, horizon, inference and policy together; level 0
is the simple player itself, level 1 the policy model's card
(``kingsolve.search.policy_model``), neither sampling; the default, the strongest,
plays its samples out by the policy model, every seat from its own view in the sample.

The choice hints (trump, the Italian sale, Turkish contract, Portuguese festa) score each
option by the same sampling of the unseen hands, from the seat's hand alone, with
the same deals for every option, each hand played out the same way
(``kingsolve.search.solver.playout_values``, the simple player's play-outs at every
level). No card has been played yet, so there is nothing to infer from; a level sets
their samples and horizon.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..game.cards import Card, Seat, Suit, cards_of_mask, deck_mask
from ..checks import check_int, check_positive, check_threads
from ..game.deal import Deal
from ..errors import InvalidRequestError, SolveTimeout, excerpt
from .match import contract_total
from ..game.position import Position
from ..search.budget import Budget
from ..search.result import Solver
from ..game.numbers import Number, json_int
from ..game.rule_documents import resolve_variant
from ..game.rules import RuleSet
from .sampling import DealSampler, SeatView
from .playouts import POLICIES, model_preference, policy_rollout_values
from .inference import PlayLikelihood, PlayModel, effective_size, is_positive, preference_key

__all__ = ["CardHint", "HintResult", "OptionValue", "ChoiceHint", "hint", "trump_hint",
           "sale_hint", "contract_hint", "festa_hint", "play_preference",
           "MAX_SAMPLES", "DEFAULT_HORIZON", "Level", "LEVELS", "DEFAULT_LEVEL",
           "BASELINE_LEVEL", "levels_answer", "level_number", "measured_strengths"]

#: The most samples a hint may ask for.
MAX_SAMPLES = 2000

#: Tricks left from which card hints search double dummy by default; earlier, each
#: sample is played out by the play-out's policy down to this many tricks.
DEFAULT_HORIZON = 3


@dataclass(frozen=True)
class Level:
    """What a strength level of the hints does.

    ``samples`` deals per card hint (0: no sampling, the simple player's card, or with
    the ``model`` policy the policy model's) and
    ``choice_samples`` per choice hint; ``horizon`` tricks left from which each sample
    is searched double dummy (before that, played out by ``policy``);
    ``inference`` weights each deal by the likelihood of the other seats' cards
    (``kingsolve.hands.inference``); ``policy`` is the play-out's
    (``kingsolve.hands.playouts``); ``name`` is the level's name in words.
    """

    samples: int
    choice_samples: int
    horizon: int
    inference: bool
    policy: str = "simple"
    name: str = ""

    def to_dict(self) -> dict:
        return {"name": self.name, "samples": self.samples,
                "choice_samples": self.choice_samples, "horizon": self.horizon,
                "inference": self.inference, "policy": self.policy}


#: The strength levels, weakest first, each measured stronger than the one below
#: (``measured_strengths``; docs/guide/hints.md, "Levels"). Settings not measured apart
#: from a level's (more samples, inference, a deeper horizon) are no level of their own.
LEVELS: tuple[Level, ...] = (
    Level(0, 4, DEFAULT_HORIZON, False, name="beginner"),      # the simple player
    Level(0, 6, DEFAULT_HORIZON, False, "model", "novice"),     # the policy model's card
    Level(4, 10, DEFAULT_HORIZON, False, name="casual"),
    Level(50, 20, DEFAULT_HORIZON, False, name="club"),         # the baseline of the strengths
    Level(50, 20, DEFAULT_HORIZON, False, "model", "expert"),   # play-outs by the model
)

#: The level of a hint that names none: the strongest.
DEFAULT_LEVEL = 4

#: The level each level's measured strength is over (``measured_strengths``).
BASELINE_LEVEL = 3


#: Each level's strength and time as measured (``research/hint_match.py``): the
#: ladder's table, which ``tests/test_level_ladder.py`` holds to ``LEVELS``.
STRENGTHS_PATH = Path(__file__).resolve().parent.parent / "data" / "level_strengths.json"


#: What ``levels_answer`` gives of a level's measured strength.
STRENGTH_KEYS = ("gain_share", "interval", "deals", "ms_13_cards")


@functools.lru_cache(maxsize=1)
def measured_strengths() -> dict:
    """The table of the levels' measured strengths (``STRENGTHS_PATH``)."""
    return json.loads(STRENGTHS_PATH.read_text(encoding="utf-8"))


def levels_answer() -> dict:
    """The strength levels, weakest first, each with its number, name, settings and
    measured strength, the default's number and the baseline's (the answer of ``GET
    /api/v1/levels``). A level's ``strength`` is its gain per hand over three seats on
    the baseline level, paired by deal, as a share of the contract's points with its 95%
    interval (``gain_share``, ``interval``, over ``deals``; 0 for the baseline itself),
    and its median time a hint at 13 cards on 2 threads (``ms_13_cards``)."""
    rows = measured_strengths()["levels"]
    return {"default": DEFAULT_LEVEL, "baseline": BASELINE_LEVEL,
            "levels": [{"level": n, **lv.to_dict(),
                        "strength": {k: rows[n][k] for k in STRENGTH_KEYS}}
                       for n, lv in enumerate(LEVELS)]}


def level_number(level: Any) -> int | None:
    """A level given by its number or its name (``Level.name``) as its number; None
    (the default level) stays None."""
    if level is None:
        return None
    if isinstance(level, str):
        for n, lv in enumerate(LEVELS):
            if lv.name == level:
                return n
    expected = f"0 to {len(LEVELS) - 1} or one of {', '.join(lv.name for lv in LEVELS)}"
    return check_int(level, "level", 0, len(LEVELS) - 1, expected=expected)


def check_level(level: Any) -> Level:
    """The ``Level`` of a level number or name (None: the default)."""
    n = level_number(level)
    return LEVELS[DEFAULT_LEVEL if n is None else n]



def _default_solver() -> Solver:
    from ..search.solver import solve
    return solve


def _stats(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / n
    return mean, math.sqrt(var)


def _num(x: float) -> float:
    return round(float(x), 4)


def play_preference(position: Position) -> list[Card]:
    """The legal cards of the seat on move in a simple player's order of preference.

    Uses only what that seat sees (its cards and the trick so far). Under a penalty:
    lead the lowest card that scores nothing; follow with a card that does not win
    the trick as it stands, shedding point cards, then high cards; when every card
    wins, the one with the fewest penalty points, lowest first. In a positive
    contract: lead the highest card; follow with the cheapest card that wins (plain
    suits before trumps), else the lowest. Hints break ties of equal mean value in
    this order: paranoid values often tie (docs/rules.md 11: the seat assumes the worst),
    and among cards the worst case cannot tell apart a player still sheds danger.
    """
    t = position.tables
    trick = [b for _, b in position.trick]
    positive = is_positive(t)
    return sorted(cards_of_mask(position.legal_mask()),
                  key=lambda c: preference_key(t, trick, positive, c.bit))


@dataclass(frozen=True)
class CardHint:
    """One legal card: its mean value over the samples, the spread, how often best."""

    card: Card
    mean: float
    std: float
    best: float           # share of the samples in which it was a double-dummy best card
    low: float
    high: float

    def to_dict(self) -> dict:
        return {"card": str(self.card), "mean": _num(self.mean), "std": _num(self.std),
                "best": _num(self.best), "min": _num(self.low), "max": _num(self.high)}


@dataclass(frozen=True)
class HintResult:
    """A card hint: every legal card ranked by mean value, and the card to play.

    ``exact`` is true when the samples are every consistent deal (so the means are
    exact expectations over a uniform deal). ``consistent_deals`` counts those deals.
    ``horizon`` is None when every sample was solved double dummy from the position,
    else the tricks left at which the simple player's rollout of each card handed
    over to the double-dummy search. ``forced`` is true when the seat has one legal
    card; that card is still valued over the samples like any other. With inference
    the means and best shares weight each sample by the likelihood of the other seats'
    cards in it, and ``effective_samples`` is Kish's effective size of those weights
    (None without inference). ``level`` is the level whose settings the hint took
    (``LEVELS``; an explicit ``samples``, ``horizon``, ``inference`` or ``policy`` won
    over its own). At levels 0 and 1 ``samples`` is 0 and no card is valued.
    """

    seat: Seat
    cards: tuple[CardHint, ...]        # best mean first
    recommended: Card
    samples: int
    exact: bool
    consistent_deals: int
    seed: int
    budget: Budget
    ms: float
    timeouts: int = 0
    inferences: tuple = ()
    horizon: int | None = None
    forced: bool = False               # one legal card: the seat has nothing to choose
    effective_samples: float | None = None   # with inference: Kish's size of the weights
    level: int = DEFAULT_LEVEL

    def card(self, card: "Card | str") -> CardHint:
        """The hint line of one card."""
        c = Card.parse(card)
        for h in self.cards:
            if h.card == c:
                return h
        raise InvalidRequestError(f"card {excerpt(str(c))} is not a legal card of this hint")

    def to_dict(self) -> dict:
        return {"seat": self.seat.name, "recommended": str(self.recommended),
                "cards": [h.to_dict() for h in self.cards], "samples": self.samples,
                "exact": self.exact, "consistent_deals": json_int(self.consistent_deals),
                "seed": self.seed, "budget": self.budget.to_dict(), "timeouts": self.timeouts,
                "ms": round(self.ms, 3), "inferences": [x.to_dict() for x in self.inferences],
                "horizon": self.horizon, "forced": self.forced,
                "effective_samples": None if self.effective_samples is None
                else _num(self.effective_samples), "level": self.level}


@dataclass(frozen=True)
class OptionValue:
    """One option of a choice and the asking seat's expected score with it."""

    option: str
    mean: float
    std: float
    detail: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"option": self.option, "mean": _num(self.mean), "std": _num(self.std),
                **self.detail}


@dataclass(frozen=True)
class ChoiceHint:
    """A choice hint: each option's value over the sampled deals, and the advice.

    ``level`` is the level whose samples and horizon the hint took (``LEVELS``; an
    explicit ``samples`` or ``horizon`` won over its own); None when the hint named none:
    its samples and horizon were the ones given, else the choice's own default samples
    and ``DEFAULT_HORIZON``.
    """

    choice: str
    seat: Seat
    options: tuple[OptionValue, ...]   # best first
    recommended: str
    samples: int
    seed: int
    budget: Budget
    ms: float
    detail: dict = field(default_factory=dict)
    horizon: int | None = None
    level: int | None = None

    def option(self, name: str) -> OptionValue:
        for o in self.options:
            if o.option == name:
                return o
        raise InvalidRequestError(f"no option {excerpt(name)} in this hint")

    def to_dict(self) -> dict:
        return {"choice": self.choice, "seat": self.seat.name, "recommended": self.recommended,
                "options": [o.to_dict() for o in self.options], "samples": self.samples,
                "seed": self.seed, "budget": self.budget.to_dict(), "ms": round(self.ms, 3),
                "horizon": self.horizon, "level": self.level, **self.detail}


def _check_sampling(samples: Any, ms: Any, seed: Any,
                    none: bool = False) -> tuple[int, float | None, int]:
    """A hint's sample count (0 allowed when ``none``), whole-hint time limit (None:
    none) and seed, checked."""
    return (check_int(samples, "samples", 0 if none else 1, MAX_SAMPLES),
            None if ms is None else check_positive(ms, "ms", "a positive number of milliseconds"),
            check_int(seed, "seed"))


def _check_horizon(horizon: Any) -> int:
    if horizon is None:
        return DEFAULT_HORIZON
    return check_int(horizon, "horizon", 0, 26, "0 to 26 tricks left")


def _rollout(p: Position, seat: Seat, legal: Sequence[Card], horizon: int,
             solve: Solver, budget: Budget) -> tuple[dict[Card, float], list[Card]]:
    """Each card's value for ``seat`` in one sampled deal: the card, then every seat
    playing ``play_preference`` until a trick starts with ``horizon`` tricks left,
    then ``solve``'s value there (the score if the hand is over). ``p`` is restored.
    The hint uses it with a given solver; with the default one the compiled
    ``kingsolve.search.solver.rollout_values`` does the same (the tests hold them equal)."""
    values: dict[Card, float] = {}
    for card in legal:
        p.play(card)
        made = 1
        while not p.complete and (p.current_trick() or p.n_tricks - len(p.tricks) > horizon):
            p.play(play_preference(p)[0])
            made += 1
        try:
            values[card] = float(solve(p, seats=[seat], budget=budget, cards=False).values[seat])
        finally:
            for _ in range(made):
                p.undo()
    return _with_best(values, legal)


def _with_best(values: dict[Card, float], legal: Sequence[Card]) -> tuple[dict[Card, float], list[Card]]:
    """One sample's card values and its best cards."""
    top = max(values.values())
    return values, [c for c in legal if values[c] == top]


def _run_samples(deals: Iterable[Deal], job: Callable[[Deal, Budget], Any], samples: int,
                 ms: float | None, budget: Budget, threads: int) -> tuple[list[Any], int]:
    """``job`` on up to ``samples`` deals, in order, within ``ms``; results and timeouts.

    A deal whose search runs over its budget is skipped and counted. With a time
    limit each search gets at most the time left. Results keep the order of the
    deals, so the answer does not depend on the number of threads.
    """
    # Without ms the hint has no deadline of its own: each search keeps ``budget``.
    deadline = replace(budget, ms=math.inf if ms is None else ms).start()
    results: list[Any] = []
    timeouts = 0

    def run(deal: Deal) -> Any:
        if deadline.expired():
            return None
        try:
            return job(deal, deadline.share(most=budget))
        except SolveTimeout:
            return SolveTimeout

    it = iter(deals)
    pool = ThreadPoolExecutor(max_workers=threads) if threads > 1 else None
    try:
        while len(results) < samples and not deadline.expired():
            batch = []
            for _ in range(min(samples - len(results), threads)):
                d = next(it, None)
                if d is None:
                    break
                batch.append(d)
            if not batch:
                break
            outs = list(pool.map(run, batch)) if pool else [run(d) for d in batch]
            for out in outs:
                if out is SolveTimeout:
                    timeouts += 1
                elif out is not None:
                    results.append(out)
            if timeouts > 2 * samples:
                break
    finally:
        if pool:
            pool.shutdown()
    return results, timeouts


def hint(variant: "str | RuleSet", contract: str, seat: "Seat | str", hand,
         play: Iterable = (), leader: "Seat | str" = Seat.N, trump: "Suit | str | None" = None,
         doubles: bool = False, options: Iterable[str] = (), known: Mapping | None = None,
         samples: int | None = None, ms: float | None = None, seed: int = 0,
         budget: Budget | None = None, players: int = 4, threads: int = 1,
         solver: Solver | None = None, horizon: int | None = None, level: int | str | None = None,
         inference: "bool | PlayModel | None" = None, policy: str | None = None) -> HintResult:
    """The legal cards of ``seat`` ranked by their mean value over sampled deals.

    ``hand`` is the seat's hand (PBN text, a list of cards or a mask), now or as dealt;
    ``known`` pins cards to other seats. Up to ``samples`` deals are drawn uniformly
    among those consistent with what the seat has seen (every one when there are
    fewer: ``exact``); ``ms`` bounds the whole hint, ``budget`` each search.
    With at most ``horizon`` tricks left (default ``DEFAULT_HORIZON``) each deal is
    solved for the seat (``solve(position, seats=[seat])``); with more, each card of
    each deal is played out by ``policy`` down to ``horizon`` tricks left and
    then solved (the result's ``horizon`` says which). A horizon at least the hand's
    length always searches the whole hand. With ``inference`` (true, or a
    ``PlayModel``) each deal's values count by the likelihood of the other seats'
    cards in it (``kingsolve.hands.inference``); ``effective_samples`` says how many
    equal samples the weights are worth. ``policy`` names the play-out's players
    (``kingsolve.hands.playouts.POLICIES``: ``simple``, the simple player; ``model``,
    the policy model, the default level's).

    ``level`` (``LEVELS``, default ``DEFAULT_LEVEL``) sets ``samples``, ``horizon``,
    ``inference`` and ``policy`` together; any of them given explicitly wins over the
    level's. Levels 0 and 1 sample nothing: the cards come in the simple player's
    order (level 1: the policy model's, ``kingsolve.search.policy_model``), valued 0.
    """
    start = time.perf_counter()
    level = level_number(level)
    simple, samples, horizon, model, policy = _card_settings(level, samples, horizon, inference,
                                                             policy)
    _, ms, seed = _check_sampling(samples, ms, seed, simple)
    threads = check_threads(threads)
    budget = budget or Budget()
    view = _card_view(SeatView.build(variant, contract, seat, hand, play, leader=leader,
                                     trump=trump, options=options, known=known, players=players))
    sampler = DealSampler(view)
    deals = sampler.iter_sample(seed)
    first = next(deals)
    job = _CardJob(view, doubles, first, horizon, solver, policy)
    # A forced card is searched like any other: its mean is the value of the position,
    # which a client reads as the card's value (a placeholder 0 would read as one too).
    order = model_preference if simple and policy == "model" else play_preference
    preference = {c: i for i, c in enumerate(order(job.position(first)))}
    if simple:
        return _simple_hint(view, sampler, job, preference, seed, budget, start,
                            0 if level is None else level)
    weigh = _weigher(view, model)
    results, timeouts = _run_samples(itertools.chain([first], deals),
                                     lambda d, b: (weigh(d), job(d, b)), samples, ms, budget,
                                     threads)
    _need_results(results, timeouts)
    weights = [w for w, _ in results]
    hints = _ranked_cards([r for _, r in results], weights, job.legal, preference)
    exact = len(results) == sampler.count
    return HintResult(view.seat, tuple(hints), hints[0].card, len(results), exact, sampler.count,
                      seed, budget, (time.perf_counter() - start) * 1000.0, timeouts,
                      tuple(view.inferences), job.used_horizon, forced=len(job.legal) == 1,
                      effective_samples=None if model is None else effective_size(weights),
                      level=DEFAULT_LEVEL if level is None else level)


def _card_settings(level: Any, samples: Any, horizon: Any, inference: Any, policy: Any
                   ) -> tuple[bool, int, int, PlayModel | None, str]:
    """A card hint's level resolved: whether it is the simple player's (level 0, no
    samples), and its samples, horizon, play model and policy, the given ones first."""
    lv = check_level(level)
    simple = samples is None and lv.samples == 0
    samples = lv.samples if samples is None else samples
    return (simple, check_int(samples, "samples", 0 if simple else 1, MAX_SAMPLES),
            _check_horizon(lv.horizon if horizon is None else horizon),
            _play_model(lv.inference if inference is None else inference),
            _check_policy(lv.policy if policy is None else policy))


def _card_view(view: SeatView) -> SeatView:
    """The view, when its seat has a card to play."""
    if view.complete:
        raise InvalidRequestError("the hand is complete: there is no card to play")
    if view.to_move != view.seat:
        mover = "nobody" if view.to_move is None else view.to_move.name
        raise InvalidRequestError(f"seat {view.seat.name} is not on move: {mover} is")
    return view


def _check_policy(policy: Any) -> str:
    if policy not in POLICIES:
        raise InvalidRequestError(f"invalid policy {excerpt(policy)}: expected one of "
                                  f"{', '.join(POLICIES)}")
    return policy


def _play_model(inference: "bool | PlayModel") -> PlayModel | None:
    if isinstance(inference, PlayModel):
        return inference
    if not isinstance(inference, bool):
        raise InvalidRequestError(f"invalid inference {excerpt(inference)}: expected true or false")
    return PlayModel() if inference else None


def _weigher(view: SeatView, model: PlayModel | None) -> Callable[[Deal], float]:
    """Each deal's weight: 1, or the likelihood of the other seats' cards in it."""
    if model is None:
        return lambda deal: 1.0
    return PlayLikelihood(view, model).of


def _simple_hint(view: SeatView, sampler: DealSampler, job: "_CardJob",
                 preference: dict[Card, int], seed: int, budget: Budget,
                 start: float, level: int) -> HintResult:
    """No samples: the simple player's card, every legal card in its order, none valued
    (level 0), or with the ``model`` policy in the policy model's order."""
    order = sorted(job.legal, key=preference.__getitem__)
    hints = tuple(CardHint(c, 0.0, 0.0, 1.0 if i == 0 else 0.0, 0.0, 0.0)
                  for i, c in enumerate(order))
    return HintResult(view.seat, hints, order[0], 0, False, sampler.count, seed, budget,
                      (time.perf_counter() - start) * 1000.0, 0, tuple(view.inferences),
                      None, forced=len(order) == 1, level=level)


class _CardJob:
    """The search of one sampled deal for a card hint: each legal card's value and the best."""

    def __init__(self, view: SeatView, doubles: bool, first: Deal, horizon: int,
                 solver: Solver | None, policy: str = "simple") -> None:
        self.view, self.doubles, self.horizon, self.solver = view, doubles, horizon, solver
        self.policy = policy
        self.solve = solver or _default_solver()
        self.record = [Card.from_bit(b) for b in view.play]
        here = self.position(first)
        self.legal = cards_of_mask(here.legal_mask())
        self.rollout = here.n_tricks - len(here.tricks) > horizon
        self.used_horizon = horizon if self.rollout else None

    def position(self, deal: Deal) -> Position:
        view = self.view
        return Position(view.variant, view.contract, deal, leader=view.leader, trump=view.trump,
                        doubles=self.doubles, play=self.record)

    def __call__(self, deal: Deal, b: Budget) -> tuple[Mapping[Card, float | Number], list[Card]]:
        from ..search.solver import rollout_values
        p = self.position(deal)
        seat = self.view.seat
        if self.rollout and self.solver is None and self.policy != "simple":
            return _with_best({c: float(v) for c, v in policy_rollout_values(
                p, seat, self.horizon, b, self.policy).items()}, self.legal)
        if self.rollout and self.solver is None:
            return _with_best({c: float(v) for c, v in
                               rollout_values(p, seat, self.horizon, b).items()}, self.legal)
        if self.rollout:
            return _rollout(p, seat, self.legal, self.horizon, self.solve, b)
        r = self.solve(p, seats=[seat], budget=b)
        return r.cards, r.best


def _ranked_cards(results: list, weights: list[float], legal: list[Card],
                  preference: dict[Card, int]) -> list[CardHint]:
    """Each legal card's statistics over the samples weighted, the best first."""
    total = sum(weights)
    hints = []
    for card in legal:
        vals = [float(cards[card]) for cards, _ in results]
        mean, std = _weighted_stats(vals, weights, total)
        best = sum(w for (_, top), w in zip(results, weights) if card in top) / total
        hints.append(CardHint(card, mean, std, best, min(vals), max(vals)))
    # Ties go to the card more often best, then to a simple player's preference:
    # paranoid values tie often (see play_preference).
    hints.sort(key=lambda h: (-h.mean, -h.best, preference[h.card]))
    return hints


def _weighted_stats(values: Sequence[float], weights: Sequence[float],
                    total: float) -> tuple[float, float]:
    mean = sum(v * w for v, w in zip(values, weights)) / total
    var = sum(w * (v - mean) ** 2 for v, w in zip(values, weights)) / total
    return mean, math.sqrt(max(var, 0.0))


# --- choices from one hand --------------------------------------------------------------

@dataclass(frozen=True)
class _Option:
    label: str
    contract: str
    trump: Suit | None
    leader: Seat


def _option_values(rs: RuleSet, seat: Seat, hand, opts: Sequence[_Option], seats: Sequence[Seat],
                   samples: int, ms: float | None, seed: int, budget: Budget, threads: int,
                   solver: Solver | None, horizon: int | None = None
                   ) -> tuple[list[dict[str, dict[Seat, float]]], int]:
    """Per sampled deal: each option's value for each of ``seats``, and the timeouts.
    With the default solver a hand longer than ``horizon`` tricks is played out by the
    simple player down to it, then solved (``kingsolve.search.solver.playout_values``); a
    given ``solver`` solves the whole hand."""
    from ..search.solver import playout_values
    horizon = _check_horizon(horizon)
    solve = solver or _default_solver()
    first = opts[0]
    view = SeatView.build(rs, first.contract, seat, hand, (), leader=first.leader,
                          trump=first.trump)
    if view.play or view.hand.bit_count() != view.tricks:
        raise InvalidRequestError("a choice hint needs the whole hand as dealt, before any play")
    sampler = DealSampler(view)

    def job(deal: Deal, b: Budget) -> dict[str, dict[Seat, float]]:
        out = {}
        for o in opts:
            pos = Position(rs, o.contract, deal, leader=o.leader, trump=o.trump)
            values: Mapping[Seat, Number]
            if solver is None:
                values = playout_values(pos, list(seats), horizon, b)
            else:
                values = solve(pos, seats=list(seats), budget=b).values
            out[o.label] = {s: float(values[s]) for s in seats}
        return out

    return _run_samples(sampler.iter_sample(seed), job, samples, ms, budget, threads)


def _trump_options(rs: RuleSet, contract: str) -> list[Suit | None]:
    c = rs.contract(contract)
    if not c.takes_trump:
        raise InvalidRequestError(f"contract {excerpt(contract)} of {rs.name!r} takes no trump to name")
    return c.trump_options


def _label(trump: Suit | None) -> str:
    return "NT" if trump is None else trump.name


def _common(samples, ms, seed, threads, budget, level, horizon, default_samples):
    """A choice hint's checked settings, its level's number last; a ``level`` given sets
    the samples (``choice_samples``) and horizon not given, else the choice's own
    default samples."""
    level = level_number(level)
    if level is not None:
        lv = LEVELS[level]
        samples = lv.choice_samples if samples is None else samples
        horizon = lv.horizon if horizon is None else horizon
    samples = default_samples if samples is None else samples
    return (*_check_sampling(samples, ms, seed), check_threads(threads), budget or Budget(),
            horizon, level)


def _finish(choice: str, seat: Seat, values: dict[str, list[float]], samples: int, seed: int,
            budget: Budget, start: float, detail: dict | None = None,
            extra: dict[str, dict] | None = None, horizon: int | None = None,
            level: int | None = None) -> ChoiceHint:
    opts = []
    for label, vals in values.items():
        mean, std = _stats(vals)
        opts.append(OptionValue(label, mean, std, (extra or {}).get(label, {})))
    opts.sort(key=lambda o: -o.mean)
    return ChoiceHint(choice, seat, tuple(opts), opts[0].option, samples, seed, budget,
                      (time.perf_counter() - start) * 1000.0, detail or {}, horizon, level)


def _used_horizon(rs: RuleSet, horizon: int | None, solver: Solver | None) -> int | None:
    """The horizon a choice hint's whole hands were played out to (None: searched whole)."""
    h = _check_horizon(horizon)
    return None if solver is not None or deck_mask(rs.deck).bit_count() // 4 <= h else h


def _need_results(results, timeouts):
    if not results:
        raise SolveTimeout(f"no sampled deal could be solved within the budget "
                           f"({timeouts} searches stopped); allow more time or nodes")


def trump_hint(variant: "str | RuleSet", seat: "Seat | str", hand, contract: str | None = None,
               leader: "Seat | str | None" = None, samples: int | None = None,
               ms: float | None = None,
               seed: int = 0, budget: Budget | None = None, threads: int = 1,
               solver: Solver | None = None, horizon: int | None = None,
               level: int | str | None = None) -> ChoiceHint:
    """The trump to name: each suit (and no trump where allowed) by the seat's mean value.

    The contract defaults to the rule set's trump contract (``trumps``, or ``festa``);
    the leader defaults to the seat after the namer (Italian, docs/rules.md 4-5) or the
    namer itself (Turkish chooser, docs/rules.md 7; Portuguese host, docs/rules.md 6).
    """
    start = time.perf_counter()
    samples, ms, seed, threads, budget, horizon, number = _common(
        samples, ms, seed, threads, budget, level, horizon, 20)
    rs = resolve_variant(variant)
    seat = Seat.parse(seat)
    contract = contract or ("festa" if "festa" in rs.contracts else "trumps")
    if leader is None:
        # the Italian dealer names the trump and the next seat leads; the Turkish
        # chooser and the Portuguese host lead themselves
        leader = seat.next(rs.direction) if rs.lacks("sale") is None else seat
    leader = Seat.parse(leader)
    opts = [_Option(_label(t), contract, t, leader) for t in _trump_options(rs, contract)]
    results, timeouts = _option_values(rs, seat, hand, opts, [seat], samples, ms, seed, budget,
                                       threads, solver, horizon)
    _need_results(results, timeouts)
    values = {o.label: [r[o.label][seat] for r in results] for o in opts}
    return _finish("trump", seat, values, len(results), seed, budget, start,
                   {"contract": contract, "leader": leader.name, "timeouts": timeouts},
                   horizon=_used_horizon(rs, horizon, solver), level=number)


def sale_hint(variant: "str | RuleSet", seat: "Seat | str", hand, samples: int | None = None,
              ms: float | None = None, seed: int = 0, budget: Budget | None = None,
              threads: int = 1, solver: Solver | None = None,
              horizon: int | None = None, level: int | str | None = None) -> ChoiceHint:
    """Whether the dealer should sell the declaration, and at what price (docs/rules.md 10).

    In each sampled deal every trump is solved for every seat. Declaring, the dealer
    names the trump of best mean value. Offered at ``k`` tricks, a seat buys when its
    best trump in that deal beats the dealer's trump by more than ``k`` tricks (the
    buyers know their own cards; double dummy is the simple model of that); with
    several buyers the price rises to the second highest such gain (an open outcry
    auction), the highest buyer names its trump, and the dealer scores its value with
    that trump plus the price. Options: ``declare`` and ``sell k``.
    """
    start = time.perf_counter()
    samples, ms, seed, threads, budget, horizon, number = _common(
        samples, ms, seed, threads, budget, level, horizon, 20)
    rs = resolve_variant(variant).require("sale")
    dealer = Seat.parse(seat)
    leader = dealer.next(rs.direction)
    trumps = _trump_options(rs, "trumps")
    opts = [_Option(_label(t), "trumps", t, leader) for t in trumps]
    seats = list(Seat)
    results, timeouts = _option_values(rs, dealer, hand, opts, seats, samples, ms, seed, budget,
                                       threads, solver, horizon)
    _need_results(results, timeouts)
    labels = [o.label for o in opts]
    declare = max(labels, key=lambda lb: sum(r[lb][dealer] for r in results))
    tricks = deck_mask(rs.deck).bit_count() // 4
    values: dict[str, list[float]] = {"declare": [r[declare][dealer] for r in results]}
    extra: dict[str, dict] = {"declare": {"trump": declare}}
    for k in range(1, tricks + 1):
        vals, sold = [], 0
        for r in results:
            gains = []
            for b in seats:
                if b == dealer:
                    continue
                best = max(labels, key=lambda lb: r[lb][b])
                gain = r[best][b] - r[declare][b]
                if gain > k:
                    gains.append((gain, best))
            if not gains:
                vals.append(r[declare][dealer])
                continue
            gains.sort(reverse=True)
            price = max(k, gains[1][0]) if len(gains) > 1 else k
            sold += 1
            vals.append(r[gains[0][1]][dealer] + price)
        values[f"sell {k}"] = vals
        extra[f"sell {k}"] = {"sold": _num(sold / len(results))}
    return _finish("sale", dealer, values, len(results), seed, budget, start,
                   {"declare_trump": declare, "timeouts": timeouts}, extra,
                   horizon=_used_horizon(rs, horizon, solver), level=number)


def contract_hint(variant: "str | RuleSet", seat: "Seat | str", hand,
                  contracts: Iterable[str] | None = None, samples: int | None = None,
                  ms: float | None = None, seed: int = 0, budget: Budget | None = None,
                  threads: int = 1, solver: Solver | None = None,
              horizon: int | None = None, level: int | str | None = None) -> ChoiceHint:
    """The Turkish contract to choose (docs/rules.md 7): the chooser leads; trumps once per suit.

    Every contract must be played over a match, so an option is scored by the
    chooser's mean value minus an even share of the contract's points (a quarter
    of its total): the option where this hand does best against its par.
    ``contracts`` limits the choice (the quotas left).
    """
    start = time.perf_counter()
    samples, ms, seed, threads, budget, horizon, number = _common(
        samples, ms, seed, threads, budget, level, horizon, 10)
    rs = resolve_variant(variant).require("chooser")
    seat = Seat.parse(seat)
    names = list(contracts) if contracts is not None else list(rs.contracts)
    if not names:
        raise InvalidRequestError("invalid contracts: expected at least one to choose from")
    opts: list[_Option] = []
    for name in names:
        c = rs.contract(name)
        if c.takes_trump:
            opts.extend(_Option(f"{name} {t.name}", name, t, seat) for t in Suit)
        else:
            opts.append(_Option(name, name, None, seat))
    results, timeouts = _option_values(rs, seat, hand, opts, [seat], samples, ms, seed, budget,
                                       threads, solver, horizon)
    _need_results(results, timeouts)
    values, extra = {}, {}
    for o in opts:
        par = contract_total(rs, o.contract) / 4
        raw = [r[o.label][seat] for r in results]
        values[o.label] = [v - par for v in raw]
        extra[o.label] = {"score": _num(sum(raw) / len(raw)), "par": _num(par)}
    return _finish("contract", seat, values, len(results), seed, budget, start,
                   {"timeouts": timeouts, "measure": "mean score minus a quarter of the "
                                                     "contract's total"}, extra,
                   horizon=_used_horizon(rs, horizon, solver), level=number)


FESTA_TRICK, NULL_TRICK, MAX_NULL, FESTA_TRICKS = 25, 75, 3, 13


def _festa_options(role: str, seat: Seat, nxt: Seat) -> list[_Option]:
    """The games a festa host (null, or a trump led by itself or the next seat) or a
    bidder (the same, null led by either) can name."""
    if role == "host":
        opts = [_Option("null", "null", None, nxt)]
    elif role == "bidder":
        opts = [_Option("null bidder leads", "null", None, seat),
                _Option("null next leads", "null", None, nxt)]
    else:
        raise InvalidRequestError(f"invalid role {excerpt(role)}: expected 'host' or 'bidder'")
    for t in Suit:
        opts.append(_Option(f"{t.name} {role} leads", "festa", t, seat))
        opts.append(_Option(f"{t.name} next leads", "festa", t, nxt))
    return opts


def festa_hint(seat: "Seat | str", hand, role: str = "host", host: "Seat | str | None" = None,
               samples: int | None = None, ms: float | None = None, seed: int = 0,
               budget: Budget | None = None, threads: int = 1, solver: Solver | None = None,
               horizon: int | None = None, level: int | str | None = None,
               variant: "str | RuleSet" = "portuguese") -> ChoiceHint:
    """The Portuguese festa (docs/rules.md 6): what to choose as host, or how high to bid.

    ``role="host"`` (no bid accepted): null (the next seat leads), each trump led by
    the host or the next seat, or ``433`` (100 points, no play). ``role="bidder"``:
    the best game the bidder could name (trump and leader: itself or the next seat,
    or null) and, for each bid, its expected score after paying the bid's points;
    ``max_bid`` is the highest bid still worth more than an even share (325 / 4).
    """
    start = time.perf_counter()
    samples, ms, seed, threads, budget, horizon, number = _common(
        samples, ms, seed, threads, budget, level, horizon, 10)
    rs = resolve_variant(variant).require("festa")
    seat = Seat.parse(seat)
    opts = _festa_options(role, seat, seat.next(rs.direction))
    results, timeouts = _option_values(rs, seat, hand, opts, [seat], samples, ms, seed, budget,
                                       threads, solver, horizon)
    _need_results(results, timeouts)
    game = {o.label: [r[o.label][seat] for r in results] for o in opts}
    detail: dict[str, Any] = {"role": role, "timeouts": timeouts}
    if role == "host":
        game["433"] = [4.0 * FESTA_TRICK] * len(results)
        return _finish("festa", seat, game, len(results), seed, budget, start, detail,
                       horizon=_used_horizon(rs, horizon, solver), level=number)
    mean = {k: sum(v) / len(v) for k, v in game.items()}
    best_plus = max((k for k in game if not k.startswith("null")), key=mean.__getitem__)
    best_null = max((k for k in game if k.startswith("null")), key=mean.__getitem__)
    values: dict[str, list[float]] = {}
    extra: dict[str, dict] = {}
    for k in range(1, FESTA_TRICKS + 1):
        values[f"{k} plus"] = [v - FESTA_TRICK * k for v in game[best_plus]]
        extra[f"{k} plus"] = {"play": best_plus, "points": FESTA_TRICK * k}
    for k in range(1, MAX_NULL + 1):
        values[f"{k} null"] = [v - NULL_TRICK * k for v in game[best_null]]
        extra[f"{k} null"] = {"play": best_null, "points": NULL_TRICK * k}
    even = (FESTA_TRICK * FESTA_TRICKS) / 4
    worth = [b for b, v in values.items() if sum(v) / len(v) > even]
    # a null bid beats plus bids of equal points (docs/rules.md 6, Reading)
    def order(bid: str) -> tuple:
        return extra[bid]["points"], bid.endswith("null")

    detail.update({"max_bid": max(worth, key=order) if worth else None, "even_share": even,
                   "games": {k: _num(v) for k, v in mean.items()}})
    return _finish("festa", seat, values, len(results), seed, budget, start, detail, extra,
                   horizon=_used_horizon(rs, horizon, solver), level=number)


#: What a hint may be asked about: a card, or one of the choices before play.
CHOICES = ("card", "trump", "sale", "contract", "festa")
