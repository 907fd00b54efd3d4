# A side under a penalty (Italian doubles' misère contracts, and the lone seat
# against the others), included by _core.pyx: what the move order knows of a side's
# safe exits, and the misère's one-trick bounds (measured in benchmarks/RESULTS.md;
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

cdef int lead_kept(Search* c, int* pts, uint64_t* rel) noexcept nogil:
    # At a trick start: whether the leader's side can be made to take this trick
    # whatever it leads (each card it may lead, every opponent holding the suit has
    # a card under it: the opponents duck). *pts gets the fewest points that trick
    # carries (the trick's own and the leader's card). It rests on the leader's
    # lowest card of each suit: with the hands' lengths (the wide entries' key) the
    # cards at or above it fix that each opponent still has a card under it.
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int L = st.to_move, side = (c.maxmask >> L) & 1, s, j, low, p, best = -1 << 30
    cdef uint64_t legal = legal_moves(R, st), lane, h, r = 0
    for s in range(4):
        lane = legal & lane_of(s)
        if not lane:
            continue
        low = low_bit(lane)
        r |= (<uint64_t>1) << low
        for j in range(4):
            if R.next_seat[j] >= 0 and ((c.maxmask >> j) & 1) != side:
                h = st.hands[j] & lane_of(s)
                if h and low_bit(h) > low:
                    return 0
        while lane:
            p = R.card_points[low_bit(lane)]
            if p > best:
                best = p
            lane &= lane - 1
    pts[0] = R.trick_points[st.tricks_done] + best
    rel[0] |= r
    return 1


cdef int trick_kept(Search* c, uint64_t* rel) noexcept nogil:
    # In a trick under way: whether the side holding the trick's top card can be made
    # to keep it (no opponent still to play is forced above that card). Returns 1 for
    # the maximisers, 0 for the others, -1 when not sure. It rests on the top card
    # (as lead_kept on the leader's lowest).
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef Trick* t = st.cur
    cdef int top = t.top_led[st.count - 1]
    cdef int side = (c.maxmask >> t.seat[t.win[st.count - 1]]) & 1
    cdef int i, j = st.to_move
    cdef uint64_t h, r = (<uint64_t>1) << top
    for i in range(st.count, R.nseats):
        if ((c.maxmask >> j) & 1) != side:
            h = st.hands[j] & lane_of(top >> 4)
            if h and low_bit(h) > top:
                return -1
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
