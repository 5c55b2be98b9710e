"""Positions with a known value, for fitting and measuring ``ai.calibration`` (``bench/bench_calibration.py``).

A *sample* is a position from a seeded playout (each move the cheap engine's, or a random one with
``RANDOM_SHARE``), the score the analysis's search gives it (the compiled ``PVSEngine`` at the game's fixed
``SEARCH_DEPTHS``, no tables, a fresh engine per position so the score does not depend on the order), and its
value for the side to move, found by the strongest means the game has:

- Kalah and Oware: the endgame tables when they hold the board (exact); Kalah a few seeds above them: the
  prover within ``PROVER_SECONDS`` (exact); otherwise the game is played on by the strong engine (tables on)
  until the tables hold the board, and the value is the stores' difference gained on the way plus the tables'
  margin there (``played-on``: exact from there on, the engine's play before);
- Hus (no tables): the final margin of the game played on by the strong engine (``played-on``, weaker);
- Magnetic Cave: the endgame solver within ``SOLVER_NODES`` for the last ``SOLVER_EMPTIES`` empty cells
  (exact), otherwise played on by the strong engine until the solver answers, or to the end.

Everything is deterministic for a seed and depth (no clock), so a fit can be repeated exactly.
"""
from __future__ import annotations

import os
import random
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import rules
from ai import tables as endgame_tables
from ai.calibration import stage_measure
from ai.evaluators import HEURISTIC_BOUND, as_margin
from ai.search import PVSEngine
from rules import Game, State

GAMES: dict[str, str] = {
    "Kalah(6,4), empty capture": "kalah:pits=6,seeds=4,empty_capture=true",
    "Kalah(6,4), standard": "kalah:pits=6,seeds=4,empty_capture=false",
    "Oware": "oware",
    "Hus": "hus",
    "Magnetic Cave": "magnetic-cave",
}
"""The games calibrated: label -> the spec the curves are stored under."""

SEARCH_DEPTHS = {"kalah": 16, "oware": 16, "hus": 8, "magnetic-cave": 8}
"""The depth of the search whose score is calibrated: about what the analysis completes in a second or two on
the shared 2-core machine (BENCHMARKS.md: Kalah and Oware 16-19, Hus 8-10, the cave 8-11)."""
SEARCH_MEMORY = 8.0
PLAYOUT_DEPTH = {"kalah": 4, "oware": 4, "hus": 3, "magnetic-cave": 2}
"""The cheap engine of the playouts that make the positions."""
STRONG_DEPTH = {"kalah": 10, "oware": 10, "hus": 6, "magnetic-cave": 5}
"""The engine that plays a game on to a known value (tables on for Kalah and Oware)."""
RANDOM_SHARE = 0.25
"""The share of random moves in a playout: positions off the engines' own lines too."""
PER_GAME = 3
"""Positions taken from one playout (at random plies)."""
PROVER_SECONDS = 0.3
PROVER_SEEDS = 22
SOLVER_EMPTIES = 18
SOLVER_NODES = 2_000_000


@dataclass(frozen=True)
class Sample:
    """One position: its text, the move number (plies from the start), its stage, the search's score and its
    value for the side to move (a seed margin, or +1/0/-1 for the cave) and how the value was found."""

    spec: str
    text: str
    ply: int
    stage: int
    score: float
    value: float
    source: str

    @property
    def proven(self) -> bool:
        return abs(self.score) >= HEURISTIC_BOUND


def tables_folder() -> str | None:
    return os.environ.get(endgame_tables.ENV)


class Truth:
    """The value of positions of one game for the side to move, by the strongest means at hand."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.tables = endgame_tables.tables_for(game) if game.name in ("kalah", "oware") else None
        self.strong = PVSEngine(game, time=None, depth=STRONG_DEPTH[game.name], memory=32,
                                tables=self.tables is not None)
        self.prover: Any = None
        self.solver: Any = None
        if game.name == "kalah":
            from ai.kalah_solve import KalahProver

            self.prover = KalahProver(game, self.tables, memory=64)
        if game.name == "magnetic-cave":
            from ai.core.kernels import CompiledEndgameSolver

            self.solver = CompiledEndgameSolver()

    def exact(self, state: State) -> tuple[float, str] | None:
        """The exact value when the tables, the prover or the solver give it at once, else None."""
        game = self.game
        if game.is_terminal(state):
            outcome = game.outcome(state)
            assert outcome is not None
            margin = outcome.margin(game.to_move(state))
            return (float(margin) if game.name != "magnetic-cave" else float((margin > 0) - (margin < 0))), "end"
        if self.tables is not None:
            value = endgame_tables.table_value(game, self.tables, state)
            if value is not None:
                return float(value), "tables"
        if self.prover is not None and sum(state.pits) <= PROVER_SEEDS:
            import time

            bounds = self.prover.prove_within(state, time.perf_counter() + PROVER_SECONDS)
            if bounds.is_exact:
                return float(bounds.lower), "prover"
        if self.solver is not None and stage_measure(game, state) <= SOLVER_EMPTIES:
            from ai.base import SearchAborted

            mine, theirs = (state.black, state.white) if state.to_move == 0 else (state.white, state.black)
            try:
                value, _ = self.solver.solve(mine, theirs, max_nodes=SOLVER_NODES)
            except SearchAborted:
                return None
            return float(value), "solver"
        return None

    def value(self, state: State) -> tuple[float, str]:
        """The value of ``state`` for its side to move: exact at once, or after playing on with the strong
        engine until it is (the sign turned for every change of the side to move)."""
        game = self.game
        mover = game.to_move(state)
        played = 0
        while True:
            found = self.exact(state)
            if found is not None:
                value, source = found
                same = game.to_move(state) == mover or game.is_terminal(state)
                if game.is_terminal(state):
                    outcome = game.outcome(state)
                    assert outcome is not None
                    margin = outcome.margin(mover)
                    value = float(margin) if game.name != "magnetic-cave" else float((margin > 0) - (margin < 0))
                elif not same:
                    value = -value
                return value, source if played == 0 else "played-on"
            result = self.strong.search(state)
            state = game.apply(state, result.move)
            played += 1


def playout(game: Game, rng: random.Random) -> list[tuple[int, State]]:
    """One seeded game of the cheap engine with random moves mixed in: every position before the end."""
    engine = PVSEngine(game, time=None, depth=PLAYOUT_DEPTH[game.name], memory=4)
    state = game.initial_state()
    positions: list[tuple[int, State]] = []
    ply = 0
    while not game.is_terminal(state) and ply < 400:
        positions.append((ply, state))
        moves = game.legal_moves(state)
        move = rng.choice(moves) if rng.random() < RANDOM_SHARE else engine.search(state).move
        state = game.apply(state, move)
        ply += 1
    return positions


def search_score(game: Game, state: State) -> float:
    """The score the calibration maps: a fresh compiled search to the game's fixed depth, no tables."""
    engine = PVSEngine(game, time=None, depth=SEARCH_DEPTHS[game.name], memory=SEARCH_MEMORY)
    return float(engine.search(state).score)


def samples(spec: str, seeds: range, per_game: int = PER_GAME,
            progress: Callable[[int], None] | None = None) -> Iterator[Sample]:
    """``per_game`` positions from the playout of each seed, with their scores and values."""
    game = rules.parse_game_spec(spec)
    truth = Truth(game)
    for seed in seeds:
        rng = random.Random(f"{spec}/{seed}")
        positions = playout(game, rng)
        if not positions:
            continue
        for ply, state in sorted(rng.sample(positions, min(per_game, len(positions))), key=lambda item: item[0]):
            score = search_score(game, state)
            value, source = truth.value(state)
            yield Sample(spec, game.to_text(state), ply, stage_measure(game, state), score, value, source)
        if progress is not None:
            progress(seed)


def raw_margin(score: float) -> float:
    """The placeholder's reading: a heuristic score taken as seeds (a proven one as its margin)."""
    return as_margin(score)
