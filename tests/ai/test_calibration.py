"""ai/calibration.py: the search's score in the game's own units, from the shipped fitted curves.

The mapping's promises (monotone in the score, smooth: no step between near scores, the sign of the score at a
symmetric start, proven values exact, margins within the seeds in play, chances summing to 1), the guarded
reading of ``ai/data/calibration.json`` (a damaged file: one message and the placeholder), and that the shipped curves beat the raw reading on held-out positions of known value (fixed
depths, no clock)."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import rules
from ai import calibration
from ai.calibration import PLACEHOLDER, expect, margin_bounds
from ai.evaluators import WIN
from bench import calibration_data as data

ROOT = Path(__file__).resolve().parents[2]
SPECS = tuple(data.GAMES.values())


def positions(spec: str, count: int = 8, seed: int = 7) -> list:
    """Positions across the game from one seeded random playout each (never finished ones)."""
    game = rules.parse_game_spec(spec)
    found = []
    rng = random.Random(seed)
    while len(found) < count:
        state = game.initial_state()
        line = []
        while not game.is_terminal(state):
            line.append(state)
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        found += line[:: max(1, len(line) // 3)][:3]
    return found[:count]


def scores_for(spec: str) -> list[float]:
    scale = 1500.0 if spec == "magnetic-cave" else 90.0
    return [scale * (index / 60.0 - 1.0) for index in range(121)]


# -- the shipped file --------------------------------------------------------------------------------------------
def test_the_shipped_file_is_read_without_a_problem_and_holds_every_calibrated_game():
    fitted, problem = calibration.load()
    assert problem is None
    for spec in SPECS:
        game = rules.parse_game_spec(spec)
        curves = fitted.for_game(game)
        assert curves is not None, spec
        assert curves.measure == calibration.measure_name(game)
        assert len(curves.stages) >= 3, f"{spec}: fitted for a few stages of the game"


@pytest.mark.parametrize("spec", SPECS)
def test_the_value_is_monotone_in_the_score_at_every_stage(spec):
    game = rules.parse_game_spec(spec)
    for state in positions(spec):
        values = [expect(game, state, score) for score in scores_for(spec)]
        wins = [value.win for value in values]
        losses = [value.loss for value in values]
        assert all(b >= a - 1e-12 for a, b in zip(wins, wins[1:])), "the chance of a win never falls"
        assert all(b <= a + 1e-12 for a, b in zip(losses, losses[1:])), "the chance of a loss never rises"
        if calibration.has_seeds(game):
            margins = [value.margin for value in values]
            assert all(b >= a - 1e-12 for a, b in zip(margins, margins[1:])), "the margin never falls"
            assert margins[-1] > margins[0], "and it does rise"
        else:
            assert wins[-1] > wins[0] and losses[-1] < losses[0]


def test_every_shipped_margin_curve_has_a_bounded_slope_so_two_near_scores_never_read_far_apart():
    """No step: Kalah(6,4)'s opening stage once read 0.78 as 6 seeds behind and 1.25 as 10 ahead."""
    fitted, problem = calibration.load()
    assert problem is None
    grid = [index / 4.0 for index in range(-480, 481)]  # -120..120 by a quarter
    checked = 0
    for spec, curves in fitted.games.items():
        for stage in curves.stages:
            if not isinstance(stage, calibration.MarginStage):
                continue
            for score in grid:
                rise = stage.margin(score + 0.5) - stage.margin(score)
                assert -1e-9 <= rise <= 0.5 * calibration.MAX_SLOPE + 1e-6, (spec, stage.upto, score, rise)
            checked += 1
    assert checked >= 15, "every sowing game's stages were checked"


def test_the_fit_of_a_step_like_stage_is_a_smooth_curve_through_zero():
    """The data that made the old fit a step (true margins -6 below a score of 1, +10 above, as in Kalah(6,4)'s
    opening) now give a curve within the slope band, through 0."""
    from bench.bench_calibration import as_stage, fit_margin

    rng = random.Random(30)
    points = [(score, (10.0 if score >= 1.0 else -6.0) + rng.choice((-2.0, 0.0, 2.0)))
              for score in (rng.uniform(-8.0, 8.0) for _ in range(120))]
    stage = as_stage(fit_margin(points, 48))
    assert stage.margin(0.0) == pytest.approx(0.0, abs=1e-6)
    assert stage.margin(0.5) > 0 > stage.margin(-0.5)
    chords = [(b - a) / (x2 - x1) for (x1, a), (x2, b) in zip(zip(stage.xs, stage.ys), zip(stage.xs[1:], stage.ys[1:]))]
    assert all(0 <= chord <= calibration.MAX_SLOPE + 1e-3 for chord in chords), chords
    assert stage.tail <= calibration.MAX_SLOPE


@pytest.mark.parametrize("spec", SPECS)
def test_at_the_start_the_reading_takes_the_sign_of_the_score(spec):
    """A symmetric position: a positive score never reads as a deficit (or the other side winning), a negative
    one never as a lead (Kalah(6,4)'s first player wins by 10 from the start)."""
    game = rules.parse_game_spec(spec)
    state = game.initial_state()
    for size in (0.05, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 8.0, 12.0, 20.0, 40.0, 80.0, 150.0):
        ahead, behind = expect(game, state, size), expect(game, state, -size)
        if calibration.has_seeds(game):
            assert ahead.margin is not None and behind.margin is not None
            assert ahead.margin > 0 > behind.margin, (size, ahead.margin, behind.margin)
        else:
            assert ahead.win > ahead.loss and behind.loss > behind.win, (size, ahead, behind)


@pytest.mark.parametrize("spec", SPECS)
def test_chances_are_probabilities_that_sum_to_one(spec):
    game = rules.parse_game_spec(spec)
    for state in positions(spec, 4):
        for score in scores_for(spec)[::10]:
            value = expect(game, state, score)
            assert min(value.win, value.draw, value.loss) >= 0.0
            assert value.win + value.draw + value.loss == pytest.approx(1.0)
            assert not value.proven and not value.exact


@pytest.mark.parametrize("spec", [spec for spec in SPECS if spec != "magnetic-cave"])
def test_a_margin_stays_within_what_the_seeds_in_play_allow(spec):
    game = rules.parse_game_spec(spec)
    for state in positions(spec, 12):
        low, high = margin_bounds(game, state)
        assert low <= high
        for score in (-40_000.0, -200.0, 0.0, 200.0, 40_000.0):
            margin = expect(game, state, score).margin
            assert margin is not None and low <= margin <= high, (game.to_text(state), score, margin)


def test_the_bounds_are_the_stores_lead_give_or_take_the_board():
    game = rules.parse_game_spec("kalah")
    state = game.from_text(game.to_text(game.initial_state()))
    assert margin_bounds(game, state) == (-48.0, 48.0)
    after = game.apply(state, 2)  # sows into the store: South 1 ahead, 47 seeds on the board, South again
    assert margin_bounds(game, after) == (1.0 - 47, 1.0 + 47)


@pytest.mark.parametrize("spec", SPECS)
def test_proven_values_pass_through_exactly(spec):
    game = rules.parse_game_spec(spec)
    state = positions(spec, 1)[0]
    seeds = calibration.has_seeds(game)
    won = expect(game, state, WIN + 4)
    assert (won.win, won.draw, won.loss, won.proven, won.exact) == (1.0, 0.0, 0.0, True, True)
    assert won.margin == (4 if seeds else None)
    lost = expect(game, state, -(WIN + 6), exact=False)
    assert (lost.win, lost.loss, lost.proven, lost.exact) == (0.0, 1.0, True, False)
    assert lost.margin == (-6 if seeds else None)
    drawn = expect(game, state, 0.0, proven=True)
    assert (drawn.win, drawn.draw, drawn.loss, drawn.margin) == (0.0, 1.0, 0.0, 0 if seeds else None)


def test_a_game_without_curves_and_the_placeholder_read_the_heuristic_as_seeds():
    game = rules.parse_game_spec("kalah")
    state = game.initial_state()
    assert expect(game, state, 3.5, calibration=PLACEHOLDER).margin == 3.5
    other = rules.parse_game_spec("kalah:pits=4,seeds=3")  # another variant: the nearest curves, bounded
    value = expect(other, other.initial_state(), 500.0)
    assert value.margin is not None and value.margin <= 24


# -- a damaged file ----------------------------------------------------------------------------------------------
GOOD = {"format": 1, "games": {
    "kalah:pits=6,seeds=4,empty_capture=true": {"measure": "board seeds", "draw_width": 1.0, "stages": [
        {"upto": 48, "knots": [[-10, -6], [0, 0], [10, 6]], "tail": 0.5, "spread": 3.0}]},
    "magnetic-cave": {"measure": "empty cells", "stages": [{"upto": 64, "offset": 0, "scale": 100, "draw": 0.5}]}}}


def damaged_variants() -> dict[str, str]:
    def changed(path: list, value: object) -> str:
        copy = json.loads(json.dumps(GOOD))
        node = copy
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        return json.dumps(copy)

    kalah = ["games", "kalah:pits=6,seeds=4,empty_capture=true"]
    return {
        "truncated": json.dumps(GOOD)[:40],
        "not json": "knots: [1, 2]\n",
        "another shape": "[1, 2, 3]",
        "wrong format": changed(["format"], 2),
        "falling knots": changed([*kalah, "stages", 0, "knots"], [[-10, 6], [0, 0], [10, -6]]),
        "a knot that is not a number": changed([*kalah, "stages", 0, "knots"], [[-10, "x"], [0, 0]]),
        "not a finite number": json.dumps(GOOD).replace('"spread": 3.0', '"spread": NaN'),
        "unknown measure": changed([*kalah, "measure"], "plies"),
        "no stages": changed([*kalah, "stages"], []),
        "a zero scale": changed(["games", "magnetic-cave", "stages", 0, "scale"], 0),
        "deeply nested": "[" * 100_000 + "]" * 100_000,
        "not UTF-8": "\udcff",
    }


def test_a_good_file_is_read(tmp_path):
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps(GOOD), encoding="utf-8")
    fitted, problem = calibration.load(path)
    assert problem is None
    game = rules.parse_game_spec("kalah")
    assert expect(game, game.initial_state(), 5.0, calibration=fitted).margin == pytest.approx(3.0)


@pytest.mark.parametrize("name", list(damaged_variants()))
def test_a_damaged_file_gives_one_message_and_the_placeholder(tmp_path, name):
    path = tmp_path / "calibration.json"
    path.write_bytes(damaged_variants()[name].encode("utf-8", "surrogateescape"))
    fitted, problem = calibration.load(path)
    assert fitted is PLACEHOLDER
    assert problem is not None and str(path) in problem and "\n" not in problem
    assert "uncalibrated" in problem and len(problem) < 400


def test_a_missing_file_or_a_folder_is_said_too(tmp_path):
    for path in (tmp_path / "nothing.json", tmp_path):
        fitted, problem = calibration.load(path)
        assert fitted is PLACEHOLDER and problem is not None and str(path) in problem


def test_the_shipped_reader_says_a_damaged_file_once_on_standard_error_and_plays_on(tmp_path):
    path = tmp_path / "calibration.json"
    path.write_text('{"format": 1, "games": {"hus": {"measure": "turns", "stages": "x"}}}', encoding="utf-8")
    code = ("import sys\nfrom pathlib import Path\nfrom ai import calibration\nimport rules\n"
            f"calibration.DATA_FILE = Path({str(path)!r})\n"
            "game = rules.parse_game_spec('kalah')\n"
            "for score in (1.0, 2.0):\n    print(calibration.expect(game, game.initial_state(), score).margin)\n"
            "print(calibration.problem() is not None)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1.0", "2.0", "True"]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert lines[0].startswith("stonecave: ") and "stages" in lines[0]


# -- the fitted curves beat the raw reading (fixed depths, no clock) ---------------------------------------------
def test_on_held_out_kalah_positions_proved_exact_the_calibrated_margin_is_closer_than_the_raw_score():
    from ai.kalah_solve import KalahProver

    game = rules.parse_game_spec("kalah:pits=6,seeds=4,empty_capture=true")
    prover = KalahProver(game, None, memory=32)
    raw_errors, calibrated_errors = [], []
    for seed in range(120):
        rng = random.Random(f"test-calibration/{seed}")
        middle = [state for _, state in data.playout(game, rng) if 18 <= sum(state.pits) <= 28]
        if not middle:
            continue
        state = rng.choice(middle)
        score = data.search_score(game, state)
        if abs(score) >= calibration.HEURISTIC_BOUND:
            continue
        value = prover.prove(state).value
        raw_errors.append(abs(score - value))
        margin = expect(game, state, score).margin
        assert margin is not None
        calibrated_errors.append(abs(margin - value))
    assert len(raw_errors) >= 20
    raw, fitted = sum(raw_errors) / len(raw_errors), sum(calibrated_errors) / len(calibrated_errors)
    assert fitted < raw, (fitted, raw)


def test_on_held_out_hus_and_cave_positions_the_calibration_beats_the_raw_reading():
    from bench.bench_calibration import brier

    for spec, seeds in (("hus", range(700_000, 700_006)), ("magnetic-cave", range(700_000, 700_008))):
        game = rules.parse_game_spec(spec)
        before, after = [], []
        for sample in data.samples(spec, seeds, per_game=3):
            if sample.proven:
                continue
            state = game.from_text(sample.text)
            raw = expect(game, state, sample.score, calibration=PLACEHOLDER)
            fitted = expect(game, state, sample.score)
            if spec == "hus":
                assert fitted.margin is not None
                before.append(abs(sample.score - sample.value))
                after.append(abs(fitted.margin - sample.value))
            else:
                before.append(brier((raw.win, raw.draw, raw.loss), sample.value))
                after.append(brier((fitted.win, fitted.draw, fitted.loss), sample.value))
        assert len(before) >= 10, spec
        assert sum(after) < sum(before), (spec, sum(after) / len(after), sum(before) / len(before))
