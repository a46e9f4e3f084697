"""A review's message: every answer deferred at once, then filled in; what a viewer reads
when a review cannot be shown (a line in their language, in place of the progress line
once there is one, never a traceback); and a message that can no longer be edited, which
loses no review."""

from __future__ import annotations

from typing import Any

import pytest

from bot.review.deps import ReviewDeps
from bot.review.review_message import Answer, show_review
from engine.model import MatchStatus
from engine.review.judgement import MatchReview
from engine.review.seen_match import SeenMatch, seen_match
from engine.rules.record import MatchRecord
from engine.service.matches.errors import MatchNotFinished, MatchNotFound
from engine.service.reviews.errors import ReviewFailed
from engine.store.errors import StoreError
from tests.bot.fakes import (
    FakeInteraction,
    FakeLanguages,
    FakeNames,
    FakeQueries,
    FakeSettings,
    heading,
    said,
)
from tests.builders import judged, match_info, played_match

ANA, BEN = 11, 12
RECORD, _ = played_match(5)


def queries(refusal: Exception | None = None) -> FakeQueries:
    """The service's queries: match #5 between ANA and BEN, finished, and its record."""
    finished = match_info(5, (ANA, BEN), MatchStatus.FINISHED, started_at=100.0)
    return FakeQueries(finished, RECORD.to_json(), refusal=refusal)


class Reviews:
    """The service's reviews of match #5, seen by its player ANA: the match, its judgement
    once ``stored``; the refusals are the queries' (``queries`` is set by :func:`deps`)."""

    def __init__(self, stored: MatchReview | None = None, failure: Exception | None = None):
        self.stored, self.failure, self.asked = stored, failure, 0
        self.queries = FakeQueries()

    async def seen(self, match_id: int, viewer_id: int, guild_id: int | None) -> SeenMatch:
        record = await self.queries.match_record(match_id, guild_id, viewer_id)
        if isinstance(self.failure, StoreError):
            raise ReviewFailed(match_id, "the database is away")
        return seen_match(
            MatchRecord.from_json(record), hidden_shown=True, viewer_seat=0, review=self.stored
        )

    async def review(self, match_id: int, viewer_id: int, progress: Any = None) -> MatchReview:
        self.asked += 1
        await progress(0.5)
        if self.failure is not None:
            raise self.failure
        self.stored = judged(RECORD, {})  # the service stores what it analysed
        return self.stored


def deps(queries: FakeQueries, reviews: Reviews) -> ReviewDeps:
    reviews.queries = queries
    return ReviewDeps(
        queries=queries,  # type: ignore[arg-type]
        placements=None,  # type: ignore[arg-type]
        settings=FakeSettings(),  # type: ignore[arg-type]
        reviews=reviews,
        names=FakeNames(),  # type: ignore[arg-type]
        languages=FakeLanguages(),  # type: ignore[arg-type]
    )


FAILED = "The review of match #5 could not be made just now. Please try again in a moment."
PROGRESS = "⏳ Analysing match #5… 0%"
PRIVATE_THINKING = {"ephemeral": True, "thinking": True}


@pytest.mark.parametrize(
    "failure",
    [ReviewFailed(5, "the AI's worker process died"), RuntimeError("worker crashed")],
)
async def test_a_failed_analysis_replaces_the_progress_line_with_a_plain_line(failure):
    interaction = FakeInteraction.by(ANA)
    await show_review(deps(queries(), Reviews(failure=failure)), interaction, 5, 0, Answer.NEW)
    assert interaction.response.deferred == [PRIVATE_THINKING]
    first, last = interaction.original_edits[0], interaction.original_edits[-1]
    assert said(first) == PROGRESS
    assert said(last) == FAILED and last["attachments"] == []  # no page, no picture left


async def test_a_store_that_fails_on_a_step_press_keeps_the_page_and_says_so_apart():
    interaction = FakeInteraction.by(ANA)
    reviews = Reviews(failure=StoreError("disk I/O error"))
    await show_review(deps(queries(), reviews), interaction, 5, 3, Answer.EDIT)
    assert interaction.response.deferred == [{}]
    assert interaction.original_edits == []
    assert interaction.followup.sent == [{"content": FAILED, "ephemeral": True}]
    assert reviews.asked == 0


@pytest.mark.parametrize("answer", [Answer.NEW, Answer.EDIT])
async def test_an_unexpected_failure_still_gets_a_line_after_the_thinking(answer, caplog):
    interaction = FakeInteraction.by(ANA)
    await show_review(deps(queries(RuntimeError("a bug")), Reviews()), interaction, 5, 3, answer)
    lines = [said(e) for e in interaction.original_edits] + [
        said(m) for m in interaction.followup.sent
    ]
    assert lines == [FAILED]
    assert "the review could not be shown" in caplog.text


@pytest.mark.parametrize(
    ("refusal", "line"),
    [
        (MatchNotFinished(5, "active"), "Match #5 is still being played"),
        (MatchNotFound(5), "I can't find match #5 on this server."),
    ],
)
async def test_an_unfinished_or_unknown_match_is_refused_in_the_viewers_language(refusal, line):
    interaction = FakeInteraction.by(ANA)
    await show_review(deps(queries(refusal), Reviews()), interaction, 5, 0, Answer.NEW)
    [reply] = interaction.original_edits
    assert said(reply).startswith(line)
    spanish = FakeInteraction.by(ANA, locale="es-ES")
    await show_review(deps(queries(refusal), Reviews()), spanish, 5, 0, Answer.NEW)
    assert "#5" in said(spanish.original_edits[0])
    assert said(spanish.original_edits[0]) != said(reply)


async def test_outside_the_bots_servers_the_matches_played_there_are_reviewed():
    """In a DM (the user-installed app) a review reads the matches of no server, not the
    server's of the interaction (a server without the bot has none)."""
    for outside in (
        FakeInteraction.by(ANA, guild_id=None),
        FakeInteraction.by(ANA, guild_id=77, guild_installed=False),
    ):
        reviews = Reviews()
        found = deps(queries(), reviews)
        await show_review(found, outside, 5, 0, Answer.NEW)
        assert reviews.queries.records_asked == [(5, None)]
        assert heading(outside.original_edits[-1]).startswith("Review · page 0 of ")


async def test_a_stored_review_is_shown_at_once_without_a_progress_line():
    interaction = FakeInteraction.by(ANA)
    reviews = Reviews(stored=judged(RECORD, {}))
    await show_review(deps(queries(), reviews), interaction, 5, 2, Answer.EDIT)
    # The press is acknowledged before the store is read, then its page is filled in.
    assert interaction.response.deferred == [{}] and interaction.response.sent == []
    [page] = interaction.original_edits
    assert reviews.asked == 0
    assert heading(page).startswith("Review · page 2 of ")
    assert [a.filename for a in page["attachments"]] == ["board.png"]


async def test_a_new_review_thinks_first_then_shows_its_page():
    interaction = FakeInteraction.by(ANA)
    await show_review(deps(queries(), Reviews()), interaction, 5, 0, Answer.NEW)
    assert interaction.response.deferred == [PRIVATE_THINKING]
    progress, page = interaction.original_edits
    assert said(progress) == PROGRESS
    assert heading(page).startswith("Review · page 0 of ")


async def test_a_page_that_can_no_longer_be_shown_loses_no_review(caplog):
    # The progress line is shown, then the analysis outlasts the answer's token.
    interaction = FakeInteraction.by(ANA, lost_after=1)
    reviews = Reviews()
    await show_review(deps(queries(), reviews), interaction, 5, 0, Answer.NEW)
    [progress] = interaction.original_edits
    assert said(progress) == PROGRESS
    assert interaction.failed_edits == 1
    assert reviews.stored == judged(RECORD, {})  # the next press shows it at once
    [logged] = [r for r in caplog.records if "could not show the review's page" in r.message]
    assert logged.levelname == "WARNING" and logged.exc_info is None


async def test_a_lost_message_is_given_up_after_its_first_failed_edit(caplog):
    # Lost before the progress line: neither the page nor anything else is tried again.
    interaction = FakeInteraction.by(ANA, lost_after=0)
    await show_review(deps(queries(), Reviews()), interaction, 5, 0, Answer.NEW)
    assert interaction.original_edits == [] and interaction.failed_edits == 1
    assert len([r for r in caplog.records if "could not show" in r.message]) == 1
