"""When the server changes under a match: a moderator deletes its thread, its board or its
channel, an admin removes the bot or takes a permission away. Each leaves the match
playable to its end or cleanly ended with its players told, shows no hidden card, and
leaves the bot asking nothing of what it lost."""

from __future__ import annotations

import random

from engine.model import MatchStatus
from engine.service.clock import ManualClock
from engine.store.errors import DatabaseUnavailable
from tests.discord_emulator.gateway import INTENT_GUILDS
from tests.discord_emulator.permissions import ATTACH_FILES, MISSING_PERMISSIONS
from tests.e2e.cluster import assert_no_hidden_card_in_public, eventually
from tests.e2e.players import (
    Match,
    board_message,
    challenge_and_accept,
    play_decision,
    settle,
    start_ai_match,
)

DAY = 24 * 3600.0
SEED_ANA_FIRST = 1
"""The service's seed under which the challenger, ana, moves first."""


async def play_to_the_end(emulator, bot, match: Match, rng: random.Random) -> None:
    for _ in range(200):
        if (await bot.service.queries.public_view(match.match_id)).outcome is not None:
            return
        await play_decision(emulator, bot, match, rng)
    raise AssertionError("the match did not end in 200 decisions")


async def current(bot, match: Match) -> Match:
    """The match where it is shown now (its thread may have changed)."""
    info = await bot.service.queries.match_info(match.match_id)
    return Match(match.match_id, info.placement.thread_id or info.channel_id or 0, match.players)


async def moved_on(bot, match: Match) -> bool:
    """Whether the match has a board in a place other than its first thread."""
    info = await bot.service.queries.match_info(match.match_id)
    return (
        info.placement.thread_id != match.thread_id and info.placement.board_message_id is not None
    )


async def test_a_deleted_thread_is_replaced_and_the_match_is_played_to_its_end(emulator, bot):
    match = await challenge_and_accept(emulator, bot)
    rng = random.Random(23)
    for _ in range(3):
        await play_decision(emulator, bot, match, rng)
    deleted_at = emulator.clock.now()

    await emulator.delete_channel(match.thread_id)
    await settle(emulator, bot)

    moved = await current(bot, match)
    ana, ben = match.players
    assert moved.thread_id not in (match.thread_id, emulator.channel.id)
    lines = [m for m in ana.messages(moved.thread_id) if "goes on here" in m.text()]
    assert len(lines) == 1 and ana.mention in lines[0].content and ben.mention in lines[0].content
    assert "Hanamikoji" in board_message(ben, moved.thread_id).text()
    assert ana.id in emulator.world.channels[moved.thread_id].thread_member_ids
    await play_to_the_end(emulator, bot, moved, rng)

    info = await bot.service.queries.match_info(match.match_id)
    assert info.status is MatchStatus.FINISHED
    assert emulator.request_log.to_channel(match.thread_id, since=deleted_at) == []
    assert_no_hidden_card_in_public(emulator)
    emulator.assert_no_failures()


async def test_a_deleted_thread_that_cannot_be_replaced_moves_the_match_to_its_channel(
    emulator, bot
):
    match = await challenge_and_accept(emulator, bot)
    emulator.world.max_active_threads = 0  # Discord refuses a new thread (160006)

    await emulator.delete_channel(match.thread_id)
    await settle(emulator, bot)

    moved = await current(bot, match)
    assert moved.thread_id == emulator.channel.id
    ana, ben = match.players
    said = [
        m for m in ana.messages(emulator.channel.id) if "goes on here in the channel" in m.text()
    ]
    assert len(said) == 1 and ana.mention in said[0].content and ben.mention in said[0].content
    rng = random.Random(4)
    for _ in range(3):
        await play_decision(emulator, bot, moved, rng)
    assert (await bot.service.queries.public_view(match.match_id)).version == 3
    assert [f.code for f in emulator.take_failures()] == [160006]


async def test_board_reposts_the_board_of_a_match_whose_thread_was_deleted(emulator, bot):
    match = await challenge_and_accept(emulator, bot)
    # The bot missed the deletion (it was down, say): the thread is simply gone.
    emulator.world.delete_channel(emulator.world.channels[match.thread_id])
    ana = match.players[0]

    await (await ana.slash("hanamikoji board")).answer()  # the work goes on after the answer
    await eventually(lambda: moved_on(bot, match), "the match in a new thread")
    await settle(emulator, bot)

    moved = await current(bot, match)
    assert moved.thread_id != match.thread_id
    assert "Hanamikoji" in board_message(ana, moved.thread_id).text()
    await play_decision(emulator, bot, moved, random.Random(2))
    assert (await bot.service.queries.public_view(match.match_id)).version == 1
    emulator.take_failures()  # the one look-up that found the thread gone


async def test_a_deleted_board_is_posted_again_once_and_edited_from_then_on(emulator, bot):
    match = await challenge_and_accept(emulator, bot)
    old_board = (await bot.service.queries.match_info(match.match_id)).placement.board_message_id
    assert old_board is not None
    await emulator.delete_message(old_board)
    await settle(emulator, bot)
    rng = random.Random(7)

    for _ in range(4):
        await play_decision(emulator, bot, match, rng)

    ana = match.players[0]
    new_board = (await bot.service.queries.match_info(match.match_id)).placement.board_message_id
    assert new_board not in (None, old_board)
    assert board_message(ana, match.thread_id).id == new_board
    said = [m for m in ana.messages(match.thread_id) if "board was deleted" in m.text()]
    assert len(said) == 1
    # MESSAGE_DELETE said so: the deleted board is never asked for.
    assert [r for r in emulator.requests if r[1].endswith(f"/messages/{old_board}")] == []
    assert_no_hidden_card_in_public(emulator)
    emulator.assert_no_failures()


async def test_a_deleted_channel_ends_its_matches_unrated_and_tells_the_players(
    emulator, start_bot
):
    clock = ManualClock(start=2_000_000_000.0)
    bot = await start_bot(clock=clock, turn_timer_seconds=3600)
    match = await challenge_and_accept(emulator, bot)
    cara = emulator.user("cara")
    await (await cara.slash("hanamikoji challenge", opponent=match.players[0])).answer()
    lobby = await emulator.add_text_channel("lobby")
    await settle(emulator, bot)
    deleted_at = emulator.clock.now()

    await emulator.delete_channel(emulator.channel)
    await settle(emulator, bot)
    for _ in range(4):  # two days of turn timers and challenge expiries
        await clock.advance(DAY / 2, settle=bot.service.wait_idle)
        emulator.advance(DAY / 2)
        await settle(emulator, bot)

    ana, ben = match.players
    info = await bot.service.queries.match_info(match.match_id)
    assert info.status is MatchStatus.ABANDONED
    assert await bot.service.queries.open_matches_for(ana.id) == []
    assert await bot.service.store.finished_match(match.match_id) is None
    assert any("ended unplayed: its channel was deleted" in m.text() for m in ana.dms())
    assert any("ended unplayed: its channel was deleted" in m.text() for m in ben.dms())
    assert any("challenge with" in m.text() and "withdrawn" in m.text() for m in cara.dms())
    review = await (
        await ana.slash("hanamikoji review", match=match.match_id, channel=lobby)
    ).answer()
    assert review.ephemeral and "ended unplayed" in review.text()
    log = emulator.request_log
    for lost in (emulator.channel.id, match.thread_id):
        assert log.to_channel(lost, since=deleted_at) == []
    assert (
        log.per_minute(
            log.to_guild(emulator.guild_id, since=deleted_at),
            since=deleted_at,
            until=emulator.clock.now(),
        )
        == 0.0
    )
    assert_no_hidden_card_in_public(emulator)
    emulator.assert_no_failures()


async def test_a_bot_removed_from_its_server_ends_its_matches_and_finds_them_ended_on_return(
    emulator, start_bot
):
    clock = ManualClock(start=2_000_000_000.0)
    bot = await start_bot(clock=clock, turn_timer_seconds=3600)
    match = await challenge_and_accept(emulator, bot)
    cara = emulator.user("cara")
    ai_match = await start_ai_match(emulator, bot, cara)
    removed_at = emulator.clock.now()

    await emulator.remove_bot()
    await settle(emulator, bot)
    for _ in range(4):
        await clock.advance(DAY / 2, settle=bot.service.wait_idle)
        emulator.advance(DAY / 2)
        await settle(emulator, bot)

    for ended in (match, ai_match):
        info = await bot.service.queries.match_info(ended.match_id)
        assert info.status is MatchStatus.ABANDONED
    for user in (*match.players, cara):
        assert any("the bot is no longer in that server" in m.text() for m in user.dms())
    assert emulator.request_log.to_guild(emulator.guild_id, since=removed_at) == []

    await emulator.invite_bot_back()
    await settle(emulator, bot)
    assert bot.service.broken == {}
    assert (await bot.service.queries.match_info(match.match_id)).status is MatchStatus.ABANDONED
    again = await challenge_and_accept(emulator, bot)  # the server plays again
    assert again.match_id != match.match_id
    emulator.assert_no_failures()


async def test_a_server_outage_is_not_a_removal(emulator, bot):
    match = await challenge_and_accept(emulator, bot)
    outage = {"id": str(emulator.guild_id), "unavailable": True}
    for session in emulator.gateway.live_sessions:
        if session.wants(INTENT_GUILDS):
            # "Guild Delete" (topics/gateway-events): `unavailable` set is an outage.
            await emulator.gateway.dispatch_to(session, "GUILD_DELETE", outage)
    await settle(emulator, bot)
    info = await bot.service.queries.match_info(match.match_id)
    assert info.status is MatchStatus.ACTIVE


async def test_send_messages_in_threads_taken_mid_match_moves_it_to_the_channel(emulator, bot):
    match = await challenge_and_accept(emulator, bot)
    rng = random.Random(5)
    await play_decision(emulator, bot, match, rng)

    await emulator.deny_bot("Send Messages in Threads", channel=emulator.channel)
    await play_decision(emulator, bot, match, rng)  # from the old board: its buttons work
    await settle(emulator, bot)

    moved = await current(bot, match)
    assert moved.thread_id == emulator.channel.id
    ana = match.players[0]
    said = [m.text() for m in ana.messages(emulator.channel.id)]
    assert any("goes on here in the channel" in t and "Send Messages in Threads" in t for t in said)
    for _ in range(3):
        await play_decision(emulator, bot, moved, rng)
    assert (await bot.service.queries.public_view(match.match_id)).version == 5
    assert_no_hidden_card_in_public(emulator)
    emulator.assert_no_failures()  # no refused post or edit on the way


async def test_attach_files_taken_mid_match_shows_the_board_as_text_and_says_why(emulator, bot):
    match = await challenge_and_accept(emulator, bot)
    rng = random.Random(9)
    await emulator.deny_bot("Attach Files")
    for _ in range(3):
        await play_decision(emulator, bot, match, rng)

    ana = match.players[0]
    board = board_message(ana, match.thread_id)
    assert board.attachments == ()
    said = [m for m in ana.messages(match.thread_id) if "board is shown as text" in m.text()]
    assert len(said) == 1
    emulator.assert_no_failures()


async def test_a_refused_board_edit_waits_for_the_change_then_falls_back_once(emulator, bot):
    match = await challenge_and_accept(emulator, bot)
    rng = random.Random(13)
    world = emulator.world
    roles = [world.roles[world.guild.id], world.roles[world.guild.bot_role_id]]
    # Attach Files is taken, and its GUILD_ROLE_UPDATE has not reached the bot yet.
    for role in roles:
        role.permissions &= ~ATTACH_FILES
    await play_decision(emulator, bot, match, rng)
    bot.get_cog("Play").presenters.mark_board(match.match_id)  # asked again meanwhile
    await settle(emulator, bot)
    refused = [r for r in emulator.requests if r[0] == "PATCH" and r[2] == 403]
    assert len(refused) == 1, "one refused edit, then none until Discord tells"
    assert [f.code for f in emulator.take_failures()] == [MISSING_PERMISSIONS]

    for role in roles:  # the events arrive: the board is edited as they allow
        await emulator.permission_settings.set_role_permissions(role, role.permissions)
    await settle(emulator, bot)
    await play_decision(emulator, bot, match, rng)

    ana = match.players[0]
    board = board_message(ana, match.thread_id)
    assert board.attachments == () and "'s turn." in board.text()
    assert (await bot.service.queries.public_view(match.match_id)).version == 2
    said = [m for m in ana.messages(match.thread_id) if "board is shown as text" in m.text()]
    assert len(said) == 1
    emulator.assert_no_failures()


async def test_send_messages_taken_where_the_match_has_no_thread_tells_its_players_by_dm(
    emulator, bot
):
    await emulator.deny_bot("Create Public Threads")  # the match is played in the channel
    ana, ben = emulator.user("ana"), emulator.user("ben")
    challenge = await (await ana.slash("hanamikoji challenge", opponent=ben)).answer()
    await (await ben.click(challenge, "Accept")).answer()
    await settle(emulator, bot)
    (info,) = await bot.service.queries.open_matches_for(ana.id)
    assert info.placement.thread_id is None
    match = Match(info.match_id, emulator.channel.id, (ana, ben))
    table = await bot.service.queries.public_view(match.match_id)
    mover = ana if info.players[table.current_player] == ana.id else ben

    await emulator.deny_bot("Send Messages", channel=emulator.channel)
    # The board cannot move on, but the match can: through /hanamikoji hand.
    panel = await (await mover.slash("hanamikoji hand")).answer()
    panel = await (await mover.click(panel, "Secret (1)")).answer()
    panel = await (await mover.select(panel, [panel.select().options[0].value])).answer()
    (confirm,) = [b.label for b in panel.buttons() if b.label.startswith("Confirm")]
    done = await (await mover.click(panel, confirm)).answer()
    await settle(emulator, bot)

    assert "✅ Secret: " in done.text()
    assert (await bot.service.queries.public_view(match.match_id)).version == 1
    for user in (ana, ben):
        told = [m for m in user.dms() if "can no longer post the board" in m.text()]
        assert len(told) == 1 and "**Send Messages**" in told[0].text()
    emulator.assert_no_failures()  # no refused edit, no refused post


async def two_days(emulator, bot, clock: ManualClock) -> None:
    """Two days of turn timers and challenge expiries (the match would be forfeited)."""
    for _ in range(4):
        await clock.advance(DAY / 2, settle=bot.service.wait_idle)
        emulator.advance(DAY / 2)
        await settle(emulator, bot)


async def assert_abandoned_and_told(bot, match: Match, told: str) -> None:
    info = await bot.service.queries.match_info(match.match_id)
    assert info.status is MatchStatus.ABANDONED
    assert await bot.service.store.finished_match(match.match_id) is None, "nothing rated"
    for user in match.players:
        assert any(told in m.text() for m in user.dms())


async def test_a_removal_while_the_bot_was_down_ends_its_matches_once_it_is_back(
    emulator, start_bot
):
    clock = ManualClock(start=2_000_000_000.0)
    bot = await start_bot(clock=clock, turn_timer_seconds=3600)
    match = await challenge_and_accept(emulator, bot)
    await bot.close()
    await emulator.remove_bot()  # no session hears of it

    bot = await start_bot(clock=clock, turn_timer_seconds=3600)
    await settle(emulator, bot)
    await two_days(emulator, bot, clock)

    await assert_abandoned_and_told(bot, match, "the bot is no longer in that server")
    # At most a look at the match's thread while the bot was starting; nothing after.
    failures = [str(f) for f in emulator.take_failures()]
    assert all(f.startswith(f"GET /channels/{match.thread_id} ") for f in failures), failures


async def test_a_database_stalled_when_a_channel_is_deleted_is_waited_out(emulator, start_bot):
    clock = ManualClock(start=2_000_000_000.0)
    bot = await start_bot(clock=clock, turn_timer_seconds=3600)
    match = await challenge_and_accept(emulator, bot)
    store = bot.service.store
    real = store.open_matches_in
    stalls = [DatabaseUnavailable("matches.sqlite3", "no answer")] * 2

    async def open_matches_in(guild_id, channel_id):  # type: ignore[no-untyped-def]
        if stalls:
            raise stalls.pop()
        return await real(guild_id, channel_id)

    store.open_matches_in = open_matches_in  # type: ignore[method-assign]
    await emulator.delete_channel(emulator.channel)
    await settle(emulator, bot)
    await two_days(emulator, bot, clock)

    assert stalls == []
    await assert_abandoned_and_told(bot, match, "ended unplayed: its channel was deleted")


async def test_a_channel_deleted_unseen_ends_its_matches_when_the_bot_next_uses_it(
    emulator, start_bot
):
    clock = ManualClock(start=2_000_000_000.0)
    bot = await start_bot(clock=clock, turn_timer_seconds=3600)
    match = await challenge_and_accept(emulator, bot)
    await bot.close()
    emulator.world.delete_channel(emulator.channel)  # while the bot was down

    bot = await start_bot(clock=clock, turn_timer_seconds=3600)
    await settle(emulator, bot)
    await two_days(emulator, bot, clock)  # the turn's reminder finds the thread gone

    await assert_abandoned_and_told(bot, match, "ended unplayed: its channel was deleted")
    emulator.take_failures()  # the look-ups that found the thread and the channel gone


async def test_an_abandoned_match_is_not_moved_when_its_board_is_edited_again(emulator, bot):
    match = await challenge_and_accept(emulator, bot)
    deleted_at = emulator.clock.now()
    await emulator.delete_channel(emulator.channel)
    await settle(emulator, bot)

    bot.get_cog("Play").presenters.mark_board(match.match_id)  # an edit that was queued
    await settle(emulator, bot)

    info = await bot.service.queries.match_info(match.match_id)
    assert info.status is MatchStatus.ABANDONED
    assert info.placement.thread_id == match.thread_id, "not relocated"
    assert emulator.request_log.to_channel(emulator.channel.id, since=deleted_at) == []


async def test_a_finished_match_whose_thread_is_gone_is_not_moved(emulator, bot):
    match = await challenge_and_accept(emulator, bot)
    ana = match.players[0]
    ask = await (await ana.slash("hanamikoji resign", channel=match.thread_id)).answer()
    await (await ana.click(ask, "Yes, resign")).answer()
    await settle(emulator, bot)
    await emulator.delete_channel(emulator.world.channels[match.thread_id])
    await settle(emulator, bot)
    threads = len(emulator.world.threads())

    bot.get_cog("Play").presenters.mark_board(match.match_id)  # an edit that was queued
    await settle(emulator, bot)

    info = await bot.service.queries.match_info(match.match_id)
    assert info.status is MatchStatus.FINISHED and info.placement.thread_id == match.thread_id
    assert len(emulator.world.threads()) == threads, "no new thread for a finished match"
    assert not [m for m in ana.messages() if "goes on" in m.text()]
    emulator.assert_no_failures()


async def test_a_dm_in_spanish_names_the_missing_permission_in_spanish(emulator, start_bot):
    bot = await start_bot(rng=random.Random(SEED_ANA_FIRST))
    await emulator.deny_bot("Create Public Threads")  # the match is played in the channel
    ana, ben = emulator.user("ana"), emulator.user("ben")
    ben.record.locale = "es-ES"  # the server speaks English, ben Spanish
    challenge = await (await ana.slash("hanamikoji challenge", opponent=ben)).answer()
    await (await ben.click(challenge, "Accept")).answer()
    await settle(emulator, bot)
    (info,) = await bot.service.queries.open_matches_for(ana.id)
    table = await bot.service.queries.public_view(info.match_id)
    assert info.players[table.current_player] == ana.id

    await emulator.deny_bot("Send Messages", channel=emulator.channel)
    panel = await (await ana.slash("hanamikoji hand")).answer()
    panel = await (await ana.click(panel, "Secret (1)")).answer()
    panel = await (await ana.select(panel, [panel.select().options[0].value])).answer()
    (confirm,) = [b.label for b in panel.buttons() if b.label.startswith("Confirm")]
    await (await ana.click(panel, confirm)).answer()
    await settle(emulator, bot)

    (to_ana,) = [m for m in ana.dms() if "can no longer post the board" in m.text()]
    assert "**Send Messages**" in to_ana.text()
    (to_ben,) = [m for m in ben.dms() if "Ya no puedo publicar el tablero" in m.text()]
    assert "**Enviar mensajes**" in to_ben.text() and "Send Messages" not in to_ben.text()
    assert "`/hanamikoji mano`" in to_ben.text()
    emulator.assert_no_failures()
