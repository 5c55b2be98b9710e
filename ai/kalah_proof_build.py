"""Building the Perfect level's Kalah(6,4) opening proofs (what they are and guarantee: ``ai.kalah_proofs``).

Built by::

    python -m ai.kalah_proofs build --rule empty-capture --tables-folder FOLDER
    python -m ai.kalah_proofs build --rule standard --tables-folder FOLDER

(the 0..20 seed tables are built in FOLDER first when missing: about 80 s on one core).  A build saves its
progress to the output file's ``.partial`` sibling every minute and resumes from it (without one, from the output
file's entries: a shipped file holds every entry its build had proved); ``--order nearest`` takes North's begun
trees lacking fewest positions first, and ``finish`` ships a partial build's complete trees and, outside them, its
other proven entries.
"""
from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterable

import rules
from ai.kalah_proofs import (DATA, LEAF_MEGABYTES, LEAF_NODES, PARTIAL_LIMIT, PLAY_TABLE_SEEDS, PROOF_FILES,
                             SIZE_LIMIT, Key, OpeningProof, Proven, _split, check, first_turns, north_roots,
                             open_positions, parse)
from guarded import files
from rules.kalah import Kalah, KalahState

PUBLISHED = {True: 10, False: 8}
"""The start's value for South by the empty-capture rule (True) or not: Irving, Donkers and Uiterwijk (2000) for
the first, this project's solver for both (BENCHMARKS.md).  Only the first test's guess: the build proves it."""
BUILD_TABLE_SEEDS = 20
EXACT_NODES = 10_000_000
"""An entry's exact value is sought within this many nodes of the build's solver (10-20 s); beyond, the
entry keeps the best lower bound proved, at least what the entry before it proved for it."""
SAVE_SECONDS = 60.0

Log = Callable[[str], None]


class Builder:
    """Builds one rule's opening proof (see the module docstring): ``run`` proves both sides' trees."""

    def __init__(self, game: Kalah, build_tables: Any, play_tables: Any, megabytes: float,
                 leaf_nodes: int = LEAF_NODES, known: dict[Key, Proven] | None = None, guess: int | None = None,
                 log: Log | None = print, save: Callable[[dict[Key, Proven]], None] | None = None,
                 leaf_megabytes: float = LEAF_MEGABYTES, exact_nodes: int = 0, nearest: bool = False,
                 threads: int = 1) -> None:
        from ai.kalah_solver import Solver

        self.game = game
        self.solver = Solver(game, build_tables, megabytes=megabytes, threads=threads)
        """The entries' prover (``threads`` searchers on its table); the leaf tests are one cold searcher's."""
        self.play_tables = play_tables
        self.play_top = int(play_tables.top) if play_tables is not None else -1
        self.leaf_nodes = leaf_nodes
        self.leaf_megabytes = leaf_megabytes
        self.known = dict(known or {})
        self.entries: dict[Key, Proven] = {}
        self.log = log
        self.save = save
        self.started = self.saved = time.perf_counter()
        self.leaf_tests = 0
        self.leaf_test_nodes = 0
        self.guess = guess
        self.exact_nodes = exact_nodes
        self.bounds = 0
        self.nearest = nearest
        """North's begun trees in the order of the positions they still lack (``open_positions``, fewest first,
        from what is known), then the others, not the main line's first: a partial build ships complete trees
        sooner."""
        self.cold: Any = None
        """The leaf tests' prover, cleared before each."""

    def run(self) -> dict[Key, Proven]:
        game = self.game
        start = game.initial_state()
        self.position(start, self.guess)              # South proves, from the start
        promise = -self.entries[game.key(start)].value   # South's best keeps the start's value, no more
        roots = north_roots(game, self.entries)
        if self.nearest:
            known = {**self.known, **self.entries}
            progress = {game.key(root): open_positions(game, known, root, self.play_top) for root in roots}
            # begun trees by the positions they lack, fewest first; then those not begun (one lacking: the root)
            roots.sort(key=lambda root: (progress[game.key(root)][1] == 0, progress[game.key(root)][0]))
        for root in roots:                            # North proves, from wherever South's first turn ends
            if not game.is_terminal(root):
                self.position(root, promise, promise)
        self._report(force=True)
        return self.entries

    def position(self, state: KalahState, guess: int | None, promised: int | None = None) -> None:
        """The proving side is to move in ``state``: enter its proven move and go on after it.  ``promised``: the
        value the entry before proved this position keeps (a lower bound; None at the roots)."""
        entry = self._enter(state, guess, promised)
        if entry is not None:
            self._go_on(state, entry)

    def _enter(self, state: KalahState, guess: int | None, promised: int | None) -> Proven | None:
        """Enter the proving side's proven move in ``state`` (known, or proved now); None when it needs no entry
        here (entered already, or within the play tables)."""
        key = self.game.key(state)
        if key in self.entries or sum(state.pits) <= self.play_top:
            return None
        entry = self.known.get(key)
        if entry is None:
            entry = self._prove(state, guess, promised)
        self.entries[key] = entry
        self._report()
        return entry

    def _go_on(self, state: KalahState, entry: Proven) -> None:
        """After an entered position: every reply to its move, unless it is a leaf."""
        if not entry.leaf:
            self.replies(self.game.apply(state, entry.move), self.game.to_move(state), entry.value)

    def replies(self, state: KalahState, prover: int, value: int | None) -> None:
        """The opponent is to move in ``state`` (or the prover, after its extra turn): every position where the
        prover moves next is entered first, then gone on from in the order of their proven values, lowest first.
        The lowest are the replies that hold the prover to its value, those a strong opponent plays, so a
        build stopped part way has finished the lines where the guarantee is tightest (a weaker reply leaves the
        prover a margin to spare where its tree is not finished yet)."""
        game = self.game
        reached: list[KalahState] = []
        waiting = [state]
        while waiting:                                # the opponent's every line up to the prover's next move
            current = waiting.pop()
            if game.is_terminal(current):
                continue
            if game.to_move(current) == prover:
                reached.append(current)
                continue
            waiting.extend(game.apply(current, move) for move in reversed(game.legal_moves(current)))
        entered = [(position, entry) for position in reached
                   if (entry := self._enter(position, value, value)) is not None]
        for position, entry in sorted(entered, key=lambda pair: pair[1].value):   # stable: ties in move order
            self._go_on(position, entry)

    def _prove(self, state: KalahState, guess: int | None, promised: int | None) -> Proven:
        """The exact value and a move keeping it when found within ``exact_nodes``; else the best lower bound
        proved (at least ``promised``) and a move keeping it."""
        solver = self.solver
        limit = solver.nodes + self.exact_nodes if promised is not None and self.exact_nodes else 0
        proof = solver.solve(state, guess=guess, node_limit=limit)
        if proof.value is not None and proof.move is not None:
            return Proven(proof.move, proof.value, self._is_leaf(state, proof.value, True), True)
        self.bounds += 1
        lower, move = proof.lower, proof.move
        if move is None or promised is not None and lower < promised:
            assert promised is not None
            found = self.solver.at_least(state, promised)
            assert found is not None
            lower, move = found
        return Proven(move, lower, self._is_leaf(state, lower, False), False)

    def _is_leaf(self, state: KalahState, value: int, exact: bool) -> bool:
        from ai.kalah_solver import Solver

        if self.cold is None:
            self.cold = Solver(self.game, self.play_tables, megabytes=self.leaf_megabytes)
        cold = self.cold
        cold.clear()                                  # a cold prover: as a new one, without a new table's cost
        if exact:
            proof = cold.solve(state, guess=value, node_limit=self.leaf_nodes)
            nodes, stopped = proof.nodes, proof.stopped
            if not stopped and proof.value != value:
                raise AssertionError(f"two provers disagree on {self.game.to_text(state)}: {value}, {proof.value}")
        else:
            before = cold.nodes
            found = cold.at_least(state, value, self.leaf_nodes)
            nodes, stopped = cold.nodes - before, found is None
        self.leaf_tests += 1
        self.leaf_test_nodes += nodes
        return not stopped

    def _report(self, force: bool = False) -> None:
        now = time.perf_counter()
        if self.log is not None and (force or len(self.entries) % 200 == 0):
            leaves = sum(entry.leaf for entry in self.entries.values())
            self.log(f"{len(self.entries):,} entries ({leaves:,} leaves, {self.bounds:,} bounds), "
                     f"{self.solver.nodes:,} solver nodes, "
                     f"{self.leaf_tests:,} leaf tests ({self.leaf_test_nodes:,} nodes), {now - self.started:.0f} s")
        if self.save is not None and (force or now - self.saved >= SAVE_SECONDS):
            self.save({**self.known, **self.entries})
            self.saved = now


def complete_trees(game: Kalah, entries: dict[Key, Proven], play_top: int
                   ) -> tuple[dict[Key, Proven], list[KalahState]] | None:
    """The entries of a partial build's complete trees: South's (None when it is not complete) and those of the
    North roots whose trees are, with those roots."""
    memo: dict[Key, bool] = {}

    def complete(state: KalahState, prover: int, keep: set[Key]) -> bool:
        if game.is_terminal(state):
            return True
        if game.to_move(state) != prover:
            return all([complete(game.apply(state, move), prover, keep) for move in game.legal_moves(state)])
        key = game.key(state)
        if sum(state.pits) <= play_top:
            return True
        entry = entries.get(key)
        if entry is None:
            return False
        keep.add(key)
        if key not in memo:
            memo[key] = True                     # a position on its own line (cannot happen in Kalah) counts once
            memo[key] = entry.leaf or complete(game.apply(state, entry.move), prover, keep)
        return memo[key]

    kept: set[Key] = set()
    if not complete(game.initial_state(), 0, kept):
        return None
    roots = []
    for root in first_turns(game):
        found: set[Key] = set()
        if game.is_terminal(root) or complete(root, 1, found):
            roots.append(root)
            kept |= found
    return {key: entries[key] for key in kept}, roots


def _write(path: Path, game: Kalah, entries: dict[Key, Proven], header: dict[str, str]) -> None:
    files.write_atomically(path, OpeningProof(game, entries, header).to_text(header))


def _read_partial(path: Path, game: Kalah) -> tuple[dict[Key, Proven], dict[str, str]]:
    """A partial build's entries and header (its SHA-256 and game checked; a partial proof is not closed yet)."""
    if not files.is_regular(path):
        return {}, {}
    try:
        header, body, _ = _split(files.read_text(path, PARTIAL_LIMIT))
        if header.get("game") != game.spec or hashlib.sha256(body.encode()).hexdigest() != header.get("sha256"):
            raise ValueError("another game, or damaged")
        entries = {}
        for line in body.split("\n")[:-1]:
            key_text, move, value, leaf, *exact = line.split("\t")
            entries[tuple(int(c) for c in key_text.split(","))] = Proven(int(move), int(value), leaf == "1",
                                                                          exact != ["0"])
        return entries, header
    except (OSError, ValueError) as error:
        print(f"{path}: not a usable partial build ({error}); starting afresh", file=sys.stderr)
        return {}, {}


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.kalah_proofs",
                                     description="Build or check the Perfect level's Kalah(6,4) opening proofs.")
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="prove both sides' opening trees of one rule")
    build.add_argument("--rule", choices=("empty-capture", "standard"), required=True)
    build.add_argument("--tables-folder", required=True, help="where the 0..20 seed tables are (built when missing)")
    build.add_argument("--memory", type=float, default=4096, help="the solver's table in MB (default 4096)")
    build.add_argument("--leaf-nodes", type=int, default=LEAF_NODES,
                       help=f"a cold proof within this many nodes makes a leaf (default {LEAF_NODES:,})")
    build.add_argument("--exact-nodes", type=int, default=EXACT_NODES,
                       help=f"nodes spent on an entry's exact value before a lower bound is kept (default "
                            f"{EXACT_NODES:,}; 0: no limit)")
    build.add_argument("--guess", type=int, help="the first test of the start's value (default: the published value, "
                       "+10 with the empty-capture rule, +8 without; a wrong guess costs time, never a wrong proof)")
    build.add_argument("--output", help="the file to write (default: the shipped file under ai/data/)")
    build.add_argument("--threads", type=int, choices=range(1, 9), default=1, metavar="N",
                       help="searchers proving the entries on one table (default 1; the leaf tests stay on one)")
    build.add_argument("--order", choices=("main-line", "nearest"), default="main-line",
                       help="North's trees: the one after South's proven first turn first (main-line, default), "
                            "or those nearest completion in the progress kept first (nearest)")
    finish = sub.add_parser("finish", help="ship the complete trees of a partial build (South's and the North "
                                           "roots whose trees are complete) and its other proven entries")
    finish.add_argument("--rule", choices=("empty-capture", "standard"), required=True)
    finish.add_argument("--partial", required=True, help="the build's .partial file")
    finish.add_argument("--output", help="the file to write (default: the shipped file under ai/data/)")
    finish.add_argument("--complete-only", action="store_true",
                        help="leave out the entries of North's trees not complete yet (by default they are shipped "
                             "too, outside the trees: each is proven, and the Perfect level plays it)")
    checking = sub.add_parser("check", help="read and check the shipped proofs (or the files named)")
    checking.add_argument("paths", nargs="*")
    args = parser.parse_args(list(argv) if argv is not None else None)
    if args.command == "check":
        return _check_command(args.paths)
    if args.command == "finish":
        return _finish_command(args.rule, Path(args.partial), args.output, args.complete_only)
    from ai.tables import build_kalah_tables, load_kalah_tables

    empty_capture = args.rule == "empty-capture"
    game = rules.parse_game_spec(f"kalah:pits=6,seeds=4,empty_capture={str(empty_capture).lower()}")
    assert isinstance(game, Kalah)
    output = Path(args.output) if args.output else DATA / PROOF_FILES[game.spec]
    partial = output.with_name(output.name + ".partial")
    folder = Path(args.tables_folder)
    print(f"Proving both sides' openings of {game.spec}: the 0..{BUILD_TABLE_SEEDS} tables in {folder} "
          f"(built if missing, about 80 s), a {args.memory:g} MB table; progress kept in {partial} (without it, "
          f"the entries of {output} are taken as known)", flush=True)
    started = time.perf_counter()
    loaded, _ = build_kalah_tables(folder, 6, empty_capture, BUILD_TABLE_SEEDS, threads=1)
    play = load_kalah_tables(folder, 6, empty_capture, PLAY_TABLE_SEEDS)
    header = {"built by": f"python -m ai.kalah_proofs build --rule {args.rule} --leaf-nodes {args.leaf_nodes} "
                          f"--exact-nodes {args.exact_nodes}",
              "leaf": f"a cold proof within {args.leaf_nodes} nodes with the 0..{PLAY_TABLE_SEEDS} tables",
              "play table seeds": str(PLAY_TABLE_SEEDS),
              "fields": "position (Kalah.key: the ring from the side to move), move, value, leaf, exact",
              "exact": f"the value is exact when found within {args.exact_nodes} nodes, else a proven lower bound"}
    guess = args.guess if args.guess is not None else PUBLISHED[empty_capture]
    known = _read_partial(partial if files.is_regular(partial) else output, game)[0]
    builder = Builder(game, loaded.tables, play.tables, args.memory, args.leaf_nodes, known, guess,
                      exact_nodes=args.exact_nodes, nearest=args.order == "nearest", threads=args.threads,
                      save=lambda entries: _write(partial, game, entries, {**header, "partial": "yes"}))
    entries = builder.run()
    proof = OpeningProof(game, entries, header)
    problem = check(proof)
    if problem:
        print(f"the proof built does not check: {problem}", file=sys.stderr)
        return 1
    header["last run seconds"] = f"{time.perf_counter() - started:.0f}"   # a resumed build's last run only
    header["last run solver nodes"] = str(builder.solver.nodes)
    _write(output, game, entries, header)
    partial.unlink(missing_ok=True)
    print(f"{len(entries):,} entries (value {proof.value:+d} for South) written to {output} in "
          f"{time.perf_counter() - started:.0f} s")
    return 0


def finished(game: Kalah, entries: dict[Key, Proven], header: dict[str, str], complete_only: bool = False
             ) -> tuple[OpeningProof, int] | None:
    """What ``finish`` ships of a partial build's entries: South's tree and the North roots' complete trees (the
    header's ``north roots``), and unless ``complete_only`` every other entry, outside the trees (counted in the
    header's ``outside the trees``).  None when South's tree is not complete.  Also the number of North roots."""
    header = {name: value for name, value in header.items()
              if name not in ("partial", "game", "entries", "sha256", "outside the trees")}
    found = complete_trees(game, entries, int(header.get("play table seeds", PLAY_TABLE_SEEDS)))
    if found is None:
        return None
    kept, roots = found
    ends = first_turns(game)
    header["north roots"] = "all" if len(roots) == len(ends) else ";".join(
        ",".join(map(str, game.key(root))) for root in roots if not game.is_terminal(root))
    if not complete_only and len(kept) < len(entries):
        header["outside the trees"] = str(len(entries) - len(kept))
        kept = entries
    return OpeningProof(game, kept, header), len(roots)


def _finish_command(rule: str, partial: Path, output_name: str | None, complete_only: bool = False) -> int:
    game = rules.parse_game_spec(f"kalah:pits=6,seeds=4,empty_capture={str(rule == 'empty-capture').lower()}")
    assert isinstance(game, Kalah)
    entries, header = _read_partial(partial, game)
    found = finished(game, entries, header, complete_only)
    if found is None:
        print(f"{partial}: South's tree is not complete yet: nothing to ship", file=sys.stderr)
        return 1
    proof, roots = found
    problem = check(proof)
    if problem:
        print(f"the complete trees do not check: {problem}", file=sys.stderr)
        return 1
    output = Path(output_name) if output_name else DATA / PROOF_FILES[game.spec]
    _write(output, game, dict(proof.entries), proof.header)
    outside = int(proof.header.get("outside the trees", "0"))
    print(f"{len(proof):,} of {len(entries):,} entries (South's tree and {roots} of {len(first_turns(game))} North "
          f"roots' trees{f', and {outside:,} proven positions of the trees not complete yet' if outside else ''}) "
          f"written to {output}")
    return 0


def _check_command(paths: list[str]) -> int:
    targets = [Path(path) for path in paths] or [DATA / name for name in PROOF_FILES.values()]
    failed = 0
    for path in targets:
        try:
            proof = parse(files.read_text(path, SIZE_LIMIT), str(path))
        except (OSError, ValueError) as error:
            print(error)
            failed += 1
            continue
        leaves = sum(entry.leaf for entry in proof.entries.values())
        print(f"{path}: {proof.game.spec}, {len(proof):,} entries ({leaves:,} leaves), value {proof.value:+d} for "
              "South: checked")
    return 1 if failed else 0
