"""What the board picture and its alt text both say about the board, read off a
:class:`~engine.rules.views.PublicView`: the status line and the cards a Gift or
Competition gave away."""

from __future__ import annotations

from bot.words.i18n import shortened, text
from engine.rules import Phase, PublicView
from engine.rules.notation import Move


def taken_cards(move: Move) -> tuple[int, ...]:
    """The card or pair the opponent took from a Gift or Competition; none otherwise."""
    return () if move.choice is None else move.choice.taken


def short_name(name: str, limit: int = 20) -> str:
    """A name cut to fit a sentence; the panels show it whole where it fits."""
    return shortened(name, limit)


def status_line(lang: str, public: PublicView, names: tuple[str, str], *, cut: bool = True) -> str:
    """Whose turn it is, the offer waiting, or the result; names cut to fit a line."""
    if cut:
        names = (short_name(names[0]), short_name(names[1]))
    outcome = public.outcome
    if outcome is not None:
        if outcome.winner is None:
            return text(lang, "pictures.draw")
        why = text(lang, f"pictures.why_{outcome.termination.value.replace('-', '_')}")
        return text(lang, "pictures.wins", name=names[outcome.winner], why=why)
    mover = names[public.current_player] if public.current_player is not None else ""
    if public.phase is Phase.GIFT_CHOICE:
        return text(lang, "pictures.gift_choice", name=mover)
    if public.phase is Phase.COMPETITION_CHOICE:
        return text(lang, "pictures.competition_choice", name=mover)
    if public.scored_on_show is not None:
        return text(lang, "pictures.labels.next_round", name=mover, round=public.round_number)
    return text(lang, "pictures.turn", name=mover)


def round_limit(lang: str, public: PublicView) -> str:
    """`` of 3`` under the three-round rule, else nothing: what follows the round number."""
    return text(lang, "board.of_three") if str(public.variant) == "three-rounds" else ""
