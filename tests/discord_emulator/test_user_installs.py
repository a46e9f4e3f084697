"""User-installed apps and installation contexts, as Discord documents them (README, "User
installs and private channels"): DMs between users, group DMs and servers without the bot,
where the app is only a user's install and answers through its interactions alone."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest

from tests.discord_emulator import (
    CallbackType,
    DiscordEmulator,
    EmulatedGuild,
    EmulatedInteraction,
    EmulatedUser,
    ImpossibleUserAction,
    Scope,
    start_client,
)
from tests.discord_emulator.errors import (
    INVALID_WEBHOOK_TOKEN,
    MAX_FOLLOWUP_MESSAGES,
    MISSING_ACCESS,
)
from tests.discord_emulator.interactions import TOKEN_LIFETIME, interaction_payload
from tests.discord_emulator.permissions import (
    SEND_MESSAGES,
    USE_EXTERNAL_APPS,
    channel_permissions,
)
from tests.discord_emulator.raw_api import Answer, RawApi
from tests.discord_emulator.sample_bot import PocketApp
from tests.discord_emulator.test_sharding import raw_sessions
from tests.discord_emulator.world import ChannelRecord, ChannelType

EVERYWHERE = {"integration_types": [0, 1], "contexts": [0, 1, 2]}
EPHEMERAL = 1 << 6

# helpers ------------------------------------------------------------------------------


def register(emulator: DiscordEmulator, **fields: Any) -> None:
    """One global command, `/pocket`, synced as a bot would (no bot runs: tests answer)."""
    command = {"name": "pocket", "description": "A pocket tea set", **fields}
    emulator.commands.overwrite([command], guild_id=None)


async def invoke(user: EmulatedUser, channel: ChannelRecord) -> EmulatedInteraction:
    interaction = await user.slash("pocket", channel=channel)
    interaction.cancel_deadline()  # the test answers over HTTP, or not at all
    return interaction


def payload_of(emulator: DiscordEmulator, interaction: EmulatedInteraction) -> dict[str, Any]:
    return interaction_payload(emulator.world, interaction, message=None)


def callback_path(interaction: EmulatedInteraction) -> str:
    return f"/interactions/{interaction.id}/{interaction.token}/callback?with_response=true"


def webhook_path(emulator: DiscordEmulator, interaction: EmulatedInteraction) -> str:
    return f"/webhooks/{emulator.bot_user_id}/{interaction.token}"


async def reply(
    api: RawApi, interaction: EmulatedInteraction, content: str = "tea", **data: Any
) -> Answer:
    body = {"type": 4, "data": {"content": content, **data}}
    return await api.post(callback_path(interaction), body)


async def followup(
    api: RawApi, emulator: DiscordEmulator, interaction: EmulatedInteraction, content: str
) -> Answer:
    return await api.post(webhook_path(emulator, interaction) + "?wait=true", {"content": content})


POUR = {"type": 2, "style": 1, "label": "Pour", "custom_id": "p"}
BUTTON_ROW = [{"type": 1, "components": [POUR]}]


@pytest.fixture
async def api(emulator: DiscordEmulator) -> AsyncIterator[RawApi]:
    async with RawApi(emulator) as opened:
        yield opened


def unpaced(emulator: DiscordEmulator) -> None:
    """Rate limits off: these tests count followups, and the interaction webhook's bucket
    (5 per 2 s of real time) would only make them wait."""
    emulator.rate_limits.settings.enabled = False


@pytest.fixture
async def elsewhere(emulator: DiscordEmulator) -> EmulatedGuild:
    """A server the bot is not in, with ana and ben."""
    return await emulator.add_guild("Elsewhere", members=("ana", "ben"), bot=False)


@pytest.fixture
async def pocket(emulator: DiscordEmulator) -> AsyncIterator[PocketApp]:
    running = await start_client(emulator, PocketApp())
    assert isinstance(running.client, PocketApp)
    yield running.client
    await running.stop()


# channels the bot is not in -------------------------------------------------------------


async def test_a_dm_between_two_users_is_theirs_alone_and_not_the_bots(emulator):
    ana, ben, cara = emulator.user("ana"), emulator.user("ben"), emulator.user("cara")
    dm = emulator.private_dm(ana, ben)
    world = emulator.world
    assert dm.type is ChannelType.DM and dm.guild_id is None
    assert sorted(dm.recipient_ids) == sorted([ana.id, ben.id])
    assert emulator.private_dm(ben, ana) is dm, "one DM per pair"
    assert not world.bot_is_in(dm)
    assert world.can_see_channel(ana.id, dm) and world.can_see_channel(ben.id, dm)
    assert not world.can_see_channel(cara.id, dm)
    assert not world.can_see_channel(emulator.bot_user_id, dm)
    # The bot's own DM is unchanged: the bot is in it.
    assert ana.dm is not dm and world.bot_is_in(ana.dm)
    assert world.can_see_channel(emulator.bot_user_id, ana.dm)


async def test_a_group_dm_has_recipients_an_owner_and_a_name(emulator):
    ana, ben, cara = emulator.user("ana"), emulator.user("ben"), emulator.user("cara")
    gdm = emulator.group_dm(ana, ben, cara, name="tea party")
    assert gdm.type is ChannelType.GROUP_DM and gdm.owner_id == ana.id
    assert not emulator.world.bot_is_in(gdm)
    assert all(emulator.world.can_see_channel(u.id, gdm) for u in (ana, ben, cara))
    assert not emulator.world.can_see_channel(emulator.world.owner.id, gdm)


async def test_users_who_share_no_server_can_have_a_dm(emulator):
    dana = emulator.add_user("dana", member=False)
    eli = emulator.add_user("eli", member=False)
    world = emulator.world
    assert not any(world.is_member(u.id, g) for u in (dana, eli) for g in world.guilds)
    dm = emulator.private_dm(dana, eli)
    said = await dana.say("hi eli", channel=dm)
    assert eli.can_see(said) and not emulator.user("ana").can_see(said)
    with pytest.raises(ImpossibleUserAction):
        emulator.user("ana").messages(dm)


async def test_the_bot_hears_nothing_of_channels_it_is_not_in(emulator, api, elsewhere):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    register(emulator, **EVERYWHERE)
    ana.install_app()
    async with raw_sessions(emulator, [0, 1]) as (session,):
        await ben.say("psst", channel=emulator.private_dm(ana, ben))
        await ben.say("hello", channel=elsewhere.channel)
        interaction = await invoke(ana, emulator.private_dm(ana, ben))
        assert (await reply(api, interaction)).status == 200
        await session.settle()
    assert [i["id"] for i in session.events("INTERACTION_CREATE")] == [str(interaction.id)]
    assert session.events("MESSAGE_CREATE") == []


async def test_what_the_app_shows_in_a_private_channel_is_public_to_its_recipients(emulator, api):
    ana, ben, cara = emulator.user("ana"), emulator.user("ben"), emulator.user("cara")
    register(emulator, **EVERYWHERE)
    ana.install_app()
    dm = emulator.private_dm(ana, ben)
    assert (await reply(api, await invoke(ana, dm), "the board")).status == 200
    (entry,) = emulator.transcript.in_channel(dm.id)
    assert entry.visibility.scope is Scope.PUBLIC, "hidden-information checks cover it"
    assert entry in emulator.transcript.visible_to(ben.id)
    assert entry not in emulator.transcript.visible_to(cara.id)


# which commands are offered -------------------------------------------------------------


async def test_a_private_channel_offers_only_the_installers_user_install_commands(emulator):
    ana, ben, cara = emulator.user("ana"), emulator.user("ben"), emulator.user("cara")
    register(emulator, **EVERYWHERE)
    ana.install_app()
    dm, gdm = emulator.private_dm(ana, ben), emulator.group_dm(ana, ben, cara)
    assert ana.offered_commands(dm) == ["pocket"] and ana.offered_commands(gdm) == ["pocket"]
    await invoke(ana, dm)
    await invoke(ana, gdm)
    for where in (dm, gdm):
        with pytest.raises(ImpossibleUserAction, match="has not installed the app"):
            await ben.slash("pocket", channel=where)


@pytest.mark.parametrize(
    "fields",
    [
        {"integration_types": [0, 1], "contexts": [0, 1]},
        {"integration_types": [0, 1], "contexts": None},  # no default is documented
        {"integration_types": [0, 1]},
        {"integration_types": [0], "contexts": [0, 1, 2]},
    ],
)
async def test_a_command_without_user_install_and_private_channel_is_not_offered_there(
    emulator, fields
):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    register(emulator, **fields)
    ana.install_app()
    with pytest.raises(ImpossibleUserAction):
        await ana.slash("pocket", channel=emulator.private_dm(ana, ben))


async def test_a_user_install_only_command_in_the_bots_dm_needs_the_users_install(emulator):
    ana = emulator.user("ana")
    register(emulator, integration_types=[1], contexts=[1])
    with pytest.raises(ImpossibleUserAction, match="only for users who installed the app"):
        await ana.slash("pocket", channel=ana.dm)
    ana.install_app()
    interaction = await invoke(ana, ana.dm)
    assert payload_of(emulator, interaction)["authorizing_integration_owners"] == {"1": str(ana.id)}


async def test_a_private_channel_command_is_not_offered_without_the_apps_user_install(emulator):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    register(emulator, **EVERYWHERE)
    emulator.commands.application_installs = frozenset({0})  # the portal: guild install only
    ana.install_app()
    with pytest.raises(ImpossibleUserAction):
        await ana.slash("pocket", channel=emulator.private_dm(ana, ben))


# INTERACTION_CREATE by context ------------------------------------------------------------


async def test_a_command_in_a_dm_between_users_has_context_2_and_the_installer(emulator):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    register(emulator, **EVERYWHERE)
    ana.install_app()
    dm = emulator.private_dm(ana, ben)
    payload = payload_of(emulator, await invoke(ana, dm))
    assert payload["context"] == 2
    assert payload["user"]["id"] == str(ana.id)
    assert "member" not in payload and "guild_id" not in payload and "guild" not in payload
    assert payload["channel"]["type"] == 1
    assert {r["id"] for r in payload["channel"]["recipients"]} == {str(ana.id), str(ben.id)}
    assert payload["app_permissions"] == "180224"
    assert payload["authorizing_integration_owners"] == {"1": str(ana.id)}


async def test_a_command_in_a_group_dm_carries_the_group_channel(emulator):
    ana, ben, cara = emulator.user("ana"), emulator.user("ben"), emulator.user("cara")
    register(emulator, **EVERYWHERE)
    ben.install_app()
    gdm = emulator.group_dm(ana, ben, cara, name="tea party")
    payload = payload_of(emulator, await invoke(ben, gdm))
    channel = payload["channel"]
    assert (channel["type"], channel["owner_id"], channel["name"]) == (3, str(ana.id), "tea party")
    assert len(channel["recipients"]) == 3
    assert payload["context"] == 2 and payload["app_permissions"] == "180224"
    assert payload["authorizing_integration_owners"] == {"1": str(ben.id)}


@pytest.mark.parametrize(
    ("installed", "owners"),
    [(False, {"0": "0"}), (True, {"0": "0", "1": "ANA"})],
)
async def test_a_command_in_the_bots_dm_is_owned_by_its_guild_install_as_0(
    emulator, installed, owners
):
    ana = emulator.user("ana")
    register(emulator, **EVERYWHERE)
    if installed:
        ana.install_app()
    payload = payload_of(emulator, await invoke(ana, ana.dm))
    expected = {key: str(ana.id) if value == "ANA" else value for key, value in owners.items()}
    assert payload["authorizing_integration_owners"] == expected
    assert payload["context"] == 1 and payload["app_permissions"] == "442368"


async def test_a_command_in_the_bots_guild_names_the_guild_and_an_installer(emulator):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    register(emulator, **EVERYWHERE)
    ana.install_app()
    by_ana = payload_of(emulator, await invoke(ana, emulator.channel))
    by_ben = payload_of(emulator, await invoke(ben, emulator.channel))
    guild = str(emulator.guild_id)
    assert by_ana["authorizing_integration_owners"] == {"0": guild, "1": str(ana.id)}
    assert by_ben["authorizing_integration_owners"] == {"0": guild}
    assert by_ana["context"] == 0 and "member" in by_ana


async def test_a_command_in_a_server_without_the_bot_carries_the_members_permissions(
    emulator, elsewhere
):
    ana = emulator.user("ana")
    register(emulator, **EVERYWHERE)
    ana.install_app()
    payload = payload_of(emulator, await invoke(ana, elsewhere.channel))
    theirs = str(channel_permissions(emulator.world, ana.id, elsewhere.channel))
    assert payload["guild_id"] == str(elsewhere.id) and payload["context"] == 0
    assert payload["authorizing_integration_owners"] == {"1": str(ana.id)}
    assert payload["member"]["permissions"] == theirs
    assert payload["app_permissions"] == theirs  # discord-api-docs issue 7251


async def test_a_server_without_the_bot_offers_nothing_to_a_member_without_the_install(
    emulator, elsewhere
):
    register(emulator, **EVERYWHERE)
    with pytest.raises(ImpossibleUserAction):
        await emulator.user("ben").slash("pocket", channel=elsewhere.channel)


async def test_interactions_without_a_guild_go_to_shard_0(sharded_emulator):
    emulator = sharded_emulator
    ana, ben = emulator.user("ana"), emulator.user("ben")
    register(emulator, **EVERYWHERE)
    ana.install_app()
    far = await emulator.add_guild("Far", shard_id=1, members=("ana",), bot=False)
    async with raw_sessions(emulator, [0, 2], [1, 2]) as (zero, one):
        in_dm = await invoke(ana, emulator.private_dm(ana, ben))
        in_gdm = await invoke(ana, emulator.group_dm(ana, ben))
        in_far = await invoke(ana, far.channel)
        await zero.settle()
        await one.settle()
    assert [i["id"] for i in zero.events("INTERACTION_CREATE")] == [str(in_dm.id), str(in_gdm.id)]
    assert [i["id"] for i in one.events("INTERACTION_CREATE")] == [str(in_far.id)]
    created = [g["id"] for g in one.events("GUILD_CREATE")]
    assert str(far.id) not in created, "the bot is not in that server"


async def test_discord_py_reads_the_private_channel_and_the_user(emulator, pocket):
    ana, ben, cara = emulator.user("ana"), emulator.user("ben"), emulator.user("cara")
    ana.install_app()
    gdm = emulator.group_dm(ana, ben, cara, name="tea party")
    for where in (emulator.private_dm(ana, ben), gdm):
        answer = await ana.slash("pocket tea", channel=where)
        assert await answer.first_response() is CallbackType.CHANNEL_MESSAGE_WITH_SOURCE
    await emulator.idle()
    in_dm, in_gdm = pocket.seen
    assert in_dm.context.private_channel and in_dm.guild_id is None
    assert isinstance(in_dm.channel, discord.DMChannel)
    assert isinstance(in_gdm.channel, discord.GroupChannel) and in_gdm.channel.name == "tea party"
    assert in_dm.user.id == ana.id and in_dm.is_user_integration()
    assert in_dm.app_permissions.value == 180224 and in_dm.permissions.value == 0


# clicks ---------------------------------------------------------------------------------


async def test_anyone_who_sees_a_user_install_message_may_press_its_buttons(emulator, pocket):
    ana, ben, cara = emulator.user("ana"), emulator.user("ben"), emulator.user("cara")
    ana.install_app()
    dm = emulator.private_dm(ana, ben)
    tea = await ana.slash("pocket tea", channel=dm)
    await tea.first_response()
    assert tea.message is not None and ben.can_see(tea.message)
    with pytest.raises(ImpossibleUserAction):
        await cara.click(tea.message, "Pour")  # not a recipient: she never sees it
    press = await ben.click(tea.message, "Pour")  # ben installed nothing
    assert await press.first_response() is CallbackType.UPDATE_MESSAGE
    assert ana.message(tea.message).content == "poured by ben"
    payload = payload_of(emulator, press)
    assert payload["user"]["id"] == str(ben.id)
    assert payload["authorizing_integration_owners"] == {"1": str(ana.id)}, "the installer"
    clicked = pocket.seen[-1]
    assert clicked.user.id == ben.id and not clicked.is_user_integration()
    assert clicked.message is not None and clicked.message.interaction_metadata is not None
    assert clicked.message.interaction_metadata.user.id == ana.id


async def test_clicks_in_a_server_without_the_bot_need_a_user_install_message(
    emulator, api, elsewhere
):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    register(emulator, **EVERYWHERE)
    ana.install_app()
    interaction = await invoke(ana, elsewhere.channel)
    answer = await reply(api, interaction, components=BUTTON_ROW)
    assert answer.status == 200
    message_id = int(answer.body["resource"]["message"]["id"])
    press = await ben.click(message_id, "Pour")
    press.cancel_deadline()
    assert press.owners == {"1": str(ana.id)}
    # A server that removed the bot: what it posted through the channel reaches no app.
    posted = await api.send(emulator.channel.id, "board", components=BUTTON_ROW)
    await emulator.remove_bot()
    with pytest.raises(ImpossibleUserAction, match="reach no app"):
        await ben.click(int(posted.body["id"]), "Pour")


# refusals -------------------------------------------------------------------------------


CHANNEL_CALLS = [
    ("POST", "/channels/{c}/messages", {"content": "hi"}),
    ("GET", "/channels/{c}/messages", None),
    ("GET", "/channels/{c}/messages/{m}", None),
    ("PATCH", "/channels/{c}/messages/{m}", {"content": "edited"}),
    ("DELETE", "/channels/{c}/messages/{m}", None),
    ("POST", "/channels/{c}/messages/{m}/threads", {"name": "t"}),
    ("POST", "/channels/{c}/threads", {"name": "t", "type": 11}),
    ("POST", "/channels/{c}/typing", None),
    ("GET", "/channels/{c}", None),
    ("PATCH", "/channels/{c}", {"name": "renamed"}),
    ("DELETE", "/channels/{c}", None),
    ("PUT", "/channels/{c}/pins/{m}", None),
    ("PUT", "/channels/{c}/messages/{m}/reactions/%F0%9F%8D%B5/@me", None),
]


@pytest.mark.parametrize("where", ["dm", "group dm", "server without the bot"])
@pytest.mark.parametrize(("method", "route", "body"), CHANNEL_CALLS)
async def test_every_channel_endpoint_is_missing_access_where_the_bot_is_not(
    emulator, api, elsewhere, where, method, route, body
):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    register(emulator, **EVERYWHERE)
    ana.install_app()
    channel = {
        "dm": emulator.private_dm(ana, ben),
        "group dm": emulator.group_dm(ana, ben),
        "server without the bot": elsewhere.channel,
    }[where]
    interaction = await invoke(ana, channel)
    answered = await reply(api, interaction)
    assert answered.status == 200, "the interaction response is how the app answers there"
    message_id = answered.body["resource"]["message"]["id"]
    path = route.format(c=channel.id, m=message_id)
    refused = await api.call(method, path, json_body=body)
    assert (refused.status, refused.code) == (403, MISSING_ACCESS)
    assert [f.code for f in emulator.take_failures()] == [MISSING_ACCESS]
    assert channel.id in emulator.world.channels and ana.message(int(message_id)).content == "tea"


@pytest.mark.parametrize("where", ["dm", "server without the bot"])
async def test_the_interaction_webhook_works_where_the_bot_is_not(emulator, api, elsewhere, where):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    register(emulator, **EVERYWHERE)
    ana.install_app()
    channel = emulator.private_dm(ana, ben) if where == "dm" else elsewhere.channel
    interaction = await invoke(ana, channel)
    assert (await reply(api, interaction)).status == 200
    hook = webhook_path(emulator, interaction)
    made = await followup(api, emulator, interaction, "more tea")
    assert made.status == 200
    assert (await api.patch(hook + "/messages/@original", {"content": "green tea"})).status == 200
    assert (await api.get(hook + f"/messages/{made.body['id']}")).status == 200
    assert (await api.delete(hook + f"/messages/{made.body['id']}")).status == 204
    assert ben.message(interaction.original_message_id or 0).content == "green tea"


async def test_a_user_install_gets_five_followups_after_the_one_filling_its_defer(emulator, api):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    register(emulator, **EVERYWHERE)
    ana.install_app()
    unpaced(emulator)
    interaction = await invoke(ana, emulator.private_dm(ana, ben))
    assert (await api.post(callback_path(interaction), {"type": 5})).status == 200
    filled = await followup(api, emulator, interaction, "the answer")
    assert int(filled.body["id"]) == interaction.original_message_id, "no new message"
    for n in range(5):
        assert (await followup(api, emulator, interaction, f"more {n}")).status == 200
    sixth = await followup(api, emulator, interaction, "one too many")
    assert (sixth.status, sixth.code) == (400, MAX_FOLLOWUP_MESSAGES)
    assert len(interaction.followups) == 5
    assert [f.code for f in emulator.take_failures()] == [MAX_FOLLOWUP_MESSAGES]
    # Edits through the webhook are not followups.
    hook = webhook_path(emulator, interaction)
    assert (await api.patch(hook + "/messages/@original", {"content": "edited"})).status == 200


@pytest.mark.parametrize("where", ["the bot's guild", "the bot's dm"])
async def test_the_followup_limit_spares_an_app_installed_where_it_answers(emulator, api, where):
    ana = emulator.user("ana")
    register(emulator, **EVERYWHERE)
    ana.install_app()  # owners {"0": ..., "1": ana}: not USER_INSTALL alone
    unpaced(emulator)
    channel = emulator.channel if where == "the bot's guild" else ana.dm
    interaction = await invoke(ana, channel)
    assert (await reply(api, interaction)).status == 200
    for n in range(7):
        assert (await followup(api, emulator, interaction, f"more {n}")).status == 200


async def test_discord_py_meets_the_followup_limit_as_an_http_error(emulator, pocket):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    ana.install_app()
    burst = await ana.slash("pocket burst", channel=emulator.private_dm(ana, ben), count=6)
    await burst.first_response()
    await emulator.idle()
    assert [e.code for e in pocket.errors] == [MAX_FOLLOWUP_MESSAGES]
    assert len(burst.followups) == 5 and burst.message is not None
    assert [f.code for f in emulator.take_failures()] == [MAX_FOLLOWUP_MESSAGES]


async def test_discord_py_cannot_send_through_the_channel_of_a_dm_between_users(emulator, pocket):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    ana.install_app()
    post = await ana.slash("pocket post", channel=emulator.private_dm(ana, ben))
    answer = await post.answer()
    assert answer is not None and answer.content == "answered through the interaction"
    assert [(type(e), e.code) for e in pocket.errors] == [(discord.Forbidden, MISSING_ACCESS)]
    assert [f.code for f in emulator.take_failures()] == [MISSING_ACCESS]


async def test_the_token_expires_after_15_minutes_in_a_private_channel(emulator, api):
    ana, ben, cara = emulator.user("ana"), emulator.user("ben"), emulator.user("cara")
    register(emulator, **EVERYWHERE)
    ana.install_app()
    interaction = await invoke(ana, emulator.group_dm(ana, ben, cara))
    assert (await reply(api, interaction)).status == 200
    emulator.advance(TOKEN_LIFETIME + 1)
    hook = webhook_path(emulator, interaction)
    late_edit = await api.patch(hook + "/messages/@original", {"content": "cold tea"})
    late_followup = await followup(api, emulator, interaction, "cold tea")
    answers = {(a.status, a.code) for a in (late_edit, late_followup)}
    assert answers == {(401, INVALID_WEBHOOK_TOKEN)}
    assert [f.code for f in emulator.take_failures()] == [INVALID_WEBHOOK_TOKEN] * 2


# forced ephemeral -----------------------------------------------------------------------


async def test_without_use_external_apps_a_user_install_answers_ephemerally(
    emulator, api, elsewhere
):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    register(emulator, **EVERYWHERE)
    ana.install_app()
    await emulator.deny_member(ana, "USE_EXTERNAL_APPS", channel=elsewhere.channel)
    interaction = await invoke(ana, elsewhere.channel)
    payload = payload_of(emulator, interaction)
    assert not int(payload["member"]["permissions"]) & USE_EXTERNAL_APPS
    answer = await reply(api, interaction, "public tea?")
    assert answer.status == 200, "no error: Discord makes it ephemeral silently"
    assert answer.body["interaction"]["response_message_ephemeral"] is True
    more = await followup(api, emulator, interaction, "more tea?")
    assert more.body["flags"] & EPHEMERAL
    for message in (interaction.message, *interaction.followups):
        assert message is not None and message.ephemeral and not ben.can_see(message)
    assert all(e.visibility.scope is Scope.EPHEMERAL for e in emulator.transcript)


@pytest.mark.parametrize(
    "deny", [("@everyone", USE_EXTERNAL_APPS), ("@everyone", SEND_MESSAGES), ("nobody", 0)]
)
async def test_a_servers_external_apps_setting_decides_public_answers(
    emulator, api, elsewhere, deny
):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    register(emulator, **EVERYWHERE)
    ana.install_app()
    _, bits = deny
    if bits:
        await emulator.set_overwrite(elsewhere.channel, elsewhere.id, deny=bits)
    interaction = await invoke(ana, elsewhere.channel)
    answer = await reply(api, interaction)
    assert answer.body["interaction"]["response_message_ephemeral"] is bool(bits)
    assert ben.can_see(interaction.message.id) is not bool(bits)


async def test_use_external_apps_does_not_matter_where_the_bot_is(emulator, api):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    register(emulator, **EVERYWHERE)
    ana.install_app()
    await emulator.deny_member(ana, "USE_EXTERNAL_APPS", channel=emulator.channel)
    interaction = await invoke(ana, emulator.channel)
    answer = await reply(api, interaction)
    assert answer.body["interaction"]["response_message_ephemeral"] is False
    assert ben.can_see(interaction.message.id)


# interaction_metadata -------------------------------------------------------------------


async def test_messages_from_interactions_carry_their_interaction_metadata(emulator, api):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    register(emulator, **EVERYWHERE)
    ana.install_app()
    command = await invoke(ana, emulator.private_dm(ana, ben))
    answered = await reply(api, command, components=BUTTON_ROW)
    response = answered.body["resource"]["message"]
    metadata = response["interaction_metadata"]
    assert metadata["id"] == str(command.id) and metadata["type"] == 2
    assert metadata["user"]["id"] == str(ana.id)
    assert metadata["authorizing_integration_owners"] == {"1": str(ana.id)}
    assert "original_response_message_id" not in metadata

    made = await followup(api, emulator, command, "more tea")
    assert made.body["interaction_metadata"]["original_response_message_id"] == response["id"]

    press = await ben.click(int(response["id"]), "Pour")
    press.cancel_deadline()
    pressed = await reply(api, press, "ben's own cup")
    press_metadata = pressed.body["resource"]["message"]["interaction_metadata"]
    assert press_metadata["type"] == 3 and press_metadata["user"]["id"] == str(ben.id)
    assert press_metadata["interacted_message_id"] == response["id"]
    assert press_metadata["authorizing_integration_owners"] == {"1": str(ana.id)}
    original = await api.get(webhook_path(emulator, command) + "/messages/@original")
    assert original.body["interaction_metadata"] == metadata


async def test_a_modal_answer_names_the_interaction_that_opened_the_modal(emulator, api):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    register(emulator, **EVERYWHERE)
    ana.install_app()
    command = await invoke(ana, emulator.private_dm(ana, ben))
    field = {"type": 4, "custom_id": "name", "label": "Name", "style": 1}
    row = {"type": 1, "components": [field]}
    modal = {"custom_id": "m", "title": "Name it", "components": [row]}
    assert (await api.post(callback_path(command), {"type": 9, "data": modal})).status == 200
    submitted = await ana.submit_modal(command, {"Name": "Sencha"})
    submitted.cancel_deadline()
    assert submitted.owners == {"1": str(ana.id)}
    metadata = (await reply(api, submitted)).body["resource"]["message"]["interaction_metadata"]
    assert metadata["type"] == 5
    assert metadata["triggering_interaction_metadata"]["id"] == str(command.id)


async def test_the_bot_reads_interaction_metadata_in_gateway_events(emulator, api):
    ana = emulator.user("ana")
    register(emulator, **EVERYWHERE)
    async with raw_sessions(emulator, [0, 1]) as (session,):
        interaction = await invoke(ana, emulator.channel)
        assert (await reply(api, interaction)).status == 200
        await session.settle()
    (created,) = session.events("MESSAGE_CREATE")
    assert created["interaction_metadata"]["id"] == str(interaction.id)
    assert created["interaction_metadata"]["authorizing_integration_owners"] == {
        "0": str(emulator.guild_id)
    }


# the application ------------------------------------------------------------------------


async def test_the_application_lists_the_installation_contexts_it_supports(emulator, api):
    both = (await api.get("/oauth2/applications/@me")).body["integration_types_config"]
    assert both["1"] == {
        "oauth2_install_params": {"scopes": ["applications.commands"], "permissions": "0"}
    }
    assert "bot" in both["0"]["oauth2_install_params"]["scopes"]
    emulator.commands.application_installs = frozenset({0})
    guild_only = (await api.get("/oauth2/applications/@me")).body["integration_types_config"]
    assert list(guild_only) == ["0"]


async def test_discord_py_sees_the_user_install_config(emulator, pocket):
    info = await pocket.application_info()
    assert info.user_integration_config is not None
    assert info.guild_integration_config is not None


# the conformance log --------------------------------------------------------------------


async def test_the_request_log_marks_what_concerns_user_installs(emulator, api, elsewhere):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    register(emulator, **EVERYWHERE)
    ana.install_app()
    dm = emulator.private_dm(ana, ben)
    in_dm = await invoke(ana, dm)
    await reply(api, in_dm)
    await followup(api, emulator, in_dm, "more")
    await api.send(dm.id, "through the channel")
    await api.get(f"/guilds/{elsewhere.id}")
    in_guild = await invoke(ana, emulator.channel)  # owners {"0", "1"}: the bot is there
    await reply(api, in_guild)
    await api.send(emulator.channel.id, "in the bot's guild")
    emulator.take_failures()

    flagged = emulator.request_log.user_install_requests()
    assert [(r.method, r.route, r.through_interaction) for r in flagged] == [
        ("POST", "/interactions/{interaction_id}/{token}/callback", True),
        ("POST", "/webhooks/{application_id}/{token}", True),
        ("POST", "/channels/{channel_id}/messages", False),
        ("GET", "/guilds/{guild_id}", False),
    ]
    assert flagged[0].interaction_id == in_dm.id
    assert next(r for r in flagged if not r.through_interaction).status == 403


async def test_discord_py_through_its_interactions_alone_passes_the_conformance_check(
    emulator, pocket
):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    ana.install_app()
    dm = emulator.private_dm(ana, ben)
    tea = await ana.slash("pocket tea", channel=dm)
    await tea.first_response()
    assert tea.message is not None
    await (await ben.click(tea.message, "Pour")).first_response()
    await emulator.idle()
    flagged = emulator.request_log.user_install_requests()
    assert len(flagged) == 2 and all(r.through_interaction for r in flagged)
