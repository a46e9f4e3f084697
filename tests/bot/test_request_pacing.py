"""The bot's own pace under Discord's global limit, and its retries of public messages."""

import asyncio
import bisect
import heapq
import random

import aiohttp
import discord
import pytest
import yarl
from aiohttp import web

from bot.discord_plumbing.retrier import Retrier, is_transient
from bot.request_pacing import (
    SLACK_SECONDS,
    PaceWindow,
    RequestPacer,
    Urgency,
    WaitingLine,
    Withdrawn,
    counts_against_global_limit,
    current_urgency,
    pacing_trace,
    requests_for,
    withdrawable,
)

HANG_GUARD_SECONDS = 120.0
"""Only to fail rather than hang: what a test waits for comes at once, however busy the
machine is."""


def _played(window: PaceWindow, delays: random.Random, requests: int) -> list[float]:
    """When Discord counts each of `requests` started as soon as `window` lets them, each
    arriving 0–300 ms after it starts and answered 0–300 ms after that (a stalled loop, a
    slow network): a simulation on the window's own times, no clock involved."""
    arrivals: list[float] = []
    answers: list[float] = []  # a heap of answer times of requests on their way
    now = 0.0
    for _ in range(requests):
        while not window.take(now):
            free_at = window.next_free(now)
            if free_at is None or (answers and answers[0] <= free_at):
                now = max(now, heapq.heappop(answers))
                window.finished(now)
            else:
                now = free_at
        arrival = now + delays.uniform(0.0, 0.3)
        arrivals.append(arrival)
        heapq.heappush(answers, arrival + delays.uniform(0.0, 0.3))
        # answers due by now come back before the next request starts
        while answers and answers[0] <= now:
            window.finished(heapq.heappop(answers))
    return sorted(arrivals)


def _busiest_second(arrivals: list[float]) -> int:
    """The most arrivals in any window of one second (Discord's, wherever it opens)."""
    return max(bisect.bisect_left(arrivals, t + 1.0) - i for i, t in enumerate(arrivals))


@pytest.mark.parametrize("seed", range(5))
def test_no_second_of_arrivals_holds_more_than_the_pace_however_late_they_arrive(seed):
    arrivals = _played(PaceWindow(per_second=45), random.Random(seed), requests=500)
    assert _busiest_second(arrivals) <= 45
    assert arrivals[-1] - arrivals[0] >= 10.0, "500 at 45 a second span over ten seconds"


def test_a_place_frees_a_second_after_its_answer_not_after_its_start():
    window = PaceWindow(per_second=2)
    assert window.take(0.0) and window.take(0.0)
    assert window.next_free(0.5) is None, "both on their way: only an answer tells"
    window.finished(0.8)
    assert not window.take(1.5), "started at 0 but answered at 0.8: held until 1.8"
    assert window.next_free(1.5) == pytest.approx(1.8)
    assert window.take(1.8)


async def test_a_waiting_request_starts_once_a_place_frees():
    clock = FixedClock()
    pacer = RequestPacer(per_second=1, clock=clock)
    await pacer.wait_turn()
    waiting = asyncio.create_task(pacer.wait_turn())
    await _settle()
    assert not waiting.done(), "the only place is on its way"
    pacer.finished()
    await _settle()
    assert not waiting.done(), "the place is held a second after its answer"
    clock.now += 1.0
    pacer.release_due()
    await _settle()
    assert waiting.done()
    assert pacer.waited == 1


async def test_a_request_holds_its_place_from_its_start_until_after_its_answer():
    now = [100.0]  # time stands still unless the test moves it
    pacer = RequestPacer(per_second=5, clock=lambda: now[0])
    held_while_answering: list[int] = []

    async def answer(request: web.Request) -> web.Response:
        held_while_answering.append(pacer.held())
        return web.json_response({})

    app = web.Application()
    app.router.add_route("*", "/api/v10/{tail:.*}", answer)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    base = f"http://127.0.0.1:{runner.addresses[0][1]}/api/v10"
    try:
        async with aiohttp.ClientSession(trace_configs=[pacing_trace(pacer)]) as session:
            async with session.put(f"{base}/channels/1/thread-members/2") as response:
                assert response.status == 200
            assert pacer.held() == 1, "answered, but Discord may count it for a second yet"
            async with session.post(f"{base}/interactions/1/token/callback", json={}):
                pass
            assert pacer.held() == 1, "an interaction callback takes no place"
            now[0] = 101.0  # a second after its answer
            assert pacer.held() == 0
    finally:
        await runner.cleanup()
    assert held_while_answering == [1, 1]


class FixedClock:
    """Seconds that move only when the test moves them."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def _ask(pacer: RequestPacer, urgency: Urgency, went: list[str], name: str) -> None:
    await pacer.wait_turn(urgency)
    went.append(name)


async def _settle() -> None:
    """Let the tasks that were given their turn run (a turn of the loop, no time passes)."""
    for _ in range(3):
        await asyncio.sleep(0)


async def _full_pacer(clock: FixedClock, per_second: int = 1) -> RequestPacer:
    """A pacer whose every place is held by a request on its way."""
    pacer = RequestPacer(per_second=per_second, clock=clock)
    for _ in range(per_second):
        await pacer.wait_turn(Urgency.BOARD)
    return pacer


async def _free_one_place(pacer: RequestPacer, clock: FixedClock) -> None:
    """One request on its way is answered, and a second later its place frees."""
    pacer.finished()
    clock.now += 1.0
    pacer.release_due()
    await _settle()


async def test_a_board_a_player_waits_for_goes_before_a_dm_that_asked_first():
    clock = FixedClock()
    pacer = await _full_pacer(clock)
    went: list[str] = []
    dm = asyncio.create_task(_ask(pacer, Urgency.BACKGROUND, went, "DM"))
    await _settle()
    clock.now += 0.5
    board = asyncio.create_task(_ask(pacer, Urgency.BOARD, went, "board"))
    await _settle()
    assert went == [], "no place is free yet"
    await _free_one_place(pacer, clock)
    assert went == ["board"]
    await _free_one_place(pacer, clock)
    assert went == ["board", "DM"]
    await asyncio.gather(dm, board)


async def test_a_request_waits_no_longer_than_its_slack_behind_more_urgent_ones():
    clock = FixedClock()
    pacer = await _full_pacer(clock)
    went: list[str] = []
    tasks = [asyncio.create_task(_ask(pacer, Urgency.OPENING, went, "opening"))]
    await _settle()
    slack = SLACK_SECONDS[Urgency.OPENING]
    clock.now += slack - 0.1
    tasks.append(asyncio.create_task(_ask(pacer, Urgency.BOARD, went, "board within the slack")))
    await _settle()
    clock.now += 0.2
    tasks.append(asyncio.create_task(_ask(pacer, Urgency.BOARD, went, "board after the slack")))
    await _settle()
    for _ in tasks:
        await _free_one_place(pacer, clock)
    assert went == ["board within the slack", "opening", "board after the slack"]
    await asyncio.gather(*tasks)


async def test_requests_of_one_urgency_go_in_the_order_they_asked():
    clock = FixedClock()
    pacer = await _full_pacer(clock, per_second=2)
    went: list[str] = []
    names = [f"DM {i}" for i in range(6)]
    tasks = []
    for name in names:
        tasks.append(asyncio.create_task(_ask(pacer, Urgency.BACKGROUND, went, name)))
        await _settle()
    for second in range(1, 4):
        await _free_one_place(pacer, clock)
        await _free_one_place(pacer, clock)
        assert went == names[: 2 * second]
    await asyncio.gather(*tasks)


async def test_a_request_cancelled_while_it_waits_leaves_its_turn_to_the_next():
    clock = FixedClock()
    pacer = await _full_pacer(clock)
    went: list[str] = []
    given_up = asyncio.create_task(_ask(pacer, Urgency.BOARD, went, "given up"))
    await _settle()
    patient = asyncio.create_task(_ask(pacer, Urgency.BACKGROUND, went, "patient"))
    await _settle()
    given_up.cancel()
    await _settle()
    await _free_one_place(pacer, clock)
    assert went == ["patient"]
    assert pacer.held() == 1, "the one place went to the patient request, and only to it"
    await patient


async def test_a_waiting_line_never_lets_more_than_the_pace_go_in_a_second():
    clock = FixedClock()
    pacer = RequestPacer(per_second=3, clock=clock)
    went: list[str] = []
    urgencies = list(Urgency)
    tasks = [
        asyncio.create_task(_ask(pacer, urgencies[i % len(urgencies)], went, f"r{i}"))
        for i in range(12)
    ]
    await _settle()
    assert len(went) == 3, "three places, three requests on their way"
    for _ in range(3):
        pacer.finished()
    clock.now += 0.5
    pacer.release_due()
    await _settle()
    assert len(went) == 3, "answered, but their places are held a second after the answer"
    clock.now += 0.5
    pacer.release_due()
    await _settle()
    assert len(went) == 6
    for task in tasks:
        task.cancel()


async def test_requests_wait_as_the_urgency_of_the_task_that_makes_them():
    pacer = RequestPacer(per_second=5, clock=FixedClock())
    assert current_urgency() is Urgency.UNMARKED
    with requests_for(Urgency.BACKGROUND):
        await pacer.wait_turn()

        async def opening() -> None:
            with requests_for(Urgency.OPENING):
                await pacer.wait_turn()

        await asyncio.create_task(opening())
        await pacer.wait_turn()
    await pacer.wait_turn()
    counted = {urgency: tally.requests for urgency, tally in pacer.tallies.items()}
    assert counted == {
        Urgency.BOARD: 0,
        Urgency.UNMARKED: 1,
        Urgency.OPENING: 1,
        Urgency.BACKGROUND: 2,
    }


async def test_the_requests_of_one_errand_wait_their_slack_once_not_each():
    clock = FixedClock()
    pacer = await _full_pacer(clock)
    went: list[str] = []

    async def opening() -> None:
        with requests_for(Urgency.OPENING):
            await pacer.wait_turn()
            went.append("thread")
            await pacer.wait_turn()  # asks a moment later, as if with the thread
            went.append("opening's board")

    opened = asyncio.create_task(opening())
    await _settle()
    clock.now = 101.0
    boards = [asyncio.create_task(_ask(pacer, Urgency.BOARD, went, "board 1"))]
    await _settle()
    await _free_one_place(pacer, clock)
    await _free_one_place(pacer, clock)
    assert went == ["board 1", "thread"], "the thread waited its slack behind a board"
    # Past the opening's slack counted from its first request (at 100), not its second's.
    clock.now = 100.0 + SLACK_SECONDS[Urgency.OPENING] + 0.5
    boards.append(asyncio.create_task(_ask(pacer, Urgency.BOARD, went, "board 2")))
    await _settle()
    await _free_one_place(pacer, clock)
    await _free_one_place(pacer, clock)
    assert went == ["board 1", "thread", "opening's board", "board 2"]
    await asyncio.gather(opened, *boards)


async def test_only_a_withdrawable_request_still_waiting_is_withdrawn():
    clock = FixedClock()
    pacer = await _full_pacer(clock)

    async def edit() -> None:
        with withdrawable():
            await pacer.wait_turn(Urgency.BOARD)

    stale, plain = asyncio.create_task(edit()), asyncio.create_task(pacer.wait_turn())
    await _settle()
    assert not pacer.withdraw(plain), "not made withdrawable"
    assert pacer.withdraw(stale)
    with pytest.raises(Withdrawn):
        await stale
    await _free_one_place(pacer, clock)
    assert plain.done(), "the withdrawn edit left its turn to the next"
    given = asyncio.create_task(edit())
    await _free_one_place(pacer, clock)
    assert given.done() and not pacer.withdraw(given), "once it has a place it goes"
    assert pacer.withdrawn == 1


def test_a_waiting_line_orders_by_slack_then_by_who_asked_first():
    line: WaitingLine[str] = WaitingLine()
    line.join("dm", Urgency.BACKGROUND, asked=0.0)
    line.join("opening", Urgency.OPENING, asked=0.0)
    line.join("board 1", Urgency.BOARD, asked=2.0)
    line.join("unmarked", Urgency.UNMARKED, asked=2.0)
    line.join("board 2", Urgency.BOARD, asked=2.0)
    line.join("late board", Urgency.BOARD, asked=60.0)
    assert [line.pop() for _ in range(len(line))] == [
        "board 1",
        "unmarked",
        "board 2",
        "opening",
        "dm",
        "late board",
    ]


def test_a_pace_over_discords_limit_is_refused():
    with pytest.raises(ValueError, match="1–50: 51"):
        RequestPacer(per_second=51)


def test_interaction_answers_do_not_count_against_the_global_limit():
    api = "https://discord.com/api/v10"
    assert counts_against_global_limit(yarl.URL(f"{api}/channels/1/messages"))
    assert not counts_against_global_limit(yarl.URL(f"{api}/interactions/1/tok/callback"))
    assert not counts_against_global_limit(yarl.URL(f"{api}/webhooks/1/tok/messages/@original"))
    assert not counts_against_global_limit(yarl.URL("wss://gateway.discord.gg/?v=10"))


class _Response:
    """Just what discord.HTTPException reads of an aiohttp response."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "test"


def _http_error(status: int, code: int = 0) -> discord.HTTPException:
    return discord.HTTPException(_Response(status), {"message": "refused", "code": code})  # type: ignore[arg-type]


def test_rate_limits_and_discord_failures_are_worth_retrying_refusals_are_not():
    assert is_transient(_http_error(429))
    assert is_transient(_http_error(502))
    assert is_transient(aiohttp.ServerDisconnectedError())
    assert not is_transient(_http_error(403, 50013))
    assert not is_transient(_http_error(400, 50035))


async def test_a_message_refused_for_a_while_goes_through_once_discord_takes_it(monkeypatch):
    monkeypatch.setattr("bot.discord_plumbing.retrier.FIRST_PAUSE", 0.01)
    attempts: list[int] = []

    async def send() -> str:
        attempts.append(1)
        if len(attempts) < 4:
            raise _http_error(429)
        return "sent"

    assert await Retrier().until_accepted("a line", send) == "sent"
    assert len(attempts) == 4


async def test_a_refusal_for_good_is_not_retried():
    attempts: list[int] = []

    async def send() -> None:
        attempts.append(1)
        raise _http_error(403, 50013)

    with pytest.raises(discord.HTTPException):
        await Retrier().until_accepted("a line", send)
    assert len(attempts) == 1


async def test_closing_stops_the_retries(monkeypatch):
    # Longer than the hang guard: only closing can end the pause in time.
    monkeypatch.setattr("bot.discord_plumbing.retrier.FIRST_PAUSE", 10 * HANG_GUARD_SECONDS)
    retrier = Retrier()
    attempts: list[int] = []
    tried = asyncio.Event()

    async def send() -> None:
        attempts.append(1)
        tried.set()
        raise _http_error(429)

    task = asyncio.create_task(retrier.until_accepted("a line", send))
    await tried.wait()  # the first try was refused: the retrier is in its long pause
    retrier.close()
    with pytest.raises(discord.HTTPException):
        await asyncio.wait_for(task, timeout=HANG_GUARD_SECONDS)
    assert len(attempts) == 2, "one more try when closing, then it gives up"


async def test_a_request_given_its_turn_then_cancelled_holds_the_place_a_second_as_if_sent():
    clock = FixedClock()
    pacer = await _full_pacer(clock)
    went: list[str] = []
    cancelled = asyncio.create_task(_ask(pacer, Urgency.BOARD, went, "cancelled"))
    await _settle()
    pacer.finished()
    clock.now += 1.0
    pacer.release_due()  # its turn is given, and it is cancelled before it runs
    cancelled.cancel()
    await _settle()
    assert went == []
    assert pacer.held() == 1, "it may have gone out: its place is held a second more"
    clock.now += 1.0
    assert pacer.held() == 0, "and then given back: the pace does not shrink for good"


async def test_a_board_edit_that_replaces_a_withdrawn_one_keeps_its_place_in_line():
    clock = FixedClock()
    pacer = await _full_pacer(clock)
    went: list[str] = []
    clock.now = 101.0
    other = asyncio.create_task(_ask(pacer, Urgency.BOARD, went, "another match's board"))
    await _settle()

    async def replacement() -> None:
        with requests_for(Urgency.BOARD, asked_at=100.0):  # the withdrawn edit asked at 100
            await pacer.wait_turn()
        went.append("the replacing edit")

    clock.now = 102.0
    replacing = asyncio.create_task(replacement())
    await _settle()
    await _free_one_place(pacer, clock)
    assert went == ["the replacing edit"], "it asked at 100, before the other board (101)"
    await _free_one_place(pacer, clock)
    await asyncio.gather(other, replacing)
