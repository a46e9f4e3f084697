"""The private panel, built from a :class:`~engine.rules.views.PlayerView` only.

First page: your hand sorted by geisha with the new card marked, your face-down Secret
and Trade-off, the actions you have left, and on your turn one button per action. Then a
card select for the chosen action, then Confirm (or one button per Competition split),
with Back at every step. Only decisions in ``view.legal`` are ever offered. The same
first page goes by DM to a player who asked for it.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import discord

from bot.discord_plumbing.app_emojis import AppEmojis
from bot.discord_plumbing.direct_messages import DirectMessages
from bot.discord_plumbing.first_response import (
    acknowledge_before_slow_work,
    answering,
    update_in_place,
)
from bot.discord_plumbing.pages import Page, Row, message_kwargs
from bot.pictures import HAND_FILE, hand_alt_text, render_hand_async
from bot.play.action_buttons import (
    ActionButton,
    CompetitionButton,
    GiftButton,
    SecretButton,
    TradeOffButton,
    actions_open,
)
from bot.play.card_select import card_select
from bot.play.confirm_button import confirm_buttons
from bot.play.hint_line import (
    DM_HINT_WAIT_SECONDS,
    HINT_WAIT_SECONDS,
    HintSource,
    hint_due,
    hint_line,
)
from bot.play.navigation_buttons import back_button, refresh_button
from bot.play.take_button import take_buttons
from bot.play.turn_notices import also_your_turn, claim_dm
from bot.words.card_faces import LETTERS, CardFaces
from bot.words.hand_lines import face_down_text, hand_text
from bot.words.i18n import text
from bot.words.names import action_hint, action_name, decision_label, letters, offer_text
from bot.words.player_names import PlayerNames
from engine.model import MatchInfo, MatchStatus
from engine.rules import Action, Competition, Decision, Gift, Phase, PlayerView
from engine.service import DatabaseUnavailable, MatchQueries, SubmitResult

ACTION_BUTTONS: dict[Action, type[ActionButton]] = {
    Action.SECRET: SecretButton,
    Action.TRADE_OFF: TradeOffButton,
    Action.GIFT: GiftButton,
    Action.COMPETITION: CompetitionButton,
}


def waiting_text(
    lang: str, view: PlayerView, names: tuple[str, str], faces: CardFaces = LETTERS
) -> str:
    public = view.table
    if public.outcome is not None:
        return text(lang, "panel.over")
    other = names[view.opponent]
    if not view.to_decide:
        key = "panel.waiting_turn" if public.phase is Phase.ACTION else "panel.waiting_choice"
        return text(lang, key, name=other)
    if public.pending is not None:
        key = (
            "panel.your_gift_choice"
            if public.phase is Phase.GIFT_CHOICE
            else "panel.your_competition_choice"
        )
        return text(lang, key, name=other, offer=offer_text(public.pending))
    drew = (
        text(lang, "panel.you_drew", card=faces.plain(view.drawn)) if view.drawn is not None else ""
    )
    return text(lang, "panel.your_turn", drew=drew)


def home_page(
    lang: str,
    view: PlayerView,
    match_id: int,
    names: tuple[str, str],
    notice: str = "",
    hint: str = "",
    faces: CardFaces = LETTERS,
) -> Page:
    """The panel's first page; ``hint`` is the hint line of a hint match, under whose turn
    it is (:mod:`bot.play.hint_line`); ``faces``, the card emojis."""
    public = view.table
    left = " · ".join(action_name(lang, a) for a in public.unused(view.player))
    body = "\n".join(
        [
            text(lang, "panel.hand_line", count=len(view.hand), cards=hand_text(lang, view, faces)),
            text(lang, "panel.face_down_line", cards=face_down_text(lang, view, faces)),
            text(lang, "panel.actions_left", actions=left or text(lang, "panel.none")),
            "",
            waiting_text(lang, view, names, faces),
            *([hint] if hint else []),
        ]
    )
    rows: list[Row] = []
    if view.to_decide and public.phase is Phase.ACTION:
        rows.append(
            tuple(
                ACTION_BUTTONS[a].labelled(lang, match_id, public.version, faces)
                for a in actions_open(view)
            )
        )
    elif view.to_decide and public.pending is not None:
        rows.append(take_buttons(lang, match_id, public.version, public.pending, faces))
    if public.outcome is None:
        rows.append((refresh_button(lang, match_id, public.version),))
    title = text(lang, "panel.title", round=public.round_number, first=names[0], second=names[1])
    return Page(text=body, title=title, rows=tuple(rows), notice=notice)


def played_page(lang: str, match_id: int, version: int, notice: str) -> Page:
    """The panel after a move the service took, when the database does not answer the read
    that redraws it: the move's notice, and a Refresh for when it answers again."""
    return Page(
        text=text(lang, "database.played_not_redrawn"),
        rows=((refresh_button(lang, match_id, version),),),
        notice=notice,
    )


def _action_title(lang: str, view: PlayerView, action: Action) -> str:
    return text(
        lang, "panel.action_title", action=action_name(lang, action), round=view.table.round_number
    )


def pick_page(
    lang: str, view: PlayerView, match_id: int, action: Action, faces: CardFaces = LETTERS
) -> Page:
    """Choose the cards for an action."""
    version = view.table.version
    count = action.size
    body = "\n".join(
        [
            text(
                lang,
                "panel.pick_intro",
                action=action_name(lang, action),
                hint=action_hint(lang, action),
            ),
            text(lang, "panel.pick_one" if count == 1 else "panel.pick_many", count=count),
            hand_text(lang, view, faces),
        ]
    )
    return Page(
        text=body,
        title=_action_title(lang, view, action),
        rows=(
            (card_select(lang, view, match_id, action, faces),),
            (back_button(lang, match_id, version),),
        ),
    )


def confirm_page(
    lang: str,
    view: PlayerView,
    match_id: int,
    action: Action,
    decisions: tuple[Decision, ...],
    faces: CardFaces = LETTERS,
) -> Page:
    """Confirm the decision, or pick one of a Competition's splits."""
    version = view.table.version
    first = decisions[0]
    if isinstance(first, Competition):
        body = text(lang, "panel.split", cards=letters(sorted(first.cards)))
    elif isinstance(first, Gift):
        body = text(lang, "panel.gift_confirm", decision=decision_label(lang, first))
    else:
        body = text(
            lang,
            "panel.confirm",
            decision=decision_label(lang, first),
            hint=action_hint(lang, action),
        )
    return Page(
        text=body,
        title=_action_title(lang, view, action),
        rows=(
            confirm_buttons(lang, match_id, version, decisions, faces),
            (back_button(lang, match_id, version),),
        ),
    )


class Panel:
    """Shows the panel's pages as the answer to a press or a command (the
    :class:`~bot.play.deps.PanelScreens` the buttons use), and sends its first page by DM."""

    def __init__(
        self,
        queries: MatchQueries,
        names: PlayerNames,
        direct_messages: DirectMessages,
        hints: HintSource,
        emojis: AppEmojis | None = None,
    ) -> None:
        self._queries = queries
        self._emojis = emojis or AppEmojis()
        self._names = names
        self._direct_messages = direct_messages
        self._hints = hints

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
    ) -> None:
        """The panel's first page: edited in place on a panel, or a new ephemeral message
        (``beside``: a followup, the press having updated the message it is on — a board
        outside the bot's servers); of ``view`` when the caller has just read it (or been
        given it by the service).

        The hand picture comes with a panel that is opened or refreshed; after a move the
        text alone answers, so the answer is never slowed by drawing. In a hint match the
        hint is worked out while the picture is drawn, the press acknowledged first.
        """
        if view is None:
            view = await self._queries.view_for(info.match_id, interaction.user.id)
        if hint_due(info, view) and not interaction.response.is_done():
            await acknowledge_before_slow_work(interaction)  # the hint may take a second or two
        hint = asyncio.ensure_future(
            hint_line(lang, self._hints, info, view, wait=HINT_WAIT_SECONDS)
        )
        names = await self._names.pair(info.players, info.ai_level, lang, guild_id=info.guild_id)
        dm_notice = self._direct_messages.take_closed_notice(lang, interaction.user.id)
        notice = "\n".join(n for n in (notice, dm_notice) if n)
        picture_png = await render_hand_async(lang, view) if picture else None
        faces = self._emojis.faces
        page = home_page(lang, view, info.match_id, names, notice, await hint, faces)
        if picture_png is not None:
            page = replace(
                page,
                image=(HAND_FILE, picture_png),
                image_description=hand_alt_text(lang, view),
            )
        await show(interaction, page, edit=edit, beside=beside)

    async def played(
        self,
        interaction: discord.Interaction[Any],
        lang: str,
        info: MatchInfo,
        result: SubmitResult,
        *,
        edit: bool,
        notice: str,
    ) -> None:
        """The first page after the presser's move was committed, of the view the service
        answered with (no read).

        The move counts from then on: if the database does not answer a read that redraws
        the panel (a hint's), the player is told the move was played, not that nothing
        changed, and gets a Refresh for later.
        """
        try:
            await self.home(interaction, lang, info, edit=edit, notice=notice, view=result.view)
        except DatabaseUnavailable:
            page = played_page(lang, info.match_id, result.version, notice)
            await show(interaction, page, edit=edit)

    async def pick(
        self,
        interaction: discord.Interaction[Any],
        lang: str,
        match_id: int,
        view: PlayerView,
        action: Action,
        *,
        edit: bool,
    ) -> None:
        page = pick_page(lang, view, match_id, action, self._emojis.faces)
        await show(interaction, page, edit=edit)

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
    ) -> None:
        page = confirm_page(lang, view, match_id, action, decisions, self._emojis.faces)
        await show(interaction, page, edit=edit)

    async def your_turn(self, info: MatchInfo, user_id: int) -> None:
        """Send the player's panel by DM if they asked for it (their previous DM panel of
        the match is retired first, so only the live one has buttons). Nothing is sent
        once the turn has moved on: a panel sent late would be live after its turn."""
        async with self._direct_messages.in_order(user_id, info.match_id):
            await self._retire(info, user_id)
            if not await self._direct_messages.wanted_by(user_id):
                return
            view = await self._queries.view_for(info.match_id, user_id)
            if not view.legal:
                return
            await self._send(info, user_id, view)

    async def _send(self, info: MatchInfo, user_id: int, view: PlayerView) -> None:
        lang = self._names.language(user_id)
        hint = asyncio.ensure_future(
            hint_line(lang, self._hints, info, view, wait=DM_HINT_WAIT_SECONDS)
        )
        names = await self._names.pair(info.players, info.ai_level, lang, guild_id=info.guild_id)
        picture_png = await render_hand_async(lang, view)
        page = home_page(
            lang, view, info.match_id, names, hint=await hint, faces=self._emojis.faces
        )
        also = await self._other_turns(lang, info, user_id)
        page = replace(
            page,
            text="\n\n".join(filter(None, [page.text, also])),
            image=(HAND_FILE, picture_png),
            image_description=hand_alt_text(lang, view),
        )
        await self._direct_messages.send(
            user_id, f"match {info.match_id}", message_kwargs(page), match_id=info.match_id
        )

    async def _other_turns(self, lang: str, info: MatchInfo, user_id: int) -> str:
        """The member's other matches in the server waiting on them, as links (one read);
        nothing if the read fails: the panel matters more than the list."""
        if info.guild_id is None:
            return ""
        try:
            games = await self._queries.games_of(info.guild_id, user_id)
        except DatabaseUnavailable:
            return ""
        return also_your_turn(lang, info, user_id, games)

    async def claim_offered(self, info: MatchInfo, user_id: int) -> None:
        """Tell the waiting player by DM, if they asked for DMs, that the late player's
        turn is theirs to settle on the board (claim, let the AI play, keep waiting)."""
        if not await self._direct_messages.wanted_by(user_id):
            return
        seat = info.seat_of(user_id)
        if seat is None:
            return
        lang = self._names.language(user_id)
        names = await self._names.pair(info.players, info.ai_level, lang, guild_id=info.guild_id)
        line = claim_dm(lang, info, names[1 - seat])
        await self._direct_messages.send(
            user_id, f"match {info.match_id}: claim offered", {"content": line}
        )

    async def retire_dm(self, info: MatchInfo, user_id: int) -> None:
        """The turn moved on: the player's DM panel of the match loses its buttons."""
        async with self._direct_messages.in_order(user_id, info.match_id):
            await self._retire(info, user_id)
            if info.status not in (MatchStatus.PENDING, MatchStatus.ACTIVE):
                self._direct_messages.forget(user_id, info.match_id)  # no panel comes again

    async def _retire(self, info: MatchInfo, user_id: int) -> None:
        lang = self._names.language(user_id)
        where = f"<#{info.placement.thread_id or info.channel_id}>"
        line = text(lang, "panel.dm_retired", where=where)
        await self._direct_messages.retire(user_id, info.match_id, line)


async def show(
    interaction: discord.Interaction[Any], page: Page, *, edit: bool, beside: bool = False
) -> None:
    """Answer with a page: fill in a deferred answer, edit the panel, or a new ephemeral;
    ``beside``: an ephemeral followup, the press acknowledged as an update of its (public)
    message, which the page must never replace."""
    if edit:
        await update_in_place(interaction, **message_kwargs(page, editing=True))
        return
    if beside:
        async with answering(interaction):
            if not interaction.response.is_done():
                await interaction.response.defer()
            await interaction.followup.send(ephemeral=True, **message_kwargs(page))
        return
    async with answering(interaction):
        if interaction.response.is_done():  # deferred before slow work: fill in the answer
            await interaction.edit_original_response(**message_kwargs(page, editing=True))
        else:
            await interaction.response.send_message(ephemeral=True, **message_kwargs(page))
