"""What the settings feature needs: the service's settings (the server's language among
them) and the DM choices."""

from __future__ import annotations

from dataclasses import dataclass

from bot.discord_plumbing.direct_messages import DirectMessages
from engine.service import MatchSettings


@dataclass(frozen=True, slots=True)
class SettingsDeps:
    settings: MatchSettings
    direct_messages: DirectMessages
