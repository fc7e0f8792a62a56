# cython: language_level=3
"""The Cython core: C structs, bitmask move generation, push/pop and playouts.

It mirrors :mod:`cassino._reference` move for move; the inner loops touch no Python
objects. See docs/architecture.md.
"""

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from cpython.exc cimport PyErr_Fetch, PyErr_Restore
from cpython.ref cimport PyObject
from libc.string cimport memcpy, memset

from cassino.reference import State as _RefState, system_deck
from cassino.cards import CardSet
from cassino.errors import IllegalMoveError, MoveLimitError, NotationError, PositionError
from cassino.moves import Move, MoveKind
from cassino.position import Build, Position
from cassino.rules import Rules
from cassino.scoring import score_hand

cdef extern from *:
    """
    static inline unsigned long long cas_mulhi(unsigned long long a, unsigned long long b,
                                               unsigned long long *lo) {
        __uint128_t m = (__uint128_t)a * b;
        *lo = (unsigned long long)m;
        return (unsigned long long)(m >> 64);
    }
    """
    ctypedef unsigned long long u128 "__uint128_t"
    unsigned long long cas_mulhi(unsigned long long a, unsigned long long b,
                                 unsigned long long *lo) nogil

cdef enum:
    BIG_SUMS = 64
    LIST_LIMIT = 1 << 20     # DEFAULT_LIST_LIMIT, for nogil code
DEFAULT_LIST_LIMIT = LIST_LIMIT

cdef mask_t SPADES_MASK = 0
cdef mask_t PICTURES_MASK = (<mask_t>0xFFF) << 40    # J, Q, K
cdef mask_t FACE_MASK = (<mask_t>0xFFF) << 40        # (the same, for the face-card rules)
cdef int _i
for _i in range(NCARDS // 4):                        # (_core128: both copies)
    SPADES_MASK |= (<mask_t>1) << (_i * 4)
if NCARDS > 52:
    PICTURES_MASK |= PICTURES_MASK << 52
    FACE_MASK |= FACE_MASK << 52

# ---------------------------------------------------------------------------------------
# RNG: splitmix64 and Lemire's bounded integers, bit for bit as cassino._rng
# ---------------------------------------------------------------------------------------

cdef struct Rng64:
    uint64_t state

cdef inline uint64_t rng_next(Rng64* r) noexcept nogil:
    r.state += <uint64_t>0x9E3779B97F4A7C15ULL
    cdef uint64_t z = r.state
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)

cdef inline uint64_t rng_below(Rng64* r, uint64_t n) noexcept nogil:
    cdef unsigned long long low
    cdef uint64_t hi = cas_mulhi(rng_next(r), n, &low)
    cdef uint64_t t
    if low < n:
        t = (<uint64_t>0 - n) % n
        while low < t:
            hi = cas_mulhi(rng_next(r), n, &low)
    return hi

cdef void shuffle_deck(Rng64* r, uint8_t* deck, int size) noexcept nogil:
    cdef int i, j
    cdef uint8_t t
    for i in range(size):
        deck[i] = <uint8_t>i
    for i in range(size - 1, 0, -1):
        j = <int>rng_below(r, <uint64_t>(i + 1))
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t

# ---------------------------------------------------------------------------------------
# Partitions of value multisets
# ---------------------------------------------------------------------------------------

cdef bint _fill(int* cnt, int need, int maxv, int v, int max_sum) noexcept nogil:
    # choose more cards (values <= maxv, non-increasing) totalling need, then split the rest
    cdef int y
    if need == 0:
        return part_ok(cnt, v, max_sum)
    y = maxv if maxv < need else need
    while y >= 1:
        if cnt[y] > 0:
            cnt[y] -= 1
            if _fill(cnt, need - y, y, v, max_sum):
                cnt[y] += 1
                return True
            cnt[y] += 1
        y -= 1
    return False

cdef bint part_ok(int* cnt, int v, int max_sum) noexcept nogil:
    """Whether the value multiset cnt splits into groups totalling v; at most max_sum
    groups of two cards or more. Precondition: no value above v is present."""
    cdef int x = v
    cdef bint ok
    while x > 0 and cnt[x] == 0:
        x -= 1
    if x == 0:
        return True
    if x > v:
        return False
    cnt[x] -= 1
    if x == v:
        ok = part_ok(cnt, v, max_sum)
    elif max_sum == 0:
        ok = False
    else:
        ok = _fill(cnt, v - x, x, v, max_sum - 1)
    cnt[x] += 1
    return ok

cdef inline int mask_sum(Core* c, mask_t m) noexcept nogil:
    cdef int s = 0
    while m:
        s += c.p.val[cas_ctz(m)]
        m &= m - 1
    return s

cdef inline void mask_counts(Core* c, mask_t m, int* cnt) noexcept nogil:
    memset(cnt, 0, NVALUES * sizeof(int))
    while m:
        cnt[c.p.val[cas_ctz(m)]] += 1
        m &= m - 1

cdef inline int mask_maxval(Core* c, mask_t m) noexcept nogil:
    cdef int best = 0, v
    while m:
        v = c.p.val[cas_ctz(m)]
        if v > best:
            best = v
        m &= m - 1
    return best

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

# ---------------------------------------------------------------------------------------
# Move buffer
# ---------------------------------------------------------------------------------------

cdef int buf_reserve(MoveBuf* buf, size_t need) noexcept nogil:
    cdef size_t cap
    cdef CMove* moves
    if need <= buf.cap:
        return 0
    cap = buf.cap * 2 if buf.cap else 64
    while cap < need:
        cap *= 2
    moves = <CMove*>realloc(buf.moves, cap * sizeof(CMove))
    if moves == NULL:
        return -1
    buf.moves = moves
    buf.cap = cap
    return 0

cdef inline void emit(MoveBuf* buf, int card, int kind, mask_t takes, int value) noexcept nogil:
    cdef CMove* m
    if buf.overflow:
        return
    if buf.n >= buf.limit or (buf.n >= buf.cap and buf_reserve(buf, buf.n + 1) != 0):
        buf.overflow = 1
        return
    m = &buf.moves[buf.n]
    m.card = <uint8_t>card
    m.kind = <uint8_t>kind
    m.takes = takes
    m.value = <uint8_t>value
    buf.n += 1

cdef inline int cmp_moves(const void* a, const void* b) noexcept nogil:
    cdef const CMove* x = <const CMove*>a
    cdef const CMove* y = <const CMove*>b
    if x.card != y.card:
        return -1 if x.card < y.card else 1
    if x.kind != y.kind:
        return -1 if x.kind < y.kind else 1
    if x.takes != y.takes:
        return -1 if x.takes < y.takes else 1
    if x.value != y.value:
        return -1 if x.value < y.value else 1
    return 0

cdef void sort_moves(CMove* moves, size_t n) noexcept nogil:
    """Shell sort with Ciura's gaps extended by 2.25: no allocation; plain insertion sort
    for the short lists of ordinary positions."""
    cdef size_t i, j, gap
    cdef int g, ng = 9
    cdef CMove t
    cdef size_t gaps[48]
    if n <= 12:
        for i in range(1, n):
            t = moves[i]
            j = i
            while j >= 1 and cmp_moves(&moves[j - 1], &t) > 0:
                moves[j] = moves[j - 1]
                j -= 1
            moves[j] = t
        return
    gaps[0] = 1; gaps[1] = 4; gaps[2] = 10; gaps[3] = 23; gaps[4] = 57; gaps[5] = 132
    gaps[6] = 301; gaps[7] = 701; gaps[8] = 1750
    while ng < 48 and gaps[ng - 1] < n:
        gaps[ng] = gaps[ng - 1] * 9 // 4
        ng += 1
    g = ng - 1
    while g > 0 and gaps[g] >= n:
        g -= 1
    while g >= 0:
        gap = gaps[g]
        for i in range(gap, n):
            t = moves[i]
            j = i
            while j >= gap and cmp_moves(&moves[j - gap], &t) > 0:
                moves[j] = moves[j - gap]
                j -= gap
            moves[j] = t
        g -= 1


# ---------------------------------------------------------------------------------------
# Move generation (listing)
# ---------------------------------------------------------------------------------------

cdef enum:
    NOGIL_LOOSE = 10         # State methods release the GIL on tables of more loose cards
    TABLE_BITS = 12          # subset tables for up to 12 loose numeric cards

cdef struct Loose:
    # the loose numeric cards, compressed to indices 0..n-1 (ascending card ids)
    int n
    uint8_t ids[NCARDS]
    uint8_t vals[NCARDS]
    uint32_t le[NVALUES]     # compressed mask of the cards with value <= v (n <= 32 only)
    uint64_t le64[NVALUES]
    int table                # 1 if sums/maxs hold every subset
    uint8_t sums[1 << TABLE_BITS]

cdef uint32_t DIVS[1024]      # DIVS[t]: bit v set when v (1..31) divides t
cdef int _t, _v
for _t in range(1024):
    DIVS[_t] = 0
    for _v in range(1, 32):
        if _t and _t % _v == 0:
            DIVS[_t] |= (<uint32_t>1) << _v

cdef void loose_setup(Core* c, Loose* L) noexcept nogil:
    cdef mask_t m = c.h.loose
    cdef int i, v, n = 0
    cdef uint64_t sub, low
    while m:
        i = cas_ctz(m)
        v = c.p.val[i]
        if v > 0:
            L.ids[n] = <uint8_t>i
            L.vals[n] = <uint8_t>v
            n += 1
        m &= m - 1
    L.n = n
    for v in range(NVALUES):
        L.le64[v] = 0
    for i in range(n if n <= 64 else 64):   # (_core128: more than 64 is refused by the caller)
        L.le64[L.vals[i]] |= (<uint64_t>1) << i
    for v in range(1, NVALUES):
        L.le64[v] |= L.le64[v - 1]
    L.table = 1 if n <= TABLE_BITS else 0
    if L.table:
        L.sums[0] = 0
        for sub in range(1, (<uint64_t>1) << n):
            L.sums[sub] = <uint8_t>(L.sums[sub & (sub - 1)] + L.vals[cas_ctz(sub)])

cdef inline int sub_sum(Loose* L, uint64_t sub) noexcept nogil:
    cdef int s = 0
    if L.table:
        return L.sums[sub]
    while sub:
        s += L.vals[cas_ctz(sub)]
        sub &= sub - 1
    return s

cdef inline mask_t ids_mask(const uint8_t* ids, uint64_t sub) noexcept nogil:
    """The card mask of a compressed subset: bit i of ``sub`` stands for card ``ids[i]``."""
    cdef mask_t m = 0
    while sub:
        m |= (<mask_t>1) << ids[cas_ctz(sub)]
        sub &= sub - 1
    return m

cdef inline mask_t sub_cards(Loose* L, uint64_t sub) noexcept nogil:
    return ids_mask(L.ids, sub)

cdef inline void sub_counts(Loose* L, uint64_t sub, int* cnt) noexcept nogil:
    memset(cnt, 0, NVALUES * sizeof(int))
    while sub:
        cnt[L.vals[cas_ctz(sub)]] += 1
        sub &= sub - 1

cdef inline mask_t builds_union(Core* c, int* bidx, int nb, int bs) noexcept nogil:
    cdef mask_t bm = 0
    cdef int j
    for j in range(nb):
        if (bs >> j) & 1:
            bm |= c.h.builds[bidx[j]].cards
    return bm

cdef inline void create_one(Core* c, Loose* L, MoveBuf* buf, int p, int vp, uint64_t sub,
                            int total, int v, int* cnt) noexcept nogil:
    if total == v:
        emit(buf, p, K_BUILD, sub_cards(L, sub), v)
    elif c.p.natural:
        sub_counts(L, sub, cnt)
        cnt[vp] += 1
        if part_ok(cnt, v, BIG_SUMS):
            emit(buf, p, K_BUILD, sub_cards(L, sub), v)
    elif (sub & (sub - 1)) == 0 and L.vals[cas_ctz(sub)] == vp and vp == v:
        emit(buf, p, K_BUILD, sub_cards(L, sub), v)

cdef void gen_face(Core* c, MoveBuf* buf, int p, uint64_t held, int* best) noexcept nogil:
    """Captures by a card without a value: cards of its rank only (face_capture)."""
    cdef mask_t same = c.h.loose & ((<mask_t>0xF) << (4 * (p // 4)))
    cdef int k = cas_popcount(same), n
    cdef mask_t fsub = same
    while fsub:
        n = cas_popcount(fsub)
        if n == 1 or c.p.face_capture == 2 or (c.p.face_capture == 1 and n == 3 and k == 3):
            if c.p.maximal and n > best[p]:
                best[p] = n
            if is_legal(c, K_CAPTURE, p, fsub, 0, held):
                emit(buf, p, K_CAPTURE, fsub, 0)
        fsub = (fsub - 1) & same

cdef void gen_card(Core* c, Loose* L, MoveBuf* buf, int p, mask_t hand, int* best) noexcept nogil:
    cdef int vp = c.p.hval[p]
    cdef uint64_t held = held_values(c, hand & ~((<mask_t>1) << p))
    cdef mask_t same, fsub, bm, takes
    cdef uint64_t cand, sub
    cdef int i, j, k, n, s, total, top, v, w, nb, bs, size
    cdef int cnt[NVALUES]
    cdef int bidx[MAX_BUILDS]
    cdef mask_t bcards[256]
    cdef uint8_t blegal[256]
    cdef uint8_t legal_v[NVALUES]
    cdef uint32_t legal_mask, dm
    cdef bint ok
    # trail
    if is_legal(c, K_TRAIL, p, 0, 0, held):
        emit(buf, p, K_TRAIL, 0, 0)
    if vp == 0:
        gen_face(c, buf, p, held, best)
        return
    # captures: valid loose subsets of value <= vp, joined with any subset of builds of vp
    nb = 0
    for i in range(c.h.nbuilds):
        if c.h.builds[i].value == vp:
            bidx[nb] = i
            nb += 1
    if nb <= 8:
        for bs in range(1 << nb):
            bcards[bs] = builds_union(c, bidx, nb, bs)
            blegal[bs] = is_legal(c, K_CAPTURE, p, bcards[bs], 0, held)
    cand = L.le64[vp]
    sub = 0
    while True:
        s = sub_sum(L, sub)
        if s % vp == 0:
            ok = s <= vp
            if not ok:
                sub_counts(L, sub, cnt)
                ok = part_ok(cnt, vp, c.p.max_sum_groups)
            if ok:
                takes = sub_cards(L, sub)
                for bs in range(1 << nb):
                    if sub == 0 and bs == 0:
                        continue
                    if nb <= 8:
                        bm = bcards[bs]
                        ok = blegal[bs]
                    else:   # more than eight builds of one value (unique_build_values=false)
                        bm = builds_union(c, bidx, nb, bs)
                        ok = is_legal(c, K_CAPTURE, p, bm, 0, held)
                    size = cas_popcount(takes | bm)
                    if size > best[p]:
                        best[p] = size
                    if ok:
                        emit(buf, p, K_CAPTURE, takes | bm, 0)
        sub = (sub - cand) & cand
        if sub == 0 or buf.overflow:
            break
    # creates: only values held after the play can be legal
    legal_mask = 0
    for v in range(1, c.p.build_max + 1):
        if (held >> v) & 1 and is_legal(c, K_BUILD, p, 0, v, held):
            legal_mask |= (<uint32_t>1) << v
    if legal_mask:
        # a subset fits value v when all its cards are <= v (inside le64[v]) and v divides
        # its total with p
        cand = L.le64[c.p.build_max]
        sub = cand
        while sub and not buf.overflow:
            total = vp + sub_sum(L, sub)
            dm = (DIVS[total] if total < 1024 else 0) & legal_mask & ~(((<uint32_t>1) << vp) - 1)
            while dm:
                v = cas_ctz(dm)
                dm &= dm - 1
                if (sub & ~L.le64[v]) == 0:
                    create_one(c, L, buf, p, vp, sub, total, v, cnt)
            sub = (sub - 1) & cand
    # augments
    for i in range(c.h.nbuilds):
        w = c.h.builds[i].value
        if vp > w or not is_legal(c, K_AUGMENT, p, c.h.builds[i].cards, w, held):
            continue
        if c.p.face_builds and (c.h.builds[i].cards & FACE_MASK):
            continue     # a natural face build takes face cards of its rank only
        cand = L.le64[w]
        sub = 0
        while True:
            s = sub_sum(L, sub) + vp
            if c.p.natural:
                ok = False
                if s == w:
                    ok = True
                elif s % w == 0:
                    sub_counts(L, sub, cnt)
                    cnt[vp] += 1
                    ok = part_ok(cnt, w, BIG_SUMS)
            else:
                ok = s == w
            if ok:
                emit(buf, p, K_AUGMENT, sub_cards(L, sub) | c.h.builds[i].cards, w)
            sub = (sub - cand) & cand
            if sub == 0 or buf.overflow:
                break
    # increases
    for i in range(c.h.nbuilds):
        if c.h.builds[i].multiple:
            continue
        k = c.p.build_max - c.h.builds[i].value - vp   # room left for loose cards
        if k < 0:
            continue
        ok = False
        for w in range(c.h.builds[i].value + vp, c.p.build_max + 1):
            legal_v[w] = (held >> w) & 1 and is_legal(c, K_INCREASE, p, c.h.builds[i].cards, w, held)
            ok = ok or legal_v[w]
        if not ok:
            continue
        cand = L.le64[k]
        sub = 0
        while True:
            s = sub_sum(L, sub)
            if s <= k:
                w = c.h.builds[i].value + vp + s
                if legal_v[w]:
                    emit(buf, p, K_INCREASE, sub_cards(L, sub) | c.h.builds[i].cards, w)
            sub = (sub - cand) & cand
            if sub == 0 or buf.overflow:
                break


# ---------------------------------------------------------------------------------------
# Move generation, output-sensitive path (up to FAST_MAX_CARDS loose numeric cards)
#
# Every capture, build and addition is a union of disjoint groups of loose cards with one
# total: groups of vp for a capture by a card of value vp; for a build or an addition of
# value v, the cards completing the played card to v, plus any groups of v. groups(t),
# every subset of the loose cards totalling t, is found once per position and value by a
# depth-first search that a table of reachable totals keeps out of dead branches; the
# moves are the unions of disjoint groups, sorted and made unique at the end.
# ---------------------------------------------------------------------------------------

cdef enum:
    FAST_MAX_CARDS = 16
    ARENA = 2048             # group masks per position; a fuller position takes the other path
    F_CAPTURE = 0
    F_OTHER = 1

cdef struct Fast:
    Core* c
    MoveBuf* buf
    int n                    # loose numeric cards, by value, lowest first
    uint8_t ids[FAST_MAX_CARDS]
    uint8_t vals[FAST_MAX_CARDS]
    uint64_t sreach[FAST_MAX_CARDS + 1]   # totals (below 64) made by cards i..n-1
    uint32_t have            # bit t: groups(t) is in the arena
    int start[NVALUES]       # groups(t) = arena[start[t] : start[t] + count[t]]
    int count[NVALUES]
    int used
    int full                 # the arena overflowed
    mask_t arena[ARENA]
    # the move being emitted
    int mode
    int p
    int kind
    int value
    int max_multi            # captures: at most this many groups of two cards or more
    mask_t extra             # build cards added to every takes
    # captures: subsets of the builds of the capturing value
    int nb
    int nbs                  # 1 << nb when the tables below are filled (nb <= 8), else 0
    int* bidx
    mask_t* bcards
    uint8_t* blegal
    int* best
    int track_best           # capture_extent=maximal: record the largest capture of each card
    uint64_t held
    LegalCtx* lx
    int dup                  # the current segment may hold repeats
    int min_value            # list no move whose groups total less (multi_fast, _royal.pxi)

cdef int fast_setup(Core* c, Fast* F) noexcept nogil:
    """Sort the loose numeric cards; 0 if there are too many for this path."""
    cdef mask_t m = c.h.loose & c.p.num_mask
    cdef int i, j, v, n = 0
    if cas_popcount(m) > FAST_MAX_CARDS:
        return 0
    if c.p.val_ordered:      # lowest card first is lowest value first
        while m:
            i = cas_ctz(m)
            m &= m - 1
            F.vals[n] = c.p.val[i]
            F.ids[n] = <uint8_t>i
            n += 1
    else:
        while m:
            i = cas_ctz(m)
            m &= m - 1
            v = c.p.val[i]
            if n == FAST_MAX_CARDS:
                return 0
            j = n               # insertion by value, lowest first
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
    F.min_value = 0
    F.c = c
    return 1

cdef void group_dfs(Fast* F, int t) noexcept nogil:
    """Append every subset of the loose cards totalling t (> 0) to the arena."""
    cdef int depth = 0, j, r, v, n = F.n
    cdef int js[FAST_MAX_CARDS + 1]
    cdef int rs[FAST_MAX_CARDS + 1]
    cdef mask_t ms[FAST_MAX_CARDS + 1]
    cdef mask_t m
    js[0] = 0
    rs[0] = t
    ms[0] = 0
    while depth >= 0:
        j = js[depth]
        r = rs[depth]
        # the next card that leaves a total the later cards can make
        while j < n:
            v = F.vals[j]
            if v > r or not (F.sreach[j] >> r) & 1:
                j = n        # later cards are no smaller, or cannot make r at all
                break
            if (F.sreach[j + 1] >> (r - v)) & 1:
                break
            j += 1
        if j >= n:
            depth -= 1
            continue
        js[depth] = j + 1
        m = ms[depth] | ((<mask_t>1) << F.ids[j])
        if v == r:
            if F.used >= ARENA:
                F.full = 1
                return
            F.arena[F.used] = m
            F.used += 1
        else:
            depth += 1
            js[depth] = j + 1
            rs[depth] = r - v
            ms[depth] = m

cdef inline int groups(Fast* F, int t) noexcept nogil:
    """Fill groups(t) (t < 32) if needed; its count, or -1 if the arena is full."""
    if not (F.have >> t) & 1:
        F.have |= (<uint32_t>1) << t
        F.start[t] = F.used
        if t == 0:
            if F.used >= ARENA:
                F.full = 1
            else:
                F.arena[F.used] = 0
                F.used += 1
        else:
            group_dfs(F, t)
        F.count[t] = F.used - F.start[t]
    return -1 if F.full else F.count[t]

cdef inline void fast_emit(Fast* F, mask_t takes) noexcept nogil:
    cdef int bs, size
    cdef mask_t bm
    cdef bint ok
    if F.mode != F_CAPTURE:
        emit(F.buf, F.p, F.kind, takes | F.extra, F.value)
        return
    if F.nb == 0 and not F.track_best:
        if F.blegal[0]:
            emit(F.buf, F.p, K_CAPTURE, takes, 0)
        return
    for bs in range(1 << F.nb):
        if takes == 0 and bs == 0:
            continue
        if F.nbs:
            bm = F.bcards[bs]
            ok = F.blegal[bs]
        else:   # more than eight builds of one value (unique_build_values=false)
            bm = builds_union(F.c, F.bidx, F.nb, bs)
            ok = legal_fast(F.c, F.lx, K_CAPTURE, bm, 0, F.held, -1)
        if F.track_best:
            size = cas_popcount(takes | bm)
            if size > F.best[F.p]:
                F.best[F.p] = size
        if ok:
            emit(F.buf, F.p, K_CAPTURE, takes | bm, 0)

cdef void families(Fast* F, int t, int i, mask_t used, int multi) noexcept nogil:
    """Emit ``used`` joined with every family of disjoint groups(t) of index below i.
    (Groups are found lowest card first, so roughly in decreasing numeric order: walking
    them backwards emits nearly sorted takes.)"""
    cdef int j, k, base = F.start[t]
    cdef mask_t g
    for j in range(i - 1, -1, -1):
        if F.buf.overflow:
            return
        g = F.arena[base + j]
        if g & used:
            continue
        k = multi + (1 if g & (g - 1) else 0)
        if k > F.max_multi:
            continue
        if used:
            F.dup = 1        # a union of two groups or more: maybe reached twice
        fast_emit(F, used | g)
        if j:
            families(F, t, j, used | g, k)

cdef void with_groups(Fast* F, int v, int vp, bint natural) noexcept nogil:
    """The card played (vp) and loose cards in groups of v: its own group, then any
    disjoint groups of v when ``natural``."""
    cdef int j, base, n
    cdef mask_t b
    if v > vp:
        if groups(F, v - vp) < 0:
            return
        base = F.start[v - vp]
        n = F.count[v - vp]
    else:                    # the card alone is a group
        base = -1
        n = 1
    if natural and groups(F, v) < 0:
        return
    for j in range(n - 1, -1, -1):
        b = F.arena[base + j] if base >= 0 else 0
        if b or F.kind == K_AUGMENT:
            fast_emit(F, b)
        if natural and F.count[v]:
            families(F, v, F.count[v], b, 0)

cdef enum:
    KEY_SORT_MAX = 1024

cdef void key_sort(CMove* mv, size_t n) noexcept nogil:
    """Sort n <= KEY_SORT_MAX moves of one card and kind by takes, then value: shell sort
    of one integer key per move, (takes << 6) | value (takes < 2**NCARDS, value < 64)."""
    cdef mask_t keys[KEY_SORT_MAX]
    cdef mask_t t
    cdef size_t i, j, gap
    cdef int g
    cdef size_t gaps[6]
    cdef uint8_t card = mv[0].card, kind = mv[0].kind
    gaps[0] = 1; gaps[1] = 4; gaps[2] = 10; gaps[3] = 23; gaps[4] = 57; gaps[5] = 132
    for i in range(n):
        keys[i] = (mv[i].takes << 6) | mv[i].value
    g = 5
    while g > 0 and gaps[g] >= n:
        g -= 1
    while g >= 0:
        gap = gaps[g]
        for i in range(gap, n):
            t = keys[i]
            j = i
            while j >= gap and keys[j - gap] > t:
                keys[j] = keys[j - gap]
                j -= gap
            keys[j] = t
        g -= 1
    for i in range(n):
        mv[i].card = card
        mv[i].kind = kind
        mv[i].takes = keys[i] >> 6
        mv[i].value = <uint8_t>(keys[i] & 63)

cdef void seg_sort_(MoveBuf* buf, size_t lo, bint dedupe) noexcept nogil:
    """Sort moves[lo:] (one card, one kind) by takes and value; drop repeats if asked."""
    cdef CMove* mv = buf.moves
    cdef size_t i, j, w, n = buf.n
    cdef CMove t
    if buf.overflow or n - lo < 2:
        return
    if n - lo > KEY_SORT_MAX:
        sort_moves(mv + lo, n - lo)
    elif n - lo > 24:
        key_sort(mv + lo, n - lo)
    else:
        for i in range(lo + 1, n):
            t = mv[i]
            j = i
            while j > lo and (mv[j - 1].takes > t.takes or
                              (mv[j - 1].takes == t.takes and mv[j - 1].value > t.value)):
                mv[j] = mv[j - 1]
                j -= 1
            mv[j] = t
    if not dedupe:
        return
    w = lo + 1
    for i in range(lo + 1, n):
        if mv[i].takes != mv[w - 1].takes or mv[i].value != mv[w - 1].value:
            mv[w] = mv[i]
            w += 1
    buf.n = w

cdef struct LegalCtx:
    # is_legal, with what depends only on the position worked out once
    int me
    int own_any
    mask_t own_cards
    int n_own
    int own_idx[MAX_BUILDS]
    uint8_t value_count[NVALUES]   # builds of each value on the table

cdef void legal_setup(Core* c, LegalCtx* x) noexcept nogil:
    cdef int i
    x.me = 1 << c.h.to_move
    x.own_any = 0
    x.own_cards = 0
    x.n_own = 0
    memset(x.value_count, 0, sizeof(x.value_count))
    for i in range(c.h.nbuilds):
        x.value_count[c.h.builds[i].value] += 1
        if c.h.builds[i].owners & x.me:
            x.own_any = 1
            x.own_cards |= c.h.builds[i].cards
            x.own_idx[x.n_own] = i
            x.n_own += 1

cdef inline bint legal_fast(Core* c, LegalCtx* x, int kind, mask_t takes, int value, uint64_t held,
                     int target) noexcept nogil:
    """is_legal(c, kind, ..., takes, value, held), target being the build augmented or
    increased (-1 for other kinds)."""
    cdef int i, j
    cdef bint takes_own
    cdef CBuild* b
    if kind >= K_BUILD:
        if c.p.unique_values and x.value_count[value] > (
                1 if target >= 0 and c.h.builds[target].value == value else 0):
            return False
        if not (held >> value) & 1:
            return False
        if kind == K_INCREASE and (c.h.builds[target].owners & x.me):
            if c.p.own_increase == 2:
                return False
            if c.p.own_increase == 1 and not (held >> c.h.builds[target].value) & 1:
                return False
    if c.p.obligation and x.own_any:
        takes_own = (takes & x.own_cards) != 0
        if kind == K_TRAIL and (c.p.obligation == 1 or c.p.obligation == 3):
            return False
        if c.p.obligation == 2 and not (
            (kind == K_CAPTURE or kind == K_AUGMENT or kind == K_INCREASE) and takes_own
        ):
            return False
        if c.p.obligation == 3 and (kind == K_CAPTURE or kind == K_AUGMENT) and not takes_own:
            return False
    if c.p.holding_invariant:
        for j in range(x.n_own):
            i = x.own_idx[j]
            b = &c.h.builds[i]
            if kind == K_CAPTURE and (b.cards & takes):
                continue
            if i == target:
                continue
            if not (held >> b.value) & 1:
                return False
    return True

cdef inline void seg_sort(Fast* F, size_t lo) noexcept nogil:
    if F.buf.n - lo >= 2:
        seg_sort_(F.buf, lo, F.dup)
    F.dup = 0

cdef int fast_card(Core* c, Fast* F, MoveBuf* buf, int p, int vp, uint64_t held,
                   int* best) noexcept nogil:
    """The moves of card p played at value vp (held: the values left in hand after playing
    it); -1 if the arena overflowed (use the other path)."""
    cdef bint free_play = c.h.nbuilds == 0     # no build: every filter passes
    cdef int i, v, w, nb, bs, b_value, j, n, base
    cdef size_t seg
    cdef int bidx[MAX_BUILDS]
    cdef mask_t bcards[256]
    cdef uint8_t blegal[256]
    cdef uint64_t lm
    F.buf = buf
    F.p = p
    F.best = best
    F.held = held
    F.extra = 0
    # trail
    if free_play or legal_fast(c, F.lx, K_TRAIL, 0, 0, held, -1):
        emit(buf, p, K_TRAIL, 0, 0)
    seg = buf.n
    if vp == 0:
        gen_face(c, buf, p, held, best)
        seg_sort(F, seg)
        return 0
    # captures: disjoint groups of vp, with any builds of vp
    F.track_best = c.p.maximal
    nb = 0
    for i in range(c.h.nbuilds):
        if c.h.builds[i].value == vp:
            bidx[nb] = i
            nb += 1
    F.nb = nb
    F.bidx = bidx
    F.nbs = 0
    if free_play:
        F.nbs = 1
        bcards[0] = 0
        blegal[0] = 1
    elif nb <= 8:
        F.nbs = 1 << nb
        for bs in range(1 << nb):
            bcards[bs] = builds_union(c, bidx, nb, bs)
            blegal[bs] = legal_fast(c, F.lx, K_CAPTURE, bcards[bs], 0, held, -1)
    F.bcards = bcards
    F.blegal = blegal
    F.mode = F_CAPTURE
    F.kind = K_CAPTURE
    F.value = 0
    F.max_multi = c.p.max_sum_groups
    if vp >= F.min_value:
        if nb:
            fast_emit(F, 0)
        if groups(F, vp) < 0:
            return -1
        if F.count[vp]:
            families(F, vp, F.count[vp], 0, 0)
    seg_sort(F, seg)
    # creates of a value v held after the play
    seg = buf.n
    F.mode = F_OTHER
    F.kind = K_BUILD
    F.max_multi = BIG_SUMS
    lm = held & ~(((<uint64_t>1) << vp) - 1) & ((((<uint64_t>1) << c.p.build_max) << 1) - 1)
    lm &= ~(((<uint64_t>1) << F.min_value) - 1)
    while lm and not buf.overflow:
        v = cas_ctz(lm)
        lm &= lm - 1
        if not free_play and not legal_fast(c, F.lx, K_BUILD, 0, v, held, -1):
            continue
        F.value = v
        if c.p.natural or v > vp:
            with_groups(F, v, vp, c.p.natural)
        else:                # natural_build_combination=false: the pair of equal cards
            if groups(F, v) < 0:
                return -1
            base = F.start[v]
            for j in range(F.count[v]):
                if (F.arena[base + j] & (F.arena[base + j] - 1)) == 0:
                    fast_emit(F, F.arena[base + j])
        if F.full:
            return -1
    seg_sort(F, seg)
    # augments: the card and loose cards added to a build of w, in groups of w
    seg = buf.n
    F.kind = K_AUGMENT
    for i in range(c.h.nbuilds):
        w = c.h.builds[i].value
        if vp > w or w < F.min_value or buf.overflow or not legal_fast(
                c, F.lx, K_AUGMENT, c.h.builds[i].cards, w, held, i):
            continue
        F.value = w
        F.extra = c.h.builds[i].cards
        with_groups(F, w, vp, c.p.natural)
        if F.full:
            return -1
    seg_sort(F, seg)
    # increases: a simple build raised to w by the card and loose cards totalling the rest
    seg = buf.n
    F.kind = K_INCREASE
    for i in range(c.h.nbuilds):
        if c.h.builds[i].multiple or buf.overflow:
            continue
        b_value = c.h.builds[i].value
        if b_value + vp > c.p.build_max:
            continue
        F.extra = c.h.builds[i].cards
        for w in range(b_value + vp + F.min_value, c.p.build_max + 1):
            if (held >> w) & 1 and legal_fast(c, F.lx, K_INCREASE, c.h.builds[i].cards, w, held, i):
                F.value = w
                n = groups(F, w - b_value - vp)
                if n < 0:
                    return -1
                base = F.start[w - b_value - vp]
                for j in range(n - 1, -1, -1):
                    fast_emit(F, F.arena[base + j])
    seg_sort(F, seg)
    return 0

# ---------------------------------------------------------------------------------------
# Move generation, small tables without builds (up to SMALL_MAX loose numeric cards)
#
# With no build on the table every legality filter passes and every capture or build
# takes loose cards only. A subset of the n <= 8 loose numeric cards is numbered by its
# compressed mask (bit i: the i-th lowest card), and these numbers sort as the card masks
# do; a set of subsets is a bitset of 2**n bits. P(v), the unions of disjoint groups
# totalling v, grows one group g at a time: P |= (P & disjoint(g)) << g, since for
# disjoint subsets s | g == s + g. Scanning a bitset lists its moves sorted, once each.
# ---------------------------------------------------------------------------------------

cdef enum:
    SMALL_MAX = 8
    SMALL_SUBSETS = 256      # 1 << SMALL_MAX
    SMALL_WORDS = 4          # SMALL_SUBSETS // 64

cdef uint64_t DISJ[SMALL_SUBSETS][SMALL_WORDS]   # DISJ[g]: bit s set when s & g == 0
cdef int _g, _s
for _g in range(SMALL_SUBSETS):
    for _s in range(SMALL_WORDS):
        DISJ[_g][_s] = 0
    for _s in range(SMALL_SUBSETS):
        if (_s & _g) == 0:
            DISJ[_g][_s >> 6] |= (<uint64_t>1) << (_s & 63)

cdef struct Small:
    int n                    # loose numeric cards, lowest card id (and value) first
    int nw                   # 64-bit words of a bitset of subsets
    uint8_t ids[SMALL_MAX]
    uint8_t vals[SMALL_MAX]
    int unsorted             # vals may decrease with the index (a multi-valued card at its
                             # second value: _royal.pxi)
    uint64_t sreach[SMALL_MAX + 1]   # totals (below 64) made by cards i..n-1
    uint32_t have_g          # bit t: groups(t) is in the arena
    uint32_t have_p          # bit v: P[v] is filled
    int gstart[NVALUES]
    int gcount[NVALUES]
    int used
    uint8_t arena[SMALL_SUBSETS]     # compressed groups; each subset has one total
    uint64_t P[NVALUES][SMALL_WORDS]
    mask_t lo[16]            # the cards of the compressed subsets of cards 0-3
    mask_t hi[16]            # ... and of cards 4-7 (hi[s] stands for s << 4)

cdef void small_dfs(Small* S, int j, int r, int m) noexcept nogil:
    """Append the subsets of cards j.. totalling r (> 0), joined with m, to the arena."""
    cdef int k, v
    for k in range(j, S.n):
        v = S.vals[k]
        if v > r:
            if S.unsorted:
                continue
            return           # later cards are no smaller
        if not (S.sreach[k] >> r) & 1:
            return           # cards k.. cannot make r at all
        if (S.sreach[k + 1] >> (r - v)) & 1:
            if v == r:
                S.arena[S.used] = <uint8_t>(m | (1 << k))
                S.used += 1
            else:
                small_dfs(S, k + 1, r - v, m | (1 << k))

cdef inline void small_groups(Small* S, int t) noexcept nogil:
    if not (S.have_g >> t) & 1:
        S.have_g |= (<uint32_t>1) << t
        S.gstart[t] = S.used
        small_dfs(S, 0, t, 0)
        S.gcount[t] = S.used - S.gstart[t]

cdef inline void bits_shl_or(uint64_t* dst, const uint64_t* src, int g, int nw) noexcept nogil:
    """dst |= src << g over nw words (callers shift no bit past the top)."""
    cdef int ws = g >> 6, sh = g & 63, i
    for i in range(nw - 1, ws - 1, -1):
        if sh == 0:
            dst[i] |= src[i - ws]
        else:
            dst[i] |= src[i - ws] << sh
            if i > ws:
                dst[i] |= src[i - ws - 1] >> (64 - sh)

cdef void small_union(Small* S, uint64_t* out, const uint64_t* P, int t) noexcept nogil:
    """out |= {s | b : s in P, b in groups(t), s & b == 0}."""
    cdef int j, i, b, base = S.gstart[t], cnt = S.gcount[t]
    cdef uint64_t tmp[SMALL_WORDS]
    if S.nw == 1:
        for j in range(cnt):
            b = S.arena[base + j]
            out[0] |= (P[0] & DISJ[b][0]) << b
        return
    for j in range(cnt):
        b = S.arena[base + j]
        for i in range(S.nw):
            tmp[i] = P[i] & DISJ[b][i]
        bits_shl_or(out, tmp, b, S.nw)

cdef uint64_t* small_P(Small* S, int v) noexcept nogil:
    """P(v): the unions of disjoint groups of v (the empty one included)."""
    cdef uint64_t* P = S.P[v]
    cdef int i
    if (S.have_p >> v) & 1:
        return P
    S.have_p |= (<uint32_t>1) << v
    small_groups(S, v)
    for i in range(S.nw):
        P[i] = 0
    P[0] = 1
    small_union(S, P, P, v)  # in place: each group joins the families made before it
    return P

cdef inline mask_t small_cards(Small* S, uint64_t s) noexcept nogil:
    """ids_mask(S.ids, s) by two table lookups (small_tables)."""
    return S.lo[s & 15] | S.hi[s >> 4]

cdef inline void small_tables(Small* S) noexcept nogil:
    """Fill lo and hi: the card mask of each compressed subset of cards 0-3, 4-7."""
    cdef int s, k = S.n if S.n < 4 else 4
    S.lo[0] = 0
    for s in range(1, 1 << k):
        S.lo[s] = S.lo[s & (s - 1)] | ((<mask_t>1) << S.ids[cas_ctz(s)])
    S.hi[0] = 0
    for s in range(1, 1 << (S.n - k)):
        S.hi[s] = S.hi[s & (s - 1)] | ((<mask_t>1) << S.ids[4 + cas_ctz(s)])

cdef inline int buf_room(MoveBuf* buf, size_t k) noexcept nogil:
    """Make room for k more moves; -1 (overflow flagged) past the limit or out of memory."""
    if buf.n + k > buf.limit or (buf.n + k > buf.cap and buf_reserve(buf, buf.n + k) != 0):
        buf.overflow = 1
        return -1
    return 0

cdef inline void put_move(MoveBuf* buf, int card, int kind, mask_t takes, int value) noexcept nogil:
    cdef CMove* m = &buf.moves[buf.n]
    m.card = <uint8_t>card
    m.kind = <uint8_t>kind
    m.takes = takes
    m.value = <uint8_t>value
    buf.n += 1

cdef inline uint64_t small_P1(Small* S, int v) noexcept nogil:
    """small_P for n <= 6 (one word)."""
    cdef uint64_t P = 1
    cdef int j, b, base, end
    if (S.have_p >> v) & 1:
        return S.P[v][0]
    S.have_p |= (<uint32_t>1) << v
    if (S.sreach[0] >> v) & 1:
        small_groups(S, v)
        base = S.gstart[v]
        end = base + S.gcount[v]
        for j in range(base, end):
            b = S.arena[j]
            P |= (P & DISJ[b][0]) << b
    S.P[v][0] = P
    return P

cdef inline void put_word(Small* S, MoveBuf* buf, int p, int kind, uint64_t w,
                          int value) noexcept nogil:
    cdef uint64_t s
    while w:
        s = w & (<uint64_t>0 - w)
        w ^= s
        put_move(buf, p, kind, small_cards(S, <uint64_t>cas_ctz(s)), value)

cdef int small_card1(Core* c, MoveBuf* buf, Small* S, int p, int vp, uint64_t hp,
                     int* best) noexcept nogil:
    """small_gen's captures and creates of card p (value vp > 0, hp: the values held
    after playing it) when n <= 6: one word per bitset. 0, or -1 on overflow."""
    cdef int i, j, v, t, nv, size, base, end, b
    cdef uint64_t lm, w, Pv, cw, s, reach = S.sreach[0]
    cdef uint64_t C[NVALUES]
    cdef int vlist[NVALUES]
    cdef size_t total
    # captures: P(vp) but the empty union
    if (reach >> vp) & 1:
        w = small_P1(S, vp) & ~(<uint64_t>1)
        if w:
            if buf_room(buf, <size_t>cas_popcount(w)) < 0:
                return -1
            if c.p.maximal:
                cw = w
                while cw:
                    size = cas_popcount(<uint64_t>cas_ctz(cw))
                    if size > best[p]:
                        best[p] = size
                    cw &= cw - 1
            put_word(S, buf, p, K_CAPTURE, w, 0)
    # creates of a value v held after the play: the card's own group (the cards
    # completing it to v), joined with any disjoint groups of v
    lm = hp & ~(((<uint64_t>1) << vp) - 1) & ((((<uint64_t>1) << c.p.build_max) << 1) - 1)
    nv = 0
    total = 0
    while lm:
        v = cas_ctz(lm)
        lm &= lm - 1
        t = v - vp
        if t == 0:
            if not (reach >> v) & 1:
                continue
            cw = small_P1(S, v) & ~(<uint64_t>1)
        else:
            if not (reach >> t) & 1:
                continue
            Pv = small_P1(S, v)
            small_groups(S, t)
            base = S.gstart[t]
            end = base + S.gcount[t]
            cw = 0
            for j in range(base, end):
                b = S.arena[j]
                cw |= (Pv & DISJ[b][0]) << b
        if cw:
            C[nv] = cw
            vlist[nv] = v
            nv += 1
            total += cas_popcount(cw)
    if nv == 0:
        return 0
    if buf_room(buf, total) < 0:
        return -1
    if nv == 1:
        put_word(S, buf, p, K_BUILD, C[0], vlist[0])
        return 0
    w = 0
    for j in range(nv):
        w |= C[j]
    while w:
        i = cas_ctz(w)
        w &= w - 1
        s = <uint64_t>i
        for j in range(nv):
            if (C[j] >> i) & 1:
                put_move(buf, p, K_BUILD, small_cards(S, s), vlist[j])
    return 0

# ---------------------------------------------------------------------------------------
# Move generation, small tables with builds (up to SMALL_B_MAX loose numeric cards)
#
# The bitsets of small_card1 over the loose cards, one word each. Loose cards never belong
# to a build, so each legality filter depends only on the card, the kind, the value and the
# builds taken or added to: it is worked out once and gates a whole word of moves. Takes
# that join build cards are sorted per kind (a few moves each).
# ---------------------------------------------------------------------------------------

cdef enum:
    SMALL_B_MAX = 6          # one word per bitset
    SMALL_B_BUILDS = 8       # bcards/blegal tables of 1 << 8 entries

cdef inline void put_word_x(Small* S, MoveBuf* buf, int p, int kind, uint64_t w, mask_t extra,
                            int value) noexcept nogil:
    """put_word with ``extra`` (build cards) joined to every takes."""
    while w:
        put_move(buf, p, kind, small_cards(S, <uint64_t>cas_ctz(w)) | extra, value)
        w &= w - 1

cdef inline uint64_t small_G1(Small* S, int t) noexcept nogil:
    """groups(t) as a word of compressed subsets (t == 0: the empty group); n <= 6."""
    cdef uint64_t g = 0
    cdef int j, end
    if t == 0:
        return 1
    if not (S.sreach[0] >> t) & 1:
        return 0
    small_groups(S, t)
    end = S.gstart[t] + S.gcount[t]
    for j in range(S.gstart[t], end):
        g |= (<uint64_t>1) << S.arena[j]
    return g

cdef inline uint64_t small_with1(Small* S, int v, int t) noexcept nogil:
    """{g | f : g in groups(t), f in P(v), g & f == 0} (t > 0); n <= 6."""
    cdef uint64_t Pv, cw = 0
    cdef int j, b, end
    if not (S.sreach[0] >> t) & 1:
        return 0
    Pv = small_P1(S, v)
    small_groups(S, t)
    end = S.gstart[t] + S.gcount[t]
    for j in range(S.gstart[t], end):
        b = S.arena[j]
        cw |= (Pv & DISJ[b][0]) << b
    return cw

cdef inline int small_load(Core* c, Small* S) noexcept nogil:
    """Load the loose numeric cards into S (ids ascending, with their values); their number."""
    cdef mask_t m = c.h.loose & c.p.num_mask
    cdef int i, n = 0
    while m:
        i = cas_ctz(m)
        m &= m - 1
        S.vals[n] = c.p.val[i]
        S.ids[n] = <uint8_t>i
        n += 1
    S.n = n
    S.unsorted = 0
    return n

cdef inline void face_asc(Core* c, MoveBuf* buf, int p, int* best, bint ok) noexcept nogil:
    """The small paths' captures by a card without a value: cards of its rank only
    (face_capture), in ascending subset order; listed when ``ok`` (a plain capture is legal)."""
    cdef mask_t same = c.h.loose & ((<mask_t>0xF) << (4 * (p // 4)))
    cdef int k = cas_popcount(same), cnt, fc = c.p.face_capture
    cdef mask_t fsub = 0
    while True:
        fsub = (fsub - same) & same      # the subsets of same, ascending
        if fsub == 0:
            break
        cnt = cas_popcount(fsub)
        if cnt == 1 or fc == 2 or (fc == 1 and cnt == 3 and k == 3):
            if c.p.maximal and cnt > best[p]:
                best[p] = cnt
            if ok:
                emit(buf, p, K_CAPTURE, fsub, 0)

cdef int small_gen_b(Core* c, MoveBuf* buf, mask_t hand, uint64_t held, uint64_t twice,
                     int* best) noexcept nogil:
    """Every move of a table with 1 to SMALL_B_BUILDS builds and at most SMALL_B_MAX loose
    numeric cards (natural_build_combination, sum_groups=multi, values ordered by card id),
    in canonical order, as fast_card lists them; 0, or -1 on overflow."""
    cdef Small S
    cdef LegalCtx lx
    cdef CBuild* bd
    cdef mask_t m, bc
    cdef int n = 0, i, j, p, vp, v, k, cnt, nb, bs, bv, nv
    cdef uint64_t hp, lm, w, cw, top
    cdef size_t seg, total
    cdef int bidx[SMALL_B_BUILDS]
    cdef mask_t bcards[1 << SMALL_B_BUILDS]
    cdef uint8_t blegal[1 << SMALL_B_BUILDS]
    cdef uint64_t C[NVALUES]
    cdef int vlist[NVALUES]
    n = small_load(c, &S)
    S.nw = 1
    small_tables(&S)
    S.sreach[n] = 1
    for i in range(n - 1, -1, -1):
        S.sreach[i] = S.sreach[i + 1] | (S.sreach[i + 1] << S.vals[i])
    S.have_g = 0
    S.have_p = 0
    S.used = 0
    top = (((<uint64_t>1) << c.p.build_max) << 1) - 1
    legal_setup(c, &lx)
    m = hand
    while m:
        p = cas_ctz(m)
        m &= m - 1
        vp = c.p.hval[p]
        hp = (held & ~((<uint64_t>1) << vp) | twice) & ~(<uint64_t>1)
        if legal_fast(c, &lx, K_TRAIL, 0, 0, hp, -1):
            emit(buf, p, K_TRAIL, 0, 0)
        # captures: loose cards never touch a build, so only the builds taken decide
        nb = 0
        if vp:
            for i in range(c.h.nbuilds):
                if c.h.builds[i].value == vp:
                    bidx[nb] = i
                    nb += 1
        for bs in range(1 << nb):
            bcards[bs] = builds_union(c, bidx, nb, bs)
            blegal[bs] = legal_fast(c, &lx, K_CAPTURE, bcards[bs], 0, hp, -1)
        if vp == 0:
            face_asc(c, buf, p, best, blegal[0])
            continue
        w = small_P1(&S, vp)                     # P(vp), the empty union included
        seg = buf.n
        if buf_room(buf, <size_t>cas_popcount(w) << nb) < 0:
            return -1
        for bs in range(1 << nb):
            cw = w if bs else w & ~(<uint64_t>1)
            if c.p.maximal:
                k = cas_popcount(bcards[bs])
                lm = cw
                while lm:
                    cnt = k + cas_popcount(<uint64_t>cas_ctz(lm))
                    if cnt > best[p]:
                        best[p] = cnt
                    lm &= lm - 1
            if blegal[bs]:
                put_word_x(&S, buf, p, K_CAPTURE, cw, bcards[bs], 0)
        if nb and buf.n - seg >= 2:
            seg_sort_(buf, seg, 0)
        # creates of a value v held after the play: the card's own group joined with any
        # disjoint groups of v (small_card1)
        lm = hp & ~(((<uint64_t>1) << vp) - 1) & top
        nv = 0
        total = 0
        while lm:
            v = cas_ctz(lm)
            lm &= lm - 1
            if not legal_fast(c, &lx, K_BUILD, 0, v, hp, -1):
                continue
            if v == vp:
                cw = small_P1(&S, v) & ~(<uint64_t>1)
            else:
                cw = small_with1(&S, v, v - vp)
            if cw:
                C[nv] = cw
                vlist[nv] = v
                nv += 1
                total += cas_popcount(cw)
        if nv:
            if buf_room(buf, total) < 0:
                return -1
            w = 0
            for j in range(nv):
                w |= C[j]
            while w:
                i = cas_ctz(w)
                w &= w - 1
                for j in range(nv):
                    if (C[j] >> i) & 1:
                        put_move(buf, p, K_BUILD, small_cards(&S, <uint64_t>i), vlist[j])
        # augments: the card and loose cards added to a build of bv, in groups of bv
        seg = buf.n
        for i in range(c.h.nbuilds):
            bd = &c.h.builds[i]
            bv = bd.value
            if vp > bv or not legal_fast(c, &lx, K_AUGMENT, bd.cards, bv, hp, i):
                continue
            cw = small_P1(&S, bv) if bv == vp else small_with1(&S, bv, bv - vp)
            if cw:
                if buf_room(buf, <size_t>cas_popcount(cw)) < 0:
                    return -1
                put_word_x(&S, buf, p, K_AUGMENT, cw, bd.cards, bv)
        if buf.n - seg >= 2:
            seg_sort_(buf, seg, 0)
        # increases: a simple build raised to v by the card and one group of the rest
        seg = buf.n
        for i in range(c.h.nbuilds):
            bd = &c.h.builds[i]
            bv = bd.value
            if bd.multiple or bv + vp > c.p.build_max:
                continue
            bc = bd.cards
            for v in range(bv + vp, c.p.build_max + 1):
                if (hp >> v) & 1 and legal_fast(c, &lx, K_INCREASE, bc, v, hp, i):
                    cw = small_G1(&S, v - bv - vp)
                    if cw:
                        if buf_room(buf, <size_t>cas_popcount(cw)) < 0:
                            return -1
                        put_word_x(&S, buf, p, K_INCREASE, cw, bc, v)
        if buf.n - seg >= 2:
            seg_sort_(buf, seg, 0)
    return -1 if buf.overflow else 0

cdef int small_gen(Core* c, MoveBuf* buf, mask_t hand, uint64_t held, uint64_t twice,
                   int* best) noexcept nogil:
    """Every move of a table without builds and with at most SMALL_MAX loose numeric
    cards (natural_build_combination, sum_groups=multi, values ordered by card id), in
    canonical order; 0, or -1 on overflow."""
    cdef Small S
    cdef mask_t m
    cdef int n = 0, i, j, p, vp, v, nv, k, nw, size
    cdef uint64_t hp, lm, w, s
    cdef uint64_t* P
    cdef uint64_t C[NVALUES][SMALL_WORDS]
    cdef uint64_t U[SMALL_WORDS]
    cdef int vlist[NVALUES]
    cdef size_t total
    n = small_load(c, &S)
    small_tables(&S)
    nw = 1 if n <= 6 else 1 << (n - 6)
    S.nw = nw
    S.sreach[n] = 1
    for i in range(n - 1, -1, -1):
        S.sreach[i] = S.sreach[i + 1] | (S.sreach[i + 1] << S.vals[i])
    S.have_g = 0
    S.have_p = 0
    S.used = 0
    m = hand
    while m:
        p = cas_ctz(m)
        m &= m - 1
        vp = c.p.hval[p]
        emit(buf, p, K_TRAIL, 0, 0)
        if vp == 0:
            face_asc(c, buf, p, best, 1)
            continue
        hp = (held & ~((<uint64_t>1) << vp) | twice) & ~(<uint64_t>1)
        if nw == 1:
            if small_card1(c, buf, &S, p, vp, hp, best) < 0:
                return -1
            continue
        # captures: P(vp) but the empty union
        total = 0
        if (S.sreach[0] >> vp) & 1:      # (else no group of vp)
            P = small_P(&S, vp)
            for i in range(nw):
                total += cas_popcount(P[i])
        if total > 1:
            if buf_room(buf, total - 1) < 0:
                return -1
            for i in range(nw):
                w = P[i]
                if i == 0:
                    w &= ~(<uint64_t>1)
                while w:
                    s = (<uint64_t>i << 6) + cas_ctz(w)
                    w &= w - 1
                    if c.p.maximal:
                        size = cas_popcount(s)
                        if size > best[p]:
                            best[p] = size
                    put_move(buf, p, K_CAPTURE, small_cards(&S, s), 0)
        # creates of a value v held after the play: the card's own group (the cards
        # completing it to v), joined with any disjoint groups of v
        lm = hp & ~(((<uint64_t>1) << vp) - 1) & ((((<uint64_t>1) << c.p.build_max) << 1) - 1)
        nv = 0
        total = 0
        while lm:
            v = cas_ctz(lm)
            lm &= lm - 1
            if not (S.sreach[0] >> (v - vp if v > vp else v)) & 1:
                continue         # no group of v - vp (of v when v == vp): no create
            P = small_P(&S, v)
            if v == vp:
                for i in range(nw):
                    C[nv][i] = P[i]
                C[nv][0] &= ~(<uint64_t>1)
            else:
                small_groups(&S, v - vp)
                for i in range(nw):
                    C[nv][i] = 0
                small_union(&S, C[nv], P, v - vp)
            for i in range(nw):
                total += cas_popcount(C[nv][i])
            vlist[nv] = v
            nv += 1
        if total == 0:
            continue
        if buf_room(buf, total) < 0:
            return -1
        if nv == 1:
            v = vlist[0]
            for i in range(nw):
                w = C[0][i]
                while w:
                    s = (<uint64_t>i << 6) + cas_ctz(w)
                    w &= w - 1
                    put_move(buf, p, K_BUILD, small_cards(&S, s), v)
            continue
        for i in range(nw):
            U[i] = 0
            for j in range(nv):
                U[i] |= C[j][i]
        for i in range(nw):
            w = U[i]
            while w:
                k = cas_ctz(w)
                w &= w - 1
                s = (<uint64_t>i << 6) + k
                for j in range(nv):
                    if (C[j][i] >> k) & 1:
                        put_move(buf, p, K_BUILD, small_cards(&S, s), vlist[j])
    return -1 if buf.overflow else 0

cdef inline int small_path(Core* c) noexcept nogil:
    """1: small_gen lists the moves, 2: small_gen_b, 0: neither. A rules option that
    changes which captures, builds or additions exist must be excluded here."""
    cdef int k
    if not (c.p.natural and c.p.max_sum_groups == BIG_SUMS and c.p.val_ordered):
        return 0
    k = cas_popcount(c.h.loose & c.p.num_mask)
    if c.h.nbuilds == 0:
        return 1 if k <= SMALL_MAX else 0
    return 2 if k <= SMALL_B_MAX and c.h.nbuilds <= SMALL_B_BUILDS else 0

cdef inline mask_t sweep_takes(Core* c) noexcept nogil:
    """What a card of c.p.sweep_cards takes: every table item, or every loose card."""
    return table_mask(c) if c.p.sweep_builds else c.h.loose

cdef inline bint sweep_applies(Core* c) noexcept nogil:
    """Whether the player to move holds a capture-all card and the table has its prey."""
    return (c.p.sweep_cards != 0 and c.h.to_move >= 0
            and (c.h.hands[c.h.to_move] & c.p.sweep_cards) != 0 and sweep_takes(c) != 0)

cdef int sweep_pass(Core* c, MoveBuf* buf, mask_t hand, int* best) noexcept nogil:
    """The capture-all plays (docs/rules.md §3.37 opt_five_of_spades_sweep, §3.15 Tablanette
    Jacks): a card of c.p.sweep_cards played on a table with prey takes sweep_takes(c).
    That capture replaces the card's trail (with sweep_only, every move of the card).
    Called by gen_moves on the generated list before the maximal filter; 1 when the list
    must be sorted again."""
    cdef mask_t cards = hand & c.p.sweep_cards
    cdef mask_t T = sweep_takes(c)
    cdef size_t r, w = 0
    cdef int p
    cdef CMove* mv
    if cards == 0 or T == 0:
        return 0
    for r in range(buf.n):
        mv = &buf.moves[r]
        if (cards >> mv.card) & 1 and (
                c.p.sweep_only or mv.kind == K_TRAIL or (mv.kind == K_CAPTURE and mv.takes == T)):
            continue
        buf.moves[w] = buf.moves[r]
        w += 1
    buf.n = w
    while cards:
        p = cas_ctz(cards)
        cards &= cards - 1
        # (only ordinary captures of builds left aside by five_of_spades_builds=false can
        # take more; best is set only for the maximal filter, which zeroes it first)
        if c.p.maximal and cas_popcount(T) > best[p]:
            best[p] = cas_popcount(T)
        if is_legal(c, K_CAPTURE, p, T, 0, held_values(c, hand & ~((<mask_t>1) << p))):
            emit(buf, p, K_CAPTURE, T, 0)
    return 1

cdef mask_t UNPLUCKABLE = (<mask_t>0xF) | ((<mask_t>1) << 4) | ((<mask_t>1) << 38)  # aces, 2S, 10D

cdef inline mask_t pluckable(Core* c) noexcept nogil:
    """The loose cards the player to act may pluck now, as _reference.State._pluckable
    (docs/rules.md §3.37 opt_pluck, AMB-25, AMB-27)."""
    cdef mask_t keep, cand
    if not c.p.pluck or c.h.phase == PH_PLUCKED or (c.h.plucked >> c.h.to_move) & 1:
        return 0
    if not c.p.pluck_last_deal and c.h.stock_pos >= c.stock_len:
        return 0
    keep = c.h.loose if c.p.pluck_loose else table_mask(c)
    if cas_popcount(keep) < 2:
        return 0
    cand = c.h.loose & ~UNPLUCKABLE
    if c.h.trailed1:
        cand &= ~((<mask_t>1) << (c.h.trailed1 - 1))
    return cand

cdef inline bint face_build_on_table(Core* c) noexcept nogil:
    cdef int i
    for i in range(c.h.nbuilds):
        if c.h.builds[i].cards & FACE_MASK:
            return True
    return False

cdef void face_card_moves(Core* c, MoveBuf* buf, int p, mask_t hand, int* best) noexcept nogil:
    """Every move of the face card p under opt_face_cards_all_four (docs/rules.md §3.11, §3.37,
    AMB-33), as _reference.State: its trail; the captures of any loose cards of its rank
    with any natural builds of its rank; a natural build on loose cards of its rank; an
    augment of a build of its rank. best[p] is set to its largest capture."""
    cdef uint64_t held = held_values(c, hand & ~((<mask_t>1) << p))
    cdef int rank = p // 4 + 1, i, nb = 0, bs
    cdef mask_t same = c.h.loose & ((<mask_t>0xF) << (4 * (p // 4)))
    cdef mask_t sub, bm, takes
    cdef int bidx[MAX_BUILDS]
    cdef bint natural = c.p.natural
    best[p] = 0
    for i in range(c.h.nbuilds):
        if c.h.builds[i].value == rank and nb < 8:
            bidx[nb] = i
            nb += 1
    if is_legal(c, K_TRAIL, p, 0, 0, held):
        emit(buf, p, K_TRAIL, 0, 0)
    for bs in range(1 << nb):
        bm = builds_union(c, bidx, nb, bs)
        sub = 0
        while True:
            takes = sub | bm
            if takes:
                if cas_popcount(takes) > best[p]:
                    best[p] = cas_popcount(takes)
                if is_legal(c, K_CAPTURE, p, takes, 0, held):
                    emit(buf, p, K_CAPTURE, takes, 0)
            sub = (sub - same) & same
            if sub == 0:
                break
    sub = same
    while sub:
        if natural or cas_popcount(sub) == 1:
            if is_legal(c, K_BUILD, p, sub, rank, held):
                emit(buf, p, K_BUILD, sub, rank)
        sub = (sub - 1) & same
    for i in range(nb):
        sub = 0
        while True:
            if natural or sub == 0:
                takes = sub | c.h.builds[bidx[i]].cards
                if is_legal(c, K_AUGMENT, p, takes, rank, held):
                    emit(buf, p, K_AUGMENT, takes, rank)
            sub = (sub - same) & same
            if sub == 0:
                break

cdef void face_pass(Core* c, MoveBuf* buf, mask_t hand, int* best) noexcept nogil:
    """opt_face_cards_all_four: the face cards' moves listed again by face_card_moves (the
    generator paths know no face builds). The caller sorts the list again."""
    cdef size_t r, w = 0
    cdef mask_t m = hand & FACE_MASK
    for r in range(buf.n):
        if (FACE_MASK >> buf.moves[r].card) & 1:
            continue
        buf.moves[w] = buf.moves[r]
        w += 1
    buf.n = w
    while m:
        face_card_moves(c, buf, cas_ctz(m), hand, best)
        m &= m - 1

cdef uint64_t count_face_card(Core* c, int p, mask_t hand) noexcept nogil:
    """count_card for a face card under opt_face_cards_all_four: its few moves listed."""
    cdef MoveBuf buf
    cdef int best[NCARDS]
    cdef size_t i
    cdef uint64_t n = 0
    buf.moves = NULL
    buf.n = 0
    buf.cap = 0
    buf.limit = <size_t>-1
    buf.overflow = 0
    face_card_moves(c, &buf, p, hand, best)
    for i in range(buf.n):
        if not (c.p.maximal and buf.moves[i].kind == K_CAPTURE
                and cas_popcount(buf.moves[i].takes) < best[p]):
            n += 1
    free(buf.moves)
    return n

cdef inline void loose_by_value(Core* c, mask_t* vmask) noexcept nogil:
    """vmask[v]: the loose cards of value v (v < 32), for Callabra's matches and totals."""
    cdef mask_t t = c.h.loose
    cdef int k
    memset(vmask, 0, 32 * sizeof(mask_t))
    while t:
        k = cas_ctz(t)
        vmask[c.p.val[k]] |= (<mask_t>1) << k
        t &= t - 1

cdef int gen_callabra(Core* c, MoveBuf* buf) noexcept nogil:
    """Callabra (docs/rules.md §3.14, AMB-36), as _reference.State._pseudo_callabra: every card
    trails, takes one loose card of its value, or with a higher hand card q takes one loose
    card of their total (K_TWO_CARD, takes = q and the table card, value = the total). Listed
    in canonical order: per card, the trail, the captures, the two-card captures by takes."""
    cdef mask_t hand = c.h.hands[c.h.to_move]
    cdef mask_t m = hand, t, q
    cdef mask_t vmask[32]
    cdef int p, k, v
    cdef CMove tmp
    cdef size_t start, i, j
    if hand_over(c):
        return 0
    loose_by_value(c, vmask)
    while m:
        p = cas_ctz(m)
        m &= m - 1
        emit(buf, p, K_TRAIL, 0, 0)
        t = vmask[c.p.val[p]]
        while t:
            emit(buf, p, K_CAPTURE, t & (~t + 1), 0)
            t &= t - 1
        # two-card captures, by takes: a table card t and a higher hand card q, sorted below
        start = buf.n
        q = m
        while q:
            k = cas_ctz(q)
            q &= q - 1
            v = c.p.val[p] + c.p.val[k]
            if v >= 32:
                continue
            t = vmask[v]
            while t:
                emit(buf, p, K_TWO_CARD, ((<mask_t>1) << k) | (t & (~t + 1)), v)
                t &= t - 1
        if buf.overflow:
            return -1
        for i in range(start + 1, buf.n):      # insertion sort by takes (a handful)
            tmp = buf.moves[i]
            j = i
            while j > start and buf.moves[j - 1].takes > tmp.takes:
                buf.moves[j] = buf.moves[j - 1]
                j -= 1
            buf.moves[j] = tmp
    if buf.overflow:
        return -1
    return <int>buf.n

# capture_extent=single_group (Kontsina, docs/rules.md §3.16, AMB-38, AMB-39), as
# _reference.State._single_group: one loose card of the played card's rank, or one sum group
# of two or more loose numeric cards totalling its value (combine: also one of each).

cdef uint64_t single_sums(Core* c, MoveBuf* buf, int p, const uint8_t* ids, int n, int i,
                          int rem, mask_t cur, mask_t match) noexcept nogil:
    """List (buf not NULL) or count the sum groups of ids[i:] totalling rem added to cur,
    each alone and with every card of match."""
    cdef int j, w
    cdef uint64_t total = 0
    cdef mask_t m
    if rem == 0:
        if buf != NULL:
            emit(buf, p, K_CAPTURE, cur, 0)
            m = match
            while m:
                emit(buf, p, K_CAPTURE, cur | (m & (~m + 1)), 0)
                m &= m - 1
        return 1 + <uint64_t>cas_popcount(match)
    for j in range(i, n):
        w = c.p.val[ids[j]]
        if w <= rem:
            total += single_sums(c, buf, p, ids, n, j + 1, rem - w,
                                 cur | ((<mask_t>1) << ids[j]), match)
    return total

cdef uint64_t single_group_moves(Core* c, MoveBuf* buf) noexcept nogil:
    """List (buf not NULL, unsorted) or count the moves of capture_extent=single_group."""
    cdef mask_t hand = c.h.hands[c.h.to_move], m, same, t
    cdef uint8_t ids[NCARDS]
    cdef int p, v, n, k
    cdef uint64_t total = 0
    while hand:
        p = cas_ctz(hand)
        hand &= hand - 1
        v = c.p.val[p]
        total += 1
        if buf != NULL:
            emit(buf, p, K_TRAIL, 0, 0)
        same = 0
        if v or c.p.faces_capturable:
            same = c.h.loose & ((<mask_t>0xF) << (4 * (p // 4)))
        total += <uint64_t>cas_popcount(same)
        if buf != NULL:
            m = same
            while m:
                emit(buf, p, K_CAPTURE, m & (~m + 1), 0)
                m &= m - 1
        if v:
            n = 0
            t = c.h.loose
            while t:
                k = cas_ctz(t)
                t &= t - 1
                if 0 < c.p.val[k] < v:
                    ids[n] = <uint8_t>k
                    n += 1
            total += single_sums(c, buf, p, ids, n, 0, v, 0, same if c.p.combine else 0)
    return total

cdef int gen_single_group(Core* c, MoveBuf* buf) noexcept nogil:
    """The moves of capture_extent=single_group in canonical order; -1 on overflow."""
    single_group_moves(c, buf)
    if buf.overflow:
        return -1
    sort_moves(buf.moves, buf.n)
    return <int>buf.n

# rank_pairing_always (Finnish Kasino, docs/rules.md §3.21, AMB-52), as
# _reference.State._pseudo_finnish: a card also takes loose cards of its own rank, each alone,
# beside groups totalling its hand value. Subsets are walked in increasing order, so each
# card's captures come out in canonical order after its trail.

cdef uint64_t pairs_moves(Core* c, MoveBuf* buf) noexcept nogil:
    """List (buf not NULL, in canonical order) the moves of a Finnish position with
    rank_pairing_always, and return their number (pairs_count counts without the walk)."""
    cdef mask_t hand = c.h.hands[c.h.to_move], cand, same, sub, pair, pm, lm
    cdef uint64_t total = 0
    cdef int p, hv, k
    cdef int cnt[NVALUES]
    cdef bint ok
    while hand:
        p = cas_ctz(hand)
        hand &= hand - 1
        hv = c.p.hval[p]
        total += 1
        if buf != NULL:
            emit(buf, p, K_TRAIL, 0, 0)
        same = c.h.loose & ((<mask_t>0xF) << (4 * (p // 4)))
        cand = same
        lm = c.h.loose
        while lm:
            k = cas_ctz(lm)
            lm &= lm - 1
            if c.p.val[k] <= hv:
                cand |= (<mask_t>1) << k
        sub = cand & (~cand + 1)
        while sub:
            ok = False
            pm = sub & same
            pair = 0
            while True:
                mask_counts(c, sub & ~pair, cnt)
                if part_ok(cnt, hv, c.p.max_sum_groups):
                    ok = True
                    break
                pair = (pair - pm) & pm
                if pair == 0:
                    break
            if ok:
                total += 1
                if buf != NULL:
                    emit(buf, p, K_CAPTURE, sub, 0)
            sub = (sub - cand) & cand
    return total

cdef bint pairs_needed(Core* c) noexcept nogil:
    """Whether rank pairing can add a capture here: a hand card whose hand value is not its
    table value (A, 2S, 10D) with a loose card of its rank. Otherwise every other path
    lists the same moves (a card of one value takes cards of its rank as matches)."""
    cdef mask_t m
    cdef int p
    if not c.p.rank_pairs or c.h.to_move < 0:
        return False
    m = c.h.hands[c.h.to_move]
    while m:
        p = cas_ctz(m)
        m &= m - 1
        if c.p.hval[p] != c.p.val[p] and c.h.loose & ((<mask_t>0xF) << (4 * (p // 4))):
            return True
    return False

cdef int gen_pairs(Core* c, MoveBuf* buf) noexcept nogil:
    pairs_moves(c, buf)
    if buf.overflow:
        return -1
    return <int>buf.n

cdef int gen_moves(Core* c, MoveBuf* buf) noexcept nogil:
    """Fill buf with the legal moves in canonical order; returns their number or -1
    on overflow (more than buf.limit moves, or out of memory): the moves that play a
    hand card, then (opt_pluck) the plucks and the pass, which sort after them."""
    cdef int n, i
    cdef mask_t m
    if c.p.pluck and c.h.phase == PH_AFTER and c.h.to_move >= 0:
        buf.n = 0
        buf.overflow = 0
        n = 0
    else:
        n = gen_play_moves(c, buf)
        if n < 0 or not c.p.pluck or c.h.to_move < 0 or c.h.hands[c.h.to_move] == 0:
            return n
    m = pluckable(c)
    while m:
        emit(buf, NO_CARD, K_PLUCK, m & (~m + 1), 0)
        m &= m - 1
    if c.h.phase == PH_AFTER:
        emit(buf, NO_CARD, K_PASS, 0, 0)
    if buf.overflow:
        return -1
    for i in range(n, <int>buf.n):
        buf.moves[i].alt = 0
    return <int>buf.n

cdef int gen_play_moves(Core* c, MoveBuf* buf) noexcept nogil:
    """gen_moves for the moves that play a hand card."""
    cdef mask_t hand, m
    cdef int p, i
    cdef size_t r, w
    cdef int best[NCARDS]
    cdef Loose L
    cdef Fast F
    cdef LegalCtx lx
    cdef int fast, v, small, resort
    cdef bint face_table
    cdef uint64_t held, twice
    buf.n = 0
    buf.overflow = 0
    if c.h.to_move < 0:
        return 0
    hand = c.h.hands[c.h.to_move]
    if hand == 0:
        return 0
    if c.p.nmulti and multi_position(c):
        return gen_multi(c, buf)     # a card with two values in play (_royal.pxi)
    if c.p.callabra:
        return gen_callabra(c, buf)
    if c.p.single_group:
        return gen_single_group(c, buf)
    if c.p.rank_pairs and pairs_needed(c):
        return gen_pairs(c, buf)
    if c.p.diloti:
        return gen_diloti(c, buf)
    if c.p.maximal:
        memset(best, 0, sizeof(best))
    # the values held after playing p: all but p's own, unless another card has it
    held = 0
    twice = 0
    m = hand
    while m:
        v = c.p.val[cas_ctz(m)]
        twice |= held & ((<uint64_t>1) << v)
        held |= (<uint64_t>1) << v
        m &= m - 1
    small = small_path(c)
    face_table = c.p.face_builds and face_build_on_table(c)
    if face_table:
        small = 0     # (the holding checks need the face ranks: held_values, gen_card)
    if small:
        # few loose cards: the bitset paths (sorted as they go)
        if small == 1:
            fast = small_gen(c, buf, hand, held, twice, best) == 0
        else:
            fast = small_gen_b(c, buf, hand, held, twice, best) == 0
        if not fast:         # at the limit: the other path lists each move once
            buf.n = 0
            buf.overflow = 0
            memset(best, 0, sizeof(best))
    else:
        fast = fast_setup(c, &F) if not face_table else 0
    if fast and not small:
        legal_setup(c, &lx)
        F.lx = &lx
        m = hand
        while m and not buf.overflow:
            p = cas_ctz(m)
            v = c.p.val[p]
            if fast_card(c, &F, buf, p, c.p.hval[p],
                         (held & ~((<uint64_t>1) << v) | twice) & ~(<uint64_t>1), best) < 0:
                break
            m &= m - 1
        if F.full or buf.overflow:
            # too many groups, or at the limit (the count may include repeats): start
            # again on the other path, which lists each move once
            fast = 0
            buf.n = 0
            buf.overflow = 0
            memset(best, 0, sizeof(best))
    if not fast:
        memset(best, 0, sizeof(best))
        loose_setup(c, &L)
        if L.n > 64:
            # (_core128 only: the subsets of more than 64 loose cards are far past any limit)
            buf.overflow = 1
            return -1
        m = hand
        while m and not buf.overflow:
            p = cas_ctz(m)
            gen_card(c, &L, buf, p, hand, best)
            m &= m - 1
    if buf.overflow:
        return -1
    resort = 0
    if c.p.sweep_cards:
        resort = sweep_pass(c, buf, hand, best)
        if buf.overflow:
            return -1
    if c.p.face_builds and hand & FACE_MASK:
        face_pass(c, buf, hand, best)
        resort = 1
        if buf.overflow:
            return -1
    if c.p.maximal:
        w = 0
        for r in range(buf.n):
            if buf.moves[r].kind == K_CAPTURE and cas_popcount(buf.moves[r].takes) < best[buf.moves[r].card]:
                continue
            buf.moves[w] = buf.moves[r]
            w += 1
        buf.n = w
    if buf.n == 0:
        m = hand
        while m:
            emit(buf, cas_ctz(m), K_TRAIL, 0, 0)
            m &= m - 1
        if buf.overflow:
            return -1
    if not fast or resort:   # (the fast path sorts each card's kinds as it goes)
        sort_moves(buf.moves, buf.n)
    if c.p.nmulti:           # the paths above leave CMove.alt unset
        for r in range(buf.n):
            buf.moves[r].alt = 0
    return <int>buf.n

# ---------------------------------------------------------------------------------------
# Exact counting by value multisets (no listing)
# ---------------------------------------------------------------------------------------

cdef uint64_t BINOM[9][9]
cdef int _n, _k
for _n in range(9):
    for _k in range(9):
        if _k == 0 or _k == _n:
            BINOM[_n][_k] = 1 if _k <= _n else 0
        elif _k > _n:
            BINOM[_n][_k] = 0
        else:
            BINOM[_n][_k] = BINOM[_n - 1][_k - 1] + BINOM[_n - 1][_k]

cdef enum Mode:
    M_CAPTURE = 0
    M_CREATE = 1
    M_AUGMENT = 2
    M_INCREASE = 3

cdef struct MCtx:
    Core* c
    int mode
    int vp
    int w                    # capture value / augment build value / increase base
    int maxv
    int avail[NVALUES]
    int k[NVALUES]
    uint64_t legal_by_value[NVALUES]   # create/increase: 1 if a build of that value is legal
    uint64_t valid               # capture: number of valid loose subsets (empty included)
    int max_size
    uint64_t at_max
    uint64_t result

cdef void ms_leaf(MCtx* x, uint64_t ways, int total, int size) noexcept nogil:
    cdef int v, top, t, i
    cdef bint ok
    if x.mode == M_CAPTURE:
        if total % x.w == 0 and part_ok(x.k, x.w, x.c.p.max_sum_groups):
            x.valid += ways
            if size > x.max_size:
                x.max_size = size
                x.at_max = ways
            elif size == x.max_size:
                x.at_max += ways
    elif x.mode == M_CREATE:
        if size == 0:
            return
        t = x.vp + total
        top = x.vp
        for i in range(1, NVALUES):
            if x.k[i] and i > top:
                top = i
        v = top
        while v <= t and v <= x.c.p.build_max:
            if t % v == 0 and x.legal_by_value[v]:
                ok = False
                if t == v:
                    ok = True
                elif x.c.p.natural:
                    x.k[x.vp] += 1
                    ok = part_ok(x.k, v, BIG_SUMS)
                    x.k[x.vp] -= 1
                elif size == 1 and x.k[x.vp] == 1 and x.vp == v:
                    ok = True
                if ok:
                    x.result += ways
            v += 1
    elif x.mode == M_AUGMENT:
        if x.c.p.natural:
            if (total + x.vp) % x.w == 0:
                x.k[x.vp] += 1
                ok = part_ok(x.k, x.w, BIG_SUMS)
                x.k[x.vp] -= 1
                if ok:
                    x.result += ways
        elif total + x.vp == x.w:
            x.result += ways
    else:
        v = x.w + x.vp + total
        if v <= x.c.p.build_max and x.legal_by_value[v]:
            x.result += ways

cdef void ms_enum(MCtx* x, int v, uint64_t ways, int total, int size) noexcept nogil:
    cdef int kk
    if v == 0:
        ms_leaf(x, ways, total, size)
        return
    for kk in range(x.avail[v] + 1):
        if x.mode == M_INCREASE and total + kk * v > x.maxv:
            break
        x.k[v] = kk
        ms_enum(x, v - 1, ways * BINOM[x.avail[v]][kk], total + kk * v, size + kk)
    x.k[v] = 0

cdef void ms_setup(MCtx* x, Core* c, int mode, int vp, int w, int maxv) noexcept nogil:
    cdef mask_t m = c.h.loose
    cdef int i, v
    x.c = c
    x.mode = mode
    x.vp = vp
    x.w = w
    x.maxv = maxv
    memset(x.avail, 0, sizeof(x.avail))
    memset(x.k, 0, sizeof(x.k))
    x.valid = 0
    x.max_size = -1
    x.at_max = 0
    x.result = 0
    while m:
        i = cas_ctz(m)
        v = c.p.val[i]
        if 0 < v and (mode == M_INCREASE or v <= maxv):
            x.avail[v] += 1
        m &= m - 1

cdef uint64_t count_card(Core* c, int p, mask_t hand) noexcept nogil:
    cdef int vp = c.p.hval[p]
    cdef uint64_t held = held_values(c, hand & ~((<mask_t>1) << p))
    cdef uint64_t total = 0, n_ok
    cdef mask_t same, sub, takes, all_b
    cdef int i, j, k, n, nb, bs, w, top_v
    cdef int bidx[MAX_BUILDS]
    cdef MCtx x
    cdef int best = 0
    cdef uint64_t at_best = 0
    if is_legal(c, K_TRAIL, p, 0, 0, held):
        total += 1
    if vp == 0:
        same = c.h.loose & ((<mask_t>0xF) << (4 * (p // 4)))
        k = cas_popcount(same)
        sub = same
        while sub:
            n = cas_popcount(sub)
            if n == 1 or c.p.face_capture == 2 or (c.p.face_capture == 1 and n == 3 and k == 3):
                if c.p.maximal:
                    if n > best:
                        best = n
                        at_best = 0
                    if n == best and is_legal(c, K_CAPTURE, p, sub, 0, held):
                        at_best += 1
                elif is_legal(c, K_CAPTURE, p, sub, 0, held):
                    total += 1
            sub = (sub - 1) & same
        return total + at_best
    # captures
    nb = 0
    all_b = 0
    for i in range(c.h.nbuilds):
        if c.h.builds[i].value == vp:
            bidx[nb] = i
            all_b |= c.h.builds[i].cards
            nb += 1
    ms_setup(&x, c, M_CAPTURE, vp, vp, vp)
    ms_enum(&x, vp, 1, 0, 0)
    if c.p.maximal:
        if nb > 0 or x.max_size > 0:
            if is_legal(c, K_CAPTURE, p, all_b, 0, held):
                total += x.at_max
    else:
        for bs in range(1 << nb):
            takes = 0
            for j in range(nb):
                if (bs >> j) & 1:
                    takes |= c.h.builds[bidx[j]].cards
            if is_legal(c, K_CAPTURE, p, takes, 0, held):
                total += x.valid - (1 if bs == 0 else 0)
    # creates
    ms_setup(&x, c, M_CREATE, vp, 0, c.p.build_max)
    for w in range(NVALUES):
        x.legal_by_value[w] = 0
    for w in range(1, c.p.build_max + 1):
        x.legal_by_value[w] = is_legal(c, K_BUILD, p, 0, w, held)
    ms_enum(&x, c.p.build_max, 1, 0, 0)
    total += x.result
    # augments
    for i in range(c.h.nbuilds):
        w = c.h.builds[i].value
        if vp > w or (c.p.face_builds and (c.h.builds[i].cards & FACE_MASK)):
            continue     # (a natural face build takes face cards of its rank only)
        if not is_legal(c, K_AUGMENT, p, c.h.builds[i].cards, w, held):
            continue
        ms_setup(&x, c, M_AUGMENT, vp, w, w)
        ms_enum(&x, w, 1, 0, 0)
        total += x.result
    # increases
    for i in range(c.h.nbuilds):
        if c.h.builds[i].multiple:
            continue
        k = c.p.build_max - c.h.builds[i].value - vp
        if k < 0:
            continue
        ms_setup(&x, c, M_INCREASE, vp, c.h.builds[i].value, k)
        for w in range(NVALUES):
            x.legal_by_value[w] = 0
        for w in range(c.h.builds[i].value + vp, c.p.build_max + 1):
            x.legal_by_value[w] = is_legal(c, K_INCREASE, p, c.h.builds[i].cards, w, held)
        top_v = k if k < NVALUES - 1 else NVALUES - 1
        ms_enum(&x, top_v, 1, 0, 0)
        total += x.result
    return total

cdef bint capture_shape(Core* c, int p, mask_t takes) noexcept nogil:
    """Whether takes (whole builds and loose cards) is an ordinary capture of numeric p:
    builds of value(p) and loose cards forming groups of value(p)."""
    cdef int vp = c.p.hval[p], i, v
    cdef int cnt[NVALUES]
    cdef mask_t m = takes & c.h.loose
    for i in range(c.h.nbuilds):
        if (c.h.builds[i].cards & takes) and c.h.builds[i].value != vp:
            return False
    while m:
        v = c.p.val[cas_ctz(m)]
        if v == 0 or v > vp:
            return False
        m &= m - 1
    mask_counts(c, takes & c.h.loose, cnt)
    return vp > 0 and part_ok(cnt, vp, c.p.max_sum_groups)

cdef uint64_t count_sweep_card(Core* c, int p, mask_t hand) noexcept nogil:
    """count_card for a card of c.p.sweep_cards on a table with prey, as sweep_pass: the
    capture-all instead of the trail (instead of every move with sweep_only). The
    ordinary captures of a numeric card are counted by value multisets as count_card."""
    cdef uint64_t held = held_values(c, hand & ~((<mask_t>1) << p))
    cdef mask_t T = sweep_takes(c), all_b = 0
    cdef bint all_ok = is_legal(c, K_CAPTURE, p, T, 0, held)
    cdef uint64_t total
    cdef int vp = c.p.val[p], i, nb = 0, big = 0, nt = cas_popcount(T)
    cdef MCtx x
    if c.p.sweep_only or vp == 0:
        return 1 if all_ok else 0
    total = count_card(c, p, hand)
    if is_legal(c, K_TRAIL, p, 0, 0, held):
        total -= 1
    if not c.p.maximal:
        if all_ok and capture_shape(c, p, T):
            total -= 1   # the ordinary capture of the whole prey is the capture-all
        return total + (1 if all_ok else 0)
    # maximal: the largest ordinary capture (every build of value vp and the most loose
    # cards, as count_card) against the capture-all; the smaller ones are dropped
    for i in range(c.h.nbuilds):
        if c.h.builds[i].value == vp:
            all_b |= c.h.builds[i].cards
            nb += 1
    ms_setup(&x, c, M_CAPTURE, vp, vp, vp)
    ms_enum(&x, vp, 1, 0, 0)
    if nb > 0 or x.max_size > 0:
        big = cas_popcount(all_b) + x.max_size
        if big < nt and is_legal(c, K_CAPTURE, p, all_b, 0, held):
            total -= x.at_max
    if nt >= big and all_ok and not (nt == big and capture_shape(c, p, T)):
        total += 1
    return total

cdef uint64_t count_callabra(Core* c) noexcept nogil:
    """The number of moves gen_callabra lists, without listing them."""
    cdef mask_t hand = c.h.hands[c.h.to_move], m, q
    cdef mask_t vmask[32]
    cdef uint64_t total = 0
    cdef int p, k, v
    if hand_over(c):
        return 0
    loose_by_value(c, vmask)
    m = hand
    while m:
        p = cas_ctz(m)
        m &= m - 1
        total += 1 + <uint64_t>cas_popcount(vmask[c.p.val[p]])
        q = m
        while q:
            k = cas_ctz(q)
            q &= q - 1
            v = c.p.val[p] + c.p.val[k]
            if v < 32:
                total += <uint64_t>cas_popcount(vmask[v])
    return total

cdef uint64_t pairs_rec(Core* c, int* n, int* cnt, int v, int hv, int pv) noexcept nogil:
    """The subsets of the loose cards of values v..13 (n[w] cards of value w; cnt holds the
    values chosen below v) that, joined with cnt, leave groups of hv once some of the
    cards of value pv (the played card's rank) are taken alone, weighted by the ways to
    pick those cards."""
    cdef uint64_t total = 0, sub
    cdef int k, r
    cdef bint ok
    if v > 13:
        for r in range(cnt[pv] + 1):
            cnt[pv] -= r
            ok = part_ok(cnt, hv, c.p.max_sum_groups)
            cnt[pv] += r
            if ok:
                return 1
        return 0
    for k in range(n[v] + 1):
        cnt[v] = k
        sub = pairs_rec(c, n, cnt, v + 1, hv, pv)
        total += BINOM[n[v]][k] * sub
    cnt[v] = 0
    return total

cdef uint64_t pairs_count(Core* c) noexcept nogil:
    """count_play_moves of a position gen_pairs lists (rank_pairing_always): a card whose
    hand value is its table value counts as ever (count_card: pairing adds nothing to it);
    a hand A, 2S or 10D counts its trail and its captures by value multisets, a multiset
    being valid if some of its cards of the played rank, each taken alone, leave groups of
    the hand value (table values are the ranks, so the played rank is value val[p])."""
    cdef mask_t hand = c.h.hands[c.h.to_move], m, lm
    cdef uint64_t total = 0
    cdef int p, k
    cdef int n[NVALUES]
    cdef int cnt[NVALUES]
    m = hand
    while m:
        p = cas_ctz(m)
        m &= m - 1
        if c.p.hval[p] == c.p.val[p]:
            total += count_card(c, p, hand)
            continue
        memset(n, 0, sizeof(n))
        memset(cnt, 0, sizeof(cnt))
        lm = c.h.loose
        while lm:
            k = cas_ctz(lm)
            lm &= lm - 1
            if 1 <= c.p.val[k] <= 13 and n[c.p.val[k]] < 8:
                n[c.p.val[k]] += 1
        # the trail, and every valid multiset but the empty one
        total += 1 + pairs_rec(c, n, cnt, 1, c.p.hval[p], c.p.val[p]) - 1
    return total

cdef uint64_t count_moves_c(Core* c) noexcept nogil:
    """The number of legal moves, as gen_moves lists them (plucks and pass included)."""
    cdef uint64_t n
    if c.p.pluck and c.h.phase == PH_AFTER and c.h.to_move >= 0:
        return <uint64_t>cas_popcount(pluckable(c)) + 1
    n = count_play_moves(c)
    if n and c.p.pluck:
        n += <uint64_t>cas_popcount(pluckable(c))
    return n

cdef uint64_t count_play_moves(Core* c) noexcept nogil:
    cdef mask_t hand, m
    cdef uint64_t total = 0
    cdef int p
    cdef bint sweeping
    if c.h.to_move < 0:
        return 0
    if c.p.nmulti and multi_position(c):
        return count_multi(c)
    if c.p.callabra:
        return count_callabra(c)
    if c.p.single_group:
        return single_group_moves(c, NULL) if c.h.hands[c.h.to_move] else 0
    if c.p.rank_pairs and pairs_needed(c):
        return pairs_count(c)
    if c.p.diloti:
        return count_diloti(c)
    sweeping = sweep_applies(c)
    hand = c.h.hands[c.h.to_move]
    m = hand
    while m:
        p = cas_ctz(m)
        if sweeping and (c.p.sweep_cards >> p) & 1:
            total += count_sweep_card(c, p, hand)
        elif c.p.face_builds and (FACE_MASK >> p) & 1:
            total += count_face_card(c, p, hand)
        else:
            total += count_card(c, p, hand)
        m &= m - 1
    if total == 0:
        total = <uint64_t>cas_popcount(hand)
    return total

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
        batch = size if c.p.whole_deal else (2 if size - r >= 2 else 1)
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
    c.stock_len = <uint8_t>(ncards - pos)
    for j in range(ncards - pos):
        c.stock[j] = deck[pos + j]
    c.h.stock_pos = 0
    c.h.to_move = <int8_t>c.p.first_player
    if c.p.initial_pairs:
        grant_pairs(c)

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
        m |= (<mask_t>1) << c.piles[t][i]
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

cdef void apply_move(Core* c, const CMove* m) noexcept nogil:
    cdef int seat = c.h.to_move
    cdef int team = c.p.team_of[seat]
    cdef mask_t bit, t, rest
    cdef int i, target
    cdef bint first
    cdef CBuild* b
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
        i = 0
        while i < c.h.nbuilds:
            if c.h.builds[i].cards & m.takes:
                remove_build(c, i)
            else:
                i += 1
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
    elif m.kind == K_BUILD:
        c.h.loose &= ~m.takes
        if c.h.nbuilds < MAX_BUILDS:
            b = &c.h.builds[c.h.nbuilds]
            b.cards = m.takes | bit
            b.value = m.value
            b.owners = <uint8_t>(1 << seat)
            b.multiple = 1 if mask_sum(c, b.cards) // m.value >= 2 else 0
            if c.p.face_builds and (FACE_MASK >> m.card) & 1:
                b.multiple = 1          # a natural face build (Q on Q)
            b.alt = 0
            if c.p.nmulti:
                b.alt = m.alt
                b.multiple = 1 if (mask_sum(c, b.cards) + alt_extra(&c.p, b.cards, m.alt)) // m.value >= 2 else 0
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
                b.owners = <uint8_t>(1 << seat)
                b.multiple = 0
    if c.p.draw_refill and c.h.stock_pos < c.stock_len:
        # cassino_draw: the top stock card, after the play (holding checked before it)
        c.h.hands[seat] |= (<mask_t>1) << c.stock[c.h.stock_pos]
        c.h.stock_pos += 1
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
    if c.h.stock_pos < c.stock_len and not (c.p.callabra and c.h.nsweeps):
        # (Callabra: after the clear that ends the game, nothing more is dealt)
        deal_round(c)
        c.h.plucked = 0                 # opt_pluck: once per player per deal
        c.h.to_move = <int8_t>holder(c, c.p.first_player)
        return
    t = table_mask(c)
    if t:
        if c.h.last_capturer >= 0:
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

# ---------------------------------------------------------------------------------------
# Scoring in C (totals per team), as cassino.scoring.score_hand
# ---------------------------------------------------------------------------------------

cdef enum:
    NCATS = 19               # cassino.scoring.CATEGORIES
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

cdef enum:
    DEFAULT_PENALTY_C = 2    # cassino.scoring.DEFAULT_PENALTY

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
    for t in range(c.p.nteams):
        masks[t] = 0
        for i in range(c.h.pile_len[t]):
            masks[t] |= (<mask_t>1) << c.piles[t][i]
        counts[t] = c.h.pile_len[t]
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
    if winner >= 0:
        pts[winner * NCATS] = <int16_t>c.p.most_cards_points
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

cdef void score_totals(Core* c, int64_t* out) noexcept nogil:
    """Points per team, the sum of score_cats."""
    cdef int t, k
    cdef int16_t pts[MAX_SEATS * NCATS]
    score_cats(c, pts)
    for t in range(c.p.nteams):
        out[t] = 0
        for k in range(NCATS):
            out[t] += pts[t * NCATS + k]

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
    cdef int s, i, n
    n = rules.players
    if not 2 <= n <= MAX_SEATS:
        raise ValueError(f"the core supports 2 to {MAX_SEATS} players, not {n}")
    p.players = n
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
    p.deck_mask = <mask_t>rules.deck_mask
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
    p.aces_all_four = 1 if rules.aces_mode == "all_four_only" else 0
    p.cards_tie_spades = 1 if rules.cards_tie_spades else 0
    p.all_eleven_bonus = 1 if rules.all_eleven == "bonus" else 0
    p.pluck = 1 if rules.pluck else 0
    p.pluck_last_deal = 1 if rules.pluck_in_last_deal else 0
    p.pluck_loose = 1 if rules.pluck_last_loose else 0
    p.face_builds = 1 if rules.face_cards_all_four else 0
    p.nids = rules.num_ids                     # (_core128: id i + 52 is a copy of i)
    if p.nids > NCARDS:
        raise ValueError(f"{rules.system} needs the {p.nids}-card core (cassino._core128)")
    for i in range(NCARDS):
        p.val[i] = i % 52 // 4 + 1 if i % 52 // 4 + 1 <= 10 and i < p.nids else 0
    if rules.card_values != "standard":        # royal, ranked, finnish: J 11, Q 12, K 13
        for i in range(p.nids):
            p.val[i] = i % 52 // 4 + 1
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
    """A mask as a Python int. (_core128: Cython's own conversion of a 128-bit integer goes
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
                f"{pos.rules.system} has {pos.rules.num_ids} card ids, more than the masks of "
                "this core hold: State.from_position/from_json/deal/new_hand give a "
                "cassino._core128.State for it")
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
        for t, pile in enumerate(pos.piles):
            c.h.pile_len[t] = len(pile)
            for i, card in enumerate(pile):
                c.piles[t][i] = card
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
        c.h.phase = {"start": PH_START, "plucked": PH_PLUCKED, "after": PH_AFTER}[pos.phase]
        c.h.trailed1 = 0 if pos.trailed is None else pos.trailed + 1
        for t, n in enumerate(pos.defaults):
            if n > 255:
                raise ValueError("too many defaults")
            c.h.ndefaults[t] = n
        for t, n in enumerate(pos.mulles):
            if n > 255:
                raise ValueError("too many Mulle captures")
            c.h.nmulle[t] = n
        self._scores = tuple(pos.scores)
        set_start_scores(c, self._scores)
        if pos.rules.xeri_first_play == "first_hand" and any(self._scores):
            c.p.xeri_first = 0      # (AMB-48 option: only in the first hand of the game)
        self._depth = 0
        self._version += 1
        return 0

    # -- construction ----------------------------------------------------------------------
    # A system whose deck needs more card ids than this module's NCARDS (Mulle's 104 in
    # _core) gets a State of cassino._core128 from the constructors below.
    @classmethod
    def from_position(cls, position: Position):
        """A state at ``position``."""
        if position.rules.num_ids > NCARDS:
            return _wide().State.from_position(position)
        return cls(position)

    @classmethod
    def from_json(cls, text):
        """A state from position JSON."""
        return cls.from_position(Position.from_json(text))

    @classmethod
    def new_hand(cls, rules: Rules, dealer: int, deck, scores=None):
        """A freshly dealt hand: ``deck`` is the shuffled deck, dealt from the front."""
        cdef State st
        cdef uint8_t cards[NCARDS]
        cdef int i
        if rules.num_ids > NCARDS:
            return _wide().State.new_hand(rules, dealer, deck, scores)
        if not isinstance(dealer, int) or not 0 <= dealer < rules.players:
            raise PositionError(f"dealer must be a seat from 0 to {rules.players - 1}, not {dealer!r}")
        deck = system_deck(rules, deck)
        if len(deck) > NCARDS:
            raise ValueError(f"{rules.system} needs the {rules.num_ids}-card core (cassino._core128)")
        for i in range(len(deck)):
            cards[i] = <uint8_t>deck[i]
        st = cls.__new__(cls)
        memset(&st.c, 0, sizeof(Core))
        load_params(&st.c.p, rules, dealer)
        init_hand(&st.c, cards, len(deck), dealer)
        st._rules = rules
        st._scores = tuple(scores or [0] * rules.num_teams)
        set_start_scores(&st.c, st._scores)
        if rules.xeri_first_play == "first_hand" and any(st._scores):
            st.c.p.xeri_first = 0   # (AMB-48 option: only in the first hand of the game)
        st._root = None          # the position at ply 0, made when first needed (_root_position)
        return st

    @classmethod
    def deal(cls, rules: Rules, dealer: int, seed: int):
        """A freshly dealt hand, the deck shuffled from ``seed`` in C: the same deal as
        ``new_hand(rules, dealer, shuffled_deck(Rng(seed)))``."""
        cdef Rng64 rng
        cdef uint8_t cards[NCARDS]
        cdef State st
        if rules.num_ids > NCARDS:
            return _wide().State.deal(rules, dealer, seed)
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
                  c.h.builds[i].raised)
            for i in range(c.h.nbuilds)
        )
        return Position(
            rules=rules,
            dealer=c.dealer,
            to_move=c.h.to_move,
            hands=tuple(mask_int(c.h.hands[s]) for s in range(c.p.players)),
            loose=mask_int(c.h.loose),
            builds=tuple(builds),
            piles=tuple(tuple(c.piles[t][i] for i in range(c.h.pile_len[t]))
                        for t in range(c.p.nteams)),
            stock=tuple(c.stock[i] for i in range(c.h.stock_pos, c.stock_len)),
            last_capturer=None if c.h.last_capturer < 0 else c.h.last_capturer,
            sweep_order=tuple(c.sweep_order[i] for i in range(c.h.nsweeps)),
            scores=self._scores,
            discard=tuple(c.discard[i] for i in range(c.h.ndiscard)),
            plucked=c.h.plucked,
            phase=("start", "plucked", "after")[c.h.phase],
            trailed=None if c.h.trailed1 == 0 else c.h.trailed1 - 1,
            defaults=self._defaults(),
            mulles=self._mulles(),
        )

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
            scores=pos.scores, mulles=pos.mulles,
        )

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
        return _RefState.from_position(self.to_position()).explain(move)

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


CORE_BYTES = sizeof(Core)
HOT_BYTES = sizeof(Hot)

cdef object _new_object = object.__new__
# indexed by kind number (5 and 6 are reserved and unused)
cdef tuple _KIND_MEMBERS = tuple(MoveKind(k) if k in set(MoveKind) else None
                                 for k in range(max(MoveKind) + 1))

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


def _wide():
    """cassino._core128, the core of the 104-card deck (Mulle)."""
    from cassino import _core128
    return _core128


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
    if rules.num_ids > NCARDS:
        return _wide().random_hand(rules, seed, dealer)
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


# ---------------------------------------------------------------------------------------
# Batch playouts (cassino.playouts): whole hands in C, results into NumPy arrays
# ---------------------------------------------------------------------------------------

cdef enum:
    POL_RANDOM = 0
    POL_GREEDY = 1
    POL_PYTHON = 2

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
for _i in range(NCARDS):                     # (_core128: id i + 52 is a copy of i)
    GREEDY_W[_i] = 2 + (2 if _i % 4 == 0 else 0)
    if _i % 52 == 38:
        GREEDY_W[_i] += 20                   # 10D
    elif _i % 52 == 4 or _i % 52 < 4:
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
        elif m.kind == K_PLUCK:
            g = mask_weight(m.takes)
        elif m.kind == K_PASS:
            g = 0
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
        cards[t] = <int16_t>c.h.pile_len[t]
        sweeps[t] = 0
    for i in range(c.h.nsweeps):
        sweeps[c.sweep_order[i]] += 1

cdef int play_core_hand(Core* c, Rng64* rng, MoveBuf* buf, const uint8_t* pol) noexcept nogil:
    """Play a dealt hand to its end with core policies; the number of moves, or -1."""
    cdef int n, k, moves = 0
    while not hand_over(c):
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
    if rules.num_ids > NCARDS:
        _wide()._fill_playouts(rules, seed, start, policies, hooks, points, cards, sweeps,
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
        for i in range(n):
            st = <State?>states[i]
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


include "_stream.pxi"
include "_royal.pxi"
include "_diloti.pxi"
