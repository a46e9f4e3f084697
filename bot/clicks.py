"""What each game button and select does when pressed: checks who pressed, asks the
service, and answers within Discord's three seconds, in the presser's language.

Who may press is decided here, once, before any verb runs; refusals are ephemeral.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot import challenge_message
from bot.card_select import picked_cards
from bot.custom_ids import GameId, Verb
from bot.discord_ui import message_kwargs
from bot.i18n import language_of, text
from bot.panel import confirm_page, decisions_for, home_page, pick_page
from bot.pictures import render_hand_async
from bot.refusals import refusal_text
from bot.ui_spec import PageSpec
from engine.rules import Action, parse_decision
from engine.rules.errors import HanamikojiError, IllegalDecision
from engine.service.errors import ChallengeNotPending, ServiceError, StaleVersion
from engine.store.rows import MatchInfo, MatchStatus

if TYPE_CHECKING:
    from bot.client import HanamikojiBot

log = logging.getLogger(__name__)

HAND_FILE = "hand.png"
_ACTION_BY_SIZE = {a.size: a for a in Action}
_PANEL_VERBS = (Verb.ACTION, Verb.PICK, Verb.DO, Verb.BACK)


def _on_private_message(interaction: discord.Interaction[Any]) -> bool:
    """True when the click came from a panel only its player sees (ephemeral or a DM)."""
    message = interaction.message
    return interaction.guild_id is None or (message is not None and message.flags.ephemeral)


class Clicks:
    def __init__(self, bot: HanamikojiBot) -> None:
        self.bot = bot

    async def on_click(
        self, interaction: discord.Interaction[Any], parsed: GameId, values: list[str]
    ) -> None:
        self.bot.player_names.remember(interaction.user, interaction.locale)
        self.bot.table.presence.seen(parsed.match_id, interaction.user.id)
        lang = language_of(interaction.locale)
        try:
            await self._route(interaction, lang, parsed, values)
        except (ServiceError, IllegalDecision) as error:
            names = await self._names_by_id(parsed.match_id, lang)
            await self.reply(interaction, refusal_text(lang, error, names))
        except discord.HTTPException as error:
            log.warning(
                "match %s: Discord refused our answer to %s: %s", parsed.match_id, parsed, error
            )
        except Exception:
            log.exception(
                "match %s: click %s by %s failed", parsed.match_id, parsed, interaction.user.id
            )
            await self.reply(interaction, text(lang, "refusal.wrong"))

    async def reply(self, interaction: discord.Interaction[Any], message: str) -> None:
        """A short ephemeral answer, whether or not the interaction was answered already."""
        try:
            if interaction.response.is_done():
                await interaction.followup.send(message, ephemeral=True)
            else:
                await interaction.response.send_message(message, ephemeral=True)
        except discord.HTTPException as error:
            log.warning("could not send a refusal: %s", error)

    async def _names_by_id(self, match_id: int, lang: str) -> dict[int, str]:
        try:
            info = await self.bot.service.queries.match_info(match_id)
        except ServiceError:
            return {}
        names = await self.bot.player_names.pair(info.players, info.ai_level, lang)
        return {info.players[0]: names[0], info.players[1]: names[1]}

    async def _route(
        self, interaction: discord.Interaction[Any], lang: str, parsed: GameId, values: list[str]
    ) -> None:
        verb = parsed.verb
        info = await self.bot.service.queries.match_info(parsed.match_id)
        if verb in (Verb.ACCEPT, Verb.DECLINE):
            await self._answer_challenge(interaction, lang, info, verb)
            return
        if info.seat_of(interaction.user.id) is None:
            await self.reply(interaction, text(lang, "refusal.not_a_player"))
            return
        if verb is Verb.REMATCH:
            await self.bot.rematches.press(interaction, info)
        elif verb is Verb.RESIGN:
            await self.bot.service.commands.resign(info.match_id, interaction.user.id)
            await interaction.response.edit_message(
                content=text(lang, "commands.resigned"), embed=None, view=None
            )
        elif verb is Verb.HAND:
            private = _on_private_message(interaction)
            await self._defer(interaction, private=private)
            await self.show_panel(interaction, lang, info, edit=private, picture=True)
        elif verb is Verb.TAKE:
            await self._take(interaction, lang, info, parsed)
        elif verb in _PANEL_VERBS:
            await self._panel_step(interaction, lang, info, parsed, values)

    # -- the private panel ------------------------------------------------------------------

    async def show_panel(
        self,
        interaction: discord.Interaction[Any],
        lang: str,
        info: MatchInfo,
        *,
        edit: bool,
        notice: str = "",
        picture: bool = False,
    ) -> None:
        """The panel's first page: edited in place on a panel, or a new ephemeral message.

        The hand picture comes with a panel that is opened or refreshed; after a move the
        text alone answers, so the answer is never slowed by drawing.
        """
        view = await self.bot.service.queries.view_for(info.match_id, interaction.user.id)
        names = await self.bot.player_names.pair(info.players, info.ai_level, lang)
        dm_notice = self.bot.notifier.take_dm_notice(lang, interaction.user.id)
        notice = "\n".join(n for n in (notice, dm_notice) if n)
        page = home_page(lang, view, info.match_id, names, notice)
        if picture:
            page = replace(page, image=(HAND_FILE, await render_hand_async(lang, view)))
        await self._show(interaction, page, edit=edit)

    async def _show(
        self, interaction: discord.Interaction[Any], page: PageSpec, *, edit: bool
    ) -> None:
        if interaction.response.is_done():  # deferred before slow work: fill in the answer
            await interaction.edit_original_response(**message_kwargs(page, editing=True))
        elif edit:
            await interaction.response.edit_message(**message_kwargs(page, editing=True))
        else:
            await interaction.response.send_message(ephemeral=True, **message_kwargs(page))

    async def _defer(self, interaction: discord.Interaction[Any], *, private: bool) -> None:
        """Acknowledge at once before a commit or a drawing, which can take a while under load:
        a panel shows its buttons as busy; a new panel shows "thinking…" to its player only."""
        if private:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)

    async def _panel_step(
        self,
        interaction: discord.Interaction[Any],
        lang: str,
        info: MatchInfo,
        parsed: GameId,
        values: list[str],
    ) -> None:
        edit = _on_private_message(interaction)
        view = await self.bot.service.queries.view_for(info.match_id, interaction.user.id)
        stale = text(lang, "refusal.stale")
        if parsed.version != view.table.version:
            await self.show_panel(interaction, lang, info, edit=edit, notice=stale)
            return
        verb = parsed.verb
        if verb is Verb.BACK:
            await self.show_panel(interaction, lang, info, edit=edit)
            return
        if verb is Verb.DO:
            await self._submit(interaction, lang, info, parsed, edit=edit)
            return
        action = _ACTION_BY_SIZE.get(int(parsed.arg or 0))
        if action is None or not view.to_decide:
            await self.show_panel(interaction, lang, info, edit=edit, notice=stale)
            return
        if verb is Verb.ACTION:
            await self._show(interaction, pick_page(lang, view, info.match_id, action), edit=edit)
            return
        cards = picked_cards(view, values)
        decisions = decisions_for(view, action, cards) if cards is not None else ()
        if not decisions:
            notice = text(lang, "panel.cards_not_usable")
            await self.show_panel(interaction, lang, info, edit=edit, notice=notice)
            return
        page = confirm_page(lang, view, info.match_id, action, decisions)
        await self._show(interaction, page, edit=edit)

    async def _submit(
        self,
        interaction: discord.Interaction[Any],
        lang: str,
        info: MatchInfo,
        parsed: GameId,
        *,
        edit: bool,
    ) -> None:
        stale = text(lang, "refusal.stale")
        try:
            decision = parse_decision(parsed.arg)
        except HanamikojiError:
            await self.show_panel(interaction, lang, info, edit=edit, notice=stale)
            return
        await self._defer(interaction, private=edit)
        try:
            await self.bot.service.commands.submit(
                info.match_id, interaction.user.id, decision, parsed.version
            )
        except StaleVersion:
            await self.show_panel(interaction, lang, info, edit=edit, notice=stale)
            return
        done = text(lang, "panel.done", decision=decision)
        await self.show_panel(interaction, lang, info, edit=edit, notice=done)

    async def _take(
        self, interaction: discord.Interaction[Any], lang: str, info: MatchInfo, parsed: GameId
    ) -> None:
        """The opponent's pick from a Gift or Competition (on the board or in the panel)."""
        private = _on_private_message(interaction)
        view = await self.bot.service.queries.view_for(info.match_id, interaction.user.id)
        if not view.to_decide or view.table.pending is None:
            if parsed.version != view.table.version:
                await self.reply(interaction, text(lang, "refusal.offer_settled"))
            else:
                names = await self._names_by_id(info.match_id, lang)
                other_seat = 1 - (info.seat_of(interaction.user.id) or 0)
                other = names.get(info.players[other_seat], "?")
                await self.reply(interaction, text(lang, "refusal.not_your_choice", name=other))
            return
        if parsed.version != view.table.version:
            await self.show_panel(
                interaction, lang, info, edit=private, notice=text(lang, "refusal.stale")
            )
            return
        decision = parse_decision(parsed.arg)
        # On the board, a "thinking…" answer only the chooser sees, filled in below: the
        # board itself is edited by the table to show the move.
        await self._defer(interaction, private=private)
        try:
            await self.bot.service.commands.submit(
                info.match_id, interaction.user.id, decision, parsed.version
            )
        except StaleVersion:
            await self.reply(interaction, text(lang, "refusal.offer_settled"))
            return
        took = text(lang, "panel.took", cards=parsed.arg[1:])
        if private:
            await self.show_panel(interaction, lang, info, edit=True, notice=took)
        else:
            await interaction.edit_original_response(content=took)

    # -- challenges ----------------------------------------------------------------------------

    async def _answer_challenge(
        self, interaction: discord.Interaction[Any], lang: str, info: MatchInfo, verb: Verb
    ) -> None:
        user_id = interaction.user.id
        if info.status is not MatchStatus.PENDING:
            closed = ChallengeNotPending(info.match_id, str(info.status))
            await self.reply(interaction, refusal_text(lang, closed))
            return
        # The challenge message is public: it is edited in the server's language.
        public = await self.bot.public_language(info.guild_id)
        names = await self.bot.player_names.pair(info.players, None, public)
        if verb is Verb.DECLINE and user_id == info.players[0]:
            await self.bot.service.commands.cancel(info.match_id, user_id)
            what = text(public, "challenge.withdrawn", name=names[0])
            embed = challenge_message.closed(public, names, what)
            await interaction.response.edit_message(content=None, embed=embed, view=None)
            return
        if user_id != info.players[1]:
            mine = await self.bot.player_names.name(info.players[1], lang=lang)
            await self.reply(interaction, text(lang, "challenge.for_someone_else", name=mine))
            return
        if verb is Verb.DECLINE:
            await self.bot.service.commands.decline(info.match_id, user_id)
            what = text(public, "challenge.declined", name=names[1])
            embed = challenge_message.closed(public, names, what)
            await interaction.response.edit_message(content=None, embed=embed, view=None)
            return
        # Accepting opens a thread and posts the board: answer first, then do the work.
        await interaction.response.defer()
        await self.bot.service.commands.accept(info.match_id, user_id)
        what = text(public, "challenge.accepted", name=names[1])
        embed = challenge_message.closed(public, names, what, started=True)
        await interaction.edit_original_response(content=None, embed=embed, view=None)
