"""Generated attacks in CI: every option of every command and every kind of file, attacked in a short run.

The attacks are derived, not listed: the options from ``game.cli.parser()`` (every sub-command's
``_actions``), the files from ``guarded.kinds.KINDS``.  Each case runs in its own process, bounded in time and
memory; a traceback, a hang, a crash signal, an exit status outside 0/1/2/130, a failure without a message, a
wrong value or a lost file fails the run, which prints each failing case's seed and exact command.
``python bench/bench_fuzz.py`` runs the long version (every generated value, every reader, more rounds).
The seed is fixed (``STONECAVE_FUZZ_SEED`` sets another), so a failure repeats; the command printed with it
runs the failing case alone.
"""
from __future__ import annotations

import os
import random
import re
import textwrap
from concurrent.futures import ThreadPoolExecutor

import pytest

from attack_cases import BASELINES, classify, commands, kind_cases, options, values_for
from attack_files import MUTATIONS, Samples
from attack_run import attack
from attack_runner import Case, run
from guarded.kinds import KINDS
from tests import background

SEED = int(os.environ.get("STONECAVE_FUZZ_SEED", "20261127"))
TIMEOUT = 5.0
"""Seconds a case may run before its Ctrl-C (Python starts in 0.2 s; a loaded 2-core machine takes longer)."""
WORKERS = 3
BACKGROUND_WORKERS = 2
"""Cases run at once: three on two cores, because part of each case's time is spent in this process (its folder
made, its files hashed, its result judged) while the other cases' processes run (58-65 s against 71-84 s with two,
the short run on the shared 2-core machine)."""


# -- the harness catches what it must ------------------------------------------------------------------------------
def _probe(code: str, **fields) -> Case:  # type: ignore[no-untyped-def]
    return Case("self-test", ["--probe", textwrap.dedent(code)], **fields)


@pytest.mark.parametrize("code, expected", [
    ("raise RuntimeError('boom')", "traceback: RuntimeError: boom"),
    ("import os, signal; os.kill(os.getpid(), signal.SIGSEGV)", "crash: killed by SIGSEGV"),
    ("import sys; sys.exit(3)", "exit status 3"),
    ("import sys; sys.exit(1)", "exit status 1 without a message"),
    ("import time\ntry:\n    time.sleep(30)\nexcept KeyboardInterrupt:\n    print('stopped')",
     "hang: still running after 1 s"),
    ("import signal, time; signal.signal(signal.SIGINT, signal.SIG_IGN); time.sleep(30)", "hang: still running 1 s"),
    ("x = bytearray(3 * 1024**3)", "traceback: MemoryError"),
])
def test_the_harness_catches_tracebacks_crashes_hangs_and_memory(code, expected):
    result = run(_probe(code), timeout=1.0)
    assert any(failure.startswith(expected) for failure in result.failures), result.failures


def test_a_long_command_passes_when_it_stops_on_ctrl_c_and_said_something():
    code = ("import time\nprint('working')\ntry:\n    time.sleep(30)\nexcept KeyboardInterrupt:\n"
            "    raise SystemExit(130)")
    assert run(_probe(code, long=True), timeout=1.0).failures == []
    silent = "import time\ntry:\n    time.sleep(30)\nexcept KeyboardInterrupt:\n    raise SystemExit(130)"
    assert run(_probe(silent, long=True), timeout=1.0).failures[0].startswith("silent")


def test_a_lost_file_and_a_wrong_value_are_failures(tmp_path):
    precious = tmp_path / "game.save"
    precious.write_text("moves: 12\n")
    case = _probe(f"import pathlib; pathlib.Path({str(precious)!r}).unlink(); print('value: 3')")
    case.keep = lambda: [] if precious.exists() else ["lost: game.save vanished"]
    case.oracle = lambda result: [] if "value: 4" in result.stdout else ["wrong value: 3, not 4"]
    assert run(case, timeout=5).failures == ["wrong value: 3, not 4", "lost: game.save vanished"]


# -- the attacks come from the parser and the kinds ----------------------------------------------------------------
def test_the_parser_has_every_command_and_each_has_a_baseline():
    found = commands()
    assert {"text", "compare", "tables", "solve", "gui", "engines", "games", "doctor"} <= set(found)
    assert set(found) <= set(BASELINES), f"commands without a baseline: {set(found) - set(BASELINES)}"
    flags = {f"{command} {flag}" for command, parser in found.items() for action in options(parser)
             for flag in action.option_strings}
    assert {"solve --memory", "compare --resume", "compare --cluster", "tables --seeds", "text --load",
            "gui --config-dir"} <= flags


def test_options_get_values_by_what_they_take():
    found = commands()
    by_flag = {f"{command} {action.option_strings[-1] if action.option_strings else action.dest}": action
               for command, parser in found.items() for action in options(parser)}
    assert classify(by_flag["solve --memory"]) == "number"
    assert classify(by_flag["compare --games"]) == "number"
    assert classify(by_flag["compare --resume"]) == "path"
    assert classify(by_flag["tables --folder"]) == "path"
    assert classify(by_flag["compare --cluster"]) == "address"
    assert classify(by_flag["compare --engine"]) == "engine"
    assert classify(by_flag["solve game"]) == "game"
    assert classify(by_flag["solve --no-pv"]) == "flag"
    rng = random.Random(1)
    numbers = values_for(by_flag["solve --memory"], "1024", rng, "tcp://127.0.0.1:9")
    assert {"nan", "-1", "0", "1e12", "١٢", "１２"} <= set(numbers)
    games = values_for(by_flag["solve game"], "kalah:pits=3,seeds=2", rng, "tcp://127.0.0.1:9")
    assert "kalah:pits=3,seeds=2,pits=5" in games and "kalah:pits=١٢,seeds=2" in games
    engines = values_for(by_flag["compare --engine"], "random", rng, "tcp://127.0.0.1:9")
    assert any(value.startswith("random:seed=") for value in engines)


def test_the_text_consoles_options_are_all_in_the_parser():
    """``text`` is parsed by hand: every ``--option`` its usage names must be in ``game.cli.parser()``."""
    from game.console import manager, solitaire

    parser = commands()["text"]
    known = {flag for action in parser._actions for flag in action.option_strings}
    named = set(re.findall(r"--[a-z][a-z-]*", manager.USAGE + solitaire.USAGE)) - {"--seat"}
    assert named <= known, f"text options missing from game.cli._text_parser: {named - known}"


def test_every_sample_is_made_and_read_cleanly(tmp_path):
    """Unharmed, each kind's sample passes each of its readers (else every attack on it would mean nothing)."""
    samples = Samples(tmp_path / "samples")
    assert samples.problems == []
    makers = [make for make, _name in kind_cases(random.Random(SEED), samples, tmp_path / "clean", mutations=("none",))]
    with ThreadPoolExecutor(WORKERS) as pool:
        results = list(pool.map(lambda make: run(make(), TIMEOUT), makers))
    assert len(results) >= len(KINDS)
    failures = [f"{result.case.label}: {problem}" for result in results for problem in result.failures]
    assert failures == []


# -- the short run ---------------------------------------------------------------------------------------------
@background.job("attacks")
def generated_attacks(folder):  # type: ignore[no-untyped-def]
    """The short run, beside the rest of the suite: two cases at a time (the suite's own process takes a core)."""
    return attack(SEED, per_option=2, every_reader=False, timeout=TIMEOUT, workers=BACKGROUND_WORKERS)


@pytest.mark.background("attacks")
def test_the_generated_attacks_find_no_failure():
    """One hostile value per option (and one duplicate), each file kind in each damage read by one reader in
    turn; every option and every kind-damage pair attacked at least once."""
    report = background.result("attacks")
    assert report.sample_problems == []
    expected = {f"{kind.name} {mutation}" for kind in KINDS for mutation in MUTATIONS}
    expected |= {f"{command} {action.option_strings[-1] if action.option_strings else action.dest}"
                 for command, parser in commands().items() for action in options(parser)}
    assert expected <= report.covered, f"not attacked: {sorted(expected - report.covered)}"
    if report.failures:
        pytest.fail(f"{report.summary()}\n" + "\n".join(failure.describe() for failure in report.failures),
                    pytrace=False)
