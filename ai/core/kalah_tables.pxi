# Kalah endgame tables: for every distribution of s seeds over the 2n pits (the stores do not matter), the
# exact best margin (own share - opponent's share) of those board seeds for the side to move under perfect
# play, built by retrograde analysis one layer (seed count) at a time, smallest first.
#
# A move either puts seeds in the mover's store (sowing past it, a capture): the child is in a smaller layer,
# already built; or keeps every seed on the board (a short sowing on the mover's own side, no capture): the
# child is in the same layer.  Such a move carries k seeds from pit i to pits i+1..i+k of the mover's side,
# so the sum over both sides of (seeds x pit index, each side counted from its own first pit) grows by
# k(k+1)/2 and nothing else changes it: positions of a layer form a DAG along that potential, and each
# same-layer child is solved first by recursion (depth <= the potential's range) and memoised in the layer.
#
# A position is indexed by its rank among the C(s + 2n - 1, 2n - 1) compositions of s into 2n parts, in
# lexicographic order of (own pits 0..n-1, opponent pits 0..n-1).  An entry is one int8 (|margin| <= s).
from libc.stdint cimport int8_t

cdef enum:
    KT_MAX_SEEDS = 100    # a margin of the board's seeds fits an int8
    KT_MAX_PARTS = 24     # 2n pits, n <= 12
    KT_MAX_PITS = 12      # a side's pits: a board's moves
    KT_AHEAD = 2          # boards planned before the first of them is judged (kt_build_range)
    KT_UNKNOWN = -128     # a layer entry not solved yet (never a value: |value| <= 100)

cdef int64_t KT_COMPOSITIONS[KT_MAX_SEEDS + 1][KT_MAX_PARTS + 1]


cdef void kt_fill_compositions():
    # KT_COMPOSITIONS[r][k]: the compositions of r seeds into k pits, C(r + k - 1, k - 1), saturating at
    # 2^62 (only layers far too big to build reach it; `KalahTables` refuses them).
    cdef int r, k
    cdef int64_t cap = <int64_t>1 << 62, value
    for r in range(KT_MAX_SEEDS + 1):
        KT_COMPOSITIONS[r][0] = 1 if r == 0 else 0
        KT_COMPOSITIONS[r][1] = 1
        for k in range(2, KT_MAX_PARTS + 1):
            # Pascal: the first pit empty (r seeds in k-1 pits) or holding one more (r-1 seeds in k pits)
            value = KT_COMPOSITIONS[r][k - 1] + (KT_COMPOSITIONS[r - 1][k] if r else 0)
            KT_COMPOSITIONS[r][k] = value if value < cap else cap

kt_fill_compositions()


cdef struct KalahTableCtx:
    int n
    int empty_capture
    int top                               # the largest seed count with a layer; -1: none
    const int8_t* layers[KT_MAX_SEEDS + 1]


cdef inline int64_t kt_rank(const uint16_t* first, const uint16_t* second, int n, int seeds) noexcept nogil:
    # The index of the board (first[0..n-1], second[0..n-1]) holding `seeds` seeds: for each pit but the
    # last, the boards that agree before it and hold fewer there, C(r, k) - C(r - p, k) (those holding at
    # least p there are the compositions of r - p).
    cdef int64_t index = 0
    cdef int r = seeds, parts = 2 * n, i, p
    for i in range(2 * n - 1):
        p = first[i] if i < n else second[i - n]
        index += KT_COMPOSITIONS[r][parts - i] - KT_COMPOSITIONS[r - p][parts - i]
        r -= p
    return index


cdef inline int kt_lookup(const KalahTableCtx* t, const uint16_t* first, const uint16_t* second,
                          int seeds) noexcept nogil:
    return t.layers[seeds][kt_rank(first, second, t.n, seeds)]


cdef struct KTPlan:
    # One board's moves, played and their entries prefetched (kt_plan), waiting to be judged (kt_judge).
    int moves
    int best                                     # the value before any move (-seeds: nothing to move)
    int64_t index                                # the board's own entry
    uint16_t q[KT_MAX_PITS][KT_MAX_PARTS + 2]    # each move's child ring
    const int8_t* where[KT_MAX_PITS]             # where its value is read (NULL: known already)
    int base[KT_MAX_PITS]                        # the part of its value known without reading
    int sign[KT_MAX_PITS]                        # +1: the mover again; -1: the opponent to move
    bint same[KT_MAX_PITS]                       # read from this layer (solved first if unknown)


cdef void kt_plan(const KalahTableCtx* t, const int8_t* layer, const uint16_t* ring, int seeds,
                  KTPlan* plan) noexcept nogil:
    # Play every move of the ring (2n + 2 fields, stores 0) holding `seeds` board seeds and prefetch the entry
    # each one's value is read from (a smaller layer's, or this layer's).
    cdef int n = t.n, cycle = 2 * n + 1
    cdef int pit, count, laps, rest, f, i, moves = 0, last, opposite, taken, own_left, their_left, gained
    cdef uint16_t* q
    own_left = 0
    for i in range(n):
        own_left += ring[i]
    plan.best = -seeds if own_left == 0 else -1000   # nothing to move (the rules end the game first): theirs
    plan.index = kt_rank(&ring[0], &ring[n + 1], n, seeds)
    for pit in range(n):
        count = ring[pit]
        if count == 0:
            continue
        q = plan.q[moves]
        for i in range(2 * n + 2):
            q[i] = ring[i]
        q[pit] = 0
        laps = count // cycle
        rest = count - laps * cycle
        if laps:
            for f in range(cycle):
                q[f] += laps
        last = sow_rest(q, pit, rest, cycle)
        if last < n and q[last] == 1:     # the last seed in an own pit that was empty: a capture
            opposite = 2 * n - last
            taken = q[opposite]
            if taken or t.empty_capture:
                q[n] += taken + 1
                q[last] = 0
                q[opposite] = 0
        own_left = 0
        their_left = 0
        for i in range(n):
            own_left += q[i]
            their_left += q[n + 1 + i]
        gained = q[n]                     # board seeds the move put in the mover's store
        plan.base[moves] = gained
        plan.where[moves] = NULL
        plan.same[moves] = False
        if last == n:                     # an extra turn (kalah_expand's order of tests)
            if own_left == 0:
                plan.base[moves] = gained - their_left
            else:
                plan.sign[moves] = 1
                plan.where[moves] = t.layers[seeds - gained] + kt_rank(&q[0], &q[n + 1], n, seeds - gained)
        elif own_left == 0 or their_left == 0:
            plan.base[moves] = gained + own_left - their_left
        else:
            plan.sign[moves] = -1
            if gained:
                plan.where[moves] = t.layers[seeds - gained] + kt_rank(&q[n + 1], &q[0], n, seeds - gained)
            else:                         # every seed still on the board: the same layer
                plan.same[moves] = True
                plan.where[moves] = layer + kt_rank(&q[n + 1], &q[0], n, seeds)
        if plan.where[moves] != NULL:
            sc_prefetch(plan.where[moves])
        moves += 1
    plan.moves = moves


cdef int kt_judge(const KalahTableCtx* t, int8_t* layer, const KTPlan* plan, int seeds) noexcept nogil:
    # The planned board's value, every same-layer child solved first; written to `layer` at its rank.
    cdef int n = t.n, m, i, child, value, best = plan.best
    cdef uint16_t r[KT_MAX_PARTS + 2]
    for m in range(plan.moves):
        value = plan.base[m]
        if plan.where[m] != NULL:
            child = plan.where[m][0]
            if plan.same[m] and child == KT_UNKNOWN:
                for i in range(n):
                    r[i] = plan.q[m][n + 1 + i]
                    r[n + 1 + i] = plan.q[m][i]
                r[n] = 0
                r[2 * n + 1] = 0
                child = kt_solve(t, layer, r, seeds)
            value += plan.sign[m] * child
        if value > best:
            best = value
    layer[plan.index] = <int8_t>best
    return best


cdef int kt_solve(const KalahTableCtx* t, int8_t* layer, const uint16_t* ring, int seeds) noexcept nogil:
    # The value of the ring (2n + 2 fields, stores 0) holding `seeds` board seeds, every same-layer child
    # solved first; written to `layer` at the ring's rank.  Every move is played first and the entry its value
    # is read from prefetched, then the moves are judged in that order: the cache misses of a board's moves
    # overlap instead of following one another.
    cdef KTPlan plan
    kt_plan(t, layer, ring, seeds, &plan)
    return kt_judge(t, layer, &plan, seeds)


cdef void kt_unrank(int64_t index, int parts, int seeds, uint16_t* out) noexcept nogil:
    # The composition of `seeds` into `parts` of lexicographic rank `index` (kt_rank's inverse).
    cdef int i, r = seeds, p
    for i in range(parts - 1):
        p = 0
        # boards holding at least p + 1 here come after those holding fewer: skip while index passes them
        while p < r and KT_COMPOSITIONS[r][parts - i] - KT_COMPOSITIONS[r - p - 1][parts - i] <= index:
            p += 1
        index -= KT_COMPOSITIONS[r][parts - i] - KT_COMPOSITIONS[r - p][parts - i]
        out[i] = p
        r -= p
    out[parts - 1] = r


cdef inline void kt_next(uint16_t* parts_, int parts) noexcept nogil:
    # The next composition in lexicographic order: one more seed in the last pit that has seeds after it,
    # all of those (less one) in the last pit.
    cdef int j = parts - 2, suffix = parts_[parts - 1], i
    while suffix == 0 and j >= 0:
        suffix += parts_[j]
        j -= 1
    if j < 0:
        return
    parts_[j] += 1
    for i in range(j + 1, parts):
        parts_[i] = 0
    parts_[parts - 1] = suffix - 1


cdef void kt_build_range(const KalahTableCtx* t, int8_t* layer, int seeds, int64_t start,
                         int64_t stop) noexcept nogil:
    # Solve entries start..stop-1 of the layer (those still unknown; same-layer children are solved on the
    # way).  Boards are planned (their moves played, the entries they read prefetched) KT_AHEAD boards before
    # they are judged, so the cache misses of several boards overlap.
    cdef int n = t.n, i, planned = 0, judged = 0
    cdef uint16_t board[KT_MAX_PARTS]
    cdef uint16_t ring[KT_MAX_PARTS + 2]
    cdef int64_t index
    cdef KTPlan plans[KT_AHEAD]
    if start >= stop:
        return
    kt_unrank(start, 2 * n, seeds, board)
    for index in range(start, stop):
        if layer[index] == KT_UNKNOWN:
            if planned - judged == KT_AHEAD:
                kt_judge(t, layer, &plans[judged % KT_AHEAD], seeds)
                judged += 1
            for i in range(n):
                ring[i] = board[i]
                ring[n + 1 + i] = board[n + i]
            ring[n] = 0
            ring[2 * n + 1] = 0
            kt_plan(t, layer, ring, seeds, &plans[planned % KT_AHEAD])
            planned += 1
        kt_next(board, 2 * n)
    while judged < planned:
        kt_judge(t, layer, &plans[judged % KT_AHEAD], seeds)
        judged += 1


def kalah_layer_size(int pits, int seeds):
    """The entries of a Kalah table layer: the boards of ``seeds`` seeds in ``2 * pits`` pits."""
    if not 1 <= pits <= 12 or not 0 <= seeds <= KT_MAX_SEEDS:
        raise ValueError(f"Kalah tables have 1..12 pits and 0..{KT_MAX_SEEDS} seeds, not {pits} and {seeds}")
    return KT_COMPOSITIONS[seeds][2 * pits]


cdef class KalahTables:
    """The layers 0..top of one Kalah variant's endgame tables, each a buffer of int8 entries in rank order.

    ``add_layer`` takes a built layer (a bytes-like object, e.g. a memory map past its header) and keeps a
    reference to it; ``build`` fills a writable buffer for the next layer from the ones added.
    """
    cdef KalahTableCtx ctx
    cdef list _buffers

    def __cinit__(self, int pits, bint empty_capture):
        if not 1 <= pits <= 12:
            raise ValueError(f"Kalah has 1..12 pits a side, not {pits}")
        self.ctx.n = pits
        self.ctx.empty_capture = empty_capture
        self.ctx.top = -1
        self._buffers = []

    @property
    def pits(self):
        return self.ctx.n

    @property
    def empty_capture(self):
        return bool(self.ctx.empty_capture)

    @property
    def top(self):
        """The largest seed count the tables answer (-1: none)."""
        return self.ctx.top

    def add_layer(self, int seeds, buffer):
        """Add the layer of ``seeds`` seeds (the next one: layers go 0, 1, 2, ... with no gap)."""
        cdef const unsigned char[::1] view = buffer
        if seeds != self.ctx.top + 1:
            raise ValueError(f"the next layer is {self.ctx.top + 1} seeds, not {seeds}")
        if seeds > KT_MAX_SEEDS:
            raise ValueError(f"Kalah tables stop at {KT_MAX_SEEDS} seeds")
        if view.shape[0] != KT_COMPOSITIONS[seeds][2 * self.ctx.n]:
            raise ValueError(f"a {seeds}-seed layer has {KT_COMPOSITIONS[seeds][2 * self.ctx.n]} entries, "
                             f"not {view.shape[0]}")
        self._buffers.append(view)
        self.ctx.layers[seeds] = <const int8_t*>&view[0]
        self.ctx.top = seeds

    def build(self, int seeds, unsigned char[::1] out, int64_t start=0, stop=None):
        """Solve entries ``start..stop-1`` of the layer of ``seeds`` seeds into ``out`` (filled with 0x80,
        "unknown", before the first call), without the GIL; every smaller layer must have been added."""
        cdef int64_t size = KT_COMPOSITIONS[seeds][2 * self.ctx.n] if 0 <= seeds <= KT_MAX_SEEDS else -1
        cdef int64_t end = size if stop is None else stop
        if seeds != self.ctx.top + 1:
            raise ValueError(f"the next layer to build is {self.ctx.top + 1} seeds, not {seeds}")
        if out.shape[0] != size:
            raise ValueError(f"a {seeds}-seed layer has {size} entries, not {out.shape[0]}")
        if not 0 <= start <= end <= size:
            raise ValueError(f"entries {start}..{end} are outside the layer's 0..{size}")
        with nogil:
            kt_build_range(&self.ctx, <int8_t*>&out[0], seeds, start, end)

    def lookup(self, own, other):
        """The table value of a board seen from the side to move (own pits, the opponent's pits)."""
        cdef uint16_t first[12]
        cdef uint16_t second[12]
        cdef int i, seeds = 0
        if len(own) != self.ctx.n or len(other) != self.ctx.n:
            raise ValueError(f"a side has {self.ctx.n} pits")
        for i in range(self.ctx.n):
            first[i] = own[i]
            second[i] = other[i]
            seeds += own[i] + other[i]
        if seeds > self.ctx.top:
            raise KeyError(f"the tables stop at {self.ctx.top} seeds, this board has {seeds}")
        return kt_lookup(&self.ctx, first, second, seeds)

    def benchmark_lookups(self, int seeds, int64_t count):
        """Look up ``count`` random boards of the layer without the GIL (each seed thrown into a pit by a
        hash, then the board ranked and its byte read); the sum of the values keeps the work from being
        optimised away.  The caller times it."""
        cdef int64_t i, total = 0
        cdef uint64_t state = 1
        cdef uint16_t board[KT_MAX_PARTS]
        cdef int n = self.ctx.n, j
        if not 0 <= seeds <= self.ctx.top:
            raise ValueError("no such layer")
        with nogil:
            for i in range(count):
                memset(board, 0, sizeof(board))
                for j in range(seeds):
                    state = mix64(state + <uint64_t>j)
                    board[state % <uint64_t>(2 * n)] += 1
                total += kt_lookup(&self.ctx, &board[0], &board[n], seeds)
        return total
