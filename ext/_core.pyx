# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The double-dummy trick search core of kingsolve (private; see ext/README.md).

A ``Core`` holds one root position of a trick contract (compiled to flat tables by
the caller), a transposition table, and answers: the future value of a set of
maximising seats (the paranoid value in singles, the side's value in doubles), the
value after each legal card, and the legal cards (a test hook). The search runs
without the GIL. This module never imports the kingsolve package: it raises its
own ``BudgetExceeded``, which ``kingsolve.search.engine`` turns into a package error.
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
    /* A wide bucket's stripe lock, held over a probe or a store by a shared search. */
    static inline void ks_lock(unsigned char* p) {
        while (__atomic_test_and_set(p, __ATOMIC_ACQUIRE))
            while (__atomic_load_n(p, __ATOMIC_RELAXED)) {}
    }
    static inline void ks_unlock(unsigned char* p) { __atomic_clear(p, __ATOMIC_RELEASE); }
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
    void ks_lock(uint8_t* p) nogil
    void ks_unlock(uint8_t* p) nogil
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


include "core_bounds.pxi"
include "core_search.pxi"
include "core_eval.pxi"
include "core_policy.pxi"


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
    ``broken_by_discard``: a suit is broken only by a card of it discarded on another
    suit's lead (one suit at most may wait to be broken then); ``next_seat``: the next
    seat of each seat, -1 for a seat not in play.
    """

    cdef Rules R

    def __init__(self, card_points, trick_points, *, int trump=-1, int lead_suit=-1,
                 int lead_mode=0, bint trump_lead_restricted=False, bint overtake=False,
                 bint overtrump_on_trump_lead=False, uint64_t protected=0, uint64_t forced=0,
                 int trump_obligation=0, bint broken_by_discard=False, next_seat=(1, 2, 3, 0)):
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
        R.broken_by_discard = broken_by_discard
        if broken_by_discard:
            if lead_suit >= 0 and lead_mode == 1:
                R.broken_lanes |= lane_of(lead_suit)
            if trump >= 0 and trump_lead_restricted:
                R.broken_lanes |= lane_of(trump)
            if popcount(R.broken_lanes) > 16:
                raise ValueError("broken_by_discard with two suits waiting to be broken")
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
    """The value model's weights (``kingsolve.search.value_model`` reads them from its file),
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
    cdef Team team           # the helpers of its searches (set_threads)
    cdef bint dirty          # searched since the last load
    cdef bint used           # holds entries (of any epoch) since the last clear
    cdef bint loaded
    cdef bint deal_known     # the last load named its deal: deal_rules and deal_hands hold
    cdef Rules deal_rules    # the last load's contract
    cdef uint64_t deal_hands[4]   # and deal, each seat's cards at the start of the hand
    cdef ValueModel model    # the estimating search's model (set_model), kept alive here
    cdef PolicyModel policy_model   # the play-outs' policy (set_policy), kept alive here

    def __cinit__(self, int tt_mb=64):
        cdef uint64_t want = (<uint64_t>max(tt_mb, 1)) << 20
        cdef uint64_t nbuckets = 1024
        while nbuckets * 2 * 4 * sizeof(TTEntry) <= want:
            nbuckets *= 2
        self.c.tt = <TTEntry*>calloc(nbuckets * 4, sizeof(TTEntry))
        self.c.pid = <uint16_t*>malloc(4 * 32768 * sizeof(uint16_t))
        self.c.seqtab = <uint64_t*>malloc(4 * 8192 * sizeof(uint64_t))
        self.c.lenstab = <uint64_t*>malloc(4 * 8192 * sizeof(uint64_t))
        self.c.safe_memo = <uint8_t*>calloc(4 * 16 * 4 * 8192, 1)
        self.c.lead_memo = <uint64_t*>calloc(65536, sizeof(uint64_t))
        self.c.patterns = <PatternScratch*>calloc(1, sizeof(PatternScratch))
        if self.c.tt == NULL or self.c.pid == NULL or self.c.seqtab == NULL \
                or self.c.lenstab == NULL \
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
        free(self.c.lenstab)
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
        free(self.team.wide_locks)
        memset(&self.team, 0, sizeof(Team))
        self.c.team = NULL

    def set_threads(self, int threads):
        """Search the values on ``threads`` threads sharing the table (the
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
        t.wide_locks = <uint8_t*>calloc(WIDE_LOCKS, 1)
        if t.helpers == NULL or t.jobs == NULL or t.threads == NULL or t.started == NULL \
                or t.synced == NULL or t.counts == NULL or t.busy == NULL or t.wide_locks == NULL:
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
        """The threads of the searches (set_threads)."""
        return self.team.n + 1

    @property
    def table_bytes(self):
        """The memory of the transposition table, in bytes."""
        return self.c.tt_bytes

    def load(self, ContractTable table, hands, uint64_t played, int tricks_done, trick,
             int trick_leader, deal=None, broken=None):
        """Set the root: the compiled contract, hands, cards played so far, completed
        tricks, the current trick as (seat, bit) pairs and its leader; ``deal``, each
        seat's cards at the start of the hand, when known; ``broken``, of the cards
        played, those that broke their suit (all by default). A root of the same deal
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
        st.broken = (played if broken is None else <uint64_t>broken) & ~trick_cards
        st.deck = st.hands[0] | st.hands[1] | st.hands[2] | st.hands[3] | st.played
        memset(st.owner, -1, sizeof(st.owner))
        for i in range(4):
            m = st.hands[i]
            while m:
                st.owner[low_bit(m)] = i
                m &= m - 1
        st.tricks_done = tricks_done
        st.cur = &st.tricks[tricks_done]
        self.c.voids = 0
        self.c.voids_from = tricks_done
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
        """A diagnostic of the tree's shape (research/lone_tree.py): log every
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

    def set_budget(self, int64_t nodes, double ms, bint whole=False):
        """Start a budget: the searches that follow stop after ``nodes`` nodes or ``ms``.
        With ``whole``, an exact search spends all of it on its zero-window tests
        toward the value (a slice of a search that will go on); by default half, and
        the rest narrows the range a stop leaves from both ends."""
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
        self.c.whole = whole
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
        seat then plays the simple player (``kingsolve.hands.hints.play_preference``) until a
        trick starts with at most ``horizon`` tricks left, and the rest is searched.
        With ``coalition`` 1, the others of a lone seat play coalition_card instead;
        with 2, every seat plays guided_card (the value model's choice); with 3,
        model_card (the policy model's, set_policy)."""
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

    def set_policy(self, PolicyModel model):
        """Play-outs with policy 3 give every seat ``model``'s card (None: no model,
        the simple player's)."""
        self._join()
        self.policy_model = model
        self.c.policy_net = NULL if model is None else <void*>&model.m

    def set_voids(self, int voids):
        """The suits the seats had shown void in before the root (bit seat * 4 + suit),
        which the policy model sees; a load forgets them."""
        self.c.voids = voids
        self.c.voids_from = self.c.st.tricks_done

    def policy_features(self, int maxmask):
        """The policy model's inputs for the seat on move at the root (NPF floats;
        ``maxmask`` the hinted side: two seats mark doubles)."""
        cdef float x[NPF]
        if not self.loaded:
            raise ValueError("no position loaded")
        self.c.maxmask = maxmask
        policy_features(&self.c, x)
        return [x[i] for i in range(NPF)]

    def model_card(self, int maxmask):
        """The policy model's card at the root (model_card; a test hook)."""
        if not self.loaded:
            raise ValueError("no position loaded")
        self.c.maxmask = maxmask
        return model_card(&self.c)

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

    def playout(self, int maxmask, int coalition=0):
        """The future points of ``maxmask`` when every seat plays the simple player
        to the end of the hand, or with ``coalition`` the others play together against
        a lone seat (playout_gain: the value model's inputs 512 and 513; a test hook)."""
        if not self.loaded:
            raise ValueError("no position loaded")
        self._set_max(maxmask)
        return playout_gain(&self.c, coalition)

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
        self._estimate_table()
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

    def preferred(self, uint64_t cards):
        """The simple player's card at the root among ``cards`` (a mask of legal
        cards): the optimal line's choice among equal cards (docs/rules.md 11)."""
        cards &= legal_moves(&self.c.R, &self.c.st)
        if not cards:
            raise ValueError("no legal card among the cards given")
        return preferred_card(&self.c.R, &self.c.st, contract_positive(&self.c.R), cards)

    def child_test(self, int bit, int maxmask, int beta):
        """One zero-window test of the future value (from the root) of ``maxmask``
        after ``bit`` is played, "at least ``beta``": a fail-soft result, a lower
        bound when at least ``beta``, else an upper bound. Cheap once a search of
        the root has filled the table (the optimal line's test of each card)."""
        cdef Rules* R = &self.c.R
        cdef State* st = &self.c.st
        cdef int v, gain = 0, w
        cdef uint64_t rel
        if not self.loaded:
            raise ValueError("no position loaded")
        if not (legal_moves(R, st) >> bit) & 1:
            raise ValueError("card not legal at the root")
        self._join()
        self._set_max(maxmask)
        self.c.abort = 0
        with nogil:
            play_card(R, st, bit)
            if st.count == R.nseats:
                gain = R.trick_points[st.tricks_done] + st.cur.tpts[st.count - 1]
                w = close_trick(R, st)
                if not (maxmask >> w) & 1:
                    gain = 0
                v = gain + search(&self.c, beta - 1 - gain, beta - gain, &rel)
                reopen_trick(R, st)
            else:
                v = search(&self.c, beta - 1, beta, &rel)
            unplay_card(st)
        self._check()
        return v

    def playout_cards(self, int bit, int maxmask, int horizon, int coalition=0):
        """The cards ``rollout_value`` plays before its exact search, ``bit`` first
        (the same play-out: the simple player's cards, or with ``coalition`` as
        there), as a list of bits; the root is left as it was."""
        cdef int closed[4 * MAX_TRICKS]
        cdef int cards[4 * MAX_TRICKS]
        cdef int n, i
        if not self.loaded:
            raise ValueError("no position loaded")
        if not (legal_moves(&self.c.R, &self.c.st) >> bit) & 1:
            raise ValueError("card not legal at the root")
        if horizon < 0:
            raise ValueError("horizon below 0")
        if coalition == 2:
            self._estimate_table()
        self._join()
        self._set_max(maxmask)
        self.c.coalition = coalition
        self.c.abort = 0
        with nogil:
            play_out(&self.c, bit, horizon, closed, &n, cards)
            unplay_out(&self.c, closed, n)
        self.c.coalition = 0
        self.dirty = True
        self.used = True
        if self.c.abort:
            raise BudgetExceeded("nodes" if self.c.abort == 1 else "ms")
        return [cards[i] for i in range(n)]

    cdef void _estimate_table(self) except *:
        # the estimating search's table (guided_card's), allocated on first use
        if self.c.ht == NULL:
            self.c.ht = <HEntry*>calloc(1 << 17, sizeof(HEntry))
            if self.c.ht == NULL:
                raise MemoryError("cannot allocate the estimating search's table")
            self.c.ht_mask = (1 << 17) - 1

    def lone_safe(self, int maxmask):
        """Whether the lone seat ``maxmask`` can lose every remaining trick by the
        rules the search uses (a test hook; no trump, no overtaking): lone_safe at a
        trick start or once that seat's card is beaten, lone_safe_led right after
        another hand's lead, else False."""
        if not self.loaded:
            raise ValueError("no position loaded")
        self._set_max(maxmask)
        return bool(lone_safe_mid(&self.c) if self.c.st.count else lone_safe(&self.c))

    def misere_kept(self, int maxmask):
        """The misère's one-trick bound at the root (a test hook; no trump, no rule
        comparing ranks, no positive points left, past the first-trick protection):
        (1 when the maximisers of ``maxmask`` surely take this trick, 0 when the
        others do, the fewest points, at most 0, they take with it), from lead_kept at
        a trick start and trick_kept in a trick under way; None when neither holds."""
        cdef int pts = 0, shed = 0, q
        cdef uint64_t rel = 0
        if not self.loaded:
            raise ValueError("no position loaded")
        self._set_max(maxmask)
        if bound_hi(&self.c) != 0 or self.c.R.trump >= 0 or self.c.strict or \
                (self.c.R.protected and self.c.st.tricks_done == 0):
            return None
        if self.c.st.count == 0:
            if not lead_kept(&self.c, &pts, &rel):
                return None
            return (maxmask >> self.c.st.to_move) & 1, pts
        q = trick_kept(&self.c, &shed, &rel)
        if q < 0:
            return None
        return q, self.c.R.trick_points[self.c.st.tricks_done] \
            + self.c.st.cur.tpts[self.c.st.count - 1] + shed

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
