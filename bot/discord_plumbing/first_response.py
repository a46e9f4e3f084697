"""The first response to an interaction, sent before any slow work (a database read, a
commit, a drawing). Discord shows "This interaction failed" when none comes within three
seconds, and a database that stalls, restarts or is still being reached as the process
starts must never cause that: the answer comes later, filling the first response in.

Which first response fits depends on what the answer will be: a deferred update when the
answer edits the message the component is on (its buttons look busy meanwhile), a
"thinking…" only the user sees when the answer is a new private message.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

T = TypeVar("T")

PUBLIC_ANSWER_WAIT_SECONDS = 1.5
"""How long the work behind a public answer may take before the answer is deferred: the
rest of Discord's three seconds is left for the answer to travel."""


class FirstResponse(enum.Enum):
    UPDATE = "update"
    """A deferred update: the answer edits the message the component is on."""
    THINK = "think"
    """A private "thinking…": the answer is a new ephemeral message that fills it in."""


def on_private_message(interaction: discord.Interaction[Any]) -> bool:
    """True when the press came from a message only its user sees (ephemeral or a DM)."""
    message = interaction.message
    return interaction.guild_id is None or (message is not None and message.flags.ephemeral)


def fitting_response(interaction: discord.Interaction[Any]) -> FirstResponse:
    """A private panel is edited in place; a public message gets a private answer."""
    return FirstResponse.UPDATE if on_private_message(interaction) else FirstResponse.THINK


async def acknowledge(interaction: discord.Interaction[Any], kind: FirstResponse) -> None:
    """Send the first response now, unless the interaction has one already."""
    response = interaction.response
    if response.is_done():
        return
    if kind is FirstResponse.UPDATE:
        await response.defer()
    else:
        await response.defer(ephemeral=True, thinking=True)


async def think_privately(interaction: discord.Interaction[Any]) -> None:
    """A slash command's first response: "thinking…" only its user sees."""
    await acknowledge(interaction, FirstResponse.THINK)


async def send_private(
    interaction: discord.Interaction[Any], content: str | None = None, **message: Any
) -> None:
    """A private answer (``content``, ``embed``, ``view``, ``file``...): the first response,
    or after one a followup, which fills a "thinking…" in."""
    text = () if content is None else (content,)
    if interaction.response.is_done():
        await interaction.followup.send(*text, ephemeral=True, **message)
    else:
        await interaction.response.send_message(*text, ephemeral=True, **message)


async def public_answer_work(interaction: discord.Interaction[Any], work: Awaitable[T]) -> T:
    """The result of ``work`` behind a slash command whose answer everyone sees (a
    challenge, a match starting), but whose refusal only its user must.

    Which of the two it is depends on the work, so it cannot be deferred first: the work
    gets :data:`PUBLIC_ANSWER_WAIT_SECONDS`, and only if it is still going then is the
    command acknowledged with a public "thinking…" (see :func:`answer_publicly`). If the
    work is then refused, that placeholder is deleted, so the refusal (a followup, by the
    command's error handler) stays private.
    """
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=PUBLIC_ANSWER_WAIT_SECONDS)
    deferred = False
    if not done:
        with contextlib.suppress(discord.HTTPException):  # too late: the work still counts
            await interaction.response.defer(thinking=True)
            deferred = True
    try:
        return await task
    except Exception:
        if deferred:
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
        raise


async def answer_publicly(
    interaction: discord.Interaction[Any], **message: Any
) -> discord.InteractionMessage:
    """A slash command's public answer: its first response, or the public "thinking…" of
    :func:`public_answer_work` filled in; the message as sent."""
    if interaction.response.is_done():
        return await interaction.edit_original_response(**message)
    await interaction.response.send_message(**message)
    return await interaction.original_response()
