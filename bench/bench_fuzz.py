"""The long run of the generated attacks: every hostile value of every option, every damage of every file kind
read by every reader, over several rounds of fresh random choices.

    python bench/bench_fuzz.py [--seed N] [--rounds 3] [--timeout 8] [--workers 2] [--only TEXT]
                               [--keep-failures DIR] [--json FILE] [--record [CONDITION]]

The cases are derived as in the CI run (tests/fuzz/test_generated_attacks.py): the options from
``game.cli.parser()``, the files from ``guarded.kinds.KINDS``; each runs in its own process with standard input
closed, its own settings folder, 2 GB of address space and a time bound (a long command is judged by how it
stops on Ctrl-C).  Prints each failure with its seed and the exact command that repeats it (``--keep-failures``
keeps the failing cases' folders so that command still finds its files), then cases, seconds and failures;
``--json`` writes them with the failures, ``--record`` to bench/results/fuzz.json (then
``python tools/benchmarks.py`` puts them in BENCHMARKS.md).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "fuzz"))

from attack_run import Report, attack  # noqa: E402
from bench.record import add_flag, machine, record  # noqa: E402

AREA = "fuzz"


def start_display() -> subprocess.Popen | None:
    """An Xvfb for the window's cases when there is no display (``stonecave gui`` is attacked with a window)."""
    if os.environ.get("DISPLAY") or shutil.which("Xvfb") is None:
        return None
    read_end, write_end = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x800x24", "-nolisten",
                               "tcp"], pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    with os.fdopen(read_end) as stream:
        number = stream.readline().strip()
    if not number:
        server.kill()
        return None
    os.environ["DISPLAY"] = f":{number}"
    return server


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=20261127, help="the generator's seed (default 20261127)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of file damage, each with fresh random "
                        "choices (default 3)")
    parser.add_argument("--timeout", type=float, default=8.0, help="seconds before a case's Ctrl-C (default 8)")
    parser.add_argument("--workers", type=int, default=2, help="cases run at once (default 2)")
    parser.add_argument("--only", default=None, help="only the cases whose option or kind contains this text")
    parser.add_argument("--keep-failures", type=Path, default=None, help="move failing cases' folders here")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures and failures here")
    add_flag(parser)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    last = [time.monotonic()]

    def progress(report: Report) -> None:
        if time.monotonic() - last[0] > 30:
            last[0] = time.monotonic()
            print(f"  {report.cases} cases, {len(report.failures)} failures so far", file=sys.stderr, flush=True)

    only = (lambda name: args.only in name) if args.only else None
    display = start_display()
    try:
        report = attack(args.seed, per_option=None, every_reader=True, timeout=args.timeout, workers=args.workers,
                        rounds=args.rounds, progress=progress, only=only, keep_failures=args.keep_failures)
    finally:
        if display is not None:
            display.terminate()
            display.wait(5)
    for failure in report.failures:
        print(failure.describe())
    for problem in report.sample_problems:
        print(f"sample: {problem}")
    print(report.summary())
    figures = {"cases": report.cases, "seconds": round(report.seconds, 1), "failures": len(report.failures),
               "seed": args.seed, "rounds": args.rounds, "timeout": args.timeout, "workers": args.workers,
               "machine": machine(), "load": f"{load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end",
               "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    if args.json is not None:
        failures = [{"label": f.label, "problems": f.problems, "command": f.command} for f in report.failures]
        args.json.write_text(json.dumps({**figures, "failures_found": failures}, indent=1) + "\n", encoding="utf-8")
    if args.only is None:
        yardstick = f"{report.cases:,} cases in {report.seconds:,.0f} s"
        record(args.record, AREA, "failures over every generated attack", len(report.failures), "failures",
               target="0", yardstick=yardstick)
        record(args.record, AREA, "cases run", report.cases, "cases", yardstick=f"{len(report.covered)} options "
               "and kind-damage pairs, each attacked at least once")
        record(args.record, AREA, "wall time", round(report.seconds, 1), f"s ({args.workers} at once, "
               f"{args.timeout:g} s bound)", yardstick=f"{report.seconds / max(1, report.cases):.2f} s a case")
    return 1 if report.failures or report.sample_problems else 0


if __name__ == "__main__":
    sys.exit(main())
