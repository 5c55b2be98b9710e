"""Window tests of the sowing scene: whole games by clicks, the computer in its thread, animation and truth.

Every test drives the real window; "frames" are stepped by hand (see conftest.Gui) so nothing depends on the
machine's speed except how many frames the computer's thread needs, which is bounded generously.
"""
from __future__ import annotations

import arcade
import pytest

import rules
from game.session import Session
from game.savegame import Seat
from game.views.sowing_view import SPEEDS, SowingView
from game.views.title import TitleView
from tests import registered


def open_match(gui, game_name: str, seats: tuple[Seat, Seat], **parameters) -> SowingView:  # type: ignore[no-untyped-def]
    game = rules.get_game(game_name, **parameters)
    gui.context.show_match(Session.new(game, seats))
    gui.frame(2)
    view = gui.window.current_view
    assert isinstance(view, SowingView)
    fast(gui, view)
    return view


def fast(gui, view: SowingView) -> None:  # type: ignore[no-untyped-def]
    """The fastest animation the settings and the Speed button allow (32x): stones still fly and settle."""
    gui.context.settings.set("animation_speed", 4.0)
    view.controller.speed_index = len(SPEEDS) - 1
    view._apply_speed()


def click_move(gui, view: SowingView, move) -> None:  # type: ignore[no-untyped-def]
    location = view.spec.move_location(view.match.to_move, move)
    place = view.scene.layout.places[location]
    gui.click(place.x, place.y)


def assert_stones_match_the_rules(view: SowingView) -> None:
    view.scene.finish()
    assert view.scene.counts == view.spec.counts(view.match.state)
    for stone in view.scene.field.stones:
        assert stone.flight is None


def test_a_whole_kalah_game_by_clicks_against_the_computer(gui):  # type: ignore[no-untyped-def]
    gui.press("Play")
    gui.press("Kalah")
    gui.press("Start")  # default seats: South human, North the Settings' opponent engine
    view = gui.window.current_view
    assert isinstance(view, SowingView)
    assert view.match.seats[0].is_human and not view.match.seats[1].is_human
    view.match.seats = (Seat(), Seat(view.match.seats[1].engine, 0.2))  # keep the computer quick
    fast(gui, view)
    clicks = computer_moves = 0
    while not view.match.is_over:
        if view.match.is_human_turn:
            # Always the highest legal pit, clicked at its centre: usually mid-animation of the last move.
            moves_before = len(view.match.moves)
            click_move(gui, view, view.match.legal_moves[-1])
            assert len(view.match.moves) == moves_before + 1
            clicks += 1
        else:
            before = len(view.match.moves)
            gui.frames_until(lambda: len(view.match.moves) > before or view.match.is_over, limit=900, dt=0.05)
            computer_moves += 1
        assert clicks < 200
    assert clicks > 3 and computer_moves > 3
    gui.frames_until(lambda: view._overlay is not None, limit=900, dt=0.05)
    outcome = view.match.outcome
    assert sum(outcome.scores) == 48
    assert view.scene.counts == view.spec.counts(view.match.state)
    # The game-over panel offers a replay, which animates every move again and ends on the final position.
    gui.press("Replay")
    assert view.controller.replay_index is not None
    gui.key(arcade.key.SPACE)  # finishes the replayed move at once; the replay goes on
    assert view.controller.replay_index is not None
    gui.frames_until(lambda: view.controller.replay_index is None, limit=3000, dt=0.05)
    assert view.scene.counts == view.spec.counts(view.match.state)


def test_undo_during_the_computers_search_cancels_it_at_once(gui):  # type: ignore[no-untyped-def]
    view = open_match(gui, "kalah", (Seat(), Seat("alphabeta:depth=30", 30.0)))
    click_move(gui, view, 0)  # South: 4 seeds from pit 0, no extra turn: North (computer) to move
    gui.frames_until(lambda: view.controller.worker is not None, limit=400)
    worker = view.controller.worker
    gui.press("Undo")
    assert worker.token.is_cancelled
    assert view.controller.worker is None and view.match.moves == [] and view.match.is_human_turn
    assert_stones_match_the_rules(view)


@pytest.mark.parametrize("game_name", registered.with_scene("sowing"))
def test_moves_animate_and_end_on_the_rules_position(gui, game_name):  # type: ignore[no-untyped-def]
    if game_name not in [info.name for info in rules.list_games()]:
        pytest.fail(f"{game_name} is not registered")
    view = open_match(gui, game_name, (Seat(), Seat()))
    import random

    rng = random.Random(5)
    for _ in range(5):
        if view.match.is_over:
            break
        move = rng.choice(view.match.legal_moves)
        click_move(gui, view, move)
        assert view.scene.is_animating
        gui.frames_until(lambda: not view.scene.is_animating, limit=3000, dt=0.05)
        assert view.scene.counts == view.spec.counts(view.match.state)
    # Undo all the way back restores the start.
    while view.match.can_undo():
        gui.press("Undo")
    assert view.scene.counts == view.spec.counts(view.match.game.initial_state())


def test_hint_shows_a_legal_pit(gui):  # type: ignore[no-untyped-def]
    view = open_match(gui, "kalah", (Seat(), Seat("random", 1.0)))
    gui.context.settings.set("think_time", 0.25)
    gui.press("Hint")
    gui.frames_until(lambda: view.hint_location is not None, limit=900)
    assert view.hint_location in view.legal_locations()
    assert f"pit {view.controller.hint_move + 1}" in view.controller.hint_text.lower()  # numbered as on the board


def test_computer_against_computer_with_pause_and_speed(gui):  # type: ignore[no-untyped-def]
    view = open_match(gui, "kalah", (Seat("random", 0.1), Seat("random", 0.1)))
    assert view.watching and "Pause" in view._buttons
    gui.frames_until(lambda: len(view.match.moves) >= 3, limit=1500, dt=0.05)
    gui.press("Pause")
    assert view.controller.paused
    frozen = len(view.match.moves)
    gui.frame(20, dt=0.1)
    assert len(view.match.moves) == frozen
    gui.press("Speed")  # from the fastest back round to the slowest
    assert view.scene.speed == pytest.approx(SPEEDS[0] * gui.context.settings.get("animation_speed"))
    gui.press("Resume")
    gui.frames_until(lambda: len(view.match.moves) > frozen, limit=1500, dt=0.05)
    gui.key(arcade.key.ESCAPE)
    assert isinstance(gui.window.current_view, TitleView)
    assert view.controller.worker is None


def test_clicks_that_cannot_play_say_why(gui):  # type: ignore[no-untyped-def]
    view = open_match(gui, "kalah", (Seat(), Seat()))
    north_pit = view.scene.layout.places[view.spec.move_location(1, 0)]
    gui.click(north_pit.x, north_pit.y)
    assert "North's" in view.notice and view.match.moves == []
    store = view.scene.layout.places[view.spec.store(0)]
    gui.click(store.x, store.y)
    assert "Stores cannot be sown" in view.notice and view.match.moves == []
