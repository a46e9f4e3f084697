"""The bot's own pace under Discord's global limit, and its retries of public messages."""

import asyncio

import aiohttp
import discord
import pytest
import yarl

from bot.discord_plumbing.retrier import Retrier, is_transient
from bot.request_pacing import RequestPacer, counts_against_global_limit


async def test_no_second_holds_more_requests_than_the_pace():
    pacer = RequestPacer(per_second=20)
    loop = asyncio.get_running_loop()
    sends: list[float] = []

    async def request(index: int) -> None:
        await pacer.wait_turn()
        await asyncio.sleep(0.05 * (index % 3))  # a busy loop sends some later than others
        sends.append(loop.time())
        pacer.sent()

    await asyncio.gather(*(request(i) for i in range(50)))
    assert len(sends) == 50
    busiest = max(sum(1 for t in sends if s <= t < s + 1.0) for s in sends)
    assert busiest <= 20
    assert max(sends) - min(sends) >= 2.0 - 0.01, "50 at 20 a second span over two seconds"


async def test_a_request_that_failed_before_leaving_gives_its_place_back():
    pacer = RequestPacer(per_second=2)
    await pacer.wait_turn()
    await pacer.wait_turn()
    pacer.dropped()
    await asyncio.wait_for(pacer.wait_turn(), timeout=0.5)
    assert pacer.waited == 0


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
    monkeypatch.setattr("bot.discord_plumbing.retrier.FIRST_PAUSE", 30.0)
    retrier = Retrier()
    attempts: list[int] = []

    async def send() -> None:
        attempts.append(1)
        raise _http_error(429)

    task = asyncio.create_task(retrier.until_accepted("a line", send))
    await asyncio.sleep(0.05)
    retrier.close()
    with pytest.raises(discord.HTTPException):
        await asyncio.wait_for(task, timeout=2)
    assert len(attempts) == 2, "one more try when closing, then it gives up"
