# The one compiled search: iterative deepening's iterations (`Run.root`), principal-variation search with a
# transposition table, move ordering (the table's move, winning ends, extra turns, two killers per ply, the
# history heuristic, then the kernel's own order), the partial-iteration rule, and the clock, node limit and
# cancel flag polled in C.  It is the C twin of `ai.search._Run` and returns the same values: a table value
# is reused only at exactly the depth asked or when *resolved* (every line below it reached the game's end),
# and in a timed search (`deeper`) also when it comes from a deeper search.
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy, memset
from libc.math cimport INFINITY as C_INFINITY

cdef extern from *:
    """
    /* The clock behind Python's time.perf_counter() on each platform (CPython's pytime.c), so a deadline
       Python computes and the instant C reads agree; Run and EndgameCore still measure the offset between the
       two when a search starts (sc_clock_offset) and convert through it, so they agree by construction. */
    #if defined(_WIN32)
    #include <windows.h>
    static inline double sc_monotonic(void) {
        static double seconds_per_tick = 0.0;
        LARGE_INTEGER now;
        if (seconds_per_tick == 0.0) {
            LARGE_INTEGER frequency;
            QueryPerformanceFrequency(&frequency);
            seconds_per_tick = 1.0 / (double)frequency.QuadPart;
        }
        QueryPerformanceCounter(&now);
        return (double)now.QuadPart * seconds_per_tick;
    }
    #elif defined(__APPLE__)
    #include <mach/mach_time.h>
    static inline double sc_monotonic(void) {
        static double seconds_per_tick = 0.0;
        if (seconds_per_tick == 0.0) {
            mach_timebase_info_data_t base;
            mach_timebase_info(&base);
            seconds_per_tick = (double)base.numer / (double)base.denom * 1e-9;
        }
        return (double)mach_absolute_time() * seconds_per_tick;
    }
    #else
    #include <time.h>
    static inline double sc_monotonic(void) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
    }
    #endif
    /* A flag another thread sets: read through a volatile pointer so the compiler re-reads it each poll. */
    static inline int sc_read_flag(const unsigned char* flag) {
        return *(const volatile unsigned char*)flag;
    }
    /* Zeroed memory for a big table, in huge pages where the system allows (far fewer page faults and TLB
       misses on random probes); NULL on failure.  Windows has no anonymous mapping here: plain zeroed memory. */
    #if defined(_WIN32)
    #include <stdlib.h>
    static void* sc_table_alloc(size_t bytes) { return calloc(1, bytes); }
    static void sc_table_free(void* memory, size_t bytes) { (void)bytes; free(memory); }
    #else
    #include <sys/mman.h>
    static void* sc_table_alloc(size_t bytes) {
        void* memory = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (memory == MAP_FAILED) return NULL;
    #ifdef MADV_HUGEPAGE
        madvise(memory, bytes, MADV_HUGEPAGE);
    #endif
        return memory;
    }
    static void sc_table_free(void* memory, size_t bytes) {
        if (memory != NULL) munmap(memory, bytes);
    }
    #endif
    """
    void* sc_table_alloc(size_t bytes) nogil
    void sc_prefetch "__builtin_prefetch"(const void* address) nogil
    void sc_table_free(void* memory, size_t bytes) nogil
    double sc_monotonic() noexcept nogil
    int sc_read_flag(const unsigned char* flag) noexcept nogil

from time import perf_counter as _perf_counter


cdef double sc_clock_offset():
    """``time.perf_counter()`` minus the C clock, measured now: of three readings, the one bracketed most
    tightly by two C readings.  Zero within a microsecond where the C clock is perf_counter's own (every
    platform above); whatever it is, a deadline converted through it means the same instant on both sides."""
    cdef double before, after, python, width, best_width = 1e300, offset = 0.0
    cdef int attempt
    for attempt in range(3):
        before = sc_monotonic()
        python = _perf_counter()
        after = sc_monotonic()
        width = after - before
        if width < best_width:
            best_width = width
            offset = python - 0.5 * (before + after)
    return offset


def clock_offset():
    """``time.perf_counter()`` minus the compiled core's clock, in seconds (tests check it is about zero)."""
    return sc_clock_offset()


def clock():
    """The compiled core's clock read now, as a ``time.perf_counter`` instant (what a search's deadline is
    compared with)."""
    return sc_monotonic() + sc_clock_offset()


cdef enum:
    EXACT = 0
    LOWER = 1
    UPPER = 2
    F_RESOLVED = 4        # every line below ended in a finished game: the value holds at any greater depth
    F_VALUE = 8           # the entry holds a value (an entry without one only gives its move, for ordering)
    F_USED = 16
    # POLL_NODES: poll the clock and the cancel flag this often: a few microseconds apart, a read of the vDSO clock
    # (about 20 ns) each, under 1 ns a node.  Not 256: a fresh table's first touches fault in pages (2 MB each
    # with transparent huge pages, 0.1-0.2 ms apiece), and 256 such nodes kept the clock unread for 50 ms past a
    # deadline
    POLL_NODES = 32

cdef double EPSILON = 1e-7   # the null window's width, as in ai.search


cdef struct Entry:
    uint64_t key
    double value
    int32_t move
    int16_t depth
    uint8_t flags
    uint8_t generation


cdef struct TableData:
    Entry* slots
    uint64_t bucket_mask
    int64_t capacity
    int64_t used
    uint8_t generation


cdef inline Entry* probe_slots(TableData* t, uint64_t key) noexcept nogil:
    cdef Entry* bucket = t.slots + 2 * (key & t.bucket_mask)
    if bucket[0].key == key and bucket[0].flags & F_USED:
        return bucket
    if bucket[1].key == key and bucket[1].flags & F_USED:
        return bucket + 1
    return NULL


cdef inline void store_slots(TableData* t, uint64_t key, int depth, int flags, double value,
                             int move) noexcept nogil:
    # The same key is updated in place; a new key takes the first slot when its entry is from an earlier
    # search or not deeper (that entry moves to the second slot), else the second slot.
    cdef Entry* bucket = t.slots + 2 * (key & t.bucket_mask)
    cdef Entry* slot
    if bucket[0].key == key and bucket[0].flags & F_USED:
        slot = bucket
    elif bucket[1].key == key and bucket[1].flags & F_USED:
        slot = bucket + 1
    elif not bucket[0].flags & F_USED or bucket[0].generation != t.generation or bucket[0].depth <= depth:
        if bucket[0].flags & F_USED:
            if not bucket[1].flags & F_USED:
                t.used += 1
            bucket[1] = bucket[0]
        else:
            t.used += 1
        slot = bucket
    else:
        if not bucket[1].flags & F_USED:
            t.used += 1
        slot = bucket + 1
    slot.key = key
    slot.value = value
    slot.move = move
    slot.depth = <int16_t>depth
    slot.flags = <uint8_t>(flags | F_USED)
    slot.generation = t.generation


cdef class Table:
    """A transposition table in C memory: buckets of two entries (one kept by depth, one always replaced).

    ``megabytes`` is the memory it takes, allocated at once, so a size the machine cannot hold fails here,
    with a message, and never in the middle of a game.
    """
    cdef TableData data

    def __cinit__(self, double megabytes):
        if not megabytes > 0 or megabytes != megabytes:
            raise ValueError(f"a transposition table needs a size above 0 MB, not {megabytes}")
        cdef int64_t wanted = <int64_t>(megabytes * 1_000_000 / sizeof(Entry))
        cdef int64_t buckets = 1
        while buckets * 4 <= wanted:
            buckets *= 2
        self.data.slots = <Entry*>sc_table_alloc(buckets * 2 * sizeof(Entry))
        if self.data.slots == NULL:
            raise MemoryError(f"cannot allocate a {megabytes:g} MB transposition table")
        self.data.bucket_mask = buckets - 1
        self.data.capacity = buckets * 2
        self.data.used = 0
        self.data.generation = 1

    def __dealloc__(self):
        sc_table_free(self.data.slots, self.data.capacity * sizeof(Entry))

    def __len__(self):
        return self.data.used

    @property
    def capacity(self):
        return self.data.capacity

    @property
    def megabytes(self):
        return self.data.capacity * sizeof(Entry) / 1_000_000

    def clear(self):
        if self.data.used == 0:
            return  # untouched: its pages need not be written (a big table costs nothing until used)
        memset(self.data.slots, 0, self.data.capacity * sizeof(Entry))
        self.data.used = 0
        self.data.generation = 1

    def new_search(self):
        """Entries of earlier searches stay, but give way first to this search's."""
        self.data.generation = <uint8_t>(self.data.generation % 255 + 1)


cdef class CoreKernel:
    """A game's compiled kernel: its C functions (`vt`) and the context they read.  Subclassed per game."""
    cdef KernelVT vt
    cdef readonly int position_bytes

    def children(self, bytes position, line=None):
        """``(move, child or None, same_mover, final or None)`` for each legal move, in the kernel's order
        (the ``ai.fast`` kernel protocol; positions are ``bytes``).  ``line``: keys of the earlier positions
        the rules look back on (Oware), oldest first."""
        cdef Pos p = self._pos(position)
        cdef Line* line_buf = <Line*>calloc(1, sizeof(Line))
        cdef Child* out = <Child*>malloc(MAX_MOVES * sizeof(Child))
        cdef int count, i
        try:
            self._fill_line(line_buf, line, &p)
            count = self.vt.expand(self.vt.ctx, &p, line_buf, out)
            result = []
            # the search's own order before any table, killer or history knowledge: winning ends, extra
            # turns, then the kernel's hint (ties in the kernel's order), losing ends last
            ranked = sorted(range(count), key=lambda i: (
                -(out[i].kind == KIND_FINAL and out[i].final > 0), -(out[i].kind == KIND_SAME),
                out[i].kind == KIND_FINAL, -out[i].order))
            for i in ranked:
                if out[i].kind == KIND_FINAL:
                    result.append((out[i].move, None, False, out[i].final))
                else:
                    result.append((out[i].move, (<char*>&out[i].pos)[:self.position_bytes],
                                   out[i].kind == KIND_SAME, None))
            return result
        finally:
            free(line_buf)
            free(out)

    def perft(self, bytes position, int depth, line=None):
        """The number of move sequences of ``depth`` moves from ``position`` (a move that ends the game ends its
        sequence): the move generator's fingerprint, compared with the rules' in the tests."""
        cdef Pos p = self._pos(position)
        cdef Line* line_buf = <Line*>calloc(1, sizeof(Line))
        cdef Child* buffer = <Child*>malloc((depth + 1) * MAX_MOVES * sizeof(Child))
        cdef int64_t total
        if not 0 <= depth <= 64:
            raise ValueError(f"perft depth is 0..64, not {depth}")
        try:
            self._fill_line(line_buf, line, &p)
            with nogil:
                total = perft_count(&self.vt, &p, depth, line_buf, buffer)
            return total
        finally:
            free(line_buf)
            free(buffer)

    def evaluate(self, bytes position):
        cdef Pos p = self._pos(position)
        return self.vt.evaluate(self.vt.ctx, &p)

    def key(self, bytes position):
        cdef Pos p = self._pos(position)
        return self.vt.key(self.vt.ctx, &p)

    cdef Pos _pos(self, bytes position) except *:
        cdef Pos p
        if len(position) != self.position_bytes:
            raise ValueError(f"a position of this kernel is {self.position_bytes} bytes, not {len(position)}")
        memset(&p, 0, sizeof(Pos))
        memcpy(&p, <const char*>position, self.position_bytes)
        return p

    cdef int _fill_line(self, Line* line, object keys, const Pos* current) except -1:
        cdef int n = 0
        if keys is not None:
            keys = list(keys)
            if len(keys) > MAX_LINE // 2:
                keys = keys[-(MAX_LINE // 2):]
            for k in keys:
                line.keys[n] = <uint64_t>k
                n += 1
        line.keys[n] = self.vt.key(self.vt.ctx, current)
        line.length = n + 1
        line.start = 0
        return 0


cdef int64_t perft_count(const KernelVT* vt, const Pos* p, int depth, Line* line, Child* buffer) noexcept nogil:
    cdef int count, i, saved_start
    cdef int64_t total = 0
    if depth == 0:
        return 1
    count = vt.expand(vt.ctx, p, line, buffer)
    if depth == 1:
        return count
    for i in range(count):
        if buffer[i].kind == KIND_FINAL:
            continue
        saved_start = line.start
        if vt.uses_line:
            line.keys[line.length] = vt.key(vt.ctx, &buffer[i].pos)
            if buffer[i].reset:
                line.start = line.length
            line.length += 1
        total += perft_count(vt, &buffer[i].pos, depth - 1, line, buffer + MAX_MOVES)
        if vt.uses_line:
            line.length -= 1
            line.start = saved_start
    return total


cdef struct Search:
    KernelVT vt
    TableData* table
    int64_t nodes
    int64_t horizon        # heuristic leaves so far: unchanged across a subtree means it is resolved
    int64_t path_events    # path-dependent ends met so far: a subtree that met one stores no value
    int64_t next_poll
    int64_t max_nodes      # -1: none
    double deadline        # an instant of sc_monotonic (a perf_counter deadline minus the offset), or -1: none
    const unsigned char* cancel
    int aborted
    double aborted_at      # the sc_monotonic instant the poll saw the stop (for measuring cancel latency)
    double last_poll       # the sc_monotonic instant of the last poll (or of the iteration's start)
    double max_gap         # the longest time between two polls seen: how late a deadline could be noticed
    int32_t killers[MAX_PLY + 2][2]
    int64_t history[MAX_MOVES]
    int32_t previous_best
    int deeper             # an entry of a deeper search may cut (a timed search); 0: only its own depth (exact)
    int32_t partial_move
    double partial_score
    int partial_depth
    Child* children        # MAX_PLY blocks of MAX_MOVES children, one block per ply
    Line line


cdef inline void poll(Search* s) noexcept nogil:
    # the clock is read at every poll (about 20 ns): for the deadline, and for the gap since the last poll, which
    # is a few microseconds unless the process was descheduled (a loaded machine) or the nodes faulted in pages
    cdef double now = sc_monotonic()
    if now - s.last_poll > s.max_gap:
        s.max_gap = now - s.last_poll
    s.last_poll = now
    if s.cancel != NULL and sc_read_flag(s.cancel):
        s.aborted = 1
    elif s.max_nodes >= 0 and s.nodes >= s.max_nodes:
        s.aborted = 1
    elif s.deadline >= 0 and now >= s.deadline:
        s.aborted = 1
    if s.aborted:
        s.aborted_at = now
    s.next_poll = s.nodes + POLL_NODES
    if s.max_nodes >= 0 and s.next_poll > s.max_nodes:
        s.next_poll = s.max_nodes


cdef inline void order_children(Search* s, Child* children, int count, int32_t table_move, int ply,
                                uint8_t* order) noexcept nogil:
    # `order` receives the children's indices, best first: the table's move, winning ends, extra turns,
    # the kernel's hint where it is positive (what the move wins at once: captures), the killers, the
    # history score, then the rest of the hint; ties keep the kernel's order.  A move that wins material
    # now refutes more often than a quiet move that refuted a sibling (chess's captures before killers):
    # measured from the start, Oware to depth 16 searches 4.4 M nodes instead of 6.9 M, Hus to depth 9
    # 3.5 M instead of 6.8 M.
    cdef int64_t priority[MAX_MOVES]
    cdef int64_t hint[MAX_MOVES]
    cdef int i, j
    cdef int64_t p, h
    cdef uint8_t index
    cdef int32_t first_killer = s.killers[ply][0]
    cdef int32_t second_killer = s.killers[ply][1]
    cdef Child* c
    for i in range(count):
        c = &children[i]
        p = 0
        if c.move == table_move:
            p += <int64_t>1 << 62
        if c.kind == KIND_FINAL and c.final > 0:
            p += <int64_t>1 << 61
        if c.kind == KIND_SAME:
            p += <int64_t>1 << 60
        if c.order > 0:                 # bits 40..59
            p += (c.order if c.order < (<int64_t>1 << 20) else (<int64_t>1 << 20) - 1) << 40
        if c.move == first_killer:
            p += <int64_t>1 << 39
        elif c.move == second_killer:
            p += <int64_t>1 << 38
        p += s.history[c.move] if s.history[c.move] < (<int64_t>1 << 38) else (<int64_t>1 << 38) - 1
        # insertion sort, stable: a child goes after every earlier one it does not beat
        j = i
        while j > 0 and (priority[j - 1] < p or (priority[j - 1] == p and hint[j - 1] < c.order)):
            priority[j] = priority[j - 1]
            hint[j] = hint[j - 1]
            order[j] = order[j - 1]
            j -= 1
        priority[j] = p
        hint[j] = c.order
        order[j] = <uint8_t>i


cdef inline void push_line(Search* s, const Child* c) noexcept nogil:
    s.line.keys[s.line.length] = s.vt.key(s.vt.ctx, &c.pos)
    if c.reset:
        s.line.start = s.line.length
    s.line.length += 1


cdef double pvs(Search* s, const Pos* p, int depth, double alpha, double beta, int ply) noexcept nogil:
    cdef Entry* entry
    cdef uint64_t key
    cdef int32_t table_move = -1
    cdef int count = 0, i, first, flag, saved_start, path_flag
    cdef int64_t horizon_before, path_before, leaves
    cdef double best, value, a, lower, upper
    cdef int32_t best_move = -1
    cdef Child* children
    cdef Child* c
    cdef uint8_t order[MAX_MOVES]

    s.nodes += 1
    if s.nodes >= s.next_poll:
        poll(s)
        if s.aborted:
            return 0
    if s.vt.bounds != NULL:
        # Exact knowledge of the kernel (NULL unless asked for): a value already decided by the bounds.
        s.vt.bounds(s.vt.ctx, p, &lower, &upper)
        if lower >= beta:
            return lower
        if upper <= alpha:
            return upper
    if depth <= 0:
        s.horizon += 1
        return s.vt.evaluate(s.vt.ctx, p)
    # A node one ply above the leaves neither reads nor writes the table: its probe would be a cache miss
    # that costs more than scoring its few children, and its entries would crowd out the deeper ones.
    entry = NULL
    if depth > 1:
        key = s.vt.key(s.vt.ctx, p)
        entry = probe_slots(s.table, key)
    if entry != NULL:
        table_move = entry.move
        if entry.flags & F_VALUE and (entry.depth == depth or (s.deeper and entry.depth > depth)
                                      or (entry.flags & F_RESOLVED and depth >= entry.depth)):
            flag = entry.flags & 3
            if flag == EXACT or (entry.value >= beta if flag == LOWER else entry.value <= alpha):
                if not entry.flags & F_RESOLVED:
                    s.horizon += 1
                return entry.value
    horizon_before = s.horizon
    path_before = s.path_events
    children = s.children + ply * MAX_MOVES
    if depth > 1 or s.vt.leaf == NULL:
        count = s.vt.expand(s.vt.ctx, p, &s.line, children)
    best = -C_INFINITY
    if depth == 1 and s.vt.leaf != NULL:
        # The leaves, scored by the kernel itself without building the children.
        leaves = 0
        path_flag = 0
        best = s.vt.leaf(s.vt.ctx, p, &s.line, beta, &best_move, &leaves, &path_flag)
        if path_flag:
            s.path_events += 1
        s.nodes += leaves
        s.horizon += leaves
    elif depth == 1:
        # The leaves: each child scored in the kernel's order, stopping at the first that reaches beta.
        leaves = 0
        for i in range(count):
            c = &children[i]
            if c.kind == KIND_FINAL:
                value = c.final
                if c.path:
                    s.path_events += 1
            else:
                leaves += 1
                value = s.vt.evaluate(s.vt.ctx, &c.pos)
                if c.kind == KIND_OTHER:
                    value = -value
            if value > best:
                best = value
                best_move = c.move
                if value >= beta:
                    break
        s.nodes += leaves
        s.horizon += leaves
    else:
        order_children(s, children, count, table_move, ply, order)
        for i in range(count if depth > 2 else 0):  # start loading the children's table buckets while the
            if children[i].kind != KIND_FINAL:            # first is searched (nodes above the leaves use none)
                sc_prefetch(s.table.slots + 2 * (s.vt.key(s.vt.ctx, &children[i].pos) & s.table.bucket_mask))
        a = alpha
        first = 1
        for i in range(count):
            c = &children[order[i]]
            if c.kind == KIND_FINAL:
                value = c.final
                if c.path:
                    s.path_events += 1
            else:
                saved_start = s.line.start
                if s.vt.uses_line:
                    push_line(s, c)
                if c.kind == KIND_SAME:
                    if first:
                        value = pvs(s, &c.pos, depth - 1, a, beta, ply + 1)
                    else:
                        value = pvs(s, &c.pos, depth - 1, a, a + EPSILON, ply + 1)
                        if a < value < beta and not s.aborted:
                            value = pvs(s, &c.pos, depth - 1, a, beta, ply + 1)
                elif first:
                    value = -pvs(s, &c.pos, depth - 1, -beta, -a, ply + 1)
                else:
                    value = -pvs(s, &c.pos, depth - 1, -a - EPSILON, -a, ply + 1)
                    if a < value < beta and not s.aborted:
                        value = -pvs(s, &c.pos, depth - 1, -beta, -a, ply + 1)
                if s.vt.uses_line:
                    s.line.length -= 1
                    s.line.start = saved_start
                if s.aborted:
                    return 0
            first = 0
            if value > best:
                best = value
                best_move = c.move
                if value > a:
                    a = value
                    if a >= beta:
                        if c.kind != KIND_FINAL and c.move != s.killers[ply][0]:
                            s.killers[ply][1] = s.killers[ply][0]
                            s.killers[ply][0] = c.move
                        s.history[c.move] += depth * depth
                        break
    if depth == 1:
        return best
    if s.path_events != path_before:  # a score that depends on the path: keep only the move, for ordering
        store_slots(s.table, key, -1, 0, 0.0, best_move)
    else:
        flag = UPPER if best <= alpha else (LOWER if best >= beta else EXACT)
        if s.horizon == horizon_before:
            flag |= F_RESOLVED
        store_slots(s.table, key, depth, flag | F_VALUE, best, best_move)
    return best


cdef int root_search(Search* s, const Pos* root, int depth, double* score_out, int32_t* move_out,
                     int* resolved_out, double alpha = -C_INFINITY, double beta = C_INFINITY) noexcept nogil:
    # One iteration at the root, the previous iteration's best move first; -1 when it was cut short.
    # A window narrower than (-inf, inf) (a prover's null-window test) makes the score a bound: fail-soft,
    # at most alpha means "the value is at most this", at least beta "at least this".
    cdef Child* children = s.children
    cdef int count = s.vt.expand(s.vt.ctx, root, &s.line, children)
    cdef uint8_t order[MAX_MOVES]
    if count <= 0:
        return -2
    cdef int64_t priority[MAX_MOVES]
    cdef int64_t horizon_before = s.horizon
    cdef int64_t path_before = s.path_events
    cdef double alpha_in = alpha, best = -C_INFINITY, value
    cdef int32_t best_move
    cdef int i, j, first = 1, saved_start
    cdef int64_t p
    cdef Child* c
    # the order of ai.search._Run.root: the previous best, then ends of the game, then extra turns
    for i in range(count):
        c = &children[i]
        p = ((4 if c.move == s.previous_best else 0) + (2 if c.kind == KIND_FINAL else 0)
             + (1 if c.kind == KIND_SAME else 0))
        j = i
        while j > 0 and priority[j - 1] < p:
            priority[j] = priority[j - 1]
            order[j] = order[j - 1]
            j -= 1
        priority[j] = p
        order[j] = <uint8_t>i
    best_move = children[order[0]].move
    for i in range(count):
        c = &children[order[i]]
        if c.kind == KIND_FINAL:
            value = c.final
            if c.path:
                s.path_events += 1
        else:
            saved_start = s.line.start
            if s.vt.uses_line:
                push_line(s, c)
            if c.kind == KIND_SAME:
                if first:
                    value = pvs(s, &c.pos, depth - 1, alpha, beta, 1)
                else:
                    value = pvs(s, &c.pos, depth - 1, alpha, alpha + EPSILON, 1)
                    if alpha < value < beta and not s.aborted:
                        note_partial(s, c.move, value, depth)  # proven better already, should the re-search abort
                        value = pvs(s, &c.pos, depth - 1, alpha, beta, 1)
            elif first:
                value = -pvs(s, &c.pos, depth - 1, -beta, -alpha, 1)
            else:
                value = -pvs(s, &c.pos, depth - 1, -alpha - EPSILON, -alpha, 1)
                if alpha < value < beta and not s.aborted:
                    note_partial(s, c.move, value, depth)
                    value = -pvs(s, &c.pos, depth - 1, -beta, -alpha, 1)
            if s.vt.uses_line:
                s.line.length -= 1
                s.line.start = saved_start
            if s.aborted:
                return -1
        first = 0
        if value > best:
            best = value
            best_move = c.move
            if value > alpha:
                alpha = value
            note_partial(s, c.move, value, depth)
            if alpha >= beta:
                break
    resolved_out[0] = 1 if s.horizon == horizon_before else 0
    s.previous_best = best_move
    if s.path_events == path_before:
        store_slots(s.table, s.vt.key(s.vt.ctx, root), depth,
                    (UPPER if best <= alpha_in else (LOWER if best >= beta else EXACT))
                    | F_VALUE | (F_RESOLVED if resolved_out[0] else 0), best, best_move)
    else:
        store_slots(s.table, s.vt.key(s.vt.ctx, root), -1, 0, 0.0, best_move)
    score_out[0] = best
    move_out[0] = best_move
    return 0


cdef inline void note_partial(Search* s, int32_t move, double value, int depth) noexcept nogil:
    # The best root move proven so far in this iteration (played if the iteration is cut short).
    s.partial_move = move
    s.partial_score = value
    s.partial_depth = depth


cdef class Run:
    """One search on a compiled kernel: ``root(position, depth)`` runs one iteration without the GIL.

    The interface of ``ai.search._Run``: ``root`` returns (score, best move, resolved) or raises
    ``SearchAborted`` when the deadline, the node limit or the cancel flag stopped it; ``nodes`` and
    ``partial_move`` / ``partial_score`` / ``partial_depth`` say how far it got.  ``deeper``: a table entry of a
    deeper search may cut (``ai.search.Budget.deeper_cutoffs``, a timed search); otherwise only one of exactly
    the depth asked does, so a depth-limited search returns the plain minimax value.
    """
    cdef Search* s
    cdef readonly CoreKernel kernel
    cdef readonly Table table
    cdef object _flag_owner
    cdef const unsigned char[::1] _flag_view
    cdef double _clock_offset   # perf_counter minus the C clock, measured when the search was made

    def __cinit__(self, CoreKernel kernel, Table table, deadline=None, max_nodes=None, cancel_flag=None,
                  history=None, bint deeper=False):
        self.s = <Search*>calloc(1, sizeof(Search))
        if self.s == NULL:
            raise MemoryError("no memory for a search")
        self.s.children = <Child*>malloc((MAX_PLY + 2) * MAX_MOVES * sizeof(Child))
        if self.s.children == NULL:
            raise MemoryError("no memory for a search's move lists")
        self.kernel = kernel
        self.table = table
        self.s.vt = kernel.vt
        self.s.table = &table.data
        self._clock_offset = sc_clock_offset()
        self.s.deadline = -1.0 if deadline is None else float(deadline) - self._clock_offset
        self.s.max_nodes = -1 if max_nodes is None else int(max_nodes)
        self.s.next_poll = POLL_NODES if self.s.max_nodes < 0 else min(POLL_NODES, self.s.max_nodes)
        self.s.previous_best = -1
        self.s.deeper = deeper
        self.s.partial_move = -1
        for i in range(MAX_PLY + 2):
            self.s.killers[i][0] = -1
            self.s.killers[i][1] = -1
        if cancel_flag is not None:
            self._flag_owner = cancel_flag
            self._flag_view = cancel_flag
            if len(cancel_flag) < 1:
                raise ValueError("a cancel flag is a buffer of at least one byte")
            self.s.cancel = &self._flag_view[0]
        self._history = [] if history is None else [int(k) for k in history][-(MAX_LINE // 2):]

    cdef list _history

    def __dealloc__(self):
        if self.s != NULL:
            free(self.s.children)
            free(self.s)

    def root(self, bytes position, int depth, double alpha=-C_INFINITY, double beta=C_INFINITY):
        """Search ``position`` to ``depth``: (score, best move, resolved), or SearchAborted.  A window other
        than the whole line (a prover's null-window test) returns a fail-soft bound instead of the value."""
        cdef Pos p = self.kernel._pos(position)
        cdef double score = 0
        cdef int32_t move = -1
        cdef int resolved = 0, rc
        if not 1 <= depth <= MAX_PLY - 2:
            raise ValueError(f"a search depth is 1..{MAX_PLY - 2}, not {depth}")
        self.kernel._fill_line(&self.s.line, self._history, &p)
        self.s.line.start = 0
        with nogil:
            self.s.last_poll = sc_monotonic()  # the gaps are measured inside the iterations, not between them
            rc = root_search(self.s, &p, depth, &score, &move, &resolved, alpha, beta)
        if rc == -2:
            raise ValueError("the root has no moves: a finished game is not searched")
        if rc < 0:
            from ai.base import SearchAborted
            raise SearchAborted
        return score, move, bool(resolved)

    @property
    def nodes(self):
        return self.s.nodes

    @property
    def max_poll_gap(self):
        """The longest time, in seconds, between two clock checks of this search's iterations so far."""
        return self.s.max_gap

    @property
    def aborted_at(self):
        """The ``time.perf_counter`` instant the search noticed its stop (cancel, clock or node limit), or None."""
        return self.s.aborted_at + self._clock_offset if self.s.aborted else None

    @property
    def partial_move(self):
        return None if self.s.partial_move < 0 else self.s.partial_move

    @property
    def partial_score(self):
        return self.s.partial_score

    @property
    def partial_depth(self):
        return self.s.partial_depth

    def table_move(self, bytes position):
        """The move the table holds for ``position``, or None."""
        cdef Pos p = self.kernel._pos(position)
        cdef Entry* entry = probe_slots(self.s.table, self.kernel.vt.key(self.kernel.vt.ctx, &p))
        if entry == NULL or entry.move < 0:
            return None
        return entry.move
