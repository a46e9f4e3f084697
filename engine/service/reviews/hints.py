"""Hints in a match against the AI: the decision the AI's search prefers in the player's
own seat, worked out from that player's view alone, in the AI's worker process.

Only a match started with hints (``start_ai_match(..., hints=True)``) has them, and only
against the AI: a match between two members is created without the flag and cannot gain
it (:class:`~engine.model.MatchInfo` refuses one). A hint only reads the match.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import OrderedDict
from concurrent.futures import Executor

from engine.model import AI_USER_ID, MatchStatus
from engine.review.hint import Suggestion, suggest
from engine.rules.views import PlayerView
from engine.service.context import ServiceContext
from engine.service.errors import ServiceClosed, ServiceError
from engine.service.matches.queries import MatchQueries
from engine.service.reviews.errors import HintFailed

log = logging.getLogger(__name__)

CACHED_MATCHES = 1024
"""Matches whose latest hint is kept; one entry each, the least recently asked go first."""


class MatchHints:
    """``service.hints``: the hint for a player's decision, worked out once per position."""

    def __init__(
        self, context: ServiceContext, queries: MatchQueries, executor: Executor | None
    ) -> None:
        self._ctx = context
        self._queries = queries
        self._executor = executor
        """The AI's worker process (None: the default thread pool)."""
        # match id -> (version, its hint): opening the panel again does not search again,
        # and callers asking at once share one search.
        self._cache: OrderedDict[int, tuple[int, asyncio.Task[Suggestion]]] = OrderedDict()

    async def hint(
        self, match_id: int, user_id: int, *, version: int | None = None
    ) -> Suggestion | None:
        """What the AI would play in ``user_id``'s seat now, with their chance of winning
        the match if they play it.

        None unless the match is a hint match against the AI, being played, and waiting
        for ``user_id``'s decision (also for an unknown match or an outsider), and, with
        ``version``, still at that version: a panel shows a hint only for the position it
        shows, never one for a position that came after it. Raises
        :class:`HintFailed` if the worker fails (asking again tries afresh).
        """
        if self._ctx.closed:
            raise ServiceClosed()
        seen = await self._own_decision(match_id, user_id)
        if seen is None:
            self._cache.pop(match_id, None)
            return None
        now = seen.table.version
        if version is not None and version != now:
            return None  # the panel is out of date; its next refresh asks again
        cached = self._cache.get(match_id)
        if cached is not None and cached[0] == now:
            task = cached[1]
            self._cache.move_to_end(match_id)
        else:
            task = asyncio.create_task(self._suggest(match_id, seen))
            task.add_done_callback(functools.partial(self._forget_failed, match_id))
            self._cache[match_id] = (now, task)
            while len(self._cache) > CACHED_MATCHES:
                self._cache.popitem(last=False)
        try:
            # Shielded: a caller that gives up does not cancel the search the others share.
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            if task.cancelled() and self._ctx.closed:
                raise ServiceClosed() from None  # stopped by close(), not by this caller
            raise

    async def close(self) -> None:
        """Stop the searches under way."""
        tasks = [task for _, task in self._cache.values()]
        self._cache.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _own_decision(self, match_id: int, user_id: int) -> PlayerView | None:
        """The player's view if it is a hint match waiting for their decision, else None."""
        if user_id == AI_USER_ID:
            return None
        try:
            info = await self._queries.match_info(match_id)
            if not info.hints or info.status is not MatchStatus.ACTIVE:
                return None
            assert info.is_ai_match, "MatchInfo allows hints only against the AI"
            if info.seat_of(user_id) is None:
                return None
            seen = await self._queries.view_for(match_id, user_id)
        except ServiceError:
            return None  # gone or ended since: nothing to hint
        return seen if seen.to_decide and seen.legal else None

    async def _suggest(self, match_id: int, seen: PlayerView) -> Suggestion:
        job = functools.partial(suggest, seen, iterations=self._ctx.config.hint_iterations)
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, job)
        except Exception as error:
            # The worker died (BrokenProcessPool) or the search failed.
            log.exception("the hint for match %d failed", match_id)
            raise HintFailed(match_id, f"{type(error).__name__}: {error}") from error

    def _forget_failed(self, match_id: int, task: asyncio.Task[Suggestion]) -> None:
        """A failed or cancelled search is not kept: the next ask searches again."""
        if task.cancelled() or task.exception() is not None:
            cached = self._cache.get(match_id)
            if cached is not None and cached[1] is task:
                del self._cache[match_id]
