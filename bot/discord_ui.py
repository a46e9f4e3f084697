"""Turns page specs into discord.py views and embeds; the only place that does so.

Every game component is a :class:`discord.ui.DynamicItem` whose custom_id names the
match and version (:mod:`bot.custom_ids`), so a click is understood after a restart; the
click itself is routed to :mod:`bot.clicks`.
"""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.custom_ids import Verb, decode
from bot.ui_spec import ButtonSpec, PageSpec, SelectSpec, Style

if TYPE_CHECKING:
    from bot.client import HanamikojiBot

EMBED_COLOUR = discord.Colour.from_rgb(196, 64, 84)

_STYLES = {
    Style.PRIMARY: discord.ButtonStyle.primary,
    Style.SECONDARY: discord.ButtonStyle.secondary,
    Style.SUCCESS: discord.ButtonStyle.success,
    Style.DANGER: discord.ButtonStyle.danger,
}
_BUTTON_VERBS = "|".join(v.value for v in Verb if v is not Verb.PICK)
BUTTON_TEMPLATE = re.compile(
    rf"hk:(?P<match>[0-9]+):(?P<version>[0-9]+):(?P<verb>{_BUTTON_VERBS})(?::(?P<arg>[A-G0-9X-]{{1,8}}))?"
)
SELECT_TEMPLATE = re.compile(r"hk:(?P<match>[0-9]+):(?P<version>[0-9]+):pick:(?P<arg>[1-4])")


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    """Any game button; what it does is in its custom_id."""

    def __init__(self, item: discord.ui.Button[Any]) -> None:
        super().__init__(item)

    @classmethod
    def from_spec(cls, spec: ButtonSpec) -> GameButton:
        return cls(
            discord.ui.Button(
                label=spec.label,
                custom_id=spec.custom_id,
                style=_STYLES[spec.style],
                disabled=spec.disabled,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[Any],
        match: re.Match[str],
    ) -> GameButton:
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        parsed = decode(self.custom_id)
        if parsed is not None:
            bot: HanamikojiBot = interaction.client
            await bot.clicks.on_click(interaction, parsed, [])


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """The card select of the private panel."""

    def __init__(self, item: discord.ui.Select[Any]) -> None:
        super().__init__(item)

    @classmethod
    def from_spec(cls, spec: SelectSpec) -> GameSelect:
        options = [
            discord.SelectOption(label=o.label, value=o.value, description=o.description or None)
            for o in spec.options
        ]
        return cls(
            discord.ui.Select(
                custom_id=spec.custom_id,
                placeholder=spec.placeholder,
                min_values=spec.min_values,
                max_values=spec.max_values,
                options=options,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Select[Any],
        match: re.Match[str],
    ) -> GameSelect:
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        parsed = decode(self.custom_id)
        if parsed is not None:
            bot: HanamikojiBot = interaction.client
            await bot.clicks.on_click(interaction, parsed, list(self.item.values))


def build_view(page: PageSpec) -> discord.ui.View | None:
    """A persistent view (no timeout) holding the page's rows, or None without components."""
    if not page.rows:
        return None
    view = discord.ui.View(timeout=None)
    for row_index, row in enumerate(page.rows):
        if isinstance(row, SelectSpec):
            item: discord.ui.Item[Any] = GameSelect.from_spec(row)
            item.row = row_index
            view.add_item(item)
        else:
            for spec in row:
                button = GameButton.from_spec(spec)
                button.row = row_index
                view.add_item(button)
    return view


def build_embed(page: PageSpec) -> discord.Embed:
    embed = discord.Embed(description=page.text, colour=EMBED_COLOUR)
    if page.title:
        embed.title = page.title
    if page.image is not None:
        embed.set_image(url=f"attachment://{page.image[0]}")
    return embed


def _file(page: PageSpec) -> discord.File | None:
    if page.image is None:
        return None
    name, data = page.image
    return discord.File(io.BytesIO(data), filename=name)


def message_kwargs(page: PageSpec, *, editing: bool = False) -> dict[str, Any]:
    """``content``, ``embed`` and ``view`` for send calls, or for edits (which clear what
    the page does not have)."""
    view = build_view(page)
    file = _file(page)
    kwargs: dict[str, Any] = {"embed": build_embed(page)}
    if editing:
        kwargs["content"] = page.notice or None
        kwargs["view"] = view
        kwargs["attachments"] = [file] if file is not None else []
    else:
        if page.notice:
            kwargs["content"] = page.notice
        if view is not None:
            kwargs["view"] = view
        if file is not None:
            kwargs["file"] = file
    return kwargs
