"""The StoneCave window: ``stonecave`` (or ``stonecave gui``) opens it on the title screen.

    stonecave gui [--fullscreen] [--windowed] [--config-dir DIR] [--game NAME] [--load FILE]

``--config-dir`` overrides where settings and saves live (also ``$STONECAVE_CONFIG_DIR``); ``--game`` goes
straight to the seat setup of a game; ``--load`` opens a save file.  ``start`` builds everything on a window it
is given, which is how the tests drive the whole application on one hidden window.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import arcade

from game import savegame, theme
from game.context import AppContext
from game.settings import CONFIG_ENV, SettingsStore

WIDTH, HEIGHT = 1280, 720
MINIMUM = (800, 500)
TITLE = "StoneCave"


def window_size(screen_width: int, screen_height: int) -> tuple[int, int]:
    """The size the window opens at on a screen this big: 1280x720, smaller when that would not fit with room
    for the desktop's own bars, never smaller than 800x500 unless the screen itself is."""
    width = min(WIDTH, int(screen_width * 0.92))
    height = min(HEIGHT, int(screen_height * 0.85))
    return max(min(MINIMUM[0], screen_width), width), max(min(MINIMUM[1], screen_height), height)


def _screen_size() -> tuple[int, int]:
    """The size of the screen the window opens on (the default one)."""
    import pyglet

    screen = pyglet.display.get_display().get_default_screen()
    return screen.width, screen.height


def _parse(argv: list[str]) -> argparse.Namespace:
    from game.cli import gui_parser  # the command line's parsers live together (game.cli.parser walks them)

    return gui_parser().parse_args(argv)


def start(window: arcade.Window, config_dir: Path | None = None) -> AppContext:
    """Load the settings (never failing: problems become notices), build the context, show the title screen."""
    theme.load_fonts()
    store = SettingsStore(config_dir)
    settings, problems = store.load()
    context = AppContext(window, store, settings, notices=list(problems))
    if context.save_dir is not None:
        savegame.remove_stale_temporaries(context.save_dir)  # what saves killed midway left behind
    context.show_title()
    return context


def run(argv: list[str] | None = None) -> int:
    """Open the window and run until it is closed; returns the process exit status."""
    options = _parse(list(argv or []))
    if options.config_dir is not None:
        os.environ[CONFIG_ENV] = str(options.config_dir)
    entry = None
    if options.game:
        from game import catalogue

        names = {entry.name: entry for entry in catalogue.games()}
        entry = names.get(options.game.strip().lower())
        if entry is None or not entry.available:
            valid = ", ".join(name for name, e in names.items() if e.available)
            print(f"stonecave gui: cannot play {options.game!r} here (playable: {valid})", file=sys.stderr)
            return 2
    screen = _screen_size()
    width, height = window_size(*screen)
    window = arcade.Window(width, height, TITLE, resizable=True, antialiasing=False, vsync=True)
    window.set_minimum_size(min(MINIMUM[0], width), min(MINIMUM[1], height))
    context = start(window, options.config_dir)
    if options.fullscreen or options.windowed:
        context.settings.set("fullscreen", bool(options.fullscreen))
        context.save_settings()
    else:
        context.apply_settings()
    if entry is not None:
        context.show_seats(entry.name)
    elif options.load:
        from game.views.load_view import open_save

        problem = open_save(context, options.load)
        if problem:
            context.notices.append(problem)
            context.show_title()  # the title screen shows the message
    arcade.run()
    return 0
