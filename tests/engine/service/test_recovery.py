"""Durability: restarts rebuild matches by replay; SIGKILL loses no acknowledged decision."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import sys
from pathlib import Path

import pytest

from engine.service import MatchBroken, MatchService, MatchStatus, ServiceConfig
from engine.store.sqlite import SqliteMatchStore

from .conftest import Recorder, new_match, play_one, play_to_end

REPO = Path(__file__).resolve().parents[3]


async def test_a_restart_rebuilds_every_unfinished_match_by_replay(make_service):
    first = await make_service()
    rng = random.Random(6)
    match = await new_match(first)
    ai_match = await first.commands.start_ai_match(303, "easy", guild_id=1, channel_id=2)
    for _ in range(7):
        await play_one(first, match.match_id, rng)
    await first.placements.set_location(match.match_id, thread_id=55, board_message_id=66)
    await first.wait_idle()
    views = [await first.queries.view_for(match.match_id, user) for user in match.players]
    ai_view = await first.queries.view_for(ai_match.match_id, 303)
    await first.close()

    second = await make_service()

    assert [await second.queries.view_for(match.match_id, u) for u in match.players] == views
    assert await second.queries.view_for(ai_match.match_id, 303) == ai_view
    assert (await second.placements.match_in_thread(55)).placement.board_message_id == 66
    await play_to_end(second, match.match_id, rng)
    await play_to_end(second, ai_match.match_id, rng)


async def test_a_match_that_no_longer_replays_is_set_aside_and_the_others_load(
    make_service, db_path
):
    first = await make_service()
    rng = random.Random(9)
    good = await new_match(first, 101, 202)
    bad = await new_match(first, 303, 404)
    for _ in range(4):
        await play_one(first, good.match_id, rng)
        await play_one(first, bad.match_id, rng)
    await first.close()
    with sqlite3.connect(db_path) as conn:  # a decision the engine does not accept any more
        conn.execute(
            "UPDATE decisions SET decision = '4AAAA' WHERE match_id = ? AND seq = 2",
            (bad.match_id,),
        )
    conn.close()

    recorder = Recorder()
    second = await make_service(recorder=recorder)

    assert list(second.broken) == [bad.match_id]
    assert "decision 2 ('4AAAA')" in second.broken[bad.match_id]
    await second.wait_idle()
    assert [e.match_id for e in recorder.of(MatchBroken)] == [bad.match_id]
    assert (await second.queries.match_info(bad.match_id)).status is MatchStatus.BROKEN
    await play_to_end(second, good.match_id, rng)


async def _run_child(db: Path, seed: int, kill_after: int, linger: float) -> list[str]:
    """Start a bot process, SIGKILL it after ``kill_after`` acks; return every line it printed."""
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.engine.service.crash_child",
        str(db),
        str(seed),
        cwd=REPO,
        stdout=asyncio.subprocess.PIPE,
    )
    assert child.stdout is not None
    lines = []
    ready = (await asyncio.wait_for(child.stdout.readline(), 30)).decode()
    assert ready == "ready broken=0\n", ready
    while sum(line.startswith("ack") for line in lines) < kill_after:
        line = (await asyncio.wait_for(child.stdout.readline(), 30)).decode()
        assert line, "the child stopped by itself"
        lines.append(line)
    if linger:
        await asyncio.sleep(linger)  # let the kill land mid-commit, not only between acks
    child.kill()
    rest, _ = await child.communicate()
    assert child.returncode == -9
    return lines + rest.decode().splitlines(keepends=True)


@pytest.mark.slow
async def test_sigkill_at_random_points_loses_no_acknowledged_decision(tmp_path):
    db = tmp_path / "crash.sqlite3"
    rng = random.Random(2024)
    acked: dict[tuple[int, int], str] = {}
    resigned: set[int] = set()
    for point in range(22):
        kill_after = rng.randrange(0, 60)
        linger = rng.choice([0.0, 0.0, 0.001, 0.003])
        for line in await _run_child(db, point, kill_after, linger):
            words = line.split()
            if words[0] == "ack" and words[2] == "resign":
                resigned.add(int(words[1]))
            elif words[0] == "ack":
                acked[int(words[1]), int(words[2])] = words[3]
    assert len(acked) > 200

    service = MatchService(SqliteMatchStore(db), ServiceConfig(max_active_matches=1000))
    await service.start()
    try:
        assert service.broken == {}
        match_ids = {match_id for match_id, _ in acked} | resigned
        for match_id in sorted(match_ids):
            stored = await service.store.decisions(match_id)
            info = await service.queries.match_info(match_id)
            assert [d.seq for d in stored] == list(range(1, len(stored) + 1))
            assert info.version == len(stored)  # the match row moved with its log
            for d in stored:
                if (match_id, d.seq) in acked:
                    assert acked.pop((match_id, d.seq)) == d.decision
            if info.status is MatchStatus.FINISHED:
                assert await service.store.finished_match(match_id) is not None
            else:
                assert info.status is MatchStatus.ACTIVE and match_id not in resigned
        assert acked == {}, f"acknowledged but lost: {sorted(acked)[:5]}"
        play = random.Random(1)
        for user in (1, 3, 5, 9):
            for match in await service.queries.open_matches_for(user):
                if match.status is MatchStatus.PENDING:  # killed between challenge and accept
                    await service.challenges.accept(match.match_id, match.players[1])
                await play_to_end(service, match.match_id, play)
        for user in (1, 2, 3, 4, 5, 6, 9):
            assert await service.queries.open_matches_for(user) == []
    finally:
        await service.close()
