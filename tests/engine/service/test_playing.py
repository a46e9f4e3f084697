"""Playing through the service: decisions, views, public events, results."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine.model import UserSettings
from engine.rules.decisions import Secret, TradeOff
from engine.rules.errors import IllegalDecision
from engine.rules.notation import HiddenAction
from engine.rules.outcome import Termination
from engine.rules.record import MatchRecord, replay
from engine.rules.views import PlayerView
from engine.service import (
    AI_USER_ID,
    ChoiceNeeded,
    DecisionApplied,
    MatchEnded,
    MatchNotActive,
    NotYourMatch,
    NotYourTurn,
    RoundScored,
)

from .conftest import Recorder, new_match, play_one, play_to_end


def _hidden_cards_in(value: object) -> list[object]:
    """Every Secret or Trade-off decision reachable inside an event."""
    if isinstance(value, Secret | TradeOff):
        return [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [
            found
            for f in dataclasses.fields(value)
            for found in _hidden_cards_in(getattr(value, f.name))
        ]
    if isinstance(value, tuple | list):
        return [found for item in value for found in _hidden_cards_in(item)]
    return []


async def test_a_whole_match_between_humans_publishes_only_public_information(make_service):
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    match = await new_match(service)

    decisions = await play_to_end(service, match.match_id, random.Random(1))

    await service.wait_idle()
    applied = recorder.of(DecisionApplied)
    assert [e.version for e in applied] == list(range(1, decisions + 1))
    assert all(_hidden_cards_in(e) == [] for e in recorder.events)
    hidden = [e for e in applied if isinstance(e.move.action, HiddenAction)]
    assert hidden and all(str(e.move) in ("1X", "2XX") for e in hidden)
    ended = recorder.of(MatchEnded)
    assert len(ended) == 1 and recorder.events[-1] == ended[0]
    scored = recorder.of(RoundScored)
    assert len(scored) == ended[0].outcome.rounds_played
    assert all(None not in e.result.secrets for e in scored)


async def test_an_offer_asks_the_opponent_to_choose(make_service):
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    match = await new_match(service)
    rng = random.Random(4)
    while not recorder.of(ChoiceNeeded):
        await play_one(service, match.match_id, rng)
        await service.wait_idle()
    needed = recorder.of(ChoiceNeeded)[0]
    offered = recorder.of(DecisionApplied)[-1]
    assert offered.move.action == needed.offer and offered.move.choice is None
    assert needed.user_id == match.players[needed.player] and needed.player != offered.player
    chooser_view = await service.queries.view_for(match.match_id, needed.user_id)
    assert chooser_view.to_decide and chooser_view.table.pending == needed.offer


async def test_the_finished_match_is_kept_with_its_replayable_record(make_service, clock):
    service = await make_service()
    match = await new_match(service)
    await clock.advance(30, settle=service.wait_idle)
    await play_to_end(service, match.match_id, random.Random(2))
    table = await service.queries.public_view(match.match_id)

    [result] = await service.queries.finished_matches(user_id=101)
    assert result.match_id == match.match_id and result.players == (101, 202)
    assert result.winner_id == match.players[table.outcome.winner]
    assert result.reason is table.outcome.termination
    assert result.rounds == table.outcome.rounds_played
    assert result.duration_seconds == pytest.approx(30)
    replayed = replay(MatchRecord.from_json(result.record))
    assert replayed.outcome == table.outcome
    assert replayed.results[-1].favor == table.rounds[-1].favor
    # The end of a match still shows to both players.
    assert (await service.queries.view_for(match.match_id, 202)).table.outcome == table.outcome


async def test_only_the_two_players_act_and_only_in_turn(service):
    match = await new_match(service)
    table = await service.queries.public_view(match.match_id)
    mover = match.players[table.current_player]
    waiting = match.players[1 - table.current_player]
    mover_view = await service.queries.view_for(match.match_id, mover)
    decision = mover_view.legal[0]

    with pytest.raises(NotYourMatch, match=f"user 999 cannot act in match {match.match_id}"):
        await service.commands.submit(match.match_id, 999, decision, 0)
    with pytest.raises(NotYourMatch):
        await service.queries.view_for(match.match_id, 999)
    with pytest.raises(NotYourTurn, match=f"not user {waiting}'s turn"):
        await service.commands.submit(match.match_id, waiting, decision, 0)
    with pytest.raises(NotYourMatch):
        await service.commands.resign(match.match_id, 999)
    assert (await service.queries.public_view(match.match_id)).version == 0


async def test_an_illegal_decision_passes_through_unchanged_and_changes_nothing(service):
    match = await new_match(service)
    table = await service.queries.public_view(match.match_id)
    mover = match.players[table.current_player]
    seen: PlayerView = await service.queries.view_for(match.match_id, mover)
    missing = next(card for card in range(7) if card not in seen.hand)

    with pytest.raises(IllegalDecision, match="holds no"):
        await service.commands.submit(match.match_id, mover, Secret(missing), 0)
    assert await service.queries.view_for(match.match_id, mover) == seen


async def test_resigning_ends_the_match_for_the_opponent(make_service):
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    match = await new_match(service)

    outcome = await service.commands.resign(match.match_id, 202)

    assert outcome.winner == 0 and outcome.termination is Termination.RESIGNATION
    with pytest.raises(MatchNotActive, match="finished"):
        await service.commands.resign(match.match_id, 101)
    [result] = await service.queries.finished_matches(guild_id=1)
    assert result.winner_id == 101
    assert MatchRecord.from_json(result.record).ended is not None
    await service.wait_idle()
    assert recorder.of(MatchEnded)[0].winner_id == 101


async def test_the_ai_plays_its_own_turns_and_they_are_published(make_service):
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    match = await service.commands.start_ai_match(101, "normal", guild_id=1, channel_id=2)

    await play_to_end(service, match.match_id, random.Random(5))

    await service.wait_idle()
    ai_moves = [e for e in recorder.of(DecisionApplied) if e.user_id == AI_USER_ID]
    assert ai_moves and not any(e.automatic for e in ai_moves)
    assert recorder.of(MatchEnded)[0].players == (101, AI_USER_ID)
    [result] = await service.queries.finished_matches(user_id=101)
    assert result.ai_level == "normal"


async def test_the_match_in_a_channel_or_thread_is_found_for_its_player(service):
    match = await new_match(service)
    assert (await service.queries.active_match_for(101, 2)).match_id == match.match_id
    assert await service.queries.active_match_for(101, 3) is None
    assert await service.queries.active_match_for(303, 2) is None

    moved = await service.placements.set_location(match.match_id, thread_id=77, board_message_id=88)

    assert (moved.placement.thread_id, moved.placement.board_message_id) == (77, 88)
    assert (await service.queries.active_match_for(202, 77)).match_id == match.match_id
    assert (await service.placements.match_in_thread(77)).match_id == match.match_id
    await service.commands.resign(match.match_id, 101)
    assert await service.placements.match_in_thread(77) is None


async def test_a_match_that_is_over_can_still_be_placed(service):
    """Its start may be shown only after its end (the bot was down meanwhile)."""
    match = await new_match(service)
    await service.commands.resign(match.match_id, 101)
    placed = await service.placements.set_location(match.match_id, board_message_id=99)
    assert placed.placement.board_message_id == 99
    assert (await service.queries.match_info(match.match_id)).placement.board_message_id == 99


async def test_a_challenge_accepted_before_its_message_is_known_keeps_a_clear_board(service):
    """A quick Accept can come before the bot has learnt its challenge message's id: that
    late id must not become the started match's board (it would get no thread of its own)."""
    challenge = await service.challenges.challenge(101, 202, guild_id=1, channel_id=2)
    await service.placements.set_challenge_message(challenge.match_id, 98)
    pending = await service.queries.match_info(challenge.match_id)
    assert pending.placement.board_message_id == 98
    await service.challenges.accept(challenge.match_id, 202)
    await service.placements.set_challenge_message(challenge.match_id, 99)
    started = await service.queries.match_info(challenge.match_id)
    assert started.placement.board_message_id is None
    stored = await service.store.get_match(challenge.match_id)
    assert stored is not None and stored.placement.board_message_id is None


async def test_user_settings_are_kept_and_dms_are_opt_in(service):
    assert (await service.settings.user_settings(101)).dm_notifications is False
    await service.settings.set_user_settings(UserSettings(101, dm_notifications=True))
    assert (await service.settings.user_settings(101)).dm_notifications is True
    await service.settings.set_user_settings(UserSettings(101, dm_notifications=False))
    assert (await service.settings.user_settings(101)).dm_notifications is False


async def test_a_submission_answers_with_what_its_player_now_sees(make_service):
    """The panel after a move is drawn from the service's answer, without a read."""
    service = await make_service()
    match = await new_match(service)
    rng = random.Random(12)
    for _ in range(8):
        info = await service.queries.match_info(match.match_id)
        seat = (await service.queries.public_view(match.match_id)).current_player
        assert seat is not None
        result = await play_one(service, match.match_id, rng)
        assert result.view == await service.queries.view_for(match.match_id, info.players[seat])
        assert result.view is not None and result.view.table.version == result.version
