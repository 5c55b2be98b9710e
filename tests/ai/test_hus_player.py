"""The Hus computer player: the packed kernel computes exactly what the rules compute, the engine on it obeys
its limits and leaves nothing running, and a Hus game can be played, undone, saved and loaded in the console.
"""
from __future__ import annotations

import io
import random
import threading

import pytest

from ai import registry
from ai.core.kernels import CompiledHusKernel
from ai.alphabeta import AlphaBetaEngine
from ai.base import CancelToken, Limits
from ai.evaluators import get_evaluator
from ai.evaluators.hus import HusEvaluator, terms
from ai.fast import GameKernel, kernel_for
from ai.fast.hus import HusKernel, has_quick_move, pack
from ai.search import PVSEngine
from game import savegame
from game.console.manager import main
from rules import Reason, get_game
from rules.hus import RING, HusState

VARIANTS = [dict(), dict(lap_limit=2), dict(lap_limit=1, turn_limit=12), dict(turn_limit=8)]
EXERCISED = [
    {"capture", "no move"},
    {"capture", "no move", "capped move", "lap cap loss"},
    {"capped move", "lap cap loss"},  # one lap only: a capture would need a second lap, so none is legal
    {"capture", "turn limit"},
]
"""The edge cases each variant's random positions must reach (so the comparison really covers them)."""
EVALUATOR = HusEvaluator("test", mobility=0.5, exposure=-0.25, inner=0.125)


def random_positions(game, count: int, seed: int) -> list[HusState]:
    """Non-terminal positions from random games (every position of each game, so ends are near)."""
    rng = random.Random(seed)
    found: list[HusState] = []
    while len(found) < count:
        state = game.initial_state()
        while not game.is_terminal(state) and len(found) < count:
            found.append(state)
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    return found


@pytest.mark.parametrize("variant, exercised", list(zip(VARIANTS, EXERCISED)),
                         ids=[",".join(f"{k}={x}" for k, x in v.items()) or "default" for v in VARIANTS])
@pytest.mark.parametrize("margins", [False, True])
def test_kernel_children_order_ends_and_scores_match_the_rules(variant, exercised, margins):
    game = get_game("hus", **variant)
    fast = kernel_for(game, EVALUATOR, margins=margins, compiled=False)
    assert isinstance(fast, HusKernel)
    slow = GameKernel(game, EVALUATOR, margins=margins)
    seen = {"capture": 0, "no move": 0, "lap cap loss": 0, "turn limit": 0, "capped move": 0}
    for state in random_positions(game, 300, seed=len(variant) + 7 * margins):
        position = fast.encode(state)
        assert fast.decode(position) == state
        assert fast.evaluate(position) == slow.evaluate(state)
        expected = slow.children(state)
        got = fast.children(position)
        assert [c[0] for c in got] == [c[0] for c in expected], game.to_text(state)  # the rules' order
        for (move, child, same, final), (_, rules_child, rules_same, rules_final) in zip(got, expected):
            assert (same, final) == (rules_same, rules_final), (game.to_text(state), move)
            if child is None:
                after = game.apply(state, move)
                outcome = game.outcome(after)
                if outcome.reason is Reason.TURN_LIMIT:
                    seen["turn limit"] += 1
                else:
                    seen["no move"] += 1
                    side = after.side(after.to_move)
                    seen["lap cap loss"] += any(count > 1 for count in side)
            else:
                assert fast.decode(child) == rules_child, (game.to_text(state), move)
            seen["capture"] += game.report(state, move).captured > 0
        own = state.side(state.to_move)
        seen["capped move"] += sum(count > 1 for count in own) > len(expected)
        assert fast.best_leaf(position, float("inf")) == slow.best_leaf(state, float("inf"))
        beta = fast.evaluate(position)
        assert fast.best_leaf(position, beta) == slow.best_leaf(state, beta)
    assert all(seen[case] for case in exercised), seen


def test_the_lap_limit_is_exact_a_move_may_end_on_its_last_allowed_lap():
    game = get_game("hus")
    state = game.initial_state()
    laps = {move: game.report(state, move).lap_count for move in game.legal_moves(state)}
    longest = max(laps.values())
    assert longest > 1
    for limit in (longest - 1, longest):
        capped = get_game("hus", lap_limit=limit)
        kernel = kernel_for(capped, EVALUATOR, compiled=False)
        moves = [child[0] for child in kernel.children(kernel.encode(state))]
        assert moves == [move for move, count in laps.items() if count <= limit]


def test_no_quick_move_falls_back_to_playing_the_moves():
    game = get_game("hus")
    # South's only pit of 2+ seeds is pit 0 (3 seeds): it ends in pit 3, which is occupied, so the one-lap test
    # fails, yet the relay from pit 3 (2 seeds) ends in the empty pit 5: a legal two-lap move.
    south = (3, 0, 0, 1, 0, 0) + (1,) * 26
    north = (2,) + (0,) * 31
    state = HusState(south + north, 0, 3)
    kernel = kernel_for(game, EVALUATOR, compiled=False)
    own = pack(south)
    assert not has_quick_move(own)
    assert kernel.has_move(own, pack(north), True)
    assert [child[0] for child in kernel.children(kernel.encode(state))] == list(game.legal_moves(state)) == [0]


def test_the_evaluation_is_antisymmetric_and_its_terms_are_right():
    game = get_game("hus")
    state = game.initial_state()
    assert EVALUATOR.evaluate(game, state) == 0.0  # the start is symmetric
    own = (5,) + (0,) * 15 + (3,) + (0,) * 14 + (1,)  # inner pit 16 holds 3 (outer 15 behind it), 31 holds 1
    other = (2,) * 16 + (0,) * 16
    assert own[31 - 16] == 0 and own[31 - 31] == 5
    seeds, playable, exposed, inner = terms(own, other)
    assert seeds == 9 - 32
    assert playable == 2 - 16
    assert exposed == (3 + own[15]) + (1 + 5) - 0  # columns of inner pits 16 and 31 (outer 15 and 0)
    assert inner == 4 - 0
    mirrored = HusState(other + own, 0, 5)
    straight = HusState(own + other, 0, 5)
    assert EVALUATOR.evaluate(game, straight) == -EVALUATOR.evaluate(game, mirrored)
    kernel = kernel_for(game, EVALUATOR, compiled=False)
    assert kernel.evaluate(kernel.encode(straight)) == EVALUATOR.evaluate(game, straight)


def test_too_many_seeds_for_the_packed_kernel_is_a_clear_error():
    game = get_game("hus")
    kernel = kernel_for(game, EVALUATOR, compiled=False)
    state = HusState((200,) + (2,) * 31 + (2,) * 32, 0, 1)
    with pytest.raises(ValueError, match="at most 254 seeds"):
        kernel.encode(state)


# -- the engine ------------------------------------------------------------------------------------------------
def midgame(game, plies: int = 30, seed: int = 4) -> HusState:
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    return state


def test_the_engine_uses_the_fast_kernel_and_agrees_with_plain_alpha_beta():
    game = get_game("hus")
    for seed in range(4):
        state = midgame(game, plies=10 + 5 * seed, seed=seed)
        engine = PVSEngine(game, time=None, depth=3)
        assert isinstance(engine.kernel, (HusKernel, CompiledHusKernel))
        result = engine.search(state)
        reference = AlphaBetaEngine(game, depth=3).search(state)
        assert result.depth == 3
        assert result.score == reference.score
        assert result.move in game.legal_moves(state)


def test_the_engine_is_deterministic_and_respects_its_limits():
    game = get_game("hus")
    state = midgame(game)
    first = PVSEngine(game, time=None, depth=4).search(state)
    second = PVSEngine(game, time=None, depth=4).search(state)
    assert (first.move, first.score, first.nodes, first.pv) == (second.move, second.score, second.nodes, second.pv)
    assert first.depth == 4
    capped = PVSEngine(game, time=None, nodes=500).search(state)
    assert capped.move in game.legal_moves(state) and capped.depth < 4
    timed = PVSEngine(game, time=0.05).search(state)  # stops by the clock, not at the depth cap of 200
    assert timed.move in game.legal_moves(state) and 0 < timed.depth < 50 and not timed.exhaustive
    late = CancelToken(deadline=0.0)  # already past: the search stops at once with a legal move
    result = PVSEngine(game, time=2.0).search(state, Limits(time=2.0), late)
    assert result.move in game.legal_moves(state)


def test_the_default_player_is_the_fast_pvs_within_the_competition_limit_and_leaves_no_thread():
    game = get_game("hus")
    spec = registry.presets(game)["Strongest"]
    engine = registry.make_engine(game, spec)
    assert isinstance(engine, PVSEngine) and isinstance(engine.kernel, (HusKernel, CompiledHusKernel))
    assert engine.time_limit < 2.0  # a safety margin inside the 2 s per move
    table_bytes = engine.table.megabytes * 1e6 if hasattr(engine.table, "megabytes") else engine.table.capacity * 250
    assert table_bytes < 250_000_000  # the table (C memory, or about 250 bytes a Python entry) stays far below 500 MB
    before = set(threading.enumerate())
    state = midgame(game)
    result = engine.search(state, Limits(time=0.05), CancelToken(deadline=None))
    assert result.move in game.legal_moves(state)
    assert set(threading.enumerate()) == before  # no pondering: nothing runs once the search has returned


# -- the console -----------------------------------------------------------------------------------------------
class Typist(io.TextIOBase):
    """A stdin whose lines come from a list; ``FIRST_LEGAL`` types the first move of the last ``help`` answer,
    as a person reading the screen would (the computer's replies are not known in advance)."""

    def __init__(self, items: list[str], screen: io.StringIO) -> None:
        self.items = list(items)
        self.screen = screen

    def isatty(self) -> bool:
        return False

    def readline(self, size: int = -1) -> str:
        if not self.items:
            return ""
        item = self.items.pop(0)
        if item is FIRST_LEGAL:
            listed = [line for line in self.screen.getvalue().splitlines() if line.startswith("Legal moves: ")]
            item = listed[-1].removeprefix("Legal moves: ").split(",")[0].strip()
        return item + "\n"


FIRST_LEGAL = "<the first legal move>"


def test_a_hus_console_game_with_undo_save_load_and_bad_input(tmp_path):
    save = tmp_path / "hus.save"
    items = [
        "1",                   # start menu: a new game (both seats given on the command line)
        "99",                  # not a pit of the board
        "banana",              # not a move or a command
        "1",                   # South's pit 1 (2 seeds at the start), then the computer answers
        "help", FIRST_LEGAL,
        "undo",                # takes back South's second move and the computer's reply
        "help", FIRST_LEGAL,
        f"save {save}",
        "quit",                # back to the start menu
        f"load {save}",
        "help", FIRST_LEGAL,   # the loaded game goes on
        "quit",
        "3", "no",             # leave without saving the last two moves
    ]
    screen = io.StringIO()
    code = main(["hus", "--south", "human", "--north", "pvs:time=0.05", "--time", "0.05"],
                Typist(items, screen), screen)
    text = screen.getvalue()
    assert code == 0, text
    assert text.count("Invalid input") == 2, text
    assert "pit 99 does not exist: your pits are numbered 1..32" in text
    assert "'banana' is not a pit number" in text
    assert "Took back 2 moves." in text
    assert f"Saved to {save} (4 moves)." in text
    assert f"Loaded {save}: Hus" in text and "after 4 moves" in text
    assert text.rstrip().endswith("Goodbye.")
    played = text.count("South plays ") + text.count("North plays ")
    assert played == 8  # South's 4 moves and the computer's 4 answers
    # the board is shown after every move, at each start (new game, loaded game) and after the undo
    assert text.count("N outer") == played + 3
    game = get_game("hus")
    saved = savegame.load(str(save), expect_game="hus")
    assert saved.moves[0] == 0 and len(saved.moves) == 4
    assert not game.is_terminal(saved.states[-1]) and saved.states[-1].to_move == 0
