# The quick bounds (included by _core.pyx): what bounds a node's value without a
# search of its moves. The points left (bound_lo, bound_hi), the last trick played
# out, the tricks a side surely takes from a trick start (quick_tricks and the rules
# it calls, lead_lost, later_tricks, all_barred) or mid-trick (follow_quick), and the
# lone seat's rules (lone_endgame's exact endings; lone_safe's suit games, a value of
# at least 0). The trick rules return tricks and add the cards they rest on to *rel;
# the driver (core_search.pxi) turns them into a node's bounds in points.

cdef inline int bound_lo(Search* c) noexcept nogil:
    # the least the maximiser set can get from here: every negative point
    return c.R.neg_suffix[c.st.tricks_done] + c.st.card_neg_left


cdef inline int bound_hi(Search* c) noexcept nogil:
    # the most: every positive point
    return c.R.pos_suffix[c.st.tricks_done] + c.st.card_pos_left


cdef inline uint64_t trick_rel(Search* c) noexcept nogil:
    # The cards of the trick just completed (not yet closed) whose rank decided it:
    # the winner when it beat another card of its suit; under rules whose legality
    # compares ranks (overtake, overtrump, overruff) every card of the suit led and
    # of the trump suit.
    cdef Trick* t = c.st.cur
    cdef int n = c.st.count
    cdef int wb = t.card[t.win[n - 1]]
    cdef int i, led = t.card[0] >> 4
    cdef uint64_t out = 0
    if c.strict:
        for i in range(n):
            if (t.card[i] >> 4) == led or (t.card[i] >> 4) == c.R.trump:
                out |= (<uint64_t>1) << t.card[i]
        return out
    for i in range(n):
        if t.card[i] != wb and (t.card[i] >> 4) == (wb >> 4):
            return (<uint64_t>1) << wb
    return 0


cdef int last_trick(Search* c, uint64_t* rel) noexcept nogil:
    # Every hand holds one card at a trick start: the play is forced.
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int i, w, pts
    for i in range(R.nseats):
        play_card(R, st, low_bit(st.hands[st.to_move]))
    if c.track:
        rel[0] |= trick_rel(c)
    w = st.cur.seat[st.cur.win[st.count - 1]]
    pts = R.trick_points[st.tricks_done] + st.cur.tpts[st.count - 1]
    for i in range(R.nseats):
        unplay_card(st)
    return pts if (c.maxmask >> w) & 1 else 0


cdef inline uint64_t above_others(uint64_t mine, uint64_t others) noexcept nogil:
    # The cards of `mine` above every card of `others` of their suit, the four suits
    # at once: `others` smeared down within each 16-bit lane (the bits a shift
    # carries from the lane above are masked off), then cleared from `mine`.
    cdef uint64_t x = others
    x |= (x >> 1) & <uint64_t>0x7FFF7FFF7FFF7FFF
    x |= (x >> 2) & <uint64_t>0x3FFF3FFF3FFF3FFF
    x |= (x >> 4) & <uint64_t>0x0FFF0FFF0FFF0FFF
    x |= (x >> 8) & <uint64_t>0x00FF00FF00FF00FF
    return mine & ~x


cdef inline uint64_t whole_lanes(uint64_t cards) noexcept nogil:
    # every card bit of each suit `cards` has a card of (bit 15 of a lane is never a
    # card, so adding 0x7FFF to a lane carries into its bit 15 alone, when not empty)
    cdef uint64_t f = ((cards & <uint64_t>0x7FFF7FFF7FFF7FFF) + <uint64_t>0x7FFF7FFF7FFF7FFF) \
        & <uint64_t>0x8000800080008000
    return f - (f >> 15)


cdef inline uint64_t lead_barred(Rules* R, State* st) noexcept nogil:
    # the lanes of the suits a restricted lead keeps from the quick rules' leads
    cdef uint64_t out = 0
    if R.lead_suit >= 0 and R.lead_mode != 0:
        out |= lane_of(R.lead_suit)
    if R.trump >= 0 and R.trump_lead_restricted and not (st.broken & lane_of(R.trump)):
        out |= lane_of(R.trump)
    return out


cdef inline void lead_tops(Search* c, int hand, uint64_t mine, uint64_t* tops) noexcept nogil:
    # Per suit s, in tops[s]: the cards of `mine` (cards of `hand`) in s above every
    # other hand's card of s; all of them when no other hand holds s; none when s
    # may not be led.
    cdef uint64_t win = above_others(mine, in_hands(&c.st) & ~c.st.hands[hand]) \
        & ~lead_barred(&c.R, &c.st)
    cdef int s
    for s in range(4):
        tops[s] = win & lane_of(s)


cdef inline int longest_other(State* st, int hand, int s) noexcept nogil:
    # the most cards of suit s any hand but `hand` holds
    cdef int o, n = 0
    for o in range(4):
        if o != hand and popcount(st.hands[o] & lane_of(s)) > n:
            n = popcount(st.hands[o] & lane_of(s))
    return n


cdef int suit_run(Search* c, int hand, uint64_t mine, int s, uint64_t top,
                  uint64_t* rel) noexcept nogil:
    # Tricks `hand` cashes on lead in suit s with `mine` (its cards, or some of them)
    # keeping the lead, when nobody can ruff; `top` is lead_tops(). The whole holding
    # runs when its cards above every opponent's card of s are at least as many as
    # the longest opponent holding (the opponents are then out) and each teammate's
    # i-th highest card of s is below the hand's i-th highest (a teammate unblocks
    # under the winners, never taking the lead); else the top cards alone. Adds the
    # cards this rests on to *rel.
    cdef State* st = &c.st
    cdef uint64_t lane = mine & lane_of(s)
    cdef uint64_t opp = 0, h, a, r = 0
    cdef int o, m = 0, n, team = (c.maxmask >> hand) & 1
    n = longest_other(st, hand, s)
    if n <= popcount(top):
        # every other hand is out after the top n cards: the run rests on those
        # alone (the hands' lengths, which every entry keeps, say the rest)
        rel[0] |= top_of(top, s, n)
        return popcount(lane)
    for o in range(4):
        if o == hand:
            continue
        h = st.hands[o] & lane_of(s)
        if ((c.maxmask >> o) & 1) != team:
            opp |= h
            n = popcount(h)
            if n > m:
                m = n
    if opp:
        a = lane & ~((((<uint64_t>2) << high_bit(opp))) - 1)
        if popcount(a) < m:
            rel[0] |= top
            return popcount(top)
        for n in range(m):
            r |= (<uint64_t>1) << high_bit(a)
            a &= ~((<uint64_t>1) << high_bit(a))
    for o in range(4):
        if o == hand or ((c.maxmask >> o) & 1) != team:
            continue
        h = st.hands[o] & lane_of(s)
        if not h:
            continue
        n = popcount(h)
        if n <= popcount(lane):
            # the teammate's highest card below the hand's n-th highest
            a = lane
            while n > 1:
                a &= ~((<uint64_t>1) << high_bit(a))
                n -= 1
            if high_bit(h) < high_bit(a):
                r |= ((<uint64_t>1) << high_bit(h)) | (lane & ~((((<uint64_t>1) << high_bit(a))) - 1))
                continue
        a = lane
        while h and a:
            if high_bit(h) > high_bit(a):
                rel[0] |= top
                return popcount(top)
            r |= ((<uint64_t>1) << high_bit(h)) | ((<uint64_t>1) << high_bit(a))
            h &= ~((<uint64_t>1) << high_bit(h))
            a &= ~((<uint64_t>1) << high_bit(a))
    rel[0] |= r
    return popcount(lane)


cdef int cash_count(Search* c, int hand, uint64_t mine, uint64_t* rel) noexcept nogil:
    # Tricks `hand` cashes on lead with `mine` (its cards, or some of them) when
    # nobody can ruff: per suit it may lead, suit_run(). Adds the cards counted on
    # to *rel.
    cdef uint64_t tops[4]
    cdef int s, n = 0
    lead_tops(c, hand, mine, tops)
    for s in range(4):
        if tops[s]:
            n += suit_run(c, hand, mine, s, tops[s], rel)
    return n


cdef inline int cash_reach(Search* c, int hand, uint64_t mine) noexcept nogil:
    # At most cash_count(c, hand, mine): per suit where `mine` holds a card above
    # every other hand's, its cards of the suit.
    cdef uint64_t others = in_hands(&c.st) & ~c.st.hands[hand]
    return popcount(mine & whole_lanes(above_others(mine, others)))


cdef int partner_cash(Search* c, int k, uint64_t* rel) noexcept nogil:
    # No trump, the leader L cashing k top cards first: then L leads a card of a suit
    # where a partner holds a card above every other hand's (DDS's communication
    # with partner), and that partner cashes its cards above every other hand's
    # card of their suits (a whole suit when the others run out first). Counted only
    # when the partner holds at least k other cards to play under L's winners, so no
    # counted card is discarded. Returns k plus the partner's tricks (k when no
    # partner can be reached), adding the partner's counted cards to *rel.
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int L = st.to_move
    cdef int team = (c.maxmask >> L) & 1
    cdef uint64_t held = in_hands(st)
    cdef uint64_t legal = legal_moves(R, st)
    cdef uint64_t mine, r, best_r = 0
    cdef int hp, n, best = k
    for hp in range(4):
        if hp == L or R.next_seat[hp] < 0 or ((c.maxmask >> hp) & 1) != team:
            continue
        mine = st.hands[hp]
        # a suit L may lead where hp holds a card above every other hand's
        if not (legal & whole_lanes(above_others(mine, held & ~mine))):
            continue
        r = 0
        n = cash_count(c, hp, mine, &r)
        if n and popcount(mine) - n >= k and k + n > best:
            best = k + n
            best_r = r
    rel[0] |= best_r
    return best


cdef inline int split_more(Search* c, int L, int Pt, int s, int k) noexcept nogil:
    # After k top cards of L in suit s and Pt's next best card: when L then has no
    # card of s left and the opponents none either, Pt, on lead, cashes the rest;
    # only its first lead when a third teammate (singles) still holds the suit, as
    # that hand may win a trick of it and hold no card of the suit to lead on.
    cdef State* st = &c.st
    cdef int o, n = popcount(st.hands[Pt] & lane_of(s)) - k - 1
    if popcount(st.hands[L] & lane_of(s)) != k + 1:
        return 0
    for o in range(4):
        if ((c.maxmask >> o) & 1) != ((c.maxmask >> L) & 1):
            if popcount(st.hands[o] & lane_of(s)) > k + 1:
                return 0
        elif o != L and o != Pt and popcount(st.hands[o] & lane_of(s)) > k + 1 and n > 1:
            n = 1
    return n


cdef int split_suit(Search* c, uint64_t* tops, int* cnt, uint64_t* rs, int plain,
                    uint64_t* split_r) noexcept nogil:
    # For quick_tricks, no trump: the tricks the split suit adds over the leader's
    # `plain` ones (tops, cnt and rs per suit: the leader's top cards, the tricks it
    # counted and their cards), its cards in *split_r; 0 for none.
    cdef State* st = &c.st
    cdef int L = st.to_move
    cdef uint64_t mine = st.hands[L]
    cdef uint64_t held = in_hands(st)
    cdef uint64_t lane, top
    cdef int s, o, k, n, j, gain = 0
    # a suit whose next best card, after the leader's top cards, is a partner's:
    # cashed last, the leader's top cards and then a low lead to the partner's
    # (the partner keeps it, following with its other cards of the suit, and
    # plays its cards of other suits to the tricks cashed before)
    for s in range(4):
        top = tops[s]
        k = popcount(top)
        if k == 0 or k + 1 <= cnt[s] or popcount(mine & lane_of(s)) < k + 1:
            continue
        lane = held & ~mine & lane_of(s)
        for o in range(4):
            if o != L and ((c.maxmask >> o) & 1) == ((c.maxmask >> L) & 1) \
                    and (st.hands[o] >> high_bit(lane)) & 1 \
                    and popcount(st.hands[o] & lane_of(s)) >= k + 1 \
                    and popcount(st.hands[o] & ~lane_of(s)) >= plain - cnt[s]:
                # the tricks it adds over the suit's own count
                n = k + 1 + split_more(c, L, o, s, k) - cnt[s]
                if n > gain:
                    gain = n
                    split_r[0] = top | ((<uint64_t>1) << high_bit(lane))
                    for j in range(4):
                        if j != s:
                            split_r[0] |= rs[j]
    return gain


cdef int partner_winner(Search* c, uint64_t* rel) noexcept nogil:
    # For quick_tricks, when the leader holds no top card: a low lead to a partner
    # whose card beats every opponent's in the suit, one trick (no trump: and the
    # partner's winners after it). Restricted leads are left out. Adds the cards
    # counted to *rel.
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int L = st.to_move
    cdef uint64_t mine = st.hands[L]
    cdef uint64_t top, team_cards = 0, opp_cards = 0, r, cand
    cdef int s, o, n, team, ok, hp = 0, k = 0
    team = (c.maxmask >> L) & 1
    for o in range(4):
        if ((c.maxmask >> o) & 1) == team:
            team_cards |= st.hands[o]
        else:
            opp_cards |= st.hands[o]
    # the suits the leader may lead and holds where a partner's best card beats
    # every opponent's
    cand = whole_lanes(above_others(team_cards & ~mine, opp_cards)) & whole_lanes(mine) \
        & ~lead_barred(R, st)
    for s in range(4):
        if not (cand & lane_of(s)):
            continue
        top = team_cards & ~mine & lane_of(s)
        ok = 1
        if R.trump >= 0 and s != R.trump:
            for o in range(4):
                if ((c.maxmask >> o) & 1) != team and (st.hands[o] & lane_of(R.trump)) \
                        and not (st.hands[o] & lane_of(s)):
                    ok = 0
        if ok:
            r = (<uint64_t>1) << high_bit(top)
            if R.trump >= 0:
                rel[0] |= r
                return 1
            # no trump: the partner who wins then cashes its winners (the suit led
            # included)
            hp = st.owner[high_bit(top)]
            n = cash_count(c, hp, st.hands[hp] & ~r, &r)
            if 1 + n > k:
                k = 1 + n
                rel[0] |= r
    return k


cdef int quick_tricks(Search* c, uint64_t* rel) noexcept nogil:
    # Tricks the leader's side surely takes, from a trick start where no negative
    # points remain. The leader's own cards above every card of the suit in the
    # other hands are cashed keeping the lead; when no other hand holds a trump, a
    # whole suit counts where suit_run() says it runs. With a trump, a plain
    # suit counts only while each other holder of trumps must follow, and only one
    # plain suit after the trumps. Without a trump, one suit may instead be cashed
    # last through a partner's next best card (split_suit). With no top card at
    # all, a low lead to a partner's winner (partner_winner). Adds the winning
    # cards counted to *rel.
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int L = st.to_move
    cdef uint64_t mine = st.hands[L]
    cdef uint64_t top, r = 0, tmp, plain_r = 0, split_r = 0
    cdef uint64_t rs[4]
    cdef uint64_t tops[4]
    cdef int cnt[4]
    cdef int split_gain, split_k = 0
    cdef int s, k, o, n, trump_run = 0, plain = 0, best_plain = 0, others_trump = 0
    if R.trump >= 0:
        for o in range(4):
            if o != L and (st.hands[o] & lane_of(R.trump)):
                others_trump = 1
    lead_tops(c, L, mine, tops)
    for s in range(4):
        cnt[s] = 0
        rs[s] = 0
        top = tops[s]
        k = popcount(top)
        if k == 0:
            continue
        if s == R.trump:
            r |= top
            trump_run = k
        elif others_trump:
            for o in range(4):
                if o != L and (st.hands[o] & lane_of(R.trump)):
                    n = popcount(st.hands[o] & lane_of(s))
                    if n < k:
                        k = n
            if k > best_plain:
                # only one plain suit counts: its top k cards
                best_plain = k
                plain_r = top_of(top, s, k)
        else:
            tmp = 0
            cnt[s] = suit_run(c, L, mine, s, top, &tmp)
            rs[s] = tmp
            plain += cnt[s]
            r |= tmp
    if R.trump < 0 and plain:
        split_gain = split_suit(c, tops, cnt, rs, plain, &split_r)
        if split_gain:
            split_k = plain + split_gain
    if others_trump:
        k = trump_run + best_plain
        r |= plain_r
    else:
        k = trump_run + plain
    if k and R.trump < 0:
        # then a lead to a partner's winner, and the partner's own top cards
        n = partner_cash(c, k, &r)
        if n > k:
            k = n
    if split_k > k:
        # the split suit cashed last instead (the lead ends with the partner, so
        # not with partner_cash after it)
        k = split_k
        r = split_r
    if trump_run and trump_run >= longest_other(st, L, R.trump):
        # the top trumps draw every other hand's trumps: then every winner counts
        tmp = 0
        n = cash_count(c, L, mine, &tmp)
        if n > k:
            k = n
            r |= tmp
    if k:
        rel[0] |= r
        return k
    return partner_winner(c, rel)


cdef int follow_quick(Search* c, int lo, int hi, int alpha, int beta, uint64_t* rel) noexcept nogil:
    # Mid-trick, no negative points: tricks the mover's side surely takes from here.
    # When the highest card of the suit led among the cards played and the hands
    # still to play is the side's, and no opponent still to play can ruff, the
    # side wins this trick (DDS's quick tricks of the second hand). Without a
    # trump, the hand that wins it then cashes its cards above every other hand's
    # card of their suits (a whole suit when the others run out first), unless
    # this trick alone decides the window (alpha, beta) for the range [lo, hi]:
    # as DDS stops counting at its target, the cashing's cards would only make
    # the table entries above narrower. Returns the tricks counted and adds the
    # cards they rest on to *rel.
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef Trick* t = st.cur
    cdef int team = (c.maxmask >> st.to_move) & 1
    cdef int led = t.card[0] >> 4
    cdef int wi = t.win[st.count - 1]
    cdef int team_best = -1, opp_best = -1, hh = -1, j, i, q
    cdef uint64_t h, r = 0
    if R.protected and st.tricks_done == 0:
        return 0
    if R.trump >= 0 and led != R.trump and t.top_trump[st.count - 1] >= 0:
        return 0
    if ((c.maxmask >> t.seat[wi]) & 1) == team:
        team_best = t.card[wi]
        hh = t.seat[wi]
    else:
        opp_best = t.card[wi]
    j = st.to_move
    for i in range(st.count, R.nseats):
        h = st.hands[j] & lane_of(led)
        if h:
            if ((c.maxmask >> j) & 1) == team:
                if high_bit(h) > team_best:
                    team_best = high_bit(h)
                    hh = j
            elif high_bit(h) > opp_best:
                opp_best = high_bit(h)
        elif R.trump >= 0 and led != R.trump and ((c.maxmask >> j) & 1) != team \
                and (st.hands[j] & lane_of(R.trump)):
            return 0
        j = R.next_seat[j]
    if team_best < opp_best:
        return 0
    r = (<uint64_t>1) << team_best
    q = 1
    if R.trump < 0 and cash_counts(c, lo, hi, alpha, beta, hh, r):
        q += cash_count(c, hh, st.hands[hh] & ~r, &r)
    if q > R.n_tricks - st.tricks_done:
        q = R.n_tricks - st.tricks_done
    rel[0] |= r
    return q


cdef int lead_lost(Search* c, uint64_t* rel) noexcept nogil:
    # At a trick start with no trump in any hand: whether every card the leader may
    # lead is of a suit whose highest card in hands belongs to the other side (that
    # hand plays it and wins the trick: DDS's quick-trick exit for a leader without
    # one). Adds those top cards to *rel.
    cdef State* st = &c.st
    cdef int L = st.to_move
    cdef int team = (c.maxmask >> L) & 1
    cdef uint64_t held = in_hands(st)
    cdef uint64_t legal, r = 0
    cdef int s, top
    if c.R.trump >= 0 and (held & lane_of(c.R.trump)):
        return 0
    legal = legal_moves(&c.R, st)
    for s in range(4):
        if not (legal & lane_of(s)):
            continue
        top = high_bit(held & lane_of(s))
        if ((c.maxmask >> st.owner[top]) & 1) == team:
            return 0
        r |= (<uint64_t>1) << top
    rel[0] |= r
    return 1


cdef int later_tricks(Search* c, int* holder, uint64_t* rel) noexcept nogil:
    # With a trump: the hand holding the top trumps wins a trick with each of them
    # (one card per hand per trick, and every card is played). Returns how many and
    # the holder.
    cdef State* st = &c.st
    cdef uint64_t trumps, lane, others
    cdef int o
    if c.R.trump < 0:
        return 0
    trumps = in_hands(st) & lane_of(c.R.trump)
    if not trumps:
        return 0
    o = st.owner[high_bit(trumps)]
    holder[0] = o
    lane = st.hands[o] & lane_of(c.R.trump)
    others = trumps & ~lane
    if others:
        lane &= ~((((<uint64_t>2) << high_bit(others))) - 1)
    rel[0] |= lane
    return popcount(lane)


cdef int all_barred(Search* c, int side, uint64_t* rel) noexcept nogil:
    # Without a trump in any hand: whether the side (1: the maximiser set, 0: the
    # others) cannot take every trick left, by DDS's count (LaterTricksMIN/MAX):
    # its tricks come from the suits whose best card it holds, at most the longest
    # holding of its hands in each; a suit whose best card the other side holds
    # gives it none while that card stays (to win every trick it would have to
    # make the other side shed it). Adds the best card of each such suit (when
    # another hand holds the suit) to *rel.
    cdef State* st = &c.st
    cdef uint64_t held = in_hands(st)
    cdef uint64_t lane, r = 0
    cdef int s, o, top, sum = 0, longest, n, owner
    if c.R.trump >= 0 and (held & lane_of(c.R.trump)):
        return 0
    for s in range(4):
        lane = held & lane_of(s)
        if not lane:
            continue
        top = high_bit(lane)
        owner = nth_holder(st, lane, 1)
        if ((c.maxmask >> owner) & 1) == side:
            longest = 0
            for o in range(4):
                if c.R.next_seat[o] >= 0 and ((c.maxmask >> o) & 1) == side:
                    n = popcount(st.hands[o] & lane)
                    if n > longest:
                        longest = n
            sum += longest
        elif lane & ~st.hands[owner]:
            r |= (<uint64_t>1) << top
    if sum >= c.R.n_tricks - st.tricks_done:
        return 0
    rel[0] |= r
    return 1


cdef int lone_endgame(Search* c, int* value) noexcept nogil:
    # For one maximising seat P at a trick start (no trump, or the others hold no
    # trump in case B and P none in case A), two endings whose value is exact:
    # A. every card of P is below every card of its suit in the other hands, and P
    #    is not on lead (P never wins again: 0), or no positive points remain and P
    #    can lead a suit the others hold (P can lose every trick: 0 is its best).
    # B. P is on lead and every card of P is above every card of its suit in the
    #    other hands: P wins every remaining trick (all the points left).
    # Returns 1 and sets *value when one applies.
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int P = low_bit(<uint64_t>c.maxmask)
    cdef uint64_t mine = st.hands[P]
    cdef uint64_t others = in_hands(st) & ~mine
    cdef uint64_t m, o, legal
    cdef int s, below = 1, above_all = 1, tr = R.trump
    for s in range(4):
        m = mine & lane_of(s)
        o = others & lane_of(s)
        if m and o:
            if high_bit(m) > low_bit(o):
                below = 0
            if low_bit(m) < high_bit(o):
                above_all = 0
    if tr >= 0:
        if mine & lane_of(tr):
            below = 0
        if others & lane_of(tr):
            above_all = 0
    if below:
        if st.to_move != P:
            value[0] = 0
            return 1
        if R.pos_suffix[st.tricks_done] + st.card_pos_left <= 0:
            # P on lead can choose to lose, which is the best it can do here
            legal = legal_moves(R, st)
            for s in range(4):
                if (legal & lane_of(s)) and (others & lane_of(s)):
                    value[0] = 0
                    return 1
    if above_all and st.to_move == P:
        value[0] = R.pos_suffix[st.tricks_done] + R.neg_suffix[st.tricks_done] \
            + st.card_pos_left + st.card_neg_left
        return 1
    return 0


cdef inline uint32_t suit_ranks(uint64_t hand, int s) noexcept nogil:
    # a hand's cards of suit s as 13 bits (bit i: rank i + 2)
    return <uint32_t>((hand >> (16 * s + 2)) & 0x1FFF)


cdef inline int rank_owner(uint32_t* own, int b) noexcept nogil:
    cdef int j
    for j in range(4):
        if (own[j] >> b) & 1:
            return j
    return -1


cdef inline int run_top(uint32_t S, uint32_t* own, int b) noexcept nogil:
    # whether b is the top of its run in S: the next higher card of S has another
    # owner (cards of one owner with nothing of S between them are alike here)
    cdef uint32_t up = S & ~(((<uint32_t>2) << b) - 1)
    return up == 0 or rank_owner(own, low_bit(up)) != rank_owner(own, b)


cdef inline int memo_get(Search* c, uint8_t* memo, uint32_t i) noexcept nogil:
    # a suit game's memoised result in this load: 0 unknown, 1 safe, 2 not
    cdef uint8_t v = memo[i]
    return v & 3 if (v >> 2) == c.safe_epoch else 0


cdef inline uint8_t* safe_memo_of(Search* c, int P, int s, int cap) noexcept nogil:
    # the memo of P's game in suit s when the seats of `cap` may lead: [seat][those
    # seats][suit][cards left]
    return c.safe_memo + ((P * 16 + cap) * 4 + s) * 8192


cdef int suit_safe(Search* c, int P, int s, uint32_t S, uint32_t* own, int cap) noexcept nogil:
    # The lone seat P's safety game in suit s (see lone_safe), memoised per load:
    # S holds the suit's cards still in hands, own[j] seat j's cards of the suit,
    # cap the seats that may lead (lead_reach).
    cdef uint8_t* memo = safe_memo_of(c, P, s, cap)
    cdef int r = memo_get(c, memo, S)
    if r == 0:
        r = 1 if suit_safe_calc(c, P, s, S, own, cap) else 2
        memo[S] = <uint8_t>((c.safe_epoch << 2) | r)
    return r == 1


cdef int trick_safe(Search* c, int P, int s, uint32_t* own, int L, int j, int m,
                    int before, uint32_t T, int cap) noexcept nogil:
    # A trick of suit s led by L, seat j to play next: every card each other hand may
    # play (any of its cards of the suit: following is all that is asked), P its
    # highest card under the highest card m played before it; then the position T
    # left after the trick must be safe. `before`: 1 while P has still to play (m the
    # highest card so far), 0 once P has ducked, 2 while P's card m heads the trick.
    # With no card under m, P may play any card above it that some hand after it is
    # sure to beat: every card that hand may play (all its cards of the suit) is
    # higher, whatever the hands between play (then not safe when the trick ends
    # with P's card on top).
    cdef uint32_t x, under, ahead
    cdef int b, nxt = c.R.next_seat[j]
    if j == L:
        return before != 2 and suit_safe(c, P, s, T, own, cap)
    if j == P:
        if not (T & own[P]):
            # void in the suit (only after a lead, from lone_safe_led): P sheds elsewhere
            return trick_safe(c, P, s, own, L, nxt, m, 0, T, cap)
        under = T & own[P] & (((<uint32_t>1) << m) - 1)
        if under:
            return trick_safe(c, P, s, own, L, nxt, m, 0,
                              T & ~((<uint32_t>1) << high_bit(under)), cap)
        x = T & own[P]
        while x:
            b = low_bit(x)
            x &= x - 1
            if run_top(T, own, b) and trick_safe(c, P, s, own, L, nxt, b, 2,
                                                 T & ~((<uint32_t>1) << b), cap):
                return 1
        return 0
    x = T & own[j]
    if not x:
        return trick_safe(c, P, s, own, L, nxt, m, before, T, cap)
    # while P's card heads the trick, the cards of j on either side of it differ
    ahead = T | ((<uint32_t>1) << m) if before == 2 else T
    while x:
        b = low_bit(x)
        x &= x - 1
        if run_top(ahead, own, b) and not trick_safe(
                c, P, s, own, L, nxt, b if before == 1 and b > m else m,
                0 if before == 2 and b > m else before, T & ~((<uint32_t>1) << b), cap):
            return 0
    return 1


cdef int suit_safe_calc(Search* c, int P, int s, uint32_t S, uint32_t* own, int cap) noexcept nogil:
    # The others win the game when P must play over every card played before it to
    # a trick of the suit. Their moves, more than they have in play (so "safe" is
    # sound): any of them that may lead (the seats of cap, from lead_reach) leads
    # any of its cards, every other hand holding the suit
    # plays any of its cards; and any of their cards may leave the suit at any time
    # (a discard on another suit's trick). P's moves are fixed: its highest card
    # under the highest card played before it, and its top card when it sheds from
    # the suit. A position is safe when P has no card of the suit, or the others
    # none, or every move leaves a safe position.
    cdef uint32_t mine = S & own[P]
    cdef uint32_t x
    cdef int b, L
    if mine == 0 or (S & ~mine) == 0:
        return 1
    for L in range(4):
        if L == P or c.R.next_seat[L] < 0 or not (cap >> L) & 1:
            continue
        x = S & own[L]
        while x:
            b = low_bit(x)
            x &= x - 1
            if run_top(S, own, b) and not trick_safe(
                    c, P, s, own, L, c.R.next_seat[L], b, 1, S & ~((<uint32_t>1) << b), cap):
                return 0
    # P's top card (P sheds it when void in the suit led), each of its cards of the
    # forced set (a forced discard may take any of them) and any other hand's card
    x = (S & ~mine) | ((<uint32_t>1) << high_bit(mine)) | (mine & suit_ranks(c.R.forced, s))
    while x:
        b = low_bit(x)
        x &= x - 1
        if run_top(S, own, b) and not suit_safe(c, P, s, S & ~((<uint32_t>1) << b), own, cap):
            return 0
    return 1


cdef inline int suit_game(Search* c, int P, int s, uint64_t held, int cap) noexcept nogil:
    # Whether P survives the game of suit s from the current hands, `held` the cards
    # in them, the seats of cap leading (memoised).
    cdef uint32_t S = suit_ranks(held, s)
    cdef uint32_t own[4]
    cdef int r = memo_get(c, safe_memo_of(c, P, s, cap), S), j
    if r == 0:
        for j in range(4):
            own[j] = suit_ranks(c.st.hands[j], s)
        return suit_safe(c, P, s, S, own, cap)
    return r == 1


cdef inline int others_in_play(Search* c, int P) noexcept nogil:
    # the seats in play other than P, as a mask
    return c.R.in_play & ~(1 << P)


cdef int lead_reach(Search* c, int P, int seeds) noexcept nogil:
    # The seats other than P that may lead a trick from here on while P wins none
    # and no hand holds a trump: the seeds (who may lead the next trick), then every
    # hand holding a card of a suit above the lowest card of that suit of a seat
    # that may lead (it can win such a lead). Hands only lose cards, so what holds
    # now bounds every later trick: a seat outside the set never leads, and the
    # suit games need not let it.
    cdef int k, done = 1 << P, every = others_in_play(c, P)
    cdef int cap = seeds & every
    while cap != every and (cap & ~done):
        k = low_bit(<uint64_t>(cap & ~done))
        done |= 1 << k
        cap |= holders(c, every, above_lowest(c.st.hands[k]))
    return cap


cdef int lone_safe_led(Search* c) noexcept nogil:
    # lone_safe right after a lead by another hand (past the first-trick
    # protection): every other suit's game, and the rest of this trick as the game
    # of its suit plays it (the hands still to play follow with any card, P ducks
    # under the highest card or, void, sheds elsewhere), then that suit's game. The
    # trick's result is cached (lone_trick). Every other seat may lead in these
    # games (lead_reach narrows them at trick starts only: mid-trick it cost more
    # than it saved).
    cdef State* st = &c.st
    cdef int P = low_bit(<uint64_t>c.maxmask)
    cdef int t, s = st.cur.card[0] >> 4
    cdef int every = others_in_play(c, P)
    cdef uint64_t held = in_hands(st)
    if c.R.protected and st.tricks_done == 0:
        return 0
    for t in range(4):
        if t != s and not suit_game(c, P, t, held, every):
            return 0
    return lone_trick(c, P, s, st.cur.seat[0], (st.cur.card[0] & 15) - 2,
                      suit_ranks(held, s), every)


cdef int lone_trick(Search* c, int P, int s, int L, int lead, uint32_t S,
                    int cap) noexcept nogil:
    # A trick of suit s led by L with its card of rank `lead` (S the suit's cards
    # left in hands) as the game of the suit plays it, then the rest of that game:
    # another hand's lead (lone_safe_led) or P's exit (lone_safe), cached
    cdef State* st = &c.st
    cdef uint32_t own[4]
    cdef uint32_t h
    cdef uint64_t key, r
    cdef int i
    key = (<uint64_t>(((((cap * 4 + P) * 4 + s) * 4 + L) * 16) + lead) << 13) | S
    h = <uint32_t>(((key * <uint64_t>0x9E3779B97F4A7C15u) >> 48) & 0xFFFF)
    key |= (<uint64_t>c.safe_epoch) << 30
    r = c.lead_memo[h]
    if (r & 0xFFFFFFFFFu) == key:
        return (r >> 36) == 1
    for i in range(4):
        own[i] = suit_ranks(st.hands[i], s)
    r = 1 if trick_safe(c, P, s, own, L, c.R.next_seat[L], lead, 2 if L == P else 1, S,
                        cap) else 2
    c.lead_memo[h] = key | (r << 36)
    return r == 1


cdef int lone_game_unsafe(Search* c) noexcept nogil:
    # The suits (bits) whose game (suit_safe) the lone seat does not surely survive:
    # the move order's "suits where it can be caught".
    cdef int P = low_bit(<uint64_t>c.maxmask), s, out = 0
    cdef uint64_t held = in_hands(&c.st)
    cdef int every = others_in_play(c, P)
    for s in range(4):
        if not suit_game(c, P, s, held, every):
            out |= 1 << s
    return out


cdef inline uint64_t above_lowest(uint64_t cards) noexcept nogil:
    # per 16-bit suit lane (ranks in bits 2-14), the ranks above the lowest card of
    # `cards` in that suit (none for a suit without one): bit 15 marks every lane so
    # none is empty, a borrow from bit 2 stops at the lowest card, and the bits
    # above it are the rest of the lane
    cdef uint64_t lanes = 0x0001000100010001, low = cards | (lanes << 15)
    low &= ~(low - (lanes << 2))
    return ~((low - lanes) | low) & (lanes * 0x7FFC)


cdef inline int holders(Search* c, int every, uint64_t cards) noexcept nogil:
    # the seats of `every` holding one of `cards`
    cdef int h, out = 0
    for h in range(4):
        if (every >> h) & 1 and (c.st.hands[h] & cards):
            out |= 1 << h
    return out


cdef int lone_seeds(Search* c, int P, int every) noexcept nogil:
    # At a trick start, the seats that may lead the next trick, for lead_reach: the
    # leader, or when P is on lead those holding a card above P's lowest legal card
    # of a suit (the winners of any exit).
    if c.st.to_move != P:
        return 1 << c.st.to_move
    return holders(c, every, above_lowest(legal_moves(&c.R, &c.st)))


cdef int lone_safe(Search* c) noexcept nogil:
    # For one maximising seat P (no trump, no overtaking, past the first-trick
    # protection), at a trick start or once P's card to the trick is beaten: whether
    # P can lose every remaining trick (then its future value is at least 0). Suit by
    # suit P plays the game of suit_safe, which gives the others more moves than they
    # have (any of them may lead any suit at any time, shed any card at any time); P
    # never leads again once it never wins, and when void it sheds the top card of
    # any suit, or a card of the forced set when it must (each game stays safe then).
    # On lead, P also needs an exit: a legal card some other hand must beat (a sure
    # exit), the rest of that suit safe. It replaced the duck rule (P's i-th lowest
    # card of each suit below the others' i-th lowest, pooled), which ignores that
    # every hand holding the suit must follow to its tricks: on 12 000 positions the
    # game found safe every one the duck rule did, and a third more. At a trick
    # start, once a suit's game fails with every other seat leading, the games are
    # played again with only the seats that can come to lead (lead_reach); P's exit
    # is played as a trick of its suit's game (lone_trick): the hand that must beat
    # it spends a card of the suit there.
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int P = low_bit(<uint64_t>c.maxmask)
    cdef uint64_t held = in_hands(st)
    cdef int s, b, bad = -1, on_lead = st.to_move == P and st.count == 0
    cdef int every = others_in_play(c, P), cap = every, reached = 0
    cdef uint64_t legal
    for s in range(4):
        if not suit_game(c, P, s, held, cap):
            if not reached and st.count == 0:
                # only now, and once, the seats that can come to lead (the suits
                # passed so far are safe with fewer leaders too)
                reached = 1
                cap = lead_reach(c, P, lone_seeds(c, P, every))
                if cap != every and suit_game(c, P, s, held, cap):
                    continue
            # off lead every suit must be safe; on lead, an exit can mend one suit
            if not on_lead or bad >= 0:
                return 0
            bad = s
    if not on_lead:
        return 1
    legal = legal_moves(R, st)
    if bad >= 0:
        legal &= lane_of(bad)
    while legal:
        b = low_bit(legal)
        legal &= legal - 1
        if sure_exit(st, b):
            # the exit's trick as the game of its suit plays it (P's card heads it
            # until a card above it falls), then the rest of that suit must be safe
            s = b >> 4
            if lone_trick(c, P, s, P, (b & 15) - 2,
                          suit_ranks(held, s) & ~((<uint32_t>1) << ((b & 15) - 2)), cap):
                return 1
    return 0


cdef inline int lone_beaten(Search* c) noexcept nogil:
    # Mid-trick, no trump: the lone seat P has played to this trick and another
    # card of the suit led is above it, so P does not win it (nor lead next).
    cdef State* st = &c.st
    cdef int P = low_bit(<uint64_t>c.maxmask)
    cdef int i
    for i in range(st.count):
        if st.cur.seat[i] == P:
            return st.cur.seat[st.cur.win[st.count - 1]] != P
    return 0


cdef int lone_safe_mid(Search* c) noexcept nogil:
    # The lone-seat rules in a trick under way: lone_safe once P's card is beaten,
    # lone_safe_led right after another hand's lead, else nothing proved.
    cdef State* st = &c.st
    cdef int P = low_bit(<uint64_t>c.maxmask), i
    for i in range(st.count):
        if st.cur.seat[i] == P:
            return lone_beaten(c) and lone_safe(c)
    return st.count == 1 and lone_safe_led(c)


cdef inline int decides(int lo, int hi, int alpha, int beta, int* value) noexcept nogil:
    # Whether the range [lo, hi] decides the window (alpha, beta): then *value is the
    # fail-soft result (lo when it reaches beta or the range is one value, else hi).
    if lo >= beta or lo == hi:
        value[0] = lo
        return 1
    if hi <= alpha:
        value[0] = hi
        return 1
    return 0


cdef inline int cash_counts(Search* c, int lo, int hi, int alpha, int beta, int hh,
                            uint64_t r) noexcept nogil:
    # For follow_quick, no trump, the side on move surely winning this trick with
    # card r of seat hh: whether hh's cashing after it is counted. Not when this
    # trick alone decides the window (alpha, beta) for the range [lo, hi]. A count
    # that cannot decide a zero window changes nothing for the side searches (they
    # keep no bound that does not decide), so there it is counted only when tricks
    # within its reach (1 + cash_reach) may decide. Past the first trick a zero
    # window is decided exactly when the tricks' points reach `need` (the range is
    # then at or over beta for the maximisers, at or under alpha for the others),
    # and the points of q tricks grow with q: two reads, not a count per q.
    cdef int t = c.st.tricks_done, left = c.R.n_tricks - t, for_max, need, m, v
    cdef int l = lo, h = hi
    for_max = (c.maxmask >> c.st.to_move) & 1
    sure_gain(for_max, c.R.pos_suffix[t] - c.R.pos_suffix[t + 1], hi, &l, &h)
    if decides(l, h, alpha, beta, &v):
        return 0
    if not (c.track and beta == alpha + 1):
        return 1
    need = beta if for_max else hi - alpha
    if c.R.pos_suffix[t] - c.R.pos_suffix[t + left] < need:
        return 0
    m = 1 + cash_reach(c, hh, c.st.hands[hh] & ~r)
    if m > left:
        m = left
    return c.R.pos_suffix[t] - c.R.pos_suffix[t + m] >= need


cdef inline void sure_gain(int for_max, int gain, int top, int* lo, int* hi) noexcept nogil:
    # A side surely takes `gain` more points: a lower bound when it is the
    # maximiser set (`for_max`), else an upper bound below `top` (all points left).
    if for_max:
        if gain > lo[0]:
            lo[0] = gain
    elif top - gain < hi[0]:
        hi[0] = top - gain


cdef inline void gain_on(int for_max, int gain, int top, int* lo, int* hi, uint64_t cards,
                         uint64_t* rlo, uint64_t* rhi) noexcept nogil:
    # sure_gain(), keeping with each bound the cards of the rule that set it
    cdef int l = lo[0], h = hi[0]
    sure_gain(for_max, gain, top, lo, hi)
    if lo[0] != l:
        rlo[0] = cards
    if hi[0] != h:
        rhi[0] = cards

