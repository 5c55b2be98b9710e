# The exact Magnetic Cave endgame solver (ai.cave_endgame.EndgameSolver) in C: alpha-beta over win / tie /
# loss with the same forced moves, the same parity rows, the same settled fill games and the same move order,
# on the cave kernel's bitboards and tables (cave.pxi).  The windows still open to a colour travel down the
# search as a 96-bit mask (two words, windows 0..63 and 64..95).  A table of proven bounds, shared by every
# solver of the process like ai.cave_endgame.SHARED_TABLE, makes the null-window questions cheap to ask again.

cdef extern from *:
    """
    /* start loading the table slot while the node's other work goes on (a table probe is a cache miss) */
    #define eg_prefetch(address) __builtin_prefetch((const void*)(address))
    """
    void eg_prefetch(const void* address) noexcept nogil

cdef enum:
    EG_WIN = 1
    EG_TIE = 0
    EG_LOSS = -1
    # EG_POLL_NODES: nodes between two reads of the clock and the cancel flag (a few microseconds; as POLL_NODES in
    # search.pxi, a node that faults in a fresh page is 1000 times slower)
    EG_POLL_NODES = 128
    EG_MAX_CELLS = 16

cdef struct Windows96:
    uint64_t low               # windows 0..63
    uint64_t high              # windows 64..95

cdef Windows96 EG_THROUGH[64]          # per cell, the windows through it
cdef Windows96 EG_ROW_RUN[8][256]      # per row and set of its cells (a byte), the windows touching them


cdef void eg_build_tables() noexcept nogil:
    cdef int cell, row, byte, column, i
    for cell in range(64):
        EG_THROUGH[cell].low = 0
        EG_THROUGH[cell].high = 0
        for i in range(CAVE_CELL_WINDOW_COUNT[cell]):
            if CAVE_CELL_WINDOWS[cell][i] < 64:
                EG_THROUGH[cell].low |= (<uint64_t>1) << CAVE_CELL_WINDOWS[cell][i]
            else:
                EG_THROUGH[cell].high |= (<uint64_t>1) << (CAVE_CELL_WINDOWS[cell][i] - 64)
    for row in range(8):
        for byte in range(256):
            EG_ROW_RUN[row][byte].low = 0
            EG_ROW_RUN[row][byte].high = 0
            for column in range(8):
                if byte >> column & 1:
                    EG_ROW_RUN[row][byte].low |= EG_THROUGH[row * 8 + column].low
                    EG_ROW_RUN[row][byte].high |= EG_THROUGH[row * 8 + column].high

eg_build_tables()


cdef inline Windows96 eg_without(Windows96 open_, int cell) noexcept nogil:
    # the windows through `cell` closed (a brick of the other colour now sits in them)
    open_.low &= ~EG_THROUGH[cell].low
    open_.high &= ~EG_THROUGH[cell].high
    return open_


cdef Windows96 eg_open_windows(uint64_t others) noexcept nogil:
    # the windows holding no brick of `others`: still open to the other colour
    cdef Windows96 found
    cdef int i
    found.low = 0
    found.high = 0
    for i in range(CAVE_WINDOW_TOTAL):
        if not CAVE_WINDOWS[i] & others:
            if i < 64:
                found.low |= (<uint64_t>1) << i
            else:
                found.high |= (<uint64_t>1) << (i - 64)
    return found


cdef uint64_t eg_five_cells_of(uint64_t bits) noexcept nogil:
    # ai.cave_endgame.five_cells_of: the fifth cell of every window holding four of `bits` (occupied or not)
    cdef uint64_t found = 0, own
    cdef int i
    for i in range(CAVE_WINDOW_TOTAL):
        own = CAVE_WINDOWS[i] & bits
        if cave_popcount(own) == 4:
            found |= CAVE_WINDOWS[i] ^ own
    return found


cdef inline uint64_t eg_grown(uint64_t threats, uint64_t bits, int cell) noexcept nogil:
    # ai.cave_endgame.grown: `threats` with the fifth cells of the windows through `cell` now holding four of
    # `bits` (the cell left may hold an opponent's brick: such a threat cell is dead, and harmless)
    cdef uint64_t w, rest
    cdef int i
    if cave_popcount(bits & CAVE_REACH4[cell]) < 4:
        return threats
    for i in range(CAVE_CELL_WINDOW_COUNT[cell]):
        w = CAVE_WINDOWS[CAVE_CELL_WINDOWS[cell][i]]
        rest = w & ~bits
        if rest and not rest & (rest - 1):   # x & (x - 1) clears the lowest bit: zero means one cell left
            threats |= rest
    return threats


cdef int eg_settled(uint64_t occupied, Windows96 open_any) noexcept nogil:
    # no window still open to a colour has two empty cells: no threat cell can be made any more
    cdef uint64_t empty = ~occupied, cells
    while open_any.low:
        cells = CAVE_WINDOWS[cave_low(open_any.low)] & empty
        if cells & (cells - 1):       # two or more empty cells (x & (x - 1) clears the lowest bit)
            return 0
        open_any.low &= open_any.low - 1  # the next window
    while open_any.high:
        cells = CAVE_WINDOWS[64 + cave_low(open_any.high)] & empty
        if cells & (cells - 1):       # two or more
            return 0
        open_any.high &= open_any.high - 1
    return 1


cdef struct EndgameEntry:
    # a proven bound: the key words xor the data word, so that an entry torn by two solvers writing at once
    # fails the key test instead of lending another position's bounds
    uint64_t mine_check
    uint64_t theirs_check
    uint64_t data              # lower + 2 | (upper + 2) << 8 | (move + 1) << 16 | work << 24: never 0 (empty)


cdef struct EndgameTableData:
    EndgameEntry* slots        # buckets of two: the entry that cost the most work to prove, and the newest
    uint64_t mask              # buckets - 1
    CaveCtx fill               # the fill game's memo (only its `fill` pointer is used)


cdef struct Solver:
    EndgameTableData* table
    int64_t nodes
    int64_t limit
    int64_t next_poll
    double deadline            # an instant of sc_monotonic (search.pxi), or -1
    const unsigned char* cancel
    int aborted
    uint64_t root_mine
    uint64_t root_theirs
    int root_move
    int64_t history[64]        # per cell, the cut-offs its quiet moves made (weighted by the empty cells left)


cdef inline uint64_t eg_slot(uint64_t mine, uint64_t theirs) noexcept nogil:
    return mix64(mine ^ mix64(theirs))


cdef inline int eg_poll(Solver* s) noexcept nogil:
    # ai.cave_endgame: abort at the node limit; else read the cancel flag and the clock
    if s.nodes >= s.limit:
        s.aborted = 1
        return 1
    s.next_poll = s.nodes + EG_POLL_NODES
    if s.next_poll > s.limit:
        s.next_poll = s.limit
    if s.cancel != NULL and sc_read_flag(s.cancel):
        s.aborted = 1
    elif s.deadline >= 0 and sc_monotonic() >= s.deadline:
        s.aborted = 1
    return s.aborted


cdef int eg_search(Solver* s, uint64_t mine, uint64_t theirs, uint64_t threats, uint64_t dangers,
                   Windows96 ours, Windows96 others, int alpha, int beta) noexcept nogil:
    # EndgameSolver._search: the negamax value of the position (`mine` to move) within alpha..beta, or 0
    # with s.aborted set
    cdef uint64_t occupied = mine | theirs, now, blocks, near, bit, after, filled, opened, mine_threats
    cdef uint64_t playable, blocked, empty, rest, run
    cdef EndgameEntry* bucket
    cdef EndgameEntry* slot = NULL
    cdef EndgameEntry seen
    cdef int64_t nodes_before = s.nodes
    cdef int work
    cdef int lower = EG_LOSS, upper = EG_WIN, table_move = -1, start_alpha, start_beta
    cdef int cells[EG_MAX_CELLS]
    cdef int quiet_cells[EG_MAX_CELLS]
    cdef uint64_t quiet_threats[EG_MAX_CELLS]
    cdef int count = 0, quiet_count = 0, i, j, cell, value, best, best_move, parity_tried, found, block
    cdef uint64_t data
    cdef Windows96 open_any
    s.nodes += 1
    if s.nodes >= s.next_poll and eg_poll(s):
        return 0
    bucket = &s.table.slots[2 * (eg_slot(mine, theirs) & s.table.mask)]
    eg_prefetch(bucket)
    eg_prefetch(bucket + 1)        # 48 bytes: the bucket may straddle two cache lines
    now = cave_legal(occupied)
    if threats & now:
        return EG_WIN
    blocks = dangers & now
    if blocks & (blocks - 1):         # two playable threat cells of the opponent (two or more bits)
        return EG_LOSS
    open_any.low = ours.low | others.low
    open_any.high = ours.high | others.high
    if (not blocks and not (mine == s.root_mine and theirs == s.root_theirs)
            and eg_settled(occupied, open_any)):
        # below the root only (the root must name its best move): the fill game is exact here
        return cave_outlook(&s.table.fill, occupied, threats & ~occupied, dangers & ~occupied)
    found = 0
    for i in range(2):
        seen = bucket[i]
        if (seen.mine_check ^ seen.data) == mine and (seen.theirs_check ^ seen.data) == theirs and seen.data != 0:
            found = 1
            slot = bucket + i
            break
    if found:
        lower = <int>(seen.data & 0xFF) - 2
        upper = <int>(seen.data >> 8 & 0xFF) - 2
        table_move = <int>(seen.data >> 16 & 0xFF) - 1
        if lower >= beta or lower == upper:
            if mine == s.root_mine and theirs == s.root_theirs:
                s.root_move = table_move
            return lower
        if upper <= alpha:
            if mine == s.root_mine and theirs == s.root_theirs:
                s.root_move = table_move
            return upper
        if lower > alpha:
            alpha = lower
        if upper < beta:
            beta = upper
    start_alpha = alpha
    start_beta = beta

    if blocks:
        cells[0] = cave_low(blocks)
        count = 1
    else:
        # cell order, the cells beside a threat cell last (a stable split), then the table's move first
        near = (((threats | dangers) << 1) & CAVE_NOT_A | ((threats | dangers) >> 1) & CAVE_NOT_H) & now
        rest = now & ~near
        while rest:
            cells[count] = cave_low(rest)
            count += 1
            rest &= rest - 1          # clear the lowest bit
        rest = now & near
        while rest:
            cells[count] = cave_low(rest)
            count += 1
            rest &= rest - 1          # clear the lowest bit
        if table_move >= 0:
            for i in range(count):
                if cells[i] == table_move:
                    for j in range(i, 0, -1):
                        cells[j] = cells[j - 1]
                    cells[0] = table_move
                    break

    best = EG_LOSS - 1
    best_move = -1
    # first pass: decided moves and fours (cheap, often decisive); quiet moves are kept for the second
    for i in range(count):
        cell = cells[i]
        bit = (<uint64_t>1) << cell
        after = mine | bit
        filled = occupied | bit
        if filled == CAVE_FULL:
            value = EG_TIE
        else:
            opened = cave_legal(filled)
            if dangers & opened:
                value = EG_LOSS
            else:
                mine_threats = eg_grown(threats, after, cell)
                playable = mine_threats & opened
                if playable & (playable - 1):     # two threat cells opened: one block is too few
                    value = EG_WIN
                elif playable:
                    # a four: the opponent's only move is the block, then the mover moves again
                    blocked = theirs | playable
                    if filled | playable == CAVE_FULL:
                        value = EG_TIE
                    else:
                        block = cave_high(playable)
                        value = eg_search(s, after, blocked, mine_threats, eg_grown(dangers, blocked, block),
                                          eg_without(ours, block), eg_without(others, cell), alpha, beta)
                        if s.aborted:
                            return 0
                else:
                    quiet_cells[quiet_count] = cell
                    quiet_threats[quiet_count] = mine_threats
                    quiet_count += 1
                    continue
        if value > best:
            best = value
            best_move = cell
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    if alpha < beta:
        # the quiet moves by their history of cut-offs, highest first (stable; the table's move stays first)
        for i in range(1 if quiet_count and quiet_cells[0] == table_move else 0, quiet_count):
            cell = quiet_cells[i]
            mine_threats = quiet_threats[i]
            j = i
            while (j > 0 and not (j == 1 and quiet_cells[0] == table_move)
                   and s.history[quiet_cells[j - 1]] < s.history[cell]):
                quiet_cells[j] = quiet_cells[j - 1]
                quiet_threats[j] = quiet_threats[j - 1]
                j -= 1
            quiet_cells[j] = cell
            quiet_threats[j] = mine_threats
        # a row whose empty cells lie in dead windows only is pure parity: one move into such rows stands for all
        empty = ~occupied
        parity_tried = 0
        for i in range(quiet_count):
            cell = quiet_cells[i]
            run = (empty >> (cell & ~7)) & 0xFF     # the empty cells of the cell's row, as a byte
            if not (EG_ROW_RUN[cell >> 3][run].low & open_any.low or EG_ROW_RUN[cell >> 3][run].high & open_any.high):
                if parity_tried:
                    continue
                parity_tried = 1
            value = -eg_search(s, theirs, mine | ((<uint64_t>1) << cell), dangers, quiet_threats[i],
                               eg_without(others, cell), ours, -beta, -alpha)
            if s.aborted:
                return 0
            if value > best:
                best = value
                best_move = cell
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        j = 64 - cave_popcount(occupied)
                        s.history[cell] += j * j
                        break

    if best <= start_alpha:
        if best < upper:
            upper = best
    elif best >= start_beta:
        if best > lower:
            lower = best
    else:
        lower = best
        upper = best
    if best <= start_alpha:
        best_move = table_move
    # the work: log2 of the nodes this proof took (the highest set bit of the count)
    work = cave_high(<uint64_t>(s.nodes - nodes_before) + 1)
    if slot != NULL and <int>(slot.data >> 24 & 0xFF) > work:
        work = <int>(slot.data >> 24 & 0xFF)   # a re-search of a known position keeps the first proof's work
    data = (<uint64_t>(lower + 2) | (<uint64_t>(upper + 2) << 8) | (<uint64_t>(best_move + 1) << 16)
            | (<uint64_t>work << 24))
    if slot == NULL:
        # a new position: the first entry stays while it holds more work, else it moves to the second
        if bucket[0].data != 0 and <int>(bucket[0].data >> 24 & 0xFF) > work:
            slot = bucket + 1
        else:
            bucket[1] = bucket[0]
            slot = bucket
    slot.mine_check = mine ^ data
    slot.theirs_check = theirs ^ data
    slot.data = data
    if mine == s.root_mine and theirs == s.root_theirs:
        s.root_move = best_move
    return best


cdef int eg_forced_move(uint64_t mine, uint64_t theirs) noexcept nogil:
    # EndgameSolver._forced_move: a win in one, else a block, else the first legal cell (-1: none)
    cdef uint64_t now = cave_legal(mine | theirs), cells
    cells = eg_five_cells_of(mine) & now
    if not cells:
        cells = eg_five_cells_of(theirs) & now
    if not cells:
        cells = now
    return cave_low(cells) if cells else -1


cdef class EndgameTable:
    """The proven bounds of the compiled endgame solvers, in C memory (``megabytes``, allocated at once),
    and the fill game's memo; one is shared by every solver of the process (``shared_endgame_table``)."""
    cdef EndgameTableData data
    cdef readonly int64_t capacity

    def __cinit__(self, double megabytes=48):
        cdef int64_t wanted = <int64_t>(megabytes * 1_000_000 / sizeof(EndgameEntry))
        cdef int64_t slots = 2
        if not megabytes > 0:
            raise ValueError(f"an endgame table needs a size above 0 MB, not {megabytes}")
        while slots * 2 <= wanted:
            slots *= 2
        self.data.slots = <EndgameEntry*>calloc(slots, sizeof(EndgameEntry))
        self.data.fill.fill = <CaveFillEntry*>calloc(CAVE_FILL_SLOTS, sizeof(CaveFillEntry))
        if self.data.slots == NULL or self.data.fill.fill == NULL:
            raise MemoryError(f"cannot allocate a {megabytes:g} MB endgame table")
        self.data.mask = slots // 2 - 1
        self.capacity = slots

    def __dealloc__(self):
        free(self.data.slots)
        free(self.data.fill.fill)

    def clear(self):
        memset(self.data.slots, 0, self.capacity * sizeof(EndgameEntry))


_SHARED_ENDGAME_TABLE = None


def shared_endgame_table():
    """The process's endgame table (made on first use)."""
    global _SHARED_ENDGAME_TABLE
    if _SHARED_ENDGAME_TABLE is None:
        _SHARED_ENDGAME_TABLE = EndgameTable()
    return _SHARED_ENDGAME_TABLE


cdef class EndgameCore:
    """``ai.cave_endgame.EndgameSolver.solve`` in C, run without the GIL: (value, move) of the position with
    ``mine`` to move, exact when ``alpha < value < beta``, else a bound on the side it failed; raises
    ``SearchAborted`` at the node limit, the deadline (a ``time.perf_counter`` instant) or the cancel flag."""
    cdef Solver s
    cdef readonly EndgameTable table
    cdef object _flag_owner
    cdef const unsigned char[::1] _flag_view

    def __cinit__(self, EndgameTable table=None):
        self.table = shared_endgame_table() if table is None else table
        memset(&self.s, 0, sizeof(Solver))
        self.s.table = &self.table.data

    @property
    def nodes(self):
        return self.s.nodes

    def solve(self, uint64_t mine, uint64_t theirs, int alpha=EG_LOSS, int beta=EG_WIN, max_nodes=None,
              deadline=None, cancel_flag=None):
        cdef int value, move
        if mine & theirs:
            raise ValueError("a cell holds a brick of each colour")
        if cancel_flag is not None:
            if len(cancel_flag) < 1:
                raise ValueError("a cancel flag is a buffer of at least one byte")
            self._flag_owner = cancel_flag
            self._flag_view = cancel_flag
            self.s.cancel = &self._flag_view[0]
        else:
            self.s.cancel = NULL
        self.s.deadline = -1.0 if deadline is None else float(deadline) - sc_clock_offset()  # C clock
        self.s.limit = self.s.nodes + int(max_nodes) if max_nodes is not None else (<int64_t>1) << 62
        self.s.next_poll = self.s.nodes  # every call polls at its first node
        self.s.aborted = 0
        self.s.root_mine = mine
        self.s.root_theirs = theirs
        self.s.root_move = -1
        with nogil:
            value = eg_search(&self.s, mine, theirs, eg_five_cells_of(mine), eg_five_cells_of(theirs),
                              eg_open_windows(theirs), eg_open_windows(mine), alpha, beta)
            move = self.s.root_move if self.s.root_move >= 0 else eg_forced_move(mine, theirs)
        if self.s.aborted:
            from ai.base import SearchAborted
            raise SearchAborted
        return value, (None if move < 0 else move)
