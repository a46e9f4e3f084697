"""The message asking an away chooser to take from an offer, edited to the answer once
answered, so it never still reads "take one card" after the choice."""

from __future__ import annotations

import logging

import discord

from bot.play.match_place import MatchPlace
from bot.words.i18n import text
from bot.words.move_lines import move_line
from bot.words.names import offer_text
from bot.words.player_names import mention
from engine.model import MatchInfo
from engine.rules import Gift
from engine.service.events import ChoiceNeeded, DecisionApplied

log = logging.getLogger(__name__)


class OfferAsks:
    """The open ask of each match, by match id."""

    def __init__(self, place: MatchPlace) -> None:
        self._place = place
        self._open: dict[int, discord.Message] = {}

    async def ask(
        self, event: ChoiceNeeded, info: MatchInfo, lang: str, names: tuple[str, str]
    ) -> None:
        """Say what was offered and mention the chooser, who must take from it."""
        is_gift = isinstance(event.offer, Gift)
        offered = text(
            lang,
            "match.offers_gift" if is_gift else "match.offers_competition",
            name=names[1 - event.player],
            offer=offer_text(event.offer),
        )
        ask = text(
            lang,
            "match.take_card" if is_gift else "match.take_pair",
            mention=mention(event.user_id),
        )
        message = await self._place.post(info, f"{offered}\n{ask}", mention=event.user_id)
        if message is not None:
            self._open[event.match_id] = message

    async def answered(self, event: DecisionApplied, lang: str, names: tuple[str, str]) -> None:
        """The open ask now says what was taken (its mention is not repeated)."""
        message = self._open.pop(event.match_id, None)
        if message is None:
            return
        line = move_line(lang, event.move, 1 - event.player, names)
        try:
            await message.edit(
                content=text(lang, "moves.offer_answered", line=line),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as error:
            log.warning("match %s: could not mark the offer answered: %s", event.match_id, error)

    def forget(self, match_id: int) -> None:
        """The match ended: its ask, if any, is left as it is."""
        self._open.pop(match_id, None)
