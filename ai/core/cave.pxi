# Magnetic Cave: a position is two bitboards seen from the side to move, `q[0]` its bricks and `q[1]` the
# opponent's (bit row * 8 + column, as in rules.magnetic_cave); the 16 bytes are ai.fast.magnetic_cave's
# int position `mine | theirs << 64` in little-endian order.  Colour-free and exact: the rules treat both
# colours alike, and who is to move follows from the brick count (Black moves when it is even).
#
# Two kinds of children:
#   forced (ai.fast.magnetic_cave.CaveKernel): a win in one is the only child; an opponent's single playable
#     threat cell makes the block the only child, two make the node lost; a move opening an opponent's threat
#     cell is a final loss, one leaving two playable threat cells of the mover a final win, and a *four* (one)
#     is followed at once by the forced block (a KIND_SAME child); the rest by an attack-and-defence count;
#   plain (ai.fast.GameKernel over the rules): every legal move in cell order.
# Two evaluators: ThreatEvaluator (windows weighted by reach, threat cells, the fill game's zugzwang outlook,
# and at the leaves the threat-space search of continuous fours, cave_vcf = ai.cave_threats) and
# WindowEvaluator (1, 10, 100, 1000 a window), integer scores as in Python.

cdef extern from *:
    """
    #if defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
    static inline int cave_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    #else
    /* x86 built without -mpopcnt: __builtin_popcountll would be a library call, so count in the register
       (SWAR): pairs, then nibbles, then bytes, summed by the multiply into the top byte */
    static inline int cave_popcount(unsigned long long x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    #endif
    /* index of the lowest set bit (x != 0) */
    static inline int cave_low(unsigned long long x) { return __builtin_ctzll(x); }
    /* index of the highest set bit (x != 0) */
    static inline int cave_high(unsigned long long x) { return 63 - __builtin_clzll(x); }
    """
    int cave_popcount(uint64_t x) noexcept nogil
    int cave_low(uint64_t x) noexcept nogil
    int cave_high(uint64_t x) noexcept nogil

cdef enum:
    CAVE_WINDOW_TOTAL = 96     # lines of five cells: 32 in rows, 32 in columns, 16 on each diagonal
    CAVE_CELL_WINDOWS_MAX = 20  # windows through one cell: at most 5 per direction
    CAVE_THREAT = 0            # evaluators
    CAVE_SIMPLE = 1
    CAVE_ZERO = 2
    CAVE_FILL_SLOTS = 1 << 16  # the fill game's memo: 2 MB of entries

cdef uint64_t CAVE_FULL = 0xFFFFFFFFFFFFFFFFULL
cdef uint64_t CAVE_COLUMN_A = 0x0101010101010101ULL
cdef uint64_t CAVE_COLUMN_H = 0x8080808080808080ULL
cdef uint64_t CAVE_WALLS = 0x8181818181818181ULL
cdef uint64_t CAVE_NOT_A = 0xFEFEFEFEFEFEFEFEULL
cdef uint64_t CAVE_NOT_H = 0x7F7F7F7F7F7F7F7FULL

cdef uint64_t CAVE_WINDOWS[CAVE_WINDOW_TOTAL]
cdef uint8_t CAVE_CELL_WINDOWS[64][CAVE_CELL_WINDOWS_MAX]
cdef int CAVE_CELL_WINDOW_COUNT[64]
cdef uint64_t CAVE_REACH4[64]          # per cell, the cells of the windows through it
cdef int CAVE_SHIFT[4][8]              # per direction, k = 1..4 then -1..-4: k steps as a bit shift
cdef uint64_t CAVE_SHIFT_MASK[4][8]    # ... and the cells x whose cell k steps away is on the board


cdef uint64_t cave_columns(int low, int high) noexcept nogil:
    cdef uint64_t found = 0
    cdef int row, column
    for row in range(8):
        for column in range(low, high + 1):
            found |= (<uint64_t>1) << (row * 8 + column)
    return found


cdef void cave_build_tables() noexcept nogil:
    # ai.evaluators.magnetic_cave.WINDOWS, CELL_WINDOWS; ai.fast.magnetic_cave._REACH4, _PLAN
    cdef int row, column, d, i, k, row_step, column_step, count = 0, cell, low, high
    cdef int row_steps[4]
    cdef int column_steps[4]
    cdef int steps[4]
    cdef int ks[8]
    cdef uint64_t mask
    row_steps[0] = 0; row_steps[1] = 1; row_steps[2] = 1; row_steps[3] = 1
    column_steps[0] = 1; column_steps[1] = 0; column_steps[2] = 1; column_steps[3] = -1
    for cell in range(64):
        CAVE_CELL_WINDOW_COUNT[cell] = 0
        CAVE_REACH4[cell] = 0
    for row in range(8):
        for column in range(8):
            for d in range(4):
                row_step = row_steps[d]
                column_step = column_steps[d]
                if 0 <= row + 4 * row_step < 8 and 0 <= column + 4 * column_step < 8:
                    mask = 0
                    for i in range(5):
                        mask |= (<uint64_t>1) << ((row + row_step * i) * 8 + column + column_step * i)
                    CAVE_WINDOWS[count] = mask
                    for cell in range(64):
                        if mask >> cell & 1:
                            CAVE_CELL_WINDOWS[cell][CAVE_CELL_WINDOW_COUNT[cell]] = <uint8_t>count
                            CAVE_CELL_WINDOW_COUNT[cell] += 1
                            CAVE_REACH4[cell] |= mask
                    count += 1
    # five_cells' plan: directions (step, column step) (1, 1), (8, 0), (9, 1), (7, -1)
    steps[0] = 1; steps[1] = 8; steps[2] = 9; steps[3] = 7
    column_steps[0] = 1; column_steps[1] = 0; column_steps[2] = 1; column_steps[3] = -1
    ks[0] = 1; ks[1] = 2; ks[2] = 3; ks[3] = 4; ks[4] = -1; ks[5] = -2; ks[6] = -3; ks[7] = -4
    for d in range(4):
        for i in range(8):
            k = ks[i]
            # x + k*step stays on the board when its column x_col + k*column_step is within 0..7
            low = -k * column_steps[d]
            if low < 0:
                low = 0
            high = 7 - k * column_steps[d]
            if high > 7:
                high = 7
            CAVE_SHIFT[d][i] = k * steps[d]
            CAVE_SHIFT_MASK[d][i] = cave_columns(low, high)

cave_build_tables()


cdef inline uint64_t cave_legal(uint64_t occupied) noexcept nogil:
    # the empty cells against a wall or beside a brick in their row (<< 1 moves a brick one column right;
    # NOT_A drops what wrapped into column A of the next row, NOT_H likewise for >> 1)
    return ~occupied & (CAVE_WALLS | ((occupied << 1) & CAVE_NOT_A) | ((occupied >> 1) & CAVE_NOT_H))


cdef inline uint64_t cave_shifted(uint64_t bits, int d, int i) noexcept nogil:
    # cell x set when `bits` holds the cell k steps from x along direction d (a negative k shifts left)
    cdef int s = CAVE_SHIFT[d][i]
    if s > 0:
        return (bits >> s) & CAVE_SHIFT_MASK[d][i]
    return (bits << (-s)) & CAVE_SHIFT_MASK[d][i]


cdef uint64_t cave_five_cells(uint64_t bits) noexcept nogil:
    # Every cell where one more brick of `bits` lies in a line of five or more (ai.fast.magnetic_cave.
    # five_cells): per direction, the bricks 1..4 steps ahead (f) and behind (b) as shifted copies; x is such
    # a cell when f1..f4, f1..f3 + b1, f1 f2 + b1 b2, f1 + b1..b3 or b1..b4 hold.
    cdef uint64_t found = 0, f1, f2, f3, f4, b1, b2, b3, b4, ahead, behind
    cdef int d
    for d in range(4):
        f1 = cave_shifted(bits, d, 0)
        f2 = cave_shifted(bits, d, 1)
        f3 = cave_shifted(bits, d, 2)
        f4 = cave_shifted(bits, d, 3)
        b1 = cave_shifted(bits, d, 4)
        b2 = cave_shifted(bits, d, 5)
        b3 = cave_shifted(bits, d, 6)
        b4 = cave_shifted(bits, d, 7)
        ahead = f1 & f2
        behind = b1 & b2
        found |= (ahead & f3 & (f4 | b1)) | (behind & b3 & (b4 | f1)) | (ahead & behind)
    return found


cdef inline int cave_completes_five(uint64_t bits, int cell) noexcept nogil:
    # a window through `cell` wholly of `bits` (a line of six holds one too)
    cdef int i
    cdef uint64_t w
    if cave_popcount(bits & CAVE_REACH4[cell]) < 5:
        return 0
    for i in range(CAVE_CELL_WINDOW_COUNT[cell]):
        w = CAVE_WINDOWS[CAVE_CELL_WINDOWS[cell][i]]
        if bits & w == w:
            return 1
    return 0


cdef struct CaveFillEntry:
    # one fill-game value: the key (empty cells of the threat rows, the mover's and the opponent's threat
    # cells, the free parity) and `meta` = check << 8 | free << 2 | value + 1, the check a hash of the key,
    # so that an entry torn by two searches writing at once reads as a miss, never as a wrong value
    uint64_t empty
    uint64_t mine
    uint64_t theirs
    uint64_t meta


cdef struct CaveCtx:
    int forced                    # 1: CaveKernel's children; 0: the rules' (GameKernel)
    int evaluation                # CAVE_THREAT, CAVE_SIMPLE, CAVE_ZERO
    double win                    # a won game's score for the winner (WIN + 1, or 1 with margins)
    int32_t tables[2][2][144]     # [Black / White to move][the mover's, the opponent's][bricks*36 + now*6 + later]
    int32_t simple[5]
    int32_t attack[5]
    int32_t defend[5]
    int32_t threat_next
    int32_t threat_later
    int32_t threat_block
    int32_t zugzwang
    int32_t win_next
    int32_t loss_next
    int vcf_fours                 # the leaves' threat-space search (ai.cave_threats): fours a line may hold
    int vcf_nodes                 # ... and moves it may try (0 fours: off)
    int32_t vcf_win               # the score of a forced win by fours (VCF_WIN)
    uint64_t root_black           # the root's bricks: below it, windows dead at the root stay dead
    uint64_t root_white
    uint8_t live[CAVE_WINDOW_TOTAL]
    int live_count
    uint64_t root_mine            # the root position, whose moves `root_moves` may narrow
    uint64_t root_theirs
    int has_root_moves
    uint64_t root_moves
    CaveFillEntry* fill
    int64_t fill_solved           # fill games solved (not found in the memo), for the bench


# -- the fill game (ai.evaluators.magnetic_cave.zugzwang_outlook) ------------------------------------------------

cdef inline uint64_t cave_fill_check(uint64_t empty, uint64_t mine, uint64_t theirs, int free) noexcept nogil:
    return mix64(empty ^ mix64(mine ^ mix64(theirs + <uint64_t>free)))


cdef int cave_fill(CaveCtx* k, uint64_t empty, uint64_t mine, uint64_t theirs, int free) noexcept nogil:
    # The fill game's value for the mover, on bitboards: `empty` the empty cells of the rows holding threat
    # cells (each row's run), `mine` / `theirs` the mover's / the opponent's threat cells in them, `free` the
    # parity of the empty cells of every other row.  The same game as _fill_value's strings: a row's ends are
    # its playable cells; the mover's threat cell at an end wins, two of the opponent's lose, one must be
    # blocked; a move into the free rows is offered only at odd parity (two free cells change nothing); a
    # row left without threat cells joins the free rows.
    cdef uint64_t ends = 0, rows = empty, row_mask, byte, blocks, moves, move, rest, row_rest
    cdef uint64_t check, meta
    cdef int row, best, value
    cdef CaveFillEntry* slot
    cdef CaveFillEntry seen
    while rows:
        row = cave_low(rows) >> 3
        row_mask = (<uint64_t>0xFF) << (row * 8)
        byte = empty & row_mask
        ends |= (byte & (~byte + 1)) | ((<uint64_t>1) << cave_high(byte))   # x & -x: the lowest cell
        rows &= ~row_mask
    if ends & mine:
        return 1
    blocks = ends & theirs
    if blocks & (blocks - 1):   # x & (x - 1) clears the lowest bit: non-zero means two or more
        return -1
    if not blocks and not ends and not free:
        return 0                # the cave is full
    check = cave_fill_check(empty, mine, theirs, free)
    slot = &k.fill[check & (CAVE_FILL_SLOTS - 1)]   # the slot count is a power of two: a mask is the modulo
    seen = slot[0]
    if (seen.empty == empty and seen.mine == mine and seen.theirs == theirs
            and (seen.meta >> 2 & 1) == <uint64_t>free and seen.meta >> 8 == check >> 8):
        return <int>(seen.meta & 3) - 1
    k.fill_solved += 1
    moves = blocks if blocks else ends
    best = -1
    while moves:
        move = moves & (~moves + 1)
        moves ^= move
        rest = empty ^ move
        row_mask = (<uint64_t>0xFF) << ((cave_low(move) >> 3) * 8)
        row_rest = rest & row_mask
        if row_rest & (mine | theirs):
            value = -cave_fill(k, rest, theirs & ~move, mine, free)
        else:                   # no threat cell left in the row: its cells join the free parity
            value = -cave_fill(k, rest & ~row_mask, theirs & ~move, mine, free ^ (cave_popcount(row_rest) & 1))
        if value > best:
            best = value
            if best == 1:
                break
    if best < 1 and free and not blocks:
        value = -cave_fill(k, empty, theirs, mine, 0)
        if value > best:
            best = value
    meta = (check >> 8 << 8) | (<uint64_t>free << 2) | <uint64_t>(best + 1)
    slot.empty = empty
    slot.mine = mine
    slot.theirs = theirs
    slot.meta = meta
    return best


cdef int cave_outlook(CaveCtx* k, uint64_t occupied, uint64_t mine, uint64_t theirs) noexcept nogil:
    # zugzwang_outlook(occupied, mine, theirs): +1, 0 or -1 for the side to move
    cdef uint64_t empty = ~occupied, runs = 0, run, row_mask
    cdef int row, free = 0
    for row in range(8):
        row_mask = (<uint64_t>0xFF) << (row * 8)
        run = empty & row_mask
        if not run:
            continue
        if (mine | theirs) & row_mask:
            runs |= run
        else:
            free ^= cave_popcount(run) & 1
    return cave_fill(k, runs, mine, theirs, free)


# -- the evaluators ------------------------------------------------------------------------------------------------

cdef inline uint64_t cave_four_ends(uint64_t empty, uint64_t now) noexcept nogil:
    # The two empty cells of a window of three: those where a brick makes the other a playable threat cell,
    # that is a playable cell whose partner is playable too or lies beside it in the row (the brick makes it
    # playable).  `empty & ~now` is the partner that is not playable yet (at most one when one is playable).
    cdef uint64_t playable = empty & now, waiting = empty & ~now
    if not waiting:
        return playable
    if ((playable << 1) & CAVE_NOT_A | (playable >> 1) & CAVE_NOT_H) & waiting:
        return playable
    return 0


cdef int32_t cave_threat_score(const CaveCtx* k, uint64_t mine, uint64_t theirs, uint64_t* seen) noexcept nogil:
    # ThreatEvaluator.evaluate (as ai.fast.magnetic_cave.threat_score), term for term in integers; `seen`
    # gets what the threat search starts from: [0] the playable cells where a brick of the mover makes a new
    # or a playable threat cell (the cells of its windows of three, the cells beside its threat cells), [1]
    # the mover's threat cells, [2] the opponent's
    cdef uint64_t occupied = mine | theirs
    cdef uint64_t now = cave_legal(occupied)
    cdef uint64_t beside = ((now << 1) & CAVE_NOT_A) | ((now >> 1) & CAVE_NOT_H)
    cdef uint64_t later = beside & ~(occupied | now)
    cdef int mover = cave_popcount(occupied) & 1   # Black moves when the bricks are even
    cdef const int32_t* table = k.tables[mover][0]
    cdef const int32_t* other = k.tables[mover][1]
    cdef int32_t score = 0
    cdef uint64_t my_threats = 0, their_threats = 0, threes = 0, w, a, b, empty, dangers, urgent, opened, rest
    cdef int i, n, count, below_root
    # below the root (every root brick still its colour) the windows holding both colours there are skipped
    below_root = ((mine & k.root_black) == k.root_black and (theirs & k.root_white) == k.root_white) or (
        (mine & k.root_white) == k.root_white and (theirs & k.root_black) == k.root_black)
    n = k.live_count if below_root else CAVE_WINDOW_TOTAL
    for i in range(n):
        w = CAVE_WINDOWS[k.live[i] if below_root else i]
        a = w & mine
        if a:
            if w & theirs:
                continue
            count = cave_popcount(a)
            empty = w ^ a
            if count >= 4:
                my_threats |= empty
            else:
                score += table[count * 36 + cave_popcount(empty & now) * 6 + cave_popcount(empty & later)]
                if count == 3:
                    threes |= cave_four_ends(empty, now)
        else:
            b = w & theirs
            if b:
                count = cave_popcount(b)
                empty = w ^ b
                if count >= 4:
                    their_threats |= empty
                else:
                    score -= other[count * 36 + cave_popcount(empty & now) * 6 + cave_popcount(empty & later)]
    seen[0] = threes | (now & (((my_threats << 1) & CAVE_NOT_A) | ((my_threats >> 1) & CAVE_NOT_H)))
    seen[1] = my_threats
    seen[2] = their_threats
    if my_threats & now:
        return k.win_next
    dangers = their_threats
    urgent = their_threats & now
    if urgent:
        if urgent & (urgent - 1):     # two or more (x & (x - 1) clears the lowest bit)
            return -k.loss_next
        # the forced block fills `urgent`: the cells beside it it makes playable
        opened = ~(occupied | urgent) & (((urgent << 1) & CAVE_NOT_A) | ((urgent >> 1) & CAVE_NOT_H)) & ~now
        if opened & their_threats:
            return -k.loss_next
        score -= k.threat_block
        their_threats ^= urgent
    score += k.threat_next * (cave_popcount(my_threats & later) - cave_popcount(their_threats & later))
    rest = ~(now | later)
    score += k.threat_later * (cave_popcount(my_threats & rest) - cave_popcount(their_threats & rest))
    if my_threats or dangers:
        # the fill game's memo is a cache: writing it from a `const` context changes no result
        score += k.zugzwang * cave_outlook(<CaveCtx*>k, occupied, my_threats, dangers)
    return score


cdef int32_t cave_simple_score(const CaveCtx* k, uint64_t mine, uint64_t theirs) noexcept nogil:
    # WindowEvaluator.evaluate: per window of one colour only, 1, 10, 100, 1000 for 1..4 bricks (5+: 1000)
    cdef int32_t score = 0
    cdef uint64_t w, a, b
    cdef int i, count
    for i in range(CAVE_WINDOW_TOTAL):
        w = CAVE_WINDOWS[i]
        a = w & mine
        b = w & theirs
        if a:
            if not b:
                count = cave_popcount(a)
                score += k.simple[count if count < 4 else 4]
        elif b:
            count = cave_popcount(b)
            score -= k.simple[count if count < 4 else 4]
    return score


cdef double cave_evaluate(const void* ctx, const Pos* p) noexcept nogil:
    cdef const CaveCtx* k = <const CaveCtx*>ctx
    cdef int32_t score
    cdef int budget
    cdef uint64_t seen[3]
    cdef uint64_t blocks
    if k.evaluation == CAVE_THREAT:
        seen[0] = 0
        score = cave_threat_score(k, p.q[0], p.q[1], seen)
        # ai.evaluators.magnetic_cave.with_vcf: the threat search's first node from what the score saw (no
        # move in seen[0]: it would try none)
        if k.vcf_fours and seen[0] and -k.loss_next < score < k.win_next:
            blocks = seen[2] & cave_legal(p.q[0] | p.q[1])
            budget = k.vcf_nodes
            if cave_vcf_moves(k, p.q[0], p.q[1], seen[1], seen[2], (blocks if blocks else CAVE_FULL) & seen[0],
                              k.vcf_fours, &budget):
                return <double>k.vcf_win
        return <double>score
    if k.evaluation == CAVE_SIMPLE:
        return <double>cave_simple_score(k, p.q[0], p.q[1])
    return 0.0


cdef uint64_t cave_key(const void* ctx, const Pos* p) noexcept nogil:
    return hash_words(p.q, 2)


# -- children --------------------------------------------------------------------------------------------------------

cdef inline void cave_final(Child* c, int cell, double score) noexcept nogil:
    c.move = cell
    c.kind = KIND_FINAL
    c.final = score
    c.order = 0
    c.path = 0
    c.reset = 0


cdef inline void cave_child(Child* c, int cell, uint64_t first, uint64_t second, int same) noexcept nogil:
    c.move = cell
    c.kind = KIND_SAME if same else KIND_OTHER
    c.final = 0.0
    c.order = 0           # the kernel's order is already the preferred one: the search keeps it among equals
    c.path = 0
    c.reset = 0
    c.pos.q[0] = first
    c.pos.q[1] = second


cdef int cave_expand_plain(const CaveCtx* k, uint64_t mine, uint64_t theirs, Child* out) noexcept nogil:
    # GameKernel.children: every legal move in cell order; a five wins, a full board ties
    cdef uint64_t occupied = mine | theirs, moves = cave_legal(occupied), bit, after
    cdef int count = 0, cell
    while moves:
        cell = cave_low(moves)
        bit = (<uint64_t>1) << cell
        moves ^= bit
        after = mine | bit
        if cave_completes_five(after, cell):
            cave_final(&out[count], cell, k.win)
        elif occupied | bit == CAVE_FULL:
            cave_final(&out[count], cell, 0.0)
        else:
            cave_child(&out[count], cell, theirs, after, 0)
        count += 1
    return count


cdef int32_t cave_priority(const CaveCtx* k, uint64_t mine, uint64_t theirs, int cell) noexcept nogil:
    # ai.fast.magnetic_cave._priority: per window through the cell, ATTACK by the mover's bricks when the
    # opponent has none there, DEFEND by the opponent's when the mover has none
    cdef int32_t priority = 0
    cdef int i
    cdef uint64_t w, a, b
    for i in range(CAVE_CELL_WINDOW_COUNT[cell]):
        w = CAVE_WINDOWS[CAVE_CELL_WINDOWS[cell][i]]
        a = w & mine
        b = w & theirs
        if not b:
            priority += k.attack[cave_popcount(a)]
        elif not a:
            priority += k.defend[cave_popcount(b)]
    return priority


cdef enum CavePlay:
    PLAY_WIN = 0
    PLAY_FOUR = 1
    PLAY_QUIET = 2
    PLAY_LOSS = 3         # a final loss, or a full board (a tie): CaveKernel lists both last


cdef struct CavePlayed:
    int cell
    int what              # CavePlay
    double final
    uint64_t first        # the child position (its mover's bricks, the other's)
    uint64_t second
    int32_t priority


cdef inline void cave_play(const CaveCtx* k, uint64_t mine, uint64_t theirs, uint64_t threats,
                           uint64_t dangers, int cell, CavePlayed* r) noexcept nogil:
    # CaveKernel._play: the mover (no win in one; `threats` / `dangers` its and the opponent's threat cells)
    # plays `cell`
    cdef uint64_t bit = (<uint64_t>1) << cell, occupied, now, w, a
    cdef int i
    r.cell = cell
    mine |= bit
    occupied = mine | theirs
    if occupied == CAVE_FULL:
        r.what = PLAY_LOSS
        r.final = 0.0
        return
    now = cave_legal(occupied)
    if dangers & now:
        r.what = PLAY_LOSS
        r.final = -k.win
        return
    if cave_popcount(mine & CAVE_REACH4[cell]) >= 4:   # new threat cells lie only on windows through the brick
        for i in range(CAVE_CELL_WINDOW_COUNT[cell]):
            w = CAVE_WINDOWS[CAVE_CELL_WINDOWS[cell][i]]
            if w & theirs:
                continue
            a = w & ~mine           # the window's empty cells: a four leaves exactly one
            if a and not a & (a - 1):   # x & (x - 1) clears the lowest bit: zero means a single cell
                threats |= a
    threats &= now
    if not threats:
        r.what = PLAY_QUIET
        r.first = theirs
        r.second = mine
        return
    if threats & (threats - 1):     # two playable threat cells: one block is too few
        r.what = PLAY_WIN
        r.final = k.win
        return
    # a four: the opponent must block it (its own threat cells are all closed), then the mover plays again
    theirs |= threats
    if occupied | threats == CAVE_FULL:
        r.what = PLAY_LOSS
        r.final = 0.0
        return
    r.what = PLAY_FOUR
    r.first = mine
    r.second = theirs


cdef inline void cave_emit(Child* c, const CavePlayed* r) noexcept nogil:
    if r.what == PLAY_WIN or r.what == PLAY_LOSS:
        cave_final(c, r.cell, r.final)
    else:
        cave_child(c, r.cell, r.first, r.second, r.what == PLAY_FOUR)


# -- the threat-space search (ai.cave_threats, the reference it equals) ---------------------------------------------

cdef uint64_t cave_four_cells(uint64_t mine, uint64_t theirs, uint64_t now) noexcept nogil:
    # the playable cells where a brick of `mine` makes a playable threat cell in a window of three
    # (ai.cave_threats._four_cells)
    cdef uint64_t found = 0, w, a
    cdef int i
    for i in range(CAVE_WINDOW_TOTAL):
        w = CAVE_WINDOWS[i]
        if w & theirs:
            continue
        a = w & mine
        if cave_popcount(a) == 3:
            found |= cave_four_ends(w ^ a, now)
    return found


cdef int cave_vcf(const CaveCtx* k, uint64_t mine, uint64_t theirs, int fours, int* budget) noexcept nogil:
    # 1 when the mover wins by continuous fours (each forcing the block) within `fours` fours and `budget`
    # moves tried, in ascending cell order (ai.cave_threats._search)
    cdef uint64_t occupied = mine | theirs, now = cave_legal(occupied), threats, dangers, blocks
    threats = cave_five_cells(mine) & ~occupied
    if threats & now:
        return 1
    if fours <= 0:
        return 0
    dangers = cave_five_cells(theirs) & ~occupied
    blocks = dangers & now
    if blocks & (blocks - 1):     # two playable threat cells of the opponent: no four helps
        return 0
    return cave_vcf_moves(k, mine, theirs, threats, dangers, (blocks if blocks else now) & (
        cave_four_cells(mine, theirs, now) | (now & (((threats << 1) & CAVE_NOT_A) | ((threats >> 1) & CAVE_NOT_H)))),
        fours, budget)


cdef int cave_vcf_moves(const CaveCtx* k, uint64_t mine, uint64_t theirs, uint64_t threats, uint64_t dangers,
                        uint64_t cells, int fours, int* budget) noexcept nogil:
    # cave_vcf's moves: `cells` tried in ascending order (the mover has no win in one and at most one
    # playable threat cell against it, and `fours` is 1 or more)
    cdef CavePlayed r
    cdef int cell
    while cells:
        if budget[0] <= 0:
            return 0
        budget[0] -= 1
        cell = cave_low(cells)
        cells &= cells - 1        # clear the lowest bit
        cave_play(k, mine, theirs, threats, dangers, cell, &r)
        if r.what == PLAY_WIN:
            return 1
        if r.what == PLAY_FOUR and cave_vcf(k, r.first, r.second, fours - 1, budget):
            return 1
    return 0


cdef int cave_expand(const void* ctx, const Pos* p, const Line* line, Child* out) noexcept nogil:
    # CaveKernel.children: forced children alone when a win or a block is forced, else wins, fours, the
    # quiet moves by priority (ties in cell order), then losses and ties
    cdef const CaveCtx* k = <const CaveCtx*>ctx
    cdef uint64_t mine = p.q[0], theirs = p.q[1]
    cdef uint64_t occupied, now, threats, wins, dangers, blocks, cells
    cdef CavePlayed played[16]
    cdef int quiet[16]
    cdef int count = 0, total = 0, quiet_count, i, j, what
    if not k.forced:
        return cave_expand_plain(k, mine, theirs, out)
    occupied = mine | theirs
    now = cave_legal(occupied)
    threats = cave_five_cells(mine) & ~occupied
    wins = threats & now
    if wins:
        cave_final(&out[0], cave_low(wins), k.win)
        return 1
    dangers = cave_five_cells(theirs) & ~occupied
    blocks = dangers & now
    if blocks:
        if blocks & (blocks - 1):     # two playable threat cells of the opponent: lost
            cave_final(&out[0], cave_low(blocks), -k.win)
            return 1
        cells = blocks & (~blocks + 1)   # the lowest (the only) one
    else:
        cells = now
    if k.has_root_moves and mine == k.root_mine and theirs == k.root_theirs and cells & k.root_moves:
        cells &= k.root_moves     # the endgame solver's narrowing of the root (none left: all stay)
    while cells:
        cave_play(k, mine, theirs, threats, dangers, cave_low(cells), &played[total])
        cells &= cells - 1        # clear the lowest bit
        total += 1
    if total == 1:
        cave_emit(&out[0], &played[0])
        return 1
    for what in range(PLAY_WIN, PLAY_LOSS + 1):
        if what == PLAY_QUIET:
            # the quiet moves by priority, highest first, ties in cell order (an insertion sort, stable)
            quiet_count = 0
            for i in range(total):
                if played[i].what == PLAY_QUIET:
                    played[i].priority = cave_priority(k, mine, theirs, played[i].cell)
                    j = quiet_count
                    while j > 0 and played[quiet[j - 1]].priority < played[i].priority:
                        quiet[j] = quiet[j - 1]
                        j -= 1
                    quiet[j] = i
                    quiet_count += 1
            for j in range(quiet_count):
                cave_emit(&out[count], &played[quiet[j]])
                count += 1
            continue
        for i in range(total):
            if played[i].what == what:
                cave_emit(&out[count], &played[i])
                count += 1
    return count


# -- perft (the rules' plain moves, for the tests) -----------------------------------------------------------------

cdef int64_t cave_perft(uint64_t mine, uint64_t theirs, int depth) noexcept nogil:
    # positions `depth` plies ahead by the rules' legal moves (a five or a full board ends a line early)
    cdef uint64_t occupied = mine | theirs, moves = cave_legal(occupied), bit
    cdef int64_t total = 0
    cdef int cell
    if depth == 1:
        return cave_popcount(moves)
    while moves:
        cell = cave_low(moves)
        bit = (<uint64_t>1) << cell
        moves ^= bit
        if cave_completes_five(mine | bit, cell) or occupied | bit == CAVE_FULL:
            continue
        total += cave_perft(theirs, mine | bit, depth - 1)
    return total


cdef class CaveCore(CoreKernel):
    """The compiled Magnetic Cave kernel: forced or plain children, the threat, simple or zero evaluator.

    The evaluation of a search depends on its root (the windows dead there, the colour it plays for):
    ``set_root`` sets it, as ``CaveKernel.encode`` does.
    """
    cdef CaveCtx ctx

    def __cinit__(self, bint forced, int evaluation, double win, attack, defend, simple, int threat_next,
                  int threat_later, int threat_block, int win_next, int loss_next):
        cdef int i
        if evaluation not in (CAVE_THREAT, CAVE_SIMPLE, CAVE_ZERO):
            raise ValueError(f"unknown cave evaluator {evaluation}")
        if len(attack) != 5 or len(defend) != 5 or len(simple) != 5:
            raise ValueError("attack, defend and simple hold 5 values (0..4 bricks)")
        memset(&self.ctx, 0, sizeof(CaveCtx))
        self.ctx.fill = <CaveFillEntry*>calloc(CAVE_FILL_SLOTS, sizeof(CaveFillEntry))
        if self.ctx.fill == NULL:
            raise MemoryError("no memory for the fill game's memo")
        self.ctx.forced = forced
        self.ctx.evaluation = evaluation
        self.ctx.win = win
        for i in range(5):
            self.ctx.attack[i] = attack[i]
            self.ctx.defend[i] = defend[i]
            self.ctx.simple[i] = simple[i]
        self.ctx.threat_next = threat_next
        self.ctx.threat_later = threat_later
        self.ctx.threat_block = threat_block
        self.ctx.win_next = win_next
        self.ctx.loss_next = loss_next
        self.position_bytes = 16
        self.vt.ctx = &self.ctx
        self.vt.expand = cave_expand
        self.vt.evaluate = cave_evaluate
        self.vt.key = cave_key
        self.vt.uses_line = 0
        self.set_root(0, 0)

    def __dealloc__(self):
        free(self.ctx.fill)

    def set_root(self, black, white, black_tables=None, white_tables=None, zugzwang=None):
        """The search's root (its bricks, by colour): windows holding both colours there are skipped below
        it.  ``black_tables`` / ``white_tables``: ``ThreatEvaluator.tables(mover)`` (the mover's window table,
        the opponent's) with Black / White to move; ``zugzwang`` the outlook's weight."""
        cdef uint64_t b = black, w = white
        cdef int i, mover, side, n, now, later
        self.ctx.root_black = b
        self.ctx.root_white = w
        self.ctx.live_count = 0
        for i in range(CAVE_WINDOW_TOTAL):
            if not (CAVE_WINDOWS[i] & b and CAVE_WINDOWS[i] & w):
                self.ctx.live[self.ctx.live_count] = <uint8_t>i
                self.ctx.live_count += 1
        self.ctx.has_root_moves = 0
        for mover, tables in enumerate((black_tables, white_tables)):
            if tables is None:
                continue
            for side in range(2):
                for n in range(4):
                    for now in range(6):
                        for later in range(6):
                            self.ctx.tables[mover][side][n * 36 + now * 6 + later] = tables[side][n][now][later]
        if zugzwang is not None:
            self.ctx.zugzwang = zugzwang

    def set_vcf(self, int fours, int nodes, int score):
        """The leaves' threat-space search (``ai.cave_threats``): ``fours`` a line may hold (0: off), ``nodes``
        moves it may try, ``score`` what a forced win by fours scores."""
        if fours < 0 or nodes < 0:
            raise ValueError(f"the threat search needs fours and nodes of 0 or more, not {fours} and {nodes}")
        self.ctx.vcf_fours = fours
        self.ctx.vcf_nodes = nodes
        self.ctx.vcf_win = score

    def vcf(self, uint64_t mine, uint64_t theirs, int fours, int nodes):
        """True when the mover (``mine``) wins by continuous fours within ``fours`` fours and ``nodes`` moves
        tried (``ai.cave_threats.vcf_win``)."""
        cdef int budget = nodes
        cdef int found
        with nogil:
            found = cave_vcf(&self.ctx, mine, theirs, fours, &budget)
        return bool(found)

    def set_zugzwang(self, int weight):
        """The zugzwang outlook's weight (``ai.evaluators.magnetic_cave.ZUGZWANG``, which a bench may vary)."""
        self.ctx.zugzwang = weight

    def set_root_moves(self, bytes position, moves):
        """Narrow the moves of ``position`` (the root) to the cells ``moves`` (None: all), as
        ``CaveKernel.root_moves``; moves outside the forced ones are ignored, and none left means all."""
        cdef Pos p = self._pos(position)
        cdef uint64_t mask = 0
        if moves is None:
            self.ctx.has_root_moves = 0
            return
        for cell in moves:
            if not 0 <= cell < 64:
                raise ValueError(f"a cell is 0..63, not {cell}")
            mask |= (<uint64_t>1) << cell
        self.ctx.root_mine = p.q[0]
        self.ctx.root_theirs = p.q[1]
        self.ctx.root_moves = mask
        self.ctx.has_root_moves = 1

    def pack(self, mine, theirs):
        """The position with ``mine`` to move."""
        cdef Pos p
        memset(&p, 0, sizeof(Pos))
        p.q[0] = mine
        p.q[1] = theirs
        return (<char*>&p)[:16]

    def unpack(self, bytes position):
        """(the mover's bricks, the opponent's)."""
        cdef Pos p = self._pos(position)
        return p.q[0], p.q[1]

    def perft(self, bytes position, int depth):
        """Positions ``depth`` plies ahead by the rules' legal moves."""
        cdef Pos p = self._pos(position)
        cdef int64_t total
        if depth < 0:
            raise ValueError("perft needs a depth of 0 or more")
        if depth == 0:
            return 1
        with nogil:
            total = cave_perft(p.q[0], p.q[1], depth)
        return total

    def five_cells(self, uint64_t bits):
        return cave_five_cells(bits)

    def outlook(self, uint64_t occupied, uint64_t mine, uint64_t theirs):
        """``zugzwang_outlook(occupied, mine, theirs)``."""
        return cave_outlook(&self.ctx, occupied, mine, theirs)

    @property
    def fill_solved(self):
        return self.ctx.fill_solved


cdef class CaveRun(Run):
    """The compiled search on the cave kernel; its node count is writable, so the endgame solver in front
    (``ai.cave_endgame.EndgameRun``) adds its nodes as it does to the Python run's."""

    @property
    def nodes(self):
        return self.s.nodes

    @nodes.setter
    def nodes(self, value):
        self.s.nodes = value
