# The policy model: a network imitating the hints' choice of card (included by _core.pyx).
#
# kingsolve/search/policy_model.py reads its file, training/ makes it (python -m
# training.policy_fit). It sees one seat's view only: the seat's hand, the cards gone in
# earlier tricks, the trick in progress, the suits the other seats have shown void in,
# the contract's points and rules, the tricks left. Never another seat's card. Its
# output is a score per card slot; the seat plays its legal card of highest score
# (model_card). Play-outs with c.coalition 3 give every seat its card: play_out keeps
# the first layer's sums up to date card by card (PolicyAcc, acc_model_card), so a card
# adds a few rows where the whole evaluation adds one a card of the deck.

cdef enum:
    NPF = 402                # the policy's features (policy_features)
    NSLOT = 52               # its outputs: a score per card slot (suit in order, rank high to low)


cdef struct PolicyNet:
    # the weights of the policy model (PolicyModel holds them)
    int h1                   # first hidden layer's units
    int h2                   # second hidden layer's units
    float* w1                # NPF x h1, a feature's weights together
    float* b1                # h1
    float* w2                # h1 x h2
    float* b2                # h2
    float* w3                # h2 x NSLOT
    float* b3                # NSLOT
    float skip               # the weight of the simple player's card added to its slot's score
    float* delta             # NSLOT x 3 x h1: a slot's row held, gone, in the trick, less its
                             # row unseen (PolicyAcc's updates)


cdef inline int card_slot(int* order, int bit) noexcept nogil:
    # the slot of a card: its suit's place (trump first) times 13, plus ranks above it
    cdef int j = 0
    while order[j] != (bit >> 4):
        j += 1
    return j * 13 + 14 - (bit & 15)


cdef int shown_voids(Search* c) noexcept nogil:
    # The suits each seat has shown void in (bit seat * 4 + suit): those set for the
    # root (Core.set_voids), and every trick played in the core since, a card not of
    # the suit led showing its seat void in it
    cdef State* st = &c.st
    cdef Trick* t
    cdef int k, i, n, led, voids = c.voids
    for k in range(c.voids_from, st.tricks_done + 1):
        t = &st.tricks[k]
        n = st.count if k == st.tricks_done else c.R.nseats
        if n == 0:
            continue
        led = t.card[0] >> 4
        for i in range(1, n):
            if (t.card[i] >> 4) != led:
                voids |= 1 << (t.seat[i] * 4 + led)
    return voids


cdef int max_abs(int* v, int n) noexcept nogil:
    cdef int i, m = 1
    for i in range(n):
        if v[i] > m:
            m = v[i]
        elif -v[i] > m:
            m = -v[i]
    return m


cdef enum:
    MAX_SPARSE = 32          # the most inputs constant_inputs or moment_inputs give


cdef int constant_inputs(Search* c, int* idx, float* val) noexcept nogil:
    # The inputs a play-out leaves alone but the card slots' (policy_features: 321,
    # 334, 335, 344..347), as idx[i], val[i]; returns how many
    cdef Rules* R = &c.R
    idx[0], val[0] = 321, 1.0 if popcount(<uint64_t>c.maxmask) == 2 else 0.0
    idx[1], val[1] = 334, 1.0 if R.trump >= 0 else 0.0
    idx[2], val[2] = 335, 1.0 if contract_positive(R) else 0.0
    idx[3], val[3] = 344, 1.0 if R.overtake else 0.0
    idx[4], val[4] = 345, 1.0 if R.trump_obligation == 1 else 0.0
    idx[5], val[5] = 346, 1.0 if R.trump_obligation == 2 else 0.0
    idx[6], val[6] = 347, 1.0 if R.overtrump_on_trump_lead else 0.0
    return 7


cdef int moment_inputs(Search* c, int* order, int* idx, float* val,
                       int* simple) noexcept nogil:
    # The inputs that change card by card but the card slots' states (policy_features:
    # the trick's winning card, 312..320, 322..333, 336..343, 348..401), nonzero ones
    # only, as idx[i], val[i]; returns how many. `simple` receives the simple player's
    # card slot.
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int rel[4]
    cdef int b, j, s, seat, P = st.to_move, voids, n = 0
    cdef float cs = max_abs(R.card_points, 64), ts = max_abs(R.trick_points, R.n_tricks)
    idx[n], val[n] = 312 + st.count, 1.0
    n += 1
    if st.count:
        b = st.cur.card[st.cur.win[st.count - 1]]
        idx[n], val[n] = card_slot(order, b) * 6 + 3, 1.0
        idx[n + 1], val[n + 1] = 316 + card_slot(order, st.cur.card[0]) // 13, 1.0
        n += 2
        seat = st.cur.seat[st.cur.win[st.count - 1]]
        if popcount(<uint64_t>c.maxmask) == 2 and seat == (P + 2) % 4:
            idx[n], val[n] = 320, 1.0
            n += 1
        if st.cur.tpts[st.count - 1]:
            idx[n], val[n] = 348, st.cur.tpts[st.count - 1] / cs
            n += 1
    voids = shown_voids(c)
    if voids:
        rel_seats(R, P, rel)
        for seat in range(4):
            if rel[seat] > 0:
                for j in range(4):
                    if (voids >> (seat * 4 + order[j])) & 1:
                        idx[n], val[n] = 322 + (rel[seat] - 1) * 4 + j, 1.0
                        n += 1
    idx[n], val[n] = 336, (R.n_tricks - st.tricks_done) / 13.0
    n += 1
    if R.trick_points[st.tricks_done]:
        idx[n], val[n] = 337, R.trick_points[st.tricks_done] / ts
        n += 1
    if R.pos_suffix[st.tricks_done] + R.neg_suffix[st.tricks_done]:
        idx[n], val[n] = 338, (R.pos_suffix[st.tricks_done] + R.neg_suffix[st.tricks_done]) / ts
        n += 1
    for j in range(4):
        s = order[j]
        if R.lead_suit == s and (R.lead_mode == 2 or
                                 (R.lead_mode == 1 and not (st.broken & lane_of(s)))):
            idx[n], val[n] = 339 + j, 1.0
            n += 1
    if R.trump_lead_restricted and R.trump >= 0 and not (st.broken & lane_of(R.trump)):
        idx[n], val[n] = 343, 1.0
        n += 1
    if st.tricks_done == 0 and R.protected:
        idx[n], val[n] = 349, 1.0
        n += 1
    simple[0] = card_slot(order, policy_card(R, st, contract_positive(R)))
    idx[n], val[n] = NPF - NSLOT + simple[0], 1.0
    return n + 1


cdef void policy_features(Search* c, float* x) noexcept nogil:
    # The policy's inputs for the seat on move, P (NPF floats). Per card slot (6 each,
    # 0..311): P holds it; gone in an earlier trick; in the trick; the trick's winning
    # card; unseen (another seat's, or not in play); its points over the largest card
    # points. Then 312..315 P's place in the trick; 316..319 the suit led; 320 the
    # trick's winner is P's partner; 321 doubles; 322..333 per other seat (in play
    # order after P) and suit, shown void; 334 a trump; 335 a positive contract; 336
    # tricks left / 13; 337, 338 this trick's points and every trick left's, over the
    # largest trick points; 339..342 per suit, not to be led yet; 343 trumps not to be
    # led yet; 344..347 overtake, ruff-overruff, strict, overtrump on a trump lead;
    # 348 the trick's card points so far over the largest card points; 349 the first
    # trick's protection applies; 350..401 per card slot, the simple player's card
    # (policy_card: the model learns where the hints leave it). The inputs but the
    # card slots' come from constant_inputs and moment_inputs, which a model play-out
    # reads alone (acc_start, acc_first_layer).
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int order[4]
    cdef int idx[MAX_SPARSE]
    cdef float val[MAX_SPARSE]
    cdef int b, i, j, n, simple
    cdef uint64_t mine = st.hands[st.to_move], gone = st.played & ~st.trick_mask, m
    cdef float cs = max_abs(R.card_points, 64)
    memset(x, 0, NPF * sizeof(float))
    suit_order(R, order)
    m = st.deck
    while m:
        b = low_bit(m)
        m &= m - 1
        j = card_slot(order, b) * 6
        if (mine >> b) & 1:
            x[j] = 1.0
        elif (gone >> b) & 1:
            x[j + 1] = 1.0
        elif (st.trick_mask >> b) & 1:
            x[j + 2] = 1.0
        else:
            x[j + 4] = 1.0
        x[j + 5] = R.card_points[b] / cs
    n = constant_inputs(c, idx, val)
    for i in range(n):
        x[idx[i]] = val[i]
    n = moment_inputs(c, order, idx, val, &simple)
    for i in range(n):
        x[idx[i]] = val[i]


cdef void policy_eval(PolicyNet* m, float* x, float* out) noexcept nogil:
    # The network's scores of the NSLOT card slots for inputs x: two ReLU layers, then
    # a linear layer, plus `skip` at the simple player's card (the fit starts from the
    # simple player and learns where the hints leave it). The inputs are mostly zero:
    # the first layer adds their rows.
    cdef float a[MODEL_HIDDEN]
    cdef int i, j
    cdef float xi
    for j in range(m.h1):
        a[j] = m.b1[j]
    for i in range(NPF):
        xi = x[i]
        if xi != 0.0:
            add_row(a, m.w1 + i * m.h1, xi, m.h1)
    for j in range(NSLOT):
        out[j] = m.b3[j] + m.skip * x[NPF - NSLOT + j]
    policy_head(m, a, out)


cdef inline void add_row(float* a, float* row, float v, int n) noexcept nogil:
    cdef int j
    for j in range(n):
        a[j] += v * row[j]


cdef void policy_head(PolicyNet* m, float* a, float* out) noexcept nogil:
    # The layers after the first: a (the first layer's sums) through its ReLU and the
    # second layer, added into out (the output biases and the skip, set by the caller)
    cdef float h[MODEL_HIDDEN]
    cdef int i, j
    cdef float xi
    cdef float* row
    for j in range(m.h2):
        h[j] = m.b2[j]
    for i in range(m.h1):
        xi = a[i]
        if xi > 0.0:
            row = m.w2 + i * m.h2
            for j in range(m.h2):
                h[j] += xi * row[j]
    for i in range(m.h2):
        xi = h[i]
        if xi > 0.0:
            row = m.w3 + i * NSLOT
            for j in range(NSLOT):
                out[j] += xi * row[j]


cdef inline float* w1_row(PolicyNet* m, int i) noexcept nogil:
    return m.w1 + i * m.h1


cdef inline float* delta_row(PolicyNet* m, int slot, int state) noexcept nogil:
    # state 0: held, 1: gone, 2: in the trick (each less unseen)
    return m.delta + (slot * 3 + state) * m.h1


cdef void acc_start(Search* c, PolicyNet* m, PolicyAcc* acc) noexcept nogil:
    # The play-out's first-layer sums from the state (policy_features' inputs that the
    # play-out leaves alone, and those only play and trick ends change)
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int idx[MAX_SPARSE]
    cdef float val[MAX_SPARSE]
    cdef int b, i, k, n, s, h = m.h1
    cdef uint64_t rest, gone = st.played & ~st.trick_mask
    cdef float cs = max_abs(R.card_points, 64)
    suit_order(R, acc.order)
    memcpy(acc.table, m.b1, h * sizeof(float))
    rest = st.deck
    while rest:
        b = low_bit(rest)
        rest &= rest - 1
        k = card_slot(acc.order, b)
        add_row(acc.table, w1_row(m, k * 6 + 4), 1.0, h)
        if R.card_points[b]:
            add_row(acc.table, w1_row(m, k * 6 + 5), R.card_points[b] / cs, h)
        if (gone >> b) & 1:
            add_row(acc.table, delta_row(m, k, 1), 1.0, h)
    n = constant_inputs(c, idx, val)
    for i in range(n):
        add_row(acc.table, w1_row(m, idx[i]), val[i], h)
    for s in range(4):
        memset(acc.seat[s], 0, h * sizeof(float))
        rest = st.hands[s]
        while rest:
            b = low_bit(rest)
            rest &= rest - 1
            add_row(acc.seat[s], delta_row(m, card_slot(acc.order, b), 0), 1.0, h)


cdef inline void acc_play(PolicyNet* m, PolicyAcc* acc, int seat, int card) noexcept nogil:
    # `seat` plays `card`: it leaves the seat's hand
    add_row(acc.seat[seat], delta_row(m, card_slot(acc.order, card), 0), -1.0, m.h1)


cdef inline void acc_close(PolicyNet* m, PolicyAcc* acc, State* st, int nseats) noexcept nogil:
    # the trick in progress, full, closes: its cards are gone
    cdef int i
    for i in range(nseats):
        add_row(acc.table, delta_row(m, card_slot(acc.order, st.cur.card[i]), 1), 1.0, m.h1)


cdef int acc_first_layer(Search* c, PolicyNet* m, PolicyAcc* acc, float* a) noexcept nogil:
    # policy_eval's first layer for the seat on move, from acc, the trick's cards and
    # the moment's inputs (moment_inputs); returns the simple player's card slot
    cdef State* st = &c.st
    cdef int idx[MAX_SPARSE]
    cdef float val[MAX_SPARSE]
    cdef int i, j, n, simple, h = m.h1
    for j in range(h):
        a[j] = acc.table[j] + acc.seat[st.to_move][j]
    for i in range(st.count):
        add_row(a, delta_row(m, card_slot(acc.order, st.cur.card[i]), 2), 1.0, h)
    n = moment_inputs(c, acc.order, idx, val, &simple)
    for i in range(n):
        add_row(a, w1_row(m, idx[i]), val[i], h)
    return simple


cdef int acc_model_card(Search* c, PolicyAcc* acc) noexcept nogil:
    # model_card in a model play-out, its first layer from acc
    cdef PolicyNet* m = <PolicyNet*>c.policy_net
    cdef float a[MODEL_HIDDEN]
    cdef float out[NSLOT]
    cdef int j, simple
    cdef uint64_t legal = legal_moves(&c.R, &c.st)
    if not (legal & (legal - 1)):
        return low_bit(legal)
    simple = acc_first_layer(c, m, acc, a)
    for j in range(NSLOT):
        out[j] = m.b3[j]
    out[simple] += m.skip
    policy_head(m, a, out)
    return best_scored(&c.R, legal, out)


cdef int best_scored(Rules* R, uint64_t legal, float* out) noexcept nogil:
    # the legal card of highest score (ties to the lower bit)
    cdef int order[4]
    cdef int b, k, best = -1
    cdef float top = 0.0
    suit_order(R, order)
    while legal:
        b = low_bit(legal)
        legal &= legal - 1
        k = card_slot(order, b)
        if best < 0 or out[k] > top:
            best = b
            top = out[k]
    return best


cdef int model_card(Search* c) noexcept nogil:
    # The policy model's card for the seat on move: its legal card of highest score
    # (ties to the lower bit); with no model, the simple player's card
    cdef float x[NPF]
    cdef float out[NSLOT]
    cdef uint64_t legal = legal_moves(&c.R, &c.st)
    if c.policy_net == NULL:
        return policy_card(&c.R, &c.st, contract_positive(&c.R))
    if not (legal & (legal - 1)):
        return low_bit(legal)
    policy_features(c, x)
    policy_eval(<PolicyNet*>c.policy_net, x, out)
    return best_scored(&c.R, legal, out)


cdef class PolicyModel:
    """The policy model's weights (``kingsolve.search.policy_model`` reads them from its
    file), held for every core that plays with it: NPF inputs, hidden layers of ``h1``
    and ``h2`` units, NSLOT outputs, and ``weights`` as little-endian float32: w1 (NPF x
    h1, a feature's row together), b1, w2 (h1 x h2), b2, w3 (h2 x NSLOT), b3, skip."""

    cdef PolicyNet m
    cdef object _buf
    cdef object _delta

    def __init__(self, int nf, int h1, int h2, bytes weights):
        cdef Py_ssize_t need = nf * h1 + h1 + h1 * h2 + h2 + h2 * NSLOT + NSLOT + 1
        cdef float* f
        cdef int k, state, j
        if nf != NPF:
            raise ValueError(f"the policy takes {nf} features, the core makes {NPF}")
        if not (0 < h1 <= MODEL_HIDDEN and 0 < h2 <= MODEL_HIDDEN):
            raise ValueError(f"hidden layers of {h1} and {h2} units: at most {MODEL_HIDDEN}")
        if len(weights) != 4 * need:
            raise ValueError(f"policy weights: {len(weights)} bytes, expected {4 * need}")
        self._buf = bytearray(weights)
        f = <float*><char*>self._buf
        self.m.h1 = h1
        self.m.h2 = h2
        self.m.w1 = f
        self.m.b1 = self.m.w1 + nf * h1
        self.m.w2 = self.m.b1 + h1
        self.m.b2 = self.m.w2 + h1 * h2
        self.m.w3 = self.m.b2 + h2
        self.m.b3 = self.m.w3 + h2 * NSLOT
        self.m.skip = self.m.b3[NSLOT]
        self._delta = bytearray(4 * NSLOT * 3 * h1)
        self.m.delta = <float*><char*>self._delta
        for k in range(NSLOT):
            for state in range(3):
                for j in range(h1):
                    self.m.delta[(k * 3 + state) * h1 + j] = \
                        self.m.w1[(k * 6 + state) * h1 + j] - self.m.w1[(k * 6 + 4) * h1 + j]

    def scores(self, features):
        """The network's NSLOT scores for a list of NPF features (a test hook)."""
        cdef float x[NPF]
        cdef float out[NSLOT]
        cdef int i
        if len(features) != NPF:
            raise ValueError(f"{len(features)} features, expected {NPF}")
        for i in range(NPF):
            x[i] = features[i]
        policy_eval(&self.m, x, out)
        return [out[i] for i in range(NSLOT)]
