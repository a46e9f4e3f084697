"""Turn timers as players see them."""

from engine.model import MatchStatus
from engine.service.clock import ManualClock
from tests.e2e.players import challenge_and_accept, settle, whose_turn


async def test_a_reminder_then_the_ai_plays_for_an_absent_player(emulator, start_bot):
    clock = ManualClock(start=2_000_000_000.0)
    bot = await start_bot(clock=clock, turn_timer_seconds=3600, reminder_before_seconds=600)
    match = await challenge_and_accept(emulator, bot)
    absent, other = await whose_turn(bot, match)
    version = (await bot.service.queries.public_view(match.match_id)).version

    await clock.advance(3000, settle=bot.service.wait_idle)
    await settle(emulator, bot)
    reminders = [m for m in other.messages(match.thread_id) if "runs out" in m.text()]
    assert len(reminders) == 1 and absent.mention in reminders[0].content

    await clock.advance(600, settle=bot.service.wait_idle)
    await settle(emulator, bot)
    assert (await bot.service.queries.public_view(match.match_id)).version > version
    lines = [m.text() for m in other.messages(match.thread_id)]
    assert any("ran out of time, so the AI played for them" in t for t in lines)
    reminders = [m for m in other.messages(match.thread_id) if "runs out" in m.text()]
    assert len(reminders) == 1, "the reminder went out once"


async def test_forfeit_on_time_is_announced(emulator, start_bot):
    clock = ManualClock(start=2_000_000_000.0)
    bot = await start_bot(clock=clock, turn_timer_seconds=3600, expiry_policy="forfeit")
    match = await challenge_and_accept(emulator, bot)
    absent, other = await whose_turn(bot, match)
    await clock.advance(3601, settle=bot.service.wait_idle)
    await settle(emulator, bot)
    assert (await bot.service.queries.match_info(match.match_id)).status is MatchStatus.FINISHED
    assert any(
        f"{absent.name} ran out of time" in m.text() for m in other.messages(match.thread_id)
    )
