# The structs of the trick search core, cimported by ext/_core.pyx and its .pxi sections.
# Every mask uses the card bit layout 16 * suit + rank (rank 2..14), as kingsolve.game.cards.

from libc.stdint cimport uint64_t, int64_t, int16_t, int8_t, uint8_t, uint16_t, int32_t, uint32_t

cdef extern from "<pthread.h>":
    ctypedef unsigned long pthread_t


cdef enum:
    MAX_TRICKS = 32          # 2 players hold 26 cards each
    INF = 1000000            # beyond any King score
    WIDE_SLOTS = 64          # wide entries per bucket
    BUSY_SLOTS = 65536       # a team's counters of the threads in a position
    WIDE_LOCKS = 4096        # a team's locks of the wide buckets, a stripe each
    BUSY_PLIES = 16          # the cards from a shared search's root over which they count
    SHARED_TRICKS = 7        # the fewest tricks left at which a search starts helpers (below,
                             # starting them costs more than they save)


cdef struct Rules:
    int card_points[64]              # points of each card bit (0 for no card)
    int cls[64]                      # class id of each card: equal points, protected, forced
    int ncls                         # number of class ids in use
    uint64_t cls_mask[64]            # the cards of each class id
    int trick_points[MAX_TRICKS]     # points of trick i (0-based)
    int pos_suffix[MAX_TRICKS + 1]   # sum of the positive trick points of tricks i..n-1
    int neg_suffix[MAX_TRICKS + 1]   # sum of the negative trick points of tricks i..n-1
    int min_suffix[MAX_TRICKS + 1]   # the least trick points among tricks i..n-1
    int n_tricks                     # tricks in the hand
    int nseats                       # seats in play (2, 3 or 4)
    int in_play                      # those seats, as a mask
    int next_seat[4]                 # next seat in play direction (-1 for a seat not in play)
    int trump                        # trump suit index, -1 for no trump
    int lead_suit                    # suit under a lead restriction, -1 for none
    int lead_mode                    # 1 until-broken, 2 while-other-suits
    int trump_lead_restricted        # trumps not led before a trump was played (Turkish)
    int overtake                     # must beat the top card of the suit led (Turkish)
    int overtrump_on_trump_lead      # must beat the top trump on a trump lead (Portuguese)
    int trump_obligation             # 0 free, 1 ruff-overruff, 2 ruff-overruff-strict
    uint64_t protected               # first-trick protection set
    uint64_t forced                  # forced discard set
    int broken_by_discard            # 1: a suit is broken only by a card of it discarded
    uint64_t broken_lanes            # with it, the lane of the one suit waiting to be broken
                                     # (the lead's or the trumps'), whose state keys the table


cdef struct Trick:
    int seat[4]              # seat of each card of the trick
    int card[4]              # bit of each card of the trick
    int win[4]               # index of the winning card after card i
    int top_led[4]           # highest card of the suit led after card i (bit)
    int top_trump[4]         # highest trump after card i (bit, -1 for none)
    int tpts[4]              # card points in the trick after card i
    int tpos[4]              # positive card points in the trick after card i (the negative
                             # ones are tpts - tpos)


cdef struct State:
    uint64_t hands[4]        # cards held by each seat (0 for a seat not in play)
    uint64_t played          # cards played to any trick, the current one included
    uint64_t broken          # of them, the cards that broke their suit: all (played), or
                             # with Rules.broken_by_discard those discarded on another suit
    uint64_t deck            # the cards in hands or played (fixed at load): in hands = deck & ~played
    uint64_t trick_mask      # cards of the current trick
    int tricks_done          # completed tricks
    int count                # cards in the current trick
    int to_move              # seat on move
    Trick* cur               # the current trick: &tricks[tricks_done]
    Trick tricks[MAX_TRICKS + 1]   # every trick of the hand, so unmake finds closed ones
    int card_pos_left        # positive card points of the cards not in completed tricks
    int card_neg_left        # negative card points of the cards not in completed tricks
    int8_t owner[64]         # the seat that held each card at load (-1 for a card no hand held):
                             # a card still in hands is its holder's, so a suit's holders
                             # are read here rather than searched for in the hands


cdef struct TTEntry:
    uint64_t key             # exact key: suit pattern ids, leader, maximiser set (0 = empty);
                             # in the table, xor the entry's second word (the fields below)
                             # scrambled, so a half-written entry reads as no key (tt_read)
    int16_t lo               # lower bound of the future value of the maximiser set
    int16_t hi               # upper bound of the future value
    uint8_t move             # best lead: suit * 16 + cards above it in the suit (255 = none)
    uint8_t depth            # log2 of the nodes its search took: the replacement keeps the largest
    uint16_t kpack           # per suit (4 bits each): the top cards the bounds depend on


cdef struct WideEntry:
    uint64_t len             # the hand lengths: 4 bits per seat and suit (0 with seq[0] = 0: empty)
    uint64_t seq[4]          # per suit, the owner and class of the top cards (4 bits each, high to
                             # low) its bounds depend on; seq[0]'s low 12 bits hold the leader,
                             # the maximiser set and the epoch
    int16_t lo               # lower bound of the future value
    int16_t hi               # upper bound
    uint8_t move             # best lead, as TTEntry.move
    uint8_t depth            # log2 of the nodes its search took
    uint16_t kpack           # per suit (4 bits each): how many top cards seq[suit] holds


cdef struct WideBucket:
    uint8_t fp[WIDE_SLOTS]   # per slot, a fingerprint of its lengths, leader, maximiser set and
                             # epoch, and of each suit's top card when the entry keeps them all
                             # (wide_fp_tops; never 0; 0 for a slot never written), so a probe
                             # reads the entries of its own kind only
    WideEntry e[WIDE_SLOTS]


cdef struct Node:
    # one search node's knowledge between its bounds and its store, shared by the
    # rules before the moves, the move loop and the store
    int lo                   # lower bound of the future value of the maximiser set
    int hi                   # upper bound
    int ttmove               # the tables' best move (bit) to search first, -1 for none
    uint64_t acc             # the cards the result depends on so far (with Search.track)
    uint64_t key             # the exact table's key (trick starts)
    uint64_t wlen            # the wide table's hand lengths (Search.wide, trick starts)
    uint64_t ps[4]           # the wide table's owner-and-class sequence per suit


cdef struct PatternScratch:
    # The pattern ids of a deal's suits, made as searches first meet each holding
    # (patterns_reset, pattern_fill in core_tt.pxi): a search of a few tricks meets a
    # few hundred of the 4 x 8192 holdings, so a load no longer makes them all. Owned by
    # the Core, in its Search.patterns.
    int* intern              # per (suit, symbol, id of the rest): the pattern's id, where
    uint32_t* stamp          # ... stamp holds the suit's generation
    int nsym                 # symbols per suit that intern and stamp have room for
    uint32_t gen[4]          # each suit's generation: a new deal starts a new one
    int next_id[4]           # each suit's next pattern id
    int row[64]              # per card: its intern row, (suit, owner and class) times 8192
    uint64_t top[64]         # per card: its symbol as the first 4 bits of a sequence
    uint64_t cards           # the deal's cards
    int complete             # 1 when every holding of the deal has its id (threads share it)


cdef enum:
    NF = 514                 # the value model's features (core_eval.pxi, eval_features)
    MODEL_HIDDEN = 256       # the widest hidden layer a model file may have


cdef struct PolicyAcc:
    # the policy model's first layer kept up to date through a model play-out
    # (core_policy.pxi, acc_start): its inputs split by what changes them
    float table[MODEL_HIDDEN]      # the bias, every card as unseen with its points, the
                                   # play-out's constant flags, the cards gone in earlier tricks
    float seat[4][MODEL_HIDDEN]    # per seat, its hand's cards: each one's row as held less
                                   # its row as unseen
    int order[4]                   # the suits as the model sees them (suit_order)


cdef struct Model:
    # the value model (core_eval.pxi): a small network over eval_features, from a
    # model file (kingsolve/data/value_model.bin, set by Core.set_model)
    int nf                   # its input features (NF)
    int h1                   # first hidden layer's units
    int h2                   # second hidden layer's units
    float* w1                # nf x h1, a feature's weights together (sparse inputs add rows)
    float* b1                # h1
    float* w2                # h1 x h2
    float* b2                # h2
    float* w3                # h2
    float b3


cdef struct HEntry:
    # an entry of the estimating search's own table (its values are estimates: they
    # never meet the exact table's entries)
    uint64_t key             # the position's hash and the search's epoch (0 = empty)
    float lo                 # lower bound of the estimate of the future value
    float hi                 # upper bound
    int16_t depth            # tricks searched below it before the model's horizon
    int16_t move             # best card (bit), -1 for none


cdef struct Search


cdef struct Job:
    # one helper's part of a shared search
    Search* c                # the helper's search: a copy of the core's, its own memos
    int guess                # MTD(f)'s first guess
    int value                # the value it found
    int done                 # 1 when it finished (value exact), 0 when stopped


cdef struct Team:
    # a core's helpers: threads that search the same root on the core's table
    int n                    # helpers (threads - 1)
    Search* helpers          # their searches
    Job* jobs                # their parts of the current search
    pthread_t* threads       # their threads
    int* started             # 1 when the helper's thread started
    uint64_t* synced         # the load each helper's memos belong to
    uint64_t loads           # the core's loads so far
    int stop                 # set by the first thread to finish a search
    int running              # 1 while the last search's helpers may still run (team_join)
    int64_t base             # the core's nodes when they started
    int64_t nodes            # the helpers' nodes since the budget was set
    int64_t* counts          # of them, each helper's
    int* busy                # per hashed position, the threads searching it (BUSY_SLOTS)
    uint8_t* wide_locks      # a lock per stripe of wide buckets (WIDE_LOCKS)


cdef struct Search:
    Rules R                  # the contract, compiled
    State st                 # the position being searched
    int maxmask              # seats (bits) whose points are maximised
    int keymask              # the maximiser set the table's keys name: a side of four (doubles)
                             # keys as N and S, its entries holding their value
    int flip                 # 1 when keymask is the other side (E and W maximise): an entry's
                             # bounds b then stand for (all points left) - b
    int lone                 # 1 when maxmask is one seat (the paranoid value)
    int track                # 1 to gather relevant cards and skip equivalent low cards
    TTEntry* tt              # the transposition table: buckets of 4 entries
    uint64_t bucket_mask     # buckets - 1
    uint64_t tt_bytes        # the table's memory (exact entries, and wide ones in its second half)
    uint64_t epoch           # 1..31, in every key: a load starts a new epoch instead of clearing
    uint16_t* pid            # pattern id of each suit lane: pid[suit * 32768 + lane]
    uint64_t* seqtab         # owner-and-class sequence of each suit lane: seqtab[suit * 8192 + lane >> 2]
    uint64_t* lenstab        # each seat's length in each suit lane, at its place in the wide
                             # table's key of hand lengths (4 bits per seat and suit): as
                             # seqtab, made with the lane's pattern (a card in hands is its
                             # holder's at load, so a lane fixes its holders)
    PatternScratch* patterns # how pid and seqtab are filled as holdings are met
    int seq_ok               # 1 when every class id fits the sequences' 2 bits
    int wide                 # 1 when the table holds WideEntry buckets (the tracked searches)
    WideBucket* wt           # the table's wide half, as buckets
    uint64_t wide_buckets    # how many
    uint64_t special         # cards of a class other than plain (points, protected, forced)
    int strict               # 1 when legality compares ranks (overtake, overtrump, overruff)
    int killer[4 * MAX_TRICKS]   # per trick and leader: the last lead that cut off (-1 for none)
    int64_t nodes            # nodes searched since the budget was set
    int64_t trick_nodes      # of them at a trick start (DDS's node count)
    int64_t tt_hits          # probes that found their key
    int64_t wide_stores      # wide entries stored (a diagnostic: Core.wide_width)
    int64_t wide_kept        # the top cards they kept, summed
    int64_t wide_held        # the cards in hands where they were stored, summed
    int64_t node_limit       # the node budget
    double deadline          # monotonic seconds at which the search stops
    int abort                # 1 node budget, 2 time budget
    int proved_lo            # the bounds the last MTD run proved (all it knows on a stop)
    int proved_hi
    bint whole               # MTD(f) takes the whole budget (no narrowing at both ends)
    uint8_t* safe_memo       # the lone seat's per-suit safety game: [seat][seats that may
                             # lead][suit][cards left],
                             # each byte the load's epoch << 2 | 1 (safe) or 2 (not)
    uint64_t* lead_memo      # the same for one trick: a direct-mapped cache of 65536 results
                             # (key: 30 bits, the epoch: 6, the result: 2)
    uint32_t safe_epoch      # 1..63, the load the memos' entries belong to
    int64_t* log_buf         # the tree log (a diagnostic, Core.set_log): 12 words per trick start
    int64_t log_cap          # trick starts it holds
    int64_t log_n            # trick starts logged
    int64_t log_every        # every log_every-th trick start seen is logged
    int64_t log_seen         # trick starts seen
    int64_t log_levels[32]   # per tricks left: trick starts searched, their subtree nodes
    int64_t log_cuts[128]    # per tricks left and side: cuts, by the first card, nodes
                             # before the cutting card, nodes at the cut nodes
    int* stop                # set by the first thread to finish a shared search (NULL alone)
    Team* team               # the core's helpers (NULL for none, and in a helper)
    int* busy                # the team's busy counters during a shared search, else NULL
    uint8_t* wide_locks      # the team's wide-bucket locks during a shared search, else NULL
    int busy_ply             # positions with fewer cards played in the hand are counted
    Model* model             # the value model (NULL: none loaded), shared read-only
    HEntry* ht               # the estimating search's table (NULL until first used)
    uint64_t ht_mask         # its entries - 1
    uint64_t h_epoch         # in its keys: a load or a new maximiser set starts afresh
    int h_target             # the tricks done at which the estimating search evaluates
    int coalition            # 1: a lone seat's play-outs give the others coalition_card
    void* policy_net         # the policy model (core_policy.pxi's PolicyNet; NULL: none)
    int voids                # suits shown void before the root (bit seat * 4 + suit, set_voids)
    int voids_from           # the root's tricks done: the tricks from there show their own
