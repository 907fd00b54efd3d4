"""The play-out policies a card hint can value its samples with.

A hint far from the end of the hand plays each card of each sampled deal out to a
horizon and searches the rest exactly (``kingsolve.search.solver.rollout_values``). The
play-out's policy is the compiled core's (``Core.rollout_value``):

- ``simple``: every seat plays the simple player (``play_preference``), today's hints;
- ``guided``: every seat plays the value model's choice, a search of the rest of the
  trick with the model evaluating the next trick start (the hinted seat's side
  maximising its value, the others minimising it);
- ``coalition``: the hinted seat plays the simple player, the others play together
  against it (the paranoid value's own assumption, played out).
"""

from __future__ import annotations

from ..game.cards import Card, Seat
from ..game.position import Position
from ..search.budget import Budget
from ..search import engine
from ..search.engine import first_guess, leased_core, side_mask, total
from ..errors import InvalidRequestError

__all__ = ["POLICIES", "policy_rollout_values"]

#: The play-out policies by name, and the core's code for each.
POLICIES = {"simple": 0, "coalition": 1, "guided": 2}


def policy_rollout_values(position: Position, seat: Seat, horizon: int, budget: Budget,
                          policy: str) -> dict[Card, int]:
    """Each legal card's value for ``seat`` (its side's in doubles): the card, then every
    seat playing ``policy`` until a trick starts with at most ``horizon`` tricks left,
    then the double-dummy value from there (docs/rules.md 11)."""
    code = POLICIES.get(policy)
    if code is None:
        raise InvalidRequestError(f"invalid policy {policy!r}: expected one of "
                                  f"{', '.join(POLICIES)}")
    model = None
    if code == 2:
        from ..search.value_model import default_model
        model = default_model()
        if model is None:
            raise InvalidRequestError("the guided play-out needs the value model, "
                                      "which this installation lacks")
    mask = side_mask(position, seat)
    with leased_core(position, budget) as core:
        guess = first_guess(*core.bounds())
        core.set_budget(budget.nodes, budget.ms)
        if model is not None:
            core.set_model(model.core)
        try:
            return {Card.from_bit(b): total(position, seat, engine.run(
                        lambda: core.rollout_value(b, mask, horizon, guess, code), budget))
                    for b in sorted(core.moves())}
        finally:
            if model is not None:
                core.set_model(None)
