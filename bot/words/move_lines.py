"""Each public move in words with its notation beside it ("**ana** — Gift: C D E; **ben**
took D … `3CDE-D`"), for the board's recent moves and the match log.

Built from public moves only (:class:`~engine.rules.views.PublicView`, the service's
public events), so a Secret or a Trade-off is only ever "used"; a Secret is named only in
the log of a round already scored, whose scoring revealed it. What each side got from an
offer is the engine's split (:mod:`engine.rules.gift_and_competition`), not worked out here.
"""

from __future__ import annotations

from bot.words.i18n import text
from bot.words.names import action_name, letters, offer_text
from engine.rules import Action, Competition, CompetitionChoice, Gift, GiftChoice, PublicView
from engine.rules.cards import card_letter, cards_text
from engine.rules.gift_and_competition import competition_split, gift_split
from engine.rules.hand import unpack
from engine.rules.notation import HiddenAction, Move
from engine.rules.outcome import RoundResult

RECENT_MOVES = 3
"""How many of the round's latest moves the board lists: enough to see what just happened
after looking away for a turn or two, short enough for a phone."""


def taken_and_kept(move: Move) -> tuple[str, str]:
    """An answered offer's two shares as text: what its chooser took, what its offerer
    kept (the engine's split)."""
    action, choice = move.action, move.choice
    if isinstance(action, Gift) and isinstance(choice, GiftChoice):
        taken, kept = gift_split(action, choice)
        return cards_text(unpack(taken)), letters(unpack(kept))
    assert isinstance(action, Competition) and isinstance(choice, CompetitionChoice)
    taken, kept = competition_split(action, choice)
    return cards_text(unpack(taken)), cards_text(unpack(kept))


def _words(lang: str, move: Move, mover: int, names: tuple[str, str]) -> str:
    action = move.action
    name, other = names[mover], names[1 - mover]
    if isinstance(action, HiddenAction):
        return text(lang, "match.used", name=name, action=action_name(lang, action.action))
    offer = offer_text(action)
    gift = isinstance(action, Gift)
    if move.choice is None:
        key = "moves.gift_open" if gift else "moves.competition_open"
        return text(lang, key, name=name, offer=offer, chooser=other)
    taken, rest = taken_and_kept(move)
    key = "moves.gift_taken" if gift else "moves.competition_taken"
    return text(lang, key, name=name, offer=offer, chooser=other, taken=taken, rest=rest)


def move_line(lang: str, move: Move, mover: int, names: tuple[str, str]) -> str:
    """One move by seat `mover` in words, an offer still open included, with its notation."""
    return f"{_words(lang, move, mover, names)} `{move}`"


def recent_moves(lang: str, public: PublicView, names: tuple[str, str]) -> list[str]:
    """The round's last few moves, oldest first."""
    first = max(0, len(public.moves) - RECENT_MOVES)
    return [
        move_line(lang, move, public.mover(index), names)
        for index, move in enumerate(public.moves)
        if index >= first
    ]


def _scored_move_line(
    lang: str, move: Move, mover: int, names: tuple[str, str], result: RoundResult
) -> str:
    """A move of a scored round: its Secret, revealed at scoring, is named."""
    line = move_line(lang, move, mover, names)
    action = move.action
    if isinstance(action, HiddenAction) and action.action is Action.SECRET:
        revealed = card_letter(result.secrets[mover])
        line += " " + text(lang, "moves.secret_revealed", card=revealed)
    return line


def match_log(
    lang: str,
    public: PublicView,
    names: tuple[str, str],
) -> list[str]:
    """Every public move of the match so far, round by round, oldest first; a scored
    round names the Secrets its scoring revealed."""
    lines: list[str] = []
    each_round = [*public.earlier_moves, public.moves]  # the last: the round under way
    for result, moves in zip(public.rounds, each_round, strict=False):
        lines.append(text(lang, "moves.round", round=result.round_number))
        for index, move in enumerate(moves):
            mover = (result.starting_player + index) % 2
            lines.append(f"{index + 1}. {_scored_move_line(lang, move, mover, names, result)}")
        lines.append(
            text(
                lang,
                "moves.scored",
                first=names[0],
                first_secret=card_letter(result.secrets[0]),
                second=names[1],
                second_secret=card_letter(result.secrets[1]),
                first_geishas=result.geishas[0],
                first_charm=result.charm[0],
                second_geishas=result.geishas[1],
                second_charm=result.charm[1],
            )
        )
    unscored = len(public.rounds) < len(each_round) and (public.outcome is None or public.moves)
    if unscored:
        if public.rounds or public.moves:
            lines.append(text(lang, "moves.round", round=public.round_number))
        for index, move in enumerate(public.moves):
            lines.append(f"{index + 1}. {move_line(lang, move, public.mover(index), names)}")
    if not lines:
        lines.append(text(lang, "moves.none"))
    return lines
