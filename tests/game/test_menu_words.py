"""What the menus say in words (engines, saves) and the window's opening size; no window needed."""
from __future__ import annotations

import pytest

import rules
from ai import registry
from game import app, savegame
from game.savegame import Seat
from game.session import Session
from game.settings import SettingsSchema, describe_engine


@pytest.mark.parametrize("spec, words", [
    ("pvs:time=2", "PVS, 2 s per move"),
    ("pvs:time=none,depth=9", "PVS, 9 moves deep (within the thinking time)"),
    ("mcts:time=none,iterations=500", "Monte Carlo tree search, 500 play-outs (within the thinking time)"),
    ("preset:Hard", "Computer (Hard)"),
    ("hot-seat", "Two players"),
    ("random vs pvs:time=3", "Random vs PVS, 3 s per move"),
    ("no-such-engine:x=1", "no-such-engine:x=1"),  # unknown: shown as it is rather than guessed
])
def test_engines_in_words(spec: str, words: str) -> None:
    assert describe_engine(spec) == words


def test_a_spec_a_preset_plays_is_named_by_the_preset() -> None:
    kalah = rules.get_game("kalah")
    for name, spec in registry.presets(kalah).items():
        assert describe_engine(spec, kalah) == f"Computer ({name})"
    assert describe_engine("pvs:time=7", kalah) == "PVS, 7 s per move"


def test_every_engine_parameter_has_a_players_name() -> None:
    item = SettingsSchema.load().engines_item
    for info in registry.engines():
        for param in info.params:
            label = item.parameter_label(param.name)
            assert label != param.name and len(label) > len(param.name), (info.name, param.name)


def test_a_save_summary_names_game_seats_and_moves(tmp_path) -> None:  # type: ignore[no-untyped-def]
    game = rules.get_game("kalah")
    session = Session.new(game, (Seat(), Seat("pvs:time=0.5", 1.0)))
    for move in (2, 3):
        if move in session.legal_moves:
            session.play(move)
    path = tmp_path / "a.save"
    session.save(path)
    summary = savegame.summary(path)
    assert summary.game is not None and summary.game.name == "kalah" and not summary.problem
    assert summary.moves == len(session.moves) and summary.seats == session.seats and not summary.is_over
    broken = tmp_path / "b.save"
    broken.write_text("not a save\n", encoding="utf-8")
    bad = savegame.summary(broken)
    assert bad.game is None and bad.problem


def test_the_load_list_line_says_who_played(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from game.views.load_view import describe_save

    game = rules.get_game("kalah")
    session = Session.new(game, (Seat(), Seat("pvs:time=0.5", 1.0)))
    session.play(session.legal_moves[0])
    session.save(tmp_path / "c.save")
    what, when = describe_save(savegame.summary(tmp_path / "c.save"))
    assert what.startswith("Kalah, 1 move ") and "South: Human" in what and "North: Computer (Hard)" in what
    assert when[-5:-3].isdigit()  # a time of day


@pytest.mark.parametrize("screen, expected", [
    ((1920, 1080), (1280, 720)),
    ((2560, 1440), (1280, 720)),
    ((1366, 768), (1256, 652)),
    ((1024, 600), (942, 510)),
    ((800, 480), (800, 480)),  # a screen smaller than the smallest layout: never larger than the screen
])
def test_the_window_opens_at_a_size_that_fits_its_screen(screen: tuple[int, int], expected: tuple[int, int]) -> None:
    width, height = app.window_size(*screen)
    assert (width, height) == expected
    assert width <= screen[0] and height <= screen[1]
