"""Boards and panels posted before the Components V2 layout keep working: the next time
they change they are edited into the new layout (Discord sets the layout's flag on an edit
only while the content and embeds go), and a Refresh pressed on an old panel answers with
the new one. Nothing is left broken, nothing is refused."""

from __future__ import annotations

import random
from typing import Any

from tests.discord_emulator.limits import MESSAGE_FLAG_COMPONENTS_V2
from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.discord_emulator.server import DiscordEmulator
from tests.discord_emulator.world import MessageRecord
from tests.e2e.players import (
    answered,
    board_message,
    challenge_and_accept,
    labels,
    play_decision,
    settle,
    whose_turn,
)


def buttons_in_old_rows(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every button and select of a V2 layout, as the older layout held them: rows only."""
    found: list[dict[str, Any]] = []
    for component in components:
        if component["type"] == 1:
            found.append(component)
        else:
            found.extend(buttons_in_old_rows(component.get("components") or []))
    return found


def as_posted_before(message: MessageRecord, description: str) -> None:
    """Turn a message into what the bot posted before the change: an embed (its picture
    from the message's file) over rows of the same buttons, no layout flag."""
    image = message.attachments[0].filename if message.attachments else None
    embed: dict[str, Any] = {"title": "Hanamikoji", "description": description, "type": "rich"}
    if image is not None:
        embed["image"] = {"url": f"attachment://{image}"}
    message.embeds = [embed]
    message.content = "an old line above the embed"
    message.components = buttons_in_old_rows(message.components)
    message.flags &= ~MESSAGE_FLAG_COMPONENTS_V2


def is_new_layout(message: MessageSnapshot) -> bool:
    return (
        bool(message.flags & MESSAGE_FLAG_COMPONENTS_V2)
        and not message.content
        and not message.embeds
        and message.components[-1]["type"] == 17
    )


async def test_an_old_board_is_edited_into_the_new_layout_at_the_next_move(
    emulator: DiscordEmulator, bot
):
    match = await challenge_and_accept(emulator, bot)
    ana = match.players[0]
    board = board_message(ana, match.thread_id)
    as_posted_before(emulator.world.message(board.id), "the old text board")
    old = board_message(ana, match.thread_id)
    assert not is_new_layout(old) and old.embeds  # the Hand button still finds it

    await play_decision(emulator, bot, match, random.Random(4))
    await settle(emulator, bot)

    now = board_message(ana, match.thread_id)
    assert now.id == board.id  # edited in place, not posted again
    assert is_new_layout(now)
    assert "the old text board" not in now.text()
    assert now.attachment_names == ["board.png"]  # the picture, shown by the gallery


async def test_a_refresh_on_an_old_panel_answers_with_the_new_layout(
    emulator: DiscordEmulator, bot
):
    match = await challenge_and_accept(emulator, bot)
    mover, _ = await whose_turn(bot, match)
    said = labels("en")
    panel = await answered(await mover.click(board_message(mover, match.thread_id), said["hand"]))
    assert is_new_layout(panel)
    as_posted_before(emulator.world.message(panel.id), "your old hand")

    refreshed = await answered(await mover.click(panel, said["refresh"]))
    await settle(emulator, bot)

    assert refreshed.id == panel.id and refreshed.ephemeral
    assert is_new_layout(refreshed)
    assert "your old hand" not in refreshed.text()
