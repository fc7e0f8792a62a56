# Diloti declarations (docs/rules.md §3.17, §3.18, AMB-42..51), as the reference's
# cassino/reference/declarations.py (State._pseudo_diloti)
# and _diloti_violation: every build is a declaration, plain (one group) or family (two or
# more). BUILD declares (new, or grouping plain declarations of its value), AUGMENT adds to
# one family declaration, INCREASE raises a plain declaration by the played card (optionally
# with more groups of the new value). Ownership always passes to the player (AMB-46). The
# moves are listed per card, filtered, then sorted; counting and streaming list them too.

cdef inline bint dil_groups(Core* c, mask_t m, int v) noexcept nogil:
    """Whether the numeric cards of m split into groups totalling v (_reference.groups_ok)."""
    cdef int cnt[NVALUES]
    cdef int x
    mask_counts(c, m, cnt)
    for x in range(v + 1, NVALUES):
        if cnt[x]:
            return False
    return part_ok(cnt, v, BIG_SUMS)

cdef inline int dil_plain(Core* c, int v, mask_t* out) noexcept nogil:
    """The card masks of the plain declarations of value v; their number."""
    cdef int i, n = 0
    for i in range(c.h.nbuilds):
        if not c.h.builds[i].multiple and c.h.builds[i].value == v:
            out[n] = c.h.builds[i].cards
            n += 1
    return n

cdef inline mask_t dil_union(mask_t* ms, int n, uint64_t chosen) noexcept nogil:
    cdef mask_t u = 0
    cdef int i
    for i in range(n):
        if (chosen >> i) & 1:
            u |= ms[i]
    return u

cdef inline mask_t dil_below(Core* c, int w) noexcept nogil:
    """The loose cards with a value from 1 to w."""
    cdef mask_t t = c.h.loose & c.p.num_mask, out = 0
    cdef int k
    while t:
        k = cas_ctz(t)
        t &= t - 1
        if c.p.val[k] <= w:
            out |= (<mask_t>1) << k
    return out

cdef struct Dil:
    # what dil_ok needs of a position (dil_position) and a hand card (dil_setup)
    int me                   # the player's seat bit
    int team
    mask_t bcards            # the cards of every declaration
    int nown                 # the player's declarations: their cards and values
    mask_t own[MAX_BUILDS]
    uint8_t own_value[MAX_BUILDS]
    int p                    # the hand card
    uint64_t held            # the values the player holds after playing it
    mask_t same              # the loose cards of its rank
    mask_t need[MAX_BUILDS]  # the player's declarations of a value no longer held: each
    int nneed                # move must take every one of them

cdef void dil_position(Core* c, Dil* d) noexcept nogil:
    """Fill the position's part of d, for the player to move."""
    cdef int i
    cdef CBuild* b
    d.me = 1 << c.h.to_move
    d.team = c.p.team_of[c.h.to_move]
    d.bcards = 0
    d.nown = 0
    for i in range(c.h.nbuilds):
        b = &c.h.builds[i]
        d.bcards |= b.cards
        if b.owners & d.me:
            d.own[d.nown] = b.cards
            d.own_value[d.nown] = b.value
            d.nown += 1

cdef inline void dil_setup(Core* c, Dil* d, int p, uint64_t held) noexcept nogil:
    """Fill the card's part of d (after dil_position): hand card p, the player holding
    ``held`` after playing it."""
    cdef int i
    d.p = p
    d.held = held
    d.same = c.h.loose & ((<mask_t>0xF) << (4 * (p // 4)))
    d.nneed = 0
    for i in range(d.nown):
        if not (held >> d.own_value[i]) & 1:
            d.need[d.nneed] = d.own[i]
            d.nneed += 1

cdef bint dil_ok(Core* c, Dil* d, int kind, mask_t takes, int value) noexcept nogil:
    """Whether a structurally valid Diloti move passes the filters (_diloti_violation)."""
    cdef mask_t got
    cdef int i, ntaken = 0, target = -1, family = -1
    cdef CBuild* b
    for i in range(d.nneed):
        if not (d.need[i] & takes):
            return False     # the player would no longer hold an own declaration's value
    if kind == K_TRAIL:
        return not d.same and not d.nown
    if takes & d.bcards:
        for i in range(c.h.nbuilds):
            b = &c.h.builds[i]
            if b.cards & takes:
                ntaken += 1
                if b.value != value:
                    target = i
                if b.multiple:
                    family = i
    if kind == K_CAPTURE:
        got = takes & d.same
        if c.p.val[d.p] and c.p.all_matches and got and got != d.same:
            return False
        if ntaken and not c.p.decl_in_capture and (ntaken > 1 or (takes & c.h.loose)):
            return False
    if kind >= K_BUILD:
        if not (d.held >> value) & 1:
            return False
        if (kind == K_BUILD and ntaken == 0 and cas_popcount(takes) < c.p.min_decl_cards
                and mask_sum(c, takes) + c.p.val[d.p] == value):
            return False
        if kind == K_INCREASE and target >= 0:
            b = &c.h.builds[target]
            if b.owners & d.me:
                return False
            if (c.p.team_of[cas_ctz(b.owners)] == d.team
                    and not (b.raised & ~(1 << d.team))):
                return False
        if kind == K_AUGMENT and c.p.augment_own and family >= 0:
            if c.p.team_of[cas_ctz(c.h.builds[family].owners)] != d.team:
                return False
    if d.nown:
        if kind == K_INCREASE:
            return False
        if kind == K_BUILD and c.p.no_declare and ntaken == 0:
            return False
    return True

cdef inline bint dil_ok_bare(Core* c, Dil* d, int kind, mask_t takes, int value) noexcept nogil:
    """dil_ok on a table without declarations."""
    cdef mask_t got
    if kind == K_TRAIL:
        return d.same == 0
    if kind == K_CAPTURE:
        got = takes & d.same
        return not (c.p.val[d.p] and c.p.all_matches and got and got != d.same)
    if not (d.held >> value) & 1:
        return False
    return not (kind == K_BUILD and cas_popcount(takes) < c.p.min_decl_cards
                and mask_sum(c, takes) + c.p.val[d.p] == value)

cdef inline void dil_emit(Core* c, MoveBuf* buf, Dil* d, int kind, mask_t takes,
                          int value) noexcept nogil:
    if (dil_ok_bare(c, d, kind, takes, value) if c.h.nbuilds == 0
            else dil_ok(c, d, kind, takes, value)):
        emit(buf, d.p, kind, takes, value)

cdef void dil_card(Core* c, MoveBuf* buf, Dil* d) noexcept nogil:
    """The moves of hand card d.p that pass the filters (unsorted). With values ascending
    with the card ids and at most 10 loose numeric cards, the cards of a value up to w are
    the first ones of the loose list, so each walk over their subsets counts the compressed
    index along and reads the totals from a table (made by doubling) instead of summing."""
    cdef int p = d.p
    cdef uint8_t sums[1024]
    cdef uint8_t lv[10]
    cdef mask_t lm
    cdef int n = 0, idx
    cdef bint tab
    cdef uint64_t held = d.held
    cdef int vp = c.p.val[p]
    cdef mask_t same, cand, sub, extra, bit = (<mask_t>1) << p
    cdef mask_t plains[MAX_BUILDS]
    cdef int np, i, v, w, total, top, hmax
    cdef uint64_t ch, hv
    cdef CBuild* b
    dil_emit(c, buf, d, K_TRAIL, 0, 0)
    if vp == 0:
        # royalty: exactly one loose card of its rank (face_capture=one)
        same = c.h.loose & ((<mask_t>0xF) << (4 * (p // 4)))
        while same:
            dil_emit(c, buf, d, K_CAPTURE, same & (~same + 1), 0)
            same &= same - 1
        return
    lm = c.h.loose & c.p.num_mask
    tab = c.p.val_ordered and cas_popcount(lm) <= 10
    if tab:
        memset(sums, 0, 16)
        while lm:
            lv[n] = c.p.val[cas_ctz(lm)]
            cas_bytes_double(sums, n, lv[n])
            lm &= lm - 1
            n += 1
    # captures: groups of vp with any declarations of vp taken whole
    cand = dil_below(c, vp)
    np = 0
    for i in range(c.h.nbuilds):
        if c.h.builds[i].value == vp:
            plains[np] = c.h.builds[i].cards
            np += 1
    sub = 0
    idx = 0
    while True:
        if sub == 0 or ((sums[idx] if tab else mask_sum(c, sub)) % vp == 0
                        and dil_groups(c, sub, vp)):
            for ch in range((<uint64_t>1) << np):
                if sub or ch:
                    dil_emit(c, buf, d, K_CAPTURE, sub | dil_union(plains, np, ch), 0)
        sub = (sub - cand) & cand
        idx += 1
        if sub == 0:
            break
    # new declarations: p with loose numeric cards and plain declarations of the value;
    # the value is held after the play (dil_ok), so no card above the highest held value
    # can be in one
    hmax = cas_top(held) if held else 0
    cand = dil_below(c, hmax) if hmax >= vp else 0
    sub = 0
    idx = 0
    while hmax >= vp:
        if tab:
            total = vp + sums[idx]
            top = lv[cas_top(<mask_t>idx)] if idx else 0
        else:
            total = vp + mask_sum(c, sub)
            top = mask_maxval(c, sub)
        if top < vp:
            top = vp
        # the values tried: held after the play (the holding requirement, dil_ok), from
        # the highest card's value up to the total and the maximum
        hv = held >> top << top
        if total < c.p.build_max:
            hv &= ((<uint64_t>2) << total) - 1
        else:
            hv &= ((<uint64_t>2) << c.p.build_max) - 1
        while hv:
            v = cas_ctz(hv)
            hv &= hv - 1
            if total % v == 0 and (total == v or dil_groups(c, sub | bit, v)):
                np = dil_plain(c, v, plains)
                for ch in range((<uint64_t>1) << np):
                    if sub or ch:
                        dil_emit(c, buf, d, K_BUILD, sub | dil_union(plains, np, ch), v)
        sub = (sub - cand) & cand
        idx += 1
        if sub == 0:
            break
    # additions to a family declaration
    for i in range(c.h.nbuilds):
        b = &c.h.builds[i]
        w = b.value
        if not b.multiple or vp > w or not (held >> w) & 1:
            continue
        cand = dil_below(c, w)
        np = dil_plain(c, w, plains)
        sub = 0
        idx = 0
        while True:
            if (((sums[idx] if tab else mask_sum(c, sub)) + vp) % w == 0
                    and dil_groups(c, sub | bit, w)):
                for ch in range((<uint64_t>1) << np):
                    dil_emit(c, buf, d, K_AUGMENT, c.h.builds[i].cards | sub
                             | dil_union(plains, np, ch), w)
            sub = (sub - cand) & cand
            idx += 1
            if sub == 0:
                break
    # raises of a plain declaration, optionally into a family declaration of the new value
    for i in range(c.h.nbuilds):
        b = &c.h.builds[i]
        w = b.value + vp
        if b.multiple or w > c.p.build_max or not (held >> w) & 1:
            continue
        cand = dil_below(c, w)
        np = dil_plain(c, w, plains)
        sub = 0
        idx = 0
        while True:
            if sub == 0 or ((sums[idx] if tab else mask_sum(c, sub)) % w == 0
                            and dil_groups(c, sub, w)):
                for ch in range((<uint64_t>1) << np):
                    dil_emit(c, buf, d, K_INCREASE, c.h.builds[i].cards | sub
                             | dil_union(plains, np, ch), w)
            sub = (sub - cand) & cand
            idx += 1
            if sub == 0:
                break

# Small tables (at most SMALL_B_MAX loose numeric cards): the subsets dil_card walks and
# tests one by one are the bitsets of small_card1 (unions of disjoint groups), each of its
# moves still checked by dil_ok.

cdef inline bint dil_word_free(Core* c, Dil* d, int kind, int value) noexcept nogil:
    """Whether dil_ok passes every capture or declaration of card d.p of loose cards alone
    (no declaration taken; none of the player's own must be: d.nneed == 0)."""
    if kind == K_CAPTURE:
        return not (c.p.all_matches and c.p.val[d.p] and d.same)
    return (kind == K_BUILD and c.p.min_decl_cards <= 1 and (d.held >> value) & 1
            and not (d.nown and c.p.no_declare))

cdef inline void dil_word(Core* c, MoveBuf* buf, Small* S, Dil* d, int kind, uint64_t w,
                          mask_t base, mask_t* plains, int np, int value,
                          bint nonempty) noexcept nogil:
    """dil_emit for each subset of ``w`` joined with ``base`` and any of the ``plains``;
    with ``nonempty``, not the empty subset without plains."""
    cdef uint64_t ch
    cdef mask_t sub
    if np == 0 and base == 0:
        # moves of loose cards alone
        if d.nneed:
            return           # none takes the player's declarations that it must (dil_ok)
        if dil_word_free(c, d, kind, value):
            # every move of the word passes dil_ok: listed without the filter
            if nonempty:
                w &= ~(<uint64_t>1)
            if w and buf_room(buf, <size_t>cas_popcount(w)) == 0:
                put_word(S, buf, d.p, kind, w, value)
            return
    while w:
        sub = small_cards(S, <uint64_t>cas_ctz(w))
        w &= w - 1
        for ch in range((<uint64_t>1) << np):
            if nonempty and sub == 0 and ch == 0:
                continue
            dil_emit(c, buf, d, kind, base | sub | dil_union(plains, np, ch), value)

cdef void dil_card_small(Core* c, MoveBuf* buf, Small* S, Sums1* T, Dil* d) noexcept nogil:
    """dil_card by bitsets of subsets (S loaded with the loose numeric cards, n <= 6, T with
    their subsets' totals), in canonical order: each kind's moves are sorted as they come
    (seg_sort_)."""
    cdef int p = d.p
    cdef uint64_t held = d.held
    cdef int vp = c.p.val[p]
    cdef mask_t same
    cdef mask_t plains[MAX_BUILDS]
    cdef int np, i, v, w, words
    cdef uint64_t lm, cw
    cdef CBuild* b
    cdef size_t seg
    dil_emit(c, buf, d, K_TRAIL, 0, 0)
    if vp == 0:
        same = c.h.loose & ((<mask_t>0xF) << (4 * (p // 4)))
        while same:
            dil_emit(c, buf, d, K_CAPTURE, same & (~same + 1), 0)
            same &= same - 1
        return
    # captures: groups of vp with any declarations of vp taken whole
    np = 0
    for i in range(c.h.nbuilds):
        if c.h.builds[i].value == vp:
            plains[np] = c.h.builds[i].cards
            np += 1
    seg = buf.n
    dil_word(c, buf, S, d, K_CAPTURE, sums1_P(T, vp), 0, plains, np, 0, True)
    if np:
        seg_sort_(buf, seg, 0)   # (one word alone comes in order: ids ascend with the bits)
    # new declarations of a value v held after the play: p's group and groups of v
    seg = buf.n
    lm = held & ~(((<uint64_t>1) << vp) - 1) & ((((<uint64_t>1) << c.p.build_max) << 1) - 1)
    words = 0
    while lm:
        v = cas_ctz(lm)
        lm &= lm - 1
        cw = sums1_P(T, v) if v == vp else sums1_with(T, v, v - vp)
        if cw:
            np = dil_plain(c, v, plains)
            dil_word(c, buf, S, d, K_BUILD, cw, 0, plains, np, v, True)
            words += 2 if np else 1
    if words > 1:
        seg_sort_(buf, seg, 0)   # (more than one word, or a word joined with declarations)
    if c.h.nbuilds == 0:
        return               # (no declaration to add to or raise)
    # additions to a family declaration
    seg = buf.n
    for i in range(c.h.nbuilds):
        b = &c.h.builds[i]
        w = b.value
        if not b.multiple or vp > w or not (held >> w) & 1:
            continue
        cw = sums1_P(T, w) if w == vp else sums1_with(T, w, w - vp)
        if cw:
            np = dil_plain(c, w, plains)
            dil_word(c, buf, S, d, K_AUGMENT, cw, b.cards, plains, np, w, False)
    seg_sort_(buf, seg, 0)
    # raises of a plain declaration, optionally into a family declaration of the new value
    seg = buf.n
    for i in range(c.h.nbuilds):
        b = &c.h.builds[i]
        w = b.value + vp
        if b.multiple or w > c.p.build_max or not (held >> w) & 1:
            continue
        cw = sums1_P(T, w)
        np = dil_plain(c, w, plains)
        dil_word(c, buf, S, d, K_INCREASE, cw, b.cards, plains, np, w, False)
    seg_sort_(buf, seg, 0)

cdef int gen_diloti(Core* c, MoveBuf* buf) noexcept nogil:
    """The legal moves of a Diloti position in canonical order; -1 on overflow."""
    cdef mask_t hand = c.h.hands[c.h.to_move]
    cdef mask_t m = hand
    cdef int p, i, n, v, r, ranks = 0
    cdef size_t k
    cdef size_t seg_lo[16]       # the moves of the first hand card of each rank (ids < 64)
    cdef size_t seg_hi[16]
    cdef uint64_t held, twice, hp
    cdef Small S
    cdef Sums1 T
    cdef Dil d
    cdef bint small = (not c.p.general_paths
                       and cas_popcount(c.h.loose & c.p.num_mask) <= SMALL_B_MAX)
    if small:
        n = small_load(c, &S)
        S.nw = 1
        small_tables(&S)
        sums1_load(&T, S.vals, NULL, n, 0)
    # the values held after playing p: all but p's own, unless another card has it
    held = 0
    twice = 0
    while m:
        v = c.p.val[cas_ctz(m)]
        twice |= held & ((<uint64_t>1) << v)
        held |= (<uint64_t>1) << v
        m &= m - 1
    m = hand
    dil_position(c, &d)
    while m and not buf.overflow:
        p = cas_ctz(m)
        m &= m - 1
        r = p >> 2           # (the rank's four ids)
        if (ranks >> r) & 1:
            # a card of the rank of an earlier one: the same value, the same loose cards of
            # its rank and the same values held after it, so the same moves (dil_ok reads
            # the card's value only), under its own id
            if buf_room(buf, seg_hi[r] - seg_lo[r]) < 0:
                break
            for k in range(seg_lo[r], seg_hi[r]):
                buf.moves[buf.n] = buf.moves[k]
                buf.moves[buf.n].card = <uint8_t>p
                buf.n += 1
            continue
        if c.p.face_builds:
            hp = held_values(c, hand & ~((<mask_t>1) << p))
        else:
            hp = (held & ~((<uint64_t>1) << c.p.val[p]) | twice) & ~(<uint64_t>1)
        dil_setup(c, &d, p, hp)
        seg_lo[r] = buf.n
        if small:
            dil_card_small(c, buf, &S, &T, &d)
        else:
            dil_card(c, buf, &d)
        seg_hi[r] = buf.n
        ranks |= 1 << r
    if buf.overflow:
        return -1
    if buf.n == 0:
        # (only in positions no legal play reaches: every trail)
        m = hand
        while m:
            emit(buf, cas_ctz(m), K_TRAIL, 0, 0)
            m &= m - 1
        if buf.overflow:
            return -1
    if not small:
        sort_moves(buf.moves, buf.n)
    return <int>buf.n

cdef void apply_declaration(Core* c, const CMove* m, int seat) noexcept nogil:
    """A declaring move (_reference.State._push_declaration): the cards taken and the
    declarations they touch become one declaration of m.value owned by the player; a raise
    records the raiser's team in Four Player Diloti."""
    cdef mask_t cards = m.takes | ((<mask_t>1) << m.card)
    cdef int i
    cdef uint8_t raised = 0
    cdef bint multiple = mask_sum(c, cards) >= 2 * m.value
    if m.kind == K_INCREASE and not multiple and c.p.partnership:
        for i in range(c.h.nbuilds):
            if (c.h.builds[i].cards & m.takes) and c.h.builds[i].value != m.value:
                raised = <uint8_t>(c.h.builds[i].raised | (1 << c.p.team_of[seat]))
    c.h.loose &= ~m.takes
    i = 0
    while i < c.h.nbuilds:
        if c.h.builds[i].cards & m.takes:
            remove_build(c, i)
        else:
            i += 1
    if c.h.nbuilds < MAX_BUILDS:
        i = c.h.nbuilds
        c.h.builds[i].cards = cards
        c.h.builds[i].value = m.value
        c.h.builds[i].owners = <uint8_t>(1 << seat)
        c.h.builds[i].multiple = 1 if multiple else 0
        c.h.builds[i].alt = 0
        c.h.builds[i].raised = raised
        c.h.nbuilds += 1

cdef inline bint first_play(Core* c) noexcept nogil:
    """Whether no card of the hand has been played yet (AMB-48)."""
    cdef int s
    if not c.p.xeri_first or c.stock_len - c.h.stock_pos != c.p.fresh_stock:
        return False
    for s in range(c.p.players):
        if cas_popcount(c.h.hands[s]) != c.p.hand_size:
            return False
    return True
