"""Payloads Discord's API documentation says it refuses, refused by the emulator too.

Each test names the rule it pins; the README's "Rules enforced" cites the page for each.
"""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest
from discord.http import Route

from tests.discord_emulator import DiscordEmulator, ImpossibleUserAction
from tests.discord_emulator.application_commands import CommandRegistry
from tests.discord_emulator.errors import INVALID_FORM_BODY, DiscordError
from tests.discord_emulator.interactions import interaction_payload
from tests.discord_emulator.limits import check_message
from tests.discord_emulator.message_bodies import REQUEST_ENTITY_TOO_LARGE
from tests.discord_emulator.sample_bot import SampleBot
from tests.discord_emulator.snowflakes import SnowflakeFactory
from tests.discord_emulator.thread_fields import check_thread_fields

# helpers ------------------------------------------------------------------------------


def command(**fields: Any) -> dict[str, Any]:
    return {"name": "hanamikoji", "description": "Play Hanamikoji", **fields}


def option(name: str = "opponent", kind: int = 6, **fields: Any) -> dict[str, Any]:
    return {"name": name, "description": "Who to play", "type": kind, **fields}


def subcommand(name: str, *options: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "description": "A verb", "type": 1, "options": list(options)}


def registry() -> CommandRegistry:
    return CommandRegistry(SnowflakeFactory(), application_id=1)


def sync_refused(*commands: dict[str, Any]) -> dict[str, Any]:
    """The `errors` tree of the 400 a bulk overwrite of these commands gets."""
    with pytest.raises(DiscordError) as raised:
        registry().overwrite(list(commands), guild_id=None)
    assert (raised.value.status, raised.value.code) == (400, INVALID_FORM_BODY)
    assert raised.value.errors
    return raised.value.errors


def sync_accepted(*commands: dict[str, Any]) -> None:
    registry().overwrite(list(commands), guild_id=None)


def codes(node: dict[str, Any]) -> list[str]:
    return [error["code"] for error in node["_errors"]]


def message_refused(payload: dict[str, Any], **options: Any) -> dict[str, Any]:
    with pytest.raises(DiscordError) as raised:
        check_message(payload, attachment_count=0, require_body=True, **options)
    assert (raised.value.status, raised.value.code) == (400, INVALID_FORM_BODY)
    assert raised.value.errors
    return raised.value.errors


def button(**fields: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": "b", "label": "ok", **fields}


def in_row(component: dict[str, Any]) -> dict[str, Any]:
    return {"components": [{"type": 1, "components": [component]}]}


def first_component(errors: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = errors["components"]["0"]["components"]["0"]
    return found


def select(**fields: Any) -> dict[str, Any]:
    options = [{"label": f"card {n}", "value": str(n)} for n in range(3)]
    return {"type": 3, "custom_id": "s", "options": options, **fields}


def text_channel(bot: SampleBot, emulator: DiscordEmulator) -> discord.TextChannel:
    channel = bot.get_channel(emulator.channel.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


# commands: localisations -------------------------------------------------------------------


@pytest.mark.parametrize("locale", ["es", "es-MX", "en", "pt-PT", "zh"])
def test_a_localisation_key_that_is_not_a_discord_locale_is_refused(locale):
    errors = sync_refused(command(name_localizations={locale: "reglas"}))
    assert codes(errors["0"]["name_localizations"][locale]) == ["ENUM_TYPE_COERCE"]
    errors = sync_refused(command(options=[option(description_localizations={locale: "Rival"})]))
    assert locale in errors["0"]["options"]["0"]["description_localizations"]


def test_every_discord_locale_is_accepted_as_a_localisation_key():
    locales = "id da de en-GB en-US es-ES es-419 fr hr it lt hu nl no pl pt-BR ro fi sv-SE vi"
    locales += " tr cs el bg ru uk hi th zh-CN ja zh-TW ko"
    sync_accepted(command(description_localizations=dict.fromkeys(locales.split(), "Jugar")))


@pytest.mark.parametrize("name", ["Reglas", "las reglas", "x" * 33, ""])
def test_localised_names_follow_the_name_rules(name):
    errors = sync_refused(command(name_localizations={"es-ES": name}))
    assert codes(errors["0"]["name_localizations"]["es-ES"])
    errors = sync_refused(command(options=[option(name_localizations={"es-419": name})]))
    assert codes(errors["0"]["options"]["0"]["name_localizations"]["es-419"])


def test_names_may_use_apostrophes_and_letters_of_any_script():
    sync_accepted(command(name_localizations={"hi": "नियम", "th": "กติกา", "fr": "l'équipe"}))


def test_user_commands_may_have_capitals_and_spaces():
    sync_accepted({"name": "Show Stats", "description": "", "type": 2})


def test_localised_descriptions_are_at_most_100_characters():
    sync_accepted(command(description_localizations={"es-ES": "d" * 100}))
    errors = sync_refused(command(description_localizations={"es-ES": "d" * 101}))
    assert codes(errors["0"]["description_localizations"]["es-ES"]) == ["BASE_TYPE_BAD_LENGTH"]
    errors = sync_refused(command(options=[option(description_localizations={"fr": ""})]))
    assert "fr" in errors["0"]["options"]["0"]["description_localizations"]


# commands: choices and options --------------------------------------------------------


def test_choice_names_are_1_to_100_characters_in_every_language():
    def with_choice(choice: dict[str, Any]) -> dict[str, Any]:
        return command(options=[option("level", 3, choices=[choice])])

    sync_accepted(with_choice({"name": "n" * 100, "value": "v" * 100}))
    for bad in ({"name": "", "value": "v"}, {"name": "n" * 101, "value": "v"}):
        errors = sync_refused(with_choice(bad))
        assert "name" in errors["0"]["options"]["0"]["choices"]["0"]
    errors = sync_refused(
        with_choice({"name": "n", "value": "v", "name_localizations": {"de": ""}})
    )
    assert "de" in errors["0"]["options"]["0"]["choices"]["0"]["name_localizations"]
    errors = sync_refused(
        with_choice({"name": "n", "value": "v", "name_localizations": {"es": "nivel"}})
    )
    assert "es" in errors["0"]["options"]["0"]["choices"]["0"]["name_localizations"]


def test_string_choice_values_are_at_most_100_characters():
    choices = [{"name": "long", "value": "v" * 101}, {"name": "number", "value": 10**12}]
    errors = sync_refused(command(options=[option("level", 3, choices=choices)]))
    choice_errors = errors["0"]["options"]["0"]["choices"]
    assert list(choice_errors) == ["0"]
    assert codes(choice_errors["0"]["value"]) == ["BASE_TYPE_MAX_LENGTH"]


def test_option_names_are_unique_at_one_level():
    errors = sync_refused(command(options=[option("who"), option("who")]))
    assert "name" in errors["0"]["options"]["1"]
    # the same name at different levels is fine
    sync_accepted(command(options=[subcommand("a", option("who")), subcommand("b", option("who"))]))


def test_a_localised_option_name_must_differ_from_the_other_options():
    options = [option("who"), option("level", 4, name_localizations={"es-ES": "who"})]
    errors = sync_refused(command(options=options))
    assert "es-ES" in errors["0"]["options"]["1"]["name_localizations"]


def test_subcommands_cannot_sit_beside_plain_options():
    errors = sync_refused(command(options=[subcommand("rules"), option("who")]))
    assert codes(errors["0"]["options"]) == ["APPLICATION_COMMAND_OPTIONS_TYPE_INVALID"]


def test_subcommand_groups_hold_only_subcommands_one_level_deep():
    group = {"name": "stats", "description": "Stats", "type": 2}
    sync_accepted(command(options=[{**group, "options": [subcommand("me")]}]))
    errors = sync_refused(command(options=[{**group, "options": [option("who")]}]))
    assert "type" in errors["0"]["options"]["0"]["options"]["0"]
    inner_group = {**group, "options": [subcommand("me")]}
    errors = sync_refused(command(options=[{**group, "options": [inner_group]}]))
    assert "type" in errors["0"]["options"]["0"]["options"]["0"]
    errors = sync_refused(command(options=[subcommand("play", subcommand("now"))]))
    assert "type" in errors["0"]["options"]["0"]["options"]["0"]


# commands: size, contexts, integration types --------------------------------------------


def big_command(description: str, localised: dict[str, str]) -> dict[str, Any]:
    """4 subcommands of 20 options each: 269 characters of names and fixed descriptions,
    plus 80 option descriptions, each localised as given."""
    verbs = [
        subcommand(
            f"verb{v}",
            *(
                option(f"o{n}", 3, description=description, description_localizations=localised)
                for n in range(20)
            ),
        )
        for v in range(4)
    ]
    return command(options=verbs)


def test_a_command_over_8000_characters_is_refused():
    sync_accepted(big_command("d" * 90, {}))  # 269 + 80 * 90 = 7,469
    errors = sync_refused(big_command("d" * 100, {}))  # 269 + 80 * 100 = 8,269
    assert codes(errors["0"]) == ["APPLICATION_COMMAND_TOO_LARGE"]


def test_only_the_longest_localisation_of_a_field_counts_towards_8000():
    locales = ["fr", "de", "it", "es-ES", "es-419", "pt-BR", "ja", "ko", "nl", "pl"]
    # Summed, ten localisations of 90 characters would be far over; only the longest counts.
    sync_accepted(big_command("d" * 90, dict.fromkeys(locales, "d" * 90)))
    errors = sync_refused(big_command("d" * 90, {"fr": "d" * 100}))
    assert codes(errors["0"]) == ["APPLICATION_COMMAND_TOO_LARGE"]


@pytest.mark.parametrize("contexts", [[7], [0, 3], [-1]])
def test_contexts_other_than_guild_bot_dm_and_private_channel_are_refused(contexts):
    errors = sync_refused(command(contexts=contexts))
    assert "ENUM_TYPE_COERCE" in str(errors["0"]["contexts"])
    sync_accepted(command(contexts=[0, 1, 2]), command(name="other", contexts=None))


def test_integration_types_other_than_guild_and_user_install_are_refused():
    errors = sync_refused(command(integration_types=[0, 2]))
    assert codes(errors["0"]["integration_types"]["1"]) == ["ENUM_TYPE_COERCE"]
    sync_accepted(command(integration_types=[0, 1]))


# components ---------------------------------------------------------------------------


@pytest.mark.parametrize("style", [0, 7, 9])
def test_a_button_style_outside_1_to_6_is_refused(style):
    errors = message_refused(in_row(button(style=style)))
    assert codes(first_component(errors)["style"]) == ["ENUM_TYPE_COERCE"]


def test_a_link_button_cannot_carry_a_custom_id():
    link = {"type": 2, "style": 5, "label": "Rules", "url": "https://example.com"}
    check_message(in_row(link), attachment_count=0, require_body=True)
    errors = message_refused(in_row({**link, "custom_id": "rules"}))
    assert "custom_id" in first_component(errors)


def test_a_non_link_button_cannot_carry_a_url():
    errors = message_refused(in_row(button(url="https://example.com")))
    assert "url" in first_component(errors)


def test_select_min_values_cannot_exceed_max_values():
    check_message(in_row(select(min_values=2, max_values=3)), attachment_count=0, require_body=True)
    errors = message_refused(in_row(select(min_values=3, max_values=2)))
    assert "min_values" in first_component(errors)
    errors = message_refused(in_row(select(min_values=2)))  # max_values defaults to 1
    assert "min_values" in first_component(errors)


@pytest.mark.parametrize(
    ("field", "value"), [("min_values", -1), ("min_values", 26), ("max_values", 26)]
)
def test_select_values_outside_0_to_25_are_refused(field, value):
    options = [{"label": f"card {n}", "value": str(n)} for n in range(25)]
    errors = message_refused(in_row(select(options=options, **{field: value})))
    assert field in first_component(errors)


def test_a_user_select_with_max_values_over_25_is_refused():
    user_select = {"type": 5, "custom_id": "who", "max_values": 26}
    assert "max_values" in first_component(message_refused(in_row(user_select)))


def test_select_options_need_a_label_and_a_value():
    for missing in ({"label": "", "value": "1"}, {"value": "1"}, {"label": "Gift", "value": ""}):
        errors = message_refused(in_row(select(options=[missing])))
        (key,) = {"label", "value"} - {k for k, v in missing.items() if v}
        assert codes(first_component(errors)["options"]["0"][key]) == ["BASE_TYPE_BAD_LENGTH"]


# messages -----------------------------------------------------------------------------


@pytest.mark.parametrize("color", [-1, 0x1000000])
def test_an_embed_color_outside_0_to_ffffff_is_refused(color):
    check_message({"embeds": [{"color": 0xFFFFFF}]}, attachment_count=0, require_body=True)
    errors = message_refused({"embeds": [{"title": "t", "color": color}]})
    assert "color" in errors["embeds"]["0"]


def test_an_embed_image_must_name_a_file_of_the_message():
    embed = {"image": {"url": "attachment://board.png"}, "thumbnail": {"url": "attachment://x.png"}}
    errors = message_refused({"embeds": [embed]}, attachment_names={"board.png"})
    assert list(errors["embeds"]["0"]) == ["thumbnail"]


def test_an_attachment_description_is_at_most_1024_characters():
    fits = {"content": "board", "attachments": [{"id": 0, "description": "x" * 1024}]}
    check_message(fits, attachment_count=1, require_body=True)
    errors = message_refused(
        {"content": "board", "attachments": [{"id": 0, "description": "x" * 1025}]}
    )
    assert codes(errors["attachments"]["0"]["description"]) == ["BASE_TYPE_MAX_LENGTH"]


async def test_a_sent_embed_naming_no_uploaded_file_is_refused(emulator, bot):
    channel = text_channel(bot, emulator)
    embed = discord.Embed(title="Board").set_image(url="attachment://board.png")
    with pytest.raises(discord.HTTPException) as raised:
        await channel.send(embed=embed, file=discord.File(io.BytesIO(b"png"), "other.png"))
    assert (raised.value.status, raised.value.code) == (400, INVALID_FORM_BODY)
    assert [f.status for f in emulator.take_failures()] == [400]
    await channel.send(embed=embed, file=discord.File(io.BytesIO(b"png"), "board.png"))


async def test_an_edited_embed_may_name_a_kept_or_new_file_only(emulator, bot):
    channel = text_channel(bot, emulator)
    board = discord.File(io.BytesIO(b"png"), "board.png")
    embed = discord.Embed(title="Board").set_image(url="attachment://board.png")
    message = await channel.send(embed=embed, file=board)
    await message.edit(embed=embed)  # board.png is kept
    await message.edit(embed=embed, attachments=message.attachments)
    with pytest.raises(discord.HTTPException) as raised:
        await message.edit(embed=embed, attachments=[])  # board.png is dropped
    assert raised.value.code == INVALID_FORM_BODY
    emulator.take_failures()
    new = discord.File(io.BytesIO(b"png"), "board.png")
    await message.edit(embed=embed, attachments=[new])


async def test_a_file_over_10_mib_gets_413_request_entity_too_large(emulator, bot):
    channel = text_channel(bot, emulator)
    await channel.send(file=discord.File(io.BytesIO(b"x" * 10 * 1024 * 1024), "fits.bin"))
    with pytest.raises(discord.HTTPException) as raised:
        await channel.send(file=discord.File(io.BytesIO(b"x" * (10 * 1024 * 1024 + 1)), "big"))
    assert (raised.value.status, raised.value.code) == (413, REQUEST_ENTITY_TOO_LARGE)
    assert [f.code for f in emulator.take_failures()] == [REQUEST_ENTITY_TOO_LARGE]


@pytest.mark.parametrize("kind", ["users", "roles"])
def test_allowed_mentions_cannot_parse_a_kind_and_list_its_ids(kind):
    allowed = {"parse": [kind], kind: ["1234"]}
    errors = message_refused({"content": "<@1234>", "allowed_mentions": allowed})
    assert codes(errors["allowed_mentions"]) == ["MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE"]
    # an empty list beside parse is fine, as the documentation says
    check_message(
        {"content": "hi", "allowed_mentions": {"parse": [kind], kind: []}},
        attachment_count=0,
        require_body=True,
    )


def test_unknown_allowed_mention_types_are_refused():
    errors = message_refused({"content": "hi", "allowed_mentions": {"parse": ["users", "here"]}})
    assert codes(errors["allowed_mentions"]["parse"]["1"]) == ["ENUM_TYPE_COERCE"]


def test_more_than_100_allowed_mention_ids_are_refused():
    ids = [str(n) for n in range(101)]
    errors = message_refused({"content": "hi", "allowed_mentions": {"users": ids}})
    assert codes(errors["allowed_mentions"]["users"]) == ["BASE_TYPE_MAX_LENGTH"]


@pytest.mark.parametrize("flag", [1 << 0, 1 << 1, 1 << 6, 1 << 7, 1 << 8, 1 << 14])
async def test_a_channel_message_with_a_flag_a_bot_cannot_set_is_refused(emulator, bot, flag):
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=emulator.channel.id)
    with pytest.raises(discord.HTTPException) as raised:
        await bot.http.request(route, json={"content": "hi", "flags": flag})
    assert raised.value.code == INVALID_FORM_BODY
    emulator.take_failures()
    settable = (1 << 2) | (1 << 12) | (1 << 13)
    await bot.http.request(route, json={"content": "hi", "flags": settable})


async def test_an_edit_ignores_flags_it_cannot_change_as_documented(emulator, bot):
    message = await text_channel(bot, emulator).send("hi")
    route = Route(
        "PATCH",
        "/channels/{channel_id}/messages/{message_id}",
        channel_id=emulator.channel.id,
        message_id=message.id,
    )
    edited = await bot.http.request(route, json={"flags": (1 << 2) | (1 << 6)})
    assert edited["flags"] == 1 << 2


def test_a_components_v2_message_carries_only_components():
    errors = message_refused({"content": "hi", "flags": 1 << 15, "components": []})
    assert "content" in errors


# threads ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["", "n" * 101, None])
def test_a_thread_name_must_be_1_to_100_characters(name):
    check_thread_fields({"name": "n" * 100}, creating=True)
    with pytest.raises(DiscordError) as raised:
        check_thread_fields({"name": name}, creating=True)
    assert raised.value.errors is not None and "name" in raised.value.errors
    check_thread_fields({"auto_archive_duration": 60}, creating=False)  # edits may omit it


@pytest.mark.parametrize("minutes", [0, 30, 1000, 20160])
def test_a_thread_auto_archive_duration_must_be_60_1440_4320_or_10080(minutes):
    for allowed in (60, 1440, 4320, 10080):
        check_thread_fields({"name": "match", "auto_archive_duration": allowed}, creating=True)
    with pytest.raises(DiscordError) as raised:
        check_thread_fields({"name": "match", "auto_archive_duration": minutes}, creating=True)
    assert raised.value.errors is not None and "auto_archive_duration" in raised.value.errors


async def test_thread_routes_refuse_bad_names_and_durations(emulator, bot):
    channel = text_channel(bot, emulator)
    with pytest.raises(discord.HTTPException):
        await channel.create_thread(name="n" * 101, type=discord.ChannelType.public_thread)
    message = await channel.send("match")
    threads = Route(
        "POST",
        "/channels/{channel_id}/messages/{message_id}/threads",
        channel_id=channel.id,
        message_id=message.id,
    )
    with pytest.raises(discord.HTTPException):
        await bot.http.request(threads, json={"name": "match", "auto_archive_duration": 30})
    thread = await message.create_thread(name="match", auto_archive_duration=60)
    edit = Route("PATCH", "/channels/{channel_id}", channel_id=thread.id)
    with pytest.raises(discord.HTTPException):
        await bot.http.request(edit, json={"auto_archive_duration": 30})
    with pytest.raises(discord.HTTPException):
        await bot.http.request(edit, json={"name": ""})
    assert {f.code for f in emulator.take_failures()} == {INVALID_FORM_BODY}


# command contexts ---------------------------------------------------------------------


def register_global(emulator: DiscordEmulator, **fields: Any) -> None:
    emulator.commands.overwrite([command(**fields)], guild_id=None)


@pytest.mark.parametrize(
    "fields", [{"contexts": [0]}, {"contexts": [0, 2]}, {"dm_permission": False}]
)
async def test_a_command_left_out_of_bot_dms_is_not_offered_there(emulator, fields):
    register_global(emulator, **fields)
    ana = emulator.user("ana")
    with pytest.raises(ImpossibleUserAction, match="cannot be used in DMs"):
        await ana.slash("hanamikoji", channel=ana.dm)


@pytest.mark.parametrize(
    "fields", [{}, {"contexts": None}, {"contexts": None, "dm_permission": True}]
)
async def test_a_command_without_contexts_is_offered_in_dms_with_context_1(emulator, fields):
    register_global(emulator, **fields)
    ana = emulator.user("ana")
    interaction = await ana.slash("hanamikoji", channel=ana.dm)
    interaction.cancel_deadline()  # no bot is running to answer
    payload = interaction_payload(emulator.world, interaction, message=None)
    assert payload["context"] == 1 and "guild_id" not in payload


async def test_a_command_left_out_of_guilds_is_not_offered_there(emulator):
    register_global(emulator, contexts=[1])
    with pytest.raises(ImpossibleUserAction, match="cannot be used in a guild"):
        await emulator.user("ana").slash("hanamikoji")


async def test_a_guild_interaction_carries_context_0(emulator):
    register_global(emulator, contexts=[0, 1])
    interaction = await emulator.user("ana").slash("hanamikoji")
    interaction.cancel_deadline()
    assert interaction_payload(emulator.world, interaction, message=None)["context"] == 0


# installation contexts ----------------------------------------------------------------


async def test_a_command_without_integration_types_follows_a_new_apps_user_install(emulator):
    register_global(emulator, contexts=[0])
    ana, ben = emulator.user("ana"), emulator.user("ben")
    ana.install_app()
    assert ana.commands_offered_in_a_server_without_the_bot() == ["hanamikoji"]
    assert ben.commands_offered_in_a_server_without_the_bot() == [], "ben installed nothing"


async def test_a_guild_install_command_is_offered_only_where_the_bot_is(emulator):
    register_global(emulator, contexts=[0], integration_types=[0])
    ana = emulator.user("ana")
    ana.install_app()
    assert ana.commands_offered_in_a_server_without_the_bot() == []
    interaction = await ana.slash("hanamikoji")
    interaction.cancel_deadline()


async def test_a_user_install_command_is_offered_in_the_bots_guild_only_to_who_installed_it(
    emulator,
):
    register_global(emulator, contexts=[0], integration_types=[1])
    ana, ben = emulator.user("ana"), emulator.user("ben")
    ana.install_app()
    (await ana.slash("hanamikoji")).cancel_deadline()
    with pytest.raises(ImpossibleUserAction, match="only for users who installed the app"):
        await ben.slash("hanamikoji")
