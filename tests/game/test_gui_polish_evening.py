"""Issue 29, item 7 (polish): each a slip a player meets over an evening, each checked in the real window (or,
for the graph's scale, by the value it plots) so that it fails on the code before the fix."""
from __future__ import annotations

import random

import arcade

import rules
from ai.evaluators import proven_score
from game.evaluation_graph import graph_value
from game.savegame import Seat
from game.session import Session
from game.views.match_view import MatchView

KALAH = rules.get_game("kalah")
CAVE = rules.get_game("magnetic-cave")


def open_match(gui, session: Session) -> MatchView:  # type: ignore[no-untyped-def]
    gui.context.show_match(session)
    gui.frame(3)
    view = gui.window.current_view
    assert isinstance(view, MatchView)
    return view


def test_the_computer_panel_names_its_last_move_in_a_resumed_game(gui):  # type: ignore[no-untyped-def]
    session = Session.new(KALAH, (Seat(), Seat("random", 0.05)))
    while not (session.moves and session.to_move == 0 and KALAH.to_move(session.states[-2]) == 1):
        session.play(session.legal_moves[-1])  # South, then North (the computer) until South is to move again
    view = open_match(gui, session)  # as Resume or Load opens it: the computer's reasoning was not kept
    text = view.controller.computer_text
    assert "has not moved yet" not in text
    assert text.startswith("The computer played") and "North" in text, text
    assert view.side_panel.thinking.text == text


def test_proven_wins_plot_higher_the_more_they_win_by():  # type: ignore[no-untyped-def]
    big, small = graph_value(KALAH, proven_score(14), True), graph_value(KALAH, proven_score(2), True)
    assert 0 < small < big < 1
    assert graph_value(KALAH, proven_score(-14), True) == -big
    assert graph_value(KALAH, proven_score(2), True) == graph_value(KALAH, 2.0, False)  # one scale: seeds
    assert graph_value(CAVE, proven_score(1), True) == 1.0  # a cave win has no margin: the top of the graph


def test_the_graph_caption_follows_the_game_after_a_replay_ends(gui):  # type: ignore[no-untyped-def]
    session = Session.new(KALAH, (Seat(), Seat()))
    for _ in range(6):
        session.play(session.legal_moves[0])
    view = open_match(gui, session)
    gui.key(arcade.key.A)
    gui.frame(2)
    panel = view.analysis
    left, bottom, width, height = panel.plot
    gui.click(panel.point_x(2), bottom + height / 2)  # a click on the graph: the position after move 2
    gui.frame(2)
    assert view.controller.replay_index == 2 and panel.caption.text.startswith("Move 2")
    gui.key(arcade.key.ESCAPE)  # back to the game, the pointer still resting where it clicked
    gui.frame(2)
    assert view.controller.replay_index is None and gui.window.current_view is view
    assert panel.caption.text.startswith(f"Move {len(session.moves)}"), panel.caption.text
    gui.move(panel.point_x(3), bottom + height / 2)  # hovering names a point again
    gui.frame()
    assert panel.caption.text.startswith("Move 3")


def test_the_hot_seat_move_list_uses_the_panel_instead_of_hiding_moves(gui):  # type: ignore[no-untyped-def]
    session = Session.new(CAVE, (Seat(), Seat()))
    rng = random.Random(7)
    while len(session.moves) < 24:
        safe = [m for m in session.legal_moves if not CAVE.is_terminal(CAVE.apply(session.state, m))]
        session.play(rng.choice(safe))
    assert not session.is_over
    view = open_match(gui, session)
    panel = view.side_panel
    text = panel.moves.text
    assert "earlier" not in text and len(text.splitlines()) == 24, text
    assert panel.thinking_heading.text == "" and panel.thinking.text == ""  # no empty Computer section
    assert panel.moves.bottom >= panel.bottom  # all of it inside the panel
    assert panel.moves.bottom >= panel.hint.y or not panel.hint.text
    gui.key(arcade.key.H)  # a hint: the list makes room for its words
    gui.frames_until(lambda: bool(view.controller.hint_text), limit=600, dt=0.05)
    gui.frame()
    assert panel.moves.bottom > panel.hint.y, (panel.moves.bottom, panel.hint.y)


def _after(game, step):  # type: ignore[no-untyped-def]
    state = game.apply(game.from_text(step.position), step.move)
    return state if step.answer is None else game.apply(state, step.answer)


def test_the_kalah_and_cave_guides_continue_one_game_and_explain_every_reply():  # type: ignore[no-untyped-def]
    from game.tutorial import tutorial

    kalah = tutorial("kalah")
    for step, following in zip(kalah.steps[1:3], kalah.steps[2:4]):  # sow (and North's answer), extra turn, capture
        assert KALAH.from_text(following.position) == _after(KALAH, step)
    cave = tutorial("magnetic-cave")
    assert cave.steps[0].answer == 31 and "White answered on H4" in cave.steps[0].done
    assert CAVE.from_text(cave.steps[1].position) == _after(CAVE, cave.steps[0])  # H4's brick is White's answer
    last = kalah.steps[-1]  # the end is shown, not only described
    assert last.move is not None and KALAH.is_terminal(_after(KALAH, last))


def test_the_kalah_guide_keeps_its_board_and_shows_the_end(gui):  # type: ignore[no-untyped-def]
    from game.tutorial import tutorial
    from game.views.tutorial_view import TutorialView

    view = TutorialView(gui.context, tutorial("kalah"))
    gui.context.show(view)
    gui.frame()
    gui.key(arcade.key.ENTER)  # step 2: sow pit 1
    scene = view.scene
    gui.key(arcade.key.ENTER)  # plays it; North's answer follows once the seeds land
    gui.updates_until(lambda: not view.answer_due and not view.scene.is_animating, limit=1200)
    assert view.state == KALAH.from_text(view.tutorial.steps[2].position)
    gui.key(arcade.key.ENTER)  # step 3, on the same board: nothing reset
    assert view.index == 2 and view.scene is scene and view.scene.field.counts() == {k: v for k, v in _counts(view).items() if v}
    gui.key(arcade.key.ENTER)
    gui.updates_until(lambda: not view.scene.is_animating, limit=1200)
    gui.key(arcade.key.ENTER)  # step 4 continues too
    assert view.index == 3 and view.scene is scene
    gui.key(arcade.key.ENTER)
    gui.updates_until(lambda: not view.scene.is_animating, limit=1200)
    gui.key(arcade.key.ENTER)  # the last step: a move that ends the game, played on the board
    assert view.index == 4 and view.waiting_for_move
    gui.key(arcade.key.ENTER)
    gui.updates_until(lambda: not view.scene.is_animating, limit=1200)
    assert KALAH.is_terminal(view.state) and KALAH.outcome(view.state).scores == (26, 22)
    assert "you won 26" in view._message.text


def test_the_cave_guide_plays_and_names_whites_answer(gui):  # type: ignore[no-untyped-def]
    from game.tutorial import tutorial
    from game.views.tutorial_view import TutorialView

    view = TutorialView(gui.context, tutorial("magnetic-cave"))
    gui.context.show(view)
    gui.frame()
    scene = view.scene
    gui.key(arcade.key.ENTER)  # A4
    gui.updates_until(lambda: not view.answer_due and not view.scene.is_animating, limit=1200)
    assert sorted(view.scene.bricks) == [24, 31] and "White answered on H4" in view._message.text
    gui.key(arcade.key.ENTER)
    assert view.index == 1 and view.scene is scene  # the same cave: H4's brick did not appear from nowhere


def _counts(view):  # type: ignore[no-untyped-def]
    return view.spec.counts(view.state)


def test_a_store_of_35_to_44_stones_keeps_them_inside_its_hollow(gui):  # type: ignore[no-untyped-def]
    """Every stone of a full store rests inside the store's drawn ellipse (its centre inside the ellipse shrunk by
    a stone's radius), at the usual size and a large one."""
    worst = {}
    for size in ((1280, 720), (1920, 1080)):
        gui.window.set_size(*size)
        gui.window.dispatch_event("on_resize", *size)
        for stones in (35, 36, 37, 38, 44):
            state = KALAH.from_text(f"pits=1,0,0,0,0,0/1,0,0,0,0,0 stores={stones},{46 - stones} move=S")
            view = open_match(gui, Session(KALAH, (Seat(), Seat()), state))
            scene = view.scene
            gui.updates_until(lambda: scene.field.resting, limit=900)  # the physics settling; drawn once rested
            for player in (0, 1):
                place = scene.layout.places[view.spec.store(player)]
                radius = scene.layout.stone_radius
                for stone in scene.field.at(view.spec.store(player)):
                    x, y = stone.body.position
                    reach = ((x - place.x) / (place.half_width - radius)) ** 2 + (
                        (y - place.y) / (place.half_height - radius)) ** 2
                    key = (size, stones, player)
                    worst[key] = max(worst.get(key, 0.0), reach)
    spilled = {key: round(value, 2) for key, value in worst.items() if value > 1.0}
    assert not spilled, f"stones over a store's edge (size, stones, store): {spilled}"


def _title(gui):  # type: ignore[no-untyped-def]
    from game.views.title import TitleView

    gui.context.show_title()
    gui.frame(2)
    view = gui.window.current_view
    assert isinstance(view, TitleView)
    return view


def test_the_title_stones_never_pass_over_the_title(gui):  # type: ignore[no-untyped-def]
    view = _title(gui)
    crossings = 0
    for _ in range(900):  # fifteen seconds of drift
        gui.frame(dt=1 / 60)
        name, tagline = view._name, view._tagline
        left, right = min(name.left, tagline.left), max(name.right, tagline.right)
        bottom, top = tagline.bottom, name.top
        for sprite in view.drift.sprites:
            if sprite.right > left and sprite.left < right and sprite.top > bottom and sprite.bottom < top:
                crossings += 1
    assert crossings == 0, f"{crossings} stone-frames over the title"


def test_the_title_stones_stay_spread_after_a_shrink(gui):  # type: ignore[no-untyped-def]
    from game.views.title import STONE_RADIUS

    view = _title(gui)
    gui.frame(30)
    gui.window.set_size(800, 500)
    gui.window.dispatch_event("on_resize", 800, 500)
    bodies = view.drift.bodies
    against_the_side = [body for body in bodies if body.position.x >= 800 - 41 or body.position.y >= 500 - 41]
    assert len(against_the_side) <= 2, [tuple(round(v) for v in body.position) for body in against_the_side]
    overlapping = [(a.position, b.position) for i, a in enumerate(bodies) for b in bodies[i + 1:]
                   if (a.position - b.position).length < STONE_RADIUS]
    assert not overlapping, overlapping
    assert all(40 <= body.position.x <= 760 and 40 <= body.position.y <= 460 for body in bodies)
