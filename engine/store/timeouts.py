"""How long the stores wait on the database before giving up on a call."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_SECONDS = 5.0
"""Each bound's default: far above a healthy call (milliseconds, seconds at worst under
load), short enough that a player waiting on "thinking…" hears back soon."""


@dataclass(frozen=True, slots=True)
class DatabaseTimeouts:
    """Bounds on every database call, in seconds; a call that reaches one fails with
    :class:`~engine.store.errors.DatabaseUnavailable` instead of waiting on.

    >>> DatabaseTimeouts(command_seconds=0)
    Traceback (most recent call last):
    ...
    ValueError: command_seconds must be more than 0 seconds, got 0
    """

    command_seconds: float = DEFAULT_SECONDS
    """PostgreSQL: the longest one statement may take (asyncpg's command timeout)."""
    acquire_seconds: float = DEFAULT_SECONDS
    """PostgreSQL: the longest a call waits for a connection of the pool."""
    connect_seconds: float = DEFAULT_SECONDS
    """PostgreSQL: the longest opening a new connection may take."""
    busy_seconds: float = DEFAULT_SECONDS
    """SQLite: the longest a write waits for a lock another connection holds (busy_timeout)."""

    def __post_init__(self) -> None:
        for name in ("command_seconds", "acquire_seconds", "connect_seconds", "busy_seconds"):
            value = getattr(self, name)
            if not value > 0:
                raise ValueError(f"{name} must be more than 0 seconds, got {value!r}")
