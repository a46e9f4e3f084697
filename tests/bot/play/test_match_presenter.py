"""A match's events are shown in order and announced once shown; one that Discord could not
take yet is tried again, and announced only when it is shown; several events queued
together cost one read of the match and one board edit."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest

from bot.play import match_presenter
from bot.play.match_presenter import MatchPresenters
from bot.play.presence import Presence
from bot.request_pacing import RequestPacer, Urgency, withdrawable
from engine.model import MatchStatus, Placement
from engine.rules.notation import parse_move
from engine.service import MatchNow
from engine.service.events import DecisionApplied, NextTurn, Reminder
from engine.store.errors import DatabaseUnavailable
from tests.builders import match_info, played_match


def server_error() -> discord.HTTPException:
    response = SimpleNamespace(status=503, reason="Service Unavailable")
    return discord.DiscordServerError(response, "down")  # type: ignore[arg-type]


def refused() -> discord.HTTPException:
    response = SimpleNamespace(status=403, reason="Forbidden")
    return discord.Forbidden(response, {"code": 50013, "message": "Missing Permissions"})  # type: ignore[arg-type]


HANG_GUARD_SECONDS = 120.0
"""Only to fail rather than hang when an event is never shown again."""

_, TABLES = played_match(3)
REMINDER = Reminder(match_id=7, player=0, user_id=11, deadline=0.0, version=3)


async def ready() -> None:
    pass


class Thread:
    """The match service's queries and what the thread shows, faked: the match stays at
    version 3; ``failures`` are raised by the next posts, one each."""

    def __init__(self, *failures: BaseException) -> None:
        self.failures = list(failures)
        self.reads = 0
        self.posts: list[object] = []
        self.edits = 0
        self.edited_through: list[object] = []
        """Per board edit, the press it was to go through (None: as usual)."""
        self.announced: list[object] = []
        self.posting = asyncio.Event()
        info = match_info(7, (11, 12), MatchStatus.ACTIVE, placement=Placement(1, 2))
        self.now = MatchNow(info, replace(TABLES[0], version=3))
        self.shared = False

    async def match_now(self, match_id: int) -> MatchNow:
        self.reads += 1
        return self.now

    async def post(self, info: object, step: object) -> None:
        if self.failures:
            raise self.failures.pop(0)
        self.posts.append(step)
        self.posting.set()

    async def edit_board(self, info: object, public: object, through: Any = None) -> bool:
        self.edits += 1
        self.edited_through.append(None if through is None else through.interaction)
        if through is not None:
            through.answered = True  # the board where it was pressed shows the move
        return True

    def presenters(self, pacer: RequestPacer | None = None) -> MatchPresenters:
        places = SimpleNamespace(retrier=SimpleNamespace(closing=False), pacer=pacer)

        async def panel(info: object, user_id: int) -> None:
            pass

        shown = MatchPresenters(
            self,  # type: ignore[arg-type]
            None,  # type: ignore[arg-type]
            None,  # type: ignore[arg-type]
            None,  # type: ignore[arg-type]
            None,  # type: ignore[arg-type]
            places,  # type: ignore[arg-type]
            Presence(),
            notify=panel,
            retire_panel=panel,
            announced=self.announced.append,
            ready=ready,
        )
        shown._posts.post = self.post  # type: ignore[method-assign]
        shown._board.edit_board = self.edit_board  # type: ignore[method-assign]
        return shown

    async def next_post(self, presenters: MatchPresenters) -> None:
        """Until something is posted (again), and the presenter has announced it."""
        self.posting.clear()
        async with asyncio.timeout(HANG_GUARD_SECONDS):
            await self.posting.wait()
        await presenters.wait_idle()


async def _paced_presenters(
    now: list[float],
) -> tuple[Thread, MatchPresenters, RequestPacer, list[asyncio.Event], list[DecisionApplied]]:
    """A match's presenters whose board edits wait for a pacer of one request a second,
    its only place on its way; each edit sets its event once it waits for the pace; two
    moves of the match to show."""
    pacer = RequestPacer(per_second=1, clock=lambda: now[0])
    await pacer.wait_turn()  # the only place: on its way
    thread = Thread()
    asking = [asyncio.Event(), asyncio.Event()]  # each edit, once it waits for the pace

    async def edit_board(info: object, public: object, through: object = None) -> bool:
        with withdrawable():  # as the board editor sends its edit
            asking[thread.reads - 1].set()  # in line as soon as it asks: no turn between
            await pacer.wait_turn()
        thread.edits += 1
        return True

    presenters = thread.presenters(pacer)
    presenters._board.edit_board = edit_board  # type: ignore[method-assign]
    facts = NextTurn(1, 12, round_ended=False, offer_open=False)
    moves = [
        DecisionApplied(7, 0, 11, parse_move("1X", allow_hidden=True), 3, False, None, facts),
        DecisionApplied(7, 1, 12, parse_move("1X", allow_hidden=True), 3, False, None, facts),
    ]
    return thread, presenters, pacer, asking, moves


async def test_a_board_edit_still_waiting_for_the_pace_gives_way_to_the_next_moves_edit():
    now = [100.0]
    thread, presenters, pacer, asking, moves = await _paced_presenters(now)
    await presenters.on_event(moves[0])
    await asyncio.wait_for(asking[0].wait(), HANG_GUARD_SECONDS)
    await presenters.on_event(moves[1])
    # Withdrawn, the first edit gives way: the match is read again, and one edit asks.
    await asyncio.wait_for(asking[1].wait(), HANG_GUARD_SECONDS)
    assert pacer.waiting() == 1, "the withdrawn edit left the line; the new one waits"
    pacer.finished()
    now[0] += 1.0
    pacer.release_due()
    await presenters.wait_idle()
    assert thread.edits == 1, "one edit shows both moves"
    assert pacer.withdrawn == 1
    assert thread.announced == moves


async def test_the_edit_that_replaces_a_withdrawn_one_goes_before_boards_asked_after_it():
    now = [100.0]
    thread, presenters, pacer, asking, moves = await _paced_presenters(now)
    await presenters.on_event(moves[0])  # its edit asks at 100
    await asyncio.wait_for(asking[0].wait(), HANG_GUARD_SECONDS)
    now[0] = 101.0
    other_went = asyncio.Event()

    async def other_board() -> None:
        await pacer.wait_turn(Urgency.BOARD)
        other_went.set()

    other = asyncio.create_task(other_board())  # another match's board, asked at 101
    for _ in range(3):
        await asyncio.sleep(0)
    now[0] = 102.0
    await presenters.on_event(moves[1])  # withdraws the first edit; its replacement asks
    await asyncio.wait_for(asking[1].wait(), HANG_GUARD_SECONDS)
    pacer.finished()
    now[0] += 1.0
    pacer.release_due()  # one place: for the edit that asked first
    for _ in range(5):
        await asyncio.sleep(0)
    assert thread.edits == 1, "the replacement kept the place asked at 100"
    assert not other_went.is_set(), "the board asked at 101 still waits"
    pacer.finished()
    now[0] += 1.0
    pacer.release_due()
    await asyncio.wait_for(other, HANG_GUARD_SECONDS)
    await presenters.wait_idle()


async def test_events_shown_are_announced_once_in_order():
    thread = Thread()
    presenters = thread.presenters()
    second = replace(REMINDER, deadline=60.0)
    await presenters.on_event(REMINDER)
    await presenters.on_event(second)
    await presenters.wait_idle()
    assert [step.lines[0].deadline for step in thread.posts] == [0.0, 60.0]
    assert thread.announced == [REMINDER, second]


async def test_moves_queued_together_cost_one_read_and_one_board_edit():
    thread = Thread()
    presenters = thread.presenters()
    facts = NextTurn(1, 12, round_ended=False, offer_open=False)
    moves = [
        DecisionApplied(7, 0, 11, parse_move("1X", allow_hidden=True), 3, False, None, facts),
        DecisionApplied(7, 0, 11, parse_move("1X", allow_hidden=True), 3, False, None, facts),
    ]
    for move in moves:
        await presenters.on_event(move)
    await presenters.wait_idle()
    assert (thread.reads, thread.edits) == (1, 1)
    assert thread.announced == moves


def take_event(version: int) -> DecisionApplied:
    facts = NextTurn(0, 11, round_ended=False, offer_open=False)
    return DecisionApplied(
        7, 1, 12, parse_move("1X", allow_hidden=True), version, False, None, facts
    )


async def test_the_board_edit_that_shows_a_take_goes_through_the_press_on_the_board():
    thread = Thread()  # the match reads at version 3
    presenters = thread.presenters()
    press = object()  # the Take's interaction, pressed on the board of version 2
    presenters.presses.leave(7, pressed_on=2, interaction=press, note="took")
    await presenters.on_event(take_event(3))
    await presenters.wait_idle()
    assert thread.edited_through == [press]
    # Used once: the next edit goes as usual.
    presenters.mark_board(7)
    await presenters.wait_idle()
    assert thread.edited_through == [press, None]


async def test_a_press_is_not_used_by_an_edit_of_the_board_it_was_pressed_on():
    thread = Thread()  # the match reads at version 3: the press has not moved it yet
    presenters = thread.presenters()
    press = object()
    presenters.presses.leave(7, pressed_on=3, interaction=press, note="took")
    presenters.mark_board(7)
    await presenters.wait_idle()
    assert thread.edited_through == [None]
    thread.now = replace(thread.now, public=replace(thread.now.public, version=4))
    await presenters.on_event(take_event(4))
    await presenters.wait_idle()
    assert thread.edited_through == [None, press], "kept for the edit that shows the move"


class Press:
    """A press's interaction: what it was sent privately."""

    def __init__(self) -> None:
        self.notes: list[tuple[str, bool]] = []
        self.followup = SimpleNamespace(send=self.send)

    async def send(self, content: str, *, ephemeral: bool) -> None:
        self.notes.append((content, ephemeral))


async def test_a_press_whose_board_does_not_show_the_move_gets_its_note_privately():
    thread = Thread()
    presenters = thread.presenters()
    press = Press()
    presenters.presses.leave(7, pressed_on=2, interaction=press, note="✅ You took C.")

    async def moved_elsewhere(info: object, public: object, through: Any = None) -> bool:
        return False  # the board moved to the channel: not the message pressed

    presenters._board.edit_board = moved_elsewhere  # type: ignore[method-assign]
    await presenters.on_event(take_event(3))
    await presenters.wait_idle()
    assert press.notes == [("✅ You took C.", True)]


async def test_a_press_whose_board_shows_the_move_gets_no_note():
    thread = Thread()
    presenters = thread.presenters()
    press = Press()
    presenters.presses.leave(7, pressed_on=2, interaction=press, note="✅ You took C.")
    await presenters.on_event(take_event(3))
    await presenters.wait_idle()
    assert thread.edited_through == [press] and press.notes == []


async def test_a_refused_press_leaves_the_board_edit_as_usual():
    thread = Thread()
    presenters = thread.presenters()
    press = object()
    presenters.presses.leave(7, pressed_on=2, interaction=press, note="took")
    presenters.presses.withdraw(7, press)  # the service refused the Take
    await presenters.on_event(take_event(3))
    await presenters.wait_idle()
    assert thread.edited_through == [None]


@pytest.mark.parametrize("failure", [server_error(), aiohttp.ClientConnectionError("reset")])
async def test_one_discord_could_not_take_is_tried_again_and_then_announced(monkeypatch, failure):
    monkeypatch.setattr(match_presenter, "SHOW_AGAIN_SECONDS", 0.01)
    thread = Thread(failure)
    presenters = thread.presenters()
    await presenters.on_event(REMINDER)
    await presenters.wait_idle()
    assert thread.announced == [], "not shown: not announced (a restart shows it too)"
    await thread.next_post(presenters)
    assert len(thread.posts) == 1 and thread.announced == [REMINDER]


async def test_one_discord_refuses_for_good_is_announced_and_not_tried_again(monkeypatch):
    monkeypatch.setattr(match_presenter, "SHOW_AGAIN_SECONDS", 0.01)
    thread = Thread(refused())
    presenters = thread.presenters()
    await presenters.on_event(REMINDER)
    await presenters.wait_idle()
    # A later event, put after the moment a retry would have been: the loop runs its
    # timers in order, so a retry would be queued (and shown) before it.
    later = replace(REMINDER, deadline=60.0)
    loop = asyncio.get_running_loop()
    pause = 2 * match_presenter.SHOW_AGAIN_SECONDS
    loop.call_later(pause, lambda: loop.create_task(presenters.on_event(later)))
    await thread.next_post(presenters)
    assert [step.lines[0].deadline for step in thread.posts] == [60.0]
    assert thread.announced == [REMINDER, later]


async def test_an_event_the_database_could_not_serve_is_shown_later_without_a_log_line(
    monkeypatch, caplog
):
    monkeypatch.setattr(match_presenter, "DATABASE_AGAIN_SECONDS", 0.01)
    thread = Thread(DatabaseUnavailable("db", "no answer in time"))
    presenters = thread.presenters()
    await presenters.on_event(REMINDER)
    await presenters.wait_idle()
    assert thread.announced == []
    await thread.next_post(presenters)
    assert len(thread.posts) == 1 and thread.announced == [REMINDER]
    # The store says once that the database is not answering; the presenter adds nothing.
    assert not [r for r in caplog.records if r.name.startswith("bot")], caplog.text
