"""Hostile checkpoints and options for ``stonecave compare`` (issue 31, items 12-16 and the smaller ones).

A checkpoint is a schema: a header of the wrong shape is refused with a one-line message, a record that is not
a game of the run is reported and played again (never counted), line endings of any kind and a torn tail
lose no record, special files are refused without hanging, and every count option is bounded.
"""
from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ai.tournament import compare, main

ROOT = Path(__file__).resolve().parents[2]
SMALL = "kalah:pits=3,seeds=2"
PAIR = ("greedy", "random")
BASE = ["--game", SMALL, "--engine", PAIR[0], "--engine", PAIR[1], "--quiet"]


def outline(result):
    return [(r.index, r.opening, r.a_seat, r.winner, r.reason, r.scores, r.plies) for r in result.records]


def _checkpoint(tmp_path: Path, games: int = 2, **options) -> tuple[Path, list[str]]:
    path = tmp_path / "run.jsonl"
    compare(SMALL, *PAIR, games=games, checkpoint=path, **options)
    return path, path.read_text().splitlines()


def _run(argv: list[str], capsys) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# -- 12: a header of the wrong shape --------------------------------------------------------------------------
def _header_mutations():
    def change(**fields):
        return lambda header: {**header, **fields}

    def without(key):
        return lambda header: {k: v for k, v in header.items() if k != key}

    def run_change(**fields):
        return lambda header: {**header, "run": {**header["run"], **fields}}

    return [
        ("openings empty", change(openings=[]), "openings"),
        ("run a list", change(run=[1, 2]), "run must be a table"),
        ("engines an integer", change(engines=7), "engines must be a list"),
        ("no openings", without("openings"), "openings must be a list"),
        ("openings an integer", change(openings=3), "openings must be a list"),
        ("an opening of numbers", change(openings=[[1, 2]]), "must be text"),
        ("an illegal opening", change(openings=[["9"]]), "not a legal line"),
        ("seed as text", run_change(seed="x"), "seed must be a whole number"),
        ("no run keys", change(run={}), "lacks seed"),
        ("time limit NaN-like", run_change(time_limit="nan"), "time_limit must be a number"),
    ]


@pytest.mark.parametrize("name, mutate, words", _header_mutations(), ids=[m[0] for m in _header_mutations()])
def test_a_header_of_the_wrong_shape_is_refused_in_one_line(tmp_path, capsys, name, mutate, words):  # type: ignore[no-untyped-def]
    path, lines = _checkpoint(tmp_path)
    header = json.loads(lines[0])
    path.write_text("\n".join([json.dumps(mutate(header)), *lines[1:]]) + "\n")
    code, _, err = _run([*BASE, "--games", "2", "--resume", str(path)], capsys)
    assert code == 2 and "Traceback" not in err
    assert words in err and str(path) in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("first_line", ["[" * 100_000 + "]" * 100_000, '{"format": ' + "[" * 50_000, "1" * 6000,
                                        '{"format": NaN}', "\udcff"])
def test_a_header_that_is_not_json_of_the_right_kind_is_refused(tmp_path, capsys, first_line):  # type: ignore[no-untyped-def]
    path, lines = _checkpoint(tmp_path)
    path.write_bytes(first_line.encode("utf-8", "surrogateescape") + b"\n" + "\n".join(lines[1:]).encode() + b"\n")
    code, _, err = _run([*BASE, "--games", "2", "--resume", str(path)], capsys)
    assert code == 2 and "Traceback" not in err and "not a stonecave compare checkpoint" in err


# -- 12 and 13: records that are not games of this run ---------------------------------------------------------
def _bad_records(good: dict) -> list[tuple[str, dict, str]]:
    def record(**fields):
        return {"record": {**good, **fields}}

    stats = good["stats"]
    return [
        ("index -7", record(index=-7), "index -7"),
        ("index 0.5", record(index=0.5), "index must be a whole number"),
        ("index x", record(index="x"), "index must be a whole number"),
        ("index true", record(index=True), "index must be a whole number"),
        ("winner Z", record(winner="Z"), "winner must be A, B or null"),
        ("a string in stats", record(stats=[{**stats[0], "moves": "3"}, stats[1]]), "A's moves must be a whole"),
        ("stats a string", record(stats="fast"), "stats must be a list"),
        ("infinite time", record(stats=[{**stats[0], "total_time": 1e400}, stats[1]]), "Infinity is not a number"),
        ("huge time", record(stats=[{**stats[0], "total_time": 1e300}, stats[1]]), "A's total_time"),
        ("NaN score", record(scores=[float("nan"), 1]), "NaN is not a number"),
        ("wrong opening", record(opening=5), "opening"),
        ("wrong seat", record(a_seat=1 - good["a_seat"]), "engine A takes seat"),
        ("plies that are not the moves", record(plies=good["plies"] + 1), "plies"),
        ("unknown field", record(extra=1), "unknown field"),
        ("not a record", {"hello": 1}, "not a game record"),
        ("a list", [1, 2, 3], "not a game record"),
        ("deep nesting", "[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ]


def test_records_that_are_not_games_of_the_run_are_reported_and_replayed_never_counted(tmp_path, capsys):  # type: ignore[no-untyped-def]
    whole = compare(SMALL, *PAIR, games=2)
    path, lines = _checkpoint(tmp_path)
    good = json.loads(lines[1])["record"]
    for name, item, words in _bad_records(good):
        text = item if isinstance(item, str) else json.dumps(item)
        path.write_text("\n".join([lines[0], text]) + "\n")  # the header and one bad line: both games to play
        code, out, err = _run([*BASE, "--games", "2", "--resume", str(path), "--json", str(tmp_path / "o.json")],
                              capsys)
        assert code == 0 and "Traceback" not in err, name
        assert "not counted" in err and words in err, (name, err)
        assert ": 2 games, 1 opening(s)" in out, (name, out)
        document = json.loads((tmp_path / "o.json").read_text())
        assert [(g["index"], g["winner"], g["plies"]) for g in document["games"]] == [
            (r.index, r.winner, r.plies) for r in whole.records], name
        a, b = document["summary"]
        assert (a["wins"], a["draws"], a["losses"]) == (b["losses"], b["draws"], b["wins"]), name
        assert a["games"] == b["games"] == 2, name


def test_an_invented_record_beside_the_real_ones_does_not_add_a_game(tmp_path):
    path, lines = _checkpoint(tmp_path)
    good = json.loads(lines[1])["record"]
    path.write_text("\n".join([*lines, json.dumps({"record": {**good, "index": -7}}),
                               json.dumps({"record": {**good, "winner": "Z"}})]) + "\n")
    resumed = compare(SMALL, *PAIR, games=2, checkpoint=path, resume=True)
    assert len(resumed.records) == 2 and resumed.settings["resumed_games"] == 2
    assert len(resumed.settings["checkpoint_problems"]) == 2
    a, b = resumed.summaries()
    assert (a.wins, a.draws, a.losses) == (b.losses, b.draws, b.wins)
    # The two lines are named once: they are moved beside the checkpoint, kept, and not named at the next resume.
    aside = path.with_name(path.name + ".invalid").read_text().splitlines()
    assert [json.loads(line)["record"]["index"] for line in aside] == [-7, good["index"]]
    again = compare(SMALL, *PAIR, games=2, checkpoint=path, resume=True)
    assert not again.settings["checkpoint_problems"] and again.settings["resumed_games"] == 2
    assert outline(again) == outline(resumed)


# -- 14: line endings and a torn tail ----------------------------------------------------------------------------
@pytest.mark.parametrize("line_end", ["\r\n", "\r", "\n"])
def test_any_line_ending_and_a_torn_tail_lose_no_record(tmp_path, line_end):
    whole = compare(SMALL, *PAIR, games=6)
    path, lines = _checkpoint(tmp_path, games=6)
    torn = lines[4][: len(lines[4]) // 2]
    path.write_bytes((line_end.join(lines[:4]) + line_end + torn).encode())  # header, 3 games, half a 4th
    first = compare(SMALL, *PAIR, games=6, checkpoint=path, resume=True)
    assert outline(first) == outline(whole) and first.settings["resumed_games"] == 3
    assert not first.settings["checkpoint_problems"]
    played: list[int] = []
    again = compare(SMALL, *PAIR, games=6, checkpoint=path, resume=True,
                    progress=lambda done, total, partial: played.append(done))
    assert outline(again) == outline(whole) and again.settings["resumed_games"] == 6 and not played
    assert not again.settings["checkpoint_problems"]


def test_a_whole_last_record_without_a_line_ending_is_kept_and_not_glued_to_the_next(tmp_path):
    whole = compare(SMALL, *PAIR, games=4)
    path, lines = _checkpoint(tmp_path, games=4)
    path.write_text("\r\n".join(lines[:3]))  # header and two games, the last without its line ending
    first = compare(SMALL, *PAIR, games=4, checkpoint=path, resume=True)
    assert outline(first) == outline(whole) and first.settings["resumed_games"] == 2
    again = compare(SMALL, *PAIR, games=4, checkpoint=path, resume=True)
    assert again.settings["resumed_games"] == 4 and not again.settings["checkpoint_problems"]


def test_a_torn_multibyte_tail_is_cut_at_a_byte_boundary(tmp_path):
    path, lines = _checkpoint(tmp_path, games=4)
    torn = ("\r\n".join(lines[:3]) + "\r\n").encode() + '{"record": {"reason": "é'.encode()[:-1]
    path.write_bytes(torn)
    resumed = compare(SMALL, *PAIR, games=4, checkpoint=path, resume=True)
    assert resumed.settings["resumed_games"] == 2 and len(resumed.records) == 4
    assert path.read_bytes().startswith(("\r\n".join(lines[:3]) + "\r\n").encode())


# -- 15: special files and unwritable checkpoints --------------------------------------------------------------
def test_a_checkpoint_that_is_a_fifo_is_refused_without_hanging(tmp_path):
    for flag in ("--checkpoint", "--resume"):
        fifo = tmp_path / f"pipe{flag}.jsonl"
        os.mkfifo(fifo)
        done = subprocess.run([sys.executable, "-m", "game", "compare", *BASE, "--games", "2", flag, str(fifo)],
                              cwd=ROOT, capture_output=True, text=True, timeout=60,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert done.returncode == 2, done.stderr
        assert "named pipe (FIFO)" in done.stderr and "Traceback" not in done.stderr


def test_a_checkpoint_on_a_device_is_refused_and_no_table_is_claimed(capsys):  # type: ignore[no-untyped-def]
    from game.cli import main as stonecave

    assert stonecave(["compare", *BASE, "--games", "2", "--checkpoint", "/dev/full"]) == 2
    captured = capsys.readouterr()
    assert "is a device, not a regular file" in captured.err
    assert "summary table" not in captured.err and captured.out == ""


def test_a_read_only_folder_gives_a_true_message(tmp_path, capsys, monkeypatch):  # type: ignore[no-untyped-def]
    import guarded.records

    real_open = os.open

    def read_only(path, flags, *args, **kwargs):  # type: ignore[no-untyped-def]
        if str(path).startswith(str(tmp_path)) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise OSError(errno.EROFS, "Read-only file system")
        return real_open(path, flags, *args, **kwargs)

    # guarded.records.os is the os module: this patch is seen by every thread, the suite's background jobs too
    # (the generated attacks' clean-up calls os.open with dir_fd), so it passes every other call through whole
    monkeypatch.setattr(guarded.records.os, "open", read_only)
    from game.cli import main as stonecave

    code = stonecave(["compare", *BASE, "--games", "2", "--checkpoint", str(tmp_path / "run.jsonl")])
    captured = capsys.readouterr()
    assert code == 2 and "Read-only file system" in captured.err and "run.jsonl" in captured.err
    assert "summary table" not in captured.err and captured.out == ""


def test_an_unwritable_checkpoint_is_found_before_the_openings_are_chosen(tmp_path, capsys, monkeypatch):  # type: ignore[no-untyped-def]
    import ai.checkpoint
    import ai.tournament

    def never(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("the openings were chosen before the checkpoint was checked")

    monkeypatch.setattr(ai.checkpoint, "writable_problem", lambda path: "Read-only file system")
    monkeypatch.setattr(ai.tournament, "balanced_openings", never)
    code, out, err = _run([*BASE, "--games", "2", "--openings", "3", "--checkpoint", str(tmp_path / "run.jsonl")],
                          capsys)
    assert code == 2 and "Read-only file system (nothing was played)" in err and out == ""


def test_a_torn_tail_that_cannot_be_cut_is_named_with_its_file(tmp_path, capsys, monkeypatch):  # type: ignore[no-untyped-def]
    import guarded.records

    path, lines = _checkpoint(tmp_path, games=4)
    path.write_text("\n".join(lines[:3]) + "\n" + lines[3][:10])
    real_open = os.open

    def read_only(target, flags, *args, **kwargs):  # type: ignore[no-untyped-def]
        if str(target).startswith(str(tmp_path)) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise OSError(errno.EROFS, "Read-only file system")    # only here: the patch is every thread's
        return real_open(target, flags, *args, **kwargs)

    monkeypatch.setattr(guarded.records.os, "open", read_only)
    code, out, err = _run([*BASE, "--games", "4", "--resume", str(path)], capsys)
    assert code == 2 and f"cannot cut the torn last line off {path}" in err and "Read-only" in err


def test_a_disk_that_fills_during_the_run_stops_it_with_a_true_message(tmp_path, capsys, monkeypatch):  # type: ignore[no-untyped-def]
    from guarded.records import RecordWriter

    real_append = RecordWriter.append
    calls = [0]

    def fills(self, line):  # type: ignore[no-untyped-def]
        calls[0] += 1
        if calls[0] > 2:  # the header and one record fit
            raise OSError(errno.ENOSPC, "No space left on device")
        real_append(self, line)

    monkeypatch.setattr(RecordWriter, "append", fills)
    path = tmp_path / "run.jsonl"
    code, out, err = _run([*BASE, "--games", "4", "--checkpoint", str(path)], capsys)
    assert code == 1 and "Traceback" not in err and out == ""
    assert "No space left on device" in err and "1 game(s) recorded" in err and f"--resume {path}" in err
    monkeypatch.undo()
    resumed = compare(SMALL, *PAIR, games=4, checkpoint=path, resume=True)
    assert resumed.settings["resumed_games"] == 1 and len(resumed.records) == 4


# -- 16 and the smaller items: bounded, ASCII-only options; duplicate parameters ---------------------------------
@pytest.mark.parametrize("flag, value, words", [
    ("--openings", "1000000", "at most 1,000 balanced openings"),
    ("--jobs", "100000", "at most 256 processes"),
    ("--opening-plies", "5000", "at most 40 plies"),
    ("--games", "5000000", "at most 1,000,000 games"),
    ("--time-limit", "٣", "digits 0-9"),
    ("--time-limit", "３", "digits 0-9"),
    ("--time-limit", "1e400", "digits 0-9"),
    ("--time-limit", "99999", "at most 3600 seconds"),
    ("--sprt", "elo0=٠,elo1=٥", "digits 0-9"),
    ("--sprt", "elo0=0,elo1=１０", "digits 0-9"),
    ("--openings", "٣", "digits 0-9"),
    ("--seed", "٣", "digits 0-9"),
])
def test_every_count_and_number_option_is_bounded_and_ascii(capsys, flag, value, words):  # type: ignore[no-untyped-def]
    code, out, err = _run([*BASE, "--games", "2", flag, value], capsys)
    assert code == 2 and words in err and "Traceback" not in err and out == ""


@pytest.mark.parametrize("game, engine, words", [
    ("kalah:pits=4,pits=5", "random", "kalah is given pits twice"),
    ("kalah:pits=4, pits =4", "random", "kalah is given pits twice"),
    ("kalah", "pvs:depth=2,depth=3", "pvs is given depth twice"),
    ("kalah", "alphabeta:depth=2, depth=2", "alphabeta is given depth twice"),
])
def test_a_parameter_given_twice_is_refused(capsys, game, engine, words):  # type: ignore[no-untyped-def]
    code, _, err = _run(["--game", game, "--engine", engine, "--engine", "random", "--games", "2", "--quiet"], capsys)
    assert code == 2 and words in err


def test_the_spec_parsers_refuse_duplicates_for_every_caller():
    from ai.base import EngineError
    from ai.registry import parse_engine_spec
    from rules import ParameterError, parse_game_spec

    with pytest.raises(ParameterError, match="pits twice"):
        parse_game_spec("kalah:pits=4,pits=5")
    with pytest.raises(EngineError, match="depth twice"):
        parse_engine_spec("pvs:depth=2,depth=3")


# -- generated damage: whatever happens to the file, a resume counts only real games ----------------------------
def test_any_damage_to_a_checkpoint_gives_a_message_or_the_right_games(tmp_path):
    """Bytes flipped, cut, doubled or replaced, line endings changed: resuming either refuses the file in one line
    (a damaged header) or ends with exactly the run's games, each once, with tallies that agree.  (A flipped digit
    can still make a valid record of another score; the schema cannot know, so only the shape is compared.)"""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from ai.checkpoint import CheckpointError

    whole = compare(SMALL, *PAIR, games=4)
    path, lines = _checkpoint(tmp_path, games=4)
    original = ("\n".join(lines) + "\n").encode()

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None,
              derandomize=True)
    @given(st.data())
    def damaged(data):  # type: ignore[no-untyped-def]
        content = bytearray(original)
        for _ in range(data.draw(st.integers(1, 4))):
            kind = data.draw(st.sampled_from(["flip", "cut", "crlf", "double", "splice", "nul"]))
            at = data.draw(st.integers(0, max(0, len(content) - 1)))
            if kind == "flip" and content:
                content[at] ^= 1 << data.draw(st.integers(0, 7))
            elif kind == "cut":
                del content[at:]
            elif kind == "crlf":
                content = bytearray(bytes(content).replace(b"\n", b"\r\n"))
            elif kind == "double":
                end = content.find(b"\n", at)
                content[at:at] = content[at:end + 1] if end >= 0 else b""
            elif kind == "splice":
                content[at:at] = data.draw(st.binary(max_size=40))
            else:
                content[at:at] = b"\0"
        path.write_bytes(bytes(content))
        try:
            resumed = compare(SMALL, *PAIR, games=4, checkpoint=path, resume=True)
        except CheckpointError as error:
            assert "\n" not in str(error) and str(path) in str(error)
            return
        assert [(r.index, r.opening, r.a_seat) for r in resumed.records] == [
            (r.index, r.opening, r.a_seat) for r in whole.records]
        a, b = resumed.summaries()
        assert (a.wins, a.draws, a.losses) == (b.losses, b.draws, b.wins) and a.games == 4

    damaged()


def test_ctrl_c_says_what_was_done_and_where_it_is(tmp_path, capsys, monkeypatch):  # type: ignore[no-untyped-def]
    import ai.tournament

    real_compare = ai.tournament.compare

    def interrupted(*args, progress=None, **kwargs):  # type: ignore[no-untyped-def]
        calls = [0]

        def count(done, total, partial):  # type: ignore[no-untyped-def]
            progress(done, total, partial)
            calls[0] += 1
            if calls[0] == 3:
                raise KeyboardInterrupt

        return real_compare(*args, progress=count, **kwargs)

    monkeypatch.setattr(ai.tournament, "compare", interrupted)
    path = tmp_path / "run.jsonl"
    code, out, err = _run([*BASE, "--games", "6", "--checkpoint", str(path)], capsys)
    assert code == 130 and out == ""
    assert f"interrupted after 3 game(s); every finished game is in {path}: continue with --resume {path}" in err
    assert len(path.read_text().splitlines()) == 4  # the header and three whole records
    code, _, err = _run([*BASE, "--games", "6"], capsys)
    assert code == 130 and "interrupted after 3 game(s); nothing was saved (no checkpoint)" in err


@pytest.mark.parametrize("flag", ["--checkpoint", "--resume"])
def test_a_symlink_loop_or_an_empty_name_is_a_message_not_a_traceback(tmp_path, capsys, flag):  # type: ignore[no-untyped-def]
    loop = tmp_path / "loop.jsonl"
    loop.symlink_to(loop)
    code, _, err = _run([*BASE, "--games", "2", flag, str(loop)], capsys)
    assert code == 2 and "symbolic links" in err and "Traceback" not in err
    code, _, err = _run([*BASE, "--games", "2", flag, ""], capsys)
    assert code == 2 and f"{flag} needs a file name" in err
