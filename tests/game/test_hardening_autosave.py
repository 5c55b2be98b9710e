"""Bounds from the game, not from the file (issue 31, item 17).

An autosave with 1,000 seeds in a Kalah pit was offered for Resume and froze the window (1.8 GB, 90 s+); with
60,000 the window process died.  Every position a file gives is now checked against what the game's variant
allows (``Game.check_position``: conserved seed totals, counters within their limits, bounded histories) and
the move count against the longest game the variant allows (``Game.max_moves``), before any move is replayed,
anything is drawn or searched.  A bad autosave is set aside with a message and never offered again.

Nothing here is timed: "before anything replays" is checked by making the rules' ``apply`` and
``parse_label`` fail if they are called at all.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rules
from game import savegame
from game.autosave import Autosave
from game.savegame import SaveError, Seat
from rules import PositionError

SEATS = {1: "seat Player: human\n", 2: "seat South: human\nseat North: human\n"}


def _save_text(spec: str, start: str, moves: str = "0", position: str | None = None) -> str:
    game = rules.parse_game_spec(spec)
    seats = SEATS[game.num_players] if game.name != "magnetic-cave" else "seat Black: human\nseat White: human\n"
    return (f"StoneCave save 2\ngame: {game.spec}\n{seats}seed: none\nstart: {start}\nmoves: {moves}\n"
            f"position: {position if position is not None else start}\nend\n")


KALAH_ROW = "4,4,4,4,4"
HOSTILE = {
    # what: (game spec, start, moves line, the words the refusal must hold)
    "kalah: 1,000 seeds in a pit": ("kalah", f"pits=1000,{KALAH_ROW}/4,{KALAH_ROW} stores=0,0 move=S", "0",
                                    "1044 seeds in all"),
    "kalah: 60,000 seeds in a pit": ("kalah", f"pits=60000,{KALAH_ROW}/4,{KALAH_ROW} stores=0,0 move=S", "0",
                                     "always has exactly 48"),
    "kalah: one seed short": ("kalah", f"pits=3,{KALAH_ROW}/4,{KALAH_ROW} stores=0,0 move=S", "0", "47 seeds"),
    "kalah: seeds in the stores from nowhere": ("kalah", f"pits=4,{KALAH_ROW}/4,{KALAH_ROW} stores=9,0 move=S",
                                                "0", "57 seeds"),
    "kalah: a negative pit": ("kalah", f"pits=-1,{KALAH_ROW}/4,{KALAH_ROW} stores=0,0 move=S", "0",
                              "out of range"),
    "kalah: a count of endless digits": ("kalah", f"pits={'9' * 5000},{KALAH_ROW}/4,{KALAH_ROW} stores=0,0 move=S",
                                         "0", "not a whole number"),
    "kalah: more moves than a game can last": ("kalah", f"pits=4,{KALAH_ROW}/4,{KALAH_ROW} stores=0,0 move=S",
                                               "900000", "lasts at most 14161"),
    "oware: 1,000 seeds in a house": ("oware", "pits=1000,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S", "0",
                                      "1044 seeds in all"),
    "oware: a no-capture counter past its limit": ("oware", "pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S "
                                                   "since_capture=100000", "0", "out of range"),
    "oware: more moves than a game can last": ("oware", "pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S", "3000",
                                               "lasts at most 2525"),
    "hus: 60,000 seeds in a pit": ("hus", "pits=" + ",".join(["60000"] + ["2"] * 23 + ["0"] * 8) + "/"
                                   + ",".join(["2"] * 24 + ["0"] * 8) + " move=S turn=0", "0", "always has exactly 96"),
    "hus: a turn past the turn limit": ("hus", "pits=" + ",".join(["2"] * 24 + ["0"] * 8) + "/"
                                        + ",".join(["2"] * 24 + ["0"] * 8) + " move=S turn=999999", "0",
                                        "turn limit"),
    "hus: more moves than a game can last": ("hus", "pits=" + ",".join(["2"] * 24 + ["0"] * 8) + "/"
                                             + ",".join(["2"] * 24 + ["0"] * 8) + " move=S turn=0", "999999",
                                             "lasts at most 10002"),
    "solitaire: 1,000 stones in a hole": ("solitaire", "holes=1000,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 select=free",
                                          "0", "always has exactly 48"),
    "solitaire: more stored than the rules can store": ("solitaire", "holes=0,0,0,0,0,1/0,0,0,0,0,0 stores=47,0 "
                                                        "select=free", "0", "at most 46"),
    "solitaire: a history with other stones": ("solitaire", "holes=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 select=1 "
                                               "seen=9.4.4.4.4.4.4.4.4.4.4.4@free", "0", "seen"),
    "oware: a negative house": ("oware", "pits=-4,4,4,4,4,4/4,4,4,4,4,12 stores=0,0 move=S", "0", "out of range"),
    "hus: a negative pit": ("hus", "pits=-2," + ",".join(["2"] * 23 + ["0"] * 8) + "/"
                            + ",".join(["2"] * 24 + ["0"] * 8) + " move=S turn=0", "0", "out of range"),
    "solitaire: a negative hole": ("solitaire", "holes=-1,5,4,4,4,4/4,4,4,4,4,4 stores=0,0 select=free", "0",
                                   "out of range"),
    "magnetic cave: bricks no game can lay": ("cave", "rows=BBBBBBBB/......../......../......../......../"
                                              "......../......../........ move=B", "0", "as many bricks as White"),
    "magnetic cave: more moves than cells": ("cave", "rows=......../......../......../......../......../......../"
                                             "......../........ move=B", "65", "lasts at most 64"),
}


@pytest.fixture
def no_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail if any game replays or parses a move: a hostile file must be refused before that."""
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a move was replayed from a file that should have been refused first")

    for name in ("kalah", "oware", "hus", "solitaire", "magnetic-cave"):
        cls = rules.game_class(name)
        monkeypatch.setattr(cls, "apply", refuse)
        monkeypatch.setattr(cls, "parse_label", refuse)


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_autosave_is_set_aside_before_any_replay_and_never_offered_again(
        case: str, tmp_path: Path, no_replay: None) -> None:
    spec, start, moves, words = HOSTILE[case]
    kept = Autosave(tmp_path)
    path = kept.slot_path("hostile")
    path.parent.mkdir(parents=True)
    path.write_text(_save_text(spec, start, moves), encoding="utf-8")
    games, messages = kept.games()
    assert games == [] and len(messages) == 1
    message = messages[0]
    assert message.startswith("A game in progress could not be restored (") and words in message, message
    assert "set aside" in message and "\n" not in message
    assert not path.exists() and len(list(path.parent.glob(path.name + ".bad-*"))) == 1
    assert not kept.exists() and kept.load() == (None, "") and kept.games() == ([], []), "offered for Resume again"


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_save_names_the_line_and_field_and_what_the_game_allows(case: str, no_replay: None) -> None:
    spec, start, moves, words = HOSTILE[case]
    with pytest.raises(SaveError) as caught:
        savegame.loads(_save_text(spec, start, moves))
    message = str(caught.value)
    assert message.startswith("line ") and ("(start)" in message or "(moves)" in message), message
    assert words in message and len(message) < 300


def test_a_hostile_current_position_is_refused_too() -> None:
    """A save whose start is fine but whose ``position`` line is not is refused on that line (checked before it
    is compared with the replay)."""
    start = f"pits=4,{KALAH_ROW}/4,{KALAH_ROW} stores=0,0 move=S"
    text = _save_text("kalah", start, "0", f"pits=60000,{KALAH_ROW}/4,{KALAH_ROW} stores=0,0 move=S")
    with pytest.raises(SaveError, match=r"\(position\): not a position Kalah can reach"):
        savegame.loads(text)


def test_the_move_count_is_judged_by_the_variant() -> None:
    """``moves:`` is bounded by the game's own longest game: Kalah(3,3) lasts at most 1045 moves."""
    game = rules.get_game("kalah", pits=3, seeds=3)
    assert game.max_moves == 1045
    start = game.to_text(game.initial_state())
    with pytest.raises(SaveError, match="lasts at most 1045"):
        savegame.loads(_save_text(game.spec, start, "1046"))


def test_an_ordinary_autosave_still_resumes(tmp_path: Path) -> None:
    game = rules.get_game("kalah")
    saved = savegame.new_game(game, (Seat(), Seat()))
    state = saved.state
    moves = []
    for _ in range(5):
        move = game.legal_moves(state)[0]
        moves.append(move)
        state = game.apply(state, move)
    kept = Autosave(tmp_path)
    assert kept.keep(savegame.SavedGame(game, saved.seats, saved.start, tuple(moves)), is_over=False) == ""
    loaded, problem = kept.load()
    assert problem == "" and loaded is not None and loaded.moves == tuple(moves)


# -- the rules' bounds themselves ---------------------------------------------------------------------------------
VARIANTS = [(name, parameters) for info in rules.list_games()
            for name, parameters in ((info.name, example) for example in rules.game_class(info.name).examples)]


@pytest.mark.parametrize(("name", "parameters"), VARIANTS, ids=[f"{n}-{p}" for n, p in VARIANTS])
def test_every_position_of_a_real_game_is_within_the_bounds(name: str, parameters: dict) -> None:
    """Random games of every variant: each position passes ``check_position`` (read back from its notation too)
    and no game lasts longer than ``max_moves`` (a bound the save reader trusts)."""
    game = rules.get_game(name, **parameters)
    for seed in range(3 if name == "hus" else 12):
        rng = random.Random(seed)
        state = game.initial_state(seed=seed)
        game.check_position(state)
        played = 0
        while not game.is_terminal(state):
            state = game.apply(state, rng.choice(game.legal_moves(state)))
            played += 1
            game.check_position(state)
            game.check_position(game.from_text(game.to_text(state)))
        assert played <= game.max_moves


def _refused(game: rules.Game, state: object, words: str) -> None:
    with pytest.raises(PositionError, match=words):
        game.check_position(state)


def test_states_made_by_hand_are_refused_with_what_the_game_allows() -> None:
    from rules.hus import HusState
    from rules.kalah import KalahState
    from rules.magnetic_cave import CaveState
    from rules.oware import OwareState
    from rules.solitaire import SolitaireState

    kalah = rules.get_game("kalah")
    _refused(kalah, KalahState((4,) * 6 + (0,) + (4,) * 6 + (0,) + (0,), 0), "15 counts, but Kalah")
    _refused(kalah, KalahState((-4, 12) + (4,) * 4 + (0,) + (4,) * 6 + (0,), 0), "-4 is not a count")
    _refused(kalah, KalahState((True,) + (4,) * 5 + (0,) + (4,) * 6 + (0,), 0), "True is not a count")
    _refused(kalah, KalahState((4,) * 6 + (0,) + (4,) * 6 + (0,), 2), "side to move")
    oware = rules.get_game("oware")
    _refused(oware, OwareState((4,) * 12, (0, 0), 0, 3, frozenset({1, 2, 3, 4})), "4 positions remembered")
    hus = rules.get_game("hus", turn_limit=40)
    side = (2,) * 24 + (0,) * 8
    _refused(hus, HusState(side + side, 0, 41), "turn limit, 40")
    solitaire = rules.get_game("solitaire")
    _refused(solitaire, SolitaireState((4,) * 12, (0, 0), 13), "select")
    cave = rules.get_game("cave")
    _refused(cave, CaveState(1, 1, 1), "both a Black and a White brick")
    _refused(cave, CaveState(1 << 3, 0, 1), "one unbroken run")
    _refused(cave, CaveState(1, 0, 1, winner=0), "winner is recorded")


def test_the_console_refuses_a_hostile_save_given_with_load_in_one_line(tmp_path: Path) -> None:
    """``stonecave text kalah --load FILE`` with 60,000 seeds in a pit: a one-line reason, no traceback, and the
    console goes on (here it meets the end of its input and leaves)."""
    import subprocess
    import sys

    path = tmp_path / "hostile.save"
    start = f"pits=60000,{KALAH_ROW}/4,{KALAH_ROW} stores=0,0 move=S"
    path.write_text(_save_text("kalah", start), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "game", "text", "kalah", "--load", str(path)], input="",
                          capture_output=True, text=True, timeout=60, cwd=Path(__file__).resolve().parents[2])
    output = done.stdout + done.stderr
    assert "Traceback" not in output
    assert "cannot load" in output and "line 6 (start): not a position Kalah can reach" in output
    assert "always has exactly 48" in output
