"""The base of every match component (one `DynamicItem` subclass per verb): the single
"who may press" check, and the edge where the service's refusals become short ephemeral
answers in the presser's language.

`from_custom_id` never raises (discord.py would log a traceback and leave the press
unanswered): a field that does not read makes an item that is not `readable`, and the
check refuses it politely before anything reaches the service. `UnreadableItem` answers
the ids of every prefix (:class:`bot.custom_ids.Prefix`) that no template reads; the bot
registers it once, for every feature (:mod:`bot.client`)."""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar, cast

import discord

from bot.custom_ids import ANY_MATCH_ITEM, UNREADABLE, is_id, is_version
from bot.discord_plumbing.first_response import (
    FirstResponse,
    acknowledge,
    fitting_response,
    hold_back,
    on_private_message,
    settle,
)
from bot.discord_plumbing.pages import reply_privately
from bot.features import feature_deps
from bot.operations.json_logs import bind_log_fields
from bot.words.i18n import language_of, text
from bot.words.player_names import PlayerNames
from bot.words.refusals import REFUSED, refusal_text
from engine.model import MatchInfo
from engine.service import MatchQueries

log = logging.getLogger(__name__)


def _nobody(match_id: int, user_id: int) -> None:
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchItemDeps:
    """What the who-may-press check needs; each feature's dependencies extend it."""

    queries: MatchQueries
    names: PlayerNames
    seen: Callable[[int, int], None] = _nobody
    """Called with (match, user) for every press: the player is watching the match."""


ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])
DepsT = TypeVar("DepsT", bound=MatchItemDeps)


class MatchItem(
    discord.ui.DynamicItem[ItemT],
    Generic[ItemT, DepsT],
    template=ANY_MATCH_ITEM,
):
    """A component of one match (``hk:<match>:<version>:...``).

    Who may press: the match's two players (`players_only`), anyone for a challenge's
    Accept / Decline, which answer each presser themselves. A refusal is ephemeral.

    Every press is acknowledged (:meth:`first_response`) before the database is asked who
    may press, so a stalled database never leaves it unanswered; but an item that
    ``answers_itself`` is held back instead
    (:func:`~bot.discord_plumbing.first_response.hold_back`): its answer, when ready within
    the wait, is the first response itself. Not an update of a public message (a Take on
    the board), whose deferral the board's edit fills in.
    """

    players_only: ClassVar[bool] = True
    answers_itself: ClassVar[bool] = False
    """Whether every answer goes through :mod:`bot.discord_plumbing.first_response`'s
    answers (the panel redrawn by ``update_in_place``, a private message by
    ``send_private``), so that the first response may wait for it."""
    deps_kind: ClassVar[type[MatchItemDeps]] = MatchItemDeps

    def __init__(self, item: ItemT, match_id: int, version: int) -> None:
        super().__init__(item)
        self.match_id = match_id
        self.version = version
        self._deps: DepsT | None = None
        self._info: MatchInfo | None = None

    @property
    def deps(self) -> DepsT:
        assert self._deps is not None, "interaction_check runs first"
        return self._deps

    def readable(self) -> bool:
        """Whether every field of the custom_id read (a subclass adds its own fields)."""
        return is_id(self.match_id) and is_version(self.version)

    def first_response(self, interaction: discord.Interaction[Any]) -> FirstResponse:
        """How this press is acknowledged, to fit what :meth:`pressed` then shows: by
        default a private panel is edited in place, a public message answered privately."""
        return fitting_response(interaction)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        lang = language_of(interaction.locale)
        if not self.readable():
            await refuse_unreadable(interaction, self.custom_id)
            return False
        guild = interaction.guild
        shard_id = guild.shard_id if guild is not None else None
        # For JSON log lines (bot.operations.json_logs): this task handles this match.
        bind_log_fields(match_id=self.match_id, guild_id=interaction.guild_id, shard_id=shard_id)
        deps = cast(DepsT, feature_deps(interaction.client, self.deps_kind))
        user = interaction.user
        deps.names.remember(user, interaction.locale)
        deps.seen(self.match_id, user.id)
        kind = self.first_response(interaction)
        try:
            if self.answers_itself and (
                kind is FirstResponse.THINK or on_private_message(interaction)
            ):
                hold_back(interaction, kind)
            else:
                await acknowledge(interaction, kind)
        except discord.HTTPException as error:  # too late already: nobody to answer
            log.warning(
                "match %s: could not acknowledge %s: %s", self.match_id, self.custom_id, error
            )
            return False
        try:
            info = await deps.queries.match_info(self.match_id)
        except REFUSED as error:
            interaction.client.dispatch("refusal", error)  # counted, if metrics are on
            await reply_privately(interaction, refusal_text(lang, error))
            return False
        except Exception:
            # discord.py would drop an error raised here silently, leaving the press unanswered.
            log.exception("match %s: could not check %s", self.match_id, self.custom_id)
            await reply_privately(interaction, text(lang, "refusal.wrong"))
            return False
        if self.players_only and info.seat_of(user.id) is None:
            await reply_privately(interaction, text(lang, "refusal.not_a_player"))
            return False
        self._deps, self._info = deps, info
        return True

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        assert self._info is not None, "interaction_check runs first"
        lang = language_of(interaction.locale)
        try:
            await self.pressed(interaction, lang, self._info)
        except REFUSED as error:
            interaction.client.dispatch("refusal", error)  # counted, if metrics are on
            names = await self.names_by_id(lang)
            await reply_privately(interaction, refusal_text(lang, error, names))
        except discord.HTTPException as error:
            log.warning(
                "match %s: Discord refused our answer to %s: %s",
                self.match_id,
                self.custom_id,
                error,
            )
        except Exception:
            log.exception(
                "match %s: %s by %s failed", self.match_id, self.custom_id, interaction.user.id
            )
            await reply_privately(interaction, text(lang, "refusal.wrong"))
        finally:
            await settle(interaction)  # a held-back press nothing answered: acknowledged now

    async def pressed(
        self, interaction: discord.Interaction[Any], lang: str, info: MatchInfo
    ) -> None:
        """What the press does, once the presser may press."""
        raise NotImplementedError

    async def names_by_id(self, lang: str) -> dict[int, str]:
        """The players' names by user id (for refusals that name someone)."""
        info = self._info
        if info is None:
            return {}
        names = await self.deps.names.pair(
            info.players, info.ai_level, lang, guild_id=info.guild_id
        )
        return {info.players[0]: names[0], info.players[1]: names[1]}


@contextlib.asynccontextmanager
async def refusals_answered(
    interaction: discord.Interaction[Any], what: str
) -> AsyncIterator[None]:
    """Around the answer to an interaction that is no match's (a leaderboard page, a
    record): a refusal, the database's included, ends as a private line; a bug as a logged
    traceback and a line. Never silence, never a traceback per stalled database."""
    lang = language_of(interaction.locale)
    try:
        yield
    except REFUSED as error:
        await reply_privately(interaction, refusal_text(lang, error))
    except discord.HTTPException as error:
        log.warning("%s: Discord refused our answer: %s", what, error)
    except Exception:
        log.exception("%s failed", what)
        await reply_privately(interaction, text(lang, "refusal.wrong"))


async def refuse_unreadable(interaction: discord.Interaction[Any], custom_id: str) -> None:
    """The answer to a component whose custom_id does not read (garbled or forged)."""
    log.info("refused unreadable custom_id %r from user %s", custom_id, interaction.user.id)
    await reply_privately(interaction, text(language_of(interaction.locale), "refusal.unreadable"))


class UnreadableItem(
    discord.ui.DynamicItem[discord.ui.Item[Any]],
    template=UNREADABLE,
):
    """Any component of the bot (every :class:`bot.custom_ids.Prefix`) whose custom_id no
    template reads: the press is refused politely instead of going unanswered."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(item)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        await refuse_unreadable(interaction, self.custom_id)
        return False
