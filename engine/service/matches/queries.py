"""Reading matches: what each player and spectator sees, history, ratings and records.

Every query whose answer can hold a hidden card takes its viewer and answers only what that
viewer may see: a live match through :mod:`engine.rules.views`, a finished one through
:mod:`engine.service.reviews.sight`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.model import AI_USER_ID, FinishedMatch, MatchInfo, MatchStatus
from engine.ratings import AllTimePage, PlayerStats, RatingChange, ranked_page
from engine.review.seen_match import SeenMatch, seen_match
from engine.rules.record import MatchRecord, replay
from engine.rules.state import GameState
from engine.rules.views import PlayerView, PublicView, public_view, view
from engine.service.context import ServiceContext
from engine.service.errors import InvalidRequest
from engine.service.matches.errors import (
    HiddenFromViewer,
    MatchNotActive,
    MatchNotFinished,
    MatchNotFound,
    NotYourMatch,
)
from engine.service.matches.live_match import LiveMatch
from engine.service.reviews.sight import Sight, sight_of
from engine.service.settings import MatchSettings


@dataclass(frozen=True, slots=True)
class MatchNow:
    """A match as it is now, read at once: who, where and how far, and its table as a
    spectator sees it (what a thread shows after an event)."""

    info: MatchInfo
    public: PublicView


class _AnyGuild:
    """A match of any server (a guild id may itself be None: a match outside servers)."""


ANY_GUILD = _AnyGuild()

MAX_PAGE = 100
"""The most leaderboard entries one call returns."""


class MatchQueries:
    """Answers from the open matches in memory (brought up to date first when the database
    is shared), or from the store for the rest."""

    def __init__(self, context: ServiceContext, settings: MatchSettings) -> None:
        self._ctx = context
        self._store = context.store
        self._settings = settings

    @property
    def shared(self) -> bool:
        """Other processes move matches on too (a shared database): a read can be overtaken
        by the time it is shown."""
        return self._ctx.shared

    async def _live(self, match_id: int) -> LiveMatch | None:
        """The open match as of now, or None for one that is not open."""
        ctx = self._ctx
        if not ctx.shared:
            held = ctx.matches.get(match_id)
            if held is None or not held.unsure:
                return held
        try:
            live = await ctx.open_match(match_id)
            async with live.lock:
                await ctx.refresh(live)
        except (MatchNotFound, MatchNotActive):
            return None
        return live if live.info.status in (MatchStatus.PENDING, MatchStatus.ACTIVE) else None

    async def view_for(self, match_id: int, user_id: int) -> PlayerView:
        """What ``user_id`` may see of the match: the table plus their own hidden cards."""
        live = await self._live(match_id)
        if live is not None and live.state is not None:
            seat = live.info.seat_of(user_id)
            if seat is None or user_id == AI_USER_ID:
                raise NotYourMatch(match_id, user_id)
            return live.views.player(live.state, seat)
        info, state = await self._stored_state(match_id)
        seat = info.seat_of(user_id)
        if seat is None:
            raise NotYourMatch(match_id, user_id)
        return view(state, seat)

    async def public_view(self, match_id: int) -> PublicView:
        """The table as a spectator sees it (also for a finished match)."""
        live = await self._live(match_id)
        if live is not None and live.state is not None:
            return live.views.public(live.state)
        _, state = await self._stored_state(match_id)
        return public_view(state)

    async def match_now(self, match_id: int) -> MatchNow:
        """The match's info and public view together: one read of a shared database for an
        open match, where :meth:`match_info` then :meth:`public_view` would be two."""
        live = await self._live(match_id)
        if live is not None and live.state is not None:
            return MatchNow(live.snapshot(), live.views.public(live.state))
        info, state = await self._stored_state(match_id)
        return MatchNow(info, public_view(state))

    async def match_info(self, match_id: int) -> MatchInfo:
        """Who, where and how far, for any match ever created."""
        live = None if self._ctx.shared else self._ctx.matches.get(match_id)
        if live is not None:
            return live.snapshot()
        info = await self._store.get_match(match_id)
        if info is None:
            raise MatchNotFound(match_id)
        return info

    async def active_match_for(self, user_id: int, channel_id: int) -> MatchInfo | None:
        """The user's open match shown in ``channel_id`` (its channel or its thread).

        An active match is preferred over a pending challenge; among equals, the newest.
        """
        best: MatchInfo | None = None
        for info in await self.open_matches_for(user_id):
            if channel_id not in (info.channel_id, info.placement.thread_id):
                continue
            rank = (info.status is MatchStatus.ACTIVE, info.match_id)
            if best is None or rank > (best.status is MatchStatus.ACTIVE, best.match_id):
                best = info
        return best

    async def open_matches_for(self, user_id: int) -> list[MatchInfo]:
        """The user's pending challenges and active matches, oldest first."""
        if user_id == AI_USER_ID:
            return []
        return await self._store.open_matches_of(user_id)

    async def games_of(self, guild_id: int, user_id: int) -> list[MatchInfo]:
        """The member's matches under way in the server, in one read of the database: those
        waiting on them first, then by the soonest deadline (``to_move`` says whose turn,
        ``turn_deadline`` until when)."""
        found = [
            await self._with_whose_turn(info)
            for info in await self.open_matches_for(user_id)
            if info.guild_id == guild_id and info.status is MatchStatus.ACTIVE
        ]

        def order(info: MatchInfo) -> tuple[bool, bool, float, int]:
            deadline = info.turn_deadline
            return (info.to_move != user_id, deadline is None, deadline or 0.0, info.match_id)

        return sorted(found, key=order)

    async def _with_whose_turn(self, info: MatchInfo) -> MatchInfo:
        """``info`` with its player to move: stored since migration 0017 (SQLite) / 0012
        (PostgreSQL) by each decision; a match that has had none since the upgrade is read
        (only those cost a read more)."""
        if info.to_move is not None:
            return info
        live = await self._live(info.match_id)
        if live is None or live.state is None or live.state.current_player is None:
            return info
        return replace(info, to_move=info.players[live.state.current_player])

    async def finished_matches(
        self,
        *,
        user_id: int | None = None,
        guild_id: int | None = None,
        before: float | None = None,
        limit: int = 20,
    ) -> list[FinishedMatch]:
        """Finished matches newest first, for history, stats and ratings."""
        return await self._store.finished_matches(
            user_id=user_id, guild_id=guild_id, before=before, limit=limit
        )

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """The player's rating and record in the guild (the starting rating before any game)."""
        return await self._store.player_stats(guild_id, user_id)

    async def leaderboard(self, guild_id: int, *, offset: int = 0, limit: int = 10) -> AllTimePage:
        """A page of the guild's all-time ranking: the players with the configured minimum of
        rated games (``leaderboard_min_games``), best rating first, ranked from 1
        (:mod:`engine.ratings.leaderboard`)."""
        if offset < 0 or not 1 <= limit <= MAX_PAGE:
            raise InvalidRequest(
                f"leaderboard of offset={offset!r}, limit={limit!r} "
                f"(offset not negative; limit 1 to {MAX_PAGE})"
            )
        min_games = self._ctx.config.leaderboard_min_games
        rows = await self._store.leaderboard(
            guild_id, min_games=min_games, offset=offset, limit=limit
        )
        return ranked_page(rows, min_games)

    async def rating_changes(self, match_id: int) -> tuple[RatingChange, RatingChange] | None:
        """How the match moved each seat's rating, or None if it is unrated or not over."""
        changes = await self._store.rating_changes(match_id)
        return (changes[0], changes[1]) if len(changes) == 2 else None

    async def match_record(self, match_id: int, guild_id: int | None, viewer_id: int) -> str:
        """The finished match's record (one line of JSON, docs/rules.md format) for export,
        to a viewer who may see its hidden cards (:mod:`engine.service.reviews.sight`).

        Raises :class:`MatchNotFinished` while the match is a challenge or still being
        played, :class:`MatchNotFound` for a match of another server, so records never leak
        between servers, and :class:`HiddenFromViewer` for a spectator it is not shared with.
        """
        result = await self._finished(match_id, "its record is available", guild_id=guild_id)
        await self._sight_of_all(match_id, viewer_id, "the record")
        return result.record

    async def finished_record(self, match_id: int, viewer_id: int) -> MatchRecord:
        """The finished match's record, read, every hidden card included, for a viewer who
        may see them (its review's analysis).

        Raises :class:`MatchNotFound`, or :class:`MatchNotFinished` while it is a challenge
        or being played, or if it was declined, withdrawn or set aside, and
        :class:`HiddenFromViewer` for a spectator it is not shared with.
        """
        result = await self._finished(match_id, "it can be reviewed")
        await self._sight_of_all(match_id, viewer_id, "the hidden cards")
        return MatchRecord.from_json(result.record)

    async def seen_match(
        self,
        match_id: int,
        viewer_id: int,
        guild_id: int | None,
    ) -> SeenMatch:
        """The finished match of server ``guild_id`` step by step as ``viewer_id`` may see
        it: the public tables for anyone, the hidden cards too for a player or a spectator
        both players share it with (its judgement is :meth:`MatchReviews.seen`'s).

        Raises :class:`MatchNotFinished` while it is a challenge or being played (or was
        declined, withdrawn, set aside or abandoned), :class:`MatchNotFound` for an unknown
        match or one of another server, and :class:`~engine.rules.errors.RecordError` for
        a stored record that does not read.
        """
        result = await self._finished(match_id, "it can be reviewed", guild_id=guild_id)
        info = await self.match_info(match_id)
        sight = await sight_of(self._settings, info, viewer_id)
        # The turn deadline each step's board showed: the one the match started with, then
        # the one each decision set (a finished board draws none).
        start = None if info.started_at is None else info.started_at + info.turn_seconds
        rows = sorted(await self._store.decisions(match_id), key=lambda row: row.seq)
        return seen_match(
            MatchRecord.from_json(result.record),
            hidden_shown=sight.full,
            deadlines=(start, *(row.next_deadline for row in rows)),
            viewer_seat=info.seat_of(viewer_id),
        )

    async def sight(self, match_id: int, viewer_id: int) -> Sight:
        """How much of the finished match ``match_id`` the viewer may see."""
        return await sight_of(self._settings, await self.match_info(match_id), viewer_id)

    async def _sight_of_all(self, match_id: int, viewer_id: int, what: str) -> None:
        """Raise :class:`HiddenFromViewer` unless the viewer may see every hidden card."""
        if not (await self.sight(match_id, viewer_id)).full:
            raise HiddenFromViewer(match_id, viewer_id, what)

    async def _finished(
        self, match_id: int, wanted: str, *, guild_id: int | _AnyGuild | None = ANY_GUILD
    ) -> FinishedMatch:
        """The finished match (of ``guild_id`` when given: another server's is not found)."""
        result = await self._store.finished_match(match_id)
        if result is None:
            info = await self._store.get_match(match_id)
            if info is None or (guild_id is not ANY_GUILD and info.guild_id != guild_id):
                raise MatchNotFound(match_id)
            raise MatchNotFinished(match_id, info.status, wanted)
        if guild_id is not ANY_GUILD and result.guild_id != guild_id:
            raise MatchNotFound(match_id)
        return result

    async def _stored_state(self, match_id: int) -> tuple[MatchInfo, GameState]:
        """A finished match rebuilt from its record; a pending or broken one is refused."""
        info = await self._store.get_match(match_id)
        if info is None:
            raise MatchNotFound(match_id)
        result = await self._store.finished_match(match_id)
        if result is None:
            raise MatchNotActive(match_id, info.status)
        return info, replay(MatchRecord.from_json(result.record))
