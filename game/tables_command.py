"""``stonecave tables``: build and check the endgame tables in the settings folder (``<config_dir>/tables``).

    stonecave tables build kalah[:pits=6,empty_capture=false] [--seeds N] [--folder DIR]
    stonecave tables build oware[:grand_slam=no-capture,skip_start=true] [--seeds N] [--folder DIR]
    stonecave tables status [kalah[:...] | oware[:...]] [--folder DIR]

``build`` says what it will cost (positions, disk, time) before it starts, shows its progress, reuses the
verified layers already on disk and writes each new layer atomically.  Without ``--seeds`` it builds the
set the Strongest presets grow to by themselves in the background (``TableGame.grown_bytes``: 0..20 seeds,
225.8 MB, for 6-pit Kalah; 0..22 seeds, 548.4 MB, for Oware; at least the full set, ``ai.tables.FULL_BYTES``, for
other boards), on every core and at once; the presets' own first use builds the 9.7 MB first-use set (0..14 seeds)
first and then goes on to it on one core (Oware by way of 0..20).  ``status`` shows the layers there are and a
build's progress (without a game: Kalah's and Oware's default variants).  One build runs per variant and folder.
An Oware layer is solved by repeated passes (value iteration), so its progress bar counts the entries evaluated
and grows as passes are added.

Before it starts, ``build`` checks that the layers fit: every layer is held in memory while the next is solved,
and the new ones are written to the folder's disk; a set that does not fit the machine's available memory or the
folder's free disk is refused with the largest ``--seeds`` that would.  ``--seeds`` is written with the digits
0-9.  Ctrl-C stops a build within a second: the layers written before it are whole and kept, the lock removed.
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
    parser.add_argument("--seeds", type=_seeds, default=None,
                        help="largest number of seeds on the board to cover (default for build: 20 for 6-pit "
                             "Kalah, 22 for Oware, the set the Strongest level grows to; status shows every layer "
                             "there is unless given)")
    parser.add_argument("--folder", type=Path, default=None, help="where the tables go (default: the settings folder)")
    return parser


def build_seeds(game: object) -> int:
    """The set ``build`` without ``--seeds`` makes: the full set (``FULL_BYTES``) or, where bigger, the one the
    Strongest level's first use grows to (6-pit Kalah: 0..20; Oware: 0..22)."""
    from ai import tables

    return max((tables.game_auto_seeds(game, tables.FULL_BYTES), *tables.first_use_stages(game)))


SEEDS_LIMIT = 100
"""The most seeds a table layer can hold (``kalah_tables.pxi``'s ``KT_MAX_SEEDS``)."""


def _seeds(text: str) -> int:
    """``--seeds``: a whole number 0..100 written with the digits 0-9 (argparse turns the error into a
    one-line usage message)."""
    if not (text.isascii() and text.isdigit()) or len(text) > 3 or int(text) > SEEDS_LIMIT:
        shown = text if len(text) <= 12 else text[:9] + "..."
        raise argparse.ArgumentTypeError(f"is a whole number of seeds 0..{SEEDS_LIMIT} written with the digits "
                                         f"0-9, not {shown!r}")
    return int(text)


def _game(spec: str):
    import rules
    from rules import RulesError

    try:
        game = rules.parse_game_spec(spec)
    except (RulesError, ValueError) as error:
        raise SystemExit(f"stonecave tables: {error}")
    from ai.tables import TABLE_GAMES

    if game.name not in TABLE_GAMES:
        raise SystemExit(f"stonecave tables: tables exist for {' and '.join(TABLE_GAMES)}, not {game.name}")
    return game


def _status(folder: Path, spec: Variant, seeds: int | None) -> None:
    from ai import tables

    loaded = tables.load_tables(folder, spec, max_seeds=seeds)
    variant = spec.describe
    if tables.folder_problem(folder) is not None:
        print(f"{variant}: no tables ({tables.folder_problem(folder)})")
        return
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
    """The command; a Ctrl-C outside the proof or build (while loading, or a second one) ends it with a word."""
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print("\nstonecave tables: stopped by Ctrl-C; nothing was built after that point", file=sys.stderr)
        return 130


def _main(argv: list[str]) -> int:
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
        import rules

        for name in tables.TABLE_GAMES:  # each game's default variant
            default = tables.variant_of(rules.get_game(name))
            if default is not None:
                _status(folder, default, args.seeds)
        return 0
    game = _game(args.game)
    spec = tables.variant_of(game)
    if spec is None:  # _game accepts only the games with tables
        raise SystemExit(f"stonecave tables: {game.name} has no tables")
    if args.seeds is None and args.action == "build":
        args.seeds = build_seeds(game)
    if args.action == "status":
        _status(folder, spec, args.seeds)
        return 0
    why_not = tables.folder_problem(folder)
    if why_not is not None:
        print(f"stonecave tables: {why_not}; give another with --folder", file=sys.stderr)
        return 2
    loaded = tables.load_tables(folder, spec, max_seeds=args.seeds)
    variant = spec.describe
    for problem in loaded.problems:
        print(f"warning: {problem}", file=sys.stderr)
    if loaded.top >= args.seeds:
        print(f"{variant}: layers 0..{loaded.top} are already built and verified in {folder}")
        return 0
    try:
        spec.layer_size(args.seeds)
    except ValueError as error:
        print(f"stonecave tables: --seeds {args.seeds}: {error}", file=sys.stderr)
        return 2
    cost = tables.estimate(spec, args.seeds, loaded.top)
    print(f"{variant}: building layers {loaded.top + 1}..{args.seeds} in {folder}")
    print(f"estimate: {cost.entries:,} positions, {cost.new_disk_bytes / 1e6:,.1f} MB of disk, "
          f"{cost.memory_bytes / 1e6:,.1f} MB of memory while they are built, about {cost.seconds:,.0f} s on one core",
          flush=True)
    too_big = tables.check_room(folder, spec, args.seeds, loaded.top)
    if too_big is not None:
        print(f"stonecave tables: not started: {too_big}", file=sys.stderr)
        return 2
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
    except tables.BuildInterrupted as stopped:
        kept = f"layers 0..{stopped.top} are" if stopped.top >= 0 else "no layer was"
        wrote = f"{len(stopped.built)} written by this build, " if stopped.built else ""
        print(f"\nstopped by Ctrl-C after {time.perf_counter() - started:.1f} s: {kept} whole on disk "
              f"({wrote}in {folder}); the layer being solved was dropped; building again continues from there",
              file=sys.stderr)
        return 130
    except OSError as error:
        print(f"\nstonecave tables: cannot write the tables ({error.strerror or error})", file=sys.stderr)
        return 1
    for layer in built:
        sweeps = f" {layer.sweeps:4d} passes" if layer.sweeps > 1 else ""
        print(f"  {layer.seeds:3d} seeds: {layer.entries:>13,} positions {layer.seconds:7.2f} s{sweeps}  "
              f"{layer.path.name}")
    print(f"done in {time.perf_counter() - started:.1f} s: every board of 0..{loaded.top} seeds")
    return 0
