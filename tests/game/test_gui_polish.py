"""Window tests of the polish: the statistics screen and file, the rules screens, the sounds.

Run under Xvfb (started by conftest.py); each test drives the session window with dispatched clicks and keys.
"""
from __future__ import annotations

import os
import random
from pathlib import Path

import arcade
import yaml

import rules
from game import app
from game.session import Session
from game.savegame import Seat
from game.sound import SOUNDS, SoundBank
from game.statistics import StatisticsStore
from game.views.rules_view import RulesView, pages
from game.views.sowing_view import SowingView
from game.views.statistics_view import StatisticsView
from game.views.title import TitleView
from tests import registered

SHOTS = Path(os.environ.get("STONECAVE_SCREENSHOTS", "/tmp/stonecave-shots"))


def distinct_colours(image) -> int:  # type: ignore[no-untyped-def]
    return len(image.convert("RGB").resize((320, 180)).getcolors(1 << 16) or ())


def finished_match(seats: tuple[Seat, Seat], seed: int = 1) -> Session:
    """A Kalah (4 pits, 2 seeds: short) match played to its end with random moves."""
    game = rules.get_game("kalah", pits=4, seeds=2)
    match = Session.new(game, seats)
    rng = random.Random(seed)
    while not match.is_over:
        match.play(rng.choice(match.legal_moves))
    return match


def table_text(gui) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(line.text for line in gui.window.current_view._lines)


def test_a_game_won_against_the_computer_is_counted_shown_and_kept(gui):  # type: ignore[no-untyped-def]
    gui.press("Statistics")
    assert isinstance(gui.window.current_view, StatisticsView)
    assert "No finished games yet" in table_text(gui)
    gui.press("Back")
    # Finish a game on the game screen itself: its game-over hook counts it, once, however often it is shown.
    match = finished_match((Seat(), Seat("random", 0.1)))
    outcome = match.outcome
    match.undo()
    gui.context.show_match(match)
    view = gui.window.current_view
    assert isinstance(view, SowingView)
    view.play(match.next_redo)
    gui.updates_until(lambda: view.game_over_shown, limit=1200)
    view.toggle_panel()  # the layout changes: the game-over panel is shown again
    gui.updates_until(lambda: view.game_over_shown, limit=300)
    saved = yaml.safe_load((gui.config_dir / "statistics.yaml").read_text())
    assert len(saved["games"]) == 1
    expected = "drawn" if outcome.winner is None else ("won" if outcome.winner == 0 else "lost")
    assert saved["games"][0] == {**saved["games"][0], "game": "kalah", "kind": "computer", "opponent": "random",
                                 "result": expected}
    # Shown on the screen, and still there after a restart of the application.
    app.start(gui.window, gui.config_dir)
    gui.window.current_view.context.show_statistics()
    gui.frame()
    text = table_text(gui)
    assert "Against the computer" in text and "Random" in text  # the engine in words, not its spec
    counts = [line.text for line in gui.window.current_view._lines]
    assert counts[counts.index("Random") + 1] == "1"  # played
    assert counts[counts.index("Random") + 2 + ["won", "lost", "drawn"].index(expected)] == "1"
    assert distinct_colours(gui.screenshot(SHOTS / "statistics.png")) > 5


def test_hot_seat_and_watched_games_have_their_own_headings_and_reset_asks_first(gui):  # type: ignore[no-untyped-def]
    store = gui.context.statistics
    assert store.record_match(finished_match((Seat(), Seat()), 2)) == []
    assert store.record_match(finished_match((Seat("random"), Seat("alphabeta:depth=2")), 3)) == []
    assert store.record_match(finished_match((Seat("random"), Seat()), 4)) == []
    gui.context.show_statistics()
    gui.frame()
    text = table_text(gui)
    assert "Hot-seat" in text and "Computer against computer" in text and "Random vs Alpha-beta, 2 moves deep" in text
    gui.press("Reset")
    assert store.records, "reset must ask first"
    gui.press("No, keep them")
    assert len(store.records) == 3
    gui.press("Reset")
    gui.press("Yes, reset")
    assert store.records == []
    assert StatisticsStore(gui.config_dir).load() == [] and not StatisticsStore(gui.config_dir).records
    assert "No finished games yet" in table_text(gui)


def test_a_game_opened_already_over_is_not_counted(gui):  # type: ignore[no-untyped-def]
    match = finished_match((Seat(), Seat("random", 0.1)), 5)
    gui.context.show_match(match)
    view = gui.window.current_view
    gui.updates_until(lambda: view.game_over_shown, limit=300)
    assert not (gui.config_dir / "statistics.yaml").exists()
    assert gui.context.statistics.records == []


def test_a_corrupt_statistics_file_is_set_aside_with_a_message(gui):  # type: ignore[no-untyped-def]
    path = gui.config_dir / "statistics.yaml"
    path.write_text("version: 1\ngames:\n  - {game: kalah, kind: computer, opponent: random, result: maybe, "
                    "moves: 3, date: '2026-01-01'}\n", encoding="utf-8")
    gui.context.show_statistics()
    gui.frame()
    view = gui.window.current_view
    assert isinstance(view, StatisticsView)
    assert "could not be read" in view._message.text and "result" in view._message.text
    assert not path.exists() and list(gui.config_dir.glob("statistics.yaml.bad-*"))
    path.write_text("{not yaml: [", encoding="utf-8")
    fresh = StatisticsStore(gui.config_dir)
    assert "could not be read" in fresh.load()[0]


def test_each_rules_screen_opens_with_its_title_and_a_drawing(gui):  # type: ignore[no-untyped-def]
    assert sorted(page.name for page in pages()) == sorted(registered.names())
    gui.press("Rules")
    view = gui.window.current_view
    assert isinstance(view, RulesView)
    for index, page in enumerate(pages()):
        if index:
            gui.press(page.title.split(" (")[0])
        view = gui.window.current_view
        assert view.page.name == page.name
        assert view._texts[0].text == page.title
        assert view.illustration is not None and len(view.illustration.ops) > 10
        image = gui.screenshot(SHOTS / f"rules-{page.name}.png")
        # The illustration's half of the screen holds a drawing: several colours, much of it not the table.
        right = image.convert("RGB").crop((image.width // 2, 200, image.width - 40, image.height - 200))
        colours = right.getcolors(1 << 16) or []
        table = sum(count for count, colour in colours if colour == (0x1E, 0x1A, 0x17))
        assert len(colours) >= 5 and table < 0.8 * right.width * right.height, page.name
    gui.key(arcade.key.ESCAPE)
    assert isinstance(gui.window.current_view, TitleView)


def test_f1_on_a_game_screen_opens_its_rules_and_back_returns(gui):  # type: ignore[no-untyped-def]
    gui.context.show_match(Session.new(rules.get_game("oware"), (Seat(), Seat("random", 0.1))))
    game_view = gui.window.current_view
    gui.frame(2)
    gui.key(arcade.key.F1)
    view = gui.window.current_view
    assert isinstance(view, RulesView) and view.page.name == "oware"
    gui.press("Back")
    assert gui.window.current_view is game_view


class FakeSound:
    def __init__(self, log: list) -> None:  # type: ignore[type-arg]
        self.log = log

    def play(self, volume: float) -> None:
        self.log.append(volume)


def test_sounds_respect_the_setting_and_fail_silently(caplog):  # type: ignore[no-untyped-def]
    loaded: list[str] = []
    played: list[float] = []

    def loader(path: str) -> FakeSound:
        loaded.append(path)
        return FakeSound(played)

    bank = SoundBank(loader)
    bank.enabled = False
    bank.play("drop")
    assert loaded == [] and played == []
    bank.enabled = True
    for name in ("drop", "capture", "brick", "end", "drop"):
        bank.play(name)
    assert loaded == [SOUNDS[name] for name in ("drop", "capture", "brick", "end")]
    assert len(played) == 5
    for path in SOUNDS.values():
        assert arcade.resources.resolve(path).exists(), path

    def broken(path: str) -> FakeSound:
        raise RuntimeError("no audio device")

    silent = SoundBank(broken)
    with caplog.at_level("WARNING", logger="stonecave.sound"):
        silent.play("drop")
        silent.play("capture")
        silent.play("drop")
    assert silent.failed
    assert len([r for r in caplog.records if "no audio device" in r.getMessage()]) == 1


def test_the_sound_setting_reaches_the_game_screens(gui):  # type: ignore[no-untyped-def]
    played: list[str] = []
    gui.context.sounds.play = played.append  # the bank, mocked: what the scenes ask for
    gui.context.show_match(Session.new(rules.get_game("kalah"), (Seat(), Seat())))
    view = gui.window.current_view
    view.play(view.match.legal_moves[0])
    gui.updates_until(lambda: not view.scene.is_animating, limit=600)
    assert "drop" in played
    # Turning sound off in the settings silences the real bank.
    context = gui.context
    context.settings.set("sound", False)
    type(context).apply_settings(context)
    assert context.sounds.enabled is False
    context.settings.set("sound", True)
    type(context).apply_settings(context)
    assert context.sounds.enabled is True
