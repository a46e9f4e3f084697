"""One page of a review: the board right after one decision, as the thread's board showed
it, with the decision in words and, for a full review, its judgement and the hidden cards.

Step 0 is the first deal; step ``k`` is the board right after the match's ``k``-th
decision. The page is drawn from the match as the engine lets its viewer see it
(:class:`engine.review.seen_match.SeenMatch`): what it leaves out is not there to show.
The picture is drawn as the thread's board draws it (:mod:`bot.pictures.board_picture`)
from the public view at that step, in the server's language, with the players' names as
the thread drew them and the turn deadline the thread's board showed then: the same
function on the same values, so the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.discord_plumbing.pages import Page, Row
from bot.pictures.board_picture import board_picture
from bot.review.step_row import jump_row, step_row
from bot.review.words import (
    hidden_card_lines,
    judgement_lines,
    move_label,
    step_move_line,
    worst_line,
)
from bot.words.i18n import text
from engine.review.judgement import MatchReview, StepJudgement
from engine.review.seen_match import SeenMatch, SeenMove, SeenStep

WORST_COUNT = 3
"""How many of a player's worst decisions the first page lists, and jump buttons at most."""


@dataclass(frozen=True, slots=True)
class BoardLook:
    """How the thread drew its board's picture: its language and the names in it."""

    lang: str
    picture_names: tuple[str, str]
    """As written (the picture and its alt text are not markdown)."""


@dataclass(frozen=True, slots=True)
class ReviewScene:
    """Everything a viewer's review is built from; pages differ only by their step."""

    match_id: int
    seen: SeenMatch
    """The match as the engine lets this viewer see it (its judgement too, when given)."""
    names: tuple[str, str]
    """The players' names for the viewer's text, markdown-safe."""
    board: BoardLook

    @property
    def steps(self) -> int:
        return self.seen.decisions

    @property
    def review(self) -> MatchReview | None:
        return self.seen.review

    @property
    def viewer_seat(self) -> int | None:
        """The viewer's seat when they played the match: "next mistake" follows their moves."""
        return self.seen.viewer_seat

    def judgement(self, step: int) -> StepJudgement | None:
        if self.review is None:
            return None
        return next((j for j in self.review.steps if j.step == step), None)

    def next_mistake(self, step: int) -> int | None:
        """The first flagged step after ``step``: the viewer's own when they played."""
        if self.review is None:
            return None
        flagged = self.review.flagged(self.viewer_seat)
        return next((j.step for j in flagged if j.step > step), None)

    def worst(self) -> tuple[tuple[int, tuple[StepJudgement, ...]], ...]:
        """The worst flagged decisions the first page lists, by seat: the viewer's own
        when they played, else each player's; seats without any are left out."""
        if self.review is None:
            return ()
        seats = (0, 1) if self.viewer_seat is None else (self.viewer_seat,)
        ranked = ((seat, self.review.worst(seat, WORST_COUNT)) for seat in seats)
        return tuple((seat, judged) for seat, judged in ranked if judged)


async def review_page(lang: str, scene: ReviewScene, step: int, *, notice: str = "") -> Page:
    """Page ``step`` (0 to the number of decisions) of the review, words in ``lang``."""
    steps = scene.steps
    if not 0 <= step <= steps:
        raise ValueError(f"match {scene.match_id} has steps 0 to {steps}, not {step!r}")
    at = scene.seen.steps[step]
    public = at.table
    look = scene.board
    board = await board_picture(look.lang, public, look.picture_names, deadline=at.deadline)
    lines = _step_lines(lang, scene, at)
    rows: tuple[Row, ...] = (step_row(lang, scene.match_id, step, steps, scene.next_mistake(step)),)
    if step == 0:  # the overview: the worst few first, a press away
        worst_lines, worst = _worst(lang, scene)
        lines += worst_lines
        if worst:
            rows += (jump_row(lang, scene.match_id, worst),)
    if at.hidden is not None:
        lines += ["", *hidden_card_lines(lang, at.hidden, scene.names)]
    if scene.review is not None:
        flagged = len(scene.review.flagged(scene.viewer_seat))
        key = "review.flagged" if scene.viewer_seat is None else "review.flagged_own"
        lines += ["", text(lang, key, count=flagged)]
    elif not scene.seen.hidden_shown:
        lines += ["", text(lang, "review.public_only")]
    return Page(
        text="\n".join(lines),
        title=text(lang, "review.title", step=step, steps=steps, round=public.round_number),
        rows=rows,
        notice=notice,
        image=board.file,
        image_description=board.description,
    )


def _step_lines(lang: str, scene: ReviewScene, at: SeenStep) -> list[str]:
    """The decision that led to this step, and its judgement."""
    if at.move is None:
        starter = at.table.starting_player
        names = scene.names
        return [text(lang, "review.deal", starter=names[starter], other=names[1 - starter])]
    line = step_move_line(lang, at.move, scene.names)
    lines = [text(lang, "review.move", label=move_label(lang, at.move), line=line)]
    judgement = scene.judgement(at.index)
    if judgement is not None:
        lines += judgement_lines(lang, judgement, scene.names)
    return lines


def _worst(
    lang: str, scene: ReviewScene
) -> tuple[list[str], tuple[tuple[StepJudgement, str], ...]]:
    """The lines of the worst decisions, and the few the jump buttons lead to (each with
    where the Moves log lists it): the worst of them all, worst first."""
    lines: list[str] = []
    steps: dict[int, SeenMove] = {s.index: s.move for s in scene.seen.steps if s.move}
    for seat, judged in scene.worst():
        head = (
            text(lang, "review.worst_own")
            if scene.viewer_seat is not None
            else text(lang, "review.worst_of", name=scene.names[seat])
        )
        lines += ["", head, *(worst_line(lang, j, steps[j.step]) for j in judged)]
    every = (j for _, judged in scene.worst() for j in judged)
    worst = sorted(every, key=lambda j: (-j.loss, j.step))[:WORST_COUNT]
    return lines, tuple((j, move_label(lang, steps[j.step])) for j in worst)
