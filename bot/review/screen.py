"""A review on screen: an ephemeral message that shows one page at a time.

Opened by `/hanamikoji review` or a Review button (a new message), turned by its step
buttons (the same message, edited). While the analysis runs the message is a progress
line; a stored review shows its page at once. Everything that can go wrong ends as a
short line in the viewer's language, never as a traceback.
"""

from __future__ import annotations

import enum
import logging
from dataclasses import replace
from typing import Any

import discord

from bot.discord_plumbing.pages import message_kwargs, reply_privately
from bot.review.deps import ReviewDeps
from bot.review.progress_line import ProgressLine
from bot.review.review_page import BoardLook, ReviewScene, review_page
from bot.review.sight import sight_of
from bot.review.thread_deadlines import thread_deadlines
from bot.words.i18n import language_of, text
from engine.review.judgement import MatchReview
from engine.rules.errors import RecordError
from engine.rules.record import MatchRecord
from engine.service.errors import (
    MatchNotFinished,
    MatchNotFound,
    ReviewUnavailable,
    ServiceError,
)
from engine.store.errors import StoreError
from engine.store.rows import AI_USER_ID, MatchInfo

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
    try:
        scene = await _scene(deps, interaction, lang, match_id)
        if scene.sight.full:
            stored = await deps.reviews.stored(match_id)
            if stored is None:
                stored = await _analyse(deps, interaction, lang, match_id, answer)
            scene = replace(scene, review=stored)
        page = await review_page(lang, scene, min(max(step, 0), scene.steps), notice=notice)
    except ReviewRefused as refusal:
        await _say(interaction, refusal.message, answer)
        return
    except (ServiceError, StoreError) as error:  # the store failed (a full disk too)
        log.warning("match %s: no review to show: %s", match_id, error)
        await _say(interaction, text(lang, "review.failed", match=match_id), answer)
        return
    kwargs = message_kwargs(page, editing=interaction.response.is_done() or answer is Answer.EDIT)
    if interaction.response.is_done():  # after the progress line
        await interaction.edit_original_response(**kwargs)
    elif answer is Answer.EDIT:
        await interaction.response.edit_message(**kwargs)
    else:
        await interaction.response.send_message(ephemeral=True, **kwargs)


async def _scene(
    deps: ReviewDeps, interaction: discord.Interaction[Any], lang: str, match_id: int
) -> ReviewScene:
    """The match as this viewer may see it, without the judgement yet."""
    guild_id = interaction.guild_id
    if guild_id is None:
        raise ReviewRefused(text(lang, "review.not_in_server"))
    try:
        # The record export's own check: a finished match of this server, else refused.
        record = MatchRecord.from_json(await deps.queries.match_record(match_id, guild_id))
        info = await deps.queries.match_info(match_id)
    except MatchNotFinished:
        raise ReviewRefused(text(lang, "review.not_finished", match=match_id)) from None
    except (MatchNotFound, RecordError):
        raise ReviewRefused(text(lang, "review.not_found", match=match_id)) from None
    sight = await sight_of(deps.settings, info, interaction.user.id)
    return ReviewScene(
        match_id=match_id,
        record=record,
        sight=sight,
        viewer_seat=info.seat_of(interaction.user.id),
        names=await deps.names.pair(info.players, info.ai_level, lang, guild_id=info.guild_id),
        board=await _board_look(deps, info),
    )


async def _board_look(deps: ReviewDeps, info: MatchInfo) -> BoardLook:
    """How the thread's board drew this match (see :class:`bot.play.match_place.MatchPlace`)."""
    lang = await deps.languages.public(info.guild_id)
    players, level, guild_id = info.players, info.ai_level, info.guild_id
    return BoardLook(
        lang=lang,
        names=await deps.names.pair(players, level, lang, guild_id=guild_id),
        picture_names=await deps.names.raw_pair(players, level, lang, guild_id=guild_id),
        ai_seat=players.index(AI_USER_ID) if AI_USER_ID in players else None,
        deadlines=thread_deadlines(info, await deps.decisions(info.match_id)),
    )


async def _analyse(
    deps: ReviewDeps,
    interaction: discord.Interaction[Any],
    lang: str,
    match_id: int,
    answer: Answer,
) -> MatchReview:
    """Run the analysis with its progress line on the message; a failure is refused."""

    async def show(line: str) -> None:
        try:
            await interaction.edit_original_response(content=line)
        except discord.HTTPException as error:  # a lost progress line must not stop the work
            log.warning("match %s: could not show the review's progress: %s", match_id, error)

    progress = ProgressLine(lang, match_id, show)
    first = progress.first_text()
    if answer is Answer.EDIT:
        await interaction.response.edit_message(
            content=first, embed=None, view=None, attachments=[]
        )
    else:
        await interaction.response.send_message(first, ephemeral=True)
    try:
        return await deps.reviews.review(match_id, progress)
    except ReviewUnavailable:
        raise ReviewRefused(text(lang, "review.not_finished", match=match_id)) from None
    except (ServiceError, StoreError) as error:  # ReviewFailed: the worker or the store
        log.warning("match %s: the review failed: %s", match_id, error)
        raise ReviewRefused(text(lang, "review.failed", match=match_id)) from None
    except Exception:
        # Anything else is a bug, but the viewer still gets a line, not a dead message.
        log.exception("match %s: the review failed", match_id)
        raise ReviewRefused(text(lang, "review.failed", match=match_id)) from None


async def _say(interaction: discord.Interaction[Any], message: str, answer: Answer) -> None:
    """A refusal: in place of the progress line once there is one, else a private reply
    (a step press keeps its review page and gets the line apart)."""
    if not interaction.response.is_done():
        await reply_privately(interaction, message)
        return
    try:
        await interaction.edit_original_response(
            content=message, embed=None, view=None, attachments=[]
        )
    except discord.HTTPException as error:
        log.warning("could not show a review refusal (%s answer): %s", answer.value, error)
