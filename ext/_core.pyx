# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The double-dummy trick search core of kingsolve (private; see ext/README.md).

A ``Core`` holds one root position of a trick contract (compiled to flat tables by
the caller), a transposition table, and answers: the future value of a set of
maximising seats (the paranoid value in singles, the side's value in doubles), the
value after each legal card, and the legal cards (a test hook). The search runs
without the GIL. This module never imports the kingsolve package: it raises its
own ``BudgetExceeded``, which ``kingsolve.solver`` turns into a package error.
"""

from libc.stdint cimport uint64_t, int64_t, int16_t, uint8_t, uint16_t, uint32_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcmp, memcpy, memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from core_types cimport *

cdef extern from *:
    """
    #if defined(__GNUC__) && defined(__x86_64__)
    #pragma GCC target("popcnt")
    #endif
    #if defined(__SSE2__)
    #include <emmintrin.h>
    #endif
    #include <stdint.h>
    #include <pthread.h>
    /* Whole-word reads and writes of memory that threads share (the table, the stop
       flag): never split, never cached in a register; plain moves on x86-64. */
    static inline uint64_t ks_load64(const uint64_t* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void ks_store64(uint64_t* p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    static inline int ks_load_int(const int* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void ks_add_int(int* p, int v) { __atomic_add_fetch(p, v, __ATOMIC_RELAXED); }
    static inline void ks_store_int(int* p, int v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    /* Sets *p from 0 to 1; returns whether this call did (the first finisher). */
    static inline int ks_claim(int* p) {
        int zero = 0;
        return __atomic_compare_exchange_n(p, &zero, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    }
    typedef void* (*ks_thread_fn)(void*);
    /* A thread running fn(arg); returns 0 when it started. */
    static int ks_spawn(pthread_t* t, ks_thread_fn fn, void* arg) {
        return pthread_create(t, NULL, fn, arg);
    }
    /* The slots of 64 one-byte fingerprints that equal b, as a bit mask. */
    static inline unsigned long long ks_match64(const unsigned char* p, unsigned char b) {
    #if defined(__SSE2__)
        __m128i k = _mm_set1_epi8((char)b);
        unsigned long long m = 0;
        int i;
        for (i = 0; i < 4; i++) {
            __m128i v = _mm_loadu_si128((const __m128i*)(p + 16 * i));
            m |= (unsigned long long)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, k)) << (16 * i);
        }
        return m;
    #else
        unsigned long long m = 0;
        int i;
        for (i = 0; i < 64; i++)
            m |= (unsigned long long)(p[i] == b) << i;
        return m;
    #endif
    }
    /* The tree log (Core.set_log) is compiled in with -DKS_TREE_LOG=1 only: the
       searches of a normal build carry no trace of it. */
    #ifndef KS_TREE_LOG
    #define KS_TREE_LOG 0
    #endif
    """
    unsigned long long ks_match64(const unsigned char* p, unsigned char b) nogil
    const int KS_TREE_LOG
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctz(unsigned int) nogil
    void __builtin_prefetch(const void*) nogil
    uint64_t ks_load64(const uint64_t* p) nogil
    void ks_store64(uint64_t* p, uint64_t v) nogil
    int ks_load_int(const int* p) nogil
    void ks_add_int(int* p, int v) nogil
    void ks_store_int(int* p, int v) nogil
    int ks_claim(int* p) nogil
    ctypedef void* (*ks_thread_fn)(void*) noexcept nogil
    int ks_spawn(pthread_t* t, ks_thread_fn fn, void* arg) nogil
    int pthread_join(pthread_t t, void** ret) nogil

include "core_moves.pxi"
include "core_tt.pxi"
include "core_sides.pxi"


class BudgetExceeded(Exception):
    """A search stopped at its node or time budget; ``args[0]`` is ``"nodes"`` or ``"ms"``."""


cdef inline double now_s() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


# --- quick bounds ---------------------------------------------------------------------

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


cdef inline void lead_tops(Search* c, int hand, uint64_t mine, uint64_t* tops) noexcept nogil:
    # Per suit s, in tops[s]: the cards of `mine` (cards of `hand`) in s above every
    # other hand's card of s; all of them when no other hand holds s; none when s
    # may not be led.
    cdef Rules* R = &c.R
    cdef uint64_t others = in_hands(&c.st) & ~c.st.hands[hand]
    cdef int s, blocked = 0
    if R.lead_suit >= 0 and R.lead_mode != 0:
        blocked |= 1 << R.lead_suit
    if R.trump >= 0 and R.trump_lead_restricted and not (c.st.played & lane_of(R.trump)):
        blocked |= 1 << R.trump
    for s in range(4):
        # the cards above the highest other card (no branch on whether there is
        # one: bit 0 is never a card)
        tops[s] = 0 if (blocked >> s) & 1 else \
            mine & lane_of(s) & ~((((<uint64_t>2) << high_bit((others & lane_of(s)) | 1))) - 1)


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
    cdef uint64_t others = in_hands(&c.st) & ~c.st.hands[hand], lane
    cdef int s, n = 0
    for s in range(4):
        lane = mine & lane_of(s)
        if lane and high_bit(lane) > high_bit((others & lane_of(s)) | 1):
            n += popcount(lane)
    return n


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
    cdef uint64_t mine, others, lane, o_lane, top, r, best_r = 0
    cdef int hp, s, o, n, t, longest, comm, best = k
    for hp in range(4):
        if hp == L or R.next_seat[hp] < 0 or ((c.maxmask >> hp) & 1) != team:
            continue
        mine = st.hands[hp]
        others = held & ~mine
        comm = 0
        for s in range(4):
            lane = mine & lane_of(s)
            o_lane = others & lane_of(s)
            if (legal & lane_of(s)) and lane and (not o_lane or high_bit(lane) > high_bit(o_lane)):
                comm = 1
        if not comm:
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
    cdef uint64_t o_lane, top, team_cards = 0, opp_cards = 0, r
    cdef int s, o, n, team, ok, hp = 0, k = 0
    team = (c.maxmask >> L) & 1
    for o in range(4):
        if ((c.maxmask >> o) & 1) == team:
            team_cards |= st.hands[o]
        else:
            opp_cards |= st.hands[o]
    for s in range(4):
        if s == R.lead_suit and R.lead_mode != 0:
            continue
        if s == R.trump and R.trump_lead_restricted and not (st.played & lane_of(s)):
            continue
        if not (mine & lane_of(s)):
            continue
        o_lane = opp_cards & lane_of(s)
        top = team_cards & ~mine & lane_of(s)
        if not top or (o_lane and high_bit(top) < high_bit(o_lane)):
            continue
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
            for o in range(4):
                if (st.hands[o] >> high_bit(top)) & 1:
                    hp = o
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
    cdef int team_best = -1, opp_best = -1, hh = -1, j, i, q, need
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
    if R.trump < 0:
        need = quick_need(c, lo, hi, alpha, beta)
        # A count that cannot decide a zero window changes nothing for the side
        # searches (they keep no bound that does not decide): the cashing is
        # counted only when it may reach what decides.
        if need != 1 and not (c.track and beta == alpha + 1 and (
                need == 0 or need > 1 + cash_reach(c, hh, st.hands[hh] & ~r))):
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
    cdef int s, o, top
    if c.R.trump >= 0 and (held & lane_of(c.R.trump)):
        return 0
    legal = legal_moves(&c.R, st)
    for s in range(4):
        if not (legal & lane_of(s)):
            continue
        top = high_bit(held & lane_of(s))
        for o in range(4):
            if (st.hands[o] >> top) & 1:
                if ((c.maxmask >> o) & 1) == team:
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
    cdef int o, top, k = 0
    if c.R.trump < 0:
        return 0
    trumps = in_hands(st) & lane_of(c.R.trump)
    if not trumps:
        return 0
    top = high_bit(trumps)
    for o in range(4):
        if (st.hands[o] >> top) & 1:
            holder[0] = o
            lane = st.hands[o] & lane_of(c.R.trump)
            others = trumps & ~lane
            if others:
                lane &= ~((((<uint64_t>2) << high_bit(others))) - 1)
            rel[0] |= lane
            k = popcount(lane)
    return k


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


cdef inline int quick_need(Search* c, int lo, int hi, int alpha, int beta) noexcept nogil:
    # The fewest tricks the side on move must surely take (from this trick on) for
    # the range [lo, hi] to decide the window (alpha, beta); 0 when no count does.
    cdef int t = c.st.tricks_done, q, v, l, h
    cdef int for_max = (c.maxmask >> c.st.to_move) & 1
    for q in range(1, c.R.n_tricks - t + 1):
        l = lo
        h = hi
        sure_gain(for_max, c.R.pos_suffix[t] - c.R.pos_suffix[t + q], hi, &l, &h)
        if decides(l, h, alpha, beta, &v):
            return q
    return 0


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


# --- the alpha-beta driver --------------------------------------------------------------

cdef inline int count_node(Search* c) noexcept nogil:
    # Counts the node; every 4096 nodes checks the node limit, the clock and, in a
    # shared search, whether another thread has finished (a check per node would
    # cost more than the nodes). Returns nonzero when the search must unwind.
    c.nodes += 1
    if c.st.count == 0:
        c.trick_nodes += 1
    if (c.nodes & 4095) == 0:
        if c.nodes >= c.node_limit:
            c.abort = 1
        elif now_s() > c.deadline:
            c.abort = 2
        elif c.stop != NULL and ks_load_int(c.stop):
            c.abort = 3
    return c.abort


cdef inline int lone_start(Search* c, int alpha, int beta, TTEntry* e, Node* nd,
                           int* value) noexcept nogil:
    # The lone seat at a trick start, no trump: the exact entry first (one that
    # decides spares the games of lone_safe), then whether it can lose every trick
    # left. Returns 1 when they decide the window, the result in *value.
    if e != NULL:
        if e.lo > nd.lo:
            nd.lo = e.lo
        if e.hi < nd.hi:
            nd.hi = e.hi
        if decides(nd.lo, nd.hi, alpha, beta, value):
            return 1
    if nd.lo < 0 and lone_safe(c):
        nd.lo = 0
        if nd.lo >= beta or nd.lo == nd.hi:
            value[0] = nd.lo
            return 1
    return 0


cdef inline int quick_bounds(Search* c, int alpha, int beta, Node* nd, int* value,
                             uint64_t* rel) noexcept nogil:
    # No negative points remain at a trick start: tricks a side surely takes bound
    # the value (subtracted from the quick upper bound, never from a table bound).
    # Returns 1 when a bound decides the window, the result in *value and in *rel
    # the cards of the rule that set the deciding bound; else narrows nd only where
    # no relevant cards are kept: their cards would narrow every entry stored above
    # (DDS uses quick tricks only to cut).
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int t = st.tricks_done, lo = nd.lo, hi = nd.hi, top = nd.hi, q, out
    cdef uint64_t rlo = 0, rhi = 0, tmp = 0
    q = quick_tricks(c, &tmp)
    if q:
        gain_on((c.maxmask >> st.to_move) & 1, R.pos_suffix[t] - R.pos_suffix[t + q], top,
                &lo, &hi, tmp, &rlo, &rhi)
    elif R.trick_points[t] > 0 and lead_lost(c, &tmp):
        # the other side takes this trick at least
        gain_on(not (c.maxmask >> st.to_move) & 1, R.trick_points[t], top, &lo, &hi, tmp,
                &rlo, &rhi)
    tmp = 0
    q = later_tricks(c, &out, &tmp)
    if q:
        gain_on((c.maxmask >> out) & 1, q * R.min_suffix[t], top, &lo, &hi, tmp, &rlo, &rhi)
    q = R.min_suffix[t]
    tmp = 0
    if q > 0 and top - q <= alpha and hi > alpha and all_barred(c, 1, &tmp):
        # the maximisers need every trick left and cannot take them all
        gain_on(0, q, top, &lo, &hi, tmp, &rlo, &rhi)
    elif q > 0 and q >= beta and lo < beta and all_barred(c, 0, &tmp):
        # the others need every trick left and cannot take them all
        gain_on(1, q, top, &lo, &hi, tmp, &rlo, &rhi)
    if decides(lo, hi, alpha, beta, value):
        rel[0] = nd.acc | (rlo if lo >= beta else rhi if hi <= alpha else rlo | rhi)
        return 1
    if not c.track:
        nd.lo = lo
        nd.hi = hi
        nd.acc |= rlo | rhi
    return 0


cdef inline int wide_bounds(Search* c, int alpha, int beta, Node* nd, int* value,
                            uint64_t* rel) noexcept nogil:
    # The wide entries: 1 when they decide the window, the result in *value and the
    # entries' cards in *rel; else their move goes first (their bounds are not kept,
    # as in quick_bounds: the wide table serves the searches that keep cards).
    cdef int lo = nd.lo, hi = nd.hi, q, total, klo, khi
    cdef uint64_t tmp = 0
    if c.flip:
        # the entries hold the other side's value: probe with its range and window
        total = bound_lo(c) + bound_hi(c)
        klo = total - hi
        khi = total - lo
        q = wide_probe(c, nd.wlen, nd.ps, total - beta, total - alpha, &klo, &khi, &tmp)
        lo = total - khi
        hi = total - klo
    else:
        q = wide_probe(c, nd.wlen, nd.ps, alpha, beta, &lo, &hi, &tmp)
    if decides(lo, hi, alpha, beta, value):
        rel[0] = nd.acc | tmp
        return 1
    nd.ttmove = decode_move(&c.st, q)
    return 0


cdef inline int entry_bounds(Search* c, int alpha, int beta, TTEntry* e, Node* nd,
                             int* value, uint64_t* rel) noexcept nogil:
    # The exact entry `e`: 1 when it decides the window, the result in *value and
    # the entry's cards in *rel; else its move goes first, and its bounds narrow nd
    # only where no relevant cards are kept (as in quick_bounds).
    cdef int lo = nd.lo, hi = nd.hi, elo = e.lo, ehi = e.hi, total
    if c.flip:
        total = bound_lo(c) + bound_hi(c)
        elo = total - e.hi
        ehi = total - e.lo
    if elo > lo:
        lo = elo
    if ehi < hi:
        hi = ehi
    if decides(lo, hi, alpha, beta, value):
        rel[0] = nd.acc | entry_cards(&c.st, e) if c.track else nd.acc
        return 1
    if not c.track:
        nd.lo = lo
        nd.hi = hi
    nd.ttmove = decode_move(&c.st, e.move)
    return 0


cdef inline int start_bounds(Search* c, int alpha, int beta, Node* nd, int* value,
                             uint64_t* rel) noexcept nogil:
    # The rules at a trick start, before any card is searched (DDS's ABsearch0 before
    # its moves): the last trick played out, the lone seat's rules, the quick tricks,
    # the wide entries, the exact one. Returns 1 when they decide the window, the
    # result in *value and its cards in *rel; else sets nd's keys and the tables' move.
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef TTEntry* e = NULL
    cdef TTEntry found
    cdef WideBucket* wb
    cdef int probed = 0
    if st.tricks_done == R.n_tricks - 1:
        rel[0] = 0
        value[0] = last_trick(c, rel)
        return 1
    if c.lone and lone_endgame(c, value):
        rel[0] = 0
        return 1
    # the table's buckets for this position are fetched from memory while the
    # quick rules run (DDS prefetches too)
    nd.key = tt_key(c)
    __builtin_prefetch(tt_bucket(c, nd.key))
    if c.lone and nd.lo < 0 and R.trump < 0 and \
            (R.protected == 0 or st.tricks_done > 0) and not R.overtake:
        e = tt_probe(c, nd.key, &found)
        probed = 1
        if lone_start(c, alpha, beta, e, nd, value):
            rel[0] = 0
            return 1
    if c.wide:
        nd.wlen = len_key(st)
        pos_seqs(c, nd.ps)
        wb = wide_bucket(c, nd.wlen, nd.ps[0] & 0xFFF)
        __builtin_prefetch(wb)
        __builtin_prefetch(<char*>wb + 64)
        __builtin_prefetch(<char*>wb + 128)
        __builtin_prefetch(<char*>wb + 192)
    if nd.lo >= 0 and quick_bounds(c, alpha, beta, nd, value, rel):
        return 1
    if c.wide and wide_bounds(c, alpha, beta, nd, value, rel):
        return 1
    if not probed:
        e = tt_probe(c, nd.key, &found)
    return e != NULL and entry_bounds(c, alpha, beta, e, nd, value, rel)


cdef inline int follow_bounds(Search* c, int alpha, int beta, Node* nd, int* value,
                              uint64_t* rel) noexcept nogil:
    # The rules in a trick under way: the mover's side surely wins it (follow_quick),
    # or the lone seat loses it and can lose every later one. Returns 1 when they
    # decide the window, the result in *value and its cards in *rel.
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int t = st.tricks_done, top = nd.hi, q
    cdef uint64_t tmp = 0
    if nd.lo >= 0:
        q = follow_quick(c, nd.lo, nd.hi, alpha, beta, &tmp)
        if q:
            sure_gain((c.maxmask >> st.to_move) & 1, R.pos_suffix[t] - R.pos_suffix[t + q],
                      top, &nd.lo, &nd.hi)
            if decides(nd.lo, nd.hi, alpha, beta, value):
                rel[0] = nd.acc | tmp
                return 1
            if c.track:
                nd.lo = bound_lo(c)
                nd.hi = top
            else:
                nd.acc |= tmp
    elif c.lone and R.trump < 0 and not R.overtake and lone_safe_mid(c):
        nd.lo = 0
        if nd.lo >= beta or nd.lo == nd.hi:
            rel[0] = 0
            value[0] = nd.lo
            return 1
    return 0


cdef void log_cut(Search* c, int maximizing, int i, int64_t before, int64_t nodes) noexcept nogil:
    # the tree log (Core.set_log): a cut by the i-th card, after `before` of the
    # node's `nodes` nodes went to the cards before it
    cdef int64_t* o = c.log_cuts + 8 * (c.R.n_tricks - c.st.tricks_done) + 4 * maximizing
    o[0] += 1
    o[1] += i == 0
    o[2] += before
    o[3] += nodes


cdef inline int busy_slot(Search* c) noexcept nogil:
    # the busy counter of the position: its cards in hands and in the trick, the
    # seat on move and the maximiser set, hashed
    cdef uint64_t h = (in_hands(&c.st) * <uint64_t>0x9E3779B97F4A7C15) \
        ^ ((c.st.trick_mask ^ (<uint64_t>(c.st.to_move * 16 + c.maxmask) << 1))
           * <uint64_t>0xC2B2AE3D27D4EB4F)
    return <int>((h ^ (h >> 29)) & (BUSY_SLOTS - 1))


cdef inline int search_moves(Search* c, int alpha, int beta, Node* nd,
                             int* bestmove) noexcept nogil:
    # The legal cards in order, fail-soft: the best value, its card in *bestmove and
    # in nd.acc the cards it depends on (a cut keeps the cutting line's alone, as
    # DDS keeps the cutting move's winning ranks). On a stop, 0 with nd.acc 0.
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int mv[32]
    cdef int cut[4]
    cdef int i, n, n0, v, w, q, gain, best, closed, slot
    cdef int maximizing = (c.maxmask >> st.to_move) & 1
    cdef uint64_t legal = legal_moves(R, st), folded = 0, sub, tr, live
    cdef uint64_t acc = nd.acc, acc0 = nd.acc
    cdef int64_t nodes0 = c.nodes, nchild = 0
    n = gen_moves(R, st, legal, mv, NULL, &folded)
    order_moves(c, mv, n, nd.ttmove, legal)
    best = -INF if maximizing else INF
    live = in_hands(st) | st.trick_mask
    for i in range(4):
        cut[i] = -1
    n0 = n
    i = -1
    while i + 1 < n:
        i += 1
        if KS_TREE_LOG:
            nchild = c.nodes
        if c.track and mv[i] < cut[mv[i] >> 4]:
            # below every card of its suit the result of a searched card of the same
            # hand and suit depended on: the same result (DDS's lowest winning rank)
            continue
        play_card(R, st, mv[i])
        closed = st.count == R.nseats
        if closed:
            gain = R.trick_points[st.tricks_done] + st.cur.tpts[st.count - 1]
            tr = trick_rel(c) if c.track else 0
            w = close_trick(R, st)
            if not (c.maxmask >> w) & 1:
                gain = 0
        slot = -1
        if c.busy != NULL and st.tricks_done * R.nseats + st.count < c.busy_ply:
            # a shared search: a card whose position another thread is searching
            # goes after the others (ABDADA; the first card is always searched)
            slot = busy_slot(c)
            if 0 < i < n0 and ks_load_int(&c.busy[slot]):
                if closed:
                    reopen_trick(R, st)
                unplay_card(st)
                mv[n] = mv[i]
                n += 1
                continue
            ks_add_int(&c.busy[slot], 1)
        if closed:
            v = gain + search(c, alpha - gain, beta - gain, &sub)
            sub |= tr
            reopen_trick(R, st)
        else:
            v = search(c, alpha, beta, &sub)
        if slot >= 0:
            ks_add_int(&c.busy[slot], -1)
        unplay_card(st)
        if c.abort:
            nd.acc = 0
            return 0
        if c.track:
            if sub:
                # the card stood for the equal cards folded into it: when the result
                # depends on one of them, it depends on the whole run (rel is absolute)
                if (sub & folded) and (sub & run_above(R, st, legal, mv[i])):
                    sub |= (<uint64_t>1) << mv[i]
                acc |= sub
            tr = (sub | (c.special & live)) & lane_of(mv[i] >> 4)
            q = low_bit(tr) if tr else 16 * (mv[i] >> 4) + 16
            if mv[i] < q and q > cut[mv[i] >> 4]:
                cut[mv[i] >> 4] = q
        if maximizing:
            if v > best:
                best = v
                bestmove[0] = mv[i]
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        acc = acc0 | sub
                        if KS_TREE_LOG and c.log_buf != NULL:
                            log_cut(c, maximizing, i, nchild - nodes0, c.nodes - nodes0)
                        if st.count == 0:
                            c.killer[4 * st.tricks_done + st.to_move] = mv[i]
                        break
        else:
            if v < best:
                best = v
                bestmove[0] = mv[i]
                if best < beta:
                    beta = best
                    if alpha >= beta:
                        acc = acc0 | sub
                        if KS_TREE_LOG and c.log_buf != NULL:
                            log_cut(c, maximizing, i, nchild - nodes0, c.nodes - nodes0)
                        if st.count == 0:
                            c.killer[4 * st.tricks_done + st.to_move] = mv[i]
                        break
    nd.acc = acc
    return best


cdef inline void store_node(Search* c, Node* nd, int best, int bestmove, int alpha0,
                            int beta0, int64_t work) noexcept nogil:
    # A trick start's result narrows nd's bounds and goes to the tables: a result at
    # or above beta0 is a lower bound, at or below alpha0 an upper one, else exact.
    # `work` is the nodes it took (the replacement keeps the costly entries).
    cdef int move = encode_move(&c.st, bestmove) if bestmove >= 0 else 255
    cdef int lo, hi, total
    if best >= beta0:
        nd.lo = best if best > nd.lo else nd.lo
    elif best <= alpha0:
        nd.hi = best if best < nd.hi else nd.hi
    else:
        nd.lo = best
        nd.hi = best
    lo = nd.lo
    hi = nd.hi
    if c.flip:
        # as the keys' side's value
        total = bound_lo(c) + bound_hi(c)
        lo = total - nd.hi
        hi = total - nd.lo
    if c.wide:
        wide_store(c, nd.wlen, nd.ps, nd.acc, lo, hi, move, work)
    tt_store(c, nd.key, nd.acc if c.track else ~(<uint64_t>0), lo, hi, move, work)


cdef void log_node(Search* c, int alpha, int beta, int best, Node* nd, int64_t n) noexcept nogil:
    # the tree log (Core.set_log): every log_every-th trick start searched, with its
    # window, result, bounds before its moves and subtree size
    cdef int64_t* r
    cdef int left = c.R.n_tricks - c.st.tricks_done
    c.log_seen += 1
    c.log_levels[2 * left] += 1
    c.log_levels[2 * left + 1] += n
    if c.log_seen % c.log_every or c.log_n >= c.log_cap:
        return
    r = c.log_buf + 12 * c.log_n
    c.log_n += 1
    r[0] = <int64_t>c.st.hands[0]
    r[1] = <int64_t>c.st.hands[1]
    r[2] = <int64_t>c.st.hands[2]
    r[3] = <int64_t>c.st.hands[3]
    r[4] = c.st.to_move
    r[5] = c.st.tricks_done
    r[6] = alpha
    r[7] = beta
    r[8] = best
    r[9] = n
    r[10] = nd.lo
    r[11] = nd.hi


cdef int search(Search* c, int alpha, int beta, uint64_t* rel) noexcept nogil:
    # Fail-soft alpha-beta on the future value of c.maxmask from the current state.
    # *rel receives the cards whose rank the result depends on (DDS's winning
    # ranks): trick winners that beat a card of their suit, the cards the quick
    # rules and the table entries used rely on, and those of every child searched.
    # They gather in nd.acc (a store through `rel` could alias the state, so it is
    # written once, on the way out). Without c.track (the lone-seat searches, where
    # the skipping saves less than the bookkeeping costs) nothing is gathered, no
    # card is skipped and table entries depend on every card; so the lone-seat rules
    # add nothing to nd.acc. One driver serves the lone seat and the sides: the
    # flags are fixed for a whole search, and the bounds, moves and store are shared.
    cdef Node nd
    cdef int v, best, bestmove = -1
    cdef int64_t start_nodes = c.nodes
    if count_node(c):
        rel[0] = 0
        return 0
    nd.lo = bound_lo(c)
    nd.hi = bound_hi(c)
    if nd.lo == nd.hi or nd.hi <= alpha:
        rel[0] = 0
        return nd.hi
    if nd.lo >= beta:
        rel[0] = 0
        return nd.lo
    nd.acc = 0
    nd.ttmove = -1
    if c.st.count == 0:
        if start_bounds(c, alpha, beta, &nd, &v, rel):
            return v
    elif follow_bounds(c, alpha, beta, &nd, &v, rel):
        return v
    best = search_moves(c, alpha, beta, &nd, &bestmove)
    rel[0] = nd.acc
    if c.abort:
        return 0
    if c.st.count == 0:
        if KS_TREE_LOG and c.log_buf != NULL:
            log_node(c, alpha, beta, best, &nd, c.nodes - start_nodes)
        store_node(c, &nd, best, bestmove, alpha, beta, c.nodes - start_nodes)
    if best >= beta and best < nd.lo:
        return nd.lo
    if best <= alpha and best > nd.hi:
        return nd.hi
    return best


cdef inline void sub_budget(Search* c, int64_t limit, double end, int part) noexcept nogil:
    # the next search may use 1/part of what is left of the budget (limit, end)
    cdef double t = now_s()
    c.node_limit = c.nodes + (limit - c.nodes) // part
    c.deadline = t + (end - t) / part


cdef inline int spent(Search* c, int64_t limit, double end) noexcept nogil:
    # after a stop: 1 or 2 (nodes, time) when the whole budget is used, 3 when
    # another thread has finished a shared search, else 0
    if c.stop != NULL and ks_load_int(c.stop):
        return 3
    if c.nodes >= limit:
        return 1
    if now_s() > end:
        return 2
    return 0


cdef inline int narrow(Search* c, int beta, int* lo, int* hi) noexcept nogil:
    # One zero-window test, "at least beta": its fail-soft result narrows [lo, hi]
    # and c.proved, unless the budget stopped it (then nothing changes).
    cdef uint64_t rel
    cdef int v = search(c, beta - 1, beta, &rel)
    if c.abort:
        return 0
    if v >= beta:
        lo[0] = v
    else:
        hi[0] = v
    c.proved_lo = lo[0]
    c.proved_hi = hi[0]
    return v


cdef int mtd(Search* c, int guess) noexcept nogil:
    # The exact future value by zero-window tests (MTD(f) on fail-soft bounds), with
    # half the budget. A search that has not finished then narrows its range from
    # both ends with the rest (so a budget stop leaves the range as narrow as it
    # can): "at least lo + 1" or "at least hi", each test with a share of what is
    # left, the other end's test after a stop, the share doubled whenever a test at
    # each end has stopped.
    # The table keeps every finished subtree, so a stopped test's work serves the
    # next; c.proved holds the range proved so far.
    cdef int lo = bound_lo(c)
    cdef int hi = bound_hi(c)
    cdef int g = guess, side = 0, stops = 0, part = 16
    cdef int64_t limit = c.node_limit
    cdef double end = c.deadline
    c.proved_lo = lo
    c.proved_hi = hi
    sub_budget(c, limit, end, 2)
    while lo < hi:
        if g < lo:
            g = lo
        if g > hi:
            g = hi
        g = narrow(c, g if g > lo else lo + 1, &lo, &hi)
        if c.abort:
            break
    while lo < hi:
        if c.abort:
            c.abort = spent(c, limit, end)
            if c.abort:
                break
        sub_budget(c, limit, end, part)
        narrow(c, lo + 1 if side == 0 else hi, &lo, &hi)
        if c.abort:
            # this end stopped: try the other; both stopped: a larger share
            side ^= 1
            stops += 1
            if stops == 2:
                stops = 0
                part = part // 2 if part > 1 else 1
        else:
            stops = 0
    c.node_limit = limit
    c.deadline = end
    return 0 if c.abort else lo


cdef void* helper_main(void* arg) noexcept nogil:
    # a helper's thread: MTD(f) on its copy of the root (unless the search is already
    # over); the first to finish stops all
    cdef Job* j = <Job*>arg
    if ks_load_int(j.c.stop):
        return NULL
    j.value = mtd(j.c, j.guess)
    if j.c.abort == 0:
        ks_store_int(&j.done, 1)
        ks_claim(j.c.stop)
    return NULL


cdef void sync_helper(Search* c, Team* t, int i) noexcept nogil:
    # Helper i takes the core's root, rules, budget, table and busy counters (shared)
    # and keeps its own memos (a new epoch when the core has loaded since).
    cdef Search* h = &t.helpers[i]
    cdef uint8_t* safe = h.safe_memo
    cdef uint64_t* lead = h.lead_memo
    cdef uint32_t epoch = h.safe_epoch
    memcpy(h, c, sizeof(Search))
    if t.synced[i] != t.loads:
        t.synced[i] = t.loads
        epoch += 1
        if epoch > 63:
            memset(safe, 0, 4 * 16 * 4 * 8192)
            memset(lead, 0, 65536 * sizeof(uint64_t))
            epoch = 1
    h.safe_memo = safe
    h.lead_memo = lead
    h.safe_epoch = epoch
    h.st.cur = &h.st.tricks[h.st.tricks_done]
    h.stop = &t.stop
    h.team = NULL
    h.log_buf = NULL          # the tree log is the core's thread's alone


cdef void team_join(Team* t) noexcept nogil:
    # Waits for the helpers of the last shared search (stopped: each ends within 4096
    # nodes of being scheduled) and counts their nodes. Before anything that touches
    # what they read: a load, a layout change, the next shared search.
    cdef int i
    cdef int64_t d
    if not t.running:
        return
    for i in range(t.n):
        if t.started[i]:
            pthread_join(t.threads[i], NULL)
            t.started[i] = 0
        d = t.helpers[i].nodes - t.base
        t.nodes += d
        t.counts[i] += d
    t.running = 0


cdef int shared_mtd(Search* c, int guess) noexcept nogil:
    # mtd() on every thread of the core's team at once, on one table (ABDADA, see
    # ext/README.md): over the first BUSY_PLIES cards a thread leaves for later a
    # card (not the first) whose position another thread is searching, so the
    # threads split the cards of a node and find each other's subtrees in the table.
    # The first to finish gives the value and stops the others (they look every 4096
    # nodes, and end in the background: team_join); on a budget stop, the ranges the
    # threads proved, intersected. The node budget is shared. The lone seat's
    # searches only (the wide entries of the side searches are not written whole),
    # from SHARED_TRICKS tricks left.
    cdef Team* t = c.team
    cdef Search* h
    cdef int i, v, lo, hi
    cdef int64_t limit = c.node_limit
    if t == NULL or t.n == 0 or not c.lone or c.R.n_tricks - c.st.tricks_done < SHARED_TRICKS:
        return mtd(c, guess)
    team_join(t)
    patterns_complete(c)        # the threads then only read the pattern tables
    t.stop = 0
    t.base = c.nodes
    t.running = 1
    # nodes are work: the threads share the node budget
    c.node_limit = c.nodes + (c.node_limit - c.nodes) // (t.n + 1)
    c.busy = t.busy
    c.busy_ply = c.st.tricks_done * c.R.nseats + c.st.count + BUSY_PLIES
    for i in range(t.n):
        sync_helper(c, t, i)
        t.jobs[i].c = &t.helpers[i]
        t.jobs[i].guess = guess
        t.jobs[i].done = 0
        t.started[i] = ks_spawn(&t.threads[i], helper_main, &t.jobs[i]) == 0
    c.stop = &t.stop
    v = mtd(c, guess)
    if c.abort == 0:
        ks_claim(&t.stop)
    c.stop = NULL
    c.busy = NULL
    c.node_limit = limit
    if c.abort == 3:
        # a helper finished first (it set the flag after its value)
        for i in range(t.n):
            if ks_load_int(&t.jobs[i].done):
                v = t.jobs[i].value
                c.abort = 0
                break
    if c.abort == 0:
        c.proved_lo = v
        c.proved_hi = v
        return v
    # the budget stopped this thread: the others stop at it too
    team_join(t)
    lo = c.proved_lo
    hi = c.proved_hi
    for i in range(t.n):
        h = &t.helpers[i]
        if t.jobs[i].done and c.abort:
            v = t.jobs[i].value
            c.abort = 0
        if h.proved_lo > lo:
            lo = h.proved_lo
        if h.proved_hi < hi:
            hi = h.proved_hi
    if c.abort == 0:
        lo = v
        hi = v
    c.proved_lo = lo
    c.proved_hi = hi
    return v


cdef int rollout(Search* c, int bit, int horizon, int guess) noexcept nogil:
    # The future value of c.maxmask when `bit` is played, then every seat plays the
    # simple player's card (policy_card) until a trick starts with at most `horizon`
    # tricks left or the hand is over, then the exact value from there (mtd). The
    # state is restored before returning.
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int closed[4 * MAX_TRICKS]
    cdef int n = 0, gain = 0, g, w, i, v
    cdef int positive = contract_positive(R)
    cdef int card = bit
    while True:
        play_card(R, st, card)
        closed[n] = 0
        if st.count == R.nseats:
            g = R.trick_points[st.tricks_done] + st.cur.tpts[st.count - 1]
            w = close_trick(R, st)
            if (c.maxmask >> w) & 1:
                gain += g
            closed[n] = 1
        n += 1
        if st.tricks_done == R.n_tricks:
            break
        if st.count == 0 and R.n_tricks - st.tricks_done <= horizon:
            break
        if c.coalition == 2 and c.model != NULL:
            card = guided_card(c)
        elif c.coalition and c.lone and not (c.maxmask >> st.to_move) & 1:
            card = coalition_card(c)
        else:
            card = policy_card(R, st, positive)
    v = gain
    c.proved_lo = gain
    c.proved_hi = gain
    if st.tricks_done < R.n_tricks:
        v = gain + shared_mtd(c, guess - gain)
        c.proved_lo += gain
        c.proved_hi += gain
    for i in range(n - 1, -1, -1):
        if closed[i]:
            reopen_trick(R, st)
        unplay_card(st)
    return v


include "core_eval.pxi"


# --- the Python face ---------------------------------------------------------------------

cdef class ContractTable:
    """A trick contract compiled for the core: ``Position.tables`` and the seats in
    play as the flat ``Rules`` the search reads, passed to ``Core.load``.

    ``card_points``: 64 points by card bit; ``trick_points``: the points of each trick
    in order; ``trump``: the trump suit, -1 for none; ``lead_suit``: the suit under a
    lead restriction, -1 for none, and ``lead_mode``: 1 until broken, 2 while other
    suits are held; ``trump_lead_restricted``: no trump led before a trump was played
    (Turkish); ``overtake``: must beat the top card of the suit led (Turkish);
    ``overtrump_on_trump_lead``: must beat the top trump on a trump lead (Portuguese);
    ``protected``: the first-trick protection set, ``forced``: the forced discard set
    (card masks); ``trump_obligation``: 0 free, 1 ruff-overruff, 2 ruff-overruff-strict;
    ``next_seat``: the next seat of each seat, -1 for a seat not in play.
    """

    cdef Rules R

    def __init__(self, card_points, trick_points, *, int trump=-1, int lead_suit=-1,
                 int lead_mode=0, bint trump_lead_restricted=False, bint overtake=False,
                 bint overtrump_on_trump_lead=False, uint64_t protected=0, uint64_t forced=0,
                 int trump_obligation=0, next_seat=(1, 2, 3, 0)):
        cdef Rules* R = &self.R
        cdef int i, j, p, n_tricks = len(trick_points)
        cdef uint64_t m
        cdef int key[64]
        cdef int keys[64]
        if n_tricks > MAX_TRICKS or len(card_points) != 64 or len(next_seat) != 4:
            raise ValueError("contract tables out of range")
        memset(R, 0, sizeof(Rules))
        for i in range(64):
            R.card_points[i] = card_points[i]
        R.n_tricks = n_tricks
        for i in range(n_tricks):
            R.trick_points[i] = trick_points[i]
        R.pos_suffix[n_tricks] = 0
        R.neg_suffix[n_tricks] = 0
        for i in range(n_tricks - 1, -1, -1):
            p = R.trick_points[i]
            R.pos_suffix[i] = R.pos_suffix[i + 1] + (p if p > 0 else 0)
            R.neg_suffix[i] = R.neg_suffix[i + 1] + (p if p < 0 else 0)
            R.min_suffix[i] = p if i == n_tricks - 1 or p < R.min_suffix[i + 1] else R.min_suffix[i + 1]
        R.trump = trump
        R.lead_suit = lead_suit
        R.lead_mode = lead_mode
        R.trump_lead_restricted = trump_lead_restricted
        R.overtake = overtake
        R.overtrump_on_trump_lead = overtrump_on_trump_lead
        R.protected = protected
        R.forced = forced
        R.trump_obligation = trump_obligation
        R.nseats = 0
        R.in_play = 0
        for i in range(4):
            R.next_seat[i] = next_seat[i]
            if next_seat[i] >= 0:
                R.nseats += 1
                R.in_play |= 1 << i
        # class ids: cards alike in points, first-trick protection and forced set
        R.ncls = 0
        for i in range(64):
            m = (<uint64_t>1) << i
            key[i] = (R.card_points[i] * 4 + (2 if protected & m else 0)
                      + (1 if forced & m else 0))
            R.cls[i] = -1
            for j in range(R.ncls):
                if keys[j] == key[i]:
                    R.cls[i] = j
                    break
            if R.cls[i] < 0:
                keys[R.ncls] = key[i]
                R.cls[i] = R.ncls
                R.ncls += 1
            R.cls_mask[R.cls[i]] |= m


cdef class ValueModel:
    """The value model's weights (``kingsolve.value_model`` reads them from its file),
    held for every core that evaluates with it: ``nf`` inputs (the core's NF), hidden
    layers of ``h1`` and ``h2`` units, and ``weights`` as little-endian float32: w1
    (nf x h1, a feature's row together), b1, w2 (h1 x h2), b2, w3, b3."""

    cdef Model m
    cdef object _buf

    def __init__(self, int nf, int h1, int h2, bytes weights):
        cdef Py_ssize_t need = nf * h1 + h1 + h1 * h2 + h2 + h2 + 1
        cdef const float* f
        if nf != NF:
            raise ValueError(f"the model takes {nf} features, the core makes {NF}")
        if not (0 < h1 <= MODEL_HIDDEN and 0 < h2 <= MODEL_HIDDEN):
            raise ValueError(f"hidden layers of {h1} and {h2} units: at most {MODEL_HIDDEN}")
        if len(weights) != 4 * need:
            raise ValueError(f"model weights: {len(weights)} bytes, expected {4 * need}")
        self._buf = bytearray(weights)
        f = <const float*><char*>self._buf
        self.m.nf = nf
        self.m.h1 = h1
        self.m.h2 = h2
        self.m.w1 = <float*>f
        self.m.b1 = self.m.w1 + nf * h1
        self.m.w2 = self.m.b1 + h1
        self.m.b2 = self.m.w2 + h1 * h2
        self.m.w3 = self.m.b2 + h2
        self.m.b3 = self.m.w3[h2]

    def evaluate(self, features):
        """The network's output for a list of NF features (a test hook)."""
        cdef float x[NF]
        cdef int i
        if len(features) != NF:
            raise ValueError(f"{len(features)} features, expected {NF}")
        for i in range(NF):
            x[i] = features[i]
        return model_eval(&self.m, x)


cdef class Core:
    """One root position, its transposition table and its searches.

    ``load`` takes the compiled contract (``ContractTable``) and the position as plain
    integers; each load of other cards starts the table afresh (a new epoch), a load
    of the same contract and cards keeps it. Every search of a root shares it (its
    key holds the maximiser set; a doubles side's entries serve the other side), so
    the seats and leaders of one deal reuse each other's work.
    """

    cdef Search c
    cdef Team team           # the helpers of its lone-seat searches (set_threads)
    cdef bint dirty          # searched since the last load
    cdef bint used           # holds entries (of any epoch) since the last clear
    cdef bint loaded
    cdef bint deal_known     # the last load named its deal: deal_rules and deal_hands hold
    cdef Rules deal_rules    # the last load's contract
    cdef uint64_t deal_hands[4]   # and deal, each seat's cards at the start of the hand
    cdef ValueModel model    # the estimating search's model (set_model), kept alive here

    def __cinit__(self, int tt_mb=64):
        cdef uint64_t want = (<uint64_t>max(tt_mb, 1)) << 20
        cdef uint64_t nbuckets = 1024
        while nbuckets * 2 * 4 * sizeof(TTEntry) <= want:
            nbuckets *= 2
        self.c.tt = <TTEntry*>calloc(nbuckets * 4, sizeof(TTEntry))
        self.c.pid = <uint16_t*>malloc(4 * 32768 * sizeof(uint16_t))
        self.c.seqtab = <uint64_t*>malloc(4 * 8192 * sizeof(uint64_t))
        self.c.safe_memo = <uint8_t*>calloc(4 * 16 * 4 * 8192, 1)
        self.c.lead_memo = <uint64_t*>calloc(65536, sizeof(uint64_t))
        self.c.patterns = <PatternScratch*>calloc(1, sizeof(PatternScratch))
        if self.c.tt == NULL or self.c.pid == NULL or self.c.seqtab == NULL \
                or self.c.safe_memo == NULL or self.c.lead_memo == NULL or self.c.patterns == NULL:
            raise MemoryError("cannot allocate the transposition table")
        self.c.tt_bytes = nbuckets * 4 * sizeof(TTEntry)
        self.c.bucket_mask = nbuckets - 1
        self.c.wt = NULL
        self.c.wide_buckets = 0
        self.c.wide = 0
        self.c.epoch = 1
        self.c.node_limit = 1 << 62
        self.c.deadline = 1e300
        self.dirty = False
        self.used = False
        self.loaded = False

    def __dealloc__(self):
        self._free_team()
        free(self.c.tt)
        free(self.c.pid)
        free(self.c.seqtab)
        free(self.c.safe_memo)
        free(self.c.lead_memo)
        if self.c.patterns != NULL:
            free(self.c.patterns.intern)
            free(self.c.patterns.stamp)
            free(self.c.patterns)
        free(self.c.log_buf)
        free(self.c.ht)

    cdef void _join(self):
        # the helpers of the last shared search, ended (before their memory or what
        # they read changes)
        if self.team.running:
            with nogil:
                team_join(&self.team)

    cdef void _free_team(self):
        cdef int i
        self._join()
        if self.team.helpers != NULL:
            for i in range(self.team.n):
                free(self.team.helpers[i].safe_memo)
                free(self.team.helpers[i].lead_memo)
        free(self.team.helpers)
        free(self.team.jobs)
        free(self.team.threads)
        free(self.team.started)
        free(self.team.synced)
        free(self.team.counts)
        free(self.team.busy)
        memset(&self.team, 0, sizeof(Team))
        self.c.team = NULL

    def set_threads(self, int threads):
        """Search the lone seat's values on ``threads`` threads sharing the table (the
        calling one and ``threads - 1`` helpers, each with memos of its own)."""
        cdef int i, n = threads - 1
        cdef Team* t = &self.team
        if threads < 1:
            raise ValueError("threads below 1")
        if n == t.n:
            return
        self._free_team()
        if n == 0:
            return
        t.helpers = <Search*>calloc(n, sizeof(Search))
        t.jobs = <Job*>calloc(n, sizeof(Job))
        t.threads = <pthread_t*>calloc(n, sizeof(pthread_t))
        t.started = <int*>calloc(n, sizeof(int))
        t.synced = <uint64_t*>calloc(n, sizeof(uint64_t))
        t.counts = <int64_t*>calloc(n, sizeof(int64_t))
        t.busy = <int*>calloc(BUSY_SLOTS, sizeof(int))
        if t.helpers == NULL or t.jobs == NULL or t.threads == NULL or t.started == NULL \
                or t.synced == NULL or t.counts == NULL or t.busy == NULL:
            self._free_team()
            raise MemoryError("cannot allocate the helpers")
        t.n = n
        for i in range(n):
            t.helpers[i].safe_memo = <uint8_t*>calloc(4 * 16 * 4 * 8192, 1)
            t.helpers[i].lead_memo = <uint64_t*>calloc(65536, sizeof(uint64_t))
            if t.helpers[i].safe_memo == NULL or t.helpers[i].lead_memo == NULL:
                self._free_team()
                raise MemoryError("cannot allocate the helpers")
        t.loads = 1
        self.c.team = t

    @property
    def threads(self):
        """The threads of the lone seat's searches (set_threads)."""
        return self.team.n + 1

    @property
    def table_bytes(self):
        """The memory of the transposition table, in bytes."""
        return self.c.tt_bytes

    def load(self, ContractTable table, hands, uint64_t played, int tricks_done, trick,
             int trick_leader, deal=None):
        """Set the root: the compiled contract, hands, cards played so far, completed
        tricks, the current trick as (seat, bit) pairs and its leader; ``deal``, each
        seat's cards at the start of the hand, when known. A root of the same deal
        and contract as the last load's keeps the table's entries: an entry is a
        trick start's own (its cards, leader and maximiser set), whichever root led
        there, so the positions of one hand share their searches (DDS keeps its table
        for the same deal too)."""
        cdef Rules* R = &self.c.R
        cdef State* st = &self.c.st
        cdef int i, p, same = 0
        cdef uint64_t m, trick_cards = 0
        cdef uint64_t owners[4]
        self._join()
        memcpy(R, &table.R, sizeof(Rules))
        memset(st, 0, sizeof(State))
        for i in range(4 * MAX_TRICKS):
            self.c.killer[i] = -1
        self.c.strict = R.overtake or R.overtrump_on_trump_lead or R.trump_obligation != 0
        self.c.special = R.protected | R.forced
        for i in range(64):
            if R.card_points[i] != 0:
                self.c.special |= (<uint64_t>1) << i
        # the state before the current trick, then the trick replayed
        for seat, bit in trick:
            trick_cards |= (<uint64_t>1) << bit
        for i in range(4):
            st.hands[i] = hands[i]
        for seat, bit in trick:
            st.hands[seat] |= (<uint64_t>1) << bit
        st.played = played & ~trick_cards
        st.deck = st.hands[0] | st.hands[1] | st.hands[2] | st.hands[3] | st.played
        st.tricks_done = tricks_done
        st.cur = &st.tricks[tricks_done]
        st.to_move = trick_leader
        m = in_hands(st)
        while m:
            p = R.card_points[low_bit(m)]
            m &= m - 1
            if p > 0:
                st.card_pos_left += p
            else:
                st.card_neg_left += p
        for seat, bit in trick:
            if seat != st.to_move:
                raise ValueError("trick out of turn")
            play_card(R, st, bit)
        if deal is not None:
            if len(deal) != 4:
                raise ValueError("deal: four hands expected")
            for i in range(4):
                owners[i] = deal[i]
                if st.hands[i] & ~owners[i]:
                    raise ValueError("a hand holds a card its deal hand does not")
            same = self.deal_known and memcmp(&self.deal_rules, R, sizeof(Rules)) == 0 \
                and memcmp(self.deal_hands, owners, sizeof(owners)) == 0
        else:
            for i in range(4):
                owners[i] = st.hands[i]
        if self.dirty and not same:
            # entries of earlier epochs read as empty; every 31 loads, a real clear
            self.c.epoch += 1
            if self.c.epoch > 31:
                tt_clear(&self.c)
                self.c.epoch = 1
                self.used = False
            self.dirty = False
        self._new_memo_epoch()
        self.loaded = False
        if not same:
            self.c.h_epoch += 1
            self.deal_known = False
            if patterns_reset(&self.c, owners) < 0:
                raise MemoryError("cannot allocate the pattern tables")
            if deal is not None:
                memcpy(&self.deal_rules, R, sizeof(Rules))
                memcpy(self.deal_hands, owners, sizeof(owners))
                self.deal_known = True
        self.team.loads += 1
        self.loaded = True

    cdef void _new_memo_epoch(self):
        # the suit games' memos: a new epoch per load, cleared when it wraps
        self.c.safe_epoch += 1
        if self.c.safe_epoch > 63:
            memset(self.c.safe_memo, 0, 4 * 16 * 4 * 8192)
            memset(self.c.lead_memo, 0, 65536 * sizeof(uint64_t))
            self.c.safe_epoch = 1

    def set_log(self, int64_t cap, int64_t every=1):
        """A diagnostic of the tree's shape (benchmarks/lone_tree.py): log every
        ``every``-th trick start the rules before the moves leave to search, up to
        ``cap`` of them, and count the cuts by tricks left and side; 0 stops. Only in
        a build with the log compiled in (C flag ``-DKS_TREE_LOG=1``)."""
        if not KS_TREE_LOG:
            raise RuntimeError("the tree log is not compiled in: build with "
                               "CFLAGS=-DKS_TREE_LOG=1")
        free(self.c.log_buf)
        self.c.log_buf = NULL
        if cap > 0:
            self.c.log_buf = <int64_t*>calloc(12 * cap, sizeof(int64_t))
            if self.c.log_buf == NULL:
                raise MemoryError("cannot allocate the tree log")
        self.c.log_cap = max(cap, 0)
        self.c.log_every = max(every, 1)
        self.take_log()

    def take_log(self):
        """The tree log since set_log or the last take_log, then cleared: the trick
        starts logged, each (hands N, E, S, W as uint64, leader, tricks done, alpha,
        beta, result, subtree nodes, lower and upper bound before the moves); per
        tricks left (0-15), the trick starts searched and their subtree nodes,
        summed; and per tricks left and side (0 the others, 1 the maximisers) the
        cuts: [cuts, cuts by the first card, nodes before the cutting card, nodes
        at the cut nodes], as a flat list of 128."""
        cdef int64_t i, j
        nodes = [tuple((<uint64_t>self.c.log_buf[12 * i + j]) if j < 4 else self.c.log_buf[12 * i + j]
                       for j in range(12)) for i in range(self.c.log_n)]
        cuts = [self.c.log_cuts[i] for i in range(128)]
        levels = [(self.c.log_levels[2 * i], self.c.log_levels[2 * i + 1]) for i in range(16)]
        memset(self.c.log_cuts, 0, sizeof(self.c.log_cuts))
        memset(self.c.log_levels, 0, sizeof(self.c.log_levels))
        self.c.log_n = 0
        return nodes, levels, cuts

    def set_budget(self, int64_t nodes, double ms):
        """Start a budget: the searches that follow stop after ``nodes`` nodes or ``ms``."""
        cdef int i
        self._join()
        self.c.nodes = 0
        self.c.tt_hits = 0
        self.c.trick_nodes = 0
        self.c.wide_stores = 0
        self.c.wide_kept = 0
        self.c.wide_held = 0
        self.team.nodes = 0
        for i in range(self.team.n):
            self.team.counts[i] = 0
        self.c.node_limit = nodes
        self.c.deadline = now_s() + ms / 1000.0
        self.c.abort = 0

    @property
    def nodes(self):
        """Nodes searched since the budget was set, by every thread."""
        self._join()
        return self.c.nodes + self.team.nodes

    @property
    def thread_nodes(self):
        """The nodes of each thread since the budget was set, the calling one first."""
        self._join()
        return (self.c.nodes,) + tuple(self.team.counts[i] for i in range(self.team.n))

    @property
    def trick_nodes(self):
        """Nodes at a trick start since the budget was set (the nodes DDS counts)."""
        return self.c.trick_nodes

    @property
    def wide_width(self):
        """Since the budget was set: wide entries stored, and the cards they kept and
        the cards in hands, summed over the stores (how narrow the entries are; DDS's
        are compared in ext/README.md)."""
        return self.c.wide_stores, self.c.wide_kept, self.c.wide_held

    @property
    def tt_hits(self):
        """Transposition-table probes that found their key since the budget was set."""
        return self.c.tt_hits

    @property
    def to_move(self):
        """The seat on move at the root."""
        return self.c.st.to_move

    def legal(self):
        """The legal cards of the seat on move at the root, as a mask (a test hook)."""
        return legal_moves(&self.c.R, &self.c.st)

    def moves(self):
        """The legal cards at the root as {bit: representative bit}: equivalent cards
        share the lowest card of their class."""
        cdef int mv[16]
        cdef int rep[64]
        cdef int n = gen_moves(&self.c.R, &self.c.st, legal_moves(&self.c.R, &self.c.st), mv, rep,
                               NULL)
        cdef uint64_t legal = legal_moves(&self.c.R, &self.c.st)
        out = {}
        while legal:
            bit = low_bit(legal)
            legal &= legal - 1
            out[bit] = rep[bit]
        return out

    def bounds(self):
        """The quick bounds (lowest, highest) of the future value at the root."""
        return bound_lo(&self.c), bound_hi(&self.c)

    @property
    def proved(self):
        """(lowest, highest) future value the last ``value`` or ``child_value`` proved:
        equal when it finished, the narrowed range when it stopped at its budget."""
        return self.c.proved_lo, self.c.proved_hi

    cdef void _set_max(self, int maxmask):
        # The maximiser set, and the searches it implies: one seat gets the lone-seat
        # rules and exact entries; a side gathers relevant cards and keeps wide
        # entries (a used table is cleared when its kind of entry changes).
        cdef int wide
        self.c.maxmask = maxmask
        self.c.lone = popcount(<uint64_t>maxmask) == 1
        # the two sides of four seats take each other's points: the entries of one
        # serve the other (a table row's two sides, a strain's four leaders)
        self.c.flip = self.c.R.nseats == 4 and maxmask == 0b1010
        self.c.keymask = 0b0101 if self.c.flip else maxmask
        self.c.track = not self.c.lone
        wide = self.c.track and self.c.seq_ok
        cdef uint64_t half = self.c.tt_bytes // 2
        if wide != self.c.wide:
            # wide entries take the second half of the table's memory
            self._join()
            self.c.wide = wide
            if wide:
                self.c.bucket_mask = half // (4 * sizeof(TTEntry)) - 1
                self.c.wt = <WideBucket*>(<char*>self.c.tt + half)
                self.c.wide_buckets = half // sizeof(WideBucket)
            else:
                self.c.bucket_mask = self.c.tt_bytes // (4 * sizeof(TTEntry)) - 1
                self.c.wt = NULL
                self.c.wide_buckets = 0
            if self.used:
                # entries of the other layout, even of earlier epochs, must go (a
                # fresh table is already clear: clearing it would touch every page)
                tt_clear(&self.c)
                self.used = False

    cdef void _check(self):
        self.dirty = True
        self.used = True
        if self.c.abort:
            raise BudgetExceeded("nodes" if self.c.abort == 1 else "ms")

    def value(self, int maxmask, int guess, int part=1):
        """The exact future value of the seats in ``maxmask`` (bits) at the root,
        searched with 1/``part`` of what is left of the budget (``budget_left`` tells
        after a stop whether any of the rest remains)."""
        cdef int v
        cdef int64_t limit = self.c.node_limit
        cdef double end = self.c.deadline
        if not self.loaded:
            raise ValueError("no position loaded")
        if part < 1:
            raise ValueError("part below 1")
        self._set_max(maxmask)
        self.c.abort = 0
        with nogil:
            sub_budget(&self.c, limit, end, part)
            v = shared_mtd(&self.c, guess)
            self.c.node_limit = limit
            self.c.deadline = end
        self._check()
        return v

    @property
    def budget_left(self):
        """Whether the budget set last has nodes and time left."""
        return self.c.nodes < self.c.node_limit and now_s() <= self.c.deadline

    def child_value(self, int bit, int maxmask, int guess):
        """The exact future value (from the root) of ``maxmask`` after ``bit`` is played."""
        cdef Rules* R = &self.c.R
        cdef State* st = &self.c.st
        cdef int v, gain = 0, w
        if not self.loaded:
            raise ValueError("no position loaded")
        if not (legal_moves(R, st) >> bit) & 1:
            raise ValueError("card not legal at the root")
        self._set_max(maxmask)
        with nogil:
            play_card(R, st, bit)
            if st.count == R.nseats:
                gain = R.trick_points[st.tricks_done] + st.cur.tpts[st.count - 1]
                w = close_trick(R, st)
                if not (maxmask >> w) & 1:
                    gain = 0
                v = gain + shared_mtd(&self.c, guess - gain)
                self.c.proved_lo += gain
                self.c.proved_hi += gain
                reopen_trick(R, st)
            else:
                v = shared_mtd(&self.c, guess)
            unplay_card(st)
        self._check()
        return v

    def rollout_value(self, int bit, int maxmask, int horizon, int guess, int coalition=0):
        """The future value (from the root) of ``maxmask`` when ``bit`` is played, every
        seat then plays the simple player (``kingsolve.hints.play_preference``) until a
        trick starts with at most ``horizon`` tricks left, and the rest is searched.
        With ``coalition`` 1, the others of a lone seat play coalition_card instead;
        with 2, every seat plays guided_card (the value model's choice)."""
        cdef int v
        if not self.loaded:
            raise ValueError("no position loaded")
        if not (legal_moves(&self.c.R, &self.c.st) >> bit) & 1:
            raise ValueError("card not legal at the root")
        if horizon < 0:
            raise ValueError("horizon below 0")
        self._set_max(maxmask)
        self.c.coalition = coalition
        with nogil:
            v = rollout(&self.c, bit, horizon, guess)
        self.c.coalition = 0
        self._check()
        return v

    def set_model(self, ValueModel model):
        """Evaluate the estimating search's horizon with ``model`` (None: no model)."""
        self._join()
        self.model = model
        self.c.model = NULL if model is None else &model.m
        self.c.h_epoch += 1

    def features(self, int maxmask):
        """The value model's inputs at the root, a trick start, for the seats of
        ``maxmask``: NF floats (eval_features), or None when no points are left."""
        cdef float x[NF]
        cdef int i
        if not self.loaded:
            raise ValueError("no position loaded")
        if self.c.st.count:
            raise ValueError("features are made at trick starts only")
        self._set_max(maxmask)
        i = eval_features(&self.c, x)
        if i < 0:
            return None
        return [x[i] for i in range(NF)]

    def suit_games(self, int maxmask):
        """Per suit, whether the lone seat ``maxmask`` survives the suit's safety game
        (suit_game, every other seat leading): the value model's input (a test hook)."""
        cdef int P = low_bit(<uint64_t>maxmask), s
        if not self.loaded:
            raise ValueError("no position loaded")
        self._set_max(maxmask)
        return [bool(suit_game(&self.c, P, s, in_hands(&self.c.st), others_in_play(&self.c, P)))
                for s in range(4)]

    def estimate(self, int maxmask, int depth, int bit=-1):
        """The estimating search's value of ``maxmask``'s future points from the root
        (with ``bit`` played first, if given): exact for the tricks until ``depth``
        tricks after the root's trick are done, the value model's from there
        (core_eval.pxi, hsearch)."""
        cdef double v
        if not self.loaded:
            raise ValueError("no position loaded")
        if self.c.model == NULL:
            raise ValueError("no value model set")
        if bit >= 0 and not (legal_moves(&self.c.R, &self.c.st) >> bit) & 1:
            raise ValueError("card not legal at the root")
        if depth < 0:
            raise ValueError("depth below 0")
        if self.c.ht == NULL:
            self.c.ht = <HEntry*>calloc(1 << 17, sizeof(HEntry))
            if self.c.ht == NULL:
                raise MemoryError("cannot allocate the estimating search's table")
            self.c.ht_mask = (1 << 17) - 1
        self._join()
        self._set_max(maxmask)
        self.c.abort = 0
        with nogil:
            v = h_root(&self.c, bit, depth)
        self.dirty = True
        self.used = True
        if self.c.abort:
            raise BudgetExceeded("nodes" if self.c.abort == 1 else "ms")
        return v

    def policy(self):
        """The simple player's card at the root (a test hook for policy_card)."""
        return policy_card(&self.c.R, &self.c.st, contract_positive(&self.c.R))

    def lone_safe(self, int maxmask):
        """Whether the lone seat ``maxmask`` can lose every remaining trick by the
        rules the search uses (a test hook; no trump, no overtaking): lone_safe at a
        trick start or once that seat's card is beaten, lone_safe_led right after
        another hand's lead, else False."""
        if not self.loaded:
            raise ValueError("no position loaded")
        self._set_max(maxmask)
        return bool(lone_safe_mid(&self.c) if self.c.st.count else lone_safe(&self.c))

    def probe(self, int maxmask, int alpha, int beta):
        """One fail-soft alpha-beta search at the root in the window (alpha, beta):
        a value <= alpha is an upper bound, >= beta a lower bound (a diagnostic)."""
        cdef int v
        cdef uint64_t rel
        if not self.loaded:
            raise ValueError("no position loaded")
        self._set_max(maxmask)
        with nogil:
            v = search(&self.c, alpha, beta, &rel)
        self._check()
        return v

    def torn_entry(self, uint64_t key_a, int lo_a, uint64_t key_b, int lo_b):
        """A test hook for the shared table: an entry of ``key_a`` written to a slot,
        then one of ``key_b`` over it halfway (its second word only, as a racing
        store leaves it), then whole. Returns the key the slot reads as after each
        write (0 for none of the two) and the bound read with the last."""
        cdef TTEntry a, b, got
        cdef TTEntry* slot = tt_bucket(&self.c, key_a)
        cdef uint64_t w1
        cdef list out = []
        memset(&a, 0, sizeof(TTEntry))
        memset(&b, 0, sizeof(TTEntry))
        a.key = key_a
        a.lo = <int16_t>lo_a
        b.key = key_b
        b.lo = <int16_t>lo_b
        tt_write(slot, &a)
        out.append(tt_read(slot, &got))
        memcpy(&w1, <char*>&b + 8, 8)
        ks_store64(<uint64_t*>slot + 1, w1)
        out.append(tt_read(slot, &got))
        tt_write(slot, &b)
        out.append(tt_read(slot, &got))
        return [k if k in (key_a, key_b) else 0 for k in out] + [got.lo]
