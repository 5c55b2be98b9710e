"""A Hus search kernel on packed ints: each lap of sowing is one table look-up and one addition.

*Positions.*  A ring of 32 pits is one int of 32 one-byte fields.  The fields are laid out so a column lines
up: inner pit ``k`` (16..31) is field ``k`` and outer pit ``j`` (0..15) is field ``15 - j``, so the outer pit
behind inner pit ``k`` (pit ``31 - k``) is exactly 16 fields below it.  A position is one int::

    own ring | opponent's ring << 256 | ply << 512

seen from the side to move, with ``ply = 2 * turn + to_move`` (moves played since the start).  The ply
decides the first-turn rule (no capture while ``ply < 2``) and the turn-limit draw, so the kernel is exact
to the rules; the int is its own transposition key.

*A move.*  Sowing ``h`` seeds from pit ``i`` adds ``ADD[i][h]`` (a 1 in each field the seeds reach, more for
whole rounds) and ends in pit ``(i + h) % 32``; the end pit's field is then read to decide: 1 (it was empty)
ends the move, a capture subtracts the opponent's two fields, a relay its own.  A move that needs more than
the rules' ``lap_limit`` laps is not legal and is left out.  Fields are bytes, so a position holds at most
254 seeds (the game has 96); ``encode`` refuses more.

*Ends.*  A child whose mover (the opponent) has no legal move is a finished game, scored exactly as
``ai.evaluators.final_score`` (or ``final_margin``) would.  Whether a legal move exists is usually settled
at once: a pit of 2..31 seeds whose last seed lands in an empty pit makes a one-lap move; only when no such
pit exists are moves played out against the lap limit.

*Evaluation.*  ``ai.evaluators.hus.HusEvaluator``'s terms with masks: the seeds on a side are the packed
ring modulo 255 (a byte sum), playable pits come from ``bytes.count``, the non-empty inner pits from folding
each field onto its lowest bit, and the exposed columns' seeds are the ring masked by those fields (inner)
and the same mask moved 16 fields down (outer).

``tests/ai/test_hus_player.py`` checks children, move order, ends, the lap limit and evaluations against
``rules.hus`` and ``ai.fast.GameKernel`` on random positions.
"""
from __future__ import annotations

from ai.base import EngineError
from ai.evaluators import WIN, Evaluator, ZeroEvaluator
from ai.evaluators.hus import HusEvaluator
from rules import Game
from rules.hus import RING, WIDTH, Hus, HusState

BITS = 8
MASK = (1 << BITS) - 1
SIDE_BITS = RING * BITS
SIDE = (1 << SIDE_BITS) - 1
PLY_SHIFT = 2 * SIDE_BITS
MAX_SEEDS = MASK - 1
"""Seeds a position may hold: a side's byte sum must stay below 255 for the modulo trick."""

FIELD = tuple(WIDTH - 1 - pit if pit < WIDTH else pit for pit in range(RING))
"""The field of each pit (outer pits reversed so each column's inner and outer fields are 16 apart)."""
SHIFT = tuple(BITS * FIELD[pit] for pit in range(RING))
PIT_OF_FIELD = tuple(FIELD.index(field) for field in range(RING))

ADD = tuple(
    tuple(sum(1 << SHIFT[(pit + step) % RING] for step in range(1, seeds + 1)) for seeds in range(MAX_SEEDS + 1))
    for pit in range(RING)
)
"""``ADD[pit][seeds]``: what sowing ``seeds`` seeds from the pit after ``pit`` on adds to a ring."""
CAPTURE_INNER = tuple(BITS * FIELD[47 - end] if end >= WIDTH else 0 for end in range(RING))
"""The shift of the opponent's inner pit ``47 - end`` facing the mover's inner pit ``end``."""
CAPTURE_OUTER = tuple(BITS * FIELD[end - WIDTH] if end >= WIDTH else 0 for end in range(RING))
"""The shift of the opponent's outer pit ``end - 16`` behind it."""
QUICK_END = tuple(
    tuple(FIELD[(PIT_OF_FIELD[field] + seeds) % RING] if 2 <= seeds < RING else RING for seeds in range(MASK + 1))
    for field in range(RING)
)
"""``QUICK_END[field][seeds]``: the field where a first lap of 2..31 seeds ends (32, the sentinel byte, for
other counts); if it is empty, the move ends after one lap and is certainly legal."""
SENTINEL = 1 << SIDE_BITS

HIGH_BITS = sum((MASK - 1) << (BITS * field) for field in range(RING))
"""Every bit of a ring but each field's lowest: ``ring & HIGH_BITS`` is 0 when no pit holds 2 seeds."""
INNER_LOW_BITS = sum(1 << (BITS * field) for field in range(WIDTH, RING))
OUTER_SHIFT = BITS * WIDTH


class HusKernel:
    """The packed-int kernel of one Hus variant with a ``HusEvaluator`` (or the zero evaluator)."""

    @staticmethod
    def supports(game: Game, evaluator: Evaluator, margins: bool = False) -> bool:
        return isinstance(game, Hus) and isinstance(evaluator, (HusEvaluator, ZeroEvaluator))

    def __init__(self, game: Hus, evaluator: Evaluator, margins: bool = False) -> None:
        self.game = game
        self.evaluator = evaluator
        self.margins = margins
        self.lap_limit: int = game.lap_limit
        self.ply_limit: int = 2 * game.turn_limit
        """A position at this ply or later is a turn-limit draw (unless its mover has no move)."""
        if isinstance(evaluator, HusEvaluator):
            self.weights: tuple[float, float, float] | None = (evaluator.mobility, evaluator.exposure,
                                                               evaluator.inner)
        else:
            self.weights = None

    # -- positions --------------------------------------------------------------------------------------------
    def accepts(self, state: HusState) -> bool:
        """Whether ``state`` fits the packing (at most ``MAX_SEEDS`` seeds on the board)."""
        return sum(state.pits) <= MAX_SEEDS

    def encode(self, state: HusState) -> int:
        pits = state.pits
        if sum(pits) > MAX_SEEDS:
            raise EngineError(f"the fast Hus kernel holds at most {MAX_SEEDS} seeds, this position has "
                              f"{sum(pits)}; use the rules kernel (pvs:fast=false)")
        player = state.to_move
        own, other = pits[RING * player: RING * player + RING], pits[RING * (1 - player): RING * (2 - player)]
        ply = 2 * state.turn + player
        return pack(own) | pack(other) << SIDE_BITS | ply << PLY_SHIFT

    def decode(self, position: int) -> HusState:
        """The rules state of a position (for tests and principal variations)."""
        ply = position >> PLY_SHIFT
        own, other = unpack(position & SIDE), unpack((position >> SIDE_BITS) & SIDE)
        player = ply & 1
        return HusState(own + other if player == 0 else other + own, player, ply >> 1)

    def key(self, position: int) -> int:
        return position

    # -- moves ------------------------------------------------------------------------------------------------
    def play(self, own: int, other: int, pit: int, can_capture: bool) -> tuple[int, int] | None:
        """The two rings after the mover (ring ``own``) sows ``pit``; None if the move breaks the lap limit."""
        shift = SHIFT[pit]
        hand = (own >> shift) & MASK
        own -= hand << shift
        laps = 0
        limit = self.lap_limit
        while True:
            laps += 1
            if laps > limit:
                return None
            own += ADD[pit][hand]
            pit = (pit + hand) & 31
            shift = SHIFT[pit]
            count = (own >> shift) & MASK
            if count == 1:
                return own, other
            if can_capture and pit >= WIDTH:
                inner = CAPTURE_INNER[pit]
                taken = (other >> inner) & MASK
                if taken:
                    outer = CAPTURE_OUTER[pit]
                    behind = (other >> outer) & MASK
                    other -= (taken << inner) + (behind << outer)
                    hand = taken + behind
                    continue
            own -= count << shift
            hand = count

    def has_move(self, own: int, other: int, can_capture: bool) -> bool:
        """Whether the player with ring ``own`` has a legal move (a pit of 2+ seeds that ends in time)."""
        if not own & HIGH_BITS:
            return False
        if has_quick_move(own):
            return True
        play = self.play
        counts = own.to_bytes(32, "little")
        return any(play(own, other, PIT_OF_FIELD[field], can_capture) is not None
                   for field, seeds in enumerate(counts) if seeds > 1)

    def _final(self, mine: int, theirs: int, ply: int, alive: bool) -> float:
        """The exact score, for the player who just moved, of a finished child where the opponent has ring
        ``theirs`` and is to move at ``ply`` (``alive``: whether they have a legal move; if they have, the game
        ended at the turn limit).  Called only for a child that ends the game."""
        if not alive:
            margin = (mine % MASK) - (theirs % MASK)
            if self.margins:
                return float(margin)
            return WIN + abs(margin)
        return float((mine % MASK) - (theirs % MASK))  # ply >= ply_limit: a draw by the turn limit

    def _expand(self, p: int, beta: float | None) -> tuple[list[tuple], float, int | None, int]:
        """Play every legal move of ``p`` in the rules' order (pit 0 to 31).

        With ``beta`` None: the children, ``(move, child, False, final)``.  With a number: the depth-1 search
        instead, each child scored from the mover's side (the evaluation is exactly antisymmetric, so no board
        is turned round), stopping at the first that reaches ``beta``.  One loop serves both because it is
        the hot path: the sowing is inlined, and whether the opponent can move is worked out once for all
        the moves that capture nothing (their ring is then unchanged).
        """
        own = p & SIDE
        other = (p >> SIDE_BITS) & SIDE
        ply = p >> PLY_SHIFT
        can_capture = ply >= 2
        child_ply = ply + 1
        ply_bits = child_ply << PLY_SHIFT
        ply_limit = self.ply_limit
        limit = self.lap_limit
        counts = own.to_bytes(32, "little")
        has_move = self.has_move
        final = self._final
        score_of = self.score
        other_quick = None
        children: list[tuple] = []
        best, best_move, leaves = -float("inf"), None, 0
        for start in range(RING):
            shift = SHIFT[start]
            hand = counts[FIELD[start]]
            if hand < 2:
                continue
            mine = own - (hand << shift)
            theirs = other
            pit = start
            laps = 0
            while True:
                laps += 1
                if laps > limit:
                    break
                mine += ADD[pit][hand]
                pit = (pit + hand) & 31
                shift = SHIFT[pit]
                count = (mine >> shift) & MASK
                if count == 1:
                    break
                if can_capture and pit >= WIDTH:
                    inner = CAPTURE_INNER[pit]
                    taken = (theirs >> inner) & MASK
                    if taken:
                        outer = CAPTURE_OUTER[pit]
                        behind = (theirs >> outer) & MASK
                        theirs -= (taken << inner) + (behind << outer)
                        hand = taken + behind
                        continue
                mine -= count << shift
                hand = count
            if laps > limit:
                continue
            if theirs == other:
                if other_quick is None:
                    other_quick = has_quick_move(other)
                alive = other_quick or has_move(theirs, mine, child_ply >= 2)
            else:
                alive = has_move(theirs, mine, child_ply >= 2)
            if alive and child_ply < ply_limit:
                if beta is None:
                    children.append((start, theirs | mine << SIDE_BITS | ply_bits, False, None))
                    continue
                leaves += 1
                value = score_of(mine, theirs)
            else:
                value = final(mine, theirs, child_ply, alive)
                if beta is None:
                    children.append((start, None, False, value))
                    continue
            if value > best:
                best, best_move = value, start
                if value >= beta:
                    break
        return children, best, best_move, leaves

    def children(self, p: int) -> list[tuple]:
        """``(move, child, False, final)`` for every legal move in the rules' order (pit 0 to 31)."""
        return self._expand(p, None)[0]

    def best_leaf(self, p: int, beta: float) -> tuple[float, int | None, int]:
        """A depth-1 search: (best child score, its move, children evaluated), stopping at ``beta``."""
        _, best, best_move, leaves = self._expand(p, beta)
        return best, best_move, leaves

    # -- evaluation -------------------------------------------------------------------------------------------
    def evaluate(self, p: int) -> float:
        return self.score(p & SIDE, (p >> SIDE_BITS) & SIDE)

    def score(self, mine: int, theirs: int) -> float:
        """The evaluator's score of the rings ``mine`` (the side it is scored for) and ``theirs``."""
        weights = self.weights
        if weights is None:
            return 0.0
        mobility, exposure, inner = weights
        value: float = mine % MASK - theirs % MASK
        if mobility:
            value += mobility * (_playable(mine) - _playable(theirs))
        if exposure:
            value += exposure * (_exposed(mine) - _exposed(theirs))
        if inner:
            value += inner * ((mine >> OUTER_SHIFT) % MASK - (theirs >> OUTER_SHIFT) % MASK)
        return value + 0.0


def pack(ring: tuple[int, ...]) -> int:
    """A ring of 32 counts (in pit order) as a packed int."""
    return sum(count << SHIFT[pit] for pit, count in enumerate(ring))


def unpack(packed: int) -> tuple[int, ...]:
    """The 32 counts of a packed ring, in pit order."""
    return tuple((packed >> SHIFT[pit]) & MASK for pit in range(RING))


def _playable(ring: int) -> int:
    """Pits of 2 or more seeds."""
    counts = ring.to_bytes(32, "little")
    return RING - counts.count(0) - counts.count(1)


def has_quick_move(ring: int) -> bool:
    """Whether the ring has a pit of 2..31 seeds whose first lap ends in an empty pit (a one-lap move, legal
    under any lap limit).  A byte past the ring reads as non-empty, which answers the pits that cannot
    qualify (see ``QUICK_END``)."""
    counts = (ring | SENTINEL).to_bytes(33, "little")
    for seeds, ends in zip(counts, QUICK_END):
        if not counts[ends[seeds]]:
            return True
    return False


def _exposed(ring: int) -> int:
    """Seeds in the columns whose inner pit is not empty (inner and outer pit)."""
    folded = ring | ring >> 1
    folded |= folded >> 2
    folded |= folded >> 4
    columns = (folded & INNER_LOW_BITS) * MASK
    return (ring & columns) % MASK + (ring & (columns >> OUTER_SHIFT)) % MASK
