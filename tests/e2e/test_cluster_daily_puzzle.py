"""The daily puzzle on two `python -m bot` processes sharing one PostgreSQL database: both
look for due alarms every second, so both see a server's midnight come; the claim of its
"daily-puzzle" alarm decides which one posts, the day's row (its key the server and the
day) keeps a second try from posting, and the process killed while posting shows it again
at its restart with the same nonce, which Discord answers with the message already there.

The processes run on the real clock, so the test does not wait for midnight: it moves the
server's alarm, as the service stored it, to two seconds from now (the database's own
time, which is the processes' machine's). The alarm carries no day: the process that rings
it takes the day from its clock (``day_of(now)``), so a due time of today stands for today,
and the row, the message's buttons and the next alarm (the midnight after the post) all
say the day the post was made, read back from the database rather than assumed."""

from __future__ import annotations

import asyncio
import time

import pytest

from engine.puzzles.builtin import builtin_puzzles
from engine.service.puzzles.daily import DAILY_PUZZLE, day_of, midnight_after
from tests.discord_emulator.fixtures import sharded_emulator  # noqa: F401
from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.e2e.cluster import Cluster, Observer, eventually
from tests.e2e.players import HANG_GUARD_SECONDS, answered
from tests.e2e.test_cluster import cluster, emulator, guild_b, observer  # noqa: F401

pytestmark = pytest.mark.slow  # a cluster of bot processes

MANAGE_SERVER = 1 << 5
BUILTIN = {p.key: p.puzzle for p in builtin_puzzles()}


def dailies(user, channel_id: int, day: int | None = None) -> list[MessageSnapshot]:
    """The daily puzzle's public messages in the channel (of ``day`` only, if given)."""
    found = [m for m in user.messages(channel_id) if "🧩 Daily puzzle ·" in m.text()]
    return [m for m in found if day is None or day_key(m)[0] == day]


def day_key(message: MessageSnapshot) -> tuple[int, str]:
    """The day and the puzzle a public message poses, from its buttons' ids."""
    ((day, key),) = {tuple((b.custom_id or "").split(":")[1:3]) for b in message.buttons()}
    return int(day), key


async def ring_soon(watching: Observer, guild_id: int, seconds: float) -> float:
    """The server's daily-puzzle alarm due ``seconds`` from now, unclaimed, first try: what
    the service writes (``alarms.SET``), only sooner. Returns the new due time."""
    due = await watching.value(
        "UPDATE alarms SET due_at = EXTRACT(EPOCH FROM clock_timestamp()) + $3,"
        " claimed_until = NULL, attempt = 0 WHERE kind = $1 AND subject = $2 RETURNING due_at",
        DAILY_PUZZLE,
        guild_id,
        seconds,
    )
    assert due is not None, f"server {guild_id} has no daily-puzzle alarm"
    return float(due)


async def alarm_of(watching: Observer, guild_id: int) -> tuple[float, float | None] | None:
    """(due time, claimed until) of the server's daily-puzzle alarm."""
    rows = await watching.rows(
        "SELECT due_at, claimed_until FROM alarms WHERE kind = $1 AND subject = $2",
        DAILY_PUZZLE,
        guild_id,
    )
    return None if not rows else (rows[0]["due_at"], rows[0]["claimed_until"])


async def test_two_processes_post_the_day_once_and_a_restart_shows_it_once(
    emulator,  # noqa: F811
    cluster: Cluster,  # noqa: F811
    observer: Observer,  # noqa: F811
):
    guild = guild_b(emulator)
    ana, ben, cara = emulator.user("ana"), emulator.user("ben"), emulator.user("cara")
    cara.grant(MANAGE_SERVER)
    shown = await answered(
        await cara.slash("hanamikoji settings", puzzle_channel=guild.channel, channel=guild.channel)
    )
    assert f"Daily puzzle (00:00 UTC) posted in: <#{guild.channel.id}>" in shown.text()
    chosen_at = time.time()
    alarm = await alarm_of(observer, guild.id)
    assert alarm is not None and alarm[0] == midnight_after(chosen_at), alarm

    # Discord posts the message but its answer waits: the process that posts it is stuck
    # between Discord and confirming the announcement, whose row names that process.
    held = emulator.faults.hold(
        f"/channels/{guild.channel.id}/messages", method="POST", answer_only=True
    )
    await ring_soon(observer, guild.id, 2.0)
    async with asyncio.timeout(HANG_GUARD_SECONDS):
        await held.arrived.wait()
    [(origin, key)] = [
        tuple(row)
        for row in await observer.rows(
            "SELECT origin, key FROM announcements"
            " WHERE match_id IS NULL AND key LIKE 'daily-puzzle@%'"
        )
    ]
    poster = {f"shard {shard}": shard for shard in cluster.processes}[origin]
    [(day, puzzle_key, posted_at)] = [
        tuple(row)
        for row in await observer.rows(
            "SELECT day, key, posted_at FROM daily_puzzles WHERE guild_id = $1", guild.id
        )
    ]
    assert key == f"daily-puzzle@{guild.id}:{day}" and day == day_of(posted_at)
    # Recorded with the day: the next midnight's alarm, unclaimed.
    assert await alarm_of(observer, guild.id) == (midnight_after(posted_at), None)
    [posted] = dailies(cara, guild.channel.id)
    assert day_key(posted) == (day, puzzle_key) and puzzle_key in BUILTIN
    assert not posted.ephemeral and "Nobody has solved it yet." in posted.text()

    # The poster dies before reading Discord's answer; at its restart it shows its
    # announcement again, and Discord returns the message it has for that nonce.
    await cluster.processes[poster].kill()
    held.release()
    await cluster.start(poster)
    await observer.shown(emulator, "the day's puzzle shown after the restart")
    assert emulator.nonces.reused == 1, "shown again after the restart, not posted again"
    assert [m.id for m in dailies(cara, guild.channel.id, day)] == [posted.id]

    # Were the day's alarm to ring again, whichever process claimed it would find the
    # day's row, post nothing and set the next midnight again.
    await ring_soon(observer, guild.id, 0.0)

    async def next_midnight_set() -> bool:
        return await alarm_of(observer, guild.id) == (midnight_after(posted_at), None)

    await eventually(next_midnight_set, "the next midnight set by the second ring")
    await observer.shown(emulator, "nothing more to show")
    assert [m.id for m in dailies(cara, guild.channel.id)] == [posted.id]
    assert (
        await observer.value("SELECT COUNT(*) FROM daily_puzzles WHERE guild_id = $1", guild.id)
        == 1
    )

    # A member answers from the public message (P1 holds the server): privately told,
    # and the message names them, once.
    puzzle = BUILTIN[puzzle_key]
    solved = await answered(await ana.click(posted, f"pzd:{day}:{puzzle_key}:{puzzle.solution}"))
    assert solved.ephemeral and not ben.can_see(solved)
    assert "✅ **Solved!**" in solved.text(), solved.text()
    await eventually(
        lambda: f"✅ Solved by <@{ana.id}>." in ana.message(posted.id).text(),
        "the solver named on the public message",
    )
    await observer.shown(emulator, "the answer shown")
    assert ana.message(posted.id).text().count(f"<@{ana.id}>") == 1
    assert [m.id for m in dailies(cara, guild.channel.id)] == [posted.id]
    cluster.assert_no_traceback()
