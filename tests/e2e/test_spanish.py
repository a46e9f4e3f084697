"""A whole match in Spanish: a Spanish server and Spanish players read no English."""

import random
import string

import pytest

from bot.words.i18n import catalogues
from engine.model import MatchStatus
from tests.discord_emulator.transcript import Scope
from tests.e2e.players import challenge_and_accept, play_decision, settle

pytestmark = pytest.mark.slow  # a whole match


def english_only_fragments() -> set[str]:
    """Pieces of English text (between placeholders) that no Spanish text contains."""
    english, spanish = catalogues()["en"], catalogues()["es"]
    spanish_text = "\n".join(spanish.values())
    fragments = set()
    for key, template in english.items():
        if key.startswith(("names.", "items.", "slash.")):
            continue
        for literal, *_ in string.Formatter().parse(template):
            for piece in literal.split("\n"):
                piece = piece.strip(" .,:;—*()↳⏳👉✅🏆⏰🤝")
                if len(piece) >= 8 and piece not in spanish_text:
                    fragments.add(piece)
    return fragments


async def test_a_whole_match_in_spanish_shows_no_english(emulator, start_bot):
    emulator.world.guild.preferred_locale = "es-ES"
    for name in ("ana", "ben"):
        emulator.user(name).record.locale = "es-ES"
    bot = await start_bot()
    match = await challenge_and_accept(emulator, bot, "es")
    rng = random.Random(3)
    for _ in range(200):
        if (await bot.service.queries.match_info(match.match_id)).status is not MatchStatus.ACTIVE:
            break
        await play_decision(emulator, bot, match, rng, "es")
        await settle(emulator, bot)
    assert (await bot.service.queries.match_info(match.match_id)).status is MatchStatus.FINISHED
    ana = match.players[0]
    seen = [e for e in emulator.transcript if emulator.transcript.can_see(ana.id, e)]
    assert any(e.visibility.scope is Scope.EPHEMERAL for e in seen)
    joined = "\n".join(e.text() for e in seen)
    assert "Tu mano" in joined and "Turno de" in joined and "Se puntúa la ronda" in joined
    leaks = sorted(f for f in english_only_fragments() if f in joined)
    assert leaks == []
