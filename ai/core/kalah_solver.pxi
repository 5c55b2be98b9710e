# Kalah's exact solver: null-window tests ("is the value at least gamma?") to the end of the game over the
# *board* alone.  The stores never change what is left to win, so a node is the 2n pits seen from the side to
# move and its value is the best margin of the board's seeds (the endgame tables' measure: the root's value is
# its stores' difference plus its board's value).  Positions that differ only in their stores share one
# transposition entry, and every entry holds bounds that are true for ever (no depth, no window): every test
# of MTD(f), a resumed proof (a checkpoint is the table) and the principal variation reuse all of them.
#
# At each node, before any child is searched:
# - futility: a board of S seeds is worth -S..S; a move gaining g seeds into a child of S' seeds is worth
#   g - S'..g + S', and a move that cannot reach gamma is not searched;
# - exact children (game over, or a board the endgame tables hold) are scored at once;
# - enhanced transposition cutoffs: each child's table entry is probed, its bounds may decide the test;
# then the rest are searched in order: the table's move, extra turns, the most seeds gained, history.
# The move rules are kt_solve's (kalah_tables.pxi) and kalah_expand's, which the tests hold to the rules.

cdef enum:
    KS_MAX_BOARD = 24         # 2n pits, n <= 12
    KS_BUCKET = 4             # entries a probe looks at (one 64-byte line)
    KS_POLL = 4095            # the cancel flag and the node limit are read every 4096 nodes


# 16 bytes, two words: threads share a table without locks.  ``check`` is the key's first word (pits 0..7, a
# byte each) XOR the entry's second word, so an entry torn by two threads writing it at once matches no key.
cdef struct KSEntry:
    uint64_t check
    uint32_t b                # pits 8..11, or a hash of pits 8..23 for more than 6 pits a side
    int8_t lo                 # value >= lo
    int8_t hi                 # value <= hi
    uint8_t move              # the move that proved the lower bound (255: none), or a shallow search's best
    uint8_t work              # 1 + log2 of the nodes it took (0: an empty slot); the replacement keeps work


cdef struct KSCtx:
    int n
    int empty_capture
    const KalahTableCtx* tables
    int top                   # the largest board the tables hold (-1: none)
    KSEntry* tt
    uint64_t buckets_mask
    int64_t nodes
    int64_t limit             # stop (aborted) once nodes reach it; 0: never
    const unsigned char* cancel
    int aborted
    int use_etc
    int use_futility
    int use_order
    int64_t history[KS_MAX_BOARD]
    int64_t table_hits        # nodes decided by the table entry on arrival
    int64_t etc_cuts          # nodes decided by a child's entry before any search
    int64_t futile            # moves skipped by the seed bound
    int64_t stored
    uint64_t mask_a
    int etc_min               # enhanced transposition cutoffs at boards of this many seeds or more
    int ply                   # the test's plies below its root at the node searched
    uint32_t spread           # the plies (bits) whose moves are searched in the reverse order
    uint32_t mask_b


cdef inline void ks_key(const KSCtx* k, const uint8_t* p, uint64_t* a, uint32_t* b) noexcept nogil:
    cdef uint64_t hi1 = 0, hi2 = 0
    memcpy(a, p, 8)
    a[0] &= k.mask_a                      # only the board's 2n bytes count
    if 2 * k.n <= 12:
        memcpy(b, p + 8, 4)
        b[0] &= k.mask_b
    else:
        memcpy(&hi1, p + 8, 8)
        memcpy(&hi2, p + 16, 8)
        b[0] = <uint32_t>(mix64(hi1) ^ (mix64(hi2 + <uint64_t>0x9e3779b97f4a7c15ULL) >> 17))


cdef inline KSEntry* ks_bucket(const KSCtx* k, uint64_t a, uint32_t b) noexcept nogil:
    return &k.tt[(mix64(a ^ mix64(<uint64_t>b + <uint64_t>0x51ed270b27ULL)) & k.buckets_mask) * KS_BUCKET]


cdef inline uint64_t ks_second(const KSEntry* e) noexcept nogil:
    cdef uint64_t word
    memcpy(&word, (<const char*>e) + 8, 8)
    return word


cdef inline bint ks_copy(const KSEntry* e, uint64_t a, uint32_t b, KSEntry* out) noexcept nogil:
    # Copy the slot at e to out (one read of each word) and say whether it is key (a, b), whole.
    memcpy(out, e, sizeof(KSEntry))
    return out.work != 0 and out.b == b and (out.check ^ ks_second(out)) == a


cdef inline void ks_put(KSEntry* e, KSEntry* entry, uint64_t a) noexcept nogil:
    # Write entry to the slot at e, sealed by its check word.
    entry.check = a ^ ks_second(entry)
    memcpy(e, entry, sizeof(KSEntry))


cdef inline bint ks_find(const KSEntry* e, uint64_t a, uint32_t b, KSEntry* out) noexcept nogil:
    # Copy the entry of key (a, b) in the bucket at e to out: False when it is not there.
    cdef int i
    for i in range(KS_BUCKET):
        if ks_copy(&e[i], a, b, out):
            return True
    return False


cdef inline bint ks_probe(const KSCtx* k, const uint8_t* p, KSEntry* out) noexcept nogil:
    # Copy the entry of board p to out: False when the table holds none.
    cdef uint64_t a
    cdef uint32_t b
    if k.tt == NULL:
        return False
    ks_key(k, p, &a, &b)
    return ks_find(ks_bucket(k, a, b), a, b, out)


cdef inline void ks_store(KSCtx* k, const uint8_t* p, int lo, int hi, int move, int64_t work) noexcept nogil:
    # Merge the bounds into the board's entry, or take the slot of the bucket that cost least to fill.
    # Another thread may write the same slot at once: each write is a whole entry of true bounds, one of
    # them is lost or the slot is torn (then it matches no key): information lost, never a wrong bound.
    cdef uint64_t a
    cdef uint32_t b
    cdef KSEntry* e
    cdef KSEntry entry
    cdef int i, w = 1, slot = 0, least = 256
    if k.tt == NULL or k.aborted:
        return
    while work > 1 and w < 255:
        work >>= 1
        w += 1
    ks_key(k, p, &a, &b)
    e = ks_bucket(k, a, b)
    for i in range(KS_BUCKET):
        if ks_copy(&e[i], a, b, &entry):
            if move >= 0 and lo >= entry.lo:   # the move proves the entry's lower bound (another thread's
                entry.move = move              # higher bound keeps the move that proved it)
            if lo > entry.lo:
                entry.lo = lo
            if hi < entry.hi:
                entry.hi = hi
            if w > entry.work:
                entry.work = w
            ks_put(&e[i], &entry, a)
            return
        if entry.work < least:
            slot, least = i, entry.work
    k.stored += 1
    entry.b = b
    entry.lo = lo
    entry.hi = hi
    entry.move = 255 if move < 0 else move
    entry.work = w
    ks_put(&e[slot], &entry, a)


cdef inline int64_t ks_index8(const KalahTableCtx* t, const uint8_t* first, const uint8_t* second,
                              int seeds) noexcept nogil:
    # The index of a byte board in its layer (kt_rank for byte boards).
    cdef int64_t index = 0
    cdef int r = seeds, parts = 2 * t.n, i, q
    for i in range(parts - 1):
        q = first[i] if i < t.n else second[i - t.n]
        index += KT_COMPOSITIONS[r][parts - i] - KT_COMPOSITIONS[r - q][parts - i]
        r -= q
    return index


cdef inline int ks_lookup8(const KalahTableCtx* t, const uint8_t* first, const uint8_t* second,
                           int seeds) noexcept nogil:
    # kt_lookup for byte boards.
    return t.layers[seeds][ks_index8(t, first, second, seeds)]


cdef inline int ks_play(const KSCtx* k, const uint8_t* p, int pit, uint8_t* child, int* gained, int* seeds,
                        int* value) noexcept nogil:
    # Sow `pit` of board `p` (own pits 0..n-1, then the opponent's).  2: the game is over, `value` its exact
    # worth to the mover; 1: the mover moves again on `child` (seen from the mover); 0: the opponent moves on
    # `child` (seen from the opponent).  `gained`: seeds the move put in the mover's store.
    cdef int n = k.n, cycle = 2 * n + 1, i, count, laps, rest, last, opposite, taken, own_left = 0, their_left = 0
    cdef int end
    cdef uint8_t r[KS_MAX_BOARD + 2]
    memcpy(r, p, n)
    r[n] = 0
    memcpy(&r[n + 1], p + n, n)
    count = r[pit]
    r[pit] = 0
    laps = count // cycle
    rest = count - laps * cycle
    if laps:
        for i in range(cycle):
            r[i] += laps
    end = pit + 1 + rest
    if end <= cycle:
        for i in range(pit + 1, end):
            r[i] += 1
        last = end - 1 if rest else pit
    else:
        for i in range(pit + 1, cycle):
            r[i] += 1
        for i in range(end - cycle):
            r[i] += 1
        last = end - cycle - 1
    if last < n and r[last] == 1:          # the last seed in an own pit that was empty: a capture
        opposite = 2 * n - last
        taken = r[opposite]
        if taken or k.empty_capture:
            r[n] += taken + 1
            r[last] = 0
            r[opposite] = 0
    for i in range(n):
        own_left += r[i]
        their_left += r[n + 1 + i]
    gained[0] = r[n]
    seeds[0] = own_left + their_left
    if last == n:                          # an extra turn
        if own_left == 0:                  # the mover's side emptied: the opponent keeps their own seeds
            value[0] = r[n] - their_left
            return 2
        memcpy(child, r, n)
        memcpy(child + n, &r[n + 1], n)
        return 1
    if own_left == 0 or their_left == 0:   # each side takes the seeds left on its own side
        value[0] = r[n] + own_left - their_left
        return 2
    memcpy(child, &r[n + 1], n)
    memcpy(child + n, r, n)
    return 0


cdef int ks_test(KSCtx* k, const uint8_t* p, int S, int gamma) noexcept nogil:
    # The board's value v (S seeds, the side to move's margin of them) against gamma, fail-soft: a result
    # r >= gamma proves v >= r, a result r < gamma proves v <= r.
    # Every move is played first and the memory its child will be read from (its table value, or its
    # transposition bucket) is prefetched, so the cache misses of the moves overlap instead of following one
    # another (they are most of a node's time); then the moves are judged in the same order as before.
    cdef int n = k.n, i, j, m, played = 0, pit, count = 0, best = -1000, v, r, g, cs, kind, tt_move = -1
    cdef int cut_move = -1
    cdef uint8_t kids[12][KS_MAX_BOARD]
    cdef int kg[12]
    cdef int kseeds[12]
    cdef int kkind[12]
    cdef int kpit[12]
    cdef int kvalue[12]
    cdef const int8_t* kexact[12]
    cdef KSEntry* kbucket[12]
    cdef uint64_t ka[12]
    cdef uint32_t kb[12]
    cdef int64_t kscore[12]
    cdef int64_t score, started
    cdef int order[12]
    cdef KSEntry e
    cdef int clo, chi, side
    k.nodes += 1
    if (k.nodes & KS_POLL) == 0:
        if (k.cancel != NULL and k.cancel[0]) or (k.limit and k.nodes >= k.limit):
            k.aborted = 1
    if k.aborted:
        return 0
    if k.use_futility:
        if S < gamma:
            return S
        if -S >= gamma:
            return -S
    if ks_probe(k, p, &e):
        if e.lo >= gamma:
            k.table_hits += 1
            return e.lo
        if e.hi < gamma:
            k.table_hits += 1
            return e.hi
        if e.move != 255:
            tt_move = e.move
    started = k.nodes
    for i in range(n):
        pit = n - 1 - i if k.use_order >= 3 else i   # rightmost first: it keeps the others' extra turns
        if p[pit] == 0:
            continue
        m = played
        played += 1
        kpit[m] = pit
        kind = ks_play(k, p, pit, kids[m], &kg[m], &kseeds[m], &kvalue[m])
        kexact[m] = NULL
        kbucket[m] = NULL
        if kind != 2 and kseeds[m] <= k.top:    # the tables hold the child: exact
            kexact[m] = k.tables.layers[kseeds[m]] + ks_index8(k.tables, kids[m], kids[m] + n, kseeds[m])
            sc_prefetch(kexact[m])
        elif kind != 2 and k.tt != NULL:
            ks_key(k, kids[m], &ka[m], &kb[m])
            kbucket[m] = ks_bucket(k, ka[m], kb[m])
            sc_prefetch(kbucket[m])
        kkind[m] = kind
    for m in range(played):
        pit = kpit[m]
        kind = kkind[m]
        g = kg[m]
        cs = kseeds[m]
        v = kvalue[m]
        if kexact[m] != NULL:
            v = g + kexact[m][0] if kind == 1 else g - kexact[m][0]
            kind = 2
        if kind == 2:
            if v >= gamma:
                ks_store(k, p, v, S, pit, 1)
                return v
            if v > best:
                best = v
            continue
        if k.use_futility and g + cs < gamma:
            k.futile += 1
            if g + cs > best:
                best = g + cs
            continue
        if k.use_etc and S >= k.etc_min and kbucket[m] != NULL:
            if ks_find(kbucket[m], ka[m], kb[m], &e):
                if kind == 1:
                    clo = g + e.lo
                    chi = g + e.hi
                else:
                    clo = g - e.hi
                    chi = g - e.lo
                if clo >= gamma:
                    k.etc_cuts += 1
                    ks_store(k, p, clo, S, pit, 1)
                    return clo
                if chi < gamma:
                    if chi > best:
                        best = chi
                    continue
        if k.use_order == 0:
            score = -pit
        elif pit == tt_move:
            score = <int64_t>1 << 60
        elif k.use_order == 1:
            score = ((<int64_t>1 << 50) + g) if kind == 1 else (<int64_t>g << 40) + k.history[pit]
        else:                               # seeds gained, then the seeds kept on the own side, then history
            side = 0
            for j in range(n):
                side += kids[m][j] - kids[m][n + j]
            if kind == 0:
                side = -side
            score = ((<int64_t>(4 * g + side + (8 if kind == 1 else 0) + 256)) << 40) + k.history[pit]
            if kind == 1 and k.use_order >= 3:
                score += <int64_t>1 << 52      # extra turns before every other move
        kscore[m] = score
        order[count] = m
        count += 1
    for i in range(1, count):               # insertion sort, best first
        j = i
        while j > 0 and kscore[order[j - 1]] < kscore[order[j]]:
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1
    if k.ply < 32 and (k.spread >> k.ply) & 1:    # a second searcher of the same test: from the other end
        for i in range(count // 2):
            order[i], order[count - 1 - i] = order[count - 1 - i], order[i]
    for i in range(count):
        j = order[i]
        g = kg[j]
        k.ply += 1
        if kkind[j] == 1:
            r = ks_test(k, kids[j], kseeds[j], gamma - g)
            v = g + r
        else:
            r = ks_test(k, kids[j], kseeds[j], g - gamma + 1)
            v = g - r
        k.ply -= 1
        if k.aborted:
            return 0
        if v >= gamma:
            k.history[kpit[j]] += k.nodes - started
            ks_store(k, p, v, S, kpit[j], k.nodes - started)
            return v
        if v > best:
            best = v
    if best == -1000:                       # no move at all (only a hand-made board): the opponent takes all
        best = -S
    ks_store(k, p, -S, best, -1, k.nodes - started)
    return best


cdef int ks_hint(KSCtx* k, const uint8_t* p, int S, int depth, int alpha, int beta) noexcept nogil:
    # A depth-limited alpha-beta whose only product is move order: each node's best move goes into its
    # entry (a new entry gets the bounds -S..S, true of every board), so the tests that follow try first what
    # a shallow search preferred.  A horizon board scores half its side difference; exact children and
    # entries with proved values score what they are.
    cdef int n = k.n, i, j, pit, count = 0, best = -1000, best_move = -1, v, g, cs, kind, tt_move = -1, side
    cdef uint8_t kids[12][KS_MAX_BOARD]
    cdef int kg[12]
    cdef int kseeds[12]
    cdef int kkind[12]
    cdef int kpit[12]
    cdef int64_t kscore[12]
    cdef int order[12]
    cdef KSEntry e
    k.nodes += 1
    if (k.nodes & KS_POLL) == 0:
        if (k.cancel != NULL and k.cancel[0]) or (k.limit and k.nodes >= k.limit):
            k.aborted = 1
    if k.aborted:
        return 0
    if ks_probe(k, p, &e):
        if e.lo == e.hi:
            return e.lo
        if e.move != 255:
            tt_move = e.move
    if depth <= 0:
        side = 0
        for i in range(n):
            side += p[i] - p[n + i]
        return side // 2
    for pit in range(n):
        if p[pit] == 0:
            continue
        kind = ks_play(k, p, pit, kids[count], &g, &cs, &v)
        if kind != 2 and cs <= k.top:
            if kind == 1:
                v = g + ks_lookup8(k.tables, kids[count], kids[count] + n, cs)
            else:
                v = g - ks_lookup8(k.tables, kids[count], kids[count] + n, cs)
            kind = 2
        if kind == 2:
            if v > best:
                best, best_move = v, pit
            continue
        side = 0
        for i in range(n):
            side += kids[count][i] - kids[count][n + i]
        if kind == 0:
            side = -side
        kg[count] = g
        kseeds[count] = cs
        kkind[count] = kind
        kpit[count] = pit
        kscore[count] = (<int64_t>1 << 60) if pit == tt_move else (
            ((<int64_t>(4 * g + side + (8 if kind == 1 else 0) + 256)) << 40) + k.history[pit])
        order[count] = count
        count += 1
    if best > alpha:
        alpha = best
    for i in range(1, count):
        j = i
        while j > 0 and kscore[order[j - 1]] < kscore[order[j]]:
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1
    for i in range(count):
        if alpha >= beta:
            break
        j = order[i]
        g = kg[j]
        if kkind[j] == 1:
            v = g + ks_hint(k, kids[j], kseeds[j], depth - 1, alpha - g, beta - g)
        else:
            v = g - ks_hint(k, kids[j], kseeds[j], depth - 1, g - beta, g - alpha)
        if k.aborted:
            return 0
        if v > best:
            best, best_move = v, kpit[j]
            if v > alpha:
                alpha = v
    if best == -1000:
        return -S
    if best_move >= 0 and not k.aborted:
        ks_store(k, p, -S, S, best_move, 1)      # the move into the entry (its bounds merged: kept)
    return best


cdef class KalahSolver:
    """Null-window tests of Kalah boards to the end of the game (see the comment at the top of
    ``kalah_solver.pxi``), with a transposition table in a caller's writable buffer (64-byte buckets of four
    16-byte entries; a power of two of them) whose entries stay true for ever: a buffer saved after a test (or
    after an aborted one: nothing is stored while a test unwinds) and given to a new solver resumes the proof.
    """
    cdef KSCtx ctx
    cdef object _tables
    cdef object _buffer
    cdef object _cancel

    def __cinit__(self, int pits, bint empty_capture, buffer=None, tables=None, bint etc=True,
                  bint futility=True, int ordering=2):
        cdef unsigned char[::1] view
        cdef KalahTables t
        if not 1 <= pits <= 12:
            raise ValueError(f"Kalah has 1..12 pits a side, not {pits}")
        memset(&self.ctx, 0, sizeof(KSCtx))
        self.ctx.n = pits
        self.ctx.empty_capture = empty_capture
        self.ctx.top = -1
        self.ctx.use_etc = etc
        self.ctx.use_futility = futility
        self.ctx.use_order = ordering
        self.ctx.mask_a = ~<uint64_t>0 if 2 * pits >= 8 else (<uint64_t>1 << (16 * pits)) - 1
        if 2 * pits <= 8:
            self.ctx.mask_b = 0
        elif 2 * pits >= 12:
            self.ctx.mask_b = ~<uint32_t>0
        else:
            self.ctx.mask_b = (<uint32_t>1 << (8 * (2 * pits - 8))) - 1
        if tables is not None:
            t = tables
            if t.pits != pits or t.empty_capture != bool(empty_capture):
                raise ValueError("these tables are for another Kalah variant")
            self._tables = t
            if t.top >= 0:
                self.ctx.tables = &t.ctx
                self.ctx.top = t.top
        if buffer is not None:
            view = buffer
            size = view.shape[0] // (16 * KS_BUCKET)
            if size < 1 or size & (size - 1) or view.shape[0] != size * 16 * KS_BUCKET:
                raise ValueError(f"the table is a power of two of 64-byte buckets, not {view.shape[0]} bytes")
            self._buffer = view
            self.ctx.tt = <KSEntry*>&view[0]
            self.ctx.buckets_mask = size - 1

    @property
    def nodes(self):
        return self.ctx.nodes

    def clear(self):
        """Forget everything: the table emptied, the history and the counters zero, as a new solver on a new
        buffer (a new buffer costs a page fault on every page a test touches: clearing one is far cheaper)."""
        if self.ctx.tt != NULL:
            memset(self.ctx.tt, 0, (self.ctx.buckets_mask + 1) * KS_BUCKET * sizeof(KSEntry))
        memset(self.ctx.history, 0, sizeof(self.ctx.history))
        self.ctx.nodes = self.ctx.table_hits = self.ctx.etc_cuts = self.ctx.futile = self.ctx.stored = 0

    def tune(self, int etc_min):
        """Enhanced transposition cutoffs only at boards of ``etc_min`` seeds or more (0: everywhere)."""
        self.ctx.etc_min = etc_min

    def spread(self, unsigned int plies):
        """Search the moves in the reverse order at the plies below the root whose bits ``plies`` sets (0:
        nowhere): a second searcher of the same test on a shared table then works from the other end of the
        nodes where every move must be refuted."""
        self.ctx.spread = plies

    @property
    def stats(self):
        """Counters since the solver was made: nodes, table_hits, etc_cuts, futile, stored."""
        return {"nodes": self.ctx.nodes, "table_hits": self.ctx.table_hits, "etc_cuts": self.ctx.etc_cuts,
                "futile": self.ctx.futile, "stored": self.ctx.stored}

    cdef int _board(self, board, uint8_t* p) except -1:
        cdef int i, total = 0
        board = tuple(board)
        if len(board) != 2 * self.ctx.n:
            raise ValueError(f"a board has {2 * self.ctx.n} pits, not {len(board)}")
        memset(p, 0, KS_MAX_BOARD)
        for i, value in enumerate(board):
            if not 0 <= value <= 255:
                raise ValueError(f"the solver holds 0..255 seeds a pit, not {value}")
            p[i] = value
            total += value
        if total > 127:
            raise ValueError(f"the solver holds boards of up to 127 seeds, not {total}")
        return total

    def test(self, board, int gamma, cancel=None, long long limit=0):
        """Whether the value of ``board`` (own pits, then the opponent's, seen from the side to move) is at
        least ``gamma``: (r, move, aborted) where r >= gamma proves value >= r (``move`` secures it) and r < gamma
        proves value <= r.  ``cancel`` (a one-byte bytearray, e.g. ``CancelToken.flag``) or ``limit`` (a total
        node count) stop it early: aborted True, r meaningless, every stored entry still true."""
        cdef uint8_t p[KS_MAX_BOARD]
        cdef const unsigned char[::1] flag
        cdef int seeds = self._board(board, p), r
        cdef KSEntry e
        self.ctx.aborted = 0
        self.ctx.ply = 0
        self.ctx.limit = limit
        self.ctx.cancel = NULL
        if cancel is not None:
            flag = cancel
            self._cancel = flag
            self.ctx.cancel = &flag[0]
        with nogil:
            r = ks_test(&self.ctx, p, seeds, gamma)
        self.ctx.cancel = NULL
        if self.ctx.aborted:
            return 0, None, True
        move = None
        if r >= gamma and ks_probe(&self.ctx, p, &e) and e.move != 255 and e.lo >= gamma:
            move = e.move
        return r, move, False

    def hint(self, board, int depth, cancel=None, long long limit=0):
        """A shallow alpha-beta of ``depth`` plies that leaves its best moves in the table for the tests to try
        first (its value is a heuristic guess, returned); (guess, aborted)."""
        cdef uint8_t p[KS_MAX_BOARD]
        cdef const unsigned char[::1] flag
        cdef int seeds = self._board(board, p), r
        self.ctx.aborted = 0
        self.ctx.limit = limit
        self.ctx.cancel = NULL
        if cancel is not None:
            flag = cancel
            self._cancel = flag
            self.ctx.cancel = &flag[0]
        with nogil:
            r = ks_hint(&self.ctx, p, seeds, depth, -1000, 1000)
        self.ctx.cancel = NULL
        return r, bool(self.ctx.aborted)

    def bounds(self, board):
        """What the table knows of ``board``: (lower, upper, move or None), or None."""
        cdef uint8_t p[KS_MAX_BOARD]
        cdef int seeds = self._board(board, p)
        cdef KSEntry e
        if not ks_probe(&self.ctx, p, &e):
            return None
        return e.lo, e.hi, None if e.move == 255 else e.move
