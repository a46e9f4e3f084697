"""What the settings feature needs: the service's settings, the DM choices, the server
language."""

from __future__ import annotations

from dataclasses import dataclass

from bot.discord_plumbing.direct_messages import DirectMessages
from bot.words.server_language import ServerLanguages
from engine.service import MatchSettings


@dataclass(frozen=True, slots=True)
class SettingsDeps:
    settings: MatchSettings
    direct_messages: DirectMessages
    languages: ServerLanguages
