"""How a press on the private panel is answered: when the answer is ready in time, it is
the first response itself — one UPDATE_MESSAGE callback that redraws the panel (one new
ephemeral message for the board's Hand), no deferred response and no later edit of
``@original``; when the work behind it stalls, the press is
still acknowledged in time (a deferred update) and the panel filled in afterwards."""

from __future__ import annotations

import asyncio
import random

import pytest

from tests.discord_emulator.interactions import CallbackType
from tests.discord_emulator.transcript import Action
from tests.e2e.players import (
    answered,
    board_message,
    challenge_and_accept,
    labels,
    settle,
    whose_turn,
)


def panel_writes(emulator, mark: int, panel_id: int) -> list[tuple[Action, int | None]]:
    """What reached the panel message since ``mark``: each write's kind and callback type."""
    return [
        (e.action, e.response_type)
        for e in emulator.transcript.entries[mark:]
        if e.message_id == panel_id
    ]


@pytest.mark.usefixtures("patient_answers")  # ready in time, however busy the machine
async def test_a_ready_answer_is_one_update_callback_and_no_webhook_edit(emulator, bot):
    match = await challenge_and_accept(emulator, bot)
    mover, _ = await whose_turn(bot, match)
    said = labels("en")
    rng = random.Random(4)
    opening = await mover.click(board_message(mover, match.thread_id), said["hand"])
    # The board's Hand: the new private panel is the first response (no "thinking…").
    assert await opening.first_response() is CallbackType.CHANNEL_MESSAGE_WITH_SOURCE
    panel = await answered(opening)
    assert panel.ephemeral
    assert panel.attachment_names, "with the hand's picture"

    mark = len(emulator.transcript)
    action = rng.choice([b.label for b in panel.buttons() if b.label != said["refresh"]])
    press = await mover.click(panel, action)
    assert await press.first_response() is CallbackType.UPDATE_MESSAGE
    panel = await answered(press)
    select = panel.select()
    picked = rng.sample([o.value for o in select.options], select.min_values)
    press = await mover.select(panel, picked)
    assert await press.first_response() is CallbackType.UPDATE_MESSAGE
    panel = await answered(press)
    confirm = next(b.label for b in panel.buttons() if b.label != said["back"])
    press = await mover.click(panel, confirm)
    assert await press.first_response() is CallbackType.UPDATE_MESSAGE
    await settle(emulator, bot)

    update = (Action.INTERACTION_RESPONSE, int(CallbackType.UPDATE_MESSAGE))
    assert panel_writes(emulator, mark, panel.id) == [update, update, update]
    played = (await bot.service.queries.public_view(match.match_id)).version
    assert played == 1, "the Confirm answered at once was played"
    assert "✅" in (press.message.text() if press.message else "")


async def test_a_stalled_answer_is_deferred_in_time_and_filled_in_later(emulator, bot, monkeypatch):
    monkeypatch.setattr("bot.discord_plumbing.first_response.PRIVATE_ANSWER_WAIT_SECONDS", 0.05)
    match = await challenge_and_accept(emulator, bot)
    mover, _ = await whose_turn(bot, match)
    said = labels("en")
    panel = await answered(await mover.click(board_message(mover, match.thread_id), said["hand"]))

    queries = bot.service.queries
    read_view = queries.view_for
    release = asyncio.Event()

    async def stalled_view_for(match_id, user_id):  # type: ignore[no-untyped-def]
        await release.wait()  # a database that does not answer until the test says so
        return await read_view(match_id, user_id)

    monkeypatch.setattr(queries, "view_for", stalled_view_for)
    mark = len(emulator.transcript)
    action = next(b.label for b in panel.buttons() if b.label != said["refresh"])
    press = await mover.click(panel, action)
    assert await press.first_response() is CallbackType.DEFERRED_UPDATE_MESSAGE
    release.set()
    answer = await answered(press)
    assert answer.select() is not None, "the card select came once the read answered"
    await settle(emulator, bot)
    assert not press.failed
    assert panel_writes(emulator, mark, panel.id) == [(Action.ORIGINAL_EDIT, None)]
