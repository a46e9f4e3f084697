"""Time controls as members see them through Discord, on the emulator's clock (no sleeps):
a clock match where a player runs out, a turn-based match over several virtual days ended
by a claim, a vacation pausing a turn-based clock, a tournament played on a clock, and
`/hanamikoji games`."""

from __future__ import annotations

import random

from engine.clocks import DAY_SECONDS, OVERDUE_GRACE_SECONDS, Pace
from engine.model import MatchStatus
from engine.rules.outcome import Termination
from engine.service.clock import ManualClock
from tests.e2e.players import (
    Match,
    answered,
    board_message,
    challenge_and_accept,
    play_decision,
    settle,
    whose_turn,
)
from tests.e2e.test_tournaments import MANAGE_SERVER

START = 2_000_000_000.0


def board_words(user, match: Match) -> str:
    return board_message(user, match.thread_id).text()


async def advance(emulator, bot, clock: ManualClock, seconds: float) -> None:
    await clock.advance(seconds, settle=bot.service.wait_idle)
    await settle(emulator, bot)


async def test_a_clock_match_where_one_player_runs_out(emulator, start_bot):
    clock = ManualClock(start=START)
    bot = await start_bot(clock=clock, expiry_policy="forfeit")
    match = await challenge_and_accept(emulator, bot, time="clock:180+2")
    info = await bot.service.queries.match_info(match.match_id)
    assert (info.pace, info.turn_seconds, info.increment_seconds) == (Pace.CLOCK, 180.0, 2.0)

    # The first mover thinks 40 s and plays: their bank is 180 - 40 + 2.
    first, second = await whose_turn(bot, match)
    await advance(emulator, bot, clock, 40)
    await play_decision(emulator, bot, match, random.Random(1))
    await settle(emulator, bot)
    now = await bot.service.queries.match_now(match.match_id)
    assert now.info.banks is not None
    assert now.info.banks[now.info.players.index(first.id)] == 142.0
    shown = board_words(second, match)
    assert "⏱" in shown and "2:22" in shown and "3:00" in shown, shown
    assert f"<t:{int(START + 40 + 180)}:R>" in shown, "the running clock counts down by itself"

    # Whoever is to move now lets their whole bank run out: they lose on time.
    absent, other = await whose_turn(bot, match)
    await advance(emulator, bot, clock, 200)
    ended = await bot.service.queries.match_info(match.match_id)
    assert ended.status is MatchStatus.FINISHED
    result = await bot.service.store.finished_match(match.match_id)
    assert result is not None and result.reason is Termination.TIMEOUT
    assert result.winner_id == other.id
    board_id = ended.placement.board_message_id
    said = [m.text() for m in other.messages(match.thread_id) if m.id != board_id]
    assert sum(f"{absent.name} ran out of time" in t for t in said) == 1, said[-3:]
    reliability = await bot.service.store.reliability(emulator.guild_id, absent.id)
    assert (reliability.finished, reliability.abandoned) == (0, 1)


async def test_a_turn_based_match_over_several_days_ends_with_a_claim(emulator, start_bot):
    clock = ManualClock(start=START)
    bot = await start_bot(clock=clock)
    match = await challenge_and_accept(emulator, bot, time="days:1")
    first, waiting_first = await whose_turn(bot, match)
    assert f"1 day a move — {first.name} has until" in board_words(waiting_first, match)

    # Day one: the first mover plays after 20 hours; the other then sleeps on it.
    await advance(emulator, bot, clock, 20 * 3600)
    await play_decision(emulator, bot, match, random.Random(1))
    await settle(emulator, bot)
    late, waiting = await whose_turn(bot, match)
    version = (await bot.service.queries.public_view(match.match_id)).version

    # Their day runs out: nothing is played for them, a grace of 12 hours begins.
    await advance(emulator, bot, clock, DAY_SECONDS + 60)
    assert (await bot.service.queries.public_view(match.match_id)).version == version
    said = [m.text() for m in waiting.messages(match.thread_id)]
    assert any("your days for this move ran out" in t for t in said), said[-3:]
    assert [b.label for b in board_message(waiting, match.thread_id).buttons()][:1] != [
        "Claim the win"
    ]

    # The grace ends: the waiting player is offered the choice, on the board.
    await advance(emulator, bot, clock, OVERDUE_GRACE_SECONDS)
    board = board_message(waiting, match.thread_id)
    labels = [b.label for b in board.buttons()]
    assert {"Claim the win", "Let the AI play", "Keep waiting"} <= set(labels), labels
    assert (await bot.service.queries.public_view(match.match_id)).version == version

    # Only the waiting player may choose; the late one and a stranger are told why.
    refused = await answered(await late.click(board, "Claim the win"))
    assert refused.ephemeral and f"Only {waiting.name}" in refused.text(), refused.text()
    cara = emulator.user("cara")
    stranger = await answered(await cara.click(board, "Claim the win"))
    assert stranger.ephemeral
    assert (await bot.service.queries.match_info(match.match_id)).status is MatchStatus.ACTIVE

    # Two more virtual days pass: still nothing happens by itself.
    await advance(emulator, bot, clock, 2 * DAY_SECONDS)
    assert (await bot.service.queries.match_info(match.match_id)).status is MatchStatus.ACTIVE

    claimed = await answered(
        await waiting.click(board_message(waiting, match.thread_id), "Claim the win")
    )
    assert claimed.ephemeral and "claimed the win" in claimed.text(), claimed.text()
    await settle(emulator, bot)
    result = await bot.service.store.finished_match(match.match_id)
    assert result is not None and result.reason is Termination.TIMEOUT
    assert result.winner_id == waiting.id
    ended = await bot.service.queries.match_info(match.match_id)
    assert ended.placement.board_message_id is not None
    shown = waiting.message(ended.placement.board_message_id)
    assert "Claim the win" not in [b.label for b in shown.buttons()]
    assert f"{late.name} ran out of time" in shown.text(), shown.text()


async def test_keep_waiting_gives_a_fresh_day_and_the_late_player_comes_back(emulator, start_bot):
    clock = ManualClock(start=START)
    bot = await start_bot(clock=clock)
    match = await challenge_and_accept(emulator, bot, time="days:1")
    _late, waiting = await whose_turn(bot, match)
    await advance(emulator, bot, clock, DAY_SECONDS + OVERDUE_GRACE_SECONDS + 60)
    kept = await answered(
        await waiting.click(board_message(waiting, match.thread_id), "Keep waiting")
    )
    assert kept.ephemeral and "keep waiting" in kept.text().lower(), kept.text()
    await settle(emulator, bot)
    info = await bot.service.queries.match_info(match.match_id)
    assert info.overdue_since is None and info.turn_deadline == clock.now() + DAY_SECONDS
    assert "Keep waiting" not in [
        b.label for b in board_message(waiting, match.thread_id).buttons()
    ]
    # The late player comes back and plays: the match goes on, nothing was lost.
    await play_decision(emulator, bot, match, random.Random(2))
    await settle(emulator, bot)
    assert (await bot.service.queries.public_view(match.match_id)).version == 1


async def test_a_vacation_pauses_a_turn_based_clock(emulator, start_bot):
    clock = ManualClock(start=START)
    bot = await start_bot(clock=clock)
    match = await challenge_and_accept(emulator, bot, time="days:1")
    away, other = await whose_turn(bot, match)
    before = (await bot.service.queries.match_info(match.match_id)).turn_deadline
    assert before is not None

    taken = await answered(await away.slash("hanamikoji vacation", days=3))
    assert taken.ephemeral
    await settle(emulator, bot)
    info = await bot.service.queries.match_info(match.match_id)
    assert info.turn_deadline == before + 3 * DAY_SECONDS
    assert info.paused_until == START + 3 * DAY_SECONDS
    assert "🏖" in board_words(other, match)

    # Three days pass, and most of a fourth: their turn is not overdue.
    await advance(emulator, bot, clock, 3 * DAY_SECONDS + 20 * 3600)
    info = await bot.service.queries.match_info(match.match_id)
    assert info.overdue_since is None and info.status is MatchStatus.ACTIVE
    said = [m.text() for m in other.messages(match.thread_id)]
    assert not any("ran out" in t for t in said)

    # Past the paused day: now it is.
    await advance(emulator, bot, clock, 5 * 3600)
    info = await bot.service.queries.match_info(match.match_id)
    assert info.overdue_since is not None


async def test_games_lists_your_turn_first_with_links(emulator, start_bot):
    clock = ManualClock(start=START)
    bot = await start_bot(clock=clock)
    match = await challenge_and_accept(emulator, bot, time="days:2")
    mover, waiting = await whose_turn(bot, match)
    listed = await answered(await mover.slash("hanamikoji games"))
    assert listed.ephemeral
    text = listed.text()
    assert "Your turn" in text and f"<#{match.thread_id}>" in text, text
    info = await bot.service.queries.match_info(match.match_id)
    assert f"<t:{int(info.turn_deadline or 0)}:R>" in text
    theirs = await answered(await waiting.slash("hanamikoji games"))
    assert "Your turn (" not in theirs.text() and f"<#{match.thread_id}>" in theirs.text()


async def test_a_tournament_played_on_a_clock(emulator, start_bot):
    clock = ManualClock(start=START)
    bot = await start_bot(clock=clock, expiry_policy="forfeit")
    ana, ben = emulator.user("ana"), emulator.user("ben")
    ana.grant(MANAGE_SERVER)
    registration = await answered(
        await ana.slash(
            "hanamikoji tournament create", name="Blitz", format="knockout", time="clock:180+2"
        )
    )
    assert "clock 3+2" in registration.text(), registration.text()
    for member in (ana, ben):
        await answered(await member.click(registration, "Join"))
    await answered(await ana.click(registration, "Start"))
    await settle(emulator, bot)
    event = await bot.service.tournaments.latest_in(emulator.guild_id)
    assert event is not None
    [game] = await bot.service.tournaments.games(event.tournament_id)
    assert game.match_id is not None
    info = await bot.service.queries.match_info(game.match_id)
    assert (info.pace, info.turn_seconds, info.increment_seconds) == (Pace.CLOCK, 180.0, 2.0)
    # The first player's clock runs out: they lose on time, and the event ends with it.
    await advance(emulator, bot, clock, 181)
    result = await bot.service.store.finished_match(game.match_id)
    assert result is not None and result.reason is Termination.TIMEOUT
    ended = await bot.service.tournaments.latest_in(emulator.guild_id)
    assert ended is not None and str(ended.status) == "finished"


async def test_a_restart_mid_clock_keeps_every_second_of_both_banks(emulator, start_bot):
    clock = ManualClock(start=START)
    bot = await start_bot(clock=clock, expiry_policy="forfeit")
    match = await challenge_and_accept(emulator, bot, time="clock:180+2")
    first, _ = await whose_turn(bot, match)
    await advance(emulator, bot, clock, 40)
    await play_decision(emulator, bot, match, random.Random(1))
    await settle(emulator, bot)
    before = (await bot.service.queries.match_now(match.match_id)).info
    running, waiting = await whose_turn(bot, match)
    await bot.close()

    await clock.advance(30)  # down for half a minute, the running clock still running
    bot = await start_bot(clock=clock, expiry_policy="forfeit")
    await settle(emulator, bot)
    after = (await bot.service.queries.match_now(match.match_id)).info
    assert after.banks == before.banks and after.turn_deadline == before.turn_deadline
    assert after.version == before.version, "nothing played or doubled by the restart"
    assert before.banks is not None and before.banks[before.players.index(first.id)] == 142.0
    shown = board_words(waiting, match)
    assert "2:22" in shown and f"<t:{int(START + 40 + 180)}:R>" in shown, shown

    # The running clock runs out on the same second it would have without the restart.
    assert before.turn_deadline is not None
    await advance(emulator, bot, clock, before.turn_deadline - clock.now() - 1)
    assert (await bot.service.queries.match_info(match.match_id)).status is MatchStatus.ACTIVE
    await advance(emulator, bot, clock, 2)
    result = await bot.service.store.finished_match(match.match_id)
    assert result is not None and result.reason is Termination.TIMEOUT
    assert result.winner_id == waiting.id and running.id != waiting.id
