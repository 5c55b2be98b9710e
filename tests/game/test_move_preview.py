"""The move preview: before a pit is played the board shows what the rules say it would do."""
from __future__ import annotations

import random

import pytest

import rules
from game.savegame import Seat
from game.scenes.sowing_board import BoardSpec, preview_move
from game.session import Session
from game.views.sowing_view import SowingView


def positions(name: str, count: int, seed: int = 3):  # type: ignore[no-untyped-def]
    """Positions met along random games (the start included)."""
    game = rules.get_game(name)
    rng = random.Random(seed)
    state, found = game.initial_state(), []
    while len(found) < count:
        found.append(state)
        if game.is_terminal(state):
            state = game.initial_state()
            continue
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    return game, found


@pytest.mark.parametrize("name", ["kalah", "oware"])
def test_seeds_received_and_captured_account_for_the_rules_result(name):  # type: ignore[no-untyped-def]
    game, states = positions(name, 60)
    captures = 0
    for state in states:
        spec = BoardSpec.of(game, state)
        for move in game.legal_moves(state):
            preview = preview_move(game, state, move, spec)
            before, after = spec.counts(state), spec.counts(game.apply(state, move))
            if game.is_terminal(game.apply(state, move)):
                continue  # the seeds left on the board go to their owners: not the move's own doing
            for location in spec.locations:
                expected = before[location] + preview.receives.get(location, 0) - preview.captured.get(location, 0)
                if location == preview.location:
                    expected -= before[location]
                assert after[location] == expected, (game.to_text(state), move, location)
            captures += bool(preview.captured)
    assert captures > 0  # the positions include captures, so the captured marks were checked too


def test_kalah_preview_names_the_last_seed_and_the_extra_turn():  # type: ignore[no-untyped-def]
    game = rules.get_game("kalah")
    state = game.initial_state()
    spec = BoardSpec.of(game, state)
    preview = preview_move(game, state, 2, spec)  # pit 3: four seeds, the last in the store
    assert preview.receives == {3: 1, 4: 1, 5: 1, spec.store(0): 1}
    assert preview.last == spec.store(0)
    assert preview.caption == "Pit 3: last seed in your store, play again"
    preview = preview_move(game, state, 5, spec)  # pit 6: on into North's pits
    assert preview.caption == "Pit 6: last seed in North's pit 3"
    lone = game.from_text("pits=0,1,0,0,0,0/4,4,4,4,4,4 stores=0,0 move=S")
    preview = preview_move(game, lone, 1, spec)  # the last seed lands in empty pit 3, opposite North's pit 4
    assert preview.captured == {2: 1, spec.move_location(1, 3): 4}
    assert preview.receives == {2: 1, spec.store(0): 5}  # the store shows what the capture brings
    assert "captures 5" in preview.caption


def test_hus_preview_follows_every_lap_to_the_end():  # type: ignore[no-untyped-def]
    game, states = positions("hus", 12)
    for state in states:
        spec = BoardSpec.of(game, state)
        for move in game.legal_moves(state):
            report = game.report(state, move)
            preview = preview_move(game, state, move, spec)
            assert sum(preview.receives.values()) == sum(lap.seeds for lap in report.laps)
            assert preview.last == spec.move_location(report.laps[-1].end.owner, report.laps[-1].end.index)
            assert sum(preview.captured.values()) == report.captured
            if report.lap_count > 1:
                assert f"{report.lap_count} laps" in preview.caption


def test_hovering_a_legal_pit_shows_its_preview_and_the_caption(gui):  # type: ignore[no-untyped-def]
    gui.context.show_match(Session.new(rules.get_game("kalah"), (Seat(), Seat())))
    gui.frame(2)
    view = gui.window.current_view
    assert isinstance(view, SowingView)
    place = view.scene.layout.places[view.spec.move_location(0, 2)]
    gui.move(place.x, place.y)
    gui.frame()
    assert view.scene.preview is not None and view.scene.preview.last == view.spec.store(0)
    assert view.scene._caption_text.text == "Pit 3: last seed in your store, play again"
    assert set(view.scene._preview_texts) == {3, 4, 5, view.spec.store(0)}
    assert all(text.text == "+1" for text in view.scene._preview_texts.values())
    north = view.scene.layout.places[view.spec.move_location(1, 0)]  # not the mover's: no preview
    gui.move(north.x, north.y)
    gui.frame()
    assert view.scene.preview is None and view.scene._caption_text.text.startswith("Keys")


def test_gains_and_losses_differ_in_lightness_not_only_in_hue(gui):  # type: ignore[no-untyped-def]
    game = rules.get_game("kalah")
    lone = game.from_text("pits=0,1,0,0,0,0/4,4,4,4,4,4 stores=0,0 move=S")
    gui.context.show_match(Session(game, (Seat(), Seat()), lone))
    gui.frame(2)
    view = gui.window.current_view
    place = view.scene.layout.places[1]
    gui.move(place.x, place.y)
    gui.frame()
    texts = view.scene._preview_texts
    gain, loss = texts[view.spec.store(0)], texts[view.spec.move_location(1, 3)]
    assert gain.text == "+5" and loss.text == "\u22124"

    def lightness(colour):  # type: ignore[no-untyped-def]
        return 0.2126 * colour[0] + 0.7152 * colour[1] + 0.0722 * colour[2]

    # dark ink on a light plate for a gain, light ink on a dark plate for a loss
    assert lightness(gain.color) < 80 < lightness(loss.color)
