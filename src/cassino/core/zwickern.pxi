# Zwickern (docs/rules.md §3.32, AMB-87 to AMB-91): captures with declared jokers and the
# ownerless stacks. The reference side: cassino/reference/zwickern.py.
# Included by _core.pyx, in the order it lists.
#
# A card of value v takes any non-empty set of table items that splits into groups: a loose
# card of v, a stack of v (whole), two or more loose cards totalling v; a loose joker is a
# match alone and (joker_values=any) any value 2-14 in a group. Cards of v are matches and
# cards above v never fit, so a set of loose cards is takeable when its cards below v split
# into groups of exactly v and "short" groups (total at most v - 2), no more short groups
# than jokers, each short group completed by one joker (zw_split). Compulsion (AMB-90) is
# filter_moves' compulsion=player.

cdef enum:
    ZW_MIN = 2             # the values a joker may be played or counted as
    ZW_MAX = 14            # ... and the highest stack total (AMB-88)

cdef bint zw_grow(int* cnt, int v, int budget, int total, int top) noexcept nogil:
    """A group started (its cards total ``total``, the next card at most ``top``): closed as
    a group of v, or as a short one (a joker of the budget completes it), or grown."""
    cdef int b, hi
    cdef bint ok
    if total == v:
        return zw_split(cnt, v, budget)
    if total <= v - 2 and budget > 0 and zw_split(cnt, v, budget - 1):
        return True
    hi = v - total
    if hi > top:
        hi = top
    b = hi
    while b >= ZW_MIN:
        if cnt[b]:
            cnt[b] -= 1
            ok = zw_grow(cnt, v, budget, total + b, b)
            cnt[b] += 1
            if ok:
                return True
        b -= 1
    return False

cdef bint zw_split(int* cnt, int v, int budget) noexcept nogil:
    """Whether the counts cnt[2..v-1] split into groups of exactly v and at most ``budget``
    short groups (reference.zwickern.fewest_short_groups); each group holds the largest
    value left, so each split is tried once."""
    cdef int a = v - 1
    cdef bint ok
    while a >= ZW_MIN and cnt[a] == 0:
        a -= 1
    if a < ZW_MIN:
        return True
    cnt[a] -= 1
    ok = zw_grow(cnt, v, budget, a, a)
    cnt[a] += 1
    return ok

cdef void zw_captures(Core* c, MoveBuf* buf, int p, int v, int declared) noexcept nogil:
    """Emit hand card p's captures as value v (``declared``: a joker's move value, else 0):
    every takeable set of loose cards, with every set of the stacks of v."""
    cdef mask_t cand = 0, sub, m
    cdef int cnt[ZW_MAX + 1]
    cdef int k, i, jokers, nst = 0
    cdef int64_t n
    cdef mask_t st[MAX_BUILDS]
    m = c.h.loose
    while m:
        k = cas_ctz(m)
        m &= m - 1
        if (c.p.zw_jokers >> k) & 1 or c.p.val[k] <= v:
            cand |= (<mask_t>1) << k
    for i in range(c.h.nbuilds):
        if c.h.builds[i].value == v:
            st[nst] = c.h.builds[i].cards
            nst += 1
    sub = 0
    while True:
        # the loose set sub (the empty one too: the stacks alone)
        for i in range(ZW_MAX + 1):
            cnt[i] = 0
        jokers = 0
        m = sub
        while m:
            k = cas_ctz(m)
            m &= m - 1
            if (c.p.zw_jokers >> k) & 1:
                jokers += 1
            elif c.p.val[k] < v:
                cnt[c.p.val[k]] += 1
        if zw_split(cnt, v, jokers if c.p.zw_any else 0):
            for n in range((<int64_t>1) << nst):
                if n == 0 and sub == 0:
                    continue
                m = sub
                for i in range(nst):
                    if (n >> i) & 1:
                        m |= st[i]
                emit(buf, p, K_CAPTURE, m, declared)
                if buf.overflow:
                    return  # (over the listing limit: MoveLimitError)
        sub = (sub - cand) & cand
        if sub == 0:
            break

cdef inline bint zw_holds(Core* c, int p, int total) noexcept nogil:
    """holding_invariant (AMB-88 option): another hand card takes a stack of ``total``."""
    cdef mask_t m = c.h.hands[c.h.to_move] & ~((<mask_t>1) << p)
    cdef int k
    while m:
        k = cas_ctz(m)
        m &= m - 1
        if (c.p.zw_jokers >> k) & 1 or c.p.val[k] == total:
            return True
    return False

cdef inline void zw_range(Core* c, int card, int* lo, int* hi) noexcept nogil:
    """The values ``card`` may count: a joker's 2 to 14, another card's one."""
    if (c.p.zw_jokers >> card) & 1:
        lo[0] = ZW_MIN
        hi[0] = ZW_MAX
    else:
        lo[0] = c.p.val[card]
        hi[0] = c.p.val[card]

cdef uint64_t zw_stack_moves(Core* c, MoveBuf* buf, int p) noexcept nogil:
    """List (buf not NULL) or count hand card p's stack moves: on one loose card (build) or
    on one stack (increase), each total to 14 it can make (a joker on either side: each)."""
    cdef mask_t m = c.h.loose
    cdef uint64_t n = 0
    cdef int k, lo, hi, clo, chi, t, i
    zw_range(c, p, &lo, &hi)
    while m:
        k = cas_ctz(m)
        m &= m - 1
        zw_range(c, k, &clo, &chi)
        t = lo + clo
        while t <= hi + chi and t <= ZW_MAX:
            if not c.p.zw_hold or zw_holds(c, p, t):
                n += 1
                if buf != NULL:
                    emit(buf, p, K_BUILD, (<mask_t>1) << k, t)
            t += 1
    for i in range(c.h.nbuilds):
        t = c.h.builds[i].value + lo
        while t <= c.h.builds[i].value + hi and t <= ZW_MAX:
            if not c.p.zw_hold or zw_holds(c, p, t):
                n += 1
                if buf != NULL:
                    emit(buf, p, K_INCREASE, c.h.builds[i].cards, t)
            t += 1
    return n

cdef int gen_zwickern(Core* c, MoveBuf* buf) noexcept nogil:
    """Every move of the player to act before compulsion (filter_moves), in canonical
    order: captures at each value a card may be played as, the trail, new stacks on one
    loose card and additions to stacks (as reference.zwickern.Zwickern._pseudo_zwickern)."""
    cdef mask_t hand = c.h.hands[c.h.to_move]
    cdef int p, v, lo, hi
    while hand:
        p = cas_ctz(hand)
        hand &= hand - 1
        zw_range(c, p, &lo, &hi)
        for v in range(lo, hi + 1):
            zw_captures(c, buf, p, v, v if (c.p.zw_jokers >> p) & 1 else 0)
        emit(buf, p, K_TRAIL, 0, 0)
        zw_stack_moves(c, buf, p)
    if buf.overflow:
        return -1
    sort_moves(buf.moves, buf.n)
    return <int>buf.n

cdef void zw_refill(Core* c, int seat) noexcept nogil:
    """A player whose hand ran out draws 4 from the stock, all that is left if fewer."""
    cdef int k
    if c.h.hands[seat] == 0:
        for k in range(4):
            if c.h.stock_pos >= c.stock_len:
                break
            c.h.hands[seat] |= (<mask_t>1) << c.stock[c.h.stock_pos]
            c.h.stock_pos += 1

# Counting without listing (count_play_moves): the takeable sets of a value depend only on
# how many cards of each value and how many jokers they hold, so they are counted per value
# multiset, times the ways to pick those cards (binomials), the cards of the value itself
# (matches, any subset) and the stacks of the value (any subset): a table of 26 cards (70
# million moves) counts in about a second, where the subset walk would take minutes.

cdef uint64_t zw_binom(int n, int k) noexcept nogil:
    cdef uint64_t r = 1
    cdef int i
    if k < 0 or k > n:
        return 0
    for i in range(k):
        r = r * <uint64_t>(n - i) // <uint64_t>(i + 1)
    return r

cdef uint64_t zw_count_rec(int* have, int* pick, int u, int v, int jokers, bint wild,
                           uint64_t ways) noexcept nogil:
    """The takeable choices of pick[u..v-1] (of have[]) and of the loose jokers, each counted
    with its number of card sets (``ways`` for the values already chosen)."""
    cdef uint64_t total = 0
    cdef int k, j
    if u >= v:
        for j in range(jokers + 1):
            if zw_split(pick, v, j if wild else 0):
                total += ways * zw_binom(jokers, j)
        return total
    for k in range(have[u] + 1):
        pick[u] = k
        total += zw_count_rec(have, pick, u + 1, v, jokers, wild, ways * zw_binom(have[u], k))
    pick[u] = 0
    return total

cdef uint64_t zw_count_value(Core* c, int v) noexcept nogil:
    """The number of captures of a card played as v (zw_captures' list, counted)."""
    cdef int have[ZW_MAX + 1]
    cdef int pick[ZW_MAX + 1]
    cdef int i, k, jokers = 0, same = 0, nst = 0
    cdef mask_t m = c.h.loose
    for i in range(ZW_MAX + 1):
        have[i] = 0
        pick[i] = 0
    while m:
        k = cas_ctz(m)
        m &= m - 1
        if (c.p.zw_jokers >> k) & 1:
            jokers += 1
        elif c.p.val[k] == v:
            same += 1
        elif c.p.val[k] < v:
            have[c.p.val[k]] += 1
    for i in range(c.h.nbuilds):
        if c.h.builds[i].value == v:
            nst += 1
    return (zw_count_rec(have, pick, ZW_MIN, v, jokers, c.p.zw_any, 1)
            * ((<uint64_t>1) << (same + nst)) - 1)

cdef uint64_t zw_count(Core* c) noexcept nogil:
    """The number of legal moves of a Zwickern position, as gen_zwickern and filter_moves
    list them."""
    cdef mask_t hand = c.h.hands[c.h.to_move], m
    cdef uint64_t caps = 0, rest = 0
    cdef int p, v, lo, hi
    m = hand
    while m:
        p = cas_ctz(m)
        m &= m - 1
        zw_range(c, p, &lo, &hi)
        for v in range(lo, hi + 1):
            caps += zw_count_value(c, v)
    if caps and c.p.compel:
        return caps
    m = hand
    while m:
        p = cas_ctz(m)
        m &= m - 1
        rest += 1 + zw_stack_moves(c, NULL, p)      # (the trail, the stack moves)
    return caps + rest
