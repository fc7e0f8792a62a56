# Scoring: the hand score in C, category by category as cassino.scoring. The reference
# side: cassino/reference/scoring.py.
# Included by _core.pyx, in the order it lists.

# ---------------------------------------------------------------------------------------
# Scoring in C (totals per team), as cassino.scoring.score_hand
# ---------------------------------------------------------------------------------------

cdef enum:
    NCATS = 33               # cassino.scoring.CATEGORIES
    CAT_SWEEPS = 8
    CAT_PICTURES = 9
    CAT_SPADE_POINTS = 10
    CAT_SEVEN_DIAMONDS = 11
    CAT_ALL_ELEVEN = 12
    CAT_DEFAULTS = 13
    CAT_SISTAN = 14
    CAT_CLUBS = 15
    CAT_GOOD_TWO = 16
    CAT_GOOD_TEN = 17
    CAT_MULLE = 18
    CAT_RED_CARDS = 19
    CAT_FIXXA_STOPPA = 20
    CAT_SEVEN_SPADES = 21
    CAT_CHIP_CARDS = 22
    CAT_LAST_HOLDER = 23

cdef enum:
    DEFAULT_PENALTY_C = 2    # cassino.scoring.DEFAULT_PENALTY

# Bella Donna's red cards (cassino.scoring.red_card_points): the honours A 10 J Q K of hearts
# and diamonds (ids 4 * rank + suit, suits S H D C), and the 2-9 of those suits
cdef mask_t RED_HONOURS = 0
cdef mask_t RED_PIPS = 0
for _r in range(13):
    if _r in (0, 9, 10, 11, 12):
        RED_HONOURS |= (<mask_t>6) << (4 * _r)
    else:
        RED_PIPS |= (<mask_t>6) << (4 * _r)

cdef int unique_best(int* counts, int n) noexcept nogil:
    """The index of the unique largest count, or -1 on a tie."""
    cdef int t, best = -1, winner = -1, nbest = 0
    for t in range(n):
        if counts[t] > best:
            best = counts[t]
            nbest = 1
            winner = t
        elif counts[t] == best:
            nbest += 1
    return winner if nbest == 1 else -1

cdef void score_callabra(Core* c, int16_t* pts) noexcept nogil:
    """As scoring._callabra_score: 1 point (sweeps) to the player who cleared the table,
    else 1 point (cards) to each player with the most cards."""
    cdef int t, k, best = 0
    for t in range(c.p.nteams):
        for k in range(NCATS):
            pts[t * NCATS + k] = 0
        if c.h.pile_len[t] > best:
            best = c.h.pile_len[t]
    if c.h.nsweeps:
        pts[c.sweep_order[0] * NCATS + CAT_SWEEPS] = 1
        return
    for t in range(c.p.nteams):
        if c.h.pile_len[t] == best:
            pts[t * NCATS] = 1

cdef void score_cats(Core* c, int16_t* pts) noexcept nogil:
    """Points per team and category, pts[team * NCATS + k] in the order of
    cassino.scoring.CATEGORIES; as score_hand."""
    cdef int t, i, k, winner, top
    cdef mask_t masks[MAX_SEATS]
    cdef int counts[MAX_SEATS]
    cdef int spades[MAX_SEATS]
    cdef int special[6]
    cdef int value[6]
    cdef int base
    cdef mask_t aces = 0xF
    special[0] = 38; value[0] = 2      # 10D: big_cassino
    special[1] = 4; value[1] = 1       # 2S: little_cassino
    special[2] = 0; value[2] = 1       # AS
    special[3] = 3; value[3] = 1       # AC
    special[4] = 1; value[4] = 1       # AH
    special[5] = 2; value[5] = 1       # AD
    if c.p.callabra:
        score_callabra(c, pts)
        return
    if c.p.laugh:
        for k in range(c.p.nteams * NCATS):
            pts[k] = 0
        score_laugh(c, pts)          # (core/laugh.pxi: chips)
        return
    for t in range(c.p.nteams):
        masks[t] = pile_mask(c, t)
        counts[t] = pile_count(c, t)
        spades[t] = cas_popcount(masks[t] & SPADES_MASK)
        for k in range(NCATS):
            pts[t * NCATS + k] = 0
    winner = unique_best(counts, c.p.nteams)
    if winner < 0 and c.p.cards_tie_spades and c.p.nteams > 1:
        # Portuguese 26-26: the most spades among the sides tied for cards
        top = -1
        for t in range(c.p.nteams):
            if counts[t] > top:
                top = counts[t]
        for t in range(c.p.nteams):
            if counts[t] != top:
                spades[t] = -1
        winner = unique_best(spades, c.p.nteams)
        for t in range(c.p.nteams):
            spades[t] = cas_popcount(masks[t] & SPADES_MASK)
    if winner >= 0 and c.p.cards_diff:
        # Shaniss (AMB-84): the player with more cards scores the difference
        pts[winner * NCATS] = <int16_t>(counts[winner] - counts[1 - winner])
    elif winner >= 0:
        pts[winner * NCATS] = <int16_t>c.p.most_cards_points
    if c.p.cards_each:                  # every captured card scores 1
        for t in range(c.p.nteams):
            pts[t * NCATS] = <int16_t>counts[t]
    winner = unique_best(spades, c.p.nteams)
    if winner >= 0 and c.p.card_points:
        pts[winner * NCATS + 1] = <int16_t>c.p.most_spades_points
    elif c.p.spades_split_two and c.p.card_points and c.p.most_spades_points:
        # Finnish: exactly two tied for most spades score 1 each, three or more nothing
        top = -1
        for t in range(c.p.nteams):
            if spades[t] > top:
                top = spades[t]
        k = 0
        for t in range(c.p.nteams):
            if spades[t] == top:
                k += 1
        if k == 2:
            for t in range(c.p.nteams):
                if spades[t] == top:
                    pts[t * NCATS + 1] = 1
    if c.p.most_clubs_points:                                   # Kontsina
        for t in range(c.p.nteams):
            counts[t] = cas_popcount(masks[t] & (SPADES_MASK << 3))
        winner = unique_best(counts, c.p.nteams)
        if winner >= 0:
            pts[winner * NCATS + CAT_CLUBS] = <int16_t>c.p.most_clubs_points
    if c.p.sistan_points and c.h.last_capturer >= 0 and hand_over(c):   # Swedish: Sistan
        pts[c.p.team_of[c.h.last_capturer] * NCATS + CAT_SISTAN] = <int16_t>c.p.sistan_points
    for i in range(6 if c.p.card_points else 0):
        for t in range(c.p.nteams):
            k = <int>((masks[t] >> special[i]) & 1)
            if NCARDS > 52:      # Mulle: each copy scores (AMB-56), or once a team
                k += <int>((masks[t] >> (special[i] + 52)) & 1)
                if k > 1 and c.p.point_cards_once:
                    k = 1
            if k:
                if i >= 2 and c.p.aces_all_four and (masks[t] & aces) != aces:
                    continue
                pts[t * NCATS + 2 + i] = <int16_t>(value[i] * k)
    if c.p.ace_points and not c.p.card_points:                  # Diloti: each ace
        for i in range(2, 6):
            for t in range(c.p.nteams):
                if (masks[t] >> special[i]) & 1:
                    pts[t * NCATS + 2 + i] = <int16_t>c.p.ace_points
    for t in range(c.p.nteams):
        if c.p.picture_points:                                   # Tablanette: J, Q, K
            pts[t * NCATS + CAT_PICTURES] = <int16_t>(
                c.p.picture_points * cas_popcount(masks[t] & PICTURES_MASK))
        if c.p.good_two_points and (masks[t] >> 7) & 1:        # 2C (Kontsina)
            pts[t * NCATS + CAT_GOOD_TWO] = <int16_t>c.p.good_two_points
        if c.p.good_ten_points and (masks[t] >> 38) & 1:       # 10D (Kontsina)
            pts[t * NCATS + CAT_GOOD_TEN] = <int16_t>c.p.good_ten_points
        if c.p.seven_diamonds and (masks[t] >> 26) & 1:        # 7D
            pts[t * NCATS + CAT_SEVEN_DIAMONDS] = <int16_t>c.p.seven_diamonds
        if c.p.seven_spades and (masks[t] >> 24) & 1:          # 7S (Zwickern)
            pts[t * NCATS + CAT_SEVEN_SPADES] = <int16_t>c.p.seven_spades
        if c.p.spade_points:
            k = spades[t] + <int>((masks[t] >> 40) & 1)         # JS counts 2
            if c.p.spade_points == 2:
                k += <int>(masks[t] & 1) + <int>((masks[t] >> 4) & 1)   # AS, 2S once more
            pts[t * NCATS + CAT_SPADE_POINTS] = <int16_t>k
        if c.p.all_eleven_bonus:
            base = 0
            for k in range(8):
                base += pts[t * NCATS + k]
            if base == 11:
                pts[t * NCATS + CAT_ALL_ELEVEN] = 1
    if c.p.sweeps:
        for i in range(c.h.nsweeps):
            pts[c.sweep_order[i] * NCATS + CAT_SWEEPS] += <int16_t>c.p.sweep_points
    if c.p.finnish:
        # Mokki cancellation: every player loses as many as the player with fewest has;
        # with the cut-off checked at the end of the hand, none counts once it is reached
        top = 1 << 30
        for t in range(c.p.nteams):
            if pts[t * NCATS + CAT_SWEEPS] < top:
                top = pts[t * NCATS + CAT_SWEEPS]
        for t in range(c.p.nteams):
            pts[t * NCATS + CAT_SWEEPS] -= <int16_t>top
            if c.p.mokki_at_end and cutoff_reached(c):
                pts[t * NCATS + CAT_SWEEPS] = 0
    if c.p.michigan:
        for t in range(c.p.nteams):
            pts[t * NCATS + CAT_DEFAULTS] = <int16_t>(-DEFAULT_PENALTY_C * c.h.ndefaults[t])
    if c.p.mulle_points:
        for t in range(c.p.nteams):
            pts[t * NCATS + CAT_MULLE] = <int16_t>(c.p.mulle_points * c.h.nmulle[t])
    if c.p.red_cards:                   # Bella Donna: red honours 2, red 2-9 1
        for t in range(c.p.nteams):
            pts[t * NCATS + CAT_RED_CARDS] = <int16_t>(
                2 * cas_popcount(masks[t] & RED_HONOURS) + cas_popcount(masks[t] & RED_PIPS))
    if c.p.fixxa:                       # ... and the Fixxa and Stoppa points
        for t in range(c.p.nteams):
            pts[t * NCATS + CAT_FIXXA_STOPPA] = <int16_t>c.h.bonus[t]

cdef void score_totals(Core* c, int64_t* out) noexcept nogil:
    """Points per team, the sum of score_cats."""
    cdef int t, k
    cdef int16_t pts[MAX_SEATS * NCATS]
    score_cats(c, pts)
    for t in range(c.p.nteams):
        out[t] = 0
        for k in range(NCATS):
            out[t] += pts[t * NCATS + k]
