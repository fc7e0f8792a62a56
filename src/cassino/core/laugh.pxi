# Laugh and Lie Down (docs/rules.md §3.35, §3.36, AMB-95 to AMB-97): the banking at the
# deal, the moves (rank captures, pair captures, lying down, and the bank or pass of a
# pending decision), the push and the chip settlement; as reference/laugh.py.
# Included by _core.pyx, in the order it lists.
#
# A pending decision is Hot.phase PH_PRIAL (two cards of a Prial may be banked before play)
# or PH_RELEASE (another seat took the first pair of a rank: the holder of the other two
# may bank them), with to_move the seat that decides, Hot.dec_rank the rank and
# Hot.dec_after the seat after which the turn passes on.

cdef inline mask_t lld_rank(int rank) noexcept nogil:
    """The four cards of ``rank`` (1 ace to 13 king)."""
    return (<mask_t>0xF) << (4 * (rank - 1))

cdef inline mask_t lld_two_lowest(mask_t m) noexcept nogil:
    cdef mask_t low = m & (~m + 1)
    cdef mask_t rest = m & ~low
    return low | (rest & (~rest + 1))

cdef inline void lld_pile(Core* c, int seat, mask_t cards) noexcept nogil:
    """``cards`` onto the seat's pile, in card order."""
    cdef int t = c.p.team_of[seat]
    while cards:
        c.piles[t][c.h.pile_len[t]] = <uint8_t>cas_ctz(cards)
        c.h.pile_len[t] += 1
        cards &= cards - 1

cdef inline void lld_pile1(Core* c, int seat, int card) noexcept nogil:
    cdef int t = c.p.team_of[seat]
    c.piles[t][c.h.pile_len[t]] = <uint8_t>card
    c.h.pile_len[t] += 1

cdef int lld_next_holder(Core* c, int seat) noexcept nogil:
    """The first seat after ``seat`` holding cards (``seat`` itself last), or -1."""
    cdef int k, s = seat
    for k in range(c.p.players):
        s = c.p.next_seat[s]
        if c.h.hands[s]:
            return s
    return -1

cdef bint lld_next_prial(Core* c, int seat, int rank) noexcept nogil:
    """Make the Prial decision after the one of ``seat`` on ``rank`` (seat -1: the first of
    the hand) the pending one: seats from the dealer's left round to the dealer, ranks
    upwards in a hand. False when there is none."""
    cdef int k, r, r0, s = c.dealer
    cdef bint started = seat < 0
    for k in range(c.p.players):
        s = c.p.next_seat[s]
        if started:
            r0 = 1
        elif s == seat:
            started = True
            r0 = rank + 1
        else:
            continue
        for r in range(r0, 14):
            if cas_popcount(c.h.hands[s] & lld_rank(r)) == 3:
                c.h.to_move = <int8_t>s
                c.h.dec_rank = <uint8_t>r
                return True
    return False

cdef void lld_resume(Core* c, int after, int mover) noexcept nogil:
    """The turn passes to the next seat holding cards after ``after``; when fewer than two
    hold cards the hand ends: the last holder (``mover`` when nobody holds any, AMB-96)
    adds his hand and the table to his pile."""
    cdef int s, holders = 0, last = -1
    c.h.phase = PH_START
    c.h.dec_rank = 0
    c.h.dec_after = 0
    for s in range(c.p.players):
        if c.h.hands[s]:
            holders += 1
            last = s
    if holders >= 2:
        c.h.to_move = <int8_t>lld_next_holder(c, after)
        return
    if holders == 0:
        last = mover
    lld_pile(c, last, c.h.hands[last])
    lld_pile(c, last, c.h.loose)
    c.h.hands[last] = 0
    c.h.loose = 0
    c.h.last_capturer = <int8_t>last
    c.h.to_move = <int8_t>last

cdef void lld_deal(Core* c) noexcept nogil:
    """The banking at the deal (after init_hand): a Mournival among the table cards to the
    dealer, one in a hand to its holder; then the first Prial decision, if any."""
    cdef int s, r
    cdef mask_t m
    for r in range(1, 14):
        m = lld_rank(r)
        if (c.h.loose & m) == m:
            c.h.loose &= ~m
            lld_pile(c, c.dealer, m)
    for s in range(c.p.players):
        for r in range(1, 14):
            m = lld_rank(r)
            if (c.h.hands[s] & m) == m:
                c.h.hands[s] &= ~m
                lld_pile(c, s, m)
    if lld_next_prial(c, -1, 0):
        c.h.phase = PH_PRIAL
        c.h.dec_after = <int8_t>c.dealer
        return
    lld_resume(c, c.dealer, c.dealer)

cdef int gen_laugh(Core* c, MoveBuf* buf) noexcept nogil:
    """The legal moves, in canonical order (reference Laugh._laugh_moves)."""
    cdef int seat = c.h.to_move, p, k
    cdef mask_t hand, h, t, x, capturing = 0
    cdef size_t i
    buf.n = 0
    buf.overflow = 0
    if seat < 0:
        return 0
    hand = c.h.hands[seat]
    if hand == 0:
        return 0
    if c.h.phase == PH_PRIAL or c.h.phase == PH_RELEASE:
        emit(buf, NO_CARD, K_PASS, 0, 0)
        emit(buf, NO_CARD, K_BANK, lld_two_lowest(hand & lld_rank(c.h.dec_rank)), 0)
    else:
        h = hand
        while h:
            p = cas_ctz(h)
            h &= h - 1
            t = c.h.loose & lld_rank(p // 4 + 1)
            k = cas_popcount(t)
            if k == 1 or k == 2:
                x = t
                while x:
                    emit(buf, p, K_CAPTURE, x & (~x + 1), 0)
                    x &= x - 1
                capturing |= (<mask_t>1) << p
            elif k == 3:
                emit(buf, p, K_CAPTURE, t, 0)
                capturing |= (<mask_t>1) << p
            if k == 2:
                # a pair from hand takes the table pair: p and each higher card of its rank
                x = hand & lld_rank(p // 4 + 1) & ~((((<mask_t>1) << p) << 1) - 1)
                while x:
                    emit(buf, p, K_PAIR, t, cas_ctz(x))
                    x &= x - 1
        if buf.n == 0:
            if c.p.lld_trail:        # (compulsion=player or none: trails when nothing captures)
                h = hand
                while h:
                    emit(buf, cas_ctz(h), K_TRAIL, 0, 0)
                    h &= h - 1
            emit(buf, NO_CARD, K_LIE, 0, 0)
        elif c.p.lld_trail == 2:     # (compulsion=none: any card that captures nothing)
            h = hand & ~capturing
            if h:
                while h:
                    emit(buf, cas_ctz(h), K_TRAIL, 0, 0)
                    h &= h - 1
                sort_moves(buf.moves, buf.n)
    if buf.overflow:
        return -1
    for i in range(buf.n):
        buf.moves[i].alt = 0
    return <int>buf.n

cdef void apply_laugh(Core* c, const CMove* m) noexcept nogil:
    """Play ``m`` (reference Laugh._laugh_push)."""
    cdef int seat = c.h.to_move, rank, after, s, holder
    cdef mask_t bit, cards, mask, rest
    if m.kind == K_BANK or m.kind == K_PASS:
        rank = c.h.dec_rank
        after = c.h.dec_after
        if m.kind == K_BANK:
            c.h.hands[seat] &= ~m.takes
            lld_pile(c, seat, m.takes)
        if c.h.phase == PH_PRIAL and lld_next_prial(c, seat, rank):
            return
        lld_resume(c, after, seat)
        return
    if m.kind == K_LIE:
        cards = c.h.hands[seat]
        c.h.hands[seat] = 0
        c.h.laid[seat] |= cards
        # (no Mournival can form on the table: a player lies down only when no card of his
        # captures, so none of his ranks lies there, and no hand holds four)
        if c.p.lld_dead:             # (AMB-96 option: out of play)
            while cards:
                c.discard[c.h.ndiscard] = <uint8_t>cas_ctz(cards)
                c.h.ndiscard += 1
                cards &= cards - 1
        else:
            c.h.loose |= cards
        lld_resume(c, seat, seat)
        return
    bit = (<mask_t>1) << m.card
    c.h.hands[seat] &= ~bit
    if m.kind == K_TRAIL:
        c.h.loose |= bit
        lld_resume(c, seat, seat)
        return
    if m.kind == K_PAIR:
        c.h.hands[seat] &= ~((<mask_t>1) << m.value)
    c.h.loose &= ~m.takes
    lld_pile(c, seat, m.takes)
    lld_pile1(c, seat, m.card)
    if m.kind == K_PAIR:
        lld_pile1(c, seat, m.value)
    c.h.last_capturer = <int8_t>seat
    rank = m.card // 4 + 1
    mask = lld_rank(rank)
    rest = c.h.loose & mask
    for s in range(c.p.players):
        rest |= c.h.hands[s] & mask
    if cas_popcount(rest) == 2 and not (rest & c.h.loose):
        holder = -1
        for s in range(c.p.players):
            if c.h.hands[s] & rest:
                holder = s
                break
        if holder != seat and (c.h.hands[holder] & rest) == rest:
            # pair release: the holder of the other two may bank them at once
            c.h.phase = PH_RELEASE
            c.h.to_move = <int8_t>holder
            c.h.dec_rank = <uint8_t>rank
            c.h.dec_after = <int8_t>seat
            return
    lld_resume(c, seat, seat)

cdef uint64_t count_laugh(Core* c) noexcept nogil:
    """The number of moves gen_laugh lists, without listing them."""
    cdef int seat = c.h.to_move, p, k
    cdef mask_t hand, h, t
    cdef uint64_t n = 0, trails = 0
    if seat < 0 or c.h.hands[seat] == 0:
        return 0
    if c.h.phase == PH_PRIAL or c.h.phase == PH_RELEASE:
        return 2
    hand = c.h.hands[seat]
    h = hand
    while h:
        p = cas_ctz(h)
        h &= h - 1
        t = c.h.loose & lld_rank(p // 4 + 1)
        k = cas_popcount(t)
        if k == 1 or k == 2:
            n += <uint64_t>k
        elif k == 3:
            n += 1
        else:
            trails += 1
        if k == 2:
            n += <uint64_t>cas_popcount(hand & lld_rank(p // 4 + 1) & ~((((<mask_t>1) << p) << 1) - 1))
    if n == 0:
        return (<uint64_t>cas_popcount(hand) if c.p.lld_trail else 0) + 1
    return n + (trails if c.p.lld_trail == 2 else 0)

cdef void score_laugh(Core* c, int16_t* pts) noexcept nogil:
    """The chip settlement (cassino.scoring.laugh_score): a chip per two cards captured
    over the threshold, one paid per two under it; the last holder's chips once the hand
    is over."""
    cdef int t, d
    for t in range(c.p.nteams):
        d = c.h.pile_len[t] - c.p.lld_threshold
        pts[t * NCATS + CAT_CHIP_CARDS] = <int16_t>(d // 2 if d > 0 else -((-d) // 2))
    if hand_over(c) and c.h.last_capturer >= 0:
        pts[c.p.team_of[c.h.last_capturer] * NCATS + CAT_LAST_HOLDER] = <int16_t>c.p.lld_bonus
