"""What the settings feature needs: the service's settings (the server's language among
them), the DM choices, and the seasons (which follow the season length)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.discord_plumbing.direct_messages import DirectMessages
from engine.service import MatchSeasons, MatchSettings


@dataclass(frozen=True, slots=True)
class SettingsDeps:
    settings: MatchSettings
    direct_messages: DirectMessages
    seasons: MatchSeasons
