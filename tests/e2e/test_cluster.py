"""Two `python -m bot` processes on one PostgreSQL database, as a sharded bot runs in
production: P0 holds shard 0 (the first guild, and every DM), P1 shard 1 ("Second Tea
House", guild B). A match in guild B is P1's to host, yet its players' DM panels reach P0:
the database is the authority, so either process applies any decision, once."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.play.words import board_text
from engine.model import MatchInfo, MatchStatus
from engine.rules import Phase
from tests.discord_emulator.fixtures import sharded_emulator  # noqa: F401
from tests.discord_emulator.server import DiscordEmulator, EmulatedGuild
from tests.e2e.cluster import (
    Cluster,
    Observer,
    PrivacyCheck,
    assert_no_hidden_card_in_public,
    eventually,
    live_dm_panel,
    play_by_dm,
    play_in_thread,
    shard_of_interactions,
    verb_of,
)
from tests.e2e.players import HANG_GUARD_SECONDS, Match, answered, labels

pytestmark = pytest.mark.slow  # a cluster of bot processes


@pytest.fixture
async def emulator(sharded_emulator: DiscordEmulator) -> AsyncIterator[DiscordEmulator]:  # noqa: F811
    """Every fixture of this package (its global-429 check too) gets the sharded emulator."""
    yield sharded_emulator


@pytest.fixture
async def observer(postgres_url: str) -> AsyncIterator[Observer]:
    watching = Observer(postgres_url)
    await watching.open()
    yield watching
    await watching.close()


@pytest.fixture
async def cluster(emulator, postgres_url, tmp_path: Path) -> AsyncIterator[Cluster]:
    """P0 and P1 on the test's database, long turn timers."""
    running = Cluster(emulator, postgres_url, tmp_path)
    await running.start_all()
    try:
        yield running
    finally:
        await running.close()


def guild_b(emulator: DiscordEmulator) -> EmulatedGuild:
    second: EmulatedGuild = emulator.other_guilds[0]
    return second


async def challenge_in_guild_b(
    emulator: DiscordEmulator, observer: Observer, cluster: Cluster, *, dms: bool
) -> Match:
    """ana challenges ben in guild B's #general (P1 answers), ben accepts; once its board is
    shown. With ``dms`` both first turn DM panels on (in guild B too)."""
    ana, ben = emulator.user("ana"), emulator.user("ben")
    channel = guild_b(emulator).channel
    if dms:
        for user in (ana, ben):
            reply = await answered(await user.slash("hanamikoji notify", dm=True, channel=channel))
            assert reply is not None and "DM" in reply.text()
    challenge = await answered(
        await ana.slash("hanamikoji challenge", opponent=ben, channel=channel)
    )
    assert challenge is not None
    await answered(await ben.click(challenge, labels("en")["accept"]))
    try:
        match = await observer.the_match(ana, ben)
        assert emulator.world.channel(match.thread_id).guild_id == guild_b(emulator).id
        hand = labels("en")["hand"]
        await eventually(
            lambda: any(
                b.label == hand for m in ana.messages(match.thread_id) for b in m.buttons()
            ),
            "board in the thread",
        )
        await observer.shown(emulator, "the start shown")
    except AssertionError as failure:
        seen = await observer.rows("SELECT id, status, thread_id, board_message_id FROM matches")
        raise AssertionError(
            f"{failure}; matches: {seen}; {emulator.failures}\n{cluster.output()}"
        ) from None
    return match


async def board_shows(observer: Observer, user, match: Match) -> None:
    """Until the board in the thread reads as the database's record of the match says
    (its text board, the deadline included while it runs)."""
    names = (match.players[0].name, match.players[1].name)
    said: list[str] = []

    async def same() -> bool:
        info = await observer.info(match.match_id)
        table = await observer.queries.public_view(match.match_id)
        deadline = info.turn_deadline if table.outcome is None else None
        expected = board_text("en", table, names, deadline=deadline)
        assert info.placement.board_message_id is not None
        shown = user.message(info.placement.board_message_id).text_displays()[-1]
        said[:] = [shown, expected]
        return shown == expected

    try:
        await eventually(same, "board as the database says")
    except AssertionError:
        raise AssertionError(f"board:\n{said[0]}\n\ndatabase:\n{said[1]}") from None


def results(match: Match) -> list:
    ana = match.players[0]
    rematch = "Rematch"
    return [
        m for m in ana.messages(match.thread_id) if any(b.label == rematch for b in m.buttons())
    ]


async def test_a_match_in_guild_b_is_played_through_dm_panels_that_reach_the_other_process(
    emulator, cluster, observer
):
    match = await challenge_in_guild_b(emulator, observer, cluster, dms=True)
    leaks = PrivacyCheck(emulator, observer, match)
    await leaks.check()
    rng = random.Random(7)
    by_dm: list[int] = []
    plays = 0
    for _ in range(80):
        if (await observer.info(match.match_id)).status is not MatchStatus.ACTIVE:
            break
        by_dm += await play_by_dm(emulator, observer, match, rng)
        plays += 1
        await leaks.check()
    await observer.shown(emulator, "the end shown")
    await leaks.check()

    info = await observer.info(match.match_id)
    assert info.status is MatchStatus.FINISHED, cluster.output()
    finished = await observer.store.finished_match(match.match_id)
    assert finished is not None
    (result,) = results(match)
    assert "🏆" in result.text() or "draw" in result.text()
    # Every decision stored once: one row per accepted press, numbered 1..version, none
    # played by the timer.
    rows = await observer.decisions(match.match_id)
    assert [r.seq for r in rows] == list(range(1, info.version + 1))
    assert not any(r.automatic for r in rows)
    assert len(rows) == plays, "each accepted press stored once, as its own decision"

    # Every DM panel of the match lost its buttons by the end, whichever process sent it
    # and whichever showed the move that retired it.
    def all_retired() -> bool:
        prefix = f"hk:{match.match_id}:"
        return not any(
            (b.custom_id or "").startswith(prefix)
            for user in match.players
            for message in user.dms()
            for b in message.buttons()
        )

    await eventually(all_retired, "every DM panel retired")

    # The final board shows what the database's record says.
    table = await observer.queries.public_view(match.match_id)
    assert table.outcome is not None
    await board_shows(observer, match.players[0], match)

    # The clicks crossed processes: every DM press went to shard 0 (P0); the challenge, the
    # accept and the notify commands in guild B to shard 1 (P1).
    shards = shard_of_interactions(emulator)
    assert by_dm and {shards[i] for i in by_dm} == {0}
    in_guild_b = [i for i in emulator.interactions.values() if i.guild_id == guild_b(emulator).id]
    assert in_guild_b and {shards[i.id] for i in in_guild_b} == {1}
    assert_no_hidden_card_in_public(emulator)

    # After its result the thread is closed as every finished match's is: left open, with
    # an hour's auto-archive (P0, which showed the end, holds no cache of guild B).
    thread = emulator.world.channel(match.thread_id)
    try:
        await eventually(lambda: thread.auto_archive_duration == 60, "thread closed after the end")
    finally:
        cluster.assert_no_traceback()  # why not, if it was not


async def test_a_hundred_identical_takes_through_both_processes_apply_once(
    emulator, cluster, observer
):
    match = await challenge_in_guild_b(emulator, observer, cluster, dms=True)
    rng = random.Random(3)
    await play_by_dm(emulator, observer, match, rng, action="3")  # a Gift: an offer waits
    chooser, version, phase = await observer.whose_turn(match)
    assert phase is Phase.GIFT_CHOICE

    board = await eventually(
        lambda: _with_take(chooser.messages(match.thread_id), match, version), "Take on the board"
    )
    dm_panel = await eventually(
        lambda: live_dm_panel(chooser, match.match_id, version), "Take in the DM panel"
    )
    take = next(b.custom_id for b in board.buttons() if verb_of(b.custom_id) == "take")
    assert take in [b.custom_id for b in dm_panel.buttons()], "the same Take in both places"

    mark = len(emulator.transcript)
    # All at once: 50 through guild B's thread (P1), 50 through the DM panel (P0).
    clicks = await asyncio.gather(
        *(chooser.click(board, take) for _ in range(50)),
        *(chooser.click(dm_panel, take) for _ in range(50)),
    )
    await asyncio.gather(*(c.first_response() for c in clicks))  # none failed
    await observer.shown(emulator, "the take shown")
    emulator.assert_no_failures()

    rows = await observer.decisions(match.match_id)
    assert len(rows) == version + 1 == 2, rows
    assert rows[-1].decision == take.rsplit(":", 1)[-1]
    info = await observer.info(match.match_id)
    assert info.version == version + 1

    shards = shard_of_interactions(emulator)
    assert sorted(shards[c.id] for c in clicks) == [0] * 50 + [1] * 50

    # 99 polite refusals; the one that counted said so (its DM panel may have been closed
    # since, when the turn moved on).
    refused = []
    for click in clicks:
        said = [m for m in [click.message, *click.followups] if m is not None]
        if any(m.ephemeral and "already settled" in m.text() for m in said):
            refused.append(click)
    assert len(refused) == 99, [
        [m.text()[:60] for m in [c.message, *c.followups] if m] for c in clicks if c not in refused
    ]
    took = [
        e
        for e in emulator.transcript.entries[mark:]
        if e.visibility.user_id == chooser.id and e.text().startswith("✅ You took")
    ]
    (winner,) = [c for c in clicks if c not in refused]
    if winner.original_message_id == board.id:
        # Taken on the board: the board, edited, says it; no private note besides.
        assert f"**{chooser.name}** took" in chooser.message(board.id).text()
        assert took == [], [str(e) for e in took]
    else:
        assert len({e.message_id for e in took}) == 1, [str(e) for e in took]
    cluster.assert_no_traceback()
    assert_no_hidden_card_in_public(emulator)


def _with_take(messages, match: Match, version: int):
    for message in reversed(messages):
        if message.ephemeral:
            continue
        for button in message.buttons():
            cid = button.custom_id or ""
            if cid.startswith(f"hk:{match.match_id}:{version}:take:"):
                return message
    return None


TURN_SECONDS = 12.0


async def test_a_deadline_of_a_killed_process_fires_in_the_other_and_the_match_goes_on(
    emulator, postgres_url, tmp_path, observer
):
    cluster = Cluster(
        emulator,
        postgres_url,
        tmp_path,
        turn_timer_seconds=TURN_SECONDS,
        min_turn_seconds=1,
        reminder_before_seconds=4,
    )
    await cluster.start_all()
    try:
        match = await challenge_in_guild_b(emulator, observer, cluster, dms=False)
        mover, version, _ = await observer.whose_turn(match)
        assert version == 0
        p1 = cluster.processes[1]
        await p1.kill()  # P1, which holds guild B and showed the start, is gone

        # While P1 is dead the deadline comes: P0 claims it and the AI plays for the mover.
        rows = await eventually(
            lambda: observer.decisions(match.match_id), "automatic decision", TURN_SECONDS + 15
        )
        assert not p1.alive
        assert len(rows) == 1 and rows[0].automatic, rows
        ran_out = f"{mover.name} ran out of time"
        shown = await eventually(
            lambda: [m for m in mover.messages(match.thread_id) if ran_out in m.text()],
            "the timer's move posted by P0",
        )
        assert len(shown) == 1 and not p1.alive
        reminded = [
            m for m in mover.messages(match.thread_id) if "your time for this turn" in m.text()
        ]
        assert reminded and mover.mention in reminded[0].content, "P0 sent the reminder too"
        await observer.shown(emulator, "the timer's move shown")

        # P1 is back; a member plays in guild B's thread, which only P1 hears.
        await cluster.start(1)
        before = len(emulator.interactions)
        await play_in_thread(emulator, observer, match, random.Random(5))
        rows = await observer.decisions(match.match_id)
        assert [r.automatic for r in rows] == [True, False], rows
        info = await observer.info(match.match_id)
        assert info.version == 2
        await board_shows(observer, mover, match)
        shards = shard_of_interactions(emulator)
        played = list(emulator.interactions.values())[before:]
        assert played and {shards[i.id] for i in played} == {1}
        cluster.assert_no_traceback()
        assert_no_hidden_card_in_public(emulator)
    finally:
        await cluster.close()


async def test_two_processes_starting_at_once_take_turns_to_identify(
    emulator, postgres_url, tmp_path
):
    """Discord starts one session per 5 s (max_concurrency 1) for the whole bot and answers
    one more with an invalid session; the processes take turns through the database."""
    cluster = Cluster(emulator, postgres_url, tmp_path)
    try:
        await asyncio.gather(cluster.start(0), cluster.start(1))
        gateway = emulator.gateway
        assert gateway.refused_identifies == 0, cluster.output()
        assert gateway.session_starts == 2
        assert sorted(s.shard for s in gateway.live_sessions) == [(0, 2), (1, 2)]
    finally:
        await cluster.close()


async def test_fifty_members_pressing_join_on_one_seat_at_once_start_one_match(
    emulator, postgres_url, tmp_path, observer
):
    """Discord sends every interaction of a server to the shard holding it, so the presses
    all reach P1 here; the race between processes is the database's (its conditional start,
    tested with two services in tests/engine/service/test_shared_database.py)."""
    guild = guild_b(emulator)
    joiners = [emulator.add_user(f"member{i:02d}") for i in range(50)]
    for user in joiners:
        emulator.world.join(user.id, guild.id)
    cluster = Cluster(emulator, postgres_url, tmp_path)
    await cluster.start_all()
    try:
        ana = emulator.user("ana")
        seat = await answered(await ana.slash("hanamikoji open", channel=guild.channel))
        assert [b.label for b in seat.buttons()] == ["Join", "Cancel"]

        async def posted() -> bool:  # only a seat whose message id is stored is listed
            found = await observer.store.open_matches_of(ana.id)
            return bool(found) and found[0].placement.board_message_id is not None

        await eventually(posted, "the seat's message id stored")
        # Half press Join on the seat, half in their own `/hanamikoji seats`.
        lists = [
            await answered(await u.slash("hanamikoji seats", channel=guild.channel))
            for u in joiners[25:]
        ]
        clicks = await asyncio.gather(
            *(u.click(seat, "Join") for u in joiners[:25]),
            *(u.click(listed, "Join 1") for u, listed in zip(joiners[25:], lists, strict=True)),
        )
        await asyncio.gather(*(c.first_response() for c in clicks))  # none failed

        async def taken() -> list[MatchInfo]:
            found = await observer.store.open_matches_of(ana.id)
            return found if found and found[0].status is MatchStatus.ACTIVE else []

        (info,) = await eventually(taken, "the seat taken")
        await observer.shown(emulator, "the match shown")
        emulator.assert_no_failures()
        taker = next(u for u in joiners if u.id == info.players[1])
        assert await observer.value("SELECT COUNT(*) FROM matches") == 1

        def refusals() -> int:
            said = [
                [m.text() for m in [c.message, *c.followups] if m is not None and m.ephemeral]
                for c in clicks
            ]
            return sum(any("already taken" in t for t in s) for s in said)

        # Every other press is told, once the winner's start is committed.
        await eventually(lambda: refusals() == 49, "49 presses told the seat is taken")
        await emulator.idle(max_wait=HANG_GUARD_SECONDS)
        assert refusals() == 49
        shown = ana.message(seat)
        assert f"{taker.name} took ana's seat" in shown.text() and shown.buttons() == []
        match = await observer.the_match(ana, taker)
        assert emulator.world.channel(match.thread_id).parent_id == guild.channel.id
        assert len(emulator.world.threads(guild.id)) == 1, "one match, one thread"
        shards = shard_of_interactions(emulator)
        assert {shards[c.id] for c in clicks} == {1}
        cluster.assert_no_traceback()
        assert_no_hidden_card_in_public(emulator)
    finally:
        await cluster.close()
