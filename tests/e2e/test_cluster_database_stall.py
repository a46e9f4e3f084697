"""Two `python -m bot` processes on one PostgreSQL database whose matches table another
connection holds locked (a migration, a stuck job) for longer than Discord's three seconds:
every click and command is answered in time, the player is told plainly that the database
is not answering, nothing moves, and once the lock is gone play resumes with no restart.
Each process says so once in its log each way, without a traceback."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from bot.words.i18n import text
from tests.discord_emulator.fixtures import sharded_emulator  # noqa: F401
from tests.discord_emulator.server import DiscordEmulator
from tests.e2e.cluster import Cluster, Observer, eventually
from tests.e2e.players import board_message, labels
from tests.e2e.test_cluster import challenge_in_guild_b

NOT_ANSWERING = text("en", "database.not_answering")


@pytest.fixture
async def emulator(sharded_emulator: DiscordEmulator) -> AsyncIterator[DiscordEmulator]:  # noqa: F811
    yield sharded_emulator


@pytest.fixture
async def observer(postgres_url: str) -> AsyncIterator[Observer]:
    watching = Observer(postgres_url)
    await watching.open()
    yield watching
    await watching.close()


@pytest.fixture
async def cluster(emulator, postgres_url, tmp_path: Path) -> AsyncIterator[Cluster]:
    """P0 and P1, each giving up on a statement or a connection after 1 s."""
    quick = {"command_timeout_seconds": 1.0, "acquire_timeout_seconds": 1.0}
    running = Cluster(emulator, postgres_url, tmp_path, database=quick)
    await running.start_all()
    try:
        yield running
    finally:
        await running.close()


def lines_saying(cluster: Cluster, shard: int, words: str) -> int:
    output = cluster.processes[shard].output.decode(errors="replace")
    return sum(words in line for line in output.splitlines())


async def test_a_locked_table_leaves_no_click_unanswered_and_play_resumes(
    emulator, observer, cluster, postgres_url
):
    match = await challenge_in_guild_b(emulator, observer, cluster, dms=False)
    mover, version, _ = await observer.whose_turn(match)
    other = next(u for u in match.players if u is not mover)
    hand = labels("en")["hand"]

    holder = await asyncpg.connect(postgres_url)
    locked = holder.transaction()
    await locked.start()
    await holder.execute("LOCK TABLE matches IN ACCESS EXCLUSIVE MODE")
    try:
        clicks = [
            await mover.click(board_message(mover, match.thread_id), hand),
            await other.click(board_message(other, match.thread_id), hand),
            await mover.slash("hanamikoji hand", channel=match.thread_id),
        ]
        for click in clicks:  # InteractionFailed if one had no first response in 3 s
            await click.first_response()
        for click in clicks:
            answer = await click.answer(wait=30)
            assert answer is not None and answer.ephemeral
            assert answer.text() == NOT_ANSWERING
    finally:
        await locked.rollback()
        await holder.close()

    # No restart: the same click now opens the mover's panel, and nothing moved meanwhile.
    panel = await (await mover.click(board_message(mover, match.thread_id), hand)).answer(wait=30)
    assert panel is not None and "Your hand" in panel.text()
    assert (await observer.whose_turn(match))[1] == version

    # P1 (guild B's shard) answered the clicks: it says once that the database stopped
    # answering and once that it answers again. P0 may have only waited on it (its polls
    # outlasting the lock): then it says nothing, never one line without the other.
    try:
        await eventually(
            lambda: lines_saying(cluster, 1, "answers again") == 1, "P1 saying it is back"
        )
    except AssertionError as failure:
        raise AssertionError(f"{failure}\n{cluster.output()}") from None
    assert lines_saying(cluster, 1, "is not answering") == 1, cluster.output()
    await eventually(
        lambda: (
            lines_saying(cluster, 0, "is not answering")
            == lines_saying(cluster, 0, "answers again")
            <= 1
        ),
        "P0's lines in pairs",
    )
    cluster.assert_no_traceback()
