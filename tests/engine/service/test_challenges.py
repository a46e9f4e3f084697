"""Challenges: issue, accept, decline, cancel, expire, and who may do what."""

from __future__ import annotations

import asyncio

import pytest

from engine.model import GuildSettings
from engine.rules.state import Variant
from engine.service import (
    AI_USER_ID,
    CannotChallengeSelf,
    ChallengeAccepted,
    ChallengeCancelled,
    ChallengeDeclined,
    ChallengeExpired,
    ChallengeIssued,
    ChallengeNotPending,
    InvalidRequest,
    MatchNotFound,
    MatchStarted,
    MatchStatus,
    NotYourMatch,
    TooManyActiveMatches,
)
from engine.service.events import ChallengeExpired as ExpiredEvent

from .conftest import START, Recorder


async def test_accepting_a_challenge_starts_the_match_with_a_recorded_first_player(make_service):
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    challenge = await service.challenges.challenge(101, 202, guild_id=1, channel_id=2)
    assert challenge.status is MatchStatus.PENDING
    assert challenge.challenge_expires_at == START + service.config.challenge_expiry_seconds

    match = await service.challenges.accept(challenge.match_id, 202)

    assert match.status is MatchStatus.ACTIVE
    assert match.first_player in (0, 1) and match.seed is not None
    table = await service.queries.public_view(match.match_id)
    assert table.version == 0 and table.current_player == match.first_player
    await service.wait_idle()
    kinds = [type(e) for e in recorder.events]
    assert kinds == [ChallengeIssued, ChallengeAccepted, MatchStarted]
    assert recorder.of(MatchStarted)[0].first_player == match.first_player


async def test_first_players_are_drawn_at_random(service):
    firsts = set()
    for opponent in range(300, 310):
        challenge = await service.challenges.challenge(101, opponent, guild_id=1, channel_id=2)
        firsts.add((await service.challenges.accept(challenge.match_id, opponent)).first_player)
        await service.commands.resign(challenge.match_id, opponent)
    assert firsts == {0, 1}


async def test_a_player_cannot_challenge_themselves(service):
    with pytest.raises(CannotChallengeSelf, match="user 101 cannot challenge themselves"):
        await service.challenges.challenge(101, 101, guild_id=1, channel_id=2)


async def test_only_the_challenged_user_accepts_or_declines(service):
    challenge = await service.challenges.challenge(101, 202, guild_id=1, channel_id=2)
    with pytest.raises(NotYourMatch, match="cannot accept your own challenge"):
        await service.challenges.accept(challenge.match_id, 101)
    with pytest.raises(NotYourMatch, match="user 303"):
        await service.challenges.accept(challenge.match_id, 303)
    with pytest.raises(NotYourMatch, match="only the challenged user can decline"):
        await service.challenges.decline(challenge.match_id, 101)
    with pytest.raises(NotYourMatch, match="only the challenger can cancel"):
        await service.challenges.cancel(challenge.match_id, 202)


async def test_decline_and_cancel_close_the_challenge(make_service):
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    declined = await service.challenges.challenge(101, 202, guild_id=1, channel_id=2)
    cancelled = await service.challenges.challenge(101, 303, guild_id=1, channel_id=2)

    assert (await service.challenges.decline(declined.match_id, 202)).status is MatchStatus.DECLINED
    assert (
        await service.challenges.cancel(cancelled.match_id, 101)
    ).status is MatchStatus.CANCELLED

    with pytest.raises(ChallengeNotPending, match=f"challenge {declined.match_id} .* declined"):
        await service.challenges.accept(declined.match_id, 202)
    assert await service.queries.open_matches_for(101) == []
    await service.wait_idle()
    assert len(recorder.of(ChallengeDeclined)) == 1
    assert len(recorder.of(ChallengeCancelled)) == 1


async def test_a_challenge_expires_after_the_configured_time(make_service, clock):
    recorder = Recorder()
    service = await make_service(recorder=recorder, challenge_expiry_seconds=300.0)
    challenge = await service.challenges.challenge(101, 202, guild_id=1, channel_id=2)

    await clock.advance(299, settle=service.wait_idle)
    assert recorder.of(ExpiredEvent) == []
    await clock.advance(1, settle=service.wait_idle)

    assert [e.match_id for e in recorder.of(ExpiredEvent)] == [challenge.match_id]
    assert (await service.queries.match_info(challenge.match_id)).status is MatchStatus.EXPIRED
    with pytest.raises(ChallengeExpired, match=f"challenge {challenge.match_id} has expired"):
        await service.challenges.accept(challenge.match_id, 202)


async def test_a_pending_challenge_expires_after_a_restart_at_its_original_time(
    make_service, clock
):
    first = await make_service(challenge_expiry_seconds=300.0)
    challenge = await first.challenges.challenge(101, 202, guild_id=1, channel_id=2)
    await clock.advance(200, settle=first.wait_idle)
    await first.close()

    recorder = Recorder()
    second = await make_service(recorder=recorder, challenge_expiry_seconds=300.0)
    await clock.advance(99, settle=second.wait_idle)
    assert recorder.of(ExpiredEvent) == []
    await clock.advance(1, settle=second.wait_idle)
    assert [e.match_id for e in recorder.of(ExpiredEvent)] == [challenge.match_id]


async def test_open_matches_are_limited_per_user(make_service):
    service = await make_service(max_active_matches=2)
    await service.challenges.challenge(101, 202, guild_id=1, channel_id=2)
    await service.commands.start_ai_match(101, "easy", guild_id=1, channel_id=2)
    with pytest.raises(TooManyActiveMatches, match="user 101 already has 2 open matches"):
        await service.challenges.challenge(101, 303, guild_id=1, channel_id=2)
    # A challenge user 101 receives waits (it does not count against their limit) ...
    received = await service.challenges.challenge(404, 101, guild_id=1, channel_id=2)
    # ... but they cannot accept it while at the limit, and it stays open for later.
    with pytest.raises(TooManyActiveMatches, match="user 101 already has 2 open matches"):
        await service.challenges.accept(received.match_id, 101)
    assert (await service.queries.match_info(received.match_id)).status is MatchStatus.PENDING


async def test_challenges_a_member_receives_do_not_fill_their_limit(make_service):
    service = await make_service(max_active_matches=2)
    for challenger in (301, 302, 303, 304, 305):
        await service.challenges.challenge(challenger, 101, guild_id=1, channel_id=2)
    # Five waiting challenges, and user 101 can still start a match of their own ...
    ai_match = await service.commands.start_ai_match(101, "easy", guild_id=1, channel_id=2)
    assert ai_match.status is MatchStatus.ACTIVE
    # ... and accept one of them, up to their limit of two open matches.
    received = await service.queries.open_matches_for(101)
    first, second = [m for m in received if m.status is MatchStatus.PENDING][:2]
    assert (await service.challenges.accept(first.match_id, 101)).status is MatchStatus.ACTIVE
    with pytest.raises(TooManyActiveMatches, match="user 101"):
        await service.challenges.accept(second.match_id, 101)
    # Once a match ends, there is room to accept again.
    await service.commands.resign(ai_match.match_id, 101)
    assert (await service.challenges.accept(second.match_id, 101)).status is MatchStatus.ACTIVE


async def test_simultaneous_accepts_cannot_slip_past_the_limit(make_service):
    service = await make_service(max_active_matches=2)
    challenges = [
        await service.challenges.challenge(500 + i, 101, guild_id=1, channel_id=2) for i in range(6)
    ]
    results = await asyncio.gather(
        *(service.challenges.accept(c.match_id, 101) for c in challenges), return_exceptions=True
    )
    assert sum(not isinstance(r, Exception) for r in results) == 2
    assert all(isinstance(r, TooManyActiveMatches) for r in results if isinstance(r, Exception))


async def test_simultaneous_challenges_cannot_slip_past_the_limit(make_service):
    service = await make_service(max_active_matches=3)
    results = await asyncio.gather(
        *(service.challenges.challenge(101, 500 + i, guild_id=1, channel_id=2) for i in range(10)),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 3
    assert len(await service.queries.open_matches_for(101)) == 3


async def test_the_ai_is_played_through_start_ai_match_only(service):
    with pytest.raises(InvalidRequest, match="start_ai_match"):
        await service.challenges.challenge(101, AI_USER_ID, guild_id=1, channel_id=2)
    with pytest.raises(InvalidRequest, match="unknown AI level 'godlike'"):
        await service.commands.start_ai_match(101, "godlike", guild_id=1, channel_id=2)


async def test_turn_timer_out_of_range_is_refused_quoting_it(service):
    with pytest.raises(InvalidRequest, match="turn timer of -5 seconds"):
        await service.challenges.challenge(101, 202, guild_id=1, channel_id=2, turn_seconds=-5)


async def test_unknown_match_is_reported_by_id(service):
    with pytest.raises(MatchNotFound, match="there is no match 999"):
        await service.challenges.accept(999, 202)
    with pytest.raises(MatchNotFound, match="999"):
        await service.commands.submit(999, 202, None, 0)  # type: ignore[arg-type]


async def test_guild_settings_set_the_defaults_of_new_challenges(service):
    await service.settings.set_guild_settings(
        GuildSettings(guild_id=1, turn_seconds=120.0, three_rounds_default=True)
    )
    challenge = await service.challenges.challenge(101, 202, guild_id=1, channel_id=2)
    assert challenge.turn_seconds == 120.0
    assert challenge.variant is Variant.THREE_ROUNDS
    explicit = await service.challenges.challenge(
        101, 303, guild_id=1, channel_id=2, variant=Variant.STANDARD, turn_seconds=90
    )
    assert (explicit.turn_seconds, explicit.variant) == (90.0, Variant.STANDARD)
    other_guild = await service.challenges.challenge(101, 404, guild_id=9, channel_id=2)
    assert other_guild.turn_seconds == service.config.turn_timer_seconds
