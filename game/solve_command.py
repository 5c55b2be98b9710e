"""``stonecave solve``: the exact value of a Kalah start (or of a position in the game's notation).

    stonecave solve kalah:pits=6,seeds=4[,empty_capture=false] [--position TEXT] [--folder DIR] [--no-pv]

It uses the endgame tables of the variant found in the settings folder (``stonecave tables build``), shows
each iteration of the proof, then prints the value for the side to move and a principal variation (each of
its moves proved in turn).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="stonecave solve", description="Prove a Kalah position's value.")
    parser.add_argument("game", help="e.g. kalah:pits=6,seeds=4 or kalah:pits=6,seeds=4,empty_capture=false")
    parser.add_argument("--position", default=None, help="a position in the game's text notation (default: the start)")
    parser.add_argument("--folder", type=Path, default=None, help="the tables' folder (default: the settings folder)")
    parser.add_argument("--no-tables", action="store_true", help="search without the endgame tables")
    parser.add_argument("--no-pv", action="store_true", help="print the value only, not a principal variation")
    parser.add_argument("--memory", type=float, default=1024, help="transposition table in MB (default 1024)")
    parser.add_argument("--deepening", action="store_true",
                        help="prove by iterative deepening to a resolved iteration instead of MTD(f) null-window tests")
    parser.add_argument("--pv-seconds", type=float, default=300,
                        help="stop proving the principal variation's moves after this long (default 300)")
    return parser


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    import ai.core
    import rules
    from ai import tables
    from rules import RulesError
    from rules.kalah import Kalah

    if ai.core.module() is None:
        print(f"stonecave solve: the prover runs on the compiled core, which is missing: {ai.core.status().why}",
              file=sys.stderr)
        return 1
    try:
        game = rules.parse_game_spec(args.game)
        if not isinstance(game, Kalah):
            raise ValueError(f"solve proves Kalah positions, not {game.name}")
        state = game.initial_state() if args.position is None else game.from_text(args.position)
    except (RulesError, ValueError) as error:
        print(f"stonecave solve: {error}", file=sys.stderr)
        return 2
    if game.is_terminal(state):
        print(f"the game is over: {game.outcome(state)}")
        return 0
    from ai.kalah_solve import KalahProver
    from game.tables_command import tables_folder

    loaded = None
    if not args.no_tables:
        folder = args.folder or tables_folder()
        loaded = tables.load_kalah_tables(folder, game.pits, bool(game.empty_capture))
        for problem in loaded.problems:
            print(f"warning: {problem}", file=sys.stderr)
        if loaded.top >= 0:
            print(f"endgame tables: every board of 0..{loaded.top} seeds ({folder})")
        else:
            print(f"endgame tables: none in {folder} (build them: stonecave tables build {game.spec})")
    prover = KalahProver(game, None if loaded is None or loaded.top < 0 else loaded.tables, args.memory)
    started = time.perf_counter()

    def progress(iteration) -> None:
        kind = "to the end " if iteration.depth >= 250 else f"depth {iteration.depth:5d}"
        print(f"  {kind}  bound {iteration.score:+7.2f}  move {iteration.move}  "
              f"{iteration.nodes:>14,} nodes  {iteration.seconds:8.1f} s"
              + ("  (proved)" if iteration.resolved else ""), flush=True)

    try:
        proof = (prover.prove if args.deepening else prover.prove_by_tests)(state, progress)
    except KeyboardInterrupt:
        print("\nstopped before the proof was complete", file=sys.stderr)
        return 130
    mover = "South" if game.to_move(state) == 0 else "North"
    print(f"value: {proof.value:+d} for {mover} (the side to move) with best play; best move: pit {proof.move}")
    how = "null-window tests to the end of the game" if proof.depth >= 250 else f"iterations up to {proof.depth} plies"
    print(f"proved in {proof.seconds:.1f} s, {proof.nodes:,} nodes ({how})")
    if not args.no_pv:
        line, complete = prover.principal_variation(state, proof.value, seconds=args.pv_seconds)
        ending = "to the end of the game" if complete else f"first {len(line)} moves; stopped after {args.pv_seconds:g} s"
        print(f"principal variation ({ending}, {time.perf_counter() - started:.1f} s in all; pits as numbered "
              f"from each mover's left): " + " ".join(str(move) for move in line))
    return 0
