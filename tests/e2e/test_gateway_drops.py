"""The Gateway drops the bot in the middle of a match, in each way Discord may (topics/
gateway, "Resuming", "Reconnect", "Invalid Session"): the match goes on to its end, what
happened while the bot was away reaches it (replayed on RESUME) or fails in the player's
sight (after an invalid session), and no hidden card shows where it must not."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

import discord
import pytest

from engine.model import MatchStatus
from engine.store.identify_gate import IdentifyTurnUnknown
from tests.discord_emulator.gateway import Gateway, GatewaySession
from tests.discord_emulator.interactions import InteractionFailed
from tests.discord_emulator.server import DiscordEmulator
from tests.e2e.players import (
    Match,
    answered,
    board_message,
    challenge_and_accept,
    labels,
    play_decision,
    settle,
    whose_turn,
)
from tests.e2e.test_full_match import HAND_LINE, LeakCheck

Drop = Callable[[Gateway, GatewaySession], Awaitable[None]]


async def _cut(gateway: Gateway, session: GatewaySession) -> None:
    await gateway.drop_abruptly(session)


async def _close_resumably(gateway: Gateway, session: GatewaySession) -> None:
    assert session.socket is not None
    await gateway.drop(session.socket, code=4000)


async def _reconnect(gateway: Gateway, session: GatewaySession) -> None:
    await gateway.request_reconnect(session)


async def _invalid_but_resumable(gateway: Gateway, session: GatewaySession) -> None:
    await gateway.invalidate(session, resumable=True)


RESUMABLE_DROPS: dict[str, Drop] = {
    "connection cut (1006)": _cut,
    "closed with 4000": _close_resumably,
    "op 7 Reconnect": _reconnect,
    "op 9 Invalid Session, resumable": _invalid_but_resumable,
}


async def _play(emulator: DiscordEmulator, bot, match: Match, leaks: LeakCheck, rng, moves: int):
    for _ in range(moves):
        info = await bot.service.queries.match_info(match.match_id)
        if info.status is not MatchStatus.ACTIVE:
            return
        await play_decision(emulator, bot, match, rng)
        await leaks.check()


async def _play_to_the_end(emulator: DiscordEmulator, bot, match: Match, leaks, rng) -> None:
    await _play(emulator, bot, match, leaks, rng, moves=200)
    info = await bot.service.queries.match_info(match.match_id)
    assert info.status is MatchStatus.FINISHED
    texts = [m.text() for m in match.players[0].messages(match.thread_id)]
    assert any("🏆" in t or "draw" in t for t in texts), "the result was announced"


async def _match_under_way(emulator: DiscordEmulator, bot, seed: int):
    match = await challenge_and_accept(emulator, bot)
    leaks = LeakCheck(emulator, bot, match)
    await leaks.check()
    rng = random.Random(seed)
    await _play(emulator, bot, match, leaks, rng, moves=3)
    (session,) = emulator.gateway.live_sessions
    return match, leaks, rng, session


@pytest.mark.parametrize("drop", RESUMABLE_DROPS)
async def test_after_a_resumable_drop_what_was_missed_is_replayed_and_the_match_goes_on(
    emulator, bot, drop
):
    match, leaks, rng, session = await _match_under_way(emulator, bot, seed=23)
    gateway = emulator.gateway
    resumed_before = gateway.resume_count
    # The bot keeps no message cache (max_messages=None): what reached it is heard here.
    heard: set[int] = set()

    async def hear(message: discord.Message) -> None:
        heard.add(message.id)

    bot.add_listener(hear, "on_message")
    async with gateway.holding_connections():
        await RESUMABLE_DROPS[drop](gateway, session)
        await gateway.wait_for_disconnect(session)
        # While the bot is away: a player presses Hand, the other speaks in the thread.
        mover, other = await whose_turn(bot, match)
        away_click = await mover.click(board_message(mover, match.thread_id), labels("en")["hand"])
        said = await other.say("still there?", channel=match.thread_id)
    await gateway.wait_for_resume(resumed_before + 1)
    panel = await answered(away_click)
    assert panel.ephemeral and HAND_LINE.search(panel.text()), panel.text()
    await settle(emulator, bot)
    assert said.id in heard, "the message was replayed"
    bot.remove_listener(hear, "on_message")
    assert gateway.identify_count == 1, "resumed, not identified again"
    await leaks.check()
    await _play_to_the_end(emulator, bot, match, leaks, rng)


async def test_after_an_invalid_session_the_bot_identifies_again_and_the_match_goes_on(
    emulator, bot
):
    match, leaks, rng, session = await _match_under_way(emulator, bot, seed=9)
    gateway = emulator.gateway
    async with gateway.holding_connections():
        await gateway.invalidate(session, resumable=False)
        await gateway.wait_for_disconnect(session)
        # Nobody holds the session: Discord delivers the click to no one, and its player
        # sees "This interaction failed" (quicker here than Discord's 3 s).
        mover, _ = await whose_turn(bot, match)
        emulator.response_deadline = 0.5
        lost = await mover.click(board_message(mover, match.thread_id), labels("en")["hand"])
        with pytest.raises(InteractionFailed):
            await lost.first_response()
        emulator.response_deadline = 3.0
    assert [f.what for f in emulator.take_failures()] == [
        f"{lost.description}: no response within 0.5 s"
    ]
    await gateway.wait_for_identify(2)
    assert gateway.refused_identifies == 0, "the new IDENTIFY waited its turn"
    # The player presses again once the bot is back, and play goes on.
    mover, _ = await whose_turn(bot, match)
    panel = await answered(
        await mover.click(board_message(mover, match.thread_id), labels("en")["hand"])
    )
    assert panel.ephemeral and HAND_LINE.search(panel.text()), panel.text()
    await leaks.check()
    await _play_to_the_end(emulator, bot, match, leaks, rng)


class _DatabaseGone:
    """The shared IDENTIFY turns of a database that does not answer."""

    async def identify_turn(self, bucket: int, spacing: float = 5.5) -> None:
        raise IdentifyTurnUnknown(bucket, "connection refused")


async def test_a_database_that_does_not_answer_keeps_no_shard_off_the_gateway(
    emulator, bot, caplog
):
    gateway = emulator.gateway
    (session,) = gateway.live_sessions
    bot._identify_gate = _DatabaseGone()
    await gateway.invalidate(session, resumable=False)
    await gateway.wait_for_identify(2)
    assert gateway.refused_identifies == 0, "its own turns still spaced it"
    assert "shared IDENTIFY turn unknown" in caplog.text
    answer = await emulator.user("ana").slash("hanamikoji rules")
    await answer.first_response()
