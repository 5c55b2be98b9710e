"""A Kalah search kernel on positions packed into one int, seen from the side to move.

The ring of ``2n + 2`` counts (own pits 0..n-1, own store, the opponent's pits, the opponent's store) is
packed ``B`` bits per field, field 0 lowest, where ``2^B - 1`` exceeds the number of seeds so no field can
overflow.  The packed int is its own transposition key and is colour-free: mirror positions share an entry.

A move is a table look-up: sowing ``s`` seeds from pit ``i`` is ``p - (s << shift[i]) + ADD[i][s]``, where
``ADD[i][s]`` holds a 1 (or more, for laps) in every field the seeds reach, and ``LAST[i][s]`` says where the
last seed fell.  Seeing the board from the other side is a rotation by ``n + 1`` fields.  The evaluator's
terms are computed with masks: the seeds on a side are the packed side modulo ``2^B - 1`` (a digit sum), and
the non-empty pits are counted by folding each field's bits onto its lowest bit and counting set bits.

``KalahRun`` is the strong engine's search written for these positions alone (``ai.search`` uses it when the
evaluator's weights are small fractions): one recursive function with the move generation, the evaluation
and the table inlined, integer scores (the evaluator's weights times a small scale, so null windows are one
unit wide), table entries packed into one int (``ai.transposition.pack_entry``), and children carried as
ints whose high bits are their ordering priority, so no tuple or object is built per node.  The depth-1
nodes score their children without a call, adding the linear part of the evaluation (store and seeds on
side) from a per-move table to the parent's, and counting non-empty pits with one carry trick.

``tests/test_ai_fast.py`` checks children, final scores and evaluations against ``rules.kalah`` and
``ai.evaluators.sowing`` on random positions; ``tests/test_ai_search.py`` checks that the search returns
exactly the plain minimax value at a fixed depth.
"""
from __future__ import annotations

from typing import Any

from ai.evaluators import WIN, Evaluator, ZeroEvaluator
from ai.evaluators.sowing import SowingEvaluator
from ai.transposition import NO_MOVE, TranspositionTable, pack_entry
from rules import Game, Move, State

INFINITY = 1 << 62
SCALES = (1, 2, 4, 8, 10, 16, 20, 32, 64, 100)
"""Scales tried to turn the evaluator's weights into integers (0.25 and 0.5 need 4)."""


class KalahKernel:
    """The packed-int kernel of one Kalah variant and a sowing (or zero) evaluator."""

    @staticmethod
    def supports(game: Game, evaluator: Evaluator) -> bool:
        return game.name == "kalah" and isinstance(evaluator, (SowingEvaluator, ZeroEvaluator))

    def __init__(self, game: Game, evaluator: Evaluator, margins: bool = False) -> None:
        self.game = game
        self.evaluator = evaluator
        self.margins = margins
        n = game.pits
        total = 2 * n * game.seeds
        bits = (total + 1).bit_length()
        self.n = n
        self.order = tuple(range(n))
        self.total = total
        self.bits = bits
        self.mask = (1 << bits) - 1
        self.shifts = tuple(bits * i for i in range(2 * n + 2))
        self.own_pits = sum(self.mask << (bits * i) for i in range(n))
        self.opp_pits = sum(self.mask << (bits * (n + 1 + i)) for i in range(n))
        self.half = bits * (n + 1)
        self.low_half = (1 << self.half) - 1
        self.empty_capture = game.empty_capture
        cycle = 2 * n + 1  # every field but the opponent's store
        add: list[list[int]] = []
        last: list[list[int]] = []
        for pit in range(n):
            adds, lasts = [0], [0]
            for seeds in range(1, total + 1):
                increment = 0
                field = pit
                for _ in range(seeds):
                    field = (field + 1) % cycle
                    increment += 1 << (bits * field)
                adds.append(increment)
                lasts.append(field)
            add.append(adds)
            last.append(lasts)
        self.add = tuple(tuple(a) for a in add)
        self.last = tuple(tuple(a) for a in last)
        # Folding shifts that OR all of a field's bits onto its lowest bit without reaching the next field.
        folds, span = [], 1
        while span < bits:
            step = min(span, bits - span)
            folds.append(step)
            span += step
        self.folds = tuple(folds)
        self.own_low = sum(1 << (bits * i) for i in range(n))
        self.opp_low = sum(1 << (bits * (n + 1 + i)) for i in range(n))
        if isinstance(evaluator, SowingEvaluator):
            self.side_weight, self.mobility_weight = evaluator.side, evaluator.mobility
        else:
            self.side_weight = self.mobility_weight = None

    # -- positions --------------------------------------------------------------------------------------------
    def accepts(self, state: State) -> bool:
        """Whether ``state`` fits the packing: its pits and stores hold exactly the variant's seeds."""
        return sum(self.game.key(state)) == self.total

    def encode(self, state: State) -> int:
        ring = self.game.key(state)
        return sum(count << shift for count, shift in zip(ring, self.shifts))

    def decode(self, position: int, to_move: int = 0) -> State:
        """The rules state of a packed position, given who is to move (for tests and principal variations)."""
        from rules.kalah import KalahState

        fields = tuple((position >> shift) & self.mask for shift in self.shifts)
        n1 = self.n + 1
        ring = fields if to_move == 0 else fields[n1:] + fields[:n1]
        return KalahState(ring, to_move)

    def key(self, position: int) -> int:
        return position

    def _final(self, margin: int) -> float:
        if self.margins or margin == 0:
            return float(margin)
        return WIN + margin if margin > 0 else -WIN + margin

    # -- search -----------------------------------------------------------------------------------------------
    def children(self, p: int) -> list[tuple]:
        """The children in search order: extra turns (rightmost first), captures (biggest first), the rest;
        a move that ends the game comes first when it wins and last otherwise."""
        n, mask, shifts, add, last = self.n, self.mask, self.shifts, self.add, self.last
        store_shift = shifts[n]
        own_pits, opp_pits = self.own_pits, self.opp_pits
        again: list[tuple] = []
        captures: list[tuple] = []
        quiet: list[tuple] = []
        ended: list[tuple] = []
        for pit in range(n - 1, -1, -1):
            shift = shifts[pit]
            seeds = (p >> shift) & mask
            if not seeds:
                continue
            q = p - (seeds << shift) + add[pit][seeds]
            end = last[pit][seeds]
            if end == n:
                if q & own_pits:
                    again.append((pit, q, True, None))
                else:  # the mover's side emptied: the opponent keeps their own seeds
                    ended.append((pit, None, False, self._final(2 * ((q >> store_shift) & mask) - self.total)))
                continue
            taken = -1
            if end < n and (q >> shifts[end]) & mask == 1:
                opposite = 2 * n - end
                taken = (q >> shifts[opposite]) & mask
                if taken or self.empty_capture:
                    q += ((taken + 1) << store_shift) - (1 << shifts[end]) - (taken << shifts[opposite])
            if not q & own_pits or not q & opp_pits:
                own = (q >> store_shift) & mask
                if q & own_pits:
                    own = self.total - (q >> shifts[2 * n + 1])
                ended.append((pit, None, False, self._final(2 * own - self.total)))
                continue
            child = (pit, (q >> self.half) | ((q & self.low_half) << self.half), False, None)
            if taken > 0:
                captures.append((taken, child))
            else:
                quiet.append(child)
        if captures:
            captures.sort(key=_first_descending)
            again.extend(child for _, child in captures)
        if ended:
            wins = [child for child in ended if child[3] > 0]
            return wins + again + quiet + [child for child in ended if child[3] <= 0]
        return again + quiet if quiet else again

    def best_leaf(self, p: int, beta: float) -> tuple[float, int | None, int]:
        """The best child of a depth-1 node, scored by the evaluator (or exactly when the game ends), with a
        cut-off as soon as one reaches ``beta``: (best score, best move, children evaluated).

        This is the search's hottest loop, so it plays each move only when it gets to it, extra turns first.
        A child after which the opponent moves is scored from the mover's side without turning the board
        round: the evaluation is exactly antisymmetric, so ``evaluate(q)`` equals ``-evaluate(flip(q))``.
        """
        n, mask, shifts, add, last = self.n, self.mask, self.shifts, self.add, self.last
        store_shift = shifts[n]
        own_pits, opp_pits = self.own_pits, self.opp_pits
        evaluate = self.evaluate
        best, best_move, leaves = -float("inf"), None, 0
        deferred = []
        for pit in range(n - 1, -1, -1):
            shift = shifts[pit]
            seeds = (p >> shift) & mask
            if not seeds:
                continue
            if last[pit][seeds] != n:
                deferred.append((pit, shift, seeds))
                continue
            q = p - (seeds << shift) + add[pit][seeds]
            if q & own_pits:
                leaves += 1
                value = evaluate(q)
            else:
                value = self._final(2 * ((q >> store_shift) & mask) - self.total)
            if value > best:
                best, best_move = value, pit
                if value >= beta:
                    return best, best_move, leaves
        for pit, shift, seeds in deferred:
            q = p - (seeds << shift) + add[pit][seeds]
            end = last[pit][seeds]
            if end < n and (q >> shifts[end]) & mask == 1:
                opposite = 2 * n - end
                taken = (q >> shifts[opposite]) & mask
                if taken or self.empty_capture:
                    q += ((taken + 1) << store_shift) - (1 << shifts[end]) - (taken << shifts[opposite])
            if q & own_pits and q & opp_pits:
                leaves += 1
                value = evaluate(q)
            else:
                own = (q >> store_shift) & mask
                if q & own_pits:
                    own = self.total - (q >> shifts[2 * n + 1])
                value = self._final(2 * own - self.total)
            if value > best:
                best, best_move = value, pit
                if value >= beta:
                    break
        return best, best_move, leaves

    def integer_weights(self) -> tuple[int, int, int, int] | None:
        """(scale, store, side, mobility weights times scale) when all are integers for one of ``SCALES``."""
        side, mobility = self.side_weight or 0.0, self.mobility_weight or 0.0
        for scale in SCALES:
            s, m = side * scale, mobility * scale
            if s == int(s) and m == int(m) and int(s) / scale == side and int(m) / scale == mobility:
                return scale, scale, int(s), int(m)
        return None

    def make_run(self, table: TranspositionTable, budget: Any, poll: int) -> "KalahRun | None":
        """The specialised search for ``ai.search.PVSEngine``, or None when the weights need float scores."""
        if self.margins or self.integer_weights() is None:
            return None
        return KalahRun(self, table, budget, poll)

    def evaluate(self, p: int) -> float:
        if self.side_weight is None:
            return 0.0
        n, mask, shifts = self.n, self.mask, self.shifts
        store = ((p >> shifts[n]) & mask) - (p >> shifts[2 * n + 1])
        modulus = mask  # 2^B - 1: a field-digit sum below it is the value modulo it
        side = (p & self.own_pits) % modulus - ((p & self.opp_pits) >> shifts[n + 1]) % modulus
        folded = p
        for step in self.folds:
            folded |= folded >> step
        mobility = (folded & self.own_low).bit_count() - (folded & self.opp_low).bit_count()
        return store + self.side_weight * side + self.mobility_weight * mobility


def _first_descending(pair: tuple) -> int:
    return -pair[0]


class KalahRun:
    """One PVS search on packed Kalah positions (the interface of ``ai.search._Run``).

    ``root(position, depth)`` searches one iteration and returns (score, best move, resolved); scores are
    the evaluator's, as floats.  Move order inside the tree: the table's move, extra turns (rightmost pit
    first, which keeps the others available), then every other move by what it changes in the linear part
    of the evaluation (store and seeds on each side, from a per-move table; captures included), at depth 2
    and above.  The mobility term is left out of that order, and a child is turned to the opponent's view
    only when it is searched: both cost more time than they saved (to depth 18 from the start, 1.99 M nodes
    in 7.0 s against 2.03 M in 9.3 s).  A move that ends the game is scored while the children are generated
    and cuts off at once when it reaches ``beta``.
    """

    def __init__(self, kernel: KalahKernel, table: TranspositionTable, budget: Any, poll: int) -> None:
        self.kernel = kernel
        self.table = table
        self.budget = budget
        self.scale = kernel.integer_weights()[0]
        self.previous_best: Move | None = None
        self.partial_move: Move | None = None
        self.partial_score = 0.0
        self.partial_depth = 0
        """The iteration ``partial_move`` belongs to: the best move among the root moves searched so far."""
        self._search, self._counts = self._build(poll)

    @property
    def nodes(self) -> int:
        return self._counts()[0]

    def root(self, root: int, depth: int) -> tuple[float, Move, bool]:
        """Search the root to ``depth`` with PVS, the previous iteration's best move first."""
        search = self._search
        scale = self.scale
        horizon_before = self._counts()[1]
        children = self.kernel.children(root)
        previous = self.previous_best
        children.sort(key=lambda c: c[0] != previous)
        alpha, beta = -INFINITY, INFINITY
        best, best_move = -INFINITY, children[0][0]
        first = True
        for move, child, same, final in children:
            if final is not None:
                value = int(final * scale)
            elif same:
                if first:
                    value = search(child, depth - 1, alpha, beta)
                else:
                    value = search(child, depth - 1, alpha, alpha + 1)
                    if alpha < value < beta:
                        self._note_partial(move, value, depth)
                        value = search(child, depth - 1, alpha, beta)
            elif first:
                value = -search(child, depth - 1, -beta, -alpha)
            else:
                value = -search(child, depth - 1, -alpha - 1, -alpha)
                if alpha < value < beta:
                    self._note_partial(move, value, depth)  # proven better already, should the re-search abort
                    value = -search(child, depth - 1, -beta, -alpha)
            first = False
            if value > best:
                best, best_move = value, move
                alpha = max(alpha, value)
                self._note_partial(move, value, depth)
        resolved = self._counts()[1] == horizon_before
        self.previous_best = best_move
        self.table.entries[root] = pack_entry(depth, 0, best, best_move, resolved)
        return best / scale, best_move, resolved

    def _note_partial(self, move: Move, value: int, depth: int) -> None:
        """Remember the best root move proven so far in this iteration (used if the iteration is cut short)."""
        self.partial_move, self.partial_score, self.partial_depth = move, value / self.scale, depth

    def principal_variation(self, root: int, move: Move, depth: int) -> tuple:
        """The best line, read from the table's moves (at most ``depth`` moves, stopping at a repetition)."""
        kernel, entries = self.kernel, self.table.entries
        line, position, seen = [move], root, {root}
        while len(line) < depth:
            child = next((c[1] for c in kernel.children(position) if c[0] == line[-1]), None)
            entry = entries.get(child) if child is not None else None
            if entry is None or entry & 31 == NO_MOVE or child in seen:
                break
            seen.add(child)
            line.append(entry & 31)
            position = child
        return tuple(line)

    def _build(self, poll: int):
        """The recursive search as a closure over local constants (the fastest form CPython offers)."""
        k = self.kernel
        n, M, B, shifts, total = k.n, k.mask, k.bits, k.shifts, k.total
        half, low_half = k.half, k.low_half
        OWN, OPP = k.own_pits, k.opp_pits
        SS, OS = shifts[n], shifts[2 * n + 1]  # the mover's store, the opponent's store
        MOD = M  # 2^B - 1: a sum of fields modulo it is their digit sum
        scale, WS, WD, WM = k.integer_weights()
        # Non-empty fields: adding 2^(B-1) - 1 to each field's low bits carries into its top bit unless they
        # are all zero; OR-ing the field itself in covers the top bit.
        L = sum(((1 << (B - 1)) - 1) << shift for shift in shifts)
        OWN_TOP = sum(1 << (shifts[i] + B - 1) for i in range(n))
        OPP_TOP = sum(1 << (shifts[n + 1 + i] + B - 1) for i in range(n))
        # Own non-empty pits minus the opponent's = set bits of (nz ^ OPP_TOP) & TOPS, less n: one count.
        TOPS = OWN_TOP | OPP_TOP
        MOB0 = WM * n
        win = int(WIN) * scale
        FINAL = tuple(
            (win if 2 * own > total else -win if 2 * own < total else 0) + (2 * own - total) * scale
            for own in range(total + 1)
        )  # the exact score of a finished game by the mover's final seeds
        # Per field, the weight of one seed in the linear part of the evaluation (store and side terms).
        weights = [WD] * n + [WS] + [-WD] * n + [-WS]
        moves = []
        for pit in range(n - 1, -1, -1):
            deltas, linear = [], []
            for seeds in range(total + 1):
                change = [0] * (2 * n + 2)
                change[pit] -= seeds
                field = pit
                for _ in range(seeds):
                    field = (field + 1) % (2 * n + 1)
                    change[field] += 1
                deltas.append(sum(c << shift for c, shift in zip(change, shifts)))
                linear.append(sum(w * c for w, c in zip(weights, change)))
            moves.append((pit, shifts[pit], tuple(deltas), k.last[pit], tuple(linear)))
        MOVES = tuple(moves)
        # A capture ending in own pit e: the last seed and the opposite pit's ``t`` seeds go to the store.
        CAP_LAST = tuple((1 << SS) - (1 << shifts[e]) if e < n else 0 for e in range(2 * n + 1))
        CAP_TAKEN = tuple((1 << SS) - (1 << shifts[2 * n - e]) if e < n else 0 for e in range(2 * n + 1))
        LAST_SHIFT = tuple(shifts[e] if e < n else 0 for e in range(2 * n + 1))
        OPPOSITE_SHIFT = tuple(shifts[2 * n - e] if e < n else 0 for e in range(2 * n + 1))
        LIN_LAST, LIN_TAKEN = WS - WD, WS + WD
        EMPTY_CAPTURE = k.empty_capture
        # A child as one int: priority << PRIORITY | same-mover bit | pit << POSITION_BITS | position.
        POSITION_BITS = (2 * n + 2) * B
        POSITION = (1 << POSITION_BITS) - 1
        SAME = 1 << (POSITION_BITS + 4)
        PRIORITY = POSITION_BITS + 5
        TABLE_MOVE = 1 << 40  # above any evaluation offset
        EXTRA_TURN = 1 << 39
        OFFSET = 1 << 38  # keeps evaluation priorities positive
        entries = self.table.entries
        capacity = self.table.capacity
        get = entries.get
        budget = self.budget
        nodes = 0
        horizon = 0  # heuristic leaves met; unchanged across a subtree means it is resolved
        next_poll = poll

        def search(p: int, depth: int, alpha: int, beta: int) -> int:
            nonlocal nodes, horizon, next_poll
            nodes += 1
            if nodes >= next_poll:
                next_poll = nodes + budget.poll(nodes)
            best = -INFINITY
            if depth == 1:  # score the children in place; no table (depth-1 results are cheap to redo)
                leaves = 0
                base = WS * (((p >> SS) & M) - (p >> OS)) + WD * ((p & OWN) % MOD - (p & OPP) % MOD) - MOB0
                for pit, shift, deltas, lasts, linear in MOVES:
                    s = (p >> shift) & M
                    if not s:
                        continue
                    q = p + deltas[s]
                    end = lasts[s]
                    if end == n:  # an extra turn: the same player's view, not negated
                        if q & OWN:
                            leaves += 1
                            nz = ((q & L) + L) | q
                            v = base + linear[s] + WM * ((nz ^ OPP_TOP) & TOPS).bit_count()
                        else:
                            v = FINAL[(q >> SS) & M]
                    else:
                        v = base + linear[s]
                        if end < n and (q >> LAST_SHIFT[end]) & M == 1:
                            t = (q >> OPPOSITE_SHIFT[end]) & M
                            if t or EMPTY_CAPTURE:
                                q += CAP_LAST[end] + t * CAP_TAKEN[end]
                                v += LIN_LAST + t * LIN_TAKEN
                        if q & OWN and q & OPP:
                            leaves += 1
                            nz = ((q & L) + L) | q
                            v += WM * ((nz ^ OPP_TOP) & TOPS).bit_count()
                        elif q & OWN:
                            v = FINAL[total - (q >> OS)]
                        else:
                            v = FINAL[(q >> SS) & M]
                    if v > best:
                        best = v
                        if v >= beta:
                            break
                nodes += leaves
                horizon += leaves
                return best
            if depth <= 0:  # only when the root itself is searched to depth 1
                horizon += 1
                nz = ((p & L) + L) | p
                return (WS * (((p >> SS) & M) - (p >> OS)) + WD * ((p & OWN) % MOD - (p & OPP) % MOD)
                        + WM * ((nz ^ OPP_TOP) & TOPS).bit_count() - MOB0)
            entry = get(p)
            table_move = NO_MOVE
            if entry is not None:
                entry_depth = (entry >> 8) & 255
                if entry_depth == depth or (entry & 128 and depth >= entry_depth):
                    v = entry >> 16
                    flag = entry & 96
                    if flag == 0 or (v >= beta if flag == 32 else v <= alpha):
                        if not entry & 128:
                            horizon += 1
                        return v
                table_move = entry & 31
            horizon_before = horizon
            best_move = NO_MOVE
            children = []
            # Children are ordered by the change in the evaluation's linear part, from the per-move table.
            for pit, shift, deltas, lasts, linear in MOVES:
                s = (p >> shift) & M
                if not s:
                    continue
                q = p + deltas[s]
                end = lasts[s]
                if end == n:
                    if q & OWN:
                        children.append(((EXTRA_TURN | (TABLE_MOVE if pit == table_move else 0)) << PRIORITY)
                                        | SAME | (pit << POSITION_BITS) | q)
                        continue
                    v = FINAL[(q >> SS) & M]
                else:
                    priority = OFFSET + linear[s]
                    if end < n and (q >> LAST_SHIFT[end]) & M == 1:
                        t = (q >> OPPOSITE_SHIFT[end]) & M
                        if t or EMPTY_CAPTURE:
                            q += CAP_LAST[end] + t * CAP_TAKEN[end]
                            priority += LIN_LAST + t * LIN_TAKEN
                    if q & OWN and q & OPP:
                        if pit == table_move:
                            priority |= TABLE_MOVE
                        children.append((priority << PRIORITY) | (pit << POSITION_BITS) | q)
                        continue
                    if q & OWN:
                        v = FINAL[total - (q >> OS)]
                    else:
                        v = FINAL[(q >> SS) & M]
                if v > best:  # the move ends the game: its exact score
                    best = v
                    best_move = pit
                    if v >= beta:
                        break
            else:
                a = best if best > alpha else alpha
                children.sort(reverse=True)
                first = True
                d1 = depth - 1
                for code in children:
                    c = code & POSITION
                    if code & SAME:
                        if first:
                            v = search(c, d1, a, beta)
                        else:
                            v = search(c, d1, a, a + 1)
                            if a < v < beta:
                                v = search(c, d1, a, beta)
                    else:  # the opponent moves next: the board seen from their side
                        c = (c >> half) | ((c & low_half) << half)
                        if first:
                            v = -search(c, d1, -beta, -a)
                        else:
                            v = -search(c, d1, -a - 1, -a)
                            if a < v < beta:
                                v = -search(c, d1, -beta, -a)
                    first = False
                    if v > best:
                        best = v
                        best_move = (code >> POSITION_BITS) & 15
                        if v > a:
                            a = v
                            if v >= beta:
                                break
            flag = 64 if best <= alpha else 32 if best >= beta else 0
            if horizon == horizon_before:
                flag |= 128
            if entry is not None or len(entries) < capacity:
                entries[p] = (best << 16) | (depth << 8) | flag | best_move
            return best

        def counts() -> tuple[int, int]:
            return nodes, horizon

        return search, counts
