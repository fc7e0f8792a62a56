# Batch playouts (cassino.playouts): whole hands in C.
# Included by _core.pyx, in the order it lists.

# ---------------------------------------------------------------------------------------
# Batch playouts (cassino.playouts): whole hands in C, results into NumPy arrays
# ---------------------------------------------------------------------------------------

cdef enum:
    POL_RANDOM = 0
    POL_GREEDY = 1
    POL_PYTHON = 2
    POL_EXPERT = 3           # State.play_hand and the ISMCTS rollouts: expert_weights + greedy

GOLDEN = 0x9E3779B97F4A7C15

cdef inline uint64_t hand_seed_c(uint64_t seed, uint64_t i) noexcept nogil:
    cdef Rng64 r
    r.state = seed + i * <uint64_t>0x9E3779B97F4A7C15
    return rng_next(&r)

def hand_seed(seed, index) -> int:
    """The seed of hand ``index`` of ``cassino.playouts(..., seed=seed)``: the first
    splitmix64 output from state ``seed + index * 0x9E3779B97F4A7C15`` (mod 2**64)."""
    return hand_seed_c(<uint64_t>(seed & 0xFFFFFFFFFFFFFFFF), <uint64_t>(index & 0xFFFFFFFFFFFFFFFF))

cdef int GREEDY_W[NCARDS]    # card weights of the core greedy policy, in tenths of a point
for _i in range(NCARDS):                     # (the wide copy: id i + 52 is a copy of i)
    GREEDY_W[_i] = 2 + (2 if _i % 4 == 0 else 0) if _i < 104 else 0   # (jokers: no weight)
    if _i % 52 == 38:
        GREEDY_W[_i] += 20                   # 10D
    elif (_i % 52 == 4 or _i % 52 < 4) and _i < 104:
        GREEDY_W[_i] += 10                   # 2S, aces

cdef inline int mask_weight(mask_t m) noexcept nogil:
    cdef int w = 0
    while m:
        w += GREEDY_W[cas_ctz(m)]
        m &= m - 1
    return w

cdef int greedy_pick(Core* c, MoveBuf* buf, int n, Rng64* rng) noexcept nogil:
    """The core greedy policy: the move that captures the most weight now (cards taken and
    the card played, plus a sweep); a trail costs its card's weight, a build or addition
    counts half of its cards. Ties are broken uniformly at random."""
    cdef int i, g, best = -1 << 30, nbest = 0, pick = 0
    cdef CMove* m
    cdef mask_t table
    for i in range(n):
        m = &buf.moves[i]
        if m.kind == K_TRAIL:
            g = -GREEDY_W[m.card]
        elif m.kind == K_PLUCK or m.kind == K_BANK:
            g = mask_weight(m.takes)
        elif m.kind == K_PASS or m.kind == K_LIE:
            g = 0
        elif m.kind == K_PAIR:
            g = mask_weight(m.takes | ((<mask_t>1) << m.card) | ((<mask_t>1) << m.value))
        elif m.kind == K_CAPTURE or m.kind == K_TWO_CARD:
            g = mask_weight(m.takes | ((<mask_t>1) << m.card))
            if c.p.sweeps or c.p.callabra:
                table = table_mask(c)
                if (m.takes & table) == table:
                    # (Callabra: clearing the table wins, worth 100 points to the policy)
                    g += 10 * (c.p.sweep_points if c.p.sweeps else 100)
        else:
            g = mask_weight(m.takes | ((<mask_t>1) << m.card)) // 2
        if c.p.michigan and is_default(c, m.kind, m.takes):
            g -= 10 * DEFAULT_PENALTY_C          # opt_michigan: a default costs 2 at once
        if g > best:
            best = g
            nbest = 1
            pick = i
        elif g == best:
            nbest += 1
            if rng_below(rng, <uint64_t>nbest) == 0:   # reservoir: uniform among ties
                pick = i
    return pick

cdef void score_points(Core* c, int16_t* pts, int16_t* cards, int16_t* sweeps) noexcept nogil:
    """Points per team and category (pts[team * NCATS + k]), cards and sweeps per team."""
    cdef int t, i
    score_cats(c, pts)
    for t in range(c.p.nteams):
        cards[t] = <int16_t>pile_count(c, t)
        sweeps[t] = 0
    for i in range(c.h.nsweeps):
        sweeps[c.sweep_order[i]] += 1

cdef int play_core_hand(Core* c, Rng64* rng, MoveBuf* buf, const uint8_t* pol) noexcept nogil:
    """Play a dealt hand to its end with core policies; the number of moves, or -1."""
    cdef int n, k, moves = 0
    cdef Pick P
    cdef CMove mv
    while not hand_over(c):
        if pol[c.h.to_move] == POL_RANDOM and c.p.pick_ok and pick_setup(c, &P):
            # (a capture-only table: the same move as listing and drawing its index)
            apply_move(c, pick_at(&P, rng_below(rng, P.total), &mv))
            moves += 1
            continue
        n = gen_moves(c, buf)
        if n <= 0:
            return -1
        if pol[c.h.to_move] == POL_GREEDY:
            k = greedy_pick(c, buf, n, rng)
        else:
            k = <int>rng_below(rng, <uint64_t>n)
        apply_move(c, &buf.moves[k])
        moves += 1
    return moves

cdef int playout_range(Core* proto, uint64_t seed, Py_ssize_t start, Py_ssize_t count,
                       const uint8_t* pol, int16_t* pts, int16_t* cards, int16_t* sweeps,
                       int32_t* nmoves, int8_t* dealers) noexcept nogil:
    """Hands start .. start+count-1 into the arrays (row k for hand start + k); 0, or the
    row of the first hand that failed + 1, negated."""
    cdef Core core
    cdef MoveBuf buf
    cdef Rng64 rng
    cdef uint8_t deck[NCARDS]
    cdef Py_ssize_t k
    cdef int dealer, teams = proto.p.nteams, n, rc = 0
    cdef int players = proto.p.players
    buf.moves = NULL
    buf.n = 0
    buf.cap = 0
    buf.limit = LIST_LIMIT
    buf.overflow = 0
    for k in range(count):
        dealer = <int>((start + k) % players)
        memset(&core, 0, sizeof(Core))
        core.p = proto.p
        set_first_player(&core.p, dealer)
        rng.state = hand_seed_c(seed, <uint64_t>(start + k))
        shuffle_deck(&rng, deck, core.p.nids)
        init_hand(&core, deck, deck_filter(&core.p, deck, core.p.nids), dealer)
        n = play_core_hand(&core, &rng, &buf, pol)
        if n < 0:
            rc = -(<int>k + 1)
            break
        score_points(&core, pts + k * teams * NCATS, cards + k * teams, sweeps + k * teams)
        nmoves[k] = n
        dealers[k] = <int8_t>dealer
    free(buf.moves)
    return rc

def _fill_playouts(rules, seed, Py_ssize_t start, policies, hooks,
                   int16_t[:, :, ::1] points, int16_t[:, ::1] cards, int16_t[:, ::1] sweeps,
                   int32_t[::1] moves, int8_t[::1] dealers) -> None:
    """Fill rows 0.. of the arrays with hands start.. (see cassino.playouts)."""
    cdef Core proto
    cdef Py_ssize_t count = moves.shape[0]
    cdef uint8_t pol[MAX_SEATS]
    cdef int s, rc, teams
    cdef uint64_t useed = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
    refuse_compound(rules)   # (before the deck's size: the Italian 190 ids fit no copy)
    if rules.num_ids > NCARDS:
        _w__fill_playouts(rules, seed, start, policies, hooks, points, cards, sweeps,
                          moves, dealers)
        return
    memset(&proto, 0, sizeof(Core))
    load_params(&proto.p, rules, 0)
    teams = proto.p.nteams
    if (points.shape[0] != count or points.shape[1] != teams or points.shape[2] != NCATS
            or cards.shape[0] != count or cards.shape[1] != teams
            or sweeps.shape[0] != count or sweeps.shape[1] != teams
            or dealers.shape[0] != count):
        raise ValueError("playout arrays of mismatched shapes")
    if len(policies) != proto.p.players or len(hooks) != proto.p.players:
        raise ValueError(f"one policy per seat ({proto.p.players}) is needed")
    for s in range(proto.p.players):
        pol[s] = <uint8_t>policies[s]
        if pol[s] > POL_PYTHON or (pol[s] == POL_PYTHON) != (hooks[s] is not None):
            raise ValueError(f"bad policy for seat {s}")
    if count == 0:
        return
    if POL_PYTHON not in [pol[s] for s in range(proto.p.players)]:
        with nogil:
            rc = playout_range(&proto, useed, start, count, pol, &points[0, 0, 0],
                               &cards[0, 0], &sweeps[0, 0], &moves[0], &dealers[0])
        if rc < 0:
            raise MoveLimitError(
                f"hand {start - rc - 1} reached a position with more than "
                f"{DEFAULT_LIST_LIMIT} legal moves")
        return
    _fill_with_hooks(rules, useed, start, count, pol, hooks, points, cards, sweeps, moves, dealers)

cdef int _fill_with_hooks(object rules, uint64_t seed, Py_ssize_t start, Py_ssize_t count,
                          uint8_t* pol, object hooks,
                          int16_t[:, :, ::1] points, int16_t[:, ::1] cards,
                          int16_t[:, ::1] sweeps, int32_t[::1] moves,
                          int8_t[::1] dealers) except -1:
    """Hands where some seat's policy is a Python callable: State objects, GIL held."""
    cdef State st
    cdef Rng64 rng
    cdef uint8_t deck[NCARDS]
    cdef Py_ssize_t k
    cdef int dealer, n, seat, i, nm
    cdef int teams
    for k in range(count):
        dealer = <int>((start + k) % rules.players)
        rng.state = hand_seed_c(seed, <uint64_t>(start + k))
        shuffle_deck(&rng, deck, rules.num_ids)
        st = State.new_hand(rules, dealer, [deck[i] for i in range(rules.num_ids)])  # filtered there
        teams = st.c.p.nteams
        nm = 0
        while not hand_over(&st.c):
            seat = st.c.h.to_move
            if pol[seat] == POL_PYTHON:
                choice = hooks[seat](st)
                if isinstance(choice, int):
                    st.push_index(choice)
                else:
                    st.push(choice)
            else:
                n = st._generate(DEFAULT_LIST_LIMIT)
                if pol[seat] == POL_GREEDY:
                    i = greedy_pick(&st.c, &st._buf, n, &rng)
                else:
                    i = <int>rng_below(&rng, <uint64_t>n)
                st._push_c(&st._buf.moves[i])
            nm += 1
        score_points(&st.c, &points[k, 0, 0], &cards[k, 0], &sweeps[k, 0])
        moves[k] = nm
        dealers[k] = <int8_t>dealer
    return 0


def movegen_batch(states, int repeat=1) -> int:
    """Generate the legal moves of every state ``repeat`` times in C, with the GIL
    released; returns the total number of moves generated (a benchmark entry point)."""
    cdef Py_ssize_t n = len(states), i
    cdef int r
    cdef uint64_t total = 0
    cdef int got
    cdef MoveBuf buf
    cdef Core** cores = <Core**>malloc((n if n else 1) * sizeof(Core*))
    cdef State st
    if cores == NULL:
        raise MemoryError()
    try:
        if NCARDS < _W_NCARDS and n and isinstance(states[0], _WideState):   # (false in the wide copy)
            return _w_movegen_batch(states, repeat)
        for i in range(n):
            st = <State?>states[i]
            if NCARDS < _W_NCARDS and isinstance(st, _WideState):
                raise TypeError("movegen_batch takes states of one card width: "
                                "52-card and Mulle states apart")
            cores[i] = &st.c
        buf.moves = NULL
        buf.n = 0
        buf.cap = 0
        buf.limit = LIST_LIMIT
        buf.overflow = 0
        with nogil:
            for r in range(repeat):
                for i in range(n):
                    got = gen_moves(cores[i], &buf)
                    if got > 0:
                        total += <uint64_t>got
        free(buf.moves)
    finally:
        free(cores)
    return total
