"""The text game manager, driven through its input stream: in process with scripted input, and as a real
``python -m game text ...`` subprocess with a pipe.
"""
from __future__ import annotations

import io
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

import rules
from ai import kalah_proofs, registry
from ai.base import SearchResult
from game import savegame
from game.console.manager import Console, main
from game.console.play import Terminal
from game.console.seats import seconds_per_move
from game.savegame import Seat
from game.session import Session

ROOT = Path(__file__).resolve().parents[2]
TWO_PLAYER = [pytest.param(info.name, id=info.name) for info in rules.list_games() if info.num_players == 2]


class PlayOn:
    """A scripted input that answers every human prompt with the first legal move until the game ends."""


class FirstMove:
    """A scripted input: the first legal move of the current position (one line)."""


class Changing:
    """A scripted input: the first legal move after which the other player is to move (no extra turn)."""


class Script(io.TextIOBase):
    """A stdin whose lines come from a list; marker items are worked out from the console's position."""

    def __init__(self, items: list) -> None:
        self.items = list(items)
        self.console: Console | None = None
        self.read = 0

    def isatty(self) -> bool:
        return False

    def readline(self, size: int = -1) -> str:
        while self.items:
            item = self.items[0]
            session = self.console.session if self.console else None
            if isinstance(item, PlayOn):
                if session is None or session.is_over:
                    self.items.pop(0)
                    continue
                return self._line(self._first(session))
            self.items.pop(0)
            if isinstance(item, FirstMove):
                return self._line(self._first(session))
            if isinstance(item, Changing):
                game, state = session.game, session.state
                move = next(m for m in game.legal_moves(state) if game.to_move(game.apply(state, m)) != game.to_move(state))
                return self._line(game.move_label(state, move))
            return self._line(item)
        return ""

    def _line(self, text: str) -> str:
        self.read += 1
        return text + "\n"

    @staticmethod
    def _first(session: Session) -> str:
        game, state = session.game, session.state
        return game.move_label(state, game.legal_moves(state)[0])


def drive(items: list, game: str = "kalah", seats: dict[int, Seat] | None = None, load: str | None = None,
          seconds: float = 0.2):
    """Run a Console over scripted input; returns (exit code, output, console)."""
    script = Script(items)
    out = io.StringIO()
    console = Console(rules.parse_game_spec(game), Terminal(script, out), seats, seconds=seconds)
    script.console = console
    code = console.run(load)
    return code, out.getvalue(), console


def invalid_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if "Invalid input" in line]


HUMAN_VS_RANDOM = ["new", "human", "random"]


# -- a whole game --------------------------------------------------------------------------------------------
def test_a_kalah_game_against_the_random_player_to_the_end():
    code, output, console = drive(HUMAN_VS_RANDOM + [PlayOn(), "quit"])
    assert code == 0
    session = console.session
    assert session.is_over
    outcome = session.game.outcome(session.state)
    result = "a draw" if outcome.winner is None else f"{session.game.player_names[outcome.winner]} wins"
    assert f"Game over after {len(session.moves)} moves: {result}" in output
    assert f"Score: South {outcome.scores[0]}, North {outcome.scores[1]}." in output
    assert output.rstrip().endswith("Goodbye.")
    assert output.count("North plays") >= 1 and output.count("thinking: depth") == output.count("North plays")
    for state in session.states:  # the board is shown after every move
        assert session.game.render(state) in output
    assert invalid_lines(output) == []


def test_the_board_and_whose_turn_follow_every_move():
    code, output, console = drive(HUMAN_VS_RANDOM + [Changing(), "quit", "quit", "no"])
    game = console.session.game
    after = console.session.states
    for state in after:
        assert game.render(state) in output
    assert "Move 1: South to move (human)." in output
    assert f"Move {len(after)}: South to move (human)." in output
    assert "North (random) is thinking" in output


def test_help_lists_the_commands_and_the_legal_moves():
    code, output, console = drive(HUMAN_VS_RANDOM + ["help", "quit", "quit", "no"])
    assert "Legal moves: 1, 2, 3, 4, 5, 6" in output
    for command in ("undo", "redo", "hint", "save [FILE]", "quit"):
        assert command in output


def test_undo_takes_back_the_computer_reply_too_and_redo_replays_it():
    code, output, console = drive(HUMAN_VS_RANDOM + [Changing(), "undo", "redo", "undo", "quit", "quit", "no"])
    session = console.session
    assert "Took back 2 moves." in output
    assert "Replayed 2 moves." in output
    assert session.moves == [] and session.states == [session.game.initial_state()]
    assert session.undone and len(session.undone) == 2


def test_undo_in_a_human_game_takes_back_one_move_and_a_new_move_forgets_redo():
    script = ["new", "human", "human", FirstMove(), FirstMove(), "undo", FirstMove(), "redo", "quit", "quit", "no"]
    code, output, console = drive(script)
    assert "Took back 1 move." in output
    assert len(console.session.moves) == 2
    assert invalid_lines(output)[-1].startswith("Invalid input: there is no undone move to replay")


def test_hint_at_the_start_is_the_opening_proofs_move_in_words():
    code, output, console = drive(HUMAN_VS_RANDOM + ["hint", "quit", "quit", "no"])
    hint = next(line for line in output.splitlines() if line.startswith("Hint: "))
    move = hint.split()[1]
    game = console.session.game
    state = game.initial_state()
    assert game.parse_label(state, move) in game.legal_moves(state)
    # the start of Kalah(6,4) is in the shipped opening proof: the hint is its move and its proven value
    proven = kalah_proofs.proof_for(game).lookup(state)
    assert game.parse_label(state, move) == proven.move
    assert f"Pit {move} wins by {proven.value}, proven." in hint and "the analysis" in hint and "score" not in hint


def test_hint_off_the_opening_proof_keeps_the_engines_depth(monkeypatch):
    monkeypatch.setattr(kalah_proofs, "proof_for", lambda game: None)  # a position no proof holds
    code, output, console = drive(HUMAN_VS_RANDOM + ["hint", "quit", "quit", "no"])
    hint = next(line for line in output.splitlines() if line.startswith("Hint: "))
    move = hint.split()[1]
    game = console.session.game
    assert game.parse_label(game.initial_state(), move) in game.legal_moves(game.initial_state())
    # Kalah's hint is the analysis's best move, in words; the console keeps the engine's details (the depth)
    assert f"Pit {move}: " in hint and " plies)." in hint and "the analysis" in hint and "score" not in hint


def test_analyse_at_the_start_reads_no_move_above_the_proven_value():
    """The proof says pit 3 wins by 10; a move only searched read "about 13 seeds ahead" beside it."""
    code, output, console = drive(HUMAN_VS_RANDOM + ["analyse 2", "quit", "quit", "no"])
    rows = [line for line in output.splitlines() if line.startswith("  pit ")]
    assert len(rows) == 6 and "wins by 10" in rows[0] and "proven (opening proof)" in rows[0], rows
    ahead = [int(found) for row in rows for found in re.findall(r"about (\d+) seeds? ahead", row)]
    assert all(seeds <= 10 for seeds in ahead), rows


def test_a_kalah_hint_on_a_small_board_says_what_is_proven():
    small = "kalah:pits=3,seeds=2"  # 12 seeds: the prover solves the whole game in a few hundred nodes
    # 5 s, not the suite's 0.2 s: a fresh 64 MB table's first pages can take a loaded machine a tenth of a second
    code, output, console = drive(["new", "human", "random", "hint", "quit", "quit", "no"], game=small, seconds=5)
    hint = next(line for line in output.splitlines() if line.startswith("Hint: "))
    assert ", proven" in hint or "Every move loses; " in hint, hint
    value = registry.make_engine(console.session.game, "solver").search(console.session.game.initial_state()).score
    assert (f"wins by {int(value)}, proven" if value > 0 else "draws, proven" if value == 0 else
            f"loses least (by {-int(value)})") in hint


# -- bad input -----------------------------------------------------------------------------------------------
def test_every_kind_of_bad_input_gets_invalid_input_and_the_prompt_again(tmp_path):
    script = [
        "", "play", "new extra",                         # menu: empty, unknown, unexpected word
        "new", "robot", "alphabet:depth=3", "human",     # seat: nonsense, unknown engine
        "random:seed=x", "random",                       # bad engine parameter
        "", "9", "-1", "banana", "undo", "redo",         # game: empty, illegal, nonsense, nothing to undo/redo
        f"save {tmp_path / 'no' / 'such' / 'dir.save'}", "cancel",   # a file name that cannot be written
        "quit", "resume extra", "load", str(tmp_path / "missing.save"), "cancel",
        "quit", "maybe", "no",
    ]
    code, output, console = drive(script)
    bad = invalid_lines(output)
    assert len(bad) == 16, "\n".join(bad)
    assert all(line.startswith("Invalid input: ") and "Valid: " in line for line in bad)
    assert "Invalid input: an empty line. Valid: new, load [FILE], quit." in bad
    assert any("'alphabet:depth=3' is neither a player, a level nor an engine of Kalah" in line for line in bad)
    assert any("seed must be" in line for line in bad)
    assert any("pit 9 does not exist: your pits are numbered 1..6" in line and "a move (1, 2, 3, 4, 5, 6)" in line
               for line in bad)
    assert any("'-1' is not a pit number: type one of your pits 1..6" in line for line in bad)
    assert any("cannot write" in line for line in bad)
    assert any("cannot load" in line for line in bad)
    assert any("'maybe' is not an answer. Valid: yes or no." in line for line in bad)
    # Each bad answer is followed by the same question again.
    lines = output.splitlines()
    for index, line in enumerate(lines):
        if line.startswith("Invalid input: ") and ("not a pit number" in line or "does not exist" in line):
            assert lines[index + 1].startswith("South> ")
    assert console.session.moves == []
    assert code == 0


def test_a_seat_prompt_names_only_this_games_players_and_engines():
    code, output, console = drive(["new", "bfs", "quit"], game="cave")
    (bad,) = invalid_lines(output)
    assert "'bfs' is neither a player, a level nor an engine of Magnetic Cave" in bad
    valid = bad.partition("Valid: ")[2]
    assert "alphabeta" in valid and "pvs" in valid
    single_agent = {info.name for info in registry.engines() if info.kind == "single-agent"}
    assert single_agent and not any(name in valid.replace(",", " ").split() for name in single_agent)


def test_cancel_at_a_seat_prompt_keeps_the_game_in_progress_and_quit_leaves():
    script = HUMAN_VS_RANDOM + [Changing(), "quit", "new", "human", "cancel", "resume", "quit", "new", "quit", "no"]
    code, output, console = drive(script)
    assert code == 0 and invalid_lines(output) == []
    assert len(console.session.moves) == 2  # the game before the cancelled new one, resumed and kept
    assert output.count("Start menu:") == 4  # at the start, after each quit from the game and after the cancel
    assert "Save the unfinished game before leaving? (yes/no)" in output
    assert output.rstrip().endswith("Goodbye.")


def test_one_move_is_counted_in_the_singular(tmp_path):
    path = tmp_path / "one.save"
    code, output, console = drive(["new", "human", "human", FirstMove(), f"save {path}", "undo", "quit", "quit", "no"])
    assert f"Saved to {path} (1 move)." in output
    assert "Took back 1 move." in output


# -- save, quit, load, continue ------------------------------------------------------------------------------
def test_save_quit_load_and_continue_exactly_where_it_stopped(tmp_path):
    path = tmp_path / "game.save"
    script = HUMAN_VS_RANDOM + [Changing(), Changing(), FirstMove(), f"save {path}", "quit", "quit"]
    code, output, first = drive(script)
    assert f"Saved to {path}" in output
    assert "Save the unfinished game" not in output  # nothing unsaved: leaving asks nothing
    saved = first.session

    code, output, second = drive(["load", str(path), "quit", "quit"])
    assert f"Loaded {path}" in output
    resumed = second.session
    assert resumed.state == saved.state
    assert resumed.states == saved.states and resumed.moves == saved.moves
    assert resumed.seats == (Seat(), Seat("random", 0.2))
    # The undo history was rebuilt: undo goes back to the previous human decision.
    code, output, third = drive([PlayOn(), "quit"], load=str(path))
    assert third.session.is_over and third.session.moves[: len(saved.moves)] == saved.moves
    assert "Game over after" in output


def test_quit_then_leave_asks_whether_to_save(tmp_path):
    path = tmp_path / "left.save"
    code, output, console = drive(HUMAN_VS_RANDOM + [Changing(), "quit", "quit", "yes", str(path)])
    assert "Save the unfinished game before leaving? (yes/no)" in output
    loaded = savegame.load(path)
    assert loaded.state == console.session.state
    assert not (tmp_path / "kalah.save").exists()


def test_leaving_without_saving_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, output, console = drive(HUMAN_VS_RANDOM + [Changing(), "quit", "quit", "no"])
    assert list(tmp_path.iterdir()) == []
    assert output.rstrip().endswith("Goodbye.")


def test_a_bad_file_leaves_the_game_in_progress_untouched(tmp_path):
    bad = tmp_path / "bad.save"
    bad.write_text("StoneCave save 1\ngame: kalah\nseat South: human\n")
    code, output, console = drive(HUMAN_VS_RANDOM + [Changing(), "quit", f"load {bad}", "cancel", "resume",
                                                      "quit", "quit", "no"])
    assert any("cannot load" in line and "line 4" in line and "ends early" in line for line in invalid_lines(output))
    assert len(console.session.moves) == 2  # the human move and the reply, still there after the failed load


def test_a_save_of_another_game_is_refused(tmp_path):
    other = next(info.name for info in rules.list_games() if info.name != "kalah")
    path = tmp_path / "other.save"
    game = rules.get_game(other)
    savegame.save(path, savegame.new_game(game, (Seat(), Seat())))
    code, output, console = drive([f"load {path}", "cancel", "quit"])
    assert any(f"this is a save of {game.title}, not Kalah" in line for line in invalid_lines(output))
    assert console.session is None


# -- computer players ----------------------------------------------------------------------------------------
class Recorder:
    """A fake engine that records what it was given and answers with a chosen move."""

    calls: list = []

    def __init__(self, game, answer):
        self.game, self.answer = game, answer

    def search(self, state, limits=None, cancel=None, progress=None):
        Recorder.calls.append((state, limits))
        move = self.answer(self.game, state)
        return SearchResult(move, 1.5, 3, 42, (move,), 0.01)


def fake_engines(monkeypatch, answer):
    Recorder.calls = []
    monkeypatch.setattr(registry, "make_engine", lambda game, spec: Recorder(game, answer))


def test_an_illegal_computer_move_is_reported_and_not_played(monkeypatch):
    fake_engines(monkeypatch, lambda game, state: 99)
    code, output, console = drive(HUMAN_VS_RANDOM + [Changing(), "quit", "no"])
    assert "chose an illegal move 99" in output
    assert len(console.session.moves) == 1  # only the human's move
    assert code == 0


def test_a_computer_gets_the_position_and_the_games_time_limit(monkeypatch):
    fake_engines(monkeypatch, lambda game, state: game.legal_moves(state)[-1])
    game = rules.get_game("kalah")
    script = Script(["new", "human", Changing(), "quit", "quit", "no"])
    out = io.StringIO()
    console = Console(game, Terminal(script, out), {1: Seat("random")})
    script.console = console
    console.run()
    state, limits = Recorder.calls[0]
    assert state == console.session.states[1] and limits.time == 1.0
    assert "thinking: depth 3, score +1.50, 42 nodes" in out.getvalue()


def test_a_hint_analyses_for_the_consoles_time_else_the_games_limit_for_a_later_move(monkeypatch):
    from ai import analysis
    from game.console import play

    asked = []

    def recording(game, state, limits, cancel=None):  # type: ignore[no-untyped-def]
        asked.append(limits.time)
        return analysis.analyse(game, state, type(limits)(depth=2))

    monkeypatch.setattr(play, "analyse", recording)
    code, output, console = drive(HUMAN_VS_RANDOM + ["hint", "quit", "quit", "no"])
    assert asked == [0.2]  # drive gives the console 0.2 s
    assert any(line.startswith("Hint: ") for line in output.splitlines())
    asked.clear()
    script = Script(["new", "human", "human", "hint", "quit", "quit", "no"])
    console = Console(rules.get_game("hus"), Terminal(script, io.StringIO()))
    script.console = console
    console.run()
    assert asked == [2.0]  # not the 30 s of a Hus player's first move


def test_time_limits_per_game():
    human = Seat("random")
    assert seconds_per_move(rules.get_game("kalah"), human, first_move=False) == 1.0
    assert seconds_per_move(rules.get_game("kalah"), Seat("random", 0.5), first_move=True) == 0.5
    names = {info.name for info in rules.list_games()}
    expected = {"oware": (1.0, 1.0), "hus": (30.0, 2.0), "magnetic-cave": (3.0, 3.0)}
    for name, (first, later) in expected.items():
        if name in names:
            game = rules.get_game(name)
            assert (seconds_per_move(game, human, True), seconds_per_move(game, human, False)) == (first, later)


def test_computer_against_computer_plays_through_without_input():
    code, output, console = drive(["new", "random:seed=1", "random:seed=2", "quit"])
    assert console.session.is_over and "Game over after" in output
    assert invalid_lines(output) == []


def test_the_same_settings_give_the_same_game():
    games = [drive(["new", "random:seed=4", "random:seed=9", "quit"])[2].session.moves for _ in range(2)]
    assert games[0] == games[1]


# -- end of input and the command line -----------------------------------------------------------------------
@pytest.mark.parametrize("cut", [0, 1, 2, 4, 6])
def test_end_of_input_anywhere_leaves_cleanly(cut):
    script = (HUMAN_VS_RANDOM + [Changing(), "save"])[:cut]
    code, output, console = drive(script)
    assert code == 0
    assert "End of input: leaving StoneCave" in output
    if cut >= 4:
        assert "(the game in progress was not saved)" in output


def test_command_line_seats_skip_the_questions():
    out = io.StringIO()
    code = main(["kalah:pits=3,seeds=2", "--south", "random:seed=3", "--north=computer", "--time", "0.1"],
                io.StringIO("new\nquit\n"), out)
    assert code == 0
    assert "Who plays" not in out.getvalue()
    assert "Kalah (kalah:pits=3,seeds=2,empty_capture=true). South: computer random:seed=3" in out.getvalue()
    assert "Game over after" in out.getvalue()


@pytest.mark.parametrize("argv, message", [
    ([], "name the game first"),
    (["chess"], "unknown game 'chess'"),
    (["kalah:pits=0"], "pits must be"),
    (["kalah", "--black", "human"], "unknown option --black"),
    (["kalah", "--south"], "--south needs a value"),
    (["kalah", "--north", "grandmaster"], "'grandmaster' is neither a player, a level nor an engine of Kalah"),
    (["kalah", "--time", "-2"], "--time must be a number of seconds from 0.001 to 3600"),
    (["kalah", "stray"], "unexpected 'stray'"),
])
def test_a_bad_command_line_says_what_is_wrong(argv, message):
    out = io.StringIO()
    assert main(argv, io.StringIO(""), out) == 2
    assert message in out.getvalue()


def test_solitaire_goes_to_its_own_console(monkeypatch):
    seen = []
    fake = types.ModuleType("game.console.solitaire")
    fake.main = lambda argv: seen.append(argv) or 7
    monkeypatch.setitem(sys.modules, "game.console.solitaire", fake)
    import game.console

    monkeypatch.setattr(game.console, "solitaire", fake, raising=False)
    assert main(["solitaire:variant=dose", "--seed", "3"]) == 7
    assert seen == [["solitaire:variant=dose", "--seed", "3"]]


# -- every two-player game -----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", TWO_PLAYER)
def test_each_game_plays_saves_loads_and_finishes(name, tmp_path):
    path = tmp_path / f"{name}.save"
    game = rules.get_game(name)
    first_name = game.player_names[0].lower()
    script = ["new", "human", "random", "help", "", "nonsense-move", FirstMove(), "undo", FirstMove(),
              f"save {path}", "quit", "quit"]
    code, output, console = drive(script, game=name)
    assert code == 0
    assert len(invalid_lines(output)) == 2
    assert "Took back" in output
    saved = console.session
    assert savegame.load(path).state == saved.state

    code, output, resumed = drive(["load", str(path), PlayOn(), "quit"], game=name)
    assert resumed.session.moves[: len(saved.moves)] == saved.moves
    assert resumed.session.is_over
    assert "Game over after" in output
    assert first_name in output.lower()


# -- a real subprocess ---------------------------------------------------------------------------------------
def expected_game(game, seats: dict[int, str]) -> tuple[list[str], object]:
    """The moves a first-legal-move human types against deterministic engines, and the final state."""
    state = game.initial_state()
    typed = []
    while not game.is_terminal(state):
        player = game.to_move(state)
        if player in seats:
            move = registry.make_engine(game, seats[player]).search(state).move
        else:
            move = game.legal_moves(state)[0]
            typed.append(game.move_label(state, move))
        state = game.apply(state, move)
    return typed, state


def run_subprocess(argv: list[str], stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "game", "text", *argv], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=120, encoding="utf-8")


def test_a_real_subprocess_plays_kalah_through_a_pipe(tmp_path):
    game = rules.get_game("kalah")
    typed, final = expected_game(game, {1: "random:seed=7"})
    path = tmp_path / "pipe.save"
    lines = ["new", "", "random:seed=7", "help", "undo", "bogus", typed[0], "undo", *typed, f"save {path}", "quit"]
    result = run_subprocess(["kalah"], "\n".join(lines) + "\n")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    outcome = game.outcome(final)
    assert f"Score: South {outcome.scores[0]}, North {outcome.scores[1]}." in result.stdout
    assert len(invalid_lines(result.stdout)) == 2
    assert savegame.load(path).state == final


def test_a_real_subprocess_leaves_cleanly_at_the_end_of_input():
    result = run_subprocess(["kalah"], "new\nhuman\n")
    assert result.returncode == 0
    assert "End of input" in result.stdout
    assert "Traceback" not in result.stderr and result.stderr == ""


def test_magnetic_cave_seats_are_black_and_white():
    out = io.StringIO()
    code = main(["cave", "--black", "random:seed=5", "--white", "random:seed=6", "--time", "0.1"],
                io.StringIO("new\nquit\n"), out)
    assert code == 0
    assert "Black: computer random:seed=5, White: computer random:seed=6" in out.getvalue()
    assert "Game over after" in out.getvalue()
    assert main(["cave", "--south", "human"], io.StringIO(""), io.StringIO()) == 2


def test_quit_at_the_file_prompt_cancels_instead_of_saving_a_file_named_quit(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, output, console = drive(HUMAN_VS_RANDOM + ["save", "quit", "quit", "no"])
    assert code == 0
    assert not (tmp_path / "quit").exists() and list(tmp_path.iterdir()) == []
    assert len(console.session.moves) == 0
