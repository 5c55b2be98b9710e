"""``stonecave solve`` with the board prover (``ai.kalah_solver``): the plan stated in one line before any work,
the endgame tables built when missing, MTD(f)'s tests reported as they finish (and a line every 30 s within a
long one), checkpoints, then the value and a principal variation.  Nothing waits for an answer: the plan is
carried out as stated (``--no-build``, ``--table-seeds``, ``--memory`` change it), so it runs the same with no
terminal (CI)."""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

HEARTBEAT = 30.0
"""Seconds between the progress lines within one long test."""


def _tables(args: argparse.Namespace, game: Any, plan: list[str]) -> tuple[Any, Path, int, Any]:
    """(the tables loaded now, their folder, the layers to build up to (-1: none), the build's estimate)."""
    from ai import tables
    from ai.kalah_solver import planned_table_seeds
    from ai.tables.builds import estimate
    from ai.tables.games import kalah_variant
    from game.tables_command import tables_folder

    folder = args.folder or tables_folder()
    if args.no_tables:
        plan.append("no endgame tables")
        return None, folder, -1, None
    target = planned_table_seeds(game) if args.table_seeds is None else args.table_seeds
    loaded = tables.load_kalah_tables(folder, game.pits, bool(game.empty_capture), max_seeds=target)
    for problem in loaded.problems:
        print(f"warning: {problem}", file=sys.stderr)
    if loaded.top >= target or args.no_build:
        plan.append(f"endgame tables 0..{loaded.top} seeds from {folder}" if loaded.top >= 0 else
                    f"no endgame tables (none in {folder}; --no-build)")
        return loaded, folder, -1, None
    cost = estimate(kalah_variant(game.pits, bool(game.empty_capture)), target, loaded.top)
    have = f"0..{loaded.top} there, " if loaded.top >= 0 else ""
    plan.append(f"endgame tables 0..{target} seeds in {folder} ({have}building {loaded.top + 1}..{target}: "
                f"{cost.new_disk_bytes / 1e6:,.1f} MB, about {cost.seconds / max(1, os.cpu_count() or 1):,.0f} s "
                f"on {os.cpu_count() or 1} cores; --no-build to skip)")
    return loaded, folder, target, cost


def prepare(args: argparse.Namespace, game: Any, rest: list[str]) -> tuple[int | None, Any, Path]:
    """State the plan in one line (the tables, then ``rest``), then build the tables it names: (an exit code
    when that failed or None, the tables loaded, their folder)."""
    from ai import tables

    plan: list[str] = []
    loaded, folder, build_to, _ = _tables(args, game, plan)
    print("plan: " + "; ".join(plan + rest), flush=True)
    if build_to >= 0:
        started = time.perf_counter()
        try:
            loaded, _ = tables.build_kalah_tables(folder, game.pits, bool(game.empty_capture), build_to)
        except tables.LayerBlocked as blocked:
            print(f"stonecave solve: {blocked}", file=sys.stderr)
            loaded = blocked.loaded
        except KeyboardInterrupt:
            print("\nstonecave solve: stopped by Ctrl-C while building the tables (the layers done are kept)",
                  file=sys.stderr)
            return 130, None, folder
        except OSError as error:
            print(f"stonecave solve: cannot build the tables in {folder}: {error}", file=sys.stderr)
            return 1, None, folder
        else:
            print(f"built the endgame tables 0..{loaded.top} seeds in {time.perf_counter() - started:.1f} s",
                  flush=True)
    if loaded is not None and loaded.top >= 0:
        print(f"endgame tables: every board of 0..{loaded.top} seeds ({folder})")
    return None, loaded, folder


def solve_boards(args: argparse.Namespace, game: Any, state: Any, memory: float, pv_seconds: float) -> int:
    from ai.base import CancelToken
    from ai.kalah_solver import (GUESS_DEPTH, GUESS_NODES, CheckpointError, Solver, load_checkpoint,
                                 read_checkpoint_header, save_checkpoint, table_bytes)
    from game.solve_command import interruptible
    from guarded import files

    plan: list[str] = []
    expect = {"game": game.spec, "position": game.to_text(state)}
    problem = None if args.checkpoint is None else files.writable_problem(args.checkpoint)
    if problem is not None:
        print(f"stonecave solve: cannot write the checkpoint {args.checkpoint}: {problem} (name a writable file "
              "with --checkpoint)", file=sys.stderr)
        return 2
    resume = args.checkpoint is not None and files.exists(args.checkpoint)
    if resume:
        try:
            header = read_checkpoint_header(args.checkpoint)
        except CheckpointError as error:
            print(f"stonecave solve: {error}", file=sys.stderr)
            return 2
        size = header.get("table_bytes", 0)
        plan.append(f"resuming the checkpoint {args.checkpoint} ({size / (1 << 20):,.0f} MB table, "
                    f"{header.get('nodes', 0):,} nodes done)")
    else:
        plan.append(f"a {table_bytes(memory) / (1 << 20):,.0f} MB transposition table (--memory)")
        plan.append(f"checkpoints to {args.checkpoint} every {args.checkpoint_minutes:g} min"
                    if args.checkpoint is not None else "no checkpoint (--checkpoint FILE)")
    searchers = "1 searcher" if args.threads == 1 else f"{args.threads} searchers on one table (--threads)"
    guess = args.guess
    first = "the first guess from shallow searches" if guess is None else f"the first test at {guess:+d} (--guess)"
    code, loaded, _ = prepare(args, game, plan + [f"MTD(f) over boards, {searchers}, {first}"])
    if code is not None:
        return code
    held = None if loaded is None or loaded.top < 0 else loaded.tables
    try:
        if resume:
            solver, _ = load_checkpoint(args.checkpoint, game, held, expect, args.threads)
        else:
            solver = Solver(game, held, memory, threads=args.threads)
    except CheckpointError as error:
        print(f"stonecave solve: {error}", file=sys.stderr)
        return 2
    mover = "South" if game.to_move(state) == 0 else "North"
    started = time.perf_counter()
    beat = [started]

    def checkpoint() -> None:
        if args.checkpoint is not None:
            try:
                save_checkpoint(args.checkpoint, solver, expect)
            except OSError as error:
                print(f"stonecave solve: warning: the checkpoint could not be saved to {args.checkpoint}: "
                      f"{error.strerror or error}", file=sys.stderr, flush=True)
                return
            print(f"  checkpoint saved ({solver.nodes:,} nodes, {time.perf_counter() - started:.0f} s)", flush=True)

    def progress(test: Any, lower: int, upper: int) -> None:
        answer = "yes" if test.result >= test.gamma else "no"
        print(f"  test value >= {test.gamma:+d}: {answer:3}  bounds {lower:+d}..{upper:+d}  {test.nodes:>14,} nodes  "
              f"{time.perf_counter() - started:8.1f} s", flush=True)

    def tick() -> None:
        now = time.perf_counter()
        if now - beat[0] >= HEARTBEAT:
            beat[0] = now
            testing = " and ".join(f">= {value:+d}" for value in sorted(set(solver.testing)))
            during = f" (testing value {testing})" if testing else ""
            print(f"  ... {solver.nodes:,} nodes, {now - started:.0f} s{during}", flush=True)

    cancel = CancelToken()
    proof, interrupted = interruptible(
        lambda: solver.solve(state, guess, cancel=cancel, progress=progress,
                             checkpoint=checkpoint if args.checkpoint is not None else None,
                             checkpoint_seconds=60 * args.checkpoint_minutes, hint_depth=GUESS_DEPTH,
                             hint_nodes=GUESS_NODES), cancel, tick)
    if interrupted or proof is None or not proof.is_exact:
        known = ""
        if proof is not None:
            keeps = "" if proof.move is None else f"; pit {game.move_label(state, proof.move)} secures {proof.lower:+d}"
            known = f": the value for {mover} is between {proof.lower:+d} and {proof.upper:+d}{keeps}"
        saved = f"; resume with --checkpoint {args.checkpoint}" if args.checkpoint is not None else ""
        print(f"\nstopped by Ctrl-C after {time.perf_counter() - started:.1f} s before the proof was complete{known}"
              f"{saved}", file=sys.stderr)
        return 130
    assert proof.value is not None and proof.move is not None
    print(f"value: {proof.value:+d} for {mover} (the side to move) with best play; best move: pit "
          f"{game.move_label(state, proof.move)}")
    print(f"proved in {proof.seconds:.1f} s, {proof.nodes:,} nodes ({len(proof.tests)} null-window tests over boards)",
          flush=True)
    if args.checkpoint is not None:
        checkpoint()
    if args.no_pv:
        return 0
    value = proof.value
    pv, interrupted = interruptible(lambda: solver.principal_variation(state, value, seconds=pv_seconds), cancel)
    line = pv or ()
    labels, position = [], state
    for step in line:
        labels.append(game.move_label(position, step))
        position = game.apply(position, step)
    complete = game.is_terminal(position)
    ending = ("first {0} moves; stopped by Ctrl-C" if interrupted else "to the end of the game" if complete
              else "first {0} moves; stopped after " + f"{pv_seconds:g} s").format(len(line))
    print(f"principal variation ({ending}, {time.perf_counter() - started:.1f} s in all; pits numbered 1..{game.pits} "
          f"from each mover's left): " + " ".join(labels))
    return 130 if interrupted else 0
