"""The daily puzzle in the service: a server that chose a channel gets one puzzle a day at
00:00 UTC, announced once (also across a restart), the next day's alarm set with it; the
same day always gives the same puzzle; a server with no channel gets none."""

from __future__ import annotations

from dataclasses import replace

from engine.model import GuildSettings
from engine.puzzles.builtin import builtin_puzzles
from engine.service import ManualClock, MatchService
from engine.service.puzzles.daily import DAILY_PUZZLE, day_of, midnight_after, pick
from engine.service.puzzles.events import DailyPuzzlePosted

from .conftest import START, Recorder, ServiceFactory

GUILD, CHANNEL = 1, 77
MIDNIGHT = midnight_after(START)
DAY = 86_400.0


async def choose_channel(service: MatchService, channel: int | None = CHANNEL) -> float | None:
    settings = await service.settings.guild_settings(GUILD)
    await service.settings.set_guild_settings(replace(settings, puzzle_channel_id=channel))
    return await service.daily_puzzles.follow_channel(GUILD)


async def alarms_of(service: MatchService) -> list[float]:
    """When the server's daily puzzle alarm is due (none, or one)."""
    due = await service.store.next_alarm_due()
    return [] if due is None else [due]


def posted(heard: Recorder) -> list[DailyPuzzlePosted]:
    return heard.of(DailyPuzzlePosted)


async def test_one_puzzle_a_day_at_midnight_each_announced_once_with_the_next_alarm(
    make_service: ServiceFactory, clock: ManualClock
):
    heard = Recorder()
    service = await make_service(recorder=heard)
    assert await alarms_of(service) == []  # off by default
    assert await choose_channel(service) == MIDNIGHT
    assert await alarms_of(service) == [MIDNIGHT]

    await clock.advance(MIDNIGHT - START - 1, settle=service.wait_idle)
    assert posted(heard) == []
    await clock.advance(1, settle=service.wait_idle)

    [first] = posted(heard)
    assert (first.guild_id, first.day, first.channel_id) == (GUILD, day_of(MIDNIGHT), CHANNEL)
    assert first.key in {p.key for p in builtin_puzzles()}
    assert await alarms_of(service) == [MIDNIGHT + DAY]
    daily = await service.daily_puzzles.of_day(GUILD, first.day)
    assert daily is not None and (daily.key, daily.posted_at) == (first.key, MIDNIGHT)
    assert await service.store.undelivered() == []  # shown and confirmed

    await clock.advance(DAY / 2, settle=service.wait_idle)
    assert await service.daily_puzzles.post_due(GUILD) is None  # the day has its puzzle
    assert len(posted(heard)) == 1
    await clock.advance(DAY / 2, settle=service.wait_idle)
    first_again, second = posted(heard)
    assert first_again == first and second.day == first.day + 1
    assert second.key != first.key  # a puzzle posted lately is not posted again


async def test_the_same_day_gives_the_same_puzzle_and_no_channel_gives_none(
    make_service: ServiceFactory, clock: ManualClock
):
    heard = Recorder()
    service = await make_service(recorder=heard)
    keys = await service.store.puzzle_keys(GUILD)
    assert sorted(keys) == sorted(p.key for p in builtin_puzzles())
    await choose_channel(service)
    await clock.advance(MIDNIGHT - START, settle=service.wait_idle)
    [news] = posted(heard)
    assert news.key == pick(GUILD, news.day, keys, set())  # in any process, on any run
    assert pick(GUILD + 1, news.day, keys, set()) != news.key  # servers differ

    assert await choose_channel(service, None) is None  # turned off: no alarm, no post
    assert await alarms_of(service) == []
    await clock.advance(DAY, settle=service.wait_idle)
    assert posted(heard) == [news]


async def test_a_restart_neither_posts_the_day_twice_nor_loses_it(
    make_service: ServiceFactory, clock: ManualClock
):
    lost = Recorder(confirms=False)  # the bot dies before posting it
    dying = await make_service(recorder=lost)
    await choose_channel(dying)
    await clock.advance(MIDNIGHT - START, settle=dying.wait_idle)
    [news] = posted(lost)
    await dying.close()

    heard = Recorder()
    restarted = await make_service(recorder=heard)
    await restarted.wait_idle()
    assert posted(heard) == [news]  # shown at the start, from the outbox
    await clock.advance(DAY - 1, settle=restarted.wait_idle)
    assert posted(heard) == [news]
    await restarted.close()

    again = Recorder()
    last = await make_service(recorder=again)
    await last.wait_idle()
    assert posted(again) == []  # confirmed: never shown again
    await clock.advance(1, settle=last.wait_idle)
    [tomorrow] = posted(again)
    assert tomorrow.day == news.day + 1


async def test_members_who_solve_it_are_listed_in_order_and_a_miss_is_not(
    make_service: ServiceFactory, clock: ManualClock
):
    service = await make_service()
    await choose_channel(service)
    await clock.advance(MIDNIGHT - START, settle=service.wait_idle)
    daily = await service.daily_puzzles.of_day(GUILD, day_of(MIDNIGHT))
    assert daily is not None
    puzzle = next(p.puzzle for p in builtin_puzzles() if p.key == daily.key)

    for user in (303, 101):
        await clock.advance(5)
        assert (await service.puzzles.answer(GUILD, user, daily.key, puzzle.solution)).solved
    missed = await service.puzzles.answer(GUILD, 202, daily.key, puzzle.played)

    assert not missed.solved
    assert await service.daily_puzzles.solvers(daily) == ([303, 101], 2)
    assert await service.daily_puzzles.solvers(daily, limit=1) == ([303], 2)


async def test_a_server_that_turned_its_channel_off_lets_the_alarm_go(
    make_service: ServiceFactory, clock: ManualClock
):
    heard = Recorder()
    service = await make_service(recorder=heard)
    await choose_channel(service)
    # Turned off without the alarm cleared (an older settings write): the ring does nothing.
    await service.settings.set_guild_settings(GuildSettings(GUILD))
    await clock.advance(MIDNIGHT - START, settle=service.wait_idle)
    assert posted(heard) == [] and await alarms_of(service) == []
    assert DAILY_PUZZLE == "daily-puzzle"
