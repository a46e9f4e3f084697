"""Reviews of finished matches: each decision judged by the AI's search from its mover's
view, analysed once in the AI's worker process and kept, so a second look is instant.

The judgement is worked out from the movers' hidden cards and would reveal them, so it is
given only to a viewer who may see them (:mod:`engine.service.reviews.sight`), as the hidden cards
themselves: every call names its viewer.

The analysis submits one step at a time to the same executor the AI thinks its moves in:
a live AI move waits behind at most one step's judgement, never behind a whole review.
One analysis runs per process at a time (the others wait, at 0%), and callers asking for
the same match meanwhile share its analysis. Each caller's progress is told by a task of
its own, which the analysis never waits for: a Discord edit held back by a rate limit
delays only that caller's message, never the analysis the queued reviews wait behind.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor

from engine.review.judge import judge_step
from engine.review.judgement import MatchReview, StepJudgement
from engine.review.seen_match import SeenMatch
from engine.review.steps import step_count
from engine.rules.errors import RecordError
from engine.rules.record import MatchRecord
from engine.service.context import ServiceContext
from engine.service.errors import ServiceClosed
from engine.service.matches.errors import HiddenFromViewer, MatchNotFinished, MatchNotFound
from engine.service.matches.queries import MatchQueries
from engine.service.reviews.errors import ReviewFailed, ReviewUnavailable
from engine.store.errors import StoreError

log = logging.getLogger(__name__)

ReviewProgress = Callable[[float], Awaitable[None]]
"""Told the share of the analysis done, 0 to 1, as it goes (``Analysing… 40%``)."""


class _Listener:
    """One caller's progress, told by its own task: the analysis only leaves the newest
    share here and goes on. A share not yet told when a newer one comes is never told
    (only the newest matters). A callback that fails is told no more."""

    def __init__(self, callback: ReviewProgress, done: float) -> None:
        self._callback = callback
        self._newest: float | None = done
        self._finishing = False
        self._fresh = asyncio.Event()
        self._fresh.set()
        self._task = asyncio.create_task(self._tell_each())

    def tell(self, done: float) -> None:
        """Leave ``done`` to be told; returns at once."""
        self._newest = done
        self._fresh.set()

    async def finish(self) -> None:
        """Wait until the newest share has been told (or the callback failed)."""
        self._finishing = True
        self._fresh.set()
        await asyncio.shield(self._task)

    def stop(self) -> None:
        """Tell nothing more (the caller gave up, or the analysis failed)."""
        self._task.cancel()

    async def _tell_each(self) -> None:
        while True:
            await self._fresh.wait()
            self._fresh.clear()
            done, self._newest = self._newest, None
            if done is not None:
                try:
                    await self._callback(done)
                except Exception:
                    # Its message was deleted, say: that caller hears no more.
                    log.exception("a review's progress callback failed; it is told no more")
                    return
            if self._finishing and self._newest is None:
                return


class _Analysis:
    """One match's analysis under way and the callers waiting for it."""

    def __init__(self) -> None:
        self.done = 0.0
        self.listeners: list[_Listener] = []
        self.task: asyncio.Task[MatchReview] | None = None

    def tell(self, done: float) -> None:
        """Leave the share done with every caller; never waits for one of them."""
        self.done = done
        for listener in self.listeners:
            listener.tell(done)


class MatchReviews:
    """``service.reviews``: the review of a finished match, analysed on first request."""

    def __init__(
        self,
        context: ServiceContext,
        queries: MatchQueries,
        executor: Executor | None,
    ) -> None:
        self._ctx = context
        self._queries = queries
        self._executor = executor
        """The AI's worker process (None: the default thread pool)."""
        self._analyses: dict[int, _Analysis] = {}
        self.reviewed: Callable[[int, MatchRecord, MatchReview], None] | None = None
        """Told of each review just stored (the puzzles search its mistakes); it must not
        wait: it starts its own work."""
        # One analysis at a time: two at once would each take twice as long, and keep
        # the worker busier between the AI's live moves.
        self._one_at_a_time = asyncio.Semaphore(1)

    @property
    def running(self) -> int:
        """Analyses under way now (one searches at a time; the others wait their turn)."""
        return len(self._analyses)

    async def seen(self, match_id: int, viewer_id: int, guild_id: int | None) -> SeenMatch:
        """The finished match of server ``guild_id`` as ``viewer_id`` may see it
        (:meth:`MatchQueries.seen_match`), with its stored judgement when they may see the
        hidden cards and it has been analysed (else :meth:`review` analyses it)."""
        seen = await self._queries.seen_match(match_id, viewer_id, guild_id)
        if not seen.hidden_shown:
            return seen
        return dataclasses.replace(seen, review=await self._stored(match_id))

    async def review(
        self, match_id: int, viewer_id: int, progress: ReviewProgress | None = None
    ) -> MatchReview:
        """The match's review for ``viewer_id``: the stored one at once, else analysed now
        and stored.

        ``progress`` is called with the share done as the analysis goes (0 while another
        match's analysis goes first), by a task of its own: the analysis never waits for
        it, a share it is still too busy for is replaced by the next, and the last share
        (1.0) is told before this returns. One that fails is told no more.
        Raises :class:`ReviewUnavailable` for an unknown or unfinished match,
        :class:`HiddenFromViewer` for a spectator the players do not both share it with, and
        :class:`ReviewFailed` if the worker or the database fails (nothing is stored).
        """
        if self._ctx.closed:
            raise ServiceClosed()
        record = await self.record(match_id, viewer_id)
        found = await self._stored(match_id)
        if found is not None:
            return found
        analysis = self._analyses.get(match_id)
        if analysis is None:
            analysis = self._start(match_id, record)
        assert analysis.task is not None
        listener = None if progress is None else _Listener(progress, analysis.done)
        if listener is not None:
            analysis.listeners.append(listener)
        try:
            # Shielded: a caller that gives up (an interaction that timed out) does not
            # cancel the analysis the others wait for, which is stored for the next look.
            review = await asyncio.shield(analysis.task)
            if listener is not None:
                await listener.finish()  # this caller's 100% before its review
            return review
        except asyncio.CancelledError:
            if analysis.task.cancelled() and self._ctx.closed:
                raise ServiceClosed() from None  # stopped by close(), not by this caller
            raise
        finally:
            if listener is not None:
                listener.stop()
                if listener in analysis.listeners:
                    analysis.listeners.remove(listener)

    async def stored(self, match_id: int, viewer_id: int) -> MatchReview | None:
        """The review stored for the match, or None (also for one of an older format,
        which :meth:`review` analyses again); raises as :meth:`review` does for a viewer
        who may not see it."""
        await self.record(match_id, viewer_id)
        return await self._stored(match_id)

    async def record(self, match_id: int, viewer_id: int) -> MatchRecord:
        """The finished match's record, every hidden card included, for a viewer who may
        see them. Raises :class:`ReviewUnavailable` for an unknown or unfinished match, and
        :class:`HiddenFromViewer` for a spectator it is not shared with."""
        try:
            return await self._queries.finished_record(match_id, viewer_id)
        except MatchNotFound:
            raise ReviewUnavailable(match_id, "there is no such match") from None
        except MatchNotFinished as error:
            raise ReviewUnavailable(match_id, f"it is {error.status}, not finished") from None
        except HiddenFromViewer:
            raise
        except RecordError as error:
            raise ReviewFailed(match_id, f"its record does not read: {error}") from error
        except StoreError as error:
            raise ReviewFailed(match_id, str(error)) from error

    async def _stored(self, match_id: int) -> MatchReview | None:
        try:
            body = await self._ctx.store.review_of(match_id)
        except StoreError as error:
            raise ReviewFailed(match_id, str(error)) from error
        if body is None:
            return None
        try:
            return MatchReview.from_json(body)
        except RecordError as error:
            log.info("the stored review of match %d is redone: %s", match_id, error)
            return None

    async def close(self) -> None:
        """Stop the analyses under way (nothing of theirs is stored)."""
        tasks = [a.task for a in self._analyses.values() if a.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _start(self, match_id: int, record: MatchRecord) -> _Analysis:
        analysis = _Analysis()
        analysis.task = asyncio.create_task(self._analyse(match_id, record, analysis))

        def forget(task: asyncio.Task[MatchReview]) -> None:
            self._analyses.pop(match_id, None)
            if not task.cancelled():
                task.exception()  # seen here, though every caller may have given up

        analysis.task.add_done_callback(forget)
        self._analyses[match_id] = analysis
        return analysis

    async def _analyse(
        self, match_id: int, record: MatchRecord, analysis: _Analysis
    ) -> MatchReview:
        iterations = self._ctx.config.review_iterations
        async with self._one_at_a_time:
            total = step_count(record)
            judged: list[StepJudgement] = []
            for step in range(1, total + 1):
                judged.append(await self._judge(match_id, record, step, iterations))
                analysis.tell(step / total)
        body = MatchReview(tuple(judged), iterations).to_json()
        try:
            await self._ctx.store.save_review(match_id, body, self._ctx.clock.now())
        except StoreError as error:
            raise ReviewFailed(match_id, str(error)) from error
        # As stored (chances rounded): the first look and every later one are the same.
        review = MatchReview.from_json(body)
        if self.reviewed is not None:
            self.reviewed(match_id, record, review)
        if analysis.done < 1.0:  # a match resigned before its first decision
            analysis.tell(1.0)
        return review

    async def _judge(
        self, match_id: int, record: MatchRecord, step: int, iterations: int
    ) -> StepJudgement:
        """One step judged in the worker (one job: the AI's moves may come in between)."""
        job = functools.partial(judge_step, record, step, iterations=iterations)
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, job)
        except Exception as error:
            # The worker died (BrokenProcessPool) or the judge failed: either way no
            # review, and the next request starts again from the first step.
            log.exception("judging step %d of match %d failed", step, match_id)
            reason = f"judging decision {step} failed ({type(error).__name__}: {error})"
            raise ReviewFailed(match_id, reason) from error
