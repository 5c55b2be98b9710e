"""Run a batch of generated attacks: the short run of the test suite and the long run of bench/bench_fuzz.py.

``attack(seed, ...)`` makes the samples, generates the cases (``attack_cases``), runs them on a few worker
threads (each case is its own bounded process) and returns a ``Report``: cases, seconds, and each failure with
the seed and the exact command that repeats it.
"""
from __future__ import annotations

import random
import re
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from attack_cases import Listener, kind_cases, option_cases
from attack_files import Samples, unlock_all
from attack_runner import Case, Result, run


@dataclass
class Failure:
    label: str
    problems: list[str]
    command: str
    seed: int

    def describe(self) -> str:
        """The failure, its seed and its command (a word of thousands of characters shortened to
        ``$(python -c "print('x' * 5000)")``, so the line can still be pasted)."""
        command = re.sub(r"(\S)\1{199,}", lambda match: f"$(python -c \"print('{match.group(1)}' * "
                         f"{len(match.group(0))}, end='')\")", self.command)
        return f"{self.label}\n    {'; '.join(self.problems)}\n    seed {self.seed}: {command}"


@dataclass
class Report:
    seed: int
    cases: int = 0
    seconds: float = 0.0
    failures: list[Failure] = field(default_factory=list)
    covered: set[str] = field(default_factory=set)
    """The options and kind-mutations attacked at least once."""
    sample_problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (f"generated attacks (seed {self.seed}): {self.cases} cases in {self.seconds:.1f} s, "
                f"{len(self.failures)} failures")


def attack(seed: int, per_option: int | None, every_reader: bool, timeout: float, workers: int = 2,
           rounds: int = 1, progress: Callable[[Report], None] | None = None,
           only: Callable[[str], bool] | None = None, keep_failures: Path | None = None) -> Report:
    """Generate and run the attacks; ``per_option`` None runs every generated value of every option,
    ``rounds`` repeats the file mutations with fresh random choices; ``keep_failures``: a folder where each
    failing case's folder is moved (so its command can be run again as printed)."""
    report = Report(seed)
    start = time.monotonic()
    scratch = Path(tempfile.mkdtemp(prefix="stonecave-fuzz-"))
    listener = Listener()
    try:
        samples = Samples(scratch / "samples")
        report.sample_problems = samples.problems
        rng = random.Random(seed)
        makers = list(option_cases(rng, samples, scratch / "options", listener.address, per_option))
        for round_number in range(rounds):
            makers += list(kind_cases(random.Random(seed + round_number), samples, scratch / f"kinds-{round_number}",
                                      every_reader))
        if only is not None:
            makers = [(make, name) for make, name in makers if only(name)]

        def one(item: tuple[Callable[[], Case], str]) -> tuple[str, Case, Result]:
            make, name = item
            name, case, result = attempt(make, name, timeout)
            if result.interrupted and not case.long:
                # on a loaded machine Python may not even have started by the bound (a Ctrl-C during its imports
                # is a KeyboardInterrupt traceback): a second chance of three times the bound before a hang
                name, case, result = attempt(make, name, 3 * timeout)
            return name, case, result

        def attempt(make: Callable[[], Case], name: str, bound: float) -> tuple[str, Case, Result]:
            case = make()
            case.seed = case.seed or seed
            result = None
            try:
                result = run(case, bound)
                return name, case, result
            finally:
                if case.cwd and result is not None and result.failures and keep_failures is not None:
                    unlock_all(Path(case.cwd))
                    keep_failures.mkdir(parents=True, exist_ok=True)
                    kept = keep_failures / Path(case.cwd).name
                    shutil.rmtree(kept, ignore_errors=True)
                    shutil.move(case.cwd, kept)
                elif case.cwd:
                    unlock_all(Path(case.cwd))
                    shutil.rmtree(case.cwd, ignore_errors=True)

        with ThreadPoolExecutor(workers) as pool:
            for name, case, result in pool.map(one, makers):
                report.cases += 1
                report.covered.add(name)
                if result.failures:
                    report.failures.append(Failure(case.label, result.failures, case.command(), seed))
                if progress is not None:
                    progress(report)
    finally:
        listener.close()
        unlock_all(scratch)
        shutil.rmtree(scratch, ignore_errors=True)
    report.seconds = time.monotonic() - start
    return report
