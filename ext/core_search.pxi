# The search (included by _core.pyx): fail-soft alpha-beta on the maximiser set's
# future value (search, with the bounds at a node and its move loop), the MTD
# driver that narrows the value by zero-window tests (mtd), the same shared by
# threads on one table (shared_mtd), and the play-out (rollout).

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
    nd.key = tt_key(c, nd)
    __builtin_prefetch(tt_bucket(c, nd.key))
    if c.lone and nd.lo < 0 and R.trump < 0 and \
            (R.protected == 0 or st.tricks_done > 0) and not R.overtake:
        e = tt_probe(c, nd.key, &found)
        probed = 1
        if lone_start(c, alpha, beta, e, nd, value):
            rel[0] = 0
            return 1
    if c.wide:
        wb = wide_bucket(c, nd.wlen, nd.ps[0] & 0xFFF)
        __builtin_prefetch(wb)
        __builtin_prefetch(<char*>wb + 64)
        __builtin_prefetch(<char*>wb + 128)
        __builtin_prefetch(<char*>wb + 192)
    if nd.lo >= 0:
        if quick_bounds(c, alpha, beta, nd, value, rel):
            return 1
    elif misere(c, nd) and misere_lead(c, alpha, beta, nd, value, rel):
        return 1
    if c.wide and wide_bounds(c, alpha, beta, nd, value, rel):
        return 1
    if not probed:
        e = tt_probe(c, nd.key, &found)
    return e != NULL and entry_bounds(c, alpha, beta, e, nd, value, rel)


cdef inline int misere(Search* c, Node* nd) noexcept nogil:
    # Under a penalty with no positive points left, no trump and no rule comparing
    # ranks to follow, past the first-trick protection: the misère's rules
    # (core_sides.pxi) hold, for a side and for the lone seat against the others.
    return nd.hi == 0 and c.R.trump < 0 and not c.strict and \
        (c.R.protected == 0 or c.st.tricks_done > 0)


cdef inline int misere_lead(Search* c, int alpha, int beta, Node* nd, int* value,
                            uint64_t* rel) noexcept nogil:
    # At a trick start: the leader's side takes this trick when the others can duck
    # every lead (lead_kept). Returns 1 when that decides the window.
    cdef int lo = nd.lo, hi = nd.hi, pts
    cdef uint64_t tmp = 0
    if not lead_kept(c, &pts, &tmp):
        return 0
    misere_gain(c, (c.maxmask >> c.st.to_move) & 1, pts, &lo, &hi)
    if decides(lo, hi, alpha, beta, value):
        rel[0] = nd.acc | tmp
        return 1
    if not c.track:
        nd.lo = lo
        nd.hi = hi
    return 0


cdef inline int follow_bounds(Search* c, int alpha, int beta, Node* nd, int* value,
                              uint64_t* rel) noexcept nogil:
    # The rules in a trick under way: the mover's side surely wins it (follow_quick),
    # a side under a penalty can be made to keep it (trick_kept), or the lone seat
    # loses it and can lose every later one. Returns 1 when they
    # decide the window, the result in *value and its cards in *rel.
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int t = st.tricks_done, top = nd.hi, q, shed
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
    else:
        if misere(c, nd):
            q = trick_kept(c, &shed, &tmp)
            if q >= 0:
                misere_gain(c, q, R.trick_points[t] + st.cur.tpts[st.count - 1] + shed,
                            &nd.lo, &nd.hi)
                if decides(nd.lo, nd.hi, alpha, beta, value):
                    rel[0] = nd.acc | tmp
                    return 1
                if c.track:
                    nd.lo = bound_lo(c)
                    nd.hi = top
        if c.lone and R.trump < 0 and not R.overtake and lone_safe_mid(c):
            if nd.lo < 0:
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
    # next; c.proved holds the range proved so far. With c.whole, MTD(f) takes the
    # whole budget: a search in slices (the anytime analysis) narrows nothing it will
    # not need, and a stop's range is what the zero-window tests proved.
    cdef int lo = bound_lo(c)
    cdef int hi = bound_hi(c)
    cdef int g = guess, side = 0, stops = 0, part = 16
    cdef int64_t limit = c.node_limit
    cdef double end = c.deadline
    c.proved_lo = lo
    c.proved_hi = hi
    sub_budget(c, limit, end, 1 if c.whole else 2)
    while lo < hi:
        if g < lo:
            g = lo
        if g > hi:
            g = hi
        g = narrow(c, g if g > lo else lo + 1, &lo, &hi)
        if c.abort:
            break
    while lo < hi and not c.whole:
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
    if t == NULL or t.n == 0 or c.R.n_tricks - c.st.tricks_done < SHARED_TRICKS:
        return mtd(c, guess)
    team_join(t)
    patterns_complete(c)        # the threads then only read the pattern tables
    t.stop = 0
    t.base = c.nodes
    t.running = 1
    # nodes are work: the threads share the node budget
    c.node_limit = c.nodes + (c.node_limit - c.nodes) // (t.n + 1)
    c.busy = t.busy
    c.wide_locks = t.wide_locks if c.wide else NULL
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
    c.wide_locks = NULL
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


cdef inline int playout_card(Search* c, int positive) noexcept nogil:
    # The card of a play-out (c.coalition): with 3, the policy model's (model_card);
    # with 2 and a model, the value model's choice (guided_card); with 1, the others
    # of a lone seat play coalition_card against it; else every seat the simple
    # player's card (policy_card)
    if c.coalition == 3:
        return model_card(c)
    if c.coalition == 2 and c.model != NULL:
        return guided_card(c)
    if c.coalition and c.lone and not (c.maxmask >> c.st.to_move) & 1:
        return coalition_card(c)
    return policy_card(&c.R, &c.st, positive)


cdef int play_out(Search* c, int card, int horizon, int* closed, int* n,
                  int* cards=NULL) noexcept nogil:
    # Plays `card`, then playout_card's cards until a trick starts with at most
    # `horizon` tricks left or the hand is over; returns the points the maximiser set
    # took. closed[i] says whether the i-th card closed a trick and n counts the cards,
    # for unplay_out; `cards`, when given, receives the cards played (the line of
    # an estimate).
    cdef Rules* R = &c.R
    cdef State* st = &c.st
    cdef int gain = 0, g, w
    cdef int positive = contract_positive(R)
    cdef PolicyAcc acc                  # the policy's first layer, in a model play-out
    cdef PolicyNet* net = <PolicyNet*>c.policy_net if c.coalition == 3 else NULL
    if net != NULL:
        acc_start(c, net, &acc)
    n[0] = 0
    while True:
        if net != NULL:
            acc_play(net, &acc, st.to_move, card)
        play_card(R, st, card)
        closed[n[0]] = 0
        if cards != NULL:
            cards[n[0]] = card
        if st.count == R.nseats:
            g = R.trick_points[st.tricks_done] + st.cur.tpts[st.count - 1]
            if net != NULL:
                acc_close(net, &acc, st, R.nseats)
            w = close_trick(R, st)
            if (c.maxmask >> w) & 1:
                gain += g
            closed[n[0]] = 1
        n[0] += 1
        if st.tricks_done == R.n_tricks:
            return gain
        if st.count == 0 and R.n_tricks - st.tricks_done <= horizon:
            return gain
        card = acc_model_card(c, &acc) if net != NULL else playout_card(c, positive)


cdef void unplay_out(Search* c, int* closed, int n) noexcept nogil:
    # Takes back the n cards of a play_out
    cdef int i
    for i in range(n - 1, -1, -1):
        if closed[i]:
            reopen_trick(&c.R, &c.st)
        unplay_card(&c.st)


cdef int rollout(Search* c, int bit, int horizon, int guess) noexcept nogil:
    # The future value of c.maxmask when `bit` is played, then every seat plays the
    # play-out's card (playout_card) until a trick starts with at most `horizon`
    # tricks left or the hand is over, then the exact value from there (mtd). The
    # state is restored before returning.
    cdef int closed[4 * MAX_TRICKS]
    cdef int n, v
    cdef int gain = play_out(c, bit, horizon, closed, &n)
    v = gain
    c.proved_lo = gain
    c.proved_hi = gain
    if c.st.tricks_done < c.R.n_tricks:
        v = gain + shared_mtd(c, guess - gain)
        c.proved_lo += gain
        c.proved_hi += gain
    unplay_out(c, closed, n)
    return v
