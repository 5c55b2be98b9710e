"""Puzzle mode: the Puzzles screen, levels played by simulated input, watching the computer, records, pictures.

Window tests drive the real window under Xvfb (see conftest.py); the records tests need no window.
"""
from __future__ import annotations

import random

import arcade
import pytest
import yaml

from ai import registry
from game import app
from game.records import PuzzleResult, RecordsStore, deal_key
from game.scenes.solitaire_board import counts, hole_location, visual_direction
from game.puzzle_session import Puzzle
from game.views.puzzles import PuzzlesView
from game.views.solitaire_view import SPEEDS, SolitaireView
from levels.solitaire import find_level, load_levels
from rules.solitaire import Solitaire
from test_gui_screens import hollow_mask, is_board_colour, regions


# -- records (no window) -------------------------------------------------------------------------------------
def test_records_keep_the_best_result_and_survive_a_new_store(tmp_path):  # type: ignore[no-untyped-def]
    store = RecordsStore(tmp_path)
    assert store.load() == [] and store.best("dose-01") is None
    assert store.record("dose-01", PuzzleResult(40, 150))
    assert not store.record("dose-01", PuzzleResult(39, 100))  # fewer stones: worse
    assert store.record("dose-01", PuzzleResult(40, 120))  # as many stones in fewer rounds: better
    assert store.record(deal_key("lewis", 7), PuzzleResult(48, 80, cleared=True))
    again = RecordsStore(tmp_path)
    assert again.load() == []
    assert again.best("dose-01") == PuzzleResult(40, 120)
    assert again.best("deal:lewis:7") == PuzzleResult(48, 80, cleared=True)
    assert not list(tmp_path.glob("*.tmp"))  # the atomic write left no temporary file behind


@pytest.mark.parametrize("text, expected", [
    ("version: 1\nresults: [1, 2\n", "could not be read"),
    ("version: 9\nresults: {}\n", "version"),
    ("version: 1\nresults:\n  dose-01: {stored: many, rounds: 3}\n", "results.dose-01.stored"),
])
def test_a_corrupt_records_file_is_set_aside_with_a_message(tmp_path, text, expected):  # type: ignore[no-untyped-def]
    (tmp_path / "puzzles.yaml").write_text(text)
    store = RecordsStore(tmp_path)
    problems = store.load()
    assert len(problems) == 1 and expected in problems[0] and "set aside" in problems[0]
    assert store.results == {}
    assert not (tmp_path / "puzzles.yaml").exists()
    aside = list(tmp_path.glob("puzzles.yaml.bad-*"))
    assert len(aside) == 1 and aside[0].read_text() == text
    assert store.record("dose-02", PuzzleResult(30, 90))  # and the records start afresh
    assert RecordsStore(tmp_path).load() == []


# -- helpers ----------------------------------------------------------------------------------------------------
def open_level(gui, level_id: str) -> SolitaireView:  # type: ignore[no-untyped-def]
    """Open a level the way a player does: Puzzles on the title screen, then a click on its row."""
    gui.press("Puzzles")
    view = gui.window.current_view
    assert isinstance(view, PuzzlesView)
    view.scroll_into_view(next(row for row in view.rows if row.level.id == level_id))  # the list may scroll
    row = next(row for row in view.rows if row.level.id == level_id)
    gui.click(*row.centre)
    puzzle_view = gui.window.current_view
    assert isinstance(puzzle_view, SolitaireView) and puzzle_view.session.puzzle.key == level_id
    gui.context.settings.set("animation_speed", 4.0)
    puzzle_view.controller.speed_index = len(SPEEDS) - 1
    return puzzle_view


def hole_centre(view: SolitaireView, hole: int) -> tuple[float, float]:
    place = view.scene.layout.places[hole_location(hole)]
    return place.x, place.y


def play_by_input(gui, view: SolitaireView, text: str, use_button: bool = False) -> None:  # type: ignore[no-untyped-def]
    """Play the round ``text`` (as the level file writes it) by clicks and keys only, then step one frame."""
    window = gui.window
    move = view.session.game.parse_move(view.session.state, text)

    def key(symbol: int) -> None:
        window.dispatch_event("on_key_press", symbol, 0)
        window.dispatch_event("on_key_release", symbol, 0)

    if move.hole is not None:
        x, y = hole_centre(view, move.hole - 1)
        window.dispatch_event("on_mouse_press", int(x), int(y), arcade.MOUSE_BUTTON_LEFT, 0)
        window.dispatch_event("on_mouse_release", int(x), int(y), arcade.MOUSE_BUTTON_LEFT, 0)
        assert view.controller.chosen == move.hole - 1
    start = view.controller.start_hole()
    assert start is not None
    if use_button:
        gui.press("Clockwise" if move.direction == "cw" else "Anti-clockwise")
    else:
        key(arcade.key.RIGHT if visual_direction(start, True) == move.direction else arcade.key.LEFT)
    if view.controller.asking is not None:
        key(arcade.key.S if move.set_aside else arcade.key.K)
    else:
        assert not move.set_aside
    gui.frame()


def finish_frames(gui, view: SolitaireView) -> None:  # type: ignore[no-untyped-def]
    gui.frames_until(lambda: view._overlay is not None, limit=600, dt=0.05)


# -- the screens ----------------------------------------------------------------------------------------------
def test_the_puzzles_screen_lists_the_levels_by_variant_and_difficulty(gui, tmp_path):  # type: ignore[no-untyped-def]
    gui.press("Puzzles")
    view = gui.window.current_view
    assert isinstance(view, PuzzlesView)
    levels, problems = load_levels()
    assert not problems
    assert [row.level.id for row in view.rows] == [level.id for level in levels]
    # One column per set: the winnable (lewis) rows left of every dose row, easiest at the top.
    dose = [row for row in view.rows if row.level.variant == "dose"]
    lewis = [row for row in view.rows if row.level.variant == "lewis"]
    assert dose and lewis and max(r.rect[0] for r in lewis) < min(r.rect[0] for r in dose)
    assert all(a.rect[1] > b.rect[1] for a, b in zip(dose, dose[1:]))
    texts = [text.text for text in view._texts]
    for heading in ("Easy: ", "Medium: ", "Hard: "):
        assert sum(text.startswith(heading) and text.endswith(" rounds") for text in texts) == 2
    assert "Clear the board" in texts and "Store the most" in texts
    assert texts.count("not played yet") == len(levels)
    strongest = registry.presets(Solitaire())["Strongest"]
    assert strongest not in view._engine_text.text and "Watch" in view._engine_text.text  # what they do, in words
    image = gui.screenshot(tmp_path / "puzzles.png")
    assert len(image.convert("RGB").getcolors(1 << 20) or ()) > 30


def test_a_lewis_level_played_to_its_end_by_clicks_and_keys_is_recorded(gui):  # type: ignore[no-untyped-def]
    level = find_level("lewis-01")
    view = open_level(gui, level.id)
    assert view.session.game.is_lewis
    game, state = Solitaire(variant="lewis"), Solitaire(variant="lewis").deal(level.holes)
    asides = 0
    for number, text in enumerate(level.line):
        move = game.parse_move(state, text)
        state = game.apply(state, move)
        asides += move.set_aside
        play_by_input(gui, view, text, use_button=number % 7 == 3)
        assert view.session.state == state, f"round {number + 1} ({text}) did not end where the rules do"
    assert asides > 0  # the level asks the set-aside question and it was answered by key
    finish_frames(gui, view)
    assert view.scene.counts == counts(state)
    verdict = view.session.verdict()
    assert verdict.won and verdict.perfect and "Won" in verdict.headline
    assert "first result" in view.controller.record_line
    saved = yaml.safe_load((gui.config_dir / "puzzles.yaml").read_text())
    assert saved["results"]["lewis-01"] == {"stored": 48, "rounds": level.length, "cleared": True}
    # A restart of the application reads it back: the Puzzles screen shows the result on the level's row.
    gui.context = app.start(gui.window, gui.config_dir)
    gui.frame(2)
    gui.press("Puzzles")
    puzzles = gui.window.current_view
    assert isinstance(puzzles, PuzzlesView)
    assert puzzles.records.best("lewis-01") == PuzzleResult(48, level.length, cleared=True)
    assert f"cleared in {level.length} rounds" in [text.text for text in puzzles._texts]


def test_a_dose_level_says_it_cannot_be_cleared_and_celebrates_par(gui):  # type: ignore[no-untyped-def]
    level = find_level("dose-01")
    view = open_level(gui, level.id)
    assert "No deal can be cleared" in view._rules_text.text and "46 is a perfect game" in view._rules_text.text
    # Most of the solution straight into the session (the rules are tested elsewhere), the last rounds by keys.
    for text in level.line[:-6]:
        view.session.play(view.session.game.parse_move(view.session.state, text))
    view.scene.show(counts(view.session.state))
    assert not view.session.is_over and view.session.state.stored < 46
    for text in level.line[-6:]:
        play_by_input(gui, view, text)
    finish_frames(gui, view)
    verdict = view.session.verdict()
    assert view.session.state.stored == 46 and verdict.perfect and verdict.won is None
    assert "Perfect game" in verdict.headline and "no deal can be cleared" in verdict.detail
    assert any("Perfect" in text for text, _ in view.toasts)
    assert view.controller.records.best("dose-01") == PuzzleResult(46, level.length)


def test_ending_a_dose_game_early_reports_the_score_against_par(gui):  # type: ignore[no-untyped-def]
    view = open_level(gui, "dose-02")
    for text in find_level("dose-02").line[:12]:
        play_by_input(gui, view, text)
    stored = view.session.state.stored
    gui.press("End here")
    finish_frames(gui, view)
    verdict = view.session.verdict()
    assert verdict.headline == f"{stored} stored, par 46" and not verdict.perfect
    gui.press("Undo")  # the decision to end is taken back, the game goes on
    assert view._overlay is None and not view.session.is_over


def test_hint_shows_the_engines_next_round_and_its_reason(gui):  # type: ignore[no-untyped-def]
    view = open_level(gui, "lewis-02")
    gui.press("Hint")
    gui.frames_until(lambda: view.controller.hint_move is not None, limit=600)
    assert view.controller.hint_move in view.session.legal_moves
    move = view.controller.hint_move  # in words, the hole numbered as on the board
    start = view.controller.start_hole() if move.hole is None else move.hole - 1
    assert f"Sow hole {start + 1} to the " in view.controller.hint_text
    assert "the board is clear in" in view.controller.hint_text
    # The hint's start hole glows in the hint's blue (theme.HINT): its rim turns bluer than without the hint.
    start = view.controller.start_hole() if view.controller.hint_move.hole is None else view.controller.hint_move.hole - 1
    x, y = hole_centre(view, start)
    radius = view.scene.layout.pit_radius

    def rim_blue() -> float:
        rgb = gui.screenshot().convert("RGB")
        pixels = [rgb.getpixel((int(x + dx * radius * 1.04), 719 - int(y))) for dx in (-1, 1)]
        return sum(b - (r + g) / 2 for r, g, b in pixels)

    with_hint = rim_blue()
    hint, view.controller.hint_move = view.controller.hint_move, None
    without = rim_blue()
    view.controller.hint_move = hint
    assert with_hint > without + 40, (with_hint, without)


def test_watching_the_computer_ends_on_the_engines_solution(gui):  # type: ignore[no-untyped-def]
    level = find_level("lewis-03")
    view = open_level(gui, level.id)
    for text in level.line[:-14]:  # the player's rounds (straight into the session), then the computer's
        view.session.play(view.session.game.parse_move(view.session.state, text))
    view.scene.show(counts(view.session.state))
    watched_from = view.session.state
    gui.press("Watch")
    assert view.controller.watch.active
    gui.frames_until(lambda: bool(view.controller.watch.line), limit=600)
    start, line = view.controller.watch.line
    assert line and start == watched_from
    gui.frames_until(lambda: view.session.rounds > len(level.line) - 14, limit=600, dt=0.05)
    gui.press("Pause")
    rounds = view.session.rounds
    gui.frame(20, dt=0.1)
    assert view.session.rounds == rounds  # paused: no round is played
    gui.press("Resume")
    gui.frames_until(lambda: not view.controller.watch.active, limit=2000, dt=0.05)
    expected = start
    for move in line:
        expected = view.session.game.apply(expected, move)
    assert view.session.state == expected and view.session.is_over
    assert view.session.verdict().won
    finish_frames(gui, view)
    assert "Not recorded" in view.controller.record_line and view.controller.records.best(level.id) is None
    assert view.scene.counts == counts(expected)


def test_the_search_shows_its_progress_and_stop_cancels_it(gui):  # type: ignore[no-untyped-def]
    settings = gui.context.settings
    game = Solitaire()
    settings.engine_choices["solitaire"] = {"watch": "astar:time=30"}  # a search far too long to finish here
    gui.context.show(SolitaireView(gui.context, Puzzle.from_seed("dose", 11)))
    view = gui.window.current_view
    assert view.controller.watch_spec == "astar:time=30" and view.controller.hint_spec == registry.presets(game)["Strongest"]
    assert game.name == "solitaire"
    gui.press("Watch")
    gui.frames_until(lambda: "stored so far" in view.controller.watch.text, limit=900)
    assert "states" not in view.controller.watch.text and "not proven" in view.controller.watch.text
    worker = view.controller.searches.watch_worker
    gui.press("Stop")
    assert worker.token.is_cancelled and view.controller.searches.watch_worker is None and not view.controller.watch.active
    assert view.session.rounds == 0


def test_a_screenshot_of_the_puzzle_board_shows_12_holes_2_stores_and_every_stone(gui, tmp_path):  # type: ignore[no-untyped-def]
    gui.context.show(SolitaireView(gui.context, Puzzle.from_seed("lewis", 4)))
    view = gui.window.current_view
    rng = random.Random(3)
    for _ in range(4):
        if view.session.is_over:
            break
        move = rng.choice(view.session.legal_moves)
        view.play(move)
        view.scene.finish()
    gui.frame(30, dt=0.05)
    image = gui.screenshot(tmp_path / "puzzle.png")
    assert image.size == (1280, 720)
    assert len(image.convert("RGB").getcolors(1 << 20) or ()) > 500, "the picture is nearly blank"
    assert regions(hollow_mask(image)[::2, ::2], minimum=40) == 14
    stones = view.scene.field.stones
    assert len(stones) == 48 and view.scene.counts == counts(view.session.state)
    rgb = image.convert("RGB")
    hidden = [s for s in stones if is_board_colour(rgb.getpixel((int(s.x), image.height - 1 - int(s.y))))]
    assert len(hidden) <= len(stones) // 20, f"{len(hidden)} of {len(stones)} stones not visible"


def test_random_clicks_and_keys_on_the_puzzle_screens_never_raise(gui):  # type: ignore[no-untyped-def]
    gui.context.quit = lambda: None
    rng = random.Random(12)
    keys = [arcade.key.LEFT, arcade.key.RIGHT, arcade.key.UP, arcade.key.DOWN, arcade.key.S, arcade.key.K,
            arcade.key.H, arcade.key.W, arcade.key.P, arcade.key.U, arcade.key.E, arcade.key.ENTER,
            arcade.key.SPACE, arcade.key.PLUS, arcade.key.MINUS, arcade.key.C, arcade.key.A, arcade.key.R,
            arcade.key.L, arcade.key.F1, arcade.key.ESCAPE]
    window = gui.window
    for variant in ("lewis", "dose"):
        gui.context.show(SolitaireView(gui.context, Puzzle.from_seed(variant, rng.randrange(1000))))
        for _ in range(8):
            for _ in range(15):
                x, y = rng.randrange(window.width), rng.randrange(window.height)
                if rng.random() < 0.6:
                    window.dispatch_event("on_mouse_motion", x, y, 0, 0)
                    window.dispatch_event("on_mouse_press", x, y, arcade.MOUSE_BUTTON_LEFT, 0)
                    window.dispatch_event("on_mouse_release", x, y, arcade.MOUSE_BUTTON_LEFT, 0)
                else:
                    symbol = rng.choice(keys)
                    window.dispatch_event("on_key_press", symbol, 0)
                    window.dispatch_event("on_key_release", symbol, 0)
            gui.frame(dt=rng.choice((1 / 60, 0.05, 0.2)))
        view = window.current_view
        if isinstance(view, SolitaireView):
            view.scene.finish()
            assert view.scene.counts == counts(view.session.state)
