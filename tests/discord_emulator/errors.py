"""Errors the emulated Discord answers with, and the record of each bot failure."""

from __future__ import annotations

import dataclasses
from typing import Any

# Discord's JSON error codes that the emulator produces.
UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
MISSING_ACCESS = 50001
CANNOT_EDIT_OTHERS_MESSAGE = 50005
CANNOT_SEND_EMPTY_MESSAGE = 50006
CANNOT_SEND_TO_USER = 50007
INVALID_WEBHOOK_TOKEN = 50027
INVALID_FORM_BODY = 50035
ALREADY_ACKNOWLEDGED = 40060
MAX_FOLLOWUP_MESSAGES = 40094


class DiscordError(Exception):
    """An error response exactly as Discord would send it."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{status} (code {code}): {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


def unknown_channel() -> DiscordError:
    return DiscordError(404, UNKNOWN_CHANNEL, "Unknown Channel")


def unknown_message() -> DiscordError:
    return DiscordError(404, UNKNOWN_MESSAGE, "Unknown Message")


def unknown_webhook() -> DiscordError:
    return DiscordError(404, UNKNOWN_WEBHOOK, "Unknown Webhook")


def unknown_interaction() -> DiscordError:
    return DiscordError(404, UNKNOWN_INTERACTION, "Unknown interaction")


def already_acknowledged() -> DiscordError:
    return DiscordError(400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.")


def invalid_webhook_token() -> DiscordError:
    return DiscordError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")


def missing_access() -> DiscordError:
    return DiscordError(403, MISSING_ACCESS, "Missing Access")


def too_many_followups() -> DiscordError:
    # The JSON code and text are documented (topics/opcodes-and-status-codes); the HTTP
    # status is not: 400, as for the other 400xx interaction errors (40060).
    text = "This interaction has hit the maximum number of follow up messages"
    return DiscordError(400, MAX_FOLLOWUP_MESSAGES, text)


def invalid_form_body(errors: dict[str, Any]) -> DiscordError:
    return DiscordError(400, INVALID_FORM_BODY, "Invalid Form Body", errors)


@dataclasses.dataclass(frozen=True)
class Failure:
    """Something the real Discord would have refused or shown the user as an error."""

    what: str
    status: int | None = None
    code: int | None = None
    detail: str = ""

    def __str__(self) -> str:
        parts = [self.what]
        if self.status is not None:
            parts.append(f"-> {self.status}")
        if self.code is not None:
            parts.append(f"code {self.code}")
        if self.detail:
            parts.append(f"({self.detail})")
        return " ".join(parts)


class ImpossibleUserAction(AssertionError):
    """A test asked a user to do something the Discord client would not let them do."""
