"""What the daily puzzle needs: the service's daily puzzles (a day's puzzle, its solvers)
and puzzles (posed, answered), where to post, the server's language, names and the card
emojis, and how to confirm a day's puzzle was posted."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.discord_plumbing.app_emojis import AppEmojis
from bot.discord_plumbing.places import Places
from bot.puzzles.deps import Puzzles
from bot.words.player_names import PlayerNames
from bot.words.server_language import ServerLanguages
from engine.service import Event
from engine.service.puzzles.daily import DailyPuzzles


@dataclass(frozen=True, slots=True)
class DailyPuzzleDeps:
    daily: DailyPuzzles
    puzzles: Puzzles
    places: Places
    languages: ServerLanguages
    """The daily puzzle's message is public: the server's language."""
    names: PlayerNames
    emojis: AppEmojis
    announced: Callable[[Event], None]
    """Tells the service a day's puzzle was posted (or refused for good): never again."""
