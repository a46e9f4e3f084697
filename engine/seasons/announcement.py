"""Where a server's season podium is announced: decided here once, for every process."""

from __future__ import annotations

from engine.model import GuildSettings


def announcement_channel(settings: GuildSettings) -> int | None:
    """The channel the admin chose for seasons, else the server's lobby channel, else
    None: no channel was named, so nothing is announced (the standings are still kept)."""
    if settings.season_channel_id is not None:
        return settings.season_channel_id
    return settings.lobby_channel_id
