# The transposition table (included by _core.pyx).
#
# Entries are stored at trick starts only and hold bounds of the *future* value of
# the maximiser set (points still to come), never of points already taken. The key
# is exact: within one root the deal is fixed, so a trick start is determined by
# the cards still in hands and the leader. Cards are taken by relative rank: each
# suit's holding maps to the id of its pattern (owner and class of each remaining
# card, high to low), so positions that differ only in which equal-looking cards
# are gone share an entry (as DDS does with relative ranks). Suits broken, the
# trick number and protections follow from the counts, which the pattern fixes.
# Each entry also keeps which top cards of each suit its bounds depend on, so the
# search's relevant cards (see search() in _core.pyx) stay exact through a hit.

from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset


cdef int build_patterns(Search* c, uint64_t root_cards) noexcept nogil:
    # Fill c.pid for every subset of the root's cards of each suit. Returns -1 on
    # allocation failure.
    cdef int ncls = c.R.ncls
    cdef int nsym = 4 * ncls
    cdef int* intern = <int*>malloc(nsym * 8192 * sizeof(int))
    cdef uint16_t* sub_id = <uint16_t*>malloc(8192 * sizeof(uint16_t))
    cdef uint16_t* sub_lane = <uint16_t*>malloc(8192 * sizeof(uint16_t))
    cdef int owner[16]
    cdef int rank[16]
    cdef int s, m, i, seat, r, sub, rest, sym, k, next_id
    cdef uint64_t bit
    if intern == NULL or sub_id == NULL or sub_lane == NULL:
        free(intern)
        free(sub_id)
        free(sub_lane)
        return -1
    for s in range(4):
        m = 0
        for r in range(15, -1, -1):
            bit = (<uint64_t>1) << (16 * s + r)
            if root_cards & bit:
                for seat in range(4):
                    if c.st.hands[seat] & bit:
                        owner[m] = seat
                rank[m] = r
                m += 1
        memset(intern, 0xFF, nsym * 8192 * sizeof(int))
        sub_id[0] = 0
        sub_lane[0] = 0
        c.pid[s * 32768] = 0
        next_id = 1
        for sub in range(1, 1 << m):
            i = __builtin_ctz(sub)
            rest = sub & (sub - 1)
            sym = owner[i] * ncls + c.R.cls[16 * s + rank[i]]
            k = sym * 8192 + sub_id[rest]
            if intern[k] < 0:
                intern[k] = next_id
                next_id += 1
            sub_id[sub] = <uint16_t>intern[k]
            sub_lane[sub] = sub_lane[rest] | <uint16_t>(1 << rank[i])
            c.pid[s * 32768 + sub_lane[sub]] = sub_id[sub]
    free(intern)
    free(sub_id)
    free(sub_lane)
    return 0


cdef inline uint64_t tt_key(Search* c) noexcept nogil:
    cdef uint64_t held = in_hands(&c.st)
    cdef uint16_t* pid = c.pid
    return (<uint64_t>pid[(held >> 0) & 0x7FFF]
            | (<uint64_t>pid[32768 + ((held >> 16) & 0x7FFF)]) << 13
            | (<uint64_t>pid[65536 + ((held >> 32) & 0x7FFF)]) << 26
            | (<uint64_t>pid[98304 + ((held >> 48) & 0x7FFF)]) << 39
            | (<uint64_t>c.st.to_move) << 52
            | (<uint64_t>c.maxmask) << 54)


cdef inline uint64_t top_of(uint64_t held, int s, int k) noexcept nogil:
    # the k highest cards of suit s in hands
    cdef uint64_t lane = held & lane_of(s)
    cdef int drop = popcount(lane) - k
    while drop > 0:
        lane &= lane - 1
        drop -= 1
    return lane


cdef inline TTEntry* tt_bucket(Search* c, uint64_t key) noexcept nogil:
    cdef uint64_t h = key * <uint64_t>0x9E3779B97F4A7C15
    h ^= h >> 29
    return c.tt + 4 * (h & c.bucket_mask)


cdef void tt_clear(Search* c) noexcept nogil:
    memset(c.tt, 0, (c.bucket_mask + 1) * 4 * sizeof(TTEntry))


cdef inline TTEntry* tt_probe(Search* c, uint64_t key) noexcept nogil:
    cdef TTEntry* b = tt_bucket(c, key)
    cdef int i
    for i in range(4):
        if b[i].key == key:
            c.tt_hits += 1
            return &b[i]
    return NULL


cdef inline uint64_t entry_cards(State* st, TTEntry* e) noexcept nogil:
    # the cards an entry's bounds depend on: the top k cards of each suit
    cdef uint64_t held = in_hands(st)
    return (top_of(held, 0, e.kpack & 15) | top_of(held, 1, (e.kpack >> 4) & 15)
            | top_of(held, 2, (e.kpack >> 8) & 15) | top_of(held, 3, (e.kpack >> 12) & 15))


cdef void tt_store(Search* c, uint64_t key, uint64_t rel, int lo, int hi, int move,
                   int64_t work) noexcept nogil:
    # Merge bounds into the key's entry, or replace: slots 0-2 keep the entries whose
    # search took the most nodes (`work`, kept as its log2), slot 3 always takes what
    # the others refuse. The entry keeps, per
    # suit, how many top cards its bounds depend on (down to the lowest relevant
    # card, special classes included), so a hit reports them to its parents.
    cdef uint64_t held = in_hands(&c.st)
    cdef uint64_t lane, r
    cdef int s, i, victim = -1, kpack = 0
    cdef int n = high_bit(<uint64_t>work | 1)
    cdef TTEntry* b = tt_bucket(c, key)
    cdef TTEntry* e = NULL
    rel = (rel | c.special) & held
    for s in range(4):
        lane = held & lane_of(s)
        r = rel & lane
        if r:
            kpack |= popcount(lane & ~((((<uint64_t>1) << low_bit(r))) - 1)) << (4 * s)
    for i in range(4):
        if b[i].key == key:
            e = &b[i]
            if e.lo > lo:
                lo = e.lo
            if e.hi < hi:
                hi = e.hi
            if move == 255:
                move = e.move
            if n > e.depth:
                e.depth = <uint8_t>n
            # the merged bounds depend on what both searches depended on
            for s in range(4):
                if ((e.kpack >> (4 * s)) & 15) > ((kpack >> (4 * s)) & 15):
                    kpack = (kpack & ~(15 << (4 * s))) | (e.kpack & (15 << (4 * s)))
            break
    if e == NULL:
        for i in range(3):
            if b[i].key == 0:
                victim = i
                break
            if victim < 0 or b[i].depth < b[victim].depth:
                victim = i
        if b[victim].key != 0 and b[victim].depth > n:
            victim = 3
        elif b[victim].key != 0:
            b[3] = b[victim]
        e = &b[victim]
        e.key = key
        e.depth = <uint8_t>n
    e.lo = <int16_t>lo
    e.hi = <int16_t>hi
    e.move = <uint8_t>move
    e.kpack = <uint16_t>kpack


cdef inline int encode_move(State* st, int bit) noexcept nogil:
    cdef uint64_t held = in_hands(st) | st.trick_mask
    return (bit & 0xF0) | popcount(held & above(bit))


cdef inline int decode_move(State* st, int code) noexcept nogil:
    # the card of suit code >> 4 with code & 15 cards above it (-1 if none)
    cdef uint64_t lane
    cdef int k
    if code == 255:
        return -1
    lane = in_hands(st) & lane_of(code >> 4)
    k = code & 15
    while lane and k:
        lane &= ~((<uint64_t>1) << high_bit(lane))
        k -= 1
    if not lane:
        return -1
    return high_bit(lane)
