"""Plain descriptions of messages and their components, free of discord.py.

Pages are built as these specs (easy to test, easy to check against Discord's limits) and
turned into discord.py components in one place, :mod:`bot.discord_ui`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Style(enum.Enum):
    PRIMARY = "primary"
    SECONDARY = "secondary"
    SUCCESS = "success"
    DANGER = "danger"


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    label: str
    custom_id: str
    style: Style = Style.SECONDARY
    disabled: bool = False


@dataclass(frozen=True, slots=True)
class OptionSpec:
    label: str
    value: str
    description: str = ""


@dataclass(frozen=True, slots=True)
class SelectSpec:
    custom_id: str
    placeholder: str
    options: tuple[OptionSpec, ...]
    min_values: int = 1
    max_values: int = 1


Row = tuple[ButtonSpec, ...] | SelectSpec


@dataclass(frozen=True, slots=True)
class PageSpec:
    """A message: text (an embed description), optional title, and rows of components."""

    text: str
    title: str = ""
    rows: tuple[Row, ...] = field(default=())
    notice: str = ""
    """A short line above the embed, e.g. why the previous click was refused."""
    image: tuple[str, bytes] | None = None
    """A picture shown in the embed: (file name, PNG bytes)."""
