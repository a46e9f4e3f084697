"""A Take pressed on the board: the board itself is the answer. The press is acknowledged
with a deferred update and the board's edit showing the move goes through the press's
interaction webhook, which Discord does not count against the bot's global rate limit, so
the decision costs no rate-limited edit of the board. If that webhook refuses (its token
expired), the board is edited as usual, and still shows the move."""

from __future__ import annotations

import asyncio
import random

from engine.rules import Phase
from tests.discord_emulator.interactions import CallbackType
from tests.discord_emulator.request_log import LoggedRequest
from tests.discord_emulator.server import DiscordEmulator
from tests.e2e.players import (
    HANG_GUARD_SECONDS,
    Match,
    answered,
    challenge_and_accept,
    labels,
    offer_message,
    play_decision,
    settle,
    whose_turn,
)

ORIGINAL_EDIT = "/webhooks/{application_id}/{token}/messages/{message_id}"
TOKEN_LIFETIME_SECONDS = 15 * 60


async def until_an_offer_waits(emulator: DiscordEmulator, bot, match: Match) -> None:
    rng = random.Random(7)
    for _ in range(40):
        if (await bot.service.queries.public_view(match.match_id)).phase is not Phase.ACTION:
            return
        await play_decision(emulator, bot, match, rng)
    raise AssertionError("no Gift or Competition in 40 decisions")


def board_edits(emulator: DiscordEmulator, board_id: int, since: int) -> list[LoggedRequest]:
    """The rate-limited edits of the board (``PATCH /channels/…/messages/<board>``)."""
    return [
        r
        for r in emulator.request_log.requests[since:]
        if r.method == "PATCH" and r.path.endswith(f"/messages/{board_id}")
    ]


def original_edits(emulator: DiscordEmulator, since: int) -> list[LoggedRequest]:
    """The edits through an interaction webhook (``PATCH /webhooks/…/messages/@original``)."""
    return [
        r
        for r in emulator.request_log.requests[since:]
        if r.method == "PATCH" and r.path.endswith("/messages/@original")
    ]


async def test_a_take_on_the_board_edits_the_board_through_its_interaction(emulator, bot):
    match = await challenge_and_accept(emulator, bot)
    await until_an_offer_waits(emulator, bot, match)
    chooser, _ = await whose_turn(bot, match)
    board = offer_message(chooser, match.thread_id)
    version = (await bot.service.queries.public_view(match.match_id)).version
    ephemerals = {m.id for m in chooser.messages(match.thread_id) if m.ephemeral}
    since = len(emulator.request_log.requests)
    counted = emulator.rate_limits.stats.global_counted
    take = next(b.label for b in board.buttons() if b.label.startswith(labels("en")["take"]))

    press = await chooser.click(board, take)
    answer = await answered(press)
    await settle(emulator, bot)

    assert await press.first_response() is CallbackType.DEFERRED_UPDATE_MESSAGE
    assert answer is not None and answer.id == board.id, "the answer is the board, edited"
    assert (await bot.service.queries.public_view(match.match_id)).version == version + 1
    shown = chooser.message(board.id)
    assert f"**{chooser.name}** took" in shown.text(), shown.text()
    assert not any(b.label.startswith(labels("en")["take"]) for b in shown.buttons())
    assert board_edits(emulator, board.id, since) == [], "no rate-limited edit of the board"
    assert [r.status for r in original_edits(emulator, since)] == [200]
    # What the decision cost under the global limit: no edit of the board; at most a
    # message of the thread (the offer's question answered) and the next player's DM.
    assert emulator.rate_limits.stats.global_counted - counted <= 2
    after = [m for m in chooser.messages(match.thread_id) if m.ephemeral]
    assert [m.id for m in after if m.id not in ephemerals] == [], (
        "no private note: the board's last moves say what was taken"
    )


async def test_a_take_whose_token_expired_on_the_way_edits_the_board_as_usual(emulator, bot):
    match = await challenge_and_accept(emulator, bot)
    await until_an_offer_waits(emulator, bot, match)
    chooser, _ = await whose_turn(bot, match)
    board = offer_message(chooser, match.thread_id)
    since = len(emulator.request_log.requests)
    take = next(b.label for b in board.buttons() if b.label.startswith(labels("en")["take"]))
    # The edit through the press is held on its way until its token is past 15 minutes.
    hold = emulator.faults.hold(ORIGINAL_EDIT, method="PATCH")
    emulator.tolerate_failures = True  # the refused edit is the point: checked below

    press = await chooser.click(board, take)
    async with asyncio.timeout(HANG_GUARD_SECONDS):
        await hold.arrived.wait()
    emulator.clock.advance(TOKEN_LIFETIME_SECONDS + 60)
    hold.release()
    answer = await answered(press)
    await settle(emulator, bot)

    assert [r.status for r in original_edits(emulator, since)] == [401]
    assert [f.code for f in emulator.failures] == [50027], "only the expired token refused"
    assert len(board_edits(emulator, board.id, since)) == 1, "edited as usual instead"
    assert answer is not None and answer.id == board.id
    shown = chooser.message(board.id)
    assert f"**{chooser.name}** took" in shown.text(), shown.text()
    assert not any(b.label.startswith(labels("en")["take"]) for b in shown.buttons())
