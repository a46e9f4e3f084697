"""Keep waiting (``hk:<match>:<version>:wait``): once a turn-based match's late player is
past their days and the grace, their opponent gives them a fresh turn's days."""

from __future__ import annotations

import discord

from bot.custom_ids import Verb, template
from bot.play.overdue_choice import OverdueButton
from bot.words.i18n import text
from engine.model import MatchInfo
from engine.service.matches.overdue import OverdueChoices


class WaitButton(OverdueButton, template=template(Verb.KEEP_WAITING)):
    verb = Verb.KEEP_WAITING
    style = discord.ButtonStyle.success

    async def choose(self, overdue: OverdueChoices, info: MatchInfo, user_id: int) -> float:
        return await overdue.keep_waiting(info.match_id, user_id, self.version)

    def done_words(self, lang: str, late: str, done: float) -> str:
        return text(lang, "play_overdue.waiting", late=late, until=f"<t:{int(done)}:f>")


def wait_button(lang: str, match_id: int, version: int) -> WaitButton:
    return WaitButton(match_id, version, label=text(lang, "play_overdue.wait_button"))
