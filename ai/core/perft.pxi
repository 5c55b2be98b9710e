# Perft over any compiled kernel: the number of move sequences of exactly `depth` plies (a finished game has
# no moves), with the `Line` kept as the search keeps it, so the rules that look back (Oware's repetition)
# count as they do in a search.  Tests compare it with the rules' perft tables.

cdef int64_t perft_walk(const KernelVT* vt, const Pos* p, int depth, Line* line, Child* children) noexcept nogil:
    cdef int count = vt.expand(vt.ctx, p, line, children)
    cdef int i, saved_start
    cdef int64_t total = 0
    cdef Child* c
    if depth <= 1:
        return count
    for i in range(count):
        c = &children[i]
        if c.kind == KIND_FINAL:
            continue
        saved_start = line.start
        if vt.uses_line:
            line.keys[line.length] = vt.key(vt.ctx, &c.pos)
            if c.reset:
                line.start = line.length
            line.length += 1
        total += perft_walk(vt, &c.pos, depth - 1, line, children + MAX_MOVES)
        if vt.uses_line:
            line.length -= 1
            line.start = saved_start
    return total


def perft(CoreKernel kernel, bytes position, int depth, history=None):
    """Move sequences of exactly ``depth`` plies from ``position`` (``history``: keys the rules look back on)."""
    cdef Pos p = kernel._pos(position)
    cdef Line* line
    cdef Child* children
    cdef int64_t total
    if not 1 <= depth <= MAX_PLY - 2:
        raise ValueError(f"a perft depth is 1..{MAX_PLY - 2}, not {depth}")
    line = <Line*>calloc(1, sizeof(Line))
    children = <Child*>malloc((depth + 1) * MAX_MOVES * sizeof(Child))
    if line == NULL or children == NULL:
        free(line)
        free(children)
        raise MemoryError("no memory for perft")
    try:
        kernel._fill_line(line, history, &p)
        with nogil:
            total = perft_walk(&kernel.vt, &p, depth, line, children)
        return total
    finally:
        free(line)
        free(children)
