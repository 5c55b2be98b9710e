"""No engine words on a player's screen (issue 30): every screen is walked in a real window (under Xvfb) and its
texts read (``tests/game/player_screens.py``: every widget, label and panel text the view holds, and tesseract's
reading of a screenshot of each game screen as a backstop), failing on an engine spec, plies, nodes, positions
per second, poll, eval, packed-dfs, a search depth, state counts or the compiled core.

The screens come from the registries, not a hand-made list: every registered game (``tests/registered.py``) with
its analysis panel open and a hint shown after the computer has moved, its game-over panel and a Review; every
puzzle with its hint and Watch; the settings for every game, role and engine choice the settings schema and the engine registry
offer; the title, menus, seat setup of each game, load, statistics, each game's rules page and each tutorial.
With the Details setting on, the engine's figures come back on the analysis panel and the computer panel.
"""
from __future__ import annotations

import random
import shutil
from concurrent.futures import Future, ThreadPoolExecutor

import arcade
import pytest

import rules
from ai import registry
from game import catalogue
from game.savegame import Seat
from game.session import Session
from game.settings import PRESET_PREFIX
from tests import registered
from tests.game.player_screens import OCR_WORDS, engine_words, ocr, view_texts

TWO_PLAYER = registered.two_player()
PUZZLES = registered.with_scene("puzzle")
VARIANTS = ("dose", "lewis")
"""Solitaire Mancala's deals (``game.puzzle_session.Puzzle.from_seed``)."""


class OcrReadings:
    """Tesseract's readings of the screenshots, each read on a thread of its own while the walk goes on (the
    screenshot is taken on the window's thread; tesseract, about a second a screenshot, runs beside it)."""

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(max_workers=1)
        self.pending: list[Future[str]] = []

    def read(self, image, folder, name: str) -> None:  # type: ignore[no-untyped-def]
        self.pending.append(self.pool.submit(ocr, image, folder, name))

    def texts(self) -> list[str]:
        """Every reading (waits for those still running)."""
        self.pool.shutdown(wait=True)
        return [future.result() for future in self.pending]


def collect(gui, frames: int = 1) -> list[str]:  # type: ignore[no-untyped-def]
    gui.frame(frames)
    return view_texts(gui.window.current_view)


def watch_texts(gui, until, limit: int = 900) -> list[str]:  # type: ignore[no-untyped-def]
    """The screen's texts every few frames until ``until()`` holds: what passes while a search runs counts too."""
    texts: list[str] = []
    for count in range(limit):
        if count % 6 == 0:
            texts += view_texts(gui.window.current_view)
        if until():
            break
        gui.frame()
    texts += collect(gui)
    return texts


def play_a_game(gui, name: str, tmp_path, ocr_texts: OcrReadings) -> list[str]:  # type: ignore[no-untyped-def]
    """A game of ``name`` against its Hard level (the computer moves first), the analysis panel open, a hint."""
    game = rules.get_game(name)
    gui.context.settings.set("think_time", 0.5)
    hard = registry.presets(game).get("Hard") or next(iter(registry.presets(game).values()))
    match = Session.new(game, (Seat(hard, 0.5), Seat()))
    gui.context.show_match(match)
    view = gui.window.current_view
    view.analysis.feed.seconds, view.analysis.feed.quick_seconds = 1.0, 0.05
    gui.key(arcade.key.A)  # the analysis panel
    texts = watch_texts(gui, lambda: len(view.match.moves) >= 1 and view.controller.worker is None
                        and not view.scene.is_animating and view.match.is_human_turn, limit=1500)
    texts += watch_texts(gui, lambda: view.analysis.feed.snapshot is not None and view.analysis.feed.snapshot.depth >= 2,
                         limit=600)
    gui.press("Hint")
    texts += watch_texts(gui, lambda: view.controller.hint_text.startswith("Hint: ")
                         and "thinking" not in view.controller.hint_text, limit=3000)
    assert view.controller.hint_text.startswith("Hint: ") and "thinking" not in view.controller.hint_text
    if shutil.which("tesseract"):
        ocr_texts.read(gui.screenshot(tmp_path / f"{name}.png"), tmp_path, name)
    view.cancel_search()
    return texts


def a_game_over(gui, name: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The game-over panel of a random game of ``name`` against the computer, its last move played on screen."""
    game = rules.get_game(name)
    match = Session.new(game, (Seat(), Seat()))
    rng = random.Random(5)
    while not match.is_over:
        match.play(rng.choice(match.legal_moves))
    match.undo()
    gui.context.show_match(match)
    view = gui.window.current_view
    view.play(match.next_redo)
    gui.updates_until(lambda: view.game_over_shown, limit=1500)  # the move lands, then the panel: its words count
    texts = collect(gui, 2)
    view.cancel_search()
    return texts


def review_texts(gui, name: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The Review of the first moves of a random game of ``name``, while it runs and once it has finished."""
    from game.review import Budget
    from game.views.review_view import ReviewView

    game = rules.get_game(name)
    match = Session.new(game, (Seat(), Seat()))
    rng = random.Random(7)
    while not match.is_over and len(match.moves) < 10:
        match.play(rng.choice(match.legal_moves))
    view = ReviewView(gui.context, game, match.states, match.moves, budget=Budget(depth=2))
    gui.context.show(view)
    texts = watch_texts(gui, lambda: view.progress.finished, limit=3000)
    view.cancel_search()
    return texts


def puzzle_texts(gui, variant: str, tmp_path, ocr_texts: OcrReadings) -> list[str]:  # type: ignore[no-untyped-def]
    """A deal of Solitaire Mancala's ``variant`` with its hint and Watch."""
    name = f"solitaire-{variant}"
    from game.puzzle_session import Puzzle
    from game.views.solitaire_view import SolitaireView

    gui.context.show(SolitaireView(gui.context, Puzzle.from_seed(variant, 11)))
    view = gui.window.current_view
    texts = collect(gui, 2)
    gui.press("Hint")
    texts += watch_texts(gui, lambda: view.controller.hint_text.startswith("Hint: ")
                         and "thinking" not in view.controller.hint_text, limit=1500)
    gui.press("Watch")
    texts += watch_texts(gui, lambda: "proven" in view.controller.watch.text, limit=900)
    if shutil.which("tesseract"):
        ocr_texts.read(gui.screenshot(tmp_path / f"{name}.png"), tmp_path, name)
    view.cancel_search()
    return texts


def settings_texts(gui) -> list[str]:  # type: ignore[no-untyped-def]
    """Every row of Settings (scrolled or not) for every game, role and engine choice it offers."""
    from game.views.settings_view import SettingsView

    gui.context.show_settings()
    gui.frame(2)
    view = gui.window.current_view
    assert isinstance(view, SettingsView)
    settings = gui.context.settings
    texts = collect(gui)
    # The general rows (display, sound...) read only the plain settings, which the walk below never changes:
    # read once.  The engine rows and the "Saved" line depend on the game, role and choice: read for each.
    texts += [text for row in view._general_rows(600) for text in view_texts(row)]
    for entry in catalogue.games():
        if not entry.available:
            continue
        game = rules.get_game(entry.name)
        view.game_name = entry.name
        choices = [PRESET_PREFIX + level for level in registry.presets(game)] + \
            [info.name for info in registry.engines(game)]
        for role, _ in settings.schema.engines_item.roles:
            view.role = role
            for choice in choices if role == "opponent" else choices[:1]:
                settings.set_engine_choice(game, role, choice)
                for row in view._engine_rows(600):
                    texts += view_texts(row)
                view._store_engine(choice)  # the "Saved: ..." line
                texts.append(view._message.text)
    return texts


def menu_texts(gui) -> list[str]:  # type: ignore[no-untyped-def]
    from game.tutorial import TUTORIALS
    from game.views.rules_view import pages
    from game.views.tutorial_view import TutorialView

    context = gui.context
    texts = []
    for show in (context.show_title, context.show_play, context.show_learn, context.show_load, context.show_puzzles,
                 context.show_statistics):
        show()
        texts += collect(gui, 2)
    for name in TWO_PLAYER:
        context.show_seats(name)
        texts += collect(gui, 2)
    for page in pages():
        context.show_rules(page.name)
        texts += collect(gui, 2)
    for tutorial in TUTORIALS:
        context.show(TutorialView(context, tutorial))
        texts += collect(gui, 2)
    return texts


def test_no_engine_words_on_any_player_screen(gui, tmp_path):  # type: ignore[no-untyped-def]
    assert not gui.context.settings.values.get("details", False), "Details is off by default"
    ocr_texts = OcrReadings()
    texts = menu_texts(gui) + settings_texts(gui)
    for name in TWO_PLAYER:
        texts += play_a_game(gui, name, tmp_path, ocr_texts)
        texts += a_game_over(gui, name)
        texts += review_texts(gui, name)
    for variant in VARIANTS if PUZZLES else ():
        texts += puzzle_texts(gui, variant, tmp_path, ocr_texts)
    assert len(texts) > 200, "the walk read the screens"
    found = sorted(set(engine_words(texts)))
    read = [f"OCR {name}: {line.strip()!r}" for reading in ocr_texts.texts() for line in reading.splitlines()
            for name, pattern in OCR_WORDS.items() if pattern.search(line)]
    assert not found + read, "engine words on a player's screen:\n" + "\n".join(found + read)


def test_details_bring_the_engines_figures_back(gui):  # type: ignore[no-untyped-def]
    game = rules.get_game("kalah")
    gui.context.show_match(Session.new(game, (Seat("pvs:time=0.5", 0.5), Seat())))
    view = gui.window.current_view
    view.analysis.feed.seconds, view.analysis.feed.quick_seconds = 1.0, 0.05
    gui.key(arcade.key.F3)  # the Details switch on a game screen
    assert gui.context.settings.get("details") and view.notice.startswith("Details")
    gui.key(arcade.key.A)
    texts = watch_texts(gui, lambda: len(view.match.moves) >= 1 and view.controller.worker is None
                        and view.analysis.feed.snapshot is not None and view.analysis.feed.snapshot.depth >= 2,
                        limit=1500)
    view.cancel_search()
    gui.context.settings.set("details", False)
    kinds = {line.split(":")[0] for line in engine_words(texts)}
    assert {"plies", "positions/s"} <= kinds, kinds
