"""Window tests of the analysis panel (``game.views.analysis_panel``): key A and the Analysis button show and hide
it, it lists every legal move best first once the analysis has a snapshot, a click on the evaluation graph shows
that position as a paused replay, the searches stop when the position changes, the panel closes or the screen is
left, and the panel fits the window at the three sizes (the layout tests check every text of it too, through the
tour's ``*-analysis`` screens).

Every test drives the real window (see conftest.Gui); the analysis gets a short time (``QUICK``) so a snapshot
and its end come within a few hundred frames.
"""
from __future__ import annotations

import math

import arcade
import pytest

import rules
from game.savegame import Seat
from game.session import Session
from game.views.analysis_feed import point_words, short_words
from game.views.analysis_panel import AnalysisPanel
from game.views.cave_view import CaveView
from game.views.match_view import MatchView
from game.views.panels import SIDE_PANEL

QUICK = 0.4
"""Seconds the panel's analysis gets per position in these tests."""


def open_game(gui, name: str, moves: int = 0, width: int = 1280,  # type: ignore[no-untyped-def]
              height: int = 720) -> MatchView:
    """A hot-seat game of ``name`` after ``moves`` plies (the first legal move each time), its panel's analysis
    shortened to ``QUICK``."""
    if (gui.window.width, gui.window.height) != (width, height):
        gui.window.set_size(width, height)
        gui.window.dispatch_event("on_resize", width, height)
    session = Session.new(rules.get_game(name), (Seat(), Seat()))
    for _ in range(moves):
        session.play(session.legal_moves[0])
    gui.context.show_match(session)
    gui.frame(2)
    view = gui.window.current_view
    assert isinstance(view, MatchView)
    view.analysis.feed.seconds = QUICK
    view.analysis.feed.quick_seconds = 0.05
    return view


def finished_snapshot(gui, view: MatchView):  # type: ignore[no-untyped-def]
    """Step frames until the panel's analysis of the shown position has finished; its last snapshot."""
    gui.frames_until(lambda: view.analysis.feed.snapshot is not None and view.analysis.feed.snapshot.finished,
                     limit=3000)
    gui.frame(2)
    return view.analysis.feed.snapshot


def listed(view: MatchView) -> list[str]:
    """The move names the panel shows, in order."""
    return [text.text for text in view.analysis.names if text.text]


def test_key_a_and_the_button_show_and_hide_the_panel(gui):  # type: ignore[no-untyped-def]
    view = open_game(gui, "kalah")
    assert not view.show_analysis and not view.analysis.enabled and view.side_panel.enabled
    gui.key(arcade.key.A)
    assert view.show_analysis and view.analysis.enabled
    assert not view.side_panel.enabled  # the analysis takes the move list's place
    assert view.analysis.feed.analysis is not None  # and searches the position on the board
    gui.press("Analysis")
    assert not view.show_analysis and not view.analysis.enabled and view.side_panel.enabled
    assert view.analysis.feed.analysis is None  # closing the panel stops its search
    gui.press("Analysis")
    assert view.show_analysis and view.analysis.enabled
    gui.key(arcade.key.A)
    assert not view.show_analysis
    gui.key(arcade.key.A)
    gui.key(arcade.key.M)  # M goes from the analysis back to the move list
    assert not view.show_analysis and view.side_panel.enabled and view.analysis.feed.analysis is None


def test_the_board_keeps_clear_of_the_panel(gui):  # type: ignore[no-untyped-def]
    view = open_game(gui, "kalah")
    gui.key(arcade.key.A)
    left, _, board_width, _ = view.scene.layout.board
    assert left + board_width <= view.analysis.left + 1
    assert view.analysis.right == pytest.approx(gui.window.width) and view.analysis.width >= SIDE_PANEL


def test_the_panel_lists_every_legal_move_best_first(gui):  # type: ignore[no-untyped-def]
    view = open_game(gui, "kalah", moves=3)
    gui.key(arcade.key.A)
    snapshot = finished_snapshot(gui, view)
    state = view.match.state
    assert view.analysis.feed.state == state
    game = view.match.game
    from game.explain import move_name

    legal = {move_name(game, state, move) for move in game.legal_moves(state)}
    assert listed(view) == [value.name for value in snapshot.moves]
    assert set(listed(view)) == legal and len(listed(view)) == len(legal)
    scores = [value.score for value in snapshot.moves if not math.isnan(value.score)]
    assert scores and scores == sorted(scores, reverse=True)
    words = [text.text for text in view.analysis.words if text.text]
    assert words == [short_words(value.words) for value in snapshot.moves]
    assert all(word != "..." for word in words)  # every move was scored in the time given
    assert view.analysis.status.text and "South" in view.analysis.subline.text


def test_proven_values_carry_a_tag(gui):  # type: ignore[no-untyped-def]
    """Near the end of a Kalah game the values are proven (tables or the prover): each such row says so."""
    view = open_game(gui, "kalah", moves=7)  # three plies before the end of this game
    assert not view.match.is_over
    gui.key(arcade.key.A)
    snapshot = finished_snapshot(gui, view)
    proven = [value for value in snapshot.moves if value.proven]
    assert proven, "no proven value near the end of a Kalah game"
    tags = [text.text for text in view.analysis.tags]
    for index, value in enumerate(snapshot.moves):
        assert (tags[index] == "proven") is value.proven
    assert view.analysis.legend.text == "proven"


def test_the_analysis_follows_the_position_and_stops_when_it_changes(gui):  # type: ignore[no-untyped-def]
    view = open_game(gui, "kalah")
    gui.key(arcade.key.A)
    gui.frame(2)
    first = view.analysis.feed.analysis
    assert first is not None and view.analysis.feed.state == view.match.state
    gui.key(arcade.key.KEY_3)  # plays pit 3 (an extra turn for South)
    view.scene.finish()
    gui.frame(3)
    assert first.worker.token.is_cancelled  # the old position's search was stopped
    assert view.analysis.feed.state == view.match.state and view.analysis.feed.analysis is not first
    current = view.analysis.feed.analysis
    gui.press("Menu")  # leaving the screen stops it too
    assert current.worker.token.is_cancelled


def test_enter_and_the_number_keys_still_play_with_the_panel_shown(gui):  # type: ignore[no-untyped-def]
    view = open_game(gui, "kalah")
    gui.key(arcade.key.A)
    gui.key(arcade.key.RIGHT)
    gui.key(arcade.key.ENTER)
    view.scene.finish()
    assert len(view.match.moves) == 1 and view.show_analysis


def test_a_click_on_the_graph_replays_that_position(gui):  # type: ignore[no-untyped-def]
    view = open_game(gui, "kalah", moves=6)
    gui.key(arcade.key.A)
    gui.frame(2)
    panel: AnalysisPanel = view.analysis
    left, bottom, width, height = panel.plot
    assert len(panel.states) == 7
    numbered = [tick for tick in panel.ticks if tick.text]  # the move numbers along the graph's foot
    assert [tick.text for tick in numbered] == ["5"] and numbered[0].x == panel.point_x(5)
    gui.click(panel.point_x(2), bottom + height / 2)
    controller = view.controller
    assert controller.replay_index == 2 and controller.board_index == 2
    state = view.match.states[2]
    assert view.scene.counts == view.spec.counts(state)  # the board shows that position
    gui.frame(5)
    assert panel.feed.state == state  # and the panel analyses it
    assert panel.current == 2 and panel.caption.text.startswith("Move 2")
    assert view.notice == "Showing the position after move 2 of 6: Shift+Left/Right step, Escape returns to the game."
    gui.frame(60)
    assert controller.replay_index == 2  # it stays there: a paused replay
    assert controller.turn() == ("Replay", None) and controller.last_text().startswith("Replay 2/6")
    gui.key(arcade.key.ESCAPE)  # ends the replay: the game's own position again
    assert controller.replay_index is None and view.window.current_view is view and view.notice == ""
    assert view.scene.counts == view.spec.counts(view.match.state)
    gui.frame(3)
    assert panel.feed.state == view.match.state


def test_shift_and_the_arrows_step_through_the_games_positions(gui):  # type: ignore[no-untyped-def]
    view = open_game(gui, "kalah", moves=4)
    gui.key(arcade.key.RIGHT, arcade.key.MOD_SHIFT)  # without the panel: only the keyboard's pit choice
    assert view.controller.replay_index is None and view.cursor == 0
    gui.key(arcade.key.A)
    gui.key(arcade.key.LEFT, arcade.key.MOD_SHIFT)
    assert view.controller.replay_index == 3 and view.scene.counts == view.spec.counts(view.match.states[3])
    gui.key(arcade.key.LEFT, arcade.key.MOD_SHIFT)
    gui.key(arcade.key.LEFT, arcade.key.MOD_SHIFT)
    assert view.controller.replay_index == 1 and view.analysis.current == 1
    assert view.cursor == 0  # the pit choice did not move
    for _ in range(3):
        gui.key(arcade.key.RIGHT, arcade.key.MOD_SHIFT)
    assert view.controller.replay_index is None and view.controller.board_index == 4  # back in the game


def test_a_click_on_the_last_point_returns_to_the_game(gui):  # type: ignore[no-untyped-def]
    view = open_game(gui, "kalah", moves=4)
    gui.key(arcade.key.A)
    gui.frame(2)
    panel = view.analysis
    _, bottom, _, height = panel.plot
    gui.click(panel.point_x(1), bottom + height / 2)
    assert view.controller.replay_index == 1
    gui.click(panel.point_x(4), bottom + height / 2)
    assert view.controller.replay_index is None and view.controller.board_index == 4


def test_the_graph_takes_the_computers_own_search_when_it_moved(gui):  # type: ignore[no-untyped-def]
    gui.context.show_match(Session.new(rules.get_game("kalah"), (Seat(), Seat("pvs:time=0.1", 0.1))))
    gui.frame(2)
    view = gui.window.current_view
    view.analysis.feed.seconds = QUICK
    gui.key(arcade.key.A)
    gui.key(arcade.key.KEY_1)  # South's pit 1: North (the computer) to move
    gui.frames_until(lambda: len(view.match.moves) >= 2 and view.match.is_human_turn and not view.scene.is_animating,
                     limit=3000)
    gui.frame(2)
    state, search = view.controller._computer_result  # its last move (an extra turn may have come first)
    index = view.match.states.index(state)
    assert index >= 1 and view.match.game.to_move(state) == 1
    point, depth = view.analysis.feed.computed[state]
    assert point.score == pytest.approx(-search.score) and depth == search.depth >= 1  # South's side
    analysed = view.analysis.feed.analysed.get(state)
    if analysed is None or analysed[1] < depth and not analysed[0].proven:
        assert view.analysis.feed.value(state) == point  # the deeper value is the graph's
    assert view.analysis.points[index] == view.analysis.feed.value(state)


def test_the_analysis_waits_while_the_computer_thinks(gui):  # type: ignore[no-untyped-def]
    """The computer keeps the machine to itself while it searches: it plays as strongly with the panel shown."""
    gui.context.show_match(Session.new(rules.get_game("kalah"), (Seat(), Seat("pvs:time=1", 1.0))))
    gui.frame(2)
    view = gui.window.current_view
    gui.key(arcade.key.A)
    assert view.analysis.feed.analysis is not None  # the human's turn: analysed
    gui.key(arcade.key.KEY_1)
    gui.frames_until(lambda: view.controller.worker is not None, limit=600)
    gui.frame(2)
    assert view.analysis.feed.analysis is None and not view.analysis.feed.history.filling
    assert view.analysis.subline.text == "Waiting for the computer's move."
    gui.frames_until(lambda: view.match.is_human_turn and not view.scene.is_animating, limit=3000)
    gui.frame(2)
    assert view.analysis.feed.state == view.match.state  # its move played: the panel analyses again


def test_the_graph_gets_a_value_for_every_position(gui):  # type: ignore[no-untyped-def]
    view = open_game(gui, "kalah", moves=5)
    gui.key(arcade.key.A)
    gui.frames_until(lambda: all(point is not None for point in view.analysis.points), limit=3000)
    assert len(view.analysis.points) == 6


@pytest.mark.parametrize("size", [(800, 500), (1280, 720), (1920, 1080)], ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("name", ["kalah", "hus", "magnetic-cave"])
def test_the_panel_fits_the_window(gui, name: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    from game.views import layout

    view = open_game(gui, name, moves=4, width=size[0], height=size[1])
    gui.key(arcade.key.A)
    gui.frames_until(lambda: view.analysis.feed.snapshot is not None, limit=3000)
    gui.frame(2)
    panel = view.analysis
    assert 0 <= panel.left and panel.right <= size[0] + 1 and panel.bottom >= 0 and panel.top <= size[1]
    left, bottom, width, height = panel.plot
    assert panel.left <= left and left + width <= panel.right and panel.bottom <= bottom
    assert bottom + height <= panel.top and height >= 60
    names = listed(view)
    assert len(names) == len(view.match.legal_moves) or panel.more.text  # every move, or "and N more moves"
    wrong = layout.problems(layout.boxes(view), *size)
    assert not wrong, "\n".join(wrong)


def test_the_cave_screen_has_the_panel_too(gui):  # type: ignore[no-untyped-def]
    view = open_game(gui, "magnetic-cave", moves=6)
    assert isinstance(view, CaveView)
    gui.key(arcade.key.A)
    snapshot = finished_snapshot(gui, view)
    state = view.match.state
    game = view.match.game
    cells = {game.move_label(state, move) for move in game.legal_moves(state)}
    assert set(listed(view)) == cells and len(listed(view)) == len(cells)
    assert listed(view) == [value.name for value in snapshot.moves]
    assert "Black" in view.analysis.subline.text
    _, bottom, _, height = view.analysis.plot
    gui.click(view.analysis.point_x(3), bottom + height / 2)
    assert view.controller.replay_index == 3
    assert view.scene.state == view.match.states[3]  # the cave shows that position


def test_point_words_read_from_the_side_ahead() -> None:
    from ai.evaluators import WIN
    from ai.analysis import Point

    kalah, cave = rules.get_game("kalah"), rules.get_game("magnetic-cave")
    assert point_words(kalah, Point(-(WIN + 3), True)) == "North wins by 3, proven"
    assert point_words(kalah, Point(2.5, False)) == "South is about 3 seeds ahead"
    assert point_words(kalah, Point(0.0, True)) == "a draw, proven"
    assert point_words(kalah, None) == "not valued yet"
    assert point_words(cave, Point(WIN + 1, True)) == "Black has a forced win"
    assert point_words(cave, Point(-600.0, False)) == "White is winning"
    assert point_words(cave, Point(1.0, False)) == "even"
    assert short_words("wins by 6, proven") == "wins by 6"
    assert short_words("about 3 seeds ahead (18 plies)") == "about 3 seeds ahead"


def test_a_point_at_the_games_end_says_who_won_not_a_forced_win_to_come() -> None:
    from ai.evaluators import WIN
    from ai.analysis import Point

    for name in ("kalah", "magnetic-cave"):
        game = rules.get_game(name)
        state = game.initial_state()
        while not game.is_terminal(state):
            state = game.apply(state, game.legal_moves(state)[0])
        outcome = game.outcome(state)
        words = point_words(game, Point(WIN + 1, True), state)
        if outcome.winner is None:
            assert words == "a draw"
        else:
            assert words.startswith(f"{game.player_names[outcome.winner]} won") and "forced" not in words, words
            if name == "kalah":
                assert words.endswith(f"won by {outcome.margin(outcome.winner)}"), words


def test_a_finished_game_has_no_moves_to_weigh_and_ends_proven(gui):  # type: ignore[no-untyped-def]
    view = open_game(gui, "kalah", moves=10)  # the first legal move each time ends this game after 10 plies
    assert view.match.is_over
    gui.key(arcade.key.A)
    gui.frame(3)
    panel = view.analysis
    assert panel.subline.text == "The game is over: no moves to weigh." and listed(view) == []
    assert panel.feed.analysis is None  # nothing to search
    last = panel.points[-1]
    assert last is not None and last.proven
    outcome = view.match.game.outcome(view.match.state)  # the caption says the result, not a win still to come
    winner = view.match.game.player_names[outcome.winner]
    assert panel.caption.text == f"Move 10: {winner} won by {outcome.margin(outcome.winner)}"


def test_an_analysis_that_cannot_start_is_said_not_raised(gui, monkeypatch):  # type: ignore[no-untyped-def]
    from ai.analysis import service
    from game.views import layout

    def refuse(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("no engine suits this variant of the game, whatever it may be, said at length")

    monkeypatch.setattr(service, "Analysis", refuse)  # the feed takes its analyses from the screen's Shelf
    view = open_game(gui, "kalah", width=800, height=500)
    gui.key(arcade.key.A)
    gui.frame(3)
    assert view.analysis.subline.text.startswith("No analysis: RuntimeError: no engine")
    assert view.analysis.subline.text.endswith("...")  # cut to the panel's width
    assert listed(view) == [] and view.window.current_view is view
    assert not layout.problems(layout.boxes(view), 800, 500)


def test_no_move_number_at_the_graphs_foot_touches_the_current_moves_marker(gui):  # type: ignore[no-untyped-def]
    """A long cave game: as moves are added the last number comes up beside the marker (it crowded it)."""
    view = open_game(gui, "magnetic-cave", moves=30)
    gui.key(arcade.key.A)
    panel: AnalysisPanel = view.analysis
    checked = 0
    while not view.match.is_over and len(view.match.moves) < 48:
        view.controller.play(view.match.legal_moves[0])
        view.scene.finish()
        gui.frame(1)
        cx = panel.point_x(panel.current)
        for tick in panel.ticks:
            if tick.text:
                checked += 1
                assert abs(tick.x - cx) >= tick.content_width / 2 + 11 * panel.scale, (
                    len(view.match.moves), tick.text, tick.x, cx)
    assert checked > 10
