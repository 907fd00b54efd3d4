# The policy model: a network imitating the hints' choice of card (included by _core.pyx).
#
# kingsolve/search/policy_model.py reads its file, training/ makes it (python -m
# training.policy_fit). It sees one seat's view only: the seat's hand, the cards gone in
# earlier tricks, the trick in progress, the suits the other seats have shown void in,
# the contract's points and rules, the tricks left. Never another seat's card. Its
# output is a score per card slot; the seat plays its legal card of highest score
# (model_card). Play-outs with c.coalition 3 give every seat its card (playout_card).

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
    # (policy_card: the model learns where the hints leave it).
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int order[4]
    cdef int rel[4]
    cdef int b, j, s, seat, P = st.to_move, voids
    cdef int doubles = popcount(<uint64_t>c.maxmask) == 2
    cdef uint64_t mine = st.hands[P], gone = st.played & ~st.trick_mask, m
    cdef float cs = max_abs(R.card_points, 64), ts = max_abs(R.trick_points, R.n_tricks)
    memset(x, 0, NPF * sizeof(float))
    suit_order(R, order)
    rel_seats(R, P, rel)
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
    x[312 + st.count] = 1.0
    if st.count:
        b = st.cur.card[st.cur.win[st.count - 1]]
        x[card_slot(order, b) * 6 + 3] = 1.0
        x[316 + card_slot(order, st.cur.card[0]) // 13] = 1.0
        seat = st.cur.seat[st.cur.win[st.count - 1]]
        if doubles and seat == (P + 2) % 4:
            x[320] = 1.0
        x[348] = st.cur.tpts[st.count - 1] / cs
    x[321] = 1.0 if doubles else 0.0
    voids = shown_voids(c)
    for seat in range(4):
        if rel[seat] > 0:
            for j in range(4):
                if (voids >> (seat * 4 + order[j])) & 1:
                    x[322 + (rel[seat] - 1) * 4 + j] = 1.0
    x[334] = 1.0 if R.trump >= 0 else 0.0
    x[335] = 1.0 if contract_positive(R) else 0.0
    x[336] = (R.n_tricks - st.tricks_done) / 13.0
    x[337] = R.trick_points[st.tricks_done] / ts
    x[338] = (R.pos_suffix[st.tricks_done] + R.neg_suffix[st.tricks_done]) / ts
    for j in range(4):
        s = order[j]
        if R.lead_suit == s and (R.lead_mode == 2 or
                                 (R.lead_mode == 1 and not (st.broken & lane_of(s)))):
            x[339 + j] = 1.0
    if R.trump_lead_restricted and R.trump >= 0 and not (st.broken & lane_of(R.trump)):
        x[343] = 1.0
    x[344] = 1.0 if R.overtake else 0.0
    x[345] = 1.0 if R.trump_obligation == 1 else 0.0
    x[346] = 1.0 if R.trump_obligation == 2 else 0.0
    x[347] = 1.0 if R.overtrump_on_trump_lead else 0.0
    x[349] = 1.0 if st.tricks_done == 0 and R.protected else 0.0
    x[350 + card_slot(order, policy_card(R, st, contract_positive(R)))] = 1.0


cdef void policy_eval(PolicyNet* m, float* x, float* out) noexcept nogil:
    # The network's scores of the NSLOT card slots for inputs x: two ReLU layers, then
    # a linear layer, plus `skip` at the simple player's card (the fit starts from the
    # simple player and learns where the hints leave it). The inputs are mostly zero:
    # the first layer adds their rows.
    cdef float a[MODEL_HIDDEN]
    cdef float h[MODEL_HIDDEN]
    cdef int i, j
    cdef float xi
    cdef float* row
    for j in range(m.h1):
        a[j] = m.b1[j]
    for i in range(NPF):
        xi = x[i]
        if xi != 0.0:
            row = m.w1 + i * m.h1
            for j in range(m.h1):
                a[j] += xi * row[j]
    for j in range(m.h2):
        h[j] = m.b2[j]
    for i in range(m.h1):
        xi = a[i]
        if xi > 0.0:
            row = m.w2 + i * m.h2
            for j in range(m.h2):
                h[j] += xi * row[j]
    for j in range(NSLOT):
        out[j] = m.b3[j] + m.skip * x[NPF - NSLOT + j]
    for i in range(m.h2):
        xi = h[i]
        if xi > 0.0:
            row = m.w3 + i * NSLOT
            for j in range(NSLOT):
                out[j] += xi * row[j]


cdef int model_card(Search* c) noexcept nogil:
    # The policy model's card for the seat on move: its legal card of highest score
    # (ties to the lower bit); with no model, the simple player's card
    cdef float x[NPF]
    cdef float out[NSLOT]
    cdef int order[4]
    cdef int b, k, best = -1
    cdef float top = 0.0
    cdef uint64_t legal = legal_moves(&c.R, &c.st)
    if c.policy_net == NULL:
        return policy_card(&c.R, &c.st, contract_positive(&c.R))
    if not (legal & (legal - 1)):
        return low_bit(legal)
    policy_features(c, x)
    policy_eval(<PolicyNet*>c.policy_net, x, out)
    suit_order(&c.R, order)
    while legal:
        b = low_bit(legal)
        legal &= legal - 1
        k = card_slot(order, b)
        if best < 0 or out[k] > top:
            best = b
            top = out[k]
    return best


cdef class PolicyModel:
    """The policy model's weights (``kingsolve.search.policy_model`` reads them from its
    file), held for every core that plays with it: NPF inputs, hidden layers of ``h1``
    and ``h2`` units, NSLOT outputs, and ``weights`` as little-endian float32: w1 (NPF x
    h1, a feature's row together), b1, w2 (h1 x h2), b2, w3 (h2 x NSLOT), b3, skip."""

    cdef PolicyNet m
    cdef object _buf

    def __init__(self, int nf, int h1, int h2, bytes weights):
        cdef Py_ssize_t need = nf * h1 + h1 + h1 * h2 + h2 + h2 * NSLOT + NSLOT + 1
        cdef float* f
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
