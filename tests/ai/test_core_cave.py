"""The compiled Magnetic Cave kernel (``ai/core/cave.pxi``) against the pure-Python references.

- forced children (``CaveKernel``) and plain children (``GameKernel`` over the rules), evaluations of the
  threat and the windows evaluator, playing for either colour, on random positions of random games;
- the fill game (the zugzwang outlook) against ``zugzwang_outlook`` on crowded runs;
- perft of the compiled move generator against the rules';
- fixed-depth values of the compiled search against the Python PVS on the same kernel and against
  alpha-beta on the rules; the endgame solver in front of both; determinism; cancel from another thread.
"""
from __future__ import annotations

import os
import random
import threading
import time

import pytest

import ai.core as core
from ai.alphabeta import alphabeta_value
from ai.base import Limits
from ai.evaluators import WIN, evaluator_for, final_score
from ai.evaluators import magnetic_cave as cave_evaluation
from ai.evaluators.magnetic_cave import ThreatEvaluator, WindowEvaluator, zugzwang_outlook
from ai.fast import GameKernel
from ai.fast.magnetic_cave import CaveKernel
from ai.search import Budget, _Run
from ai.transposition import TranspositionTable
from rules.magnetic_cave import FULL, CaveState, MagneticCave
from tests.playouts import playout_positions

if core.module() is None:
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"the compiled core is missing under CI: {core.status().why}")
    pytest.skip(f"the compiled core is not built: {core.status().why}", allow_module_level=True)

from ai.core.kernels import CompiledCaveKernel  # noqa: E402  (needs the extension)

GAME = MagneticCave()


def random_states(count: int, seed: int) -> list[CaveState]:
    """Non-terminal positions of uniformly random games (every position of each game, in order)."""
    rng = random.Random(seed)
    states: list[CaveState] = []
    while len(states) < count:
        state = GAME.initial_state()
        while not GAME.is_terminal(state):
            states.append(state)
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    return states[:count]


def middle_states(count: int, seed: int, low: int = 10, high: int = 30) -> list[CaveState]:
    """Non-terminal positions ``low..high`` plies into random games (one a game)."""
    return playout_positions(GAME, count, seed, longest=high + 1, shortest=low)


def as_int(children: list[tuple]) -> list[tuple]:
    """Compiled children with CaveKernel's int positions."""
    return [(m, None if c is None else int.from_bytes(c, "little"), s, f) for m, c, s, f in children]


class WindowCaveKernel(CaveKernel):
    """CaveKernel's forced children scored by the windows evaluator (the reference of that compiled mode)."""

    def __init__(self, game, margins: bool = False) -> None:
        super().__init__(game, ThreatEvaluator(), margins)
        self.window = WindowEvaluator()

    def _scorer(self, position):
        return lambda mine, theirs: self.window.evaluate(GAME, CaveState(mine, theirs, 0))


@pytest.fixture
def deep_three(monkeypatch):
    """A search values its own deep windows of three by colour (off by default): both colours favoured."""
    monkeypatch.setattr(cave_evaluation, "DEEP_THREE", (60, 80))


# -- children and evaluations -------------------------------------------------------------------------------------


def check_forced_kernel(states: list[CaveState], margins: bool = False) -> dict[str, int]:
    compiled = CompiledCaveKernel(GAME, ThreatEvaluator(), margins)
    python = CaveKernel(GAME, ThreatEvaluator(), margins)
    seen = {"final": 0, "four": 0, "quiet": 0, "outlook": 0, "below": 0}
    for state in states:
        position, reference = compiled.encode(state), python.encode(state)
        assert int.from_bytes(position, "little") == reference
        assert compiled.decode(position, state.to_move) == state
        text = GAME.to_text(state)
        assert compiled.evaluate(position) == python.evaluate(reference), text
        children = as_int(compiled.children(position))
        assert children == python.children(reference), text
        for move, child, same, final in children[:5]:
            if final is not None:
                seen["final"] += 1
                continue
            seen["four" if same else "quiet"] += 1
            seen["below"] += 1  # a child holds the root's bricks: scored by the live windows only
            assert compiled.evaluate(child.to_bytes(16, "little")) == python.evaluate(child), (text, move)
        mine, theirs = reference & FULL, reference >> 64
        if cave_evaluation.threat_masks(mine, theirs) != (0, 0):
            seen["outlook"] += 1
    return seen


def test_forced_children_and_threat_scores_equal_the_python_cave_kernel():
    seen = check_forced_kernel(random_states(2500, seed=31))
    assert min(seen.values()) >= 100, seen


def test_forced_children_and_scores_playing_for_either_colour(deep_three):
    states = random_states(1200, seed=32)
    favoured = {0: 0, 1: 0}
    for state in states:
        favoured[state.to_move] += evaluator_for(ThreatEvaluator(), GAME, state).favour is not None
    assert min(favoured.values()) >= 400
    seen = check_forced_kernel(states)
    assert min(seen.values()) >= 50, seen


def test_forced_children_with_margins_score_a_win_one():
    compiled = CompiledCaveKernel(GAME, ThreatEvaluator(), margins=True)
    finals = set()
    for state in random_states(600, seed=33):
        for _, _, _, final in compiled.children(compiled.encode(state)):
            if final is not None:
                finals.add(final)
    assert finals == {1.0, -1.0} or finals == {1.0, -1.0, 0.0}
    check_forced_kernel(random_states(300, seed=33), margins=True)


@pytest.mark.parametrize("evaluator", [WindowEvaluator(), ThreatEvaluator()], ids=["windows", "threat"])
def test_plain_children_and_scores_equal_the_rules(evaluator):
    compiled = CompiledCaveKernel(GAME, evaluator, forced=False)
    reference = GameKernel(GAME, evaluator)
    ends = 0
    for state in random_states(1500, seed=34):
        position = compiled.encode(state)
        playing = evaluator_for(evaluator, GAME, reference.encode(state))
        assert compiled.evaluate(position) == playing.evaluate(GAME, state)
        children = compiled.children(position)
        # the rules' order, except that (as for every compiled kernel) wins come first and ties last
        afters = {move: GAME.apply(state, move) for move in GAME.legal_moves(state)}
        rank = {move: 0 if after.winner is not None else 2 if GAME.is_terminal(after) else 1
                for move, after in afters.items()}
        assert [c[0] for c in children] == sorted(afters, key=rank.__getitem__)
        for move, child, same, final in children:
            after = GAME.apply(state, move)
            assert not same
            if final is not None:
                ends += 1
                assert GAME.is_terminal(after) and final == final_score(GAME, after, state.to_move)
            else:
                assert not GAME.is_terminal(after)
                assert compiled.decode(child, after.to_move) == after
        for move, child, _, final in children[:3]:
            if final is None:
                assert compiled.evaluate(child) == playing.evaluate(GAME, compiled.decode(child, 1 - state.to_move))
    assert ends >= 20


def test_forced_children_scored_by_the_windows_evaluator():
    compiled = CompiledCaveKernel(GAME, WindowEvaluator(), forced=True)
    python = WindowCaveKernel(GAME)
    for state in random_states(800, seed=35):
        position, reference = compiled.encode(state), python.encode(state)
        assert compiled.evaluate(position) == python.evaluate(reference)
        assert as_int(compiled.children(position)) == python.children(reference)


def test_the_fill_game_equals_the_zugzwang_outlook_on_crowded_runs():
    compiled = CompiledCaveKernel(GAME, ThreatEvaluator())
    rng = random.Random(36)
    values = {1: 0, 0: 0, -1: 0}
    for _ in range(3000):
        occupied, mine, theirs = FULL, 0, 0
        for row in rng.sample(range(8), rng.randint(1, 4)):
            start = rng.randint(0, 4)
            for column in range(start, min(8, start + rng.randint(1, 7))):
                cell = row * 8 + column
                occupied &= ~(1 << cell)
                kind = rng.choice(".....mtb")
                mine |= (kind in "mb") << cell
                theirs |= (kind in "tb") << cell
        for row in rng.sample(range(8), 2):  # a few free cells elsewhere
            if not (mine | theirs) >> (8 * row) & 0xFF and not (FULL ^ occupied) >> (8 * row) & 0xFF:
                occupied &= ~(((1 << rng.randint(0, 3)) - 1) << (8 * row))
        expected = zugzwang_outlook(occupied, mine, theirs)
        assert compiled.core.outlook(occupied, mine, theirs) == expected
        values[expected] += 1
    assert min(values.values()) >= 200, values


# -- perft ----------------------------------------------------------------------------------------------------------


def perft(state: CaveState, depth: int) -> int:
    moves = GAME.legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(perft(GAME.apply(state, move), depth - 1) for move in moves)


def test_perft_from_the_start():
    compiled = CompiledCaveKernel(GAME, ThreatEvaluator())
    root = compiled.encode(GAME.initial_state())
    assert [compiled.perft(root, depth) for depth in range(1, 5)] == [16, 256, 4096, 65536]
    assert compiled.perft(root, 5) == 16 ** 5  # no five can be made in five plies
    assert compiled.perft(root, 4) == perft(GAME.initial_state(), 4)


def test_perft_from_random_positions():
    compiled = CompiledCaveKernel(GAME, ThreatEvaluator())
    counted = 0
    for state in random_states(4000, seed=37)[::90]:
        root = compiled.encode(state)
        for depth in (1, 2, 3):
            counted += 1
            assert compiled.perft(root, depth) == perft(state, depth), (GAME.to_text(state), depth)
    assert counted >= 120


# -- the search -----------------------------------------------------------------------------------------------------


def compiled_values(kernel: CompiledCaveKernel, state: CaveState, depth: int, run=None) -> list[tuple]:
    """(score, move) of each iteration 1..depth of the compiled search (no endgame solver)."""
    run = run or core.module().CaveRun(kernel.core, kernel.new_table(16))
    root = kernel.encode(state)
    return [run.root(root, d)[:2] for d in range(1, depth + 1)]


def python_values(kernel, state: CaveState, depth: int) -> list[float]:
    run = _Run(kernel, TranspositionTable(1_000_000), Budget(None, None), 256)
    root = kernel.encode(state)
    return [run.root(root, d)[0] for d in range(1, depth + 1)]


def test_fixed_depth_values_equal_the_python_search_on_the_cave_kernel():
    compiled = CompiledCaveKernel(GAME, ThreatEvaluator())
    python = CaveKernel(GAME, ThreatEvaluator())
    states = middle_states(250, seed=38, low=4, high=40)
    for index, state in enumerate(states):
        depth = 4 if index < 25 else 3
        ours = compiled_values(compiled, state, depth)
        assert [score for score, _ in ours] == python_values(python, state, depth), GAME.to_text(state)


def test_fixed_depth_values_with_the_windows_evaluator():
    # forced children: the Python search on the same kernel; plain: alpha-beta on the rules
    forced = CompiledCaveKernel(GAME, WindowEvaluator(), forced=True)
    plain = CompiledCaveKernel(GAME, WindowEvaluator())
    reference = WindowCaveKernel(GAME)
    for index, state in enumerate(middle_states(60, seed=39)):
        assert [s for s, _ in compiled_values(forced, state, 3)] == python_values(reference, state, 3)
        depth = 3 if index < 12 else 2
        assert compiled_values(plain, state, depth)[-1][0] == alphabeta_value(GAME, WindowEvaluator(), state, depth)


def test_plain_threat_values_equal_alphabeta_on_the_rules():
    plain = CompiledCaveKernel(GAME, ThreatEvaluator(), forced=False)
    for state in middle_states(40, seed=40):
        assert compiled_values(plain, state, 2)[-1][0] == alphabeta_value(GAME, ThreatEvaluator(), state, 2)


def endgame_values(kernel, state: CaveState, depth: int) -> list[tuple]:
    budget = Budget(Limits(depth=depth), None)
    run = kernel.make_run(TranspositionTable(1_000_000) if isinstance(kernel, CaveKernel) else kernel.new_table(16),
                          budget, 256)
    root = kernel.encode(state)
    values = []
    for d in range(1, depth + 1):
        score, move, resolved = run.root(root, d)
        values.append((score, resolved, kernel.root_moves))
        if resolved:
            break
    return values


def test_the_endgame_solver_in_front_gives_the_same_values():
    from test_cave_endgame import late_positions

    compiled = CompiledCaveKernel(GAME, ThreatEvaluator())
    python = CaveKernel(GAME, ThreatEvaluator())
    narrowed = proven = 0
    for empty in (14, 18):
        for state in late_positions(12, empty, seed=41 + empty):
            ours = endgame_values(compiled, state, 3)
            assert ours == endgame_values(python, state, 3), GAME.to_text(state)
            narrowed += ours[-1][2] is not None
            proven += ours[0][0] >= WIN
    assert narrowed + proven >= 3


def test_a_search_is_deterministic_and_mutates_nothing():
    kernel = CompiledCaveKernel(GAME, ThreatEvaluator())
    for state in middle_states(8, seed=42):
        root = kernel.encode(state)
        copy = bytes(root)
        children = kernel.children(root)
        first = core.module().CaveRun(kernel.core, kernel.new_table(8))
        second = core.module().CaveRun(kernel.core, kernel.new_table(8))
        one = [first.root(root, d) for d in range(1, 6)]
        two = [second.root(root, d) for d in range(1, 6)]
        assert one == two and first.nodes == second.nodes
        assert root == copy and kernel.children(root) == children
        assert kernel.decode(root, state.to_move) == state


def test_cancel_from_another_thread_stops_the_search_at_once():
    kernel = CompiledCaveKernel(GAME, ThreatEvaluator())
    flag = bytearray(1)
    run = core.module().CaveRun(kernel.core, kernel.new_table(16), cancel_flag=flag)
    root = kernel.encode(middle_states(1, seed=43)[0])
    outcome = {}

    def search() -> None:
        try:
            run.root(root, 40)
            outcome["result"] = "finished"
        except Exception as error:  # noqa: BLE001 - the test reads which exception
            outcome["result"] = type(error).__name__
        outcome["stopped"] = time.perf_counter()

    worker = threading.Thread(target=search)
    worker.start()
    time.sleep(0.2)
    assert worker.is_alive() and run.nodes > 10_000  # searching, without the GIL
    flag[0] = 1
    cancelled = time.perf_counter()
    worker.join(2.0)
    assert outcome["result"] == "SearchAborted"
    # a loose bound (the machine is shared): a cancel the loop missed would run on for seconds; the 0.06 ms
    # it takes is measured by bench/bench_core.py cancel
    assert outcome["stopped"] - cancelled < 0.5


def test_the_engine_runs_the_compiled_kernel_and_returns_the_python_kernels_values():
    from ai.fast import kernel_for
    from ai.search import PVSEngine

    compiled_engine = PVSEngine(GAME, time=None, depth=4)
    assert isinstance(compiled_engine.kernel, CompiledCaveKernel)
    assert isinstance(kernel_for(GAME, ThreatEvaluator(), compiled=False), CaveKernel)
    for state in middle_states(25, seed=44):
        python_engine = PVSEngine(GAME, time=None, depth=4)
        python_engine.kernel = kernel_for(GAME, ThreatEvaluator(), compiled=False)
        python_engine.table = TranspositionTable(1_000_000)
        ours, theirs = compiled_engine.search(state), python_engine.search(state)
        assert ours.info["core"] == "compiled" and theirs.info["core"] != "compiled"
        assert (ours.score, ours.depth) == (theirs.score, theirs.depth), GAME.to_text(state)
        assert ours.move in GAME.legal_moves(state) and ours.pv[0] == ours.move


def test_the_zugzwang_weight_is_read_at_each_search(monkeypatch):
    kernel = CompiledCaveKernel(GAME, ThreatEvaluator())
    python = CaveKernel(GAME, ThreatEvaluator())
    changed = 0
    for state in random_states(600, seed=45)[::2]:
        scores = []
        for weight in (0, 900):  # the same root searched again with another weight
            monkeypatch.setattr(cave_evaluation, "ZUGZWANG", weight)
            scores.append(kernel.evaluate(kernel.encode(state)))
            assert scores[-1] == python.evaluate(python.encode(state)), GAME.to_text(state)
        changed += scores[0] != scores[1]
    assert changed >= 5
