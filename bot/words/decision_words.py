"""A decision and a chance of winning as the bot words them, wherever it names a move it did
not see made: the hint line of a private panel and the better move of a review.

One wording for both, so a player who saw ``Take E Shamisen`` on a hint reads the same words
in the review of the match. It names cards as the panel's buttons do (an action's name and
its cards; a take's card by its item), but a take is worded for anyone (``panel.take_move``:
Spanish "Quedarse con"), where its button speaks as the one pressing it (``panel.take``:
"Quedarme con").
"""

from __future__ import annotations

from bot.words.i18n import text
from bot.words.names import action_name, card_name, decision_label, offer_text
from engine.rules import Competition, CompetitionChoice, Decision, GiftChoice
from engine.rules.cards import cards_text


def taken_words(lang: str, choice: GiftChoice | CompetitionChoice) -> str:
    """What a take takes, as its button, its confirmation and its hint name it: a Gift's
    card with its item (``E Shamisen``), a Competition's pair as letters (``AB``)."""
    if isinstance(choice, GiftChoice):
        return card_name(lang, choice.card)
    return cards_text(choice.pair)


def decision_words(lang: str, decision: Decision) -> str:
    """``Gift E E G``, ``Competition AB | EG``, ``Secret A``, ``Take E Shamisen`` (a Gift's
    card) or ``Take AB`` (a Competition's pair), in ``lang``."""
    if isinstance(decision, GiftChoice | CompetitionChoice):
        return text(lang, "panel.take_move", cards=taken_words(lang, decision))
    if isinstance(decision, Competition):  # its confirm button leaves the name out
        return f"{action_name(lang, decision.action)} {offer_text(decision)}"
    return decision_label(lang, decision)


def chance_percent(chance: float) -> int:
    """A chance of 0..1 as the whole percent a person reads (a search estimate: more digits
    would be noise); a value a little outside 0..1 is clamped, never shown as 101%."""
    return round(100 * min(max(chance, 0.0), 1.0))
