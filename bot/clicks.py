"""What each game button and select does when pressed: checks who pressed, asks the
service, and answers within Discord's three seconds.

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
from bot.panel import confirm_page, decisions_for, home_page, pick_page
from bot.pictures import render_hand_async
from bot.refusals import NOT_A_PLAYER, SOMETHING_WENT_WRONG, STALE_PANEL, refusal_text
from bot.ui_spec import PageSpec
from engine import Action, parse_decision
from engine.errors import HanamikojiError, IllegalDecision
from engine.service.errors import ServiceError, StaleVersion
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
        self.bot.player_names.remember(interaction.user)
        try:
            await self._route(interaction, parsed, values)
        except (ServiceError, IllegalDecision) as error:
            await self.reply(
                interaction, refusal_text(error, await self._names_by_id(parsed.match_id))
            )
        except discord.HTTPException as error:
            log.warning(
                "match %s: Discord refused our answer to %s: %s", parsed.match_id, parsed, error
            )
        except Exception:
            log.exception(
                "match %s: click %s by %s failed", parsed.match_id, parsed, interaction.user.id
            )
            await self.reply(interaction, SOMETHING_WENT_WRONG)

    async def reply(self, interaction: discord.Interaction[Any], text: str) -> None:
        """A short ephemeral answer, whether or not the interaction was answered already."""
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as error:
            log.warning("could not send a refusal: %s", error)

    async def _names_by_id(self, match_id: int) -> dict[int, str]:
        try:
            info = await self.bot.service.match_info(match_id)
        except ServiceError:
            return {}
        names = await self.bot.player_names.pair(info.players, info.ai_level)
        return {info.players[0]: names[0], info.players[1]: names[1]}

    async def _route(
        self, interaction: discord.Interaction[Any], parsed: GameId, values: list[str]
    ) -> None:
        verb = parsed.verb
        info = await self.bot.service.match_info(parsed.match_id)
        user_id = interaction.user.id
        if verb in (Verb.ACCEPT, Verb.DECLINE):
            await self._answer_challenge(interaction, info, verb)
            return
        if info.seat_of(user_id) is None:
            await self.reply(interaction, NOT_A_PLAYER)
            return
        if verb is Verb.REMATCH:
            await self.bot.rematches.press(interaction, info)
        elif verb is Verb.RESIGN:
            await self._resign(interaction, info)
        elif verb is Verb.HAND:
            await self.show_panel(interaction, info, edit=_on_private_message(interaction))
        elif verb is Verb.TAKE:
            await self._take(interaction, info, parsed)
        elif verb in _PANEL_VERBS:
            await self._panel_step(interaction, info, parsed, values)

    # -- the private panel ------------------------------------------------------------------

    async def show_panel(
        self,
        interaction: discord.Interaction[Any],
        info: MatchInfo,
        *,
        edit: bool,
        notice: str = "",
    ) -> None:
        """The panel's first page: edited in place on a panel, or a new ephemeral message."""
        view = await self.bot.service.view_for(info.match_id, interaction.user.id)
        names = await self.bot.player_names.pair(info.players, info.ai_level)
        dm_notice = self.bot.notifier.take_dm_notice(interaction.user.id)
        notice = "\n".join(n for n in (notice, dm_notice) if n)
        page = home_page(view, info.match_id, names, notice)
        page = replace(page, image=(HAND_FILE, await render_hand_async(view)))
        await self._show(interaction, page, edit=edit)

    async def _show(
        self, interaction: discord.Interaction[Any], page: PageSpec, *, edit: bool
    ) -> None:
        if edit:
            await interaction.response.edit_message(**message_kwargs(page, editing=True))
        else:
            await interaction.response.send_message(ephemeral=True, **message_kwargs(page))

    async def _panel_step(
        self,
        interaction: discord.Interaction[Any],
        info: MatchInfo,
        parsed: GameId,
        values: list[str],
    ) -> None:
        edit = _on_private_message(interaction)
        user_id = interaction.user.id
        view = await self.bot.service.view_for(info.match_id, user_id)
        if parsed.version != view.table.version:
            await self.show_panel(interaction, info, edit=edit, notice=STALE_PANEL)
            return
        verb = parsed.verb
        if verb is Verb.BACK:
            await self.show_panel(interaction, info, edit=edit)
            return
        if verb is Verb.DO:
            await self._submit(interaction, info, parsed, edit=edit)
            return
        action = _ACTION_BY_SIZE.get(int(parsed.arg or 0))
        if action is None or not view.to_decide:
            await self.show_panel(interaction, info, edit=edit, notice=STALE_PANEL)
            return
        if verb is Verb.ACTION:
            await self._show(interaction, pick_page(view, info.match_id, action), edit=edit)
            return
        cards = picked_cards(view, values)
        decisions = decisions_for(view, action, cards) if cards is not None else ()
        if not decisions:
            await self.show_panel(
                interaction, info, edit=edit, notice="Those cards can't be used for that now."
            )
            return
        await self._show(
            interaction, confirm_page(view, info.match_id, action, decisions), edit=edit
        )

    async def _submit(
        self, interaction: discord.Interaction[Any], info: MatchInfo, parsed: GameId, *, edit: bool
    ) -> None:
        try:
            decision = parse_decision(parsed.arg)
        except HanamikojiError:
            await self.show_panel(interaction, info, edit=edit, notice=STALE_PANEL)
            return
        try:
            await self.bot.service.submit(
                info.match_id, interaction.user.id, decision, parsed.version
            )
        except StaleVersion:
            await self.show_panel(interaction, info, edit=edit, notice=STALE_PANEL)
            return
        await self.show_panel(interaction, info, edit=edit, notice=f"✅ Done: {decision}.")

    async def _take(
        self, interaction: discord.Interaction[Any], info: MatchInfo, parsed: GameId
    ) -> None:
        """The opponent's pick from a Gift or Competition (public offer message or panel)."""
        private = _on_private_message(interaction)
        view = await self.bot.service.view_for(info.match_id, interaction.user.id)
        if not view.to_decide or view.table.pending is None:
            if parsed.version != view.table.version:
                await self.reply(interaction, "This offer was already settled.")
            else:
                waiting = await self._names_by_id(info.match_id)
                other = waiting.get(
                    info.players[1 - (info.seat_of(interaction.user.id) or 0)], "your opponent"
                )
                await self.reply(interaction, f"It is {other}'s choice, not yours.")
            return
        if parsed.version != view.table.version:
            await self.show_panel(interaction, info, edit=private, notice=STALE_PANEL)
            return
        decision = parse_decision(parsed.arg)
        try:
            await self.bot.service.submit(
                info.match_id, interaction.user.id, decision, parsed.version
            )
        except StaleVersion:
            await self.reply(interaction, "This offer was already settled.")
            return
        if private:
            await self.show_panel(
                interaction, info, edit=True, notice=f"✅ You took {parsed.arg[1:]}."
            )
        else:
            # The result line follows in the thread; the offer's buttons go away.
            await interaction.response.edit_message(view=None)

    # -- challenge, resignation -------------------------------------------------------------

    async def _answer_challenge(
        self, interaction: discord.Interaction[Any], info: MatchInfo, verb: Verb
    ) -> None:
        user_id = interaction.user.id
        if info.status is not MatchStatus.PENDING:
            await self.reply(interaction, refusal_text(_closed(info)))
            return
        names = await self.bot.player_names.pair(info.players)
        if verb is Verb.DECLINE and user_id == info.players[0]:
            await self.bot.service.cancel(info.match_id, user_id)
            embed = challenge_message.closed(names, f"{names[0]} withdrew the challenge.")
            await interaction.response.edit_message(content=None, embed=embed, view=None)
            return
        if user_id != info.players[1]:
            await self.reply(interaction, f"This challenge is for {names[1]}.")
            return
        if verb is Verb.DECLINE:
            await self.bot.service.decline(info.match_id, user_id)
            embed = challenge_message.closed(names, f"{names[1]} declined the challenge.")
            await interaction.response.edit_message(content=None, embed=embed, view=None)
            return
        # Accepting opens a thread and posts the board: answer first, then do the work.
        await interaction.response.defer()
        await self.bot.service.accept(info.match_id, user_id)
        embed = challenge_message.closed(
            names, f"{names[1]} accepted. The match has started in its thread.", started=True
        )
        await interaction.edit_original_response(content=None, embed=embed, view=None)

    async def _resign(self, interaction: discord.Interaction[Any], info: MatchInfo) -> None:
        await self.bot.service.resign(info.match_id, interaction.user.id)
        await interaction.response.edit_message(
            content="You resigned the match.", embed=None, view=None
        )


def _closed(info: MatchInfo) -> ServiceError:
    from engine.service.errors import ChallengeNotPending

    return ChallengeNotPending(info.match_id, str(info.status))
