"""The outbox: what the public must be told is stored with the change that causes it and
published again at start-up until the Discord layer confirms it was shown."""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import replace

import pytest

from engine.rules.decisions import Action
from engine.rules.outcome import MatchOutcome, Termination
from engine.service.announcing import outbox as outbox_module
from engine.service.announcing.addresses import announcement_key
from engine.service.announcing.event_bus import EventBus
from engine.service.announcing.event_codec import EventCodecError, decode, encode
from engine.service.announcing.outbox import Outbox
from engine.service.events import (
    ChallengeExpired,
    ChallengeIssued,
    ChoiceNeeded,
    DecisionApplied,
    MatchEnded,
    MatchResumed,
    MatchStarted,
    NextTurn,
    Reminder,
    RoundScored,
)
from engine.store.errors import StorageFull
from tests.engine.store.disk_space import fill_the_disk

from .conftest import Recorder, new_match, play_one

HANG_GUARD_SECONDS = 120.0
"""Only to fail rather than hang when the confirmations are never written."""


async def play_out(service, match, rng) -> None:
    while (await service.queries.public_view(match.match_id)).outcome is None:
        await play_one(service, match.match_id, rng)


async def test_every_event_of_whole_matches_reads_back_as_it_was(make_service, clock):
    recorder = Recorder()
    service = await make_service(recorder=recorder, reminder_before_seconds=300.0)
    rng = random.Random(5)
    for n in range(3):
        await play_out(service, await new_match(service, 101 + n, 202 + n), rng)
    await service.challenges.challenge(401, 402, guild_id=1, channel_id=2)
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


async def test_announcements_stored_before_the_turn_facts_existed_still_decode(make_service):
    """An outbox written by the version before DecisionApplied.next and
    RoundScored.next_starter: after an upgrade its rows still read, the new facts unknown."""
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    await play_out(service, await new_match(service), random.Random(8))
    await service.wait_idle()
    older = 0
    for event in recorder.of(DecisionApplied) + recorder.of(RoundScored):
        body = json.loads(encode(event))
        body.pop("next", None)
        body.pop("next_starter", None)
        blank = {"next": None} if isinstance(event, DecisionApplied) else {"next_starter": None}
        assert decode(event.match_id, json.dumps(body)) == replace(event, **blank)
        older += 1
    assert older > 10
    stored = (
        '{"kind":"DecisionApplied","player":1,"user_id":202,"move":"3EEG","version":7,'
        '"automatic":false,"turn_deadline":1700000300.0}'
    )
    old = decode(9, stored)
    assert isinstance(old, DecisionApplied) and old.next is None and str(old.move) == "3EEG"


async def test_a_decision_tells_who_decides_next_as_the_rules_say(make_service):
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    await play_out(service, await new_match(service), random.Random(9))
    await service.wait_idle()
    by_version: dict[tuple[type, int], object] = {
        (type(e), e.version): e for e in recorder.events if hasattr(e, "version")
    }
    seen = {"round_ended": 0, "offer_open": 0}
    for decision in recorder.of(DecisionApplied):
        facts = decision.next
        assert facts is not None
        scored = by_version.get((RoundScored, decision.version))
        choice = by_version.get((ChoiceNeeded, decision.version))
        assert facts.round_ended == (scored is not None)
        assert facts.offer_open == (choice is not None)
        if choice is not None:
            assert (facts.player, facts.user_id) == (choice.player, choice.user_id)
        if scored is not None and by_version.get((MatchEnded, decision.version)) is None:
            assert scored.next_starter == facts.player is not None
        seen["round_ended"] += facts.round_ended
        seen["offer_open"] += facts.offer_open
    assert seen["round_ended"] >= 2 and seen["offer_open"] >= 2
    ended = recorder.of(MatchEnded)[0]
    last = recorder.of(DecisionApplied)[-1]
    assert last.version == ended.version and last.next == NextTurn(None, None, True, False)


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
    if version:  # the decision before the refused one is there, and nothing of that one
        assert (refused.match_id, f"decision@{version}") in stored
    assert (refused.match_id, f"decision@{version + 1}") not in stored
    assert (refused.match_id, "started") in stored


def test_a_boolean_is_not_read_as_a_number():
    with pytest.raises(EventCodecError):
        decode(1, '{"kind": "MatchResumed", "version": true}')


async def test_stored_announcements_hold_no_hidden_card(make_service):
    """Secrets and Trade-offs are stored as the public sees them (1X, 2XX) until scored."""
    unseen = Recorder(confirms=False)
    service = await make_service(recorder=unseen)
    rng = random.Random(8)
    for n in range(3):
        await play_out(service, await new_match(service, 101 + n, 202 + n), rng)
    stored = [decode(a.match_id, a.body) for a in await service.store.undelivered()]
    moves = [e.move for e in stored if isinstance(e, DecisionApplied)]
    hidden = [m for m in moves if m.action.action in (Action.SECRET, Action.TRADE_OFF)]
    assert hidden and {str(m) for m in hidden} == {"1X", "2XX"}
    assert all("removed" not in a.body for a in await service.store.undelivered())


async def test_confirmations_that_could_not_be_written_are_written_later(monkeypatch, caplog):
    """A full disk refuses the confirmations for a while: they are kept and written once
    it takes them, with one log line, so nothing is shown twice after a restart."""
    monkeypatch.setattr(outbox_module, "CONFIRM_RETRY_SECONDS", 0.01)

    class RefusesTwice:
        def __init__(self) -> None:
            self.refusals = 2
            self.written: list[tuple[int, str]] = []
            self.writing = asyncio.Event()

        async def announced(self, delivered):
            if self.refusals:
                self.refusals -= 1
                raise StorageFull("database or disk is full")
            self.written += delivered
            self.writing.set()

    store = RefusesTwice()
    outbox = Outbox(store, EventBus())  # type: ignore[arg-type]
    outbox.announced(MatchResumed(1, 0))  # not an announcement: nothing to confirm
    outbox.announced(Reminder(1, 0, 11, 0.0, 4))
    outbox.announced(MatchEnded(2, (11, 12), MatchOutcome(0, Termination.CHARM, 2), 11, 30))
    async with asyncio.timeout(HANG_GUARD_SECONDS):
        await store.writing.wait()
    assert store.written == [(1, "reminder@4"), (2, "ended")]
    assert len([r for r in caplog.records if "could not record" in r.getMessage()]) == 1
