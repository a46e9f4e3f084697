"""The bot against a Discord as strict as the real one: rate limits and long 429 storms,
threads that archive, the active-thread limit, missing permissions, commands in DMs."""

import asyncio
import math

import pytest

from bot.play.presence import AWAY_AFTER_SECONDS
from engine.model import MatchStatus
from tests.discord_emulator.permissions import INVITE_PERMISSIONS
from tests.e2e.players import (
    HAND,
    HANG_GUARD_SECONDS,
    Match,
    answered,
    board_message,
    challenge_and_accept,
    presence_of,
    settle,
    whose_turn,
)

THREAD_MESSAGES = "/channels/{channel_id}/messages"
THREAD_MESSAGE = "/channels/{channel_id}/messages/{message_id}"


async def play_a_secret(user, match) -> str:
    """Hand → Secret → a card → Confirm, through the board's Hand button; the panel's answer."""
    panel = await answered(await user.click(board_message(user, match.thread_id), HAND))
    panel = await answered(await user.click(panel, "Secret (1)"))
    panel = await answered(await user.select(panel, [panel.select().options[0].value]))
    (confirm,) = [b.label for b in panel.buttons() if b.label.startswith("Confirm")]
    done = await answered(await user.click(panel, confirm))
    return done.text()


@pytest.mark.slow
async def test_a_long_429_storm_loses_no_move_and_applies_none_twice(emulator, bot):
    match = await challenge_and_accept(emulator, bot)
    version = (await bot.service.queries.public_view(match.match_id)).version
    before = board_message(match.players[0], match.thread_id).text()
    # Every new message and every edit in the thread refused until the storm is ended, each
    # 429 asking for a short wait: discord.py gives up after five tries, and the bot must
    # try again later.
    storms = [
        emulator.rate_limits.storm(route, method=method, seconds=math.inf, retry_after=0.5)
        for route, method in ((THREAD_MESSAGES, "POST"), (THREAD_MESSAGE, "PATCH"))
    ]
    first, second = await whose_turn(bot, match)

    # During the storm both players move; each learns at once that the move was taken.
    assert "✅ Secret: " in await play_a_secret(first, match)
    assert "✅ Secret: " in await play_a_secret(second, match)
    async with asyncio.timeout(HANG_GUARD_SECONDS):
        # Ten refused edits: discord.py gave up twice, so the bot tried again after it did.
        await storms[1].refused(10)
    assert board_message(first, match.thread_id).text() == before, "Discord refused every edit"

    for storm in storms:
        storm.end()
    await settle(emulator, bot)  # until the bot has caught up
    assert (await bot.service.queries.public_view(match.match_id)).version == version + 2
    board = board_message(first, match.thread_id).text()
    for player in (first, second):
        assert f"**{player.name}** used Secret `1X`" in board
    assert emulator.rate_limits.stats.sent_429s["user"] >= 10
    assert emulator.rate_limits.stats.sent_429s["global"] == 0
    emulator.assert_no_failures()


async def test_moves_keep_coming_while_a_match_goes_on_in_a_quiet_thread(emulator, bot):
    """Two players at the table: every move edits the board, nobody is pinged."""
    match = await challenge_and_accept(emulator, bot)

    def public_messages() -> int:
        return len([m for m in match.players[0].messages(match.thread_id) if not m.ephemeral])

    messages_before = public_messages()
    first, second = await whose_turn(bot, match)
    await play_a_secret(first, match)
    await settle(emulator, bot)
    await play_a_secret(second, match)
    await settle(emulator, bot)
    assert public_messages() == messages_before
    board = board_message(first, match.thread_id).text()
    for player in (first, second):
        assert f"**{player.name}** used Secret `1X`" in board
    assert (await bot.service.queries.match_info(match.match_id)).status is MatchStatus.ACTIVE


async def test_a_thread_that_archived_between_two_turns_goes_on(emulator, bot):
    """A player away for more than a week plays from their DM panel: the board is in an
    archived thread, which Discord refuses to edit until it is unarchived."""
    ana = emulator.user("ana")
    await answered(await ana.slash("hanamikoji notify", dm=True))
    match = await challenge_and_accept(emulator, bot)
    mover, _ = await whose_turn(bot, match)
    if mover is not ana:
        await play_a_secret(mover, match)
        await settle(emulator, bot)
    thread = emulator.world.channel(match.thread_id)
    assert thread.auto_archive_duration == 10080, "a week, longer than any turn timer"

    emulator.advance(7 * 24 * 3600 + 60)
    await settle(emulator, bot)
    assert thread.archived

    dm_panel = [m for m in ana.dms() if m.buttons()][-1]
    panel = await answered(await ana.click(dm_panel, "Secret (1)"))
    panel = await answered(await ana.select(panel, [panel.select().options[0].value]))
    confirm = next(b.label for b in panel.buttons() if b.label.startswith("Confirm"))
    assert "✅ Secret: " in (await answered(await ana.click(panel, confirm))).text()
    await settle(emulator, bot)

    assert not thread.archived
    assert "**ana** used Secret `1X`" in board_message(ana, match.thread_id).text()
    emulator.assert_no_failures()


async def start_a_challenge(emulator, bot):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    challenge = await answered(await ana.slash("hanamikoji challenge", opponent=ben))
    if not any(b.label == "Accept" for b in challenge.buttons()):
        return challenge
    await answered(await ben.click(challenge, "Accept"))
    await settle(emulator, bot)
    return challenge


@pytest.mark.parametrize("permission", INVITE_PERMISSIONS)
async def test_a_server_missing_a_permission_gets_a_match_it_can_show_or_a_reason(
    emulator, bot, permission
):
    await emulator.deny_bot(permission)
    ana = emulator.user("ana")
    challenge = await start_a_challenge(emulator, bot)
    matches = await bot.service.queries.open_matches_for(ana.id)
    if permission in ("View Channels", "Send Messages"):
        # The bot could not post the board here: it says why, and starts nothing.
        assert challenge.ephemeral
        assert f"I am missing **{permission}**" in challenge.text()
        assert matches == []
        refused = await answered(await ana.slash("hanamikoji ai"))
        assert refused.ephemeral and f"**{permission}**" in refused.text()
        assert await bot.service.queries.open_matches_for(ana.id) == []
        emulator.assert_no_failures()
        return
    (info,) = matches
    place = info.placement.thread_id or emulator.channel.id
    board = board_message(ana, place)
    if permission in ("Create Public Threads", "Send Messages in Threads"):
        assert info.placement.thread_id is None and ana.threads() == []
        texts = [m.text() for m in ana.messages(emulator.channel.id)]
        assert any(f"missing permission: **{permission}**" in t for t in texts)
    if permission == "Attach Files":
        assert board.attachments == () and "[image]" not in board.text()  # no empty gallery
        assert any("the board is shown as text" in m.text() for m in ana.messages(place))
    if permission == "Embed Links":
        # The board has no embed to lose: its layout (Components V2) shows whole, picture too.
        assert board.embeds == () and "### Hanamikoji · ana vs ben" in board.text()
        assert board.attachment_names == ["board.png"]
    # Whatever is missing, the match is played to its next move.
    match = Match(info.match_id, place, (ana, emulator.user("ben")))
    mover, _ = await whose_turn(bot, match)
    assert "✅ Secret: " in await play_a_secret(mover, match)
    await settle(emulator, bot)
    assert f"**{mover.name}** used Secret `1X`" in board_message(ana, place).text()
    emulator.assert_no_failures()


async def test_thread_creation_refused_with_400_plays_the_match_in_the_channel(emulator, bot):
    emulator.world.max_active_threads = 0  # the server is at Discord's active-thread limit
    ana = emulator.user("ana")
    await start_a_challenge(emulator, bot)
    (info,) = await bot.service.queries.open_matches_for(ana.id)
    assert info.placement.thread_id is None
    texts = [m.text() for m in ana.messages(emulator.channel.id)]
    assert any("I could not open a thread for this match (Discord refused" in t for t in texts)
    assert board_message(ana, emulator.channel.id) is not None
    # The bot cannot know the limit before asking: one refusal, then the channel.
    assert [f.code for f in emulator.take_failures()] == [160006]


async def test_in_the_bots_dm_a_member_plays_the_ai_but_challenges_nobody(emulator, bot):
    """The commands go to the bot's DM too (a guild install offers them there): the AI's
    board is the command's answer; a challenge there is refused, as nobody else sees it."""
    ana, ben = emulator.user("ana"), emulator.user("ben")
    (group,) = [c for c in emulator.commands.listed(emulator.guild_id) if c["name"] == "hanamikoji"]
    assert group["contexts"] == [0, 1, 2] and group["integration_types"] == [0, 1]
    refused = await answered(await ana.slash("hanamikoji challenge", opponent=ben, channel=ana.dm))
    assert refused.ephemeral and "ben cannot see this conversation" in refused.text()
    assert await bot.service.queries.open_matches_for(ana.id) == []
    board = await answered(await ana.slash("hanamikoji ai", channel=ana.dm))
    await settle(emulator, bot)
    (info,) = await bot.service.queries.open_matches_for(ana.id)
    assert info.guild_id is None and info.placement.board_message_id == board.id
    shown = ana.message(board.id)
    assert "Show board 🔄" in [b.label for b in shown.buttons()]
    assert shown.attachment_names == ["board.png"]


async def test_a_burst_of_requests_is_paced_under_the_global_limit(emulator, bot):
    """120 requests at once over two channels: each channel's bucket would let 50 a second
    through, 100 together, over Discord's 50 for the whole bot; the bot's pace keeps it
    under (a global 429 would stop every request of the bot)."""
    other = await emulator.add_text_channel("other")
    loop = asyncio.get_running_loop()
    started = loop.time()
    await asyncio.gather(
        *(
            bot.http.get_channel(channel.id)
            for channel in (emulator.channel, other)
            for _ in range(60)
        )
    )
    assert loop.time() - started >= 2.0, "120 requests at 45 a second take over two seconds"
    assert emulator.rate_limits.stats.sent_429s["global"] == 0


async def test_a_player_away_for_two_minutes_is_mentioned_on_their_turn(emulator, bot):
    now = [0.0]
    presence_of(bot).clock = lambda: now[0]
    match = await challenge_and_accept(emulator, bot)
    first, second = await whose_turn(bot, match)
    now[0] += AWAY_AFTER_SECONDS  # second looks away; first comes back and moves
    await play_a_secret(first, match)
    await settle(emulator, bot)
    pings = [m for m in second.messages(match.thread_id) if second.mention in m.content]
    assert len(pings) == 1 and "your turn" in pings[0].content
