# The core's turn generator for compound turns (African Cassino, the Italian house variant:
# docs/rules.md §3.22-§3.25, docs/architecture.md §9.4). The same search as the reference's
# cassino.reference.compound, over C structs: a turn state is a TState (the mover's hand, the
# loose cards, the builds as card masks sorted by mask, how deep each opposing pile is taken,
# the capture, the claims of AMB-64 and the turn's flags), every state reached once (a hash
# set of the structs' bytes), and the turns are the distinct end tables (a second hash set).
# Cards are local ids: the 52-card ids as they are, the Italian ids 150-189 as 0-39, so a
# card's rank is id // 4 + 1 in both decks and only the Ace's second value differs (14, 11).
# The capture's cards lie under the capturing card in one order (ascending ids): a turn that
# captures k cards besides it stands for k! turns (AMB-62's default) or k (its option), a
# factor the counter applies, as the reference's count_turns does.
#
# Not in the wide copy (scripts/gen_wide.py): the compound systems use 52 or 40 card ids.

from libc.string cimport memcmp
from math import factorial

cdef enum:
    TG_MAXB = 16        # builds on a turn's table (distinct values but for one, 1..14)
    TG_TEAMS = 4
    TG_MEMO = 1 << 16   # part_max's memo slots (cleared when half full)
    TG_GROUPS = 256     # build_sets: the groups of a value it collects (else every subset)
    TG_UNIONS = 4096    # build_sets: the unions of disjoint groups it collects
    TG_UCACHE = 1 << 14     # sets_at's memo slots (cleared when half full)
    TG_TARGETS = 8      # c_insist: the capture and the augmented builds
    TG_CAPTURE = 62     # build_sets' card for a capture's loose cards
    TG_EXTS = 512       # c_insist: the maximal extensions it collects
    TG_EXT_NODES = 100000   # c_insist: the steps of its search

cdef struct TBuild:
    uint64_t cards
    int8_t value
    int8_t owner
    int8_t frozen
    int8_t creator
    uint8_t made        # made, increased or augmented by the mover this turn (his to hold)
    uint8_t owed        # an F3 build: the turn's capture must take it
    uint8_t pad0
    uint8_t pad1

cdef struct TState:
    uint64_t hand       # the mover's hand
    uint64_t loose
    uint64_t capt       # the cards the capture put under the capturing card
    uint64_t claims     # AMB-64's claims: bit seat * 16 + value
    int8_t capcard      # the capturing card, -1 for none
    uint8_t depth[TG_TEAMS]     # cards taken from the top of each team's pile
    uint8_t played
    uint8_t captured
    uint8_t trailed
    uint8_t pile_cards
    uint8_t free_steps
    uint8_t created
    uint8_t nb
    int8_t capval       # the value the capture took (not part of an end table's key)
    uint8_t pad[3]
    TBuild b[TG_MAXB]

cdef struct TStep:
    # how a state was reached (listing, :meth:`_TurnGen.list_state`): the step from its
    # parent, as the reference's cassino.reference.compound.Step
    int64_t parent
    uint64_t loose      # the loose cards used (``who`` apart)
    uint32_t bidx       # the parent's builds: the target (augment, increase), those taken
    int8_t kind         # 0 create, 1 augment, 2 capture, 3 build, 4 increase, 5 trail
    int8_t card         # the hand card, -1 for none
    int8_t value
    int8_t owner        # the seat a build is made for (AMB-64), -1 for the mover
    int8_t who          # an augmented single loose card (AMB-70), -1 for none
    uint8_t pilen[TG_TEAMS]     # cards taken from the top of each pile

cdef enum:
    TG_KEY = 256        # a step key's int16 words (step_key, encoded)

cdef struct TSucc:
    TState state
    TStep step
    int16_t key[TG_KEY]

cdef struct TCtx:
    # what a search depends on besides its start state: the mover, the hands and the piles
    int mover
    uint64_t hands[TG_TEAMS]
    int8_t piles[TG_TEAMS][64]
    int plen[TG_TEAMS]


cdef struct TSet:
    # the states of a search, each stored once, only up to its last build (a state of few
    # builds takes a fraction of a TState): ``offs`` gives each item's place in ``arena``
    char* arena
    int64_t used        # arena bytes in use
    int64_t acap
    int64_t* offs
    int64_t n
    int64_t cap
    int64_t* slots      # indices into offs, -1 empty
    int64_t nslots


cdef inline size_t _ts_size(const TState* s) noexcept nogil:
    """The bytes of ``s`` up to its last build (what a TSet stores, hashes and compares)."""
    return <size_t>(<const char*>&s.b[s.nb] - <const char*>s)


cdef inline uint64_t _ts_hash(const TState* s) noexcept nogil:
    cdef const uint64_t* w = <const uint64_t*>s
    cdef uint64_t h = 0x9E3779B97F4A7C15ULL
    cdef int k
    cdef int words = <int>(_ts_size(s) // 8)
    for k in range(words):
        h = (h ^ w[k]) * 0xBF58476D1CE4E5B9ULL
        h ^= h >> 31
    return h


cdef inline TState* _tset_at(const TSet* t, int64_t i) noexcept nogil:
    """Item ``i`` of ``t``: its builds past ``nb`` are not there (copy it whole with
    :func:`_tset_load`). A pointer is good until the next add."""
    return <TState*>(t.arena + t.offs[i])


cdef inline void _tset_load(const TSet* t, int64_t i, TState* out) noexcept nogil:
    """Item ``i`` of ``t`` into the whole state ``out`` (the builds past ``nb`` zero)."""
    cdef const TState* s = _tset_at(t, i)
    cdef size_t n = _ts_size(s)
    memcpy(out, s, n)
    memset(<char*>out + n, 0, sizeof(TState) - n)


cdef inline void _end_key(TState* s) noexcept nogil:
    """Make the finished turn state ``s`` the key of its end table: the turn's flags (steps
    played, capture, trail, pile cards, free steps, creates, the capture's value) and each
    build's ``made``/``owed`` zeroed, so that two step sequences reaching one table meet."""
    cdef int i
    s.played = s.captured = s.trailed = 0
    s.pile_cards = s.free_steps = s.created = 0
    s.capval = 0
    for i in range(s.nb):
        s.b[i].made = 0
        s.b[i].owed = 0


cdef int _tset_init(TSet* t) except -1 nogil:
    t.n = 0
    t.cap = 256
    t.used = 0
    t.acap = 256 * 96
    t.nslots = 1024
    t.arena = <char*>malloc(t.acap)
    t.offs = <int64_t*>malloc(t.cap * sizeof(int64_t))
    t.slots = <int64_t*>malloc(t.nslots * sizeof(int64_t))
    if t.arena == NULL or t.offs == NULL or t.slots == NULL:
        with gil:
            raise MemoryError()
    memset(t.slots, 0xFF, t.nslots * sizeof(int64_t))
    return 0


cdef int _tset_reset(TSet* t) except -1 nogil:
    """Empty ``t`` (its memory kept unless large)."""
    if t.arena == NULL or t.nslots > 4096:
        _tset_free(t)
        return _tset_init(t)
    t.n = 0
    t.used = 0
    memset(t.slots, 0xFF, t.nslots * sizeof(int64_t))
    return 0


cdef void _tset_free(TSet* t) noexcept nogil:
    free(t.arena)
    free(t.offs)
    free(t.slots)
    t.arena = NULL
    t.offs = NULL
    t.slots = NULL


cdef int _tset_add(TSet* t, const TState* s) except -1 nogil:
    """Add ``s``; 1 if it was new, 0 if already there."""
    cdef int64_t at
    return _tset_add_at(t, s, &at)


cdef int _tset_add_at(TSet* t, const TState* s, int64_t* at) except -1 nogil:
    """Add ``s`` (not an item of ``t``: adding may move them); 1 if it was new, 0 if
    already there; its index into ``at``."""
    cdef uint64_t h = _ts_hash(s)
    cdef int64_t mask = t.nslots - 1
    cdef int64_t i = <int64_t>(h & <uint64_t>mask)
    cdef int64_t j, k
    cdef size_t size = _ts_size(s)
    cdef int64_t* slots
    cdef int64_t* offs
    cdef char* arena
    cdef const TState* x
    while t.slots[i] >= 0:
        x = _tset_at(t, t.slots[i])
        if x.nb == s.nb and memcmp(x, s, size) == 0:
            at[0] = t.slots[i]
            return 0
        i = (i + 1) & mask
    if t.n == t.cap:
        offs = <int64_t*>realloc(t.offs, 2 * t.cap * sizeof(int64_t))
        if offs == NULL:
            with gil:
                raise MemoryError()
        t.offs = offs
        t.cap *= 2
    if t.used + <int64_t>size > t.acap:
        arena = <char*>realloc(t.arena, 2 * t.acap + <int64_t>size)
        if arena == NULL:
            with gil:
                raise MemoryError()
        t.arena = arena
        t.acap = 2 * t.acap + <int64_t>size
    memcpy(t.arena + t.used, s, size)
    t.offs[t.n] = t.used
    t.used += <int64_t>size
    t.slots[i] = t.n
    at[0] = t.n
    t.n += 1
    if 2 * t.n > t.nslots:                       # (grow: rehash every item)
        slots = <int64_t*>malloc(2 * t.nslots * sizeof(int64_t))
        if slots == NULL:
            with gil:
                raise MemoryError()
        free(t.slots)
        t.slots = slots
        t.nslots *= 2
        memset(t.slots, 0xFF, t.nslots * sizeof(int64_t))
        mask = t.nslots - 1
        for k in range(t.n):
            j = <int64_t>(_ts_hash(_tset_at(t, k)) & <uint64_t>mask)
            while t.slots[j] >= 0:
                j = (j + 1) & mask
            t.slots[j] = k
    return 1


cdef inline int _tg_rank(int c) noexcept nogil:
    return c // 4 + 1


cdef void _tg_sort_u64(uint64_t* a, int n) noexcept nogil:
    """Sort ``a`` ascending (a Shell sort, Ciura's gaps: the unions of a value are few)."""
    cdef int gaps[8]
    cdef int g, gap, i, j
    cdef uint64_t x
    gaps[:] = [701, 301, 132, 57, 23, 10, 4, 1]
    for g in range(8):
        gap = gaps[g]
        for i in range(gap, n):
            x = a[i]
            j = i
            while j >= gap and a[j - gap] > x:
                a[j] = a[j - gap]
                j -= gap
            a[j] = x


ctypedef int (*tg_cmp_t)(const void* ctx, int64_t x, int64_t y) noexcept nogil


cdef int _tg_sort(int64_t* a, int64_t n, tg_cmp_t cmp, const void* ctx) except -1 nogil:
    """Sort the indices ``a`` by ``cmp`` over ``ctx``: a stable merge sort, its context
    passed along (qsort would need it in a global)."""
    cdef int64_t* tmp
    cdef int64_t* src = a
    cdef int64_t* dst
    cdef int64_t* t
    cdef int64_t width = 1, lo, mid, hi, i, j, k
    if n < 2:
        return 0
    tmp = <int64_t*>malloc(n * sizeof(int64_t))
    if tmp == NULL:
        with gil:
            raise MemoryError()
    dst = tmp
    while width < n:
        lo = 0
        while lo < n:
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i = lo
            j = mid
            k = lo
            while i < mid and j < hi:
                if cmp(ctx, src[j], src[i]) < 0:
                    dst[k] = src[j]
                    j += 1
                else:
                    dst[k] = src[i]
                    i += 1
                k += 1
            while i < mid:
                dst[k] = src[i]
                i += 1
                k += 1
            while j < hi:
                dst[k] = src[j]
                j += 1
                k += 1
            lo += 2 * width
        t = src
        src = dst
        dst = t
        width *= 2
    if src != a:
        memcpy(a, src, n * sizeof(int64_t))
    free(tmp)
    return 0

# the values 2..31 that divide each total (bit v of _TG_DIVISORS[t]), t < 1024 (52 cards of
# at most 14 make 728)
cdef uint32_t _TG_DIVISORS[1024]
for _t in range(1024):
    _TG_DIVISORS[_t] = 0
    for _v in range(2, 32):
        if _t and _t % _v == 0:
            _TG_DIVISORS[_t] |= (<uint32_t>1) << _v


cdef int _tg_cmp(const void* ctx, int64_t pa, int64_t pb) noexcept nogil:
    """The canonical order of end tables: the mover's hand, the loose cards, the capture (its
    cards, then the capturing card), the claims, the depths taken of the piles, then the
    builds (how many, then each by cards, value, owner, frozen, creator). The reference's
    ``canonical_key`` (cassino.reference.african) is the same order."""
    cdef const TState* x = _tset_at(<const TSet*>ctx, pa)
    cdef const TState* y = _tset_at(<const TSet*>ctx, pb)
    cdef int i, t
    if x.hand != y.hand:
        return -1 if x.hand < y.hand else 1
    if x.loose != y.loose:
        return -1 if x.loose < y.loose else 1
    if x.capt != y.capt:
        return -1 if x.capt < y.capt else 1
    if x.capcard != y.capcard:
        return -1 if x.capcard < y.capcard else 1
    if x.claims != y.claims:
        return -1 if x.claims < y.claims else 1
    for t in range(TG_TEAMS):
        if x.depth[t] != y.depth[t]:
            return -1 if x.depth[t] < y.depth[t] else 1
    if x.nb != y.nb:
        return -1 if x.nb < y.nb else 1
    for i in range(x.nb):
        if x.b[i].cards != y.b[i].cards:
            return -1 if x.b[i].cards < y.b[i].cards else 1
        if x.b[i].value != y.b[i].value:
            return -1 if x.b[i].value < y.b[i].value else 1
        if x.b[i].owner != y.b[i].owner:
            return -1 if x.b[i].owner < y.b[i].owner else 1
        if x.b[i].frozen != y.b[i].frozen:
            return -1 if x.b[i].frozen < y.b[i].frozen else 1
        if x.b[i].creator != y.b[i].creator:
            return -1 if x.b[i].creator < y.b[i].creator else 1
    return 0


cdef int _tg_succ_cmp(const void* ctx, int64_t pa, int64_t pb) noexcept nogil:
    """Successors by step key (the reference's ``_step_key``)."""
    cdef const int16_t* x = (<const TSucc*>ctx)[pa].key
    cdef const int16_t* y = (<const TSucc*>ctx)[pb].key
    cdef int i
    for i in range(TG_KEY):
        if x[i] != y[i]:
            return -1 if x[i] < y[i] else 1
    return 0


from operator import attrgetter as _attrgetter

# the order of a table's builds that sorting the Build objects gives (its fields in order:
# value, then cards, which differ between two builds of a table), without comparing them
_build_order = _attrgetter("value", "cards")


cdef enum:
    _CG_GROUPS = 1024   # greedy_turn_scores: the groups of a value it collects (else Python)
    _CG_MEMO = 2048     # _cg_pack's memo slots
    _CG_MEMO_FROM = 8   # _cg_pack: the groups from which it keeps a memo


cdef inline double _cg_weight(const double* w, uint64_t m) noexcept nogil:
    """greedy._weight over local card ids, lowest first."""
    cdef double x = 0.0
    while m:
        x += w[cas_ctz64(m)]
        m &= m - 1
    return x


cdef struct _CGMemo:
    uint64_t keys[_CG_MEMO]
    double vals[_CG_MEMO]
    uint8_t used[_CG_MEMO]
    int n


cdef double _cg_pack(const double* w, uint64_t mask, const uint64_t* groups,
                     int ng) noexcept nogil:
    """greedy._best_packing over local ids: the best weight of disjoint groups of
    ``mask`` (from ``_CG_MEMO_FROM`` groups on with a memo by mask: the groups within a
    mask are those of the mask); -1 out of memory."""
    cdef _CGMemo* memo = NULL
    cdef double got
    if ng >= _CG_MEMO_FROM:
        memo = <_CGMemo*>calloc(1, sizeof(_CGMemo))
        if memo == NULL:
            return -1.0
    got = _cg_pack_rec(w, mask, groups, ng, memo)
    free(memo)
    return got


cdef double _cg_pack_rec(const double* w, uint64_t mask, const uint64_t* groups, int ng,
                         _CGMemo* memo) noexcept nogil:
    cdef uint64_t low, g
    cdef uint64_t* rest
    cdef int i, j, k
    cdef size_t slot
    cdef double best, x
    if not mask or ng == 0:
        return 0.0
    if memo != NULL:
        slot = <size_t>(((mask * 0x9E3779B97F4A7C15ULL) >> 53) & (_CG_MEMO - 1))
        while memo.used[slot]:
            if memo.keys[slot] == mask:
                return memo.vals[slot]
            slot = (slot + 1) & (_CG_MEMO - 1)
    rest = <uint64_t*>malloc(ng * sizeof(uint64_t))
    if rest == NULL:
        return -1.0
    low = mask & (~mask + 1)
    k = 0
    for i in range(ng):
        if not (groups[i] & low):
            rest[k] = groups[i]
            k += 1
    best = _cg_pack_rec(w, mask ^ low, rest, k, memo)
    for i in range(ng):
        if best < 0:
            break
        g = groups[i]
        if g & low:
            k = 0
            for j in range(ng):
                if not (groups[j] & g):
                    rest[k] = groups[j]
                    k += 1
            x = _cg_pack_rec(w, mask & ~g, rest, k, memo)
            if x < 0:
                best = -1.0
                break
            x = _cg_weight(w, g) + x
            if x > best:
                best = x
    free(rest)
    if memo != NULL and best >= 0 and 2 * memo.n < _CG_MEMO:
        # (a new slot: the recursion may have filled the one found above)
        slot = <size_t>(((mask * 0x9E3779B97F4A7C15ULL) >> 53) & (_CG_MEMO - 1))
        while memo.used[slot] and memo.keys[slot] != mask:
            slot = (slot + 1) & (_CG_MEMO - 1)
        if not memo.used[slot]:
            memo.used[slot] = 1
            memo.keys[slot] = mask
            memo.vals[slot] = best
            memo.n += 1
    return best


cdef class _TurnGen:
    """The core's compound-turn generator for one rule set (see the comment at the top of
    core/compound.pxi); :meth:`ends` and :meth:`count` take a
    :class:`cassino.reference.compound.Table`."""

    cdef int players, nteams, maxv, acehi, offset
    cdef int team[TG_TEAMS]
    cdef bint partnership, two_player, full_orders, trail_any, single_aug, inc_partner
    cdef bint partner_owns, create_turn, inc_creator
    cdef int pile_limit, free_limit
    # a call's context
    cdef int mover, myteam
    cdef uint64_t hands[TG_TEAMS]
    cdef int8_t piles[TG_TEAMS][64]
    cdef int plen[TG_TEAMS]
    cdef TSet seen
    cdef TSet found
    cdef int64_t* stack
    cdef int64_t nstack, capstack
    cdef bint overflow
    cdef uint64_t* memo_keys
    cdef int8_t* memo_vals
    cdef int64_t memo_n
    cdef int64_t by_k[64]
    cdef int8_t* fcap           # a found turn's capture value, -2 when two sequences differ
    cdef int64_t fcap_n
    cdef int64_t* order         # the found turns in canonical order (sort_found)
    cdef public object rules
    # the last search's start (search() reuses its result)
    cdef TState last
    cdef TCtx last_ctx                  # the context (mover, hands, piles) of ``last``
    cdef bint cached
    # listing (list_search): successors with their steps, the steps of the states seen
    cdef bint listing
    cdef TStep pend
    cdef const TState* cur
    cdef TSucc* succ
    cdef int64_t nsucc, capsucc
    cdef TStep* steps
    cdef int64_t capsteps
    cdef int64_t* via           # found turn -> the state that ends it
    cdef uint64_t grp[TG_GROUPS]    # build_sets, c_insist: groups of a value (loose cards)
    cdef uint64_t cgrp[TG_GROUPS]   # build_sets: the groups holding the hand card
    cdef uint64_t uni[TG_UNIONS]    # build_sets: their unions
    cdef int ngrp, ncgrp, nuni
    cdef int lim_groups, lim_unions     # (TG_GROUPS, TG_UNIONS; lower in tests: _limits)
    cdef bint wide_draws                # c_turn draws as past 64 bits (tests: _limits)
    cdef bint insist_rules              # capture_extent=opponent_insist (AMB-68)
    cdef int turn_v                     # c_turn: the value of the turn's capture
    cdef int ntgt, next, ext_nodes      # c_insist: its targets, extensions and steps
    cdef int lim_ext_nodes              # (TG_EXT_NODES; lower in tests: _limits)
    cdef int tval[TG_TARGETS]
    cdef int tkey[TG_TARGETS]
    cdef int8_t grp_t[TG_GROUPS]
    cdef uint64_t ext[TG_EXTS * TG_TARGETS]
    cdef uint64_t* uc_keys      # sets_at's memo: (loose, card, value) -> its build sets
    cdef int64_t* uc_at         # where in uc_pool (-1: too many, every subset instead)
    cdef int32_t* uc_n
    cdef int64_t uc_used
    cdef uint64_t* uc_pool
    cdef int64_t uc_len, uc_cap
    cdef int64_t capvia
    # the step interface (CompoundState's builder, parsing): probe() and what it knows
    cdef bint collecting                # emit: successors into coll (probe's stages)
    cdef TState* coll
    cdef int64_t ncoll, capcoll
    cdef TSet pmemo                     # probe's states, their answers in pres
    cdef int8_t* pres
    cdef int64_t capres
    cdef bint pm_valid                  # pmemo's context (the mover, hands and piles)
    cdef TCtx pm_ctx
    cdef bint maximal                   # capture_extent=maximal: a turn that can take more goes
    cdef bint max_applied               # the last search's turns are filtered so
    cdef bint listed                    # the found turns are list_search's (``via`` kept)
    cdef bint scored                    # found is the listing of ``sstart`` (``listed_of``)
    cdef object wide_order              # c_turn past 64 bits: the captured cards' order
    cdef int lim_cg                     # value_groups' limit (_CG_GROUPS; lower in tests)
    cdef TState sstart
    cdef TCtx sctx
    cdef int8_t* fdrop                  # a found turn filtered out
    cdef int64_t capdrop
    cdef int64_t norder                 # the turns in ``order`` (sort_found)
    cdef bint keep_dead                 # step_successors: the dead states too (their rule named)
    cdef bint targeting                 # list_search: only states that can end at target
    cdef TState target

    def __cinit__(self, *args, **kwargs):
        self.memo_keys = <uint64_t*>calloc(TG_MEMO, sizeof(uint64_t))
        self.memo_vals = <int8_t*>calloc(TG_MEMO, sizeof(int8_t))
        self.uc_keys = <uint64_t*>calloc(TG_UCACHE, sizeof(uint64_t))
        self.uc_at = <int64_t*>calloc(TG_UCACHE, sizeof(int64_t))
        self.uc_n = <int32_t*>calloc(TG_UCACHE, sizeof(int32_t))
        self.uc_pool = NULL
        self.uc_used = self.uc_len = self.uc_cap = 0
        self.lim_groups = TG_GROUPS
        self.lim_cg = _CG_GROUPS
        self.lim_unions = TG_UNIONS
        self.wide_draws = False
        self.lim_ext_nodes = TG_EXT_NODES
        if self.uc_keys == NULL or self.uc_at == NULL or self.uc_n == NULL:
            raise MemoryError()
        self.stack = NULL
        self.fcap = NULL
        self.order = NULL
        self.succ = NULL
        self.steps = NULL
        self.via = NULL
        self.nsucc = self.capsucc = self.capsteps = self.capvia = 0
        self.listing = False
        self.collecting = False
        self.targeting = False
        self.keep_dead = False
        self.maximal = self.max_applied = self.listed = False
        self.fdrop = NULL
        self.capdrop = self.norder = 0
        self.pm_valid = False
        self.coll = NULL
        self.ncoll = self.capcoll = 0
        self.pres = NULL
        self.capres = 0
        self.fcap_n = 0
        self.cached = False
        if self.memo_keys == NULL or self.memo_vals == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.uc_keys)
        free(self.uc_at)
        free(self.uc_n)
        free(self.uc_pool)
        free(self.memo_keys)
        free(self.memo_vals)
        free(self.stack)
        free(self.fcap)
        free(self.order)
        free(self.succ)
        free(self.steps)
        free(self.via)
        free(self.coll)
        free(self.pres)
        free(self.fdrop)
        _tset_free(&self.pmemo)
        _tset_free(&self.seen)
        _tset_free(&self.found)

    def __init__(self, rules):
        from cassino.reference.african import compound_rules
        if not rules.compound:
            raise RulesError(f"{rules.system} has no compound turns")
        cr = compound_rules(rules)
        self.rules = rules
        self.players = cr.players
        self.nteams = 0
        for s in range(cr.players):
            self.team[s] = cr.team(s)
            self.nteams = max(self.nteams, self.team[s] + 1)
        self.partnership = bool(cr.teams)
        self.two_player = cr.two_player
        self.full_orders = cr.pile_order == "full"
        self.maxv = cr.max_value
        self.acehi = 11 if "italian" in rules.mechanics else 14
        self.offset = 150 if "italian" in rules.mechanics else 0
        self.trail_any = cr.trail == "any"
        self.single_aug = cr.single_card_augment
        self.inc_partner = cr.increase_partner
        self.partner_owns = cr.partner_claims == "partner_owns"
        self.create_turn = cr.table_create_replaces_card
        self.inc_creator = cr.increase_creator
        self.pile_limit = cr.pile_cards_per_turn
        self.free_limit = cr.free_steps_per_turn
        self.insist_rules = rules.capture_extent == "opponent_insist"
        self.maximal = rules.capture_extent == "maximal"

    # -- values
    cdef inline bint sums_to(self, uint64_t g, int v) noexcept nogil:
        """Whether the cards of ``g`` can total ``v`` (each Ace 1 or its high value)."""
        cdef int n = 0, a = 0, r
        while g:
            r = _tg_rank(cas_ctz64(g))
            if r == 1:
                a += 1
            else:
                n += r
            g &= g - 1
        return self.fits(n, a, v)

    cdef inline bint fits(self, int n, int a, int v) noexcept nogil:
        """Whether cards of ranks totalling ``n`` (Aces apart) and ``a`` Aces can total
        ``v``, each Ace 1 or its high value."""
        cdef int d = v - n - a
        if d < 0:
            return False
        if d == 0:
            return True
        return a > 0 and d % (self.acehi - 1) == 0 and d // (self.acehi - 1) <= a

    cdef inline bint aces_make(self, uint64_t g, int d) noexcept nogil:
        """Whether the Aces of ``g``, each 1 or its high value, make up ``d`` more than
        the group's total with every Ace at 1 (:meth:`fits` with ``d`` known)."""
        cdef int a = cas_popcount64(g & 0xF)
        return d > 0 and a > 0 and d % (self.acehi - 1) == 0 and d // (self.acehi - 1) <= a

    cdef inline uint32_t valmask(self, uint64_t hand) noexcept nogil:
        """The values the cards of ``hand`` have (bit v)."""
        cdef uint32_t out = 0
        cdef int r
        while hand:
            r = _tg_rank(cas_ctz64(hand))
            out |= (<uint32_t>1) << r
            if r == 1:
                out |= (<uint32_t>1) << self.acehi
            hand &= hand - 1
        return out

    cdef int part_max(self, uint64_t cards, int v) noexcept nogil:
        """The most groups totalling ``v`` into which ``cards`` split, -1 for none."""
        if cards == 0:
            return 0
        cdef uint64_t key = (cards << 4) | <uint64_t>v
        cdef uint64_t i = (key * 0x9E3779B97F4A7C15ULL) >> 48
        while self.memo_keys[i]:
            if self.memo_keys[i] == key:
                return self.memo_vals[i]
            i = (i + 1) & (TG_MEMO - 1)
        cdef uint64_t low = cards & (~cards + 1)
        cdef int best = self._part_groups(cards, v, cards ^ low, low,
                                          v - _tg_rank(cas_ctz64(low)))
        if 2 * self.memo_n > TG_MEMO:
            memset(self.memo_keys, 0, TG_MEMO * sizeof(uint64_t))
            self.memo_n = 0
            i = (key * 0x9E3779B97F4A7C15ULL) >> 48
        while self.memo_keys[i]:
            i = (i + 1) & (TG_MEMO - 1)
        self.memo_keys[i] = key
        self.memo_vals[i] = <int8_t>best
        self.memo_n += 1
        return best

    cdef int _part_groups(self, uint64_t cards, int v, uint64_t rest, uint64_t group,
                          int room) noexcept nogil:
        """The best of part_max over the groups holding ``group`` and more of ``rest``."""
        cdef int best = -1, r, c
        cdef uint64_t more
        if self.sums_to(group, v):
            r = self.part_max(cards ^ group, v)
            if r >= 0:
                best = r + 1
        while rest:
            c = cas_ctz64(rest)
            rest &= rest - 1
            if _tg_rank(c) <= room:
                r = self._part_groups(cards, v, rest, group | ((<uint64_t>1) << c),
                                      room - _tg_rank(c))
                if r > best:
                    best = r
        return best

    cdef bint has_group(self, uint64_t pool, uint64_t group, int v, int room) noexcept nogil:
        """Whether ``group`` and more cards of ``pool`` total ``v``."""
        cdef int c
        if group and self.sums_to(group, v):
            return True
        while pool:
            c = cas_ctz64(pool)
            pool &= pool - 1
            if _tg_rank(c) <= room and self.has_group(
                    pool, group | ((<uint64_t>1) << c), v, room - _tg_rank(c)):
                return True
        return False

    # -- who is who
    cdef inline bint ours(self, int seat) noexcept nogil:
        return self.team[seat] == self.myteam

    cdef int partner_claim(self, const TState* s, int v) noexcept nogil:
        """The partner for whom a build of ``v`` may be made (AMB-64), or -1."""
        cdef int seat
        if not s.claims:
            return -1
        for seat in range(self.players):
            if (s.claims >> (seat * 16 + v)) & 1 and seat != self.mover and self.ours(seat) \
                    and (self.valmask(self.hands[seat]) >> v) & 1:
                return seat
        return -1

    cdef inline int creator(self) noexcept nogil:
        return self.mover if self.inc_creator else -1

    # -- builds of a state, sorted by card mask
    cdef int add_build(self, TState* s, uint64_t cards, int value, int owner, int frozen,
                       int creator, int made, int owed) noexcept nogil:
        cdef int i = s.nb
        if s.nb >= TG_MAXB:
            self.overflow = True
            return -1
        while i > 0 and s.b[i - 1].cards > cards:
            s.b[i] = s.b[i - 1]
            i -= 1
        s.b[i].cards = cards
        s.b[i].value = value
        s.b[i].owner = owner
        s.b[i].frozen = frozen
        s.b[i].creator = creator
        s.b[i].made = made
        s.b[i].owed = owed
        s.b[i].pad0 = 0
        s.b[i].pad1 = 0
        s.nb += 1
        return 0

    cdef void del_build(self, TState* s, int i) noexcept nogil:
        while i + 1 < s.nb:
            s.b[i] = s.b[i + 1]
            i += 1
        s.nb -= 1
        memset(&s.b[s.nb], 0, sizeof(TBuild))

    # -- the search
    cdef bint dead(self, const TState* s) noexcept nogil:
        """Whether no legal turn continues ``s`` (the reference's _Search.dead)."""
        cdef uint32_t seen = 0, twice = 0, owed = 0, held, own = 0
        cdef int i, j, nown = 0, ntwice = 0, v, others, same
        for i in range(s.nb):
            v = s.b[i].value
            if (seen >> v) & 1:
                twice |= (<uint32_t>1) << v
            seen |= (<uint32_t>1) << v
            if s.b[i].owed:
                owed |= (<uint32_t>1) << v
        ntwice = cas_popcount64(twice)
        if (s.played and (twice or owed)) or ntwice > 1:
            return True
        if cas_popcount64(owed) > 1:
            return True
        held = self.valmask(s.hand)
        for i in range(s.nb):
            if s.b[i].owner == self.mover or s.b[i].made:
                if not (held >> s.b[i].value) & 1:
                    return True
            if s.b[i].owner == self.mover:
                nown += 1
                own |= (<uint32_t>1) << s.b[i].value
        if self.two_player:
            if s.played:
                return nown > 1
            if nown <= 1:
                return False
            while own:                       # (own builds of one value may still merge)
                v = cas_ctz64(own)
                own &= own - 1
                same = 0
                for j in range(s.nb):
                    if s.b[j].owner == self.mover and s.b[j].value == v:
                        same += 1
                if nown - same <= 1:
                    return False
            return True
        return False

    cdef bint finished(self, const TState* s) noexcept nogil:
        """The end-of-turn invariants (the reference's _Search.finished)."""
        cdef uint32_t seen = 0, mine = 0
        cdef int i, v, nown = 0, aces, needed
        cdef uint64_t hand = s.hand
        for i in range(s.nb):
            if s.b[i].owed:
                return False
        if not s.played and not (self.create_turn and s.created):
            return False
        for i in range(s.nb):
            v = s.b[i].value
            if (seen >> v) & 1:
                return False
            seen |= (<uint32_t>1) << v
            if s.b[i].owner == self.mover or s.b[i].made:
                mine |= (<uint32_t>1) << v
            if s.b[i].owner == self.mover:
                nown += 1
        # the holding invariant, a card a value: only the Aces answer for 1 and the high value
        aces = cas_popcount64(hand & 0xF)
        needed = <int>((mine >> 1) & 1) + <int>((mine >> self.acehi) & 1)
        if needed > aces:
            return False
        for v in range(2, 15):
            if v != self.acehi and (mine >> v) & 1 and not (hand >> ((v - 1) * 4)) & 0xF:
                return False
        if self.two_player and (nown > 1 or (nown and s.trailed)):
            return False
        return True

    cdef void note(self, int kind, int card, int value, uint64_t loose, uint32_t bidx,
                   int owner, int who, const uint8_t* pilen) noexcept nogil:
        """The step of the next :meth:`emit` (read when listing)."""
        self.pend.kind = kind
        self.pend.card = card
        self.pend.value = value
        self.pend.loose = loose
        self.pend.bidx = bidx
        self.pend.owner = owner
        self.pend.who = who
        if pilen != NULL:
            memcpy(self.pend.pilen, pilen, TG_TEAMS)
        else:
            memset(self.pend.pilen, 0, TG_TEAMS)

    cdef int emit(self, TState* n) except -1 nogil:
        """A successor: kept unless dead, and searched if new (listing: kept in ``succ``
        with its step and key, for :meth:`list_search` to sort)."""
        cdef int64_t* grown
        cdef TSucc* more
        cdef TState* kept
        if self.dead(n) and not self.keep_dead:
            return 0
        if self.collecting:
            if self.ncoll == self.capcoll:
                kept = <TState*>realloc(self.coll, 2 * (self.capcoll + 8) * sizeof(TState))
                if kept == NULL:
                    with gil:
                        raise MemoryError()
                self.coll = kept
                self.capcoll = 2 * (self.capcoll + 8)
            self.coll[self.ncoll] = n[0]
            self.ncoll += 1
            return 0
        if self.targeting and not self.compatible(n):
            return 0
        if self.listing:
            if self.nsucc == self.capsucc:
                more = <TSucc*>realloc(self.succ, 2 * (self.capsucc + 8) * sizeof(TSucc))
                if more == NULL:
                    with gil:
                        raise MemoryError()
                self.succ = more
                self.capsucc = 2 * (self.capsucc + 8)
            self.succ[self.nsucc].state = n[0]
            self.succ[self.nsucc].step = self.pend
            self.step_key(self.cur, &self.pend, &n[0], self.succ[self.nsucc].key)
            self.nsucc += 1
            return 0
        if _tset_add(&self.seen, n):
            if self.nstack == self.capstack:
                grown = <int64_t*>realloc(self.stack, 2 * self.capstack * sizeof(int64_t))
                if grown == NULL:
                    with gil:
                        raise MemoryError()
                self.stack = grown
                self.capstack *= 2
            self.stack[self.nstack] = self.seen.n - 1
            self.nstack += 1
        return 0

    cdef bint collect(self, uint64_t pool, uint64_t group, int v, int room,
                      uint64_t* out, int* n) noexcept nogil:
        """``group`` and more cards of ``pool`` totalling ``v``, into ``out``; False when
        more than TG_GROUPS."""
        cdef int c
        if group and self.sums_to(group, v):
            if n[0] == self.lim_groups:
                return False
            out[n[0]] = group
            n[0] += 1
        while pool:
            c = cas_ctz64(pool)
            pool &= pool - 1
            if _tg_rank(c) <= room and not self.collect(
                    pool, group | ((<uint64_t>1) << c), v, room - _tg_rank(c), out, n):
                return False
        return True

    cdef bint unions(self, int i, uint64_t acc) noexcept nogil:
        """Every union of ``acc`` with disjoint groups ``grp[i:]``, into ``uni``; False
        when more than TG_UNIONS."""
        cdef int j
        if self.nuni == self.lim_unions:
            return False
        self.uni[self.nuni] = acc
        self.nuni += 1
        for j in range(i, self.ngrp):
            if not (self.grp[j] & acc) and not self.unions(j + 1, acc | self.grp[j]):
                return False
        return True

    cdef bint build_sets(self, uint64_t loose, int card, int v) noexcept nogil:
        """``uni``: the sets of cards a new build of ``v`` can hold (unions of disjoint
        groups of ``v``: of loose cards, at least two; with the hand card ``card``, it and
        at least one loose card), each once; with ``card`` TG_CAPTURE, the loose cards a
        capture at ``v`` can take (one or more); False when too many to collect."""
        cdef uint64_t cbit = (<uint64_t>1) << card if 0 <= card < TG_CAPTURE else 0
        cdef int i, j, n, least = 2 if card < 0 else 1
        self.ngrp = 0
        self.nuni = 0
        if not self.collect(loose, 0, v, v, self.grp, &self.ngrp):
            return False
        if card < 0 or card == TG_CAPTURE:
            for i in range(self.ngrp):
                if not self.unions(i + 1, self.grp[i]):
                    return False
        else:
            self.ncgrp = 0
            if not self.collect(loose, cbit, v, v - _tg_rank(card), self.cgrp, &self.ncgrp):
                return False
            for i in range(self.ncgrp):
                if not self.unions(0, self.cgrp[i]):
                    return False
        _tg_sort_u64(self.uni, self.nuni)
        n = 0
        for i in range(self.nuni):           # (distinct, with enough loose cards)
            if (i and self.uni[i] == self.uni[i - 1]) or cas_popcount64(
                    self.uni[i] & loose) < least:
                continue
            self.uni[n] = self.uni[i]
            n += 1
        self.nuni = n
        return True

    def _search_size(self):
        """(states reached, turns found) by the last search."""
        return self.seen.n, self.found.n

    def _limits(self, int groups=TG_GROUPS, int unions=TG_UNIONS, bint wide_draws=False,
                int insist_steps=TG_EXT_NODES, int score_groups=_CG_GROUPS):
        """How many groups of a value and unions of them :meth:`build_sets` collects before
        creates and captures try every subset of the loose cards instead, whether :meth:`c_turn` draws every
        turn as it does past 64 bits, how many steps :meth:`c_insist`'s search takes
        before it leaves the hand to the reference, and how many groups of a value
        :meth:`greedy_turn_scores` packs before it leaves the scores to the reference
        (tests take these paths with them)."""
        if not (0 <= groups <= TG_GROUPS and 0 <= unions <= TG_UNIONS and insist_steps >= 0
                and 0 <= score_groups <= _CG_GROUPS):
            raise ValueError(f"limits from 0 to {TG_GROUPS} groups and {TG_UNIONS} unions, "
                             f"insist steps from 0 and score groups from 0 to {_CG_GROUPS}")
        self.lim_cg = score_groups
        self.lim_groups = groups
        self.lim_unions = unions
        self.wide_draws = wide_draws
        self.lim_ext_nodes = insist_steps
        memset(self.uc_keys, 0, TG_UCACHE * sizeof(uint64_t))
        self.uc_used = self.uc_len = 0
        self.cached = self.scored = False

    cdef int64_t sets_at(self, uint64_t loose, int card, int v, int* n) except -2 nogil:
        """:meth:`build_sets` remembered: where its sets start in ``uc_pool`` (their number
        into ``n``), -1 when too many to collect."""
        cdef uint64_t key = loose | (<uint64_t>(card + 1) << 52) | (<uint64_t>v << 58)
        cdef uint64_t i = (key * 0x9E3779B97F4A7C15ULL) >> 50
        cdef uint64_t* pool
        cdef int64_t at
        while self.uc_keys[i]:
            if self.uc_keys[i] == key:
                n[0] = self.uc_n[i]
                return self.uc_at[i]
            i = (i + 1) & (TG_UCACHE - 1)
        if 2 * self.uc_used > TG_UCACHE or self.uc_len > (1 << 20):
            memset(self.uc_keys, 0, TG_UCACHE * sizeof(uint64_t))
            self.uc_used = 0
            self.uc_len = 0
            i = (key * 0x9E3779B97F4A7C15ULL) >> 50
        at = -1
        n[0] = 0
        if self.build_sets(loose, card, v):
            if self.uc_len + self.nuni > self.uc_cap:
                pool = <uint64_t*>realloc(self.uc_pool,
                                          2 * (self.uc_len + self.nuni) * sizeof(uint64_t))
                if pool == NULL:
                    with gil:
                        raise MemoryError()
                self.uc_pool = pool
                self.uc_cap = 2 * (self.uc_len + self.nuni)
            at = self.uc_len
            if self.nuni:
                memcpy(&self.uc_pool[at], self.uni, self.nuni * sizeof(uint64_t))
            self.uc_len += self.nuni
            n[0] = self.nuni
        while self.uc_keys[i]:
            i = (i + 1) & (TG_UCACHE - 1)
        self.uc_keys[i] = key
        self.uc_at[i] = at
        self.uc_n[i] = n[0]
        self.uc_used += 1
        return at

    cdef int creates(self, const TState* s, int card, int free) except -1 nogil:
        """New builds of loose cards (F1) or of the hand card with loose cards, owned by the
        mover or by a partner whose claim they meet (AMB-64)."""
        cdef uint64_t cbit = (<uint64_t>1) << card if card >= 0 else 0
        cdef uint64_t hand = s.hand & ~cbit
        cdef uint32_t held = self.valmask(hand), wanted = 0, left
        cdef int claim[32]
        cdef int v, k, pm, owner, j, n, a, r, least, u, nsets
        cdef int64_t at
        cdef uint64_t sums, reach
        cdef uint64_t sub, cards, g
        cdef uint32_t cand
        cdef TState nx
        for v in range(2, self.maxv + 1):
            claim[v] = self.partner_claim(s, v) if s.claims else -1
            if (held >> v) & 1 or claim[v] >= 0:
                wanted |= (<uint32_t>1) << v
        if not wanted:
            return 0
        least = 1 if card >= 0 else 2
        if cas_popcount64(s.loose) < least:
            return 0
        # (the totals of subsets of the loose cards, up to 15: a value no group can reach
        # has no build)
        sums = 1
        g = s.loose
        while g:
            r = _tg_rank(cas_ctz64(g))
            sums = (sums | (sums << r) | ((sums << self.acehi) if r == 1 else 0)) & 0xFFFF
            g &= g - 1
        sums &= ~(<uint64_t>1)               # (nonempty subsets)
        if card < 0:
            wanted &= <uint32_t>sums
        else:                                # (the card with more loose cards, or alone
            r = _tg_rank(card)               # with another group of its value)
            reach = (sums << r) | (sums & ((<uint64_t>1) << r))
            if r == 1:
                reach |= (sums << self.acehi) | (sums & ((<uint64_t>1) << self.acehi))
            wanted &= <uint32_t>reach
        left = wanted
        while left:                          # (each value's groups and their unions)
            v = cas_ctz64(left)
            at = self.sets_at(s.loose, card, v, &nsets)
            if at < 0:
                break
            left &= left - 1
            for u in range(nsets):
                cards = self.uc_pool[at + u]
                self.create(s, card, free, cards & ~cbit, cards, v, hand, claim[v])
        if not left:
            return 0
        wanted = left                        # (too many groups: every subset, as follows)
        sub = s.loose
        while True:                          # (every subset of the loose cards)
            if cas_popcount64(sub) >= least:
                cards = sub | cbit
                n = 0
                a = 0
                g = cards
                while g:
                    r = _tg_rank(cas_ctz64(g))
                    if r == 1:
                        a += 1
                    else:
                        n += r
                    g &= g - 1
                cand = 0                     # (the values a total is a multiple of)
                for k in range(a + 1):
                    cand |= _TG_DIVISORS[n + a + k * (self.acehi - 1)]
                cand &= wanted
                while cand:
                    v = cas_ctz64(cand)
                    cand &= cand - 1
                    if self.part_max(cards, v) >= 1:
                        self.create(s, card, free, sub, cards, v, hand, claim[v])
            if sub == 0:
                break
            sub = (sub - 1) & s.loose
        return 0

    cdef int create(self, const TState* s, int card, int free, uint64_t sub, uint64_t cards,
                    int v, uint64_t hand, int claim) except -1 nogil:
        """The build of ``v`` of ``cards`` (``sub`` the loose ones), for the mover and for
        the partner of the claim."""
        cdef int j, owner, pm = self.part_max(cards, v)
        cdef TState nx
        for j in range(2):
            owner = self.mover if j == 0 else claim
            if owner < 0 or (owner != self.mover and not self.partner_owns):
                continue
            nx = s[0]
            nx.hand = hand
            nx.loose &= ~sub
            nx.claims &= ~((<uint64_t>1) << (owner * 16 + v))
            if self.add_build(&nx, cards, v, owner, pm > 1, self.creator(),
                              owner == self.mover, 0) < 0:
                continue
            if card >= 0:
                nx.played = 1
            else:
                nx.created = 1
            nx.free_steps += free
            self.note(0 if card < 0 else 3, card, v, sub, 0,
                      -1 if owner == self.mover else owner, -1, NULL)
            self.emit(&nx)
        return 0

    cdef int augments(self, const TState* s, int card, int free) except -1 nogil:
        """Augments of a build with a group of its value: loose cards, opposing pile tops
        and the hand card (own team's builds only); F3 on an opponent's build before the
        hand-card step; with AMB-70 a single loose card made a build."""
        cdef int i, x, vi, value, who, low
        cdef bint own
        cdef uint64_t base, rest
        cdef uint8_t extra[TG_TEAMS]
        memset(extra, 0, sizeof(extra))
        low = _tg_rank(card) if card >= 0 else 0
        for i in range(s.nb):
            value = s.b[i].value
            who = s.b[i].owner
            own = self.ours(who)
            if (card >= 0 and not own) or (not own and s.played):
                continue
            self._aug_loose(s, card, free, i, value, own, s.b[i].cards, s.loose, 0,
                            value - low, extra)
        if self.single_aug:
            rest = s.loose
            while rest:
                x = cas_ctz64(rest)
                rest &= rest - 1
                for vi in range(2 if _tg_rank(x) == 1 else 1):
                    value = _tg_rank(x) if vi == 0 else self.acehi
                    base = (<uint64_t>1) << x
                    self._aug_loose(s, card, free, -1, value, True, base, s.loose & ~base,
                                    0, value - low, extra)
        return 0

    cdef int _aug_loose(self, const TState* s, int card, int free, int bi, int value,
                        bint own, uint64_t base, uint64_t pool, uint64_t chosen, int room,
                        uint8_t* extra) except -1 nogil:
        """Every subset of ``pool`` (cards after those chosen) within ``room``, then the pile
        tops."""
        cdef int c
        self._aug_piles(s, card, free, bi, value, own, base, chosen, 0, 0, room, extra)
        while pool:
            c = cas_ctz64(pool)
            pool &= pool - 1
            if _tg_rank(c) <= room:
                self._aug_loose(s, card, free, bi, value, own, base, pool,
                                chosen | ((<uint64_t>1) << c), room - _tg_rank(c), extra)
        return 0

    cdef int _aug_piles(self, const TState* s, int card, int free, int bi, int value,
                        bint own, uint64_t base, uint64_t loose, uint64_t pilecards, int team,
                        int room, uint8_t* extra) except -1 nogil:
        """The top segments of the opposing piles from ``team`` on (``extra``: the cards
        taken from each pile), then the augment."""
        cdef int k, top, c, left = room, n = 0
        cdef uint64_t got = pilecards
        while team < self.nteams and (team == self.myteam
                                      or self.plen[team] == s.depth[team]):
            team += 1                        # (no card of this pile to take)
        if team >= self.nteams:
            if room and not self.aces_make(loose | pilecards | (
                    (<uint64_t>1) << card if card >= 0 else 0), room):
                return 0                     # (the group cannot total the value)
            return self.augment(s, card, free, bi, value, own, base, loose, pilecards, extra)
        self._aug_piles(s, card, free, bi, value, own, base, loose, pilecards, team + 1, room,
                        extra)                           # (none of this pile)
        if team == self.myteam:
            return 0
        top = self.plen[team] - s.depth[team]
        for k in range(top - 1, -1, -1):                 # (one card more at a time)
            c = self.piles[team][k]
            left -= _tg_rank(c)
            if left < 0:
                break
            got |= (<uint64_t>1) << c
            n += 1
            extra[team] = n
            self._aug_piles(s, card, free, bi, value, own, base, loose, got, team + 1, left,
                            extra)
        extra[team] = 0
        return 0

    cdef int augment(self, const TState* s, int card, int free, int bi, int value, bint own,
                     uint64_t base, uint64_t loose, uint64_t pilecards,
                     const uint8_t* extra) except -1 nogil:
        """One augment of build ``bi`` (-1: the single loose card ``base``), ``extra`` cards
        taken from the top of each pile."""
        cdef uint64_t cbit = (<uint64_t>1) << card if card >= 0 else 0
        cdef uint64_t group = loose | pilecards | cbit
        cdef int owner, creator, owed, t, npile = cas_popcount64(pilecards)
        cdef TState nx
        if not group or not self.sums_to(group, value):
            return 0
        if self.pile_limit and s.pile_cards + npile > self.pile_limit:
            return 0
        nx = s[0]
        for t in range(TG_TEAMS):
            nx.depth[t] += extra[t]
        if bi >= 0:
            owner = s.b[bi].owner
            creator = s.b[bi].creator
            owed = (not own) or s.b[bi].owed
            self.del_build(&nx, bi)
        else:
            owner = self.mover
            creator = self.creator()
            owed = 0
        nx.hand &= ~cbit
        nx.loose &= ~(loose | (base if bi < 0 else 0))
        if self.add_build(&nx, base | group, value, owner, 1, creator, own, owed) < 0:
            return 0
        if card >= 0:
            nx.played = 1
        nx.pile_cards += npile
        nx.free_steps += free
        self.note(1, card, value, loose, (<uint32_t>1) << bi if bi >= 0 else 0, -1,
                  cas_ctz64(base) if bi < 0 else -1, extra)
        return self.emit(&nx)

    cdef int increases(self, const TState* s, int p) except -1 nogil:
        """One hand card on a simple build: an opponent's (AMB-60), a partner's with
        AMB-69; to a partner's claim, for him (AMB-64)."""
        cdef int i, vi, v, j, owner, claim
        cdef bint partner
        cdef TState nx
        for i in range(s.nb):
            if s.b[i].frozen:
                continue
            partner = self.ours(s.b[i].owner)
            if self.inc_creator:
                if s.b[i].creator < 0 or self.ours(s.b[i].creator):
                    continue
            elif s.b[i].owner == self.mover or (partner and not self.inc_partner):
                continue
            for vi in range(2 if _tg_rank(p) == 1 else 1):
                v = s.b[i].value + (_tg_rank(p) if vi == 0 else self.acehi)
                if v > self.maxv:
                    continue
                claim = self.partner_claim(s, v) if not partner else -1
                for j in range(2):
                    owner = self.mover if j == 0 else claim
                    if owner < 0 or (owner != self.mover and not self.partner_owns):
                        continue
                    nx = s[0]
                    self.del_build(&nx, i)
                    nx.claims &= ~((<uint64_t>1) << (owner * 16 + v))
                    if not partner and self.partnership:
                        nx.claims |= (<uint64_t>1) << (s.b[i].owner * 16 + s.b[i].value)
                    nx.hand &= ~((<uint64_t>1) << p)
                    if self.add_build(&nx, s.b[i].cards | ((<uint64_t>1) << p), v, owner, 0,
                                      s.b[i].creator, owner == self.mover, 0) < 0:
                        continue
                    nx.played = 1
                    self.note(4, p, v, 0, (<uint32_t>1) << i,
                              -1 if owner == self.mover else owner, -1, NULL)
                    self.emit(&nx)
        return 0

    cdef int captures(self, const TState* s, int p) except -1 nogil:
        """Loose groups and builds of a value of ``p`` (the cards under ``p`` in one
        order)."""
        cdef int vi, v, i, nprey, nsets = 0, u
        cdef int prey[TG_MAXB]
        cdef int64_t at
        cdef uint64_t sub
        for vi in range(2 if _tg_rank(p) == 1 else 1):
            v = _tg_rank(p) if vi == 0 else self.acehi
            nprey = 0
            for i in range(s.nb):
                if s.b[i].value == v:
                    prey[nprey] = i
                    nprey += 1
            self.capture(s, p, v, 0, prey, nprey)
            at = self.sets_at(s.loose, TG_CAPTURE, v, &nsets) if s.loose else 0
            if at >= 0:
                for u in range(nsets):       # (the unions of groups of v)
                    self.capture(s, p, v, self.uc_pool[at + u], prey, nprey)
                continue
            sub = s.loose                    # (too many groups: every subset)
            while sub:
                if self.part_max(sub, v) >= 1:
                    self.capture(s, p, v, sub, prey, nprey)
                sub = (sub - 1) & s.loose
        return 0

    cdef int capture(self, const TState* s, int p, int v, uint64_t sub, const int* prey,
                     int nprey) except -1 nogil:
        """``p`` taking the loose cards ``sub`` and each subset of the builds ``prey``."""
        cdef int i, k
        cdef uint64_t taken, cards
        cdef uint32_t pick
        cdef TState nx
        for pick in range(1u << nprey):
            if sub == 0 and pick == 0:
                continue
            taken = 0
            for k in range(nprey):
                if (pick >> k) & 1:
                    taken |= (<uint64_t>1) << prey[k]
            for i in range(s.nb):            # (an F3 build must be taken)
                if s.b[i].owed and not (taken >> i) & 1:
                    break
            else:
                nx = s[0]
                cards = sub
                for i in range(s.nb - 1, -1, -1):
                    if (taken >> i) & 1:
                        cards |= s.b[i].cards
                        self.del_build(&nx, i)
                nx.hand &= ~((<uint64_t>1) << p)
                nx.loose &= ~sub
                nx.capt = cards
                nx.capcard = p
                nx.capval = v
                nx.played = 1
                nx.captured = 1
                self.note(2, p, v, sub, <uint32_t>taken, -1, -1, NULL)
                self.emit(&nx)
        return 0

    cdef bint can_capture(self, const TState* s, int p) noexcept nogil:
        cdef int vi, v, i
        for vi in range(2 if _tg_rank(p) == 1 else 1):
            v = _tg_rank(p) if vi == 0 else self.acehi
            for i in range(s.nb):
                if s.b[i].value == v:
                    return True
            if self.has_group(s.loose, 0, v, v):
                return True
        return False

    cdef int expand(self, const TState* s) except -1 nogil:
        """Every step from ``s`` (the reference's _Search.steps)."""
        cdef uint64_t hand
        self.free_steps_of(s)
        if not s.played:
            hand = s.hand
            while hand:
                self.hand_steps(s, cas_ctz64(hand))
                hand &= hand - 1
        return 0

    cdef int free_steps_of(self, const TState* s) except -1 nogil:
        """The free steps from ``s`` (F1, F2, F3), while the rules allow one more."""
        if not self.free_limit or s.free_steps < self.free_limit:
            self.creates(s, -1, 1)
            self.augments(s, -1, 1)
        return 0

    cdef int hand_steps(self, const TState* s, int p) except -1 nogil:
        """The hand-card steps of ``p`` from ``s``: trail, captures, builds, augments and
        increases."""
        cdef TState nx
        if self.trail_any or not self.can_capture(s, p):
            nx = s[0]
            nx.hand &= ~((<uint64_t>1) << p)
            nx.loose |= (<uint64_t>1) << p
            nx.played = 1
            nx.trailed = 1
            self.note(5, p, 0, 0, 0, -1, -1, NULL)
            self.emit(&nx)
        self.captures(s, p)
        self.creates(s, p, 0)
        self.augments(s, p, 0)
        self.increases(s, p)
        return 0

    cdef bint compatible(self, const TState* s) noexcept nogil:
        """Whether ``s`` may still end at ``target`` (list_search when ``targeting``): a
        sound test, for a hand only loses cards, a loose card leaves the table's loose
        cards but for the card trailed, pile depths only grow, the capture is made once,
        and a build only gains cards until captured (so a build of the target's cards is
        that build)."""
        cdef const TState* e = &self.target
        cdef int i, j, t
        cdef uint64_t c
        cdef bint ok
        if e.hand & ~s.hand or e.loose & ~(s.loose | s.hand):
            return False
        for t in range(TG_TEAMS):
            if s.depth[t] > e.depth[t]:
                return False
        if s.capcard >= 0 and (s.capcard != e.capcard or s.capt != e.capt):
            return False
        for i in range(s.nb):
            c = s.b[i].cards
            if e.capcard >= 0 and not (c & ~e.capt):
                continue                     # (to be captured)
            ok = False
            for j in range(e.nb):
                if not (c & ~e.b[j].cards):
                    ok = c != e.b[j].cards or (
                        s.b[i].value == e.b[j].value and s.b[i].owner == e.b[j].owner
                        and s.b[i].frozen == e.b[j].frozen
                        and s.b[i].creator == e.b[j].creator)
                    break
            if not ok:
                return False
        return True

    cdef int probe(self, const TState* s) except -1 nogil:
        """1 if some legal turn continues ``s`` (the reference's ``can_finish``), else 0:
        a depth-first search that tries each hand card's steps before the free steps and
        stops at the first end, every answer remembered in ``pmemo`` (for the context
        :meth:`pm_check` keeps)."""
        cdef int64_t at, lo, hi, j
        cdef int p, result = 0
        cdef uint64_t hand
        cdef int8_t* grown
        cdef TState n
        if self.finished(s):
            return 1
        if not _tset_add_at(&self.pmemo, s, &at):
            return self.pres[at]
        if at >= self.capres:
            grown = <int8_t*>realloc(self.pres, 2 * (at + 1) * sizeof(int8_t))
            if grown == NULL:
                with gil:
                    raise MemoryError()
            self.pres = grown
            self.capres = 2 * (at + 1)
        self.pres[at] = 0
        hand = 0 if s.played else s.hand
        while True:
            lo = self.ncoll
            self.collecting = True
            try:
                if hand:
                    p = cas_ctz64(hand)
                    hand &= hand - 1
                    self.hand_steps(s, p)
                else:
                    p = -1
                    self.free_steps_of(s)
            finally:
                self.collecting = False
            hi = self.ncoll
            for j in range(lo, hi):          # (an end first: most states have one near)
                if self.finished(&self.coll[j]):
                    result = 1
                    break
            j = lo
            while not result and j < hi:
                n = self.coll[j]             # (a copy: probing may move the buffer)
                result = self.probe(&n)
                j += 1
            self.ncoll = lo
            if result or p < 0:
                break
        self.pres[at] = result
        return result

    cdef inline bint in_ctx(self, const TCtx* c) noexcept nogil:
        """Whether the generator's context (mover, hands, piles) is the one saved in ``c``."""
        return (c.mover == self.mover
                and memcmp(c.hands, self.hands, sizeof(self.hands)) == 0
                and memcmp(c.plen, self.plen, sizeof(self.plen)) == 0
                and memcmp(c.piles, self.piles, sizeof(self.piles)) == 0)

    cdef inline void save_ctx(self, TCtx* c) noexcept nogil:
        """Save the generator's context into ``c`` (:meth:`in_ctx`)."""
        c.mover = self.mover
        memcpy(c.hands, self.hands, sizeof(self.hands))
        memcpy(c.plen, self.plen, sizeof(self.plen))
        memcpy(c.piles, self.piles, sizeof(self.piles))

    cdef int pm_check(self) except -1 nogil:
        """Keep ``pmemo`` only while the context (mover, hands, piles) is the one it was
        made in."""
        if self.pm_valid and self.in_ctx(&self.pm_ctx):
            return 0
        _tset_reset(&self.pmemo)
        self.save_ctx(&self.pm_ctx)
        self.pm_valid = True
        return 0

    cdef void step_key(self, const TState* s, const TStep* st, const TState* n,
                       int16_t* k) noexcept nogil:
        """The reference's ``_step_key`` of step ``st`` from ``s`` to ``n``, as int16 words
        whose order is the key's: each tuple's items shifted by one and ended by a 0 (kind,
        hand card, value, loose cards, pile cards (team, card), the builds' sorted cards by
        lowest card, the capture's order, the owner)."""
        cdef int i = 3, t, j, top, b, best
        cdef uint64_t m
        cdef uint32_t left
        memset(k, 0, TG_KEY * sizeof(int16_t))
        k[0] = st.kind
        k[1] = st.card + 1
        k[2] = st.value
        if st.who >= 0:
            k[i] = st.who + 1
            i += 1
        m = st.loose
        while m and i < TG_KEY - 8:
            k[i] = cas_ctz64(m) + 1
            i += 1
            m &= m - 1
        i += 1
        for t in range(self.nteams):
            top = self.plen[t] - s.depth[t]
            for j in range(st.pilen[t]):
                if i < TG_KEY - 8:
                    k[i] = t + 1
                    k[i + 1] = self.piles[t][top - 1 - j] + 1
                    i += 2
        i += 1
        left = st.bidx
        while left:                          # (disjoint builds: by their lowest card)
            best = -1
            for b in range(s.nb):
                if (left >> b) & 1 and (best < 0 or cas_ctz64(s.b[b].cards)
                                        < cas_ctz64(s.b[best].cards)):
                    best = b
            left &= ~((<uint32_t>1) << best)
            m = s.b[best].cards
            while m and i < TG_KEY - 8:
                k[i] = cas_ctz64(m) + 1
                i += 1
                m &= m - 1
            i += 1
        i += 1
        if st.kind == 2:
            m = n.capt
            while m and i < TG_KEY - 8:
                k[i] = cas_ctz64(m) + 1
                i += 1
                m &= m - 1
        i += 1
        k[min(i, TG_KEY - 1)] = st.owner + 1

    cdef int list_search(self, const TState* start) except -1 nogil:
        """``search`` breadth first, the successors of each state in step order, each state
        kept with the step that first reached it: the states are then in the order of their
        least step sequences (the reference's ``_Search.ends``), and so are the turns
        (``via``: the state that first ends each)."""
        cdef TState cur, key
        cdef int64_t idx = 0, at, j
        cdef int i
        cdef int64_t* idxs = NULL
        cdef void* more
        self.cached = False
        self.scored = False
        self.max_applied = False
        _tset_reset(&self.seen)
        _tset_reset(&self.found)
        memset(self.by_k, 0, sizeof(self.by_k))
        self.overflow = False
        _tset_add(&self.seen, start)
        if self.capsteps < 1024:
            more = realloc(self.steps, 1024 * sizeof(TStep))
            if more == NULL:
                with gil:
                    raise MemoryError()
            self.steps = <TStep*>more
            self.capsteps = 1024
        memset(&self.steps[0], 0, sizeof(TStep))
        self.steps[0].parent = -1
        try:
            while idx < self.seen.n:
                _tset_load(&self.seen, idx, &cur)
                if self.finished(&cur):
                    key = cur
                    _end_key(&key)
                    if _tset_add_at(&self.found, &key, &at):
                        self.by_k[cas_popcount64(cur.capt)] += 1
                        if at >= self.fcap_n or at >= self.capvia:
                            more = realloc(self.fcap, 2 * (at + 1) * sizeof(int8_t))
                            if more == NULL:
                                with gil:
                                    raise MemoryError()
                            self.fcap = <int8_t*>more
                            self.fcap_n = 2 * (at + 1)
                            more = realloc(self.via, 2 * (at + 1) * sizeof(int64_t))
                            if more == NULL:
                                with gil:
                                    raise MemoryError()
                            self.via = <int64_t*>more
                            self.capvia = 2 * (at + 1)
                        self.fcap[at] = cur.capval
                        self.via[at] = idx
                    elif self.fcap[at] != cur.capval:
                        self.fcap[at] = -2
                self.cur = &cur
                self.nsucc = 0
                self.listing = True
                try:
                    self.expand(&cur)
                finally:
                    self.listing = False
                if self.nsucc:
                    more = realloc(idxs, self.nsucc * sizeof(int64_t))
                    if more == NULL:
                        with gil:
                            raise MemoryError()
                    idxs = <int64_t*>more
                    for j in range(self.nsucc):
                        idxs[j] = j
                    _tg_sort(idxs, self.nsucc, _tg_succ_cmp, self.succ)
                    for j in range(self.nsucc):
                        if _tset_add_at(&self.seen, &self.succ[idxs[j]].state, &at):
                            if at >= self.capsteps:
                                more = realloc(self.steps, 2 * self.capsteps * sizeof(TStep))
                                if more == NULL:
                                    with gil:
                                        raise MemoryError()
                                self.steps = <TStep*>more
                                self.capsteps *= 2
                            self.steps[at] = self.succ[idxs[j]].step
                            self.steps[at].parent = idx
                idx += 1
        finally:
            free(idxs)
            self.cur = NULL
        if self.overflow:
            with gil:
                raise PositionError(f"a turn here makes more than {TG_MAXB} builds")
        self.listed = True
        return 0

    cdef object py_step(self, int64_t j, dict memo):
        """The reference's Step that first reached state ``j``."""
        got = memo.get(j)
        if got is not None:
            return got
        got = memo[j] = self.make_step(&self.steps[j], _tset_at(&self.seen, self.steps[j].parent),
                                       _tset_at(&self.seen, j))
        return got

    cdef object found_turn(self, int64_t k, object table, dict memo):
        """Found turn ``k`` of the last :meth:`list_search` as the reference's Turn: its
        least step sequence (``via``), the table it leaves from ``table`` with the
        captured cards ascending."""
        from cassino.reference.compound import Turn
        cdef const TState* e = _tset_at(&self.found, k)
        cdef int64_t idx = self.via[k]
        chain = []
        while idx > 0:
            chain.append(idx)
            idx = self.steps[idx].parent
        steps = tuple(self.py_step(j, memo) for j in reversed(chain))
        return Turn(steps, self.table_of(e, table, self.captured_of(e)), e.capcard >= 0)

    cdef object make_step(self, const TStep* st, const TState* parent, const TState* child):
        """The reference's Step of ``st``, from ``parent`` to ``child``."""
        from cassino.reference.compound import Build as TurnBuild, Step
        cdef int off = self.offset, t, top, i
        loose = ((st.who + off,) if st.who >= 0 else ()) + tuple(sorted(self._cards(st.loose)))
        pile = []
        for t in range(self.nteams):
            top = self.plen[t] - parent.depth[t]
            for i in range(st.pilen[t]):
                pile.append((t, self.piles[t][top - 1 - i] + off))
        builds = tuple(
            TurnBuild(self._cards(parent.b[i].cards), parent.b[i].value, parent.b[i].owner,
                      bool(parent.b[i].frozen), parent.b[i].creator)
            for i in range(parent.nb) if (st.bidx >> i) & 1)
        order = tuple(sorted(self._cards(child.capt))) if st.kind == 2 else ()
        return Step(
            ("create", "augment", "capture", "build", "increase", "trail")[st.kind],
            st.card + off if st.card >= 0 else None, st.value, loose, tuple(pile), builds,
            order, st.owner if st.owner >= 0 else None)

    def list_state(self, state, bint ends=False):
        """The turns of the seat to move of the reference ``state`` of the system, as the
        reference's ``_base_turns`` gives them: (Turn with its least step sequence and the
        captured cards ascending, the number of orders of those cards), in the order of the
        least step sequences; with ``ends``, each followed by the turn state of its end
        table (bytes, for :meth:`push_end`)."""
        cdef TState s, x
        cdef TState* e
        cdef int64_t k
        self.listed_of(state, &s)
        table = state._turn_table()
        memo = {}
        out = []
        for k in range(self.found.n):
            if self.dropped(k):
                continue
            e = _tset_at(&self.found, k)
            if ends:
                _tset_load(&self.found, k, &x)
                out.append((self.found_turn(k, table, memo), self.orders(e), self.pack(&x)))
            else:
                out.append((self.found_turn(k, table, memo), self.orders(e)))
        return out

    # -- the greedy player's scores of the turns (greedy.GreedyPlayer._turn_score) in C
    def greedy_turn_scores(self, state, ws, odds, bint stock_empty, int last_sign,
                           double card_weight, double build_discount, double risk_weight):
        """``GreedyPlayer._turn_score`` of each turn of :meth:`list_state` (the turns with
        the captured cards in one order, ``turns_one_order``) of the reference ``state``'s
        seat to move, ``state`` the world of the view: ``ws`` the weight of each local card
        id, ``odds`` the chance that the next seat holds a card of each value (empty:
        none), ``stock_empty`` whether the view's stock is empty, ``last_sign`` the side of
        the view's last capturer (1 the seat's team, -1 another, 0 none). None where a
        packing of loose cards has more groups than the C buffers hold (the caller asks
        the reference)."""
        cdef TState s
        cdef int64_t k, n = 0
        cdef int t, i, nv = len(odds)
        cdef int nxt
        cdef double* scores
        cdef double w[64]
        cdef double od[32]
        cdef uint64_t before[TG_TEAMS]
        memset(w, 0, sizeof(w))
        for i in range(min(len(ws), 64)):
            w[i] = ws[i]
        if nv > 32:
            raise ValueError("odds for more than 31 values")
        for i in range(nv):
            od[i] = odds[i]
        self.listed_of(state, &s)
        nxt = (self.mover + 1) % self.players if self.rules.direction == "cw" \
            else (self.mover + self.players - 1) % self.players
        for t in range(self.nteams):
            before[t] = 0
            for i in range(self.plen[t]):
                before[t] |= (<uint64_t>1) << self.piles[t][i]
        scores = <double*>malloc((self.found.n + 1) * sizeof(double))
        if scores == NULL:
            raise MemoryError()
        try:
            with nogil:
                for k in range(self.found.n):
                    if self.dropped(k):
                        continue
                    if self.turn_score(_tset_at(&self.found, k), w, od, nv, nxt, before,
                                       stock_empty, last_sign, card_weight, build_discount,
                                       risk_weight, &scores[n]) < 0:
                        n = -1
                        break
                    n += 1
            return None if n < 0 else [scores[k] for k in range(n)]
        finally:
            free(scores)

    cdef int listed_of(self, object state, TState* s) except -1:
        """Load the reference ``state`` into ``s`` and make ``found`` its turns in
        :meth:`list_state`'s order (:meth:`list_search`, :meth:`apply_maximal`, without the
        GIL), read again without a search when the generator's last listing was of the same
        start and context and nothing has searched since."""
        self.load_state(state, s)
        if (self.scored and memcmp(&self.sstart, s, sizeof(TState)) == 0
                and self.in_ctx(&self.sctx)):
            return 0
        with nogil:
            self.list_search(s)
            self.apply_maximal(s)
        self.sstart = s[0]
        self.save_ctx(&self.sctx)
        self.scored = True
        return 0

    def listed_total(self, state):
        """How many turns the seat to move of the reference ``state`` has, each counted
        with the orders of its captured cards (as :meth:`count_state`), from the listing
        :meth:`turn_at` then reads without a search."""
        cdef TState s
        self.listed_of(state, &s)
        return self.total()

    def scored_turn(self, state, int64_t index):
        """The turn at ``index`` of the last :meth:`greedy_turn_scores` of ``state`` (its
        turns in :meth:`list_state`'s order, read without a search when the generator has
        searched nothing since): (Turn with its least step sequence and the captured cards
        ascending, its end table as :meth:`list_state` gives it with ``ends``)."""
        cdef TState s, x
        cdef int64_t k
        self.listed_of(state, &s)
        for k in range(self.found.n):
            if self.dropped(k):
                continue
            if index == 0:
                _tset_load(&self.found, k, &x)
                return self.found_turn(k, state._turn_table(), {}), self.pack(&x)
            index -= 1
        raise IndexError("no turn at that index")

    cdef int turn_score(self, const TState* e, const double* w, const double* od, int nv,
                        int nxt, const uint64_t* before, bint stock_empty, int last_sign,
                        double card_weight, double build_discount, double risk_weight,
                        double* out) noexcept nogil:
        """The score of the turn that ends at ``e`` (:meth:`greedy_turn_scores`); -1 past
        the group buffers."""
        cdef double gain = 0.0, own = 0.0, diff, risk = 0.0, taken, p, none_better, got, x_v
        cdef uint64_t after, table, same, smaller, bit
        cdef int t, i, j, v, c, nopt = 0, ng
        cdef uint32_t sure = 0
        cdef bint captured = e.capcard >= 0, hands_empty
        cdef double oval[32]
        cdef double oprob[32]
        cdef uint64_t groups[_CG_GROUPS]
        # what the piles gained or lost: the seat's team's for it, the others' against
        for t in range(self.nteams):
            after = 0
            for i in range(self.plen[t] - e.depth[t]):
                after |= (<uint64_t>1) << self.piles[t][i]
            if t == self.myteam and captured:
                after |= e.capt | ((<uint64_t>1) << e.capcard)
            if after != before[t]:
                diff = _cg_weight(w, after) - _cg_weight(w, before[t])
                if t == self.myteam:
                    gain += diff
                else:
                    gain -= diff
        table = e.loose
        for i in range(e.nb):
            table |= e.b[i].cards
            if self.team[e.b[i].owner] == self.myteam:
                own += _cg_weight(w, e.b[i].cards)
        hands_empty = e.hand == 0
        for t in range(self.players):
            if t != self.mover and self.hands[t]:
                hands_empty = False
        if hands_empty and stock_empty:
            # the hand ends: the leftovers go to the last capturer
            if captured:
                last_sign = 1
            if last_sign == 0 or not table:
                out[0] = gain
            else:
                out[0] = gain + (1.0 if last_sign > 0 else -1.0) * _cg_weight(w, table)
            return 0
        if nv and table:
            for i in range(e.nb):
                if e.b[i].owner == nxt:
                    sure |= (<uint32_t>1) << e.b[i].value
            for v in range(1, nv):
                p = 1.0 if (sure >> v) & 1 else od[v]
                if p == 0.0:
                    continue
                same = 0
                smaller = 0
                bit = e.loose
                while bit:
                    c = cas_ctz64(bit)
                    bit &= bit - 1
                    if self.has_value(c, v):
                        same |= (<uint64_t>1) << c
                    elif _tg_rank(c) < v:       # (its least value: the Ace's 1, a rank)
                        smaller |= (<uint64_t>1) << c
                taken = _cg_weight(w, same)
                for i in range(e.nb):
                    if e.b[i].value == v:
                        taken += _cg_weight(w, e.b[i].cards)
                if cas_popcount64(smaller) >= 2:
                    ng = self.value_groups(smaller, v, groups)
                    if ng < 0:
                        return -1
                    got = _cg_pack(w, smaller, groups, ng)
                    if got < 0:
                        return -1
                    taken += got
                if taken > 0.0:
                    # (options in descending (value, chance) order, as Python's sort)
                    x_v = taken + card_weight
                    j = nopt
                    while j > 0 and (oval[j - 1] < x_v
                                     or (oval[j - 1] == x_v and oprob[j - 1] < p)):
                        oval[j] = oval[j - 1]
                        oprob[j] = oprob[j - 1]
                        j -= 1
                    oval[j] = x_v
                    oprob[j] = p
                    nopt += 1
            none_better = 1.0
            for j in range(nopt):
                risk += oval[j] * oprob[j] * none_better
                none_better *= 1.0 - oprob[j]
        out[0] = gain + build_discount * own - risk_weight * risk
        return 0

    cdef inline bint has_value(self, int c, int v) noexcept nogil:
        cdef int r = _tg_rank(c)
        return r == v or (r == 1 and v == self.acehi)

    cdef int value_groups(self, uint64_t cards, int v, uint64_t* out) noexcept nogil:
        """greedy._turn_groups: every subset of ``cards`` whose values sum to ``v`` (an
        Ace at either value), each once, into ``out``; -1 past _CG_GROUPS."""
        cdef int ids[64]
        cdef int n = 0, count = 0
        while cards:
            ids[n] = cas_ctz64(cards)
            cards &= cards - 1
            n += 1
        if self._groups_rec(ids, n, 0, v, 0, out, &count) < 0:
            return -1
        return count

    cdef int _groups_rec(self, const int* ids, int n, int i, int need, uint64_t acc,
                         uint64_t* out, int* count) noexcept nogil:
        cdef int j, k, r
        cdef uint64_t g
        if need == 0:
            for k in range(count[0]):
                if out[k] == acc:
                    return 0
            if count[0] >= self.lim_cg:
                return -1
            out[count[0]] = acc
            count[0] += 1
            return 0
        for j in range(i, n):
            r = _tg_rank(ids[j])
            g = acc | ((<uint64_t>1) << ids[j])
            if r <= need and self._groups_rec(ids, n, j + 1, need - r, g, out, count) < 0:
                return -1
            if r == 1 and self.acehi <= need and self._groups_rec(
                    ids, n, j + 1, need - self.acehi, g, out, count) < 0:
                return -1
        return 0

    # -- the step interface (CompoundState's builder, parse_move): turn states as bytes
    cdef bytes pack(self, const TState* s):
        return (<const char*>s)[:sizeof(TState)]

    cdef int unpack(self, object b, TState* s) except -1:
        if not isinstance(b, bytes) or len(b) != sizeof(TState):
            raise ValueError("not a turn state of this generator")
        memcpy(s, <const char*>(<bytes>b), sizeof(TState))
        return 0

    def step_start(self, state):
        """The turn state before any step of the reference ``state``'s seat to move."""
        cdef TState s
        self.load_state(state, &s)
        return self.pack(&s)

    def step_successors(self, state, at, int card=-2):
        """The steps from the turn state ``at`` of ``state``'s seat to move, in step order
        (the reference's ``_step_key``), as (Step, next turn state), as the reference's
        ``_Search.steps`` (steps to states :meth:`dead` rules out included); with ``card``
        (a card id) only that hand card's steps, -1 only the free steps."""
        cdef TState s, tmp
        cdef int64_t j, n
        cdef int64_t* idxs = NULL
        self.load_state(state, &tmp)
        self.unpack(at, &s)
        if card >= 0:
            card = self._local(card)
        self.overflow = False
        self.cur = &s
        self.nsucc = 0
        self.listing = True
        self.keep_dead = True
        try:
            if card == -2:
                self.expand(&s)
            elif card == -1:
                self.free_steps_of(&s)
            elif not s.played and (s.hand >> card) & 1:
                self.hand_steps(&s, card)
        finally:
            self.listing = False
            self.keep_dead = False
            self.cur = NULL
        if self.overflow:
            raise PositionError(f"a turn here makes more than {TG_MAXB} builds")
        n = self.nsucc
        out = []
        if n:
            idxs = <int64_t*>malloc(n * sizeof(int64_t))
            if idxs == NULL:
                raise MemoryError()
            try:
                for j in range(n):
                    idxs[j] = j
                _tg_sort(idxs, n, _tg_succ_cmp, self.succ)
                for j in range(n):
                    out.append((self.make_step(&self.succ[idxs[j]].step, &s,
                                               &self.succ[idxs[j]].state),
                                self.pack(&self.succ[idxs[j]].state)))
            finally:
                free(idxs)
        return out

    def step_live(self, state, states):
        """For each turn state of ``states``, whether some legal turn continues it
        (:meth:`probe`)."""
        cdef TState s, tmp
        self.load_state(state, &tmp)
        self.pm_check()
        self.ncoll = 0
        out = []
        for b in states:
            self.unpack(b, &s)
            out.append(self.probe(&s) == 1)
        return out

    def step_finished(self, state, at):
        """Whether the turn state ``at`` keeps the end-of-turn rules (a legal turn)."""
        cdef TState s, tmp
        self.load_state(state, &tmp)
        self.unpack(at, &s)
        return bool(self.finished(&s))

    def step_state(self, state, at):
        """The turn state ``at`` as the reference's ``_State`` (the captured cards
        ascending under the capturing card)."""
        from cassino.reference.compound import Build as TurnBuild, _State
        cdef TState s, tmp
        cdef int i
        self.load_state(state, &tmp)
        self.unpack(at, &s)
        table = self.table_of(&s, state._turn_table(), self.captured_of(&s))
        made, owed = [], []
        for i in range(s.nb):
            b = TurnBuild(self._cards(s.b[i].cards), s.b[i].value, s.b[i].owner,
                          bool(s.b[i].frozen), s.b[i].creator)
            if s.b[i].made:
                made.append(b)
            if s.b[i].owed:
                owed.append(b)
        return _State(table, played=bool(s.played), owed=frozenset(owed),
                      captured=bool(s.captured), trailed=bool(s.trailed), made=frozenset(made),
                      pile_cards=s.pile_cards, free_steps=s.free_steps, created=bool(s.created))

    def least_turn(self, state, end, bint ends=False):
        """The turn of ``state``'s seat to move that leaves the table of the turn state
        ``end``, with its least step sequence and the captured cards ascending (as
        :meth:`list_state` lists it), or None: :meth:`list_search` over the states that
        may still end there (:meth:`compatible`), whose least sequences are those of the
        whole search; with ``ends``, (that turn, the turn state of its end table)."""
        cdef TState s, key
        cdef TState* e
        cdef int64_t k
        cdef int i
        cdef size_t size
        self.unpack(end, &key)
        _end_key(&key)
        self.load_state(state, &s)
        self.target = key
        self.targeting = True
        try:
            self.list_search(&s)
        finally:
            self.targeting = False
        size = _ts_size(&key)
        for k in range(self.found.n):
            e = _tset_at(&self.found, k)
            if e.nb == key.nb and memcmp(e, &key, size) == 0:
                turn = self.found_turn(k, state._turn_table(), {})
                return (turn, self.pack(&key)) if ends else turn
        return None

    cdef uint32_t augmented(self, const TState* e, const TState* start) noexcept nogil:
        """The values (a bit each) of the frozen builds of the mover's team that the turn
        from ``start`` to ``e`` made or changed: the builds not on ``start`` as they are
        (the augmented builds of the reference's ``insist_values``)."""
        cdef uint32_t out = 0
        cdef int i, j
        for i in range(e.nb):
            if not e.b[i].frozen or self.team[e.b[i].owner] != self.myteam:
                continue
            for j in range(start.nb):
                if (start.b[j].cards == e.b[i].cards and start.b[j].value == e.b[i].value
                        and start.b[j].owner == e.b[i].owner
                        and start.b[j].frozen == e.b[i].frozen
                        and start.b[j].creator == e.b[i].creator):
                    break
            else:
                out |= (<uint32_t>1) << e.b[i].value
        return out

    cdef bint extendable(self, const TState* e, const TState* start, int v) noexcept nogil:
        """Whether the turn ending at ``e`` from ``start``, its capture at ``v`` (0: none),
        could take more (the reference's ``extensions`` not empty): a build of ``v`` left,
        or a group of loose cards totalling ``v`` or the value of a frozen build of the
        mover's team the turn made or changed (``insist_values``)."""
        cdef uint32_t targets = self.augmented(e, start)
        cdef int i, w
        if v > 0:
            for i in range(e.nb):
                if e.b[i].value == v:
                    return True
            targets |= (<uint32_t>1) << v
        while targets:
            w = cas_ctz64(targets)
            targets &= targets - 1
            if self.has_group(e.loose, 0, w, w):
                return True
        return False

    cdef int apply_maximal(self, const TState* start) except -1 nogil:
        """``capture_extent=maximal`` (AMB-68's option): drop the found turns that could
        take more from the counts (``fdrop``, ``by_k``), once a search. A turn whose step
        sequences capture at two values (-2: an Ace taking Aces) is judged at the value of
        its least sequence, as the reference lists it: the position is searched again
        breadth first (:meth:`list_search`) for those, and its value kept in ``fcap``."""
        cdef int64_t k
        cdef int v
        cdef int8_t* grown
        cdef const TState* e
        if not self.maximal or self.max_applied:
            return 0
        self.resolve_values(start)
        if self.found.n > self.capdrop:
            grown = <int8_t*>realloc(self.fdrop, 2 * self.found.n * sizeof(int8_t))
            if grown == NULL:
                with gil:
                    raise MemoryError()
            self.fdrop = grown
            self.capdrop = 2 * self.found.n
        for k in range(self.found.n):
            e = _tset_at(&self.found, k)
            v = self.fcap[k]
            self.fdrop[k] = 0
            if self.extendable(e, start, v):
                self.fdrop[k] = 1
                self.by_k[cas_popcount64(e.capt)] -= 1
        self.max_applied = True
        return 0

    cdef int resolve_values(self, const TState* start) except -1 nogil:
        """Give each found turn whose step sequences capture at two values (-2 in
        ``fcap``: an Ace taking Aces) the value of its least sequence, which the reference
        lists and which decides what an insist may extend and whether a capture is
        maximal: the position is searched again breadth first (:meth:`list_search`, its
        least sequences) when a value is ambiguous."""
        cdef int64_t k
        cdef bint ambiguous = False
        for k in range(self.found.n):
            if self.fcap[k] == -2:
                ambiguous = True
                break
        if not ambiguous:
            return 0
        if not self.listed:
            self.list_search(start)
            self.remember(start)
        for k in range(self.found.n):
            if self.fcap[k] == -2:
                self.fcap[k] = _tset_at(&self.seen, self.via[k]).capval
        return 0

    cdef bint dropped(self, int64_t k) noexcept nogil:
        return self.max_applied and self.fdrop[k] != 0

    cdef int search_plain(self, const TState* start) except -1 nogil:
        """:meth:`search` with every turn counted (the Table-level calls, which know no
        ``capture_extent``)."""
        if self.max_applied:
            self.cached = False
        return self.search(start)

    def turn_at(self, state, index):
        """The turn at ``index`` of :meth:`list_state`'s order, each turn followed by the
        other orders of its captured cards: (Turn with its least step sequence and the
        captured cards ascending, the index among those orders), the other turns not
        made into Python objects; then the turn state of its end table, as
        :meth:`list_state` gives it with ``ends``."""
        cdef TState s, x
        cdef TState* e
        cdef int64_t k
        self.listed_of(state, &s)
        for k in range(self.found.n):
            if self.dropped(k):
                continue
            e = _tset_at(&self.found, k)
            w = self.orders(e)
            if index < w:
                _tset_load(&self.found, k, &x)
                return self.found_turn(k, state._turn_table(), {}), index, self.pack(&x)
            index -= w
        raise IndexError("no turn at that index")

    cdef int search(self, const TState* start) except -1 nogil:
        """Fill ``found`` with the end tables of the turns from ``start``."""
        cdef TState cur, key
        cdef int i
        cdef int64_t at
        cdef int8_t* grown
        if (self.cached and memcmp(&self.last, start, sizeof(TState)) == 0
                and self.in_ctx(&self.last_ctx)):
            return 0                         # (the same start as the last search)
        self.cached = False
        self.scored = False
        self.max_applied = False
        self.listed = False
        _tset_reset(&self.seen)
        _tset_reset(&self.found)
        memset(self.by_k, 0, sizeof(self.by_k))
        self.overflow = False
        if self.stack == NULL:
            self.capstack = 1024
            self.stack = <int64_t*>malloc(self.capstack * sizeof(int64_t))
            if self.stack == NULL:
                with gil:
                    raise MemoryError()
        self.nstack = 0
        _tset_add(&self.seen, start)
        self.stack[0] = 0
        self.nstack = 1
        while self.nstack:
            self.nstack -= 1
            _tset_load(&self.seen, self.stack[self.nstack], &cur)
            if self.finished(&cur):
                key = cur
                _end_key(&key)
                if _tset_add_at(&self.found, &key, &at):
                    self.by_k[cas_popcount64(cur.capt)] += 1
                    if at >= self.fcap_n:
                        grown = <int8_t*>realloc(self.fcap, 2 * (at + 1) * sizeof(int8_t))
                        if grown == NULL:
                            with gil:
                                raise MemoryError()
                        self.fcap = grown
                        self.fcap_n = 2 * (at + 1)
                    self.fcap[at] = cur.capval
                elif self.fcap[at] != cur.capval:
                    self.fcap[at] = -2
            self.expand(&cur)
        if self.overflow:
            with gil:
                raise PositionError(f"a turn here makes more than {TG_MAXB} builds")
        self.remember(start)
        return 0

    cdef int remember(self, const TState* start) except -1 nogil:
        """The found turns are ``start``'s, in the context: a search from it again reads
        them."""
        self.last = start[0]
        self.save_ctx(&self.last_ctx)
        self.cached = True
        return 0

    # -- Python
    cdef int load(self, object table, int mover, TState* s) except -1:
        cdef int t, k, i
        memset(s, 0, sizeof(TState))
        if not 0 <= mover < self.players or len(table.hands) != self.players:
            raise PositionError(f"mover {mover} or the hands do not fit {self.players} players")
        if len(table.piles) != self.nteams:
            raise PositionError(f"{len(table.piles)} piles for {self.nteams} teams")
        self.mover = mover
        self.myteam = self.team[mover]
        memset(self.hands, 0, sizeof(self.hands))
        memset(self.piles, 0, sizeof(self.piles))
        memset(self.plen, 0, sizeof(self.plen))
        for t in range(self.players):
            self.hands[t] = self._mask(table.hands[t])
        s.hand = self.hands[mover]
        s.loose = self._mask(table.loose)
        s.capcard = -1
        for t in range(self.nteams):
            pile = table.piles[t]
            if len(pile) > 64:
                raise PositionError("a pile of more than 64 cards")
            self.plen[t] = len(pile)
            for k in range(len(pile)):
                self.piles[t][k] = self._local(pile[k])
        for b in sorted(table.builds, key=lambda b: self._mask(b.cards)):
            if self.add_build(s, self._mask(b.cards), b.value, b.owner, b.frozen, b.creator,
                              0, 0) < 0:
                raise PositionError(f"more than {TG_MAXB} builds")
        for seat, v in table.claims:
            s.claims |= (<uint64_t>1) << (seat * 16 + v)
        return 0

    cdef int load_state(self, object state, TState* s) except -1:
        """``load`` from a reference State of the system (its masks read as they are)."""
        cdef int t, k
        cdef int off = self.offset
        memset(s, 0, sizeof(TState))
        self.mover = state.to_move
        self.myteam = self.team[self.mover]
        memset(self.hands, 0, sizeof(self.hands))
        memset(self.piles, 0, sizeof(self.piles))
        memset(self.plen, 0, sizeof(self.plen))
        for t in range(self.players):
            self.hands[t] = <uint64_t>(state.hands[t] >> off)
        s.hand = self.hands[self.mover]
        s.loose = <uint64_t>(state.loose >> off)
        s.capcard = -1
        for t in range(self.nteams):
            pile = state.piles[t]
            if len(pile) > 64:
                raise PositionError("a pile of more than 64 cards")
            self.plen[t] = len(pile)
            for k in range(len(pile)):
                self.piles[t][k] = pile[k] - off
        for b in state.builds:
            if self.add_build(s, <uint64_t>(b.cards >> off), b.value, b.owners.bit_length() - 1,
                              b.multiple, b.creator, 0, 0) < 0:
                raise PositionError(f"more than {TG_MAXB} builds")
        for seat, v in state.claims:
            s.claims |= (<uint64_t>1) << (seat * 16 + v)
        return 0

    def _walk_cost(self, state, int n, uint64_t seed):
        """A measurement (``scripts/compound_turn_cost.py``): ``n`` random turns of the
        seat to move of ``state``, each a walk from the start that takes one step at a time,
        uniformly among the steps some legal turn continues (:meth:`probe`) and ending
        the turn where it may end: the cheapest random turn this generator makes (not
        uniform over the turns; the maximal filter and the insist rules left out). Each
        walk starts with an empty :meth:`probe` memo, as a new position would. Returns
        (the steps walked, the end table of the last walk as :meth:`list_state` gives it
        with ``ends``)."""
        cdef TState s0, s, nx
        cdef Rng64 rng
        cdef int64_t i, j, hi, nlive, total = 0
        cdef int64_t* live = NULL
        cdef int64_t caplive = 0
        cdef uint64_t r
        cdef int ends
        if n < 1:
            raise ValueError(f"n must be at least 1, not {n}")
        rng.state = seed
        self.load_state(state, &s0)
        self.pm_check()
        s = s0
        try:
            with nogil:
                for i in range(n):
                    _tset_reset(&self.pmemo)
                    s = s0
                    while True:
                        self.ncoll = 0
                        self.collecting = True
                        try:
                            self.expand(&s)
                        finally:
                            self.collecting = False
                        hi = self.ncoll
                        if hi > caplive:
                            free(live)
                            caplive = 2 * hi
                            live = <int64_t*>malloc(caplive * sizeof(int64_t))
                            if live == NULL:
                                with gil:
                                    raise MemoryError()
                        nlive = 0
                        for j in range(hi):
                            nx = self.coll[j]        # (a copy: probing may move the buffer)
                            if self.probe(&nx):     # (an end table answers 1 at once)
                                live[nlive] = j
                                nlive += 1
                        self.ncoll = 0
                        ends = 1 if self.finished(&s) else 0
                        if nlive + ends == 0:
                            with gil:
                                raise RuntimeError("a walk reached a turn state with no way on")
                        r = rng_below(&rng, <uint64_t>(nlive + ends))
                        if <int64_t>r == nlive:
                            break
                        s = self.coll[live[r]]
                        total += 1
        finally:
            free(live)
        _end_key(&s)
        return total, self.pack(&s)

    def count_state(self, state):
        """:meth:`count` of the seat to move of the reference ``state`` of the system."""
        cdef TState s
        cdef int k
        self.load_state(state, &s)
        with nogil:
            self.search(&s)
            self.apply_maximal(&s)
        return self.total()

    def pick_into(self, state, index):
        """Make the turn at ``index`` of the canonical order (as :meth:`pick`) on the
        reference ``state`` of the system, as :meth:`push_end` makes a listed turn: its
        table, the last capturer, and under the insist rules the decision it may leave
        (True), the capture's value that of the turn's least step sequence
        (:meth:`resolve_values`). False when the hand goes on (the caller advances)."""
        from cassino.reference.african import _order_at
        cdef TState s
        cdef int64_t k
        cdef TState* e = NULL
        cdef int v
        self.load_state(state, &s)
        self.search(&s)
        if self.insist_rules:
            self.resolve_values(&s)
        self.apply_maximal(&s)
        self.sort_found()
        k, index = self.locate(index)
        e = _tset_at(&self.found, self.order[k])
        v = self.fcap[self.order[k]] if e.capcard >= 0 else 0
        return self.end_flow(state, e, &s, _order_at(self.rules, self.captured_of(e), index)
                             if e.capcard >= 0 else (), v)

    cdef bint end_flow(self, object state, const TState* e, const TState* start, tuple under,
                       int v) except -1:
        """:meth:`write_end` of the turn of ``self.mover`` from ``start`` to ``e`` (its
        capture at ``v``, 0 for none), the last capturer, and under the insist rules the
        decision it may leave: True when it does (phase ``insist``, the next seat)."""
        cdef int seat = self.mover
        pending = self.insist_of(e, start, v) if self.insist_rules else None
        self.write_end(state, e, under)
        if e.capcard >= 0:
            state.last_capturer = seat
        if pending is None:
            return False
        state.phase = "insist"
        state.insist = (seat, v, *pending)
        state.to_move = (seat + (1 if self.rules.direction == "cw" else self.players - 1)
                         ) % self.players
        return True

    cdef int write_end(self, object state, const TState* e, tuple under) except -1:
        """Make the end table ``e`` of a turn of ``self.mover`` on the reference ``state``:
        its hand, the loose cards, the builds (a build the turn left as it was keeps its
        object), the piles (the captured cards in the order ``under``, bottom first, under
        the capturing card; ascending when ``under`` does not order them all) and the
        claims. Every list it changes is a new one (snapshots keep the old), and nothing is
        written when the piles cannot lose the cards the turn takes (PositionError)."""
        from cassino.reference.african import position_build
        from cassino.reference.compound import Build as TurnBuild
        cdef int i, t, cut
        cdef int off = self.offset
        piles = list(state.piles)                # (checked before anything is written)
        if len(piles) != self.nteams:
            raise PositionError(f"{len(piles)} piles for {self.nteams} teams")
        for t in range(self.nteams):
            if e.depth[t]:
                cut = len(piles[t]) - e.depth[t]
                if cut < 0:
                    raise PositionError("a turn takes more cards than a pile holds")
                piles[t] = piles[t][:cut]
        hands = list(state.hands)
        hands[self.mover] = (<object>e.hand) << off
        state.hands = hands
        state.loose = (<object>e.loose) << off
        old = {b.cards: b for b in state.builds}
        builds = []
        for i in range(e.nb):
            cards = (<object>e.b[i].cards) << off
            if e.b[i].cards & 0xF:       # (aces: fixed where a grouping needs them)
                b = position_build(TurnBuild(
                    self._cards(e.b[i].cards), e.b[i].value, e.b[i].owner,
                    bool(e.b[i].frozen), e.b[i].creator), self.rules)
            else:
                b = old.get(cards)
                if (b is None or b.value != e.b[i].value or b.owners != 1 << e.b[i].owner
                        or b.multiple != bool(e.b[i].frozen) or b.creator != e.b[i].creator
                        or b.fixed or b.raised or b.due):
                    b = Build(e.b[i].value, cards, 1 << e.b[i].owner, bool(e.b[i].frozen),
                              (), creator=e.b[i].creator)
            builds.append(b)
        builds.sort(key=_build_order)
        state.builds = builds
        if e.capcard >= 0:
            if len(under) != cas_popcount64(e.capt):
                under = self.captured_of(e)         # (ascending: one order, or none given)
            piles[self.myteam] = piles[self.myteam] + list(under) + [e.capcard + off]
        state.piles = piles
        if e.claims:
            state.claims = sorted((i, v) for i in range(self.players) for v in range(16)
                                  if (e.claims >> (i * 16 + v)) & 1)
        else:
            state.claims = []
        return 0

    cdef object insist_of(self, const TState* e, const TState* start, int v):
        """After a turn of ``self.mover`` from ``start`` that left ``e`` and captured at
        ``v`` (0: none), under the insist rules: None when the turn was maximal (nothing
        to insist on), else the values of the augmented builds it left the mover's team
        (the frozen builds it made or changed, the capture's value apart), ascending: the
        reference's ``insist_values`` and ``extensions``."""
        cdef uint32_t aug
        if not self.extendable(e, start, v):
            return None
        aug = self.augmented(e, start)
        if v > 0:
            aug &= ~((<uint32_t>1) << v)
        return tuple(w for w in range(32) if (aug >> w) & 1)

    def push_end(self, state, end, tuple under, int v):
        """Make the listed turn that ends at ``end`` (a found turn's state, as
        :meth:`list_state` gives it with ``ends``) of ``state``'s seat to move on the
        reference ``state`` (:meth:`end_flow`; ``under`` the captured cards bottom first,
        ``v`` the capture's value, 0 for none): True when it leaves an insist decision
        (AMB-68), False when the hand goes on (the caller advances)."""
        cdef TState e, start
        cdef int seat = state.to_move
        self.unpack(end, &e)
        if self.insist_rules:
            self.load_state(state, &start)       # (the start table: what the turn changed)
        elif 0 <= seat < self.players:
            self.mover = seat
            self.myteam = self.team[seat]
        else:
            raise PositionError(f"no seat {seat} of {self.players} to move")
        return self.end_flow(state, &e, &start, under, v if e.capcard >= 0 else 0)

    cdef int _local(self, int card) except -1:
        cdef int c = card - self.offset
        if not 0 <= c < (40 if self.offset else 52):
            raise PositionError(f"card id {card} is not of this deck")
        return c

    cdef uint64_t _mask(self, object cards) except? 0:
        cdef uint64_t m = 0
        for x in cards:
            m |= (<uint64_t>1) << self._local(x)
        return m

    def _cards(self, uint64_t m):
        out = []
        while m:
            out.append(cas_ctz64(m) + self.offset)
            m &= m - 1
        return frozenset(out)

    def count(self, table, int mover):
        """How many turns ``mover`` has from ``table`` (the captures' orders counted by a
        factor), as :func:`cassino.reference.compound.count_turns`."""
        cdef TState s
        cdef int k
        self.load(table, mover, &s)
        with nogil:
            self.search_plain(&s)
        return self.total()

    cdef int sort_found(self) except -1 nogil:
        """``order``: the found turns' indices in the canonical order (_tg_cmp)."""
        cdef int64_t k
        free(self.order)
        self.order = <int64_t*>malloc((self.found.n + 1) * sizeof(int64_t))
        if self.order == NULL:
            with gil:
                raise MemoryError()
        self.norder = 0
        for k in range(self.found.n):
            if not self.dropped(k):
                self.order[self.norder] = k
                self.norder += 1
        _tg_sort(self.order, self.norder, _tg_cmp, &self.found)
        return 0

    cdef object table_of(self, const TState* e, object table, tuple under):
        """The end table ``e`` as a :class:`cassino.reference.compound.Table`, the captured
        cards in the order ``under`` (bottom first)."""
        from cassino.reference.compound import Build as TurnBuild, Table
        cdef int i, t
        hands = tuple(self._cards(e.hand) if t == self.mover else frozenset(table.hands[t])
                      for t in range(self.players))
        builds = tuple(sorted(
            TurnBuild(self._cards(e.b[i].cards), e.b[i].value, e.b[i].owner,
                      bool(e.b[i].frozen), e.b[i].creator) for i in range(e.nb)))
        piles = []
        for t in range(self.nteams):
            pile = tuple(table.piles[t])[:self.plen[t] - e.depth[t]]
            if t == self.myteam and e.capcard >= 0:
                pile += under + (e.capcard + self.offset,)
            piles.append(pile)
        claims = frozenset((i, v) for i in range(self.players) for v in range(16)
                           if (e.claims >> (i * 16 + v)) & 1)
        return Table(hands, self._cards(e.loose), builds, tuple(piles), claims)

    cdef tuple captured_of(self, const TState* e):
        return tuple(sorted(self._cards(e.capt)))

    cdef object orders(self, const TState* e):
        """How many orders the rules give the cards ``e`` captured (AMB-62: k! or k)."""
        cdef int n = cas_popcount64(e.capt)
        return factorial(n) if self.full_orders else max(n, 1)

    cdef object total(self):
        """The turns the last search found, each counted with its orders."""
        cdef int k
        total = 0
        for k in range(64):
            if self.by_k[k]:
                total += self.by_k[k] * (factorial(k) if self.full_orders else max(k, 1))
        return total

    cdef tuple locate(self, index):
        """The position in the canonical order (after :meth:`sort_found`) of the turn at
        ``index`` counting the orders, and the index among its orders."""
        cdef int64_t k
        for k in range(self.norder):
            w = self.orders(_tset_at(&self.found, self.order[k]))
            if index < w:
                return k, index
            index -= w
        raise IndexError("no turn at that index")

    def turns(self, table, int mover):
        """The turns from ``table`` in the canonical order, each as (end table with the
        captured cards ascending under the capturing card, how many orders of them the
        rules give it, whether it captures, the capture's value: 0 for none, -2 when two
        of its step sequences capture at different values)."""
        cdef TState s
        cdef int64_t k
        cdef TState* e
        cdef int n
        self.load(table, mover, &s)
        self.search_plain(&s)
        self.sort_found()
        out = []
        for k in range(self.norder):
            e = _tset_at(&self.found, self.order[k])
            out.append((self.table_of(e, table, self.captured_of(e)), self.orders(e),
                        e.capcard >= 0, self.fcap[self.order[k]]))
        return out

    def pick(self, table, int mover, index):
        """The turn at ``index`` of the canonical order, each turn followed by the other
        orders of its captured cards (cassino.reference.african's ``_order_at``): (end
        table, whether it captures, the capture's value as in :meth:`turns`)."""
        from cassino.reference.african import _order_at
        cdef TState s
        cdef int64_t k
        cdef TState* e
        cdef int n
        self.load(table, mover, &s)
        self.search_plain(&s)
        self.sort_found()
        k, index = self.locate(index)
        e = _tset_at(&self.found, self.order[k])
        under = _order_at(self.rules, self.captured_of(e), index)
        return (self.table_of(e, table, under), e.capcard >= 0, self.fcap[self.order[k]])

    def ends(self, table, int mover):
        """The end tables of the turns (the captured cards in one order, ascending) as
        :meth:`cassino.reference.compound.Table.key` gives them, in the search's order."""
        cdef TState s
        cdef int64_t k
        self.load(table, mover, &s)
        self.search_plain(&s)
        return [self.table_of(_tset_at(&self.found, k), table,
                              self.captured_of(_tset_at(&self.found, k))).key()
                for k in range(self.found.n)]

    # -- whole hands in C (African Cassino with free captures: compound_random_hand)
    cdef uint64_t orders64(self, int k) noexcept nogil:
        """:meth:`orders` of ``k`` captured cards, 0 past 20 (past 64 bits)."""
        cdef uint64_t f = 1
        cdef int i
        if not self.full_orders:
            return <uint64_t>(k if k > 1 else 1)
        if k > 20:
            return 0
        for i in range(2, k + 1):
            f *= <uint64_t>i
        return f

    cdef bint total64(self, uint64_t* out) noexcept nogil:
        """:meth:`total` into ``out``; False when it does not fit in 64 bits."""
        cdef uint64_t t = 0, f, add
        cdef int k
        for k in range(64):
            if self.by_k[k]:
                f = self.orders64(k)
                if f == 0 or <uint64_t>self.by_k[k] > (<uint64_t>0xFFFFFFFFFFFFFFFFULL) // f:
                    return False
                add = <uint64_t>self.by_k[k] * f
                if t > (<uint64_t>0xFFFFFFFFFFFFFFFFULL) - add:
                    return False
                t += add
        out[0] = t
        return True

    cdef void pile_under(self, uint64_t capt, uint64_t index, int team) noexcept nogil:
        """Put the captured cards ``capt`` on ``team``'s pile in the order at ``index`` of
        cassino.reference.african's ``_orders`` (``_order_at``)."""
        cdef int8_t rest[64]
        cdef int n = 0, k, i, j
        cdef uint64_t f
        while capt:
            rest[n] = <int8_t>cas_ctz64(capt)
            n += 1
            capt &= capt - 1
        if n > 1 and not self.full_orders:
            i = <int>index                   # (which card is second: the rest ascending)
            for j in range(n):
                if j != i:
                    self.piles[team][self.plen[team]] = rest[j]
                    self.plen[team] += 1
            self.piles[team][self.plen[team]] = rest[i]
            self.plen[team] += 1
            return
        for k in range(n - 1, -1, -1):       # (the factorial number system, high digit first)
            f = self.orders64(k)
            i = <int>(index // f)
            index %= f
            self.piles[team][self.plen[team]] = rest[i]
            self.plen[team] += 1
            for j in range(i, n - 1):
                rest[j] = rest[j + 1]
            n -= 1

    cdef int c_turn(self, TState* table, Rng64* rng) except -1 nogil:
        """One uniformly random turn of ``self.mover`` from ``table`` (the hands and piles
        in the generator's context), as CompoundState._random_turn draws it; returns
        whether it captured (its value into ``turn_v``: 0 for none; under the insist
        rules the value of the turn's least step sequence, :meth:`resolve_values`)."""
        cdef TState s = table[0]
        cdef TState* e
        cdef uint64_t tot, idx = 0, w
        cdef int64_t k
        cdef int t
        cdef bint wide = False
        s.hand = self.hands[self.mover]
        self.search(&s)
        if self.insist_rules:
            self.resolve_values(&s)
        self.apply_maximal(&s)
        self.sort_found()
        if not self.wide_draws and self.total64(&tot):
            idx = rng_below(rng, tot)
            k = 0
            while True:
                e = _tset_at(&self.found, self.order[k])
                w = self.orders64(cas_popcount64(e.capt))
                if idx < w:
                    break
                idx -= w
                k += 1
        else:                                # (more turns than 64 bits count: Python's)
            wide = True
            with gil:
                self.wide_pick(rng, &k)
            e = _tset_at(&self.found, self.order[k])
        self.turn_v = self.fcap[self.order[k]]
        self.hands[self.mover] = e.hand
        table.loose = e.loose
        table.claims = e.claims
        table.nb = e.nb
        memset(table.b, 0, sizeof(table.b))
        memcpy(table.b, e.b, e.nb * sizeof(TBuild))
        for t in range(self.nteams):
            self.plen[t] -= e.depth[t]
        if e.capcard < 0:
            return 0
        if not wide:
            self.pile_under(e.capt, idx, self.myteam)
        else:
            with gil:
                self.wide_under()
        self.piles[self.myteam][self.plen[self.myteam]] = e.capcard
        self.plen[self.myteam] += 1
        return 1

    cdef int wide_pick(self, Rng64* rng, int64_t* k) except -1:
        """:meth:`c_turn`'s draw past 64 bits, with Python's integers: the turn's place in
        ``order`` into ``k``, the order of its captured cards kept for :meth:`wide_under`."""
        from cassino._rng import Rng
        from cassino.reference.african import _order_at
        r = Rng(rng.state)
        got, at = self.locate(r.below(self.total()))
        rng.state = r.state
        k[0] = got
        self.wide_order = _order_at(self.rules, self.captured_of(
            _tset_at(&self.found, self.order[got])), at)
        return 0

    cdef int wide_under(self) except -1:
        """Put the captured cards of :meth:`wide_pick`'s turn on the mover's pile, in its
        order."""
        for c in self.wide_order:
            self.piles[self.myteam][self.plen[self.myteam]] = <int8_t>(c - self.offset)
            self.plen[self.myteam] += 1
        self.wide_order = None
        return 0

    # -- the house variant's insisting in C (AMB-68: the reference's african.extensions)
    cdef bint ext_grow(self, int start, uint64_t used, uint64_t* chosen) noexcept nogil:
        """The maximal families of disjoint groups from ``chosen`` on, into ``ext``; False
        past TG_EXTS families or TG_EXT_NODES steps (``lim_ext_nodes``)."""
        cdef int i, j, n
        self.ext_nodes += 1
        if self.ext_nodes > self.lim_ext_nodes:
            return False
        for i in range(self.ngrp):
            if not (used & self.grp[i]):
                break
        else:                                # (no group fits: a maximal family, once)
            for n in range(self.next):
                if memcmp(&self.ext[n * TG_TARGETS], chosen, TG_TARGETS * sizeof(uint64_t)) == 0:
                    return True
            if self.next == TG_EXTS:
                return False
            memcpy(&self.ext[self.next * TG_TARGETS], chosen, TG_TARGETS * sizeof(uint64_t))
            self.next += 1
            return True
        for i in range(start, self.ngrp):
            if not (used & self.grp[i]):
                j = self.grp_t[i]
                chosen[j] |= self.grp[i]
                if not self.ext_grow(i + 1, used | self.grp[i], chosen):
                    return False
                chosen[j] &= ~self.grp[i]
        return True

    cdef int ext_cmp(self, int a, int b) noexcept nogil:
        """The reference's order of extensions: by (target, cards ascending) pairs."""
        cdef const uint64_t* x = &self.ext[a * TG_TARGETS]
        cdef const uint64_t* y = &self.ext[b * TG_TARGETS]
        cdef int i = 0, j = 0, cx, cy
        cdef uint64_t mx, my
        while True:
            while i < self.ntgt and not x[i]:
                i += 1
            while j < self.ntgt and not y[j]:
                j += 1
            if i == self.ntgt or j == self.ntgt:
                return (i < self.ntgt) - (j < self.ntgt)
            if self.tkey[i] != self.tkey[j]:
                return -1 if self.tkey[i] < self.tkey[j] else 1
            mx = x[i]
            my = y[j]
            while mx and my:
                cx = cas_ctz64(mx)
                cy = cas_ctz64(my)
                if cx != cy:
                    return -1 if cx < cy else 1
                mx &= mx - 1
                my &= my - 1
            if mx or my:
                return 1 if mx else -1
            i += 1
            j += 1

    cdef int ext_find(self, const TState* table, int v, uint32_t aug) except -1 nogil:
        """The maximal extensions (the reference's ``african.extensions``) of a capture
        at ``v`` (0: none) and of augments of the builds of the values ``aug`` (a bit a
        value) from ``table``, into ``ext`` (``next`` of them; the targets in ``tval``,
        their keys in ``tkey``): 0 when there is nothing to add (maximal), 1 when found,
        9 past the limits of the search."""
        cdef int i, k, a, nsum
        cdef uint64_t sub, g, chosen[TG_TARGETS]
        cdef bint taken_builds = False
        if v > 0:
            aug &= ~((<uint32_t>1) << v)
        self.ntgt = 0
        if v > 0:
            self.tval[0] = v
            self.tkey[0] = 0
            self.ntgt = 1
        while aug:
            k = cas_ctz64(aug)
            aug &= aug - 1
            if self.ntgt == TG_TARGETS:
                return 9
            self.tval[self.ntgt] = k
            self.tkey[self.ntgt] = k
            self.ntgt += 1
        if not self.ntgt:
            return 0
        if cas_popcount64(table.loose) > 16:
            return 9
        self.ngrp = 0
        sub = table.loose
        while sub:                           # (every group of loose cards of a target)
            a = 0
            nsum = 0
            g = sub
            while g:
                k = _tg_rank(cas_ctz64(g))
                if k == 1:
                    a += 1
                else:
                    nsum += k
                g &= g - 1
            for i in range(self.ntgt):
                if self.fits(nsum, a, self.tval[i]):
                    if self.ngrp == TG_GROUPS:
                        return 9
                    self.grp[self.ngrp] = sub
                    self.grp_t[self.ngrp] = i
                    self.ngrp += 1
            sub = (sub - 1) & table.loose
        if v > 0:
            for i in range(table.nb):
                if table.b[i].value == v:
                    taken_builds = True
        if not self.ngrp and not taken_builds:
            return 0
        self.next = 0
        self.ext_nodes = 0
        memset(chosen, 0, sizeof(chosen))
        if self.ngrp and not self.ext_grow(0, 0, chosen):
            return 9
        if not self.next:                    # (only builds of the capture's value to take)
            memset(&self.ext[0], 0, TG_TARGETS * sizeof(uint64_t))
            self.next = 1
        return 1

    cdef void ext_order(self, int* order) noexcept nogil:
        """``order``: the indices of the ``next`` extensions found, in the reference's order
        (an insertion sort: extensions are few)."""
        cdef int i, j, k
        for i in range(self.next):
            order[i] = i
        for i in range(1, self.next):
            k = order[i]
            j = i - 1
            while j >= 0 and self.ext_cmp(order[j], k) > 0:
                order[j + 1] = order[j]
                j -= 1
            order[j + 1] = k

    def extensions(self, state):
        """The maximal extensions of the insist decision pending in the reference
        ``state`` (``state.insist``: the mover, the capture's value, the augmented builds'
        values), as the reference's ``african.extensions`` lists them: each a dict from
        target (0 for the capture, else the build's value) to the loose cards it adds,
        ascending, in the reference's order. None past the limits of the search (the
        caller asks the reference)."""
        cdef TState s
        cdef uint32_t aug = 0
        cdef int i, j, n, got, order[TG_EXTS]
        cdef uint64_t m
        _, v, *augmented = state.insist
        for w in augmented:
            if not 0 < w < 32:
                raise PositionError(f"no build value {w} to extend")
            aug |= (<uint32_t>1) << w
        self.load_state(state, &s)
        got = self.ext_find(&s, v, aug)
        if got == 9:
            return None
        if got == 0:
            return []
        n = self.next
        self.ext_order(order)
        out = []
        for i in range(n):
            ext = {}
            for j in range(self.ntgt):
                m = self.ext[order[i] * TG_TARGETS + j]
                if m:
                    ext[self.tkey[j]] = tuple(sorted(self._cards(m)))
            out.append(dict(sorted(ext.items())))
        return out

    cdef int c_insist(self, TState* table, const TState* before, int v, Rng64* rng,
                      int* last) except -1 nogil:
        """After a turn of ``self.mover`` from ``before`` that left ``table`` and captured
        at ``v`` (0: none): the insist decision at random, as the reference's _after_turn
        and _push_decision (accept or insist, then one maximal extension); returns the
        moves made (0 when the turn was maximal), 9 past the limits of the search."""
        cdef int i, j, k, got, pick, order[TG_EXTS]
        cdef uint64_t g, taken
        cdef TBuild nb_
        got = self.ext_find(table, v, self.augmented(table, before))
        if got != 1:
            return got
        # the opposing seat accepts (0) or insists (1); the mover picks an extension
        if rng_below(rng, 2) == 0:
            return 1
        self.ext_order(order)
        pick = order[rng_below(rng, <uint64_t>self.next)]
        taken = 0
        if v > 0:
            taken = self.ext[pick * TG_TARGETS]
            for i in range(table.nb - 1, -1, -1):
                if table.b[i].value == v:
                    taken |= table.b[i].cards
                    self.del_build(table, i)
        if taken:                            # (under the capturing card, ascending)
            k = self.piles[self.myteam][self.plen[self.myteam] - 1]
            self.plen[self.myteam] -= 1
            while taken:
                self.piles[self.myteam][self.plen[self.myteam]] = cas_ctz64(taken)
                self.plen[self.myteam] += 1
                taken &= taken - 1
            self.piles[self.myteam][self.plen[self.myteam]] = k
            self.plen[self.myteam] += 1
            last[0] = self.mover
        for j in range(1 if v > 0 else 0, self.ntgt):
            g = self.ext[pick * TG_TARGETS + j]
            if not g:
                continue
            for i in range(table.nb):
                if table.b[i].value == self.tval[j]:
                    nb_ = table.b[i]
                    self.del_build(table, i)
                    self.add_build(table, nb_.cards | g, nb_.value, nb_.owner, 1,
                                   nb_.creator, 0, 0)
                    break
        for j in range(self.ntgt):
            table.loose &= ~self.ext[pick * TG_TARGETS + j]
        return 2

    def random_hand(self, uint64_t seed, int dealer, int leader, int step, deck=None):
        """A hand played out at random as cassino.reference.random_hand plays it: from
        ``seed`` (its shuffle of the system's ids, then its draws), or ``deck`` (the
        dealt cards in order) with ``seed`` the RNG's state after its shuffle. The layout
        deal (the layout from the middle of the deck, the hands a card at a time), later
        deals from the stock, the insist decisions (AMB-68), the leftovers to the last
        capturer. ``leader``: who leads each deal; ``step``: the next seat is
        ``seat + step``. Returns (the piles, bottom first; the number of moves), or None
        when the reference must play the hand (an insist search past its limits)."""
        cdef Rng64 rng
        cdef uint8_t ids[190]
        cdef uint8_t cards[64]
        cdef TState table, before
        cdef int n = self.players, per = self.rules.hand_size, ndeck = 0
        cdef int mid, i, j, pos, nstock, seat, last = -1, turns = 0, got = 0
        cdef int nids = self.rules.num_ids, size = 40 if self.offset else 52
        cdef uint8_t stock[64]
        cdef uint64_t left
        if not _c_hands(self.rules):
            raise RulesError(f"{self.rules.system} is not played wholly in C (_c_hands)")
        if not (0 <= dealer < n and 0 <= leader < n and (step == 1 or step == n - 1)):
            raise ValueError(f"dealer and leader must be seats from 0 to {n - 1} and step "
                             f"1 or {n - 1}, not {dealer}, {leader}, {step}")
        rng.state = seed
        if deck is None:
            shuffle_deck(&rng, ids, nids)
            for i in range(nids):
                if ids[i] >= self.offset:
                    cards[ndeck] = ids[i] - self.offset
                    ndeck += 1
        else:
            if len(deck) != size:
                raise PositionError(f"deck must hold the {size} cards of the system")
            left = 0
            for c in deck:
                cards[ndeck] = self._local(c)
                left |= (<uint64_t>1) << cards[ndeck]
                ndeck += 1
            if cas_popcount64(left) != size:
                raise PositionError("deck must hold each card of the system once")
        memset(&table, 0, sizeof(TState))
        memset(self.hands, 0, sizeof(self.hands))
        memset(self.piles, 0, sizeof(self.piles))
        memset(self.plen, 0, sizeof(self.plen))
        table.capcard = -1
        mid = ndeck // 2 - self.rules.table_cards // 2
        nstock = 0
        for i in range(ndeck):
            if mid <= i < mid + self.rules.table_cards:
                table.loose |= (<uint64_t>1) << cards[i]
            else:
                stock[nstock] = cards[i]
                nstock += 1
        pos = 0
        with nogil:
            while True:
                # (a deal: one card at a time in play order from the dealer's next seat)
                j = min(n * per, nstock - pos)
                for i in range(j):
                    self.hands[(dealer + step * (1 + i % n)) % n] |= (
                        (<uint64_t>1) << stock[pos + i])
                pos += j
                seat = leader
                while True:
                    self.mover = seat
                    self.myteam = self.team[seat]
                    if self.insist_rules:
                        before = table
                    got = self.c_turn(&table, &rng)
                    if got:
                        last = seat
                    turns += 1
                    if self.insist_rules:
                        got = self.c_insist(&table, &before, self.turn_v if got else 0, &rng,
                                            &last)
                        if got == 9:
                            break
                        turns += got
                    for i in range(n):
                        if self.hands[i]:
                            break
                    else:
                        break
                    seat = (seat + step) % n
                    while not self.hands[seat]:
                        seat = (seat + step) % n
                if got == 9 or pos >= nstock:
                    break
        if got == 9:
            self.cached = False
            return None
        left = table.loose
        for i in range(table.nb):
            left |= table.b[i].cards
        if last >= 0:
            while left:
                self.piles[self.team[last]][self.plen[self.team[last]]] = cas_ctz64(left)
                self.plen[self.team[last]] += 1
                left &= left - 1
        self.cached = False
        return [[self.piles[t][i] + self.offset for i in range(self.plen[t])]
                for t in range(self.nteams)], turns



# -- the State of the compound systems ------------------------------------------------------

import threading as _threading
from cassino.reference.african import _mask, capture_value
from cassino.reference.base import bits
from cassino.reference.compound import TurnBuilder as _TurnBuilder
from cassino.reference.deals import first_player

# the generators of each thread (a generator's buffers serve one search at a time, and its
# methods run Python code, where another thread may take the GIL)
_TURN_GENS = _threading.local()


def turn_generator(rules):
    """The core's turn generator for ``rules`` (a compound system): one a rule set and a
    thread."""
    gens = _TURN_GENS.__dict__.setdefault("gens", {})
    gen = gens.get(rules)
    if gen is None:
        gen = gens[rules] = _TurnGen(rules)
    return gen


class _CoreTurnBuilder(_TurnBuilder):
    """The reference's TurnBuilder (cassino.reference.compound) over the core's turn
    states: the steps, whether a legal turn continues a state (:meth:`_TurnGen.probe`) and
    the end-of-turn rules in C, the turn states bytes. Made for a CompoundState whose
    position does not change while it is used (the State makes a new one after a push or
    pop)."""

    def __init__(self, state, one):
        _TurnBuilder.__init__(self, one, state._turn_table(), state.to_move)
        self._owner = state
        self._start = self._gen().step_start(state)

    def _gen(self):
        return turn_generator(self._owner.rules)     # (the calling thread's)

    def _successors(self, at):
        return self._gen().step_successors(self._owner, at)

    def _successors_of(self, at, card):
        return self._gen().step_successors(self._owner, at, -1 if card is None else card)

    def _live(self, states):
        return self._gen().step_live(self._owner, states)

    def _finished(self, at):
        return self._gen().step_finished(self._owner, at)

    def _as_state(self, at):
        return self._gen().step_state(self._owner, at)


class CompoundState(_RefState):
    """The State of the compound systems (African Cassino, the Italian house variant) when
    the core is built: the reference's State's fields and API, whose turns the core lists
    (with their least step sequences, in the reference's order: ``legal_moves``,
    ``move_at``, perft), counts (:meth:`count_moves`) and picks in random hands
    (:func:`compound_random_hand`, ``cassino.playouts``) with its own generator
    (core/compound.pxi), ``capture_extent=maximal`` included. The step interface and
    parsing a turn run on the core's turn states (:class:`_CoreTurnBuilder`,
    :meth:`_TurnGen.least_turn`). A push makes the end table the core found for the turn
    (:meth:`_TurnGen.push_end`: the table, the last capturer, the insist decision a turn
    leaves), then the core's game flow (:meth:`_advance`); a pop restores the core's
    snapshot. The insist decision's maximal extensions are the core's
    (:meth:`_TurnGen.extensions`), and so is pushing its moves (:meth:`_push_decision`)."""

    def _core_counts(self):
        return not self.insist and not self.is_over

    def _base_turns(self):
        if not self._core_counts():
            return _RefState._base_turns(self)
        key = self._turn_key()
        cached = self.__dict__.get("_turn_cache")
        if cached is not None and cached[0] == key:
            return cached[1]
        got = turn_generator(self.rules).list_state(self, True)
        ends = self._ends_by_id(True)
        out = []
        for base, k, end in got:
            out.append((base, k))
            ends[id(base)] = (end, base)
        self._turn_cache = (key, out)
        return out

    # -- the end tables of the turns made into moves (for push)
    def _ends_by_id(self, fresh=False):
        """The end table (a turn state of the core, bytes) of each base turn the core gave
        this state (by ``id``: the entry keeps its turn alive, so an id names it alone);
        ``fresh`` starts a new map (a new listing of the turns)."""
        d = self.__dict__
        ends = d.get("_base_ends")
        if ends is None or fresh or len(ends) > _MAX_BASE_ENDS:
            ends = d["_base_ends"] = {}
            if not fresh:
                d.pop("_turn_cache", None)      # (its turns' ends are gone: list anew)
        return ends

    def _made_pair(self):
        """(the reference's ``_made``: move -> Turn, move -> (end table, order of the
        captured cards, base turn)) for the position as it is; found again by the
        position's key only after a push or pop (``_version``) or when the seat to move or
        the loose cards were changed by hand."""
        d = self.__dict__
        got = d.get("_made_v")
        if (got is not None and got[0] == self._version and got[1] == self.to_move
                and got[2] == self.loose):
            return got[3]
        key = self._turn_key()
        made = d.get("_made_for")
        if made is None or made[0] != key:
            made = d["_made_for"] = (key, {}, {})
        pair = (made[1], made[2])
        d["_made_v"] = (self._version, self.to_move, self.loose, pair)
        return pair

    @property
    def _made(self):
        return self._made_pair()[0]

    def _expand(self, base, order, keep=True):
        m, turn = _RefState._expand(self, base, order, keep)
        if keep:
            got = self._ends_by_id().get(id(base))
            if got is not None:
                self._made_pair()[1][m] = (got[0], order, base)
        return m, turn

    def _turn_builder(self, one):
        if self.insist or self.is_over:
            return _RefState._turn_builder(self, one)
        return _CoreTurnBuilder(self, one)

    def _least_of(self, one, turn, builder):
        if not isinstance(builder, _CoreTurnBuilder):
            return _RefState._least_of(self, one, turn, builder)
        got = turn_generator(self.rules).least_turn(self, builder._top(), True)
        if got is None:
            return None
        base, end = got
        self._ends_by_id()[id(base)] = (end, base)
        return base

    def _turn_at(self, index):
        if not self._core_counts() or self._listed_turns() is not None:
            return _RefState._turn_at(self, index)
        from cassino.reference.african import _captured, _order_at
        if not 0 <= index < self._turn_count():
            raise IndexError(f"no move at index {index}: there are {self._turn_count()}")
        base, at, end = turn_generator(self.rules).turn_at(self, index)
        self._ends_by_id()[id(base)] = (end, base)
        return self._expand(base, _order_at(self.rules, _captured(base), at))[0]

    def _turn_count(self):
        if not self._core_counts():
            return _RefState._turn_count(self)
        # (the generator keeps its last search: counting the same state again reads it)
        return turn_generator(self.rules).count_state(self)

    # -- push, pop and the game flow in the core
    def push(self, move):
        """Play a legal move; the state is unchanged if it is illegal. Returns the move."""
        if type(move) is Move and not self.insist:
            pair = self._made_pair()
            got = pair[1].get(move)
            if got is not None:             # (a turn made into a move here: listed or read)
                self._push_end(move, got, pair)
                return move
        return _RefState.push(self, move)

    def _push_unchecked(self, m):
        if self.insist or m.kind != MoveKind.TURN:
            _RefState._push_unchecked(self, m)      # (the insist decision: _push_decision)
            return
        pair = self._made_pair()
        got = pair[1].get(m)
        if got is None:
            # (a turn whose end table the core did not give: the Turn's table)
            self.slow_pushes += 1
            _RefState._push_unchecked(self, m)
            return
        self._push_end(m, got, pair)

    def _push_end(self, m, got, pair):
        """Push the turn ``m`` whose end table, order of captured cards and base turn are
        ``got``, ``pair`` the moves made for the position (restored by a pop)."""
        end, order, base = got
        self._version += 1
        self._stack.append(self._snapshot() + (pair,))
        self._history.append(m)
        try:
            pending = turn_generator(self.rules).push_end(self, end, order, capture_value(base))
        except BaseException:
            # (push_end checks before it writes: the state is as it was)
            self._stack.pop()
            self._history.pop()
            raise
        if not pending:
            self._advance()

    slow_pushes = 0
    """Turns pushed from the reference's table of the turn, not the core's end table
    (none of the turns the State lists, reads or makes by index: tests check it)."""

    def _snapshot(self):
        # (immutable: a clone shares its snapshots; the fields a compound move changes, and
        # for a turn pushed from its end table the moves made for the position)
        return (self.to_move, tuple(self.hands), self.loose, tuple(self.builds),
                tuple([tuple(p) for p in self.piles]), tuple(self.stock), self.last_capturer,
                self.phase, tuple(self.claims), self.insist, len(self.discard), self.plucked)

    def pop(self):
        """Undo the last move and return it."""
        if not self._stack:
            raise IndexError("pop from a state with no moves pushed")
        self._version += 1
        snap = self._stack.pop()
        (self.to_move, hands, self.loose, builds, piles, stock, self.last_capturer,
         self.phase, claims, self.insist, ndiscard, self.plucked) = snap[:12]
        if len(snap) > 12:     # (the moves made for the position: no new key to find them)
            self.__dict__["_made_v"] = (self._version, self.to_move, self.loose, snap[12])
        self.hands = list(hands)
        self.builds = list(builds)
        self.piles = [list(p) for p in piles]
        self.stock = list(stock)
        self.claims = list(claims)
        del self.discard[ndiscard:]
        return self._history.pop()

    def _advance(self):
        """After a move: the next seat holding cards, else the next deal from the stock,
        else the end of the hand (the cards left on the table to the last capturer, as
        ``leftovers_to`` says; the claims gone)."""
        r = self.rules
        cdef int n = r.players
        cdef int step = 1 if r.direction == "cw" else n - 1
        cdef int seat, i, size
        hands = self.hands
        if any(hands):
            seat = (self.to_move + step) % n
            while not hands[seat]:
                seat = (seat + step) % n
            self.to_move = seat
            return
        if self.stock:
            if r.deal_order == "layout_middle":
                # (a later deal one card at a time in play order from the dealer's next seat)
                size = n * r.deal_size(len(self.stock))
                hands = list(hands)
                for i in range(min(size, len(self.stock))):
                    hands[(self.dealer + step * (1 + i % n)) % n] |= 1 << self.stock[i]
                self.hands = hands
                self.stock = self.stock[size:]
            else:
                self.hands = list(hands)
                self.stock = list(self.stock)
                self._deal_round()
            self.plucked = 0
            seat = first_player(r, self.dealer)
            while not self.hands[seat]:
                seat = (seat + step) % n
            self.to_move = seat
            return
        left = self.loose
        for b in self.builds:
            left |= b.cards
        if left:
            cards = list(bits(left))
            if r.leftovers_to == "last_to_play":
                team = r.team_of(self.to_move)
            elif self.last_capturer is not None and r.leftovers_to != "nobody":
                team = r.team_of(self.last_capturer)
            else:
                team = -1
                self.discard.extend(cards)
            if team >= 0:
                piles = list(self.piles)
                piles[team] = piles[team] + cards
                self.piles = piles
        self.loose = 0
        self.builds = []
        self.to_move = (self.to_move + step) % n
        if self.is_over:
            self.claims = []

    def play_hand(self, policies, rng_states):
        """Play the hand to its end with built-in players: ``policies[seat]`` is
        ``"random"``, ``"greedy"`` or ``"expert"`` and ``rng_states[seat]`` the state of that
        player's :class:`~cassino.Rng`. Every move is pushed. Returns ``(moves played, the
        players' new RNG states)``: the same moves as those players choosing from each
        seat's view, the greedy player's scores computed in C
        (:func:`cassino.game.play_compound_hand`)."""
        from cassino.game import play_compound_hand
        return play_compound_hand(self, policies, rng_states)

    # -- the insist decision (AMB-68)
    def _extensions(self):
        got = turn_generator(self.rules).extensions(self)
        return _RefState._extensions(self) if got is None else got

    def _push_decision(self, m):
        """Push a move of the insist decision: accept (the hand goes on), insist (the
        mover extends), or the extension of the mover's choice: the loose cards and the
        builds of the capture's value under the capturing card, ascending, and the loose
        cards added to each augmented build."""
        from cassino.reference.african import position_build
        from cassino.reference.compound import Build as TurnBuild
        mover, v, *augmented = self.insist
        r = self.rules
        if self.phase == "insist" and m.kind == MoveKind.INSIST:
            self.phase = "extend"
            self.to_move = mover
            return
        if self.phase == "extend":
            ext = self._extension_moves()[m]
            team = r.team_of(mover)
            taken = _mask(ext.get(0, ()))
            builds = []
            for b in self.builds:
                if v and b.value == v:
                    taken |= b.cards
                else:
                    builds.append(b)
            if taken:
                # (the cards added go under the capturing card, which stays on top)
                piles = list(self.piles)
                pile = piles[team]
                piles[team] = pile[:-1] + list(bits(taken)) + pile[-1:]
                self.piles = piles
                self.last_capturer = mover
            added = _mask(ext.get(0, ()))
            for w in augmented:
                add = _mask(ext.get(w, ()))
                if not add:
                    continue
                added |= add
                for i, b in enumerate(builds):
                    if b.value == w:
                        cards = b.cards | add
                        builds[i] = position_build(TurnBuild(
                            frozenset(bits(cards)), w, b.owners.bit_length() - 1, True,
                            b.creator), r)
                        break
            builds.sort(key=_build_order)
            self.builds = builds
            self.loose &= ~added
        self.phase = "start"
        self.insist = ()
        self.to_move = mover
        self._advance()

    def _random_turn(self, rng):
        """Make a uniformly random legal move, as ``_push_random`` (the same draw, the same
        move), without recording it: for hands played to the end and thrown away."""
        if not self._core_counts():
            self._push_random(rng)
            return
        index = rng.below(self._turn_count())
        # (under the insist rules a capture value is its least step sequence's, which
        # decides what an insist may extend: never ambiguous)
        pending = turn_generator(self.rules).pick_into(self, index)
        self._version += 1
        if not pending:
            self._advance()


_MAX_BASE_ENDS = 1 << 14
"""Base turns whose end tables a CompoundState keeps before it starts anew."""


def _c_hands(rules):
    """Whether :meth:`_TurnGen.random_hand` plays ``rules``' hands: the layout deal, free,
    maximal or insisted captures, the leftovers to the last capturer."""
    return (rules.capture_extent in ("free", "opponent_insist", "maximal")
            and rules.deck_size == (40 if "italian" in rules.mechanics else 52)
            and rules.deal_order == "layout_middle" and rules.deal_rest == "exact"
            and rules.last_size == rules.hand_size and rules.leftovers_to == "last_capturer")


def whole_hand(rules, seed, int dealer=0, deck=None):
    """A random hand of ``rules`` from ``seed`` played wholly in C (:meth:`_TurnGen.random_hand`,
    the draws of cassino.reference.random_hand; with ``deck``, those dealt cards and
    ``seed`` the RNG's state after the shuffle): (its HandScore, the piles bottom first, the
    number of moves), or None for a system :func:`_c_hands` leaves to CompoundState and
    for a hand the reference must play (:meth:`_TurnGen.random_hand`)."""
    from cassino.reference.african import compound_score
    from cassino.reference.deals import first_player
    if not _c_hands(rules):
        return None
    if not 0 <= dealer < rules.players:
        raise ValueError(f"dealer must be a seat from 0 to {rules.players - 1}")
    got = turn_generator(rules).random_hand(
        seed & 0xFFFFFFFFFFFFFFFF, dealer, first_player(rules, dealer),
        1 if rules.direction == "cw" else rules.players - 1, deck)
    if got is None:
        return None
    piles, n = got
    return compound_score(rules, piles), piles, n


def compound_random_hand(rules, seed, int dealer=0):
    """:func:`cassino.reference.random_hand` of a compound system, the turns picked by the
    core: the same points and number of moves (African Cassino wholly in C,
    :func:`whole_hand`)."""
    hand = whole_hand(rules, seed, dealer)
    if hand is not None:
        return hand[0].totals(), hand[2]
    from cassino._rng import Rng, shuffled_deck
    rng = Rng(seed)
    deck = rules.deck_cards(shuffled_deck(rng, rules.num_ids))
    state = CompoundState.new_hand(rules, dealer, deck)
    n = 0
    while not state.is_over:
        state._random_turn(rng)
        n += 1
    return state.hand_score().totals(), n
