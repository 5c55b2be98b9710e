"""``stonecave tables``: build and check the endgame tables in the settings folder (``<config_dir>/tables``).

    stonecave tables build kalah[:pits=6,empty_capture=false] [--seeds N] [--folder DIR] [--yes]
    stonecave tables status kalah[:...] [--folder DIR]

``build`` says what it will cost (positions, disk, time) before it starts, shows its progress, reuses the
verified layers already on disk and writes each new layer atomically.  Without ``--seeds`` it builds the
first-use set (``ai.tables.auto_seeds``: 0..18 seeds for 6 pits), the one the Strongest preset builds by
itself in the background; ``status`` shows such a build's progress.  One build runs per variant and folder.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def tables_folder() -> Path:
    from game.settings import config_dir

    return config_dir() / "tables"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="stonecave tables", description="Kalah endgame tables.")
    parser.add_argument("action", choices=("build", "status"))
    parser.add_argument("game", help="kalah or kalah:pits=6,empty_capture=false")
    parser.add_argument("--seeds", type=int, default=None,
                        help="largest number of seeds on the board to cover (default: the first-use set, "
                             "18 for 6 pits)")
    parser.add_argument("--folder", type=Path, default=None, help="where the tables go (default: the settings folder)")
    return parser


def _game(spec: str):
    import rules
    from rules import RulesError

    try:
        game = rules.parse_game_spec(spec)
    except (RulesError, ValueError) as error:
        raise SystemExit(f"stonecave tables: {error}")
    if game.name != "kalah":
        raise SystemExit(f"stonecave tables: tables exist for kalah, not {game.name}")
    return game


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    import ai.core
    from ai import tables

    if ai.core.module() is None:
        print(f"stonecave tables: the tables are built by the compiled core, which is missing: "
              f"{ai.core.status().why}", file=sys.stderr)
        return 1
    game = _game(args.game)
    folder = args.folder or tables_folder()
    pits, empty_capture = game.pits, bool(game.empty_capture)
    if args.seeds is None:
        args.seeds = tables.auto_seeds(pits, 2 * pits * game.seeds)
    if not 0 <= args.seeds <= 40:
        print("stonecave tables: --seeds is 0..40", file=sys.stderr)
        return 2
    loaded = tables.load_kalah_tables(folder, pits, empty_capture, max_seeds=args.seeds)
    variant = f"kalah pits={pits} empty_capture={str(empty_capture).lower()}"
    for problem in loaded.problems:
        print(f"warning: {problem}", file=sys.stderr)
    if args.action == "status":
        if loaded.top < 0:
            print(f"{variant}: no tables in {folder}")
        else:
            size = sum(tables.layer_size(pits, s) for s in range(loaded.top + 1))
            print(f"{variant}: every board of 0..{loaded.top} seeds ({size:,} positions) in {folder}")
        building = tables.read_progress(folder, pits, empty_capture)
        if building is not None:
            print(f"{variant}: {building.describe()}")
        return 0
    cost = tables.estimate(pits, args.seeds, loaded.top)
    if loaded.top >= args.seeds:
        print(f"{variant}: layers 0..{loaded.top} are already built and verified in {folder}")
        return 0
    print(f"{variant}: building layers {loaded.top + 1}..{args.seeds} in {folder}")
    print(f"estimate: {cost.describe()}", flush=True)
    started = time.perf_counter()
    last = [0.0]

    def progress(seeds: int, done: int, size: int) -> None:
        now = time.perf_counter()
        if now - last[0] >= 0.5 or done == size:
            last[0] = now
            width = 30
            filled = int(width * done / size)
            print(f"\r  {seeds:3d} seeds [{'#' * filled}{'.' * (width - filled)}] {done / size:6.1%} "
                  f"{now - started:7.1f} s", end="" if done < size else "\n", flush=True)

    try:
        result = tables.build_claimed(folder, pits, empty_capture, args.seeds, progress)
        if result is None:
            running = tables.read_progress(folder, pits, empty_capture)
            print(f"stonecave tables: another build is running: {running.describe() if running else 'it just ended'}",
                  file=sys.stderr)
            return 1
        loaded, built = result
    except KeyboardInterrupt:
        print("\nstopped: the layers written so far are complete and kept", file=sys.stderr)
        return 130
    except OSError as error:
        print(f"\nstonecave tables: cannot write the tables ({error.strerror or error})", file=sys.stderr)
        return 1
    for layer in built:
        print(f"  {layer.seeds:3d} seeds: {layer.entries:>13,} positions {layer.seconds:7.2f} s  {layer.path.name}")
    print(f"done in {time.perf_counter() - started:.1f} s: every board of 0..{loaded.top} seeds")
    return 0
