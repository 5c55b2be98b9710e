"""The files the generated attacks use: valid samples of every registered kind, special files, mutations.

``Samples`` makes one valid file of each kind in ``guarded.kinds`` by running the program itself (a console
game's ``save``, a tiny table build, a one-game compare with ``--checkpoint``) or its own writer.  ``special``
makes the hostile things a path can name (a FIFO, a symbolic-link loop, a link to ``/dev/zero``, a folder, a
read-only folder, a missing folder).  ``mutate`` damages one file in place in one of the ``MUTATIONS``.
``overlay`` gives a copy of the program (symbolic links, so it costs a few milliseconds) in which one shipped
data file can be replaced, so package data is attacked without touching the real one.
"""
from __future__ import annotations

import hashlib
import os
import random
import shutil
import stat
import subprocess
import sys
from pathlib import Path

from guarded.kinds import KINDS, FileKind
from attack_runner import PLAIN, ROOT, Case, environment

MUTATIONS = ("truncated", "empty", "bit-flipped", "wrong-shape", "hostile-value", "crlf-torn", "huge", "fifo",
             "symlink-loop", "symlink-zero", "device", "directory", "read-only")
"""``hostile-value``: the right shape with one value replaced by a hostile one (-7, 0.5, "Z", 10**40, NaN...);
``crlf-torn``: the line ends of another system (CRLF) and a last line cut midway, as an edit elsewhere and a
crash leave a text file."""
HOSTILE_VALUES = (-7, -1, 0, 0.5, 10**40, 1e308, "Z", "", None, [], {}, True, "١٢", "x" * 5000, [[[[1]]]])
PACKAGES = ("ai", "game", "rules", "levels", "guarded", "assets")
HUGE = 3 * 1024**3
"""Size of a ``huge`` file (sparse: it takes no disk)."""

_OTHER_SHAPES = {
    "yaml": ("- 1\n- 2\n", "42\n", "version: 1\ngames: {a: [1, 2]}\nresults: 7\n", "[" * 200 + "]" * 200 + "\n",
             "a: &x [1, 2]\nb: *x\n", "version: .nan\n", "version: 1\nresults:\n  x: {stored: 99999999999999999999}\n"),
    "json": ("[]", "42", '{"pid": NaN}', '{"pid": 1e400, "target": -1}', '{"pid": "x", "started": 1e300}',
             "[" * 5000 + "]" * 5000, '{"pid": 1, "target": 99999999999999999999, "layer": 3, "size": 0}'),
    "json-lines": ("[]\n", '{"record": []}\n', '{"record": {"index": -7, "winner": "Z"}}\n', "1\n2\n",
                   "[" * 5000 + "\n"),
    "save": ("StoneCave save 2\ngame: kalah:pits=4,seeds=3\nmoves: 1\nmove 1: 99\nend\n", "- 1\n",
             "StoneCave save 2\ngame: kalah:pits=4,seeds=1000\nseat South: human\nseat North: human\nseed: none\n"
             "start: pits=1000,1000,1000,1000/1000,1000,1000,1000 stores=0,0 move=S\nmoves: 1\nmove 1: 3\nend\n"),
    "table": (b"x" * 64, bytes(64) + b"\xff" * 200),
    "csv": ("a,b\n1,2\n",),
    "text": ("- 1\n", "\xff\xfe"),
}


def sha(path: Path) -> str | None:
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode):
            return f"not a regular file ({stat.filemode(info.st_mode)})"
        with open(path, "rb") as stream:
            return hashlib.sha256(stream.read()).hexdigest()
    except OSError as error:
        return f"unreadable ({error.strerror})"


def run_program(words: list[str], stdin: str = "", env: dict[str, str] | None = None,
                pythonpath: str = str(ROOT), timeout: float = 60) -> subprocess.CompletedProcess:
    case = Case("sample", words, env=env or {}, pythonpath=pythonpath)
    return subprocess.run([sys.executable, "-m", "game", *words] if words[:1] != ["--probe"] else
                          [sys.executable, "-c", words[1]], input=stdin, text=True, capture_output=True,
                          env=environment(case), timeout=timeout)


def probe_code(kind: FileKind, code: str, config: Path, path: Path) -> str:
    """``code`` of ``kind`` with the names it may use bound, and a damaged program file reported as
    ``game.cli.main`` reports it (one line, exit 1)."""
    body = "".join(f"    {line}\n" for line in code.splitlines())
    return (f"import sys\nfrom pathlib import Path\nfrom guarded.kinds import ProgramFileDamaged\n"
            f"config = Path({str(config)!r})\npath = Path({str(path)!r})\nfolder = path.parent\n"
            f"try:\n{body}except ProgramFileDamaged as error:\n    print(error, file=sys.stderr)\n"
            f"    sys.exit(1)\n")


class Samples:
    """A folder with one valid sample of every kind: ``config/`` (the settings folder), ``files/`` (the files
    only an option names) and the package's own data as shipped."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.config = folder / "config"
        self.files = folder / "files"
        self.problems: list[str] = []
        self.config.mkdir(parents=True, exist_ok=True)
        self.files.mkdir(parents=True, exist_ok=True)
        for kind in KINDS:
            if not kind.is_package_data:
                self._make(kind, self.path(kind, self.config, self.files))

    @staticmethod
    def path(kind: FileKind, config: Path, files: Path, package: Path = ROOT) -> Path:
        """Where ``kind``'s sample lives under a settings folder ``config`` (or ``files``, or the program)."""
        if kind.is_package_data:
            return package / kind.example.split(":", 1)[1]
        if kind.is_option_only:
            return files / kind.example
        return config / kind.example

    def _make(self, kind: FileKind, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        names = {"config": str(self.config), "file": str(path), "folder": str(path.parent)}
        env = {"STONECAVE_CONFIG_DIR": str(self.config)}
        if kind.sample:
            words = [word.format(**names) for word in kind.sample]
            done = run_program(words, kind.sample_input.format(**names), env)
        elif kind.sample_code:
            done = run_program(["--probe", probe_code(kind, kind.sample_code, self.config, path)], env=env)
        else:
            self.problems.append(f"{kind.name}: no way to make a sample (give it sample or sample_code)")
            return
        if done.returncode != 0 or not path.is_file():
            self.problems.append(f"{kind.name}: the sample was not made at {path} (exit {done.returncode}): "
                                 f"{(done.stderr or done.stdout)[-300:]}")


def copy_samples(samples: Samples, into: Path) -> tuple[Path, Path]:
    """A fresh copy of the samples' settings folder and files for one case."""
    config, files = into / "config", into / "files"
    shutil.copytree(samples.config, config, symlinks=True)
    shutil.copytree(samples.files, files, symlinks=True)
    return config, files


def overlay(into: Path) -> Path:
    """A copy of the program made of symbolic links (its files can be replaced one at a time)."""
    root = into / "program"
    for package in PACKAGES:
        for folder, subfolders, names in os.walk(ROOT / package):
            subfolders[:] = [name for name in subfolders if name != "__pycache__"]
            target = root / Path(folder).relative_to(ROOT)
            target.mkdir(parents=True, exist_ok=True)
            for name in names:
                os.symlink(Path(folder) / name, target / name)
    return root


def detach(path: Path) -> None:
    """Replace an overlay's link by a copy of the file it points to (so changing it leaves the original)."""
    if path.is_symlink():
        data = path.read_bytes()
        path.unlink()
        path.write_bytes(data)


# -- special files ---------------------------------------------------------------------------------------------
def can_lock() -> bool:
    """Whether ``chattr +i`` works here (as root, the only way to make a file or a folder read-only)."""
    return os.geteuid() == 0 and shutil.which("chattr") is not None


def make_read_only(path: Path) -> None:
    if can_lock():
        subprocess.run(["chattr", "+i", str(path)], check=False, capture_output=True, env=PLAIN)
    else:
        path.chmod(0o555 if path.is_dir() else 0o444)


def unlock_all(folder: Path) -> None:
    """Undo ``make_read_only`` everywhere under ``folder`` (before it is removed)."""
    if can_lock():
        subprocess.run(["chattr", "-R", "-i", str(folder)], check=False, capture_output=True, env=PLAIN)
    for place, subfolders, names in os.walk(folder):
        for name in subfolders + names:
            try:
                target = Path(place) / name
                if not target.is_symlink():
                    target.chmod(0o755 if target.is_dir() else 0o644)
            except OSError:
                pass


def special(folder: Path, name: str) -> str:
    """A path naming something hostile: ``name`` is one of ``SPECIALS``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"special-{name}"
    if name == "fifo":
        os.mkfifo(path)
    elif name == "symlink-loop":
        os.symlink(path.with_name(path.name + "-2"), path)
        os.symlink(path, path.with_name(path.name + "-2"))
    elif name == "directory":
        path.mkdir()
        (path / "inside.txt").write_text("a file in a folder\n")
    elif name == "read-only-folder":
        path.mkdir()
        make_read_only(path)
        return str(path / "file.out")
    elif name == "missing-folder":
        return str(path / "not" / "there.out")
    elif name == "file-as-folder":
        path.write_text("a file\n")
        return str(path / "below.out")
    elif name.startswith("/dev/"):
        return name
    return str(path)


SPECIALS = ("fifo", "/dev/zero", "/dev/full", "/dev/null", "directory", "symlink-loop", "read-only-folder",
            "missing-folder", "file-as-folder")


# -- mutations -------------------------------------------------------------------------------------------------
def mutate(path: Path, kind: FileKind, mutation: str, rng: random.Random) -> bytes | None:
    """Damage ``path`` in place; the bytes it now holds when it is still a regular file (None otherwise)."""
    data = path.read_bytes() if path.is_file() else b""
    if mutation == "none":
        return data
    if mutation in ("fifo", "symlink-loop", "symlink-zero", "device", "directory"):
        path.unlink()
    if mutation == "truncated":
        data = data[: rng.randrange(max(1, len(data)))]
    elif mutation == "empty":
        data = b""
    elif mutation == "bit-flipped":
        flipped = bytearray(data or b"\0")
        for _ in range(rng.randint(1, 8)):
            spot = rng.randrange(len(flipped))
            flipped[spot] ^= 1 << rng.randrange(8)
        data = bytes(flipped)
    elif mutation == "wrong-shape":
        shape = rng.choice(_OTHER_SHAPES[kind.form])
        data = shape if isinstance(shape, bytes) else shape.encode()
        if kind.form == "json-lines" and b"\n" in path.read_bytes():  # keep the header, then records of another shape
            data = path.read_bytes().split(b"\n", 1)[0] + b"\n" + data
    elif mutation == "hostile-value":
        data = _hostile_value(data, kind, rng)
    elif mutation == "crlf-torn":
        lines = data.replace(b"\r\n", b"\n").split(b"\n")
        if kind.form == "table" or len(lines) < 2:
            data = data + data[: max(1, len(data) // 3)]  # binary: a torn second copy appended
        else:
            whole = b"\r\n".join(lines).rstrip(b"\r\n") + b"\r\n"
            last = [line for line in lines if line.strip()][-1]
            data = whole + last[: max(1, len(last) // 2)]  # and half of the last line again, torn
    elif mutation == "huge":
        with open(path, "r+b") as stream:
            stream.truncate(HUGE)  # sparse: the start stays valid, then gigabytes of zeros
        return None
    elif mutation == "fifo":
        os.mkfifo(path)
        return None
    elif mutation == "symlink-loop":
        os.symlink(path.with_name(path.name + ".loop"), path)
        os.symlink(path, path.with_name(path.name + ".loop"))
        return None
    elif mutation == "symlink-zero":
        os.symlink("/dev/zero", path)
        return None
    elif mutation == "device":
        try:
            os.mknod(path, 0o644 | stat.S_IFCHR, os.makedev(1, 5))  # /dev/zero's numbers
        except OSError:
            os.symlink("/dev/urandom", path)
        return None
    elif mutation == "directory":
        path.mkdir()
        (path / "inside.txt").write_text("a file in a folder\n")
        return None
    elif mutation == "read-only":
        make_read_only(path)
        make_read_only(path.parent)
        return data
    path.write_bytes(data)
    return data


def _hostile_value(data: bytes, kind: FileKind, rng: random.Random) -> bytes:
    """``data`` with one value replaced by a hostile one, keeping its shape (JSON, YAML, or a number in text)."""
    import json
    import re

    import yaml

    value = rng.choice(HOSTILE_VALUES)
    try:
        if kind.form in ("json", "json-lines"):
            lines = data.decode().split("\n")
            spots = [index for index, line in enumerate(lines) if line.strip()]
            index = rng.choice(spots[1:] or spots) if kind.form == "json-lines" else spots[0]
            lines[index] = json.dumps(_replace_leaf(json.loads(lines[index]), value, rng))
            return "\n".join(lines).encode()
        if kind.form == "yaml":
            return yaml.safe_dump(_replace_leaf(yaml.safe_load(data.decode()), value, rng), allow_unicode=True).encode()
    except (ValueError, yaml.YAMLError, UnicodeDecodeError):
        pass
    numbers = list(re.finditer(rb"\d+", data))
    if not numbers:
        return data + str(value).encode()
    spot = rng.choice(numbers)
    text = str(value).encode() if not isinstance(value, (list, dict)) else b"-7"
    return data[: spot.start()] + text + data[spot.end():]


def _replace_leaf(tree, value, rng: random.Random):  # type: ignore[no-untyped-def]
    """``tree`` (parsed JSON or YAML) with one leaf, chosen by ``rng``, replaced by ``value``."""
    if isinstance(tree, dict) and tree:
        key = rng.choice(sorted(tree, key=str))
        return {**tree, key: _replace_leaf(tree[key], value, rng)}
    if isinstance(tree, list) and tree:
        index = rng.randrange(len(tree))
        return [*tree[:index], _replace_leaf(tree[index], value, rng), *tree[index + 1:]]
    return value
