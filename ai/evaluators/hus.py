"""Hus evaluators, from the side to move.

Hus has no stores: a player's wealth is the seeds in their 32 pits, seeds only ever change sides by capture,
and a player with no pit of 2 or more seeds (no move) loses.  The terms, each "mine minus the opponent's":

- ``seeds``: the seeds on each side (weight 1, the unit of every score);
- ``mobility``: pits holding 2 or more seeds (the moves a player has; none left loses the game);
- ``exposure``: seeds a capture could take, i.e. the seeds of every column (an inner pit ``k`` and the outer
  pit ``31 - k`` behind it) whose inner pit is not empty -- only such columns can be captured;
- ``inner``: seeds in the inner row (pits 16..31), where a lap must end to capture.

Every term is a difference, so a score is exactly antisymmetric (``evaluate`` of the mirrored position is its
negation, to the last bit): the fast kernel (``ai.fast.hus``) scores a child from the mover's side without
turning the board round, and computes the same terms with masks on packed ints.  Keep the formula in
``combine`` the one place both use.

The default weights were set by tournament (``python tools/tune_hus_eval.py``, pvs at depth 3, figures in
BENCHMARKS.md): seeds kept back in the outer row pay (``inner = -0.25`` scored 65.6% over 96 games against
the same evaluator without it), while weighting the exposed columns either way did not.  ``seeds`` is the
plain seed count the course's baseline players use.
"""
from __future__ import annotations

from dataclasses import dataclass

from rules import Game
from rules.hus import HusState

RING = 32
INNER = range(16, 32)


@dataclass(frozen=True)
class HusEvaluator:
    """Seed difference plus weighted differences of playable pits, capturable seeds and inner-row seeds."""

    name: str
    mobility: float = 0.0
    exposure: float = 0.0
    inner: float = 0.0

    def combine(self, seeds: int, mobility: int, exposure: int, inner: int) -> float:
        """The score from the four term differences (the one formula the fast kernel shares)."""
        return ((seeds + self.mobility * mobility) + self.exposure * exposure) + self.inner * inner

    def evaluate(self, game: Game, state: HusState) -> float:
        pits = state.pits
        if game.to_move(state) == 0:
            own, other = pits[:RING], pits[RING:]
        else:
            own, other = pits[RING:], pits[:RING]
        return self.combine(*terms(own, other))


def _side_terms(ring: tuple[int, ...]) -> tuple[int, int, int, int]:
    """(seeds, playable pits, capturable seeds, inner-row seeds) of one player's ring."""
    playable = RING - ring.count(0) - ring.count(1)
    exposed = sum(ring[k] + ring[31 - k] for k in INNER if ring[k])
    inner = sum(ring[16:])
    return sum(ring), playable, exposed, inner


def terms(own: tuple[int, ...], other: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The four term differences, the side to move's ring ``own`` minus the opponent's ``other``."""
    mine, theirs = _side_terms(own), _side_terms(other)
    return tuple(a - b for a, b in zip(mine, theirs))  # type: ignore[return-value]


HUS_MOBILITY = 0.5
HUS_EXPOSURE = 0.0
HUS_INNER = -0.25
"""Weights of Hus's default evaluator (see the module docstring for how they were chosen)."""


def hus_default(game: Game) -> HusEvaluator:
    return HusEvaluator("default", mobility=HUS_MOBILITY, exposure=HUS_EXPOSURE, inner=HUS_INNER)


def seeds_only(game: Game) -> HusEvaluator:
    return HusEvaluator("seeds")
