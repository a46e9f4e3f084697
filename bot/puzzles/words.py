"""The puzzles feature's words: the position as the mover saw it (their hand, their face-down
cards, what they faced), a choice's label, and after an answer the best move, the move
played in the real match, the reason, the rating change and the streak. Plain strings from
engine values, in a given language (no discord.py here).

Everything shown of the position comes from the mover's own view
(:attr:`engine.service.puzzles.service.PosedPuzzle.view`): the opponent's hidden cards are
not there to show.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.words.card_faces import LETTERS, CardFaces
from bot.words.decision_words import chance_percent, decision_words
from bot.words.hand_lines import face_down_text, hand_text
from bot.words.i18n import text
from bot.words.names import action_name, offer_text
from bot.words.ratings import rating_text, signed_change
from engine.model.puzzles import PuzzleStanding
from engine.puzzles import Puzzle, ReasonKind
from engine.rules import Action, Phase, PlayerView, card_letter, parse_decision
from engine.rules.decisions import ActionDecision

_MOVE_KEYS = {
    Action.SECRET: "puzzles.move.secret",
    Action.TRADE_OFF: "puzzles.move.trade_off",
    Action.GIFT: "puzzles.move.gift",
    Action.COMPETITION: "puzzles.move.competition",
}


def faced_text(lang: str, view: PlayerView) -> str:
    """What the mover faced: their action to choose, or an offer to take from."""
    public = view.table
    offer = public.pending
    if public.phase is Phase.GIFT_CHOICE and offer is not None:
        return text(lang, "puzzles.faced_gift", round=public.round_number, offer=offer_text(offer))
    if public.phase is Phase.COMPETITION_CHOICE and offer is not None:
        key = "puzzles.faced_competition"
        return text(lang, key, round=public.round_number, offer=offer_text(offer))
    return text(lang, "puzzles.faced_action", round=public.round_number)


def position_lines(lang: str, view: PlayerView, faces: CardFaces = LETTERS) -> list[str]:
    """The position in words: what was faced, the hand, the face-down cards, the actions
    left."""
    left = " · ".join(action_name(lang, a) for a in view.table.unused(view.player))
    return [
        faced_text(lang, view),
        text(lang, "panel.hand_line", count=len(view.hand), cards=hand_text(lang, view, faces)),
        text(lang, "panel.face_down_line", cards=face_down_text(lang, view, faces)),
        text(lang, "panel.actions_left", actions=left or text(lang, "panel.none")),
    ]


def source_text(
    lang: str, match_id: int | None, names: tuple[str, str] | None, mover_seat: int
) -> str:
    """Where the puzzle comes from: the built-in set, an anonymous match of this server,
    or a match whose players both share their matches (``names`` by seat)."""
    if match_id is None:
        return text(lang, "puzzles.builtin")
    if names is None:
        return text(lang, "puzzles.from_server")
    first, second = names
    return text(
        lang,
        "puzzles.from_match",
        match=match_id,
        first=first,
        second=second,
        mover=names[mover_seat],
    )


def move_words(lang: str, notation: str) -> str:
    """A choice in the project's decision wording (``Gift C E E``, ``Take E Shamisen``)."""
    return decision_words(lang, parse_decision(notation))


def choice_label(lang: str, notation: str) -> str:
    """A choice's button: ``Gift C E E · 3CEE``."""
    return text(lang, "puzzles.choice", move=move_words(lang, notation), notation=notation)


def geishas_text(lang: str, geishas: Sequence[int]) -> str:
    """``C``, ``C and E``, ``A, C and E``."""
    named = [card_letter(g) for g in geishas]
    if len(named) <= 1:
        return "".join(named)
    return f"{', '.join(named[:-1])} {text(lang, 'puzzles.and')} {named[-1]}"


def _the_move(lang: str, notation: str) -> str:
    """The best move named as the reason names it: ``the Gift``, ``that take``."""
    decision = parse_decision(notation)
    if isinstance(decision, ActionDecision):
        return text(lang, _MOVE_KEYS[decision.action])
    return text(lang, "puzzles.move.take")


def reason_text(lang: str, puzzle: Puzzle) -> str:
    """Why the best move is better than the one played, from the puzzle's reason."""
    reason = puzzle.reason
    if reason.kind is ReasonKind.MAJORITY:
        geishas = geishas_text(lang, reason.geishas)
        return text(
            lang, "puzzles.why_majority", action=_the_move(lang, puzzle.solution), geishas=geishas
        )
    if reason.kind is ReasonKind.DENIES:
        return text(lang, "puzzles.why_denies", geishas=geishas_text(lang, reason.geishas))
    return text(
        lang,
        "puzzles.why_chance",
        best=chance_percent(puzzle.best_chance),
        played=chance_percent(puzzle.chance_of(puzzle.played)),
    )


def verdict_text(lang: str, puzzle: Puzzle, chosen: str, solved: bool) -> str:
    """Solved or missed, with the best move and, on a miss, the member's choice."""
    best = {
        "move": move_words(lang, puzzle.solution),
        "notation": puzzle.solution,
        "chance": chance_percent(puzzle.best_chance),
    }
    if solved:
        return text(lang, "puzzles.solved", **best)
    return text(
        lang,
        "puzzles.missed",
        chosen=move_words(lang, chosen),
        chosen_notation=chosen,
        chosen_chance=chance_percent(puzzle.chance_of(chosen)),
        **best,
    )


def played_text(lang: str, puzzle: Puzzle) -> str:
    """The move the player chose in the real match."""
    return text(
        lang,
        "puzzles.played",
        move=move_words(lang, puzzle.played),
        notation=puzzle.played,
        chance=chance_percent(puzzle.chance_of(puzzle.played)),
    )


def rating_change_text(lang: str, before: PuzzleStanding, after: PuzzleStanding) -> str:
    """``Your puzzle rating: 1500? → 1662? (+162)``."""
    return text(
        lang,
        "puzzles.rating",
        before=rating_text(before.rating),
        after=rating_text(after.rating),
        change=signed_change(after.rating.rating - before.rating.rating),
    )


def streak_text(lang: str, before: PuzzleStanding, after: PuzzleStanding) -> str:
    """``Streak 3``, ``Streak ended at 3``, or a streak of 0 after a miss with none."""
    if after.streak > 0:
        return text(lang, "puzzles.streak", streak=after.streak, best=after.best_streak)
    if before.streak > 0:
        return text(lang, "puzzles.streak_ended", streak=before.streak)
    return text(lang, "puzzles.no_streak", best=after.best_streak)


def judgement_lines(lang: str, puzzle: Puzzle, chosen: str, solved: bool) -> list[str]:
    """The verdict, the real match's move, and why."""
    return [
        verdict_text(lang, puzzle, chosen, solved),
        played_text(lang, puzzle),
        reason_text(lang, puzzle),
    ]


def answer_lines(
    lang: str,
    puzzle: Puzzle,
    chosen: str,
    solved: bool,
    before: PuzzleStanding,
    after: PuzzleStanding,
) -> list[str]:
    """Everything a rated answer tells: the judgement, the rating and the streak."""
    return [
        *judgement_lines(lang, puzzle, chosen, solved),
        "",
        rating_change_text(lang, before, after),
        streak_text(lang, before, after),
    ]


def run_text(lang: str, before: PuzzleStanding, after: PuzzleStanding) -> str:
    """A streak's answer: ``🔥 3 in a row (best 5) · the next is harder`` or ``Streak
    over: 3 in a row (best 5)``."""
    if after.run is not None:
        return text(lang, "puzzles.run_on", solved=after.run.solved, best=after.run_best)
    solved = 0 if before.run is None else before.run.solved
    return text(lang, "puzzles.run_over", solved=solved, best=after.run_best)
