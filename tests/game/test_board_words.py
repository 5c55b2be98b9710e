"""The sowing board says what a player needs: pit numbers as people count them (the keys play them), the sides'
names and who plays them, and Hus's divider between the sides."""
from __future__ import annotations

import arcade
import pytest

import rules
from game.savegame import Seat
from game.scenes.sowing_board import BoardSpec, layout, pit_number
from game.session import Session
from game.views.sowing_view import KEY_WAIT, SowingView
from tests import registered


def board(name: str):  # type: ignore[no-untyped-def]
    game = rules.get_game(name)
    spec = BoardSpec.of(game, game.initial_state())
    return spec, layout(spec, 0, 0, 1000, 500)


@pytest.mark.parametrize("name", registered.with_scene("sowing"))
def test_each_side_counts_its_pits_from_its_own_left_counter_clockwise(name):  # type: ignore[no-untyped-def]
    spec, lay = board(name)
    for player in (0, 1):
        pits = [spec.move_location(player, index) for index in range(spec.per_player)]
        assert [pit_number(spec, pit) for pit in pits] == list(range(1, spec.per_player + 1))
        # Seen from the owner's seat (North sits opposite, so its view is turned half a circle), pit 1 is the
        # leftmost of the owner's nearest row and the numbers run on counter-clockwise: rightwards along that row.
        sign = 1 if player == 0 else -1
        first_row = [pit for pit in pits if lay.places[pit].y == lay.places[pits[0]].y]
        xs = [sign * lay.places[pit].x for pit in first_row]
        assert xs == sorted(xs) and len(first_row) == spec.columns
        nearest = min(sign * lay.places[pit].y for pit in pits)
        assert sign * lay.places[pits[0]].y == nearest
        for pit in pits:  # each number is written on its owner's side of its pit, the count on the far side
            assert sign * (lay.numbers[pit][1] - lay.places[pit].y) < 0
            assert sign * (lay.badges[pit][1] - lay.places[pit].y) > 0
    if spec.has_stores:
        assert pit_number(spec, spec.store(0)) is None


def test_only_hus_has_a_divider_and_it_runs_between_the_sides():  # type: ignore[no-untyped-def]
    spec, lay = board("hus")
    assert lay.divider is not None
    south_top = max(lay.places[spec.move_location(0, i)].y for i in range(spec.per_player))
    north_bottom = min(lay.places[spec.move_location(1, i)].y for i in range(spec.per_player))
    assert south_top < lay.divider[2] < north_bottom
    assert board("kalah")[1].divider is None


def open_match(gui, name: str, seats) -> SowingView:  # type: ignore[no-untyped-def]
    gui.context.show_match(Session.new(rules.get_game(name), seats))
    gui.frame(2)
    view = gui.window.current_view
    assert isinstance(view, SowingView)
    gui.context.settings.set("skip_animations", True)
    return view


def drawn_number(view: SowingView, location: int) -> str:
    return view.scene._numbers[location].text


def test_the_sides_are_named_with_who_plays_them(gui):  # type: ignore[no-untyped-def]
    view = open_match(gui, "kalah", (Seat(), Seat("random", 1.0)))
    gui.frame()
    assert [text.text for text in view.scene._side_texts] == ["South (you)", "North (computer)"]
    assert drawn_number(view, view.spec.store(0)) == "South" and drawn_number(view, view.spec.store(1)) == "North"
    view = open_match(gui, "kalah", (Seat(), Seat()))
    gui.frame()
    assert [text.text for text in view.scene._side_texts] == ["South", "North"]


def test_digit_keys_play_the_pit_drawn_with_that_number_for_either_side(gui):  # type: ignore[no-untyped-def]
    view = open_match(gui, "kalah", (Seat(), Seat()))
    gui.key(arcade.key.KEY_2)
    assert view.match.moves == [1]
    assert drawn_number(view, view.spec.move_location(0, 1)) == "2"
    assert view.match.to_move == 1
    gui.key(arcade.key.NUM_1)  # North's pit 1 is North's own leftmost: the top row's right end on screen
    assert view.match.moves[-1] == 0 and drawn_number(view, view.spec.move_location(1, 0)) == "1"
    gui.key(arcade.key.KEY_8)
    assert "no pit 8" in view.notice and len(view.match.moves) == 2


def test_hus_takes_two_digit_pit_numbers_and_a_lone_digit_after_a_pause(gui):  # type: ignore[no-untyped-def]
    view = open_match(gui, "hus", (Seat(), Seat()))
    assert "10-32" in view.scene._caption_text.text  # the line under the board says how
    gui.key(arcade.key.KEY_1)
    assert view.match.moves == [] and "Pit 1" in view.scene._caption_text.text
    gui.key(arcade.key.KEY_7)
    assert view.match.moves == [16] and drawn_number(view, view.spec.move_location(0, 16)) == "17"
    gui.key(arcade.key.KEY_2)  # North: 2 may begin 20-29, so it waits ...
    assert len(view.match.moves) == 1
    gui.frames_until(lambda: len(view.match.moves) == 2, limit=int(KEY_WAIT * 60) + 30)
    assert view.match.moves[-1] == 1  # ... then plays pit 2
    gui.key(arcade.key.KEY_3)
    gui.key(arcade.key.ENTER)  # Enter plays the digits typed so far at once
    assert view.match.moves[-1] == 2
    gui.key(arcade.key.KEY_5)  # 5 cannot begin a two-digit pit number: played at once
    assert view.match.moves[-1] == 4


def test_right_arrow_steps_rightwards_on_the_screen_for_either_side(gui):  # type: ignore[no-untyped-def]
    view = open_match(gui, "kalah", (Seat(), Seat()))
    gui.key(arcade.key.KEY_1)  # South plays pit 1: North to move, whose pits run right to left on the screen
    assert view.match.to_move == 1
    xs = []
    for _ in range(len(view.match.legal_moves)):
        gui.key(arcade.key.RIGHT)
        xs.append(view.scene.layout.places[view._cursor_location()].x)
        assert view.scene.preview is not None and view.scene.preview.location == view._cursor_location()
    assert xs == sorted(xs) and len(set(xs)) == len(xs)
    gui.key(arcade.key.ENTER)
    assert view.match.moves[-1] == 0  # the rightmost on the screen is North's own pit 1


def test_a_waiting_digit_lapses_when_a_click_plays_instead(gui):  # type: ignore[no-untyped-def]
    view = open_match(gui, "hus", (Seat(), Seat()))
    gui.key(arcade.key.KEY_2)  # waits for a second digit ...
    place = view.scene.layout.places[view.spec.move_location(0, 4)]
    gui.click(place.x, place.y)  # ... but the player clicks pit 5
    assert view.match.moves == [4]
    for _ in range(int(KEY_WAIT * 60) + 10):
        gui.frame()
    assert view.match.moves == [4] and view.typed == ""


def test_a_pit_that_cannot_be_played_is_refused_in_the_boards_numbers(gui):  # type: ignore[no-untyped-def]
    view = open_match(gui, "kalah", (Seat(), Seat()))
    gui.key(arcade.key.KEY_3)  # pit 3's last seed lands in the store: South again, with pit 3 now empty
    assert view.match.to_move == 0
    gui.key(arcade.key.KEY_3)
    assert view.notice == "Pit 3 cannot be played now; you can play pits 1, 2, 4, 5, 6."
    assert view.match.moves == [2]


def test_the_line_under_the_board_is_quiet_in_a_replay(gui):  # type: ignore[no-untyped-def]
    view = open_match(gui, "kalah", (Seat(), Seat()))
    gui.key(arcade.key.KEY_1)
    gui.frame()
    assert view.scene._caption_text.text.startswith("Keys")
    view.replay()
    gui.frame()
    assert view.scene._caption_text.text == "" and view.scene.preview is None


@pytest.mark.parametrize("name", ["kalah", "hus"])
def test_a_drawn_number_leads_back_to_its_pit(name):  # type: ignore[no-untyped-def]
    from game.scenes.sowing_board import pit_location

    spec, _ = board(name)
    for location in range(spec.pit_count):
        assert pit_location(spec, spec.owner(location), pit_number(spec, location)) == location
    assert pit_location(spec, 0, 0) is None and pit_location(spec, 0, spec.per_player + 1) is None
