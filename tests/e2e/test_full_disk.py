"""A full disk, as a player and the operator notice it: the move is refused with a plain
message, nothing moves on, and the log says so once, without a traceback."""

import asyncio
import logging
import random

import pytest

from bot.words.refusals import refusal_text
from engine.rules import Phase
from engine.store.errors import StorageFull
from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.discord_emulator.users import EmulatedUser
from tests.e2e.players import (
    Match,
    answered,
    board_message,
    challenge_and_accept,
    labels,
    offer_message,
    settle,
)
from tests.engine.store.disk_space import fill_the_disk, make_room

DISK_FULL = "The bot's disk is full: your move was not played. Try again later."


async def choose_a_move(
    emulator, bot, match: Match, rng
) -> tuple[EmulatedUser, MessageSnapshot, str]:
    """Whoever must decide picks a move through the UI, up to the last click: who, the
    message, and the button that plays it."""
    await settle(emulator, bot)
    table = await bot.service.queries.public_view(match.match_id)
    info = await bot.service.queries.match_info(match.match_id)
    assert table.current_player is not None, "the match is over"
    user = next(u for u in match.players if u.id == info.players[table.current_player])
    said = labels("en")
    if table.phase is not Phase.ACTION:
        offer = offer_message(user, match.thread_id)
        takes = [b.label for b in offer.buttons() if b.label.startswith(said["take"])]
        return user, offer, rng.choice(takes)
    panel = await answered(await user.click(board_message(user, match.thread_id), said["hand"]))
    actions = [b.label for b in panel.buttons() if b.label != said["refresh"]]
    panel = await answered(await user.click(panel, rng.choice(actions)))
    select = panel.select()
    picked = rng.sample([o.value for o in select.options], select.min_values)
    panel = await answered(await user.select(panel, picked))
    confirms = [b.label for b in panel.buttons() if b.label != said["back"]]
    return user, panel, rng.choice(confirms)


async def click_and_read(emulator, bot, user, message, button) -> list[MessageSnapshot]:
    """What the player has read once the bot is done with the click: the answers after
    it (a refusal after a defer is a follow-up), then the clicked message as it is now."""
    interaction = await user.click(message, button)
    await interaction.first_response()
    await settle(emulator, bot)
    return [*interaction.followups, *filter(None, [interaction.message])]


def refused_for_a_full_disk(read: list[MessageSnapshot]) -> bool:
    refusals = [m for m in read if DISK_FULL in m.text()]
    assert all(m.ephemeral for m in refusals), "a refusal is for the player's eyes only"
    return bool(refusals)


async def test_a_move_on_a_full_disk_is_refused_plainly_and_logged_once(
    emulator, bot, caplog, monkeypatch
):
    caplog.set_level(logging.INFO)
    monkeypatch.setattr("engine.store.sqlite.writer.SPACE_AGAIN_QUIET_SECONDS", 0.2)
    match = await challenge_and_accept(emulator, bot)
    rng = random.Random(11)
    await fill_the_disk(bot.service.store)

    for _ in range(100):  # play on until the database's last free page is used up
        version = (await bot.service.queries.public_view(match.match_id)).version
        user, message, button = await choose_a_move(emulator, bot, match, rng)
        if refused_for_a_full_disk(await click_and_read(emulator, bot, user, message, button)):
            break
    else:
        pytest.fail("the disk never filled up")

    for _ in range(5):  # the player tries again and again
        assert refused_for_a_full_disk(await click_and_read(emulator, bot, user, message, button))

    assert (await bot.service.queries.public_view(match.match_id)).version == version
    warned = [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.WARNING and r.name.startswith(("bot", "engine", "discord"))
    ]
    assert len(warned) == 1 and "the disk is full" in warned[0], caplog.text
    assert not any(r.exc_info for r in caplog.records), caplog.text
    assert "Traceback" not in caplog.text

    caplog.clear()
    await make_room(bot.service.store)
    await asyncio.sleep(0.2)  # refusals have stopped for a while
    assert not refused_for_a_full_disk(await click_and_read(emulator, bot, user, message, button))

    assert (await bot.service.queries.public_view(match.match_id)).version == version + 1
    assert len([r for r in caplog.records if "space again" in r.getMessage()]) == 1, caplog.text
    assert not any(r.exc_info for r in caplog.records), caplog.text


def test_the_refusal_reads_plainly_in_english_and_spanish():
    assert refusal_text("en", StorageFull("/var/lib/bot.sqlite3")) == DISK_FULL
    assert refusal_text("es", StorageFull("/var/lib/bot.sqlite3")) == (
        "El disco del bot está lleno: tu jugada no se ha hecho. Inténtalo de nuevo más tarde."
    )
