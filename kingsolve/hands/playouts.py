"""The play-out policies a card hint can value its samples with.

A hint far from the end of the hand plays each card of each sampled deal out to a
horizon and searches the rest exactly (``kingsolve.search.solver.rollout_values``). The
play-out's policy is the compiled core's (``Core.rollout_value``):

- ``simple``: every seat plays the simple player (``play_preference``), today's hints;
- ``guided``: every seat plays the value model's choice, a search of the rest of the
  trick with the model evaluating the next trick start (the hinted seat's side
  maximising its value, the others minimising it);
- ``coalition``: the hinted seat plays the simple player, the others play together
  against it (the paranoid value's own assumption, played out);
- ``model``: every seat plays the policy model's card from its own view within the
  sampled deal (its hand there, the public play, the voids shown), a model of how the
  hints themselves play (``kingsolve.search.policy_model``).
"""

from __future__ import annotations

from typing import Any

from ..game.cards import Card, Seat
from ..game.position import Position
from ..search.budget import Budget
from ..search import engine
from ..search.engine import first_guess, leased_core, side_mask, total
from ..errors import InvalidRequestError
from ..search.policy_model import PolicyFile, card_slot, shown_voids

__all__ = ["POLICIES", "policy_rollout_values", "model_preference"]

#: The play-out policies by name, and the core's code for each.
POLICIES = {"simple": 0, "coalition": 1, "guided": 2, "model": 3}


def policy_rollout_values(position: Position, seat: Seat, horizon: int, budget: Budget,
                          policy: str) -> dict[Card, int]:
    """Each legal card's value for ``seat`` (its side's in doubles): the card, then every
    seat playing ``policy`` until a trick starts with at most ``horizon`` tricks left,
    then the double-dummy value from there (docs/rules.md 11)."""
    code = POLICIES.get(policy)
    if code is None:
        raise InvalidRequestError(f"invalid policy {policy!r}: expected one of "
                                  f"{', '.join(POLICIES)}")
    model = _model(code)
    mask = side_mask(position, seat)
    with leased_core(position, budget) as core:
        guess = first_guess(*core.bounds())
        core.set_budget(budget.nodes, budget.ms)
        if code == 2:
            core.set_model(model)
        elif code == 3:
            core.set_policy(model)
            core.set_voids(shown_voids(position))
        try:
            return {Card.from_bit(b): total(position, seat, engine.run(
                        lambda: core.rollout_value(b, mask, horizon, guess, code), budget))
                    for b in sorted(core.moves())}
        finally:
            if code == 2:
                core.set_model(None)
            elif code == 3:
                core.set_policy(None)


def _model(code: int) -> Any:
    """The core's copy of the model a play-out policy needs (None for none)."""
    if code == 2:
        from ..search.value_model import default_model
        found: Any = default_model()
        what = "the guided play-out needs the value model"
    elif code == 3:
        from ..search.policy_model import default_policy
        found = default_policy()
        what = "the model play-out needs the policy model"
    else:
        return None
    if found is None:
        raise InvalidRequestError(f"{what}, which this installation lacks")
    return found.core


def model_preference(position: Position, policy: "PolicyFile | None" = None) -> list[Card]:
    """The legal cards of the seat on move by the policy model's score, its card first
    (ties to the lower card bit, as the core's ``model_card``). The model reads only
    what that seat sees, so any deal consistent with its view gives the same order.
    ``policy`` is another policy file's model (``read_policy``) than the package's."""
    model = _model(POLICIES["model"]) if policy is None else policy.core
    seat = position.to_move
    if seat is None:
        raise InvalidRequestError("the hand is complete: there is no card to play")
    with leased_core(position, Budget()) as core:
        core.set_voids(shown_voids(position))
        scores = model.scores(core.policy_features(side_mask(position, seat)))
    return sorted(position.legal_cards(),
                  key=lambda c: (-scores[card_slot(position, c.bit)], c.bit))
