# Streaming listing of the legal moves: State.iter_moves() and MoveStream. The reference
# side: State.iter_moves in cassino/reference/state.py.
#
# Included at the end of _core.pyx. The moves come out in exactly the canonical order of
# legal_moves(), (card, kind, takes, value), a chunk at a time, in memory bounded
# independently of their number: positions with few moves are listed by gen_moves and
# served from that list; larger ones are walked by resumable cursors.
#
# The walk mirrors gen_card (the generic path of gen_moves) card by card and kind by kind:
#
# * the loose numeric cards are compressed to indices 0..n-1 in ascending card id
#   (loose_setup), so the subsets ``sub`` of a candidate mask walked in increasing integer
#   order (``sub = (sub - cand) & cand``) give increasing ``sub_cards(sub)``, and so
#   increasing takes when a fixed disjoint mask (builds) is added;
# * captures: the candidates are the loose cards of value <= vp and the builds of value vp,
#   each build one element placed at its highest card. The highest card that differs
#   between two unions of elements is the top card of the highest element that differs,
#   so walking the subsets of the elements in increasing order lists the takes in
#   increasing order: one cursor, no merge;
# * creates: one cursor over the subsets, the values of each subset in increasing order;
# * augments and increases: one cursor per build, merged (takes differ between builds);
# * faces: at most 15 captures, sorted;
# * capture_extent=maximal: the size of the largest capture of each card comes first from
#   the multiset enumeration of count_card (no listing); only captures of that size are
#   emitted, and a maximal capture holds every build of the card's value;
# * no legal move at all: every trail, as gen_moves does.
#
# Subset sums and value counts come from tables (12 bits of the subset per table), and
# the partition checks (part_ok) are remembered by value counts, so a step of a walk costs
# a few table lookups: the 16 million moves of the 24-card table take about a second.

from cassino.reference.base import _int_arg

cdef enum:
    STREAM_SMALL = 1 << 14       # positions with at most this many moves: listed at once
    STREAM_MAX_CHUNK = LIST_LIMIT
    SUM_BITS = 12
    SUM_CHUNKS = 5               # 5 * 12 bits >= 52 cards
    SUM_LOW = (1 << SUM_BITS) - 1
    PACK_VALUES = 12             # packed value counts: 4 bits for each of the values 1..12
    MEMO_BITS = 15               # partition memo: 32,768 entries

cdef enum:
    SP_CARD = 0                  # start the next hand card (its trail)
    SP_CAPTURE_SETUP = 1
    SP_FACE = 2
    SP_CAPTURE = 3
    SP_CREATE = 4
    SP_AUGMENT = 5
    SP_INCREASE = 6
    SP_FALLBACK = 7              # no legal move: every trail
    SP_DONE = 8

cdef struct SubTab:
    # for subsets of up to 52 cards, 12 bits of the subset per table: the sum of their
    # values, and their value counts packed 4 bits per value (values 1 to 12)
    int nch
    uint16_t s[SUM_CHUNKS][1 << SUM_BITS]
    uint64_t k[SUM_CHUNKS][1 << SUM_BITS]

cdef inline uint64_t pack1(int v) noexcept nogil:
    """One card of value v in a packed count (nothing for a value above PACK_VALUES)."""
    if 1 <= v <= PACK_VALUES:
        return (<uint64_t>1) << (4 * (v - 1))
    return 0

cdef void subtab_fill(SubTab* T, const uint8_t* vals, int n) noexcept nogil:
    cdef int k, lo, m, j
    cdef uint32_t x
    T.nch = (n + SUM_BITS - 1) // SUM_BITS
    if T.nch == 0:
        T.nch = 1
    for k in range(T.nch):
        lo = k * SUM_BITS
        m = n - lo if n - lo < SUM_BITS else SUM_BITS
        if m < 0:
            m = 0
        T.s[k][0] = 0
        T.k[k][0] = 0
        for x in range(1, (<uint32_t>1) << m):
            j = lo + cas_ctz(x)
            T.s[k][x] = <uint16_t>(T.s[k][x & (x - 1)] + vals[j])
            T.k[k][x] = T.k[k][x & (x - 1)] + pack1(vals[j])

cdef inline int subtab_sum(const SubTab* T, uint64_t sub) noexcept nogil:
    cdef int s = T.s[0][sub & SUM_LOW]
    if T.nch > 1:
        s += T.s[1][(sub >> 12) & SUM_LOW]
        if T.nch > 2:
            s += T.s[2][(sub >> 24) & SUM_LOW]
            if T.nch > 3:
                s += T.s[3][(sub >> 36) & SUM_LOW]
                if T.nch > 4:
                    s += T.s[4][(sub >> 48) & SUM_LOW]
    return s

cdef inline uint64_t subtab_pack(const SubTab* T, uint64_t sub) noexcept nogil:
    cdef uint64_t k = T.k[0][sub & SUM_LOW]
    if T.nch > 1:
        k += T.k[1][(sub >> 12) & SUM_LOW]
        if T.nch > 2:
            k += T.k[2][(sub >> 24) & SUM_LOW]
            if T.nch > 3:
                k += T.k[3][(sub >> 36) & SUM_LOW]
                if T.nch > 4:
                    k += T.k[4][(sub >> 48) & SUM_LOW]
    return k

cdef inline bint divides(int v, int s) noexcept nogil:
    """v (1..31) divides s (> 0)."""
    if s < 1024:
        return (DIVS[s] >> v) & 1
    return s % v == 0

cdef struct SCur:
    # a resumable walk over the subsets of cand, in increasing order
    uint64_t cand
    uint64_t nxt                 # the next subset to look at
    int done                     # nxt has been looked at already
    uint64_t cur                 # creates: the subset whose values are being tried
    uint32_t dm                  # creates: the values still to try for cur
    int total                    # creates: value of cur with the card played
    mask_t base                  # build cards joined to every takes (augment, increase)
    int bval                     # the build's value (augment, increase)
    uint8_t legal_v[NVALUES]     # increases: the legal resulting values
    mask_t takes                 # the head move
    int value

cdef inline uint64_t scur_step(SCur* q) noexcept nogil:
    """The subset to look at; moves the cursor on (not done before the call)."""
    cdef uint64_t sub = q.nxt
    q.nxt = (sub - q.cand) & q.cand
    if q.nxt == 0:
        q.done = 1
    return sub

cdef inline void scur_start(SCur* q, uint64_t cand, bint with_empty) noexcept nogil:
    q.cand = cand
    if with_empty:
        q.nxt = 0
        q.done = 0
    else:
        q.nxt = cand & (<uint64_t>0 - cand)
        q.done = 1 if cand == 0 else 0
    q.dm = 0
    q.cur = 0

cdef struct SGen:
    Core* c
    Loose L
    SubTab ls                    # sums and counts over the loose numeric cards
    mask_t hand
    mask_t rest                  # hand cards not started yet (then: fallback trails)
    uint64_t emitted
    int phase
    int p
    int vp
    uint64_t held
    # captures: elements (loose cards of value <= vp, builds of vp) by their highest card
    int nc
    mask_t ccards[NCARDS]
    uint8_t cval[NCARDS]         # the loose card's value, 0 for a build
    uint8_t cbit[NCARDS]         # a build's index in bidx
    uint64_t cbuilds             # the elements that are builds
    uint64_t cfixed              # maximal: every build, in every capture
    int cap_size                 # maximal: the loose cards of a largest capture, else -1
    int nb
    int bidx[MAX_BUILDS]
    uint8_t blegal[256]
    SubTab cs                    # sums and counts over the elements (builds: none)
    SCur cap
    # face captures
    int nface
    int iface
    mask_t face[16]
    # creates
    uint32_t legal_mask
    SCur cre
    # augments, increases: one cursor per build, merged
    int ncur
    SCur cur[MAX_BUILDS]
    # part_ok by packed value counts: (key | valid << 63 | result << 62), direct-mapped
    int memo_ok                  # values 1..12 only, at most 14 cards of a value
    uint64_t memo[1 << MEMO_BITS]

cdef bint memo_part_ok(SGen* S, uint64_t packed, int v, int max_sum) noexcept nogil:
    """part_ok of the packed value counts, remembered."""
    cdef uint64_t key = (packed | ((<uint64_t>v) << 48)
                         | ((<uint64_t>(max_sum if max_sum < 127 else 127)) << 53))
    cdef uint64_t h = (key * <uint64_t>0x9E3779B97F4A7C15ULL) >> (64 - MEMO_BITS)
    cdef uint64_t e = S.memo[h]
    cdef int cnt[NVALUES]
    cdef int i
    cdef bint ok
    if (e >> 63) and (e & ((<uint64_t>1 << 62) - 1)) == key:
        return (e >> 62) & 1
    memset(cnt, 0, sizeof(cnt))
    for i in range(PACK_VALUES):
        cnt[i + 1] = <int>((packed >> (4 * i)) & 0xF)
    ok = part_ok(cnt, v, max_sum)
    S.memo[h] = key | ((<uint64_t>1) << 63) | ((<uint64_t>ok) << 62)
    return ok

cdef void sg_init(SGen* S, Core* c) noexcept nogil:
    cdef int i
    cdef int cnt[NVALUES]
    S.c = c
    loose_setup(c, &S.L)
    subtab_fill(&S.ls, S.L.vals, S.L.n)
    S.memo_ok = 1
    memset(cnt, 0, sizeof(cnt))
    for i in range(S.L.n):
        cnt[S.L.vals[i]] += 1
        if S.L.vals[i] > PACK_VALUES or cnt[S.L.vals[i]] > 14:
            S.memo_ok = 0
    memset(S.memo, 0, sizeof(S.memo))
    S.emitted = 0
    S.ncur = 0
    S.nface = 0
    S.iface = 0
    if c.h.to_move < 0 or c.h.hands[c.h.to_move] == 0:
        S.hand = 0
        S.rest = 0
        S.phase = SP_DONE
        return
    S.hand = c.h.hands[c.h.to_move]
    S.rest = S.hand
    S.phase = SP_CARD

cdef void sg_faces(SGen* S) noexcept nogil:
    """The captures of a card without a value, as gen_face, sorted."""
    cdef Core* c = S.c
    cdef int p = S.p
    cdef mask_t same = c.h.loose & ((<mask_t>0xF) << (4 * (p // 4)))
    cdef int k = cas_popcount(same), n, best = 0, i, j, w
    cdef mask_t fsub = same, t
    S.nface = 0
    S.iface = 0
    while fsub:
        n = cas_popcount(fsub)
        if n == 1 or c.p.face_capture == 2 or (c.p.face_capture == 1 and n == 3 and k == 3):
            if n > best:
                best = n
            if is_legal(c, K_CAPTURE, p, fsub, 0, S.held):
                S.face[S.nface] = fsub
                S.nface += 1
        fsub = (fsub - 1) & same
    if c.p.maximal:
        w = 0
        for i in range(S.nface):
            if cas_popcount(S.face[i]) == best:
                S.face[w] = S.face[i]
                w += 1
        S.nface = w
    for i in range(1, S.nface):
        t = S.face[i]
        j = i
        while j > 0 and S.face[j - 1] > t:
            S.face[j] = S.face[j - 1]
            j -= 1
        S.face[j] = t

cdef void sg_capture_setup(SGen* S) noexcept nogil:
    cdef Core* c = S.c
    cdef Loose* L = &S.L
    cdef int vp = S.vp, i, j, n, nb = 0, e
    cdef mask_t all_b = 0, m
    cdef uint64_t cand, lo_elems = 0
    cdef int key[NCARDS]
    cdef int tk
    cdef mask_t tcards
    cdef uint8_t tval, tbit
    cdef MCtx x
    cdef uint32_t bs
    for i in range(c.h.nbuilds):
        if c.h.builds[i].value == vp:
            S.bidx[nb] = i
            all_b |= c.h.builds[i].cards
            nb += 1
    S.nb = nb
    S.cap_size = -1
    cand = L.le64[vp]
    if c.p.maximal:
        # the largest valid set of loose cards, by value multisets (as count_card)
        ms_setup(&x, c, M_CAPTURE, vp, vp, vp)
        ms_enum(&x, vp, 1, 0, 0)
        if x.max_size <= 0 and nb == 0:
            scur_start(&S.cap, 0, False)       # no capture at all
            return
        S.cap_size = x.max_size if x.max_size > 0 else 0
        if S.cap_size == 0:
            cand = 0
    # the elements, by their highest card: loose cards in ascending order, builds inserted
    n = 0
    m = cand
    while m:
        i = cas_ctz(m)
        m &= m - 1
        key[n] = L.ids[i]
        S.ccards[n] = (<mask_t>1) << L.ids[i]
        S.cval[n] = L.vals[i]
        S.cbit[n] = 0
        n += 1
    for j in range(nb):
        tcards = c.h.builds[S.bidx[j]].cards
        tk = cas_top(tcards)
        e = n
        while e > 0 and key[e - 1] > tk:
            key[e] = key[e - 1]
            S.ccards[e] = S.ccards[e - 1]
            S.cval[e] = S.cval[e - 1]
            S.cbit[e] = S.cbit[e - 1]
            e -= 1
        key[e] = tk
        S.ccards[e] = tcards
        S.cval[e] = 0
        S.cbit[e] = <uint8_t>j
        n += 1
    S.nc = n
    S.cbuilds = 0
    for e in range(n):
        if S.cval[e] == 0:
            S.cbuilds |= (<uint64_t>1) << e
    lo_elems = (((<uint64_t>1) << n) - 1) & ~S.cbuilds if n < 64 else ~S.cbuilds
    subtab_fill(&S.cs, S.cval, n)
    if nb <= 8:
        for bs in range((<uint32_t>1) << nb):
            S.blegal[bs] = is_legal(c, K_CAPTURE, S.p, builds_union(c, S.bidx, nb, bs), 0, S.held)
    if c.p.maximal:
        S.cfixed = S.cbuilds
        scur_start(&S.cap, lo_elems, S.cfixed != 0)
    else:
        S.cfixed = 0
        scur_start(&S.cap, lo_elems | S.cbuilds, False)

cdef bint sg_capture_next(SGen* S) noexcept nogil:
    cdef Core* c = S.c
    cdef SCur* q = &S.cap
    cdef uint64_t sub, cm, bb, lm
    cdef int s, e, vp = S.vp
    cdef uint32_t bs
    cdef mask_t bm, takes
    cdef bint ok
    cdef int cnt[NVALUES]
    while not q.done:
        sub = scur_step(q)
        if S.cap_size >= 0 and cas_popcount(sub) != S.cap_size:
            continue
        cm = sub | S.cfixed
        s = subtab_sum(&S.cs, cm)
        if s:
            if not divides(vp, s):
                continue
            if s > vp:
                if S.memo_ok:
                    ok = memo_part_ok(S, subtab_pack(&S.cs, cm), vp, c.p.max_sum_groups)
                else:
                    memset(cnt, 0, sizeof(cnt))
                    lm = cm & ~S.cbuilds
                    while lm:
                        cnt[S.cval[cas_ctz(lm)]] += 1
                        lm &= lm - 1
                    ok = part_ok(cnt, vp, c.p.max_sum_groups)
                if not ok:
                    continue
        bb = cm & S.cbuilds
        bs = 0
        bm = 0
        while bb:
            e = cas_ctz(bb)
            bs |= (<uint32_t>1) << S.cbit[e]
            bm |= S.ccards[e]
            bb &= bb - 1
        if S.nb <= 8:
            ok = S.blegal[bs]
        else:   # more than eight builds of one value (unique_build_values=false)
            ok = is_legal(c, K_CAPTURE, S.p, bm, 0, S.held)
        if not ok:
            continue
        takes = bm
        lm = cm & ~S.cbuilds
        while lm:
            takes |= S.ccards[cas_ctz(lm)]
            lm &= lm - 1
        q.takes = takes
        return True
    return False

cdef void sg_create_setup(SGen* S) noexcept nogil:
    cdef Core* c = S.c
    cdef int v
    S.legal_mask = 0
    for v in range(1, c.p.build_max + 1):
        if v >= S.vp and (S.held >> v) & 1 and is_legal(c, K_BUILD, S.p, 0, v, S.held):
            S.legal_mask |= (<uint32_t>1) << v
    if S.legal_mask:
        scur_start(&S.cre, S.L.le64[c.p.build_max], False)
    else:
        scur_start(&S.cre, 0, False)

cdef bint sg_create_next(SGen* S) noexcept nogil:
    cdef Core* c = S.c
    cdef Loose* L = &S.L
    cdef SCur* q = &S.cre
    cdef int v, vp = S.vp
    cdef bint ok
    cdef uint64_t sub
    cdef int cnt[NVALUES]
    while True:
        while q.dm:
            v = cas_ctz(q.dm)
            q.dm &= q.dm - 1
            if q.cur & ~L.le64[v]:
                continue
            if q.total == v:
                ok = True
            elif c.p.natural:
                if S.memo_ok and vp <= PACK_VALUES:
                    ok = memo_part_ok(S, subtab_pack(&S.ls, q.cur) + pack1(vp), v, BIG_SUMS)
                else:
                    sub_counts(L, q.cur, cnt)
                    cnt[vp] += 1
                    ok = part_ok(cnt, v, BIG_SUMS)
            else:
                ok = (q.cur & (q.cur - 1)) == 0 and L.vals[cas_ctz(q.cur)] == vp and vp == v
            if ok:
                q.takes = sub_cards(L, q.cur)
                q.value = v
                return True
        if q.done:
            return False
        sub = scur_step(q)
        q.cur = sub
        q.total = vp + subtab_sum(&S.ls, sub)
        q.dm = (DIVS[q.total] if q.total < 1024 else 0) & S.legal_mask

cdef bint sg_augment_next(SGen* S, SCur* q) noexcept nogil:
    cdef Core* c = S.c
    cdef uint64_t sub
    cdef int s, w = q.bval
    cdef bint ok
    cdef int cnt[NVALUES]
    while not q.done:
        sub = scur_step(q)
        s = subtab_sum(&S.ls, sub) + S.vp
        if c.p.natural:
            ok = False
            if s == w:
                ok = True
            elif s % w == 0:
                if S.memo_ok and S.vp <= PACK_VALUES:
                    ok = memo_part_ok(S, subtab_pack(&S.ls, sub) + pack1(S.vp), w, BIG_SUMS)
                else:
                    sub_counts(&S.L, sub, cnt)
                    cnt[S.vp] += 1
                    ok = part_ok(cnt, w, BIG_SUMS)
        else:
            ok = s == w
        if ok:
            q.takes = sub_cards(&S.L, sub) | q.base
            q.value = w
            return True
    return False

cdef bint sg_increase_next(SGen* S, SCur* q) noexcept nogil:
    cdef uint64_t sub
    cdef int s, k = S.c.p.build_max - q.bval - S.vp
    while not q.done:
        sub = scur_step(q)
        s = subtab_sum(&S.ls, sub)
        if s <= k and q.legal_v[q.bval + S.vp + s]:
            q.takes = sub_cards(&S.L, sub) | q.base
            q.value = q.bval + S.vp + s
            return True
    return False

cdef void sg_augment_setup(SGen* S) noexcept nogil:
    cdef Core* c = S.c
    cdef int i, w
    cdef SCur* q
    S.ncur = 0
    for i in range(c.h.nbuilds):
        w = c.h.builds[i].value
        if S.vp > w or not is_legal(c, K_AUGMENT, S.p, c.h.builds[i].cards, w, S.held):
            continue
        q = &S.cur[S.ncur]
        scur_start(q, S.L.le64[w], True)
        q.base = c.h.builds[i].cards
        q.bval = w
        if sg_augment_next(S, q):
            S.ncur += 1

cdef void sg_increase_setup(SGen* S) noexcept nogil:
    cdef Core* c = S.c
    cdef int i, k, w
    cdef bint any_legal
    cdef SCur* q
    S.ncur = 0
    for i in range(c.h.nbuilds):
        if c.h.builds[i].multiple:
            continue
        k = c.p.build_max - c.h.builds[i].value - S.vp
        if k < 0:
            continue
        q = &S.cur[S.ncur]
        memset(q.legal_v, 0, sizeof(q.legal_v))
        any_legal = False
        for w in range(c.h.builds[i].value + S.vp, c.p.build_max + 1):
            q.legal_v[w] = (S.held >> w) & 1 and is_legal(c, K_INCREASE, S.p, c.h.builds[i].cards,
                                                          w, S.held)
            any_legal = any_legal or q.legal_v[w]
        if not any_legal:
            continue
        scur_start(q, S.L.le64[k], True)
        q.base = c.h.builds[i].cards
        q.bval = c.h.builds[i].value
        if sg_increase_next(S, q):
            S.ncur += 1

cdef bint sg_merge_next(SGen* S, bint increase, mask_t* takes, int* value) noexcept nogil:
    """The smallest head of the build cursors; that cursor moves on."""
    cdef int j, b = 0
    cdef bint more
    if S.ncur == 0:
        return False
    for j in range(1, S.ncur):
        if S.cur[j].takes < S.cur[b].takes or (
                S.cur[j].takes == S.cur[b].takes and S.cur[j].value < S.cur[b].value):
            b = j
    takes[0] = S.cur[b].takes
    value[0] = S.cur[b].value
    if increase:
        more = sg_increase_next(S, &S.cur[b])
    else:
        more = sg_augment_next(S, &S.cur[b])
    if not more:
        S.ncur -= 1
        if b != S.ncur:
            S.cur[b] = S.cur[S.ncur]
    return True

cdef inline bint sg_out(SGen* S, CMove* m, int kind, mask_t takes, int value) noexcept nogil:
    m.card = <uint8_t>S.p
    m.kind = <uint8_t>kind
    m.takes = takes
    m.value = <uint8_t>value
    S.emitted += 1
    return True

cdef bint sg_next(SGen* S, CMove* m) noexcept nogil:
    """The next legal move in canonical order into m; False at the end."""
    cdef Core* c = S.c
    cdef mask_t takes
    cdef int value
    while True:
        if S.phase == SP_CARD:
            if S.rest == 0:
                S.phase = SP_FALLBACK
                S.rest = S.hand if S.emitted == 0 else 0
                continue
            S.p = cas_ctz(S.rest)
            S.rest &= S.rest - 1
            S.vp = c.p.hval[S.p]
            S.held = held_values(c, S.hand & ~((<mask_t>1) << S.p))
            S.phase = SP_CAPTURE_SETUP
            if is_legal(c, K_TRAIL, S.p, 0, 0, S.held):
                return sg_out(S, m, K_TRAIL, 0, 0)
        elif S.phase == SP_CAPTURE_SETUP:
            if S.vp == 0:
                sg_faces(S)
                S.phase = SP_FACE
            else:
                sg_capture_setup(S)
                S.phase = SP_CAPTURE
        elif S.phase == SP_FACE:
            if S.iface < S.nface:
                S.iface += 1
                return sg_out(S, m, K_CAPTURE, S.face[S.iface - 1], 0)
            S.phase = SP_CARD          # a card without a value only trails and captures
        elif S.phase == SP_CAPTURE:
            if sg_capture_next(S):
                return sg_out(S, m, K_CAPTURE, S.cap.takes, 0)
            sg_create_setup(S)
            S.phase = SP_CREATE
        elif S.phase == SP_CREATE:
            if sg_create_next(S):
                return sg_out(S, m, K_BUILD, S.cre.takes, S.cre.value)
            sg_augment_setup(S)
            S.phase = SP_AUGMENT
        elif S.phase == SP_AUGMENT:
            if sg_merge_next(S, False, &takes, &value):
                return sg_out(S, m, K_AUGMENT, takes, value)
            sg_increase_setup(S)
            S.phase = SP_INCREASE
        elif S.phase == SP_INCREASE:
            if sg_merge_next(S, True, &takes, &value):
                return sg_out(S, m, K_INCREASE, takes, value)
            S.phase = SP_CARD
        elif S.phase == SP_FALLBACK:
            if S.rest:
                S.p = cas_ctz(S.rest)
                S.rest &= S.rest - 1
                return sg_out(S, m, K_TRAIL, 0, 0)
            S.phase = SP_DONE
        else:
            return False

cdef size_t sg_fill(SGen* S, CMove* out, size_t cap) noexcept nogil:
    cdef size_t n = 0
    while n < cap and sg_next(S, &out[n]):
        n += 1
    return n


cdef enum:
    MS_START = 0
    MS_LISTED = 1                # the moves are all in _moves (a small position)
    MS_STREAM = 2
    MS_DONE = 3


cdef class MoveStream:
    """Iterator over the legal moves of a :class:`State`, in the canonical order of
    :meth:`State.legal_moves`, generated ``chunk`` moves at a time (made by
    :meth:`State.iter_moves`).

    Memory is bounded independently of the number of moves: positions with at most
    ``small_limit`` moves (default 16,384, 256 KB of moves) are listed at once by the move
    generator; larger ones are walked by resumable cursors (one for the captures of the
    card played, one for its builds, one per table build for augments and increases) into
    a buffer of ``chunk`` moves (16 bytes each): O(chunk + number of builds), plus about
    700 KB of fixed tables, whatever the number of moves (millions). The GIL is released
    while a chunk of 64 moves or more is generated.

    The state must not change while it is iterated: the next step after a push, pop,
    perft or playout raises RuntimeError.
    """

    cdef State _state
    cdef uint64_t _version
    cdef size_t _chunk
    cdef size_t _small
    cdef Core _core              # the position, copied when the first move is asked for
    cdef SGen* _gen
    cdef CMove* _moves
    cdef size_t _n
    cdef size_t _pos
    cdef int _mode
    cdef int _busy

    def __cinit__(self):
        self._gen = NULL
        self._moves = NULL
        self._n = 0
        self._pos = 0
        self._mode = MS_START
        self._busy = 0

    def __dealloc__(self):
        free(self._gen)
        free(self._moves)

    def __init__(self, State state not None, chunk=4096, small_limit=STREAM_SMALL) -> None:
        self._chunk = _int_arg(chunk, "chunk", 1, STREAM_MAX_CHUNK)
        self._small = _int_arg(small_limit, "small_limit", 0, STREAM_MAX_CHUNK)
        if self._busy:
            raise RuntimeError("MoveStream is running (in another thread)")
        if NCARDS < _W_NCARDS and isinstance(state, _WideState):     # (false in the wide copy)
            raise TypeError("a State of Mulle's 104 cards streams its moves through "
                            "state.iter_moves(), not MoveStream(state)")
        self._release()              # (a second __init__ starts afresh)
        self._mode = MS_START
        self._state = state
        self._version = state._version

    def __iter__(self) -> MoveStream:
        return self

    def __next__(self) -> Move:
        if self._state is None:
            raise TypeError("MoveStream.__init__ was not called")
        if self._state._version != self._version:
            raise RuntimeError("the state changed (push, pop, perft or playout) while its "
                               "moves were being iterated")
        if self._pos >= self._n and not self._refill():
            raise StopIteration
        self._pos += 1
        if self._mode == MS_STREAM:  # (the cursors never see a multi-valued card in play)
            return _to_move(&self._moves[self._pos - 1])
        return to_move_p(&self._core.p, &self._moves[self._pos - 1])

    cdef void _release(self):
        free(self._gen)
        self._gen = NULL
        free(self._moves)
        self._moves = NULL
        self._n = 0
        self._pos = 0
        self._mode = MS_DONE

    cdef int _refill(self) except -1:
        """Fill the next chunk; 0 at the end."""
        cdef MoveBuf buf
        cdef int r = -1
        cdef size_t n
        if self._busy:
            raise RuntimeError("MoveStream is running (in another thread)")
        if self._mode == MS_LISTED or self._mode == MS_DONE:
            self._release()
            return 0
        if self._mode == MS_START:
            memcpy(&self._core, &self._state.c, sizeof(Core))
            if (self._small > 0 or sweep_applies(&self._core) or multi_position(&self._core)
                    or NCARDS > 52 or self._core.p.pluck or self._core.p.face_builds
                    or self._core.p.callabra or self._core.p.single_group
                    or pairs_needed(&self._core) or self._core.p.diloti
                    or self._core.p.post_filter or self._core.p.laugh):
                buf.moves = NULL
                buf.n = 0
                buf.cap = 0
                buf.limit = self._small
                if (sweep_applies(&self._core) or self._core.p.callabra
                        or self._core.p.single_group or self._core.p.diloti
                        or self._core.p.laugh):
                    # (the cursors have no capture-all card, no two-card capture and no
                    # single-group capture: list; Callabra, Kontsina and Laugh and Lie Down
                    # positions have few moves)
                    buf.limit = <size_t>-1
                elif (multi_position(&self._core) or self._core.p.pluck
                        or self._core.p.face_builds or pairs_needed(&self._core) or NCARDS > 52
                        or self._core.p.post_filter):
                    # (positions with a multi-valued card in play, those of opt_pluck and
                    # opt_face_cards_all_four, Finnish rank pairing (AMB-52) and every
                    # position of the wide copy, whose cursors would need more than 64 elements,
                    # are listed, not streamed)
                    buf.limit = LIST_LIMIT
                buf.overflow = 0
                self._busy = 1
                with nogil:
                    r = gen_moves(&self._core, &buf)
                self._busy = 0
                if r >= 0:
                    self._moves = buf.moves
                    self._n = <size_t>r
                    self._pos = 0
                    self._mode = MS_LISTED
                    if r == 0:
                        self._release()
                    return r
                free(buf.moves)
                if (multi_position(&self._core) or self._core.p.pluck
                        or self._core.p.face_builds or pairs_needed(&self._core) or NCARDS > 52):
                    self._release()
                    raise MoveLimitError(f"more than {LIST_LIMIT} legal moves (a position with "
                                         "a multi-valued card in play, opt_pluck, "
                                         "opt_face_cards_all_four, rank_pairing_always or the "
                                         "104-card deck is "
                                         "listed, not streamed)")
                if buf.n < self._small:
                    raise MemoryError("out of memory while listing moves")
            self._gen = <SGen*>malloc(sizeof(SGen))
            self._moves = <CMove*>malloc(self._chunk * sizeof(CMove))
            if self._gen == NULL or self._moves == NULL:
                self._release()
                raise MemoryError("out of memory for the move stream")
            sg_init(self._gen, &self._core)
            self._mode = MS_STREAM
        self._busy = 1
        if self._chunk >= 64:
            with nogil:
                n = sg_fill(self._gen, self._moves, self._chunk)
        else:
            n = sg_fill(self._gen, self._moves, self._chunk)
        self._busy = 0
        self._n = n
        self._pos = 0
        if n == 0:
            self._release()
        return 1 if n else 0


def _stream_check(State state not None, chunk=4096) -> tuple:
    """Walk the moves of ``state`` with the cursors (as MoveStream with small_limit=0) in
    C, without making Move objects: (number of moves, whether each was strictly greater
    than the one before). For tests and timings of huge positions."""
    cdef size_t k = _int_arg(chunk, "chunk", 1, STREAM_MAX_CHUNK)
    cdef SGen* S = <SGen*>malloc(sizeof(SGen))
    cdef CMove* out = <CMove*>malloc(k * sizeof(CMove))
    cdef Core* core = <Core*>malloc(sizeof(Core))
    cdef CMove last
    cdef size_t n, i, total = 0
    cdef bint ordered = True
    try:
        if NCARDS < _W_NCARDS and isinstance(state, _WideState):     # (false in the wide copy)
            return _w__stream_check(state, chunk)
        if S == NULL or out == NULL or core == NULL:
            raise MemoryError()
        memcpy(core, &state.c, sizeof(Core))
        with nogil:
            sg_init(S, core)
            while True:
                n = sg_fill(S, out, k)
                if n == 0:
                    break
                for i in range(n):
                    if total + i > 0 and cmp_moves(&last, &out[i]) >= 0:
                        ordered = False
                    last = out[i]
                total += n
    finally:
        free(S)
        free(out)
        free(core)
    return total, ordered
