"""What the engines know of each game, registered once per game: its evaluators, its fast kernels, its time rule
and the exact helpers its analysis tries (an endgame solver, a prover).

The window's and the console's side of a game (board scene, console renderer) is registered in
``game/catalogue.py``, which reads this record for everything engine-side; the rules class is found through
``rules.game_class``; the friendly presets (Easy .. Strongest) are data, in ``ai/data/presets.yaml`` under the
game's name.  Nothing else keys a table by a game's name (a kernel's ``supports`` and the Kalah-only tools only
check which game they were given).

A game with no record here still plays: every engine searches it through the rules protocol with the ``zero``
evaluator, one second a move.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field, replace
from typing import Any

from rules import Game


@dataclass(frozen=True)
class GameSupport:
    """The engine-side facts of one game."""

    name: str
    """The rules registry's name (``rules.Game.name``)."""
    evaluators: dict[str, str] = field(default_factory=dict)
    """Evaluator name -> ``module:factory`` (a factory takes the game and returns an evaluator); ``default``
    is the one a search uses unless told otherwise.  ``zero`` exists for every game without being listed."""
    kernels: tuple[str, ...] = ()
    """Exact search kernels, fastest first, as ``module:class`` (``ai.fast.kernel_for`` takes the first that
    ``supports`` the game and evaluator; ``ai.core.*`` ones only when the compiled core is loaded)."""
    seconds_per_move: float = 1.0
    """A computer's time per move when the player sets none (the coursework and competition limits)."""
    first_move_seconds: float | None = None
    """A longer time for a player's first move (Hus competition rules: 30 s), or None."""
    time_limit: float | None = None
    """A hard limit on a computer's time per move that no setting may exceed (Magnetic Cave: 3 s), or None."""
    solver: str = ""
    """``module:class`` of an endgame solver the analysis (``ai/analysis``) tries near the end (the protocol of
    ``ai/analysis/exact.py``: ``reaches``, ``value``); empty: none."""
    prover: str = ""
    """``module:class`` of an exact prover the analysis tries on moves near the end (``reaches``, ``prover`` in
    ``ai/analysis/exact.py``); empty: none."""
    symmetry: str = ""
    """``module:function`` giving a position's key up to the rules' symmetries (``ai/analysis/symmetry.py``), so
    the analysis values mirror-image moves once and names them equal; empty: ``Game.key``."""

    def seconds(self, first_move: bool = False) -> float:
        """The time per move under this game's rule (the first move's own time when it has one)."""
        if first_move and self.first_move_seconds is not None:
            return self.first_move_seconds
        return self.seconds_per_move


CAVE_TIME_LIMIT = 3.0
"""Magnetic Cave's competition rule: 3 seconds per move, for every computer player."""

_SUPPORT: dict[str, GameSupport] = {
    support.name: support
    for support in (
        GameSupport(
            "kalah",
            {"default": "ai.evaluators.sowing:kalah_default", "store": "ai.evaluators.sowing:store_only"},
            ("ai.core.kernels:CompiledKalahKernel", "ai.fast.kalah:KalahKernel"),
            prover="ai.analysis.exact:KalahProving",
        ),
        GameSupport(
            "oware",
            {"default": "ai.evaluators.oware:oware_default", "store": "ai.evaluators.sowing:store_only",
             "banked": "ai.evaluators.oware:oware_banked", "banked-20": "ai.evaluators.oware:oware_banked_20",
             "banked-28": "ai.evaluators.oware:oware_banked_28", "banked-36": "ai.evaluators.oware:oware_banked_36",
             "mobility-50": "ai.evaluators.oware:oware_mobility_50",
             "unbanked": "ai.evaluators.oware:oware_unbanked",
             "table-leaves": "ai.evaluators.oware:oware_table_leaves"},
            ("ai.core.kernels:CompiledOwareKernel", "ai.fast.oware:OwareKernel"),
        ),
        GameSupport(
            "hus",
            {"default": "ai.evaluators.hus:hus_default", "seeds": "ai.evaluators.hus:seeds_only"},
            ("ai.core.kernels:CompiledHusKernel", "ai.fast.hus:HusKernel"),
            seconds_per_move=2.0,
            first_move_seconds=30.0,
        ),
        GameSupport(
            "magnetic-cave",
            {"default": "ai.evaluators.magnetic_cave:default_evaluator",
             "windows": "ai.evaluators.magnetic_cave:simple_evaluator",
             "novcf": "ai.evaluators.magnetic_cave:novcf_evaluator",
             "rootvcf": "ai.evaluators.magnetic_cave:rootvcf_evaluator",
             "leafvcf": "ai.evaluators.magnetic_cave:leafvcf_evaluator"},
            # Not the same children as GameKernel: CaveKernel plays forced moves at once (sound, see its docstring).
            ("ai.core.kernels:CompiledCaveKernel", "ai.fast.magnetic_cave:CaveKernel"),
            seconds_per_move=CAVE_TIME_LIMIT,
            time_limit=CAVE_TIME_LIMIT,
            solver="ai.analysis.exact:CaveEndgame",
            symmetry="ai.analysis.symmetry:cave_key",
        ),
        # Solitaire Mancala is a puzzle: its engines are the single-agent searches, which need nothing here.
        GameSupport("solitaire"),
    )
}


def support(game: Game | str) -> GameSupport:
    """The record of ``game`` (a rules object or its name); a bare record for a game registered nowhere here."""
    name = game if isinstance(game, str) else game.name
    return _SUPPORT.get(name) or GameSupport(name)


def load(path: str) -> Any:
    """The object a record names as ``module:name`` (a solver's or a prover's class)."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def register(record: GameSupport) -> None:
    """Add or replace a game's record (a new game, or a tuning script trying a candidate evaluator)."""
    _SUPPORT[record.name] = record


def register_evaluator(game: Game | str, name: str, path: str) -> None:
    """Offer evaluator ``name`` (``module:factory``) for ``game`` as well as its registered ones."""
    record = support(game)
    register(replace(record, evaluators={**record.evaluators, name: path}))


def register_kernel(game: Game | str, path: str, first: bool = True) -> None:
    """Add a kernel class (``module:class``) for ``game``, tried before the others when ``first``."""
    record = support(game)
    others = tuple(kernel for kernel in record.kernels if kernel != path)
    register(replace(record, kernels=(path,) + others if first else others + (path,)))
