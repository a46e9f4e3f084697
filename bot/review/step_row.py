"""The rows of step buttons under a review page: first, previous, next, last, next mistake,
each disabled where it would lead nowhere; and on the first page the jumps to the worst
decisions it lists."""

from __future__ import annotations

from typing import Any

import discord

from bot.custom_ids import Turn, step_id
from bot.words.i18n import text
from engine.review.judgement import StepJudgement

_LABELS = {
    Turn.FIRST: "review.first",
    Turn.PREVIOUS: "review.previous",
    Turn.NEXT: "review.next",
    Turn.LAST: "review.last",
    Turn.MISTAKE: "review.next_mistake",
}


def step_row(
    lang: str, match_id: int, step: int, steps: int, next_mistake: int | None
) -> tuple[discord.ui.Button[Any], ...]:
    """The buttons of page ``step`` of ``steps``; ``next_mistake`` is the next flagged
    step, None when there is none (or no judgement is shown)."""
    targets = {
        Turn.FIRST: 0 if step > 0 else None,
        Turn.PREVIOUS: step - 1 if step > 0 else None,
        Turn.NEXT: step + 1 if step < steps else None,
        Turn.LAST: steps if step < steps else None,
        Turn.MISTAKE: next_mistake,
    }
    return tuple(
        discord.ui.Button(
            label=text(lang, _LABELS[turn]),
            # A disabled button still needs an id: the page's own step keeps ids unique.
            custom_id=step_id(match_id, step if target is None else target, turn),
            disabled=target is None,
            style=discord.ButtonStyle.danger
            if turn is Turn.MISTAKE
            else discord.ButtonStyle.secondary,
        )
        for turn, target in targets.items()
    )


def jump_row(
    lang: str, match_id: int, worst: tuple[tuple[StepJudgement, str], ...]
) -> tuple[discord.ui.Button[Any], ...]:
    """One button to each of the ``worst`` decisions, labelled where the Moves log lists
    it (distinct steps, so distinct ids)."""
    return tuple(
        discord.ui.Button(
            label=text(lang, "review.jump", label=label),
            custom_id=step_id(match_id, judgement.step, Turn.JUMP),
            style=discord.ButtonStyle.danger,
        )
        for judgement, label in worst
    )
