"""What Discord accepts as a thread's name and archive duration ("Start Thread from Message",
"Start Thread without Message" and "Modify Channel" in resources/channel)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from tests.discord_emulator.limits import Problem, refuse

MAX_CHANNEL_NAME = 100
AUTO_ARCHIVE_MINUTES = (60, 1440, 4320, 10080)


def thread_field_problems(body: Mapping[str, Any], *, creating: bool) -> Iterator[Problem]:
    """A name of 1-100 characters (an edit may leave it out); a listed archive duration."""
    name = body.get("name")
    if (creating or "name" in body) and (
        not isinstance(name, str) or not 1 <= len(name) <= MAX_CHANNEL_NAME
    ):
        yield (
            ("name",),
            "BASE_TYPE_BAD_LENGTH",
            f"Must be between 1 and {MAX_CHANNEL_NAME} in length.",
        )
    duration = body.get("auto_archive_duration")
    if duration is not None and duration not in AUTO_ARCHIVE_MINUTES:
        yield (
            ("auto_archive_duration",),
            "BASE_TYPE_CHOICES",
            f"Value must be one of {AUTO_ARCHIVE_MINUTES}.",
        )


def check_thread_fields(body: Mapping[str, Any], *, creating: bool) -> None:
    """Raise the 400 Discord sends for a thread created or edited with this body, if any.

    The name rule holds for any channel, so an edit of a text channel is checked too."""
    refuse(list(thread_field_problems(body, creating=creating)))
