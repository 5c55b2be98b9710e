"""What the generated attacks found in the command line's own parsing (game/cli.py), each fixed."""
from __future__ import annotations

import signal

import pytest

from game import cli


@pytest.mark.parametrize("flag", ["--config-dir", "--load"])
@pytest.mark.parametrize("value, words", [("x" * 300, "has a name of 300 bytes"),
                                          (f"/tmp/{'é' * 200}/saves", "has a name of 400 bytes"),
                                          ("", "not an empty text"), ("  ", "not an empty text")])
def test_gui_refuses_a_path_no_file_could_have_before_opening_the_window(capsys, flag, value, words):
    # a 300-character --config-dir opened the window and died in it with OSError ENAMETOOLONG
    with pytest.raises(SystemExit) as stop:
        cli.gui_parser().parse_args([flag, value])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert f"argument {flag}" in error and words in error and "Traceback" not in error


def test_gui_takes_ordinary_paths():
    options = cli.gui_parser().parse_args(["--config-dir", "/tmp/stonecave settings", "--load", "kalah.save"])
    assert str(options.config_dir) == "/tmp/stonecave settings" and options.load.name == "kalah.save"


def test_ctrl_c_in_the_terminal_closes_the_window_with_a_line_not_a_traceback(monkeypatch, capsys):
    import game.app

    def interrupted(argv):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "has_display", lambda: True)
    monkeypatch.setattr(game.app, "run", interrupted)
    previous = signal.getsignal(signal.SIGINT)
    try:
        assert cli.main(["gui"]) == 130
    finally:
        signal.signal(signal.SIGINT, previous)
    assert capsys.readouterr().err.strip() == "stonecave: the window was closed by Ctrl-C"


def test_the_whole_command_line_is_one_parser_with_every_command():
    whole = cli.parser()
    commands = next(action for action in whole._actions if hasattr(action, "choices") and action.choices)
    assert set(commands.choices) == set(cli.COMMANDS)
    text = commands.choices["text"]
    flags = {flag for action in text._actions for flag in action.option_strings}
    assert {"--south", "--north", "--black", "--white", "--time", "--seed", "--load", "--variant"} <= flags


@pytest.mark.parametrize("value", ["١٢", "１２", "७", "1_000"])
def test_the_consoles_time_takes_ascii_digits_only(value):
    # float() alone read '١٢' as 12 s and '1_000' as 1000 s, against the one rule for numbers
    from game.console import manager, solitaire

    with pytest.raises(manager.UsageError, match="--time must be a number of seconds"):
        manager.parse_arguments(["kalah", "--time", value])
    with pytest.raises(ValueError, match="--time must be a number of seconds"):
        solitaire.parse_arguments(["solitaire", "--time", value])
    assert manager.parse_arguments(["kalah", "--time", "2.5"]).seconds == 2.5
    assert solitaire.parse_arguments(["solitaire", "--time", " 12 "])["time"] == 12.0
