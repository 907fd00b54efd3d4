# A side of two hands under a penalty (Italian doubles' misère contracts), included
# by _core.pyx: what the move order knows of a side's safe exits (measured in
# benchmarks/RESULTS.md; exact rules for a side's endings did not pay there).


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
