"""A match's requests wait for the bot's own pace as urgently as someone waits for them: a
live board first, a new match's thread and board a little after, a DM panel
last (bot/request_pacing.py orders the waiting line by it)."""

from __future__ import annotations

import random

from bot.request_pacing import Urgency
from tests.e2e.players import answered, challenge_and_accept, play_decision, settle


def requests_by_urgency(bot) -> dict[Urgency, int]:
    return {urgency: tally.requests for urgency, tally in bot.pacer.tallies.items()}


async def test_each_request_of_a_match_waits_as_urgently_as_someone_waits_for_it(emulator, bot):
    for name in ("ana", "ben"):  # their turns' panels by DM
        await answered(await emulator.user(name).slash("hanamikoji notify", dm=True))
    before = requests_by_urgency(bot)
    match = await challenge_and_accept(emulator, bot)
    await settle(emulator, bot)
    opened = requests_by_urgency(bot)
    # The thread, its two players and the first board.
    assert opened[Urgency.OPENING] - before[Urgency.OPENING] >= 4
    assert opened[Urgency.BOARD] == before[Urgency.BOARD]
    assert opened[Urgency.BACKGROUND] > before[Urgency.BACKGROUND], "the first player's DM"

    rng = random.Random(3)
    await play_decision(emulator, bot, match, rng)
    await settle(emulator, bot)
    played = requests_by_urgency(bot)
    assert played[Urgency.BOARD] > opened[Urgency.BOARD], "the board edit a player waits for"
    assert played[Urgency.OPENING] == opened[Urgency.OPENING]
    assert played[Urgency.BACKGROUND] > opened[Urgency.BACKGROUND], "the next player's DM"
