"""A review's message: an ephemeral message that shows one page at a time.

Opened by `/hanamikoji review` or a Review button (a new message), turned by its step
buttons (the same message, edited). Every answer is deferred first, within Discord's three
seconds, since reading the store and drawing the board can take longer; the page then fills
the deferred answer in. While the analysis runs the message is a progress line; a stored
review shows its page at once. Everything that can go wrong ends as a short line in the
viewer's language, never as a traceback.
"""

from __future__ import annotations

import enum
import logging
from dataclasses import replace
from typing import Any

import discord

from bot.discord_plumbing.install_context import outside_bot_servers
from bot.discord_plumbing.pages import message_kwargs, reply_privately, text_page
from bot.review.deps import ReviewDeps
from bot.review.progress_line import ProgressLine
from bot.review.review_page import BoardLook, ReviewScene, review_page
from bot.words.i18n import language_of, text
from bot.words.refusals import database_text
from engine.model import MatchInfo, MatchStatus
from engine.review.judgement import MatchReview
from engine.rules.errors import RecordError
from engine.service import DatabaseUnavailable, StoreError
from engine.service.errors import ServiceError
from engine.service.matches.errors import MatchNotFinished, MatchNotFound
from engine.service.reviews.errors import ReviewUnavailable

log = logging.getLogger(__name__)


class Answer(enum.Enum):
    """How the review answers its interaction."""

    NEW = "new"
    """A new ephemeral message (the command, a Review button under a public message)."""
    EDIT = "edit"
    """The review's own message, edited (its step buttons)."""


class ReviewRefused(Exception):
    """Why a review cannot be shown, already in the viewer's words."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


def _after(notice: str, line: str) -> str:
    """A refusal under the notice of what the command did first (a setting it saved)."""
    return f"{notice}\n{line}" if notice else line


async def show_review(
    deps: ReviewDeps,
    interaction: discord.Interaction[Any],
    match_id: int,
    step: int,
    answer: Answer,
    *,
    notice: str = "",
) -> None:
    """Show page ``step`` of match ``match_id``'s review to whoever interacted."""
    lang = language_of(interaction.locale)
    message = ReviewMessage(interaction, match_id, answer)
    await message.defer()
    try:
        scene = await _scene(deps, interaction, lang, match_id)
        if scene.seen.hidden_shown and scene.seen.review is None:
            review = await _analyse(deps, message, lang, match_id, interaction.user.id)
            scene = replace(scene, seen=replace(scene.seen, review=review))
        page = await review_page(lang, scene, min(max(step, 0), scene.steps), notice=notice)
    except ReviewRefused as refusal:
        await message.refuse(_after(notice, refusal.message))
        return
    except DatabaseUnavailable as error:  # said once by the store for the whole outage
        # After a notice, something was saved: "nothing was changed" would be untrue.
        line = text(lang, "database.not_shown") if notice else database_text(lang, error)
        await message.refuse(_after(notice, line))
        return
    except (ServiceError, StoreError) as error:  # the store failed (a full disk too)
        log.warning("match %s: no review to show: %s", match_id, error)
        await message.refuse(_after(notice, text(lang, "review.failed", match=match_id)))
        return
    except Exception:
        # A bug: the interaction is deferred, so without a line its viewer would watch
        # "thinking…" until the token expires.
        log.exception("match %s: the review could not be shown", match_id)
        await message.refuse(_after(notice, text(lang, "review.failed", match=match_id)))
        return
    await message.edit("page", **message_kwargs(page, editing=True))


class ReviewMessage:
    """The message a review answers in, once its interaction is deferred.

    Its edits are guarded: a queued analysis can outlast the interaction's 15-minute token,
    and a lost message must not lose the review, which the service stores all the same
    (the next press shows it at once). The first failed edit is logged; the later ones,
    which would fail alike, are not tried.
    """

    def __init__(
        self, interaction: discord.Interaction[Any], match_id: int, answer: Answer
    ) -> None:
        self._interaction = interaction
        self._match_id = match_id
        self._answer = answer
        self.replaced = answer is Answer.NEW
        """Whether the message holds no review page to keep: a new one, or a page the
        progress line replaced."""
        self.lost = False
        """Whether an edit failed: the message can no longer be reached."""

    async def defer(self) -> None:
        """Acknowledge at once: a step press keeps its page (its buttons look busy); a new
        review shows "thinking…" to its viewer only."""
        response = self._interaction.response
        if response.is_done():
            return
        if self._answer is Answer.EDIT:
            await response.defer()
        else:
            await response.defer(ephemeral=True, thinking=True)

    async def show_line(self, line: str) -> None:
        """A line in place of the page (the progress line)."""
        self.replaced = True
        await self.edit("progress", **message_kwargs(text_page(line), editing=True))

    async def refuse(self, line: str) -> None:
        """Why the review is not shown: in place of the progress line once there is one,
        else in its own private line (a step press keeps its review page)."""
        if self.replaced:
            await self.edit("refusal", **message_kwargs(text_page(line), editing=True))
        else:
            await reply_privately(self._interaction, line)

    async def edit(self, what: str, **kwargs: Any) -> None:
        if self.lost:
            return
        try:
            await self._interaction.edit_original_response(**kwargs)
        except discord.HTTPException as error:  # NotFound too: the token expired
            self.lost = True
            log.warning("match %s: could not show the review's %s: %s", self._match_id, what, error)


async def _scene(
    deps: ReviewDeps, interaction: discord.Interaction[Any], lang: str, match_id: int
) -> ReviewScene:
    """The match as the engine lets this viewer see it (with its judgement once stored)."""
    # Outside the bot's servers, the matches played there (no server); else this server's.
    guild_id = None if outside_bot_servers(interaction) else interaction.guild_id
    try:
        # A finished match of this server, else refused, as the record export is.
        seen = await deps.reviews.seen(match_id, interaction.user.id, guild_id)
        info = await deps.queries.match_info(match_id)
    except MatchNotFinished as error:
        key = (
            "server_changes.no_record"
            if error.status == MatchStatus.ABANDONED
            else "review.not_finished"
        )
        raise ReviewRefused(text(lang, key, match=match_id)) from None
    except (MatchNotFound, RecordError):
        raise ReviewRefused(text(lang, "review.not_found", match=match_id)) from None
    return ReviewScene(
        match_id=match_id,
        seen=seen,
        names=await deps.names.pair(info.players, info.ai_level, lang, guild_id=info.guild_id),
        board=await _board_look(deps, info),
    )


async def _board_look(deps: ReviewDeps, info: MatchInfo) -> BoardLook:
    """How the thread's board drew this match (see :class:`bot.play.match_place.MatchPlace`)."""
    lang = await deps.languages.public(info.guild_id)
    players, level, guild_id = info.players, info.ai_level, info.guild_id
    return BoardLook(
        lang=lang,
        picture_names=await deps.names.raw_pair(players, level, lang, guild_id=guild_id),
    )


async def _analyse(
    deps: ReviewDeps, message: ReviewMessage, lang: str, match_id: int, viewer_id: int
) -> MatchReview:
    """Run the analysis with its progress line on the message; a failure is refused."""
    progress = ProgressLine(lang, match_id, message.show_line)
    await message.show_line(progress.first_text())
    try:
        return await deps.reviews.review(match_id, viewer_id, progress)
    except ReviewUnavailable:
        raise ReviewRefused(text(lang, "review.not_finished", match=match_id)) from None
    except DatabaseUnavailable as error:  # told once by the store
        raise ReviewRefused(database_text(lang, error)) from None
    except (ServiceError, StoreError) as error:  # ReviewFailed: the worker or the store
        log.warning("match %s: the review failed: %s", match_id, error)
        raise ReviewRefused(text(lang, "review.failed", match=match_id)) from None
    except Exception:
        # Anything else is a bug, but the viewer still gets a line, not a dead message.
        log.exception("match %s: the review failed", match_id)
        raise ReviewRefused(text(lang, "review.failed", match=match_id)) from None
