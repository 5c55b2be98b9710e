"""One guarded path for every file StoneCave reads or writes (issue 31).

Settings, saves, the autosave, statistics, records, levels, engine data, endgame tables and their locks,
checkpoints and results are all files the program did not just create itself: a player (or another program)
may have replaced any of them by a FIFO, a device, a folder, a symlink loop, a huge or truncated file.  The
package ``guarded/`` is the one place that opens, maps or looks at such a file, and it is written to survive
all of that (see docs/architecture.md, "Bad files, bad input and crashes").  This test keeps it the only place:
it parses every module of ``rules/``, ``ai/``, ``game/`` and ``levels/`` with ``ast`` (and reads the Cython
sources of ``ai/core``) and fails on any file access made another way, naming the file, the line and the
guarded function to use instead.

What counts as file access (outside ``guarded/``):
- opening: the builtin ``open``, ``io.open``, ``codecs.open``, ``os.open``, ``os.fdopen``, ``Path.open``;
- reading or writing a whole file: ``Path.read_text/read_bytes/write_text/write_bytes/touch``,
  ``json.load/dump``, ``pickle``/``marshal`` ``load/dump``, every ``yaml`` loader (text too: the guarded
  loader refuses aliases, deep nesting and endless numbers), ``yaml.dump``/``safe_dump`` given a stream;
- mapping or reading binary data: ``mmap.mmap``, ``numpy.fromfile/memmap/load/loadtxt/genfromtxt`` and
  ``numpy.save/savez/savetxt``, ``ndarray.tofile``;
- looking at a file (a stat follows a FIFO's or device's name without opening it, but the answer is then
  used to open it: the look and the open belong together): ``os.stat/lstat/fstat``, ``os.access``,
  ``os.path.exists/lexists/isfile/isdir/islink/getsize/getmtime/getctime/getatime``,
  ``Path.stat/lstat/exists/is_file/is_dir/is_symlink/is_fifo/...``;
- writing other than atomically (a crash must leave the old file or the new one, never half): every write
  above, ``tempfile.mkstemp/NamedTemporaryFile/TemporaryFile/SpooledTemporaryFile``, ``shutil``'s copies and
  moves, and ``os.replace/rename`` (a hand-made atomic write): ``guarded.files.write_atomically`` is the way.

Not counted, because they neither read nor write what a file holds and cannot hang or crash on a hostile one:
listing a folder (``iterdir``, ``glob``), making a folder (``mkdir``) and removing a file (``unlink``).
Files the program's own package ships and a third-party library opens for it (arcade's fonts, textures and
sounds) are out of this test's sight; the program's own data files (levels, menus, rules pages, engine
presets) are read through ``guarded.files`` like any other.

Methods are recognised by name, so a method of StoneCave's own that shares a name (``self.open()``, a call on
``self`` or ``cls``) is not file access; the few calls elsewhere that only look like it are in ``ALLOWED``, each
with its reason.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rules", "ai", "game", "levels")
GUARDED = "guarded"

READ = "guarded.files.read_text / read_bytes / load_yaml"
WRITE = "guarded.files.write_atomically"
LOOK = "guarded.files.status / is_regular / modified"
BINARY = "guarded.binary (the tables' reader: read_binary / read_small)"
YAML = "guarded.files.parse_yaml / load_yaml"
JSON_READ = "guarded.files.read_text, then json.loads"
JSON_WRITE = "json.dumps, then guarded.files.write_atomically"

CALLS = {
    # a function by its full dotted name (imports resolved) -> the guarded function to use instead
    "open": READ, "io.open": READ, "codecs.open": READ, "os.open": READ, "os.fdopen": READ,
    "os.stat": LOOK, "os.lstat": LOOK, "os.fstat": LOOK, "os.access": "guarded.files.writable_problem",
    "os.path.exists": LOOK, "os.path.lexists": LOOK, "os.path.isfile": LOOK, "os.path.isdir": LOOK,
    "os.path.islink": LOOK, "os.path.getsize": LOOK, "os.path.getmtime": LOOK, "os.path.getctime": LOOK,
    "os.path.getatime": LOOK,
    "os.replace": WRITE, "os.rename": WRITE, "os.truncate": WRITE,
    "mmap.mmap": BINARY,
    "numpy.fromfile": BINARY, "numpy.memmap": BINARY, "numpy.load": BINARY, "numpy.loadtxt": BINARY,
    "numpy.genfromtxt": BINARY, "numpy.save": BINARY, "numpy.savez": BINARY, "numpy.savez_compressed": BINARY,
    "numpy.savetxt": BINARY,
    "shutil.copy": WRITE, "shutil.copy2": WRITE, "shutil.copyfile": WRITE, "shutil.copyfileobj": WRITE,
    "shutil.copytree": WRITE, "shutil.move": WRITE,
    "tempfile.mkstemp": WRITE, "tempfile.NamedTemporaryFile": WRITE, "tempfile.TemporaryFile": WRITE,
    "tempfile.SpooledTemporaryFile": WRITE,
    "json.load": JSON_READ, "json.dump": JSON_WRITE,
    "pickle.load": READ, "pickle.dump": WRITE, "marshal.load": READ, "marshal.dump": WRITE,
    "yaml.load": YAML, "yaml.safe_load": YAML, "yaml.full_load": YAML, "yaml.unsafe_load": YAML,
    "yaml.load_all": YAML, "yaml.safe_load_all": YAML, "yaml.full_load_all": YAML,
}
STREAM_DUMPS = {"yaml.dump": WRITE, "yaml.safe_dump": WRITE, "yaml.dump_all": WRITE, "yaml.safe_dump_all": WRITE}
"""Harmless without a stream (they return text); a write when given one."""
METHODS = {
    # a method by name, on anything but ``self``/``cls`` or a guarded module -> the guarded function instead
    "open": READ, "read_text": READ, "read_bytes": READ, "write_text": WRITE, "write_bytes": WRITE,
    "touch": WRITE, "tofile": BINARY,
    "stat": LOOK, "lstat": LOOK, "exists": LOOK, "is_file": LOOK, "is_dir": LOOK, "is_symlink": LOOK,
    "is_fifo": LOOK, "is_socket": LOOK, "is_block_device": LOOK, "is_char_device": LOOK, "is_mount": LOOK,
    "samefile": LOOK,
}
WRITE_MODE = re.compile(r"[wax+]")
WRITE_FLAGS = {"O_WRONLY", "O_RDWR", "O_CREAT", "O_APPEND", "O_TRUNC"}

ALLOWED = {
    # (module, the call as written) -> why it is not file access of the kind this test guards
    ("game/cli.py", "os.open(os.devnull, os.O_WRONLY)"):
        "points stdout at the null device after a reader went away (a broken pipe): no file of anyone's",
    ("ai/search_process.py", 'os.fdopen(os.dup(sys.stdout.fileno()), "wb")'):
        "the search worker's message channel, a copy of its own stdout pipe: no file",
    ("ai/search_process.py", "pickle.load(stream)"):
        "the parent reads its worker's messages from the pipe it made when it started the worker: no file",
    ("ai/search_process.py", "pickle.load(sys.stdin.buffer)"):
        "the worker reads its request from the pipe its parent made: no file",
    ("ai/core/fingerprint.py", "path.read_bytes()"):
        "hashes the program's own Cython sources; setup.py loads this module by its path at build time, before "
        "the project's dependencies (yaml, which guarded needs) are installed",
    ("ai/core/fingerprint.py", "target.exists()"):
        "build time (see above): whether the generated _fingerprint.pxi is there yet",
    ("ai/core/fingerprint.py", 'target.read_text(encoding="ascii")'):
        "build time (see above): the generated _fingerprint.pxi, compared to skip an unchanged write",
    ("ai/core/fingerprint.py", 'target.write_text(text, encoding="ascii")'):
        "build time (see above): writes the generated _fingerprint.pxi into the source tree being built",
    ("game/views/solitaire_view.py", "self.controller.searches.open()"):
        "PuzzleSearches.open starts the puzzle's search workers; it opens no file",
}

AWAITING_OTHER_BRANCHES: dict[tuple[str, str], str] = {
    # (module, call) -> what moves it onto guarded/.  These modules belong to the two other issue-31 branches
    # (tables/locks/solve onto guarded.binary; compare/checkpoint/cluster onto guarded.records), which were
    # being written at the same time.  THE LEAD REMOVES THIS LIST AT MERGE; an entry that no longer matches
    # anything already fails below, so it cannot outlive the fix it waits for.  "ai/tables" covers both
    # ai/tables.py and the package ai/tables/ it becomes.
}
AWAITING_MODULES = ("ai/tables", "ai/kalah_solve.py", "ai/perfect.py", "game/tables_command.py",
                    "game/solve_command.py", "ai/tournament.py", "ai/cluster.py", "ai/checkpoint.py")
"""The other branches' modules: an AWAITING entry may name only these."""


@dataclass(frozen=True)
class Finding:
    module: str
    line: int
    call: str
    """The normalised call (``open()``, ``os.stat()``, ``.exists()``) the lists key on."""
    source: str
    """The call as written."""
    instead: str

    def __str__(self) -> str:
        return f"{self.module}:{self.line}: {self.source[:80]} -- use {self.instead} instead"


class _Scanner(ast.NodeVisitor):
    """Finds file access in one module: names resolved through its imports, methods by name."""

    def __init__(self, module: str, text: str) -> None:
        self.module = module
        self.text = text
        self.lines = text.splitlines()
        self.aliases: dict[str, str] = {}
        self.guarded: set[str] = set()
        self.modules: set[str] = set()
        """Names bound by ``import X``: a module's function called ``open`` or ``exists`` is no Path method."""
        self.findings: list[Finding] = []

    # -- imports --------------------------------------------------------------------------------------------
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            local = alias.asname or alias.name.split(".")[0]
            target = alias.name if alias.asname else alias.name.split(".")[0]
            self.aliases[local] = target
            self.modules.add(local)
            if target.split(".")[0] == GUARDED:
                self.guarded.add(local)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = node.module or ""
        for alias in node.names:
            local = alias.asname or alias.name
            self.aliases[local] = f"{base}.{alias.name}" if base else alias.name
            if base.split(".")[0] == GUARDED:
                self.guarded.add(local)

    def _dotted(self, node: ast.AST) -> str | None:
        """``os.path.exists`` for a Name/Attribute chain, its head resolved through the module's imports."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        head = self.aliases.get(node.id, node.id)
        return ".".join([head, *reversed(parts)])

    # -- calls ----------------------------------------------------------------------------------------------
    def visit_Call(self, node: ast.Call) -> None:
        self.generic_visit(node)
        source = ""  # the call as written: the finder below takes it from the lines (get_source_segment is slow)
        name = self._dotted(node.func)
        if name is not None and name.split(".")[0] == "np":
            name = "numpy" + name[2:]
        if name == "os.open":
            writes = any(isinstance(n, ast.Attribute) and n.attr in WRITE_FLAGS for n in ast.walk(node))
            self._found(node, "os.open()", source, WRITE if writes else READ)
            return
        if name in CALLS:
            self._found(node, f"{name}()", source, _instead(CALLS[name], node))
            return
        if name in STREAM_DUMPS and (len(node.args) > 1 or any(k.arg == "stream" for k in node.keywords)):
            self._found(node, f"{name}()", source, STREAM_DUMPS[name])
            return
        if isinstance(node.func, ast.Attribute) and node.func.attr in METHODS:
            receiver = node.func.value
            if isinstance(receiver, ast.Name) and (receiver.id in ("self", "cls") or receiver.id in self.guarded):
                return
            head = receiver
            while isinstance(head, ast.Attribute):
                head = head.value
            if isinstance(head, ast.Name) and head.id in self.modules:
                return  # a module's own function (webbrowser.open, os.path.exists judged above by its full name)
            instead = METHODS[node.func.attr]
            if node.func.attr == "open":
                instead = _instead(instead, node, mode_index=0)
            self._found(node, f".{node.func.attr}()", source, instead)

    def _found(self, node: ast.Call, call: str, source: str, instead: str) -> None:
        if node.end_lineno == node.lineno and node.end_col_offset is not None:
            source = self.lines[node.lineno - 1][node.col_offset:node.end_col_offset]
        else:
            source = self.lines[node.lineno - 1][node.col_offset:].strip() + " ..."
        self.findings.append(Finding(self.module, node.lineno, call, source, instead))


def _instead(default: str, node: ast.Call, mode_index: int = 1) -> str:
    """WRITE when an open's mode (positional ``mode_index`` or ``mode=``) writes, else ``default``."""
    mode: ast.AST | None = node.args[mode_index] if len(node.args) > mode_index else None
    for keyword in node.keywords:
        if keyword.arg == "mode":
            mode = keyword.value
    if isinstance(mode, ast.Constant) and isinstance(mode.value, str) and WRITE_MODE.search(mode.value):
        return WRITE
    return default


CYTHON_ACCESS = re.compile(r"\b(fopen|open|mmap|fromfile|memmap)\s*\(")


def scan_source(module: str, text: str) -> list[Finding]:
    """Every file access in one module's source (Python parsed with ``ast``; Cython by a line pattern)."""
    if module.endswith((".pyx", ".pxi")):
        findings = []
        for number, line in enumerate(text.splitlines(), start=1):
            code = line.split("#", 1)[0]
            match = CYTHON_ACCESS.search(code)
            if match and not (match.group(1) == "mmap" and "MAP_ANONYMOUS" in code):  # memory, not a file
                findings.append(Finding(module, number, f"{match.group(1)}()", line.strip(), BINARY))
        return findings
    scanner = _Scanner(module, text)
    scanner.visit(ast.parse(text, filename=module))
    return scanner.findings


def scan() -> list[Finding]:
    findings: list[Finding] = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*")):
            if path.suffix in (".py", ".pyx", ".pxi") and "build" not in path.parts:
                module = path.relative_to(ROOT).as_posix()
                findings += scan_source(module, path.read_text(encoding="utf-8"))
    return findings


def _awaiting(finding: Finding) -> str | None:
    for (module, call), reason in AWAITING_OTHER_BRANCHES.items():
        same_module = finding.module == module or finding.module.startswith(module.removesuffix(".py") + "/") \
            or finding.module == module + ".py"
        if same_module and finding.call == call:
            return reason
    return None


def _allowed(finding: Finding) -> bool:
    return (finding.module, finding.source) in ALLOWED


# -- the rule ----------------------------------------------------------------------------------------------------
def test_no_module_outside_guarded_opens_maps_or_looks_at_a_file_by_other_means() -> None:
    strays = [finding for finding in scan() if not _allowed(finding) and _awaiting(finding) is None]
    assert not strays, "file access outside guarded/ (see tests/test_guarded_path.py for what counts):\n" + \
        "\n".join(map(str, strays))


def test_every_allowance_and_awaited_entry_still_matches_something() -> None:
    """An allowance whose call is gone, or an awaited violation the other branch has fixed, must go too."""
    findings = scan()
    stale = [f"ALLOWED {key}" for key in ALLOWED if not any((f.module, f.source) == key for f in findings)]
    for key in AWAITING_OTHER_BRANCHES:
        if not any(_awaiting(f) is not None and f.call == key[1] and f.module.startswith(key[0].removesuffix(".py"))
                   for f in findings):
            stale.append(f"AWAITING_OTHER_BRANCHES {key}")
    assert not stale, "remove these entries, nothing matches them any more:\n" + "\n".join(stale)


def test_awaited_entries_name_only_the_other_branches_modules() -> None:
    assert all(module in AWAITING_MODULES for module, _call in AWAITING_OTHER_BRANCHES)


def test_guarded_depends_on_nothing_of_stonecave() -> None:
    """``ai``, ``levels`` and ``game`` all use it, so it may import none of them (nor ``rules``)."""
    for path in (ROOT / GUARDED).glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            for name in names:
                assert name.split(".")[0] not in (*PACKAGES, "arcade"), f"{path.name} imports {name}"


# -- the scanner itself: it must see each form, and name the place and the way instead ------------------------
CAUGHT = [
    ("open(path)", "open()", READ),
    ("open(path, 'w')", "open()", WRITE),
    ("open(path, mode='ab')", "open()", WRITE),
    ("import io\nio.open(path)", "io.open()", READ),
    ("import os\nos.open(path, os.O_RDONLY)", "os.open()", READ),
    ("import os\nos.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)", "os.open()", WRITE),
    ("import os as system\nsystem.stat(path)", "os.stat()", LOOK),
    ("from os import lstat\nlstat(path)", "os.lstat()", LOOK),
    ("import os\nos.path.getsize(path)", "os.path.getsize()", LOOK),
    ("from os import path as p\np.exists(name)", "os.path.exists()", LOOK),
    ("import os\nos.replace(a, b)", "os.replace()", WRITE),
    ("import mmap\nmmap.mmap(fd, 0)", "mmap.mmap()", BINARY),
    ("import numpy as np\nnp.fromfile(path)", "numpy.fromfile()", BINARY),
    ("import numpy\nnumpy.memmap(path)", "numpy.memmap()", BINARY),
    ("from numpy import load\nload(path)", "numpy.load()", BINARY),
    ("import shutil\nshutil.copyfile(a, b)", "shutil.copyfile()", WRITE),
    ("import tempfile\ntempfile.NamedTemporaryFile(dir=d)", "tempfile.NamedTemporaryFile()", WRITE),
    ("import json\njson.load(stream)", "json.load()", JSON_READ),
    ("import yaml\nyaml.safe_load(text)", "yaml.safe_load()", YAML),
    ("import yaml\nyaml.safe_dump(data, stream)", "yaml.safe_dump()", WRITE),
    ("path.read_text(encoding='utf-8')", ".read_text()", READ),
    ("Path(name).write_bytes(data)", ".write_bytes()", WRITE),
    ("(folder / name).open('a')", ".open()", WRITE),
    ("self.path.open()", ".open()", READ),
    ("self.path.stat().st_mtime", ".stat()", LOOK),
    ("candidate.is_file()", ".is_file()", LOOK),
    ("kept.exists()", ".exists()", LOOK),
    ("array.tofile(path)", ".tofile()", BINARY),
]


@pytest.mark.parametrize(("source", "call", "instead"), CAUGHT)
def test_the_scanner_catches_each_form_and_says_what_to_use(source: str, call: str, instead: str) -> None:
    findings = scan_source("game/example.py", "x = 1\n" + source + "\n")
    assert [(f.call, f.instead) for f in findings] == [(call, instead)]
    assert str(findings[0]).startswith(f"game/example.py:{source.count(chr(10)) + 2}: ")
    assert str(findings[0]).endswith(f"use {instead} instead")


PASSED = [
    "from guarded import files\nfiles.read_text(path)",
    "from guarded import files\nfiles.write_atomically(path, text)",
    "import guarded.files\nguarded.files.load_yaml(path)",
    "from guarded.files import read_bytes\nread_bytes(path)",
    "self.open(puzzle)",
    "cls.exists()",
    "import os\nos.path.join(a, b)",
    "import yaml\nyaml.safe_dump(data, sort_keys=False)",
    "import json\njson.loads(text)",
    "import webbrowser\nwebbrowser.open(url)",
    "folder.mkdir(parents=True, exist_ok=True)",
    "sorted(folder.glob('*.yaml'))",
    "path.unlink(missing_ok=True)",
]


@pytest.mark.parametrize("source", PASSED)
def test_the_scanner_passes_guarded_calls_and_harmless_look_alikes(source: str) -> None:
    assert scan_source("game/example.py", source + "\n") == []


def test_the_scanner_reads_cython_sources() -> None:
    text = "cdef void* memory = mmap(NULL, n, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)\n" \
           "cdef FILE* stream = fopen(name, 'rb')  # a table\n"
    assert [(f.line, f.call) for f in scan_source("ai/core/example.pxi", text)] == [(2, "fopen()")]
