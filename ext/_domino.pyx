# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The compiled domino search (docs/rules.md 9 and 11): paranoid alpha-beta, no Python inside.

Private to ``kingsolve.search.domino_solver``, which converts positions and results. Card bits
here put the ace *below* the two (bit 1 of its suit's lane, ``16 * suit + place``,
place A=1 .. K=13), so the cards next to a suit's run are its run shifted by one.
The state is the cards down (``played``) and the seat to move: the hands follow.
Values are the searching seat's final score times ``scale`` (12 for the shared win,
so every share of the losers' cards is an integer).

The transposition table lives for one ``solve`` call, so what is fixed within it (the
opener, hence the seat that ends a round) needs no room in the key; the key is the cards
down, the seat to move and the searching seat. Positions after a seat went out (the
round being completed, at most three turns) are searched without the table, so the key
never needs the seats out.
"""

from libc.stdint cimport int16_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

cdef extern from *:
    int popcount "__builtin_popcountll"(unsigned long long) nogil
    int ctz "__builtin_ctzll"(unsigned long long) nogil
    int clz "__builtin_clzll"(unsigned long long) nogil

cdef enum:
    BUCKET = 4          # entries per table bucket (one 64-byte cache line)
    INF = 30000         # beyond every score (scores are within +-39 * 12)
    MAX_MOVES = 16

# The four sevens, and the bits that are real cards (places 1..13 of each lane).
cdef uint64_t SEVENS = (1ULL << 7) | (1ULL << 23) | (1ULL << 39) | (1ULL << 55)
cdef uint64_t VALID = 0x3FFE3FFE3FFE3FFEULL
# Bits that are never cards, used to pack the seats into a table key.
cdef uint64_t KEY_USED = 1ULL << 47


cdef struct Entry:
    uint64_t key        # played | seat to move (bits 0, 15) | searching seat (16, 31) | bit 47; 0 = empty
    int16_t lower       # the value is at least this
    int16_t upper       # the value is at most this
    uint8_t move        # best card bit + 1 found at this node, 0 = none
    uint8_t work        # log2 of the nodes searched below: low work is replaced first
    uint8_t gen         # the search (seat) that stored it: older searches are replaced first


cdef struct Core:
    uint64_t hand[4]        # cards each seat still holds
    uint64_t played         # cards down on the table
    uint64_t first_mask     # the cards that may open the hand: the sevens, or D7
    int direction           # +1 clockwise, -1 counterclockwise
    int last                # the seat before the opener: its turn ends a round
    int scale               # 1 (single winner) or 12 (shared win)
    int shared              # 1 when the round is completed after a seat goes out
    int P                   # the seat whose paranoid value is searched
    Entry* tt               # the transposition table, n_buckets * BUCKET entries
    uint64_t bucket_mask    # n_buckets - 1 (a power of two)
    int64_t nodes           # nodes visited so far
    int64_t node_limit      # stop past this many nodes
    double deadline         # stop past this monotonic time (seconds)
    int aborted             # set once a limit is passed: the search unwinds
    int gen                 # the current search's generation, stamped on stored entries


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline int next_seat(Core* c, int seat) noexcept nogil:
    return (seat + c.direction) & 3


cdef inline uint64_t playable(Core* c) noexcept nogil:
    """The cards that may be added now, whoever holds them (docs/rules.md 9)."""
    cdef uint64_t p = c.played
    if p == 0:
        return c.first_mask
    return ((((p << 1) | (p >> 1)) & ~p) | (SEVENS & ~p)) & VALID


cdef inline int next_mover(Core* c, int seat) noexcept nogil:
    """The next seat after ``seat`` holding a legal card (the others pass), or -1."""
    cdef uint64_t pl = playable(c)
    cdef int s = seat
    cdef int k
    for k in range(4):
        s = next_seat(c, s)
        if c.hand[s] & pl:
            return s
    return -1


cdef inline int evaluate(Core* c, int winners) noexcept nogil:
    """The searching seat's final score, scaled: winners share the losers' cards."""
    cdef int losers_cards = 0
    cdef int s
    for s in range(4):
        if not (winners >> s) & 1:
            losers_cards += popcount(c.hand[s])
    if (winners >> c.P) & 1:
        return c.scale * losers_cards // popcount(winners)
    return -c.scale * popcount(c.hand[c.P])


cdef inline void check_limits(Core* c) noexcept nogil:
    if c.nodes > c.node_limit or now() > c.deadline:
        c.aborted = 1


cdef int after_move(Core* c, int seat, int winners, int alpha, int beta) noexcept nogil:
    """The value once ``seat`` has played (the card is already applied)."""
    cdef int nxt
    if winners == 0 and c.hand[seat] != 0:
        nxt = next_mover(c, seat)
        if nxt < 0:
            return evaluate(c, 0)      # unreachable: some seat can always play
        return search(c, nxt, alpha, beta)
    if c.hand[seat] == 0:
        winners |= 1 << seat
    if not c.shared or seat == c.last:
        return evaluate(c, winners)
    return completion(c, next_seat(c, seat), winners, alpha, beta)


cdef int completion(Core* c, int seat, int winners, int alpha, int beta) noexcept nogil:
    """The rest of the round after a seat went out (shared win): turns up to ``last``."""
    cdef uint64_t pl = playable(c)
    cdef uint64_t legal, m
    cdef int b, v, best, maximizing
    c.nodes += 1
    while not (c.hand[seat] & pl):
        if seat == c.last:
            return evaluate(c, winners)
        seat = next_seat(c, seat)
    legal = c.hand[seat] & pl
    maximizing = seat == c.P
    best = -INF if maximizing else INF
    while legal:
        b = ctz(legal)
        m = 1ULL << b
        legal ^= m
        c.hand[seat] ^= m
        c.played ^= m
        v = after_move(c, seat, winners, alpha, beta)
        c.hand[seat] ^= m
        c.played ^= m
        if maximizing:
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
        else:
            if v < best:
                best = v
                if v < beta:
                    beta = v
        if alpha >= beta:
            break
    return best


cdef inline int holder_of(Core* c, uint64_t m) noexcept nogil:
    cdef int s
    for s in range(4):
        if c.hand[s] & m:
            return s
    return -1


cdef int order_score(Core* c, int seat, int b) noexcept nogil:
    """How promising playing card ``b`` looks for ``seat`` (higher first)."""
    cdef int place = b & 15
    cdef int score = 0
    cdef int h, k
    cdef uint64_t n
    cdef uint64_t lane = 0x3FFEULL << (b & ~15)
    cdef uint64_t own = c.hand[seat] & lane
    if c.hand[seat] == (1ULL << b):
        return 500             # the seat's last card: going out ends the hand or the round
    # the cards this one makes playable, and who holds them
    for k in range(2):
        if place == 7:
            n = (1ULL << (b - 1)) if k == 0 else (1ULL << (b + 1))
        elif k == 1:
            break
        elif place < 7:
            n = 1ULL << (b - 1)
        else:
            n = 1ULL << (b + 1)
        n &= VALID
        if not n:
            continue
        h = holder_of(c, n)
        if h < 0:
            continue
        if h == seat:
            score += 4
        elif seat == c.P or h == c.P:
            score -= 3
        else:
            score += 1
    # own cards further along this end of the suit are freed by playing toward them
    if place < 7:
        score += popcount(own & ((1ULL << b) - 1))
    elif place > 7:
        score += popcount(own & ~((2ULL << b) - 1))
    else:
        score += popcount(own)
    return score


cdef int search(Core* c, int seat, int alpha, int beta) noexcept nogil:
    """Paranoid alpha-beta (fail-soft): the searching seat maximises, the rest minimise."""
    cdef int P = c.P
    cdef int cnt_p, total, lo_b, hi_b, i, j, n, v, best, best_move, maximizing, tt_move
    cdef int alpha0, beta0, score_tmp, move_tmp
    cdef uint64_t key, legal, m
    cdef uint64_t idx
    cdef Entry* bucket
    cdef Entry* e
    cdef Entry* victim
    cdef int moves[MAX_MOVES]
    cdef int scores[MAX_MOVES]
    cdef int64_t nodes0 = c.nodes
    cdef int work

    c.nodes += 1
    if (c.nodes & 4095) == 0:
        check_limits(c)
    if c.aborted:
        return 0
    cnt_p = popcount(c.hand[P])
    total = popcount(c.hand[0]) + popcount(c.hand[1]) + popcount(c.hand[2]) + popcount(c.hand[3])
    hi_b = (total - cnt_p) * c.scale
    lo_b = -cnt_p * c.scale
    if hi_b <= alpha:
        return hi_b
    if lo_b >= beta:
        return lo_b

    key = c.played | KEY_USED | <uint64_t>(seat & 1) | (<uint64_t>(seat >> 1) << 15) \
        | (<uint64_t>(P & 1) << 16) | (<uint64_t>(P >> 1) << 31)
    idx = ((key * 0x9E3779B97F4A7C15ULL) >> 32) & c.bucket_mask
    bucket = c.tt + idx * BUCKET
    e = NULL
    tt_move = -1
    for i in range(BUCKET):
        if bucket[i].key == key:
            e = &bucket[i]
            break
    if e != NULL:
        if e.lower >= beta:
            return e.lower
        if e.upper <= alpha:
            return e.upper
        if e.lower == e.upper:
            return e.lower
        if e.lower > alpha:
            alpha = e.lower
        if e.upper < beta:
            beta = e.upper
        tt_move = <int>e.move - 1
    alpha0 = alpha
    beta0 = beta

    legal = c.hand[seat] & playable(c)
    if not c.shared and legal == c.hand[seat] and popcount(legal) == 1:
        # the mover goes out and wins alone: the best the searcher or the worst for it
        return hi_b if seat == P else lo_b
    n = 0
    while legal:
        i = ctz(legal)
        legal &= legal - 1
        moves[n] = i
        scores[n] = 1000 if i == tt_move else order_score(c, seat, i)
        n += 1
    # insertion sort, best first
    for i in range(1, n):
        score_tmp = scores[i]
        move_tmp = moves[i]
        j = i - 1
        while j >= 0 and scores[j] < score_tmp:
            scores[j + 1] = scores[j]
            moves[j + 1] = moves[j]
            j -= 1
        scores[j + 1] = score_tmp
        moves[j + 1] = move_tmp

    maximizing = seat == P
    best = -INF if maximizing else INF
    best_move = moves[0]
    for i in range(n):
        m = 1ULL << moves[i]
        c.hand[seat] ^= m
        c.played ^= m
        v = after_move(c, seat, 0, alpha, beta)
        c.hand[seat] ^= m
        c.played ^= m
        if c.aborted:
            return 0
        if maximizing:
            if v > best:
                best = v
                best_move = moves[i]
                if v > alpha:
                    alpha = v
        else:
            if v < best:
                best = v
                best_move = moves[i]
                if v < beta:
                    beta = v
        if alpha >= beta:
            break

    # store: a bound on each side the window failed, exact inside it
    work = 63 - clz(<unsigned long long>(c.nodes - nodes0) | 1)
    if e == NULL or e.key != key:
        # replace an empty entry, else one of an older search, else the least work
        victim = &bucket[0]
        for i in range(BUCKET):
            if bucket[i].key == key or bucket[i].key == 0:
                victim = &bucket[i]
                break
            if (bucket[i].gen != c.gen) > (victim.gen != c.gen) or \
                    ((bucket[i].gen != c.gen) == (victim.gen != c.gen) and bucket[i].work < victim.work):
                victim = &bucket[i]
        if victim.key != key:
            victim.key = key
            victim.lower = -INF
            victim.upper = INF
            victim.work = 0
        e = victim
    if best <= alpha0:
        if best < e.upper:
            e.upper = best
    elif best >= beta0:
        if best > e.lower:
            e.lower = best
    else:
        e.lower = best
        e.upper = best
    e.move = <uint8_t>(best_move + 1)
    e.gen = <uint8_t>c.gen
    if work > e.work:
        e.work = <uint8_t>work
    return best


cdef int window_value(Core* c, int mode, int seat, int winners, int alpha, int beta) noexcept nogil:
    """The root's value in a window: after ``seat``'s card (mode 0), with ``seat`` to move
    (mode 1), or with ``seat`` to move while a round is completed (mode 2)."""
    if mode == 0:
        return after_move(c, seat, winners, alpha, beta)
    if mode == 1:
        return search(c, seat, alpha, beta)
    return completion(c, seat, winners, alpha, beta)


cdef int mtdf(Core* c, int mode, int seat, int winners, int guess) noexcept nogil:
    """The exact value by null-window tests that close in on it (MTD(f)); the table
    keeps the bounds each test proves, so the later tests are cheap."""
    cdef int lower = -INF
    cdef int upper = INF
    cdef int g = guess
    cdef int beta
    while lower < upper and not c.aborted:
        beta = g + 1 if g == lower else g
        g = window_value(c, mode, seat, winners, beta - 1, beta)
        if g < beta:
            upper = g
        else:
            lower = g
    return g


def solve(tuple hands, uint64_t played, uint64_t first_mask, int mover, int last, int direction,
          int scale, int out_mask, list wanted, int64_t node_limit, double ms, int tt_mb):
    """Search a position: ``(status, values, card_values, nodes)``.

    ``hands``: the four hands (core bit layout); ``mover``: the seat on move, which holds a
    legal card; ``out_mask``: seats already out (the round is being completed).
    ``values[s]`` (scaled) for each seat of ``wanted`` other than the mover;
    ``card_values``: (card bit, scaled value for the mover) per legal card.
    ``status`` is 0, or 1 when a node or time limit stopped the search.
    """
    cdef Core c
    cdef int s, b, v
    cdef int guess = -3 * scale
    cdef uint64_t legal, m, n_buckets
    cdef list values = [None, None, None, None]
    cdef list card_values = []
    cdef int want[4]
    for s in range(4):
        want[s] = 1 if s in wanted else 0
    for s in range(4):
        c.hand[s] = hands[s]
    c.played = played
    c.first_mask = first_mask
    c.direction = 1 if direction >= 0 else -1
    c.last = last
    c.scale = scale
    c.shared = 1 if scale != 1 else 0
    c.nodes = 0
    c.node_limit = node_limit
    c.deadline = now() + ms / 1000.0
    c.aborted = 0
    n_buckets = 1024
    while n_buckets * 2 * BUCKET * sizeof(Entry) <= (<uint64_t>max(tt_mb, 0)) << 20:
        n_buckets *= 2
    c.bucket_mask = n_buckets - 1
    c.tt = <Entry*>calloc(n_buckets * BUCKET, sizeof(Entry))
    if c.tt == NULL:
        raise MemoryError("cannot allocate the domino transposition table")
    try:
        with nogil:
            c.P = mover
            c.gen = 1
            legal = c.hand[mover] & playable(&c)
            while legal and not c.aborted:
                b = ctz(legal)
                m = 1ULL << b
                legal ^= m
                c.hand[mover] ^= m
                c.played ^= m
                v = mtdf(&c, 0, mover, out_mask, guess)
                guess = v
                c.hand[mover] ^= m
                c.played ^= m
                with gil:
                    card_values.append((b, v))
            for s in range(4):
                if c.aborted:
                    break
                if s == mover or not want[s]:
                    continue
                c.P = s
                c.gen += 1
                v = mtdf(&c, 2 if out_mask else 1, mover, out_mask, -3 * scale)
                with gil:
                    values[s] = v
    finally:
        free(c.tt)
    return (1 if c.aborted else 0), values, card_values, c.nodes
