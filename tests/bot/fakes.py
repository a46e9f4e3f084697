"""Stand-ins for what a bot feature is handed — a discord.py interaction and the service's
parts — for the tests that call a feature's functions directly, without the emulator.

Each fake has just what the features use, and records what they did: every answer of an
interaction in ``log`` in the order given ("defer", "send", "edit", and "hint" for a hint
asked for), so a test asserts what a user would have seen, and when.
"""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import discord

from engine.model import MatchInfo, UserSettings
from engine.review.hint import Suggestion
from engine.rules import PlayerView
from engine.service import HiddenFromViewer
from engine.service.reviews.sight import sight_of


@dataclass
class FakeUser:
    id: int
    display_name: str = ""


def _walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for component in components:
        yield component
        yield from _walk(component.get("components") or [])


def layout_texts(kwargs: dict[str, Any]) -> list[str]:
    """The text displays of a message's Components V2 layout, in order (notice, heading,
    text)."""
    view = kwargs.get("view")
    if not isinstance(view, discord.ui.LayoutView):
        return []
    return [c["content"] for c in _walk(view.to_components()) if c["type"] == 10]


def page_body(kwargs: dict[str, Any]) -> str:
    """A page's own text: the last text display of its container."""
    texts = layout_texts(kwargs)
    return texts[-1] if texts else ""


def said(kwargs: dict[str, Any]) -> str:
    """What a reader reads in an answer: its content, else its layout's texts."""
    return kwargs.get("content") or "\n".join(layout_texts(kwargs))


def heading(kwargs: dict[str, Any]) -> str:
    """A page's title, as its layout's heading shows it."""
    return next((t[4:] for t in layout_texts(kwargs) if t.startswith("### ")), "")


@dataclass
class FakeResponse:
    """An interaction's first answer (``discord.InteractionResponse``)."""

    log: list[str] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)
    """Each `send_message`, its content under "content"."""
    deferred: list[dict[str, Any]] = field(default_factory=list)
    updated: list[dict[str, Any]] = field(default_factory=list)
    """Each `edit_message`: the message pressed on, changed by the first response."""
    shown: str = ""
    """The text of the page (or embed) last shown, by this answer or an edit of it."""

    def show(self, answer: dict[str, Any]) -> None:
        if answer.get("embed") is not None:
            self.shown = str(answer["embed"].description)
        elif isinstance(answer.get("view"), discord.ui.LayoutView):
            self.shown = page_body(answer)

    def is_done(self) -> bool:
        return bool(self.sent or self.deferred or self.updated)

    async def send_message(self, content: str | None = None, **kwargs: Any) -> None:
        self.log.append("send")
        self.sent.append({"content": content, **kwargs})
        self.show(kwargs)

    async def defer(self, **kwargs: Any) -> None:
        self.log.append("defer")
        self.deferred.append(kwargs)

    async def edit_message(self, **kwargs: Any) -> None:
        self.log.append("update")
        self.updated.append(kwargs)
        self.show(kwargs)


@dataclass
class FakeFollowup:
    sent: list[dict[str, Any]] = field(default_factory=list)

    async def send(self, content: str, **kwargs: Any) -> None:
        self.sent.append({"content": content, **kwargs})


class Gone(discord.NotFound):
    """The answer's token expired (15 minutes): Discord no longer knows the message."""

    def __init__(self) -> None:
        Exception.__init__(self, "404 Not Found (error code: 10015): Unknown Webhook")


@dataclass
class FakeInteraction:
    """The parts of a discord.py interaction the features use."""

    user: FakeUser = field(default_factory=lambda: FakeUser(11))
    locale: str | discord.Locale = "en-US"
    guild_id: int | None = 1
    guild: Any = None
    """The cached guild (None: not cached, as for a server on another shard)."""
    client: Any = None
    message: Any = None
    """The message the pressed component is on (None: a slash command): one with
    ``flags.ephemeral`` is a private panel."""
    log: list[str] = field(default_factory=list)
    response: FakeResponse = field(init=False)
    followup: FakeFollowup = field(default_factory=FakeFollowup)
    original_edits: list[dict[str, Any]] = field(default_factory=list)
    lost_after: int | None = None
    """Edits of the answer that succeed before the token expires (None: all)."""
    failed_edits: int = 0
    extras: dict[Any, Any] = field(default_factory=dict)
    """discord.py's place for what the handling of one interaction keeps."""
    created_at: datetime.datetime = field(default_factory=discord.utils.utcnow)
    """When Discord created the interaction (its snowflake's time)."""
    guild_installed: bool = True
    """In a server, whether the app is installed there (False: only the member's own
    install reaches it)."""

    def __post_init__(self) -> None:
        self.response = FakeResponse(self.log)

    def is_guild_integration(self) -> bool:
        return self.guild_id is not None and self.guild_installed

    @classmethod
    def by(cls, user_id: int, **fields: Any) -> FakeInteraction:
        """A press or command by the member ``user_id``."""
        return cls(FakeUser(user_id, f"user {user_id}"), **fields)

    async def edit_original_response(self, **kwargs: Any) -> None:
        if self.lost_after is not None and len(self.original_edits) >= self.lost_after:
            self.failed_edits += 1
            raise Gone()
        self.log.append("edit")
        self.original_edits.append(kwargs)
        self.response.show(kwargs)

    @property
    def shown(self) -> str:
        """The text of the page last sent or edited in: what the user reads now."""
        return self.response.shown


@dataclass
class FakeQueries:
    """The service's queries: one match (``info``, its id as asked), its ``record``, the
    view ``seen`` by whoever asks; ``refusal`` is raised instead of the record. The record
    goes to whoever the engine's rule lets see it (:mod:`engine.service.reviews.sight`), with the
    players sharing as ``settings`` says (no one, unless given)."""

    info: MatchInfo | None = None
    record: str = ""
    seen: PlayerView | None = None
    refusal: Exception | None = None
    records_asked: list[tuple[int, int | None]] = field(default_factory=list)
    settings: FakeSettings | None = None

    async def match_info(self, match_id: int) -> MatchInfo:
        assert self.info is not None, "this test gave no match"
        return replace(self.info, match_id=match_id)

    async def match_record(self, match_id: int, guild_id: int | None, viewer_id: int) -> str:
        self.records_asked.append((match_id, guild_id))
        if self.refusal is not None:
            raise self.refusal
        settings = self.settings or FakeSettings()
        info = await self.match_info(match_id)
        if not (await sight_of(settings, info, viewer_id)).full:  # type: ignore[arg-type]
            raise HiddenFromViewer(match_id, viewer_id, "the record")
        return self.record

    async def view_for(self, match_id: int, user_id: int) -> PlayerView:
        assert self.seen is not None, "this test gave no view"
        return self.seen


@dataclass
class FakeSettings:
    """The service's user settings: the members in ``sharing`` share their finished matches."""

    sharing: set[int] = field(default_factory=set)

    async def user_settings(self, user_id: int) -> UserSettings:
        return UserSettings(user_id, share_reviews=user_id in self.sharing)


@dataclass
class FakeNames:
    """Display names: every pair of players is ``names``."""

    names: tuple[str, str] = ("ana", "ben")

    async def pair(self, players: Any, ai_level: Any, lang: str, **_: Any) -> tuple[str, str]:
        return self.names

    raw_pair = pair

    def remember(self, user: object, locale: object = None) -> None:
        pass


class FakeLanguages:
    async def public(self, guild_id: int | None) -> str:
        return "en"


class FakeDirectMessages:
    def take_closed_notice(self, lang: str, user_id: int) -> str:
        return ""


class FakeHints:
    """The service's hints: for the player asked about, the first legal decision of their
    view in ``views`` at ``chance``, answered only once ``release`` is set (a search as slow
    as the test wants, with no clock involved); None when asked for a version the match has
    left (``service.hints.hint(..., version=...)``). Each ask is noted in ``asked`` and, as
    "hint", in ``log``."""

    def __init__(
        self,
        views: dict[int, PlayerView],
        *,
        chance: float = 0.62,
        released: bool = True,
        log: list[str] | None = None,
    ) -> None:
        self.views, self.chance = views, chance
        self.log = [] if log is None else log
        self.asked: list[tuple[int, int, int | None]] = []
        self.release = asyncio.Event()
        if released:
            self.release.set()
        self.answered: asyncio.Future[Suggestion | None] = (
            asyncio.get_running_loop().create_future()
        )

    async def hint(
        self, match_id: int, user_id: int, *, version: int | None = None
    ) -> Suggestion | None:
        self.log.append("hint")
        self.asked.append((match_id, user_id, version))
        await self.release.wait()
        seen = self.views[user_id]
        suggestion = None
        if version is None or version == seen.table.version:
            suggestion = Suggestion(seen.legal[0], self.chance)
        if not self.answered.done():
            self.answered.set_result(suggestion)
        return suggestion
