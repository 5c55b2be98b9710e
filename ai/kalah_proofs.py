"""Opening proofs: the Perfect level's exact moves for Kalah(6,4) from the first move, under both capture rules.

Kalah(6,4) is solved (+10 for the first player with the empty-capture rule, +8 without it), but no proof of an
opening position fits in a move's time.  An opening proof is the part of a proof the Perfect level needs, made
offline: for the *proving* side, one proven move per position; for the opponent, every reply; down to the
positions a cold prover proves exactly within ``LEAF_NODES`` nodes (a tenth to a third of a second), where the
Perfect level's own prover takes over.  There are two such trees in a file, one with South proving (from the
start) and one with North proving (from every South first move), and a position is keyed colour-free
(``Kalah.key``: the ring from the side to move), so a position both trees reach is one entry.

Each entry is a position with the proving side to move: the move that keeps the position's exact value, that
value (the final margin for the side to move, stores included), and whether the prover takes over after it
(*leaf*).  The value is exact, after the opponent's mistakes too: from any position of the tree the Perfect level
keeps the position's own value, not only the opening's; where the exact value cost the build more than
``EXACT_NODES``, the entry holds the best lower bound proved instead (at least what the entry before it promised)
and says so (``exact`` 0).  Boards the endgame tables a player
has (``PLAY_TABLE_SEEDS``) are not entered: the Perfect level reads those from the tables.

What the file guarantees (``check``):
- its body's SHA-256 is the header's, and the header names the game and the start's value;
- every entry is a legal Kalah(6,4) position of 48 seeds with a legal move and a value within the seeds, and the
  start and every position where South's first turn can end are entries;
- *closed*: after an entry's move that is not a leaf, every reply of the opponent (through the opponent's extra
  turns) ends the game no lower than the value or reaches an entry, whose value is no lower (the opponent cannot
  improve on a proven value), or reaches a board the play tables hold.
When the game reads the file it checks the SHA-256, the header, the count of lines and fields and the start's and
the roots' entries (a few hundredths of a second for a hundred thousand entries: an entry is decoded when it is looked up, and
checked then, so an entry that is not a legal position and move is never played); the SHA-256 stands for the
rest.  The build, ``python -m ai.kalah_proofs check`` and the tests check everything.
That the values are right is the build's work (the board solver, ``ai.kalah_solver``, with the 0..20 seed
tables) and the tests': ``tests/ai/test_kalah_proofs.py`` proves a sample of entries again from nothing.

This module reads and checks; ``ai.kalah_proof_build`` builds (its command is this module's:
``python -m ai.kalah_proofs build|finish|check``).
"""
from __future__ import annotations

import hashlib
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Mapping

import rules
from guarded import files
from rules.kalah import Kalah, KalahState

FORMAT = "stonecave-kalah-opening-proof 1"
DATA = Path(__file__).resolve().parent / "data"
PROOF_FILES = {f"kalah:pits=6,seeds=4,empty_capture={flag}": f"kalah_6_4_{rule}_proof.txt"
               for flag, rule in (("true", "empty_capture"), ("false", "standard"))}
"""The proofs shipped, by the exact game spec they prove."""
LEAF_NODES = 250_000
"""A position is a leaf when a cold prover (``PLAY_TABLE_SEEDS`` tables, ``LEAF_MEGABYTES``) proves its exact value
in this many nodes, given the value: about a quarter of a second on one core of this project's machines."""
PLAY_TABLE_SEEDS = 14
"""The tables every player has (the first-use set of 6 pits): the leaves are measured with these, and boards
within them are not entered."""
LEAF_MEGABYTES = 64.0
SIZE_LIMIT = 16 * 1024 * 1024


class ProofError(ValueError):
    """A damaged or wrong opening proof: names the file, the line and what is wrong."""


@dataclass(frozen=True, slots=True)
class Proven:
    """One position's proven move: it keeps ``value`` (the exact final margin for the side to move)."""

    move: int
    value: int
    leaf: bool
    exact: bool = True
    """False: ``value`` is a proven lower bound (the exact value cost more than ``EXACT_NODES`` to find)."""


Key = tuple[int, ...]


class _Lines(Mapping[Key, Proven]):
    """A read file's entries, each decoded when it is asked for: reading a file is one pass over its lines."""

    __slots__ = ("_lines",)

    def __init__(self, lines: dict[str, str]) -> None:
        self._lines = lines
        """The body's lines: the position's text to the rest of the line."""

    def __getitem__(self, key: Key) -> Proven:
        move, value, leaf, exact = self._lines[",".join(map(str, key))].split("\t")
        return Proven(int(move), int(value), leaf == "1", exact == "1")

    def __contains__(self, key: object) -> bool:
        return isinstance(key, tuple) and ",".join(map(str, key)) in self._lines

    def __iter__(self) -> Iterator[Key]:
        return (tuple(map(int, text.split(","))) for text in self._lines)

    def __len__(self) -> int:
        return len(self._lines)


@dataclass
class OpeningProof:
    """The entries of one rule's opening proof, keyed by ``Kalah.key``."""

    game: Kalah
    entries: Mapping[Key, Proven]
    header: dict[str, str]

    def __len__(self) -> int:
        return len(self.entries)

    def lookup(self, state: KalahState) -> Proven | None:
        """The proven move of ``state``, or None when the proof does not hold it (or holds an entry that is not a
        legal move there: only a file changed and sealed again by hand has one, and ``check`` names it)."""
        key = self.game.key(state)
        try:
            entry = self.entries.get(key)
        except ValueError:                   # a line whose fields are not whole numbers
            return None
        if entry is None or _entry_problem(self.game, key, entry):
            return None
        return entry

    @property
    def value(self) -> int:
        """The start's value for South."""
        return self.entries[self.game.key(self.game.initial_state())].value

    # -- the file -----------------------------------------------------------------------------------------------
    def body(self) -> str:
        lines = []
        for key in sorted(self.entries):
            entry = self.entries[key]
            lines.append(f"{','.join(map(str, key))}\t{entry.move}\t{entry.value}\t{int(entry.leaf)}\t"
                         f"{int(entry.exact)}")
        return "\n".join(lines) + "\n"

    def to_text(self, header: dict[str, str] | None = None) -> str:
        body = self.body()
        fields = dict(header if header is not None else self.header)
        fields["game"] = self.game.spec
        fields["entries"] = str(len(self.entries))
        fields["sha256"] = hashlib.sha256(body.encode()).hexdigest()
        head = [f"# {FORMAT}"] + [f"# {name}: {value}" for name, value in fields.items()]
        return "\n".join(head) + "\n" + body


def _split(text: str) -> tuple[dict[str, str], str, int]:
    """A proof's header fields (the ``# name: value`` lines after the first), its body, and the body's first
    line number."""
    lines = text.split("\n")
    number = 1
    while number < len(lines) and lines[number].startswith("# "):
        number += 1
    header = dict(line[2:].partition(": ")[::2] for line in lines[1:number])
    return header, "\n".join(lines[number:]), number


def parse(text: str, source: str = "<proof>", expected_spec: str | None = None, closed: bool = True) -> OpeningProof:
    """Read a proof's text and ``check`` it (ProofError naming the line and the fault); ``closed=False`` checks
    the count of lines and fields and the start's and the roots' entries, and leaves each entry's own check to
    ``lookup`` (what the game does on load: the SHA-256 stands for the rest)."""
    if not text.startswith(f"# {FORMAT}\n"):
        raise ProofError(f"{source}: not an opening proof (the first line should be '# {FORMAT}')")
    header, body, number = _split(text)
    for field in ("game", "entries", "sha256"):
        if field not in header:
            raise ProofError(f"{source}: the header has no '{field}:' line")
    if expected_spec is not None and header["game"] != expected_spec:
        raise ProofError(f"{source}: proves {header['game']!r}, not {expected_spec!r}")
    if hashlib.sha256(body.encode()).hexdigest() != header["sha256"]:
        raise ProofError(f"{source}: the body does not match the header's SHA-256 (the file was changed or "
                         "damaged; rebuild it with python -m ai.kalah_proofs build)")
    try:
        game = rules.parse_game_spec(header["game"])
    except ValueError as error:
        raise ProofError(f"{source}: the header's game: {error}") from None
    if not isinstance(game, Kalah):
        raise ProofError(f"{source}: proves {header['game']!r}, which is not Kalah")
    lines = body.split("\n")[:-1]
    if not closed and str(len(lines)) == header["entries"] and body.count("\t") == 4 * len(lines):
        read = _Lines(dict(line.split("\t", 1) for line in lines))
        if len(read) == len(lines):          # else a position appears twice: the loop below names the line
            proof = OpeningProof(game, read, header)
            problem = _roots_problem(proof)
            if problem:
                raise ProofError(f"{source}: {problem}")
            return proof
    entries: dict[Key, Proven] = {}
    for offset, line in enumerate(lines):
        where = f"{source}:{number + offset + 1}"
        fields = line.split("\t")
        if len(fields) != 5:
            raise ProofError(f"{where}: expected 5 tab-separated fields (position, move, value, leaf, exact), "
                             f"found {len(fields)}")
        try:
            key = tuple(int(count) for count in fields[0].split(","))
            entry = Proven(int(fields[1]), int(fields[2]), fields[3] == "1", fields[4] == "1")
        except ValueError:
            raise ProofError(f"{where}: a field is not a whole number") from None
        if fields[3] not in ("0", "1") or fields[4] not in ("0", "1"):
            raise ProofError(f"{where}: the leaf and exact fields are 0 or 1, not {fields[3]!r} and {fields[4]!r}")
        if key in entries:
            raise ProofError(f"{where}: the position appears twice")
        entries[key] = entry
    if str(len(entries)) != header["entries"]:
        raise ProofError(f"{source}: the header says {header['entries']} entries, the body has {len(entries)}")
    proof = OpeningProof(game, entries, header)
    problem = check(proof) if closed else _roots_problem(proof)
    if problem:
        raise ProofError(f"{source}: {problem}")
    return proof


def state_of(game: Kalah, key: Key) -> KalahState:
    """The position with South to move whose ``Kalah.key`` is ``key`` (the key is colour-free)."""
    return KalahState(key, 0)


def first_turns(game: Kalah) -> list[KalahState]:
    """Where South's first turn can end (extra turns played out): the positions North's tree proves from."""
    ends, frontier = [], [game.initial_state()]
    while frontier:
        state = frontier.pop()
        for move in game.legal_moves(state):
            child = game.apply(state, move)
            if game.is_terminal(child) or game.to_move(child) == 1:
                ends.append(child)
            else:
                frontier.append(child)
    return ends


def north_roots(game: Kalah, entries: dict[Key, Proven]) -> list[KalahState]:
    """``first_turns``, the one South's proven moves reach first (when the entries say), then the others."""
    line, state = None, game.initial_state()
    while not game.is_terminal(state) and game.to_move(state) == 0 and game.key(state) in entries:
        state = game.apply(state, entries[game.key(state)].move)
        line = state
    ends = first_turns(game)
    return sorted(ends, key=lambda end: end != line)


def open_positions(game: Kalah, entries: dict[Key, Proven], root: KalahState, play_top: int) -> tuple[int, int]:
    """How many positions of North's tree from ``root`` still lack an entry, and how many have one: the proving
    side to move, reached through the entries' moves and every reply, not a finished game nor a board the play
    tables hold ((0, n): the tree is complete; (1, 0): nothing is known of it)."""
    prover = game.to_move(root)
    seen: set[Key] = set()
    missing = held = 0
    stack = [root]
    while stack:
        state = stack.pop()
        if game.is_terminal(state):
            continue
        if game.to_move(state) != prover:
            stack.extend(game.apply(state, move) for move in game.legal_moves(state))
            continue
        key = game.key(state)
        if key in seen or sum(state.pits) <= play_top:
            continue
        seen.add(key)
        entry = entries.get(key)
        if entry is None:
            missing += 1
            continue
        held += 1
        if not entry.leaf:
            stack.append(game.apply(state, entry.move))
    return missing, held


def covered_roots(proof: OpeningProof) -> list[KalahState] | str:
    """The North roots the proof covers (its header's ``north roots``: ``all``, or the roots' keys separated by
    ``;``), or what is wrong with that field."""
    game = proof.game
    field = proof.header.get("north roots", "all")
    ends = first_turns(game)
    if field == "all":
        return ends
    by_key = {game.key(end): end for end in ends}
    roots = []
    for text in field.split(";") if field else []:
        try:
            key = tuple(int(count) for count in text.split(","))
        except ValueError:
            return f"the header's north roots {text!r} is not a position"
        if key not in by_key:
            return f"the header's north root {text!r} is not where South's first turn can end"
        roots.append(by_key[key])
    return roots


def check(proof: OpeningProof, closed: bool = True) -> str:
    """What is wrong with ``proof`` (see the module docstring), or an empty string.  ``closed``: also walk every
    reply after every entry's move (a few seconds for a shipped proof; the build, ``check`` and the tests do)."""
    game = proof.game
    try:
        play_top = int(proof.header.get("play table seeds", PLAY_TABLE_SEEDS))
    except ValueError:
        return "the header's play table seeds is not a whole number"
    problem = _roots_problem(proof)
    for key, entry in proof.entries.items():
        if problem:
            break
        problem = _entry_problem(game, key, entry)
        if closed and not problem:
            text = ",".join(map(str, key))
            problem = _closed(proof, game.apply(state_of(game, key), entry.move), 0, entry, text, play_top)
    return problem


def _roots_problem(proof: OpeningProof) -> str:
    """What is wrong with the header's North roots, or which of the start and the roots has no entry."""
    game = proof.game
    roots = covered_roots(proof)
    if isinstance(roots, str):
        return roots
    for state in [game.initial_state()] + roots:
        if game.is_terminal(state):
            continue
        key = game.key(state)
        if key not in proof.entries:
            return f"the position {game.to_text(state)} (the start or after South's first turn) has no entry"
        try:
            problem = _entry_problem(game, key, proof.entries[key])
        except ValueError:
            problem = f"the entry of the position {game.to_text(state)} has a field that is not a whole number"
        if problem:
            return problem
    return ""


def _entry_problem(game: Kalah, key: Key, entry: Proven) -> str:
    """What is wrong with one entry on its own (its position, its move, its value), or an empty string."""
    total = 2 * game.pits * game.seeds
    text = ",".join(map(str, key))
    if len(key) != 2 * game.pits + 2 or min(key) < 0 or sum(key) != total:
        return f"the position {text} is not a position of {game.title} ({total} seeds in {len(key)} places)"
    state = state_of(game, key)
    if game.is_terminal(state) or entry.move not in game.legal_moves(state):
        return f"the move {entry.move} of the position {text} is not legal there"
    if not -total <= entry.value <= total:
        return f"the value {entry.value} of the position {text} is beyond the {total} seeds"
    return ""


def _closed(proof: OpeningProof, state: KalahState, prover: int, entry: Proven, text: str, play_top: int) -> str:
    """Check the positions after an entry's move up to the proving side's next turn (see ``check``)."""
    game = proof.game
    if game.is_terminal(state):
        outcome = game.outcome(state)
        assert outcome is not None
        if outcome.margin(prover) < entry.value:
            return f"the move of the position {text} ends the game below its value {entry.value}"
        return ""
    if game.to_move(state) == prover:
        found = proof.entries.get(game.key(state))
        if found is None:
            if entry.leaf or sum(state.pits) <= play_top:
                return ""
            return f"a reply to the position {text} (not a leaf) reaches {game.to_text(state)}, which has no entry"
        if found.value < entry.value:
            return (f"a reply to the position {text} reaches a position valued {found.value}, below the "
                    f"{entry.value} it was proved to keep")
        return ""
    for move in game.legal_moves(state):
        problem = _closed(proof, game.apply(state, move), prover, entry, text, play_top)
        if problem:
            return problem
    return ""


def proof_for(game: Any) -> OpeningProof | None:
    """The shipped opening proof of ``game``'s exact variant, read and checked once (None: there is none).
    A damaged file raises ProofError."""
    return _load(getattr(game, "spec", ""))


def forget() -> None:
    """Drop the proofs read: the next ``proof_for`` reads its file again (what a player's first move pays)."""
    _load.cache_clear()


@lru_cache(maxsize=None)
def _load(spec: str) -> OpeningProof | None:
    name = PROOF_FILES.get(spec)
    path = DATA / name if name else None
    if path is None or not files.exists(path):
        return None
    try:
        text = files.read_text(path, SIZE_LIMIT)
    except (OSError, ValueError) as error:
        raise ProofError(f"{path}: {error}") from None
    return parse(text, str(path), spec, closed=False)


if __name__ == "__main__":            # the build's command keeps this module's name (the shipped files cite it)
    from ai.kalah_proof_build import main

    sys.exit(main())
