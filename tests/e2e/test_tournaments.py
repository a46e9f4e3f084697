"""A tournament as members see it in Discord: the registration message and its buttons,
refusals in private, the event's thread with each round's pairings, matches in their own
threads, and the podium with the standings picture."""

from __future__ import annotations

from dataclasses import replace

from engine.model import TournamentStatus
from engine.service.clock import ManualClock
from engine.service.events import RoundPaired, TournamentStarted
from tests.e2e.players import answered, settle

MANAGE_SERVER = 1 << 5


async def resign(emulator, bot, match_id: int, loser) -> None:
    """The loser gives up in the match's own thread, as a member would."""
    info = await bot.service.queries.match_info(match_id)
    assert info.placement.thread_id is not None, "each tournament match has its own thread"
    ask = await answered(await loser.slash("hanamikoji resign", channel=info.placement.thread_id))
    await answered(await loser.click(ask, "Yes, resign"))
    await settle(emulator, bot)


async def test_a_knockout_of_four_from_registration_to_podium(emulator, bot) -> None:
    ana, ben, cara = emulator.user("ana"), emulator.user("ben"), emulator.user("cara")
    dan = emulator.add_user("dan")
    refused = await answered(
        await ben.slash("hanamikoji tournament create", name="Cup", format="knockout")
    )
    assert refused.ephemeral and "Manage Server" in refused.text()

    ana.grant(MANAGE_SERVER)
    registration = await answered(
        await ana.slash("hanamikoji tournament create", name="Autumn Cup", format="knockout")
    )
    assert not registration.ephemeral
    assert "Autumn Cup" in registration.text() and "Knockout" in registration.text()
    assert [b.label for b in registration.buttons()] == ["Join", "Leave", "Start"]

    too_few = await answered(await ana.click(registration, "Start"))
    assert too_few.ephemeral and "at least 2 players" in too_few.text()
    for member in (ana, ben, cara, dan):
        await answered(await member.click(registration, "Join"))
    twice = await answered(await ben.click(registration, "Join"))
    assert twice.ephemeral and "already registered" in twice.text()
    assert not cara.can_see(twice)
    shown = ana.message(registration)
    assert "Players (4)" in shown.text() and "dan" in shown.text()
    organiser_leaving = await answered(await ana.click(registration, "Leave"))
    assert "cancel it" in organiser_leaving.text()
    stranger = await answered(await ben.click(registration, "Start"))
    assert "Only the tournament's organiser" in stranger.text()

    await answered(await ana.click(registration, "Start"))
    await settle(emulator, bot)
    assert ana.message(registration).buttons() == []  # registration closed
    event = await bot.service.tournaments.latest_in(emulator.guild_id)
    assert event is not None and event.status is TournamentStatus.RUNNING
    assert event.thread_id is not None
    said = "\n".join(m.text() for m in ana.messages(event.thread_id))
    assert "Round 1" in said and "Table 1:" in said and "Table 2:" in said

    # Seeds by rating (all new: joining order): 1 v 4 and 2 v 3; the lower seeds win.
    games = await bot.service.tournaments.games(event.tournament_id)
    users = {u.id: u for u in (ana, ben, cara, dan)}
    for game in games:
        assert game.match_id is not None and game.second is not None
        seeds_first = [ana.id, ben.id, cara.id, dan.id]
        higher = min((game.first, game.second), key=seeds_first.index)
        await resign(emulator, bot, game.match_id, users[higher])
    said = "\n".join(m.text() for m in ana.messages(event.thread_id))
    assert "Round 2" in said
    [final] = [g for g in await bot.service.tournaments.games(event.tournament_id) if g.round == 2]
    assert {final.first, final.second} == {cara.id, dan.id}
    assert final.match_id is not None
    await resign(emulator, bot, final.match_id, dan)

    last = ana.messages(event.thread_id)[-1]
    assert "Autumn Cup" in last.text() and "is over" in last.text()
    assert "🥇 cara" in last.text() and "🥈 dan" in last.text()
    [(filename, png)] = last.attachments
    assert filename == "standings.png" and png.startswith(b"\x89PNG")
    standings = await answered(await ben.slash("hanamikoji tournament standings"))
    assert standings.ephemeral and "1. cara" in standings.text()
    finished = await bot.service.tournaments.tournament(event.tournament_id)
    assert finished.status is TournamentStatus.FINISHED
    assert "over" in ana.message(registration).text()


async def test_an_eight_player_swiss_of_three_rounds_through_a_withdrawal_a_timeout_and_a_restart(
    emulator, start_bot
) -> None:
    clock = ManualClock(start=2_000_000_000.0)
    settings = {"turn_timer_seconds": 3600, "expiry_policy": "forfeit"}
    bot = await start_bot(clock=clock, **settings)
    members = [emulator.user(name) for name in ("ana", "ben", "cara")]
    members += [emulator.add_user(name) for name in ("dan", "eve", "fay", "gus", "hal")]
    by_id = {member.id: member for member in members}
    ana = members[0]
    ana.grant(MANAGE_SERVER)
    registration = await answered(
        await ana.slash(
            "hanamikoji tournament create", name="Spring Swiss", format="swiss", rounds=3
        )
    )
    assert "Rounds: 3" in registration.text()
    for member in members:
        await answered(await member.click(registration, "Join"))
    assert "Players (8)" in ana.message(registration).text()
    await answered(await ana.click(registration, "Start"))
    await settle(emulator, bot)
    event = await bot.service.tournaments.latest_in(emulator.guild_id)
    assert event is not None and event.thread_id is not None
    tid = event.tournament_id

    async def tables(round_number: int):
        games = await bot.service.tournaments.games(tid)
        return [g for g in games if g.round == round_number]

    # Round 1: three tables resign; at the fourth nobody moves, and the turn timer ends it.
    round_1 = await tables(1)
    assert len(round_1) == 4 and all(g.second is not None for g in round_1)
    for game in round_1[:3]:
        await resign(emulator, bot, game.match_id, by_id[game.second])
    assert await tables(2) == []
    await clock.advance(3601, settle=bot.service.wait_idle)
    await settle(emulator, bot)
    timed_out = await bot.service.store.finished_match(round_1[3].match_id)
    assert timed_out is not None and timed_out.reason.value == "timeout"

    # Round 2: a player leaves mid-round (their match is lost), one table finishes...
    round_2 = await tables(2)
    assert len(round_2) == 4
    leaver = by_id[round_2[0].first]
    left = await answered(await leaver.slash("hanamikoji tournament leave"))
    assert left.ephemeral and "You have left" in left.text()
    await settle(emulator, bot)
    said = "\n".join(m.text() for m in ana.messages(event.thread_id))
    assert "has withdrawn" in said
    await resign(emulator, bot, round_2[1].match_id, by_id[round_2[1].second])
    await resign(emulator, bot, round_2[2].match_id, by_id[round_2[2].first])

    # ...and the bot restarts before the round's last match ends: the new process
    # finishes the round and pairs round 3 from the database.
    await bot.close()
    bot = await start_bot(clock=clock, **settings)
    await settle(emulator, bot)
    await resign(emulator, bot, round_2[3].match_id, by_id[round_2[3].second])
    round_3 = await tables(3)
    assert len(round_3) == 4, "seven players: three tables and a bye"
    assert [g.second for g in round_3].count(None) == 1
    assert all(leaver.id not in (g.first, g.second) for g in round_3)
    met = {frozenset((g.first, g.second)) for g in round_1 + round_2}
    assert all(frozenset((g.first, g.second)) not in met for g in round_3 if g.second)
    for game in round_3:
        if game.second is not None:
            await resign(emulator, bot, game.match_id, by_id[game.first])

    last = ana.messages(event.thread_id)[-1]
    assert "Spring Swiss" in last.text() and "is over" in last.text()
    assert "🥇" in last.text() and "(withdrawn)" in last.text()
    [(filename, png)] = last.attachments
    assert filename == "standings.png" and png.startswith(b"\x89PNG")
    said = "\n".join(m.text() for m in ana.messages(event.thread_id))
    assert all(f"**Round {n}**" in said for n in (1, 2, 3))
    finished = await bot.service.tournaments.tournament(tid)
    assert finished.status is TournamentStatus.FINISHED


async def test_a_start_shown_again_after_a_stop_keeps_one_thread_and_posts_nothing_twice(
    emulator, bot
) -> None:
    # A bot that stopped after showing the start and the pairings and before confirming
    # them is handed them again by the outbox: the thread it opened is the place again,
    # and the messages' nonces let Discord return the ones already posted.
    ana, ben = emulator.user("ana"), emulator.user("ben")
    ana.grant(MANAGE_SERVER)
    registration = await answered(
        await ana.slash("hanamikoji tournament create", name="Spring Cup", format="knockout")
    )
    for member in (ana, ben):
        await answered(await member.click(registration, "Join"))
    await answered(await ana.click(registration, "Start"))
    await settle(emulator, bot)
    started = await bot.service.tournaments.latest_in(emulator.guild_id)
    assert started is not None and started.thread_id is not None
    threads = [t.id for t in emulator.world.threads(emulator.guild_id)]
    said = [m.text() for m in ana.messages(started.thread_id)]

    games = await bot.service.tournaments.games(started.tournament_id)
    paired = tuple(replace(game, match_id=None) for game in games)  # as committed
    # As MatchService.start publishes what was never confirmed:
    bot.service._ctx.bus.publish(TournamentStarted(started, (ana.id, ben.id)))
    bot.service._ctx.bus.publish(RoundPaired(started, 1, paired))
    await settle(emulator, bot)

    assert [t.id for t in emulator.world.threads(emulator.guild_id)] == threads
    assert [m.text() for m in ana.messages(started.thread_id)] == said
