# A side under a penalty (Italian doubles' misère contracts, and the lone seat
# against the others), included by _core.pyx: what the move order knows of a side's
# safe exits, and the misère's one-trick bounds (measured in research/HISTORY.md;
# exact rules for a side's endings, and a side that can lose every trick, did not
# pay there).


cdef inline int side_exit(State* st, int maxmask, int bit) noexcept nogil:
    # Whether a lead of `bit` surely loses the trick to the other side (no trump):
    # a hand of that side holds cards of the suit, all above `bit`, and the partner
    # is void in it or holds a card below that hand's lowest, so it ducks under
    # whatever that hand must play.
    cdef int L = st.to_move, side = (maxmask >> L) & 1, j, low
    cdef uint64_t lane = lane_of(bit >> 4), mate = 0, h
    for j in range(4):
        if j != L and ((maxmask >> j) & 1) == side:
            mate = st.hands[j] & lane
    for j in range(4):
        h = st.hands[j] & lane
        if ((maxmask >> j) & 1) != side and h:
            low = low_bit(h)
            if low > bit and (not mate or low_bit(mate) < low):
                return 1
    return 0


cdef inline int side_shed(Search* c, int bit) noexcept nogil:
    # A point card led by a side under a penalty: first on a safe exit, where the
    # other side takes it, else last.
    cdef int p = c.R.card_points[bit]
    return -p * 64 if side_exit(&c.st, c.maxmask, bit) else p * 64


cdef inline int side_lead_score(Search* c, int bit, uint64_t opp) noexcept nogil:
    # A maximising side's lead under a penalty: under many of the other side's
    # higher cards (the partner's do not take the trick from it), low, a point
    # card shed on a safe exit.
    return popcount(opp & above(bit)) * 16 - (bit & 15) * 4 + side_shed(c, bit)


# The misère's quick rules. Under a penalty with no positive points left and no
# trump, a side wants the other to take the tricks: the side holding the top card
# of a trick can be made to take it unless an opponent still to play is forced
# above it (holds only higher cards of the suit). The rules bound the value by one
# trick's points; the other side's best reply may be worse for the side, so they
# bound its value from above, and the other side's from below.

cdef inline int dearest(Rules* R, uint64_t cards, uint64_t* rel) noexcept nogil:
    # The most penalty among `cards` (their least card points, 0 for none), the card
    # added to *rel.
    cdef int p, best = 0, bit = -1
    while cards:
        p = R.card_points[low_bit(cards)]
        if p < best:
            best = p
            bit = low_bit(cards)
        cards &= cards - 1
    if bit >= 0:
        rel[0] |= (<uint64_t>1) << bit
    return best


cdef inline int duck_shed(Search* c, int j, int top, uint64_t* rel) noexcept nogil:
    # The points seat j, playing to a trick whose top card is `top` (of the suit
    # led) and able to duck it, can shed into it: its dearest card under the top
    # when it holds the suit, else its dearest legal discard (of the forced set when
    # it holds one; past the first trick, so no card is protected).
    cdef uint64_t h = c.st.hands[j] & lane_of(top >> 4)
    if h:
        return dearest(&c.R, h & ~above(top) & ~((<uint64_t>1) << top), rel)
    h = c.st.hands[j]
    if c.R.forced and (h & c.R.forced):
        h &= c.R.forced
    return dearest(&c.R, h, rel)


cdef int lead_kept(Search* c, int* pts, uint64_t* rel) noexcept nogil:
    # At a trick start: whether the leader's side can be made to take this trick
    # whatever it leads (each card it may lead, every opponent holding the suit has
    # a card under it: the opponents duck). *pts gets the fewest points that trick
    # carries: the trick's own, the leader's card, and what each opponent can shed
    # under the leader's lowest card of the suit (a lead above it leaves them the
    # same ducks, and the partner's card only raises the top, so they still duck).
    # It rests on the leader's lowest card of each suit (with the hands' lengths,
    # the wide entries' key, the cards at or above it fix that each opponent still
    # has a card under it) and on the cards shed, which are point cards (special,
    # so every entry keeps their owners).
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int L = st.to_move, side = (c.maxmask >> L) & 1, s, j, low, p, own, shed
    cdef int best = -1 << 30
    cdef uint64_t legal = legal_moves(R, st), lane, h, r = 0
    for s in range(4):
        lane = legal & lane_of(s)
        if not lane:
            continue
        low = low_bit(lane)
        r |= (<uint64_t>1) << low
        shed = 0
        for j in range(4):
            if R.next_seat[j] >= 0 and ((c.maxmask >> j) & 1) != side:
                h = st.hands[j] & lane_of(s)
                if h and low_bit(h) > low:
                    return 0
                shed += duck_shed(c, j, low, &r)
        own = -1 << 30
        while lane:
            p = R.card_points[low_bit(lane)]
            if p > own:
                own = p
            lane &= lane - 1
        if own + shed > best:
            best = own + shed
    pts[0] = R.trick_points[st.tricks_done] + best
    rel[0] |= r
    return 1


cdef int trick_kept(Search* c, int* shed, uint64_t* rel) noexcept nogil:
    # In a trick under way: whether the side holding the trick's top card can be made
    # to keep it (no opponent still to play is forced above that card). Returns 1 for
    # the maximisers, 0 for the others, -1 when not sure; *shed gets the points the
    # opponents still to play can shed under the top card (duck_shed). It rests on
    # the top card (as lead_kept on the leader's lowest) and the cards shed.
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef Trick* t = st.cur
    cdef int top = t.top_led[st.count - 1]
    cdef int side = (c.maxmask >> t.seat[t.win[st.count - 1]]) & 1
    cdef int i, j = st.to_move
    cdef uint64_t h, r = (<uint64_t>1) << top
    shed[0] = 0
    for i in range(st.count, R.nseats):
        if ((c.maxmask >> j) & 1) != side:
            h = st.hands[j] & lane_of(top >> 4)
            if h and low_bit(h) > top:
                return -1
            shed[0] += duck_shed(c, j, top, &r)
        j = R.next_seat[j]
    rel[0] |= r
    return side


cdef inline void misere_gain(Search* c, int for_max, int pts, int* lo, int* hi) noexcept nogil:
    # A side surely takes a trick worth `pts` (at most 0): an upper bound on the
    # maximisers' future value when they take it, else a lower one above every
    # negative point left.
    if for_max:
        if pts < hi[0]:
            hi[0] = pts
    elif bound_lo(c) - pts > lo[0]:
        lo[0] = bound_lo(c) - pts
