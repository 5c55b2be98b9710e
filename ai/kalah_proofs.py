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
- every entry is a legal Kalah(6,4) position of 48 seeds with a legal move and a value within the seeds, the
  entries are in the order of their positions, and the start and every position where South's first turn can end
  (of the North roots the header's ``north roots`` names: ``all``, or those whose trees are complete) are entries;
- *closed*: in South's tree and the covered North roots' trees, after an entry's move that is not a leaf, every
  reply of the opponent (through the opponent's extra turns) ends the game no lower than the value or reaches an
  entry, whose value is no lower (the opponent cannot improve on a proven value), or reaches a board the play
  tables hold;
- the entries outside those trees (a partial build's positions of North's trees not complete yet: each is proven,
  so the Perfect level plays it, but its replies need not all have entries) are as many as the header's ``outside
  the trees`` says.
When the game reads the file it checks the SHA-256, the header, the count of lines and fields and the start's and
the roots' entries, and decodes nothing else: an entry is found by binary search in the sorted text when it is
looked up (0.1 s to read and hash 400,000 entries, 50 microseconds a lookup), and checked then, so an entry that
is not a legal position and move is never played; the SHA-256 stands for the rest.  The build, ``python -m
ai.kalah_proofs check`` and the tests check everything.
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
SIZE_LIMIT = 40 * 1024 * 1024
"""The largest proof file read (a shipped one is read and hashed, not decoded: 0.1 s for this size).  In the
wheel, which is compressed, the text takes about a sixth of its size."""
PARTIAL_LIMIT = 1024 * 1024 * 1024
"""The largest partial build read to resume it (the build's own file, however long it has run)."""


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
    """A read file's entries, found in its sorted body by binary search and decoded when asked for: reading a
    file decodes nothing (a few milliseconds for half a million entries, and no memory beyond the text)."""

    __slots__ = ("_body", "_count")

    def __init__(self, body: str, count: int) -> None:
        self._body = body
        """The body: one line per entry, in the order of their positions (``OpeningProof.body``)."""
        self._count = count

    def _line(self, key: Key) -> str | None:
        body = self._body
        low, high = 0, len(body)                # both at the start of a line
        while low < high:
            middle = (low + high) // 2
            start = body.rfind("\n", low, middle) + 1 or low
            end = body.index("\n", start)
            line = body[start:end]
            found = tuple(map(int, line[:line.index("\t")].split(",")))
            if found == key:
                return line
            if found < key:
                low = end + 1
            else:
                high = start
        return None

    def __getitem__(self, key: Key) -> Proven:
        line = self._line(key)
        if line is None:
            raise KeyError(key)
        return _decode(line)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, tuple) and self._line(key) is not None

    def __iter__(self) -> Iterator[Key]:
        return (key for key, _ in self.items())

    def items(self) -> Iterator[tuple[Key, Proven]]:  # type: ignore[override]
        """Every entry in one pass over the body (not a lookup each)."""
        for line in self._body.split("\n")[:-1]:
            yield tuple(map(int, line[:line.index("\t")].split(","))), _decode(line)

    def values(self) -> Iterator[Proven]:  # type: ignore[override]
        return (entry for _, entry in self.items())

    def __len__(self) -> int:
        return self._count


def _decode(line: str) -> Proven:
    _, move, value, leaf, exact = line.split("\t")
    return Proven(int(move), int(value), leaf == "1", exact == "1")


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
    count = body.count("\n")
    if not closed and str(count) == header["entries"] and body.count("\t") == 4 * count and body.endswith("\n"):
        proof = OpeningProof(game, _Lines(body, count), header)
        try:
            problem = _roots_problem(proof)
        except ValueError:                   # a key that is not whole numbers on the way: the full read names it
            pass
        else:
            if problem:
                raise ProofError(f"{source}: {problem}")
            return proof
    lines = body.split("\n")[:-1]
    entries: dict[Key, Proven] = {}
    last: Key = ()
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
        if key < last:
            raise ProofError(f"{where}: the positions are not in order (the game finds an entry by its place; "
                             "rebuild the file with python -m ai.kalah_proofs)")
        entries[key] = entry
        last = key
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


def open_positions(game: Kalah, entries: Mapping[Key, Proven], root: KalahState, play_top: int) -> tuple[int, int]:
    """How many positions of North's tree from ``root`` still lack an entry, and how many have one: the proving
    side to move, reached through the entries' moves and every reply, not a finished game nor a board the play
    tables hold ((0, n): the tree is complete; (1, 0): nothing is known of it)."""
    held, missing = _tree(game, entries, root, play_top)
    return missing, len(held)


def _tree(game: Kalah, entries: Mapping[Key, Proven], root: KalahState, play_top: int) -> tuple[set[Key], int]:
    """The entries the tree of the side to move in ``root`` reaches (through the entries' moves and every reply of
    the opponent), and how many positions it reaches that have none."""
    prover = game.to_move(root)
    held: set[Key] = set()
    lacking: set[Key] = set()
    stack = [root]
    while stack:
        state = stack.pop()
        if game.is_terminal(state):
            continue
        if game.to_move(state) != prover:
            stack.extend(game.apply(state, move) for move in game.legal_moves(state))
            continue
        key = game.key(state)
        if key in held or key in lacking or sum(state.pits) <= play_top:
            continue
        entry = entries.get(key)
        if entry is None:
            lacking.add(key)
            continue
        held.add(key)
        if not entry.leaf and entry.move in game.legal_moves(state):   # an illegal one: check names it
            stack.append(game.apply(state, entry.move))
    return held, len(lacking)


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
    reply after every entry's move of the trees the proof covers, and count the entries outside them against the
    header's ``outside the trees`` (a few seconds for a shipped proof; the build, ``check`` and the tests do)."""
    game = proof.game
    try:
        play_top = int(proof.header.get("play table seeds", PLAY_TABLE_SEEDS))
        outside = int(proof.header.get("outside the trees", "0"))
    except ValueError:
        return "the header's play table seeds or outside the trees is not a whole number"
    problem = _roots_problem(proof)
    if problem:
        return problem
    entries = proof.entries if isinstance(proof.entries, dict) else dict(proof.entries.items())
    trees = _tree_keys(proof, entries, play_top) if closed else set()
    for key, entry in entries.items():
        problem = _entry_problem(game, key, entry)
        if closed and not problem and key in trees:
            text = ",".join(map(str, key))
            after = game.apply(state_of(game, key), entry.move)
            problem = _closed(entries, game, after, 0, entry, text, play_top)
        if problem:
            return problem
    if closed and len(entries) - len(trees) != outside:
        return (f"{len(entries) - len(trees)} entries are outside the trees the proof covers, and the header says "
                f"{outside}")
    return ""


def _tree_keys(proof: OpeningProof, entries: Mapping[Key, Proven], play_top: int) -> set[Key]:
    """The entries South's tree and the covered North roots' trees reach; the others are outside the trees: each
    is proven, but its replies need not all have entries."""
    roots = covered_roots(proof)
    assert not isinstance(roots, str)
    reached: set[Key] = set()
    for root in [proof.game.initial_state()] + roots:
        if not proof.game.is_terminal(root):
            reached |= _tree(proof.game, entries, root, play_top)[0]
    return reached


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


def _closed(entries: Mapping[Key, Proven], game: Kalah, state: KalahState, prover: int, entry: Proven, text: str,
            play_top: int) -> str:
    """Check the positions after an entry's move up to the proving side's next turn (see ``check``)."""
    if game.is_terminal(state):
        outcome = game.outcome(state)
        assert outcome is not None
        if outcome.margin(prover) < entry.value:
            return f"the move of the position {text} ends the game below its value {entry.value}"
        return ""
    if game.to_move(state) == prover:
        found = entries.get(game.key(state))
        if found is None:
            if entry.leaf or sum(state.pits) <= play_top:
                return ""
            return f"a reply to the position {text} (not a leaf) reaches {game.to_text(state)}, which has no entry"
        if found.value < entry.value:
            return (f"a reply to the position {text} reaches a position valued {found.value}, below the "
                    f"{entry.value} it was proved to keep")
        return ""
    for move in game.legal_moves(state):
        problem = _closed(entries, game, game.apply(state, move), prover, entry, text, play_top)
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
