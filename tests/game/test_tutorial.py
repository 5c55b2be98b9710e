"""The guided first games (``game.tutorial``): every step's position is a real position, every move is legal
there and does what the step says it shows, by the rules themselves."""
from __future__ import annotations

import re

import pytest

import rules
from game.tutorial import EFFECTS, STORE, TUTORIALS, Step, Tutorial, tutorial
from rules.magnetic_cave import SIZE, cell_name

STEPS = [pytest.param(entry, index, step, id=f"{entry.game}-{index + 1}")
         for entry in TUTORIALS for index, step in enumerate(entry.steps)]


def effects(game, before, move) -> set[str]:  # type: ignore[no-untyped-def]
    """What the rules say ``move`` does in ``before``, in the words of ``game.tutorial.EFFECTS``."""
    after = game.apply(before, move)
    mover = game.to_move(before)
    found: set[str] = set()
    if game.name != "solitaire" and game.is_terminal(after):
        found.add("game end")
    if game.name == "solitaire":
        report = game.report(before, move)
        outcome = game.outcome(after)
        if report.set_aside is not None:
            found.add("store")
        elif outcome is None or outcome.winner is not None:  # a round that did not lose the deal
            found.add("sow")
        return found
    if game.name == "magnetic-cave":
        row, column = divmod(move, SIZE)
        if column in (0, SIZE - 1):
            found.add("wall")
        elif any(before.at(row * SIZE + c) for c in (column - 1, column + 1)):
            found.add("beside a brick")
        if after.winner == mover:
            found.add("five in a row")
        return found
    report = game.report(before, move)
    if report.extra_turn and game.to_move(after) == mover:
        found.add("extra turn")
    if report.captured > 0:
        found.add("capture")
    if game.name == "oware":
        opponent = before.pits[6 * (1 - mover):6 * (2 - mover)]
        own = before.pits[6 * mover:6 * (mover + 1)]
        starving = [house for house, seeds in enumerate(own) if seeds and house not in game.legal_moves(before)]
        if not any(opponent) and report.fed and starving:
            found.add("must feed")
        if report.grand_slam and report.captured == 0 and after.stores == before.stores:
            found.add("grand slam")
    if game.name == "hus":
        if report.relays and not report.captured:
            found.add("relay")
        taken = [place.index for capture in report.captures for place, _ in capture.taken]
        if any(pit >= 16 for pit in taken) and any(pit < 16 for pit in taken):
            found.add("capture both rows")
    if not found and game.to_move(after) != mover:
        found.add("sow")
    return found


@pytest.mark.parametrize("entry, index, step", STEPS)
def test_each_step_is_a_real_position_and_its_move_shows_its_rule(entry: Tutorial, index: int, step: Step) -> None:
    game = rules.get_game(entry.game)
    state = game.from_text(step.position)
    assert game.from_text(game.to_text(state)) == state
    if step.move is None:
        assert not step.effect and not step.done, "a step without a move has nothing to check or report"
        return
    assert step.effect in EFFECTS
    assert step.move in game.legal_moves(state), f"{game.format_move(state, step.move)} is not legal here"
    assert not game.is_terminal(state)
    assert step.effect in effects(game, state, step.move), effects(game, state, step.move)
    assert step.done, "a move step says what happened"
    if step.answer is not None:  # the opponent's reply: legal once the move has played, and named in ``done``
        after = game.apply(state, step.move)
        assert game.to_move(after) != game.to_move(state) and step.answer in game.legal_moves(after)


@pytest.mark.parametrize("entry, index, step", STEPS)
def test_the_text_names_the_move_and_marks_exist(entry: Tutorial, index: int, step: Step) -> None:
    game = rules.get_game(entry.game)
    state = game.from_text(step.position)
    named = re.findall(r"[Cc]lick (?:pit|house|hole) (\d+)", step.text)
    if named and entry.game == "solitaire":
        hole = step.move.hole if step.move.hole is not None else state.selected + 1
        assert int(named[0]) == hole, "holes are counted from 1 in the text"
        assert ("anti-clockwise" in step.text) == (step.move.direction == "ccw")
    elif named:
        assert int(named[0]) == step.move + 1, "pits are counted from 1 in the text"
    if entry.game == "magnetic-cave" and step.move is not None:
        assert f"click {cell_name(step.move)}".lower() in step.text.lower()
    for player, place in step.marks:
        if entry.game == "magnetic-cave":
            assert 0 <= place < SIZE * SIZE
        elif entry.game == "solitaire":
            assert 0 <= place < len(state.holes)
        elif place == STORE:
            assert hasattr(state, "stores")
        else:
            assert 0 <= place < len(state.pits) // 2 and player in (0, 1)


def test_every_game_with_a_board_has_a_guided_game_and_each_teaches_its_special_rules() -> None:
    taught = {entry.game: {step.effect for step in entry.steps} for entry in TUTORIALS}
    assert taught["kalah"] >= {"sow", "extra turn", "capture"}
    assert taught["oware"] >= {"capture", "must feed", "grand slam"}
    assert taught["hus"] >= {"relay", "capture both rows"}
    assert taught["magnetic-cave"] >= {"wall", "beside a brick", "five in a row"}
    assert taught["solitaire"] >= {"sow", "store"}
    assert tutorial("oware").title == "Oware"
    with pytest.raises(KeyError):
        tutorial("chess")


def test_a_wrong_claim_is_caught() -> None:
    """The checks can fail: a step claiming an extra turn for a move that has none is refused."""
    game = rules.get_game("kalah")
    state = game.from_text(TUTORIALS[0].steps[1].position)
    assert "extra turn" not in effects(game, state, 0)
    assert "extra turn" in effects(game, state, 2)
