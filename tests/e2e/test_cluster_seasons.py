"""Seasons on two `python -m bot` processes sharing one PostgreSQL database: each process
looks for due alarms every second, so both see a season's end come; the claim of its alarm
in the database decides which one ends it, and that one posts its podium, exactly once.

The processes run on the real clock, so the test does not wait for a season to run out: it
moves the season's end and its alarm to the present in the database (the boundary arriving), as the
emulator's clock would in a process of the test's own."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.discord_emulator.fixtures import sharded_emulator  # noqa: F401
from tests.discord_emulator.server import DiscordEmulator
from tests.e2e.cluster import Cluster, Observer, eventually
from tests.e2e.players import answered
from tests.e2e.test_cluster import challenge_in_guild_b, emulator, guild_b, observer  # noqa: F401

pytestmark = pytest.mark.slow  # a cluster of bot processes

MANAGE_SERVER = 1 << 5


@pytest.fixture
async def cluster(emulator, postgres_url, tmp_path: Path) -> AsyncIterator[Cluster]:  # noqa: F811
    """P0 and P1 on the test's database; one rated match ranks a member in a season."""
    running = Cluster(emulator, postgres_url, tmp_path, season_min_games=1)
    await running.start_all()
    try:
        yield running
    finally:
        await running.close()


def podiums(running: DiscordEmulator, number: int) -> list:
    channel = guild_b(running).channel
    heading = f"Season {number} is over"
    return [m for m in running.user("cara").messages(channel) if heading in m.text()]


async def boundary_arrives(watching: Observer, guild_id: int, number: int) -> None:
    """The running season's end is now (in the database's own time: the processes compare
    it with theirs, which is the same machine's): the season's end and its alarm."""
    moved = await watching.value(
        "UPDATE seasons SET ends_at = EXTRACT(EPOCH FROM clock_timestamp())"
        " WHERE guild_id = $1 AND number = $2 AND ended_at IS NULL RETURNING ends_at",
        guild_id,
        number,
    )
    assert moved is not None, f"season {number} is not running"
    alarm = await watching.value(
        "UPDATE alarms SET due_at = $2 WHERE kind = 'season-end' AND subject = $1"
        " RETURNING subject",
        guild_id,
        moved,
    )
    assert alarm == guild_id, f"season {number} has no end alarm"


async def test_two_processes_post_each_podium_once(emulator, observer, cluster):  # noqa: F811
    guild = guild_b(emulator)
    cara = emulator.user("cara")
    cara.grant(MANAGE_SERVER)
    shown = await answered(
        await cara.slash(
            "hanamikoji settings",
            season_length="monthly",
            season_channel=guild.channel,
            channel=guild.channel,
        )
    )
    assert "Seasons: monthly" in shown.text()
    match = await challenge_in_guild_b(emulator, observer, cluster, dms=False)
    ana, ben = match.players
    ask = await answered(await ana.slash("hanamikoji resign", channel=match.thread_id))
    await answered(await ana.click(ask, "Yes, resign"))
    await observer.shown(emulator, "the resignation shown")

    await boundary_arrives(observer, guild.id, 1)
    [first] = await eventually(lambda: podiums(emulator, 1), "podium of season 1")
    assert f"🥇 **1.** <@{ben.id}>" in first.text() and first.attachment_names == ["podium.png"]
    # Season 2 began with the end; its end is claimed and posted the same way. Both
    # processes polled in between, so a second post of season 1 would be there by now.
    await boundary_arrives(observer, guild.id, 2)
    await eventually(lambda: podiums(emulator, 2), "podium of season 2")
    await eventually(
        lambda: observer.value("SELECT bool_and(podium_shown) FROM seasons WHERE number <= 2"),
        "both podiums marked shown",
    )
    await emulator.idle()

    assert len(podiums(emulator, 1)) == 1 and len(podiums(emulator, 2)) == 1
    ended_by = [b.shard for b in cluster.every_process if b"season 1 of server" in b.output]
    assert len(ended_by) == 1, f"season 1 ended by one process:\n{cluster.output()}"
    cluster.assert_no_traceback()
