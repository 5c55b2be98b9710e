"""Games in progress as a journey sees them: the title screen's Resume offers, and what each must resume to.

``check_every_offer`` resumes every offer and compares it with the games a test left unfinished (by title);
``GamesInProgress`` follows a journey's games by their slots (it may leave two Kalah games unfinished) and says
what is wrong: a game left unfinished that is no longer kept, a kept game never left unfinished, an offer that
resumes to another position.  Used by ``journeys`` and ``test_gui_in_progress``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator


def session_of(view: Any) -> Any | None:
    """The game a view shows (a two-player game's ``match``, a puzzle's ``session``), or None."""
    for name in ("match", "session"):
        session = getattr(view, name, None)
        if session is not None and hasattr(session, "moves") and hasattr(session, "game"):
            return session
    return None


def offers(gui: Any) -> list[Any]:
    """The title screen's Resume offers (it is shown first)."""
    from game.views.title import TitleView

    gui.context.show_title()
    gui.frame()
    view = gui.window.current_view
    assert isinstance(view, TitleView)
    return list(view.resume_buttons)


def leave(gui: Any) -> None:
    """Stop what the game screen runs (its searches), as its Menu button does before the title comes back."""
    view = gui.window.current_view
    for owner in (view, getattr(view, "controller", None)):
        if owner is not None and hasattr(owner, "cancel_search"):
            owner.cancel_search()


def resume_every_offer(gui: Any, wanted: Callable[[Any], bool] = lambda button: True
                       ) -> Iterator[tuple[Any, Any, Any]]:
    """Click each Resume offer of the title screen in turn (those ``wanted``): (the offer, the screen it opened,
    its game) for each, leaving the game again after the caller looked at it."""
    from game.views.title import TitleView

    for index in [index for index, button in enumerate(offers(gui)) if wanted(button)]:
        button = offers(gui)[index]
        gui.click(*button.rect.center)
        view = gui.window.current_view
        message = getattr(getattr(view, "_message", None), "text", "")
        assert not isinstance(view, TitleView), f"{button.text!r} did not resume: {message}"
        session = session_of(view)
        assert session is not None, f"{button.text!r} opened {type(view).__name__}, not a game"
        yield button, view, session
        leave(gui)


def _same_position(session: Any, moves: tuple) -> bool:
    """Whether ``session`` stands where ``moves`` left it (the computer may have moved on since: it is its turn)."""
    if tuple(session.moves[:len(moves)]) != tuple(moves):
        return False
    if not moves:
        return True
    return bool(session.states[len(moves)] == session.game.apply(session.states[len(moves) - 1], moves[-1]))


def check_every_offer(gui: Any, expected: dict[str, tuple]) -> None:
    """Every game begun and unfinished (game title -> its moves) is offered, and each offer resumes to it."""
    found = {}
    for button, view, session in resume_every_offer(gui):
        title = session.game.title
        moves = expected.get(title)
        assert moves is not None, f"{title} is offered but was never left unfinished"
        assert _same_position(session, moves), f"{title} resumed at another position"
        found[title] = button.text
    assert set(found) == set(expected), f"offered {sorted(found)}, left unfinished {sorted(expected)}"


@dataclass
class GamesInProgress:
    """What a journey knows of the games it left unfinished: their slots and the moves each was left at.

    ``observe`` looks at the game on screen after every step (a game with moves and no verdict keeps a slot; one
    that ended or went back to its start has none); ``check`` then says what is wrong with the offers: a game
    left unfinished that is no longer kept or kept at another position, a kept game never left unfinished, an
    offer that resumes elsewhere."""

    expected: dict[str, tuple] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)
    verified: dict[str, tuple] = field(default_factory=dict)
    """The moves each offer stood at when it was last resumed (an offer whose file still holds them is not
    resumed again: its file is read instead)."""

    def observe(self, view: Any) -> None:
        session = session_of(view)
        slot = getattr(session, "slot", None)
        if session is None or slot is None:
            return
        if session.is_over or not session.moves:
            self.expected.pop(slot, None)
        else:
            self.expected[slot] = tuple(session.moves)
            self.titles[slot] = session.game.title

    def adopt(self, autosave: Any) -> None:
        """Take every kept game as known (the screens the tour opens with games in progress write some)."""
        for kept in autosave.games()[0]:
            self.expected[kept.slot] = tuple(kept.saved.moves)
            self.titles[kept.slot] = kept.saved.game.title

    def check(self, gui: Any) -> list[str]:
        """What is wrong with the games in progress now: every kept game's file is read (cheap) and must hold the
        moves its game was left at; the offers whose game changed since they were last resumed are resumed
        (through the title screen's buttons) and must stand where their game was left."""
        wrong = []
        store = gui.context.autosave
        kept = set(store.slots())
        name = lambda slot: f"{self.titles.get(slot, '?')} ({len(self.expected.get(slot, ()))} moves)"  # noqa: E731
        gone = sorted(set(self.expected) - kept)
        if gone:
            wrong.append("games left unfinished are no longer kept: " + ", ".join(map(name, gone)))
        stray = sorted(kept - set(self.expected))
        if stray:
            wrong.append(f"{len(stray)} kept games were never left unfinished (an ended game still offered?)")
        on_file: dict[str, tuple | None] = {}
        for slot in sorted(kept & set(self.expected)):
            saved, _ = store.load(slot)
            on_file[slot] = None if saved is None else tuple(saved.moves)
            if on_file[slot] is None or on_file[slot][:len(self.expected[slot])] != self.expected[slot]:
                wrong.append(f"{name(slot)} is kept at another position: "
                             f"{'unreadable' if saved is None else f'{len(saved.moves)} moves'}")
        changed = lambda button: self.verified.get(getattr(button, "slot", "")) != on_file.get(  # noqa: E731
            getattr(button, "slot", ""), ())
        for button, view, session in resume_every_offer(gui, changed):
            slot = getattr(button, "slot", None)
            moves = self.expected.get(slot)  # type: ignore[arg-type]
            if slot != getattr(session, "slot", None):
                wrong.append(f"{button.text!r} resumed another game in progress")
            elif moves is not None and not _same_position(session, moves):
                wrong.append(f"{button.text!r} resumed at move {len(session.moves)}, not where {name(slot)} was left")
            else:
                self.verified[slot] = tuple(session.moves)  # type: ignore[index]
            self.observe(view)  # the computer may have moved on
        return wrong
