"""What the match service holds at a moment, for an operator's metrics and health checks."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ServiceFigures:
    """Counts read from memory (no database call), so cheap enough to read per scrape.

    With a shared database (several processes) the open matches are those this process
    holds in its cache, not every match of the bot."""

    started: bool
    """The store is open and migrated, and the matches under way are rebuilt."""
    challenges_open: int
    """Challenges waiting for an answer."""
    matches_playing: int
    """Matches started and not over."""
    announcements_waiting: int
    """Announcements published and not yet shown in Discord (:mod:`.outbox`)."""
    oldest_announcement_seconds: float
    """How long the oldest of them has waited since this process published it (0: none)."""
    reviews_running: int
    """Review analyses under way (:mod:`.reviews`)."""
    database_down: bool
    """Database calls fail for want of an answer (:mod:`engine.store.outage`)."""
    disk_full: bool
    """Writes are refused for a full disk (SQLite)."""
    connections_in_use: int
    """Database connections running a call (PostgreSQL: of the pool; SQLite: 0 or 1)."""
