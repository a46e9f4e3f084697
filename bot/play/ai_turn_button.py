"""Let the AI play (``hk:<match>:<version>:letai``): once a turn-based match's late player
is past their days and the grace, their opponent has the AI play that one turn for them
(their next turn has its full days again)."""

from __future__ import annotations

from bot.custom_ids import Verb, template
from bot.play.overdue_choice import OverdueButton
from bot.words.i18n import text
from engine.model import MatchInfo
from engine.service.matches.overdue import OverdueChoices


class AiTurnButton(OverdueButton, template=template(Verb.LET_AI_PLAY)):
    verb = Verb.LET_AI_PLAY

    async def choose(self, overdue: OverdueChoices, info: MatchInfo, user_id: int) -> float:
        await overdue.let_ai_play(info.match_id, user_id, self.version)
        return 0.0

    def done_words(self, lang: str, late: str, done: float) -> str:
        return text(lang, "play_overdue.ai_played", late=late)


def ai_turn_button(lang: str, match_id: int, version: int) -> AiTurnButton:
    return AiTurnButton(match_id, version, label=text(lang, "play_overdue.ai_button"))
