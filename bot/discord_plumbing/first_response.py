"""The first response to an interaction, sent before any slow work (a database read, a
commit, a drawing). Discord shows "This interaction failed" when none comes within three
seconds, and a database that stalls, restarts or is still being reached as the process
starts must never cause that: the answer comes later, filling the first response in.

Which first response fits depends on what the answer will be: a deferred update when the
answer edits the message the component is on (its buttons look busy meanwhile), a
"thinking…" only the user sees when the answer is a new private message.

A press whose answer is usually ready at once is *held back* (:func:`hold_back`): its
answer is itself the first response — one UPDATE_MESSAGE callback that redraws a private
panel, or one ephemeral message (CHANNEL_MESSAGE_WITH_SOURCE) — instead of a deferred
response and then an edit of ``@original`` (one request and one Message built fewer per
press). A timer still sends the deferred response if the answer is not ready within
:data:`PRIVATE_ANSWER_WAIT_SECONDS`, so a stalled database never leaves it unanswered.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import discord

T = TypeVar("T")

log = logging.getLogger(__name__)

PUBLIC_ANSWER_WAIT_SECONDS = 1.5
"""How long the work behind a public answer may take before the answer is deferred: the
rest of Discord's three seconds is left for the answer to travel."""

PRIVATE_ANSWER_WAIT_SECONDS = 1.5
"""How long a held-back press waits for its answer before it is deferred (the same share
of Discord's three seconds as a public answer's)."""

_HELD_BACK = "hk.held_back"
"""The key of a held-back press's :class:`_HeldBack` in ``Interaction.extras``."""


class FirstResponse(enum.Enum):
    UPDATE = "update"
    """A deferred update: the answer edits the message the component is on."""
    THINK = "think"
    """A private "thinking…": the answer is a new ephemeral message that fills it in."""


def on_private_message(interaction: discord.Interaction[Any]) -> bool:
    """True when the press came from a message only its user sees: an ephemeral one, or one
    the bot sent to the member's own DMs (the panel by DM). A board in those DMs (an
    interaction's message) and every message of a DM between people or of a group DM are
    seen by everyone there: a press on them is answered privately, never by editing them."""
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        return True
    in_own_dms = interaction.guild_id is None and interaction.context.dm_channel
    return in_own_dms and (message is None or message.interaction_metadata is None)


def fitting_response(interaction: discord.Interaction[Any]) -> FirstResponse:
    """A private panel is edited in place; a public message gets a private answer."""
    return FirstResponse.UPDATE if on_private_message(interaction) else FirstResponse.THINK


@dataclass(slots=True)
class _HeldBack:
    """A press whose first response waits for its answer. The lock makes the answer and
    the timer's deferral take turns: whichever goes second sees the first one's response
    and does not send a second (Discord refuses it: "already acknowledged")."""

    kind: FirstResponse
    """The deferred response the timer sends."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: asyncio.TimerHandle | None = None
    deferral: asyncio.Task[None] | None = None


def _held_back(interaction: discord.Interaction[Any]) -> _HeldBack | None:
    held = interaction.extras.get(_HELD_BACK)
    return held if isinstance(held, _HeldBack) else None


def hold_back(interaction: discord.Interaction[Any], kind: FirstResponse) -> None:
    """Let the answer to a press be its first response: the deferred response ``kind``
    goes only if no answer was sent within :data:`PRIVATE_ANSWER_WAIT_SECONDS` (or none
    comes, see :func:`settle`). Meanwhile :func:`acknowledge` sends nothing.

    Only for a press answered through this module's answers (:func:`update_in_place`,
    :func:`send_private`, or within :func:`answering`), which take turns with the timer."""
    held = _HeldBack(kind)
    interaction.extras[_HELD_BACK] = held

    def defer_late() -> None:
        held.deferral = asyncio.ensure_future(_defer_held(interaction, held))

    # Counted from when Discord created the press, not from when this process got to it:
    # a loop that is behind has already spent part of the three seconds.
    age = max(0.0, discord.utils.utcnow().timestamp() - interaction.created_at.timestamp())
    wait = min(PRIVATE_ANSWER_WAIT_SECONDS, max(0.0, PRIVATE_ANSWER_WAIT_SECONDS - age))
    held.timer = asyncio.get_running_loop().call_later(wait, defer_late)


async def _defer_held(interaction: discord.Interaction[Any], held: _HeldBack) -> None:
    async with held.lock:
        if interaction.response.is_done():
            return
        try:
            await _defer(interaction, held.kind)
        except discord.HTTPException as error:  # too late already: nobody to answer
            log.warning("could not acknowledge a press in time: %s", error)
        except Exception:  # in the timer's own task: nobody else would log it
            log.exception("acknowledging a held-back press failed")


async def _defer(interaction: discord.Interaction[Any], kind: FirstResponse) -> None:
    if kind is FirstResponse.UPDATE:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)


@contextlib.asynccontextmanager
async def answering(interaction: discord.Interaction[Any]) -> AsyncIterator[None]:
    """Around an answer: a held-back press's deferral does not go meanwhile, nor after
    one, so the answer sees the interaction's response as it stays (``is_done()``)."""
    held = _held_back(interaction)
    if held is None:
        yield
        return
    async with held.lock:
        try:
            yield
        finally:
            if interaction.response.is_done() and held.timer is not None:
                held.timer.cancel()


async def settle(interaction: discord.Interaction[Any]) -> None:
    """After a held-back press was handled: if nothing answered it, acknowledge it now
    rather than when its timer runs out."""
    held = _held_back(interaction)
    if held is None or interaction.response.is_done():
        return
    if held.timer is not None:
        held.timer.cancel()
    await _defer_held(interaction, held)


async def acknowledge_before_slow_work(interaction: discord.Interaction[Any]) -> None:
    """The answer will take a while (a hint being worked out): send the first response
    now — a held-back press's deferral at once instead of at its timer, any other press's
    fitting one — so the press never looks idle for most of Discord's three seconds."""
    held = _held_back(interaction)
    if held is None:
        await acknowledge(interaction, fitting_response(interaction))
    else:
        await settle(interaction)


async def update_in_place(interaction: discord.Interaction[Any], **message: Any) -> None:
    """Answer a press with the message it is on changed: as the first response itself
    (UPDATE_MESSAGE) when none was sent yet, else by filling the deferred update in
    (an edit of ``@original``, which is that message)."""
    async with answering(interaction):
        if interaction.response.is_done():
            await interaction.edit_original_response(**message)
        else:
            # Only ever for a private panel: on a public message this would change it for
            # everyone (a press on the board is deferred, never held back, for that reason).
            await interaction.response.edit_message(**message)


async def acknowledge(interaction: discord.Interaction[Any], kind: FirstResponse) -> None:
    """Send the first response now, unless the interaction has one already (or is held
    back: its answer, or its timer, will be the first response)."""
    if interaction.response.is_done() or _held_back(interaction) is not None:
        return
    await _defer(interaction, kind)


async def think_privately(interaction: discord.Interaction[Any]) -> None:
    """A slash command's first response: "thinking…" only its user sees."""
    await acknowledge(interaction, FirstResponse.THINK)


async def send_private(
    interaction: discord.Interaction[Any], content: str | None = None, **message: Any
) -> None:
    """A private answer (``content``, ``embed``, ``view``, ``file``...): the first response,
    or after one a followup, which fills a "thinking…" in."""
    text = () if content is None else (content,)
    async with answering(interaction):
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
