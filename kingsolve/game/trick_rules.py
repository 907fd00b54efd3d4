"""The rules of a trick (docs/rules.md section 2) as pure functions over card masks.

Every Python engine reads legal play from here: ``Position`` plays by it, and
``SeatView`` replays the public play and infers from it what a hand could not have
held. The compiled core keeps its own copy for speed; the differential tests hold
it to ``Position``, and so to this module.

Each rule of section 2 has one shape, a *restriction* ``A``: the candidate cards
narrow to ``cand & A`` when that is not empty. The rules that apply in a state are
a list of restrictions in the order of section 2; a hand's legal cards are what is
left after applying them in turn. Hands and tricks are card bits (``16 * suit +
rank``) and the contract is its compiled ``ContractTables``.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from .cards import SUIT_MASK, SUIT_NAMES, Card, deck_mask, format_cards
from .rules import (LEAD_UNTIL_BROKEN, LEAD_WHILE_OTHER_SUITS, TRUMP_FREE,
                    TRUMP_RUFF_OVERRUFF_STRICT, ContractTables)

__all__ = ["Restriction", "restrictions", "legality_filters", "legal_mask", "legal_with_reason",
           "trick_winner_index", "ends_early", "higher_in_suit", "breaks_suit"]

_FULL = deck_mask(52)


def higher_in_suit(bit: int) -> int:
    """The mask of the cards of the same suit as ``bit`` that rank above it."""
    lane = SUIT_MASK[bit >> 4]
    return lane & ~((1 << (bit + 1)) - 1)


class Restriction(NamedTuple):
    """One rule of section 2: the candidates narrow to ``mask`` if the hand holds one there.

    ``rule`` names it in inferences (``follow``, ``forced``, ``overruff``...); ``why``
    is the message when it is the rule a card breaks, a template filled by
    ``legal_with_reason`` only then, so judging a hand formats nothing.
    """

    mask: int
    rule: str
    why: str


# The templates of ``Restriction.why``: {seat} the seat on move, {led} the suit led,
# {lead_suit} the contract's restricted suit, {top_led} / {top_trump} the highest card
# of the suit led / of trumps in the trick, {kept} the candidates the rule keeps,
# {set_aside} the candidates it sets aside.
_UNTIL_BROKEN = "{lead_suit} are not broken and {seat} holds other suits"
_WHILE_OTHER_SUITS = "{lead_suit} may not be led while {seat} holds other suits"
_TRUMP_LEAD = "trumps may not be led before a trump has been played and {seat} holds other suits"
_FOLLOW = "{seat} must follow suit ({led})"
_OVERTAKE = "{seat} must overtake the {top_led}"
_OVERTRUMP_ON_TRUMP_LEAD = "trumps were led and {seat} must overtrump the {top_led}"
_PROTECTION = "{set_aside} may not be discarded on the first trick"
_FORCED = "{seat} is void in {led} and must discard from {kept}"
_OVERRUFF = "{seat} must overtrump the {top_trump}"
_STILL_RUFF = "{seat} cannot overtrump and must still play a trump"
_RUFF = "{seat} is void in {led} and must trump"


def breaks_suit(t: ContractTables, trick: Sequence[int], bit: int) -> bool:
    """Whether ``bit``, played next to ``trick``, breaks its suit (section 2.1): any card
    does, or with ``broken_by_discard`` only one discarded on another suit's lead."""
    return not t.broken_by_discard or bool(trick) and bit >> 4 != trick[0] >> 4


def restrictions(t: ContractTables, trick: Sequence[int], played: int, first_trick: bool,
                 follows: bool) -> list[Restriction]:
    """The restrictions of section 2 on the next card of ``trick``, in the order they apply.

    ``trick`` holds the card bits already in the trick, ``played`` the cards played
    before that broke their suit (every card played, unless ``broken_by_discard``:
    see ``breaks_suit``), ``first_trick`` whether this is trick 1, and ``follows`` whether the seat
    holds the suit led (step 2 of section 2) or is void in it (step 3); it is ignored
    on the lead (step 1).
    """
    out: list[Restriction] = []
    if not trick:
        if t.lead_suit >= 0:
            lane = SUIT_MASK[t.lead_suit]
            if t.lead_mode == LEAD_UNTIL_BROKEN and not played & lane:
                out.append(Restriction(_FULL & ~lane, "lead-restriction", _UNTIL_BROKEN))
            elif t.lead_mode == LEAD_WHILE_OTHER_SUITS:
                out.append(Restriction(_FULL & ~lane, "lead-restriction", _WHILE_OTHER_SUITS))
        if t.trump_lead_restricted and t.trump >= 0 and not played & SUIT_MASK[t.trump]:
            out.append(Restriction(_FULL & ~SUIT_MASK[t.trump], "trump-lead-restriction", _TRUMP_LEAD))
        return out
    led = trick[0] >> 4
    out.append(Restriction(SUIT_MASK[led], "follow", _FOLLOW))
    if follows:
        top = max(b for b in trick if b >> 4 == led)
        if t.overtake:
            out.append(Restriction(higher_in_suit(top), "overtake", _OVERTAKE))
        if t.overtrump_on_trump_lead and led == t.trump:
            out.append(Restriction(higher_in_suit(top), "overtrump-on-trump-lead",
                                   _OVERTRUMP_ON_TRUMP_LEAD))
        return out
    if first_trick and t.protected:
        out.append(Restriction(_FULL & ~t.protected, "first-trick-protection", _PROTECTION))
    if t.forced:
        out.append(Restriction(t.forced, "forced", _FORCED))
    if t.trump >= 0 and t.trump_obligation != TRUMP_FREE:
        tlane = SUIT_MASK[t.trump]
        in_trick = [b for b in trick if b >> 4 == t.trump]
        if in_trick:
            if t.trump_obligation == TRUMP_RUFF_OVERRUFF_STRICT:
                out.append(Restriction(tlane, "ruff", _STILL_RUFF))
            out.append(Restriction(higher_in_suit(max(in_trick)), "overruff", _OVERRUFF))
        else:
            out.append(Restriction(tlane, "ruff", _RUFF))
    return out


def legality_filters(t: ContractTables, trick: Sequence[int], played: int, first_trick: bool,
                     bit: int) -> list[Restriction]:
    """The restrictions that judged the play of ``bit``, read from the card alone.

    A card of the suit led means the seat held that suit (step 2), any other card
    that it was void (step 3), so a card played tells which step applied without
    the hand that played it.
    """
    return restrictions(t, trick, played, first_trick, bool(trick) and bit >> 4 == trick[0] >> 4)


def _narrow(t: ContractTables, hand: int, trick: Sequence[int], played: int,
            first_trick: bool) -> tuple[int, int, Restriction | None]:
    """The legal cards of ``hand``, the candidates before the last rule that narrowed
    them, and that rule (``None`` when no rule narrowed the hand)."""
    follows = bool(trick) and bool(hand & SUIT_MASK[trick[0] >> 4])
    cand, before, last = hand, hand, None
    for r in restrictions(t, trick, played, first_trick, follows):
        kept = cand & r.mask
        if kept:
            cand, before, last = kept, cand, r
    return cand, before, last


def legal_mask(t: ContractTables, hand: int, trick: Sequence[int], played: int,
               first_trick: bool) -> int:
    """The cards of ``hand`` that may be played next to ``trick`` (section 2).

    >>> from kingsolve.game.rules import compile_contract, get_variant
    >>> t = compile_contract(get_variant("italian").contract("no-hearts"), 13, None)
    >>> format_cards(legal_mask(t, Card("HA").mask | Card("S2").mask, [], 0, True))
    ['S2']
    """
    return _narrow(t, hand, trick, played, first_trick)[0]


def legal_with_reason(t: ContractTables, hand: int, trick: Sequence[int], played: int,
                      first_trick: bool, seat: str) -> tuple[int, str]:
    """The legal cards of ``hand`` and why the others are not, for ``IllegalPlayError``.

    The reason is the last rule that narrowed the hand, said of ``seat``; it is empty
    when every card of the hand is legal.
    """
    cand, before, last = _narrow(t, hand, trick, played, first_trick)
    if last is None:
        return cand, ""
    led = trick[0] >> 4 if trick else -1
    trumps = [b for b in trick if t.trump >= 0 and b >> 4 == t.trump]
    return cand, last.why.format(
        seat=seat,
        led=SUIT_NAMES[led] if trick else "",
        lead_suit=SUIT_NAMES[t.lead_suit] if t.lead_suit >= 0 else "",
        top_led=Card.from_bit(max(b for b in trick if b >> 4 == led)) if trick else "",
        top_trump=Card.from_bit(max(trumps)) if trumps else "",
        kept=" ".join(format_cards(cand)),
        set_aside=" ".join(format_cards(before & ~cand)))


def trick_winner_index(bits: Sequence[int], trump: int) -> int:
    """The index in ``bits`` of the card that wins the trick.

    The highest trump if a trump is in the trick, else the highest card of the suit led.
    """
    led = bits[0] >> 4
    best = 0
    best_is_trump = trump >= 0 and led == trump
    for i in range(1, len(bits)):
        b = bits[i]
        s = b >> 4
        if trump >= 0 and s == trump:
            if not best_is_trump or b > bits[best]:
                best, best_is_trump = i, True
        elif not best_is_trump and s == led and b > bits[best]:
            best = i
    return best


def ends_early(t: ContractTables, tricks_done: int, scored_left: int) -> bool:
    """Whether nothing is left to win (section 2.4): no scored card left to play in
    ``scored_left`` and no trick after the first ``tricks_done`` carrying points; never
    for a contract played to the last trick (``early_end`` off)."""
    return t.early_end and not scored_left and not any(t.trick_points[tricks_done:])
