# Kalah: a position is the ring of 2n + 2 counts (16-bit words) seen from the side to move: its pits
# 0..n-1, its store (n), the opponent's pits (n+1..2n) and store (2n+1).  Any seed total fits, so every
# legal position of any variant (pits 1..12) is held, hand-edited saves included.

cdef struct KalahCtx:
    int n
    int empty_capture
    int margins           # 1: a finished game scores its plain margin (the exact solver's measure)
    int zero              # 1: the zero evaluator
    double side_weight
    double mobility_weight
    double extra_weight   # pits whose seeds end in their owner's store (0: the term is skipped)
    double endgame_weight  # the side difference times the share of the seeds in the stores (0: skipped)
    int words             # 64-bit words the ring takes (for the key)
    const KalahTableCtx* tables   # endgame tables (kalah_tables.pxi), or NULL: a child they hold is FINAL


cdef inline int kalah_table_final(const KalahCtx* k, const uint16_t* q, int same, int board,
                                  double* final) noexcept nogil:
    # The exact score, from the mover's side, of the ring `q` after a move (seen from the mover, `board`
    # seeds left in the pits, `same`: the mover moves again) when the tables hold it; 0 when they do not.
    cdef int n = k.n, rest
    if k.tables == NULL or board > k.tables.top:
        return 0
    if same:
        rest = kt_lookup(k.tables, &q[0], &q[n + 1], board)
    else:
        rest = -kt_lookup(k.tables, &q[n + 1], &q[0], board)
    final[0] = final_value(k.margins, q[n] - q[2 * n + 1] + rest)
    return 1


cdef inline double final_value(int margins, int margin) noexcept nogil:
    # ai.evaluators.final_score: every win above every heuristic score, bigger wins higher.
    if margins or margin == 0:
        return margin
    return WIN_SCORE + margin if margin > 0 else -WIN_SCORE + margin


cdef inline int sow_rest(uint16_t* ring, int pit, int rest, int cycle) noexcept nogil:
    # One seed in each of the `rest` fields after `pit` (rest < cycle), in at most two straight runs; the
    # field of the last seed (the pit itself when there is none).
    cdef int first = pit + 1, i
    cdef int end = first + rest
    if end <= cycle:
        for i in range(first, end):
            ring[i] += 1
        return end - 1 if rest else pit
    for i in range(first, cycle):
        ring[i] += 1
    for i in range(end - cycle):
        ring[i] += 1
    return end - cycle - 1


cdef int kalah_expand(const void* ctx, const Pos* p, const Line* line, Child* out) noexcept nogil:
    cdef const KalahCtx* k = <const KalahCtx*>ctx
    cdef int n = k.n
    cdef int cycle = 2 * n + 1          # every field but the opponent's store
    cdef int count = 0, pit, seeds, laps, rest, f, last, i, taken, opposite, own, total = 0
    cdef int own_left, their_left
    cdef Child* c
    cdef Pos q
    cdef int own_before = 0, their_before = 0
    for i in range(n):
        own_before += p.w[i]
        their_before += p.w[n + 1 + i]
    total = own_before + their_before + p.w[n] + p.w[2 * n + 1]
    for pit in range(n - 1, -1, -1):     # rightmost first: it keeps the others' extra turns available
        seeds = p.w[pit]
        if seeds == 0:
            continue
        c = &out[count]
        count += 1
        c.move = pit
        c.path = 0
        c.reset = 0
        q = p[0]
        q.w[pit] = 0
        laps = seeds // cycle
        rest = seeds - laps * cycle
        if laps:
            for f in range(cycle):
                q.w[f] += laps
        last = sow_rest(q.w, pit, rest, cycle)
        own_left = 0
        their_left = 0
        if last == n:                   # the last seed in the own store: an extra turn
            for i in range(n):
                own_left += q.w[i]
            if own_left and kalah_table_final(k, q.w, 1, total - q.w[n] - q.w[2 * n + 1], &c.final):
                c.kind = KIND_FINAL
                c.order = 0
            elif own_left:
                c.kind = KIND_SAME
                c.pos = q
                c.order = 0
            else:                       # the mover's side emptied: the opponent keeps their own seeds
                c.kind = KIND_FINAL
                c.final = final_value(k.margins, 2 * q.w[n] - total)
                c.order = 0
            continue
        taken = -1
        if last < n and q.w[last] == 1:  # the last seed in an own pit that was empty: a capture
            opposite = 2 * n - last
            taken = q.w[opposite]
            if taken or k.empty_capture:
                q.w[n] += taken + 1
                q.w[last] = 0
                q.w[opposite] = 0
        for i in range(n):
            own_left += q.w[i]
            their_left += q.w[n + 1 + i]
        if own_left == 0 or their_left == 0:  # each side takes the seeds left on its own side
            own = q.w[n] + own_left
            c.kind = KIND_FINAL
            c.final = final_value(k.margins, 2 * own - total)
            c.order = 0
            continue
        if kalah_table_final(k, q.w, 0, own_left + their_left, &c.final):
            c.kind = KIND_FINAL
            c.order = 0
            continue
        c.kind = KIND_OTHER
        # the change in the linear part of the evaluation (store, and seeds on each side at a quarter)
        c.order = 4 * (q.w[n] - p.w[n]) + (own_left - their_left) - (own_before - their_before)
        c.pos.q[k.words - 1] = 0        # the fields past the ring, up to the key's last word, stay 0
        memcpy(&c.pos.w[0], &q.w[n + 1], (n + 1) * sizeof(uint16_t))  # turn the board round:
        memcpy(&c.pos.w[n + 1], &q.w[0], (n + 1) * sizeof(uint16_t))  # the opponent's fields first
    return count


cdef inline int kalah_extra_turns(const KalahCtx* k, const uint16_t* ring) noexcept nogil:
    # Own pits whose seeds end in the own store minus the opponent's (each pit in its owner's numbering).
    cdef int n = k.n, cycle = 2 * n + 1, i, s, extra = 0
    for i in range(n):
        s = ring[i]
        if s and (i + s) % cycle == n:
            extra += 1
        s = ring[n + 1 + i]
        if s and (i + s) % cycle == n:
            extra -= 1
    return extra


cdef double kalah_evaluate(const void* ctx, const Pos* p) noexcept nogil:
    # ai.evaluators.sowing.SowingEvaluator, term for term and in the same order of operations.
    cdef const KalahCtx* k = <const KalahCtx*>ctx
    cdef int n = k.n, i, own = 0, other = 0, own_busy = 0, other_busy = 0, stores
    cdef double value
    if k.zero:
        return 0.0
    for i in range(n):
        own += p.w[i]
        other += p.w[n + 1 + i]
        own_busy += p.w[i] != 0
        other_busy += p.w[n + 1 + i] != 0
    value = (<double>(p.w[n] - p.w[2 * n + 1]) + k.side_weight * (own - other)
             + k.mobility_weight * (own_busy - other_busy))
    if k.extra_weight != 0.0:
        value += k.extra_weight * kalah_extra_turns(k, &p.w[0])
    if k.endgame_weight != 0.0:
        stores = p.w[n] + p.w[2 * n + 1]
        value += k.endgame_weight * ((own - other) * stores) / (own + other + stores)
    return value


cdef double kalah_leaf(const void* ctx, const Pos* p, const Line* line, double beta, int32_t* best_move,
                       int64_t* leaves, int* path) noexcept nogil:
    # Each move sown on a local copy of the ring and scored from the mover's side: extra turns first (they
    # tend to be the best), then the rest; the first child reaching beta ends the node.
    cdef const KalahCtx* k = <const KalahCtx*>ctx
    cdef int n = k.n, cycle = 2 * n + 1, total = 0
    cdef int pass_, pit, seeds, laps, rest, f, i, last, taken, opposite, own_left, their_left, own_busy, their_busy
    cdef int counted = 0
    cdef uint16_t q[POS_WORDS * 4]
    cdef double best = -C_INFINITY, value
    for i in range(2 * n + 2):
        total += p.w[i]
    for pass_ in range(2):
        for pit in range(n - 1, -1, -1):
            seeds = p.w[pit]
            if seeds == 0:
                continue
            if ((pit + seeds) % cycle == n) != (pass_ == 0):  # extra turns in the first pass only
                continue
            for i in range(2 * n + 2):
                q[i] = p.w[i]
            q[pit] = 0
            laps = seeds // cycle
            rest = seeds - laps * cycle
            if laps:
                for f in range(cycle):
                    q[f] += laps
            last = sow_rest(q, pit, rest, cycle)
            if last < n and q[last] == 1:
                opposite = 2 * n - last
                taken = q[opposite]
                if taken or k.empty_capture:
                    q[n] += taken + 1
                    q[last] = 0
                    q[opposite] = 0
            own_left = 0
            their_left = 0
            own_busy = 0
            their_busy = 0
            for i in range(n):
                own_left += q[i]
                their_left += q[n + 1 + i]
                own_busy += q[i] != 0
                their_busy += q[n + 1 + i] != 0
            if last == n and own_left == 0:      # the mover emptied its side: the opponent keeps its seeds
                value = final_value(k.margins, 2 * q[n] - total)
            elif last != n and (own_left == 0 or their_left == 0):
                value = final_value(k.margins, 2 * (q[n] + own_left) - total)
            elif kalah_table_final(k, q, last == n, own_left + their_left, &value):
                pass
            else:
                counted += 1
                if k.zero:
                    value = 0.0
                else:  # the child's evaluation from the mover's side (exactly minus the opponent's view)
                    value = (<double>(q[n] - q[2 * n + 1]) + k.side_weight * (own_left - their_left)
                             + k.mobility_weight * (own_busy - their_busy))
                    if k.extra_weight != 0.0:
                        value += k.extra_weight * kalah_extra_turns(k, q)
                    if k.endgame_weight != 0.0:
                        value += k.endgame_weight * ((own_left - their_left) * (q[n] + q[2 * n + 1])) / total
            if value > best:
                best = value
                best_move[0] = pit
                if value >= beta:
                    leaves[0] = counted
                    return best
    leaves[0] = counted
    return best


cdef void kalah_bounds(const void* ctx, const Pos* p, double* lower, double* upper) noexcept nogil:
    # Seeds in a store never leave it: the final margin is the stores' difference give or take the seeds
    # still on the board (or, with the tables, exactly known when the board is small enough).
    cdef const KalahCtx* k = <const KalahCtx*>ctx
    cdef int n = k.n, board = 0, i
    cdef int stores = p.w[n] - p.w[2 * n + 1]
    for i in range(n):
        board += p.w[i] + p.w[n + 1 + i]
    if k.tables != NULL and board <= k.tables.top:
        stores += kt_lookup(k.tables, &p.w[0], &p.w[n + 1], board)
        board = 0
    lower[0] = final_value(k.margins, stores - board)
    upper[0] = final_value(k.margins, stores + board)


cdef uint64_t kalah_key(const void* ctx, const Pos* p) noexcept nogil:
    return hash_words(p.q, (<const KalahCtx*>ctx).words)


cdef class KalahCore(CoreKernel):
    """The compiled Kalah kernel of one variant and a sowing (or zero) evaluator's weights."""
    cdef KalahCtx ctx
    cdef readonly object tables

    def __cinit__(self, int pits, bint empty_capture, bint margins=False, side=0.0, mobility=0.0,
                  bint zero=False, extra_turns=0.0, endgame=0.0):
        if not 1 <= pits <= 12:
            raise ValueError(f"Kalah has 1..12 pits a side, not {pits}")
        self.ctx.n = pits
        self.ctx.empty_capture = empty_capture
        self.ctx.margins = margins
        self.ctx.zero = zero
        self.ctx.side_weight = side
        self.ctx.mobility_weight = mobility
        self.ctx.extra_weight = extra_turns
        self.ctx.endgame_weight = endgame
        self.ctx.words = ((2 * pits + 2) * 2 + 7) // 8
        self.position_bytes = (2 * pits + 2) * 2
        self.vt.ctx = &self.ctx
        self.vt.expand = kalah_expand
        self.vt.evaluate = kalah_evaluate
        self.vt.key = kalah_key
        self.vt.leaf = kalah_leaf
        self.vt.uses_line = 0

    def use_tables(self, KalahTables tables):
        """Answer every child the endgame tables hold exactly (None: search on).  A search with tables is no
        longer depth-limited minimax, so the engines ask for them explicitly."""
        if tables is not None and (tables.pits != self.ctx.n or tables.empty_capture != bool(self.ctx.empty_capture)):
            raise ValueError("these tables are for another Kalah variant")
        self.tables = tables
        self.ctx.tables = NULL if tables is None or tables.top < 0 else &tables.ctx

    def use_bounds(self, bint on):
        """Let the search stop where the stores (and tables) already decide the window: exact for the game's
        value, but a fixed-depth search is then no longer depth-limited minimax (the prover's choice)."""
        if on:
            self.vt.bounds = kalah_bounds
        else:
            self.vt.bounds = NULL

    def pack(self, fields):
        """The position of a ring seen from the side to move (own pits, own store, theirs, their store)."""
        cdef Pos p
        cdef int i
        fields = tuple(fields)
        if len(fields) != 2 * self.ctx.n + 2:
            raise ValueError(f"a Kalah ring has {2 * self.ctx.n + 2} fields, not {len(fields)}")
        memset(&p, 0, sizeof(Pos))
        for i, value in enumerate(fields):
            if not 0 <= value <= 65535:
                raise ValueError(f"a pit holds 0..65535 seeds here, not {value}")
            p.w[i] = value
        return (<char*>&p)[:self.position_bytes]

    def unpack(self, bytes position):
        cdef Pos p = self._pos(position)
        return tuple(p.w[i] for i in range(2 * self.ctx.n + 2))
