"""Open seats through the emulator: opened, listed, joined from another channel and played
to the end, refused clearly, expired, and announced in a server's lobby channel."""

from __future__ import annotations

import random

import pytest

from engine.model import MatchStatus
from engine.service.clock import ManualClock
from tests.discord_emulator.errors import ImpossibleUserAction
from tests.e2e.cluster import assert_no_hidden_card_in_public
from tests.e2e.players import Match, answered, play_decision, settle
from tests.e2e.test_full_match import LeakCheck

MANAGE_SERVER = 1 << 5


def is_seat(message) -> bool:
    return [b.label for b in message.buttons()] == ["Join", "Cancel"]


@pytest.mark.slow
async def test_a_seat_taken_from_the_list_in_another_channel_is_played_to_the_end(emulator, bot):
    ana, ben, cara = emulator.user("ana"), emulator.user("ben"), emulator.user("cara")
    other = await emulator.add_text_channel("other")
    seat = await answered(
        await ana.slash("hanamikoji open", variant="three-rounds", turn_timer=900, rated=False)
    )
    assert not seat.ephemeral and is_seat(seat)
    assert "ana has an open seat" in seat.text() and "three rounds" in seat.text()
    assert "unrated" in seat.text()

    refused = await answered(await ana.click(seat, "Join"))
    assert refused.ephemeral and "your own seat" in refused.text()
    await settle(emulator, bot)  # listed once its message id is stored
    ben_list = await answered(await ben.slash("hanamikoji seats", channel=other))
    cara_list = await answered(await cara.slash("hanamikoji seats", channel=other))
    assert ben_list.ephemeral and "**ana**" in ben_list.text()
    assert f"<#{emulator.channel.id}>" in ben_list.text()

    joined = await answered(await ben.click(ben_list, "Join 1"))
    assert "You took ana's seat" in joined.text() and joined.buttons() == []
    late = await answered(await cara.click(cara_list, "Join 1"))
    assert "already taken" in late.text()
    await settle(emulator, bot)
    shown = ana.message(seat)
    assert "ben took ana's seat" in shown.text() and shown.buttons() == []
    empty = await answered(await cara.slash("hanamikoji seats"))
    assert "no open seats" in empty.text()

    (info,) = await bot.service.queries.open_matches_for(ben.id)
    assert info.players == (ana.id, ben.id) and not info.rated
    assert info.channel_id == emulator.channel.id, "played where the seat was opened"
    assert info.placement.thread_id is not None
    assert emulator.world.channel(info.placement.thread_id).parent_id == emulator.channel.id
    match = Match(info.match_id, info.placement.thread_id, (ana, ben))
    leaks = LeakCheck(emulator, bot, match)
    # From the match on: cara's list before it is hers alone, and shows no card.
    leaks.seen = len(list(emulator.transcript))
    await leaks.check()
    rng = random.Random(11)
    for _ in range(200):
        if (await bot.service.queries.match_info(match.match_id)).status is not MatchStatus.ACTIVE:
            break
        await play_decision(emulator, bot, match, rng)
        await leaks.check()
    assert (await bot.service.queries.match_info(match.match_id)).status is MatchStatus.FINISHED
    assert await bot.service.queries.rating_changes(match.match_id) is None, "unrated"
    assert_no_hidden_card_in_public(emulator)


async def test_an_open_seat_nobody_takes_expires_and_says_so(emulator, start_bot):
    clock = ManualClock(start=2_000_000_000.0)
    bot = await start_bot(clock, challenge_expiry_seconds=60)
    ana, ben = emulator.user("ana"), emulator.user("ben")
    seat = await answered(await ana.slash("hanamikoji open"))
    await settle(emulator, bot)  # listed once its message id is stored
    listed = await answered(await ben.slash("hanamikoji seats"))
    await clock.advance(59, settle=bot.service.wait_idle)
    await settle(emulator, bot)
    assert is_seat(ana.message(seat)), "a minute is not over yet"

    await clock.advance(1, settle=bot.service.wait_idle)
    await settle(emulator, bot)
    shown = ana.message(seat)
    assert "Nobody took ana's seat in time" in shown.text() and shown.buttons() == []
    with pytest.raises(ImpossibleUserAction):
        await ben.click(seat, "Join")
    refused = await answered(await ben.click(listed, "Join 1"))
    assert refused.ephemeral and "expired" in refused.text()
    assert await bot.service.queries.open_matches_for(ana.id) == []


async def test_one_seat_per_channel_and_only_its_host_cancels_it(emulator, bot):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    seat = await answered(await ana.slash("hanamikoji open"))
    again = await answered(await ana.slash("hanamikoji open"))
    assert again.ephemeral and "already have a seat open" in again.text()
    assert f"<#{emulator.channel.id}>" in again.text()

    refused = await answered(await ben.click(seat, "Cancel"))
    assert refused.ephemeral and "Only ana can cancel" in refused.text()
    assert is_seat(ana.message(seat))
    await answered(await ana.click(seat, "Cancel"))
    await settle(emulator, bot)
    shown = ana.message(seat)
    assert "ana cancelled the seat" in shown.text() and shown.buttons() == []
    assert "no open seats" in (await answered(await ben.slash("hanamikoji seats"))).text()
    # The first is gone: a new one may be opened here.
    assert is_seat(await answered(await ana.slash("hanamikoji open")))


async def test_seats_go_to_the_lobby_channel_and_their_matches_are_played_there(emulator, bot):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    lobby = await emulator.add_text_channel("lobby")
    ben.grant(MANAGE_SERVER)
    refused = await answered(await ana.slash("hanamikoji settings", lobby_channel=lobby))
    assert refused.ephemeral and "Manage Server" in refused.text()
    set_up = await answered(await ben.slash("hanamikoji settings", lobby_channel=lobby))
    assert f"Lobby channel for open seats: <#{lobby.id}>" in set_up.text()

    pointer = await answered(await ana.slash("hanamikoji open"))
    assert not pointer.ephemeral and f"opened a seat in <#{lobby.id}>" in pointer.text()
    assert pointer.buttons() == []
    (seat,) = [m for m in ben.messages(lobby) if is_seat(m)]
    await answered(await ben.click(seat, "Join"))
    await settle(emulator, bot)
    assert "ben took ana's seat" in ben.message(seat).text()
    (info,) = await bot.service.queries.open_matches_for(ana.id)
    assert info.channel_id == lobby.id and info.placement.thread_id is not None
    assert emulator.world.channel(info.placement.thread_id).parent_id == lobby.id

    off = await answered(await ben.slash("hanamikoji settings", lobby_off=True))
    assert "none (seats stay where they are opened)" in off.text()


async def test_a_seat_whose_channel_is_deleted_cannot_be_joined(emulator, bot):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    other = await emulator.add_text_channel("other")
    await answered(await ana.slash("hanamikoji open", channel=other))
    listed = await answered(await ben.slash("hanamikoji seats"))
    await emulator.delete_channel(other)
    await settle(emulator, bot)

    refused = await answered(await ben.click(listed, "Join 1"))
    assert refused.ephemeral and "no longer open" in refused.text()
    assert await bot.service.queries.open_matches_for(ana.id) == []
    assert any("open Hanamikoji seat was withdrawn" in m.text() for m in ana.dms())


async def test_a_seat_outlives_a_restart_and_expires_through_its_channel(emulator, start_bot):
    clock = ManualClock(start=2_000_000_000.0)
    bot = await start_bot(clock, challenge_expiry_seconds=60)
    ana, ben = emulator.user("ana"), emulator.user("ben")
    seat = await answered(await ana.slash("hanamikoji open"))
    await settle(emulator, bot)
    await bot.close()

    restarted = await start_bot(clock, challenge_expiry_seconds=60)
    # The button posted before the restart still answers.
    refused = await answered(await ana.click(seat, "Join"))
    assert refused.ephemeral and "your own seat" in refused.text()
    await clock.advance(60, settle=restarted.service.wait_idle)
    await settle(emulator, restarted)
    shown = ana.message(seat)
    assert "Nobody took ana's seat in time" in shown.text() and shown.buttons() == []
    # Its interaction is the old process's: the channel endpoint closed it.
    edits = [path for method, path, _ in emulator.requests if method == "PATCH"]
    assert any(path.endswith(f"/messages/{seat.id}") for path in edits), edits
    with pytest.raises(ImpossibleUserAction):
        await ben.click(seat, "Join")


async def test_a_lobby_seat_joined_from_the_list_elsewhere_shows_taken(emulator, bot):
    """The lobby's seat message was posted through the channel, not an interaction: joining
    from `/hanamikoji seats` must still close it (the start clears the match's message id)."""
    ana, ben = emulator.user("ana"), emulator.user("ben")
    lobby, other = await emulator.add_text_channel("lobby"), await emulator.add_text_channel("o")
    ben.grant(MANAGE_SERVER)
    await answered(await ben.slash("hanamikoji settings", lobby_channel=lobby))
    await answered(await ana.slash("hanamikoji open"))
    await settle(emulator, bot)
    (seat,) = [m for m in ben.messages(lobby) if is_seat(m)]

    listed = await answered(await ben.slash("hanamikoji seats", channel=other))
    joined = await answered(await ben.click(listed, "Join 1"))
    assert "You took ana's seat" in joined.text()
    await settle(emulator, bot)
    shown = ben.message(seat)
    assert "ben took ana's seat" in shown.text() and shown.buttons() == []


async def test_a_seat_joined_from_the_list_after_a_restart_shows_taken(emulator, start_bot):
    bot = await start_bot()
    ana, ben = emulator.user("ana"), emulator.user("ben")
    other = await emulator.add_text_channel("other")
    seat = await answered(await ana.slash("hanamikoji open"))
    await settle(emulator, bot)
    await bot.close()

    restarted = await start_bot()
    listed = await answered(await ben.slash("hanamikoji seats", channel=other))
    await answered(await ben.click(listed, "Join 1"))
    await settle(emulator, restarted)
    shown = ana.message(seat)
    assert "ben took ana's seat" in shown.text() and shown.buttons() == []


async def test_a_lobby_seat_taken_before_its_post_failed_tells_the_host_it_started(
    emulator, bot, monkeypatch
):
    """The seat is stored before its lobby post: were it joined meanwhile and the post then
    refused, the host must hear that the match started, not that the seat was refused."""
    ana, ben = emulator.user("ana"), emulator.user("ben")
    lobby = await emulator.add_text_channel("lobby")
    ben.grant(MANAGE_SERVER)
    await answered(await ben.slash("hanamikoji settings", lobby_channel=lobby))
    seats = bot.service.seats
    real_open = seats.open

    async def open_then_joined_and_lobby_closed(*args, **kwargs):  # type: ignore[no-untyped-def]
        info = await real_open(*args, **kwargs)
        await seats.join(info.match_id, ben.id)
        await emulator.deny_bot("Send Messages", channel=lobby)
        return info

    monkeypatch.setattr(seats, "open", open_then_joined_and_lobby_closed)
    told = await answered(await ana.slash("hanamikoji open"))
    await settle(emulator, bot)
    assert told.ephemeral and "your match has started" in told.text(), told.text()
    assert f"<#{lobby.id}>" in told.text()
    (info,) = await bot.service.queries.open_matches_for(ana.id)
    assert info.players == (ana.id, ben.id) and info.status is MatchStatus.ACTIVE
    (refused,) = emulator.take_failures()
    assert f"/channels/{lobby.id}/messages" in str(refused) and "50013" in str(refused)
