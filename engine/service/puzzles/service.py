"""Puzzles as members meet them: found in a server's reviewed matches (and the built-in
set), handed out near the member's rating, answered once, rated as a Glicko-2 game.

- **Harvest**: once a finished match's review is stored, its mistakes are searched again
  (:func:`engine.puzzles.puzzle_at`, one job per decision in the AI's worker) and the
  puzzles saved under ``match/<id>/<step>``; saving twice is one.
- **Next**: the puzzle nearest the member's rating they never attempted, in one read
  (:meth:`MatchStore.puzzle_candidates`), posed as its mover's view only.
- **Answer**: judged at once (a choice within the puzzle's margin of the best solves it);
  the attempt, the member's new standing (streak included) and the puzzle's rating are
  one commit, and a second answer to the same puzzle is refused.

A server's puzzle names its match's players only when both let spectators see their
matches (``share_reviews``); otherwise it is anonymous.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, replace

from engine.model.puzzles import PuzzleAttempt, PuzzleStanding, StoredPuzzle
from engine.puzzles import Puzzle, PuzzleFormatError, candidate_steps, puzzle_at, puzzle_view
from engine.puzzles.builtin import BuiltinPuzzle, builtin_puzzles
from engine.puzzles.rating import rate_attempt
from engine.ratings.glicko2 import Glicko2Rating
from engine.review.judgement import MatchReview
from engine.rules.errors import RecordError
from engine.rules.record import MatchRecord
from engine.rules.views import PlayerView
from engine.service.context import ServiceContext
from engine.service.puzzles.errors import (
    AlreadyAttempted,
    NoPuzzleLeft,
    NotAChoice,
    PuzzleNotFound,
)
from engine.service.reviews.sight import both_share
from engine.service.settings import MatchSettings
from engine.store.errors import DuplicateKey

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PosedPuzzle:
    """A puzzle as its solver sees it: the mover's view, the choices, no answer."""

    key: str
    puzzle: Puzzle
    """Its answer is in it: the bot shows only ``choices`` until the puzzle is answered."""
    view: PlayerView
    rating: Glicko2Rating
    match_id: int | None
    """The server's match it comes from (None: the built-in set)."""
    players: tuple[int, int] | None
    """The match's players, when both share their matches; else None (anonymous)."""


@dataclass(frozen=True, slots=True)
class PuzzleAnswer:
    key: str
    choice: str
    solved: bool
    puzzle: Puzzle
    before: PuzzleStanding
    after: PuzzleStanding


Counting = Callable[[PuzzleStanding, Glicko2Rating, bool], tuple[PuzzleStanding, Glicko2Rating]]
"""The member's standing and the puzzle's rating before an attempt, and whether it solved
the puzzle -> both after it (inside the attempt's commit)."""


def rated_attempt(
    before: PuzzleStanding, puzzle_rating: Glicko2Rating, solved: bool
) -> tuple[PuzzleStanding, Glicko2Rating]:
    """The rated stream's count: a Glicko-2 game between member and puzzle, one attempt
    more, and the streak of the rated puzzles solved in a row."""
    member, rated = rate_attempt(before.rating, puzzle_rating, solved=solved)
    streak = before.streak + 1 if solved else 0
    after = replace(
        before,
        rating=member,
        attempts=before.attempts + 1,
        solved=before.solved + int(solved),
        streak=streak,
        best_streak=max(before.best_streak, streak),
    )
    return after, rated


def match_key(match_id: int, step: int) -> str:
    return f"match/{match_id}/{step}"


def stored_puzzle(
    key: str, guild_id: int | None, match_id: int | None, puzzle: Puzzle
) -> StoredPuzzle:
    """A new puzzle as the store keeps it (unrated yet)."""
    return StoredPuzzle(key, guild_id, match_id, puzzle.to_json(), ease=puzzle.ease)


class MatchPuzzles:
    def __init__(
        self, context: ServiceContext, settings: MatchSettings, executor: Executor | None
    ) -> None:
        self._ctx = context
        self._settings = settings
        self._executor = executor
        self._builtin: dict[str, BuiltinPuzzle] | None = None

    # -- the built-in set ------------------------------------------------------------------

    def _builtin_set(self) -> dict[str, BuiltinPuzzle]:
        if self._builtin is None:
            self._builtin = {p.key: p for p in builtin_puzzles()}
        return self._builtin

    async def install_builtin(self) -> int:
        """Store the built-in set (again: a key stored keeps its rating); how many."""
        shipped = self._builtin_set().values()
        await self._ctx.store.save_puzzles(
            [stored_puzzle(p.key, None, None, p.puzzle) for p in shipped]
        )
        return len(shipped)

    # -- harvest ---------------------------------------------------------------------------

    def reviewed(self, match_id: int, record: MatchRecord, review: MatchReview) -> None:
        """A review was stored: search its mistakes for puzzles, in the background (a
        failure is logged; the match's puzzles are then missing, nothing else)."""
        self._ctx.spawn(self._harvest_reviewed(match_id, record, review))

    async def _harvest_reviewed(
        self, match_id: int, record: MatchRecord, review: MatchReview
    ) -> None:
        try:
            result = await self._ctx.store.finished_match(match_id)
            if result is not None:
                await self.harvest(match_id, result.guild_id, record, review)
        except Exception:
            log.exception("the puzzles of match %d were not searched", match_id)

    async def harvest(
        self, match_id: int, guild_id: int | None, record: MatchRecord, review: MatchReview
    ) -> list[StoredPuzzle]:
        """Search a reviewed match's mistakes for puzzles and store them (one job per
        decision in the AI's worker, so the AI's own moves may come in between)."""
        if guild_id is None:
            return []  # a puzzle belongs to a server (its members' matches)
        found: list[StoredPuzzle] = []
        loop = asyncio.get_running_loop()
        for step in candidate_steps(review):
            job = functools.partial(puzzle_at, record, step)
            puzzle = await loop.run_in_executor(self._executor, job)
            if puzzle is not None:
                found.append(stored_puzzle(match_key(match_id, step), guild_id, match_id, puzzle))
        if found:
            await self._ctx.store.save_puzzles(found)
        return found

    # -- solving ---------------------------------------------------------------------------

    async def standing(self, guild_id: int, user_id: int) -> PuzzleStanding:
        found = await self._ctx.store.puzzle_standing(guild_id, user_id)
        return found or PuzzleStanding(guild_id, user_id)

    async def next_for(self, guild_id: int, user_id: int) -> PosedPuzzle:
        """The puzzle nearest the member's rating they never attempted (the server's and
        the built-in ones). Raises :class:`NoPuzzleLeft`."""
        standing = await self.standing(guild_id, user_id)
        for stored in await self._ctx.store.puzzle_candidates(
            guild_id, user_id, standing.rating.rating, limit=5
        ):
            try:
                return await self.pose(stored)
            except PuzzleNotFound:
                continue  # its match's record is gone or unreadable: the next one
        raise NoPuzzleLeft(guild_id, user_id)

    async def posed(self, guild_id: int, key: str) -> PosedPuzzle:
        """The puzzle ``key`` as a member of ``guild_id`` sees it (another server's own
        puzzle is not theirs to see). Raises :class:`PuzzleNotFound`."""
        return await self.pose(await self.stored(guild_id, key))

    async def stored(self, guild_id: int, key: str) -> StoredPuzzle:
        """The stored puzzle ``key`` if a member of ``guild_id`` may see it; raises
        :class:`PuzzleNotFound`."""
        stored = await self._ctx.store.puzzle(key)
        if stored is None or stored.guild_id not in (None, guild_id):
            raise PuzzleNotFound(key)
        return stored

    async def answer(self, guild_id: int, user_id: int, key: str, choice: str) -> PuzzleAnswer:
        """Judge ``choice`` and rate the attempt; raises :class:`PuzzleNotFound`,
        :class:`NotAChoice`, or :class:`AlreadyAttempted` (nothing is changed then)."""
        return await self.judge(guild_id, user_id, key, choice, rated_attempt)

    async def judge(
        self,
        guild_id: int,
        user_id: int,
        key: str,
        choice: str,
        count: Counting,
        *,
        rated: bool = True,
    ) -> PuzzleAnswer:
        """Judge ``choice`` and commit the attempt with what ``count`` makes of it (the
        rated stream's :func:`rated_attempt`, or a streak's). Raises
        :class:`PuzzleNotFound`, :class:`NotAChoice`, :class:`AlreadyAttempted`, or what
        ``count`` raises; nothing is changed then."""
        puzzle = self.puzzle_of(await self.stored(guild_id, key))
        if choice not in {c.decision for c in puzzle.choices}:
            raise NotAChoice(key, choice)
        solved = puzzle.solved_by(choice)
        now = self._ctx.clock.now()
        attempt = PuzzleAttempt(guild_id, user_id, key, choice, solved, now, rated)
        seen: list[PuzzleStanding] = []

        def rate(
            before: PuzzleStanding, puzzle_rating: Glicko2Rating
        ) -> tuple[PuzzleStanding, Glicko2Rating]:
            seen.append(before)
            return count(before, puzzle_rating, solved)

        try:
            after = await self._ctx.store.record_attempt(attempt, rate)
        except DuplicateKey:
            raise AlreadyAttempted(key, user_id) from None
        except KeyError:
            raise PuzzleNotFound(key) from None
        return PuzzleAnswer(key, choice, solved, puzzle, seen[-1], after)

    async def leaderboard(
        self, guild_id: int, *, offset: int = 0, limit: int = 10
    ) -> Sequence[PuzzleStanding]:
        return await self._ctx.store.puzzle_leaderboard(guild_id, offset=offset, limit=limit)

    # -- posing ----------------------------------------------------------------------------

    def puzzle_of(self, stored: StoredPuzzle) -> Puzzle:
        try:
            return Puzzle.from_json(stored.body)
        except PuzzleFormatError as error:
            log.error("puzzle %s does not read: %s", stored.key, error)
            raise PuzzleNotFound(stored.key) from None

    async def pose(self, stored: StoredPuzzle) -> PosedPuzzle:
        """``stored`` as its solver sees it; raises :class:`PuzzleNotFound` when its match's
        record is gone or unreadable."""
        puzzle = self.puzzle_of(stored)
        players: tuple[int, int] | None = None
        if stored.match_id is None:
            builtin = self._builtin_set().get(stored.key)
            if builtin is None:
                raise PuzzleNotFound(stored.key)
            record = builtin.record
        else:
            result = await self._ctx.store.finished_match(stored.match_id)
            if result is None:
                raise PuzzleNotFound(stored.key)
            try:
                record = MatchRecord.from_json(result.record)
            except RecordError:
                raise PuzzleNotFound(stored.key) from None
            if await both_share(self._settings, result.players):
                players = result.players
        return PosedPuzzle(
            stored.key,
            puzzle,
            puzzle_view(record, puzzle.step),
            stored.rating,
            stored.match_id,
            players,
        )
