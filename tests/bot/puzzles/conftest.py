"""The puzzles feature's test kit: the service's puzzles over the built-in set, held in
memory (answers judged and rated as the service does), and the feature's parts."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import pytest

from bot.discord_plumbing.app_emojis import AppEmojis
from bot.puzzles.deps import PuzzlesDeps
from bot.words.card_faces import CardFaces, action_key, card_key
from engine.model.puzzles import PuzzleStanding
from engine.puzzles import puzzle_view, rate_attempt
from engine.puzzles.builtin import BuiltinPuzzle, builtin_puzzles
from engine.ratings.glicko2 import Glicko2Rating
from engine.rules import Action
from engine.service.puzzles.errors import (
    AlreadyAttempted,
    NoPuzzleLeft,
    NotAChoice,
    PuzzleNotFound,
)
from engine.service.puzzles.service import PosedPuzzle, PuzzleAnswer
from tests.bot.fakes import FakeNames

GUILD = 1
BUILTIN = {p.key: p for p in builtin_puzzles()}

FACES = CardFaces(
    {
        **{card_key(c): (card_key(c), 9000 + c) for c in range(7)},
        **{action_key(a): (action_key(a), 9100 + i) for i, a in enumerate(Action)},
    }
)
"""Every card and action marker with an emoji, as once uploaded."""


@dataclass
class FakePuzzles:
    """``service.puzzles`` over the built-in set: ``order`` is the order members meet them;
    ``shared`` the keys posed as if from a shared match of this server (players 21, 22)."""

    order: list[str] = field(default_factory=lambda: list(BUILTIN))
    shared: set[str] = field(default_factory=set)
    standings: dict[int, PuzzleStanding] = field(default_factory=dict)
    attempted: dict[tuple[int, str], str] = field(default_factory=dict)
    ratings: dict[str, Glicko2Rating] = field(default_factory=dict)

    def _posed(self, found: BuiltinPuzzle) -> PosedPuzzle:
        shared = found.key in self.shared
        return PosedPuzzle(
            found.key,
            found.puzzle,
            puzzle_view(found.record, found.puzzle.step),
            self.ratings.get(found.key, Glicko2Rating()),
            77 if shared else None,
            (21, 22) if shared else None,
        )

    async def next_for(self, guild_id: int, user_id: int) -> PosedPuzzle:
        for key in self.order:
            if (user_id, key) not in self.attempted:
                return self._posed(BUILTIN[key])
        raise NoPuzzleLeft(guild_id, user_id)

    async def posed(self, guild_id: int, key: str) -> PosedPuzzle:
        if key not in BUILTIN:
            raise PuzzleNotFound(key)
        return self._posed(BUILTIN[key])

    async def answer(self, guild_id: int, user_id: int, key: str, choice: str) -> PuzzleAnswer:
        if key not in BUILTIN:
            raise PuzzleNotFound(key)
        puzzle = BUILTIN[key].puzzle
        if choice not in {c.decision for c in puzzle.choices}:
            raise NotAChoice(key, choice)
        if (user_id, key) in self.attempted:
            raise AlreadyAttempted(key, user_id)
        self.attempted[user_id, key] = choice
        solved = puzzle.solved_by(choice)
        before = await self.standing(guild_id, user_id)
        member, rated = rate_attempt(
            before.rating, self.ratings.get(key, Glicko2Rating()), solved=solved
        )
        streak = before.streak + 1 if solved else 0
        after = replace(
            before,
            rating=member,
            attempts=before.attempts + 1,
            solved=before.solved + solved,
            streak=streak,
            best_streak=max(streak, before.best_streak),
        )
        self.standings[user_id] = after
        self.ratings[key] = rated
        return PuzzleAnswer(key, choice, solved, puzzle, before, after)

    async def standing(self, guild_id: int, user_id: int) -> PuzzleStanding:
        return self.standings.get(user_id, PuzzleStanding(guild_id, user_id))


def puzzles_deps(puzzles: FakePuzzles, faces: CardFaces = FACES) -> PuzzlesDeps:
    emojis = AppEmojis()
    emojis.faces = faces
    # The streak's flow runs on the real service, end to end (tests/e2e/test_puzzle_streak.py).
    streaks = None
    return PuzzlesDeps(puzzles, streaks, FakeNames(("ana", "ben")), emojis)  # type: ignore[arg-type]


@pytest.fixture
def puzzles() -> FakePuzzles:
    return FakePuzzles()
