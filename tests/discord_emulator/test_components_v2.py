"""Components V2 messages and application emojis, refused and accepted as Discord's
documentation says (README, "Components V2 and application emojis").

The refusals are written from the documentation, one payload each, and sent over HTTP the
way a bot would; each asserts a 400 and the path of the field Discord names.
"""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest

from tests.discord_emulator import DiscordEmulator
from tests.discord_emulator.app_emojis import MAX_APPLICATION_EMOJIS, MAXIMUM_EMOJIS_REACHED
from tests.discord_emulator.errors import INVALID_FORM_BODY
from tests.discord_emulator.interactions import EmulatedInteraction, InteractionType
from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.discord_emulator.raw_api import Answer, RawApi
from tests.discord_emulator.sample_bot import SampleBot

V2 = 1 << 15
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
KIB_256 = 256 * 1024

# building blocks --------------------------------------------------------------------------


def text(content: str = "Ana's turn") -> dict[str, Any]:
    return {"type": 10, "content": content}


def button(custom_id: str = "hand", **fields: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": "Hand", **fields}


def row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(children)}


def thumbnail(url: str = "https://example.com/ana.png", **fields: Any) -> dict[str, Any]:
    return {"type": 11, "media": {"url": url}, **fields}


def section(*texts: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"type": 9, "components": list(texts), **fields}


def gallery(*urls: str, **item_fields: Any) -> dict[str, Any]:
    return {"type": 12, "items": [{"media": {"url": url}, **item_fields} for url in urls]}


def separator(**fields: Any) -> dict[str, Any]:
    return {"type": 14, **fields}


def container(*children: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"type": 17, "components": list(children), **fields}


def v2(*components: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"flags": V2, "components": list(components), **fields}


def codes_at(errors: dict[str, Any], path: tuple[str | int, ...]) -> list[str]:
    node = errors
    for key in path:
        assert str(key) in node, f"no error at {path}: {errors}"
        node = node[str(key)]
    return [error["code"] for error in node["_errors"]]


def refused(answer: Answer, path: tuple[str | int, ...]) -> list[str]:
    assert (answer.status, answer.code) == (400, INVALID_FORM_BODY), answer
    return codes_at(answer.body["errors"], path)


async def post(
    emulator: DiscordEmulator, body: dict[str, Any], files: dict[str, bytes] | None = None
) -> Answer:
    async with RawApi(emulator) as api:
        return await api.post(f"/channels/{emulator.channel.id}/messages", body, files=files)


async def patch(emulator: DiscordEmulator, message_id: str, body: dict[str, Any]) -> Answer:
    async with RawApi(emulator) as api:
        return await api.patch(f"/channels/{emulator.channel.id}/messages/{message_id}", body)


def text_channel(bot: SampleBot, emulator: DiscordEmulator) -> discord.TextChannel:
    channel = bot.get_channel(emulator.channel.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


# (a) what Discord accepts -----------------------------------------------------------------

ACCEPTED: dict[str, tuple[dict[str, Any], dict[str, bytes] | None]] = {
    "container with text, gallery, separator and action rows": (
        v2(
            container(
                text("## Hanamikoji"),
                gallery("https://example.com/a.png", "attachment://board.png"),
                separator(spacing=2, divider=False),
                row(button("hand"), button("moves")),
                row({"type": 3, "custom_id": "card", "options": [{"label": "A", "value": "a"}]}),
                accent_color=0xFFFFFF,
            )
        ),
        {"board.png": PNG},
    ),
    "section with a thumbnail": (
        v2(section(text(), text("2"), text("3"), accessory=thumbnail())),
        None,
    ),
    "section with a button": (v2(section(text(), accessory=button())), None),
    "top-level text, separator, file and row": (
        v2(
            text(),
            separator(),
            {"type": 13, "file": {"url": "attachment://log.txt"}},
            row(button()),
        ),
        {"log.txt": b"log"},
    ),
    "40 components, nested ones counted": (v2(container(*(text(str(n)) for n in range(39)))), None),
    "4,000 characters of text across two displays": (v2(text("x" * 2000), text("y" * 2000)), None),
    "10 gallery items with 1,024-character alt text": (
        v2(gallery(*(f"https://example.com/{n}.png" for n in range(10)), description="d" * 1024)),
        None,
    ),
    "ids of the bot's choosing, 0 meaning none": (
        v2(container(text(), id=7), {**text(), "id": 0}, {**text(), "id": 0}),
        None,
    ),
}


@pytest.mark.parametrize("case", ACCEPTED)
async def test_documented_v2_layouts_are_accepted(emulator, case):
    body, files = ACCEPTED[case]
    answer = await post(emulator, body, files)
    assert answer.status == 200, answer
    assert answer.body["flags"] & V2
    assert answer.body["content"] == "" and answer.body["embeds"] == []


async def test_discord_fills_in_component_ids_sequentially_without_reusing_given_ones(emulator):
    answer = await post(emulator, v2(container(text(), {**text(), "id": 2}), text()))
    stored = answer.body["components"]
    assert stored[0]["id"] == 1
    assert [c["id"] for c in stored[0]["components"]] == [3, 2]
    assert stored[1]["id"] == 4


async def test_a_layout_view_from_discord_py_is_accepted(emulator, bot):
    view = discord.ui.LayoutView()
    view.add_item(
        discord.ui.Container(
            discord.ui.TextDisplay("## Ana vs Ben"),
            discord.ui.MediaGallery(
                discord.MediaGalleryItem("attachment://board.png", description="The board")
            ),
            discord.ui.Separator(),
            discord.ui.ActionRow(discord.ui.Button(label="Hand", custom_id="hand")),
            accent_colour=0x5865F2,
        )
    )
    view.add_item(
        discord.ui.Section("Ben's turn", accessory=discord.ui.Thumbnail("attachment://board.png"))
    )
    message = await text_channel(bot, emulator).send(
        view=view, file=discord.File(io.BytesIO(PNG), "board.png")
    )
    assert message.flags.components_v2
    shown = MessageSnapshot.of(emulator.world.message(message.id))
    assert shown.attachment_names == ["board.png"]
    assert shown.button("Hand").custom_id == "hand"


# (b) what Discord refuses ------------------------------------------------------------------

REFUSED: dict[str, tuple[dict[str, Any], dict[str, bytes] | None, tuple[str | int, ...]]] = {
    # "Create Message": with IS_COMPONENTS_V2 "the message can only contain components".
    "content with the flag": (v2(text(), content="hi"), None, ("content",)),
    "embeds with the flag": (v2(text(), embeds=[{"title": "t"}]), None, ("embeds",)),
    "a poll with the flag": (
        v2(text(), poll={"question": {"text": "?"}, "answers": [{"poll_media": {"text": "a"}}]}),
        None,
        ("poll",),
    ),
    "stickers with the flag": (v2(text(), sticker_ids=["1"]), None, ("sticker_ids",)),
    # "Messages allow up to 40 total components" (change log: nested ones included).
    "41 components at the top": (v2(*(text(str(n)) for n in range(41))), None, ("components",)),
    "41 components counting a container": (
        v2(container(*(text(str(n)) for n in range(40)))),
        None,
        ("components",),
    ),
    # Text displays hold 4,000 characters together (docs.discord.food, "Components").
    "4,001 characters across two displays": (
        v2(text("x" * 2000), text("y" * 2001)),
        None,
        ("components",),
    ),
    "an empty text display": (v2(text("")), None, ("components", 0, "content")),
    # Section: "One to three child components" and an accessory.
    "a section without text": (
        v2(section(accessory=thumbnail())),
        None,
        ("components", 0, "components"),
    ),
    "a section with 4 text displays": (
        v2(section(*(text(str(n)) for n in range(4)), accessory=thumbnail())),
        None,
        ("components", 0, "components"),
    ),
    "a section without an accessory": (v2(section(text())), None, ("components", 0, "accessory")),
    "a select as a section's accessory": (
        v2(section(text(), accessory={"type": 5, "custom_id": "who"})),
        None,
        ("components", 0, "accessory", "type"),
    ),
    # Action Row: "Up to 5 ... buttons" or "a single select", in V2 as in legacy messages.
    "6 buttons in a row": (
        v2(row(*(button(f"b{n}") for n in range(6)))),
        None,
        ("components", 0, "components"),
    ),
    "6 buttons in a row in a container": (
        v2(container(row(*(button(f"b{n}") for n in range(6))))),
        None,
        ("components", 0, "components", 0, "components"),
    ),
    "a custom id of 101 characters": (
        v2(row(button("x" * 101))),
        None,
        ("components", 0, "components", 0, "custom_id"),
    ),
    "a custom id of 101 characters on an accessory": (
        v2(section(text(), accessory=button("x" * 101))),
        None,
        ("components", 0, "accessory", "custom_id"),
    ),
    # Media Gallery: "1 to 10 media gallery items", alt text "max 1024 characters".
    "a gallery with no item": (v2(gallery()), None, ("components", 0, "items")),
    "a gallery with 11 items": (
        v2(gallery(*(f"https://example.com/{n}.png" for n in range(11)))),
        None,
        ("components", 0, "items"),
    ),
    "alt text of 1,025 characters": (
        v2(gallery("https://example.com/a.png", description="d" * 1025)),
        None,
        ("components", 0, "items", 0, "description"),
    ),
    "a gallery item without media": (
        v2({"type": 12, "items": [{"description": "?"}]}),
        None,
        ("components", 0, "items", 0, "media", "url"),
    ),
    "a thumbnail's alt text of 1,025 characters": (
        v2(section(text(), accessory=thumbnail(description="d" * 1025))),
        None,
        ("components", 0, "accessory", "description"),
    ),
    # Unfurled media: `attachment://<filename>` names a file of the message.
    "attachment:// naming no file": (
        v2(gallery("attachment://board.png")),
        {"other.png": PNG},
        ("components", 0, "items", 0, "media", "url"),
    ),
    "a thumbnail naming no file": (
        v2(section(text(), accessory=thumbnail("attachment://ana.png"))),
        None,
        ("components", 0, "accessory", "media", "url"),
    ),
    # File: "only supports attachment references".
    "a file component with a web url": (
        v2({"type": 13, "file": {"url": "https://example.com/log.txt"}}),
        None,
        ("components", 0, "file", "url"),
    ),
    # What may stand at the top, in a container, in a section.
    "a button at the top": (v2(button()), None, ("components", 0, "type")),
    "a thumbnail at the top": (v2(thumbnail()), None, ("components", 0, "type")),
    "a text input in a message": (
        v2({"type": 4, "custom_id": "t", "label": "l", "style": 1}),
        None,
        ("components", 0, "type"),
    ),
    "a container in a container": (
        v2(container(container(text()))),
        None,
        ("components", 0, "components", 0, "type"),
    ),
    "an empty container": (v2(container()), None, ("components", 0, "components")),
    "an accent colour over 0xFFFFFF": (
        v2(container(text(), accent_color=0x1000000)),
        None,
        ("components", 0, "accent_color"),
    ),
    # Separator: spacing "1 for small padding, 2 for large padding".
    "separator spacing 3": (v2(separator(spacing=3)), None, ("components", 0, "spacing")),
    # Anatomy of a Component: "The id must be unique within the message".
    "an id used twice": (
        v2({**text(), "id": 5}, container({**text(), "id": 5})),
        None,
        ("components", 1, "components", 0, "id"),
    ),
    # A component's custom emoji must be one the app can use (BUTTON_COMPONENT_INVALID_EMOJI).
    "a button with an unknown custom emoji": (
        v2(row(button(emoji={"id": "123456789", "name": "card_a"}))),
        None,
        ("components", 0, "components", 0, "emoji", "id"),
    ),
    "a button emoji named like a custom one, without its id": (
        v2(row(button(emoji={"name": "card_a"}))),
        None,
        ("components", 0, "components", 0, "emoji", "name"),
    ),
}


@pytest.mark.parametrize("case", REFUSED)
async def test_what_the_documentation_forbids_is_refused(emulator, case):
    body, files, path = REFUSED[case]
    refused(await post(emulator, body, files), path)
    assert [f.status for f in emulator.take_failures()] == [400]


async def test_a_deleted_app_emoji_on_a_button_is_refused(emulator):
    emoji = emulator.world.add_application_emoji("card_a", PNG, "image/png")
    on_button = v2(row(button(emoji={"id": str(emoji.id), "name": "card_a"})))
    assert (await post(emulator, on_button)).status == 200
    del emulator.world.application_emojis[emoji.id]
    refused(await post(emulator, on_button), ("components", 0, "components", 0, "emoji", "id"))
    emulator.take_failures()


# edits and the flag -------------------------------------------------------------------------


async def test_an_edit_cannot_remove_the_flag(emulator):
    created = await post(emulator, v2(text()))
    refused(await patch(emulator, created.body["id"], {"flags": 0}), ("flags",))
    # Leaving `flags` out keeps them, and other bits beside the flag are fine.
    kept = await patch(emulator, created.body["id"], {"components": [text("Ben's turn")]})
    assert kept.status == 200 and kept.body["flags"] & V2
    kept = await patch(emulator, created.body["id"], {"flags": V2 | (1 << 2)})
    assert kept.status == 200 and kept.body["flags"] & V2
    assert len(emulator.take_failures()) == 1


async def test_an_edit_setting_the_flag_must_empty_the_content(emulator):
    created = await post(emulator, {"content": "hi", "embeds": [{"title": "Board"}]})
    upgrade = {"flags": V2, "components": [text()]}
    refused(await patch(emulator, created.body["id"], upgrade), ("content",))
    refused(await patch(emulator, created.body["id"], {**upgrade, "content": None}), ("embeds",))
    assert emulator.world.message(int(created.body["id"])).flags & V2 == 0
    assert len(emulator.take_failures()) == 2


async def test_content_or_embeds_added_to_a_v2_message_are_refused(emulator):
    created = await post(emulator, v2(text()))
    refused(await patch(emulator, created.body["id"], {"content": "hi"}), ("content",))
    refused(await patch(emulator, created.body["id"], {"embeds": [{"title": "t"}]}), ("embeds",))
    assert len(emulator.take_failures()) == 2


async def test_an_edit_is_checked_against_the_layout_rules(emulator):
    created = await post(emulator, v2(text()))
    refused(
        await patch(emulator, created.body["id"], {"components": [section(text())]}),
        ("components", 0, "accessory"),
    )
    emulator.take_failures()


async def component_press(emulator: DiscordEmulator, message_id: int) -> EmulatedInteraction:
    """A press on a message with no bot to answer it: the test answers over HTTP."""
    interaction = await emulator.start_interaction(
        kind=InteractionType.MESSAGE_COMPONENT,
        user_id=emulator.user("ana").id,
        channel_id=emulator.channel.id,
        source_message_id=message_id,
        data={"custom_id": "hand", "component_type": 2},
        description="a press",
    )
    interaction.cancel_deadline()
    return interaction


async def test_interaction_updates_and_webhook_edits_keep_the_flag_rules(emulator):
    created = await post(emulator, v2(row(button())))
    press = await component_press(emulator, int(created.body["id"]))
    async with RawApi(emulator) as api:
        callback = f"/interactions/{press.id}/{press.token}/callback"
        answer = await api.post(callback, {"type": 7, "data": {"content": "hi"}})
        refused(answer, ("data", "content"))
        answer = await api.post(callback, {"type": 7, "data": {"components": [text()]}})
        assert answer.status == 204, answer
        original = f"/webhooks/{emulator.bot_user_id}/{press.token}/messages/@original"
        refused(await api.patch(original, {"flags": 0, "components": [text()]}), ("flags",))
        refused(await api.patch(original, {"components": [thumbnail()]}), ("components", 0, "type"))
        answer = await api.post(
            f"/webhooks/{emulator.bot_user_id}/{press.token}", v2(text(), content="hi")
        )
        refused(answer, ("content",))
    assert len(emulator.take_failures()) == 4


# (c) the legal upgrade ----------------------------------------------------------------------


async def test_a_legacy_message_is_edited_into_v2_by_clearing_content_and_embeds(emulator, bot):
    message = await text_channel(bot, emulator).send("hi", embed=discord.Embed(title="Board"))
    view = discord.ui.LayoutView()
    view.add_item(discord.ui.Container(discord.ui.TextDisplay("Ana's turn")))
    edited = await message.edit(content=None, embed=None, view=view)
    assert edited.flags.components_v2
    stored = emulator.world.message(message.id)
    assert (stored.content, stored.embeds) == ("", [])
    assert stored.flags & V2
    assert stored.components[0]["components"][0]["content"] == "Ana's turn"
    assert MessageSnapshot.of(stored).text() == "Ana's turn"


# (d) what a V2 message shows ----------------------------------------------------------------


async def test_an_attachment_no_component_shows_is_not_visible(emulator):
    body = v2(
        container(
            text("## Board"),
            gallery("attachment://board.png", description="The board"),
            separator(),
        )
    )
    created = await post(emulator, body, {"board.png": PNG, "hand.png": b"secret hand"})
    assert [a["filename"] for a in created.body["attachments"]] == ["board.png", "hand.png"]
    record = emulator.world.message(int(created.body["id"]))
    assert [a.filename for a in record.attachments] == ["board.png", "hand.png"]
    shown = MessageSnapshot.of(record)
    assert shown.attachment_names == ["board.png"]
    assert shown.attachments == (("board.png", PNG),)
    assert shown.text() == (
        "## Board\n[image] board.png — The board\n[separator]\n[attachment] board.png"
    )
    (entry,) = emulator.transcript.entries
    assert "hand.png" not in entry.text()
    assert entry.contains(b"secret hand"), "the file still reaches every client"


async def test_a_legacy_message_shows_all_its_attachments(emulator):
    created = await post(emulator, {"content": "board"}, {"board.png": PNG, "hand.png": PNG})
    record = emulator.world.message(int(created.body["id"]))
    assert MessageSnapshot.of(record).attachment_names == ["board.png", "hand.png"]


async def test_custom_emoji_read_as_their_names(emulator):
    card = emulator.world.add_application_emoji("card_a", PNG, "image/png")
    body = v2(
        text(f"You hold <:card_a:{card.id}> and <a:spin:42>"),
        row(button(emoji={"id": str(card.id), "name": "card_a"}, label="Take")),
        section(text(), accessory=thumbnail(description="Ana")),
    )
    created = await post(emulator, body)
    record = emulator.world.message(int(created.body["id"]))
    assert MessageSnapshot.of(record).text().splitlines() == [
        "You hold :card_a: and :spin:",
        "[button] :card_a: Take",
        "Ana's turn",
        "[thumbnail] ana.png — Ana",
    ]


# (e) application emojis -----------------------------------------------------------------------


async def test_app_emojis_are_created_listed_reused_and_renamed_through_discord_py(emulator, bot):
    created = await bot.create_application_emoji(name="card_a", image=PNG)
    assert created.is_application_owned() and created.require_colons and not created.managed
    stored = emulator.world.application_emojis[created.id]
    assert (stored.name, stored.image, stored.mime_type) == ("card_a", PNG, "image/png")
    listed = await bot.fetch_application_emojis()
    reused = next(e for e in listed if e.name == "card_a")
    assert reused.id == created.id and reused.user is not None and reused.user.id == bot.user.id
    assert (await bot.fetch_application_emoji(created.id)).name == "card_a"
    renamed = await created.edit(name="card_b")
    assert (
        renamed.name == "card_b" and emulator.world.application_emojis[created.id].name == "card_b"
    )
    # An app emoji may then be used on a button.
    answer = await post(emulator, v2(row(button(emoji={"id": str(created.id), "name": "card_b"}))))
    assert answer.status == 200, answer
    await created.delete()
    with pytest.raises(discord.NotFound) as raised:
        await bot.fetch_application_emoji(created.id)
    assert raised.value.code == 10014
    emulator.take_failures()


async def test_an_app_emoji_name_is_unique_in_the_app(emulator, bot):
    await bot.create_application_emoji(name="card_a", image=PNG)
    with pytest.raises(discord.HTTPException) as raised:
        await bot.create_application_emoji(name="card_a", image=PNG)
    assert (raised.value.status, raised.value.code) == (400, INVALID_FORM_BODY)
    (failure,) = emulator.take_failures()
    assert "APPLICATION_EMOJI_NAME_ALREADY_TAKEN" in failure.detail
    other = await bot.create_application_emoji(name="card_b", image=PNG)
    with pytest.raises(discord.HTTPException):
        await other.edit(name="card_a")
    assert "APPLICATION_EMOJI_NAME_ALREADY_TAKEN" in emulator.take_failures()[0].detail


async def test_an_app_emoji_image_is_at_most_256_kib(emulator, bot):
    padding = b"\x00" * (KIB_256 - len(PNG))
    await bot.create_application_emoji(name="just_fits", image=PNG + padding)
    with pytest.raises(discord.HTTPException) as raised:
        await bot.create_application_emoji(name="too_big", image=PNG + padding + b"\x00")
    assert (raised.value.status, raised.value.code) == (400, INVALID_FORM_BODY)
    assert "BINARY_TYPE_MAX_SIZE" in emulator.take_failures()[0].detail


async def test_an_app_owns_at_most_2000_emojis(emulator, bot):
    assert MAX_APPLICATION_EMOJIS == 2000
    for n in range(MAX_APPLICATION_EMOJIS - 1):
        emulator.world.add_application_emoji(f"seeded_{n}", PNG, "image/png")
    await bot.create_application_emoji(name="the_2000th", image=PNG)
    with pytest.raises(discord.HTTPException) as raised:
        await bot.create_application_emoji(name="the_2001st", image=PNG)
    assert (raised.value.status, raised.value.code) == (400, MAXIMUM_EMOJIS_REACHED)
    assert len(await bot.fetch_application_emojis()) == MAX_APPLICATION_EMOJIS
    emulator.take_failures()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "a", "image": "data:image/png;base64,iVBORw0KGgo="}, "name"),
        ({"name": "n" * 33, "image": "data:image/png;base64,iVBORw0KGgo="}, "name"),
        ({"name": "card-a", "image": "data:image/png;base64,iVBORw0KGgo="}, "name"),
        ({"name": "card_a"}, "image"),
        ({"name": "card_a", "image": "https://example.com/a.png"}, "image"),
        ({"name": "card_a", "image": "data:image/gif;base64,iVBORw0KGgo="}, "image"),
        ({"name": "card_a", "image": "data:image/bmp;base64,Qk0="}, "image"),
    ],
)
async def test_an_app_emoji_needs_a_valid_name_and_image(emulator, body, field):
    async with RawApi(emulator) as api:
        answer = await api.post(f"/applications/{emulator.bot_user_id}/emojis", body)
    assert codes_at(answer.body["errors"], (field,))
    assert emulator.world.application_emojis == {}
    emulator.take_failures()


async def test_the_emoji_routes_answer_as_documented(emulator):
    async with RawApi(emulator) as api:
        base = f"/applications/{emulator.bot_user_id}/emojis"
        image = "data:image/png;base64,iVBORw0KGgo="
        created = await api.post(base, {"name": "card_a", "image": image})
        assert created.status == 201 and created.body["roles"] == []
        assert (await api.get(base)).body["items"] == [created.body]
        assert (await api.delete(f"{base}/{created.body['id']}")).status == 204
        assert (await api.get(f"{base}/{created.body['id']}")).code == 10014
        assert (await api.patch(f"{base}/1", {"name": "card_b"})).code == 10014
    assert [f.code for f in emulator.take_failures()] == [10014, 10014]
