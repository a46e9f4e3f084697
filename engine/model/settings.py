"""Per-server and per-member settings; None in a server's settings means "the default"."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class ExpiryPolicy(enum.StrEnum):
    """What happens when a player lets their turn timer run out."""

    AI = "ai"
    """The AI plays the absent player's decision (recorded as automatic)."""
    FORFEIT = "forfeit"
    """The absent player forfeits the match."""


class SeasonLength(enum.StrEnum):
    """How long a server's seasons last (:mod:`engine.seasons.calendar` says when one ends);
    with OFF a season starts and ends only by hand."""

    OFF = "off"
    MONTHLY = "monthly"
    QUARTERLY = "quarterly"


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """Per-guild overrides; None means "use the service's configured default"."""

    guild_id: int
    turn_seconds: float | None = None
    expiry_policy: ExpiryPolicy | None = None
    thread_per_match: bool | None = None
    three_rounds_default: bool | None = None
    language: str | None = None
    """The language of public match messages; None follows the server's Discord locale."""
    # Seasons (issue 27).
    season_length: SeasonLength | None = None
    """None is OFF: seasons start and end by hand."""
    season_channel_id: int | None = None
    """The channel a season's podium is announced in (see ``announcement_channel``)."""
    lobby_channel_id: int | None = None
    """The server's lobby channel (open seats); the podium goes there when no season
    channel is named."""
    tournament_role_id: int | None = None
    """Members with this role may create tournaments (as well as those who may Manage
    Server); None: only those."""
    # Time controls (issue 40).
    time_control: str | None = None
    """The code of the default time control (:class:`engine.clocks.TimeControl`); None: a
    timer per turn of ``turn_seconds``."""
    vacation_days: int | None = None
    """The days a year a member may pause their turn-based matches; None: the default."""
    # The daily puzzle.
    puzzle_channel_id: int | None = None
    """The channel the daily puzzle is posted in at 00:00 UTC; None: no daily puzzle."""


@dataclass(frozen=True, slots=True)
class UserSettings:
    user_id: int
    dm_notifications: bool = False
    """Off until the player asks for DMs with `/hanamikoji notify dm:on`."""
    share_reviews: bool = False
    """The member lets spectators see the judgement and hidden cards of their finished
    matches (a spectator's review shows them only when both players allowed it)."""
