"""``stonecave desktop install|uninstall``: a desktop entry and its icon under a temporary XDG_DATA_HOME."""
from __future__ import annotations

import configparser
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game import desktop

ROOT = Path(__file__).resolve().parents[1]


def run(args: list[str], home: Path, data: Path | None) -> subprocess.CompletedProcess:
    env = dict(os.environ, HOME=str(home), PYTHONPATH=str(ROOT))
    env.pop("XDG_DATA_HOME", None)
    if data is not None:
        env["XDG_DATA_HOME"] = str(data)
    return subprocess.run([sys.executable, "-m", "game", "desktop", *args], cwd=home, env=env, capture_output=True,
                          text=True, timeout=60)


def read_entry(path: Path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read_string(path.read_text(encoding="utf-8"))
    return parser["Desktop Entry"]


def test_install_writes_the_entry_and_icons_and_uninstall_removes_them(tmp_path: Path) -> None:
    data = tmp_path / "data"
    installed = run(["install"], tmp_path, data)
    assert installed.returncode == 0, installed.stderr
    entry_path = data / "applications" / "stonecave.desktop"
    png = data / "icons" / "hicolor" / "256x256" / "apps" / "stonecave.png"
    svg = data / "icons" / "hicolor" / "scalable" / "apps" / "stonecave.svg"
    assert str(entry_path) in installed.stdout
    entry = read_entry(entry_path)
    assert entry["Type"] == "Application" and entry["Name"] == "StoneCave" and entry["Icon"] == "stonecave"
    assert "Game" in entry["Categories"].split(";") and entry["Terminal"] == "false"
    command = entry["Exec"].split()
    assert Path(command[0]).is_absolute() and Path(command[0]).exists(), command  # no PATH needed
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and b"<svg" in svg.read_bytes()
    assert not [path for path in data.rglob(".*tmp")], "a temporary file was left behind"

    again = run(["install"], tmp_path, data)  # installing twice replaces, never duplicates
    assert again.returncode == 0 and len(list((data / "applications").iterdir())) == 1

    removed = run(["uninstall"], tmp_path, data)
    assert removed.returncode == 0, removed.stderr
    assert not entry_path.exists() and not png.exists() and not svg.exists()
    assert "removed 3 files" in removed.stdout
    assert "nothing to remove" in run(["uninstall"], tmp_path, data).stdout


def test_without_xdg_data_home_the_entry_goes_under_the_home_folder(tmp_path: Path) -> None:
    result = run(["install"], tmp_path, None)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / ".local" / "share" / "applications" / "stonecave.desktop").is_file()


@pytest.mark.parametrize("args", [[], ["instal"], ["install", "now"], ["--home=/x"]])
def test_bad_arguments_get_one_line(tmp_path: Path, args: list[str]) -> None:
    result = run(args, tmp_path, tmp_path / "data")
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "expected install or uninstall" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "data").exists()


def test_an_unwritable_data_folder_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file where the folder should be")
    result = run(["install"], tmp_path, blocker)
    assert result.returncode == 1 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "could not install" in result.stderr


def test_the_exec_line_quotes_what_the_specification_reserves() -> None:
    text = desktop.entry_text(["/opt/my games/bin/stonecave", "50%"])
    assert 'Exec="/opt/my games/bin/stonecave" "50%%"' in text
    assert desktop.entry_text(["/usr/bin/stonecave"]).count("Exec=/usr/bin/stonecave\n") == 1
