"""The common save format: round trips for every game, atomic writes, and a precise refusal of every bad file."""
from __future__ import annotations

import os
import random

import pytest

import rules
from game import savegame
from game.savegame import SavedGame, SaveError, Seat


def random_game(name: str, plies: int, seed: int = 3, seats: tuple[Seat, ...] | None = None) -> SavedGame:
    """A game of ``name`` after up to ``plies`` random moves from a start dealt with ``seed``."""
    game = rules.get_game(name)
    rng = random.Random(seed)
    state = game.initial_state(seed=seed)
    start, moves = state, []
    for _ in range(plies):
        if game.is_terminal(state):
            break
        move = rng.choice(game.legal_moves(state))
        moves.append(move)
        state = game.apply(state, move)
    if seats is None:
        seats = tuple(Seat() for _ in range(game.num_players))
    return SavedGame(game, seats, start, tuple(moves), seed)


def kalah_text() -> str:
    saved = random_game("kalah", 12, seats=(Seat(), Seat("random:seed=5", 1.5)))
    return savegame.dumps(saved)


def test_kalah_round_trip_keeps_every_field(tmp_path):
    saved = random_game("kalah", 12, seats=(Seat(), Seat("random:seed=5", 1.5)))
    path = tmp_path / "kalah.save"
    savegame.save(path, saved)
    loaded = savegame.load(path)
    assert loaded == saved
    assert loaded is not saved
    assert loaded.seats == (Seat(), Seat("random:seed=5", 1.5))
    assert loaded.seed == 3
    assert loaded.states == saved.states  # the undo history is rebuilt move by move
    assert loaded.state == saved.state
    assert loaded.game.spec == "kalah:pits=6,seeds=4,empty_capture=true"


def test_kalah_variant_parameters_survive():
    game = rules.parse_game_spec("kalah:pits=4,seeds=3,empty_capture=false")
    saved = SavedGame(game, (Seat(), Seat()), game.initial_state(), (0, 3), None)
    loaded = savegame.loads(savegame.dumps(saved))
    assert loaded.game == game and loaded.game.parameters["empty_capture"] is False
    assert loaded.state == game.apply(game.apply(game.initial_state(), 0), 3)


GAMES = [pytest.param(info.name, id=info.name) for info in rules.list_games()]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("plies", [0, 7, 10_000])
def test_every_game_round_trips(name, plies):
    saved = random_game(name, plies, seed=plies + 1)
    text = savegame.dumps(saved)
    loaded = savegame.loads(text)
    assert loaded == saved
    assert loaded.game.to_text(loaded.state) == saved.game.to_text(saved.state)
    assert savegame.dumps(loaded) == text


@pytest.mark.parametrize("name", GAMES)
def test_every_game_refuses_a_changed_move(name):
    """Swapping one recorded move for another legal one must trip the position check."""
    saved = random_game(name, 40, seed=9)
    game = saved.game
    for index, (before, move) in enumerate(zip(saved.states, saved.moves)):
        others = [m for m in game.legal_moves(before) if m != move]
        if not others:
            continue
        lines = savegame.dumps(saved).splitlines()
        number = next(i for i, line in enumerate(lines, start=1) if line.startswith(f"move {index + 1}:"))
        lines[number - 1] = f"move {index + 1}: {game.format_move(before, others[0])}"
        with pytest.raises(SaveError) as caught:
            savegame.loads("\n".join(lines) + "\n")
        assert caught.value.line is not None and caught.value.line >= number
        return
    pytest.fail("no position with two legal moves in 40 random plies")


def test_hand_edits_that_keep_the_meaning_are_accepted():
    text = kalah_text().replace("\n", "\r\n")
    text = text.replace("moves:", "# a comment the player added\r\n\r\nmoves:", 1)
    text = text.replace("game: ", "game:   ", 1)
    assert savegame.loads(text) == savegame.loads(kalah_text())


def test_loading_returns_a_new_object_and_leaves_the_callers_game_alone(tmp_path):
    mine = random_game("kalah", 5)
    before = (mine.states, mine.moves)
    path = tmp_path / "other.save"
    savegame.save(path, random_game("kalah", 9, seed=11))
    other = savegame.load(path)
    assert other != mine
    assert (mine.states, mine.moves) == before


# -- atomic writing ------------------------------------------------------------------------------------------
def test_a_failed_rename_leaves_the_old_save_whole(tmp_path, monkeypatch):
    path = tmp_path / "game.save"
    old = random_game("kalah", 4)
    savegame.save(path, old)
    old_bytes = path.read_bytes()

    def crash(*args, **kwargs):
        raise OSError("simulated crash during rename")

    monkeypatch.setattr(savegame.os, "replace", crash)
    with pytest.raises(OSError, match="simulated"):
        savegame.save(path, random_game("kalah", 20))
    assert path.read_bytes() == old_bytes
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.save"]  # no temporary file left behind
    monkeypatch.undo()
    assert savegame.load(path) == old


def test_a_crash_in_the_middle_of_writing_leaves_the_old_save_whole(tmp_path, monkeypatch):
    path = tmp_path / "game.save"
    old = random_game("kalah", 4)
    savegame.save(path, old)
    old_bytes = path.read_bytes()
    real_fdopen = os.fdopen

    class HalfWriter:
        """Writes half of what it is given, then fails like a full disk."""

        def __init__(self, stream):
            self.stream = stream

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.stream.close()

        def write(self, data):
            self.stream.write(data[: len(data) // 2])
            self.stream.flush()
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(savegame.os, "fdopen", lambda fd, mode: HalfWriter(real_fdopen(fd, mode)))
    with pytest.raises(OSError):
        savegame.save(path, random_game("kalah", 30))
    assert path.read_bytes() == old_bytes
    assert [p.name for p in tmp_path.iterdir()] == ["game.save"]


def test_saving_into_a_missing_folder_fails_cleanly(tmp_path):
    with pytest.raises(OSError):
        savegame.save(tmp_path / "missing" / "game.save", random_game("kalah", 2))
    assert not (tmp_path / "missing").exists()


def test_a_new_save_replaces_the_old_one_and_keeps_its_permissions(tmp_path):
    path = tmp_path / "game.save"
    savegame.save(path, random_game("kalah", 2))
    os.chmod(path, 0o640)
    newer = random_game("kalah", 8)
    savegame.save(path, newer)
    assert savegame.load(path) == newer
    assert path.stat().st_mode & 0o777 == 0o640


# -- refusing bad files --------------------------------------------------------------------------------------
def line_of(text: str, prefix: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), start=1) if line.startswith(prefix))


def edit(prefix: str, replacement: str):
    """A corruption that replaces the line starting with ``prefix``; returns (new text, that line's number)."""

    def apply(text: str) -> tuple[str, int]:
        lines = text.splitlines()
        number = line_of(text, prefix)
        lines[number - 1] = replacement
        return "\n".join(lines) + "\n", number

    return apply


def fixed(new_text: str, line: int):
    return lambda text: (new_text, line)


CORRUPTIONS = [
    ("empty file", fixed("", 1), "empty"),
    ("blank lines only", fixed("\n\n  \n", 1), "empty"),
    ("bad magic", edit("StoneCave save", "KalahSave 1"), "not a StoneCave save"),
    ("missing version", edit("StoneCave save", "StoneCave save"), "version"),
    ("unknown version", edit("StoneCave save", "StoneCave save 99"), "version 99 is not supported"),
    ("unknown game", edit("game:", "game: chess"), "unknown game 'chess'"),
    ("bad parameter value", edit("game:", "game: kalah:pits=99"), "pits must be from 1 to 12"),
    ("unknown parameter", edit("game:", "game: kalah:colour=red"), "unknown parameter 'colour'"),
    ("malformed parameter", edit("game:", "game: kalah:pits"), "expected key=value"),
    ("missing game line", edit("game:", "gmae: kalah"), "expected 'game:"),
    ("bad seat", edit("seat South:", "seat South: robot"), "expected 'human' or 'engine SPEC"),
    ("unknown engine", edit("seat North:", "seat North: engine grandmaster"), "unknown engine 'grandmaster'"),
    ("bad engine parameter", edit("seat North:", "seat North: engine random:seed=x"), "seed must be"),
    ("bad time", edit("seat North:", "seat North: engine random time=-1"), "time must be a number of seconds from 0.001 to 3600"),
    ("seat of another game", edit("seat South:", "seat Black: human"), "expected 'seat South:"),
    ("bad seed", edit("seed:", "seed: lucky"), "expected a whole number or none"),
    ("bad start", edit("start:", "start: pits=4,4/4,4 stores=0,0 move=S"), "not a Kalah position"),
    ("bad move count", edit("moves:", "moves: many"), "expected the number of moves"),
    ("illegal move", edit("move 3:", "move 3: 42"), "illegal move '42'"),
    ("nonsense move", edit("move 5:", "move 5: banana"), "illegal move 'banana'"),
    ("move out of order", edit("move 2:", "move 4: 1"), "expected 'move 2:"),
    ("position mismatch", edit("position:", "position: pits=4,4,4,4,4,4/4,4,4,4,4,4 stores=0,0 move=S"),
     "does not match the moves"),
    ("bad position", edit("position:", "position: chaos"), "not a Kalah position"),
    ("missing end", edit("end", "# end"), "ends early"),
    ("text after end", lambda text: (text + "move 13: 1\n", len(text.splitlines()) + 1), "after 'end'"),
    ("count larger than moves", lambda text: (text.replace("moves: 12", "moves: 13"), line_of(text, "position:")),
     "expected 'move 13:"),
]


@pytest.mark.parametrize("corrupt, message", [pytest.param(c, m, id=i) for i, c, m in CORRUPTIONS])
def test_every_kind_of_corruption_is_refused_with_line_and_reason(corrupt, message):
    text, line = corrupt(kalah_text())
    with pytest.raises(SaveError) as caught:
        savegame.loads(text)
    assert message in str(caught.value)
    assert caught.value.line == line
    assert str(caught.value).startswith(f"line {line}")


@pytest.mark.parametrize("cut", [1, 40, 120, 200, -30, -4])
def test_a_truncated_file_is_refused(cut):
    text = kalah_text()
    with pytest.raises(SaveError) as caught:
        savegame.loads(text[:cut])
    assert caught.value.line is not None


def test_binary_garbage_is_refused(tmp_path):
    path = tmp_path / "garbage.save"
    path.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(SaveError, match="binary data"):
        savegame.load(path)
    path.write_bytes(kalah_text().encode() + b"\xff\xfe")
    with pytest.raises(SaveError, match="not UTF-8") as caught:
        savegame.load(path)
    assert caught.value.line == len(kalah_text().splitlines()) + 1


def test_a_huge_file_is_refused_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(savegame, "MAX_BYTES", 100)
    path = tmp_path / "big.save"
    path.write_text(kalah_text())
    with pytest.raises(SaveError, match="larger than"):
        savegame.load(path)


def test_a_save_of_another_game_is_refused_when_a_game_is_expected(tmp_path):
    path = tmp_path / "kalah.save"
    savegame.save(path, random_game("kalah", 3))
    other = next(info.name for info in rules.list_games() if info.name != "kalah")
    with pytest.raises(SaveError, match="this is a save of Kalah") as caught:
        savegame.load(path, expect_game=other)
    assert caught.value.field == "game"
    assert savegame.load(path, expect_game="kalah").game.name == "kalah"


def test_a_folder_and_a_missing_file_are_refused(tmp_path):
    with pytest.raises(SaveError, match="folder"):
        savegame.load(tmp_path)
    with pytest.raises(FileNotFoundError):
        savegame.load(tmp_path / "nothing.save")


@pytest.mark.parametrize("text", ["human", "engine random", "engine random:seed=4 time=2.5"])
def test_seat_text_round_trips(text):
    assert Seat.from_text(text).to_text() == text


@pytest.mark.parametrize("text", ["", "robot", "engine", "engine a b c", "engine random speed=2", "human human"])
def test_bad_seat_text_is_refused(text):
    with pytest.raises(ValueError):
        Seat.from_text(text)


def test_a_saved_game_needs_one_seat_per_player_and_legal_moves():
    game = rules.get_game("kalah")
    with pytest.raises(ValueError, match="2 seats"):
        SavedGame(game, (Seat(),), game.initial_state())
    with pytest.raises(rules.IllegalMoveError):
        SavedGame(game, (Seat(), Seat()), game.initial_state(), (2, 2))  # pit 2 sows into the store: South again, pit 2 empty
