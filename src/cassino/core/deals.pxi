# Deals and turn order: apply a move, later deals, the next seat, the end of a hand. The
# reference side: cassino/reference/deals.py (and State.push in state.py).
# Included by _core.pyx, in the order it lists.

# ---------------------------------------------------------------------------------------
# Apply, deal, end of hand
# ---------------------------------------------------------------------------------------

cdef inline bint all_hands_empty(Core* c) noexcept nogil:
    cdef int s
    for s in range(c.p.players):
        if c.h.hands[s]:
            return False
    return True

cdef inline mask_t table_mask(Core* c) noexcept nogil:
    cdef mask_t t = c.h.loose
    cdef int i
    for i in range(c.h.nbuilds):
        t |= c.h.builds[i].cards
    return t

cdef void deal_round(Core* c) noexcept nogil:
    """A later deal as _reference.State._deal_round: batches of two (one for the last batch
    of an odd deal, five players' 2-2-1) from the dealer's left, the dealer last."""
    cdef int r, k, seat, j, batch
    cdef int size = c.p.hand_size
    if c.stock_len - c.h.stock_pos == c.p.players * c.p.last_hand_size:
        size = c.p.last_hand_size
    if c.p.deal_rotation and c.stock_len - c.h.stock_pos < c.p.players * size:
        # deal_rest=rotation (Callabra): the rest one card at a time from the dealer's left
        seat = c.dealer
        while c.h.stock_pos < c.stock_len:
            seat = c.p.next_seat[seat]
            c.h.hands[seat] |= (<mask_t>1) << c.stock[c.h.stock_pos]
            c.h.stock_pos += 1
        return
    if c.p.deal_even and c.stock_len - c.h.stock_pos < c.p.players * size:
        # deal_rest=even (Mulle, AMB-55): one card at a time from the dealer's left, as many
        # each as go round; the rest face up to the table
        k = (c.stock_len - c.h.stock_pos) // c.p.players * c.p.players
        seat = c.dealer
        for j in range(k):
            seat = c.p.next_seat[seat]
            c.h.hands[seat] |= (<mask_t>1) << c.stock[c.h.stock_pos]
            c.h.stock_pos += 1
        while c.h.stock_pos < c.stock_len:
            c.h.loose |= (<mask_t>1) << c.stock[c.h.stock_pos]
            c.h.stock_pos += 1
        return
    r = 0
    while r < size:
        batch = size if c.p.whole_deal else (2 if size - r >= 2 and not c.p.deal_singles else 1)
        r += batch
        seat = c.dealer
        for k in range(c.p.players):
            seat = c.p.next_seat[seat]
            for j in range(batch):
                if c.h.stock_pos < c.stock_len:
                    c.h.hands[seat] |= (<mask_t>1) << c.stock[c.h.stock_pos]
                    c.h.stock_pos += 1

cdef int deck_filter(const Params* p, uint8_t* deck, int ncards) noexcept nogil:
    """Drop the cards the system sets aside from a shuffled deck, in place; the new size."""
    cdef int i, n = 0
    for i in range(ncards):
        if (p.deck_mask >> deck[i]) & 1:
            deck[n] = deck[i]
            n += 1
    return n

cdef void init_hand(Core* c, const uint8_t* deck, int ncards, int dealer) noexcept nogil:
    """Empty the hand state and deal the first round as _reference.initial_deal."""
    cdef int rounds = (c.p.hand_size + 1) // 2     # an odd hand size ends with one card each
    cdef int per_table = c.p.table_cards // rounds if rounds and c.p.deal_order != 2 else 0
    cdef int table_left = c.p.table_cards
    cdef int pos = 0, r, k, slot, seat, j, take, batch
    memset(&c.h, 0, sizeof(Hot))
    c.dealer = dealer
    c.h.last_capturer = -1
    if c.p.esun_random:
        # the hand's chance RNG (esun_penalty_card=random): FNV-1a of the deck, as
        # cassino._rng.deck_chance
        c.h.chance = <uint64_t>0xCBF29CE484222325ULL
        for pos in range(ncards):
            c.h.chance = (c.h.chance ^ deck[pos]) * <uint64_t>0x100000001B3ULL
        pos = 0
    if c.p.whole_deal:
        # Diloti: a whole hand to each seat from the dealer's next, the dealer last, then
        # the table cards (_reference.initial_deal)
        rounds = 0
        seat = dealer
        for k in range(c.p.players):
            seat = c.p.next_seat[seat]
            for j in range(c.p.hand_size):
                c.h.hands[seat] |= (<mask_t>1) << deck[pos]
                pos += 1
        if c.p.palette:
            c.h.loose = c.p.palette     # Elewenjewe: the palette is the table
        else:
            for j in range(c.p.table_cards):
                c.h.loose |= (<mask_t>1) << deck[pos]
                pos += 1
    for r in range(rounds):
        batch = 2 if c.p.hand_size - 2 * r >= 2 else 1
        seat = dealer
        for k in range(c.p.players + 1):
            # slots: the seats after the dealer, then table/dealer in deal order
            if k < c.p.players - 1:
                seat = c.p.next_seat[seat]
                slot = seat
            elif (k == c.p.players - 1) == (c.p.deal_order != 1):
                slot = -1
            else:
                slot = dealer
            if slot < 0:
                take = per_table if per_table < table_left else table_left
                for j in range(take):
                    c.h.loose |= (<mask_t>1) << deck[pos]
                    pos += 1
                table_left -= take
            else:
                for j in range(batch):
                    c.h.hands[slot] |= (<mask_t>1) << deck[pos]
                    pos += 1
    if c.p.deal_order == 2 and not c.p.whole_deal:
        # hands_then_table (Tablanette): the table cards after every hand is full
        for j in range(c.p.table_cards):
            c.h.loose |= (<mask_t>1) << deck[pos]
            pos += 1
    for j in range(c.p.set_aside if c.p.set_aside <= ncards - pos else 0):
        # Elewenjewe (AMB-79): unseen cards from the bottom of the stock, out of play
        c.discard[c.h.ndiscard] = deck[ncards - c.p.set_aside + j]
        c.h.ndiscard += 1
    if c.p.set_aside <= ncards - pos:
        ncards -= c.p.set_aside
    c.stock_len = <uint8_t>(ncards - pos)
    for j in range(ncards - pos):
        c.stock[j] = deck[pos + j]
    c.h.stock_pos = 0
    c.h.to_move = <int8_t>c.p.first_player
    if c.p.initial_pairs:
        grant_pairs(c)
    if c.p.laugh:
        lld_deal(c)                  # (Mournivals and the first Prial decision)

cdef void grant_pairs(Core* c) noexcept nogil:
    """opt_initial_pairs (docs/rules.md §3.37, AMB-20), part of the deal: every rank with exactly
    2 or 4 layout cards (also 3 with initial_pairs=2) goes to the leader's pile, in
    ascending card order; a sweep for his team if the table is left empty (with sweeps).
    Not a capture: the last capturer stays unset."""
    cdef int team = c.p.team_of[c.p.first_player]
    cdef int r, k
    cdef mask_t same, granted = 0
    for r in range(13):
        same = c.h.loose & ((<mask_t>0xF) << (4 * r))
        k = cas_popcount(same)
        if k == 2 or k == 4 or (k == 3 and c.p.initial_pairs == 2):
            granted |= same
    if granted == 0:
        return
    c.h.loose &= ~granted
    while granted:
        c.piles[team][c.h.pile_len[team]] = <uint8_t>cas_ctz(granted)
        c.h.pile_len[team] += 1
        granted &= granted - 1
    if c.p.sweeps and c.h.loose == 0:
        c.sweep_order[c.h.nsweeps] = <uint8_t>team
        c.h.nsweeps += 1

cdef void remove_build(Core* c, int i) noexcept nogil:
    c.h.nbuilds -= 1
    if i != c.h.nbuilds:
        c.h.builds[i] = c.h.builds[c.h.nbuilds]

cdef bint is_default(Core* c, int kind, mask_t takes) noexcept nogil:
    """Whether the player to act defaults on the duty of the obligation module (c.p.duty)
    by playing a move of ``kind`` taking ``takes``: as _reference.duty_reason."""
    cdef int me = 1 << c.h.to_move
    cdef int i
    cdef bint own_any = False, takes_own = False
    if not c.p.duty or kind == K_PLUCK or kind == K_PASS:
        return False     # (a pluck or a pass is no play: the duty binds the card played)
    for i in range(c.h.nbuilds):
        if c.h.builds[i].owners & me:
            own_any = True
            if c.h.builds[i].cards & takes:
                takes_own = True
    if not own_any:
        return False
    if kind == K_TRAIL and (c.p.duty == 1 or c.p.duty == 3):
        return True
    if c.p.duty == 2:
        return not ((kind == K_CAPTURE or kind == K_AUGMENT or kind == K_INCREASE) and takes_own)
    return c.p.duty == 3 and (kind == K_CAPTURE or kind == K_AUGMENT) and not takes_own

cdef int max_against(Core* c) noexcept nogil:
    """michigan: the most instant scores against one team (its own defaults and the
    other teams' sweeps), as cassino.scoring.instant_against."""
    cdef int t, i, n, best = 0
    for t in range(c.p.nteams):
        n = c.h.ndefaults[t]
        for i in range(c.h.nsweeps):
            if c.sweep_order[i] != t:
                n += 1
        if n > best:
            best = n
    return best

cdef void end_early(Core* c) noexcept nogil:
    """michigan_rounds_to_5: the hand ends now; the cards in hand (seat by seat, ascending)
    and the stock are set aside, as _reference.State._end_early."""
    cdef int s
    cdef mask_t h
    for s in range(c.p.players):
        h = c.h.hands[s]
        while h:
            c.discard[c.h.ndiscard] = <uint8_t>cas_ctz(h)
            c.h.ndiscard += 1
            h &= h - 1
        c.h.hands[s] = 0
    while c.h.stock_pos < c.stock_len:
        c.discard[c.h.ndiscard] = c.stock[c.h.stock_pos]
        c.h.ndiscard += 1
        c.h.stock_pos += 1

cdef int point_cards(Core* c, int t) noexcept nogil:
    """The point cards in team t's pile (Finnish Kasino, scored when captured): 10D 2,
    2S 1, each ace 1; as scoring.immediate_points with point_cards_instant."""
    cdef mask_t m = 0
    cdef int i
    for i in range(c.h.pile_len[t]):
        m |= (<mask_t>1) << c.piles[t][i]      # (Finnish Kasino: no Esun penalties)
    return 2 * <int>((m >> 38) & 1) + <int>((m >> 4) & 1) + cas_popcount(m & 0xF)

cdef bint cutoff_reached(Core* c) noexcept nogil:
    """Whether a running game score (at the start of the hand plus the point cards taken
    since) has reached mokki_cutoff."""
    cdef int t
    if c.p.mokki_cutoff == 0:
        return False
    for t in range(c.p.nteams):
        if c.start_scores[t] + point_cards(c, t) >= c.p.mokki_cutoff:
            return True
    return False

cdef bint mokki_counts(Core* c) noexcept nogil:
    """Whether a Mokki made now counts, as _reference.State._mokki_counts: never in the
    last deal; with the cut-off checked at the capture, not once a score has reached it."""
    if c.h.stock_pos >= c.stock_len:
        return False
    return c.p.mokki_at_end or not cutoff_reached(c)

cdef inline bint slot_gone(Core* c, int t, int i) noexcept nogil:
    """opt_esun: whether a penalty has put the card of slot i of team t's pile back on the
    table (AMB-75)."""
    cdef int k
    for k in range(c.h.ngone):
        if c.gone_team[k] == t and c.gone_slot[k] == i:
            return True
    return False

cdef inline int pile_count(Core* c, int t) noexcept nogil:
    """The number of cards in team t's pile (its slots less those of Esun penalties)."""
    cdef int k, n = c.h.pile_len[t]
    for k in range(c.h.ngone):
        if c.gone_team[k] == t:
            n -= 1
    return n

cdef inline mask_t pile_mask(Core* c, int t) noexcept nogil:
    """Team t's capture pile as a mask."""
    cdef int i
    cdef mask_t m = 0
    if c.p.steal:
        return c.h.bundles[t]
    for i in range(c.h.pile_len[t]):
        if c.h.ngone == 0 or not slot_gone(c, t, i):
            m |= (<mask_t>1) << c.piles[t][i]
    return m

cdef void fixxa_stoppa(Core* c, const CMove* m, int team) noexcept nogil:
    """Bella Donna (AMB-92), after m's cards moved: a capture that takes the card the
    previous player trailed last (Fixxa) or clears the table (Stoppa) scores +1 a card, the
    card played included (fixxa_stoppa=stack: +2 for both); then the card m trailed, if
    any, is the next Fixxa card (none after the hand's last card). As
    reference.bella.BellaDonna._fixxa_stoppa."""
    cdef int k = 0, n
    if m.kind == K_CAPTURE:
        if c.h.fixxa1 and (m.takes >> (c.h.fixxa1 - 1)) & 1:
            k += 1
        if table_mask(c) == 0:
            k += 1
        if k == 2 and c.p.fixxa == 1:
            k = 1
        n = c.h.bonus[team] + k * (cas_popcount(m.takes) + 1)
        c.h.bonus[team] = <uint8_t>(n if n < 255 else 255)
    c.h.fixxa1 = 0
    if m.kind == K_TRAIL and not (all_hands_empty(c) and c.h.stock_pos >= c.stock_len):
        c.h.fixxa1 = <uint8_t>(m.card + 1)

cdef void esun_taken(Core* c, mask_t takes, int seat) noexcept nogil:
    """esun_penalty=unless_creator_took (AMB-75 option): each due Esun of another seat
    among ``takes`` still costs its creator a card at the deadline (Hot.owed)."""
    cdef int i, o
    for i in range(c.h.nbuilds):
        if c.h.builds[i].due and (c.h.builds[i].cards & takes) and not (
                c.h.builds[i].owners >> seat) & 1:
            o = cas_ctz(<mask_t>c.h.builds[i].owners)
            if c.h.owed[o] < 255:
                c.h.owed[o] += 1

cdef void esun_penalty(Core* c, int t) noexcept nogil:
    """One penalty of team t: the top card of its pile (esun_penalty_card=random: the
    card the chance RNG draws, Lemire over the cards from the bottom) goes to the table.
    The pile arrays stay append-only: the penalty logs the slot (Core.gone_*,
    Hot.ngone), which a pop restores by its count."""
    cdef int s, k, n = pile_count(c, t)
    cdef Rng64 r
    if n == 0 or c.h.ngone >= NCARDS:
        return
    if c.p.esun_random:
        r.state = c.h.chance
        k = <int>rng_below(&r, <uint64_t>n)
        c.h.chance = r.state
        s = 0
        while True:
            if not slot_gone(c, t, s):
                if k == 0:
                    break
                k -= 1
            s += 1
    else:
        s = c.h.pile_len[t] - 1
        while slot_gone(c, t, s):
            s -= 1
    c.gone_team[c.h.ngone] = <uint8_t>t
    c.gone_slot[c.h.ngone] = <uint8_t>s
    c.h.ngone += 1
    c.h.loose |= (<mask_t>1) << c.piles[t][s]

cdef void esun_penalties(Core* c) noexcept nogil:
    """opt_esun's deadline (the next deal, or the end of the hand before the leftovers,
    AMB-75): the creator of each Esun made since the last deal and still on the table
    (and with esun_penalty=unless_creator_took of each one an opponent took, Hot.owed)
    loses a card of his pile to the table (esun_penalty); seat by seat, a seat's
    penalties in a row. The Esun piles stay, no longer due. As
    reference.esun.Esun._esun_penalties."""
    cdef int i, s, k
    cdef int due[MAX_SEATS]
    for s in range(MAX_SEATS):
        due[s] = c.h.owed[s]
        c.h.owed[s] = 0
    for i in range(c.h.nbuilds):
        if c.h.builds[i].due:
            c.h.builds[i].due = 0
            due[cas_ctz(<mask_t>c.h.builds[i].owners)] += 1
    for s in range(c.p.players):
        for k in range(due[s]):
            esun_penalty(c, c.p.team_of[s])

cdef inline void bundle_add(Core* c, int team, mask_t cards, int top) noexcept nogil:
    """pile_access=steal_pile: ``cards`` join the team's bundle, ``top`` (-1: unchanged; the
    highest card if the bundle was empty, as bundle_order lists it) on top."""
    if top < 0 and not c.h.bundles[team]:
        top = cas_top(cards)
    c.h.bundles[team] |= cards
    c.h.pile_len[team] = <uint8_t>cas_popcount(c.h.bundles[team])
    if top >= 0:
        c.h.tops[team] = <uint8_t>top

cdef void apply_move(Core* c, const CMove* m) noexcept nogil:
    cdef int seat = c.h.to_move
    cdef int team = c.p.team_of[seat]
    cdef mask_t bit, t, rest
    cdef int i, target
    cdef bint first
    cdef CBuild* b
    if c.p.laugh:
        apply_laugh(c, m)            # (core/laugh.pxi)
        return
    if m.kind == K_PLUCK or m.kind == K_PASS:
        apply_pluck(c, m, seat, team)     # (card is NO_CARD: no bit to shift)
        return
    bit = (<mask_t>1) << m.card
    first = c.p.diloti and m.kind == K_CAPTURE and first_play(c)
    if c.p.diloti and K_BUILD <= m.kind <= K_INCREASE:
        c.h.hands[seat] &= ~bit
        apply_declaration(c, m, seat)
        advance(c)
        return
    if c.p.michigan and is_default(c, m.kind, m.takes) and c.h.ndefaults[team] < 255:
        c.h.ndefaults[team] += 1
    c.h.hands[seat] &= ~bit
    if m.kind == K_TWO_CARD:
        c.h.hands[seat] &= ~m.takes      # Callabra: the second hand card goes too
    if m.kind == K_TRAIL:
        c.h.loose |= bit
    elif m.kind == K_CAPTURE or m.kind == K_TWO_CARD:
        c.h.loose &= ~m.takes
        if c.p.esun_owed:
            esun_taken(c, m.takes, seat)
        i = 0
        while i < c.h.nbuilds:
            if c.h.builds[i].cards & m.takes:
                remove_build(c, i)
            else:
                i += 1
        if c.p.steal:
            bundle_add(c, team, m.takes | bit, m.card)
        else:
            t = m.takes
            while t:
                c.piles[team][c.h.pile_len[team]] = <uint8_t>cas_ctz(t)
                c.h.pile_len[team] += 1
                t &= t - 1
            c.piles[team][c.h.pile_len[team]] = m.card
            c.h.pile_len[team] += 1
        c.h.last_capturer = <int8_t>seat
        if NCARDS > 52 and c.p.mulle_points and m.takes == (<mask_t>1) << (
                m.card + 52 if m.card < 52 else m.card - 52) and c.h.nmulle[team] < 255:
            c.h.nmulle[team] += 1        # Mulle: the one card taken is the other copy
        # (Callabra logs the clear that ends the game, which scores no sweep points)
        # (Diloti, AMB-48: the first play of the hand clearing the layout is no Xeri)
        if (c.p.sweeps or c.p.callabra) and table_mask(c) == 0 and c.h.nsweeps < MAX_SWEEPS and not first:
            if c.p.last_card_sweep or not (all_hands_empty(c) and c.h.stock_pos >= c.stock_len):
                if not c.p.finnish or mokki_counts(c):
                    c.sweep_order[c.h.nsweeps] = <uint8_t>team
                    c.h.nsweeps += 1
    elif m.kind == K_STEAL:
        # Stealing Bundles: the victim's whole bundle (and with steal_and_capture the loose
        # cards of the rank) onto the thief's, the card played on top; taking no table card,
        # a steal is no capture for the last-capture rule
        for i in range(c.p.nteams):
            if i != team and c.h.bundles[i] and (c.h.bundles[i] & ~m.takes) == 0:
                c.h.bundles[i] = 0
                c.h.pile_len[i] = 0
                if c.p.bonus_travel:
                    # (Halliel, steal_bonuses=travel: the pile's Fixxa and Stoppa points go with it)
                    target = c.h.bonus[team] + c.h.bonus[i]
                    c.h.bonus[team] = <uint8_t>(target if target < 255 else 255)
                    c.h.bonus[i] = 0
        if m.takes & c.h.loose:
            c.h.last_capturer = <int8_t>seat
        c.h.loose &= ~m.takes
        bundle_add(c, team, m.takes | bit, m.card)
    elif m.kind == K_BUILD:
        c.h.loose &= ~m.takes
        if c.h.nbuilds < MAX_BUILDS:
            b = &c.h.builds[c.h.nbuilds]
            b.cards = m.takes | bit
            b.value = m.value
            b.owners = <uint8_t>(1 << seat)
            b.multiple = 1 if mask_sum(c, b.cards) // m.value >= 2 else 0
            if c.p.zwickern:
                b.owners = 0                # (a Zwickern stack belongs to nobody, AMB-88)
                b.multiple = 0
            if c.p.face_builds and (FACE_MASK >> m.card) & 1:
                b.multiple = 1          # a natural face build (Q on Q)
            b.alt = 0
            if c.p.nmulti:
                b.alt = m.alt
                b.multiple = 1 if (mask_sum(c, b.cards) + alt_extra(&c.p, b.cards, m.alt)) // m.value >= 2 else 0
            b.due = 1 if c.p.esun else 0    # (an Esun: its penalty pending, AMB-75)
            c.h.nbuilds += 1
    else:
        target = target_of(c, m.takes)
        c.h.loose &= ~m.takes
        if target >= 0:
            b = &c.h.builds[target]
            b.cards = b.cards | m.takes | bit
            if c.p.nmulti:
                b.alt = b.alt | m.alt
            if m.kind == K_AUGMENT:
                b.owners = <uint8_t>(b.owners | (1 << seat))
                b.multiple = 1
            else:
                b.value = m.value
                b.owners = <uint8_t>(0 if c.p.zwickern else 1 << seat)
                b.multiple = 0
    if c.p.fixxa:
        fixxa_stoppa(c, m, team)     # (Bella Donna, before the next deal)
    if c.p.draw_refill and c.h.stock_pos < c.stock_len:
        # cassino_draw: the top stock card, after the play (holding checked before it)
        c.h.hands[seat] |= (<mask_t>1) << c.stock[c.h.stock_pos]
        c.h.stock_pos += 1
    if c.p.zwickern:
        zw_refill(c, seat)           # (4 cards when the hand ran out)
    if c.p.rounds_to_5 and max_against(c) >= 3:
        end_early(c)
    elif c.p.pluck and c.h.phase == PH_START:
        # opt_pluck: a player who has not plucked in this deal may pluck after his play
        c.h.phase = PH_AFTER
        c.h.trailed1 = <uint8_t>(m.card + 1) if m.kind == K_TRAIL else 0
        if pluckable(c):
            return
    c.h.phase = PH_START
    c.h.trailed1 = 0
    advance(c)

cdef void apply_pluck(Core* c, const CMove* m, int seat, int team) noexcept nogil:
    """A pluck (not a capture: no last capturer, never a sweep) or a pass."""
    if m.kind == K_PLUCK:
        c.h.loose &= ~m.takes
        c.piles[team][c.h.pile_len[team]] = <uint8_t>cas_ctz(m.takes)
        c.h.pile_len[team] += 1
        c.h.plucked |= <uint8_t>(1 << seat)
        if c.h.phase == PH_START:
            c.h.phase = PH_PLUCKED      # his card comes next
            return
    c.h.phase = PH_START
    c.h.trailed1 = 0
    advance(c)

cdef inline int holder(Core* c, int seat) noexcept nogil:
    """seat, or the next seat in play order holding cards (after a short deal in rotation,
    deal_rest=rotation, some hands run out before the others); some hand is not empty."""
    while c.h.hands[seat] == 0:
        seat = c.p.next_seat[seat]
    return seat

cdef void advance(Core* c) noexcept nogil:
    cdef mask_t t
    cdef int team
    if not all_hands_empty(c):
        c.h.to_move = <int8_t>holder(c, c.p.next_seat[c.h.to_move])
        return
    if c.p.esun:
        esun_penalties(c)     # (AMB-75: at the next deal, or before the leftovers)
    if c.h.stock_pos < c.stock_len and not (c.p.callabra and c.h.nsweeps):
        # (Callabra: after the clear that ends the game, nothing more is dealt)
        deal_round(c)
        c.h.plucked = 0                 # opt_pluck: once per player per deal
        c.h.to_move = <int8_t>holder(c, c.p.first_player)
        return
    t = table_mask(c)
    if t:
        if c.p.leftovers_last:
            # Elewenjewe (AMB-77): to the player of the hand's last card (still to_move)
            team = c.p.team_of[c.h.to_move]
            while t:
                c.piles[team][c.h.pile_len[team]] = <uint8_t>cas_ctz(t)
                c.h.pile_len[team] += 1
                t &= t - 1
        elif c.h.last_capturer >= 0 and not c.p.leftovers_nobody and c.p.steal:
            bundle_add(c, c.p.team_of[c.h.last_capturer], t, -1)   # (under the top card)
        elif c.h.last_capturer >= 0 and not c.p.leftovers_nobody:
            team = c.p.team_of[c.h.last_capturer]
            while t:
                c.piles[team][c.h.pile_len[team]] = <uint8_t>cas_ctz(t)
                c.h.pile_len[team] += 1
                t &= t - 1
        else:
            while t:
                c.discard[c.h.ndiscard] = <uint8_t>cas_ctz(t)
                c.h.ndiscard += 1
                t &= t - 1
    c.h.loose = 0
    c.h.nbuilds = 0
    c.h.to_move = <int8_t>c.p.next_seat[c.h.to_move]

cdef inline bint hand_over(Core* c) noexcept nogil:
    # Callabra: the capture that clears the table (logged as a sweep) ends the game
    return (all_hands_empty(c) and c.h.phase != PH_AFTER) or (c.p.callabra and c.h.nsweeps > 0)

cdef extern from "Python.h":
    # without Cython's "except -1": the error it sets is fetched by hand below
    int check_signals "PyErr_CheckSignals" ()

cdef int perft_signals(PerftCtl* ctl) noexcept nogil:
    """Every PERFT_CHECK interior nodes: take the GIL and run the signal handlers; a
    KeyboardInterrupt (Ctrl-C) or any other error stops the search (ctl.stop)."""
    ctl.nodes += 1
    if ctl.nodes & (PERFT_CHECK - 1) == 0:
        with gil:
            if check_signals() != 0:
                # keep the handler's exception (KeyboardInterrupt) for perft to re-raise:
                # one left set here would be reported as unraisable
                PyErr_Fetch(&ctl.exc[0], &ctl.exc[1], &ctl.exc[2])
                ctl.stop = 1
    return ctl.stop

cdef uint64_t perft_c(Core* c, int depth, MoveBuf* bufs, PerftCtl* ctl) noexcept nogil:
    cdef Hot saved
    cdef int n, i
    cdef uint64_t total = 0
    if depth <= 0 or hand_over(c):
        return 1
    if depth == 1 and cas_popcount(c.h.loose) > TABLE_BITS:
        return count_moves_c(c)     # hard tables: count the last ply without listing
    if ctl != NULL and perft_signals(ctl):
        return 0
    n = gen_moves(c, &bufs[0])
    if n < 0:
        return 0
    if depth == 1:
        return <uint64_t>n
    memcpy(&saved, &c.h, sizeof(Hot))
    for i in range(n):
        apply_move(c, &bufs[0].moves[i])
        total += perft_c(c, depth - 1, bufs + 1, ctl)
        memcpy(&c.h, &saved, sizeof(Hot))
        if ctl != NULL and ctl.stop:
            break
    return total
