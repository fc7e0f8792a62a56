# Players: the greedy player's heuristic in C, double for double as cassino.greedy.
# The reference side: cassino/greedy.py (GreedyPlayer.evaluate, _risk, _best_take, _pack).
# Included by _core.pyx, in the order it lists.
#
# It reads only what the seat to move may know (its View): its hand, the table, the hand
# sizes, the stock size, the last capturer, and the unseen cards (the other hands and the
# stock, without where they are). The card weights are the system's (greedy.card_weights,
# loaded into Params.gw), summed in ascending card order as the reference sums them.

cdef enum:
    GR_MAX_GROUPS = 4096     # sum groups of one rank in a packing (past it: the reference
                             # answers, State.greedy_scores and State.play_hand)

# greedy.BUILD_DISCOUNT, RISK_WEIGHT, CARD_WEIGHT, CLEAR_WIN, _EPS and DEFAULT_PENALTY
# (tests/test_core_greedy.py checks that they agree)
cdef double G_BUILD_DISCOUNT = 0.7
cdef double G_RISK_WEIGHT = 1.0
cdef double G_CARD_WEIGHT = 0.2
cdef double G_CLEAR_WIN = 1000.0
cdef double G_EPS = 1e-9
cdef double G_DEFAULT_PENALTY = 2.0
cdef double G_SPADE_WEIGHT = 0.2
GREEDY_CONSTANTS = {"BUILD_DISCOUNT": G_BUILD_DISCOUNT, "RISK_WEIGHT": G_RISK_WEIGHT,
                    "CARD_WEIGHT": G_CARD_WEIGHT, "CLEAR_WIN": G_CLEAR_WIN, "_EPS": G_EPS,
                    "DEFAULT_PENALTY": G_DEFAULT_PENALTY, "SPADE_WEIGHT": G_SPADE_WEIGHT}

cdef struct GTable:
    # the table a move leaves, as greedy.GreedyPlayer.evaluate builds it
    mask_t loose
    mask_t bcards[MAX_BUILDS + 1]
    uint8_t bvalue[MAX_BUILDS + 1]
    uint8_t bowners[MAX_BUILDS + 1]
    int nb

cdef inline double gweight(const Params* p, mask_t m) noexcept nogil:
    cdef double w = 0.0
    while m:
        w += p.gw[cas_ctz(m)]
        m &= m - 1
    return w

cdef inline int gvalue(int card) noexcept nogil:
    """greedy._value: the rank, 0 for a face card (both copies of Mulle's deck)."""
    cdef int r = card % 52 // 4 + 1
    return r if r <= 10 and card < 104 else 0     # (a joker: none)

cdef inline mask_t grank_mask(const Params* p, int rank) noexcept nogil:
    cdef mask_t m = (<mask_t>0xF) << (4 * (rank - 1))
    if p.nids > 52:
        m |= m << 52
    return m

cdef int gr_groups(mask_t mask, int value, mask_t* out, int cap) noexcept nogil:
    """greedy._groups: every subset of ``mask`` whose values sum to ``value``, in the
    reference's order (depth first, cards ascending); -1 past ``cap``."""
    cdef uint8_t cards[NCARDS]
    cdef uint8_t idx[NCARDS]
    cdef int need[NCARDS + 1]
    cdef mask_t acc[NCARDS + 1]
    cdef int n = 0, depth, j, v, count = 0
    cdef mask_t m = mask
    while m:
        cards[n] = <uint8_t>cas_ctz(m)
        n += 1
        m &= m - 1
    if value == 0:
        if cap < 1:
            return -1
        out[0] = 0
        return 1
    # iterative walk(i, need, acc): idx[d] is the next j to try at depth d
    depth = 0
    idx[0] = 0
    need[0] = value
    acc[0] = 0
    while depth >= 0:
        j = idx[depth]
        if j >= n:
            depth -= 1
            continue
        idx[depth] = <uint8_t>(j + 1)
        v = gvalue(cards[j])
        if v <= need[depth]:
            if v == need[depth]:
                if count >= cap:
                    return -1
                out[count] = acc[depth] | ((<mask_t>1) << cards[j])
                count += 1
            else:
                depth += 1
                idx[depth] = <uint8_t>(j + 1)
                need[depth] = need[depth - 1] - v
                acc[depth] = acc[depth - 1] | ((<mask_t>1) << cards[j])
    return count

cdef enum:
    PM_START = 10            # a memo starts with 2**10 slots and doubles at 3/4 full
    PM_MAX = 22              # ... up to 2**22 (past it: the reference answers)
    PM_FROM = 16             # packings of this many groups or more keep a memo

cdef struct PackMemo:
    # an open-addressing table of masks and their answers
    mask_t* keys
    double* vals
    uint8_t* used
    int bits
    int n

cdef PackMemo* pm_new() noexcept nogil:
    cdef PackMemo* pm = <PackMemo*>malloc(sizeof(PackMemo))
    if pm == NULL:
        return NULL
    pm.bits = PM_START
    pm.n = 0
    pm.keys = <mask_t*>malloc((<size_t>1 << PM_START) * sizeof(mask_t))
    pm.vals = <double*>malloc((<size_t>1 << PM_START) * sizeof(double))
    pm.used = <uint8_t*>calloc(<size_t>1 << PM_START, 1)
    if pm.keys == NULL or pm.vals == NULL or pm.used == NULL:
        pm_free(pm)
        return NULL
    return pm

cdef void pm_free(PackMemo* pm) noexcept nogil:
    if pm != NULL:
        free(pm.keys)
        free(pm.vals)
        free(pm.used)
        free(pm)

cdef inline size_t pm_slot(PackMemo* pm, mask_t key) noexcept nogil:
    """The slot of ``key``, or of the empty place where it goes."""
    cdef uint64_t h = (cas_lo(key) ^ (cas_hi(key) * <uint64_t>0x9E3779B97F4A7C15ULL))
    cdef size_t mask = ((<size_t>1) << pm.bits) - 1
    cdef size_t i = <size_t>((h * <uint64_t>0x9E3779B97F4A7C15ULL) >> (64 - pm.bits))
    while pm.used[i] and pm.keys[i] != key:
        i = (i + 1) & mask
    return i

cdef int pm_put(PackMemo* pm, mask_t key, double val) noexcept nogil:
    """Store ``key``: 0, or -1 when the table cannot grow."""
    cdef size_t i, slot, old_cap = (<size_t>1) << pm.bits
    cdef mask_t* keys
    cdef double* vals
    cdef uint8_t* used
    if (pm.n + 1) * 4 > <int>(old_cap * 3):
        if pm.bits >= PM_MAX:
            return -1
        keys = pm.keys
        vals = pm.vals
        used = pm.used
        pm.keys = <mask_t*>malloc(old_cap * 2 * sizeof(mask_t))
        pm.vals = <double*>malloc(old_cap * 2 * sizeof(double))
        pm.used = <uint8_t*>calloc(old_cap * 2, 1)
        if pm.keys == NULL or pm.vals == NULL or pm.used == NULL:
            free(pm.keys)
            free(pm.vals)
            free(pm.used)
            pm.keys = keys
            pm.vals = vals
            pm.used = used
            return -1
        pm.bits += 1
        for i in range(old_cap):
            if used[i]:
                slot = pm_slot(pm, keys[i])
                pm.used[slot] = 1
                pm.keys[slot] = keys[i]
                pm.vals[slot] = vals[i]
        free(keys)
        free(vals)
        free(used)
    slot = pm_slot(pm, key)
    if not pm.used[slot]:
        pm.used[slot] = 1
        pm.keys[slot] = key
        pm.n += 1
    pm.vals[slot] = val
    return 0

cdef double gr_packing(const Params* p, mask_t mask, const mask_t* groups, int ng) noexcept nogil:
    """greedy._best_packing: the best weight of disjoint groups of ``mask``; -1 when the
    memo of a large packing is full (the caller asks the reference)."""
    cdef PackMemo* pm = NULL
    cdef double got
    if ng >= PM_FROM:
        pm = pm_new()
        if pm == NULL:
            return -1.0
    got = gr_pack_rec(p, mask, groups, ng, pm)
    pm_free(pm)
    return got

cdef double gr_pack_rec(const Params* p, mask_t mask, const mask_t* groups, int ng,
                        PackMemo* pm) noexcept nogil:
    """gr_packing's recursion: the lowest card of ``mask`` is left out, or taken with one
    of its groups (the reference's memo, keyed by the mask, when ``pm`` is not NULL)."""
    cdef mask_t low, g
    cdef mask_t* rest
    cdef int i, j, k
    cdef size_t slot
    cdef double best, x
    if not mask or ng == 0:
        return 0.0
    if pm != NULL:
        slot = pm_slot(pm, mask)
        if pm.used[slot]:
            return pm.vals[slot]
    rest = <mask_t*>malloc(ng * sizeof(mask_t))
    if rest == NULL:
        return -1.0
    low = mask & (~mask + 1)
    k = 0
    for i in range(ng):
        if not (groups[i] & low):
            rest[k] = groups[i]
            k += 1
    best = gr_pack_rec(p, mask ^ low, rest, k, pm)
    for i in range(ng):
        if best < 0:
            break
        g = groups[i]
        if g & low:
            k = 0
            for j in range(ng):
                if not (groups[j] & g):
                    rest[k] = groups[j]
                    k += 1
            x = gr_pack_rec(p, mask & ~g, rest, k, pm)
            if x < 0:
                best = -1.0
                break
            x = gweight(p, g) + x
            if x > best:
                best = x
    free(rest)
    if pm != NULL and best >= 0 and pm_put(pm, mask, best) < 0:
        return -1.0
    return best

cdef int gr_partition_all(mask_t mask, int value, int limit) noexcept nogil:
    """greedy._partition_all: whether ``mask`` splits wholly into groups of ``value`` (1 or
    0); -1 when its groups or its memo are past the C limits (the caller asks the
    reference)."""
    cdef PackMemo* pm = pm_new()
    cdef int got
    if pm == NULL:
        return -1
    got = gr_partition_rec(mask, value, pm, limit)
    pm_free(pm)
    return got

cdef int gr_partition_rec(mask_t mask, int value, PackMemo* pm, int limit) noexcept nogil:
    """gr_partition_all's recursion: the lowest card goes with one of the groups of the rest
    that complete it to ``value`` (memo keyed by the mask)."""
    cdef mask_t low, rest
    cdef mask_t* groups
    cdef int i, n, v, got = 0
    cdef size_t slot
    if not mask:
        return 1
    slot = pm_slot(pm, mask)
    if pm.used[slot]:
        return <int>pm.vals[slot]
    low = mask & (~mask + 1)
    rest = mask ^ low
    v = gvalue(cas_ctz(low))
    if v == value:
        got = gr_partition_rec(rest, value, pm, limit)
    elif 0 < v < value:
        groups = <mask_t*>malloc(GR_MAX_GROUPS * sizeof(mask_t))
        if groups == NULL:
            return -1
        n = gr_groups(rest, value - v, groups, limit)
        if n < 0:
            got = -1
        for i in range(n if n > 0 else 0):
            got = gr_partition_rec(rest & ~groups[i], value, pm, limit)
            if got != 0:
                break
        free(groups)
    if got < 0 or pm_put(pm, mask, got) < 0:
        return -1
    return got

cdef int gr_best_take(const Params* p, const GTable* t, int rank, mask_t table,
                      double* w_out, bint* clears) noexcept nogil:
    """greedy._best_take: the weight of the best capture a card of ``rank`` makes, and
    whether it clears the table; -1 when the sum groups are past GR_MAX_GROUPS."""
    cdef mask_t same = t.loose & grank_mask(p, rank)
    cdef mask_t taken, smaller, rest, m
    cdef mask_t* groups
    cdef int n, i, c, total
    cdef double w, best, x
    cdef bint single = p.max_sum_groups == 1
    if rank > 10:
        n = cas_popcount(same)
        if n == 0:
            w_out[0] = 0.0
            clears[0] = False
            return 0
        if p.face_capture == 2 or (p.face_capture == 1 and n == 3):
            w_out[0] = gweight(p, same)
            clears[0] = same == table
            return 0
        best = 0.0
        i = 0
        m = same
        while m:
            x = p.gw[cas_ctz(m)]
            if i == 0 or x > best:
                best = x
            i += 1
            m &= m - 1
        w_out[0] = best
        clears[0] = n == 1 and same == table
        return 0
    taken = same
    for i in range(t.nb):
        if t.bvalue[i] == rank:
            taken |= t.bcards[i]
    w = gweight(p, taken)
    smaller = 0
    rest = t.loose & ~same
    while rest:
        c = cas_ctz(rest)
        if 0 < gvalue(c) < rank:
            smaller |= (<mask_t>1) << c
        rest &= rest - 1
    if cas_popcount(smaller) >= 2:
        groups = <mask_t*>malloc(GR_MAX_GROUPS * sizeof(mask_t))
        if groups == NULL:
            return -1
        n = gr_groups(smaller, rank, groups, p.gr_limit)
        best = -1.0
        if n >= 0 and single:
            best = 0.0
            for i in range(n):
                x = gweight(p, groups[i])
                if i == 0 or x > best:
                    best = x
        elif n >= 0:
            best = gr_packing(p, smaller, groups, n)
        free(groups)
        if best < 0:
            return -1
        w += best
    clears[0] = taken == table and not smaller
    if not clears[0] and smaller and (taken | smaller) == table:
        if single:
            total = 0
            m = smaller
            while m:
                total += gvalue(cas_ctz(m))
                m &= m - 1
            clears[0] = total == rank
        else:
            total = gr_partition_all(smaller, rank, p.gr_limit)
            if total < 0:
                return -1
            clears[0] = total == 1
    w_out[0] = w
    return 0

cdef double gr_miss(int total, int k, int h) noexcept nogil:
    """greedy._miss: C(total - k, h) / C(total, h), factor by factor."""
    cdef double q = 1.0
    cdef int i
    for i in range(h):
        q *= <double>(total - k - i) / <double>(total - i)
    return q

cdef int gr_risk(Core* c, const GTable* t, mask_t hand_left, double* out) noexcept nogil:
    """greedy.GreedyPlayer._risk; -1 when a packing is past GR_MAX_GROUPS."""
    cdef int seat = c.h.to_move, opp = c.p.next_seat[seat]
    cdef int h = cas_popcount(c.h.hands[opp]), stock = c.stock_len - c.h.stock_pos
    cdef mask_t unseen = 0, table
    cdef int s, i, j, k, total, rank, nopt = 0
    cdef uint32_t sure = 0
    cdef double p, taken, value, risk, none_better, tv, tp
    cdef double ov[13]
    cdef double op[13]
    cdef bint take_all
    out[0] = 0.0
    if h == 0:
        if hand_left or stock == 0:
            return 0
        h = c.p.last_hand_size if stock == c.p.players * c.p.last_hand_size else c.p.hand_size
    for s in range(c.p.players):
        if s != seat:
            unseen |= c.h.hands[s]
    for i in range(c.h.stock_pos, c.stock_len):
        unseen |= (<mask_t>1) << c.stock[i]
    # (Elewenjewe, as View.unseen: the cards set aside, and without Isiwo the own pile)
    for i in range(c.p.set_aside if c.p.set_aside < c.h.ndiscard else c.h.ndiscard):
        unseen |= (<mask_t>1) << c.discard[i]
    if c.p.hide_own_pile:
        unseen |= pile_mask(c, c.p.team_of[seat])
    total = cas_popcount(unseen)
    if total == 0:
        return 0
    table = t.loose
    for i in range(t.nb):
        table |= t.bcards[i]
    if not table:
        return 0
    for i in range(t.nb):
        if t.bowners[i] >> opp & 1 and t.bvalue[i] < 32:
            sure |= (<uint32_t>1) << t.bvalue[i]
    for rank in range(1, 14):
        k = cas_popcount(unseen & grank_mask(&c.p, rank))
        if sure >> rank & 1:
            p = 1.0
        elif k == 0:
            continue
        else:
            p = 1.0 - gr_miss(total, k, h) if total - k >= h else 1.0
        if gr_best_take(&c.p, t, rank, table, &taken, &take_all) < 0:
            return -1
        if taken <= 0.0:
            continue
        value = taken + G_CARD_WEIGHT
        if take_all and c.p.sweeps:
            value += c.p.sweep_points
        # options sorted descending by (value, p), as the reference's list.sort(reverse=True)
        j = nopt
        while j > 0 and (ov[j - 1] < value or (ov[j - 1] == value and op[j - 1] < p)):
            ov[j] = ov[j - 1]
            op[j] = op[j - 1]
            j -= 1
        ov[j] = value
        op[j] = p
        nopt += 1
    risk = 0.0
    none_better = 1.0
    for i in range(nopt):
        risk += ov[i] * op[i] * none_better
        none_better *= 1.0 - op[i]
    out[0] = risk
    return 0

cdef int greedy_eval(Core* c, const CMove* m, double* out) noexcept nogil:
    """greedy.GreedyPlayer.evaluate of move ``m`` for the seat to move; -1 when the risk
    needs more sum groups than GR_MAX_GROUPS (the caller asks the reference)."""
    cdef const Params* p = &c.p
    cdef int seat = c.h.to_move, s, i, last, kind = m.kind
    cdef mask_t bit, hand = c.h.hands[seat], hand_left, table, cards
    cdef GTable t
    cdef double gain = 0.0, own, risk, sign
    cdef bint captured = False, others_empty, hand_ends
    cdef uint8_t owners
    if p.laugh:
        # Laugh and Lie Down (greedy.laugh_gain): the cards a capture or a bank gains
        if kind == K_BANK:
            out[0] = gweight(p, m.takes)
        elif kind == K_CAPTURE:
            out[0] = gweight(p, m.takes | ((<mask_t>1) << m.card))
        elif kind == K_PAIR:
            out[0] = gweight(p, m.takes | ((<mask_t>1) << m.card) | ((<mask_t>1) << m.value))
        else:
            out[0] = 0.0
        return 0
    if kind == K_PLUCK or kind == K_PASS:
        out[0] = gweight(p, m.takes)
        return 0
    bit = (<mask_t>1) << m.card
    t.loose = c.h.loose
    t.nb = 0
    if kind == K_TRAIL or kind == K_TWO_CARD or kind == K_CAPTURE or kind == K_STEAL:
        for i in range(c.h.nbuilds):
            if kind != K_CAPTURE or not (c.h.builds[i].cards & m.takes):
                t.bcards[t.nb] = c.h.builds[i].cards
                t.bvalue[t.nb] = c.h.builds[i].value
                t.bowners[t.nb] = c.h.builds[i].owners
                t.nb += 1
    if kind == K_TRAIL:
        t.loose |= bit
    elif kind == K_TWO_CARD:
        t.loose &= ~m.takes
        gain = gweight(p, m.takes | bit)
        captured = True
        bit |= m.takes & hand
    elif kind == K_CAPTURE or kind == K_STEAL:
        # (a steal gains the bundle taken, and its loose cards with steal_and_capture)
        t.loose &= ~m.takes
        gain = gweight(p, m.takes | bit)
        captured = True
    else:
        owners = <uint8_t>(1 << seat)
        for i in range(c.h.nbuilds):
            if c.h.builds[i].cards & m.takes:
                if kind == K_AUGMENT:
                    owners |= c.h.builds[i].owners
            else:
                t.bcards[t.nb] = c.h.builds[i].cards
                t.bvalue[t.nb] = c.h.builds[i].value
                t.bowners[t.nb] = c.h.builds[i].owners
                t.nb += 1
        t.loose &= ~m.takes
        t.bcards[t.nb] = m.takes | bit
        t.bvalue[t.nb] = m.value
        t.bowners[t.nb] = owners
        t.nb += 1
    table = t.loose
    for i in range(t.nb):
        table |= t.bcards[i]
    hand_left = hand & ~bit
    if p.michigan and is_default(c, kind, m.takes):
        gain -= G_DEFAULT_PENALTY
    others_empty = True
    for s in range(p.players):
        if s != seat and c.h.hands[s]:
            others_empty = False
    hand_ends = not hand_left and others_empty and c.stock_len == c.h.stock_pos
    if captured and p.sweeps and not table and (p.last_card_sweep or not hand_ends):
        gain += p.sweep_points
    if captured and p.callabra and not table:
        out[0] = gain + G_CLEAR_WIN
        return 0
    if hand_ends:
        last = seat if captured else c.h.last_capturer
        if last < 0 or p.leftovers_nobody:
            out[0] = gain
            return 0
        sign = 1.0 if p.team_of[last] == p.team_of[seat] else -1.0
        out[0] = gain + sign * gweight(p, table)
        return 0
    own = 0.0
    for i in range(t.nb):
        if t.bowners[i] >> seat & 1:
            own += gweight(p, t.bcards[i])
    if gr_risk(c, &t, hand_left, &risk) < 0:
        return -1
    out[0] = gain + G_BUILD_DISCOUNT * own - G_RISK_WEIGHT * risk
    return 0

cdef void expert_weights(Core* c, const double* ws) noexcept nogil:
    """ExpertPlayer._weights into c.p.gw: ``ws`` (the system's, greedy.card_weights) less
    CARD_WEIGHT a card once a team has won more than half of the deck's cards, and less
    SPADE_WEIGHT a spade once a team has won more than half of its spades, where those
    majorities score; ``ws`` itself under more than two teams. The ``expert`` policy of
    State.play_hand and of the ISMCTS rollouts: the expert without lookahead."""
    cdef int t, i
    cdef bint cards_won = 0, spades_won = 0
    cdef mask_t m, every
    if c.p.nteams == 2:
        if c.p.most_cards_points or c.p.callabra:
            for t in range(2):
                if 2 * pile_count(c, t) > cas_popcount(c.p.deck_mask | c.p.palette):
                    cards_won = 1
        if c.p.card_points and c.p.most_spades_points:
            every = 0
            for i in range(c.p.nids):
                every |= (<mask_t>1) << i
            for t in range(2):
                m = pile_mask(c, t)
                if 2 * cas_popcount(m & SPADES_MASK) > cas_popcount(every & SPADES_MASK):
                    spades_won = 1
    for i in range(c.p.nids):
        c.p.gw[i] = ws[i]
        if cards_won:
            c.p.gw[i] -= G_CARD_WEIGHT
        if spades_won and SPADES_MASK & ((<mask_t>1) << i):
            c.p.gw[i] -= G_SPADE_WEIGHT

cdef int greedy_choose(Core* c, MoveBuf* buf, int n, Rng64* rng) noexcept nogil:
    """greedy.GreedyPlayer.choose over the n moves in buf: the best score, a tie (within
    1e-9) broken by rng.below(number of tied moves); -1 when a score needs the reference."""
    cdef double best = 0.0
    cdef double* sc
    cdef int* top
    cdef int i, ntop = 0, pick
    if n == 1:
        return 0
    sc = <double*>malloc(n * sizeof(double))
    top = <int*>malloc(n * sizeof(int))
    if sc == NULL or top == NULL:
        free(sc)
        free(top)
        return -2
    for i in range(n):
        if greedy_eval(c, &buf.moves[i], &sc[i]) < 0:
            free(sc)
            free(top)
            return -1
        if i == 0 or sc[i] > best:
            best = sc[i]
    for i in range(n):
        if sc[i] >= best - G_EPS:
            top[ntop] = i
            ntop += 1
    pick = top[<int>rng_below(rng, <uint64_t>ntop)] if ntop > 1 else top[0]
    free(sc)
    free(top)
    return pick

# ---------------------------------------------------------------------------------------
# ISMCTS in C: cassino.ismcts.ISMCTSPlayer's search with policy "eval", iteration for
# iteration (the same determinizations from the same Rng draws, the same tree, the same
# doubles). State._ismcts runs it; the Python search stays as the reference.
# ---------------------------------------------------------------------------------------

cdef extern from "<math.h>" nogil:
    double c_tanh "tanh" (double)
    double c_log "log" (double)
    double c_sqrt "sqrt" (double)

cdef extern from "<time.h>" nogil:
    ctypedef struct c_timespec "struct timespec":
        long tv_sec
        long tv_nsec
    int c_clock_gettime "clock_gettime" (int, c_timespec*)
    int C_CLOCK_MONOTONIC "CLOCK_MONOTONIC"

cdef enum:
    IS_MAX_DEPTH = 512       # plies of one descent (a hand has far fewer)
    IS_EVAL = -1             # ismcts_iterate's policy "eval" (else POL_RANDOM, POL_GREEDY,
                             # POL_EXPERT)

cdef struct INode:
    CMove move               # the move into this node
    double wins
    int visits
    int avail                # iterations in which the move was legal here
    int team                 # the team of the player who made the move (-1: the root)
    int child                # first child, -1: none
    int sibling              # next child of the same parent, -1: none

cdef struct ITree:
    INode* nodes
    int n
    int cap

cdef inline bint same_move(const Params* p, const CMove* a, const CMove* b) noexcept nogil:
    """Whether two moves are one Move: the same card, kind, takes and value, and for a
    build kind of a system with multi-valued cards the same alt (Move.fixed; alt is left
    unset elsewhere)."""
    return (a.card == b.card and a.kind == b.kind and a.takes == b.takes
            and a.value == b.value
            and (not p.nmulti or not K_BUILD <= a.kind <= K_INCREASE or a.alt == b.alt))

cdef int itree_add(ITree* t, int parent, const CMove* m, int team) noexcept nogil:
    """A new node (availability 1) under ``parent`` (-1: the root); its index, -1 out of memory."""
    cdef INode* grown
    cdef int cap, i
    if t.n == t.cap:
        cap = 2 * t.cap if t.cap else 1024
        grown = <INode*>realloc(t.nodes, cap * sizeof(INode))
        if grown == NULL:
            return -1
        t.nodes = grown
        t.cap = cap
    i = t.n
    t.n += 1
    if m != NULL:
        t.nodes[i].move = m[0]
    t.nodes[i].wins = 0.0
    t.nodes[i].visits = 0
    t.nodes[i].avail = 1
    t.nodes[i].team = team
    t.nodes[i].child = -1
    t.nodes[i].sibling = -1
    if parent >= 0:
        t.nodes[i].sibling = t.nodes[parent].child
        t.nodes[parent].child = i
    return i

cdef inline double monotonic_s() noexcept nogil:
    """time.perf_counter()'s clock on Linux, in seconds."""
    cdef c_timespec ts
    c_clock_gettime(C_CLOCK_MONOTONIC, &ts)
    return <double>ts.tv_sec + <double>ts.tv_nsec * 1e-9

cdef inline double taken_weight(const Core* w, const CMove* mv) noexcept nogil:
    """The weight of what ``mv`` (just applied to ``w``) captured, with a sweep: the C twin
    of ``cassino.expert._taken``."""
    cdef double v
    if mv.kind != K_CAPTURE and mv.kind != K_TWO_CARD:
        return 0.0
    v = gweight(&w.p, mv.takes | ((<mask_t>1) << mv.card))
    if w.p.sweeps and not table_mask(w) and not hand_over(w):
        v += w.p.sweep_points
    return v

cdef int best_greedy(Core* w, const MoveBuf* buf, int n, const int* skip, int* pick,
                     double* best) noexcept nogil:
    """The first of ``buf``'s ``n`` moves of best greedy score for the seat to move (``pick``,
    its score ``best``), leaving out move i where ``skip`` (may be NULL) has ``skip[i] >= 0``;
    0, or -2 where a greedy score needs the reference. ``pick`` is -1 when all are left out."""
    cdef int i
    cdef double x
    pick[0] = -1
    for i in range(n):
        if skip != NULL and skip[i] >= 0:
            continue
        if greedy_eval(w, &buf.moves[i], &x) < 0:
            return -2
        if pick[0] < 0 or x > best[0]:
            pick[0] = i
            best[0] = x
    return 0

cdef int ismcts_iterate(const Core* base, Core* w, int seat, const uint8_t* unseen, int nu,
                        const mask_t* pool, const uint64_t* cum, int npool, int pseat,
                        const double* ws0, ITree* t, MoveBuf* buf, int** kids, int* kcap, Rng64* rng,
                        double c_ucb, double scale, int policy, bint opp_greedy) noexcept nogil:
    """One iteration of ISMCTSPlayer._iterate: 0, or -1 (out of memory), -2 (a greedy score
    needs the reference), -3 (a listing past the buffer's limit). ``policy`` judges the new
    node: IS_EVAL, or a rollout by POL_RANDOM, POL_GREEDY or POL_EXPERT players (``scale``
    is then MARGIN_SCALE; POL_EXPERT's weights from the system's, ``ws0``). With ``opp_greedy`` the other teams move as the greedy player would
    from their seats in the determinization (ISMCTSPlayer's ``opponent="greedy"``). With
    ``npool`` > 0 (card reading), seat ``pseat``'s hand is one of ``pool``, drawn by the
    cumulative weights ``cum``, and the rest of the unseen cards are dealt as before."""
    cdef uint8_t cards[NCARDS]
    cdef int path[IS_MAX_DEPTH]
    cdef int depth = 0, node = 0, i, j, k, s, n, m, team, me, untried, pick, ch
    cdef uint64_t x
    cdef int* kid
    cdef uint8_t tmp
    cdef mask_t h
    cdef double gained = 0.0, value, best, u, mine
    cdef CMove mv
    cdef Pick pk
    cdef Rng64 seats[MAX_SEATS]
    cdef int64_t tot[MAX_SEATS]
    cdef int64_t other
    memcpy(w, base, sizeof(Core))
    # the determinization: View.sample_world's Fisher-Yates over the unseen cards in
    # ascending order, dealt to the other hands in seat order, then to the stock; with a
    # pool (ISMCTSPlayer._deal), seat pseat's hand is drawn from it first and the rest dealt
    m = nu
    if npool > 0:
        x = rng_below(rng, cum[npool - 1])
        i = 0
        while cum[i] <= x:
            i += 1
        h = pool[i]
        w.h.hands[pseat] = h
        m = 0
        for i in range(nu):
            if not (h & ((<mask_t>1) << unseen[i])):
                cards[m] = unseen[i]
                m += 1
    else:
        for i in range(nu):
            cards[i] = unseen[i]
    for i in range(m - 1, 0, -1):
        j = <int>rng_below(rng, <uint64_t>(i + 1))
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp
    k = 0
    for s in range(w.p.players):
        if s == seat or npool > 0 and s == pseat:
            continue
        n = cas_popcount(base.h.hands[s])
        h = 0
        for i in range(n):
            h |= (<mask_t>1) << cards[k + i]
        w.h.hands[s] = h
        k += n
    for i in range(k, m):
        w.stock[w.h.stock_pos + i - k] = cards[i]
    me = w.p.team_of[seat]
    while not hand_over(w):
        n = gen_moves(w, buf)
        if n <= 0:
            return -3
        if kcap[0] < n:
            kid = <int*>realloc(kids[0], n * sizeof(int))
            if kid == NULL:
                return -1
            kids[0] = kid
            kcap[0] = n
        kid = kids[0]
        team = w.p.team_of[w.h.to_move]
        if opp_greedy and team != me:
            # the opponents' model: the greedy player's move (the first of best score)
            if best_greedy(w, buf, n, NULL, &pick, &best) < 0:
                return -2
            ch = t.nodes[node].child
            while ch >= 0 and not same_move(&w.p, &t.nodes[ch].move, &buf.moves[pick]):
                ch = t.nodes[ch].sibling
            untried = ch < 0
            if untried:
                ch = itree_add(t, node, &buf.moves[pick], team)
                if ch < 0:
                    return -1
            mv = buf.moves[pick]
            apply_move(w, &mv)
            gained -= taken_weight(w, &mv)
            if depth == IS_MAX_DEPTH:
                return -3
            path[depth] = ch
            depth += 1
            node = ch
            if untried:
                break
            continue
        untried = 0
        for i in range(n):
            ch = t.nodes[node].child
            while ch >= 0 and not same_move(&w.p, &t.nodes[ch].move, &buf.moves[i]):
                ch = t.nodes[ch].sibling
            kid[i] = ch
            if ch >= 0:
                t.nodes[ch].avail += 1
            else:
                untried += 1
        if untried:
            if untried == 1:
                for i in range(n):
                    if kid[i] < 0:
                        pick = i
            elif best_greedy(w, buf, n, kid, &pick, &best) < 0:
                # (the untried move of best greedy score, the first listed on a tie)
                return -2
            ch = itree_add(t, node, &buf.moves[pick], team)
            if ch < 0:
                return -1
        else:
            pick = 0
            best = 0.0
            for i in range(n):
                ch = kid[i]
                u = (t.nodes[ch].wins / t.nodes[ch].visits
                     + c_ucb * c_sqrt(c_log(<double>t.nodes[ch].avail) / t.nodes[ch].visits))
                if i == 0 or u > best:
                    pick = i
                    best = u
            ch = kid[pick]
        mv = buf.moves[pick]
        apply_move(w, &mv)
        gained += (1.0 if team == me else -1.0) * taken_weight(w, &mv)
        if depth == IS_MAX_DEPTH:
            return -3
        path[depth] = ch
        depth += 1
        node = ch
        if untried:
            break
    if policy != IS_EVAL:
        # a rollout of the rest of the hand (State.play_hand), scored by the point margin
        if not hand_over(w):
            for s in range(w.p.players):
                seats[s].state = rng_next(rng)
            while not hand_over(w):
                s = w.h.to_move
                if policy == POL_RANDOM and w.p.pick_ok and pick_setup(w, &pk):
                    # (a capture-only table: the listing's move of the same index)
                    apply_move(w, pick_at(&pk, rng_below(&seats[s], pk.total), &mv))
                    continue
                n = gen_moves(w, buf)
                if n <= 0:
                    return -3
                if policy == POL_GREEDY or policy == POL_EXPERT:
                    if policy == POL_EXPERT:
                        expert_weights(w, ws0)
                    k = greedy_choose(w, buf, n, &seats[s])
                    if k == -1:
                        return -2
                    if k < 0:
                        return -1
                else:
                    k = <int>rng_below(&seats[s], <uint64_t>n)
                mv = buf.moves[k]
                apply_move(w, &mv)
        score_totals(w, tot)
        for i in range(depth):
            team = t.nodes[path[i]].team
            j = 0                # the best total of the other teams
            for k in range(w.p.nteams):
                if k != team and (j == 0 or tot[k] > other):
                    other = tot[k]
                    j = 1
            t.nodes[path[i]].visits += 1
            t.nodes[path[i]].wins += 0.5 + 0.5 * c_tanh(<double>(tot[team] - other) / scale)
        return 0
    value = gained
    if not hand_over(w):
        n = gen_moves(w, buf)
        if n <= 0:
            return -3
        if best_greedy(w, buf, n, NULL, &pick, &best) < 0:
            return -2
        value += (1.0 if w.p.team_of[w.h.to_move] == me else -1.0) * best
    mine = 0.5 + 0.5 * c_tanh(value / scale)
    for i in range(depth):
        t.nodes[path[i]].visits += 1
        t.nodes[path[i]].wins += mine if t.nodes[path[i]].team == me else 1.0 - mine
    return 0
