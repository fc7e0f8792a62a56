# Systems as data: a Rules object loaded into the C Params the generators read.
# Included by _core.pyx, in the order it lists.

# ---------------------------------------------------------------------------------------
# Rules → Params
# ---------------------------------------------------------------------------------------

cdef void set_first_player(Params* p, int dealer) noexcept nogil:
    """Who leads each deal: the seat after the dealer in play order, or the seat before."""
    cdef int s
    p.first_player = p.next_seat[dealer]
    if p.first_right:
        for s in range(p.players):
            if p.next_seat[s] == dealer:
                p.first_player = s

cdef int load_params(Params* p, object rules, int dealer) except -1:
    """Params of ``rules`` with ``dealer`` dealing."""
    return load_params_fresh(p, rules, dealer)

cdef int refuse_compound(object rules) except -1:
    """Compound turns (African and Italian Cassino) are the State of core/compound.pxi's
    (CompoundState), not the C state's: a RulesError that says so, before any other check
    (the Italian deck's 190 ids are more than even the wide core holds)."""
    if rules.compound:
        raise RulesError(
            f"{rules.system} (compound turns) is played by cassino._core.CompoundState (what "
            "cassino.State and cassino.new_hand make for it), not by the core's C state"
        )
    return 0


cdef int load_params_fresh(Params* p, object rules, int dealer) except -1:
    cdef int s, i, n
    n = rules.players
    refuse_compound(rules)
    if not 2 <= n <= MAX_SEATS:
        raise ValueError(f"the core supports 2 to {MAX_SEATS} players, not {n}")
    p.players = n
    p.general_paths = 0
    p.nteams = rules.num_teams
    for s in range(MAX_SEATS):
        p.team_of[s] = 0
        p.next_seat[s] = 0
    for s in range(n):
        p.team_of[s] = rules.team_of(s)
        # n is added before the modulo: cdivision makes % of a negative number negative
        p.next_seat[s] = (s + 1) % n if rules.direction == "cw" else (s + n - 1) % n
    p.first_right = 1 if rules.first_player == "right_of_dealer" else 0
    set_first_player(p, dealer)
    p.hand_size = rules.hand_size
    p.last_hand_size = rules.last_size
    p.deck_mask = <mask_t>rules.dealt_mask     # (the cards shuffled and dealt: no palette)
    p.palette = <mask_t>rules.palette_mask
    p.set_aside = rules.set_aside
    p.leftovers_last = 1 if rules.leftovers_to == "last_to_play" else 0
    p.match_one = 1 if rules.match_one else 0
    p.hide_own_pile = 1 if "elewenjewe" in rules.mechanics and not rules.isiwo else 0
    p.yoruba = (2 if rules.yoruba_scope == "capture" else 1) if rules.yoruba else 0
    p.esun = 1 if rules.esun else 0
    p.esun_owed = 1 if rules.esun_penalty == "unless_creator_took" else 0
    p.esun_random = 1 if rules.esun_penalty_card == "random" else 0
    p.red_cards = 1 if rules.red_card_points else 0
    p.fixxa = ("none", "once", "stack").index(rules.fixxa_stoppa)
    p.bonus_travel = 1 if rules.steal_bonuses == "travel" else 0
    jokers = rules.deck_mask & (((1 << rules.jokers) - 1) << 104)
    p.zwickern = 1 if "zwickern" in rules.mechanics else 0
    p.zw_jokers = <mask_t>jokers if p.zwickern else 0
    p.zw_any = 1 if rules.joker_values == "any" else 0
    p.zw_hold = 1 if p.zwickern and rules.holding_invariant else 0
    # (Elewenjewe's jokers take the table, Ipalemo: Zwickern's are played as a value)
    p.joker_mask = <mask_t>jokers if "elewenjewe" in rules.mechanics else 0
    p.table_cards = rules.table_cards
    p.deal_order = {"opponent_table_dealer": 0, "opponent_dealer_table": 1,
                    "hands_then_table": 2, "whole_hands_then_table": 3}[rules.deal_order]
    p.whole_deal = 1 if p.deal_order == 3 else 0
    p.diloti = 1 if rules.declarations else 0
    p.all_matches = 1 if rules.capture_extent == "all_matches" else 0
    p.decl_in_capture = 1 if rules.declarations_in_capture else 0
    p.augment_own = 1 if rules.augment_who == "own_team" else 0
    p.no_declare = 1 if rules.obligation_no_declare else 0
    p.min_decl_cards = rules.declaration_min_cards
    p.xeri_first = 1 if rules.xeri_first_play != "counts" else 0
    p.fresh_stock = rules.deck_size - rules.table_cards - rules.players * rules.hand_size
    p.partnership = 1 if rules.teams == "partnership" else 0
    p.ace_points = rules.ace_points
    p.face_capture = {"one": 0, "one_or_three": 1, "any": 2}[rules.face_capture]
    p.max_sum_groups = 1 if rules.sum_groups == "single" else BIG_SUMS
    p.maximal = 1 if rules.capture_extent == "maximal" else 0
    p.build_max = rules.build_max_value
    p.duty = {"none": 0, "v1": 1, "v2": 2, "v3": 3, "diloti": 0}[rules.obligation]
    p.michigan = 1 if rules.michigan else 0
    p.rounds_to_5 = 1 if rules.michigan_rounds_to_5 else 0
    p.obligation = 0 if rules.michigan else p.duty
    p.holding_invariant = 1 if rules.holding_invariant else 0
    p.own_increase = {"allowed": 0, "keep_old": 1, "forbidden": 2}[rules.own_increase]
    p.natural = 1 if rules.natural_build_combination else 0
    p.unique_values = 1 if rules.unique_build_values else 0
    p.sweeps = 1 if rules.sweeps else 0
    p.sweep_points = rules.sweep_points
    p.last_card_sweep = 1 if rules.last_card_sweep else 0
    p.draw_refill = 1 if rules.draw_refill else 0
    p.sweep_cards = 0
    p.sweep_builds = 1
    p.sweep_only = 0
    if rules.five_of_spades_sweep:
        p.sweep_cards = (<mask_t>1) << 16                  # 5S
        p.sweep_builds = 1 if rules.five_of_spades_builds else 0
    p.initial_pairs = (2 if rules.initial_pairs_triples else 1) if rules.initial_pairs else 0
    if rules.jacks_take_all:
        p.sweep_cards = (<mask_t>0xF) << 40                # JS JH JD JC
        p.sweep_builds = 1
        p.sweep_only = 1
    if rules.build_kinds == "none":
        p.build_max = 0                                     # no value can be built
    p.most_cards_points = rules.most_cards_points
    p.most_spades_points = rules.most_spades_points
    p.sistan_points = rules.sistan_points
    p.most_clubs_points = rules.most_clubs_points
    p.good_two_points = rules.good_two_points
    p.good_ten_points = rules.good_ten_points
    p.picture_points = rules.picture_points
    p.card_points = 1 if rules.card_points else 0
    p.spade_points = {"none": 0, "inclusive": 1, "additive": 2}[rules.spade_points]
    p.seven_diamonds = rules.seven_diamonds_points
    p.seven_spades = rules.seven_spades_points
    p.aces_all_four = 1 if rules.aces_mode == "all_four_only" else 0
    p.cards_tie_spades = 1 if rules.cards_tie_spades else 0
    p.all_eleven_bonus = 1 if rules.all_eleven == "bonus" else 0
    p.pluck = 1 if rules.pluck else 0
    p.pluck_last_deal = 1 if rules.pluck_in_last_deal else 0
    p.pluck_loose = 1 if rules.pluck_last_loose else 0
    p.face_builds = 1 if rules.face_cards_all_four else 0
    p.nids = rules.num_ids                     # (the wide copy: id i + 52 is a copy of i)
    if p.nids > NCARDS:
        raise ValueError(f"{rules.system} has {p.nids} card ids, more than the {NCARDS} "
                         "of these masks (the wide copy of the core plays it)")
    if rules.deck == "double104":
        p.sweep_cards |= p.sweep_cards << 52    # capture-all cards: Mulle's second copies too
    if p.joker_mask:
        # Elewenjewe's jokers (AMB-76): on a table with cards, a joker takes everything, Esun
        # piles included; it has no other move (joker_trail: but its trail)
        p.sweep_cards = p.joker_mask
        p.sweep_builds = 1
        p.sweep_only = 2 if rules.joker_trail else 1
    for i in range(NCARDS):     # (jokers, ids 104 up: no value)
        p.val[i] = i % 52 // 4 + 1 if i % 52 // 4 + 1 <= 10 and i < p.nids and i < 104 else 0
    if rules.card_values != "standard":        # royal, ranked, finnish: J 11, Q 12, K 13
        for i in range(min(p.nids, 104)):
            p.val[i] = i % 52 // 4 + 1
    if p.zwickern:                             # A 11, J 12, Q 13, K 14
        for i in range(min(p.nids, 104)):
            p.val[i] = rules.card_value(i)
    for i in range(NCARDS):
        finnish = rules.card_values == "finnish" and i < p.nids
        p.hval[i] = rules.hand_value(i) if finnish else p.val[i]
    p.finnish = 1 if rules.finnish else 0
    p.rank_pairs = 1 if rules.rank_pairing_always else 0
    p.mokki_cutoff = rules.mokki_cutoff
    p.mokki_at_end = 1 if rules.mokki_cutoff_check == "hand_end" else 0
    p.spades_split_two = 1 if rules.most_spades_tie == "split_two" else 0
    p.callabra = 1 if rules.two_card_capture else 0
    p.single_group = 1 if rules.capture_extent == "single_group" else 0
    p.combine = 1 if rules.combine_match_and_sum else 0
    p.faces_capturable = 1 if rules.faces_capturable else 0
    p.deal_rotation = 1 if rules.deal_rest == "rotation" else 0
    p.deal_even = 1 if rules.deal_rest == "even" else 0
    p.mulle_points = rules.mulle_points
    p.point_cards_once = 1 if rules.point_cards_once else 0
    load_multi(p, rules)
    p.gr_limit = GR_MAX_GROUPS
    from cassino.greedy import card_weights   # (here: greedy imports the reference)
    weights = card_weights(rules)
    for i in range(NCARDS):
        p.gw[i] = weights[i] if i < p.nids else 0.0
    p.val_ordered = 1
    p.num_mask = 0
    for i in range(NCARDS):
        if p.val[i]:
            p.num_mask |= (<mask_t>1) << i
    n = 0
    for i in range(NCARDS):
        if p.val[i]:
            if p.val[i] < n:
                p.val_ordered = 0
            n = p.val[i]
    p.compel = 1 if rules.compulsion == "player" else 0
    p.steal = 1 if rules.pile_access == "steal_pile" else 0
    p.steal_both = 1 if rules.steal_and_capture else 0
    p.deal_singles = 1 if rules.deal_singles else 0
    p.cards_each = 1 if rules.cards_scoring == "each" else 0
    p.post_filter = 1 if (p.compel or p.steal or (p.all_matches and not p.diloti)
                          or p.joker_mask or p.match_one or p.yoruba or p.esun or p.zwickern) else 0
    p.leftovers_nobody = 1 if rules.leftovers_to == "nobody" else 0
    p.cards_diff = 1 if rules.cards_scoring == "difference" else 0
    p.laugh = 1 if rules.laugh else 0
    p.lld_trail = ("must_or_lie_down", "player", "none").index(rules.compulsion) if p.laugh else 0
    p.lld_dead = 1 if rules.laid_cards_dead else 0
    p.lld_threshold = rules.chips_threshold
    p.lld_bonus = rules.last_holder_chips
    if p.laugh:
        p.compel = 0
        p.post_filter = 0
    p.pick_ok = 1 if pick_params(p, rules) else 0
    return 0

cdef int set_start_scores(Core* c, object scores) except -1:
    """The game scores at the start of the hand (clamped to +-2**30), which the Finnish
    Mokki cut-off reads."""
    cdef int t
    for t in range(MAX_SEATS):
        c.start_scores[t] = 0
    for t, x in enumerate(scores):
        if t < MAX_SEATS:
            c.start_scores[t] = <int>max(-(1 << 30), min(1 << 30, int(x)))
    return 0


cdef inline object mask_int(mask_t m):
    """A mask as a Python int. (The wide copy: Cython's own conversion of a 128-bit integer goes
    through _PyLong_FromByteArray, whose result for 0 valgrind sees as uninitialised under
    CPython 3.11; this builds the int from its 64-bit halves.)"""
    cdef uint64_t hi = cas_hi(m)
    if hi == 0:
        return cas_lo(m)
    return (<object>hi) << 64 | cas_lo(m)

cdef inline mask_t _mask_of(object xs):
    cdef mask_t m = 0
    for x in xs:
        m |= (<mask_t>1) << <int>x
    return m
