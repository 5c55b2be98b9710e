"""The words a two-player game screen reads from its controller (``game.controller.MatchController``): the top
bar's turn, scores and last move, the move list, the bottom bar's buttons, the result, and the side panel's lines
on the computer.  They speak of the position on the board (``board_index``), which trails the session while a
move's stones fly; their words come from ``game.explain``.  Window-free, like the controller it is part of.
"""
from __future__ import annotations

from typing import Any

from ai.base import SearchResult
from game import explain
from game.session import Session
from rules import Move, State


class MatchTexts:
    """The controller's texts; ``MatchController`` holds the state they read."""

    session: Session
    settings: Any
    board_index: int
    replay_index: int | None
    paused: bool
    thinking: str
    worker_state: State | None
    _move_list: tuple[tuple[int, int, Any], list[str]] | None
    _reasonings: list[tuple[int, str]]

    @property
    def watching(self) -> bool:
        raise NotImplementedError

    @property
    def speed(self) -> float:
        raise NotImplementedError

    @property
    def board_state(self) -> State:
        """The position the board shows once its stones are still (what the top bar speaks of)."""
        states = self.session.states
        return states[min(self.board_index, len(states) - 1)]

    def turn(self) -> tuple[str, int | None]:
        """The top bar's turn line and the player it names (None: no one's turn, as in a replay)."""
        session = self.session
        state = self.board_state
        if self.replay_index is not None:
            return "Replay", None
        if session.game.is_terminal(state):
            return "Game over", None
        player = session.game.to_move(state)
        humans = sum(seat.is_human for seat in session.seats)
        who = "computer" if not session.seat(player).is_human else "you" if humans == 1 else "human"
        return f"{session.game.player_names[player]} to move ({who})", player

    def last_move(self, index: int | None = None) -> tuple[State, Move] | None:
        """The move that led to ``session.states[index]`` (default: the last) and the position it was played
        in; None at the start."""
        session = self.session
        index = len(session.states) - 1 if index is None else index
        return (session.states[index - 1], session.moves[index - 1]) if index > 0 else None

    def scores_text(self) -> str:
        """The top bar's scores, of the position on the board."""
        game = self.session.game
        names = game.player_names
        first, second = explain.scores(game, self.board_state)
        return f"{explain.words_of(game).score_label}{names[0]} {first}   {names[1]} {second}"

    def last_text(self) -> str:
        """The top bar's line on the move that led to the position on the board (numbered in a replay)."""
        session = self.session
        last = self.last_move(self.board_index)
        if last is None:
            return "Replay: the start" if self.replay_index is not None else "No move yet"
        text = explain.move_text(session.game, *last)
        return f"Replay {self.board_index}/{len(session.moves)}: {text}" if self.replay_index is not None else text

    def refusal(self) -> str:
        """Why a click on a place that is no legal move cannot play, naming the legal moves."""
        session = self.session
        moves = ", ".join(explain.move_name(session.game, session.state, move) for move in session.legal_moves)
        return f"That cannot be played (legal: {moves})."

    def move_list(self) -> list[str]:
        """The move list's lines up to the position on the board (formatted again only when that changes:
        every frame would grow with the game)."""
        session = self.session
        index = min(self.board_index, len(session.moves))
        key = (id(session), index, session.moves[index - 1] if index else None)
        if self._move_list is None or self._move_list[0] != key:
            self._move_list = key, explain.move_list(session.game, session.states[:index], session.moves[:index])
        return self._move_list[1]

    # -- the bottom bar ---------------------------------------------------------------------------------------
    def button_names(self) -> list[str]:
        """The bottom bar's buttons, in order (Pause and Speed first when only computers play)."""
        if self.watching:
            return ["Pause", "Speed", "Undo", "Redo", "Save", "New game", "Menu"]
        return ["Hint", "Undo", "Redo", "Save", "New game", "Speed", "Menu"]

    def button_text(self, name: str) -> str:
        if name == "Speed":
            return f"Speed x{self.speed:g}"
        if name == "Pause":
            return "Resume" if self.paused else "Pause"
        return name

    def is_button_enabled(self, name: str) -> bool:
        session = self.session
        return {"Undo": session.can_undo, "Redo": session.can_redo,
                "Hint": lambda: session.is_human_turn}.get(name, lambda: True)()

    # -- the result -------------------------------------------------------------------------------------------
    def result(self) -> explain.Result:
        """The finished game's result in words (headline, winner, reason)."""
        return explain.result(self.session)

    def rules_text(self) -> str:
        """The game's parameters that differ from the standard rules, in words (``pits 4, no empty capture``), or
        ``standard rules``."""
        game = self.session.game
        defaults = {param.name: param.default for param in game.params}
        changed = [parameter_words(key, value) for key, value in game.parameters.items() if defaults.get(key) != value]
        return ", ".join(changed) if changed else "standard rules"

    def computer_name(self, player: int) -> str:
        """How the panel names a computer seat: "The computer" against one human, else the side's name."""
        humans = sum(seat.is_human for seat in self.session.seats)
        return "The computer" if humans == 1 else self.session.game.player_names[player]

    @property
    def details(self) -> bool:
        """The Details setting: the engines' own figures (spec, depth, speed) for engine developers."""
        try:
            return bool(self.settings.get("details"))
        except (LookupError, ValueError):  # settings without the switch (a test's): off
            return False

    def _search_detail(self, result: SearchResult, speed: float) -> str:
        """The small print under the computer's thinking: the engine, its speed and which core ran."""
        seat = self.session.seat(self.session.game.to_move(self.worker_state or self.session.state))
        core = result.info.get("core")  # which search core ran: compiled, or the pure-Python fallback
        where = "" if core is None else f", {'compiled' if core == 'compiled' else 'Python'} core"
        return f"({seat.engine}: {speed / 1000:,.0f}k positions/s{where})"

    @property
    def computer_text(self) -> str:
        """The side panel's computer lines: its last move's reasoning and, while it searches, its thinking."""
        if not any(not seat.is_human for seat in self.session.seats):
            return "No computer plays in this game."
        landed = self.board_index == len(self.session.states) - 1  # else it thinks about a position not shown yet
        thinking = self.thinking if landed else ""
        if thinking and self.reasoning:  # its last move stays readable while it thinks about the next
            return f"{self.reasoning}\n{thinking.splitlines()[0]}"
        return thinking or self.reasoning or self._earlier_move() or "It has not moved yet."

    def _earlier_move(self) -> str:
        """The computer's last move up to the position shown when its reasoning is not known (a resumed or
        loaded game), in words; "" when no computer has moved yet."""
        session = self.session
        for index in range(min(self.board_index, len(session.moves)) - 1, -1, -1):
            player = session.game.to_move(session.states[index])
            if not session.seat(player).is_human:
                move = explain.move_text(session.game, session.states[index], session.moves[index])
                return f"{self.computer_name(player)} played {move}."
        return ""

    @property
    def reasoning(self) -> str:
        """The computer's reasoning for the last of its moves the board shows."""
        shown = [text for index, text in self._reasonings if index <= self.board_index]
        return shown[-1] if shown else ""


def parameter_words(name: str, value: object) -> str:
    """A rules parameter as a player reads it: ``empty capture`` / ``no empty capture`` for a switch, ``pits 4``,
    ``grand slam forbidden`` for a value (never the spec's ``empty_capture False``)."""
    if name == "no_capture_limit":  # Oware's: read as its name, "no capture limit 50" would say the opposite
        return "no move limit without captures" if value == 0 else f"{value}-move limit without captures"
    words = name.replace("_", " ")
    if isinstance(value, bool):
        return words if value else f"no {words}"
    return f"{words} {str(value).replace('-', ' ')}"

