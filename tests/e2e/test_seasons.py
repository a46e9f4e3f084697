"""Seasons as members see them: an admin sets a length, a season ends on the emulator's
clock, its podium is posted once (also across a restart at the boundary), the standings
start over and the past season stays readable."""

from __future__ import annotations

import io

from PIL import Image

from engine.service.clock import ManualClock
from tests.e2e.players import answered, challenge_and_accept, settle

MANAGE_SERVER = 1 << 5
SEASON = 3600.0
"""The test-only season length (``season_seconds``): a season with a length lasts an hour."""
START = 2_000_000_000.0


async def _resign(emulator, bot, match, who) -> None:
    ask = await answered(await who.slash("hanamikoji resign", channel=match.thread_id))
    await answered(await who.click(ask, "Yes, resign"))
    await settle(emulator, bot)


async def _monthly_here(emulator, admin):
    admin.grant(MANAGE_SERVER)
    shown = await answered(
        await admin.slash(
            "hanamikoji settings", season_length="monthly", season_channel=emulator.channel
        )
    )
    assert "Seasons: monthly" in shown.text()
    assert f"Season podiums announced in: <#{emulator.channel.id}>" in shown.text()


def _podiums(user, channel_id):
    return [m for m in user.messages(channel_id) if "is over!" in m.text()]


async def test_a_season_ends_on_the_clock_its_podium_is_posted_once_and_stays_readable(
    emulator, start_bot
):
    clock = ManualClock(start=START)
    bot = await start_bot(clock, season_seconds=SEASON, season_min_games=1)
    ana, ben, cara = emulator.user("ana"), emulator.user("ben"), emulator.user("cara")
    await _monthly_here(emulator, cara)
    match = await challenge_and_accept(emulator, bot)
    await _resign(emulator, bot, match, ana)  # ben wins season 1

    all_time = await answered(await ana.slash("hanamikoji leaderboard"))
    assert "Season 1 is running: `/hanamikoji leaderboard season:1`" in all_time.text()
    running = await answered(await ana.slash("hanamikoji leaderboard", season=1))
    assert "Season 1 standings" in running.text() and "Running" in running.text()
    assert running.text().index(f"<@{ben.id}>") < running.text().index(f"<@{ana.id}>")
    mine = await answered(await ben.slash("hanamikoji stats"))
    assert "Season 1: **1662?** · rank 1 · 1 rated matches, 1 won" in mine.text()

    await clock.advance(SEASON, settle=bot.service.wait_idle)
    await settle(emulator, bot)

    [podium] = _podiums(cara, emulator.channel.id)
    assert "Season 1 is over!" in podium.text()
    assert f"🥇 **1.** <@{ben.id}> — **1662** · 1 won of 1" in podium.text()
    assert podium.attachment_names == ["podium.png"]
    picture = Image.open(io.BytesIO(podium.attachments[0][1]))
    assert picture.size == (720, 440)
    # Standings start over in season 2; season 1 is still there to read.
    fresh = await answered(await ana.slash("hanamikoji leaderboard", season=2))
    assert "Season 2 standings" in fresh.text() and "Nobody has played 1 rated" in fresh.text()
    past = await answered(await cara.slash("hanamikoji leaderboard", season=1))
    assert "Ended" in past.text() and f"**1.** <@{ben.id}>" in past.text()
    best = await answered(await ben.slash("hanamikoji stats"))
    assert "Season 2: no rated match yet" in best.text()
    assert "Best season: rank 1 in season 1 (1662)" in best.text()

    await clock.advance(SEASON / 2, settle=bot.service.wait_idle)
    await settle(emulator, bot)
    assert len(_podiums(cara, emulator.channel.id)) == 1, "posted once"


async def test_a_restart_across_the_boundary_posts_the_podium_once(emulator, start_bot):
    clock = ManualClock(start=START)
    bot = await start_bot(clock, season_seconds=SEASON, season_min_games=1)
    ana, cara = emulator.user("ana"), emulator.user("cara")
    await _monthly_here(emulator, cara)
    match = await challenge_and_accept(emulator, bot)
    await _resign(emulator, bot, match, ana)
    await bot.close()
    await clock.advance(SEASON + 60)  # the bot is down when the season ends

    restarted = await start_bot(clock, season_seconds=SEASON, season_min_games=1)
    await clock.advance(1, settle=restarted.service.wait_idle)
    await settle(emulator, restarted)
    await clock.advance(SEASON / 2, settle=restarted.service.wait_idle)
    await settle(emulator, restarted)

    [podium] = _podiums(cara, emulator.channel.id)
    assert "Season 1 is over!" in podium.text()
    season = await restarted.service.seasons.current(emulator.guild_id)
    assert season is not None and season.number == 2


async def test_season_commands_need_manage_server_and_say_what_happened(emulator, start_bot):
    await start_bot(season_min_games=1)
    ana, cara = emulator.user("ana"), emulator.user("cara")
    refused = await answered(await ana.slash("hanamikoji season start"))
    assert refused.ephemeral and "Manage Server" in refused.text()
    cara.grant(MANAGE_SERVER)
    nothing = await answered(await cara.slash("hanamikoji season end"))
    assert "No season is running" in nothing.text()
    started = await answered(await cara.slash("hanamikoji season start"))
    assert "Season 1 has started" in started.text() and "ends when" in started.text()
    again = await answered(await cara.slash("hanamikoji season start"))
    assert "Season 1 is already running" in again.text()

    ended = await answered(await cara.slash("hanamikoji season end"))
    twice = await answered(await cara.slash("hanamikoji season end"))

    assert "Season 1 has ended" in ended.text() and "No channel is chosen" in ended.text()
    assert "No season is running" in twice.text()
    unknown = await answered(await ana.slash("hanamikoji leaderboard", season=7))
    assert "This server has no season 7." in unknown.text()
    assert _podiums(cara, emulator.channel.id) == [], "no channel chosen: nothing announced"
