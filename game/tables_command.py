"""``stonecave tables``: build and check the endgame tables in the settings folder (``<config_dir>/tables``).

    stonecave tables build kalah[:pits=6,empty_capture=false] [--seeds N] [--folder DIR]
    stonecave tables build oware[:grand_slam=no-capture,skip_start=true] [--seeds N] [--folder DIR]
    stonecave tables status [kalah[:...] | oware[:...]] [--folder DIR]

``build`` says what it will cost (positions, disk, time) before it starts, shows its progress, reuses the
verified layers already on disk and writes each new layer atomically.  Without ``--seeds`` it builds the
full set (``ai.tables.FULL_BYTES``: 0..18 seeds, 86.5 MB, for 6-pit Kalah and for Oware), beyond the 9.7 MB
first-use set (0..14 seeds) the Strongest presets build by themselves in the background; ``status`` shows such
a build's progress (without a game: Kalah's and Oware's default variants).  One build runs per variant and
folder.  An Oware layer is solved by repeated passes (value iteration), so its progress bar counts the entries
evaluated and grows as passes are added.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ai.tables import Variant


def tables_folder() -> Path:
    from game.settings import config_dir

    return config_dir() / "tables"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="stonecave tables", description="Kalah and Oware endgame tables.")
    parser.add_argument("action", choices=("build", "status"))
    parser.add_argument("game", nargs="?", default=None,
                        help="kalah, kalah:pits=6,empty_capture=false, oware or oware:grand_slam=capture "
                             "(status without one: kalah and oware)")
    parser.add_argument("--seeds", type=int, default=None,
                        help="largest number of seeds on the board to cover (default: the first-use set, "
                             "18 for 6-pit Kalah, 14 for Oware)")
    parser.add_argument("--folder", type=Path, default=None, help="where the tables go (default: the settings folder)")
    return parser


def _game(spec: str):
    import rules
    from rules import RulesError

    try:
        game = rules.parse_game_spec(spec)
    except (RulesError, ValueError) as error:
        raise SystemExit(f"stonecave tables: {error}")
    if game.name not in ("kalah", "oware"):
        raise SystemExit(f"stonecave tables: tables exist for kalah and oware, not {game.name}")
    return game


def _status(folder: Path, spec: Variant, seeds: int | None) -> None:
    from ai import tables

    loaded = tables.load_tables(folder, spec, max_seeds=seeds)
    variant = spec.describe
    for problem in loaded.problems:
        print(f"warning: {problem}", file=sys.stderr)
    if loaded.top < 0:
        print(f"{variant}: no tables in {folder}")
    else:
        size = sum(spec.layer_size(s) for s in range(loaded.top + 1))
        print(f"{variant}: every board of 0..{loaded.top} seeds ({size:,} positions) in {folder}")
    building = tables.read_progress(folder, spec)
    if building is not None:
        print(f"{variant}: {building.describe()}")


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    import ai.core
    from ai import tables

    if ai.core.module() is None:
        print(f"stonecave tables: the tables are built by the compiled core, which is missing: "
              f"{ai.core.status().why}", file=sys.stderr)
        return 1
    folder = args.folder or tables_folder()
    if args.game is None:
        if args.action == "build":
            print("stonecave tables: build which game? kalah[:pits=6,...] or oware[:grand_slam=...]",
                  file=sys.stderr)
            return 2
        for default in (tables.kalah_variant(6, True), tables.oware_variant()):
            _status(folder, default, args.seeds)
        return 0
    game = _game(args.game)
    spec = tables.variant_of(game)
    if spec is None:  # _game accepts only the games with tables
        raise SystemExit(f"stonecave tables: tables exist for kalah and oware, not {game.name}")
    if args.seeds is None:
        args.seeds = tables.game_auto_seeds(game, tables.FULL_BYTES if args.action == "build" else None)
    if not 0 <= args.seeds <= 40:
        print("stonecave tables: --seeds is 0..40", file=sys.stderr)
        return 2
    if args.action == "status":
        _status(folder, spec, args.seeds)
        return 0
    loaded = tables.load_tables(folder, spec, max_seeds=args.seeds)
    variant = spec.describe
    for problem in loaded.problems:
        print(f"warning: {problem}", file=sys.stderr)
    cost = tables.estimate(spec if spec.game == "oware" else spec.pits, args.seeds, loaded.top)
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
        result = tables.build_claimed(folder, spec, None, args.seeds, progress)
        if result is None:
            running = tables.read_progress(folder, spec)
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
        sweeps = f" {layer.sweeps:4d} passes" if spec.game == "oware" else ""
        print(f"  {layer.seeds:3d} seeds: {layer.entries:>13,} positions {layer.seconds:7.2f} s{sweeps}  "
              f"{layer.path.name}")
    print(f"done in {time.perf_counter() - started:.1f} s: every board of 0..{loaded.top} seeds")
    return 0
