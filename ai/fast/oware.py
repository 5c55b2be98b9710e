"""An Oware search kernel on positions packed into one int, seen from the side to move.

*Positions.*  Fourteen fields of ``B`` bits, field 0 lowest: the mover's houses 0..5, the mover's score
house, the opponent's houses 0..5, the opponent's score house (``2^B - 1`` exceeds the seeds in play, so no
field overflows).  Turning the board round for the opponent is a rotation by seven fields.  A sowing is one
addition of a precomputed delta per (house, seeds), laps and the skipped starting house included; a capture
walks back from the last seed's field.  The packed int leaves the history out and is the transposition key.

*History.*  The end rules need the no-capture counter and the boards seen since the last capture.  Through
the kernel protocol (tests, the root, principal variations) a position is the triple ``(board, since_capture,
seen)`` with ``seen`` in the mover's frame, so ``children`` computes exactly what the rules compute, and a
repetition inside the search ends the game there, as the rules say.  ``ai.search._Run`` keys its table by the
whole triple, so no value is reused under another history (exact, at the cost of fewer transpositions).
This is the pure-Python kernel: the reference the compiled one (``ai/core/oware.pxi``) is tested against and
the fallback where the compiled core is not built.

*Evaluation.*  ``ai.evaluators.oware.OwareEvaluator`` (and the store-only ``SowingEvaluator``) with integer
weights: houses holding 1 or 2 seeds and non-empty houses are counted with two carry tricks over all fields
at once.  ``tests/ai/test_ai_fast.py`` checks children, final scores and evaluations against ``rules.oware``.
"""
from __future__ import annotations

from ai.evaluators import WIN, Evaluator, ZeroEvaluator
from ai.evaluators.oware import OwareEvaluator
from ai.evaluators.sowing import SowingEvaluator
from ai.fast import Child, best_child
from rules import Game, Move
from rules.oware import HOUSES, RING, Oware, OwareState, sowing_path

SCALES = (1, 2, 4, 8, 10, 16, 20, 32, 64, 100)
OwarePosition = tuple  # (packed board, since_capture, seen boards in the mover's frame)


def _field(ring_index: int) -> int:
    """The field of a ring index in the mover's frame (own houses 0..5, then the opponent's from field 7)."""
    return ring_index if ring_index < HOUSES else ring_index + 1


class OwareKernel:
    """The packed-int kernel of one Oware variant and an Oware, store-only or zero evaluator."""

    @staticmethod
    def supports(game: Game, evaluator: Evaluator, margins: bool = False) -> bool:
        return (isinstance(game, Oware) and game.grand_slam != "forbidden" and not margins
                and isinstance(evaluator, (OwareEvaluator, SowingEvaluator, ZeroEvaluator)))

    def __init__(self, game: Oware, evaluator: Evaluator, margins: bool = False) -> None:
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
        self.banked = float(getattr(evaluator, "banked", 0.0))
        self.banked_seeds = int(getattr(evaluator, "banked_seeds", 0))

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
                store, side, mobility, vulnerable = (int(x) for x in scaled)
                return scale, store, side, mobility, vulnerable
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
        result: list[Child] = []
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
            child: OwarePosition
            if captured:
                child = (self.flip(q), 0, frozenset())
            else:
                history = frozenset(self.flip(x) for x in seen) | {self.flip(p)} if self.repetition else seen
                child = (self.flip(q), since_capture + 1, history)
            result.append((house, child, False, None))
        return result

    def evaluate(self, position: OwarePosition) -> float:
        scale, *weights = self.integer_weights() or (1, *self.weights)
        value = self._evaluate(position[0], weights) / scale
        if self.banked:  # OwareEvaluator's late-game term, added last as there
            p = position[0]
            own, other = (p & self.own_houses) % self.mask, (p & self.opp_houses) % self.mask
            if own + other <= self.banked_seeds:
                value += self.banked * (own - other)
        return value

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
        return best_child(self, position, beta)
