"""A monkey test: thousands of random clicks and keys on every screen, with no exception.

Events are dispatched in bursts with one frame (update and draw) after each burst, so any handler, update or
draw that raises fails the test.  Quit is replaced by a flag (the session window must stay open) and F11 is
left out (full screen on a virtual display only slows the run down).
"""
from __future__ import annotations

import random

import arcade

from game.views.sowing_view import SowingView

KEYS = [arcade.key.ESCAPE, arcade.key.ENTER, arcade.key.SPACE, arcade.key.TAB, arcade.key.LEFT, arcade.key.RIGHT,
        arcade.key.UP, arcade.key.DOWN, arcade.key.H, arcade.key.U, arcade.key.R, arcade.key.N, arcade.key.P,
        arcade.key.S, arcade.key.Z, arcade.key.Y, arcade.key.PLUS, arcade.key.MINUS, arcade.key.A, arcade.key.Q,
        *range(arcade.key.KEY_0, arcade.key.KEY_9 + 1)]
SCREENS = ["title", "play", "seats-kalah", "seats-hus", "settings", "load", "kalah", "oware", "hus", "watch",
           "magnetic-cave", "statistics", "rules"]


def test_random_clicks_and_keys_never_raise(gui):  # type: ignore[no-untyped-def]
    quits = []
    gui.context.quit = lambda: quits.append(True)
    gui.context.settings.set("think_time", 0.25)
    rng = random.Random(8)
    window = gui.window
    events = 0
    visited = set()
    for screen in SCREENS:
        _open(gui, screen)
        for _burst in range(10):
            for _ in range(20):
                visited.add(type(window.current_view).__name__)
                x, y = rng.randrange(window.width), rng.randrange(window.height)
                kind = rng.random()
                if kind < 0.6:
                    window.dispatch_event("on_mouse_motion", x, y, 0, 0)
                    window.dispatch_event("on_mouse_press", x, y, arcade.MOUSE_BUTTON_LEFT, 0)
                    window.dispatch_event("on_mouse_release", x, y, arcade.MOUSE_BUTTON_LEFT, 0)
                elif kind < 0.7:
                    window.dispatch_event("on_mouse_motion", x, y, 0, 0)
                else:
                    symbol = rng.choice(KEYS)
                    modifiers = arcade.key.MOD_CTRL if rng.random() < 0.2 else 0
                    window.dispatch_event("on_key_press", symbol, modifiers)
                    window.dispatch_event("on_key_release", symbol, modifiers)
                events += 1
            gui.frame(dt=rng.choice((1 / 60, 0.05, 0.2)))
    assert events >= 2000
    assert {"TitleView", "SowingView", "SettingsView"} <= visited


def _open(gui, screen: str) -> None:  # type: ignore[no-untyped-def]
    import rules
    from game.match import Match
    from game.savegame import Seat

    context = gui.context
    if screen == "title":
        context.show_title()
    elif screen == "play":
        context.show_play()
    elif screen.startswith("seats-"):
        context.show_seats(screen.split("-", 1)[1])
    elif screen == "settings":
        context.show_settings()
    elif screen == "load":
        context.show_load()
    elif screen == "statistics":
        context.show_statistics()
    elif screen == "rules":
        context.show_rules("hus")
    elif screen == "watch":
        context.show_match(Match.new(rules.get_game("kalah"), (Seat("random", 0.1), Seat("random", 0.1))))
    else:
        context.show_match(Match.new(rules.get_game(screen), (Seat(), Seat("random", 0.1))))
    gui.frame()
    if isinstance(gui.window.current_view, SowingView):
        gui.window.current_view.speed_index = 3
