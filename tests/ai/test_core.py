"""The compiled search core (ai.core): loaded and used, exact against the rules and the Python search, and
off the GIL.  The pure-Python fallback runs the same engine tests in a subprocess with STONECAVE_CORE=python."""
from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import ai.core
from ai.alphabeta import alphabeta_value
from ai.base import CancelToken, EngineError, Limits
from ai.evaluators import WIN, get_evaluator
from ai.fast import kernel_for
from ai.registry import make_engine
from ai.search import PVSEngine
from rules import get_game
from tests.cores import compiled_only
from tests.perft import counts as perft_counts, entry as perft_entry
from tests.playouts import playout_positions as random_positions

ROOT = Path(__file__).resolve().parents[2]
KALAH_VARIANTS = [dict(), dict(pits=3, seeds=3), dict(pits=4, seeds=3, empty_capture=False), dict(pits=6, seeds=6),
                  dict(pits=12, seeds=2), dict(pits=1, seeds=5)]


def rules_perft(game, state, depth):
    if depth == 0:
        return 1
    moves = game.legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(rules_perft(game, game.apply(state, move), depth - 1) for move in moves)


def test_the_compiled_core_is_loaded_under_ci():
    status = ai.core.status()
    if os.environ.get("CI", "").lower() == "true":
        assert status.compiled, status.why
    assert status.describe().startswith(status.name)


@compiled_only
def test_the_extension_agrees_with_python_on_its_constants():
    module = ai.core.module()
    assert module.WIN == WIN and module.ABI == ai.core.ABI


@compiled_only
@pytest.mark.parametrize("variant", KALAH_VARIANTS)
def test_kalah_perft_of_the_compiled_generator_equals_the_rules(variant):
    game = get_game("kalah", **variant)
    kernel = kernel_for(game, get_evaluator(game), compiled=True)
    for state in [game.initial_state()] + random_positions(game, 6, seed=len(variant)):
        for depth in range(1, 5):
            assert kernel.core.perft(kernel.encode(state), depth) == rules_perft(game, state, depth), (
                game.to_text(state), depth)


@compiled_only
def test_kalah_perft_from_the_start_to_depth_8():
    game = get_game("kalah")
    kernel = kernel_for(game, get_evaluator(game), compiled=True)
    counts = [kernel.core.perft(kernel.encode(game.initial_state()), depth) for depth in range(1, 9)]
    # depths 1..5 from the rules (checked above for every variant); 6..8 are the compiled generator's own
    assert counts[:5] == [rules_perft(game, game.initial_state(), d) for d in range(1, 6)]
    assert counts == [count for _, count in sorted(perft_counts(perft_entry("kalah")).items())]  # tests/data/perft.json


@compiled_only
@pytest.mark.parametrize("variant", KALAH_VARIANTS[:4])
@pytest.mark.parametrize("evaluator", ["default", "store", "zero"])
def test_compiled_pvs_returns_the_alphabeta_value_at_a_fixed_depth(variant, evaluator):
    game = get_game("kalah", **variant)
    rng = random.Random(7)
    for state in random_positions(game, 60, seed=hash(evaluator) % 1000 + len(variant)):
        depth = rng.randrange(1, 6)
        engine = make_engine(game, f"pvs:depth={depth},eval={evaluator}")
        assert engine.kernel.compiled
        result = engine.search(state, Limits())
        assert result.info["core"] == "compiled"
        assert result.score == alphabeta_value(game, engine.evaluator, state, depth), (game.to_text(state), depth)
        assert result.move in game.legal_moves(state)


@compiled_only
def test_a_fixed_depth_search_is_deterministic_and_keeps_its_table_between_moves():
    game = get_game("kalah")
    for state in random_positions(game, 8, seed=3):
        first = make_engine(game, "pvs:depth=9").search(state, Limits())
        second = make_engine(game, "pvs:depth=9").search(state, Limits())
        assert (first.move, first.score, first.nodes, first.pv) == (second.move, second.score, second.nodes, second.pv)
        engine = make_engine(game, "pvs:depth=9")
        engine.search(state, Limits())
        again = engine.search(state, Limits())  # the table remembers: fewer nodes, the same answer
        assert (again.move, again.score) == (first.move, first.score) and again.nodes < first.nodes


@compiled_only
def test_a_principal_variation_is_a_legal_line():
    game = get_game("kalah")
    result = make_engine(game, "pvs:depth=12").search(game.initial_state(), Limits())
    state = game.initial_state()
    assert len(result.pv) >= 6
    for move in result.pv:
        assert move in game.legal_moves(state)
        state = game.apply(state, move)


@compiled_only
def test_a_cancel_from_another_thread_stops_the_compiled_search_at_once():
    game = get_game("kalah")
    engine = make_engine(game, "pvs:time=none,depth=60")
    token = CancelToken()
    results = []
    thread = threading.Thread(target=lambda: results.append(engine.search(game.initial_state(), Limits(), token)))
    thread.start()
    time.sleep(0.3)
    cancelled = time.perf_counter()
    token.cancel()
    thread.join(5)
    stopped = time.perf_counter() - cancelled
    assert not thread.is_alive() and results
    assert results[0].depth >= 10 and results[0].move in game.legal_moves(game.initial_state())
    assert stopped < 0.5, f"the search took {stopped:.3f} s to stop"  # bench/bench_core.py cancel: ~0.1 ms


@compiled_only
def test_the_compiled_search_leaves_the_gil_to_other_threads():
    """With a switch interval of 2 s, a search that held the GIL would starve this thread; a compiled one
    releases it for each iteration, so the main thread runs at once."""
    game = get_game("kalah")
    engine = make_engine(game, "pvs:time=1.5")
    previous = sys.getswitchinterval()
    sys.setswitchinterval(2.0)
    try:
        thread = threading.Thread(target=engine.search, args=(game.initial_state(), Limits()))
        thread.start()
        time.sleep(0.05)
        started = time.perf_counter()
        total = 0
        for i in range(200_000):
            total += i
        elapsed = time.perf_counter() - started
        thread.join()
    finally:
        sys.setswitchinterval(previous)
    assert elapsed < 1.0, f"the main thread waited {elapsed:.2f} s for the GIL"


@compiled_only
def test_a_cut_short_iteration_returns_the_last_completed_depth():
    game = get_game("kalah")
    result = make_engine(game, "pvs:time=none,nodes=300000").search(game.initial_state(), Limits())
    assert result.depth >= 8 and result.move in game.legal_moves(game.initial_state())
    assert result.nodes <= 300000 + 64  # the limit is polled in C; leaves are counted in bulk per node


def test_a_table_larger_than_the_machine_is_refused_up_front():
    game = get_game("kalah")
    with pytest.raises(EngineError, match="more than a table may take on this machine"):
        make_engine(game, "pvs:memory=65536")
    with pytest.raises(EngineError, match="memory"):
        PVSEngine(game, memory=0)


@compiled_only
def test_the_table_takes_the_memory_asked_for():
    game = get_game("kalah")
    engine = make_engine(game, "pvs:memory=16")
    assert 8 <= engine.table.megabytes <= 16  # a power of two of 24-byte entries, at most what was asked
    engine.search(game.initial_state(), Limits(depth=10))
    assert 0 < len(engine.table) <= engine.table.capacity


def test_the_engine_tests_pass_on_the_pure_python_kernels():
    """The fallback: the engine suites again with STONECAVE_CORE=python (as where no compiler exists)."""
    env = dict(os.environ, STONECAVE_CORE="python", CI="false")
    files = ["tests/ai/test_ai_search.py", "tests/ai/test_ai_fast.py", "tests/ai/test_ai_fast_fallback.py"]
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *files],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "failed" not in run.stdout.splitlines()[-1]
    probe = subprocess.run([sys.executable, "-c", "import ai.core; print(ai.core.status().describe())"],
                           cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert probe.stdout.startswith("pure Python (STONECAVE_CORE=python")
