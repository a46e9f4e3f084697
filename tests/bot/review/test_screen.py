"""What a viewer reads when a review cannot be shown: a line in their language, in place
of the progress line once there is one, never a traceback."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.review.deps import ReviewDeps
from bot.review.screen import Answer, show_review
from engine.review.judgement import MatchReview
from engine.rules import Variant
from engine.service.errors import MatchNotFinished, MatchNotFound, ReviewFailed
from engine.store.errors import StoreError
from engine.store.rows import ExpiryPolicy, MatchInfo, MatchStatus, UserSettings
from tests.bot.review.test_review_page import judged, played_match

ANA, BEN = 11, 12
RECORD, _ = played_match(5)


@dataclass
class Response:
    sent: list[dict[str, Any]] = field(default_factory=list)
    edited: list[dict[str, Any]] = field(default_factory=list)

    def is_done(self) -> bool:
        return bool(self.sent or self.edited)

    async def send_message(self, content: str | None = None, **kwargs: Any) -> None:
        self.sent.append({"content": content, **kwargs})

    async def edit_message(self, **kwargs: Any) -> None:
        self.edited.append(kwargs)


@dataclass
class User:
    id: int


@dataclass
class Interaction:
    """The parts of a discord.py interaction the review uses."""

    locale: str = "en-US"
    guild_id: int | None = 1
    user: User = field(default_factory=lambda: User(ANA))
    response: Response = field(default_factory=Response)
    original_edits: list[dict[str, Any]] = field(default_factory=list)

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.original_edits.append(kwargs)


class Queries:
    def __init__(self, refusal: Exception | None = None) -> None:
        self.refusal = refusal

    async def match_record(self, match_id: int, guild_id: int | None) -> str:
        if self.refusal is not None:
            raise self.refusal
        return RECORD.to_json()

    async def match_info(self, match_id: int) -> MatchInfo:
        return MatchInfo(
            match_id=match_id,
            status=MatchStatus.FINISHED,
            variant=Variant.STANDARD,
            players=(ANA, BEN),
            guild_id=1,
            channel_id=2,
            turn_seconds=60.0,
            expiry_policy=ExpiryPolicy.AI,
            created_at=0.0,
            started_at=100.0,
        )


class Reviews:
    def __init__(self, stored: MatchReview | None = None, failure: Exception | None = None):
        self._stored, self.failure, self.asked = stored, failure, 0

    async def stored(self, match_id: int) -> MatchReview | None:
        if isinstance(self.failure, StoreError):
            raise ReviewFailed(match_id, "the database is away")
        return self._stored

    async def review(self, match_id: int, progress: Any = None) -> MatchReview:
        self.asked += 1
        await progress(0.5)
        if self.failure is not None:
            raise self.failure
        return judged(RECORD, {})


class Names:
    async def pair(self, players: Any, level: Any, lang: str, *, guild_id: Any) -> tuple[str, str]:
        return ("ana", "ben")

    raw_pair = pair


class Languages:
    async def public(self, guild_id: int | None) -> str:
        return "en"


class Settings:
    async def user_settings(self, user_id: int) -> UserSettings:
        return UserSettings(user_id)


async def no_decisions(match_id: int) -> list[Any]:
    return []


def deps(queries: Queries, reviews: Reviews) -> ReviewDeps:
    return ReviewDeps(
        queries=queries,  # type: ignore[arg-type]
        placements=None,  # type: ignore[arg-type]
        settings=Settings(),  # type: ignore[arg-type]
        reviews=reviews,
        decisions=no_decisions,
        names=Names(),  # type: ignore[arg-type]
        languages=Languages(),  # type: ignore[arg-type]
    )


FAILED = "The review of match #5 could not be made just now. Please try again in a moment."


@pytest.mark.parametrize(
    "failure",
    [ReviewFailed(5, "the AI's worker process died"), RuntimeError("worker crashed")],
)
async def test_a_failed_analysis_replaces_the_progress_line_with_a_plain_line(failure):
    interaction = Interaction()
    await show_review(deps(Queries(), Reviews(failure=failure)), interaction, 5, 0, Answer.NEW)
    [first] = interaction.response.sent
    assert first["content"] == "⏳ Analysing match #5… 0%" and first["ephemeral"]
    last = interaction.original_edits[-1]
    assert last == {"content": FAILED, "embed": None, "view": None, "attachments": []}


async def test_a_store_that_fails_is_a_private_line_too():
    interaction = Interaction()
    reviews = Reviews(failure=StoreError("disk I/O error"))
    await show_review(deps(Queries(), reviews), interaction, 5, 3, Answer.EDIT)
    assert interaction.response.sent == [{"content": FAILED, "ephemeral": True}]
    assert reviews.asked == 0


@pytest.mark.parametrize(
    ("refusal", "line"),
    [
        (MatchNotFinished(5, "active"), "Match #5 is still being played"),
        (MatchNotFound(5), "I can't find match #5 on this server."),
    ],
)
async def test_an_unfinished_or_unknown_match_is_refused_in_the_viewers_language(refusal, line):
    interaction = Interaction()
    await show_review(deps(Queries(refusal), Reviews()), interaction, 5, 0, Answer.NEW)
    [reply] = interaction.response.sent
    assert reply["content"].startswith(line) and reply["ephemeral"]
    spanish = Interaction(locale="es-ES")
    await show_review(deps(Queries(refusal), Reviews()), spanish, 5, 0, Answer.NEW)
    assert "#5" in spanish.response.sent[0]["content"]
    assert spanish.response.sent[0]["content"] != reply["content"]


async def test_a_stored_review_is_shown_at_once_without_a_progress_line():
    interaction = Interaction()
    reviews = Reviews(stored=judged(RECORD, {}))
    await show_review(deps(Queries(), reviews), interaction, 5, 2, Answer.EDIT)
    [page] = interaction.response.edited
    assert reviews.asked == 0 and interaction.response.sent == []
    assert page["embed"].title.startswith("Review · step 2/")
    assert [a.filename for a in page["attachments"]] == ["board.png"]
