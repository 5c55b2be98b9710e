"""Games per minute of one tournament in one process, on a process pool and on a local Dask cluster.

    python bench/bench_cluster.py [--jobs 2] [--short-games 200] [--long-games 60] [--json FILE]

Two workloads on Kalah (6 pits, 4 seeds), 8 balanced openings judged by ``greedy``:

- short games, ``alphabeta:depth=4`` against ``alphabeta:depth=3`` (about 25 ms a game in one process), where
  the cost of shipping a task and its record dominates;
- long games, ``pvs:depth=8`` against ``pvs:depth=7`` (about a quarter of a second a game), closer to real
  engine testing.

Each is played by ``compare`` with ``--jobs 1``, ``--jobs N`` (a spawn pool) and ``--cluster local --jobs N``
(a local Dask cluster of N single-threaded worker processes).  Wall time includes starting and stopping the
pool or cluster, which the script also times on its own (a runner started, one one-pit game played on
it, the runner closed); "games/min running" takes that start-up off the wall time.
The per-game records of the three runs are compared: they must be identical.  Prints a Markdown table;
``--json`` also writes the figures with the date, machine and load average.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.cluster import make_runner  # noqa: E402
from ai.tournament import GameTask, compare, play_game  # noqa: E402
from bench.record import add_flag, record  # noqa: E402

GAME = "kalah"
WORKLOADS = {
    "short": ("alphabeta:depth=4", "alphabeta:depth=3"),
    "long": ("pvs:depth=8", "pvs:depth=7"),
}


def _outline(result) -> list:
    return [(r.index, r.winner, r.scores, r.plies) for r in result.records]


def startup_seconds(jobs: int, cluster: str | None) -> float:
    """Time to start a runner, play one one-pit game on it (a worker's imports included), and close it."""
    task = next(iter(_tiny_tasks()))
    started = time.perf_counter()
    runner = make_runner(play_game, jobs, cluster)
    runner.submit(task)
    runner.next_record()
    runner.close()
    return time.perf_counter() - started


def _tiny_tasks():
    yield GameTask(0, "kalah:pits=1,seeds=1", ("random", "random"), 0, 0, (), (1, 2), None)


def measure(workload: str, games: int, jobs: int) -> list[dict]:
    spec_a, spec_b = WORKLOADS[workload]
    rows, outlines = [], []
    for label, options in (("1 process", dict(jobs=1)), (f"--jobs {jobs}", dict(jobs=jobs)),
                           (f"--cluster local --jobs {jobs}", dict(jobs=jobs, cluster="local"))):
        started = time.perf_counter()
        result = compare(GAME, spec_a, spec_b, games=games, openings=8, judge="greedy", seed=1, **options)
        seconds = time.perf_counter() - started
        outlines.append(_outline(result))
        rows.append({"workload": workload, "engines": f"{spec_a} vs {spec_b}", "runner": label, "games": games,
                     "seconds": seconds, "games_per_minute": 60 * games / seconds,
                     "startup_seconds": startup_seconds(options["jobs"], options.get("cluster"))})
        print(f"  {workload:<5} {label:<28} {games} games in {seconds:6.2f} s: {60 * games / seconds:8.0f} games/min",
              file=sys.stderr)
    if any(outline != outlines[0] for outline in outlines):
        raise SystemExit("the runners played different games: a bug")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--short-games", type=int, default=200)
    parser.add_argument("--long-games", type=int, default=60)
    parser.add_argument("--json", metavar="FILE")
    add_flag(parser)
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    rows = measure("short", args.short_games, args.jobs) + measure("long", args.long_games, args.jobs)
    document = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "load_average_before_after": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "command": "python bench/bench_cluster.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "rows": rows,
    }
    print(f"{document['date']}, {document['machine']}, load {document['load_average_before_after']}")
    for row in rows:  # the rate once running: the start-up, timed on its own, taken off the wall time
        row["games_per_minute_running"] = 60 * row["games"] / max(1e-9, row["seconds"] - row["startup_seconds"])
    print("| workload | runner | games | seconds | games/min | vs --jobs | start-up s "
          "| games/min running | vs --jobs |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for row in rows:
        pool = next(r for r in rows if r["workload"] == row["workload"] and r["runner"] == f"--jobs {args.jobs}")
        ratio = row["games_per_minute"] / pool["games_per_minute"]
        running = row["games_per_minute_running"] / pool["games_per_minute_running"]
        print(f"| {row['workload']} ({row['engines']}) | `{row['runner']}` | {row['games']} | {row['seconds']:.2f} "
              f"| {row['games_per_minute']:.0f} | {ratio:.2f} | {row['startup_seconds']:.2f} "
              f"| {row['games_per_minute_running']:.0f} | {running:.2f} |")
        record(args.record, "tournaments", f"{row['workload']} games ({row['engines']}), {row['runner']}",
               round(row["games_per_minute"]), f"games/min (start-up {row['startup_seconds']:.2f} s)",
               yardstick=f"--jobs {args.jobs}, {pool['games_per_minute']:,.0f} games/min", ratio=ratio)
    if args.json:
        Path(args.json).write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
