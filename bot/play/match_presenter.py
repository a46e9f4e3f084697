"""One presenter per match: it shows the match's events in its thread and keeps its board.

The match service's events come in by :meth:`MatchPresenters.on_event`; what a server
changed under a board (deleted, permissions changed) asks for an edit by
:meth:`MatchPresenters.mark_board`. Each match has one queue and one task: the task takes
everything queued, reads the match once (:meth:`MatchQueries.match_now`), plans each event
(:func:`bot.play.display_plan.plan`) and carries the steps out in order, but for the board:
its edit waits until the messages of what was queued are posted, or until a step needs the
board settled first (the result, after the final board), so several moves in quick
succession cost one read and one board edit. A match's messages keep their order; one slow
Discord request delays only its own match. A match's queue is dropped once idle.

An event shown (or refused by Discord for good) is reported announced to the service
(``MatchService.announced``), which then forgets it; one that could not be shown yet
(Discord down past the retrier's patience, the connection lost, a full disk, the database
not answering) is queued again later, and stays in the service's outbox meanwhile, so a
restart shows it too.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import replace
from typing import Any

import discord

from bot.discord_plumbing.announcement_nonces import announcing, outside_announcement
from bot.discord_plumbing.app_emojis import AppEmojis
from bot.discord_plumbing.interaction_boards import InteractionBoards, shown_by_interactions
from bot.discord_plumbing.places import Places
from bot.discord_plumbing.retrier import worth_showing_later
from bot.play.announcements import Announcements
from bot.play.board_editor import BoardEditor, ChannelGone, TellPlayer
from bot.play.board_interactions import BoardInteractions
from bot.play.display_plan import (
    AskOffer,
    EditBoard,
    Notify,
    NotifyClaim,
    OfferAnswered,
    Post,
    PostResult,
    PostSummary,
    Scene,
    SetUp,
    Step,
    plan,
    shows,
)
from bot.play.match_place import MatchPlace
from bot.play.presence import Presence
from bot.request_pacing import Urgency, Withdrawn, requests_for
from bot.words.player_names import PlayerNames
from bot.words.server_language import ServerLanguages
from engine.model import MatchInfo
from engine.service import DatabaseUnavailable, MatchPlacements, MatchQueries, MatchSettings
from engine.service.announcing.addresses import announcement_key
from engine.service.events import Event, MatchAbandoned, MatchEnded, MatchEvent, MatchStarted

log = logging.getLogger(__name__)

SHOW_AGAIN_SECONDS = 60.0
"""How long an event that could not be shown waits before it is tried again."""

DATABASE_AGAIN_SECONDS = 5.0
"""How long an event or a board waits when the database did not answer: a stall or a
restart lasts seconds, and the store has logged it once for the whole outage."""

PanelHook = Callable[[MatchInfo, int], Coroutine[Any, Any, None]]
"""Sends or retires a player's DM panel of a match."""


class _Batch:
    """What the presenter's task is showing: the match as read for it, whether its board is
    to be edited before the batch ends, and the DMs to send once it is."""

    __slots__ = ("board_due", "dms", "now")

    def __init__(self, now: Scene, board_due: bool) -> None:
        self.now = now
        self.board_due = board_due
        self.dms: list[tuple[PanelHook, MatchInfo, int]] = []


class MatchPresenter:
    """One match's queue and its task."""

    __slots__ = ("board_asked", "events", "match_id", "task")

    def __init__(self, match_id: int) -> None:
        self.match_id = match_id
        self.events: deque[MatchEvent] = deque()
        self.board_asked = False
        """An edit of the board was asked for apart from any event."""
        self.task: asyncio.Task[None] | None = None


class MatchPresenters:
    """Shows service events as thread messages and board edits, one presenter per match."""

    def __init__(
        self,
        queries: MatchQueries,
        placements: MatchPlacements,
        settings: MatchSettings,
        names: PlayerNames,
        languages: ServerLanguages,
        places: Places,
        presence: Presence,
        *,
        notify: PanelHook,
        retire_panel: PanelHook,
        announced: Callable[[Event], None],
        ready: Callable[[], Awaitable[None]],
        tell: TellPlayer | None = None,
        channel_gone: ChannelGone | None = None,
        emojis: AppEmojis | None = None,
        notify_claim: PanelHook | None = None,
        interaction_boards: InteractionBoards | None = None,
    ) -> None:
        self.places = places
        self.interaction_boards = interaction_boards or InteractionBoards()
        """The live presses of boards outside any server the bot is in, through which
        their edits go."""
        self.interaction_boards.show = self.mark_board
        self._notify_claim = notify_claim
        """Tells a waiting player by DM that an overdue turn is theirs to settle."""
        self.presence = presence
        self._queries = queries
        self._notify = notify
        self._retire_panel = retire_panel
        self._announced = announced
        self._ready = ready
        """Until the Gateway has sent the servers: what is shown at start-up needs them (a
        thread's permissions are its channel's)."""
        self._place = MatchPlace(places, names, languages, lost=self.mark_board)
        self._board = BoardEditor(
            queries,
            placements,
            self._place,
            self.mark_board,
            tell,
            channel_gone,
            emojis,
            self.interaction_boards,
        )
        self._posts = Announcements(queries, placements, settings, self._place, self._board)
        self._matches: dict[int, MatchPresenter] = {}
        self._shown: dict[int, Scene] = {}
        """What each match's board last showed (a plan skips an edit that would show the
        same); dropped when the match ends."""
        self._side_tasks: set[asyncio.Task[None]] = set()
        self._editing: set[int] = set()
        """Matches whose presenter is editing their board now."""
        self._withdrawn_at: dict[int, float] = {}
        """When each match's withdrawn board edit first asked for its turn."""
        self.presses = BoardInteractions[discord.Interaction[Any]]()
        """Presses on a board (a Take) whose interaction carries the board's next edit."""

    # -- what comes in -------------------------------------------------------------------

    async def on_event(self, event: Event) -> None:
        """The service's subscriber: queue the event on its match and return at once."""
        if isinstance(event, MatchAbandoned):
            self._shown.pop(event.match_id, None)
        if not shows(event):
            return
        if isinstance(event, MatchStarted):
            for user_id in event.players:  # who challenged and who accepted are watching
                self.presence.seen(event.match_id, user_id)
        presenter = self._presenter(event.match_id)
        presenter.events.append(event)
        self._run(presenter)
        if event.match_id in self._editing and presenter.task is not None and self.places.pacer:
            # Its board edit still waits for Discord's pace: withdrawn, the next batch's
            # edit shows this event too, in one request instead of two.
            self.places.pacer.withdraw(presenter.task)

    def mark_board(self, match_id: int) -> None:
        """Edit the match's board soon (repairing its place first if it is gone); asks made
        meanwhile merge, as the edit shows the match as it is when it runs."""
        presenter = self._presenter(match_id)
        presenter.board_asked = True
        self._run(presenter)

    def board_deleted(self, message_id: int) -> None:
        """A message was deleted; if it was a board this process shows, post it again."""
        match_id = self._board.board_deleted(message_id)
        if match_id is not None:
            self.mark_board(match_id)

    def permissions_changed(self) -> None:
        """A server's roles or a channel's overwrites changed: a board whose edit Discord
        refused is edited again, as the new permissions allow."""
        for match_id in self._board.refused_boards():
            self.mark_board(match_id)

    async def wait_idle(self) -> None:
        """Until every queued event has been shown (tests and shutdown)."""
        while True:
            busy = [p.task for p in self._matches.values() if p.task and not p.task.done()]
            busy += [t for t in self._side_tasks if not t.done()]
            if not busy:
                return
            await asyncio.gather(*busy, return_exceptions=True)

    # -- what the commands use -----------------------------------------------------------

    async def place(self, info: MatchInfo) -> discord.abc.Messageable | None:
        """The thread of the match, or its channel when it has no thread."""
        return await self._place.place(info)

    async def public_language(self, info: MatchInfo) -> str:
        """The language of the match's public messages (its server's)."""
        return await self._place.public_language(info)

    async def post_board(self, info: MatchInfo) -> discord.Message | None:
        """Post a fresh board at the bottom of the match's place and remember it."""
        return await self._board.post_board(info)

    async def repair(self, info: MatchInfo) -> MatchInfo:
        """A new thread (or the channel) and board for a match whose thread is gone; the
        match as placed afterwards (unchanged if nothing was gone)."""
        return await self._board.repair(info)

    def place_is_gone(self, info: MatchInfo) -> bool:
        """Whether the match's thread was deleted under it."""
        return self.places.is_gone(info.placement.thread_id)

    # -- the presenter's task ------------------------------------------------------------

    def _presenter(self, match_id: int) -> MatchPresenter:
        presenter = self._matches.get(match_id)
        if presenter is None:
            presenter = self._matches[match_id] = MatchPresenter(match_id)
        return presenter

    def _run(self, presenter: MatchPresenter) -> None:
        if presenter.task is None or presenter.task.done():
            presenter.task = asyncio.create_task(self._present(presenter))

    async def _present(self, presenter: MatchPresenter) -> None:
        await self._ready()
        while presenter.events or presenter.board_asked:
            events = list(presenter.events)
            presenter.events.clear()
            board_asked, presenter.board_asked = presenter.board_asked, False
            try:
                now = await self._read(presenter.match_id)
            except DatabaseUnavailable:  # told once by the store
                self._again_later(presenter.match_id, events, board_asked, DATABASE_AGAIN_SECONDS)
                continue
            except Exception:
                # A bug in reading it: shown again at every start, it would fail each time.
                log.exception("match %s: could not read it to show it", presenter.match_id)
                for event in events:
                    self._announced(event)
                continue
            batch = _Batch(now, board_asked)
            for event in events:
                await self._show(event, batch)
            await self._settle_board(batch)
            for hook, info, user_id in batch.dms:  # after the board: a DM never delays it
                self._aside(_in_background(hook(info, user_id)))
        if not presenter.events and self._matches.get(presenter.match_id) is presenter:
            del self._matches[presenter.match_id]

    async def _read(self, match_id: int) -> Scene:
        """The one read of the match for what is queued, with who is away now."""
        match = await self._queries.match_now(match_id)
        away = frozenset(u for u in match.info.players if self.presence.is_away(match_id, u))
        return Scene(match.info, match.public, away)

    async def _show(self, event: MatchEvent, batch: _Batch) -> None:
        """Carry out the plan of one event, then report it announced to the service (unless
        it is to be shown again later)."""
        match_id = event.match_id
        key = announcement_key(event) or type(event).__name__
        # A match's messages wait for Discord's pace as its board does, so none overtakes
        # the board (the batch's steps run in order anyway); an opening waits less urgently.
        urgency = Urgency.OPENING if isinstance(event, MatchStarted) else Urgency.BOARD
        try:
            with announcing(match_id, key), requests_for(urgency):
                for step in plan(event, self._shown.get(match_id), batch.now):
                    await self._carry_out(step, batch)
        except Exception as error:
            if isinstance(error, DatabaseUnavailable):  # told once by the store
                self._again_later(match_id, [event], False, DATABASE_AGAIN_SECONDS)
                return
            if worth_showing_later(error):
                log.warning(
                    "match %s: %s not shown yet (%r); trying again in %.0f s",
                    match_id,
                    key,
                    error,
                    SHOW_AGAIN_SECONDS,
                )
                self._again_later(match_id, [event], False, SHOW_AGAIN_SECONDS)
                return
            if isinstance(error, discord.HTTPException):
                log.warning("match %s: Discord refused %s for good: %s", match_id, key, error)
            else:
                log.exception("match %s: could not show %r", match_id, event)
        if isinstance(event, MatchEnded):
            self._shown.pop(match_id, None)
            self.presses.forget(match_id)
        self._announced(event)

    async def _carry_out(self, step: Step, batch: _Batch) -> None:
        info = batch.now.info
        if isinstance(step, SetUp):
            set_up = await self._posts.set_up(info, batch.now.public, greet=step.greet)
            batch.now = replace(batch.now, info=set_up)
        elif isinstance(step, EditBoard):
            batch.board_due = True  # after the batch's messages: one edit shows them all
        elif isinstance(step, Post):
            await self._posts.post(info, step)
        elif isinstance(step, PostSummary):
            await self._posts.summary(info, step)
        elif isinstance(step, PostResult):
            # The final board before the result, never withdrawn: the result must not sit
            # above a board one move behind.
            await self._settle_board(batch, withdrawable=False)
            await self._posts.result(info, step)
        elif isinstance(step, AskOffer):
            await self._posts.ask_offer(info, step)
        elif isinstance(step, OfferAnswered):
            await self._posts.offer_answered(info, step)
        elif shown_by_interactions(info):
            pass  # no DM outside the servers the bot is in: the board the players see says it
        elif isinstance(step, Notify):
            batch.dms.append((self._notify, info, step.user_id))
        elif isinstance(step, NotifyClaim):
            if self._notify_claim is not None:
                batch.dms.append((self._notify_claim, info, step.user_id))
        else:
            batch.dms.append((self._retire_panel, info, step.user_id))

    async def _settle_board(self, batch: _Batch, *, withdrawable: bool = True) -> None:
        """Edit the board now if the batch asked for it; a failure is the board's alone,
        never an event's. While it waits for Discord's pace a newer event may withdraw it
        (:meth:`on_event`), unless not `withdrawable`."""
        if not batch.board_due:
            return
        batch.board_due = False
        now = batch.now
        match_id = now.info.match_id
        # Taken by this edit whether it needs a request or not (given back only when the
        # edit is withdrawn or waits for the database): a press kept for later edits
        # would carry them with a token ever nearer its 15 minutes.
        through = self.presses.take(match_id, showing=now.public.version)
        if withdrawable:
            self._editing.add(match_id)
        # A board edit that replaces a withdrawn one keeps that one's place in line: else
        # a match whose events come faster than the line moves would never be shown.
        asked_at = self._withdrawn_at.pop(match_id, None)
        errand = None
        try:
            with outside_announcement(), requests_for(Urgency.BOARD, asked_at=asked_at) as errand:
                if await self._board.edit_board(now.info, now.public, through):
                    self._shown[match_id] = now
        except Withdrawn:
            if errand is not None and errand.first_asked is not None:
                self._withdrawn_at[match_id] = errand.first_asked
            self.mark_board(match_id)  # the queued event's batch edits it, now or anyway
            if through is not None:
                self.presses.put_back(match_id, through)  # and answers the press
                through = None
        except DatabaseUnavailable:
            # Drawn again once the database answers (a real pause: not game time).
            self._again_later(match_id, [], True, DATABASE_AGAIN_SECONDS)
            if through is not None:
                self.presses.put_back(match_id, through)  # that edit still answers it
                through = None
        except discord.HTTPException as error:
            log.warning("match %s: Discord refused the board edit: %s", match_id, error)
        except Exception:
            log.exception("match %s: could not update the board", match_id)
        finally:
            self._editing.discard(match_id)
            if through is not None and not through.answered:
                # The board where it was pressed does not show the move (moved, posted
                # again, refused): the presser is told privately, as on the DM panel.
                self._aside(_note_privately(through.interaction, through.note))

    def _again_later(
        self, match_id: int, events: list[MatchEvent], board: bool, seconds: float
    ) -> None:
        """Queue ``events`` (and a board edit) again after ``seconds``, unless the bot is
        shutting down: then they stay in the outbox for the next start."""

        def again() -> None:
            if self.places.retrier.closing:
                return
            presenter = self._presenter(match_id)
            presenter.events.extend(events)
            presenter.board_asked |= board
            self._run(presenter)

        if not self.places.retrier.closing:
            asyncio.get_running_loop().call_later(seconds, again)

    def _aside(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background, waited for by :meth:`wait_idle`."""
        task = asyncio.create_task(work)
        self._side_tasks.add(task)
        task.add_done_callback(self._side_tasks.discard)


async def _note_privately(interaction: discord.Interaction[Any], note: str) -> None:
    """A private followup to a press (exempt from the global rate limit); lost only if
    Discord refuses it, which leaves the board as the answer."""
    try:
        await interaction.followup.send(note, ephemeral=True)
    except discord.HTTPException as error:
        log.info("could not send a press its private note: %s", error)


async def _in_background(work: Coroutine[Any, Any, None]) -> None:
    """`work`, its requests waiting for Discord's pace behind those a player waits for."""
    with requests_for(Urgency.BACKGROUND):
        await work
