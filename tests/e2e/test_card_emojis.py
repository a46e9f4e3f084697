"""The bot's card emojis are uploaded once, by the bot itself: a restart reuses them by
name, and when Discord fails the emoji routes the cards are shown as letters, the log
saying why, and play goes on."""

from __future__ import annotations

import logging

from tests.discord_emulator.server import DiscordEmulator
from tests.e2e.players import answered, board_message, challenge_and_accept, labels, whose_turn

EMOJIS = "/applications/{application_id}/emojis"


def uploads(emulator: DiscordEmulator) -> int:
    return sum(
        1
        for r in emulator.request_log.requests
        if r.method == "POST" and r.path.endswith("/emojis")
    )


async def hand_panel_text(emulator: DiscordEmulator, bot) -> str:
    match = await challenge_and_accept(emulator, bot)
    mover, _ = await whose_turn(bot, match)
    board = board_message(mover, match.thread_id)
    return (await answered(await mover.click(board, labels("en")["hand"]))).text()


async def test_a_restart_uploads_no_emoji_again(emulator: DiscordEmulator, start_bot):
    bot = await start_bot()
    assert uploads(emulator) == 11 and len(emulator.world.application_emojis) == 11
    await bot.close()
    bot = await start_bot()
    assert uploads(emulator) == 11  # reused by name
    assert ":hk_card_" in await hand_panel_text(emulator, bot)


async def test_when_discord_fails_the_emoji_routes_the_cards_are_letters(
    emulator: DiscordEmulator, start_bot, caplog
):
    emulator.faults.server_error(EMOJIS, method="GET", status=503)
    with caplog.at_level(logging.WARNING, logger="bot.discord_plumbing.app_emojis"):
        bot = await start_bot()
    assert "cards are shown as letters" in caplog.text
    assert uploads(emulator) == 0
    said = await hand_panel_text(emulator, bot)
    assert ":hk_card_" not in said and "**Your hand**" in said  # letters, and play goes on
