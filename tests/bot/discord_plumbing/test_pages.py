"""A page is one Components V2 container that Discord accepts: heading, picture at full
width, text, separator, the rows; a notice above it; an edit that clears what a message in
the older layout had. Each payload goes through the emulator's own checks of Discord's
rules, so a layout Discord would refuse fails here first."""

from __future__ import annotations

import json
from typing import Any

import discord
from discord.http import handle_message_parameters

from bot.discord_plumbing.pages import TEXT_LIMIT, Page, custom_ids, message_kwargs, text_page
from bot.play.board import board_page
from engine.rules import new_game, public_view
from tests.discord_emulator.limits import MESSAGE_FLAG_COMPONENTS_V2, message_problems

V2 = MESSAGE_FLAG_COMPONENTS_V2


def payload(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The JSON discord.py itself sends for these keyword arguments."""
    with handle_message_parameters(**kwargs) as parameters:
        if parameters.payload is not None:
            return dict(parameters.payload)
        # With files, the JSON goes as the multipart form's payload_json part.
        (part,) = [p for p in parameters.multipart if p["name"] == "payload_json"]
        return dict(json.loads(part["value"]))


def kinds(components: list[dict[str, Any]]) -> list[int]:
    return [c["type"] for c in components]


def problems(kwargs: dict[str, Any], names: list[str]) -> list[Any]:
    """What Discord would refuse in the request, its files named ``names``."""
    return list(
        message_problems(
            payload(kwargs),
            attachment_count=len(names),
            attachment_names=names,
            media_attachment_names=names,
        )
    )


async def board() -> Page:
    table = public_view(new_game(seed=2))
    return await board_page("en", 7, table, ("ana", "ben"), ai_seat=None, deadline=1.9e9)


async def test_the_board_is_one_container_picture_text_separator_rows():
    page = await board()
    kwargs = message_kwargs(page)
    body = payload(kwargs)
    assert body["flags"] & V2 and "content" not in body and "embeds" not in body
    (container,) = body["components"]
    assert container["type"] == 17  # one container, no notice above it
    inside = container["components"]
    # heading, gallery, text, separator, then the Hand · Moves row
    assert kinds(inside) == [10, 12, 10, 14, 1]
    assert inside[0]["content"] == f"### {page.title}"
    item = inside[1]["items"][0]
    assert item["media"]["url"] == f"attachment://{page.image[0]}"  # type: ignore[index]
    assert item["description"] == page.image_description
    assert inside[2]["content"] == page.text
    assert kwargs["file"].filename == page.image[0]  # type: ignore[index]
    assert problems(kwargs, [kwargs["file"].filename]) == []


async def test_a_notice_stands_above_the_container():
    page = Page(text="the board", title="Board", notice="<@5> starts")
    body = payload(message_kwargs(page))
    assert kinds(body["components"]) == [10, 17]
    assert body["components"][0]["content"] == "<@5> starts"


async def test_an_edit_clears_the_older_layout_and_keeps_the_picture():
    page = await board()
    kwargs = message_kwargs(page, editing=True)
    assert kwargs["content"] is None and kwargs["embed"] is None
    body = payload(kwargs)
    assert body["content"] is None and body["embeds"] == [] and body["flags"] & V2
    (file,) = kwargs["attachments"]
    assert file.filename == page.image[0]  # type: ignore[index]
    assert problems(kwargs, [file.filename]) == []


async def test_without_attach_files_the_picture_and_its_gallery_go():
    page = await board()
    kwargs = message_kwargs(page, editing=True, picture=False)
    assert kwargs["attachments"] == []
    inside = payload(kwargs)["components"][0]["components"]
    assert 12 not in kinds(inside)
    assert problems(kwargs, []) == []


def test_text_past_discord_limit_is_cut_with_a_mark_and_accepted():
    page = Page(text="x" * 5000, title="T" * 100, notice="n" * 300)
    kwargs = message_kwargs(page)
    texts = [c["content"] for c in _walk(payload(kwargs)["components"]) if c["type"] == 10]
    assert sum(len(t) for t in texts) <= TEXT_LIMIT
    assert texts[-1].endswith("…")
    assert problems(kwargs, []) == []


def test_a_retired_message_is_one_line_in_the_new_layout():
    kwargs = message_kwargs(text_page("Your turn moved on."), editing=True)
    body = payload(kwargs)
    assert kwargs["attachments"] == [] and kwargs["content"] is None
    (container,) = body["components"]
    assert [c["content"] for c in container["components"]] == ["Your turn moved on."]


def test_a_page_with_every_row_a_panel_can_have_stays_within_forty_components():
    rows = tuple(
        tuple(
            discord.ui.Button(label=f"{r}{b}", custom_id=f"id{r}{b}")  # type: ignore[misc]
            for b in range(5)
        )
        for r in range(5)
    )
    kwargs = message_kwargs(Page(text="t", title="T", rows=rows, notice="n"))
    assert len(list(_walk(payload(kwargs)["components"]))) <= 40
    assert problems(kwargs, []) == []


def _walk(components: list[dict[str, Any]]) -> Any:
    for component in components:
        yield component
        yield from _walk(component.get("components") or [])


def test_the_buttons_of_a_received_layout_are_found_however_deeply_nested():
    from discord.components import _component_factory

    button = discord.ui.Button[Any](label="Hand", custom_id="hk:5:2:hand")
    kwargs = message_kwargs(Page(text="t", title="T", rows=((button,),)))
    received = [_component_factory(c) for c in payload(kwargs)["components"]]
    assert list(custom_ids(received)) == ["hk:5:2:hand"]


async def test_a_gallery_naming_a_file_the_message_lacks_would_be_refused():
    page = await board()
    kwargs = message_kwargs(page)
    assert problems(kwargs, ["other.png"])  # the check sees the gallery's attachment:// link
