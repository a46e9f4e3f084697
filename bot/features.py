"""What the bot hands its features (the extensions :data:`bot.client.EXTENSIONS` names):
the parts it builds once, the one `/hanamikoji` group, and the `Feature` cog each extension
adds to hold its own dependencies.

The features never import the bot class: an extension's ``setup(bot)`` takes what it needs
from :func:`shared_parts`, builds a small frozen dependencies object, and its
`DynamicItem`s find that object again with :func:`feature_deps`.

Every feature's folder reads alike: ``__init__.py`` (``setup`` and the ``ITEMS`` it
registers), ``deps.py`` (its dependencies, and its buttons' base where they share one),
``commands.py``, a module per button (on :class:`~bot.discord_plumbing.match_item.MatchItem`
or :class:`~bot.discord_plumbing.link_button.LinkButton`, their ids from
:mod:`bot.custom_ids`) and ``words.py``. No feature imports another (tests/test_layering.py).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_plumbing.app_emojis import AppEmojis
from bot.discord_plumbing.direct_messages import DirectMessages
from bot.discord_plumbing.install_context import outside_bot_servers
from bot.discord_plumbing.interaction_boards import InteractionBoards
from bot.discord_plumbing.places import Places
from bot.discord_plumbing.retrier import Retrier
from bot.discord_plumbing.translator import localised
from bot.words.i18n import language_of, text
from bot.words.player_names import PlayerNames
from bot.words.refusals import REFUSED, refusal_text
from bot.words.server_language import ServerLanguages
from engine.service.match_service import MatchService

log = logging.getLogger(__name__)

D = TypeVar("D")


@dataclass(frozen=True, slots=True)
class SharedParts:
    """Built once by the bot and shared by its features."""

    service: MatchService
    names: PlayerNames
    languages: ServerLanguages
    places: Places
    direct_messages: DirectMessages
    emojis: AppEmojis
    """The bot's card emojis, as far as uploaded (letters until then)."""
    interaction_boards: InteractionBoards = field(default_factory=InteractionBoards)
    """The live presses of the boards outside any server the bot is in: the command or
    the Accept that posts such a board leaves its interaction here for the presenters."""

    @property
    def retrier(self) -> Retrier:
        return self.places.retrier


class Feature(commands.Cog):
    """One feature's cog: holds the feature's dependencies for its `DynamicItem`s, and
    says when everything it has to show is shown (tests and shutdown wait for that)."""

    def __init__(self, deps: object, *, unsubscribe: Callable[[], None] | None = None) -> None:
        self.deps = deps
        self._unsubscribe = unsubscribe
        """Stops the feature's subscription to the service's events, if it has one."""

    async def cog_unload(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    async def wait_idle(self) -> None:
        """Until everything queued to be shown has been shown."""


AnyBot = commands.Bot | commands.AutoShardedBot
"""What a feature is loaded into: the bot holds its shards itself or is given a range."""


def shared_parts(bot: AnyBot) -> SharedParts:
    parts = getattr(bot, "parts", None)
    if not isinstance(parts, SharedParts):
        raise TypeError(f"{bot!r} holds no SharedParts")
    return parts


def feature_deps(client: discord.Client, kind: type[D]) -> D:
    """The dependencies object of type `kind` that a loaded feature holds."""
    if isinstance(client, commands.Bot | commands.AutoShardedBot):
        for cog in client.cogs.values():
            if isinstance(cog, Feature) and isinstance(cog.deps, kind):
                return cog.deps
    raise LookupError(f"no loaded feature holds {kind.__name__}")


def features(bot: AnyBot) -> list[Feature]:
    return [cog for cog in bot.cogs.values() if isinstance(cog, Feature)]


ANYWHERE = frozenset({"challenge", "ai", "rules", "stats", "puzzle", "review"})
"""The subcommands that work outside the servers the bot is in (a DM, a group DM, a server
only a member's user install reaches): a match there lives in its interactions' messages."""


class HanamikojiGroup(app_commands.Group):
    """`/hanamikoji`: every command, added by the features; refusals in the user's language."""

    def __init__(self, names: PlayerNames) -> None:
        # Installed to servers and to users' accounts, usable everywhere: contexts and
        # installs belong to the top-level command only (discord.py ignores them on
        # subcommands), so the group's interaction_check lets through, outside the servers
        # the bot is in, only the commands that work there (ANYWHERE).
        super().__init__(
            name="hanamikoji",
            description=localised("slash.group"),
            allowed_contexts=app_commands.AppCommandContext(
                guild=True, dm_channel=True, private_channel=True
            ),
            allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
        )
        self._names = names

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        self._names.remember(interaction.user, interaction.locale)
        command = interaction.command
        name = command.name if command is not None else ""
        if name in ANYWHERE or not outside_bot_servers(interaction):
            return True
        lang = language_of(interaction.locale)
        await interaction.response.send_message(
            text(lang, "anywhere.server_only", command=f"/hanamikoji {name}"), ephemeral=True
        )
        return False

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        lang = language_of(interaction.locale)
        original = getattr(error, "original", error)
        if isinstance(original, REFUSED):
            interaction.client.dispatch("refusal", original)  # counted, if metrics are on
            message = refusal_text(lang, original)
        elif isinstance(error, app_commands.MissingPermissions):
            message = text(lang, "commands.settings_forbidden")
        else:
            command = interaction.command.qualified_name if interaction.command else "?"
            log.error("command %s failed", command, exc_info=original)
            message = text(lang, "refusal.wrong")
        with contextlib.suppress(discord.HTTPException):
            if interaction.response.is_done():
                await interaction.followup.send(message, ephemeral=True)
            else:
                await interaction.response.send_message(message, ephemeral=True)


def command_group(bot: AnyBot) -> app_commands.Group:
    """The one `/hanamikoji` group, to add a feature's commands to."""
    group = bot.tree.get_command("hanamikoji")
    if not isinstance(group, app_commands.Group):
        raise LookupError("the bot has no /hanamikoji group")
    return group
