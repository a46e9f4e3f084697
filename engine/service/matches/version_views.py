"""The views of one match's current version, each worked out once.

Between two decisions the same view is asked for several times — the deciding player's
Hand, action and card presses each read their own view, the presenter the spectators' —
and each would otherwise be worked out again from the state (its legal decisions
included). The cache belongs to one match, is keyed by the version's state and the seat,
and holds at most one view per seat and the spectators' one: it is emptied as soon as
the state changes, so it never grows, and one seat's view is never another's.
"""

from __future__ import annotations

from engine.rules.state import GameState
from engine.rules.views import PlayerView, PublicView, public_view, view


class VersionViews:
    """What each seat and a spectator see of one state of one match.

    A view is served again only for the very state object it was worked out from, at the
    same version (a state moved on in place, as a replay does, has a new version).
    """

    __slots__ = ("_players", "_public", "_state", "_version")

    def __init__(self) -> None:
        self._state: GameState | None = None
        self._version = -1
        self._players: dict[int, PlayerView] = {}
        self._public: PublicView | None = None

    def _of(self, state: GameState) -> None:
        if state is not self._state or state.version != self._version:
            self._state, self._version = state, state.version
            self._players = {}
            self._public = None

    def public(self, state: GameState) -> PublicView:
        """:func:`engine.rules.views.public_view` of ``state``."""
        self._of(state)
        if self._public is None:
            self._public = public_view(state)
        return self._public

    def player(self, state: GameState, seat: int) -> PlayerView:
        """:func:`engine.rules.views.view` of ``state`` for ``seat``."""
        self._of(state)
        found = self._players.get(seat)
        if found is None:
            found = view(state, seat, table=self.public(state))
            self._players[seat] = found
        return found
