"""What the play feature's buttons share: their dependencies (the service's commands and
queries, the players' names, the presence record, the private panel's screens), their base
class, and how a press is acknowledged."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, Self

import discord

from bot.custom_ids import ANY_MATCH_ITEM, Verb, game_id
from bot.discord_plumbing.first_response import on_private_message
from bot.discord_plumbing.interaction_boards import InteractionBoards
from bot.discord_plumbing.match_item import MatchItem, MatchItemDeps
from bot.play.board_interactions import BoardInteractions
from bot.words.i18n import text
from engine.model import MatchInfo
from engine.rules import Action, Decision, PlayerView
from engine.service import MatchCommands, MatchPlacements, SubmitResult
from engine.service.matches.overdue import OverdueChoices


class PanelScreens(Protocol):
    """The private panel's pages, shown as the answer to a press (:mod:`bot.play.panel`)."""

    async def home(
        self,
        interaction: discord.Interaction[Any],
        lang: str,
        info: MatchInfo,
        *,
        edit: bool,
        notice: str = "",
        picture: bool = False,
        view: PlayerView | None = None,
        beside: bool = False,
    ) -> None: ...

    async def played(
        self,
        interaction: discord.Interaction[Any],
        lang: str,
        info: MatchInfo,
        result: SubmitResult,
        *,
        edit: bool,
        notice: str,
    ) -> None: ...

    async def pick(
        self,
        interaction: discord.Interaction[Any],
        lang: str,
        match_id: int,
        view: PlayerView,
        action: Action,
        *,
        edit: bool,
    ) -> None: ...

    async def confirm(
        self,
        interaction: discord.Interaction[Any],
        lang: str,
        match_id: int,
        view: PlayerView,
        action: Action,
        decisions: tuple[Decision, ...],
        *,
        edit: bool,
    ) -> None: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayDeps(MatchItemDeps):
    commands: MatchCommands
    placements: MatchPlacements
    panel: PanelScreens
    board_presses: BoardInteractions[discord.Interaction[Any]] = field(
        default_factory=BoardInteractions
    )
    """Where a press on a board leaves its interaction for the board's next edit (the
    match presenters' slots)."""
    overdue: OverdueChoices | None = None
    """What the waiting player of an overdue turn-based match may choose (the board's
    Claim, Let the AI play, Keep waiting)."""
    interaction_boards: InteractionBoards = field(default_factory=InteractionBoards)
    """The live presses of boards outside any server the bot is in (shared with the
    presenters, which edit those boards through them)."""


class PlayButton(
    MatchItem[discord.ui.Button[Any], PlayDeps],
    template=ANY_MATCH_ITEM,
):
    """A button of the play feature; only the match's players may press it. Its answer is
    the panel redrawn or a private message, so its first response may wait for it."""

    deps_kind = PlayDeps
    answers_itself = True


class VerbButton(PlayButton, template=ANY_MATCH_ITEM):
    """A play button whose custom_id holds nothing but its match, version and verb
    (``hk:<match>:<version>:<verb>``; an action adds its size): Hand, Back, Resign and the
    four actions share how it is made and read. Each verb still registers its own template.
    """

    verb: ClassVar[Verb]
    style: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary

    def __init__(
        self,
        match_id: int,
        version: int,
        *,
        label: str = "",
        style: discord.ButtonStyle | None = None,
    ) -> None:
        inner = button(
            match_id,
            version,
            self.verb,
            self.arg(),
            label=label,
            style=self.style if style is None else style,
        )
        super().__init__(inner, match_id, version)

    @classmethod
    def arg(cls) -> str:
        """What follows the verb in the custom_id: nothing, but for an action."""
        return ""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["match"]), int(match["version"]))


async def fresh_view(
    item: MatchItem[Any, PlayDeps],
    interaction: discord.Interaction[Any],
    lang: str,
    info: MatchInfo,
    *,
    to_decide: bool = True,
) -> PlayerView | None:
    """What the presser sees of the match, if ``item`` was made for the match as it is now
    (and, with ``to_decide``, the presser decides now). Otherwise the panel's first page
    comes back, saying it was out of date, and None: the one check of a panel's buttons
    before their page (a decision's submission is checked by the service itself)."""
    view = await item.deps.queries.view_for(info.match_id, interaction.user.id)
    if item.version == view.table.version and (view.to_decide or not to_decide):
        return view
    notice = text(lang, "refusal.stale")
    edit = on_private_message(interaction)
    await item.deps.panel.home(interaction, lang, info, edit=edit, notice=notice, view=view)
    return None


def button(
    match_id: int,
    version: int,
    verb: Verb,
    arg: str = "",
    *,
    label: str = "",
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
) -> discord.ui.Button[Any]:
    """The discord.py button under a play item, its custom_id made for `verb`."""
    return discord.ui.Button(
        label=label, style=style, custom_id=game_id(match_id, version, verb, arg)
    )
