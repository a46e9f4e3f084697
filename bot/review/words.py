"""The review feature's words: a review page's, from engine values, in the reader's
language (no discord.py here): a step's move, its judgement, and the hidden cards of a full
review.

A move reads as the thread's lines do (:mod:`bot.words.move_lines`), its mover named first
(a take is told as its chooser's, from the offer it answers), numbered as the Moves log
numbers it. A full review adds a Secret's or a Trade-off's cards and the hidden cards,
which the engine gives only to a reader who may see them (:mod:`engine.service.reviews.sight`).
Each chance is its mover's, from what they could see, and the page says so.
"""

from __future__ import annotations

from bot.words.decision_words import chance_percent, decision_words
from bot.words.i18n import text
from bot.words.move_lines import move_line, taken_and_kept
from bot.words.names import action_name, letters, offer_text
from engine.review.judgement import StepJudgement, Verdict
from engine.review.seen_match import HiddenCards, SeenMove
from engine.rules import GiftChoice, parse_decision


def verdict_text(lang: str, verdict: Verdict) -> str:
    return text(lang, f"review.verdict_{verdict.value}")


def move_label(lang: str, step: SeenMove) -> str:
    """``Round 2, move 3``: where the Moves log lists this step's move; a take, which the
    log lists on its offer's line, is ``Round 2, move 3 (take)``."""
    key = "review.take_label" if step.answers_offer else "review.move_label"
    return text(lang, key, round=step.round_number, move=step.move_number)


def step_move_line(lang: str, step: SeenMove, names: tuple[str, str]) -> str:
    """The decision that led to a step, in words with its notation; a Secret's or a
    Trade-off's cards when the engine gave them."""
    mover = step.player
    if step.hidden is not None:
        words = text(
            lang,
            "review.shown_hidden",
            name=names[mover],
            action=action_name(lang, step.hidden.action),
            cards=letters(step.hidden.cards),
        )
        return f"{words} `{step.hidden}`"
    move = step.public
    if step.answers_offer:
        # The chooser first, as the one who decided: "ben took F F from ana's Competition…".
        taken, kept = taken_and_kept(move)
        words = text(
            lang,
            "review.took_gift"
            if isinstance(move.choice, GiftChoice)
            else "review.took_competition",
            chooser=names[mover],
            name=names[1 - mover],
            offer=offer_text(move.action),
            taken=taken,
            rest=kept,
        )
        return f"{words} `{move}`"
    return move_line(lang, move, mover, names)


def notation_words(lang: str, notation: str) -> str:
    """A decision given in notation (``3ABC``, ``-E``) in words with its notation:
    ``Gift A B C `3ABC```; the words are the hint line's (:mod:`bot.words.decision_words`)."""
    return f"{decision_words(lang, parse_decision(notation))} `{notation}`"


def judgement_lines(lang: str, judgement: StepJudgement, names: tuple[str, str]) -> list[str]:
    """The mover's chance before and after, the verdict, and for a flagged decision the
    better move with its chance."""
    lines = [
        text(
            lang,
            "review.chance",
            name=names[judgement.player],
            before=chance_percent(judgement.chance_before),
            after=chance_percent(judgement.chance_after),
            verdict=verdict_text(lang, judgement.verdict),
        )
    ]
    if judgement.verdict.flagged and judgement.best != judgement.move:
        lines.append(
            text(
                lang,
                "review.better",
                move=notation_words(lang, judgement.best),
                chance=chance_percent(judgement.best_chance),
            )
        )
    return lines


def worst_line(lang: str, judgement: StepJudgement, step: SeenMove) -> str:
    """One of the worst decisions on the first page: where the Moves log lists it, the
    move, and the points of winning chance it cost."""
    return text(
        lang,
        "review.worst",
        label=move_label(lang, step),
        move=notation_words(lang, judgement.move),
        loss=chance_percent(judgement.loss),
    )


def hidden_card_lines(lang: str, hidden: HiddenCards, names: tuple[str, str]) -> list[str]:
    """Both hands, both face-down piles and the round's removed card, as the engine gave
    them to a reader who may see them (:mod:`engine.service.reviews.sight`)."""
    none = text(lang, "review.none")
    lines = [text(lang, "review.hidden_head")]
    for seat in (0, 1):
        hand = hidden.hands[seat]
        lines.append(text(lang, "review.hand", name=names[seat], cards=letters(hand) or none))
        face_down = []
        secret, trade_off = hidden.secrets[seat], hidden.trade_offs[seat]
        if secret is not None:
            face_down.append(text(lang, "review.secret", card=letters((secret,))))
        if trade_off is not None:
            face_down.append(text(lang, "review.trade_off", cards=letters(trade_off)))
        lines.append(
            text(lang, "review.face_down", name=names[seat], cards=" · ".join(face_down) or none)
        )
    lines.append(text(lang, "review.removed", card=letters((hidden.removed,))))
    return lines
