"""Experiments on the Magnetic Cave player's evaluation and endgame solver, run by hand (not kept figures).

    python tools/cave_experiments.py outlook [--empties 18] [--positions 200]
    python tools/cave_experiments.py solver --rev REV [--empties 18] [--positions 10] [--max-nodes N]

*outlook* measures how often the evaluator's zugzwang outlook (the fill game of the threat cells on the board)
names the exact value of a quiet position (no playable threat cell) that has threat cells, against the exact
solver, beside the reserve-counting model the evaluator used before (kept here only for this comparison).
Positions come from games of a careful random player (it wins when it can, blocks a single threat and avoids
opening one), stopped at ``--empties`` empty cells.

*solver* compares the exact endgame solver as it was at commit ``--rev`` (read with ``git show``) with the
working tree's, on positions with ``--empties`` empty cells from depth-4 games of the player as White against
the baseline (the same positions on every machine): each position solved afresh by both, the values checked
to agree, nodes and CPU seconds summed.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai import registry  # noqa: E402
from bench.bench_cave_player import BASELINE  # noqa: E402
from rules.magnetic_cave import MagneticCave  # noqa: E402


def reserve_model(mine: int, theirs: int, empty: int) -> int:
    """The earlier outlook, for comparison: each unplayable threat cell a private reserve of one move (its
    three cells left to the end); the player to move when only those remain loses with fewer reserves than
    the other and wins with two more."""
    if not (mine or theirs):
        return 0
    mover_is_z = (empty - 3 * (mine + theirs)) % 2 == 0
    z, other = (mine, theirs) if mover_is_z else (theirs, mine)
    outcome = -1 if z < other else 1 if z >= other + 2 else 0
    return outcome if mover_is_z else -outcome


def outlook(game: MagneticCave, empties: int, positions: int, seed: int) -> None:
    from ai.cave_endgame import EndgameSolver, five_cells_of
    from ai.evaluators.magnetic_cave import zugzwang_outlook
    from rules.magnetic_cave import legal_mask

    rng = random.Random(seed)
    solver = EndgameSolver()
    right = [0, 0]
    values = {-1: 0, 0: 0, 1: 0}
    seen = 0
    while seen < positions:
        state = game.initial_state()
        while not game.is_terminal(state) and 64 - (state.black | state.white).bit_count() > empties:
            afters = [game.apply(state, move) for move in game.legal_moves(state)]
            wins = [after for after in afters if after.winner is not None]
            safe = [after for after in afters if not game.is_terminal(after)
                    and not (five_cells_of(after.black if after.to_move == 0 else after.white)
                             & legal_mask(after.black | after.white))]
            state = wins[0] if wins else rng.choice(safe or afters)
        if game.is_terminal(state):
            continue
        mine, theirs = (state.black, state.white) if state.to_move == 0 else (state.white, state.black)
        occupied = mine | theirs
        my_cells, their_cells = five_cells_of(mine) & ~occupied, five_cells_of(theirs) & ~occupied
        if not my_cells | their_cells or (my_cells | their_cells) & legal_mask(occupied):
            continue  # no threat cells, or a tactical position: the outlook is for quiet ones
        exact = solver.value(mine, theirs)
        seen += 1
        values[exact] += 1
        right[0] += zugzwang_outlook(occupied, my_cells, their_cells) == exact
        right[1] += reserve_model(my_cells.bit_count(), their_cells.bit_count(), 64 - occupied.bit_count()) == exact
        if len(solver.table) > 1_000_000:
            solver.table.clear()
    print(f"{positions} quiet positions with threat cells at {empties} empty cells (exact values: "
          f"{values[1]} won, {values[0]} tied, {values[-1]} lost for the side to move)")
    print(f"  the fill-game outlook names the exact value in {right[0]} ({right[0] / positions:.0%})")
    print(f"  the earlier reserve model in {right[1]} ({right[1] / positions:.0%})")


def game_positions(game: MagneticCave, empties: int, count: int, seed: int) -> list:
    """Positions with ``empties`` empty cells from games of ``pvs:depth=4`` as White against the baseline, from
    *strength*'s openings (depth-limited on both sides, so the same positions on any machine)."""
    from ai.tournament import balanced_openings

    found = []
    for opening in [()] + balanced_openings(game, 49, plies=2, seed=seed, judge=BASELINE):
        state = game.initial_state()
        for move in opening:
            state = game.apply(state, move)
        while not game.is_terminal(state) and 64 - (state.black | state.white).bit_count() > empties:
            spec = "pvs:depth=4,time=none" if state.to_move == 1 else BASELINE
            state = game.apply(state, registry.make_engine(game, spec).search(state).move)
        if not game.is_terminal(state):
            found.append(state)
            if len(found) == count:
                break
    return found


def solver_ab(game: MagneticCave, rev: str, empties: int, count: int, seed: int, max_nodes: int) -> None:
    """The endgame solver as it was at ``rev`` against the working tree's, on the same game positions: exact
    values that must agree, nodes and CPU time (each position solved afresh by both, alternating)."""
    import ai.cave_endgame as current
    from ai.base import SearchAborted
    from tools.revisions import load_module_at

    earlier = load_module_at("ai/cave_endgame.py", rev)
    totals = {"earlier": [0, 0.0], "current": [0, 0.0]}
    solved = 0
    for state in game_positions(game, empties, count, seed):
        mine, theirs = (state.black, state.white) if state.to_move == 0 else (state.white, state.black)
        values = {}
        for name, module in (("earlier", earlier), ("current", current)):
            solver = module.EndgameSolver()
            began = time.process_time()
            try:
                values[name] = solver.value(mine, theirs, max_nodes=max_nodes)
            except SearchAborted:
                values[name] = None
            totals[name][0] += solver.nodes
            totals[name][1] += time.process_time() - began
        if None not in values.values() and values["earlier"] != values["current"]:
            raise SystemExit(f"the solvers disagree on {game.to_text(state)}: {values}")
        solved += values["current"] is not None
        print(f"  {game.to_text(state)}: value {values['current']}, nodes {totals['earlier'][0]:,} / "
              f"{totals['current'][0]:,} so far", flush=True)
    (nodes_a, cpu_a), (nodes_b, cpu_b) = totals["earlier"], totals["current"]
    print(f"{count} positions at {empties} empty cells (node cap {max_nodes:,}; the current solver decided "
          f"{solved}): nodes {nodes_a:,} at {rev} -> {nodes_b:,} now ({nodes_b / nodes_a:.3f}), "
          f"CPU {cpu_a:.1f} s -> {cpu_b:.1f} s ({cpu_b / cpu_a:.3f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("outlook", "solver"))
    parser.add_argument("--empties", type=int, default=18, help="empty cells of the positions")
    parser.add_argument("--positions", type=int, default=200, help="positions measured")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rev", default="0914fe0~1", help="solver: the earlier commit to compare with")
    parser.add_argument("--max-nodes", type=int, default=30_000_000, help="solver: node cap per position")
    args = parser.parse_args()
    game = MagneticCave()
    if args.mode == "solver":
        solver_ab(game, args.rev, args.empties, args.positions, args.seed, args.max_nodes)
    else:
        outlook(game, args.empties, args.positions, args.seed)


if __name__ == "__main__":
    main()
