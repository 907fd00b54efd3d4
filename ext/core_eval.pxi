# The value model and the estimating search (included by _core.pyx).
#
# The model (kingsolve/search/value_model.py reads its file, training/ makes it) maps a
# trick start, seen from the maximiser set, to the share of the points left that the
# set gets: a feature vector (eval_features) through a network of two hidden layers
# (model_eval). The estimating search (hsearch) is alpha-beta on the same moves as
# the exact search, down to a horizon of completed tricks where the model takes
# over, with a table of its own: its values are estimates and never meet the exact
# table's proved bounds.

from libc.math cimport isnan


cdef inline int rel_seats(Rules* R, int P, int* rel) noexcept nogil:
    # rel[seat]: the seat's place after P in play order (P is 0), -1 out of play
    cdef int i, s = P
    for i in range(4):
        rel[i] = -1
    for i in range(R.nseats):
        rel[s] = i
        s = R.next_seat[s]
    return 0


cdef inline void suit_order(Rules* R, int* order) noexcept nogil:
    # the suits as the model sees them: the trump first, the others in their order
    cdef int s, j = 0
    if R.trump >= 0:
        order[0] = R.trump
        j = 1
    for s in range(4):
        if s != R.trump:
            order[j] = s
            j += 1


cdef int playout_gain(Search* c, int coalition) noexcept nogil:
    # The points the maximiser set takes from a trick start to the end of the hand
    # when every seat plays the simple player's card (policy_card), or, with
    # `coalition`, when the others of a lone seat play coalition_card against it: the
    # two play-outs' verdicts, which the model corrects. No search; the state is
    # restored (and the play-out mode of a guided play-out that evaluates here).
    cdef int closed[4 * MAX_TRICKS]
    cdef int n, gain, saved = c.coalition
    if c.st.tricks_done >= c.R.n_tricks:
        return 0
    c.coalition = coalition
    gain = play_out(c, playout_card(c, contract_positive(&c.R)), 0, closed, &n)
    unplay_out(c, closed, n)
    c.coalition = saved
    return gain


cdef int eval_features(Search* c, float* x) noexcept nogil:
    # The model's inputs at a trick start, from the maximiser set's view (its lowest
    # seat P is seat 0; the others follow in play order); returns 0, or -1 when no
    # points are left (the value is then known). The layout (NF floats):
    #   0..415    per suit (trump first) and each of its cards still in hands, high to
    #             low (13 slots): the holder (4 one-hot) and the card's points over
    #             the scale, at the holder's place (4)
    #   416..431  per suit and seat, the cards held / 8
    #   432..447  per suit: trump; not to be led until broken (still); led only when
    #             nothing else; forced cards of the suit in hands
    #   448..451  the leader (one-hot)
    #   452       tricks left / 13
    #   453, 454  the next trick's points, every trick left's points, over the scale
    #   455..457  a side of two seats maximises; 3 seats; 2 seats
    #   458..462  overtake; ruff-overruff; strict; overtrump on a trump lead; trumps
    #             not to be led yet
    #   463, 464  the quick bounds (bound_lo, bound_hi) over the scale
    #   465       the first trick's protection applies
    #   466..509  per suit: each seat's run of the suit's top cards / 4; P's cards
    #             under every other hand's lowest / 4; the others' cards under P's
    #             lowest / 4; P survives the suit's safety game (suit_game); each
    #             seat's points in the suit over the scale
    #   510, 511  the safety games apply (a lone seat, no trump, no overtaking, past
    #             the first trick's protection); P can lose every trick (lone_safe)
    #   512, 513  the share of the points left that the set takes when every seat
    #             plays the simple player to the end; when the others play together
    #             against a lone seat (playout_gain), (gain - lo) over the scale
    # The scale is bound_hi - bound_lo: every point still to fall.
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int rel[4]
    cdef int order[4]
    cdef int owner[64]
    cdef int j, k, s, b, r, seat, P = low_bit(<uint64_t>c.maxmask)
    cdef uint64_t held = in_hands(st), lane, cards
    cdef int lo = bound_lo(c), hi = bound_hi(c)
    cdef int games = c.lone and R.trump < 0 and not R.overtake and \
        (R.protected == 0 or st.tricks_done > 0)
    cdef int every = others_in_play(c, P), run, low_p, below, top_owner
    cdef uint64_t mine, theirs, t
    cdef float scale
    memset(x, 0, NF * sizeof(float))
    if hi <= lo:
        return -1
    scale = <float>(hi - lo)
    rel_seats(R, P, rel)
    suit_order(R, order)
    for seat in range(4):
        cards = st.hands[seat]
        while cards:
            owner[low_bit(cards)] = seat
            cards &= cards - 1
    for j in range(4):
        s = order[j]
        lane = held & lane_of(s)
        k = 0
        while lane:
            b = high_bit(lane)
            lane &= ~((<uint64_t>1) << b)
            r = rel[owner[b]]
            x[(j * 13 + k) * 8 + r] = 1.0
            if R.card_points[b] != 0:
                x[(j * 13 + k) * 8 + 4 + r] = R.card_points[b] / scale
            k += 1
        for seat in range(4):
            if rel[seat] >= 0:
                x[416 + j * 4 + rel[seat]] = popcount(st.hands[seat] & lane_of(s)) / 8.0
        x[432 + j * 4] = 1.0 if s == R.trump else 0.0
        if R.lead_suit == s:
            if R.lead_mode == 1 and not (st.broken & lane_of(s)):
                x[432 + j * 4 + 1] = 1.0
            elif R.lead_mode == 2:
                x[432 + j * 4 + 2] = 1.0
        if R.forced & held & lane_of(s):
            x[432 + j * 4 + 3] = 1.0
        # the suit's shape as a player counts it
        lane = held & lane_of(s)
        if lane:
            top_owner = owner[high_bit(lane)]
            run = 0
            t = lane
            while t and owner[high_bit(t)] == top_owner:
                run += 1
                t &= ~((<uint64_t>1) << high_bit(t))
            x[466 + j * 11 + rel[top_owner]] = run / 4.0
        mine = st.hands[P] & lane_of(s)
        theirs = lane & ~mine
        if mine and theirs:
            x[466 + j * 11 + 4] = popcount(mine & (((<uint64_t>1) << low_bit(theirs)) - 1)) / 4.0
            x[466 + j * 11 + 5] = popcount(theirs & (((<uint64_t>1) << low_bit(mine)) - 1)) / 4.0
        if games and suit_game(c, P, s, held, every):
            x[466 + j * 11 + 6] = 1.0
        for seat in range(4):
            if rel[seat] >= 0:
                k = 0
                t = st.hands[seat] & lane_of(s)
                while t:
                    k += R.card_points[low_bit(t)]
                    t &= t - 1
                x[466 + j * 11 + 7 + rel[seat]] = k / scale
    x[448 + rel[st.to_move]] = 1.0
    x[452] = (R.n_tricks - st.tricks_done) / 13.0
    x[453] = R.trick_points[st.tricks_done] / scale
    x[454] = (R.pos_suffix[st.tricks_done] + R.neg_suffix[st.tricks_done]) / scale
    x[455] = 1.0 if popcount(<uint64_t>c.maxmask) == 2 else 0.0
    x[456] = 1.0 if R.nseats == 3 else 0.0
    x[457] = 1.0 if R.nseats == 2 else 0.0
    x[458] = 1.0 if R.overtake else 0.0
    x[459] = 1.0 if R.trump_obligation == 1 else 0.0
    x[460] = 1.0 if R.trump_obligation == 2 else 0.0
    x[461] = 1.0 if R.overtrump_on_trump_lead else 0.0
    if R.trump_lead_restricted and R.trump >= 0 and not (st.broken & lane_of(R.trump)):
        x[462] = 1.0
    x[463] = lo / scale
    x[464] = hi / scale
    x[465] = 1.0 if st.tricks_done == 0 and R.protected else 0.0
    if games:
        x[510] = 1.0
        if lo < 0 and lone_safe(c):
            x[511] = 1.0
    x[512] = (playout_gain(c, 0) - lo) / scale
    x[513] = (playout_gain(c, 1) - lo) / scale if c.lone else x[512]
    return 0


cdef float model_eval(Model* m, float* x) noexcept nogil:
    # The network's output for inputs x: two ReLU layers, then one linear unit. The
    # inputs are mostly zero, so the first layer adds the rows of the nonzero ones.
    cdef float a[MODEL_HIDDEN]
    cdef float h[MODEL_HIDDEN]
    cdef int i, j
    cdef float xi, y
    cdef float* row
    for j in range(m.h1):
        a[j] = m.b1[j]
    for i in range(m.nf):
        xi = x[i]
        if xi != 0.0:
            row = m.w1 + i * m.h1
            for j in range(m.h1):
                a[j] += xi * row[j]
    for j in range(m.h1):
        if a[j] < 0.0:
            a[j] = 0.0
    for j in range(m.h2):
        h[j] = m.b2[j]
    for i in range(m.h1):
        xi = a[i]
        if xi != 0.0:
            row = m.w2 + i * m.h2
            for j in range(m.h2):
                h[j] += xi * row[j]
    y = m.b3
    for j in range(m.h2):
        if h[j] > 0.0:
            y += h[j] * m.w3[j]
    return y


cdef int leaf_bounds(Search* c, int* lo, int* hi) noexcept nogil:
    # What the exact search knows of a trick start without searching it: the last
    # trick played out, the lone seat's exact endings and whether it can lose every
    # trick left, the exact table's entry (the exact searches of the same root
    # store there). Narrows [lo, hi]; returns 1 when they meet.
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef uint64_t rel = 0
    cdef TTEntry found
    cdef TTEntry* e
    cdef int v, elo, ehi, total
    if st.tricks_done == R.n_tricks - 1:
        v = last_trick(c, &rel)
        lo[0] = v
        hi[0] = v
        return 1
    if c.lone and lone_endgame(c, &v):
        lo[0] = v
        hi[0] = v
        return 1
    e = tt_probe(c, tt_key(c, NULL), &found)
    if e != NULL:
        elo = e.lo
        ehi = e.hi
        if c.flip:
            total = bound_lo(c) + bound_hi(c)
            elo = total - e.hi
            ehi = total - e.lo
        if elo > lo[0]:
            lo[0] = elo
        if ehi < hi[0]:
            hi[0] = ehi
    if c.lone and lo[0] < 0 and R.trump < 0 and not R.overtake and \
            (R.protected == 0 or st.tricks_done > 0) and lone_safe(c):
        lo[0] = 0
    return lo[0] >= hi[0]


cdef double leaf_value(Search* c) noexcept nogil:
    # The estimate of the maximiser set's future value at a trick start: the model's
    # share of the points left, held in what the exact search knows (leaf_bounds).
    cdef float x[NF]
    cdef int lo = bound_lo(c), hi = bound_hi(c), qlo, qhi
    cdef double y, v
    qlo = lo
    qhi = hi
    if leaf_bounds(c, &qlo, &qhi):
        return qlo
    if eval_features(c, x) < 0 or c.model == NULL:
        return 0.5 * (qlo + qhi)
    y = model_eval(c.model, x)
    if isnan(y) or y < 0.0:
        y = 0.0
    elif y > 1.0:
        y = 1.0
    v = lo + y * (hi - lo)
    if v < qlo:
        return qlo
    if v > qhi:
        return qhi
    return v


cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline uint64_t h_key(Search* c) noexcept nogil:
    # A trick start's key in the estimating table: its hands, leader and maximiser
    # set, and the table's epoch (never 0)
    cdef State* st = &c.st
    cdef uint64_t k = mix64(st.hands[0] ^ c.h_epoch)
    k = mix64(k ^ st.hands[1])
    k = mix64(k ^ st.hands[2])
    k = mix64(k ^ st.hands[3])
    k = mix64(k ^ <uint64_t>(st.to_move + 4 * c.maxmask + 1))
    return k | 1


cdef inline int h_count(Search* c) noexcept nogil:
    # the node count and, every 1024 nodes, the budget (as count_node)
    c.nodes += 1
    if (c.nodes & 1023) == 0:
        if c.nodes >= c.node_limit:
            c.abort = 1
        elif now_s() > c.deadline:
            c.abort = 2
    return c.abort


cdef double hsearch(Search* c, double alpha, double beta) noexcept nogil:
    # Fail-soft alpha-beta on the estimate of c.maxmask's future value: exact trick
    # by trick (the points of each completed trick are added as they fall) until
    # c.h_target tricks are done, then the model's value (leaf_value). On a stop
    # (c.abort), 0.
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int mv[32]
    cdef int i, n, w, maximizing, depth = 0, ttmove = -1, bestmove = -1
    cdef double v, best, gain, alpha0 = alpha, beta0 = beta
    cdef int lo, hi
    cdef uint64_t legal, key = 0
    cdef HEntry* e = NULL
    if h_count(c):
        return 0.0
    lo = bound_lo(c)
    hi = bound_hi(c)
    if lo == hi:
        return lo
    if st.count == 0:
        if st.tricks_done >= c.h_target:
            return leaf_value(c)
        depth = c.h_target - st.tricks_done
        key = h_key(c)
        e = &c.ht[key & c.ht_mask]
        if e.key == key:
            if e.depth >= depth:
                if e.lo == e.hi or e.lo >= beta:
                    return e.lo
                if e.hi <= alpha:
                    return e.hi
            ttmove = e.move
    legal = legal_moves(R, st)
    n = gen_moves(R, st, legal, mv, NULL, NULL)
    order_moves(c, mv, n, ttmove, legal)
    if ttmove >= 0 and (legal >> ttmove) & 1:
        # the table's card first (order_moves weighs it among leads only)
        for i in range(n):
            if mv[i] == ttmove:
                mv[i] = mv[0]
                mv[0] = ttmove
                break
    maximizing = (c.maxmask >> st.to_move) & 1
    best = -1e30 if maximizing else 1e30
    for i in range(n):
        play_card(R, st, mv[i])
        if st.count == R.nseats:
            gain = R.trick_points[st.tricks_done] + st.cur.tpts[st.count - 1]
            w = close_trick(R, st)
            if not (c.maxmask >> w) & 1:
                gain = 0.0
            v = gain + hsearch(c, alpha - gain, beta - gain)
            reopen_trick(R, st)
        else:
            v = hsearch(c, alpha, beta)
        unplay_card(st)
        if c.abort:
            return 0.0
        if maximizing:
            if v > best:
                best = v
                bestmove = mv[i]
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        else:
            if v < best:
                best = v
                bestmove = mv[i]
                if best < beta:
                    beta = best
                    if alpha >= beta:
                        break
    if e != NULL:
        e.key = key
        e.depth = depth
        e.move = bestmove
        if best >= beta0:
            e.lo = best
            e.hi = hi
        elif best <= alpha0:
            e.lo = lo
            e.hi = best
        else:
            e.lo = best
            e.hi = best
    return best


cdef double h_root(Search* c, int bit, int depth) noexcept nogil:
    # The estimate of c.maxmask's future value from the root, with `bit` played
    # first when it is a card (else the root itself), the model at the trick start
    # `depth` tricks after the root's trick (the root's own when it starts one and
    # depth is 0). The state is restored.
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef double v, gain = 0.0
    cdef int w, closed = 0
    c.h_target = st.tricks_done + depth
    if bit < 0:
        return hsearch(c, -1e30, 1e30)
    play_card(R, st, bit)
    if st.count == R.nseats:
        gain = R.trick_points[st.tricks_done] + st.cur.tpts[st.count - 1]
        w = close_trick(R, st)
        if not (c.maxmask >> w) & 1:
            gain = 0.0
        closed = 1
    v = gain + hsearch(c, -1e30, 1e30)
    if closed:
        reopen_trick(R, st)
    unplay_card(st)
    return v


cdef int coalition_card(Search* c) noexcept nogil:
    # The card of a seat playing with the others against the lone seat P, in a
    # play-out of P's paranoid value (the simple player plays for itself, so its
    # play-outs let P escape tricks the three others could force on it). Under a
    # penalty (the trick's tendency below 0): lead the lowest card of the suit where
    # P's lowest card stands highest above the leader's lowest (P cannot duck the
    # lead); when P's card heads the trick, stay under it with the card of most
    # points (void: shed the card of most points); when P has still to play, follow
    # low (void: shed a point card, else the highest); once P's card is beaten, shed
    # the highest card. In a positive contract: win the trick over P's card with the
    # lowest card that does, else play the lowest; lead the highest card.
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int P = low_bit(<uint64_t>c.maxmask)
    cdef uint64_t legal = legal_moves(R, st), m, lane, pl
    cdef int i, b, s, key, best = -1, best_key = 0, p_in = -1, p_wins = 0, led, gap, best_gap
    cdef int tendency = trick_tendency(c)
    if st.count > 0:
        for i in range(st.count):
            if st.cur.seat[i] == P:
                p_in = i
        p_wins = p_in >= 0 and st.cur.win[st.count - 1] == p_in
    if st.count == 0:
        if tendency < 0:
            best_gap = -100
            for s in range(4):
                lane = legal & lane_of(s)
                pl = st.hands[P] & lane_of(s)
                if lane and pl:
                    gap = low_bit(pl) - low_bit(lane)
                    if gap > best_gap:
                        best_gap = gap
                        best = low_bit(lane)
            if best >= 0:
                return best
        # the lowest card (penalty), the highest (positive)
        m = legal
        while m:
            b = low_bit(m)
            m &= m - 1
            key = (b & 15) * 4 + (b >> 4)
            if tendency >= 0:
                key = -key
            if best < 0 or key < best_key:
                best = b
                best_key = key
        return best
    led = st.cur.card[0] >> 4
    m = legal
    while m:
        b = low_bit(m)
        m &= m - 1
        if tendency >= 0:
            # positive: beat P's winning card cheaply, else the lowest
            if p_wins and beats(R, st, b):
                key = (b & 15)
            else:
                key = 64 + (b & 15)
        elif p_wins:
            # under P's card, most points first, then the highest
            if beats(R, st, b):
                key = 4096 - R.card_points[b] * 64 + (b & 15)
            else:
                key = R.card_points[b] * 64 - (b & 15)
        elif p_in < 0:
            # P to play later: follow low; void, shed points, then the highest card
            if (b >> 4) == led:
                key = (b & 15)
            else:
                key = 64 + R.card_points[b] * 64 - (b & 15)
        else:
            # P's card is beaten: shed the highest card
            key = -(b & 15)
        if best < 0 or key < best_key:
            best = b
            best_key = key
    return best


cdef int guided_card(Search* c) noexcept nogil:
    # The card of a play-out guided by the value model: the seat's best card by a
    # search of the rest of the trick (hsearch to the next trick start, where the
    # model evaluates), the maximiser set maximising, the others minimising.
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int mv[32]
    cdef int i, n, w, best = -1, saved = c.h_target
    cdef int maximizing = (c.maxmask >> st.to_move) & 1
    cdef uint64_t legal = legal_moves(R, st)
    cdef double v, gain, bestv = -1e30 if maximizing else 1e30
    n = gen_moves(R, st, legal, mv, NULL, NULL)
    if n == 1:
        return mv[0]
    order_moves(c, mv, n, -1, legal)
    c.h_target = st.tricks_done + 1
    for i in range(n):
        play_card(R, st, mv[i])
        if st.count == R.nseats:
            gain = R.trick_points[st.tricks_done] + st.cur.tpts[st.count - 1]
            w = close_trick(R, st)
            if not (c.maxmask >> w) & 1:
                gain = 0.0
            v = gain + hsearch(c, -1e30, 1e30)
            reopen_trick(R, st)
        elif maximizing:
            v = hsearch(c, bestv, 1e30)
        else:
            v = hsearch(c, -1e30, bestv)
        unplay_card(st)
        if c.abort:
            break
        if best < 0 or (v > bestv if maximizing else v < bestv):
            best = mv[i]
            bestv = v
    c.h_target = saved
    return best if best >= 0 else mv[0]
