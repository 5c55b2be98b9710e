"""Every screen of the window, reached by name with a little content on it, for pictures and layout checks.

``open_screen(context, name)`` shows one screen as a player would meet it: the statistics with a few games
counted, the load list with a few saves, Settings with a chosen engine, each game a few moves in with nobody
thinking.  ``tools/screenshots.py`` photographs them and ``tests/game/test_gui_layout.py`` checks their
layout, both from this one list, so the pictures and the checks always show the same screens.
"""
from __future__ import annotations

from typing import Callable

import rules
from game.context import AppContext
from game.savegame import Seat
from game.session import Session

OPENINGS = {"kalah": [2, 3, 0], "oware": [2, 3, 5, 0], "hus": [3, 5, 20]}
"""A few legal moves per sowing game, so the pictures show play in progress (a move not legal is skipped)."""
CAVE_OPENING = ["A4", "H4", "B4", "H5", "A5", "G4", "A3", "H3", "C4", "A6", "B5", "H6", "B3", "G5", "C3", "G3"]
"""Magnetic Cave moves (Black, White, ...): bricks on both walls, a diagonal growing."""
ANALYSIS_PLIES = 14
"""The analysis screens' sowing games go on this many plies (the same simple choice each time: the first legal
move after the middle) so the evaluation graph has a game to show."""
REVIEW_PLIES = 400
"""The review screen's game: played to its end (the same simple choice each time)."""
PUZZLE_LEVEL, PUZZLE_ROUNDS = "lewis-05", 9
"""The puzzle screen: this level after this many rounds of its solution."""


def _settings(engine: str) -> Callable[[AppContext], None]:
    def show(context: AppContext) -> None:
        game = rules.get_game("kalah")
        context.settings.set_engine_choice(game, "opponent", engine)
        context.show_settings()

    return show


def _statistics(context: AppContext) -> None:
    from game.statistics import GameRecord

    assert context.statistics is not None
    context.statistics.ensure_loaded()
    context.statistics.records += [
        GameRecord("kalah", "computer", "pvs:time=0.5", "won", 31, "2026-11-20"),
        GameRecord("kalah", "computer", "pvs:time=2", "lost", 40, "2026-11-21"),
        GameRecord("oware", "computer", "mcts:time=1,c=1.4", "drawn", 88, "2026-11-21"),
        GameRecord("hus", "hot-seat", "hot-seat", "won", 52, "2026-11-22"),
        GameRecord("magnetic-cave", "watch", "greedy vs pvs:time=2.5", "lost", 23, "2026-11-22"),
    ]
    context.show_statistics()


def _title_with_resume(context: AppContext) -> None:
    """The title screen when games were left in progress: listed beside the menu, which stays where it was."""
    assert context.autosave is not None
    context.autosave.keep(_played("magnetic-cave", (Seat(), Seat("pvs:time=1", 1.0))).saved, False)
    context.autosave.keep(_played("kalah", (Seat(), Seat())).saved, False)
    context.show_title()


def _load(context: AppContext) -> None:
    from game.views.load_view import new_save_path

    assert context.save_dir is not None
    context.save_dir.mkdir(parents=True, exist_ok=True)
    for name, seats in (("kalah", (Seat(), Seat("pvs:time=0.5", 2.0))), ("oware", (Seat(), Seat())),
                        ("magnetic-cave", (Seat("pvs:time=1", 1.0), Seat()))):
        session = _played(name, seats)
        session.save(new_save_path(context.save_dir, name))
    context.show_load()


def _played(name: str, seats: tuple[Seat, ...], plies: int = 0) -> Session:
    game = rules.get_game(name)
    session = Session.new(game, seats)
    if name == "magnetic-cave":
        for text in CAVE_OPENING:
            session.play(game.parse_move(session.state, text))
    for move in OPENINGS.get(name, ()):
        if move in session.legal_moves:
            session.play(move)
    while len(session.moves) < plies and not session.is_over:
        legal = session.legal_moves
        session.play(legal[len(legal) // 2])
    return session


def _match(name: str) -> Callable[[AppContext], None]:
    def show(context: AppContext) -> None:
        session = _played(name, (Seat(), Seat()))
        context.show_match(session)

    return show


def _analysis(name: str) -> Callable[[AppContext], None]:
    """A game some moves in with the analysis panel shown (key A), searching the position on the board."""
    def show(context: AppContext) -> None:
        session = _played(name, (Seat(), Seat()), ANALYSIS_PLIES)
        context.show_match(session)
        context.window.current_view.toggle_analysis()  # type: ignore[union-attr]

    return show


def _review(context: AppContext) -> None:
    """The review of a finished Kalah game (a budget in plies: the same marks on every machine, at once)."""
    from game.review import Budget
    from game.views.review_view import open_review

    session = _played("kalah", (Seat(), Seat("pvs:time=0.5", 1.0)), REVIEW_PLIES)
    open_review(context, session.game, session.states, session.moves, title="Kalah", budget=Budget(depth=6))


def _puzzles(context: AppContext) -> None:
    from game.views.puzzles import PuzzlesView

    context.show(PuzzlesView(context))


def _puzzle(context: AppContext) -> None:
    from game.puzzle_session import Puzzle
    from game.views.solitaire_view import SolitaireView
    from levels.solitaire import find_level

    level = find_level(PUZZLE_LEVEL)
    view = SolitaireView(context, Puzzle.from_level(level))
    context.show(view)
    for text in level.line[:PUZZLE_ROUNDS]:
        view.play(view.session.game.parse_move(view.session.state, text))
        view.scene.finish()


def _tutorial(name: str) -> Callable[[AppContext], None]:
    def show(context: AppContext) -> None:
        from game.tutorial import tutorial
        from game.views.tutorial_view import TutorialView

        context.show(TutorialView(context, tutorial(name)))

    return show


SCREENS: dict[str, Callable[[AppContext], None]] = {
    "title": lambda context: context.show_title(),
    "title-resume": _title_with_resume,
    "play": lambda context: context.show_play(),
    "seats": lambda context: context.show_seats("kalah"),
    "settings": _settings("preset:Medium"),
    "settings-pvs": _settings("pvs"),
    "settings-mcts": _settings("mcts"),
    "statistics": _statistics,
    "load": _load,
    "rules": lambda context: context.show_rules("kalah"),
    "kalah": _match("kalah"),
    "oware": _match("oware"),
    "hus": _match("hus"),
    "magnetic-cave": _match("magnetic-cave"),
    "kalah-analysis": _analysis("kalah"),
    "hus-analysis": _analysis("hus"),
    "magnetic-cave-analysis": _analysis("magnetic-cave"),
    "review": _review,
    "puzzles": _puzzles,
    "puzzle": _puzzle,
    "learn": lambda context: context.show_learn(),
    "learn-kalah": _tutorial("kalah"),
    "learn-hus": _tutorial("hus"),
}
"""Every screen by name (the names of the pictures in docs/screenshots)."""


def open_screen(context: AppContext, name: str) -> None:
    """Show the screen called ``name`` (one of ``SCREENS``) on the context's window."""
    SCREENS[name](context)
