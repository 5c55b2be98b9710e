"""``stonecave solve`` met with hostile options and positions, and Ctrl-C (issue 31): a one-line message and
exit code 2 for bad input, checked before anything is allocated; pits named from 1 as on the board; a proof
that stops within a second of Ctrl-C.  Subprocesses with timeouts, small variants."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import ai.core
from ai import tables

pytestmark = pytest.mark.skipif(ai.core.module() is None, reason="the prover runs on the compiled core")

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "STONECAVE_TABLES": ""}


def solve(*argv: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "game", "solve", *argv], capture_output=True, text=True,
                          timeout=timeout, env=ENV, cwd=ROOT, stdin=subprocess.DEVNULL)


def one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1, result.stderr
    return result.stderr


# -- 6. --memory -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("memory", ["nan", "-1", "0", "1e12", "99999999", "inf", "٣", "１６", "", "0x10"])
def test_memory_is_checked_with_its_range_before_anything_is_allocated(memory: str) -> None:
    error = one_line_error(solve("kalah:pits=3,seeds=2", "--no-tables", "--memory", memory))
    assert "--memory is a number of MB from 1 to" in error and "half this machine's memory" in error


def test_a_sane_memory_is_accepted() -> None:
    result = solve("kalah:pits=3,seeds=2", "--no-tables", "--no-pv", "--memory", "8.5")
    assert result.returncode == 0 and "value:" in result.stdout


@pytest.mark.parametrize("seconds", ["nan", "-3", "1e9", "٣"])
def test_pv_seconds_is_checked_too(seconds: str) -> None:
    assert "--pv-seconds is a number of seconds" in one_line_error(
        solve("kalah:pits=3,seeds=2", "--no-tables", "--pv-seconds", seconds))


# -- 7. positions bounded by the variant -------------------------------------------------------------------------
@pytest.mark.parametrize("position", [
    "pits=65536,0,0,0/0,0,0,0 stores=0,0 move=S",
    "pits=3,3,3,3/3,3,3,3 stores=0,99999999999999999999 move=S",
    "pits=0,0,0,1/0,0,0,0 stores=0,0 move=S",
])
def test_a_position_must_hold_the_variants_seeds(position: str) -> None:
    error = one_line_error(solve("kalah:pits=4,seeds=3", "--no-tables", "--position", position))
    assert "--position: " in error or "out of range" in error or "whole number" in error
    assert "always has exactly 24" in error or "range" in error or "whole number" in error


def test_a_position_of_the_variant_is_solved() -> None:
    result = solve("kalah:pits=4,seeds=3", "--no-tables", "--no-pv", "--position",
                   "pits=0,0,0,1/0,0,0,1 stores=11,11 move=S")
    assert result.returncode == 0 and "value: +0 for South" in result.stdout


# -- 9. pits numbered from 1 -------------------------------------------------------------------------------------
def test_solve_names_pits_as_the_board_does() -> None:
    """Kalah(4,3): the best first move is the second pit from South's left (index 1), "pit 2" everywhere."""
    from ai.kalah_solve import KalahProver
    from rules import get_game

    game = get_game("kalah", pits=4, seeds=3)
    proof = KalahProver(game, None, 16).prove_by_tests(game.initial_state())
    result = solve("kalah:pits=4,seeds=3", "--no-tables")
    assert result.returncode == 0
    assert f"best move: pit {proof.move + 1}" in result.stdout
    line = result.stdout.split("from each mover's left): ")[1].split()
    assert set(line) <= {"1", "2", "3", "4"} and "0" not in line
    state = game.initial_state()
    for label in line:                                       # the line plays out on the board as printed
        state = game.apply(state, game.parse_label(state, label))
    assert game.is_terminal(state) and game.outcome(state).margin(0) == proof.value


# -- 8. Ctrl-C ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", [["--prover", "pvs"], ["--deepening"], ["--prover", "board"], []])
def test_ctrl_c_stops_a_proof_within_a_second_with_a_message(mode: list[str]) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "game", "solve", "kalah:pits=6,seeds=5", "--no-tables", "--memory", "64", *mode],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV, cwd=ROOT,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert process.stdout is not None
    assert process.stdout.readline().startswith("plan: no endgame tables")   # stated before any work
    if "pvs" in mode or "--deepening" in mode:
        assert "depth" in process.stdout.readline()          # the proof is under way
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    sent = time.perf_counter()
    try:
        out, err = process.communicate(timeout=10)
    finally:
        process.kill()
    assert time.perf_counter() - sent < 2.0
    assert process.returncode == 130 and "stopped by Ctrl-C" in err and "Traceback" not in err, err


# -- smaller: a small game with tables is as quick as without ----------------------------------------------------
def test_a_small_game_reads_only_its_layers_and_a_table_of_its_size(tmp_path: Path) -> None:
    from ai.kalah_solve import default_memory
    from ai.kalah_solver import planned_table_seeds
    from rules import get_game

    assert default_memory(get_game("kalah", pits=4, seeds=3)) == 16       # 1024 MB before: 1.6-7 s of page faults
    assert default_memory(get_game("kalah", pits=6, seeds=4)) == 1024
    tables.build_kalah_tables(tmp_path, 3, True, 14)
    result = solve("kalah:pits=3,seeds=2", "--folder", str(tmp_path), "--no-pv")
    top = planned_table_seeds(get_game("kalah", pits=3, seeds=2))
    assert top < 14 and result.returncode == 0 and f"every board of 0..{top} seeds" in result.stdout  # not 0..14


# -- issue 32: the plan first, tables built on the way, checkpoints ------------------------------------------------
def test_the_plan_is_stated_in_one_line_before_the_tables_are_built(tmp_path: Path) -> None:
    from ai.kalah_solver import planned_table_seeds
    from rules import get_game

    top = planned_table_seeds(get_game("kalah", pits=4, seeds=3))
    assert 0 < top < 24
    result = solve("kalah:pits=4,seeds=3", "--folder", str(tmp_path), "--no-pv")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"plan: endgame tables 0..{top} seeds") and f"building 0..{top}" in lines[0]
    assert "MB" in lines[0] and "about" in lines[0] and "--no-build" in lines[0]
    assert lines[1].startswith(f"built the endgame tables 0..{top} seeds")
    assert "value: +8 for South" in result.stdout
    again = solve("kalah:pits=4,seeds=3", "--folder", str(tmp_path), "--no-pv")
    assert again.stdout.startswith(f"plan: endgame tables 0..{top} seeds from {tmp_path}")    # built once


def test_the_board_prover_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    checkpoint = tmp_path / "proof.ckpt"
    first = solve("kalah:pits=4,seeds=3", "--no-tables", "--no-pv", "--prover", "board", "--checkpoint",
                  str(checkpoint))
    assert first.returncode == 0 and "value: +8 for South" in first.stdout and checkpoint.exists()
    assert f"checkpoints to {checkpoint}" in first.stdout.splitlines()[0]
    second = solve("kalah:pits=4,seeds=3", "--no-tables", "--no-pv", "--prover", "board", "--checkpoint",
                   str(checkpoint))
    assert second.returncode == 0 and "value: +8 for South" in second.stdout
    assert "resuming the checkpoint" in second.stdout.splitlines()[0]
    nodes = [int(line.split(" s, ")[1].split(" nodes")[0].replace(",", ""))
             for line in (first.stdout + second.stdout).splitlines() if line.startswith("proved in")]
    assert nodes[1] < nodes[0]
    other = solve("kalah:pits=4,seeds=3,empty_capture=false", "--no-tables", "--prover", "board", "--checkpoint",
                  str(checkpoint))
    assert "is a checkpoint of game" in one_line_error(other)



def test_a_checkpoint_that_cannot_be_written_is_one_line_before_the_proof(tmp_path: Path) -> None:
    import shutil

    checkpoint = tmp_path / "proof.ckpt"
    first = solve("kalah:pits=3,seeds=3", "--no-tables", "--no-pv", "--prover", "board", "--memory", "1",
                  "--checkpoint", str(checkpoint))
    assert first.returncode == 0 and checkpoint.exists()
    locked = os.geteuid() == 0 and shutil.which("chattr") is not None   # root ignores a file's mode bits
    if locked:
        subprocess.run(["chattr", "+i", str(checkpoint)], check=True, capture_output=True)
    else:
        checkpoint.chmod(0o444)
    try:
        error = one_line_error(solve("kalah:pits=3,seeds=3", "--no-tables", "--no-pv", "--prover", "board",
                                     "--memory", "1", "--checkpoint", str(checkpoint)))
    finally:
        if locked:
            subprocess.run(["chattr", "-i", str(checkpoint)], check=True, capture_output=True)
    assert f"cannot write the checkpoint {checkpoint}" in error and "read-only" in error

def test_a_checkpoint_needs_the_board_prover() -> None:
    error = one_line_error(solve("kalah:pits=3,seeds=2", "--checkpoint", "x.ckpt"))
    assert "--prover board" in error


# -- the shipped opening proof -----------------------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["kalah:pits=6,seeds=4", "kalah:pits=6,seeds=4,empty_capture=false"])
def test_a_start_the_opening_proof_holds_is_answered_at_once_and_says_where_from(spec: str) -> None:
    """What a user types first (`stonecave solve kalah:pits=6,seeds=4`) gave no answer in 10 minutes: the
    proof's value, move and line come back at once, named as the shipped proof's, with the way to prove it."""
    import rules
    from ai import kalah_proofs

    game = rules.parse_game_spec(spec)
    proof = kalah_proofs.proof_for(game)
    start = game.initial_state()
    result = solve(spec)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    lines = result.stdout.splitlines()
    entry = proof.lookup(start)
    assert lines[0] == (f"value: {entry.value:+d} for South (the side to move) with best play; best move: pit "
                        f"{game.move_label(start, entry.move)}")
    assert "opening proof shipped" in lines[1] and "--no-proof" in lines[1]
    labels = lines[2].split(": ")[-1].split()
    assert lines[2].startswith("principal variation") and len(labels) >= 2
    state = start
    for label in labels:  # the line keeps the value: every proving side's position on it holds the start's value
        if game.to_move(state) == 0:
            assert proof.lookup(state).value == entry.value, game.to_text(state)
        state = game.apply(state, game.parse_label(state, label))


def test_the_proof_line_gives_the_opponent_its_best_reply() -> None:
    import rules
    from ai import kalah_proofs
    from game.solve_command import proof_line

    game = rules.get_game("kalah")
    proof = kalah_proofs.proof_for(game)
    north_root = game.apply(game.initial_state(), proof.lookup(game.initial_state()).move)
    while game.to_move(north_root) == 0:
        north_root = game.apply(north_root, proof.lookup(north_root).move)
    line = proof_line(proof, game.initial_state())
    assert line[:2] == [proof.lookup(game.initial_state()).move, line[1]]
    # the opponent's reply on the line is one of those that leave South least
    state = game.initial_state()
    for move in line:
        if game.to_move(state) == 1:
            values = {reply: proof.lookup(game.apply(state, reply)) for reply in game.legal_moves(state)}
            if all(held is not None and game.to_move(game.apply(state, reply)) == 0 for reply, held in values.items()):
                assert values[move].value == min(held.value for held in values.values())
        state = game.apply(state, move)


def test_a_position_the_proof_holds_only_a_bound_for_says_the_bound_and_proves(capsys) -> None:
    """The build keeps a lower bound where the exact value cost too much (North's root after pit 1 without empty
    capture): solve says what the proof holds there, then proves the exact value."""
    import rules
    from ai import kalah_proofs
    from game.solve_command import from_opening_proof

    for spec in kalah_proofs.PROOF_FILES:
        game = rules.parse_game_spec(spec)
        proof = kalah_proofs.proof_for(game)
        bound = next((key for key, entry in proof.entries.items() if not entry.exact), None)
        if bound is not None:
            break
    assert bound is not None, "no shipped entry holds a bound"
    state = kalah_proofs.state_of(game, bound)
    entry = proof.lookup(state)
    assert from_opening_proof(game, state, True) is None                     # the prover takes over
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and f"holds at least {entry.value:+d} for South here" in out, out
    assert f"pit {game.move_label(state, entry.move)} keeps it" in out and "proving the exact value" in out


def test_no_proof_goes_to_the_prover_from_nothing() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "game", "solve", "kalah:pits=6,seeds=4", "--no-proof", "--no-tables", "--memory", "16"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV, cwd=ROOT, stdin=subprocess.DEVNULL)
    try:
        assert process.stdout is not None
        assert process.stdout.readline().startswith("plan: no endgame tables")  # the proof from nothing begins
    finally:
        process.kill()
        process.communicate(timeout=10)


def test_a_damaged_shipped_proof_is_named_and_the_proof_runs_instead(monkeypatch, capsys) -> None:
    import rules
    from ai import kalah_proofs
    from game.solve_command import from_opening_proof

    def damaged(game):  # type: ignore[no-untyped-def]
        raise kalah_proofs.ProofError("kalah_6_4_empty_capture_proof.txt: its SHA-256 does not match its header")

    monkeypatch.setattr(kalah_proofs, "proof_for", damaged)
    game = rules.get_game("kalah")
    assert from_opening_proof(game, game.initial_state(), True) is None  # the prover takes over
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not used" in err and "SHA-256 does not match" in err and "proving from nothing" in err


# -- --threads: the board prover's searchers ---------------------------------------------------------------------
@pytest.mark.parametrize("threads", ["0", "-1", "x", "1.5e9", "٢", ""])
def test_threads_is_checked_with_its_range(threads: str) -> None:
    error = one_line_error(solve("kalah:pits=3,seeds=2", "--no-tables", "--prover", "board", "--threads", threads))
    assert "--threads is a number of threads from 1 to" in error and "this machine's cores" in error


def test_threads_is_for_the_board_prover() -> None:
    error = one_line_error(solve("kalah:pits=3,seeds=2", "--no-tables", "--threads", "1"))
    assert "--threads is for the board prover: add --prover board" in error


@pytest.mark.parametrize("threads", ["1", str(min(2, os.cpu_count() or 1))])
def test_the_board_prover_on_its_searchers_says_how_many_and_proves(threads: str) -> None:
    result = solve("kalah:pits=4,seeds=3", "--no-tables", "--no-pv", "--prover", "board", "--threads", threads)
    assert result.returncode == 0 and "value: +8 for South" in result.stdout, result.stderr
    shown = "1 searcher," if threads == "1" else f"{threads} searchers on one table (--threads)"
    assert shown in result.stdout


# -- --guess: the board prover's first test ------------------------------------------------------------------------
@pytest.mark.parametrize("guess", ["x", "1.5", "25", "-25", "+-3", "٣", "", "99999999999"])
def test_guess_is_a_whole_margin_within_the_games_seeds(guess: str) -> None:
    error = one_line_error(solve("kalah:pits=4,seeds=3", "--no-tables", "--prover", "board", "--guess", guess))
    assert "--guess is a whole number of seeds from -24 to +24" in error


def test_guess_is_for_the_board_prover() -> None:
    error = one_line_error(solve("kalah:pits=3,seeds=2", "--no-tables", "--guess", "1"))
    assert "--guess is for the board prover: add --prover board" in error


@pytest.mark.parametrize("guess", ["8", "-3", "+20"])
def test_any_guess_proves_the_same_value_and_the_true_one_in_two_tests(guess: str) -> None:
    """The guess only chooses the first test: a wrong one costs tests, never the value; the value itself is
    settled by the two tests beside it (at least it, not at least one more)."""
    result = solve("kalah:pits=4,seeds=3", "--no-tables", "--no-pv", "--prover", "board", "--threads", "1",
                   "--guess", guess)
    assert result.returncode == 0 and "value: +8 for South" in result.stdout, result.stderr
    assert f"the first test at {int(guess):+d} (--guess)" in result.stdout
    tests = [line for line in result.stdout.splitlines() if line.startswith("  test value >=")]
    assert tests[0].startswith(f"  test value >= {int(guess):+d}:"), tests
    if guess == "8":
        assert len(tests) == 2 and "proved in" in result.stdout and "(2 null-window tests" in result.stdout
    else:
        assert len(tests) > 2


@pytest.mark.parametrize("spec, prover", [("kalah:pits=4,seeds=3", "pvs"), ("kalah:pits=6,seeds=3", "pvs"),
                                          ("kalah:pits=6,seeds=4", "board"), ("kalah:pits=6,seeds=5", "board")])
def test_the_prover_is_chosen_by_the_games_size_unless_named(spec: str, prover: str) -> None:
    """``--prover auto`` (the default): the board prover above 40 seeds, where it is the one that proves (and
    checkpoints), the PVS prover below; the plan line says which, and ``--prover`` overrides it."""
    from game.solve_command import _checked, _parser

    args = _parser().parse_args([spec, "--no-tables"])
    _checked(args)
    assert args.prover == prover
    named = _parser().parse_args([spec, "--no-tables", "--prover", "pvs"])
    _checked(named)
    assert named.prover == "pvs"
    deepening = _parser().parse_args([spec, "--no-tables", "--deepening"])
    _checked(deepening)
    assert deepening.prover == "pvs"
