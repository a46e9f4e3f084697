"""Each public move in words, for the board's recent moves ("ana used Secret.").

Built from the public moves of :class:`~engine.rules.views.PublicView`, so a Secret or a
Trade-off is only ever "used", never shown; what each side got from an offer is the
engine's split (:mod:`engine.rules.gift_and_competition`), not worked out here.
"""

from __future__ import annotations

from bot.words.i18n import text
from bot.words.names import action_name, letters, offer_text
from engine.rules import Competition, CompetitionChoice, Gift, GiftChoice, PublicView
from engine.rules.cards import cards_text
from engine.rules.gift_and_competition import competition_split, gift_split
from engine.rules.hand import unpack
from engine.rules.notation import HiddenAction, Move

RECENT_MOVES = 3
"""How many of the round's latest moves the board lists: enough to see what just happened
after looking away for a turn or two, short enough for a phone."""


def move_line(lang: str, move: Move, mover: int, names: tuple[str, str]) -> str:
    """One move by seat `mover`, an offer still open included."""
    action = move.action
    name, other = names[mover], names[1 - mover]
    if isinstance(action, HiddenAction):
        return text(lang, "table.used", name=name, action=action_name(lang, action.action))
    if move.choice is None:
        key = "table.offers_gift" if isinstance(action, Gift) else "table.offers_competition"
        return text(lang, key, name=name, offer=offer_text(action))
    if isinstance(action, Gift) and isinstance(move.choice, GiftChoice):
        taken, kept = gift_split(action, move.choice)
        return text(
            lang,
            "table.took_gift",
            chooser=other,
            card=cards_text(unpack(taken)),
            offerer=name,
            rest=letters(unpack(kept)),
        )
    assert isinstance(action, Competition) and isinstance(move.choice, CompetitionChoice)
    taken, kept = competition_split(action, move.choice)
    return text(
        lang,
        "table.took_competition",
        chooser=other,
        pair=cards_text(unpack(taken)),
        offerer=name,
        rest=cards_text(unpack(kept)),
    )


def recent_moves(lang: str, table: PublicView, names: tuple[str, str]) -> list[str]:
    """The round's last few moves, oldest first."""
    first = max(0, len(table.moves) - RECENT_MOVES)
    return [
        move_line(lang, move, table.mover(index), names)
        for index, move in enumerate(table.moves)
        if index >= first
    ]
