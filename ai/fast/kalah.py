"""A Kalah search kernel on positions packed into one int, seen from the side to move.

The ring of ``2n + 2`` counts (own pits 0..n-1, own store, the opponent's pits, the opponent's store) is
packed ``B`` bits per field, field 0 lowest, where ``2^B - 1`` exceeds the number of seeds so no field can
overflow.  The packed int is its own transposition key and is colour-free: mirror positions share an entry.

A move is a table look-up: sowing ``s`` seeds from pit ``i`` is ``p - (s << shift[i]) + ADD[i][s]``, where
``ADD[i][s]`` holds a 1 (or more, for laps) in every field the seeds reach, and ``LAST[i][s]`` says where the
last seed fell.  Seeing the board from the other side is a rotation by ``n + 1`` fields.  The evaluator's
terms are computed with masks: the seeds on a side are the packed side modulo ``2^B - 1`` (a digit sum), and
the non-empty pits are counted by folding each field's bits onto its lowest bit and counting set bits.

It is the pure-Python kernel: the reference the compiled one (``ai.core``, ``kalah.pxi``) is tested against,
and the fallback where the compiled core is not built; ``ai.search._Run`` searches it.

``tests/ai/test_ai_fast.py`` checks children, final scores and evaluations against ``rules.kalah`` and
``ai.evaluators.sowing`` on random positions; ``tests/ai/test_ai_search.py`` checks that the search returns
exactly the plain minimax value at a fixed depth.
"""
from __future__ import annotations

from ai.evaluators import WIN, Evaluator, ZeroEvaluator
from ai.evaluators.sowing import SowingEvaluator
from rules import Game
from rules.kalah import Kalah, KalahState


class KalahKernel:
    """The packed-int kernel of one Kalah variant and a sowing (or zero) evaluator."""

    @staticmethod
    def supports(game: Game, evaluator: Evaluator, margins: bool = False) -> bool:
        return isinstance(game, Kalah) and isinstance(evaluator, (SowingEvaluator, ZeroEvaluator))

    def __init__(self, game: Kalah, evaluator: Evaluator, margins: bool = False) -> None:
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
        self.side_weight: float | None = None
        """The sowing evaluator's weights (side_weight None: the zero evaluator, which scores nothing)."""
        self.mobility_weight = self.extra_weight = self.endgame_weight = 0.0
        if isinstance(evaluator, SowingEvaluator):
            self.side_weight, self.mobility_weight = evaluator.side, evaluator.mobility
            self.extra_weight, self.endgame_weight = evaluator.extra_turns, evaluator.endgame

    # -- positions --------------------------------------------------------------------------------------------
    def accepts(self, state: KalahState) -> bool:
        """Whether ``state`` fits the packing: its pits and stores hold exactly the variant's seeds."""
        return sum(self.game.key(state)) == self.total

    def encode(self, state: KalahState) -> int:
        ring = self.game.key(state)
        return sum(count << shift for count, shift in zip(ring, self.shifts))

    def decode(self, position: int, to_move: int = 0) -> KalahState:
        """The rules state of a packed position, given who is to move (for tests and principal variations)."""
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
        value = store + self.side_weight * side + self.mobility_weight * mobility
        if self.extra_weight:  # pits whose seeds end in their owner's store, as in SowingEvaluator
            cycle, extra = 2 * n + 1, 0
            for i in range(n):
                seeds = (p >> shifts[i]) & mask
                if seeds and (i + seeds) % cycle == n:
                    extra += 1
                seeds = (p >> shifts[n + 1 + i]) & mask
                if seeds and (i + seeds) % cycle == n:
                    extra -= 1
            value += self.extra_weight * extra
        if self.endgame_weight:  # the side term again, scaled by the share of the seeds in the stores
            stores = ((p >> shifts[n]) & mask) + (p >> shifts[2 * n + 1])
            value += self.endgame_weight * (side * stores) / self.total
        return value


def _first_descending(pair: tuple) -> int:
    return -pair[0]
