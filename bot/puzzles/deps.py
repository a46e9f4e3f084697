"""What the puzzles feature needs: the service's puzzles (a member's next one, a posed one,
an answer judged at once), names for a shared match's players, and the card emojis."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.discord_plumbing.app_emojis import AppEmojis
from bot.words.player_names import PlayerNames
from engine.model.puzzles import PuzzleStanding
from engine.service.puzzles.service import PosedPuzzle, PuzzleAnswer
from engine.service.puzzles.streaks import StreakStep


class Puzzles(Protocol):
    """The match service's puzzles (``service.puzzles``): what this feature asks of them."""

    async def next_for(self, guild_id: int, user_id: int) -> PosedPuzzle:
        """The member's next puzzle; raises ``NoPuzzleLeft``."""
        ...

    async def posed(self, guild_id: int, key: str) -> PosedPuzzle:
        """The puzzle ``key`` as its solver sees it; raises ``PuzzleNotFound``."""
        ...

    async def answer(self, guild_id: int, user_id: int, key: str, choice: str) -> PuzzleAnswer:
        """Judge and rate an answer; raises ``PuzzleNotFound``, ``NotAChoice`` or
        ``AlreadyAttempted``."""
        ...

    async def standing(self, guild_id: int, user_id: int) -> PuzzleStanding: ...


class Streaks(Protocol):
    """The match service's streaks (``service.puzzle_streaks``)."""

    async def go_on(self, guild_id: int, user_id: int) -> StreakStep:
        """The streak's puzzle now, or the next; raises ``LadderClimbed``."""
        ...

    async def start(self, guild_id: int, user_id: int) -> StreakStep:
        """A new run's first puzzle; raises ``LadderClimbed``."""
        ...

    async def answer(self, guild_id: int, user_id: int, key: str, choice: str) -> PuzzleAnswer:
        """Judge an answer in the streak; raises ``NotInStreak``, ``PuzzleNotFound``,
        ``NotAChoice`` or ``AlreadyAttempted``."""
        ...


@dataclass(frozen=True, slots=True)
class PuzzlesDeps:
    puzzles: Puzzles
    streaks: Streaks
    names: PlayerNames
    emojis: AppEmojis
    """The card emojis, read when a page is drawn (letters until they are uploaded)."""
