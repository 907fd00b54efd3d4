"""A plain-Python reference of the value model: its features (ext/core_eval.pxi,
``eval_features``) from a ``Position`` and the network's output from a model file,
written from their documented layouts. The suits' safety games are the exact
search's own rules (tested with it), and the coalition's play-out is the core's play
of the others against a lone seat: the reference takes them from the core's hooks.
The simple player's play-out is played here, with ``kingsolve.hands.hints``.
"""

from __future__ import annotations

import struct

from kingsolve.game.cards import Seat
from kingsolve.hands.hints import play_preference

NF = 514


def simple_playout(pos, maxmask: int) -> int:
    """The points the seats of ``maxmask`` take from here to the end of the hand when
    every seat plays the simple player's card."""
    before = sum(v for s, v in pos.taken.items() if maxmask >> s & 1)
    n = 0
    while not pos.complete:
        pos.play(play_preference(pos)[0])
        n += 1
    gain = sum(v for s, v in pos.taken.items() if maxmask >> s & 1) - before
    for _ in range(n):
        pos.undo()
    return gain


def features(pos, maxmask: int, core) -> list[float] | None:
    """The model's inputs at a trick start of ``pos`` for the seats of ``maxmask``."""
    t = pos.tables
    seats = list(pos.seats)
    held = {s: pos.hands[s] or 0 for s in Seat}
    in_hands = 0
    for s in seats:
        in_hands |= held[s]
    done = len(pos.tricks)
    n = pos.n_tricks
    tp = t.trick_points
    card_pos = sum(p for b, p in enumerate(t.card_points) if p > 0 and in_hands >> b & 1)
    card_neg = sum(p for b, p in enumerate(t.card_points) if p < 0 and in_hands >> b & 1)
    lo = sum(p for p in tp[done:] if p < 0) + card_neg
    hi = sum(p for p in tp[done:] if p > 0) + card_pos
    if hi <= lo:
        return None
    scale = hi - lo
    P = Seat((maxmask & -maxmask).bit_length() - 1)
    rel = {}
    s = P
    for i in range(len(seats)):
        rel[s] = i
        s = pos.next_seat(s)
    order = ([t.trump] if t.trump >= 0 else []) + [s for s in range(4) if s != t.trump]
    lone = bin(maxmask).count("1") == 1
    games = lone and t.trump < 0 and not t.overtake and (t.protected == 0 or done > 0)
    x = [0.0] * NF
    suit_safe = core.suit_games(maxmask) if games else [False] * 4
    for j, suit in enumerate(order):
        lane = [b for b in range(16 * suit + 14, 16 * suit + 1, -1) if in_hands >> b & 1]
        owner = {b: next(s for s in seats if held[s] >> b & 1) for b in lane}
        for k, b in enumerate(lane):
            r = rel[owner[b]]
            x[(j * 13 + k) * 8 + r] = 1.0
            if t.card_points[b]:
                x[(j * 13 + k) * 8 + 4 + r] = t.card_points[b] / scale
        for s in seats:
            x[416 + j * 4 + rel[s]] = sum(1 for b in lane if owner[b] == s) / 8.0
        played_suit = any(pos.played >> b & 1 for b in range(16 * suit, 16 * suit + 16))
        x[432 + j * 4] = float(suit == t.trump)
        if t.lead_suit == suit:
            if t.lead_mode == 1 and not played_suit:
                x[432 + j * 4 + 1] = 1.0
            elif t.lead_mode == 2:
                x[432 + j * 4 + 2] = 1.0
        if any(t.forced >> b & 1 for b in lane):
            x[432 + j * 4 + 3] = 1.0
        base = 466 + j * 11
        if lane:
            run = 0
            while run < len(lane) and owner[lane[run]] == owner[lane[0]]:
                run += 1
            x[base + rel[owner[lane[0]]]] = run / 4.0
        mine = [b for b in lane if owner[b] == P]
        theirs = [b for b in lane if owner[b] != P]
        if mine and theirs:
            x[base + 4] = sum(1 for b in mine if b < min(theirs)) / 4.0
            x[base + 5] = sum(1 for b in theirs if b < min(mine)) / 4.0
        if suit_safe[suit]:
            x[base + 6] = 1.0
        for s in seats:
            x[base + 7 + rel[s]] = sum(t.card_points[b] for b in lane if owner[b] == s) / scale
    x[448 + rel[pos.to_move]] = 1.0
    x[452] = (n - done) / 13.0
    x[453] = tp[done] / scale
    x[454] = sum(tp[done:]) / scale
    x[455] = float(bin(maxmask).count("1") == 2)
    x[456] = float(len(seats) == 3)
    x[457] = float(len(seats) == 2)
    x[458] = float(t.overtake)
    x[459] = float(t.trump_obligation == 1)
    x[460] = float(t.trump_obligation == 2)
    x[461] = float(t.overtrump_on_trump_lead)
    trump_played = t.trump >= 0 and any(pos.played >> b & 1 for b in range(16 * t.trump, 16 * t.trump + 16))
    x[462] = float(bool(t.trump_lead_restricted) and t.trump >= 0 and not trump_played)
    x[463] = lo / scale
    x[464] = hi / scale
    x[465] = float(done == 0 and t.protected != 0)
    if games:
        x[510] = 1.0
        x[511] = float(lo < 0 and core.lone_safe(maxmask))
    x[512] = (simple_playout(pos, maxmask) - lo) / scale
    x[513] = (core.playout(maxmask, 1) - lo) / scale if lone else x[512]
    return x


def network(model, x: list[float]) -> float:
    """The network's output for inputs ``x`` (a ``kingsolve.search.value_model.ModelFile``)."""
    nf = model.header["features"]
    h1, h2 = model.header["hidden"]
    w = struct.unpack(f"<{len(model.weights) // 4}f", model.weights)
    i = 0

    def take(k):
        nonlocal i
        out = w[i:i + k]
        i += k
        return out
    w1, b1, w2, b2, w3, b3 = take(nf * h1), take(h1), take(h1 * h2), take(h2), take(h2), take(1)
    a = [max(0.0, b1[j] + sum(x[f] * w1[f * h1 + j] for f in range(nf) if x[f])) for j in range(h1)]
    h = [max(0.0, b2[j] + sum(a[f] * w2[f * h2 + j] for f in range(h1))) for j in range(h2)]
    return b3[0] + sum(h[j] * w3[j] for j in range(h2))
