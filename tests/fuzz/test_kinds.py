"""The list of file kinds (guarded.kinds) is the one list: every file name the code uses belongs to a kind."""
from __future__ import annotations

import ast
import fnmatch
import re
from pathlib import Path

import pytest

from guarded.kinds import KINDS, FileKind, kind, kind_of

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("ai", "game", "levels", "guarded", "rules")
FILE_NAME = re.compile(r"^[^/\s{}]*\.(yaml|yml|save|sctable|building|jsonl|json|csv|txt|tmp)$")
MADE_AND_REMOVED_AT_ONCE = {".stonecave-check-*.tmp"}
"""Names of files the program creates and removes in the same breath (``compare``'s check that its output
folder is writable): nothing ever reads one."""


def file_name_patterns(path: Path) -> set[str]:
    """Every string in ``path``'s code that names a file (an f-string's fields become ``*``)."""
    found = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parts = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
    for node in ast.walk(tree):
        if id(node) in parts:
            continue
        if isinstance(node, ast.JoinedStr):
            text = "".join(part.value if isinstance(part, ast.Constant) else "*" for part in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        else:
            continue
        name = text.rsplit("/", 1)[-1]
        if FILE_NAME.match(name):
            found.add(name)
    # a prefix and a suffix passed apart (tempfile.mkstemp(prefix=..., suffix=".tmp")) are named by the suffix
    return found


def is_covered(name: str) -> bool:
    """Whether a registered kind's files can have this name (``name`` may be a glob or just a suffix)."""
    glob = "*" + name if name.startswith(".") and name.count(".") == 1 else name
    # against each kind's example file, not its pattern: "*.yaml" of the levels' folder must not cover a new
    # "scores.yaml" in the settings folder
    return any(fnmatch.fnmatchcase(entry.example.rsplit("/", 1)[-1], glob) for entry in KINDS)


def code_files() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py")
                  if path.name != "kinds.py")


def test_every_file_name_in_the_code_belongs_to_a_registered_kind():
    missing = {}
    for path in code_files():
        for name in file_name_patterns(path):
            if name not in MADE_AND_REMOVED_AT_ONCE and not is_covered(name):
                missing.setdefault(name, path.relative_to(ROOT).as_posix())
    assert not missing, ("file names used in the code that no kind in guarded/kinds.py covers (register each, "
                         f"so the generated attacks damage it): {missing}")


def test_the_scan_finds_the_names_it_must(tmp_path):
    # the scan itself can fail: an unregistered name is reported, a registered one is not
    source = tmp_path / "module.py"
    source.write_text('NAME = "scores.yaml"\nLAYER = f"{stem}-s{seeds}.sctable"\nTEMP = ".tmp"\n'
                      'DOC = "a sentence that ends with settings.yaml"\n', encoding="utf-8")
    names = file_name_patterns(source)
    assert names == {"scores.yaml", "*-s*.sctable", ".tmp"}
    assert not is_covered("scores.yaml")
    assert is_covered("*-s*.sctable") and is_covered(".tmp") and is_covered("settings.yaml")


@pytest.mark.parametrize("entry", KINDS, ids=lambda entry: entry.name)
def test_each_kind_can_be_sampled_and_is_read_by_something(entry: FileKind):
    assert entry.is_package_data or entry.sample or entry.sample_code, f"{entry.name}: no way to make a sample"
    assert entry.readers or entry.probe, f"{entry.name}: nothing reads it, so nothing can be attacked"
    assert entry.matches(entry.example.split(":", 1)[-1]), f"{entry.name}: its example is not one of its files"
    assert entry.form in ("yaml", "save", "json", "json-lines", "table", "csv", "text")
    assert entry.keep in ("", "bytes", "lines")


def test_kinds_have_unique_names_and_are_found_by_name_and_path():
    names = [entry.name for entry in KINDS]
    assert len(names) == len(set(names))
    assert kind("save").pattern == "saves/*.save"
    assert kind_of("saves/kalah-2026.save").name == "save"
    assert kind_of("saves/autosave.save").name == "old-autosave"
    assert kind_of("saves/in-progress/20261127-120000-0a1b2c3d.save").name == "autosave"
    assert kind_of("tables/kalah-p6-emptycapture-s12.sctable").name == "table-layer"
    assert kind_of("ai/data/engines.yaml", package=True).name == "engine-data"
    assert kind_of("notes.txt") is None
    with pytest.raises(KeyError, match="no file kind 'nosuch'"):
        kind("nosuch")


def test_the_kinds_module_imports_nothing_of_stonecave():
    tree = ast.parse((ROOT / "guarded" / "kinds.py").read_text(encoding="utf-8"))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {(node.module or "").split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not imported & {"ai", "game", "rules", "levels", "yaml", "arcade"}, imported
