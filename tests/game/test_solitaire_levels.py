"""Solitaire levels (a sample re-solved, order by measured difficulty, malformed files refused with clear
messages) and the Solitaire console driven through pipes."""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from ai import registry
from ai.base import Limits
from game.console import solitaire as solitaire_console
from game.console.solitaire import main
from levels.solitaire import LEVEL_DIR, find_level, load_levels
from rules.solitaire import Solitaire

GOOD = (LEVEL_DIR / "dose-01.yaml").read_text(encoding="utf-8")


def test_at_least_30_levels_over_both_variants_load_ordered_easy_to_hard():
    levels, problems = load_levels()
    assert not problems and len(levels) >= 30
    # The winnable (lewis) set first, then dose; easy and short first within each: rounds per stone a careful
    # random player stores.
    assert [level.variant for level in levels] == sorted((lv.variant for lv in levels), key=["lewis", "dose"].index)
    for variant in ("dose", "lewis"):
        ours = [level for level in levels if level.variant == variant]
        assert len(ours) >= 12
        efforts = [level.length / level.difficulty for level in ours]
        assert efforts == sorted(efforts)


@pytest.mark.parametrize("level_id", ["dose-01", "dose-16", "lewis-03", "lewis-16"])
def test_a_sample_replays_its_recorded_line_and_is_solved_again(level_id):
    level = find_level(level_id)
    game = Solitaire(variant=level.variant)
    state = game.deal(level.holes)
    for text in level.line:
        state = game.apply(state, game.parse_move(state, text))
    assert state.stored == level.best == level.goal and len(level.line) == level.length
    result = registry.make_engine(game, "heuristic-dfs").search(game.deal(level.holes), Limits(time=20))
    assert result.score == level.goal and result.exhaustive


@pytest.mark.parametrize("change, message", [
    (lambda t: t.replace("variant: dose", "variant: oware"), "bad.yaml: variant must be dose or lewis, not 'oware'"),
    (lambda t: t.replace("holes: [", "holes: [9, "), "bad.yaml: holes must be 12 whole numbers"),
    (lambda t: t.replace("name: ", "title: "), "bad.yaml: missing key 'name'"),
    (lambda t: t.replace("  length: ", "  length: 1"), "bad.yaml: solution.length says"),
    (lambda t: t.replace("  value: ", "  value: lots "), "bad.yaml: value must be difficulty.value"),
    (lambda t: "id: [unclosed", "bad.yaml: line 1: not valid YAML"),
])
def test_a_malformed_level_is_refused_naming_the_file_and_key_and_the_others_still_load(tmp_path: Path, change,
                                                                                       message):
    (tmp_path / "good.yaml").write_text(GOOD, encoding="utf-8")
    (tmp_path / "bad.yaml").write_text(change(GOOD).replace("id: dose-01", "id: other", 1), encoding="utf-8")
    levels, problems = load_levels(tmp_path)
    assert [level.id for level in levels] == ["dose-01"]
    assert len(problems) == 1 and problems[0].startswith(message)


def drive(argv: list[str], text: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, io.StringIO(text), out)
    return code, out.getvalue()


def test_console_plays_hints_undoes_and_answers_bad_input():
    code, out = drive(["solitaire", "--seed", "4"], "hint\n3 cw\nfoo\nundo\nquit\n")
    assert code == 0
    assert "store01  h01" in out and "Hint (packed-dfs): 3 cw (46 still reachable" in out
    assert "Round 1: hole03 (4) clockwise, a stone into store02" in out
    assert "Invalid input: 'foo': cannot read 'foo'; legal rounds: cw, ccw" in out
    assert "Took back the last round." in out


class Interrupted(io.StringIO):
    """A stdin whose reader presses Ctrl-C once its lines run out."""

    def readline(self, size: int = -1) -> str:
        line = super().readline(size)
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_at_the_prompt_or_during_a_hint_leaves_cleanly(monkeypatch):
    out = io.StringIO()
    assert main(["solitaire", "--seed", "4"], Interrupted("3 cw\n"), out) == 0
    assert "Round 1:" in out.getvalue() and out.getvalue().endswith("\n")

    def interrupted_search(self):
        raise KeyboardInterrupt

    monkeypatch.setattr(solitaire_console.SolitaireConsole, "think", interrupted_search)
    assert main(["solitaire", "--seed", "4"], io.StringIO("hint\nundo\n"), io.StringIO()) == 0


def test_console_auto_plays_a_level_to_a_win_and_says_so():
    code, out = drive(["solitaire", "--level", "lewis-03"], "auto\nquit\n")
    assert code == 0 and "Won: every hole was emptied; all 48 stones stored." in out
    assert "keeps a win possible" in out


def test_console_auto_with_a_count_plays_that_many_rounds_and_reports_a_dose_ending():
    code, out = drive(["solitaire", "--seed", "2", "--engine", "beam:width=3"], "auto 2\nauto x\n1 cw\n")
    assert out.count("Round ") >= 2 and "Invalid input: auto takes a number" in out


def test_console_refuses_a_bad_command_line():
    assert drive(["solitaire", "--variant", "kalah"], "")[1].startswith("stonecave text solitaire: --variant must be")
    assert "no level 'nope'" in drive(["solitaire", "--level", "nope"], "")[1]
    assert drive(["solitaire", "--seed", "1", "--level", "dose-01"], "")[0] == 2
