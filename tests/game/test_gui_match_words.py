"""The two-player game screen in a real window: the top bar keeps to the board while stones fly, Escape during
a replay lands every stone and brings the result back, and the panels speak in words."""
from __future__ import annotations

import arcade

import rules
from game.savegame import Seat
from game.session import Session
from game.views.sowing_view import SowingView


def open_kalah(gui, seats, moves=()):  # type: ignore[no-untyped-def]
    session = Session.new(rules.get_game("kalah"), seats)
    for move in moves:
        session.play(move)
    gui.context.show_match(session)
    gui.frame(2)
    view = gui.window.current_view
    assert isinstance(view, SowingView)
    return view


def test_the_top_bar_announces_the_next_mover_only_when_the_stones_have_landed(gui):  # type: ignore[no-untyped-def]
    view = open_kalah(gui, (Seat(), Seat()))
    view.play(0)  # South sows pit 1: North moves next
    gui.frame()
    assert view.scene.is_animating
    assert view.top_bar.turn.text.startswith("South to move") and view.top_bar.last.text == "No move yet"
    assert view.top_bar.scores.text == "South 0   North 0"
    gui.updates_until(lambda: not view.scene.is_animating, limit=900)
    gui.frame()
    assert view.top_bar.turn.text.startswith("North to move")
    assert view.top_bar.last.text == "South sows pit 1 (4 seeds)"


def test_escape_during_a_replay_lands_the_stones_and_the_result_comes_back(gui):  # type: ignore[no-untyped-def]
    game = rules.get_game("kalah", pits=3, seeds=2)
    session = Session.new(game, (Seat(), Seat()))
    while not session.is_over:
        session.play(session.legal_moves[0])
    gui.context.show_match(session)
    view = gui.window.current_view
    gui.frames_until(lambda: view._overlay is not None, limit=300)
    headline = view.controller.result().headline
    gui.press("Replay")
    gui.frames_until(lambda: view.scene.is_animating, limit=300)
    gui.key(arcade.key.ESCAPE)
    assert gui.window.current_view is view and view.controller.replay_index is None
    assert not view.scene.is_animating and view.scene.counts == view.spec.counts(session.state)
    left, bottom, width, height = view.scene.layout.board
    for stone in view.scene.field.stones:
        assert stone.flight is None and left <= stone.x <= left + width and bottom <= stone.y <= bottom + height
    gui.frames_until(lambda: view._overlay is not None, limit=120)
    assert view.controller.result().headline == headline


def test_the_panels_speak_in_words_and_keep_the_computers_reasoning(gui):  # type: ignore[no-untyped-def]
    view = open_kalah(gui, (Seat(), Seat("alphabeta:depth=2", 0.3)))
    view.play(0)  # no extra turn for South; North may earn one, and then plays again
    gui.frames_until(lambda: view.match.is_human_turn and len(view.match.moves) >= 2 and not view.scene.is_animating,
                     limit=900, dt=0.05)
    gui.frame()
    computer = view.side_panel.thinking.text
    last = view.match.moves[-1]
    assert computer.startswith(f"The computer played pit {last + 1}") and "score" not in computer
    assert "expects" in computer or "sees" in computer  # its outlook, in words
    names = ["S"] + ["N"] * (len(view.match.moves) - 1)
    assert view.side_panel.moves.text.splitlines() == [
        f"{number:>3}. {who} pit {move + 1}" for number, (who, move) in enumerate(zip(names, view.match.moves), 1)]


def test_what_glows_on_the_board():
    from game import theme
    from game.views.match_panels import board_marks

    legal = {3: "a", 4: "b"}
    highlights, outlines = board_marks(legal, hovered=3, cursor=4, hint=None, last=9, mover=1)
    assert highlights == {3: theme.ACCENTS[1], 4: theme.ACCENTS[1][:3] + (theme.CURSOR_ALPHA,)} and outlines == {9: theme.LAST_MOVE}
    highlights, outlines = board_marks({}, hovered=3, cursor=None, hint=5, last=None, mover=0)
    assert highlights == {5: theme.HINT} and outlines == {5: theme.HINT}  # no choosing now: only the hint, ringed
    assert board_marks(legal, hovered=7, cursor=None, hint=None, last=None, mover=0)[0] == {}  # not a legal place
