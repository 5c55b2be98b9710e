"""The opening proofs (``ai.kalah_proofs``): built right, checked on load, and played by the Perfect level.

A proof of a small Kalah is built here the way the shipped Kalah(6,4) proofs were, every entry's value is checked
against the exhaustive solver (which shares no code with the board solver), and Perfect playing from it against
opponents of every kind never finishes below the value of the position it started from.  The shipped files are
read and checked as the game reads them, and a sample of their entries is proved again from nothing.
"""
from __future__ import annotations

import hashlib
import random
from pathlib import Path
from typing import Any

import pytest

import ai.core
import rules
from ai import kalah_proof_build, kalah_proofs, perfect, registry, tables
from ai.base import Limits
from ai.kalah_proof_build import Builder
from ai.kalah_proofs import OpeningProof, ProofError, Proven, check, parse
from ai.kalah_solver import Solver

pytestmark = pytest.mark.skipif(ai.core.module() is None, reason="the proofs are built by the compiled solver")

SMALL = ("kalah:pits=4,seeds=4", "kalah:pits=4,seeds=4,empty_capture=false")
PLAY_SEEDS = 6
BOUND = Proven(0, 0, False, False)


@pytest.fixture(scope="module")
def small_tables(tmp_path_factory):  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("proof-tables")
    built = {}
    for spec in SMALL:
        game = rules.parse_game_spec(spec)
        full, _ = tables.build_kalah_tables(folder, game.pits, game.empty_capture, 12, threads=1)
        play = tables.load_kalah_tables(folder, game.pits, game.empty_capture, PLAY_SEEDS)
        built[spec] = (full, play)
    return folder, built


@pytest.fixture(scope="module")
def small_proofs(small_tables):  # type: ignore[no-untyped-def]
    """A proof of each small variant with leaves deep enough that the tree has hundreds of entries."""
    _, built = small_tables
    proofs = {}
    for spec in SMALL:
        game = rules.parse_game_spec(spec)
        full, play = built[spec]
        entries = Builder(game, full.tables, play.tables, 16, leaf_nodes=40, log=None, leaf_megabytes=1,
                          exact_nodes=3000).run()
        header = {"play table seeds": str(PLAY_SEEDS)}
        proofs[spec] = parse(OpeningProof(game, entries, header).to_text(), spec, game.spec)
    return proofs


def exact_value(game: rules.Game, state: rules.State) -> int:
    found = registry.make_engine(game, "solver").search(state)
    assert found.exhaustive
    return int(found.score)


@pytest.mark.parametrize("spec", SMALL)
def test_a_built_proof_checks_and_every_value_is_the_exhaustive_solvers(spec, small_proofs):
    proof = small_proofs[spec]
    game = proof.game
    assert check(proof) == ""
    assert 50 < len(proof) and any(entry.leaf for entry in proof.entries.values())
    assert any(not entry.leaf for entry in proof.entries.values())
    exact = [item for item in sorted(proof.entries.items()) if item[1].exact]
    bounds = [item for item in sorted(proof.entries.items()) if not item[1].exact]
    assert exact and bounds                          # the small node limit leaves some values as bounds
    rng = random.Random(spec)
    for key, entry in rng.sample(exact, 20) + rng.sample(bounds, min(10, len(bounds))):
        state = kalah_proofs.state_of(game, key)
        value = exact_value(game, state)
        assert entry.value == value if entry.exact else entry.value <= value, (game.to_text(state), entry)
        after = game.apply(state, entry.move)        # the move keeps the value (a bound: at least it)
        kept = (game.outcome(after).margin(0) if game.is_terminal(after)
                else exact_value(game, after) * (1 if game.to_move(after) == 0 else -1))
        assert kept == value if entry.exact else kept >= entry.value


def erratic(game: rules.Game, rng: random.Random):  # type: ignore[no-untyped-def]
    """Mostly a decent move, now and then any move: the opponent that leaves every line a proof must cover."""
    strong = registry.make_engine(game, "pvs:depth=4")

    def play(state: rules.State) -> int:
        if rng.random() < 0.35:
            return rng.choice(game.legal_moves(state))
        return strong.search(state, Limits(depth=4)).move

    return play


def opponent(game: rules.Game, kind: str, seed: int):  # type: ignore[no-untyped-def]
    if kind == "erratic":
        return erratic(game, random.Random(seed))
    engine = registry.make_engine(game, kind.replace("random", f"random:seed={seed}"))
    return lambda state: engine.search(state, Limits(time=5, depth=None if "depth" in kind else None)).move


@pytest.mark.parametrize("spec", SMALL)
@pytest.mark.parametrize("kind", ["random", "greedy", "erratic", "pvs:depth=5", "mcts:iterations=300"])
def test_perfect_from_the_first_move_never_finishes_below_the_proven_value(spec, kind, small_proofs, small_tables,
                                                                          monkeypatch):
    folder, _ = small_tables
    proof = small_proofs[spec]
    game = proof.game
    monkeypatch.setenv(tables.ENV, str(folder))
    monkeypatch.setattr(kalah_proofs, "proof_for", lambda g: proof if g.spec == game.spec else None)
    tables.forget()
    perfect.forget()
    start_value = proof.value
    try:
        for side in (0, 1):
            for seed in range(2):
                engine = registry.make_engine(game, "perfect:time=5")
                other = opponent(game, kind, seed)
                state, sources, values = game.initial_state(), [], []
                while not game.is_terminal(state):
                    if game.to_move(state) == side:
                        found = engine.search(state, Limits(time=5))
                        assert found.info["proven"] or "bound" in found.info, found.info
                        sources.append(found.info["source"])
                        values.append(found.info.get("value", found.info.get("bound")))
                        state = game.apply(state, found.move)
                    else:
                        state = game.apply(state, other(state))
                margin = game.outcome(state).margin(side)
                wanted = start_value if side == 0 else -start_value
                assert margin >= wanted, (spec, kind, side, seed, margin, wanted)
                assert sources[0] == "opening proof" and values[0] >= wanted
                assert values == sorted(values) and margin >= values[-1]   # it keeps what the opponent gives away
    finally:
        tables.forget()
        perfect.forget()


def damaged(proof: OpeningProof, change) -> str:  # type: ignore[no-untyped-def]
    """The proof's file with ``change`` made to its entries, the header's SHA-256 made to fit again."""
    entries = dict(proof.entries)
    change(entries)
    return OpeningProof(proof.game, entries, proof.header).to_text()


def test_a_changed_or_damaged_file_is_refused_with_a_line_naming_the_fault(small_proofs):
    proof = small_proofs[SMALL[0]]
    game = proof.game
    text = proof.to_text()
    start = game.key(game.initial_state())
    assert len(parse(text, "p", game.spec)) == len(proof)
    with pytest.raises(ProofError, match="SHA-256"):
        parse(text.replace("\t1\n", "\t0\n", 1), "p")
    with pytest.raises(ProofError, match="not an opening proof"):
        parse("hello\n", "p")
    with pytest.raises(ProofError, match="proves"):
        parse(text, "p", "kalah:pits=6,seeds=4")
    inner = next(key for key, entry in proof.entries.items() if not entry.leaf and key != start)

    def drop_reply(entries: dict) -> None:
        state = kalah_proofs.state_of(game, inner)
        after = game.apply(state, entries[inner].move)
        stack = [after]
        while stack:
            position = stack.pop()
            if game.is_terminal(position):
                continue
            if game.to_move(position) == 0 and game.key(position) in entries:
                del entries[game.key(position)]
                return
            if game.to_move(position) == 1:
                stack.extend(game.apply(position, move) for move in game.legal_moves(position))
        raise AssertionError("no reply reaches an entry")

    with pytest.raises(ProofError, match="no entry"):
        parse(damaged(proof, drop_reply), "p")
    with pytest.raises(ProofError, match="not legal"):
        parse(damaged(proof, lambda e: e.__setitem__(start, Proven(game.pits + 3, e[start].value, False))), "p")
    with pytest.raises(ProofError, match="below"):
        parse(damaged(proof, lambda e: e.__setitem__(start, Proven(e[start].move, e[start].value + 5, False))), "p")
    with pytest.raises(ProofError, match="start"):
        parse(damaged(proof, lambda e: e.pop(start)), "p")
    body = proof.body()
    twice = body + body.split("\n")[0] + "\n"
    header = "".join(line + "\n" for line in text.split("\n") if line.startswith("# ")
                     and not line.startswith(("# sha256:", "# entries:")))
    resealed = (f"{header}# entries: {len(proof) + 1}\n# sha256: {hashlib.sha256(twice.encode()).hexdigest()}\n"
                + twice)
    with pytest.raises(ProofError, match="appears twice"):
        parse(resealed, "p")


def test_read_as_the_game_reads_a_resealed_entry_that_is_not_a_legal_move_is_never_played(small_proofs):
    """The game decodes an entry when it looks it up (``closed=False``): a file changed and sealed again by hand
    still reads, but its bad entry is not used, and the full check names it; a bad start is refused at once."""
    proof = small_proofs[SMALL[0]]
    game = proof.game
    start = game.key(game.initial_state())
    inner = next(key for key, entry in proof.entries.items() if key != start and entry.move == 0)
    bad = damaged(proof, lambda e: e.__setitem__(inner, Proven(game.pits + 3, e[inner].value, False)))
    read = parse(bad, "p", game.spec, closed=False)
    assert read.lookup(kalah_proofs.state_of(game, inner)) is None
    assert read.lookup(game.initial_state()) == proof.entries[start]
    assert all(read.lookup(kalah_proofs.state_of(game, key)) == entry
               for key, entry in proof.entries.items() if key != inner)
    with pytest.raises(ProofError, match="not legal"):
        parse(bad, "p")
    words = bad.replace(f"\t{proof.entries[inner].value}\t", "\tseven\t", 1)
    header, body, _ = kalah_proofs._split(words)
    resealed = words.replace(header["sha256"], hashlib.sha256(body.encode()).hexdigest())
    with pytest.raises(ProofError, match="not a whole number"):
        parse(resealed, "p")
    assert parse(resealed, "p", closed=False).lookup(kalah_proofs.state_of(game, inner)) is None
    with pytest.raises(ProofError, match="not legal"):
        parse(damaged(proof, lambda e: e.__setitem__(start, Proven(game.pits + 3, e[start].value, False))), "p",
              closed=False)


# -- the shipped proofs -------------------------------------------------------------------------------------------
SHIPPED = sorted(kalah_proofs.PROOF_FILES)


@pytest.mark.parametrize("spec", SHIPPED)
def test_the_shipped_proofs_read_check_and_prove_the_published_values(spec):
    game = rules.parse_game_spec(spec)
    kalah_proofs._load.cache_clear()
    proof = kalah_proofs.proof_for(game)
    assert proof is not None, f"{spec}: no opening proof shipped"
    assert proof.value == kalah_proof_build.PUBLISHED[game.empty_capture]
    leaves = [key for key, entry in proof.entries.items() if entry.leaf]
    assert leaves and len(proof) > 10
    assert check(proof, closed=True) == ""            # what the game leaves to the SHA-256 on load
    start = proof.lookup(game.initial_state())
    assert start is not None and start.exact


@pytest.fixture(scope="module")
def play_tables(tmp_path_factory):  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("play-tables")
    return {spec: tables.build_kalah_tables(folder, 6, rules.parse_game_spec(spec).empty_capture,
                                            kalah_proofs.PLAY_TABLE_SEEDS, threads=1)[0] for spec in SHIPPED}


@pytest.mark.slow
@pytest.mark.parametrize("spec", SHIPPED)
def test_a_sample_of_the_shipped_leaves_is_proved_again_from_nothing_within_the_leaf_budget(spec, play_tables):
    """The leaves are where the Perfect level's own prover takes over: a cold prover with the tables every player
    has proves each one's stored value within the budget the file names."""
    game = rules.parse_game_spec(spec)
    proof = kalah_proofs.proof_for(game)
    assert proof is not None
    leaves = sorted(key for key, entry in proof.entries.items() if entry.leaf)
    for number, key in enumerate(random.Random(spec).sample(leaves, 4)):
        entry = proof.entries[key]
        state = kalah_proofs.state_of(game, key)
        cold = Solver(game, play_tables[spec].tables, megabytes=kalah_proofs.LEAF_MEGABYTES)
        if entry.exact:
            found = cold.solve(state, guess=entry.value, node_limit=kalah_proofs.LEAF_NODES)
            assert not found.stopped and found.value == entry.value, (game.to_text(state), entry, found)
        else:
            assert cold.at_least(state, entry.value, kalah_proofs.LEAF_NODES) is not None
        if number < 2 and entry.exact:                # no guess: the value found by itself (the first test at 0,
            cold = Solver(game, play_tables[spec].tables, megabytes=kalah_proofs.LEAF_MEGABYTES)  # far from it)
            assert cold.solve(state, node_limit=40 * kalah_proofs.LEAF_NODES).value == entry.value


@pytest.mark.parametrize("spec", SHIPPED)
def test_perfect_plays_the_start_from_the_proof_at_once(spec, monkeypatch):
    monkeypatch.delenv(tables.ENV, raising=False)
    tables.forget()
    perfect.forget()
    game = rules.parse_game_spec(spec)
    start = game.initial_state()
    found = registry.make_engine(game, "perfect:time=1").search(start, Limits(time=1))
    proof = kalah_proofs.proof_for(game)
    assert found.info == {"proven": True, "value": proof.value, "source": "opening proof"}
    assert found.move == proof.lookup(start).move and found.exhaustive
    perfect.forget()


def test_a_damaged_shipped_proof_is_named_and_perfect_plays_on_without_it(tmp_path, monkeypatch):
    spec = SHIPPED[0]
    game = rules.parse_game_spec(spec)
    source = kalah_proofs.DATA / kalah_proofs.PROOF_FILES[spec]
    text = source.read_text(encoding="utf-8")
    lines = text.split("\n")
    last = len(lines) - 2
    lines[last] = lines[last][:-1] + ("0" if lines[last].endswith("1") else "1")   # one entry's leaf flag flipped
    (tmp_path / source.name).write_text("\n".join(lines), encoding="utf-8")
    monkeypatch.setattr(kalah_proofs, "DATA", tmp_path)
    monkeypatch.delenv(tables.ENV, raising=False)
    kalah_proofs._load.cache_clear()
    tables.forget()
    perfect.forget()
    try:
        with pytest.raises(ProofError, match="SHA-256"):
            kalah_proofs.proof_for(game)
        start = game.initial_state()
        found = registry.make_engine(game, "perfect:time=0.3").search(start, Limits(time=0.3))
        assert found.move in game.legal_moves(start) and found.info["source"] != "opening proof"
        assert "SHA-256" in found.info["opening proof"]
    finally:
        kalah_proofs._load.cache_clear()
        perfect.forget()


@pytest.mark.parametrize("spec", SMALL)
def test_the_analysis_reads_the_proof_so_a_hint_agrees_with_perfect(spec, small_proofs, monkeypatch):
    """Where the proof holds the position, the proven move's value is exact in the analysis; where the opponent
    of the proving side is to move, every reply the proof holds is exact too."""
    from ai.analysis import analyse

    proof = small_proofs[spec]
    game = proof.game
    monkeypatch.setattr(kalah_proofs, "proof_for", lambda g: proof if g.spec == game.spec else None)
    start = game.initial_state()
    snapshot = analyse(game, start, Limits(depth=2))
    assert proof.lookup(start).exact
    best = snapshot.of(proof.lookup(start).move)
    assert best.settled and best.source == "proof" and best.score == pytest.approx(perfect.proven_score(proof.value))
    assert snapshot.best.settled and snapshot.best.source == "proof"
    after = game.apply(start, proof.lookup(start).move)
    while game.to_move(after) == 0:               # extra turns: South's proven moves until North is to move
        after = game.apply(after, proof.lookup(after).move)
    snapshot = analyse(game, after, Limits(depth=2))
    held = [value for value in snapshot.moves if (proof.lookup(game.apply(after, value.move)) or BOUND).exact]
    assert held and all(value.settled and value.source == "proof" for value in held)
    for value in held:
        child = game.apply(after, value.move)
        assert value.score == pytest.approx(perfect.proven_score(-proof.lookup(child).value))


def test_a_partial_build_ships_its_complete_trees_and_names_the_north_roots_it_covers(small_proofs, tmp_path):
    proof = small_proofs[SMALL[1]]
    game = proof.game
    ends = kalah_proofs.first_turns(game)
    assert kalah_proofs.covered_roots(proof) == ends          # a whole build covers every North root
    line = kalah_proofs.north_roots(game, proof.entries)[0]
    state = game.initial_state()
    while game.to_move(state) == 0:
        state = game.apply(state, proof.lookup(state).move)
    assert line == state                                     # the root South's proven moves reach comes first
    entries = dict(proof.entries)
    dropped = next(end for end in ends if end != line and not proof.entries[game.key(end)].leaf)
    del entries[game.key(dropped)]                           # that root's tree is not finished
    kept, roots = kalah_proof_build.complete_trees(game, entries, PLAY_SEEDS)
    assert dropped not in roots and line in roots and len(roots) == len(ends) - 1
    header = {"play table seeds": str(PLAY_SEEDS),
              "north roots": ";".join(",".join(map(str, game.key(root))) for root in roots)}
    shipped = parse(OpeningProof(game, kept, header).to_text(), "p")
    assert kalah_proofs.covered_roots(shipped) == roots and shipped.lookup(dropped) is None
    with pytest.raises(ProofError, match="no entry"):        # a covered root without its entry is refused
        parse(OpeningProof(game, {k: v for k, v in kept.items() if k != game.key(line)}, header).to_text(), "p")
    assert kalah_proof_build.complete_trees(game, {k: v for k, v in entries.items()
                                              if k != game.key(game.initial_state())}, PLAY_SEEDS) is None


def test_the_game_finds_every_entry_in_the_sorted_text_and_no_other(small_proofs):
    """The game reads a file without decoding it (``closed=False``) and finds an entry by binary search in the
    sorted body: every entry is found as the full read decodes it, and positions it does not hold are not."""
    for spec in SMALL:
        proof = small_proofs[spec]
        game = proof.game
        read = parse(proof.to_text(), "p", game.spec, closed=False)
        assert not isinstance(read.entries, dict) and len(read) == len(proof)
        assert dict(read.entries.items()) == dict(proof.entries)
        for key, entry in proof.entries.items():
            assert key in read.entries and read.entries[key] == entry
            assert read.lookup(kalah_proofs.state_of(game, key)) == entry
        rng = random.Random(spec)
        absent = 0
        for _ in range(300):                               # positions of random play the proof does not hold
            state = game.initial_state()
            for _ in range(rng.randrange(1, 30)):
                if game.is_terminal(state):
                    break
                state = game.apply(state, rng.choice(game.legal_moves(state)))
            if game.is_terminal(state) or game.key(state) in proof.entries:
                continue
            absent += 1
            assert read.lookup(state) is None and game.key(state) not in read.entries
        assert absent > 50
        assert check(read, closed=True) == ""             # the check reads the file's entries in one pass


def test_entries_out_of_order_are_named_and_the_game_never_plays_a_wrong_one(small_proofs):
    """The body must be sorted, since the game finds an entry by its place: the full check names the first line
    out of order; read as the game reads it, a file resealed out of order may miss entries but never returns one
    for another position."""
    proof = small_proofs[SMALL[0]]
    game = proof.game
    header_text, body, _ = kalah_proofs._split(proof.to_text())
    lines = body.split("\n")[:-1]
    lines[1], lines[-2] = lines[-2], lines[1]
    swapped = "\n".join(lines) + "\n"
    head = "".join(f"# {name}: {value}\n" for name, value in header_text.items() if name != "sha256")
    resealed = f"# {kalah_proofs.FORMAT}\n{head}# sha256: {hashlib.sha256(swapped.encode()).hexdigest()}\n{swapped}"
    with pytest.raises(ProofError, match="not in order"):
        parse(resealed, "p")
    read = parse(resealed, "p", closed=False)
    for key, entry in proof.entries.items():
        assert read.lookup(kalah_proofs.state_of(game, key)) in (None, entry)


def test_finish_ships_the_unfinished_trees_proven_entries_outside_the_trees(small_proofs):
    """``finish`` ships the complete trees and, outside them, every other proven entry of the build: the header
    counts those, the check holds the complete trees closed and each outside entry legal, and the game plays them
    (an unfinished tree's positions get their proven moves); ``--complete-only`` leaves them out."""
    proof = small_proofs[SMALL[1]]
    game = proof.game
    ends = kalah_proofs.first_turns(game)
    line = kalah_proofs.north_roots(game, proof.entries)[0]
    dropped = next(end for end in ends if end != line and not proof.entries[game.key(end)].leaf)
    entries = dict(proof.entries)
    del entries[game.key(dropped)]                        # the root's tree is begun but not finished
    header = {"play table seeds": str(PLAY_SEEDS), "partial": "yes", "entries": "1", "sha256": "0"}
    whole, roots = kalah_proof_build.finished(game, entries, header)
    trees, lean_roots = kalah_proof_build.finished(game, entries, header, complete_only=True)
    whole = parse(whole.to_text(), "p", game.spec)        # as written and read back: it checks
    trees = parse(trees.to_text(), "p", game.spec)
    outside = len(entries) - len(trees)
    assert outside > 0 and len(whole) == len(entries) and roots == lean_roots == len(ends) - 1
    assert whole.header["outside the trees"] == str(outside) and "outside the trees" not in trees.header
    assert "partial" not in whole.header
    assert kalah_proofs.covered_roots(whole) == kalah_proofs.covered_roots(trees) and dropped not in \
        kalah_proofs.covered_roots(whole)
    held = [key for key in entries if key not in trees.entries]
    read = parse(whole.to_text(), "p", closed=False)
    for key in held:                                     # the unfinished tree's proven moves are played
        assert read.lookup(kalah_proofs.state_of(game, key)) == entries[key]
    miscounted = OpeningProof(game, dict(whole.entries), {**whole.header, "outside the trees": str(outside + 1)})
    with pytest.raises(ProofError, match="outside the trees"):
        parse(miscounted.to_text(), "p")
    illegal = dict(whole.entries)
    illegal[held[0]] = Proven(game.pits + 3, illegal[held[0]].value, False)
    with pytest.raises(ProofError, match="not legal"):     # an outside entry is still checked on its own
        parse(OpeningProof(game, illegal, whole.header).to_text(), "p")


def test_a_build_in_nearest_order_finishes_the_begun_tree_lacking_least_first(small_proofs, small_tables):
    """``--order nearest``: of North's begun trees the one lacking the fewest positions comes first, then those not
    begun; ``open_positions`` counts what a tree lacks and holds."""
    proof = small_proofs[SMALL[0]]
    game = proof.game
    _, built = small_tables
    full, play = built[SMALL[0]]
    ends = [end for end in kalah_proofs.north_roots(game, proof.entries)
            if not game.is_terminal(end) and not proof.entries[game.key(end)].leaf]
    assert len(ends) >= 3
    sizes = {game.key(end): kalah_proofs.open_positions(game, proof.entries, end, PLAY_SEEDS) for end in ends}
    assert all(missing == 0 and held > 0 for missing, held in sizes.values())  # a whole build lacks nothing
    begun, nearer, untouched = ends[-1], ends[-2], ends[0]
    entries = dict(proof.entries)
    del entries[game.key(untouched)]  # nothing known of the main line's tree but the rest of it (dropped below)
    def next_turns(state):  # type: ignore[no-untyped-def]
        """North's next positions after ``state`` (South's replies played out) that the proof holds."""
        if game.is_terminal(state):
            return []
        if game.to_move(state) == 1:
            return [state] if game.key(state) in entries else []
        return [found for move in game.legal_moves(state) for found in next_turns(game.apply(state, move))]

    for end, count in ((nearer, 1), (begun, 3)):  # positions missing after the root's move
        lacking = list({game.key(state): state for state in next_turns(game.apply(end, entries[game.key(end)].move))})
        assert len(lacking) >= count
        for key in lacking[:count]:
            del entries[key]
    missing = {name: kalah_proofs.open_positions(game, entries, end, PLAY_SEEDS)[0]
               for name, end in (("begun", begun), ("nearer", nearer))}
    assert 0 < missing["nearer"] < missing["begun"], missing
    assert kalah_proofs.open_positions(game, entries, untouched, PLAY_SEEDS) == (1, 0)
    order = []
    builder = Builder(game, full.tables, play.tables, 16, leaf_nodes=40, log=None, leaf_megabytes=1,
                      exact_nodes=3000, known=entries, nearest=True)
    proving = builder.position

    def recorded(state, guess, promised=None):  # type: ignore[no-untyped-def]
        if state in ends and state not in order:
            order.append(state)
        return proving(state, guess, promised)

    builder.position = recorded  # type: ignore[method-assign]
    builder.run()
    assert order.index(nearer) < order.index(begun) < order.index(untouched)


def test_a_build_goes_on_first_from_the_replies_that_hold_the_prover_tightest(small_tables):
    """After each entry's move, every position the opponent's replies bring the prover to is entered before any is
    gone on from, and they are gone on from lowest proven value first (the strong replies' lines), so a build
    stopped part way has finished where the guarantee is tightest; the proof it builds still checks."""
    _, built = small_tables
    spec = SMALL[1]
    game = rules.parse_game_spec(spec)
    full, play = built[spec]
    groups: list[list[tuple[int, Any, int]]] = []   # per replies call: (value, key, entries so far) gone on from
    active: list[list[tuple[int, Any, int]]] = []

    class Recording(Builder):
        def replies(self, state, prover, value):  # type: ignore[no-untyped-def]
            active.append([])
            super().replies(state, prover, value)
            groups.append(active.pop())

        def _go_on(self, state, entry):  # type: ignore[no-untyped-def]
            if active:
                active[-1].append((entry.value, game.key(state), len(self.entries)))
            super()._go_on(state, entry)

    builder = Recording(game, full.tables, play.tables, 16, leaf_nodes=40, log=None, leaf_megabytes=1,
                        exact_nodes=3000)
    entries = builder.run()
    assert check(parse(OpeningProof(game, entries, {"play table seeds": str(PLAY_SEEDS)}).to_text(), spec,
                       game.spec)) == ""
    entered = {key: index for index, key in enumerate(entries)}   # a dict keeps the order entries came in
    mixed = [group for group in groups if len({value for value, _, _ in group}) > 1]
    assert len(mixed) >= 5                                # the order is put to the test
    for group in groups:
        values = [value for value, _, _ in group]
        assert values == sorted(values), values
        assert all(entered[key] < group[0][2] for _, key, _ in group)   # all entered before the first goes on


@pytest.mark.parametrize("spec", sorted(kalah_proofs.PROOF_FILES))
def test_no_move_searched_reads_better_than_the_positions_proven_value(spec):
    """Where the proof holds a position's exact value, a move the analysis only searched may not read above it
    (a beginner would take "about 13 seeds ahead" over "wins by 10, proven"): its estimate is capped there."""
    import re

    from ai.analysis import analyse
    from game.analysis import worded

    game = rules.parse_game_spec(spec)
    proof = kalah_proofs.proof_for(game)
    exact = sorted(key for key, entry in proof.entries.items() if entry.exact and not entry.leaf)
    states = [game.initial_state()] + [kalah_proofs.state_of(game, key) for key in random.Random(5).sample(exact, 4)]
    for state in states:
        ceiling = proof.lookup(state).value
        snapshot = worded(game, state, analyse(game, state, Limits(depth=14)))
        for value in snapshot.moves:
            assert value.expectation is not None and value.expectation.margin <= ceiling, (game.to_text(state), value)
            ahead = re.search(r"about (\d+) seeds? ahead", value.words)
            assert ahead is None or int(ahead.group(1)) <= ceiling, (game.to_text(state), value.words, ceiling)


def test_the_check_command_runs_under_the_readers_name_and_fails_on_a_damaged_file(small_proofs, tmp_path):
    """``python -m ai.kalah_proofs check`` (the command the shipped files and the docs cite) reaches the build
    module's command line: a sound file checks (exit 0), one with a changed body is named and fails (exit 1)."""
    import subprocess
    import sys

    proof = small_proofs[SMALL[0]]
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_text(proof.to_text())
    lines = proof.to_text().split("\n")
    last = max(i for i, line in enumerate(lines) if line and not line.startswith("#"))
    fields = lines[last].split("\t")
    fields[2] = str(int(fields[2]) + 1)                 # a value changed: the SHA-256 no longer holds
    lines[last] = "\t".join(fields)
    bad.write_text("\n".join(lines))
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path(kalah_proofs.__file__).resolve().parents[1])}
    ran = subprocess.run([sys.executable, "-m", "ai.kalah_proofs", "check", str(good), str(bad)], capture_output=True,
                         text=True, timeout=120, env=env)
    assert ran.returncode == 1, ran.stderr
    assert f"{good}: {proof.game.spec}, {len(proof):,} entries" in ran.stdout and "checked" in ran.stdout
    assert f"{bad}: the body does not match the header's SHA-256" in ran.stdout


def test_a_build_on_two_searchers_checks_and_agrees_with_one(small_tables):
    """``build --threads 2``: the entries' prover runs its tests on two searchers; the proof is closed and every
    exact value it holds is the one-searcher build's for the same position."""
    _, built = small_tables
    spec = SMALL[0]
    game = rules.parse_game_spec(spec)
    full, play = built[spec]
    one = Builder(game, full.tables, play.tables, 16, leaf_nodes=40, log=None, leaf_megabytes=1).run()
    builder = Builder(game, full.tables, play.tables, 16, leaf_nodes=40, log=None, leaf_megabytes=1, threads=2)
    two = builder.run()
    assert len(builder.solver.helpers) == 1 and builder.solver.helpers[0].nodes > 0
    proof = parse(OpeningProof(game, two, {"play table seeds": str(PLAY_SEEDS)}).to_text(), spec, game.spec)
    assert check(proof) == ""
    shared = [key for key in two if key in one and two[key].exact and one[key].exact]
    assert len(shared) > 20 and all(two[key].value == one[key].value for key in shared)
