"""Kalah endgame tables and the prover: build times and sizes per layer, lookups per second, solve times.

    python bench/bench_kalah_tables.py build --pits 6 --seeds 18 [--folder DIR] [--standard] [--threads 2]
    python bench/bench_kalah_tables.py lookups --pits 6 --seeds 18 --folder DIR [--count 5000000]
    python bench/bench_kalah_tables.py solve --game kalah:pits=6,seeds=3 --folder DIR [--top 18] [--mtd]
    python bench/bench_kalah_tables.py load --pits 6 --seeds 18 --folder DIR
    python bench/bench_kalah_tables.py command --game kalah:pits=4,seeds=3 --folder DIR [--repeat 5]

Each prints one JSON object per measurement (seconds are wall time on this machine); ``build`` reuses the
verified layers already in ``--folder`` and times only the ones it builds.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ai import tables  # noqa: E402
from bench.record import add_flag, game_label, record  # noqa: E402
from rules import parse_game_spec  # noqa: E402


def emit(**record) -> None:
    record.update(date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), machine=platform.node())
    print(json.dumps(record), flush=True)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def build(args) -> None:
    folder = Path(args.folder or tempfile.mkdtemp(prefix="kalah-tables-"))
    _, built = tables.build_kalah_tables(folder, args.pits, not args.standard, args.seeds, threads=args.threads)
    for layer in built:
        emit(kind="build", pits=args.pits, empty_capture=not args.standard, seeds=layer.seeds,
             entries=layer.entries, file_bytes=layer.path.stat().st_size, seconds=round(layer.seconds, 3),
             per_second=round(layer.entries / max(layer.seconds, 1e-9)), threads=args.threads,
             build_memory_mb=round(sum(tables.layer_size(args.pits, s) for s in range(layer.seeds + 1)) / 1e6, 1))
        if layer.seeds >= 10 and layer.seeds % 2 == 0:  # one row per two seed counts from 10 up
            upto = sum(tables.layer_size(args.pits, s) for s in range(layer.seeds + 1)) / 1e6
            rate = layer.entries / max(layer.seconds, 1e-9) / 1e6
            record(args.record, "kalah_tables", f"build, {layer.seeds} seeds ({layer.entries:,} boards)",
                   round(layer.seconds, 2), f"s ({args.threads} threads, {rate:.1f} M/s; {upto:.1f} MB on disk "
                   f"for all layers up to it)")
    emit(kind="build-process", peak_rss_mb=round(peak_rss_mb(), 1))
    if built:
        record(args.record, "kalah_tables", f"build, layers {built[0].seeds}..{built[-1].seeds}",
               round(sum(layer.seconds for layer in built), 1),
               f"s ({args.threads} threads; the process peaked at {peak_rss_mb():.0f} MB)")


def lookups(args) -> None:
    loaded = tables.load_kalah_tables(args.folder, args.pits, not args.standard, max_seeds=args.seeds)
    for seeds in range(max(1, args.seeds - 4), loaded.top + 1):
        started = time.perf_counter()
        loaded.tables.benchmark_lookups(seeds, args.count)
        seconds = time.perf_counter() - started
        emit(kind="lookups", pits=args.pits, seeds=seeds, count=args.count,
             per_second=round(args.count / seconds), note="random board (each seed hashed into a pit), rank, read the byte; one core")
        if seeds % 2 == 0:
            record(args.record, "kalah_tables", f"look-ups, {seeds} seeds", round(args.count / seconds / 1e6, 2),
                   "M/s (one core)")


def memory_kb() -> dict[str, int]:
    """This process's resident memory by kind (kB): ``RssAnon`` (private) and ``RssFile`` (file pages)."""
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(("RssAnon:", "RssFile:")):
            name, value = line.split(":")
            fields[name] = int(value.split()[0])
    return fields


def load(args) -> None:
    """Loading (verifying and copying into memory) the layers 0..--seeds: the time and the memory it adds, and the
    longest the main thread waited meanwhile (the engines load beside a running search, ai/table_loading.py: a
    load that holds the interpreter's lock delays the move the search returns), ticking every millisecond."""
    import threading

    before = memory_kb()
    started = time.perf_counter()
    found: list = []
    loader = threading.Thread(target=lambda: found.append(
        tables.load_kalah_tables(args.folder, args.pits, not args.standard, max_seeds=args.seeds)))
    loader.start()
    last, pause = time.perf_counter(), 0.0
    while loader.is_alive():
        time.sleep(0.001)
        now = time.perf_counter()
        pause, last = max(pause, now - last), now
    loader.join()
    loaded = found[0]
    seconds = time.perf_counter() - started
    after = memory_kb()
    size = sum(tables.layer_size(args.pits, s) for s in range(loaded.top + 1))
    private = (after["RssAnon"] - before["RssAnon"]) / 1024
    shared = (after["RssFile"] - before["RssFile"]) / 1024
    emit(kind="load", pits=args.pits, top=loaded.top, entries=size, seconds=round(seconds, 3),
         private_mb=round(private, 1), file_pages_mb=round(shared, 1), longest_wait_ms=round(pause * 1000, 1))
    record(args.record, "kalah_tables", f"load and verify layers 0..{loaded.top} ({size / 1e6:.1f} MB)",
           round(seconds, 2), f"s; {private:.0f} MB private memory added (copied, never mapped)")
    record(args.record, "kalah_tables", f"longest wait of a thread beside the load of layers 0..{loaded.top}",
           round(pause * 1000, 1), "ms (a thread ticking every millisecond while another loads)",
           target="a move's 10 ms margin")


def command(args) -> None:
    """``stonecave solve GAME --folder DIR --no-pv`` as a player runs it (a fresh process, wall time, median of
    --repeat), with its default table size and, as the same-run yardstick, with the 1024 MB it took before."""
    import statistics
    import subprocess

    def timed(*extra: str) -> float:
        runs = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "game", "solve", args.game, "--folder", str(args.folder), "--no-pv",
                            *extra], check=True, capture_output=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
            runs.append(time.perf_counter() - started)
        return statistics.median(runs)

    now, before = timed(), timed("--memory", "1024")
    game = parse_game_spec(args.game)
    top = tables.load_kalah_tables(args.folder, game.pits, bool(game.empty_capture)).top
    emit(kind="command", game=game.spec, tables_top=top, seconds=round(now, 2), with_1024_mb=round(before, 2))
    record(args.record, "kalah_tables", f"stonecave solve {game_label(game)} with layers 0..{top}, whole command",
           round(now, 2), f"s (median of {args.repeat}; the table sized to the game)",
           yardstick=f"{before:.2f} s with --memory 1024, the old default", ratio=round(now / before, 3))


def solve(args) -> None:
    from ai.kalah_solve import KalahProver

    game = parse_game_spec(args.game)
    loaded = tables.load_kalah_tables(args.folder, game.pits, bool(game.empty_capture), max_seeds=args.top)
    prover = KalahProver(game, loaded.tables if loaded.top >= 0 else None, memory=args.memory)
    started = time.perf_counter()
    prove = prover.prove_by_tests if args.mtd else prover.prove
    proof = prove(game.initial_state(), lambda it: print(f"  {it}", file=sys.stderr, flush=True))
    emit(kind="solve", game=game.spec, tables_top=loaded.top, method="mtd" if args.mtd else "deepening",
         value=proof.value, move=proof.move, nodes=proof.nodes, seconds=round(time.perf_counter() - started, 2),
         peak_rss_mb=round(peak_rss_mb(), 1))
    rule = "empty capture" if game.empty_capture else "standard rule"
    record(args.record, "kalah_tables", f"proof of {game_label(game)}, {rule}",
           f"{proof.value:+g} in {time.perf_counter() - started:.2f} s ({proof.nodes:,} nodes; tables up to "
           f"{loaded.top} seeds, --memory {args.memory:g})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("build", "lookups", "solve", "load", "command"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=18)
    parser.add_argument("--folder", default=None)
    parser.add_argument("--standard", action="store_true", help="the standard rule (no empty capture)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--count", type=int, default=5_000_000)
    parser.add_argument("--game", default="kalah:pits=6,seeds=3")
    parser.add_argument("--top", type=int, default=None)
    parser.add_argument("--memory", type=float, default=1024)
    parser.add_argument("--mtd", action="store_true")
    add_flag(parser)
    args = parser.parse_args()
    {"build": build, "lookups": lookups, "solve": solve, "load": load, "command": command}[args.what](args)


if __name__ == "__main__":
    main()
