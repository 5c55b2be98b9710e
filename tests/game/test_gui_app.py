"""Window tests of the application shell: every screen opens, settings persist, bad files never crash.

Run under Xvfb (started by conftest.py when no display is set); every test drives the real window with
dispatched clicks and keys.
"""
from __future__ import annotations

import arcade
import yaml

from game import app
from game.views.load_view import LoadView
from game.views.play_menu import PlayMenuView
from game.views.seats import SeatSetupView
from game.views.settings_view import SettingsView
from game.views.sowing_view import SowingView
from game.views.title import TitleView
from game.views.widgets import Choice, Stepper


def distinct_colours(image) -> int:  # type: ignore[no-untyped-def]
    return len(image.convert("RGB").resize((320, 180)).getcolors(1 << 16) or ())


def choice(gui, name: str) -> Choice:  # type: ignore[no-untyped-def]
    for widget in gui.widgets(Choice):
        if widget.name == name:
            return widget
    raise AssertionError(f"no choice {name!r}")


def stepper(gui, name: str) -> Stepper:  # type: ignore[no-untyped-def]
    for widget in gui.widgets(Stepper):
        if widget.name == name:
            return widget
    raise AssertionError(f"no stepper {name!r}")


def test_every_screen_opens_from_the_menus(gui):  # type: ignore[no-untyped-def]
    assert isinstance(gui.window.current_view, TitleView)
    assert distinct_colours(gui.screenshot()) > 50
    gui.press("Play")
    assert isinstance(gui.window.current_view, PlayMenuView)
    gui.press("Kalah")
    assert isinstance(gui.window.current_view, SeatSetupView)
    gui.press("Start")
    assert isinstance(gui.window.current_view, SowingView)
    gui.frame(3)
    gui.press("Menu")
    assert isinstance(gui.window.current_view, TitleView)
    gui.press("Settings")
    assert isinstance(gui.window.current_view, SettingsView)
    assert distinct_colours(gui.screenshot()) > 20
    gui.key(arcade.key.ESCAPE)
    assert isinstance(gui.window.current_view, TitleView)
    gui.press("Load game")
    assert isinstance(gui.window.current_view, LoadView)
    gui.press("Back")
    assert isinstance(gui.window.current_view, TitleView)
    # A disabled item (a game or mode still to come) ignores clicks.
    for widget in gui.widgets():
        if getattr(widget, "disabled", False) and hasattr(widget, "text"):
            gui.click(*widget.rect.center)
            assert isinstance(gui.window.current_view, TitleView)


def test_each_available_game_opens_its_board(gui):  # type: ignore[no-untyped-def]
    from game import catalogue

    playable = [entry for entry in catalogue.games() if entry.available]
    assert "kalah" in [entry.name for entry in playable]
    for entry in playable:
        gui.context.show_play()
        gui.press(entry.title)
        gui.press("Start")
        view = gui.window.current_view
        assert view.match.game.name == entry.name
        gui.frame(2)
        if entry.scene == "cave":
            from game.views.cave_view import CaveView

            assert isinstance(view, CaveView) and view.scene.bricks == {}  # the cave starts empty
        else:
            assert isinstance(view, SowingView)
            total = sum(view.scene.counts.values())
            assert total == view.match.game.material(view.match.state)
        gui.press("Menu")


def test_a_settings_change_through_the_menu_persists_across_a_restart(gui):  # type: ignore[no-untyped-def]
    gui.press("Settings")
    sound = choice(gui, "sound")
    assert sound.value is True
    gui.click(*sound.point(1))
    assert gui.context.settings.get("sound") is False
    speed = stepper(gui, "animation_speed")
    gui.click(*speed.point(1))
    gui.click(*speed.point(1))
    assert gui.context.settings.get("animation_speed") == 1.5
    # Details on: the engines' developer parameters (the random engine's seed) are shown.
    details = choice(gui, "details")
    assert details.value is False
    gui.click(*details.point(1))
    assert gui.context.settings.get("details") is True
    # The engine card: pick the hint engine of the first game by clicking through the choices.
    role = choice(gui, "engine-role")
    while role.value != "hint":
        gui.click(*role.point(1))
        role = choice(gui, "engine-role")
    engine = choice(gui, "engine-choice")
    wanted = None
    for value, text in engine.options:
        if text.endswith("Random"):
            wanted = value
    assert wanted is not None
    while engine.value != wanted:
        gui.click(*engine.point(1))
        engine = choice(gui, "engine-choice")
    seed = stepper(gui, "seed")  # the random engine's parameter, built from ai/data/engines.yaml
    gui.click(*seed.point(1))
    saved = yaml.safe_load((gui.config_dir / "settings.yaml").read_text())
    assert saved["sound"] is False and saved["animation_speed"] == 1.5
    assert saved["engines"]["kalah"]["hint"] == "random:seed=1"
    # A restart reads them back.
    context = app.start(gui.window, gui.config_dir)
    assert context.settings.get("sound") is False
    assert context.settings.get("animation_speed") == 1.5
    import rules

    assert context.settings.engine_spec(rules.get_game("kalah"), "hint") == "random:seed=1"
    assert context.notices == []


def test_a_corrupt_settings_file_is_set_aside_with_a_message(gui):  # type: ignore[no-untyped-def]
    path = gui.config_dir / "settings.yaml"
    path.write_text("version: 1\nsound: [unclosed\n\x00garbage", encoding="utf-8")
    context = app.start(gui.window, gui.config_dir)
    gui.frame(2)
    view = gui.window.current_view
    assert isinstance(view, TitleView)
    assert "set aside" in view._message.text and "settings" in view._message.text.lower()
    assert not path.exists()
    assert list(gui.config_dir.glob("settings.yaml.bad-*"))
    assert context.settings.get("sound") is True  # the default
    gui.press("Play")  # the game goes on
    assert isinstance(gui.window.current_view, PlayMenuView)


def test_unknown_and_out_of_range_settings_keep_the_good_values(gui):  # type: ignore[no-untyped-def]
    path = gui.config_dir / "settings.yaml"
    path.write_text(yaml.safe_dump({"version": 1, "sound": False, "animation_speed": 99, "colour": "pink"}))
    context = app.start(gui.window, gui.config_dir)
    assert context.settings.get("sound") is False
    assert context.settings.get("animation_speed") == 1.0
    message = gui.window.current_view._message.text
    assert "animation_speed must be from 0.25 to 4.0" in message and "unknown setting 'colour'" in message


def test_a_corrupt_save_gives_a_message_and_no_crash(gui):  # type: ignore[no-untyped-def]
    saves = gui.context.save_dir
    saves.mkdir(parents=True, exist_ok=True)
    (saves / "broken.save").write_text("StoneCave save 1\ngame: kalah\nseat South: human\nnonsense\n")
    gui.press("Load game")
    gui.press("broken")
    view = gui.window.current_view
    assert isinstance(view, LoadView)
    assert "Cannot load broken.save" in view._message.text and "line" in view._message.text


def test_save_and_load_continue_the_same_game(gui):  # type: ignore[no-untyped-def]
    gui.press("Play")
    gui.press("Kalah")
    seat = choice(gui, "seat1")
    while seat.value != "human":
        gui.click(*seat.point(-1))
    gui.press("Start")
    view = gui.window.current_view
    for key in (arcade.key.KEY_3, arcade.key.KEY_2, arcade.key.KEY_6):
        gui.key(key)
    moves = list(view.match.moves)
    assert len(moves) == 3
    gui.press("Save")
    assert view.save_path is not None and view.save_path.exists()
    gui.press("Menu")
    gui.press("Load game")
    gui.press("Kalah, 3 moves")  # the load list names the game and its length, not the file
    loaded = gui.window.current_view
    assert isinstance(loaded, SowingView) and loaded is not view
    assert loaded.match.moves == moves and loaded.match.state == view.match.state
    gui.frame(2)
    assert loaded.scene.counts == loaded.spec.counts(loaded.match.state)
