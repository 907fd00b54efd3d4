# The transposition table (included by _core.pyx).
#
# Entries are stored at trick starts only and hold bounds of the *future* value of
# the maximiser set (points still to come), never of points already taken. The key
# is exact: within one root the deal is fixed, so a trick start is determined by
# the cards still in hands and the leader. Cards are taken by relative rank: each
# suit's holding maps to the id of its pattern (owner and class of each remaining
# card, high to low), so positions that differ only in which equal-looking cards
# are gone share an entry (as DDS does with relative ranks). Suits broken, the
# trick number and protections follow from the counts, which the pattern fixes; a
# suit broken by a discard only (Rules.broken_by_discard) does not, so its state
# takes the key's top bit.
# Each entry also keeps which top cards of each suit its bounds depend on, so the
# search's relevant cards (see search() in core_search.pxi) stay exact through a hit.

from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy, memset


cdef int patterns_reset(Search* c, uint64_t* owners) noexcept nogil:
    # Starts the patterns of a deal (`owners`: each seat's cards at the start of the
    # hand, or the root's): every suit lane unknown (pid 0xFFFF) but the empty one,
    # each card's symbol ready for pattern_fill. Returns -1 on allocation failure.
    cdef PatternScratch* w = c.patterns
    cdef int ncls = c.R.ncls
    cdef int nsym = 4 * ncls
    cdef int s, seat, b, cl
    cdef int* intern
    cdef uint32_t* stamp
    if nsym > w.nsym:
        intern = <int*>malloc(4 * nsym * 8192 * sizeof(int))
        stamp = <uint32_t*>calloc(4 * nsym * 8192, sizeof(uint32_t))
        if intern == NULL or stamp == NULL:
            free(intern)
            free(stamp)
            return -1
        free(w.intern)
        free(w.stamp)
        w.intern, w.stamp, w.nsym = intern, stamp, nsym
        memset(w.gen, 0, sizeof(w.gen))
    # the wide entries have no room for the state of a suit broken by a discard
    c.seq_ok = ncls <= 4 and not c.R.broken_by_discard
    w.cards = owners[0] | owners[1] | owners[2] | owners[3]
    for seat in range(4):
        for b in range(64):
            if (owners[seat] >> b) & 1:
                cl = c.R.cls[b]
                w.row[b] = (((b >> 4) * w.nsym) + seat * ncls + cl) * 8192
                w.top[b] = (<uint64_t>(seat * 4 + (cl & 3))) << 60
    for s in range(4):
        # a new generation empties the suit's intern rows (all of them once in 2^32)
        w.gen[s] += 1
        if w.gen[s] == 0:
            memset(w.stamp, 0, 4 * w.nsym * 8192 * sizeof(uint32_t))
            w.gen[0] = w.gen[1] = w.gen[2] = w.gen[3] = 1
        w.next_id[s] = 1
    memset(c.pid, 0xFF, 4 * 32768 * sizeof(uint16_t))
    for s in range(4):
        c.pid[s * 32768] = 0
        c.seqtab[s * 8192] = 0
        c.lenstab[s * 8192] = 0
    w.complete = 0
    return 0


cdef uint16_t pattern_fill(Search* c, int s, uint32_t lane) noexcept nogil:
    # The pattern id of suit s's holding `lane` (rank bits), made and kept with its
    # sequence (seqtab), its hand lengths (lenstab) and those of its lower parts: from
    # the lowest card up, each part is the one before plus a card above it all, so
    # its id is the interned pair (that card's owner and class, the id before), as for
    # a holding high card first.
    cdef PatternScratch* w = c.patterns
    cdef uint16_t* pid = c.pid + s * 32768
    cdef uint64_t* seqtab = c.seqtab + s * 8192
    cdef uint64_t* lenstab = c.lenstab + s * 8192
    cdef uint32_t part = 0, todo = lane, gen = w.gen[s]
    cdef uint64_t seq = 0, lens = 0
    cdef int r, k, b, id = 0
    while todo:
        r = __builtin_ctz(todo)
        todo &= todo - 1
        part |= (<uint32_t>1) << r
        if pid[part] != 0xFFFF:
            id = pid[part]
            seq = seqtab[part >> 2]
            lens = lenstab[part >> 2]
            continue
        b = 16 * s + r
        k = w.row[b] + id
        if w.stamp[k] != gen:
            w.stamp[k] = gen
            w.intern[k] = w.next_id[s]
            w.next_id[s] += 1
        id = w.intern[k]
        seq = w.top[b] | (seq >> 4)
        seqtab[part >> 2] = seq
        # one more card for its holder (the top 2 bits of its symbol)
        lens += (<uint64_t>1) << (4 * (15 - 4 * <int>(w.top[b] >> 62) - s))
        lenstab[part >> 2] = lens
        pid[part] = <uint16_t>id
    return <uint16_t>id


cdef inline uint32_t suit_lane(uint64_t held, int s) noexcept nogil:
    # the rank bits of suit s in `held`: the index of its holding in pid
    return <uint32_t>((held >> (16 * s)) & 0x7FFF)


cdef inline uint16_t pid_of(Search* c, int s, uint32_t lane) noexcept nogil:
    # the pattern id of suit s's holding `lane`, made with its sequence if not yet made
    cdef uint16_t p = c.pid[s * 32768 + lane]
    if p == 0xFFFF:
        p = pattern_fill(c, s, lane)
    return p


cdef void patterns_complete(Search* c) noexcept nogil:
    # Every holding of the deal's suits its id, before threads share the tables (a
    # fill is not safe for two threads at once).
    cdef PatternScratch* w = c.patterns
    cdef uint32_t full, sub
    cdef int s
    if w.complete:
        return
    for s in range(4):
        full = suit_lane(w.cards, s)
        sub = full
        while sub:                        # every nonempty subset of the suit's cards
            pid_of(c, s, sub)
            sub = (sub - 1) & full
    w.complete = 1


cdef inline uint64_t tt_key(Search* c, Node* nd) noexcept nogil:
    # The exact table's key of the position (a trick start); for the wide table
    # (c.wide, nd not NULL) also, from the same holdings, each suit's owner-and-class
    # sequence with the leader, maximiser set and epoch (nd.ps) and the hand lengths,
    # 4 bits per seat and suit, seat-major (nd.wlen), read rather than counted.
    cdef uint64_t held = in_hands(&c.st), lens = 0
    cdef uint64_t key = ((<uint64_t>c.st.to_move) << 52 | (<uint64_t>c.keymask) << 54
                         | c.epoch << 58
                         | (<uint64_t>((c.st.broken & c.R.broken_lanes) != 0)) << 63)
    cdef uint32_t lane
    cdef int s
    cdef bint wide = c.wide and nd != NULL
    for s in range(4):
        lane = suit_lane(held, s)
        key |= (<uint64_t>pid_of(c, s, lane)) << (13 * s)
        if wide:
            nd.ps[s] = c.seqtab[s * 8192 + (lane >> 2)]
            lens |= c.lenstab[s * 8192 + (lane >> 2)]
    if wide:
        nd.ps[0] |= 0x800 | (c.epoch << 6) | (<uint64_t>c.keymask << 2) | <uint64_t>c.st.to_move
        nd.wlen = lens
    return key


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
    memset(c.tt, 0, c.tt_bytes)


cdef inline uint64_t scramble(uint64_t w) noexcept nogil:
    # a bijection of 64-bit words that spreads every bit over all (0 stays 0)
    w *= <uint64_t>0x9E3779B97F4A7C15
    return w ^ (w >> 32)


cdef inline uint64_t tt_read(TTEntry* slot, TTEntry* out) noexcept nogil:
    # A slot copied to `out` with its key decoded, returned. The table may be shared
    # by threads (a core and its helpers): each word is read once, whole, and the
    # first word holds the key xor the second scrambled, so a slot another thread
    # is rewriting (one word old, one new) decodes to an unrelated 64-bit word: a
    # miss, but for a chance of about 2^-64 per such read.
    cdef uint64_t w0 = ks_load64(<uint64_t*>slot)
    cdef uint64_t w1 = ks_load64(<uint64_t*>slot + 1)
    memcpy(<char*>out + 8, &w1, 8)
    out.key = w0 ^ scramble(w1)
    return out.key


cdef inline void tt_write(TTEntry* slot, TTEntry* e) noexcept nogil:
    # `e` written to the slot as two whole words: its fields, and its key xor them
    # scrambled
    cdef uint64_t w1
    memcpy(&w1, <char*>e + 8, 8)
    ks_store64(<uint64_t*>slot + 1, w1)
    ks_store64(<uint64_t*>slot, e.key ^ scramble(w1))


cdef inline TTEntry* tt_probe(Search* c, uint64_t key, TTEntry* out) noexcept nogil:
    # the key's entry copied to `out` (a copy: another thread may rewrite the slot),
    # or NULL
    cdef TTEntry* b = tt_bucket(c, key)
    cdef uint64_t w0, w1
    cdef int i
    for i in range(4):
        # tt_read, copying on a match only
        w0 = ks_load64(<uint64_t*>&b[i])
        w1 = ks_load64(<uint64_t*>&b[i] + 1)
        if (w0 ^ scramble(w1)) == key:
            out.key = key
            memcpy(<char*>out + 8, &w1, 8)
            c.tt_hits += 1
            return out
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
    # card, special classes included), so a hit reports them to its parents. The
    # bucket is read once into a copy and the slots written whole (tt_read): a store
    # racing another thread's may lose one of the two, never mix them.
    cdef uint64_t held = in_hands(&c.st)
    cdef uint64_t lane, r
    cdef int s, i, victim = -1, kpack = 0
    cdef int n = high_bit(<uint64_t>work | 1)
    cdef TTEntry* b = tt_bucket(c, key)
    cdef TTEntry cur[4]
    cdef TTEntry* e = NULL
    rel = (rel | c.special) & held
    for s in range(4):
        lane = held & lane_of(s)
        r = rel & lane
        if r:
            kpack |= popcount(lane & ~((((<uint64_t>1) << low_bit(r))) - 1)) << (4 * s)
    for i in range(4):
        tt_read(&b[i], &cur[i])
    for i in range(4):
        if cur[i].key == key:
            e = &cur[i]
            victim = i
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
            if ((cur[i].key >> 58) & 31) != c.epoch:
                victim = i
                break
            if victim < 0 or cur[i].depth < cur[victim].depth:
                victim = i
        if ((cur[victim].key >> 58) & 31) == c.epoch:
            if cur[victim].depth > n:
                victim = 3
            else:
                tt_write(&b[3], &cur[victim])
        e = &cur[victim]
        e.key = key
        e.depth = <uint8_t>n
    e.lo = <int16_t>lo
    e.hi = <int16_t>hi
    e.move = <uint8_t>move
    e.kpack = <uint16_t>kpack
    tt_write(&b[victim], e)


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


# --- wide entries (the tracked searches) -------------------------------------------------
#
# An entry of the tracked searches stands for every position with the same hand
# lengths, leader and maximiser set whose top cards of each suit, down to the
# lowest card its result depended on (the relevant cards, special classes
# included), have the same owners and classes: DDS's entries with winning ranks.
# A bucket of WIDE_SLOTS holds the entries of one hash of (lengths, leader, maximiser set);
# a probe compares each entry's sequences under its own mask of top cards.

cdef inline uint64_t top_mask(int k) noexcept nogil:
    # the top k cards of a sequence (k <= 15: no shift by 64, no branch)
    return ~((~(<uint64_t>0)) >> (4 * k))


# top_mask(k) for each k: a probe compares many entries, a load each is cheaper
cdef uint64_t TOP_MASKS[16]
for _k in range(16):
    TOP_MASKS[_k] = top_mask(_k)


cdef inline uint64_t wide_hash(uint64_t len, uint64_t tag) noexcept nogil:
    cdef uint64_t h = (len ^ (tag * <uint64_t>0xC2B2AE3D27D4EB4F)) * <uint64_t>0x9E3779B97F4A7C15
    return h ^ (h >> 31)


cdef inline WideBucket* wide_bucket_of(Search* c, uint64_t h) noexcept nogil:
    # the bucket of hash h: its low 32 bits scaled to the bucket count (a multiply,
    # not a division; the fingerprint takes bits 56-63, apart from these)
    return c.wt + (((<uint64_t><uint32_t>h) * c.wide_buckets) >> 32)


cdef inline uint8_t* wide_lock(Search* c, WideBucket* b) noexcept nogil:
    # the stripe lock of bucket b in a shared search (threads probe and store whole
    # entries under it), else NULL
    if c.wide_locks == NULL:
        return NULL
    return c.wide_locks + ((b - c.wt) & (WIDE_LOCKS - 1))


cdef inline WideBucket* wide_bucket(Search* c, uint64_t len, uint64_t tag) noexcept nogil:
    return wide_bucket_of(c, wide_hash(len, tag))


cdef inline uint8_t wide_fp(uint64_t h) noexcept nogil:
    # the slot's fingerprint from wide_hash(): other bits than the bucket's, never 0
    cdef uint8_t f = <uint8_t>(h >> 56)
    return f if f else 1


cdef inline uint8_t wide_fp_tops(uint64_t len, uint64_t* ps) noexcept nogil:
    # The fingerprint of an entry that keeps the top card of every suit in hands: its
    # lengths, leader, maximiser set and epoch with the owner and class of each suit's
    # top card (the first symbol of each sequence; 0 for a suit no hand holds). Such an
    # entry matches only a position with the same top cards, so a probe reads it only
    # under this fingerprint, and passes over those of other top cards unread.
    cdef uint64_t tops = (ps[0] >> 60) | ((ps[1] >> 60) << 4) | ((ps[2] >> 60) << 8) \
        | ((ps[3] >> 60) << 12)
    return wide_fp(wide_hash(len, (ps[0] & 0xFFF) | (tops << 12) | (<uint64_t>1 << 28)))


cdef inline int keeps_tops(uint64_t held, int kpack) noexcept nogil:
    # whether an entry of `kpack` keeps the top card of every suit in hands
    cdef int s
    for s in range(4):
        if (held & lane_of(s)) and not ((kpack >> (4 * s)) & 15):
            return 0
    return 1


cdef inline int reach_pack(uint64_t held, uint64_t cards) noexcept nogil:
    # per suit (4 bits each): how many of the top cards in hands reach down to the
    # lowest of `cards` in that suit (0 where `cards` has none)
    cdef uint64_t lane, r
    cdef int s, k = 0
    for s in range(4):
        lane = held & lane_of(s)
        r = cards & lane
        if r:
            k |= popcount(lane & ~((((<uint64_t>1) << low_bit(r))) - 1)) << (4 * s)
    return k


cdef inline int wide_match(WideEntry* e, uint64_t len, uint64_t* ps) noexcept nogil:
    cdef int kp = e.kpack
    # the fingerprint already sorted out nearly every other length: the cards first
    return (((ps[0] ^ e.seq[0]) & (TOP_MASKS[kp & 15] | 0xFFF)) == 0
            and ((ps[1] ^ e.seq[1]) & TOP_MASKS[(kp >> 4) & 15]) == 0
            and ((ps[2] ^ e.seq[2]) & TOP_MASKS[(kp >> 8) & 15]) == 0
            and ((ps[3] ^ e.seq[3]) & TOP_MASKS[kp >> 12]) == 0
            and e.len == len)


cdef inline uint64_t kpack_cards(State* st, int kpack) noexcept nogil:
    # the top cards of each suit that a kpack counts
    cdef uint64_t held = in_hands(st)
    return (top_of(held, 0, kpack & 15) | top_of(held, 1, (kpack >> 4) & 15)
            | top_of(held, 2, (kpack >> 8) & 15) | top_of(held, 3, (kpack >> 12) & 15))


cdef int wide_probe(Search* c, uint64_t len, uint64_t* ps, int alpha, int beta, int* lo,
                    int* hi, uint64_t* rel) noexcept nogil:
    # Narrow [*lo, *hi] by the entries that match, until the window (alpha, beta)
    # is decided; adds to *rel the cards of the entries whose bounds are kept (of
    # the one whose bound decides, when one does); returns the best lead of a
    # matching entry (255 for none).
    cdef uint64_t h = wide_hash(len, ps[0] & 0xFFF)
    cdef WideBucket* b = wide_bucket_of(c, h)
    cdef WideEntry* e
    cdef int i, move = 255, need = -1
    cdef uint8_t* lock = wide_lock(c, b)
    cdef uint64_t cand
    cdef uint64_t cards, r_lo = 0, r_hi = 0
    if lock != NULL:
        ks_lock(lock)
    cand = ks_match64(b.fp, wide_fp(h)) | ks_match64(b.fp, wide_fp_tops(len, ps))
    while cand:
        i = low_bit(cand)
        cand &= cand - 1
        e = &b.e[i]
        if not wide_match(e, len, ps):
            continue
        # The entry holds for the cards below its top ones only when they are all
        # plain: a card of a special class there (a point card, say, where the
        # position stored had none in the suit) can change the result. So each
        # suit's top cards it keeps must reach down to this position's lowest
        # special card (counted once per probe, on the first match).
        if need < 0:
            need = reach_pack(in_hands(&c.st), c.special)
        if ((e.kpack & 15) < (need & 15) or ((e.kpack >> 4) & 15) < ((need >> 4) & 15)
                or ((e.kpack >> 8) & 15) < ((need >> 8) & 15)
                or ((e.kpack >> 12) & 15) < ((need >> 12) & 15)):
            continue
        c.tt_hits += 1
        if move == 255:
            move = e.move
        if e.lo > lo[0] or e.hi < hi[0]:
            cards = kpack_cards(&c.st, e.kpack)
            if e.lo > lo[0]:
                lo[0] = e.lo
                r_lo = cards
            if e.hi < hi[0]:
                hi[0] = e.hi
                r_hi = cards
            if lo[0] >= beta or hi[0] <= alpha or lo[0] == hi[0]:
                break
    if lock != NULL:
        ks_unlock(lock)
    # a decision rests on the entry that gave the deciding bound alone
    if lo[0] >= beta:
        rel[0] |= r_lo
    elif hi[0] <= alpha:
        rel[0] |= r_hi
    else:
        rel[0] |= r_lo | r_hi
    return move


cdef void wide_store(Search* c, uint64_t len, uint64_t* ps, uint64_t rel, int lo, int hi,
                     int move, int64_t work) noexcept nogil:
    # Store the bounds for the class of positions sharing the top cards `rel` needs:
    # merged into the entry of the same class, else over the slot of least work.
    cdef uint64_t held = in_hands(&c.st)
    cdef uint64_t ms[4]
    cdef int s, i, kpack, victim = 0
    cdef int n = high_bit(<uint64_t>work | 1)
    cdef uint64_t h = wide_hash(len, ps[0] & 0xFFF)
    cdef WideBucket* b = wide_bucket_of(c, h)
    cdef WideEntry* e = NULL
    cdef uint8_t fp
    cdef uint8_t* lock = wide_lock(c, b)
    cdef uint64_t cand
    kpack = reach_pack(held, rel | c.special)
    fp = wide_fp_tops(len, ps) if keeps_tops(held, kpack) else wide_fp(h)
    c.wide_stores += 1
    c.wide_held += popcount(held)
    c.wide_kept += (kpack & 15) + ((kpack >> 4) & 15) + ((kpack >> 8) & 15) + (kpack >> 12)
    for s in range(4):
        ms[s] = ps[s] & top_mask((kpack >> (4 * s)) & 15)
    ms[0] |= ps[0] & 0xFFF
    if lock != NULL:
        ks_lock(lock)
    cand = ks_match64(b.fp, fp)
    while cand:
        i = low_bit(cand)
        cand &= cand - 1
        if b.e[i].len == len and b.e[i].kpack == kpack and b.e[i].seq[0] == ms[0] \
                and b.e[i].seq[1] == ms[1] and b.e[i].seq[2] == ms[2] and b.e[i].seq[3] == ms[3]:
            e = &b.e[i]
            if e.lo > lo:
                lo = e.lo
            if e.hi < hi:
                hi = e.hi
            if move == 255:
                move = e.move
            if n < e.depth:
                n = e.depth
            break
    if e == NULL:
        for i in range(WIDE_SLOTS):
            if ((b.e[i].seq[0] >> 6) & 31) != c.epoch:
                victim = i
                break
            if b.e[i].depth < b.e[victim].depth:
                victim = i
        e = &b.e[victim]
        b.fp[victim] = fp
        e.len = len
        for s in range(4):
            e.seq[s] = ms[s]
        e.kpack = <uint16_t>kpack
    e.lo = <int16_t>lo
    e.hi = <int16_t>hi
    e.move = <uint8_t>move
    e.depth = <uint8_t>n
    if lock != NULL:
        ks_unlock(lock)
