"""Controls that never move under the pointer (issue 29, item 5), checked in a real window.

- Settings' arrows: found on the screen by their ink (not by asking the widget where it drew them), clicked
  twice in one place: two steps.  Before issue 29 each control drew ``<  value  >`` as one centred line, so
  the arrows moved with the value's width and the left arrow of a short value lay outside the control's
  back zone (a click on it stepped forward).
- The title's buttons keep their rectangles whether games in progress are listed or not, at every size; a
  click remembered from a title without games lands on the same button with games (it once landed on Quit),
  and Quit with games in progress quits at once and keeps them.
"""
from __future__ import annotations

import arcade
import arcade.gui
import pytest

import rules
from game import catalogue, savegame
from game.savegame import Seat
from game.views.settings_view import SettingsView
from game.views.title import TitleView
from game.views.widgets import Choice, Stepper


def named(gui, kind, name: str):  # type: ignore[no-untyped-def]
    return next(widget for widget in gui.widgets(kind) if getattr(widget, "name", "") == name)


def ink_runs(gui, widget) -> list[tuple[int, int]]:  # type: ignore[no-untyped-def]
    """The runs of columns (window x, from and to) where the control's text has ink, read from the screen."""
    image = gui.screenshot().convert("L")
    height = gui.window.height
    rect = widget.rect
    top, bottom = int(height - rect.top) + 4, int(height - rect.bottom) - 4
    runs: list[tuple[int, int]] = []
    start = None
    for x in range(int(rect.left) + 4, int(rect.right) - 4):
        inked = any(image.getpixel((x, y)) > 170 for y in range(top, bottom))
        if inked and start is None:
            start = x
        elif not inked and start is not None:
            runs.append((start, x - 1))
            start = None
    if start is not None:
        runs.append((start, int(rect.right) - 5))
    # Glyphs of one word touch or nearly touch; the arrows stand apart from the words.
    merged: list[tuple[int, int]] = []
    for run in runs:
        if merged and run[0] - merged[-1][1] <= 6:
            merged[-1] = (merged[-1][0], run[1])
        else:
            merged.append(run)
    return merged


def arrows(gui, widget) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """The centres of the leftmost and rightmost ink: where a player sees the two arrows."""
    runs = ink_runs(gui, widget)
    assert len(runs) >= 3, f"no arrows and value on {widget.name}: {runs}"
    return (runs[0][0] + runs[0][1]) / 2, (runs[-1][0] + runs[-1][1]) / 2


def test_two_clicks_on_a_settings_arrow_make_two_steps_and_the_arrows_never_move(gui):  # type: ignore[no-untyped-def]
    gui.context.show_settings()
    gui.frame(2)
    assert isinstance(gui.window.current_view, SettingsView)
    speed = named(gui, Stepper, "animation_speed")
    before = speed.number
    left, right = arrows(gui, speed)
    for _ in range(2):
        gui.click(right, speed.rect.center[1])
        speed = named(gui, Stepper, "animation_speed")
        assert arrows(gui, speed) == pytest.approx((left, right), abs=1), "the arrows moved with the value"
    assert speed.number == pytest.approx(before + 2 * speed.step_size)
    assert gui.context.settings.get("animation_speed") == pytest.approx(speed.number)
    for _ in range(2):
        gui.click(left, speed.rect.center[1])
        speed = named(gui, Stepper, "animation_speed")
    assert speed.number == pytest.approx(before)

    game = named(gui, Choice, "engine-game")
    names = [value for value, _ in game.options]
    assert len(names) >= 3 and game.value == names[0]
    left, right = arrows(gui, game)
    for _ in range(2):  # the left arrow steps back, wherever the name of the game between them ends
        gui.click(left, game.rect.center[1])
        game = named(gui, Choice, "engine-game")
        assert arrows(gui, game) == pytest.approx((left, right), abs=1), "the arrows moved with the value"
    assert game.value == names[-2]
    for _ in range(2):
        gui.click(right, game.rect.center[1])
        game = named(gui, Choice, "engine-game")
    assert game.value == names[0]


def _keep_games(gui) -> None:  # type: ignore[no-untyped-def]
    for name in ("kalah", "hus", "magnetic-cave"):
        game = rules.get_game(name)
        start = game.initial_state()
        move = game.legal_moves(start)[0]
        gui.context.autosave.keep(savegame.SavedGame(game, (Seat(), Seat("random", 0.1)), start, (move,)), False)


def _menu_rects(gui) -> dict[str, tuple[float, float, float, float]]:  # type: ignore[no-untyped-def]
    gui.context.show_title()
    gui.frame()
    view = gui.window.current_view
    assert isinstance(view, TitleView)
    labels = {item.label for item in catalogue.main_menu()}
    found = {w.text: (w.rect.left, w.rect.bottom, w.rect.width, w.rect.height) for w in gui.widgets(arcade.gui.UIFlatButton) if w.text in labels}
    assert set(found) == labels
    return found


@pytest.mark.parametrize("size", [(1280, 720), (800, 500), (1024, 600), (1920, 1080)])
def test_the_title_buttons_stay_put_with_and_without_games_in_progress(gui, size, monkeypatch):  # type: ignore[no-untyped-def]
    gui.window.set_size(*size)
    gui.window.dispatch_event("on_resize", *size)
    gui.frame()
    without = _menu_rects(gui)
    _keep_games(gui)
    with_games = _menu_rects(gui)
    assert with_games == without, "a title button moved when games in progress were listed"
    offers = gui.window.current_view.resume_buttons
    assert len(offers) == 3
    menu = [arcade.types.LBWH(*rect) for rect in with_games.values()]
    for offer in offers:  # the offers overlap no menu button
        assert not any(offer.rect.left < r.right and r.left < offer.rect.right and offer.rect.bottom < r.top
                       and r.bottom < offer.rect.top for r in menu), offer.text
        assert 0 <= offer.rect.left and offer.rect.right <= size[0] and offer.rect.bottom >= 0

    # The click a player remembers from an empty title opens Settings, not Quit.
    quits: list[bool] = []
    monkeypatch.setattr(arcade, "exit", lambda: quits.append(True))
    x, y, w, h = without["Settings"]
    gui.click(x + w / 2, y + h / 2)
    assert isinstance(gui.window.current_view, SettingsView) and not quits


def test_quit_with_games_in_progress_quits_at_once_and_keeps_them(gui, monkeypatch):  # type: ignore[no-untyped-def]
    _keep_games(gui)
    slots = gui.context.autosave.slots()
    quits: list[bool] = []
    monkeypatch.setattr(arcade, "exit", lambda: quits.append(True))
    _menu_rects(gui)
    gui.press("Quit")
    assert quits == [True]
    assert gui.context.autosave.slots() == slots and len(slots) == 3
