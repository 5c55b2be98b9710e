"""``stonecave desktop install|uninstall``: the game in a Linux desktop's application menu.

``install`` writes a freedesktop.org desktop entry, ``applications/stonecave.desktop``, and the icon
(``icons/hicolor/256x256/apps/stonecave.png`` and ``icons/hicolor/scalable/apps/stonecave.svg``) under
``$XDG_DATA_HOME`` (``~/.local/share`` when unset), where GNOME, KDE, Xfce and the others look for a user's
applications.  Each file is written to a temporary name beside it and renamed into place, so a menu never
reads half a file.  The entry starts the ``stonecave`` command this installation runs from (a pipx or virtual
environment's own script, by its absolute path), so it works without that environment on the menu's PATH.
``uninstall`` removes exactly those files.  Nothing here imports arcade.
"""
from __future__ import annotations

import os
import shutil
import sys
from importlib import resources
from pathlib import Path

from guarded import files

USAGE = "usage: stonecave desktop install|uninstall   (the menu entry and icon under $XDG_DATA_HOME)"
APP_ID = "stonecave"
ICONS = {"png": Path("icons/hicolor/256x256/apps"), "svg": Path("icons/hicolor/scalable/apps")}


def data_home() -> Path:
    """``$XDG_DATA_HOME`` when set to an absolute path (the specification ignores a relative one), else
    ``~/.local/share``."""
    value = os.environ.get("XDG_DATA_HOME", "")
    return Path(value) if value and os.path.isabs(value) else Path.home() / ".local" / "share"


def targets(home: Path | None = None) -> list[Path]:
    """The files ``install`` writes and ``uninstall`` removes."""
    base = data_home() if home is None else home
    return [base / "applications" / f"{APP_ID}.desktop",
            *(base / folder / f"{APP_ID}.{kind}" for kind, folder in ICONS.items())]


def launch_command() -> list[str]:
    """The command that opens the window from this installation: its ``stonecave`` script beside the running
    interpreter (a pipx or virtual environment's bin folder), else this interpreter with ``-m game``."""
    script = shutil.which("stonecave", path=str(Path(sys.executable).parent))
    if script:
        return [os.path.abspath(script)]
    found = shutil.which("stonecave")
    if found:
        return [os.path.abspath(found)]
    return [sys.executable, "-m", "game"]


def _quote(argument: str) -> str:
    """One argument of a desktop entry's Exec line, quoted as the specification asks when it must be."""
    if argument and not any(char in argument for char in ' \t\n"\'\\><~|&;$*?#()`%'):
        return argument
    escaped = argument.replace("\\", "\\\\").replace('"', '\\"').replace("`", "\\`").replace("$", "\\$")
    return '"' + escaped.replace("%", "%%") + '"'


def entry_text(command: list[str]) -> str:
    """The desktop entry for ``command`` (freedesktop.org Desktop Entry Specification 1.5)."""
    return "\n".join([
        "[Desktop Entry]",
        "Type=Application",
        "Version=1.5",
        "Name=StoneCave",
        "GenericName=Sowing games",
        "Comment=Kalah, Oware, Hus, Solitaire Mancala and Magnetic Cave, against a computer you can tune",
        f"Exec={' '.join(_quote(part) for part in command)}",
        f"Icon={APP_ID}",
        "Terminal=false",
        "Categories=Game;BoardGame;",
        "Keywords=mancala;kalah;oware;hus;board;",
        "",
    ])


def install(home: Path | None = None, command: list[str] | None = None) -> list[Path]:
    """Write the entry and the icons; the paths written."""
    entry, *icons = targets(home)
    icon_folder = resources.files("assets") / "icons"
    for path in icons:
        files.write_atomically(path, files.read_bytes(str(icon_folder / path.name)))
    files.write_atomically(entry, entry_text(command or launch_command()))
    return [entry, *icons]


def uninstall(home: Path | None = None) -> list[Path]:
    """Remove the entry and the icons; the paths that were there."""
    removed = []
    for path in targets(home):
        if files.exists(path):
            path.unlink()
            removed.append(path)
    return removed


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in ("install", "uninstall", "-h", "--help"):
        given = " ".join(argv) if argv else "nothing"
        print(f"stonecave desktop: expected install or uninstall, not {given!r}; {USAGE}", file=sys.stderr)
        return 2
    if argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    try:
        if argv[0] == "install":
            written = install()
            print(f"StoneCave is in the desktop's menu: {written[0]} (icon {written[1].name}); "
                  "'stonecave desktop uninstall' removes it")
        else:
            removed = uninstall()
            print(f"removed {len(removed)} files: {', '.join(map(str, removed))}" if removed
                  else f"nothing to remove under {data_home()}")
    except OSError as error:
        print(f"stonecave desktop: could not {argv[0]} ({error.strerror or error}: "
              f"{error.filename or data_home()})", file=sys.stderr)
        return 1
    return 0
