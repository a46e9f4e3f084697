"""Strangers, double clicks, stale panels, restarts, closed DMs, old tokens, and Discord
refusing requests: each gets a clear answer and loses nothing."""

import asyncio
import random

from bot.play.presence import AWAY_AFTER_SECONDS
from engine.model import MatchStatus
from tests.discord_emulator.errors import CANNOT_SEND_TO_USER
from tests.e2e.players import (
    HAND,
    answered,
    board_message,
    challenge_and_accept,
    offer_message,
    play_decision,
    presence_of,
    settle,
    whose_turn,
)

STALE = "This panel is out of date"


async def open_confirm_page(user, match):
    """Open the panel and walk it to a Secret's Confirm button."""
    panel = await answered(await user.click(board_message(user, match.thread_id), HAND))
    panel = await answered(await user.click(panel, "Secret (1)"))
    panel = await answered(await user.select(panel, [panel.select().options[0].value]))
    (confirm,) = [b.label for b in panel.buttons() if b.label.startswith("Confirm")]
    return panel, confirm


async def test_a_stranger_cannot_open_a_hand_or_take_from_an_offer(emulator, bot):
    match = await challenge_and_accept(emulator, bot)
    cara = emulator.user("cara")
    refused = await answered(await cara.click(board_message(cara, match.thread_id), HAND))
    assert refused.ephemeral and "Only the two players" in refused.text()
    assert not match.players[0].can_see(refused)
    rng = random.Random(3)
    for _ in range(12):  # play on until someone offers a Gift or Competition
        table = await bot.service.queries.public_view(match.match_id)
        if table.pending is not None:
            break
        await play_decision(emulator, bot, match, rng)
        await settle(emulator, bot)
    offer = offer_message(cara, match.thread_id)
    take = next(b.label for b in offer.buttons())
    refused = await answered(await cara.click(offer, take))
    assert "Only the two players" in refused.text()
    mover, offerer = await whose_turn(bot, match)
    refused = await answered(await offerer.click(offer, take))
    assert refused.ephemeral and f"{mover.name}'s choice" in refused.text()
    assert (await bot.service.queries.public_view(match.match_id)).pending is not None


async def test_a_double_click_applies_once(emulator, bot):
    match = await challenge_and_accept(emulator, bot)
    mover, _ = await whose_turn(bot, match)
    before = (await bot.service.queries.public_view(match.match_id)).version
    panel, confirm = await open_confirm_page(mover, match)
    first = await mover.click(panel, confirm)
    second = await mover.click(panel, confirm)  # before the first one was answered
    await asyncio.gather(first.first_response(), second.first_response())
    await settle(emulator, bot)
    assert (await bot.service.queries.public_view(match.match_id)).version == before + 1
    # Both clicks answered the same panel; it ends showing the turn as done.
    final = mover.message(panel)
    assert "✅ Secret: " in final.text() or STALE in final.text()
    assert "Waiting for" in final.text()
    lines = [m.text() for m in mover.messages(match.thread_id) if "used Secret" in m.text()]
    assert len(lines) == 1


async def test_a_stale_panel_is_refused_and_replaced_by_the_current_one(emulator, bot):
    match = await challenge_and_accept(emulator, bot)
    mover, _ = await whose_turn(bot, match)
    old_panel = await answered(await mover.click(board_message(mover, match.thread_id), HAND))
    panel, confirm = await open_confirm_page(mover, match)
    await answered(await mover.click(panel, confirm))
    await settle(emulator, bot)
    version = (await bot.service.queries.public_view(match.match_id)).version
    refreshed = await answered(await mover.click(old_panel, "Trade-off (2)"))
    assert refreshed.text().startswith(STALE)  # the notice, above the panel
    assert "Waiting for" in refreshed.text()
    assert (await bot.service.queries.public_view(match.match_id)).version == version


async def test_a_restarted_bot_continues_the_match_from_the_old_buttons(emulator, start_bot):
    bot = await start_bot()
    match = await challenge_and_accept(emulator, bot)
    rng = random.Random(11)
    for _ in range(3):
        await play_decision(emulator, bot, match, rng)
        await settle(emulator, bot)
    version = (await bot.service.queries.public_view(match.match_id)).version
    await bot.close()

    restarted = await start_bot()
    assert (await restarted.service.queries.public_view(match.match_id)).version == version
    for _ in range(4):  # the old board's Hand button and the old offers still work
        await play_decision(emulator, restarted, match, rng)
        await settle(emulator, restarted)
    assert (await restarted.service.queries.public_view(match.match_id)).version > version


async def test_the_panel_by_dm_and_closed_dms_falling_back_to_the_thread(emulator, bot):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    for user in (ana, ben):
        reply = await answered(await user.slash("hanamikoji notify", dm=True))
        assert "DM" in reply.text()
    ben.close_dms()
    now = [0.0]
    presence_of(bot).clock = lambda: now[0]
    match = await challenge_and_accept(emulator, bot)
    rng = random.Random(5)
    for _ in range(4):
        now[0] += AWAY_AFTER_SECONDS  # each player looks away between turns
        await play_decision(emulator, bot, match, rng)
        await settle(emulator, bot)
    # Each came by DM; once the turn moved on it was closed (its buttons gone).
    assert any("Your hand" in m.text() or "panel is closed" in m.text() for m in ana.dms())
    refused = emulator.take_failures()
    assert refused and all(f.code == CANNOT_SEND_TO_USER for f in refused)
    mentions = [m for m in ben.messages(match.thread_id) if ben.mention in m.content]
    assert mentions, "ben, away, is mentioned in the thread instead"
    for _ in range(2):
        await answered(await ben.click(board_message(ben, match.thread_id), HAND))
    told = [e for e in emulator.transcript.ephemeral_to(ben.id) if "DMs are closed" in e.text()]
    assert len(told) == 1, "ben is told once, privately, the next time he opens his panel"


async def test_a_panel_from_the_dm_plays_a_turn(emulator, bot):
    ana = emulator.user("ana")
    await answered(await ana.slash("hanamikoji notify", dm=True))
    match = await challenge_and_accept(emulator, bot)
    mover, _ = await whose_turn(bot, match)
    if mover is not ana:
        await play_decision(emulator, bot, match, random.Random(1))
        await settle(emulator, bot)
    version = (await bot.service.queries.public_view(match.match_id)).version
    dm_panel = [m for m in ana.dms() if m.buttons()][-1]
    panel = await answered(await ana.click(dm_panel, "Secret (1)"))
    panel = await answered(await ana.select(panel, [panel.select().options[0].value]))
    confirm = next(b.label for b in panel.buttons() if b.label.startswith("Confirm"))
    done = await answered(await ana.click(panel, confirm))
    card = confirm.removeprefix("Confirm: Secret ")  # the panel confirms in words and notation
    assert f"✅ Secret: {card} (1{card})" in done.text()
    await settle(emulator, bot)
    assert (await bot.service.queries.public_view(match.match_id)).version == version + 1


async def test_an_old_ephemeral_panel_still_answers_after_its_token_expired(emulator, bot):
    match = await challenge_and_accept(emulator, bot)
    mover, _ = await whose_turn(bot, match)
    panel = await answered(await mover.click(board_message(mover, match.thread_id), HAND))
    emulator.advance(16 * 60)  # the panel's own interaction token is dead now
    refreshed = await answered(await mover.click(panel, "Refresh"))
    assert "Your hand" in refreshed.text()
    emulator.assert_no_failures()


async def test_rate_limits_and_a_server_error_lose_no_decision(emulator, bot):
    match = await challenge_and_accept(emulator, bot)
    board_route = "/channels/{channel_id}/messages/{message_id}"
    emulator.faults.rate_limit(board_route, method="PATCH", times=2)
    emulator.faults.server_error(board_route, method="PATCH")
    mover, _ = await whose_turn(bot, match)
    version = (await bot.service.queries.public_view(match.match_id)).version
    panel, confirm = await open_confirm_page(mover, match)
    await answered(await mover.click(panel, confirm))
    # The board's edit, discord.py's back-off after the 429s and the 502 included, is one
    # of the bot's queued tasks: settling waits for it.
    await settle(emulator, bot)
    assert (await bot.service.queries.public_view(match.match_id)).version == version + 1
    board = board_message(mover, match.thread_id)
    assert "~~Secret~~" in board.text() and "used Secret" in board.text(), "the board caught up"
    assert len(emulator.faults.injected) == 3


async def test_resigning_asks_first_and_then_ends_the_match(emulator, bot):
    match = await challenge_and_accept(emulator, bot)
    ana, _ = match.players
    ask = await answered(await ana.slash("hanamikoji resign", channel=match.thread_id))
    assert ask.ephemeral and "really" in ask.text()
    await answered(await ana.click(ask, "Yes, resign"))
    await settle(emulator, bot)
    assert (await bot.service.queries.match_info(match.match_id)).status is MatchStatus.FINISHED
    assert any("resigned" in m.text() for m in ana.messages(match.thread_id))
