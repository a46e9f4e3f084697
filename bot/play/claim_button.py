"""Claim the win (``hk:<match>:<version>:claim``): once a turn-based match's late player
is past their days and the grace, their opponent ends the match as won on time."""

from __future__ import annotations

import discord

from bot.custom_ids import Verb, template
from bot.play.overdue_choice import OverdueButton
from bot.words.i18n import text
from engine.model import MatchInfo
from engine.service.matches.overdue import OverdueChoices


class ClaimButton(OverdueButton, template=template(Verb.CLAIM)):
    verb = Verb.CLAIM
    style = discord.ButtonStyle.danger

    async def choose(self, overdue: OverdueChoices, info: MatchInfo, user_id: int) -> float:
        await overdue.claim_win(info.match_id, user_id, self.version)
        return 0.0

    def done_words(self, lang: str, late: str, done: float) -> str:
        return text(lang, "play_overdue.claimed", late=late)


def claim_button(lang: str, match_id: int, version: int) -> ClaimButton:
    return ClaimButton(match_id, version, label=text(lang, "play_overdue.claim_button"))
