"""The store interface: everything the match service persists, and nothing else writes SQL.

:class:`~engine.store.sqlite.SqliteMatchStore` is the embedded default, for one process.
:class:`~engine.store.postgres.PostgresMatchStore` is ``shared``: several bot processes
use one database, so the database is the authority and each process's memory a cache.

Every write method returns only after its data is committed: the service acknowledges a
decision to its caller after :meth:`MatchStore.append_decision` returns, never before.

Every write that moves a match on checks, in its transaction, that the match is still as
its caller saw it (status, version) and raises :class:`~engine.store.errors.MatchConflict`
otherwise, writing nothing: across processes a decision is applied exactly once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from engine.clocks import Vacation
from engine.model import (
    DecisionRow,
    FinishedMatch,
    GuildSettings,
    MatchInfo,
    MatchStatus,
    UserSettings,
)
from engine.model.daily_puzzle import DailyPuzzle
from engine.model.puzzles import PuzzleAttempt, PuzzleStanding, StoredPuzzle, StreakRun
from engine.ratings import (
    Glicko2Rating,
    LeaderboardPage,
    PlayerStats,
    RatedMatch,
    RatingChange,
    Reliability,
    Standing,
)
from engine.seasons import BestSeason, Season, SeasonResult, SeasonStanding
from engine.store.alarm import Alarm
from engine.store.announcement import Announcement
from engine.store.tournament_store import TournamentStore

Rater = Callable[[tuple[Standing, Standing]], RatedMatch]
"""Both seats' standings before a rated match -> the match rated (``rate_finished_match``)."""

StandingChange = Callable[[PuzzleStanding], PuzzleStanding]
"""A member's puzzle standing -> what it becomes (:meth:`MatchStore.change_standing` calls
it inside the commit; what it raises leaves the standing as it was)."""

AttemptRater = Callable[[PuzzleStanding, Glicko2Rating], tuple[PuzzleStanding, Glicko2Rating]]
"""Turns a member's puzzle standing and a puzzle's rating before an attempt into both
after it (:meth:`MatchStore.record_attempt` calls it inside the commit)."""


class MatchStore(TournamentStore, Protocol):
    @property
    def shared(self) -> bool:
        """True when other processes may write this database too (then nothing in memory
        is trusted without checking it against the database)."""
        ...

    def exclusive(self, key: str) -> AbstractAsyncContextManager[None]:
        """Hold ``key`` (``"member:42"``, ``"ratings:7"``) against every process using this
        database: a check and the write that depends on it, done by one at a time. Keys
        are held briefly and never nested."""
        ...

    async def open(self) -> None:
        """Check the database, apply pending migrations and get ready.

        Raises :class:`~engine.store.errors.SchemaTooNew` or
        :class:`~engine.store.errors.CorruptDatabase` without modifying anything.
        """
        ...

    async def close(self) -> None:
        """Commit the writes already queued, then release the database."""
        ...

    # -- writes --------------------------------------------------------------------------

    async def create_match(
        self, match: MatchInfo, announcements: Sequence[Announcement] = ()
    ) -> MatchInfo:
        """Insert a new match (its ``match_id`` is ignored) and return it with its id.

        Every write that changes a match takes the ``announcements`` that change causes and
        commits them with it (here they get the new match's id); see :meth:`undelivered`.
        """
        ...

    async def start_match(
        self,
        match_id: int,
        *,
        seed: int,
        first_player: int,
        started_at: float,
        turn_deadline: float | None,
        announcements: Sequence[Announcement] = (),
        opponent_id: int | None = None,
        paused_until: float | None = None,
    ) -> None:
        """Make a pending match active with its seed and first player; its board message
        (the challenge's, until now) is forgotten. MatchConflict if it is not pending: of
        everyone starting it at once, in any process, exactly one succeeds.

        ``opponent_id``: for an open seat, the member who took seat 1. ``paused_until``:
        turn-based, the first player is on vacation until then."""
        ...

    async def close_challenge(
        self,
        match_id: int,
        status: MatchStatus,
        at: float,
        announcements: Sequence[Announcement] = (),
    ) -> None:
        """End a pending challenge as declined, cancelled or expired. MatchConflict if it is
        not pending."""
        ...

    async def append_decision(
        self, match_id: int, decision: DecisionRow, announcements: Sequence[Announcement] = ()
    ) -> None:
        """Append the next decision and make it current (version, turn deadline) atomically.

        Raises :class:`~engine.store.errors.MatchConflict` unless the match is active and
        ``decision.seq`` is exactly one more than the stored version. Releases its claim.
        """
        ...

    async def finish_match(
        self,
        result: FinishedMatch,
        last_decision: DecisionRow | None,
        rate: Rater | None = None,
        announcements: Sequence[Announcement] = (),
        *,
        version: int,
    ) -> None:
        """Record the result, the decision that ended the match if any, and for a rated
        match both players' new standings and rating changes, all in one commit.

        ``rate`` turns both seats' standings before the match (a new player's is
        ``Standing(guild_id, user_id)``) into the rated match; the store calls it with the
        standings read in the commit's own transaction, after every ending committed before
        it (PostgreSQL: under the server's ratings key, a transaction lock; SQLite: inside
        the writer's batch), so two matches of a player ending at once never both start
        from the old rating, and endings wait for each other only as long as a commit.

        ``version`` is the stored version the caller saw, before this write
        (``last_decision.seq - 1`` when there is a last decision). MatchConflict unless the
        match is active at ``version``."""
        ...

    async def mark_broken(self, match_id: int, reason: str, at: float) -> None: ...

    async def abandon_match(self, match_id: int, status: MatchStatus, at: float) -> None:
        """End an open match (pending or active, as ``status`` says it was seen) as
        abandoned, its deadline gone. MatchConflict if it is not ``status`` any more."""
        ...

    async def set_reminded(
        self, match_id: int, version: int, announcements: Sequence[Announcement] = ()
    ) -> None:
        """Remember that the turn reminder for ``version`` went out (it is sent once).

        MatchConflict unless the match is active at ``version`` and not yet reminded for
        it. Releases its claim."""
        ...

    async def set_turn_clock(
        self,
        match_id: int,
        version: int,
        *,
        turn_deadline: float | None,
        overdue_since: float | None,
        paused_until: float | None,
        reminded_version: int | None,
        announcements: Sequence[Announcement] = (),
    ) -> None:
        """Move the running turn's clock without a decision (turn-based: the days ran out,
        the claim was offered, the waiting player waits on; a vacation began or ended).
        MatchConflict unless the match is active at ``version``. Releases its claim."""
        ...

    async def save_vacation(self, guild_id: int, user_id: int, vacation: Vacation) -> None:
        """Record a member's vacation (one with the same start is replaced: ended early)."""
        ...

    async def vacations(self, guild_id: int, user_id: int) -> list[Vacation]:
        """A member's vacations in a server, oldest first."""
        ...

    async def reliability(self, guild_id: int, user_id: int) -> Reliability:
        """A member's finished and abandoned matches in a server (one read)."""
        ...

    # -- puzzles (engine.puzzles; engine.model.puzzles) ------------------------------------

    async def save_puzzles(self, puzzles: Sequence[StoredPuzzle]) -> None:
        """Add puzzles in one commit; a key already stored is left as it is (its rating
        and counts kept): saving a match's or the built-in set's puzzles twice is one."""
        ...

    async def puzzle(self, key: str) -> StoredPuzzle | None: ...

    async def puzzle_candidates(
        self, guild_id: int, user_id: int, around: float, limit: int
    ) -> list[StoredPuzzle]:
        """In one read: up to ``limit`` puzzles of the server's own matches and of the
        built-in set (``guild_id`` NULL) that the member never attempted, the nearest
        rating to ``around`` first (ties by key)."""
        ...

    async def puzzle_ladder(
        self, guild_id: int, user_id: int, after: StreakRun | None, limit: int
    ) -> list[StoredPuzzle]:
        """In one read: the first ``limit`` rungs of the member's streak ladder after
        ``after``'s puzzle (None: from the bottom) — the puzzles they never attempted, of
        the server's own matches and of the built-in set, by rating, the easier first
        (larger ``ease``), then by key."""
        ...

    async def puzzle_standing(self, guild_id: int, user_id: int) -> PuzzleStanding | None: ...

    async def change_standing(
        self, guild_id: int, user_id: int, change: StandingChange
    ) -> PuzzleStanding:
        """Read the member's standing (a new member's ``PuzzleStanding(guild_id,
        user_id)``) and write what ``change`` makes of it, in one commit that no attempt of
        theirs comes between; the new standing. What ``change`` raises is raised, nothing
        written."""
        ...

    async def record_attempt(self, attempt: PuzzleAttempt, rate: AttemptRater) -> PuzzleStanding:
        """One attempt, committed with its consequences: ``rate`` turns the member's
        standing and the puzzle's rating before it (read in the commit's own transaction,
        a new member's ``PuzzleStanding(guild_id, user_id)``) into both after it; the
        member's standing and the puzzle's rating and counts are written, and the new
        standing returned. :class:`~engine.store.errors.DuplicateKey` if the member
        already attempted that puzzle in that server (nothing written)."""
        ...

    async def puzzle_leaderboard(
        self, guild_id: int, *, offset: int, limit: int
    ) -> list[PuzzleStanding]:
        """A server's members by puzzle rating (then more solved, then user id)."""
        ...

    # -- the daily puzzle (engine.service.puzzles.daily) -----------------------------------

    async def record_daily_puzzle(
        self,
        daily: DailyPuzzle,
        *,
        announcements: Sequence[Announcement] = (),
        alarms: Sequence[Alarm] = (),
    ) -> bool:
        """Record a server's puzzle of the day with its announcements and alarms, in one
        commit; False (nothing written) if that server's day has a puzzle already."""
        ...

    async def daily_puzzle(self, guild_id: int, day: int) -> DailyPuzzle | None: ...

    async def recent_daily_puzzles(self, guild_id: int, since_day: int) -> list[DailyPuzzle]:
        """A server's daily puzzles from day ``since_day`` on, the latest first."""
        ...

    async def puzzle_keys(self, guild_id: int) -> list[str]:
        """The keys of the server's own puzzles and the built-in ones, in key order."""
        ...

    async def puzzle_solvers(
        self, guild_id: int, key: str, since: float, limit: int
    ) -> tuple[list[int], int]:
        """In one read: the first ``limit`` members who solved puzzle ``key`` in the server
        at ``since`` or later, in the order they did, and how many did."""
        ...

    async def claim(self, match_id: int, version: int, until: float, now: float) -> bool:
        """Take the match's pending work (its AI move) for this process until ``until``:
        False if the match moved past ``version`` or another unexpired claim holds it.
        Any write that moves the match on releases the claim."""
        ...

    async def claim_due(
        self, now: float, reminder_lead: float, until: float, limit: int
    ) -> list[int]:
        """Claim up to ``limit`` open matches whose alarm is due at ``now``, oldest due
        first, for this process until ``until``, skipping those another process holds.

        Due: a pending challenge at or past ``challenge_expires_at``; an active match at or
        past ``turn_deadline``, or past ``turn_deadline - min(reminder_lead,
        turn_seconds / 2)`` while ``reminded_version`` differs from ``version``; and any
        open match whose earlier claim expired without a write releasing it (its process
        died or gave up while working on it).
        """
        ...

    async def announced(self, delivered: Sequence[tuple[int | None, str]]) -> None:
        """Forget the announcements ``(match_id, key)`` the Discord layer has shown (by any
        process); a match id of None is an announcement of no match."""
        ...

    async def add_announcements(self, rows: Sequence[Announcement]) -> None:
        """Record ``rows`` in the outbox in one commit (a key written again replaces its
        row): for a feature whose cause was committed by a write of its own."""
        ...

    async def set_location(
        self, match_id: int, thread_id: int | None, board_message_id: int | None
    ) -> None: ...

    async def set_challenge_message(self, match_id: int, message_id: int) -> None:
        """Remember the message of a challenge still pending; once it is answered this
        changes nothing (the start clears the board, which a late write would undo)."""
        ...

    async def press_rematch(self, match_id: int, user_id: int, at: float) -> None:
        """Remember that ``user_id`` asked for a rematch of ``match_id`` (pressing twice is one)."""
        ...

    async def save_guild_settings(self, settings: GuildSettings) -> None: ...

    async def save_user_settings(self, settings: UserSettings) -> None: ...

    async def save_review(self, match_id: int, body: str, at: float) -> None:
        """Keep the review (its JSON) of the finished match ``match_id``, analysed at ``at``.

        A match has one review: saving again replaces it (the last save wins)."""
        ...

    # -- reads ---------------------------------------------------------------------------

    async def open_matches(self) -> list[tuple[MatchInfo, list[DecisionRow]]]:
        """Every pending or active match with its decisions in order, for start-up."""
        ...

    async def undelivered(self, match_id: int | None = None) -> list[Announcement]:
        """Every announcement not yet confirmed as shown, of a match or of none, oldest
        first (for start-up), or only those of ``match_id`` (a write of it that got no
        answer may have made some).

        A shared store returns only those its own process (its ``origin``) wrote: the
        others are being shown by the processes that wrote them."""
        ...

    async def get_match(self, match_id: int) -> MatchInfo | None: ...

    async def match_since(
        self, match_id: int, version: int
    ) -> tuple[MatchInfo, list[DecisionRow]] | None:
        """The match as stored and its decisions after ``version``, in order (to bring a
        cached match up to date in one read); None if there is no such match."""
        ...

    async def open_matches_of(self, user_id: int) -> list[MatchInfo]:
        """The pending and active matches ``user_id`` plays in (either seat), oldest first."""
        ...

    async def open_matches_in(self, guild_id: int, channel_id: int | None) -> list[MatchInfo]:
        """The open matches (pending or active) of a server, or of one of its channels."""
        ...

    async def waiting_seats_in(
        self, guild_id: int, now: float, *, offset: int, limit: int
    ) -> tuple[list[MatchInfo], int]:
        """A page of a server's open seats still waiting at ``now`` whose message is posted
        (its id stored), oldest first, and how many there are in all."""
        ...

    async def match_in_thread(self, thread_id: int) -> MatchInfo | None:
        """The pending or active match shown in ``thread_id``, if any."""
        ...

    async def match_of_thread(self, thread_id: int) -> MatchInfo | None:
        """The latest match shown in ``thread_id``, open or over: what "this thread's
        match" means to a command asked there."""
        ...

    async def decisions(self, match_id: int) -> list[DecisionRow]: ...

    async def rematch_presses(self, match_id: int) -> frozenset[int]:
        """The users who asked for a rematch of ``match_id``."""
        ...

    async def rematches_of(self, match_id: int) -> list[MatchInfo]:
        """The matches created as rematches of ``match_id`` (``rematch_of``), newest first."""
        ...

    async def matches_started_by(self, user_id: int, since: float) -> list[MatchInfo]:
        """The matches ``user_id`` created (in seat 0: the challenges they sent, answered or
        not, and their matches against the AI) at ``since`` or later, oldest first."""
        ...

    async def finished_match(self, match_id: int) -> FinishedMatch | None: ...

    async def finished_matches(
        self,
        *,
        user_id: int | None = None,
        guild_id: int | None = None,
        before: float | None = None,
        limit: int = 20,
    ) -> list[FinishedMatch]:
        """Finished matches, newest first, optionally of one user and/or one guild."""
        ...

    async def standing(self, guild_id: int, user_id: int) -> Standing | None:
        """The player's rating and rated record in the guild, or None before a rated match."""
        ...

    async def leaderboard(
        self, guild_id: int, *, min_games: int, offset: int, limit: int
    ) -> LeaderboardPage:
        """Players with at least ``min_games`` rated games, best rating first."""
        ...

    async def rating_changes(self, match_id: int) -> list[RatingChange]:
        """How the match moved each player's rating, by seat; empty for an unrated match."""
        ...

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """The standing plus rated wins and losses by termination and the AI record."""
        ...

    async def guild_settings(self, guild_id: int) -> GuildSettings | None: ...

    async def user_settings(self, user_id: int) -> UserSettings | None: ...

    async def review_of(self, match_id: int) -> str | None:
        """The review saved for ``match_id`` (its JSON, of whatever format it was saved
        in), or None."""
        ...

    # -- alarms: every feature's due things ----------------------------------------------

    async def set_alarms(self, alarms: Sequence[Alarm]) -> None:
        """Set each alarm, in one commit: one already set for its kind and subject is moved
        to the new time and attempt, and loses any claim on it."""
        ...

    async def clear_alarms(self, keys: Sequence[tuple[str, int]]) -> None:
        """Delete the alarms ``(kind, subject)`` (nothing for one not set)."""
        ...

    async def claim_due_alarms(self, now: float, until: float, limit: int) -> list[Alarm]:
        """Claim up to ``limit`` alarms due at ``now`` for this process until ``until``,
        earliest due first: those unclaimed, or whose claim ran out (its process died or
        gave up). Of several processes claiming at once, exactly one gets each alarm.

        The caller does the work, then calls :meth:`release_alarm` or :meth:`retry_alarm`."""
        ...

    async def next_alarm_due(self) -> float | None:
        """The earliest time :meth:`claim_due_alarms` may return something (an alarm claimed
        past its due time counts from the claim's end); None when no alarm is set."""
        ...

    async def release_alarm(self, alarm: Alarm, until: float) -> None:
        """The work of ``alarm``, claimed until ``until``, is done: delete it, unless it was
        set again meanwhile (by that very work: the next season's end), which is kept."""
        ...

    async def retry_alarm(self, alarm: Alarm, until: float, due_at: float) -> None:
        """The work of ``alarm``, claimed until ``until``, failed: it is due again at
        ``due_at``, its attempt counted and its claim dropped; unless it was set again
        meanwhile, or its claim ran out and another process took it over."""
        ...

    # -- seasons (issue 27) --------------------------------------------------------------
    # A feature's write commits with it the ``announcements`` it causes (of no match), the
    # ``alarms`` it sets and the ``cleared_alarms`` it deletes; a write that changes nothing
    # commits none of them.

    async def start_season(
        self,
        season: Season,
        *,
        announcements: Sequence[Announcement] = (),
        alarms: Sequence[Alarm] = (),
        cleared_alarms: Sequence[tuple[str, int]] = (),
    ) -> None:
        """Insert a new running season. :class:`~engine.store.errors.DuplicateKey`, writing
        nothing, if the server has one running or the number is taken: callers hold the
        server's ``season:<guild>`` key (:meth:`exclusive`) and check first."""
        ...

    async def set_season_end(
        self,
        season: Season,
        *,
        announcements: Sequence[Announcement] = (),
        alarms: Sequence[Alarm] = (),
        cleared_alarms: Sequence[tuple[str, int]] = (),
    ) -> None:
        """Change when the running ``season`` ends by itself (and the length behind it);
        nothing if it is not running any more."""
        ...

    async def end_season(
        self,
        season: Season,
        ranking: Sequence[SeasonStanding],
        next_season: Season | None,
        *,
        announcements: Sequence[Announcement] = (),
        alarms: Sequence[Alarm] = (),
        cleared_alarms: Sequence[tuple[str, int]] = (),
    ) -> None:
        """In one commit: end ``season`` (its ``ended_at`` set), keep its final ``ranking``
        (ranked members only) and start ``next_season`` if given; nothing if it is not
        running any more. Callers hold ``season:<guild>``."""
        ...

    async def season_podium_shown(self, guild_id: int, number: int) -> None:
        """The season's end was announced (or had nowhere to go): never shown again."""
        ...

    async def running_season(self, guild_id: int) -> Season | None: ...

    async def season(self, guild_id: int, number: int) -> Season | None: ...

    async def seasons_of(self, guild_id: int, limit: int) -> list[Season]:
        """The server's seasons, newest first."""
        ...

    async def season_results(self, guild_id: int, since: float, until: float) -> list[SeasonResult]:
        """The server's rated matches finished at ``since`` or later and before ``until``, in
        the order a season counts them (finish time, then match id)."""
        ...

    async def count_season_results(self, guild_id: int, since: float, until: float) -> int:
        """How many of :meth:`season_results` finished from ``since`` to ``until``, both
        included."""
        ...

    async def season_ranking(
        self, guild_id: int, number: int, *, offset: int, limit: int
    ) -> tuple[list[SeasonStanding], int]:
        """A page of an ended season's final ranking, and how many were ranked."""
        ...

    async def best_season(self, guild_id: int, user_id: int) -> BestSeason | None:
        """The member's best finish in the server's ended seasons, if ever ranked."""
        ...
