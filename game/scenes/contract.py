"""What a game screen asks of the scene that draws its board: the contract ``game.views.match_view.MatchView``
relies on, as a ``typing.Protocol`` (``SowingScene`` and ``CaveScene`` meet it by shape, without inheriting).

A scene has places ("locations": pits, stores, cells) that it can find under the mouse and highlight.  It is
told where to draw (``set_rect``), advanced once a frame (``update``) and can end its animation at once
(``finish``); what it has to say on the way (a capture, an extra turn) and its sounds go to the two
callbacks the screen sets.  The screen tells it positions and moves through the subclass's own methods
(``show``, ``animate``, ``place``), which differ per board.
"""
from __future__ import annotations

from typing import Callable, Optional, Protocol

Location = int
"""A place on the scene that can be clicked and highlighted (a pit, a store, a cell)."""
Colour = tuple[int, int, int, int]


class MatchScene(Protocol):
    """The board of a two-player game screen, as the screen drives it."""

    speed: float
    """Animation speed factor (1 is normal)."""
    announce: Callable[[str], None]
    """Called with a short text to show over the board while a move plays (a capture, an extra turn)."""
    on_sound: Callable[[str], None]
    """Called with the name of a sound to play (pick, drop, capture, brick)."""

    @property
    def is_animating(self) -> bool: ...

    def set_rect(self, left: float, bottom: float, width: float, height: float) -> None: ...

    def update(self, dt: float) -> None: ...

    def finish(self) -> None: ...

    def location_at(self, x: float, y: float) -> Optional[Location]: ...

    def draw(self, highlights: Optional[dict[Location, Colour]] = None,
             outlines: Optional[dict[Location, Colour]] = None) -> None: ...
