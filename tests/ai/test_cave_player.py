"""The Magnetic Cave computer player: its search kernel against the rules, the engine's choices in decided
positions (wins in one, forced blocks, double threats), the presets, and the four console play modes.

Every proven answer is checked against the rules alone (play the moves and look), so an entry cannot pass by
agreeing with the kernel's own mistake.
"""
from __future__ import annotations

import io
import random

import pytest

from ai import games, registry
from ai.base import Limits
from ai.evaluators import HEURISTIC_BOUND, WIN, evaluator_for
from ai.evaluators.magnetic_cave import ThreatEvaluator, threat_masks
from ai.fast import GameKernel, kernel_for
from ai.fast.magnetic_cave import CaveKernel, five_cells
from ai.search import PVSEngine
from game.console.manager import main
from rules.magnetic_cave import FULL, CaveState, MagneticCave, cell_name
from test_cave_eval import EMPTY, MUST_BLOCK, cells, position, wins_by_rules

GAME = MagneticCave()
STRONGEST = registry.presets(GAME)["Strongest"]


def random_states(count: int, seed: int) -> list[CaveState]:
    """Non-terminal positions from uniformly random games (every position of each game, in order)."""
    rng = random.Random(seed)
    states: list[CaveState] = []
    while len(states) < count:
        state = GAME.initial_state()
        while not GAME.is_terminal(state):
            states.append(state)
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    return states[:count]


def wins_against_every_reply(state: CaveState, move: int) -> bool:
    """By the rules: ``move`` wins now, or the opponent cannot win at once and every reply leaves a win."""
    mover = state.to_move
    after = GAME.apply(state, move)
    if after.winner == mover:
        return True
    if GAME.is_terminal(after) or wins_by_rules(after, after.to_move):
        return False
    return all(
        not GAME.is_terminal(GAME.apply(after, reply)) and wins_by_rules(GAME.apply(after, reply), mover)
        for reply in GAME.legal_moves(after)
    )


# -- the kernel against the rules ---------------------------------------------------------------------------------


def test_the_default_engine_runs_on_the_cave_kernel():
    import ai.core

    engine = registry.make_engine(GAME, STRONGEST)
    if ai.core.module() is not None:  # the compiled twin of CaveKernel (tests/ai/test_core_cave.py)
        assert type(engine.kernel).__name__ == "CompiledCaveKernel" and engine.kernel.forced
    else:
        assert isinstance(engine.kernel, CaveKernel)
    assert isinstance(kernel_for(GAME, ThreatEvaluator(), compiled=False), CaveKernel)
    assert isinstance(kernel_for(GAME, ThreatEvaluator(), fast=False), GameKernel)


def test_kernel_threat_cells_and_scores_match_the_evaluator():
    kernel = CaveKernel(GAME, ThreatEvaluator())
    evaluator = ThreatEvaluator()
    for state in random_states(1500, seed=21):
        position_ = kernel.encode(state)
        assert kernel.decode(position_, state.to_move) == state
        mine, theirs = (state.black, state.white) if state.to_move == 0 else (state.white, state.black)
        occupied = mine | theirs
        assert (five_cells(mine) & ~occupied, five_cells(theirs) & ~occupied) == threat_masks(mine, theirs)
        playing = evaluator_for(evaluator, GAME, state)
        assert kernel.evaluate(position_) == playing.evaluate(GAME, state), GAME.to_text(state)


def test_kernel_scores_match_the_evaluator_playing_for_the_root(white_deep_three):
    kernel = CaveKernel(GAME, ThreatEvaluator())
    favoured = 0
    for state in random_states(800, seed=25):
        playing = evaluator_for(ThreatEvaluator(), GAME, state)
        favoured += playing.favour is not None
        assert kernel.evaluate(kernel.encode(state)) == playing.evaluate(GAME, state), GAME.to_text(state)
    assert favoured >= 300


@pytest.fixture
def white_deep_three(monkeypatch):
    """The evaluator's deep-three bonus switched on for a search playing White (it is off by default)."""
    from ai.evaluators import magnetic_cave

    monkeypatch.setattr(magnetic_cave, "DEEP_THREE", (0, 80))


def test_below_the_root_the_kernel_scores_for_the_root_side_to_move(white_deep_three):
    # The line memo is shared by both sides to move and by searches for either colour: each child, and each
    # grandchild (the other side to move), scores exactly as the evaluator playing for the root's side.
    kernel = CaveKernel(GAME, ThreatEvaluator())
    scored = {0: 0, 1: 0}
    for state in random_states(160, seed=24):
        playing = evaluator_for(ThreatEvaluator(), GAME, state)
        root = kernel.encode(state)
        for _, child, same, final in kernel.children(root)[:4]:
            if final is not None:
                continue
            to_move = state.to_move if same else 1 - state.to_move
            assert kernel.evaluate(child) == playing.evaluate(GAME, kernel.decode(child, to_move))
            scored[state.to_move] += 1
            for _, grandchild, again, end in kernel.children(child)[:3]:
                if end is None:
                    after = to_move if again else 1 - to_move
                    assert kernel.evaluate(grandchild) == playing.evaluate(GAME, kernel.decode(grandchild, after))
    assert min(scored.values()) >= 100


def test_kernel_children_are_the_rules_with_forced_moves_played():
    kernel = CaveKernel(GAME, ThreatEvaluator())
    win, loss = WIN + 1, -(WIN + 1)
    seen = {"win now": 0, "double threat": 0, "opens a threat": 0, "four": 0, "block": 0, "lost": 0, "quiet": 0}
    for state in random_states(1200, seed=22):
        mover = state.to_move
        legal = set(GAME.legal_moves(state))
        children = kernel.children(kernel.encode(state))
        moves = [child[0] for child in children]
        assert set(moves) <= legal and len(moves) == len(set(moves))
        my_wins, their_wins = wins_by_rules(state, mover), wins_by_rules(state, 1 - mover)
        if my_wins:
            assert children == [(moves[0], None, False, win)] and moves[0] in my_wins
            seen["win now"] += 1
            continue
        if len(their_wins) > 1:
            assert len(children) == 1 and children[0][3] == loss
            seen["lost"] += 1
            continue
        if their_wins:
            assert moves == list(their_wins)
            seen["block"] += 1
        else:
            assert set(moves) == legal
        for move, child, same, final in children:
            after = GAME.apply(state, move)
            reply_wins = wins_by_rules(after, 1 - mover) if not GAME.is_terminal(after) else set()
            if final == loss:
                assert reply_wins, (GAME.to_text(state), cell_name(move))
                seen["opens a threat"] += 1
            elif final == win:
                assert wins_against_every_reply(state, move), (GAME.to_text(state), cell_name(move))
                seen["double threat"] += 1
            elif final is not None:
                assert final == 0.0
            elif same:
                # A four: the opponent's only reply that does not lose at once is the block, played here.
                (block,) = wins_by_rules(after, mover)
                assert not reply_wins
                assert child == kernel.encode(GAME.apply(after, block)), (GAME.to_text(state), cell_name(move))
                seen["four"] += 1
            else:
                assert not reply_wins and not wins_by_rules(after, mover)
                assert child == kernel.encode(after)
                seen["quiet"] += 1
    assert min(seen.values()) >= 3, seen  # every kind of child really was met


def test_best_leaf_is_the_best_child_at_depth_one():
    kernel = CaveKernel(GAME, ThreatEvaluator())
    for state in random_states(300, seed=23):
        position_ = kernel.encode(state)
        values = {}
        for move, child, same, final in kernel.children(position_):
            values[move] = final if final is not None else (
                kernel.evaluate(child) if same else -kernel.evaluate(child))
        best, move, _ = kernel.best_leaf(position_, float("inf"))
        assert best == max(values.values()) and values[move] == best, GAME.to_text(state)


# -- the engine's choices in decided positions ----------------------------------------------------------------------

WIN_IN_ONE = [
    pytest.param((EMPTY,) * 4 + ("B......W",) * 4, ("A5",), id="column A, top end"),
    pytest.param((EMPTY, ".......W", ".......W", ".......W", ".......W", EMPTY, EMPTY, "BBBB...."), ("E1",),
                 id="row 1 from the left wall"),
    pytest.param(("W.......", "W.......", "W.......", "W.......", EMPTY, "....BBBB", EMPTY, EMPTY), ("D3",),
                 id="row 3 from the right wall"),
    pytest.param((".......W", ".......W", ".......W", ".......W", "B.......", "B.......", "B.......", "B......B"),
                 ("H4",), id="White, column H below its four"),
    pytest.param(("BWBW....", "WBWB....", "BWB.....", "WB......", "B.......", EMPTY, ".......W", ".......W"),
                 ("E8",), id="diagonal up-right, end"),
    pytest.param(("BWBWB...", "WBWB....", "BW......", "WB......", "B.......", EMPTY, ".......W", ".......W"),
                 ("C6",), id="diagonal up-right, middle"),
    pytest.param(("....WBWB", "....BWBW", ".....BWB", "......BW", ".......B", EMPTY, "W.......", "W......."),
                 ("D8",), id="diagonal up-left, end"),
    pytest.param(("W.......",) + (EMPTY,) * 6 + ("WBB.BBWW",), ("D1",), id="the gap in the middle of a row"),
    pytest.param((EMPTY, EMPTY, EMPTY, EMPTY, ".......W", ".......W", ".......W", "BBB.BBWW"), ("D1",),
                 id="six in a row"),
    pytest.param(("WWWW....", EMPTY, EMPTY, EMPTY, EMPTY, "B.......", "B.......", "B.....BB"), ("E8",),
                 id="White, row 8"),
    pytest.param(("WWBW....", "BWWB....", "BW......", "WB......", "BBBB...W", EMPTY, EMPTY, ".......W"),
                 ("E4",), id="row 4 among other bricks"),
    pytest.param(("BBBB...W", EMPTY, EMPTY, EMPTY, "WWWW....", EMPTY, EMPTY, "B......."), ("E8",),
                 id="win rather than block White's row 4"),
    pytest.param(("W.......", "W.......", "W.......", EMPTY, "B......W", "B......W", "B......W", "BBBB...W"),
                 ("A5", "E1"), id="two wins at once, White threatening too"),
]


@pytest.mark.parametrize("depth", [1, 4])
@pytest.mark.parametrize("rows, expected", WIN_IN_ONE)
def test_the_engine_takes_a_win_in_one(rows, expected, depth):
    state = position(*rows)
    assert wins_by_rules(state, state.to_move) == set(cells(*expected))
    result = registry.make_engine(GAME, STRONGEST).search(state, Limits(depth=depth, time=2.0))
    assert result.move in cells(*expected)
    assert result.score >= WIN


@pytest.mark.parametrize("depth", [1, 4])
@pytest.mark.parametrize("rows, block", MUST_BLOCK)
def test_the_engine_blocks_an_immediate_threat(rows, block, depth):
    state = position(*rows)
    (cell,) = cells(block)
    assert not wins_by_rules(state, state.to_move) and wins_by_rules(state, 1 - state.to_move) == {cell}
    result = registry.make_engine(GAME, STRONGEST).search(state, Limits(depth=depth, time=2.0))
    assert result.move == cell, cell_name(result.move)


DOUBLE_THREATS = [
    pytest.param((EMPTY, EMPTY, EMPTY, "B.......", "B.......", "B......W", ".......W", ".......W"),
                 id="an open three on the wall"),
    pytest.param((EMPTY, EMPTY, ".......W", ".......W", ".......W", "B.......", "B.......", "B......B"),
                 id="White's open three on the right wall"),
]


@pytest.mark.parametrize("rows", DOUBLE_THREATS)
def test_the_engine_makes_an_unstoppable_double_threat(rows):
    state = position(*rows)
    assert not wins_by_rules(state, state.to_move) and not wins_by_rules(state, 1 - state.to_move)
    assert any(wins_against_every_reply(state, move) for move in GAME.legal_moves(state))
    result = registry.make_engine(GAME, STRONGEST).search(state, Limits(depth=3, time=2.0))
    assert wins_against_every_reply(state, result.move), cell_name(result.move)
    assert result.score >= WIN


def test_the_engine_never_misses_a_win_or_a_block_in_random_games():
    engine = registry.make_engine(GAME, STRONGEST)
    wins = blocks = 0
    for state in random_states(1500, seed=24):
        mine, theirs = wins_by_rules(state, state.to_move), wins_by_rules(state, 1 - state.to_move)
        if not mine and len(theirs) != 1:
            continue
        move = engine.search(state, Limits(depth=2, time=2.0)).move
        if mine:
            assert move in mine, GAME.to_text(state)
            wins += 1
        else:
            assert move in theirs, GAME.to_text(state)
            blocks += 1
    assert wins >= 20 and blocks >= 20


def test_a_proven_win_is_played_out_to_a_win_against_the_baseline():
    """Sound pruning: whenever the engine claims a proven win, it wins the game from there."""
    engine = PVSEngine(GAME, time=None, depth=5)
    defender = registry.make_engine(GAME, "alphabeta:depth=2,eval=windows")
    claims = 0
    for state in random_states(400, seed=25)[::7]:
        result = engine.search(state)
        if result.score < HEURISTIC_BOUND:
            continue
        claims += 1
        winner = state.to_move
        while not GAME.is_terminal(state):
            player = engine if state.to_move == winner else defender
            state = GAME.apply(state, player.search(state).move)
        assert state.winner == winner
    assert claims >= 3


# -- presets ----------------------------------------------------------------------------------------------------------


def test_presets_go_from_easy_to_a_three_second_strongest():
    levels = registry.presets(GAME)
    assert list(levels)[:4] == ["Easy", "Medium", "Hard", "Strongest"]
    for spec in levels.values():
        registry.make_engine(GAME, spec)
    strongest = registry.make_engine(GAME, levels["Strongest"])
    # the whole 3 s rule: the search stops early by the margin it measures (ai.base.Lateness), not by a preset's
    assert strongest.name == "pvs" and strongest.time_limit == games.support(GAME).time_limit == 3
    assert registry.make_engine(GAME, levels["Hard"]).time_limit < strongest.time_limit


# -- the console's play modes -----------------------------------------------------------------------------------------


def run_console(arguments: list[str], lines: list[str]) -> str:
    out = io.StringIO()
    code = main(["cave", *arguments], io.StringIO("".join(line + "\n" for line in lines)), out)
    assert code == 0
    return out.getvalue()


def test_human_against_human_to_a_win_with_bad_input_answered():
    moves = ["A1", "H1", "A2", "H2", "A3", "H3", "A4", "H4", "A5"]
    text = run_console(["--black", "human", "--white", "human"], ["new", "D4", "nonsense", *moves, "quit"])
    assert text.count("Invalid input") == 2
    assert "D4 touches neither wall nor a brick" in text and "e.g. D7" in text
    assert "Black (■) wins: five in a row" in text and "  1 |■ . . . . . . □| 1" in text
    assert "Game over after 9 moves: Black wins" in text


def test_human_black_against_the_computer_white():
    text = run_console(["--black", "human", "--white", "pvs:time=0.05"], ["new", "A1", "A8", "H8", "quit", "no"])
    assert "White (pvs:time=0.05) is thinking" in text and text.count("White plays") >= 1
    assert "Black plays A1" in text and "□" in text


def test_computer_black_against_human_white():
    text = run_console(["--black", "Easy", "--white", "human"], ["new", "A4", "H4", "A5", "quit", "no"])
    assert "Black (greedy) is thinking" in text and "White plays" in text
    assert "■" in text and "□" in text


def test_computer_against_computer_to_the_end():
    text = run_console(["--black", "pvs:time=0.02", "--white", "alphabeta:depth=1,eval=windows", "--time", "0.5"],
                       ["new", "quit"])
    assert "Game over after" in text
    final_board = text[text.rindex("     A B C D E F G H\n  8"):]
    assert "■" in final_board and "□" in final_board
    assert "over its" not in text


def test_the_strongest_level_is_accepted_by_name():
    text = run_console(["--black", "Strongest", "--white", "human", "--time", "0.1"], ["new", "quit", "no"])
    assert f"Black: computer {STRONGEST} (Strongest)" in text and "Black plays" in text


def test_full_board_mask_is_the_tie_condition():
    # A kernel child that fills the board without five is a draw, scored 0 (checked by the rules too).
    rows = ["BWBWBWBW", "BWBWBWBW", "WBWBWBWB", "WBWBWBWB", "BWBWBWBW", "BWBWBWBW", "WBWBWBWB", "BWBWBWB."]
    state = position(*rows)
    kernel = CaveKernel(GAME, ThreatEvaluator())
    (child,) = kernel.children(kernel.encode(state))
    after = GAME.apply(state, child[0])
    assert after.black | after.white == FULL and GAME.outcome(after).winner is None
    assert child[1:] == (None, False, 0.0)


def test_the_engine_forgets_its_table_when_it_plays_for_the_other_colour(white_deep_three):
    # Heuristic scores stored while playing White are not Black's: the table starts afresh when the side changes.
    white_root = GAME.apply(GAME.initial_state(), 0)  # A1
    black_root = GAME.apply(white_root, 7)  # H1
    engine = PVSEngine(GAME, time=None, depth=3)
    engine.search(white_root)
    kept = len(engine.table)
    engine.search(GAME.apply(black_root, 1))  # B1; White to move again: the table is kept and grows
    assert kept > 0 and len(engine.table) > kept
    engine.search(black_root)
    fresh = PVSEngine(GAME, time=None, depth=3)
    fresh.search(black_root)
    assert len(engine.table) == len(fresh.table)


def test_trap_move_sets_traps_the_model_falls_into_and_keeps_the_margin():
    # ai.traps.trap_move (the seventh session's experiment): a trap is a move other than the search's
    # best whose modelled reply leaves the player at least `gain` more, and within `margin` of the best.
    from ai.traps import trap_move

    model, depth, gain, margin = "greedy", 3, 50.0, 200.0
    traps = 0
    for state in random_states(30, seed=11)[::3]:
        best = registry.make_engine(GAME, f"pvs:depth={depth},time=none").search(state)
        move, trap = trap_move(GAME, state, depth, model, margin, gain)
        assert move in GAME.legal_moves(state)
        assert trap_move(GAME, state, depth, model, margin, float("inf")) == (best.move, False)
        if not trap:
            continue
        traps += 1
        assert move != best.move
        child = GAME.apply(state, move)
        reply = registry.make_engine(GAME, model).search(child).move
        after = GAME.apply(child, reply)
        value = registry.make_engine(GAME, f"pvs:depth={depth - 2},time=none").search(after).score
        assert (value if after.to_move == state.to_move else -value) >= best.score + gain
        against_best = -registry.make_engine(GAME, f"pvs:depth={depth - 1},time=none").search(child).score
        assert against_best >= best.score - margin
    assert traps > 0
