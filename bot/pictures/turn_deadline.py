"""When the turn ends, as the board picture and its alt text show it: an absolute time,
since a picture cannot count down."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.words.i18n import text

Deadline = datetime | float | str
"""When the turn ends: an aware datetime, Unix seconds (the match service's clock), or the
caller's own text, already in the reader's language."""


def when_text(lang: str, deadline: datetime | float) -> str:
    """An absolute time a picture can show (it cannot count down): ``23 Nov 14:05 UTC``."""
    if not isinstance(deadline, datetime):
        deadline = datetime.fromtimestamp(deadline, UTC)
    moment = deadline.astimezone(UTC) if deadline.tzinfo else deadline.replace(tzinfo=UTC)
    month = text(lang, "pictures.labels.months").split()[moment.month - 1]
    return f"{moment.day} {month} {moment:%H:%M} UTC"


def deadline_text(lang: str, deadline: Deadline) -> str:
    """``turn ends 23 Nov 14:05 UTC``; a string is the caller's own, already-localised text."""
    if isinstance(deadline, str):
        return deadline
    return text(lang, "pictures.labels.deadline", when=when_text(lang, deadline))
