"""Starting matches: challenges, refusals, declines, expiry, the AI, settings."""

import re

import pytest

from engine.model import MatchStatus
from engine.service.clock import ManualClock
from tests.discord_emulator.errors import ImpossibleUserAction
from tests.e2e.players import answered, board_message, settle


async def test_challenging_yourself_or_a_bot_is_refused_privately(emulator, bot):
    ana = emulator.user("ana")
    refused = await answered(await ana.slash("hanamikoji challenge", opponent=ana))
    assert refused.ephemeral and "yourself" in refused.text()
    bot_member = emulator.world.bot.id
    refused = await answered(await ana.slash("hanamikoji challenge", opponent=bot_member))
    assert refused.ephemeral and "Bots can't play" in refused.text()
    assert await bot.service.queries.open_matches_for(ana.id) == []


async def test_only_the_challenged_member_can_accept(emulator, bot):
    ana, ben, cara = emulator.user("ana"), emulator.user("ben"), emulator.user("cara")
    challenge = await answered(await ana.slash("hanamikoji challenge", opponent=ben))
    assert ben.mention in challenge.content
    refused = await answered(await cara.click(challenge, "Accept"))
    assert refused.ephemeral and "for ben" in refused.text()
    refused = await answered(await ana.click(challenge, "Accept"))
    assert "for ben" in refused.text()
    (info,) = await bot.service.queries.open_matches_for(ana.id)
    assert info.status is MatchStatus.PENDING


async def test_a_declined_challenge_says_so_and_loses_its_buttons(emulator, bot):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    challenge = await answered(await ana.slash("hanamikoji challenge", opponent=ben))
    await answered(await ben.click(challenge, "Decline"))
    await settle(emulator, bot)
    shown = ana.message(challenge)
    assert "declined" in shown.text() and shown.buttons() == []


async def test_the_challenger_can_withdraw(emulator, bot):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    challenge = await answered(await ana.slash("hanamikoji challenge", opponent=ben))
    await answered(await ana.click(challenge, "Decline"))
    await settle(emulator, bot)
    assert "withdrew" in ana.message(challenge).text()


async def test_an_unanswered_challenge_expires_and_says_so(emulator, start_bot):
    clock = ManualClock(start=2_000_000_000.0)
    bot = await start_bot(clock, challenge_expiry_seconds=60)
    ana, ben = emulator.user("ana"), emulator.user("ben")
    challenge = await answered(await ana.slash("hanamikoji challenge", opponent=ben))
    await clock.advance(59, settle=bot.service.wait_idle)
    await settle(emulator, bot)
    assert "expired" not in ana.message(challenge).text(), "a minute is not over yet"
    await clock.advance(1, settle=bot.service.wait_idle)
    await settle(emulator, bot)
    shown = ana.message(challenge)
    assert "expired" in shown.text() and shown.buttons() == []
    # Closed through the challenge's own interaction, which needs no channel permission.
    edits = [(method, path) for method, path, _ in emulator.requests if method == "PATCH"]
    assert any(path.endswith("/messages/@original") for _, path in edits)
    assert not any(path.startswith("/api/v10/channels/") for _, path in edits)
    with pytest.raises(ImpossibleUserAction):
        await ben.click(challenge, "Accept")


async def test_an_ai_match_the_service_refuses_is_never_announced(emulator, start_bot):
    bot = await start_bot(max_active_matches=1)
    ana = emulator.user("ana")
    await answered(await ana.slash("hanamikoji ai"))
    await settle(emulator, bot)
    refused = await answered(await ana.slash("hanamikoji ai"))
    assert refused.ephemeral and "open matches" in refused.text()
    await settle(emulator, bot)
    announced = [m for m in ana.messages() if "starts a match against the AI" in m.text()]
    assert len(announced) == 1, "only the match that exists was announced"


async def test_too_many_open_matches_are_refused(emulator, start_bot):
    await start_bot(max_active_matches=1)
    ana, ben, cara = emulator.user("ana"), emulator.user("ben"), emulator.user("cara")
    await answered(await ana.slash("hanamikoji challenge", opponent=ben))
    refused = await answered(await ana.slash("hanamikoji challenge", opponent=cara))
    assert refused.ephemeral and "open matches" in refused.text()


@pytest.mark.slow
async def test_a_match_against_the_ai_is_played_to_the_end(emulator, bot):
    from tests.e2e.players import Match, board_message, play_decision

    ana = emulator.user("ana")
    started = await answered(await ana.slash("hanamikoji ai", level="easy"))
    assert "against the AI" in started.text()
    await settle(emulator, bot)
    (info,) = await bot.service.queries.open_matches_for(ana.id)
    assert info.placement.thread_id is not None
    match = Match(info.match_id, info.placement.thread_id, (ana, ana))
    import random

    rng = random.Random(2)
    boards_seen = []
    for _ in range(100):
        info = await bot.service.queries.match_info(match.match_id)
        if info.status is not MatchStatus.ACTIVE:
            break
        await play_decision(emulator, bot, match, rng)
        await settle(emulator, bot)
        if (await bot.service.queries.match_info(match.match_id)).status is MatchStatus.ACTIVE:
            boards_seen.append(board_message(ana, match.thread_id).text())
    assert (await bot.service.queries.match_info(match.match_id)).status is MatchStatus.FINISHED
    # The board's recent moves show the AI's moves as they happen.
    assert any("AI (easy)** used" in t or "AI (easy)** — " in t for t in boards_seen)


async def test_board_is_posted_again_and_the_old_one_points_to_it(emulator, bot):
    from tests.e2e.players import challenge_and_accept

    match = await challenge_and_accept(emulator, bot)
    ana, _ = match.players
    old = board_message(ana, match.thread_id)
    await answered(await ana.slash("hanamikoji board", channel=match.thread_id))
    await settle(emulator, bot)  # it answers first, then draws and posts
    new = board_message(ana, match.thread_id)
    assert new.id != old.id
    assert "board has moved" in ana.message(old).text()


async def test_settings_need_manage_server(emulator, bot):
    ana = emulator.user("ana")
    refused = await answered(await ana.slash("hanamikoji settings", threads=False))
    assert refused.ephemeral and "Manage Server" in refused.text()


async def rematch_pressed(emulator, bot, press):
    """What a Rematch press shows: the bot answers at once, then says who it waits for
    (a public followup) or, once both pressed, takes the button away."""
    await press.first_response()
    await settle(emulator, bot)
    return press.followups[-1] if press.followups else press.message


async def test_rematch_needs_both_players_then_starts_a_new_match(emulator, bot):
    from tests.e2e.players import challenge_and_accept

    match = await challenge_and_accept(emulator, bot)
    ana, ben = match.players
    ask = await answered(await ana.slash("hanamikoji resign", channel=match.thread_id))
    await answered(await ana.click(ask, "Yes, resign"))
    await settle(emulator, bot)
    result = next(m for m in ana.messages(match.thread_id) if m.buttons() and "Rematch" in m.text())
    waiting = await rematch_pressed(emulator, bot, await ana.click(result, "Rematch"))
    assert "Waiting for ben" in waiting.text() and not waiting.ephemeral
    assert await bot.service.queries.open_matches_for(ana.id) == []
    stranger = await answered(await emulator.user("cara").click(result, "Rematch"))
    assert "Only the two players" in stranger.text()
    await rematch_pressed(emulator, bot, await ben.click(result, "Rematch"))
    await settle(emulator, bot)
    (rematch,) = await bot.service.queries.open_matches_for(ana.id)
    assert rematch.status is MatchStatus.ACTIVE and set(rematch.players) == {ana.id, ben.id}
    assert rematch.placement.thread_id not in (None, match.thread_id)


MANAGE_SERVER = 1 << 5


async def test_an_admin_sets_server_defaults_that_new_matches_use(emulator, bot):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    ana.grant(MANAGE_SERVER)
    shown = await answered(await ana.slash("hanamikoji settings"))
    assert "Turn timer: **1 day**" in shown.text() and "thread per match: **on**" in shown.text()
    changed = await answered(
        await ana.slash("hanamikoji settings", turn_timer=3600, threads=False, three_rounds=True)
    )
    assert "updated" in changed.text() and "Turn timer: **1 hour**" in changed.text()
    challenge = await answered(await ben.slash("hanamikoji challenge", opponent=ana))
    assert "three rounds" in challenge.text() and "1 hour" in challenge.text()
    await answered(await ana.click(challenge, "Accept"))
    await settle(emulator, bot)
    assert ana.threads() == [], "threads are off: the match is in the channel"
    assert any(b.label.startswith("Hand") for m in ana.messages() for b in m.buttons())


async def test_a_rematch_press_survives_a_restart(emulator, start_bot):
    from tests.e2e.players import challenge_and_accept

    bot = await start_bot()
    match = await challenge_and_accept(emulator, bot)
    ana, ben = match.players
    ask = await answered(await ana.slash("hanamikoji resign", channel=match.thread_id))
    await answered(await ana.click(ask, "Yes, resign"))
    await settle(emulator, bot)
    result = next(m for m in ana.messages(match.thread_id) if m.buttons() and "Rematch" in m.text())
    waiting = await rematch_pressed(emulator, bot, await ana.click(result, "Rematch"))
    assert "Waiting for ben" in waiting.text()
    await bot.close()

    restarted = await start_bot()
    # the button the bot posted before its restart
    await rematch_pressed(emulator, restarted, await ben.click(result, "Rematch"))
    await settle(emulator, restarted)
    (rematch,) = await restarted.service.queries.open_matches_for(ana.id)
    assert rematch.status is MatchStatus.ACTIVE and set(rematch.players) == {ana.id, ben.id}
    assert not ana.message(result).buttons(), "the new match started: the button is gone"


EDIT_THROUGH_WEBHOOK = "/webhooks/{application_id}/{token}/messages/{message_id}"


async def test_a_stale_rematch_button_pressed_after_a_restart_starts_nothing(emulator, start_bot):
    from tests.e2e.players import challenge_and_accept

    bot = await start_bot()
    match = await challenge_and_accept(emulator, bot)
    ana, ben = match.players
    ask = await answered(await ana.slash("hanamikoji resign", channel=match.thread_id))
    await answered(await ana.click(ask, "Yes, resign"))
    await settle(emulator, bot)
    result = next(m for m in ana.messages(match.thread_id) if m.buttons() and "Rematch" in m.text())
    await rematch_pressed(emulator, bot, await ana.click(result, "Rematch"))
    # The press that starts the rematch cannot take the button away: Discord refuses the edit.
    emulator.faults.server_error(EDIT_THROUGH_WEBHOOK, method="PATCH", status=404)
    await rematch_pressed(emulator, bot, await ben.click(result, "Rematch"))
    (rematch,) = await bot.service.queries.open_matches_for(ana.id)
    assert ana.message(result).buttons(), "the old button is still there"
    await bot.close()

    restarted = await start_bot()
    for presser in (ben, ana):
        press = await presser.click(result, "Rematch")
        refused = await rematch_pressed(emulator, restarted, press)
        assert refused.ephemeral and "already started" in refused.text()
    (still,) = await restarted.service.queries.open_matches_for(ana.id)
    assert still.match_id == rematch.match_id
    assert await restarted.service.store.get_match(rematch.match_id + 1) is None, "no third match"


async def test_challenging_the_same_member_again_at_once_is_refused_saying_when(emulator, bot):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    challenge = await answered(await ana.slash("hanamikoji challenge", opponent=ben))
    again = await answered(await ana.slash("hanamikoji challenge", opponent=ben))
    assert again.ephemeral and "already challenged them" in again.text()
    await answered(await ana.click(challenge, "Decline"))  # withdrawn
    await settle(emulator, bot)

    refused = await answered(await ana.slash("hanamikoji challenge", opponent=ben))
    assert refused.ephemeral and "You challenged them a moment ago" in refused.text()
    assert re.search(r"again <t:\d+:R>\.$", refused.text()), refused.text()
    (only,) = ben.messages()
    assert only.id == challenge.id, "ben was shown, and pinged by, one challenge"


async def test_the_hourly_limit_on_new_matches_is_refused_saying_when(emulator, start_bot):
    bot = await start_bot(max_new_matches_per_hour=2)
    ana = emulator.user("ana")
    for _ in range(2):
        await answered(await ana.slash("hanamikoji ai"))
        await settle(emulator, bot)
        (info,) = await bot.service.queries.open_matches_for(ana.id)
        await bot.service.commands.resign(info.match_id, ana.id)
        await settle(emulator, bot)
    refused = await answered(await ana.slash("hanamikoji ai"))
    assert refused.ephemeral and "started 2 matches in the last hour" in refused.text()
    assert re.search(r"another <t:\d+:R>\.$", refused.text()), refused.text()
    assert await bot.service.queries.open_matches_for(ana.id) == []
