"""The outbox: what the public must be told is stored with the change that causes it and
published again at start-up until the Discord layer confirms it was shown."""

from __future__ import annotations

import random

import pytest

from engine.service.event_codec import EventCodecError, decode, encode
from engine.service.events import (
    ChallengeExpired,
    ChallengeIssued,
    ChoiceNeeded,
    DecisionApplied,
    MatchEnded,
    MatchStarted,
    Reminder,
    RoundScored,
)
from engine.service.outbox import announcement_key
from engine.store.errors import StorageFull
from tests.engine.store.disk_space import fill_the_disk

from .conftest import Recorder, new_match, play_one


async def play_out(service, match, rng) -> None:
    while (await service.queries.public_view(match.match_id)).outcome is None:
        await play_one(service, match.match_id, rng)


async def test_every_event_of_whole_matches_reads_back_as_it_was(make_service, clock):
    recorder = Recorder()
    service = await make_service(recorder=recorder, reminder_before_seconds=300.0)
    rng = random.Random(5)
    for n in range(3):
        await play_out(service, await new_match(service, 101 + n, 202 + n), rng)
    await service.commands.challenge(401, 402, guild_id=1, channel_id=2)
    await new_match(service, 501, 502)
    await clock.advance(900, settle=service.wait_idle)  # a reminder, a timeout, an expiry
    await service.commands.resign((await new_match(service, 601, 602)).match_id, 601)
    await service.wait_idle()

    kinds = {type(event) for event in recorder.events}
    assert {MatchStarted, DecisionApplied, ChoiceNeeded, RoundScored, MatchEnded} <= kinds
    assert {Reminder, ChallengeExpired} <= kinds
    for event in recorder.events:
        assert decode(event.match_id, encode(event)) == event
        assert "match_id" not in encode(event)  # the outbox row holds it


def test_a_body_that_does_not_decode_is_a_typed_error_quoting_it():
    with pytest.raises(EventCodecError, match="Nonsense"):
        decode(1, '{"kind": "Nonsense"}')
    with pytest.raises(EventCodecError, match="offer"):
        body = '{"kind": "ChoiceNeeded", "player": 0, "user_id": 2, "offer": "1A", "version": 3}'
        decode(1, body)


async def test_what_was_not_shown_is_published_again_in_order_then_the_match_resumes(
    make_service,
):
    unseen = Recorder(confirms=False)  # the bot died before showing anything
    first = await make_service(recorder=unseen)
    match = await new_match(first)
    rng = random.Random(2)
    for _ in range(6):
        await play_one(first, match.match_id, rng)
    await first.wait_idle()
    await first.close()
    announced = [e for e in unseen.events if announcement_key(e) is not None]
    assert not any(isinstance(e, ChallengeIssued) for e in announced)

    again = Recorder()
    second = await make_service(recorder=again)
    await second.wait_idle()
    assert again.events == announced
    assert [r.match_id for r in again.resumed] == [match.match_id]
    await second.close()

    third_time = Recorder()
    third = await make_service(recorder=third_time)
    await third.wait_idle()
    assert third_time.events == [], "shown and confirmed: never again"
    assert [r.match_id for r in third_time.resumed] == [match.match_id]


async def test_only_the_unconfirmed_announcements_come_back(make_service):
    class ShowsAllButRoundSummaries(Recorder):
        async def __call__(self, event):
            self.events.append(event)
            if not isinstance(event, RoundScored) and self.service is not None:
                self.service.announced(event)

    partly = ShowsAllButRoundSummaries()
    first = await make_service(recorder=partly)
    await play_out(first, await new_match(first), random.Random(4))
    await first.wait_idle()
    await first.close()

    again = Recorder()
    second = await make_service(recorder=again)
    await second.wait_idle()
    assert again.events == partly.of(RoundScored) and again.events


async def test_a_refused_write_leaves_no_announcement_behind(make_service):
    unseen = Recorder(confirms=False)
    service = await make_service(recorder=unseen)
    matches = [await new_match(service, 101 + n, 202 + n) for n in range(20)]
    await fill_the_disk(service.store)
    rng = random.Random(3)
    refused = None
    for match in matches:
        try:
            await play_out(service, match, rng)
        except StorageFull:
            refused = match
            break
    assert refused is not None, "the disk never filled up"
    version = (await service.queries.public_view(refused.match_id)).version
    stored = {(a.match_id, a.key) for a in await service.store.undelivered()}
    assert (refused.match_id, f"decision@{version}") in stored or version == 0
    assert (refused.match_id, f"decision@{version + 1}") not in stored
