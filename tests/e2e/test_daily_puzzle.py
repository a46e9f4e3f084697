"""The daily puzzle through the emulator: an admin chooses a puzzle channel, the day's
puzzle is posted there once at 00:00 UTC (also across a restart at midnight), a member
solves it from the public message and is answered privately, the message lists them, a
second member misses it (not listed), a second press and a forged button are refused, and
a channel the bot cannot reach is logged once, the day skipped and the alarm kept."""

from __future__ import annotations

from engine.model import GuildSettings
from engine.puzzles.builtin import builtin_puzzles
from engine.service.clock import ManualClock
from engine.service.puzzles.daily import day_of, midnight_after
from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.e2e.players import answered, settle

MANAGE_SERVER = 1 << 5
START = 2_000_000_000.0
MIDNIGHT = midnight_after(START)
BUILTIN = {p.key: p.puzzle for p in builtin_puzzles()}


def dailies(user, channel_id) -> list[MessageSnapshot]:
    return [m for m in user.messages(channel_id) if "🧩 Daily puzzle ·" in m.text()]


def day_key(message: MessageSnapshot) -> tuple[int, str]:
    """The day and the puzzle a public message poses, from its buttons' ids."""
    found = {tuple(b.custom_id.split(":")[1:3]) for b in message.buttons()}
    ((day, key),) = found
    return int(day), key


async def choose_channel(emulator, admin) -> None:
    admin.grant(MANAGE_SERVER)
    shown = await answered(
        await admin.slash("hanamikoji settings", puzzle_channel=emulator.channel)
    )
    assert f"Daily puzzle (00:00 UTC) posted in: <#{emulator.channel.id}>" in shown.text()


async def test_the_daily_puzzle_is_posted_at_midnight_and_solved_from_its_message(
    emulator, start_bot
):
    clock = ManualClock(start=START)
    bot = await start_bot(clock)
    ana, ben, cara = emulator.user("ana"), emulator.user("ben"), emulator.user("cara")
    await choose_channel(emulator, cara)
    await clock.advance(MIDNIGHT - START - 1, settle=bot.service.wait_idle)
    await settle(emulator, bot)
    assert dailies(cara, emulator.channel.id) == []

    await clock.advance(1, settle=bot.service.wait_idle)
    await settle(emulator, bot)
    [posted] = dailies(cara, emulator.channel.id)
    day, key = day_key(posted)
    assert day == day_of(MIDNIGHT) and key in BUILTIN
    assert not posted.ephemeral and "🧩 Daily puzzle · 2033-05-19 · rated 1500?" in posted.text()
    assert "Nobody has solved it yet." in posted.text()
    assert posted.attachment_names == ["board.png"] and "**Your hand**" in posted.text()
    puzzle = BUILTIN[key]
    assert [b.custom_id for b in posted.buttons()] == [
        f"pzd:{day}:{key}:{c.decision}" for c in puzzle.choices
    ]

    solved = await answered(await ana.click(posted, f"pzd:{day}:{key}:{puzzle.solution}"))
    await settle(emulator, bot)
    assert solved.ephemeral and not ben.can_see(solved)
    assert "Your answer to the daily puzzle of 2033-05-19:" in solved.text()
    assert "✅ **Solved!**" in solved.text() and "Your puzzle rating: 1500? →" in solved.text()
    listed = ana.message(posted.id)
    assert f"✅ Solved by <@{ana.id}>." in listed.text()
    assert listed.attachment_names == ["board.png"]

    missed = await answered(await ben.click(listed, f"pzd:{day}:{key}:{puzzle.played}"))
    await settle(emulator, bot)
    assert missed.ephemeral and "❌ **Missed.**" in missed.text()
    assert f"✅ Solved by <@{ana.id}>." in ben.message(posted.id).text()
    assert f"<@{ben.id}>" not in ben.message(posted.id).text()

    again = await answered(await ana.click(listed, f"pzd:{day}:{key}:{puzzle.played}"))
    assert "You already answered this puzzle: your first answer counts." in again.text()
    forged_id = f"pzd:{day - 1}:{key}:{puzzle.solution}"  # a day whose puzzle this is not
    forged = await answered(
        await cara.forged_click(listed, f"pzd:{day}:{key}:{puzzle.played}", forged_id)
    )
    assert forged.ephemeral and "not one of this server's daily puzzles" in forged.text()
    standing = await bot.service.puzzles.standing(emulator.guild_id, cara.id)
    assert standing.attempts == 0  # the forged press changed nothing

    await clock.advance(86_400 / 2, settle=bot.service.wait_idle)
    await settle(emulator, bot)
    assert len(dailies(cara, emulator.channel.id)) == 1, "once a day"


async def test_a_restart_at_midnight_posts_the_day_once(emulator, start_bot):
    clock = ManualClock(start=START)
    bot = await start_bot(clock)
    cara = emulator.user("cara")
    await choose_channel(emulator, cara)
    await bot.close()
    await clock.advance(MIDNIGHT - START + 60)  # the bot is down at midnight

    restarted = await start_bot(clock)
    await clock.advance(1, settle=restarted.service.wait_idle)
    await settle(emulator, restarted)
    await clock.advance(3600, settle=restarted.service.wait_idle)
    await settle(emulator, restarted)

    [posted] = dailies(cara, emulator.channel.id)
    assert day_key(posted)[0] == day_of(MIDNIGHT)


async def test_a_channel_the_bot_cannot_reach_is_logged_once_and_the_alarm_kept(
    emulator, start_bot, caplog
):
    clock = ManualClock(start=START)
    bot = await start_bot(clock)
    gone = 4_242_424_242  # no such channel
    await bot.service.settings.set_guild_settings(
        GuildSettings(emulator.guild_id, puzzle_channel_id=gone)
    )
    await bot.service.daily_puzzles.follow_channel(emulator.guild_id)
    for midnight in (MIDNIGHT, MIDNIGHT + 86_400):  # two days
        await clock.advance(midnight - clock.now(), settle=bot.service.wait_idle)
        await settle(emulator, bot)

    assert dailies(emulator.user("cara"), emulator.channel.id) == []
    assert await bot.service.store.next_alarm_due() == MIDNIGHT + 2 * 86_400  # kept
    warned = [r for r in caplog.records if "daily puzzle cannot be posted" in r.getMessage()]
    assert len(warned) == 1 and str(gone) in warned[0].getMessage()
    refused = [str(f) for f in emulator.take_failures()]
    assert refused and all("Unknown Channel" in f for f in refused)
