"""Hus on screen: while a move's laps are sown the scores stay the seeds each side owns (they change only when a
capture lifts the opponent's seeds), the badges count what rests in each pit, and a tag says which lap is sown."""
from __future__ import annotations

import random

import rules
from game.savegame import Seat
from game.session import Session
from game.views.sowing_view import SowingView

GAME = rules.get_game("hus")


def line_to_a_capture_with_relays():  # type: ignore[no-untyped-def]
    """Moves from the start to a position where the mover has a move with relays and a capture, and that move."""
    rng = random.Random(11)
    for _ in range(50):
        state, moves = GAME.initial_state(), []
        while not GAME.is_terminal(state) and len(moves) < 40:
            for move in GAME.legal_moves(state):
                report = GAME.report(state, move)
                if report.captures and report.relays and report.lap_count >= 4:
                    return moves, move
            move = rng.choice(GAME.legal_moves(state))
            moves.append(move)
            state = GAME.apply(state, move)
    raise AssertionError("no capture found")


def scores(view: SowingView) -> tuple[int, int]:
    words = view.controller.scores_text().split()
    return int(words[1]), int(words[3])


def test_scores_move_only_with_captures_and_laps_are_named_on_the_board(gui):  # type: ignore[no-untyped-def]
    moves, move = line_to_a_capture_with_relays()
    gui.context.show_match(Session.new(GAME, (Seat(), Seat())))
    gui.frame(2)
    view = gui.window.current_view
    assert isinstance(view, SowingView)
    for earlier in moves:
        view.play(earlier)
        view.scene.finish()
    gui.frame(30)
    state = view.match.state
    mover = state.to_move
    report = GAME.report(state, move)
    before = tuple(sum(state.side(player)) for player in (0, 1))
    assert scores(view) == before
    tags = set()
    show_lap = view.scene._show_lap

    def recorded(text, location):  # type: ignore[no-untyped-def]
        show_lap(text, location)
        tags.add(view.scene.lap_tag)

    view.scene._show_lap = recorded
    view.scene.speed = 3.0
    view.play(move)
    seen_scores = []
    while view.scene.is_animating:
        gui.frame(dt=1 / 30)
        seen_scores.append(scores(view))
        landed = {}
        for stone in view.scene.field.stones:
            if stone.flight is None and stone.location >= 0:
                landed[stone.location] = landed.get(stone.location, 0) + 1
        for location, badge in view.scene._badges.items():
            assert badge.text == str(landed.get(location, 0))
    assert all(sum(pair) == 96 for pair in seen_scores)
    mover_scores = [pair[mover] for pair in seen_scores]
    assert mover_scores == sorted(mover_scores)  # never down while the mover's seeds fly; up at each capture
    assert len(set(mover_scores)) <= len(report.captures) + 1
    assert seen_scores[-1] == tuple(sum(view.match.state.side(player)) for player in (0, 1))
    per = view.spec.per_player
    laps = report.lap_count
    expected = {(f"Lap {index + 1} of {laps}" + (f": {lap.kind.value}" if index else ""),
                 lap.taken[0][0].owner * per + lap.taken[0][0].index) for index, lap in enumerate(report.laps)}
    assert tags - {None} == expected
    assert view.scene.lap_tag is None  # gone once the move has landed


def test_showing_a_position_mid_move_takes_the_lap_tag_away(gui):  # type: ignore[no-untyped-def]
    moves, move = line_to_a_capture_with_relays()
    gui.context.show_match(Session.new(GAME, (Seat(), Seat())))
    gui.frame(2)
    view = gui.window.current_view
    for earlier in moves:
        view.play(earlier)
        view.scene.finish()
    view.play(move)
    gui.frames_until(lambda: view.scene.lap_tag is not None, limit=600)
    view.toggle_panel()  # shows the position at once, mid-move
    assert view.scene.lap_tag is None
