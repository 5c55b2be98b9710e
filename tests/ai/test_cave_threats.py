"""The Magnetic Cave threat-space search (ai/cave_threats.py, its compiled copy in ai/core/cave.pxi): forced wins
by continuous fours, checked against the rules move by move, and the evaluation that uses it at the leaves."""
from __future__ import annotations

import random

import pytest

from ai import registry
from ai.cave_threats import vcf_line, vcf_win
from ai.evaluators.magnetic_cave import LOSS_NEXT, VCF_WIN, ThreatEvaluator, novcf_evaluator
from ai.fast.magnetic_cave import threat_score
from rules import get_game
from rules.magnetic_cave import CaveState

GAME = get_game("magnetic-cave")

# Positions from random games where the threat search finds a win by fours that a one-ply search with the old
# evaluation (eval=novcf) does not see: (position, the line vcf_line gives).
FORCED = [
    ("rows=WW.....W/BB.....W/.....WWB/.......B/BBW....W/BWB....W/BB..BWBW/W....BBW move=B", (11, 10, 32)),
    ("rows=WB....../BW.....W/WBBWBBWB/WWW...BB/B....BWW/WB..WBBB/BWWBWWBW/B.....WB move=W", (28, 27, 19)),
    ("rows=BWW...../WBW.BBWW/BWWWBBWB/WWB...../......../BWWBBWBB/BWW...BB/WWB..BBW move=B", (3, 4, 31, 39, 38)),
    ("rows=WB...WWB/B.....BB/BBBW.BBB/WWWWBWWB/WWW...WW/BB....BW/B.....BW/BWBW.... move=W", (27, 28, 44, 53, 52)),
    ("rows=WW.....W/BB.....W/....WWWB/.......B/BBW....W/BWB...BW/BB..BWBW/W....BBW move=B",
     (11, 10, 4, 32, 3, 2, 30)),
    ("rows=W......./BBW..BWW/......WW/BBB.WWWB/WWB.BBWB/WBBW..../BBWBW.BW/WBB...BW move=W",
     (23, 22, 63, 62, 45, 27, 44)),
]


def _sides(state: CaveState) -> tuple[int, int]:
    return (state.black, state.white) if state.to_move == 0 else (state.white, state.black)


def _wins_at_once(state: CaveState) -> bool:
    """The side to move can make five now (by the rules)."""
    return any(GAME.outcome(GAME.apply(state, move)).winner == state.to_move
               for move in GAME.legal_moves(state) if GAME.is_terminal(GAME.apply(state, move)))


def _forced_by_rules(state: CaveState, line: tuple[int, ...]) -> bool:
    """``line`` (attacker's move, block, ..., last move) wins for the side to move against every defence: each
    defender reply other than the line's block leaves the attacker a five at once; the line's last move wins
    at once or leaves the attacker a five after every reply."""
    attacker = state.to_move
    for index in range(0, len(line), 2):
        move = line[index]
        if move not in GAME.legal_moves(state):
            return False
        state = GAME.apply(state, move)
        if GAME.is_terminal(state):
            return GAME.outcome(state).winner == attacker
        block = line[index + 1] if index + 1 < len(line) else None
        for reply in GAME.legal_moves(state):
            if reply == block:
                continue
            after = GAME.apply(state, reply)
            if GAME.is_terminal(after) or not _wins_at_once(after):
                return False  # the defender won, tied, or escaped the threats
        if block is None:
            return True
        state = GAME.apply(state, block)
        if GAME.is_terminal(state):
            return False
    return False


def _random_positions(count: int, seed: int):
    rng = random.Random(seed)
    found = 0
    while found < count:
        state = GAME.initial_state()
        while not GAME.is_terminal(state) and found < count:
            yield state
            found += 1
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))


@pytest.mark.parametrize("text, line", FORCED)
def test_constructed_wins_are_found_and_hold_against_every_defence(text, line):
    state = GAME.from_text(text)
    mine, theirs = _sides(state)
    assert vcf_line(mine, theirs) == line
    assert _forced_by_rules(state, line)


@pytest.mark.parametrize("text, line", FORCED)
@pytest.mark.parametrize("evaluator", ["rootvcf", "leafvcf"])
def test_a_one_ply_search_sees_the_win_only_with_the_threat_search(text, line, evaluator):
    state = GAME.from_text(text)
    old = registry.make_engine(GAME, "pvs:depth=1,time=none,eval=novcf").search(state)
    new = registry.make_engine(GAME, f"pvs:depth=1,time=none,eval={evaluator}").search(state)
    assert old.score < LOSS_NEXT <= new.score
    assert _move_wins(state, new.move)


def _move_wins(state: CaveState, move: int) -> bool:
    """``move`` wins by force: a five, or after every reply a five at once or a win by fours (checked with the
    rules)."""
    after = GAME.apply(state, move)
    if GAME.is_terminal(after):
        return GAME.outcome(after).winner == state.to_move
    for reply in GAME.legal_moves(after):
        answered = GAME.apply(after, reply)
        if GAME.is_terminal(answered):
            return False
        if _wins_at_once(answered):
            continue
        line = vcf_line(*_sides(answered), fours=20, nodes=100_000)
        if line is None or not _forced_by_rules(answered, line):
            return False
    return True


def test_every_line_found_on_random_positions_is_a_forced_win_by_the_rules():
    checked = 0
    for state in _random_positions(6000, seed=32):
        mine, theirs = _sides(state)
        line = vcf_line(mine, theirs, fours=20, nodes=100_000)
        if line is None:
            continue
        assert _forced_by_rules(state, line), (GAME.to_text(state), line)
        checked += 1
    assert checked > 40  # random games reach such positions often enough for the check to mean something


def test_the_budget_bounds_the_search():
    text, line = FORCED[5]
    mine, theirs = _sides(GAME.from_text(text))
    assert vcf_win(mine, theirs, fours=4)
    assert not vcf_win(mine, theirs, fours=3)  # the only line found has four moves of the attacker
    assert not vcf_win(mine, theirs, nodes=0)
    assert vcf_line(*_sides(GAME.from_text(FORCED[4][0])), fours=2) == (11, 10, 32)  # a shorter line exists


def test_the_compiled_search_equals_the_python_one():
    from ai.core import require

    core = require().CaveCore(True, 0, 1.0, (1, 4, 16, 64, 10_000), (0, 3, 12, 48, 5_000), (0, 1, 10, 100, 1000),
                              300, 150, 60, 20_000, 19_000)
    wins = 0
    for state in _random_positions(4000, seed=33):
        mine, theirs = _sides(state)
        for fours, nodes in ((8, 48), (2, 5), (20, 100_000)):
            expected = vcf_win(mine, theirs, fours, nodes)
            assert core.vcf(mine, theirs, fours, nodes) == expected, (GAME.to_text(state), fours, nodes)
            wins += expected
    assert wins > 20


def test_the_evaluation_scores_a_forced_win_by_fours_and_novcf_does_not():
    text, _ = FORCED[2]
    state = GAME.from_text(text)
    mine, theirs = _sides(state)
    assert ThreatEvaluator(vcf=True).evaluate(GAME, state) == VCF_WIN
    assert threat_score(mine, theirs, ThreatEvaluator(vcf=True)) == VCF_WIN
    assert novcf_evaluator(GAME).evaluate(GAME, state) < LOSS_NEXT
    assert ThreatEvaluator().evaluate(GAME, state) < LOSS_NEXT  # the leaves' search is off by default
    assert threat_score(mine, theirs, ThreatEvaluator(vcf=False)) < LOSS_NEXT
    leaf = ThreatEvaluator(vcf=True, root_vcf=False)
    assert leaf.playing_for(0) == leaf and not ThreatEvaluator(vcf=False).playing_for(1).vcf


def test_compiled_and_python_kernels_score_alike_with_and_without_the_threat_search():
    from ai.core.kernels import CompiledCaveKernel
    from ai.fast.magnetic_cave import CaveKernel

    for evaluator in (ThreatEvaluator(vcf=True), ThreatEvaluator("novcf", vcf=False)):
        compiled = CompiledCaveKernel(GAME, evaluator)
        python = CaveKernel(GAME, evaluator)
        decided = 0
        for state in _random_positions(1500, seed=34):
            expected = python.evaluate(python.encode(state))
            assert compiled.evaluate(compiled.encode(state)) == expected, GAME.to_text(state)
            decided += expected == VCF_WIN
        assert (decided > 0) == evaluator.vcf


def test_the_root_search_plays_real_wins_and_drops_only_moves_that_lose_by_fours():
    from ai.cave_endgame import EndgameRun
    from ai.core.kernels import CompiledCaveKernel, _IntPositions

    kernel = CompiledCaveKernel(GAME, ThreatEvaluator(root_vcf=True))
    positions = _IntPositions(kernel)
    run = EndgameRun(positions, None, None)
    wins = dropped = 0
    for state in _random_positions(2500, seed=35):
        root = kernel.encode(state)
        proven = run._threats(int.from_bytes(root, "little"))
        if proven is not None:
            assert _move_wins(state, proven[1]), GAME.to_text(state)
            wins += 1
            continue
        kept = positions.root_moves
        if kept is None:
            continue
        legal = set(GAME.legal_moves(state))
        assert kept and kept <= legal
        for move in legal - kept:
            after = GAME.apply(state, move)
            if GAME.is_terminal(after):
                continue
            line = vcf_line(*_sides(after), fours=16, nodes=2_000)
            assert line is not None and _forced_by_rules(after, line), (GAME.to_text(state), move)
            dropped += 1
    assert wins > 5 and dropped > 5


def test_the_root_search_is_off_by_default_and_with_novcf():
    from ai.core.kernels import CompiledCaveKernel, _IntPositions

    assert _IntPositions(CompiledCaveKernel(GAME, ThreatEvaluator(root_vcf=True))).threat_search
    assert not _IntPositions(CompiledCaveKernel(GAME, novcf_evaluator(GAME))).threat_search
    assert not _IntPositions(CompiledCaveKernel(GAME, ThreatEvaluator())).threat_search  # off by default
