"""The daily puzzle with two processes on one PostgreSQL database: its midnight alarm is
claimed by one, the day's puzzle is recorded and announced once, and a process started
again after midnight neither posts the day again nor loses its announcement."""

from __future__ import annotations

from dataclasses import replace

from engine.service import MatchService
from engine.service.puzzles.daily import day_of, midnight_after
from engine.service.puzzles.events import DailyPuzzlePosted

from .conftest import START
from .test_shared_database import process, settle  # noqa: F401

GUILD, CHANNEL = 1, 77
MIDNIGHT = midnight_after(START)
DAY = 86_400.0


async def choose_channel(service: MatchService) -> None:
    settings = await service.settings.guild_settings(GUILD)
    await service.settings.set_guild_settings(replace(settings, puzzle_channel_id=CHANNEL))
    await service.daily_puzzles.follow_channel(GUILD)


async def test_two_processes_post_the_day_once_and_a_restart_does_not_again(process):  # noqa: F811
    # Nothing runs yet, so the clock moves at once; the processes start a minute before
    # midnight (polling the database every second of a day would take minutes).
    await process.clock.advance(MIDNIGHT - START - 60)
    one, heard_by_one = await process("one")
    two, heard_by_two = await process("two")
    await choose_channel(two)

    await process.clock.advance(62, settle=lambda: settle(one, two))

    posted = heard_by_one.of(DailyPuzzlePosted) + heard_by_two.of(DailyPuzzlePosted)
    assert [(p.guild_id, p.day, p.channel_id) for p in posted] == [
        (GUILD, day_of(MIDNIGHT), CHANNEL)
    ]
    assert await one.daily_puzzles.post_due(GUILD) is None  # the day has its puzzle
    assert await two.daily_puzzles.post_due(GUILD) is None
    await one.close()
    await two.close()

    again, heard_again = await process("one")  # the same origin, started again
    await process.clock.advance(60, settle=again.wait_idle)
    assert heard_again.of(DailyPuzzlePosted) == []  # shown and confirmed before the stop
    await again.close()

    await process.clock.advance(DAY - 180)  # nobody runs: at once, to before the next midnight
    later, heard_later = await process("one")
    await process.clock.advance(120, settle=later.wait_idle)
    [tomorrow] = heard_later.of(DailyPuzzlePosted)
    assert tomorrow.day == day_of(MIDNIGHT) + 1 and tomorrow.key != posted[0].key
