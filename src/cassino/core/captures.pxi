# Captures and sums: the partitions of value multisets, the move buffer, and the
# generators that list captures and builds together from groups of loose cards totalling
# a value (the general, output-sensitive and small-table paths), sweeps, Callabra,
# single-group captures and rank pairs, then exact counting by value multisets. The
# reference side: cassino/reference/captures.py (and _creates, _augments, _increases in
# builds.py).
# Included by _core.pyx, in the order it lists.

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
    for i in range(n if n <= 64 else 64):   # (the wide copy: more than 64 is refused by the caller)
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
    FAST_MAX_CARDS = 24
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
    int min_value            # list no move whose groups total less (multi_fast, core/multi.pxi)

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

cdef inline void seg_sort_(MoveBuf* buf, size_t lo, bint dedupe) noexcept nogil:
    """Sort moves[lo:] (one card, one kind) by takes and value; drop repeats if asked.
    (Inline: most segments hold fewer than two moves.)"""
    if not buf.overflow and buf.n - lo >= 2:
        seg_sort_body(buf, lo, dedupe)

cdef void seg_sort_body(MoveBuf* buf, size_t lo, bint dedupe) noexcept nogil:
    """seg_sort_ of a segment of two moves or more."""
    cdef CMove* mv = buf.moves
    cdef size_t i, j, w, n = buf.n
    cdef CMove t
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
                             # second value: core/multi.pxi)
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
    # (ids ascending: the values too, unless the deck repeats them, Mulle's second copy)
    S.unsorted = 0 if c.p.val_ordered else 1
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
    if not (c.p.natural and c.p.max_sum_groups == BIG_SUMS):
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

cdef int sweep_pass(Core* c, MoveBuf* buf, mask_t hand, int* best, bint multi) noexcept nogil:
    """The capture-all plays (docs/rules.md §3.37 opt_five_of_spades_sweep, §3.15 Tablanette
    Jacks): a card of c.p.sweep_cards played on a table with prey takes sweep_takes(c).
    That capture replaces the card's trail (with sweep_only, every move of the card).
    Called by gen_play_moves, and with ``multi`` by gen_multi (the holding of multi-valued
    cards; Royal, Buckeye, Swedish, Mulle), on the generated list before the maximal filter;
    ``best`` (NULL when unread) gets the size of the capture for that filter. 1 when the
    list must be sorted again. As _reference.State._sweep_moves."""
    cdef mask_t cards = hand & c.p.sweep_cards
    cdef mask_t T = sweep_takes(c)
    cdef size_t r, w = 0
    cdef int p
    cdef uint64_t held
    cdef CMove* mv
    if cards == 0 or T == 0:
        return 0
    for r in range(buf.n):
        mv = &buf.moves[r]
        # sweep_only 0: the trail goes (and the same capture); 1: every other move goes; 2
        # (joker_trail): every other move but the trail goes
        if (cards >> mv.card) & 1 and (
                c.p.sweep_only == 1 or (c.p.sweep_only == 2 and mv.kind != K_TRAIL)
                or (c.p.sweep_only == 0 and (
                    mv.kind == K_TRAIL or (mv.kind == K_CAPTURE and mv.takes == T)))):
            continue
        buf.moves[w] = buf.moves[r]
        w += 1
    buf.n = w
    while cards:
        p = cas_ctz(cards)
        cards &= cards - 1
        # (only ordinary captures of builds left aside by five_of_spades_builds=false can
        # take more; best is set only for the maximal filter, which zeroes it first)
        if best != NULL and c.p.maximal and cas_popcount(T) > best[p]:
            best[p] = cas_popcount(T)
        held = (held_multi(c, hand & ~((<mask_t>1) << p)) if multi
                else held_values(c, hand & ~((<mask_t>1) << p)))
        if is_legal(c, K_CAPTURE, p, T, 0, held):
            emit_alt(buf, p, K_CAPTURE, T, 0, 0)
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
    """The moves of capture_extent=single_group in canonical order; -1 on overflow. With
    pile_access=steal_pile (Bella Donna Halliel, docs/rules.md §3.34), also the steals of
    emit_steals."""
    cdef mask_t m
    single_group_moves(c, buf)
    if c.p.steal:
        m = c.h.hands[c.h.to_move]
        while m:
            emit_steals(c, buf, cas_ctz(m), 0)
            m &= m - 1
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
    if c.p.laugh:
        return gen_laugh(c, buf)     # (core/laugh.pxi)
    if c.p.pluck and c.h.phase == PH_AFTER and c.h.to_move >= 0:
        buf.n = 0
        buf.overflow = 0
        n = 0
    else:
        n = gen_play_moves(c, buf)
        if n > 0 and c.p.post_filter:
            n = filter_moves(c, buf)
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

cdef bint yo_choose(int* cnt, int v, int need, int top) noexcept nogil:
    """yo_part's search: distinct values from ``top`` down adding up to ``need``."""
    cdef int y = top if top < need else need
    cdef bint ok
    if need == 0:
        return yo_part(cnt, v)
    while y > 0:
        if cnt[y]:
            cnt[y] -= 1
            ok = yo_choose(cnt, v, need - y, y - 1)
            cnt[y] += 1
            if ok:
                return True
        y -= 1
    return False

cdef bint yo_part(int* cnt, int v) noexcept nogil:
    """mod_yoruba (AMB-78): whether the cards of values 1 to v - 1 (cnt[x] of value x) split
    into sum groups of v, none with two cards of one value: the group of the largest card
    first (captures.yoruba_ok)."""
    cdef int x = v - 1
    cdef bint ok
    while x > 0 and cnt[x] == 0:
        x -= 1
    if x == 0:
        return True
    cnt[x] -= 1
    ok = yo_choose(cnt, v, v - x, x - 1 if x - 1 < v - x else v - x)
    cnt[x] += 1
    return ok

cdef bint yoruba_ok_c(Core* c, int p, mask_t takes) noexcept nogil:
    """The mod_yoruba filter of a capture by ``p`` (its cards of p's value are matches)."""
    cdef int cnt[NVALUES]
    cdef int v = c.p.val[p], x, i
    cdef mask_t m = takes & c.h.loose
    if v == 0:
        return True
    for i in range(v):
        cnt[i] = 0
    while m:
        x = c.p.val[cas_ctz(m)]
        if 0 < x < v:
            cnt[x] += 1
            if cnt[x] > 1 and c.p.yoruba == 2:
                return False     # (yoruba_scope=capture: no value twice in all the sums)
        m &= m - 1
    return yo_part(cnt, v)

cdef int filter_moves(Core* c, MoveBuf* buf) noexcept nogil:
    """The filters of whole lists, in place and in order (Params.post_filter):
    capture_extent=all_matches outside Diloti (a capture that takes a loose card of the
    played card's rank takes them all; face cards only with face_capture=any, the other
    face rules limit them), then compulsion=player (when some capture is legal, every
    other move goes: Shaniss, AMB-83)."""
    cdef size_t r, w = 0
    cdef mask_t same, got
    cdef mask_t jokers = c.h.loose & c.p.joker_mask
    cdef int p
    cdef bint any_capture = False
    for r in range(buf.n):
        p = buf.moves[r].card
        if buf.moves[r].kind == K_CAPTURE and jokers and not (c.p.joker_mask >> p) & 1:
            buf.moves[r].takes |= jokers     # Elewenjewe: loose jokers join any capture (AMB-76)
        if c.p.match_one and buf.moves[r].kind == K_CAPTURE and cas_popcount(
                buf.moves[r].takes & c.h.loose & ((<mask_t>0xF) << (4 * (p // 4)))) > 1:
            continue     # match_one (AMB-73 option): one loose card of its rank at most
        if c.p.yoruba and buf.moves[r].kind == K_CAPTURE and not yoruba_ok_c(
                c, p, buf.moves[r].takes):
            continue     # mod_yoruba (AMB-78)
        if c.p.all_matches and buf.moves[r].kind == K_CAPTURE and (
                c.p.val[p] or c.p.face_capture == 2):
            same = c.h.loose & ((<mask_t>0xF) << (4 * (p % 52 // 4)))
            if NCARDS > 52:
                same = c.h.loose & (((<mask_t>0xF) << (4 * (p % 52 // 4)))
                                    | ((<mask_t>0xF) << (4 * (p % 52 // 4) + 52)))
            got = buf.moves[r].takes & same
            if got and got != same:
                continue
        if buf.moves[r].kind == K_CAPTURE or buf.moves[r].kind == K_STEAL:
            any_capture = True
        buf.moves[w] = buf.moves[r]
        w += 1
    buf.n = w
    if c.p.compel and any_capture:
        w = 0
        for r in range(buf.n):
            if (buf.moves[r].kind == K_CAPTURE or buf.moves[r].kind == K_STEAL
                    or buf.moves[r].card == NO_CARD):
                buf.moves[w] = buf.moves[r]
                w += 1
        buf.n = w
    return <int>buf.n

cdef uint64_t count_listed(Core* c) noexcept nogil:
    """The number of legal moves, by listing them (rules whose lists gen_moves filters,
    Diloti)."""
    cdef MoveBuf buf
    cdef int n
    buf.moves = NULL
    buf.n = 0
    buf.cap = 0
    buf.limit = <size_t>-1
    buf.overflow = 0
    n = gen_play_moves(c, &buf)
    if n > 0 and c.p.post_filter:
        n = filter_moves(c, &buf)
    free(buf.moves)
    return <uint64_t>n if n > 0 else 0

cdef void emit_steals(Core* c, MoveBuf* buf, int p, mask_t same) noexcept nogil:
    """pile_access=steal_pile: hand card p's steals of each other team's whole pile whose top
    card has its rank (steal_and_capture: also with the loose cards ``same`` of its rank)."""
    cdef int me = c.p.team_of[c.h.to_move]
    cdef int t
    for t in range(c.p.nteams):
        if t != me and c.h.bundles[t] and c.h.tops[t] // 4 == p // 4:
            emit(buf, p, K_STEAL, c.h.bundles[t], 0)
            if c.p.steal_both and same:
                emit(buf, p, K_STEAL, c.h.bundles[t] | same, 0)

cdef int gen_bundles(Core* c, MoveBuf* buf) noexcept nogil:
    """Stealing Bundles (pile_access=steal_pile, docs/rules.md §3.31, AMB-85), before
    filter_moves: per hand card the trail, the capture of every loose card of its rank, and
    the steal of each other team's bundle whose top card has its rank (steal_and_capture:
    also with those loose cards); canonical order."""
    cdef int p
    cdef mask_t m = c.h.hands[c.h.to_move], same
    while m:
        p = cas_ctz(m)
        same = c.h.loose & ((<mask_t>0xF) << (4 * (p // 4)))
        emit(buf, p, K_TRAIL, 0, 0)
        if same:
            emit(buf, p, K_CAPTURE, same, 0)
        emit_steals(c, buf, p, same)
        m &= m - 1
    if buf.overflow:
        return -1
    sort_moves(buf.moves, buf.n)
    return <int>buf.n

# ---------------------------------------------------------------------------------------
# Esun piles (opt_esun, docs/rules.md §3.37, AMB-74, AMB-75): the reference side is
# cassino/reference/esun.py
# ---------------------------------------------------------------------------------------

cdef inline void esun_emit(MoveBuf* buf, int card, int kind, mask_t takes, int value) noexcept nogil:
    emit(buf, card, kind, takes, value)
    if not buf.overflow:
        buf.moves[buf.n - 1].alt = 0

cdef bint esun_takes(int* cnt, int total, int top, int w, int yoruba) noexcept nogil:
    """Whether a card of value w takes an Esun of the value counts cnt (total, highest value
    top): w is the total, or the cards split into two or more groups of w (AMB-74); with
    mod_yoruba never a card of a denomination in it. As reference.esun.esun_takes."""
    if w <= 0 or (yoruba and w < NVALUES and cnt[w]):
        return False
    if w == total:
        return True
    return w < total and total % w == 0 and top <= w and part_ok(cnt, w, BIG_SUMS)

cdef uint32_t esun_takers(Core* c, CBuild* b, uint32_t values) noexcept nogil:
    """The values w of ``values`` (a bit a value) whose cards take the Esun b (esun_takes)."""
    cdef int cnt[NVALUES]
    cdef int total = 0, top = 0, x, w
    cdef mask_t m = b.cards
    cdef uint32_t out = 0
    while m:
        x = c.p.val[cas_ctz(m)]
        total += x
        if x > top:
            top = x
        m &= m - 1
    # (counts up to the highest value read: the Esun's top or a value of values)
    x = cas_top(<mask_t>(values | 1))
    if top > x:
        x = top
    memset(cnt, 0, (x + 1) * sizeof(int))
    m = b.cards
    while m:
        cnt[c.p.val[cas_ctz(m)]] += 1
        m &= m - 1
    while values:
        w = cas_ctz64(values)
        values &= values - 1
        if esun_takes(cnt, total, top, w, c.p.yoruba):
            out |= (<uint32_t>1) << w
    return out

cdef void esun_groups(Core* c, MoveBuf* buf, int p, int w, const uint8_t* ids, int n,
                      mask_t used, int need, int start, int gmin, uint32_t inuse,
                      int ngroups) noexcept nogil:
    """The Esun piles of p that split into ngroups or more groups of w: the current group
    still needs ``need`` from the cards ids[start:n] (values ascending, none above w); a
    complete one is emitted (with mod_yoruba, when no card has the value w), and another
    group may follow whose first card comes after ``gmin``, the first card of the last one,
    so that each set of groups comes once (a union of two different sets of groups comes
    twice: gen_esun drops the repeats). mod_yoruba: no value twice (AMB-78); ``inuse`` has
    a bit for each value in the pile (read only under mod_yoruba)."""
    cdef int i, x
    cdef int yoruba = c.p.yoruba
    if need == 0:
        if used != 0 and not (yoruba and (inuse >> w) & 1):
            esun_emit(buf, p, K_BUILD, used, ngroups * w)
        for i in range(gmin + 1, n):
            x = c.p.val[ids[i]]
            if (used >> ids[i]) & 1 or (yoruba and (inuse >> x) & 1):
                continue
            esun_groups(c, buf, p, w, ids, n, used | ((<mask_t>1) << ids[i]), w - x, i + 1, i,
                        inuse | ((<uint32_t>1) << x), ngroups + 1)
        return
    for i in range(start, n):
        x = c.p.val[ids[i]]
        if x > need:
            break                    # (values ascending)
        if (used >> ids[i]) & 1 or (yoruba and (inuse >> x) & 1):
            continue
        esun_groups(c, buf, p, w, ids, n, used | ((<mask_t>1) << ids[i]), need - x, i + 1, gmin,
                    inuse | ((<uint32_t>1) << x), ngroups)

cdef void sort_tail(MoveBuf* buf, size_t mid) noexcept nogil:
    """Canonical order of a list whose first ``mid`` moves are in order already: the rest
    sorted and its repeats dropped (a move of the rest is never one of the first run), then
    the two runs merged (merge_runs)."""
    cdef size_t k = mid, r
    cdef CMove* mv = buf.moves
    sort_moves(mv + mid, buf.n - mid)
    for r in range(mid, buf.n):
        if k > mid and cmp_moves(&mv[k - 1], &mv[r]) == 0:
            continue
        mv[k] = mv[r]
        k += 1
    buf.n = k
    merge_runs(buf, 0, mid, k)

cdef int gen_esun(Core* c, MoveBuf* buf) noexcept nogil:
    """gen_play_moves with Esun piles: the moves of the loose cards (the other paths, the
    Esun piles hidden), a joker taking the Esun piles too (Ipalemo), each capture of a
    numeric card with every set of the Esun piles it takes, and the Esun creations.
    Canonical order. As reference _captures (_esun_prey) and _esun_creates."""
    cdef int nb = c.h.nbuilds, n, i, j, k, p, w, x, vp, nids, upto
    cdef size_t r, wr, n0, ninner
    cdef mask_t hand = c.h.hands[c.h.to_move], bm = 0, m, T, cand
    cdef int prey[MAX_BUILDS]
    cdef uint32_t takers[MAX_BUILDS]
    cdef int nprey, sub
    cdef uint8_t ids[NCARDS]
    cdef uint32_t hv = 0, hv2 = 0, held
    for i in range(nb):
        bm |= c.h.builds[i].cards
    c.h.nbuilds = 0
    c.p.esun = 0
    n = gen_play_moves(c, buf)
    c.p.esun = 1
    c.h.nbuilds = <uint8_t>nb
    if n < 0:
        return n
    ninner = buf.n
    # the numeric values held (hv), and those held twice or more (hv2)
    m = hand & ~c.p.joker_mask
    while m:
        x = c.p.val[cas_ctz(m)]
        m &= m - 1
        if x:
            hv2 |= hv & ((<uint32_t>1) << x)
            hv |= (<uint32_t>1) << x
    if bm and (hand & c.p.joker_mask):
        # Ipalemo: a joker on a table with Esun piles takes them with every loose card
        wr = 0
        for r in range(buf.n):
            if not (c.p.joker_mask >> buf.moves[r].card) & 1:
                buf.moves[wr] = buf.moves[r]
                wr += 1
        buf.n = wr
        ninner = 0                   # (the jokers' moves are appended: sort again)
        m = hand & c.p.joker_mask
        T = c.h.loose | bm
        while m:
            p = cas_ctz(m)
            m &= m - 1
            esun_emit(buf, p, K_CAPTURE, T, 0)
            if c.p.sweep_only == 2:
                esun_emit(buf, p, K_TRAIL, 0, 0)
    # captures of Esun piles: with each capture of the card's loose cards, and alone
    n0 = buf.n
    if nb and hv:
        for i in range(nb):
            takers[i] = esun_takers(c, &c.h.builds[i], hv)
        m = hand & ~c.p.joker_mask
        while m:
            p = cas_ctz(m)
            m &= m - 1
            w = c.p.val[p]
            nprey = 0
            for i in range(nb):
                if w and nprey < 16 and (takers[i] >> w) & 1:
                    prey[nprey] = i
                    nprey += 1
            if nprey == 0:
                continue
            for sub in range(1, 1 << nprey):
                T = 0
                for k in range(nprey):
                    if (sub >> k) & 1:
                        T |= c.h.builds[prey[k]].cards
                esun_emit(buf, p, K_CAPTURE, T, 0)
                for r in range(n0):
                    if buf.moves[r].card == p and buf.moves[r].kind == K_CAPTURE:
                        esun_emit(buf, p, K_CAPTURE, buf.moves[r].takes | T, 0)
    # creations: p with loose numeric cards, taken by a value held after it; the loose
    # numeric cards once, values ascending
    nids = 0
    if hv:
        cand = c.h.loose & ~c.p.joker_mask
        while cand:
            i = cas_ctz(cand)
            cand &= cand - 1
            x = c.p.val[i]
            if x == 0:
                continue
            j = nids
            while j > 0 and c.p.val[ids[j - 1]] > x:
                ids[j] = ids[j - 1]
                j -= 1
            ids[j] = <uint8_t>i
            nids += 1
    m = hand & ~c.p.joker_mask
    while m and nids:
        p = cas_ctz(m)
        m &= m - 1
        vp = c.p.val[p]
        if vp == 0:
            continue
        # the values held after playing p, from vp up
        held = hv & ~(((<uint32_t>1) << vp) - 1)
        if not (hv2 >> vp) & 1:
            held &= ~((<uint32_t>1) << vp)
        # per value w held: the unions of p's group of w and more disjoint groups of w
        upto = 0
        while held:
            w = cas_ctz64(held)
            held &= held - 1
            if w > vp and c.p.val[ids[0]] > w - vp:
                continue                 # (nothing small enough to complete p's group)
            while upto < nids and c.p.val[ids[upto]] <= w:
                upto += 1
            esun_groups(c, buf, p, w, ids, upto, 0, w - vp, 0, -1, (<uint32_t>1) << vp, 1)
    if buf.overflow:
        return -1
    if buf.n == ninner:
        return <int>buf.n            # (nothing added: the loose cards' moves, in order)
    # (an Esun of several groups may split in more than one way, or be taken by two values:
    # repeats among the added moves only)
    sort_tail(buf, ninner)
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
    if c.p.zwickern:
        return gen_zwickern(c, buf)  # (core/zwickern.pxi)
    if c.p.nmulti and multi_position(c):
        return gen_multi(c, buf)     # a card with two values in play (core/multi.pxi)
    if c.p.callabra:
        return gen_callabra(c, buf)
    if c.p.single_group:
        return gen_single_group(c, buf)     # (with Halliel's pile steals)
    if c.p.steal:
        return gen_bundles(c, buf)
    if c.p.rank_pairs and pairs_needed(c):
        return gen_pairs(c, buf)
    if c.p.diloti:
        return gen_diloti(c, buf)
    if c.p.esun:
        return gen_esun(c, buf)
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
            # (the wide copy only: the subsets of more than 64 loose cards are far past any limit)
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
    if c.p.face_builds and hand & FACE_MASK:
        face_pass(c, buf, hand, best)
        resort = 1
        if buf.overflow:
            return -1
    if c.p.sweep_cards:
        # (after face_pass, which lists a Jack's moves again: a Jack that takes the whole
        # table has that move only, as count_play_moves counts it)
        if sweep_pass(c, buf, hand, best, False):
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
    if c.p.laugh:
        return count_laugh(c)        # (core/laugh.pxi)
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
    cdef Pick P
    if c.h.to_move < 0:
        return 0
    if c.p.pick_ok and pick_setup(c, &P):
        return P.total
    if c.p.zwickern:
        return zw_count(c)           # (core/zwickern.pxi: by value multisets)
    if c.p.post_filter:
        return count_listed(c)
    if c.p.nmulti and multi_position(c):
        return count_multi(c)
    if c.p.callabra:
        return count_callabra(c)
    if c.p.single_group:
        return single_group_moves(c, NULL) if c.h.hands[c.h.to_move] else 0
    if c.p.rank_pairs and pairs_needed(c):
        return pairs_count(c)
    if c.p.diloti:
        return count_listed(c)     # (Diloti: by listing, gen_diloti)
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
# Subset totals of a small table (up to 6 loose cards, one word)
# ---------------------------------------------------------------------------------------
# The groups of total t are the subsets whose total is t: the totals of all 2^n subsets by
# doubling (cas_bytes_double), then one SSE2 compare per 16 of them (cas_eq_bytes), instead
# of a depth-first search per t (small_groups). Diloti's small tables
# (core/declarations.pxi) and multi_small's valuings read their groups and unions here:
# the words of small_P1 and small_with1, over the same compressed subsets of the same cards
# (S.ids ascending). The pick path (below) reads its one-word families here too, with loose
# multi-valued cards free to take their second value in any group (``alt``, ``d``).

cdef inline uint64_t pick_groups(const uint8_t* sums, const uint8_t* nalt, int chunks,
                                 int v, int alts, int d) noexcept nogil:
    """The subsets of total v in one 64-bit word (the first 16 * chunks of them): k of their
    multi-valued cards at the second value, for every k."""
    cdef uint64_t g = cas_eq_bytes(sums, chunks, <uint8_t>v)
    cdef uint64_t atleast = ~(<uint64_t>0)
    cdef int k = 1
    while k <= alts and v - k * d >= 0:
        atleast &= ~cas_eq_bytes(nalt, chunks, <uint8_t>(k - 1))
        g |= cas_eq_bytes(sums, chunks, <uint8_t>(v - k * d)) & atleast
        k += 1
    return g

cdef struct Sums1:
    uint8_t sums[64]         # sums[s]: the total of compressed subset s, first values
    uint8_t nalt[64]         # nalt[s]: its multi-valued cards (when alts)
    int alts                 # multi-valued cards, each worth d more at its second value
    int d
    int chunks               # 16-byte chunks that hold the 2^n subsets
    uint64_t full            # the nonempty subsets of the n cards
    uint32_t have_g          # bit t: G[t] is filled
    uint32_t have_p          # bit v: P[v] is filled
    uint64_t G[NVALUES]      # the groups of total t
    uint64_t P[NVALUES]      # the unions of disjoint groups of v, the empty one included

cdef inline void sums1_load(Sums1* T, const uint8_t* vals, const uint8_t* alt, int n,
                            int d) noexcept nogil:
    """The totals of the subsets of n <= 6 cards of values vals; with ``alt`` (1: the card
    is also worth d more; NULL: none is), their multi-valued cards."""
    cdef int i
    memset(T.sums, 0, 16)        # (the first chunk is compared whole: bits past 2^n masked)
    T.alts = 0
    T.d = d
    if alt != NULL and d:
        memset(T.nalt, 0, 16)
    for i in range(n):
        cas_bytes_double(T.sums, i, vals[i])
        if alt != NULL and d:
            cas_bytes_double(T.nalt, i, alt[i])
            T.alts += alt[i]
    T.chunks = 4 if n == 6 else (2 if n == 5 else 1)
    T.full = (~(<uint64_t>0) if n == 6 else ((<uint64_t>1) << (1 << n)) - 1) & ~(<uint64_t>1)
    T.have_g = 0
    T.have_p = 0

cdef inline uint64_t sums1_groups(Sums1* T, int t) noexcept nogil:
    """The subsets of total t (0 < t < NVALUES)."""
    if not (T.have_g >> t) & 1:
        T.have_g |= (<uint32_t>1) << t
        T.G[t] = pick_groups(T.sums, T.nalt, T.chunks, t, T.alts, T.d) & T.full
    return T.G[t]

cdef inline uint64_t sums1_P(Sums1* T, int v) noexcept nogil:
    """small_P1: the unions of disjoint groups of v (the empty one included)."""
    if not (T.have_p >> v) & 1:
        T.have_p |= (<uint32_t>1) << v
        T.P[v] = cas_fam_close1(sums1_groups(T, v), &DISJ[0][0], SMALL_WORDS)
    return T.P[v]

cdef inline uint64_t sums1_with(Sums1* T, int v, int t) noexcept nogil:
    """small_with1: {g | f : g a group of t, f in P(v), g & f == 0} (t > 0)."""
    cdef uint64_t g = sums1_groups(T, t), pv, cw = 0
    cdef int b
    if g == 0:
        return 0
    pv = sums1_P(T, v)
    while g:
        b = cas_ctz64(g)
        g &= g - 1
        cw |= (pv & DISJ[b][0]) << b
    return cw

# ---------------------------------------------------------------------------------------
# Capture-only tables: count the moves, and pick one by its index, without listing
# ---------------------------------------------------------------------------------------
# Under rules that build nothing and let a capture take any union of disjoint groups of the
# played card's value (Swedish Kassino, Mulle: Params.pick_ok), with no build on the table,
# the moves of a hand card p are its trail and one capture for each nonempty subset of the
# loose cards that splits into groups of one value of p, each loose multi-valued card at
# either of its table values (per group: the groups are disjoint). Only the loose cards of
# a first value up to p's highest value can be in such a group: p's "space". With r <=
# PICK_MAX cards in it, a subset is its compressed index (bit i: the i-th card of the space
# by id) and a family of subsets a 2^r-bit word (up to PICK_WORDS 64-bit words). The
# groups of total v, G(v), come from the totals of every subset (cas_bytes_double); the
# unions of disjoint groups from F = {∅} and, group by group, F |= (F ∩ disjoint(g)) << g
# (the index of s ∪ g is s + g: cas_fam_join). The empty set stands for the trail. The
# compressed index keeps the order of takes masks (the highest differing card decides
# both), so p's moves in canonical order (trail, then captures in takes order) are the set
# bits of F_p in increasing order. gen_moves lists the same moves; tests/test_pick.py
# compares the two, and the listing with the reference.

cdef enum:
    PICK_MAX = 12            # cards of a space: a family of subsets in 64 64-bit words
    PICK_WORDS = 64
    PICK_HAND = 16           # hand cards
    PICK_LOOSE = 32          # loose cards

cdef struct Pick:
    uint64_t total           # the number of legal moves
    int nh                   # hand cards
    uint8_t cards[PICK_HAND] # the hand cards, ascending
    uint8_t r[PICK_HAND]     # the cards of each one's space
    uint8_t sp[PICK_HAND]    # ... listed in ids[sp[j]]
    uint8_t fi[PICK_HAND]    # each one's moves: fam[fi[j]], cnt[j] of them
    uint64_t cnt[PICK_HAND]
    uint8_t ids[PICK_HAND][PICK_MAX]     # ... ascending
    uint64_t fam[PICK_HAND][PICK_WORDS]  # each hand card's moves: the trail (bit 0), captures

cdef bint pick_params(Params* p, object rules):
    """Params.pick_ok: rules whose every move is a trail or a capture of a union of disjoint
    groups, and nothing else constrains (no build, no capture-all card, no extent, no pluck,
    every card of the deck with a value and its hand value the table one). The obligations
    and the holding invariant bind the owner of a build only: with no build they are moot."""
    cdef int i
    if (p.build_max != 0 or p.maximal or p.max_sum_groups != BIG_SUMS or p.sweep_cards
            or p.pluck or p.callabra or p.single_group or p.rank_pairs or p.diloti
            or p.face_builds or not p.combine or p.finnish or p.post_filter or p.steal
            or rules.match_mode != "value"):
        return False
    for i in range(p.nids):
        if p.val[i] == 0 or p.hval[i] != p.val[i]:
            return False
        if p.alt_val[i] >= NVALUES or p.alt_table[i] != p.alt_val[i]:
            return False     # (the values index the closures; a loose card keeps both)
    return True

cdef bint pick_card(Pick* P, int j, const uint8_t* lid, const uint8_t* lval,
                    const uint8_t* lalt, uint64_t space, int d, int v1, int v2) noexcept nogil:
    """P.fam[j], P.r[j] and P.ids[j] for a hand card of values v1 (and v2, or 0) against the
    loose cards of ``space`` (bits of the indices of lid; first values lval; lalt:
    multi-valued); False when the space holds more than PICK_MAX cards."""
    cdef uint8_t sums[1 << PICK_MAX]   # sums[s]: the total of subset s, first values
    cdef uint8_t nalt[1 << PICK_MAX]   # nalt[s]: its multi-valued cards
    cdef uint8_t sv[PICK_MAX]          # the space's values and multi-valued flags
    cdef uint8_t sa[PICK_MAX]
    cdef uint64_t acc[PICK_WORDS]
    cdef uint64_t* f = P.fam[j]
    cdef uint64_t x
    cdef int i, r = 0, alts = 0, w, q, a, k, v
    cdef Sums1 T
    if cas_popcount64(space) > PICK_MAX:
        return False
    while space:
        i = cas_ctz64(space)
        space &= space - 1
        P.ids[j][r] = lid[i]
        sv[r] = lval[i]
        sa[r] = lalt[i]
        alts += lalt[i]
        r += 1
    P.r[j] = <uint8_t>r
    if r <= 6:
        # one word: the families as plain integers, the trail the empty union
        sums1_load(&T, sv, sa, r, d)
        f[0] = sums1_P(&T, v1) | (sums1_P(&T, v2) if v2 else 0)
        P.cnt[j] = <uint64_t>cas_popcount64(f[0])
        P.total += P.cnt[j]
        return True
    memset(sums, 0, 16)          # (the first three cards add into the first word)
    memset(nalt, 0, 16)
    for i in range(r):
        cas_bytes_double(sums, i, sv[i])
        if d:
            cas_bytes_double(nalt, i, sa[i])
    w = 1 << (r - 6)
    f[0] = 1                             # the trail
    for q in range(1, w):
        f[q] = 0
    for k in range(2):
        v = v1 if k == 0 else v2
        if v == 0:
            break
        acc[0] = 1                       # the unions of disjoint groups
        for q in range(1, w):
            acc[q] = 0
        for q in range(w):
            x = pick_groups(&sums[64 * q], &nalt[64 * q], 4, v, alts, d)
            if q == 0:
                x &= ~(<uint64_t>1)
            while x:
                a = cas_ctz64(x)
                x &= x - 1
                cas_fam_join(acc, q, a, DISJ[a][0], w)
        for q in range(w):
            f[q] |= acc[q]
    P.cnt[j] = 0
    for q in range(w):
        P.cnt[j] += <uint64_t>cas_popcount64(f[q])
    P.total += P.cnt[j]
    return True

cdef bint pick_small(Core* c, Pick* P, const uint8_t* lid, const uint8_t* lval,
                     const uint8_t* lalt, int n, int d) noexcept nogil:
    """pick_setup for a table of at most 6 loose cards: every hand card's space is the whole
    table, its families one word, the totals made once and each value's unions once."""
    cdef Sums1 T
    cdef uint64_t f
    cdef int card, v2
    cdef mask_t m
    sums1_load(&T, lval, lalt, n, d)
    memcpy(P.ids[0], lid, n)
    m = c.h.hands[c.h.to_move]
    while m:
        card = cas_ctz(m)
        m &= m - 1
        P.cards[P.nh] = <uint8_t>card
        P.r[P.nh] = <uint8_t>n
        P.sp[P.nh] = 0
        v2 = c.p.alt_val[card]
        # the trail (the empty union) and the captures at either value
        f = sums1_P(&T, c.p.hval[card]) | (sums1_P(&T, v2) if v2 else 0)
        P.fam[P.nh][0] = f
        P.fi[P.nh] = <uint8_t>P.nh
        P.cnt[P.nh] = <uint64_t>cas_popcount64(f)
        P.total += P.cnt[P.nh]
        P.nh += 1
    return True

cdef bint pick_setup(Core* c, Pick* P) noexcept nogil:
    """Fill P for the position, or False when it is no capture-only table (or a hand card's
    space holds more than PICK_MAX cards, or the table more than PICK_LOOSE): then list.
    The loose multi-valued cards must share one difference of their two values (the Royal
    ace: 13)."""
    cdef mask_t hand, loose
    cdef uint64_t x
    cdef uint8_t lid[PICK_LOOSE]
    cdef uint8_t lval[PICK_LOOSE]
    cdef uint8_t lalt[PICK_LOOSE]
    cdef uint8_t first[NVALUES]      # first[v]: the first hand card of values v, v2 so far
    cdef uint32_t seen = 0
    cdef int n = 0, d = 0, a, a2, card, j, i, q, v1, v2, half, hi
    if not c.p.pick_ok or c.p.general_paths or c.h.nbuilds or c.h.to_move < 0:
        return False
    hand = c.h.hands[c.h.to_move]
    loose = c.h.loose
    if hand == 0 or cas_popcount(loose) > PICK_LOOSE or cas_popcount(hand) > PICK_HAND:
        return False
    # (pick_ok: every card has a value, below NVALUES, the same in hand and loose; the
    # 64-bit halves of the masks, for the wide copy's sake)
    for half in range(2):
        x = cas_hi(loose) if half else cas_lo(loose)
        while x:
            card = cas_ctz64(x) + 64 * half
            x &= x - 1
            a = c.p.val[card]
            a2 = c.p.alt_table[card]
            lid[n] = <uint8_t>card
            lval[n] = <uint8_t>a
            lalt[n] = 0
            if a2:
                if d == 0:
                    d = a2 - a
                elif a2 - a != d:
                    return False
                if d <= 0:
                    return False
                lalt[n] = 1
            n += 1
    P.nh = 0
    P.total = 0
    if n <= 6:
        return pick_small(c, P, lid, lval, lalt, n, d)
    memset(&lval[n], 255, PICK_LOOSE - n)     # (no value: in no space)
    for half in range(2):
        x = cas_hi(hand) if half else cas_lo(hand)
        while x:
            card = cas_ctz64(x) + 64 * half
            x &= x - 1
            j = P.nh
            P.cards[j] = <uint8_t>card
            P.nh += 1
            v1 = c.p.hval[card]
            v2 = c.p.alt_val[card]
            if (seen >> v1) & 1 and c.p.alt_val[P.cards[first[v1]]] == v2:
                # the values of an earlier card: its moves
                i = first[v1]
                P.r[j] = P.r[i]
                P.sp[j] = <uint8_t>i
                P.fi[j] = <uint8_t>i
                P.cnt[j] = P.cnt[i]
                P.total += P.cnt[i]
                continue
            seen |= (<uint32_t>1) << v1
            first[v1] = <uint8_t>j
            P.sp[j] = <uint8_t>j
            P.fi[j] = <uint8_t>j
            hi = v1 if v1 > v2 else v2
            # the space: the loose cards of a first value up to the card's highest
            if not pick_card(P, j, lid, lval, lalt, cas_le_bytes(lval, 2, <uint8_t>hi), d,
                             v1, v2):
                return False
    return True

cdef CMove* pick_at(Pick* P, uint64_t k, CMove* mv) noexcept nogil:
    """The move of index k (< P.total) in canonical order, written to mv."""
    cdef int j, i, q, w
    cdef uint64_t x, cnt
    cdef int s
    cdef mask_t takes = 0
    for j in range(P.nh):
        if k >= P.cnt[j]:
            k -= P.cnt[j]
            continue
        w = 1 << (P.r[j] - 6) if P.r[j] > 6 else 1
        for q in range(w):
            x = P.fam[P.fi[j]][q]
            cnt = <uint64_t>cas_popcount64(x)
            if k >= cnt:
                k -= cnt
                continue
            s = cas_select64(x, <int>k) + 64 * q
            i = s
            while i:
                takes |= (<mask_t>1) << P.ids[P.sp[j]][cas_ctz64(<uint64_t>i)]
                i &= i - 1
            mv.takes = takes
            mv.card = P.cards[j]
            mv.kind = K_CAPTURE if s else K_TRAIL
            mv.value = 0
            mv.alt = 0
            return mv
    return mv
