"""Every kind of file StoneCave reads, writes or removes, in one list: the generated attacks mutate each one.

A kind names where its files live (``pattern``: relative to the settings folder, or ``package:`` for data that
ships with the program and a user may edit), which command-line options name such a file, what must survive a
bad copy (``keep``), how to make a valid sample by running the program itself, and which commands (or, for the
files only the window reads, which lines of Python) read it.  ``tests/fuzz`` takes every registered kind,
makes a sample, damages it in every way it knows (truncated, bit-flipped, another shape, huge, a FIFO, a
symbolic link, a device, a folder, read-only) and runs its readers under a time and memory bound.  So a new
kind of file is attacked as soon as it is registered here, and ``tests/fuzz/test_kinds.py`` fails when the code
names a file suffix or name no kind covers.

In the command lines and code, ``{config}`` is the settings folder (``$STONECAVE_CONFIG_DIR``), ``{file}`` the
kind's file, ``{folder}`` the folder holding it and ``{package}`` the folder the program runs from.  This module
is data only: it imports nothing of StoneCave (the code strings run in the fuzz's own bounded processes).
It also holds ``ProgramFileDamaged``, the one error for a damaged file of the program itself (its YAML data):
the loaders raise it naming the file, and ``game.cli.main`` turns it into one line instead of a traceback.
"""
from __future__ import annotations

import fnmatch
from dataclasses import dataclass

SAVE_GAME = ("text", "kalah:pits=4,seeds=3", "--south", "human", "--north", "human")
"""A console game whose first move and ``save`` write a valid save file (its input: ``SAVE_INPUT``)."""
SAVE_INPUT = "new\n3\nsave {file}\nquit\nquit\n"
TABLE_GAME = "kalah:pits=3,seeds=2"
"""The smallest Kalah whose tables, solve and compare run in a fraction of a second."""
TABLE_BUILD = ("tables", "build", "kalah:pits=3", "--seeds", "4", "--folder", "{config}/tables")
COMPARE = ("compare", "--game", TABLE_GAME, "--engine", "random", "--engine", "random", "--games", "2")


class ProgramFileDamaged(ValueError):
    """A data file installed with StoneCave (engines, presets, menus, rules pages, settings description) cannot
    be used: the message names the file and what is wrong, and how to get a good one back."""

    def __init__(self, path: object, reason: object) -> None:
        super().__init__(f"{path}: {reason} (this file comes with StoneCave: undo the change made to it, or "
                         "reinstall: python -m pip install -e .)")


@dataclass(frozen=True)
class FileKind:
    """One kind of file, with what the fuzz needs to make a valid one and to run what reads it."""

    name: str
    description: str
    pattern: str
    """Where such files live: a glob relative to the settings folder (``saves/*.save``), ``package:`` and a glob
    relative to the program's folder for shipped data, or ``option:`` when only a command-line option names it."""
    example: str
    """The concrete file a sample is written to (same convention as ``pattern``)."""
    form: str
    """``yaml``, ``save``, ``json``, ``json-lines``, ``table``, ``csv`` or ``text``: what another shape means."""
    options: tuple[str, ...] = ()
    """The command-line options that name such a file, as ``command --option``."""
    keep: str = ""
    """What an attack must never lose: ``bytes`` (a bad file is set aside or left, never destroyed), ``lines``
    (every complete record line survives), or empty for data the program may rebuild or replace."""
    sample: tuple[str, ...] = ()
    """A ``stonecave`` command line that writes a valid sample (with ``sample_input`` on its standard input)."""
    sample_input: str = ""
    sample_code: str = ""
    """Or Python that writes one with the program's own writer (names bound: ``config``, ``path``, ``Path``)."""
    readers: tuple[tuple[str, ...], ...] = ()
    """``stonecave`` command lines that read such a file (none for files only the window reads)."""
    probe: str = ""
    """Python that reads such a file the way the window does (names bound: ``config``, ``path``, ``Path``)."""
    changed_by: tuple[str, ...] = ()
    """Options that change such a file by design, as ``command --option`` (``gui --fullscreen`` remembers
    the choice in the settings): the fuzz does not count that change as a loss."""

    @property
    def is_package_data(self) -> bool:
        return self.pattern.startswith("package:")

    @property
    def is_option_only(self) -> bool:
        return self.pattern.startswith("option:")

    def matches(self, relative: str) -> bool:
        """Whether a path (relative to its root, with ``/``) is a file of this kind."""
        pattern = self.pattern.split(":", 1)[1] if ":" in self.pattern else self.pattern
        return fnmatch.fnmatchcase(relative, pattern)


_SETTINGS = "from game.settings import SettingsStore\nstore = SettingsStore(config)\n"
_STATISTICS = "from game.statistics import StatisticsStore\nstore = StatisticsStore(config)\n"
_RECORDS = "from game.records import RecordsStore, PuzzleResult, deal_key\nstore = RecordsStore(config)\n"
_TABLES_STATUS = ("tables", "status", "kalah:pits=3", "--folder", "{folder}")
_SOLVE = ("solve", TABLE_GAME, "--folder", "{folder}")
_PROVE = ("solve", "kalah:pits=3,seeds=3", "--no-tables", "--no-pv", "--prover", "board", "--memory", "1",
          "--checkpoint", "{file}")
"""The board prover with a 1 MB table: it writes (and, when the file is there, resumes) a small checkpoint."""

KINDS: tuple[FileKind, ...] = (
    FileKind(
        "settings", "the player's settings", "settings.yaml", "settings.yaml", "yaml", keep="bytes",
        sample_code=_SETTINGS + "settings, _ = store.load()\nsettings.set('sound', False)\nstore.save(settings)",
        probe=_SETTINGS + "print(store.load()[1])", changed_by=("gui --fullscreen", "gui --windowed")),
    FileKind(
        "statistics", "the finished games' results", "statistics.yaml", "statistics.yaml", "yaml", keep="bytes",
        sample_code=(_STATISTICS + "store.load()\nfrom game.statistics import GameRecord\n"
                     "store.records.append(GameRecord('kalah', 'computer', 'alphabeta:depth=4', 'won', 31, "
                     "'2026-11-27'))\n"
                     "store.save()"),
        probe=_STATISTICS + "print(store.load(), len(store.tallies()))"),
    FileKind(
        "puzzle-records", "the best result of each Solitaire Mancala deal and level", "puzzles.yaml",
        "puzzles.yaml", "yaml", keep="bytes",
        sample_code=(_RECORDS + "store.load()\nstore.record(deal_key('dose', 7), PuzzleResult(40, 120))\n"
                     "store.save()"),
        probe=_RECORDS + "print(store.load())"),
    # the games in progress before "save": a file is of the first kind whose pattern it matches
    FileKind(
        "autosave", "a game in progress (one file a slot), offered for Resume", "saves/in-progress/*.save",
        "saves/in-progress/20261127-120000-fuzz0001.save", "save",
        keep="bytes", sample=SAVE_GAME, sample_input=SAVE_INPUT,
        probe="from game.autosave import Autosave\nprint(Autosave(path.parent.parent).games())"),
    FileKind(
        "old-autosave", "the single autosave of earlier versions, adopted as a slot when found",
        "saves/autosave.save", "saves/autosave.save", "save", sample=SAVE_GAME, sample_input=SAVE_INPUT,
        probe="from game.autosave import Autosave\nprint(Autosave(path.parent).games())"),
    FileKind(
        "save", "a saved game", "saves/*.save", "saves/kalah-fuzz.save", "save",
        options=("text --load", "gui --load"), keep="bytes", sample=SAVE_GAME, sample_input=SAVE_INPUT,
        readers=(("text", "kalah:pits=4,seeds=3", "--load", "{file}"), ("review", "{file}", "--time", "0.05")),
        probe=("from game import savegame\ntry:\n    print(savegame.load(path))\n"
               "except (savegame.SaveError, OSError, ValueError) as error:  # what the load screen shows\n"
               "    print(error)")),
    FileKind(
        "save-temporary", "what a save killed midway leaves, removed at the next start", "saves/.*.tmp",
        "saves/.kalah-fuzz.save.abc123.tmp", "save", sample=SAVE_GAME, sample_input=SAVE_INPUT,
        probe="from game import savegame\nprint(savegame.remove_stale_temporaries(path.parent))"),
    FileKind(
        "table-layer", "an endgame table layer", "tables/*.sctable", "tables/kalah-p3-emptycapture-s4.sctable",
        "table", options=("tables --folder", "solve --folder"), sample=TABLE_BUILD,
        readers=(_TABLES_STATUS, _SOLVE, ("tables", "build", "kalah:pits=3", "--seeds", "4", "--folder", "{folder}"))),
    FileKind(
        "table-lock", "the lock and progress of a table build", "tables/*.building",
        "tables/kalah-p3-emptycapture.building", "json", options=("tables --folder",),
        sample_code=("from ai.tables import BuildLock\nlock = BuildLock(path.parent, 3, True, 4)\n"
                     "assert lock.claim()\nlock.report(2, 10, 21, force=True)"),
        readers=(_TABLES_STATUS, ("tables", "build", "kalah:pits=3", "--seeds", "4", "--folder", "{folder}"))),
    FileKind(
        "checkpoint", "a compare run's checkpoint (one game record a line)", "option:*.jsonl",
        "checkpoint.jsonl", "json-lines", options=("compare --checkpoint", "compare --resume"), keep="lines",
        sample=(*COMPARE, "--quiet", "--checkpoint", "{file}"),
        readers=((*COMPARE, "--resume", "{file}"),)),
    FileKind(
        "proof-checkpoint", "a board proof's checkpoint (its header, then its transposition table)",
        "option:*.ckpt", "proof.ckpt", "table", options=("solve --checkpoint",), sample=_PROVE,
        readers=(_PROVE,), changed_by=("solve --checkpoint",)),
    FileKind(
        "compare-csv", "a compare run's summary as CSV", "option:*.csv", "results.csv", "csv",
        options=("compare --csv",), sample=(*COMPARE, "--quiet", "--csv", "{file}"),
        readers=((*COMPARE, "--quiet", "--csv", "{file}"),)),
    FileKind(
        "compare-json", "a compare run's summary and games as JSON", "option:*.json", "results.json", "json",
        options=("compare --json",), sample=(*COMPARE, "--quiet", "--json", "{file}"),
        readers=((*COMPARE, "--quiet", "--json", "{file}"),)),
    FileKind(
        "engine-data", "the engines' descriptions and the presets", "package:ai/data/*.yaml",
        "package:ai/data/engines.yaml", "yaml",
        readers=(("engines", "kalah"), ("text", "kalah")),
        probe="from ai import registry\nprint(len(registry.engines()))"),
    FileKind(
        "presets", "the levels' engine presets", "package:ai/data/presets.yaml", "package:ai/data/presets.yaml",
        "yaml", readers=(("engines", "kalah"),),
        probe="import rules\nfrom ai import registry\nprint(registry.presets(rules.get_game('kalah')))"),
    FileKind(
        "calibration", "the calibration of the search's scores (seed margins, chances)",
        "package:ai/data/calibration.json", "package:ai/data/calibration.json", "json",
        probe="from ai import calibration\ncalibration.shipped()\nprint(calibration.problem())"),
    FileKind(
        "opening-book", "a Kalah opening book", "package:ai/data/*_book.txt",
        "package:ai/data/kalah_6_4_no_empty_capture_book.txt", "text",
        probe=("import rules\nfrom ai import book\n"
               "print(book.book_for(rules.parse_game_spec('kalah:pits=6,seeds=4,empty_capture=false')))")),
    FileKind(
        "opening-proof", "a Kalah opening proof (the Perfect level's moves from the first one)",
        "package:ai/data/*_proof.txt", "package:ai/data/kalah_6_4_empty_capture_proof.txt", "text",
        probe=("import rules\nfrom ai import kalah_proofs\n"
               "try:\n    print(kalah_proofs.proof_for(rules.parse_game_spec('kalah:pits=6,seeds=4'))"
               ".value)\nexcept kalah_proofs.ProofError as error:  # what Perfect names and plays on without\n"
               "    print(error)")),
    FileKind(
        "menu", "the main menu", "package:game/menus/main.yaml",
        "package:game/menus/main.yaml", "yaml", readers=(("text", "kalah"), ("text", "solitaire")),
        probe="from game import catalogue\nprint(catalogue.main_menu(), catalogue.games())"),
    FileKind(
        "rules-pages", "the rules screens' text", "package:game/menus/games.yaml", "package:game/menus/games.yaml",
        "yaml", probe="from game.views.rules_view import pages\nprint(len(pages()))"),
    FileKind(
        "settings-schema", "the settings menu's description", "package:game/menus/settings.yaml",
        "package:game/menus/settings.yaml", "yaml",
        probe="from game.settings import SettingsStore\nprint(SettingsStore(config).load()[1])"),
    FileKind(
        "level", "a Solitaire Mancala level", "package:levels/solitaire/*.yaml",
        "package:levels/solitaire/dose-01.yaml", "yaml",
        readers=(("text", "solitaire", "--level", "1"),),
        probe="from levels.solitaire import load_levels\nprint(load_levels()[1])"),
)
"""Every kind, in the order the fuzz attacks them."""

SET_ASIDE = "*.bad-*"
"""What ``guarded.files.set_aside`` renames a bad file to: kept for the player, never read again."""


def kind(name: str) -> FileKind:
    """The registered kind called ``name`` (KeyError naming the known ones otherwise)."""
    for entry in KINDS:
        if entry.name == name:
            return entry
    raise KeyError(f"no file kind {name!r} (known: {', '.join(entry.name for entry in KINDS)})")


def kind_of(relative: str, package: bool = False) -> FileKind | None:
    """The kind of a file at ``relative`` (under the settings folder, or the program's folder when
    ``package``), or None when no registered kind covers it."""
    for entry in KINDS:
        if entry.is_package_data == package and not entry.is_option_only and entry.matches(relative):
            return entry
    return None
