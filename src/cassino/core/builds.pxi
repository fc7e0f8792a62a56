# Builds and ownership: the filters a move passes (unique build values, the holding
# requirement and invariant, obligations, the holding of distinct cards). The reference
# side: cassino/reference/builds.py.
# Included by _core.pyx, in the order it lists.

# ---------------------------------------------------------------------------------------
# Legality filters (mirror _reference.State._violation)
# ---------------------------------------------------------------------------------------

cdef inline uint64_t held_values(Core* c, mask_t hand) noexcept nogil:
    cdef uint64_t held = 0
    cdef mask_t faces
    if c.p.face_builds:
        # opt_face_cards_all_four: a face card takes the natural builds of its rank (11-13)
        faces = hand & FACE_MASK
        while faces:
            held |= (<uint64_t>1) << (cas_ctz(faces) % 52 // 4 + 1)
            faces &= faces - 1
    while hand:
        held |= (<uint64_t>1) << c.p.val[cas_ctz(hand)]
        hand &= hand - 1
    return held & ~(<uint64_t>1)   # value 0 (faces) holds nothing

cdef int target_of(Core* c, mask_t takes) noexcept nogil:
    cdef int i
    for i in range(c.h.nbuilds):
        if c.h.builds[i].cards & takes:
            return i
    return -1

cdef bint match_values(uint64_t* cand, int k, int i, uint64_t used) noexcept nogil:
    """Whether values i..k-1 can each take a distinct card (cand[j]: the cards of value j)."""
    cdef uint64_t m
    if i == k:
        return True
    m = cand[i] & ~used
    while m:
        if match_values(cand, k, i + 1, used | (m & (~m + 1))):
            return True
        m &= m - 1
    return False

cdef bint holds_distinct(Core* c, int kind, int card, mask_t takes, int value,
                         int target) noexcept nogil:
    """docs/rules.md §3.1, holding requirement and invariant as one check: after the play, the
    player holds a distinct card for each value of the builds he owns, the new one included
    (builds of one value count once). Only multi-valued cards (Royal ace, Buckeye 10♦) can
    hold two values, so a card per value is matched only among them: the single-valued
    cards of the hand cover their own values first."""
    cdef int seat = c.h.to_move
    cdef int me = 1 << seat
    cdef int i, v, k = 0, n = 0
    cdef mask_t hand = c.h.hands[seat] & ~((<mask_t>1) << card)
    cdef mask_t multi = hand & c.p.multi_mask
    cdef uint64_t need = 0, cand[MAX_BUILDS + 1]
    cdef int ids[64]
    if kind >= K_BUILD:
        need |= (<uint64_t>1) << value
    if c.p.holding_invariant:
        for i in range(c.h.nbuilds):
            if not (c.h.builds[i].owners & me) or i == target:
                continue
            if kind == K_CAPTURE and (c.h.builds[i].cards & takes):
                continue
            need |= (<uint64_t>1) << c.h.builds[i].value
    need &= ~held_values(c, hand & ~c.p.multi_mask)    # covered by single-valued cards
    if cas_popcount(need) <= 1:
        return True       # one value left: the per-value checks decide it
    while multi and n < 64:
        ids[n] = cas_ctz(multi)
        n += 1
        multi &= multi - 1
    while need:
        v = cas_ctz(need)
        cand[k] = 0
        for i in range(n):
            if c.p.val[ids[i]] == v or c.p.alt_val[ids[i]] == v:
                cand[k] |= (<uint64_t>1) << i
        if cand[k] == 0:
            return False
        k += 1
        need &= need - 1
    return match_values(cand, k, 0, 0)

cdef bint is_legal(Core* c, int kind, int card, mask_t takes, int value,
                   uint64_t held) noexcept nogil:
    cdef int seat = c.h.to_move
    cdef int me = 1 << seat
    cdef int i, target = -1
    cdef bint own_any = False, takes_own = False
    cdef CBuild* b
    if kind == K_AUGMENT or kind == K_INCREASE:
        target = target_of(c, takes)
    if kind >= K_BUILD:
        if c.p.unique_values:
            for i in range(c.h.nbuilds):
                if i != target and c.h.builds[i].value == value:
                    return False
        if not (held >> value) & 1:
            return False
        if kind == K_INCREASE and (c.h.builds[target].owners & me):
            if c.p.own_increase == 2:
                return False
            if c.p.own_increase == 1 and not (held >> c.h.builds[target].value) & 1:
                return False
    if c.p.obligation:
        for i in range(c.h.nbuilds):
            b = &c.h.builds[i]
            if b.owners & me:
                own_any = True
                if b.cards & takes:
                    takes_own = True
        if own_any:
            if kind == K_TRAIL and (c.p.obligation == 1 or c.p.obligation == 3):
                return False
            if c.p.obligation == 2 and not (
                (kind == K_CAPTURE or kind == K_AUGMENT or kind == K_INCREASE) and takes_own
            ):
                return False
            if c.p.obligation == 3 and (kind == K_CAPTURE or kind == K_AUGMENT) and not takes_own:
                return False
    if c.p.holding_invariant:
        for i in range(c.h.nbuilds):
            b = &c.h.builds[i]
            if not (b.owners & me):
                continue
            if kind == K_CAPTURE and (b.cards & takes):
                continue
            if i == target:
                continue
            if not (held >> b.value) & 1:
                return False
    if c.p.nmulti and (c.h.hands[seat] & c.p.multi_mask & ~((<mask_t>1) << card)):
        if not holds_distinct(c, kind, card, takes, value, target):
            return False
    return True
