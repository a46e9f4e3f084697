"""The "Analysing… 40%" line while a review is worked out, edited at most about once a
second: each edit of an interaction's message is a request under Discord's rate limits,
and a person reads no faster."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from bot.words.i18n import text

EDIT_INTERVAL = 1.0
"""Seconds between two edits of the progress line, at least."""


def progress_text(lang: str, match_id: int, share: float) -> str:
    return text(lang, "review.analysing", match=match_id, percent=int(100 * min(max(share, 0), 1)))


class ProgressLine:
    """A review's progress callback that shows the line through ``show``, throttled."""

    def __init__(
        self,
        lang: str,
        match_id: int,
        show: Callable[[str], Awaitable[None]],
        *,
        clock: Callable[[], float] = time.monotonic,
        interval: float = EDIT_INTERVAL,
    ) -> None:
        self._lang = lang
        self._match_id = match_id
        self._show = show
        self._clock = clock
        self._interval = interval
        self._last = clock()
        """When the line was last shown: the first answer already said 0%."""
        self.shown: list[int] = []
        """The percentages shown, in order (for the log and the tests)."""

    def first_text(self) -> str:
        return progress_text(self._lang, self._match_id, 0.0)

    async def __call__(self, share: float) -> None:
        now = self._clock()
        if now - self._last < self._interval:
            return
        self._last = now
        self.shown.append(int(100 * min(max(share, 0), 1)))
        await self._show(progress_text(self._lang, self._match_id, share))
