# Oware endgame tables: for every distribution of s seeds over the 12 houses (the score houses do not matter),
# the exact best margin (the mover's captures - the opponent's captures of those s seeds) for the side to
# move, one layer per seed count, built smallest first.  An entry is one int8 in composition rank order
# (own houses 0..5, then the opponent's 0..5: kt_rank's order, with kalah_tables.pxi's KT_COMPOSITIONS).
#
# The moves are rules.oware's: sowing skips the starting house (skip_start), the last seed on the opponent's
# side captures 2s and 3s backwards along their side, a grand slam captures nothing (or everything, or is
# forbidden unless every move is one), and a starving opponent must be fed: when no move feeds them the mover
# takes the seeds on their own side and the game ends; a mover without seeds leaves them to the opponent.
#
# A capture leads to a smaller layer, already built; a move without one stays in the layer, and such moves can
# cycle.  The values are those of a game in which no earlier position repeats and play that never captures
# again is worth 0 for the board's seeds (as the no-capture limit scores it: seeds on the board count for
# nobody).  A layer is solved by value iteration in place from 0: each sweep sets every entry to the best over
# its moves of (captured - value of the child), a same-layer child read as it stands, until a sweep changes
# nothing.  After k sweeps every entry is at least as good as the value of the game cut at depth k (0 at the
# cut) and the iteration only moves towards the values of deeper cuts, which equal the true value once the
# cut is past the longest forced way out of a cycle; a sweep that changes nothing is a fixed point reached
# from 0, hence the true values.  (Other fixed points exist on cycles: never start from anything but 0.)
# Sweeps split into chunks that run in threads without the GIL: a racing write of one int8 only makes a
# later read see a newer value, which the argument above allows.

cdef enum:
    OT_HOUSES = 6
    OT_MAX_SEEDS = 60         # the largest layer the core builds (C(71, 11): far beyond any disk)
    OT_NO_MOVE = -1000

cdef uint64_t OT_SIX_BYTES = 0x0000FFFFFFFFFFFFULL     # six houses held in the low six bytes of a word
cdef uint64_t OT_ONES = 0x0101010101010101ULL


cdef union OtBoard:
    uint64_t q[2]             # houses 0..11 in bytes 0..11 (the mover's 0..5, the opponent's 6..11), 12..15 zero
    uint8_t b[16]


cdef struct OwareTableCtx:
    int slam_captures         # a grand slam captures (grand_slam="capture")
    int slam_forbidden        # a grand slam is legal only when every legal move is one (grand_slam="forbidden")
    int skip_start            # sowing skips the starting house
    int top                   # the largest seed count with a layer; -1: none
    const int8_t* layers[OT_MAX_SEEDS + 1]
    # What sowing n seeds from house h adds to the board's two words (the starting house is emptied apart),
    # and the house the last seed lands in: rules.oware.sowing_path.
    uint64_t inc[OT_HOUSES][OT_MAX_SEEDS + 1][2]
    uint8_t last[OT_HOUSES][OT_MAX_SEEDS + 1]


cdef inline int ot_side_sum(uint64_t six) noexcept nogil:
    # The sum of the six bytes of a side (multiplying by a 1 in every byte adds them all into the top byte;
    # at most 60 seeds, so no carry spoils it).
    return <int>((six * OT_ONES) >> 56)


cdef inline uint64_t ot_theirs(const OtBoard* p) noexcept nogil:
    # the opponent's houses (bytes 6..11) brought down to bytes 0..5
    return ((p.q[0] >> 48) | (p.q[1] << 16)) & OT_SIX_BYTES


cdef inline int64_t ot_rank(const uint8_t* first, const uint8_t* second, int seeds) noexcept nogil:
    # kt_rank for six houses a side held in bytes: stops early once every seed is placed (the remaining terms
    # are C(0, k) - C(0, k) = 0).
    cdef int64_t index = 0
    cdef int r = seeds, i, p
    for i in range(OT_HOUSES):
        if r == 0:
            return index
        p = first[i]
        index += KT_COMPOSITIONS[r][12 - i] - KT_COMPOSITIONS[r - p][12 - i]
        r -= p
    for i in range(OT_HOUSES - 1):
        if r == 0:
            return index
        p = second[i]
        index += KT_COMPOSITIONS[r][6 - i] - KT_COMPOSITIONS[r - p][6 - i]
        r -= p
    return index


cdef inline int ot_lookup(const OwareTableCtx* t, const uint8_t* own, const uint8_t* other,
                          int seeds) noexcept nogil:
    return t.layers[seeds][ot_rank(own, other, seeds)]


cdef inline int ot_value(const OwareTableCtx* t, const int8_t* layer, const OtBoard* p, int seeds) noexcept nogil:
    # The best over the moves of the board `p` (holding `seeds`) of the seeds captured minus the child's
    # value: a same-layer child's as `layer` holds it now, a smaller one's from its table; moves that end the
    # game score their exact margin.  The moves are played first and their children's entries prefetched,
    # then read: the reads miss the cache on big layers, and this way they wait for memory together.
    cdef int own = ot_side_sum(p.q[0] & OT_SIX_BYTES), h, n, last, captured, own_after, their_after, rest
    cdef int value, best = OT_NO_MOVE, best_fair = OT_NO_MOVE, i, count = 0
    cdef bint starving, slam, can_feed
    cdef OtBoard q, a
    cdef const int8_t* where[OT_HOUSES]   # the child's entry, or NULL: `gain` is the move's exact value
    cdef int gain[OT_HOUSES]              # the seeds captured (or the exact value of a move that ends the game)
    cdef bint slams[OT_HOUSES]
    if seeds == 0:
        return 0
    if own == 0:                        # no move: the opponent takes the seeds on their side, all of them
        return -seeds
    starving = ot_theirs(p) == 0
    for h in range(OT_HOUSES):
        n = p.b[h]
        if n == 0 or (starving and n + h < OT_HOUSES):
            continue
        q = p[0]
        q.b[h] = 0
        q.q[0] += t.inc[h][n][0]
        q.q[1] += t.inc[h][n][1]
        last = t.last[h][n]
        captured = 0
        slam = 0
        if last >= OT_HOUSES:           # on the opponent's side: 2s and 3s backwards along it
            a = q
            while last >= OT_HOUSES and (a.b[last] == 2 or a.b[last] == 3):
                captured += a.b[last]
                a.b[last] = 0
                last -= 1
            if captured:
                if ot_theirs(&a) != 0 or t.slam_captures:
                    q = a
                else:                   # a grand slam captures nothing
                    captured = 0
                    slam = 1
        slams[count] = slam
        where[count] = NULL
        own_after = ot_side_sum(q.q[0] & OT_SIX_BYTES)
        their_after = ot_side_sum(ot_theirs(&q))
        can_feed = 1
        if own_after == 0:              # the opponent must feed the mover, if any of their houses reaches
            can_feed = 0
            for i in range(OT_HOUSES):
                if q.b[OT_HOUSES + i] + i >= OT_HOUSES:
                    can_feed = 1
                    break
        if not can_feed:                # they cannot: each side takes its own seeds
            gain[count] = captured - their_after
        elif their_after == 0:          # a grand slam that captured: the opponent has no move
            gain[count] = captured + own_after
        else:
            rest = seeds - captured
            gain[count] = captured
            if captured:
                where[count] = t.layers[rest] + ot_rank(&q.b[OT_HOUSES], &q.b[0], rest)
            else:
                where[count] = layer + ot_rank(&q.b[OT_HOUSES], &q.b[0], seeds)
            sc_prefetch(where[count])
        count += 1
    if count == 0:                      # the opponent is starving and no move feeds them: the mover takes all
        return seeds
    for i in range(count):
        value = gain[i] if where[i] == NULL else gain[i] - where[i][0]
        if slams[i] == 0 and value > best_fair:
            best_fair = value
        if value > best:
            best = value
    if t.slam_forbidden and best_fair != OT_NO_MOVE:
        return best_fair
    return best


cdef int64_t ot_sweep(const OwareTableCtx* t, int8_t* layer, int seeds, int64_t start, int64_t stop) noexcept nogil:
    # One pass of value iteration over entries start..stop-1; the number of entries it changed.
    cdef uint16_t parts[12]
    cdef OtBoard board
    cdef int64_t index, changes = 0
    cdef int i, value
    if start >= stop:
        return 0
    board.q[0] = 0
    board.q[1] = 0
    kt_unrank(start, 12, seeds, parts)
    for index in range(start, stop):
        for i in range(12):
            board.b[i] = <uint8_t>parts[i]
        value = ot_value(t, layer, &board, seeds)
        if value != layer[index]:
            layer[index] = <int8_t>value
            changes += 1
        kt_next(parts, 12)
    return changes


cdef inline void ot_mark_predecessors(const OwareTableCtx* t, uint8_t* dirty, const OtBoard* e,
                                      int seeds) noexcept nogil:
    # Mark dirty every board of the layer with a move that may lead to `e` without a capture (`e` seen from
    # its side to move): the board after the move, in the mover's frame, is `e` turned round; undoing the sowing
    # of n seeds from house h subtracts what it added and puts the n seeds back.  Boards that cannot make that
    # move (illegal, or a capture after all) are marked too: that costs one evaluation, never a wrong value.
    cdef OtBoard after, p
    cdef int h, n, i
    cdef bint fits
    after.q[1] = 0
    for i in range(OT_HOUSES):
        after.b[i] = e.b[OT_HOUSES + i]
        after.b[OT_HOUSES + i] = e.b[i]
    for h in range(OT_HOUSES):
        # the starting house was emptied, and with skip_start got nothing back
        for n in range(1, seeds + 1):
            if after.b[h] != (<const uint8_t*>&t.inc[h][n][0])[h]:
                if t.skip_start:
                    break
                continue
            fits = 1
            for i in range(12):
                if i != h and after.b[i] < (<const uint8_t*>&t.inc[h][n][0])[i]:
                    fits = 0
                    break
            if not fits:                # more seeds only add more: no larger n fits either
                break
            p.q[0] = after.q[0] - t.inc[h][n][0]   # no byte borrows: each holds at least what is taken
            p.q[1] = after.q[1] - t.inc[h][n][1]
            p.b[h] = <uint8_t>n
            dirty[ot_rank(&p.b[0], &p.b[OT_HOUSES], seeds)] = 1


cdef int64_t ot_pass(const OwareTableCtx* t, int8_t* layer, uint8_t* dirty, int seeds, int64_t start,
                     int64_t stop, int64_t* evaluated) noexcept nogil:
    # Value iteration over the dirty entries of start..stop-1 only: an entry whose same-layer children have
    # not changed since it was last evaluated would get the same value again.  A changed entry marks its
    # predecessors dirty (those ahead in this pass are evaluated in it).  The number of entries changed.
    cdef uint16_t parts[12]
    cdef OtBoard board
    cdef int64_t index = start, at = -1, changes = 0, count = 0
    cdef int i, value
    board.q[0] = 0
    board.q[1] = 0
    while index < stop:
        if dirty[index] == 0:
            # skip clean entries eight at a time where the run is aligned
            if (index & 7) == 0 and index + 8 <= stop and (<const uint64_t*>&dirty[index])[0] == 0:
                index += 8
            else:
                index += 1
            continue
        dirty[index] = 0
        if at < 0 or index - at > 24:
            kt_unrank(index, 12, seeds, parts)
        else:
            while at < index:
                kt_next(parts, 12)
                at += 1
        at = index
        for i in range(12):
            board.b[i] = <uint8_t>parts[i]
        value = ot_value(t, layer, &board, seeds)
        count += 1
        if value != layer[index]:
            layer[index] = <int8_t>value
            changes += 1
            ot_mark_predecessors(t, dirty, &board, seeds)
        index += 1
    evaluated[0] = count
    return changes


def oware_layer_size(int seeds):
    """The entries of an Oware table layer: the boards of ``seeds`` seeds in 12 houses, C(seeds + 11, 11)."""
    if not 0 <= seeds <= OT_MAX_SEEDS:
        raise ValueError(f"Oware tables have 0..{OT_MAX_SEEDS} seeds, not {seeds}")
    return KT_COMPOSITIONS[seeds][12]


cdef class OwareTables:
    """The layers 0..top of one Oware variant's endgame tables, each a buffer of int8 entries in rank order.

    ``add_layer`` takes a built layer (a bytes-like object, e.g. a memory map past its header) and keeps a
    reference to it; ``sweep`` runs value iteration over part of the next layer's writable buffer (filled with
    0 before the first sweep) from the ones added, and says how many entries it changed.
    """
    cdef OwareTableCtx ctx
    cdef list _buffers

    def __cinit__(self, bint slam_captures=False, bint slam_forbidden=False, bint skip_start=True):
        cdef int house, count, ring_index, i
        cdef OtBoard added
        if slam_captures and slam_forbidden:
            raise ValueError("a grand slam either captures or is forbidden, not both")
        self.ctx.slam_captures = slam_captures
        self.ctx.slam_forbidden = slam_forbidden
        self.ctx.skip_start = skip_start
        self.ctx.top = -1
        self._buffers = []
        for house in range(OT_HOUSES):
            for count in range(OT_MAX_SEEDS + 1):
                added.q[0] = 0
                added.q[1] = 0
                ring_index = house
                for i in range(count):
                    ring_index = (ring_index + 1) % 12
                    if skip_start and ring_index == house:
                        ring_index = (ring_index + 1) % 12
                    added.b[ring_index] += 1
                self.ctx.inc[house][count][0] = added.q[0]
                self.ctx.inc[house][count][1] = added.q[1]
                self.ctx.last[house][count] = ring_index

    @property
    def slam_captures(self):
        return bool(self.ctx.slam_captures)

    @property
    def slam_forbidden(self):
        return bool(self.ctx.slam_forbidden)

    @property
    def skip_start(self):
        return bool(self.ctx.skip_start)

    @property
    def top(self):
        """The largest seed count the tables answer (-1: none)."""
        return self.ctx.top

    def add_layer(self, int seeds, buffer):
        """Add the layer of ``seeds`` seeds (the next one: layers go 0, 1, 2, ... with no gap)."""
        cdef const unsigned char[::1] view = buffer
        if seeds != self.ctx.top + 1:
            raise ValueError(f"the next layer is {self.ctx.top + 1} seeds, not {seeds}")
        if seeds > OT_MAX_SEEDS:
            raise ValueError(f"Oware tables stop at {OT_MAX_SEEDS} seeds")
        if view.shape[0] != KT_COMPOSITIONS[seeds][12]:
            raise ValueError(f"a {seeds}-seed layer has {KT_COMPOSITIONS[seeds][12]} entries, not {view.shape[0]}")
        self._buffers.append(view)
        self.ctx.layers[seeds] = <const int8_t*>&view[0]
        self.ctx.top = seeds

    def sweep(self, int seeds, unsigned char[::1] out, int64_t start=0, stop=None):
        """One value-iteration pass over entries ``start..stop-1`` of the layer of ``seeds`` seeds in ``out``
        (all 0 before the first pass), without the GIL; every smaller layer must have been added.  Returns
        how many entries changed."""
        cdef int64_t size = KT_COMPOSITIONS[seeds][12] if 0 <= seeds <= OT_MAX_SEEDS else -1
        cdef int64_t end = size if stop is None else stop
        cdef int64_t changes
        if seeds != self.ctx.top + 1:
            raise ValueError(f"the next layer to build is {self.ctx.top + 1} seeds, not {seeds}")
        if out.shape[0] != size:
            raise ValueError(f"a {seeds}-seed layer has {size} entries, not {out.shape[0]}")
        if not 0 <= start <= end <= size:
            raise ValueError(f"entries {start}..{end} are outside the layer's 0..{size}")
        with nogil:
            changes = ot_sweep(&self.ctx, <int8_t*>&out[0], seeds, start, end)
        return changes

    def solve_pass(self, int seeds, unsigned char[::1] out, unsigned char[::1] dirty, int64_t start=0,
                   stop=None):
        """``sweep`` over the entries of ``start..stop-1`` that ``dirty`` marks (all of them before the first
        pass), clearing their marks and marking the predecessors of each entry that changes: the same values
        as full sweeps for much less work once few entries change.  Returns (entries evaluated, changed)."""
        cdef int64_t size = KT_COMPOSITIONS[seeds][12] if 0 <= seeds <= OT_MAX_SEEDS else -1
        cdef int64_t end = size if stop is None else stop
        cdef int64_t changes, evaluated = 0
        if seeds != self.ctx.top + 1:
            raise ValueError(f"the next layer to build is {self.ctx.top + 1} seeds, not {seeds}")
        if out.shape[0] != size or dirty.shape[0] != size:
            raise ValueError(f"a {seeds}-seed layer has {size} entries, not {out.shape[0]} (marks {dirty.shape[0]})")
        if not 0 <= start <= end <= size:
            raise ValueError(f"entries {start}..{end} are outside the layer's 0..{size}")
        with nogil:
            changes = ot_pass(&self.ctx, <int8_t*>&out[0], &dirty[0], seeds, start, end, &evaluated)
        return evaluated, changes

    def lookup(self, own, other):
        """The table value of a board seen from the side to move (its houses 0..5, the opponent's 0..5)."""
        cdef uint8_t first[6]
        cdef uint8_t second[6]
        cdef int i, seeds = 0
        if len(own) != OT_HOUSES or len(other) != OT_HOUSES:
            raise ValueError("an Oware side has 6 houses")
        for i in range(OT_HOUSES):
            if not 0 <= own[i] <= OT_MAX_SEEDS or not 0 <= other[i] <= OT_MAX_SEEDS:
                raise ValueError(f"a house holds 0..{OT_MAX_SEEDS} seeds here: {tuple(own)} {tuple(other)}")
            first[i] = own[i]
            second[i] = other[i]
            seeds += own[i] + other[i]
        if seeds > self.ctx.top:
            raise KeyError(f"the tables stop at {self.ctx.top} seeds, this board has {seeds}")
        return ot_lookup(&self.ctx, first, second, seeds)

    def benchmark_lookups(self, int seeds, int64_t count):
        """Look up ``count`` random boards of the layer without the GIL (each seed thrown into a house by a
        hash, then the board ranked and its byte read); the sum of the values keeps the work from being
        optimised away.  The caller times it."""
        cdef int64_t i, total = 0
        cdef uint64_t state = 1
        cdef uint8_t board[12]
        cdef int j
        if not 0 <= seeds <= self.ctx.top:
            raise ValueError("no such layer")
        with nogil:
            for i in range(count):
                memset(board, 0, sizeof(board))
                for j in range(seeds):
                    state = mix64(state + <uint64_t>j)
                    board[state % <uint64_t>12] += 1
                total += ot_lookup(&self.ctx, &board[0], &board[6], seeds)
        return total
