"""The emulator's own checks, driven by the real discord.py client running `SampleBot`."""

from __future__ import annotations

import asyncio
import io
import time

import discord
import pytest
from discord.http import Route

from tests.discord_emulator import (
    CallbackType,
    DiscordEmulator,
    Failure,
    ImpossibleUserAction,
    InteractionFailed,
    Scope,
    discord_py_pointed_at,
    start_client,
)
from tests.discord_emulator.errors import (
    ALREADY_ACKNOWLEDGED,
    CANNOT_SEND_TO_USER,
    INVALID_FORM_BODY,
    INVALID_WEBHOOK_TOKEN,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
)
from tests.discord_emulator.fixtures import fail_on_unexpected_failures
from tests.discord_emulator.sample_bot import GlobalPingClient, SampleBot
from tests.discord_emulator.transcript import Action

# logging in -------------------------------------------------------------------------


async def test_login_syncs_guild_commands_and_fills_the_cache(emulator, bot):
    synced = emulator.commands.guild_commands[emulator.guild_id]["hanamikoji"]
    subcommands = {option["name"] for option in synced["options"]}
    assert {"rules", "challenge", "think", "pick", "house"} <= subcommands
    guild = bot.get_guild(emulator.guild_id)
    assert guild is not None
    assert guild.get_channel(emulator.channel.id) is not None
    assert emulator.gateway.identify_count == 1
    assert bot.latency < 1.0  # the emulator answered the heartbeat


async def test_a_command_round_trip_is_fast(emulator, bot):
    started = time.perf_counter()
    interaction = await emulator.user("ana").slash("hanamikoji rules")
    assert await interaction.first_response() is CallbackType.CHANNEL_MESSAGE_WITH_SOURCE
    await emulator.idle()
    assert interaction.response_latency is not None
    assert interaction.response_latency < 0.5
    assert time.perf_counter() - started < 0.5
    assert emulator.slowest_first_response() is interaction


# ephemerals and visibility ----------------------------------------------------------


async def test_an_ephemeral_is_seen_and_clicked_only_by_its_user(emulator, bot):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    interaction = await ana.slash("hanamikoji rules")
    await interaction.first_response()
    rules = interaction.message
    assert rules is not None and rules.ephemeral
    assert ana.can_see(rules) and not ben.can_see(rules)
    assert rules.id not in [m.id for m in ben.messages()]
    with pytest.raises(ImpossibleUserAction):
        await ben.click(rules, "Got it")

    click = await ana.click(rules, "Got it")
    assert await click.first_response() is CallbackType.UPDATE_MESSAGE
    assert ana.message(rules).content == "Enjoy the game."
    assert ana.message(rules).buttons() == []

    assert [e.text() for e in emulator.transcript.visible_to(ben.id)] == []
    assert any("win 4 geishas" in e.text() for e in emulator.transcript.ephemeral_to(ana.id))
    emulator.transcript.assert_never_seen_by(ben.id, "geishas")
    with pytest.raises(AssertionError, match="geishas"):
        emulator.transcript.assert_never_seen_by(ana.id, "geishas")


async def test_an_ephemeral_cannot_be_edited_through_the_channel(emulator, bot):
    interaction = await emulator.user("ana").slash("hanamikoji rules")
    await interaction.first_response()
    assert interaction.message is not None
    channel = bot.get_channel(emulator.channel.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.NotFound) as raised:
        await channel.get_partial_message(interaction.message.id).edit(content="leak")
    assert raised.value.code == UNKNOWN_MESSAGE
    assert [f.code for f in emulator.take_failures()] == [UNKNOWN_MESSAGE]


# options, members, DynamicItems, threads ---------------------------------------------


async def test_a_subcommand_with_a_user_option_resolves_the_member(emulator, bot):
    ana, ben, cara = (emulator.user(n) for n in ("ana", "ben", "cara"))
    interaction = await ana.slash("hanamikoji challenge", opponent=ben)
    await interaction.first_response()
    challenge = interaction.message
    assert challenge is not None and not challenge.ephemeral
    assert challenge.content == f"{ana.mention} challenges {ben.mention} (ben)"
    assert cara.can_see(challenge)

    refused = await cara.click(challenge, "Accept")
    await refused.first_response()
    assert refused.message is not None
    assert refused.message.content == "This challenge is not for you."
    assert not ben.can_see(refused.message)

    accepted = await ben.click(challenge, "Accept")
    await accepted.first_response()
    await emulator.idle()
    assert ana.message(challenge).content == "Challenge accepted!"
    (thread,) = ana.threads()
    assert thread.id == challenge.id  # a thread from a message shares its id
    assert bot.get_channel(thread.id) is not None  # THREAD_CREATE reached the client
    assert ana.last_message(thread).content == f"Welcome {ben.mention}"
    assert [e.visibility.scope for e in emulator.transcript.in_channel(thread.id)] == [Scope.PUBLIC]


async def test_missing_and_unknown_options_are_refused_like_the_client_does(emulator, bot):
    ana = emulator.user("ana")
    with pytest.raises(ImpossibleUserAction, match="requires"):
        await ana.slash("hanamikoji challenge")
    with pytest.raises(ImpossibleUserAction, match="no subcommand"):
        await ana.slash("hanamikoji surrender")
    with pytest.raises(ImpossibleUserAction, match="no command"):
        await ana.slash("chess")


async def test_a_restarted_client_handles_a_button_of_the_previous_one(emulator):
    first = await start_client(emulator, SampleBot(guild_id=emulator.guild_id))
    interaction = await emulator.user("ana").slash("hanamikoji counter")
    await interaction.first_response()
    counter = interaction.message
    assert counter is not None
    await first.stop()

    second = await start_client(emulator, SampleBot(guild_id=emulator.guild_id))
    click = await emulator.user("ben").click(counter, "Count 0")
    assert await click.first_response() is CallbackType.UPDATE_MESSAGE
    assert emulator.user("ben").message(counter).content == "count is 1"
    assert [b.label for b in emulator.user("ben").message(counter).buttons()] == ["Count 1"]
    assert emulator.gateway.identify_count == 2
    await second.stop()


# selects, modals, deferrals -----------------------------------------------------------


async def test_picking_options_in_a_select(emulator, bot):
    ana = emulator.user("ana")
    interaction = await ana.slash("hanamikoji pick")
    await interaction.first_response()
    menu = interaction.message
    assert menu is not None
    assert [o.label for o in menu.select("Pick cards").options][:2] == ["Card 1", "Card 2"]
    with pytest.raises(ImpossibleUserAction):
        await ana.select(menu, ["1", "2", "3"])  # max_values is 2
    picked = await ana.select(menu, ["2", "4"])
    await picked.first_response()
    assert ana.message(menu).content == "picked 2, 4"


async def test_submitting_a_modal(emulator, bot):
    ana = emulator.user("ana")
    opened = await ana.slash("hanamikoji house")
    assert await opened.first_response() is CallbackType.MODAL
    assert opened.modal is not None and opened.modal.title == "Name your tea house"
    submitted = await ana.submit_modal(opened, {"Name": "Gion"})
    await submitted.first_response()
    assert submitted.message is not None
    assert submitted.message.content == "Welcome to Gion"
    assert submitted.message.ephemeral
    with pytest.raises(ImpossibleUserAction):
        await ana.submit_modal(opened, {"Name": "again"})


async def test_the_first_followup_after_a_defer_fills_the_placeholder(emulator, bot):
    ana = emulator.user("ana")
    interaction = await ana.slash("hanamikoji think")
    assert await interaction.first_response() is CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
    await emulator.idle()
    assert interaction.message is not None
    assert interaction.message.content == "your hand: Gift, Secret"
    assert interaction.message.ephemeral  # inherited from the ephemeral defer
    assert [m.content for m in interaction.followups] == ["an edited followup"]
    assert all(m.ephemeral for m in interaction.followups)
    actions = [e.action for e in emulator.transcript.ephemeral_to(ana.id)]
    assert actions == [
        Action.FOLLOWUP,  # filled the placeholder
        Action.FOLLOWUP,
        Action.WEBHOOK_EDIT,
        Action.FOLLOWUP,
        Action.MESSAGE_DELETE,
    ]
    assert not [e for e in emulator.transcript.public() if "Gift" in e.text()]


async def test_a_deferred_update_then_an_edit_of_the_original(emulator, bot):
    ana = emulator.user("ana")
    interaction = await ana.slash("hanamikoji mess")
    await interaction.first_response()
    mess = interaction.message
    assert mess is not None
    click = await ana.click(mess, "Tidy")
    assert await click.first_response() is CallbackType.DEFERRED_UPDATE_MESSAGE
    await emulator.idle()
    assert ana.message(mess).content == "tidied"
    assert ana.message(mess).ephemeral and ana.message(mess).buttons() == []


async def test_a_command_in_a_thread_is_answered_in_the_thread(emulator, bot):
    channel = bot.get_channel(emulator.channel.id)
    assert isinstance(channel, discord.TextChannel)
    thread = await channel.create_thread(name="table", type=discord.ChannelType.public_thread)
    ana = emulator.user("ana")
    interaction = await ana.slash(
        "hanamikoji challenge", channel=thread.id, opponent=emulator.user("ben")
    )
    await interaction.first_response()
    assert interaction.message is not None
    assert interaction.message.channel_id == thread.id
    assert ana.last_message(thread.id).id == interaction.message.id


# Discord's rules ----------------------------------------------------------------------


async def test_a_late_first_response_fails_the_interaction(emulator, bot):
    emulator.response_deadline = 0.1  # stands in for Discord's 3 s, to keep the test fast
    bot.slow_seconds = 0.15
    interaction = await emulator.user("ana").slash("hanamikoji slow")
    with pytest.raises(InteractionFailed):
        await interaction.first_response()
    await emulator.idle(quiet=0.1)  # the bot is still asleep; nothing marks it busy
    assert [e.code for e in bot.errors] == [UNKNOWN_INTERACTION]
    failures = emulator.take_failures()
    assert "no response within 0.1 s" in failures[0].what
    assert failures[1].code == UNKNOWN_INTERACTION


async def test_answering_twice_is_refused(emulator, bot):
    interaction = await emulator.user("ana").slash("hanamikoji rules")
    await interaction.first_response()
    answered = bot.seen[-1]
    answered.response._response_type = None  # get past discord.py's own guard
    with pytest.raises(discord.HTTPException) as raised:
        await answered.response.send_message("again")
    assert raised.value.code == ALREADY_ACKNOWLEDGED
    assert [f.code for f in emulator.take_failures()] == [ALREADY_ACKNOWLEDGED]


async def test_an_expired_token_cannot_edit_the_response(emulator, bot):
    interaction = await emulator.user("ana").slash("hanamikoji rules")
    await interaction.first_response()
    await bot.seen[-1].edit_original_response(content="edited in time")
    emulator.advance(15 * 60 + 1)
    with pytest.raises(discord.HTTPException) as raised:
        await bot.seen[-1].edit_original_response(content="too late")
    assert raised.value.code == INVALID_WEBHOOK_TOKEN
    assert interaction.message is not None
    assert interaction.message.content == "edited in time"
    assert [f.code for f in emulator.take_failures()] == [INVALID_WEBHOOK_TOKEN]


async def test_a_custom_id_of_101_characters_is_rejected(emulator, bot):
    emulator.response_deadline = 0.1
    interaction = await emulator.user("ana").slash("hanamikoji broken")
    with pytest.raises(InteractionFailed):
        await interaction.first_response()
    (error,) = bot.errors
    assert error.code == INVALID_FORM_BODY
    assert "custom_id" in str(error)
    failures = emulator.take_failures()
    assert [f.code for f in failures] == [INVALID_FORM_BODY, None]  # then the 3 s ran out


async def test_closed_dms_get_50007(emulator, bot):
    ana = emulator.user("ana")
    ana.close_dms()
    interaction = await ana.slash("hanamikoji dm")
    await interaction.first_response()
    assert interaction.message is not None
    assert interaction.message.content == "I cannot DM you."
    assert [e.code for e in bot.errors] == [CANNOT_SEND_TO_USER]
    assert [f.code for f in emulator.take_failures()] == [CANNOT_SEND_TO_USER]
    assert ana.dms() == []


async def test_a_dm_with_a_file_reaches_only_its_recipient(emulator, bot):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    interaction = await ana.slash("hanamikoji dm")
    await interaction.first_response()
    (dm,) = ana.dms()
    assert dm.content == "psst, your secret hand"
    assert dm.attachments == (("hand.txt", b"HAND:GIFT"),)
    (entry,) = emulator.transcript.dms_to(ana.id)
    assert entry.contains(b"HAND:GIFT") and "[attachment] hand.txt" in entry.text()
    emulator.transcript.assert_never_seen_by(ben.id, b"HAND:GIFT")
    assert not ben.can_see(dm)


async def test_a_rate_limited_message_is_retried_and_arrives(emulator, bot):
    emulator.faults.rate_limit("/channels/{channel_id}/messages", method="POST", retry_after=0.05)
    await emulator.user("ana").slash("hanamikoji post", text="hello tea house")
    await emulator.idle()
    assert emulator.user("ben").last_message().content == "hello tea house"
    assert [f.status for f in emulator.faults.injected] == [429]


async def test_a_transient_server_error_is_retried(emulator, bot):
    # discord.py waits 1 s before retrying a 502; that is its backoff, not the emulator's.
    emulator.faults.server_error("/channels/{channel_id}/messages", method="POST")
    await emulator.user("ana").slash("hanamikoji post", text="after the outage")
    await emulator.idle(max_wait=3)
    assert emulator.user("ben").last_message().content == "after the outage"
    assert [f.status for f in emulator.faults.injected] == [502]


async def test_message_limits_are_enforced_on_channel_sends(emulator, bot):
    channel = bot.get_channel(emulator.channel.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as raised:
        await channel.send("x" * 2001)
    assert raised.value.code == INVALID_FORM_BODY
    with pytest.raises(discord.HTTPException):
        await channel.send(embed=discord.Embed(description="d" * 4097))
    assert [f.code for f in emulator.take_failures()] == [INVALID_FORM_BODY] * 2


async def test_an_unemulated_route_is_a_failure(emulator, bot):
    with pytest.raises(discord.NotFound):
        await bot.http.request(Route("GET", "/guilds/{guild_id}/bans", guild_id=emulator.guild_id))
    (failure,) = emulator.take_failures()
    assert "does not implement" in failure.what
    emulator.assert_no_failures()


# the Gateway ---------------------------------------------------------------------------


async def test_resume_after_a_dropped_connection_replays_missed_events(emulator, bot):
    await emulator.gateway.drop_connections()
    # Dispatched while the client is away: the session keeps it for the RESUME.
    interaction = await emulator.user("ana").slash("hanamikoji rules")
    await emulator.gateway.wait_for_resume(1)
    await interaction.first_response()
    assert emulator.gateway.identify_count == 1
    assert emulator.gateway.paths[-1].startswith("/gateway-resume")


async def test_a_global_command_works_in_dms_without_a_guild(emulator):
    client = GlobalPingClient()
    running = await start_client(emulator, client)
    ana = emulator.user("ana")
    interaction = await ana.slash("ping", channel=ana.dm)
    await interaction.first_response()
    assert client.guild_ids_seen == [None]  # DM interactions carry no guild_id
    (reply,) = ana.dms()
    assert reply.content == "pong" and reply.attachment_names == ["pong.png"]
    assert emulator.transcript.dms_to(ana.id)[0].visibility.scope is Scope.DM
    await running.stop()


# the transcript -----------------------------------------------------------------------


async def test_the_transcript_text_shows_everything_a_reader_sees(emulator, bot):
    channel = bot.get_channel(emulator.channel.id)
    assert isinstance(channel, discord.TextChannel)
    embed = discord.Embed(title="Round 2", description="Ana to play")
    embed.add_field(name="Charm", value="7").set_footer(text="turn 3")
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Secret", custom_id="hk:1:secret"))
    view.add_item(
        discord.ui.Select(custom_id="hk:1:pick", options=[discord.SelectOption(label="Gift")])
    )
    message = await channel.send(
        "Board", embed=embed, view=view, file=discord.File(io.BytesIO(b"img"), "board.png")
    )
    edited = await message.edit(content="Board (updated)")
    assert edited.content == "Board (updated)"
    sent, edit = emulator.transcript.public()
    assert sent.text().splitlines() == [
        "Board",
        "[embed title] Round 2",
        "[embed description] Ana to play",
        "[embed field] Charm: 7",
        "[embed footer] turn 3",
        "[button] Secret",
        "[select] hk:1:pick",
        "[option] Gift",
        "[attachment] board.png",
    ]
    assert edit.text().startswith("Board (updated)\n[embed title] Round 2")
    assert [e.visibility for e in emulator.transcript.visible_to(emulator.user("cara").id)] == [
        sent.visibility,
        edit.visibility,
    ]


# channels, threads, history -----------------------------------------------------------


async def test_a_private_thread_shows_only_to_its_members(emulator, bot):
    ana, ben, cara = (emulator.user(n) for n in ("ana", "ben", "cara"))
    channel = bot.get_channel(emulator.channel.id)
    assert isinstance(channel, discord.TextChannel)
    thread = await channel.create_thread(name="ana vs ben", type=discord.ChannelType.private_thread)
    await thread.add_user(discord.Object(ana.id))
    await thread.add_user(discord.Object(ben.id))
    await thread.send("Ana holds the Secret")
    assert [t.id for t in ana.threads()] == [thread.id] == [t.id for t in ben.threads()]
    assert cara.threads() == []
    with pytest.raises(ImpossibleUserAction):
        cara.messages(thread.id)
    emulator.transcript.assert_never_seen_by(cara.id, "Secret")
    assert ben.last_message(thread.id).content == "Ana holds the Secret"


async def test_history_fetch_and_delete_through_the_channel(emulator, bot):
    channel = bot.get_channel(emulator.channel.id)
    assert isinstance(channel, discord.TextChannel)
    first = await channel.send("one")
    await channel.send("two")
    ana_id = emulator.user("ana").id
    # Listen before ana speaks: the client may read the event before `say` returns.
    received = asyncio.ensure_future(
        bot.wait_for("message", check=lambda m: m.author.id == ana_id, timeout=1)
    )
    said = await emulator.user("ana").say("hi bot")
    assert (await received).id == said.id  # MESSAGE_CREATE reached the client
    assert [m.content for m in [m async for m in channel.history(limit=10)]] == [
        "",  # without the message content intent Discord blanks ana's text
        "two",
        "one",
    ]
    assert (await channel.fetch_message(first.id)).content == "one"
    await first.delete()
    assert [m.content for m in emulator.user("ben").messages()] == ["two", "hi bot"]
    with pytest.raises(discord.NotFound):
        await channel.fetch_message(first.id)
    assert [f.code for f in emulator.take_failures()] == [UNKNOWN_MESSAGE]


async def test_a_channel_added_later_reaches_the_client(emulator, bot):
    channel = await emulator.add_text_channel("tournament")
    await emulator.idle()
    assert isinstance(bot.get_channel(channel.id), discord.TextChannel)
    interaction = await emulator.user("cara").slash("hanamikoji rules", channel=channel)
    await interaction.first_response()


async def test_a_client_left_running_is_stopped_with_the_emulator():
    async with DiscordEmulator() as emulator:
        with discord_py_pointed_at(emulator):
            running = await start_client(emulator, discord.Client(intents=discord.Intents.none()))
    assert running.client.is_closed() and running.task.done()


async def test_the_members_intent_brings_every_member(emulator):
    intents = discord.Intents.default()
    intents.members = True
    running = await start_client(emulator, discord.Client(intents=intents))
    guild = running.client.get_guild(emulator.guild_id)
    assert guild is not None and guild.chunked
    # The server's owner is a member too: nobody a test plays, since an owner has every right.
    assert sorted(m.name for m in guild.members if not m.bot) == ["ana", "ben", "cara", "owner"]
    await running.stop()


async def test_a_failure_left_unconsumed_fails_the_test(emulator):
    emulator.record_failure(Failure("something Discord refuses", status=400, code=50035))
    with pytest.raises(AssertionError, match="something Discord refuses"):
        emulator.assert_no_failures()
    with pytest.raises(pytest.fail.Exception, match="something Discord refuses"):
        fail_on_unexpected_failures(emulator)
    emulator.tolerate_failures = True
    fail_on_unexpected_failures(emulator)
    emulator.take_failures()
    emulator.tolerate_failures = False
    fail_on_unexpected_failures(emulator)


async def test_a_third_rename_within_ten_minutes_is_a_failure(emulator, bot):
    channel = bot.get_channel(emulator.channel.id)
    assert isinstance(channel, discord.TextChannel)
    thread = await channel.create_thread(name="turn: ana", type=discord.ChannelType.public_thread)
    await thread.edit(name="turn: ben")
    await thread.edit(name="turn: ana")
    assert emulator.failures == []
    await thread.edit(name="turn: ben")
    (failure,) = emulator.take_failures()
    assert failure.status == 429
    emulator.advance(600)
    await thread.edit(name="turn: ana")
    assert emulator.failures == []
