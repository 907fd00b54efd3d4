"""How likely the other seats' cards were in a sampled deal, under a model of their play.

The rules' inferences (``kingsolve.hands.sampling``) keep the deals in which every card
played was legal. A player does not choose at random among legal cards, though: a seat
that ducked under the winning card with a five probably held no six or seven, which a
careful player would have shed first. Following Buro, Long, Furtak and Sturtevant
(IJCAI 2009), each sampled deal is weighted by the likelihood of the observed cards in
it under a model of play.

The model is a softmax over the simple player's order of preference
(``preference_key``, the order ``kingsolve.hands.hints.play_preference`` plays in): a card
the simple player ranks ``r``-th of ``n`` legal cards is played with probability
proportional to ``exp(-beta * r)``, mixed with a uniform choice of weight ``noise`` so
that no deal is ruled out by a single surprising card. The simple player's order depends
only on public facts (the trick so far, the contract) and on the legal cards, and the
legal cards of a hand follow from the restrictions that judged the card played
(``trick_rules.legality_filters``), so one play costs a few mask operations per deal.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from ..game.cards import iter_bits
from ..game.deal import Deal
from ..game.trick_rules import trick_winner_index

__all__ = ["preference_key", "PlayModel", "PlayLikelihood", "effective_size"]


def preference_key(t, trick: Sequence[int], positive: bool, bit: int) -> tuple:
    """The simple player's sort key of card ``bit`` after ``trick`` (lower is preferred).

    Under a penalty: lead the lowest card that scores nothing; follow with a card that
    does not win the trick as it stands, shedding point cards, then high cards; when
    every card wins, the one with the fewest penalty points, lowest first. In a
    positive contract: lead the highest card; follow with the cheapest card that wins
    (plain suits before trumps), else the lowest.
    """
    rank, suit = bit & 15, bit >> 4
    if positive:
        if not trick:
            return (-rank, suit)
        wins = trick_winner_index([*trick, bit], t.trump) == len(trick)
        return (not wins, suit == t.trump, rank, suit)
    pts = t.card_points[bit]
    if not trick:
        return (pts < 0, rank, suit)
    if trick_winner_index([*trick, bit], t.trump) == len(trick):
        return (1, -pts, rank, suit)
    return (0, pts, -rank, suit)


def is_positive(t) -> bool:
    """Whether a contract's tables hand out points to gain (the simple player's two modes)."""
    return sum(t.trick_points) + sum(t.card_points) > 0


@dataclass(frozen=True)
class PlayModel:
    """A softmax over the simple player's order: ``beta`` its sharpness, ``noise`` the
    weight of a uniform choice mixed in (a floor on every legal card's probability)."""

    beta: float = 1.0
    noise: float = 0.1

    def probability(self, rank: int, legal: int) -> float:
        """The chance of playing the card ranked ``rank`` (0 first) of ``legal`` cards."""
        if legal <= 1:
            return 1.0
        q = math.exp(-self.beta)
        soft = q ** rank * (1.0 - q) / (1.0 - q ** legal)
        return (1.0 - self.noise) * soft + self.noise / legal


class PlayLikelihood:
    """The likelihood of the hidden seats' observed cards in a full deal, for one view.

    Built once per view: for each card a hidden seat played, the restrictions that
    judged it and the mask of cards the simple player would have preferred to it.
    ``of(deal)`` then finds, for each such card, the legal cards of that seat's hand at
    the time and the rank of the card played among them.
    """

    def __init__(self, view, model: PlayModel | None = None) -> None:
        self.model = model or PlayModel()
        t = view.tables
        positive = is_positive(t)
        n = len(view.seats)
        mine = view.hand | view.played_by[view.seat]
        self.plays = []                     # (seat, filter masks, preferred mask, card bit)
        seen = 0
        for i, (seat, bit) in enumerate(zip(view.seat_of, view.play)):
            if seat != view.seat:
                trick = list(view.play[i - i % n:i])
                key = preference_key(t, trick, positive, bit)
                better = 0
                for b in iter_bits(view.deck_mask & ~seen & ~mine):
                    if b != bit and preference_key(t, trick, positive, b) < key:
                        better |= 1 << b
                masks = tuple(r.mask for r in view.judged[i])
                self.plays.append((seat, masks, better, bit))
            seen |= 1 << bit

    def of(self, deal: Deal) -> float:
        """The product over the hidden seats' cards of each card's probability in ``deal``."""
        hands = {s: deal.hands[s] for s in {p[0] for p in self.plays}}
        out = 1.0
        for seat, masks, better, bit in self.plays:
            cand = hands[seat]
            for m in masks:
                if cand & m:
                    cand &= m
            out *= self.model.probability((cand & better).bit_count(), cand.bit_count())
            hands[seat] &= ~(1 << bit)
        return out


def effective_size(weights: Sequence[float]) -> float:
    """Kish's effective sample size of weighted samples, ``(sum w)^2 / sum w^2``."""
    s2 = sum(w * w for w in weights)
    return sum(weights) ** 2 / s2 if s2 > 0 else 0.0
