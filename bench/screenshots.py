"""Write the README's screenshots: ``python bench/screenshots.py`` -> docs/screenshots/*.png.

Drives the real application on a hidden 1280x720 window (Xvfb when no display is set): the title screen, the
settings, each sowing game a few moves in with the stones settled, and Magnetic Cave in mid-game, so the
pictures follow the code.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from xvfb import ensure_display  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
OPENINGS = {"kalah": [2, 3, 0], "oware": [2, 3, 5, 0], "hus": [3, 5, 20]}
"""A few legal moves per game, so the pictures show play in progress (a move not legal is skipped)."""
CAVE_OPENING = ["A4", "H4", "B4", "H5", "A5", "G4", "A3", "H3", "C4", "A6", "B5", "H6", "B3", "G5", "C3", "G3"]
"""Magnetic Cave moves for its picture (Black, White, ...): bricks on both walls, a diagonal growing."""
CAVE_HOVER = "D4"


PUZZLE_LEVEL, PUZZLE_ROUNDS = "lewis-05", 9
"""The puzzle picture: this level after this many rounds of its solution."""


def main() -> int:
    ensure_display()
    import arcade

    import rules
    from game import app
    from game.session import Session
    from game.savegame import Seat

    window = arcade.Window(1280, 720, "StoneCave", antialiasing=False, vsync=False)
    window._enable_event_queue = False
    context = app.start(window, Path(tempfile.mkdtemp()))
    context.sounds.enabled = False

    def frames(count: int, dt: float = 1 / 60) -> None:
        for _ in range(count):
            window.dispatch_events()
            window._dispatch_updates(dt)
            window.dispatch_event("on_draw")
            window.flip()

    def shoot(name: str) -> None:
        window.dispatch_event("on_draw")
        image = arcade.get_image(0, 0, window.width, window.height)
        window.flip()
        OUT.mkdir(parents=True, exist_ok=True)
        image.convert("RGB").save(OUT / f"{name}.png", optimize=True)
        print(OUT / f"{name}.png")

    frames(90)
    shoot("title")
    context.show_settings()
    frames(3)
    shoot("settings")
    registered = {info.name for info in rules.list_games()}
    for name, moves in OPENINGS.items():
        if name not in registered:
            continue
        game = rules.get_game(name)
        context.show_match(Session.new(game, (Seat(), Seat("random", 1.0))))
        view = window.current_view
        view.match.seats = (Seat(), Seat())  # nobody thinks while the picture is taken
        for move in moves:
            if move in view.match.legal_moves:
                view.play(move)
                view.scene.finish()
        frames(120, 1 / 30)
        shoot(name)
    if "magnetic-cave" in registered:
        game = rules.get_game("magnetic-cave")
        context.show_match(Session.new(game, (Seat(), Seat())))
        view = window.current_view
        for text in CAVE_OPENING:
            view.play(game.parse_move(view.match.state, text))
            view.scene.finish()
        frames(3)
        x, y = view.scene.centre(game.parse_move(view.match.state, CAVE_HOVER))
        window.dispatch_event("on_mouse_motion", int(x), int(y), 0, 0)  # a legal cell glows under the mouse
        frames(30, 1 / 30)
        shoot("magnetic-cave")
    if "solitaire" in registered:
        from game.puzzle_session import Puzzle
        from game.views.puzzles import PuzzlesView
        from game.views.solitaire_view import SolitaireView
        from levels.solitaire import find_level

        context.show(PuzzlesView(context))
        frames(3)
        shoot("puzzles")
        level = find_level(PUZZLE_LEVEL)
        view = SolitaireView(context, Puzzle.from_level(level))
        context.show(view)
        for text in level.line[:PUZZLE_ROUNDS]:  # a game in progress, a hint on the board
            view.play(view.session.game.parse_move(view.session.state, text))
            view.scene.finish()
        view.hint()
        view.controller.searches.hint_worker.wait(10)
        frames(120, 1 / 30)
        shoot("puzzle")
        # Watching A* search (in its own process) with its live progress in the panel.
        import time

        view.controller.watch.spec = "astar:time=30"
        view.controller.toggle_watch()
        began = time.perf_counter()
        while time.perf_counter() - began < 2.5 and view.session.rounds == PUZZLE_ROUNDS:
            frames(1)
        view.controller.watch.toggle_pause()
        frames(30, 1 / 30)
        shoot("puzzle-watch")
        view.controller.watch.stop()
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
