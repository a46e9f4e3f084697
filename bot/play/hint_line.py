"""The hint line of the private panel in a hint match against the AI: the move the AI would
make in the player's seat, in the panel's own words, and the player's chance of winning.

Only the private panel (ephemeral or DM) ever shows it: the board and the thread are public.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from bot.words.decision_words import chance_percent, decision_words
from bot.words.i18n import text
from engine.model import MatchInfo
from engine.review.hint import Suggestion
from engine.rules import PlayerView
from engine.service import DatabaseUnavailable

log = logging.getLogger(__name__)

HINT_WAIT_SECONDS = 2.0
"""How long a panel opened by a press waits for the hint (the AI worker takes about 1 s):
with the press deferred first, the answer stays well inside Discord's 15 minutes and the
player sees one finished panel rather than one that changes under their finger."""

DM_HINT_WAIT_SECONDS = 8.0
"""How long the DM panel waits: nobody watches a spinner there, and a DM that came without
its hint would need a Refresh to get it."""


class HintSource(Protocol):
    """The service's hints (:class:`engine.service.reviews.hints.MatchHints`)."""

    async def hint(
        self, match_id: int, user_id: int, *, version: int | None = None
    ) -> Suggestion | None: ...


def hint_text(lang: str, suggestion: Suggestion) -> str:
    """``💡 Hint: Gift A B C — your chance of winning about 62%``."""
    return text(
        lang,
        "ai_hints.line",
        move=decision_words(lang, suggestion.decision),
        chance=chance_percent(suggestion.chance),
    )


def hint_due(info: MatchInfo, view: PlayerView) -> bool:
    """A hint match and this seat's decision: only then is a hint asked for."""
    return info.hints and view.to_decide and bool(view.legal)


async def hint_line(
    lang: str, hints: HintSource, info: MatchInfo, view: PlayerView, *, wait: float
) -> str:
    """The panel's hint line for the player whose ``view`` it is, or "" when none is due.

    After ``wait`` seconds the line says the hint is still being thought about; its
    computation goes on, and the service keeps it for the match's version, so Refresh
    shows it at once.
    """
    if not hint_due(info, view):
        return ""
    # The hint for this page's position, not for one the match reached since this view was
    # read: the service answers None once the match has left ``version``.
    asked = hints.hint(info.match_id, info.players[view.player], version=view.table.version)
    job = asyncio.ensure_future(asked)
    try:
        suggestion = await asyncio.wait_for(asyncio.shield(job), wait)
    except TimeoutError:
        job.add_done_callback(_forget_failure)
        return text(lang, "ai_hints.thinking")
    except DatabaseUnavailable:
        return ""  # told once by the store; the panel opens without its hint
    except Exception:
        # A hint is advice on top of the panel: the panel must still open without it.
        log.exception("match %s: no hint for seat %s", info.match_id, view.player)
        return ""
    if suggestion is None:
        return ""  # the match moved on from this page's position: its hint is not for it
    return hint_text(lang, suggestion)


def _forget_failure(job: asyncio.Future[Suggestion | None]) -> None:
    """Retrieve the outcome of a hint nobody waits for any more, logging a failure."""
    if not job.cancelled() and job.exception() is not None:
        log.warning("a hint failed after its panel was shown: %r", job.exception())
