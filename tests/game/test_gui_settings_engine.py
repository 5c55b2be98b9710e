"""The engine part of Settings: every parameter reachable at 800x500, words for raw names, the optional limits.

Driven through the real window: clicks on the controls' ends, the wheel and Page Down, and the settings file.
"""
from __future__ import annotations

import arcade
import arcade.gui
import pytest

import rules
from game.views.settings_view import SettingsView
from game.views.widgets import SETTING_HELP, SETTING_NAME, Stepper
from game import theme
from ai import registry


def open_settings(gui, engine: str, width: int = 800, height: int = 500) -> SettingsView:  # type: ignore[no-untyped-def]
    gui.window.set_size(width, height)
    gui.window.dispatch_event("on_resize", width, height)
    gui.context.settings.set_engine_choice(rules.get_game("kalah"), "opponent", engine)
    gui.context.show_settings()
    gui.frame(2)
    view = gui.window.current_view
    assert isinstance(view, SettingsView)
    return view


def named(gui, kind, name: str):  # type: ignore[no-untyped-def]
    found = [widget for widget in gui.widgets(kind) if getattr(widget, "name", None) == name]
    return found[0] if found else None


def inside(widget, window) -> bool:  # type: ignore[no-untyped-def]
    rect = widget.rect
    return rect.left >= 0 and rect.bottom >= 0 and rect.right <= window.width and rect.top <= window.height


def spec(gui) -> str:  # type: ignore[no-untyped-def]
    return gui.context.settings.engine_choice(rules.get_game("kalah"), "opponent")


@pytest.mark.parametrize("engine, details", [("pvs", True), ("mcts", True), ("pvs", False)])
def test_every_parameter_can_be_reached_at_800x500(gui, engine: str, details: bool) -> None:  # type: ignore[no-untyped-def]
    gui.context.settings.set("details", details)
    view = open_settings(gui, engine)
    item = gui.context.settings.schema.engines_item
    # the engine's own time is the one thinking time's (never shown apart); developer parameters need Details
    params = [param.name for param in registry.engine_info(engine).params
              if param.name not in item.thinking and (details or param.name not in item.developer)]
    assert "time" not in params and ("poll" in params) == (details and engine == "pvs")
    seen: set[str] = set()
    for _ in range(60):
        for name in params:
            widget = next((w for w in gui.widgets() if getattr(w, "name", None) == name), None)
            if widget is not None and inside(widget, gui.window):
                seen.add(name)
        if seen == set(params):
            break
        gui.window.dispatch_event("on_mouse_scroll", 400, 250, 0, -1)  # the wheel, towards the bottom
        gui.frame()
    assert seen == set(params), f"never shown: {set(params) - seen}"
    hidden = {param.name for param in registry.engine_info(engine).params} - set(params)
    assert not any(getattr(w, "name", None) in hidden for w in gui.widgets()), "a hidden parameter is shown"
    gui.context.settings.set("details", False)
    # Page Up all the way brings the first rows back.
    for _ in range(20):
        gui.key(arcade.key.PAGEUP)
    assert view.scrolls[0].first == 0 and named(gui, Stepper, "animation_speed") is not None


def test_an_optional_limit_steps_to_not_used_and_back(gui) -> None:  # type: ignore[no-untyped-def]
    open_settings(gui, "pvs", 1920, 1080)
    depth = named(gui, Stepper, "depth")
    assert depth.number is None and "not used" in depth.text
    gui.click(*depth.point(1))
    assert depth.number == 1 and "depth=1" in spec(gui)
    gui.click(*depth.point(1))
    assert depth.number == 2 and "depth=2" in spec(gui)  # a number, not a toggle between two values
    gui.click(*depth.point(-1))
    gui.click(*depth.point(-1))
    assert depth.number is None and "depth" not in spec(gui)  # back to "not used" without leaving the screen
    gui.click(*depth.point(1))
    # Leave and come back: the stored limit shows, and can still go back to "not used".
    gui.press("Back")
    gui.context.show_settings()
    gui.frame(2)
    depth = named(gui, Stepper, "depth")
    assert depth.number == 1
    gui.click(*depth.point(-1))
    assert depth.number is None and "depth" not in spec(gui)
    assert named(gui, Stepper, "time") is None  # the one thinking time stands for the engine's own


def test_names_in_words_with_the_raw_name_as_a_hint_and_labels_unlike_descriptions(gui) -> None:  # type: ignore[no-untyped-def]
    gui.context.settings.set("details", False)
    open_settings(gui, "pvs", 1920, 1080)
    labels = {label.text: label for label in gui.widgets(arcade.gui.UILabel)}
    assert "Memory for the search: MB" in labels and "memory" not in labels and "poll" not in labels
    assert not any("Time per move" in text for text in labels)  # one thinking time
    gui.context.settings.set("details", True)  # engine developers see the raw names and every parameter
    view = open_settings(gui, "pvs", 1920, 1080)
    scale = theme.type_scale(1920, 1080)  # the words are drawn 1.5 times their 1280x720 size here
    labels = {label.text: label for label in gui.widgets(arcade.gui.UILabel)}
    for _ in range(20):  # the rows of a large window's larger words scroll: down to the memory's
        if "Memory for the search: MB" in labels and "poll" in labels:
            break
        view.scroll(1, view.window.width * 0.75, view.window.height / 2)
        gui.frame()
        labels = {label.text: label for label in gui.widgets(arcade.gui.UILabel)}
    gui.context.settings.set("details", False)
    assert "Memory for the search: MB" in labels and "memory" in labels and "poll" in labels
    name, hint = labels["Memory for the search: MB"], labels["memory"]
    description = next(label for text, label in labels.items() if text.startswith("Memory for the table"))
    assert name._label.font_size == round(SETTING_NAME.size * scale) and tuple(name._label.color) == tuple(theme.TEXT)
    for small in (hint, description):
        assert small._label.font_size == round(SETTING_HELP.size * scale) < round(SETTING_NAME.size * scale)
        assert tuple(small._label.color) == tuple(theme.TEXT_DIM) != tuple(theme.TEXT)
    assert hint.rect.left > name.rect.right and abs(hint.rect.bottom - name.rect.bottom) < 6  # beside it
    assert description.rect.top <= name.rect.bottom + 2  # under it


def test_the_engine_choice_shows_the_whole_name_and_the_saved_line_stays_below(gui) -> None:  # type: ignore[no-untyped-def]
    view = open_settings(gui, "preset:Medium", 1280, 720)
    engine = next(w for w in gui.widgets() if getattr(w, "name", None) == "engine-choice")
    while "PVS" not in engine.text:
        gui.click(*engine.point(1))
        engine = next(w for w in gui.widgets() if getattr(w, "name", None) == "engine-choice")
    assert engine._label._label.content_width <= engine.content_width
    assert spec(gui) == "pvs" and "Saved" in view._message.text and "Iterative deepening (PVS), thinking 2 s per move" in view._message.text
    lowest = min(w.rect.bottom for w in gui.widgets() if isinstance(w, (arcade.gui.UIFlatButton,
                                                                         arcade.gui.UILabel)))
    assert view._message.top < lowest  # the message strip is under every row, never on the parameters
