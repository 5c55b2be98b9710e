# Oware abapa: a position is 16 bytes seen from the side to move: its houses 0..5 (bytes 0..5), its score
# house (6), the opponent's houses 0..5 (7..12) and score house (13), then the moves since the last capture
# (the no-capture counter, a 16-bit word at bytes 14..15).  It is the C twin of ai.fast.oware.OwareKernel and
# computes exactly what rules.oware computes, the repetition and no-capture rules included:
#
# - The counter is part of the key (added as `counter * counter_step`), so a value stored with one counter is
#   never reused with another: near the limit of 100 moves that would change the game.  Without a limit the
#   step is 0 and the counter counts for nothing.
# - A repetition is the same houses and score houses as a position since the last capture, whoever was to
#   move.  The search's `Line` holds the keys of those positions, alternately in the child's frame and in the
#   mover's, and their counters step down by one per position (no capture between them), so a child's board
#   is compared with each of them by key (see `oware_repeats`).  Such an ending, and the no-capture limit's,
#   depend on the path: the child says so (`path`), and the search never stores a value that met one.

cdef enum:
    OWARE_HOUSES = 6
    OWARE_STORE = 6              # the mover's score house; the opponent's houses are bytes 7..12
    OWARE_OPP_STORE = 13
    OWARE_MAX_TOTAL = 144        # 12 houses of at most 12 seeds
    OWARE_BYTES = 16
    OWARE_ZERO = 0               # the evaluators: ZeroEvaluator,
    OWARE_SOWING = 1             # SowingEvaluator (store, side, mobility),
    OWARE_OWARE = 2              # OwareEvaluator (store, side, mobility, vulnerable)

cdef uint64_t OWARE_BOARD_BYTES = 0x0000FFFFFFFFFFFFULL   # the second word's bytes 8..13 (not the counter)
cdef uint64_t OWARE_COUNTER_STEP = 0x9E3779B97F4A7C15ULL  # odd: distinct counters give distinct offsets


cdef struct OwareCtx:
    int total
    int slam_captures     # 1: a grand slam captures (grand_slam="capture"); 0: it captures nothing
    int slam_forbidden    # 1: a grand slam is legal only when every legal move is one (grand_slam="forbidden")
    int repetition
    int limit             # moves without a capture that end the game; 0: no limit
    int evaluator         # OWARE_ZERO, OWARE_SOWING or OWARE_OWARE
    double side_weight
    double mobility_weight
    double vulnerable_weight
    double banked_weight  # OwareEvaluator.banked: own side minus theirs, once at most banked_seeds are on the board
    int banked_seeds
    # table_leaves 1: a board the tables hold is a leaf valued by them, searched on (repetitions seen); 0: it ends
    # the line with the table's value as a proven result
    int table_leaves
    uint64_t counter_step
    int skip_start
    const OwareTableCtx* tables   # endgame tables (oware_tables.pxi), or NULL: a child they hold is searched on
    # What sowing `seeds` from house h adds to each byte (mod 256, so taking the house's seeds is an addition
    # too) and the byte the last seed lands in; laps and the skipped starting house included.
    uint8_t delta[OWARE_HOUSES][OWARE_MAX_TOTAL + 1][OWARE_BYTES]
    uint8_t last[OWARE_HOUSES][OWARE_MAX_TOTAL + 1]


cdef inline int oware_byte(int ring_index) noexcept nogil:
    # The byte of a ring index in the mover's frame (own houses 0..5, the opponent's 6..11 after the store).
    return ring_index if ring_index < OWARE_HOUSES else ring_index + 1


cdef uint64_t OWARE_ONES = 0x0101010101010101ULL          # a 1 in every byte
cdef uint64_t OWARE_LOW7 = 0x7F7F7F7F7F7F7F7FULL          # every byte's low seven bits
cdef uint64_t OWARE_SIX_TOPS = 0x0000808080808080ULL      # the top bit of bytes 0..5 (six houses)


cdef inline uint64_t oware_board_hash(const Pos* p) noexcept nogil:
    # The 14 bytes of houses and score houses: the first word whole, the second without the counter.
    # Multiplying the second word by an odd constant is a bijection, so two boards share the value before
    # the finaliser only by chance.
    return mix64(p.q[0] ^ ((p.q[1] & OWARE_BOARD_BYTES) * <uint64_t>0xD6E8FEB86659FD93ULL))


cdef inline uint64_t oware_own_houses(const Pos* p) noexcept nogil:
    return p.q[0] & <uint64_t>0xFFFFFFFFFFFFULL             # bytes 0..5


cdef inline uint64_t oware_their_houses(const Pos* p) noexcept nogil:
    # bytes 7..12 brought down to 0..5: the top byte of word 0 and the low five bytes of word 1
    return (p.q[0] >> 56) | ((p.q[1] & <uint64_t>0xFFFFFFFFFFULL) << 8)


cdef inline int byte_sum(uint64_t x) noexcept nogil:
    # Multiplying by a 1 in every byte adds all bytes into the top one; no byte sum here passes 255 (at most
    # 144 seeds), so no carry spoils it.
    return <int>((x * OWARE_ONES) >> 56)


cdef inline uint64_t nonzero_tops(uint64_t x) noexcept nogil:
    # The top bit of each byte that is not 0: its low seven bits plus 0x7F carry into the top bit unless they
    # are all 0, and a byte of 128 or more has it already.
    return (((x & OWARE_LOW7) + OWARE_LOW7) | x) & OWARE_SIX_TOPS


cdef inline uint64_t three_up_tops(uint64_t x) noexcept nogil:
    # The top bit of each byte holding 3 or more: its low seven bits plus 0x7D reach the top bit from 3 on.
    return (((x & OWARE_LOW7) + <uint64_t>0x7D7D7D7D7D7D7D7DULL) | x) & OWARE_SIX_TOPS


cdef inline int top_count(uint64_t tops) noexcept nogil:
    # How many bytes have their top bit set: move each to its byte's low bit and add the bytes.
    return byte_sum(tops >> 7)


cdef inline void oware_turn(const Pos* q, Pos* out, int counter) noexcept nogil:
    # The board seen from the other side: bytes 7..13 (their houses and store) first, then bytes 0..6, then
    # the counter.  As 14 bytes held in two words: their 7 bytes, then ours shifted up by 7 bytes.
    cdef uint64_t ours = q.q[0] & <uint64_t>0x00FFFFFFFFFFFFFFULL
    cdef uint64_t theirs = (q.q[0] >> 56) | ((q.q[1] & OWARE_BOARD_BYTES) << 8)
    out.q[0] = theirs | (ours << 56)
    out.q[1] = (ours >> 8) | (<uint64_t>counter << 48)


cdef inline int oware_counter(const Pos* p) noexcept nogil:
    return p.w[7]


cdef inline double oware_final(int margin) noexcept nogil:
    # ai.evaluators.final_score: WIN plus the margin for a win, minus for a loss, 0 for a draw.
    if margin == 0:
        return 0.0
    return WIN_SCORE + margin if margin > 0 else -WIN_SCORE + margin


cdef inline bint oware_repeats(const OwareCtx* k, const Line* line, uint64_t same, uint64_t turned) noexcept nogil:
    # Whether the board after a move equals a position of the line since the last capture.  `same` is the key
    # that board would have in the mover's frame with the mover's counter, `turned` the same in the
    # opponent's frame.  The line's last key is the mover's position (distance 0); at distance d the position
    # was in the mover's frame when d is even, and its counter was d less (positions since a capture follow
    # one another without one), so its key, if it is the same board, is the board's hash plus
    # (counter - d) * step: each step back subtracts one step from the target.
    cdef int j = line.length - 1
    turned -= k.counter_step
    while j >= line.start:
        if line.keys[j] == same:
            return 1
        j -= 1
        if j < line.start:
            break
        if line.keys[j] == turned:
            return 1
        j -= 1
        same -= 2 * k.counter_step
        turned -= 2 * k.counter_step
    return 0


cdef enum:
    OWARE_GOES_ON = 0             # what oware_play says of a move: the game goes on,
    OWARE_ENDS = 1                # it ends (`final` is the mover's score),
    OWARE_ENDS_BY_PATH = 2        # it ends by a rule that looks at the path (repetition, no-capture limit)


cdef inline int oware_play(const OwareCtx* k, const Pos* p, int house, int counter, const Line* line,
                           Pos* child, int* captured_out, double* final, bint* slam) noexcept nogil:
    # Sow `house` (a legal move) and apply the end rules in the rules' order of precedence
    # (OwareKernel.ending).  `child` receives the position after the move, turned round for the opponent;
    # `slam` is set when the move is a grand slam that captures nothing.
    cdef int seeds = p.b[house], field, captured = 0, i, taken, next_counter, total = k.total
    cdef int own_store, opp_store, own_side, opp_side
    cdef const uint8_t* delta = k.delta[house][seeds]
    cdef uint64_t same, turned
    cdef Pos q, after
    for i in range(OWARE_BYTES):        # bytes wrap mod 256: the house's -seeds is +(256 - seeds)
        q.b[i] = p.b[i] + delta[i]
    field = k.last[house][seeds]
    if field > OWARE_STORE:             # the last seed on the opponent's side: capture 2s and 3s backwards
        after.q[0] = q.q[0]
        after.q[1] = q.q[1]
        while field > OWARE_STORE:
            taken = after.b[field]
            if taken != 2 and taken != 3:
                break
            after.b[field] = 0
            captured += taken
            field -= 1
        if captured:
            # the opponent's houses are the top byte of word 0 and the low five bytes of word 1
            if (after.q[0] >> 56) | (after.q[1] & <uint64_t>0xFFFFFFFFFFULL) or k.slam_captures:
                after.b[OWARE_STORE] += captured
                q.q[0] = after.q[0]
                q.q[1] = after.q[1]
            else:                       # a grand slam that captures nothing
                captured = 0
                slam[0] = 1
    captured_out[0] = captured
    own_store = q.b[OWARE_STORE]
    opp_store = q.b[OWARE_OPP_STORE]
    if 2 * own_store > total or 2 * opp_store > total or (2 * own_store == total and 2 * opp_store == total):
        final[0] = oware_final(own_store - opp_store)
        return OWARE_ENDS
    own_side = byte_sum(oware_own_houses(&q))
    opp_side = byte_sum(oware_their_houses(&q))
    if captured:
        next_counter = 0
    elif counter < 65535:
        next_counter = counter + 1
    else:                               # only without a limit, where the counter counts for nothing
        next_counter = counter
    oware_turn(&q, child, next_counter)
    if k.repetition and not captured:
        same = oware_board_hash(&q)
        turned = oware_board_hash(child)
        if oware_repeats(k, line, same + <uint64_t>counter * k.counter_step,
                         turned + <uint64_t>counter * k.counter_step):
            final[0] = oware_final(own_store + own_side - opp_store - opp_side)
            return OWARE_ENDS_BY_PATH
    if not captured and k.limit and counter + 1 >= k.limit:
        final[0] = oware_final(own_store - opp_store)
        return OWARE_ENDS_BY_PATH
    if own_side == 0:                   # the opponent must feed the mover, if any of their houses reaches
        for i in range(OWARE_HOUSES):
            if q.b[7 + i] + i >= OWARE_HOUSES:
                break
        else:
            final[0] = oware_final(own_store + own_side - opp_store - opp_side)
            return OWARE_ENDS
    if opp_side == 0:                   # the opponent has no move at all
        final[0] = oware_final(own_store + own_side - opp_store - opp_side)
        return OWARE_ENDS
    if k.tables != NULL and not k.table_leaves and own_side + opp_side <= k.tables.top:
        # the tables know the rest exactly (the opponent to move: their houses are the child's bytes 0..5)
        final[0] = oware_final(own_store - opp_store
                               - ot_lookup(k.tables, &child.b[0], &child.b[7], own_side + opp_side))
        return OWARE_ENDS
    return OWARE_GOES_ON


cdef inline bint oware_legal(const Pos* p, int house, bint starving) noexcept nogil:
    # A house with seeds; when the opponent is starving, only one whose seeds reach them.
    return p.b[house] != 0 and not (starving and p.b[house] + house < OWARE_HOUSES)


cdef int oware_expand(const void* ctx, const Pos* p, const Line* line, Child* out) noexcept nogil:
    cdef const OwareCtx* k = <const OwareCtx*>ctx
    cdef int count = 0, house, captured, ending, counter = oware_counter(p), i, kept
    cdef bint starving = oware_their_houses(p) == 0, slam
    cdef bint slams[OWARE_HOUSES]
    cdef Child* c
    for house in range(OWARE_HOUSES):
        if not oware_legal(p, house, starving):
            continue
        c = &out[count]
        slam = 0
        ending = oware_play(k, p, house, counter, line, &c.pos, &captured, &c.final, &slam)
        slams[count] = slam
        count += 1
        c.move = house
        c.path = ending == OWARE_ENDS_BY_PATH
        c.reset = captured != 0
        c.kind = KIND_OTHER if ending == OWARE_GOES_ON else KIND_FINAL
        # the evaluation after the move, from the mover's side, kept positive: the search tries it before the
        # killers and the history (from the start: depth 17 in 4.0 M nodes instead of 7.9 M by captures alone)
        c.order = (<int64_t>(-64.0 * oware_evaluate(ctx, &c.pos)) + (1 << 16)) if ending == OWARE_GOES_ON else 0
    if k.slam_forbidden:                # grand slams go, unless every legal move is one
        kept = 0
        for i in range(count):
            if not slams[i]:
                if kept != i:
                    out[kept] = out[i]
                kept += 1
        if kept:
            count = kept
    return count


cdef double oware_leaf(const void* ctx, const Pos* p, const Line* line, double beta, int32_t* best_move,
                       int64_t* leaves, int* path) noexcept nogil:
    # The search's depth-1 loop over oware_expand's children (the same order, values and stop at `beta`),
    # without writing a child list.
    cdef const OwareCtx* k = <const OwareCtx*>ctx
    cdef int house, captured, ending, counter = oware_counter(p)
    cdef bint starving = oware_their_houses(p) == 0, slam = 0
    cdef double best = -C_INFINITY, value
    cdef Pos child
    for house in range(OWARE_HOUSES):
        if not oware_legal(p, house, starving):
            continue
        ending = oware_play(k, p, house, counter, line, &child, &captured, &value, &slam)
        if ending == OWARE_ENDS_BY_PATH:
            path[0] = 1
        elif ending == OWARE_GOES_ON:
            leaves[0] += 1
            value = -oware_evaluate(ctx, &child)
        if value > best:
            best = value
            best_move[0] = house
            if value >= beta:
                break
    return best


cdef double oware_evaluate(const void* ctx, const Pos* p) noexcept nogil:
    # ai.evaluators.oware.OwareEvaluator and ai.evaluators.sowing.SowingEvaluator, term for term and in the
    # same order of operations (so the same doubles).
    cdef const OwareCtx* k = <const OwareCtx*>ctx
    cdef uint64_t own, other, own_busy, other_busy
    cdef int store, side, mobility, weak, own_seeds, other_seeds
    cdef double value
    if k.evaluator == OWARE_ZERO:
        return 0.0
    own = oware_own_houses(p)
    other = oware_their_houses(p)
    own_busy = nonzero_tops(own)
    other_busy = nonzero_tops(other)
    store = p.b[OWARE_STORE] - p.b[OWARE_OPP_STORE]
    own_seeds = byte_sum(own)
    other_seeds = byte_sum(other)
    if k.table_leaves and k.tables != NULL and own_seeds + other_seeds <= k.tables.top:
        # the tables' margin of the board's seeds for the side to move (cycles count 0 there; the search
        # scores the repetitions it reaches before this leaf exactly)
        return <double>(p.b[OWARE_STORE] - p.b[OWARE_OPP_STORE]
                        + ot_lookup(k.tables, &p.b[0], &p.b[7], own_seeds + other_seeds))
    side = own_seeds - other_seeds
    mobility = top_count(own_busy) - top_count(other_busy)
    if k.evaluator == OWARE_SOWING:
        return <double>store + k.side_weight * side + k.mobility_weight * mobility
    # houses holding 1 or 2: not empty, and not 3 or more
    weak = top_count(other_busy & ~three_up_tops(other)) - top_count(own_busy & ~three_up_tops(own))
    value = <double>store + k.side_weight * side + k.mobility_weight * mobility + k.vulnerable_weight * weak
    if k.banked_weight != 0.0 and own_seeds + other_seeds <= k.banked_seeds:
        value += k.banked_weight * side   # added last, as OwareEvaluator does
    return value


cdef uint64_t oware_key(const void* ctx, const Pos* p) noexcept nogil:
    return oware_board_hash(p) + <uint64_t>oware_counter(p) * (<const OwareCtx*>ctx).counter_step


cdef class OwareCore(CoreKernel):
    """The compiled Oware kernel of one variant (any grand slam rule) and an Oware, sowing or zero evaluator's
    weights."""
    cdef OwareCtx ctx
    cdef readonly object tables

    def __cinit__(self, int seeds, bint skip_start=True, bint slam_captures=False, int limit=100,
                  bint repetition=True, int evaluator=OWARE_OWARE, double side=0.0, double mobility=0.0,
                  double vulnerable=0.0, bint slam_forbidden=False, double banked=0.0, int banked_seeds=0,
                  bint table_leaves=False):
        cdef int house, count, ring_index, i
        if not 1 <= seeds <= 12:
            raise ValueError(f"Oware has 1..12 seeds a house, not {seeds}")
        if not 0 <= limit <= 65535:
            raise ValueError(f"the no-capture limit is 0..65535 moves, not {limit}")
        if evaluator not in (OWARE_ZERO, OWARE_SOWING, OWARE_OWARE):
            raise ValueError(f"unknown Oware evaluator kind {evaluator}")
        self.ctx.total = 12 * seeds
        if slam_captures and slam_forbidden:
            raise ValueError("a grand slam either captures or is forbidden, not both")
        self.ctx.slam_captures = slam_captures
        self.ctx.slam_forbidden = slam_forbidden
        self.ctx.repetition = repetition
        self.ctx.limit = limit
        self.ctx.evaluator = evaluator
        self.ctx.side_weight = side
        self.ctx.mobility_weight = mobility
        self.ctx.vulnerable_weight = vulnerable
        self.ctx.banked_weight = banked
        self.ctx.banked_seeds = banked_seeds
        self.ctx.table_leaves = table_leaves
        self.ctx.counter_step = OWARE_COUNTER_STEP if limit else 0
        self.ctx.skip_start = skip_start
        self.ctx.tables = NULL
        memset(self.ctx.delta, 0, sizeof(self.ctx.delta))
        for house in range(OWARE_HOUSES):
            self.ctx.last[house][0] = house
            for count in range(1, self.ctx.total + 1):
                # rules.oware.sowing_path: one seed per house, skipping the starting house if skip_start
                self.ctx.delta[house][count][house] = <uint8_t>(256 - count % 256)
                ring_index = house
                for i in range(count):
                    ring_index = (ring_index + 1) % 12
                    if skip_start and ring_index == house:
                        ring_index = (ring_index + 1) % 12
                    self.ctx.delta[house][count][oware_byte(ring_index)] += 1
                self.ctx.last[house][count] = oware_byte(ring_index)
        self.position_bytes = OWARE_BYTES
        self.vt.ctx = &self.ctx
        self.vt.expand = oware_expand
        self.vt.evaluate = oware_evaluate
        self.vt.key = oware_key
        # the leaf loop would have to know all the moves before scoring one where grand slams are forbidden
        self.vt.leaf = oware_leaf
        if slam_forbidden:
            self.vt.leaf = NULL
        self.vt.uses_line = 1

    def use_tables(self, OwareTables tables):
        """Score every child the endgame tables hold exactly: the score houses' difference plus the table's
        margin of the board, a proven result (None: search on).  The repetition and no-capture rules still
        end a line first, and a move that reaches a majority still ends the game."""
        if tables is not None and (tables.slam_captures != bool(self.ctx.slam_captures)
                                   or tables.slam_forbidden != bool(self.ctx.slam_forbidden)
                                   or tables.skip_start != bool(self.ctx.skip_start)):
            raise ValueError("these tables are for another Oware variant")
        self.tables = tables
        self.ctx.tables = NULL if tables is None or tables.top < 0 else &tables.ctx

    @property
    def counter_step(self):
        """What one move of the no-capture counter adds to a key (0 without a limit)."""
        return self.ctx.counter_step

    def pack(self, own, own_store, other, other_store, counter):
        """The position of a board seen from the side to move: its houses and store, the opponent's, and the
        moves since the last capture."""
        cdef Pos p
        own, other = tuple(own), tuple(other)
        if len(own) != OWARE_HOUSES or len(other) != OWARE_HOUSES:
            raise ValueError("an Oware side has 6 houses")
        values = own + (own_store,) + other + (other_store,)
        if any(not 0 <= v <= self.ctx.total for v in values) or sum(values) != self.ctx.total:
            raise ValueError(f"an Oware board holds {self.ctx.total} seeds, 0..{self.ctx.total} a house: {values}")
        if not 0 <= counter <= 65535:
            raise ValueError(f"the no-capture counter holds 0..65535 here, not {counter}")
        memset(&p, 0, sizeof(Pos))
        for i, v in enumerate(values):
            p.b[i] = v
        p.w[7] = counter
        return (<char*>&p)[:OWARE_BYTES]

    def unpack(self, bytes position):
        """(own houses, own store, the opponent's houses, their store, counter) of a position."""
        cdef Pos p = self._pos(position)
        return (tuple(p.b[i] for i in range(6)), p.b[6], tuple(p.b[i] for i in range(7, 13)), p.b[13], p.w[7])
