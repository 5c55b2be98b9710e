"""The sowing board's animation plan is read from the rules' MoveEvents alone, the same way for every game."""
from __future__ import annotations

from game.scenes.sowing_board import BoardSpec, Capture, Lap, plan_move
from rules.hus import Hus
from rules.kalah import Kalah
from rules.oware import Oware


def plan(game, text: str, move: int):  # type: ignore[no-untyped-def]
    state = game.from_text(text)
    after = game.apply(state, move)
    return plan_move(game, state, move, after, BoardSpec.of(game, state))


def test_kalah_extra_turn_drops_into_the_store() -> None:
    game = Kalah()
    result = plan(game, game.to_text(game.initial_state()), 2)
    assert result.laps == [Lap(((2, 4),), (3, 4, 5, 12))]  # 12: South's store (pit_count + 0)
    assert result.captures == [] and result.labels == ["Extra turn"]


def test_kalah_capture_flies_both_pits_to_the_movers_store() -> None:
    game = Kalah()
    result = plan(game, "pits=1,0,0,0,0,1/4,4,4,4,4,3 stores=0,0 move=S", 0)
    assert result.laps == [Lap(((0, 1),), (1,))]
    assert result.captures == [Capture(((1, 1), (10, 4)), 12, "Capture 5")]
    assert result.labels == ["Capture 5"]


def test_oware_capture_takes_the_counts_after_sowing() -> None:
    game = Oware()
    result = plan(game, "pits=4,4,4,4,3,1/1,2,4,4,4,4 stores=5,4 move=S", 4)
    assert result.laps == [Lap(((4, 3),), (5, 6, 7))]
    assert result.captures == [Capture(((7, 3), (6, 2)), 12, "Capture 5")]
    assert result.labels == ["Capture 5"]


def test_oware_end_rule_and_grand_slam_are_named() -> None:
    game = Oware()
    slam = plan(game, "pits=0,0,0,1,2,3/1,1,1,0,0,0 stores=20,19 move=S", 5)
    assert "Grand slam: no capture" in slam.labels and slam.captures == []


def test_hus_relays_and_captures_are_laps_without_a_store() -> None:
    game = Hus()
    south = [0] * 32
    south[14], south[17], south[0] = 3, 1, 2
    north = [0] * 32
    north[30], north[1], north[5] = 4, 5, 2
    text = "pits=" + ",".join(map(str, south)) + "/" + ",".join(map(str, north)) + " move=S turn=1"
    result = plan(game, text, 14)
    assert [lap.label for lap in result.laps] == [None, "Capture 9"]
    assert result.laps[1].taken == ((32 + 30, 4), (32 + 1, 5))
    assert result.laps[1].drops == tuple(range(18, 27))
    assert result.captures == [] and result.labels == ["Captured 9"]
    first = plan(game, game.to_text(game.initial_state()), 0)
    assert first.labels[0] == "Relay x8" and [lap.label for lap in first.laps][1:] == ["Relay"] * 8
