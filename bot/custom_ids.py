"""The custom_id of every game component: what it acts on, so it works after a restart.

``hk:<match>:<version>:<what>[:<arg>]`` — the match, the match version the component was
made for (a click on an older one is refused as out of date), what it does, and an
argument such as a decision in rules.md notation (``3EEG``, ``-E``). At most 100
characters, as Discord requires.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

MAX_CUSTOM_ID = 100


class Verb(enum.StrEnum):
    HAND = "hand"
    """Open the private panel (the board's Hand button)."""
    ACTION = "act"
    """Start an action: arg is 1, 2, 3 or 4 (the action's card count)."""
    PICK = "pick"
    """The card select of an action: arg is the action's card count."""
    DO = "do"
    """Confirm a decision: arg is its notation (``2FG``, ``4ABEG``)."""
    TAKE = "take"
    """The opponent's choice from a Gift or Competition: arg is ``-E`` or ``-AB``."""
    BACK = "back"
    """Back to the panel's first page."""
    ACCEPT = "accept"
    DECLINE = "decline"
    RESIGN = "resign"
    """Confirm a resignation."""
    REMATCH = "rematch"


PATTERN = r"hk:(?P<match>[0-9]+):(?P<version>[0-9]+):(?P<verb>[a-z]+)(?::(?P<arg>[A-G0-9X-]{1,8}))?"
_COMPILED = re.compile(PATTERN)


@dataclass(frozen=True, slots=True)
class GameId:
    match_id: int
    version: int
    verb: Verb
    arg: str = ""

    def encode(self) -> str:
        text = f"hk:{self.match_id}:{self.version}:{self.verb.value}"
        if self.arg:
            text += f":{self.arg}"
        assert len(text) <= MAX_CUSTOM_ID, text
        return text


def decode(custom_id: str) -> GameId | None:
    """The parts of a game custom_id, or None for anything else (never raises)."""
    found = _COMPILED.fullmatch(custom_id)
    if found is None:
        return None
    try:
        verb = Verb(found["verb"])
    except ValueError:
        return None
    return GameId(int(found["match"]), int(found["version"]), verb, found["arg"] or "")


def game_id(match_id: int, version: int, verb: Verb, arg: str = "") -> str:
    return GameId(match_id, version, verb, arg).encode()
