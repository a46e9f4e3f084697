"""The puzzle streak (lichess's Puzzle Streak): an unrated run up a ladder of ever harder
puzzles that ends at the first miss.

The ladder is the puzzles the member never attempted (the server's own and the built-in
ones), by rating, the easier first among equals (:attr:`engine.puzzles.Puzzle.ease`), then
by key; each rung is posed once, and an answer in a streak counts as the member's attempt
at that puzzle (so the rated stream never poses it again). Neither rating moves. The run
under way — the puzzle it poses and the puzzles solved in it — is kept in the member's
standing, so it survives a restart and a second process sees it; the best run too.

Every step is one commit checked against the run it started from: two presses of Next at
once pose one puzzle (the second shows it too), and an answer to a puzzle the run does not
pose now (an old button) counts for nothing.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

from engine.model.puzzles import PuzzleStanding, StreakRun
from engine.ratings.glicko2 import Glicko2Rating
from engine.service.context import ServiceContext
from engine.service.puzzles.errors import (
    AlreadyAttempted,
    LadderClimbed,
    NotInStreak,
    PuzzleNotFound,
)
from engine.service.puzzles.service import MatchPuzzles, PosedPuzzle, PuzzleAnswer

LADDER_LOOKAHEAD = 5
"""Rungs read at once: one whose match is gone is passed over for the next."""


@dataclass(frozen=True, slots=True)
class StreakStep:
    """A puzzle a streak poses, with the run so far."""

    posed: PosedPuzzle
    solved: int
    """Solved in this run before it."""
    best: int
    """The member's best run."""


def _moved(
    expected: StreakRun | None, to: StreakRun | None, before: PuzzleStanding
) -> PuzzleStanding:
    """The run moved from ``expected`` to ``to``; if another press moved it first, as it is."""
    return replace(before, run=to) if before.run == expected else before


class PuzzleStreaks:
    """``service.puzzle_streaks``: a member's streak in a server — go on, start again, answer."""

    def __init__(self, context: ServiceContext, puzzles: MatchPuzzles) -> None:
        self._ctx = context
        self._puzzles = puzzles

    async def go_on(self, guild_id: int, user_id: int) -> StreakStep:
        """The member's streak: the puzzle it poses now, the next rung once that one is
        solved, or a new run from the bottom. Raises :class:`LadderClimbed` when no rung
        is left (the run ends there, unbroken)."""
        for _ in range(2):  # a second time only when another press moved the run meanwhile
            standing = await self._puzzles.standing(guild_id, user_id)
            run = standing.run
            if run is not None and not run.answered:
                try:
                    posed = await self._puzzles.pose(await self._puzzles.stored(guild_id, run.key))
                    return StreakStep(posed, run.solved, standing.run_best)
                except PuzzleNotFound:
                    pass  # its match is gone since: the next rung
            step = await self._climb(guild_id, user_id, run, run)
            if step is not None:
                return step
        raise RuntimeError(f"the streak of user {user_id} kept moving")  # pragma: no cover

    async def start(self, guild_id: int, user_id: int) -> StreakStep:
        """A new run from the bottom of the ladder; a run under way ends."""
        for _ in range(2):
            standing = await self._puzzles.standing(guild_id, user_id)
            step = await self._climb(guild_id, user_id, standing.run, None)
            if step is not None:
                return step
        raise RuntimeError(f"the streak of user {user_id} kept moving")  # pragma: no cover

    async def _climb(
        self, guild_id: int, user_id: int, expected: StreakRun | None, rung: StreakRun | None
    ) -> StreakStep | None:
        """Pose the first rung after ``rung`` (None: the bottom) in place of the run
        ``expected``; None if another press moved the run first."""
        solved = 0 if rung is None else rung.solved
        store = self._ctx.store
        for stored in await store.puzzle_ladder(guild_id, user_id, rung, LADDER_LOOKAHEAD):
            try:
                posed = await self._puzzles.pose(stored)
            except PuzzleNotFound:
                continue  # its match is gone: the next rung
            to = StreakRun(stored.key, stored.rating.rating, stored.ease, solved)
            after = await store.change_standing(
                guild_id, user_id, functools.partial(_moved, expected, to)
            )
            return StreakStep(posed, solved, after.run_best) if after.run == to else None
        after = await store.change_standing(
            guild_id, user_id, functools.partial(_moved, expected, None)
        )
        if after.run is not None:
            return None
        raise LadderClimbed(user_id, solved, after.run_best)

    async def answer(self, guild_id: int, user_id: int, key: str, choice: str) -> PuzzleAnswer:
        """Judge ``choice`` for the puzzle the member's streak poses: solved, the run goes
        on (one more, the best kept); missed, it ends. Unrated. Raises
        :class:`NotInStreak` (not the run's puzzle now), :class:`PuzzleNotFound`,
        :class:`NotAChoice` or :class:`AlreadyAttempted`; nothing is counted then."""

        def counted(
            before: PuzzleStanding, rating: Glicko2Rating, solved: bool
        ) -> tuple[PuzzleStanding, Glicko2Rating]:
            run = before.run
            if run is None or run.key != key:
                raise NotInStreak(key, user_id)
            if run.answered:  # a second press (the attempt's key refuses it too)
                raise AlreadyAttempted(key, user_id)
            if not solved:
                return replace(before, run=None), rating
            on = replace(run, solved=run.solved + 1, answered=True)
            return replace(before, run=on, run_best=max(before.run_best, on.solved)), rating

        return await self._puzzles.judge(guild_id, user_id, key, choice, counted, rated=False)
