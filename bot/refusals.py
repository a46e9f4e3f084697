"""What a player reads when the service or the rules refuse something: short and plain.

The service's own messages quote ids (good for logs); these say the same to a person.
"""

from __future__ import annotations

from engine.errors import IllegalDecision
from engine.service.errors import (
    CannotChallengeSelf,
    ChallengeExpired,
    ChallengeNotPending,
    InvalidRequest,
    MatchNotActive,
    MatchNotFound,
    NotYourMatch,
    NotYourTurn,
    ServiceClosed,
    ServiceError,
    StaleVersion,
    TooManyActiveMatches,
)

STALE_PANEL = "This panel is out of date — here is the current one."
NOT_A_PLAYER = "Only the two players can use this. You are welcome to watch the board!"
SOMETHING_WENT_WRONG = "Something went wrong on our side; nothing was changed. Please try again."


def refusal_text(error: Exception, names: dict[int, str] | None = None) -> str:
    """A one-line explanation of a refusal, for an ephemeral reply."""
    names = names or {}
    if isinstance(error, IllegalDecision):
        return f"That move is not allowed: {error.reason}."
    if isinstance(error, NotYourTurn):
        waiting = names.get(error.waiting_for or -1)
        return f"It is {waiting}'s turn, not yours." if waiting else "It is not your turn."
    if isinstance(error, NotYourMatch):
        return NOT_A_PLAYER
    if isinstance(error, StaleVersion):
        return STALE_PANEL
    if isinstance(error, CannotChallengeSelf):
        return "You can't challenge yourself — try `/hanamikoji ai` to play against the bot."
    if isinstance(error, TooManyActiveMatches):
        return (
            f"You already have {error.limit} open matches, the most allowed. "
            "Finish or resign one first."
        )
    if isinstance(error, ChallengeExpired):
        return "This challenge has expired. Start a new one with `/hanamikoji challenge`."
    if isinstance(error, ChallengeNotPending):
        return f"This challenge was already answered (it is {error.status})."
    if isinstance(error, MatchNotActive):
        return f"This match is not being played any more (it is {error.status})."
    if isinstance(error, MatchNotFound):
        return "I can't find that match any more."
    if isinstance(error, ServiceClosed):
        return "The bot is restarting; try again in a moment."
    if isinstance(error, InvalidRequest | ServiceError):
        return error.message[:1].upper() + error.message[1:] + "."
    return SOMETHING_WENT_WRONG
