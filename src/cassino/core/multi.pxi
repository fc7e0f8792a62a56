# Multi-valued cards: Royal Cassino's ace (1 or 14) and Buckeye Cassino's 10D (10 or 11),
# docs/rules.md §3.9, §3.10, AMB-28, AMB-32. Included by _core.pyx. The reference side:
# cassino/reference/multi.py.
#
# Params.val holds every card's first value and Params.alt_val / alt_table its second value
# in hand / loose on the table (0 = none). A multi-valued card takes one value per use; inside
# a build it keeps the value it was built at: CBuild.alt and CMove.alt are bitsets of the
# multi-valued cards at their second value, bit k standing for the k-th card of
# Params.multi_mask in card order (slot_of).
#
# gen_moves hands a position to gen_multi when a multi-valued card is in the hand to move, or
# loose on the table at a second value that the hand can reach (multi_position); every other
# position (the cards with two values inside builds, elsewhere, or loose at a second value
# above every card of the hand) goes through the ordinary paths, which see only first
# values. gen_multi mirrors _reference.State._pseudo_multi: each valuing of the played card
# and of the loose cards is tried, and the moves are made unique afterwards: a capture is
# (card, takes), a build move (card, kind, takes, value, alt).

cdef inline int slot_of(const Params* p, int card) noexcept nogil:
    return cas_popcount(p.multi_mask & (((<mask_t>1) << card) - 1))

cdef inline int alt_extra(const Params* p, mask_t cards, int alt) noexcept nogil:
    """How much more than their first values the cards of ``cards`` marked in ``alt`` count."""
    cdef int extra = 0, c
    cdef mask_t m = cards & p.multi_mask
    while m:
        c = cas_ctz(m)
        if (alt >> slot_of(p, c)) & 1:
            extra += p.alt_val[c] - p.val[c]
        m &= m - 1
    return extra

cdef bint multi_position(Core* c) noexcept nogil:
    """Whether gen_multi lists this position's moves: a multi-valued card in the hand to
    move, or loose on the table at a second value that the hand can reach.

    A loose card at its second value a2 lies in a group of a2 or more (every card counts
    1 or more), so it matters only to a played card of value a2 or more, or to a build of
    a2 or more, whose value the player must hold (legal_fast). When the hand holds no
    multi-valued card and every card of it is worth less than a2, the ordinary paths, which
    see first values, list the moves (Swedish, Mulle and Royal: a loose ace at 14 against K
    13). ``_general_paths(True)`` keeps such positions in gen_multi, for the tests that
    compare the two."""
    cdef mask_t hand, lm, m
    cdef int hmax = 0, k
    if c.p.nmulti == 0 or c.h.to_move < 0:
        return False
    hand = c.h.hands[c.h.to_move]
    if hand & c.p.multi_mask:
        return True
    lm = c.h.loose & c.p.multi_mask
    if lm == 0:
        return False
    if c.p.general_paths:
        return True
    m = hand
    while m:
        k = cas_ctz(m)
        m &= m - 1
        if c.p.val[k] > hmax:
            hmax = c.p.val[k]
        if c.p.hval[k] > hmax:
            hmax = c.p.hval[k]
    while lm:
        k = cas_ctz(lm)
        lm &= lm - 1
        if c.p.alt_table[k] and c.p.alt_table[k] <= hmax:
            return True
    return False

cdef inline int cmp_alt(int a, int b) noexcept nogil:
    """The order of Move.fixed tuples: lists of slots compared as ascending sequences."""
    cdef int d = a ^ b, i
    if d == 0:
        return 0
    i = cas_ctz(d)
    if (a >> i) & 1:           # a has slot i, b does not: b is smaller iff it ends here
        return -1 if (b >> i) != 0 else 1
    return 1 if (a >> i) != 0 else -1

cdef bint alt_equiv(const Params* p, int a, int b) noexcept nogil:
    """Whether two valuings of one move's cards put the same number of cards of each kind
    (first value, second value) at their second value: they differ only in which of
    interchangeable cards (Royal aces) is labelled, and reach equal states (issue 24)."""
    cdef mask_t m = p.multi_mask, n
    cdef int ca, cb, ci, cj, sj
    if a == b:
        return True
    while m:
        ci = cas_ctz(m)
        ca = 0
        cb = 0
        n = p.multi_mask
        sj = 0
        while n:
            cj = cas_ctz(n)
            if p.val[cj] == p.val[ci] and p.alt_val[cj] == p.alt_val[ci]:
                ca += (a >> sj) & 1
                cb += (b >> sj) & 1
            sj += 1
            n &= n - 1
        if ca != cb:
            return False
        m &= m - 1
    return True

cdef inline int cmp_multi(const CMove* x, const CMove* y) noexcept nogil:
    cdef int r = cmp_moves(x, y)
    if r != 0:
        return r
    return cmp_alt(x.alt, y.alt)

cdef enum:
    MERGE_MAX = 256          # merge_runs: the first run's copy on the stack

cdef void sort_multi(CMove* moves, size_t n) noexcept nogil:
    """Sort on (card, kind, takes, value, alt): shell sort (Ciura's gaps), no allocation."""
    cdef size_t i, j, gap
    cdef int g
    cdef CMove t
    cdef size_t gaps[8]
    gaps[0] = 1; gaps[1] = 4; gaps[2] = 10; gaps[3] = 23; gaps[4] = 57; gaps[5] = 132
    gaps[6] = 301; gaps[7] = 701
    g = 7
    while g > 0 and gaps[g] >= n:
        g -= 1
    while g >= 0:
        gap = gaps[g]
        for i in range(gap, n):
            t = moves[i]
            j = i
            while j >= gap and cmp_multi(&moves[j - gap], &t) > 0:
                moves[j] = moves[j - gap]
                j -= gap
            moves[j] = t
        g -= 1

cdef void merge_runs(MoveBuf* buf, size_t lo, size_t mid, size_t hi) noexcept nogil:
    """Merge moves[lo:mid] and moves[mid:hi], each in (card, kind, takes, value, alt) order,
    into one run in that order: the two values' runs of a multi-valued card. A first run
    longer than MERGE_MAX moves is sorted whole instead (sort_multi)."""
    cdef CMove tmp[MERGE_MAX]
    cdef CMove* mv = buf.moves
    cdef size_t n1 = mid - lo, i = 0, j = mid, k = lo
    if buf.overflow or n1 == 0 or mid >= hi or cmp_multi(&mv[mid - 1], &mv[mid]) <= 0:
        return
    if n1 > MERGE_MAX:
        sort_multi(mv + lo, hi - lo)
        return
    memcpy(tmp, mv + lo, n1 * sizeof(CMove))
    while i < n1 and j < hi:
        if cmp_multi(&mv[j], &tmp[i]) < 0:
            mv[k] = mv[j]
            j += 1
        else:
            mv[k] = tmp[i]
            i += 1
        k += 1
    while i < n1:
        mv[k] = tmp[i]
        i += 1
        k += 1

cdef inline void emit_alt(MoveBuf* buf, int card, int kind, mask_t takes, int value,
                          int alt) noexcept nogil:
    emit(buf, card, kind, takes, value)
    if not buf.overflow:
        buf.moves[buf.n - 1].alt = <uint8_t>alt

cdef inline uint64_t held_multi(Core* c, mask_t hand) noexcept nogil:
    """The values the cards of ``hand`` can capture with: first and second values."""
    cdef uint64_t held = 0
    cdef int i
    while hand:
        i = cas_ctz(hand)
        held |= (<uint64_t>1) << c.p.val[i]
        if c.p.alt_val[i]:
            held |= (<uint64_t>1) << c.p.alt_val[i]
        hand &= hand - 1
    return held & ~(<uint64_t>1)

cdef struct Valuing:
    # one valuing of a set of loose cards: the value counts, total, highest value, slots
    int cnt[NVALUES]
    int total
    int top
    int alt

cdef inline bint value_loose(Core* c, mask_t sub, mask_t hi, int cap, Valuing* V) noexcept nogil:
    """Value the loose cards ``sub``, those of ``hi`` at their second table value; False if a
    card would count more than ``cap``."""
    cdef int i, v
    memset(V.cnt, 0, NVALUES * sizeof(int))
    V.total = 0
    V.top = 0
    V.alt = 0
    while sub:
        i = cas_ctz(sub)
        if (hi >> i) & 1:
            v = c.p.alt_table[i]
            V.alt |= 1 << slot_of(&c.p, i)
        else:
            v = c.p.val[i]
        if v <= 0 or v > cap or v >= NVALUES:
            return False
        V.cnt[v] += 1
        V.total += v
        if v > V.top:
            V.top = v
        sub &= sub - 1
    return True

cdef void multi_card(Core* c, MoveBuf* buf, int p, mask_t hand, int* best) noexcept nogil:
    cdef uint64_t held = held_multi(c, hand & ~((<mask_t>1) << p))
    cdef mask_t loose = c.h.loose, mloose, sub, hi, takes, bm, cand
    cdef int vps[2]
    cdef int nvp = 0, k, vp, palt, i, j, nb, bs, v, w, size
    cdef int bidx[MAX_BUILDS]
    cdef bint ok, any_ok
    cdef Valuing V
    mloose = 0
    sub = loose
    while sub:
        i = cas_ctz(sub)
        if c.p.alt_table[i]:
            mloose |= (<mask_t>1) << i
        sub &= sub - 1
    if is_legal(c, K_TRAIL, p, 0, 0, held):
        emit_alt(buf, p, K_TRAIL, 0, 0, 0)
    vps[nvp] = c.p.val[p]
    nvp += 1
    if c.p.alt_val[p]:
        vps[nvp] = c.p.alt_val[p]
        nvp += 1
    for k in range(nvp):
        vp = vps[k]
        if vp <= 0 or vp >= NVALUES:
            continue
        palt = (1 << slot_of(&c.p, p)) if k == 1 else 0
        # captures: loose groups of vp (of the cards that can count vp or less), with any of
        # the builds of vp
        cand = 0
        sub = loose
        while sub:
            i = cas_ctz(sub)
            if c.p.val[i] <= vp or (c.p.alt_table[i] and c.p.alt_table[i] <= vp):
                cand |= (<mask_t>1) << i
            sub &= sub - 1
        nb = 0
        for i in range(c.h.nbuilds):
            if c.h.builds[i].value == vp and nb < 16:
                bidx[nb] = i
                nb += 1
        sub = 0
        while True:
            any_ok = sub == 0
            hi = sub & mloose
            while not any_ok:
                if value_loose(c, sub, hi, vp, &V) and V.total % vp == 0:
                    any_ok = part_ok(V.cnt, vp, c.p.max_sum_groups)
                if hi == 0:
                    break
                hi = (hi - 1) & sub & mloose
            if any_ok:
                for bs in range(1 << nb):
                    if sub == 0 and bs == 0:
                        continue
                    bm = builds_union(c, bidx, nb, bs)
                    takes = sub | bm
                    size = cas_popcount(takes)
                    if size > best[p]:
                        best[p] = size
                    if is_legal(c, K_CAPTURE, p, takes, 0, held):
                        emit_alt(buf, p, K_CAPTURE, takes, 0, 0)
            sub = (sub - cand) & cand
            if sub == 0 or buf.overflow:
                break
        # creates (none when vp is above every build value: Swedish Kassino, Mulle)
        sub = loose if vp <= c.p.build_max else 0
        while sub and not buf.overflow:
            hi = sub & mloose
            while True:
                if value_loose(c, sub, hi, NVALUES - 1, &V):
                    V.cnt[vp] += 1
                    V.total += vp
                    if vp > V.top:
                        V.top = vp
                    for v in range(V.top, c.p.build_max + 1):
                        if v > V.total:
                            break
                        if V.total % v or not (held >> v) & 1:
                            continue
                        ok = V.total == v
                        if not ok and c.p.natural:
                            ok = part_ok(V.cnt, v, BIG_SUMS)
                        elif not ok:
                            ok = (sub & (sub - 1)) == 0 and vp == v and V.total == 2 * v
                        if ok and is_legal(c, K_BUILD, p, sub, v, held):
                            emit_alt(buf, p, K_BUILD, sub, v, V.alt | palt)
                if hi == 0:
                    break
                hi = (hi - 1) & sub & mloose
            sub = (sub - 1) & loose
        # augments
        for i in range(c.h.nbuilds):
            w = c.h.builds[i].value
            if vp > w:
                continue
            sub = 0
            while True:
                hi = sub & mloose
                while True:
                    if value_loose(c, sub, hi, w, &V):
                        V.cnt[vp] += 1
                        V.total += vp
                        if c.p.natural:
                            ok = V.total % w == 0 and part_ok(V.cnt, w, BIG_SUMS)
                        else:
                            ok = V.total == w
                        if ok and is_legal(c, K_AUGMENT, p, sub | c.h.builds[i].cards, w, held):
                            emit_alt(buf, p, K_AUGMENT, sub | c.h.builds[i].cards, w, V.alt | palt)
                    if hi == 0:
                        break
                    hi = (hi - 1) & sub & mloose
                sub = (sub - loose) & loose
                if sub == 0 or buf.overflow:
                    break
        # increases
        for i in range(c.h.nbuilds):
            if c.h.builds[i].multiple:
                continue
            sub = 0
            while True:
                hi = sub & mloose
                while True:
                    if value_loose(c, sub, hi, NVALUES - 1, &V):
                        w = c.h.builds[i].value + vp + V.total
                        if w <= c.p.build_max and (held >> w) & 1 and is_legal(
                                c, K_INCREASE, p, sub | c.h.builds[i].cards, w, held):
                            emit_alt(buf, p, K_INCREASE, sub | c.h.builds[i].cards, w, V.alt | palt)
                    if hi == 0:
                        break
                    hi = (hi - 1) & sub & mloose
                sub = (sub - loose) & loose
                if sub == 0 or buf.overflow:
                    break

# ---------------------------------------------------------------------------------------
# Small tables: the bitset paths of small_gen_b once per valuing of the loose multi-valued
# cards. A valuing is the set ``hi`` of loose multi-valued cards at their second table
# value; a move (takes s, a build move's alt) is listed under the valuing that puts the
# cards of s marked in alt at their second value and every other card at its first, so a
# bitset of subsets is masked with SUPW[hi] (the subsets that contain hi). Captures, which
# carry no alt, can still repeat across the played card's values; gen_multi's sort drops
# the repeats.
# ---------------------------------------------------------------------------------------

cdef uint64_t SUPW[64]       # SUPW[h]: bit s set when s contains h (s, h < 64)
cdef int _h
for _h in range(64):
    SUPW[_h] = 0
    for _s in range(64):
        if (_s & _h) == _h:
            SUPW[_h] |= (<uint64_t>1) << _s

cdef inline bint legal_m(Core* c, LegalCtx* lx, int kind, int p, mask_t takes, int value,
                         uint64_t hp, int target, bint hmulti) noexcept nogil:
    """is_legal for the takes of a whole word of moves (build cards only: loose cards never
    change legality), with hp the values held after playing p."""
    if not legal_fast(c, lx, kind, takes, value, hp, target):
        return False
    return not hmulti or holds_distinct(c, kind, p, takes, value, target)

cdef inline int put_alt(Small* S, MoveBuf* buf, int p, int kind, uint64_t w, mask_t extra,
                        int value, int alt) noexcept nogil:
    """The moves of the compressed subsets of ``w`` joined with ``extra``; -1 on overflow."""
    cdef CMove* mv
    if w == 0:
        return 0
    if buf_room(buf, <size_t>cas_popcount(w)) < 0:
        return -1
    while w:
        mv = &buf.moves[buf.n]
        mv.card = <uint8_t>p
        mv.kind = <uint8_t>kind
        mv.takes = small_cards(S, <uint64_t>cas_ctz(w)) | extra
        mv.value = <uint8_t>value
        mv.alt = <uint8_t>alt
        buf.n += 1
        w &= w - 1
    return 0

cdef int multi_small(Core* c, MoveBuf* buf) noexcept nogil:
    """gen_multi's moves, with repeats, for a table of at most SMALL_B_MAX loose numeric
    cards and SMALL_B_BUILDS builds: 2 (they come in canonical order: each kind's moves
    sorted as they come, a multi-valued card's two runs merged, and the runs of the
    valuings of the loose multi-valued cards merged at the end), 0 when the position is not
    such a table (or the rules need the general path), -1 on overflow."""
    cdef Small S
    cdef Sums1 T
    cdef LegalCtx lx
    cdef CBuild* bd
    cdef mask_t hand = c.h.hands[c.h.to_move], m, rest, bc
    cdef int n, i, j, k, p, vp, nvp, v, bv, bs, nb, palt, alt, nm, hc, hi, vmin
    cdef size_t card_seg, mid = 0
    cdef size_t blk[(1 << SMALL_B_MAX) + 1]
    cdef int mi[SMALL_B_MAX]
    cdef int slot[SMALL_B_MAX]
    cdef int vps[2]
    cdef uint64_t hps[NCARDS]
    cdef uint64_t hp, w, cw, sup, top, lm
    cdef bint hmulti, ordered
    cdef size_t seg
    cdef int words
    cdef int bidx[SMALL_B_BUILDS]
    cdef mask_t bcards[1 << SMALL_B_BUILDS]
    cdef uint8_t blegal[1 << SMALL_B_BUILDS]
    cdef uint8_t trail_ok[NCARDS]
    if not (c.p.natural and c.p.max_sum_groups == BIG_SUMS) or c.p.maximal:
        return 0
    if c.h.nbuilds > SMALL_B_BUILDS or cas_popcount(c.h.loose & c.p.num_mask) > SMALL_B_MAX:
        return 0
    n = small_load(c, &S)
    S.nw = 1
    S.unsorted = 1
    small_tables(&S)
    nm = 0
    for i in range(n):
        if c.p.alt_table[S.ids[i]]:
            mi[nm] = i
            slot[nm] = slot_of(&c.p, S.ids[i])
            nm += 1
    top = (((<uint64_t>1) << c.p.build_max) << 1) - 1
    ordered = nm == 0
    # (small_dfs may stop at the first card above the rest only when values ascend)
    S.unsorted = 0 if ordered and c.p.val_ordered else 1
    legal_setup(c, &lx)
    # the trails depend on no valuing (as in multi_card, a card without a value captures
    # nothing here: every system with multi-valued cards gives every card a value); in
    # order, each comes first in its card's moves
    m = hand
    while m:
        p = cas_ctz(m)
        m &= m - 1
        rest = hand & ~((<mask_t>1) << p)
        hp = held_multi(c, rest)
        hmulti = (rest & c.p.multi_mask) != 0
        hps[p] = hp
        trail_ok[p] = legal_m(c, &lx, K_TRAIL, p, 0, 0, hp, -1, hmulti)
    for hi in range(1 << nm):
        blk[hi] = buf.n
        # every group holds the cards of hi, whole, so totals at least vmin
        hc = 0
        alt = 0
        vmin = 0
        for j in range(nm):
            i = mi[j]
            if (hi >> j) & 1:
                hc |= 1 << i
                alt |= 1 << slot[j]
                S.vals[i] = c.p.alt_table[S.ids[i]]
                if S.vals[i] > vmin:
                    vmin = S.vals[i]
            else:
                S.vals[i] = c.p.val[S.ids[i]]
        sup = SUPW[hc]
        sums1_load(&T, S.vals, NULL, n, 0)    # (the groups and unions of this valuing)
        m = hand
        while m:
            p = cas_ctz(m)
            m &= m - 1
            hp = hps[p]
            hmulti = (hand & ~((<mask_t>1) << p) & c.p.multi_mask) != 0
            vps[0] = c.p.hval[p]
            nvp = 1
            if c.p.alt_val[p]:
                vps[1] = c.p.alt_val[p]
                nvp = 2
            card_seg = buf.n
            if hi == 0 and trail_ok[p]:
                # (the trails depend on no valuing: listed with the first one)
                emit_alt(buf, p, K_TRAIL, 0, 0, 0)
            for k in range(nvp):
                vp = vps[k]
                if k == 1:
                    mid = buf.n
                if vp <= 0 or vp >= NVALUES:
                    continue
                palt = (1 << slot_of(&c.p, p)) if k == 1 else 0
                # captures: loose groups of vp with any of the builds of vp
                seg = buf.n
                words = 0
                nb = 0 if vp >= vmin else -1
                for i in range(c.h.nbuilds if nb == 0 else 0):
                    if c.h.builds[i].value == vp:
                        bidx[nb] = i
                        nb += 1
                w = sums1_P(&T, vp) & sup if nb >= 0 else 0
                for bs in range(1 << nb if nb >= 0 else 0):
                    cw = w if bs else w & ~(<uint64_t>1)
                    if cw == 0:
                        continue
                    bc = builds_union(c, bidx, nb, bs)
                    if legal_m(c, &lx, K_CAPTURE, p, bc, 0, hp, -1, hmulti):
                        if put_alt(&S, buf, p, K_CAPTURE, cw, bc, 0, 0) < 0:
                            return -1
                        words += 1
                if words > 1:     # (one word comes in order: ids ascend with the bits)
                    seg_sort_(buf, seg, 0)
                # creates of a value v held after the play: the card's own group joined
                # with any disjoint groups of v
                seg = buf.n
                words = 0
                lm = hp & ~(((<uint64_t>1) << vp) - 1) & ~(((<uint64_t>1) << vmin) - 1) & top
                while lm:
                    v = cas_ctz(lm)
                    lm &= lm - 1
                    if v == vp:
                        cw = sums1_P(&T, v) & ~(<uint64_t>1)
                    else:
                        cw = sums1_with(&T, v, v - vp)
                    cw &= sup
                    if cw and legal_m(c, &lx, K_BUILD, p, 0, v, hp, -1, hmulti):
                        if put_alt(&S, buf, p, K_BUILD, cw, 0, v, alt | palt) < 0:
                            return -1
                        words += 1
                if words > 1:     # (one word comes in order: ids ascend with the bits)
                    seg_sort_(buf, seg, 0)
                # augments: the card and loose cards added to a build of bv, in groups of bv
                seg = buf.n
                words = 0
                for i in range(c.h.nbuilds):
                    bd = &c.h.builds[i]
                    bv = bd.value
                    if vp > bv or bv < vmin:
                        continue
                    cw = (sums1_P(&T, bv) if bv == vp else sums1_with(&T, bv, bv - vp)) & sup
                    if cw and legal_m(c, &lx, K_AUGMENT, p, bd.cards, bv, hp, i, hmulti):
                        if put_alt(&S, buf, p, K_AUGMENT, cw, bd.cards, bv, alt | palt) < 0:
                            return -1
                        words += 1
                if words > 1:     # (one word comes in order: ids ascend with the bits)
                    seg_sort_(buf, seg, 0)
                # increases: a simple build raised to v by the card and one group of the rest
                seg = buf.n
                words = 0
                for i in range(c.h.nbuilds):
                    bd = &c.h.builds[i]
                    bv = bd.value
                    if bd.multiple or bv + vp > c.p.build_max:
                        continue
                    for v in range(bv + vp + vmin, c.p.build_max + 1):
                        if not (hp >> v) & 1:
                            continue
                        cw = (sums1_groups(&T, v - bv - vp) if v > bv + vp else 1) & sup
                        if cw and legal_m(c, &lx, K_INCREASE, p, bd.cards, v, hp, i, hmulti):
                            if put_alt(&S, buf, p, K_INCREASE, cw, bd.cards, v, alt | palt) < 0:
                                return -1
                            words += 1
                if words > 1:     # (one word comes in order: ids ascend with the bits)
                    seg_sort_(buf, seg, 0)
            if nvp == 2:
                # the two values' runs of a multi-valued card: one sorted segment
                merge_runs(buf, card_seg, mid, buf.n)
    if buf.overflow:
        return -1
    # each valuing's moves are one sorted run: merged into one
    blk[1 << nm] = buf.n
    for hi in range(1, 1 << nm):
        merge_runs(buf, 0, blk[hi], blk[hi + 1])
    return 2

cdef int multi_plain(Core* c, MoveBuf* buf) noexcept nogil:
    """gen_multi's moves, with repeats, for a table without builds and without loose
    multi-valued cards, of at most SMALL_B_MAX loose numeric cards: the plain generator's
    small_card1 once per value of each card, with the values held after the play counting
    the second values of the hand (held_multi). No build is on the table, so every trail is
    legal and every create of a held value too (holds_distinct then needs one value only).
    2: in canonical order but for the segment of each multi-valued played card; 0 when the
    position is not such a table; -1 on overflow."""
    cdef Small S
    cdef mask_t hand = c.h.hands[c.h.to_move], m
    cdef int n, i, k, p, vp, nvp, palt
    cdef int vps[2]
    cdef int best[NCARDS]
    cdef uint64_t hp
    cdef size_t card_seg, seg, r, mid = 0
    if c.h.nbuilds or c.p.maximal or not (c.p.natural and c.p.max_sum_groups == BIG_SUMS):
        return 0
    if (c.h.loose & c.p.multi_mask) or cas_popcount(c.h.loose & c.p.num_mask) > SMALL_B_MAX:
        return 0
    m = hand
    while m:
        if c.p.hval[cas_ctz(m)] == 0:
            return 0         # (small_card1 lists the moves of a card with a value)
        m &= m - 1
    n = small_load(c, &S)
    S.nw = 1
    small_tables(&S)
    S.sreach[n] = 1
    for i in range(n - 1, -1, -1):
        S.sreach[i] = S.sreach[i + 1] | (S.sreach[i + 1] << S.vals[i])
    S.have_g = 0
    S.have_p = 0
    S.used = 0
    memset(best, 0, sizeof(best))    # (unread: capture_extent=maximal takes other paths)
    m = hand
    while m:
        p = cas_ctz(m)
        m &= m - 1
        hp = held_multi(c, hand & ~((<mask_t>1) << p))
        card_seg = buf.n
        emit_alt(buf, p, K_TRAIL, 0, 0, 0)
        vps[0] = c.p.hval[p]
        nvp = 1
        if c.p.alt_val[p]:
            vps[1] = c.p.alt_val[p]
            nvp = 2
        for k in range(nvp):
            vp = vps[k]
            if k == 1:
                mid = buf.n
            if vp <= 0 or vp >= NVALUES:
                continue
            seg = buf.n
            if small_card1(c, buf, &S, p, vp, hp, best) < 0:
                return -1
            palt = (1 << slot_of(&c.p, p)) if k == 1 else 0
            for r in range(seg, buf.n):
                buf.moves[r].alt = <uint8_t>(palt if buf.moves[r].kind >= K_BUILD else 0)
        if nvp == 2:
            # the two values' runs of a multi-valued card: one sorted segment
            merge_runs(buf, card_seg, mid, buf.n)
    return -1 if buf.overflow else 2

# ---------------------------------------------------------------------------------------
# Larger tables: the output-sensitive path (fast_card) once per valuing of the loose
# multi-valued cards and value of the played card, its moves kept under the same rule as
# multi_small's (the valuing puts exactly the cards of the takes at their second value)
# and checked for the holding of distinct cards (holds_distinct), which legal_fast leaves.
# ---------------------------------------------------------------------------------------

cdef int multi_fast(Core* c, MoveBuf* buf) noexcept nogil:
    """gen_multi's moves, with repeats, for up to FAST_MAX_CARDS loose numeric cards: 2 when
    they come in canonical order but for the segment of each multi-valued played card (no
    loose multi-valued card: fast_card lists each card's moves in order), 1 when unsorted,
    0 when this path cannot list them (the buffer then holds junk), -1 on overflow."""
    cdef Fast F
    cdef LegalCtx lx
    cdef mask_t hand = c.h.hands[c.h.to_move], m, rest, hm
    cdef mask_t mcards[FAST_MAX_CARDS]
    cdef int slot[FAST_MAX_CARDS]
    cdef int best[NCARDS]
    cdef int vps[2]
    cdef int n, i, j, k, p, v, vp, nvp, nm, hi, alt, palt, kind, target
    cdef uint64_t hp
    cdef bint hmulti
    cdef size_t seg, r, w, card_seg, mid = 0
    cdef CMove* mv
    if c.p.maximal:
        return 0
    m = c.h.loose & c.p.num_mask
    if cas_popcount(m) > FAST_MAX_CARDS:
        return 0
    nm = 0
    hm = m & c.p.multi_mask
    while hm:
        i = cas_ctz(hm)
        hm &= hm - 1
        if c.p.alt_table[i]:
            mcards[nm] = (<mask_t>1) << i
            slot[nm] = slot_of(&c.p, i)
            nm += 1
    memset(best, 0, sizeof(best))
    legal_setup(c, &lx)
    F.lx = &lx
    for hi in range(1 << nm):
        hm = 0
        alt = 0
        F.min_value = 0      # every group holds the cards of hi, whole: no smaller total
        for j in range(nm):
            if (hi >> j) & 1:
                hm |= mcards[j]
                alt |= 1 << slot[j]
                i = cas_ctz(mcards[j])
                if c.p.alt_table[i] > F.min_value:
                    F.min_value = c.p.alt_table[i]
        # the loose cards at this valuing, lowest value first
        m = c.h.loose & c.p.num_mask
        n = 0
        while m:
            i = cas_ctz(m)
            m &= m - 1
            v = c.p.alt_table[i] if (hm >> i) & 1 else c.p.val[i]
            j = n
            while j > 0 and F.vals[j - 1] > v:
                F.vals[j] = F.vals[j - 1]
                F.ids[j] = F.ids[j - 1]
                j -= 1
            F.vals[j] = <uint8_t>v
            F.ids[j] = <uint8_t>i
            n += 1
        F.n = n
        F.sreach[n] = 1
        for i in range(n - 1, -1, -1):
            F.sreach[i] = F.sreach[i + 1] | (F.sreach[i + 1] << F.vals[i])
        F.have = 0
        F.used = 0
        F.full = 0
        F.dup = 0
        F.c = c
        m = hand
        while m:
            p = cas_ctz(m)
            m &= m - 1
            rest = hand & ~((<mask_t>1) << p)
            hp = held_multi(c, rest)
            hmulti = (rest & c.p.multi_mask) != 0
            vps[0] = c.p.hval[p]
            nvp = 1
            if c.p.alt_val[p]:
                vps[1] = c.p.alt_val[p]
                nvp = 2
            card_seg = buf.n
            for k in range(nvp):
                vp = vps[k]
                seg = buf.n
                if k == 1:
                    mid = buf.n
                if vp <= 0 or vp >= NVALUES:
                    # (as in multi_card: no captures by a card without a value)
                    if hi == 0 and k == 0 and is_legal(c, K_TRAIL, p, 0, 0, hp):
                        emit_alt(buf, p, K_TRAIL, 0, 0, 0)
                    continue
                if fast_card(c, &F, buf, p, vp, hp, best) < 0 or F.full:
                    return 0
                if buf.overflow:
                    return -1
                palt = (1 << slot_of(&c.p, p)) if k == 1 else 0
                w = seg
                for r in range(seg, buf.n):
                    mv = &buf.moves[r]
                    kind = mv.kind
                    if (mv.takes & hm) != hm or (kind == K_TRAIL and (hi or k)):
                        continue
                    if hmulti:
                        target = target_of(c, mv.takes) if kind == K_AUGMENT or kind == K_INCREASE else -1
                        if not holds_distinct(c, kind, p, mv.takes, mv.value, target):
                            continue
                    mv.alt = <uint8_t>((alt | palt) if kind >= K_BUILD else 0)
                    buf.moves[w] = mv[0]
                    w += 1
                buf.n = w
            if nm == 0 and nvp == 2:
                # the two values' runs of a multi-valued card: one sorted segment
                merge_runs(buf, card_seg, mid, buf.n)
    return 2 if nm == 0 else 1

cdef inline bint relabelled(const Params* p, const CMove* moves, size_t g, size_t w,
                            int alt) noexcept nogil:
    """Whether a kept move of moves[g:w] is ``alt``'s valuing up to interchangeable cards."""
    cdef size_t i
    for i in range(g, w):
        if alt_equiv(p, moves[i].alt, alt):
            return True
    return False

cdef int gen_multi(Core* c, MoveBuf* buf) noexcept nogil:
    """gen_moves for a position with a multi-valued card in the hand to move or loose."""
    cdef mask_t hand = c.h.hands[c.h.to_move], m
    cdef int best[NCARDS]
    cdef size_t r, w, g
    cdef int small = 0
    cdef bint swept = 0
    buf.n = 0
    buf.overflow = 0
    if not c.p.general_paths:
        small = multi_plain(c, buf)
        if small == 0:
            small = multi_small(c, buf)
        if small < 0:
            return -1
    if small == 0 and not c.p.general_paths:
        small = multi_fast(c, buf)
        if small < 0:
            return -1
        if small == 0:
            buf.n = 0
            buf.overflow = 0
    if small == 0:
        memset(best, 0, sizeof(best))
        m = hand
        while m and not buf.overflow:
            multi_card(c, buf, cas_ctz(m), hand, best)
            m &= m - 1
    if buf.overflow:
        return -1
    if c.p.sweep_cards:
        swept = sweep_pass(c, buf, hand, best if small == 0 else NULL, True)
        if buf.overflow:
            return -1
    if small != 2 or swept:
        sort_multi(buf.moves, buf.n)
    w = 0
    g = 0           # the first kept move of the current (card, kind, takes, value) group
    for r in range(buf.n):
        # (the kept moves g..w-1 share card, kind, takes and value)
        if w > 0 and cmp_moves(&buf.moves[w - 1], &buf.moves[r]) == 0:
            if buf.moves[w - 1].alt == buf.moves[r].alt:
                continue     # a repeat
            # the same build with interchangeable cards labelled otherwise: one move, the
            # canonical (lowest) labelling first in the sort order (docs/format.md)
            if K_BUILD <= buf.moves[r].kind <= K_INCREASE and relabelled(
                    &c.p, buf.moves, g, w, buf.moves[r].alt):
                continue
        else:
            g = w
        if (small == 0 and c.p.maximal and buf.moves[r].kind == K_CAPTURE
                and cas_popcount(buf.moves[r].takes) < best[buf.moves[r].card]):
            continue         # (best: written by multi_card alone, so read only after it)
        buf.moves[w] = buf.moves[r]
        w += 1
    buf.n = w
    if buf.n == 0:
        m = hand
        while m:
            emit_alt(buf, cas_ctz(m), K_TRAIL, 0, 0, 0)
            m &= m - 1
        if buf.overflow:
            return -1
    return <int>buf.n

cdef uint64_t count_multi(Core* c) noexcept nogil:
    """count_moves_c for gen_multi positions: list them and count."""
    cdef MoveBuf buf
    cdef int n
    buf.moves = NULL
    buf.n = 0
    buf.cap = 0
    buf.limit = LIST_LIMIT
    buf.overflow = 0
    n = gen_multi(c, &buf)
    free(buf.moves)
    return <uint64_t>(n if n >= 0 else 0)

cdef int load_multi(Params* p, object rules) except -1:
    """The second values of the multi-valued cards (Royal, Buckeye)."""
    cdef int i
    p.multi_mask = 0
    p.nmulti = 0
    memset(p.alt_val, 0, sizeof(p.alt_val))
    memset(p.alt_table, 0, sizeof(p.alt_table))
    for i in range(p.nids):
        p.alt_val[i] = rules.second_value(i)
        p.alt_table[i] = rules.second_value(i, on_table=True)
        if p.alt_val[i]:
            p.multi_mask |= (<mask_t>1) << i
            p.nmulti += 1
    if p.nmulti > 8:
        raise ValueError("the core supports at most 8 multi-valued cards")
    return 0

cdef object fixed_of(const Params* p, mask_t cards, int alt):
    """Move.fixed / Build.fixed of the cards of ``cards`` marked in ``alt``."""
    cdef int c
    cdef mask_t m = cards & p.multi_mask
    out = []
    while m:
        c = cas_ctz(m)
        if (alt >> slot_of(p, c)) & 1:
            out.append((c, p.alt_val[c]))
        m &= m - 1
    return tuple(out)

cdef int alt_of(const Params* p, object fixed) except -1:
    """CMove.alt / CBuild.alt of Move.fixed / Build.fixed; -1 (and no error) if some pair
    is not a multi-valued card at its second value."""
    cdef int alt = 0, card
    for card_o, value in fixed:
        if not isinstance(card_o, int) or not 0 <= card_o < NCARDS:
            return -2     # (checked before the C cast, which would overflow)
        card = card_o
        if not (p.multi_mask >> card) & 1 or p.alt_val[card] != value:
            return -2
        alt |= 1 << slot_of(p, card)
    return alt

cdef object to_move_p(const Params* p, CMove* m):
    """_to_move with Move.fixed filled from the CMove's alt bits."""
    mv = _to_move(m)
    if p.nmulti and K_BUILD <= m.kind <= K_INCREASE and m.alt:
        mv.__dict__["fixed"] = fixed_of(p, m.takes | ((<mask_t>1) << m.card), m.alt)
    return mv
