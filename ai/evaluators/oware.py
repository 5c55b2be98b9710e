"""Oware evaluators: captured-seed difference plus board terms, from the side to move.

Seeds on the board belong to nobody until captured (except when the game ends by repetition or because a
player cannot be fed, when each side keeps its own), so the board terms are small corrections::

    (own score house - opponent's)
    + side       * (seeds on own side - seeds on the opponent's side)
    + mobility   * (own non-empty houses - opponent's)
    + vulnerable * (opponent's houses holding 1 or 2 seeds - own such houses)
    + banked     * (seeds on own side - seeds on the opponent's side), only when at most ``banked_seeds``
                   seeds are left on the board

The ``banked`` term began as the late game's view of the board: with few seeds left the game often ends by
repetition (or because a player cannot be fed), and then each side keeps the seeds on its own side, so they
are nearly banked.  (At the no-capture limit they count for nobody; the search scores every ending exactly
as ``rules.oware`` does, this term only guides the quiet positions before one.)  Moved up step by step, each
step by SPRT, it now counts over the whole game, as ``side`` would: the tournament that set ``side`` to 0 played
at depth 5 and 7 without tables, the step that passed played at 0.05 and 0.25 s a move with the 0..20 tables.

A house holding 1 or 2 seeds is what a capture needs (the last seed makes it 2 or 3).  The default weights
(but ``banked``, 0.125 over the whole game, and mobility, since raised to 0.75, each accepted by SPRT; see
``BANKED`` and ``OWARE_WEIGHTS``) come from the tournament ``tools/tune_eval.py oware`` (BENCHMARKS.md,
"Evaluator weights"): mobility 0.5 and nothing else won 79.2% of 24 games against the first guess (0.25 each)
at depth 5, and 62.5% / 60.9% of 32 more at depth 7 / 0.1 s per move; every positive ``vulnerable`` weight did
worse, so it is 0 (the term stays for tuning).
"""
from __future__ import annotations

from dataclasses import dataclass

from rules import Game
from rules.sowing import TwoRowPosition


@dataclass(frozen=True)
class OwareEvaluator:
    """Score-house difference plus weighted seeds-on-side, mobility and vulnerability differences."""

    name: str
    side: float = 0.0
    mobility: float = 0.0
    vulnerable: float = 0.0
    banked: float = 0.0
    banked_seeds: int = 0
    table_leaves: bool = False
    """With endgame tables in play (the compiled kernel), value a board they hold at a leaf by them and search on
    through it, instead of ending the line there: repetitions past that board are then seen.  No effect here."""

    def evaluate(self, game: Game, state: TwoRowPosition) -> float:
        pits = state.pits
        south_store, north_store = state.stores
        south, north = pits[:6], pits[6:]
        if game.to_move(state) == 0:
            own, other, store = south, north, south_store - north_store
        else:
            own, other, store = north, south, north_store - south_store
        side = sum(own) - sum(other)
        mobility = other.count(0) - own.count(0)
        weak = (other.count(1) + other.count(2)) - (own.count(1) + own.count(2))
        value = store + self.side * side + self.mobility * mobility + self.vulnerable * weak
        if self.banked and sum(pits) <= self.banked_seeds:
            value += self.banked * side
        return value


OWARE_WEIGHTS = (0.0, 0.75, 0.0)
"""(side, mobility, vulnerable) of Oware's default evaluator: tuned by tournament (the module docstring), then
mobility 0.5 -> 0.75 by SPRT against the default before it (``mobility-50``), both with the whole-game ``banked``
term and the 0..20 tables: H1, +59 Elo [+19, +101] over 172 games at 0.05 s a move and +75 [+29, +124] over 122
at 0.25 s. BENCHMARKS.md, "Oware: repetition endings"."""
EARLIER_MOBILITY = 0.5
"""The mobility weight of every earlier default, which the SPRT references below keep."""


BANKED = (0.125, 48)
"""(banked, banked_seeds) of the default evaluator: own-side seeds worth an eighth of a captured seed, whatever the
number of seeds on the board (48 is all of them). Accepted by SPRT against the evaluator without it, from 20 seeds
down (H1, +22 Elo [+6, +38] over 1,292 games at 0.05 s a move with the 0..14 tables; weight 0.5 lost, -170 Elo).
With the 0..20 tables the Strongest level now grows to, which answer every board of 20 seeds or fewer exactly and
so left the term almost nothing to judge, it was moved up in three steps, each by SPRT against the one before: from
28 seeds down against from 20 (``banked-20``), H1, +68 Elo [+24, +114] over 196 games at 0.05 s a move and +61
[+20, +104] over 126 at 0.25 s; from 36 down against from 28 (``banked-28``), H1, +48 [+13, +84] over 264 games at
0.05 s and +89 [+34, +148] over 72 at 0.25 s (weight 0.25 from 28 down: no better than 0.125, +4 [-44, +52] over 99
games, stopped); over the whole game against from 36 down (``banked-36``), H1, +26 [+6, +47] over 948 games at
0.05 s and +41 [+9, +72] over 336 at 0.25 s. BENCHMARKS.md, "Oware: repetition endings"."""

BANKED_20 = (0.125, 20)
"""An earlier default's ``banked`` term (``eval=banked-20``): an SPRT's reference."""
BANKED_28 = (0.125, 28)
"""An earlier default's ``banked`` term (``eval=banked-28``): an SPRT's reference."""
BANKED_36 = (0.125, 36)
"""An earlier default's ``banked`` term (``eval=banked-36``): an SPRT's reference."""


def _weighted(name: str, banked: tuple[float, int] = (0.0, 0), table_leaves: bool = False,
              mobility: float = OWARE_WEIGHTS[1]) -> OwareEvaluator:
    """The default weights (``OWARE_WEIGHTS``) with a ``banked`` term (weight, from how many seeds down); an earlier
    default's reference passes its own ``mobility``."""
    side, _, vulnerable = OWARE_WEIGHTS
    return OwareEvaluator(name, side=side, mobility=mobility, vulnerable=vulnerable, banked=banked[0],
                          banked_seeds=banked[1], table_leaves=table_leaves)


def oware_default(game: Game) -> OwareEvaluator:
    return _weighted("default", BANKED)


def oware_unbanked(game: Game) -> OwareEvaluator:
    """The default before ``banked`` (the SPRT's reference)."""
    return _weighted("unbanked", mobility=EARLIER_MOBILITY)


def oware_banked(game: Game) -> OwareEvaluator:
    return _weighted("banked", BANKED)


def oware_banked_20(game: Game) -> OwareEvaluator:
    """The default before ``banked_seeds`` went from 20 to 28 (the SPRT's reference)."""
    return _weighted("banked-20", BANKED_20, mobility=EARLIER_MOBILITY)


def oware_banked_28(game: Game) -> OwareEvaluator:
    """The default before ``banked_seeds`` went from 28 to 36 (an SPRT's reference)."""
    return _weighted("banked-28", BANKED_28, mobility=EARLIER_MOBILITY)


def oware_banked_36(game: Game) -> OwareEvaluator:
    """The default before ``banked_seeds`` went from 36 to the whole game (an SPRT's reference)."""
    return _weighted("banked-36", BANKED_36, mobility=EARLIER_MOBILITY)


def oware_table_leaves(game: Game) -> OwareEvaluator:
    """The default weights of its day with ``table_leaves``: a candidate that did not pass SPRT (BENCHMARKS.md)."""
    return _weighted("table-leaves", table_leaves=True, mobility=EARLIER_MOBILITY)


def oware_mobility_50(game: Game) -> OwareEvaluator:
    """The default before mobility went from 0.5 to 0.75 (the last SPRT's reference)."""
    return _weighted("mobility-50", BANKED, mobility=EARLIER_MOBILITY)
