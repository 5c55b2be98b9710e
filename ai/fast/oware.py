"""An Oware search kernel on positions packed into one int, seen from the side to move, with its own PVS loop.

*Positions.*  Fourteen fields of ``B`` bits, field 0 lowest: the mover's houses 0..5, the mover's score
house, the opponent's houses 0..5, the opponent's score house (``2^B - 1`` exceeds the seeds in play, so no
field overflows).  Turning the board round for the opponent is a rotation by seven fields.  A sowing is one
addition of a precomputed delta per (house, seeds), laps and the skipped starting house included; a capture
walks back from the last seed's field.  The packed int leaves the history out and is the transposition key.

*History.*  The end rules need the no-capture counter and the boards seen since the last capture.  Through
the kernel protocol (tests, the root, principal variations) a position is the triple ``(board, since_capture,
seen)`` with ``seen`` in the mover's frame, so ``children`` computes exactly what the rules compute.  Inside
``OwareRun`` the counter is an argument and the boards of the current line are two sets (one per frame,
seeded from the game's ``seen``), so a repetition inside the search ends the game there, as the rules say.

*Path-dependent scores.*  A repetition or the no-capture limit makes a score depend on how the position was
reached, which a history-free key cannot see.  The choice made here: such an ending is scored exactly where
it happens, and a node whose subtree met one stores no value in the table (only its best move, for
ordering), so a path-dependent score is never reused on another path.  What remains is the classic
graph-history interaction: a value stored from a line without repetitions can be reused on a line where one
of its continuations would repeat an earlier position of that line (rare in Oware, where every capture
clears the history).  The counter is likewise left out of the key: near the limit of 100 moves a reused
value may ignore that the limit falls inside its subtree.

*Evaluation.*  ``ai.evaluators.oware.OwareEvaluator`` (and the store-only ``SowingEvaluator``) with integer
weights: houses holding 1 or 2 seeds and non-empty houses are counted with two carry tricks over all fields
at once.  ``tests/test_ai_fast.py`` checks children, final scores and evaluations against ``rules.oware``.
"""
from __future__ import annotations

from typing import Any

from ai.evaluators import WIN, Evaluator, ZeroEvaluator
from ai.evaluators.oware import OwareEvaluator
from ai.evaluators.sowing import SowingEvaluator
from ai.transposition import NO_MOVE, TranspositionTable, pack_entry
from rules import Game, Move, State
from rules.oware import HOUSES, RING, OwareState, sowing_path

INFINITY = 1 << 62
SCALES = (1, 2, 4, 8, 10, 16, 20, 32, 64, 100)
OwarePosition = tuple  # (packed board, since_capture, seen boards in the mover's frame)


def _field(ring_index: int) -> int:
    """The field of a ring index in the mover's frame (own houses 0..5, then the opponent's from field 7)."""
    return ring_index if ring_index < HOUSES else ring_index + 1


class OwareKernel:
    """The packed-int kernel of one Oware variant and an Oware, store-only or zero evaluator."""

    @staticmethod
    def supports(game: Game, evaluator: Evaluator, margins: bool = False) -> bool:
        return (game.name == "oware" and game.grand_slam != "forbidden" and not margins
                and isinstance(evaluator, (OwareEvaluator, SowingEvaluator, ZeroEvaluator)))

    def __init__(self, game: Game, evaluator: Evaluator, margins: bool = False) -> None:
        self.game = game
        self.evaluator = evaluator
        total = game.total
        bits = (total + 1).bit_length()
        mask = (1 << bits) - 1
        self.total, self.bits, self.mask = total, bits, mask
        self.shifts = tuple(bits * i for i in range(2 * HOUSES + 2))
        self.half = bits * (HOUSES + 1)
        self.low_half = (1 << self.half) - 1
        self.own_houses = sum(mask << (bits * i) for i in range(HOUSES))
        self.opp_houses = self.own_houses << self.half
        self.store_shift, self.opp_store_shift = self.shifts[HOUSES], self.shifts[2 * HOUSES + 1]
        # Carry tricks: adding ``low`` to each field's low B-1 bits reaches its top bit unless they are all 0
        # (non-empty); adding ``low - 2`` reaches it when they are 3 or more.
        ones = sum(1 << shift for shift in self.shifts)
        self.low = ((1 << (bits - 1)) - 1) * ones
        self.low_minus_two = self.low - 2 * ones
        self.top = ones << (bits - 1)
        self.slam_captures = game.grand_slam == "capture"
        self.limit = game.no_capture_limit or (1 << 62)
        self.repetition = game.repetition
        deltas, lasts = [], []
        for house in range(HOUSES):
            row, last_row = [0], [_field(house)]
            for seeds in range(1, total + 1):
                delta = -(seeds << self.shifts[house])
                ring_index = house
                for ring_index in sowing_path(house, seeds, game.skip_start):
                    delta += 1 << self.shifts[_field(ring_index)]
                row.append(delta)
                last_row.append(_field(ring_index))
            deltas.append(tuple(row))
            lasts.append(tuple(last_row))
        self.deltas, self.lasts = tuple(deltas), tuple(lasts)
        side = getattr(evaluator, "side", 0.0)
        mobility = getattr(evaluator, "mobility", 0.0)
        vulnerable = getattr(evaluator, "vulnerable", 0.0)
        self.weights = (1.0 if not isinstance(evaluator, ZeroEvaluator) else 0.0, side, mobility, vulnerable)

    # -- positions --------------------------------------------------------------------------------------------
    def pack(self, pits: tuple[int, ...], stores: tuple[int, int], to_move: int) -> int:
        """The board of a rules state, seen from ``to_move``."""
        own = pits[HOUSES * to_move : HOUSES * to_move + HOUSES]
        other = pits[HOUSES - HOUSES * to_move : RING - HOUSES * to_move]
        fields = own + (stores[to_move],) + other + (stores[1 - to_move],)
        return sum(count << shift for count, shift in zip(fields, self.shifts))

    def flip(self, p: int) -> int:
        return (p >> self.half) | ((p & self.low_half) << self.half)

    def encode(self, state: OwareState) -> OwarePosition:
        """(board, since_capture, seen) of a non-terminal state; ``seen`` in the frame of the side to move."""
        seen = frozenset(
            self.pack(tuple(key.to_bytes(RING, "little")), state.stores, state.to_move) for key in state.seen
        )
        return self.pack(state.pits, state.stores, state.to_move), state.since_capture, seen

    def decode(self, position: OwarePosition, to_move: int) -> OwareState:
        """The rules state of a position, given who is to move (for tests)."""
        board, since_capture, seen = position

        def view(p: int) -> tuple[tuple[int, ...], tuple[int, int]]:
            fields = tuple((p >> shift) & self.mask for shift in self.shifts)
            own, other = fields[:HOUSES], fields[HOUSES + 1 : 2 * HOUSES + 1]
            if to_move == 0:
                return own + other, (fields[HOUSES], fields[2 * HOUSES + 1])
            return other + own, (fields[2 * HOUSES + 1], fields[HOUSES])

        pits, stores = view(board)
        keys = frozenset(int.from_bytes(bytes(view(p)[0]), "little") for p in seen)
        return OwareState(pits, stores, to_move, since_capture, keys)

    def key(self, position: OwarePosition) -> int:
        return position[0]

    def integer_weights(self) -> tuple[int, int, int, int, int] | None:
        """(scale, store, side, mobility, vulnerable weights times scale), all integers, or None."""
        for scale in SCALES:
            scaled = [w * scale for w in self.weights]
            if all(x == int(x) and int(x) / scale == w for x, w in zip(scaled, self.weights)):
                return (scale, *(int(x) for x in scaled))
        return None

    def _final(self, margin: int) -> float:
        if margin == 0:
            return 0.0
        return WIN + margin if margin > 0 else -WIN + margin

    # -- the kernel protocol ----------------------------------------------------------------------------------
    def play(self, p: int, house: int) -> tuple[int, int]:
        """Sow ``house`` of the mover on board ``p``: (the board after it, in the mover's frame; seeds captured)."""
        mask, shifts = self.mask, self.shifts
        seeds = (p >> shifts[house]) & mask
        q = p + self.deltas[house][seeds]
        field = self.lasts[house][seeds]
        captured, after = 0, q
        while field > HOUSES:
            count = (after >> shifts[field]) & mask
            if count != 2 and count != 3:
                break
            after -= count << shifts[field]
            captured += count
            field -= 1
        if captured and (after & self.opp_houses or self.slam_captures):
            return after + (captured << self.store_shift), captured
        return q, 0

    def ending(self, q: int, captured: int, repeated: bool, since_capture: int) -> int | None:
        """The mover's final margin if the game ends after a move that left board ``q`` (mover's frame)."""
        mask, total = self.mask, self.total
        own_store, opp_store = (q >> self.store_shift) & mask, q >> self.opp_store_shift
        if 2 * own_store > total or 2 * opp_store > total or 2 * own_store == 2 * opp_store == total:
            return own_store - opp_store
        own_side = (q & self.own_houses) % mask
        opp_side = (q & self.opp_houses) % mask
        if repeated:
            return own_store + own_side - opp_store - opp_side
        if not captured and since_capture + 1 >= self.limit:
            return own_store - opp_store
        if not own_side:  # the opponent must feed the mover, if any of their houses reaches
            shifts = self.shifts
            if not any(((q >> shifts[HOUSES + 1 + h]) & mask) + h >= HOUSES for h in range(HOUSES)):
                return own_store + own_side - opp_store - opp_side
        if not opp_side:  # the opponent has no move at all
            return own_store + own_side - opp_store - opp_side
        return None

    def children(self, position: OwarePosition) -> list[tuple]:
        """``(move, child, False, final)`` for each legal move, in the rules' order (houses 0..5)."""
        p, since_capture, seen = position
        mask, shifts = self.mask, self.shifts
        starving = not p & self.opp_houses
        result = []
        for house in range(HOUSES):
            seeds = (p >> shifts[house]) & mask
            if not seeds or (starving and seeds + house < HOUSES):
                continue
            q, captured = self.play(p, house)
            repeated = self.repetition and not captured and (q in seen or q == p)
            margin = self.ending(q, captured, repeated, since_capture)
            if margin is not None:
                result.append((house, None, False, self._final(margin)))
                continue
            if captured:
                child = (self.flip(q), 0, frozenset())
            else:
                history = frozenset(self.flip(x) for x in seen) | {self.flip(p)} if self.repetition else seen
                child = (self.flip(q), since_capture + 1, history)
            result.append((house, child, False, None))
        return result

    def evaluate(self, position: OwarePosition) -> float:
        scale, *weights = self.integer_weights() or (1, *self.weights)
        return self._evaluate(position[0], weights) / scale

    def _evaluate(self, p: int, weights: list) -> float:
        store_weight, side_weight, mobility_weight, vulnerable_weight = weights
        mask, low, top = self.mask, self.low, self.top
        store = ((p >> self.store_shift) & mask) - (p >> self.opp_store_shift)
        side = (p & self.own_houses) % mask - (p & self.opp_houses) % mask
        nonzero = (((p & low) + low) | p) & top
        three_up = (((p & low) + self.low_minus_two) | p) & top
        own_top, opp_top = self.own_houses & top, self.opp_houses & top
        mobility = (nonzero & own_top).bit_count() - (nonzero & opp_top).bit_count()
        weak = nonzero ^ three_up
        vulnerable = (weak & opp_top).bit_count() - (weak & own_top).bit_count()
        return store_weight * store + side_weight * side + mobility_weight * mobility + vulnerable_weight * vulnerable

    def best_leaf(self, position: OwarePosition, beta: float) -> tuple[float, Move | None, int]:
        best, best_move, leaves = -float("inf"), None, 0
        for move, child, _, final in self.children(position):
            if final is None:
                leaves += 1
                value = -self.evaluate(child)
            else:
                value = final
            if value > best:
                best, best_move = value, move
                if value >= beta:
                    break
        return best, best_move, leaves

    def make_run(self, table: TranspositionTable, budget: Any, poll: int) -> "OwareRun | None":
        """The specialised search for ``ai.search.PVSEngine``, or None when the weights need float scores."""
        return OwareRun(self, table, budget, poll) if self.integer_weights() is not None else None


class OwareRun:
    """One PVS search on packed Oware positions (the interface of ``ai.search._Run``).

    Children are ordered: the table's move, then by the static evaluation of the position each leads to
    (captures score their seeds there).  The line's boards live in two sets, one per player's frame, so a
    child is tested for repetition without turning it round; see the module docstring for what the table
    stores when a repetition or the no-capture limit was met below a node.
    """

    def __init__(self, kernel: OwareKernel, table: TranspositionTable, budget: Any, poll: int) -> None:
        self.kernel = kernel
        self.table = table
        self.budget = budget
        self.scale = kernel.integer_weights()[0]
        self.previous_best: Move | None = None
        self.partial_move: Move | None = None
        self.partial_score = 0.0
        self.partial_depth = 0
        """The iteration ``partial_move`` belongs to: the best move among the root moves searched so far."""
        self.lines: tuple[set[int], set[int]] = (set(), set())
        self._search, self._counts = self._build(poll)

    @property
    def nodes(self) -> int:
        return self._counts()[0]

    def root(self, root: OwarePosition, depth: int) -> tuple[float, Move, bool]:
        """Search the root to ``depth`` with PVS, the previous iteration's best move first."""
        kernel, search, scale = self.kernel, self._search, self.scale
        board, since_capture, seen = root
        mine, theirs = self.lines
        mine.clear()
        theirs.clear()
        if kernel.repetition:
            mine.update(seen)
            mine.add(board)
            theirs.update(kernel.flip(x) for x in seen)
            theirs.add(kernel.flip(board))
        _, horizon_before, path_before = self._counts()
        children = kernel.children(root)
        previous = self.previous_best
        children.sort(key=lambda c: c[0] != previous)
        alpha, beta = -INFINITY, INFINITY
        best, best_move = -INFINITY, children[0][0]
        first = True
        for move, child, _, final in children:
            if final is not None:
                value = int(final * scale)
            else:
                child_board, counter, _ = child
                if first:
                    value = -search(child_board, depth - 1, -beta, -alpha, 1, counter)
                else:
                    value = -search(child_board, depth - 1, -alpha - 1, -alpha, 1, counter)
                    if alpha < value < beta:
                        self._note_partial(move, value, depth)  # proven better already, should the re-search abort
                        value = -search(child_board, depth - 1, -beta, -alpha, 1, counter)
            first = False
            if value > best:
                best, best_move = value, move
                alpha = max(alpha, value)
                self._note_partial(move, value, depth)
        _, horizon, path = self._counts()
        self.previous_best = best_move
        if path == path_before:
            self.table.entries[board] = pack_entry(depth, 0, best, best_move, horizon == horizon_before)
        return best / scale, best_move, horizon == horizon_before and path == path_before

    def _note_partial(self, move: Move, value: int, depth: int) -> None:
        """Remember the best root move proven so far in this iteration (used if the iteration is cut short)."""
        self.partial_move, self.partial_score, self.partial_depth = move, value / self.scale, depth

    def principal_variation(self, root: OwarePosition, move: Move, depth: int) -> tuple:
        """The best line, read from the table's moves (at most ``depth`` moves)."""
        kernel, entries = self.kernel, self.table.entries
        line, position = [move], root
        while len(line) < depth:
            child = next((c[1] for c in kernel.children(position) if c[0] == line[-1]), None)
            entry = entries.get(child[0]) if child is not None else None
            if entry is None or entry & 31 == NO_MOVE:
                break
            line.append(entry & 31)
            position = child
        return tuple(line)

    def _build(self, poll: int):
        """The recursive search as a closure over local constants."""
        k = self.kernel
        M, shifts, total, half, low_half = k.mask, k.shifts, k.total, k.half, k.low_half
        OWN, OPP = k.own_houses, k.opp_houses
        SS, OS = k.store_shift, k.opp_store_shift
        MOD = M
        LOW, LOW2, TOP = k.low, k.low_minus_two, k.top
        OWN_TOP, OPP_TOP = OWN & TOP, OPP & TOP
        HOUSE_TOP = OWN_TOP | OPP_TOP
        scale, WS, WD, WM, WV = k.integer_weights()
        SLAM = k.slam_captures
        LIMIT = k.limit
        REPETITION = k.repetition
        win = int(WIN) * scale
        FINAL = {m: (win if m > 0 else -win if m < 0 else 0) + m * scale for m in range(-total, total + 1)}
        MOVES = tuple((h, shifts[h], k.deltas[h], k.lasts[h], HOUSES - h) for h in range(HOUSES))
        FEED = tuple((shifts[HOUSES + 1 + h], HOUSES - h) for h in range(HOUSES))  # opponent's house, seeds needed
        FIELD_SHIFT = shifts
        POSITION_BITS = (2 * HOUSES + 2) * k.bits
        POSITION = (1 << POSITION_BITS) - 1
        PRIORITY = POSITION_BITS + 4
        TABLE_MOVE = 1 << 40
        OFFSET = 1 << 38
        entries = self.table.entries
        capacity = self.table.capacity
        get = entries.get
        budget = self.budget
        lines = self.lines
        nodes = 0
        horizon = 0  # heuristic leaves met
        path = 0  # repetitions and no-capture-limit endings met (path-dependent scores)
        next_poll = poll

        def search(p: int, depth: int, alpha: int, beta: int, parity: int, counter: int) -> int:
            """Negamax value of board ``p`` (mover's frame) for the mover; ``parity`` 0 when the root's mover
            moves, ``counter`` the moves since the last capture."""
            nonlocal nodes, horizon, path, next_poll
            nodes += 1
            if nodes >= next_poll:
                next_poll = nodes + budget.poll(nodes)
            if depth <= 0:
                horizon += 1
                nz = (((p & LOW) + LOW) | p) & HOUSE_TOP
                e = WS * (((p >> SS) & M) - (p >> OS)) + WM * ((nz ^ OPP_TOP).bit_count() - HOUSES)
                if WD:
                    e += WD * ((p & OWN) % MOD - (p & OPP) % MOD)
                if WV:
                    weak = nz ^ ((((p & LOW) + LOW2) | p) & TOP)
                    e += WV * ((weak & OPP_TOP).bit_count() - (weak & OWN_TOP).bit_count())
                return e
            if depth > 1:
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
            path_before = path
            line = lines[parity]
            starving = not p & OPP
            best = -INFINITY
            best_move = NO_MOVE
            children = [] if depth > 1 else None
            leaves = 0
            for h, shift, deltas, lasts, reach in MOVES:
                s = (p >> shift) & M
                if not s or (starving and s < reach):
                    continue
                q = p + deltas[s]
                field = lasts[s]
                captured = 0
                if field > HOUSES:
                    x = q
                    while field > HOUSES:
                        count = (x >> FIELD_SHIFT[field]) & M
                        if count != 2 and count != 3:
                            break
                        x -= count << FIELD_SHIFT[field]
                        captured += count
                        field -= 1
                    if captured:
                        if x & OPP or SLAM:
                            q = x + (captured << SS)
                        else:
                            captured = 0
                # The end rules, in the rules' order of precedence (see OwareKernel.ending).
                v = None
                if captured:
                    own_store = (q >> SS) & M
                    if 2 * own_store > total or (2 * own_store == total and 2 * (q >> OS) == total):
                        v = FINAL[own_store - (q >> OS)]
                elif REPETITION and q in line:
                    path += 1
                    v = FINAL[((q >> SS) & M) + (q & OWN) % MOD - (q >> OS) - (q & OPP) % MOD]
                elif counter + 1 >= LIMIT:
                    path += 1
                    v = FINAL[((q >> SS) & M) - (q >> OS)]
                if v is None:
                    if not q & OWN:
                        for feed_shift, needed in FEED:
                            if (q >> feed_shift) & M >= needed:
                                break
                        else:
                            v = FINAL[((q >> SS) & M) - (q >> OS) - (q & OPP) % MOD]
                    elif not q & OPP:
                        v = FINAL[((q >> SS) & M) + (q & OWN) % MOD - (q >> OS)]
                if v is None:
                    # Own non-empty houses minus the opponent's is (nz ^ OPP_TOP).bit_count() - HOUSES; the
                    # terms whose weight is 0 (the tuned default's side and vulnerable) are skipped.
                    nz = (((q & LOW) + LOW) | q) & HOUSE_TOP
                    e = WS * (((q >> SS) & M) - (q >> OS)) + WM * ((nz ^ OPP_TOP).bit_count() - HOUSES)
                    if WD:
                        e += WD * ((q & OWN) % MOD - (q & OPP) % MOD)
                    if WV:
                        weak = nz ^ ((((q & LOW) + LOW2) | q) & TOP)
                        e += WV * ((weak & OPP_TOP).bit_count() - (weak & OWN_TOP).bit_count())
                    if children is not None:
                        priority = OFFSET + e
                        if h == table_move:
                            priority |= TABLE_MOVE
                        children.append((priority << PRIORITY) | ((h if captured else h | 8) << POSITION_BITS) | (q >> half) | ((q & low_half) << half))
                        continue
                    leaves += 1
                    v = e
                if v > best:
                    best = v
                    best_move = h
                    if v >= beta:
                        break
            else:
                if children:
                    a = best if best > alpha else alpha
                    children.sort(reverse=True)
                    first = True
                    d1 = depth - 1
                    other = parity ^ 1
                    if REPETITION:
                        line.add(p)
                        lines[other].add((p >> half) | ((p & low_half) << half))
                    for code in children:
                        c = code & POSITION
                        next_counter = counter + 1 if code >> (POSITION_BITS + 3) & 1 else 0
                        if first:
                            v = -search(c, d1, -beta, -a, other, next_counter)
                        else:
                            v = -search(c, d1, -a - 1, -a, other, next_counter)
                            if a < v < beta:
                                v = -search(c, d1, -beta, -a, other, next_counter)
                        first = False
                        if v > best:
                            best = v
                            best_move = (code >> POSITION_BITS) & 7
                            if v > a:
                                a = v
                                if v >= beta:
                                    break
                    if REPETITION:
                        line.discard(p)
                        lines[other].discard((p >> half) | ((p & low_half) << half))
            if depth == 1:
                nodes += leaves
                horizon += leaves
                return best
            if path != path_before:  # a path-dependent score below: keep only the move
                if entry is not None or len(entries) < capacity:
                    entries[p] = best_move
                return best
            flag = 64 if best <= alpha else 32 if best >= beta else 0
            if horizon == horizon_before:
                flag |= 128
            if entry is not None or len(entries) < capacity:
                entries[p] = (best << 16) | (depth << 8) | flag | best_move
            return best

        def counts() -> tuple[int, int, int]:
            return nodes, horizon, path

        return search, counts
