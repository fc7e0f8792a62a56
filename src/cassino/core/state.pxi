# The game state: the Python-facing State (positions, the legal-move API, push and pop,
# explain, perft). The reference side: cassino/reference/state.py.
# Included by _core.pyx, in the order it lists.

# ---------------------------------------------------------------------------------------
# The Python-facing State
# ---------------------------------------------------------------------------------------

cdef int raise_pending(PerftCtl* ctl) except -1:
    """Raise the exception a signal handler raised during perft (KeyboardInterrupt)."""
    if ctl.exc[0] != NULL:
        PyErr_Restore(ctl.exc[0], ctl.exc[1], ctl.exc[2])   # (steals the references)
        ctl.exc[0] = ctl.exc[1] = ctl.exc[2] = NULL
        return -1
    raise KeyboardInterrupt


cdef inline void _set_plane(float* plane, mask_t m) noexcept nogil:
    """1.0 at each card of ``m`` in a card plane of an observation."""
    while m:
        plane[cas_ctz(m)] = 1
        m &= m - 1


cdef bint _fits_move(object card, object takes, object value):
    """Whether a move's card id, table mask and value fit this core's masks and fields.

    A Move holds any id of the 104-card double deck; the 64-bit core's masks hold 52, so a
    second-copy card (``JH'``) or an over-wide mask is no move of its positions. Checked before
    any ``<mask_t>`` cast, which would raise OverflowError or truncate.
    """
    if type(card) is not int or type(takes) is not int or type(value) is not int:
        if not (isinstance(card, int) and isinstance(takes, int) and isinstance(value, int)):
            return False
    if not (0 <= card < NCARDS or card == NO_CARD):
        return False
    if takes < 0 or takes >> NCARDS:
        return False
    return -256 <= value <= 256


cdef class State:
    """A position of one hand: legal moves, push/pop, perft and playouts, in C."""

    cdef Core c
    cdef object _rules
    cdef object _root
    cdef object _scores
    cdef object _centre          # Laugh and Lie Down: the chips in the centre (Position.centre)
    cdef Hot* _stack
    cdef CMove* _hist
    cdef size_t _depth
    cdef size_t _cap
    cdef MoveBuf _buf
    cdef uint64_t _version
    cdef uint64_t _buf_version

    def __cinit__(self):
        self._stack = NULL
        self._hist = NULL
        self._depth = 0
        self._cap = 0
        self._buf.moves = NULL
        self._buf.n = 0
        self._buf.cap = 0
        self._buf.limit = DEFAULT_LIST_LIMIT
        self._buf.overflow = 0
        self._version = 1
        self._buf_version = 0

    def __dealloc__(self):
        free(self._stack)
        free(self._hist)
        free(self._buf.moves)

    def __sizeof__(self) -> int:
        # the object with its C position, plus the undo stack and the move buffer
        return (object.__sizeof__(self) + self._cap * (sizeof(Hot) + sizeof(CMove))
                + self._buf.cap * sizeof(CMove))

    def __init__(self, position: Position) -> None:
        self._load(position.validate())
        self._root = position

    cdef int _load(self, object pos) except -1:
        cdef Core* c = &self.c
        cdef int s, t, i, a
        if pos.rules.num_ids > NCARDS:
            raise ValueError(
                f"{pos.rules.system} has {pos.rules.num_ids} card ids, more than this State "
                f"holds ({NCARDS}): State(position) and State.from_position(position) make "
                "a State of the wide core (128-bit masks) for it")
        memset(c, 0, sizeof(Core))
        self._rules = pos.rules
        load_params(&c.p, pos.rules, pos.dealer)
        c.dealer = pos.dealer
        for s in range(pos.rules.players):
            c.h.hands[s] = <mask_t>pos.hands[s]
        c.h.loose = <mask_t>pos.loose
        if len(pos.builds) > MAX_BUILDS:
            raise ValueError("too many builds")
        c.h.nbuilds = len(pos.builds)
        for i, b in enumerate(pos.builds):
            c.h.builds[i].cards = <mask_t>b.cards
            c.h.builds[i].value = b.value
            c.h.builds[i].owners = b.owners
            c.h.builds[i].multiple = 1 if b.multiple else 0
            a = alt_of(&c.p, b.fixed) if b.fixed else 0
            if a < 0:
                raise PositionError(f"the build of {b.value} fixes a card at a value it cannot take")
            c.h.builds[i].alt = a
            c.h.builds[i].raised = b.raised
            c.h.builds[i].due = 1 if b.due else 0
        for t, pile in enumerate(pos.piles):
            c.h.pile_len[t] = len(pile)
            for i, card in enumerate(pile):
                c.piles[t][i] = card
            if c.p.steal and pile:     # (a face-up bundle: its cards and its top card)
                c.h.bundles[t] = _mask_of(pile)
                c.h.tops[t] = pile[len(pile) - 1]   # (wraparound is off)
        c.stock_len = len(pos.stock)
        for i, card in enumerate(pos.stock):
            c.stock[i] = card
        c.h.stock_pos = 0
        c.h.last_capturer = -1 if pos.last_capturer is None else pos.last_capturer
        c.h.to_move = pos.to_move
        if len(pos.sweep_order) > MAX_SWEEPS:
            raise ValueError("too many sweeps")
        c.h.nsweeps = len(pos.sweep_order)
        for i, t in enumerate(pos.sweep_order):
            c.sweep_order[i] = t
        c.h.ndiscard = len(pos.discard)
        for i, card in enumerate(pos.discard):
            c.discard[i] = card
        c.h.plucked = pos.plucked
        c.h.phase = {"start": PH_START, "plucked": PH_PLUCKED, "after": PH_AFTER,
                     "prial": PH_PRIAL, "release": PH_RELEASE}[pos.phase]
        if pos.decision is not None:
            c.h.dec_rank = pos.decision[0]
            c.h.dec_after = pos.decision[1]
        for s, laid in enumerate(pos.laid):
            c.h.laid[s] = <mask_t>laid
        self._centre = pos.centre
        c.h.trailed1 = 0 if pos.trailed is None else pos.trailed + 1
        for t, n in enumerate(pos.defaults):
            if n > 255:
                raise ValueError("too many defaults")
            c.h.ndefaults[t] = n
        for t, n in enumerate(pos.mulles):
            if n > 255:
                raise ValueError("too many Mulle captures")
            c.h.nmulle[t] = n
        for t, n in enumerate(pos.esun_owed):
            c.h.owed[t] = n          # (Position checks 0 to 255)
        c.h.chance = pos.chance or 0
        for t, n in enumerate(pos.bonuses):
            c.h.bonus[t] = n         # (Position checks 0 to 255)
        c.h.fixxa1 = 0 if pos.fixxa is None else pos.fixxa + 1
        self._scores = tuple(pos.scores)
        set_start_scores(c, self._scores)
        if pos.rules.xeri_first_play == "first_hand" and any(self._scores):
            c.p.xeri_first = 0      # (AMB-48 option: only in the first hand of the game)
        self._depth = 0
        self._version += 1
        return 0

    # -- construction ----------------------------------------------------------------------
    # A system whose deck needs more card ids than NCARDS (Mulle's 104) gets a _WideState,
    # the subclass of State in the wide copy of the core, from the constructors below.
    @classmethod
    def from_position(cls, position: Position):
        """A state at ``position`` (of a compound system: a :class:`CompoundState`)."""
        if isinstance(position, Position) and position.rules.compound:
            return CompoundState.from_position(position)
        if position.rules.num_ids > NCARDS:
            return _WideState.from_position(position)
        return cls(position)

    @classmethod
    def from_json(cls, text):
        """A state from position JSON."""
        return cls.from_position(Position.from_json(text))

    @classmethod
    def new_hand(cls, rules: Rules, dealer: int, deck, scores=None, centre=0):
        """A freshly dealt hand: ``deck`` is the shuffled deck, dealt from the front.

        Laugh and Lie Down: ``scores`` are the chips each seat holds before the antes
        (default ``start_chips`` each) and ``centre`` the chips left in the centre."""
        cdef State st
        cdef uint8_t cards[NCARDS]
        cdef int i
        if rules.compound:
            return CompoundState.new_hand(rules, dealer, deck)
        if rules.num_ids > NCARDS:
            return _WideState.new_hand(rules, dealer, deck, scores, centre)
        if not isinstance(dealer, int) or not 0 <= dealer < rules.players:
            raise PositionError(f"dealer must be a seat from 0 to {rules.players - 1}, not {dealer!r}")
        deck = system_deck(rules, deck)
        if len(deck) > NCARDS:
            raise ValueError(f"a deck of {len(deck)} cards: {rules.system} has {NCARDS} ids")
        for i in range(len(deck)):
            cards[i] = <uint8_t>deck[i]
        st = cls.__new__(cls)
        memset(&st.c, 0, sizeof(Core))
        load_params(&st.c.p, rules, dealer)
        init_hand(&st.c, cards, len(deck), dealer)
        st._rules = rules
        st._scores = tuple(scores or [0] * rules.num_teams)
        st._centre = 0
        if rules.laugh:
            st._scores, st._centre = _after_antes(rules, dealer, scores, centre)
        set_start_scores(&st.c, st._scores)
        if rules.xeri_first_play == "first_hand" and any(st._scores):
            st.c.p.xeri_first = 0   # (AMB-48 option: only in the first hand of the game)
        st._root = None          # the position at ply 0, made when first needed (_root_position)
        return st

    @staticmethod
    def shuffled_deck(rng_state, size) -> tuple:
        """``(shuffled_deck(rng, size), rng.state after it)`` for an :class:`~cassino.Rng`
        of state ``rng_state``: the same Fisher-Yates shuffle, in C."""
        cdef Rng64 rng
        cdef uint8_t deck[NCARDS]
        cdef int i
        if isinstance(rng_state, bool) or not isinstance(rng_state, int) or not (
                0 <= rng_state < 2 ** 64):
            raise ValueError(f"an RNG state is an integer from 0 to 2**64 - 1, not {rng_state!r}")
        if isinstance(size, int) and not isinstance(size, bool) and NCARDS < size <= _W_NCARDS:
            return _WideState.shuffled_deck(rng_state, size)    # (Mulle's 104 cards)
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= NCARDS:
            raise ValueError(f"a deck size is from 1 to {NCARDS}, not {size!r}")
        rng.state = <uint64_t>rng_state
        shuffle_deck(&rng, deck, size)
        return [deck[i] for i in range(size)], rng.state

    @classmethod
    def deal(cls, rules: Rules, dealer: int, seed: int):
        """A freshly dealt hand, the deck shuffled from ``seed`` in C: the same deal as
        ``new_hand(rules, dealer, shuffled_deck(Rng(seed)))``."""
        cdef Rng64 rng
        cdef uint8_t cards[NCARDS]
        cdef State st
        if rules.compound:
            return CompoundState.deal(rules, dealer, seed)
        if rules.num_ids > NCARDS:
            return _WideState.deal(rules, dealer, seed)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < rules.players:
            raise PositionError(f"dealer must be a seat from 0 to {rules.players - 1}, not {dealer!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be an integer, not {seed!r}")
        st = cls.__new__(cls)
        memset(&st.c, 0, sizeof(Core))
        load_params(&st.c.p, rules, dealer)
        rng.state = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
        shuffle_deck(&rng, cards, st.c.p.nids)
        init_hand(&st.c, cards, deck_filter(&st.c.p, cards, st.c.p.nids), dealer)
        st._rules = rules
        st._scores = tuple([0] * rules.num_teams)
        st._centre = 0
        if rules.laugh:
            st._scores, st._centre = _after_antes(rules, dealer, None, 0)
        st._root = None
        return st

    cdef object _root_position(self):
        """The position this state started from (before its first push)."""
        cdef State tmp
        if self._root is None:
            tmp = State.__new__(State)
            memcpy(&tmp.c, &self.c, sizeof(Core))
            if self._depth:
                memcpy(&tmp.c.h, &self._stack[0], sizeof(Hot))
            tmp._rules = self._rules
            tmp._scores = self._scores
            tmp._centre = self._centre
            self._root = tmp.to_position()
        return self._root

    def to_position(self) -> Position:
        """The current position."""
        cdef Core* c = &self.c
        cdef int s, t, i
        rules = self._rules
        builds = sorted(
            Build(c.h.builds[i].value, mask_int(c.h.builds[i].cards), c.h.builds[i].owners,
                  bool(c.h.builds[i].multiple),
                  fixed_of(&c.p, c.h.builds[i].cards, c.h.builds[i].alt) if c.p.nmulti else (),
                  c.h.builds[i].raised, bool(c.h.builds[i].due))
            for i in range(c.h.nbuilds)
        )
        return Position(
            rules=rules,
            dealer=c.dealer,
            to_move=c.h.to_move,
            hands=tuple(mask_int(c.h.hands[s]) for s in range(c.p.players)),
            loose=mask_int(c.h.loose),
            builds=tuple(builds),
            piles=tuple(pile_tuple(c, t) for t in range(c.p.nteams)),
            stock=tuple(c.stock[i] for i in range(c.h.stock_pos, c.stock_len)),
            last_capturer=None if c.h.last_capturer < 0 else c.h.last_capturer,
            sweep_order=tuple(c.sweep_order[i] for i in range(c.h.nsweeps)),
            scores=self._scores,
            discard=tuple(c.discard[i] for i in range(c.h.ndiscard)),
            plucked=c.h.plucked,
            phase=PHASE_NAMES[c.h.phase],
            trailed=None if c.h.trailed1 == 0 else c.h.trailed1 - 1,
            defaults=self._defaults(),
            mulles=self._mulles(),
            esun_owed=self._owed(),
            chance=c.h.chance if c.p.esun_random else None,
            fixxa=None if c.h.fixxa1 == 0 else c.h.fixxa1 - 1,
            bonuses=self._bonuses(),
            centre=self._centre,
            laid=self._laid(),
            decision=(c.h.dec_rank, c.h.dec_after) if c.h.phase >= PH_PRIAL else None,
        )

    cdef tuple _laid(self):
        cdef int s
        if not self.c.p.laugh:
            return ()
        cdef tuple d = tuple(mask_int(self.c.h.laid[s]) for s in range(self.c.p.players))
        return d if any(d) else ()

    cdef tuple _bonuses(self):
        cdef int t
        cdef tuple d = tuple(self.c.h.bonus[t] for t in range(self.c.p.nteams))
        return d if any(d) else ()

    cdef tuple _owed(self):
        cdef int s
        cdef tuple d = tuple(self.c.h.owed[s] for s in range(self.c.p.players))
        return d if any(d) else ()

    cdef tuple _mulles(self):
        cdef int t
        cdef tuple d = tuple(self.c.h.nmulle[t] for t in range(self.c.p.nteams))
        return d if any(d) else ()

    cdef tuple _defaults(self):
        cdef int t
        cdef tuple d = tuple(self.c.h.ndefaults[t] for t in range(self.c.p.nteams))
        return d if any(d) else ()

    def to_json(self, indent=None) -> str:
        """Position JSON of the current position."""
        return self.to_position().to_json(indent)

    def clone(self) -> State:
        """An independent copy, undo history included."""
        cdef State new = State.__new__(State)
        memcpy(&new.c, &self.c, sizeof(Core))
        new._rules = self._rules
        new._root = self._root
        new._scores = self._scores
        new._centre = self._centre
        new._reserve(self._depth)
        if self._depth:
            memcpy(new._stack, self._stack, self._depth * sizeof(Hot))
            memcpy(new._hist, self._hist, self._depth * sizeof(CMove))
        new._depth = self._depth
        return new

    def __copy__(self) -> State:
        return self.clone()

    def __deepcopy__(self, memo) -> State:
        return self.clone()

    def __reduce__(self):
        moves = [(self._hist[i].card, self._hist[i].kind, mask_int(self._hist[i].takes),
                  self._hist[i].value, to_move_p(&self.c.p, &self._hist[i]).fixed)
                 for i in range(self._depth)]
        return (_unpickle, (self._root_position().to_dict(), moves))

    def __eq__(self, other):
        if not hasattr(other, "to_position"):
            return NotImplemented
        return self.to_position() == other.to_position()

    def __repr__(self) -> str:
        return f"<State {self.to_position().to_text()}>"

    def __str__(self) -> str:
        """The board (:meth:`Position.board`): hands, table, builds, counts."""
        return self.to_position().board()

    # -- queries ---------------------------------------------------------------------------
    def hand(self, seat=None) -> CardSet:
        """The cards in the hand of ``seat`` (default: the seat to move), as a CardSet."""
        if seat is None:
            seat = self.c.h.to_move
        if not isinstance(seat, int) or not 0 <= seat < self.c.p.players:
            raise ValueError(f"no seat {seat!r}: seats are 0 to {self.c.p.players - 1}")
        return CardSet(mask_int(self.c.h.hands[<int>seat]))

    @property
    def table(self) -> CardSet:
        """Every card on the table, loose or in builds, as a CardSet."""
        return CardSet(mask_int(table_mask(&self.c)))

    @property
    def rules(self) -> Rules:
        """The rules of the game."""
        return self._rules

    @property
    def dealer(self) -> int:
        """The dealer's seat."""
        return self.c.dealer

    @property
    def to_move(self) -> int:
        """The seat to act."""
        return self.c.h.to_move

    @property
    def hands(self) -> list:
        """Hand masks per seat."""
        return [mask_int(self.c.h.hands[s]) for s in range(self.c.p.players)]

    @property
    def loose(self) -> int:
        """Mask of the loose table cards."""
        return mask_int(self.c.h.loose)

    @property
    def table_mask(self) -> int:
        """Every card on the table."""
        return mask_int(table_mask(&self.c))

    @property
    def is_over(self) -> bool:
        """Whether the hand is finished."""
        return bool(hand_over(&self.c))

    @property
    def last_deal(self) -> bool:
        """Whether the current deal is the last of the hand (the dealer announced "Last";
        never in cassino_draw, which has one deal and no announcement)."""
        return self.c.h.stock_pos >= self.c.stock_len and not self.c.p.draw_refill

    @property
    def ply(self) -> int:
        """Number of moves pushed."""
        return self._depth

    @property
    def history(self) -> list:
        """Moves pushed since the state was created."""
        return [to_move_p(&self.c.p, &self._hist[i]) for i in range(self._depth)]

    @property
    def movers(self) -> list:
        """The seat that made each move of :attr:`history`."""
        return [self._stack[i].to_move for i in range(self._depth)]

    def hand_score(self):
        """Scoring of the captured piles and sweeps so far."""
        pos = self.to_position()
        last = pos.last_capturer
        # Sistan (Swedish Kassino): the last capturer of a finished hand
        team = self._rules.team_of(last) if last is not None and pos.is_over else None
        return score_hand(
            self._rules, pos.piles, pos.sweep_order, pos.defaults, last_team=team,
            scores=pos.scores, mulles=pos.mulles, bonuses=pos.bonuses,
        )

    def hand_totals(self) -> list:
        """Points per team of the piles and sweeps so far, ``hand_score().totals()`` computed
        in C (playouts and search read it once per rollout)."""
        cdef int64_t out[MAX_SEATS]
        cdef int t
        score_totals(&self.c, out)
        return [out[t] for t in range(self.c.p.nteams)]

    def is_default(self, move) -> bool:
        """Whether playing ``move`` now defaults on the build duty of the obligation module
        (under michigan: legal, and fined 2 points when played; docs/rules.md §3.37, AMB-19)."""
        if not isinstance(move, Move):
            raise TypeError(f"is_default takes a Move, not {type(move).__name__}")
        if not _fits_move(move.card, move.takes, move.value):
            return False     # not a move of this deck: never a legal one, so never a default
        return bool(is_default(&self.c, int(move.kind), <mask_t>move.takes))

    # -- moves -----------------------------------------------------------------------------
    cdef int _generate(self, size_t limit) except -2:
        cdef int n
        # with capture_extent=maximal, captures are filtered after listing: list up to the
        # default limit, then compare the moves left with ``limit``
        self._buf.limit = DEFAULT_LIST_LIMIT if self.c.p.maximal and limit < DEFAULT_LIST_LIMIT else limit
        # releasing the GIL costs more than listing the moves of a typical position: only
        # large tables (which can take milliseconds) let other threads run meanwhile
        if cas_popcount(self.c.h.loose) > NOGIL_LOOSE:
            with nogil:
                n = gen_moves(&self.c, &self._buf)
        else:
            n = gen_moves(&self.c, &self._buf)
        self._buf_version = self._version if n >= 0 else 0
        if n < 0 or <size_t>n > limit:
            if n >= 0 or self._buf.n >= self._buf.limit:
                self._buf_version = 0
                raise MoveLimitError(
                    f"{self.count_moves()} legal moves exceed the listing limit of {limit}")
            raise MemoryError("out of memory while listing moves")
        return n

    def legal_moves(self, limit=None) -> list:
        """Every distinct legal move, in canonical order ``(card, kind, takes, value)``.

        Raises :class:`MoveLimitError` if there are more than ``limit`` moves."""
        cdef size_t cap = DEFAULT_LIST_LIMIT if limit is None else limit
        cdef int n = self._generate(cap)
        return [to_move_p(&self.c.p, &self._buf.moves[i]) for i in range(n)]

    def iter_moves(self, chunk=4096):
        """The legal moves in the order of :meth:`legal_moves`, generated ``chunk`` at a
        time in bounded memory, without the listing limit (a :class:`MoveStream`). The
        state must not change meanwhile: the iterator raises RuntimeError after a push or
        pop."""
        return MoveStream(self, chunk)

    def count_moves(self) -> int:
        """Exact number of legal moves. Tables of up to 12 loose cards are listed into the
        move buffer (fastest there); larger ones are counted by value multisets, without
        listing, in milliseconds even when there are millions of moves."""
        if cas_popcount(self.c.h.loose) <= TABLE_BITS:
            return self._generate(DEFAULT_LIST_LIMIT)
        return self._count_by_multisets()

    def _count_by_multisets(self) -> int:
        """The multiset counter alone (tests compare it with the listing)."""
        cdef uint64_t n
        with nogil:
            n = count_moves_c(&self.c)
        return n

    def num_moves(self) -> int:
        """Generate the legal moves into the move buffer and return their number."""
        return self._generate(DEFAULT_LIST_LIMIT)

    cdef int _check_index(self, Py_ssize_t index) except -1:
        if self._buf_version != self._version:
            self._generate(DEFAULT_LIST_LIMIT)
        if not 0 <= index < <Py_ssize_t>self._buf.n:
            raise IndexError(f"move index {index} out of range (0 to {self._buf.n - 1})")
        return 0

    def move_at(self, Py_ssize_t index) -> Move:
        """The move at ``index`` of the last :meth:`num_moves`."""
        self._check_index(index)
        return to_move_p(&self.c.p, &self._buf.moves[index])

    def push_index(self, Py_ssize_t index) -> None:
        """Push the move at ``index`` of the last :meth:`num_moves`."""
        self._check_index(index)
        self._push_c(&self._buf.moves[index])

    cdef int _reserve(self, size_t need) except -1:
        cdef size_t cap
        cdef Hot* st
        cdef CMove* hi
        if need <= self._cap:
            return 0
        cap = self._cap * 2 if self._cap else 64
        while cap < need:
            cap *= 2
        st = <Hot*>realloc(self._stack, cap * sizeof(Hot))
        if st == NULL:
            raise MemoryError()
        self._stack = st
        hi = <CMove*>realloc(self._hist, cap * sizeof(CMove))
        if hi == NULL:
            raise MemoryError()
        self._hist = hi
        self._cap = cap
        return 0

    cdef int _push_c(self, CMove* m) except -1:
        cdef CMove mv = m[0]
        self._reserve(self._depth + 1)
        memcpy(&self._stack[self._depth], &self.c.h, sizeof(Hot))
        self._hist[self._depth] = mv
        self._depth += 1
        apply_move(&self.c, &mv)
        self._version += 1
        return 0

    def explain(self, move) -> object:
        """None if ``move`` is legal, else a sentence naming the rule that forbids it."""
        if self._find(move) >= 0:
            return None
        # (the reference names the rule, on a copy of this position made part by part)
        return self._reference_state().explain(move)

    cdef object _reference_state(self):
        """A reference state at this position, unchecked (it holds by construction) and
        without a Position in between (_RefState._of_parts): explain's."""
        cdef Core* c = &self.c
        cdef int s, t, i
        builds = sorted([
            Build(c.h.builds[i].value, mask_int(c.h.builds[i].cards), c.h.builds[i].owners,
                  bool(c.h.builds[i].multiple),
                  fixed_of(&c.p, c.h.builds[i].cards, c.h.builds[i].alt) if c.p.nmulti else (),
                  c.h.builds[i].raised, bool(c.h.builds[i].due))
            for i in range(c.h.nbuilds)
        ])
        return _RefState._of_parts(
            self._rules, c.dealer, c.h.to_move,
            [mask_int(c.h.hands[s]) for s in range(c.p.players)],
            mask_int(c.h.loose), builds,
            [list(pile_tuple(c, t)) for t in range(c.p.nteams)],
            [c.stock[i] for i in range(c.h.stock_pos, c.stock_len)],
            None if c.h.last_capturer < 0 else c.h.last_capturer,
            [c.sweep_order[i] for i in range(c.h.nsweeps)],
            list(self._scores),
            [c.discard[i] for i in range(c.h.ndiscard)],
            c.h.plucked, PHASE_NAMES[c.h.phase],
            None if c.h.trailed1 == 0 else c.h.trailed1 - 1,
            [c.h.ndefaults[t] for t in range(c.p.nteams)],
            [c.h.nmulle[t] for t in range(c.p.nteams)],
            [c.h.owed[s] for s in range(c.p.players)],
            c.h.chance if c.p.esun_random else None,
            None if c.h.fixxa1 == 0 else c.h.fixxa1 - 1,
            [c.h.bonus[t] for t in range(c.p.nteams)],
            self._centre, list(self._laid()),
            (c.h.dec_rank, c.h.dec_after) if c.h.phase >= PH_PRIAL else None,
        )

    cdef Py_ssize_t _find(self, object move) except -2:
        cdef int n
        if self._buf_version == self._version:
            n = <int>self._buf.n     # the moves of this position are in the buffer already
        else:
            n = self._generate(DEFAULT_LIST_LIMIT)
        card_o, takes_o, value_o = move.card, move.takes, move.value
        if not _fits_move(card_o, takes_o, value_o):
            return -1     # a card id or mask this core's deck cannot hold: no legal move has it
        cdef int i, card = card_o, kind = int(move.kind), value = value_o
        cdef mask_t takes = <mask_t>takes_o
        cdef bint build_like = K_BUILD <= kind <= K_INCREASE
        cdef CMove* m
        cdef int alt = 0
        if self.c.p.nmulti:
            alt = alt_of(&self.c.p, move.fixed)
            if alt < 0:
                return -1
        elif move.fixed:
            return -1
        for i in range(n):
            m = &self._buf.moves[i]
            if m.card == card and m.takes == takes and m.value == value:
                if self.c.p.nmulti and m.alt != alt and not (
                        build_like and alt_equiv(&self.c.p, m.alt, alt)):
                    continue     # (another labelling of interchangeable cards: the same move)
                if m.kind == kind or (build_like and K_BUILD <= m.kind <= K_INCREASE):
                    return i
        return -1

    def _picked(self, Py_ssize_t index) -> Move | None:
        """The move at ``index`` by counting and picking without listing (``pick_setup``,
        ``pick_at``: capture-only rules and tables), or None where that path does not serve
        the position; tests compare it with :meth:`move_at`."""
        cdef Pick P
        cdef CMove mv
        if not pick_setup(&self.c, &P):
            return None
        if not 0 <= index < <Py_ssize_t>P.total:
            raise IndexError(f"move index {index} out of range: {P.total} legal moves")
        return to_move_p(&self.c.p, pick_at(&P, <uint64_t>index, &mv))

    def _general_paths(self, bint on) -> None:
        """List this state's multi-valued and Diloti positions by the general paths (the
        subset walks ``multi_card`` and ``dil_card``) instead of the bitset and group paths;
        tests compare the two."""
        self.c.p.general_paths = 1 if on else 0
        self._buf_version = 0

    def is_legal(self, move) -> bool:
        """Whether ``move`` is legal (build kinds are matched by notation)."""
        return self._find(move) >= 0

    def parse_move(self, str text) -> Move:
        """The legal move written ``text``; raises :class:`IllegalMoveError` if none."""
        move = Move.parse(text)
        cdef Py_ssize_t i = self._find(move)
        if i < 0:
            raise IllegalMoveError(f"illegal move {move}: {self.explain(move)}")
        return to_move_p(&self.c.p, &self._buf.moves[i])

    def push(self, move) -> Move:
        """Play a legal move; the state is unchanged if it is illegal. Returns the move."""
        if isinstance(move, str):
            try:
                move = Move.parse(move)
            except NotationError as exc:
                raise IllegalMoveError(str(exc)) from None
        if not isinstance(move, Move):
            raise TypeError(f"push takes a Move or a notation string, not {type(move).__name__}")
        cdef Py_ssize_t i = self._find(move)
        if i < 0:
            raise IllegalMoveError(f"illegal move {move}: {self.explain(move)}")
        if self._buf.moves[i].kind == <int>move.kind and (
                not self.c.p.nmulti     # (CMove.alt is left unset without multi-valued cards)
                or self._buf.moves[i].alt == alt_of(&self.c.p, move.fixed)):
            result = move        # the move given (a build-like kind may be resolved)
        else:
            result = to_move_p(&self.c.p, &self._buf.moves[i])
        self._push_c(&self._buf.moves[i])
        return result

    def pop(self) -> Move:
        """Undo the last move and return it."""
        if self._depth == 0:
            raise IndexError("pop from a state with no moves pushed")
        self._depth -= 1
        memcpy(&self.c.h, &self._stack[self._depth], sizeof(Hot))
        self._version += 1
        return to_move_p(&self.c.p, &self._hist[self._depth])

    def peek(self) -> Move:
        """The last move pushed."""
        if self._depth == 0:
            raise IndexError("no move has been pushed")
        return to_move_p(&self.c.p, &self._hist[self._depth - 1])

    # -- search ----------------------------------------------------------------------------
    def perft(self, int depth) -> int:
        """Number of move sequences of length ``depth``; a finished hand is a leaf."""
        cdef MoveBuf* bufs
        cdef uint64_t n
        cdef int i
        cdef Hot saved
        cdef PerftCtl ctl
        if depth <= 0:
            return 1
        if depth > 200:
            raise ValueError("perft depth must be at most 200")
        bufs = <MoveBuf*>malloc(depth * sizeof(MoveBuf))
        if bufs == NULL:
            raise MemoryError()
        for i in range(depth):
            bufs[i].moves = NULL
            bufs[i].n = 0
            bufs[i].cap = 0
            bufs[i].limit = DEFAULT_LIST_LIMIT
            bufs[i].overflow = 0
        memcpy(&saved, &self.c.h, sizeof(Hot))
        ctl.nodes = 0
        ctl.stop = 0
        ctl.exc[0] = ctl.exc[1] = ctl.exc[2] = NULL
        try:
            with nogil:
                n = perft_c(&self.c, depth, bufs, &ctl)
            if ctl.stop:
                raise_pending(&ctl)     # the KeyboardInterrupt of Ctrl-C (state restored)
            overflow = any(bufs[i].overflow for i in range(depth))
        finally:
            memcpy(&self.c.h, &saved, sizeof(Hot))
            for i in range(depth):
                free(bufs[i].moves)
            free(bufs)
        self._version += 1
        if overflow:
            raise MoveLimitError(
                f"a position in this perft has more than {DEFAULT_LIST_LIMIT} legal moves")
        return n

    def playout(self, seed) -> object:
        """Play uniformly random legal moves to the end of the hand; return its scoring."""
        cdef Rng64 rng
        cdef int n
        rng.state = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
        while not hand_over(&self.c):
            n = self._generate(DEFAULT_LIST_LIMIT)
            self._push_c(&self._buf.moves[rng_below(&rng, <uint64_t>n)])
        return self.hand_score()

    # -- the learning environments' observation (cassino.env) -------------------------------
    def _observe(self, int seat, int to_move, float[::1] out) -> None:
        """Write ``HandEnv.observation_tensor(seat)`` without the move being built into
        ``out`` (float32, ``cassino.env.observation_size`` long), with ``to_move`` the seat
        to move (-1: none). ``cassino.env.HandEnv._base_reference`` computes the same
        floats in Python; tests compare them."""
        cdef Core* c = &self.c
        cdef int n = c.p.nids, t = c.p.nteams, p = c.p.players
        cdef int team, k, s, i, b, base
        cdef mask_t m, in_builds = 0, mine = 0, unseen = 0
        cdef float v
        if not 0 <= seat < p:
            raise IllegalMoveError(f"no seat {seat} (seats 0-{p - 1})")
        if out.shape[0] != (9 + t) * n + 2 * p + t + 5:
            raise ValueError(f"the observation has {(9 + t) * n + 2 * p + t + 5} entries, "
                             f"not {out.shape[0]}")
        memset(&out[0], 0, out.shape[0] * sizeof(float))
        team = c.p.team_of[seat]
        for b in range(c.h.nbuilds):
            in_builds |= c.h.builds[b].cards
            for s in range(p):
                if c.h.builds[b].owners >> s & 1 and c.p.team_of[s] == team:
                    mine |= c.h.builds[b].cards
                    break
            v = <float>(c.h.builds[b].value / 14.0)
            m = c.h.builds[b].cards
            while m:
                out[4 * n + cas_ctz(m)] = v
                m &= m - 1
        for s in range(p):
            if s != seat:
                unseen |= c.h.hands[s]
        for i in range(c.h.stock_pos, c.stock_len):
            unseen |= (<mask_t>1) << c.stock[i]
        for i in range(c.p.set_aside if c.p.set_aside < c.h.ndiscard else c.h.ndiscard):
            unseen |= (<mask_t>1) << c.discard[i]     # (Elewenjewe: set aside unseen)
        if c.p.hide_own_pile:
            unseen |= pile_mask(c, team)              # (no Isiwo: the own pile, AMB-81)
        _set_plane(&out[0], c.h.hands[seat])
        _set_plane(&out[n], c.h.loose)
        _set_plane(&out[2 * n], in_builds)
        _set_plane(&out[3 * n], mine)
        _set_plane(&out[5 * n], unseen)
        for k in range(t):
            s = (team + k) % t
            base = (6 + k) * n
            m = pile_mask(c, s) if k or not c.p.hide_own_pile else 0
            while m:
                out[base + cas_ctz(m)] = 1
                m &= m - 1
        i = (9 + t) * n
        for k in range(p):
            out[i + k] = <float>(cas_popcount(c.h.hands[(seat + k) % p])
                                 / <double>(c.p.hand_size if c.p.hand_size > 0 else 1))
        i += p
        out[i] = <float>((c.stock_len - c.h.stock_pos) / <double>n)
        i += 1
        for k in range(t):
            s = 0
            for b in range(c.h.nsweeps):
                s += c.sweep_order[b] == (team + k) % t
            out[i + k] = <float>(s / 10.0)
        i += t
        # (Laugh and Lie Down's decisions take the plucked and after slots: env._SLOT)
        out[i + (c.h.phase if c.h.phase <= PH_AFTER else c.h.phase - 2)] = 1
        i += 3
        out[i] = 1 if c.h.stock_pos >= c.stock_len and not c.p.draw_refill else 0
        i += 1
        if to_move >= 0:
            out[i + (to_move - seat + p) % p] = 1

    # -- the built-in players in C (core/players.pxi) ----------------------------------------
    def greedy_scores(self) -> list:
        """The greedy player's score of each legal move (``legal_moves()`` order) for the
        seat to move: ``GreedyPlayer.evaluate`` of the seat's view, computed in C."""
        cdef int n = self._generate(DEFAULT_LIST_LIMIT), i
        cdef double x
        out = []
        for i in range(n):
            if greedy_eval(&self.c, &self._buf.moves[i], &x) < 0:
                out.append(self._reference_greedy().evaluate(
                    self._view(), to_move_p(&self.c.p, &self._buf.moves[i])))
            else:
                out.append(x)
        return out

    def _ismcts(self, seat, unseen, iterations, deadline, c, scale, rng_state, policy="eval",
                opponent_greedy=False, pool_seat=-1, pool=()):
        """The search of ``cassino.ismcts.ISMCTSPlayer`` (policy ``"eval"``) in C, with this
        state as a determinization of ``seat``'s view: each iteration deals ``unseen`` (the
        view's unseen cards, a mask) afresh to the other hands and the stock, as
        ``View.sample_world`` does with the same Rng draws; ``policy`` judges a new node
        (``"eval"``, or a rollout by ``"random"``, ``"greedy"`` or ``"expert"`` players as in
        ``play_hand``, ``scale`` then the margin scale); with ``opponent_greedy`` the other teams move as the greedy player
        would (``opponent="greedy"``); a ``pool`` of ``(hand, cumulative weight)`` pairs
        (card reading, ``ISMCTSPlayer._deal``) gives seat ``pool_seat``'s hand, drawn by
        weight, before the rest is dealt. Stops after ``iterations`` (an
        int or None) or at ``deadline`` (a ``time.perf_counter()`` value or None; at least
        one iteration). Returns ``(visits, iterations_done, rng_state)``, ``visits`` the
        root's count for each of ``legal_moves()``; None where the reference must search
        (a greedy score past the C group limit, a listing past the move limit)."""
        cdef Core* w = NULL
        cdef ITree t
        cdef MoveBuf buf
        cdef int* kids = NULL
        cdef int kcap = 0, nu = 0, i, r = 0, n, ch, s = seat
        cdef long long done = 0, limit = -1 if iterations is None else iterations
        cdef bint timed = deadline is not None
        cdef double until = deadline if timed else 0.0, cu = c, sc = scale
        cdef uint8_t cards[NCARDS]
        cdef Rng64 rng
        cdef mask_t um = <mask_t>unseen
        cdef int pol
        cdef bint og = bool(opponent_greedy)
        cdef mask_t* ph = NULL
        cdef uint64_t* pc = NULL
        cdef int npool = 0, ps = pool_seat
        cdef uint64_t rs = rng_state    # (converted, and refused, before any allocation)
        cdef double ws0[NCARDS]
        cdef object hands, cums
        if policy == "eval":
            pol = IS_EVAL
        elif policy == "random":
            pol = POL_RANDOM
        elif policy == "greedy":
            pol = POL_GREEDY
        elif policy == "expert":
            pol = POL_EXPERT
            from cassino.greedy import card_weights
            for i, x in enumerate(card_weights(self._rules)):
                ws0[i] = x
        else:
            raise ValueError(
                f"policy must be 'eval', 'random', 'greedy' or 'expert', not {policy!r}")
        if not 0 <= s < self.c.p.players or self.c.h.to_move != s:
            raise ValueError(f"seat {seat!r} is not the seat to move")
        if limit < 0 and not timed or iterations is not None and limit < 1:
            raise ValueError("the search needs a positive iteration budget or a deadline")
        n = 0
        for i in range(self.c.p.players):
            if i != s:
                n += cas_popcount(self.c.h.hands[i])
        if cas_popcount(um) != n + self.c.stock_len - self.c.h.stock_pos:
            raise ValueError("the unseen cards do not fill the other hands and the stock")
        if pool:
            hands = [int(h) for h, _ in pool]
            cums = [int(x) for _, x in pool]
            if ps == s or not 0 <= ps < self.c.p.players:
                raise ValueError(f"pool_seat {pool_seat!r} is not another seat")
            for i in range(len(hands)):
                if (hands[i] < 0 or hands[i] & ~unseen
                        or hands[i].bit_count() != cas_popcount(self.c.h.hands[ps])):
                    raise ValueError(
                        f"pool hand {i} is not a hand of seat {ps} from the unseen cards")
                if cums[i] < (cums[i - 1] if i else 0):
                    raise ValueError("the pool's cumulative weights must not decrease")
            if not 0 < cums[len(cums) - 1] < 1 << 32:   # (no wraparound here)
                raise ValueError("the pool's total weight must be from 1 to 2**32 - 1")
            npool = len(hands)
            ph = <mask_t*>malloc(npool * sizeof(mask_t))
            pc = <uint64_t*>malloc(npool * sizeof(uint64_t))
            if ph == NULL or pc == NULL:
                free(ph)
                free(pc)
                raise MemoryError()
            for i in range(npool):
                ph[i] = <mask_t>hands[i]
                pc[i] = <uint64_t>cums[i]
        while um:
            cards[nu] = cas_ctz(um)
            nu += 1
            um &= um - 1
        rng.state = rs
        t.nodes = NULL
        t.n = 0
        t.cap = 0
        buf.moves = NULL
        buf.n = 0
        buf.cap = 0
        buf.limit = DEFAULT_LIST_LIMIT
        buf.overflow = 0
        w = <Core*>malloc(sizeof(Core))
        if w == NULL or itree_add(&t, -1, NULL, -1) < 0:
            free(w)
            free(t.nodes)
            free(ph)
            free(pc)
            raise MemoryError()
        with nogil:
            while True:
                if limit >= 0 and done >= limit:
                    break
                if timed and done and monotonic_s() >= until:
                    break
                r = ismcts_iterate(&self.c, w, s, cards, nu, ph, pc, npool, ps, ws0,
                                   &t, &buf, &kids, &kcap, &rng,
                                   cu, sc, pol, og)
                if r < 0:
                    break
                done += 1
        free(w)
        free(buf.moves)
        free(kids)
        free(ph)
        free(pc)
        if r == -1:
            free(t.nodes)
            raise MemoryError()
        if r < 0:
            free(t.nodes)
            return None
        try:
            n = self._generate(DEFAULT_LIST_LIMIT)
            if n < 0:
                return None
            visits = []
            for i in range(n):
                ch = t.nodes[0].child
                while ch >= 0 and not same_move(&self.c.p, &t.nodes[ch].move,
                                                &self._buf.moves[i]):
                    ch = t.nodes[ch].sibling
                visits.append(t.nodes[ch].visits if ch >= 0 else 0)
        finally:
            free(t.nodes)
        return visits, done, rng.state

    def _set_hidden_hand(self, seat, hand) -> None:
        """Give ``seat`` the hand ``hand`` (a mask of as many cards), trading with the stock:
        each card of ``hand`` the seat does not hold must be in the stock, and a card the
        seat gives up takes its place there. At ply 0 only. Card reading weighs many hands
        in one position this way (``ExpertPlayer._likelihoods``). ValueError, and the state
        unchanged, when ``hand`` is not such a hand."""
        cdef int s, i
        cdef mask_t new, old, inn, out, stocked = 0
        if not isinstance(seat, int) or not 0 <= seat < self.c.p.players:
            raise ValueError(f"seat must be a seat from 0 to {self.c.p.players - 1}, not {seat!r}")
        if self._depth:
            raise ValueError("a hidden hand can be set at ply 0 only")
        s = seat
        if not isinstance(hand, int) or hand < 0 or hand >> NCARDS:
            raise ValueError(f"hand must be a card mask, not {hand!r}")
        new = <mask_t>hand
        old = self.c.h.hands[s]
        if cas_popcount(new) != cas_popcount(old):
            raise ValueError(f"hand has {cas_popcount(new)} cards; seat {s} holds "
                             f"{cas_popcount(old)}")
        for i in range(self.c.h.stock_pos, self.c.stock_len):
            stocked |= (<mask_t>1) << self.c.stock[i]
        inn = new & ~old
        out = old & ~new
        if inn & ~stocked:
            raise ValueError("hand has cards that are neither in the seat's hand nor the stock")
        for i in range(self.c.h.stock_pos, self.c.stock_len):
            if inn & ((<mask_t>1) << self.c.stock[i]):
                self.c.stock[i] = <uint8_t>cas_ctz(out)
                out &= out - 1
        self.c.h.hands[s] = new
        self._root = None
        self._version += 1

    def _redeal(self, hands, stock) -> None:
        """Deal the hidden cards of this state again: ``hands`` gives every seat's hand (a
        mask each, as many cards as it holds) and ``stock`` the cards still to be dealt, in
        order; together they must be the cards now in the hands and the stock. At ply 0
        only. ``View.sample_world`` makes its worlds so from one validated state of the view.
        ValueError, and the state unchanged, when they are not those cards."""
        cdef int s, i, k, n = self.c.p.players
        cdef mask_t have = 0, got = 0, m
        cdef int count = 0
        cdef mask_t new[MAX_SEATS]
        cdef uint8_t order[NCARDS]
        if self._depth:
            raise ValueError("the hidden cards can be dealt again at ply 0 only")
        hands = tuple(hands)
        stock = tuple(stock)
        if len(hands) != n:
            raise ValueError(f"one hand per seat ({n}) is needed, not {len(hands)}")
        k = self.c.stock_len - self.c.h.stock_pos
        if len(stock) != k:
            raise ValueError(f"the stock holds {k} cards, not {len(stock)}")
        for s in range(n):
            h = hands[s]
            if isinstance(h, bool) or not isinstance(h, int) or h < 0 or h >> NCARDS:
                raise ValueError(f"a hand is a card mask, not {h!r}")
            m = <mask_t>h
            if cas_popcount(m) != cas_popcount(self.c.h.hands[s]):
                raise ValueError(f"seat {s} holds {cas_popcount(self.c.h.hands[s])} cards, "
                                 f"not {cas_popcount(m)}")
            new[s] = m
            got |= m
            count += cas_popcount(m)
            have |= self.c.h.hands[s]
        for i in range(k):
            x = stock[i]
            if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < self.c.p.nids:
                raise ValueError(f"a stock card is a card id from 0 to {self.c.p.nids - 1}, "
                                 f"not {x!r}")
            order[i] = <uint8_t>x
            got |= (<mask_t>1) << order[i]
            count += 1
            have |= (<mask_t>1) << self.c.stock[self.c.h.stock_pos + i]
        if cas_popcount(got) != count or got != have:
            raise ValueError("the hands and the stock must be the cards now in the hands and "
                             "the stock, each once")
        for s in range(n):
            self.c.h.hands[s] = new[s]
        for i in range(k):
            self.c.stock[self.c.h.stock_pos + i] = order[i]
        self._root = None
        self._version += 1

    def _set_greedy_weights(self, weights) -> None:
        """Set this state's greedy card weights (``greedy_scores``, and what ``_ismcts``
        counts as captured): one float per card id of the deck. A search sets them on its
        own determinizations (ISMCTSPlayer's ``race``)."""
        cdef int i, n = self.c.p.nids
        ws = [float(x) for x in weights]
        if len(ws) != n:
            raise ValueError(f"one weight per card id ({n}) is needed, not {len(ws)}")
        for i in range(NCARDS):
            self.c.p.gw[i] = ws[i] if i < n else 0.0

    def _greedy_group_limit(self, limit) -> int:
        """Set the number of sum groups past which this state's greedy scores are the
        reference's (tests lower it to reach that path in ordinary hands); returns the
        previous limit."""
        cdef int old = self.c.p.gr_limit
        if isinstance(limit, bool) or not isinstance(limit, int) or not 0 <= limit <= GR_MAX_GROUPS:
            raise ValueError(f"the group limit is from 0 to {GR_MAX_GROUPS}, not {limit!r}")
        self.c.p.gr_limit = limit
        return old

    cdef object _view(self):
        from cassino.players import View
        return View.of(self, self.c.h.to_move)

    cdef object _reference_greedy(self):
        """The reference greedy player with this state's greedy weights: the system's, or
        those of ``_set_greedy_weights``."""
        from cassino.greedy import FixedWeightsGreedy, GreedyPlayer, card_weights
        cdef int i
        ws = tuple([self.c.p.gw[i] for i in range(self.c.p.nids)])
        if ws == card_weights(self._rules):
            return GreedyPlayer()
        return FixedWeightsGreedy(ws)

    def play_hand(self, policies, rng_states) -> tuple:
        """Play the hand to its end with built-in players, in C with the GIL released:
        ``policies[seat]`` is ``"random"`` (``RandomPlayer``), ``"greedy"``
        (``GreedyPlayer``) or ``"expert"`` (``ExpertPlayer(worlds=0, nodes=0)``: the greedy
        choice with the expert's weights, a majority's dropped once won), and
        ``rng_states[seat]`` the state of that player's :class:`~cassino.Rng`. Every move is pushed (``history`` and ``pop`` work as after
        ``push``). Returns ``(moves played, the players' new RNG states)``: the same
        moves as those players choosing from each seat's view, RNG draw for RNG draw.
        """
        cdef uint8_t pol[MAX_SEATS]
        cdef Rng64 rngs[MAX_SEATS]
        cdef int s, n, k, played = 0
        cdef int nplayers = self.c.p.players
        cdef size_t room
        cdef double ws0[NCARDS]      # the expert's base weights: the system's
        cdef double gw[NCARDS]       # this state's greedy weights, restored after
        cdef bint experts = 0, changed = 0
        if len(policies) != nplayers or len(rng_states) != nplayers:
            raise ValueError(f"one policy and one RNG state per seat ({nplayers}) are needed")
        for s in range(nplayers):
            if policies[s] == "random":
                pol[s] = POL_RANDOM
            elif policies[s] == "greedy":
                pol[s] = POL_GREEDY
            elif policies[s] == "expert":
                pol[s] = POL_EXPERT
                experts = 1
            else:
                raise ValueError(
                    f"policy must be 'random', 'greedy' or 'expert', not {policies[s]!r}")
            x = rng_states[s]
            if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < 2 ** 64:
                raise ValueError(f"an RNG state is an integer from 0 to 2**64 - 1, not {x!r}")
            rngs[s].state = <uint64_t>x
        if experts:
            from cassino.greedy import card_weights
            for k, x in enumerate(card_weights(self._rules)):
                ws0[k] = x
            memcpy(gw, self.c.p.gw, sizeof(gw))
        try:
            while not hand_over(&self.c):
                # room for the rest of the hand: a move plays a card, or plucks or passes
                room = self._depth + 3 * (<size_t>self.c.p.nids) + 8
                self._reserve(room)
                with nogil:
                    while not hand_over(&self.c) and self._depth < room:
                        n = gen_moves(&self.c, &self._buf)
                        if n <= 0:
                            break
                        s = self.c.h.to_move
                        if pol[s] == POL_EXPERT:
                            expert_weights(&self.c, ws0)
                            changed = 1
                        elif changed:
                            memcpy(self.c.p.gw, gw, sizeof(gw))
                            changed = 0
                        if pol[s] == POL_GREEDY or pol[s] == POL_EXPERT:
                            k = greedy_choose(&self.c, &self._buf, n, &rngs[s])
                            if k < 0:
                                break
                        else:
                            k = <int>rng_below(&rngs[s], <uint64_t>n)
                        memcpy(&self._stack[self._depth], &self.c.h, sizeof(Hot))
                        self._hist[self._depth] = self._buf.moves[k]
                        self._depth += 1
                        apply_move(&self.c, &self._buf.moves[k])
                        played += 1
                self._version += 1
                if hand_over(&self.c) or self._depth >= room:
                    continue
                n = self._generate(DEFAULT_LIST_LIMIT)   # (raises MoveLimitError past the limit)
                if n <= 0:
                    raise RuntimeError("a position of an unfinished hand has no legal move")
                # a greedy choice whose sum groups are past the C limit: the reference chooses
                s = self.c.h.to_move
                if pol[s] == POL_EXPERT:
                    from cassino.expert import ExpertPlayer
                    player = ExpertPlayer(worlds=0, nodes=0, infer=0)
                else:
                    player = self._reference_greedy()
                player._rng.state = rngs[s].state
                move = player.choose(self._view(), self.legal_moves())
                rngs[s].state = player._rng.state
                self.push(move)
                played += 1
        finally:
            if changed:
                memcpy(self.c.p.gw, gw, sizeof(gw))
        return played, [rngs[s].state for s in range(nplayers)]


CORE_BYTES = sizeof(Core)
HOT_BYTES = sizeof(Hot)

cdef tuple pile_tuple(Core* c, int t):
    """Team t's capture pile, bottom to top (pile_access=steal_pile: bundle_order)."""
    cdef int i
    cdef mask_t m
    if not c.p.steal:
        return tuple(c.piles[t][i] for i in range(c.h.pile_len[t])
                     if c.h.ngone == 0 or not slot_gone(c, t, i))
    m = c.h.bundles[t] & ~((<mask_t>1) << c.h.tops[t])
    if not c.h.bundles[t]:
        return ()
    out = []
    while m:
        out.append(cas_ctz(m))
        m &= m - 1
    out.append(c.h.tops[t])
    return tuple(out)

cdef object _new_object = object.__new__
# indexed by kind number (5 and 6 are reserved and unused)
cdef tuple _KIND_MEMBERS = tuple(MoveKind(k) if k in set(MoveKind) else None
                                 for k in range(max(MoveKind) + 1))

cdef tuple PHASE_NAMES = ("start", "plucked", "after", "prial", "release")


cdef object _to_move(CMove* m):
    # a Move from the move generator is valid by construction: fill its fields directly
    # instead of running the checks of Move.__init__ (4x faster)
    mv = _new_object(Move)
    d = mv.__dict__
    d["card"] = m.card
    d["kind"] = _KIND_MEMBERS[m.kind]
    d["takes"] = mask_int(m.takes)
    d["value"] = m.value
    return mv


def _unpickle(root, moves) -> State:
    cdef State state = State(Position.from_dict(root))
    cdef CMove mv
    for card, kind, takes, value, *fixed in moves:
        mv.card = card
        mv.kind = kind
        mv.takes = takes
        mv.value = value
        mv.alt = alt_of(&state.c.p, fixed[0]) if fixed and fixed[0] else 0
        state._push_c(&mv)
    return state


cdef int play_random_hand(Core* c, Rng64* rng, MoveBuf* buf) noexcept nogil:
    """Play random moves to the end of the hand; returns the number of moves or -1."""
    cdef int n, moves = 0
    while not hand_over(c):
        n = gen_moves(c, buf)
        if n <= 0:
            return -1
        apply_move(c, &buf.moves[rng_below(rng, <uint64_t>n)])
        moves += 1
    return moves


def random_hand(rules, seed, int dealer=0):
    """Deal a hand from ``seed`` and play it out at random with the same RNG.

    Returns the points per team and the number of moves; identical to the reference."""
    cdef Rng64 rng
    cdef uint8_t deck[NCARDS]
    cdef Core core
    cdef MoveBuf buf
    cdef int n, t
    cdef int64_t totals[MAX_SEATS]
    if rules.compound:
        return compound_random_hand(rules, seed, dealer)
    if rules.num_ids > NCARDS:
        return _w_random_hand(rules, seed, dealer)
    if not 0 <= dealer < rules.players:
        raise ValueError(f"dealer must be a seat from 0 to {rules.players - 1}")
    memset(&core, 0, sizeof(Core))
    load_params(&core.p, rules, dealer)
    rng.state = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
    buf.moves = NULL
    buf.n = 0
    buf.cap = 0
    buf.limit = DEFAULT_LIST_LIMIT
    buf.overflow = 0
    with nogil:
        shuffle_deck(&rng, deck, core.p.nids)
        init_hand(&core, deck, deck_filter(&core.p, deck, core.p.nids), dealer)
        n = play_random_hand(&core, &rng, &buf)
        score_totals(&core, totals)
    free(buf.moves)
    if n < 0:
        raise MoveLimitError("a random hand reached a position with too many moves")
    return [int(totals[t]) for t in range(core.p.nteams)], n
