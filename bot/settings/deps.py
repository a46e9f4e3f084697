"""What the settings feature needs: the service's settings (the server's language among
them), the DM choices, the seasons (which follow the season length) and the daily puzzle
(which follows the puzzle channel)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.discord_plumbing.direct_messages import DirectMessages
from engine.service import MatchSeasons, MatchSettings
from engine.service.puzzles.daily import DailyPuzzles


@dataclass(frozen=True, slots=True)
class SettingsDeps:
    settings: MatchSettings
    direct_messages: DirectMessages
    seasons: MatchSeasons
    daily_puzzles: DailyPuzzles
    """Follows the puzzle channel: the daily puzzle's alarm set or cleared."""
