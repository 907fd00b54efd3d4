# Move generation, make/unmake and move ordering (included by _core.pyx).
# Legal cards follow docs/rules.md section 2 in the order of kingsolve/game/position.py
# Position._legal_with_reason; make/unmake keep the trick winner incrementally.

cdef inline uint64_t lane_of(int suit) noexcept nogil:
    return (<uint64_t>0xFFFF) << (16 * suit)


cdef inline uint64_t above_mask(int bit) noexcept nogil:
    # cards of the same suit ranking above `bit`
    return lane_of(bit >> 4) & ~(((<uint64_t>2) << bit) - 1)


# above_mask(bit) for each bit: the move generation and the rules ask it often, a
# load is cheaper than working it out
cdef uint64_t ABOVE[64]
for _b in range(64):
    ABOVE[_b] = above_mask(_b)


cdef inline uint64_t above(int bit) noexcept nogil:
    # cards of the same suit ranking above `bit`
    return ABOVE[bit]


cdef inline int low_bit(uint64_t m) noexcept nogil:
    return __builtin_ctzll(m)


cdef inline int high_bit(uint64_t m) noexcept nogil:
    return 63 - __builtin_clzll(m)


cdef inline int popcount(uint64_t m) noexcept nogil:
    return __builtin_popcountll(m)


cdef inline uint64_t in_hands(State* st) noexcept nogil:
    # the cards of all hands (a seat not in play holds none)
    return st.deck & ~st.played


cdef uint64_t legal_moves(Rules* R, State* st) noexcept nogil:
    cdef uint64_t hand = st.hands[st.to_move]
    cdef uint64_t cand, lane, others, follow, higher, trumps
    cdef int led, top
    if st.count == 0:                                   # 1. leading
        cand = hand
        if R.lead_suit >= 0:
            lane = lane_of(R.lead_suit)
            others = hand & ~lane
            if R.lead_mode == 1 and not (st.broken & lane) and others:
                cand = others
            elif R.lead_mode == 2 and others:
                cand = others
        if R.trump_lead_restricted and R.trump >= 0:
            lane = lane_of(R.trump)
            if not (st.broken & lane) and (cand & ~lane):
                cand &= ~lane
        return cand
    led = st.cur.card[0] >> 4
    follow = hand & lane_of(led)
    if follow:                                          # 2. following
        cand = follow
        top = st.cur.top_led[st.count - 1]
        if R.overtake:
            higher = follow & above(top)
            if higher:
                cand = higher
        if R.overtrump_on_trump_lead and led == R.trump:
            higher = cand & above(top)
            if higher:
                cand = higher
        return cand
    cand = hand                                         # 3. void in the suit led
    if st.tricks_done == 0 and R.protected:
        others = hand & ~R.protected
        if others:
            cand = others
    if R.forced:
        others = cand & R.forced
        if others:
            cand = others
    if R.trump >= 0 and R.trump_obligation != 0:
        trumps = cand & lane_of(R.trump)
        if trumps:
            top = st.cur.top_trump[st.count - 1]
            if top >= 0:
                higher = trumps & above(top)
                if higher:
                    cand = higher
                elif R.trump_obligation == 2:
                    cand = trumps
            else:
                cand = trumps
    return cand


cdef inline void play_card(Rules* R, State* st, int bit) noexcept nogil:
    # Everything is read into locals before the first store: under
    # -fno-strict-aliasing a store to the trick could change any field of R or st
    # for the compiler, which would read them again after each.
    cdef Trick* t = st.cur
    cdef int seat = st.to_move
    cdef int i = st.count
    cdef int trump = R.trump
    cdef int nxt = R.next_seat[seat]
    cdef uint64_t m = (<uint64_t>1) << bit
    cdef int p = R.card_points[bit]
    cdef int suit = bit >> 4
    cdef int w, wb, led, top_led, top_trump
    # a card breaks its suit, or with broken_by_discard only one off the suit led
    cdef uint64_t breaks = m if not R.broken_by_discard or (
        i > 0 and suit != (t.card[0] >> 4)) else 0
    if i == 0:
        t.win[0] = 0
        t.top_led[0] = bit
        t.top_trump[0] = bit if suit == trump else -1
        t.tpts[0] = p
        t.tpos[0] = p if p > 0 else 0
    else:
        w = t.win[i - 1]
        wb = t.card[w]
        led = t.card[0] >> 4
        top_led = t.top_led[i - 1]
        top_trump = t.top_trump[i - 1]
        if suit == trump:
            if (wb >> 4) != trump or bit > wb:
                w = i
            if bit > top_trump:
                top_trump = bit
        elif suit == led:
            if (wb >> 4) != trump and bit > wb:
                w = i
        if suit == led and bit > top_led:
            top_led = bit
        t.win[i] = w
        t.top_led[i] = top_led
        t.top_trump[i] = top_trump
        t.tpts[i] = t.tpts[i - 1] + p
        t.tpos[i] = t.tpos[i - 1] + (p if p > 0 else 0)
    t.seat[i] = seat
    t.card[i] = bit
    st.hands[seat] &= ~m
    st.played |= m
    st.broken |= breaks
    st.trick_mask |= m
    st.count = i + 1
    st.to_move = nxt


cdef inline void unplay_card(State* st) noexcept nogil:
    st.count -= 1
    cdef int i = st.count
    cdef uint64_t m = (<uint64_t>1) << st.cur.card[i]
    st.hands[st.cur.seat[i]] |= m
    st.played &= ~m
    st.broken &= ~m
    st.trick_mask &= ~m
    st.to_move = st.cur.seat[i]


cdef inline int close_trick(Rules* R, State* st) noexcept nogil:
    # Complete the trick (all seats played): the winner leads next. Returns the winner.
    cdef int n = st.count
    cdef int w = st.cur.seat[st.cur.win[n - 1]]
    st.card_pos_left -= st.cur.tpos[n - 1]
    st.card_neg_left -= st.cur.tpts[n - 1] - st.cur.tpos[n - 1]
    st.tricks_done += 1
    st.cur = &st.tricks[st.tricks_done]
    st.count = 0
    st.trick_mask = 0
    st.to_move = w
    return w


cdef inline void reopen_trick(Rules* R, State* st) noexcept nogil:
    cdef int n = R.nseats
    cdef int i
    st.tricks_done -= 1
    st.cur = &st.tricks[st.tricks_done]
    st.count = n
    st.card_pos_left += st.cur.tpos[n - 1]
    st.card_neg_left += st.cur.tpts[n - 1] - st.cur.tpos[n - 1]
    st.trick_mask = 0
    for i in range(n):
        st.trick_mask |= (<uint64_t>1) << st.cur.card[i]




cdef inline uint64_t next_live(uint64_t x, uint64_t live) noexcept nogil:
    # For each card of x, the lowest card of `live` above it in its suit: one step
    # up, then on through the ranks no live card holds (a parallel fill, no loop
    # over cards; bit 15 of each suit's lane stops it at the suit's end).
    cdef uint64_t gap = ~live & ~(<uint64_t>0x8000800080008000)
    cdef uint64_t s0 = x << 1
    cdef uint64_t gen = s0 & gap
    cdef uint64_t pro = gap
    gen |= pro & (gen << 1)
    pro &= pro << 1
    gen |= pro & (gen << 2)
    pro &= pro << 2
    gen |= pro & (gen << 4)
    pro &= pro << 4
    gen |= pro & (gen << 8)
    return (s0 | (gen << 1)) & live


cdef inline int gen_moves(Rules* R, State* st, uint64_t legal, int* out, int* rep,
                          uint64_t* folded_out) noexcept nogil:
    # The legal cards, one per class of equivalent cards: cards of the hand and suit
    # with no card still out (in a hand or the current trick) between them and the
    # same class (points, protection, forced). A card is folded into the one below
    # it when the next card still out below it is a legal card of its class; each
    # class is done for all suits at once. `rep` (if given) maps each legal card to
    # its representative, the lowest card of its class; `folded_out` (if given) gets
    # the legal cards folded into one below. `legal` is legal_moves().
    cdef uint64_t live = in_hands(st) | st.trick_mask
    cdef uint64_t folded = 0, lk, heads
    cdef int n = 0, k, bit, head = -1
    for k in range(R.ncls):
        lk = legal & R.cls_mask[k]
        if lk & (lk - 1):
            folded |= next_live(lk, live) & lk
    heads = legal & ~folded
    if folded_out != NULL:
        folded_out[0] = folded
    while heads:
        out[n] = low_bit(heads)
        heads &= heads - 1
        n += 1
    if rep != NULL:
        while legal:
            bit = low_bit(legal)
            legal &= legal - 1
            if not (folded >> bit) & 1:
                head = bit
            rep[bit] = head
    return n


cdef uint64_t run_above(Rules* R, State* st, uint64_t legal, int bit) noexcept nogil:
    # The legal cards gen_moves folds into the representative `bit`: the cards of
    # the same hand, suit and class above it with no card still out between them.
    cdef uint64_t live = in_hands(st) | st.trick_mask
    cdef uint64_t lane = live & above(bit)
    cdef uint64_t out = 0
    cdef int nxt
    while lane:
        nxt = low_bit(lane)
        if not ((legal >> nxt) & 1) or R.cls[nxt] != R.cls[bit]:
            break
        out |= (<uint64_t>1) << nxt
        lane &= lane - 1
    return out


cdef inline int beats(Rules* R, State* st, int bit) noexcept nogil:
    # whether `bit` would win the current (nonempty) trick as it stands
    cdef int wb = st.cur.card[st.cur.win[st.count - 1]]
    cdef int suit = bit >> 4
    if suit == R.trump:
        return (wb >> 4) != R.trump or bit > wb
    return suit == (wb >> 4) and bit > wb


cdef inline int sure_exit(State* st, int bit) noexcept nogil:
    # Whether a lead of `bit` loses the trick for sure: some other hand holds cards of
    # the suit and all of them are higher (no trump).
    cdef uint64_t lane
    cdef int j
    for j in range(4):
        lane = st.hands[j] & lane_of(bit >> 4)
        if j != st.to_move and lane and low_bit(lane) > bit:
            return 1
    return 0


cdef inline int lead_length_weight(Search* c, int s, int mover_max) noexcept nogil:
    # A smaller tree where the opponents hold few cards of the suit led (a void one
    # may shed anything): DDS's lead weights, 150 a card.
    cdef int j, k, w = 0
    for j in range(4):
        if c.R.next_seat[j] >= 0 and ((c.maxmask >> j) & 1) != mover_max:
            k = popcount(c.st.hands[j] & lane_of(s))
            w -= 150 * (k if k else c.R.n_tricks - c.st.tricks_done + 1)
    return w


cdef void lead_suit_weights(Search* c, int s, int mover_max, uint64_t team, uint64_t opp,
                            int* suit_w, int* sure_w, int* low_w, int* mate_win) noexcept nogil:
    # A positive lead's weights that depend on its suit s alone (see order_moves);
    # `team` and `opp` are the cards of the mover's side and of the other side.
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef uint64_t lane, others, mx
    cdef int j, k, t1, t2, lho, pd, rho
    suit_w[0] = lead_length_weight(c, s, mover_max)
    # a sure winner: after it, the next best card held by an opponent beside others
    # of the suit sets up a trick for them (DDS; no trump)
    sure_w[0] = 0
    others = in_hands(st) & ~st.hands[st.to_move] & lane_of(s)
    if R.trump < 0 and others:
        t2 = high_bit(others)
        for j in range(4):
            if (st.hands[j] >> t2) & 1 and ((c.maxmask >> j) & 1) != mover_max \
                    and popcount(st.hands[j] & lane_of(s)) != 1:
                sure_w[0] -= 600
    # a partner holds a card above every opponent's
    mx = team & ~st.hands[st.to_move] & lane_of(s)
    mate_win[0] = mx != 0 and not (opp & above(high_bit(mx)))
    # a lead that does not win: toward a partner's second best card over LHO's
    # best; not into RHO's best or second best (a bare card aside; DDS)
    low_w[0] = 0
    if R.nseats == 4:
        lho = R.next_seat[st.to_move]
        pd = R.next_seat[lho]
        rho = R.next_seat[pd]
        lane = in_hands(st) & lane_of(s)
        t1 = high_bit(lane)
        t2 = second_card(lane)
        if ((c.maxmask >> pd) & 1) == mover_max:
            if (st.hands[rho] >> t1) & 1 or (t2 >= 0 and (st.hands[rho] >> t2) & 1):
                if popcount(st.hands[rho] & lane_of(s)) != 1:
                    low_w[0] = -500
            elif (st.hands[lho] >> t1) & 1 and t2 >= 0 and (st.hands[pd] >> t2) & 1 \
                    and popcount(st.hands[pd] & lane_of(s)) != 1:
                low_w[0] = 1000


cdef inline int nth_holder(State* st, uint64_t lane, int n) noexcept nogil:
    # The seat holding the n-th highest card (1-based) of `lane` (cards in hands),
    # -1 when there is none.
    while n > 1 and lane:
        lane &= ~((<uint64_t>1) << high_bit(lane))
        n -= 1
    if not lane:
        return -1
    return st.owner[high_bit(lane)]


cdef inline int second_card(uint64_t lane) noexcept nogil:
    # the second highest card of `lane`, -1 when it holds fewer than two
    if popcount(lane) < 2:
        return -1
    return high_bit(lane & ~((<uint64_t>1) << high_bit(lane)))


cdef inline int run_head(Rules* R, State* st, uint64_t legal, int bit, int* seq) noexcept nogil:
    # The highest card of the run gen_moves folds into `bit` (DDS names a sequence by
    # its top card); *seq says whether the run has more than one card.
    cdef uint64_t run = run_above(R, st, legal, bit)
    seq[0] = run != 0
    return high_bit(run) if run else bit


cdef inline int rel_rank(State* st, int bit) noexcept nogil:
    # DDS's relative rank: 1 for the best card of the suit in hands, 2 for the next
    return 1 + popcount(in_hands(st) & above(bit))


cdef inline int holds_kx(State* st, int seat, int s) noexcept nogil:
    # Whether `seat` holds two cards of suit s, one the suit's second best in hands
    # (DDS: do not shed from Kx)
    cdef uint64_t lane = in_hands(st) & lane_of(s)
    return popcount(st.hands[seat] & lane_of(s)) == 2 and second_card(lane) >= 0 and \
        (st.hands[seat] >> second_card(lane)) & 1


cdef struct LeadSuit:
    # What DDS's lead weights need of one suit, computed once per node (see
    # lead_suit() and dds_lead_weight())
    int best, second        # the suit's best and second best cards in hands (-1: none)
    int h1, h2              # their holders
    int win_best, win_other # whether a lead of the best card / of another card wins
    int d_win, d_lose       # the suit's part of the weight on either branch
    int lose_kind           # trump: 0; no trump: the losing branch's case (below)


cdef void lead_suit(Search* c, int s, LeadSuit* li) noexcept nogil:
    # The suit's part of DDS's lead weights (WeightAllocNT0, WeightAllocTrump0) for
    # the side on lead: the holders of the best, second and third best cards, the
    # lengths, who can ruff, and (with a trump) the suit's length weight.
    cdef State* st = &c.st
    cdef Rules* R = &c.R
    cdef int L = st.to_move, tr = R.trump
    cdef int lho = R.next_seat[L]
    cdef int pd = R.next_seat[lho]
    cdef int rho = R.next_seat[pd]
    cdef uint64_t lane = in_hands(st) & lane_of(s)
    cdef uint64_t part = st.hands[pd] & lane_of(s)
    cdef uint64_t opp = (st.hands[lho] | st.hands[rho]) & lane_of(s)
    cdef int n_me = popcount(st.hands[L] & lane_of(s))
    cdef int n_l = popcount(st.hands[lho] & lane_of(s))
    cdef int n_r = popcount(st.hands[rho] & lane_of(s))
    cdef int n_p = popcount(part)
    cdef int h3 = nth_holder(st, lane, 3), d = 0, bonus = 0, cl, cr, t_l, t_r, t_p, mp_t
    cdef int part_best = part != 0 and (not opp or high_bit(part) > high_bit(opp))
    li.best = high_bit(lane) if lane else -1
    li.second = second_card(lane)
    li.h1 = nth_holder(st, lane, 1)
    li.h2 = nth_holder(st, lane, 2)
    li.lose_kind = 0
    if tr < 0:
        if n_p == 0:
            d = -9
        # a winning lead: by where the second best card lies
        li.d_win = d
        if li.h2 == rho:
            if n_r != 1:
                li.d_win -= 1
        elif li.h2 == lho:
            li.d_win += 22 if n_l != 1 else 16
        li.d_win += 45 if (li.h2 != lho or n_l == 1) and (li.h2 != rho or n_r == 1) else 18
        li.win_best = 1
        li.win_other = part_best
        # a losing lead
        if li.h1 == rho or li.h2 == rho:
            if n_r != 1:
                d -= 10
        elif li.h1 == lho and li.h2 == pd:
            if n_p != 1:
                d += 31
        if li.h2 == pd and h3 == pd:
            d += 35
        elif (li.h2 == L and h3 == pd and n_p > 1) or (li.h2 == pd and h3 == L and n_p > 1):
            d += 25
        li.d_lose = d
        if (n_l == 1 and li.h1 == lho) or (n_r == 1 and li.h1 == rho):
            li.lose_kind = 1        # an opponent's best card is bare
        elif li.h1 == L:
            li.lose_kind = 2        # the leader leads under its own best card
        return
    t_l = popcount(st.hands[lho] & lane_of(tr))
    t_r = popcount(st.hands[rho] & lane_of(tr))
    t_p = popcount(st.hands[pd] & lane_of(tr))
    mp_t = max_rank(st.hands[pd], tr)
    if s != tr and ((n_l == 0 and t_l) or (n_r == 0 and t_r)):
        bonus = -12                 # an opponent ruffs
    if s != tr and n_p == 0 and t_p and n_r > 0:
        bonus += 17                 # the partner ruffs
    if li.h1 == rho or li.h2 == rho:
        if n_r != 1:
            bonus -= 12
    elif li.h1 == lho and li.h2 == pd:
        if n_p != 1:
            bonus += 27
    if s != tr and n_me == 1 and popcount(st.hands[L] & lane_of(tr)) and n_p > 1 and li.h1 == pd:
        bonus += 19                 # the partner wins and returns the suit for a ruff
    cl = (n_l if n_l else R.n_tricks - st.tricks_done + 1) << 2
    cr = (n_r if n_r else R.n_tricks - st.tricks_done + 1) << 2
    d = bonus - (((cl + cr) << 5) // 13)
    li.d_win = d
    if s == tr:
        li.win_best = 1
        li.win_other = part_best
    else:
        if n_p or not t_p:
            li.win_best = (n_l or not t_l) and (n_r or not t_r)
        else:
            li.win_best = (n_l or mp_t > max_rank(st.hands[lho], tr)) and \
                (n_r or mp_t > max_rank(st.hands[rho], tr))
        if part_best:
            li.win_other = (n_l or not t_l) and (n_r or not t_r)
        elif n_p == 0 and t_p:
            if n_l == 0 and t_l and n_r == 0 and t_r:
                li.win_other = mp_t > max_rank(st.hands[lho] | st.hands[rho], tr)
            elif n_l == 0 and t_l:
                li.win_other = mp_t > max_rank(st.hands[lho], tr)
            elif n_r == 0 and t_r:
                li.win_other = mp_t > max_rank(st.hands[rho], tr)
            else:
                li.win_other = 1
        else:
            li.win_other = 0
    if li.h2 == pd and h3 == pd:
        d += 20
    elif (li.h2 == L and h3 == pd and n_p > 1) or (li.h2 == pd and h3 == L and n_p > 1):
        d += 13
    li.d_lose = d
    if (n_l == 1 and li.h1 == lho) or (n_r == 1 and li.h1 == rho):
        li.lose_kind = 1


cdef inline int dds_lead_weight(Search* c, uint64_t legal, int bit, LeadSuit* li, int* wins) noexcept nogil:
    # DDS's weight of a side's lead (WeightAllocNT0, WeightAllocTrump0) in its own
    # units: the suit's part (lead_suit()) and the card's, by its relative rank (1
    # for the best card in hands) and whether it heads a sequence.
    cdef State* st = &c.st
    cdef int L = st.to_move
    cdef int pd = c.R.next_seat[c.R.next_seat[L]]
    cdef int seq
    cdef int top = run_head(&c.R, st, legal, bit, &seq)
    cdef int w = rel_rank(st, top)
    wins[0] = li.win_best if top == li.best else li.win_other
    if c.R.trump < 0:
        if wins[0]:
            return li.d_win + w
        if li.lose_kind == 1:
            return li.d_lose + 28 + w
        if li.lose_kind == 2:
            return li.d_lose - 17 + w
        if not seq:
            return li.d_lose + 12 + w
        if top == li.second:
            return li.d_lose + 48
        return li.d_lose + 29 - w
    if wins[0]:
        if li.lose_kind == 1:
            return li.d_win + 35 + w
        if li.h1 == L:
            if li.h2 == pd:
                return li.d_win + 48 + w
            if top == li.best:
                return li.d_win + 31
            return li.d_win - 3 + w
        if li.h1 == pd:
            return li.d_win + (42 if li.h2 == L else 28) + w
        if seq and top == li.second:
            return li.d_win + 40
        if seq:
            return li.d_win + 22 + w
        return li.d_win + 11 + w
    if li.lose_kind == 1:
        return li.d_lose + w + 2
    if li.h1 == L:
        if li.h2 == pd:
            return li.d_lose + 33 + w
        if top == li.best:
            return li.d_lose + 38
        return li.d_lose - 14 + w
    if li.h1 == pd:
        return li.d_lose + 34 + w
    if seq and top == li.second:
        return li.d_lose + 35
    return li.d_lose + 17 - (top & 15)


cdef int second_hand_weight(Search* c, uint64_t legal, int bit) noexcept nogil:
    # DDS's weight of a second hand's card following suit without a trump
    # (WeightAllocNTNotvoid1), in its own units: low when the partner (fourth hand)
    # beats the lead and the third hand; else winning over both opponents first
    # (cheapest), then cards that cannot matter, covering with a sequence, the
    # rest by relative rank (1 for the best card in hands).
    cdef State* st = &c.st
    cdef Rules* R = &c.R
    cdef Trick* t = st.cur
    cdef int led = t.card[0] >> 4
    cdef int third = R.next_seat[st.to_move]
    cdef int fourth = R.next_seat[third]
    cdef uint64_t h3 = st.hands[third] & lane_of(led)
    cdef uint64_t h4 = st.hands[fourth] & lane_of(led)
    cdef int seq
    cdef int top = run_head(R, st, legal, bit, &seq)
    cdef int rank = top & 15
    cdef int rrank = rel_rank(st, top)
    if h4 and high_bit(h4) > t.card[0] and (not h3 or high_bit(h4) > high_bit(h3)):
        return -rank
    if top > t.card[0] and (not h3 or top > high_bit(h3)):
        return 81 - rank
    if (h3 and low_bit(h3) > top) or (h4 and low_bit(h4) > top):
        return -3 + rrank
    if top < t.card[0]:
        return -11 + rrank
    if seq:
        return 10 + rrank
    return 13 - rank


cdef inline int max_rank(uint64_t cards, int s) noexcept nogil:
    # the rank of the highest card of suit s in `cards`, 0 for none
    cdef uint64_t lane = cards & lane_of(s)
    return (high_bit(lane) & 15) if lane else 0


cdef inline int min_rank(uint64_t cards, int s) noexcept nogil:
    cdef uint64_t lane = cards & lane_of(s)
    return (low_bit(lane) & 15) if lane else 0


cdef int trump_second_weight(Search* c, uint64_t legal, int bit) noexcept nogil:
    # DDS's weight of a second hand's card following suit with a trump
    # (WeightAllocTrumpNotvoid1), in its own units.
    cdef State* st = &c.st
    cdef Rules* R = &c.R
    cdef Trick* t = st.cur
    cdef int tr = R.trump, led = t.card[0] >> 4, lead_seat = t.seat[0]
    cdef int third = R.next_seat[st.to_move]
    cdef int fourth = R.next_seat[third]
    cdef int seq
    cdef int top = run_head(R, st, legal, bit, &seq)
    cdef int rank = top & 15
    cdef int rr = rel_rank(st, top)
    cdef int led_r = t.card[0] & 15
    cdef int max3 = max_rank(st.hands[third], led), min3 = min_rank(st.hands[third], led)
    cdef int maxp = max_rank(st.hands[fourth], led), minp = min_rank(st.hands[fourth], led)
    cdef int t3 = popcount(st.hands[third] & lane_of(tr))
    cdef int t4 = popcount(st.hands[fourth] & lane_of(tr))
    cdef int win = 0
    if led == tr:
        win = (maxp > led_r and maxp > max3) or (rank > led_r and rank > max3)
    elif rank > led_r and rank > max3:
        win = max3 != 0 or t3 == 0 or (maxp == 0 and t4 and
                                        max_rank(st.hands[fourth], tr) > max_rank(st.hands[third], tr))
    elif maxp > led_r and maxp > max3:
        win = max3 != 0 or t3 == 0
    elif led_r > maxp and led_r > max3 and led_r > rank:
        if maxp == 0 and t4:
            win = max3 != 0 or t3 == 0 or \
                max_rank(st.hands[fourth], tr) > max_rank(st.hands[third], tr)
    elif maxp == 0 and t4:
        win = 1
    if win:
        if min3 > rank:
            return 40 + rr
        if maxp > led_r and max_rank(st.hands[lead_seat], led) > maxp:
            return 41 + rr
        if rank > led_r:
            if rank < maxp:
                return 78 - rank
            if rank > max3:
                return 73 - rank
            if seq:
                return 62 - rank
            return 49 - rank
        if maxp > 0:
            return 47 - rank
        return 40 - rank
    if rank < min3 or rank < minp:
        return -9 + rr
    if rank < led_r:
        return -16 + rr
    if seq:
        return 22 - rank
    return 10 - rank



cdef int trump_second_void_weight(Search* c, uint64_t legal, int bit) noexcept nogil:
    # DDS's weight of a second hand's card when void in the suit led, with a trump
    # (WeightAllocTrumpVoid1), in its own units: a discard from a long suit (most
    # when the partner wins), not from Kx; a ruff, cheapest first.
    cdef State* st = &c.st
    cdef Rules* R = &c.R
    cdef Trick* t = st.cur
    cdef int tr = R.trump, led = t.card[0] >> 4, s = bit >> 4, me = st.to_move
    cdef int third = R.next_seat[me]
    cdef int fourth = R.next_seat[third]
    cdef int seq
    cdef int rank = run_head(R, st, legal, bit, &seq) & 15
    cdef int n = popcount(st.hands[me] & lane_of(s))
    cdef int kx = holds_kx(st, me, s)
    cdef int led_r = t.card[0] & 15
    cdef int max3 = max_rank(st.hands[third], led), max4 = max_rank(st.hands[fourth], led)
    cdef int n3 = popcount(st.hands[third] & lane_of(led))
    cdef int n4 = popcount(st.hands[fourth] & lane_of(led))
    cdef int t3 = max_rank(st.hands[third], tr), t4 = max_rank(st.hands[fourth], tr)
    cdef int add
    if led == tr:
        if max4 > max3 and max4 > led_r:
            add = (n << 6) // 44
        else:
            add = (n << 6) // 36 - (4 if kx else 0)
        return add - rank
    if s != tr:
        if n3:
            if (max4 > max3 and max4 > led_r) or (n4 == 0 and t4):
                add = 60 + (n << 6) // 44
            else:
                add = -2 + (n << 6) // 36 - (4 if kx else 0)
        elif n4 == 0 and t4 > t3:
            add = 60 + (n << 6) // 44
        elif t3 == 0 and max4 > led_r:
            add = 60 + (n << 6) // 44
        else:
            add = -2 + (n << 6) // 36 - (4 if kx else 0)
        return add - rank
    if n3 or (n4 == 0 and t4 and t4 > t3) or rank > t3:
        return 24 - rank + (n << 6) // 44
    return 15 - rank + (n << 6) // 36 - (4 if kx else 0)


cdef int trump_late_void_weight(Search* c, uint64_t legal, int bit) noexcept nogil:
    # DDS's weight of a third or fourth hand's card when void in the suit led,
    # with a trump (WeightAllocTrumpVoid2 and 3), in its own units.
    cdef State* st = &c.st
    cdef Rules* R = &c.R
    cdef Trick* t = st.cur
    cdef int tr = R.trump, led = t.card[0] >> 4, s = bit >> 4, me = st.to_move
    cdef int lead_seat = t.seat[0]
    cdef int fourth = R.next_seat[me]
    cdef int seq
    cdef int top = run_head(R, st, legal, bit, &seq)
    cdef int rank = top & 15
    cdef int n = popcount(st.hands[me] & lane_of(s))
    cdef int kx = holds_kx(st, me, s)
    cdef int rr = rel_rank(st, top)
    cdef uint64_t lane
    cdef int wi = t.win[st.count - 1]
    cdef int wcard = t.card[wi]
    cdef int max4, val, sec
    if st.count == 2:
        max4 = max_rank(st.hands[fourth], led)
        if led == tr or s != tr:
            return -rank + (n << 6) // 40
        if wi == 0 and (t.card[0] & 15) > max4 and (max4 or not (st.hands[fourth] & lane_of(tr))):
            return -rank - 50
        if (wcard >> 4) == tr and rank < (wcard & 15):
            return -32 + rr + (n << 6) // 40
        if wi == 0:
            if max4:
                lane = in_hands(st) & lane_of(led)
                sec = second_card(lane)
                if sec >= 0 and (st.hands[lead_seat] >> sec) & 1:
                    return 36 - rank + (n << 6) // 50
                return 48 - rank + (n << 6) // 50
            if rank > max_rank(st.hands[fourth], tr):
                return 48 - rank + (n << 6) // 50
            return -12 - rank + (n << 6) // 50
        if max4:
            return 72 - rank + (n << 6) // 50
        if rank > max_rank(st.hands[fourth], tr):
            return 48 - rank + (n << 6) // 50
        return 36 - rank + (n << 6) // 50
    val = (n << 6) // 24 - (2 if kx else 0)
    if led == tr:
        return -rank + val
    if wi == 1:
        return (2 if s == tr else 25) - rank + val
    if (wcard >> 4) == tr:
        if s == tr:
            return (33 if rank > (wcard & 15) else -13) + rr
        return 14 - rank + val
    if s == tr:
        return 33 + rr
    return 14 - rank + val



cdef inline int forces_ace(State* st, uint64_t legal, int bit, int fourth, int w1, int second_wins) noexcept nogil:
    # DDS's RankForcesAce: whether `bit` (a run's lowest card) is the third hand's
    # cheapest card that makes the fourth hand spend its top group: above the
    # fourth hand's next card below that group (or above the second hand's winning
    # card `w1`, when that one is higher and the second hand is winning).
    cdef int led = st.cur.card[0] >> 4
    cdef uint64_t h4 = st.hands[fourth] & lane_of(led)
    cdef uint64_t live = in_hands(st) | st.trick_mask
    cdef uint64_t mine = legal & lane_of(led)
    cdef int top, nxt, x
    if not h4:
        return 0
    top = high_bit(h4)
    h4 &= ~((<uint64_t>1) << top)
    while h4:
        nxt = high_bit(h4)
        if live & above(nxt) & ~above(top - 1) & ~((<uint64_t>1) << top) & ~st.hands[fourth]:
            break
        top = nxt
        h4 &= ~((<uint64_t>1) << nxt)
    if not h4:
        return 0
    x = high_bit(h4)
    if x < w1:
        if not second_wins:
            return 0
        x = w1
    return bit > x and not (mine & above(x) & ~above(bit - 1))


cdef int third_hand_weight(Search* c, uint64_t legal, int bit) noexcept nogil:
    # DDS's weight of a third hand's card following suit without a trump
    # (WeightAllocNTNotvoid2): low when the leader's card wins or ours cannot
    # matter; else win over the fourth hand cheaply, and force out its top group.
    cdef State* st = &c.st
    cdef Rules* R = &c.R
    cdef Trick* t = st.cur
    cdef int led = t.card[0] >> 4, me = st.to_move
    cdef int fourth = R.next_seat[me]
    cdef int seq
    cdef int top = run_head(R, st, legal, bit, &seq)
    cdef int rank = top & 15
    cdef uint64_t h4 = st.hands[fourth] & lane_of(led)
    cdef uint64_t mine = st.hands[me] & lane_of(led)
    cdef int w1 = t.card[t.win[1]], w
    if t.win[1] == 0 and (not h4 or t.card[0] > high_bit(h4)):
        return -rank
    if (h4 and high_bit(mine) < low_bit(h4)) or high_bit(mine) < w1:
        return -rank
    w = (60 - rank) if top > w1 and (not h4 or top > high_bit(h4)) else -rank
    if forces_ace(st, legal, bit, fourth, w1, t.win[1] == 1):
        w += 20
    return w


cdef int trump_third_weight(Search* c, uint64_t legal, int bit) noexcept nogil:
    # DDS's weight of a third hand's card following suit with a trump
    # (WeightAllocTrumpNotvoid2).
    cdef State* st = &c.st
    cdef Rules* R = &c.R
    cdef Trick* t = st.cur
    cdef int tr = R.trump, led = t.card[0] >> 4, me = st.to_move
    cdef int fourth = R.next_seat[me]
    cdef int seq
    cdef int rank = run_head(R, st, legal, bit, &seq) & 15
    cdef int max4 = max_rank(st.hands[fourth], led), min4 = min_rank(st.hands[fourth], led)
    cdef int max3 = max_rank(st.hands[me], led)
    cdef int wi = t.win[1], w1 = t.card[wi] & 15, w1_trump = (t.card[wi] >> 4) == tr and led != tr
    cdef int led_r = t.card[0] & 15
    cdef int force = forces_ace(st, legal, bit, fourth, t.card[wi], wi == 1) if not w1_trump else 0
    if led == tr:
        if (wi == 0 and led_r > max4) or max3 < min4 or max3 < w1:
            return -rank
        if max3 > max4:
            return (58 - rank) if rank > max4 and rank > w1 else -rank
        return -rank + (20 if force else 0)
    if w1_trump:
        return -rank
    if wi == 0:
        if max4 == 0 or led_r > max4 or max3 < min4 or max3 < w1:
            return -rank
        if max3 > max4:
            return (58 - rank) if rank > max4 else -rank
        return ((60 - rank) if rank > w1 and rank > max4 else -rank) + (20 if force else 0)
    if max4 == 0:
        return (20 - rank) if rank > w1 else -rank
    if max3 < min4 or max3 < w1:
        return -rank
    if max3 > max4:
        return (58 - rank) if rank > w1 and rank > max4 else -rank
    return ((60 - rank) if rank > w1 and rank > max4 else -rank) + (20 if force else 0)


cdef inline int dds_follows(Rules* R, State* st) noexcept nogil:
    # Whether DDS's weights order a side's card to a trick better than the value
    # order (measured on the doubles node sets, ext/README.md): the second hand
    # (without a trump, when it follows suit), the third hand following suit, and
    # with a trump a hand void in the suit led.
    cdef int follows = (st.hands[st.to_move] & lane_of(st.cur.card[0] >> 4)) != 0
    if st.count == 1:
        return follows or R.trump >= 0
    if st.count == 2 and follows:
        return 1
    return R.trump >= 0 and not follows


cdef int dds_follow_weight(Search* c, uint64_t legal, int bit) noexcept nogil:
    # The DDS weight of a card to a trick where dds_follows() holds.
    cdef State* st = &c.st
    if not (st.hands[st.to_move] & lane_of(st.cur.card[0] >> 4)):
        if st.count == 1:
            return trump_second_void_weight(c, legal, bit)
        return trump_late_void_weight(c, legal, bit)
    if c.R.trump < 0:
        if st.count == 2:
            return third_hand_weight(c, legal, bit)
        return second_hand_weight(c, legal, bit)
    if st.count == 2:
        return trump_third_weight(c, legal, bit)
    return trump_second_weight(c, legal, bit)


cdef inline int trick_tendency(Search* c) noexcept nogil:
    # The sign of what this trick brings: its trick points, else (a trick worth
    # nothing) the card points still to fall, which go to its winner.
    cdef int tp = c.R.trick_points[c.st.tricks_done]
    if tp == 0:
        return c.st.card_pos_left + c.st.card_neg_left
    return tp


cdef inline void lead_scores(Search* c, int* mv, int n, int ttmove, uint64_t legal,
                             int* score) noexcept nogil:
    # The leads' scores for order_moves: under a penalty the maximiser leads under
    # many higher cards; a side of four in a positive contract by DDS's weights;
    # else sure winners, then low leads to a partner's winner or ruff.
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int i, j, bit, p, rank, s, suits = 0, unsafe = 0
    cdef int mover_max = (c.maxmask >> st.to_move) & 1
    cdef int tendency = trick_tendency(c)
    cdef uint64_t maxcards = 0, others, mx, team = 0, opp = 0
    cdef int suit_w[4]
    cdef int sure_w[4]
    cdef int low_w[4]
    cdef int mate_win[4]
    cdef LeadSuit ls[4]
    cdef int ruffable = 0, team_ruff = 0
    if tendency >= 0 and R.nseats == 4 and not c.lone:
        # a side of four in a positive contract: DDS's weights, the suit's own once
        # per suit led, in its units (a card of the opponents' length weighs 150
        # here: one of DDS's is 22 without a trump, 15 with one); the killer and
        # table leads as its bonuses rather than first
        for i in range(n):
            suits |= 1 << (mv[i] >> 4)
        for s in range(4):
            if (suits >> s) & 1:
                lead_suit(c, s, &ls[s])
                if R.trump < 0:
                    suit_w[s] = lead_length_weight(c, s, mover_max)
        for i in range(n):
            bit = mv[i]
            s = bit >> 4
            p = R.card_points[bit]
            if R.trump >= 0:
                score[i] = 15 * dds_lead_weight(c, legal, bit, &ls[s], &j) + p * 64
                if bit == c.killer[4 * st.tricks_done + st.to_move]:
                    score[i] += 15 * (55 if j else 18)
                elif j and bit == ttmove:
                    score[i] += 15 * 18
            else:
                score[i] = 22 * dds_lead_weight(c, legal, bit, &ls[s], &j) + p * 64 + suit_w[s]
                if bit == c.killer[4 * st.tricks_done + st.to_move]:
                    score[i] += 22 * (126 if j else 47)
                elif bit == ttmove:
                    score[i] += 22 * (32 if j else 19)
        return
    for i in range(4):
        if (c.maxmask >> i) & 1:
            maxcards |= st.hands[i]
    others = in_hands(st) & ~st.hands[st.to_move]
    for i in range(4):
        if ((c.maxmask >> i) & 1) == mover_max:
            team |= st.hands[i]
            if i != st.to_move and R.trump >= 0 and st.hands[i] & lane_of(R.trump):
                for j in range(4):
                    if j != R.trump and not (st.hands[i] & lane_of(j)):
                        team_ruff |= 1 << j
        else:
            opp |= st.hands[i]
            if R.trump >= 0 and st.hands[i] & lane_of(R.trump):
                for j in range(4):
                    if j != R.trump and not (st.hands[i] & lane_of(j)):
                        ruffable |= 1 << j
    if c.lone and mover_max and tendency < 0 and R.trump < 0:
        unsafe = lone_game_unsafe(c)
    if tendency >= 0:
        # positive: the weights that depend on the suit only, once per suit led
        for i in range(n):
            suits |= 1 << (mv[i] >> 4)
        for s in range(4):
            if (suits >> s) & 1:
                lead_suit_weights(c, s, mover_max, team, opp, &suit_w[s], &sure_w[s],
                                  &low_w[s], &mate_win[s])
    for i in range(n):
        bit = mv[i]
        rank = bit & 15
        p = R.card_points[bit]
        s = bit >> 4
        if tendency < 0:
            # penalty: the maximiser leads under many higher cards, first from a
            # suit whose game it may lose (lone_game_unsafe); the others lead
            # where the maximiser holds few cards that can duck; a side sheds
            # its point cards on safe exits (core_sides.pxi)
            mx = maxcards & lane_of(s)
            if mover_max and not c.lone:
                score[i] = side_lead_score(c, bit, opp)
            elif mover_max:
                score[i] = popcount(others & above(bit)) * 16 - rank * 4
                if (unsafe >> s) & 1:
                    score[i] += 128
                # a point card goes last, unless the lead is a sure exit (some
                # other hand holds only higher cards of the suit): then it goes
                # first, shed onto a trick the lone seat cannot win
                score[i] += -p * 64 if c.lone and sure_exit(st, bit) else p * 64
            elif mx:
                score[i] = -popcount(others & above(low_bit(mx)) & ~maxcards) * 16 - rank * 4
            else:
                score[i] = -4096 - rank * 4
            if not mover_max and not c.lone:
                score[i] += side_shed(c, bit)
        else:
            # positive: a sure winner, else a low lead to a partner's winner, else
            # one a void partner ruffs
            if not (others & above(bit)) and not (ruffable >> s) & 1:
                score[i] = 1024 + rank + p * 64 + sure_w[s]
            elif mate_win[s]:
                score[i] = 512 - rank + p * 64
            elif (team_ruff >> s) & 1 and not (ruffable >> s) & 1:
                score[i] = 384 - rank + p * 64
            else:
                score[i] = -rank + p * 64 + low_w[s]
            score[i] += suit_w[s]
        if bit == ttmove:
            score[i] = 1 << 27
        if bit == c.killer[4 * st.tricks_done + st.to_move]:
            score[i] = 1 << 28


cdef inline void follow_scores(Search* c, int* mv, int n, uint64_t legal,
                               int* score) noexcept nogil:
    # The scores of the cards to a trick under way for order_moves: the value to the
    # maximiser of the trick's tentative winner after the card, for the mover's side
    # (a side of four in a positive contract by DDS's weights, dds_follow_weight,
    # before anything else is counted).
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int i, j, bit, p, v, g, wseat, rank, wb, opp_top, mate_top, sure, partner_sure
    cdef int mover_max = (c.maxmask >> st.to_move) & 1
    cdef int sign = 1 if mover_max else -1
    cdef int tp = R.trick_points[st.tricks_done]
    cdef int trick_v, tendency, unsafe, later_ruff = 0, mate_covers = 0
    cdef uint64_t later = 0, mx
    tendency = trick_tendency(c)
    if R.nseats == 4 and tendency > 0 and not c.lone and dds_follows(R, st):
        for i in range(n):
            score[i] = dds_follow_weight(c, legal, mv[i])
        return
    trick_v = tp + st.cur.tpts[st.count - 1]
    # the hands still to play to this trick after the mover
    j = R.next_seat[st.to_move]
    later_ruff = 0
    for i in range(st.count + 1, R.nseats):
        later |= st.hands[j]
        if R.trump >= 0 and not (st.hands[j] & lane_of(st.cur.card[0] >> 4)) \
                and (st.hands[j] & lane_of(R.trump)):
            later_ruff = 1
        j = R.next_seat[j]
    wseat = st.cur.seat[st.cur.win[st.count - 1]]
    wb = st.cur.card[st.cur.win[st.count - 1]]
    # a teammate already winning for sure: no need to overtake it
    partner_sure = ((c.maxmask >> wseat) & 1) == mover_max and \
        not (later & lane_of(wb >> 4) & above(wb)) and \
        (R.trump < 0 or (wb >> 4) == R.trump or not later_ruff)
    # a teammate still to play who beats every card of the suit led the
    # opponents have played or still hold: the mover need not win it
    if not partner_sure and tp > 0 and (R.trump < 0 or (wb >> 4) == R.trump or not later_ruff):
        j = R.next_seat[st.to_move]
        opp_top = wb if ((c.maxmask >> wseat) & 1) != mover_max else -1
        mate_top = -1
        for i in range(st.count + 1, R.nseats):
            mx = st.hands[j] & lane_of(st.cur.card[0] >> 4)
            if mx:
                if ((c.maxmask >> j) & 1) == mover_max:
                    if high_bit(mx) > mate_top:
                        mate_top = high_bit(mx)
                elif high_bit(mx) > opp_top:
                    opp_top = high_bit(mx)
            j = R.next_seat[j]
        mate_covers = mate_top > opp_top and mate_top > wb
    # under a penalty a trick still open is worth avoiding even before points
    # fall in it: the hands after the mover can dump points on its winner
    unsafe = 0
    if c.lone and mover_max and tendency < 0 and R.trump < 0:
        unsafe = lone_game_unsafe(c)
    for i in range(n):
        bit = mv[i]
        p = R.card_points[bit]
        v = trick_v + p
        if v == 0 and tendency < 0 and (st.count + 1 < R.nseats or (c.lone and mover_max)):
            v = -1
        rank = bit & 15
        if beats(R, st, bit):
            g = v if mover_max else -p
            sure = not (later & lane_of(bit >> 4) & above(bit)) and \
                (R.trump < 0 or (bit >> 4) == R.trump or not later_ruff)
            score[i] = sign * g * 256 + (-rank if v > 0 else rank) + \
                (64 if sure and v > 0 else 0) - (128 if partner_sure or mate_covers else 0)
        else:
            if mate_covers:
                g = v if mover_max else -p
            elif (c.maxmask >> wseat) & 1:
                g = v
            else:
                g = -p
            score[i] = sign * g * 256 + (rank if v < 0 else -rank)
            if tendency > 0 and (bit >> 4) != (st.cur.card[0] >> 4):
                # a discard: from a long suit, not a winner (DDS's discards)
                score[i] += 4 * popcount(st.hands[st.to_move] & lane_of(bit >> 4))
                if not (in_hands(st) & above(bit) & lane_of(bit >> 4)):
                    score[i] -= 48
            if (unsafe >> (bit >> 4)) & 1:
                # the lone seat sheds a card of a suit whose game it may lose
                score[i] += 128


cdef inline void sort_moves(int* mv, int* score, int n) noexcept nogil:
    # highest score first, ties in the order gen_moves gave (insertion: a few cards)
    cdef int i, j, key, tmp
    for i in range(1, n):
        key = score[i]
        tmp = mv[i]
        j = i - 1
        while j >= 0 and score[j] < key:
            score[j + 1] = score[j]
            mv[j + 1] = mv[j]
            j -= 1
        score[j + 1] = key
        mv[j + 1] = tmp


cdef void order_moves(Search* c, int* mv, int n, int ttmove, uint64_t legal) noexcept nogil:
    # Heuristic order, best first (see ext/README.md): the value to the maximiser of
    # the trick's tentative winner, counted for the mover's side. `legal` is
    # legal_moves().
    cdef int score[16]
    if n <= 1:
        return
    if c.st.count == 0:
        lead_scores(c, mv, n, ttmove, legal, score)
    else:
        follow_scores(c, mv, n, legal, score)
    sort_moves(mv, score, n)


cdef int contract_positive(Rules* R) noexcept nogil:
    # Whether the contract's points add up above 0 (the simple player's two styles)
    cdef int i, total = 0
    for i in range(R.n_tricks):
        total += R.trick_points[i]
    for i in range(64):
        total += R.card_points[i]
    return total > 0


cdef int policy_card(Rules* R, State* st, int positive) noexcept nogil:
    # The simple player's card (the first of kingsolve.hands.hints.play_preference, which
    # says why): the legal card of least key. Leading, positive: the highest rank
    # (then the lowest suit); penalty: a card without penalty points, the lowest
    # rank. Following, positive: a card that wins the trick as it stands (a plain
    # suit before trumps), the lowest rank; penalty: a card that does not win, the
    # most penalty points, the highest rank; when every card wins, the fewest penalty
    # points, the lowest rank.
    return preferred_card(R, st, positive, legal_moves(R, st))


cdef int preferred_card(Rules* R, State* st, int positive, uint64_t legal) noexcept nogil:
    # The simple player's card among the cards of `legal` (legal cards of the seat
    # on move): policy_card's order, which the optimal line also breaks its ties by
    cdef int bit, rank, suit, p, key, best = -1, best_key = 0
    while legal:
        bit = low_bit(legal)
        legal &= legal - 1
        rank = bit & 15
        suit = bit >> 4
        p = R.card_points[bit]
        if st.count == 0:
            if positive:
                key = (14 - rank) * 4 + suit
            else:
                key = (1024 if p < 0 else 0) + rank * 4 + suit
        elif positive:
            key = (0 if beats(R, st, bit) else 2048) + (1024 if suit == R.trump else 0) \
                + rank * 4 + suit
        elif beats(R, st, bit):
            key = (1 << 24) + (4096 - p) * 64 + rank * 4 + suit
        else:
            key = (4096 + p) * 64 + (14 - rank) * 4 + suit
        if best < 0 or key < best_key:
            best = bit
            best_key = key
    return best
