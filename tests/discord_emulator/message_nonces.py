"""Create Message's ``nonce`` and ``enforce_nonce`` (Discord's "Create Message" docs):

    nonce: "Can be used to verify a message was sent (up to 25 characters)."
    enforce_nonce: "If true and nonce is present, it will be checked for uniqueness in
    the past few minutes. If another message was created by the same author with the same
    nonce, that message will be returned and no new message will be created."

"A few minutes" is not a number Discord gives; the emulator keeps a nonce for two minutes
(the short end, so a bot that relies on it longer is caught), by the virtual clock.
"""

from __future__ import annotations

from typing import Any

from tests.discord_emulator.clock import VirtualClock
from tests.discord_emulator.errors import invalid_form_body

NONCE_MAX_CHARS = 25
NONCE_KEPT_SECONDS = 120.0


class MessageNonces:
    def __init__(self, clock: VirtualClock) -> None:
        self._clock = clock
        self._seen: dict[tuple[int, str], tuple[int, float]] = {}
        self.reused = 0
        """How many creates returned an earlier message instead of posting (for tests)."""

    def earlier_message(self, payload: dict[str, Any], author_id: int) -> int | None:
        """The id of the message this create repeats, or None to create it (400 for a nonce
        Discord refuses)."""
        nonce = payload.get("nonce")
        if nonce is None:
            return None
        if isinstance(nonce, bool) or not isinstance(nonce, str | int):
            raise invalid_form_body({"nonce": "must be a string or an integer"})
        if isinstance(nonce, str) and len(nonce) > NONCE_MAX_CHARS:
            raise invalid_form_body({"nonce": f"must be {NONCE_MAX_CHARS} or fewer in length"})
        if payload.get("enforce_nonce") is not True:
            return None
        seen = self._seen.get((author_id, str(nonce)))
        if seen is None or self._clock.now() - seen[1] > NONCE_KEPT_SECONDS:
            return None
        self.reused += 1
        return seen[0]

    def remember(self, payload: dict[str, Any], author_id: int, message_id: int) -> None:
        nonce = payload.get("nonce")
        if nonce is not None and payload.get("enforce_nonce") is True:
            self._seen[(author_id, str(nonce))] = (message_id, self._clock.now())
