# Hus (McGill COMP 424): a position is 68 bytes seen from the side to move: its 32 pits in its own numbering
# (bytes 0..31), the opponent's 32 (bytes 32..63), then the ply (moves played since the start, a 32-bit word
# at bytes 64..67), which decides the first-turn rule (no capture before ply 2) and the turn-limit draw.  It is
# the C twin of ai.fast.hus.HusKernel and computes exactly what rules.hus computes.
#
# Each ring is four 64-bit words of one byte a pit.  A position holds at most 255 seeds (the game has 96), so
# no pit passes 255 and a lap is a few word additions: one per word for the whole rounds and one from a table
# for the rest, with no carry from byte to byte.  A move needing more than the lap limit is not legal.
#
# The key leaves the ply out, as rules.hus.Hus.key does, where it cannot matter: from ply 2 on and while the
# turn limit is further away than any search reaches (MAX_PLY), every ply searches the same tree.

cdef enum:
    HUS_RING = 32
    HUS_WIDTH = 16
    HUS_BYTES = 68
    HUS_MAX_SEEDS = 255

cdef uint64_t HUS_ONES = 0x0101010101010101ULL
cdef uint64_t HUS_LOW7 = 0x7F7F7F7F7F7F7F7FULL
cdef uint64_t HUS_TOPS = 0x8080808080808080ULL
# HUS_LAP[pit][seeds]: a 1 in the byte of each of the `seeds` (0..31) pits after `pit`, round the ring.
cdef uint64_t HUS_LAP[HUS_RING][HUS_RING][4]

cdef extern from *:
    """
    #define sc_byte_swap(x) __builtin_bswap64(x)
    """
    uint64_t sc_byte_swap(uint64_t x) noexcept nogil


cdef void hus_fill_laps() noexcept nogil:
    cdef int pit, seeds, step, target
    memset(HUS_LAP, 0, sizeof(HUS_LAP))
    for pit in range(HUS_RING):
        for seeds in range(HUS_RING):
            for step in range(1, seeds + 1):
                target = (pit + step) % HUS_RING
                HUS_LAP[pit][seeds][target >> 3] += <uint64_t>1 << (8 * (target & 7))


hus_fill_laps()


cdef struct HusCtx:
    int lap_limit
    uint32_t ply_limit    # 2 * turn_limit: a position at this ply is a draw (if its mover can move)
    int margins           # 1: a won game scores its plain margin (the exact solver's measure)
    int zero              # 1: the zero evaluator
    double mobility_weight
    double exposure_weight
    double inner_weight


cdef inline int hus_word_sum(uint64_t x) noexcept nogil:
    # Multiplying by a 1 in every byte adds all eight bytes into the top one (they hold at most 255 in all).
    return <int>((x * HUS_ONES) >> 56)


cdef inline int hus_ring_sum(const uint64_t* ring) noexcept nogil:
    return hus_word_sum(ring[0]) + hus_word_sum(ring[1]) + hus_word_sum(ring[2]) + hus_word_sum(ring[3])


cdef inline uint64_t hus_nonzero_tops(uint64_t x) noexcept nogil:
    # The top bit of each byte that is not 0: its low seven bits plus 0x7F carry into the top bit unless they
    # are all 0, and a byte of 128 or more has it already.
    return (((x & HUS_LOW7) + HUS_LOW7) | x) & HUS_TOPS


cdef inline uint64_t hus_playable_tops(uint64_t x) noexcept nogil:
    # The top bit of each byte holding 2 or more: its low seven bits plus 0x7E reach the top bit from 2 on.
    return (((x & HUS_LOW7) + <uint64_t>0x7E7E7E7E7E7E7E7EULL) | x) & HUS_TOPS


cdef inline int hus_playable(const uint64_t* ring) noexcept nogil:
    # pits of 2 or more seeds: each top bit moved to its byte's low bit, then the bytes added
    return (hus_word_sum(hus_playable_tops(ring[0]) >> 7) + hus_word_sum(hus_playable_tops(ring[1]) >> 7)
            + hus_word_sum(hus_playable_tops(ring[2]) >> 7) + hus_word_sum(hus_playable_tops(ring[3]) >> 7))


cdef inline int hus_exposed(const uint64_t* ring) noexcept nogil:
    # Seeds in the columns whose inner pit (16..31, words 2 and 3) is not empty, inner and outer pit.  A
    # column's outer pit is 31 - k: pits 16..23 face 15..8 (word 1 byte-reversed), 24..31 face 7..0 (word 0).
    cdef uint64_t low_columns = (hus_nonzero_tops(ring[2]) >> 7) * 0xFF    # 0xFF in each live column's byte
    cdef uint64_t high_columns = (hus_nonzero_tops(ring[3]) >> 7) * 0xFF
    return (hus_word_sum(ring[2] & low_columns) + hus_word_sum(ring[3] & high_columns)
            + hus_word_sum(ring[1] & sc_byte_swap(low_columns)) + hus_word_sum(ring[0] & sc_byte_swap(high_columns)))


cdef inline uint64_t hus_pick(uint64_t w0, uint64_t w1, uint64_t w2, uint64_t w3, int index) noexcept nogil:
    # Word `index` (0..3) of a ring held in four registers, chosen without going through memory.
    return (w0 if index == 0 else w1) if index < 2 else (w2 if index == 2 else w3)


cdef inline uint64_t hus_only(int index, int word) noexcept nogil:
    # All ones when index == word, else 0: a mask that clears a byte in one of the four words only.
    return <uint64_t>0 - <uint64_t>(index == word)


cdef inline int hus_play(Pos* x, int start, int can_capture, int lap_limit) noexcept nogil:
    # Play the move from `start` for the mover (bytes 0..31) against the opponent (32..63) in place: the
    # number of laps, or -1 when the move needs more than `lap_limit` (x is then left as it was).  The rings
    # stay in eight registers for the whole move: a pit is a byte picked out of a word by a shift (going
    # through memory, a byte store followed by a word load would stall on every lap).
    cdef uint64_t m0 = x.q[0], m1 = x.q[1], m2 = x.q[2], m3 = x.q[3]
    cdef uint64_t t0 = x.q[4], t1 = x.q[5], t2 = x.q[6], t3 = x.q[7]
    cdef uint64_t rounds, clear, facing_word, behind_word
    cdef const uint64_t* lap
    cdef int pit = start, end, laps = 0, hand, count, taken, behind, shift
    shift = 8 * (start & 7)
    hand = <int>((hus_pick(m0, m1, m2, m3, start >> 3) >> shift) & 0xFF)
    clear = ~(<uint64_t>0xFF << shift)
    m0 &= clear | ~hus_only(start >> 3, 0)
    m1 &= clear | ~hus_only(start >> 3, 1)
    m2 &= clear | ~hus_only(start >> 3, 2)
    m3 &= clear | ~hus_only(start >> 3, 3)
    while True:
        laps += 1
        if laps > lap_limit:
            return -1
        rounds = <uint64_t>(hand >> 5) * HUS_ONES   # every pit gets one seed per whole round
        lap = HUS_LAP[pit][hand & 31]
        m0 += rounds + lap[0]
        m1 += rounds + lap[1]
        m2 += rounds + lap[2]
        m3 += rounds + lap[3]
        end = (pit + hand) & 31
        shift = 8 * (end & 7)
        count = <int>((hus_pick(m0, m1, m2, m3, end >> 3) >> shift) & 0xFF)
        if count == 1:                  # the last seed fell into an empty pit
            break
        if can_capture and end >= HUS_WIDTH:
            # the opponent's inner pit 47 - end (16..31: words 2 and 3) and the outer pit end - 16 behind it
            # (0..15: words 0 and 1); 47 - end and end - 16 sit at mirrored byte places, 7 - (end & 7)
            facing_word = t2 if end >= 24 else t3
            taken = <int>((facing_word >> (56 - shift)) & 0xFF)
            if taken:
                behind = end - HUS_WIDTH
                behind_word = t0 if behind < 8 else t1
                hand = taken + <int>((behind_word >> shift) & 0xFF)
                if end >= 24:
                    t2 &= ~(<uint64_t>0xFF << (56 - shift))
                else:
                    t3 &= ~(<uint64_t>0xFF << (56 - shift))
                if behind < 8:
                    t0 &= ~(<uint64_t>0xFF << shift)
                else:
                    t1 &= ~(<uint64_t>0xFF << shift)
                pit = end
                continue
        hand = count                    # a relay: the pit's seeds go on
        clear = ~(<uint64_t>0xFF << shift)
        m0 &= clear | ~hus_only(end >> 3, 0)
        m1 &= clear | ~hus_only(end >> 3, 1)
        m2 &= clear | ~hus_only(end >> 3, 2)
        m3 &= clear | ~hus_only(end >> 3, 3)
        pit = end
    x.q[0] = m0
    x.q[1] = m1
    x.q[2] = m2
    x.q[3] = m3
    x.q[4] = t0
    x.q[5] = t1
    x.q[6] = t2
    x.q[7] = t3
    return laps


cdef inline bint hus_quick_move(const uint8_t* ring) noexcept nogil:
    # A pit of 2..31 seeds whose first lap ends in an empty pit: a one-lap move, legal under any lap limit.
    cdef int pit, seeds
    for pit in range(HUS_RING):
        seeds = ring[pit]
        if 2 <= seeds < HUS_RING and ring[(pit + seeds) & 31] == 0:
            return 1
    return 0


cdef inline bint hus_opponent_can_move(const Pos* x, int can_capture, int lap_limit, int quick) noexcept nogil:
    # Whether the opponent (bytes 32..63 of `x`, the mover's frame) has a legal move in reply; `quick` is
    # hus_quick_move of their ring when known (0 or 1), else -1.
    cdef int pit
    cdef Pos y
    if quick < 0:
        quick = hus_quick_move(x.b + HUS_RING)
    if quick:
        return 1
    for pit in range(HUS_RING):
        if x.b[HUS_RING + pit] >= 2:
            memcpy(y.q, x.q + 4, 4 * sizeof(uint64_t))     # their ring first: they move
            memcpy(y.q + 4, x.q, 4 * sizeof(uint64_t))
            if hus_play(&y, pit, can_capture, lap_limit) >= 0:
                return 1
    return 0


cdef inline int hus_move(const HusCtx* k, const Pos* p, int start, int* their_quick, Pos* x,
                         double* final) noexcept nogil:
    # Play `start` (a pit of 2 or more seeds) into `x` (the mover's frame): -1 when the lap limit forbids
    # it, 1 when it ends the game (`final` is the mover's score, as ai.evaluators.final_score or
    # final_margin gives it: the opponent cannot move and loses, or the turn limit draws), else 0.
    # `their_quick` caches hus_quick_move of the opponent's ring as it was before any move (-1: not yet).
    cdef uint32_t child_ply = <uint32_t>p.q[8] + 1
    cdef int alive, margin
    memcpy(x.q, p.q, 8 * sizeof(uint64_t))
    if hus_play(x, start, <uint32_t>p.q[8] >= 2, k.lap_limit) < 0:
        return -1
    if x.q[4] == p.q[4] and x.q[5] == p.q[5] and x.q[6] == p.q[6] and x.q[7] == p.q[7]:
        # nothing captured: the opponent's quick moves are those of their ring before the move
        if their_quick[0] < 0:
            their_quick[0] = hus_quick_move(p.b + HUS_RING)
        alive = hus_opponent_can_move(x, child_ply >= 2, k.lap_limit, their_quick[0])
    else:
        alive = hus_opponent_can_move(x, child_ply >= 2, k.lap_limit, -1)
    if alive and child_ply < k.ply_limit:
        return 0
    margin = hus_ring_sum(x.q) - hus_ring_sum(x.q + 4)
    final[0] = margin if alive or k.margins else WIN_SCORE + abs(margin)
    return 1


cdef int hus_expand(const void* ctx, const Pos* p, const Line* line, Child* out) noexcept nogil:
    cdef const HusCtx* k = <const HusCtx*>ctx
    cdef int count = 0, start, ending, their_quick = -1, theirs_before = hus_ring_sum(p.q + 4)
    cdef Child* c
    cdef Pos x
    for start in range(HUS_RING):
        if p.b[start] < 2:
            continue
        c = &out[count]
        ending = hus_move(k, p, start, &their_quick, &x, &c.final)
        if ending < 0:
            continue
        count += 1
        c.move = start
        c.path = 0
        c.reset = 0
        if ending:
            c.kind = KIND_FINAL
            c.order = 0
            continue
        c.kind = KIND_OTHER
        c.order = theirs_before - hus_ring_sum(x.q + 4)    # seeds captured: a cheap order
        memcpy(c.pos.q, x.q + 4, 4 * sizeof(uint64_t))   # the opponent's ring first
        memcpy(c.pos.q + 4, x.q, 4 * sizeof(uint64_t))
        c.pos.q[8] = <uint32_t>p.q[8] + 1
    return count


cdef double hus_leaf(const void* ctx, const Pos* p, const Line* line, double beta, int32_t* best_move,
                     int64_t* leaves, int* path) noexcept nogil:
    # The search's depth-1 loop over hus_expand's children (the same order, values and stop at `beta`),
    # without writing a child list or turning a board round: a child is scored from the mover's side as
    # the evaluation of the board in the mover's frame, which is exactly the negated evaluation of the
    # child (every term is a difference, so the doubles are the same to the last bit).
    cdef const HusCtx* k = <const HusCtx*>ctx
    cdef int start, ending, their_quick = -1
    cdef double best = -C_INFINITY, value
    cdef Pos x
    for start in range(HUS_RING):
        if p.b[start] < 2:
            continue
        ending = hus_move(k, p, start, &their_quick, &x, &value)
        if ending < 0:
            continue
        if ending == 0:
            leaves[0] += 1
            value = hus_evaluate(ctx, &x)
        if value > best:
            best = value
            best_move[0] = start
            if value >= beta:
                break
    return best


cdef double hus_evaluate(const void* ctx, const Pos* p) noexcept nogil:
    # ai.evaluators.hus.HusEvaluator.combine over its four term differences, in its order of operations.
    cdef const HusCtx* k = <const HusCtx*>ctx
    cdef int seeds, mobility, exposure, inner
    if k.zero:
        return 0.0
    seeds = hus_ring_sum(p.q) - hus_ring_sum(p.q + 4)
    mobility = hus_playable(p.q) - hus_playable(p.q + 4)
    exposure = hus_exposed(p.q) - hus_exposed(p.q + 4)
    inner = (hus_word_sum(p.q[2]) + hus_word_sum(p.q[3])) - (hus_word_sum(p.q[6]) + hus_word_sum(p.q[7]))
    return ((seeds + k.mobility_weight * mobility) + k.exposure_weight * exposure) + k.inner_weight * inner


cdef uint64_t hus_key(const void* ctx, const Pos* p) noexcept nogil:
    cdef const HusCtx* k = <const HusCtx*>ctx
    cdef uint64_t ply = <uint32_t>p.q[8]
    if ply >= 2 and ply + MAX_PLY < k.ply_limit:
        ply = 2                         # captures allowed and the draw out of reach: the ply cannot matter
    return mix64(hash_words(p.q, 8) + ply)


cdef class HusCore(CoreKernel):
    """The compiled Hus kernel of one variant (lap limit, turn limit) and a Hus (or zero) evaluator's weights."""
    cdef HusCtx ctx

    def __cinit__(self, int lap_limit=200, int turn_limit=5000, bint margins=False, bint zero=False,
                  double mobility=0.0, double exposure=0.0, double inner=0.0):
        if lap_limit < 1:
            raise ValueError(f"a Hus move may take at least 1 lap, not {lap_limit}")
        if not 1 <= turn_limit <= 1_000_000_000:
            raise ValueError(f"the Hus turn limit is 1..1e9 turns, not {turn_limit}")
        self.ctx.lap_limit = lap_limit
        self.ctx.ply_limit = 2 * turn_limit
        self.ctx.margins = margins
        self.ctx.zero = zero
        self.ctx.mobility_weight = mobility
        self.ctx.exposure_weight = exposure
        self.ctx.inner_weight = inner
        self.position_bytes = HUS_BYTES
        self.vt.ctx = &self.ctx
        self.vt.expand = hus_expand
        self.vt.evaluate = hus_evaluate
        self.vt.key = hus_key
        self.vt.leaf = hus_leaf
        self.vt.uses_line = 0

    def pack(self, own, other, int ply):
        """The position of two rings (the side to move's first, each in its owner's numbering) at ``ply``."""
        cdef Pos p
        own, other = tuple(own), tuple(other)
        if len(own) != HUS_RING or len(other) != HUS_RING:
            raise ValueError("a Hus ring has 32 pits")
        if any(v < 0 for v in own + other) or sum(own) + sum(other) > HUS_MAX_SEEDS:
            raise ValueError(f"the compiled Hus kernel holds 0..{HUS_MAX_SEEDS} seeds in all")
        if ply < 0:
            raise ValueError(f"a ply is 0 or more, not {ply}")
        memset(&p, 0, sizeof(Pos))
        for i, v in enumerate(own + other):
            p.b[i] = v
        p.q[8] = <uint32_t>ply
        return (<char*>&p)[:HUS_BYTES]

    def unpack(self, bytes position):
        """(own ring, the opponent's ring, ply) of a position."""
        cdef Pos p = self._pos(position)
        return (tuple(p.b[i] for i in range(HUS_RING)), tuple(p.b[i] for i in range(HUS_RING, 2 * HUS_RING)),
                <uint32_t>p.q[8])
